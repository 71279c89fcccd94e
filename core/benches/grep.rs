//! `grep.search` against ripgrep on a large real source tree, printed as a table. Run with
//! `cargo bench -p cc-search --bench grep` (part of `make bench`; add `-- --quick` for
//! fewer rounds).
//!
//! The corpus is the Rust sources cargo has unpacked on this machine
//! (`$CARGO_HOME/registry/src`), copied once into `target/grep-bench/registry` (a git
//! repository of its own, so the ignore rules are a repository's) so every run reads the
//! same tree. Each query runs recursively through the operation table
//! (`engine.call("grep.search", json)`, JSON result included) and through `rg -n` with
//! its defaults, which are grep's: ignore files honoured, hidden files skipped. With
//! `CC_SEARCH_CLI` set to a `cc-search` program (`make bench` sets it), the same query
//! also runs through the CLI, a new process each time, as an agent's shell runs it.
//! Rounds alternate; the table has medians, the ratios to rg and the match counts (which
//! must agree).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use cc_search::Engine;

struct Query {
    name: &'static str,
    search: &'static str,
    whole_word: bool,
    case_insensitive: bool,
}

const QUERIES: &[Query] = &[
    Query {
        name: "literal",
        search: "unwrap_or_else",
        whole_word: false,
        case_insensitive: false,
    },
    Query {
        name: "whole word",
        search: "Error",
        whole_word: true,
        case_insensitive: false,
    },
    Query {
        name: "case-insensitive",
        search: "deserialize",
        whole_word: false,
        case_insensitive: true,
    },
    Query {
        name: "high-match word",
        search: "self",
        whole_word: false,
        case_insensitive: false,
    },
];

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 3 } else { 9 };
    let rg = std::env::var("RG").unwrap_or_else(|_| "rg".to_string());
    let cli = std::env::var("CC_SEARCH_CLI")
        .ok()
        .filter(|c| !c.is_empty());
    let rg_version = match Command::new(&rg).arg("--version").output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string(),
        _ => {
            eprintln!("grep bench: `{rg}` not found; install ripgrep (make bench does)");
            std::process::exit(1);
        }
    };

    let corpus = corpus();
    let (files, bytes) = tree_size(&corpus);
    let home = tempfile::tempdir().expect("temp dir");
    let engine = Engine::open_at(home.path()).expect("engine");

    println!(
        "grep: recursive search of {} ({files} files, {:.0} MB), {rounds} rounds, {} threads; {rg_version}",
        corpus.display(),
        bytes as f64 / 1e6,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );
    println!();
    println!(
        "| query | pattern | matches (ours) | matches (rg) | in-process | CLI | rg | in-process/rg | CLI/rg |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut agree = true;
    for query in QUERIES {
        let params = serde_json::json!({
            "search": query.search,
            "dir": corpus,
            "recursive": true,
            "whole_word": query.whole_word,
            "case_insensitive": query.case_insensitive,
        })
        .to_string();
        let rg_with = |mode: &str| {
            let mut cmd = Command::new(&rg);
            cmd.args([mode, "--no-config", "-F"]);
            if query.whole_word {
                cmd.arg("-w");
            }
            if query.case_insensitive {
                cmd.arg("-i");
            }
            cmd.arg("-e").arg(query.search).arg(&corpus);
            cmd
        };
        // Timed: matching lines printed with their numbers. Counted apart (`-c`, per
        // file): a file rg finds binary after printing some of its lines (it prints a
        // warning then) is left out of both counts, as grep leaves binary files out.
        let mut rg_cmd = rg_with("-n");
        let rg_count: u64 = String::from_utf8_lossy(&rg_with("-c").output().expect("rg -c").stdout)
            .lines()
            .filter_map(|line| line.rsplit_once(':')?.1.parse::<u64>().ok())
            .sum();

        let ours_once = || {
            let start = Instant::now();
            let json = engine.call("grep.search", &params).expect("grep.search");
            let elapsed = start.elapsed();
            let value: serde_json::Value = serde_json::from_str(&json).expect("json");
            let count = value["directories"][0]["matches_found"]
                .as_u64()
                .expect("matches_found");
            (elapsed, count)
        };
        let mut cli_cmd = cli.as_ref().map(|cli| {
            let mut cmd = Command::new(cli);
            cmd.args(["grep", "--recursive", "--search", query.search, "--dir"])
                .arg(&corpus)
                .env("CC_SEARCH_HOME", home.path());
            if query.whole_word {
                cmd.arg("--whole-word");
            }
            if query.case_insensitive {
                cmd.arg("--case-insensitive");
            }
            cmd
        });
        let mut cli_once = || {
            let cmd = cli_cmd.as_mut()?;
            let start = Instant::now();
            let out = cmd.output().expect("cc-search CLI");
            let elapsed = start.elapsed();
            assert!(
                out.status.success(),
                "cc-search grep: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
            let count = value["directories"][0]["matches_found"]
                .as_u64()
                .expect("matches_found");
            Some((elapsed, count))
        };
        let mut rg_once = || {
            let start = Instant::now();
            let out = rg_cmd.output().expect("rg");
            let elapsed = start.elapsed();
            assert!(!out.stdout.is_empty(), "rg found nothing");
            (elapsed, ())
        };

        // One warm-up each (page cache, thread pools), then alternating rounds.
        let (_, ours_count) = ours_once();
        rg_once();
        let cli_count = cli_once().map(|(_, count)| count);
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        let mut by_cli = Vec::new();
        for _ in 0..rounds {
            ours.push(ours_once().0);
            theirs.push(rg_once().0);
            if let Some((elapsed, _)) = cli_once() {
                by_cli.push(elapsed);
            }
        }
        let (a, b) = (median(&mut ours), median(&mut theirs));
        let c = (!by_cli.is_empty()).then(|| median(&mut by_cli));
        agree &= ours_count == rg_count && cli_count.is_none_or(|n| n == rg_count);
        let mut flags = Vec::new();
        if query.whole_word {
            flags.push("-w");
        }
        if query.case_insensitive {
            flags.push("-i");
        }
        println!(
            "| {} | `{}`{} | {ours_count} | {rg_count}{} | {} | {} | {} | {:.2}× | {} |",
            query.name,
            query.search,
            if flags.is_empty() {
                String::new()
            } else {
                format!(" {}", flags.join(" "))
            },
            if ours_count == rg_count {
                ""
            } else {
                " (differs)"
            },
            ms(a),
            c.map_or("–".to_string(), ms),
            ms(b),
            a.as_secs_f64() / b.as_secs_f64(),
            c.map_or("–".to_string(), |c| format!(
                "{:.2}×",
                c.as_secs_f64() / b.as_secs_f64()
            )),
        );
    }
    // The walk alone (listing the files, none read), with the options grep walks with.
    let walk_options = cc_search::walk::WalkOptions {
        max_depth: usize::MAX,
        max_files: usize::MAX,
        max_file_size: u64::MAX,
        metadata: false,
        default_excludes: false,
        skip_hidden: true,
        require_git: true,
        ..cc_search::walk::WalkOptions::default()
    };
    let mut walks = Vec::new();
    let mut walked = 0;
    for _ in 0..=rounds {
        let start = Instant::now();
        walked = cc_search::walk::walk(&corpus, &walk_options)
            .expect("walk")
            .files
            .len();
        walks.push(start.elapsed());
    }
    println!();
    println!(
        "the walk alone (`walk::walk` with grep's rules, {walked} files listed): {} median",
        ms(median(&mut walks)),
    );
    println!();
    if !agree {
        println!("match counts differ between cc-search and rg");
        std::process::exit(1);
    }
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// The benchmark tree: cargo's unpacked registry sources, copied once under `target/`.
fn corpus() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let target = std::fs::canonicalize(&target).unwrap_or(target);
    let dest = target.join("grep-bench").join("registry");
    let done = target.join("grep-bench").join(".copied");
    if done.exists() {
        return dest;
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .expect("CARGO_HOME or HOME");
    let source = cargo_home.join("registry").join("src");
    assert!(
        source.is_dir(),
        "{} does not exist: fetch some crates first (cargo fetch)",
        source.display()
    );
    if dest.exists() {
        std::fs::remove_dir_all(&dest).expect("remove a partial copy");
    }
    copy_tree(&source, &dest);
    // A repository of its own: its ignore rules are a repository's, and those of the
    // repository `target/` may sit in (which ignores `target/`) do not reach in.
    let init = Command::new("git")
        .args(["init", "-q"])
        .arg(&dest)
        .status()
        .expect("git");
    assert!(init.success(), "git init {}", dest.display());
    std::fs::write(&done, b"").expect("mark the copy");
    dest
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .expect("read dir")
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            // Unreadable files are simply left out of the corpus.
            let _ = std::fs::copy(entry.path(), &target);
        }
    }
}

fn tree_size(root: &Path) -> (usize, u64) {
    let mut files = 0;
    let mut bytes = 0;
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(entry.path()),
                Ok(t) if t.is_file() => {
                    files += 1;
                    bytes += entry.metadata().map_or(0, |m| m.len());
                }
                _ => {}
            }
        }
    }
    (files, bytes)
}
