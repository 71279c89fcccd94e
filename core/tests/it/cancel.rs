//! Stopping long operations: a cancel token, `Engine::cancel_running` from another
//! thread, and what a stopped run leaves (its committed work kept, the rest done by the
//! next run, the lock released), with the real model on real transcripts and docs.

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cc_search::Error;
use cc_search::progress::{Cancel, Watch};
use common::{call, model_dir, write};
use serde_json::json;

fn engine_with_model(home: &Path) -> Option<cc_search::Engine> {
    let model = model_dir()?;
    write(
        home,
        "config.toml",
        format!("[embed]\nmodel_dir = {:?}\n", model.display().to_string()),
    );
    Some(cc_search::Engine::open_at(home).unwrap())
}

/// Markdown with `sections` H2 sections of distinct text.
fn docs(root: &Path, files: usize, sections: usize) {
    for f in 0..files {
        let mut text = format!("# Guide {f}\n\n");
        for s in 0..sections {
            text.push_str(&format!(
                "## Topic {f}-{s}\n\nHow part {s} of guide {f} configures the widget \
                 number {} with care and patience, step by step.\n\n",
                f * 1000 + s
            ));
        }
        write(root, &format!("docs/guide{f}.md"), text);
    }
}

#[test]
fn a_docs_index_stopped_while_embedding_keeps_its_vectors_and_the_next_run_finishes() {
    let home = tempfile::tempdir().unwrap();
    let Some(engine) = engine_with_model(home.path()) else {
        return;
    };
    let project = tempfile::tempdir().unwrap();
    docs(project.path(), 8, 40);
    let params = json!({ "project_dir": project.path() }).to_string();
    let token = Cancel::new();
    let stop = token.clone();
    let asked = Arc::new(std::sync::Mutex::new(None::<Instant>));
    let when = Arc::clone(&asked);
    let watch = Watch::new().cancel(&token).progress(move |p| {
        // Stop after the first batch of vectors is written.
        if p.stage == "embed" && p.done > 0 && !stop.is_cancelled() {
            *when.lock().unwrap() = Some(Instant::now());
            stop.cancel();
        }
    });
    let err = engine
        .call_watched("docs.index", &params, watch)
        .unwrap_err();
    let stopped_in = asked
        .lock()
        .unwrap()
        .expect("embedding was reported")
        .elapsed();
    assert!(matches!(err, Error::Cancelled), "{err}");
    assert_eq!(err.code(), "cancelled");
    assert!(
        stopped_in < Duration::from_secs(1),
        "stopped {stopped_in:?} after asked"
    );
    // The lock is released and the sections written are searchable; a search by
    // meaning says which sections it cannot see yet, and how to fill them.
    let query = json!({ "query": "section words", "project_dir": project.path() });
    let before = call(&engine, "docs.query", query.clone());
    let warning = before["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w.as_str())
        .find(|w| w.contains("no vectors yet"))
        .unwrap_or_else(|| panic!("no warning about missing vectors: {before}"))
        .to_string();
    let missing: u64 = warning.split(' ').next().unwrap().parse().unwrap();
    assert!(missing > 0 && missing < 320, "{warning}");
    assert!(warning.contains("`cc-search docs index`"), "{warning}");
    let keyword = call(
        &engine,
        "docs.query",
        json!({ "query": "section words", "project_dir": project.path(), "mode": "keyword" }),
    );
    assert!(!keyword.to_string().contains("no vectors yet"), "{keyword}");
    // The next run embeds only what is still pending.
    let again = call(
        &engine,
        "docs.index",
        json!({ "project_dir": project.path() }),
    );
    assert_eq!(again["files"], 8);
    assert_eq!(
        again["unchanged"], 8,
        "the sections were committed: {again}"
    );
    assert_eq!(again["pending_vectors"], 0);
    let embedded = again["embedded"].as_u64().unwrap();
    assert!(
        embedded > 0 && embedded < 320,
        "only the rest is embedded: {again}"
    );
    let after = call(&engine, "docs.query", query);
    assert!(!after.to_string().contains("no vectors yet"), "{after}");
}

#[test]
fn cancel_running_stops_a_call_on_another_thread_and_not_later_calls() {
    let home = tempfile::tempdir().unwrap();
    let Some(engine) = engine_with_model(home.path()) else {
        return;
    };
    let engine = Arc::new(engine);
    let project = tempfile::tempdir().unwrap();
    docs(project.path(), 10, 40);
    let params = json!({ "project_dir": project.path() }).to_string();
    let (started, wait) = std::sync::mpsc::channel();
    let worker = {
        let engine = Arc::clone(&engine);
        let params = params.clone();
        std::thread::spawn(move || {
            let started = std::sync::Mutex::new(Some(started));
            let watch = Watch::new().progress(move |p| {
                if p.stage == "embed"
                    && let Some(tx) = started.lock().unwrap().take()
                {
                    tx.send(()).unwrap();
                }
            });
            engine.call_watched("docs.index", &params, watch)
        })
    };
    wait.recv_timeout(Duration::from_secs(120))
        .expect("the run reached embedding");
    let asked = Instant::now();
    engine.cancel_running();
    let result = worker.join().unwrap();
    assert!(
        matches!(result, Err(Error::Cancelled)),
        "{:?}",
        result.map(|_| ())
    );
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    // A call made after the cancel runs to the end.
    let done = call(
        &engine,
        "docs.index",
        json!({ "project_dir": project.path() }),
    );
    assert_eq!(done["pending_vectors"], 0, "{done}");
}

#[test]
fn a_set_token_stops_grep_refresh_and_code_index_before_they_write() {
    let home = tempfile::tempdir().unwrap();
    common::keyword_only(home.path());
    let engine = cc_search::Engine::open_at(home.path()).unwrap();
    let repo = tempfile::tempdir().unwrap();
    for i in 0..50 {
        write(
            repo.path(),
            &format!("src/m{i}.rs"),
            format!("pub fn f{i}() {{}}\n"),
        );
    }
    let token = Cancel::new();
    token.cancel();
    for (op, params) in [
        (
            "grep.search",
            json!({ "search": "fn", "dir": [repo.path()], "recursive": true }),
        ),
        ("files.refresh", json!({ "root": repo.path() })),
        ("code.index_repository", json!({ "path": repo.path() })),
    ] {
        let err = engine
            .call_watched(op, &params.to_string(), Watch::new().cancel(&token))
            .unwrap_err();
        assert!(matches!(err, Error::Cancelled), "{op}: {err}");
    }
    // Nothing was written: the code index is empty, and each runs to the end unwatched.
    let code = call(
        &engine,
        "code.index_repository",
        json!({ "path": repo.path() }),
    );
    assert_eq!(code["new"], 50, "{code}");
    let files = call(&engine, "files.refresh", json!({ "root": repo.path() }));
    assert_eq!(files["added"], 50, "{files}");
}

#[test]
fn progress_reaches_the_caller_from_refresh_and_code_index() {
    let home = tempfile::tempdir().unwrap();
    common::keyword_only(home.path());
    let engine = cc_search::Engine::open_at(home.path()).unwrap();
    let repo = tempfile::tempdir().unwrap();
    for i in 0..40 {
        write(
            repo.path(),
            &format!("src/m{i}.py"),
            format!("def f{i}():\n    pass\n"),
        );
    }
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let log = std::rc::Rc::clone(&seen);
    let watch = Watch::new().progress(move |p| {
        log.borrow_mut()
            .push((p.stage.to_string(), p.done, p.total))
    });
    engine
        .call_watched(
            "code.index_repository",
            &json!({ "path": repo.path() }).to_string(),
            watch,
        )
        .unwrap();
    let seen = seen.borrow();
    assert!(
        seen.iter()
            .all(|(stage, _, total)| stage == "parse" && *total == 40),
        "{seen:?}"
    );
    assert!(seen.len() >= 40, "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1), "{seen:?}");
}
