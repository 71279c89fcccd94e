//! The integration tests of the core, in one binary: each module below was a test binary
//! of its own, and every extra binary linked the whole stack again (ripgrep keeps its
//! tests the same way). `cargo test -p cc-search --test it -- <module>::` runs one module,
//! e.g. `cargo test -p cc-search --test it -- crash::`.
//!
//! Tests share this process: a test that needs its own environment variables, user or
//! working directory runs its body in a child process (`common::in_child`), never by
//! changing this process's environment.

// These tests make symlinks, run as other users and read Unix file modes: they run on
// Unix (Linux, macOS). On Windows the library, its unit tests and the programs are
// checked instead (`make check-windows`, docs/ARCHITECTURE.md "Portability").
#![cfg(unix)]

mod architecture;
mod bad_input;
mod bindgen;
mod bindings_generated;
mod cancel;
mod claude;
mod claude_activity;
mod claude_mcp;
mod code;
mod code_find;
mod code_lang;
mod code_links;
mod code_ranking;
mod code_resolution;
mod code_walk;
mod common;
#[cfg(unix)]
mod concurrency;
mod confine;
#[cfg(unix)]
mod crash;
mod docs;
mod docs_projects;
mod embed;
mod files;
mod files_hook;
mod frecency;
mod git;
mod grep;
#[cfg(unix)]
mod harness;
mod hybrid;
mod incremental;
mod links_of;
mod mcp;
mod mcp_budget;
mod picker;
mod security;
mod sessions;
