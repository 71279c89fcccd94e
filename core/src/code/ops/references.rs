//! `code.get_references`: who refers to a symbol, by file and line — the references
//! linked to it, then those that may mean it ([`incoming`], shared with
//! `code.get_symbol_detail`).

use serde::{Deserialize, Serialize};

use super::{REPO_PARAM, RefSource, SymbolRequest, agent_shape, incoming, load_symbol, open_repo};
use crate::engine::Engine;
use crate::error::Result;
use crate::ops::{AgentShape, Operation, PathParam};

/// `code.get_references`: who refers to a symbol.
#[derive(Debug, Clone, Copy)]
pub struct GetReferences;

/// Result of `code.get_references`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReferencesResponse {
    /// The symbol.
    pub id: i64,
    /// References to it, by file and line: the sure ones, then those that may mean it.
    pub references: Vec<RefSource>,
}

impl Operation for GetReferences {
    const NAME: &'static str = "code.get_references";
    const SUMMARY: &'static str = "Who refers to a symbol (calls, imports, type uses, extends, implements), with file and line.";
    type Request = SymbolRequest;
    type Response = ReferencesResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&["references"]);
    fn run(engine: &Engine, request: SymbolRequest) -> Result<ReferencesResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let conn = repo.reader(&mut warnings)?;
        load_symbol(&conn, &repo.db_path, request.id, Self::NAME)?;
        let references = incoming(&conn, &repo.db_path, request.id)?;
        Ok(ReferencesResponse {
            id: request.id,
            references,
        })
    }
}
