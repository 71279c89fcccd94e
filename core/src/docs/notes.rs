//! `notes.index` and `notes.query`: the session notes (`sessions/**/*.md`), indexed by the
//! docs index run ([`index`]) and searched by its search ([`query`]), filtered by session
//! date (`after`) and file name (`file`). Notes belong to no branch.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::index::{Files, IndexResponse, index};
use super::query::{QUERY_AGENT, QueryResponse, query};
use super::{Collection, Project};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::hybrid::{Filter, Mode};
use crate::ops::{AgentShape, Operation, PathParam};
use crate::time::parse_date;

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
            Files::Notes,
            request.project_dir,
            request.lock_wait_secs,
            true,
            Self::NAME,
        )
    }
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
