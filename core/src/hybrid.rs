//! The hybrid chunk engine: one implementation of keyword + semantic search that the
//! sessions, docs and notes components share.
//!
//! A component turns its sources (a transcript, a markdown file) into [`NewChunk`]s and
//! hands them to a [`ChunkStore`] inside its own write transaction; the store keeps:
//!
//! - `chunks`: one row per chunk, keyed by the component's stable `key`, with the
//!   filter columns every component needs (`scope`, `kind`, `tag`, `time`), a title, the
//!   text and the component's own JSON (`meta`);
//! - `chunks_fts`: FTS5 over title and text (`porter unicode61 remove_diacritics 2`);
//! - `chunk_windows`: a chunk longer than the model's window (256 word pieces) is
//!   embedded as overlapping windows ([`crate::embed::Embedder::windows`]), each row
//!   holding its chunk, its position and its byte range in the chunk's text;
//! - `chunk_vectors`: a sqlite-vec `vec0` table with one vector per window, `scope` as
//!   its partition key and `kind`, `tag`, `time` as metadata columns, so that filters
//!   apply inside the KNN and a filtered search still finds its k neighbours.
//!
//! Vectors are made apart from the write ([`ChunkStore::embed_pending`]): a chunk is
//! searchable by keyword as soon as it is written, and by vector once its windows are
//! embedded. Embeddings go through the engine's content-addressed cache, so text seen
//! before (in any index) is not run through the model again. Without a model, chunks
//! stay pending and a later run with the model embeds them.
//!
//! A component may cap the windows embedded per chunk by kind
//! ([`ChunkStore::with_window_budget`]): a chunk's first windows, or none (keyword only).
//! `embedded = 1` means its windows, as many as its budget allows, are written.
//!
//! [`ChunkStore::search`] runs the keyword list (FTS5 first, in a materialised CTE,
//! then the filters), the vector list (KNN per scope with the filters inside), and fuses
//! them with [`crate::rank`]: weighted reciprocal-rank fusion, then per-kind weights,
//! recency decay and, when the component asks for it, a factor for holding every word of
//! the query ([`Search::coverage_weight`]). Vectors are L2-normalised, so the KNN uses L2
//! distance, whose order is cosine order (cosine = 1 − d²/2) and which sqlite-vec
//! computes faster.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use crate::embed::{Cache, Embedder, text_hash};
use crate::engine::{DatabaseFile, Engine};
use crate::error::{Error, Result};
use crate::rank::{self, RankedList, Recency};
use crate::store::{Database, Migrations};

/// The length of every vector the store holds (all-MiniLM-L6-v2).
pub const VECTOR_DIMS: usize = 384;

/// Most neighbours one KNN query asks sqlite-vec for (its own limit is 4096).
const MAX_KNN: usize = 4096;

/// How much of a store's file searches read through a memory map: SQLite's own ceiling
/// (`SQLITE_MAX_MMAP_SIZE`, just under 2 GiB), about 1.3 million windows' vectors at
/// 1.5 KiB each; pages beyond it are read as usual.
pub const MMAP_BYTES: i64 = 0x7fff_0000;

/// The power of the share of the query's words a candidate holds in
/// [`Search::coverage_weight`]'s factor: high, so that holding every word counts far more
/// than holding most of them.
pub const COVERAGE_POWER: i32 = 4;

/// Chunks embedded per transaction by [`ChunkStore::embed_pending`].
const EMBED_BATCH: usize = 64;

/// The store's tables, as one migration. A component whose database holds more tables
/// lists this first in its own [`Migrations`].
pub const SCHEMA_V1: &str = r#"
CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  source TEXT NOT NULL,
  scope TEXT NOT NULL,
  kind TEXT NOT NULL,
  tag TEXT NOT NULL,
  time INTEGER NOT NULL,
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  meta TEXT NOT NULL,
  text_sha256 BLOB NOT NULL,
  embedded INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX chunks_source ON chunks(source);
CREATE INDEX chunks_pending ON chunks(id) WHERE embedded = 0;

CREATE VIRTUAL TABLE chunks_fts USING fts5(
  title, text, content='chunks', content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
END;
CREATE TRIGGER chunks_fts_update AFTER UPDATE OF title, text ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
  INSERT INTO chunks_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
END;

CREATE TABLE chunk_windows (
  id INTEGER PRIMARY KEY,
  chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  UNIQUE (chunk_id, position)
) STRICT;

CREATE VIRTUAL TABLE chunk_vectors USING vec0(
  window_id INTEGER PRIMARY KEY,
  scope TEXT PARTITION KEY,
  kind TEXT,
  tag TEXT,
  time INTEGER,
  +chunk_id INTEGER,
  embedding float[384] distance_metric=l2
);
"#;

/// The schema of a database that holds only the chunk store.
pub const SCHEMA: Migrations = &[SCHEMA_V1];

/// A chunk as a component hands it to the store.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NewChunk {
    /// The chunk's stable identity (the component derives it from content and
    /// position). Writing a chunk with a known key replaces that chunk.
    pub key: String,
    /// What the chunk came from (a session file, a markdown file): deleted together.
    pub source: String,
    /// The partition a search can be confined to (a project).
    pub scope: String,
    /// The chunk's type (`user`, `tool`, `doc`, …): filterable, and weighted by kind.
    pub kind: String,
    /// One more exact-match filter (a branch, a file name); empty when unused.
    pub tag: String,
    /// When the content was written, in Unix seconds: `since`/`until` filters and
    /// recency decay.
    pub time: i64,
    /// A heading, searched with twice the weight of the text.
    pub title: String,
    /// The text searched and embedded.
    pub text: String,
    /// The component's own JSON, returned with each hit.
    pub meta: String,
}

/// What [`ChunkStore::put`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PutStats {
    /// New keys.
    pub inserted: usize,
    /// Known keys with anything changed.
    pub updated: usize,
    /// Of those, the ones whose text or filter columns changed (their vectors are remade).
    pub restaled: usize,
    /// Known keys with nothing new.
    pub unchanged: usize,
}

/// What [`ChunkStore::embed_pending`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedStats {
    /// Chunks that got their vectors.
    pub chunks: usize,
    /// Windows written (one per vector).
    pub windows: usize,
    /// Windows the model had to embed (the others came from the cache).
    pub embedded: usize,
}

/// Row counts of a store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoreStats {
    /// Chunks.
    pub chunks: usize,
    /// Chunks still without vectors.
    pub pending: usize,
    /// Windows (= vectors).
    pub windows: usize,
}

/// Which retrievers a search uses.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Keyword and vector lists fused (keyword only when no model is available).
    #[default]
    Hybrid,
    /// BM25 over FTS5 only.
    Keyword,
    /// Nearest neighbours of the query's vector only (needs the model).
    Vector,
}

/// Filters applied inside both retrievers. `None` means "any".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Only these scopes.
    pub scopes: Option<Vec<String>>,
    /// Only these kinds.
    pub kinds: Option<Vec<String>>,
    /// Only these tags.
    pub tags: Option<Vec<String>>,
    /// Only chunks with `time >= since`.
    pub since: Option<i64>,
    /// Only chunks with `time <= until`.
    pub until: Option<i64>,
}

/// The condition on a chunk `c` that a [`Filter`] sets, its values bound by name
/// ([`Filter::values`]).
const FILTER_SQL: &str = "(:scopes IS NULL OR c.scope IN (SELECT value FROM json_each(:scopes))) \
     AND (:kinds IS NULL OR c.kind IN (SELECT value FROM json_each(:kinds))) \
     AND (:tags IS NULL OR c.tag IN (SELECT value FROM json_each(:tags))) \
     AND (:since IS NULL OR c.time >= :since) \
     AND (:until IS NULL OR c.time <= :until)";

impl Filter {
    /// Every chunk of one scope (a project) and, when given, one tag (a branch).
    pub fn scope(scope: &str, tag: Option<&str>) -> Filter {
        Filter {
            scopes: Some(vec![scope.to_string()]),
            tags: tag.map(|t| vec![t.to_string()]),
            ..Filter::default()
        }
    }

    /// The values of [`FILTER_SQL`]'s parameters.
    fn values(&self) -> Result<Vec<(&'static str, rusqlite::types::Value)>> {
        use rusqlite::types::Value;
        let json = |v: &Option<Vec<String>>| -> Result<Value> {
            Ok(match v {
                Some(v) => Value::Text(
                    serde_json::to_string(v).map_err(|e| Error::Internal(e.to_string()))?,
                ),
                None => Value::Null,
            })
        };
        let time = |t: Option<i64>| t.map_or(Value::Null, Value::Integer);
        Ok(vec![
            (":scopes", json(&self.scopes)?),
            (":kinds", json(&self.kinds)?),
            (":tags", json(&self.tags)?),
            (":since", time(self.since)),
            (":until", time(self.until)),
        ])
    }
}

/// `values` and `more` as the named parameters of one statement.
fn named<'a>(
    values: &'a [(&'static str, rusqlite::types::Value)],
    more: &'a [(&'static str, &'a dyn rusqlite::ToSql)],
) -> Vec<(&'a str, &'a dyn rusqlite::ToSql)> {
    values
        .iter()
        .map(|(name, value)| (*name, value as &dyn rusqlite::ToSql))
        .chain(more.iter().copied())
        .collect()
}

/// A search of a [`ChunkStore`].
#[derive(Debug, Clone)]
pub struct Search {
    /// The user's text (any text: it is escaped).
    pub text: String,
    /// Retrievers to use.
    pub mode: Mode,
    /// Filters.
    pub filter: Filter,
    /// Most hits returned.
    pub limit: usize,
    /// Candidates taken from each retriever before fusion.
    pub candidates: usize,
    /// Weight of the keyword list.
    pub keyword_weight: f64,
    /// Weight of the vector list.
    pub vector_weight: f64,
    /// The fusion's rank offset.
    pub rrf_k: f64,
    /// Score factor per kind (1 when absent).
    pub kind_weights: BTreeMap<String, f64>,
    /// Recency decay, when the component wants it.
    pub recency: Option<Recency>,
    /// How much a candidate gains for holding all of the query's words: its score is
    /// multiplied by `1 + coverage_weight × c^COVERAGE_POWER`, `c` the share of the
    /// query's words (as the keyword list reads them) it holds. 0 (the default) leaves
    /// scores as fused; vector mode never uses it.
    pub coverage_weight: f64,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            text: String::new(),
            mode: Mode::Hybrid,
            filter: Filter::default(),
            limit: 10,
            candidates: 100,
            keyword_weight: rank::KEYWORD_WEIGHT,
            vector_weight: rank::VECTOR_WEIGHT,
            rrf_k: rank::RRF_K,
            kind_weights: BTreeMap::new(),
            recency: None,
            coverage_weight: 0.0,
        }
    }
}

/// One result of [`ChunkStore::search`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// The chunk's key.
    pub key: String,
    /// Its source.
    pub source: String,
    /// Its scope.
    pub scope: String,
    /// Its kind.
    pub kind: String,
    /// Its tag.
    pub tag: String,
    /// Its time (Unix seconds).
    pub time: i64,
    /// Its title.
    pub title: String,
    /// Its full text.
    pub text: String,
    /// The component's JSON.
    pub meta: String,
    /// The final score (fused, weighted by kind and recency); higher is better.
    pub score: f64,
    /// Rank in the keyword list (from 1), when it was there.
    pub keyword_rank: Option<usize>,
    /// Rank in the vector list (from 1), when it was there.
    pub vector_rank: Option<usize>,
    /// Cosine similarity of the best window to the query, when in the vector list.
    pub similarity: Option<f64>,
    /// Byte range of the best-matching window in `text`, when the chunk has several.
    pub window: Option<(usize, usize)>,
}

/// How strongly a search's candidates are about the query
/// ([`ChunkStore::search_with_evidence`]): what a caller judges relevance by.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Evidence {
    /// Cosine similarity of the nearest window to the query, when the vector list ran
    /// and found any.
    pub similarity: Option<f64>,
    /// The largest share of the query's words that a chunk of the keyword list holds,
    /// each word weighted by its rarity in the store (inverse document frequency; a word
    /// no chunk holds weighs most), when the keyword list ran and found any.
    pub word_weight: Option<f64>,
}

/// A chunk store in one SQLite file: chunks, FTS, windows and vectors.
#[derive(Debug)]
pub struct ChunkStore {
    db: Arc<Database>,
    /// Most windows embedded per chunk, by kind (a kind not listed: all of them).
    window_budget: BTreeMap<String, usize>,
}

impl ChunkStore {
    /// A store in the database at `path` with schema `migrations` (which must include
    /// [`SCHEMA_V1`]; [`SCHEMA`] when the database holds nothing else).
    pub fn new(path: PathBuf, migrations: Migrations) -> ChunkStore {
        ChunkStore {
            db: Arc::new(Database::new(path, migrations).with_mmap(MMAP_BYTES)),
            window_budget: BTreeMap::new(),
        }
    }

    /// The store in the engine's database `file` (declare it with [`MMAP_BYTES`]).
    pub fn of(engine: &Engine, file: &DatabaseFile) -> Result<ChunkStore> {
        Ok(ChunkStore {
            db: engine.database(file)?,
            window_budget: BTreeMap::new(),
        })
    }

    /// The same store, embedding at most `budget[kind]` windows of a chunk of that kind
    /// (its first ones; 0: the kind is searched by keyword only). Kinds not listed are
    /// embedded whole. The text beyond the budget is still searched by keyword.
    pub fn with_window_budget<'a>(
        mut self,
        budget: impl IntoIterator<Item = (&'a str, usize)>,
    ) -> ChunkStore {
        self.window_budget = budget
            .into_iter()
            .map(|(kind, n)| (kind.to_string(), n))
            .collect();
        self
    }

    /// The database, for the component's own tables.
    pub fn db(&self) -> &Database {
        &self.db
    }

    fn path(&self) -> &Path {
        self.db.path()
    }

    /// Write `chunks` in the caller's transaction: new keys are inserted; known keys
    /// are updated when anything changed. A chunk whose text or filter columns changed
    /// loses its vectors and waits for [`ChunkStore::embed_pending`] (which finds the
    /// text in the vector cache when only the filters changed).
    pub fn put(&self, tx: &Transaction<'_>, chunks: &[NewChunk]) -> Result<PutStats> {
        let db = |e| Error::db(self.path(), e);
        let mut stats = PutStats::default();
        let mut find = tx
            .prepare_cached(
                "SELECT id, source, scope, kind, tag, time, title, meta, text_sha256 \
                 FROM chunks WHERE key = ?1",
            )
            .map_err(db)?;
        let mut insert = tx
            .prepare_cached(
                "INSERT INTO chunks (key, source, scope, kind, tag, time, title, text, meta, \
                 text_sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )
            .map_err(db)?;
        for chunk in chunks {
            let hash = text_hash(&chunk.text);
            type Known = (
                i64,
                String,
                String,
                String,
                String,
                i64,
                String,
                String,
                Vec<u8>,
            );
            let known: Option<Known> = find
                .query_row([&chunk.key], |r| Known::try_from(r))
                .optional()
                .map_err(db)?;
            let Some((id, source, scope, kind, tag, time, title, meta, old_hash)) = known else {
                insert
                    .execute(params![
                        chunk.key,
                        chunk.source,
                        chunk.scope,
                        chunk.kind,
                        chunk.tag,
                        chunk.time,
                        chunk.title,
                        chunk.text,
                        chunk.meta,
                        &hash[..],
                    ])
                    .map_err(db)?;
                stats.inserted += 1;
                continue;
            };
            let vectors_stale = old_hash != hash
                || scope != chunk.scope
                || kind != chunk.kind
                || tag != chunk.tag
                || time != chunk.time;
            if !vectors_stale
                && source == chunk.source
                && title == chunk.title
                && meta == chunk.meta
            {
                stats.unchanged += 1;
                continue;
            }
            if vectors_stale {
                self.drop_vectors(tx, id)?;
                stats.restaled += 1;
            }
            if old_hash != hash || title != chunk.title {
                tx.execute(
                    "UPDATE chunks SET title = ?2, text = ?3, text_sha256 = ?4 WHERE id = ?1",
                    params![id, chunk.title, chunk.text, &hash[..]],
                )
                .map_err(db)?;
            }
            tx.execute(
                "UPDATE chunks SET source = ?2, scope = ?3, kind = ?4, tag = ?5, time = ?6, \
                 meta = ?7, embedded = embedded AND ?8 WHERE id = ?1",
                params![
                    id,
                    chunk.source,
                    chunk.scope,
                    chunk.kind,
                    chunk.tag,
                    chunk.time,
                    chunk.meta,
                    !vectors_stale
                ],
            )
            .map_err(db)?;
            stats.updated += 1;
        }
        Ok(stats)
    }

    /// Delete a chunk's windows and vectors (in the caller's transaction).
    fn drop_vectors(&self, tx: &Transaction<'_>, chunk_id: i64) -> Result<()> {
        let db = |e| Error::db(self.path(), e);
        let windows: Vec<i64> = {
            let mut stmt = tx
                .prepare_cached("SELECT id FROM chunk_windows WHERE chunk_id = ?1")
                .map_err(db)?;
            stmt.query_map([chunk_id], |r| r.get(0))
                .map_err(db)?
                .collect::<rusqlite::Result<_>>()
                .map_err(db)?
        };
        let mut delete = tx
            .prepare_cached("DELETE FROM chunk_vectors WHERE window_id = ?1")
            .map_err(db)?;
        for window in windows {
            delete.execute([window]).map_err(db)?;
        }
        tx.execute("DELETE FROM chunk_windows WHERE chunk_id = ?1", [chunk_id])
            .map_err(db)?;
        Ok(())
    }

    fn delete_ids(&self, tx: &Transaction<'_>, ids: Vec<i64>) -> Result<usize> {
        let count = ids.len();
        let mut delete = tx
            .prepare_cached("DELETE FROM chunks WHERE id = ?1")
            .map_err(|e| Error::db(self.path(), e))?;
        for id in ids {
            self.drop_vectors(tx, id)?;
            delete
                .execute([id])
                .map_err(|e| Error::db(self.path(), e))?;
        }
        Ok(count)
    }

    /// Delete every chunk of `source` (in the caller's transaction); returns how many.
    pub fn delete_source(&self, tx: &Transaction<'_>, source: &str) -> Result<usize> {
        let ids = self.ids_where(tx, "SELECT id FROM chunks WHERE source = ?1", source)?;
        self.delete_ids(tx, ids)
    }

    /// Delete the chunks of `source` whose keys are not in `keep` (in the caller's
    /// transaction): what a re-indexed source no longer yields. Returns how many.
    pub fn retain_source(
        &self,
        tx: &Transaction<'_>,
        source: &str,
        keep: &[&str],
    ) -> Result<usize> {
        let db = |e| Error::db(self.path(), e);
        let keep: std::collections::HashSet<&str> = keep.iter().copied().collect();
        let mut stmt = tx
            .prepare_cached("SELECT id, key FROM chunks WHERE source = ?1")
            .map_err(db)?;
        let ids: Vec<i64> = stmt
            .query_map([source], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(db)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db)?
            .into_iter()
            .filter(|(_, key)| !keep.contains(key.as_str()))
            .map(|(id, _)| id)
            .collect();
        self.delete_ids(tx, ids)
    }

    /// Delete the chunks with these keys (in the caller's transaction).
    pub fn delete_keys(&self, tx: &Transaction<'_>, keys: &[&str]) -> Result<usize> {
        let mut ids = Vec::new();
        for key in keys {
            ids.extend(self.ids_where(tx, "SELECT id FROM chunks WHERE key = ?1", key)?);
        }
        self.delete_ids(tx, ids)
    }

    fn ids_where(&self, tx: &Transaction<'_>, sql: &str, value: &str) -> Result<Vec<i64>> {
        let db = |e| Error::db(self.path(), e);
        let mut stmt = tx.prepare_cached(sql).map_err(db)?;
        stmt.query_map([value], |r| r.get(0))
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)
    }

    /// Row counts.
    pub fn stats(&self, warnings: &mut Vec<String>) -> Result<StoreStats> {
        let conn = self.db.read(warnings)?;
        let count = |sql: &str| -> Result<usize> {
            conn.query_row(sql, [], |r| r.get::<_, i64>(0))
                .map(|n| n as usize)
                .map_err(|e| Error::db(self.path(), e))
        };
        Ok(StoreStats {
            chunks: count("SELECT count(*) FROM chunks")?,
            pending: count("SELECT count(*) FROM chunks WHERE embedded = 0")?,
            windows: count("SELECT count(*) FROM chunk_windows")?,
        })
    }

    /// Chunks that `only` selects and that have no vectors yet.
    pub fn pending(&self, only: &Filter, warnings: &mut Vec<String>) -> Result<usize> {
        let conn = self.db.read(warnings)?;
        let values = only.values()?;
        conn.query_row(
            &format!("SELECT count(*) FROM chunks c WHERE c.embedded = 0 AND {FILTER_SQL}"),
            named(&values, &[]).as_slice(),
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n as usize)
        .map_err(|e| Error::db(self.path(), e))
    }

    /// Embed every chunk that `only` selects (a project's, a branch's; all with
    /// [`Filter::default`]) and that has no vectors yet: its windows through `cache` (so text
    /// embedded before is not embedded again), then windows and vectors written, a
    /// batch per transaction. `progress(done, total)` is called after each batch; an error
    /// from it (a cancelled run) stops there. Safe to interrupt: what was written stays,
    /// the rest stays pending.
    pub fn embed_pending(
        &self,
        embedder: &dyn Embedder,
        cache: &Cache,
        only: &Filter,
        progress: &mut dyn FnMut(usize, usize) -> Result<()>,
        warnings: &mut Vec<String>,
    ) -> Result<EmbedStats> {
        if embedder.dims() != VECTOR_DIMS {
            return Err(Error::Internal(format!(
                "{}: the chunk store holds {VECTOR_DIMS}-dimensional vectors; {} makes {}",
                self.path().display(),
                embedder.model_id(),
                embedder.dims()
            )));
        }
        let db = |e| Error::db(self.path(), e);
        let total = self.pending(only, warnings)?;
        let values = only.values()?;
        let mut stats = EmbedStats::default();
        let mut after = i64::MIN;
        loop {
            let batch: Vec<(i64, String, Vec<u8>, String)> = {
                let conn = self.db.read(warnings)?;
                let mut stmt = conn
                    .prepare_cached(&format!(
                        "SELECT c.id, c.text, c.text_sha256, c.kind FROM chunks c \
                         WHERE c.embedded = 0 AND c.id > :after AND {FILTER_SQL} \
                         ORDER BY c.id LIMIT :limit"
                    ))
                    .map_err(db)?;
                let limit = EMBED_BATCH as i64;
                stmt.query_map(
                    named(&values, &[(":after", &after), (":limit", &limit)]).as_slice(),
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .map_err(db)?
                .collect::<rusqlite::Result<_>>()
                .map_err(db)?
            };
            let Some(last) = batch.last() else {
                break;
            };
            after = last.0;
            let mut windows: Vec<Vec<std::ops::Range<usize>>> = Vec::with_capacity(batch.len());
            let mut texts: Vec<&str> = Vec::new();
            for (_, text, _, kind) in &batch {
                let budget = self.window_budget.get(kind).copied().unwrap_or(usize::MAX);
                let mut ranges = if budget == 0 {
                    Vec::new()
                } else {
                    embedder.windows(text)?
                };
                ranges.truncate(budget);
                for range in &ranges {
                    texts.push(text.get(range.clone()).ok_or_else(|| {
                        Error::Internal(format!(
                            "embedding window {range:?} is not within the text"
                        ))
                    })?);
                }
                windows.push(ranges);
            }
            let cached = cache.embed_cached(embedder, &texts, warnings)?;
            stats.embedded += cached.embedded;
            let mut vectors = cached.vectors.into_iter();
            let mut conn = self.db.write(warnings)?;
            let tx = conn.transaction().map_err(db)?;
            {
                let mut current = tx
                    .prepare_cached(
                        "SELECT scope, kind, tag, time FROM chunks \
                         WHERE id = ?1 AND embedded = 0 AND text_sha256 = ?2",
                    )
                    .map_err(db)?;
                let mut window_insert = tx
                    .prepare_cached(
                        "INSERT INTO chunk_windows (chunk_id, position, start, end) \
                         VALUES (?1, ?2, ?3, ?4)",
                    )
                    .map_err(db)?;
                let mut vector_insert = tx
                    .prepare_cached(
                        "INSERT INTO chunk_vectors (window_id, scope, kind, tag, time, chunk_id, \
                         embedding) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    )
                    .map_err(db)?;
                let mut done = tx
                    .prepare_cached("UPDATE chunks SET embedded = 1 WHERE id = ?1")
                    .map_err(db)?;
                for ((id, _, hash, _), ranges) in batch.iter().zip(&windows) {
                    let chunk_vectors: Vec<Vec<f32>> =
                        vectors.by_ref().take(ranges.len()).collect();
                    // Changed or embedded by someone else since it was read: leave it.
                    let Some((scope, kind, tag, time)) = current
                        .query_row(params![id, hash], |r| {
                            Ok((
                                r.get::<_, String>(0)?,
                                r.get::<_, String>(1)?,
                                r.get::<_, String>(2)?,
                                r.get::<_, i64>(3)?,
                            ))
                        })
                        .optional()
                        .map_err(db)?
                    else {
                        continue;
                    };
                    self.drop_vectors(&tx, *id)?;
                    for (position, (range, vector)) in ranges.iter().zip(&chunk_vectors).enumerate()
                    {
                        window_insert
                            .execute(params![
                                id,
                                position as i64,
                                range.start as i64,
                                range.end as i64
                            ])
                            .map_err(db)?;
                        let window_id = tx.last_insert_rowid();
                        vector_insert
                            .execute(params![
                                window_id,
                                scope,
                                kind,
                                tag,
                                time,
                                id,
                                vector_blob(vector)
                            ])
                            .map_err(db)?;
                        stats.windows += 1;
                    }
                    done.execute([id]).map_err(db)?;
                    stats.chunks += 1;
                }
            }
            tx.commit().map_err(db)?;
            progress(stats.chunks, total)?;
        }
        if stats.windows > 0 {
            // Until a checkpoint copies them into the file, every read finds the new
            // vectors in the WAL (a lookup and a `pread` per page) rather than through
            // the memory map — and a KNN reads every vector.
            self.db.checkpoint();
        }
        Ok(stats)
    }

    /// Search the store. `query_vector` is the query's embedding; it is needed for the
    /// vector list and ignored in keyword mode. In hybrid mode without it, the keyword
    /// list alone is ranked.
    pub fn search(
        &self,
        search: &Search,
        query_vector: Option<&[f32]>,
        warnings: &mut Vec<String>,
    ) -> Result<Vec<Hit>> {
        self.run(search, query_vector, false, warnings)
            .map(|(hits, _)| hits)
    }

    /// [`ChunkStore::search`], and the [`Evidence`] of its candidates, for a caller that
    /// judges whether anything found is about the query at all.
    pub fn search_with_evidence(
        &self,
        search: &Search,
        query_vector: Option<&[f32]>,
        warnings: &mut Vec<String>,
    ) -> Result<(Vec<Hit>, Evidence)> {
        self.run(search, query_vector, true, warnings)
    }

    fn run(
        &self,
        search: &Search,
        query_vector: Option<&[f32]>,
        weigh: bool,
        warnings: &mut Vec<String>,
    ) -> Result<(Vec<Hit>, Evidence)> {
        if search.mode == Mode::Vector && query_vector.is_none() {
            return Err(Error::invalid(
                "search",
                "vector mode needs the embedding model, and none is available",
            ));
        }
        if search.limit == 0 {
            return Ok((Vec::new(), Evidence::default()));
        }
        let candidates = search.candidates.max(search.limit);
        let conn = self.db.read(warnings)?;
        let want_keyword = search.mode != Mode::Vector;
        let vector_query = if search.mode == Mode::Keyword {
            None
        } else {
            query_vector
        };
        // The query's words: what the keyword list asks for, and what coverage counts.
        let words = crate::text::query_words(&search.text);
        let keyword_list = |conn: &rusqlite::Connection| {
            self.keyword_list(conn, &words, &search.filter, candidates)
        };
        let (keyword, vector): (Vec<i64>, Vec<(i64, f64, i64)>) = match vector_query {
            // Both lists: the keyword list on another connection, on another core.
            Some(query) if want_keyword => {
                let (keyword, vector) = std::thread::scope(|scope| {
                    let keyword = scope.spawn(|| -> Result<(Vec<i64>, Vec<String>)> {
                        let mut side_warnings = Vec::new();
                        let side = self.db.read(&mut side_warnings)?;
                        Ok((keyword_list(&side)?, side_warnings))
                    });
                    let vector = self.vector_list(&conn, query, &search.filter, candidates);
                    (keyword.join(), vector)
                });
                let (keyword, side_warnings) = keyword
                    .map_err(|_| Error::Internal("the keyword search thread panicked".into()))??;
                warnings.extend(side_warnings);
                (keyword, vector?)
            }
            Some(query) => (
                Vec::new(),
                self.vector_list(&conn, query, &search.filter, candidates)?,
            ),
            None if want_keyword => (keyword_list(&conn)?, Vec::new()),
            None => (Vec::new(), Vec::new()),
        };
        let vector_ids: Vec<i64> = vector.iter().map(|v| v.0).collect();
        let fused = rank::fuse(
            &[
                RankedList {
                    ids: &keyword,
                    weight: search.keyword_weight,
                },
                RankedList {
                    ids: &vector_ids,
                    weight: search.vector_weight,
                },
            ],
            search.rrf_k,
        );
        let evidence = if weigh {
            self.evidence(&conn, &words, &keyword, &vector)?
        } else {
            Evidence::default()
        };
        if fused.is_empty() {
            return Ok((Vec::new(), evidence));
        }
        // Kind, time and key of every candidate, for the factors and the tie-break.
        let ids_json = serde_json::to_string(&fused.keys().collect::<Vec<_>>())
            .map_err(|e| Error::Internal(e.to_string()))?;
        let db = |e| Error::db(self.path(), e);
        let mut rows: Vec<(i64, String, f64)> = {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT id, key, kind, time FROM chunks \
                     WHERE id IN (SELECT value FROM json_each(?1))",
                )
                .map_err(db)?;
            stmt.query_map([&ids_json], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                ))
            })
            .map_err(db)?
            .map(|row| {
                row.map(|(id, key, kind, time)| {
                    let mut score = fused.get(&id).copied().unwrap_or(0.0)
                        * rank::kind_weight(&search.kind_weights, &kind);
                    if let Some(recency) = &search.recency {
                        score *= recency.factor(time);
                    }
                    (id, key, score)
                })
            })
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?
        };
        rows.sort_by(|a, b| rank::order((a.2, &a.1), (b.2, &b.1)));
        if search.coverage_weight > 0.0 && want_keyword && !words.is_empty() {
            // Only a candidate the largest factor could lift into the results is looked
            // at: those scoring at least the last result's score / (1 + weight).
            let top = 1.0 + search.coverage_weight;
            let floor = rows.get(search.limit - 1).map_or(f64::MIN, |r| r.2 / top);
            let contenders = rows.iter().take_while(|r| r.2 >= floor).count();
            let ids: Vec<i64> = rows[..contenders].iter().map(|r| r.0).collect();
            let held = self.coverage(&conn, &words, &ids)?;
            for row in &mut rows[..contenders] {
                let share = held.get(&row.0).copied().unwrap_or(0) as f64 / words.len() as f64;
                row.2 *= 1.0 + search.coverage_weight * share.powi(COVERAGE_POWER);
            }
            rows.sort_by(|a, b| rank::order((a.2, &a.1), (b.2, &b.1)));
        }
        rows.truncate(search.limit);

        let keyword_rank: HashMap<i64, usize> = keyword
            .iter()
            .enumerate()
            .map(|(i, id)| (*id, i + 1))
            .collect();
        let vector_rank: HashMap<i64, (usize, f64, i64)> = vector
            .iter()
            .enumerate()
            .map(|(i, (id, distance, window))| (*id, (i + 1, *distance, *window)))
            .collect();
        let mut hits = Vec::with_capacity(rows.len());
        let mut fetch = conn
            .prepare_cached(
                "SELECT source, scope, kind, tag, time, title, text, meta, \
                 (SELECT count(*) FROM chunk_windows w WHERE w.chunk_id = c.id) \
                 FROM chunks c WHERE id = ?1",
            )
            .map_err(db)?;
        let mut window_range = conn
            .prepare_cached("SELECT start, end FROM chunk_windows WHERE id = ?1")
            .map_err(db)?;
        for (id, key, score) in rows {
            let (source, scope, kind, tag, time, title, text, meta, window_count) = fetch
                .query_row([id], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, String>(6)?,
                        r.get::<_, String>(7)?,
                        r.get::<_, i64>(8)?,
                    ))
                })
                .map_err(db)?;
            let vector_hit = vector_rank.get(&id);
            let window = match vector_hit {
                Some((_, _, window)) if window_count > 1 => window_range
                    .query_row([window], |r| {
                        Ok((r.get::<_, i64>(0)? as usize, r.get::<_, i64>(1)? as usize))
                    })
                    .optional()
                    .map_err(db)?,
                _ => None,
            };
            hits.push(Hit {
                key,
                source,
                scope,
                kind,
                tag,
                time,
                title,
                text,
                meta,
                score,
                keyword_rank: keyword_rank.get(&id).copied(),
                vector_rank: vector_hit.map(|v| v.0),
                similarity: vector_hit.map(|v| 1.0 - v.1 * v.1 / 2.0),
                window,
            });
        }
        Ok((hits, evidence))
    }

    /// [`Evidence`] of a search: the nearest chunk's similarity, and the largest share of
    /// the query's words, weighted by rarity, that a chunk of the keyword list holds.
    fn evidence(
        &self,
        conn: &rusqlite::Connection,
        words: &[String],
        keyword: &[i64],
        vector: &[(i64, f64, i64)],
    ) -> Result<Evidence> {
        let db = |e| Error::db(self.path(), e);
        let mut evidence = Evidence {
            // The vector list is nearest first.
            similarity: vector.first().map(|v| 1.0 - v.1 * v.1 / 2.0),
            word_weight: None,
        };
        if words.is_empty() || keyword.is_empty() {
            return Ok(evidence);
        }
        let total: i64 = conn
            .query_row("SELECT count(*) FROM chunks", [], |r| r.get(0))
            .map_err(db)?;
        // Each word's chunks, read once (a lookup per chunk and word costs twenty times
        // more): how many hold it, and which of the keyword list.
        let mut holding = conn
            .prepare_cached("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?1")
            .map_err(db)?;
        let listed: HashMap<i64, usize> =
            keyword.iter().enumerate().map(|(i, id)| (*id, i)).collect();
        let mut weights = vec![0.0_f64; keyword.len()];
        let mut all = 0.0;
        for expression in words.iter().filter_map(|w| crate::text::fts5_any_of([w])) {
            let mut df = 0_usize;
            let mut held = Vec::new();
            let mut rows = holding.query([&expression]).map_err(db)?;
            while let Some(row) = rows.next().map_err(db)? {
                df += 1;
                if let Some(&at) = listed.get(&row.get::<_, i64>(0).map_err(db)?) {
                    held.push(at);
                }
            }
            let idf = ((total as f64 + 1.0) / (df as f64 + 0.5)).ln().max(0.0);
            all += idf;
            for at in held {
                weights[at] += idf;
            }
        }
        if all > 0.0 {
            evidence.word_weight = Some(weights.into_iter().fold(0.0, f64::max) / all);
        }
        Ok(evidence)
    }

    /// How many of `words` each of `ids` holds, as FTS5 reads them (stemmed, in title or
    /// text): one rowid lookup per chunk and word.
    fn coverage(
        &self,
        conn: &rusqlite::Connection,
        words: &[String],
        ids: &[i64],
    ) -> Result<HashMap<i64, usize>> {
        let db = |e| Error::db(self.path(), e);
        let mut stmt = conn
            .prepare_cached("SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ?1 AND rowid = ?2")
            .map_err(db)?;
        let mut held: HashMap<i64, usize> = HashMap::new();
        for expression in words.iter().filter_map(|w| crate::text::fts5_any_of([w])) {
            for &id in ids {
                if stmt.exists(params![expression, id]).map_err(db)? {
                    *held.entry(id).or_default() += 1;
                }
            }
        }
        Ok(held)
    }

    /// Chunk ids holding any of `words` (the query's [`crate::text::query_words`]), by
    /// BM25 (title weighted 2, text 1), best first (equal
    /// scores: the newer first, so recency never loses a tie), the FTS5 match run first
    /// and the filters after it.
    fn keyword_list(
        &self,
        conn: &rusqlite::Connection,
        words: &[String],
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<i64>> {
        let Some(expression) = crate::text::fts5_any_of(words) else {
            return Ok(Vec::new());
        };
        let db = |e| Error::db(self.path(), e);
        let mut stmt = conn
            .prepare_cached(&format!(
                "WITH fts AS MATERIALIZED ( \
                   SELECT rowid AS id, bm25(chunks_fts, 2.0, 1.0) AS score \
                   FROM chunks_fts WHERE chunks_fts MATCH :match \
                 ) \
                 SELECT fts.id FROM fts JOIN chunks c ON c.id = fts.id \
                 WHERE {FILTER_SQL} \
                 ORDER BY fts.score, c.time DESC, c.key LIMIT :limit"
            ))
            .map_err(db)?;
        let values = filter.values()?;
        let limit = limit as i64;
        stmt.query_map(
            named(&values, &[(":match", &expression), (":limit", &limit)]).as_slice(),
            |r| r.get(0),
        )
        .map_err(db)?
        .collect::<rusqlite::Result<_>>()
        .map_err(db)
    }

    /// Chunks nearest to `query` as (chunk id, L2 distance of its best window, that
    /// window's id), nearest first. The filters are constraints of the KNN itself (one
    /// KNN per scope when scopes are given), so `limit` chunks come back whenever that
    /// many match the filters.
    fn vector_list(
        &self,
        conn: &rusqlite::Connection,
        query: &[f32],
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<(i64, f64, i64)>> {
        if query.len() != VECTOR_DIMS {
            return Err(Error::Internal(format!(
                "query vector has {} dimensions, the store {VECTOR_DIMS}",
                query.len()
            )));
        }
        let db = |e| Error::db(self.path(), e);
        // Only the window and its distance: sqlite-vec reads an auxiliary or metadata
        // column of a result with a query of its own per row; the chunk and its time
        // come from `chunk_windows` and `chunks` (the vectors of a chunk whose time
        // changed are dropped, so the two agree).
        let mut sql = String::from(
            "SELECT window_id, distance FROM chunk_vectors WHERE embedding MATCH ? AND k = ?",
        );
        let mut values: Vec<rusqlite::types::Value> = Vec::new();
        let scopes: Vec<Option<&String>> = match &filter.scopes {
            Some(scopes) => {
                sql.push_str(" AND scope = ?");
                scopes.iter().map(Some).collect()
            }
            None => vec![None],
        };
        for (column, list) in [("kind", &filter.kinds), ("tag", &filter.tags)] {
            if let Some(list) = list {
                if list.is_empty() {
                    return Ok(Vec::new());
                }
                sql.push_str(&format!(
                    " AND {column} IN ({})",
                    vec!["?"; list.len()].join(", ")
                ));
                values.extend(list.iter().cloned().map(rusqlite::types::Value::Text));
            }
        }
        if let Some(since) = filter.since {
            sql.push_str(" AND time >= ?");
            values.push(since.into());
        }
        if let Some(until) = filter.until {
            sql.push_str(" AND time <= ?");
            values.push(until.into());
        }
        let blob = vector_blob(query);
        // Windows, not chunks, are the neighbours: ask for as many more as the store has
        // windows per chunk (its largest ids tell, in two lookups), so that one pass
        // usually finds `limit` chunks.
        let (windows, chunks): (Option<i64>, Option<i64>) = conn
            .query_row(
                "SELECT (SELECT max(id) FROM chunk_windows), (SELECT max(id) FROM chunks)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(db)?;
        let per_chunk = match (windows, chunks) {
            (Some(w), Some(c)) if c > 0 => (w.max(1) as usize).div_ceil(c as usize).clamp(1, 8),
            _ => 1,
        };
        let mut k = (limit * per_chunk).min(MAX_KNN);
        loop {
            // chunk → (distance, window, time) of its nearest window.
            let mut best: HashMap<i64, (f64, i64, i64)> = HashMap::new();
            let mut exhausted = true;
            for scope in &scopes {
                let mut stmt = conn.prepare_cached(&sql).map_err(db)?;
                let mut bound: Vec<rusqlite::types::Value> =
                    vec![blob.clone().into(), (k as i64).into()];
                if let Some(scope) = scope {
                    bound.push((*scope).clone().into());
                }
                bound.extend(values.iter().cloned());
                let rows: Vec<(i64, f64)> = stmt
                    .query_map(rusqlite::params_from_iter(bound), |r| {
                        Ok((r.get(0)?, r.get(1)?))
                    })
                    .map_err(db)?
                    .collect::<rusqlite::Result<_>>()
                    .map_err(db)?;
                if rows.len() == k {
                    exhausted = false;
                }
                let mut chunk_of = conn
                    .prepare_cached(
                        "SELECT w.id, w.chunk_id, c.time FROM json_each(?1) j \
                         JOIN chunk_windows w ON w.id = j.value JOIN chunks c ON c.id = w.chunk_id",
                    )
                    .map_err(db)?;
                let ids = serde_json::to_string(&rows.iter().map(|r| r.0).collect::<Vec<i64>>())
                    .unwrap_or_default();
                let of: HashMap<i64, (i64, i64)> = chunk_of
                    .query_map([ids], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))
                    .map_err(db)?
                    .collect::<rusqlite::Result<_>>()
                    .map_err(db)?;
                for (window, distance) in rows {
                    let Some(&(chunk, time)) = of.get(&window) else {
                        continue;
                    };
                    let entry = best.entry(chunk).or_insert((distance, window, time));
                    if (distance, window) < (entry.0, entry.1) {
                        *entry = (distance, window, time);
                    }
                }
            }
            if best.len() >= limit || exhausted || k >= MAX_KNN {
                let mut list: Vec<(i64, (f64, i64, i64))> = best.into_iter().collect();
                // Equally near: the newer first (as in the keyword list), then by id.
                list.sort_by(|a, b| {
                    (a.1.0.total_cmp(&b.1.0))
                        .then(b.1.2.cmp(&a.1.2))
                        .then(a.0.cmp(&b.0))
                });
                list.truncate(limit);
                return Ok(list.into_iter().map(|(c, (d, w, _))| (c, d, w)).collect());
            }
            // As many windows again per chunk as this pass found, and at least twice as
            // many: a store whose chunks have hundreds of windows (a long section) gets
            // its chunks in one more pass, not in one pass per doubling.
            let per_chunk = k.div_ceil(best.len().max(1));
            k = (limit * per_chunk).max(k * 2).min(MAX_KNN);
        }
    }
}

/// A vector as sqlite-vec reads it: little-endian f32s.
fn vector_blob(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The engine's model for a search in `mode`, or `None` when the search can run
/// without one: keyword mode, or hybrid mode when no model is available — then the
/// search runs keyword-only and `warnings` says so (once per engine, so a surface shows
/// it once). Vector mode without a model is an error.
pub fn embedder_for(
    engine: &Engine,
    mode: Mode,
    warnings: &mut Vec<String>,
) -> Result<Option<std::sync::Arc<dyn Embedder>>> {
    match mode {
        Mode::Keyword => Ok(None),
        Mode::Vector => engine.embedder().map(Some),
        Mode::Hybrid => match engine.embedder() {
            Ok(embedder) => Ok(Some(embedder)),
            Err(e) => {
                if engine.note_model_missing() {
                    warnings.push(format!("keyword-only search: no embedding model ({e})"));
                }
                Ok(None)
            }
        },
    }
}

/// The query vector a search in `mode` needs, and the mode it will really run in:
/// keyword mode needs none; hybrid mode without a model runs keyword-only (and says so
/// once, see [`embedder_for`]).
pub fn query_vector_for(
    engine: &Engine,
    mode: Mode,
    text: &str,
    warnings: &mut Vec<String>,
) -> Result<(Option<Vec<f32>>, Mode)> {
    let vector = embedder_for(engine, mode, warnings)?
        .map(|e| query_vector(e.as_ref(), text))
        .transpose()?;
    let used = match (mode, &vector) {
        (Mode::Hybrid, None) => Mode::Keyword,
        (mode, _) => mode,
    };
    Ok((vector, used))
}

/// What [`note_unembedded`]'s warning says (a server that embeds them in the background
/// drops it: see `mcp::answers`).
pub const UNEMBEDDED: &str = "have no vectors yet";

/// Warn when a search in `mode` uses vectors and some of the chunks `filter` selects have
/// none yet (an index run was stopped, or ran without the model): the vector side cannot
/// see them. `what` names them (`sections`), `fix` is the command that embeds them.
pub fn note_unembedded(
    store: &ChunkStore,
    filter: &Filter,
    mode: Mode,
    what: &str,
    fix: &str,
    warnings: &mut Vec<String>,
) -> Result<()> {
    if mode == Mode::Keyword {
        return Ok(());
    }
    let pending = store.pending(filter, warnings)?;
    if pending > 0 {
        warnings.push(format!(
            "{pending} {what} {UNEMBEDDED}, so search by meaning misses them: \
             run `{fix}` to embed them"
        ));
    }
    Ok(())
}

/// After an index run: embed what `store` has pending among the chunks `only` selects
/// (the run's own project and branch) with the engine's model, reporting progress (stage
/// `embed`). Without a model nothing happens (the chunks wait, and the missing model is
/// reported once). Returns the windows the model embedded.
pub fn embed_pending_with_engine(
    engine: &Engine,
    store: &ChunkStore,
    only: &Filter,
    warnings: &mut Vec<String>,
) -> Result<usize> {
    let Some(embedder) = embedder_for(engine, Mode::Hybrid, warnings)? else {
        return Ok(0);
    };
    let stats = store.embed_pending(
        embedder.as_ref(),
        engine.embedding_cache(),
        only,
        &mut |done, total| crate::progress::report("embed", done, total),
        warnings,
    )?;
    Ok(stats.embedded)
}

/// The query's vector with `embedder` (not cached: queries are rarely repeated, and a
/// search should not write).
pub fn query_vector(embedder: &dyn Embedder, text: &str) -> Result<Vec<f32>> {
    embedder
        .embed(&[text])?
        .pop()
        .ok_or_else(|| Error::Internal("the model returned no vector for the query".into()))
}
