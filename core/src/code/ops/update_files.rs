//! `code.update_files`: re-index the files given (changed ones re-parsed, deleted ones
//! removed) without walking the repository; answered as `code.index_repository` is.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{IndexResponse, index_response, open_repo};
use crate::code::index;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{Operation, PathParam};

/// `code.update_files`: re-index the given files only, without walking the repository.
#[derive(Debug, Clone, Copy)]
pub struct UpdateFiles;

/// Parameters of `code.update_files`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct UpdateFilesRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// Files to re-index: absolute, or relative to the repository root. A file that no
    /// longer exists is removed from the index.
    pub files: Vec<PathBuf>,
}

impl Operation for UpdateFiles {
    const NAME: &'static str = "code.update_files";
    const SUMMARY: &'static str = "Re-index specific files of an indexed repository (changed ones re-parsed, deleted ones removed) without walking it.";
    type Request = UpdateFilesRequest;
    type Response = IndexResponse;
    const PATH_PARAMS: &'static [PathParam] = &[
        PathParam::one("/path").or_project(),
        PathParam::many("/files"),
    ];
    fn run(engine: &Engine, request: UpdateFilesRequest) -> Result<IndexResponse> {
        if request.files.is_empty() {
            return Err(Error::invalid(Self::NAME, "`files` is empty"));
        }
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let stats = index::update_files(
            &repo.database,
            &repo.root,
            &request.files,
            &repo.config,
            &mut warnings,
        )?;
        Ok(index_response(stats, warnings))
    }
}
