//! Helpers shared by the integration tests (each test file takes what it needs).
#![allow(dead_code)]

use std::fs;
use std::path::Path;
use std::process::Command;

/// Write `content` to `root/rel`, creating the directories on the way.
pub fn write(root: &Path, rel: &str, content: impl AsRef<[u8]>) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
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
