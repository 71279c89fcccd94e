//! Indexing: choose files, parse the changed ones on every core, write from one thread in
//! one transaction, resolve references.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use rusqlite::{Connection, params};
use sha2::{Digest, Sha256};

use super::config::ProjectConfig;
use super::db;
use super::extract::{ExtractedFile, ExtractedRef, ExtractedSymbol, extract_source};
use super::lang::{LanguageExtractor, extractor_for_path};
use super::text::name_tokens;
use super::{RefKind, SymbolKind};
use crate::error::{Error, Result};
use crate::store::Database;

/// Deepest directory level walked below a repository root.
const MAX_DEPTH: usize = 64;
/// Most files indexed in one repository.
const MAX_FILES: usize = 500_000;
/// Runs writing at least this many files fill the FTS index in bulk.
const BULK_FTS_FILES: usize = 200;
/// The FTS5 in-memory buffer of a large run, in bytes (default 1 MiB): fewer, larger
/// segments to merge.
const BULK_FTS_HASH: i64 = 128 * 1024 * 1024;
/// The page cache of a large run, in KiB (SQLite's default is 2 MB).
const BULK_CACHE_KIB: i64 = 512 * 1024;
/// Bytes looked at for a NUL to call a file binary.
const BINARY_SNIFF: usize = 8000;

/// What an index run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RunStats {
    pub files: usize,
    pub new: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub deleted: usize,
    pub skipped: usize,
    pub symbols: u64,
    pub refs: u64,
    pub bytes_parsed: u64,
    pub warnings: Vec<String>,
}

struct Known {
    id: i64,
    hash: String,
    mtime: i64,
    size: i64,
    indexed_at: i64,
}

struct Job {
    rel: String,
    path: PathBuf,
    lang: &'static dyn LanguageExtractor,
    ext: String,
    known: Option<(i64, String)>,
}

enum Outcome {
    /// Same content as indexed: only mtime and size move.
    Same {
        mtime: i64,
        size: i64,
    },
    Parsed {
        hash: String,
        mtime: i64,
        size: i64,
        file: ExtractedFile,
        /// Every symbol's `name_tokens`, in depth-first order (computed on the worker).
        tokens: Vec<String>,
        bytes: u64,
    },
    Skipped(String),
}

fn now() -> i64 {
    crate::time::unix_now()
}

/// The path of `path` relative to `root`, `/`-separated; `None` outside it or not UTF-8.
fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    let rel = parts?.join("/");
    (!rel.is_empty()).then_some(rel)
}

fn load_known(conn: &Connection, path: &Path) -> Result<HashMap<String, Known>> {
    let mut stmt = conn
        .prepare("SELECT rel_path, id, hash, mtime, size, indexed_at FROM files")
        .map_err(|e| Error::db(path, e))?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                Known {
                    id: r.get(1)?,
                    hash: r.get(2)?,
                    mtime: r.get(3)?,
                    size: r.get(4)?,
                    indexed_at: r.get(5)?,
                },
            ))
        })
        .map_err(|e| Error::db(path, e))?;
    rows.collect::<rusqlite::Result<HashMap<_, _>>>()
        .map_err(|e| Error::db(path, e))
}

/// Index the repository at `root` (canonical): walk, compare, parse what changed, write.
pub(crate) fn index_repository(
    database: &Database,
    root: &Path,
    config: &ProjectConfig,
    force: bool,
    warnings: &mut Vec<String>,
) -> Result<RunStats> {
    let walk = crate::walk::walk(
        root,
        &crate::walk::WalkOptions {
            max_depth: MAX_DEPTH,
            max_files: MAX_FILES,
            // Files over the limit are skipped below, with a warning, not dropped unseen.
            max_file_size: u64::MAX,
            excludes: config.indexer.ignore.clone(),
            allowed_roots: vec![root.to_path_buf()],
            threads: 0,
            metadata: true,
        },
    )?;
    warnings.extend(walk.warnings);
    let conn = database.write(warnings)?;
    db::backfill(&conn, database.path())?;
    let known = load_known(&conn, database.path())?;
    let started = now();
    let mut stats = RunStats::default();
    let mut jobs = Vec::new();
    let mut seen: HashSet<String> = HashSet::with_capacity(walk.files.len());
    for file in &walk.files {
        let Some((lang, ext)) = extractor_for_path(&file.path) else {
            continue;
        };
        let Some(rel) = relative(root, &file.path) else {
            warnings.push(format!(
                "{}: path is not UTF-8, skipped",
                file.path.display()
            ));
            continue;
        };
        if file.size > config.indexer.max_file_size {
            // Not `seen`: indexed before under a larger limit, it is removed.
            warnings.push(too_large(&rel, file.size, config.indexer.max_file_size));
            stats.skipped += 1;
            continue;
        }
        stats.files += 1;
        let entry = known.get(&rel);
        if let Some(k) = entry
            && !force
            && k.mtime == file.mtime
            && k.size == file.size as i64
            && k.mtime < k.indexed_at
        {
            stats.unchanged += 1;
            seen.insert(rel);
            continue;
        }
        seen.insert(rel.clone());
        jobs.push(Job {
            rel,
            path: file.path.clone(),
            lang,
            ext,
            known: entry.map(|k| (k.id, if force { String::new() } else { k.hash.clone() })),
        });
    }
    let gone: Vec<(String, i64)> = known
        .iter()
        .filter(|(rel, _)| !seen.contains(*rel))
        .map(|(rel, k)| (rel.clone(), k.id))
        .collect();
    if jobs.is_empty() && gone.is_empty() {
        stats.symbols = count(&conn, "symbols", database.path())?;
        stats.refs = count(&conn, "refs", database.path())?;
        return Ok(stats);
    }
    write_run(
        &conn,
        database.path(),
        root,
        jobs,
        gone,
        started,
        config,
        &mut stats,
        warnings,
    )?;
    Ok(stats)
}

/// Re-index exactly `files` (paths inside `root`): changed ones re-parsed, missing ones
/// removed, no walk.
pub(crate) fn update_files(
    database: &Database,
    root: &Path,
    files: &[PathBuf],
    config: &ProjectConfig,
    warnings: &mut Vec<String>,
) -> Result<RunStats> {
    let conn = database.write(warnings)?;
    db::backfill(&conn, database.path())?;
    let started = now();
    let mut stats = RunStats::default();
    let mut jobs = Vec::new();
    let mut gone = Vec::new();
    let mut seen = BTreeSet::new();
    for given in files {
        let path = if given.is_absolute() {
            given.clone()
        } else {
            root.join(given)
        };
        // Canonical when it exists (links resolved); as given when it was deleted.
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        let Some(rel) = relative(root, &path) else {
            warnings.push(format!(
                "{}: not inside {}, skipped",
                given.display(),
                root.display()
            ));
            continue;
        };
        if !seen.insert(rel.clone()) {
            continue;
        }
        let known: Option<(i64, String)> = conn
            .query_row(
                "SELECT id, hash FROM files WHERE rel_path = ?1",
                [&rel],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })
            .map_err(|e| Error::db(database.path(), e))?;
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => {
                let Some((lang, ext)) = extractor_for_path(&path) else {
                    warnings.push(format!("{rel}: no language for this extension, skipped"));
                    stats.skipped += 1;
                    continue;
                };
                if meta.len() > config.indexer.max_file_size {
                    warnings.push(too_large(&rel, meta.len(), config.indexer.max_file_size));
                    stats.skipped += 1;
                    if let Some((id, _)) = known {
                        gone.push((rel, id));
                    }
                    continue;
                }
                stats.files += 1;
                jobs.push(Job {
                    rel,
                    path,
                    lang,
                    ext,
                    known,
                });
            }
            _ => match known {
                Some((id, _)) => gone.push((rel, id)),
                None => {
                    warnings.push(format!("{rel}: no such file, nothing to remove"));
                    stats.skipped += 1;
                }
            },
        }
    }
    write_run(
        &conn,
        database.path(),
        root,
        jobs,
        gone,
        started,
        config,
        &mut stats,
        warnings,
    )?;
    Ok(stats)
}

fn count(conn: &Connection, table: &str, path: &Path) -> Result<u64> {
    let key = format!("count_{table}");
    if let Some(v) = db::meta(conn, &key).map_err(|e| Error::db(path, e))?
        && let Ok(n) = v.parse()
    {
        return Ok(n);
    }
    let n: i64 = conn
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .map_err(|e| Error::db(path, e))?;
    Ok(n as u64)
}

/// Why a file over the size limit is not indexed.
fn too_large(rel: &str, size: u64, max_size: u64) -> String {
    format!("{rel}: {size} bytes, over the {max_size} byte limit, skipped")
}

/// Read, hash and parse one file (on a worker thread).
fn process(job: &Job, max_size: u64) -> Outcome {
    let bytes = match std::fs::read(&job.path) {
        Ok(b) => b,
        Err(e) => return Outcome::Skipped(format!("{}: cannot read: {e}", job.rel)),
    };
    let meta = std::fs::metadata(&job.path).ok();
    let mtime = meta.as_ref().map_or(0, crate::walk::mtime_of);
    let size = bytes.len() as i64;
    if bytes.len() as u64 > max_size {
        return Outcome::Skipped(too_large(&job.rel, bytes.len() as u64, max_size));
    }
    if memchr::memchr(0, &bytes[..bytes.len().min(BINARY_SNIFF)]).is_some() {
        return Outcome::Skipped(format!("{}: binary file, skipped", job.rel));
    }
    let hash = hex(&Sha256::digest(&bytes));
    if job.known.as_ref().is_some_and(|(_, h)| *h == hash) {
        return Outcome::Same { mtime, size };
    }
    let text = String::from_utf8_lossy(&bytes);
    match extract_source(job.lang, &job.ext, &text) {
        Ok(file) => {
            let mut tokens = Vec::new();
            collect_tokens(&file.symbols, &mut tokens);
            Outcome::Parsed {
                hash,
                mtime,
                size,
                file,
                tokens,
                bytes: bytes.len() as u64,
            }
        }
        Err(e) => Outcome::Skipped(format!("{}: {e}", job.rel)),
    }
}

/// The `name_tokens` of `symbols` and their children, depth first (the order they are
/// written in).
fn collect_tokens(symbols: &[ExtractedSymbol], out: &mut Vec<String>) {
    for symbol in symbols {
        out.push(name_tokens(&symbol.name));
        collect_tokens(&symbol.children, out);
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

#[allow(clippy::too_many_arguments)]
fn write_run(
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
            let mut writer = Writer::new(conn, bulk_fts, &mut touched);
            if cold {
                writer.cold = Some(Cold {
                    fts: bulk_fts,
                    ..Cold::default()
                });
            }
            let mut failure = None;
            for (i, outcome) in rx {
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
            match failure {
                Some(e) => Err(dberr(e)),
                None => Ok(()),
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
        match cold_state {
            Some(state) => link_cold(conn, state, || {
                for (_, sql) in &of_symbols {
                    conn.execute_batch(sql)?;
                }
                Ok(())
            })
            .map_err(dberr)?,
            None => resolve(conn, cold, &changed_files, &touched).map_err(dberr)?,
        }
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

/// Rows added (or, negative, removed) by a run, so totals need no full count.
#[derive(Default)]
struct Delta {
    symbols: i64,
    refs: i64,
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
    Ok(())
}

/// The names a run defined anew or removed: references to them may now resolve
/// differently.
#[derive(Default)]
struct Touched {
    /// Whether to collect them at all (not in a cold run, which resolves everything).
    track: bool,
    /// Names of symbols inserted into the index: a new definition can be a better target
    /// for references already resolved elsewhere.
    added: HashSet<String>,
    /// Names of symbols removed: references to them were unlinked (`ON DELETE SET NULL`).
    removed: HashSet<String>,
}

struct Writer<'c, 't> {
    conn: &'c Connection,
    delta: Delta,
    touched: &'t mut Touched,
    /// Whether the FTS insert trigger is off for this run (see [`write_run`]).
    bulk_fts: bool,
    /// With `bulk_fts`: files new in this run, and symbols inserted into known files.
    new_files: Vec<i64>,
    inserted: Vec<i64>,
    /// In a cold run: what linking the references needs, gathered while writing.
    cold: Option<Cold>,
}

/// A cold run (an empty index) keeps its references in memory until every symbol is
/// written, then inserts them already linked — one write per reference, no `UPDATE` pass.
#[derive(Default)]
struct Cold {
    /// Whether the writer fills the FTS index itself (its insert trigger is off).
    fts: bool,
    /// Symbols by name: (id, file, kind), in id order.
    by_name: HashMap<String, Vec<(i64, i64, Option<SymbolKind>)>>,
    /// Every file written, (id, relative path), in id order.
    files: Vec<(i64, String)>,
    /// The modules each file imports.
    imports: HashMap<i64, Vec<String>>,
    /// The references, in the order they are inserted.
    refs: Vec<PendingRef>,
}

/// A reference of a cold run waiting for its target.
struct PendingRef {
    file: i64,
    from: Option<i64>,
    name: String,
    kind: RefKind,
    line: u32,
}

/// A symbol as stored before its file was re-parsed.
struct OldSymbol {
    id: i64,
    name: String,
    line_start: u32,
    line_end: u32,
    signature: Option<String>,
    doc_comment: Option<String>,
}

/// A changed file's symbols before the run, by identity: the path of (kind, name,
/// ordinal among same-named siblings) from the top level down. A symbol that keeps its
/// identity keeps its row and id, so references elsewhere that point at it stay linked.
struct OldSymbols {
    by_key: HashMap<String, OldSymbol>,
}

/// The identity of a symbol under `parent_key`: its kind, name and how many same-kind,
/// same-named siblings come before it.
fn symbol_key(parent_key: &str, kind: &str, name: &str, ordinal: u32) -> String {
    format!("{parent_key}\u{1f}{kind}\u{1e}{name}\u{1e}{ordinal}")
}

impl OldSymbols {
    fn none() -> OldSymbols {
        OldSymbols {
            by_key: HashMap::new(),
        }
    }

    fn load(conn: &Connection, file_id: i64) -> rusqlite::Result<OldSymbols> {
        let mut stmt = conn.prepare_cached(
            "SELECT id, parent_symbol_id, name, kind, line_start, line_end, signature, doc_comment
             FROM symbols WHERE file_id = ?1 ORDER BY id",
        )?;
        let mut keys: HashMap<i64, String> = HashMap::new();
        let mut ordinals: HashMap<String, u32> = HashMap::new();
        let mut by_key = HashMap::new();
        // A parent is always inserted before its children, so id order visits it first;
        // same-named siblings are in id order as they were in source order.
        let rows = stmt.query_map([file_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<i64>>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                OldSymbol {
                    id: r.get(0)?,
                    name: r.get(2)?,
                    line_start: r.get(4)?,
                    line_end: r.get(5)?,
                    signature: r.get(6)?,
                    doc_comment: r.get(7)?,
                },
            ))
        })?;
        for row in rows {
            let (id, parent, name, kind, old) = row?;
            let parent_key = parent
                .and_then(|p| keys.get(&p).cloned())
                .unwrap_or_default();
            let base = symbol_key(&parent_key, &kind, &name, 0);
            let ordinal = ordinals.entry(base).or_insert(0);
            let key = symbol_key(&parent_key, &kind, &name, *ordinal);
            *ordinal += 1;
            keys.insert(id, key.clone());
            by_key.insert(key, old);
        }
        Ok(OldSymbols { by_key })
    }
}

impl<'c, 't> Writer<'c, 't> {
    fn new(conn: &'c Connection, bulk_fts: bool, touched: &'t mut Touched) -> Writer<'c, 't> {
        Writer {
            conn,
            delta: Delta::default(),
            touched,
            bulk_fts,
            new_files: Vec::new(),
            inserted: Vec::new(),
            cold: None,
        }
    }

    /// Write a file new to an empty index (a cold run): its rows, its FTS rows when the
    /// trigger is off, and its references into memory (see [`Cold`]).
    #[allow(clippy::too_many_arguments)]
    fn put_new_file(
        &mut self,
        job: &Job,
        hash: &str,
        mtime: i64,
        size: i64,
        started: i64,
        file: ExtractedFile,
        tokens: Vec<String>,
    ) -> rusqlite::Result<i64> {
        let conn = self.conn;
        conn.prepare_cached(
            "INSERT INTO files (rel_path, language, hash, mtime, size, indexed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![job.rel, job.lang.name(), hash, mtime, size, started])?;
        let file_id = conn.last_insert_rowid();
        let mut import = conn.prepare_cached(
            "INSERT OR IGNORE INTO file_imports (file_id, module) VALUES (?1, ?2)",
        )?;
        for module in &file.imports {
            import.execute(params![file_id, module])?;
        }
        let Some(cold) = self.cold.as_mut() else {
            return Ok(file_id);
        };
        cold.files.push((file_id, job.rel.clone()));
        cold.imports.insert(file_id, file.imports);
        self.delta.refs += file.references.len() as i64;
        cold.refs
            .extend(file.references.into_iter().map(|r| PendingRef {
                file: file_id,
                from: None,
                name: r.to_name,
                kind: r.kind,
                line: r.line,
            }));
        let mut tokens = tokens.into_iter();
        for symbol in file.symbols {
            self.put_new_symbol(file_id, &job.rel, None, symbol, &mut tokens)?;
        }
        Ok(file_id)
    }

    /// Insert `symbol` and its children (a cold run).
    fn put_new_symbol(
        &mut self,
        file_id: i64,
        rel: &str,
        parent: Option<i64>,
        symbol: ExtractedSymbol,
        tokens: &mut std::vec::IntoIter<String>,
    ) -> rusqlite::Result<()> {
        let conn = self.conn;
        let tokens_here = tokens.next().unwrap_or_else(|| name_tokens(&symbol.name));
        let kind = symbol.kind.as_str();
        conn.prepare_cached(
            "INSERT INTO symbols (file_id, parent_symbol_id, name, kind, line_start, line_end, signature, doc_comment, name_tokens)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .execute(params![
            file_id,
            parent,
            symbol.name,
            kind,
            symbol.line_start,
            symbol.line_end,
            symbol.signature,
            symbol.doc_comment,
            tokens_here,
        ])?;
        let id = conn.last_insert_rowid();
        self.delta.symbols += 1;
        let Some(cold) = self.cold.as_mut() else {
            return Ok(());
        };
        if cold.fts {
            conn.prepare_cached(
                "INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path, name_tokens)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![id, symbol.name, symbol.doc_comment, kind, rel, tokens_here])?;
        }
        self.delta.refs += symbol.references.len() as i64;
        cold.refs
            .extend(symbol.references.into_iter().map(|r| PendingRef {
                file: file_id,
                from: Some(id),
                name: r.to_name,
                kind: r.kind,
                line: r.line,
            }));
        match cold.by_name.get_mut(&symbol.name) {
            Some(found) => found.push((id, file_id, Some(symbol.kind))),
            None => {
                cold.by_name
                    .insert(symbol.name, vec![(id, file_id, Some(symbol.kind))]);
            }
        }
        for child in symbol.children {
            self.put_new_symbol(file_id, rel, Some(id), child, tokens)?;
        }
        Ok(())
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
                        self.delta.refs -= conn
                            .prepare_cached("SELECT count(*) FROM refs WHERE file_id = ?1")?
                            .query_row([id], |r| r.get::<_, i64>(0))?;
                        conn.prepare_cached("DELETE FROM refs WHERE file_id = ?1")?
                            .execute([id])?;
                        conn.prepare_cached("DELETE FROM file_imports WHERE file_id = ?1")?
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
        let id = match old.by_key.remove(&key) {
            Some(before) => {
                if before.line_start != symbol.line_start
                    || before.line_end != symbol.line_end
                    || before.signature != symbol.signature
                    || before.doc_comment != symbol.doc_comment
                {
                    conn.prepare_cached(
                        "UPDATE symbols SET line_start = ?1, line_end = ?2, signature = ?3, doc_comment = ?4
                         WHERE id = ?5",
                    )?
                    .execute(params![
                        symbol.line_start,
                        symbol.line_end,
                        symbol.signature,
                        symbol.doc_comment,
                        before.id
                    ])?;
                }
                before.id
            }
            None => {
                conn.prepare_cached(
                    "INSERT INTO symbols (file_id, parent_symbol_id, name, kind, line_start, line_end, signature, doc_comment, name_tokens)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
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
                ])?;
                let id = conn.last_insert_rowid();
                self.delta.symbols += 1;
                if self.touched.track && !self.touched.added.contains(&symbol.name) {
                    self.touched.added.insert(symbol.name.clone());
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
        "INSERT INTO refs (file_id, from_symbol_id, to_name, kind, line) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for r in refs {
        stmt.execute(params![file_id, from, r.to_name, r.kind.as_str(), r.line])?;
    }
    delta.refs += refs.len() as i64;
    Ok(())
}

/// The module-path segments a file's import could name a file by (`./user_service` →
/// `user_service`; `crate::code::db` → `crate`, `code`, `db`).
fn module_segments(module: &str) -> impl Iterator<Item = &str> {
    module
        .split(['.', ':', '/', '\\', '<', '>', '"', '\''])
        .filter(|s| !s.is_empty() && *s != "crate" && *s != "super" && *s != "self")
}

/// The file stem used to match imports: `src/user_service.ts` → `user_service`; an
/// `index`/`mod`/`__init__` file goes by its directory's name.
fn file_keys(rel: &str) -> Vec<String> {
    let mut parts = rel.rsplit('/');
    let name = parts.next().unwrap_or(rel);
    let stem = name.split('.').next().unwrap_or(name);
    let mut keys = vec![stem.to_string()];
    if matches!(stem, "index" | "mod" | "__init__" | "lib")
        && let Some(dir) = parts.next()
    {
        keys.push(dir.to_string());
    }
    keys
}

fn kind_fits(ref_kind: RefKind, kind: Option<SymbolKind>) -> bool {
    let Some(kind) = kind else {
        return false;
    };
    match ref_kind {
        RefKind::Call => matches!(
            kind,
            SymbolKind::Fn | SymbolKind::Method | SymbolKind::Class | SymbolKind::Struct
        ),
        RefKind::TypeRef | RefKind::Extends | RefKind::Implements => kind.is_type(),
        RefKind::Import => kind != SymbolKind::Impl,
    }
}

/// Link references to symbols: in the same file first, then in the files the referring
/// file imports, then anywhere; a symbol of a fitting kind (a function for a call, a type
/// for a type reference) before another, then the first defined.
///
/// Which references: after a cold run, every one. Otherwise those of the files written
/// (their rows are new), the unlinked ones naming a symbol the run removed, and every one
/// naming a symbol the run added (the new definition may fit better than the current
/// target) — so an incremental run links as a fresh index of the same files would.
fn resolve(
    conn: &Connection,
    cold: bool,
    changed: &[i64],
    touched: &Touched,
) -> rusqlite::Result<()> {
    // (ref id, file, name, kind, current target)
    type Row = (i64, i64, String, String, Option<i64>);
    let mut refs: Vec<Row> = Vec::new();
    let row = |r: &rusqlite::Row| -> rusqlite::Result<Row> {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    };
    let (added, removed) = (&touched.added, &touched.removed);
    if cold {
        let mut stmt = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs
             WHERE to_symbol_id IS NULL ORDER BY id",
        )?;
        for r in stmt.query_map([], row)? {
            refs.push(r?);
        }
    } else if changed.len() + added.len() + removed.len() > 2000 {
        let mut stmt = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs ORDER BY id",
        )?;
        let changed: HashSet<i64> = changed.iter().copied().collect();
        for r in stmt.query_map([], row)? {
            let r = r?;
            let unlinked = r.4.is_none() && (changed.contains(&r.1) || removed.contains(&r.2));
            if unlinked || added.contains(&r.2) {
                refs.push(r);
            }
        }
    } else {
        // Read through the indexes, so a one-file update does not scan every reference.
        let mut by_file = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs
             WHERE file_id = ?1 AND to_symbol_id IS NULL",
        )?;
        for file in changed {
            for r in by_file.query_map([file], row)? {
                refs.push(r?);
            }
        }
        let mut unlinked = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs
             WHERE to_name = ?1 AND to_symbol_id IS NULL",
        )?;
        let mut named = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs WHERE to_name = ?1",
        )?;
        let mut names: Vec<(&String, bool)> = removed
            .iter()
            .filter(|n| !added.contains(*n))
            .map(|n| (n, false))
            .chain(added.iter().map(|n| (n, true)))
            .collect();
        names.sort();
        for (name, all) in names {
            let stmt = if all { &mut named } else { &mut unlinked };
            for r in stmt.query_map([name], row)? {
                refs.push(r?);
            }
        }
        refs.sort_by_key(|r| r.0);
        refs.dedup_by_key(|r| r.0);
    }
    if refs.is_empty() {
        return Ok(());
    }
    let wanted: HashSet<&str> = refs.iter().map(|r| r.2.as_str()).collect();
    if wanted.len() <= 2000 {
        return resolve_by_tiers(conn, &refs);
    }
    // Candidate symbols by name.
    let mut by_name: HashMap<String, Vec<(i64, i64, Option<SymbolKind>)>> = HashMap::new();
    {
        let mut stmt = conn.prepare("SELECT id, file_id, kind, name FROM symbols ORDER BY id")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            ))
        })?;
        for row in rows {
            let (id, file, kind, name) = row?;
            if wanted.contains(name.as_str()) {
                by_name
                    .entry(name)
                    .or_default()
                    .push((id, file, SymbolKind::parse(&kind)));
            }
        }
    }
    // Which files a referring file imports: read when a reference needs it (a name
    // defined in several files, none of them the referring one).
    let mut keys: Option<HashMap<String, Vec<i64>>> = None;
    let mut imported: HashMap<i64, HashSet<i64>> = HashMap::new();
    // Per name: its symbols grouped by file (each group in id order), and per reference
    // kind the best symbol anywhere, computed once — so a name defined in thousands of
    // files costs a few lookups per reference, not a scan.
    let candidates: HashMap<&str, Candidates> = by_name
        .iter()
        .map(|(name, symbols)| (name.as_str(), Candidates::new(symbols)))
        .collect();
    let mut update = conn.prepare_cached("UPDATE refs SET to_symbol_id = ?1 WHERE id = ?2")?;
    for (ref_id, file, name, kind, current) in &refs {
        let Some(found) = candidates.get(name.as_str()) else {
            continue;
        };
        let ref_kind = RefKind::parse(kind).unwrap_or(RefKind::Call);
        let mut target = found.best_in(ref_kind, std::iter::once(*file));
        // With all candidates in one file, preferring imported files changes nothing.
        if target.is_none() && found.by_file.len() > 1 {
            let imports = imports_of(conn, *file, &mut keys, &mut imported)?;
            target = if imports.len() <= found.by_file.len() {
                found.best_in(ref_kind, imports.iter().copied())
            } else {
                found.best_in(
                    ref_kind,
                    found
                        .by_file
                        .keys()
                        .copied()
                        .filter(|f| imports.contains(f)),
                )
            };
        }
        let target = target.or_else(|| found.best_anywhere(ref_kind));
        if target.is_some() && target != *current {
            update.execute(params![target, ref_id])?;
        }
    }
    Ok(())
}

/// A symbol that may be a reference's target: (id, file, kind).
type Candidate = (i64, i64, Option<SymbolKind>);
/// The first symbol of a name per kind (in `SymbolKind::ALL` order), and of any kind.
type FirstOfKinds = ([Option<i64>; 13], i64);

/// Imported files probed one by one for a name; with more, the name's symbols are read
/// and filtered instead.
const MAX_IMPORT_PROBES: usize = 64;

/// [`resolve`] for a few names (a small update): per reference, indexed lookups tier by
/// tier — the symbols of that name in the same file, in each imported file, then the
/// first of each kind anywhere — instead of reading every symbol of each name (`new`,
/// `clone` have thousands). Links exactly as [`resolve`]'s scan does.
fn resolve_by_tiers(
    conn: &Connection,
    refs: &[(i64, i64, String, String, Option<i64>)],
) -> rusqlite::Result<()> {
    let mut in_file =
        conn.prepare_cached("SELECT id, kind FROM symbols WHERE file_id = ?1 AND name = ?2")?;
    let mut first_of_kind =
        conn.prepare_cached("SELECT min(id) FROM symbols WHERE name = ?1 AND kind = ?2")?;
    let mut first_of_name = conn.prepare_cached("SELECT min(id) FROM symbols WHERE name = ?1")?;
    let mut of_name =
        conn.prepare_cached("SELECT id, file_id, kind FROM symbols WHERE name = ?1")?;
    let mut update = conn.prepare_cached("UPDATE refs SET to_symbol_id = ?1 WHERE id = ?2")?;
    // Per name: the first symbol of each kind (in `SymbolKind::ALL` order) and the first
    // of any kind; `None` when no symbol has the name.
    let mut anywhere: HashMap<&str, Option<FirstOfKinds>> = HashMap::new();
    let mut keys: Option<HashMap<String, Vec<i64>>> = None;
    let mut imported: HashMap<i64, HashSet<i64>> = HashMap::new();
    let mut named: HashMap<&str, Vec<Candidate>> = HashMap::new();
    // The best of `rows` for `ref_kind`: of a fitting kind first, then the first defined.
    let best = |rows: &mut dyn Iterator<Item = (i64, Option<SymbolKind>)>, ref_kind: RefKind| {
        rows.min_by_key(|(id, kind)| (!kind_fits(ref_kind, *kind), *id))
            .map(|(id, _)| id)
    };
    for (ref_id, file, name, kind, current) in refs {
        let ref_kind = RefKind::parse(kind).unwrap_or(RefKind::Call);
        let firsts = match anywhere.get(name.as_str()) {
            Some(found) => *found,
            None => {
                let mut by_kind = [None; 13];
                for (slot, kind) in by_kind.iter_mut().zip(SymbolKind::ALL) {
                    *slot = first_of_kind.query_row(params![name, kind.as_str()], |r| r.get(0))?;
                }
                // Every stored kind is one of `SymbolKind::ALL`, so the first of any kind
                // is the least of these (the range scan only when there is none).
                let first: Option<i64> = match by_kind.iter().flatten().min() {
                    Some(id) => Some(*id),
                    None => first_of_name.query_row([name], |r| r.get(0))?,
                };
                let found = first.map(|first| (by_kind, first));
                anywhere.insert(name.as_str(), found);
                found
            }
        };
        let Some((by_kind, first)) = firsts else {
            continue;
        };
        let mut in_files = |files: &mut dyn Iterator<Item = i64>| -> rusqlite::Result<Option<i64>> {
            let mut rows = Vec::new();
            for f in files {
                for row in in_file.query_map(params![f, name], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        SymbolKind::parse(&r.get::<_, String>(1)?),
                    ))
                })? {
                    rows.push(row?);
                }
            }
            Ok(best(&mut rows.into_iter(), ref_kind))
        };
        let mut target = in_files(&mut std::iter::once(*file))?;
        if target.is_none() {
            let imports = imports_of(conn, *file, &mut keys, &mut imported)?;
            target = if imports.len() <= MAX_IMPORT_PROBES {
                in_files(&mut imports.iter().copied())?
            } else {
                if !named.contains_key(name.as_str()) {
                    let rows = of_name
                        .query_map([name], |r| {
                            Ok((
                                r.get(0)?,
                                r.get(1)?,
                                SymbolKind::parse(&r.get::<_, String>(2)?),
                            ))
                        })?
                        .collect::<rusqlite::Result<_>>()?;
                    named.insert(name.as_str(), rows);
                }
                let rows = &named[name.as_str()];
                best(
                    &mut rows
                        .iter()
                        .filter(|(_, f, _)| imports.contains(f))
                        .map(|(id, _, kind)| (*id, *kind)),
                    ref_kind,
                )
            };
        }
        let target = target.or_else(|| {
            SymbolKind::ALL
                .iter()
                .zip(by_kind)
                .filter(|(kind, _)| kind_fits(ref_kind, Some(**kind)))
                .filter_map(|(_, id)| id)
                .min()
                .or(Some(first))
        });
        if target.is_some() && target != *current {
            update.execute(params![target, ref_id])?;
        }
    }
    Ok(())
}

/// The files `file` imports (cached in `imported`; `keys` maps file stems to files, read
/// on first use).
fn imports_of<'m>(
    conn: &Connection,
    file: i64,
    keys: &mut Option<HashMap<String, Vec<i64>>>,
    imported: &'m mut HashMap<i64, HashSet<i64>>,
) -> rusqlite::Result<&'m HashSet<i64>> {
    let entry = match imported.entry(file) {
        std::collections::hash_map::Entry::Occupied(e) => return Ok(e.into_mut()),
        std::collections::hash_map::Entry::Vacant(e) => e,
    };
    if keys.is_none() {
        let mut stmt = conn.prepare_cached("SELECT id, rel_path FROM files")?;
        let rows: Vec<(i64, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        *keys = Some(file_key_map(
            rows.iter().map(|(id, rel)| (*id, rel.as_str())),
        ));
    }
    let mut set = HashSet::new();
    if let Some(keys) = keys.as_ref() {
        let mut stmt = conn.prepare_cached("SELECT module FROM file_imports WHERE file_id = ?1")?;
        let modules: Vec<String> = stmt
            .query_map([file], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        set = imported_files(&modules, keys);
    }
    Ok(entry.insert(set))
}

/// The files the import `modules` name, by the stems in `keys`.
fn imported_files(modules: &[String], keys: &HashMap<String, Vec<i64>>) -> HashSet<i64> {
    let mut set = HashSet::new();
    for module in modules {
        for segment in module_segments(module) {
            if let Some(ids) = keys.get(segment) {
                set.extend(ids.iter().copied());
            }
        }
    }
    set
}

/// File stems to files (what [`imported_files`] looks segments up in).
fn file_key_map<'a>(files: impl Iterator<Item = (i64, &'a str)>) -> HashMap<String, Vec<i64>> {
    let mut map: HashMap<String, Vec<i64>> = HashMap::new();
    for (id, rel) in files {
        for key in file_keys(rel) {
            map.entry(key).or_default().push(id);
        }
    }
    map
}

/// Link and insert the references of a cold run (see [`Cold`]), as [`resolve`] links
/// them: the same file, then imported files, then anywhere.
///
/// The targets are computed on another thread while this one runs `meanwhile` (creating
/// an index of the symbols), then the references are inserted here.
fn link_cold(
    conn: &Connection,
    cold: Cold,
    meanwhile: impl FnOnce() -> rusqlite::Result<()>,
) -> rusqlite::Result<()> {
    // Resolution runs on another thread and hands its targets over in chunks, so the
    // writer inserts the first references while the last are still being resolved.
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Vec<Option<i64>>>(4);
        let cold = &cold;
        let linking = scope.spawn(move || cold_targets(cold, |chunk| tx.send(chunk).is_ok()));
        let written = meanwhile().and_then(|()| {
            let mut refs = cold.refs.iter();
            let mut insert = RefInserter::new(conn);
            for chunk in rx {
                for (target, r) in chunk.into_iter().zip(refs.by_ref()) {
                    insert.push(r, target)?;
                }
            }
            insert.flush()
        });
        // Dropping the receiver (above, or here on an error) stops the resolution early.
        if let Err(e) = linking.join() {
            std::panic::resume_unwind(e);
        }
        written
    })
}

/// How many references a cold run resolves before handing their targets to the writer.
const LINK_CHUNK: usize = 16 * 1024;

/// Inserts a cold run's references many rows to a statement (one `INSERT … VALUES`
/// step per [`RefInserter::ROWS`] rows instead of one per row), in the order given.
struct RefInserter<'c, 'r> {
    conn: &'c Connection,
    pending: Vec<(&'r PendingRef, Option<i64>)>,
    /// The statement of [`RefInserter::ROWS`] rows.
    full: String,
}

impl<'c, 'r> RefInserter<'c, 'r> {
    const ROWS: usize = 64;

    fn new(conn: &'c Connection) -> RefInserter<'c, 'r> {
        RefInserter {
            conn,
            pending: Vec::with_capacity(Self::ROWS),
            full: Self::sql(Self::ROWS),
        }
    }

    fn sql(rows: usize) -> String {
        let values = vec!["(?, ?, ?, ?, ?, ?)"; rows].join(", ");
        format!(
            "INSERT INTO refs (file_id, from_symbol_id, to_name, to_symbol_id, kind, line) VALUES {values}"
        )
    }

    fn push(&mut self, r: &'r PendingRef, target: Option<i64>) -> rusqlite::Result<()> {
        self.pending.push((r, target));
        if self.pending.len() == Self::ROWS {
            self.flush()?;
        }
        Ok(())
    }

    /// Insert the rows pushed since the last statement.
    fn flush(&mut self) -> rusqlite::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut insert = if self.pending.len() == Self::ROWS {
            self.conn.prepare_cached(&self.full)?
        } else {
            self.conn.prepare_cached(&Self::sql(self.pending.len()))?
        };
        for (i, (r, target)) in self.pending.drain(..).enumerate() {
            let at = i * 6;
            insert.raw_bind_parameter(at + 1, r.file)?;
            insert.raw_bind_parameter(at + 2, r.from)?;
            insert.raw_bind_parameter(at + 3, &r.name)?;
            insert.raw_bind_parameter(at + 4, target)?;
            insert.raw_bind_parameter(at + 5, r.kind.as_str())?;
            insert.raw_bind_parameter(at + 6, r.line)?;
        }
        insert.raw_execute()?;
        Ok(())
    }
}

/// The target of each reference of a cold run, in order, handed to `send` in chunks;
/// stops when `send` says so (returns `false`).
fn cold_targets(cold: &Cold, mut send: impl FnMut(Vec<Option<i64>>) -> bool) {
    let keys = file_key_map(cold.files.iter().map(|(id, rel)| (*id, rel.as_str())));
    let candidates: HashMap<&str, Candidates> = cold
        .by_name
        .iter()
        .map(|(name, symbols)| (name.as_str(), Candidates::new(symbols)))
        .collect();
    let mut imported: HashMap<i64, HashSet<i64>> = HashMap::new();
    let no_modules = Vec::new();
    let mut targets = Vec::with_capacity(LINK_CHUNK);
    for r in &cold.refs {
        let target = candidates.get(r.name.as_str()).and_then(|found| {
            let target = found.best_in(r.kind, std::iter::once(r.file));
            if target.is_some() || found.by_file.len() <= 1 {
                return target.or_else(|| found.best_anywhere(r.kind));
            }
            let imports = imported.entry(r.file).or_insert_with(|| {
                imported_files(cold.imports.get(&r.file).unwrap_or(&no_modules), &keys)
            });
            let target = if imports.len() <= found.by_file.len() {
                found.best_in(r.kind, imports.iter().copied())
            } else {
                found.best_in(
                    r.kind,
                    found
                        .by_file
                        .keys()
                        .copied()
                        .filter(|f| imports.contains(f)),
                )
            };
            target.or_else(|| found.best_anywhere(r.kind))
        });
        targets.push(target);
        if targets.len() == LINK_CHUNK
            && !send(std::mem::replace(
                &mut targets,
                Vec::with_capacity(LINK_CHUNK),
            ))
        {
            return;
        }
    }
    if !targets.is_empty() {
        send(targets);
    }
}

/// The symbols of one name, for resolution.
struct Candidates {
    by_file: HashMap<i64, Vec<(i64, Option<SymbolKind>)>>,
    /// The best symbol anywhere, per reference kind (in [`REF_KINDS`] order).
    anywhere: [Option<i64>; 5],
}

const REF_KINDS: [RefKind; 5] = [
    RefKind::Call,
    RefKind::Import,
    RefKind::TypeRef,
    RefKind::Extends,
    RefKind::Implements,
];

impl Candidates {
    fn new(symbols: &[(i64, i64, Option<SymbolKind>)]) -> Self {
        let mut by_file: HashMap<i64, Vec<(i64, Option<SymbolKind>)>> = HashMap::new();
        for (id, file, kind) in symbols {
            by_file.entry(*file).or_default().push((*id, *kind));
        }
        // Symbols are in id order: the first of a fitting kind, else the first.
        let anywhere = REF_KINDS.map(|ref_kind| {
            symbols
                .iter()
                .find(|(_, _, kind)| kind_fits(ref_kind, *kind))
                .or_else(|| symbols.first())
                .map(|(id, _, _)| *id)
        });
        Candidates { by_file, anywhere }
    }

    /// The best symbol in `files`: one of a fitting kind first, then the first defined.
    fn best_in(&self, ref_kind: RefKind, files: impl Iterator<Item = i64>) -> Option<i64> {
        files
            .filter_map(|f| self.by_file.get(&f))
            .flatten()
            .min_by_key(|(id, kind)| (!kind_fits(ref_kind, *kind), *id))
            .map(|(id, _)| *id)
    }

    /// The best symbol anywhere.
    fn best_anywhere(&self, ref_kind: RefKind) -> Option<i64> {
        let i = REF_KINDS.iter().position(|k| *k == ref_kind).unwrap_or(0);
        self.anywhere[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                format!("/// Number {i}.\npub fn f{i}() {{ shared(); }}\npub struct S{i};\n"),
            )
            .unwrap();
        }
        std::fs::write(root.join("src/shared.rs"), "pub fn shared() {}\n").unwrap();
        let root = std::fs::canonicalize(&root).unwrap();
        let database = Database::new(dir.path().join("index.db"), db::SCHEMA);
        let mut warnings = Vec::new();
        let config = ProjectConfig::default();
        let stats = index_repository(&database, &root, &config, false, &mut warnings).unwrap();
        assert_eq!(stats.new, files + 1, "{warnings:?}");

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
}
