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
//! - `link`: which definition a reference means, by its language's rules;
//! - `resolve`: which references an incremental run links again;
//! - `cold`: a run into an empty index, which links its references in memory and
//!   inserts them already linked.

mod cold;
mod identity;
mod link;
mod parse;
mod plan;
mod resolve;
mod write;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};

use super::extract::{Binding, ExtractedFile};
use super::lang::LanguageExtractor;

use cold::Cold;
// (`code::ops` reads a language's family as `index::Family`.)
pub(crate) use super::lang::Family;
pub(crate) use plan::{index_repository, relative, update_files};

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

/// The metadata key of the index's [`TreeFacts`].
pub(crate) const TREE_FACTS: &str = "tree_facts";

/// What an overview needs of the tree besides the index, found by each index run's walk
/// (so an overview does not walk): the docs and the manifests.
#[derive(Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct TreeFacts {
    /// Documentation files per top directory (`.` for the root's own).
    pub docs: std::collections::BTreeMap<String, u64>,
    /// Manifests that may declare entry points, near the root, sorted.
    pub manifests: Vec<String>,
}

/// The [`TreeFacts`] of the files `rels` (relative, `/`-separated).
pub(crate) fn tree_facts<'a>(rels: impl Iterator<Item = &'a str> + Clone) -> TreeFacts {
    let mut facts = TreeFacts::default();
    let docs = crate::text::DefaultDocs::of(rels.clone());
    for rel in rels {
        if docs.contains(rel) {
            let top = rel.split_once('/').map_or(".", |(top, _)| top);
            *facts.docs.entry(top.to_string()).or_default() += 1;
        }
        let name = rel.rsplit('/').next().unwrap_or(rel);
        if crate::code::extractors()
            .iter()
            .any(|l| l.manifests().contains(&name))
            && rel.matches('/').count() <= 2
        {
            facts.manifests.push(rel.to_string());
        }
    }
    facts.manifests.sort();
    facts
}

impl RunStats {
    /// The stats of a run that finds nothing changed after this one.
    fn settled(&self) -> RunStats {
        RunStats {
            files: self.files,
            unchanged: self.files,
            skipped: self.skipped,
            symbols: self.symbols,
            refs: self.refs,
            ..RunStats::default()
        }
    }
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
    crate::time::unix_now()
}

#[cfg(test)]
mod tests;

/// Rows added (or, negative, removed) by a run, so totals need no full count.
#[derive(Default)]
struct Delta {
    symbols: i64,
    refs: i64,
}

/// The names a run defined anew or removed, or whose reach it changed: references to
/// them may now resolve differently.
#[derive(Default)]
struct Touched {
    /// Whether to collect them at all (not in a cold run, which resolves everything).
    track: bool,
    /// Names of symbols inserted into the index: a new definition can be a better target
    /// for references already resolved elsewhere.
    added: HashSet<String>,
    /// Names of symbols removed: references to them were unlinked (`ON DELETE SET NULL`).
    removed: HashSet<String>,
    /// Files new in the run or whose imports changed, with the imports they gained: the
    /// names those pass on or bring into view may link elsewhere now (see
    /// [`resolve::passed_on`]). What removed files and imports took away is in `added`
    /// already (known before the rows went).
    reshaped: Vec<(i64, Vec<Binding>)>,
}

struct Writer<'c, 't> {
    conn: &'c Connection,
    /// The repository root (what an import reaches is found from it).
    root: &'c Path,
    delta: Delta,
    touched: &'t mut Touched,
    /// Whether the FTS insert trigger is off for this run (see [`write_run`]).
    bulk_fts: bool,
    /// With `bulk_fts`: files new in this run, and symbols inserted into known files.
    new_files: Vec<i64>,
    inserted: Vec<i64>,
    /// In a cold run: what linking the references needs, gathered while writing.
    cold: Option<Cold>,
}

/// Why a file over the size limit is not indexed.
fn too_large(rel: &str, size: u64, max_size: u64) -> String {
    format!("{rel}: {size} bytes, over the {max_size} byte limit, skipped")
}

/// Store the names a file's imports bind.
fn insert_bindings(conn: &Connection, file_id: i64, bindings: &[Binding]) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO file_bindings (file_id, local, module, name) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for b in bindings {
        stmt.execute(params![file_id, b.local, b.module, b.name])?;
    }
    Ok(())
}

/// A symbol's mixins as the `mixins` column keeps them: one a line, NULL for none.
fn stored_mixins(mixins: &[String]) -> Option<String> {
    (!mixins.is_empty()).then(|| mixins.join("\n"))
}

/// A class's fields or uses as the `fields` and `uses` columns keep them: `name
/// qualifier` (`name use use`), one a line, NULL for none.
fn stored_pairs(pairs: &[(String, String)]) -> Option<String> {
    (!pairs.is_empty()).then(|| {
        let lines: Vec<String> = pairs.iter().map(|(n, ty)| format!("{n} {ty}")).collect();
        lines.join("\n")
    })
}

/// The `(name, qualifier)` (`(name, uses)`) pairs a `fields` (`uses`) column keeps
/// ([`stored_pairs`]).
fn pairs_of(stored: &str) -> impl Iterator<Item = (&str, &str)> {
    stored.lines().filter_map(|l| l.split_once(' '))
}
