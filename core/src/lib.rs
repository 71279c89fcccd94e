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

pub mod agent;
pub mod claude;
pub mod code;
pub mod config;
pub mod docs;
pub mod embed;
pub mod embedding;
pub mod engine;
pub mod env;
pub mod error;
pub mod files;
pub mod git;
pub mod grep;
pub mod hash;
pub mod hybrid;
pub mod mcp;
pub mod ops;
pub mod progress;
pub mod rank;
pub mod registry;
pub mod sessions;
pub mod store;
pub mod text;
pub mod time;
pub mod transcripts;
pub mod walk;

pub use config::Config;
pub use engine::{Engine, EngineOptions};
pub use error::{ERROR_CODES, Error, ErrorCode, Result};
pub use ops::{Operation, OperationInfo};
pub use registry::OPERATIONS;

/// The version of this library (`MAJOR.MINOR.PATCH`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
