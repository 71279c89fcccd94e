//! Ranking quality of the `@` picker, by replaying a real project's history.
//!
//! ```sh
//! cargo bench -p cc-search --bench ranking            # or: make bench-ranking
//! ```
//!
//! The history: the minor releases of the `tokio` crate from crates.io (1.10.0 … 1.40.0),
//! one commit per release, dated from the release dates in tokio's own CHANGELOG. The
//! sources are downloaded once into `target/replay/` (crates.io is the only network this
//! needs).
//!
//! The replay: for each release after the first few, the index and git frecency are built
//! from the commits before it (as of the previous release's date), and for files the
//! release modified, abbreviations of their paths are typed as queries: the file stem
//! (`mutex`), its first four letters (`mute`), parent and stem prefixes (`syn/mut`), and
//! fzf-style initials (`ssmutex` for `src/sync/mutex.rs`). Reported: hit@1, hit@15 and
//! MRR (over the first 15) for cc-search's full ranking and for plain FTS5 order (the
//! spec's `MATCH … ORDER BY rank`), on the same index.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use cc_search::Engine;
use cc_search::files::{Refresh, RefreshRequest, Suggest, SuggestRequest};

const CRATE: &str = "tokio";
const FIRST_MINOR: u32 = 10;
const LAST_MINOR: u32 = 40;
/// Releases used only to build up history before queries start.
const WARMUP: usize = 4;
/// Files queried per release, at most.
const PER_RELEASE: usize = 12;

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `August 30th, 2024` / `December 19, 2023` → Unix seconds at noon UTC.
fn parse_date(text: &str) -> Option<i64> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect();
    let month = words
        .iter()
        .find_map(|w| MONTHS.iter().position(|m| w.starts_with(m)))? as i64
        + 1;
    let numbers: Vec<i64> = words
        .iter()
        .filter_map(|w| w.trim_end_matches(|c: char| c.is_alphabetic()).parse().ok())
        .collect();
    let day = *numbers.iter().find(|n| (1..=31).contains(*n))?;
    let year = *numbers.iter().find(|n| **n > 2000)?;
    // Days from civil (Howard Hinnant's algorithm).
    let (y, m) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) * 86_400 + 12 * 3600)
}

/// Download the releases and build the git history once; returns the repository and
/// the release commits (version, sha, date).
fn history(cache: &Path) -> (PathBuf, Vec<(String, String, i64)>) {
    let repo = cache.join(format!("{CRATE}-history"));
    let done = repo.join(".git/cc-search-replay-done");
    let crates = cache.join("crates");
    std::fs::create_dir_all(&crates).unwrap();
    let versions: Vec<String> = (FIRST_MINOR..=LAST_MINOR)
        .map(|m| format!("1.{m}.0"))
        .collect();
    let mut archives = Vec::new();
    for v in &versions {
        let file = crates.join(format!("{CRATE}-{v}.crate"));
        if !file.exists() {
            eprintln!("downloading {CRATE} {v}");
            run(Command::new("curl")
                .args(["-sSfL", "-o"])
                .arg(&file)
                .arg(format!(
                    "https://static.crates.io/crates/{CRATE}/{CRATE}-{v}.crate"
                )));
        }
        archives.push(file);
    }
    // Release dates from the newest CHANGELOG.
    let changelog = run(Command::new("tar")
        .arg("xzf")
        .arg(archives.last().unwrap())
        .arg("-O")
        .arg(format!("{CRATE}-{}/CHANGELOG.md", versions.last().unwrap())));
    let mut dates = BTreeMap::new();
    for line in changelog.lines().filter(|l| l.starts_with("# 1.")) {
        let mut parts = line[2..].splitn(2, ' ');
        if let (Some(v), Some(rest)) = (parts.next(), parts.next())
            && let Some(date) = parse_date(rest)
        {
            dates.insert(v.to_string(), date);
        }
    }
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&repo);
        std::fs::create_dir_all(&repo).unwrap();
        let git = |args: &[&str]| run(Command::new("git").arg("-C").arg(&repo).args(args));
        git(&["init", "-q", "-b", "main"]);
        git(&["config", "user.name", "replay"]);
        git(&["config", "user.email", "replay@example.invalid"]);
        for (v, archive) in versions.iter().zip(&archives) {
            // Replace the work tree with the release's files.
            for entry in std::fs::read_dir(&repo).unwrap().flatten() {
                if entry.file_name() != ".git" {
                    let p = entry.path();
                    if p.is_dir() {
                        std::fs::remove_dir_all(&p).unwrap();
                    } else {
                        std::fs::remove_file(&p).unwrap();
                    }
                }
            }
            run(Command::new("tar")
                .arg("xzf")
                .arg(archive)
                .arg("-C")
                .arg(&repo)
                .arg("--strip-components=1"));
            let date = format!("@{} +0000", dates.get(v).copied().unwrap_or(0));
            git(&["add", "-A"]);
            run(Command::new("git")
                .arg("-C")
                .arg(&repo)
                .args(["commit", "-q", "--allow-empty", "-m", v])
                .env("GIT_AUTHOR_DATE", &date)
                .env("GIT_COMMITTER_DATE", &date));
        }
        std::fs::write(&done, b"").unwrap();
    }
    let log = run(Command::new("git").arg("-C").arg(&repo).args([
        "log",
        "--reverse",
        "--format=%H %ct %s",
    ]));
    let commits = log
        .lines()
        .filter_map(|l| {
            let mut p = l.splitn(3, ' ');
            Some((
                p.next()?.to_string(),
                p.next()?.parse().ok()?,
                p.next()?.to_string(),
            ))
        })
        .map(|(sha, date, v)| (v, sha, date))
        .collect();
    (repo, commits)
}

/// Queries a user might type for `path` (relative, `/`-separated).
fn queries(path: &str) -> Vec<(&'static str, String)> {
    let parts: Vec<&str> = path.split('/').collect();
    let name = parts.last().copied().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name).to_lowercase();
    let dirs = &parts[..parts.len() - 1];
    let mut out = vec![("stem", stem.clone())];
    if stem.chars().count() > 4 {
        out.push(("stem prefix", stem.chars().take(4).collect()));
    }
    if let Some(parent) = dirs.last() {
        let p: String = parent.chars().take(3).collect();
        let s: String = stem.chars().take(3).collect();
        out.push(("parent/stem prefixes", format!("{p}/{s}")));
    }
    if !dirs.is_empty() {
        let initials: String = dirs.iter().filter_map(|d| d.chars().next()).collect();
        out.push(("initials + stem", format!("{initials}{stem}")));
    }
    out
}

#[derive(Default)]
struct Score {
    n: usize,
    hit1: usize,
    hit15: usize,
    rr: f64,
}

impl Score {
    fn add(&mut self, rank: Option<usize>) {
        self.n += 1;
        if let Some(r) = rank {
            if r == 0 {
                self.hit1 += 1;
            }
            if r < 15 {
                self.hit15 += 1;
                self.rr += 1.0 / (r + 1) as f64;
            }
        }
    }
    fn row(&self) -> String {
        let n = self.n.max(1) as f64;
        format!(
            "{:.3} | {:.3} | {:.3}",
            self.hit1 as f64 / n,
            self.hit15 as f64 / n,
            self.rr / n
        )
    }
}

/// The spec's plain FTS5 order on the same index.
fn fts_order(db: &Path, project: &str, query: &str) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let Some(expr) = cc_search::text::fts5_query(query, true) else {
        return Vec::new();
    };
    let mut stmt = conn
        .prepare(
            "SELECT m.path FROM files_fts JOIN files_meta m ON m.rowid = files_fts.rowid
             WHERE files_fts MATCH ?1 AND m.path >= ?2 AND m.path < ?3
             ORDER BY rank LIMIT 15",
        )
        .unwrap();
    let lo = format!("{project}/");
    let hi = format!("{project}0");
    stmt.query_map(rusqlite::params![expr, lo, hi], |r| r.get::<_, String>(0))
        .unwrap()
        .filter_map(|r| r.ok())
        .map(|p| p[lo.len()..].to_string())
        .collect()
}

fn main() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let cache = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"))
        .join("replay");
    let (repo, commits) = history(&cache);
    let work = tempfile::tempdir().unwrap();
    let checkout = work.path().join(CRATE);
    run(Command::new("git")
        .arg("clone")
        .arg("-q")
        .arg(&repo)
        .arg(&checkout));
    let checkout = std::fs::canonicalize(&checkout).unwrap();
    let project = checkout.to_string_lossy().into_owned();

    let mut ours: BTreeMap<&str, Score> = BTreeMap::new();
    let mut plain: BTreeMap<&str, Score> = BTreeMap::new();
    for k in WARMUP..commits.len() {
        let (_, prev_sha, prev_date) = &commits[k - 1];
        let (_, sha, _) = &commits[k];
        run(Command::new("git")
            .arg("-C")
            .arg(&checkout)
            .args(["checkout", "-q", prev_sha]));
        let home = tempfile::tempdir().unwrap();
        let engine = Engine::open_at(home.path()).unwrap();
        engine
            .run::<Refresh>(RefreshRequest {
                root: Some(checkout.clone()),
                now: Some(*prev_date),
                ..Default::default()
            })
            .unwrap();
        // Files the next release modified.
        let changed = run(Command::new("git").arg("-C").arg(&checkout).args([
            "diff",
            "--name-only",
            "--diff-filter=M",
            prev_sha,
            sha,
        ]));
        let mut files: Vec<&str> = changed
            .lines()
            .filter(|f| f.ends_with(".rs") && !f.ends_with("/mod.rs") && !f.ends_with("lib.rs"))
            .collect();
        let step = (files.len() / PER_RELEASE).max(1);
        files = files.into_iter().step_by(step).take(PER_RELEASE).collect();
        for file in files {
            for (style, q) in queries(file) {
                let got = engine
                    .run::<Suggest>(SuggestRequest {
                        query: q.clone(),
                        project_dir: Some(checkout.clone()),
                        budget_ms: Some(10_000),
                        ..Default::default()
                    })
                    .unwrap()
                    .paths;
                let rank = got.iter().position(|p| p == file);
                ours.entry(style).or_default().add(rank);
                ours.entry("all").or_default().add(rank);
                let base = fts_order(&home.path().join("files.db"), &project, &q);
                let rank = base.iter().position(|p| p == file);
                plain.entry(style).or_default().add(rank);
                plain.entry("all").or_default().add(rank);
            }
        }
    }
    println!(
        "ranking replay: {CRATE} 1.{FIRST_MINOR}.0 … 1.{LAST_MINOR}.0, {} releases queried",
        commits.len() - WARMUP
    );
    println!();
    println!(
        "| query style | queries | cc-search hit@1 | hit@15 | MRR | plain FTS5 hit@1 | hit@15 | MRR |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (style, score) in &ours {
        println!(
            "| {style} | {} | {} | {} |",
            score.n,
            score.row(),
            plain[style].row()
        );
    }
}
