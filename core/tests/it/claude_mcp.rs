//! `claude.install_mcp` on real files: cc-search's MCP server in a project's `.mcp.json`
//! and in Claude Code's `~/.claude.json` — install, reinstall, update, uninstall,
//! another program's entry, malformed files, permissions, no backup files.
//!
//! Tests of the user scope set `HOME` / `CLAUDE_CONFIG_DIR`, so their body runs in a
//! child process of this test binary (the real `~/.claude.json` is never touched).

use std::ffi::OsStr;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use cc_search::Engine;
use cc_search::claude::{InstallMcp, InstallMcpRequest, InstallMcpResponse, Scope};
use serde_json::{Value, json};

use crate::common;

use common::listing;

/// `.mcp.json` after `claude mcp add -s project cc-search -- cc-search mcp` (Claude Code
/// writes no final newline; a file cc-search creates has one).
const FRESH: &str = r#"{
  "mcpServers": {
    "cc-search": {
      "type": "stdio",
      "command": "cc-search",
      "args": [
        "mcp"
      ],
      "env": {}
    }
  }
}
"#;

/// A `.mcp.json` as Claude Code writes it, with another server and a key of its own.
const OTHERS: &str = r#"{
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/"
    },
    "local-db": {
      "type": "stdio",
      "command": "db-mcp",
      "args": [
        "--read-only"
      ],
      "env": {
        "DB": "dev"
      }
    }
  },
  "x-team-note": "keep me"
}"#;

/// [`OTHERS`] with cc-search installed: the same bytes plus the new entry.
const OTHERS_INSTALLED: &str = r#"{
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/"
    },
    "local-db": {
      "type": "stdio",
      "command": "db-mcp",
      "args": [
        "--read-only"
      ],
      "env": {
        "DB": "dev"
      }
    },
    "cc-search": {
      "type": "stdio",
      "command": "cc-search",
      "args": [
        "mcp"
      ],
      "env": {}
    }
  },
  "x-team-note": "keep me"
}"#;

struct Fixture {
    _home: tempfile::TempDir,
    dir: tempfile::TempDir,
    engine: Engine,
}

impl Fixture {
    fn new() -> Fixture {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("project")).unwrap();
        let engine = Engine::open_at(home.path()).unwrap();
        Fixture {
            _home: home,
            dir,
            engine,
        }
    }

    fn project(&self) -> PathBuf {
        fs::canonicalize(self.dir.path().join("project")).unwrap()
    }

    fn file(&self) -> PathBuf {
        self.project().join(".mcp.json")
    }

    fn write(&self, text: &str) {
        fs::write(self.file(), text).unwrap();
    }

    fn read(&self) -> String {
        fs::read_to_string(self.file()).unwrap()
    }

    fn run(&self, request: InstallMcpRequest) -> cc_search::Result<InstallMcpResponse> {
        self.engine.run::<InstallMcp>(InstallMcpRequest {
            scope: Scope::Project,
            project_dir: Some(self.project()),
            ..request
        })
    }

    fn install(&self, command: &str, args: &[&str]) -> InstallMcpResponse {
        self.run(request(command, args)).unwrap()
    }

    fn uninstall(&self) -> InstallMcpResponse {
        self.run(InstallMcpRequest {
            uninstall: true,
            ..Default::default()
        })
        .unwrap()
    }
}

fn request(command: &str, args: &[&str]) -> InstallMcpRequest {
    InstallMcpRequest {
        command: command.into(),
        args: args.iter().map(|a| a.to_string()).collect(),
        ..Default::default()
    }
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn in_child(name: &str, env: &[(&str, &OsStr)]) -> bool {
    common::in_child(module_path!(), name, env, None)
}

// ---------------------------------------------------------------------------------------
// project scope: .mcp.json

#[test]
fn project_install_writes_what_claude_mcp_add_writes() {
    let f = Fixture::new();
    let response = f.install("cc-search", &["mcp"]);
    assert!(response.changed);
    assert_eq!(response.path, f.file().display().to_string());
    assert_eq!(
        response.changes,
        ["MCP server `cc-search` added: `cc-search mcp`"]
    );
    assert_eq!(f.read(), FRESH);
    assert_eq!(
        listing(&f.project()),
        [".mcp.json"],
        "no temp or backup file"
    );
}

#[test]
fn a_second_install_changes_nothing_and_writes_nothing() {
    let f = Fixture::new();
    f.install("cc-search", &["mcp"]);
    let before = fs::metadata(f.file()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = f.install("cc-search", &["mcp"]);
    assert!(!again.changed);
    assert!(again.changes.is_empty(), "{:?}", again.changes);
    let after = fs::metadata(f.file()).unwrap();
    use std::os::unix::fs::MetadataExt;
    assert_eq!(
        (before.ino(), before.mtime_nsec()),
        (after.ino(), after.mtime_nsec())
    );
    assert_eq!(f.read(), FRESH);
}

#[test]
fn other_servers_and_keys_stay_byte_for_byte_and_uninstall_restores_the_file() {
    let f = Fixture::new();
    f.write(OTHERS);
    let response = f.install("cc-search", &["mcp"]);
    assert!(response.changed);
    assert_eq!(f.read(), OTHERS_INSTALLED);

    let removed = f.uninstall();
    assert!(removed.changed);
    assert_eq!(
        removed.changes,
        [
            "MCP server `cc-search` removed (`cc-search mcp`)",
            ".mcp.json put back byte for byte as it was before cc-search's install"
        ]
    );
    assert_eq!(f.read(), OTHERS, "exactly the entry it added is gone");
    assert_eq!(listing(&f.project()), [".mcp.json"], "no backup files");

    let again = f.uninstall();
    assert!(!again.changed);
    assert_eq!(f.read(), OTHERS);
}

#[test]
fn uninstall_deletes_a_file_that_held_only_cc_search() {
    let f = Fixture::new();
    f.install("cc-search", &["mcp"]);
    let response = f.uninstall();
    assert!(response.changed);
    assert_eq!(
        response.changes,
        [
            "MCP server `cc-search` removed (`cc-search mcp`)",
            ".mcp.json removed: nothing else was in it",
        ]
    );
    assert!(
        listing(&f.project()).is_empty(),
        "{:?}",
        listing(&f.project())
    );

    // Nothing to do, and no file is created for it.
    let again = f.uninstall();
    assert!(!again.changed);
    assert!(!f.file().exists());

    // The same for a file `claude mcp add` wrote (no final newline, npx command).
    f.write(
        r#"{
  "mcpServers": {
    "cc-search": {
      "type": "stdio",
      "command": "npx",
      "args": [
        "--no-install",
        "cc-search",
        "mcp"
      ],
      "env": {}
    }
  }
}"#,
    );
    assert!(f.uninstall().changed);
    assert!(!f.file().exists());
}

#[test]
fn uninstall_keeps_a_file_that_holds_anything_else() {
    let f = Fixture::new();
    f.write(
        r#"{"x-note": 1, "mcpServers": {"cc-search": {"command": "cc-search", "args": ["mcp"]}}}"#,
    );
    assert!(f.uninstall().changed);
    assert_eq!(f.read(), r#"{"x-note":1,"mcpServers":{}}"#);

    // An empty `mcpServers` beside nothing else, left by someone else: not ours to delete.
    f.write("{\n  \"mcpServers\": {}\n}");
    assert!(!f.uninstall().changed);
    assert!(f.file().exists());
}

#[test]
fn uninstall_puts_back_the_file_that_was_there_byte_for_byte() {
    // Files a team may already have committed: an empty `mcpServers` (which an uninstall
    // without a record would take for cc-search's leftover), odd layouts, an empty file.
    for original in [
        "{\"mcpServers\":{}}",
        "{\r\n\t\"mcpServers\": {\r\n\t}\r\n}\r\n",
        "\u{feff}{\n    \"mcpServers\": {}\n}",
        "",
        OTHERS,
    ] {
        let f = Fixture::new();
        f.write(original);
        assert!(f.install("cc-search", &["mcp"]).changed);
        // The record is in the data root, nothing beside the file.
        assert_eq!(listing(&f.project()), [".mcp.json"]);
        let records = listing(&f._home.path().join("backups"));
        assert_eq!(records.len(), 1, "{records:?}");
        assert!(records[0].starts_with("mcp.json-"), "{records:?}");
        let removed = f.uninstall();
        assert!(removed.changed);
        assert_eq!(f.read(), original, "{original:?}");
        assert_eq!(listing(&f.project()), [".mcp.json"]);
        assert!(
            !f._home.path().join("backups").join(&records[0]).exists(),
            "the record is forgotten after the uninstall"
        );
    }
}

#[test]
fn uninstall_after_someone_else_changed_the_file_keeps_their_changes() {
    // Created by the install, then a teammate added a server: only cc-search's goes.
    let f = Fixture::new();
    f.install("cc-search", &["mcp"]);
    let mut value: Value = serde_json::from_str(&f.read()).unwrap();
    value["mcpServers"]["db"] =
        json!({"type": "stdio", "command": "db-mcp", "args": [], "env": {}});
    f.write(&serde_json::to_string_pretty(&value).unwrap());
    f.uninstall();
    assert_eq!(
        serde_json::from_str::<Value>(&f.read()).unwrap(),
        json!({"mcpServers": {"db": {"type": "stdio", "command": "db-mcp", "args": [], "env": {}}}})
    );

    // Created by the install and only reformatted since: nothing of it is left.
    let f = Fixture::new();
    f.install("cc-search", &["mcp"]);
    let compact: Value = serde_json::from_str(&f.read()).unwrap();
    f.write(&compact.to_string());
    let removed = f.uninstall();
    assert!(
        removed
            .changes
            .contains(&".mcp.json removed: nothing else was in it".to_string())
    );
    assert!(listing(&f.project()).is_empty());
}

#[test]
fn cc_search_entries_are_updated_in_place_keeping_their_env() {
    let f = Fixture::new();
    f.write(
        r#"{
  "mcpServers": {
    "cc-search": {
      "command": "/old/venv/bin/cc-search",
      "args": ["--home", "/data", "mcp"],
      "env": {"CC_SEARCH_LOG": "debug"},
      "x-comment": "mine"
    },
    "after": {"type": "stdio", "command": "other", "args": [], "env": {}}
  }
}"#,
    );
    let response = f.install("/new/venv/bin/cc-search", &["mcp"]);
    assert!(response.changed);
    assert_eq!(
        response.changes,
        [
            "MCP server `cc-search` changed from `/old/venv/bin/cc-search --home /data mcp` to `/new/venv/bin/cc-search mcp`"
        ]
    );
    let value: Value = serde_json::from_str(&f.read()).unwrap();
    let entry = &value["mcpServers"]["cc-search"];
    assert_eq!(
        *entry,
        json!({"command": "/new/venv/bin/cc-search", "args": ["mcp"],
               "env": {"CC_SEARCH_LOG": "debug"}, "x-comment": "mine", "type": "stdio"})
    );
    let keys: Vec<&String> = entry.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["command", "args", "env", "x-comment", "type"]);
    let names: Vec<&String> = value["mcpServers"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["cc-search", "after"]);
    assert!(!f.install("/new/venv/bin/cc-search", &["mcp"]).changed);
}

#[test]
fn another_programs_entry_is_never_clobbered() {
    let f = Fixture::new();
    for foreign in [
        r#"{"mcpServers": {"cc-search": {"type": "stdio", "command": "other-server", "args": ["mcp"]}}}"#,
        r#"{"mcpServers": {"cc-search": {"type": "http", "url": "https://example.com/mcp"}}}"#,
        r#"{"mcpServers": {"cc-search": "cc-search mcp"}}"#,
    ] {
        f.write(foreign);
        let error = f.run(request("cc-search", &["mcp"])).unwrap_err();
        assert_eq!(error.code(), "invalid_request");
        let message = error.to_string();
        assert!(message.contains("not cc-search's"), "{message}");
        assert!(
            message.contains("claude mcp remove -s project cc-search"),
            "{message}"
        );
        assert!(message.contains("left untouched"), "{message}");
        assert_eq!(f.read(), foreign);

        let response = f.uninstall();
        assert!(!response.changed);
        assert_eq!(response.warnings.len(), 1, "{:?}", response.warnings);
        assert!(response.warnings[0].contains("left as it is"));
        assert_eq!(f.read(), foreign);
    }

    // Under another name it installs beside it.
    let response = f
        .run(InstallMcpRequest {
            name: "cc-search-2".into(),
            ..request("cc-search", &["mcp"])
        })
        .unwrap();
    assert!(response.changed);
    let value: Value = serde_json::from_str(&f.read()).unwrap();
    assert_eq!(value["mcpServers"]["cc-search"], "cc-search mcp");
    assert_eq!(value["mcpServers"]["cc-search-2"]["command"], "cc-search");
}

#[test]
fn an_identical_entry_of_any_command_is_accepted_and_removable() {
    let f = Fixture::new();
    let entry = r#"{"mcpServers": {"search": {"type": "stdio", "command": "my-wrapper", "args": ["serve"], "env": {}}}}"#;
    f.write(entry);
    let wrapper = || InstallMcpRequest {
        name: "search".into(),
        ..request("my-wrapper", &["serve"])
    };
    let response = f.run(wrapper()).unwrap();
    assert!(!response.changed);
    assert_eq!(f.read(), entry);
    // Without the command, an uninstall does not know it as cc-search's…
    let kept = f
        .run(InstallMcpRequest {
            name: "search".into(),
            uninstall: true,
            ..Default::default()
        })
        .unwrap();
    assert!(!kept.changed);
    // …with it, it does.
    let removed = f
        .run(InstallMcpRequest {
            uninstall: true,
            ..wrapper()
        })
        .unwrap();
    assert!(removed.changed);
    assert!(!f.file().exists());
}

#[test]
fn malformed_files_are_refused_and_left_untouched() {
    let f = Fixture::new();
    for (text, expected) in [
        ("{\"mcpServers\": {", "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        ("\"text\"", "not a JSON object"),
        (
            r#"{"mcpServers": []}"#,
            "`mcpServers` is an array, not an object",
        ),
        (
            r#"{"mcpServers": "x"}"#,
            "`mcpServers` is a string, not an object",
        ),
    ] {
        f.write(text);
        fs::set_permissions(f.file(), fs::Permissions::from_mode(0o640)).unwrap();
        for uninstall in [false, true] {
            let error = f
                .run(InstallMcpRequest {
                    uninstall,
                    ..request("cc-search", &["mcp"])
                })
                .unwrap_err();
            assert_eq!(error.code(), "invalid_request", "{text}");
            let message = error.to_string();
            assert!(message.contains(expected), "{text}: {message}");
            assert!(message.contains(".mcp.json"), "{message}");
            assert_eq!(f.read(), text);
            assert_eq!(mode(&f.file()), 0o640);
        }
        assert_eq!(listing(&f.project()), [".mcp.json"]);
    }
    // An empty file is an empty object.
    f.write("\n");
    assert!(f.install("cc-search", &["mcp"]).changed);
    assert_eq!(f.read(), FRESH);
}

#[test]
fn permissions_are_kept() {
    let f = Fixture::new();
    f.write(OTHERS);
    fs::set_permissions(f.file(), fs::Permissions::from_mode(0o640)).unwrap();
    f.install("cc-search", &["mcp"]);
    assert_eq!(mode(&f.file()), 0o640);
    f.uninstall();
    assert_eq!(mode(&f.file()), 0o640);
    assert_eq!(listing(&f.project()), [".mcp.json"]);
}

#[test]
fn a_symlinked_file_stays_a_link() {
    let f = Fixture::new();
    let shared = f.dir.path().join("shared.json");
    fs::write(&shared, OTHERS).unwrap();
    std::os::unix::fs::symlink(&shared, f.file()).unwrap();
    let response = f.install("cc-search", &["mcp"]);
    assert!(response.changed);
    assert!(
        response
            .warnings
            .iter()
            .any(|w| w.contains("symbolic link")),
        "{:?}",
        response.warnings
    );
    assert!(
        fs::symlink_metadata(f.file())
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&shared).unwrap(), OTHERS_INSTALLED);

    // Uninstalling from a linked file puts its target back as it was, never deletes it.
    fs::write(&shared, "").unwrap();
    f.install("cc-search", &["mcp"]);
    assert!(f.uninstall().changed);
    let link = fs::symlink_metadata(f.file()).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(fs::read_to_string(&shared).unwrap(), "");

    // Changed since the install, it is emptied rather than deleted.
    f.install("cc-search", &["mcp"]);
    fs::write(
        &shared,
        r#"{"mcpServers": {"cc-search": {"command": "cc-search", "args": ["mcp"]}}}"#,
    )
    .unwrap();
    assert!(f.uninstall().changed);
    assert!(
        fs::symlink_metadata(f.file())
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&shared).unwrap(), r#"{"mcpServers":{}}"#);
}

#[test]
fn a_command_not_found_here_is_a_warning() {
    let f = Fixture::new();
    let missing = f.install("/nonexistent/bin/cc-search", &["mcp"]);
    assert!(missing.changed);
    assert_eq!(missing.warnings.len(), 2, "{:?}", missing.warnings);
    assert!(missing.warnings[0].contains("does not exist here"));
    // `.mcp.json` is shared: a path of this machine in it is worth a warning too.
    assert!(
        missing.warnings[1].contains("`/nonexistent/bin/cc-search`, a path on this machine"),
        "{:?}",
        missing.warnings
    );
    let off_path = f.install("cc-search-not-on-any-path-here", &["mcp"]);
    assert!(
        off_path.warnings[0].contains("is not on this PATH"),
        "{off_path:?}"
    );
    for command in ["/bin/sh", "sh"] {
        let found = f
            .run(InstallMcpRequest {
                name: format!("shell-{}", command.len()),
                ..request(command, &["-c", "exec cc-search mcp"])
            })
            .unwrap();
        let machine_path = found
            .warnings
            .iter()
            .any(|w| w.contains("a path on this machine"));
        assert_eq!(
            found.warnings.len(),
            usize::from(machine_path),
            "{:?}",
            found.warnings
        );
        assert_eq!(machine_path, command.starts_with('/'));
        assert!(found.changed);
    }
}

#[test]
fn requests_are_checked() {
    let f = Fixture::new();
    let project = f.project();
    let call = |params: Value| f.engine.call("claude.install_mcp", &params.to_string());
    for (params, expected) in [
        (
            json!({"scope": "project", "project_dir": project}),
            "`command` is required",
        ),
        (
            json!({"scope": "project", "project_dir": project, "command": " "}),
            "`command` is required",
        ),
        (
            json!({"scope": "project", "project_dir": project, "command": "x", "name": "a.b"}),
            "letters, digits",
        ),
        (
            json!({"scope": "project", "project_dir": project, "command": "x", "name": ""}),
            "letters, digits",
        ),
        (
            json!({"scope": "project", "project_dir": project, "command": "x\u{0}"}),
            "NUL",
        ),
        (
            json!({"scope": "project", "project_dir": project, "command": "x", "args": ["\u{0}"]}),
            "NUL",
        ),
        (
            json!({"scope": "project", "project_dir": project, "command": "x", "force": true}),
            "unknown field",
        ),
        (
            json!({"scope": "project", "project_dir": project, "command": "x", "args": "mcp"}),
            "args",
        ),
        (json!({"scope": "everywhere", "command": "x"}), "scope"),
        (
            json!({"scope": "user", "project_dir": project, "command": "x"}),
            "only for scope `project`",
        ),
        (
            json!({"scope": "project", "project_dir": project.join("missing"), "command": "x"}),
            "",
        ),
    ] {
        let error = call(params.clone()).unwrap_err();
        assert!(
            matches!(error.code(), "invalid_request" | "io"),
            "{params}: {error}"
        );
        assert!(error.to_string().contains(expected), "{params}: {error}");
    }
    assert!(!f.file().exists(), "a refused request writes nothing");
}

#[test]
fn the_operation_is_in_the_table_and_not_an_mcp_tool() {
    let op = cc_search::registry::find("claude.install_mcp").unwrap();
    assert!(op.writes_user_settings);
    let schema = op.request_schema().to_string();
    for field in [
        "scope",
        "project_dir",
        "name",
        "command",
        "args",
        "uninstall",
    ] {
        assert!(schema.contains(field), "{field} in {schema}");
    }
    assert!(schema.contains(r#""default":"cc-search""#), "{schema}");
    let response = op.response_schema().to_string();
    for field in ["path", "changed", "changes", "warnings"] {
        assert!(response.contains(field), "{field} in {response}");
    }
    let names: Vec<&str> = cc_search::OPERATIONS.iter().map(|op| op.name).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "the table stays in name order");
}

// ---------------------------------------------------------------------------------------
// user scope: Claude Code's ~/.claude.json (child processes: they set HOME)

/// A `~/.claude.json` as Claude Code keeps it: no final newline, much else in it.
const STATE: &str = r#"{
  "numStartups": 12,
  "firstStartTime": "2026-01-01T00:00:00.000Z",
  "userID": "abc",
  "projects": {
    "/work/app": {
      "allowedTools": [],
      "mcpServers": {},
      "hasTrustDialogAccepted": true
    }
  },
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/"
    }
  },
  "tipsHistory": {
    "new-user-warmup": 1
  }
}"#;

const STATE_INSTALLED: &str = r#"{
  "numStartups": 12,
  "firstStartTime": "2026-01-01T00:00:00.000Z",
  "userID": "abc",
  "projects": {
    "/work/app": {
      "allowedTools": [],
      "mcpServers": {},
      "hasTrustDialogAccepted": true
    }
  },
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/"
    },
    "cc-search": {
      "type": "stdio",
      "command": "/home/u/.venv/bin/cc-search",
      "args": [
        "mcp"
      ],
      "env": {}
    }
  },
  "tipsHistory": {
    "new-user-warmup": 1
  }
}"#;

const USER_COMMAND: &str = "/home/u/.venv/bin/cc-search";

fn run_user(request: InstallMcpRequest) -> InstallMcpResponse {
    let engine = Engine::open_at(std::env::temp_dir().join("cc-search-claude-mcp-unused")).unwrap();
    engine.run::<InstallMcp>(request).unwrap()
}

#[test]
fn user_install_edits_home_claude_json_and_keeps_everything_else() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join(".claude.json");
    fs::write(&state, STATE).unwrap();
    fs::set_permissions(&state, fs::Permissions::from_mode(0o600)).unwrap();
    if in_child(
        "user_install_edits_home_claude_json_and_keeps_everything_else",
        &[("HOME", dir.path().as_os_str())],
    ) {
        let home = PathBuf::from(std::env::var_os("HOME").unwrap());
        assert_eq!(
            cc_search::claude::user_state_file(),
            Some(home.join(".claude.json"))
        );
        let response = run_user(request(USER_COMMAND, &["mcp"]));
        assert!(response.changed);
        assert_eq!(
            response.path,
            home.join(".claude.json").display().to_string()
        );
        assert!(!run_user(request(USER_COMMAND, &["mcp"])).changed);
        return;
    }
    assert_eq!(fs::read_to_string(&state).unwrap(), STATE_INSTALLED);
    assert_eq!(mode(&state), 0o600);
    assert_eq!(
        listing(dir.path()),
        [".claude.json"],
        "no backup, no temp file"
    );
}

#[test]
fn user_uninstall_removes_only_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join(".claude.json");
    fs::write(&state, STATE_INSTALLED).unwrap();
    fs::set_permissions(&state, fs::Permissions::from_mode(0o600)).unwrap();
    if in_child(
        "user_uninstall_removes_only_the_entry",
        &[("HOME", dir.path().as_os_str())],
    ) {
        let response = run_user(InstallMcpRequest {
            uninstall: true,
            ..Default::default()
        });
        assert!(response.changed);
        assert!(
            !run_user(InstallMcpRequest {
                uninstall: true,
                ..Default::default()
            })
            .changed
        );
        return;
    }
    assert_eq!(fs::read_to_string(&state).unwrap(), STATE);
    assert_eq!(mode(&state), 0o600);
    assert_eq!(listing(dir.path()), [".claude.json"]);
}

#[test]
fn user_scope_follows_claude_config_dir_and_creates_a_private_file() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    let home = dir.path().join("home");
    fs::create_dir(&home).unwrap();
    if in_child(
        "user_scope_follows_claude_config_dir_and_creates_a_private_file",
        &[
            ("HOME", home.as_os_str()),
            ("CLAUDE_CONFIG_DIR", config.as_os_str()),
        ],
    ) {
        let config = PathBuf::from(std::env::var_os("CLAUDE_CONFIG_DIR").unwrap());
        let response = run_user(request(USER_COMMAND, &["mcp"]));
        assert_eq!(
            response.path,
            config.join(".claude.json").display().to_string()
        );
        let response = run_user(InstallMcpRequest {
            uninstall: true,
            ..Default::default()
        });
        assert!(response.changed);
        assert_eq!(
            response.changes,
            [format!(
                "MCP server `cc-search` removed (`{USER_COMMAND} mcp`)"
            )]
        );
        return;
    }
    let state = config.join(".claude.json");
    assert_eq!(
        fs::read_to_string(&state).unwrap(),
        "{\n  \"mcpServers\": {}\n}\n",
        "the state file stays, with an empty mcpServers"
    );
    assert_eq!(mode(&state), 0o600, "created private, as Claude Code does");
    assert_eq!(listing(&config), [".claude.json"]);
    assert!(listing(&home).is_empty(), "$HOME is not touched");
}

#[test]
fn user_scope_uses_a_legacy_config_json_when_there_is_one() {
    let dir = tempfile::tempdir().unwrap();
    let legacy = dir.path().join(".claude/.config.json");
    fs::create_dir(dir.path().join(".claude")).unwrap();
    fs::write(&legacy, "{\"userID\": \"old\"}\n").unwrap();
    if in_child(
        "user_scope_uses_a_legacy_config_json_when_there_is_one",
        &[("HOME", dir.path().as_os_str())],
    ) {
        let response = run_user(request(USER_COMMAND, &["mcp"]));
        assert!(
            response.path.ends_with(".claude/.config.json"),
            "{response:?}"
        );
        return;
    }
    let value: Value = serde_json::from_str(&fs::read_to_string(&legacy).unwrap()).unwrap();
    assert_eq!(value["userID"], "old");
    assert_eq!(value["mcpServers"]["cc-search"]["command"], USER_COMMAND);
    assert!(!dir.path().join(".claude.json").exists());
}

#[test]
fn user_scope_without_home_or_config_dir_is_refused() {
    if in_child("user_scope_without_home_or_config_dir_is_refused", &[]) {
        let engine =
            Engine::open_at(std::env::temp_dir().join("cc-search-claude-mcp-unused")).unwrap();
        let error = engine
            .run::<InstallMcp>(request(USER_COMMAND, &["mcp"]))
            .unwrap_err();
        assert_eq!(error.code(), "invalid_request");
        assert!(error.to_string().contains("$HOME"), "{error}");
    }
}
