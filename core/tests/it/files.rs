//! `files.refresh` and `files.suggest` end to end on real directories and SQLite files.

use std::fs;
use std::path::Path;

use cc_search::Engine;
use cc_search::files::{Refresh, RefreshRequest, Suggest, SuggestRequest};
use serde_json::json;

fn touch(root: &Path, rel: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let content = if rel.ends_with(".json") { "{}" } else { rel };
    fs::write(path, content.as_bytes()).unwrap();
}

struct Fixture {
    _home: tempfile::TempDir,
    project: tempfile::TempDir,
    engine: Engine,
}

fn fixture(files: &[&str]) -> Fixture {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    for rel in files {
        touch(project.path(), rel);
    }
    let engine = Engine::open_at(home.path()).unwrap();
    Fixture {
        _home: home,
        project,
        engine,
    }
}

impl Fixture {
    fn refresh(&self) -> cc_search::files::RefreshResponse {
        self.engine
            .run::<Refresh>(RefreshRequest {
                root: Some(self.project.path().into()),
                ..Default::default()
            })
            .unwrap()
    }

    /// The paths suggested for `query`, which must come without a warning.
    fn suggest(&self, query: &str) -> Vec<String> {
        let answer = self
            .engine
            .run::<Suggest>(SuggestRequest {
                query: query.into(),
                project_dir: Some(self.project.path().into()),
                limit: None,
                ..Default::default()
            })
            .unwrap();
        assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        answer.paths
    }

    /// Open the index again, as a new process would (upgrading an older schema).
    fn reopen(&mut self) {
        self.engine = Engine::open_at(self._home.path()).unwrap();
    }
}

const APP: &[&str] = &[
    "src/components/Button.tsx",
    "src/components/Modal.tsx",
    "src/lib/api-client.ts",
    "src/lib/my_utils.py",
    "docs/guide.md",
    "README.md",
    "package.json",
    ".claude/settings.json",
    "node_modules/react/index.js",
];

#[test]
fn suggest_finds_paths_by_prefix_name_and_directory() {
    let f = fixture(APP);
    assert_eq!(f.refresh().files, 8);
    assert_eq!(
        f.suggest("src/comp"),
        // Equal scores: the shorter path first, then path order.
        ["src/components/Modal.tsx", "src/components/Button.tsx"]
    );
    assert_eq!(f.suggest("Button"), ["src/components/Button.tsx"]);
    assert_eq!(f.suggest("butt"), ["src/components/Button.tsx"]);
    assert_eq!(f.suggest("readme"), ["README.md"]);
    assert_eq!(f.suggest("api-client"), ["src/lib/api-client.ts"]);
    assert_eq!(f.suggest("my_utils"), ["src/lib/my_utils.py"]);
    assert_eq!(f.suggest("settings"), [".claude/settings.json"]);
    assert_eq!(f.suggest("claude"), [".claude/settings.json"]);
    // Default excludes keep node_modules out.
    assert!(f.suggest("react").is_empty());
    assert!(f.suggest("index").is_empty());
    // File-name matches rank above directory matches.
    let lib = f.suggest("lib");
    assert_eq!(lib.len(), 2);
    assert!(lib.iter().all(|p| p.starts_with("src/lib/")));
}

#[test]
fn empty_and_hostile_queries_are_answers_not_errors() {
    let f = fixture(APP);
    f.refresh();
    assert_eq!(f.suggest("").len(), 8);
    for q in [
        "\"",
        "-foo",
        "NEAR(",
        "*",
        "AND",
        "OR",
        "NOT",
        "a AND",
        "(",
        ")",
        "{x}",
        ":",
        "^",
        "col:val",
        "\u{0}",
        "'; DROP TABLE files_meta; --",
        "%",
        "_",
        "\\",
    ] {
        let r = f.engine.run::<Suggest>(SuggestRequest {
            query: q.into(),
            project_dir: Some(f.project.path().into()),
            limit: None,
            ..Default::default()
        });
        assert!(r.is_ok(), "{q:?}: {r:?}");
    }
    let long = "ab/ cd-".repeat(30_000);
    assert!(f.suggest(&long).is_empty());
    assert_eq!(f.refresh().files, 8, "the index survived");
}

#[test]
fn at_most_fifteen_and_limit_is_validated() {
    let names: Vec<String> = (0..40).map(|i| format!("pkg/file{i:02}.rs")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let f = fixture(&refs);
    f.refresh();
    assert_eq!(f.suggest("file").len(), 15);
    assert_eq!(f.suggest("").len(), 15);
    let five = f
        .engine
        .run::<Suggest>(SuggestRequest {
            query: "file".into(),
            project_dir: Some(f.project.path().into()),
            limit: Some(5),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        five.paths,
        [
            "pkg/file00.rs",
            "pkg/file01.rs",
            "pkg/file02.rs",
            "pkg/file03.rs",
            "pkg/file04.rs"
        ]
    );
    for bad in [0, 16, 1000] {
        let err = f
            .engine
            .run::<Suggest>(SuggestRequest {
                query: "file".into(),
                project_dir: Some(f.project.path().into()),
                limit: Some(bad),
                ..Default::default()
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_request", "{bad}");
    }
}

#[test]
fn refresh_is_incremental_and_prunes() {
    let f = fixture(&["a.txt", "b.txt", "c/d.txt"]);
    let first = f.refresh();
    assert_eq!(
        (first.files, first.added, first.updated, first.removed),
        (3, 3, 0, 0)
    );
    let again = f.refresh();
    assert_eq!(
        (again.files, again.added, again.updated, again.removed),
        (3, 0, 0, 0)
    );

    fs::remove_file(f.project.path().join("b.txt")).unwrap();
    touch(f.project.path(), "e/new.txt");
    let file = fs::File::options()
        .write(true)
        .open(f.project.path().join("a.txt"))
        .unwrap();
    file.set_modified(
        std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000),
    )
    .unwrap();
    let third = f.refresh();
    assert_eq!(
        (third.files, third.added, third.updated, third.removed),
        (3, 1, 1, 1)
    );
    assert!(f.suggest("b").is_empty());
    assert_eq!(f.suggest("new"), ["e/new.txt"]);
}

#[test]
fn suggest_is_scoped_to_the_project() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    touch(parent.path(), "app/src/main.rs");
    touch(parent.path(), "app2/src/main.rs");
    touch(parent.path(), "other/main.rs");
    let engine = Engine::open_at(home.path()).unwrap();
    engine
        .run::<Refresh>(RefreshRequest {
            root: Some(parent.path().into()),
            ..Default::default()
        })
        .unwrap();
    let r = engine
        .run::<Suggest>(SuggestRequest {
            query: "main".into(),
            project_dir: Some(parent.path().join("app")),
            limit: None,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.paths, ["src/main.rs"]);
    assert!(
        r.warnings.is_empty(),
        "covered by the parent root: {:?}",
        r.warnings
    );
}

#[test]
fn unindexed_project_is_indexed_on_first_suggest() {
    let f = fixture(APP);
    let r = f
        .engine
        .run::<Suggest>(SuggestRequest {
            query: "modal".into(),
            project_dir: Some(f.project.path().into()),
            limit: None,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.paths, ["src/components/Modal.tsx"]);
    assert!(
        r.warnings.iter().any(|w| w.contains("not indexed yet")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn json_calls_validate_and_answer() {
    let f = fixture(APP);
    let project = f.project.path().to_str().unwrap();
    let out = f
        .engine
        .call("files.refresh", &json!({ "root": project }).to_string())
        .unwrap();
    let out: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["files"], 8);
    let out = f
        .engine
        .call(
            "files.suggest",
            &json!({ "query": "modal", "project_dir": project }).to_string(),
        )
        .unwrap();
    assert_eq!(
        out,
        r#"{"paths":["src/components/Modal.tsx"],"warnings":[]}"#
    );

    for (op, params, code) in [
        ("files.nope", "{}", "unknown_operation"),
        ("", "{}", "unknown_operation"),
        ("files.suggest", "{", "invalid_request"),
        ("files.suggest", "[]", "invalid_request"),
        ("files.suggest", r#"{"query": 5}"#, "invalid_request"),
        ("files.suggest", r#"{"qurey": "x"}"#, "invalid_request"),
        ("files.suggest", r#"{"limit": -1}"#, "invalid_request"),
        (
            "files.refresh",
            r#"{"root": "/nonexistent/cc-search"}"#,
            "io",
        ),
        ("files.refresh", r#"{"root": ""}"#, "invalid_request"),
    ] {
        let err = f.engine.call(op, params).unwrap_err();
        assert_eq!(err.code(), code, "{op} {params}: {err}");
    }
    // A mistyped field is named in the message.
    let err = f
        .engine
        .call("files.suggest", r#"{"limit": -1}"#)
        .unwrap_err();
    assert!(err.to_string().contains("`limit`"), "{err}");
    assert!(
        Engine::open(cc_search::EngineOptions {
            home: Some("".into()),
            config_path: None
        })
        .is_err()
    );
}

#[test]
fn output_is_deterministic() {
    let names: Vec<String> = (0..300)
        .map(|i| format!("d{}/sub{}/same_{}.rs", i % 7, i % 3, i % 11))
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let f = fixture(&refs);
    f.refresh();
    let first: Vec<Vec<String>> = ["same", "sub1", "d3/sub", "", "rs"]
        .iter()
        .map(|q| f.suggest(q))
        .collect();
    for _ in 0..3 {
        let again: Vec<Vec<String>> = ["same", "sub1", "d3/sub", "", "rs"]
            .iter()
            .map(|q| f.suggest(q))
            .collect();
        assert_eq!(first, again);
    }
    // A fresh index of the same tree answers the same.
    let other = Engine::open_at(tempfile::tempdir().unwrap().path()).unwrap();
    other
        .run::<Refresh>(RefreshRequest {
            root: Some(f.project.path().into()),
            ..Default::default()
        })
        .unwrap();
    let fresh = other
        .run::<Suggest>(SuggestRequest {
            query: "same".into(),
            project_dir: Some(f.project.path().into()),
            limit: None,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(fresh.paths, first[0]);
}

#[test]
fn corrupt_index_is_rebuilt_with_a_warning() {
    let f = fixture(APP);
    fs::write(f._home.path().join("files.db"), vec![0x42; 10_000]).unwrap();
    let r = f
        .engine
        .run::<Suggest>(SuggestRequest {
            query: "modal".into(),
            project_dir: Some(f.project.path().into()),
            limit: None,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.paths, ["src/components/Modal.tsx"]);
    assert!(
        r.warnings.iter().any(|w| w.contains("corrupt")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn invalid_config_means_defaults_and_one_warning() {
    let home = tempfile::tempdir().unwrap();
    fs::write(home.path().join("config.toml"), "[index\nroots = 3").unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    assert_eq!(engine.warnings().len(), 1);
    assert_eq!(engine.config(), &cc_search::Config::default());
}

#[test]
fn config_excludes_and_depth_apply() {
    let home = tempfile::tempdir().unwrap();
    fs::write(
        home.path().join("config.toml"),
        "[index]\nexclude.patterns = [\"*.log\"]\n[index.depth]\ndefault = 2\n",
    )
    .unwrap();
    let project = tempfile::tempdir().unwrap();
    for rel in ["a.log", "a.txt", "x/b.txt", "x/y/c.txt"] {
        touch(project.path(), rel);
    }
    let engine = Engine::open_at(home.path()).unwrap();
    let r = engine
        .run::<Refresh>(RefreshRequest {
            root: Some(project.path().into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.files, 2);
}

fn fts_integrity(home: &Path) {
    let conn = rusqlite::Connection::open(home.join("files.db")).unwrap();
    conn.execute(
        "INSERT INTO files_fts(files_fts) VALUES ('integrity-check')",
        [],
    )
    .expect("FTS index matches files_meta");
    let triggers: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'files_meta'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(triggers, 3, "the FTS triggers are in place");
}

#[test]
fn bulk_and_incremental_writes_keep_fts_in_sync() {
    let names: Vec<String> = (0..600).map(|i| format!("m{}/n{i}.txt", i % 9)).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let f = fixture(&refs);
    // 600 new files: written in bulk.
    assert_eq!(f.refresh().added, 600);
    fts_integrity(f._home.path());
    // First; names one typo away (`n559`, `n959`) may follow.
    assert_eq!(f.suggest("n599")[0], "m5/n599.txt");

    // A few changes: written row by row through the triggers.
    fs::remove_file(f.project.path().join("m0/n0.txt")).unwrap();
    touch(f.project.path(), "m0/fresh.txt");
    let r = f.refresh();
    assert_eq!((r.added, r.removed), (1, 1));
    fts_integrity(f._home.path());
    assert_eq!(f.suggest("fresh"), ["m0/fresh.txt"]);
    assert!(!f.suggest("n0").contains(&"m0/n0.txt".to_string()));

    // Most files gone: bulk again, other roots untouched.
    let other = tempfile::tempdir().unwrap();
    touch(other.path(), "keep/me.rs");
    f.engine
        .run::<Refresh>(RefreshRequest {
            root: Some(other.path().into()),
            ..Default::default()
        })
        .unwrap();
    for gone in ["m1", "m2", "m3", "m4", "m5"] {
        fs::remove_dir_all(f.project.path().join(gone)).unwrap();
    }
    let r = f.refresh();
    assert!(r.removed > 256, "{r:?}");
    fts_integrity(f._home.path());
    let left = f.suggest("n10");
    assert!(!left.is_empty());
    assert!(
        left.iter().all(|p| ["m0/", "m6/", "m7/", "m8/"]
            .iter()
            .any(|d| p.starts_with(d))),
        "{left:?}"
    );
    let kept = f
        .engine
        .run::<Suggest>(SuggestRequest {
            query: "me".into(),
            project_dir: Some(other.path().into()),
            limit: None,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(kept.paths, ["keep/me.rs"]);
}

/// The path list the fuzzy scan reads comes from its snapshot file beside the index; a
/// snapshot that is gone or damaged is not read, the index's own copy is, and each new
/// list replaces the old file.
#[test]
fn the_scan_reads_the_snapshot_file_and_falls_back_to_the_index() {
    let f = fixture(APP);
    f.refresh();
    let dir = f._home.path().join("files-lists");
    let files = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    let db = rusqlite::Connection::open(f._home.path().join("files.db")).unwrap();
    let named = || -> String {
        db.query_row("SELECT snapshot FROM files_lists", [], |r| r.get(0))
            .unwrap()
    };
    let first = named();
    assert_eq!(files(&dir), std::slice::from_ref(&first));
    // An abbreviation the word index cannot match: answered by the scan.
    let scanned = ["src/components/Button.tsx"];
    assert_eq!(f.suggest("btntsx"), scanned);

    // The index's copy emptied: the snapshot still answers.
    db.execute("UPDATE files_lists SET paths = x'', entry_index = x''", [])
        .unwrap();
    assert_eq!(f.suggest("btntsx"), scanned);
    // The snapshot damaged (cut short, or not a snapshot), or gone: the index's (now
    // empty) copy is read instead.
    let snapshot = dir.join(&first);
    let whole = fs::read(&snapshot).unwrap();
    for damaged in [&whole[..whole.len() - 1], &[0x42; 64][..]] {
        fs::write(&snapshot, damaged).unwrap();
        assert!(f.suggest("btntsx").is_empty());
    }
    fs::remove_file(&snapshot).unwrap();
    assert!(f.suggest("btntsx").is_empty());
    fs::write(&snapshot, &whole).unwrap();
    assert_eq!(f.suggest("btntsx"), scanned);

    // A change writes a new list and a new snapshot, and the old file goes.
    touch(f.project.path(), "src/components/ButtonGroup.tsx");
    fs::write(dir.join("left-by-a-crash.list"), b"x").unwrap();
    f.refresh();
    let second = named();
    assert_ne!(second, first);
    assert_eq!(files(&dir), [second]);
    assert_eq!(
        f.suggest("btntsx"),
        [
            "src/components/Button.tsx",
            "src/components/ButtonGroup.tsx"
        ]
    );
}

/// An index from before the word index had prefix indexes (schema 7) is rebuilt with
/// them (one to eight characters, schemas 8 and 11) on its next open, and every file
/// stays findable by the prefix of a word.
#[test]
fn the_upgrade_to_prefix_indexes_keeps_every_file_findable() {
    let mut f = fixture(APP);
    f.refresh();
    let db = f._home.path().join("files.db");
    {
        // Back to schema 7: the word index as it was, with the same contents.
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "DROP TRIGGER files_meta_ai; DROP TRIGGER files_meta_ad; DROP TRIGGER files_meta_au;
             DROP TABLE files_fts;
             CREATE VIRTUAL TABLE files_fts USING fts5(path, filename, dir_components,
               content=files_meta, content_rowid=rowid,
               tokenize='unicode61 remove_diacritics 1 tokenchars ''_-''');
             INSERT INTO files_fts(files_fts) VALUES ('rebuild');
             PRAGMA user_version = 7;",
        )
        .unwrap();
        // Its triggers, which schema 8 did not change.
        conn.execute_batch(cc_search::files::FTS_TRIGGERS).unwrap();
    }
    f.reopen();
    assert_eq!(f.suggest("Mo")[0], "src/components/Modal.tsx");
    assert_eq!(f.suggest("api-cl")[0], "src/lib/api-client.ts");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let sql: String = conn
        .query_row(
            "SELECT sql FROM sqlite_schema WHERE name = 'files_fts'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(sql.contains("prefix='1 2 3 4 5 6 7 8'"), "{sql}");
    // A one-letter prefix: every file with a word in its name that begins with m.
    let one: Vec<String> = conn
        .prepare("SELECT filename FROM files_fts WHERE files_fts MATCH 'filename : m*' ORDER BY 1")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(one, ["Modal.tsx", "README.md", "guide.md", "my_utils.py"]);
    // Prefixes of five to eight characters, and longer ones, which no prefix index holds.
    use rusqlite::OptionalExtension;
    for (prefix, expected) in [
        ("butto", "src/components/Button.tsx"),
        ("compone", "src/components/Button.tsx"),
        ("componen", "src/components/Button.tsx"),
        ("component", "src/components/Button.tsx"),
        ("componentsx", ""),
    ] {
        let got: Option<String> = conn
            .query_row::<String, _, _>(
                "SELECT m.relative_path FROM files_fts f JOIN files_meta m ON m.rowid = f.rowid
                 WHERE files_fts MATCH ?1 ORDER BY m.path LIMIT 1",
                [format!("{{filename dir_components}} : {prefix}*")],
                |r| r.get(0),
            )
            .optional()
            .unwrap();
        assert_eq!(got.unwrap_or_default(), expected, "{prefix}*");
    }
    fts_integrity(f._home.path());
}

/// Files created since the refresh are found by the picker before the next refresh:
/// the directories whose mtime moved are listed again.
#[test]
fn files_created_since_the_refresh_are_suggested_before_the_next() {
    let f = fixture(APP);
    f.refresh();
    // In a directory the index knows, and in one it does not (below one it knows).
    touch(f.project.path(), "src/components/Tooltip.tsx");
    touch(f.project.path(), "src/widgets/Tooltip.rs");
    let mut got = f.suggest("tooltip");
    got.sort();
    assert_eq!(
        got,
        ["src/components/Tooltip.tsx", "src/widgets/Tooltip.rs"]
    );
    // An empty query lists them too (most recently modified first among the files
    // without activity).
    let top = f.suggest("");
    assert!(
        top.contains(&"src/components/Tooltip.tsx".to_string()),
        "{top:?}"
    );
}

/// An index of schema 9 (20 bytes an entry) has its entry index and snapshot dropped on
/// its next open, answers all the same, and the next refresh writes both anew.
#[test]
fn an_entry_index_of_the_version_before_is_dropped_and_written_again() {
    let mut f = fixture(APP);
    f.refresh();
    let db = f._home.path().join("files.db");
    let state = |conn: &rusqlite::Connection| -> (i64, i64, bool) {
        conn.query_row(
            "SELECT count, length(entry_index), snapshot IS NULL FROM files_lists",
            [],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get::<_, Option<i64>>(1)?.unwrap_or(0),
                    r.get(2)?,
                ))
            },
        )
        .unwrap()
    };
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (count, index_len, no_snapshot) = state(&conn);
    assert!(count > 0 && index_len > 0 && !no_snapshot);
    // Back to schema 9: an index of 20 bytes an entry, named beside its snapshot.
    conn.execute_batch(&format!(
        "UPDATE files_lists SET entry_index = zeroblob({}); PRAGMA user_version = 9;",
        count * 20
    ))
    .unwrap();
    f.reopen();
    assert_eq!(f.suggest("btntsx"), ["src/components/Button.tsx"]);
    assert_eq!(state(&conn), (count, 0, true), "the old index is dropped");
    f.refresh();
    assert_eq!(state(&conn), (count, index_len, false), "and written again");
    assert_eq!(f.suggest("btntsx"), ["src/components/Button.tsx"]);
}

/// An index whose path lists have their small columns after their blobs (schema 8, where
/// reading a list's count walked every overflow page of its blobs) has them moved first
/// on its next open, keeping every list; its entry index and snapshot, of the format
/// before boundary masks, are dropped, and the next refresh writes both anew.
#[test]
fn the_upgrade_puts_each_lists_count_and_snapshot_before_its_blobs() {
    let mut f = fixture(APP);
    f.refresh();
    let db = f._home.path().join("files.db");
    let lists = |conn: &rusqlite::Connection| -> Vec<String> {
        conn.prepare(
            "SELECT root || ' ' || count || ' ' || hex(paths) || ' '
               || (entry_index IS NULL) || (snapshot IS NULL)
             FROM files_lists ORDER BY root",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
    };
    let columns = |conn: &rusqlite::Connection| -> Vec<String> {
        conn.prepare("SELECT name FROM pragma_table_info('files_lists') ORDER BY cid")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let dir = f._home.path().join("files-lists");
    let snapshots = || -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    let old_snapshots = snapshots();
    assert_eq!(old_snapshots.len(), 1);
    let before = {
        // Back to schema 8: the columns in the order migrations 2, 6 and 7 added them.
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE old (root TEXT PRIMARY KEY, paths BLOB NOT NULL,
               count INTEGER NOT NULL, entry_index BLOB, snapshot TEXT) STRICT;
             INSERT INTO old SELECT root, paths, count, entry_index, snapshot FROM files_lists;
             DROP TABLE files_lists;
             ALTER TABLE old RENAME TO files_lists;
             PRAGMA user_version = 8;",
        )
        .unwrap();
        assert_eq!(
            columns(&conn),
            ["root", "paths", "count", "entry_index", "snapshot"]
        );
        lists(&conn)
    };
    assert_eq!(before.len(), 1);
    assert!(before[0].ends_with(" 00"), "{before:?}");
    // Opened and answered by the scan (an abbreviation the word index cannot match),
    // which rebuilds the dropped entry index in memory.
    f.reopen();
    assert_eq!(f.suggest("btntsx"), ["src/components/Button.tsx"]);
    let conn = rusqlite::Connection::open(&db).unwrap();
    assert_eq!(
        columns(&conn),
        ["root", "count", "snapshot", "entry_index", "paths"]
    );
    let dropped: Vec<String> = before.iter().map(|l| l.replace(" 00", " 11")).collect();
    assert_eq!(lists(&conn), dropped);
    // The next refresh writes the index and a snapshot again, and removes the old one.
    f.refresh();
    assert_eq!(lists(&conn), before);
    let new_snapshots = snapshots();
    assert_eq!(new_snapshots.len(), 1);
    assert_ne!(new_snapshots, old_snapshots);
    assert_eq!(f.suggest("btntsx"), ["src/components/Button.tsx"]);
}
