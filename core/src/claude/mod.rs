//! Claude Code: its settings files (additional directories, the installer of cc-search's
//! picker and hooks) and its locations.
//!
//! - [`config_dir`]: Claude Code's configuration directory (`$CLAUDE_CONFIG_DIR`, else
//!   `~/.claude`), where the user `settings.json` and the session transcripts live.
//! - [`additional_directories`]: the directories a project's `.claude/settings.json` and
//!   `.claude/settings.local.json` add to its scope (`permissions.additionalDirectories`).
//! - [`Install`] (`claude.install`): put cc-search's `fileSuggestion` command and
//!   `SessionStart` hook into a `settings.json`, or take them out again, preserving
//!   everything else in the file.
//! - [`InstallMcp`] (`claude.install_mcp`): register cc-search's MCP server with Claude
//!   Code (`mcpServers` of `~/.claude.json` or of the project's `.mcp.json`), or take it
//!   out again, the way `claude mcp add` / `claude mcp remove` do.
//!
//! The protocol of the hooks it installs is [`crate::files::hook`]'s.

pub mod activity;
mod install;
mod mcp_install;
mod record;
mod settings;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use install::{
    CommandKind, Install, InstallRequest, InstallResponse, NATIVE_HOOK, Scope, is_cc_search_command,
};
pub use mcp_install::{
    InstallMcp, InstallMcpRequest, InstallMcpResponse, is_cc_search_mcp_command,
    is_cc_search_mcp_server,
};
pub use record::BACKUPS_DIR;

pub(crate) use crate::transcripts::checked_config_dir;
pub use crate::transcripts::config_dir;

/// Claude Code's own state file, which holds the user's MCP servers (`mcpServers`) among
/// much else, where Claude Code looks for it: `.config.json` in [`config_dir`] when that
/// (legacy) file exists, else `.claude.json` in `$CLAUDE_CONFIG_DIR` when set, else in
/// `$HOME`. `None` when neither variable is set. (A Claude Code started with
/// `CLAUDE_CODE_CUSTOM_OAUTH_URL` uses `.claude-custom-oauth.json` instead; not followed.)
pub fn user_state_file() -> Option<PathBuf> {
    let legacy = checked_config_dir()?.join(".config.json");
    if legacy.is_file() {
        return Some(legacy);
    }
    let dir = match crate::env::env_path("CLAUDE_CONFIG_DIR") {
        Some(dir) => std::path::absolute(&dir).unwrap_or(dir),
        None => crate::env::home_dir()?,
    };
    Some(dir.join(".claude.json"))
}

/// The file a `claude.*` installer edits in `scope`: `user_file` (`None` when neither
/// `$CLAUDE_CONFIG_DIR` nor `$HOME` says where it is: an error naming `what`), or the
/// path `in_project` (its components) below the project ([`project_root`] of
/// `project_dir`).
fn scoped_file(
    scope: Scope,
    project_dir: Option<&PathBuf>,
    operation: &str,
    user_file: impl FnOnce() -> Option<PathBuf>,
    what: &str,
    in_project: &[&str],
) -> crate::error::Result<PathBuf> {
    use crate::error::Error;
    match scope {
        Scope::User => {
            if project_dir.is_some() {
                return Err(Error::invalid(
                    operation,
                    "`project_dir` is only for scope `project`",
                ));
            }
            user_file().ok_or_else(|| {
                Error::invalid(
                    operation,
                    format!("neither $CLAUDE_CONFIG_DIR nor $HOME is set: cannot find {what}"),
                )
            })
        }
        Scope::Project => {
            let root = project_root(project_dir.cloned(), operation)?;
            Ok(in_project.iter().fold(root, |path, part| path.join(part)))
        }
    }
}

/// The project of a `claude.*` request: `given`, else `$CLAUDE_PROJECT_DIR`, else the
/// current directory; canonical, and a directory.
fn project_root(given: Option<PathBuf>, operation: &str) -> crate::error::Result<PathBuf> {
    use crate::error::Error;
    if given.as_ref().is_some_and(|d| d.as_os_str().is_empty()) {
        return Err(Error::invalid(operation, "`project_dir` is empty"));
    }
    let canonical = crate::env::project_dir(given, operation)?;
    if !canonical.is_dir() {
        return Err(Error::invalid(
            operation,
            format!("project {} is not a directory", canonical.display()),
        ));
    }
    Ok(canonical)
}

/// The settings files of a project that can list additional directories, in the order
/// they are read.
pub const PROJECT_SETTINGS_FILES: &[&str] = &["settings.json", "settings.local.json"];

/// The additional directories of a project: `permissions.additionalDirectories` of
/// `<project>/.claude/settings.json`, then of `<project>/.claude/settings.local.json`.
///
/// Relative entries are relative to the project root; `~` and `~/…` are expanded from
/// `$HOME` (`~user` is not: it is taken as a relative path). Each directory is
/// canonicalised; duplicates (also across the two files) and the project root itself are
/// left out; the order is the order of the files. A missing file is fine. A file that
/// cannot be read or is not valid JSON, a `permissions` that is not an object, an
/// `additionalDirectories` that is not an array, an entry that is not a non-empty string,
/// and an entry that is not an existing directory are each skipped with one warning naming
/// the file (and the entry). An empty file holds nothing.
///
/// Returns the directories and the warnings.
pub fn additional_directories(project: &Path) -> (Vec<PathBuf>, Vec<String>) {
    let mut dirs = Vec::new();
    let mut warnings = Vec::new();
    let root = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    let mut seen: HashSet<PathBuf> = HashSet::from([root.clone()]);
    for name in PROJECT_SETTINGS_FILES {
        let file = project.join(".claude").join(name);
        for entry in listed_directories(&file, &mut warnings) {
            match resolve_directory(&root, &entry) {
                Ok(dir) => {
                    if seen.insert(dir.clone()) {
                        dirs.push(dir);
                    }
                }
                Err(why) => warnings.push(format!(
                    "{}: additional directory {entry:?} skipped: {why}",
                    file.display()
                )),
            }
        }
    }
    (dirs, warnings)
}

/// The string entries of `permissions.additionalDirectories` in one settings file.
fn listed_directories(file: &Path, warnings: &mut Vec<String>) -> Vec<String> {
    let shown = file.display();
    let text = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            warnings.push(format!(
                "{shown}: cannot be read ({e}); its additional directories are ignored"
            ));
            return Vec::new();
        }
    };
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&text);
    if text.iter().all(u8::is_ascii_whitespace) {
        return Vec::new();
    }
    let value: Value = match serde_json::from_slice(text) {
        Ok(value) => value,
        Err(e) => {
            warnings.push(format!(
                "{shown}: not valid JSON ({e}); its additional directories are ignored"
            ));
            return Vec::new();
        }
    };
    let Some(settings) = value.as_object() else {
        warnings.push(format!(
            "{shown}: not a JSON object; its additional directories are ignored"
        ));
        return Vec::new();
    };
    let permissions = match settings.get("permissions") {
        None => return Vec::new(),
        Some(Value::Object(permissions)) => permissions,
        Some(other) => {
            warnings.push(format!(
                "{shown}: `permissions` is {}, not an object; ignored",
                kind_of(other)
            ));
            return Vec::new();
        }
    };
    let list = match permissions.get("additionalDirectories") {
        None => return Vec::new(),
        Some(Value::Array(list)) => list,
        Some(other) => {
            warnings.push(format!(
                "{shown}: `permissions.additionalDirectories` is {}, not an array; ignored",
                kind_of(other)
            ));
            return Vec::new();
        }
    };
    let mut entries = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        match item {
            Value::String(s) if !s.trim().is_empty() => entries.push(s.clone()),
            Value::String(_) => warnings.push(format!(
                "{shown}: `permissions.additionalDirectories[{i}]` is an empty string; skipped"
            )),
            other => warnings.push(format!(
                "{shown}: `permissions.additionalDirectories[{i}]` is {} ({}), not a string; skipped",
                kind_of(other),
                shorten(&other.to_string())
            )),
        }
    }
    entries
}

/// An entry of `additionalDirectories` as a canonical existing directory.
fn resolve_directory(root: &Path, entry: &str) -> Result<PathBuf, String> {
    let path = if entry == "~" || entry.starts_with("~/") {
        let home = crate::env::home_dir().ok_or("$HOME is not set to expand `~`")?;
        match entry.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None => home,
        }
    } else {
        root.join(entry)
    };
    let canonical = std::fs::canonicalize(&path).map_err(|e| {
        format!(
            "{} does not exist or cannot be reached ({e})",
            path.display()
        )
    })?;
    if !canonical.is_dir() {
        return Err(format!("{} is not a directory", canonical.display()));
    }
    Ok(canonical)
}

/// The lines an installer adds to its changes for how the file was saved.
fn done_lines(done: &settings::Done, target: &Path) -> Vec<String> {
    let name = |path: &Path| {
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string())
    };
    match done {
        settings::Done::Nothing | settings::Done::Written => Vec::new(),
        settings::Done::Restored => vec![format!(
            "{} put back byte for byte as it was before cc-search's install",
            name(target)
        )],
        settings::Done::Deleted(dirs) => {
            let mut lines = vec![format!("{} removed: nothing else was in it", name(target))];
            lines.extend(dirs.iter().map(|dir| {
                format!(
                    "{}/ removed: cc-search's install created it and it is empty",
                    name(dir)
                )
            }));
            lines
        }
    }
}

/// The program a shell command runs when it is a bare name looked up on `$PATH` (its
/// first word, quotes removed, without `/`, `\`, `$` or `=`).
fn bare_program(command: &str) -> Option<&str> {
    let first = command.split_whitespace().next()?.trim_matches(['\'', '"']);
    (!first.is_empty() && !first.contains(['/', '\\', '$', '='])).then_some(first)
}

/// The first word of a shell command that is a path of this machine (absolute, or under
/// `~`), for warnings about files a project shares.
fn machine_path(command: &str) -> Option<String> {
    command
        .split_whitespace()
        .map(|word| word.trim_matches(['\'', '"']))
        .find(|word| {
            let bytes = word.as_bytes();
            word.starts_with(['/', '~'])
                || (bytes.len() > 2
                    && bytes[0].is_ascii_alphabetic()
                    && bytes[1] == b':'
                    && matches!(bytes[2], b'/' | b'\\'))
        })
        .map(|word| format!("`{word}`"))
}

/// Whether `command` names an existing file: a path as it is, a bare name on `$PATH`.
fn is_runnable(command: &str) -> bool {
    if command.contains(['/', '\\']) {
        return Path::new(command).is_file();
    }
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| {
        let candidate = dir.join(command);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(&candidate)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        {
            candidate.is_file() || candidate.with_extension("exe").is_file()
        }
    })
}

/// "a number", "an array", … for messages about JSON of the wrong type.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// At most 80 characters of `text`, for messages.
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let mut short: String = text.chars().take(MAX).collect();
    short.push('…');
    short
}
