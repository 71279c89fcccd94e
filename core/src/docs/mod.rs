//! The `docs` and `notes` components: markdown documentation and session notes, split
//! into H2 sections and searched with the hybrid engine ([`crate::hybrid`]).
//!
//! - [`Index`] (`docs.index`): the project's documentation (`docs/**/*.md` and
//!   `{apps,packages}/*/docs/**/*.md` unless other globs are given), for the current
//!   project and git branch.
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

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::hash::{hex, sha256};
use crate::hybrid::{self, Filter, Mode, NewChunk, Search};
use crate::ops::{AgentShape, Operation, PathParam};
use crate::time::parse_date;

/// The default documentation globs, relative to the project root.
pub const DEFAULT_DOC_GLOBS: [&str; 2] = ["docs/**/*.md", "{apps,packages}/*/docs/**/*.md"];
/// The notes glob, relative to the project root.
pub const NOTES_GLOB: &str = "sessions/**/*.md";
/// How long an index run waits for another one by default.
pub const DEFAULT_LOCK_WAIT_SECS: u64 = 30;
/// Largest markdown file indexed.
const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

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
/// keyed by their root's path instead of their directory's name.
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
        let repo = crate::git::Repo::discover(dir);
        let root = repo
            .as_ref()
            .map(|r| r.root().to_path_buf())
            .unwrap_or_else(|| dir.to_path_buf());
        let name = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| root.to_string_lossy().into_owned());
        let branch = match &repo {
            None => String::new(),
            Some(repo) => match (repo.branch(), repo.head()) {
                (Some(branch), _) => branch,
                (None, Some(head)) => format!("detached@{}", &head[..head.len().min(7)]),
                (None, None) => unborn_branch(repo.git_dir()).unwrap_or_default(),
            },
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

/// Parameters of `docs.index`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IndexRequest {
    /// A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current
    /// directory. The project root is its git work tree's root.
    pub project_dir: Option<PathBuf>,
    /// Globs of the markdown files, relative to the project root (`*` stays within one
    /// directory, `**` crosses them, `{a,b}` alternates). Default: `docs/**/*.md` and
    /// `{apps,packages}/*/docs/**/*.md`.
    pub globs: Vec<String>,
    /// Seconds to wait for another index run's lock (default 30).
    pub lock_wait_secs: Option<u64>,
}

/// Result of `docs.index` and `notes.index`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct IndexResponse {
    /// The project's name (its root directory's name).
    pub project: String,
    /// The branch indexed: the one HEAD names (also before the first commit),
    /// `detached@<7 hex>` on a detached HEAD; empty outside git, and for notes, which
    /// belong to no branch.
    pub branch: String,
    /// The project root.
    pub root: PathBuf,
    /// Markdown files found.
    pub files: usize,
    /// Files skipped: mtime and size unchanged.
    pub unchanged: usize,
    /// Files whose mtime changed but whose content did not: only the mtime was updated.
    pub touched: usize,
    /// Files (re)chunked: new or changed.
    pub indexed: usize,
    /// Files gone since the last run, removed from the index.
    pub removed: usize,
    /// Sections new or changed (text, or the branch they are on).
    pub sections_written: usize,
    /// Sections removed.
    pub sections_removed: usize,
    /// Section windows the model embedded now (the others came from the vector cache).
    pub embedded: usize,
    /// This project's sections (on this branch, for docs) still without vectors (no
    /// model available).
    pub pending_vectors: usize,
    /// Skipped files and anything else worth telling.
    pub warnings: Vec<String>,
}

/// `docs.index`: index the project's markdown documentation.
#[derive(Debug, Clone, Copy)]
pub struct Index;

impl Operation for Index {
    const NAME: &'static str = "docs.index";
    const SUMMARY: &'static str = "Index the project's markdown docs (docs/**/*.md, {apps,packages}/*/docs/**/*.md or given globs) by H2 section for the current branch: unchanged files skipped, content-addressed embeddings.";
    type Request = IndexRequest;
    type Response = IndexResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::one("/project_dir").or_project()];

    fn run(engine: &Engine, request: IndexRequest) -> Result<IndexResponse> {
        let globs = if request.globs.is_empty() {
            DEFAULT_DOC_GLOBS.iter().map(|s| s.to_string()).collect()
        } else {
            request.globs.clone()
        };
        index(
            engine,
            Collection::Docs,
            request.project_dir,
            &globs,
            request.lock_wait_secs,
            Self::NAME,
        )
    }
}

/// Parameters of `notes.index`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct NotesIndexRequest {
    /// A directory of the project whose `sessions/**/*.md` are indexed; defaults to
    /// `$CLAUDE_PROJECT_DIR`, else the current directory.
    pub project_dir: Option<PathBuf>,
    /// Seconds to wait for another index run's lock (default 30).
    pub lock_wait_secs: Option<u64>,
}

/// `notes.index`: index the project's session notes.
#[derive(Debug, Clone, Copy)]
pub struct NotesIndex;

impl Operation for NotesIndex {
    const NAME: &'static str = "notes.index";
    const SUMMARY: &'static str = "Index the project's session notes (sessions/**/*.md, dated by their YYYY_MM_DD_TOPIC folder) by H2 section.";
    type Request = NotesIndexRequest;
    type Response = IndexResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::one("/project_dir").or_project()];

    fn run(engine: &Engine, request: NotesIndexRequest) -> Result<IndexResponse> {
        index(
            engine,
            Collection::Notes,
            request.project_dir,
            &[NOTES_GLOB.to_string()],
            request.lock_wait_secs,
            Self::NAME,
        )
    }
}

fn glob_set(globs: &[String], operation: &str) -> Result<GlobSet> {
    let mut set = GlobSetBuilder::new();
    for glob in globs {
        let glob = glob.trim_start_matches("./");
        set.add(
            GlobBuilder::new(glob)
                .literal_separator(true)
                .build()
                .map_err(|e| Error::invalid(operation, format!("glob {glob:?}: {e}")))?,
        );
    }
    set.build()
        .map_err(|e| Error::invalid(operation, format!("globs: {e}")))
}

/// A markdown file as found on disk.
struct Found {
    rel: String,
    abs: PathBuf,
    mtime_ns: i64,
    size: i64,
}

/// A session note's folder date (`YYYY_MM_DD_…` or `YYYY-MM-DD…` right under a
/// `sessions` directory) and that folder's path relative to the project root.
fn note_session(rel: &str) -> Option<(String, i64, String)> {
    let parts: Vec<&str> = rel.split('/').collect();
    let at = parts.iter().rposition(|p| *p == "sessions")?;
    let folder = *parts.get(at + 1)?;
    if at + 2 >= parts.len() {
        return None; // a file directly in sessions/
    }
    let digits: String = folder.chars().take(10).collect();
    let date = digits.replace('_', "-");
    let time = parse_date(&date).ok()?;
    Some((date, time, parts[..at + 2].join("/")))
}

fn index(
    engine: &Engine,
    collection: Collection,
    project_dir: Option<PathBuf>,
    globs: &[String],
    lock_wait_secs: Option<u64>,
    operation: &str,
) -> Result<IndexResponse> {
    let dir = crate::env::project_dir(project_dir, operation)?;
    let mut project = Project::of(&dir);
    if collection == Collection::Notes {
        // Session notes are not versioned with the code: one set whatever the branch,
        // so switching branches neither re-chunks them nor leaves copies behind.
        project.branch.clear();
    }
    let key = project.key();
    let set = glob_set(globs, operation)?;
    let mut warnings = Vec::new();
    let _lock = lock::AdvisoryLock::acquire(
        &engine.home().join("docs.lock"),
        Duration::from_secs(lock_wait_secs.unwrap_or(DEFAULT_LOCK_WAIT_SECS)),
        &mut warnings,
    )?;

    let walked = crate::walk::walk(
        &project.root,
        &crate::walk::WalkOptions {
            max_depth: 32,
            max_files: 200_000,
            ..Default::default()
        },
    )?;
    let mut found: Vec<Found> = Vec::new();
    for file in &walked.files {
        let Ok(rel) = file.path.strip_prefix(&walked.root) else {
            continue;
        };
        let Some(rel) = rel.to_str() else {
            if set.is_match(rel) {
                warnings.push(format!(
                    "path is not valid UTF-8, skipped: {}",
                    file.path.display()
                ));
            }
            continue;
        };
        let rel = rel.replace('\\', "/");
        if !set.is_match(&rel) {
            continue;
        }
        match std::fs::metadata(&file.path) {
            Ok(meta) if meta.len() > MAX_FILE_BYTES => warnings.push(format!(
                "{rel}: skipped, larger than {} MiB",
                MAX_FILE_BYTES >> 20
            )),
            Ok(meta) => found.push(Found {
                abs: file.path.clone(),
                rel,
                mtime_ns: crate::time::mtime_ns(&meta),
                size: meta.len() as i64,
            }),
            Err(e) => warnings.push(format!("{rel}: {e}")),
        }
    }
    warnings.extend(
        walked
            .warnings
            .iter()
            .filter(|w| !w.contains("not a regular file"))
            .cloned(),
    );

    let store = &store(engine)?;
    let db_path = store.db().path().to_path_buf();
    let db = |e| Error::db(&db_path, e);
    let mut response = IndexResponse {
        project: project.name.clone(),
        branch: project.branch.clone(),
        root: project.root.clone(),
        files: found.len(),
        ..Default::default()
    };
    let now = crate::time::unix_now();
    let mut stopped = None;
    {
        let mut conn = store.db().write(&mut warnings)?;
        let tx = conn.transaction().map_err(db)?;
        let known: HashMap<String, (i64, i64, Vec<u8>)> = {
            let mut stmt = tx
                .prepare(
                    "SELECT path, mtime_ns, size, content_sha256 FROM doc_files \
                     WHERE collection = ?1 AND root = ?2 AND branch = ?3",
                )
                .map_err(db)?;
            stmt.query_map(params![collection.name(), key, project.branch], |r| {
                Ok((r.get::<_, String>(0)?, (r.get(1)?, r.get(2)?, r.get(3)?)))
            })
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?
        };
        let source_of = |branch: &str, rel: &str| {
            format!("{}\u{0}{}\u{0}{branch}\u{0}{rel}", collection.kind(), key,)
        };
        if collection == Collection::Notes {
            // Notes indexed per branch by an earlier version: dropped, then indexed
            // once for all branches below.
            let legacy: Vec<(String, String)> = {
                let mut stmt = tx
                    .prepare(
                        "SELECT branch, path FROM doc_files \
                         WHERE collection = ?1 AND root = ?2 AND branch <> '' \
                         ORDER BY branch, path",
                    )
                    .map_err(db)?;
                stmt.query_map(params![collection.name(), key], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .map_err(db)?
                .collect::<rusqlite::Result<_>>()
                .map_err(db)?
            };
            for (branch, rel) in &legacy {
                store.delete_source(&tx, &source_of(branch, rel))?;
            }
            tx.execute(
                "DELETE FROM doc_files WHERE collection = ?1 AND root = ?2 AND branch <> ''",
                params![collection.name(), key],
            )
            .map_err(db)?;
        }
        let source_of = |rel: &str| source_of(&project.branch, rel);
        let mut seen = std::collections::HashSet::new();
        for (done, file) in found.iter().enumerate() {
            // Cancelled: the files written so far are committed below, the others
            // (and the removal of gone ones) wait for the next run.
            if let Err(e) = crate::progress::report("parse", done, found.len()) {
                stopped = Some(e);
                break;
            }
            seen.insert(file.rel.clone());
            let previous = known.get(&file.rel);
            if let Some((mtime_ns, size, _)) = previous
                && *mtime_ns == file.mtime_ns
                && *size == file.size
            {
                response.unchanged += 1;
                continue;
            }
            let bytes = match std::fs::read(&file.abs) {
                Ok(bytes) => bytes,
                Err(e) => {
                    warnings.push(format!("{}: {e}", file.rel));
                    continue;
                }
            };
            let hash = sha256(&bytes);
            let unchanged_content = previous.is_some_and(|(_, _, old_hash)| *old_hash == hash);
            let text = match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => {
                    if !unchanged_content {
                        warnings.push(format!(
                            "{}: not valid UTF-8; invalid bytes shown as U+FFFD",
                            file.rel
                        ));
                    }
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                }
            };
            let chunks = file_chunks(collection, &project, file, &text, now);
            if unchanged_content {
                // Same sections: only the mtime the results show changes (the text,
                // and so the vectors, stay).
                store.put(&tx, &chunks)?;
                tx.execute(
                    "UPDATE doc_files SET mtime_ns = ?5, size = ?6 \
                     WHERE collection = ?1 AND root = ?2 AND branch = ?3 AND path = ?4",
                    params![
                        collection.name(),
                        key,
                        project.branch,
                        file.rel,
                        file.mtime_ns,
                        file.size
                    ],
                )
                .map_err(db)?;
                response.touched += 1;
                continue;
            }
            let source = source_of(&file.rel);
            let keys: Vec<&str> = chunks.iter().map(|c| c.key.as_str()).collect();
            response.sections_removed += store.retain_source(&tx, &source, &keys)?;
            let put = store.put(&tx, &chunks)?;
            response.sections_written += put.inserted + put.restaled;
            tx.execute(
                "INSERT OR REPLACE INTO doc_files \
                 (collection, root, branch, path, mtime_ns, size, content_sha256, indexed_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    collection.name(),
                    key,
                    project.branch,
                    file.rel,
                    file.mtime_ns,
                    file.size,
                    hash,
                    now
                ],
            )
            .map_err(db)?;
            response.indexed += 1;
        }
        let mut gone: Vec<&String> = known.keys().filter(|p| !seen.contains(*p)).collect();
        if stopped.is_some() {
            gone.clear();
        }
        gone.sort();
        for rel in gone {
            response.sections_removed += store.delete_source(&tx, &source_of(rel))?;
            tx.execute(
                "DELETE FROM doc_files \
                 WHERE collection = ?1 AND root = ?2 AND branch = ?3 AND path = ?4",
                params![collection.name(), key, project.branch, rel],
            )
            .map_err(db)?;
            response.removed += 1;
        }
        tx.commit().map_err(db)?;
    }
    if let Some(e) = stopped {
        return Err(e);
    }

    // This run's own sections only: another project's (or branch's) wait for its own run.
    let own = Filter {
        kinds: Some(vec![collection.kind().to_string()]),
        ..Filter::scope(
            &key,
            (collection == Collection::Docs).then_some(project.branch.as_str()),
        )
    };
    response.embedded = hybrid::embed_pending_with_engine(engine, store, &own, &mut warnings)?;
    response.pending_vectors = store.pending(&own, &mut warnings)?;
    response.warnings = warnings;
    Ok(response)
}

/// The section chunks of one file.
fn file_chunks(
    collection: Collection,
    project: &Project,
    file: &Found,
    text: &str,
    now: i64,
) -> Vec<NewChunk> {
    let mtime = file.mtime_ns.div_euclid(1_000_000_000);
    let (time, tag, mut meta) = match collection {
        // No time filter or recency for docs: a constant, so an edit elsewhere in the
        // file does not touch the vectors of the sections it left alone.
        Collection::Docs => (0, project.branch.clone(), serde_json::Map::new()),
        Collection::Notes => {
            let base = Path::new(&file.rel)
                .file_stem()
                .map(|s| s.to_string_lossy().to_lowercase())
                .unwrap_or_default();
            let mut meta = serde_json::Map::new();
            let time = match note_session(&file.rel) {
                Some((date, time, session)) => {
                    meta.insert("session_date".into(), date.into());
                    meta.insert("session_path".into(), session.into());
                    time
                }
                None => mtime,
            };
            (time, base, meta)
        }
    };
    meta.insert("path".into(), file.rel.clone().into());
    meta.insert("mtime".into(), mtime.into());
    meta.insert("indexed_at".into(), now.into());
    let branch = project.branch.as_str();
    let project_key = project.key();
    // A title can repeat even after the `##n` suffixes (`## A`, `## A`, `## A##1` gives
    // `A`, `A##1`, `A##1`): the key then counts the repeats, so no section replaces
    // another. Keys of other sections stay as they were.
    let mut titles: HashMap<String, usize> = HashMap::new();
    crate::text::markdown_sections(text)
        .into_iter()
        .map(|section| {
            let mut meta = meta.clone();
            meta.insert("section".into(), section.title.clone().into());
            let repeat = titles.entry(section.title.clone()).or_insert(0);
            let suffix = if *repeat == 0 {
                String::new()
            } else {
                format!("\u{0}{repeat}")
            };
            *repeat += 1;
            let key = hex(&sha256(
                format!(
                    "{}\u{0}{}\u{0}{branch}\u{0}{}\u{0}{}{suffix}",
                    collection.kind(),
                    project_key,
                    file.rel,
                    section.title
                )
                .as_bytes(),
            ));
            NewChunk {
                key,
                source: format!(
                    "{}\u{0}{}\u{0}{}\u{0}{}",
                    collection.kind(),
                    project_key,
                    project.branch,
                    file.rel
                ),
                scope: project_key.clone(),
                kind: collection.kind().to_string(),
                tag: tag.clone(),
                time,
                title: section.title,
                text: section.text,
                meta: serde_json::Value::Object(meta).to_string(),
            }
        })
        .collect()
}

/// Parameters of `docs.query`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct QueryRequest {
    /// What to look for (any text).
    pub query: String,
    /// A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current
    /// directory. Results come from this project only.
    pub project_dir: Option<PathBuf>,
    /// Search every indexed branch of the project (identical sections on several
    /// branches are shown once, with their branches).
    pub all_branches: bool,
    /// Search this branch instead of the current one.
    pub branch: Option<String>,
    /// Most results (default 10, at most 100).
    pub limit: Option<usize>,
    /// `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`.
    pub mode: Mode,
}

/// Parameters of `notes.query`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct NotesQueryRequest {
    /// What to look for (any text).
    pub query: String,
    /// A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current
    /// directory.
    pub project_dir: Option<PathBuf>,
    /// Only notes of sessions on or after this date (`YYYY-MM-DD`).
    pub after: Option<String>,
    /// Only notes in files with this base name (`IMPLEMENTATION` for
    /// `IMPLEMENTATION.md`; case-insensitive).
    pub file: Option<String>,
    /// Most results (default 10, at most 100).
    pub limit: Option<usize>,
    /// `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`.
    pub mode: Mode,
}

/// One result of `docs.query` or `notes.query`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct QueryHit {
    /// 1 for the best.
    pub rank: usize,
    /// Fused score (higher is better; comparable within one query).
    pub score: f64,
    /// The file, relative to the project root.
    pub file: String,
    /// The H2 section's title (`(full document)`, `(preamble)`, or `Title##1` for a
    /// repeated title).
    pub section: String,
    /// The section's full text, its heading included.
    pub content: String,
    /// The project.
    pub project: String,
    /// The branch (docs; empty for notes and outside git).
    pub branch: String,
    /// Other branches with the identical section (docs with `all_branches`).
    pub also_on: Vec<String>,
    /// The file's mtime when indexed (Unix seconds).
    pub mtime: i64,
    /// The session folder (notes), relative to the project root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_path: Option<String>,
    /// The session's date (notes), `YYYY-MM-DD`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_date: Option<String>,
    /// Cosine similarity to the query (when the vector list found it).
    pub similarity: Option<f64>,
    /// Which lists found it: `keyword`, `vector` or both.
    pub matched_by: Vec<String>,
}

/// Result of `docs.query` and `notes.query`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct QueryResponse {
    /// The query.
    pub query: String,
    /// The project searched.
    pub project: String,
    /// The branch searched (empty with `all_branches`, and for notes).
    pub branch: String,
    /// Best first.
    pub results: Vec<QueryHit>,
    /// The retrievers used: `hybrid`, `keyword` (no model, or asked) or `vector`.
    pub mode: Mode,
    /// Time spent searching, in milliseconds.
    pub search_time_ms: u64,
    /// A missing model (once), an unindexed project, and the like.
    pub warnings: Vec<String>,
}

/// `docs.query`: search the project's indexed documentation.
#[derive(Debug, Clone, Copy)]
pub struct Query;

/// What docs and notes answers carry that an agent does not read: the query it sent, the
/// time taken, ranks and scores (the order says it), modification times.
const QUERY_AGENT: AgentShape = AgentShape {
    omit: &[
        "query",
        "search_time_ms",
        "results/*/rank",
        "results/*/score",
        "results/*/similarity",
        "results/*/mtime",
        "results/*/matched_by",
    ],
    ..AgentShape::FULL
};

impl Operation for Query {
    const NAME: &'static str = "docs.query";
    const SUMMARY: &'static str = "Search the project's indexed markdown docs (keyword + semantic) by H2 section, on the current branch unless all_branches or branch is given. Never indexes.";
    type Request = QueryRequest;
    type Response = QueryResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::one("/project_dir").or_project()];
    const AGENT: AgentShape = QUERY_AGENT;

    fn run(engine: &Engine, request: QueryRequest) -> Result<QueryResponse> {
        let dir = crate::env::project_dir(request.project_dir.clone(), Self::NAME)?;
        let project = Project::of(&dir);
        let branch = match (&request.branch, request.all_branches) {
            (_, true) => None,
            (Some(b), false) => Some(b.clone()),
            (None, false) => Some(project.branch.clone()),
        };
        let filter = Filter {
            scopes: Some(vec![project.key()]),
            kinds: Some(vec![Collection::Docs.kind().into()]),
            tags: branch.clone().map(|b| vec![b]),
            ..Filter::default()
        };
        query(
            engine,
            Collection::Docs,
            &request.query,
            &project,
            branch.unwrap_or_default(),
            filter,
            request.limit,
            request.mode,
            request.all_branches,
            Self::NAME,
        )
    }
}

/// `notes.query`: search the project's indexed session notes.
#[derive(Debug, Clone, Copy)]
pub struct NotesQuery;

impl Operation for NotesQuery {
    const NAME: &'static str = "notes.query";
    const SUMMARY: &'static str = "Search the project's indexed session notes (keyword + semantic) by H2 section, filtered by session date (after) and file name (file). Never indexes.";
    type Request = NotesQueryRequest;
    type Response = QueryResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::one("/project_dir").or_project()];
    const AGENT: AgentShape = QUERY_AGENT;

    fn run(engine: &Engine, request: NotesQueryRequest) -> Result<QueryResponse> {
        let dir = crate::env::project_dir(request.project_dir.clone(), Self::NAME)?;
        let project = Project::of(&dir);
        let since = match request.after.as_deref().filter(|a| !a.is_empty()) {
            None => None,
            Some(after) => Some(parse_date(after).map_err(|why| {
                Error::invalid(
                    Self::NAME,
                    format!("`after` must be a date as YYYY-MM-DD: {why}"),
                )
            })?),
        };
        let filter = Filter {
            scopes: Some(vec![project.key()]),
            kinds: Some(vec![Collection::Notes.kind().into()]),
            tags: request
                .file
                .as_deref()
                .filter(|f| !f.is_empty())
                .map(|f| vec![f.trim_end_matches(".md").to_lowercase()]),
            since,
            ..Filter::default()
        };
        query(
            engine,
            Collection::Notes,
            &request.query,
            &project,
            String::new(),
            filter,
            request.limit,
            request.mode,
            false,
            Self::NAME,
        )
    }
}

#[allow(clippy::too_many_arguments)]
fn query(
    engine: &Engine,
    collection: Collection,
    text: &str,
    project: &Project,
    branch: String,
    filter: Filter,
    limit: Option<usize>,
    mode: Mode,
    collapse_branches: bool,
    operation: &str,
) -> Result<QueryResponse> {
    let started = std::time::Instant::now();
    if text.trim().is_empty() {
        return Err(Error::invalid(operation, "the query is empty"));
    }
    let limit = limit.unwrap_or(10);
    if !(1..=100).contains(&limit) {
        return Err(Error::invalid(
            operation,
            "`limit` must be between 1 and 100",
        ));
    }
    let mut warnings = Vec::new();
    let store = &store(engine)?;
    let key = project.key();
    let indexed: Option<i64> = {
        let conn = store.db().read(&mut warnings)?;
        conn.query_row(
            "SELECT 1 FROM doc_files WHERE collection = ?1 AND root = ?2 LIMIT 1",
            params![collection.name(), key],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| Error::db(store.db().path(), e))?
    };
    if indexed.is_none() {
        warnings.push(format!(
            "no {} indexed for project {}: run `cc-search {} index` in it",
            collection.name(),
            project.name,
            collection.name()
        ));
    } else if collection == Collection::Docs && !collapse_branches {
        let branches: Vec<String> = {
            let conn = store.db().read(&mut warnings)?;
            let mut stmt = conn
                .prepare(
                    "SELECT DISTINCT branch FROM doc_files \
                     WHERE collection = ?1 AND root = ?2 ORDER BY branch",
                )
                .map_err(|e| Error::db(store.db().path(), e))?;
            stmt.query_map(params![collection.name(), key], |r| r.get(0))
                .map_err(|e| Error::db(store.db().path(), e))?
                .collect::<rusqlite::Result<_>>()
                .map_err(|e| Error::db(store.db().path(), e))?
        };
        if !branches.contains(&branch) {
            let name = |b: &str| {
                if b.is_empty() {
                    "(no branch)".to_string()
                } else {
                    b.to_string()
                }
            };
            let listed: Vec<String> = branches.iter().map(|b| name(b)).collect();
            warnings.push(format!(
                "no docs indexed on branch {} of project {} (indexed: {}): run `cc-search \
                 docs index` on that branch, or search them all with --all-branches",
                name(&branch),
                project.name,
                listed.join(", ")
            ));
        }
    }
    let (vector, used) = hybrid::query_vector_for(engine, mode, text, &mut warnings)?;
    if indexed.is_some() {
        hybrid::note_unembedded(
            store,
            &filter,
            used,
            "sections",
            &format!("cc-search {} index", collection.name()),
            &mut warnings,
        )?;
    }
    let search = Search {
        text: text.to_string(),
        mode,
        filter,
        // Identical sections on other branches fold into one result: ask for more.
        limit: if collapse_branches { limit * 4 } else { limit },
        ..Search::default()
    };
    let hits = store.search(&search, vector.as_deref(), &mut warnings)?;
    let mut results: Vec<QueryHit> = Vec::new();
    let mut seen: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for hit in hits {
        let meta: serde_json::Value = serde_json::from_str(&hit.meta).unwrap_or_default();
        let get = |k: &str| meta.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let file = get("path").unwrap_or_default();
        let branch_of_hit = if collection == Collection::Docs {
            hit.tag.clone()
        } else {
            String::new()
        };
        if collapse_branches {
            let id = (file.clone(), hit.title.clone(), hit.text.clone());
            if let Some(&i) = seen.get(&id) {
                let kept = &mut results[i];
                if kept.branch != branch_of_hit && !kept.also_on.contains(&branch_of_hit) {
                    kept.also_on.push(branch_of_hit);
                    kept.also_on.sort();
                }
                continue;
            }
            if results.len() == limit {
                continue; // still folding branches into the results kept
            }
            seen.insert(id, results.len());
        } else if results.len() == limit {
            break;
        }
        let mut matched_by = Vec::new();
        if hit.keyword_rank.is_some() {
            matched_by.push("keyword".to_string());
        }
        if hit.vector_rank.is_some() {
            matched_by.push("vector".to_string());
        }
        results.push(QueryHit {
            rank: results.len() + 1,
            score: hit.score,
            file,
            section: hit.title,
            content: hit.text,
            // Every hit is of this project (the search is confined to its key).
            project: project.name.clone(),
            branch: branch_of_hit,
            also_on: Vec::new(),
            mtime: meta.get("mtime").and_then(|v| v.as_i64()).unwrap_or(0),
            session_path: get("session_path"),
            session_date: get("session_date"),
            similarity: hit.similarity,
            matched_by,
        });
    }
    Ok(QueryResponse {
        query: text.to_string(),
        project: project.name.clone(),
        branch,
        results,
        mode: used,
        search_time_ms: started.elapsed().as_millis() as u64,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_to_utc_midnight() {
        assert_eq!(parse_date("1970-01-01"), Ok(0));
        assert_eq!(parse_date("2026-01-01"), Ok(1_767_225_600));
        assert_eq!(parse_date("2024-02-29"), Ok(1_709_164_800));
        assert_eq!(parse_date("2000-02-29"), Ok(951_782_400));
        assert_eq!(parse_date("2026-12-31"), Ok(1_798_675_200));
        assert!(
            parse_date("2026-13-01")
                .unwrap_err()
                .contains("no month 13")
        );
        assert!(parse_date("2026-1-01").unwrap_err().contains("YYYY-MM-DD"));
        assert!(parse_date("yesterday").unwrap_err().contains("YYYY-MM-DD"));
        assert!(parse_date("2026-+1-01").unwrap_err().contains("YYYY-MM-DD"));
    }

    #[test]
    fn impossible_days_are_rejected() {
        assert_eq!(
            parse_date("2026-02-31"),
            Err("\"2026-02-31\" is not a date: February 2026 has 28 days".into())
        );
        assert!(parse_date("2026-02-29").is_err(), "not a leap year");
        assert!(
            parse_date("1900-02-29").is_err(),
            "centuries are not leap years"
        );
        assert!(
            parse_date("2026-04-31")
                .unwrap_err()
                .contains("April 2026 has 30 days")
        );
        assert!(parse_date("2026-01-00").is_err());
        assert_eq!(note_session("sessions/2026_02_31_X/NOTES.md"), None);
    }

    #[test]
    fn notes_are_dated_by_their_session_folder() {
        assert_eq!(
            note_session("sessions/2026_02_05_AUTH/IMPLEMENTATION.md"),
            Some((
                "2026-02-05".into(),
                1_770_249_600,
                "sessions/2026_02_05_AUTH".into()
            ))
        );
        assert_eq!(
            note_session("yarik/finch/sessions/2026_02_05_AUTH/x/NOTES.md").map(|s| s.2),
            Some("yarik/finch/sessions/2026_02_05_AUTH".into())
        );
        assert_eq!(note_session("sessions/README.md"), None);
        assert_eq!(note_session("sessions/misc/NOTES.md"), None);
    }
}
