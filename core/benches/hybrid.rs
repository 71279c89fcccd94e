//! The hybrid chunk engine: retrieval quality on the Cranfield collection, and query
//! latency at 10k and 100k chunks.
//!
//! ```text
//! cargo bench -p cc-search --bench hybrid             # both
//! cargo bench -p cc-search --bench hybrid -- eval     # quality only
//! cargo bench -p cc-search --bench hybrid -- latency  # latency only
//! ```
//!
//! **eval** indexes the 1,400 Cranfield abstracts (`../shared/data/ir/cranfield`, or
//! `$CC_SEARCH_CRANFIELD`) into a [`ChunkStore`] with the real all-MiniLM-L6-v2
//! (`$CC_SEARCH_MODEL_DIR`, else the repository's `.venv`), runs the 225 queries in
//! keyword-only, vector-only and hybrid mode, and prints nDCG@10 (graded: gain = 5 −
//! Cleverdon code, codes 1–4 relevant, −1 not) and MRR@10 (any code 1–4), averaged over
//! the queries, then the hybrid with other fusion constants. Vectors are cached in
//! `target/cc-search-bench/embeddings.db`, so only the first run embeds.
//!
//! **latency** builds stores of 10k and 100k synthetic chunks (words drawn from a fixed
//! vocabulary, deterministic; vectors are deterministic pseudo-random unit vectors, as
//! latency does not depend on their values) and times, over 50 queries each: the
//! keyword list, the KNN unfiltered and with a scope + kind filter, and the whole hybrid
//! search with the query vector given (model excluded); then the model's query
//! embedding on its own.

#[path = "common/cranfield.rs"]
mod cranfield;
use cranfield::{cranfield, mrr_at_10, ndcg_at_10};
#[path = "common/paths.rs"]
mod paths;
#[path = "common/synthetic.rs"]
mod synthetic;
use paths::{bench_dir, model_dir};
use synthetic::{Rng, Synthetic};

use std::time::{Duration, Instant};

use cc_search::embed::{Cache, Embedder, MiniLm};
use cc_search::hybrid::{self, ChunkStore, Filter, Mode, NewChunk, Search};

fn model() -> Option<MiniLm> {
    MiniLm::load(&model_dir()?).ok()
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let all = !args.iter().any(|a| a == "eval" || a == "latency");
    println!(
        "machine: {} cores, load average {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    if all || args.iter().any(|a| a == "eval") {
        eval();
    }
    if all || args.iter().any(|a| a == "latency") {
        latency();
    }
}

// ---- Cranfield ------------------------------------------------------------------------

fn eval() {
    let Some((docs, queries, qrels)) = cranfield() else {
        println!("eval: the Cranfield collection was not found; skipped");
        return;
    };
    let Some(model) = model() else {
        println!("eval: all-MiniLM-L6-v2 not found (CC_SEARCH_MODEL_DIR); skipped");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let store = ChunkStore::new(dir.path().join("cranfield.db"), hybrid::SCHEMA);
    let cache = Cache::new(bench_dir().join("embeddings.db"));
    let mut warnings = Vec::new();
    let chunks: Vec<NewChunk> = docs
        .iter()
        .map(|d| NewChunk {
            key: format!("{:04}", d.id),
            source: "cranfield".into(),
            scope: "cranfield".into(),
            kind: "doc".into(),
            title: d.title.clone(),
            text: d.text.clone(),
            meta: "{}".into(),
            ..NewChunk::default()
        })
        .collect();
    let started = Instant::now();
    {
        let mut conn = store.db().write(&mut warnings).expect("open");
        let tx = conn.transaction().expect("transaction");
        store.put(&tx, &chunks).expect("put");
        tx.commit().expect("commit");
    }
    let written = started.elapsed();
    let stats = store
        .embed_pending(
            &model,
            &cache,
            &Default::default(),
            &mut |_, _| Ok(()),
            &mut warnings,
        )
        .expect("embed");
    println!(
        "eval: Cranfield, {} documents ({} windows; {} embedded now, the rest from the cache), \
         {} queries with judgments; written in {:.2?}, vectors in {:.2?}",
        docs.len(),
        stats.windows,
        stats.embedded,
        qrels.iter().filter(|q| !q.is_empty()).count(),
        written,
        started.elapsed() - written
    );
    let texts: Vec<&str> = queries.iter().map(String::as_str).collect();
    let vectors = model.embed(&texts).expect("embed queries");

    let run = |mode: Mode, keyword_weight: f64, vector_weight: f64, rrf_k: f64| {
        let mut ndcg = 0.0;
        let mut mrr = 0.0;
        let mut n = 0usize;
        for ((text, vector), judged) in queries.iter().zip(&vectors).zip(&qrels) {
            if judged.is_empty() {
                continue;
            }
            let search = Search {
                text: text.clone(),
                mode,
                limit: 10,
                candidates: 100,
                keyword_weight,
                vector_weight,
                rrf_k,
                ..Search::default()
            };
            let hits = store
                .search(&search, Some(vector), &mut Vec::new())
                .expect("search");
            let ranked: Vec<u32> = hits.iter().filter_map(|h| h.key.parse().ok()).collect();
            ndcg += ndcg_at_10(&ranked, judged);
            mrr += mrr_at_10(&ranked, judged);
            n += 1;
        }
        (ndcg / n as f64, mrr / n as f64)
    };
    println!("| mode | nDCG@10 | MRR@10 |");
    println!("| --- | ---: | ---: |");
    let keyword = run(Mode::Keyword, 1.0, 1.0, 60.0);
    let vector = run(Mode::Vector, 1.0, 1.0, 60.0);
    let fused = run(
        Mode::Hybrid,
        cc_search::rank::KEYWORD_WEIGHT,
        cc_search::rank::VECTOR_WEIGHT,
        cc_search::rank::RRF_K,
    );
    for (name, (ndcg, mrr)) in [
        ("keyword only (BM25)", keyword),
        ("vector only (MiniLM)", vector),
        ("hybrid (defaults)", fused),
    ] {
        println!("| {name} | {ndcg:.4} | {mrr:.4} |");
    }
    println!(
        "hybrid − best single mode: nDCG@10 {:+.4}, MRR@10 {:+.4}",
        fused.0 - keyword.0.max(vector.0),
        fused.1 - keyword.1.max(vector.1)
    );
    println!("fusion constants (keyword weight, vector weight, k):");
    println!("| keyword w | vector w | k | nDCG@10 | MRR@10 |");
    println!("| ---: | ---: | ---: | ---: | ---: |");
    for (kw, vw, k) in [
        (1.0, 1.0, 60.0),
        (1.0, 1.0, 20.0),
        (1.0, 1.0, 100.0),
        (1.0, 0.5, 60.0),
        (1.0, 0.75, 60.0),
        (0.75, 1.0, 60.0),
        (0.5, 1.0, 60.0),
    ] {
        let (ndcg, mrr) = run(Mode::Hybrid, kw, vw, k);
        println!("| {kw} | {vw} | {k} | {ndcg:.4} | {mrr:.4} |");
    }
}

// ---- latency --------------------------------------------------------------------------

/// A small deterministic generator (xorshift64*).
const VOCABULARY: usize = 5_000;

fn word(i: usize) -> String {
    // Pronounceable, distinct words: w + base-20 syllables.
    const SYLLABLES: [&str; 20] = [
        "ka", "lo", "mi", "nu", "pe", "ra", "si", "tu", "vo", "we", "ba", "de", "fi", "go", "hu",
        "ja", "ke", "li", "mo", "ne",
    ];
    let mut s = String::from("w");
    let mut n = i;
    loop {
        s.push_str(SYLLABLES[n % 20]);
        n /= 20;
        if n == 0 {
            break;
        }
    }
    s
}

/// Words drawn with a Zipf-like skew (rank r with weight ~1/r), as in real text.
fn zipf_word(rng: &mut Rng) -> usize {
    // Inverse of the CDF of a continuous 1/x law over [1, VOCABULARY].
    let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
    ((VOCABULARY as f64).powf(u) as usize).clamp(1, VOCABULARY) - 1
}

/// Deterministic pseudo-random unit vectors from the text, for latency only.
fn percentile(mut times: Vec<Duration>, p: f64) -> Duration {
    times.sort();
    times[((times.len() - 1) as f64 * p).round() as usize]
}

fn latency() {
    let model = model();
    for n in [10_000usize, 100_000] {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = ChunkStore::new(dir.path().join("chunks.db"), hybrid::SCHEMA);
        let cache = Cache::new(dir.path().join("embeddings.db"));
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let kinds = ["user", "assistant", "tool", "thinking", "summary"];
        let started = Instant::now();
        let mut warnings = Vec::new();
        for batch in 0..n / 1000 {
            let chunks: Vec<NewChunk> = (0..1000)
                .map(|i| {
                    let id = batch * 1000 + i;
                    let words: Vec<String> = (0..60).map(|_| word(zipf_word(&mut rng))).collect();
                    NewChunk {
                        key: format!("{id:07}"),
                        source: format!("s{}", id / 50),
                        scope: format!("project-{:02}", id % 20),
                        kind: kinds[(id / 20) % kinds.len()].into(),
                        time: 1_700_000_000 + id as i64 * 60,
                        text: words.join(" "),
                        meta: "{}".into(),
                        ..NewChunk::default()
                    }
                })
                .collect();
            let mut conn = store.db().write(&mut warnings).expect("open");
            let tx = conn.transaction().expect("transaction");
            store.put(&tx, &chunks).expect("put");
            tx.commit().expect("commit");
        }
        let written = started.elapsed();
        store
            .embed_pending(
                &Synthetic(None),
                &cache,
                &Default::default(),
                &mut |_, _| Ok(()),
                &mut warnings,
            )
            .expect("vectors");
        println!(
            "latency: {n} chunks of 60 words, 20 scopes, 5 kinds: written in {:.2?}, vectors in {:.2?}",
            written,
            started.elapsed() - written
        );
        let queries: Vec<String> = (0..50)
            .map(|_| {
                (0..4)
                    .map(|_| word(rng.below(VOCABULARY / 10)))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let filtered = Filter {
            scopes: Some(vec!["project-07".into()]),
            kinds: Some(vec!["user".into(), "assistant".into()]),
            ..Filter::default()
        };
        let cases: [(&str, Mode, &Filter); 5] = [
            ("keyword list (BM25)", Mode::Keyword, &Filter::default()),
            ("KNN k=10, no filter", Mode::Vector, &Filter::default()),
            ("KNN k=10, scope + kind filter", Mode::Vector, &filtered),
            ("hybrid, no filter", Mode::Hybrid, &Filter::default()),
            ("hybrid, scope + kind filter", Mode::Hybrid, &filtered),
        ];
        println!("| {n} chunks | p50 | p95 |");
        println!("| --- | ---: | ---: |");
        for (name, mode, filter) in cases {
            let mut times = Vec::new();
            for (round, text) in queries.iter().enumerate() {
                let vector = Synthetic(None).embed(&[text]).expect("vector").remove(0);
                let search = Search {
                    text: text.clone(),
                    mode,
                    filter: filter.clone(),
                    limit: 10,
                    candidates: if mode == Mode::Vector { 10 } else { 100 },
                    ..Search::default()
                };
                let t = Instant::now();
                let hits = store
                    .search(&search, Some(&vector), &mut warnings)
                    .expect("search");
                let elapsed = t.elapsed();
                if round > 0 {
                    times.push(elapsed); // the first query warms the page cache
                }
                assert!(!hits.is_empty() || mode == Mode::Keyword);
            }
            println!(
                "| {name} | {:.1} ms | {:.1} ms |",
                percentile(times.clone(), 0.5).as_secs_f64() * 1e3,
                percentile(times, 0.95).as_secs_f64() * 1e3
            );
        }
    }
    if let Some(model) = model {
        let mut times = Vec::new();
        for text in ["how do I undo the last commit", "sqlite database is locked"]
            .iter()
            .cycle()
            .take(21)
        {
            let t = Instant::now();
            hybrid::query_vector(&model, text).expect("embed");
            times.push(t.elapsed());
        }
        times.remove(0);
        println!(
            "query embedding (all-MiniLM-L6-v2, one short query): p50 {:.1} ms",
            percentile(times, 0.5).as_secs_f64() * 1e3
        );
    }
}
