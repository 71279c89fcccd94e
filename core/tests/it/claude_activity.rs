//! File accesses learned from Claude Code session transcripts (`claude::activity::scan`),
//! on real files: the real and edge-case transcripts of `tests/fixtures/sessions` copied
//! into a temporary `$CLAUDE_CONFIG_DIR/projects/<folder>/` with their `cwd` moved to a
//! temporary project, and hand-written records for each rule.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use cc_search::claude::activity::{self, AccessKind, Cursor, FileAccess, Scan};
use serde_json::{Value, json};
use tempfile::TempDir;

/// The real and edge-case transcripts, committed with their provenance and licences.
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/sessions");

/// Unix seconds of [`ts`]`(0)`.
const T0: i64 = 1_735_689_600;

/// `2025-01-01T00:00:00Z` plus `seconds`, with milliseconds as Claude Code writes it.
fn ts(seconds: i64) -> String {
    format!(
        "2025-01-01T{:02}:{:02}:{:02}.123Z",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// Claude Code's folder name for a directory (ASCII paths).
fn encode(path: &Path) -> String {
    path.to_str()
        .unwrap()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// A temporary Claude Code config directory and a project `<tmp>/work/my-proj`.
struct Fixture {
    _dir: TempDir,
    config: PathBuf,
    project: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(dir.path()).unwrap();
        let project = base.join("work/my-proj");
        fs::create_dir_all(&project).unwrap();
        let config = base.join("claude");
        fs::create_dir_all(config.join("projects")).unwrap();
        Fixture {
            _dir: dir,
            config,
            project,
        }
    }

    /// The transcript folder of sessions started in `cwd`.
    fn folder_for(&self, cwd: &Path) -> PathBuf {
        let folder = self.config.join("projects").join(encode(cwd));
        fs::create_dir_all(&folder).unwrap();
        folder
    }

    /// The transcript folder of sessions started in the project.
    fn folder(&self) -> PathBuf {
        self.folder_for(&self.project)
    }

    /// A file in the project (parents created), by its canonical path.
    fn file(&self, relative: &str) -> PathBuf {
        let path = self.project.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, "x").unwrap();
        path
    }

    fn scan(&self, cursors: &BTreeMap<PathBuf, Cursor>) -> Scan {
        activity::scan(&self.config, &self.project, cursors)
    }

    fn fresh(&self) -> Scan {
        self.scan(&BTreeMap::new())
    }
}

fn user(uuid: &str, cwd: &Path, at: i64, content: Value) -> String {
    json!({
        "parentUuid": null, "isSidechain": false, "userType": "external",
        "cwd": cwd, "sessionId": "s1", "version": "2.0.5", "gitBranch": "main",
        "type": "user", "message": {"role": "user", "content": content},
        "uuid": uuid, "timestamp": ts(at),
    })
    .to_string()
}

fn assistant(uuid: &str, cwd: &Path, at: i64, message_id: &str, blocks: Vec<Value>) -> String {
    json!({
        "parentUuid": "p", "isSidechain": false, "userType": "external",
        "cwd": cwd, "sessionId": "s1", "version": "2.0.5", "gitBranch": "main",
        "message": {
            "model": "claude-sonnet-4-5", "id": message_id, "type": "message",
            "role": "assistant", "content": blocks, "stop_reason": "tool_use",
            "usage": {"input_tokens": 3, "output_tokens": 5},
        },
        "requestId": "req", "type": "assistant", "uuid": uuid, "timestamp": ts(at),
    })
    .to_string()
}

fn tool(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

fn read(id: &str, path: &Path) -> Value {
    tool(id, "Read", json!({"file_path": path}))
}

fn tool_result(uuid: &str, cwd: &Path, at: i64, text: &str) -> String {
    json!({
        "cwd": cwd, "type": "user", "uuid": uuid, "timestamp": ts(at),
        "message": {"role": "user", "content": [
            {"tool_use_id": "toolu_x", "type": "tool_result", "content": text},
        ]},
        "toolUseResult": {"stdout": text},
    })
    .to_string()
}

/// Records as a transcript: one per line, each ended by a newline.
fn lines(records: &[String]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

fn append(path: &Path, text: &[u8]) {
    let mut file = fs::OpenOptions::new().append(true).open(path).unwrap();
    file.write_all(text).unwrap();
}

fn access(path: &Path, kind: AccessKind, at: i64) -> FileAccess {
    FileAccess {
        path: path.to_path_buf(),
        kind,
        at,
    }
}

/// `(path relative to the project, kind, seconds after T0)` of each access.
fn summary(scan: &Scan, project: &Path) -> Vec<(String, AccessKind, i64)> {
    scan.accesses
        .iter()
        .map(|a| {
            let relative = a.path.strip_prefix(project).unwrap_or(&a.path);
            (relative.display().to_string(), a.kind, a.at - T0)
        })
        .collect()
}

fn set_mtime(path: &Path, time: SystemTime) {
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(time)
        .unwrap();
}

// ---------------------------------------------------------------------------------------
// Real transcripts

/// Copies a real transcript with each `(from, to)` replaced in its text.
fn copy_replaced(from: &Path, to: &Path, replacements: &[(&str, &str)]) {
    let mut text = fs::read_to_string(from).unwrap();
    for (a, b) in replacements {
        text = text.replace(a, b);
    }
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    fs::write(to, text).unwrap();
}

/// The real transcripts moved into the fixture's project: large, long and tiny in the
/// project's folder, short in the folder of a directory inside the project.
fn real_transcripts(fx: &Fixture) {
    let project = fx.project.to_str().unwrap();
    let real = Path::new(DATA).join("real");
    let streaming =
        "/Users/testuser/Documents/GitHub/projects/example-project/.worktrees/streaming";
    let example = "/Users/testuser/Documents/GitHub/example-org/example-project";
    let tool_dir = "/Users/testuser/.worktrees/example-feature/skills/collaboration/remembering-conversations/tool";
    let folder = fx.folder();
    for (name, from) in [
        ("large-conversation", streaming),
        ("tiny-conversation", streaming),
        ("long-conversation", example),
        ("medium-conversation", example),
    ] {
        copy_replaced(
            &real.join(format!("{name}.jsonl")),
            &folder.join(format!("{name}.jsonl")),
            &[(from, project)],
        );
    }
    let tool = fx.project.join("tool");
    fs::create_dir_all(&tool).unwrap();
    copy_replaced(
        &real.join("short-conversation.jsonl"),
        &fx.folder_for(&tool).join("short-conversation.jsonl"),
        &[(tool_dir, tool.to_str().unwrap())],
    );
}

#[test]
fn real_transcripts_give_each_file_tool_call_once() {
    let fx = Fixture::new();
    real_transcripts(&fx);
    let scan = fx.fresh();

    assert!(scan.warnings.is_empty(), "{:?}", scan.warnings);
    let count = |kind| scan.accesses.iter().filter(|a| a.kind == kind).count();
    // large: 24 Read + 43 Edit; long: 2 Read + 17 Write + 14 Edit (unique tool_use ids).
    assert_eq!(count(AccessKind::Read), 26);
    assert_eq!(count(AccessKind::Edit), 57);
    assert_eq!(count(AccessKind::Write), 17);
    // No `@` in them names a file: npm scopes, `@dataclass`, `actions/checkout@v5`.
    assert_eq!(count(AccessKind::Mention), 0);
    assert_eq!(scan.accesses.len(), 100);
    assert!(
        scan.accesses
            .iter()
            .all(|a| a.path.starts_with(&fx.project))
    );

    let first = &scan.accesses[0];
    let last = &scan.accesses[99];
    assert_eq!(first.at, 1_758_342_899); // 2025-09-20T04:34:59.560Z
    assert_eq!(last.at, 1_759_942_868); // 2025-10-08T17:01:08.643Z
    let ordered = scan
        .accesses
        .windows(2)
        .all(|w| (w[0].at, &w[0].path) <= (w[1].at, &w[1].path));
    assert!(ordered, "accesses are ordered by time, then path");

    let stream = fx.project.join("app/routes/api.stream.ts");
    let of = |path: &Path, kind| {
        scan.accesses
            .iter()
            .filter(|a| a.path == path && a.kind == kind)
            .count()
    };
    assert_eq!(of(&stream, AccessKind::Read), 5);
    assert_eq!(of(&stream, AccessKind::Edit), 7);
    assert_eq!(of(&fx.project.join("src/index.ts"), AccessKind::Write), 1);
    assert_eq!(of(&fx.project.join("src/index.ts"), AccessKind::Edit), 2);

    // All five transcripts have cursors at their end, the empty-session one included.
    assert_eq!(scan.cursors.len(), 5);
    for (path, cursor) in &scan.cursors {
        let size = fs::metadata(path).unwrap().len();
        assert_eq!(
            (cursor.offset, cursor.size),
            (size, size),
            "{}",
            path.display()
        );
    }
    assert_eq!(scan.files_read, 5);

    // Nothing changed: nothing opened, nothing found, the same cursors.
    let again = fx.scan(&scan.cursors);
    assert!(again.accesses.is_empty());
    assert_eq!(again.cursors, scan.cursors);
    assert_eq!((again.files_read, again.bytes_read), (0, 0));
}

#[test]
fn a_prompt_in_a_real_transcript_mentions_existing_files() {
    let fx = Fixture::new();
    real_transcripts(&fx);
    let cursors = fx.fresh().cursors;
    let button = fx.file("app/components/ui/ClientChart.tsx");
    fx.file("knip.json");
    // A real prompt record of long-conversation, continued with a new prompt.
    let long = fx.folder().join("long-conversation.jsonl");
    let text = fs::read_to_string(&long).unwrap();
    let prompt = text
        .lines()
        .find(|l| l.contains("please read the research"))
        .unwrap();
    let mut record: Value = serde_json::from_str(prompt).unwrap();
    record["uuid"] = json!("new-prompt");
    record["timestamp"] = json!("2025-10-09T08:00:00.000Z");
    record["message"]["content"] =
        json!("look at @app/components/ui/ClientChart.tsx and @knip.json, not @nothing.ts");
    append(&long, format!("{record}\n").as_bytes());

    let scan = fx.scan(&cursors);
    assert_eq!(
        scan.accesses,
        [
            access(&button, AccessKind::Mention, 1_759_996_800),
            access(
                &fx.project.join("knip.json"),
                AccessKind::Mention,
                1_759_996_800
            ),
        ]
    );
    assert_eq!(scan.files_read, 1, "only the grown transcript is read");
}

// ---------------------------------------------------------------------------------------
// Edge-case transcripts

/// Each line's `cwd` (and paths starting with it) moved to `project`, when it is a
/// Unix path; other lines kept byte for byte.
fn move_cwds(text: &str, project: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let cwd = serde_json::from_str::<Value>(line.trim_end())
            .ok()
            .and_then(|v| v.get("cwd").and_then(Value::as_str).map(str::to_owned))
            .filter(|cwd| cwd.starts_with('/'));
        match cwd {
            Some(cwd) => out.push_str(
                &line
                    .replace(&format!("\"{cwd}\""), &format!("\"{project}\""))
                    .replace(&format!("\"{cwd}/"), &format!("\"{project}/")),
            ),
            None => out.push_str(line),
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path, project: &str) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target, project);
        } else if entry.path().extension().is_some_and(|e| e == "jsonl") {
            let text = fs::read_to_string(entry.path()).unwrap();
            fs::write(&target, move_cwds(&text, project)).unwrap();
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn edge_case_transcripts_are_read_or_skipped_on_purpose() {
    let fx = Fixture::new();
    let folder = fx.folder();
    copy_tree(
        &Path::new(DATA).join("edge-cases"),
        &folder,
        fx.project.to_str().unwrap(),
    );
    let scan = fx.fresh();

    let p = |relative: &str| fx.project.join(relative);
    assert_eq!(
        scan.accesses,
        [
            // memory_interactions: the project file; its reads and writes of Claude Code's
            // memory folder (outside the project) are dropped.
            access(&p("src/main.py"), AccessKind::Read, 1_748_772_005),
            // edge_cases: a MultiEdit among corrupt lines.
            access(&p("complex_example.py"), AccessKind::Edit, 1_749_898_980),
            access(&p("decorator_example.py"), AccessKind::Edit, 1_751_558_167),
            // sidechain: two reads.
            access(
                &p("test/test_toggle_functionality.py"),
                AccessKind::Read,
                1_751_558_167
            ),
            access(
                &p("claude_code_log/templates/transcript.html"),
                AccessKind::Read,
                1_751_558_527
            ),
            access(
                &p("claude_code_log/converter.py"),
                AccessKind::Read,
                1_778_411_760
            ),
            // edit_tool.jsonl's Edit was recorded on Windows (`e:\…` cwd): another machine.
        ]
    );

    // Only edge_cases.jsonl has lines that are not JSON objects ("massive error", 42, [1]).
    assert_eq!(scan.warnings.len(), 1, "{:?}", scan.warnings);
    let warning = &scan.warnings[0];
    assert!(warning.contains("edge_cases.jsonl"), "{warning}");
    assert!(warning.contains("3 lines skipped"), "{warning}");

    // Every transcript has a cursor: sessions, subagents under them, workflow journals.
    let mut expected: Vec<PathBuf> = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
    }
    walk(&folder, &mut expected);
    expected.sort();
    assert_eq!(expected.len(), 38);
    assert_eq!(scan.cursors.keys().cloned().collect::<Vec<_>>(), expected);
    assert!(scan.cursors.contains_key(&folder.join(
        "teammates/ef000000-0000-4000-8000-000000000001/subagents/agent-bbbb222222222222.jsonl"
    )));

    // Two fixtures end without a newline: their last line waits for the rest.
    for (path, cursor) in &scan.cursors {
        let text = fs::read(path).unwrap();
        let complete = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        assert_eq!(cursor.offset, complete as u64, "{}", path.display());
        assert_eq!(cursor.size, text.len() as u64);
    }
    let partial: Vec<_> = scan
        .cursors
        .iter()
        .filter(|(_, c)| c.offset < c.size)
        .map(|(p, _)| p.file_name().unwrap().to_str().unwrap().to_owned())
        .collect();
    assert_eq!(partial, ["edge_cases.jsonl", "edit_tool.jsonl"]);
}

// ---------------------------------------------------------------------------------------
// One rule at a time

#[test]
fn each_file_tool_counts_with_its_kind_and_other_tools_do_not() {
    let fx = Fixture::new();
    let p = |relative: &str| fx.project.join(relative);
    let records = [
        assistant(
            "a1",
            &fx.project,
            1,
            "msg_1",
            vec![
                json!({"type": "text", "text": "Looking at the files."}),
                read("t1", &p("src/read.rs")),
                tool(
                    "t2",
                    "Edit",
                    json!({"file_path": p("src/edit.rs"), "old_string": "a", "new_string": "b"}),
                ),
                tool(
                    "t3",
                    "MultiEdit",
                    json!({"file_path": p("src/multi.rs"), "edits": []}),
                ),
                tool(
                    "t4",
                    "Write",
                    json!({"file_path": p("src/write.rs"), "content": "fn main() {}"}),
                ),
                tool(
                    "t5",
                    "NotebookEdit",
                    json!({"notebook_path": p("nb/analysis.ipynb"), "new_source": "1"}),
                ),
                tool("t6", "Bash", json!({"command": "cat src/bash.rs"})),
                tool(
                    "t7",
                    "Grep",
                    json!({"pattern": "x", "path": p("src/grep.rs")}),
                ),
                tool(
                    "t8",
                    "Glob",
                    json!({"pattern": "**/*.rs", "path": p("src")}),
                ),
                tool(
                    "t9",
                    "TodoWrite",
                    json!({"todos": [{"content": "Write \"Read\""}]}),
                ),
                tool(
                    "t10",
                    "mcp__fs__read_file",
                    json!({"file_path": p("src/mcp.rs")}),
                ),
            ],
        ),
        // A Read that names no file: counted as a skipped line.
        assistant(
            "a2",
            &fx.project,
            2,
            "msg_2",
            vec![tool("t11", "Read", json!({"limit": 5}))],
        ),
    ];
    fs::write(fx.folder().join("s.jsonl"), lines(&records)).unwrap();

    let scan = fx.fresh();
    assert_eq!(
        summary(&scan, &fx.project),
        [
            ("nb/analysis.ipynb".into(), AccessKind::Edit, 1),
            ("src/edit.rs".into(), AccessKind::Edit, 1),
            ("src/multi.rs".into(), AccessKind::Edit, 1),
            ("src/read.rs".into(), AccessKind::Read, 1),
            ("src/write.rs".into(), AccessKind::Write, 1),
        ]
    );
    assert_eq!(scan.warnings.len(), 1);
    assert!(
        scan.warnings[0].contains("1 line skipped"),
        "{:?}",
        scan.warnings
    );
    assert!(
        scan.warnings[0].contains("Read call without a file_path"),
        "{:?}",
        scan.warnings
    );
}

#[test]
fn relative_paths_resolve_against_the_record_cwd() {
    let fx = Fixture::new();
    let sub = fx.project.join("sub");
    fs::create_dir_all(&sub).unwrap();
    let real = fx.file("lib/real.rs");
    std::os::unix::fs::symlink(&real, fx.project.join("lib/link.rs")).unwrap();
    let outside = fx.project.parent().unwrap().join("outside.rs");
    fs::write(&outside, "x").unwrap();
    let records = [assistant(
        "a1",
        &sub,
        5,
        "msg_1",
        vec![
            tool("t1", "Read", json!({"file_path": "a.rs"})),
            tool("t2", "Edit", json!({"file_path": "../b.rs"})),
            tool("t3", "Read", json!({"file_path": "./c/../d.rs"})),
            tool("t4", "Read", json!({"file_path": "../../outside.rs"})),
            tool("t5", "Read", json!({"file_path": outside})),
            tool("t6", "Read", json!({"file_path": "../lib/link.rs"})),
            tool("t7", "Read", json!({"file_path": "/etc/hostname"})),
            tool("t8", "Read", json!({"file_path": ".."})),
        ],
    )];
    fs::write(fx.folder_for(&sub).join("s.jsonl"), lines(&records)).unwrap();

    let scan = fx.fresh();
    assert_eq!(
        summary(&scan, &fx.project),
        [
            // Never created, so as recorded: relative to the cwd.
            ("b.rs".into(), AccessKind::Edit, 5),
            // The link resolved to the file it names.
            ("lib/real.rs".into(), AccessKind::Read, 5),
            ("sub/a.rs".into(), AccessKind::Read, 5),
            ("sub/d.rs".into(), AccessKind::Read, 5),
        ]
    );
    assert!(scan.warnings.is_empty(), "{:?}", scan.warnings);
}

#[test]
fn a_project_given_through_a_symbolic_link_finds_its_sessions() {
    let fx = Fixture::new();
    let file = fx.file("src/a.rs");
    fs::write(
        fx.folder().join("s.jsonl"),
        lines(&[assistant(
            "a1",
            &fx.project,
            1,
            "m1",
            vec![read("t1", &file)],
        )]),
    )
    .unwrap();
    let link = fx.project.parent().unwrap().join("link-to-proj");
    std::os::unix::fs::symlink(&fx.project, &link).unwrap();

    let scan = activity::scan(&fx.config, &link, &BTreeMap::new());
    assert_eq!(scan.accesses, [access(&file, AccessKind::Read, T0 + 1)]);
}

#[test]
fn mentions_name_existing_files_of_real_prompts() {
    let fx = Fixture::new();
    let a = fx.file("src/a.rs");
    let b = fx.file("src/b.rs");
    let c = fx.file("c.rs");
    let notes = fx.file("docs/My Notes.md");
    let readme = fx.file("README.md");
    let meta = fx.file("meta.rs");
    let command = fx.file("cmd.rs");
    let outside = fx.project.parent().unwrap().join("outside.rs");
    fs::write(&outside, "x").unwrap();
    let project = &fx.project;
    let records = [
        // A typed prompt: punctuation, a quoted path with spaces, a line range, brackets,
        // a repeat, a missing file, a directory, a file outside, an e-mail address.
        user(
            "u1",
            project,
            10,
            json!(format!(
                "fix @src/a.rs, then read @\"docs/My Notes.md\" and @src/b.rs#L3-9 (see @c.rs). \
                 Again @src/a.rs! Not @missing.rs, not @src, not @{}, not me@c.rs",
                outside.display()
            )),
        ),
        // Text blocks are a prompt too.
        user(
            "u2",
            project,
            20,
            json!([{"type": "text", "text": "and @README.md"}]),
        ),
        // A slash command's arguments.
        user(
            "u8",
            project,
            25,
            json!(
                "<command-message>review is running…</command-message>\n\
                 <command-name>/review</command-name>\n<command-args>@cmd.rs</command-args>"
            ),
        ),
        // Not prompts: a tool result, isMeta, a compaction summary, command output.
        tool_result("u3", project, 30, "@src/a.rs @meta.rs"),
        {
            let mut r: Value =
                serde_json::from_str(&user("u4", project, 40, json!("@meta.rs"))).unwrap();
            r["isMeta"] = json!(true);
            r.to_string()
        },
        {
            let mut r: Value =
                serde_json::from_str(&user("u5", project, 50, json!("@meta.rs"))).unwrap();
            r["isCompactSummary"] = json!(true);
            r.to_string()
        },
        user(
            "u6",
            project,
            60,
            json!("<local-command-stdout>@meta.rs</local-command-stdout>"),
        ),
        // An assistant mentioning a file is no user mention.
        assistant(
            "a7",
            project,
            70,
            "m7",
            vec![json!({"type": "text", "text": "@meta.rs"})],
        ),
    ];
    fs::write(fx.folder().join("s.jsonl"), lines(&records)).unwrap();

    let scan = fx.fresh();
    assert_eq!(
        scan.accesses,
        [
            access(&c, AccessKind::Mention, T0 + 10),
            access(&notes, AccessKind::Mention, T0 + 10),
            access(&a, AccessKind::Mention, T0 + 10),
            access(&b, AccessKind::Mention, T0 + 10),
            access(&readme, AccessKind::Mention, T0 + 20),
            access(&command, AccessKind::Mention, T0 + 25),
        ]
    );
    assert!(!scan.accesses.iter().any(|x| x.path == meta));
    assert!(scan.warnings.is_empty(), "{:?}", scan.warnings);
}

#[test]
fn split_assistant_messages_count_each_tool_call_once() {
    let fx = Fixture::new();
    let x = fx.file("x.rs");
    let y = fx.file("y.rs");
    let records = [
        // One API message over three lines (same message.id, own uuids); the third
        // repeats the first block, as a streamed message can.
        assistant(
            "a1",
            &fx.project,
            1,
            "msg_same",
            vec![json!({"type": "thinking", "thinking": "..."})],
        ),
        assistant("a2", &fx.project, 2, "msg_same", vec![read("toolu_1", &x)]),
        assistant(
            "a3",
            &fx.project,
            3,
            "msg_same",
            vec![tool("toolu_2", "Edit", json!({"file_path": y}))],
        ),
        assistant("a4", &fx.project, 4, "msg_same", vec![read("toolu_1", &x)]),
    ];
    fs::write(fx.folder().join("s.jsonl"), lines(&records)).unwrap();

    let scan = fx.fresh();
    assert_eq!(
        scan.accesses,
        [
            access(&x, AccessKind::Read, T0 + 2),
            access(&y, AccessKind::Edit, T0 + 3),
        ]
    );
}

#[test]
fn records_repeated_by_resumed_sessions_count_once() {
    let fx = Fixture::new();
    let a = fx.file("a.rs");
    let b = fx.file("b.rs");
    let c = fx.file("c.rs");
    let prompt = user("u1", &fx.project, 1, json!("start with @a.rs"));
    let call = assistant("a1", &fx.project, 2, "m1", vec![read("toolu_1", &b)]);
    let folder = fx.folder();
    fs::write(
        folder.join("first.jsonl"),
        lines(&[prompt.clone(), call.clone()]),
    )
    .unwrap();
    // A forked session starts with a copy of the first one's records.
    let new = assistant("a2", &fx.project, 3, "m2", vec![read("toolu_2", &c)]);
    fs::write(folder.join("fork.jsonl"), lines(&[prompt, call, new])).unwrap();

    let scan = fx.fresh();
    assert_eq!(
        scan.accesses,
        [
            access(&a, AccessKind::Mention, T0 + 1),
            access(&b, AccessKind::Read, T0 + 2),
            access(&c, AccessKind::Read, T0 + 3),
        ]
    );
}

#[test]
fn subagent_transcripts_are_read_but_their_prompts_are_not_mentions() {
    let fx = Fixture::new();
    let a = fx.file("a.rs");
    let b = fx.file("b.rs");
    let c = fx.file("c.rs");
    let folder = fx.folder();
    let session = "5f0c0000-0000-4000-8000-000000000001";
    fs::write(
        folder.join(format!("{session}.jsonl")),
        lines(&[user("u1", &fx.project, 1, json!("delegate"))]),
    )
    .unwrap();
    let sidechain = |record: String| {
        let mut r: Value = serde_json::from_str(&record).unwrap();
        r["isSidechain"] = json!(true);
        r["agentId"] = json!("ag1");
        r.to_string()
    };
    // Newer layout: `<session>/subagents/agent-*.jsonl`.
    let under = folder.join(session).join("subagents");
    fs::create_dir_all(&under).unwrap();
    fs::write(
        under.join("agent-ag1.jsonl"),
        lines(&[
            sidechain(user("s1", &fx.project, 2, json!("Task: look at @c.rs"))),
            sidechain(assistant(
                "s2",
                &fx.project,
                3,
                "m2",
                vec![read("toolu_a", &a)],
            )),
        ]),
    )
    .unwrap();
    // Older layout: `agent-*.jsonl` beside the session.
    fs::write(
        folder.join("agent-ag2.jsonl"),
        lines(&[sidechain(assistant(
            "s3",
            &fx.project,
            4,
            "m3",
            vec![read("toolu_b", &b)],
        ))]),
    )
    .unwrap();

    let scan = fx.fresh();
    assert_eq!(
        scan.accesses,
        [
            access(&a, AccessKind::Read, T0 + 3),
            access(&b, AccessKind::Read, T0 + 4),
        ]
    );
    assert!(!scan.accesses.iter().any(|x| x.path == c));
    assert_eq!(scan.cursors.len(), 3);
}

#[test]
fn records_of_other_directories_in_the_same_folder_are_dropped() {
    let fx = Fixture::new();
    let work = fx.project.parent().unwrap().to_path_buf();
    let mine = fx.file("mine.rs");
    let deep = fx.file("sub/deep.rs");
    // `my.proj` has the same folder name as `my-proj`.
    let twin = work.join("my.proj");
    fs::create_dir_all(&twin).unwrap();
    fs::write(twin.join("theirs.rs"), "x").unwrap();
    fs::write(
        fx.folder().join("s.jsonl"),
        lines(&[
            assistant("a1", &fx.project, 1, "m1", vec![read("t1", &mine)]),
            assistant(
                "a2",
                &twin,
                2,
                "m2",
                vec![read("t2", &twin.join("theirs.rs"))],
            ),
            // Even the project's own file, when the session ran elsewhere.
            assistant("a3", &work, 3, "m3", vec![read("t3", &mine)]),
            // A record without a cwd cannot be placed: counted.
            {
                let mut r: Value = serde_json::from_str(&assistant(
                    "a4",
                    &fx.project,
                    4,
                    "m4",
                    vec![read("t4", &mine)],
                ))
                .unwrap();
                r.as_object_mut().unwrap().remove("cwd");
                r.to_string()
            },
        ]),
    )
    .unwrap();
    // A session started in a directory inside the project has its own folder.
    let sub = fx.project.join("sub");
    fs::write(
        fx.folder_for(&sub).join("s.jsonl"),
        lines(&[assistant(
            "a5",
            &sub,
            5,
            "m5",
            vec![read("t5", Path::new("deep.rs"))],
        )]),
    )
    .unwrap();
    // Folders of other projects are not read at all.
    let sibling = work.join("my-projects");
    let other = fx.folder_for(&sibling).join("s.jsonl");
    fs::write(
        &other,
        lines(&[assistant("a6", &sibling, 6, "m6", vec![read("t6", &mine)])]),
    )
    .unwrap();
    let parent = fx.folder_for(&work).join("s.jsonl");
    fs::write(
        &parent,
        lines(&[assistant("a7", &work, 7, "m7", vec![read("t7", &mine)])]),
    )
    .unwrap();

    let scan = fx.fresh();
    assert_eq!(
        scan.accesses,
        [
            access(&mine, AccessKind::Read, T0 + 1),
            access(&deep, AccessKind::Read, T0 + 5),
        ]
    );
    assert_eq!(scan.cursors.len(), 2);
    assert!(!scan.cursors.contains_key(&other) && !scan.cursors.contains_key(&parent));
    assert_eq!(scan.warnings.len(), 1);
    assert!(
        scan.warnings[0].contains("without a cwd"),
        "{:?}",
        scan.warnings
    );
}

#[test]
fn corrupt_lines_are_skipped_with_one_warning_per_transcript() {
    let fx = Fixture::new();
    let a = fx.file("a.rs");
    let b = fx.file("b.rs");
    let big = fx.file("big.rs");
    let project = &fx.project;
    let good = assistant("a1", project, 1, "m1", vec![read("t1", &a)]);
    let huge = assistant(
        "a2",
        project,
        2,
        "m2",
        vec![tool(
            "t2",
            "Write",
            json!({"file_path": big, "content": "// x\n".repeat(120_000)}),
        )],
    );
    assert!(huge.len() > 500_000);
    let mut text: Vec<u8> = Vec::new();
    text.extend(format!("{good}\n").bytes());
    // Not JSON, cut short, not an object, not UTF-8, no timestamp, an odd message.
    text.extend(b"this is not json at all\n");
    let cut = assistant("a3", project, 3, "m3", vec![read("t3", &b)]);
    let end = cut.find("\"Read\"").unwrap() + 6;
    text.extend(format!("{}\n", &cut[..end]).bytes());
    text.extend(b"[\"tool_use\", \"Read\"]\n\"@a.rs\"\n");
    text.extend(b"{\"type\":\"user\",\"message\":{\"content\":\"@a.rs \xff\xfe\"}}\n");
    let mut untimed: Value =
        serde_json::from_str(&assistant("a4", project, 4, "m4", vec![read("t4", &b)])).unwrap();
    untimed.as_object_mut().unwrap().remove("timestamp");
    text.extend(format!("{untimed}\n").bytes());
    text.extend(
        format!(
            "{}\n",
            json!({"type": "user", "cwd": project, "uuid": "u5", "timestamp": ts(5), "message": "@a.rs"})
        )
        .bytes(),
    );
    text.extend(
        b"{\"type\": \"a-record-kind-from-the-future\", \"payload\": {\"tool_use\": 1}}\n\n",
    );
    text.extend(format!("{huge}\n").bytes());
    text.extend(
        format!(
            "{}\n",
            assistant(
                "a6",
                project,
                6,
                "m6",
                vec![tool("t6", "Edit", json!({"file_path": b}))]
            )
        )
        .bytes(),
    );
    let folder = fx.folder();
    fs::write(folder.join("broken.jsonl"), &text).unwrap();
    fs::write(
        folder.join("clean.jsonl"),
        lines(&[assistant("a7", project, 7, "m7", vec![read("t7", &a)])]),
    )
    .unwrap();

    let scan = fx.fresh();
    assert_eq!(
        scan.accesses,
        [
            access(&a, AccessKind::Read, T0 + 1),
            access(&big, AccessKind::Write, T0 + 2),
            access(&b, AccessKind::Edit, T0 + 6),
            access(&a, AccessKind::Read, T0 + 7),
        ]
    );
    assert_eq!(scan.warnings.len(), 1, "{:?}", scan.warnings);
    let warning = &scan.warnings[0];
    assert!(warning.contains("broken.jsonl"), "{warning}");
    // not JSON, cut short, array, string, not UTF-8, no timestamp
    assert!(warning.contains(": 6 lines skipped"), "{warning}");
    assert!(warning.contains("at byte"), "{warning}");
    let size = text.len() as u64;
    assert_eq!(scan.cursors[&folder.join("broken.jsonl")].offset, size);
}

#[test]
fn a_partial_last_line_is_read_once_complete() {
    let fx = Fixture::new();
    let a = fx.file("a.rs");
    let b = fx.file("b.rs");
    let transcript = fx.folder().join("live.jsonl");
    let first = format!(
        "{}\n",
        assistant("a1", &fx.project, 1, "m1", vec![read("t1", &a)])
    );
    let second = format!(
        "{}\n",
        assistant("a2", &fx.project, 2, "m2", vec![read("t2", &b)])
    );
    let (head, tail) = second.split_at(second.len() / 2);
    fs::write(&transcript, format!("{first}{head}")).unwrap();

    let scan = fx.fresh();
    assert_eq!(scan.accesses, [access(&a, AccessKind::Read, T0 + 1)]);
    let cursor = scan.cursors[&transcript];
    assert_eq!(cursor.offset, first.len() as u64);
    assert_eq!(cursor.size, (first.len() + head.len()) as u64);

    append(&transcript, tail.as_bytes());
    let next = fx.scan(&scan.cursors);
    assert_eq!(next.accesses, [access(&b, AccessKind::Read, T0 + 2)]);
    assert_eq!(
        next.bytes_read,
        second.len() as u64,
        "only the new bytes are read"
    );
    assert_eq!(
        next.cursors[&transcript].offset,
        (first.len() + second.len()) as u64
    );
    assert!(next.warnings.is_empty());
}

#[test]
fn a_grown_transcript_is_read_from_its_cursor() {
    let fx = Fixture::new();
    let a = fx.file("a.rs");
    let b = fx.file("b.rs");
    let transcript = fx.folder().join("s.jsonl");
    let prompt = user("u1", &fx.project, 1, json!("open @a.rs"));
    fs::write(&transcript, lines(std::slice::from_ref(&prompt))).unwrap();
    let scan = fx.fresh();
    assert_eq!(scan.accesses, [access(&a, AccessKind::Mention, T0 + 1)]);

    let more = lines(&[assistant("a2", &fx.project, 2, "m2", vec![read("t2", &b)])]);
    append(&transcript, more.as_bytes());
    let next = fx.scan(&scan.cursors);
    // The prompt is not seen again: only the appended line.
    assert_eq!(next.accesses, [access(&b, AccessKind::Read, T0 + 2)]);
    assert_eq!(next.bytes_read, more.len() as u64);
}

#[test]
fn a_rewritten_transcript_is_read_again_from_the_start() {
    let fx = Fixture::new();
    let a = fx.file("a.rs");
    let b = fx.file("b.rs");
    let c = fx.file("a-longer-name.rs");
    let transcript = fx.folder().join("s.jsonl");
    let long = lines(&[
        assistant("a1", &fx.project, 1, "m1", vec![read("t1", &a)]),
        assistant("a2", &fx.project, 2, "m2", vec![read("t2", &a)]),
    ]);
    fs::write(&transcript, &long).unwrap();
    let scan = fx.fresh();
    assert_eq!(scan.accesses.len(), 2);

    // Truncated and rewritten shorter.
    let short = lines(&[assistant("a3", &fx.project, 3, "m3", vec![read("t3", &b)])]);
    assert!(short.len() < long.len());
    fs::write(&transcript, &short).unwrap();
    let shrunk = fx.scan(&scan.cursors);
    assert_eq!(shrunk.accesses, [access(&b, AccessKind::Read, T0 + 3)]);

    // Replaced by a longer one whose bytes no longer end a line at the cursor.
    let longer = lines(&[
        assistant("a4", &fx.project, 4, "m4", vec![read("t4", &c)]),
        assistant("a5", &fx.project, 5, "m5", vec![read("t5", &c)]),
    ]);
    assert_ne!(longer.as_bytes()[short.len() - 1], b'\n');
    fs::write(&transcript, &longer).unwrap();
    let replaced = fx.scan(&shrunk.cursors);
    assert_eq!(
        replaced.accesses,
        [
            access(&c, AccessKind::Read, T0 + 4),
            access(&c, AccessKind::Read, T0 + 5)
        ]
    );

    // Modification time gone back (a restored backup), even with more bytes.
    let cursor = replaced.cursors[&transcript];
    append(
        &transcript,
        lines(&[assistant("a6", &fx.project, 6, "m6", vec![read("t6", &a)])]).as_bytes(),
    );
    set_mtime(
        &transcript,
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000),
    );
    let mut cursors = BTreeMap::new();
    cursors.insert(transcript.clone(), cursor);
    let restored = fx.scan(&cursors);
    assert_eq!(restored.accesses.len(), 3, "{:?}", restored.accesses);
    assert_eq!(
        restored.cursors[&transcript].mtime_ns,
        1_000_000_000_000_000
    );
}

#[test]
fn an_unchanged_transcript_is_not_opened() {
    let fx = Fixture::new();
    let a = fx.file("aa.rs");
    fx.file("bb.rs");
    let transcript = fx.folder().join("s.jsonl");
    let before = lines(&[assistant("a1", &fx.project, 1, "m1", vec![read("t1", &a)])]);
    fs::write(&transcript, &before).unwrap();
    let mtime = fs::metadata(&transcript).unwrap().modified().unwrap();
    let scan = fx.fresh();
    assert_eq!(scan.accesses.len(), 1);

    // The same cursors: nothing read.
    let same = fx.scan(&scan.cursors);
    assert!(same.accesses.is_empty());
    assert_eq!((same.files_read, same.bytes_read), (0, 0));
    assert_eq!(same.cursors, scan.cursors);

    // Different bytes of the same size with the same modification time are not seen:
    // the file is not opened.
    let after = before.replace("aa.rs", "bb.rs").replace("\"t1\"", "\"t2\"");
    assert_eq!(after.len(), before.len());
    fs::write(&transcript, &after).unwrap();
    set_mtime(&transcript, mtime);
    let untouched = fx.scan(&scan.cursors);
    assert!(untouched.accesses.is_empty());
    assert_eq!(untouched.files_read, 0);

    // A cursor from another scan that read less: the file is opened and read on.
    let mut behind = scan.cursors.clone();
    behind.values_mut().for_each(|c| {
        c.offset = 0;
        c.size = 0;
    });
    let reread = fx.scan(&behind);
    assert_eq!(reread.files_read, 1);
    assert_eq!(reread.accesses.len(), 1);
    assert!(reread.accesses[0].path.ends_with("bb.rs"));
}

#[test]
fn a_deleted_transcript_loses_its_cursor() {
    let fx = Fixture::new();
    let a = fx.file("a.rs");
    let folder = fx.folder();
    let record = lines(&[assistant("a1", &fx.project, 1, "m1", vec![read("t1", &a)])]);
    fs::write(folder.join("kept.jsonl"), &record).unwrap();
    fs::write(folder.join("gone.jsonl"), &record).unwrap();
    let scan = fx.fresh();
    assert_eq!(scan.cursors.len(), 2);

    fs::remove_file(folder.join("gone.jsonl")).unwrap();
    let next = fx.scan(&scan.cursors);
    assert_eq!(
        next.cursors.keys().collect::<Vec<_>>(),
        [&folder.join("kept.jsonl")]
    );
    assert!(next.warnings.is_empty());
    assert!(next.accesses.is_empty());
}

#[test]
fn no_transcripts_is_an_empty_scan() {
    let fx = Fixture::new();
    let scan = fx.fresh();
    assert_eq!(scan, Scan::default());
    let missing = activity::scan(&fx.config.join("nowhere"), &fx.project, &BTreeMap::new());
    assert_eq!(missing, Scan::default());
}

#[test]
fn accesses_are_ordered_by_time_then_path_across_transcripts() {
    let fx = Fixture::new();
    let a = fx.file("a.rs");
    let b = fx.file("b.rs");
    let folder = fx.folder();
    fs::write(
        folder.join("1.jsonl"),
        lines(&[
            assistant("a1", &fx.project, 9, "m1", vec![read("t1", &b)]),
            assistant("a2", &fx.project, 5, "m2", vec![read("t2", &b)]),
        ]),
    )
    .unwrap();
    fs::write(
        folder.join("2.jsonl"),
        lines(&[assistant(
            "a3",
            &fx.project,
            5,
            "m3",
            vec![read("t3", &a), read("t4", &b)],
        )]),
    )
    .unwrap();
    let scan = fx.fresh();
    assert_eq!(
        summary(&scan, &fx.project),
        [
            ("a.rs".into(), AccessKind::Read, 5),
            ("b.rs".into(), AccessKind::Read, 5),
            ("b.rs".into(), AccessKind::Read, 5),
            ("b.rs".into(), AccessKind::Read, 9),
        ]
    );
    assert_eq!(fx.fresh(), scan, "the same input gives the same scan");
}

/// Throughput on the real transcripts, copied 20 times (`cargo test -p cc-search --test
/// claude_activity -- --ignored --nocapture`).
#[test]
#[ignore]
fn measure_throughput_on_real_transcripts() {
    let fx = Fixture::new();
    let folder = fx.folder();
    let project = fx.project.to_str().unwrap();
    let real = Path::new(DATA).join("real");
    let mut bytes = 0u64;
    for copy in 0..20 {
        for entry in fs::read_dir(&real).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                let text = fs::read_to_string(&path).unwrap();
                let moved = move_cwds(&text, project).replace("toolu_", &format!("toolu_{copy}_"));
                bytes += moved.len() as u64;
                let name = format!("{copy}-{}", path.file_name().unwrap().to_str().unwrap());
                fs::write(folder.join(name), moved).unwrap();
            }
        }
    }
    let mut best = f64::MAX;
    let mut scan = Scan::default();
    for _ in 0..3 {
        let start = Instant::now();
        scan = fx.fresh();
        best = best.min(start.elapsed().as_secs_f64());
    }
    assert_eq!(scan.bytes_read, bytes);
    let start = Instant::now();
    let again = fx.scan(&scan.cursors);
    let unchanged = start.elapsed();
    assert!(again.accesses.is_empty());
    println!(
        "full scan: {:.1} MB in {:.1} ms = {:.0} MB/s ({} accesses, {} transcripts); \
         unchanged rescan: {:.2} ms",
        bytes as f64 / 1e6,
        best * 1e3,
        bytes as f64 / 1e6 / best,
        scan.accesses.len(),
        scan.cursors.len(),
        unchanged.as_secs_f64() * 1e3
    );
}

#[test]
fn a_long_project_path_finds_its_cut_folder() {
    let fx = Fixture::new();
    let deep = fx.project.join("a".repeat(120)).join("b".repeat(100));
    fs::create_dir_all(&deep).unwrap();
    let file = deep.join("x.rs");
    fs::write(&file, "x").unwrap();
    // Claude Code keeps 200 characters of a longer name and appends a hash.
    let name = encode(&deep);
    assert!(name.len() > 200);
    let folder = fx
        .config
        .join("projects")
        .join(format!("{}-1k2j3h", &name[..200]));
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("s.jsonl"),
        lines(&[assistant(
            "a1",
            &deep,
            1,
            "m1",
            vec![read("t1", Path::new("x.rs"))],
        )]),
    )
    .unwrap();

    let scan = activity::scan(&fx.config, &deep, &BTreeMap::new());
    assert_eq!(scan.accesses, [access(&file, AccessKind::Read, T0 + 1)]);
    // The project above it finds the folder too (its sessions' cwd is inside it).
    let above = fx.scan(&BTreeMap::new());
    assert_eq!(above.accesses, scan.accesses);
}
