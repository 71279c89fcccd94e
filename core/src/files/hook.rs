//! The protocol of cc-search's Claude Code hooks, written once for every program that
//! runs them: the Python CLI (`cc-search hook file-suggestion|session-start`), the Bun
//! and Node scripts of the npm package (`hooks/*.sh`), and any native hook binary.
//!
//! A runtime reads the hook's stdin (at most [`MAX_INPUT`] bytes; it may stop as soon as
//! [`input_complete`] says one JSON object has arrived, so a writer that keeps its end
//! open cannot stall the picker), hands the bytes to [`run`], writes
//! [`Answer::stdout`] to its stdout, reports [`Answer::error`] and [`Answer::warnings`]
//! on stderr one line each (in its own style), and when [`Answer::refresh`] is set starts
//! its own refresh command in a detached background process with stdout and stderr
//! appended to [`Refresh::log`]. Its exit status is always 0: a hook never fails Claude
//! Code. Reading stdin, writing, and spawning stay with each runtime (each knows its own
//! streams and its own refresh command); everything else is decided here.
//!
//! - [`Hook::FileSuggestion`] (`fileSuggestion`): the input `{"query": "..."}` (other keys
//!   are ignored); no input at all (nothing but blanks: a terminal, a closed stdin) is the
//!   empty query, which lists the project's top-ranked files. Stdout: at most
//!   [`MAX_PATHS`] paths of `files.suggest`, one a line, best first. Any other input (not
//!   JSON, not an object, no string `query`, more than [`MAX_INPUT`] bytes) is an error:
//!   stdout stays empty.
//! - [`Hook::SessionStart`] (`SessionStart`): the input is read and ignored; stdout stays
//!   empty (Claude Code adds it to the conversation). A refresh of the project's session
//!   roots is always due; its log is `<data root>/logs/session-start.log`, moved to
//!   `session-start.log.1` first once it grows past [`MAX_LOG_BYTES`] ([`open_log`]).
//!
//! The project is the directory the runtime passes, else `$CLAUDE_PROJECT_DIR`, else the
//! current directory.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::files;

/// Most bytes of a hook's input read; the rest is ignored. A hook's input is a few hundred
/// bytes at most.
pub const MAX_INPUT: usize = 1 << 20;

/// Most paths the `fileSuggestion` command prints.
pub const MAX_PATHS: usize = 15;

/// The session-start log moves to `<name>.1` when it is larger than this, in bytes.
pub const MAX_LOG_BYTES: u64 = 1 << 20;

/// The directory of the data root that holds the hooks' logs.
pub const LOG_DIR: &str = "logs";

/// The file name of the session-start log in [`LOG_DIR`].
pub const SESSION_START_LOG: &str = "session-start.log";

/// A Claude Code hook cc-search answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hook {
    /// The `fileSuggestion` command (the `@` picker).
    FileSuggestion,
    /// The `SessionStart` hook.
    SessionStart,
}

impl Hook {
    /// Every hook, in the order the installers list them.
    pub const ALL: [Hook; 2] = [Hook::FileSuggestion, Hook::SessionStart];

    /// Its name on the command line: `file-suggestion`, `session-start`.
    pub fn name(self) -> &'static str {
        match self {
            Hook::FileSuggestion => "file-suggestion",
            Hook::SessionStart => "session-start",
        }
    }

    /// The hook named `name` ([`Hook::name`]); an `invalid_request` error naming the known
    /// ones otherwise.
    pub fn from_name(name: &str) -> Result<Hook> {
        Hook::ALL
            .into_iter()
            .find(|hook| hook.name() == name)
            .ok_or_else(|| {
                Error::invalid(
                    "hook",
                    format!("unknown hook {name:?} (known: file-suggestion, session-start)"),
                )
            })
    }
}

/// What a hook answers: what to print, what to report, and whether a refresh is due.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// The hook's whole stdout (empty or newline-terminated lines).
    pub stdout: String,
    /// Lines for stderr after stdout is written, each one line of text without a prefix.
    pub warnings: Vec<String>,
    /// Why the hook could not do its work (one line, without a prefix); stdout is then
    /// empty and `refresh` unset.
    pub error: Option<String>,
    /// A refresh the runtime must start in a detached background process.
    pub refresh: Option<Refresh>,
}

/// A refresh of a project's session roots (the project, the configured `[index] roots`
/// and the project's additional directories: `files.refresh` with `project_dir` and no
/// `root`), due now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refresh {
    /// The project, absolute (as given, not canonical).
    pub project_dir: PathBuf,
    /// The log to append the refresh's stdout and stderr to, already rotated
    /// ([`open_log`]).
    pub log: PathBuf,
}

/// Whether `input` (the bytes read so far) holds one complete JSON object: it ends in `}`
/// or a newline, and is a JSON object with nothing after it. A runtime may stop reading
/// then.
pub fn input_complete(input: &[u8]) -> bool {
    matches!(input.last(), Some(b'}' | b'\n')) && parse_object(input).is_some()
}

/// The `query` of a `fileSuggestion` input: the string `query` of a JSON object, or `""`
/// for no input (nothing but blanks). Anything else is an error saying what the input is
/// instead (one line, without a prefix): not JSON (or cut at [`MAX_INPUT`] bytes), not
/// an object, an object without a string `query`. Invalid UTF-8 and unpaired surrogate
/// escapes become U+FFFD.
pub fn query(input: &[u8]) -> std::result::Result<String, String> {
    if input.iter().all(u8::is_ascii_whitespace) {
        return Ok(String::new());
    }
    let not = |what: &str| {
        Err(format!(
            "the input is not {{\"query\": \"...\"}} but {what}"
        ))
    };
    if input.len() > MAX_INPUT {
        return not(&format!("more than {} MiB", MAX_INPUT >> 20));
    }
    match parse_value(input) {
        Some(Value::Object(object)) => match object.get("query") {
            Some(Value::String(query)) => Ok(query.clone()),
            Some(_) => not("an object whose `query` is not a string"),
            None => not("an object without `query`"),
        },
        Some(_) => not("JSON that is not an object"),
        None => not(&format!("{} bytes that are not JSON", input.len())),
    }
}

/// Answer `hook` for the stdin bytes `input`, for the project `project_dir` (else
/// `$CLAUDE_PROJECT_DIR`, else the current directory). Never fails and never panics: a
/// failure is [`Answer::error`].
pub fn run(engine: &Engine, hook: Hook, input: &[u8], project_dir: Option<&Path>) -> Answer {
    let answer = catch_unwind(AssertUnwindSafe(|| match hook {
        Hook::FileSuggestion => file_suggestion(engine, input, project_dir),
        Hook::SessionStart => session_start(engine, project_dir),
    }));
    match answer {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => failed(e.to_string()),
        Err(payload) => {
            let detail = crate::error::panic_message(payload.as_ref());
            failed(format!(
                "internal error: hook {} panicked: {detail}",
                hook.name()
            ))
        }
    }
}

/// `<home>/logs/session-start.log`, its directory created, the file moved to
/// `session-start.log.1` first when it is larger than [`MAX_LOG_BYTES`] (replacing an
/// older `.1`). The file itself is not created: the runtime opens it for appending.
pub fn open_log(home: &Path) -> Result<PathBuf> {
    let dir = home.join(LOG_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let log = dir.join(SESSION_START_LOG);
    match std::fs::metadata(&log) {
        Ok(meta) if meta.len() > MAX_LOG_BYTES => {
            let rotated = dir.join(format!("{SESSION_START_LOG}.1"));
            std::fs::rename(&log, &rotated).map_err(|e| Error::io(&log, e))?;
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(&log, e)),
    }
    Ok(log)
}

fn file_suggestion(engine: &Engine, input: &[u8], project_dir: Option<&Path>) -> Result<Answer> {
    let query = match query(input) {
        Ok(query) => query,
        Err(why) => return Ok(failed(why)),
    };
    let response = engine.run::<files::Suggest>(files::SuggestRequest {
        query,
        project_dir: project_dir.map(Path::to_path_buf),
        limit: Some(MAX_PATHS),
        ..Default::default()
    })?;
    let mut stdout = String::new();
    for path in response.paths.iter().take(MAX_PATHS) {
        stdout.push_str(path);
        stdout.push('\n');
    }
    let warnings = engine
        .warnings()
        .iter()
        .chain(&response.warnings)
        .map(|w| one_line(w))
        .collect();
    Ok(Answer {
        stdout,
        warnings,
        ..Answer::default()
    })
}

fn session_start(engine: &Engine, project_dir: Option<&Path>) -> Result<Answer> {
    let project = crate::env::project_dir_as_named(project_dir.map(Path::to_path_buf))?;
    let project_dir = std::path::absolute(&project).map_err(|e| Error::io(&project, e))?;
    let log = open_log(engine.home())?;
    Ok(Answer {
        refresh: Some(Refresh { project_dir, log }),
        ..Answer::default()
    })
}

fn failed(message: String) -> Answer {
    Answer {
        error: Some(one_line(&message)),
        ..Answer::default()
    }
}

/// `message` on one line: each line break, with the blanks around it, one space. How every
/// hook runtime writes a message on stderr or in the log.
pub fn one_line(message: &str) -> String {
    if !message.contains(['\n', '\r']) {
        return message.to_string();
    }
    message
        .split(['\n', '\r'])
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first [`MAX_INPUT`] bytes of `input` as a JSON object, when they are one.
fn parse_object(input: &[u8]) -> Option<Map<String, Value>> {
    match parse_value(input)? {
        Value::Object(object) => Some(object),
        _ => None,
    }
}

/// The first [`MAX_INPUT`] bytes of `input` as one JSON value, when they are one.
fn parse_value(input: &[u8]) -> Option<Value> {
    let input = &input[..input.len().min(MAX_INPUT)];
    if input.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let text = String::from_utf8_lossy(input);
    match serde_json::from_str::<Value>(&text) {
        Ok(value) => Some(value),
        // serde_json refuses an unpaired surrogate escape (`"\ud800"`), which
        // JavaScript's and Python's parsers accept: read it as U+FFFD instead.
        Err(_) if text.contains("\\u") => {
            serde_json::from_str::<Value>(&replace_lone_surrogates(&text)).ok()
        }
        Err(_) => None,
    }
}

/// `text` (JSON) with every `\uXXXX` escape of an unpaired surrogate replaced by
/// `\uFFFD`. Outside strings valid JSON has no backslash, so every backslash starts an
/// escape; text that is not JSON stays not JSON.
fn replace_lone_surrogates(text: &str) -> Cow<'_, str> {
    fn escape_at(bytes: &[u8], i: usize) -> Option<u16> {
        if bytes.get(i) != Some(&b'\\') || bytes.get(i + 1) != Some(&b'u') {
            return None;
        }
        let hex = std::str::from_utf8(bytes.get(i + 2..i + 6)?).ok()?;
        u16::from_str_radix(hex, 16).ok()
    }
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(unit) = escape_at(bytes, i) else {
            // Another escape (`\\`, `\"`, `\n`, …): skip the escaped character.
            i += 2;
            continue;
        };
        let high = (0xD800..0xDC00).contains(&unit);
        let paired = high && escape_at(bytes, i + 6).is_some_and(|u| (0xDC00..0xE000).contains(&u));
        if paired {
            i += 12;
        } else if (0xD800..0xE000).contains(&unit) {
            let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
            out.push_str(&text[copied..i]);
            out.push_str("\\uFFFD");
            i += 6;
            copied = i;
        } else {
            i += 6;
        }
    }
    match out {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let query = |input: &[u8]| query(input).unwrap_or_else(|e| e);
        assert_eq!(query(br#"{"query": "\ud800butt"}"#), "\u{FFFD}butt");
        assert_eq!(query(br#"{"query": "a\udc00"}"#), "a\u{FFFD}");
        assert_eq!(query(br#"{"query": "\ud83d\ude00"}"#), "\u{1F600}");
        assert_eq!(query(br#"{"query": "\\ud800"}"#), "\\ud800");
        assert_eq!(query(br#"{"query": "\ud800\ud800x"}"#), "\u{FFFD}\u{FFFD}x");
        assert!(super::query(br#"{"query": "\ud800"#).is_err());
    }

    #[test]
    fn one_line_joins_lines_with_one_space() {
        assert_eq!(one_line("a\n  b\r\n\nc "), "a b c");
        assert_eq!(one_line("plain"), "plain");
    }
}
