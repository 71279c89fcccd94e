//! Crash safety: each kind of indexing (`files.refresh`, `code.index_repository`,
//! `sessions.index`, `docs.index`) run in a child process that is killed with SIGKILL at
//! a random moment, several times in a row on the same data root. After every kill the
//! data root, as the kill left it, must pass `PRAGMA integrity_check` (and foreign-key,
//! FTS5 and vector-store consistency checks) and answer searches; after the kills of a
//! round, one more run must finish and leave exactly what a clean run over the same input
//! leaves (a logical dump of every table compared row by row).
//!
//! Sessions and docs are embedded with the real model, so kills also land in embedding
//! and `vec0` writes. The docs advisory lock a killed run leaves behind must not stop the
//! next run (every run here waits 0 s for it).
//!
//! Randomness comes from one seed, printed; `CC_SEARCH_TEST_SEED` repeats a run. Longer
//! runs: `CC_SEARCH_CRASH_ROUNDS` (rounds per kind, default 4) and
//! `CC_SEARCH_CRASH_KILLS` (kills per round, default 3), e.g.
//! `CC_SEARCH_CRASH_ROUNDS=40 cargo test --release -p cc-search --test it -- crash::`.
#![cfg(unix)]

use crate::harness;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use harness::{Call, Job, Rng};
use serde_json::json;

/// One kind of indexing: what runs in the child and what is searched after a kill.
struct Kind {
    name: &'static str,
    /// The indexing calls (run in order by the child).
    calls: Vec<Call>,
    /// Searches that must succeed on whatever a kill left.
    searches: Vec<Call>,
    /// Embed with the real model (when the tests have it).
    embed: bool,
    default_seed: u64,
}

/// Copy every file of `from` (not recursively into subdirectories other than `code/`)
/// to `to`: the state a kill left, for checks that may write (a search indexes first
/// when there is no index).
fn copy_home(from: &Path, to: &Path) {
    for dir in ["", "code"] {
        let (src, dst) = (from.join(dir), to.join(dir));
        let Ok(entries) = std::fs::read_dir(&src) else {
            continue;
        };
        std::fs::create_dir_all(&dst).unwrap();
        for entry in entries.flatten() {
            if entry.file_type().unwrap().is_file() {
                std::fs::copy(entry.path(), dst.join(entry.file_name())).unwrap();
            }
        }
    }
}

/// The checks after a kill, on a copy of the data root.
fn check_after_kill(home: &Path, scratch: &Path, kind: &Kind, context: &str) {
    let _ = std::fs::remove_dir_all(scratch);
    copy_home(home, scratch);
    for db in harness::databases(scratch) {
        let problems = harness::check_database(&db);
        assert!(
            problems.is_empty(),
            "{context}: {} after the kill: {problems:?}",
            db.display()
        );
    }
    // Searches run keyword-only here: a search that finds no index builds one first, and
    // embedding that in a debug build would only slow the test down.
    harness::configure(scratch, false);
    let engine = cc_search::Engine::open_at(scratch).unwrap();
    for search in &kind.searches {
        if let Err(e) = engine.call(&search.op, &search.params.to_string()) {
            panic!(
                "{context}: {} after the kill: [{}] {e}",
                search.op,
                e.code()
            );
        }
    }
    drop(engine);
    std::fs::remove_dir_all(scratch).unwrap();
}

struct Outcome {
    killed: usize,
    finished_first: usize,
}

/// Run one kind: a clean reference run (which also measures how long a run takes), then
/// rounds of kills at random moments within that time, each round finished by a run that
/// must reproduce the reference.
fn crash_kind(kind: Kind, work: &Path, claude_dir: &Path) -> Outcome {
    let seed = harness::seed(kind.default_seed);
    let rounds = harness::env_count("CC_SEARCH_CRASH_ROUNDS", 4);
    let kills = harness::env_count("CC_SEARCH_CRASH_KILLS", 3);
    eprintln!(
        "crash {}: seed {seed:#x} (CC_SEARCH_TEST_SEED={seed:#x} repeats it), {rounds} rounds \
         of {kills} kills",
        kind.name
    );
    let mut rng = Rng::new(seed);

    let reference = work.join(format!("{}-reference", kind.name));
    let embedded = harness::configure(&reference, kind.embed);
    let job = |home: &Path| Job {
        home: home.to_path_buf(),
        calls: kind.calls.clone(),
        rounds: 1,
    };
    let started = Instant::now();
    harness::expect_success(
        harness::spawn_child(&job(&reference), claude_dir),
        &format!("{} reference run", kind.name),
    );
    let mut full_run = started.elapsed();
    for db in harness::databases(&reference) {
        let problems = harness::check_database(&db);
        assert!(
            problems.is_empty(),
            "reference {}: {problems:?}",
            db.display()
        );
    }
    let want = harness::dump(&reference);
    assert!(
        want.values().any(|rows| !rows.is_empty()),
        "{}: the reference index is empty",
        kind.name
    );
    // With the model, every data root below starts with three quarters of the vector
    // cache the reference run filled (a different three quarters each time): the model
    // embeds the rest (and the cache is written), every chunk's vectors are written to
    // the index. A run like that, timed, sets the span the kills are spread over; it
    // must leave what the reference left too.
    let prepare = |home: &Path, rng: &mut Rng| {
        harness::configure(home, kind.embed);
        if embedded {
            harness::warm_cache(&reference, home, 0.75, rng);
        }
    };
    if embedded {
        let timing = work.join(format!("{}-timing", kind.name));
        prepare(&timing, &mut rng);
        let at = Instant::now();
        harness::expect_success(
            harness::spawn_child(&job(&timing), claude_dir),
            &format!("{} run with part of the cache", kind.name),
        );
        full_run = at.elapsed();
        harness::assert_same_dump(
            &harness::dump(&timing),
            &want,
            &format!("{} run with part of the cache", kind.name),
        );
        std::fs::remove_dir_all(&timing).unwrap();
    }
    eprintln!(
        "crash {}: a run takes {:.2} s (embedding: {embedded}; the reference run {:.2} s)",
        kind.name,
        full_run.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );

    let mut outcome = Outcome {
        killed: 0,
        finished_first: 0,
    };
    let scratch = work.join(format!("{}-scratch", kind.name));
    for round in 0..rounds {
        let home = work.join(format!("{}-round-{round}", kind.name));
        prepare(&home, &mut rng);
        for k in 0..kills {
            // The first kill of a round anywhere in a full run; later ones, on a partly
            // built index, earlier on.
            let span = if k == 0 { 1.0 } else { 0.6 };
            let delay = full_run.mul_f64(span * rng.unit());
            let context = format!(
                "crash {} seed {seed:#x} round {round} kill {k} at {} ms",
                kind.name,
                delay.as_millis()
            );
            let spawned = Instant::now();
            let mut child = harness::spawn_child(&job(&home), claude_dir);
            let mut exited = None;
            while spawned.elapsed() < delay {
                if child.try_wait().unwrap().is_some() {
                    exited = Some(spawned.elapsed());
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            match exited {
                Some(took) => {
                    outcome.finished_first += 1;
                    harness::expect_success(child, &context);
                    // Runs go faster than the timed one (a lighter load, less left to
                    // do): later kills aim within what this one took.
                    full_run = full_run.min(took);
                }
                None => {
                    child.kill().unwrap(); // SIGKILL
                    child.wait().unwrap();
                    outcome.killed += 1;
                }
            }
            check_after_kill(&home, &scratch, &kind, &context);
        }
        let context = format!(
            "crash {} seed {seed:#x} round {round}: the re-run",
            kind.name
        );
        harness::expect_success(harness::spawn_child(&job(&home), claude_dir), &context);
        for db in harness::databases(&home) {
            let problems = harness::check_database(&db);
            assert!(
                problems.is_empty(),
                "{context}: {}: {problems:?}",
                db.display()
            );
        }
        harness::assert_same_dump(&harness::dump(&home), &want, &context);
        std::fs::remove_dir_all(&home).unwrap();
    }
    eprintln!(
        "crash {}: {} kills, {} runs finished before their kill, {:.1} s",
        kind.name,
        outcome.killed,
        outcome.finished_first,
        started.elapsed().as_secs_f64()
    );
    // Kills must land while the indexer runs, or the test proves nothing.
    assert!(
        outcome.killed >= rounds.max(1),
        "crash {} seed {seed:#x}: only {} of {} kills landed before the run finished",
        kind.name,
        outcome.killed,
        rounds * kills
    );
    outcome
}

fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let claude = dir.path().join("claude");
    std::fs::create_dir_all(claude.join("projects")).unwrap();
    (dir, claude)
}

#[test]
fn files_refresh_survives_kills() {
    let (dir, claude) = setup();
    let mut rng = Rng::new(harness::seed(0xf11e5));
    let tree = dir.path().join("tree");
    harness::path_tree(&tree, 6000, 300, &mut rng);
    let kind = Kind {
        name: "files.refresh",
        calls: vec![Call::new(
            "files.refresh",
            json!({"root": tree, "now": harness::NOW, "claude_dir": claude, "full": true}),
        )],
        searches: vec![
            Call::new(
                "files.suggest",
                json!({"query": "src", "project_dir": tree}),
            ),
            Call::new(
                "files.suggest",
                json!({"query": "parser", "project_dir": tree, "budget_ms": 5000}),
            ),
        ],
        embed: false,
        default_seed: 0xf11e5,
    };
    crash_kind(kind, &dir.path().join("work"), &claude);
}

#[test]
fn code_index_survives_kills() {
    let (dir, claude) = setup();
    let mut rng = Rng::new(harness::seed(0xc0de));
    let repo = dir.path().join("repo");
    harness::source_repo(&repo, 500, 6, &mut rng);
    let kind = Kind {
        name: "code.index_repository",
        calls: vec![Call::new("code.index_repository", json!({"path": repo}))],
        searches: vec![
            Call::new(
                "code.search_symbols",
                json!({"path": repo, "query": "parser"}),
            ),
            Call::new("code.get_overview", json!({"path": repo})),
        ],
        embed: false,
        default_seed: 0xc0de,
    };
    crash_kind(kind, &dir.path().join("work"), &claude);
}

#[test]
fn sessions_index_survives_kills() {
    let (dir, claude) = setup();
    let mut rng = Rng::new(harness::seed(0x5e55));
    let projects = dir.path().join("projects");
    harness::transcripts(&projects, 5, 2, 4, &mut rng);
    let kind = Kind {
        name: "sessions.index",
        calls: vec![Call::new(
            "sessions.index",
            json!({"projects_dir": projects}),
        )],
        searches: vec![Call::new(
            "sessions.search",
            json!({"query": "flamingo cache", "projects_dir": projects, "now": harness::NOW}),
        )],
        embed: true,
        default_seed: 0x5e55,
    };
    crash_kind(kind, &dir.path().join("work"), &claude);
}

#[test]
fn docs_index_survives_kills() {
    let (dir, claude) = setup();
    let mut rng = Rng::new(harness::seed(0xd0c5));
    let project = dir.path().join("project");
    harness::markdown_docs(&project, 6, 2, 4, &mut rng);
    let kind = Kind {
        name: "docs.index",
        // No waiting for the lock: a lock a killed run left must not be in the way.
        calls: vec![Call::new(
            "docs.index",
            json!({"project_dir": project, "lock_wait_secs": 0}),
        )],
        searches: vec![Call::new(
            "docs.query",
            json!({"query": "nginx upstream", "project_dir": project}),
        )],
        embed: true,
        default_seed: 0xd0c5,
    };
    crash_kind(kind, &dir.path().join("work"), &claude);
}

/// A docs indexer killed while it holds `docs.lock` leaves the file behind, naming a
/// process that no longer exists: the next run breaks it at once (and says so) instead
/// of waiting for it.
#[test]
fn docs_lock_of_a_killed_indexer_does_not_block_the_next_run() {
    let (dir, claude) = setup();
    let mut rng = Rng::new(harness::seed(0x10c4));
    let project = dir.path().join("project");
    harness::markdown_docs(&project, 40, 4, 20, &mut rng);
    let home = dir.path().join("home");
    // Keyword-only: the lock is held from the start of the run to its end either way.
    harness::configure(&home, false);
    let job = Job {
        home: home.clone(),
        calls: vec![Call::new(
            "docs.index",
            json!({"project_dir": project, "lock_wait_secs": 0}),
        )],
        rounds: 1,
    };
    let lock = home.join("docs.lock");
    // Kill the indexer as soon as its lock appears (again if it finished first).
    let mut killed_holding = false;
    for _ in 0..10 {
        let mut child = harness::spawn_child(&job, &claude);
        let deadline = Instant::now() + Duration::from_secs(60);
        while !lock.exists() && child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "no docs.lock within 60 s");
            std::thread::sleep(Duration::from_micros(200));
        }
        let pid = child.id();
        let _ = child.kill();
        child.wait().unwrap();
        if let Ok(text) = std::fs::read_to_string(&lock) {
            let held: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(held["pid"], pid, "{held}");
            killed_holding = true;
            break;
        }
    }
    assert!(killed_holding, "no kill landed while the lock was held");

    let engine = cc_search::Engine::open_at(&home).unwrap();
    let started = Instant::now();
    let response: serde_json::Value = serde_json::from_str(
        &engine
            .call(
                "docs.index",
                &json!({"project_dir": project, "lock_wait_secs": 0}).to_string(),
            )
            .unwrap(),
    )
    .unwrap();
    assert!(started.elapsed() < Duration::from_secs(20));
    let warnings = response["warnings"].to_string();
    assert!(
        warnings.contains("broke the stale lock") && warnings.contains("no longer exists"),
        "{warnings}"
    );
    assert_eq!(response["files"], 40);
    assert!(!lock.exists(), "the run released the lock it took");
}
