//! `code.find`'s keyword index: kept beside the symbol index in the repository's
//! database (schema 7), filled the first time `code.find` asks, and brought up to date on
//! every later call with what the symbol index changed.
//!
//! Each code file (not Markdown) has one row in `find_files_fts` (its path, the names and
//! signatures it defines, their doc comments, and all its text) and each of its
//! definitions one row in `find_units_fts` (name, signature, doc comment, the lines that
//! are its own — those of no definition inside it — and the file's path). All text is in
//! index words ([`super::terms::words_of`]). `find_files` remembers each file's hash and
//! run when it was read: a file the symbol index re-parsed since, or removed, is read
//! again or dropped; the others are not touched.

use std::path::Path;

use rayon::prelude::*;
use rusqlite::{Connection, params};

use super::terms::words_of;
use crate::code::lang;
use crate::error::{Error, Result};

/// Files read and written per batch (bounds the memory of a cold fill).
const BATCH: usize = 256;

/// The ids of a file's first definitions of the kinds in `?3` (`?1` its path, `?2` how
/// many; `?3` is [`unit_kinds_json`]).
pub(super) const FIRST_UNITS_SQL: &str =
    "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id
     WHERE f.rel_path = ?1 AND s.kind IN (SELECT value FROM json_each(?3))
     ORDER BY s.line_start, s.id LIMIT ?2";

/// [`UNIT_KINDS`] as a JSON array, for SQL that filters by them.
pub(super) fn unit_kinds_json() -> String {
    serde_json::Value::from(UNIT_KINDS).to_string()
}

/// Kinds that get a row of their own; the lines of the others (fields, constants,
/// variables) belong to the definition around them.
pub const UNIT_KINDS: &[&str] = &[
    "fn",
    "method",
    "class",
    "interface",
    "struct",
    "enum",
    "trait",
    "mod",
    "impl",
    "type",
];

/// What bringing the index up to date did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Synced {
    /// Files (re)read.
    pub read: usize,
    /// Files dropped (gone from the symbol index, or re-read).
    pub dropped: usize,
}

struct Stale {
    id: i64,
    rel: String,
    hash: String,
    indexed_at: i64,
}

struct Unit {
    id: i64,
    parent: Option<i64>,
    name: String,
    kind: String,
    start: usize,
    end: usize,
    signature: Option<String>,
    doc: Option<String>,
}

/// One file's rows, built on a worker thread.
struct Rows {
    file: [String; 4],
    units: Vec<(i64, [String; 5])>,
}

/// Bring the keyword index of the repository at `root` up to date with its symbol index,
/// in one transaction on the write connection `conn`.
pub(crate) fn sync(conn: &Connection, root: &Path, db_path: &Path) -> Result<Synced> {
    let dberr = |e| Error::db(db_path, e);
    conn.execute_batch("BEGIN IMMEDIATE").map_err(dberr)?;
    let result = fill(conn, root).map_err(|e| match e {
        Fill::Db(e) => dberr(e),
        Fill::Other(e) => e,
    });
    match result {
        Ok(done) => {
            conn.execute_batch("COMMIT").map_err(dberr)?;
            Ok(done)
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

enum Fill {
    Db(rusqlite::Error),
    Other(Error),
}

impl From<rusqlite::Error> for Fill {
    fn from(e: rusqlite::Error) -> Self {
        Fill::Db(e)
    }
}

impl From<Error> for Fill {
    fn from(e: Error) -> Self {
        Fill::Other(e)
    }
}

fn fill(conn: &Connection, root: &Path) -> std::result::Result<Synced, Fill> {
    let mut done = Synced::default();
    // Read before: gone from the symbol index, or re-parsed since (another hash or run).
    let outdated: Vec<i64> = conn
        .prepare(&format!(
            "SELECT r.file_id FROM find_files r LEFT JOIN files f ON f.id = r.file_id
             WHERE f.id IS NULL OR f.hash <> r.hash OR f.indexed_at <> r.indexed_at
                OR f.language IN ({})
             ORDER BY r.file_id",
            lang::prose_sql()
        ))?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for id in &outdated {
        drop_file(conn, *id)?;
    }
    done.dropped = outdated.len();
    let stale: Vec<Stale> = conn
        .prepare(&format!(
            "SELECT f.id, f.rel_path, f.hash, f.indexed_at FROM files f
             WHERE f.language NOT IN ({})
               AND NOT EXISTS (SELECT 1 FROM find_files r WHERE r.file_id = f.id)
             ORDER BY f.id",
            lang::prose_sql()
        ))?
        .query_map([], |r| {
            Ok(Stale {
                id: r.get(0)?,
                rel: r.get(1)?,
                hash: r.get(2)?,
                indexed_at: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut symbols = conn.prepare_cached(
        "SELECT id, parent_symbol_id, name, kind, line_start, line_end, signature, doc_comment
         FROM symbols WHERE file_id = ?1 ORDER BY line_start, id",
    )?;
    let mut put_file = conn.prepare_cached(
        "INSERT INTO find_files_fts (rowid, path, names, docs, body) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    let mut put_unit = conn.prepare_cached(
        "INSERT INTO find_units_fts (rowid, name, sig, doc, body, path)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let mut put_unit_row =
        conn.prepare_cached("INSERT INTO find_units (symbol_id, file_id) VALUES (?1, ?2)")?;
    let mut put_read = conn
        .prepare_cached("INSERT INTO find_files (file_id, hash, indexed_at) VALUES (?1, ?2, ?3)")?;
    for (b, batch) in stale.chunks(BATCH).enumerate() {
        crate::progress::report("find index", b * BATCH, stale.len())?;
        let mut jobs = Vec::with_capacity(batch.len());
        for file in batch {
            let units: Vec<Unit> = symbols
                .query_map([file.id], |r| {
                    Ok(Unit {
                        id: r.get(0)?,
                        parent: r.get(1)?,
                        name: r.get(2)?,
                        kind: r.get(3)?,
                        start: r.get::<_, i64>(4)?.max(1) as usize,
                        end: r.get::<_, i64>(5)?.max(1) as usize,
                        signature: r.get(6)?,
                        doc: r.get(7)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            jobs.push((file, units));
        }
        let rows: Vec<Option<Rows>> = jobs
            .par_iter()
            .map(|(file, units)| {
                // Gone or unreadable since the symbol index read it: left for the next
                // run of the symbol index to notice.
                let bytes = std::fs::read(root.join(&file.rel)).ok()?;
                Some(rows_of(&file.rel, &String::from_utf8_lossy(&bytes), units))
            })
            .collect();
        for ((file, _), rows) in jobs.iter().zip(rows) {
            let Some(rows) = rows else { continue };
            let [path, names, docs, body] = &rows.file;
            put_file.execute(params![file.id, path, names, docs, body])?;
            for (id, [name, sig, doc, body, path]) in &rows.units {
                put_unit.execute(params![id, name, sig, doc, body, path])?;
                put_unit_row.execute(params![id, file.id])?;
            }
            put_read.execute(params![file.id, file.hash, file.indexed_at])?;
            done.read += 1;
        }
    }
    Ok(done)
}

/// Remove a file's rows from the keyword index.
fn drop_file(conn: &Connection, file_id: i64) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "DELETE FROM find_units_fts WHERE rowid IN (SELECT symbol_id FROM find_units WHERE file_id = ?1)",
    )?
    .execute([file_id])?;
    conn.prepare_cached("DELETE FROM find_units WHERE file_id = ?1")?
        .execute([file_id])?;
    conn.prepare_cached("DELETE FROM find_files_fts WHERE rowid = ?1")?
        .execute([file_id])?;
    conn.prepare_cached("DELETE FROM find_files WHERE file_id = ?1")?
        .execute([file_id])?;
    Ok(())
}

/// A file's rows: its own, and one per definition of a [`UNIT_KINDS`] kind.
fn rows_of(rel: &str, text: &str, symbols: &[Unit]) -> Rows {
    let lines: Vec<&str> = text.lines().collect();
    let mut path = String::new();
    words_of(rel, &mut path);
    let (mut names, mut docs, mut body) = (String::new(), String::new(), String::new());
    for s in symbols {
        words_of(&s.name, &mut names);
        if let Some(sig) = &s.signature {
            words_of(sig, &mut names);
        }
        if let Some(doc) = &s.doc {
            words_of(doc, &mut docs);
        }
    }
    words_of(text, &mut body);
    // Each line belongs to the innermost unit around it: wider units first, narrower
    // ones overwrite.
    let units: Vec<&Unit> = symbols
        .iter()
        .filter(|s| UNIT_KINDS.contains(&s.kind.as_str()))
        .collect();
    let mut owner: Vec<Option<usize>> = vec![None; lines.len()];
    let mut by_span: Vec<usize> = (0..units.len()).collect();
    by_span.sort_by_key(|&i| {
        (
            std::cmp::Reverse(units[i].end - units[i].start.min(units[i].end)),
            i,
        )
    });
    for i in by_span {
        let u = units[i];
        for slot in owner
            .iter_mut()
            .take(u.end.min(lines.len()))
            .skip(u.start - 1)
        {
            *slot = Some(i);
        }
    }
    let mut own: Vec<String> = vec![String::new(); units.len()];
    for (line, who) in lines.iter().zip(&owner) {
        if let Some(i) = who {
            words_of(line, &mut own[*i]);
        }
    }
    let unit_rows = units
        .iter()
        .zip(own)
        .map(|(u, body)| {
            let mut name = String::new();
            words_of(&u.name, &mut name);
            // A method's row names its class too: "the client's send" meets `send`.
            if let Some(parent) = u.parent.and_then(|p| symbols.iter().find(|s| s.id == p)) {
                words_of(&parent.name, &mut name);
            }
            let mut sig = String::new();
            if let Some(s) = &u.signature {
                words_of(s, &mut sig);
            }
            let mut doc = String::new();
            if let Some(d) = &u.doc {
                words_of(d, &mut doc);
            }
            (u.id, [name, sig, doc, body, path.clone()])
        })
        .collect();
    Rows {
        file: [path, names, docs, body],
        units: unit_rows,
    }
}
