//! The `docs` and `notes` components: markdown documentation and session notes, split
//! into H2 sections and searched with the hybrid engine ([`crate::hybrid`]).
//!
//! - [`Index`] (`docs.index`): the project's documentation where projects keep it
//!   ([`DEFAULT_DOC_GLOBS`]: top-level files such as the README, `doc/`, `docs/`,
//!   `{apps,packages}/*/docs/`; and each package's README and docs directories and a
//!   Rust crate's `//!` guide, [`DefaultDocs`]; in Markdown
//!   or reStructuredText) plus the globs the
//!   project was ever indexed with (remembered in `doc_globs`), for the current project
//!   and git branch.
//! - [`Query`] (`docs.query`): search it, in the current project and branch unless told
//!   otherwise (`all_branches`, `branch`). A query never indexes.
//! - [`NotesIndex`] (`notes.index`), [`NotesQuery`] (`notes.query`): session notes
//!   (`sessions/**/*.md`), each dated by its folder (`…/sessions/YYYY_MM_DD_TOPIC/FILE.md`),
//!   filtered by date (`after`) and file name (`file`).
//!
//! A project is its root — the git work tree's root, or the directory itself outside
//! git — identified by that root's canonical path ([`Project::key`]): two checkouts, or
//! two projects with the same directory name, are two projects whose sections never mix.
//! Answers name the project by its directory's name, which is what people read.
//!
//! Everything lives in `docs.db` in the data root: the chunk store's tables (each
//! section's `scope` is its project's key) plus `doc_files`, one row per indexed file,
//! project root and branch (mtime, size, SHA-256); notes belong to no branch (their
//! branch is empty), so checking out another branch changes nothing about them. A run:
//!
//! 1. takes the advisory lock `docs.lock` ([`lock`]): a second run waits, then reports who
//!    holds it; the holder refreshes its timestamp while it runs, and locks not refreshed
//!    for 5 minutes or of a dead process are broken;
//! 2. skips files whose mtime and size are unchanged; updates only the mtime of files
//!    whose content hash is unchanged; re-chunks the others; drops files that are gone;
//!    all in one transaction;
//! 3. embeds the sections that have no vectors yet, through the content-addressed cache
//!    (`embeddings.db`): the same section text on another branch or in another project
//!    is never embedded twice. Without a model the sections are searchable by keyword,
//!    and the next run with a model embeds them.

pub mod lock;

// The operations have a file each: `index.rs` (`docs.index`, and the index run described
// above, which `notes.index` shares), `query.rs` (`docs.query`, and the search
// `notes.query` shares) and `notes.rs` (`notes.index` and `notes.query`: that run and that
// search over the session notes). Here: what they all use — the database, the two
// collections and the project.
mod index;
mod notes;
mod query;

pub use index::{Index, IndexRequest, IndexResponse, embed_pending};
pub use notes::{NotesIndex, NotesIndexRequest, NotesQuery, NotesQueryRequest};
pub use query::{Query, QueryHit, QueryRequest, QueryResponse};

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::engine::Engine;
use crate::error::Result;
use crate::hash::hex;
use crate::hybrid;

pub use crate::text::{DEFAULT_DOC_GLOBS, DefaultDocs, is_default_doc};

/// The notes glob, relative to the project root.
pub const NOTES_GLOB: &str = "sessions/**/*.md";
/// How long an index run waits for another one by default.
pub const DEFAULT_LOCK_WAIT_SECS: u64 = 30;

/// The docs and notes index: `docs.db` in the data root.
pub const DOCS_DB: crate::engine::DatabaseFile = crate::engine::DatabaseFile {
    name: "docs.db",
    migrations: SCHEMA,
    mmap_bytes: hybrid::MMAP_BYTES,
};

/// The docs and notes index of the engine (`docs.db` in the data root).
fn store(engine: &Engine) -> Result<hybrid::ChunkStore> {
    hybrid::ChunkStore::of(engine, &DOCS_DB)
}

/// The schema of `docs.db`: the chunk store, then the indexed files, then (3) projects
/// keyed by their root's path instead of their directory's name, then (4) the globs each
/// project was indexed with beyond the defaults, then (5) each section's lines, then (6)
/// large sections cut at their next heading level.
pub const SCHEMA: crate::store::Migrations = &[
    hybrid::SCHEMA_V1,
    r#"
CREATE TABLE doc_files (
  collection TEXT NOT NULL,
  project TEXT NOT NULL,
  branch TEXT NOT NULL,
  path TEXT NOT NULL,
  mtime_ns INTEGER NOT NULL,
  size INTEGER NOT NULL,
  content_sha256 BLOB NOT NULL,
  indexed_at INTEGER NOT NULL,
  PRIMARY KEY (collection, project, branch, path)
) STRICT, WITHOUT ROWID;
"#,
    // Version 2 keyed projects by their directory's name, so two projects called `app`
    // shared (and overwrote) one set of sections. Nothing stored says which root a row
    // came from (paths are relative, the name is all there is), so the rows are dropped:
    // the next index run of each project rebuilds its sections, with vectors from the
    // content-addressed cache (`embeddings.db`, untouched), so no text is embedded again.
    r#"
DELETE FROM chunk_vectors;
DELETE FROM chunk_windows;
DELETE FROM chunks;
DROP TABLE doc_files;
CREATE TABLE doc_files (
  collection TEXT NOT NULL,
  root TEXT NOT NULL,
  branch TEXT NOT NULL,
  path TEXT NOT NULL,
  mtime_ns INTEGER NOT NULL,
  size INTEGER NOT NULL,
  content_sha256 BLOB NOT NULL,
  indexed_at INTEGER NOT NULL,
  PRIMARY KEY (collection, root, branch, path)
) STRICT, WITHOUT ROWID;
"#,
    r#"
CREATE TABLE doc_globs (
  root TEXT NOT NULL,
  glob TEXT NOT NULL,
  added_at INTEGER NOT NULL,
  PRIMARY KEY (root, glob)
) STRICT, WITHOUT ROWID;
"#,
    // Version 5: sections know their lines (`line`, `end_line` in each chunk's meta).
    // Every file is read again on its next index run (its chunks keep their vectors).
    "UPDATE doc_files SET mtime_ns = -1;",
    // Version 6: a section larger than `text::LARGE_SECTION` is cut at its next heading
    // level. Every file is split again on its next index run, as if its content had
    // changed, so its old sections go (sections that stay keep their vectors).
    "UPDATE doc_files SET mtime_ns = -1, content_sha256 = x'';",
];

/// Which set of markdown files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Collection {
    Docs,
    Notes,
}

impl Collection {
    fn name(self) -> &'static str {
        match self {
            Collection::Docs => "docs",
            Collection::Notes => "notes",
        }
    }
    /// The chunks' kind in the store.
    fn kind(self) -> &'static str {
        match self {
            Collection::Docs => "doc",
            Collection::Notes => "note",
        }
    }
}

/// The project a directory belongs to: its git work tree's root (or the directory
/// itself outside git), that root's directory name, and the checked-out branch — the
/// branch HEAD names even before its first commit, `detached@<7 hex>` on a detached
/// HEAD, empty outside git. The index knows a project by its root ([`Project::key`]),
/// never by its name, which other projects may share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The root files are read from.
    pub root: PathBuf,
    /// The root directory's name.
    pub name: String,
    /// The branch.
    pub branch: String,
}

impl Project {
    /// The project of `dir` (canonical).
    pub fn of(dir: &Path) -> Project {
        let found = work_tree(dir);
        let root = found
            .as_ref()
            .map(|(root, _)| root.clone())
            .unwrap_or_else(|| dir.to_path_buf());
        let name = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| root.to_string_lossy().into_owned());
        let branch = match &found {
            None => String::new(),
            Some((_, git_dir)) => branch_of(dir, git_dir),
        };
        Project { root, name, branch }
    }

    /// The project's identity in the index: its root's path as text (the root is
    /// canonical, so every directory of the project, and every symlink to it, gives the
    /// same key). A root that is not valid UTF-8 is a NUL followed by the hex of its
    /// bytes, which no path can equal.
    pub fn key(&self) -> String {
        match self.root.to_str() {
            Some(root) => root.to_string(),
            None => format!("\u{0}{}", hex(self.root.as_os_str().as_encoded_bytes())),
        }
    }
}

/// The work trees found for directories (root, git directory), by directory: finding
/// one opens the repository (libgit2 reads its configuration), and a server finds the
/// project on every call. A few dozen at most.
static WORK_TREES: std::sync::LazyLock<std::sync::Mutex<HashMap<PathBuf, (PathBuf, PathBuf)>>> =
    std::sync::LazyLock::new(Default::default);

/// The root and git directory of the work tree `dir` is in; `None` outside one (see
/// [`crate::git::Repo::discover`]). Found once per directory while it holds: its git
/// directory still has a `HEAD`, and no directory from `dir` up to the root has become a
/// repository of its own since.
fn work_tree(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let known = WORK_TREES
        .lock()
        .ok()
        .and_then(|found| found.get(dir).cloned());
    if let Some((root, git_dir)) = known
        && git_dir.join("HEAD").is_file()
        && dir
            .ancestors()
            .take_while(|at| *at != root)
            .all(|at| std::fs::symlink_metadata(at.join(".git")).is_err())
    {
        return Some((root, git_dir));
    }
    let repo = crate::git::Repo::discover(dir);
    let found = repo.map(|r| (r.root().to_path_buf(), r.git_dir().to_path_buf()));
    if let Ok(mut known) = WORK_TREES.lock() {
        match &found {
            Some(found) => {
                if known.len() >= 64 {
                    known.clear();
                }
                known.insert(dir.to_path_buf(), found.clone());
            }
            None => {
                known.remove(dir);
            }
        }
    }
    found
}

/// The branch of the work tree whose git directory is `git_dir`, from its `HEAD` file:
/// the branch it names (born or not), `detached@<7 hex>` for a commit; what git says for
/// anything else (a reftable's placeholder, a ref outside `refs/heads/`).
fn branch_of(dir: &Path, git_dir: &Path) -> String {
    let head = std::fs::read_to_string(git_dir.join("HEAD")).unwrap_or_default();
    let head = head.trim();
    if let Some(name) = head
        .strip_prefix("ref:")
        .and_then(|r| r.trim().strip_prefix("refs/heads/"))
        .filter(|name| !name.is_empty() && *name != ".invalid")
    {
        return name.to_string();
    }
    if head.len() >= 40 && head.bytes().all(|b| b.is_ascii_hexdigit()) {
        return format!("detached@{}", &head[..7]);
    }
    let Some(repo) = crate::git::Repo::discover(dir) else {
        return String::new();
    };
    match repo.branch() {
        Some(branch) => branch,
        None => match repo.head() {
            Some(head) => format!("detached@{}", &head[..head.len().min(7)]),
            None => unborn_branch(repo.git_dir()).unwrap_or_default(),
        },
    }
}

/// The branch HEAD names when it has no commit yet (`ref: refs/heads/<name>` in the git
/// directory's `HEAD`), so a new repository's docs are on `main` (or whatever it is
/// called) from the start, not on a nameless branch that changes with the first commit.
/// A reftable repository keeps HEAD in its tables (its `HEAD` file names the
/// placeholder `.invalid`): git itself is asked then.
fn unborn_branch(git_dir: &Path) -> Option<String> {
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let name = head
        .trim()
        .strip_prefix("ref:")?
        .trim()
        .strip_prefix("refs/heads/")?;
    if name == ".invalid" {
        let out = std::process::Command::new("git")
            .arg("--git-dir")
            .arg(git_dir)
            .args(["symbolic-ref", "--quiet", "--short", "HEAD"])
            .output()
            .ok()?;
        let name = String::from_utf8(out.stdout).ok()?;
        let name = name.trim();
        return (out.status.success() && !name.is_empty()).then(|| name.to_string());
    }
    (!name.is_empty()).then(|| name.to_string())
}
