//! all-MiniLM-L6-v2 on candle's BERT, computing what sentence-transformers computes.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config as BertConfig};
use tokenizers::{Tokenizer, TruncationParams};

use super::Embedder;
use crate::error::{Error, Result};

/// The model's name, the first half of every cache key.
pub const MODEL_ID: &str = "sentence-transformers/all-MiniLM-L6-v2";
/// The longest input the model reads, in word pieces including `[CLS]` and `[SEP]`
/// (sentence-transformers' `max_seq_length`); longer texts are cut there.
pub const MAX_WORD_PIECES: usize = 256;
/// Texts run through the model together.
const BATCH: usize = 32;

/// The files a model directory must hold.
pub const MODEL_FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

/// all-MiniLM-L6-v2 on candle's CPU backend: word pieces (at most
/// [`MAX_WORD_PIECES`]), BERT, the mean of the token vectors under the attention mask,
/// L2-normalised — sentence-transformers' pipeline for this model.
///
/// Texts are sorted by length and run in batches of 32, each padded only to its
/// longest text; results come back in input order. candle's matrix products use every
/// core (`RAYON_NUM_THREADS` or `CANDLE_NUM_THREADS` set the number).
pub struct MiniLm {
    model: BertModel,
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

fn internal(e: candle_core::Error) -> Error {
    Error::Internal(format!("embedding: {e}"))
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
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| broken(&weights_path, e))?;
        let model = BertModel::load(vb, &config).map_err(|e| broken(&weights_path, e))?;
        Ok(MiniLm {
            model,
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
        let rows = encodings.len();
        let width = encodings
            .iter()
            .map(|e| e.get_ids().len())
            .max()
            .unwrap_or(0)
            .max(1);
        let mut ids = vec![0u32; rows * width];
        let mut types = vec![0u32; rows * width];
        let mut mask = vec![0u32; rows * width];
        for (row, encoding) in encodings.iter().enumerate() {
            let start = row * width;
            for (k, (&id, &ty)) in encoding
                .get_ids()
                .iter()
                .zip(encoding.get_type_ids())
                .enumerate()
            {
                ids[start + k] = id;
                types[start + k] = ty;
                mask[start + k] = 1;
            }
        }
        let device = &Device::Cpu;
        let ids = Tensor::from_vec(ids, (rows, width), device).map_err(internal)?;
        let types = Tensor::from_vec(types, (rows, width), device).map_err(internal)?;
        let mask = Tensor::from_vec(mask, (rows, width), device).map_err(internal)?;
        let hidden = self
            .model
            .forward(&ids, &types, Some(&mask))
            .map_err(internal)?;
        let pooled = (|| {
            let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
            let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
            let counts = mask.sum(1)?.clamp(1e-9f32, f32::MAX)?;
            let mean = summed.broadcast_div(&counts)?;
            let norm = mean
                .sqr()?
                .sum_keepdim(1)?
                .sqrt()?
                .clamp(1e-12f32, f32::MAX)?;
            mean.broadcast_div(&norm)?.to_vec2::<f32>()
        })()
        .map_err(internal)?;
        Ok(pooled)
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
