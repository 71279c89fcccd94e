//! docs.* and notes.* through the C ABI: tests/c/docs_test.c compiled by gcc against the
//! shared library and run on a real temporary project.

use std::process::Command;

use crate::common;
use common::{gcc, libraries, workspace};

#[test]
fn docs_index_and_query_through_cc_search_call() {
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("docs_test");
    gcc(
        &exe,
        &workspace().join("tests/c/docs_test.c"),
        &lib_dir,
        false,
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
