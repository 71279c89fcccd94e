//! `code.find` against plain BM25 over whole files, on the development set
//! (`core/benches/find/devset.jsonl`: commit messages → the non-test files the commit
//! changed; see `core/benches/find/README.md`) or the issue set
//! (`core/benches/find/issues/issues.jsonl`: GitHub issue reports → the files and lines
//! the fix changed; `issues/README.md`).
//!
//! ```text
//! cargo bench -p cc-search --bench find                          # the test split
//! CC_SEARCH_BENCH_FIND_SPLIT=dev cargo bench -p cc-search --bench find
//! CC_SEARCH_BENCH_FIND_REPOS=encode/httpx,psf/black …          # only these repositories
//! CC_SEARCH_BENCH_FIND_MIRRORS=/work/.mirror …                  # where the git mirrors are
//! CC_SEARCH_BENCH_FIND_WORK=/tmp/findwork …                     # work trees (cloned anew each run)
//! CC_SEARCH_BENCH_FIND_DUMP=features.jsonl …                    # every ranked file's evidence
//! CC_SEARCH_BENCH_FIND_SET=items.jsonl …                        # another set of items
//! CC_SEARCH_BENCH_FIND_SET=issues …                             # the issue set
//! CC_SEARCH_BENCH_FIND_LANG=py,rs …                             # only these languages
//! CC_SEARCH_BENCH_FIND_SIDES=keyword …                          # without the model (keyword + structure)
//! CC_SEARCH_BENCH_FIND_COMPARED=40 …                           # definitions the model compares
//! CC_SEARCH_BENCH_FIND_MEANING=10,2,12 …                        # files, definitions each, lines the model reads
//! CC_SEARCH_MODEL_DIR=/path/to/all-MiniLM-L6-v2 …               # the model (else found as the engine finds it)
//! ```
//!
//! Each repository is checked out at each item's parent commit in date order, and both
//! rankers answer the item's message there: `code.find` on its index (brought up to date
//! with the checkout: the first item's call indexes the repository cold), and plain BM25
//! — SQLite FTS5 (`unicode61`, no stemming, no identifier splitting) over each non-test
//! code file's path and text, asked for any of the message's words (English stopwords
//! dropped) — over the same files, updated with the checkout. An item is found at rank
//! `r` when the `r`-th file is one its commit changed; test files are dropped from both
//! rankings (no item's answer is one). Printed per repository and in all: Recall@1/5/10
//! and MRR@10 of both, the first (cold) `code.find` time and the later calls' median.
//!
//! Items that give the changed lines (`lines`, the issue set) are scored by definition
//! too: the gold definitions are the innermost function, method, class, … (by the
//! index's own outline of the file at the parent) around each changed line, and the
//! answer's definitions are its `hits` (the definitions of its best files, ranked,
//! those of test files dropped); `fn@5`/`fn@10` is the share of items with a gold
//! definition among the first 5/10, over the items where a changed line is inside one
//! (`fn n`).

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use cc_search::Engine;
use cc_search::code::{
    FindCodeRequest, GetFileSymbols, GetFileSymbolsRequest, Symbol, Weights, extractor_for_path,
    find_ranked, is_ranked_kind, is_test_path,
};
use cc_search::ops::Operation;
use rusqlite::{Connection, params};
use serde_json::Value;

struct Item {
    repo: String,
    parent: String,
    date: String,
    query: String,
    files: Vec<String>,
    /// Changed line ranges (at the parent) of each gold file, when the set gives them.
    lines: BTreeMap<String, Vec<(i64, i64)>>,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn git(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Check out `commit` in `dir`. A mirror may lack its largest blobs (media, archives);
/// those files are then left out of the checkout (a sparse checkout without them).
fn checkout(dir: &Path, commit: &str) {
    let tried = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["checkout", "-q", "-f", commit])
        .output()
        .expect("run git");
    if tried.status.success() {
        return;
    }
    let blobs = blobs(dir, commit);
    let mut check = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["cat-file", "--batch-check=%(objectname) %(objecttype)"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run git cat-file");
    let mut input = check.stdin.take().expect("stdin");
    let oids: String = blobs.iter().map(|b| format!("{}\n", b.oid)).collect();
    let writer = std::thread::spawn(move || input.write_all(oids.as_bytes()));
    let out = check.wait_with_output().expect("git cat-file");
    writer.join().expect("writer").expect("write oids");
    let mut patterns = vec!["/*".to_string()];
    for (line, blob) in String::from_utf8_lossy(&out.stdout).lines().zip(&blobs) {
        if line.ends_with(" missing") {
            patterns.push(format!("!/{}", blob.path));
        }
    }
    let mut args = vec!["sparse-checkout", "set", "--no-cone"];
    args.extend(patterns.iter().map(String::as_str));
    git(dir, &args);
    git(dir, &["checkout", "-q", "-f", commit]);
}

/// A file of a commit, as `git ls-tree` lists it.
struct Blob {
    mode: String,
    oid: String,
    path: String,
}

/// The files (blobs) of `commit`, in `git ls-tree -r` order.
fn blobs(dir: &Path, commit: &str) -> Vec<Blob> {
    let out = git(dir, &["ls-tree", "-r", "-z", commit]);
    let mut blobs = Vec::new();
    for entry in out.split(|b| *b == 0) {
        let entry = String::from_utf8_lossy(entry);
        if let Some((meta, path)) = entry.split_once('\t')
            && let [mode, "blob", oid] = meta.split(' ').collect::<Vec<_>>()[..]
        {
            blobs.push(Blob {
                mode: mode.to_string(),
                oid: oid.to_string(),
                path: path.to_string(),
            });
        }
    }
    blobs
}

/// The code files of the checkout (path → blob id), as `git ls-tree` lists them.
fn tree(dir: &Path, commit: &str) -> BTreeMap<String, String> {
    blobs(dir, commit)
        .into_iter()
        .filter(|b| b.mode != "120000" && extractor_for_path(Path::new(&b.path)).is_some())
        .filter(|b| !(b.path.ends_with(".md") || b.path.ends_with(".markdown")))
        .map(|b| (b.path, b.oid))
        .collect()
}

/// Plain BM25 over whole files, kept in step with the checkout.
struct Plain {
    conn: Connection,
    ids: HashMap<String, i64>,
    blobs: BTreeMap<String, String>,
    next: i64,
}

impl Plain {
    fn new() -> Plain {
        let conn = Connection::open_in_memory().expect("sqlite");
        conn.execute_batch("CREATE VIRTUAL TABLE docs USING fts5(path UNINDEXED, text)")
            .expect("fts5");
        Plain {
            conn,
            ids: HashMap::new(),
            blobs: BTreeMap::new(),
            next: 0,
        }
    }

    fn update(&mut self, dir: &Path, files: BTreeMap<String, String>) {
        let files: BTreeMap<String, String> = files
            .into_iter()
            .filter(|(p, _)| !is_test_path(p))
            .collect();
        for path in self.blobs.keys() {
            if !files.contains_key(path)
                && let Some(id) = self.ids.remove(path)
            {
                self.conn
                    .execute("DELETE FROM docs WHERE rowid = ?1", [id])
                    .expect("delete");
            }
        }
        for (path, oid) in &files {
            if self.blobs.get(path) == Some(oid) {
                continue;
            }
            let text = std::fs::read(dir.join(path)).unwrap_or_default();
            let text = format!("{path}\n{}", String::from_utf8_lossy(&text));
            if let Some(id) = self.ids.get(path) {
                self.conn
                    .execute("DELETE FROM docs WHERE rowid = ?1", [id])
                    .expect("delete");
            }
            self.next += 1;
            let next = self.next;
            self.conn
                .execute(
                    "INSERT INTO docs (rowid, path, text) VALUES (?1, ?2, ?3)",
                    params![next, path, text],
                )
                .expect("insert");
            self.ids.insert(path.clone(), next);
        }
        self.blobs = files;
    }

    fn rank(&self, query: &str, limit: usize) -> Vec<String> {
        // Every distinct word (letters and digits), English stopwords dropped, any of them.
        let mut words: Vec<String> = Vec::new();
        for word in query.split(|c: char| !c.is_alphanumeric()) {
            let word = word.to_lowercase();
            if !word.is_empty()
                && !cc_search::text::STOPWORDS.contains(&word.as_str())
                && !words.contains(&word)
            {
                words.push(word);
            }
        }
        let Some(fts) = cc_search::text::fts5_any_of(&words) else {
            return Vec::new();
        };
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT path FROM docs WHERE docs MATCH ?1 ORDER BY bm25(docs), rowid LIMIT ?2",
            )
            .expect("prepare");
        stmt.query_map(params![fts, limit as i64], |r| r.get(0))
            .expect("query")
            .collect::<rusqlite::Result<_>>()
            .expect("rows")
    }
}

#[derive(Default, Clone)]
struct Score {
    n: usize,
    at1: usize,
    at5: usize,
    at10: usize,
    rr: f64,
}

impl Score {
    fn add<T: PartialEq>(&mut self, ranked: &[T], gold: &[T]) {
        self.n += 1;
        if let Some(r) = ranked.iter().take(10).position(|p| gold.contains(p)) {
            self.at1 += usize::from(r < 1);
            self.at5 += usize::from(r < 5);
            self.at10 += 1;
            self.rr += 1.0 / (r + 1) as f64;
        }
    }

    fn merge(&mut self, other: &Score) {
        self.n += other.n;
        self.at1 += other.at1;
        self.at5 += other.at5;
        self.at10 += other.at10;
        self.rr += other.rr;
    }

    fn fn_cells(&self) -> String {
        let pct = |k: usize| 100.0 * k as f64 / self.n.max(1) as f64;
        format!(
            "  {:>4} {:4.1} {:4.1} {:5.1}",
            self.n,
            pct(self.at1),
            pct(self.at5),
            pct(self.at10)
        )
    }

    fn cells(&self) -> String {
        let pct = |k: usize| 100.0 * k as f64 / self.n.max(1) as f64;
        format!(
            "{:5.1} {:5.1} {:5.1} {:5.3}",
            pct(self.at1),
            pct(self.at5),
            pct(self.at10),
            self.rr / self.n.max(1) as f64
        )
    }
}

fn load(
    path: &Path,
    split: &str,
    repos: &Option<Vec<String>>,
    langs: &Option<Vec<String>>,
) -> Vec<Item> {
    let text = std::fs::read_to_string(path).expect("read the development set");
    let either = |v: &Value, a: &str, b: &str| {
        v[a].as_str()
            .or_else(|| v[b].as_str())
            .unwrap_or_default()
            .to_string()
    };
    let mut items: Vec<Item> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|v| v["split"] == split)
        .filter(|v| {
            repos
                .as_ref()
                .is_none_or(|r| r.iter().any(|x| v["repo"] == x.as_str()))
        })
        .filter(|v| {
            langs
                .as_ref()
                .is_none_or(|l| l.iter().any(|x| v["lang"] == x.as_str()))
        })
        .map(|v| Item {
            repo: v["repo"].as_str().unwrap_or_default().to_string(),
            // The commit-message set names the parent and the commit's date, the issue
            // set the fix's base and the issue's date.
            parent: either(&v, "parent", "base"),
            date: either(&v, "date", "created_at"),
            query: v["query"].as_str().unwrap_or_default().to_string(),
            files: v["files"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|f| f.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            lines: v["lines"]
                .as_object()
                .map(|files| {
                    files
                        .iter()
                        .map(|(path, ranges)| {
                            let ranges = ranges
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter_map(|r| Some((r[0].as_i64()?, r[1].as_i64()?)))
                                .collect();
                            (path.clone(), ranges)
                        })
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect();
    items.sort_by(|a, b| (&a.repo, &a.date).cmp(&(&b.repo, &b.date)));
    items
}

/// The ids of the innermost definitions around the changed lines of `item`'s gold files,
/// by the index's outline of each, of the kinds `code.find` ranks ([`is_ranked_kind`]: a
/// line changed in a module and in no definition of it names no definition to change).
fn gold_definitions(engine: &Engine, dir: &Path, item: &Item) -> Vec<i64> {
    fn flatten(symbols: Vec<Symbol>, out: &mut Vec<(i64, i64, i64)>) {
        for s in symbols {
            if is_ranked_kind(&s.kind) {
                out.push((s.id, s.start_line, s.end_line));
            }
            flatten(s.children, out);
        }
    }
    let mut gold = Vec::new();
    for (path, ranges) in &item.lines {
        let Ok(outline) = GetFileSymbols::run(
            engine,
            GetFileSymbolsRequest {
                path: Some(dir.to_path_buf()),
                file: PathBuf::from(path),
            },
        ) else {
            continue;
        };
        let mut defs = Vec::new();
        flatten(outline.symbols, &mut defs);
        for &(start, end) in ranges {
            for line in start..=end {
                // The innermost: the one that starts last among those around the line.
                let around = defs
                    .iter()
                    .filter(|d| d.1 <= line && line <= d.2)
                    .max_by_key(|d| (d.1, -d.2));
                if let Some(d) = around
                    && !gold.contains(&d.0)
                {
                    gold.push(d.0);
                }
            }
        }
    }
    gold
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let set = match env("CC_SEARCH_BENCH_FIND_SET").as_deref() {
        None => root.join("benches/find/devset.jsonl"),
        Some("issues") => root.join("benches/find/issues/issues.jsonl"),
        Some(other) => PathBuf::from(other),
    };
    let split = env("CC_SEARCH_BENCH_FIND_SPLIT").unwrap_or_else(|| "test".into());
    let list = |name: &str| env(name).map(|r| r.split(',').map(str::to_string).collect::<Vec<_>>());
    let repos = list("CC_SEARCH_BENCH_FIND_REPOS");
    let langs = list("CC_SEARCH_BENCH_FIND_LANG");
    let mirrors = PathBuf::from(
        env("CC_SEARCH_BENCH_FIND_MIRRORS").unwrap_or_else(|| "/work/.mirror".into()),
    );
    let work = PathBuf::from(env("CC_SEARCH_BENCH_FIND_WORK").unwrap_or_else(|| {
        std::env::temp_dir()
            .join("cc-search-find")
            .display()
            .to_string()
    }));
    let mut dump = env("CC_SEARCH_BENCH_FIND_DUMP")
        .map(|p| std::io::BufWriter::new(std::fs::File::create(p).expect("create the dump")));
    let items = load(&set, &split, &repos, &langs);
    let by_definition = items.iter().any(|i| !i.lines.is_empty());
    println!(
        "code.find vs plain BM25 over whole files: {} items of the {split} split",
        items.len()
    );
    println!(
        "{:<28} {:>4}  {:<23}  {:<23}  {:>8} {:>8} {:>7}{}",
        "repository",
        "n",
        "find R@1 R@5 R@10 MRR",
        "bm25 R@1 R@5 R@10 MRR",
        "files",
        "cold s",
        "p50 ms",
        if by_definition {
            "  fn n fn@1 fn@5 fn@10"
        } else {
            ""
        }
    );
    let mut weights = Weights::default();
    if env("CC_SEARCH_BENCH_FIND_SIDES").as_deref() == Some("keyword") {
        weights.meaning = 0.0;
    }
    if let Some(n) = env("CC_SEARCH_BENCH_FIND_COMPARED") {
        weights.definitions_compared = n.parse().expect("CC_SEARCH_BENCH_FIND_COMPARED: a number");
    }
    if let Some(sizes) = env("CC_SEARCH_BENCH_FIND_MEANING") {
        let sizes: Vec<usize> = sizes.split(',').filter_map(|n| n.parse().ok()).collect();
        let [files, units, lines] = sizes[..] else {
            panic!("CC_SEARCH_BENCH_FIND_MEANING is FILES,UNITS,LINES");
        };
        (
            weights.meaning_files,
            weights.meaning_units,
            weights.meaning_lines,
        ) = (files, units, lines);
    }
    let (mut all_find, mut all_plain, mut all_fn) =
        (Score::default(), Score::default(), Score::default());
    let mut by_repo: BTreeMap<&str, Vec<&Item>> = BTreeMap::new();
    for item in &items {
        by_repo.entry(&item.repo).or_default().push(item);
    }
    for (repo, items) in by_repo {
        let slug = repo.replace('/', "+");
        let dir = work.join(&slug);
        // A fresh clone each run (a shared one: cheap), so that what an earlier run left
        // (a sparse checkout's patterns) cannot change what this one sees.
        let _ = std::fs::remove_dir_all(&dir);
        let mirror = mirrors.join(&slug).join("repo");
        let out = Command::new("git")
            .args(["clone", "-q", "--shared", "--no-checkout"])
            .arg(&mirror)
            .arg(&dir)
            .output()
            .expect("git clone");
        assert!(
            out.status.success(),
            "clone {}: {}",
            mirror.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let home = work.join(format!("{slug}.home"));
        let _ = std::fs::remove_dir_all(&home);
        let engine = Engine::open_at(&home).expect("engine");
        let mut plain = Plain::new();
        let (mut find_score, mut plain_score, mut fn_score) =
            (Score::default(), Score::default(), Score::default());
        let mut cold = 0.0;
        let mut warm = Vec::new();
        let mut files = 0;
        for (i, item) in items.iter().enumerate() {
            checkout(&dir, &item.parent);
            git(&dir, &["clean", "-q", "-f", "-d", "-x"]);
            let listed = tree(&dir, &item.parent);
            files = listed.len();
            plain.update(&dir, listed);
            let started = Instant::now();
            let ranked = find_ranked(
                &engine,
                FindCodeRequest {
                    path: Some(dir.clone()),
                    query: item.query.clone(),
                    ..Default::default()
                },
                &weights,
            )
            .expect("code.find");
            let took = started.elapsed().as_secs_f64();
            if i == 0 {
                cold = took;
            } else {
                warm.push(took * 1000.0);
            }
            let ranked_files: Vec<_> = ranked
                .files
                .iter()
                .filter(|f| !is_test_path(&f.path))
                .collect();
            let found: Vec<String> = ranked_files.iter().map(|f| f.path.clone()).collect();
            find_score.add(&found, &item.files);
            let definitions: Vec<_> = ranked
                .definitions
                .iter()
                .filter(|d| !is_test_path(&d.path))
                .collect();
            let mut gold_ids = Vec::new();
            if !item.lines.is_empty() {
                let gold = gold_definitions(&engine, &dir, item);
                if !gold.is_empty() {
                    let ids: Vec<i64> = definitions.iter().take(10).map(|d| d.id).collect();
                    fn_score.add(&ids, &gold);
                }
                gold_ids = gold;
            }
            plain_score.add(&plain.rank(&item.query, 10), &item.files);
            if let Some(out) = dump.as_mut() {
                let candidates: Vec<Value> = ranked
                    .files
                    .iter()
                    .take(300)
                    .map(|f| {
                        serde_json::json!({
                            "path": f.path,
                            "gold": item.files.contains(&f.path),
                            "x": f.features,
                        })
                    })
                    .collect();
                let definitions: Vec<Value> = definitions
                    .iter()
                    .take(300)
                    .map(|d| {
                        serde_json::json!({
                            "id": d.id,
                            "gold": gold_ids.contains(&d.id),
                            "gold_file": item.files.contains(&d.path),
                            "x": d.features,
                        })
                    })
                    .collect();
                let line = serde_json::json!({
                    "repo": repo, "parent": item.parent, "n_gold": item.files.len(),
                    "gold_definitions": gold_ids.len(),
                    "candidates": candidates, "definitions": definitions,
                });
                writeln!(out, "{line}").expect("write the dump");
            }
        }
        warm.sort_by(f64::total_cmp);
        let p50 = warm.get(warm.len() / 2).copied().unwrap_or(0.0);
        println!(
            "{:<28} {:>4}  {}  {}  {:>8} {:>8.1} {:>7.0}{}",
            repo,
            find_score.n,
            find_score.cells(),
            plain_score.cells(),
            files,
            cold,
            p50,
            if by_definition {
                fn_score.fn_cells()
            } else {
                String::new()
            }
        );
        all_find.merge(&find_score);
        all_plain.merge(&plain_score);
        all_fn.merge(&fn_score);
    }
    println!(
        "{:<28} {:>4}  {}  {}{}",
        "all",
        all_find.n,
        all_find.cells(),
        all_plain.cells(),
        if by_definition {
            format!("{:>35}", all_fn.fn_cells())
        } else {
            String::new()
        }
    );
}
