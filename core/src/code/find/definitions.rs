//! The definitions of `code.find`'s answer: of the best files, the functions, methods
//! and types most likely to change, best first across files.
//!
//! Every definition of the first [`Weights::definition_files`] files is a candidate. Its
//! evidence ([`DefinitionFeatures`]) is its file's standing, its own BM25 for the
//! description's words (its name, signature, doc comment and the lines that are its own),
//! whether the description names it, its size, whether it only holds others (a class, an
//! impl) and, with the model, how close it is in meaning — for the best candidates only
//! ([`Weights::definitions_compared`]; the meaning side already compared some).

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, params};
use serde::Serialize;

use super::terms::Described;
use super::{Ranked, Weights};

/// Kinds that hold other definitions more than they do something themselves.
const CONTAINERS: &[&str] = &[
    "class",
    "interface",
    "struct",
    "enum",
    "trait",
    "impl",
    "type",
];

/// What speaks for a definition.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct DefinitionFeatures {
    /// Its file's score, relative to the first file's.
    pub file: f64,
    /// Its BM25 for the description's words, relative to the best candidate's.
    pub keyword: f64,
    /// 1 when the description names it.
    pub named: f64,
    /// ln(1 + its lines).
    pub lines: f64,
    /// Whether it is a class, struct, impl… (a [`CONTAINERS`] kind).
    pub container: bool,
    /// The cosine of the description and the definition, when compared.
    pub meaning: Option<f64>,
}

/// A candidate definition.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredDefinition {
    pub id: i64,
    /// Its file (one of the ranked files).
    pub path: String,
    pub score: f64,
    pub features: DefinitionFeatures,
}

impl Weights {
    pub(super) fn definition_score(&self, f: &DefinitionFeatures) -> f64 {
        self.definition_file * f.file
            + self.definition_keyword * f.keyword
            + self.definition_named * f.named
            + self.definition_lines * f.lines
            + if f.container {
                self.definition_container
            } else {
                0.0
            }
            + self.definition_meaning * f.meaning.unwrap_or(0.0)
    }
}

/// Best first; equal scores by id (the index's order).
pub(super) fn sort(definitions: &mut [ScoredDefinition]) {
    definitions.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
}

/// The candidate definitions of `ranked`'s best files (ranked already), scored without
/// the meanings not yet compared; `closeness` holds those that were (by id).
pub(super) fn rank(
    conn: &Connection,
    described: &Described,
    ranked: &Ranked,
    closeness: &HashMap<i64, f64>,
    w: &Weights,
) -> rusqlite::Result<Vec<ScoredDefinition>> {
    let files = &ranked.files[..ranked.files.len().min(w.definition_files)];
    let Some(first) = files.first() else {
        return Ok(Vec::new());
    };
    let best_file = first.score.max(f64::MIN_POSITIVE);
    let mut units = conn.prepare_cached(&format!(
        "SELECT s.id, s.name, s.kind, s.line_start, s.line_end FROM symbols s
         JOIN files f ON f.id = s.file_id
         WHERE f.rel_path = ?1 AND s.kind IN ({}) ORDER BY s.id",
        kinds_sql()
    ))?;
    let mut out = Vec::new();
    for file in files {
        let relative = (file.score / best_file).max(0.0);
        let rows = units.query_map([&file.path], |r| {
            let (id, name, kind): (i64, String, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
            let lines = (r.get::<_, i64>(4)? - r.get::<_, i64>(3)? + 1).max(1);
            Ok((id, name, kind, lines))
        })?;
        for row in rows {
            let (id, name, kind, lines) = row?;
            out.push(ScoredDefinition {
                id,
                path: file.path.clone(),
                score: 0.0,
                features: DefinitionFeatures {
                    file: relative,
                    keyword: 0.0,
                    named: if described.identifiers.contains(&name) {
                        1.0
                    } else {
                        0.0
                    },
                    lines: (lines as f64).ln_1p(),
                    container: CONTAINERS.contains(&kind.as_str()),
                    meaning: closeness.get(&id).copied(),
                },
            });
        }
    }
    let keyword = bm25(conn, &described.words, &out, w)?;
    for d in &mut out {
        d.features.keyword = keyword.get(&d.id).copied().unwrap_or(0.0);
        d.score = w.definition_score(&d.features);
    }
    sort(&mut out);
    Ok(out)
}

/// Whether `code.find` ranks definitions of this kind: those of the keyword index but
/// modules (a module is its file).
pub fn is_ranked_kind(kind: &str) -> bool {
    kind != "mod" && super::store::UNIT_KINDS.contains(&kind)
}

/// The kinds ranked, as an SQL list.
fn kinds_sql() -> String {
    super::store::UNIT_KINDS
        .iter()
        .filter(|k| is_ranked_kind(k))
        .map(|k| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The BM25 of each of `candidates` that has any of `words`, relative to the best's.
fn bm25(
    conn: &Connection,
    words: &[String],
    candidates: &[ScoredDefinition],
    w: &Weights,
) -> rusqlite::Result<HashMap<i64, f64>> {
    let mut out = HashMap::new();
    let Some(fts) = crate::text::fts5_any_of(words) else {
        return Ok(out);
    };
    let [n, s, d, b, p] = w.unit_columns;
    // Every match, kept when a candidate: a `rowid IN (…)` constraint would have FTS5
    // run the query once per id.
    let candidates: HashSet<i64> = candidates.iter().map(|c| c.id).collect();
    let mut stmt = conn.prepare_cached(
        "SELECT rowid, -bm25(find_units_fts, ?2, ?3, ?4, ?5, ?6) FROM find_units_fts
         WHERE find_units_fts MATCH ?1",
    )?;
    let rows = stmt.query_map(params![fts, n, s, d, b, p], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?))
    })?;
    let mut best = f64::MIN_POSITIVE;
    for row in rows {
        let (id, score) = row?;
        if candidates.contains(&id) {
            best = best.max(score);
            out.insert(id, score);
        }
    }
    for score in out.values_mut() {
        *score /= best;
    }
    Ok(out)
}
