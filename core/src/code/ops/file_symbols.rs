//! `code.get_file_symbols`: the symbols of one file as a tree (classes with their
//! methods…), the file named relative to the repository, the directory asked from, or
//! absolute inside the repository.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};

use super::{
    REPO_PARAM, Repo, SYMBOL_COLUMNS, Symbol, SymbolRow, agent_shape, dberr, open_repo, symbol_row,
};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{AgentShape, Operation, PathParam};

/// `code.get_file_symbols`: the symbols of one file, as a tree.
#[derive(Debug, Clone, Copy)]
pub struct GetFileSymbols;

/// Parameters of `code.get_file_symbols`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct GetFileSymbolsRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// The file: relative to the repository root, or absolute inside it.
    pub file: PathBuf,
}

/// Result of `code.get_file_symbols`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GetFileSymbolsResponse {
    /// The file, relative to the repository root.
    pub path: String,
    /// Its top-level symbols in line order, each with its `children`.
    pub symbols: Vec<Symbol>,
    /// Problems met; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

fn relative_file(repo: &Repo, file: &Path, op: &str) -> Result<String> {
    if file.as_os_str().is_empty() {
        return Err(Error::invalid(op, "`file` is empty"));
    }
    let rel = if file.is_absolute() {
        let canonical = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
        canonical
            .strip_prefix(&repo.root)
            .map(Path::to_path_buf)
            .map_err(|_| {
                Error::invalid(
                    op,
                    format!("{} is not inside {}", file.display(), repo.root.display()),
                )
            })?
    } else if repo.from != repo.root
        && let Ok(inside) = std::fs::canonicalize(repo.from.join(file))
        && let Ok(rel) = inside.strip_prefix(&repo.root)
    {
        // Relative to the directory given, a subdirectory of the repository.
        rel.to_path_buf()
    } else {
        file.to_path_buf()
    };
    let parts: Vec<String> = rel
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok(parts.join("/"))
}

impl Operation for GetFileSymbols {
    const NAME: &'static str = "code.get_file_symbols";
    const SUMMARY: &'static str = "All symbols of one file as a tree (classes with their methods…): name, kind, lines, signature, doc, id.";
    type Request = GetFileSymbolsRequest;
    type Response = GetFileSymbolsResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = AgentShape {
        outline: Some("symbols"),
        ..agent_shape(&[])
    };
    fn run(engine: &Engine, request: GetFileSymbolsRequest) -> Result<GetFileSymbolsResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let rel = relative_file(&repo, &request.file, Self::NAME)?;
        let conn = repo.reader(&mut warnings)?;
        let e = dberr(&repo.db_path);
        let file_id: Option<i64> = conn
            .query_row("SELECT id FROM files WHERE rel_path = ?1", [&rel], |r| {
                r.get(0)
            })
            .optional()
            .map_err(&e)?;
        let Some(file_id) = file_id else {
            return Err(Error::invalid(
                Self::NAME,
                format!(
                    "{rel} is not in the index of {} (not a source file, ignored, or not indexed yet)",
                    repo.root.display()
                ),
            ));
        };
        let rows: Vec<SymbolRow> = conn
            .prepare(&format!(
                "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.file_id = ?1 ORDER BY s.line_start, s.id"
            ))
            .map_err(&e)?
            .query_map([file_id], symbol_row)
            .map_err(&e)?
            .collect::<rusqlite::Result<_>>()
            .map_err(&e)?;
        drop(conn);
        // Children are inserted after their parent, so building from the end attaches
        // every child before its parent is itself attached.
        let mut built: HashMap<i64, Symbol> = HashMap::new();
        let mut children_of: HashMap<i64, Vec<i64>> = HashMap::new();
        let mut roots = Vec::new();
        for row in &rows {
            match row.parent {
                Some(p) => children_of.entry(p).or_default().push(row.id),
                None => roots.push(row.id),
            }
        }
        for row in rows.iter().rev() {
            let mut symbol = repo.symbol(row);
            if let Some(kids) = children_of.get(&row.id) {
                symbol.children = kids.iter().filter_map(|k| built.remove(k)).collect();
            }
            built.insert(row.id, symbol);
        }
        let mut out = GetFileSymbolsResponse {
            path: rel,
            symbols: roots.iter().filter_map(|id| built.remove(id)).collect(),
            warnings: Vec::new(),
        };
        warnings.sort();
        warnings.dedup();
        out.warnings = warnings;
        Ok(out)
    }
}
