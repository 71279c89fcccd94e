//! Ranking quality of the `@` picker, by replaying real projects' histories.
//!
//! ```sh
//! cargo bench -p cc-search --bench ranking                   # tokio's releases
//! cargo bench -p cc-search --bench ranking -- REPO [REPO…]   # and git clones' commits
//! ```
//!
//! Histories:
//!
//! - the minor releases of the `tokio` crate from crates.io (1.10.0 … 1.40.0), one commit
//!   per release, dated from the release dates in tokio's own CHANGELOG, each asked for as
//!   of the release before it (the sources are downloaded once into `target/replay/`);
//! - each git repository named on the command line: 60 commits spread over its newest 600
//!   first-parent commits (merges left out), each asked for as of its parent, at the
//!   commit's own time.
//!
//! At each step the index and git frecency are built from the history before it, and for
//! up to 12 files the step modified (leaving out file names shared by 10 or more files of
//! the tree, `mod.rs`, `index.ts`, `package.json`, which no name alone can single out),
//! four kinds of query are typed, all lower case: the first four letters of the file name
//! (`mute`), the stem (`mutex`), the initials of the last two directories and four letters
//! of the stem (`ssmute` for `src/sync/mutex.rs`), and the stem with two adjacent letters
//! swapped (`mtuex`). Reported per kind: hit@1, hit@15 and MRR over the first 15, for
//! cc-search's ranking, for fzf (`fzf --filter QUERY --scheme=path` over the tree's
//! `git ls-files`, when fzf is installed) and for plain FTS5 order (the spec's
//! `MATCH … ORDER BY rank`), in the same run. `CC_SEARCH_REPLAY_ONLY=1` leaves tokio out;
//! `CC_SEARCH_REPLAY_SHOW=KIND` prints each query of that kind that cc-search does not rank
//! first or fzf ranks better, with both ranks and cc-search's first three.
//! `CC_SEARCH_REPLAY_DUMP=FILE` appends every query and cc-search's whole answer to FILE,
//! one line each (history, kind, query, the paths in order), so that two builds' answers
//! can be compared path for path.

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
/// Files queried per step, at most.
const PER_STEP: usize = 12;

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

/// One replayed moment: the index is built as of `base` (frecency as of `now`), and the
/// files `target` then modified are asked for.
struct Step {
    base: String,
    now: i64,
    target: String,
}

/// The releases of the crate, each asked for as of the one before it.
fn release_steps(commits: &[(String, String, i64)]) -> Vec<Step> {
    (WARMUP..commits.len())
        .map(|k| Step {
            base: commits[k - 1].1.clone(),
            now: commits[k - 1].2,
            target: commits[k].1.clone(),
        })
        .collect()
}

/// Commits replayed per git repository.
const COMMIT_STEPS: usize = 60;
/// They are spread over this many of the newest first-parent commits.
const COMMIT_SPAN: usize = 600;

/// Commits of a git repository's first-parent history (no merges), newest
/// [`COMMIT_SPAN`], of which [`COMMIT_STEPS`] spread evenly are replayed, each as of its
/// parent at the commit's own time.
fn commit_steps(checkout: &Path) -> Vec<Step> {
    let log = run(Command::new("git").arg("-C").arg(checkout).args([
        "log",
        "--first-parent",
        "--no-merges",
        "--format=%H %P %ct",
        &format!("-n{COMMIT_SPAN}"),
    ]));
    let commits: Vec<Step> = log
        .lines()
        .filter_map(|l| {
            let mut p = l.split(' ');
            let target = p.next()?.to_string();
            let base = p.next()?.to_string();
            let now = p.next()?.parse().ok()?;
            Some(Step { base, now, target })
        })
        .collect();
    let every = (commits.len() / COMMIT_STEPS).max(1);
    let mut steps: Vec<Step> = commits
        .into_iter()
        .step_by(every)
        .take(COMMIT_STEPS)
        .collect();
    steps.reverse();
    steps
}

/// Files a name alone cannot tell apart: file names shared by this many files of the tree
/// or more (`mod.rs`, `index.ts`, `package.json`) are not asked for.
const SHARED_NAME: usize = 10;

/// The query kinds, in the order they are reported.
const KINDS: [&str; 4] = ["prefix", "stem", "abbreviation", "typo"];

/// Queries of each kind a user might type for `path` (relative, `/`-separated), all
/// lower case: the first four letters of the file name (`mute`), the stem (`mutex`), the
/// initials of the last two directories and four letters of the stem (`ssmute` for
/// `src/sync/mutex.rs`) and the stem with two adjacent letters swapped (`mtuex`; which
/// two depends on the path, and never two equal letters).
fn queries(path: &str) -> Vec<(&'static str, String)> {
    let parts: Vec<&str> = path.split('/').collect();
    let name = parts.last().copied().unwrap_or(path).to_lowercase();
    let stem: Vec<char> = name.split('.').next().unwrap_or(&name).chars().collect();
    let dirs = &parts[..parts.len() - 1];
    let mut out = Vec::new();
    if name.chars().count() > 4 {
        out.push(("prefix", name.chars().take(4).collect()));
    }
    if stem.len() >= 2 {
        out.push(("stem", stem.iter().collect()));
    }
    if !dirs.is_empty() && stem.len() >= 2 {
        let initials: String = dirs[dirs.len().saturating_sub(2)..]
            .iter()
            .filter_map(|d| d.chars().next())
            .flat_map(char::to_lowercase)
            .collect();
        out.push((
            "abbreviation",
            format!("{initials}{}", stem.iter().take(4).collect::<String>()),
        ));
    }
    if stem.len() >= 4 {
        // A position from the path's bytes (deterministic, spread over the stem).
        let seed = path
            .bytes()
            .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(b.into()));
        let n = stem.len() - 1;
        if let Some(i) = (0..n)
            .map(|k| (seed as usize + k) % n)
            .find(|&i| stem[i] != stem[i + 1])
        {
            let mut typo = stem.clone();
            typo.swap(i, i + 1);
            out.push(("typo", typo.into_iter().collect()));
        }
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
    fn mrr(&self) -> f64 {
        self.rr / self.n.max(1) as f64
    }
    fn row(&self) -> String {
        let n = self.n.max(1) as f64;
        format!(
            "{:.3} | {:.3} | {:.3}",
            self.hit1 as f64 / n,
            self.hit15 as f64 / n,
            self.mrr()
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

/// fzf's first 15 for `query` over `files` (`fzf --filter`, its path scoring scheme), or
/// None when fzf is not installed.
fn fzf_order(files: &str, query: &str) -> Option<Vec<String>> {
    use std::io::Write;
    let mut child = Command::new("fzf")
        .args(["--filter", query, "--scheme=path"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    // fzf may stop reading once it has its answer; a closed pipe is not an error here.
    let _ = child.stdin.take()?.write_all(files.as_bytes());
    let out = child.wait_with_output().ok()?;
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .take(15)
            .map(str::to_string)
            .collect(),
    )
}

/// Scores per kind (and `all`) of one picker.
type Scores = BTreeMap<&'static str, Score>;

/// Replay `steps` on `checkout` (a git clone), printing one table.
fn replay(title: &str, checkout: &Path, steps: &[Step]) -> (Scores, Scores) {
    let project = checkout.to_string_lossy().into_owned();
    let has_fzf = fzf_order("", "x").is_some();
    // CC_SEARCH_REPLAY_SHOW=KIND: print the queries of that kind cc-search misses.
    let show = std::env::var("CC_SEARCH_REPLAY_SHOW").ok();
    let mut dump = std::env::var_os("CC_SEARCH_REPLAY_DUMP").map(|file| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file)
            .unwrap_or_else(|e| panic!("{}: {e}", Path::new(&file).display()))
    });
    let (mut ours, mut fzf, mut plain) = (Scores::new(), Scores::new(), Scores::new());
    for step in steps {
        run(Command::new("git")
            .arg("-C")
            .arg(checkout)
            .args(["checkout", "-q", "-f", &step.base]));
        let home = tempfile::tempdir().unwrap();
        let engine = Engine::open_at(home.path()).unwrap();
        engine
            .run::<Refresh>(RefreshRequest {
                root: Some(checkout.to_path_buf()),
                now: Some(step.now),
                ..Default::default()
            })
            .unwrap();
        let tree = run(Command::new("git").arg("-C").arg(checkout).arg("ls-files"));
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        for f in tree.lines() {
            *names.entry(f.rsplit('/').next().unwrap_or(f)).or_default() += 1;
        }
        // Files the target commit modified.
        let changed = run(Command::new("git").arg("-C").arg(checkout).args([
            "diff",
            "--name-only",
            "--diff-filter=M",
            &step.base,
            &step.target,
        ]));
        let mut files: Vec<&str> = changed
            .lines()
            .filter(|f| {
                names
                    .get(f.rsplit('/').next().unwrap_or(f))
                    .copied()
                    .unwrap_or(0)
                    < SHARED_NAME
            })
            .collect();
        let every = (files.len() / PER_STEP).max(1);
        files = files.into_iter().step_by(every).take(PER_STEP).collect();
        for file in files {
            for (kind, q) in queries(file) {
                let got = engine
                    .run::<Suggest>(SuggestRequest {
                        query: q.clone(),
                        project_dir: Some(checkout.to_path_buf()),
                        budget_ms: Some(10_000),
                        ..Default::default()
                    })
                    .unwrap()
                    .paths;
                if let Some(dump) = dump.as_mut() {
                    use std::io::Write;
                    writeln!(dump, "{title}\t{kind}\t{q}\t{}", got.join("\t")).unwrap();
                }
                let rank = got.iter().position(|p| p == file);
                for key in [kind, "all"] {
                    ours.entry(key).or_default().add(rank);
                }
                if has_fzf {
                    let theirs = fzf_order(&tree, &q).unwrap_or_default();
                    let their_rank = theirs.iter().position(|p| p == file);
                    if show.as_deref() == Some(kind)
                        && (their_rank < rank.or(Some(15)) || rank != Some(0))
                    {
                        eprintln!(
                            "{kind} {q:?} for {file}: ours {rank:?} {:?}, fzf {their_rank:?}",
                            &got[..got.len().min(3)]
                        );
                    }
                    for key in [kind, "all"] {
                        fzf.entry(key).or_default().add(their_rank);
                    }
                }
                let base = fts_order(&home.path().join("files.db"), &project, &q);
                let rank = base.iter().position(|p| p == file);
                for key in [kind, "all"] {
                    plain.entry(key).or_default().add(rank);
                }
            }
        }
    }
    println!("{title}, {} steps", steps.len());
    println!();
    println!(
        "| query kind | queries | cc-search hit@1 | hit@15 | MRR | fzf hit@1 | hit@15 | MRR | plain FTS5 MRR | cc-search / fzf MRR |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for kind in KINDS.iter().chain(&["all"]) {
        let Some(score) = ours.get(kind) else {
            continue;
        };
        let (f, ratio) = match fzf.get(kind) {
            Some(f) => (f.row(), format!("{:.2}×", score.mrr() / f.mrr().max(1e-9))),
            None => ("– | – | –".to_string(), "fzf not installed".to_string()),
        };
        println!(
            "| {kind} | {} | {} | {f} | {:.3} | {ratio} |",
            score.n,
            score.row(),
            plain[kind].mrr()
        );
    }
    println!();
    (ours, fzf)
}

/// A work copy of `repo` (any git repository, bare or not) in `dir`.
fn clone(repo: &Path, dir: &Path) -> PathBuf {
    run(Command::new("git")
        .args(["clone", "-q", "--no-checkout"])
        .arg(repo)
        .arg(dir));
    std::fs::canonicalize(dir).unwrap()
}

fn main() {
    // Arguments after `--`: git repositories whose history is replayed too (cargo's own
    // `--bench` flag is not one).
    let extra: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    let only_extra = std::env::var_os("CC_SEARCH_REPLAY_ONLY").is_some();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let work = tempfile::tempdir().unwrap();
    if !only_extra {
        let cache = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| workspace.join("target"))
            .join("replay");
        let (repo, commits) = history(&cache);
        let checkout = clone(&repo, &work.path().join(CRATE));
        let title = format!(
            "ranking replay: {CRATE} 1.{FIRST_MINOR}.0 … 1.{LAST_MINOR}.0 (crates.io releases)"
        );
        replay(&title, &checkout, &release_steps(&commits));
    }
    for (k, repo) in extra.iter().enumerate() {
        let checkout = clone(repo, &work.path().join(format!("repo{k}")));
        let head = run(Command::new("git").arg("-C").arg(&checkout).args([
            "rev-parse",
            "--short",
            "HEAD",
        ]));
        let title = format!(
            "ranking replay: {} at {} (commits)",
            repo.display(),
            head.trim()
        );
        replay(&title, &checkout, &commit_steps(&checkout));
    }
}
