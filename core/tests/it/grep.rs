//! `grep.search` end to end on real directories: checkfor's behaviours, exact JSON bytes,
//! and what cc-search adds (recursion, regex, budgets).

use std::path::Path;

use cc_search::Engine;
use cc_search::grep::{Search, SearchRequest, SearchResponse};
use serde_json::{Value, json};

use crate::common;
use common::write;

fn engine() -> (tempfile::TempDir, Engine) {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    (home, engine)
}

/// Run `grep.search` by name with JSON parameters, as every surface does; the JSON text.
fn call(params: Value) -> String {
    let (_home, engine) = engine();
    engine.call("grep.search", &params.to_string()).unwrap()
}

fn call_value(params: Value) -> Value {
    serde_json::from_str(&call(params)).unwrap()
}

fn run(request: SearchRequest) -> SearchResponse {
    let (_home, engine) = engine();
    engine.run::<Search>(request).unwrap()
}

fn dir_str(dir: &Path) -> String {
    dir.to_str().unwrap().to_string()
}

fn lines_of(value: &Value, dir: usize, file: usize) -> Vec<u64> {
    value["directories"][dir]["files"][file]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["line"].as_u64().unwrap())
        .collect()
}

#[test]
fn whole_word_log_matches_two_of_four_lines() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "test.rtf",
        "log message\nlogger info\nlog\ncatalog",
    );
    let d = dir_str(dir.path());
    let out = call(json!({"search": "log", "dir": [d], "whole_word": true}));
    assert_eq!(
        out,
        format!(
            r#"{{"directories":[{{"dir":{d:?},"matches_found":2,"files":[{{"path":"test.rtf","matches":[{{"line":1,"content":"log message"}},{{"line":3,"content":"log"}}]}}]}}]}}"#
        )
    );
    // Without whole_word every line holds `log`.
    let all = call_value(json!({"search": "log", "dir": d}));
    assert_eq!(all["directories"][0]["matches_found"], 4);
}

#[test]
fn hello_world_is_not_the_whole_word_hello() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a.txt",
        "hello_world\nhelloworld\nsuperhello\nsay hello, world\nhello1\n",
    );
    let out =
        call_value(json!({"search": "hello", "dir": dir_str(dir.path()), "whole_word": true}));
    assert_eq!(lines_of(&out, 0, 0), [4]);
}

#[test]
fn exclude_drops_lines_and_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "model.go",
        "x := m.Table\nm.Tables()\ny := m.Table(1)\nn := m.TableName\nz(m.Table)\nreturn m.Table\n",
    );
    let d = dir_str(dir.path());
    let out =
        call(json!({"search": "m.Table", "dir": [d], "exclude": ["m.Tables", "m.TableName"]}));
    assert_eq!(
        out,
        format!(
            concat!(
                r#"{{"directories":[{{"dir":{d:?},"matches_found":4,"original_matches":6,"filtered_matches":2,"#,
                r#""files":[{{"path":"model.go","matches":[{{"line":1,"content":"x := m.Table"}},"#,
                r#"{{"line":3,"content":"y := m.Table(1)"}},{{"line":5,"content":"z(m.Table)"}},"#,
                r#"{{"line":6,"content":"return m.Table"}}]}}]}}]}}"#
            ),
            d = d
        )
    );

    // Hidden on request, and absent without exclude strings.
    let hidden = call_value(
        json!({"search": "m.Table", "dir": [d], "exclude": ["m.Tables", "m.TableName"], "hide_filter_stats": true}),
    );
    let directory = hidden["directories"][0].as_object().unwrap();
    assert_eq!(directory["matches_found"], 4);
    assert!(!directory.contains_key("original_matches"));
    assert!(!directory.contains_key("filtered_matches"));
    let plain = call_value(json!({"search": "m.Table", "dir": [d]}));
    let directory = plain["directories"][0].as_object().unwrap();
    assert_eq!(directory["matches_found"], 6);
    assert!(!directory.contains_key("original_matches"));
    assert!(!directory.contains_key("filtered_matches"));

    // A single string is one exclude string; statistics sum over files.
    write(dir.path(), "other.go", "m.Tables\nm.Table\n");
    let two = call_value(json!({"search": "m.Table", "dir": [d], "exclude": "m.Tables"}));
    assert_eq!(two["directories"][0]["matches_found"], 6);
    assert_eq!(two["directories"][0]["original_matches"], 8);
    assert_eq!(two["directories"][0]["filtered_matches"], 2);
}

#[test]
fn zero_counts_are_left_out_as_checkfor_does() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "needle\n");
    let out =
        call(json!({"search": "needle", "dir": dir_str(dir.path()), "exclude": ["haystack"]}));
    assert!(
        out.contains(r#""matches_found":1,"original_matches":1,"files""#),
        "{out}"
    );
    let none = call(json!({"search": "absent", "dir": dir_str(dir.path()), "exclude": ["x"]}));
    assert!(none.contains(r#""matches_found":0,"files":[]"#), "{none}");
}

#[test]
fn case_insensitive_applies_to_search_and_exclude() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a.txt",
        "Hello World\nGoodbye World\nHELLO again\nhello TEST\n",
    );
    let d = dir_str(dir.path());
    let out = call_value(json!({"search": "hello", "dir": d, "case_insensitive": true}));
    assert_eq!(lines_of(&out, 0, 0), [1, 3, 4]);
    let excluded = call_value(
        json!({"search": "hello", "dir": d, "case_insensitive": true, "exclude": ["Test", "AGAIN"]}),
    );
    assert_eq!(lines_of(&excluded, 0, 0), [1]);
    assert_eq!(excluded["directories"][0]["filtered_matches"], 2);
    // Case-sensitive exclude strings do not drop lines that differ in case.
    let sensitive = call_value(json!({"search": "hello", "dir": d, "exclude": ["test"]}));
    assert_eq!(lines_of(&sensitive, 0, 0), [4]);
}

#[test]
fn context_is_clipped_at_both_edges_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a.txt",
        "target one\nl2\nl3\nl4\nl5\ntarget six\n",
    );
    let d = dir_str(dir.path());
    let out = call(json!({"search": "target", "dir": d, "context": 2}));
    assert_eq!(
        out,
        format!(
            concat!(
                r#"{{"directories":[{{"dir":{d:?},"matches_found":2,"files":[{{"path":"a.txt","matches":["#,
                r#"{{"line":1,"content":"target one","context_after":["l2","l3"]}},"#,
                r#"{{"line":6,"content":"target six","context_before":["l4","l5"]}}]}}]}}]}}"#
            ),
            d = d
        )
    );
    // Context wider than the file: everything else, on each side.
    let wide = call_value(json!({"search": "l3", "dir": d, "context": 50}));
    let m = &wide["directories"][0]["files"][0]["matches"][0];
    assert_eq!(m["context_before"], json!(["target one", "l2"]));
    assert_eq!(m["context_after"], json!(["l4", "l5", "target six"]));
}

#[test]
fn context_repeats_overlapping_lines_and_keeps_excluded_ones() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a\nkey 1\nkey skip\nkey 3\nb\n");
    let out = call_value(
        json!({"search": "key", "dir": dir_str(dir.path()), "context": 1, "exclude": ["skip"]}),
    );
    let matches = &out["directories"][0]["files"][0]["matches"];
    assert_eq!(
        matches,
        &json!([
            {"line": 2, "content": "key 1", "context_before": ["a"], "context_after": ["key skip"]},
            {"line": 4, "content": "key 3", "context_before": ["key skip"], "context_after": ["b"]},
        ])
    );
}

#[test]
fn directories_are_reported_in_the_order_given() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    write(a.path(), "one.txt", "word\n");
    write(b.path(), "two.txt", "x\nword\n");
    write(b.path(), "empty.txt", "nothing\n");
    let out = call_value(json!({"search": "word", "dir": [dir_str(b.path()), dir_str(a.path())]}));
    let dirs = out["directories"].as_array().unwrap();
    assert_eq!(dirs.len(), 2);
    assert_eq!(dirs[0]["dir"], dir_str(b.path()));
    assert_eq!(
        dirs[0]["files"],
        json!([{"path": "two.txt", "matches": [{"line": 2, "content": "word"}]}])
    );
    assert_eq!(dirs[1]["dir"], dir_str(a.path()));
    assert_eq!(dirs[1]["files"][0]["path"], "one.txt");
}

#[test]
fn files_are_in_path_order() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["c.txt", "a.txt", "B.txt", "b.txt"] {
        write(dir.path(), name, "hit\n");
    }
    let out = call_value(json!({"search": "hit", "dir": dir_str(dir.path())}));
    let paths: Vec<&str> = out["directories"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["B.txt", "a.txt", "b.txt", "c.txt"]);
}

#[test]
fn non_recursive_skips_subdirectories_and_recursive_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "root.rtf", "target\n");
    write(dir.path(), "subdir/sub.rtf", "target\n");
    write(dir.path(), "subdir/deeper/deep.rtf", "target\n");
    let d = dir_str(dir.path());
    let flat = call_value(json!({"search": "target", "dir": d}));
    assert_eq!(
        flat["directories"][0]["files"],
        json!([{"path": "root.rtf", "matches": [{"line": 1, "content": "target"}]}])
    );
    let deep = call_value(json!({"search": "target", "dir": d, "recursive": true}));
    let paths: Vec<&str> = deep["directories"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        ["root.rtf", "subdir/deeper/deep.rtf", "subdir/sub.rtf"]
    );
    assert_eq!(deep["directories"][0]["matches_found"], 3);
}

fn paths_of(value: &Value, dir: usize) -> Vec<String> {
    value["directories"][dir]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn recursive_skips_what_ripgrep_skips_by_default() {
    let dir = tempfile::tempdir().unwrap();
    common::git_at(dir.path(), &["init", "-q"], 1_700_000_000);
    write(dir.path(), ".gitignore", "ignored.txt\nlogs/\n");
    write(dir.path(), ".ignore", "private/\n");
    write(dir.path(), "kept.txt", "secret\n");
    write(dir.path(), "ignored.txt", "secret\n");
    write(dir.path(), "logs/today.txt", "secret\n");
    write(dir.path(), "private/key.txt", "secret\n");
    write(dir.path(), "src/.hidden.txt", "secret\n");
    write(dir.path(), ".config/app.txt", "secret\n");
    write(dir.path(), ".git/secret.txt", "secret\n");
    // No ignore file lists these: found, as `rg` and `grep -r` find them.
    for generated in [
        "node_modules/pkg/index.js",
        "vendor/lib.go",
        "build/out.txt",
        "dist/a.js",
        "coverage/c.txt",
        "target/t.txt",
    ] {
        write(dir.path(), generated, "secret\n");
    }
    let d = dir_str(dir.path());
    let out = call_value(json!({"search": "secret", "dir": d, "recursive": true}));
    assert_eq!(
        paths_of(&out, 0),
        [
            "build/out.txt",
            "coverage/c.txt",
            "dist/a.js",
            "kept.txt",
            "node_modules/pkg/index.js",
            "target/t.txt",
            "vendor/lib.go"
        ]
    );
    assert_eq!(out["directories"][0]["matches_found"], 7);

    // `hidden`: hidden files and directories too, never `.git`.
    let hidden =
        call_value(json!({"search": "secret", "dir": d, "recursive": true, "hidden": true}));
    let paths = paths_of(&hidden, 0);
    assert!(paths.contains(&".config/app.txt".to_string()), "{paths:?}");
    assert!(paths.contains(&"src/.hidden.txt".to_string()), "{paths:?}");
    assert!(!paths.iter().any(|p| p.starts_with(".git/")), "{paths:?}");
    assert_eq!(paths.len(), 9, "{paths:?}");

    // `skip_generated`: the index walkers' excludes, on request.
    let skipped = call_value(
        json!({"search": "secret", "dir": d, "recursive": true, "skip_generated": true}),
    );
    assert_eq!(paths_of(&skipped, 0), ["kept.txt"]);

    // Without recursion every file of the directory itself is read, as checkfor does.
    let flat = call_value(json!({"search": "secret", "dir": d}));
    assert_eq!(flat["directories"][0]["matches_found"], 2);
}

#[test]
fn outside_a_git_repository_gitignore_does_not_apply_but_ignore_files_do() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".gitignore", "a.txt\n");
    write(dir.path(), ".ignore", "b.txt\n");
    write(dir.path(), "a.txt", "secret\n");
    write(dir.path(), "b.txt", "secret\n");
    let out =
        call_value(json!({"search": "secret", "dir": dir_str(dir.path()), "recursive": true}));
    assert_eq!(paths_of(&out, 0), ["a.txt"]);
}

#[test]
fn ext_filters_by_name_suffix_with_or_without_the_dot() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["main.go", "cargo", "util.go", "notes.txt", "x.gox", ".go"] {
        write(dir.path(), name, "package main\n");
    }
    let d = dir_str(dir.path());
    for ext in [".go", "go", "*.go"] {
        let out = call_value(json!({"search": "package", "dir": d, "ext": ext}));
        let paths: Vec<&str> = out["directories"][0]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap())
            .collect();
        assert_eq!(paths, ["main.go", "util.go"], "ext {ext:?}");
    }
    // Several: a comma list or an array.
    for ext in [json!("go,txt"), json!(" .go , txt"), json!(["go", ".txt"])] {
        let out = call_value(json!({"search": "package", "dir": d, "ext": ext}));
        assert_eq!(
            paths_of(&out, 0),
            ["main.go", "notes.txt", "util.go"],
            "ext {ext}"
        );
    }
    let recursive =
        call_value(json!({"search": "package", "dir": d, "ext": ".go", "recursive": true}));
    assert_eq!(recursive["directories"][0]["matches_found"], 2);
}

#[test]
fn binary_files_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "text.txt", "needle\n");
    write(
        dir.path(),
        "blob.bin",
        b"needle\n\0\x01\x02needle\n".as_slice(),
    );
    let out = call_value(json!({"search": "needle", "dir": dir_str(dir.path())}));
    assert_eq!(
        out["directories"][0]["files"],
        json!([{"path": "text.txt", "matches": [{"line": 1, "content": "needle"}]}])
    );
    assert!(out.get("warnings").is_none());
}

#[test]
fn a_nul_byte_far_into_a_file_makes_it_binary_too() {
    let dir = tempfile::tempdir().unwrap();
    let mut content = b"needle first\n".to_vec();
    content.extend(std::iter::repeat_n(b"filler line\n".as_slice(), 20_000).flatten());
    content.extend(b"\0needle after\n");
    write(dir.path(), "late.dat", &content);
    write(dir.path(), "plain.txt", "needle\n");
    for recursive in [false, true] {
        let out = call_value(
            json!({"search": "needle", "dir": dir_str(dir.path()), "recursive": recursive}),
        );
        assert_eq!(
            out["directories"][0]["matches_found"], 1,
            "recursive {recursive}"
        );
        assert_eq!(out["directories"][0]["files"][0]["path"], "plain.txt");
    }
}

#[test]
fn lines_longer_than_64_kib_are_searched() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("{}needle{}", "x".repeat(100_000), "y".repeat(50_000));
    write(
        dir.path(),
        "long.txt",
        format!("first\n{long}\nneedle last\n"),
    );
    let out = call_value(json!({"search": "needle", "dir": dir_str(dir.path())}));
    let matches = out["directories"][0]["files"][0]["matches"]
        .as_array()
        .unwrap();
    assert_eq!(matches.len(), 2);
    assert_eq!(matches[0]["line"], 2);
    assert_eq!(matches[0]["content"].as_str().unwrap().len(), long.len());
    assert_eq!(matches[1], json!({"line": 3, "content": "needle last"}));
}

#[test]
fn invalid_utf8_is_shown_lossily_and_crlf_is_trimmed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "latin1.txt",
        b"caf\xe9 needle\r\nplain\r\n".as_slice(),
    );
    let out = call_value(json!({"search": "needle", "dir": dir_str(dir.path())}));
    assert_eq!(
        out["directories"][0]["files"][0]["matches"],
        json!([{"line": 1, "content": "caf\u{fffd} needle"}])
    );
}

#[test]
fn a_missing_directory_is_reported_and_the_others_still_searched() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "needle\n");
    let missing = dir.path().join("missing");
    let file = dir.path().join("a.txt");
    for recursive in [false, true] {
        let out = call_value(json!({
            "search": "needle",
            "dir": [dir_str(&missing), dir_str(dir.path()), dir_str(&file)],
            "recursive": recursive,
        }));
        let dirs = out["directories"].as_array().unwrap();
        assert_eq!(dirs[0]["dir"], dir_str(&missing));
        assert_eq!(dirs[0]["matches_found"], 0);
        assert_eq!(dirs[0]["files"], json!([]));
        assert!(
            dirs[0]["error"].as_str().unwrap().contains("No such file"),
            "{}",
            dirs[0]
        );
        assert_eq!(dirs[1]["matches_found"], 1);
        assert!(dirs[1].get("error").is_none());
        // A file given as a directory is searched itself, reported by its name.
        assert_eq!(dirs[2]["dir"], dir_str(&file));
        assert!(dirs[2].get("error").is_none(), "{}", dirs[2]);
        assert_eq!(
            dirs[2]["files"],
            json!([{"path": "a.txt", "matches": [{"line": 1, "content": "needle"}]}])
        );
    }
}

#[test]
fn a_file_as_the_directory_is_searched_whatever_ext_says() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "notes.md", "needle one\nnothing\nneedle two\n");
    write(dir.path(), "other.md", "needle\n");
    let file = dir_str(&dir.path().join("notes.md"));
    for ext in [None, Some("rs")] {
        let mut params = json!({"search": "needle", "dir": file, "recursive": true});
        if let Some(ext) = ext {
            params["ext"] = json!(ext);
        }
        let out = call_value(params);
        let directory = &out["directories"][0];
        assert_eq!(directory["matches_found"], 2, "{out}");
        assert_eq!(paths_of(&out, 0), ["notes.md"]);
        assert_eq!(lines_of(&out, 0, 0), [1, 3]);
        assert!(directory.get("below").is_none());
    }
}

#[test]
fn without_recursive_the_matches_below_are_counted_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".gitignore", "ignored/\n");
    write(dir.path(), "top.txt", "needle\n");
    write(dir.path(), "a/one.txt", "needle\nneedle\nneedle skip\n");
    write(dir.path(), "a/b/two.txt", "needle\n");
    write(dir.path(), "a/three.rs", "needle\n");
    // What `recursive` would not search either: hidden and ignored files.
    write(dir.path(), ".hidden/four.txt", "needle\n");
    write(dir.path(), "ignored/five.txt", "needle\n");
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let d = dir_str(dir.path());

    let flat = call_value(json!({"search": "needle", "dir": d, "exclude": ["skip"]}));
    let directory = &flat["directories"][0];
    assert_eq!(directory["matches_found"], 1);
    assert_eq!(paths_of(&flat, 0), ["top.txt"]);
    assert_eq!(
        directory["below"],
        json!({"matches": 4, "files": 3}),
        "{flat}"
    );

    // As recursive would count them: the same rules, the same filters.
    let deep =
        call_value(json!({"search": "needle", "dir": d, "exclude": ["skip"], "recursive": true}));
    assert_eq!(deep["directories"][0]["matches_found"], 5);
    assert!(deep["directories"][0].get("below").is_none());
    let txt = call_value(json!({"search": "needle", "dir": d, "ext": "txt", "exclude": ["skip"]}));
    assert_eq!(
        txt["directories"][0]["below"],
        json!({"matches": 3, "files": 2})
    );

    // Nothing below: no `below`, and the bytes are checkfor's.
    let none = call(json!({"search": "needle", "dir": dir_str(&dir.path().join("a/b"))}));
    assert!(!none.contains("below"), "{none}");
}

#[test]
fn unreadable_files_become_warnings() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "needle\n");
    std::os::unix::fs::symlink(dir.path().join("gone.txt"), dir.path().join("broken.txt")).unwrap();
    let d = dir_str(dir.path());
    let out = call_value(json!({"search": "needle", "dir": d}));
    assert_eq!(out["directories"][0]["matches_found"], 1);
    let warnings = out["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].as_str().unwrap().contains("broken.txt"),
        "{warnings:?}"
    );
}

#[test]
fn fifos_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "needle\n");
    let fifo = dir.path().join("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let out = call_value(json!({"search": "needle", "dir": dir_str(dir.path())}));
    assert_eq!(out["directories"][0]["matches_found"], 1);
}

#[test]
fn max_matches_keeps_the_first_matches_in_output_order() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    write(a.path(), "1.txt", "hit\nhit skip\nhit\n");
    write(a.path(), "2.txt", "hit\nhit\n");
    write(b.path(), "3.txt", "hit\n");
    let dirs = [dir_str(a.path()), dir_str(b.path())];
    let out =
        call_value(json!({"search": "hit", "dir": dirs, "max_matches": 3, "exclude": ["skip"]}));
    assert_eq!(out["truncated"], true);
    // Three listed; the counts are of every match there is.
    let first = &out["directories"][0];
    assert_eq!(first["matches_found"], 4);
    assert_eq!(first["original_matches"], 5);
    assert_eq!(first["filtered_matches"], 1);
    assert_eq!(lines_of(&out, 0, 0), [1, 3]);
    assert_eq!(lines_of(&out, 0, 1), [1]);
    assert_eq!(out["directories"][1]["matches_found"], 1);
    assert_eq!(out["directories"][1]["files"], json!([]));

    // Exactly as many as there are: nothing was cut.
    let all =
        call_value(json!({"search": "hit", "dir": dirs, "max_matches": 5, "exclude": ["skip"]}));
    assert!(all.get("truncated").is_none());
    assert_eq!(all["directories"][1]["matches_found"], 1);
}

#[test]
fn max_matches_keeps_context_of_the_last_match() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "hit 1\nafter\nhit 3\nafter 3\n");
    let out = call_value(
        json!({"search": "hit", "dir": dir_str(dir.path()), "max_matches": 1, "context": 1}),
    );
    assert_eq!(
        out["directories"][0]["files"][0]["matches"],
        json!([{"line": 1, "content": "hit 1", "context_after": ["after"]}])
    );
    assert_eq!(out["truncated"], true);
    assert_eq!(out["directories"][0]["matches_found"], 2);
}

#[test]
fn max_tokens_drops_context_then_shortens_lines_then_drops_matches() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..50 {
        text.push_str(&format!("before {i}\nneedle {i} {}\n", "z".repeat(300)));
    }
    write(dir.path(), "a.txt", &text);
    let d = dir_str(dir.path());
    let full = call(json!({"search": "needle", "dir": d, "context": 1}));
    assert!(!full.contains("truncated"));

    // Room for everything but the context lines.
    let no_context = call(json!({"search": "needle", "dir": d}));
    let budget = no_context.len().div_ceil(4) + 10;
    let out = call(json!({"search": "needle", "dir": d, "context": 1, "max_tokens": budget}));
    let value: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["truncated"], true);
    assert!(!out.contains("context_before"));
    assert_eq!(
        value["directories"][0]["files"][0]["matches"]
            .as_array()
            .unwrap()
            .len(),
        50
    );
    assert!(out.len() <= budget * 4);

    // Less room: long lines are shortened, all 50 matches stay.
    let out = call(json!({"search": "needle", "dir": d, "context": 1, "max_tokens": 3500}));
    let value: Value = serde_json::from_str(&out).unwrap();
    let matches = value["directories"][0]["files"][0]["matches"]
        .as_array()
        .unwrap();
    assert_eq!(matches.len(), 50);
    assert!(matches[0]["content"].as_str().unwrap().ends_with('…'));
    assert!(out.len() <= 3500 * 4);

    // Little room: the first matches only, in order; matches_found still counts all.
    let out = call(json!({"search": "needle", "dir": d, "context": 1, "max_tokens": 300}));
    let value: Value = serde_json::from_str(&out).unwrap();
    assert!(out.len() <= 300 * 4, "{} bytes", out.len());
    assert_eq!(value["truncated"], true);
    assert_eq!(value["directories"][0]["matches_found"], 50);
    let lines = lines_of(&value, 0, 0);
    assert!(!lines.is_empty() && lines.len() < 50);
    assert_eq!(
        lines,
        (1..=lines.len() as u64).map(|i| i * 2).collect::<Vec<_>>()
    );

    // A budget too small for any match keeps the directories and no files.
    let out = call_value(json!({"search": "needle", "dir": d, "max_tokens": 1}));
    assert_eq!(out["directories"][0]["files"], json!([]));
    assert_eq!(out["truncated"], true);
}

#[test]
fn regex_search_and_literal_by_default() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a.rs",
        "fn main() {}\n  fn helper(x: u8) {}\nlet f = a.b;\naxb\n",
    );
    let d = dir_str(dir.path());
    let regex = call_value(json!({"search": r"^\s*fn \w+\(", "dir": d, "regex": true}));
    assert_eq!(lines_of(&regex, 0, 0), [1, 2]);
    let literal = call_value(json!({"search": "a.b", "dir": d}));
    assert_eq!(lines_of(&literal, 0, 0), [3]);
    let regex_dot = call_value(json!({"search": "a.b", "dir": d, "regex": true}));
    assert_eq!(lines_of(&regex_dot, 0, 0), [3, 4]);
    let word = call_value(json!({"search": "fn|let", "dir": d, "regex": true, "whole_word": true}));
    assert_eq!(lines_of(&word, 0, 0), [1, 2, 3]);
}

#[test]
fn repeated_runs_give_identical_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..300 {
        let body: String = (0..40)
            .map(|j| {
                if (i + j) % 7 == 0 {
                    format!("line {j} has the needle {i}\n")
                } else {
                    format!("line {j} plain\n")
                }
            })
            .collect();
        write(dir.path(), &format!("d{}/f{i:03}.txt", i % 9), body);
    }
    let params =
        json!({"search": "needle", "dir": dir_str(dir.path()), "recursive": true, "context": 1});
    let first = call(params.clone());
    assert!(first.len() > 10_000);
    for _ in 0..5 {
        assert_eq!(call(params.clone()), first);
    }
    let capped = json!({"search": "needle", "dir": dir_str(dir.path()), "recursive": true, "max_matches": 100});
    let first = call(capped.clone());
    for _ in 0..5 {
        assert_eq!(call(capped.clone()), first);
    }
}

#[test]
fn the_default_directory_is_the_current_one() {
    // The project directory comes from $CLAUDE_PROJECT_DIR, else the current directory,
    // which for this test binary is the core crate: its manifest names itself.
    if std::env::var_os("CLAUDE_PROJECT_DIR").is_some() {
        return;
    }
    let out = call_value(json!({"search": "name = \"cc-search\"", "ext": ".toml"}));
    assert_eq!(out["directories"][0]["dir"], ".");
    assert_eq!(out["directories"][0]["files"][0]["path"], "Cargo.toml");
}

#[test]
fn invalid_requests_are_refused_with_a_clear_message() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    let d = dir_str(dir.path());
    for (params, expected) in [
        (json!({"dir": d}), "missing field `search`"),
        (
            json!({"search": "", "dir": d}),
            "`search` must not be empty",
        ),
        (
            json!({"search": "(", "dir": d, "regex": true}),
            "not a valid regular expression",
        ),
        (
            json!({"search": "x", "dir": d, "max_matches": 0}),
            "`max_matches` must be at least 1",
        ),
        (
            json!({"search": "x", "dir": d, "max_tokens": 0}),
            "`max_tokens` must be at least 1",
        ),
        (
            json!({"search": "x", "dir": d, "colour": true}),
            "unknown field `colour`",
        ),
        (
            json!({"search": "x", "dir": 3}),
            "a string or an array of strings",
        ),
        (json!({"search": "x", "dir": [""]}), "empty path"),
        (json!({"search": "x", "context": -1}), "context"),
        (json!({"search": "a\nb", "dir": d}), "search"),
    ] {
        let err = engine
            .call("grep.search", &params.to_string())
            .expect_err(&params.to_string());
        assert_eq!(err.code(), "invalid_request", "{params}");
        assert!(err.to_string().contains(expected), "{params}: {err}");
    }
}

#[test]
fn the_operation_is_in_the_table_with_checkfor_parameters() {
    let op = cc_search::registry::find("grep.search").unwrap();
    let schema = op.request_schema();
    let properties = schema["properties"].as_object().unwrap();
    for name in [
        "search",
        "dir",
        "ext",
        "exclude",
        "case_insensitive",
        "whole_word",
        "context",
        "hide_filter_stats",
        "recursive",
        "hidden",
        "skip_generated",
        "regex",
        "max_matches",
        "max_tokens",
    ] {
        assert!(properties.contains_key(name), "{name}");
    }
    assert_eq!(schema["required"], json!(["search"]));
}

#[test]
fn typed_calls_match_json_calls() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "alpha\nbeta alpha\n");
    let typed = run(SearchRequest {
        search: "alpha".into(),
        dir: vec![dir_str(dir.path())],
        ..SearchRequest::default()
    });
    let json = call(json!({"search": "alpha", "dir": dir_str(dir.path())}));
    assert_eq!(serde_json::to_string(&typed).unwrap(), json);
    assert_eq!(typed.directories[0].files[0].matches[1].line, 2);
}

#[test]
fn links_are_followed_only_to_files_inside_the_directory() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.txt", "needle outside\n");
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "needle inside\n");
    std::os::unix::fs::symlink(dir.path().join("a.txt"), dir.path().join("alias.txt")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        dir.path().join("escape.txt"),
    )
    .unwrap();
    let out = call_value(json!({"search": "needle", "dir": dir_str(dir.path())}));
    let files: Vec<&str> = out["directories"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["a.txt", "alias.txt"]);
    let warnings = out["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("escape.txt")),
        "{warnings:?}"
    );
}
