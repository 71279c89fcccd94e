//! Claude Code transcript parsing: JSON lines → prompt groups of typed parts.
//!
//! A transcript is one JSON object per line. What each record type becomes:
//!
//! | record | handling |
//! | --- | --- |
//! | `user`, content a string or text blocks, not `isMeta`/`isCompactSummary` | a real prompt: opens a new group |
//! | `user` with `isCompactSummary` | a compaction summary: opens a group, part kind `summary` |
//! | `user` with `tool_result` blocks, or command output text (`<local-command-stdout>`, `<bash-stdout>`, …: [`crate::transcripts::generated`]) | tool output of the open group |
//! | `user` with `isMeta` | skipped (injected caveats and command context) |
//! | `assistant` | text, thinking and tool calls of the open group; lines sharing `message.id` re-joined |
//! | `summary` (`summary` + `leafUuid`) | a session title: its own `summary` chunk |
//! | `system`, `progress`, `file-history-snapshot`, `queue-operation`, `attachment`, anything else | skipped, counted |
//!
//! A record whose `uuid` was already used in the file is skipped (resumed and forked
//! sessions repeat records). Records with `isSidechain` form their own stream per
//! `agentId`, so an inline subagent conversation never splits the main one's groups.
//!
//! Lines that are not JSON objects are skipped and reported. The last line without a
//! trailing newline is taken when it is complete JSON, and otherwise left (with the
//! watermark before it) for the next run: a live session is still writing it.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

/// Longest text kept of one tool call's input or one tool result (characters); the rest
/// is cut with a marker. Tool I/O is >90% of a transcript's bytes and weighted low.
pub const MAX_TOOL_PART_CHARS: usize = 1500;
/// Longest text kept of one thinking block (characters).
pub const MAX_THINKING_PART_CHARS: usize = 6000;

/// The type of a part of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PartKind {
    /// The real user prompt.
    Prompt,
    /// A compaction summary (or a session title).
    Summary,
    /// Assistant text.
    Text,
    /// Assistant thinking.
    Thinking,
    /// A tool call (name and input).
    ToolUse,
    /// A tool's output.
    ToolResult,
}

/// One typed piece of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Its type.
    pub kind: PartKind,
    /// Its text.
    pub text: String,
}

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The user (prompts, compaction summaries, tool results).
    User,
    /// The assistant.
    Assistant,
}

/// One message: a record, or several assistant lines sharing `message.id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// The record's `uuid` (the first line's, for a joined assistant message).
    pub uuid: Option<String>,
    /// The API message id (`message.id`) of an assistant message.
    pub message_id: Option<String>,
    /// When (Unix seconds).
    pub time: Option<i64>,
    /// Its parts, in order.
    pub parts: Vec<Part>,
}

/// How a group starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opener {
    /// A real prompt.
    Prompt,
    /// A compaction summary.
    Compact,
    /// Records before any prompt of the stream.
    Preamble,
}

/// A prompt and everything up to the next prompt of its stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// `""` for the main conversation, else the sidechain's agent id.
    pub stream: String,
    /// Byte offset of its first line in the file.
    pub start: u64,
    /// The opening record's uuid.
    pub uuid: Option<String>,
    /// What opened it.
    pub opener: Opener,
    /// Its messages, in order.
    pub messages: Vec<Message>,
}

impl Group {
    /// The first timestamp in the group.
    pub fn time(&self) -> Option<i64> {
        self.messages.iter().find_map(|m| m.time)
    }
}

/// A `summary` record (a session title).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Title {
    /// Byte offset of its line.
    pub offset: u64,
    /// The text.
    pub text: String,
    /// `leafUuid`, when given.
    pub leaf: Option<String>,
}

/// What [`parse`] found in a range of a transcript.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// Groups, ordered by start.
    pub groups: Vec<Group>,
    /// Session titles.
    pub titles: Vec<Title>,
    /// The byte after the last line taken: the next run starts from here at the latest.
    pub end: u64,
    /// Per stream, the offset of its last group's first line (where a re-parse must
    /// start for that stream to rebuild the group that may still grow).
    pub open: BTreeMap<String, u64>,
    /// The first `cwd` seen.
    pub cwd: Option<String>,
    /// The first `sessionId` seen.
    pub session_id: Option<String>,
    /// Whether records were sidechain records.
    pub sidechain: bool,
    /// First and last timestamps seen.
    pub first_time: Option<i64>,
    /// Last timestamp seen.
    pub last_time: Option<i64>,
    /// Lines skipped as corrupt: (byte offset, why).
    pub corrupt: Vec<(u64, String)>,
    /// Records skipped on purpose, by type.
    pub skipped: BTreeMap<String, usize>,
    /// Records read.
    pub records: usize,
}

/// Parse `bytes`, which start at byte `base` of the file. Records of stream `s` before
/// `restart[s]` are ignored (they belong to groups closed in an earlier run).
pub fn parse(bytes: &[u8], base: u64, restart: &BTreeMap<String, u64>) -> Parsed {
    let mut parser = Parser {
        out: Parsed {
            end: base,
            ..Parsed::default()
        },
        restart,
        seen: HashSet::new(),
        current: BTreeMap::new(),
    };
    let mut at = 0usize;
    while at < bytes.len() {
        let (line, next, terminated) = match memchr::memchr(b'\n', &bytes[at..]) {
            Some(i) => (&bytes[at..at + i], at + i + 1, true),
            None => (&bytes[at..], bytes.len(), false),
        };
        let offset = base + at as u64;
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            if terminated {
                parser.out.end = base + next as u64;
            }
            at = next;
            continue;
        }
        match serde_json::from_slice::<Value>(trimmed) {
            Ok(Value::Object(record)) => {
                parser.record(&Value::Object(record), offset);
                parser.out.end = base + next as u64;
            }
            Ok(_) => {
                parser
                    .out
                    .corrupt
                    .push((offset, "not a JSON object".into()));
                parser.out.end = base + next as u64;
            }
            // A live session's last line, still being written: left for the next run.
            Err(_) if !terminated => break,
            Err(e) => {
                parser.out.corrupt.push((offset, e.to_string()));
                parser.out.end = base + next as u64;
            }
        }
        at = next;
    }
    parser.finish()
}

struct Parser<'a> {
    out: Parsed,
    restart: &'a BTreeMap<String, u64>,
    seen: HashSet<String>,
    /// Index into `out.groups` of each stream's open group.
    current: BTreeMap<String, usize>,
}

fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

impl Parser<'_> {
    fn skip(&mut self, kind: &str) {
        *self.out.skipped.entry(kind.to_string()).or_insert(0) += 1;
    }

    fn record(&mut self, record: &Value, offset: u64) {
        self.out.records += 1;
        let kind = str_of(record, "type").unwrap_or("(no type)");
        if kind == "summary" {
            match str_of(record, "summary") {
                Some(text) if !text.trim().is_empty() => self.out.titles.push(Title {
                    offset,
                    text: text.trim().to_string(),
                    leaf: str_of(record, "leafUuid").map(str::to_string),
                }),
                _ => self.skip("summary"),
            }
            return;
        }
        if kind != "user" && kind != "assistant" {
            let name = match (kind, str_of(record, "subtype")) {
                ("system", Some(sub)) => format!("system:{sub}"),
                _ => kind.to_string(),
            };
            self.skip(&name);
            return;
        }
        let Some(message) = record.get("message").filter(|m| m.is_object()) else {
            self.skip(&format!("{kind} without message"));
            return;
        };
        let sidechain = record
            .get("isSidechain")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let stream = if sidechain {
            str_of(record, "agentId").unwrap_or("sidechain").to_string()
        } else {
            String::new()
        };
        if self.restart.get(&stream).is_some_and(|&r| offset < r) {
            return;
        }
        let uuid = str_of(record, "uuid").map(str::to_string);
        if let Some(uuid) = &uuid
            && self.seen.contains(uuid)
        {
            self.skip("duplicate uuid");
            return;
        }
        let time = str_of(record, "timestamp").and_then(crate::time::parse_timestamp);
        if kind == "user" {
            if record.get("isMeta").and_then(Value::as_bool) == Some(true) {
                self.skip("user:isMeta");
                return;
            }
            let compact = record.get("isCompactSummary").and_then(Value::as_bool) == Some(true);
            let (parts, prompt) = user_parts(message.get("content"), compact);
            if parts.is_empty() {
                self.skip("user without text");
                return;
            }
            self.note(record, time, sidechain, uuid.clone());
            let msg = Message {
                role: Role::User,
                uuid: uuid.clone(),
                message_id: None,
                time,
                parts,
            };
            if compact || prompt {
                self.open(
                    stream,
                    offset,
                    uuid,
                    if compact {
                        Opener::Compact
                    } else {
                        Opener::Prompt
                    },
                    msg,
                );
            } else {
                self.append(stream, offset, msg);
            }
            return;
        }
        let parts = assistant_parts(message.get("content"));
        if parts.is_empty() {
            self.skip("assistant without content");
            return;
        }
        self.note(record, time, sidechain, uuid.clone());
        let message_id = str_of(message, "id").map(str::to_string);
        // Lines of one API message: joined into the message they continue.
        if let Some(id) = &message_id
            && let Some(&g) = self.current.get(&stream)
            && let Some(last) = self.out.groups[g].messages.last_mut()
            && last.role == Role::Assistant
            && last.message_id.as_deref() == Some(id)
        {
            for part in parts {
                if !last.parts.contains(&part) {
                    last.parts.push(part);
                }
            }
            return;
        }
        self.append(
            stream,
            offset,
            Message {
                role: Role::Assistant,
                uuid,
                message_id,
                time,
                parts,
            },
        );
    }

    /// Remember what every used record says about the session.
    fn note(&mut self, record: &Value, time: Option<i64>, sidechain: bool, uuid: Option<String>) {
        if let Some(uuid) = uuid {
            self.seen.insert(uuid);
        }
        if self.out.cwd.is_none() {
            self.out.cwd = str_of(record, "cwd")
                .filter(|c| !c.is_empty())
                .map(str::to_string);
        }
        if self.out.session_id.is_none() {
            self.out.session_id = str_of(record, "sessionId").map(str::to_string);
        }
        self.out.sidechain |= sidechain;
        if let Some(t) = time {
            self.out.first_time = Some(self.out.first_time.map_or(t, |f| f.min(t)));
            self.out.last_time = Some(self.out.last_time.map_or(t, |l| l.max(t)));
        }
    }

    fn open(
        &mut self,
        stream: String,
        offset: u64,
        uuid: Option<String>,
        opener: Opener,
        msg: Message,
    ) {
        self.current.insert(stream.clone(), self.out.groups.len());
        self.out.open.insert(stream.clone(), offset);
        self.out.groups.push(Group {
            stream,
            start: offset,
            uuid,
            opener,
            messages: vec![msg],
        });
    }

    fn append(&mut self, stream: String, offset: u64, msg: Message) {
        match self.current.get(&stream) {
            Some(&g) => self.out.groups[g].messages.push(msg),
            None => {
                let uuid = msg.uuid.clone();
                self.open(stream, offset, uuid, Opener::Preamble, msg);
            }
        }
    }

    fn finish(mut self) -> Parsed {
        self.out.groups.sort_by_key(|g| g.start);
        self.out
    }
}

/// Text of a `text` block list or string.
fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| match b {
                Value::String(s) => Some(s.as_str()),
                b if str_of(b, "type") == Some("text") => str_of(b, "text"),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The parts of a user record, and whether it is a real prompt.
fn user_parts(content: Option<&Value>, compact: bool) -> (Vec<Part>, bool) {
    let Some(content) = content else {
        return (Vec::new(), false);
    };
    let mut parts = Vec::new();
    let mut results = false;
    if let Value::Array(blocks) = content {
        for block in blocks {
            if str_of(block, "type") == Some("tool_result") {
                results = true;
                let text = block.get("content").map(text_of).unwrap_or_default();
                let text = text.trim();
                if !text.is_empty() {
                    parts.push(Part {
                        kind: PartKind::ToolResult,
                        text: cut(text, MAX_TOOL_PART_CHARS),
                    });
                }
            }
        }
    }
    if results {
        return (parts, false);
    }
    let text = text_of(content);
    let text = text.trim();
    if text.is_empty() {
        return (parts, false);
    }
    if compact {
        return (
            vec![Part {
                kind: PartKind::Summary,
                text: text.to_string(),
            }],
            false,
        );
    }
    if crate::transcripts::generated(text) == Some(crate::transcripts::Generated::CommandOutput) {
        return (
            vec![Part {
                kind: PartKind::ToolResult,
                text: cut(text, MAX_TOOL_PART_CHARS),
            }],
            false,
        );
    }
    (
        vec![Part {
            kind: PartKind::Prompt,
            text: text.to_string(),
        }],
        true,
    )
}

/// The parts of an assistant record: text, thinking and tool calls (images and other
/// blocks are not text).
fn assistant_parts(content: Option<&Value>) -> Vec<Part> {
    let mut parts = Vec::new();
    match content {
        Some(Value::String(s)) if !s.trim().is_empty() => parts.push(Part {
            kind: PartKind::Text,
            text: s.trim().to_string(),
        }),
        Some(Value::Array(blocks)) => {
            for block in blocks {
                let part = match str_of(block, "type") {
                    Some("text") => str_of(block, "text").map(|t| Part {
                        kind: PartKind::Text,
                        text: t.trim().to_string(),
                    }),
                    Some("thinking") => str_of(block, "thinking").map(|t| Part {
                        kind: PartKind::Thinking,
                        text: cut(t.trim(), MAX_THINKING_PART_CHARS),
                    }),
                    Some("tool_use") => {
                        let name = str_of(block, "name").unwrap_or("tool");
                        let input = block
                            .get("input")
                            .map(|i| match i {
                                Value::String(s) => s.clone(),
                                other => other.to_string(),
                            })
                            .unwrap_or_default();
                        Some(Part {
                            kind: PartKind::ToolUse,
                            text: cut(&format!("{name} {input}"), MAX_TOOL_PART_CHARS),
                        })
                    }
                    _ => None,
                };
                if let Some(part) = part.filter(|p| !p.text.is_empty()) {
                    parts.push(part);
                }
            }
        }
        _ => {}
    }
    parts
}

/// `text` cut to `max` characters, with a marker saying how much was left out.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => {
            let rest = text[at..].chars().count();
            format!("{} […{rest} more chars]", &text[..at])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(records: &[Value]) -> Vec<u8> {
        let mut out = Vec::new();
        for r in records {
            out.extend(r.to_string().bytes());
            out.push(b'\n');
        }
        out
    }

    fn user(uuid: &str, content: Value) -> Value {
        serde_json::json!({"type": "user", "uuid": uuid, "cwd": "/p", "sessionId": "s",
            "timestamp": "2026-01-02T03:04:05Z", "message": {"role": "user", "content": content}})
    }

    fn assistant(uuid: &str, id: &str, block: Value) -> Value {
        serde_json::json!({"type": "assistant", "uuid": uuid, "timestamp": "2026-01-02T03:04:06Z",
            "message": {"id": id, "role": "assistant", "content": [block]}})
    }

    #[test]
    fn prompts_group_everything_up_to_the_next_prompt() {
        let bytes = lines(&[
            serde_json::json!({"type": "progress", "data": {}}),
            user("u1", "how do I fix the build?".into()),
            assistant(
                "a1",
                "m1",
                serde_json::json!({"type": "thinking", "thinking": "hmm"}),
            ),
            assistant(
                "a2",
                "m1",
                serde_json::json!({"type": "text", "text": "Run cargo."}),
            ),
            assistant(
                "a3",
                "m1",
                serde_json::json!({"type": "tool_use", "name": "Bash", "input": {"command": "ls"}}),
            ),
            user(
                "u2",
                serde_json::json!([{"type": "tool_result", "tool_use_id": "t", "content": "a.rs"}]),
            ),
            serde_json::json!({"type": "user", "uuid": "u3", "isMeta": true,
                "message": {"role": "user", "content": "caveat"}}),
            user("u1", "duplicate".into()),
            user(
                "u4",
                serde_json::json!([{"type": "text", "text": "thanks"}]),
            ),
            serde_json::json!({"type": "file-history-snapshot"}),
        ]);
        let parsed = parse(&bytes, 0, &BTreeMap::new());
        assert_eq!(parsed.groups.len(), 2);
        let g = &parsed.groups[0];
        assert_eq!(g.opener, Opener::Prompt);
        assert_eq!(g.uuid.as_deref(), Some("u1"));
        // The three assistant lines are one message.
        assert_eq!(g.messages.len(), 3);
        assert_eq!(g.messages[1].parts.len(), 3);
        assert_eq!(g.messages[2].parts[0].kind, PartKind::ToolResult);
        assert_eq!(parsed.skipped["user:isMeta"], 1);
        assert_eq!(parsed.skipped["duplicate uuid"], 1);
        assert_eq!(parsed.skipped["progress"], 1);
        assert_eq!(parsed.cwd.as_deref(), Some("/p"));
        assert_eq!(parsed.end, bytes.len() as u64);
        assert_eq!(parsed.open[""], parsed.groups[1].start);
    }

    #[test]
    fn command_output_typed_by_claude_code_is_tool_output_not_a_prompt() {
        for output in [
            "<local-command-stdout>built</local-command-stdout>",
            "<bash-stdout>total 0</bash-stdout><bash-stderr></bash-stderr>",
        ] {
            let bytes = lines(&[
                user("u1", "run the tests".into()),
                user("u2", output.into()),
            ]);
            let parsed = parse(&bytes, 0, &BTreeMap::new());
            assert_eq!(parsed.groups.len(), 1, "{output}");
            let parts = &parsed.groups[0].messages[1].parts;
            assert_eq!(parts[0].kind, PartKind::ToolResult, "{output}");
        }
    }

    #[test]
    fn corrupt_and_partial_lines() {
        let mut bytes = lines(&[user("u1", "first".into())]);
        bytes.extend(b"{not json\n\"a string\"\n");
        let whole = bytes.len() as u64;
        bytes.extend(b"{\"type\": \"user\", \"uuid\": \"u2\", \"mess");
        let parsed = parse(&bytes, 0, &BTreeMap::new());
        assert_eq!(parsed.corrupt.len(), 2);
        assert_eq!(parsed.groups.len(), 1);
        assert_eq!(parsed.end, whole, "the partial line is left");
        // A complete last line without a newline is taken.
        let mut bytes = lines(&[user("u1", "first".into())]);
        bytes.pop();
        let parsed = parse(&bytes, 0, &BTreeMap::new());
        assert_eq!(parsed.groups.len(), 1);
        assert_eq!(parsed.end, bytes.len() as u64);
    }

    #[test]
    fn sidechains_are_streams_of_their_own_and_restart_per_stream() {
        let mut side = user("s1", "subagent task".into());
        side["isSidechain"] = true.into();
        side["agentId"] = "ag".into();
        let mut side_reply = assistant(
            "s2",
            "ms",
            serde_json::json!({"type": "text", "text": "done"}),
        );
        side_reply["isSidechain"] = true.into();
        side_reply["agentId"] = "ag".into();
        let bytes = lines(&[
            user("u1", "main prompt".into()),
            side,
            assistant(
                "a1",
                "m1",
                serde_json::json!({"type": "text", "text": "main reply"}),
            ),
            side_reply,
            user("u2", "second prompt".into()),
        ]);
        let parsed = parse(&bytes, 0, &BTreeMap::new());
        let streams: Vec<(&str, usize)> = parsed
            .groups
            .iter()
            .map(|g| (g.stream.as_str(), g.messages.len()))
            .collect();
        assert_eq!(streams, [("", 2), ("ag", 2), ("", 1)]);
        // Re-parsing from the sidechain's group start: the main stream's closed group
        // (before its restart offset) is not rebuilt from its tail.
        let from = parsed.open["ag"];
        let tail = parse(&bytes[from as usize..], from, &parsed.open);
        let streams: Vec<(&str, usize)> = tail
            .groups
            .iter()
            .map(|g| (g.stream.as_str(), g.messages.len()))
            .collect();
        assert_eq!(streams, [("ag", 2), ("", 1)]);
        assert_eq!(tail.groups, parsed.groups[1..]);
    }

    #[test]
    fn long_text_is_cut_with_a_marker() {
        assert_eq!(cut("abcdef", 4), "abcd […2 more chars]");
        assert_eq!(cut("abc", 4), "abc");
    }
}
