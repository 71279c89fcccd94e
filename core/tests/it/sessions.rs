//! sessions: Claude Code transcripts — the real fixtures (tests/fixtures/sessions) and
//! transcripts written here in the real format (progress records, tool results, split
//! assistant messages, a compaction summary, a subagent, a corrupted line, a partial last
//! line) — indexed into a real SQLite file with the real model; incremental growth,
//! filters, kind weights, determinism and chunk id prefixes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use cc_search::Engine;
use cc_search::sessions::{
    self, ChunkRequest, IndexRequest, IndexResponse, SearchRequest, SearchResponse, Since,
    StatusRequest,
};
use serde_json::{Value, json};

use crate::common;
use common::write;

/// Fixed "now" of the searches: 2026-03-01T00:00:00Z.
const NOW: i64 = 1_772_323_200;

/// An engine in `home` with the real model (named in its configuration) when the tests
/// have it, else one configured with none (keyword-only).
fn engine(home: &Path) -> Engine {
    let config = home.join("config.toml");
    let text = match common::model_dir() {
        Some(dir) => format!("[embed]\nmodel_dir = {:?}\n", dir.display().to_string()),
        None => "[embed]\nmodel_dir = \"/nonexistent/model\"\n".to_string(),
    };
    std::fs::write(config, text).unwrap();
    Engine::open_at(home).unwrap()
}

/// An engine without a model (keyword-only): the real fixtures are megabytes of text,
/// too much to embed in a debug build's test.
fn keyword_engine(home: &Path) -> Engine {
    common::keyword_only(home);
    Engine::open_at(home).unwrap()
}

fn index(engine: &Engine, projects: &Path) -> IndexResponse {
    engine
        .run::<sessions::Index>(IndexRequest {
            projects_dir: Some(projects.into()),
            ..Default::default()
        })
        .unwrap()
}

fn search(engine: &Engine, text: &str, f: impl FnOnce(&mut SearchRequest)) -> SearchResponse {
    let mut request = SearchRequest {
        query: text.into(),
        now: Some(NOW),
        limit: Some(10),
        ..Default::default()
    };
    f(&mut request);
    engine.run::<sessions::Search>(request).unwrap()
}

fn iso(secs: i64) -> String {
    // Enough for the tests: whole days and seconds after NOW's midnight.
    let day = 86_400;
    let base = NOW - NOW % day; // 2026-03-01
    assert!(secs >= base - 60 * day);
    let days = (secs - base).div_euclid(day);
    let rem = (secs - base).rem_euclid(day);
    let (m, d) = if days < 0 {
        // February 2026 has 28 days, January 31.
        let d = 28 + days + 1;
        if d >= 1 { (2, d) } else { (1, 31 + d) }
    } else {
        (3, days + 1)
    };
    format!(
        "2026-{m:02}-{d:02}T{:02}:{:02}:{:02}.000Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// A transcript under construction, in Claude Code's format.
struct Transcript {
    session: String,
    cwd: String,
    lines: Vec<Value>,
    n: usize,
    parent: Option<String>,
    time: i64,
    sidechain: bool,
}

impl Transcript {
    fn new(session: &str, cwd: &str, time: i64) -> Transcript {
        Transcript {
            session: session.into(),
            cwd: cwd.into(),
            lines: Vec::new(),
            n: 0,
            parent: None,
            time,
            sidechain: false,
        }
    }

    fn base(&mut self, kind: &str) -> Value {
        self.n += 1;
        self.time += 5;
        let uuid = format!("{}-{:04}", self.session, self.n);
        let mut v = json!({
            "parentUuid": self.parent, "isSidechain": self.sidechain, "userType": "external",
            "cwd": self.cwd, "sessionId": self.session, "version": "2.0.5",
            "gitBranch": "main", "type": kind, "uuid": uuid, "timestamp": iso(self.time),
        });
        if self.sidechain {
            v["agentId"] = json!("a1b2c3");
        }
        self.parent = Some(uuid);
        v
    }

    fn prompt(&mut self, text: &str) -> &mut Self {
        let mut v = self.base("user");
        v["message"] = json!({"role": "user", "content": text});
        self.lines.push(v);
        self
    }

    fn meta(&mut self, text: &str) -> &mut Self {
        let mut v = self.base("user");
        v["isMeta"] = json!(true);
        v["message"] = json!({"role": "user", "content": text});
        self.lines.push(v);
        self
    }

    fn compact(&mut self, text: &str) -> &mut Self {
        let mut b = self.base("system");
        b["subtype"] = json!("compact_boundary");
        self.lines.push(b);
        let mut v = self.base("user");
        v["isCompactSummary"] = json!(true);
        v["message"] = json!({"role": "user", "content": text});
        self.lines.push(v);
        self
    }

    /// One assistant API message split over one line per block.
    fn assistant(&mut self, id: &str, blocks: &[Value]) -> &mut Self {
        for block in blocks {
            let mut v = self.base("assistant");
            v["message"] = json!({"id": id, "type": "message", "role": "assistant",
                "model": "claude-opus-4-1", "content": [block]});
            self.lines.push(v);
        }
        self
    }

    fn tool_result(&mut self, text: &str) -> &mut Self {
        let mut v = self.base("user");
        v["message"] = json!({"role": "user", "content": [
            {"tool_use_id": "toolu_1", "type": "tool_result", "content": text}]});
        v["toolUseResult"] = json!({"stdout": text});
        self.lines.push(v);
        self
    }

    fn progress(&mut self) -> &mut Self {
        let v = json!({"type": "progress", "data": {"type": "hook_progress"},
            "uuid": format!("{}-p{}", self.session, self.n), "timestamp": iso(self.time)});
        self.lines.push(v);
        self.lines
            .push(json!({"type": "file-history-snapshot", "messageId": "x", "snapshot": {}}));
        self.lines
            .push(json!({"type": "queue-operation", "operation": "enqueue"}));
        self
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for line in &self.lines {
            out.extend(line.to_string().bytes());
            out.push(b'\n');
        }
        out
    }
}

fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}
fn thinking(t: &str) -> Value {
    json!({"type": "thinking", "thinking": t, "signature": "sig"})
}
fn tool_use(name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": "toolu_1", "name": name, "input": input})
}

/// Two projects: alpha (recent, a subagent, a compaction), beta (old).
fn write_projects(projects: &Path) -> PathBuf {
    let mut a = Transcript::new(
        "aaaaaaaa-0000-4000-8000-000000000001",
        "/home/u/alpha",
        NOW - 2 * 86_400 - 3600,
    );
    a.progress()
        .prompt("How should I handle JWT refresh tokens in the auth service?")
        .assistant(
            "msg_a1",
            &[
                thinking("The user wants refresh token rotation; consider reuse detection."),
                text("For JWT refresh tokens, rotate them on every use and store a hash server side."),
                tool_use("Bash", json!({"command": "grep -r refresh src/"})),
            ],
        )
        .tool_result("src/auth/refresh.rs: fn refresh_token() {}")
        .assistant("msg_a2", &[text("The refresh handler lives in src/auth/refresh.rs.")])
        .meta("Caveat: the messages below were generated by the user while running local commands.")
        .progress()
        .compact("Summary of the earlier conversation: we designed refresh token rotation with reuse detection for the auth service.")
        .prompt("Now configure nginx as a reverse proxy for the flamingo service.")
        .assistant(
            "msg_a3",
            &[
                tool_use("Read", json!({"file_path": "/etc/nginx/nginx.conf"})),
            ],
        )
        .tool_result(&"flamingo upstream flamingo server flamingo proxy_pass flamingo ".repeat(20))
        .assistant("msg_a4", &[text("I added an upstream block so nginx proxies to the flamingo service.")]);
    let folder = projects.join("-home-u-alpha");
    write(&folder, &format!("{}.jsonl", a.session), a.bytes());

    let mut sub = Transcript::new(
        "aaaaaaaa-0000-4000-8000-000000000001",
        "/home/u/alpha",
        NOW - 2 * 86_400 - 3000,
    );
    sub.sidechain = true;
    sub.n = 1000; // its own uuids
    sub.prompt("Survey the codebase for uses of the pelican cache.")
        .assistant(
            "msg_s1",
            &[text(
                "The pelican cache is used in three modules: api, worker and cli.",
            )],
        );
    write(
        &folder,
        &format!("{}/subagents/agent-a1b2c3.jsonl", a.session),
        sub.bytes(),
    );

    let mut b = Transcript::new(
        "bbbbbbbb-0000-4000-8000-000000000002",
        "/home/u/beta",
        NOW - 50 * 86_400,
    );
    b.prompt("How do I configure nginx caching for static assets?")
        .assistant(
            "msg_b1",
            &[text(
                "Use proxy_cache_path and a location block for static assets in nginx.",
            )],
        );
    let mut bytes = b.bytes();
    bytes.extend(b"{this line is corrupted\n");
    write(
        &projects.join("-home-u-beta"),
        &format!("{}.jsonl", b.session),
        bytes,
    );
    folder.join(format!("{}.jsonl", a.session))
}

#[test]
fn written_transcripts_are_parsed_into_typed_chunks() {
    let home = tempfile::tempdir().unwrap();
    let claude = tempfile::tempdir().unwrap();
    let projects = claude.path().join("projects");
    let alpha = write_projects(&projects);
    let engine = engine(home.path());
    let first = index(&engine, &projects);
    assert_eq!((first.sessions, first.subagents), (2, 1), "{first:?}");
    assert_eq!(first.parsed, 3);
    assert_eq!(first.corrupt_lines, 1);
    assert!(
        first
            .warnings
            .iter()
            .any(|w| w.contains("bbbbbbbb") && w.contains("corrupt")),
        "{:?}",
        first.warnings
    );
    for kind in [
        "progress",
        "file-history-snapshot",
        "queue-operation",
        "system:compact_boundary",
        "user:isMeta",
    ] {
        assert!(
            first.skipped_records.contains_key(kind),
            "{kind}: {:?}",
            first.skipped_records
        );
    }
    // alpha: group 1 (user, assistant, tool, thinking), compaction (summary), group 3
    // (user, assistant, tool); subagent (user, assistant); beta (user, assistant).
    assert_eq!(first.chunks, 4 + 1 + 3 + 2 + 2, "{first:?}");
    if common::model_dir().is_some() {
        assert_eq!(first.pending_vectors, 0, "{:?}", first.warnings);
    }

    // The split assistant message is one message in the context; isMeta is not there.
    let found = search(&engine, "JWT refresh tokens", |_| {});
    let top = &found.results[0];
    assert_eq!(top.project, "/home/u/alpha");
    assert_eq!(top.session_id, "aaaaaaaa-0000-4000-8000-000000000001");
    assert_eq!(top.session_path, alpha);
    assert!(top.session_path.exists());
    assert!(
        ["user", "assistant"].contains(&top.kind.as_str()),
        "{top:?}"
    );
    let roles: Vec<&str> = top.messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(
        roles,
        ["user", "assistant", "assistant"],
        "{:?}",
        top.messages
    );
    assert!(top.messages.iter().all(|m| !m.content.contains("Caveat")));
    assert_eq!(top.age, "2 days ago");
    assert_eq!(top.id.len(), 8);

    // Compaction summary as kind summary.
    let summary = search(&engine, "reuse detection rotation", |r| {
        r.types = vec!["summary".into()]
    });
    assert_eq!(summary.results.len(), 1, "{summary:?}");
    assert!(
        summary.results[0]
            .content
            .starts_with("Summary of the earlier")
    );

    // The subagent is indexed and linked to its parent session.
    let sub = search(&engine, "pelican cache", |_| {});
    let hit = &sub.results[0];
    assert!(hit.content.contains("pelican"), "{hit:?}");
    assert_eq!(hit.session_id, "agent-a1b2c3");
    assert_eq!(
        hit.parent_session_id.as_deref(),
        Some("aaaaaaaa-0000-4000-8000-000000000001")
    );

    // Kind weights: the tool output repeats "flamingo" 80 times, the discussion once
    // each; discussion comes first, thinking and tool output after.
    let birds = search(&engine, "flamingo", |_| {});
    assert!(!birds.results.is_empty());
    assert_ne!(birds.results[0].kind, "tool", "{:?}", birds.results);
    let tool_rank = birds.results.iter().position(|h| h.kind == "tool");
    let talk_rank = birds.results.iter().position(|h| h.kind == "assistant");
    assert!(
        talk_rank < tool_rank || tool_rank.is_none(),
        "{:?}",
        birds.results
    );
    let thoughts = search(&engine, "refresh token", |_| {});
    let thinking_rank = thoughts
        .results
        .iter()
        .position(|h| h.kind == "thinking")
        .unwrap_or(usize::MAX);
    let user_rank = thoughts
        .results
        .iter()
        .position(|h| h.kind == "user")
        .unwrap();
    assert!(user_rank < thinking_rank, "{:?}", thoughts.results);
    // ...but they are found when asked for.
    let tools = search(&engine, "flamingo", |r| r.types = vec!["tool".into()]);
    assert!(tools.results.iter().all(|h| h.kind == "tool") && !tools.results.is_empty());

    // Filters hold inside retrieval.
    let nginx = search(&engine, "nginx", |r| r.project = Some("ALPH".into()));
    assert!(!nginx.results.is_empty());
    assert!(nginx.results.iter().all(|h| h.project == "/home/u/alpha"));
    let nginx = search(&engine, "nginx", |r| r.project = Some("beta".into()));
    assert!(nginx.results.iter().all(|h| h.project == "/home/u/beta"));
    let recent = search(&engine, "nginx", |r| {
        r.since = Some(Since::Text("7d".into()))
    });
    assert!(!recent.results.is_empty());
    assert!(
        recent.results.iter().all(|h| h.time >= NOW - 7 * 86_400),
        "{recent:?}"
    );
    let old = search(&engine, "nginx", |r| {
        r.since = Some(Since::Seconds(NOW - 60 * 86_400))
    });
    assert!(old.results.iter().any(|h| h.project == "/home/u/beta"));
    let none = search(&engine, "nginx", |r| r.project = Some("gamma".into()));
    assert!(none.results.is_empty());
    assert!(
        none.warnings
            .iter()
            .any(|w| w == "No sessions found for project gamma")
    );

    // Recency: the same kind of question, recent alpha above old beta.
    let both = search(&engine, "configure nginx", |r| {
        r.types = vec!["user".into()]
    });
    assert_eq!(both.results[0].project, "/home/u/alpha", "{both:?}");

    // Determinism.
    let again = search(&engine, "JWT refresh tokens", |_| {});
    assert_eq!(found.results, again.results);

    // Chunk ids: the 8 hex shown, any unique prefix, an ambiguous one refused.
    let chunk = engine
        .run::<sessions::Chunk>(ChunkRequest {
            id: top.id.clone(),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(chunk.content, top.content);
    assert_eq!(chunk.full_id.len(), 64);
    let kinds: Vec<&str> = chunk.group.iter().map(|p| p.kind.as_str()).collect();
    assert_eq!(kinds, ["user", "assistant", "tool", "thinking"]);
    let short = engine
        .run::<sessions::Chunk>(ChunkRequest {
            id: top.id[..6].to_uppercase(),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(short.full_id, chunk.full_id);
    let ambiguous = engine
        .run::<sessions::Chunk>(ChunkRequest {
            id: String::new(),
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(ambiguous.code(), "invalid_request");
    let mut refused = 0;
    for c in "0123456789abcdef".chars() {
        if let Err(e) = engine.run::<sessions::Chunk>(ChunkRequest {
            id: c.to_string(),
            ..Default::default()
        }) {
            let message = e.to_string();
            assert!(
                message.contains("ambiguous") || message.contains("no chunk"),
                "{message}"
            );
            refused += 1;
        }
    }
    assert!(
        refused >= 8,
        "12 chunks cannot have 8 unique first characters"
    );
    assert!(
        engine
            .run::<sessions::Chunk>(ChunkRequest {
                id: "xyz".into(),
                ..Default::default()
            })
            .is_err()
    );

    // Nothing matches the words: the closest by meaning, with a note.
    if common::model_dir().is_some() {
        let closest = search(&engine, "renewing login credentials", |r| {
            r.mode = cc_search::hybrid::Mode::Keyword
        });
        assert!(
            closest
                .note
                .as_deref()
                .is_some_and(|n| n.contains("closest"))
                && closest.results[0].content.contains("JWT"),
            "{closest:?}"
        );
        // Nothing is about the question: an empty answer that says so, not the least
        // unrelated hits — whether no word matched or only common ones did.
        for (question, mode) in [
            ("zqxjv", cc_search::hybrid::Mode::Keyword),
            (
                "sourdough starter feeding schedule",
                cc_search::hybrid::Mode::Hybrid,
            ),
            (
                "the upstream block of the wedding cake recipe",
                cc_search::hybrid::Mode::Hybrid,
            ),
        ] {
            let none = search(&engine, question, |r| r.mode = mode);
            assert!(
                none.results.is_empty()
                    && none
                        .note
                        .as_deref()
                        .is_some_and(|n| n.starts_with("nothing relevant to")),
                "{question}: {none:?}"
            );
        }
        // Named by a project filter, the note offers the others.
        let none = search(&engine, "sourdough starter feeding schedule", |r| {
            r.project = Some("alpha".into())
        });
        assert!(none.note.unwrap().contains("`*`: every project"));
    }

    // Empty query.
    let err = engine
        .run::<sessions::Search>(SearchRequest {
            query: "  ".into(),
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_request");
    assert!(err.to_string().contains("Query required"));

    // Status.
    let status = engine
        .run::<sessions::Status>(StatusRequest::default())
        .unwrap();
    assert_eq!((status.sessions, status.subagents), (2, 1));
    assert_eq!(status.projects.len(), 2);
    assert_eq!(status.chunks, 12);
    assert!(status.index_bytes > 0 && status.last_indexed.is_some());

    // Unchanged: nothing read. Deleted: removed. Force: everything re-parsed.
    let again = index(&engine, &projects);
    assert_eq!(
        (again.unchanged, again.bytes_parsed, again.chunks_written),
        (3, 0, 0)
    );
    std::fs::remove_file(projects.join("-home-u-beta/bbbbbbbb-0000-4000-8000-000000000002.jsonl"))
        .unwrap();
    let after = index(&engine, &projects);
    assert_eq!(
        (after.removed, after.chunks_removed, after.chunks),
        (1, 2, 10)
    );
    let forced = engine
        .run::<sessions::Index>(IndexRequest {
            force: true,
            projects_dir: Some(projects.clone()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!((forced.parsed, forced.chunks), (2, 10));
}

/// Every chunk as (key, kind, scope, tag, time, text, meta), sorted.
fn chunks(home: &Path) -> Vec<(String, String, String, String, i64, String, String)> {
    let conn = rusqlite::Connection::open(home.join("sessions.db")).unwrap();
    let mut stmt = conn
        .prepare("SELECT key, kind, scope, tag, time, text, meta FROM chunks ORDER BY key")
        .unwrap();
    stmt.query_map([], |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
        ))
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

#[test]
fn a_growing_session_parses_only_its_new_bytes_and_matches_a_fresh_index() {
    let claude = tempfile::tempdir().unwrap();
    let projects = claude.path().join("projects");
    let mut t = Transcript::new(
        "cccccccc-0000-4000-8000-000000000003",
        "/home/u/live",
        NOW - 3600,
    );
    t.prompt("Which crate do we use for websockets?")
        .assistant("msg_0", &[text("tokio-tungstenite.")])
        .prompt("Why does the websocket reconnect loop spin?")
        .assistant(
            "msg_1",
            &[
                thinking("Backoff is probably missing."),
                text("The reconnect loop has no backoff."),
            ],
        );
    let first_part = t.bytes();
    // The same API message continues after the watermark, then more tool I/O, a new
    // prompt, and a partial last line.
    t.assistant("msg_1", &[tool_use("Edit", json!({"file_path": "ws.rs"}))])
        .tool_result("Edited ws.rs: added exponential backoff")
        .assistant(
            "msg_2",
            &[text("I added exponential backoff to the reconnect loop.")],
        )
        .prompt("Does it cap the delay at thirty seconds?")
        .assistant(
            "msg_3",
            &[text("Yes, the delay is capped at thirty seconds.")],
        );
    let all = t.bytes();
    let path = projects.join("-home-u-live/cccccccc-0000-4000-8000-000000000003.jsonl");
    let home = tempfile::tempdir().unwrap();
    let engine = engine(home.path());

    // 1: the first group, plus half a line still being written.
    let cut = all.len() - 40;
    let mut live = first_part.clone();
    live.extend(&all[first_part.len()..first_part.len() + 50]);
    write(
        &projects,
        "-home-u-live/cccccccc-0000-4000-8000-000000000003.jsonl",
        &live,
    );
    let one = index(&engine, &projects);
    assert_eq!((one.parsed, one.corrupt_lines), (1, 0), "{one:?}");
    assert!(
        one.warnings.iter().all(|w| !w.contains("corrupt")),
        "{:?}",
        one.warnings
    );

    // 2: the line completed, more lines, a partial line at the end again.
    std::fs::write(&path, &all[..cut]).unwrap();
    let two = index(&engine, &projects);
    assert_eq!(
        (two.grown, two.parsed, two.corrupt_lines),
        (1, 0, 0),
        "{two:?}"
    );
    assert!(
        two.bytes_parsed < cut as u64,
        "{} of {cut}",
        two.bytes_parsed
    );
    assert!(two.bytes_parsed >= (cut - first_part.len()) as u64);

    // 3: complete.
    std::fs::write(&path, &all).unwrap();
    let three = index(&engine, &projects);
    assert_eq!(three.grown, 1, "{three:?}");
    assert!(three.bytes_parsed < all.len() as u64);

    // The same chunks as a fresh index of the whole file.
    let fresh_home = tempfile::tempdir().unwrap();
    let fresh = self::engine(fresh_home.path());
    index(&fresh, &projects);
    let grown = chunks(home.path());
    assert_eq!(grown, chunks(fresh_home.path()));
    let kinds: Vec<&str> = grown.iter().map(|c| c.1.as_str()).collect();
    // user, assistant; user, assistant, thinking, tool; user, assistant.
    assert_eq!(kinds.len(), 8, "{kinds:?}");
    let found = search(&engine, "exponential backoff reconnect", |r| {
        r.types = vec!["assistant".into()]
    });
    assert_eq!(
        found.results[0].messages.len(),
        3,
        "{:?}",
        found.results[0].messages
    );

    // Shrunk (rewritten): parsed from the start; the groups it lost are dropped.
    std::fs::write(&path, &first_part).unwrap();
    let shrunk = index(&engine, &projects);
    assert_eq!((shrunk.parsed, shrunk.grown), (1, 0), "{shrunk:?}");
    let again_home = tempfile::tempdir().unwrap();
    index(&self::engine(again_home.path()), &projects);
    assert_eq!(chunks(home.path()), chunks(again_home.path()));
}

/// Copy `from` (recursively) into `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
            // The fixtures are read-only; the copies need not be.
            let mut perms = std::fs::metadata(&target).unwrap().permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            std::fs::set_permissions(&target, perms).unwrap();
        }
    }
}

fn fixtures(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/sessions")
        .join(name)
}

#[test]
fn real_transcripts_are_indexed_and_searchable() {
    let claude = tempfile::tempdir().unwrap();
    let projects = claude.path().join("projects");
    copy_tree(&fixtures("real"), &projects.join("-Users-testuser-example"));
    let home = tempfile::tempdir().unwrap();
    let engine = keyword_engine(home.path());
    // First search: the index is built on the fly.
    let found = search(&engine, "tentative instructions proactiveness", |r| {
        r.projects_dir = Some(projects.clone())
    });
    assert!(
        found
            .warnings
            .iter()
            .any(|w| w.contains("no session index yet")),
        "{:?}",
        found.warnings
    );
    let top = &found.results[0];
    assert_eq!(top.session_id, "tiny-conversation", "{:?}", found.results);
    assert!(
        top.project
            .ends_with("example-project/.worktrees/streaming")
    );
    assert!(top.timestamp.starts_with("2025-09-19T17:3"));
    for hit in &found.results {
        assert!(hit.session_path.exists(), "INV-2: {hit:?}");
    }
    let status = engine
        .run::<sessions::Status>(StatusRequest::default())
        .unwrap();
    assert_eq!(status.sessions, 5);
    // medium-conversation has no messages, only a title: still searchable by it.
    assert!(status.chunks_by_kind["summary"] >= 4, "{status:?}");
    // Every real prompt has a user chunk: large 26 (its 27th "prompt" is
    // <local-command-stdout>, tool output), long 15, short 1, tiny 2.
    assert_eq!(status.chunks_by_kind["user"], 26 + 15 + 1 + 2, "{status:?}");
    // The session without any cwd gets its folder's name as project.
    assert!(
        status
            .projects
            .iter()
            .any(|p| p.project == "-Users-testuser-example")
    );
    let again = search(&engine, "tentative instructions proactiveness", |_| {});
    assert_eq!(found.results, again.results, "INV-3");
    let json = engine
        .call(
            "sessions.search",
            &json!({"query": "CLAUDE.md instructions", "now": NOW, "types": ["assistant"]})
                .to_string(),
        )
        .unwrap();
    let value: Value = serde_json::from_str(&json).unwrap();
    assert!(value["results"].as_array().is_some_and(|r| !r.is_empty()));

    // What an agent reads: which session, when, and the lines that matched, each hit
    // within 1,500 bytes however long its chunk; the chunk in full is sessions.chunk's.
    for query in [
        "CLAUDE.md instructions",
        "tentative instructions proactiveness",
        "git commit",
    ] {
        let full = search(&engine, query, |r| r.limit = Some(10));
        let words = cc_search::text::query_words(query);
        let text = cc_search::agent::answer(
            "sessions.search",
            &serde_json::to_string(&full).unwrap(),
            None,
        )
        .unwrap();
        let answer: Value = serde_json::from_str(&text).unwrap();
        let hits = answer["results"].as_array().unwrap();
        assert_eq!(hits.len(), full.results.len());
        for (hit, whole) in hits.iter().zip(&full.results) {
            let bytes = hit.to_string().len();
            assert!(bytes <= 1_500, "{query}: {bytes} bytes: {hit}");
            assert!(
                hit.get("content").is_none() && hit.get("messages").is_none(),
                "{hit}"
            );
            assert_eq!(hit["session_id"], whole.session_id.as_str());
            assert!(
                hit["timestamp"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("20"))
            );
            let excerpt = hit["excerpt"].as_str().unwrap().to_lowercase();
            if whole.matched_by.iter().any(|m| m == "keyword") {
                assert!(
                    words.iter().any(|w| excerpt.contains(w.as_str())),
                    "{query}: {hit}"
                );
            }
            assert!(whole.content.len() >= excerpt.len() / 2);
        }
    }
}

#[test]
fn edge_case_transcripts_never_fail_the_run() {
    let claude = tempfile::tempdir().unwrap();
    let projects = claude.path().join("projects");
    copy_tree(&fixtures("edge-cases"), &projects.join("-tmp"));
    let home = tempfile::tempdir().unwrap();
    let engine = keyword_engine(home.path());
    let run = index(&engine, &projects);
    assert!(run.subagents >= 5, "{run:?}");
    assert!(run.corrupt_lines >= 3, "{run:?}");
    assert!(
        run.warnings.iter().any(|w| w.contains("edge_cases.jsonl")),
        "{:?}",
        run.warnings
    );
    // edge_cases.jsonl ends without a newline: its last (complete) record is taken.
    let title = search(&engine, "transcript viewer emojis", |r| {
        r.types = vec!["summary".into()]
    });
    assert!(
        title.results.iter().any(|h| h.session_id == "edge_cases"),
        "{title:?}"
    );
    // The async agent's sidechain is linked to its session.
    let agent = search(&engine, "coverage gaps", |r| {
        r.project = Some("async-fixture".into())
    });
    assert!(
        agent.results.iter().any(|h| h.session_id == "agent-cccc333"
            && h.parent_session_id.as_deref() == Some("eb000000-0000-4000-8000-000000000001")),
        "{agent:?}"
    );
    let again = index(&engine, &projects);
    assert_eq!(again.bytes_parsed, 0);
}

#[test]
fn index_reports_parse_progress_to_the_caller_thread() {
    let claude = tempfile::tempdir().unwrap();
    let projects = claude.path().join("projects");
    copy_tree(&fixtures("edge-cases"), &projects.join("-tmp"));
    let home = tempfile::tempdir().unwrap();
    let engine = keyword_engine(home.path());
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let log = std::rc::Rc::clone(&seen);
    let params = json!({ "projects_dir": projects }).to_string();
    let out = engine
        .call_with_progress("sessions.index", &params, move |p| {
            log.borrow_mut()
                .push((p.stage.to_string(), p.done, p.total))
        })
        .unwrap();
    let run: IndexResponse = serde_json::from_str(&out).unwrap();
    let files = (run.sessions + run.subagents) as u64;
    let seen = seen.borrow();
    assert_eq!(seen.first(), Some(&("parse".to_string(), 0, files)));
    assert_eq!(seen.last(), Some(&("parse".to_string(), files, files)));
    // Steps only move forward, and only parse is reported without a model.
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1), "{seen:?}");
    assert!(seen.iter().all(|s| s.0 == "parse"), "{seen:?}");
    // Without a sink nothing is reported, and a later run skips every file.
    let again = index(&engine, &projects);
    assert_eq!(again.unchanged as u64, files);
}

/// Ten days ago one session's prompt asked for exactly these words; two newer sessions
/// repeat three of them (never the fourth) all over their replies and tool output.
fn write_remembered(projects: &Path) {
    let mut old = Transcript::new(
        "cccccccc-0000-4000-8000-000000000003",
        "/home/u/ledger",
        NOW - 10 * 86_400,
    );
    old.prompt("Please wire the invoice exporter into the nightly cron schedule.")
        .assistant(
            "msg_c1",
            &[text("Done: the job now runs every night at two.")],
        );
    write(
        &projects.join("-home-u-ledger"),
        &format!("{}.jsonl", old.session),
        old.bytes(),
    );
    for (n, session) in [
        "dddddddd-0000-4000-8000-000000000004",
        "eeeeeeee-0000-4000-8000-000000000005",
    ]
    .iter()
    .enumerate()
    {
        let mut newer = Transcript::new(session, "/home/u/ledger", NOW - 86_400 + n as i64 * 600);
        newer
            .prompt("Why are the totals wrong in yesterday's export?")
            .assistant(
                &format!("msg_d{n}"),
                &[
                    text(&"The invoice exporter reads the nightly snapshot; the invoice totals come from the exporter's nightly run. ".repeat(3)),
                    tool_use("Bash", json!({"command": "cat logs/exporter.log"})),
                ],
            )
            .tool_result(&"invoice exporter nightly: 412 invoices exported\n".repeat(30));
        write(
            &projects.join("-home-u-ledger"),
            &format!("{session}.jsonl"),
            newer.bytes(),
        );
    }
}

#[test]
fn a_prompt_holding_every_remembered_word_brings_its_session_first() {
    let home = tempfile::tempdir().unwrap();
    let claude = tempfile::tempdir().unwrap();
    let projects = claude.path().join("projects");
    write_remembered(&projects);
    let engine = engine(home.path());
    index(&engine, &projects);
    for mode in [
        cc_search::hybrid::Mode::Keyword,
        cc_search::hybrid::Mode::Hybrid,
    ] {
        let found = search(&engine, "invoice exporter nightly cron", |r| r.mode = mode);
        let top = &found.results[0];
        assert_eq!(
            (top.session_id.as_str(), top.kind.as_str()),
            ("cccccccc-0000-4000-8000-000000000003", "user"),
            "{mode:?}: {:#?}",
            found.results
        );
    }
}

#[test]
fn tool_output_is_searched_by_keyword_and_long_text_embeds_its_first_windows() {
    let Some(_) = common::model_dir() else {
        eprintln!("skipped: no model");
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let claude = tempfile::tempdir().unwrap();
    let projects = claude.path().join("projects");
    let mut t = Transcript::new(
        "ffffffff-0000-4000-8000-000000000006",
        "/home/u/long",
        NOW - 3600,
    );
    let essay: String = (0..1200)
        .map(|i| format!("paragraph{i} explains the retry policy. "))
        .collect();
    t.prompt("Write down the retry policy in detail.")
        .assistant(
            "msg_f1",
            &[text(&essay), tool_use("Bash", json!({"command": "ls"}))],
        )
        .tool_result(&"walrus migration checklist item\n".repeat(200));
    write(
        &projects.join("-home-u-long"),
        &format!("{}.jsonl", t.session),
        t.bytes(),
    );
    let engine = engine(home.path());
    let run = index(&engine, &projects);
    assert_eq!(run.pending_vectors, 0, "{run:?}");
    let conn = rusqlite::Connection::open(home.path().join("sessions.db")).unwrap();
    let windows = |kind: &str| -> i64 {
        conn.query_row(
            "SELECT count(*) FROM chunk_windows w JOIN chunks c ON c.id = w.chunk_id WHERE c.kind = ?1",
            [kind],
            |r| r.get(0),
        )
        .unwrap()
    };
    let budget = |kind: &str| {
        sessions::WINDOW_BUDGET
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, n)| *n as i64)
            .unwrap()
    };
    assert_eq!(windows("tool"), 0);
    assert_eq!(windows("assistant"), budget("assistant"));
    assert_eq!(windows("user"), 1);
    // Tool output: found by its words, never by meaning.
    let by_words = search(&engine, "walrus migration checklist", |r| {
        r.mode = cc_search::hybrid::Mode::Keyword
    });
    assert_eq!(by_words.results[0].kind, "tool", "{by_words:?}");
    let by_meaning = search(&engine, "walrus migration checklist", |r| {
        r.mode = cc_search::hybrid::Mode::Vector
    });
    assert!(
        by_meaning.results.iter().all(|h| h.kind != "tool"),
        "{by_meaning:?}"
    );
    // The essay's last paragraphs are past its windows: still found by their words.
    let tail = search(&engine, "paragraph1199", |r| {
        r.mode = cc_search::hybrid::Mode::Keyword
    });
    assert_eq!(tail.results[0].kind, "assistant", "{tail:?}");
}

#[test]
fn near_duplicate_prompts_come_newest_first() {
    let home = tempfile::tempdir().unwrap();
    let claude = tempfile::tempdir().unwrap();
    let projects = claude.path().join("projects");
    // Written oldest first under keys that sort the other way round, then newest first
    // under keys that sort the same way: neither the key nor the file order decides.
    let beads = [
        ("99999999-0000-4000-8000-000000000001", "bead-x1", 50),
        ("11111111-0000-4000-8000-000000000002", "bead-x2", 40),
        ("55555555-0000-4000-8000-000000000003", "bead-x3", 30),
    ];
    for (session, bead, days) in beads {
        let mut t = Transcript::new(session, "/home/u/beads", NOW - days * 86_400);
        t.prompt(&format!(
            "Work on {bead}. Run bd show {bead} to see the issue details and start with the first ready task."
        ))
        .assistant("msg_1", &[text("Starting with the first ready task.")]);
        write(
            &projects.join("-home-u-beads"),
            &format!("{session}.jsonl"),
            t.bytes(),
        );
    }
    let engine = engine(home.path());
    index(&engine, &projects);
    for mode in [
        cc_search::hybrid::Mode::Keyword,
        cc_search::hybrid::Mode::Hybrid,
    ] {
        let found = search(&engine, "work issue details ready task", |r| {
            r.mode = mode;
            r.types = vec!["user".into()];
        });
        let order: Vec<&str> = found
            .results
            .iter()
            .map(|h| h.session_id.as_str())
            .collect();
        assert_eq!(
            order,
            [beads[2].0, beads[1].0, beads[0].0],
            "{mode:?}: {found:#?}"
        );
    }
}

/// Through the MCP server, the first `sessions_search` does not wait for the model: the
/// index run before it only parses (the answer comes by keyword and says the rest is on
/// its way), and the vectors are made on a background thread, after which search by
/// meaning finds what no word of the query matches.
#[test]
fn the_first_mcp_search_answers_by_keyword_while_the_history_is_embedded() {
    use cc_search::mcp::{Server, ServerOptions};
    let project = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(project.path()).unwrap();
    let cwd = root.to_str().unwrap();
    // Inside the project: the server reads nothing outside its roots.
    let projects = root.join("transcripts");
    for (n, prompt) in [
        "Please wire the invoice exporter into the nightly cron schedule.",
        "The login page should remember the user's email address.",
    ]
    .iter()
    .enumerate()
    {
        let session = format!("ffffffff-0000-4000-8000-00000000000{n}");
        let mut t = Transcript::new(&session, cwd, NOW - 86_400 + n as i64 * 600);
        t.prompt(prompt)
            .assistant(&format!("msg_f{n}"), &[text("Done.")]);
        write(
            &projects.join("-project"),
            &format!("{session}.jsonl"),
            t.bytes(),
        );
    }
    let home = tempfile::tempdir().unwrap();
    let model = common::model_dir().is_some();
    let server = Server::new(
        std::sync::Arc::new(engine(home.path())),
        ServerOptions {
            roots: vec![root.clone()],
            ..Default::default()
        },
    )
    .unwrap();
    let ask = |query: &str| -> Value {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "sessions_search",
            "arguments": {"query": query, "projects_dir": projects.to_str().unwrap()}}});
        let reply: Value =
            serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap();
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        serde_json::from_str(text).unwrap_or_else(|_| panic!("{text}"))
    };
    let first = ask("invoice exporter cron");
    assert!(
        first["results"][0]["excerpt"]
            .as_str()
            .is_some_and(|e| e.contains("invoice exporter")),
        "{first}"
    );
    // Nothing was embedded before the answer: it says the rest is coming (the model
    // takes longer to load than the search to answer).
    if model {
        assert!(
            first["warnings"]
                .as_array()
                .is_some_and(|w| w.iter().any(|w| w
                    .as_str()
                    .unwrap()
                    .contains("being embedded in the background"))),
            "{first}"
        );
        // …and asks for no command: the embedding is under way.
        assert!(
            !first["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w.as_str().unwrap().contains("have no vectors yet")),
            "{first}"
        );
    }
    let status = |engine_home: &Path| -> Value {
        let engine = Engine::open_at(engine_home).unwrap();
        serde_json::from_str(&engine.call("sessions.status", "{}").unwrap()).unwrap()
    };
    assert!(server.wait_for_background(Duration::from_secs(120)));
    let after = status(home.path());
    if model {
        assert_eq!(after["pending_vectors"], 0, "{after}");
        // By meaning alone: no word of the query is in the transcript.
        let meaning = ask("sign-in form recalls e-mail");
        assert!(
            meaning["results"][0]["excerpt"]
                .as_str()
                .is_some_and(|e| e.contains("login page")),
            "{meaning}"
        );
    } else {
        assert!(after["pending_vectors"].as_u64().unwrap() > 0, "{after}");
    }
}
