//! Vectors without a model, for latency benches at sizes the real model would take hours
//! to embed: each text gets a pseudo-random unit vector derived from its hash (the same
//! text, the same vector), with the real model's windows when one is given, so the
//! vector table has the rows a real index would.

use cc_search::embed::Embedder;
use cc_search::hybrid;

/// A xorshift generator: fast, seeded, reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    #[allow(dead_code)] // not every bench draws numbers in a range
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The synthetic embedder; `windows` are the given model's when there is one.
pub struct Synthetic<'a>(pub Option<&'a dyn Embedder>);

impl Embedder for Synthetic<'_> {
    fn embed(&self, texts: &[&str]) -> cc_search::Result<Vec<Vec<f32>>> {
        Ok(texts
            .iter()
            .map(|t| {
                let h = cc_search::embed::text_hash(t);
                let mut rng = Rng(u64::from_le_bytes(h[..8].try_into().unwrap()) | 1);
                let v: Vec<f32> = (0..hybrid::VECTOR_DIMS)
                    .map(|_| (rng.next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5)
                    .collect();
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                v.into_iter().map(|x| x / norm).collect()
            })
            .collect())
    }

    fn dims(&self) -> usize {
        hybrid::VECTOR_DIMS
    }

    fn model_id(&self) -> &str {
        "synthetic-bench"
    }

    fn windows(&self, text: &str) -> cc_search::Result<Vec<std::ops::Range<usize>>> {
        match self.0 {
            Some(model) => model.windows(text),
            None => Ok(std::iter::once(0..text.len()).collect()),
        }
    }
}
