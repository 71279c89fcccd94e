//! all-MiniLM-L6-v2 on our own BERT forward pass ([`super::bert`]), computing what
//! sentence-transformers computes.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tokenizers::{Tokenizer, TruncationParams};

use super::Embedder;
use super::bert::{Bert, Config as BertConfig, Workspace};
use super::model::{MODEL_FILES, MODEL_ID};
use crate::error::{Error, Result};

/// The longest input the model reads, in word pieces including `[CLS]` and `[SEP]`
/// (sentence-transformers' `max_seq_length`); longer texts are cut there.
pub const MAX_WORD_PIECES: usize = 256;
/// Texts run through the model together.
const BATCH: usize = 32;

/// all-MiniLM-L6-v2 on the CPU: word pieces (at most [`MAX_WORD_PIECES`]), BERT, the
/// mean of the token vectors, L2-normalised — sentence-transformers' pipeline for this
/// model.
///
/// Texts are sorted by length and run in batches of 32, without padding (see
/// `bert/`); results come back in input order. The work is spread over rayon's
/// threads (`RAYON_NUM_THREADS` sets their number). The kernels are picked at run time
/// for the CPU (AVX-512, else AVX2+FMA, else portable; `$CC_SEARCH_EMBED_ISA` = `avx2` or
/// `base` forces a lesser one). A text's vector is bit-identical whatever batch it is
/// embedded in and however many threads run, on a given kernel set (AVX-512 and AVX2
/// give the same bits; the portable one differs by ~1e-7).
pub struct MiniLm {
    model: Bert,
    /// Buffers reused from batch to batch (a concurrent caller gets fresh ones).
    workspace: Mutex<Workspace>,
    tokenizer: Tokenizer,
    /// The same tokenizer without truncation, for [`Embedder::windows`].
    splitter: Tokenizer,
    dims: usize,
    dir: PathBuf,
}

impl std::fmt::Debug for MiniLm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniLm")
            .field("dir", &self.dir)
            .field("dims", &self.dims)
            .finish_non_exhaustive()
    }
}

fn broken(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::io(
        path,
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not a usable all-MiniLM-L6-v2 model file: {message}"),
        ),
    )
}

impl MiniLm {
    /// Load the model from `dir`, a directory holding `config.json`, `tokenizer.json`
    /// and `model.safetensors` (a sentence-transformers or Hugging Face snapshot).
    ///
    /// A missing or damaged file is an [`Error::Io`] naming it; nothing panics.
    pub fn load(dir: &Path) -> Result<MiniLm> {
        let meta = std::fs::metadata(dir).map_err(|e| Error::io(dir, e))?;
        if !meta.is_dir() {
            return Err(broken(dir, "not a directory"));
        }
        for name in MODEL_FILES {
            let path = dir.join(name);
            if !path.is_file() {
                return Err(Error::io(
                    &path,
                    std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        format!("the model directory lacks {name}"),
                    ),
                ));
            }
        }
        let config_path = dir.join("config.json");
        let text = std::fs::read(&config_path).map_err(|e| Error::io(&config_path, e))?;
        let config: BertConfig =
            serde_json::from_slice(&text).map_err(|e| broken(&config_path, e))?;
        config.check().map_err(|e| broken(&config_path, e))?;
        let dims = config.hidden_size;

        let tokenizer_path = dir.join("tokenizer.json");
        let mut tokenizer =
            Tokenizer::from_file(&tokenizer_path).map_err(|e| broken(&tokenizer_path, e))?;
        // tokenizer.json pads every text to 128 pieces and cuts at 128: batches are padded
        // here instead (to their longest text), and texts cut at the model's 256.
        tokenizer.with_padding(None);
        let mut splitter = tokenizer.clone();
        splitter
            .with_truncation(None)
            .map_err(|e| broken(&tokenizer_path, e))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_WORD_PIECES,
                ..Default::default()
            }))
            .map_err(|e| broken(&tokenizer_path, e))?;

        let weights_path = dir.join("model.safetensors");
        let weights = std::fs::read(&weights_path).map_err(|e| Error::io(&weights_path, e))?;
        let model = Bert::load(config, weights).map_err(|e| broken(&weights_path, e))?;
        if model.max_positions() < MAX_WORD_PIECES {
            return Err(broken(
                &config_path,
                format!("max_position_embeddings below {MAX_WORD_PIECES}"),
            ));
        }
        Ok(MiniLm {
            model,
            workspace: Mutex::new(Workspace::default()),
            tokenizer,
            splitter,
            dims,
            dir: dir.to_path_buf(),
        })
    }

    /// The directory the model was loaded from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The instruction set the forward pass runs on: `avx512`, `avx2` or `base` (the
    /// CPU's best, or a lesser one named by `$CC_SEARCH_EMBED_ISA`).
    pub fn kernels(&self) -> &'static str {
        self.model.isa_name()
    }

    /// The word pieces the model reads for `text` (with `[CLS]` and `[SEP]`, cut at
    /// [`MAX_WORD_PIECES`]).
    pub fn word_pieces(&self, text: &str) -> Result<Vec<u32>> {
        let encoding = self
            .tokenizer
            .encode(text, true)
            .map_err(|e| Error::Internal(format!("tokenizing: {e}")))?;
        Ok(encoding.get_ids().to_vec())
    }

    fn embed_batch(&self, encodings: &[&tokenizers::Encoding]) -> Result<Vec<Vec<f32>>> {
        let seqs: Vec<&[u32]> = encodings.iter().map(|e| e.get_ids()).collect();
        let run = |ws: &mut Workspace| {
            self.model
                .embed(&seqs, ws)
                .map_err(|e| Error::Internal(format!("embedding: {e}")))
        };
        match self.workspace.try_lock() {
            Ok(mut ws) => run(&mut ws),
            Err(std::sync::TryLockError::Poisoned(p)) => run(&mut p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => run(&mut Workspace::default()),
        }
    }
}

impl Embedder for MiniLm {
    /// Windows of at most 256 word pieces (with `[CLS]` and `[SEP]`) overlapping by
    /// [`super::WINDOW_OVERLAP`], narrowed to whole words.
    fn windows(&self, text: &str) -> Result<Vec<std::ops::Range<usize>>> {
        let encoding = self
            .splitter
            .encode(text, false)
            .map_err(|e| Error::Internal(format!("tokenizing: {e}")))?;
        Ok(super::piece_windows(
            text,
            encoding.get_offsets(),
            MAX_WORD_PIECES - 2,
        ))
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| Error::Internal(format!("tokenizing: {e}")))?;
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| (encodings[i].get_ids().len(), i));
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        for batch in order.chunks(BATCH) {
            // A batch of long texts takes a fraction of a second: a cancelled run stops
            // between them.
            crate::progress::checkpoint()?;
            let batch_encodings: Vec<&tokenizers::Encoding> =
                batch.iter().map(|&i| &encodings[i]).collect();
            let vectors = self.embed_batch(&batch_encodings)?;
            if vectors.len() != batch.len() {
                return Err(Error::Internal(format!(
                    "embedding: {} vectors for {} texts",
                    vectors.len(),
                    batch.len()
                )));
            }
            for (&i, vector) in batch.iter().zip(vectors) {
                out[i] = vector;
            }
        }
        Ok(out)
    }

    fn dims(&self) -> usize {
        self.dims
    }

    fn model_id(&self) -> &str {
        MODEL_ID
    }
}
