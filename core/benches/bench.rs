//! Benchmarks of cc-search, printed as a table. Run with `make bench` (or
//! `cargo bench -p cc-search --bench bench`; add `-- --quick` for a smaller run).
//!
//! `-- --suggest-only [--size N] [--runs N] [--tree DIR] [--query Q]` times the in-process
//! `files.suggest` queries alone, at one tree size (default 100,000 files), and prints
//! p50, p90 and p99 of each: the picker's own cost, without the refresh and the process
//! rows. With `--tree DIR` the generated tree is kept in `DIR/N` and used again by later
//! runs, so two builds can be compared on the same files. `--query Q` times `Q` alone;
//! `--raw FILE` appends every time measured to FILE (query, microseconds; one a line).
//!
//! Each row names the operation, the corpus, the median and p95 of repeated runs, and —
//! where one exists — what a user would use instead, timed in the same run, as a ratio.
//! Whole-process rows run the Python CLI (`$CC_SEARCH_CLI`, default `.venv/bin/cc-search`)
//! and the Node binding (`$CC_SEARCH_NODE_SCRIPT`, default `core/benches/suggest.mjs`)
//! when they exist.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cc_search::Engine;
use cc_search::files::{Refresh, RefreshRequest, Suggest, SuggestRequest};

const WORDS: &[&str] = &[
    "api",
    "auth",
    "button",
    "client",
    "components",
    "config",
    "core",
    "data",
    "docs",
    "editor",
    "engine",
    "events",
    "hooks",
    "index",
    "layout",
    "lib",
    "modal",
    "models",
    "net",
    "parser",
    "render",
    "router",
    "server",
    "services",
    "src",
    "store",
    "styles",
    "tests",
    "types",
    "ui",
    "user",
    "utils",
    "view",
    "worker",
];
const EXTS: &[&str] = &["ts", "tsx", "rs", "py", "md", "json", "go", "css"];

/// A deterministic pseudo-random generator (xorshift), so every run builds the same tree.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next() % items.len()]
    }
}

/// Create `n` files under `root` in a tree 1–5 directories deep.
fn generate(root: &Path, n: usize) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut made = 0;
    while made < n {
        let depth = 1 + rng.next() % 5;
        let mut dir = root.to_path_buf();
        for _ in 0..depth {
            dir.push(rng.pick(WORDS));
        }
        std::fs::create_dir_all(&dir).unwrap();
        for _ in 0..(1 + rng.next() % 12).min(n - made) {
            let name = format!(
                "{}{}{}.{}",
                rng.pick(WORDS),
                ["", "_", "-", ""][rng.next() % 4],
                rng.pick(WORDS),
                rng.pick(EXTS)
            );
            let path = dir.join(name);
            if !path.exists() {
                std::fs::write(&path, b"").unwrap();
                made += 1;
            }
        }
    }
}

/// Make the tree a git repository with a history to compute frecency from: everything in
/// one commit, then 40 commits over the last 60 days touching a few files each, and a few
/// uncommitted edits.
fn make_history(root: &Path) {
    let git = |args: &[&str], at: i64| {
        let date = format!("@{at} +0000");
        let ok = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "git {args:?}");
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    git(&["init", "-q", "-b", "main"], now);
    git(&["config", "user.name", "bench"], now);
    git(&["config", "user.email", "bench@example.invalid"], now);
    git(&["add", "-A"], now - 61 * 86_400);
    git(&["commit", "-q", "-m", "import"], now - 61 * 86_400);
    let files: Vec<PathBuf> = ignore::WalkBuilder::new(root)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(|e| e.into_path())
        .collect();
    let mut rng = Rng(42);
    for c in 0..40 {
        for _ in 0..5 {
            let f = &files[rng.next() % files.len()];
            std::fs::write(f, format!("{c}")).unwrap();
        }
        // Spread over the last 60 days, the newest an hour ago.
        let at = now - 3600 - (39 - c) * (60 * 86_400 / 40);
        git(&["commit", "-q", "-am", &format!("change {c}")], at);
    }
    for _ in 0..3 {
        std::fs::write(&files[rng.next() % files.len()], b"edited").unwrap();
    }
    // Let git record clean stat data in its index (files written in the same second as the
    // index are "racy" and re-read by every status), as in any repository used for a while.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    git(&["status", "--porcelain"], now);
}

struct Stats {
    median: Duration,
    p95: Duration,
}

fn measure(runs: usize, mut f: impl FnMut()) -> Stats {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    Stats {
        median: times[times.len() / 2],
        p95: times[(times.len() * 95 / 100).min(times.len() - 1)],
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn row(what: &str, corpus: &str, s: &Stats, baseline: Option<(&str, Duration)>) {
    let versus = match baseline {
        Some((name, base)) => format!(
            "{name} {} → {:.2}×",
            ms(base),
            base.as_secs_f64() / s.median.as_secs_f64()
        ),
        None => String::new(),
    };
    println!(
        "| {what} | {corpus} | {} | {} | {versus} |",
        ms(s.median),
        ms(s.p95)
    );
}

fn tool(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    })
}

fn run_quiet(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

const QUERIES: &[&str] = &["button", "src/comp", "utils.ts", "ser", "hooks/use", "x"];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--suggest-only") {
        return suggest_only(&args);
    }
    let quick = args.iter().any(|a| a == "--quick");
    let sizes: &[usize] = if quick { &[10_000] } else { &[10_000, 100_000] };
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let cli = std::env::var_os("CC_SEARCH_CLI")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join(".venv/bin/cc-search"));
    let node_script = std::env::var_os("CC_SEARCH_NODE_SCRIPT")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("core/benches/suggest.mjs"));
    let fd = tool("fd").or_else(|| tool("fdfind"));
    let rg = tool("rg");

    println!("| operation | corpus | median | p95 | instead (same run) |");
    println!("| --- | --- | --- | --- | --- |");
    for &n in sizes {
        let tree = tempfile::tempdir().unwrap();
        generate(tree.path(), n);
        make_history(tree.path());
        let corpus = format!("{}k files, git", n / 1000);
        let runs = if n >= 100_000 { 5 } else { 11 };

        // Cold refresh: a new database each run.
        let homes: Vec<tempfile::TempDir> =
            (0..runs).map(|_| tempfile::tempdir().unwrap()).collect();
        let mut next = homes.iter();
        let request = || RefreshRequest {
            root: Some(tree.path().into()),
            max_files: Some(n + 1),
            ..Default::default()
        };
        let cold = measure(runs, || {
            let engine = Engine::open_at(next.next().unwrap().path()).unwrap();
            let r = engine.run::<Refresh>(request()).unwrap();
            assert_eq!(r.files, n);
        });
        let fd_time = fd.as_ref().map(|fd| {
            measure(runs, || {
                assert!(run_quiet(
                    Command::new(fd)
                        .args(["--type", "f", "--hidden", "--no-ignore-vcs", "."])
                        .arg(tree.path())
                ));
            })
            .median
        });
        let rg_time = rg.as_ref().map(|rg| {
            measure(runs, || {
                assert!(run_quiet(Command::new(rg).arg("--files").arg(tree.path())));
            })
            .median
        });
        row(
            "files.refresh (cold, new index)",
            &corpus,
            &cold,
            fd_time.map(|t| ("fd", t)),
        );
        if let Some(t) = rg_time {
            println!(
                "| | | | | rg --files {} → {:.2}× |",
                ms(t),
                t.as_secs_f64() / cold.median.as_secs_f64()
            );
        }
        if n == 10_000 {
            println!(
                "| | | | | spec: build 10k + query ≈ 40 ms → {:.2}× |",
                0.040 / cold.median.as_secs_f64()
            );
        }

        // Warm refresh: nothing changed. By default the tree (a git work tree) is
        // brought up to date from directory mtimes and git; `full` walks it again.
        let home = tempfile::tempdir().unwrap();
        let engine = Engine::open_at(home.path()).unwrap();
        engine.run::<Refresh>(request()).unwrap();
        for (what, full) in [
            ("files.refresh (warm, unchanged)", false),
            ("files.refresh (warm, unchanged, full walk)", true),
        ] {
            let warm = measure(runs, || {
                let r = engine
                    .run::<Refresh>(RefreshRequest { full, ..request() })
                    .unwrap();
                assert_eq!(r.added + r.updated + r.removed, 0);
                assert_eq!(r.roots[0].incremental, !full);
            });
            row(what, &corpus, &warm, fd_time.map(|t| ("fd", t)));
        }

        // In-process suggest latency over a set of queries.
        let mut all = Vec::new();
        for q in QUERIES {
            let s = measure(51, || {
                engine
                    .run::<Suggest>(SuggestRequest {
                        query: (*q).into(),
                        project_dir: Some(tree.path().into()),
                        limit: None,
                        budget_ms: Some(10_000),
                        ..Default::default()
                    })
                    .unwrap();
            });
            all.push(s.median);
            row(
                &format!("files.suggest `{q}` (in-process)"),
                &corpus,
                &s,
                None,
            );
        }
        all.sort();
        let typical = all[all.len() / 2];
        println!(
            "| files.suggest median of queries | {corpus} | {} | | spec: FTS5 query alone ≈ 0.5 ms → {:.2}× |",
            ms(typical),
            0.0005 / typical.as_secs_f64()
        );

        // Whole processes, as Claude Code runs them.
        if cli.is_file() {
            let s = measure(runs, || {
                assert!(run_quiet(
                    Command::new(&cli)
                        .args(["files", "suggest", "button", "--project-dir"])
                        .arg(tree.path())
                        .env("CC_SEARCH_HOME", home.path())
                ));
            });
            row(
                "cc-search files suggest (Python CLI process)",
                &corpus,
                &s,
                Some(("spec: Bun + SQLite + query ≈", Duration::from_millis(10))),
            );
        } else {
            println!(
                "| cc-search files suggest (Python CLI process) | {corpus} | not run: {} missing | | |",
                cli.display()
            );
        }
        if node_script.is_file() && tool("node").is_some() {
            let s = measure(runs, || {
                assert!(run_quiet(
                    Command::new("node")
                        .arg(&node_script)
                        .arg(tree.path())
                        .arg("button")
                        .env("CC_SEARCH_HOME", home.path())
                ));
            });
            row(
                "files suggest (Node process + addon)",
                &corpus,
                &s,
                Some(("spec: Bun + SQLite + query ≈", Duration::from_millis(10))),
            );
        } else {
            println!(
                "| files suggest (Node process + addon) | {corpus} | not run: {} missing | | |",
                node_script.display()
            );
        }
    }
    println!();
    println!(
        "machine: {} cores; fd: {}; rg: {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        fd.map_or("not installed".into(), |p| p.display().to_string()),
        rg.map_or("not installed".into(), |p| p.display().to_string()),
    );
}

/// The value after `--name` on the command line.
fn option<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    let at = args.iter().position(|a| a == name)?;
    let value = args.get(at + 1)?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name}: cannot read {value:?}")),
    )
}

/// `--suggest-only`: the in-process query times alone, p50 / p90 / p99 per query.
fn suggest_only(args: &[String]) {
    let n: usize = option(args, "--size").unwrap_or(100_000);
    let runs: usize = option(args, "--runs").unwrap_or(101);
    let kept: Option<PathBuf> = option(args, "--tree");
    let temp = tempfile::tempdir().unwrap();
    let tree = match &kept {
        Some(dir) => dir.join(n.to_string()),
        None => temp.path().join("tree"),
    };
    // A marker beside the tree (not in it: it would be indexed) says it is complete.
    let done = tree.with_extension("done");
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&tree);
        std::fs::create_dir_all(&tree).unwrap();
        generate(&tree, n);
        make_history(&tree);
        std::fs::write(&done, b"").unwrap();
    }
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let r = engine
        .run::<Refresh>(RefreshRequest {
            root: Some(tree.clone()),
            max_files: Some(n + 1),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.files, n);
    let corpus = format!("{}k files, git", n / 1000);
    let only: Option<String> = option(args, "--query");
    let mut raw = option::<PathBuf>(args, "--raw").map(|file| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
    });
    let queries: Vec<&str> = match &only {
        Some(q) => vec![q.as_str()],
        None => QUERIES.to_vec(),
    };
    println!("| query | corpus | runs | p50 | p90 | p99 |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for q in queries {
        let suggest = || {
            engine
                .run::<Suggest>(SuggestRequest {
                    query: q.into(),
                    project_dir: Some(tree.clone()),
                    limit: None,
                    budget_ms: Some(10_000),
                    ..Default::default()
                })
                .unwrap()
        };
        // One run to warm the page cache and the statement cache.
        let answer = suggest();
        let mut times: Vec<Duration> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                suggest();
                start.elapsed()
            })
            .collect();
        if let Some(raw) = raw.as_mut() {
            use std::io::Write;
            for t in &times {
                writeln!(raw, "{q}\t{}", t.as_micros()).unwrap();
            }
        }
        times.sort();
        let at = |p: usize| ms(times[(times.len() * p / 100).min(times.len() - 1)]);
        println!(
            "| files.suggest `{q}` ({} paths) | {corpus} | {runs} | {} | {} | {} |",
            answer.paths.len(),
            at(50),
            at(90),
            at(99)
        );
    }
    println!();
    println!(
        "machine: {} cores",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
}
