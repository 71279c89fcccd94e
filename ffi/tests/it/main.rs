//! The C ABI's tests, in one binary (each module was a binary of its own): C programs
//! compiled by gcc against the shared and static libraries, run plain, under valgrind and
//! with AddressSanitizer. `cargo test -p cc-search-ffi --test it -- sanitizers::` runs one
//! module.

// These tests make symlinks, run as other users and read Unix file modes: they run on
// Unix (Linux, macOS). On Windows the library, its unit tests and the programs are
// checked instead (`make check-windows`, docs/ARCHITECTURE.md "Portability").
#![cfg(unix)]

mod c_abi;
mod cancel;
mod code;
mod common;
#[path = "../../../core/tests/it/common/mod.rs"]
mod core_common;
mod docs;
mod sanitizers;
