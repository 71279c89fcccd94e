//! sessions: finding a remembered session again (`sessions.search` known-item), and what a
//! cold index of real transcripts costs, against papersson/cc-search (spec 003's Python
//! implementation on sentence-transformers) on the same files in the same run.
//!
//! ```text
//! cargo bench -p cc-search --bench recall                      # both splits
//! CC_SEARCH_BENCH_RECALL_SPLIT=dev …                           # one split
//! CC_SEARCH_BENCH_RECALL_MIRRORS=/work/.mirror …               # where the git mirrors are
//! CC_SEARCH_BENCH_RECALL_DUMP=evidence.jsonl …                 # each query's raw evidence
//! CC_SEARCH_BENCH_RECALL_SKIP_INDEX=1 …                        # reuse the last run's index
//! CC_SEARCH_BENCH_PAPERSSON="/venv/bin/python run.py" …        # papersson's CLI, side by side
//! CC_SEARCH_MODEL_DIR=/path/to/all-MiniLM-L6-v2 …              # the model
//! ```
//!
//! The corpus (`core/benches/recall/corpus.json`) is real Claude Code transcripts: the
//! committed fixtures and files of public repositories read from their git mirrors at
//! pinned commits (`fetch github:owner/name` brings a mirror), each source in a project
//! folder of its own under one projects folder. The queries (`recall/README.md`):
//! `words.jsonl`, 3–6 words drawn from one real typed prompt (`recall/queries.py`), and
//! `meaning.jsonl`, hand-written descriptions of a problem a session handled. A query is
//! answered at rank `r` when the `r`-th result (of 10) belongs to its session (a subagent
//! transcript belongs to the session it was spawned from). `unrelated.jsonl` holds
//! questions no session answers: right is an empty answer. Printed per split and query
//! kind: hit@5 and MRR@10 in keyword, vector and hybrid mode (and papersson's, when
//! given); the unrelated questions answered empty and the others answered empty; and the
//! hybrid search's median latency.
//!
//! Indexing is measured three ways, each in a fresh data directory (so an empty vector
//! cache): keyword-only (parsing, chunking, SQLite), then the same index given the model
//! (embedding and writing the vectors), and one cold run with the model, as a user's
//! first `cc-search index` does; the model's forward pass over the same windows is timed
//! alone, so the rest of the embedding step is SQLite.

#[path = "common/engine.rs"]
mod common_engine;
use common_engine::engine;
#[path = "common/paths.rs"]
mod paths;
use paths::{bench_dir, model_dir, repo_root};
#[path = "common/transcripts.rs"]
mod transcripts;
use transcripts::{copy_transcripts, index};

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use cc_search::Engine;
use cc_search::hybrid::{self, Mode};
use cc_search::sessions::{self, SearchRequest};
use rusqlite::Connection;
use serde_json::Value;

/// "Now" for recency: 2026-09-01T00:00:00Z, after the newest transcript of the corpus.
const NOW: i64 = 1_788_220_800;
/// Results asked for per query.
const LIMIT: usize = 10;

struct Query {
    id: String,
    split: String,
    kind: String,
    query: String,
    /// The transcript the query is about (absolute, in the projects folder); none for a
    /// question no session answers (`unrelated.jsonl`).
    target: Option<PathBuf>,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn recall_dir() -> PathBuf {
    repo_root().join("core/benches/recall")
}

/// Write every file of the corpus under `projects/<source>/<path>`; returns the sources'
/// names by (source, path) → absolute path.
fn materialise(
    projects: &Path,
    corpus: &Value,
    mirrors: &Path,
) -> HashMap<(String, String), PathBuf> {
    let mut out = HashMap::new();
    for source in corpus["sources"].as_array().expect("sources") {
        let name = source["name"].as_str().unwrap();
        for file in source["files"].as_array().unwrap() {
            let file = file.as_str().unwrap();
            let bytes = match source["repo"].as_str() {
                Some(repo) => {
                    let git_dir = mirrors.join(repo.replace('/', "+")).join("repo");
                    let spec = format!("{}:{file}", source["commit"].as_str().unwrap());
                    let output = Command::new("git")
                        .arg("--git-dir")
                        .arg(&git_dir)
                        .args(["show", &spec])
                        .output()
                        .expect("run git");
                    if !output.status.success() {
                        eprintln!(
                            "recall bench: {repo} {spec}: {} (fetch github:{repo} brings the mirror)",
                            String::from_utf8_lossy(&output.stderr).trim()
                        );
                        std::process::exit(1);
                    }
                    output.stdout
                }
                None => std::fs::read(repo_root().join(source["dir"].as_str().unwrap()).join(file))
                    .expect("read a fixture"),
            };
            let target = projects.join(name).join(file);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(&target, bytes).unwrap();
            out.insert((name.to_string(), file.to_string()), target);
        }
    }
    out
}

/// The main transcript a transcript belongs to: itself, or for
/// `…/<session>/subagents/…/agent-x.jsonl`, `…/<session>.jsonl`.
fn family(path: &Path) -> PathBuf {
    let parts: Vec<_> = path.components().collect();
    match parts.iter().rposition(|c| c.as_os_str() == "subagents") {
        Some(at) if at >= 1 => {
            let dir: PathBuf = parts[..at].iter().collect();
            dir.with_extension("jsonl")
        }
        _ => path.to_path_buf(),
    }
}

fn read_queries(files: &HashMap<(String, String), PathBuf>, split: Option<&str>) -> Vec<Query> {
    let mut out = Vec::new();
    for name in ["words.jsonl", "meaning.jsonl", "unrelated.jsonl"] {
        let Ok(text) = std::fs::read_to_string(recall_dir().join(name)) else {
            eprintln!("recall bench: no {name}");
            continue;
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).expect("a query line");
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            if split.is_some_and(|want| want != s("split")) {
                continue;
            }
            let target = if v.get("source").is_none() {
                None
            } else if let Some(target) = files.get(&(s("source"), s("session"))) {
                Some(target.clone())
            } else {
                panic!(
                    "{}: {}/{} is not in the corpus",
                    s("id"),
                    s("source"),
                    s("session")
                );
            };
            out.push(Query {
                id: s("id"),
                split: s("split"),
                kind: s("kind"),
                query: s("query"),
                target,
            });
        }
    }
    out
}

fn fresh(name: &str) -> PathBuf {
    let dir = bench_dir().join("recall").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The model's forward pass alone over every window the index embedded.
fn forward_pass(engine: &Engine, home: &Path) -> (usize, Duration) {
    let conn = Connection::open(home.join("sessions.db")).expect("open sessions.db");
    let mut stmt = conn
        .prepare(
            "SELECT substr(CAST(c.text AS BLOB), w.start + 1, w.end - w.start) \
             FROM chunk_windows w JOIN chunks c ON c.id = w.chunk_id ORDER BY w.id",
        )
        .unwrap();
    let texts: Vec<String> = stmt
        .query_map([], |r| r.get::<_, Vec<u8>>(0))
        .unwrap()
        .map(|b| String::from_utf8_lossy(&b.unwrap()).into_owned())
        .collect();
    let embedder = engine.embedder().expect("the model");
    let started = Instant::now();
    for batch in texts.chunks(32) {
        let refs: Vec<&str> = batch.iter().map(String::as_str).collect();
        embedder.embed(&refs).expect("embed");
    }
    (texts.len(), started.elapsed())
}

/// papersson/cc-search: index `projects` cold (as `~/.claude/projects` of a fresh home),
/// then answer every query; its time and each query's result paths.
fn papersson(
    command: &str,
    projects: &Path,
    model: &Path,
    queries: &[Query],
) -> (Duration, usize, Vec<Vec<PathBuf>>) {
    let home = fresh("papersson-home");
    let copy = home.join(".claude/projects");
    std::fs::create_dir_all(&copy).unwrap();
    copy_transcripts(projects, &copy);
    let mut words = command.split_whitespace();
    let program = words.next().expect("a command");
    let args: Vec<&str> = words.collect();
    let run = |extra: &[&str]| {
        Command::new(program)
            .args(&args)
            .args(extra)
            .env("HOME", &home)
            .env("HF_HUB_OFFLINE", "1")
            .env("CC_SEARCH_BENCH_MODEL", model)
            .env("COLUMNS", "200")
            .output()
            .expect("run papersson/cc-search")
    };
    let started = Instant::now();
    let out = run(&["index"]);
    let took = started.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    let chunks = text
        .split("with ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let mut answers = Vec::new();
    for q in queries {
        let out = run(&["search", &q.query, "--json", "-n", &LIMIT.to_string()]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let paths = v["results"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|r| {
                        // Its paths are under the copy: map them back into `projects`.
                        let p = PathBuf::from(r["session_path"].as_str().unwrap_or_default());
                        p.strip_prefix(&copy)
                            .map(|rest| projects.join(rest))
                            .unwrap_or(p)
                    })
                    .collect()
            })
            .unwrap_or_default();
        answers.push(paths);
    }
    (took, chunks, answers)
}

fn rank_of(paths: &[PathBuf], target: &Path) -> Option<usize> {
    paths
        .iter()
        .position(|p| family(p) == target)
        .map(|i| i + 1)
}

#[derive(Default)]
struct Score {
    n: usize,
    hit5: usize,
    rr: f64,
}

impl Score {
    fn add(&mut self, rank: Option<usize>) {
        self.n += 1;
        if let Some(r) = rank {
            if r <= 5 {
                self.hit5 += 1;
            }
            if r <= 10 {
                self.rr += 1.0 / r as f64;
            }
        }
    }
    fn show(&self) -> String {
        if self.n == 0 {
            return "-".into();
        }
        format!("{}/{} {:.3}", self.hit5, self.n, self.rr / self.n as f64)
    }
}

/// Each query's raw evidence, for tuning outside: every chunk in the top 300 of BM25 or
/// of cosine, with its kind, time, transcript, group, BM25 score, how many of the
/// query's words it holds, and its best window's cosine.
fn dump(engine: &Engine, home: &Path, queries: &[Query], out: &Path) {
    cc_search::store::register_sqlite_vec();
    let conn = Connection::open(home.join("sessions.db")).expect("open sessions.db");
    let mut info: HashMap<i64, (String, i64, String, String, usize)> = HashMap::new();
    {
        let mut stmt = conn
            .prepare("SELECT id, kind, time, source, tag, length(text) FROM chunks")
            .unwrap();
        for row in stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    (
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get::<_, i64>(5)? as usize,
                    ),
                ))
            })
            .unwrap()
        {
            let (id, v) = row.unwrap();
            info.insert(id, v);
        }
    }
    // (chunk, position of the window in its chunk, vector)
    let mut windows: Vec<(i64, i64, Vec<f32>)> = Vec::new();
    {
        let mut stmt = conn
            .prepare(
                "SELECT v.chunk_id, w.position, v.embedding FROM chunk_vectors v \
                 JOIN chunk_windows w ON w.id = v.window_id",
            )
            .unwrap();
        for row in stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, Vec<u8>>(2)?,
                ))
            })
            .unwrap()
        {
            let (id, position, blob) = row.unwrap();
            let v = blob
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            windows.push((id, position, v));
        }
    }
    let embedder = engine.embedder().expect("the model");
    let mut file = std::fs::File::create(out).expect("create the dump");
    for q in queries {
        // The words as the keyword list asks for them.
        let terms = cc_search::text::query_words(&q.query);
        let mut bm25: HashMap<i64, f64> = HashMap::new();
        if let Some(expr) = cc_search::text::fts5_any_of(&terms) {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT rowid, bm25(chunks_fts, 2.0, 1.0) FROM chunks_fts \
                     WHERE chunks_fts MATCH ?1 ORDER BY 2 LIMIT 300",
                )
                .unwrap();
            for row in stmt
                .query_map([expr], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?)))
                .unwrap()
            {
                let (id, s) = row.unwrap();
                bm25.insert(id, -s);
            }
        }
        let mut coverage: HashMap<i64, usize> = HashMap::new();
        for term in &terms {
            let expr = cc_search::text::fts5_any_of([term]).unwrap();
            let mut stmt = conn
                .prepare_cached("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?1")
                .unwrap();
            for id in stmt.query_map([expr], |r| r.get::<_, i64>(0)).unwrap() {
                *coverage.entry(id.unwrap()).or_default() += 1;
            }
        }
        let qv = hybrid::query_vector(embedder.as_ref(), &q.query).unwrap();
        // Per chunk: the best cosine over its first 1, 2, 4, 8 windows and over all.
        let mut by_prefix: HashMap<i64, [f64; 5]> = HashMap::new();
        for (id, position, v) in &windows {
            let s = v.iter().zip(&qv).map(|(a, b)| a * b).sum::<f32>() as f64;
            let e = by_prefix.entry(*id).or_insert([f64::MIN; 5]);
            for (i, limit) in [1, 2, 4, 8, i64::MAX].iter().enumerate() {
                if *position < *limit {
                    e[i] = e[i].max(s);
                }
            }
        }
        let sim: HashMap<i64, f64> = by_prefix.iter().map(|(id, s)| (*id, s[4])).collect();
        let mut by_sim: Vec<(i64, f64)> = sim.into_iter().collect();
        by_sim.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        by_sim.truncate(300);
        let sim: HashMap<i64, f64> = by_sim.into_iter().collect();
        let mut ids: Vec<i64> = bm25
            .keys()
            .chain(sim.keys())
            .copied()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        ids.sort();
        let candidates: Vec<Value> = ids
            .iter()
            .map(|id| {
                let (kind, time, source, tag, len) = &info[id];
                serde_json::json!({
                    "c": id, "k": kind, "t": time, "g": tag, "n": len,
                    "f": family(Path::new(source)).to_string_lossy(),
                    "bm": bm25.get(id), "cov": coverage.get(id).copied().unwrap_or(0),
                    "sim": sim.get(id),
                    "sims": by_prefix.get(id).filter(|_| sim.contains_key(id)),
                })
            })
            .collect();
        let line = serde_json::json!({
            "id": q.id, "split": q.split, "kind": q.kind, "query": q.query,
            "target": q.target.as_ref().map(|t| t.to_string_lossy()), "terms": terms.len(), "candidates": candidates,
        });
        writeln!(file, "{line}").unwrap();
    }
}

fn main() {
    let split = env("CC_SEARCH_BENCH_RECALL_SPLIT");
    let mirrors = PathBuf::from(
        env("CC_SEARCH_BENCH_RECALL_MIRRORS").unwrap_or_else(|| "/work/.mirror".into()),
    );
    let Some(model) = model_dir() else {
        eprintln!("recall bench: the model is needed (CC_SEARCH_MODEL_DIR, or make setup-python)");
        std::process::exit(1);
    };
    let corpus: Value = serde_json::from_str(
        &std::fs::read_to_string(recall_dir().join("corpus.json")).expect("corpus.json"),
    )
    .expect("corpus.json is JSON");
    let projects = bench_dir().join("recall").join("projects");
    let skip_index = env("CC_SEARCH_BENCH_RECALL_SKIP_INDEX").is_some();
    if !skip_index {
        let _ = std::fs::remove_dir_all(&projects);
    }
    let files = materialise(&projects, &corpus, &mirrors);
    let queries = read_queries(&files, split.as_deref());
    let bytes: u64 = files
        .values()
        .map(|p| p.metadata().map_or(0, |m| m.len()))
        .sum();
    let load = || {
        std::fs::read_to_string("/proc/loadavg")
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    };
    println!(
        "corpus: {} transcripts, {:.1} MB; {} queries; load {}",
        files.len(),
        bytes as f64 / 1e6,
        queries.len(),
        load()
    );

    // 1. Indexing.
    let home = bench_dir().join("recall").join("home");
    if !skip_index {
        let staged = fresh("home-staged");
        let (run, parse) = index(&engine(&staged, None), &projects);
        let with_model = engine(&staged, Some(&model));
        let (embedded, embed) = index(&with_model, &projects);
        let (windows, model_time) = forward_pass(&with_model, &staged);
        println!(
            "index, keyword only (parse, chunk, SQLite): {:.2} s, {} sessions + {} subagents, {} chunks",
            parse.as_secs_f64(),
            run.sessions,
            run.subagents,
            run.chunks
        );
        println!(
            "index, then the vectors: {:.2} s for {} windows: forward pass alone {:.2} s ({windows} windows), the rest {:.2} s",
            embed.as_secs_f64(),
            embedded.embedded,
            model_time.as_secs_f64(),
            (embed.saturating_sub(model_time)).as_secs_f64()
        );
        let _ = std::fs::remove_dir_all(&home);
        let (cold_run, cold) = index(&engine(&home, Some(&model)), &projects);
        println!(
            "index cold with the model (one run): {:.2} s, {} chunks, {} windows embedded; load {}",
            cold.as_secs_f64(),
            cold_run.chunks,
            cold_run.embedded,
            load()
        );
    }
    let engine = engine(&home, Some(&model));

    // 2. Finding the session.
    let modes = [Mode::Keyword, Mode::Vector, Mode::Hybrid];
    let mut scores: BTreeMap<(String, String, usize), Score> = BTreeMap::new();
    let mut latencies = Vec::new();
    let mut misses: Vec<String> = Vec::new();
    // Per (split, mode): questions no session answers that got an empty answer, of n;
    // and questions a session answers that got one.
    let mut unrelated: BTreeMap<(String, usize), (usize, usize)> = BTreeMap::new();
    let mut silenced: BTreeMap<(String, usize), usize> = BTreeMap::new();
    for q in &queries {
        for (m, mode) in modes.iter().enumerate() {
            let started = Instant::now();
            let response = engine
                .run::<sessions::Search>(SearchRequest {
                    query: q.query.clone(),
                    limit: Some(LIMIT),
                    mode: *mode,
                    now: Some(NOW),
                    projects_dir: Some(projects.clone()),
                    ..Default::default()
                })
                .expect("search");
            if *mode == Mode::Hybrid {
                latencies.push(started.elapsed());
            }
            let paths: Vec<PathBuf> = response
                .results
                .iter()
                .map(|r| r.session_path.clone())
                .collect();
            let Some(target) = &q.target else {
                // A question no session answers: right when the answer is empty.
                let (right, n) = unrelated.entry((q.split.clone(), m)).or_default();
                *n += 1;
                if paths.is_empty() {
                    *right += 1;
                } else if *mode == Mode::Hybrid {
                    misses.push(format!(
                        "  {} unrelated {:?} → {} results",
                        q.id,
                        q.query,
                        paths.len()
                    ));
                }
                continue;
            };
            if paths.is_empty() {
                *silenced.entry((q.split.clone(), m)).or_default() += 1;
            }
            let rank = rank_of(&paths, target);
            if *mode == Mode::Hybrid && rank.is_none_or(|r| r > 5) {
                misses.push(format!("  {} {} {:?} → {:?}", q.id, q.kind, q.query, rank));
            }
            scores
                .entry((q.split.clone(), q.kind.clone(), m))
                .or_default()
                .add(rank);
        }
    }
    let papersson_answers = env("CC_SEARCH_BENCH_PAPERSSON").map(|command| {
        let (took, chunks, answers) = papersson(&command, &projects, &model, &queries);
        println!(
            "papersson/cc-search index cold: {:.2} s, {chunks} chunks; load {}",
            took.as_secs_f64(),
            load()
        );
        answers
    });
    if let Some(answers) = &papersson_answers {
        for (q, paths) in queries.iter().zip(answers) {
            let Some(target) = &q.target else {
                let (right, n) = unrelated.entry((q.split.clone(), 3)).or_default();
                *n += 1;
                *right += usize::from(paths.is_empty());
                continue;
            };
            if paths.is_empty() {
                *silenced.entry((q.split.clone(), 3)).or_default() += 1;
            }
            scores
                .entry((q.split.clone(), q.kind.clone(), 3))
                .or_default()
                .add(rank_of(paths, target));
        }
    }
    println!("\nhit@5 (of n) and MRR@10:\n");
    println!("| split | queries | keyword | vector | hybrid | papersson |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let groups: Vec<(String, String)> = scores
        .keys()
        .map(|(s, k, _)| (s.clone(), k.clone()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    for (s, k) in groups {
        let cell = |m: usize| {
            scores
                .get(&(s.clone(), k.clone(), m))
                .map_or("-".to_string(), Score::show)
        };
        println!(
            "| {s} | {k} | {} | {} | {} | {} |",
            cell(0),
            cell(1),
            cell(2),
            cell(3)
        );
    }
    if !unrelated.is_empty() {
        println!(
            "\nnothing relevant: questions no session answers with an empty answer (of n), and questions a session answers with an empty answer:\n"
        );
        println!("| split | answer | keyword | vector | hybrid | papersson |");
        println!("| --- | --- | --- | --- | --- | --- |");
        let splits: std::collections::BTreeSet<&String> = unrelated.keys().map(|k| &k.0).collect();
        for s in splits {
            let right = |m: usize| {
                unrelated
                    .get(&(s.clone(), m))
                    .map_or("-".to_string(), |(r, n)| format!("{r}/{n}"))
            };
            let lost = |m: usize| {
                if m == 3 && papersson_answers.is_none() {
                    return "-".to_string();
                }
                silenced
                    .get(&(s.clone(), m))
                    .copied()
                    .unwrap_or(0)
                    .to_string()
            };
            println!(
                "| {s} | unrelated: empty | {} | {} | {} | {} |",
                right(0),
                right(1),
                right(2),
                right(3)
            );
            println!(
                "| {s} | answerable: empty | {} | {} | {} | {} |",
                lost(0),
                lost(1),
                lost(2),
                lost(3)
            );
        }
    }
    latencies.sort();
    if !latencies.is_empty() {
        println!(
            "\nhybrid search, in process: p50 {:.1} ms, p95 {:.1} ms ({} searches)",
            latencies[latencies.len() / 2].as_secs_f64() * 1e3,
            latencies[(latencies.len() * 95 / 100).min(latencies.len() - 1)].as_secs_f64() * 1e3,
            latencies.len()
        );
    }
    if env("CC_SEARCH_BENCH_RECALL_MISSES").is_some() {
        println!("\nhybrid misses (rank > 5):\n{}", misses.join("\n"));
    }
    if let Some(out) = env("CC_SEARCH_BENCH_RECALL_DUMP") {
        dump(&engine, &home, &queries, Path::new(&out));
        println!("evidence written to {out}");
    }
}
