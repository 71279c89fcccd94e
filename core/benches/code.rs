//! The code symbol index on a large real source tree: cold indexing (files/s, MB/s),
//! re-indexing with no change, `update_files` of one changed file, `search_symbols`
//! latency (p50/p99).
//!
//! ```text
//! cargo bench -p cc-search --bench code
//! CC_SEARCH_BENCH_CODE_DIR=/path/to/tree cargo bench -p cc-search --bench code
//! CC_SEARCH_BENCH_CODE_NO_BOUND=1 …     # skip the parser-only bound (profiling)
//! CC_SEARCH_BENCH_CODE_DUMP=out.txt …   # write every row of the cold index, to `cmp`
//! ```
//!
//! CPU seconds (user + system) are printed beside wall times: on a shared 2-core machine
//! they move less with the load than the wall time does.
//!
//! By default the tree is the local crates.io source cache (`~/.cargo/registry/src/*`),
//! copied (source files up to 1 MiB only) into a temporary directory so the update
//! step can edit a file. DESIGN §4: tree-sitter parses 4–7 MB/s per core here, so 2
//! cores bound cold indexing near 10 MB/s; the goal is ≥ 8 MB/s.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cc_search::Engine;
use cc_search::code::extractor_for_path;
use serde_json::{Value, json};

fn source_tree() -> PathBuf {
    if let Some(dir) = std::env::var_os("CC_SEARCH_BENCH_CODE_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    let src = home.join(".cargo/registry/src");
    std::fs::read_dir(&src)
        .ok()
        .and_then(|mut entries| entries.find_map(|e| e.ok().map(|e| e.path())))
        .unwrap_or(src)
}

/// Copy the files an index would read (known extension, ≤ 1 MiB) below `from` to `to`.
fn copy_sources(from: &Path, to: &Path) -> (usize, u64) {
    let mut files = 0;
    let mut bytes = 0;
    let mut stack = vec![from.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                let name = entry.file_name();
                if name != "target" && name != ".git" && name != "node_modules" {
                    stack.push(path);
                }
            } else if kind.is_file() && extractor_for_path(&path).is_some() {
                let Ok(meta) = entry.metadata() else { continue };
                if meta.len() > 1024 * 1024 {
                    continue;
                }
                let Ok(rel) = path.strip_prefix(from) else {
                    continue;
                };
                let target = to.join(rel);
                if let Some(parent) = target.parent() {
                    let _ = std::fs::create_dir_all(parent);
                }
                if std::fs::copy(&path, &target).is_ok() {
                    files += 1;
                    bytes += meta.len();
                }
            }
        }
    }
    (files, bytes)
}

/// Every file below `dir` a language claims, in path order.
fn source_paths(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                Ok(t) if t.is_file() && extractor_for_path(&path).is_some() => out.push(path),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Run `work` on every file's text, spread over all cores; the wall time and the bytes.
fn on_all_cores(paths: &[PathBuf], work: impl Fn(&Path, &str) + Sync) -> (Duration, u64) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let bytes = std::sync::atomic::AtomicU64::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads() {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(path) = paths.get(i) else { break };
                    let Ok(raw) = std::fs::read(path) else {
                        continue;
                    };
                    bytes.fetch_add(raw.len() as u64, std::sync::atomic::Ordering::Relaxed);
                    work(path, &String::from_utf8_lossy(&raw));
                }
            });
        }
    });
    (started.elapsed(), bytes.into_inner())
}

fn call(engine: &Engine, op: &str, params: Value) -> Value {
    let out = engine.call(op, &params.to_string()).expect(op);
    serde_json::from_str(&out).expect("json")
}

/// CPU seconds (user + system) this process has used so far, from `/proc/self/stat`
/// (0 where there is no procfs).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces): utime and stime are the
    // 12th and 13th, in clock ticks (100 per second on Linux).
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Write every row of the index (files, imports, symbols, references, and the FTS hits
/// of a few queries) to `out`, so two builds' indexes can be compared with `cmp`.
fn dump(home: &Path, root: &Path, out: &Path) {
    use std::io::Write;
    let db = cc_search::code::db_path(home, root);
    let conn = rusqlite::Connection::open(db).expect("open index");
    let mut w = std::io::BufWriter::new(std::fs::File::create(out).expect("dump file"));
    let tables = [
        "SELECT id, rel_path, language, hash, size FROM files ORDER BY id",
        "SELECT file_id, module FROM file_imports ORDER BY file_id, module",
        "SELECT id, file_id, parent_symbol_id, name, kind, line_start, line_end, signature, doc_comment, name_tokens FROM symbols ORDER BY id",
        "SELECT id, file_id, from_symbol_id, to_name, to_symbol_id, kind, line FROM refs ORDER BY id",
        "SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH 'new' ORDER BY rowid",
        "SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH 'parser OR html' ORDER BY rowid",
        "SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH 'file_rel_path:itertools' ORDER BY rowid",
        "SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH 'doc_comment:returns' ORDER BY rowid",
        "SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH 'kind:struct' ORDER BY rowid",
    ];
    for sql in tables {
        writeln!(w, "## {sql}").unwrap();
        let mut stmt = conn.prepare(sql).expect(sql);
        let n = stmt.column_count();
        let mut rows = stmt.query([]).expect(sql);
        while let Some(row) = rows.next().expect(sql) {
            let cols: Vec<String> = (0..n)
                .map(|i| format!("{:?}", row.get_ref(i).expect("column")))
                .collect();
            writeln!(w, "{}", cols.join("\t")).unwrap();
        }
    }
}

fn main() {
    let source = source_tree();
    // `CC_SEARCH_BENCH_CODE_KEEP=DIR` keeps the copied tree and the index in `DIR` and
    // reuses them on the next run (for profiling updates: its "cold" index is then a
    // re-index, and says so).
    let keep = std::env::var_os("CC_SEARCH_BENCH_CODE_KEEP").map(PathBuf::from);
    let work = tempfile::tempdir().expect("tempdir");
    let base = keep.clone().unwrap_or_else(|| work.path().to_path_buf());
    let tree = base.join("tree");
    let started = Instant::now();
    let (files, bytes) = if keep.is_some() && tree.is_dir() {
        (0, 0)
    } else {
        copy_sources(&source, &tree)
    };
    if files == 0 {
        println!(
            "tree: kept in {} (the index too: \"cold\" below is a re-index)",
            base.display()
        );
    } else {
        println!(
            "tree: {} ({files} source files, {:.1} MB) copied in {:.1} s",
            source.display(),
            bytes as f64 / 1e6,
            started.elapsed().as_secs_f64()
        );
    }
    // The bound: tree-sitter alone, then tree-sitter plus symbol extraction, on every
    // core, over the same files (read from the page cache), nothing stored.
    // `CC_SEARCH_BENCH_CODE_NO_BOUND=1` skips it (for profiling the index alone).
    let paths = if std::env::var_os("CC_SEARCH_BENCH_CODE_NO_BOUND").is_some() {
        Vec::new()
    } else {
        source_paths(&tree)
    };
    let cpu = cpu_seconds();
    let (parse_time, parse_bytes) = on_all_cores(&paths, |path, text| {
        let Some((lang, ext)) = extractor_for_path(path) else {
            return;
        };
        let mut parser = tree_sitter::Parser::new();
        if parser.set_language(&lang.grammar(&ext)).is_ok() {
            std::hint::black_box(parser.parse(text, None));
        }
    });
    let parse_cpu = cpu_seconds() - cpu;
    let cpu = cpu_seconds();
    let (extract_time, _) = on_all_cores(&paths, |path, text| {
        if let Some((lang, ext)) = extractor_for_path(path) {
            std::hint::black_box(cc_search::code::extract_source(lang, &ext, text).ok());
        }
    });
    let extract_cpu = cpu_seconds() - cpu;
    let mb = parse_bytes as f64 / 1e6;
    println!(
        "bound on {} threads: tree-sitter parse only {:.2} s = {:.2} MB/s ({parse_cpu:.1} CPU s); parse + extract {:.2} s = {:.2} MB/s ({extract_cpu:.1} CPU s)",
        threads(),
        parse_time.as_secs_f64(),
        mb / parse_time.as_secs_f64(),
        extract_time.as_secs_f64(),
        mb / extract_time.as_secs_f64()
    );

    // Old mtimes: the fast check trusts an mtime only when it is older than the run.
    std::thread::sleep(Duration::from_millis(1100));
    let temp_home = tempfile::tempdir().expect("tempdir");
    let home = keep.map_or_else(|| temp_home.path().to_path_buf(), |k| k.join("home"));
    std::fs::create_dir_all(&home).expect("home");
    let engine = Engine::open_at(&home).expect("engine");
    let root = std::fs::canonicalize(&tree).expect("tree");
    let root_s = root.to_string_lossy().into_owned();

    let t = Instant::now();
    let cpu = cpu_seconds();
    let cold = call(&engine, "code.index_repository", json!({"path": root_s}));
    let cold_time = t.elapsed();
    let cold_cpu = cpu_seconds() - cpu;
    let indexed = cold["stats"]["files"].as_u64().unwrap_or(0);
    println!(
        "cold index / tree-sitter parse only: {:.2}x",
        parse_time.as_secs_f64() / cold_time.as_secs_f64()
    );
    println!(
        "cold index: {indexed} files, {} symbols, {} refs in {:.2} s = {:.0} files/s, {:.2} MB/s (goal ≥ 8 MB/s; {} skipped); {cold_cpu:.1} CPU s",
        cold["stats"]["symbols"],
        cold["stats"]["refs"],
        cold_time.as_secs_f64(),
        indexed as f64 / cold_time.as_secs_f64(),
        bytes as f64 / 1e6 / cold_time.as_secs_f64(),
        cold["skipped"].as_u64().unwrap_or(0),
    );

    if let Some(out) = std::env::var_os("CC_SEARCH_BENCH_CODE_DUMP") {
        dump(&home, &root, Path::new(&out));
    }

    let mut warm = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let again = call(&engine, "code.index_repository", json!({"path": root_s}));
        warm.push(t.elapsed());
        assert_eq!(again["changed"], 0);
    }
    warm.sort();
    println!(
        "re-index, no change: median {:.1} ms over 5 runs (goal ≤ 500 ms at 10k files)",
        ms(warm[2])
    );

    // One file changed: the best hit for the function name `new` (a name thousands of
    // references share) gets a new function appended.
    let victim = call(
        &engine,
        "code.search_symbols",
        json!({"path": root_s, "query": "new", "kind": "fn", "limit": 1}),
    );
    let rel = victim["hits"][0]["path"].as_str().unwrap_or("").to_string();
    let mut updates = Vec::new();
    if !rel.is_empty() {
        let path = root.join(&rel);
        for i in 0..10 {
            let mut text = std::fs::read_to_string(&path).unwrap_or_default();
            text.push_str(&format!("\nfn bench_added_{i}() {{}}\n"));
            std::fs::write(&path, text).expect("write");
            let t = Instant::now();
            let out = call(
                &engine,
                "code.update_files",
                json!({"path": root_s, "files": [rel]}),
            );
            updates.push(t.elapsed());
            assert_eq!(out["changed"], 1, "{out}");
        }
        updates.sort();
        println!(
            "update_files, one changed file ({rel}): median {:.2} ms, max {:.2} ms (goal ≤ 20 ms)",
            ms(updates[updates.len() / 2]),
            ms(updates[updates.len() - 1])
        );
    }

    // Search latency over symbol names of the index and a few subword queries.
    let mut queries: Vec<String> = [
        "new",
        "parse",
        "read*",
        "error",
        "iter",
        "from_str",
        "Display",
        "user",
        "encode",
        "buffer",
        "tree AND node",
        "hash OR map",
        "write NOT test",
        "utf8",
        "config",
        "Builder",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let sample = call(
        &engine,
        "code.search_symbols",
        json!({"path": root_s, "query": "fn", "limit": 200}),
    );
    if let Some(hits) = sample["hits"].as_array() {
        queries.extend(
            hits.iter()
                .filter_map(|h| h["name"].as_str().map(str::to_string)),
        );
    }
    let mut times = Vec::new();
    for _ in 0..3 {
        for q in &queries {
            let t = Instant::now();
            let _ = engine.call(
                "code.search_symbols",
                &json!({"path": root_s, "query": q}).to_string(),
            );
            times.push(t.elapsed());
        }
    }
    times.sort();
    let pct = |p: f64| ms(times[((times.len() as f64 * p) as usize).min(times.len() - 1)]);
    println!(
        "search_symbols: {} queries, p50 {:.2} ms, p99 {:.2} ms (goal p50 ≤ 2 ms)",
        times.len(),
        pct(0.5),
        pct(0.99)
    );
}
