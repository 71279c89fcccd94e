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
//! The chunk store embeds text longer than 256 word pieces as overlapping windows, at
//! most [`WINDOW_BUDGET`] of them per chunk (its first ones): tool chunks are searched by
//! keyword only, and a long reply's later windows too. On real transcripts tool I/O is
//! two thirds of the windows; without them hybrid search finds sessions by meaning as
//! well or better (docs/BENCHMARKS.md, "sessions — finding a session again").
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
//! The keyword and vector lists are fused by rank, weighted by kind and recency
//! ([`crate::hybrid`]); a chunk holding every word of the query then gains up to
//! [`COVERAGE_WEIGHT`] (a remembered prompt's own chunk comes back above other sessions'
//! replies and tool output that repeat some of its words). Equal matches come newest
//! first: both lists break ties by time, and recency weighs in.
//!
//! The project filter is a case-insensitive substring of the project path (the records'
//! `cwd`; `/` and `\` match each other, for paths recorded on another system), `*` every
//! project: the matching projects are looked up first and passed as scopes (the vector
//! table's partition key). A filter matching no project gives no results and the warning
//! `No sessions found for project X` (not an error, so an agent's call never fails on
//! it). When no word of the query matches, the results are the closest chunks by meaning
//! (the vector list alone, when the model is available) and come with a `note` saying
//! so (spec: "no results → closest semantic matches with a note").
//!
//! ## Confinement
//!
//! `sessions.search`, `sessions.chunk` and `sessions.status` take `within`, a list of
//! directories: only sessions whose project is one of them or below one (by path
//! components, canonical when the directory still exists; a project known only by its
//! folder name is under none) are seen. Search passes the projects under `within` as its
//! scopes (intersected with the `project` filter), so the retrieval itself is confined
//! and still returns up to `limit` results; `chunk` answers a chunk of another project as
//! an unknown id; `status` counts sessions, projects and chunks over those projects only
//! (the index size, model and last run stay those of the whole index).
//!
//! The MCP server sets `within` to its roots for `status`, and for `search` unless the
//! call names a `project`: an agent searches its own project's sessions, and another
//! project's (or every project's, `*`) only by asking for it in the call, which the user
//! sees. The history is the user's own, and recalling what was done in another
//! repository is what it is for. `chunk` is not confined there, so that what a search
//! found can be read whole.

mod chunk;
mod index;
pub mod parser;
mod search;
mod status;

pub use chunk::{Chunk, ChunkRequest, ChunkResponse, GroupPart};
pub use index::{ContextMessage, Index, IndexRequest, IndexResponse, embed_pending};
pub use search::{Search, SearchHit, SearchRequest, SearchResponse, Since, age, parse_since};
pub use status::{ProjectSessions, Status, StatusRequest, StatusResponse};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::engine::{Engine, Within};
use crate::error::{Error, Result};
use crate::hash::sha256_hex;
use crate::hybrid::{self, Filter, Mode, NewChunk};
use crate::ops::{AgentShape, Operation, PathParam};
use crate::rank::Recency;
use crate::time::{format_rfc3339, parse_date, parse_timestamp};
use crate::transcripts::Transcript;
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
/// How much a chunk holding every word of the query gains over one holding few
/// ([`hybrid::Search::coverage_weight`]): a prompt whose words one remembers comes back
/// above chunks of other sessions where the same words are spread over more text.
pub const COVERAGE_WEIGHT: f64 = 1.0;
/// Windows embedded per chunk, by kind ([`hybrid::ChunkStore::with_window_budget`]): the
/// first windows of the discussion say what a group was about; tool input and output
/// (weighted [`WEIGHT_TOOL`], never above discussion) are searched by keyword only.
pub const WINDOW_BUDGET: [(&str, usize); 5] = [
    ("user", 4),
    ("assistant", 4),
    ("summary", 4),
    ("thinking", 2),
    ("tool", 0),
];
/// The kinds a chunk can have, in display order.
pub const KINDS: [&str; 5] = ["user", "assistant", "summary", "tool", "thinking"];
/// Messages of context kept per chunk, and the longest text of each (characters).
const CONTEXT_MESSAGES: usize = 5;
/// Transcripts read and parsed between two progress reports.
const PARSE_SLICE: usize = 64;
const CONTEXT_CHARS: usize = 2000;

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
    Ok(hybrid::ChunkStore::of(engine, &SESSIONS_DB)?.with_window_budget(WINDOW_BUDGET))
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
        .unwrap_or_else(|| crate::transcripts::config_dir().join("projects"))
}

// Shared by the operations: run metadata, and which projects a caller may see.

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
    // A path recorded on another system may use the other separator.
    let fold = |text: &str| text.to_lowercase().replace('\\', "/");
    let needle = fold(needle);
    let mut all = indexed_projects(engine, warnings)?;
    all.retain(|p| fold(p).contains(&needle));
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

#[cfg(test)]
mod tests {
    use super::*;

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
