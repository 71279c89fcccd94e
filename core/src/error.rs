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
    /// The caller asked the operation to stop ([`crate::progress`]): Ctrl-C, a cancel
    /// call, an abort signal. What it had committed stays; a later run does the rest.
    #[error("cancelled: stopped as asked; what was done is kept, and a later run does the rest")]
    Cancelled,
}

/// The kind of an [`Error`], as every surface tells it apart: a C status, a Python
/// exception class, a Node `err.code`. Not `non_exhaustive` on purpose: each surface
/// matches it exhaustively, so a new code fails to compile there until it is mapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorCode {
    /// [`Error::InvalidRequest`].
    InvalidRequest,
    /// [`Error::UnknownOperation`].
    UnknownOperation,
    /// [`Error::Io`].
    Io,
    /// [`Error::Database`].
    Database,
    /// [`Error::Internal`], and a panic caught at a boundary.
    Internal,
    /// [`Error::Cancelled`].
    Cancelled,
}

impl ErrorCode {
    /// Every code, in a fixed order.
    pub const ALL: [ErrorCode; 6] = [
        ErrorCode::InvalidRequest,
        ErrorCode::UnknownOperation,
        ErrorCode::Io,
        ErrorCode::Database,
        ErrorCode::Internal,
        ErrorCode::Cancelled,
    ];

    /// The stable string form (`invalid_request`, …), the same on every surface.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::UnknownOperation => "unknown_operation",
            ErrorCode::Io => "io",
            ErrorCode::Database => "database",
            ErrorCode::Internal => "internal",
            ErrorCode::Cancelled => "cancelled",
        }
    }

    /// The code whose string form is `text`.
    pub fn parse(text: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Error {
    /// The kind of this error ([`ErrorCode`]), for surfaces that map it.
    pub fn error_code(&self) -> ErrorCode {
        match self {
            Error::InvalidRequest { .. } => ErrorCode::InvalidRequest,
            Error::UnknownOperation { .. } => ErrorCode::UnknownOperation,
            Error::Io { .. } => ErrorCode::Io,
            Error::Database { .. } => ErrorCode::Database,
            Error::Internal(_) => ErrorCode::Internal,
            Error::Cancelled => ErrorCode::Cancelled,
        }
    }

    /// A stable, machine-readable code for this error, the same on every surface
    /// ([`ErrorCode::as_str`] of [`Error::error_code`]).
    pub fn code(&self) -> &'static str {
        self.error_code().as_str()
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

/// What a caught panic says: its message when it carried one (as `panic!` with a string
/// does), else "unknown panic". For the boundaries that turn a panic into an error.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Every error code [`Error::code`] can return, for surfaces that enumerate them.
pub const ERROR_CODES: &[&str] = &[
    ErrorCode::ALL[0].as_str(),
    ErrorCode::ALL[1].as_str(),
    ErrorCode::ALL[2].as_str(),
    ErrorCode::ALL[3].as_str(),
    ErrorCode::ALL[4].as_str(),
    ErrorCode::ALL[5].as_str(),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_listed_once_and_round_trips() {
        // A new variant makes this match fail to compile until it has a place in ALL.
        let position = |code: ErrorCode| match code {
            ErrorCode::InvalidRequest => 0,
            ErrorCode::UnknownOperation => 1,
            ErrorCode::Io => 2,
            ErrorCode::Database => 3,
            ErrorCode::Internal => 4,
            ErrorCode::Cancelled => 5,
        };
        for (i, code) in ErrorCode::ALL.into_iter().enumerate() {
            assert_eq!(position(code), i);
            assert_eq!(ERROR_CODES[i], code.as_str());
            assert_eq!(ErrorCode::parse(code.as_str()), Some(code));
        }
        assert_eq!(ERROR_CODES.len(), ErrorCode::ALL.len());
        assert_eq!(ErrorCode::parse("nope"), None);
    }
}
