//! `files::hook`, the protocol of the Claude Code hooks, on a real engine and real
//! projects in temporary directories: the picker's answer for good, malformed and
//! oversized input, its errors and warnings, and the session start's refresh and log
//! rotation. Every project directory is passed explicitly, so no environment variable
//! is read or changed.

use std::fs;
use std::path::{Path, PathBuf};

use cc_search::Engine;
use cc_search::files;
use cc_search::files::hook::{self, Answer, Hook, MAX_INPUT, MAX_LOG_BYTES, Refresh};

use crate::common;

use common::write;

const BUTTON: &str = "src/components/Button.tsx";
const MODAL: &str = "src/components/Modal.tsx";
const README: &str = "README.md";

/// A project of three files, and a data root in which it is indexed.
fn indexed_project() -> (tempfile::TempDir, PathBuf, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("app");
    for rel in [BUTTON, MODAL, README] {
        write(&project, rel, "x\n");
    }
    let project = fs::canonicalize(&project).unwrap();
    let engine = Engine::open_at(dir.path().join("home")).unwrap();
    engine
        .run::<files::Refresh>(files::RefreshRequest {
            root: Some(project.clone()),
            ..Default::default()
        })
        .unwrap();
    (dir, project, engine)
}

fn suggest(engine: &Engine, project: &Path, input: &[u8]) -> Answer {
    hook::run(engine, Hook::FileSuggestion, input, Some(project))
}

fn answered(stdout: &str) -> Answer {
    Answer {
        stdout: stdout.to_string(),
        ..Answer::default()
    }
}

#[test]
fn file_suggestion_prints_the_paths_of_the_query_one_a_line() {
    let (_dir, project, engine) = indexed_project();
    let cases: [(&[u8], String); 5] = [
        (br#"{"query":"butt"}"#, format!("{BUTTON}\n")),
        (
            br#"{"query": "readme", "session_id": "abc"}"#,
            format!("{README}\n"),
        ),
        (
            b"{\"query\": \"src/components/Modal\"}\n",
            format!("{MODAL}\n"),
        ),
        (br#"{"query":"nothing-matches-this"}"#, String::new()),
        (br#"{"query":"\u0042utt"}"#, format!("{BUTTON}\n")),
    ];
    for (input, stdout) in cases {
        let shown = String::from_utf8_lossy(input);
        assert_eq!(
            suggest(&engine, &project, input),
            answered(&stdout),
            "{shown}"
        );
    }
}

#[test]
fn no_input_is_the_empty_query() {
    let (_dir, project, engine) = indexed_project();
    let top = suggest(&engine, &project, b"");
    assert_eq!(top.stdout.lines().count(), 3, "{top:?}");
    assert_eq!(top, suggest(&engine, &project, br#"{"query":""}"#));
    assert_eq!(top, suggest(&engine, &project, b"   \n"));
    assert_eq!(hook::query(b" \r\n\t"), Ok(String::new()));
}

#[test]
fn input_that_is_not_the_hooks_json_prints_nothing_and_says_why() {
    let (_dir, project, engine) = indexed_project();
    let malformed: [(&[u8], &str); 15] = [
        (b"{", "bytes that are not JSON"),
        (b"{\"query\":", "bytes that are not JSON"),
        (b"not json at all", "15 bytes that are not JSON"),
        (b"[]", "JSON that is not an object"),
        (b"null", "JSON that is not an object"),
        (b"\"butt\"", "JSON that is not an object"),
        (b"42", "JSON that is not an object"),
        (b"{}", "an object without `query`"),
        (br#"{"other": "butt"}"#, "an object without `query`"),
        (br#"{"query": 5}"#, "`query` is not a string"),
        (br#"{"query": null}"#, "`query` is not a string"),
        (br#"{"query": ["butt"]}"#, "`query` is not a string"),
        (br#"{"query":"butt"} trailing"#, "bytes that are not JSON"),
        (
            b"\xEF\xBB\xBF{\"query\":\"butt\"}",
            "bytes that are not JSON",
        ),
        (b"\x00\xff\xfe", "bytes that are not JSON"),
    ];
    for (input, why) in malformed {
        let shown = String::from_utf8_lossy(input);
        let answer = suggest(&engine, &project, input);
        assert_eq!(answer.stdout, "", "{shown:?}");
        assert_eq!(answer.refresh, None, "{shown:?}");
        let error = answer.error.unwrap_or_default();
        assert!(
            error.starts_with(r#"the input is not {"query": "..."} but "#) && error.contains(why),
            "{shown:?}: {error}"
        );
        assert!(!error.contains('\n'), "{error}");
        assert_eq!(hook::query(input), Err(error), "{shown:?}");
    }
}

#[test]
fn invalid_utf8_and_lone_surrogates_never_break_the_picker() {
    let (_dir, project, engine) = indexed_project();
    for input in [
        &b"{\"query\": \"\xff\xfebutt\"}"[..],
        br#"{"query": "\ud800butt"}"#,
        br#"{"query": "\udfffbutt\ud800"}"#,
    ] {
        let answer = suggest(&engine, &project, input);
        assert_eq!(answer.error, None, "{answer:?}");
        assert!(answer.stdout.lines().count() <= 3, "{answer:?}");
    }
    assert_eq!(
        hook::query(b"{\"query\": \"\xffbutt\"}").as_deref(),
        Ok("\u{FFFD}butt")
    );
    assert_eq!(
        hook::query(br#"{"query": "\ud800butt"}"#).as_deref(),
        Ok("\u{FFFD}butt")
    );
}

#[test]
fn oversize_input_is_an_error() {
    let (_dir, project, engine) = indexed_project();
    // The same query object, padded to just within the limit and to just past it.
    let object = |len: usize| -> Vec<u8> {
        let head = br#"{"query":"butt","pad":""#;
        let mut input = head.to_vec();
        input.resize(len - 2, b'x');
        input.extend_from_slice(b"\"}");
        assert_eq!(input.len(), len);
        input
    };
    let within = object(MAX_INPUT);
    assert_eq!(hook::query(&within).as_deref(), Ok("butt"));
    assert!(hook::input_complete(&within));
    assert_eq!(
        suggest(&engine, &project, &within),
        answered(&format!("{BUTTON}\n"))
    );

    // Past the limit (or cut at it, as the runtimes read it): an error, nothing printed.
    let over = object(MAX_INPUT + 1);
    assert!(!hook::input_complete(&over));
    for input in [
        &over[..],
        &over[..MAX_INPUT],
        &vec![b'{'; 8 * MAX_INPUT][..],
    ] {
        let answer = suggest(&engine, &project, input);
        assert_eq!(answer.stdout, "");
        assert!(answer.error.is_some(), "{:?}", answer.error);
    }
    assert!(
        hook::query(&over)
            .unwrap_err()
            .ends_with("but more than 1 MiB")
    );
}

#[test]
fn input_is_complete_once_one_json_object_has_arrived() {
    for complete in [
        &br#"{"query":"butt"}"#[..],
        b"{\"query\":\"butt\"}\n",
        b"  {}  \n",
        br#"{"query": "}"}"#,
    ] {
        assert!(hook::input_complete(complete), "{complete:?}");
    }
    for incomplete in [
        &b""[..],
        b"\n",
        b"{",
        b"{\"que",
        br#"{"query":"bu"#,
        br#"{"query": "}"#,
        b"{\"query\":\"butt\"} ",
        b"[]\n",
        b"\"x\"\n",
        b"{\"query\":\"butt\"}\n{",
    ] {
        assert!(!hook::input_complete(incomplete), "{incomplete:?}");
    }
}

#[test]
fn file_suggestion_prints_at_most_15_paths() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("app");
    for i in 0..20 {
        write(&project, &format!("lib/widget{i:02}.ts"), "");
    }
    let engine = Engine::open_at(dir.path().join("home")).unwrap();
    let answer = suggest(&engine, &project, br#"{"query":"widget"}"#);
    let lines: Vec<&str> = answer.stdout.lines().collect();
    assert_eq!(lines.len(), hook::MAX_PATHS, "{answer:?}");
    assert!(answer.stdout.ends_with('\n'));
    assert!(
        lines.iter().all(|l| l.starts_with("lib/widget")),
        "{lines:?}"
    );
}

#[test]
fn file_suggestion_reports_warnings_one_line_each() {
    // Never indexed: indexed on the fly, with one warning.
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("app");
    write(&project, BUTTON, "");
    let project = fs::canonicalize(&project).unwrap();
    let home = dir.path().join("home");
    let engine = Engine::open_at(&home).unwrap();
    let first = suggest(&engine, &project, br#"{"query":"butt"}"#);
    assert_eq!(first.stdout, format!("{BUTTON}\n"));
    assert_eq!(
        first.warnings,
        [format!(
            "{} was not indexed yet; indexed 1 files",
            project.display()
        )]
    );
    assert_eq!(
        suggest(&engine, &project, br#"{"query":"butt"}"#),
        answered(&format!("{BUTTON}\n"))
    );

    // An invalid configuration: the engine's warning, on one line.
    write(&home, "config.toml", "[weights\nnot toml at all = = =\n");
    let engine = Engine::open_at(&home).unwrap();
    assert!(!engine.warnings().is_empty());
    let answer = suggest(&engine, &project, br#"{"query":"butt"}"#);
    assert_eq!(answer.stdout, format!("{BUTTON}\n"));
    assert_eq!(answer.warnings.len(), engine.warnings().len(), "{answer:?}");
    assert!(answer.warnings[0].contains("config.toml"), "{answer:?}");
    assert!(
        answer.warnings.iter().all(|w| !w.contains('\n')),
        "{answer:?}"
    );
    assert_eq!((answer.error, answer.refresh), (None, None));
}

#[test]
fn file_suggestion_failures_are_an_error_and_nothing_to_print() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(dir.path().join("home")).unwrap();
    let missing = dir.path().join("gone");
    let answer = suggest(&engine, &missing, br#"{"query":"x"}"#);
    assert_eq!(
        (answer.stdout.as_str(), answer.refresh.as_ref()),
        ("", None)
    );
    let error = answer.error.expect("an error");
    assert!(error.contains(&*missing.to_string_lossy()), "{error}");
    assert!(!error.contains('\n'));

    // A data root that is a regular file: the index cannot open.
    let project = dir.path().join("app");
    write(&project, README, "");
    let blocked = dir.path().join("blocked");
    fs::write(&blocked, "a file where the data root should be\n").unwrap();
    let engine = Engine::open_at(&blocked).unwrap();
    let answer = suggest(&engine, &project, br#"{"query":"readme"}"#);
    assert_eq!(answer.stdout, "");
    assert!(answer.error.is_some(), "{answer:?}");
    assert_eq!(
        fs::read_to_string(&blocked).unwrap(),
        "a file where the data root should be\n"
    );
}

#[test]
fn session_start_asks_for_a_refresh_and_prints_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("app");
    fs::create_dir_all(&project).unwrap();
    let engine = Engine::open_at(&home).unwrap();
    let log = home.join("logs").join("session-start.log");
    let input: &[&[u8]] = &[
        br#"{"session_id":"abc","hook_event_name":"SessionStart","source":"startup"}"#,
        b"",
        b"not json",
    ];
    for input in input {
        let answer = hook::run(&engine, Hook::SessionStart, input, Some(&project));
        let refresh = Refresh {
            project_dir: project.clone(),
            log: log.clone(),
        };
        assert_eq!(
            answer,
            Answer {
                refresh: Some(refresh),
                ..Answer::default()
            }
        );
    }
    // The log's directory is there; the log itself is the refresh's to create.
    assert!(home.join("logs").is_dir());
    assert!(!log.exists());
    // Nothing was indexed: the refresh is the runtime's to start.
    assert!(!home.join("files.db").exists());

    // A relative project is made absolute against the current directory, not resolved.
    let answer = hook::run(
        &engine,
        Hook::SessionStart,
        b"{}",
        Some(Path::new("some/app")),
    );
    let expected = std::env::current_dir().unwrap().join("some/app");
    assert_eq!(answer.refresh.unwrap().project_dir, expected);

    // A project that does not exist is the refresh's failure to log, not the hook's.
    let missing = dir.path().join("gone");
    let answer = hook::run(&engine, Hook::SessionStart, b"{}", Some(&missing));
    assert_eq!(answer.refresh.unwrap().project_dir, missing);
}

#[test]
fn session_start_moves_a_log_over_the_limit_aside() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let logs = home.join("logs");
    let log = logs.join("session-start.log");
    let rotated = logs.join("session-start.log.1");
    let engine = Engine::open_at(&home).unwrap();
    let start = || hook::run(&engine, Hook::SessionStart, b"{}", Some(dir.path()));

    // At the limit: kept.
    let at_limit = vec![b'a'; MAX_LOG_BYTES as usize];
    write(&home, "logs/session-start.log", &at_limit);
    assert_eq!(start().refresh.unwrap().log, log);
    assert_eq!(fs::read(&log).unwrap(), at_limit);
    assert!(!rotated.exists());

    // One byte over: moved to .1 before the run, the log itself left to be created.
    let over = [at_limit.as_slice(), b"\n"].concat();
    fs::write(&log, &over).unwrap();
    assert_eq!(start().refresh.unwrap().log, log);
    assert!(!log.exists());
    assert_eq!(fs::read(&rotated).unwrap(), over);

    // A later large log replaces the older .1; a small one stays where it is.
    let newer = vec![b'b'; MAX_LOG_BYTES as usize + 10];
    fs::write(&log, &newer).unwrap();
    start();
    assert_eq!(fs::read(&rotated).unwrap(), newer);
    fs::write(&log, "small\n").unwrap();
    start();
    assert_eq!(fs::read_to_string(&log).unwrap(), "small\n");
    assert_eq!(fs::read(&rotated).unwrap(), newer);

    // open_log alone does the same.
    assert_eq!(hook::open_log(&home).unwrap(), log);
}

#[test]
fn session_start_without_a_place_for_the_log_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let blocked = dir.path().join("not-a-directory");
    fs::write(&blocked, "a file where the data root should be\n").unwrap();
    let engine = Engine::open_at(&blocked).unwrap();
    let answer = hook::run(&engine, Hook::SessionStart, b"{}", Some(dir.path()));
    assert_eq!((answer.stdout.as_str(), answer.refresh), ("", None));
    let error = answer.error.expect("an error");
    assert!(error.contains("not-a-directory"), "{error}");
    assert!(hook::open_log(&blocked).is_err());
}

#[test]
fn hooks_go_by_their_command_line_names() {
    for hook in Hook::ALL {
        assert_eq!(Hook::from_name(hook.name()).unwrap(), hook);
    }
    assert_eq!(
        Hook::from_name("file-suggestion").unwrap(),
        Hook::FileSuggestion
    );
    assert_eq!(
        Hook::from_name("session-start").unwrap(),
        Hook::SessionStart
    );
    let error = Hook::from_name("pre-tool-use").unwrap_err();
    assert_eq!(error.code(), "invalid_request");
    assert!(error.to_string().contains("pre-tool-use"), "{error}");
}
