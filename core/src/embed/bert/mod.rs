//! A BERT encoder forward pass for CPU inference (all-MiniLM-L6-v2 and other BERTs of
//! the same shape), written for speed on the machines cc-search runs on.
//!
//! - Weights come from `model.safetensors` (F32), read with our own parser, and every
//!   matrix is packed once at load into 32-column panels ([`Packed`]), all of them in one
//!   mapping backed by huge pages where the system has them ([`Arena`]); Q, K and V are
//!   one `hidden × 3·hidden` product.
//! - Sequences are not padded: the tokens of a batch are laid end to end, the dense layers
//!   run on all of them at once, and attention runs per (sequence, head) over that
//!   sequence's own tokens. Masked padding contributes exactly zero in the reference, so
//!   the result is the same computation without the wasted work.
//! - Matrix products use register-blocked micro-kernels: AVX-512 (12 × 32 tiles) where
//!   the CPU has it, else AVX2+FMA (6 × 16), else portable Rust the compiler vectorises
//!   (SSE2, NEON), chosen at run time ([`Isa::detect`]); element-wise kernels are
//!   portable Rust compiled once per instruction set. Rows are split over rayon's threads;
//!   a question's few rows are one chunk, so its products split their columns instead
//!   ([`matmul_columns`]).
//! - GELU uses the erf approximation torch's vectorised CPU kernel uses (Abramowitz &
//!   Stegun 7.1.26, |error| ≤ 1.5e-7), exp a Cephes-style polynomial (≤ 2 ulp).
//!
//! Determinism: every output element of a product is one accumulator summed over k in
//! ascending order (then + bias), and every other step works on one row, one sequence or
//! one (sequence, head); how rows are split among threads or batched together does not
//! change any rounding. So a text's vector is bit-identical whatever batch it is in, for
//! any thread count. The AVX-512 and AVX2 paths compute the same operations in the same
//! order (bit-identical too); the portable path rounds differently on x86-64 (no FMA,
//! ~1e-7).
//!
//! By concern: `kernels` (the instruction sets, packed matrices and the matrix product),
//! `math` (the element-wise kernels: exp, erf, GELU, softmax, LayerNorm), `safetensors`
//! (the weights file), and here the model and its forward pass.

mod isa;
mod kernels;
mod math;
mod safetensors;

use rayon::prelude::*;

use isa::*;
use kernels::*;
use math::*;
use safetensors::SafeTensors;

/// The fields of a BERT `config.json` the forward pass needs.
#[derive(Debug, Clone, serde::Deserialize)]
pub(crate) struct Config {
    pub(crate) hidden_size: usize,
    pub(crate) num_hidden_layers: usize,
    pub(crate) num_attention_heads: usize,
    pub(crate) intermediate_size: usize,
    #[serde(default = "default_eps")]
    pub(crate) layer_norm_eps: f64,
    pub(crate) vocab_size: usize,
    #[serde(default = "default_positions")]
    pub(crate) max_position_embeddings: usize,
    #[serde(default = "default_types")]
    pub(crate) type_vocab_size: usize,
    #[serde(default = "default_act")]
    pub(crate) hidden_act: String,
    #[serde(default = "default_position_type")]
    pub(crate) position_embedding_type: String,
}

fn default_eps() -> f64 {
    1e-12
}
fn default_positions() -> usize {
    512
}
fn default_types() -> usize {
    2
}
fn default_act() -> String {
    "gelu".into()
}
fn default_position_type() -> String {
    "absolute".into()
}

impl Config {
    pub(crate) fn check(&self) -> std::result::Result<(), String> {
        if self.hidden_size == 0
            || self.num_attention_heads == 0
            || !self.hidden_size.is_multiple_of(self.num_attention_heads)
        {
            return Err(format!(
                "hidden_size {} is not a multiple of num_attention_heads {}",
                self.hidden_size, self.num_attention_heads
            ));
        }
        if self.hidden_act != "gelu" {
            return Err(format!("hidden_act {:?} (only \"gelu\")", self.hidden_act));
        }
        if self.position_embedding_type != "absolute" {
            return Err(format!(
                "position_embedding_type {:?} (only \"absolute\")",
                self.position_embedding_type
            ));
        }
        Ok(())
    }
}

#[derive(Debug)]
struct Linear {
    weight: Packed,
    bias: Vec<f32>,
}

#[derive(Debug)]
struct Norm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
}

#[derive(Debug)]
struct Layer {
    qkv: Linear,
    attn_out: Linear,
    attn_norm: Norm,
    ffn_in: Linear,
    ffn_out: Linear,
    ffn_norm: Norm,
}

/// A BERT encoder with packed weights.
#[derive(Debug)]
pub(crate) struct Bert {
    cfg: Config,
    eps: f32,
    word: Vec<f32>,
    position: Vec<f32>,
    token_type: Vec<f32>,
    embed_norm: Norm,
    layers: Vec<Layer>,
    isa: Isa,
}

/// Reusable buffers of a forward pass.
#[derive(Debug, Default)]
pub(crate) struct Workspace {
    x: Vec<f32>,
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    /// The dense part's buffers when all rows are one chunk.
    dense: ChunkScratch,
}

/// A matrix product on raw rows: [`matmul_serial`] or [`matmul_columns`].
type Product = unsafe fn(Isa, usize, *const f32, usize, &Packed, *mut f32, usize, &[f32], Epilogue);

/// Per-thread buffers of the dense part of a layer (one chunk of rows).
#[derive(Debug, Default)]
struct ChunkScratch {
    tmp: Vec<f32>,
    inter: Vec<f32>,
}

/// Per-thread attention scratch.
#[derive(Default)]
struct Scratch {
    kt: Packed,
    v: Packed,
    scores: Vec<f32>,
}

impl Bert {
    /// Load from a safetensors file's bytes.
    pub(crate) fn load(cfg: Config, weights: Vec<u8>) -> std::result::Result<Bert, String> {
        cfg.check()?;
        let st = SafeTensors::parse(weights)?;
        let h = cfg.hidden_size;
        let inter = cfg.intermediate_size;
        let norm = |prefix: &str| -> std::result::Result<Norm, String> {
            Ok(Norm {
                gamma: st.get(&format!("{prefix}.weight"), &[h])?,
                beta: st.get(&format!("{prefix}.bias"), &[h])?,
            })
        };
        let linear =
            |prefix: &str, out: usize, inp: usize| -> std::result::Result<Linear, String> {
                let w = st.get(&format!("{prefix}.weight"), &[out, inp])?;
                Ok(Linear {
                    weight: Packed::from_linear(&w, out, inp),
                    bias: st.get(&format!("{prefix}.bias"), &[out])?,
                })
            };
        let mut layers = Vec::with_capacity(cfg.num_hidden_layers);
        for l in 0..cfg.num_hidden_layers {
            let p = format!("encoder.layer.{l}");
            let mut w = Vec::with_capacity(3 * h * h);
            let mut bias = Vec::with_capacity(3 * h);
            for part in ["query", "key", "value"] {
                w.extend(st.get(&format!("{p}.attention.self.{part}.weight"), &[h, h])?);
                bias.extend(st.get(&format!("{p}.attention.self.{part}.bias"), &[h])?);
            }
            layers.push(Layer {
                qkv: Linear {
                    weight: Packed::from_linear(&w, 3 * h, h),
                    bias,
                },
                attn_out: linear(&format!("{p}.attention.output.dense"), h, h)?,
                attn_norm: norm(&format!("{p}.attention.output.LayerNorm"))?,
                ffn_in: linear(&format!("{p}.intermediate.dense"), inter, h)?,
                ffn_out: linear(&format!("{p}.output.dense"), h, inter)?,
                ffn_norm: norm(&format!("{p}.output.LayerNorm"))?,
            });
        }
        let mut matrices: Vec<&mut Packed> = layers
            .iter_mut()
            .flat_map(|l: &mut Layer| {
                [
                    &mut l.qkv.weight,
                    &mut l.attn_out.weight,
                    &mut l.ffn_in.weight,
                    &mut l.ffn_out.weight,
                ]
            })
            .collect();
        Arena::gather(&mut matrices);
        Ok(Bert {
            eps: cfg.layer_norm_eps as f32,
            word: st.get("embeddings.word_embeddings.weight", &[cfg.vocab_size, h])?,
            position: st.get(
                "embeddings.position_embeddings.weight",
                &[cfg.max_position_embeddings, h],
            )?,
            token_type: st.get(
                "embeddings.token_type_embeddings.weight",
                &[cfg.type_vocab_size, h],
            )?,
            embed_norm: norm("embeddings.LayerNorm")?,
            layers,
            isa: Isa::detect(),
            cfg,
        })
    }

    /// The instruction set in use.
    pub(crate) fn isa_name(&self) -> &'static str {
        self.isa.name()
    }

    /// The longest sequence the position embeddings allow.
    pub(crate) fn max_positions(&self) -> usize {
        self.cfg.max_position_embeddings
    }

    #[cfg(test)]
    fn with_isa(mut self, isa: Isa) -> Bert {
        self.isa = isa;
        self
    }

    /// Sentence vectors: for each sequence of word-piece ids (type ids all 0), the mean
    /// of BERT's last hidden states over its tokens, L2-normalised. An empty sequence gives
    /// a zero vector.
    pub(crate) fn embed(
        &self,
        seqs: &[&[u32]],
        ws: &mut Workspace,
    ) -> std::result::Result<Vec<Vec<f32>>, String> {
        let h = self.cfg.hidden_size;
        for s in seqs {
            if s.len() > self.cfg.max_position_embeddings {
                return Err(format!(
                    "{} word pieces; the model reads at most {}",
                    s.len(),
                    self.cfg.max_position_embeddings
                ));
            }
            if let Some(&id) = s.iter().find(|&&id| id as usize >= self.cfg.vocab_size) {
                return Err(format!("word piece id {id} outside the vocabulary"));
            }
        }
        let total: usize = seqs.iter().map(|s| s.len()).sum();
        let hidden = self.encode(seqs, total, ws);
        let mut out = Vec::with_capacity(seqs.len());
        let mut row = 0;
        for s in seqs {
            let mut v = vec![0f32; h];
            for t in 0..s.len() {
                for (acc, x) in v.iter_mut().zip(&hidden[(row + t) * h..][..h]) {
                    *acc += *x;
                }
            }
            let count = (s.len() as f32).max(1e-9);
            for x in v.iter_mut() {
                *x /= count;
            }
            let norm = lane_sum(&v.iter().map(|x| x * x).collect::<Vec<_>>())
                .sqrt()
                .max(1e-12);
            for x in v.iter_mut() {
                *x /= norm;
            }
            out.push(v);
            row += s.len();
        }
        Ok(out)
    }

    /// The last hidden states of all tokens of `seqs`, end to end (`total × hidden`).
    fn encode<'w>(&self, seqs: &[&[u32]], total: usize, ws: &'w mut Workspace) -> &'w [f32] {
        let isa = self.isa;
        let h = self.cfg.hidden_size;
        let resize = |v: &mut Vec<f32>, n: usize| {
            v.clear();
            v.resize(n, 0.0);
        };
        resize(&mut ws.x, total * h);
        resize(&mut ws.qkv, total * 3 * h);
        resize(&mut ws.ctx, total * h);
        // Embeddings: (word + token type 0) + position, then LayerNorm.
        let mut row = 0;
        for s in seqs {
            for (pos, &id) in s.iter().enumerate() {
                let x = &mut ws.x[(row + pos) * h..][..h];
                let word = &self.word[id as usize * h..][..h];
                let ty = &self.token_type[..h];
                let p = &self.position[pos * h..][..h];
                for j in 0..h {
                    x[j] = (word[j] + ty[j]) + p[j];
                }
            }
            row += s.len();
        }
        let norm = &self.embed_norm;
        ws.x.par_chunks_mut(MC * h)
            .for_each(|x| layer_norm(isa, x, &norm.gamma, &norm.beta, self.eps));
        let lens: Vec<(usize, usize)> = seqs
            .iter()
            .scan(0, |off, s| {
                let at = *off;
                *off += s.len();
                Some((at, s.len()))
            })
            .filter(|&(_, len)| len > 0)
            .collect();
        for layer in &self.layers {
            matmul(
                isa,
                &ws.x,
                &layer.qkv.weight,
                &mut ws.qkv,
                &layer.qkv.bias,
                Epilogue::None,
            );
            self.attention(&ws.qkv, &mut ws.ctx, &lens);
            // Per chunk of rows, so that the intermediate activations stay in cache; a
            // single chunk (a question) splits each product's columns instead.
            if total <= MC {
                self.dense(layer, &mut ws.x, &ws.ctx, &mut ws.dense, matmul_columns);
                continue;
            }
            let ctx = &ws.ctx;
            ws.x.par_chunks_mut(MC * h).enumerate().for_each_init(
                ChunkScratch::default,
                |scratch, (chunk, x)| {
                    let rows = x.len() / h;
                    let ctx = &ctx[chunk * MC * h..][..rows * h];
                    self.dense(layer, x, ctx, scratch, matmul_serial);
                },
            );
        }
        &ws.x
    }

    /// The dense part of `layer` for the rows of `x` (`ctx` their attention):
    /// x ← LN(x + ctx·Wo + bo); x ← LN(x + GELU(x·Wi + bi)·Wo2 + bo2), each product by
    /// `product` ([`matmul_serial`] or [`matmul_columns`]).
    fn dense(
        &self,
        layer: &Layer,
        x: &mut [f32],
        ctx: &[f32],
        scratch: &mut ChunkScratch,
        product: Product,
    ) {
        let isa = self.isa;
        let h = self.cfg.hidden_size;
        let inter = self.cfg.intermediate_size;
        let rows = x.len() / h;
        assert!(ctx.len() >= rows * h);
        scratch.tmp.clear();
        scratch.tmp.resize(rows * h, 0.0);
        scratch.inter.clear();
        scratch.inter.resize(rows * inter, 0.0);
        let tmp = scratch.tmp.as_mut_ptr();
        let out = &layer.attn_out;
        // SAFETY: `ctx`, `x`, `tmp` and `inter` hold `rows` full rows.
        unsafe {
            product(
                isa,
                rows,
                ctx.as_ptr(),
                h,
                &out.weight,
                tmp,
                h,
                &out.bias,
                Epilogue::None,
            )
        };
        let n = &layer.attn_norm;
        add_layer_norm(isa, x, &scratch.tmp, &n.gamma, &n.beta, self.eps);
        let fin = &layer.ffn_in;
        let mid = scratch.inter.as_mut_ptr();
        // SAFETY: as above.
        unsafe {
            product(
                isa,
                rows,
                x.as_ptr(),
                h,
                &fin.weight,
                mid,
                inter,
                &fin.bias,
                Epilogue::Gelu,
            )
        };
        let fout = &layer.ffn_out;
        // SAFETY: as above.
        unsafe {
            product(
                isa,
                rows,
                mid,
                inter,
                &fout.weight,
                scratch.tmp.as_mut_ptr(),
                h,
                &fout.bias,
                Epilogue::None,
            )
        };
        let n = &layer.ffn_norm;
        add_layer_norm(isa, x, &scratch.tmp, &n.gamma, &n.beta, self.eps);
    }

    /// Self-attention of every sequence: `ctx` (tokens × hidden) from `qkv`
    /// (tokens × 3·hidden, Q | K | V), one task per (sequence, head).
    fn attention(&self, qkv: &[f32], ctx: &mut [f32], seqs: &[(usize, usize)]) {
        let isa = self.isa;
        let h = self.cfg.hidden_size;
        let heads = self.cfg.num_attention_heads;
        let dh = h / heads;
        let scale = 1.0 / (dh as f32).sqrt();
        let ctx_ptr = SyncPtr(ctx.as_mut_ptr());
        let ctx_len = ctx.len();
        let tasks: Vec<(usize, usize, usize)> = seqs
            .iter()
            .flat_map(|&(off, len)| (0..heads).map(move |head| (off, len, head)))
            .collect();
        tasks
            .par_iter()
            .for_each_init(Scratch::default, |s, &(off, len, head)| {
                let q0 = off * 3 * h + head * dh;
                let k0 = q0 + h;
                let v0 = q0 + 2 * h;
                s.kt.pack_transposed(&qkv[k0..], 3 * h, len, dh);
                s.v.pack_rows(&qkv[v0..], 3 * h, len, dh);
                let ld = len.div_ceil(NR) * NR;
                s.scores.clear();
                s.scores.resize(len * ld, 0.0);
                assert!(q0 + (len - 1) * 3 * h + dh <= qkv.len());
                assert!((off + len) * h <= ctx_len);
                // SAFETY: Q rows lie inside `qkv` (checked); `scores` is len × ld.
                unsafe {
                    matmul_serial(
                        isa,
                        len,
                        qkv.as_ptr().add(q0),
                        3 * h,
                        &s.kt,
                        s.scores.as_mut_ptr(),
                        ld,
                        &[],
                        Epilogue::None,
                    )
                };
                for row in s.scores.chunks_exact_mut(ld) {
                    softmax(isa, &mut row[..len], scale);
                }
                // SAFETY: this task alone writes columns head·dh .. +dh of rows
                // off .. off+len of `ctx` (checked in bounds).
                unsafe {
                    matmul_serial(
                        isa,
                        len,
                        s.scores.as_ptr(),
                        ld,
                        &s.v,
                        ctx_ptr.get().add(off * h + head * dh),
                        h,
                        &[],
                        Epilogue::None,
                    )
                };
            });
    }
}

#[cfg(test)]
mod tests;
