//! The MCP server's answers stay within their token budget, for every tool of the default
//! toolset, on inputs built to produce huge answers; and the default `tools/list` stays
//! small under every protocol version.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use cc_search::Engine;
use cc_search::mcp::{MAX_ANSWER_TOKENS, PROTOCOL_VERSIONS, Server, ServerOptions};
use common::{commit_all, keyword_only, write};
use serde_json::{Value, json};

/// The most bytes `tools/list` of the default toolset may take.
const TOOLS_LIST_LIMIT: usize = 8_500;

fn request(server: &Server, method: &str, params: Value) -> Value {
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap()
}

/// The bytes an agent reads: every text block and the structured content.
fn answer_bytes(result: &Value) -> usize {
    let texts: usize = result["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap().len())
        .sum();
    texts
        + result
            .get("structuredContent")
            .map_or(0, |s| s.to_string().len())
}

/// A repository whose every search is huge: thousands of symbols and lines that match
/// `needle`, docs and notes with hundreds of sections, and a session transcript with
/// long prompts, all under the project.
fn huge_project(root: &Path) {
    let mut python = String::from("class NeedleHolder:\n    \"\"\"Holds needles.\"\"\"\n");
    for i in 0..1_500 {
        python.push_str(&format!(
            "    def needle_method_{i}(self, needle_argument_{i}: int) -> int:\n        \"\"\"Return the needle number {i}, {}\"\"\"\n        return needle_helper(needle_argument_{i})\n",
            "with a long needle explanation ".repeat(4)
        ));
    }
    python.push_str("\ndef needle_helper(value):\n    return value\n");
    write(root, "src/needles.py", &python);
    for i in 0..40 {
        write(
            root,
            &format!("src/pkg{i}/mod_{i}.py"),
            format!(
                "from src.needles import needle_helper\n\ndef caller_{i}():\n    return needle_helper({i})  # needle\n"
            ),
        );
    }
    write(
        root,
        "notes.txt",
        format!("{}\n", "a needle in a very long line ".repeat(5_000)),
    );
    let mut doc = String::from("# Needles\n\n");
    for i in 0..300 {
        doc.push_str(&format!(
            "## Needle section {i}\n\n{}\n\n",
            "Needles are sharp and this paragraph explains needle handling at length. ".repeat(20)
        ));
    }
    write(root, "docs/needles.md", &doc);
    write(root, "sessions/2026_01_02_NEEDLES/IMPLEMENTATION.md", &doc);
    commit_all(root, "needles", 1_700_000_000);

    // Transcripts (inside the project: the server may only read there).
    let cwd = std::fs::canonicalize(root).unwrap();
    let session = "dddddddd-0000-4000-8000-000000000004";
    let mut lines = String::new();
    for i in 0..60 {
        let record = json!({
            "type": "user", "uuid": format!("u{i}"), "parentUuid": null, "isSidechain": false,
            "sessionId": session, "cwd": cwd, "timestamp": format!("2026-01-02T10:{:02}:00Z", i % 60),
            "message": {"role": "user", "content": format!("needle question {i}: {}", "how do we sharpen the needle ".repeat(200))},
        });
        lines.push_str(&record.to_string());
        lines.push('\n');
    }
    write(
        root,
        &format!("transcripts/-project/{session}.jsonl"),
        &lines,
    );
}

/// A server, initialized, on a [`huge_project`] (keyword search only), with the
/// directories it lives on.
fn huge_server() -> (tempfile::TempDir, tempfile::TempDir, Server) {
    let home = tempfile::tempdir().unwrap();
    keyword_only(home.path());
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    common::git_at(root, &["init", "-q"], 1_700_000_000);
    huge_project(root);
    let engine = Arc::new(Engine::open_at(home.path()).unwrap());
    let server = Server::new(
        engine,
        ServerOptions {
            roots: vec![root.to_path_buf()],
            ..Default::default()
        },
    )
    .unwrap();
    request(
        &server,
        "initialize",
        json!({"protocolVersion": "2025-11-25"}),
    );
    (home, project, server)
}

#[test]
fn every_default_tool_answers_within_its_budget() {
    let (_home, _project, server) = huge_server();

    // An id to navigate from: the class with 1,500 methods, and the helper they all call.
    let search = |query: &str| -> Value {
        let result = request(
            &server,
            "tools/call",
            json!({"name": "code_search_symbols", "arguments": {"query": query, "max_tokens": 100_000}}),
        );
        serde_json::from_str(result["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
    };
    let holder = search("NeedleHolder")["hits"][0]["id"].clone();
    let helper = search("needle_helper kind:fn")["hits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["n"] == "needle_helper")
        .map(|h| h["id"].clone())
        .unwrap_or_else(|| search("needle_helper")["hits"][0]["id"].clone());
    assert!(holder.is_i64() && helper.is_i64(), "{holder} {helper}");

    let calls = [
        ("files_suggest", json!({"query": "mod"})),
        (
            "checkfor",
            json!({"search": "needle", "recursive": true, "context": 3}),
        ),
        (
            "code_search_symbols",
            json!({"query": "needle", "limit": 1000}),
        ),
        ("code_get_symbol_detail", json!({"id": holder})),
        ("code_get_references", json!({"id": helper})),
        ("code_get_file_symbols", json!({"file": "src/needles.py"})),
        ("code_get_overview", json!({})),
        (
            "code_find",
            json!({"query": "the needle helper of the needle holder", "limit": 1000}),
        ),
        ("docs_query", json!({"query": "needle", "limit": 100})),
        ("notes_query", json!({"query": "needle", "limit": 100})),
        (
            "sessions_search",
            json!({"query": "needle", "limit": 100, "projects_dir": "transcripts"}),
        ),
    ];
    let tools = server.tool_names().len();
    let mut chunk_id = None;
    for (tool, arguments) in &calls {
        // 10,000,000: far above what a client takes, so the ceiling holds.
        for budget in [None, Some(300usize), Some(40), Some(10_000_000)] {
            let mut arguments = arguments.clone();
            if let Some(budget) = budget {
                arguments["max_tokens"] = json!(budget);
            }
            let reply = request(
                &server,
                "tools/call",
                json!({"name": tool, "arguments": arguments}),
            );
            let result = &reply["result"];
            assert!(result.get("isError").is_none(), "{tool}: {reply}");
            let limit = budget.unwrap_or(server.max_tokens()).min(MAX_ANSWER_TOKENS) * 4;
            let bytes = answer_bytes(result);
            assert!(bytes <= limit, "{tool} {budget:?}: {bytes} bytes > {limit}");
            let answer: Value =
                serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
            if budget == Some(40) && *tool != "files_suggest" {
                assert_eq!(answer["truncated"], true, "{tool}: {answer}");
            }
            // Thousands of matching lines are more than any answer holds: cut, and said.
            if budget == Some(10_000_000) && *tool == "checkfor" {
                assert_eq!(answer["truncated"], true, "{tool}: {bytes} bytes");
                assert!(bytes > limit / 2, "{tool}: cut to {bytes} bytes of {limit}");
            }
            if answer["truncated"] == true {
                assert!(
                    answer["more"].as_str().is_some_and(|m| !m.is_empty()),
                    "{tool}: {answer}"
                );
                // At the ceiling a larger `max_tokens` gives no more: not said.
                if budget == Some(10_000_000) {
                    let more = answer["more"].as_str().unwrap();
                    assert!(!more.contains("max_tokens"), "{tool}: {more}");
                }
            }
            if *tool == "sessions_search" && budget.is_none() {
                chunk_id = answer["results"][0]["id"].as_str().map(str::to_string);
            }
        }
    }
    // The whole default answer of the big searches is cut, not dropped: something to read.
    let reply = request(
        &server,
        "tools/call",
        json!({"name": "checkfor", "arguments": {"search": "needle", "recursive": true}}),
    );
    let answer: Value =
        serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(answer["truncated"], true);
    assert!(
        answer["directories"][0]["files"]
            .as_array()
            .is_some_and(|f| !f.is_empty())
    );

    let chunk_id = chunk_id.expect("a session hit");
    for budget in [None, Some(50usize)] {
        let mut arguments = json!({"id": chunk_id});
        if let Some(budget) = budget {
            arguments["max_tokens"] = json!(budget);
        }
        let reply = request(
            &server,
            "tools/call",
            json!({"name": "sessions_chunk", "arguments": arguments}),
        );
        assert!(reply["result"].get("isError").is_none(), "{reply}");
        let limit = budget.unwrap_or(server.max_tokens()) * 4;
        assert!(
            answer_bytes(&reply["result"]) <= limit,
            "sessions_chunk {budget:?}"
        );
    }
    assert_eq!(calls.len() + 1, tools, "every default tool is driven");
}

/// References too many for one answer page through to the last: an answer cut short
/// names the `offset` of the rest, and the pages together hold every reference once.
#[test]
fn references_cut_short_page_through_every_one() {
    let (_home, _project, server) = huge_server();
    let call = |arguments: Value| -> Value {
        let reply = request(
            &server,
            "tools/call",
            json!({"name": "code_get_references", "arguments": arguments}),
        );
        assert!(reply["result"].get("isError").is_none(), "{reply}");
        serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
    };
    let hits = request(
        &server,
        "tools/call",
        json!({"name": "code_search_symbols", "arguments": {"query": "needle_helper", "kind": "fn"}}),
    );
    let hits: Value =
        serde_json::from_str(hits["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    let helper = hits["hits"][0]["id"].clone();

    // 1,500 calls in one file and 80 rows in 40 others: more than the ceiling holds.
    let first = call(json!({"id": helper, "max_tokens": 10_000_000}));
    assert_eq!(first["truncated"], true, "{first}");
    let total = first["total"].as_u64().unwrap();
    assert!(total > 1_500, "{total}");
    let more = first["more"].as_str().unwrap();
    assert!(more.starts_with("`offset: "), "{more}");

    // Small pages, each followed where its hint says, to the last.
    let mut seen = std::collections::BTreeSet::new();
    let mut offset = 0u64;
    let mut pages = 0;
    loop {
        let page = call(json!({"id": helper, "offset": offset, "max_tokens": 2_000}));
        pages += 1;
        assert_eq!(page["total"], total);
        let files: Vec<&str> = page["_f"]
            .as_array()
            .map(|f| f.iter().map(|p| p.as_str().unwrap()).collect())
            .unwrap_or_default();
        let refs = page["refs_to"].as_array().unwrap();
        for r in refs {
            let file = match r.get("fi") {
                Some(fi) => files[fi.as_u64().unwrap() as usize].to_string(),
                None => r["f"].as_str().unwrap_or_default().to_string(),
            };
            let row = (file, r["line"].as_u64().unwrap(), r["k"].to_string());
            assert!(seen.insert(row.clone()), "{row:?} twice");
        }
        if page["truncated"] != true {
            break;
        }
        let more = page["more"].as_str().unwrap();
        let next: u64 = more
            .strip_prefix("`offset: ")
            .and_then(|m| m.split('`').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no offset in {more}"));
        assert_eq!(next, offset + refs.len() as u64, "{more}");
        offset = next;
        assert!(pages < 200, "no end");
    }
    assert!(pages > 2, "{pages}");
    assert_eq!(seen.len() as u64, total);
}

#[test]
fn structured_answers_share_the_budget() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "big.txt",
        "needle ".repeat(20) + "\n" + &"needle line\n".repeat(20_000),
    );
    let engine = Arc::new(Engine::open_at(home.path()).unwrap());
    let server = Server::new(
        engine,
        ServerOptions {
            roots: vec![project.path().to_path_buf()],
            structured: Some(true),
            max_tokens: Some(2_000),
            ..Default::default()
        },
    )
    .unwrap();
    request(
        &server,
        "initialize",
        json!({"protocolVersion": "2025-06-18"}),
    );
    let reply = request(
        &server,
        "tools/call",
        json!({"name": "checkfor", "arguments": {"search": "needle"}}),
    );
    let result = &reply["result"];
    assert!(result["structuredContent"].is_object(), "{reply}");
    assert!(
        answer_bytes(result) <= 2_000 * 4,
        "{}",
        answer_bytes(result)
    );
}

#[test]
fn the_default_tools_list_is_small_under_every_protocol_version() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let engine = Arc::new(Engine::open_at(home.path()).unwrap());
    let server = Server::new(
        engine,
        ServerOptions {
            roots: vec![project.path().to_path_buf()],
            ..Default::default()
        },
    )
    .unwrap();
    for version in PROTOCOL_VERSIONS {
        request(&server, "initialize", json!({"protocolVersion": version}));
        let reply = server
            .handle(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
            .unwrap();
        let value: Value = serde_json::from_str(&reply).unwrap();
        let tools = value["result"]["tools"].to_string().len();
        assert!(
            reply.len() <= TOOLS_LIST_LIMIT,
            "{version}: tools/list is {} bytes ({tools} of tools)",
            reply.len()
        );
    }
    // The initialize instructions name every default tool, and stay short.
    let reply = request(
        &server,
        "initialize",
        json!({"protocolVersion": "2025-11-25"}),
    );
    let instructions = reply["result"]["instructions"].as_str().unwrap();
    for name in server.tool_names() {
        assert!(
            instructions.contains(name),
            "{name} missing: {instructions}"
        );
    }
    assert!(instructions.len() < 2_000, "{}", instructions.len());
}
