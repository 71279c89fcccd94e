//! # cc-search
//!
//! Embedded search for coding agents: file paths ranked for the `@` picker, file
//! contents, code symbols, markdown docs and notes, and Claude Code session transcripts —
//! indexed into SQLite and queried in-process, offline.
//!
//! Everything is reached through an [`Engine`] and the operation table ([`registry`], of [`ops::Operation`]s): each
//! operation is a request type, a response type and a function. The C ABI, Python and
//! Node bindings call the same table by name with JSON.
//!
//! ```
//! use cc_search::{Engine, files};
//!
//! # fn main() -> cc_search::Result<()> {
//! let home = tempfile::tempdir().unwrap();
//! let project = tempfile::tempdir().unwrap();
//! std::fs::create_dir_all(project.path().join("src/components")).unwrap();
//! std::fs::write(project.path().join("src/components/Button.tsx"), "").unwrap();
//! std::fs::write(project.path().join("README.md"), "").unwrap();
//!
//! let engine = Engine::open_at(home.path())?;
//! let refreshed = engine.run::<files::Refresh>(files::RefreshRequest {
//!     root: Some(project.path().into()),
//!     ..Default::default()
//! })?;
//! assert_eq!(refreshed.files, 2);
//!
//! let found = engine.run::<files::Suggest>(files::SuggestRequest {
//!     query: "src/comp".into(),
//!     project_dir: Some(project.path().into()),
//!     ..Default::default()
//! })?;
//! assert_eq!(found.paths, ["src/components/Button.tsx"]);
//!
//! // The same operation by name, with JSON, as every other surface calls it:
//! let json = engine.call("files.suggest", &serde_json::json!({
//!     "query": "readme",
//!     "project_dir": project.path(),
//! }).to_string())?;
//! assert!(json.contains("README.md"));
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]
// A build with only some components (Cargo features) leaves part of the shared machinery
// unused; the full build (every feature, what `make lint` checks first) must use all of it.
#![cfg_attr(
    not(all(feature = "mcp", feature = "semantic")),
    allow(dead_code, unused_imports)
)]

// The API: the engine, the operation table and its trait, and each component (a Cargo
// feature each: docs/ARCHITECTURE.md, "Features").
pub mod agent;
#[cfg(feature = "files")]
pub mod claude;
#[cfg(feature = "code")]
pub mod code;
pub mod config;
#[cfg(feature = "docs")]
pub mod docs;
pub mod embed;
#[cfg(feature = "semantic")]
pub mod embedding;
pub mod engine;
pub mod error;
#[cfg(feature = "files")]
pub mod files;
#[cfg(feature = "grep")]
pub mod grep;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod ops;
pub mod progress;
pub mod registry;
#[cfg(feature = "sessions")]
pub mod sessions;

// Machinery the components share. Public only so that this crate's own tests,
// benchmarks, fuzz targets and bindings can reach it; not API (hidden from the docs, may
// change in any release).
#[doc(hidden)]
pub mod env;
#[cfg(feature = "git")]
#[doc(hidden)]
pub mod git;
#[doc(hidden)]
pub mod hash;
#[doc(hidden)]
pub mod hybrid;
#[doc(hidden)]
pub mod rank;
#[doc(hidden)]
pub mod store;
#[doc(hidden)]
pub mod text;
#[doc(hidden)]
pub mod time;
#[doc(hidden)]
pub mod transcripts;
#[doc(hidden)]
pub mod walk;
#[doc(hidden)]
pub mod watch;

pub use config::Config;
pub use engine::{Engine, EngineOptions};
pub use error::{ERROR_CODES, Error, ErrorCode, Result};
pub use ops::{Operation, OperationInfo};
pub use registry::OPERATIONS;

/// The version of this library (`MAJOR.MINOR.PATCH`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
