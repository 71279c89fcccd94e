//! `docs.index`, and the index run it shares with `notes.index` ([`index`]): find the
//! collection's markdown files under the project root, skip the unchanged ones, re-chunk
//! the others by H2 section ([`file_chunks`]) and drop the gone ones in one transaction,
//! under the advisory lock, then embed the sections still without vectors. Notes are
//! dated by their session folder ([`note_session`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::{
    Collection, DEFAULT_DOC_GLOBS, DEFAULT_LOCK_WAIT_SECS, DefaultDocs, Project, lock, store,
};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::hash::{hex, sha256};
use crate::hybrid::{self, Filter, NewChunk};
use crate::ops::{Operation, PathParam};
use crate::time::parse_date;

/// Largest markdown file indexed.
const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Parameters of `docs.index`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IndexRequest {
    /// A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current
    /// directory. The project root is its git work tree's root.
    pub project_dir: Option<PathBuf>,
    /// More files to index: globs relative to the project root (`*` stays within one
    /// directory, `**` crosses them, `{a,b}` alternates), remembered for the project, so
    /// every later run (the automatic one before a query too) indexes them as well. Always
    /// indexed: top-level docs such as the README, `doc/`, `docs/`,
    /// `{apps,packages}/*/docs/`, each package's README and docs directories (Markdown,
    /// reStructuredText) and a Rust crate's `//!` guide in its `src/lib.rs`.
    pub globs: Vec<String>,
    /// Forget the remembered globs (those in `globs`, or all) and drop the files only
    /// they matched from the index.
    pub forget: bool,
    /// Split and store only: new sections are searchable by keyword at once, by
    /// meaning once a later run embeds them.
    pub keyword_only: bool,
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
    /// The globs remembered for the project (docs), indexed beside the defaults.
    pub globs: Vec<String>,
    /// Files found.
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
    const SUMMARY: &'static str = "Index the project's docs (README and other top-level docs, doc/, docs/, {apps,packages}/*/docs/, each package's README and docs directories, a Rust crate's lib.rs guide, plus globs given once and remembered; Markdown and reStructuredText) by section for the current branch: unchanged files skipped, content-addressed embeddings.";
    type Request = IndexRequest;
    type Response = IndexResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::one("/project_dir").or_project()];

    fn run(engine: &Engine, request: IndexRequest) -> Result<IndexResponse> {
        index(
            engine,
            Files::Docs {
                globs: &request.globs,
                forget: request.forget,
            },
            request.project_dir,
            request.lock_wait_secs,
            !request.keyword_only,
            Self::NAME,
        )
    }
}

/// Embed the doc and note sections index runs left without vectors (`keyword_only`),
/// with the engine's model: what the MCP server does on a background thread after a
/// quick run. Returns the windows embedded; nothing without a model.
pub fn embed_pending(engine: &Engine) -> Result<usize> {
    let store = &store(engine)?;
    hybrid::embed_pending_with_engine(engine, store, &Filter::default(), &mut Vec::new())
}

/// Which files an index run takes.
pub(super) enum Files<'a> {
    /// The session notes ([`super::NOTES_GLOB`]).
    Notes,
    /// The docs: [`DEFAULT_DOC_GLOBS`] and the project's remembered globs, once `globs`
    /// are remembered too — or forgotten (all of them when `globs` is empty).
    Docs { globs: &'a [String], forget: bool },
}

impl Files<'_> {
    fn collection(&self) -> Collection {
        match self {
            Files::Notes => Collection::Notes,
            Files::Docs { .. } => Collection::Docs,
        }
    }
}

/// A glob as stored and matched: without a leading `./`.
fn normal_glob(glob: &str) -> String {
    glob.trim().trim_start_matches("./").to_string()
}

/// A constant set of globs, compiled once (every call of a server refreshes).
fn constant_globs(
    compiled: &'static std::sync::OnceLock<GlobSet>,
    globs: &[&str],
    any_case: bool,
    operation: &str,
) -> Result<&'static GlobSet> {
    if let Some(set) = compiled.get() {
        return Ok(set);
    }
    let set = glob_set(globs, any_case, operation)?;
    Ok(compiled.get_or_init(|| set))
}

/// One set of globs (`*` within a directory), or a clear error naming the bad one.
pub(super) fn glob_set<S: AsRef<str>>(
    globs: &[S],
    any_case: bool,
    operation: &str,
) -> Result<GlobSet> {
    let mut set = GlobSetBuilder::new();
    for glob in globs {
        let glob = glob.as_ref();
        set.add(
            GlobBuilder::new(glob)
                .literal_separator(true)
                .case_insensitive(any_case)
                .build()
                .map_err(|e| Error::invalid(operation, format!("glob {glob:?}: {e}")))?,
        );
    }
    set.build()
        .map_err(|e| Error::invalid(operation, format!("globs: {e}")))
}

/// The globs of a run and what it changes in the project's remembered ones.
struct Selection {
    /// The project's own globs, remembered after this run.
    globs: Vec<String>,
    /// The defaults (any case) and the remembered globs (as written).
    defaults: &'static GlobSet,
    own: GlobSet,
    /// Globs to remember, and to forget (`None`: all).
    remember: Vec<String>,
    forget: Option<Option<Vec<String>>>,
    /// Whether each package's README is selected too ([`DefaultDocs`]: docs, not notes).
    package_readmes: bool,
}

impl Selection {
    fn is_match(&self, rel: impl AsRef<Path>) -> bool {
        let rel = rel.as_ref();
        self.defaults.is_match(rel) || self.own.is_match(rel)
    }

    fn of(
        files: &Files,
        store: &hybrid::ChunkStore,
        key: &str,
        operation: &str,
        warnings: &mut Vec<String>,
    ) -> Result<Selection> {
        let (given, forget) = match files {
            Files::Notes => {
                static NOTES: std::sync::OnceLock<GlobSet> = std::sync::OnceLock::new();
                return Ok(Selection {
                    defaults: constant_globs(&NOTES, &[super::NOTES_GLOB], false, operation)?,
                    own: GlobSet::empty(),
                    globs: Vec::new(),
                    remember: Vec::new(),
                    forget: None,
                    package_readmes: false,
                });
            }
            Files::Docs { globs, forget } => (globs.iter().map(|g| normal_glob(g)), *forget),
        };
        let mut given: Vec<String> = given.filter(|g| !g.is_empty()).collect();
        given.sort();
        given.dedup();
        glob_set(&given, false, operation)?; // a bad glob is refused before anything changes
        let db_path = store.db().path().to_path_buf();
        let remembered: Vec<String> = {
            let conn = store.db().read(warnings)?;
            let mut stmt = conn
                .prepare("SELECT glob FROM doc_globs WHERE root = ?1 ORDER BY glob")
                .map_err(|e| Error::db(&db_path, e))?;
            stmt.query_map([key], |r| r.get(0))
                .and_then(|rows| rows.collect::<rusqlite::Result<_>>())
                .map_err(|e| Error::db(&db_path, e))?
        };
        let (own, remember, forget): (Vec<String>, _, _) = if forget {
            let kept = remembered
                .into_iter()
                .filter(|g| !given.is_empty() && !given.contains(g))
                .collect();
            (kept, Vec::new(), Some((!given.is_empty()).then_some(given)))
        } else {
            let mut own = remembered;
            own.extend(given.iter().cloned());
            own.sort();
            own.dedup();
            (own, given, None)
        };
        static DEFAULTS: std::sync::OnceLock<GlobSet> = std::sync::OnceLock::new();
        Ok(Selection {
            defaults: constant_globs(&DEFAULTS, &DEFAULT_DOC_GLOBS, true, operation)?,
            own: glob_set(&own, false, operation)?,
            globs: own,
            remember,
            forget,
            package_readmes: true,
        })
    }

    /// Write what the run changes in the remembered globs.
    fn save(&self, tx: &rusqlite::Transaction, key: &str, now: i64) -> rusqlite::Result<()> {
        for glob in &self.remember {
            tx.execute(
                "INSERT OR IGNORE INTO doc_globs (root, glob, added_at) VALUES (?1, ?2, ?3)",
                params![key, glob, now],
            )?;
        }
        match &self.forget {
            None => {}
            Some(None) => {
                tx.execute("DELETE FROM doc_globs WHERE root = ?1", [key])?;
            }
            Some(Some(globs)) => {
                for glob in globs {
                    tx.execute(
                        "DELETE FROM doc_globs WHERE root = ?1 AND glob = ?2",
                        params![key, glob],
                    )?;
                }
            }
        }
        Ok(())
    }
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

pub(super) fn index(
    engine: &Engine,
    files: Files,
    project_dir: Option<PathBuf>,
    lock_wait_secs: Option<u64>,
    embed: bool,
    operation: &str,
) -> Result<IndexResponse> {
    let collection = files.collection();
    let dir = crate::env::project_dir(project_dir, operation)?;
    let mut project = Project::of(&dir);
    if collection == Collection::Notes {
        // Session notes are not versioned with the code: one set whatever the branch,
        // so switching branches neither re-chunks them nor leaves copies behind.
        project.branch.clear();
    }
    let key = project.key();
    let mut warnings = Vec::new();
    let store = &store(engine)?;
    let set = Selection::of(&files, store, &key, operation, &mut warnings)?;
    // Unless the run changes the remembered globs, a tree nothing changed in since the
    // last run (as its watch vouches) is neither walked nor written again.
    let scope = format!("{}\u{0}{key}", collection.name());
    let settings = format!("{}\u{0}{:?}", project.branch, set.globs);
    let keeps_globs = set.remember.is_empty() && set.forget.is_none();
    let unchanged = if keeps_globs {
        crate::watch::look::<(usize, Vec<String>)>(store.db().fresh(), &scope, &settings)
    } else {
        crate::watch::Look::Walk
    };
    let mut response = if let crate::watch::Look::Same((files, kept)) = unchanged {
        warnings.extend(kept);
        IndexResponse {
            project: project.name.clone(),
            branch: project.branch.clone(),
            root: project.root.clone(),
            globs: set.globs.clone(),
            files,
            unchanged: files,
            ..Default::default()
        }
    } else {
        let before = warnings.len();
        let (response, dirs) = walk_and_write(
            engine,
            store,
            collection,
            &project,
            &set,
            lock_wait_secs,
            &mut warnings,
        )?;
        crate::watch::record(
            store.db().fresh(),
            &scope,
            settings,
            &dirs,
            (response.files, warnings[before..].to_vec()),
        );
        response
    };

    // This run's own sections only: another project's (or branch's) wait for its own run.
    let own = Filter {
        kinds: Some(vec![collection.kind().to_string()]),
        ..Filter::scope(
            &key,
            (collection == Collection::Docs).then_some(project.branch.as_str()),
        )
    };
    if embed {
        response.embedded = hybrid::embed_pending_with_engine(engine, store, &own, &mut warnings)?;
    }
    response.pending_vectors = store.pending(&own, &mut warnings)?;
    response.warnings = warnings;
    Ok(response)
}

/// [`index`]'s run: walk the project, write what changed of the files `set` selects in one
/// transaction; the answer (without the embedding counts) and the directories walked.
fn walk_and_write(
    engine: &Engine,
    store: &crate::hybrid::ChunkStore,
    collection: Collection,
    project: &Project,
    set: &Selection,
    lock_wait_secs: Option<u64>,
    warnings: &mut Vec<String>,
) -> Result<(IndexResponse, Vec<PathBuf>)> {
    let key = project.key();
    let db_path = store.db().path().to_path_buf();
    let db = |e| Error::db(&db_path, e);
    let _lock = lock::AdvisoryLock::acquire(
        &engine.home().join("docs.lock"),
        Duration::from_secs(lock_wait_secs.unwrap_or(DEFAULT_LOCK_WAIT_SECS)),
        warnings,
    )?;

    let walked = crate::walk::walk(
        &project.root,
        &crate::walk::WalkOptions {
            max_depth: 32,
            max_files: 200_000,
            ..Default::default()
        },
    )?;
    // Each file's path relative to the root, `/`-separated (`None`: not valid UTF-8, or
    // not below the root), once for the package READMEs and the selection below.
    let rels: Vec<Option<String>> = walked
        .files
        .iter()
        .map(|f| {
            let rel = f.path.strip_prefix(&walked.root).ok()?.to_str()?;
            Some(rel.replace('\\', "/"))
        })
        .collect();
    let packages = if set.package_readmes {
        DefaultDocs::of(rels.iter().flatten().map(String::as_str))
    } else {
        DefaultDocs::default()
    };
    let mut found: Vec<Found> = Vec::new();
    for (file, rel) in walked.files.iter().zip(rels) {
        let Some(rel) = rel else {
            if let Ok(rel) = file.path.strip_prefix(&walked.root)
                && set.is_match(rel)
            {
                warnings.push(format!(
                    "path is not valid UTF-8, skipped: {}",
                    file.path.display()
                ));
            }
            continue;
        };
        if !set.is_match(&rel) && !packages.is_package_doc(&rel) {
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

    let mut response = IndexResponse {
        project: project.name.clone(),
        branch: project.branch.clone(),
        root: project.root.clone(),
        globs: set.globs.clone(),
        files: found.len(),
        ..Default::default()
    };
    let now = crate::time::unix_now();
    let mut stopped = None;
    {
        let mut conn = store.db().write(warnings)?;
        let tx = conn.transaction().map_err(db)?;
        set.save(&tx, &key, now).map_err(db)?;
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
            let chunks = file_chunks(collection, project, file, &text, now);
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
    let dirs: Vec<PathBuf> = walked.dirs.into_iter().map(|(dir, _)| dir).collect();
    Ok((response, dirs))
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
    crate::text::doc_sections(&file.rel, text)
        .into_iter()
        .map(|section| {
            let mut meta = meta.clone();
            meta.insert("section".into(), section.title.clone().into());
            meta.insert("line".into(), section.line.into());
            meta.insert("end_line".into(), section.end_line.into());
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
