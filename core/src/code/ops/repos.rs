//! `code.list_repos` and `code.delete_repos`: the code indexes this engine holds (one
//! database per repository under `code/` in the data root), listed or deleted. Both read
//! the same listing (`code_dbs`, `summary_of`), so they share this file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::dberr;
use crate::code::db;
use crate::engine::{Engine, Within};
use crate::error::{Error, Result};
use crate::ops::{Operation, PathParam};

/// `code.list_repos`: the repositories this engine has indexed.
#[derive(Debug, Clone, Copy)]
pub struct ListRepos;

/// Parameters of `code.list_repos`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ListReposRequest {
    /// Only what is stored for repositories under these directories (absent or empty:
    /// all). The MCP server sets it to its roots.
    pub within: Vec<PathBuf>,
}

/// One indexed repository.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RepoSummary {
    /// Repository root.
    pub path: String,
    /// Files indexed.
    pub files: u64,
    /// Symbols indexed.
    pub symbols: u64,
    /// When it was last indexed (Unix seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_at: Option<i64>,
    /// Its database file.
    pub database: String,
}

/// Result of `code.list_repos`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ListReposResponse {
    /// Indexed repositories, by path.
    pub repos: Vec<RepoSummary>,
    /// Databases that could not be read (only without `within`: their repository is
    /// unknown); left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

fn code_dbs(home: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(home.join("code")) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "db"))
        .collect();
    out.sort();
    out
}

fn summary_of(
    engine: &Engine,
    path: &Path,
    warnings: &mut Vec<String>,
) -> Result<Option<RepoSummary>> {
    let database = engine.database_at(path, db::SCHEMA)?;
    let conn = database.read(warnings)?;
    let e = dberr(path);
    let Some(root) = db::meta(&conn, "repo_root").map_err(&e)? else {
        return Ok(None);
    };
    let files: i64 = conn
        .query_row("SELECT count(*) FROM files", [], |r| r.get(0))
        .map_err(&e)?;
    let symbols: i64 = conn
        .query_row("SELECT count(*) FROM symbols", [], |r| r.get(0))
        .map_err(&e)?;
    let indexed_at = db::meta(&conn, "last_indexed")
        .map_err(&e)?
        .and_then(|v| v.parse().ok());
    Ok(Some(RepoSummary {
        path: root,
        files: files as u64,
        symbols: symbols as u64,
        indexed_at,
        database: path.to_string_lossy().into_owned(),
    }))
}

impl Operation for ListRepos {
    const NAME: &'static str = "code.list_repos";
    const SUMMARY: &'static str =
        "List the repositories with a code index: path, files, symbols, when indexed.";
    type Request = ListReposRequest;
    type Response = ListReposResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::within("/within")];
    fn run(engine: &Engine, request: ListReposRequest) -> Result<ListReposResponse> {
        let within = Within::new(&request.within);
        let mut warnings = Vec::new();
        let mut repos = Vec::new();
        for path in code_dbs(engine.home()) {
            // Opening a database may warn (a recovered file): keep that only for what
            // is listed.
            let mut opened = Vec::new();
            match summary_of(engine, &path, &mut opened) {
                Ok(Some(s)) if within.contains(Path::new(&s.path)) => {
                    warnings.extend(opened);
                    repos.push(s);
                }
                Ok(_) => {}
                // Whose index it is cannot be told: reported only when nothing is confined.
                Err(e) if within.is_all() => {
                    warnings.extend(opened);
                    warnings.push(format!("{}: {e}", path.display()));
                }
                Err(_) => {}
            }
        }
        repos.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(ListReposResponse { repos, warnings })
    }
}

/// `code.delete_repos`: delete the code index of repositories.
#[derive(Debug, Clone, Copy)]
pub struct DeleteRepos;

/// Parameters of `code.delete_repos`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DeleteReposRequest {
    /// Repository roots whose index to delete (they need not exist any more).
    pub paths: Vec<PathBuf>,
    /// Delete every code index instead (with `within`: every one under it).
    pub all: bool,
    /// Only what is stored for repositories under these directories (absent or empty:
    /// all): `all` deletes only those, and a `paths` entry outside them is refused. The
    /// MCP server sets it to its roots.
    pub within: Vec<PathBuf>,
}

/// Result of `code.delete_repos`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DeleteReposResponse {
    /// Repositories whose index was deleted, by path.
    pub deleted: Vec<String>,
    /// Paths given that had no index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_found: Vec<String>,
}

fn remove_db(engine: &Engine, path: &Path) -> Result<()> {
    engine.forget_database(path);
    for suffix in ["", "-wal", "-shm", "-writer"] {
        let file = PathBuf::from(format!("{}{suffix}", path.display()));
        match std::fs::remove_file(&file) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&file, e)),
        }
    }
    Ok(())
}

impl Operation for DeleteRepos {
    const NAME: &'static str = "code.delete_repos";
    const SUMMARY: &'static str =
        "Delete the code index of the given repositories (or of all with `all`).";
    type Request = DeleteReposRequest;
    type Response = DeleteReposResponse;
    const PATH_PARAMS: &'static [PathParam] =
        &[PathParam::many("/paths"), PathParam::within("/within")];
    fn run(engine: &Engine, request: DeleteReposRequest) -> Result<DeleteReposResponse> {
        if request.paths.is_empty() && !request.all {
            return Err(Error::invalid(Self::NAME, "give `paths`, or `all: true`"));
        }
        let within = Within::new(&request.within);
        // Every path is checked before anything is deleted.
        let mut roots = Vec::with_capacity(request.paths.len());
        for given in &request.paths {
            let root = std::fs::canonicalize(given)
                .unwrap_or_else(|_| std::path::absolute(given).unwrap_or_else(|_| given.clone()));
            if !within.contains(&root) {
                return Err(Error::invalid(
                    Self::NAME,
                    format!(
                        "{} is not under `within` ({})",
                        given.display(),
                        within.describe()
                    ),
                ));
            }
            roots.push((given, root));
        }
        let mut out = DeleteReposResponse::default();
        let mut warnings = Vec::new();
        if request.all {
            for path in code_dbs(engine.home()) {
                let root = summary_of(engine, &path, &mut warnings).ok().flatten();
                let name = match root {
                    Some(s) if within.contains(Path::new(&s.path)) => s.path,
                    // Not under `within`, or whose index it is cannot be told: kept.
                    _ if !within.is_all() => continue,
                    Some(s) => s.path,
                    None => path.to_string_lossy().into_owned(),
                };
                remove_db(engine, &path)?;
                out.deleted.push(name);
            }
        }
        for (given, root) in roots {
            let path = db::db_path(engine.home(), &root);
            if path.exists() {
                remove_db(engine, &path)?;
                out.deleted.push(root.to_string_lossy().into_owned());
            } else if !request.all {
                out.not_found.push(given.to_string_lossy().into_owned());
            }
        }
        out.deleted.sort();
        out.deleted.dedup();
        Ok(out)
    }
}
