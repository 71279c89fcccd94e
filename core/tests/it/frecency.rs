//! Git frecency in the picker: history recency and frequency, status boosts, weights.

use std::fs;
use std::path::Path;

use cc_search::Engine;
use cc_search::files::{Refresh, RefreshRequest, Suggest, SuggestRequest};

const DAY: i64 = 86_400;
/// A fixed "now" so the test does not depend on the clock.
const NOW: i64 = 1_790_000_000;

use crate::common;
use common::{git_at as git, write};

fn commit(dir: &Path, rel: &str, content: &str, at: i64) {
    write(dir, rel, content);
    git(dir, &["add", "-A"], at);
    git(dir, &["commit", "-q", "-m", rel], at);
}

/// A repository where `src/util_hot.rs` was committed often and lately, `src/util_cold.rs`
/// once long ago, `src/util_edit.rs` is modified now and `src/util_new.rs` untracked.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"], NOW);
    git(d, &["config", "user.name", "t"], NOW);
    git(d, &["config", "user.email", "t@example.invalid"], NOW);
    commit(d, "src/util_cold.rs", "1", NOW - 80 * DAY);
    commit(d, "src/util_edit.rs", "1", NOW - 80 * DAY);
    for i in 0..5 {
        commit(d, "src/util_hot.rs", &i.to_string(), NOW - (10 - i) * DAY);
    }
    commit(d, "src/util_twoweeks.rs", "1", NOW - 14 * DAY);
    write(d, "src/util_edit.rs", "changed");
    write(d, "src/util_new.rs", "new");
    dir
}

fn engine(home: &Path) -> Engine {
    Engine::open_at(home).unwrap()
}

fn refresh(engine: &Engine, root: &Path) {
    engine
        .run::<Refresh>(RefreshRequest {
            root: Some(root.into()),
            now: Some(NOW),
            ..Default::default()
        })
        .unwrap();
}

fn ask(engine: &Engine, root: &Path, q: &str) -> Vec<String> {
    engine
        .run::<Suggest>(SuggestRequest {
            query: q.into(),
            project_dir: Some(root.into()),
            ..Default::default()
        })
        .unwrap()
        .paths
}

#[test]
fn frecency_orders_equal_matches() {
    let repo = repo();
    let home = tempfile::tempdir().unwrap();
    let e = engine(home.path());
    refresh(&e, repo.path());
    let got = ask(&e, repo.path(), "util");
    // Modified (boost 5 × weight 5) first, then untracked (3 × 5), then the hot file.
    assert_eq!(
        got[..3],
        ["src/util_edit.rs", "src/util_new.rs", "src/util_hot.rs"],
        "{got:?}"
    );
    let at = |p: &str| got.iter().position(|g| g == p).unwrap();
    assert!(at("src/util_hot.rs") < at("src/util_cold.rs"), "{got:?}");
    // An empty query lists by frecency too.
    assert_eq!(ask(&e, repo.path(), "")[0], "src/util_edit.rs");
}

#[test]
fn stored_signals_follow_the_formulas() {
    let repo = repo();
    let home = tempfile::tempdir().unwrap();
    let e = engine(home.path());
    refresh(&e, repo.path());
    let conn = rusqlite::Connection::open(home.path().join("files.db")).unwrap();
    let root = fs::canonicalize(repo.path()).unwrap();
    let row = |rel: &str| -> (f64, i64, f64) {
        conn.query_row(
            "SELECT git_recency, git_frequency, git_status_boost FROM frecency WHERE path = ?1",
            [root.join(rel).to_str().unwrap()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
    };
    // exp(-days / 14): 14 days old → 1/e.
    let (recency, frequency, boost) = row("src/util_twoweeks.rs");
    assert!((recency - (-1.0f64).exp()).abs() < 1e-9, "{recency}");
    assert_eq!((frequency, boost), (1, 0.0));
    let (recency, frequency, _) = row("src/util_hot.rs");
    assert!((recency - (-6.0f64 / 14.0).exp()).abs() < 1e-9, "{recency}");
    assert_eq!(frequency, 5);
    assert_eq!(row("src/util_edit.rs").2, 5.0);
    assert_eq!(row("src/util_new.rs").2, 3.0);
}

#[test]
fn weights_come_from_the_configuration() {
    let repo = repo();
    let home = tempfile::tempdir().unwrap();
    fs::write(
        home.path().join("config.toml"),
        "[weights]\ngit_status = 0.0\ngit_recency = 0.0\ngit_frequency = 10.0\n",
    )
    .unwrap();
    let e = engine(home.path());
    refresh(&e, repo.path());
    // Only commit counts matter now: the hot file leads.
    assert_eq!(ask(&e, repo.path(), "util")[0], "src/util_hot.rs");
}

#[test]
fn status_is_refreshed_and_history_reused_while_head_stays() {
    let repo = repo();
    let home = tempfile::tempdir().unwrap();
    let e = engine(home.path());
    refresh(&e, repo.path());
    // Commit everything: no status boosts any more, and HEAD moves, so the history is
    // read again: the two files committed now count one recent commit each.
    git(repo.path(), &["add", "-A"], NOW);
    git(repo.path(), &["commit", "-q", "-m", "edit"], NOW);
    refresh(&e, repo.path());
    let got = ask(&e, repo.path(), "util");
    // hot: e^(-6/14) + 5 × 0.5; edit: 1 + 2 × 0.5; new: 1 + 1 × 0.5.
    assert_eq!(
        got[..3],
        ["src/util_hot.rs", "src/util_edit.rs", "src/util_new.rs"],
        "{got:?}"
    );
}

#[test]
fn a_directory_without_git_works_without_frecency() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/util_one.rs", "");
    write(dir.path(), "util_two.rs", "");
    let home = tempfile::tempdir().unwrap();
    let e = engine(home.path());
    refresh(&e, dir.path());
    assert_eq!(
        ask(&e, dir.path(), "util"),
        ["util_two.rs", "a/util_one.rs"]
    );
}

/// Claude Code's folder name for a session started in `dir`.
fn encoded(dir: &Path) -> String {
    dir.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

fn rfc3339(t: i64) -> String {
    // Claude Code writes milliseconds.
    cc_search::time::format_rfc3339(t).replace('Z', ".000Z")
}

#[test]
fn files_claude_code_touched_rank_higher() {
    let project = tempfile::tempdir().unwrap();
    let project_path = fs::canonicalize(project.path()).unwrap();
    for rel in ["a/config.rs", "b/config.rs", "c/config.rs"] {
        write(&project_path, rel, "");
    }
    let claude = tempfile::tempdir().unwrap();
    let folder = claude.path().join("projects").join(encoded(&project_path));
    fs::create_dir_all(&folder).unwrap();
    let edited = project_path.join("c/config.rs");
    let line = serde_json::json!({
        "type": "assistant",
        "uuid": "u1",
        "sessionId": "s1",
        "cwd": project_path,
        "timestamp": rfc3339(NOW - DAY),
        "message": {"id": "m1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Edit",
             "input": {"file_path": edited, "old_string": "a", "new_string": "b"}}
        ]}
    });
    fs::write(folder.join("s1.jsonl"), format!("{line}\n")).unwrap();

    let home = tempfile::tempdir().unwrap();
    let e = engine(home.path());
    let refresh_with_sessions = || {
        e.run::<Refresh>(RefreshRequest {
            root: Some(project_path.clone()),
            now: Some(NOW),
            claude_dir: Some(claude.path().into()),
            ..Default::default()
        })
        .unwrap()
    };
    refresh_with_sessions();
    assert_eq!(ask(&e, &project_path, "config")[0], "c/config.rs");

    // The stored sum is exp(-1/14) for one edit a day ago; a second scan reads nothing new
    // and counts nothing twice.
    refresh_with_sessions();
    let conn = rusqlite::Connection::open(home.path().join("files.db")).unwrap();
    let edits: f64 = conn
        .query_row(
            "SELECT claude_edits FROM frecency WHERE path = ?1",
            [edited.to_str().unwrap()],
            |r| r.get(0),
        )
        .unwrap();
    assert!((edits - (-1.0f64 / 14.0).exp()).abs() < 1e-9, "{edits}");
}

#[test]
fn the_empty_query_lists_the_most_frecent_files_by_the_configured_weights() {
    let repo = repo();
    for (weights, expected) in [
        (
            "git_status = 0.0\ngit_recency = 0.0\ngit_frequency = 10.0\n",
            "src/util_hot.rs",
        ),
        (
            "git_status = 100.0\ngit_recency = 0.0\ngit_frequency = 0.0\n",
            "src/util_edit.rs",
        ),
    ] {
        let home = tempfile::tempdir().unwrap();
        fs::write(
            home.path().join("config.toml"),
            format!("[weights]\n{weights}"),
        )
        .unwrap();
        let e = engine(home.path());
        refresh(&e, repo.path());
        assert_eq!(ask(&e, repo.path(), "")[0], expected, "{weights}");
    }
}
