//! Bad input, each kind with a test, through the operation table as every surface calls
//! it: corrupt and unusable databases, read-only, missing and misplaced data roots, a
//! full disk, huge files and lines, invalid UTF-8 in paths and contents, symbolic link
//! loops, directories without permission, oversized MCP messages.
//!
//! The bar for each: a clear error or a warning naming the path, nothing lost, no panic,
//! and a search that works afterwards. Permission tests run their body as `nobody` in a
//! child process when the tests run as root (as root, permissions do not bind).

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use cc_search::Engine;
use serde_json::{Value, json};

use crate::common;
use common::{keyword_only, write};

/// `engine.call(op, params)` as JSON, or the error's code and message.
fn call(engine: &Engine, op: &str, params: Value) -> Result<Value, (String, String)> {
    engine
        .call(op, &params.to_string())
        .map(|out| serde_json::from_str(&out).unwrap())
        .map_err(|e| (e.code().to_string(), e.to_string()))
}

/// `call` that must succeed.
fn ok(engine: &Engine, op: &str, params: Value) -> Value {
    call(engine, op, params.clone()).unwrap_or_else(|e| panic!("{op} {params}: {e:?}"))
}

fn warnings(response: &Value) -> Vec<String> {
    response["warnings"]
        .as_array()
        .map(|w| w.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// One Claude Code transcript line.
fn transcript_line(uuid: &str, role: &str, text: &str) -> String {
    json!({
        "type": role, "sessionId": "s1", "uuid": uuid, "timestamp": "2026-11-01T00:00:00Z",
        "cwd": "/work/app", "message": {"role": role, "content": text}
    })
    .to_string()
}

/// A project with something for every component: a git repository with Rust code and
/// markdown docs, and a Claude Code projects directory beside it.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        write(
            &root,
            "src/lib.rs",
            "/// Parses a widget.\npub fn parse_widget(s: &str) -> u32 { s.len() as u32 }\n",
        );
        write(
            &root,
            "docs/guide.md",
            "# Guide\n\n## Widgets\n\nA widget is parsed by parse_widget.\n",
        );
        common::git_at(&root, &["init", "-q"], 0);
        write(
            dir.path(),
            "projects/-work-app/s1.jsonl",
            format!(
                "{}\n{}\n",
                transcript_line("u1", "user", "how do widgets get parsed"),
                transcript_line("u2", "assistant", "parse_widget reads the widget length")
            ),
        );
        Project { dir }
    }

    fn root(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    fn projects(&self) -> PathBuf {
        self.dir.path().join("projects")
    }

    /// Index with every component.
    fn index_all(&self, engine: &Engine) -> Vec<Value> {
        let root = self.root();
        vec![
            ok(engine, "files.refresh", json!({"project_dir": root})),
            ok(engine, "code.index_repository", json!({"path": root})),
            ok(engine, "docs.index", json!({"project_dir": root})),
            ok(
                engine,
                "sessions.index",
                json!({"projects_dir": self.projects()}),
            ),
        ]
    }

    /// What each component's search answers, without timings and ages.
    fn searches(&self, engine: &Engine) -> Value {
        let root = self.root();
        let suggest = ok(
            engine,
            "files.suggest",
            json!({"project_dir": root, "query": "lib"}),
        );
        let code = ok(
            engine,
            "code.search_symbols",
            json!({"path": root, "query": "widget"}),
        );
        let docs = ok(
            engine,
            "docs.query",
            json!({"project_dir": root, "query": "widget parsed", "mode": "keyword"}),
        );
        let sessions = ok(
            engine,
            "sessions.search",
            json!({"query": "widget", "mode": "keyword"}),
        );
        let pick = |results: &Value, keys: &[&str]| -> Value {
            results
                .as_array()
                .unwrap()
                .iter()
                .map(|r| keys.iter().map(|k| r[*k].clone()).collect::<Vec<_>>())
                .collect()
        };
        json!({
            "files": suggest["paths"],
            "code": code["hits"],
            "docs": pick(&docs["results"], &["file", "section", "content"]),
            "sessions": pick(&sessions["results"], &["id", "kind", "content"]),
        })
    }
}

/// Every database file below `home` (the file index, code indexes, docs, sessions,
/// embeddings).
fn database_files(home: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in [home.to_path_buf(), home.join("code")] {
        for entry in fs::read_dir(&dir).into_iter().flatten() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "db") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn integrity_ok(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let verdict: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(verdict, "ok", "{}", db.display());
}

// ---------------------------------------------------------------------------------------
// Databases

#[test]
fn every_corrupt_database_is_moved_aside_and_rebuilt() {
    let project = Project::new();
    let home = tempfile::tempdir().unwrap();
    let model = common::model_dir();
    match &model {
        Some(dir) => write(
            home.path(),
            "config.toml",
            format!("[embed]\nmodel_dir = {:?}\n", dir.display().to_string()),
        ),
        None => keyword_only(home.path()),
    }
    let before = {
        let engine = Engine::open_at(home.path()).unwrap();
        project.index_all(&engine);
        project.searches(&engine)
    };
    assert_eq!(before["code"][0]["name"], "parse_widget", "{before}");
    assert!(!before["docs"].as_array().unwrap().is_empty(), "{before}");
    assert!(
        !before["sessions"].as_array().unwrap().is_empty(),
        "{before}"
    );

    let databases = database_files(home.path());
    let names: Vec<String> = databases
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for expected in ["files.db", "docs.db", "sessions.db"] {
        assert!(names.iter().any(|n| n == expected), "{names:?}");
    }
    assert!(
        databases
            .iter()
            .any(|p| p.parent().unwrap().ends_with("code")),
        "{names:?}"
    );
    if model.is_some() {
        assert!(names.iter().any(|n| n == "embeddings.db"), "{names:?}");
    }
    // Each file overwritten with something that is not a database, its WAL gone.
    for db in &databases {
        for suffix in ["-wal", "-shm"] {
            let _ = fs::remove_file(format!("{}{suffix}", db.display()));
        }
        fs::write(db, b"this is not a database\n".repeat(512)).unwrap();
    }

    let engine = Engine::open_at(home.path()).unwrap();
    let runs = project.index_all(&engine);
    let said: Vec<String> = runs.iter().flat_map(warnings).collect();
    for db in &databases {
        if db.ends_with("embeddings.db") {
            continue; // checked below: the cache says so where it is opened
        }
        assert!(
            said.iter()
                .any(|w| w.contains("corrupt") && w.contains(&*db.to_string_lossy())),
            "no warning for {}: {said:?}",
            db.display()
        );
    }
    assert_eq!(project.searches(&engine), before);
    for db in &databases {
        let parent = db.parent().unwrap();
        let stem = db.file_name().unwrap().to_string_lossy().into_owned();
        let aside: Vec<_> = fs::read_dir(parent)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(&format!("{stem}.corrupt-")))
            .collect();
        assert_eq!(
            aside.len(),
            1,
            "{} kept aside once: {aside:?}",
            db.display()
        );
        let kept = fs::read(parent.join(&aside[0])).unwrap();
        assert!(
            kept.starts_with(b"this is not a database"),
            "the bad file is kept"
        );
        integrity_ok(db);
    }
}

#[test]
fn a_database_another_program_keeps_locked_is_a_clear_error_and_reads_go_on() {
    let project = Project::new();
    let home = tempfile::tempdir().unwrap();
    keyword_only(home.path());
    let engine = Engine::open_at(home.path()).unwrap();
    project.index_all(&engine);
    let before = project.searches(&engine);
    // Another program holds the write lock of every database.
    let holders: Vec<rusqlite::Connection> = database_files(home.path())
        .iter()
        .map(|db| {
            let conn = rusqlite::Connection::open(db).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE").unwrap();
            conn
        })
        .collect();
    write(&project.root(), "src/more.rs", "pub fn more_widgets() {}\n");
    write(&project.root(), "docs/more.md", "## More\n\nmore widgets\n");
    let root = project.root();
    for (op, params) in [
        ("code.index_repository", json!({"path": root})),
        ("docs.index", json!({"project_dir": root})),
    ] {
        let started = std::time::Instant::now();
        let (code, message) = call(&engine, op, params).unwrap_err();
        assert_eq!(code, "database", "{op}: {message}");
        assert!(message.contains("locked"), "{op}: {message}");
        assert!(
            started.elapsed().as_secs() < 30,
            "{op}: {:?}",
            started.elapsed()
        );
    }
    // Readers do not wait for writers (WAL).
    assert_eq!(project.searches(&engine), before);
    drop(holders);
    ok(&engine, "code.index_repository", json!({"path": root}));
    let hits = ok(
        &engine,
        "code.search_symbols",
        json!({"path": root, "query": "more_widgets"}),
    );
    assert_eq!(hits["hits"][0]["name"], "more_widgets", "{hits}");
}

#[test]
fn a_data_root_that_cannot_be_a_directory_is_a_clear_error() {
    let project = Project::new();
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("a-file");
    fs::write(&file, "keep me").unwrap();
    let root = project.root();
    for home in [file.clone(), file.join("below")] {
        let engine = Engine::open_at(&home).unwrap();
        for (op, params) in [
            ("files.refresh", json!({"project_dir": root})),
            (
                "files.suggest",
                json!({"project_dir": root, "query": "lib"}),
            ),
            ("code.index_repository", json!({"path": root})),
            ("docs.index", json!({"project_dir": root})),
            (
                "sessions.index",
                json!({"projects_dir": project.projects()}),
            ),
            ("sessions.search", json!({"query": "widget"})),
        ] {
            let (code, message) = call(&engine, op, params).unwrap_err();
            assert_eq!(code, "io", "{op}: {message}");
            assert!(
                message.contains(&*file.to_string_lossy()) && message.contains("directory"),
                "{op}: {message}"
            );
        }
    }
    assert_eq!(fs::read_to_string(&file).unwrap(), "keep me");
}

#[test]
fn a_missing_data_root_is_created_with_its_parents() {
    let project = Project::new();
    let scratch = tempfile::tempdir().unwrap();
    let home = scratch.path().join("not/yet/there");
    keyword_only(&scratch.path().join("config"));
    let engine = Engine::open(cc_search::EngineOptions {
        home: Some(home.clone()),
        config_path: Some(scratch.path().join("config/config.toml")),
    })
    .unwrap();
    project.index_all(&engine);
    assert_eq!(
        project.searches(&engine)["code"][0]["name"],
        "parse_widget",
        "searches work"
    );
    assert!(home.join("files.db").is_file() && home.join("code").is_dir());
}

// ---------------------------------------------------------------------------------------
// Permissions (as `nobody` when the tests run as root)

fn unprivileged() -> Option<u32> {
    common::is_root().then_some(common::UNPRIVILEGED_UID)
}

fn in_unprivileged_child(name: &str) -> bool {
    let model = std::env::var_os("CC_SEARCH_MODEL_DIR").unwrap_or_default();
    common::in_child(
        module_path!(),
        name,
        &[("CC_SEARCH_MODEL_DIR", model.as_os_str())],
        unprivileged(),
    )
}

fn chmod(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// `chmod -R` to `dirs` for directories and `files` for the rest.
fn chmod_tree(path: &Path, dirs: u32, files: u32) {
    if path.is_dir() {
        for entry in fs::read_dir(path).unwrap() {
            chmod_tree(&entry.unwrap().path(), dirs, files);
        }
        chmod(path, dirs);
    } else {
        chmod(path, files);
    }
}

#[test]
fn unreadable_directories_and_files_are_skipped_with_a_warning() {
    if !in_unprivileged_child("unreadable_directories_and_files_are_skipped_with_a_warning") {
        return;
    }
    let project = Project::new();
    let root = project.root();
    write(&root, "secret/hidden.rs", "pub fn hidden_widget() {}\n");
    write(
        &root,
        "docs/secret/notes.md",
        "## Hidden\n\nwidget secrets\n",
    );
    write(&root, "src/locked.rs", "pub fn locked_widget() {}\n");
    write(&root, "docs/locked.md", "## Locked\n\nwidget locked\n");
    chmod(&root.join("secret"), 0o000);
    chmod(&root.join("docs/secret"), 0o000);
    chmod(&root.join("src/locked.rs"), 0o000);
    chmod(&root.join("docs/locked.md"), 0o000);
    let home = tempfile::tempdir().unwrap();
    keyword_only(home.path());
    let engine = Engine::open_at(home.path()).unwrap();

    let refresh = ok(&engine, "files.refresh", json!({"project_dir": root}));
    let said = warnings(&refresh);
    assert!(said.iter().any(|w| w.contains("secret")), "{said:?}");
    let code = ok(&engine, "code.index_repository", json!({"path": root}));
    let said = warnings(&code);
    for name in ["secret", "locked.rs"] {
        assert!(said.iter().any(|w| w.contains(name)), "{name}: {said:?}");
    }
    let docs = ok(&engine, "docs.index", json!({"project_dir": root}));
    let said = warnings(&docs);
    for name in ["docs/secret", "locked.md"] {
        assert!(said.iter().any(|w| w.contains(name)), "{name}: {said:?}");
    }
    let grep = ok(
        &engine,
        "grep.search",
        json!({"search": "widget", "dir": root, "recursive": true}),
    );
    let said = warnings(&grep);
    assert!(said.iter().any(|w| w.contains("locked.rs")), "{said:?}");
    // What could be read is indexed and found.
    let found = project.searches(&engine);
    assert_eq!(found["code"][0]["name"], "parse_widget", "{found}");
    assert_eq!(found["docs"][0][1], "Widgets", "{found}");
    let grepped = grep.to_string();
    assert!(grepped.contains("src/lib.rs") && !grepped.contains("hidden_widget"));

    // An unreadable transcript is skipped the same way; the other is indexed.
    write(
        &project.projects(),
        "-work-app/s2.jsonl",
        transcript_line("u9", "user", "widget in a locked transcript") + "\n",
    );
    chmod(&project.projects().join("-work-app/s2.jsonl"), 0o000);
    let sessions = ok(
        &engine,
        "sessions.index",
        json!({"projects_dir": project.projects()}),
    );
    let said = warnings(&sessions);
    assert!(said.iter().any(|w| w.contains("s2.jsonl")), "{said:?}");
    assert!(
        !project.searches(&engine)["sessions"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_read_only_data_root_answers_searches_and_refuses_writes_clearly() {
    if !in_unprivileged_child("a_read_only_data_root_answers_searches_and_refuses_writes_clearly") {
        return;
    }
    let project = Project::new();
    let home = tempfile::tempdir().unwrap();
    keyword_only(home.path());
    let before = {
        let engine = Engine::open_at(home.path()).unwrap();
        project.index_all(&engine);
        project.searches(&engine)
    };
    let snapshot = |home: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        database_files(home)
            .into_iter()
            .map(|p| (p.clone(), fs::read(&p).unwrap()))
            .collect()
    };
    let kept = snapshot(home.path());
    chmod_tree(home.path(), 0o555, 0o444);
    let engine = Engine::open_at(home.path()).unwrap();
    // A change to index, so each run has something to write.
    write(&project.root(), "src/more.rs", "pub fn more_widgets() {}\n");
    let root = project.root();
    for (op, params) in [
        ("files.refresh", json!({"project_dir": root})),
        ("code.index_repository", json!({"path": root})),
        ("docs.index", json!({"project_dir": root})),
        (
            "sessions.index",
            json!({"projects_dir": project.projects()}),
        ),
    ] {
        match call(&engine, op, params) {
            Err((code, message)) => {
                assert!(code == "database" || code == "io", "{op}: {code} {message}");
                assert!(
                    message.contains(&*home.path().to_string_lossy())
                        && (message.contains("read")
                            || message.contains("ermission")
                            || message.contains("denied")),
                    "{op}: {message}"
                );
            }
            Ok(response) => panic!("{op} wrote into a read-only data root: {response}"),
        }
    }
    // Searches read the index as it was last written.
    assert_eq!(project.searches(&engine), before);
    drop(engine);
    chmod_tree(home.path(), 0o755, 0o644);
    assert_eq!(
        snapshot(home.path()),
        kept,
        "nothing was moved aside or rewritten"
    );
    let engine = Engine::open_at(home.path()).unwrap();
    assert_eq!(project.searches(&engine), before);
}

// ---------------------------------------------------------------------------------------
// A full disk

/// A tmpfs of `kib` KiB mounted on a new directory, unmounted on drop; `None` where
/// mounting is not permitted (not root).
struct SmallDisk {
    mount: tempfile::TempDir,
}

impl SmallDisk {
    fn new(kib: u32) -> Option<SmallDisk> {
        let mount = tempfile::tempdir().unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k,mode=0755")])
            .arg("tmpfs")
            .arg(mount.path())
            .stderr(std::process::Stdio::null())
            .status();
        status
            .is_ok_and(|s| s.success())
            .then_some(SmallDisk { mount })
    }

    fn path(&self) -> &Path {
        self.mount.path()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.mount.path())
            .status();
    }
}

#[test]
fn a_full_disk_fails_cleanly_and_keeps_the_index() {
    let Some(disk) = SmallDisk::new(2048) else {
        assert!(
            !common::is_root(),
            "root could not mount a tmpfs for the full-disk test"
        );
        eprintln!("not root: cannot mount a small tmpfs; the full-disk test is skipped");
        return;
    };
    let project = Project::new();
    let home = disk.path().join("home");
    // A Claude Code settings file on the same disk, for the end of the test.
    let settings = disk.path().join("project/.claude/settings.json");
    let original = "{\n  \"model\": \"opus\",\n  \"env\": {\"A\": \"1\"}\n}\n";
    write(settings.parent().unwrap(), "settings.json", original);
    keyword_only(&home);
    let engine = Engine::open_at(&home).unwrap();
    project.index_all(&engine);
    let before = project.searches(&engine);

    // Far more code and docs than fit: every index run fails with a clear error.
    let root = project.root();
    for i in 0..400 {
        let body: String = (0..40)
            .map(|j| {
                format!("/// Widget helper {i} {j}.\npub fn widget_{i}_{j}() -> u32 {{ {j} }}\n")
            })
            .collect();
        write(&root, &format!("src/gen/m{i}.rs"), body);
        let doc: String = (0..20)
            .map(|j| {
                format!(
                    "## Section {i} {j}\n\nwidget text {i} {j} {}\n\n",
                    "word ".repeat(30)
                )
            })
            .collect();
        write(&root, &format!("docs/gen/d{i}.md"), doc);
    }
    for (op, params) in [
        ("code.index_repository", json!({"path": root})),
        ("docs.index", json!({"project_dir": root})),
    ] {
        let (code, message) = call(&engine, op, params).unwrap_err();
        assert!(code == "database" || code == "io", "{op}: {code} {message}");
        assert!(
            message.contains("full") || message.contains("space"),
            "{op}: {message}"
        );
    }
    // The databases are whole and answer as before the failed runs.
    drop(engine);
    for db in database_files(&home) {
        integrity_ok(&db);
    }
    let engine = Engine::open_at(&home).unwrap();
    assert_eq!(project.searches(&engine), before);

    // A settings file on the full disk: the failed write leaves it as it was.
    let disk_is_full = disk.path().join("filler");
    let _ = fs::write(&disk_is_full, vec![b'x'; 4 << 20]);
    let install = call(
        &engine,
        "claude.install",
        json!({"scope": "project", "project_dir": disk.path().join("project"),
               "file_suggestion_command": "cc-search-files", "session_start_command": "cc-search-start"}),
    );
    assert!(install.is_err(), "{install:?}");
    assert_eq!(fs::read_to_string(&settings).unwrap(), original);

    // Space again: the runs finish and find the new symbols.
    fs::remove_file(&disk_is_full).unwrap();
    fs::remove_dir_all(root.join("docs/gen")).unwrap();
    for i in 40..400 {
        fs::remove_file(root.join(format!("src/gen/m{i}.rs"))).unwrap();
    }
    ok(&engine, "code.index_repository", json!({"path": root}));
    let hits = ok(
        &engine,
        "code.search_symbols",
        json!({"path": root, "query": "widget_39_39"}),
    );
    assert_eq!(hits["hits"][0]["name"], "widget_39_39", "{hits}");
}

// ---------------------------------------------------------------------------------------
// Huge, binary and non-UTF-8 input

#[test]
fn huge_files_and_lines_are_bounded() {
    let project = Project::new();
    let root = project.root();
    let home = tempfile::tempdir().unwrap();
    keyword_only(home.path());
    let engine = Engine::open_at(home.path()).unwrap();
    // A 24 MiB source file with no newline, ending in a match; a 12 MiB markdown file.
    let mut huge = vec![b'a'; 24 << 20];
    huge.extend_from_slice(b" needle_at_the_end");
    write(&root, "src/huge.rs", &huge);
    write(
        &root,
        "docs/huge.md",
        "## Huge\n\n".to_string() + &"widget ".repeat(12 << 17),
    );
    // A transcript with a 40 MiB line between two ordinary ones.
    let long = transcript_line("u3", "assistant", &"widget ".repeat(40 << 17));
    write(
        &project.projects(),
        "-work-app/s1.jsonl",
        format!(
            "{}\n{long}\n{}\n",
            transcript_line("u1", "user", "how do widgets get parsed"),
            transcript_line("u2", "assistant", "parse_widget reads the widget length")
        ),
    );
    let runs = project.index_all(&engine);
    let said: Vec<String> = runs.iter().flat_map(warnings).collect();
    assert!(said.iter().any(|w| w.contains("huge.md")), "{said:?}");
    let found = project.searches(&engine);
    assert_eq!(found["code"][0]["name"], "parse_widget", "{found}");
    let files = ok(&engine, "code.get_overview", json!({"path": root})).to_string();
    assert!(!files.contains("huge.rs"), "over the size limit: {files}");
    let sessions = found["sessions"].as_array().unwrap();
    assert!(
        sessions.len() >= 2,
        "the lines around the long one: {found}"
    );

    let grep = ok(
        &engine,
        "grep.search",
        json!({"search": "needle_at_the_end", "dir": root, "recursive": true, "max_tokens": 2000}),
    );
    let text = grep.to_string();
    assert!(
        text.contains("src/huge.rs"),
        "a match on a huge line is found"
    );
    assert!(
        text.len() < 4 * 2000,
        "and, with a token budget, shortened to it: {} bytes",
        text.len()
    );
}

#[test]
fn invalid_utf8_names_are_skipped_and_contents_read_lossily() {
    let project = Project::new();
    let root = project.root();
    let bad = |dir: &str, stem: &[u8], ext: &str| -> PathBuf {
        let mut name = stem.to_vec();
        name.extend_from_slice(ext.as_bytes());
        root.join(dir).join(OsStr::from_bytes(&name))
    };
    fs::write(bad("src", b"bad\xff", ".rs"), "pub fn badly_named() {}\n").unwrap();
    fs::write(
        bad("docs", b"bad\xfe", ".md"),
        "## Badly\n\nbadly named doc\n",
    )
    .unwrap();
    fs::create_dir_all(bad("src", b"dir\xff", "")).unwrap();
    fs::write(
        bad("src", b"dir\xff", "").join("inner.rs"),
        "pub fn inner_widget() {}\n",
    )
    .unwrap();
    write(
        &root,
        "src/latin1.rs",
        b"/// Caf\xe9 widget.\npub fn latin1_widget() -> u8 { b'\xe9' }\n".as_slice(),
    );
    write(
        &root,
        "docs/latin1.md",
        b"## Caf\xe9\n\nlatin1 widget notes\n".as_slice(),
    );
    write(
        &project.projects(),
        "-work-app/s1.jsonl",
        [
            transcript_line("u1", "user", "how do widgets get parsed").as_bytes(),
            b"\n{\"type\":\"user\",\"message\":\"\xff\xfe\"}\n",
            transcript_line("u2", "assistant", "parse_widget reads the widget length").as_bytes(),
            b"\n",
        ]
        .concat(),
    );
    let home = tempfile::tempdir().unwrap();
    keyword_only(home.path());
    let engine = Engine::open_at(home.path()).unwrap();
    let runs = project.index_all(&engine);
    for (run, component) in runs.iter().zip(["files", "code", "docs"]) {
        let said = warnings(run);
        assert!(
            said.iter().any(|w| w.contains("UTF-8")),
            "{component}: {said:?}"
        );
    }
    let sessions = &runs[3];
    assert_eq!(sessions["corrupt_lines"], 1, "{sessions}");

    // Nothing is reported under a name that does not exist on disk.
    for (op, params, list) in [
        (
            "files.suggest",
            json!({"project_dir": root, "query": "bad"}),
            "paths",
        ),
        (
            "code.search_symbols",
            json!({"path": root, "query": "badly_named"}),
            "hits",
        ),
        (
            "code.search_symbols",
            json!({"path": root, "query": "inner_widget"}),
            "hits",
        ),
        (
            "docs.query",
            json!({"project_dir": root, "query": "badly", "mode": "keyword"}),
            "results",
        ),
    ] {
        let out = ok(&engine, op, params.clone());
        assert!(
            !out.to_string().contains('\u{fffd}'),
            "{op} {params}: {out}"
        );
        if list != "paths" {
            assert_eq!(out[list], json!([]), "{op} {params}: {out}");
        }
    }
    // Contents that are not UTF-8 are read lossily.
    let latin = ok(
        &engine,
        "code.search_symbols",
        json!({"path": root, "query": "latin1_widget"}),
    );
    assert_eq!(latin["hits"][0]["name"], "latin1_widget", "{latin}");
    let docs = ok(
        &engine,
        "docs.query",
        json!({"project_dir": root, "query": "latin1", "mode": "keyword"}),
    );
    assert_eq!(docs["results"][0]["file"], "docs/latin1.md", "{docs}");
    // grep reads every file, and shows a name that is not UTF-8 lossily, as ripgrep does.
    let grep = ok(
        &engine,
        "grep.search",
        json!({"search": "widget", "dir": root, "recursive": true}),
    );
    let text = grep.to_string();
    assert!(
        text.contains("inner_widget") && text.contains("latin1_widget"),
        "{text}"
    );
}

#[test]
fn symbolic_link_loops_end_with_warnings() {
    let project = Project::new();
    let root = project.root();
    let link = |target: &str, at: &str| std::os::unix::fs::symlink(target, root.join(at)).unwrap();
    link(".", "src/self-dir");
    link("..", "docs/parent");
    link("loop-b", "loop-a");
    link("loop-a", "loop-b");
    link("me", "me");
    std::os::unix::fs::symlink(&root, root.join("docs/root")).unwrap();
    let home = tempfile::tempdir().unwrap();
    keyword_only(home.path());
    let engine = Engine::open_at(home.path()).unwrap();
    let started = std::time::Instant::now();
    let runs = project.index_all(&engine);
    let grep = ok(
        &engine,
        "grep.search",
        json!({"search": "parse_widget", "dir": root, "recursive": true}),
    );
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    for (run, component) in runs
        .iter()
        .take(3)
        .zip(["files", "code", "docs"])
        .chain([(&grep, "grep")])
    {
        let said = warnings(run);
        for name in ["loop-a", "loop-b", "me"] {
            assert!(
                said.iter().any(|w| w.contains(&format!("/{name} "))
                    || w.ends_with(&format!("/{name}"))
                    || w.contains(&format!("/{name}:"))),
                "{component} {name}: {said:?}"
            );
        }
    }
    // Each file is found once, under its own path: as without the links.
    let plain = Project::new();
    let plain_home = tempfile::tempdir().unwrap();
    keyword_only(plain_home.path());
    let plain_engine = Engine::open_at(plain_home.path()).unwrap();
    plain.index_all(&plain_engine);
    assert_eq!(project.searches(&engine), plain.searches(&plain_engine));
    let matched = grep["directories"][0]["files"].as_array().unwrap().len();
    assert_eq!(matched, 2, "lib.rs and guide.md, once each: {grep}");
}

// ---------------------------------------------------------------------------------------
// MCP

#[test]
fn an_oversized_mcp_message_is_refused_and_the_session_goes_on() {
    use cc_search::mcp::{INVALID_REQUEST, MAX_MESSAGE_BYTES, Server, ServerOptions};
    let project = Project::new();
    let home = tempfile::tempdir().unwrap();
    keyword_only(home.path());
    let engine = std::sync::Arc::new(Engine::open_at(home.path()).unwrap());
    let server = Server::new(
        engine,
        ServerOptions {
            roots: vec![project.root()],
            tools: vec!["all".into()],
            ..Default::default()
        },
    )
    .unwrap();
    let huge = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "grep_search", "arguments": {"search": "x".repeat(MAX_MESSAGE_BYTES)}}});
    let mut input = huge.to_string().into_bytes();
    input.push(b'\n');
    input.extend_from_slice(b"{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"}\n");
    let mut output = Vec::new();
    server.serve(&input[..], &mut output).unwrap();
    let replies: Vec<Value> = String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(
        replies[0]["error"]["code"], INVALID_REQUEST,
        "{}",
        replies[0]
    );
    assert!(replies[1]["result"]["tools"].as_array().unwrap().len() > 10);
}

// ---------------------------------------------------------------------------------------
// Malformed configuration (Claude Code's settings.json: core/tests/claude.rs,
// `malformed_settings_are_refused_and_left_untouched`)

#[test]
fn malformed_configuration_means_defaults_and_a_warning_naming_the_file() {
    let project = Project::new();
    let root = project.root();
    for (config, needle) in [
        (b"[index\nroots = 3".as_slice(), "config.toml"),
        (b"[embed]\nmodel_dir = 42\n".as_slice(), "config.toml"),
        (
            b"[weights]\ngit_recency = \"\xff\xfe\"\n".as_slice(),
            "config.toml",
        ),
        (b"[nonsense]\nkey = 1\n".as_slice(), "config.toml"),
    ] {
        let home = tempfile::tempdir().unwrap();
        write(home.path(), "config.toml", config);
        let engine = Engine::open_at(home.path()).unwrap();
        assert_eq!(engine.warnings().len(), 1, "{:?}", engine.warnings());
        assert!(
            engine.warnings()[0].contains(needle),
            "{:?}",
            engine.warnings()
        );
        assert_eq!(engine.config(), &cc_search::Config::default());
        // And everything works on the defaults.
        ok(&engine, "files.refresh", json!({"project_dir": root}));
        ok(
            &engine,
            "files.suggest",
            json!({"project_dir": root, "query": "lib"}),
        );
    }

    let home = tempfile::tempdir().unwrap();
    keyword_only(home.path());
    let engine = Engine::open_at(home.path()).unwrap();
    for (name, text) in [
        (
            ".cc-search.json",
            b"{\"indexer\": {\"max_file_size\": ".as_slice(),
        ),
        (".cc-search.json", b"[1, 2]".as_slice()),
        (
            ".cc-search.json",
            b"{\"output\": {\"max_tokens\": -3}}".as_slice(),
        ),
        (".cc-search.json", b"\xff\xfe{}".as_slice()),
        (
            ".ctxhelpr.json",
            b"{\"indexer\": {\"ignore\": 7}}".as_slice(),
        ),
    ] {
        let _ = fs::remove_file(root.join(".cc-search.json"));
        write(&root, name, text);
        let indexed = ok(&engine, "code.index_repository", json!({"path": root}));
        let said = warnings(&indexed);
        assert!(
            said.iter().any(|w| w.contains(name)),
            "{name} {:?}: {said:?}",
            String::from_utf8_lossy(text)
        );
        let hits = ok(
            &engine,
            "code.search_symbols",
            json!({"path": root, "query": "parse_widget"}),
        );
        assert_eq!(hits["hits"][0]["name"], "parse_widget", "{hits}");
        let _ = fs::remove_file(root.join(name));
    }
}
