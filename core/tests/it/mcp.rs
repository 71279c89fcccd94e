//! The MCP server end to end: `Server::handle` and `Server::serve` over in-memory streams,
//! on real temporary directories, files and SQLite.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cc_search::mcp::{
    INVALID_PARAMS, INVALID_REQUEST, LATEST_PROTOCOL_VERSION, METHOD_NOT_FOUND, PARSE_ERROR,
    PROTOCOL_VERSIONS, Server, ServerOptions,
};
use cc_search::{Engine, OPERATIONS};
use serde_json::{Value, json};

struct Fixture {
    _home: tempfile::TempDir,
    project: tempfile::TempDir,
    server: Server,
}

impl Fixture {
    /// A server offering every tool.
    fn new() -> Fixture {
        Fixture::with(ServerOptions {
            tools: vec!["all".into()],
            ..Default::default()
        })
    }

    /// A server started with `options` (its roots: the project).
    fn with(options: ServerOptions) -> Fixture {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        write(
            project.path(),
            "log.txt",
            "log message\nlogger info\nlog\ncatalog\n",
        );
        write(project.path(), "main.go", "package main\n// log here\n");
        write(project.path(), "sub/deep.txt", "log in a subdirectory\n");
        let engine = Arc::new(Engine::open_at(home.path()).unwrap());
        let server = Server::new(
            engine,
            ServerOptions {
                roots: vec![project.path().to_path_buf()],
                ..options
            },
        )
        .unwrap();
        Fixture {
            _home: home,
            project,
            server,
        }
    }

    fn root(&self) -> PathBuf {
        std::fs::canonicalize(self.project.path()).unwrap()
    }

    fn request(&self, id: i64, method: &str, params: Value) -> Value {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let reply = self.server.handle(&message.to_string()).expect("a reply");
        serde_json::from_str(&reply).unwrap()
    }

    fn initialize(&self, version: &str) -> Value {
        self.request(
            0,
            "initialize",
            json!({"protocolVersion": version, "capabilities": {},
                   "clientInfo": {"name": "test", "version": "1"}}),
        )
    }

    fn call(&self, tool: &str, arguments: Value) -> Value {
        let reply = self.request(
            7,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        );
        assert_eq!(reply["id"], 7);
        reply["result"].clone()
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn error_code(reply: &str) -> (Value, i64) {
    let value: Value = serde_json::from_str(reply).unwrap();
    assert_eq!(value["jsonrpc"], "2.0");
    assert!(value.get("result").is_none(), "{value}");
    (
        value["id"].clone(),
        value["error"]["code"].as_i64().unwrap(),
    )
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap()
}

#[test]
fn initialize_answers_each_supported_version_and_the_newest_otherwise() {
    let f = Fixture::new();
    for version in PROTOCOL_VERSIONS {
        let reply = f.initialize(version);
        assert_eq!(reply["id"], 0);
        let result = &reply["result"];
        assert_eq!(result["protocolVersion"], *version);
        assert_eq!(result["serverInfo"]["name"], "cc-search");
        assert_eq!(result["serverInfo"]["version"], cc_search::VERSION);
        assert_eq!(
            result["capabilities"],
            json!({"tools": {"listChanged": false}})
        );
        assert_eq!(f.server.protocol_version(), Some(*version));
    }
    for unknown in ["1999-01-01", "2026-07-28"] {
        let reply = f.initialize(unknown);
        assert_eq!(reply["result"]["protocolVersion"], LATEST_PROTOCOL_VERSION);
    }
    assert_eq!(LATEST_PROTOCOL_VERSION, "2025-11-25");
}

#[test]
fn notifications_and_responses_get_no_reply() {
    let f = Fixture::new();
    for message in [
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
        r#"{"jsonrpc":"2.0","method":"no/such/method"}"#,
        r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nope"}}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        "",
        "   ",
        r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#,
    ] {
        assert_eq!(f.server.handle(message), None, "{message}");
    }
}

#[test]
fn malformed_messages_get_json_rpc_errors() {
    let f = Fixture::new();
    let cases: &[(&str, Value, i64)] = &[
        ("{not json", Value::Null, PARSE_ERROR),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"#,
            Value::Null,
            PARSE_ERROR,
        ),
        ("42", Value::Null, INVALID_REQUEST),
        ("[]", Value::Null, INVALID_REQUEST),
        (r#"{"foo":"bar"}"#, Value::Null, INVALID_REQUEST),
        (r#"{"id":1,"method":"ping"}"#, json!(1), INVALID_REQUEST),
        (
            r#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#,
            json!("a"),
            INVALID_REQUEST,
        ),
        (
            r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
            Value::Null,
            INVALID_REQUEST,
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":7}"#,
            json!(2),
            INVALID_REQUEST,
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}"#,
            json!(3),
            INVALID_REQUEST,
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"resources/list"}"#,
            json!(4),
            METHOD_NOT_FOUND,
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"server/discover"}"#,
            json!(5),
            METHOD_NOT_FOUND,
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope"}}"#,
            json!(6),
            INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"checkfor","arguments":[1]}}"#,
            json!(7),
            INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"arguments":{}}}"#,
            json!(8),
            INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":[1]}"#,
            json!(9),
            INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":3}}"#,
            json!(10),
            INVALID_PARAMS,
        ),
    ];
    for (message, id, code) in cases {
        let reply = f
            .server
            .handle(message)
            .unwrap_or_else(|| panic!("no reply to {message}"));
        assert_eq!(
            error_code(&reply),
            (id.clone(), *code),
            "{message} → {reply}"
        );
    }
}

#[test]
fn ping_and_batches() {
    let f = Fixture::new();
    assert_eq!(f.request(1, "ping", Value::Null)["result"], json!({}));
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},
                    {"jsonrpc":"2.0","method":"notifications/initialized"},
                    {"jsonrpc":"2.0","id":2,"method":"nope"}, 5]"#;
    let reply: Value = serde_json::from_str(&f.server.handle(batch).unwrap()).unwrap();
    let replies = reply.as_array().unwrap();
    assert_eq!(replies.len(), 3);
    assert_eq!(replies[0], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(replies[1]["error"]["code"], METHOD_NOT_FOUND);
    assert_eq!(replies[2]["error"]["code"], INVALID_REQUEST);
}

#[test]
fn tools_come_from_the_operation_table() {
    let f = Fixture::new();
    f.initialize("2025-11-25");
    let tools = f.request(1, "tools/list", json!({}))["result"]["tools"].clone();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    // `all`: every operation (grep.search as checkfor), the default toolset first.
    let mut expected: Vec<String> = OPERATIONS
        .iter()
        .filter(|op| !op.writes_user_settings)
        .map(|op| op.name.replace('.', "_").replace("grep_search", "checkfor"))
        .collect();
    expected.sort();
    let mut sorted: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    sorted.sort();
    assert_eq!(sorted, expected);
    let default = Fixture::with(ServerOptions::default());
    let default_names = default.server.tool_names().join(",");
    assert!(names.join(",").starts_with(&default_names), "{names:?}");
    assert!(
        !names.contains(&"claude_install") && !names.contains(&"claude_install_mcp"),
        "settings writers are not tools"
    );
    for tool in tools.as_array().unwrap() {
        let input = &tool["inputSchema"];
        assert_eq!(input["type"], "object", "{tool}");
        assert!(!input.to_string().contains("$ref"), "{tool}");
        assert!(tool["description"].as_str().is_some_and(|d| !d.is_empty()));
        assert!(
            input["properties"]["max_tokens"].is_object(),
            "every tool takes a budget: {tool}"
        );
        assert!(
            tool.get("outputSchema").is_none(),
            "not unless asked: {tool}"
        );
    }
    // A tool outside the default toolset: the table's summary and request schema.
    let op = OPERATIONS
        .iter()
        .find(|op| op.name == "files.refresh")
        .unwrap();
    let refresh = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "files_refresh")
        .unwrap();
    assert_eq!(refresh["description"], op.summary);
    let schema = op.request_schema();
    for key in schema["properties"].as_object().unwrap().keys() {
        assert!(
            refresh["inputSchema"]["properties"].get(key).is_some(),
            "{key}"
        );
    }

    // Asked for, outputSchema comes from 2025-06-18 on.
    let structured = Fixture::with(ServerOptions {
        structured: Some(true),
        ..Default::default()
    });
    structured.initialize("2025-06-18");
    let tools = structured.request(2, "tools/list", Value::Null)["result"]["tools"].clone();
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["outputSchema"]["type"] == "object")
    );
    structured.initialize("2025-03-26");
    let tools = structured.request(2, "tools/list", Value::Null)["result"]["tools"].clone();
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t.get("outputSchema").is_none())
    );
}

#[test]
fn checkfor_keeps_its_exact_schema() {
    let f = Fixture::new();
    f.initialize("2024-11-05");
    let tools = f.request(1, "tools/list", json!({}))["result"]["tools"].clone();
    let tool = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "checkfor")
        .unwrap();
    // checkfor's parameters, byte for byte as its server sends them, then the extras.
    let checkfor = concat!(
        r#"{"type":"object","properties":{"#,
        r#""case_insensitive":{"type":"boolean","description":"Perform case-insensitive search. Optional, defaults to false.","default":false},"#,
        r#""context":{"type":"integer","description":"Number of context lines before and after each match. Optional, defaults to 0.","default":0},"#,
        r#""dir":{"type":"array","description":"Array of directory paths to search. Can also accept a single string for backwards compatibility. Defaults to current directory if not provided."},"#,
        r#""exclude":{"type":"array","description":"Array of strings to exclude from results. Matches containing any of these strings will be filtered out. Optional."},"#,
        r#""ext":{"type":"string","description":"File extension to filter (e.g., '.go', '.rtf'). Optional."},"#,
        r#""hide_filter_stats":{"type":"boolean","description":"Hide original_matches and filtered_matches from output. Optional, defaults to false.","default":false},"#,
        r#""search":{"type":"string","description":"String pattern to search for"},"#,
        r#""whole_word":{"type":"boolean","description":"Match whole words only. Optional, defaults to false.","default":false},"#,
        r#""recursive":{"type":"boolean","description":"Search subdirectories too, skipping ignored and hidden files. Optional, defaults to false.","default":false},"#,
        r#""regex":{"type":"boolean","description":"`search` is a regular expression. Optional, defaults to false.","default":false},"#,
        r#""max_tokens":{"type":"integer","description":"Answer budget in tokens (default 8000).","minimum":1}},"#,
        r#""required":["search"]}"#,
    );
    assert_eq!(tool["inputSchema"].to_string(), checkfor);
}

#[test]
fn checkfor_runs_grep_search_with_checkfor_output() {
    let f = Fixture::new();
    f.initialize("2024-11-05");
    let root = f.root();
    let result = f.call(
        "checkfor",
        json!({"dir": root, "search": "log", "whole_word": true, "ext": ".txt"}),
    );
    assert!(result.get("isError").is_none(), "{result}");
    assert!(
        result.get("structuredContent").is_none(),
        "not before 2025-06-18"
    );
    let expected = format!(
        r#"{{"directories":[{{"dir":"{}","matches_found":2,"files":[{{"path":"log.txt","matches":[{{"line":1,"content":"log message"}},{{"line":3,"content":"log"}}]}}],"below":{{"matches":1,"files":1}}}}]}}"#,
        root.display()
    );
    assert_eq!(text(&result), expected);

    // `dir` as one string, relative to the project, shown as given; exclude statistics.
    let result = f.call(
        "checkfor",
        json!({"dir": ".", "search": "log", "exclude": ["catalog", "logger"], "context": 1}),
    );
    let value: Value = serde_json::from_str(text(&result)).unwrap();
    let dir = &value["directories"][0];
    assert_eq!(dir["dir"], ".");
    assert_eq!(dir["matches_found"], 3);
    assert_eq!(dir["original_matches"], 5);
    assert_eq!(dir["filtered_matches"], 2);
    // Without `dir`: the project, shown as checkfor shows its default.
    let result = f.call("checkfor", json!({"search": "package"}));
    let value: Value = serde_json::from_str(text(&result)).unwrap();
    assert_eq!(value["directories"][0]["dir"], ".");
    assert_eq!(value["directories"][0]["files"][0]["path"], "main.go");
    // Missing `search` is a tool error, as checkfor reports it.
    let result = f.call("checkfor", json!({"dir": "."}));
    assert_eq!(result["isError"], true);
    assert!(text(&result).contains("search"), "{result}");
}

#[test]
fn checkfor_says_what_it_left_below_and_refuses_what_it_does_not_take() {
    let f = Fixture::new();
    f.initialize("2025-11-25");
    // Only the top level without `recursive`; the rest counted, and how to get it said.
    let result = f.call("checkfor", json!({"search": "log"}));
    assert!(result.get("isError").is_none(), "{result}");
    let value: Value = serde_json::from_str(text(&result)).unwrap();
    let directory = &value["directories"][0];
    let below = &directory["below"];
    assert_eq!(below, &json!({"matches": 1, "files": 1}), "{value}");
    let note = result["content"][1]["text"].as_str().unwrap();
    assert!(
        note.starts_with("Note: 1 more match in 1 file in subdirectories of .:")
            && note.contains("`recursive: true`"),
        "{note}"
    );
    let deep = f.call("checkfor", json!({"search": "log", "recursive": true}));
    let deep: Value = serde_json::from_str(text(&deep)).unwrap();
    assert_eq!(
        deep["directories"][0]["matches_found"].as_u64().unwrap(),
        directory["matches_found"].as_u64().unwrap() + below["matches"].as_u64().unwrap()
    );
    assert!(deep["directories"][0].get("below").is_none());

    // A file as `dir`: that file.
    let result = f.call("checkfor", json!({"search": "log", "dir": "sub/deep.txt"}));
    let value: Value = serde_json::from_str(text(&result)).unwrap();
    assert_eq!(value["directories"][0]["dir"], "sub/deep.txt");
    assert_eq!(
        value["directories"][0]["files"][0]["path"], "deep.txt",
        "{value}"
    );

    // A parameter checkfor does not take is refused, naming those it does.
    for (arguments, says) in [
        (
            json!({"search": "log", "path": "sub"}),
            "unknown parameter `path`",
        ),
        (json!({"pattern": "log"}), "unknown parameter `pattern`"),
        (json!({"dir": "."}), "`search` is missing"),
    ] {
        let result = f.call("checkfor", arguments);
        assert_eq!(result["isError"], true, "{result}");
        let message = text(&result);
        assert!(message.contains(says), "{message}");
        assert!(message.contains("search, dir, ext, exclude"), "{message}");
    }
}

#[test]
fn structured_content_from_2025_06_18() {
    let f = Fixture::with(ServerOptions {
        structured: Some(true),
        ..Default::default()
    });
    f.initialize("2025-06-18");
    let result = f.call("checkfor", json!({"search": "log", "recursive": true}));
    let parsed: Value = serde_json::from_str(text(&result)).unwrap();
    assert_eq!(result["structuredContent"], parsed);
    let files: Vec<&str> = parsed["directories"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["log.txt", "main.go", "sub/deep.txt"]);
    // checkfor shows the directory as given (the project, given as nothing, is `.`).
    assert_eq!(parsed["directories"][0]["dir"], ".");
    // Not asked for: the result once, as text.
    let f = Fixture::new();
    f.initialize("2025-06-18");
    let result = f.call("checkfor", json!({"search": "log", "recursive": true}));
    assert!(result.get("structuredContent").is_none(), "{result}");
    assert_eq!(
        serde_json::from_str::<Value>(text(&result)).unwrap(),
        parsed
    );
}

#[test]
fn files_tools_run_on_the_project() {
    let f = Fixture::new();
    f.initialize("2025-11-25");
    // Claude Code's transcripts from inside the project (where none are), not ~/.claude.
    let result = f.call(
        "files_refresh",
        json!({"root": ".", "claude_dir": "no-claude"}),
    );
    assert!(result.get("isError").is_none(), "{result}");
    let answer: Value = serde_json::from_str(text(&result)).unwrap();
    assert_eq!(answer["files"], 3);
    assert_eq!(answer["root"], f.root().to_str().unwrap());
    // No `project_dir`: the server's project, not the process's current directory.
    let result = f.call("files_suggest", json!({"query": "deep"}));
    assert!(result.get("isError").is_none(), "{result}");
    let answer: Value = serde_json::from_str(text(&result)).unwrap();
    assert_eq!(answer["paths"], json!(["sub/deep.txt"]));
}

#[test]
fn failing_tools_answer_is_error() {
    let f = Fixture::new();
    for (tool, arguments, needle) in [
        ("files_suggest", json!({"limit": 99}), "limit"),
        (
            "files_suggest",
            json!({"no_such_field": 1}),
            "no_such_field",
        ),
        ("checkfor", json!({"search": ""}), "search"),
        (
            "checkfor",
            json!({"search": "x", "max_tokens": 0}),
            "max_tokens",
        ),
        (
            "files_suggest",
            json!({"query": "x", "max_tokens": "many"}),
            "max_tokens",
        ),
        (
            "files_refresh",
            json!({"root": "missing-dir"}),
            "missing-dir",
        ),
    ] {
        let result = f.call(tool, arguments.clone());
        assert_eq!(result["isError"], true, "{tool} {arguments} → {result}");
        assert!(text(&result).contains(needle), "{tool}: {result}");
    }
}

#[test]
fn paths_outside_the_roots_are_refused() {
    let f = Fixture::new();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.txt", "log secret\n");
    std::os::unix::fs::symlink(outside.path(), f.project.path().join("link")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("missing"),
        f.project.path().join("dangling"),
    )
    .unwrap();
    let outside_str = outside.path().to_str().unwrap();
    for (tool, arguments) in [
        ("checkfor", json!({"search": "log", "dir": "../"})),
        (
            "checkfor",
            json!({"search": "log", "dir": ["sub", outside_str]}),
        ),
        ("checkfor", json!({"search": "log", "dir": "link"})),
        ("checkfor", json!({"search": "log", "dir": "sub/../.."})),
        ("checkfor", json!({"search": "log", "dir": "dangling"})),
        (
            "checkfor",
            json!({"search": "log", "dir": "nothere/../../x"}),
        ),
        (
            "checkfor",
            json!({"search": "log", "dir": "link", "recursive": true}),
        ),
        ("files_suggest", json!({"project_dir": outside_str})),
        ("files_refresh", json!({"root": "link"})),
        ("files_refresh", json!({"project_dir": ".."})),
        ("files_refresh", json!({"claude_dir": outside_str})),
    ] {
        let result = f.call(tool, arguments.clone());
        assert_eq!(result["isError"], true, "{tool} {arguments} → {result}");
        assert!(
            text(&result).contains("outside")
                || text(&result).contains("symbolic link")
                || text(&result).contains("`..`"),
            "{tool} {arguments}: {result}"
        );
        assert!(!text(&result).contains("log secret"));
    }
    // A link that stays inside is followed; a missing directory inside is reported by
    // grep for that directory only.
    std::os::unix::fs::symlink(f.project.path().join("sub"), f.project.path().join("inner"))
        .unwrap();
    let result = f.call(
        "checkfor",
        json!({"search": "log", "dir": ["inner", "gone"]}),
    );
    assert!(result.get("isError").is_none(), "{result}");
    let value: Value = serde_json::from_str(text(&result)).unwrap();
    assert_eq!(value["directories"][0]["dir"], "inner");
    assert_eq!(value["directories"][0]["matches_found"], 1);
    assert_eq!(value["directories"][1]["dir"], "gone");
    assert!(value["directories"][1]["error"].is_string(), "{value}");
}

#[test]
fn serve_runs_a_session_over_streams() {
    let f = Fixture::new();
    let input = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "",
        "garbage",
        r#"{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"checkfor","arguments":{"search":"catalog"}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    ]
    .join("\n");
    let mut output = Vec::new();
    // The last line has no newline: it is still answered.
    f.server
        .serve(std::io::Cursor::new(input.into_bytes()), &mut output)
        .unwrap();
    let text = String::from_utf8(output).unwrap();
    let replies: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 4, "{text}");
    assert_eq!(replies[0]["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(replies[1]["error"]["code"], PARSE_ERROR);
    assert_eq!(replies[2]["id"], "two");
    let answer: Value =
        serde_json::from_str(replies[2]["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(answer["directories"][0]["matches_found"], 1);
    assert_eq!(replies[3], json!({"jsonrpc": "2.0", "id": 3, "result": {}}));
    assert!(text.ends_with('\n'));

    // Bytes that are not UTF-8 are a parse error, and the session goes on.
    let mut output = Vec::new();
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend_from_slice(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    f.server
        .serve(std::io::Cursor::new(input), &mut output)
        .unwrap();
    let text = String::from_utf8(output).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(error_code(lines[0]), (Value::Null, PARSE_ERROR));
}

#[test]
fn serve_sends_progress_when_asked_and_a_cancelled_call_stops_and_answers_nothing() {
    let Some(model) = common::model_dir() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        "config.toml",
        &format!("[embed]\nmodel_dir = {:?}\n", model.display().to_string()),
    );
    let project = tempfile::tempdir().unwrap();
    for f in 0..10 {
        let sections: String = (0..40)
            .map(|s| {
                format!(
                    "## Topic {f}-{s}\n\nHow part {s} of guide {f} sets up widget {}.\n\n",
                    f * 100 + s
                )
            })
            .collect();
        write(
            project.path(),
            &format!("docs/g{f}.md"),
            &format!("# Guide {f}\n\n{sections}"),
        );
    }
    let engine = Arc::new(Engine::open_at(home.path()).unwrap());
    let server = Server::new(
        engine,
        ServerOptions {
            roots: vec![project.path().to_path_buf()],
            tools: vec!["all".into()],
            ..Default::default()
        },
    )
    .unwrap();
    let (input, mut client_out) = std::io::pipe().unwrap();
    let (client_in, output) = std::io::pipe().unwrap();
    std::thread::scope(|scope| {
        let serving = scope.spawn(|| server.serve(BufReader::new(input), output));
        let mut replies = BufReader::new(client_in).lines();
        let mut send = |message: Value| {
            writeln!(client_out, "{message}").unwrap();
            client_out.flush().unwrap();
        };
        send(
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "docs_index", "arguments": {}, "_meta": {"progressToken": "t5"}}}),
        );
        // Progress comes before the answer, growing, until the model is embedding.
        let mut progress = Vec::new();
        loop {
            let line: Value = serde_json::from_str(&replies.next().unwrap().unwrap()).unwrap();
            assert_eq!(line["method"], "notifications/progress", "{line}");
            assert_eq!(line["params"]["progressToken"], "t5");
            progress.push(line["params"]["progress"].as_u64().unwrap());
            if line["params"]["message"]
                .as_str()
                .unwrap()
                .starts_with("embed ")
            {
                break;
            }
        }
        assert!(progress.windows(2).all(|w| w[0] < w[1]), "{progress:?}");
        // Cancelled, the call stops at once and answers nothing; the session goes on.
        let asked = Instant::now();
        send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": 5, "reason": "test"}}),
        );
        send(json!({"jsonrpc": "2.0", "id": 6, "method": "ping"}));
        loop {
            let line: Value = serde_json::from_str(&replies.next().unwrap().unwrap()).unwrap();
            assert_ne!(line["id"], 5, "a cancelled call answered: {line}");
            if line["id"] == 6 {
                assert_eq!(line["result"], json!({}));
                break;
            }
        }
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "{:?}",
            asked.elapsed()
        );
        drop(client_out);
        serving.join().unwrap().unwrap();
    });
}

#[test]
fn roots_must_exist_and_configured_roots_are_added() {
    let home = tempfile::tempdir().unwrap();
    let extra = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        format!(
            "[index]\nroots = [{:?}, \"/definitely/not/here\"]\n",
            extra.path().to_str().unwrap()
        ),
    )
    .unwrap();
    let engine = Arc::new(Engine::open_at(home.path()).unwrap());
    let missing = Server::new(
        Arc::clone(&engine),
        ServerOptions {
            roots: vec![home.path().join("nope")],
            tools: vec!["all".into()],
            ..Default::default()
        },
    );
    assert_eq!(missing.unwrap_err().code(), "io");
    let project = tempfile::tempdir().unwrap();
    let server = Server::new(
        engine,
        ServerOptions {
            roots: vec![project.path().into()],
            tools: vec!["all".into()],
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        server.roots(),
        [
            std::fs::canonicalize(project.path()).unwrap(),
            std::fs::canonicalize(extra.path()).unwrap()
        ]
    );
    assert_eq!(server.warnings().len(), 1);
    assert!(server.warnings()[0].contains("/definitely/not/here"));
}

/// A request field that looks like a path must be declared, so the server confines it.
#[test]
fn every_path_parameter_is_declared() {
    for op in OPERATIONS {
        let schema = op.request_schema();
        let Some(properties) = schema["properties"].as_object() else {
            continue;
        };
        for name in properties.keys() {
            let looks_like_path = ["dir", "root", "path", "dirs", "roots", "paths"]
                .iter()
                .any(|w| name == w || name.ends_with(&format!("_{w}")));
            if looks_like_path {
                let pointer = format!("/{name}");
                assert!(
                    op.path_params.iter().any(|p| p.pointer == pointer),
                    "{}: `{name}` looks like a path but is not in PATH_PARAMS",
                    op.name
                );
            }
        }
    }
}

#[test]
fn code_tools_of_a_server_rooted_in_a_subdirectory_stay_below_it() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let repo = std::fs::canonicalize(dir.path()).unwrap();
    common::git_at(&repo, &["init", "-q"], 1_700_000_000);
    write(&repo, "core/inner.py", "def gamma_inner():\n    pass\n");
    write(&repo, "secret/outer.py", "def gamma_outer():\n    pass\n");
    let core = repo.join("core");
    let engine = Arc::new(Engine::open_at(home.path()).unwrap());
    let server = Server::new(
        Arc::clone(&engine),
        ServerOptions {
            roots: vec![core.clone()],
            tools: vec!["all".into()],
            ..Default::default()
        },
    )
    .unwrap();
    let send = |id: i64, method: &str, params: Value| -> Value {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap()
    };
    send(
        0,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "test", "version": "1"}}),
    );
    // The work tree's top is above the server's root: the index is of the root alone.
    let reply = send(
        1,
        "tools/call",
        json!({"name": "code_search_symbols", "arguments": {"query": "gamma"}}),
    );
    let text = reply["result"].to_string();
    assert!(text.contains("gamma_inner"), "{text}");
    assert!(
        !text.contains("gamma_outer") && !text.contains("secret"),
        "{text}"
    );
    // Outside a server (another data root, no index yet) the same directory answers from
    // the repository's index.
    let other = tempfile::tempdir().unwrap();
    let open = common::call(
        &Engine::open_at(other.path()).unwrap(),
        "code.search_symbols",
        json!({"path": core, "query": "gamma"}),
    );
    assert!(open.to_string().contains("gamma_outer"), "{open}");
}
