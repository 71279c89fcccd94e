//! The `sessions` component: Claude Code's session transcripts
//! (`$CLAUDE_CONFIG_DIR/projects/**/*.jsonl`), chunked by prompt and searched with the
//! hybrid engine ([`crate::hybrid`]).
//!
//! - [`Index`] (`sessions.index`): parse new and grown transcripts ([`parser`]), write
//!   their chunks, drop deleted ones, embed what has no vectors yet.
//! - [`Search`] (`sessions.search`): keyword + semantic search with recency decay and
//!   kind weights, filtered by project, time and type inside retrieval. The first search
//!   on an empty index indexes first (and says so in `warnings`).
//! - [`Chunk`] (`sessions.chunk`): one chunk by any unique prefix of its id.
//! - [`Status`] (`sessions.status`): what the index holds.
//!
//! ## Chunks
//!
//! A *group* is a real prompt (or a compaction summary) and everything up to the next
//! real prompt of the same stream (the main conversation, or one sidechain). Each group
//! gives up to five chunks, one per part type, so each can be weighted and filtered:
//!
//! | kind | text | weight |
//! | --- | --- | --- |
//! | `user` | the prompt | [`WEIGHT_USER`] |
//! | `assistant` | the assistant's text | [`WEIGHT_ASSISTANT`] |
//! | `summary` | a compaction summary, or a session title (`summary` record) | [`WEIGHT_SUMMARY`] |
//! | `tool` | tool calls and tool output (each part cut at 1500 chars) | [`WEIGHT_TOOL`] |
//! | `thinking` | thinking blocks | [`WEIGHT_THINKING`] |
//!
//! The chunk store embeds text longer than 256 word pieces as overlapping windows.
//! A chunk's key is the SHA-256 of its group's identity (the opening record's `uuid`,
//! else session, stream and byte offset) and its kind: stable across re-indexing, and
//! the same for the copies a resumed or forked session makes of a group (they collapse
//! into one chunk). Ids are shown as the key's first 8 hex characters; any unique
//! prefix finds a chunk. All chunks of a group share its `tag`, so [`Chunk`] lists the
//! group's other parts.
//!
//! ## Incremental runs
//!
//! `session_files` keeps per transcript its size, mtime, the watermark (the byte after
//! the last line taken) and, per stream, the offset where its last group starts. An
//! unchanged file is skipped; a grown one is parsed from the earliest of those offsets,
//! so the last group (still open: split assistant lines, more tool output) is rebuilt
//! whole and everything before it is never read again; a shrunk or rewritten file is
//! parsed from the start. Files gone from disk lose their chunks. `force` re-parses all.
//!
//! ## Search
//!
//! The project filter is a case-insensitive substring of the project path (the records'
//! `cwd`): the matching projects are looked up first and passed as scopes (the vector
//! table's partition key). A filter matching no project gives no results and the warning
//! `No sessions found for project X` (not an error, so an agent's call never fails on
//! it). When no word of the query matches, the results are the closest chunks by meaning
//! (the vector list alone, when the model is available) and come with a `note` saying
//! so (spec: "no results → closest semantic matches with a note").
//!
//! ## Confinement
//!
//! `sessions.search`, `sessions.chunk` and `sessions.status` take `within`, a list of
//! directories (the MCP server always sets it to its roots): only sessions whose project
//! is one of them or below one (by path components, canonical when the directory still
//! exists; a project known only by its folder name is under none) are seen. Search passes
//! the projects under `within` as its scopes (intersected with the `project` filter), so
//! the retrieval itself is confined and still returns up to `limit` results; `chunk`
//! answers a chunk of another project as an unknown id; `status` counts sessions,
//! projects and chunks over those projects only (the index size, model and last run stay
//! those of the whole index).

pub mod parser;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::engine::{Engine, Within};
use crate::error::{Error, Result};
use crate::hash::sha256_hex;
use crate::hybrid::{self, Filter, Mode, NewChunk};
use crate::ops::{Operation, PathParam};
use crate::rank::Recency;
use crate::time::{format_rfc3339, parse_date, parse_timestamp};
use parser::{Group, Opener, Parsed, PartKind, Role};

/// Score factor of `user` chunks (prompts).
pub const WEIGHT_USER: f64 = 1.0;
/// Score factor of `assistant` chunks (the assistant's text).
pub const WEIGHT_ASSISTANT: f64 = 1.0;
/// Score factor of `summary` chunks: dense, but a digest rather than the discussion.
pub const WEIGHT_SUMMARY: f64 = 0.9;
/// Score factor of `tool` chunks: tool I/O must never outrank discussion (spec N1).
pub const WEIGHT_TOOL: f64 = 0.35;
/// Score factor of `thinking` chunks: internal, below user-facing content (spec N2).
pub const WEIGHT_THINKING: f64 = 0.3;
/// Recency decay half-life: the factor falls halfway from 1 to [`RECENCY_FLOOR`] in
/// 30 days.
pub const RECENCY_HALF_LIFE_SECS: f64 = 30.0 * 86_400.0;
/// The recency factor of very old content: an exact old match can still win.
pub const RECENCY_FLOOR: f64 = 0.6;
/// The kinds a chunk can have, in display order.
pub const KINDS: [&str; 5] = ["user", "assistant", "summary", "tool", "thinking"];
/// Messages of context kept per chunk, and the longest text of each (characters).
const CONTEXT_MESSAGES: usize = 5;
/// Transcripts read and parsed between two progress reports.
const PARSE_SLICE: usize = 64;
const CONTEXT_CHARS: usize = 2000;
/// How deep below `projects/` transcripts are looked for.
const MAX_DEPTH: usize = 8;

/// The kind weights of a search.
pub fn kind_weights() -> BTreeMap<String, f64> {
    [
        ("user", WEIGHT_USER),
        ("assistant", WEIGHT_ASSISTANT),
        ("summary", WEIGHT_SUMMARY),
        ("tool", WEIGHT_TOOL),
        ("thinking", WEIGHT_THINKING),
    ]
    .into_iter()
    .map(|(k, w)| (k.to_string(), w))
    .collect()
}

/// The session transcript index: `sessions.db` in the data root.
pub const SESSIONS_DB: crate::engine::DatabaseFile = crate::engine::DatabaseFile {
    name: "sessions.db",
    migrations: SCHEMA,
    mmap_bytes: hybrid::MMAP_BYTES,
};

/// The session transcript index of the engine (`sessions.db` in the data root).
fn store(engine: &Engine) -> Result<hybrid::ChunkStore> {
    hybrid::ChunkStore::of(engine, &SESSIONS_DB)
}

/// The schema of `sessions.db`: the chunk store, the transcripts, and run metadata.
pub const SCHEMA: crate::store::Migrations = &[
    hybrid::SCHEMA_V1,
    r#"
CREATE TABLE session_files (
  path TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  parent_session_id TEXT,
  project TEXT NOT NULL,
  project_from_cwd INTEGER NOT NULL,
  size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  watermark INTEGER NOT NULL,
  restart TEXT NOT NULL,
  first_time INTEGER,
  last_time INTEGER,
  indexed_at INTEGER NOT NULL
) STRICT;
CREATE INDEX session_files_project ON session_files(project);
CREATE TABLE session_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
"#,
];

/// The projects folder: `given`, else `$CLAUDE_CONFIG_DIR/projects` (`~/.claude/projects`).
fn projects_dir(given: Option<PathBuf>) -> PathBuf {
    given
        .filter(|p| !p.as_os_str().is_empty())
        .map(|p| std::path::absolute(&p).unwrap_or(p))
        .unwrap_or_else(|| crate::claude::config_dir().join("projects"))
}

// ---------------------------------------------------------------------------------------
// sessions.index
// ---------------------------------------------------------------------------------------

/// Parameters of `sessions.index`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IndexRequest {
    /// Re-parse every transcript from the start.
    pub force: bool,
    /// The folder of transcripts; default `$CLAUDE_CONFIG_DIR/projects`
    /// (`~/.claude/projects`).
    pub projects_dir: Option<PathBuf>,
}

/// Result of `sessions.index`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct IndexResponse {
    /// The folder indexed.
    pub projects_dir: PathBuf,
    /// Main session transcripts found.
    pub sessions: usize,
    /// Subagent transcripts found (`agent-*.jsonl`, `subagents/`).
    pub subagents: usize,
    /// Transcripts parsed from the start (new, rewritten, or `force`).
    pub parsed: usize,
    /// Transcripts that grew: parsed from their last prompt group on.
    pub grown: usize,
    /// Transcripts unchanged (size and mtime), not read.
    pub unchanged: usize,
    /// Transcripts gone from disk, removed from the index.
    pub removed: usize,
    /// Bytes read from transcripts.
    pub bytes_parsed: u64,
    /// Chunks new or changed.
    pub chunks_written: usize,
    /// Chunks removed.
    pub chunks_removed: usize,
    /// Chunks in the index after the run.
    pub chunks: usize,
    /// Chunk windows the model embedded now (the others came from the vector cache).
    pub embedded: usize,
    /// Chunks still without vectors (no model available).
    pub pending_vectors: usize,
    /// Lines skipped as corrupt.
    pub corrupt_lines: usize,
    /// Records skipped on purpose, by type (`progress`, `file-history-snapshot`, …).
    pub skipped_records: BTreeMap<String, usize>,
    /// Corrupt lines (one warning per file), unreadable files, a missing model.
    pub warnings: Vec<String>,
}

/// `sessions.index`: index Claude Code's session transcripts.
#[derive(Debug, Clone, Copy)]
pub struct Index;

impl Operation for Index {
    const NAME: &'static str = "sessions.index";
    const SUMMARY: &'static str = "Index Claude Code session transcripts ($CLAUDE_CONFIG_DIR/projects/**/*.jsonl) by prompt group: new and grown sessions only (force re-parses all), deleted ones removed.";
    type Request = IndexRequest;
    type Response = IndexResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::one("/projects_dir")];

    fn run(engine: &Engine, request: IndexRequest) -> Result<IndexResponse> {
        index(engine, request.projects_dir, request.force)
    }
}

/// A transcript on disk.
struct Found {
    path: PathBuf,
    size: u64,
    mtime_ns: i64,
    subagent: bool,
    /// The folder right under `projects/` (a lossy encoding of the project path).
    folder: String,
}

/// `*.jsonl` files below `dir`, sorted.
fn discover(dir: &Path, warnings: &mut Vec<String>) -> Vec<Found> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    while let Some((at, depth)) = stack.pop() {
        let entries = match std::fs::read_dir(&at) {
            Ok(entries) => entries,
            Err(e) if depth == 0 && e.kind() == std::io::ErrorKind::NotFound => {
                warnings.push(format!(
                    "no Claude Code projects folder at {}: nothing to index",
                    dir.display()
                ));
                continue;
            }
            Err(e) => {
                warnings.push(format!("{}: {e}", at.display()));
                continue;
            }
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if depth < MAX_DEPTH {
                    stack.push((path, depth + 1));
                }
                continue;
            }
            if !kind.is_file() || path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let meta = match entry.metadata() {
                Ok(meta) => meta,
                Err(e) => {
                    warnings.push(format!("{}: {e}", path.display()));
                    continue;
                }
            };
            let rel = path.strip_prefix(dir).unwrap_or(&path);
            let folder = rel
                .components()
                .next()
                .filter(|_| rel.components().count() > 1)
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .unwrap_or_default();
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let subagent = stem.starts_with("agent-")
                || rel.components().any(|c| c.as_os_str() == "subagents");
            out.push(Found {
                size: meta.len(),
                mtime_ns: crate::walk::mtime_ns_of(&meta),
                path,
                subagent,
                folder,
            });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// What the index knows of a transcript.
#[derive(Debug, Clone)]
struct Known {
    session_id: String,
    parent_session_id: Option<String>,
    project: String,
    project_from_cwd: bool,
    size: u64,
    mtime_ns: i64,
    watermark: u64,
    restart: BTreeMap<String, u64>,
    first_time: Option<i64>,
    last_time: Option<i64>,
}

fn known_files(engine: &Engine, warnings: &mut Vec<String>) -> Result<BTreeMap<PathBuf, Known>> {
    let store = &store(engine)?;
    let db = |e| Error::db(store.db().path(), e);
    let conn = store.db().read(warnings)?;
    let mut stmt = conn
        .prepare(
            "SELECT path, session_id, parent_session_id, project, project_from_cwd, size, \
             mtime_ns, watermark, restart, first_time, last_time FROM session_files",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([], |r| {
            let restart: String = r.get(8)?;
            Ok((
                PathBuf::from(r.get::<_, String>(0)?),
                Known {
                    session_id: r.get(1)?,
                    parent_session_id: r.get(2)?,
                    project: r.get(3)?,
                    project_from_cwd: r.get(4)?,
                    size: r.get::<_, i64>(5)? as u64,
                    mtime_ns: r.get(6)?,
                    watermark: r.get::<_, i64>(7)? as u64,
                    restart: serde_json::from_str(&restart).unwrap_or_default(),
                    first_time: r.get(9)?,
                    last_time: r.get(10)?,
                },
            ))
        })
        .map_err(db)?
        .collect::<rusqlite::Result<_>>()
        .map_err(db)?;
    Ok(rows)
}

/// How a transcript is read in this run.
enum Plan {
    Skip,
    /// From this offset, ignoring records of streams before their restart offsets.
    Tail(u64),
    Full,
}

/// A transcript read and parsed.
struct Read {
    found_index: usize,
    full: bool,
    parsed: Parsed,
    bytes: u64,
    error: Option<String>,
}

fn read_from(path: &Path, from: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Read as _, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Session-level facts of a transcript, as its chunks carry them.
struct SessionInfo {
    session_id: String,
    parent_session_id: Option<String>,
    path: String,
    project: String,
    first_time: Option<i64>,
}

fn index(engine: &Engine, given_dir: Option<PathBuf>, force: bool) -> Result<IndexResponse> {
    let dir = projects_dir(given_dir);
    let mut warnings = Vec::new();
    let found = discover(&dir, &mut warnings);
    let known = known_files(engine, &mut warnings)?;
    let mut response = IndexResponse {
        projects_dir: dir.clone(),
        sessions: found.iter().filter(|f| !f.subagent).count(),
        subagents: found.iter().filter(|f| f.subagent).count(),
        ..Default::default()
    };

    let plans: Vec<Plan> = found
        .iter()
        .map(|f| match known.get(&f.path) {
            _ if force => Plan::Full,
            None => Plan::Full,
            Some(k) if k.size == f.size && k.mtime_ns == f.mtime_ns => Plan::Skip,
            // Grown (appended to): from the last group on. Same size with another mtime
            // (rewritten in place), shrunk, or a project still unknown: from the start.
            Some(k) if f.size > k.size && f.size >= k.watermark && k.project_from_cwd => {
                let from = k.restart.values().copied().min().unwrap_or(k.watermark);
                Plan::Tail(from.min(k.watermark))
            }
            Some(_) => Plan::Full,
        })
        .collect();
    // Read and parse in parallel, a slice at a time, so progress is reported from this
    // thread between slices.
    let to_read: Vec<usize> = (0..found.len())
        .filter(|&i| !matches!(plans[i], Plan::Skip))
        .collect();
    let mut reads: Vec<Read> = Vec::with_capacity(to_read.len());
    crate::progress::report("parse", 0, to_read.len());
    for slice in to_read.chunks(PARSE_SLICE) {
        reads.par_extend(slice.par_iter().map(|&i| {
            let (f, plan) = (&found[i], &plans[i]);
            let (from, restart, full) = match plan {
                Plan::Skip | Plan::Full => (0, BTreeMap::new(), true),
                Plan::Tail(from) => (
                    *from,
                    known
                        .get(&f.path)
                        .map(|k| k.restart.clone())
                        .unwrap_or_default(),
                    false,
                ),
            };
            match read_from(&f.path, from) {
                Ok(bytes) => Read {
                    found_index: i,
                    full,
                    parsed: parser::parse(&bytes, from, &restart),
                    bytes: bytes.len() as u64,
                    error: None,
                },
                Err(e) => Read {
                    found_index: i,
                    full,
                    parsed: Parsed::default(),
                    bytes: 0,
                    error: Some(format!("{}: {e}", f.path.display())),
                },
            }
        }));
        crate::progress::report("parse", reads.len(), to_read.len());
    }
    response.unchanged = plans.iter().filter(|p| matches!(p, Plan::Skip)).count();

    let store = &store(engine)?;
    let db_path = store.db().path().to_path_buf();
    let db = |e| Error::db(&db_path, e);
    let now = crate::time::unix_now();
    {
        let mut conn = store.db().write(&mut warnings)?;
        let tx = conn.transaction().map_err(db)?;
        if force {
            for path in known.keys() {
                response.chunks_removed += store.delete_source(&tx, &path.to_string_lossy())?;
            }
            tx.execute("DELETE FROM session_files", []).map_err(db)?;
        }
        for read in reads {
            let f = &found[read.found_index];
            let path = f.path.to_string_lossy().into_owned();
            if let Some(error) = read.error {
                warnings.push(error);
                continue;
            }
            let parsed = read.parsed;
            response.bytes_parsed += read.bytes;
            for (kind, n) in &parsed.skipped {
                *response.skipped_records.entry(kind.clone()).or_insert(0) += n;
            }
            if let Some((offset, why)) = parsed.corrupt.first() {
                response.corrupt_lines += parsed.corrupt.len();
                warnings.push(format!(
                    "{path}: skipped {} corrupt line(s), the first at byte {offset}: {why}",
                    parsed.corrupt.len()
                ));
            }
            let previous = if read.full { None } else { known.get(&f.path) };
            let stem = f
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (project, from_cwd) = match (&parsed.cwd, previous) {
                (_, Some(k)) => (k.project.clone(), k.project_from_cwd),
                (Some(cwd), None) => (cwd.clone(), true),
                (None, None) => (f.folder.clone(), false),
            };
            let parent_session_id = match previous {
                Some(k) => k.parent_session_id.clone(),
                None if f.subagent => parsed
                    .session_id
                    .clone()
                    .filter(|s| *s != stem)
                    .or_else(|| parent_folder_session(&f.path)),
                None => None,
            };
            let first_time = match (previous.and_then(|k| k.first_time), parsed.first_time) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let last_time = match (previous.and_then(|k| k.last_time), parsed.last_time) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            let info = SessionInfo {
                session_id: previous.map(|k| k.session_id.clone()).unwrap_or(stem),
                parent_session_id,
                path: path.clone(),
                project,
                first_time,
            };
            let chunks = chunks_of(&info, &parsed);
            if read.full {
                let keys: Vec<&str> = chunks.iter().map(|c| c.key.as_str()).collect();
                response.chunks_removed += store.retain_source(&tx, &path, &keys)?;
                response.parsed += 1;
            } else {
                response.grown += 1;
            }
            let put = store.put(&tx, &chunks)?;
            response.chunks_written += put.inserted + put.updated;
            let mut restart = previous.map(|k| k.restart.clone()).unwrap_or_default();
            restart.extend(parsed.open.iter().map(|(s, o)| (s.clone(), *o)));
            let restart =
                serde_json::to_string(&restart).map_err(|e| Error::Internal(e.to_string()))?;
            tx.execute(
                "INSERT OR REPLACE INTO session_files (path, session_id, parent_session_id, \
                 project, project_from_cwd, size, mtime_ns, watermark, restart, first_time, \
                 last_time, indexed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    path,
                    info.session_id,
                    info.parent_session_id,
                    info.project,
                    from_cwd,
                    f.size as i64,
                    f.mtime_ns,
                    parsed.end as i64,
                    restart,
                    first_time,
                    last_time,
                    now
                ],
            )
            .map_err(db)?;
        }
        // Transcripts of this folder that are gone.
        let on_disk: std::collections::HashSet<&Path> =
            found.iter().map(|f| f.path.as_path()).collect();
        if !force {
            for path in known.keys() {
                if path.starts_with(&dir) && !on_disk.contains(path.as_path()) {
                    let path = path.to_string_lossy();
                    response.chunks_removed += store.delete_source(&tx, &path)?;
                    tx.execute("DELETE FROM session_files WHERE path = ?1", [&*path])
                        .map_err(db)?;
                    response.removed += 1;
                }
            }
        }
        for (key, value) in [
            ("last_indexed", now.to_string()),
            ("projects_dir", dir.to_string_lossy().into_owned()),
        ] {
            tx.execute(
                "INSERT OR REPLACE INTO session_meta (key, value) VALUES (?1, ?2)",
                params![key, value],
            )
            .map_err(db)?;
        }
        tx.commit().map_err(db)?;
    }

    response.embedded = hybrid::embed_pending_with_engine(engine, store, &mut warnings)?;
    let stats = store.stats(&mut warnings)?;
    response.chunks = stats.chunks;
    response.pending_vectors = stats.pending;
    response.warnings = warnings;
    Ok(response)
}

/// The session a `…/<session>/subagents/…/agent-x.jsonl` belongs to: the folder above
/// `subagents`.
fn parent_folder_session(path: &Path) -> Option<String> {
    let mut parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let at = parts.iter().rposition(|p| p == "subagents")?;
    parts.truncate(at);
    parts.pop()
}

/// One message of a chunk's context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ContextMessage {
    /// `user`, `assistant` or `summary`.
    pub role: String,
    /// Its text (cut at 2000 characters).
    pub content: String,
}

/// The part kinds of each chunk kind.
fn kind_of(part: PartKind) -> &'static str {
    match part {
        PartKind::Prompt => "user",
        PartKind::Summary => "summary",
        PartKind::Text => "assistant",
        PartKind::Thinking => "thinking",
        PartKind::ToolUse | PartKind::ToolResult => "tool",
    }
}

/// The context of a group: its opening prompt (or summary) and its assistant text
/// messages; more than five keep the first two and the last three.
fn context_of(group: &Group) -> Vec<ContextMessage> {
    let mut all: Vec<ContextMessage> = Vec::new();
    for message in &group.messages {
        let (role, kinds): (&str, &[PartKind]) = match message.role {
            Role::User => ("user", &[PartKind::Prompt]),
            Role::Assistant => ("assistant", &[PartKind::Text]),
        };
        let summary = message.parts.iter().any(|p| p.kind == PartKind::Summary);
        let text: Vec<&str> = message
            .parts
            .iter()
            .filter(|p| kinds.contains(&p.kind) || p.kind == PartKind::Summary)
            .map(|p| p.text.as_str())
            .collect();
        if text.is_empty() {
            continue;
        }
        all.push(ContextMessage {
            role: if summary { "summary" } else { role }.to_string(),
            content: parser::cut(&text.join("\n\n"), CONTEXT_CHARS),
        });
    }
    if all.len() > CONTEXT_MESSAGES {
        let tail = all.split_off(all.len() - 3);
        all.truncate(2);
        all.extend(tail);
    }
    all
}

/// The chunks of a parsed range of a transcript.
fn chunks_of(info: &SessionInfo, parsed: &Parsed) -> Vec<NewChunk> {
    let mut out = Vec::new();
    for group in &parsed.groups {
        let identity = match &group.uuid {
            Some(uuid) => format!("uuid\u{0}{uuid}"),
            None => format!(
                "offset\u{0}{}\u{0}{}\u{0}{}",
                info.session_id, group.stream, group.start
            ),
        };
        let tag = sha256_hex(identity.as_bytes())[..16].to_string();
        let time = group.time().or(info.first_time).unwrap_or(0);
        let mut texts: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for message in &group.messages {
            for part in &message.parts {
                texts
                    .entry(kind_of(part.kind))
                    .or_default()
                    .push(part.text.as_str());
            }
        }
        let content_types: Vec<&str> = KINDS
            .iter()
            .copied()
            .filter(|k| texts.contains_key(k))
            .collect();
        let message_ids: Vec<&str> = group
            .messages
            .iter()
            .filter_map(|m| m.uuid.as_deref())
            .collect();
        let meta = serde_json::json!({
            "session_id": info.session_id,
            "parent_session_id": info.parent_session_id,
            "session_path": info.path,
            "project": info.project,
            "prompt_uuid": group.uuid,
            "stream": group.stream,
            "opener": match group.opener {
                Opener::Prompt => "prompt",
                Opener::Compact => "compact_summary",
                Opener::Preamble => "preamble",
            },
            "message_ids": message_ids,
            "content_types": content_types,
            "timestamp": format_rfc3339(time),
            "messages": context_of(group),
        })
        .to_string();
        for kind in KINDS {
            let Some(parts) = texts.get(kind) else {
                continue;
            };
            out.push(NewChunk {
                key: sha256_hex(format!("{identity}\u{0}{kind}").as_bytes()),
                source: info.path.clone(),
                scope: info.project.clone(),
                kind: kind.to_string(),
                tag: tag.clone(),
                time,
                title: String::new(),
                text: parts.join("\n\n"),
                meta: meta.clone(),
            });
        }
    }
    for title in &parsed.titles {
        let identity = format!("title\u{0}{}\u{0}{}", info.session_id, title.offset);
        let time = info.first_time.unwrap_or(0);
        let meta = serde_json::json!({
            "session_id": info.session_id,
            "parent_session_id": info.parent_session_id,
            "session_path": info.path,
            "project": info.project,
            "prompt_uuid": title.leaf,
            "stream": "",
            "opener": "title",
            "message_ids": Vec::<String>::new(),
            "content_types": ["summary"],
            "timestamp": format_rfc3339(time),
            "messages": [ContextMessage { role: "summary".into(), content: parser::cut(&title.text, CONTEXT_CHARS) }],
        })
        .to_string();
        out.push(NewChunk {
            key: sha256_hex(format!("{identity}\u{0}summary").as_bytes()),
            source: info.path.clone(),
            scope: info.project.clone(),
            kind: "summary".into(),
            tag: sha256_hex(identity.as_bytes())[..16].to_string(),
            time,
            title: String::new(),
            text: title.text.clone(),
            meta,
        });
    }
    out
}

// ---------------------------------------------------------------------------------------
// sessions.search
// ---------------------------------------------------------------------------------------

/// A point in time: Unix seconds, or text — `2h`, `30m`, `1w`, `30d`, `1y` (that long
/// before now), `2026-01-01`, or an RFC 3339 timestamp.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Since {
    /// Unix seconds.
    Seconds(i64),
    /// A duration back from now, a date or a timestamp.
    Text(String),
}

/// `since` as Unix seconds, relative to `now`.
pub fn parse_since(since: &Since, now: i64) -> std::result::Result<i64, String> {
    let text = match since {
        Since::Seconds(s) => return Ok(*s),
        Since::Text(t) => t.trim(),
    };
    if let Ok(secs) = text.parse::<i64>() {
        return Ok(secs);
    }
    if let Some(time) = parse_date(text).ok().or_else(|| parse_timestamp(text)) {
        return Ok(time);
    }
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits < text.len() {
        let n: i64 = text[..digits]
            .parse()
            .map_err(|_| format!("{text:?}: number too large"))?;
        let unit = match text[digits..].trim() {
            "s" | "sec" | "secs" => 1,
            "m" | "min" | "mins" => 60,
            "h" | "hr" | "hrs" => 3600,
            "d" | "day" | "days" => 86_400,
            "w" | "wk" | "week" | "weeks" => 7 * 86_400,
            "mo" | "month" | "months" => 30 * 86_400,
            "y" | "yr" | "year" | "years" => 365 * 86_400,
            other => {
                return Err(format!(
                    "{text:?}: unknown unit {other:?} (use s, m, h, d, w, mo or y)"
                ));
            }
        };
        return n
            .checked_mul(unit)
            .map(|back| now.saturating_sub(back))
            .ok_or_else(|| format!("{text:?}: too far back"));
    }
    parse_timestamp(text).ok_or_else(|| {
        format!("{text:?} is not a time: use 2h, 1w, 30d, 2026-01-01 or Unix seconds")
    })
}

/// How long ago `time` was, in words (`3 days ago`).
pub fn age(time: i64, now: i64) -> String {
    let secs = (now - time).max(0);
    let (n, unit) = match secs {
        0..60 => return "just now".into(),
        60..3600 => (secs / 60, "minute"),
        3600..86_400 => (secs / 3600, "hour"),
        86_400..1_209_600 => (secs / 86_400, "day"),
        1_209_600..5_184_000 => (secs / 604_800, "week"),
        5_184_000..31_536_000 => (secs / 2_592_000, "month"),
        _ => (secs / 31_536_000, "year"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

/// Parameters of `sessions.search`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SearchRequest {
    /// What to look for (any text).
    pub query: String,
    /// Only sessions whose project path contains this (case-insensitive).
    pub project: Option<String>,
    /// Only chunks from this time on: Unix seconds, `2h`, `1w`, `30d`, `2026-01-01`.
    pub since: Option<Since>,
    /// Only these kinds: `user`, `assistant`, `tool`, `thinking`, `summary` (default all).
    pub types: Vec<String>,
    /// Most results (default 5, at most 100).
    pub limit: Option<usize>,
    /// `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`.
    pub mode: Mode,
    /// "Now" for recency and relative `since`, in Unix seconds (default: the clock), so a
    /// search can be reproduced exactly.
    pub now: Option<i64>,
    /// The transcripts folder to index when no index exists yet (default
    /// `$CLAUDE_CONFIG_DIR/projects`).
    pub projects_dir: Option<PathBuf>,
    /// Only what is stored for projects under these directories (absent or empty: all).
    /// The MCP server sets it to its roots.
    pub within: Vec<PathBuf>,
}

/// One result of `sessions.search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchHit {
    /// 1 for the best.
    pub rank: usize,
    /// The chunk's id (8 hex characters; `sessions.chunk` shows it whole).
    pub id: String,
    /// Score (fused, weighted by kind and recency; higher is better).
    pub score: f64,
    /// `user`, `assistant`, `tool`, `thinking` or `summary`.
    pub kind: String,
    /// The project path (the session's `cwd`).
    pub project: String,
    /// The session (`claude --resume <session_id>`; for a subagent, its file's name).
    pub session_id: String,
    /// The session a subagent transcript belongs to.
    pub parent_session_id: Option<String>,
    /// The transcript file.
    pub session_path: PathBuf,
    /// When the prompt was written (RFC 3339, UTC).
    pub timestamp: String,
    /// The same, in Unix seconds.
    pub time: i64,
    /// How long ago, in words.
    pub age: String,
    /// The matched chunk's full text.
    pub content: String,
    /// The window of `content` that matched best by meaning, when the chunk has several.
    pub matched_window: Option<String>,
    /// The prompt and the assistant's replies around the match (up to 5 messages).
    pub messages: Vec<ContextMessage>,
    /// Which lists found it: `keyword`, `vector` or both.
    pub matched_by: Vec<String>,
}

/// Result of `sessions.search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchResponse {
    /// The query.
    pub query: String,
    /// Best first.
    pub results: Vec<SearchHit>,
    /// How many results.
    pub total_results: usize,
    /// The retrievers used: `hybrid`, `keyword` or `vector`.
    pub mode: Mode,
    /// Set when nothing matched and these are the closest matches by meaning instead.
    pub note: Option<String>,
    /// Time spent, in milliseconds (indexing on the first search included).
    pub search_time_ms: u64,
    /// An index built on the fly, a project filter matching nothing, a missing model.
    pub warnings: Vec<String>,
}

/// `sessions.search`: search the indexed session transcripts.
#[derive(Debug, Clone, Copy)]
pub struct Search;

impl Operation for Search {
    const NAME: &'static str = "sessions.search";
    const SUMMARY: &'static str = "Search Claude Code session transcripts (keyword + semantic, recent first, tool output and thinking weighted down), filtered by project substring, since (2h, 1w, 30d, 2026-01-01) and types; indexes on first use.";
    type Request = SearchRequest;
    type Response = SearchResponse;
    const PATH_PARAMS: &'static [PathParam] = &[
        PathParam::one("/projects_dir"),
        PathParam::within("/within"),
    ];

    fn run(engine: &Engine, request: SearchRequest) -> Result<SearchResponse> {
        search(engine, request)
    }
}

/// The note of results that no word of the query matched.
fn closest_note(text: &str) -> String {
    format!("no matches for {text:?}; showing the closest matches by meaning")
}

fn meta_value(engine: &Engine, key: &str, warnings: &mut Vec<String>) -> Result<Option<String>> {
    let store = &store(engine)?;
    let conn = store.db().read(warnings)?;
    conn.query_row(
        "SELECT value FROM session_meta WHERE key = ?1",
        [key],
        |r| r.get(0),
    )
    .optional()
    .map_err(|e| Error::db(store.db().path(), e))
}

fn search(engine: &Engine, request: SearchRequest) -> Result<SearchResponse> {
    const OP: &str = Search::NAME;
    let started = std::time::Instant::now();
    let text = request.query.trim();
    if text.is_empty() {
        return Err(Error::invalid(OP, "Query required"));
    }
    let limit = request.limit.unwrap_or(5);
    if !(1..=100).contains(&limit) {
        return Err(Error::invalid(OP, "`limit` must be between 1 and 100"));
    }
    let mut kinds = Vec::new();
    for kind in &request.types {
        let kind = kind.trim().to_lowercase();
        if !KINDS.contains(&kind.as_str()) {
            return Err(Error::invalid(
                OP,
                format!("unknown type {kind:?}: use {}", KINDS.join(", ")),
            ));
        }
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let now = request.now.unwrap_or_else(crate::time::unix_now);
    let since = request
        .since
        .as_ref()
        .map(|s| parse_since(s, now).map_err(|why| Error::invalid(OP, format!("`since`: {why}"))))
        .transpose()?;
    let mut warnings = Vec::new();
    if meta_value(engine, "last_indexed", &mut warnings)?.is_none() {
        let indexed = index(engine, request.projects_dir.clone(), false)?;
        warnings.push(format!(
            "no session index yet: indexed {} sessions and {} subagent transcripts ({} chunks) first",
            indexed.sessions, indexed.subagents, indexed.chunks
        ));
        warnings.extend(indexed.warnings);
    }
    let mut response = SearchResponse {
        query: text.to_string(),
        results: Vec::new(),
        total_results: 0,
        mode: request.mode,
        note: None,
        search_time_ms: 0,
        warnings: Vec::new(),
    };
    // Projects outside `within` are left out of the scopes, so the retrieval itself
    // never sees their chunks (and still returns up to `limit` of the others).
    let within = Within::new(&request.within);
    let scopes = match request.project.as_deref().map(str::trim) {
        None | Some("") if within.is_all() => None,
        None | Some("") => {
            let allowed = projects_within(engine, &within, &mut warnings)?;
            if allowed.is_empty() {
                warnings.push(format!("No sessions found under {}", within.describe()));
                response.warnings = warnings;
                response.search_time_ms = started.elapsed().as_millis() as u64;
                return Ok(response);
            }
            Some(allowed)
        }
        Some(project) => {
            let mut matching = matching_projects(engine, project, &mut warnings)?;
            matching.retain(|p| within.contains_recorded(Path::new(p)));
            if matching.is_empty() {
                warnings.push(format!("No sessions found for project {project}"));
                response.warnings = warnings;
                response.search_time_ms = started.elapsed().as_millis() as u64;
                return Ok(response);
            }
            Some(matching)
        }
    };
    let (vector, used) = hybrid::query_vector_for(engine, request.mode, text, &mut warnings)?;
    response.mode = used;
    let mut search = hybrid::Search {
        text: text.to_string(),
        mode: request.mode,
        filter: Filter {
            scopes,
            kinds: (!kinds.is_empty()).then_some(kinds),
            since,
            ..Filter::default()
        },
        limit,
        kind_weights: kind_weights(),
        recency: Some(Recency {
            now,
            half_life_secs: RECENCY_HALF_LIFE_SECS,
            floor: RECENCY_FLOOR,
        }),
        ..hybrid::Search::default()
    };
    let store = &store(engine)?;
    let mut hits = store.search(&search, vector.as_deref(), &mut warnings)?;
    if hits.is_empty() && request.mode != Mode::Vector {
        // Nothing matched the words: the closest chunks by meaning, when the model is
        // there (in keyword mode too; a missing model was already reported or asked for).
        let fallback = match vector {
            Some(v) => Some(v),
            None => match engine.embedder() {
                Ok(embedder) => Some(hybrid::query_vector(embedder.as_ref(), text)?),
                Err(_) => None,
            },
        };
        if let Some(fallback) = fallback {
            search.mode = Mode::Vector;
            hits = store.search(&search, Some(&fallback), &mut warnings)?;
            if !hits.is_empty() {
                response.mode = Mode::Vector;
                response.note = Some(closest_note(text));
            }
        }
    } else if request.mode == Mode::Hybrid && hits.iter().all(|h| h.keyword_rank.is_none()) {
        // The vector list alone found these: say so, as when keyword mode falls back.
        response.note = Some(closest_note(text));
    }
    for hit in hits {
        let meta: serde_json::Value = serde_json::from_str(&hit.meta).unwrap_or_default();
        let get = |k: &str| meta.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let mut matched_by = Vec::new();
        if hit.keyword_rank.is_some() {
            matched_by.push("keyword".to_string());
        }
        if hit.vector_rank.is_some() {
            matched_by.push("vector".to_string());
        }
        response.results.push(SearchHit {
            rank: response.results.len() + 1,
            id: hit.key[..8.min(hit.key.len())].to_string(),
            score: hit.score,
            kind: hit.kind,
            project: hit.scope,
            session_id: get("session_id").unwrap_or_default(),
            parent_session_id: get("parent_session_id"),
            session_path: PathBuf::from(hit.source),
            timestamp: format_rfc3339(hit.time),
            time: hit.time,
            age: age(hit.time, now),
            matched_window: hit
                .window
                .and_then(|(s, e)| hit.text.get(s..e))
                .map(str::to_string),
            content: hit.text,
            messages: meta
                .get("messages")
                .and_then(|m| serde_json::from_value(m.clone()).ok())
                .unwrap_or_default(),
            matched_by,
        });
    }
    response.total_results = response.results.len();
    response.warnings = warnings;
    response.search_time_ms = started.elapsed().as_millis() as u64;
    Ok(response)
}

/// Every indexed project, sorted.
fn indexed_projects(engine: &Engine, warnings: &mut Vec<String>) -> Result<Vec<String>> {
    let store = &store(engine)?;
    let db = |e| Error::db(store.db().path(), e);
    let conn = store.db().read(warnings)?;
    let mut stmt = conn
        .prepare("SELECT DISTINCT project FROM session_files ORDER BY project")
        .map_err(db)?;
    stmt.query_map([], |r| r.get(0))
        .map_err(db)?
        .collect::<rusqlite::Result<_>>()
        .map_err(db)
}

/// Indexed projects whose path contains `needle` (case-insensitive), sorted.
fn matching_projects(
    engine: &Engine,
    needle: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<String>> {
    let needle = needle.to_lowercase();
    let mut all = indexed_projects(engine, warnings)?;
    all.retain(|p| p.to_lowercase().contains(&needle));
    Ok(all)
}

/// Indexed projects under `within` (a project is its sessions' working directory,
/// compared canonical when it still exists; one known only by its folder name under
/// `projects/` is under no directory), sorted.
fn projects_within(
    engine: &Engine,
    within: &Within,
    warnings: &mut Vec<String>,
) -> Result<Vec<String>> {
    let mut all = indexed_projects(engine, warnings)?;
    all.retain(|p| within.contains_recorded(Path::new(p)));
    Ok(all)
}

/// The projects a request may see: `None` when `within` is empty (all of them).
fn allowed_projects(
    engine: &Engine,
    within: &[PathBuf],
    warnings: &mut Vec<String>,
) -> Result<Option<Vec<String>>> {
    let within = Within::new(within);
    if within.is_all() {
        return Ok(None);
    }
    projects_within(engine, &within, warnings).map(Some)
}

/// A list of projects as the JSON array SQL reads with `json_each` (`None` stays NULL).
fn json_list(list: &Option<Vec<String>>) -> Result<Option<String>> {
    list.as_ref()
        .map(|l| serde_json::to_string(l).map_err(|e| Error::Internal(e.to_string())))
        .transpose()
}

// ---------------------------------------------------------------------------------------
// sessions.chunk
// ---------------------------------------------------------------------------------------

/// Parameters of `sessions.chunk`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ChunkRequest {
    /// The chunk's id, or any unique prefix of it (hex).
    pub id: String,
    /// Only what is stored for projects under these directories (absent or empty: all):
    /// a chunk of another project is answered as an unknown id. The MCP server sets it to
    /// its roots.
    pub within: Vec<PathBuf>,
}

/// Another part of the same prompt group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GroupPart {
    /// Its id (8 hex characters).
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// Its length in characters.
    pub chars: usize,
}

/// Result of `sessions.chunk`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChunkResponse {
    /// The id (8 hex characters).
    pub id: String,
    /// The full id (64 hex characters).
    pub full_id: String,
    /// Its kind.
    pub kind: String,
    /// The project path.
    pub project: String,
    /// The session.
    pub session_id: String,
    /// The session a subagent transcript belongs to.
    pub parent_session_id: Option<String>,
    /// The transcript file.
    pub session_path: PathBuf,
    /// When (RFC 3339, UTC).
    pub timestamp: String,
    /// The same, in Unix seconds.
    pub time: i64,
    /// The full text.
    pub content: String,
    /// The prompt and replies of its group (up to 5 messages).
    pub messages: Vec<ContextMessage>,
    /// The `uuid` of the record that opened its group.
    pub prompt_uuid: Option<String>,
    /// The `uuid`s of its group's messages.
    pub message_ids: Vec<String>,
    /// Every part of its group (this one included), in kind order.
    pub group: Vec<GroupPart>,
}

/// `sessions.chunk`: one chunk by id prefix.
#[derive(Debug, Clone, Copy)]
pub struct Chunk;

impl Operation for Chunk {
    const NAME: &'static str = "sessions.chunk";
    const SUMMARY: &'static str = "Show one session chunk in full (by its id from sessions.search, or any unique prefix), with its context messages and the other parts of its prompt group.";
    type Request = ChunkRequest;
    type Response = ChunkResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::within("/within")];

    fn run(engine: &Engine, request: ChunkRequest) -> Result<ChunkResponse> {
        chunk(engine, &request.id, &request.within)
    }
}

fn chunk(engine: &Engine, id: &str, within: &[PathBuf]) -> Result<ChunkResponse> {
    const OP: &str = Chunk::NAME;
    let prefix = id.trim().to_ascii_lowercase();
    if prefix.is_empty() {
        return Err(Error::invalid(OP, "Chunk id required"));
    }
    if prefix.len() > 64 || !prefix.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::invalid(
            OP,
            format!("{id:?} is not a chunk id (hex characters)"),
        ));
    }
    let mut warnings = Vec::new();
    // Chunks of projects outside `within` are not looked at: neither found nor counted
    // as making a prefix ambiguous.
    let allowed = json_list(&allowed_projects(engine, within, &mut warnings)?)?;
    let store = &store(engine)?;
    let db = |e| Error::db(store.db().path(), e);
    let conn = store.db().read(&mut warnings)?;
    // Keys are lowercase hex: every key with this prefix sorts in [prefix, prefix + 'g').
    let upper = format!("{prefix}g");
    type Row = (String, String, String, String, i64, String, String, String);
    let rows: Vec<Row> = {
        let mut stmt = conn
            .prepare_cached(
                "SELECT key, kind, scope, source, time, text, meta, tag FROM chunks \
                 WHERE key >= ?1 AND key < ?2 \
                   AND (?3 IS NULL OR scope IN (SELECT value FROM json_each(?3))) \
                 ORDER BY key LIMIT 5",
            )
            .map_err(db)?;
        stmt.query_map(params![prefix, upper, allowed], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
            ))
        })
        .map_err(db)?
        .collect::<rusqlite::Result<_>>()
        .map_err(db)?
    };
    let (key, kind, project, source, time, text, meta, tag) = match rows.len() {
        0 => return Err(Error::invalid(OP, format!("no chunk with id {prefix}"))),
        1 => rows
            .into_iter()
            .next()
            .ok_or_else(|| Error::Internal("row vanished".into()))?,
        n => {
            let shown: Vec<String> = rows.iter().map(|r| r.0[..12].to_string()).collect();
            return Err(Error::invalid(
                OP,
                format!(
                    "chunk id {prefix} is ambiguous: it starts {}{} chunks ({}…); give more characters",
                    if n == 5 { "at least " } else { "" },
                    n,
                    shown.join("…, ")
                ),
            ));
        }
    };
    let group: Vec<GroupPart> = {
        let mut stmt = conn
            .prepare_cached(
                "SELECT key, kind, length(text) FROM chunks WHERE tag = ?1 AND source = ?2",
            )
            .map_err(db)?;
        let mut parts: Vec<GroupPart> = stmt
            .query_map(params![tag, source], |r| {
                Ok(GroupPart {
                    id: r.get::<_, String>(0)?.chars().take(8).collect(),
                    kind: r.get(1)?,
                    chars: r.get::<_, i64>(2)? as usize,
                })
            })
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?;
        parts.sort_by_key(|p| {
            (
                KINDS
                    .iter()
                    .position(|k| *k == p.kind)
                    .unwrap_or(KINDS.len()),
                p.id.clone(),
            )
        });
        parts
    };
    let meta: serde_json::Value = serde_json::from_str(&meta).unwrap_or_default();
    let get = |k: &str| meta.get(k).and_then(|v| v.as_str()).map(str::to_string);
    Ok(ChunkResponse {
        id: key[..8].to_string(),
        full_id: key.clone(),
        kind,
        project,
        session_id: get("session_id").unwrap_or_default(),
        parent_session_id: get("parent_session_id"),
        session_path: PathBuf::from(source),
        timestamp: format_rfc3339(time),
        time,
        content: text,
        messages: meta
            .get("messages")
            .and_then(|m| serde_json::from_value(m.clone()).ok())
            .unwrap_or_default(),
        prompt_uuid: get("prompt_uuid"),
        message_ids: meta
            .get("message_ids")
            .and_then(|m| serde_json::from_value(m.clone()).ok())
            .unwrap_or_default(),
        group,
    })
}

// ---------------------------------------------------------------------------------------
// sessions.status
// ---------------------------------------------------------------------------------------

/// Parameters of `sessions.status`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct StatusRequest {
    /// Only what is stored for projects under these directories (absent or empty: all):
    /// sessions, projects and chunks are counted over those; the index size, model and
    /// last run stay those of the whole index. The MCP server sets it to its roots.
    pub within: Vec<PathBuf>,
}

/// Sessions of one project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProjectSessions {
    /// The project path.
    pub project: String,
    /// Its main sessions.
    pub sessions: usize,
}

/// Result of `sessions.status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StatusResponse {
    /// The index database (`sessions.db` in the data root).
    pub db_path: PathBuf,
    /// The transcripts folder of the last run.
    pub projects_dir: Option<PathBuf>,
    /// Main sessions indexed.
    pub sessions: usize,
    /// Subagent transcripts indexed.
    pub subagents: usize,
    /// Projects, with their session counts, sorted by path.
    pub projects: Vec<ProjectSessions>,
    /// Chunks.
    pub chunks: usize,
    /// Chunks by kind.
    pub chunks_by_kind: BTreeMap<String, usize>,
    /// Chunks without vectors yet.
    pub pending_vectors: usize,
    /// Size of the index on disk (database and its WAL), bytes.
    pub index_bytes: u64,
    /// The embedding model's directory, or why there is none.
    pub model: String,
    /// When the last run finished (RFC 3339), if ever.
    pub last_indexed: Option<String>,
    /// Anything worth telling.
    pub warnings: Vec<String>,
}

/// `sessions.status`: what the session index holds.
#[derive(Debug, Clone, Copy)]
pub struct Status;

impl Operation for Status {
    const NAME: &'static str = "sessions.status";
    const SUMMARY: &'static str = "Session index statistics: sessions, subagents, projects, chunks by kind, index size, model, last indexed.";
    type Request = StatusRequest;
    type Response = StatusResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::within("/within")];

    fn run(engine: &Engine, request: StatusRequest) -> Result<StatusResponse> {
        status(engine, &request.within)
    }
}

fn status(engine: &Engine, within: &[PathBuf]) -> Result<StatusResponse> {
    let mut warnings = Vec::new();
    let allowed = allowed_projects(engine, within, &mut warnings)?;
    let confined = allowed.is_some();
    let allowed = json_list(&allowed)?;
    let store = &store(engine)?;
    let db = |e| Error::db(store.db().path(), e);
    let mut stats = store.stats(&mut warnings)?;
    let (rows, by_kind): (Vec<(String, bool)>, BTreeMap<String, usize>) = {
        let conn = store.db().read(&mut warnings)?;
        let mut stmt = conn
            .prepare(
                "SELECT project, parent_session_id IS NOT NULL FROM session_files \
                 WHERE ?1 IS NULL OR project IN (SELECT value FROM json_each(?1))",
            )
            .map_err(db)?;
        let rows = stmt
            .query_map([&allowed], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?;
        let mut stmt = conn
            .prepare(
                "SELECT kind, count(*), sum(embedded = 0) FROM chunks \
                 WHERE ?1 IS NULL OR scope IN (SELECT value FROM json_each(?1)) GROUP BY kind",
            )
            .map_err(db)?;
        let counts: Vec<(String, usize, usize)> = stmt
            .query_map([&allowed], |r| {
                Ok((
                    r.get(0)?,
                    r.get::<_, i64>(1)? as usize,
                    r.get::<_, i64>(2)? as usize,
                ))
            })
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?;
        if confined {
            stats.chunks = counts.iter().map(|c| c.1).sum();
            stats.pending = counts.iter().map(|c| c.2).sum();
        }
        let by_kind = counts.into_iter().map(|(kind, n, _)| (kind, n)).collect();
        (rows, by_kind)
    };
    let mut projects: BTreeMap<String, usize> = BTreeMap::new();
    for (project, subagent) in &rows {
        let count = projects.entry(project.clone()).or_insert(0);
        if !subagent {
            *count += 1;
        }
    }
    let subagents = rows.iter().filter(|r| r.1).count();
    let path = store.db().path();
    let index_bytes = [
        path.to_path_buf(),
        PathBuf::from(format!("{}-wal", path.display())),
    ]
    .iter()
    .filter_map(|p| std::fs::metadata(p).ok())
    .map(|m| m.len())
    .sum();
    let model = match crate::embed::resolve_model_dir(engine.config().embed.model_dir.as_deref()) {
        Ok(location) => location.dir.display().to_string(),
        Err(e) => format!("none ({e})"),
    };
    let last_indexed = meta_value(engine, "last_indexed", &mut warnings)?
        .and_then(|v| v.parse::<i64>().ok())
        .map(format_rfc3339);
    let projects_dir = meta_value(engine, "projects_dir", &mut warnings)?.map(PathBuf::from);
    Ok(StatusResponse {
        db_path: path.to_path_buf(),
        projects_dir,
        sessions: rows.len() - subagents,
        subagents,
        projects: projects
            .into_iter()
            .map(|(project, sessions)| ProjectSessions { project, sessions })
            .collect(),
        chunks: stats.chunks,
        chunks_by_kind: by_kind,
        pending_vectors: stats.pending,
        index_bytes,
        model,
        last_indexed,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_parses_durations_dates_and_seconds() {
        let now = 1_767_225_600 + 86_400;
        assert_eq!(parse_since(&Since::Text("2h".into()), now), Ok(now - 7200));
        assert_eq!(
            parse_since(&Since::Text("1w".into()), now),
            Ok(now - 7 * 86_400)
        );
        assert_eq!(
            parse_since(&Since::Text("30d".into()), now),
            Ok(now - 30 * 86_400)
        );
        assert_eq!(
            parse_since(&Since::Text("2026-01-01".into()), now),
            Ok(1_767_225_600)
        );
        assert_eq!(parse_since(&Since::Seconds(5), now), Ok(5));
        assert_eq!(parse_since(&Since::Text("12".into()), now), Ok(12));
        assert!(parse_since(&Since::Text("3x".into()), now).is_err());
        assert!(parse_since(&Since::Text("soon".into()), now).is_err());
    }

    #[test]
    fn ages_and_timestamps_read_well() {
        assert_eq!(age(100, 100), "just now");
        assert_eq!(age(0, 3 * 86_400), "3 days ago");
        assert_eq!(age(0, 3600), "1 hour ago");
        assert_eq!(age(0, 21 * 86_400), "3 weeks ago");
    }

    #[test]
    fn tool_and_thinking_weigh_less_than_discussion() {
        let w = kind_weights();
        for low in ["tool", "thinking"] {
            for high in ["user", "assistant", "summary"] {
                assert!(w[low] < w[high]);
            }
        }
        assert!(w["thinking"] <= w["tool"]);
    }
}
