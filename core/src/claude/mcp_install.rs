//! `claude.install_mcp`: cc-search's MCP server in Claude Code's `mcpServers`, as
//! `claude mcp add` writes it (user scope: `~/.claude.json`; project scope: `.mcp.json`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::Scope;
use super::record::Memory;
use super::settings::{self, Save};
use crate::engine::Engine;
use crate::error::{Error, Result};

/// `claude.install_mcp`: register cc-search's MCP server with Claude Code, or remove it.
///
/// Installing makes `mcpServers.<name>` hold
/// `{"type": "stdio", "command": <command>, "args": [<args>], "env": {}}` — exactly what
/// `claude mcp add -s user|project <name> -- <command> <args>…` writes — in:
///
/// - scope `user` (default): Claude Code's state file ([`super::user_state_file`]:
///   `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`), which holds much else
///   that Claude Code keeps there;
/// - scope `project`: `<project>/.mcp.json`, meant to be committed and shared (Claude
///   Code asks each person to approve its servers once).
///
/// - Everything else in the file stays as it was, in its order, in its layout; a new file
///   is two-space indented JSON. A new `~/.claude.json` is private (0600), as Claude Code
///   creates it; an existing file keeps its permissions.
/// - Idempotent: when the entry already says what it should, nothing is written.
/// - An entry of that name that is cc-search's ([`is_cc_search_mcp_server`], or one
///   running the requested command and arguments) is updated in place: `type`, `command`
///   and `args` set, its `env` and any other keys kept. An entry of that name that is
///   another program's is refused (`invalid_request`, file untouched) unless it is
///   already exactly the requested entry.
/// - The file is written to a temporary file beside it, flushed and renamed over it; no
///   backup is left beside it (Claude Code keeps its own in `~/.claude/backups`). A
///   symbolic link stays one: its target is replaced. When Claude Code writes the file
///   meanwhile, the edit starts over from its new content.
/// - A file that is not valid JSON, not an object, or whose `mcpServers` is not an
///   object is an `invalid_request` error; the file is left untouched.
/// - Warnings: a command not found here; in scope `project`, a command line naming a path
///   of this machine (`.mcp.json` is shared).
///
/// Uninstalling removes the entry `<name>` when it is cc-search's, and nothing else (an
/// empty `mcpServers` stays in `~/.claude.json`, as `claude mcp remove` leaves it).
/// Another program's entry of that name is left with a warning. A project's `.mcp.json`
/// is put back as it was before cc-search's first install into it, byte for byte (or
/// deleted when the install created it), when it still holds exactly what cc-search
/// wrote; the install keeps that record in the data root
/// (`<data root>/backups/mcp.json-<hash of its path>/record.json`). Otherwise only the
/// entry goes, and a `.mcp.json` left with nothing but an empty `mcpServers` is deleted
/// unless it existed before the install. (A `.mcp.json` that is a symbolic link is never
/// deleted.)
#[derive(Debug, Clone, Copy)]
pub struct InstallMcp;

/// The server name used when a request gives none.
pub const DEFAULT_NAME: &str = "cc-search";

/// Parameters of `claude.install_mcp`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct InstallMcpRequest {
    /// `user` (default): Claude Code's `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`
    /// when set); `project`: `<project_dir>/.mcp.json`.
    pub scope: Scope,
    /// The project, for scope `project`; defaults to `$CLAUDE_PROJECT_DIR`, else the
    /// current directory. Must exist.
    pub project_dir: Option<PathBuf>,
    /// The server's name in Claude Code (letters, digits, `-` and `_`).
    pub name: String,
    /// The program Claude Code starts (no shell): an absolute path, or a name looked up
    /// on the PATH Claude Code runs with. Required to install.
    pub command: String,
    /// Its arguments (e.g. `["mcp"]`).
    pub args: Vec<String>,
    /// Remove the server instead of adding it. `command` and `args` are optional then;
    /// when given, an entry running exactly them is recognised as cc-search's too.
    pub uninstall: bool,
}

impl Default for InstallMcpRequest {
    fn default() -> InstallMcpRequest {
        InstallMcpRequest {
            scope: Scope::User,
            project_dir: None,
            name: DEFAULT_NAME.to_string(),
            command: String::new(),
            args: Vec::new(),
            uninstall: false,
        }
    }
}

/// Result of `claude.install_mcp`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct InstallMcpResponse {
    /// The file edited (as addressed; a symbolic link is followed for the write).
    pub path: String,
    /// Whether the file was rewritten (or deleted). `false`: it already said what it
    /// should.
    pub changed: bool,
    /// What changed, one line each, for people.
    pub changes: Vec<String>,
    /// Anything worth knowing (a command not found here, another program's entry left in
    /// place, …).
    pub warnings: Vec<String>,
}

impl crate::ops::Operation for InstallMcp {
    const NAME: &'static str = "claude.install_mcp";
    const SUMMARY: &'static str = "Register cc-search's MCP server with Claude Code (mcpServers in ~/.claude.json or the project's .mcp.json, as `claude mcp add` writes it), or remove it with `uninstall` (a project's .mcp.json put back as it was); idempotent, atomic, no backup files.";
    type Request = InstallMcpRequest;
    type Response = InstallMcpResponse;
    const PATH_PARAMS: &'static [crate::ops::PathParam] =
        &[crate::ops::PathParam::one("/project_dir").or_project()];
    const WRITES_USER_SETTINGS: bool = true;
    fn run(engine: &Engine, request: InstallMcpRequest) -> Result<InstallMcpResponse> {
        install_mcp(engine.home(), request)
    }
}

/// Whether `server` (an entry of `mcpServers`) is one cc-search installs: a stdio server
/// (`type` `stdio` or absent) whose `command` and `args` are all strings and satisfy
/// [`is_cc_search_mcp_command`].
pub fn is_cc_search_mcp_server(server: &Value) -> bool {
    let Some(entry) = server.as_object() else {
        return false;
    };
    if !entry.get("type").is_none_or(|t| t == "stdio") {
        return false;
    }
    let Some(command) = entry.get("command").and_then(Value::as_str) else {
        return false;
    };
    let args: Option<Vec<&str>> = match entry.get("args") {
        None => Some(Vec::new()),
        Some(Value::Array(args)) => args.iter().map(Value::as_str).collect(),
        Some(_) => None,
    };
    args.is_some_and(|args| is_cc_search_mcp_command(command, &args))
}

/// Whether the program `command` with `args` runs cc-search's MCP server: some word names
/// cc-search — its file name, without a `.js`/`.cjs`/`.mjs`/`.exe`/`.cmd` extension or an
/// `@version`, is `cc-search`, or it is the Python module `cc_search` — and a later word
/// is `mcp`. That covers what the Python and Node CLIs install (`cc-search mcp`,
/// `/…/bin/cc-search --home D mcp`, `python -m cc_search mcp`,
/// `npx --no-install cc-search mcp`, `node /…/bin/cc-search.js mcp`) and the README's
/// `claude mcp add cc-search -- cc-search mcp`, with server options after `mcp`.
pub fn is_cc_search_mcp_command(command: &str, args: &[&str]) -> bool {
    let words = std::iter::once(command).chain(args.iter().copied());
    let mut named = false;
    for word in words {
        if named && word == "mcp" {
            return true;
        }
        named = named || names_cc_search(word);
    }
    false
}

fn names_cc_search(word: &str) -> bool {
    if word == "cc_search" {
        return true;
    }
    let file = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let file = match file.split_once('@') {
        Some((before, _)) if !before.is_empty() => before,
        _ => file,
    };
    let stem = [".js", ".cjs", ".mjs", ".exe", ".cmd"]
        .iter()
        .find_map(|ext| file.strip_suffix(ext))
        .unwrap_or(file);
    stem == "cc-search"
}

/// Run `claude.install_mcp` with the data root `home` (where the record of a project's
/// `.mcp.json` is kept); see [`InstallMcp`].
pub fn install_mcp(home: &Path, request: InstallMcpRequest) -> Result<InstallMcpResponse> {
    let operation = <InstallMcp as crate::ops::Operation>::NAME;
    let wanted = Wanted::of(&request, operation)?;
    let path = file_path(&request, operation)?;
    let project = request.scope == Scope::Project;
    let options = settings::WriteOptions {
        new_file_mode: (!project).then_some(0o600),
    };
    // Claude Code rewrites ~/.claude.json all the time: no record of it could be restored.
    let memory = if project {
        Some(Memory::new(home, &settings::write_target(&path)?, false))
    } else {
        None
    };
    let updated = settings::update(
        &path,
        operation,
        options,
        memory.as_ref(),
        |target, root| {
            let mut changes = Vec::new();
            let mut warnings = Vec::new();
            let edited = if request.uninstall {
                wanted.remove(root, &mut changes, &mut warnings).map(|()| {
                    let servers_left = root.get("mcpServers").and_then(Value::as_object);
                    let nothing_left = project
                        && match root.len() {
                            0 => true,
                            1 => servers_left.is_some_and(Map::is_empty),
                            _ => false,
                        };
                    Save::Uninstall { nothing_left }
                })
            } else {
                let mut without = root.clone();
                let fresh = wanted
                    .remove(&mut without, &mut Vec::new(), &mut Vec::new())
                    .is_ok_and(|()| without == *root);
                wanted
                    .add(root, request.scope, &mut changes)
                    .map(|()| Save::Install { fresh })
            };
            match edited {
                Ok(save) => Ok(((changes, warnings), save)),
                Err(message) => Err(Error::invalid(
                    operation,
                    format!(
                        "{}: {message} (the file was left untouched)",
                        target.display()
                    ),
                )),
            }
        },
    )?;
    let link_warning = updated.link_warning(&path);
    let (mut changes, mut warnings) = updated.outcome;
    changes.extend(super::done_lines(&updated.done, &updated.target));
    if !request.uninstall {
        warnings.extend(wanted.missing_command_warning());
        if project {
            warnings.extend(wanted.machine_path_warning());
        }
    }
    warnings.extend(link_warning);
    Ok(InstallMcpResponse {
        path: path.display().to_string(),
        changed: updated.changed,
        changes: if updated.changed { changes } else { Vec::new() },
        warnings,
    })
}

/// The file a request is about.
fn file_path(request: &InstallMcpRequest, operation: &str) -> Result<PathBuf> {
    super::scoped_file(
        request.scope,
        request.project_dir.as_ref(),
        operation,
        super::user_state_file,
        "Claude Code's ~/.claude.json",
        &[".mcp.json"],
    )
}

/// A request's server, checked.
struct Wanted {
    name: String,
    /// `None` when uninstalling without a command.
    command: Option<String>,
    args: Vec<String>,
}

impl Wanted {
    fn of(request: &InstallMcpRequest, operation: &str) -> Result<Wanted> {
        let name = request.name.as_str();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(Error::invalid(
                operation,
                format!(
                    "`name` {:?} is not a server name Claude Code accepts (letters, digits, `-` and `_`)",
                    super::shorten(name)
                ),
            ));
        }
        if request.command.contains('\0') || request.args.iter().any(|a| a.contains('\0')) {
            return Err(Error::invalid(
                operation,
                "`command` and `args` must not contain NUL characters",
            ));
        }
        let command = if request.command.trim().is_empty() {
            if !request.uninstall {
                return Err(Error::invalid(
                    operation,
                    "`command` is required to install (the program Claude Code starts)",
                ));
            }
            None
        } else {
            Some(request.command.clone())
        };
        Ok(Wanted {
            name: name.to_string(),
            command,
            args: request.args.clone(),
        })
    }

    /// The entry `claude mcp add` writes for this server.
    fn entry(&self, command: &str) -> Value {
        json!({"type": "stdio", "command": command, "args": self.args, "env": {}})
    }

    /// Whether `server` is cc-search's: recognised by its command line, or running
    /// exactly the requested command and arguments.
    fn is_ours(&self, server: &Value) -> bool {
        if is_cc_search_mcp_server(server) {
            return true;
        }
        let Some(command) = &self.command else {
            return false;
        };
        let Some(entry) = server.as_object() else {
            return false;
        };
        entry.get("type").is_none_or(|t| t == "stdio")
            && entry.get("command").and_then(Value::as_str) == Some(command)
            && entry.get("args").map_or(self.args.is_empty(), |a| {
                *a == Value::from(self.args.clone())
            })
    }

    /// Install into `root`. `Err` says why nothing was changed.
    fn add(
        &self,
        root: &mut Map<String, Value>,
        scope: Scope,
        changes: &mut Vec<String>,
    ) -> std::result::Result<(), String> {
        let Some(command) = &self.command else {
            return Err("`command` is required to install".into());
        };
        let servers = servers(root, true)?.ok_or("`mcpServers` is missing")?;
        let wanted = self.entry(command);
        let shown = command_line(&wanted);
        match servers.get_mut(&self.name) {
            None => {
                servers.insert(self.name.clone(), wanted);
                changes.push(format!("MCP server `{}` added: `{shown}`", self.name));
            }
            Some(current) if *current == wanted => {}
            Some(current) if self.is_ours(current) => {
                let previous = command_line(current);
                let Value::Object(entry) = current else {
                    return Err(format!("`mcpServers.{}` is not an object", self.name));
                };
                // In place: the entry's own `env` and any other keys stay.
                entry.insert("type".into(), wanted["type"].clone());
                entry.insert("command".into(), wanted["command"].clone());
                entry.insert("args".into(), wanted["args"].clone());
                if !entry.get("env").is_some_and(Value::is_object) {
                    entry.insert("env".into(), json!({}));
                }
                changes.push(if previous == shown {
                    format!("MCP server `{}` set to a stdio server", self.name)
                } else {
                    format!(
                        "MCP server `{}` changed from `{previous}` to `{shown}`",
                        self.name
                    )
                });
            }
            Some(current) => {
                let scope = match scope {
                    Scope::User => "user",
                    Scope::Project => "project",
                };
                return Err(format!(
                    "it already has an MCP server `{name}` that is not cc-search's ({}); remove it \
                     first (`claude mcp remove -s {scope} {name}`) or install under another name",
                    describe(current),
                    name = self.name
                ));
            }
        }
        Ok(())
    }

    /// Uninstall from `root`: only the entry [`Wanted::add`] puts there.
    fn remove(
        &self,
        root: &mut Map<String, Value>,
        changes: &mut Vec<String>,
        warnings: &mut Vec<String>,
    ) -> std::result::Result<(), String> {
        let Some(servers) = servers(root, false)? else {
            return Ok(());
        };
        let Some(current) = servers.get(&self.name) else {
            return Ok(());
        };
        if self.is_ours(current) {
            changes.push(format!(
                "MCP server `{}` removed (`{}`)",
                self.name,
                command_line(current)
            ));
            servers.shift_remove(&self.name);
        } else {
            warnings.push(format!(
                "MCP server `{}` ({}) is not cc-search's; left as it is",
                self.name,
                describe(current)
            ));
        }
        Ok(())
    }

    /// A warning when a project's shared `.mcp.json` would name a path of this machine.
    fn machine_path_warning(&self) -> Option<String> {
        let command = self.command.as_deref()?;
        let words = std::iter::once(command).chain(self.args.iter().map(String::as_str));
        let path = words.map(super::machine_path).find_map(|p| p)?;
        Some(format!(
            "the server's command line names {path}, a path on this machine, in a file the \
             project shares: it works only where that path exists (use a command on PATH, \
             e.g. `cc-search mcp`)"
        ))
    }

    /// A warning when the command cannot be found from here.
    fn missing_command_warning(&self) -> Option<String> {
        let command = self.command.as_deref()?;
        if super::is_runnable(command) {
            return None;
        }
        Some(if command.contains(['/', '\\']) {
            format!("`{command}` does not exist here: Claude Code cannot start the server")
        } else {
            format!(
                "`{command}` is not on this PATH: Claude Code starts the server only where it is \
                 on the PATH Claude Code runs with"
            )
        })
    }
}

/// The `mcpServers` object of `root` (created when `create`); `Ok(None)` when absent.
fn servers(
    root: &mut Map<String, Value>,
    create: bool,
) -> std::result::Result<Option<&mut Map<String, Value>>, String> {
    if create {
        root.entry("mcpServers")
            .or_insert_with(|| Value::Object(Map::new()));
    }
    match root.get_mut("mcpServers") {
        None => Ok(None),
        Some(Value::Object(servers)) => Ok(Some(servers)),
        Some(other) => Err(format!(
            "`mcpServers` is {}, not an object",
            super::kind_of(other)
        )),
    }
}

/// `command arg…` of an entry, for messages (words with blanks or quotes quoted).
fn command_line(server: &Value) -> String {
    let mut words = vec![server.get("command").and_then(Value::as_str).unwrap_or("")];
    if let Some(Value::Array(args)) = server.get("args") {
        words.extend(args.iter().filter_map(Value::as_str));
    }
    words
        .iter()
        .map(|word| {
            if !word.is_empty() && !word.contains(|c: char| c.is_whitespace() || "'\"".contains(c))
            {
                word.to_string()
            } else {
                format!("'{}'", word.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An entry for messages: its command line, or its URL, or its JSON, shortened.
fn describe(server: &Value) -> String {
    if server.get("command").and_then(Value::as_str).is_some() {
        return format!("`{}`", super::shorten(&command_line(server)));
    }
    if let Some(url) = server.get("url").and_then(Value::as_str) {
        return format!("`{}`", super::shorten(url));
    }
    super::shorten(&server.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_servers_are_recognised() {
        for (command, args) in [
            ("cc-search", &["mcp"][..]),
            ("/home/u/.venv/bin/cc-search", &["mcp"]),
            (
                "/x/cc-search",
                &["--home", "/d", "--config", "/c.toml", "mcp"],
            ),
            ("/usr/bin/python3", &["-m", "cc_search", "mcp"]),
            ("npx", &["--no-install", "cc-search", "mcp"]),
            ("npx", &["-y", "cc-search@0.1.0", "mcp", "--root", "/p"]),
            (
                "/usr/bin/node",
                &["/a/node_modules/cc-search/bin/cc-search.js", "mcp"],
            ),
            ("bun", &["C:\\a\\cc-search\\bin\\cc-search.js", "mcp"]),
            ("cc-search.exe", &["mcp"]),
        ] {
            assert!(
                is_cc_search_mcp_command(command, args),
                "{command} {args:?}"
            );
        }
        for (command, args) in [
            ("cc-search", &[][..]),
            ("cc-search", &["grep"]),
            ("mcp", &["cc-search"]),
            ("/opt/other/bin/server", &["mcp"]),
            ("npx", &["cc-search-fork", "mcp"]),
            ("npx", &["@scope/cc-search-x", "mcp"]),
            ("my-cc-search", &["mcp"]),
            ("node", &["/a/bin/cc-search.json", "mcp"]),
        ] {
            assert!(
                !is_cc_search_mcp_command(command, args),
                "{command} {args:?}"
            );
        }
        let ours = json!({"type": "stdio", "command": "cc-search", "args": ["mcp"], "env": {}});
        assert!(is_cc_search_mcp_server(&ours));
        assert!(is_cc_search_mcp_server(
            &json!({"command": "cc-search", "args": ["mcp"]})
        ));
        for other in [
            json!({"type": "http", "command": "cc-search", "args": ["mcp"]}),
            json!({"type": "stdio", "command": "cc-search", "args": ["mcp", 1]}),
            json!({"type": "stdio", "command": "cc-search", "args": "mcp"}),
            json!({"type": "stdio", "args": ["cc-search", "mcp"]}),
            json!("cc-search mcp"),
        ] {
            assert!(!is_cc_search_mcp_server(&other), "{other}");
        }
    }

    #[test]
    fn command_lines_are_quoted_for_people() {
        let server = json!({"command": "/a b/cc-search", "args": ["mcp", "it's", ""]});
        assert_eq!(command_line(&server), r"'/a b/cc-search' mcp 'it'\''s' ''");
    }
}
