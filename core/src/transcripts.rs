//! Claude Code's session transcripts on disk: where they live, which exist, and how the
//! folders are named — shared by the `@` picker's frecency ([`crate::claude::activity`])
//! and session search ([`crate::sessions`]), which each parse what they need from them.
//!
//! Claude Code writes every session to `<config_dir>/projects/<folder>/<session>.jsonl`
//! (subagents beside or under it, e.g. `<session>/subagents/agent-*.jsonl`), one JSON
//! record per line. The folder is named after the session's working directory, lossily
//! ([`encode_folder_name`]).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// How deep below the projects folder transcripts are looked for
/// (`<folder>/<session>/subagents/workflows/<id>/agent-*.jsonl` is five levels down).
pub const MAX_DEPTH: usize = 8;

/// Claude Code cuts project folder names longer than this and appends a hash.
const FOLDER_NAME_MAX: usize = 200;

/// Claude Code's configuration directory: `$CLAUDE_CONFIG_DIR` when set (made absolute),
/// else `~/.claude` (from `$HOME`). With neither variable set the result is the relative
/// path `.claude`.
pub fn config_dir() -> PathBuf {
    checked_config_dir().unwrap_or_else(|| PathBuf::from(".claude"))
}

/// [`config_dir`], or `None` when neither `$CLAUDE_CONFIG_DIR` nor `$HOME` says where it is.
pub fn checked_config_dir() -> Option<PathBuf> {
    if let Some(dir) = crate::env::env_path("CLAUDE_CONFIG_DIR") {
        return Some(std::path::absolute(&dir).unwrap_or(dir));
    }
    crate::env::home_dir().map(|home| home.join(".claude"))
}

/// A transcript on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transcript {
    /// Its path (below the projects folder).
    pub path: PathBuf,
    /// Its size in bytes when it was found.
    pub size: u64,
    /// Its modification time then, in nanoseconds since the Unix epoch.
    pub mtime_ns: i64,
    /// The folder right under `projects/` (a lossy encoding of the session's working
    /// directory), empty for a file directly in `projects/`.
    pub folder: String,
    /// A subagent's transcript (`agent-*.jsonl`, or below a `subagents` folder).
    pub subagent: bool,
}

/// The transcripts (`*.jsonl`) below the projects folder `projects`, in the folders whose
/// name `folder` accepts (files directly in `projects` count when it accepts `""`), at
/// most [`MAX_DEPTH`] levels down, sorted by path. Symbolic links to files are followed;
/// to folders, only right under `projects`.
///
/// An error only when `projects` itself cannot be listed (missing included); folders below
/// it that cannot be listed become warnings.
pub fn discover(
    projects: &Path,
    folder: &dyn Fn(&str) -> bool,
    warnings: &mut Vec<String>,
) -> io::Result<Vec<Transcript>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(projects)?.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_dir = kind.is_dir() || (kind.is_symlink() && path.is_dir());
        if is_dir {
            if folder(&name) {
                collect(projects, &path, 1, &name, &mut out, warnings);
            }
        } else if folder("") {
            push(projects, path, &kind, "", &mut out);
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

fn collect(
    projects: &Path,
    dir: &Path,
    depth: usize,
    folder: &str,
    out: &mut Vec<Transcript>,
    warnings: &mut Vec<String>,
) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return,
        Err(e) => {
            warnings.push(format!(
                "{}: cannot be listed ({e}); skipped",
                dir.display()
            ));
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if depth < MAX_DEPTH {
                collect(projects, &path, depth + 1, folder, out, warnings);
            }
        } else {
            push(projects, path, &kind, folder, out);
        }
    }
}

/// `path`, when it is a transcript (a `*.jsonl` file, or a link to one).
fn push(
    projects: &Path,
    path: PathBuf,
    kind: &fs::FileType,
    folder: &str,
    out: &mut Vec<Transcript>,
) {
    if path.extension().is_none_or(|e| e != "jsonl") {
        return;
    }
    let meta = if kind.is_symlink() {
        fs::metadata(&path)
    } else {
        fs::symlink_metadata(&path)
    };
    let Some(meta) = meta.ok().filter(|m| m.is_file()) else {
        return;
    };
    let rel = path.strip_prefix(projects).unwrap_or(&path);
    let subagent = rel.components().any(|c| c.as_os_str() == "subagents")
        || path
            .file_stem()
            .is_some_and(|s| s.to_string_lossy().starts_with("agent-"));
    out.push(Transcript {
        size: meta.len(),
        mtime_ns: crate::time::mtime_ns(&meta),
        path,
        folder: folder.to_string(),
        subagent,
    });
}

/// What Claude Code put in a `user` record's text on the user's behalf, rather than the
/// user typing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generated {
    /// The output of a command the user ran (`!cmd`, a local slash command).
    CommandOutput,
    /// Context Claude Code injects: reminders, notifications, the caveat before local
    /// command output, the summary that continues a compacted session.
    Injected,
}

/// Whether the text of a `user` record was generated rather than typed, and how, by how
/// it starts (leading whitespace ignored).
pub fn generated(text: &str) -> Option<Generated> {
    const COMMAND_OUTPUT: &[&str] = &[
        "<local-command-stdout>",
        "<local-command-stderr>",
        "<bash-stdout>",
        "<bash-stderr>",
    ];
    const INJECTED: &[&str] = &[
        "<task-notification>",
        "<system-reminder>",
        "<teammate-message",
        "Caveat: The messages below were generated by the user while running local commands",
        "This session is being continued from a previous conversation",
    ];
    let text = text.trim_start();
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| text.starts_with(p));
    if starts(COMMAND_OUTPUT) {
        Some(Generated::CommandOutput)
    } else if starts(INJECTED) {
        Some(Generated::Injected)
    } else {
        None
    }
}

/// Claude Code's folder name for a working directory: each UTF-16 code unit that is not an
/// ASCII letter or digit becomes `-` (names over 200 characters are then cut and given a
/// hash, which this does not add).
pub fn encode_folder_name(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else {
            for _ in 0..c.len_utf16() {
                out.push('-');
            }
        }
    }
    out
}

/// Whether the folder `name` may hold sessions whose working directory is the directory
/// encoded as `encoded` or a directory inside it.
pub fn folder_may_hold(name: &[u8], encoded: &[u8]) -> bool {
    if name.len() > FOLDER_NAME_MAX {
        // Cut at 200 characters, then `-<hash>`: compare the kept part only.
        let kept = &name[..FOLDER_NAME_MAX];
        if encoded.len() >= FOLDER_NAME_MAX {
            return encoded[..FOLDER_NAME_MAX] == *kept;
        }
        return kept.starts_with(encoded) && kept[encoded.len()] == b'-';
    }
    name == encoded || (name.starts_with(encoded) && name.get(encoded.len()) == Some(&b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_encode_like_claude_code() {
        assert_eq!(
            encode_folder_name(Path::new("/home/u/my_proj.v2")),
            "-home-u-my-proj-v2"
        );
        // One dash per UTF-16 code unit: é is one, an emoji two.
        assert_eq!(encode_folder_name(Path::new("/p/é🎉x")), "-p----x");
    }

    #[test]
    fn folders_of_the_project_and_of_directories_inside_it_match() {
        let e = b"-home-u-proj";
        assert!(folder_may_hold(b"-home-u-proj", e));
        assert!(folder_may_hold(b"-home-u-proj-src", e));
        assert!(!folder_may_hold(b"-home-u-projects", e));
        assert!(!folder_may_hold(b"-home-u", e));
        assert!(!folder_may_hold(b"-home-u-other", e));

        let long_project = format!("-{}", "a".repeat(250));
        let cut = format!("{}-1x2y3z", &long_project[..FOLDER_NAME_MAX]);
        assert!(folder_may_hold(cut.as_bytes(), long_project.as_bytes()));
        let short = format!("-{}", "b".repeat(150));
        let deep = format!("{short}-{}", "c".repeat(100));
        let deep_cut = format!("{}-abc", &deep[..FOLDER_NAME_MAX]);
        assert!(folder_may_hold(deep_cut.as_bytes(), short.as_bytes()));
        assert!(!folder_may_hold(deep_cut.as_bytes(), b"-bbb"));
    }

    #[test]
    fn generated_texts_are_told_from_typed_ones() {
        assert_eq!(
            generated("<local-command-stdout>ok</local-command-stdout>"),
            Some(Generated::CommandOutput)
        );
        assert_eq!(
            generated("  <bash-stderr>x"),
            Some(Generated::CommandOutput)
        );
        assert_eq!(
            generated("<system-reminder>be brief</system-reminder>"),
            Some(Generated::Injected)
        );
        assert_eq!(
            generated("This session is being continued from a previous conversation that ran out"),
            Some(Generated::Injected)
        );
        assert_eq!(generated("fix <bash-stdout> parsing in @src/a.rs"), None);
        assert_eq!(generated("please read @README.md"), None);
    }
}
