//! `code.index_repository`: walk a repository and index (or re-index) its symbols and
//! references; only changed files are re-parsed. Its answer ([`IndexResponse`]) is that
//! of `code.update_files` too, and lives in the module.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{IndexResponse, REPO_PARAM, index_response, open_repo};
use crate::code::index;
use crate::engine::Engine;
use crate::error::Result;
use crate::ops::{Operation, PathParam};

/// `code.index_repository`: index (or re-index) a repository's symbols.
#[derive(Debug, Clone, Copy)]
pub struct IndexRepository;

/// Parameters of `code.index_repository`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IndexRepositoryRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// Re-parse every file, changed or not.
    pub force: bool,
}

impl Operation for IndexRepository {
    const NAME: &'static str = "code.index_repository";
    const SUMMARY: &'static str = "Index a repository's code symbols (functions, classes, methods, types…) and references with tree-sitter; incremental: only changed files are re-parsed.";
    type Request = IndexRepositoryRequest;
    type Response = IndexResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    fn run(engine: &Engine, request: IndexRepositoryRequest) -> Result<IndexResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let stats = index::index_repository(
            &repo.database,
            &repo.root,
            &repo.config,
            request.force,
            &mut warnings,
        )?;
        Ok(index_response(stats, warnings))
    }
}
