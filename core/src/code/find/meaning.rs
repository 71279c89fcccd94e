//! The meaning side of `code.find`: the local embedding model compares the description
//! with the definitions the other two sides found best, and the files they belong to
//! move by how close the closest is.
//!
//! Only the best files' best definitions are embedded, when asked ([`RERANKED_FILES`]
//! files, [`UNITS_PER_FILE`] each): embedding a whole repository's definitions takes
//! minutes on two cores, these take a second, and their vectors are cached by content
//! (`embeddings.db`), so a definition is embedded once for every question about it.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use rusqlite::{Connection, params};

use super::definitions::ScoredDefinition;
use super::{Ranked, Weights};
use crate::embed::Embedder;
use crate::engine::Engine;
use crate::error::Result;

/// Files the meaning side reorders (the best of the other two sides).
pub(super) const RERANKED_FILES: usize = 10;
/// Definitions of each file it embeds (its best on the keyword side, or the ones the
/// description names).
pub(super) const UNITS_PER_FILE: usize = 2;
/// Lines of a definition's body in the text embedded (after its signature and doc).
pub(super) const BODY_LINES: usize = 12;

/// What a definition is to the model: where it is, what it is called and says, and its
/// first lines (of `source`, its file's text).
fn unit_text(rel: &str, source: &str, d: &super::Definition, body_lines: usize) -> String {
    let mut text = format!("{rel} {} {}\n", d.kind, d.name);
    if let Some(doc) = &d.doc {
        text.push_str(doc);
        text.push('\n');
    }
    let from = d.start.max(1) as usize - 1;
    let to = (d.end.max(1) as usize).min(from + body_lines);
    for line in source.lines().skip(from).take(to.saturating_sub(from)) {
        text.push_str(line.trim());
        text.push('\n');
    }
    text
}

/// The model, when the meaning side weighs anything and there is one (its absence is
/// said once per engine in `warnings`).
pub(super) fn embedder(
    engine: &Engine,
    w: &Weights,
    warnings: &mut Vec<String>,
) -> Option<Arc<dyn Embedder>> {
    if w.meaning == 0.0 {
        return None;
    }
    match engine.embedder() {
        Ok(e) => Some(e),
        Err(e) => {
            if engine.note_model_missing() {
                warnings.push(format!(
                    "keyword and structure only: no embedding model ({e})"
                ));
            }
            None
        }
    }
}

/// What the meaning side compares with: the description, the model and where the
/// repository's files and index are.
pub(super) struct Comparer<'a> {
    pub engine: &'a Engine,
    pub embedder: &'a dyn Embedder,
    pub root: &'a Path,
    pub db_path: &'a Path,
    pub conn: &'a Connection,
    pub description: &'a str,
}

impl Comparer<'_> {
    /// Reorder the best files of `ranked` by meaning; the cosine of the description and
    /// each definition compared, by id.
    pub(super) fn rerank(
        &self,
        ranked: &mut Ranked,
        w: &Weights,
        warnings: &mut Vec<String>,
    ) -> Result<HashMap<i64, f64>> {
        let Comparer {
            root,
            db_path,
            conn,
            ..
        } = *self;
        let mut closeness = HashMap::new();
        if ranked.files.is_empty() {
            return Ok(closeness);
        }
        let dberr = |e| crate::error::Error::db(db_path, e);
        let top = ranked.files.len().min(w.meaning_files);
        let mut definitions = conn
            .prepare_cached(super::store::FIRST_UNITS_SQL)
            .map_err(dberr)?;
        let kinds = super::store::unit_kinds_json();
        // (file index, the definition or none for the file's start, text) for every text
        // embedded.
        let mut texts: Vec<(usize, Option<i64>, String)> = Vec::new();
        for (i, file) in ranked.files[..top].iter().enumerate() {
            let Ok(bytes) = std::fs::read(root.join(&file.path)) else {
                continue;
            };
            let source = String::from_utf8_lossy(&bytes);
            let lines: Vec<&str> = source.lines().collect();
            let mut any = false;
            // No definition of the file matched a word: its first ones stand for it.
            let first: Vec<i64> = if file.units.is_empty() {
                definitions
                    .query_map(params![file.path, w.meaning_units as i64, kinds], |r| {
                        r.get(0)
                    })
                    .and_then(|rows| rows.collect())
                    .map_err(dberr)?
            } else {
                Vec::new()
            };
            for id in file.units.iter().chain(&first).take(w.meaning_units) {
                let Some(d) = super::definition(conn, *id).map_err(dberr)? else {
                    continue;
                };
                texts.push((
                    i,
                    Some(*id),
                    unit_text(&file.path, &source, &d, w.meaning_lines),
                ));
                any = true;
            }
            if !any {
                // No definitions: the file's start stands for it.
                let head: Vec<&str> = lines
                    .iter()
                    .take(w.meaning_lines)
                    .map(|l| l.trim())
                    .collect();
                texts.push((i, None, format!("{}\n{}", file.path, head.join("\n"))));
            }
        }
        let sims = self.cosines(texts.iter().map(|(_, _, t)| t.as_str()), warnings)?;
        // Each file's closest text.
        let mut closest: HashMap<usize, f64> = HashMap::new();
        for ((i, id, _), sim) in texts.iter().zip(sims) {
            if let Some(id) = id {
                closeness.insert(*id, sim);
            }
            let best = closest.entry(*i).or_insert(f64::MIN);
            *best = best.max(sim);
        }
        for (i, file) in ranked.files[..top].iter_mut().enumerate() {
            let sim = closest.get(&i).copied().unwrap_or(0.0);
            file.features.meaning = sim.max(0.0);
            file.score = w.score(&file.features);
        }
        ranked.sort();
        Ok(closeness)
    }

    /// Compare the first [`Weights::definitions_compared`] of `definitions` (ranked) not
    /// compared yet with the description, and rank them again.
    pub(super) fn compare_definitions(
        &self,
        definitions: &mut [ScoredDefinition],
        w: &Weights,
        warnings: &mut Vec<String>,
    ) -> Result<()> {
        let Comparer {
            root,
            db_path,
            conn,
            ..
        } = *self;
        let dberr = |e| crate::error::Error::db(db_path, e);
        // Each file read once.
        let mut sources: HashMap<&str, Option<String>> = HashMap::new();
        // (index in `definitions`, text)
        let mut texts: Vec<(usize, String)> = Vec::new();
        for (i, d) in definitions.iter().enumerate() {
            if texts.len() == w.definitions_compared {
                break;
            }
            if d.features.meaning.is_some() {
                continue;
            }
            let source = sources.entry(d.path.as_str()).or_insert_with(|| {
                std::fs::read(root.join(&d.path))
                    .ok()
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
            });
            let (Some(source), Some(definition)) = (
                source.as_deref(),
                super::definition(conn, d.id).map_err(dberr)?,
            ) else {
                continue;
            };
            texts.push((i, unit_text(&d.path, source, &definition, w.meaning_lines)));
        }
        let sims = self.cosines(texts.iter().map(|(_, t)| t.as_str()), warnings)?;
        for ((i, _), sim) in texts.iter().zip(sims) {
            let d = &mut definitions[*i];
            d.features.meaning = Some(sim);
            d.score = w.definition_score(&d.features);
        }
        super::definitions::sort(definitions);
        Ok(())
    }

    /// The cosine of the description and each of `texts`.
    fn cosines<'t>(
        &'t self,
        texts: impl Iterator<Item = &'t str>,
        warnings: &mut Vec<String>,
    ) -> Result<Vec<f64>> {
        let mut all: Vec<&str> = vec![self.description];
        all.extend(texts);
        if all.len() == 1 {
            return Ok(Vec::new());
        }
        let vectors = self
            .engine
            .embedding_cache()
            .embed_cached(self.embedder, &all, warnings)?
            .vectors;
        let query = &vectors[0];
        Ok(vectors[1..]
            .iter()
            .map(|v| f64::from(query.iter().zip(v).map(|(a, b)| a * b).sum::<f32>()))
            .collect())
    }
}
