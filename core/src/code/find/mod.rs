//! `code.find`: from a description — an issue, a stack trace, a question — to the files
//! and definitions that must change, best first.
//!
//! The evidence for each code file adds up ([`Features`], weighted by [`Weights`]):
//!
//! - **keyword**: BM25 over index words ([`terms::words_of`]) of whole files (path, names
//!   and signatures, doc comments, text) and of each definition's own lines
//!   ([`store`]); a file counts its own score and its best definition's;
//! - **structure**: what the description names outright, matched exactly — identifiers
//!   written as code that the file defines (rarer names weigh more), and paths, file
//!   names, module paths and stack-trace frames that are the file's — and the words of
//!   the file's path it uses;
//! - **history**: how often the file changed in the last commits ([`history`]);
//! - **meaning**: with the embedding model, how close the description is to the best
//!   files' best definitions ([`meaning`]).
//!
//! Test files count for less: the code to change is seldom a test. The answer lists
//! the files (`files`: path and score), the definitions to change across them, best
//! first (`hits`, ranked by [`definitions`]), and says which sides it used. docs/CODE.md
//! has the weights and how they were fitted.

mod definitions;
mod history;
mod meaning;
mod store;
mod terms;

use std::collections::HashMap;
use std::path::PathBuf;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::ops::{MAX_LIMIT, REPO_PARAM, Repo, dberr, open_repo};
use super::text::normalize_signature;
use super::{index, lang};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{AgentShape, Operation, PathParam, PathTable};
use terms::Described;

#[doc(hidden)]
pub use definitions::{DefinitionFeatures, ScoredDefinition, is_ranked_kind};
#[doc(hidden)]
pub use terms::is_test_path;

/// Files listed when the request does not say.
const DEFAULT_LIMIT: usize = 10;
/// Files and definitions the keyword side reads (its best, by BM25).
const FILE_CANDIDATES: usize = 300;
const UNIT_CANDIDATES: usize = 1000;
/// A name defined in more files than this says too little to count.
const MAX_DEFINERS: usize = 20;

/// How much each kind of evidence weighs: a file's score is the sum of its
/// [`Features`], each times its weight, times [`Weights::test`] for a test file.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// BM25 column weights of a file row: path, names, docs, body.
    pub file_columns: [f64; 4],
    /// BM25 column weights of a definition row: name, signature, doc, body, path.
    pub unit_columns: [f64; 5],
    pub file: f64,
    pub unit: f64,
    pub defines: f64,
    pub path: f64,
    pub path_words: f64,
    pub activity: f64,
    /// The factor of a test file's score.
    pub test: f64,
    /// 0 turns the meaning side off.
    pub meaning: f64,
    /// Files the meaning side compares (the best of the other sides).
    pub meaning_files: usize,
    /// Definitions of each it embeds.
    pub meaning_units: usize,
    /// Lines of a definition's body in the text it embeds (after its signature and doc).
    pub meaning_lines: usize,
    /// A definition's score ([`DefinitionFeatures`]): its file's, its BM25, being named,
    /// ln(1 + lines), being a container, its meaning.
    pub definition_file: f64,
    pub definition_keyword: f64,
    pub definition_named: f64,
    pub definition_lines: f64,
    pub definition_container: f64,
    pub definition_meaning: f64,
    /// The files whose definitions are ranked (the first).
    pub definition_files: usize,
    /// The best definitions compared by meaning (besides those the meaning side did).
    pub definitions_compared: usize,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            file_columns: [4.0, 2.0, 1.0, 1.0],
            unit_columns: [3.0, 2.0, 1.0, 1.0, 1.0],
            file: 1.5,
            unit: 0.3,
            defines: 0.4,
            path: 2.0,
            path_words: 0.4,
            activity: 0.2,
            test: 0.3,
            meaning: 3.0,
            meaning_files: meaning::RERANKED_FILES,
            meaning_units: meaning::UNITS_PER_FILE,
            meaning_lines: meaning::BODY_LINES,
            definition_file: 1.5,
            definition_keyword: 1.5,
            definition_named: 0.5,
            definition_lines: 0.2,
            definition_container: -0.6,
            definition_meaning: 2.0,
            definition_files: 10,
            definitions_compared: 10,
        }
    }
}

impl Weights {
    fn score(&self, f: &Features) -> f64 {
        let sum = self.file * f.file
            + self.unit * f.unit
            + self.defines * f.defines
            + self.path * f.path
            + self.path_words * f.path_words
            + self.activity * f.activity
            + self.meaning * f.meaning;
        if f.test { sum * self.test } else { sum }
    }
}

/// What speaks for a file.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Features {
    /// Its BM25 for the description's words, relative to the best file's.
    pub file: f64,
    /// Its best definition's BM25, relative to the best definition's.
    pub unit: f64,
    /// For each identifier of the description it defines, one over the number of files
    /// defining it.
    pub defines: f64,
    /// 1 when a path of the description is its path.
    pub path: f64,
    /// The words of its path (directories and name) the description uses: 1 each in the
    /// first line, ½ elsewhere.
    pub path_words: f64,
    /// ln(1 + the commits that changed it among the last [`history::COMMITS`]).
    pub activity: f64,
    /// Whether it is a test.
    pub test: bool,
    /// The cosine of the description and its closest definition (the meaning side).
    pub meaning: f64,
}

/// `code.find`: rank a repository's code by a description.
#[derive(Debug, Clone, Copy)]
pub struct FindCode;

/// Parameters of `code.find`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FindCodeRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// What to find, in free text: an issue, a stack trace, a question (first 16 KiB).
    pub query: String,
    /// Most files, and most definitions (default 10).
    pub limit: Option<usize>,
}

/// A file `code.find` ranks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FoundFile {
    /// Path relative to the repository root.
    pub path: String,
    /// Score (higher is better; comparable within one answer only).
    pub score: f64,
}

/// A definition `code.find` points at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FoundCode {
    /// Its file (one of `files`), relative to the repository root.
    pub path: String,
    /// Symbol id (for `get_symbol_detail`, `get_references`, `get_dependencies`).
    pub id: i64,
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: String,
    /// First line (1-based).
    pub start_line: i64,
    /// Last line.
    pub end_line: i64,
    /// Its signature, shortened, or its first line.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub snippet: String,
}

/// Result of `code.find`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FindCodeResponse {
    /// Files, best first.
    pub files: Vec<FoundFile>,
    /// The definitions to change, best first: up to `limit`, each in a listed file.
    pub hits: Vec<FoundCode>,
    /// The sides that ranked: `keyword`, `structure`, `meaning` (not without the
    /// embedding model).
    pub used: Vec<String>,
    /// Problems met; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Operation for FindCode {
    const NAME: &'static str = "code.find";
    const SUMMARY: &'static str = "Find the code a description is about (an issue, a stack trace, a question): the files and the definitions to change, ranked by keywords, the names and paths it mentions.";
    type Request = FindCodeRequest;
    type Response = FindCodeResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    /// Hits point into `files` by index; the scores and the sides that ranked are left
    /// out (the order says it).
    const AGENT: AgentShape = AgentShape {
        omit: &["files/*/score", "used"],
        paths: Some(PathTable {
            lists: &["hits"],
            table: "files",
        }),
        ..super::ops::AGENT_CODE
    };
    fn run(engine: &Engine, request: FindCodeRequest) -> Result<FindCodeResponse> {
        find(engine, request, &Weights::default())
    }
}

/// The repository of a request, its index brought up to date, and its files ranked.
fn prepare(
    engine: &Engine,
    request: FindCodeRequest,
    weights: &Weights,
) -> Result<(Repo, Ranked, Vec<String>)> {
    let op = FindCode::NAME;
    let description = terms::clean(request.query.trim());
    let described = Described::of(&description);
    if described.words.is_empty() && described.identifiers.is_empty() && described.paths.is_empty()
    {
        return Err(Error::invalid(op, "`query` has no words to search for"));
    }
    let mut warnings = Vec::new();
    let repo = open_repo(engine, request.path, op, &mut warnings)?;
    // The symbol index first (only what changed is read), then the keyword index from it.
    index::index_repository(
        &repo.database,
        &repo.root,
        &repo.config,
        false,
        &mut warnings,
    )?;
    {
        let writer = repo.database.write(&mut warnings)?;
        store::sync(&writer, &repo.root, &repo.db_path)?;
    }
    let conn = repo.database.read(&mut warnings)?;
    let activity = history::activity(&repo.root);
    let embedder = meaning::embedder(engine, weights, &mut warnings);
    // With the model, a description whose words are in few files still gets its best
    // files by meaning: the most active others are compared too.
    let fill_to = if embedder.is_some() {
        weights.meaning_files
    } else {
        0
    };
    let mut ranked =
        rank(&conn, &described, &activity, fill_to, weights).map_err(dberr(&repo.db_path))?;
    let description = crate::text::truncate_utf8(description.trim(), terms::MAX_DESCRIPTION_BYTES);
    let comparer = embedder.as_ref().map(|embedder| meaning::Comparer {
        engine,
        embedder: embedder.as_ref(),
        root: &repo.root,
        db_path: &repo.db_path,
        conn: &conn,
        description,
    });
    let mut closeness = HashMap::new();
    if let Some(comparer) = &comparer {
        closeness = comparer.rerank(&mut ranked, weights, &mut warnings)?;
        ranked.meaning = true;
    }
    ranked.definitions = definitions::rank(&conn, &described, &ranked, &closeness, weights)
        .map_err(dberr(&repo.db_path))?;
    if let Some(comparer) = &comparer {
        comparer.compare_definitions(&mut ranked.definitions, weights, &mut warnings)?;
    }
    drop(conn);
    Ok((repo, ranked, warnings))
}

/// Every file [`FindCode`] ranks for a request, with its evidence (for tuning).
#[doc(hidden)]
pub fn find_ranked(engine: &Engine, request: FindCodeRequest, weights: &Weights) -> Result<Ranked> {
    prepare(engine, request, weights).map(|(_, ranked, _)| ranked)
}

/// [`FindCode`] with other weights (for tuning them).
#[doc(hidden)]
pub fn find(
    engine: &Engine,
    request: FindCodeRequest,
    weights: &Weights,
) -> Result<FindCodeResponse> {
    let limit = request.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    let (repo, ranked, mut warnings) = prepare(engine, request, weights)?;
    let conn = repo.database.read(&mut warnings)?;
    let mut used = Vec::new();
    if ranked.keyword {
        used.push("keyword".to_string());
    }
    if ranked.structure {
        used.push("structure".to_string());
    }
    if ranked.meaning {
        used.push("meaning".to_string());
    }
    let files: Vec<FoundFile> = ranked
        .files
        .iter()
        .take(limit)
        .map(|f| FoundFile {
            path: f.path.clone(),
            score: (f.score * 1000.0).round() / 1000.0,
        })
        .collect();
    let mut hits = Vec::new();
    for d in &ranked.definitions {
        if hits.len() == limit {
            break;
        }
        if !files.iter().any(|f| f.path == d.path) {
            continue;
        }
        let hit = found_code(&conn, d.id, &d.path, repo.config.output.truncate_signatures)
            .map_err(dberr(&repo.db_path))?;
        hits.extend(hit);
    }
    drop(conn);
    let mut out = FindCodeResponse {
        files,
        hits,
        used,
        warnings: Vec::new(),
    };
    warnings.sort();
    warnings.dedup();
    out.warnings = warnings;
    Ok(out)
}

/// What `code.find` reads of a definition.
struct Definition {
    name: String,
    kind: String,
    start: i64,
    end: i64,
    signature: Option<String>,
    doc: Option<String>,
}

/// The definition `id`, if the index still has it.
fn definition(conn: &Connection, id: i64) -> rusqlite::Result<Option<Definition>> {
    conn.prepare_cached(
        "SELECT name, kind, line_start, line_end, signature, doc_comment FROM symbols WHERE id = ?1",
    )?
    .query_row([id], |r| {
        Ok(Definition {
            name: r.get(0)?,
            kind: r.get(1)?,
            start: r.get(2)?,
            end: r.get(3)?,
            signature: r.get(4)?,
            doc: r.get(5)?,
        })
    })
    .optional()
}

/// A hit for the definition `id`, the best of the file at `path`.
fn found_code(
    conn: &Connection,
    id: i64,
    path: &str,
    max_signature: usize,
) -> rusqlite::Result<Option<FoundCode>> {
    Ok(definition(conn, id)?.map(|d| FoundCode {
        path: path.to_string(),
        id,
        name: d.name,
        kind: d.kind,
        start_line: d.start,
        end_line: d.end,
        snippet: d
            .signature
            .map(|s| normalize_signature(&s, max_signature))
            .unwrap_or_default(),
    }))
}

/// A file's standing.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    pub path: String,
    pub score: f64,
    /// Its definitions the description names, then its best on the keyword side, best
    /// first (a few).
    pub units: Vec<i64>,
    /// The evidence.
    pub features: Features,
}

/// Files ranked for a description.
#[doc(hidden)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ranked {
    pub files: Vec<Scored>,
    /// The definitions of the best files, best first.
    pub definitions: Vec<ScoredDefinition>,
    pub keyword: bool,
    pub structure: bool,
    pub meaning: bool,
}

impl Ranked {
    /// Best first; equal scores by path.
    fn sort(&mut self) {
        self.files.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.path.cmp(&b.path))
        });
    }
}

#[derive(Default)]
struct Evidence {
    features: Features,
    /// Its best definitions on the keyword side, best first.
    best_units: Vec<i64>,
    /// Its definitions the description names.
    named_units: Vec<i64>,
}

/// The BM25 of the files best for `words` (any of them), each relative to the best's.
fn file_bm25(
    conn: &Connection,
    words: &[String],
    w: &Weights,
) -> rusqlite::Result<Vec<(i64, f64)>> {
    let Some(fts) = crate::text::fts5_any_of(words) else {
        return Ok(Vec::new());
    };
    let [p, n, d, b] = w.file_columns;
    let mut stmt = conn.prepare_cached(
        "SELECT rowid, -bm25(find_files_fts, ?2, ?3, ?4, ?5) AS s FROM find_files_fts
         WHERE find_files_fts MATCH ?1 ORDER BY s DESC, rowid LIMIT ?6",
    )?;
    let rows: Vec<(i64, f64)> = stmt
        .query_map(params![fts, p, n, d, b, FILE_CANDIDATES as i64], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let best = rows.first().map_or(1.0, |r| r.1).max(f64::MIN_POSITIVE);
    Ok(rows.into_iter().map(|(id, s)| (id, s / best)).collect())
}

/// Rank the files of an index (its keyword index up to date) for a description;
/// `activity` is what the history says of each file (by path). When fewer than `fill_to`
/// files have evidence, the most active others (then the first by path) are added, with
/// only their activity, up to `fill_to`.
fn rank(
    conn: &Connection,
    described: &Described,
    activity: &HashMap<String, f64>,
    fill_to: usize,
    w: &Weights,
) -> rusqlite::Result<Ranked> {
    let mut evidence: HashMap<i64, Evidence> = HashMap::new();
    let mut ranked = Ranked::default();
    for (id, s) in file_bm25(conn, &described.words, w)? {
        evidence.entry(id).or_default().features.file = s;
    }
    if let Some(fts) = crate::text::fts5_any_of(&described.words) {
        let [n, s, d, b, p] = w.unit_columns;
        let mut stmt = conn.prepare_cached(
            "SELECT m.id, m.s, u.file_id FROM (
                 SELECT rowid AS id, -bm25(find_units_fts, ?2, ?3, ?4, ?5, ?6) AS s
                 FROM find_units_fts WHERE find_units_fts MATCH ?1 ORDER BY s DESC, rowid LIMIT ?7
             ) m JOIN find_units u ON u.symbol_id = m.id ORDER BY m.s DESC, m.id",
        )?;
        let rows: Vec<(i64, f64, i64)> = stmt
            .query_map(params![fts, n, s, d, b, p, UNIT_CANDIDATES as i64], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let best = rows.first().map_or(1.0, |r| r.1).max(f64::MIN_POSITIVE);
        // Best first: a file's first row is its best.
        for (id, s, file) in rows {
            let e = evidence.entry(file).or_default();
            if e.best_units.is_empty() {
                e.features.unit = s / best;
            }
            if e.best_units.len() < w.meaning_units {
                e.best_units.push(id);
            }
        }
    }
    ranked.keyword = !evidence.is_empty();
    // Structure: the identifiers the description writes as code, where defined.
    let mut definers = conn.prepare_cached(&format!(
        "SELECT s.file_id, min(s.id) FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = ?1 AND s.kind NOT IN ('section') AND f.language NOT IN ({})
         GROUP BY s.file_id ORDER BY s.file_id",
        lang::prose_sql()
    ))?;
    for name in &described.identifiers {
        let files: Vec<(i64, i64)> = definers
            .query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        if files.is_empty() || files.len() > MAX_DEFINERS {
            continue;
        }
        let share = 1.0 / files.len() as f64;
        for (file, symbol) in files {
            let e = evidence.entry(file).or_default();
            e.features.defines += share;
            e.named_units.push(symbol);
            ranked.structure = true;
        }
    }
    let paths: Vec<(i64, String, String)> = conn
        .prepare_cached("SELECT id, rel_path, language FROM files ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut path_of: HashMap<i64, (String, bool)> = HashMap::with_capacity(paths.len());
    for (id, rel, language) in paths {
        let code = lang::is_code(&language);
        if code && described.paths.iter().any(|p| path_matches(&rel, p)) {
            evidence.entry(id).or_default().features.path = 1.0;
            ranked.structure = true;
        }
        path_of.insert(id, (rel, code));
    }
    if evidence.len() < fill_to {
        let mut others: Vec<(f64, &str, i64)> = path_of
            .iter()
            .filter(|(id, (_, code))| *code && !evidence.contains_key(id))
            .map(|(id, (rel, _))| (activity.get(rel).copied().unwrap_or(0.0), rel.as_str(), *id))
            .collect();
        others.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let room = fill_to - evidence.len();
        for (_, _, id) in others.into_iter().take(room) {
            evidence.entry(id).or_default();
        }
    }
    let files: Vec<Scored> = evidence
        .into_iter()
        .filter_map(|(id, e)| {
            let (path, code) = path_of.get(&id)?;
            if !code {
                return None;
            }
            let mut features = e.features;
            features.test = is_test_path(path);
            features.path_words = described.path_words(path);
            if let Some(commits) = activity.get(path.as_str()) {
                features.activity = *commits;
            }
            let mut units = e.named_units;
            for id in e.best_units {
                if !units.contains(&id) {
                    units.push(id);
                }
            }
            Some(Scored {
                path: path.clone(),
                score: w.score(&features),
                units,
                features,
            })
        })
        .collect();
    ranked.files = files;
    ranked.sort();
    Ok(ranked)
}

/// Whether the repository path `rel` is what a description's path `p` names: the same
/// path, one ending in it (`b.py`, `pkg/b.py`), one it ends in (a trace's absolute
/// path), or — for a module path without extension (`pkg/mod`) — a file of that module
/// (`pkg/mod.py`, `pkg/mod/__init__.py`, `src/pkg/mod.rs`), or of a module it starts
/// with (`pkg/mod/Class`).
fn path_matches(rel: &str, p: &str) -> bool {
    let ends = |long: &str, short: &str| {
        long == short
            || (long.len() > short.len()
                && long.ends_with(short)
                && long.as_bytes()[long.len() - short.len() - 1] == b'/')
    };
    if ends(rel, p) || ends(p, rel) {
        return true;
    }
    let name = p.rsplit('/').next().unwrap_or(p);
    if name.contains('.') || !p.contains('/') {
        return false;
    }
    // A module path: the file without its extension, or the package's index file.
    let stem = match rel.rsplit_once('.') {
        Some((stem, _)) => stem,
        None => rel,
    };
    let module = ["/__init__", "/mod", "/index", "/lib"]
        .iter()
        .find_map(|index| stem.strip_suffix(index))
        .unwrap_or(stem);
    let mut prefix = p;
    loop {
        if ends(module, prefix) && prefix.contains('/') {
            return true;
        }
        match prefix.rsplit_once('/') {
            Some((head, _)) => prefix = head,
            None => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::path_matches;

    #[test]
    fn paths_match_as_a_description_names_them() {
        assert!(path_matches("httpx/_client.py", "httpx/_client.py"));
        assert!(path_matches("httpx/_client.py", "_client.py"));
        assert!(!path_matches("httpx/my_client.py", "_client.py"));
        assert!(path_matches(
            "pkg/mod.py",
            "usr/lib/python3/site-packages/pkg/mod.py"
        ));
        assert!(path_matches("httpx/_client.py", "httpx/_client/Client"));
        assert!(path_matches("src/pkg/mod/__init__.py", "pkg/mod"));
        assert!(!path_matches("httpx/__init__.py", "httpx/Client"));
        assert!(!path_matches("a/b.py", "b"));
    }
}
