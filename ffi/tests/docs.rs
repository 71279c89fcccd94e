//! docs.* and notes.* through the C ABI: tests/c/docs_test.c compiled by gcc against the
//! shared library and run on a real temporary project.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Build the C libraries (cargo test builds only the rlib) and return their directory.
fn libraries() -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "-p", "cc-search-ffi", "--lib"])
        .current_dir(workspace())
        .status()
        .expect("run cargo build");
    assert!(status.success(), "cargo build -p cc-search-ffi failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"));
    target.join("debug")
}

#[test]
fn docs_index_and_query_through_cc_search_call() {
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("docs_test");
    let output = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(workspace().join("tests/c/docs_test.c"))
        .arg("-I")
        .arg(workspace().join("include"))
        .arg("-L")
        .arg(&lib_dir)
        .arg("-lcc_search")
        .output()
        .expect("run gcc");
    assert!(
        output.status.success(),
        "gcc failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let guide = project.path().join("docs/guide.md");
    std::fs::create_dir_all(guide.parent().unwrap()).unwrap();
    std::fs::write(
        &guide,
        "# Guide\n\n## Matching\n\nRiders and drivers.\n\n## Errors\n\nRetried with exponential backoff.\n",
    )
    .unwrap();
    let output = Command::new(&exe)
        .arg(home.path())
        .arg(project.path())
        .env("LD_LIBRARY_PATH", &lib_dir)
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .expect("run docs_test");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "docs_test failed:\n{stderr}");
    assert!(stdout.starts_with("ok 10 checks"), "{stdout}");
    assert!(home.path().join("docs.db").exists());
    assert!(!home.path().join("docs.lock").exists(), "released");
}
