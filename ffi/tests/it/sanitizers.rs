//! The C stress test (tests/c/stress_test.c: one handle shared by many threads, every
//! kind of call and misuse) and the C example, run as they are, under valgrind (memcheck,
//! leak check) and built with AddressSanitizer. Each must pass with no error and no
//! leak. valgrind is required when `CC_SEARCH_REQUIRE_VALGRIND` is set (CI sets it);
//! elsewhere its absence skips that form with a message.

use crate::common;
use common::{gcc, gcc_with, libraries, workspace};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A project (a main.rs, two grep needles, a doc), a transcript folder with one session,
/// and a keyword-only data root.
struct Fixture {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    sessions: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let project = root.join("project");
    for (rel, text) in [
        ("src/main.rs", "fn main() { needle_0(); }\n"),
        ("src/lib.rs", "pub fn needle_1() {}\n"),
        (
            "docs/guide.md",
            "# Guide\n\n## Install\n\nRun the install script.\n",
        ),
    ] {
        let path = project.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let sessions = root.join("claude/projects");
    let folder = sessions.join("-home-u-app");
    std::fs::create_dir_all(&folder).unwrap();
    let record = |n: u32, kind: &str, message: serde_json::Value| {
        serde_json::json!({
            "parentUuid": null, "isSidechain": false, "cwd": "/home/u/app",
            "sessionId": "s1", "type": kind, "uuid": format!("u{n}"),
            "timestamp": "2026-03-01T10:00:00.000Z", "message": message,
        })
        .to_string()
    };
    std::fs::write(
        folder.join("s1.jsonl"),
        [
            record(
                1,
                "user",
                serde_json::json!({"role": "user", "content": "Set up the flamingo proxy"}),
            ),
            record(
                2,
                "assistant",
                serde_json::json!({"id": "m1", "role": "assistant",
                "content": [{"type": "text", "text": "The flamingo proxy runs on port 8080."}]}),
            ),
            "{corrupt line".to_string(),
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.toml"),
        "[embed]\nmodel_dir = \"/nonexistent/model\"\n",
    )
    .unwrap();
    Fixture {
        _dir: dir,
        home,
        project,
        sessions,
    }
}

fn args(f: &Fixture) -> Vec<PathBuf> {
    vec![f.home.clone(), f.project.clone(), f.sessions.clone()]
}

fn run(program: &Path, prefix: &[&str], args: &[PathBuf], lib_dir: &Path) -> Output {
    let mut cmd = match prefix.split_first() {
        Some((first, rest)) => {
            let mut cmd = Command::new(first);
            cmd.args(rest).arg(program);
            cmd
        }
        None => Command::new(program),
    };
    cmd.args(args)
        .env("LD_LIBRARY_PATH", lib_dir)
        .output()
        .expect("run the C program")
}

fn assert_passed(what: &str, output: &Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.starts_with("ok "),
        "{what}: {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
}

fn valgrind() -> Option<&'static str> {
    let found = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return Some("valgrind");
    }
    assert!(
        std::env::var_os("CC_SEARCH_REQUIRE_VALGRIND").is_none(),
        "CC_SEARCH_REQUIRE_VALGRIND is set but valgrind is not installed"
    );
    eprintln!("valgrind not installed: its form of the test is skipped");
    None
}

/// memcheck: any error, or any block definitely or indirectly lost, fails the run.
const VALGRIND: &[&str] = &[
    "valgrind",
    "--quiet",
    "--error-exitcode=99",
    "--leak-check=full",
    "--show-leak-kinds=definite,indirect",
    "--errors-for-leak-kinds=definite,indirect",
    "--track-origins=yes",
    // A child process between fork and exec (git, run by the file index) is not ours
    // to check: its copy of the heap is dropped by the exec.
    "--child-silent-after-fork=yes",
];

#[test]
fn stress_test_passes_plain_and_under_valgrind() {
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("stress_test");
    gcc(
        &exe,
        &workspace().join("tests/c/stress_test.c"),
        &lib_dir,
        false,
    );
    let f = fixture();
    assert_passed("stress_test", &run(&exe, &[], &args(&f), &lib_dir));
    if valgrind().is_some() {
        let f = fixture();
        assert_passed(
            "stress_test under valgrind",
            &run(&exe, VALGRIND, &args(&f), &lib_dir),
        );
    }
}

#[test]
fn stress_test_and_example_pass_with_address_sanitizer() {
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let flags = ["-fsanitize=address", "-fno-omit-frame-pointer", "-g"];
    let exe = build.path().join("stress_test_asan");
    gcc_with(
        &exe,
        &workspace().join("tests/c/stress_test.c"),
        &lib_dir,
        false,
        &flags,
    );
    let f = fixture();
    assert_passed(
        "stress_test with ASan",
        &run(&exe, &[], &args(&f), &lib_dir),
    );

    let example = build.path().join("example_asan");
    gcc_with(
        &example,
        &workspace().join("examples/c/example.c"),
        &lib_dir,
        true,
        &flags,
    );
    let output = Command::new(&example)
        .arg(&f.project)
        .arg("main")
        .env("CC_SEARCH_HOME", &f.home)
        .output()
        .unwrap();
    assert!(
        output.status.success() && String::from_utf8_lossy(&output.stdout).contains("src/main.rs"),
        "example with ASan: {output:?}"
    );
}

#[test]
fn c_example_passes_under_valgrind() {
    let Some(_) = valgrind() else { return };
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("example");
    gcc(
        &exe,
        &workspace().join("examples/c/example.c"),
        &lib_dir,
        false,
    );
    let f = fixture();
    let mut cmd = Command::new(VALGRIND[0]);
    cmd.args(&VALGRIND[1..])
        .arg(&exe)
        .arg(&f.project)
        .arg("main")
        .env("LD_LIBRARY_PATH", &lib_dir)
        .env("CC_SEARCH_HOME", &f.home);
    let output = cmd.output().unwrap();
    assert!(
        output.status.success() && String::from_utf8_lossy(&output.stdout).contains("src/main.rs"),
        "example under valgrind: {output:?}"
    );
}
