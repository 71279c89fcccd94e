//! `code.get_overview`: a repository at a glance — languages, directories with their
//! file and symbol counts, the most referenced types and the entry points.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{
    REPO_PARAM, SYMBOL_COLUMNS, Symbol, SymbolRow, agent_shape, dberr, open_repo, symbol_row,
};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{AgentShape, Operation, PathParam};

/// `code.get_overview`: a repository at a glance.
#[derive(Debug, Clone, Copy)]
pub struct GetOverview;

/// Parameters of `code.get_overview`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct GetOverviewRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
}

/// A directory of the repository in an overview.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DirectorySummary {
    /// Directory, relative (`.` for the root).
    pub path: String,
    /// Files indexed in it (not below).
    pub files: u64,
    /// Symbols in those files.
    pub symbols: u64,
}

/// Result of `code.get_overview`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GetOverviewResponse {
    /// Repository name (its directory's name).
    pub repo: String,
    /// Files per language.
    pub languages: BTreeMap<String, u64>,
    /// Directories with their file and symbol counts, by path.
    pub directories: Vec<DirectorySummary>,
    /// The most referenced top-level types (classes, structs, interfaces, traits, enums).
    pub top_types: Vec<Symbol>,
    /// Top-level functions and types of entry files (`main`, `index`, `lib`, `app`, …).
    pub entry_points: Vec<Symbol>,
    /// Problems met; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Most top types and entry points shown.
const OVERVIEW_ITEMS: i64 = 20;

impl Operation for GetOverview {
    const NAME: &'static str = "code.get_overview";
    const SUMMARY: &'static str = "Overview of an indexed repository: languages, directories with file and symbol counts, the most referenced types and the entry points.";
    type Request = GetOverviewRequest;
    type Response = GetOverviewResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&[]);
    fn run(engine: &Engine, request: GetOverviewRequest) -> Result<GetOverviewResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let conn = repo.reader(&mut warnings)?;
        let e = dberr(&repo.db_path);
        let mut out = GetOverviewResponse {
            repo: repo.root.file_name().map_or_else(
                || repo.root.to_string_lossy().into_owned(),
                |n| n.to_string_lossy().into_owned(),
            ),
            ..Default::default()
        };
        let mut directories: BTreeMap<String, DirectorySummary> = BTreeMap::new();
        {
            let mut stmt = conn
                .prepare(
                    "SELECT f.rel_path, f.language, (SELECT count(*) FROM symbols s WHERE s.file_id = f.id)
                     FROM files f ORDER BY f.rel_path",
                )
                .map_err(&e)?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                })
                .map_err(&e)?;
            for row in rows {
                let (rel, lang, syms) = row.map_err(&e)?;
                *out.languages.entry(lang).or_default() += 1;
                let dir = rel.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
                let entry = directories
                    .entry(dir.clone())
                    .or_insert_with(|| DirectorySummary {
                        path: dir,
                        ..Default::default()
                    });
                entry.files += 1;
                entry.symbols += syms as u64;
            }
        }
        out.directories = directories.into_values().collect();
        let top_sql = format!(
            "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
             WHERE s.parent_symbol_id IS NULL AND s.kind IN ('class','struct','interface','trait','enum')
             ORDER BY (SELECT count(*) FROM refs r WHERE r.to_symbol_id = s.id) DESC, s.id LIMIT ?1"
        );
        // The files where programs start: the common ones and each language's own,
        // bound as one JSON list of GLOB patterns.
        let entry_sql = format!(
            "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
             WHERE s.parent_symbol_id IS NULL AND s.kind IN ('fn','class','struct','mod')
               AND (s.name IN ('main','run','start','app','cli','handler')
                    OR EXISTS (SELECT 1 FROM json_each(?2) g WHERE f.rel_path GLOB g.value))
             ORDER BY f.rel_path, s.line_start, s.id LIMIT ?1"
        );
        let entry_files = serde_json::to_string(&crate::code::lang::entry_files())
            .map_err(|err| Error::Internal(err.to_string()))?;
        let fetch = |sql: &str, params: &[&dyn rusqlite::ToSql]| -> Result<Vec<Symbol>> {
            let rows: Vec<SymbolRow> = conn
                .prepare(sql)
                .map_err(&e)?
                .query_map(params, symbol_row)
                .map_err(&e)?
                .collect::<rusqlite::Result<_>>()
                .map_err(&e)?;
            Ok(rows.iter().map(|r| repo.symbol(r)).collect())
        };
        out.top_types = fetch(&top_sql, &[&OVERVIEW_ITEMS])?;
        out.entry_points = fetch(&entry_sql, &[&OVERVIEW_ITEMS, &entry_files])?;
        drop(conn);
        warnings.sort();
        warnings.dedup();
        out.warnings = warnings;
        Ok(out)
    }
}
