//! FTS5 escaping (`text::fts5_query`, `text::fts5_any_query`) against real FTS5 tables:
//! the three indexes' own schemas (the file picker's `files_fts`, the code index's
//! `symbols_fts`, the chunk engine's `chunks_fts`, each with its tokenizer), created
//! through `store::open` in a temporary directory, and the MATCH expressions exactly as
//! the components build them.
//!
//! - whatever the text, every escaped expression is accepted by SQLite (no syntax error,
//!   no error of any kind);
//! - an expression is `None` exactly when the text has no token;
//! - for ASCII text, a row holding the text itself is found by its expression (the
//!   quoting keeps every token the index has).
#![no_main]

use std::sync::{Mutex, OnceLock};

use cc_search::text::{MAX_QUERY_BYTES, fts5_any_query, fts5_query, path_tokens, truncate_utf8};
use libfuzzer_sys::fuzz_target;
use rusqlite::{Connection, params};

struct Tables {
    files: Connection,
    code: Connection,
    chunks: Connection,
}

fn tables() -> &'static Mutex<Tables> {
    static TABLES: OnceLock<Mutex<Tables>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir").keep();
        let open = |name: &str, schema| {
            cc_search::store::open(&dir.join(name), schema, &mut Vec::new()).expect(name)
        };
        let tables = Tables {
            files: open("files.db", cc_search::files::SCHEMA),
            code: open("code.db", cc_search::code::SCHEMA),
            chunks: open("chunks.db", cc_search::hybrid::SCHEMA),
        };
        // A few rows, so every query runs over a non-empty index.
        for (i, word) in ["readme", "src", "button-group", "parse_query"].iter().enumerate() {
            tables
                .files
                .execute(
                    "INSERT INTO files_meta (path, filename, dir_components, root, mtime) \
                     VALUES (?1, ?2, 'src components', '/r', 0)",
                    params![format!("/r/{i}/{word}"), word],
                )
                .unwrap();
            tables
                .code
                .execute(
                    "INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path, name_tokens) \
                     VALUES (?1, ?2, 'doc', 'fn', 'src/lib.rs', ?2)",
                    params![i as i64 + 1, word],
                )
                .unwrap();
            tables
                .chunks
                .execute(
                    "INSERT INTO chunks_fts (rowid, title, text) VALUES (?1, 'title', ?2)",
                    params![i as i64 + 1, word],
                )
                .unwrap();
        }
        Mutex::new(tables)
    })
}

/// The rowids `expression` matches; any SQLite error fails the run.
fn matches(conn: &Connection, sql: &str, expression: &str) -> Vec<i64> {
    let mut stmt = conn.prepare_cached(sql).unwrap();
    let rows = stmt.query_map([expression], |r| r.get::<_, i64>(0));
    match rows.and_then(|rows| rows.collect::<rusqlite::Result<Vec<i64>>>()) {
        Ok(ids) => ids,
        Err(e) => panic!("SQLite refused {expression:?}: {e}"),
    }
}

const FILES_SQL: &str = "SELECT rowid FROM files_fts WHERE files_fts MATCH ?1 LIMIT 401";
const CODE_SQL: &str = "SELECT rowid, bm25(symbols_fts, 10.0, 1.0, 1.0, 2.0, 5.0) AS rank \
                        FROM symbols_fts WHERE symbols_fts MATCH ?1 ORDER BY rank, rowid LIMIT 20";
const CHUNKS_SQL: &str = "SELECT rowid, bm25(chunks_fts, 2.0, 1.0) AS score \
                          FROM chunks_fts WHERE chunks_fts MATCH ?1 ORDER BY score LIMIT 20";

fuzz_target!(|text: &str| {
    let tables = tables().lock().unwrap();
    // Plain ASCII, so Rust's idea of a letter or digit is the tokenizers'. A row is
    // findable by a table whose tokenizer sees a token in it (`_` is a token character of
    // the code index only, `-` of the file index only).
    let ascii = text.bytes().all(|b| b.is_ascii_graphic() || b == b' ');
    let has = |extra: &[u8]| {
        text.bytes()
            .any(|b| b.is_ascii_alphanumeric() || extra.contains(&b))
    };
    let findable = ascii;
    const ROW: i64 = 1_000_000;

    // The file picker: quoted tokens, the last as a prefix, on two columns.
    let picker = fts5_query(text, true);
    assert_eq!(picker.is_none(), path_tokens(text).is_empty());
    if let Some(expr) = &picker {
        let expr = format!("{{filename dir_components}} : ({expr})");
        let tx = tables.files.unchecked_transaction().unwrap();
        if findable {
            tx.execute(
                "INSERT INTO files_meta (rowid, path, filename, dir_components, root, mtime) \
                 VALUES (?1, '/fuzz/file', ?2, '', '/fuzz', 0)",
                params![ROW, text],
            )
            .unwrap();
        }
        let found = matches(&tx, FILES_SQL, &expr);
        assert!(
            !findable || found.contains(&ROW),
            "{expr:?} misses a file named {text:?}"
        );
        tx.rollback().unwrap();
    }

    // The code index: what `code.search_symbols` runs when the query is not valid FTS5
    // as typed, without and with a kind filter.
    let plain = fts5_query(text, false);
    assert_eq!(plain.is_none(), picker.is_none());
    if let Some(expr) = &plain {
        let findable = ascii && has(b"_");
        let tx = tables.code.unchecked_transaction().unwrap();
        if findable {
            tx.execute(
                "INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path, name_tokens) \
                 VALUES (?1, ?2, '', 'fn', 'x.rs', '')",
                params![ROW, text],
            )
            .unwrap();
        }
        for query in [expr.clone(), format!("({expr}) AND kind:\"fn\"")] {
            let found = matches(&tx, CODE_SQL, &query);
            assert!(
                !findable || found.contains(&ROW),
                "{query:?} misses a symbol named {text:?}"
            );
        }
        tx.rollback().unwrap();
    }

    // The chunk engine (docs, notes, sessions): words OR-ed.
    let any = fts5_any_query(text);
    let has_word = truncate_utf8(text, MAX_QUERY_BYTES)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w.chars().any(char::is_alphanumeric));
    assert_eq!(any.is_some(), has_word);
    if let Some(expr) = &any {
        let findable = ascii && has(b"");
        let tx = tables.chunks.unchecked_transaction().unwrap();
        if findable {
            tx.execute(
                "INSERT INTO chunks_fts (rowid, title, text) VALUES (?1, '', ?2)",
                params![ROW, text],
            )
            .unwrap();
        }
        let found = matches(&tx, CHUNKS_SQL, expr);
        assert!(
            !findable || found.contains(&ROW),
            "{expr:?} misses a chunk holding {text:?}"
        );
        tx.rollback().unwrap();
    }
});
