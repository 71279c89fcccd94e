//! The C ABI driven from real C: the header compiled by gcc, the example and the misuse
//! checks linked against the shared and the static library, run as processes.

use std::path::Path;
use std::process::Command;

use crate::common;
use common::{gcc, libraries, workspace};

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for rel in [
        "src/components/Button.tsx",
        "src/components/Modal.tsx",
        "README.md",
    ] {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, rel).unwrap();
    }
    dir
}

fn run(exe: &Path, lib_dir: &Path, home: &Path, args: &[&Path]) -> (bool, String, String) {
    let output = Command::new(exe)
        .args(args)
        .env("LD_LIBRARY_PATH", lib_dir)
        .env("CC_SEARCH_HOME", home)
        .output()
        .expect("run C program");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn c_example_runs_shared_and_static() {
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let project = project();
    let canonical = std::fs::canonicalize(project.path()).unwrap();
    for link_static in [false, true] {
        let exe = build
            .path()
            .join(if link_static { "static" } else { "shared" });
        gcc(
            &exe,
            &workspace().join("examples/c/example.c"),
            &lib_dir,
            link_static,
        );
        let home = tempfile::tempdir().unwrap();
        let (ok, stdout, stderr) = run(
            &exe,
            &lib_dir,
            home.path(),
            &[&canonical, Path::new("src/comp")],
        );
        assert!(ok, "example failed: {stderr}");
        let response: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
        assert_eq!(
            response["paths"],
            serde_json::json!(["src/components/Modal.tsx", "src/components/Button.tsx"])
        );
        assert!(stderr.contains("\"added\":3"), "{stderr}");
        assert!(home.path().join("files.db").exists());
    }
}

#[test]
fn c_example_reports_errors_on_stderr() {
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("example");
    gcc(
        &exe,
        &workspace().join("examples/c/example.c"),
        &lib_dir,
        false,
    );
    let home = tempfile::tempdir().unwrap();
    let (ok, stdout, stderr) = run(
        &exe,
        &lib_dir,
        home.path(),
        &[Path::new("/nonexistent/dir"), Path::new("x")],
    );
    assert!(!ok);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("CC_SEARCH_ERR_IO") && stderr.contains("/nonexistent/dir"),
        "{stderr}"
    );
}

#[test]
fn c_abi_misuse_and_threads() {
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("abi_test");
    gcc(
        &exe,
        &workspace().join("tests/c/abi_test.c"),
        &lib_dir,
        false,
    );
    let home = tempfile::tempdir().unwrap();
    let project = project();
    let canonical = std::fs::canonicalize(project.path()).unwrap();
    let (ok, stdout, stderr) = run(&exe, &lib_dir, home.path(), &[home.path(), &canonical]);
    assert!(ok, "abi_test failed:\n{stderr}");
    assert!(stdout.starts_with("ok "), "{stdout}");
}

#[test]
fn c_mcp_handle_and_serve() {
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("mcp_test");
    gcc(
        &exe,
        &workspace().join("tests/c/mcp_test.c"),
        &lib_dir,
        false,
    );
    let home = tempfile::tempdir().unwrap();
    let project = project();
    let output = Command::new(&exe)
        .arg(home.path())
        .arg(project.path())
        .current_dir(project.path())
        .env("LD_LIBRARY_PATH", &lib_dir)
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .expect("run mcp_test");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "mcp_test failed:\n{stderr}");
    assert!(stdout.starts_with("ok "), "{stdout}");

    // The stdio loop: replies in order, none for the notification, status 0 at EOF.
    let mut child = Command::new(&exe)
        .arg("serve")
        .arg(home.path())
        .env("LD_LIBRARY_PATH", &lib_dir)
        .env("CLAUDE_PROJECT_DIR", project.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run mcp_test serve");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(
                concat!(
                    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}"#,
                    "\n",
                    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                    "\n",
                    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"checkfor","arguments":{"search":"README"}}}"#,
                    "\n",
                )
                .as_bytes(),
            )
            .unwrap();
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let replies: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(replies[0]["result"]["protocolVersion"], "2024-11-05");
    let text = replies[1]["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        text,
        r#"{"directories":[{"dir":".","matches_found":1,"files":[{"path":"README.md","matches":[{"line":1,"content":"README.md"}]}]}]}"#
    );
}
