//! The per-repository database: schema, migrations, and where it lives.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::{Error, Result};
use crate::store::Migrations;

/// The schema, as migrations applied by `PRAGMA user_version`.
///
/// 1. ctxhelpr's first schema: files (with SHA-256, mtime and size), symbols (flattened
///    tree: `parent_symbol_id`), refs, the modules each file imports, and an FTS5 index
///    over name, doc comment, kind and file path.
/// 2. `name_tokens`: the identifier's subwords, indexed by FTS5 too. Existing rows are
///    backfilled on first open (`backfill`): the column is added, the FTS table and its
///    triggers rebuilt, every symbol's tokens computed.
/// 3. An index of references by name (`refs_name`, in place of the index of unlinked
///    references by name): when a run defines a name anew, every reference to that name
///    is resolved again.
/// 4. Symbols indexed by (file, name) and (name, kind) in place of by file and by name:
///    a small update links each reference with a few indexed lookups — the name in the
///    same file, in each imported file, the first symbol of each kind — instead of
///    reading every symbol of the name.
/// 5. Resolution by each language's rules: a reference keeps what it is reached through
///    (`qual`: the receiver or path before the name) and whether several definitions
///    could be meant (`ambiguous`, linked to none); `file_bindings` holds the names each
///    file's imports bind. Rows written before lack both, so the index is emptied (and
///    its counts and time forgotten): the next run indexes afresh.
/// 6. Generated columns of `files` that module resolution looks files up by — directory,
///    its last segment, the file's key — each indexed: an update reads the few files a
///    module can be, not the whole table. Computed by SQLite, so nothing is re-indexed.
/// 7. `code.find`'s keyword index (`find_files`, `find_units` and their FTS5 tables),
///    empty until the first `code.find`, which fills it from the files on disk; later
///    calls bring it up to date with the files' hashes.
/// 8. `symbols.declaration`: whether a function or method only declares what others
///    implement (a trait's or interface's method without a body, an abstract method, a
///    stub; see `LanguageExtractor::declares`). Only parsing tells, so the index is
///    emptied as by 5, `code.find`'s with it: the next run indexes afresh.
/// 9. A reference reached through what a call returns (`qual` `F()`, `T.m()`), a
///    variable or a field links by the type their definitions give: `refs_qual` (read
///    alone, without the table) finds the references to link again when such a
///    definition changes.
///    Every file is read again on the next run (its hash forgotten), which writes the
///    new qualifiers; symbols keep their ids.
pub const SCHEMA: Migrations = &[
    r#"
CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    rel_path TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    hash TEXT NOT NULL,
    mtime INTEGER NOT NULL,
    size INTEGER NOT NULL,
    indexed_at INTEGER NOT NULL
) STRICT;
CREATE TABLE symbols (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    parent_symbol_id INTEGER REFERENCES symbols(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    line_start INTEGER NOT NULL,
    line_end INTEGER NOT NULL,
    signature TEXT,
    doc_comment TEXT
) STRICT;
CREATE INDEX symbols_file ON symbols(file_id);
CREATE INDEX symbols_parent ON symbols(parent_symbol_id);
CREATE INDEX symbols_name ON symbols(name);
CREATE TABLE refs (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    from_symbol_id INTEGER REFERENCES symbols(id) ON DELETE CASCADE,
    to_name TEXT NOT NULL,
    to_symbol_id INTEGER REFERENCES symbols(id) ON DELETE SET NULL,
    kind TEXT NOT NULL,
    line INTEGER NOT NULL
) STRICT;
CREATE INDEX refs_file ON refs(file_id);
CREATE INDEX refs_from ON refs(from_symbol_id);
CREATE INDEX refs_to ON refs(to_symbol_id);
CREATE INDEX refs_unresolved ON refs(to_name) WHERE to_symbol_id IS NULL;
CREATE TABLE file_imports (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    module TEXT NOT NULL,
    PRIMARY KEY (file_id, module)
) STRICT, WITHOUT ROWID;
CREATE VIRTUAL TABLE symbols_fts USING fts5(
    name, doc_comment, kind, file_rel_path,
    content='', contentless_delete=1,
    tokenize="unicode61 remove_diacritics 2 tokenchars '_'"
);
CREATE TRIGGER symbols_ai AFTER INSERT ON symbols BEGIN
    INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path)
    VALUES (new.id, new.name, new.doc_comment, new.kind,
            (SELECT rel_path FROM files WHERE id = new.file_id));
END;
CREATE TRIGGER symbols_ad AFTER DELETE ON symbols BEGIN
    DELETE FROM symbols_fts WHERE rowid = old.id;
END;
INSERT INTO metadata (key, value) VALUES ('schema_version', '1');
"#,
    r#"
ALTER TABLE symbols ADD COLUMN name_tokens TEXT NOT NULL DEFAULT '';
DROP TRIGGER IF EXISTS symbols_ai;
DROP TRIGGER IF EXISTS symbols_ad;
DROP TRIGGER IF EXISTS symbols_au;
DROP TABLE IF EXISTS symbols_fts;
CREATE VIRTUAL TABLE symbols_fts USING fts5(
    name, doc_comment, kind, file_rel_path, name_tokens,
    content='', contentless_delete=1,
    tokenize="unicode61 remove_diacritics 2 tokenchars '_'"
);
CREATE TRIGGER symbols_ai AFTER INSERT ON symbols BEGIN
    INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path, name_tokens)
    VALUES (new.id, new.name, new.doc_comment, new.kind,
            (SELECT rel_path FROM files WHERE id = new.file_id), new.name_tokens);
END;
CREATE TRIGGER symbols_ad AFTER DELETE ON symbols BEGIN
    DELETE FROM symbols_fts WHERE rowid = old.id;
END;
CREATE TRIGGER symbols_au AFTER UPDATE OF name, doc_comment, kind, name_tokens ON symbols BEGIN
    DELETE FROM symbols_fts WHERE rowid = old.id;
    INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path, name_tokens)
    VALUES (new.id, new.name, new.doc_comment, new.kind,
            (SELECT rel_path FROM files WHERE id = new.file_id), new.name_tokens);
END;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '2');
INSERT OR REPLACE INTO metadata (key, value)
    SELECT 'backfill_name_tokens', '1' WHERE EXISTS (SELECT 1 FROM symbols);
"#,
    r#"
CREATE INDEX IF NOT EXISTS refs_name ON refs(to_name);
DROP INDEX IF EXISTS refs_unresolved;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '3');
"#,
    r#"
DROP INDEX IF EXISTS symbols_file;
CREATE INDEX IF NOT EXISTS symbols_file_name ON symbols(file_id, name);
DROP INDEX IF EXISTS symbols_name;
CREATE INDEX IF NOT EXISTS symbols_name_kind ON symbols(name, kind);
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '4');
"#,
    r#"
ALTER TABLE refs ADD COLUMN qual TEXT;
ALTER TABLE refs ADD COLUMN ambiguous INTEGER NOT NULL DEFAULT 0;
CREATE TABLE file_bindings (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    local TEXT NOT NULL,
    module TEXT NOT NULL,
    name TEXT
) STRICT;
CREATE INDEX file_bindings_file ON file_bindings(file_id);
DROP TRIGGER IF EXISTS symbols_ad;
INSERT INTO symbols_fts (symbols_fts) VALUES ('delete-all');
DELETE FROM refs;
DELETE FROM file_imports;
DELETE FROM symbols;
DELETE FROM files;
CREATE TRIGGER symbols_ad AFTER DELETE ON symbols BEGIN
    DELETE FROM symbols_fts WHERE rowid = old.id;
END;
DELETE FROM metadata WHERE key IN ('last_indexed', 'count_symbols', 'count_refs', 'backfill_name_tokens');
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '5');
"#,
    // What module resolution looks files up by (`link::Files`), computed from the path:
    // the file's name, its directory (`""` at the root), the directory's last segment,
    // and its key (the name up to the first `.`; for `mod.rs`, `index.ts` and
    // `__init__.py`, the directory's last segment).
    r#"
ALTER TABLE files ADD COLUMN base TEXT
    GENERATED ALWAYS AS (substr(rel_path, length(rtrim(rel_path, replace(rel_path, '/', ''))) + 1)) VIRTUAL;
ALTER TABLE files ADD COLUMN dir TEXT
    GENERATED ALWAYS AS (substr(rel_path, 1, max(length(rel_path) - length(base) - 1, 0))) VIRTUAL;
ALTER TABLE files ADD COLUMN dir_name TEXT
    GENERATED ALWAYS AS (substr(dir, length(rtrim(dir, replace(dir, '/', ''))) + 1)) VIRTUAL;
ALTER TABLE files ADD COLUMN key TEXT
    GENERATED ALWAYS AS (
        CASE WHEN dir <> '' AND substr(base, 1, instr(base || '.', '.') - 1) IN ('mod', 'index', '__init__')
        THEN dir_name ELSE substr(base, 1, instr(base || '.', '.') - 1) END) VIRTUAL;
CREATE INDEX files_dir ON files(dir);
CREATE INDEX files_dir_name ON files(dir_name);
CREATE INDEX files_key ON files(key);
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '6');
"#,
    // `code.find`'s keyword index, filled on the first `code.find` (see `find::store`):
    // the files it has read (by the content and run they were read at), each file's
    // words in one row, and each definition's own lines in another.
    r#"
CREATE TABLE find_files (
    file_id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL,
    indexed_at INTEGER NOT NULL
) STRICT;
CREATE TABLE find_units (
    symbol_id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL
) STRICT;
CREATE INDEX find_units_file ON find_units(file_id);
CREATE VIRTUAL TABLE find_files_fts USING fts5(
    path, names, docs, body,
    content='', contentless_delete=1,
    tokenize="porter unicode61 remove_diacritics 2 tokenchars '_'"
);
CREATE VIRTUAL TABLE find_units_fts USING fts5(
    name, sig, doc, body, path,
    content='', contentless_delete=1,
    tokenize="porter unicode61 remove_diacritics 2 tokenchars '_'"
);
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '7');
"#,
    r#"
ALTER TABLE symbols ADD COLUMN declaration INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER IF EXISTS symbols_ad;
INSERT INTO symbols_fts (symbols_fts) VALUES ('delete-all');
INSERT INTO find_files_fts (find_files_fts) VALUES ('delete-all');
INSERT INTO find_units_fts (find_units_fts) VALUES ('delete-all');
DELETE FROM find_units;
DELETE FROM find_files;
DELETE FROM refs;
DELETE FROM file_bindings;
DELETE FROM file_imports;
DELETE FROM symbols;
DELETE FROM files;
CREATE TRIGGER symbols_ad AFTER DELETE ON symbols BEGIN
    DELETE FROM symbols_fts WHERE rowid = old.id;
END;
DELETE FROM metadata WHERE key IN ('last_indexed', 'count_symbols', 'count_refs', 'backfill_name_tokens');
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '8');
"#,
    r#"
CREATE INDEX refs_qual ON refs(qual) WHERE qual IS NOT NULL;
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '9');
"#,
    // 10: the conditions under which a definition is compiled (`guard`: C's `#if`s, see
    // `lang::cfamily::config`), for the linker to pick the definition a build compiles;
    // every file is extracted again by the next run.
    r#"
ALTER TABLE symbols ADD COLUMN guard TEXT;
CREATE INDEX symbols_guarded ON symbols(name) WHERE guard IS NOT NULL;
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '10');
"#,
    // 11: the type of the value a definition gives where its body or documentation says
    // it and its signature does not (`gives`: a Ruby method's last expression or YARD
    // `@return`), for the linker to follow what a call returns; every file is extracted
    // again by the next run.
    r#"
ALTER TABLE symbols ADD COLUMN gives TEXT;
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '11');
"#,
    // 12: the modules a class or module mixes in (`mixins`: Ruby's `include` and `extend`
    // in its body, one qualifier a line) and the methods that are their class's
    // own where their signature does not say it (`of_class`: Ruby's `class << self`),
    // for the linker to look members up as Ruby does; every file is extracted again by
    // the next run.
    r#"
ALTER TABLE symbols ADD COLUMN mixins TEXT;
ALTER TABLE symbols ADD COLUMN of_class INTEGER NOT NULL DEFAULT 0;
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '12');
"#,
    // 13: a Ruby value of no known class carries in its calls' qualifiers what its
    // class's methods call on it (`el{attr children}`), an instance variable its name,
    // a path from the top level its `::`; a constant written as a value is a reference
    // (`type_ref`, `value`); `Struct.new` and `Data.define` members made in a class's
    // base are methods, and a method a call makes starts at the call; every file is
    // extracted again by the next run.
    r#"
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '13');
"#,
    // 14: Ruby's setter calls name the writer (`x.a = v` → `a=`), `attr_accessor` and a
    // `Struct`'s members make it, `&:name` and `send(:name)` call `name`, and code that a
    // class's `module_eval` string evaluates is read as code; every file is extracted
    // again by the next run.
    r#"
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '14');
"#,
    // 15: the fields of known class a class's (or Ruby module's) methods assign
    // (`fields`: Ruby's `@src = StringScanner.new`, one `name qualifier` a line), for
    // the linker to read them where the class is reopened in another file or extended;
    // every file is extracted again by the next run.
    r#"
ALTER TABLE symbols ADD COLUMN fields TEXT;
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '15');
"#,
    // 16: an attribute a Python method assigns (`self.x = …`) is a member of its class,
    // every Python member read is a reference (a receiver, a condition, an operand), a
    // parameter's of a declared class too, and a local passed on is none; every file is
    // extracted again by the next run.
    r#"
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '16');
"#,
    // 17: a Python type alias of a builtin container (`Scope = MutableMapping[str,
    // Any]`) gives that class, a constant or class read as a receiver or subscripted is
    // a reference, `asyncio.Protocol`'s subclasses declare nothing, and a signature
    // leaves out a comment right before the body; every file is extracted again by the
    // next run.
    r#"
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '17');
"#,
    // 18: the members a class's (or Ruby module's) methods call on each value of no
    // known class (`uses`: `el attr children type`, one value a line), for the linker to
    // read them where the class is reopened in another file or extended, and the calls a
    // string interpolates; every file is extracted again by the next run.
    r#"
ALTER TABLE symbols ADD COLUMN uses TEXT;
UPDATE files SET hash = '', mtime = -1;
INSERT OR REPLACE INTO metadata (key, value) VALUES ('schema_version', '18');
"#,
];

/// The FTS insert trigger of schema 2 (dropped and recreated around large runs).
pub(crate) const FTS_INSERT_TRIGGER: &str =
    "CREATE TRIGGER symbols_ai AFTER INSERT ON symbols BEGIN
    INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path, name_tokens)
    VALUES (new.id, new.name, new.doc_comment, new.kind,
            (SELECT rel_path FROM files WHERE id = new.file_id), new.name_tokens);
END;";

/// The schema version [`SCHEMA`] brings a database to.
pub const SCHEMA_VERSION: usize = 18;

/// Where the index of the repository at `root` (canonical) lives below the data root
/// `home`: `code/<first 16 hex digits of SHA-256 of the path>.db`.
pub fn db_path(home: &Path, root: &Path) -> PathBuf {
    let digest = crate::hash::sha256(root.as_os_str().as_encoded_bytes());
    let hex = crate::hash::hex(&digest[..8]);
    home.join("code").join(format!("{hex}.db"))
}

/// Finish a migration to schema 2 on a database that had symbols: compute every
/// symbol's `name_tokens` (which also puts it into the rebuilt FTS index). Idempotent;
/// runs in one transaction.
pub(crate) fn backfill(conn: &Connection, path: &Path) -> Result<bool> {
    let db = |e| Error::db(path, e);
    let pending: Option<String> = conn
        .query_row(
            "SELECT value FROM metadata WHERE key = 'backfill_name_tokens'",
            [],
            |r| r.get(0),
        )
        .optional()
        .map_err(db)?;
    if pending.is_none() {
        return Ok(false);
    }
    conn.execute_batch("BEGIN IMMEDIATE").map_err(db)?;
    let run = || -> rusqlite::Result<()> {
        let still: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM metadata WHERE key = 'backfill_name_tokens')",
            [],
            |r| r.get(0),
        )?;
        if !still {
            return Ok(());
        }
        let rows: Vec<(i64, String)> = conn
            .prepare("SELECT id, name FROM symbols ORDER BY id")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let mut update = conn.prepare("UPDATE symbols SET name_tokens = ?1 WHERE id = ?2")?;
        for (id, name) in rows {
            update.execute(params![super::text::name_tokens(&name), id])?;
        }
        conn.execute(
            "DELETE FROM metadata WHERE key = 'backfill_name_tokens'",
            [],
        )?;
        Ok(())
    };
    match run() {
        Ok(()) => {
            conn.execute_batch("COMMIT").map_err(db)?;
            Ok(true)
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(db(e))
        }
    }
}

/// A metadata value.
pub(crate) fn meta(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row("SELECT value FROM metadata WHERE key = ?1", [key], |r| {
        r.get(0)
    })
    .optional()
}

/// Set a metadata value.
pub(crate) fn set_meta(conn: &Connection, key: &str, value: &str) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO metadata (key, value) VALUES (?1, ?2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![key, value],
    )
    .map(|_| ())
}
