//! `code.get_references`: who refers to a symbol, by file and line — the references
//! linked to it, then those that may mean it ([`incoming`], shared with
//! `code.get_symbol_detail`).

use serde::{Deserialize, Serialize};

use std::path::PathBuf;

use super::{REPO_PARAM, RefSource, agent_shape, incoming, is_zero, load_symbol, open_repo};
use crate::engine::Engine;
use crate::error::Result;
use crate::ops::{AgentShape, Operation, PathParam};

/// `code.get_references`: who refers to a symbol.
#[derive(Debug, Clone, Copy)]
pub struct GetReferences;

/// Parameters of `code.get_references`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ReferencesRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// The symbol's id (from a search, an overview or a file's symbols).
    pub id: i64,
    /// How many references to skip, in the answer's order: an answer cut short names
    /// the `offset` of the rest.
    pub offset: usize,
}

/// Result of `code.get_references`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReferencesResponse {
    /// The symbol.
    pub id: i64,
    /// How many references it has in all.
    pub total: usize,
    /// How many were skipped (the request's `offset`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset: usize,
    /// References to it, by file and line: the sure ones, then those that may mean it
    /// (from `offset` on).
    pub references: Vec<RefSource>,
}

impl Operation for GetReferences {
    const NAME: &'static str = "code.get_references";
    const SUMMARY: &'static str = "Who refers to a symbol (calls, imports, type uses, extends, implements), with file and line.";
    type Request = ReferencesRequest;
    type Response = ReferencesResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = AgentShape {
        paged: Some("references"),
        ..agent_shape(&["references"])
    };
    fn run(engine: &Engine, request: ReferencesRequest) -> Result<ReferencesResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let conn = repo.reader(&mut warnings)?;
        load_symbol(&conn, &repo.db_path, request.id, Self::NAME)?;
        let mut references = incoming(&conn, &repo.db_path, request.id)?;
        let total = references.len();
        references.drain(..request.offset.min(total));
        Ok(ReferencesResponse {
            id: request.id,
            total,
            offset: request.offset,
            references,
        })
    }
}
