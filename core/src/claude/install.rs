//! `claude.install`: cc-search's `fileSuggestion` command and `SessionStart` hook in a
//! Claude Code `settings.json` (file-picker spec, "Settings Configuration").

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::record::Memory;
use super::settings;
use crate::engine::Engine;
use crate::error::{Error, Result};

/// `claude.install`: add cc-search to a Claude Code `settings.json`, or remove it.
///
/// Installing sets
/// `"fileSuggestion": {"type": "command", "command": <file_suggestion_command>}` and makes
/// `hooks.SessionStart` hold one entry
/// `{"matcher": "startup", "hooks": [{"type": "command", "command": <session_start_command>}]}`.
///
/// - Everything else in the file stays as it was, in its order: other hooks, other
///   `SessionStart` entries, keys cc-search does not know. The layout (indentation, final
///   newline, line endings) is kept.
/// - Idempotent: when the file already says what it should, nothing is written.
/// - cc-search's own earlier commands (see [`is_cc_search_command`]) are replaced in
///   place, never duplicated; a `fileSuggestion` of another program is replaced with a
///   warning (the backup keeps it).
/// - Nothing is left beside the file (a backup there shows up in `git status` and in `@`
///   results). Before the file is replaced, the previous one is kept as the one backup of
///   that file in the data root, `<data root>/backups/settings.json-<hash of its path>/
///   settings.json` (0600), replaced on each write; the response says where. Beside it,
///   `record.json` remembers the file as it was before cc-search's first install into it
///   (its bytes, or that it did not exist, and the directories the install created). The
///   new file is written to a temporary file in the same directory, flushed, and renamed
///   over the old one, keeping its permissions; missing parent directories are created.
///   A `settings.json` that is a symbolic link stays one: its target is replaced. If
///   another program changes the file meanwhile, the update starts over from its new
///   content.
/// - A file that is not valid JSON, not an object, or whose `hooks` / `hooks.SessionStart`
///   has the wrong type is an `invalid_request` error, and the file is left untouched.
/// - Warnings: a command whose program is a bare name not on this `PATH`; in scope
///   `project`, a command naming a path of this machine (the file is shared: a project's
///   commands should be found on each person's PATH, e.g. `cc-search-hook
///   file-suggestion`, or relative to `$CLAUDE_PROJECT_DIR`).
///
/// Uninstalling puts the file back as it was before cc-search's first install, byte for
/// byte, when it still holds exactly what cc-search wrote: the original bytes, or no file
/// (and no `.claude/` directory when the install created it and nothing else is in it).
/// When the file changed since, it removes exactly what installing adds:
/// `fileSuggestion` when it is cc-search's, cc-search's hooks in `SessionStart`, and the
/// `SessionStart` list and the `hooks` object when that removal left them empty; a file
/// left with nothing in it is deleted unless it existed before the install (never a `{}`
/// that cc-search created), and one whose content is then the original's gets the
/// original bytes back.
#[derive(Debug, Clone, Copy)]
pub struct Install;

/// Which file [`Install`] and [`super::InstallMcp`] edit.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The user's own: `settings.json` in Claude Code's configuration directory
    /// ([`super::config_dir`]) for `claude.install`, Claude Code's state file
    /// ([`super::user_state_file`], `~/.claude.json`) for `claude.install_mcp`.
    #[default]
    User,
    /// The project's: `.claude/settings.json` for `claude.install`, `.mcp.json` (shared
    /// with everyone who works on it) for `claude.install_mcp`.
    Project,
}

/// Parameters of `claude.install`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct InstallRequest {
    /// `user` (default): `<config dir>/settings.json`; `project`:
    /// `<project_dir>/.claude/settings.json`.
    pub scope: Scope,
    /// The project, for scope `project`; defaults to `$CLAUDE_PROJECT_DIR`, else the
    /// current directory. Must exist.
    pub project_dir: Option<PathBuf>,
    /// The shell command Claude Code runs for `@` suggestions. Required to install.
    pub file_suggestion_command: String,
    /// The shell command of the `SessionStart` hook. Required to install.
    pub session_start_command: String,
    /// Remove cc-search's entries instead of adding them. The commands are optional then;
    /// when given, they are recognised as cc-search's too.
    pub uninstall: bool,
}

/// Result of `claude.install`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct InstallResponse {
    /// The settings file (as addressed; a symbolic link is followed for the write).
    pub settings_path: String,
    /// Whether the file was rewritten. `false`: it already said what it should.
    pub changed: bool,
    /// The one backup of the file, in the data root: the previous content, kept before it
    /// was replaced or deleted (`null` when nothing was written or there was no previous
    /// file).
    pub backup: Option<String>,
    /// What changed, one line each, for people.
    pub changes: Vec<String>,
    /// Anything worth knowing (a replaced `fileSuggestion` of another program, …).
    pub warnings: Vec<String>,
}

impl crate::ops::Operation for Install {
    const NAME: &'static str = "claude.install";
    const SUMMARY: &'static str = "Add cc-search's fileSuggestion command and SessionStart hook to a Claude Code settings.json (or remove them with `uninstall`), idempotently, atomically, with one backup in the data root; uninstall puts the file back as it was.";
    type Request = InstallRequest;
    type Response = InstallResponse;
    const PATH_PARAMS: &'static [crate::ops::PathParam] =
        &[crate::ops::PathParam::one("/project_dir").or_project()];
    const WRITES_USER_SETTINGS: bool = true;
    fn run(engine: &Engine, request: InstallRequest) -> Result<InstallResponse> {
        install(engine.home(), request)
    }
}

/// The two commands cc-search puts into Claude Code's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandKind {
    /// The `fileSuggestion` command.
    FileSuggestion,
    /// The `SessionStart` hook command.
    SessionStart,
}

impl CommandKind {
    fn script(self) -> &'static str {
        match self {
            CommandKind::FileSuggestion => "file-suggestion.sh",
            CommandKind::SessionStart => "session-start.sh",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            CommandKind::FileSuggestion => "file-suggestion",
            CommandKind::SessionStart => "session-start",
        }
    }
}

/// Whether `command` is one cc-search installs as `kind`, so that a new install replaces
/// it and an uninstall removes it. The rule, on the command with surrounding blanks and
/// trailing quotes removed:
///
/// - it ends with the script name `file-suggestion.sh` (`session-start.sh`), as a whole
///   file name (after `/`, `\`, a blank or a quote, or alone): the hook scripts of the npm
///   package and of the file-picker spec's layout; or
/// - its last two words are `hook file-suggestion` (`hook session-start`) and it mentions
///   `cc-search` or `cc_search`: the Python CLI's commands
///   (`/…/bin/cc-search hook file-suggestion`, `python -m cc_search hook …`); or
/// - its last word is `file-suggestion` (`session-start`) and a word before it names the
///   native hook program, `cc-search-hook`, as a whole file name
///   (`/…/bin/cc-search-hook --home /d file-suggestion`).
pub fn is_cc_search_command(kind: CommandKind, command: &str) -> bool {
    let command = command.trim().trim_end_matches(['\'', '"']).trim_end();
    if let Some(before) = command.strip_suffix(kind.script()) {
        let boundary = before
            .chars()
            .last()
            .is_none_or(|c| matches!(c, '/' | '\\' | '\'' | '"') || c.is_whitespace());
        if boundary {
            return true;
        }
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    let Some((&last, before)) = words.split_last() else {
        return false;
    };
    if last != kind.verb() {
        return false;
    }
    let by_cli = before.len() >= 2
        && before[before.len() - 1] == "hook"
        && (command.contains("cc-search") || command.contains("cc_search"));
    let by_program = before.iter().any(|word| {
        let word = word.trim_matches(['\'', '"']);
        word.rsplit(['/', '\\']).next() == Some(NATIVE_HOOK)
    });
    by_cli || by_program
}

/// The file name of the native hook program (`bindings/hook`), which the Python wheel,
/// the npm package and `make install` ship.
pub const NATIVE_HOOK: &str = "cc-search-hook";

/// Run `claude.install` with the data root `home` (where the backup and the install
/// record are kept); see [`Install`].
pub fn install(home: &Path, request: InstallRequest) -> Result<InstallResponse> {
    let name = <Install as crate::ops::Operation>::NAME;
    let commands = Commands::of(&request, name)?;
    let settings_path = settings_path(&request, name)?;
    let options = settings::WriteOptions {
        new_file_mode: None,
    };
    let memory = Memory::new(home, &settings::write_target(&settings_path)?, true);
    let updated = settings::update(
        &settings_path,
        name,
        options,
        Some(&memory),
        |target, root| {
            let mut changes = Vec::new();
            let mut warnings = Vec::new();
            let edited = if request.uninstall {
                remove(root, &commands, &mut changes, &mut warnings);
                Ok(settings::Save::Uninstall {
                    nothing_left: root.is_empty(),
                })
            } else {
                let mut without = root.clone();
                remove(&mut without, &commands, &mut Vec::new(), &mut Vec::new());
                let fresh = without == *root;
                add(root, &commands, &mut changes, &mut warnings)
                    .map(|()| settings::Save::Install { fresh })
            };
            match edited {
                Ok(save) => Ok(((changes, warnings), save)),
                Err(message) => Err(Error::invalid(
                    name,
                    format!(
                        "{}: {message}; fix it first (the file was left untouched)",
                        target.display()
                    ),
                )),
            }
        },
    )?;
    let link_warning = updated.link_warning(&settings_path);
    let (mut changes, mut warnings) = updated.outcome;
    changes.extend(super::done_lines(&updated.done, &updated.target));
    if !request.uninstall {
        warnings.extend(commands.warnings(request.scope));
    }
    warnings.extend(link_warning);
    Ok(InstallResponse {
        settings_path: settings_path.display().to_string(),
        changed: updated.changed,
        backup: updated.backup.map(|b| b.display().to_string()),
        changes: if updated.changed { changes } else { Vec::new() },
        warnings,
    })
}

/// The commands of a request, checked.
struct Commands {
    file_suggestion: Option<String>,
    session_start: Option<String>,
}

impl Commands {
    fn of(request: &InstallRequest, operation: &str) -> Result<Commands> {
        let check = |field: &str, value: &str| -> Result<Option<String>> {
            let value = value.trim();
            if value.is_empty() {
                if request.uninstall {
                    return Ok(None);
                }
                return Err(Error::invalid(
                    operation,
                    format!("`{field}` is required to install (a shell command)"),
                ));
            }
            if value.contains(['\0', '\n', '\r']) {
                return Err(Error::invalid(
                    operation,
                    format!("`{field}` must be one line without NUL characters"),
                ));
            }
            Ok(Some(value.to_string()))
        };
        Ok(Commands {
            file_suggestion: check("file_suggestion_command", &request.file_suggestion_command)?,
            session_start: check("session_start_command", &request.session_start_command)?,
        })
    }

    /// Warnings about the commands of an install in `scope`: a program that is not on
    /// this PATH, a path of this machine in a project's shared settings.
    fn warnings(&self, scope: Scope) -> Vec<String> {
        let commands = [&self.file_suggestion, &self.session_start];
        let mut warnings = Vec::new();
        let mut programs = Vec::new();
        for command in commands.into_iter().flatten() {
            if let Some(program) = super::bare_program(command)
                && !programs.contains(&program)
            {
                programs.push(program);
            }
            if scope == Scope::Project
                && let Some(path) = super::machine_path(command)
            {
                warnings.push(format!(
                    "`{command}` names {path}, a path on this machine, in a file the project \
                     shares: it works only where that path exists (use a command on PATH, \
                     e.g. `{NATIVE_HOOK} file-suggestion`)"
                ));
            }
        }
        for program in programs {
            if !super::is_runnable(program) {
                warnings.push(format!(
                    "`{program}` is not on this PATH: Claude Code runs the hooks only where \
                     `{program}` is on the PATH it starts with"
                ));
            }
        }
        warnings
    }

    fn is_ours(&self, kind: CommandKind, command: &str) -> bool {
        let given = match kind {
            CommandKind::FileSuggestion => &self.file_suggestion,
            CommandKind::SessionStart => &self.session_start,
        };
        given.as_deref() == Some(command.trim()) || is_cc_search_command(kind, command)
    }
}

/// The settings file a request is about.
fn settings_path(request: &InstallRequest, operation: &str) -> Result<PathBuf> {
    super::scoped_file(
        request.scope,
        request.project_dir.as_ref(),
        operation,
        || super::checked_config_dir().map(|dir| dir.join("settings.json")),
        "the user settings",
        &[".claude", "settings.json"],
    )
}

fn command_of(value: &Value) -> Option<&str> {
    value.get("command").and_then(Value::as_str)
}

/// Install into `root`. `Err` names a part of the file with the wrong type.
fn add(
    root: &mut Map<String, Value>,
    commands: &Commands,
    changes: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> std::result::Result<(), String> {
    let (Some(fs_command), Some(ss_command)) = (&commands.file_suggestion, &commands.session_start)
    else {
        return Err("both commands are required to install".into());
    };

    // Check the types first: an error leaves nothing half-done.
    match root.get("hooks") {
        None | Some(Value::Object(_)) => {}
        Some(other) => {
            return Err(format!(
                "`hooks` is {}, not an object",
                super::kind_of(other)
            ));
        }
    }
    if let Some(Value::Object(hooks)) = root.get("hooks") {
        match hooks.get("SessionStart") {
            None | Some(Value::Array(_)) => {}
            Some(other) => {
                return Err(format!(
                    "`hooks.SessionStart` is {}, not an array",
                    super::kind_of(other)
                ));
            }
        }
    }

    let wanted = json!({"type": "command", "command": fs_command});
    match root.get_mut("fileSuggestion") {
        None => {
            root.insert("fileSuggestion".into(), wanted);
            changes.push(format!("fileSuggestion set to `{fs_command}`"));
        }
        Some(current) if *current == wanted => {}
        Some(current) => {
            match command_of(current) {
                Some(previous) if commands.is_ours(CommandKind::FileSuggestion, previous) => {
                    changes.push(format!(
                        "fileSuggestion changed from `{previous}` to `{fs_command}`"
                    ));
                }
                previous => {
                    let shown = previous
                        .map(|p| format!("`{p}`"))
                        .unwrap_or_else(|| super::shorten(&current.to_string()));
                    changes.push(format!(
                        "fileSuggestion changed from {shown} to `{fs_command}`"
                    ));
                    warnings.push(format!(
                        "the previous fileSuggestion {shown} is not cc-search's; it was replaced \
                         (the backup keeps it, an uninstall does not bring it back)"
                    ));
                }
            }
            *current = wanted;
        }
    }

    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err("`hooks` is not an object".into());
    };
    let list = hooks
        .entry("SessionStart")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(list) = list else {
        return Err("`hooks.SessionStart` is not an array".into());
    };
    let before = list.clone();
    let (position, removed) = strip_session_start(list, commands);
    let entry = json!({
        "matcher": "startup",
        "hooks": [{"type": "command", "command": ss_command}],
    });
    let at = position.unwrap_or(list.len());
    list.insert(at, entry);
    if *list != before {
        match removed.as_slice() {
            [] => changes.push(format!("SessionStart hook added: `{ss_command}`")),
            [previous] if previous == ss_command => changes.push(format!(
                "SessionStart hook `{ss_command}` set to matcher `startup`"
            )),
            _ => changes.push(format!(
                "SessionStart hook changed from {} to `{ss_command}`",
                removed
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    Ok(())
}

/// Remove cc-search's hooks from a `SessionStart` list. An entry left without hooks by
/// that is removed; entries that hold other hooks too keep them.
///
/// Returns the index (in the new list) of the first entry that held one of cc-search's
/// hooks, and the commands removed.
fn strip_session_start(list: &mut Vec<Value>, commands: &Commands) -> (Option<usize>, Vec<String>) {
    let mut position = None;
    let mut removed = Vec::new();
    let mut kept = Vec::with_capacity(list.len());
    for mut entry in std::mem::take(list) {
        let mut emptied = false;
        if let Some(Value::Array(hooks)) = entry.get_mut("hooks") {
            let count = hooks.len();
            hooks.retain(|hook| match command_of(hook) {
                Some(command) if commands.is_ours(CommandKind::SessionStart, command) => {
                    removed.push(command.to_string());
                    false
                }
                _ => true,
            });
            if hooks.len() < count {
                position.get_or_insert(kept.len());
                emptied = hooks.is_empty();
            }
        }
        if !emptied {
            kept.push(entry);
        }
    }
    *list = kept;
    (position, removed)
}

/// Uninstall from `root`: only what [`add`] puts there.
fn remove(
    root: &mut Map<String, Value>,
    commands: &Commands,
    changes: &mut Vec<String>,
    warnings: &mut Vec<String>,
) {
    if let Some(current) = root.get("fileSuggestion") {
        match command_of(current) {
            Some(command) if commands.is_ours(CommandKind::FileSuggestion, command) => {
                changes.push(format!("fileSuggestion `{command}` removed"));
                root.shift_remove("fileSuggestion");
            }
            command => warnings.push(format!(
                "fileSuggestion {} is not cc-search's; left as it is",
                command
                    .map(|c| format!("`{c}`"))
                    .unwrap_or_else(|| super::shorten(&current.to_string()))
            )),
        }
    }
    let Some(Value::Object(hooks)) = root.get_mut("hooks") else {
        return;
    };
    let Some(Value::Array(list)) = hooks.get_mut("SessionStart") else {
        return;
    };
    let (_, removed) = strip_session_start(list, commands);
    if removed.is_empty() {
        return;
    }
    for command in &removed {
        changes.push(format!("SessionStart hook `{command}` removed"));
    }
    if list.is_empty() {
        hooks.shift_remove("SessionStart");
        if hooks.is_empty() {
            root.shift_remove("hooks");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_commands_are_recognised() {
        use CommandKind::*;
        for (kind, command) in [
            (FileSuggestion, "/opt/cc-search/hooks/file-suggestion.sh"),
            (
                FileSuggestion,
                "~/.config/claude/file-picker/file-suggestion.sh",
            ),
            (FileSuggestion, "'/a dir/hooks/file-suggestion.sh'"),
            (FileSuggestion, "file-suggestion.sh"),
            (FileSuggestion, "bash \"C:\\hooks\\file-suggestion.sh\"  "),
            (
                FileSuggestion,
                "/home/u/.venv/bin/cc-search hook file-suggestion",
            ),
            (
                FileSuggestion,
                "'/x y/cc-search' --home /d hook file-suggestion",
            ),
            (
                FileSuggestion,
                "/usr/bin/python3 -m cc_search hook file-suggestion",
            ),
            (SessionStart, "/opt/cc-search/hooks/session-start.sh"),
            (SessionStart, "cc-search hook session-start"),
            (
                FileSuggestion,
                "/home/u/.venv/bin/cc-search-hook file-suggestion",
            ),
            (
                SessionStart,
                "'/x y/cc-search-hook' --home '/d e' --config /c session-start",
            ),
            (FileSuggestion, "cc-search-hook file-suggestion"),
        ] {
            assert!(is_cc_search_command(kind, command), "{command}");
        }
        for (kind, command) in [
            (FileSuggestion, "/opt/hooks/my-file-suggestion.sh"),
            (FileSuggestion, "/opt/hooks/file-suggestion.sh.orig"),
            (FileSuggestion, "/opt/cc-search/hooks/session-start.sh"),
            (FileSuggestion, "other-tool hook file-suggestion"),
            (FileSuggestion, "cc-search hook session-start"),
            (FileSuggestion, "cc-search files suggest"),
            (SessionStart, "/opt/cc-search/hooks/file-suggestion.sh"),
            (SessionStart, "echo session-start.sh is here"),
            (SessionStart, ""),
            (SessionStart, "/x/cc-search-hook file-suggestion"),
            (FileSuggestion, "/x/not-cc-search-hook file-suggestion"),
            (
                FileSuggestion,
                "/x/cc-search-hook file-suggestion --verbose",
            ),
        ] {
            assert!(!is_cc_search_command(kind, command), "{command}");
        }
    }

    #[test]
    fn wrong_types_are_refused_before_any_change() {
        let commands = Commands {
            file_suggestion: Some("a/file-suggestion.sh".into()),
            session_start: Some("a/session-start.sh".into()),
        };
        for text in [
            r#"{"fileSuggestion": 1, "hooks": []}"#,
            r#"{"hooks": {"SessionStart": {"matcher": "startup"}}}"#,
        ] {
            let Value::Object(mut root) = serde_json::from_str(text).unwrap() else {
                panic!("fixture is an object")
            };
            let before = root.clone();
            assert!(add(&mut root, &commands, &mut Vec::new(), &mut Vec::new()).is_err());
            assert_eq!(root, before);
        }
    }
}
