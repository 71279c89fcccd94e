//! Security: what an MCP client (or any caller) can make cc-search read, run and write.
//!
//! - Every path parameter of every MCP tool is confined to the server's roots: a path
//!   outside, `..` out of them, or a symbolic link out of them is refused before the
//!   operation runs. The list of tools and parameters comes from the operation table, so
//!   a new operation is covered the day it is added.
//! - Operations that take files inside a repository skip files outside it.
//! - No program is started through a shell, and every SQL statement with a value in it
//!   binds it: both checked over the source, so new code is held to it.
//!
//! (Atomic, backed-up writes of Claude Code's settings: core/tests/claude.rs, and the
//! full-disk case in core/tests/bad_input.rs.)

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cc_search::mcp::{Server, ServerOptions};
use cc_search::{Engine, OPERATIONS};
use serde_json::{Map, Value, json};

use crate::common;
use common::write;

struct Fixture {
    _home: tempfile::TempDir,
    project: tempfile::TempDir,
    outside: tempfile::TempDir,
    server: Server,
}

impl Fixture {
    fn new() -> Fixture {
        let home = tempfile::tempdir().unwrap();
        common::keyword_only(home.path());
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        write(project.path(), "src/lib.rs", "pub fn inside() {}\n");
        write(project.path(), "docs/a.md", "## Inside\n\ninside text\n");
        write(outside.path(), "secret.rs", "pub fn secret_outside() {}\n");
        write(outside.path(), "docs/s.md", "## Secret\n\nsecret outside\n");
        write(outside.path(), "-p/s.jsonl", "{}\n");
        let link = |target: &Path, at: &str| {
            std::os::unix::fs::symlink(target, project.path().join(at)).unwrap()
        };
        link(outside.path(), "escape");
        link(&outside.path().join("secret.rs"), "src/escape.rs");
        link(&outside.path().join("missing"), "dangling");
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
        Fixture {
            _home: home,
            project,
            outside,
            server,
        }
    }

    fn call(&self, tool: &str, arguments: &Value) -> Value {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                             "params": {"name": tool, "arguments": arguments}});
        let reply = self.server.handle(&message.to_string()).expect("a reply");
        let reply: Value = serde_json::from_str(&reply).unwrap();
        reply["result"].clone()
    }
}

/// `arguments` with the value at JSON pointer `pointer` set to `value`, creating objects
/// on the way.
fn set(arguments: &mut Value, pointer: &str, value: Value) {
    let mut at = arguments;
    let keys: Vec<String> = pointer
        .trim_start_matches('/')
        .split('/')
        .map(|k| k.replace("~1", "/").replace("~0", "~"))
        .collect();
    for key in &keys[..keys.len() - 1] {
        at = at
            .as_object_mut()
            .unwrap()
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    at.as_object_mut()
        .unwrap()
        .insert(keys.last().unwrap().clone(), value);
}

#[test]
fn every_path_parameter_of_every_tool_is_confined_to_the_roots() {
    let f = Fixture::new();
    let outside = f.outside.path().to_str().unwrap().to_string();
    let escapes = [
        outside.clone(),
        format!("{outside}/secret.rs"),
        "..".to_string(),
        "src/../..".to_string(),
        "escape".to_string(),
        "escape/docs".to_string(),
        "src/escape.rs".to_string(),
        "dangling".to_string(),
        "missing-dir/../../x".to_string(),
    ];
    let tools = f.server.tool_names();
    let mut checked = 0;
    for op in OPERATIONS {
        // grep.search is the tool checkfor (with checkfor's parameters and the extras).
        let tool = op.name.replace('.', "_").replace("grep_search", "checkfor");
        if !tools.contains(&tool.as_str()) {
            assert!(op.writes_user_settings, "{} is not a tool", op.name);
            continue;
        }
        for param in op.path_params {
            for escape in &escapes {
                // checkfor refuses a call without `search` before looking at paths.
                let mut arguments = if tool == "checkfor" {
                    json!({"search": "secret"})
                } else {
                    json!({})
                };
                let value = if param.many {
                    json!([escape])
                } else {
                    json!(escape)
                };
                set(&mut arguments, param.pointer, value);
                let result = f.call(&tool, &arguments);
                let text = result.to_string();
                assert_eq!(result["isError"], true, "{tool} {arguments}: {text}");
                assert!(
                    text.contains("outside the directories")
                        || text.contains("symbolic link")
                        || text.contains("`..`"),
                    "{tool} {arguments} refused for another reason: {text}"
                );
                assert!(!text.contains("secret_outside") && !text.contains("secret outside"));
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 15 * escapes.len(),
        "{checked} path parameters checked"
    );
    // Paths inside are accepted, links that stay inside too.
    std::os::unix::fs::symlink(f.project.path().join("src"), f.project.path().join("inner"))
        .unwrap();
    for (tool, arguments) in [
        ("code_index_repository", json!({"path": "."})),
        ("code_update_files", json!({"files": ["inner/lib.rs"]})),
        ("docs_index", json!({"project_dir": "inner/.."})),
        ("checkfor", json!({"search": "inside", "dir": "inner"})),
    ] {
        let result = f.call(tool, &arguments);
        assert_ne!(result["isError"], true, "{tool} {arguments}: {result}");
    }
}

#[test]
fn tools_without_path_arguments_read_only_inside_the_project() {
    let f = Fixture::new();
    // Defaults are the project: nothing from the linked directory outside is indexed
    // or found.
    for (tool, arguments) in [
        ("files_refresh", json!({})),
        ("code_index_repository", json!({})),
        ("docs_index", json!({"globs": ["**/*.md"]})),
    ] {
        let result = f.call(tool, &arguments);
        assert_ne!(result["isError"], true, "{tool}: {result}");
    }
    for (tool, arguments) in [
        ("files_suggest", json!({"query": "secret"})),
        ("code_search_symbols", json!({"query": "secret_outside"})),
        (
            "docs_query",
            json!({"query": "secret outside", "mode": "keyword"}),
        ),
        (
            "checkfor",
            json!({"search": "secret_outside", "recursive": true}),
        ),
        (
            "checkfor",
            json!({"search": "secret_outside", "dir": "src"}),
        ),
    ] {
        let result = f.call(tool, &arguments);
        // What was found (the query itself is echoed back, and skipped links are named
        // in the warnings).
        let mut answer: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        answer.as_object_mut().unwrap().remove("warnings");
        let text = answer.to_string();
        for found in ["secret.rs", "escape", "s.md", "Secret", "secret_outside()"] {
            assert!(
                !text.contains(found),
                "{tool} read outside the project: {text}"
            );
        }
    }
}

#[test]
fn update_files_skips_files_outside_the_repository() {
    let home = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(repo.path(), "lib.rs", "pub fn inside() {}\n");
    write(outside.path(), "secret.rs", "pub fn secret_outside() {}\n");
    std::os::unix::fs::symlink(
        outside.path().join("secret.rs"),
        repo.path().join("link.rs"),
    )
    .unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let root = repo.path().to_str().unwrap();
    engine
        .call("code.index_repository", &json!({"path": root}).to_string())
        .unwrap();
    let secret = outside.path().join("secret.rs");
    let updated: Value = serde_json::from_str(
        &engine
            .call(
                "code.update_files",
                &json!({"path": root, "files": [secret, "../secret.rs", "link.rs"]}).to_string(),
            )
            .unwrap(),
    )
    .unwrap();
    let said = updated["warnings"].to_string();
    assert!(said.matches("not inside").count() >= 2, "{updated}");
    let hits: Value = serde_json::from_str(
        &engine
            .call(
                "code.search_symbols",
                &json!({"path": root, "query": "secret_outside"}).to_string(),
            )
            .unwrap(),
    )
    .unwrap();
    assert_eq!(hits["hits"], json!([]), "{hits}");
}

// ---------------------------------------------------------------------------------------
// Over the source

/// Every `.rs` file of the crates that ship (core, ffi, bindings), with its text.
fn sources() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    let mut stack: Vec<PathBuf> = [
        "core/src",
        "ffi/src",
        "bindings/python/src",
        "bindings/node/src",
    ]
    .iter()
    .map(|d| root.join(d))
    .collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                found.push((path, text));
            }
        }
    }
    found.sort();
    assert!(found.len() > 30, "{} source files", found.len());
    found
}

/// The code of `text` up to its `#[cfg(test)]` module (tests may do as they like).
fn shipped(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap()
}

#[test]
fn no_program_is_started_through_a_shell() {
    let mut programs = Vec::new();
    for (path, text) in sources() {
        let code = shipped(&text);
        for (i, _) in code.match_indices("Command::new(") {
            let call: String = code[i..].chars().take(80).collect();
            let arg = call["Command::new(".len()..]
                .split(')')
                .next()
                .unwrap()
                .to_string();
            programs.push((path.display().to_string(), arg));
        }
        for shell in [
            "\"sh\"",
            "\"bash\"",
            "\"/bin/sh\"",
            "\"/bin/bash\"",
            "\"cmd\"",
        ] {
            for (i, _) in code.match_indices(shell) {
                let line = code[..i].lines().count();
                let around = code[i.saturating_sub(80)..i].to_string();
                assert!(
                    !around.contains("Command") && !around.contains(".arg"),
                    "{}:{line}: a shell: {around}{shell}",
                    path.display()
                );
            }
        }
    }
    // The programs started: git (a configurable path) and fd (found on PATH), each with
    // an argument vector.
    let args: Vec<&str> = programs.iter().map(|(_, a)| a.as_str()).collect();
    assert_eq!(args, ["\"git\"", "fd", "&self.program"], "{programs:?}");
}

/// The `{name}` placeholders of SQL text built with `format!` in shipped code. Each must
/// be a constant or a value the code computes itself (a table name from a fixed list, a
/// number), never text from a request: every name here was read and is listed.
const AUDITED_SQL_PLACEHOLDERS: &[&str] = &[
    // Constants: the code index's column list and its bulk-load settings.
    "SYMBOL_COLUMNS",
    "BULK_CACHE_KIB",
    "BULK_FTS_HASH",
    // code/index/: a table name, given as a literal by every caller ("files",
    // "symbols", "refs").
    "table",
    // code/index/: the integer `PRAGMA cache_size` returned, set back after a bulk run.
    "before",
    // code/index/: an index name from the constant DEFERRED_INDEXES.
    "name",
    // code/index/: `(?, ?, ?, ?, ?, ?)` repeated, the parameters of a many-row insert.
    "values",
    // hybrid.rs: the constant condition of a chunk filter; its values are bound by name.
    "FILTER_SQL",
];

#[test]
fn sql_is_built_only_from_audited_fragments() {
    let sql_words = [
        "SELECT ", "INSERT ", "UPDATE ", "DELETE ", "CREATE ", "DROP ", "PRAGMA ", "ALTER ",
        " WHERE ", " MATCH ",
    ];
    let mut unaudited = Vec::new();
    for (path, text) in sources() {
        let code = shipped(&text);
        for (i, _) in code.match_indices("format!(") {
            // The format string: the first string literal after `format!(`.
            let rest = &code[i + "format!(".len()..];
            let Some(open) = rest.find('"') else { continue };
            if rest[..open].trim_start_matches(['r', '#']).trim() != "" {
                continue; // not a literal first (a variable format string cannot be)
            }
            let literal: String = rest[open + 1..].split('"').next().unwrap().to_string();
            if !sql_words.iter().any(|w| literal.contains(w)) {
                continue;
            }
            let line = code[..i].lines().count();
            for placeholder in literal.split('{').skip(1) {
                let name = placeholder.split(['}', ':']).next().unwrap().trim();
                if name.is_empty() || name.starts_with('{') {
                    continue;
                }
                if !AUDITED_SQL_PLACEHOLDERS.contains(&name) {
                    unaudited.push(format!(
                        "{}:{line}: `{{{name}}}` in {literal:?}",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(
        unaudited.is_empty(),
        "SQL built with format! placeholders: bind values as parameters (?1); a fixed \
         identifier, once read, goes into AUDITED_SQL_PLACEHOLDERS:\n{}",
        unaudited.join("\n")
    );
}
