//! The `cc-search-hook` program as a process: its command line, a stdout that is gone,
//! `--timings`, and `refresh`. What the hooks answer is tested under every runtime by the
//! Python and Node hook tests (`bindings/python/tests/test_hook.py`,
//! `bindings/node/test/hooks.test.js`), which run this program beside their own hooks.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const HOOK: &str = env!("CARGO_BIN_EXE_cc-search-hook");

fn run(args: &[&str], home: &Path, project: &Path, stdin: &str) -> Output {
    let mut child = Command::new(HOOK)
        .args(args)
        .env("CC_SEARCH_HOME", home)
        .env("CLAUDE_PROJECT_DIR", project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cc-search-hook");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

/// A project with two files, indexed in `home`.
fn indexed_project(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let project = dir.join("project");
    std::fs::create_dir_all(project.join("src/components")).unwrap();
    std::fs::write(project.join("src/components/Button.tsx"), "").unwrap();
    std::fs::write(project.join("README.md"), "").unwrap();
    let home = dir.join("home");
    let engine = cc_search::Engine::open_at(&home).unwrap();
    engine
        .run::<cc_search::files::Refresh>(cc_search::files::RefreshRequest {
            root: Some(project.clone()),
            ..Default::default()
        })
        .unwrap();
    (home, project)
}

#[test]
fn version_and_help() {
    let out = Command::new(HOOK).arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        format!("cc-search-hook {}\n", env!("CARGO_PKG_VERSION"))
    );
    let out = Command::new(HOOK).arg("-h").output().unwrap();
    assert!(out.status.success());
    for command in ["file-suggestion", "session-start", "refresh"] {
        assert!(text(&out.stdout).contains(command), "{command}");
    }
}

#[test]
fn usage_errors_exit_2_with_one_message() {
    for args in [
        &[][..],
        &["suggest"],
        &["--bogus", "file-suggestion"],
        &["file-suggestion", "--home"],
        &["file-suggestion", "-C"],
        &["file-suggestion", "session-start"],
    ] {
        let out = Command::new(HOOK)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&out.stdout), "", "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("cc-search-hook: usage error: "),
            "{args:?}: {stderr}"
        );
        assert!(stderr.ends_with("Try 'cc-search-hook --help' for help.\n"));
    }
}

#[test]
fn options_go_before_or_after_the_command_and_name_the_data_root() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = indexed_project(dir.path());
    let elsewhere = dir.path().join("elsewhere");
    let home_arg = home.to_str().unwrap();
    for args in [
        vec!["--home", home_arg, "file-suggestion"],
        vec!["file-suggestion", &format!("--home={home_arg}")],
    ] {
        let out = run(&args, &elsewhere, &project, r#"{"query":"butt"}"#);
        assert_eq!(
            (out.status.code(), text(&out.stdout), text(&out.stderr)),
            (Some(0), "src/components/Button.tsx\n", "")
        );
    }
    assert!(
        !elsewhere.exists(),
        "$CC_SEARCH_HOME is not used over --home"
    );
}

#[test]
fn project_dir_names_the_project_of_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = indexed_project(dir.path());
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    for flag in ["-C", "--project-dir"] {
        let args = ["file-suggestion", flag, project.to_str().unwrap()];
        // $CLAUDE_PROJECT_DIR names another directory: the flag wins.
        let out = run(&args, &home, &elsewhere, r#"{"query":"readme"}"#);
        assert_eq!(
            (out.status.code(), text(&out.stdout), text(&out.stderr)),
            (Some(0), "README.md\n", ""),
            "{flag}"
        );
    }
    let out = Command::new(HOOK)
        .args(["refresh", "-C", project.to_str().unwrap()])
        .env("CC_SEARCH_HOME", &home)
        .env("CLAUDE_PROJECT_DIR", &elsewhere)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(&format!("refresh {}: started", project.display())),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_reader_that_went_away_is_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = indexed_project(dir.path());
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = Command::new(HOOK)
        .arg("file-suggestion")
        .env("CC_SEARCH_HOME", &home)
        .env("CLAUDE_PROJECT_DIR", &project)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"query":""}"#)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(0), ""));
}

#[test]
fn input_that_is_not_the_hooks_json_prints_nothing_and_one_line_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = indexed_project(dir.path());
    for input in ["garbage\n", "[1, 2]", r#"{"q": "butt"}"#] {
        let out = run(&["file-suggestion"], &home, &project, input);
        let stderr = text(&out.stderr);
        assert_eq!(
            (out.status.code(), text(&out.stdout)),
            (Some(0), ""),
            "{input}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(
                r#"cc-search: error: hook file-suggestion: the input is not {"query": "..."} but "#
            ),
            "{stderr}"
        );
    }
    // No input at all is the empty query: the project's top-ranked files.
    let out = run(&["file-suggestion"], &home, &project, "");
    assert_eq!(out.status.code(), Some(0));
    assert!(!text(&out.stdout).is_empty(), "{}", text(&out.stderr));
}

#[test]
fn timings_name_each_step_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = indexed_project(dir.path());
    let out = run(
        &["--timings", "file-suggestion"],
        &home,
        &project,
        r#"{"query":"readme"}"#,
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), "README.md\n")
    );
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let line = stderr.strip_prefix("cc-search: timings: ").expect(stderr);
    let steps: Vec<&str> = line
        .trim_end()
        .split(", ")
        .map(|step| {
            let (name, ms) = step.rsplit_once(' ').unwrap().0.rsplit_once(' ').unwrap();
            assert!(ms.parse::<f64>().is_ok(), "{step}");
            name
        })
        .collect();
    assert_eq!(
        steps,
        ["read input", "open engine", "open index", "query", "write"]
    );
}

#[test]
fn refresh_logs_each_step_and_fails_with_status_1() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = indexed_project(dir.path());
    let project_arg = project.to_str().unwrap();
    let out = run(
        &["refresh", "--project-dir", project_arg],
        &home,
        &project,
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<&str> = text(&out.stdout)
        .lines()
        .map(|line| {
            // `2026-01-01T00:00:00.000Z [pid] text`
            let (stamp, rest) = line.split_once(' ').unwrap();
            assert_eq!(stamp.len(), 24, "{line}");
            assert!(
                stamp.ends_with('Z') && stamp.as_bytes()[19] == b'.',
                "{line}"
            );
            rest.split_once("] ").unwrap().1
        })
        .collect();
    let real = std::fs::canonicalize(&project).unwrap();
    assert_eq!(lines[0], format!("refresh {project_arg}: started"));
    assert_eq!(
        lines[1],
        format!(
            "indexed {}: 2 files (0 added, 0 updated, 0 removed)",
            real.display()
        )
    );
    assert!(lines[2].starts_with(&format!(
        "refresh {}: done, 2 files in 1 root in ",
        real.display()
    )));

    let missing = dir.path().join("missing");
    let out = run(
        &["refresh", "--project-dir", missing.to_str().unwrap()],
        &home,
        &project,
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let last = text(&out.stdout).lines().last().unwrap().to_string();
    assert!(
        last.contains(&format!("refresh {}: failed: ", missing.display())),
        "{last}"
    );
}
