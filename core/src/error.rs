//! The one error type of cc-search.

use std::path::PathBuf;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in cc-search.
///
/// Each variant carries what it is about (a path, an operation name, a query), so a
/// message shown to a user says where to look. [`Error::code`] gives a stable
/// machine-readable code shared by every surface (C status, Python exception class,
/// Node `err.code`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request was malformed: invalid JSON, a missing or mistyped field, or a value
    /// out of range.
    #[error("invalid request for `{operation}`: {message}")]
    InvalidRequest {
        /// The operation the request was for.
        operation: String,
        /// What is wrong with it.
        message: String,
    },
    /// No operation has this name.
    #[error("unknown operation `{name}` (known: {known})")]
    UnknownOperation {
        /// The name asked for.
        name: String,
        /// The names that exist, comma separated.
        known: String,
    },
    /// A filesystem operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The path the operation was about.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A SQLite operation failed.
    #[error("database {path}: {source}")]
    Database {
        /// The database file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: rusqlite::Error,
    },
    /// A bug or an impossible state; the message says which.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// A stable, machine-readable code for this error, the same on every surface.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidRequest { .. } => "invalid_request",
            Error::UnknownOperation { .. } => "unknown_operation",
            Error::Io { .. } => "io",
            Error::Database { .. } => "database",
            Error::Internal(_) => "internal",
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn db(path: impl Into<PathBuf>, source: rusqlite::Error) -> Self {
        Error::Database {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn invalid(operation: &str, message: impl Into<String>) -> Self {
        Error::InvalidRequest {
            operation: operation.to_string(),
            message: message.into(),
        }
    }
}

/// Every error code [`Error::code`] can return, for surfaces that enumerate them.
pub const ERROR_CODES: &[&str] = &[
    "invalid_request",
    "unknown_operation",
    "io",
    "database",
    "internal",
];
