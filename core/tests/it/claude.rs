//! Claude Code settings on real files: `claude.install` (install, reinstall, uninstall,
//! malformed files, scopes) and `claude::additional_directories`.
//!
//! Tests that depend on environment variables (`CLAUDE_CONFIG_DIR`, `HOME`,
//! `CLAUDE_PROJECT_DIR`) run their body in a child process of this test binary with the
//! variables set there, so the tests running in parallel here never see them change and
//! the real `~/.claude` is never touched.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use cc_search::Engine;
use cc_search::claude::{
    self, CommandKind, Install, InstallRequest, InstallResponse, Scope, is_cc_search_command,
};
use serde_json::{Value, json};

use crate::common;

use common::listing;

const FS: &str = "$CLAUDE_PROJECT_DIR/node_modules/cc-search/hooks/file-suggestion.sh";
const SS: &str = "$CLAUDE_PROJECT_DIR/node_modules/cc-search/hooks/session-start.sh";
const PY_FS: &str = "/home/u/.venv/bin/cc-search hook file-suggestion";
const PY_SS: &str = "/home/u/.venv/bin/cc-search hook session-start";

/// Settings as Claude Code writes them (`JSON.stringify(settings, null, 2)` and a newline),
/// with another hook, another SessionStart entry and keys cc-search does not know.
const EXISTING: &str = r#"{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": [
      "Bash(git status)"
    ],
    "additionalDirectories": [
      "../shared"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "echo pre"
          }
        ]
      }
    ],
    "SessionStart": [
      {
        "matcher": "resume",
        "hooks": [
          {
            "type": "command",
            "command": "echo resumed",
            "timeout": 30
          }
        ]
      }
    ]
  },
  "model": "opus",
  "unknownFutureKey": {
    "zeta": [
      1,
      2.5,
      null,
      true,
      "café \"quoted\"\ttab"
    ],
    "alpha": {}
  }
}
"#;

/// [`EXISTING`] after installing [`FS`] and [`SS`]: byte for byte the same except for
/// cc-search's two additions.
const EXISTING_INSTALLED: &str = r#"{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": [
      "Bash(git status)"
    ],
    "additionalDirectories": [
      "../shared"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "echo pre"
          }
        ]
      }
    ],
    "SessionStart": [
      {
        "matcher": "resume",
        "hooks": [
          {
            "type": "command",
            "command": "echo resumed",
            "timeout": 30
          }
        ]
      },
      {
        "matcher": "startup",
        "hooks": [
          {
            "type": "command",
            "command": "$CLAUDE_PROJECT_DIR/node_modules/cc-search/hooks/session-start.sh"
          }
        ]
      }
    ]
  },
  "model": "opus",
  "unknownFutureKey": {
    "zeta": [
      1,
      2.5,
      null,
      true,
      "café \"quoted\"\ttab"
    ],
    "alpha": {}
  },
  "fileSuggestion": {
    "type": "command",
    "command": "$CLAUDE_PROJECT_DIR/node_modules/cc-search/hooks/file-suggestion.sh"
  }
}
"#;

/// A new settings file holding only cc-search's entries.
const FRESH_INSTALLED: &str = r#"{
  "fileSuggestion": {
    "type": "command",
    "command": "$CLAUDE_PROJECT_DIR/node_modules/cc-search/hooks/file-suggestion.sh"
  },
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup",
        "hooks": [
          {
            "type": "command",
            "command": "$CLAUDE_PROJECT_DIR/node_modules/cc-search/hooks/session-start.sh"
          }
        ]
      }
    ]
  }
}
"#;

struct Fixture {
    home: tempfile::TempDir,
    dir: tempfile::TempDir,
    engine: Engine,
}

impl Fixture {
    fn new() -> Fixture {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("project")).unwrap();
        let engine = Engine::open_at(home.path()).unwrap();
        Fixture { home, dir, engine }
    }

    /// `<data root>/backups`, where the backups and install records are.
    fn backups(&self) -> PathBuf {
        self.home.path().join(claude::BACKUPS_DIR)
    }

    /// The project directory (canonical).
    fn project(&self) -> PathBuf {
        fs::canonicalize(self.dir.path().join("project")).unwrap()
    }

    fn claude_dir(&self) -> PathBuf {
        self.project().join(".claude")
    }

    fn settings(&self) -> PathBuf {
        self.claude_dir().join("settings.json")
    }

    fn write_settings(&self, text: &[u8]) {
        fs::create_dir_all(self.claude_dir()).unwrap();
        fs::write(self.settings(), text).unwrap();
    }

    fn read_settings(&self) -> String {
        fs::read_to_string(self.settings()).unwrap()
    }

    fn run(&self, request: InstallRequest) -> cc_search::Result<InstallResponse> {
        self.engine.run::<Install>(InstallRequest {
            scope: Scope::Project,
            project_dir: Some(self.project()),
            ..request
        })
    }

    fn install(&self, fs_command: &str, ss_command: &str) -> InstallResponse {
        self.run(InstallRequest {
            file_suggestion_command: fs_command.into(),
            session_start_command: ss_command.into(),
            ..Default::default()
        })
        .unwrap()
    }

    fn uninstall(&self) -> InstallResponse {
        self.run(InstallRequest {
            uninstall: true,
            ..Default::default()
        })
        .unwrap()
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// Run the calling test's body in a child process with `env` set (and the Claude Code
/// variables not given removed): `true` in the child, `false` in the parent once the
/// child passed.
fn in_child(name: &str, env: &[(&str, &OsStr)]) -> bool {
    common::in_child(module_path!(), name, env, None)
}

// ---------------------------------------------------------------------------------------
// install

#[test]
fn install_creates_the_settings_file_and_its_directory() {
    let f = Fixture::new();
    assert!(!f.claude_dir().exists());
    let response = f.install(FS, SS);
    assert_eq!(
        response,
        InstallResponse {
            settings_path: f.settings().display().to_string(),
            changed: true,
            backup: None,
            changes: vec![
                format!("fileSuggestion set to `{FS}`"),
                format!("SessionStart hook added: `{SS}`"),
            ],
            warnings: vec![],
        }
    );
    assert_eq!(f.read_settings(), FRESH_INSTALLED);
    assert_eq!(listing(&f.claude_dir()), ["settings.json"]);
}

#[test]
fn install_keeps_every_other_key_in_order_byte_for_byte_and_backs_up_first() {
    let f = Fixture::new();
    f.write_settings(EXISTING.as_bytes());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(f.settings(), fs::Permissions::from_mode(0o600)).unwrap();
    }
    let response = f.install(FS, SS);
    assert!(response.changed);
    assert_eq!(f.read_settings(), EXISTING_INSTALLED);

    // The backup holds the previous bytes, in the data root, under the name reported;
    // nothing is left beside the file (no backup, no temporary file).
    let backup = PathBuf::from(response.backup.expect("a backup"));
    assert_eq!(backup.parent().unwrap().parent().unwrap(), f.backups());
    assert_eq!(backup.file_name().unwrap(), "settings.json");
    assert_eq!(fs::read_to_string(&backup).unwrap(), EXISTING);
    assert_eq!(listing(&f.claude_dir()), ["settings.json"]);
    assert_eq!(
        listing(backup.parent().unwrap()),
        ["record.json", "settings.json"]
    );

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&f.settings()), 0o600, "the file keeps its permissions");
        assert_eq!(mode(&backup), 0o600, "the backup is private");
        assert_eq!(mode(backup.parent().unwrap()), 0o700);
    }
}

#[test]
fn a_second_install_changes_nothing_and_writes_nothing() {
    let f = Fixture::new();
    f.write_settings(EXISTING.as_bytes());
    assert!(f.install(FS, SS).changed);
    let files = listing(&f.claude_dir());
    let before = fs::metadata(f.settings()).unwrap();

    let again = f.install(FS, SS);
    assert_eq!(
        again,
        InstallResponse {
            settings_path: f.settings().display().to_string(),
            changed: false,
            backup: None,
            changes: vec![],
            warnings: vec![],
        }
    );
    assert_eq!(f.read_settings(), EXISTING_INSTALLED);
    assert_eq!(
        listing(&f.claude_dir()),
        files,
        "no new backup, no temporary file"
    );
    let after = fs::metadata(f.settings()).unwrap();
    assert_eq!(before.modified().unwrap(), after.modified().unwrap());
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        assert_eq!(before.ino(), after.ino(), "the file was not replaced");
    }
}

#[test]
fn reinstalling_other_commands_replaces_cc_search_entries_in_place() {
    let f = Fixture::new();
    f.write_settings(EXISTING.as_bytes());
    f.install(PY_FS, PY_SS);
    let response = f.install(FS, SS);
    assert!(response.changed);
    assert_eq!(
        response.changes,
        [
            format!("fileSuggestion changed from `{PY_FS}` to `{FS}`"),
            format!("SessionStart hook changed from `{PY_SS}` to `{SS}`"),
        ]
    );
    assert!(response.warnings.is_empty(), "{:?}", response.warnings);
    // Exactly what a direct install of the new commands gives: no duplicate, same place.
    assert_eq!(f.read_settings(), EXISTING_INSTALLED);

    // A user's entry that also holds an old cc-search hook keeps the user's hook only; the
    // one cc-search entry takes the place of the first entry that held a cc-search hook.
    let mixed = json!({
        "hooks": {
            "SessionStart": [
                {"matcher": "clear", "hooks": [{"type": "command", "command": "echo clear"}]},
                {"matcher": "startup", "hooks": [
                    {"type": "command", "command": "echo mine"},
                    {"type": "command", "command": "~/.config/claude/file-picker/hooks/session-start.sh"}
                ]},
                {"matcher": "startup", "hooks": [{"type": "command", "command": PY_SS}]}
            ]
        }
    });
    f.write_settings(serde_json::to_string_pretty(&mixed).unwrap().as_bytes());
    f.install(FS, SS);
    let installed = parse(&f.read_settings());
    assert_eq!(
        installed["hooks"]["SessionStart"],
        json!([
            {"matcher": "clear", "hooks": [{"type": "command", "command": "echo clear"}]},
            {"matcher": "startup", "hooks": [{"type": "command", "command": SS}]},
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo mine"}]}
        ])
    );
    // And that is stable.
    assert!(!f.install(FS, SS).changed);
}

#[test]
fn the_same_command_under_another_matcher_is_moved_to_startup() {
    let f = Fixture::new();
    let settings = json!({"hooks": {"SessionStart": [
        {"matcher": "startup|resume", "hooks": [{"type": "command", "command": SS}]}
    ]}});
    f.write_settings(settings.to_string().as_bytes());
    let response = f.install(FS, SS);
    assert!(response.changes.contains(&format!(
        "SessionStart hook `{SS}` set to matcher `startup`"
    )));
    assert_eq!(
        parse(&f.read_settings())["hooks"]["SessionStart"],
        json!([{"matcher": "startup", "hooks": [{"type": "command", "command": SS}]}])
    );
}

#[test]
fn another_programs_file_suggestion_is_replaced_with_a_warning() {
    let f = Fixture::new();
    f.write_settings(br#"{"fileSuggestion": {"type": "command", "command": "my-picker --fast"}, "model": "opus"}"#);
    let response = f.install(FS, SS);
    assert_eq!(response.warnings.len(), 1);
    assert!(response.warnings[0].contains("`my-picker --fast` is not cc-search's"));
    let backup = response.backup.unwrap();
    assert!(
        fs::read_to_string(backup)
            .unwrap()
            .contains("my-picker --fast")
    );
    let installed = parse(&f.read_settings());
    assert_eq!(installed["fileSuggestion"]["command"], FS);
    // The key keeps its place, before `model`.
    let keys: Vec<&String> = installed.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["fileSuggestion", "model", "hooks"]);
}

// ---------------------------------------------------------------------------------------
// uninstall

#[test]
fn uninstall_restores_the_original_file() {
    let f = Fixture::new();
    f.write_settings(EXISTING.as_bytes());
    f.install(PY_FS, PY_SS);
    let installed = f.read_settings();

    let response = f.uninstall();
    assert!(response.changed);
    assert_eq!(
        response.changes,
        [
            format!("fileSuggestion `{PY_FS}` removed"),
            format!("SessionStart hook `{PY_SS}` removed"),
            "settings.json put back byte for byte as it was before cc-search's install".into(),
        ]
    );
    assert_eq!(parse(&f.read_settings()), parse(EXISTING));
    // Key order and layout too: the very same bytes.
    assert_eq!(f.read_settings(), EXISTING);
    // The uninstall backed up what it replaced.
    assert_eq!(
        fs::read_to_string(response.backup.unwrap()).unwrap(),
        installed
    );

    // A second uninstall has nothing to do.
    let files = listing(&f.claude_dir());
    let again = f.uninstall();
    assert!(!again.changed && again.backup.is_none() && again.changes.is_empty());
    assert_eq!(listing(&f.claude_dir()), files);
}

#[test]
fn uninstall_removes_only_what_install_added() {
    let f = Fixture::new();
    let settings = json!({
        "fileSuggestion": {"type": "command", "command": "my-picker"},
        "hooks": {
            "SessionStart": [
                {"matcher": "startup", "hooks": [
                    {"type": "command", "command": "echo mine"},
                    {"type": "command", "command": SS}
                ]},
                {"matcher": "startup", "hooks": [{"type": "command", "command": PY_SS}]},
                {"matcher": "resume", "hooks": [{"type": "command", "command": "echo resumed"}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]
        }
    });
    f.write_settings(serde_json::to_string_pretty(&settings).unwrap().as_bytes());
    let response = f.uninstall();
    assert!(response.changed);
    assert_eq!(
        response.warnings,
        ["fileSuggestion `my-picker` is not cc-search's; left as it is"]
    );
    assert_eq!(
        parse(&f.read_settings()),
        json!({
            "fileSuggestion": {"type": "command", "command": "my-picker"},
            "hooks": {
                "SessionStart": [
                    {"matcher": "startup", "hooks": [{"type": "command", "command": "echo mine"}]},
                    {"matcher": "resume", "hooks": [{"type": "command", "command": "echo resumed"}]}
                ],
                "Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]
            }
        })
    );

    // Containers emptied by the removal go; the rest stays.
    f.write_settings(
        serde_json::to_string_pretty(&json!({
            "model": "opus",
            "hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": FS.replace("file-suggestion", "session-start")}]}]},
            "fileSuggestion": {"type": "command", "command": FS}
        }))
        .unwrap()
        .as_bytes(),
    );
    f.uninstall();
    assert_eq!(f.read_settings(), "{\n  \"model\": \"opus\"\n}");

    // A fresh install undone leaves no file, and no `.claude/` that it created.
    let g = Fixture::new();
    g.install(FS, SS);
    let response = g.uninstall();
    assert_eq!(
        response.changes[2..],
        [
            "settings.json removed: nothing else was in it",
            ".claude/ removed: cc-search's install created it and it is empty",
        ]
    );
    assert!(!g.claude_dir().exists());
}

#[test]
fn uninstall_recognises_the_commands_it_is_given() {
    // Written by hand (no install record): the commands are not recognisably cc-search's.
    let f = Fixture::new();
    let settings = json!({
        "fileSuggestion": {"type": "command", "command": "run-picker"},
        "hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "start-picker"}]}]}
    });
    f.write_settings(serde_json::to_string_pretty(&settings).unwrap().as_bytes());
    assert!(!f.uninstall().changes.iter().any(|c| c.contains("removed")));
    let response = f
        .run(InstallRequest {
            uninstall: true,
            file_suggestion_command: "run-picker".into(),
            session_start_command: "start-picker".into(),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(response.changes.len(), 3, "{:?}", response.changes);
    // Nothing else was in it: no `{}` is left; the directory was not cc-search's.
    assert!(!f.settings().exists());
    assert!(f.claude_dir().exists());

    // Installed by cc-search and untouched since: put back whatever the commands.
    let g = Fixture::new();
    g.install("run-picker", "start-picker");
    assert!(g.uninstall().changed);
    assert!(!g.claude_dir().exists());
}

#[test]
fn uninstall_without_a_file_or_without_cc_search_writes_nothing() {
    let f = Fixture::new();
    let response = f.uninstall();
    assert!(!response.changed);
    assert!(!f.claude_dir().exists(), "nothing is created");

    f.write_settings(EXISTING.as_bytes());
    let response = f.uninstall();
    assert!(!response.changed && response.backup.is_none());
    assert_eq!(f.read_settings(), EXISTING);
    assert_eq!(listing(&f.claude_dir()), ["settings.json"]);
}

// ---------------------------------------------------------------------------------------
// bad files and requests

#[test]
fn malformed_settings_are_refused_and_left_untouched() {
    let cases: &[(&[u8], &str)] = &[
        (b"{\"model\": ", "not valid JSON"),
        (b"{\"a\": 1} trailing", "not valid JSON"),
        (b"{\"a\": 1,}", "not valid JSON"),
        (b"// comment\n{}", "not valid JSON"),
        (b"\xff\xfe{}", "not valid JSON"),
        (b"[1, 2]", "holds an array, not a JSON object"),
        (b"\"text\"", "holds a string, not a JSON object"),
        (b"null", "holds null, not a JSON object"),
        (br#"{"hooks": []}"#, "`hooks` is an array, not an object"),
        (
            br#"{"hooks": {"SessionStart": {"matcher": "startup"}}}"#,
            "`hooks.SessionStart` is an object, not an array",
        ),
    ];
    for (text, expected) in cases {
        let f = Fixture::new();
        f.write_settings(text);
        let error = f
            .run(InstallRequest {
                file_suggestion_command: FS.into(),
                session_start_command: SS.into(),
                ..Default::default()
            })
            .unwrap_err();
        let message = error.to_string();
        assert_eq!(error.code(), "invalid_request", "{message}");
        assert!(message.contains(expected), "{message}");
        assert!(
            message.contains(&f.settings().display().to_string()),
            "{message}"
        );
        assert!(message.contains("untouched"), "{message}");
        assert_eq!(fs::read(f.settings()).unwrap(), *text, "file untouched");
        assert_eq!(
            listing(&f.claude_dir()),
            ["settings.json"],
            "no backup, no temp"
        );
    }

    // Uninstalling from a malformed file is refused the same way.
    let f = Fixture::new();
    f.write_settings(b"{oops");
    let error = f
        .run(InstallRequest {
            uninstall: true,
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(error.code(), "invalid_request");
    assert_eq!(fs::read(f.settings()).unwrap(), b"{oops");
}

#[test]
fn an_empty_settings_file_is_an_empty_object() {
    let f = Fixture::new();
    f.write_settings(b"  \n");
    let response = f.install(FS, SS);
    assert!(response.backup.is_some());
    assert_eq!(f.read_settings(), FRESH_INSTALLED);
}

#[test]
fn requests_are_checked() {
    let f = Fixture::new();
    let project = f.project();
    let call = |params: Value| f.engine.call("claude.install", &params.to_string());
    let refused = [
        json!({"scope": "project", "project_dir": project}),
        json!({"scope": "project", "project_dir": project, "file_suggestion_command": FS, "session_start_command": "  "}),
        json!({"scope": "project", "project_dir": project, "file_suggestion_command": "a\nb", "session_start_command": SS}),
        json!({"scope": "global", "file_suggestion_command": FS, "session_start_command": SS}),
        json!({"scope": "user", "project_dir": project, "file_suggestion_command": FS, "session_start_command": SS}),
        json!({"scope": "project", "project_dir": project, "uninstall": true, "force": true}),
        json!({"scope": "project", "project_dir": project.join(".claude-not-a-dir"), "uninstall": "yes"}),
    ];
    for params in refused {
        let error = call(params.clone()).unwrap_err();
        assert_eq!(error.code(), "invalid_request", "{params}: {error}");
    }
    fs::write(project.join("file"), "").unwrap();
    let error =
        call(json!({"scope": "project", "project_dir": project.join("file"), "uninstall": true}))
            .unwrap_err();
    assert!(error.to_string().contains("is not a directory"), "{error}");
    let error = call(
        json!({"scope": "project", "project_dir": project.join("missing"), "uninstall": true}),
    )
    .unwrap_err();
    assert_eq!(error.code(), "io");
    assert!(
        !project.join(".claude").exists(),
        "a refused request writes nothing"
    );

    // By name with JSON, as every surface calls it.
    let out = call(json!({
        "scope": "project",
        "project_dir": project,
        "file_suggestion_command": FS,
        "session_start_command": SS,
    }))
    .unwrap();
    let out = parse(&out);
    assert_eq!(out["changed"], true);
    assert_eq!(out["backup"], Value::Null);
    assert_eq!(out["settings_path"], f.settings().display().to_string());
    assert_eq!(f.read_settings(), FRESH_INSTALLED);
}

#[test]
fn the_operation_is_in_the_table() {
    let op = cc_search::registry::find("claude.install").unwrap();
    let schema = op.request_schema().to_string();
    for field in [
        "scope",
        "project_dir",
        "file_suggestion_command",
        "session_start_command",
        "uninstall",
    ] {
        assert!(schema.contains(field), "{field} in {schema}");
    }
    let names: Vec<&str> = cc_search::OPERATIONS.iter().map(|op| op.name).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "the table stays in name order");
}

#[test]
fn layouts_are_kept() {
    // Four spaces, no final newline.
    let f = Fixture::new();
    f.write_settings(
        b"{\n    \"model\": \"opus\",\n    \"env\": {\n        \"A\": \"1\"\n    }\n}",
    );
    f.install(FS, SS);
    let text = f.read_settings();
    assert!(
        text.starts_with("{\n    \"model\": \"opus\",\n    \"env\": {\n        \"A\": \"1\"\n    },\n    \"fileSuggestion\": {\n        \"type\""),
        "{text}"
    );
    assert!(text.ends_with("\n}"), "{text:?}");

    // Tabs and CRLF.
    let f = Fixture::new();
    f.write_settings(b"{\r\n\t\"model\": \"opus\"\r\n}\r\n");
    f.install(FS, SS);
    let text = f.read_settings();
    assert!(
        text.starts_with("{\r\n\t\"model\": \"opus\",\r\n\t\"fileSuggestion\": {\r\n\t\t\"type\""),
        "{text:?}"
    );
    assert!(
        !text.replace("\r\n", "").contains('\n'),
        "every line ends in CRLF"
    );
    assert!(text.ends_with("}\r\n"));

    // One line stays one line.
    let f = Fixture::new();
    f.write_settings(br#"{"model":"opus"}"#);
    f.install(FS, SS);
    assert_eq!(
        f.read_settings(),
        format!(
            r#"{{"model":"opus","fileSuggestion":{{"type":"command","command":"{FS}"}},"hooks":{{"SessionStart":[{{"matcher":"startup","hooks":[{{"type":"command","command":"{SS}"}}]}}]}}}}"#
        )
    );
}

#[cfg(unix)]
#[test]
fn a_symlinked_settings_file_stays_a_link() {
    let f = Fixture::new();
    let dotfiles = f.dir.path().join("dotfiles");
    fs::create_dir(&dotfiles).unwrap();
    fs::write(dotfiles.join("claude.json"), EXISTING).unwrap();
    fs::create_dir(f.claude_dir()).unwrap();
    std::os::unix::fs::symlink("../../dotfiles/claude.json", f.settings()).unwrap();

    let response = f.install(FS, SS);
    assert!(
        fs::symlink_metadata(f.settings())
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read_to_string(dotfiles.join("claude.json")).unwrap(),
        EXISTING_INSTALLED
    );
    let backup = PathBuf::from(response.backup.unwrap());
    assert_eq!(backup.parent().unwrap().parent().unwrap(), f.backups());
    assert_eq!(fs::read_to_string(backup).unwrap(), EXISTING);
    assert_eq!(listing(&dotfiles), ["claude.json"]);
    assert_eq!(response.warnings.len(), 1);
    assert!(response.warnings[0].contains("is a symbolic link"));

    // The uninstall puts the target back; the link stays.
    f.uninstall();
    assert!(
        fs::symlink_metadata(f.settings())
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read_to_string(dotfiles.join("claude.json")).unwrap(),
        EXISTING
    );
}

#[test]
fn one_backup_per_settings_file_replaced_on_each_write() {
    let f = Fixture::new();
    f.write_settings(EXISTING.as_bytes());
    let first = f.install(PY_FS, PY_SS);
    let installed_py = f.read_settings();
    let second = f.install(FS, SS);
    let third = f.uninstall();
    let backup = PathBuf::from(first.backup.unwrap());
    assert_eq!(second.backup.as_deref(), backup.to_str());
    assert_eq!(third.backup.as_deref(), backup.to_str());
    // Each write replaced it: it holds what the uninstall replaced.
    assert_eq!(fs::read_to_string(&backup).unwrap(), EXISTING_INSTALLED);
    assert_ne!(installed_py, EXISTING_INSTALLED);
    assert_eq!(listing(&f.claude_dir()), ["settings.json"]);
    assert_eq!(listing(backup.parent().unwrap()), ["settings.json"]);
    assert_eq!(listing(&f.backups()).len(), 1);
    // The record of the first install served: the file is as it was before it.
    assert_eq!(f.read_settings(), EXISTING);

    // Another project's settings have their own.
    let mut g = Fixture::new();
    g.engine = Engine::open_at(f.home.path()).unwrap();
    g.write_settings(b"{}");
    let other = PathBuf::from(g.install(FS, SS).backup.unwrap());
    assert_ne!(other.parent(), backup.parent());
    assert_eq!(other.parent().unwrap().parent().unwrap(), f.backups());
    assert_eq!(listing(&f.backups()).len(), 2);
}

/// Settings as a team may have committed them, each in its own layout.
const LAYOUTS: &[&str] = &[
    EXISTING,
    "{}",
    "{}\n",
    "",
    "  \n",
    "{\"model\":\"opus\",\"hooks\":{}}",
    "\u{feff}{\r\n\t\"model\": \"opus\",\r\n\t\"env\": {}\r\n}",
    "{\n    \"hooks\": {\n        \"SessionStart\": []\n    },\n    \"model\": \"opus\"\n}",
];

#[test]
fn uninstall_after_install_leaves_the_file_byte_for_byte_as_it_was() {
    for original in LAYOUTS {
        let f = Fixture::new();
        f.write_settings(original.as_bytes());
        assert!(f.install(FS, SS).changed, "{original:?}");
        assert!(f.uninstall().changed, "{original:?}");
        assert_eq!(
            fs::read(f.settings()).unwrap(),
            original.as_bytes(),
            "{original:?}"
        );
        assert_eq!(listing(&f.claude_dir()), ["settings.json"]);
        // A reinstall of other commands in between changes nothing to that.
        f.install(PY_FS, PY_SS);
        f.install(FS, SS);
        f.uninstall();
        assert_eq!(
            fs::read(f.settings()).unwrap(),
            original.as_bytes(),
            "{original:?}"
        );
    }
}

#[test]
fn uninstall_removes_the_file_and_directory_it_created_and_nothing_else() {
    // No `.claude/` before: both go.
    let f = Fixture::new();
    f.install(FS, SS);
    f.uninstall();
    assert!(!f.claude_dir().exists());
    assert_eq!(listing(&f.project()), Vec::<String>::new());

    // A `.claude/` with other files: only settings.json goes.
    let f = Fixture::new();
    fs::create_dir(f.claude_dir()).unwrap();
    fs::write(f.claude_dir().join("settings.local.json"), "{}").unwrap();
    f.install(FS, SS);
    f.uninstall();
    assert_eq!(listing(&f.claude_dir()), ["settings.local.json"]);

    // The install created `.claude/`, someone put a file in it since: it stays.
    let f = Fixture::new();
    f.install(FS, SS);
    fs::create_dir(f.claude_dir().join("commands")).unwrap();
    f.uninstall();
    assert_eq!(listing(&f.claude_dir()), ["commands"]);
}

#[test]
fn uninstall_after_someone_else_edited_the_file_keeps_their_edits() {
    // Created by the install, then a teammate added a key: it stays, alone.
    let f = Fixture::new();
    f.install(FS, SS);
    let mut value = parse(&f.read_settings());
    value["model"] = json!("opus");
    f.write_settings(serde_json::to_string_pretty(&value).unwrap().as_bytes());
    f.uninstall();
    assert_eq!(f.read_settings(), "{\n  \"model\": \"opus\"\n}");

    // Created by the install and only reformatted since: nothing of it is left.
    let f = Fixture::new();
    f.install(FS, SS);
    f.write_settings(parse(&f.read_settings()).to_string().as_bytes());
    f.uninstall();
    assert!(!f.claude_dir().exists());

    // There before, edited since: only cc-search's entries go, the edit stays.
    let f = Fixture::new();
    f.write_settings(EXISTING.as_bytes());
    f.install(FS, SS);
    f.write_settings(
        f.read_settings()
            .replace("\"opus\"", "\"sonnet\"")
            .as_bytes(),
    );
    f.uninstall();
    assert_eq!(
        f.read_settings(),
        EXISTING.replace("\"opus\"", "\"sonnet\"")
    );

    // There before as `{}`, reformatted since: its own bytes come back, never deleted.
    let f = Fixture::new();
    f.write_settings(b"{}");
    f.install(FS, SS);
    f.write_settings(parse(&f.read_settings()).to_string().as_bytes());
    f.uninstall();
    assert_eq!(f.read_settings(), "{}");
}

#[test]
fn entries_removed_by_hand_make_the_next_install_start_a_new_record() {
    let f = Fixture::new();
    f.install(FS, SS);
    // cc-search's entries taken out by hand, something else put in.
    f.write_settings(b"{\"model\": \"opus\"}\n");
    assert!(
        !f.uninstall().changed,
        "nothing of cc-search's is left to remove"
    );
    f.install(FS, SS);
    f.uninstall();
    assert_eq!(f.read_settings(), "{\"model\": \"opus\"}\n");

    // The same when the install is repeated without an uninstall in between.
    f.install(FS, SS);
    f.write_settings(b"{\"model\": \"sonnet\"}");
    f.install(FS, SS);
    f.uninstall();
    assert_eq!(f.read_settings(), "{\"model\": \"sonnet\"}");
}

/// `git status --porcelain` of `dir`.
fn git_status(dir: &Path) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["status", "--porcelain", "--untracked-files=all"])
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_project_in_git_shows_no_backup_and_is_clean_after_uninstall() {
    // Committed settings: modified while installed, clean after.
    let f = Fixture::new();
    common::git_at(&f.project(), &["init", "-q"], 1_700_000_000);
    f.write_settings(EXISTING.as_bytes());
    common::commit_all(&f.project(), "settings", 1_700_000_000);
    f.install(PY_FS, PY_SS);
    f.install(FS, SS);
    assert_eq!(git_status(&f.project()), " M .claude/settings.json\n");
    f.uninstall();
    assert_eq!(git_status(&f.project()), "");

    // No settings before: the new file alone while installed, nothing after.
    let f = Fixture::new();
    common::git_at(&f.project(), &["init", "-q"], 1_700_000_000);
    fs::write(f.project().join("README.md"), "# p\n").unwrap();
    common::commit_all(&f.project(), "readme", 1_700_000_000);
    f.install(FS, SS);
    assert_eq!(git_status(&f.project()), "?? .claude/settings.json\n");
    f.uninstall();
    assert_eq!(git_status(&f.project()), "");
}

#[test]
fn a_project_install_warns_about_paths_of_this_machine_and_programs_not_on_path() {
    let f = Fixture::new();
    let response = f.install(PY_FS, PY_SS);
    assert_eq!(response.warnings.len(), 2, "{:?}", response.warnings);
    for (warning, command) in response.warnings.iter().zip([PY_FS, PY_SS]) {
        assert!(
            warning.contains(&format!(
                "`{command}` names `/home/u/.venv/bin/cc-search`, a path on this machine"
            )),
            "{warning}"
        );
    }

    let response = f.install(
        "cc-search-hook-not-here file-suggestion",
        "cc-search-hook-not-here session-start",
    );
    assert_eq!(
        response.warnings,
        [
            "`cc-search-hook-not-here` is not on this PATH: Claude Code runs the hooks only where `cc-search-hook-not-here` is on the PATH it starts with"
        ]
    );

    // A program on PATH, or relative to the project, is portable: no warning.
    for (fs_command, ss_command) in [("sh -c true", "sh -c true"), (FS, SS)] {
        let g = Fixture::new();
        let response = g.install(fs_command, ss_command);
        assert!(response.warnings.is_empty(), "{:?}", response.warnings);
    }
}

#[test]
fn recognition_rule() {
    assert!(is_cc_search_command(CommandKind::FileSuggestion, FS));
    assert!(is_cc_search_command(CommandKind::FileSuggestion, PY_FS));
    assert!(is_cc_search_command(CommandKind::SessionStart, PY_SS));
    assert!(!is_cc_search_command(CommandKind::SessionStart, PY_FS));
    assert!(!is_cc_search_command(
        CommandKind::FileSuggestion,
        "my-picker"
    ));
}

// ---------------------------------------------------------------------------------------
// scopes and locations (child processes: they set environment variables)

#[test]
fn user_scope_writes_into_claude_config_dir() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config/claude");
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    if in_child(
        "user_scope_writes_into_claude_config_dir",
        &[
            ("CLAUDE_CONFIG_DIR", config.as_os_str()),
            ("HOME", home.as_os_str()),
            ("CLAUDE_PROJECT_DIR", project.as_os_str()),
        ],
    ) {
        let config = PathBuf::from(std::env::var_os("CLAUDE_CONFIG_DIR").unwrap());
        assert_eq!(claude::config_dir(), config);
        let engine = Engine::open_at(dir.path().join("data")).unwrap();
        let response = engine
            .run::<Install>(InstallRequest {
                file_suggestion_command: FS.into(),
                session_start_command: SS.into(),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(
            response.settings_path,
            config.join("settings.json").display().to_string()
        );
        return;
    }
    assert_eq!(
        fs::read_to_string(config.join("settings.json")).unwrap(),
        FRESH_INSTALLED
    );
    assert!(!home.exists(), "~/.claude is not touched");
    assert!(!project.exists(), "the project is not touched");
}

#[test]
fn user_scope_defaults_to_home_dot_claude() {
    let dir = tempfile::tempdir().unwrap();
    if in_child(
        "user_scope_defaults_to_home_dot_claude",
        &[("HOME", dir.path().as_os_str())],
    ) {
        let home = PathBuf::from(std::env::var_os("HOME").unwrap());
        assert_eq!(claude::config_dir(), home.join(".claude"));
        let engine = Engine::open_at(home.join("data")).unwrap();
        let out = engine
            .call(
                "claude.install",
                &json!({"scope": "user", "file_suggestion_command": FS, "session_start_command": SS})
                    .to_string(),
            )
            .unwrap();
        assert!(out.contains(".claude/settings.json"), "{out}");
        return;
    }
    assert_eq!(
        fs::read_to_string(dir.path().join(".claude/settings.json")).unwrap(),
        FRESH_INSTALLED
    );
}

#[test]
fn user_scope_without_home_or_config_dir_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    if in_child("user_scope_without_home_or_config_dir_is_refused", &[]) {
        assert_eq!(claude::config_dir(), PathBuf::from(".claude"));
        let engine = Engine::open_at(std::env::temp_dir().join("unused")).unwrap();
        let error = engine
            .run::<Install>(InstallRequest {
                file_suggestion_command: FS.into(),
                session_start_command: SS.into(),
                ..Default::default()
            })
            .unwrap_err();
        assert_eq!(error.code(), "invalid_request");
        assert!(error.to_string().contains("CLAUDE_CONFIG_DIR"), "{error}");
        return;
    }
    drop(dir);
}

#[test]
fn project_scope_defaults_to_claude_project_dir() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let config = dir.path().join("config");
    fs::create_dir(&project).unwrap();
    if in_child(
        "project_scope_defaults_to_claude_project_dir",
        &[
            ("CLAUDE_PROJECT_DIR", project.as_os_str()),
            ("CLAUDE_CONFIG_DIR", config.as_os_str()),
            ("HOME", dir.path().as_os_str()),
        ],
    ) {
        let engine = Engine::open_at(dir.path().join("data")).unwrap();
        let response = engine
            .run::<Install>(InstallRequest {
                scope: Scope::Project,
                file_suggestion_command: FS.into(),
                session_start_command: SS.into(),
                ..Default::default()
            })
            .unwrap();
        assert!(
            response
                .settings_path
                .ends_with("project/.claude/settings.json")
        );
        return;
    }
    assert_eq!(
        fs::read_to_string(project.join(".claude/settings.json")).unwrap(),
        FRESH_INSTALLED
    );
    assert!(!config.exists(), "the user settings are not touched");
}

// ---------------------------------------------------------------------------------------
// additional directories

fn mkdirs(root: &Path, dirs: &[&str]) {
    for dir in dirs {
        fs::create_dir_all(root.join(dir)).unwrap();
    }
}

fn write_json(path: &Path, value: &Value) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

#[test]
fn additional_directories_of_both_files_in_order_without_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    mkdirs(&root, &["project/sub", "shared", "other", "local"]);
    let project = root.join("project");
    write_json(
        &project.join(".claude/settings.json"),
        &json!({"permissions": {"additionalDirectories": [
            "../shared", root.join("other"), "../shared/", ".", "sub", "../project/../shared"
        ]}}),
    );
    write_json(
        &project.join(".claude/settings.local.json"),
        &json!({"permissions": {"allow": [], "additionalDirectories": ["../local", root.join("other")]}}),
    );
    let (dirs, warnings) = claude::additional_directories(&project);
    assert_eq!(
        dirs,
        [
            root.join("shared"),
            root.join("other"),
            project.join("sub"),
            root.join("local")
        ]
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn additional_directories_without_settings_are_none() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(claude::additional_directories(dir.path()), (vec![], vec![]));
    write_json(
        &dir.path().join(".claude/settings.json"),
        &json!({"model": "opus"}),
    );
    fs::write(dir.path().join(".claude/settings.local.json"), "").unwrap();
    assert_eq!(claude::additional_directories(dir.path()), (vec![], vec![]));
}

#[test]
fn additional_directories_skip_bad_entries_with_one_warning_each() {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    mkdirs(&root, &["project", "ok"]);
    fs::write(root.join("a-file"), "").unwrap();
    let project = root.join("project");
    let settings = project.join(".claude/settings.json");
    write_json(
        &settings,
        &json!({"permissions": {"additionalDirectories": [1, "", "../missing", "../a-file", "../ok", {"path": "x"}]}}),
    );
    let local = project.join(".claude/settings.local.json");
    fs::write(&local, "{\"permissions\": {").unwrap();

    let (dirs, warnings) = claude::additional_directories(&project);
    assert_eq!(dirs, [root.join("ok")]);
    assert_eq!(warnings.len(), 6, "{warnings:#?}");
    let shown = settings.display().to_string();
    for (warning, expected) in warnings.iter().zip([
        "`permissions.additionalDirectories[0]` is a number (1), not a string",
        "`permissions.additionalDirectories[1]` is an empty string",
        "`permissions.additionalDirectories[5]` is an object",
        "additional directory \"../missing\" skipped",
        "additional directory \"../a-file\" skipped",
    ]) {
        assert!(warning.starts_with(&shown), "{warning}");
        assert!(warning.contains(expected), "{warning} / {expected}");
    }
    assert!(
        warnings[4].contains("is not a directory"),
        "{}",
        warnings[4]
    );
    assert!(
        warnings[5].starts_with(&local.display().to_string()),
        "{}",
        warnings[5]
    );
    assert!(warnings[5].contains("not valid JSON"), "{}", warnings[5]);

    for (value, expected) in [
        (
            json!({"permissions": {"additionalDirectories": "../ok"}}),
            "is a string, not an array",
        ),
        (
            json!({"permissions": ["../ok"]}),
            "`permissions` is an array, not an object",
        ),
        (json!(["../ok"]), "not a JSON object"),
    ] {
        write_json(&settings, &value);
        fs::remove_file(&local).ok();
        let (dirs, warnings) = claude::additional_directories(&project);
        assert!(dirs.is_empty());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains(expected), "{}", warnings[0]);
    }
}

#[cfg(unix)]
#[test]
fn additional_directories_are_canonical() {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    mkdirs(&root, &["project", "real"]);
    std::os::unix::fs::symlink(root.join("real"), root.join("link")).unwrap();
    let project = root.join("project");
    write_json(
        &project.join(".claude/settings.json"),
        &json!({"permissions": {"additionalDirectories": ["../link", "../real"]}}),
    );
    assert_eq!(
        claude::additional_directories(&project),
        (vec![root.join("real")], vec![])
    );
}

#[test]
fn additional_directories_expand_the_home_directory() {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    mkdirs(&root, &["home/notes", "project"]);
    write_json(
        &root.join("project/.claude/settings.local.json"),
        &json!({"permissions": {"additionalDirectories": ["~/notes", "~", "~nobody"]}}),
    );
    let home = root.join("home");
    if in_child(
        "additional_directories_expand_the_home_directory",
        &[("HOME", home.as_os_str())],
    ) {
        let home = PathBuf::from(std::env::var_os("HOME").unwrap());
        let root = home.parent().unwrap();
        let (dirs, warnings) = claude::additional_directories(&root.join("project"));
        assert_eq!(dirs, [home.join("notes"), home.clone()]);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("\"~nobody\" skipped"),
            "{}",
            warnings[0]
        );
    }
}
