//! The `embed.text` operation: sentence vectors for callers that keep their own, from
//! the engine's model through its vector cache. The model, the cache and the windows
//! are [`crate::embed`]'s; this is their face in the operation table.

use serde::{Deserialize, Serialize};

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{Operation, PathParam};

/// Parameters of [`Text`] (`embed.text`).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TextRequest {
    /// The texts to embed. Each is cut at 256 word pieces, as sentence-transformers does.
    pub texts: Vec<String>,
    /// Read and fill the engine's vector cache (`embeddings.db`), so a text already
    /// embedded is not embedded again. Default true.
    pub cached: bool,
}

impl Default for TextRequest {
    fn default() -> Self {
        TextRequest {
            texts: Vec::new(),
            cached: true,
        }
    }
}

/// Result of [`Text`] (`embed.text`).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TextResponse {
    /// One L2-normalised vector per text, in the order of the request.
    pub vectors: Vec<Vec<f32>>,
    /// The model that made them.
    pub model_id: String,
    /// The length of each vector.
    pub dims: usize,
    /// How many distinct texts the model embedded now; the others came from the cache.
    pub embedded: usize,
    /// Anything worth telling the caller (a cache database rebuilt after corruption).
    pub warnings: Vec<String>,
}

/// `embed.text`: sentence vectors (all-MiniLM-L6-v2, 384 dims, L2-normalised) for a
/// list of texts.
pub struct Text;

/// Most texts one `embed.text` request may hold.
pub const MAX_TEXTS: usize = 10_000;

impl Operation for Text {
    const NAME: &'static str = "embed.text";
    const SUMMARY: &'static str = "Embed texts with all-MiniLM-L6-v2 (384-dim L2-normalised sentence vectors, as sentence-transformers computes them; texts cut at 256 word pieces), reusing cached vectors.";
    type Request = TextRequest;
    type Response = TextResponse;
    const PATH_PARAMS: &'static [PathParam] = &[];

    fn run(engine: &Engine, request: TextRequest) -> Result<TextResponse> {
        if request.texts.len() > MAX_TEXTS {
            return Err(Error::invalid(
                Self::NAME,
                format!(
                    "{} texts; at most {MAX_TEXTS} per request",
                    request.texts.len()
                ),
            ));
        }
        let embedder = engine.embedder()?;
        let texts: Vec<&str> = request.texts.iter().map(String::as_str).collect();
        let mut warnings = Vec::new();
        let (vectors, embedded) = if request.cached {
            let cached =
                engine
                    .embedding_cache()
                    .embed_cached(embedder.as_ref(), &texts, &mut warnings)?;
            (cached.vectors, cached.embedded)
        } else {
            (embedder.embed(&texts)?, texts.len())
        };
        Ok(TextResponse {
            vectors,
            model_id: embedder.model_id().to_string(),
            dims: embedder.dims(),
            embedded,
            warnings,
        })
    }
}
