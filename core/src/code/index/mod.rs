//! Indexing: choose files, parse the changed ones on every core, write from one thread in
//! one transaction, resolve references.
//!
//! By concern:
//!
//! - `plan`: which files a run parses ([`index_repository`] walks and compares with what
//!   is stored, [`update_files`] takes the files it is given);
//! - `parse`: reading, hashing and parsing one file on a worker thread;
//! - `write`: the run's one transaction, writing each parsed file in job order;
//! - `identity`: a changed file's symbols as stored before, so a symbol that keeps its
//!   identity keeps its row and id;
//! - `resolve`: linking references to symbols after an incremental run;
//! - `cold`: a run into an empty index, which links its references in memory and
//!   inserts them already linked.

mod cold;
mod identity;
mod parse;
mod plan;
mod resolve;
mod write;

use std::path::PathBuf;

use super::extract::ExtractedFile;
use super::lang::LanguageExtractor;

pub(crate) use plan::{index_repository, update_files};

/// What an index run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RunStats {
    pub files: usize,
    pub new: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub deleted: usize,
    pub skipped: usize,
    pub symbols: u64,
    pub refs: u64,
    pub bytes_parsed: u64,
    pub warnings: Vec<String>,
}

struct Job {
    rel: String,
    path: PathBuf,
    lang: &'static dyn LanguageExtractor,
    ext: String,
    known: Option<(i64, String)>,
}

enum Outcome {
    /// Same content as indexed: only mtime and size move.
    Same {
        mtime: i64,
        size: i64,
    },
    Parsed {
        hash: String,
        mtime: i64,
        size: i64,
        file: ExtractedFile,
        /// Every symbol's `name_tokens`, in depth-first order (computed on the worker).
        tokens: Vec<String>,
        bytes: u64,
    },
    Skipped(String),
}

fn now() -> i64 {
    crate::git::unix_now()
}

#[cfg(test)]
mod tests;
