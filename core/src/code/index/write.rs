//! Writing a run: one transaction, the parsed files written in job order from one
//! thread while the workers parse, the totals kept without a full count.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use rusqlite::{Connection, params};

use super::cold::{Cold, link_cold};
use super::identity::{OldSymbol, OldSymbols, symbol_key};
use super::link::read_bindings;
use super::parse::process;
use super::resolve::{passed_on_now, resolve};
use super::{Delta, Job, Outcome, RunStats, Touched, Writer, insert_bindings};
use crate::code::SymbolKind;
use crate::code::config::ProjectConfig;
use crate::code::db;
use crate::code::extract::{Binding, ExtractedRef, ExtractedSymbol};
use crate::code::text::name_tokens;
use crate::error::{Error, Result};

/// Runs writing at least this many files fill the FTS index in bulk.
pub(super) const BULK_FTS_FILES: usize = 200;
/// The FTS5 in-memory buffer of a large run, in bytes (default 1 MiB): fewer, larger
/// segments to merge.
const BULK_FTS_HASH: i64 = 128 * 1024 * 1024;
/// The page cache of a large run, in KiB (SQLite's default is 2 MB).
const BULK_CACHE_KIB: i64 = 512 * 1024;

#[allow(clippy::too_many_arguments)]
pub(super) fn write_run(
    conn: &Connection,
    path: &Path,
    root: &Path,
    jobs: Vec<Job>,
    gone: Vec<(String, i64)>,
    started: i64,
    config: &ProjectConfig,
    stats: &mut RunStats,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let dberr = |e| Error::db(path, e);
    // A large run keeps its pages in memory until the commit instead of spilling them
    // into the WAL and reading them back (the default cache is 2 MB).
    let cache: Option<i64> = if jobs.len() >= BULK_FTS_FILES {
        let before: i64 = conn
            .query_row("PRAGMA cache_size", [], |r| r.get(0))
            .map_err(dberr)?;
        conn.execute_batch(&format!("PRAGMA cache_size = -{BULK_CACHE_KIB}"))
            .map_err(dberr)?;
        Some(before)
    } else {
        None
    };
    // A cold run (an empty index) only inserts rows whose keys it has just written:
    // checking each foreign key (a lookup per key per row) is work for nothing, and no
    // row is deleted, so no cascade is missed. `foreign_keys` cannot change inside a
    // transaction, hence the guess before it; should another process have indexed in
    // between, the transaction is rolled back and the run made with the checks on.
    let empty = |conn: &Connection| -> rusqlite::Result<bool> {
        conn.query_row("SELECT NOT EXISTS (SELECT 1 FROM files)", [], |r| r.get(0))
    };
    let unchecked = gone.is_empty() && empty(conn).map_err(dberr)?;
    let mut result = if unchecked {
        conn.execute_batch("PRAGMA foreign_keys = OFF")
            .map_err(dberr)?;
        let result = write_transaction(
            conn, path, root, &jobs, &gone, started, config, stats, warnings, false,
        );
        conn.execute_batch("PRAGMA foreign_keys = ON")
            .map_err(dberr)?;
        result
    } else {
        Err(Error::Internal(NOT_COLD.into()))
    };
    if matches!(&result, Err(Error::Internal(m)) if m == NOT_COLD) {
        result = write_transaction(
            conn, path, root, &jobs, &gone, started, config, stats, warnings, true,
        );
    }
    if let Some(before) = cache {
        let _ = conn.execute_batch(&format!(
            "PRAGMA cache_size = {before}; PRAGMA shrink_memory;"
        ));
    }
    result
}

#[allow(clippy::too_many_arguments)]
fn write_transaction(
    conn: &Connection,
    path: &Path,
    root: &Path,
    jobs: &[Job],
    gone: &[(String, i64)],
    started: i64,
    config: &ProjectConfig,
    stats: &mut RunStats,
    warnings: &mut Vec<String>,
    checks: bool,
) -> Result<()> {
    let dberr = |e| Error::db(path, e);
    conn.execute_batch("BEGIN IMMEDIATE").map_err(dberr)?;
    let result = (|| -> Result<()> {
        let mut changed_files: Vec<i64> = Vec::new();
        let cold = !conn
            .query_row("SELECT EXISTS (SELECT 1 FROM files)", [], |r| {
                r.get::<_, bool>(0)
            })
            .map_err(dberr)?;
        if !cold && !checks {
            // Another process indexed since `write_run` looked: again, with the checks.
            return Err(Error::Internal(NOT_COLD.into()));
        }
        // A cold run resolves every reference anyway: it needs no list of names.
        let mut touched = Touched {
            track: !cold,
            ..Touched::default()
        };
        // A large run fills the FTS index in one statement at the end instead of one
        // trigger call per symbol.
        let bulk_fts = jobs.len() >= BULK_FTS_FILES;
        if bulk_fts {
            conn.execute_batch(&format!(
                "DROP TRIGGER symbols_ai;
                 INSERT INTO symbols_fts (symbols_fts, rank) VALUES ('hashsize', {BULK_FTS_HASH});"
            ))
            .map_err(dberr)?;
        }
        // A cold run creates the indexes keyed in random order (by target, by name)
        // once its rows are in: sorting once is cheaper than inserting into them row by
        // row, and it takes that work off the writer while the workers parse.
        let deferred: &[(&str, &str)] = if cold && bulk_fts {
            DEFERRED_INDEXES
        } else {
            &[]
        };
        for (name, _) in deferred {
            conn.execute_batch(&format!("DROP INDEX {name}"))
                .map_err(dberr)?;
        }
        let mut delta = Delta::default();
        for (_, id) in gone {
            reshape_gone(conn, root, *id, &mut touched).map_err(dberr)?;
            collect_names(conn, *id, &mut touched.removed, &mut delta).map_err(dberr)?;
            conn.execute("DELETE FROM refs WHERE file_id = ?1", [id])
                .map_err(dberr)?;
            conn.execute("DELETE FROM files WHERE id = ?1", [id])
                .map_err(dberr)?;
            stats.deleted += 1;
        }
        let max_size = config.indexer.max_file_size;
        let threads = std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .min(jobs.len().max(1));
        let next = AtomicUsize::new(0);
        // For a bulk FTS fill: files new in this run (all their symbols), and the
        // symbols inserted into files known before (the others kept their FTS rows).
        let mut fts_new_files: Vec<i64> = Vec::new();
        let mut fts_symbols: Vec<i64> = Vec::new();
        let mut cold_state: Option<Cold> = None;
        let (tx, rx) = mpsc::sync_channel::<(usize, Outcome)>(256);
        std::thread::scope(|scope| -> Result<()> {
            for _ in 0..threads {
                let tx = tx.clone();
                let next = &next;
                scope.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        let outcome =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                process(job, max_size)
                            }))
                            .unwrap_or_else(|_| {
                                Outcome::Skipped(format!("{}: the parser failed", job.rel))
                            });
                        if tx.send((i, outcome)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            // Write in job order, whatever order the workers finish in, so ids are the
            // same on every run.
            let mut pending: BTreeMap<usize, Outcome> = BTreeMap::new();
            let mut want = 0;
            let mut writer = Writer::new(conn, root, bulk_fts, &mut touched);
            if cold {
                writer.cold = Some(Cold {
                    fts: bulk_fts,
                    ..Cold::default()
                });
            }
            let mut failure = None;
            let mut stopped = None;
            for (i, outcome) in rx {
                // Cancelled: the workers stop once the channel is gone, and the run's
                // one transaction is rolled back (a run takes seconds).
                if let Err(e) = crate::progress::report("parse", want, jobs.len()) {
                    stopped = Some(e);
                    break;
                }
                pending.insert(i, outcome);
                while let Some(outcome) = pending.remove(&want) {
                    let job = &jobs[want];
                    want += 1;
                    if failure.is_some() {
                        continue;
                    }
                    if let Err(e) =
                        writer.apply(job, outcome, started, stats, warnings, &mut changed_files)
                    {
                        failure = Some(e);
                    }
                }
            }
            delta.symbols += writer.delta.symbols;
            delta.refs += writer.delta.refs;
            fts_new_files = std::mem::take(&mut writer.new_files);
            fts_symbols = std::mem::take(&mut writer.inserted);
            cold_state = writer.cold.take();
            match (stopped, failure) {
                (Some(e), _) => Err(e),
                (None, Some(e)) => Err(dberr(e)),
                (None, None) => Ok(()),
            }
        })?;
        if bulk_fts {
            conn.execute_batch(db::FTS_INSERT_TRIGGER).map_err(dberr)?;
            conn.execute_batch(
                "INSERT INTO symbols_fts (symbols_fts, rank) VALUES ('hashsize', 1048576);",
            )
            .map_err(dberr)?;
            let mut fill = conn
                .prepare_cached(
                    "INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path, name_tokens)
                     SELECT s.id, s.name, s.doc_comment, s.kind, f.rel_path, s.name_tokens
                     FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.file_id = ?1",
                )
                .map_err(dberr)?;
            for file in &fts_new_files {
                fill.execute([file]).map_err(dberr)?;
            }
            let mut fill_one = conn
                .prepare_cached(
                    "INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path, name_tokens)
                     SELECT s.id, s.name, s.doc_comment, s.kind, f.rel_path, s.name_tokens
                     FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = ?1",
                )
                .map_err(dberr)?;
            for id in &fts_symbols {
                fill_one.execute([id]).map_err(dberr)?;
            }
        }
        // The index of symbols is created while the references are linked in memory,
        // those of references once they are inserted.
        let (of_symbols, of_refs): (Vec<_>, Vec<_>) = deferred
            .iter()
            .partition(|(name, _)| name.starts_with("symbols"));
        // Stopped now, the transaction rolls back: nothing of the run is written.
        crate::progress::checkpoint()?;
        match cold_state {
            Some(state) => link_cold(conn, root, state, || {
                for (_, sql) in &of_symbols {
                    conn.execute_batch(sql)?;
                }
                Ok(())
            })
            .map_err(dberr)?,
            None => resolve(conn, root, cold, &changed_files, &touched).map_err(dberr)?,
        }
        crate::progress::checkpoint()?;
        for (_, sql) in of_refs {
            conn.execute_batch(sql).map_err(dberr)?;
        }
        // Totals: the previous ones plus this run's delta (a full count only when there
        // are none yet, as after a migration).
        let total = |table: &str, change: i64| -> rusqlite::Result<i64> {
            match db::meta(conn, &format!("count_{table}"))?.and_then(|v| v.parse::<i64>().ok()) {
                Some(before) if !cold => Ok(before + change),
                _ => conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)),
            }
        };
        let symbols = total("symbols", delta.symbols).map_err(dberr)?;
        let refs = total("refs", delta.refs).map_err(dberr)?;
        stats.symbols = symbols as u64;
        stats.refs = refs as u64;
        db::set_meta(conn, "count_symbols", &symbols.to_string()).map_err(dberr)?;
        db::set_meta(conn, "count_refs", &refs.to_string()).map_err(dberr)?;
        db::set_meta(conn, "repo_root", &root.to_string_lossy()).map_err(dberr)?;
        db::set_meta(conn, "last_indexed", &started.to_string()).map_err(dberr)?;
        Ok(())
    })();
    match result {
        Ok(()) => conn.execute_batch("COMMIT").map_err(dberr),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// Indexes a cold run creates after its rows are in (sorted once instead of inserted
/// into one row at a time, in random order).
const DEFERRED_INDEXES: &[(&str, &str)] = &[
    ("refs_to", "CREATE INDEX refs_to ON refs(to_symbol_id)"),
    ("refs_name", "CREATE INDEX refs_name ON refs(to_name)"),
    (
        "symbols_name_kind",
        "CREATE INDEX symbols_name_kind ON symbols(name, kind)",
    ),
];

/// Why a run that expected an empty index rolled back (another process wrote first).
const NOT_COLD: &str = "the index was not empty any more";

/// Before a file's rows are removed: remember what its imports passed on or brought into
/// view ([`super::resolve::passed_on`]).
fn reshape_gone(
    conn: &Connection,
    root: &Path,
    file_id: i64,
    touched: &mut Touched,
) -> rusqlite::Result<()> {
    if !touched.track {
        return Ok(());
    }
    let bindings = read_bindings(conn, file_id)?;
    passed_on_now(conn, root, file_id, &bindings, &mut touched.added)
}

/// Before a file's rows are removed: remember its symbol names (references to them must
/// be resolved again) and count its rows out of the totals.
fn collect_names(
    conn: &Connection,
    file_id: i64,
    names: &mut HashSet<String>,
    delta: &mut Delta,
) -> rusqlite::Result<()> {
    let count = |sql: &str| -> rusqlite::Result<i64> {
        conn.prepare_cached(sql)?.query_row([file_id], |r| r.get(0))
    };
    delta.symbols -= count("SELECT count(*) FROM symbols WHERE file_id = ?1")?;
    delta.refs -= count("SELECT count(*) FROM refs WHERE file_id = ?1")?;
    let mut stmt = conn.prepare_cached("SELECT DISTINCT name FROM symbols WHERE file_id = ?1")?;
    let rows = stmt.query_map([file_id], |r| r.get::<_, String>(0))?;
    for name in rows {
        names.insert(name?);
    }
    let mut stmt = conn.prepare_cached(
        "SELECT fields, uses FROM symbols
         WHERE file_id = ?1 AND (fields IS NOT NULL OR uses IS NOT NULL)",
    )?;
    let rows = stmt.query_map([file_id], |r| {
        Ok((
            r.get::<_, Option<String>>(0)?,
            r.get::<_, Option<String>>(1)?,
        ))
    })?;
    for row in rows {
        let (fields, uses) = row?;
        names.extend(field_names(fields.as_deref()));
        names.extend(use_names(uses.as_deref()));
    }
    Ok(())
}

/// The names a class's stored `fields` give its fields as a qualifier writes them
/// (`@src`): what the references reached through one of them hold.
fn field_names(fields: Option<&str>) -> impl Iterator<Item = String> + '_ {
    super::pairs_of(fields.unwrap_or_default()).map(|(name, _)| format!("@{name}"))
}

/// The values whose uses differ between a class's stored `uses` before and after
/// (one added, removed, or called on for other members): only what is called on a value
/// of those names elsewhere can link otherwise.
fn changed_uses(before: Option<&str>, after: Option<&str>) -> Vec<String> {
    let before: HashMap<&str, &str> = super::pairs_of(before.unwrap_or_default()).collect();
    let after: HashMap<&str, &str> = super::pairs_of(after.unwrap_or_default()).collect();
    before
        .iter()
        .filter(|(value, used)| after.get(*value) != Some(*used))
        .chain(
            after
                .iter()
                .filter(|(value, _)| !before.contains_key(*value)),
        )
        .map(|(value, _)| value.to_string())
        .collect()
}

/// The values a class's stored `uses` name, as a qualifier writes them (`el`,
/// `@tree`): what is called on one of them in the class's other definitions is
/// linked by those uses too.
fn use_names(uses: Option<&str>) -> impl Iterator<Item = String> + '_ {
    super::pairs_of(uses.unwrap_or_default()).map(|(name, _)| name.to_string())
}
impl<'c, 't> Writer<'c, 't> {
    pub(super) fn new(
        conn: &'c Connection,
        root: &'c Path,
        bulk_fts: bool,
        touched: &'t mut Touched,
    ) -> Writer<'c, 't> {
        Writer {
            conn,
            root,
            delta: Delta::default(),
            touched,
            bulk_fts,
            new_files: Vec::new(),
            inserted: Vec::new(),
            cold: None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn apply(
        &mut self,
        job: &Job,
        outcome: Outcome,
        started: i64,
        stats: &mut RunStats,
        warnings: &mut Vec<String>,
        changed: &mut Vec<i64>,
    ) -> rusqlite::Result<()> {
        let conn = self.conn;
        match outcome {
            Outcome::Skipped(message) => {
                warnings.push(message);
                stats.skipped += 1;
                stats.files = stats.files.saturating_sub(1);
                if let Some((id, _)) = job.known {
                    reshape_gone(conn, self.root, id, self.touched)?;
                    collect_names(conn, id, &mut self.touched.removed, &mut self.delta)?;
                    conn.execute("DELETE FROM refs WHERE file_id = ?1", [id])?;
                    conn.execute("DELETE FROM files WHERE id = ?1", [id])?;
                    stats.deleted += 1;
                }
            }
            Outcome::Same { mtime, size } => {
                stats.unchanged += 1;
                if let Some((id, _)) = job.known {
                    conn.prepare_cached(
                        "UPDATE files SET mtime = ?1, size = ?2, indexed_at = ?3 WHERE id = ?4",
                    )?
                    .execute(params![mtime, size, started, id])?;
                }
            }
            Outcome::Parsed {
                hash,
                mtime,
                size,
                file,
                tokens,
                bytes,
            } => {
                stats.bytes_parsed += bytes;
                if self.cold.is_some() && job.known.is_none() {
                    stats.new += 1;
                    let file_id =
                        self.put_new_file(job, &hash, mtime, size, started, file, tokens)?;
                    changed.push(file_id);
                    return Ok(());
                }
                let mut tokens = tokens.into_iter();
                let mut old = OldSymbols::none();
                let file_id = match job.known {
                    Some((id, _)) => {
                        stats.changed += 1;
                        old = OldSymbols::load(conn, id)?;
                        if self.touched.track {
                            // Imports gone: what they reached, while it is still known;
                            // imports gained: once the run's rows are in.
                            let before = read_bindings(conn, id)?;
                            if before != file.bindings {
                                let lost: Vec<Binding> = before
                                    .iter()
                                    .filter(|b| !file.bindings.contains(b))
                                    .cloned()
                                    .collect();
                                passed_on_now(conn, self.root, id, &lost, &mut self.touched.added)?;
                                let gained = file
                                    .bindings
                                    .iter()
                                    .filter(|b| !before.contains(b))
                                    .cloned()
                                    .collect();
                                self.touched.reshaped.push((id, gained));
                            }
                        }
                        self.delta.refs -= conn
                            .prepare_cached("SELECT count(*) FROM refs WHERE file_id = ?1")?
                            .query_row([id], |r| r.get::<_, i64>(0))?;
                        conn.prepare_cached("DELETE FROM refs WHERE file_id = ?1")?
                            .execute([id])?;
                        conn.prepare_cached("DELETE FROM file_imports WHERE file_id = ?1")?
                            .execute([id])?;
                        conn.prepare_cached("DELETE FROM file_bindings WHERE file_id = ?1")?
                            .execute([id])?;
                        conn.prepare_cached(
                            "UPDATE files SET language = ?1, hash = ?2, mtime = ?3, size = ?4, indexed_at = ?5 WHERE id = ?6",
                        )?
                        .execute(params![job.lang.name(), hash, mtime, size, started, id])?;
                        id
                    }
                    None => {
                        stats.new += 1;
                        conn.prepare_cached(
                            "INSERT INTO files (rel_path, language, hash, mtime, size, indexed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        )?
                        .execute(params![job.rel, job.lang.name(), hash, mtime, size, started])?;
                        let id = conn.last_insert_rowid();
                        if self.bulk_fts {
                            self.new_files.push(id);
                        }
                        if self.touched.track {
                            self.touched.reshaped.push((id, file.bindings.clone()));
                        }
                        id
                    }
                };
                let known = job.known.is_some();
                changed.push(file_id);
                for module in &file.imports {
                    conn.prepare_cached(
                        "INSERT OR IGNORE INTO file_imports (file_id, module) VALUES (?1, ?2)",
                    )?
                    .execute(params![file_id, module])?;
                }
                insert_bindings(conn, file_id, &file.bindings)?;
                insert_refs(conn, file_id, None, &file.references, &mut self.delta)?;
                let mut siblings = HashMap::new();
                for symbol in &file.symbols {
                    self.put_symbol(
                        file_id,
                        known,
                        None,
                        "",
                        symbol,
                        &mut old,
                        &mut siblings,
                        &mut tokens,
                    )?;
                }
                // What is left of the old symbols is gone from the file (a symbol's
                // children go with it).
                let mut gone: Vec<OldSymbol> = old.by_key.into_values().collect();
                gone.sort_by_key(|o| o.id);
                let mut delete = conn.prepare_cached("DELETE FROM symbols WHERE id = ?1")?;
                for symbol in gone {
                    delete.execute([symbol.id])?;
                    self.delta.symbols -= 1;
                    if self.touched.track {
                        self.touched
                            .removed
                            .extend(field_names(symbol.fields.as_deref()));
                        self.touched
                            .removed
                            .extend(use_names(symbol.uses.as_deref()));
                        self.touched.removed.insert(symbol.name);
                    }
                }
            }
        }
        Ok(())
    }

    /// Store `symbol` (and its children) under `parent`: the row of the old symbol with
    /// the same identity is updated in place, any other is inserted.
    #[allow(clippy::too_many_arguments)]
    fn put_symbol(
        &mut self,
        file_id: i64,
        known_file: bool,
        parent: Option<i64>,
        parent_key: &str,
        symbol: &ExtractedSymbol,
        old: &mut OldSymbols,
        siblings: &mut HashMap<(SymbolKind, String), u32>,
        tokens: &mut std::vec::IntoIter<String>,
    ) -> rusqlite::Result<()> {
        let conn = self.conn;
        let tokens_here = tokens.next().unwrap_or_else(|| name_tokens(&symbol.name));
        let ordinal = siblings
            .entry((symbol.kind, symbol.name.clone()))
            .or_insert(0);
        let key = symbol_key(parent_key, symbol.kind.as_str(), &symbol.name, *ordinal);
        *ordinal += 1;
        let mixins = super::stored_mixins(&symbol.mixins);
        let fields = super::stored_pairs(&symbol.fields);
        let uses = super::stored_pairs(&symbol.uses);
        let id = match old.by_key.remove(&key) {
            Some(before) => {
                if before.line_start != symbol.line_start
                    || before.line_end != symbol.line_end
                    || before.signature != symbol.signature
                    || before.doc_comment != symbol.doc_comment
                    || before.declaration != symbol.declaration
                    || before.guard != symbol.guard
                    || before.gives != symbol.gives
                    || before.mixins != mixins
                    || before.of_class != symbol.of_class
                    || before.fields != fields
                    || before.uses != uses
                {
                    conn.prepare_cached(
                        "UPDATE symbols SET line_start = ?1, line_end = ?2, signature = ?3, doc_comment = ?4,
                                declaration = ?5, guard = ?6, gives = ?7, mixins = ?8, of_class = ?9,
                                fields = ?10, uses = ?11
                         WHERE id = ?12",
                    )?
                    .execute(params![
                        symbol.line_start,
                        symbol.line_end,
                        symbol.signature,
                        symbol.doc_comment,
                        symbol.declaration,
                        symbol.guard,
                        symbol.gives,
                        mixins,
                        symbol.of_class,
                        fields,
                        uses,
                        before.id
                    ])?;
                    // A new signature may give another type, or another owner (a Go
                    // method's receiver), and a new guard another configuration: the
                    // references to it are linked again.
                    if (before.signature != symbol.signature
                        || before.guard != symbol.guard
                        || before.gives != symbol.gives
                        || before.mixins != mixins
                        || before.of_class != symbol.of_class)
                        && self.touched.track
                    {
                        self.touched.added.insert(symbol.name.clone());
                    }
                    // Another class assigned to a field: what is called on it in the
                    // class's other files and in those extending it is linked again.
                    if before.fields != fields && self.touched.track {
                        let names = field_names(before.fields.as_deref())
                            .chain(field_names(fields.as_deref()));
                        self.touched.added.extend(names);
                    }
                    // Other members called on a value of no known class: what is
                    // called on a value of its name in the class's other definitions
                    // (and those extending it) is linked again.
                    if before.uses != uses && self.touched.track {
                        let names = changed_uses(before.uses.as_deref(), uses.as_deref());
                        self.touched.added.extend(names);
                    }
                }
                before.id
            }
            None => {
                conn.prepare_cached(
                    "INSERT INTO symbols (file_id, parent_symbol_id, name, kind, line_start, line_end, signature, doc_comment, name_tokens, declaration, guard, gives, mixins, of_class, fields, uses)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
                )?
                .execute(params![
                    file_id,
                    parent,
                    symbol.name,
                    symbol.kind.as_str(),
                    symbol.line_start,
                    symbol.line_end,
                    symbol.signature,
                    symbol.doc_comment,
                    tokens_here,
                    symbol.declaration,
                    symbol.guard,
                    symbol.gives,
                    mixins,
                    symbol.of_class,
                    fields,
                    uses,
                ])?;
                let id = conn.last_insert_rowid();
                self.delta.symbols += 1;
                if self.touched.track && !self.touched.added.contains(&symbol.name) {
                    self.touched.added.insert(symbol.name.clone());
                }
                if self.touched.track {
                    self.touched.added.extend(field_names(fields.as_deref()));
                    self.touched.added.extend(use_names(uses.as_deref()));
                }
                if self.bulk_fts && known_file {
                    self.inserted.push(id);
                }
                id
            }
        };
        insert_refs(conn, file_id, Some(id), &symbol.references, &mut self.delta)?;
        let mut children = HashMap::new();
        for child in &symbol.children {
            self.put_symbol(
                file_id,
                known_file,
                Some(id),
                &key,
                child,
                old,
                &mut children,
                tokens,
            )?;
        }
        Ok(())
    }
}

fn insert_refs(
    conn: &Connection,
    file_id: i64,
    from: Option<i64>,
    refs: &[ExtractedRef],
    delta: &mut Delta,
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO refs (file_id, from_symbol_id, to_name, kind, line, qual) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for r in refs {
        stmt.execute(params![
            file_id,
            from,
            r.to_name,
            r.kind.as_str(),
            r.line,
            r.qual
        ])?;
    }
    delta.refs += refs.len() as i64;
    Ok(())
}
