//! docs: indexing a real documentation set and querying it, and retrieval quality
//! measured through the docs pipeline (`docs.index` → `docs.query`), with and without
//! the model.
//!
//! ```text
//! cargo bench -p cc-search --bench docs                # both
//! cargo bench -p cc-search --bench docs -- corpus      # index + query latency only
//! cargo bench -p cc-search --bench docs -- cranfield   # quality only
//! ```
//!
//! **corpus** takes every `*.md` under `$CC_SEARCH_BENCH_DOCS_DIR`. The set measured in
//! docs/BENCHMARKS.md is the documentation of the npm package `@stdlib/stats` (1,300
//! README.md files, one per function, 8.5 MB), fetched with one command:
//!
//! ```text
//! mkdir -p /tmp/stdlib-docs && cd /tmp/stdlib-docs && npm pack @stdlib/stats@0.4.1 && tar xzf stdlib-stats-0.4.1.tgz
//! CC_SEARCH_BENCH_DOCS_DIR=/tmp/stdlib-docs/package cargo bench -p cc-search --bench docs
//! ```
//!
//! Without the variable it gathers the `*.md` files of the crates in
//! `~/.cargo/registry/src`, `/usr/share/doc` and the Node binding's `node_modules`, and
//! says how many it found. The files are copied under `docs/` of a temporary project, so
//! the default globs apply. Then, once without a model (keyword-only) and once with the
//! real all-MiniLM-L6-v2 (`$CC_SEARCH_MODEL_DIR`, else the repository's `.venv`), each in
//! a fresh data directory: a cold `docs.index` (with the model: every section embedded,
//! nothing cached), an index with no change (median of 3), and `docs.query` p50/p95 over
//! 20 queries × 5 rounds (after one warm-up round).
//!
//! **cranfield** writes the 1,400 Cranfield abstracts (`../shared/data/ir/cranfield`, or
//! `$CC_SEARCH_CRANFIELD`) as markdown files (`# title`, then the abstract) under `docs/`
//! of a temporary project, indexes them with `docs.index`, runs the 225 queries through
//! `docs.query` (limit 10) in keyword, vector and hybrid mode, and prints nDCG@10 (graded:
//! gain = 5 − Cleverdon code, codes 1–4 relevant) and MRR@10, as `--bench hybrid` does on
//! the chunk store directly. Its vectors are cached in `target/cc-search-bench/docs-cranfield`.

#[path = "common/cranfield.rs"]
mod cranfield;
use cranfield::{cranfield, mrr_at_10, ndcg_at_10};
#[path = "common/engine.rs"]
mod common_engine;
use common_engine::engine;
#[path = "common/paths.rs"]
mod paths;
use paths::{bench_dir, model_dir, repo_root};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cc_search::Engine;
use cc_search::docs::{self, IndexRequest, IndexResponse, QueryRequest, QueryResponse};
use cc_search::hybrid::Mode;

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn percentile(mut times: Vec<Duration>, p: f64) -> Duration {
    times.sort();
    times[((times.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let all = !args.iter().any(|a| a == "corpus" || a == "cranfield");
    println!(
        "machine: {} cores, load average {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load()
    );
    if all || args.iter().any(|a| a == "corpus") {
        corpus();
    }
    if all || args.iter().any(|a| a == "cranfield") {
        cranfield_eval();
    }
    println!("load average at the end: {}", load());
}

// ---- a real documentation set ---------------------------------------------------------

/// Every `*.md` file under `root` (not following symbolic links), sorted.
fn markdown_under(root: &Path, out: &mut Vec<PathBuf>) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
}

/// The corpus: (name, files with their paths relative to their root).
fn corpus_files() -> (String, Vec<(PathBuf, String)>) {
    let mut files = Vec::new();
    let name;
    if let Some(dir) = std::env::var_os("CC_SEARCH_BENCH_DOCS_DIR").map(PathBuf::from) {
        name = format!("$CC_SEARCH_BENCH_DOCS_DIR ({})", dir.display());
        let mut found = Vec::new();
        markdown_under(&dir, &mut found);
        for path in found {
            let rel = path.strip_prefix(&dir).unwrap_or(&path).to_path_buf();
            files.push((path, rel.to_string_lossy().replace('\\', "/")));
        }
    } else {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default();
        let cargo = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".cargo"));
        let roots = [
            ("crates", cargo.join("registry/src")),
            ("debian", PathBuf::from("/usr/share/doc")),
            ("npm", repo_root().join("bindings/node/node_modules")),
        ];
        name = "the markdown files of ~/.cargo/registry/src, /usr/share/doc and \
                bindings/node/node_modules (set CC_SEARCH_BENCH_DOCS_DIR for the set measured \
                in docs/BENCHMARKS.md)"
            .to_string();
        for (label, root) in roots {
            let mut found = Vec::new();
            markdown_under(&root, &mut found);
            for path in found {
                let rel = path.strip_prefix(&root).unwrap_or(&path).to_path_buf();
                files.push((path, format!("{label}/{}", rel.to_string_lossy())));
            }
        }
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    (name, files)
}

/// Natural-language questions about a statistics library's documentation (they still
/// measure latency on any other corpus).
const QUERIES: [&str; 20] = [
    "probability density function of the normal distribution",
    "cumulative distribution function for the gamma distribution",
    "quantile function of a beta distribution",
    "compute the arithmetic mean of a strided array",
    "variance using Welford's algorithm",
    "two-sample Student's t-test",
    "chi-square goodness of fit test",
    "Kolmogorov-Smirnov test",
    "median of a sorted array",
    "standard deviation ignoring NaN values",
    "random variates from a Poisson distribution",
    "moment-generating function",
    "kurtosis of the Weibull distribution",
    "incremental moving average accumulator",
    "Kruskal-Wallis test",
    "entropy of a discrete uniform distribution",
    "logarithm of the probability mass function",
    "skewness of the lognormal distribution",
    "Pearson correlation coefficient",
    "maximum absolute value of a strided array",
];

fn index(engine: &Engine, project: &Path) -> (IndexResponse, Duration) {
    let started = Instant::now();
    let response = engine
        .run::<docs::Index>(IndexRequest {
            project_dir: Some(project.to_path_buf()),
            lock_wait_secs: Some(0),
            ..Default::default()
        })
        .expect("docs.index");
    (response, started.elapsed())
}

fn query(engine: &Engine, project: &Path, text: &str, mode: Mode) -> QueryResponse {
    engine
        .run::<docs::Query>(QueryRequest {
            query: text.to_string(),
            project_dir: Some(project.to_path_buf()),
            limit: Some(10),
            mode,
            ..Default::default()
        })
        .expect("docs.query")
}

fn corpus() {
    let (name, files) = corpus_files();
    let work = tempfile::tempdir().expect("temp dir");
    let project = work.path().join("corpus");
    let mut bytes = 0u64;
    for (path, rel) in &files {
        let to = project.join("docs").join(rel);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("create a directory");
        bytes += std::fs::copy(path, &to).expect("copy a markdown file");
    }
    println!(
        "corpus: {} markdown files, {:.1} MB, from {name}",
        files.len(),
        bytes as f64 / 1e6
    );
    if files.len() < 1_000 {
        println!("corpus: fewer than 1,000 files — see the header of core/benches/docs.rs");
    }
    if files.is_empty() {
        return;
    }
    let model = model_dir();
    if model.is_none() {
        println!("corpus: all-MiniLM-L6-v2 not found (CC_SEARCH_MODEL_DIR): keyword-only only");
    }
    println!("| docs.index / docs.query | without the model (keyword) | with the model (hybrid) |");
    println!("| --- | ---: | ---: |");
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let column = |setup: Option<&Path>| -> Vec<String> {
        let home = work
            .path()
            .join(if setup.is_some() { "model" } else { "none" });
        let engine = engine(&home, setup);
        let (cold, cold_time) = index(&engine, &project);
        let mut again = Vec::new();
        for _ in 0..3 {
            let (unchanged, t) = index(&engine, &project);
            assert_eq!(unchanged.unchanged, files.len(), "{unchanged:?}");
            again.push(t);
        }
        again.sort();
        let mode = if setup.is_some() {
            Mode::Hybrid
        } else {
            Mode::Keyword
        };
        let mut times = Vec::new();
        for round in 0..6 {
            for text in QUERIES {
                let t = Instant::now();
                let found = query(&engine, &project, text, mode);
                let elapsed = t.elapsed();
                assert_eq!(found.mode, mode);
                if round > 0 {
                    times.push(elapsed); // the first round warms caches
                }
            }
        }
        let mut tops = Vec::new();
        for text in &QUERIES[..3] {
            let found = query(&engine, &project, text, mode);
            let top = found
                .results
                .first()
                .map(|h| format!("{} § {}", h.file, h.section))
                .unwrap_or_default();
            tops.push(format!("  {text:?} → {top}"));
        }
        println!(
            "{}: {} sections, {} embedded, {} pending; top results:\n{}",
            if setup.is_some() {
                "with the model"
            } else {
                "without the model"
            },
            cold.sections_written,
            cold.embedded,
            cold.pending_vectors,
            tops.join("\n")
        );
        vec![
            format!(
                "{:.1} s ({:.0} files/s)",
                cold_time.as_secs_f64(),
                files.len() as f64 / cold_time.as_secs_f64()
            ),
            ms(again[1]),
            ms(percentile(times.clone(), 0.5)),
            ms(percentile(times, 0.95)),
        ]
    };
    let without = column(None);
    let with = match model.as_deref() {
        Some(dir) => column(Some(dir)),
        None => vec!["—".to_string(); 4],
    };
    for (i, what) in [
        "cold index",
        "index, no change (median of 3)",
        "query p50",
        "query p95",
    ]
    .iter()
    .enumerate()
    {
        rows.push((what.to_string(), without[i].clone(), with[i].clone()));
    }
    for (what, a, b) in rows {
        println!("| {what} | {a} | {b} |");
    }
}

// ---- Cranfield through the docs pipeline ----------------------------------------------

fn cranfield_eval() {
    let Some((docs, queries, qrels)) = cranfield() else {
        println!("cranfield: the Cranfield collection was not found; skipped");
        return;
    };
    let work = tempfile::tempdir().expect("temp dir");
    let project = work.path().join("cranfield");
    for doc in &docs {
        let path = project.join(format!("docs/cranfield/{:04}.md", doc.id));
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create docs/");
        std::fs::write(path, format!("# {}\n\n{}\n", doc.title, doc.text))
            .expect("write a document");
    }
    let model = model_dir();
    // The vectors stay between runs (embeddings.db); the docs index is rebuilt each time.
    let home = bench_dir().join("docs-cranfield");
    for stale in ["docs.db", "docs.db-wal", "docs.db-shm"] {
        let _ = std::fs::remove_file(home.join(stale));
    }
    let engine = engine(&home, model.as_deref());
    let (indexed, took) = index(&engine, &project);
    println!(
        "cranfield: {} documents as {} markdown files ({} sections), indexed through docs.index \
         in {:.1} s ({} embedded now, the rest from the cache; {} without vectors); {} queries \
         with judgments",
        docs.len(),
        indexed.files,
        indexed.sections_written,
        took.as_secs_f64(),
        indexed.embedded,
        indexed.pending_vectors,
        qrels.iter().filter(|q| !q.is_empty()).count()
    );
    let run = |mode: Mode| {
        let (mut ndcg, mut mrr, mut n) = (0.0, 0.0, 0usize);
        let mut times = Vec::new();
        for (text, judged) in queries.iter().zip(&qrels) {
            if judged.is_empty() {
                continue;
            }
            let t = Instant::now();
            let found = query(&engine, &project, text, mode);
            times.push(t.elapsed());
            let ranked: Vec<u32> = found
                .results
                .iter()
                .filter_map(|h| {
                    h.file
                        .strip_prefix("docs/cranfield/")?
                        .strip_suffix(".md")?
                        .parse()
                        .ok()
                })
                .collect();
            ndcg += ndcg_at_10(&ranked, judged);
            mrr += mrr_at_10(&ranked, judged);
            n += 1;
        }
        (ndcg / n as f64, mrr / n as f64, percentile(times, 0.5))
    };
    println!("| docs.query mode | nDCG@10 | MRR@10 | query p50 |");
    println!("| --- | ---: | ---: | ---: |");
    let mut modes = vec![("keyword only (BM25)", Mode::Keyword)];
    if model.is_some() {
        modes.push(("vector only (MiniLM)", Mode::Vector));
        modes.push(("hybrid (default)", Mode::Hybrid));
    } else {
        println!("cranfield: all-MiniLM-L6-v2 not found (CC_SEARCH_MODEL_DIR): keyword only");
    }
    for (name, mode) in modes {
        let (ndcg, mrr, p50) = run(mode);
        println!("| {name} | {ndcg:.4} | {mrr:.4} | {} |", ms(p50));
    }
}
