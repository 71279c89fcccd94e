//! Concurrency: many readers and several writers on one data root at once — two indexer
//! processes, an indexer thread with its own engine in this process, and reader threads
//! (sharing an engine and with engines of their own) searching all the while. No call
//! may fail (no "database is locked" reaches a caller), and the index they leave must be
//! exactly what one sequential run over the same inputs leaves (no lost rows). The docs
//! advisory lock: a second indexer waits for the first, and reports who holds the lock
//! when it cannot get it in time.
//!
//! `CC_SEARCH_CONCURRENCY_ROUNDS` (default 2) sets how many times each writer repeats its
//! runs; `CC_SEARCH_TEST_SEED` changes the generated inputs.
#![cfg(unix)]

use crate::harness;

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cc_search::Engine;
use harness::{Call, Job, Rng};
use serde_json::json;

fn run(engine: &Engine, call: &Call) -> Result<String, String> {
    engine
        .call(&call.op, &call.params.to_string())
        .map_err(|e| format!("{}: [{}] {e}", call.op, e.code()))
}

#[test]
fn two_indexer_processes_an_indexer_thread_and_readers_share_a_data_root() {
    let seed = harness::seed(0xc0c0);
    eprintln!("concurrency: seed {seed:#x} (CC_SEARCH_TEST_SEED={seed:#x} repeats it)");
    let rounds = harness::env_count("CC_SEARCH_CONCURRENCY_ROUNDS", 2);
    let mut rng = Rng::new(seed);
    let dir = tempfile::tempdir().unwrap();
    let claude = dir.path().join("claude");
    std::fs::create_dir_all(claude.join("projects")).unwrap();
    let (tree_a, tree_b) = (dir.path().join("tree-a"), dir.path().join("tree-b"));
    harness::path_tree(&tree_a, 1500, 60, &mut rng);
    harness::path_tree(&tree_b, 1500, 60, &mut rng);
    let repo = dir.path().join("repo");
    harness::source_repo(&repo, 90, 5, &mut rng);
    let projects = dir.path().join("projects");
    harness::transcripts(&projects, 3, 2, 4, &mut rng);
    let docs = dir.path().join("docs-project");
    harness::markdown_docs(&docs, 3, 2, 4, &mut rng);

    let refresh = |tree: &Path| {
        Call::new(
            "files.refresh",
            json!({"root": tree, "now": harness::NOW, "claude_dir": claude, "full": true}),
        )
    };
    let code = Call::new(
        "code.index_repository",
        json!({"path": repo, "force": true}),
    );
    let sessions = Call::new(
        "sessions.index",
        json!({"projects_dir": projects, "force": true}),
    );
    let docs_index = Call::new(
        "docs.index",
        json!({"project_dir": docs, "lock_wait_secs": 300}),
    );
    // Each writer in its own order, so their transactions on each database overlap.
    let writer_a = vec![
        refresh(&tree_a),
        sessions.clone(),
        code.clone(),
        docs_index.clone(),
    ];
    let writer_b = vec![
        code.clone(),
        refresh(&tree_b),
        docs_index.clone(),
        sessions.clone(),
    ];
    let writer_c = vec![
        docs_index.clone(),
        sessions.clone(),
        refresh(&tree_a),
        code.clone(),
    ];
    let searches = vec![
        Call::new(
            "files.suggest",
            json!({"query": "src", "project_dir": tree_a}),
        ),
        Call::new(
            "files.suggest",
            json!({"query": "lib", "project_dir": tree_b}),
        ),
        Call::new(
            "code.search_symbols",
            json!({"path": repo, "query": "parser"}),
        ),
        Call::new(
            "sessions.search",
            json!({"query": "flamingo cache", "projects_dir": projects, "now": harness::NOW,
                   "mode": "keyword"}),
        ),
        Call::new(
            "docs.query",
            json!({"query": "nginx upstream", "project_dir": docs, "mode": "keyword"}),
        ),
        Call::new("sessions.status", json!({})),
        Call::new("code.index_status", json!({"path": repo})),
    ];

    // The reference: every writer's runs once, one after the other.
    let reference = dir.path().join("reference");
    let embedded = harness::configure(&reference, true);
    {
        let engine = Engine::open_at(&reference).unwrap();
        for call in writer_a.iter().chain(&writer_b) {
            run(&engine, call).unwrap();
        }
    }
    let want = harness::dump(&reference);

    // The vector cache of the reference run: the model (slow in a debug build) has
    // nothing left to embed, while every chunk's vectors are still written.
    let home = dir.path().join("shared");
    harness::configure(&home, true);
    if embedded {
        harness::warm_cache(&reference, &home, 1.0, &mut rng);
    }
    let started = Instant::now();
    let job = |calls: &Vec<Call>| Job {
        home: home.clone(),
        calls: calls.clone(),
        rounds,
    };
    let children = [
        harness::spawn_child(&job(&writer_a), &claude),
        harness::spawn_child(&job(&writer_b), &claude),
    ];
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let writers_done = AtomicBool::new(false);
    let reads = AtomicUsize::new(0);
    let shared_reader = Engine::open_at(&home).unwrap();
    std::thread::scope(|s| {
        // Readers: two share an engine, two have their own.
        for r in 0..4 {
            let (errors, writers_done, reads, searches) =
                (&errors, &writers_done, &reads, &searches);
            let (shared_reader, home) = (&shared_reader, &home);
            s.spawn(move || {
                let own = (r >= 2).then(|| Engine::open_at(home).unwrap());
                let engine = own.as_ref().unwrap_or(shared_reader);
                let mut i = r;
                while !writers_done.load(Ordering::Relaxed) {
                    if let Err(e) = run(engine, &searches[i % searches.len()]) {
                        errors.lock().unwrap().push(format!("reader {r}: {e}"));
                    }
                    reads.fetch_add(1, Ordering::Relaxed);
                    i += 1;
                }
            });
        }
        // A third writer: a thread of this process with its own engine.
        let writer = s.spawn(|| {
            let engine = Engine::open_at(&home).unwrap();
            for round in 0..rounds {
                for call in &writer_c {
                    if let Err(e) = run(&engine, call) {
                        errors
                            .lock()
                            .unwrap()
                            .push(format!("writer thread, round {round}: {e}"));
                    }
                }
            }
        });
        writer.join().unwrap();
        for (i, child) in children.into_iter().enumerate() {
            let out = child.wait_with_output().unwrap();
            if !out.status.success() {
                errors.lock().unwrap().push(format!(
                    "writer process {i}: {}\n{}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
        writers_done.store(true, Ordering::Relaxed);
    });
    let errors = errors.into_inner().unwrap();
    assert!(
        errors.is_empty(),
        "seed {seed:#x}: {} failed calls:\n{}",
        errors.len(),
        errors.join("\n")
    );
    eprintln!(
        "concurrency: 3 writers × {rounds} rounds × 4 index runs and {} searches in {:.1} s \
         (embedding: {embedded})",
        reads.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    drop(shared_reader);
    for db in harness::databases(&home) {
        let problems = harness::check_database(&db);
        assert!(problems.is_empty(), "{}: {problems:?}", db.display());
    }
    harness::assert_same_dump(
        &harness::dump(&home),
        &want,
        &format!("concurrency seed {seed:#x}"),
    );
}

/// Two engines of one process writing the same chunk store in a loop: every transaction
/// that reads before it writes must still get the write lock by waiting, never fail with
/// "database is locked" because the other committed in between.
#[test]
fn two_engines_of_one_process_index_sessions_at_once() {
    let seed = harness::seed(0x2e2e);
    let mut rng = Rng::new(seed);
    let dir = tempfile::tempdir().unwrap();
    let projects = dir.path().join("projects");
    harness::transcripts(&projects, 10, 4, 10, &mut rng);
    let home = dir.path().join("home");
    harness::configure(&home, false);
    let index = Call::new(
        "sessions.index",
        json!({"projects_dir": projects, "force": true}),
    );
    let rounds = 2 * harness::env_count("CC_SEARCH_CONCURRENCY_ROUNDS", 2);
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for t in 0..2 {
            let (errors, home, index) = (&errors, &home, &index);
            s.spawn(move || {
                let engine = Engine::open_at(home).unwrap();
                for round in 0..rounds {
                    if let Err(e) = run(&engine, index) {
                        errors
                            .lock()
                            .unwrap()
                            .push(format!("engine {t}, round {round}: {e}"));
                    }
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let engine = Engine::open_at(&home).unwrap();
    let status: serde_json::Value =
        serde_json::from_str(&run(&engine, &Call::new("sessions.status", json!({}))).unwrap())
            .unwrap();
    let reference = dir.path().join("reference");
    harness::configure(&reference, false);
    run(&Engine::open_at(&reference).unwrap(), &index).unwrap();
    harness::assert_same_dump(
        &harness::dump(&home),
        &harness::dump(&reference),
        &format!("two engines, seed {seed:#x} ({status})"),
    );
}

/// The docs advisory lock under contention: while another run holds it, an indexer
/// waits; when its wait runs out it fails with an `io` error naming the holder, having
/// written nothing; once the lock is released a waiting indexer goes ahead.
#[test]
fn docs_lock_makes_a_second_indexer_wait_or_say_who_holds_it() {
    let mut rng = Rng::new(harness::seed(0xd10c));
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    harness::markdown_docs(&project, 6, 3, 10, &mut rng);
    let home = dir.path().join("home");
    harness::configure(&home, false);
    let engine = Engine::open_at(&home).unwrap();
    let index = |wait: u64| {
        engine.call(
            "docs.index",
            &json!({"project_dir": project, "lock_wait_secs": wait}).to_string(),
        )
    };

    let held = cc_search::docs::lock::AdvisoryLock::acquire(
        &home.join("docs.lock"),
        Duration::ZERO,
        &mut Vec::new(),
    )
    .unwrap();
    let started = Instant::now();
    let err = index(1).unwrap_err();
    assert!(started.elapsed() >= Duration::from_secs(1), "it waited");
    assert_eq!(err.code(), "io");
    let text = err.to_string();
    assert!(
        text.contains("another index run holds the lock")
            && text.contains(&format!("process {}", std::process::id())),
        "{text}"
    );
    assert!(
        !home.join("docs.db").exists()
            || harness::dump(&home)
                .iter()
                .filter(|(k, _)| k.starts_with("docs.db/"))
                .all(|(_, rows)| rows.is_empty()),
        "nothing was indexed without the lock"
    );

    std::thread::scope(|s| {
        let waiter = s.spawn(|| {
            let started = Instant::now();
            (index(60), started.elapsed())
        });
        std::thread::sleep(Duration::from_millis(500));
        drop(held);
        let (result, waited) = waiter.join().unwrap();
        let response: serde_json::Value = serde_json::from_str(&result.unwrap()).unwrap();
        assert_eq!(response["files"], 6);
        assert!(waited >= Duration::from_millis(400), "{waited:?}");
        assert!(
            !response["warnings"].to_string().contains("stale"),
            "a released lock is not broken: {response}"
        );
    });
    assert!(!home.join("docs.lock").exists());
}
