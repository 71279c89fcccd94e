//! Unit tests of index runs on real repositories and databases.

use rusqlite::Connection;

use super::cold::{LINK_CHUNK, RefInserter};
use super::index_repository;
use super::write::BULK_FTS_FILES;
use crate::code::config::ProjectConfig;
use crate::code::db;
use crate::store::Database;

fn names(conn: &Connection, sql: &str) -> Vec<String> {
    conn.prepare(sql)
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

/// A cold run with more references than several resolution chunks (and not a whole
/// number of insert statements) stores every one, each with its own target.
#[test]
fn a_cold_run_links_every_reference_across_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    let (files, calls) = (BULK_FTS_FILES, 2 * LINK_CHUNK / BULK_FTS_FILES + 2);
    let total = files * calls;
    assert!(total > 2 * LINK_CHUNK && total % RefInserter::ROWS != 0);
    for i in 0..files {
        let body: String = (0..calls).map(|c| format!("c{c}(); ")).collect();
        std::fs::write(
            root.join(format!("f{i:03}.rs")),
            format!("fn c0() {{}}\nfn g{i}() {{ {body}}}\n"),
        )
        .unwrap();
    }
    let root = std::fs::canonicalize(&root).unwrap();
    let database = Database::new(dir.path().join("index.db"), db::SCHEMA);
    let mut warnings = Vec::new();
    let stats = index_repository(
        &database,
        &root,
        &ProjectConfig::default(),
        false,
        &mut warnings,
    )
    .unwrap();
    assert_eq!(stats.refs, total as u64, "{warnings:?}");
    let conn = database.read(&mut warnings).unwrap();
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT count(*) FROM refs"), total as i64);
    // Each `c0()` goes to its own file's `c0`; nothing else resolves.
    assert_eq!(
        count(
            "SELECT count(*) FROM refs r JOIN symbols s ON s.id = r.to_symbol_id
             WHERE r.to_name = 'c0' AND s.name = 'c0' AND s.file_id = r.file_id"
        ),
        files as i64
    );
    assert_eq!(
        count("SELECT count(*) FROM refs WHERE to_symbol_id IS NOT NULL"),
        files as i64
    );
    // In order: the last row is the last call of the last file.
    let last: String = conn
        .query_row(
            "SELECT f.rel_path || ' ' || r.to_name FROM refs r JOIN files f ON f.id = r.file_id
             ORDER BY r.id DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(last, format!("f{:03}.rs c{}", files - 1, calls - 1));
}

/// A cold run large enough to defer its indexes (and to skip foreign-key checks)
/// leaves the schema's indexes, valid keys and linked references; the next run
/// checks keys again.
#[test]
fn a_large_cold_run_leaves_every_index_and_valid_keys() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join("src")).unwrap();
    let files = BULK_FTS_FILES + 10;
    for i in 0..files {
        std::fs::write(
            root.join(format!("src/f{i}.rs")),
            format!(
                "use crate::shared::shared;\n/// Number {i}.\npub fn f{i}() {{ shared(); }}\npub struct S{i};\n"
            ),
        )
        .unwrap();
    }
    std::fs::write(root.join("src/shared.rs"), "pub fn shared() {}\n").unwrap();
    std::fs::write(root.join("src/lib.rs"), "mod shared;\n").unwrap();
    let root = std::fs::canonicalize(&root).unwrap();
    let database = Database::new(dir.path().join("index.db"), db::SCHEMA);
    let mut warnings = Vec::new();
    let config = ProjectConfig::default();
    let stats = index_repository(&database, &root, &config, false, &mut warnings).unwrap();
    assert_eq!(stats.new, files + 2, "{warnings:?}");

    let fresh = Connection::open_in_memory().unwrap();
    for migration in db::SCHEMA {
        fresh.execute_batch(migration).unwrap();
    }
    let schema = "SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name";
    let conn = database.read(&mut warnings).unwrap();
    assert_eq!(names(&conn, schema), names(&fresh, schema));
    assert!(names(&conn, "PRAGMA foreign_key_check").is_empty());
    assert_eq!(names(&conn, "PRAGMA integrity_check"), ["ok"]);
    let unlinked: i64 = conn
        .query_row(
            "SELECT count(*) FROM refs WHERE to_name = 'shared'
             AND to_symbol_id IS NOT (SELECT id FROM symbols WHERE name = 'shared')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(unlinked, 0);
    drop(conn);

    // An incremental run deletes with the checks (and their cascades) on.
    std::fs::remove_file(root.join("src/shared.rs")).unwrap();
    let stats = index_repository(&database, &root, &config, false, &mut warnings).unwrap();
    assert_eq!(stats.deleted, 1);
    let conn = database.read(&mut warnings).unwrap();
    let linked: i64 = conn
        .query_row(
            "SELECT count(*) FROM refs WHERE to_name = 'shared' AND to_symbol_id IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(linked, 0);
    let on: bool = database
        .write(&mut warnings)
        .unwrap()
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .unwrap();
    assert!(on);
}
