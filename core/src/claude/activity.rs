//! Files Claude Code worked on in a project, read from its own session transcripts.
//!
//! Claude Code writes every session to `<config_dir>/projects/<folder>/<session>.jsonl`
//! (subagents beside or under it, e.g. `<session>/subagents/agent-*.jsonl`), one JSON
//! record per line. [`scan`] turns the transcripts of one project into [`FileAccess`]es
//! for the picker's frecency (the file-picker spec's "session tracking"):
//!
//! - `assistant` records: each `tool_use` named `Read` ([`AccessKind::Read`]), `Edit`,
//!   `MultiEdit` or `NotebookEdit` ([`AccessKind::Edit`]) or `Write`
//!   ([`AccessKind::Write`]), with its `file_path` (or `notebook_path`); a relative path is
//!   taken relative to the record's `cwd`.
//! - real user prompts (a `user` record whose content is a string or text blocks, not a
//!   tool result, not `isMeta`, not a compaction summary, not a subagent's prompt): each
//!   `@path` or `@"path with spaces"` that names an existing file ([`AccessKind::Mention`]),
//!   relative to the `cwd` or absolute, `~` expanded. Trailing punctuation is taken off
//!   (the mention as typed is tried next), then a `#L10-20` fragment or a `:line` suffix.
//!
//! Which transcripts: Claude Code names the folder after the session's working directory,
//! lossily (every character but ASCII letters and digits becomes `-`, and names longer than
//! 200 characters are cut and given a hash). Folders whose name is the project's encoding,
//! or the encoding of a directory inside it, are read; within them, a record counts only
//! when its own `cwd` is the project or a directory inside it, and an access only when its
//! file is inside the project. Paths are reported absolute and canonical when the file
//! still exists (symbolic links resolved, the project's canonical root), else as recorded.
//!
//! Reading is incremental: each transcript's [`Cursor`] says where reading stopped, and the
//! next [`scan`] reads only the bytes appended since. A transcript whose size and
//! modification time are unchanged is not opened; one that shrank, went back in time or
//! no longer ends a line where the cursor points was rewritten and is read again from the
//! start; a partial last line (a live session in the middle of a write) is left for the
//! next scan.
//!
//! Within one scan, an access is counted once: a tool call by its `tool_use` id (an
//! assistant message split over several lines shares its `message.id`, each line carrying
//! its own blocks; a resumed or forked session repeats earlier calls with their ids), a
//! prompt by its record's `uuid`. Across scans only new bytes are read, so a session forked
//! after an earlier scan repeats, in its new transcript, accesses already reported, with the
//! same path, kind and time: a store that keeps `(path, kind, at)` unique counts them once.
//!
//! Lines that cannot hold an access (no `"tool_use"` with one of the tool names, no `@`) are
//! not parsed at all; the rest are parsed into borrowed fields only. Lines that are not
//! JSON objects, are not UTF-8, are longer than [`MAX_LINE_BYTES`], or are a relevant record
//! without the fields it needs are skipped and counted, with one warning per transcript.
//!
//! ```no_run
//! use std::collections::BTreeMap;
//! use std::path::Path;
//! use cc_search::claude::{self, activity};
//!
//! let project = Path::new("/home/me/project");
//! let first = activity::scan(&claude::config_dir(), project, &BTreeMap::new());
//! for access in &first.accesses {
//!     println!("{} {} {}", access.at, access.kind.as_str(), access.path.display());
//! }
//! // Later: only what was appended since.
//! let next = activity::scan(&claude::config_dir(), project, &first.cursors);
//! # let _ = next;
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::marker::PhantomData;
use std::path::{Component, Path, PathBuf};

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::time::mtime_ns;
use crate::transcripts::{self, Transcript, encode_folder_name, folder_may_hold};

/// Lines longer than this are skipped (and counted) without being kept in memory.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// At most this many `@` mentions are looked up per prompt (a pasted log can hold many).
const MAX_MENTIONS_PER_PROMPT: usize = 64;

/// How Claude Code used a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessKind {
    /// Read by the `Read` tool.
    Read,
    /// Changed by the `Edit`, `MultiEdit` or `NotebookEdit` tool.
    Edit,
    /// Written by the `Write` tool.
    Write,
    /// `@`-mentioned by the user in a prompt.
    Mention,
}

impl AccessKind {
    /// `"read"`, `"edit"`, `"write"` or `"mention"`.
    pub fn as_str(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Edit => "edit",
            AccessKind::Write => "write",
            AccessKind::Mention => "mention",
        }
    }

    /// The kind of access a Claude Code tool makes, for the tools that name one file.
    pub fn of_tool(name: &str) -> Option<AccessKind> {
        match name {
            "Read" => Some(AccessKind::Read),
            "Edit" | "MultiEdit" | "NotebookEdit" => Some(AccessKind::Edit),
            "Write" => Some(AccessKind::Write),
            _ => None,
        }
    }
}

impl fmt::Display for AccessKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One use of a file in a session. Ordered by time, then path, then kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FileAccess {
    /// The file, absolute: canonical when it exists, else as recorded (made absolute
    /// against the record's `cwd`, `.` and `..` removed). Always inside the project.
    pub path: PathBuf,
    /// What was done to it.
    pub kind: AccessKind,
    /// When, in unix seconds, from the record's `timestamp`.
    pub at: i64,
}

impl Ord for FileAccess {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.at, &self.path, self.kind).cmp(&(other.at, &other.path, other.kind))
    }
}

impl PartialOrd for FileAccess {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Where reading of one transcript stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cursor {
    /// The byte after the last complete line read.
    pub offset: u64,
    /// The transcript's size when it was read.
    pub size: u64,
    /// Its modification time then, in nanoseconds since the unix epoch.
    pub mtime_ns: i64,
}

/// What [`scan`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// The accesses in the bytes read, ordered by time, then path, then kind.
    pub accesses: Vec<FileAccess>,
    /// Every transcript of the project that exists now, with where reading stopped; pass
    /// them to the next [`scan`].
    pub cursors: BTreeMap<PathBuf, Cursor>,
    /// Problems, at most one per transcript (with a count of the lines skipped), plus
    /// directories that could not be listed.
    pub warnings: Vec<String>,
    /// How many transcripts were opened and read (unchanged ones are not).
    pub files_read: usize,
    /// How many bytes were read from them.
    pub bytes_read: u64,
}

/// The file accesses in the transcripts of `project` under `config_dir` (Claude Code's
/// configuration directory, see [`super::config_dir`]; transcripts are in `projects/`
/// below it), reading each transcript from its cursor in `cursors` on.
///
/// Never fails: a missing `projects/` folder gives an empty scan, and unreadable folders,
/// files and lines become warnings. `~` in mentions is expanded from `$HOME`.
pub fn scan(config_dir: &Path, project: &Path, cursors: &BTreeMap<PathBuf, Cursor>) -> Scan {
    let home = crate::env::home_dir();
    scan_with(
        config_dir,
        project,
        cursors,
        home.as_deref(),
        MAX_LINE_BYTES,
    )
}

/// [`scan`] with the home directory for `~` and the longest line kept given.
fn scan_with(
    config_dir: &Path,
    project: &Path,
    cursors: &BTreeMap<PathBuf, Cursor>,
    home: Option<&Path>,
    max_line: usize,
) -> Scan {
    let mut scanner = Scanner::new(project, home);
    scanner.max_line = max_line;
    let found = transcripts(config_dir, &scanner.root, &mut scanner.warnings);
    let mut out = BTreeMap::new();
    for transcript in found {
        if let Some(cursor) = scanner.transcript(&transcript, cursors.get(&transcript.path)) {
            out.insert(transcript.path, cursor);
        }
    }
    let mut accesses = scanner.accesses;
    accesses.sort();
    Scan {
        accesses,
        cursors: out,
        warnings: scanner.warnings,
        files_read: scanner.files_read,
        bytes_read: scanner.bytes_read,
    }
}

/// The project's root, spelled as given (absolute, lexically normalised) and canonically.
struct Root {
    given: PathBuf,
    canonical: PathBuf,
}

impl Root {
    fn new(project: &Path) -> Root {
        let absolute = std::path::absolute(project).unwrap_or_else(|_| project.into());
        let given = normalize(&absolute);
        let canonical = fs::canonicalize(&absolute).unwrap_or_else(|_| given.clone());
        Root { given, canonical }
    }

    /// The Claude Code folder-name encodings of the root's spellings.
    fn encodings(&self) -> Vec<String> {
        let mut all = vec![encode_folder_name(&self.given)];
        let canonical = encode_folder_name(&self.canonical);
        if canonical != all[0] {
            all.push(canonical);
        }
        all
    }

    /// `path` (absolute, normalised) moved onto the canonical root when it is inside the
    /// project under either spelling.
    fn inside(&self, path: &Path) -> Option<PathBuf> {
        if path.starts_with(&self.canonical) {
            return Some(path.to_path_buf());
        }
        let rest = path.strip_prefix(&self.given).ok()?;
        Some(self.canonical.join(rest))
    }
}

/// The transcripts in the project folders under `<config_dir>/projects` that may hold the
/// project's sessions, sorted.
fn transcripts(config_dir: &Path, root: &Root, warnings: &mut Vec<String>) -> Vec<Transcript> {
    let projects = config_dir.join("projects");
    let encodings = root.encodings();
    let may_hold = |name: &str| {
        encodings
            .iter()
            .any(|e| folder_may_hold(name.as_bytes(), e.as_bytes()))
    };
    match transcripts::discover(&projects, &may_hold, warnings) {
        Ok(found) => found,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            warnings.push(format!(
                "{}: cannot be listed ({e}); no session transcripts read",
                projects.display()
            ));
            Vec::new()
        }
    }
}

/// `path` with `.` removed and `..` applied (lexically: links are not looked at).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() && !out.has_root() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether a line may hold an access, before any parsing: a `tool_use` of one of the file
/// tools, or an `@` (a mention).
fn may_hold_access(line: &str) -> bool {
    line.contains('@')
        || (contains(line, "\"tool_use\"", '_')
            && (contains(line, "\"Read\"", 'R')
                || contains(line, "Edit\"", 'E')
                || contains(line, "\"Write\"", 'W')))
}

/// Whether `needle` occurs in `text`, found from the occurrences of `anchor`, an ASCII
/// character of the needle that is rare in transcripts (looked for with `memchr`).
fn contains(text: &str, needle: &str, anchor: char) -> bool {
    let Some(before) = needle.find(anchor) else {
        return text.contains(needle);
    };
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text[from..].find(anchor) {
        let at = from + found;
        if let Some(start) = at.checked_sub(before)
            && bytes.get(start..start + needle.len()) == Some(needle.as_bytes())
        {
            return true;
        }
        from = at + 1;
    }
    false
}

/// The `@` mentions of a prompt, as typed: `@path` (up to the next whitespace or `<`) and
/// `@"quoted path"`, each after the start of the text, whitespace, an opening bracket or
/// quote, or the `>` of a tag (a slash command's `<command-args>`).
fn mention_tokens(text: &str) -> Vec<Mention<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find('@') {
        let at = from + found;
        from = at + 1;
        let before = text[..at].chars().next_back();
        let starts_a_mention = match before {
            None => true,
            Some(c) => c.is_whitespace() || matches!(c, '(' | '[' | '{' | '"' | '\'' | '`' | '>'),
        };
        if !starts_a_mention {
            continue;
        }
        let rest = &text[at + 1..];
        if let Some(quoted) = rest.strip_prefix('"') {
            if let Some(end) = quoted.find(['"', '\n']) {
                let token = &quoted[..end];
                if quoted[end..].starts_with('"') && !token.trim().is_empty() {
                    out.push(Mention {
                        text: token,
                        quoted: true,
                    });
                    from = at + 2 + end + 1;
                }
            }
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '<')
                .unwrap_or(rest.len());
            if end > 0 {
                out.push(Mention {
                    text: &rest[..end],
                    quoted: false,
                });
            }
            from = at + 1 + end;
        }
        if out.len() >= MAX_MENTIONS_PER_PROMPT {
            break;
        }
    }
    out
}

/// One `@` mention as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mention<'a> {
    text: &'a str,
    quoted: bool,
}

impl<'a> Mention<'a> {
    /// The paths the mention may name, most literal first: without trailing punctuation,
    /// as typed, without a `#…` fragment, without a `:line[:column]` suffix.
    fn candidates(self) -> Vec<&'a str> {
        const TRAILING: &[char] = &[
            '.', ',', ';', ':', '!', '?', ')', ']', '}', '>', '"', '\'', '`', '*',
        ];
        let mut out: Vec<&'a str> = Vec::with_capacity(4);
        let mut add = |s: &'a str| {
            if !s.is_empty() && !out.contains(&s) {
                out.push(s);
            }
        };
        let stripped = if self.quoted {
            self.text
        } else {
            self.text.trim_end_matches(TRAILING)
        };
        add(stripped);
        add(self.text);
        if let Some((path, _)) = stripped.split_once('#') {
            add(path);
        }
        let mut lineless = stripped;
        for _ in 0..2 {
            match lineless.rsplit_once(':') {
                Some((path, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                    lineless = path;
                }
                _ => break,
            }
        }
        add(lineless);
        out
    }
}

/// Problems in one transcript: how many lines were skipped and the first reason.
#[derive(Default)]
struct Skipped {
    count: usize,
    first: Option<String>,
}

impl Skipped {
    fn add(&mut self, offset: u64, why: impl FnOnce() -> String) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some(format!("at byte {offset}: {}", why()));
        }
    }
}

/// The state of one scan.
struct Scanner<'h> {
    root: Root,
    /// [`MAX_LINE_BYTES`], smaller in tests.
    max_line: usize,
    home: Option<&'h Path>,
    accesses: Vec<FileAccess>,
    warnings: Vec<String>,
    files_read: usize,
    bytes_read: u64,
    seen_records: HashSet<String>,
    seen_tools: HashSet<String>,
    /// A record's `cwd` → the directory, normalised, when it is inside the project.
    cwds: HashMap<String, Option<PathBuf>>,
    /// A tool's file joined to the cwd → where it is in the project.
    tool_paths: HashMap<PathBuf, Option<PathBuf>>,
    /// A mentioned path joined to the cwd (or home) → the existing file in the project.
    mention_paths: HashMap<PathBuf, Option<PathBuf>>,
}

impl<'h> Scanner<'h> {
    fn new(project: &Path, home: Option<&'h Path>) -> Scanner<'h> {
        Scanner {
            root: Root::new(project),
            max_line: MAX_LINE_BYTES,
            home,
            accesses: Vec::new(),
            warnings: Vec::new(),
            files_read: 0,
            bytes_read: 0,
            seen_records: HashSet::new(),
            seen_tools: HashSet::new(),
            cwds: HashMap::new(),
            tool_paths: HashMap::new(),
            mention_paths: HashMap::new(),
        }
    }

    /// Reads one transcript from its cursor on; returns the new cursor, or `None` when the
    /// transcript is gone (or could not be read and had no cursor). One whose size and
    /// modification time as found are the cursor's is not opened.
    fn transcript(&mut self, transcript: &Transcript, cursor: Option<&Cursor>) -> Option<Cursor> {
        let path = transcript.path.as_path();
        let shown = path.display();
        if let Some(c) = cursor
            && c.size == transcript.size
            && c.mtime_ns == transcript.mtime_ns
        {
            return Some(*c);
        }
        let mut skipped = Skipped::default();
        let mut progress = None;
        let result = File::open(path)
            .and_then(|file| self.read_from(file, cursor, &mut skipped, &mut progress));
        let mut problems = Vec::new();
        let next = match result {
            Ok(next) => Some(next),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
            Err(e) => {
                problems.push(format!(
                    "cannot be read ({e}); the rest is left for the next scan"
                ));
                progress.or(cursor.copied())
            }
        };
        if let Some(first) = skipped.first {
            let lines = if skipped.count == 1 { "line" } else { "lines" };
            problems.push(format!("{} {lines} skipped (first {first})", skipped.count));
        }
        if !problems.is_empty() {
            self.warnings
                .push(format!("{shown}: {}", problems.join("; ")));
        }
        next
    }

    /// Reads the complete lines of an open transcript from where `cursor` says (or from
    /// the start when the file was rewritten) up to its current size.
    ///
    /// Should reading fail, `progress` is a cursor after the last line read, with a size
    /// that makes the next scan read on from there.
    fn read_from(
        &mut self,
        mut file: File,
        cursor: Option<&Cursor>,
        skipped: &mut Skipped,
        progress: &mut Option<Cursor>,
    ) -> io::Result<Cursor> {
        let meta = file.metadata()?;
        let (size, mtime) = (meta.len(), mtime_ns(&meta));
        let mut start = match cursor {
            Some(c) if size >= c.size && mtime >= c.mtime_ns && c.offset <= size => c.offset,
            _ => 0,
        };
        if start > 0 {
            // A cursor always points just after a newline; anything else means the file
            // was replaced by another one at least as long.
            let mut byte = [0u8];
            file.seek(SeekFrom::Start(start - 1))?;
            file.read_exact(&mut byte)?;
            if byte[0] != b'\n' {
                start = 0;
            }
        }
        file.seek(SeekFrom::Start(start))?;
        self.files_read += 1;
        let read_up_to = |offset| Cursor {
            offset,
            size: offset,
            mtime_ns: mtime,
        };
        *progress = Some(read_up_to(start));
        let mut reader = BufReader::with_capacity(1 << 18, file.take(size - start));
        let mut line = Vec::new();
        let mut line_start = start;
        loop {
            line.clear();
            let limit = self.max_line as u64 + 1;
            let read = (&mut reader).take(limit).read_until(b'\n', &mut line)? as u64;
            self.bytes_read += read;
            if line.last() == Some(&b'\n') {
                line.pop();
                self.line(&line, line_start, skipped);
                line_start += read;
                *progress = Some(read_up_to(line_start));
                continue;
            }
            if line.len() <= self.max_line {
                break; // the end of the bytes to read
            }
            // Too long to keep: skip to its end (a newline, or the end for the next scan).
            let mut length = read;
            let ended = loop {
                line.clear();
                let more = (&mut reader).take(1 << 20).read_until(b'\n', &mut line)? as u64;
                self.bytes_read += more;
                length += more;
                if more == 0 || line.last() == Some(&b'\n') {
                    break more > 0;
                }
            };
            if !ended {
                break;
            }
            let max = self.max_line;
            skipped.add(line_start, || format!("longer than {max} bytes"));
            line_start += length;
            *progress = Some(read_up_to(line_start));
        }
        // A last line without its newline is left for the next scan.
        Ok(Cursor {
            offset: line_start,
            size,
            mtime_ns: mtime,
        })
    }

    /// One complete line (without its newline) starting at byte `offset`.
    fn line(&mut self, bytes: &[u8], offset: u64, skipped: &mut Skipped) {
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        let Ok(text) = std::str::from_utf8(bytes) else {
            skipped.add(offset, || "not UTF-8".into());
            return;
        };
        let trimmed = text.trim_start();
        if trimmed.is_empty() {
            return;
        }
        if !trimmed.starts_with('{') {
            skipped.add(offset, || "not a JSON object".into());
            return;
        }
        if !may_hold_access(text) {
            return;
        }
        let record: Record<'_> = match serde_json::from_str(text) {
            Ok(record) => record,
            Err(e) if e.is_data() => {
                skipped.add(offset, || format!("not a record ({e})"));
                return;
            }
            Err(e) => {
                skipped.add(offset, || format!("not JSON ({e})"));
                return;
            }
        };
        match record.kind.get() {
            Some("assistant") => self.assistant(record, offset, skipped),
            Some("user") => self.user(record, offset, skipped),
            _ => {}
        }
    }
}

impl Scanner<'_> {
    /// An `assistant` record: its file tool calls.
    fn assistant(&mut self, record: Record<'_>, offset: u64, skipped: &mut Skipped) {
        let Some(message) = record.message.0.as_ref() else {
            return;
        };
        let Content::Blocks(blocks) = &message.content else {
            return;
        };
        let calls: Vec<(&Block<'_>, AccessKind)> = blocks
            .iter()
            .filter_map(|block| {
                let block = block.0.as_ref()?;
                if block.kind.get() != Some("tool_use") {
                    return None;
                }
                Some((block, AccessKind::of_tool(block.name.get()?)?))
            })
            .collect();
        if calls.is_empty() {
            return;
        }
        let Some(cwd) = self.record_cwd(&record, offset, skipped) else {
            return;
        };
        let Some(at) = record_time(&record, offset, skipped) else {
            return;
        };
        for (block, kind) in calls {
            let input = block.input.0.as_ref();
            let file = input
                .and_then(|input| input.file_path.get().or(input.notebook_path.get()))
                .filter(|file| !file.is_empty());
            let Some(file) = file else {
                skipped.add(offset, || {
                    format!(
                        "a {} call without a file_path",
                        block.name.get().unwrap_or_default()
                    )
                });
                continue;
            };
            let key = match block.id.get() {
                Some(id) => id.to_owned(),
                None => format!("{at}\0{kind}\0{file}"),
            };
            if !self.seen_tools.insert(key) {
                continue;
            }
            if let Some(path) = self.tool_path(&cwd, file) {
                self.accesses.push(FileAccess { path, kind, at });
            }
        }
    }

    /// A `user` record: the files a real prompt `@`-mentions.
    fn user(&mut self, record: Record<'_>, offset: u64, skipped: &mut Skipped) {
        if record.is_meta.0 || record.is_compact_summary.0 || record.is_sidechain.0 {
            return;
        }
        let Some(message) = record.message.0.as_ref() else {
            return;
        };
        let mut texts: Vec<&str> = Vec::new();
        match &message.content {
            Content::Text(text) => texts.push(text),
            Content::Blocks(blocks) => {
                for block in blocks.iter().filter_map(|b| b.0.as_ref()) {
                    match block.kind.get() {
                        Some("tool_result") => return,
                        Some("text") => texts.extend(block.text.get()),
                        _ => {}
                    }
                }
            }
            Content::Other => return,
        }
        let mut mentions: Vec<Mention<'_>> = texts
            .into_iter()
            .filter(|text| transcripts::generated(text).is_none())
            .flat_map(mention_tokens)
            .collect();
        mentions.truncate(MAX_MENTIONS_PER_PROMPT);
        if mentions.is_empty() || self.seen(&record) {
            return;
        }
        let Some(cwd) = self.record_cwd(&record, offset, skipped) else {
            return;
        };
        let Some(at) = record_time(&record, offset, skipped) else {
            return;
        };
        let mut files: Vec<PathBuf> = Vec::new();
        for mention in mentions {
            let file = mention
                .candidates()
                .into_iter()
                .find_map(|candidate| self.mention_path(&cwd, candidate));
            if let Some(file) = file
                && !files.contains(&file)
            {
                files.push(file);
            }
        }
        for path in files {
            self.accesses.push(FileAccess {
                path,
                kind: AccessKind::Mention,
                at,
            });
        }
        self.remember(&record);
    }

    /// Whether a record with this `uuid` was already counted in this scan.
    fn seen(&self, record: &Record<'_>) -> bool {
        record
            .uuid
            .get()
            .is_some_and(|uuid| self.seen_records.contains(uuid))
    }

    fn remember(&mut self, record: &Record<'_>) {
        if let Some(uuid) = record.uuid.get() {
            self.seen_records.insert(uuid.to_owned());
        }
    }

    /// The record's `cwd` (on the project's canonical root) when it is the project or a
    /// directory inside it; `None` for another project's record, and for a record without
    /// a `cwd` (counted).
    fn record_cwd(
        &mut self,
        record: &Record<'_>,
        offset: u64,
        skipped: &mut Skipped,
    ) -> Option<PathBuf> {
        let Some(cwd) = record.cwd.get() else {
            skipped.add(offset, || "a record without a cwd".into());
            return None;
        };
        if let Some(known) = self.cwds.get(cwd) {
            return known.clone();
        }
        let inside = self.cwd_inside(cwd);
        self.cwds.insert(cwd.to_owned(), inside.clone());
        inside
    }

    fn cwd_inside(&self, cwd: &str) -> Option<PathBuf> {
        let path = Path::new(cwd);
        if !path.is_absolute() {
            return None;
        }
        if let Some(inside) = self.root.inside(&normalize(path)) {
            return Some(inside);
        }
        let real = fs::canonicalize(path).ok()?;
        real.starts_with(&self.root.canonical).then_some(real)
    }

    /// A tool's file (absolute, or relative to `cwd`) when it is in the project.
    fn tool_path(&mut self, cwd: &Path, file: &str) -> Option<PathBuf> {
        let joined = cwd.join(file);
        if let Some(known) = self.tool_paths.get(&joined) {
            return known.clone();
        }
        let found = match fs::canonicalize(&joined) {
            Ok(real) => Some(real).filter(|real| real.starts_with(&self.root.canonical)),
            // Deleted since, or never created: as recorded.
            Err(_) => self.root.inside(&normalize(&joined)),
        }
        .filter(|path| *path != self.root.canonical);
        self.tool_paths.insert(joined, found.clone());
        found
    }

    /// A mentioned path (`~/…`, absolute or relative to `cwd`) when it is an existing file
    /// in the project.
    fn mention_path(&mut self, cwd: &Path, mention: &str) -> Option<PathBuf> {
        let expanded = match (mention.strip_prefix('~'), self.home) {
            (Some(""), Some(home)) => home.to_path_buf(),
            (Some(rest), Some(home)) if rest.starts_with('/') => home.join(&rest[1..]),
            _ => cwd.join(mention),
        };
        if let Some(known) = self.mention_paths.get(&expanded) {
            return known.clone();
        }
        let found = fs::canonicalize(&expanded)
            .ok()
            .filter(|real| real.starts_with(&self.root.canonical))
            .filter(|real| fs::metadata(real).is_ok_and(|m| m.is_file()));
        self.mention_paths.insert(expanded, found.clone());
        found
    }
}

/// The record's `timestamp` in unix seconds; `None` (counted) when missing or invalid.
fn record_time(record: &Record<'_>, offset: u64, skipped: &mut Skipped) -> Option<i64> {
    let at = record
        .timestamp
        .get()
        .and_then(crate::time::parse_timestamp);
    if at.is_none() {
        skipped.add(offset, || match record.timestamp.get() {
            Some(text) => format!(
                "a timestamp that is not RFC 3339 ({})",
                super::shorten(text)
            ),
            None => "a record without a timestamp".into(),
        });
    }
    at
}

// The few fields read from a record. Every field is lenient: a value of an unexpected type
// reads as absent instead of failing the line, and everything else is skipped unparsed.

/// A record (one line).
#[derive(Deserialize)]
struct Record<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Str<'a>,
    #[serde(default, borrow)]
    uuid: Str<'a>,
    #[serde(default, borrow)]
    cwd: Str<'a>,
    #[serde(default, borrow)]
    timestamp: Str<'a>,
    #[serde(rename = "isMeta", default)]
    is_meta: Flag,
    #[serde(rename = "isCompactSummary", default)]
    is_compact_summary: Flag,
    #[serde(rename = "isSidechain", default)]
    is_sidechain: Flag,
    #[serde(default, borrow)]
    message: Obj<Message<'a>>,
}

/// A record's `message`.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(default, borrow)]
    content: Content<'a>,
}

/// An item of `message.content`.
#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Str<'a>,
    #[serde(default, borrow)]
    id: Str<'a>,
    #[serde(default, borrow)]
    name: Str<'a>,
    #[serde(default, borrow)]
    text: Str<'a>,
    #[serde(default, borrow)]
    input: Obj<Input<'a>>,
}

/// A `tool_use` block's `input`.
#[derive(Deserialize)]
struct Input<'a> {
    #[serde(default, borrow)]
    file_path: Str<'a>,
    #[serde(default, borrow)]
    notebook_path: Str<'a>,
}

/// `Ok(Default::default())` for the JSON values a lenient field does not take.
macro_rules! ignore {
    (bool) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
    (numbers) => {
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
    (str) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
    (null) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
    (seq) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
    };
    (map) => {
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
    };
}

/// A string field, borrowed from the line when it has no escapes.
#[derive(Default)]
struct Str<'a>(Option<Cow<'a, str>>);

impl Str<'_> {
    fn get(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StrVisitor;
        impl<'de> Visitor<'de> for StrVisitor {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Str(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Str(Some(Cow::Owned(v.to_owned()))))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Str(Some(Cow::Owned(v))))
            }
            ignore!(bool);
            ignore!(numbers);
            ignore!(null);
            ignore!(seq);
            ignore!(map);
        }
        deserializer.deserialize_any(StrVisitor)
    }
}

/// A boolean field: `true` only when it is `true`.
#[derive(Default)]
struct Flag(bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FlagVisitor;
        impl<'de> Visitor<'de> for FlagVisitor {
            type Value = Flag;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a boolean")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Flag(v))
            }
            ignore!(numbers);
            ignore!(str);
            ignore!(null);
            ignore!(seq);
            ignore!(map);
        }
        deserializer.deserialize_any(FlagVisitor)
    }
}

/// An object field read as `T`.
struct Obj<T>(Option<T>);

impl<T> Default for Obj<T> {
    fn default() -> Self {
        Obj(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjVisitor<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(|t| Obj(Some(t)))
            }
            ignore!(bool);
            ignore!(numbers);
            ignore!(str);
            ignore!(null);
            ignore!(seq);
        }
        deserializer.deserialize_any(ObjVisitor(PhantomData))
    }
}

/// `message.content`: a string or a list of blocks.
#[derive(Default)]
enum Content<'a> {
    Text(Cow<'a, str>),
    Blocks(Vec<Obj<Block<'a>>>),
    #[default]
    Other,
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ContentVisitor;
        impl<'de> Visitor<'de> for ContentVisitor {
            type Value = Content<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or a list of content blocks")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Content::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Content::Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Content::Text(Cow::Owned(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut blocks = Vec::new();
                while let Some(block) = seq.next_element::<Obj<Block<'de>>>()? {
                    blocks.push(block);
                }
                Ok(Content::Blocks(blocks))
            }
            ignore!(bool);
            ignore!(numbers);
            ignore!(null);
            ignore!(map);
        }
        deserializer.deserialize_any(ContentVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_is_lexical() {
        assert_eq!(normalize(Path::new("/a/./b/../c/")), Path::new("/a/c"));
        assert_eq!(normalize(Path::new("/../a")), Path::new("/a"));
        assert_eq!(normalize(Path::new("a/../../b")), Path::new("../b"));
    }

    fn tokens(text: &str) -> Vec<(&str, bool)> {
        mention_tokens(text)
            .into_iter()
            .map(|m| (m.text, m.quoted))
            .collect()
    }

    #[test]
    fn mentions_start_after_whitespace_or_an_opening_bracket() {
        assert_eq!(
            tokens("look at @src/a.rs, (@b.md) and @\"docs/my file.md\" please"),
            [
                ("src/a.rs,", false),
                ("b.md)", false),
                ("docs/my file.md", true)
            ]
        );
        assert_eq!(tokens("@lead\tend"), [("lead", false)]);
        assert_eq!(
            tokens("<command-name>/review</command-name><command-args>@a.rs @b.rs</command-args>"),
            [("a.rs", false), ("b.rs", false)]
        );
        // Not mentions: an e-mail address, a package version, a path segment, a lone @.
        assert!(
            tokens("me@example.com actions/checkout@v5 ./node_modules/@x/y @ @\"\"").is_empty()
        );
        // An unterminated quote is no mention.
        assert!(tokens("@\"open\nquote\"").is_empty());
    }

    #[test]
    fn mention_candidates_drop_punctuation_fragments_and_line_numbers() {
        let c = |text, quoted| Mention { text, quoted }.candidates();
        assert_eq!(c("src/a.rs,", false), ["src/a.rs", "src/a.rs,"]);
        assert_eq!(c("a.rs", false), ["a.rs"]);
        assert_eq!(c("a.rs#L10-20", false), ["a.rs#L10-20", "a.rs"]);
        assert_eq!(c("a.rs:12:3.", false), ["a.rs:12:3", "a.rs:12:3.", "a.rs"]);
        assert_eq!(c("my file.md.", true), ["my file.md."]);
    }

    #[test]
    fn lenient_fields_read_odd_types_as_absent() {
        let line = r#"{"type":"user","uuid":7,"cwd":["/p"],"isMeta":"yes","isSidechain":null,
            "timestamp":"2025-01-01T00:00:00Z","message":{"content":[1,"x",{"type":"text","text":"hi \"@a\""}]}}"#;
        let record: Record<'_> = serde_json::from_str(line).unwrap();
        assert_eq!(record.kind.get(), Some("user"));
        assert_eq!(record.uuid.get(), None);
        assert_eq!(record.cwd.get(), None);
        assert!(!record.is_meta.0 && !record.is_sidechain.0);
        let Some(Message {
            content: Content::Blocks(blocks),
        }) = record.message.0
        else {
            panic!("blocks expected");
        };
        assert_eq!(blocks.len(), 3);
        let text = blocks[2].0.as_ref().and_then(|b| b.text.get());
        assert_eq!(text, Some("hi \"@a\""));
        let odd: Record<'_> = serde_json::from_str(r#"{"message":"error"}"#).unwrap();
        assert!(odd.message.0.is_none());
    }

    #[test]
    fn mentions_expand_home() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().canonicalize().unwrap();
        let project = home.join("proj");
        fs::create_dir_all(project.join("src")).unwrap();
        fs::write(project.join("src/a.rs"), "").unwrap();
        let folder = home.join("cfg/projects").join(encode_folder_name(&project));
        fs::create_dir_all(&folder).unwrap();
        let line = serde_json::json!({
            "type": "user", "uuid": "u1", "cwd": project.join("src"),
            "timestamp": "2025-01-01T00:00:00Z",
            "message": {"role": "user", "content": "see @~/proj/src/a.rs and @~/elsewhere.rs"},
        });
        fs::write(folder.join("s.jsonl"), format!("{line}\n")).unwrap();
        fs::write(home.join("elsewhere.rs"), "").unwrap();
        let cfg = home.join("cfg");
        let scan = scan_with(
            &cfg,
            &project,
            &BTreeMap::new(),
            Some(&home),
            MAX_LINE_BYTES,
        );
        assert_eq!(
            scan.accesses,
            [FileAccess {
                path: project.join("src/a.rs"),
                kind: AccessKind::Mention,
                at: 1_735_689_600,
            }]
        );
        let without_home = scan_with(&cfg, &project, &BTreeMap::new(), None, MAX_LINE_BYTES);
        assert!(without_home.accesses.is_empty());
    }

    #[test]
    fn contains_finds_needles_from_their_anchor() {
        assert!(contains(
            r#"{"type":"tool_use","name":"Read"}"#,
            "\"tool_use\"",
            '_'
        ));
        assert!(!contains(r#"{"tool_use_id":"x"}"#, "\"tool_use\"", '_'));
        assert!(contains("_\"tool_use\"", "\"tool_use\"", '_'));
        assert!(!contains("_use\"", "\"tool_use\"", '_'));
        assert!(contains("é \"Write\"", "\"Write\"", 'W'));
        assert!(contains("xEdit\"", "Edit\"", 'E'));
        assert!(!contains("", "Edit\"", 'E'));
    }

    #[test]
    fn lines_longer_than_the_limit_are_skipped_even_across_scans() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let project = base.join("proj");
        fs::create_dir_all(&project).unwrap();
        fs::write(project.join("a.rs"), "").unwrap();
        let folder = base.join("projects").join(encode_folder_name(&project));
        fs::create_dir_all(&folder).unwrap();
        let record = |id: &str, second: u32| {
            serde_json::json!({
                "type": "assistant", "cwd": project, "uuid": id,
                "timestamp": format!("2025-01-01T00:00:{second:02}Z"),
                "message": {"id": id, "content": [
                    {"type": "tool_use", "id": id, "name": "Read", "input": {"file_path": "a.rs"}},
                ]},
            })
            .to_string()
        };
        let small = format!("{}\n", record("t1", 1));
        let long = format!("{}{}\n", record("t2", 2), " ".repeat(5000));
        let last = format!("{}\n", record("t3", 3));
        let file = folder.join("s.jsonl");
        // The long line arrives in two writes: first a part of it, with no newline.
        fs::write(&file, format!("{small}{}", &long[..3000])).unwrap();
        let first = scan_with(&base, &project, &BTreeMap::new(), None, 1000);
        assert_eq!(first.accesses.len(), 1);
        assert!(first.warnings.is_empty(), "{:?}", first.warnings);
        assert_eq!(first.cursors[&file].offset, small.len() as u64);

        let mut tail = fs::OpenOptions::new().append(true).open(&file).unwrap();
        std::io::Write::write_all(&mut tail, format!("{}{last}", &long[3000..]).as_bytes())
            .unwrap();
        let next = scan_with(&base, &project, &first.cursors, None, 1000);
        let seconds: Vec<i64> = next.accesses.iter().map(|a| a.at % 60).collect();
        assert_eq!(seconds, [3]);
        assert_eq!(next.warnings.len(), 1);
        assert!(
            next.warnings[0].contains("1 line skipped (first at byte"),
            "{:?}",
            next.warnings
        );
        assert!(
            next.warnings[0].contains("longer than 1000 bytes"),
            "{:?}",
            next.warnings
        );
        let end = (small.len() + long.len() + last.len()) as u64;
        assert_eq!(next.cursors[&file].offset, end);
    }
}
