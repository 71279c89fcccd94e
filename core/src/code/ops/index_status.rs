//! `code.index_status`: what the index of a repository holds (files, symbols,
//! references, languages, when indexed) and which files changed, appeared or disappeared
//! since, from a walk compared with the stored sizes and mtimes.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{REPO_PARAM, dberr, is_zero, open_repo};
use crate::code::db;
use crate::code::lang::extractor_for_path;
use crate::engine::Engine;
use crate::error::Result;
use crate::ops::{Operation, PathParam};

/// `code.index_status`: what the index of a repository holds and which files changed
/// since.
#[derive(Debug, Clone, Copy)]
pub struct IndexStatus;

/// Parameters of `code.index_status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IndexStatusRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
}

/// Most stale or deleted files listed by `code.index_status`.
const MAX_LISTED: usize = 50;

/// Result of `code.index_status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct IndexStatusResponse {
    /// Repository root.
    pub repo: String,
    /// Whether it has been indexed.
    pub indexed: bool,
    /// Files in the index.
    pub files: u64,
    /// Symbols in the index.
    pub symbols: u64,
    /// References in the index.
    pub refs: u64,
    /// When it was last indexed (Unix seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_at: Option<i64>,
    /// Files whose size or mtime changed since (count).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stale: usize,
    /// Some of them (at most 50), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stale_files: Vec<String>,
    /// Indexed files that no longer exist (count).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deleted: usize,
    /// Some of them (at most 50), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deleted_files: Vec<String>,
    /// Source files not indexed yet (count).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub new: usize,
    /// Files per language.
    pub languages: BTreeMap<String, u64>,
    /// Problems met; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Operation for IndexStatus {
    const NAME: &'static str = "code.index_status";
    const SUMMARY: &'static str = "Status of a repository's code index: files, symbols, references, languages, when indexed, and which files changed or disappeared since.";
    type Request = IndexStatusRequest;
    type Response = IndexStatusResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    fn run(engine: &Engine, request: IndexStatusRequest) -> Result<IndexStatusResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let mut out = IndexStatusResponse {
            repo: repo.root.to_string_lossy().into_owned(),
            ..Default::default()
        };
        if !repo.db_path.exists() {
            out.warnings = warnings;
            return Ok(out);
        }
        let conn = repo.database.read(&mut warnings)?;
        let e = dberr(&repo.db_path);
        out.indexed_at = db::meta(&conn, "last_indexed")
            .map_err(&e)?
            .and_then(|v| v.parse().ok());
        out.indexed = out.indexed_at.is_some();
        let count = |sql: &str| -> Result<u64> {
            conn.query_row(sql, [], |r| r.get::<_, i64>(0))
                .map(|n| n as u64)
                .map_err(&e)
        };
        out.files = count("SELECT count(*) FROM files")?;
        out.symbols = count("SELECT count(*) FROM symbols")?;
        out.refs = count("SELECT count(*) FROM refs")?;
        let mut known: HashMap<String, (i64, i64)> = HashMap::new();
        {
            let mut stmt = conn
                .prepare("SELECT rel_path, language, mtime, size FROM files")
                .map_err(&e)?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get(2)?,
                        r.get(3)?,
                    ))
                })
                .map_err(&e)?;
            for row in rows {
                let (rel, lang, mtime, size) = row.map_err(&e)?;
                *out.languages.entry(lang).or_default() += 1;
                known.insert(rel, (mtime, size));
            }
        }
        drop(conn);
        if out.indexed {
            let walk = crate::walk::walk(
                &repo.root,
                &crate::walk::WalkOptions {
                    max_depth: 64,
                    max_files: 500_000,
                    max_file_size: repo.config.indexer.max_file_size,
                    excludes: repo.config.indexer.ignore.clone(),
                    allowed_roots: vec![repo.root.clone()],
                    ..Default::default()
                },
            )?;
            let mut stale = Vec::new();
            let mut present = std::collections::HashSet::new();
            for file in &walk.files {
                if extractor_for_path(&file.path).is_none() {
                    continue;
                }
                let Ok(rel) = file.path.strip_prefix(&repo.root) else {
                    continue;
                };
                let rel = rel.to_string_lossy().replace('\\', "/");
                match known.get(&rel) {
                    Some((mtime, size)) => {
                        if *mtime != file.mtime || *size != file.size as i64 {
                            stale.push(rel.clone());
                        }
                    }
                    None => out.new += 1,
                }
                present.insert(rel);
            }
            let mut deleted: Vec<String> = known
                .keys()
                .filter(|k| !present.contains(*k))
                .cloned()
                .collect();
            stale.sort();
            deleted.sort();
            out.stale = stale.len();
            out.deleted = deleted.len();
            out.stale_files = stale.into_iter().take(MAX_LISTED).collect();
            out.deleted_files = deleted.into_iter().take(MAX_LISTED).collect();
        }
        warnings.sort();
        warnings.dedup();
        out.warnings = warnings;
        Ok(out)
    }
}
