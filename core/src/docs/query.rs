//! `docs.query`, and the search it shares with `notes.query` ([`query`]): the project's
//! sections of one collection, keyword + semantic, with a warning when the project (or,
//! for docs, the branch) has nothing indexed; identical sections on several branches
//! folded into one result with `all_branches`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::{Collection, Project, store};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::hybrid::{self, Filter, Mode, Search};
use crate::ops::{AgentShape, Operation, PathParam};

/// Parameters of `docs.query`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct QueryRequest {
    /// What to look for (any text).
    pub query: String,
    /// A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current
    /// directory. Results come from this project only.
    pub project_dir: Option<PathBuf>,
    /// Search every indexed branch of the project (identical sections on several
    /// branches are shown once, with their branches).
    pub all_branches: bool,
    /// Search this branch instead of the current one.
    pub branch: Option<String>,
    /// Most results (default 10, at most 100).
    pub limit: Option<usize>,
    /// `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`.
    pub mode: Mode,
}

/// One result of `docs.query` or `notes.query`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct QueryHit {
    /// 1 for the best.
    pub rank: usize,
    /// Fused score (higher is better; comparable within one query).
    pub score: f64,
    /// The file, relative to the project root.
    pub file: String,
    /// The section's title (`(full document)`, `(preamble)`, or `Title##1` for a
    /// repeated title).
    pub section: String,
    /// The section's first line in the file (from 1); `None` for a section indexed before
    /// sections knew their lines, until its file is indexed again.
    pub start_line: Option<usize>,
    /// Its last line.
    pub end_line: Option<usize>,
    /// What an agent reads of the section: the lines holding the query's words, else the
    /// start of the window that matched by meaning; at most 1,000 bytes.
    pub excerpt: String,
    /// The section's full text, its heading included.
    pub content: String,
    /// The project.
    pub project: String,
    /// The branch (docs; empty for notes and outside git).
    pub branch: String,
    /// Other branches with the identical section (docs with `all_branches`).
    pub also_on: Vec<String>,
    /// The file's mtime when indexed (Unix seconds).
    pub mtime: i64,
    /// The session folder (notes), relative to the project root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_path: Option<String>,
    /// The session's date (notes), `YYYY-MM-DD`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_date: Option<String>,
    /// Cosine similarity to the query (when the vector list found it).
    pub similarity: Option<f64>,
    /// Which lists found it: `keyword`, `vector` or both.
    pub matched_by: Vec<String>,
}

/// Result of `docs.query` and `notes.query`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct QueryResponse {
    /// The query.
    pub query: String,
    /// The project searched.
    pub project: String,
    /// The branch searched (empty with `all_branches`, and for notes).
    pub branch: String,
    /// Best first.
    pub results: Vec<QueryHit>,
    /// The retrievers used: `hybrid`, `keyword` (no model, or asked) or `vector`.
    pub mode: Mode,
    /// Time spent searching, in milliseconds.
    pub search_time_ms: u64,
    /// A missing model (once), an unindexed project, and the like.
    pub warnings: Vec<String>,
}

/// `docs.query`: search the project's indexed documentation.
#[derive(Debug, Clone, Copy)]
pub struct Query;

/// What docs and notes answers carry that an agent does not read: the query it sent, the
/// time taken, ranks and scores (the order says it), modification times — and each
/// section's full text: the excerpt and the section's lines (`l`) say what to read, where
/// a whole section can be read.
pub(super) const QUERY_AGENT: AgentShape = AgentShape {
    omit: &[
        "query",
        "search_time_ms",
        "results/*/rank",
        "results/*/score",
        "results/*/similarity",
        "results/*/mtime",
        "results/*/matched_by",
        "results/*/content",
    ],
    line_ranges: true,
    ..AgentShape::FULL
};

impl Operation for Query {
    const NAME: &'static str = "docs.query";
    const SUMMARY: &'static str = "Search the project's indexed docs (keyword + semantic) by section, on the current branch unless all_branches or branch is given. Never indexes.";
    type Request = QueryRequest;
    type Response = QueryResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::one("/project_dir").or_project()];
    const AGENT: AgentShape = QUERY_AGENT;

    fn run(engine: &Engine, request: QueryRequest) -> Result<QueryResponse> {
        let dir = crate::env::project_dir(request.project_dir.clone(), Self::NAME)?;
        let project = Project::of(&dir);
        let branch = match (&request.branch, request.all_branches) {
            (_, true) => None,
            (Some(b), false) => Some(b.clone()),
            (None, false) => Some(project.branch.clone()),
        };
        let filter = Filter {
            scopes: Some(vec![project.key()]),
            kinds: Some(vec![Collection::Docs.kind().into()]),
            tags: branch.clone().map(|b| vec![b]),
            ..Filter::default()
        };
        query(
            engine,
            Collection::Docs,
            &request.query,
            &project,
            branch.unwrap_or_default(),
            filter,
            request.limit,
            request.mode,
            request.all_branches,
            Self::NAME,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn query(
    engine: &Engine,
    collection: Collection,
    text: &str,
    project: &Project,
    branch: String,
    filter: Filter,
    limit: Option<usize>,
    mode: Mode,
    collapse_branches: bool,
    operation: &str,
) -> Result<QueryResponse> {
    let started = std::time::Instant::now();
    if text.trim().is_empty() {
        return Err(Error::invalid(operation, "the query is empty"));
    }
    let limit = limit.unwrap_or(10);
    if !(1..=100).contains(&limit) {
        return Err(Error::invalid(
            operation,
            "`limit` must be between 1 and 100",
        ));
    }
    let mut warnings = Vec::new();
    let store = &store(engine)?;
    let key = project.key();
    let indexed: Option<i64> = {
        let conn = store.db().read(&mut warnings)?;
        conn.query_row(
            "SELECT 1 FROM doc_files WHERE collection = ?1 AND root = ?2 LIMIT 1",
            params![collection.name(), key],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| Error::db(store.db().path(), e))?
    };
    if indexed.is_none() {
        warnings.push(format!(
            "no {} indexed for project {}: run `cc-search {} index` in it",
            collection.name(),
            project.name,
            collection.name()
        ));
    } else if collection == Collection::Docs && !collapse_branches {
        let branches: Vec<String> = {
            let conn = store.db().read(&mut warnings)?;
            let mut stmt = conn
                .prepare(
                    "SELECT DISTINCT branch FROM doc_files \
                     WHERE collection = ?1 AND root = ?2 ORDER BY branch",
                )
                .map_err(|e| Error::db(store.db().path(), e))?;
            stmt.query_map(params![collection.name(), key], |r| r.get(0))
                .map_err(|e| Error::db(store.db().path(), e))?
                .collect::<rusqlite::Result<_>>()
                .map_err(|e| Error::db(store.db().path(), e))?
        };
        if !branches.contains(&branch) {
            let name = |b: &str| {
                if b.is_empty() {
                    "(no branch)".to_string()
                } else {
                    b.to_string()
                }
            };
            let listed: Vec<String> = branches.iter().map(|b| name(b)).collect();
            warnings.push(format!(
                "no docs indexed on branch {} of project {} (indexed: {}): run `cc-search \
                 docs index` on that branch, or search them all with --all-branches",
                name(&branch),
                project.name,
                listed.join(", ")
            ));
        }
    }
    let (vector, used) = hybrid::query_vector_for(engine, mode, text, &mut warnings)?;
    if indexed.is_some() {
        hybrid::note_unembedded(
            store,
            &filter,
            used,
            "sections",
            &format!("cc-search {} index", collection.name()),
            &mut warnings,
        )?;
    }
    let search = Search {
        text: text.to_string(),
        mode,
        filter,
        // Identical sections on other branches fold into one result: ask for more.
        limit: if collapse_branches { limit * 4 } else { limit },
        ..Search::default()
    };
    let hits = store.search(&search, vector.as_deref(), &mut warnings)?;
    let words = crate::text::query_words(text);
    let mut results: Vec<QueryHit> = Vec::new();
    let mut seen: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for hit in hits {
        let meta: serde_json::Value = serde_json::from_str(&hit.meta).unwrap_or_default();
        let get = |k: &str| meta.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let file = get("path").unwrap_or_default();
        let branch_of_hit = if collection == Collection::Docs {
            hit.tag.clone()
        } else {
            String::new()
        };
        if collapse_branches {
            let id = (file.clone(), hit.title.clone(), hit.text.clone());
            if let Some(&i) = seen.get(&id) {
                let kept = &mut results[i];
                if kept.branch != branch_of_hit && !kept.also_on.contains(&branch_of_hit) {
                    kept.also_on.push(branch_of_hit);
                    kept.also_on.sort();
                }
                continue;
            }
            if results.len() == limit {
                continue; // still folding branches into the results kept
            }
            seen.insert(id, results.len());
        } else if results.len() == limit {
            break;
        }
        let mut matched_by = Vec::new();
        if hit.keyword_rank.is_some() {
            matched_by.push("keyword".to_string());
        }
        if hit.vector_rank.is_some() {
            matched_by.push("vector".to_string());
        }
        let line = |k: &str| meta.get(k).and_then(|v| v.as_u64()).map(|n| n as usize);
        results.push(QueryHit {
            rank: results.len() + 1,
            score: hit.score,
            file,
            section: hit.title,
            start_line: line("line"),
            end_line: line("end_line"),
            excerpt: crate::text::excerpt(
                &hit.text,
                hit.window.and_then(|(s, e)| hit.text.get(s..e)),
                &words,
            ),
            content: hit.text,
            // Every hit is of this project (the search is confined to its key).
            project: project.name.clone(),
            branch: branch_of_hit,
            also_on: Vec::new(),
            mtime: meta.get("mtime").and_then(|v| v.as_i64()).unwrap_or(0),
            session_path: get("session_path"),
            session_date: get("session_date"),
            similarity: hit.similarity,
            matched_by,
        });
    }
    Ok(QueryResponse {
        query: text.to_string(),
        project: project.name.clone(),
        branch,
        results,
        mode: used,
        search_time_ms: started.elapsed().as_millis() as u64,
        warnings,
    })
}
