//! Ranking shared by every hybrid search: weighted reciprocal-rank fusion, recency
//! decay and per-type weights.
//!
//! A hybrid search gets one ranked list per retriever (keyword, vector). Raw scores of
//! the two (BM25, cosine) live on unrelated scales, so they are fused by rank:
//!
//! ```text
//! fused(c) = Σ_lists  weight_list / (RRF_K + rank_list(c))      (rank from 1)
//! score(c) = fused(c) × kind_weight(kind of c) × recency(age of c)
//! ```
//!
//! [`RRF_K`] = 60 is the constant of Cormack, Clarke and Büttcher (SIGIR 2009), the usual
//! choice; the list weights default to [`KEYWORD_WEIGHT`] and [`VECTOR_WEIGHT`], chosen
//! on the Cranfield collection (docs/BENCHMARKS.md has the evaluation). Components set
//! kind weights and the recency half-life; with none set the two factors are 1.
//!
//! Ties are broken by the candidates' keys (ascending), so the order never depends on
//! hash order or insertion order.

use std::collections::{BTreeMap, HashMap};

/// The rank offset of reciprocal-rank fusion.
pub const RRF_K: f64 = 60.0;
/// Default weight of the keyword (BM25) list.
pub const KEYWORD_WEIGHT: f64 = 1.0;
/// Default weight of the vector (cosine) list.
pub const VECTOR_WEIGHT: f64 = 1.0;

/// One retriever's ranked candidates, best first, with the list's weight.
#[derive(Debug, Clone, Copy)]
pub struct RankedList<'a> {
    /// Candidate ids, best first (rank 1 is index 0).
    pub ids: &'a [i64],
    /// The list's weight in the fusion.
    pub weight: f64,
}

/// Weighted reciprocal-rank fusion of `lists`: each id with its fused score, in no
/// particular order (the caller applies its factors, then sorts with [`order`]).
/// An id that appears twice in one list counts at its best rank.
pub fn fuse(lists: &[RankedList<'_>], rrf_k: f64) -> HashMap<i64, f64> {
    let mut fused: HashMap<i64, f64> = HashMap::new();
    for list in lists {
        let mut seen = std::collections::HashSet::new();
        for (index, &id) in list.ids.iter().enumerate() {
            if !seen.insert(id) {
                continue;
            }
            *fused.entry(id).or_insert(0.0) += list.weight / (rrf_k + (index + 1) as f64);
        }
    }
    fused
}

/// How much newer content is preferred: a factor that halves every `half_life_secs`,
/// never below `floor` (so a very old but exact match can still win).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Recency {
    /// "Now", in Unix seconds: ages are measured from here (a parameter, so a search is
    /// reproducible).
    pub now: i64,
    /// Age at which the factor has fallen halfway from 1 to `floor`.
    pub half_life_secs: f64,
    /// The factor for infinitely old content, in `[0, 1]`.
    pub floor: f64,
}

impl Recency {
    /// The factor for content from `time` (Unix seconds). Content from the future
    /// (clock skew) counts as new.
    pub fn factor(&self, time: i64) -> f64 {
        if self.half_life_secs.is_nan() || self.half_life_secs <= 0.0 {
            return 1.0;
        }
        let age = (self.now - time).max(0) as f64;
        let floor = self.floor.clamp(0.0, 1.0);
        floor + (1.0 - floor) * 0.5f64.powf(age / self.half_life_secs)
    }
}

/// Per-type weights: the factor for a candidate of kind `kind` (1 when not listed).
pub fn kind_weight(weights: &BTreeMap<String, f64>, kind: &str) -> f64 {
    weights.get(kind).copied().unwrap_or(1.0)
}

/// The result order: higher score first, then the smaller key. Total and
/// deterministic (NaN scores sort last).
pub fn order(a: (f64, &str), b: (f64, &str)) -> std::cmp::Ordering {
    let score = |s: f64| if s.is_nan() { f64::NEG_INFINITY } else { s };
    score(b.0).total_cmp(&score(a.0)).then_with(|| a.1.cmp(b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fusion_rewards_agreement_and_rank() {
        // 2 is second in both lists; 1 first in one only; 3 first in the other only.
        let keyword = [1, 2, 4];
        let vector = [3, 2, 5];
        let fused = fuse(
            &[
                RankedList {
                    ids: &keyword,
                    weight: 1.0,
                },
                RankedList {
                    ids: &vector,
                    weight: 1.0,
                },
            ],
            RRF_K,
        );
        let mut ids: Vec<(f64, String)> =
            fused.iter().map(|(id, s)| (*s, format!("{id}"))).collect();
        ids.sort_by(|a, b| order((a.0, &a.1), (b.0, &b.1)));
        let ids: Vec<&str> = ids.iter().map(|(_, k)| k.as_str()).collect();
        assert_eq!(ids, ["2", "1", "3", "4", "5"]);
        assert!((fused[&2] - 2.0 / 62.0).abs() < 1e-12);
        assert!((fused[&1] - 1.0 / 61.0).abs() < 1e-12);
    }

    #[test]
    fn weights_shift_the_balance() {
        let keyword = [1];
        let vector = [2];
        let fused = fuse(
            &[
                RankedList {
                    ids: &keyword,
                    weight: 1.0,
                },
                RankedList {
                    ids: &vector,
                    weight: 1.5,
                },
            ],
            RRF_K,
        );
        assert!(fused[&2] > fused[&1]);
    }

    #[test]
    fn duplicates_count_once_at_their_best_rank() {
        let list = [7, 7, 8];
        let fused = fuse(
            &[RankedList {
                ids: &list,
                weight: 1.0,
            }],
            RRF_K,
        );
        assert!((fused[&7] - 1.0 / 61.0).abs() < 1e-12);
        assert!((fused[&8] - 1.0 / 63.0).abs() < 1e-12);
    }

    #[test]
    fn recency_halves_towards_the_floor() {
        let r = Recency {
            now: 1_000_000,
            half_life_secs: 100.0,
            floor: 0.2,
        };
        assert_eq!(r.factor(1_000_000), 1.0);
        assert_eq!(r.factor(2_000_000), 1.0, "future counts as new");
        assert!((r.factor(1_000_000 - 100) - 0.6).abs() < 1e-12);
        assert!((r.factor(0) - 0.2).abs() < 1e-9);
        let off = Recency {
            half_life_secs: 0.0,
            ..r
        };
        assert_eq!(off.factor(0), 1.0);
    }

    #[test]
    fn order_is_total_and_breaks_ties_by_key() {
        let mut v = [(1.0, "b"), (f64::NAN, "a"), (1.0, "a"), (2.0, "z")];
        v.sort_by(|a, b| order(*a, *b));
        assert_eq!(
            v.iter().map(|x| x.1).collect::<Vec<_>>(),
            ["z", "a", "b", "a"]
        );
        assert!(v[3].0.is_nan());
    }
}
