//! docs and notes identify a project by its canonical root path, not by its directory's
//! name: two git repositories both called `app` in different parents are two projects
//! whose sections never mix, overwrite or delete each other (also through the MCP
//! server); and an index written by the schema that keyed by name migrates.

use std::path::{Path, PathBuf};

use cc_search::Engine;
use cc_search::docs::{
    self, IndexRequest, IndexResponse, NotesIndexRequest, NotesQueryRequest, QueryHit,
    QueryRequest, QueryResponse,
};
use cc_search::hybrid::Mode;

use crate::common;
use common::{commit_all, git_at, write};

/// An engine in `home` with the real model when the tests have it, else keyword-only;
/// and whether it has the model.
fn engine(home: &Path) -> (Engine, bool) {
    let model = common::model_dir();
    match &model {
        Some(dir) => write(
            home,
            "config.toml",
            format!("[embed]\nmodel_dir = {:?}\n", dir.display().to_string()),
        ),
        None => common::keyword_only(home),
    }
    (Engine::open_at(home).unwrap(), model.is_some())
}

fn index(engine: &Engine, dir: &Path) -> IndexResponse {
    engine
        .run::<docs::Index>(IndexRequest {
            project_dir: Some(dir.into()),
            ..Default::default()
        })
        .unwrap()
}

fn notes_index(engine: &Engine, dir: &Path) -> IndexResponse {
    engine
        .run::<docs::NotesIndex>(NotesIndexRequest {
            project_dir: Some(dir.into()),
            ..Default::default()
        })
        .unwrap()
}

fn query(engine: &Engine, dir: &Path, text: &str, mode: Mode, all: bool) -> QueryResponse {
    engine
        .run::<docs::Query>(QueryRequest {
            query: text.into(),
            project_dir: Some(dir.into()),
            all_branches: all,
            limit: Some(50),
            mode,
            ..Default::default()
        })
        .unwrap()
}

fn notes_query(engine: &Engine, dir: &Path, text: &str, mode: Mode) -> QueryResponse {
    engine
        .run::<docs::NotesQuery>(NotesQueryRequest {
            query: text.into(),
            project_dir: Some(dir.into()),
            limit: Some(50),
            mode,
            ..Default::default()
        })
        .unwrap()
}

/// What a query found, without scores and timings: (file, section, content).
fn found(response: &QueryResponse) -> Vec<(String, String, String)> {
    let mut found: Vec<_> = response
        .results
        .iter()
        .map(|h: &QueryHit| (h.file.clone(), h.section.clone(), h.content.clone()))
        .collect();
    found.sort();
    found
}

/// A git repository `parent/<tag>/app` on branch main whose docs and notes mention
/// `word` (a fruit only this project has), with the same file paths and section titles
/// as its namesake.
fn app(parent: &Path, tag: &str, word: &str) -> PathBuf {
    let root = parent.join(tag).join("app");
    write(
        &root,
        "docs/guide.md",
        format!("## Scheduler\n\nThe {word} scheduler runs nightly jobs in order.\n"),
    );
    write(
        &root,
        "docs/extra.md",
        format!("## Appendix\n\nThe appendix lists every {word} option.\n"),
    );
    write(
        &root,
        "sessions/2026_02_05_AUTH/NOTES.md",
        format!("## Findings\n\nToken rotation keeps the {word} session alive.\n"),
    );
    git_at(&root, &["init", "-q", "-b", "main"], 1_700_000_000);
    commit_all(&root, "docs", 1_700_000_000);
    std::fs::canonicalize(&root).unwrap()
}

/// Every result of `response` comes from the project whose word is `mine`, none from
/// the one whose word is `theirs`.
fn only_mine(response: &QueryResponse, mine: &str, theirs: &str) {
    assert!(!response.results.is_empty(), "{response:?}");
    for hit in &response.results {
        assert_eq!(hit.project, "app", "the project is shown by its name");
        assert!(
            hit.content.contains(mine) && !hit.content.contains(theirs),
            "a result of the other project: {hit:?}"
        );
    }
}

#[test]
fn projects_with_the_same_name_keep_their_own_docs_and_notes() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let a = app(parent.path(), "a", "papaya");
    let b = app(parent.path(), "b", "quince");
    let (engine, model) = engine(home.path());

    let indexed_a = index(&engine, &a);
    assert_eq!((indexed_a.indexed, indexed_a.sections_written), (2, 2));
    assert_eq!(indexed_a.project, "app");
    assert_eq!(indexed_a.root, a);
    let indexed_b = index(&engine, &b);
    assert_eq!(
        (
            indexed_b.indexed,
            indexed_b.sections_written,
            indexed_b.removed
        ),
        (2, 2, 0),
        "b is a project of its own, not a change to a: {indexed_b:?}"
    );
    assert_eq!(notes_index(&engine, &a).sections_written, 1);
    let notes_b = notes_index(&engine, &b);
    assert_eq!((notes_b.indexed, notes_b.sections_written), (1, 1));

    // Each query sees its own project only, in every mode and on every branch.
    let mut modes = vec![Mode::Keyword, Mode::Hybrid];
    if model {
        modes.push(Mode::Vector);
    }
    for &mode in &modes {
        for all in [false, true] {
            let from_a = query(&engine, &a, "scheduler nightly jobs", mode, all);
            only_mine(&from_a, "papaya", "quince");
            assert_eq!(from_a.project, "app");
            only_mine(
                &query(&engine, &b, "scheduler nightly jobs", mode, all),
                "quince",
                "papaya",
            );
        }
        only_mine(
            &notes_query(&engine, &a, "token rotation session", mode),
            "papaya",
            "quince",
        );
        only_mine(
            &notes_query(&engine, &b, "token rotation session", mode),
            "quince",
            "papaya",
        );
    }
    assert!(
        query(&engine, &a, "quince", Mode::Keyword, true)
            .results
            .is_empty()
    );
    assert!(
        notes_query(&engine, &a, "quince", Mode::Keyword)
            .results
            .is_empty()
    );
    let b_docs = found(&query(
        &engine,
        &b,
        "scheduler appendix",
        Mode::Keyword,
        true,
    ));
    assert_eq!(b_docs.len(), 2, "{b_docs:?}");
    let b_notes = found(&notes_query(&engine, &b, "token session", Mode::Keyword));
    assert_eq!(b_notes.len(), 1);

    // Re-indexing a changed a leaves b as it was: nothing of b re-chunked or removed.
    write(
        &a,
        "docs/guide.md",
        "## Scheduler\n\nThe papaya scheduler now runs hourly jobs.\n",
    );
    write(
        &a,
        "sessions/2026_02_05_AUTH/NOTES.md",
        "## Findings\n\nThe papaya session was rotated twice.\n",
    );
    let again_a = index(&engine, &a);
    assert_eq!((again_a.indexed, again_a.unchanged), (1, 1), "{again_a:?}");
    assert_eq!(notes_index(&engine, &a).indexed, 1);
    let again_b = index(&engine, &b);
    assert_eq!(
        (again_b.unchanged, again_b.indexed, again_b.removed),
        (2, 0, 0),
        "b untouched by a's runs: {again_b:?}"
    );
    let notes_again_b = notes_index(&engine, &b);
    assert_eq!((notes_again_b.unchanged, notes_again_b.indexed), (1, 0));
    assert_eq!(
        found(&query(
            &engine,
            &b,
            "scheduler appendix",
            Mode::Keyword,
            true
        )),
        b_docs
    );
    assert_eq!(
        found(&notes_query(&engine, &b, "token session", Mode::Keyword)),
        b_notes
    );
    only_mine(
        &query(&engine, &a, "hourly", Mode::Keyword, false),
        "papaya",
        "quince",
    );

    // Deleting a doc and the notes in a leaves b's copies where they were.
    std::fs::remove_file(a.join("docs/extra.md")).unwrap();
    std::fs::remove_file(a.join("sessions/2026_02_05_AUTH/NOTES.md")).unwrap();
    let deleted = index(&engine, &a);
    assert_eq!((deleted.removed, deleted.sections_removed), (1, 1));
    assert_eq!(notes_index(&engine, &a).removed, 1);
    assert!(
        query(&engine, &a, "appendix option", Mode::Keyword, true)
            .results
            .is_empty()
    );
    assert!(
        notes_query(&engine, &a, "token session", Mode::Keyword)
            .results
            .is_empty()
    );
    assert_eq!(
        found(&query(
            &engine,
            &b,
            "scheduler appendix",
            Mode::Keyword,
            true
        )),
        b_docs
    );
    assert_eq!(
        found(&notes_query(&engine, &b, "token session", Mode::Keyword)),
        b_notes
    );
    assert_eq!(index(&engine, &b).unchanged, 2);

    // In the database: one scope per root, every vector in its chunk's scope.
    let db = rusqlite::Connection::open(home.path().join("docs.db")).unwrap();
    let mut stmt = db
        .prepare("SELECT scope, count(*) FROM chunks GROUP BY scope ORDER BY scope")
        .unwrap();
    let scopes: Vec<(String, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let text = |p: &Path| p.to_str().unwrap().to_string();
    assert_eq!(scopes, [(text(&a), 1), (text(&b), 3)]);

    // A project reached through a symlink is the same project.
    let link = parent.path().join("link");
    std::os::unix::fs::symlink(&b, &link).unwrap();
    let through_link = index(&engine, &link);
    assert_eq!(through_link.root, b);
    assert_eq!((through_link.unchanged, through_link.indexed), (2, 0));
    assert_eq!(
        found(&query(
            &engine,
            &link,
            "scheduler appendix",
            Mode::Keyword,
            true
        )),
        b_docs
    );
}

/// An MCP server given `/x/a/app` as its root sees nothing of `/x/b/app`, and indexing
/// a through it leaves b as it was.
#[test]
fn an_mcp_server_sees_only_its_own_namesake() {
    use cc_search::mcp::{Server, ServerOptions};
    use serde_json::{Value, json};
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let a = app(parent.path(), "a", "papaya");
    let b = app(parent.path(), "b", "quince");
    common::keyword_only(home.path());
    let engine = std::sync::Arc::new(Engine::open_at(home.path()).unwrap());
    index(&engine, &b);
    notes_index(&engine, &b);
    let server = Server::new(
        engine.clone(),
        ServerOptions {
            roots: vec![a.clone()],
            tools: vec!["all".into()],
            structured: Some(true),
            ..Default::default()
        },
    )
    .unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {}}});
    server.handle(&init.to_string()).unwrap();
    let call = |id: i64, tool: &str, arguments: Value| -> Value {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                             "params": {"name": tool, "arguments": arguments}});
        let reply: Value =
            serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap();
        assert!(reply["result"].get("isError").is_none(), "{reply}");
        reply["result"]["structuredContent"].clone()
    };
    // The server brings a's index up to date before each query; b's sections, indexed
    // before under the same name, are never a's.
    for (id, tool, text) in [
        (1, "docs_query", "scheduler appendix"),
        (2, "notes_query", "token session"),
    ] {
        let found = call(id, tool, json!({"query": text, "limit": 50}));
        let results = found["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{found}");
        for hit in results {
            let content = hit["content"].as_str().unwrap();
            assert!(
                content.contains("papaya") && !content.contains("quince"),
                "{hit}"
            );
        }
    }
    // b was left as it was.
    assert_eq!(index(&engine, &b).unchanged, 2);
    assert_eq!(notes_index(&engine, &b).unchanged, 1);
}

/// An index written by the schema that keyed projects by name (version 2): its rows
/// cannot be told apart by project, so the migration drops them; the next index run
/// rebuilds the project's sections (from the vector cache) and nothing of the old rows
/// shows up in any project.
#[test]
fn an_index_keyed_by_name_migrates() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let a = app(parent.path(), "a", "papaya");
    let path = home.path().join("docs.db");
    // The vector cache as the user has it: it already holds a's sections.
    if common::model_dir().is_some() {
        let earlier = tempfile::tempdir().unwrap();
        let (engine, _) = engine(earlier.path());
        assert!(index(&engine, &a).embedded > 0);
        assert!(notes_index(&engine, &a).embedded > 0);
        drop(engine);
        for suffix in ["", "-wal"] {
            let from = earlier.path().join(format!("embeddings.db{suffix}"));
            if from.exists() {
                std::fs::copy(&from, home.path().join(format!("embeddings.db{suffix}"))).unwrap();
            }
        }
    }
    {
        let conn = cc_search::store::open(&path, &docs::SCHEMA[..2], &mut Vec::new()).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 2);
        // What the previous version wrote for a project named `app` (another checkout's
        // docs and notes, with a vector).
        conn.execute_batch(
            "INSERT INTO doc_files (collection, project, branch, path, mtime_ns, size, \
                 content_sha256, indexed_at)
               VALUES ('docs', 'app', 'main', 'docs/guide.md', 1, 1, x'00', 1600000000),
                      ('notes', 'app', '', 'sessions/2026_02_05_AUTH/NOTES.md', 1, 1, x'00',
                       1600000000);
             INSERT INTO chunks (id, key, source, scope, kind, tag, time, title, text, meta,
                 text_sha256, embedded)
               VALUES (1, 'k1', 'doc' || char(0) || 'app' || char(0) || 'main' || char(0)
                         || 'docs/guide.md', 'app', 'doc', 'main', 0, 'Scheduler',
                       '## Scheduler\n\nThe durian scheduler of another checkout.',
                       '{\"path\":\"docs/guide.md\",\"mtime\":1}', x'00', 1),
                      (2, 'k2', 'note' || char(0) || 'app' || char(0) || char(0)
                         || 'sessions/2026_02_05_AUTH/NOTES.md', 'app', 'note', 'notes',
                       1770249600, 'Findings', '## Findings\n\nThe durian session.',
                       '{\"path\":\"sessions/2026_02_05_AUTH/NOTES.md\",\"mtime\":1}', x'00', 1);
             INSERT INTO chunk_windows (id, chunk_id, position, start, end)
               VALUES (1, 1, 0, 0, 10), (2, 2, 0, 0, 10);",
        )
        .unwrap();
        let zero = vec![0u8; 384 * 4];
        for (window, scope, kind, tag, time) in [
            (1, "app", "doc", "main", 0),
            (2, "app", "note", "notes", 1_770_249_600),
        ] {
            conn.execute(
                "INSERT INTO chunk_vectors (window_id, scope, kind, tag, time, chunk_id, \
                 embedding) VALUES (?1, ?2, ?3, ?4, ?5, ?1, ?6)",
                rusqlite::params![window, scope, kind, tag, time, zero],
            )
            .unwrap();
        }
    }

    let (engine, model) = engine(home.path());
    // Opening migrates: the name-keyed rows are gone, and say so through a query.
    let before = query(&engine, &a, "durian scheduler", Mode::Keyword, true);
    assert!(before.results.is_empty(), "{before:?}");
    assert!(
        before.warnings[0].contains("no docs indexed for project app"),
        "{:?}",
        before.warnings
    );
    assert!(
        notes_query(&engine, &a, "durian session", Mode::Keyword)
            .results
            .is_empty()
    );

    let indexed = index(&engine, &a);
    assert_eq!((indexed.indexed, indexed.sections_written), (2, 2));
    let notes = notes_index(&engine, &a);
    assert_eq!(notes.sections_written, 1);
    if model {
        assert_eq!(notes.pending_vectors, 0, "{:?}", notes.warnings);
        assert_eq!(
            (indexed.embedded, notes.embedded),
            (0, 0),
            "re-indexing after the migration takes every vector from the cache"
        );
    }
    let modes = if model {
        vec![Mode::Keyword, Mode::Vector, Mode::Hybrid]
    } else {
        vec![Mode::Keyword]
    };
    for mode in modes {
        only_mine(
            &query(&engine, &a, "scheduler", mode, true),
            "papaya",
            "durian",
        );
        only_mine(
            &notes_query(&engine, &a, "session", mode),
            "papaya",
            "durian",
        );
    }

    let conn = rusqlite::Connection::open(&path).unwrap();
    let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(one("PRAGMA user_version"), docs::SCHEMA.len() as i64);
    assert_eq!(one("SELECT count(*) FROM chunks WHERE scope = 'app'"), 0);
    assert_eq!(one("SELECT count(*) FROM chunks"), 3);
    assert_eq!(one("SELECT count(*) FROM doc_files"), 3);
    assert_eq!(
        one("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'durian'"),
        0
    );
    conn.execute_batch("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")
        .unwrap();
    let vectors = if model { 3 } else { 0 };
    assert_eq!(one("SELECT count(*) FROM chunk_windows"), vectors);
    assert_eq!(one("SELECT count(*) FROM chunk_vectors"), vectors);
}

/// An index whose large documents were single sections is split again when the schema
/// that cuts large sections at their next heading level opens it: the old section goes,
/// each release of a changelog is a section of its own, and the small sections keep
/// their place.
#[test]
fn sections_indexed_whole_are_cut_again_after_the_upgrade() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let dir = project.path();
    let release = |n: usize| {
        format!("### {n}.0 / 2026\n\n")
            + &format!("- fix(cli): a change shipped in release {n} of the guava tool\n").repeat(40)
    };
    let changelog = "# Releases\n\nHow to install.\n\n".to_string()
        + &(1..=6).rev().map(release).collect::<String>();
    assert!(changelog.len() > cc_search::text::LARGE_SECTION);
    write(dir, "README.md", "# App\n\n## Use\n\nRun the guava tool.\n");
    write(dir, "CHANGELOG.md", &changelog);
    let sections = |response: &QueryResponse| -> Vec<(String, String)> {
        let mut s: Vec<_> = response
            .results
            .iter()
            .map(|h| (h.file.clone(), h.section.clone()))
            .collect();
        s.sort();
        s
    };
    let releases: Vec<(String, String)> = std::iter::once(("CHANGELOG.md", "(preamble)".into()))
        .chain((1..=6).map(|n| ("CHANGELOG.md", format!("{n}.0 / 2026"))))
        .map(|(f, s)| (f.to_string(), s))
        .chain([("README.md".to_string(), "Use".to_string())])
        .collect();
    {
        let (engine, _) = engine(home.path());
        index(&engine, dir);
        let mut expected = releases.clone();
        expected.retain(|(_, s)| s != "(preamble)");
        let found = query(&engine, dir, "guava", Mode::Keyword, false);
        assert_eq!(sections(&found), expected);
    }
    // What the previous schema wrote: the changelog as one section, and version 5.
    {
        let conn = rusqlite::Connection::open(home.path().join("docs.db")).unwrap();
        conn.execute_batch(
            "INSERT INTO chunks (key, source, scope, kind, tag, time, title, text, meta,
                 text_sha256, embedded)
               SELECT 'whole', source, scope, kind, tag, time, '(full document)',
                      '# Releases ... the guava tool, whole', meta, x'00', 0
               FROM chunks WHERE json_extract(meta, '$.path') = 'CHANGELOG.md' LIMIT 1;
             DELETE FROM chunks
               WHERE json_extract(meta, '$.path') = 'CHANGELOG.md' AND key <> 'whole';
             PRAGMA user_version = 5;",
        )
        .unwrap();
    }
    let (engine, _) = engine(home.path());
    let again = index(&engine, dir);
    assert_eq!(again.unchanged, 0, "every file is read again: {again:?}");
    let found = query(&engine, dir, "guava", Mode::Keyword, false);
    let mut expected = releases;
    expected.retain(|(_, s)| s != "(preamble)");
    assert_eq!(sections(&found), expected, "the whole changelog is gone");
    let preamble = query(&engine, dir, "install", Mode::Keyword, false);
    assert_eq!(
        sections(&preamble),
        [("CHANGELOG.md".to_string(), "(preamble)".to_string())]
    );
}

/// A version in a question is asked for as written: "what changed in 1.2" finds the
/// release whose heading says 1.2, not every section holding a 1 and a 2.
#[test]
fn a_question_about_a_version_finds_that_release() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let dir = project.path();
    write(
        dir,
        "CHANGELOG.md",
        "# Changelog\n\n## 2.1.0\n\n- fixed a bug\n\n## 1.2.0\n\n- fixed a bug\n\n## 2.0.1\n\n- fixed a bug\n",
    );
    let (engine, _) = engine(home.path());
    index(&engine, dir);
    let found = query(&engine, dir, "what changed in 1.2", Mode::Keyword, false);
    let sections: Vec<&str> = found.results.iter().map(|h| h.section.as_str()).collect();
    assert_eq!(sections, ["1.2.0"]);
}
