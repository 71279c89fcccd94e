//! `files`: file paths indexed for the `@` picker (file-picker spec).
//!
//! Two operations so far: [`Refresh`] (`files.refresh`) walks a root and brings the index
//! up to date incrementally; [`Suggest`] (`files.suggest`) answers a picker query with at
//! most 15 paths, relative to the project root.

pub mod hook;
mod list;
pub mod query;
mod rank;
mod refresh;
mod scope;
mod suggest;
mod typo;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

// For the fuzz targets (tests/fuzz): the matcher and the mask the scan skips paths by.
#[doc(hidden)]
pub use rank::{PathMatcher, char_mask};
pub use refresh::refresh;
pub use suggest::suggest;
#[doc(hidden)]
pub use typo::TypoMatcher;

/// The triggers that keep `files_fts` in step with `files_meta`.
macro_rules! fts_triggers {
    () => {
        r#"
CREATE TRIGGER files_meta_ai AFTER INSERT ON files_meta BEGIN
  INSERT INTO files_fts(rowid, path, filename, dir_components)
  VALUES (NEW.rowid, NEW.path, NEW.filename, NEW.dir_components);
END;

CREATE TRIGGER files_meta_ad AFTER DELETE ON files_meta BEGIN
  INSERT INTO files_fts(files_fts, rowid, path, filename, dir_components)
  VALUES ('delete', OLD.rowid, OLD.path, OLD.filename, OLD.dir_components);
END;

CREATE TRIGGER files_meta_au AFTER UPDATE OF path, filename, dir_components ON files_meta BEGIN
  INSERT INTO files_fts(files_fts, rowid, path, filename, dir_components)
  VALUES ('delete', OLD.rowid, OLD.path, OLD.filename, OLD.dir_components);
  INSERT INTO files_fts(rowid, path, filename, dir_components)
  VALUES (NEW.rowid, NEW.path, NEW.filename, NEW.dir_components);
END;
"#
    };
}

/// The migration that rebuilds `files_fts` with prefix indexes of the lengths given
/// (`"1 2 3 4"`), and its triggers.
macro_rules! fts_with_prefixes {
    ($prefixes:literal) => {
        concat!(
            r#"
DROP TRIGGER files_meta_ai;
DROP TRIGGER files_meta_ad;
DROP TRIGGER files_meta_au;
DROP TABLE files_fts;
CREATE VIRTUAL TABLE files_fts USING fts5(
  path,
  filename,
  dir_components,
  content=files_meta,
  content_rowid=rowid,
  tokenize='unicode61 remove_diacritics 1 tokenchars ''_-''',
  prefix='"#,
            $prefixes,
            r#"'
);
INSERT INTO files_fts(files_fts) VALUES ('rebuild');
"#,
            fts_triggers!(),
        )
    };
}

/// [`fts_triggers!`] as a constant, for re-creating the triggers after a bulk write (and
/// for tests that rebuild an older schema).
#[doc(hidden)]
pub const FTS_TRIGGERS: &str = fts_triggers!();

/// The file index: `files.db` in the data root. Read through a memory map: a hook process
/// starts with SQLite's page cache empty, and its few hundred page reads (the path list,
/// the candidates' frecency) then cost no system call and no copy each (alternating
/// whole-process runs of the native hook: p50 4.56 against 4.44 ms, p90 8.92 against
/// 8.26 ms at 10k files).
pub const FILES_DB: crate::engine::DatabaseFile = crate::engine::DatabaseFile {
    name: "files.db",
    migrations: SCHEMA,
    mmap_bytes: crate::hybrid::MMAP_BYTES,
};

impl crate::engine::Engine {
    /// Where the file index lives.
    pub fn files_db_path(&self) -> std::path::PathBuf {
        self.home().join(FILES_DB.name)
    }
}

/// The file index schema (spec "Database Schema"), as migrations.
///
/// `files_meta` holds one row per file; `files_fts` is an external-content FTS5 index
/// over it kept in sync by triggers. The update trigger fires only when an indexed
/// column changes, so an mtime-only update does not rewrite the FTS index.
pub const SCHEMA: crate::store::Migrations = &[
    concat!(
        r#"
CREATE TABLE files_meta (
  path TEXT PRIMARY KEY,
  filename TEXT NOT NULL,
  dir_components TEXT NOT NULL,
  root TEXT NOT NULL,
  mtime INTEGER NOT NULL,
  relative_path TEXT
) STRICT;

CREATE VIRTUAL TABLE files_fts USING fts5(
  path,
  filename,
  dir_components,
  content=files_meta,
  content_rowid=rowid,
  tokenize='unicode61 remove_diacritics 1 tokenchars ''_-'''
);

"#,
        fts_triggers!(),
        r#"
CREATE TABLE frecency (
  path TEXT PRIMARY KEY REFERENCES files_meta(path) ON DELETE CASCADE,
  git_recency REAL DEFAULT 0,
  git_frequency INTEGER DEFAULT 0,
  git_status_boost REAL DEFAULT 0,
  last_seen INTEGER DEFAULT 0
) STRICT;

CREATE TABLE watched_roots (
  root TEXT PRIMARY KEY,
  max_depth INTEGER DEFAULT 10,
  last_indexed INTEGER,
  file_count INTEGER
) STRICT;

CREATE INDEX idx_files_meta_root ON files_meta(root);
CREATE INDEX idx_frecency_path ON frecency(path);
"#
    ),
    // 2: what the query path needs beyond the spec's tables: each root's paths as one
    // NUL-separated list for the fuzzy scan, directory mtimes for finding files created
    // since the last refresh, the HEAD each repository was last indexed at, and an mtime
    // index for "most recently modified" answers.
    r#"
CREATE TABLE files_lists (
  root TEXT PRIMARY KEY,
  paths BLOB NOT NULL,
  count INTEGER NOT NULL
) STRICT;

CREATE TABLE files_dirs (
  path TEXT PRIMARY KEY,
  root TEXT NOT NULL,
  mtime_ns INTEGER NOT NULL
) STRICT;
CREATE INDEX idx_files_dirs_root ON files_dirs(root);

CREATE TABLE git_heads (
  repo TEXT PRIMARY KEY,
  head TEXT,
  branch TEXT,
  indexed_at INTEGER NOT NULL
) STRICT;

CREATE INDEX idx_files_meta_mtime ON files_meta(mtime);
"#,
    // 3: frecency learned from Claude Code's own transcripts: accesses (deduplicated, so
    // a forked session's repeated records count once), how far each transcript was read
    // for each project, and the decayed sums per file.
    r#"
ALTER TABLE frecency ADD COLUMN claude_reads REAL NOT NULL DEFAULT 0;
ALTER TABLE frecency ADD COLUMN claude_edits REAL NOT NULL DEFAULT 0;
ALTER TABLE frecency ADD COLUMN claude_mentions REAL NOT NULL DEFAULT 0;

CREATE TABLE claude_accesses (
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (path, kind, at)
) STRICT, WITHOUT ROWID;

CREATE TABLE claude_transcripts (
  project TEXT NOT NULL,
  file TEXT NOT NULL,
  offset INTEGER NOT NULL,
  size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  PRIMARY KEY (project, file)
) STRICT;
"#,
    // 4: the fresh-file search reads the most recently modified directories first.
    "CREATE INDEX idx_files_dirs_mtime ON files_dirs(mtime_ns);",
    // 5: what the last walk of each root was, so the next refresh can bring it up to date
    // from directory mtimes and git instead of walking it again: the walk's rules
    // (`walk_key`, NULL when it was truncated), when it was last brought up to date
    // (`walked_at`, in nanoseconds), when it was last walked in full, and the HEAD of its
    // repository then.
    r#"
ALTER TABLE watched_roots ADD COLUMN walk_key TEXT;
ALTER TABLE watched_roots ADD COLUMN walked_at INTEGER;
ALTER TABLE watched_roots ADD COLUMN full_walk_at INTEGER;
ALTER TABLE watched_roots ADD COLUMN git_head TEXT;
"#,
    // 6: an index of each path list (`list.rs`): per entry its character mask, so the
    // fuzzy scan skips paths that lack a character of the query, and its offset (NULL
    // until the list is next written).
    "ALTER TABLE files_lists ADD COLUMN entry_index BLOB;",
    // 7: the file each path list is also written to (`list.rs`, `Snapshot`), which the
    // scan maps into memory; NULL until the list is next written.
    "ALTER TABLE files_lists ADD COLUMN snapshot TEXT;",
    // 8: the word index with prefix indexes of one to four characters. The last word of
    // a query is a prefix (`ser` → `ser*`), and without them FTS5 merges the list of
    // every word that begins so before it can return its first row: at 100k files `s*`
    // took 10 ms, `ser*` 3.5 ms and `src comp*` 1.7 ms, against 0.2–0.6 ms with them.
    // The index is about four times larger (16 against 3.9 MB at 100k files) and a full
    // rebuild takes about 2.5 times as long (1.2 against 0.5 s); longer prefixes are
    // rarely shared by enough words to cost much.
    fts_with_prefixes!("1 2 3 4"),
    // 9: `files_lists` with its small columns before its blobs. SQLite stores a row's
    // columns in order and a blob past the page in a chain of overflow pages, so reading
    // `count` or `snapshot` (added last, after both blobs) walked the chain of a list's
    // every page: at 100k files, 1,400 pages and 1–4 ms before each query could map its
    // snapshot. `entry_index` comes before `paths`, so the scan that reads the columns
    // does not walk the paths to reach the index. Each entry of the index now also holds
    // its boundary mask (`list.rs`): the old indexes and their snapshots are dropped, the
    // scan rebuilds an index it lacks in memory, and the next refresh writes both.
    r#"
CREATE TABLE files_lists_9 (
  root TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  snapshot TEXT,
  entry_index BLOB,
  paths BLOB NOT NULL
) STRICT;
INSERT INTO files_lists_9 (root, count, snapshot, entry_index, paths)
  SELECT root, count, NULL, NULL, paths FROM files_lists;
DROP TABLE files_lists;
ALTER TABLE files_lists_9 RENAME TO files_lists;
"#,
    // 10: each entry of a list's index also holds what the bound of its score reads of
    // its file name (`list.rs`, `NameFacts`), so the scan reads a path only where it
    // may begin the query. The old indexes and snapshots are dropped as in 9.
    "UPDATE files_lists SET entry_index = NULL, snapshot = NULL;",
    // 11: prefix indexes of five to eight characters as well: a word typed is a prefix
    // for each of its keystrokes, and past four characters FTS5 merged the list of every
    // word that begins so (`button*`, 1.5 ms at 100k files, 0.3 ms with them). The word
    // index grows from 17.6 to 23.0 MB at 100k files (longer prefixes are shared by fewer
    // words), and a full rebuild takes about as long (1.2 s).
    fts_with_prefixes!("1 2 3 4 5 6 7 8"),
];

/// Most paths a suggestion returns (spec: "at most 15").
pub const MAX_SUGGESTIONS: usize = 15;

/// `files.refresh`: index the files under a root.
#[derive(Debug, Clone, Copy)]
pub struct Refresh;

/// Parameters of `files.refresh`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RefreshRequest {
    /// Directory to index. Without it: the project (`$CLAUDE_PROJECT_DIR`, else the
    /// current directory), the configured `[index] roots` and the project's additional
    /// directories.
    pub root: Option<PathBuf>,
    /// The project whose session is refreshed when `root` is not given; defaults to
    /// `$CLAUDE_PROJECT_DIR`, else the current directory.
    pub project_dir: Option<PathBuf>,
    /// Maximum depth below the root; defaults to `[index.depth]` of the configuration.
    pub max_depth: Option<usize>,
    /// Extra gitignore-style patterns to exclude, on top of the defaults and the
    /// configuration's `[index.exclude]`.
    pub exclude: Vec<String>,
    /// Stop after this many files; defaults to `[index.limits] max_files_per_root`.
    pub max_files: Option<usize>,
    /// Compute git frecency as of this Unix time instead of now (for replaying a
    /// repository's history).
    pub now: Option<i64>,
    /// Claude Code's configuration directory, whose session transcripts tell which files
    /// were read, edited and mentioned; defaults to `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub claude_dir: Option<PathBuf>,
    /// Walk every root in full. Without it, a root in a git work tree that was walked
    /// within the last day with the same rules is brought up to date from what moved:
    /// directories whose mtime changed, files git reports (status, and the commits
    /// between the HEAD last indexed and the current one).
    pub full: bool,
}

/// Result of `files.refresh`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RefreshResponse {
    /// The canonical root that was indexed.
    pub root: String,
    /// Files now indexed under the root.
    pub files: usize,
    /// Files new to the index.
    pub added: usize,
    /// Files whose modification time changed.
    pub updated: usize,
    /// Files that disappeared and were removed from the index.
    pub removed: usize,
    /// Whether the file limit cut a walk short.
    pub truncated: bool,
    /// Each root refreshed, the one asked for (or the project) first.
    pub roots: Vec<RootRefresh>,
    /// What was skipped and why.
    pub warnings: Vec<String>,
}

/// What `files.refresh` did to one root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RootRefresh {
    /// The canonical root.
    pub root: String,
    /// Files now indexed under it.
    pub files: usize,
    /// Files new to the index.
    pub added: usize,
    /// Files whose modification time changed.
    pub updated: usize,
    /// Files removed from the index.
    pub removed: usize,
    /// Whether the file limit cut its walk short.
    pub truncated: bool,
    /// Whether it was brought up to date from directory mtimes and git rather than
    /// walked in full.
    pub incremental: bool,
}

impl crate::ops::Operation for Refresh {
    const NAME: &'static str = "files.refresh";
    const SUMMARY: &'static str = "Index file paths: one directory, or the project plus configured roots (incremental by mtime; stale entries pruned).";
    type Request = RefreshRequest;
    type Response = RefreshResponse;
    const PATH_PARAMS: &'static [crate::ops::PathParam] = &[
        crate::ops::PathParam::one("/root"),
        crate::ops::PathParam::one("/project_dir").or_project(),
        crate::ops::PathParam::one("/claude_dir"),
    ];
    fn run(engine: &crate::Engine, request: RefreshRequest) -> crate::Result<RefreshResponse> {
        refresh(engine, request)
    }
}

/// `files.suggest`: answer an `@` picker query.
#[derive(Debug, Clone, Copy)]
pub struct Suggest;

/// Parameters of `files.suggest`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SuggestRequest {
    /// What the user typed after `@` (may be empty: the top files are returned).
    pub query: String,
    /// Project root; defaults to `$CLAUDE_PROJECT_DIR`, else the current directory.
    /// Results are limited to it and shown relative to it.
    pub project_dir: Option<PathBuf>,
    /// Most paths to return, 1 to 15 (default 15).
    pub limit: Option<usize>,
    /// Time budget in milliseconds (default 100): past it, the file system is searched
    /// instead of the index.
    pub budget_ms: Option<u64>,
    /// Only paths under these directories (absent or empty: anywhere the query looks),
    /// whatever the query's prefix or the project's additional directories name. The MCP
    /// server sets it to its roots.
    pub within: Vec<PathBuf>,
}

/// Result of `files.suggest`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SuggestResponse {
    /// Best first: relative to the project root inside it, `~/…` under the home
    /// directory, absolute elsewhere.
    pub paths: Vec<String>,
    /// Anything worth telling the user (an index built on the fly, a recovered database).
    pub warnings: Vec<String>,
}

impl crate::ops::Operation for Suggest {
    const NAME: &'static str = "files.suggest";
    const SUMMARY: &'static str =
        "Suggest up to 15 file paths for an `@` query, ranked, relative to the project root.";
    type Request = SuggestRequest;
    type Response = SuggestResponse;
    const PATH_PARAMS: &'static [crate::ops::PathParam] = &[
        crate::ops::PathParam::one("/project_dir").or_project(),
        crate::ops::PathParam::within("/within"),
    ];
    fn run(engine: &crate::Engine, request: SuggestRequest) -> crate::Result<SuggestResponse> {
        suggest(engine, request)
    }
}

/// The project (or root) a files operation works on: [`crate::env::project_dir`], which
/// must be a directory. A file is an `io` error naming it as given (`README.md: not a
/// directory`), before anything inside it (its `.claude/settings.json`) is looked for.
pub(crate) fn project_dir(given: Option<PathBuf>, operation: &str) -> crate::Result<PathBuf> {
    let named = crate::env::project_dir_as_named(given)?;
    let dir = crate::env::project_dir(Some(named.clone()), operation)?;
    if !dir.is_dir() {
        return Err(crate::Error::io(
            &named,
            std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
        ));
    }
    Ok(dir)
}

/// Half-open range `[lo, hi)` of the paths strictly inside `dir`, for an index range scan.
pub(crate) fn scope_bounds(dir: &str) -> (String, String) {
    let base = dir.trim_end_matches('/');
    // '0' is the character after '/', so every "<base>/..." sorts below "<base>0".
    (format!("{base}/"), format!("{base}0"))
}
