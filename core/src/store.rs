//! Opening SQLite databases the one way cc-search does it.
//!
//! Every database is opened through [`open`]: sqlite-vec registered, WAL journal, a busy
//! timeout, foreign keys on, migrations applied by `PRAGMA user_version`, and a database
//! file that SQLite reports as corrupt or not a database moved aside
//! (`<name>.corrupt-<unix-seconds>`) and rebuilt empty, with a warning.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, Once};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags, TransactionBehavior};

use crate::error::{Error, Result};

/// How long a statement waits for another connection's lock before failing.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// A schema: the ordered migrations of one database. Migration `i` (0-based) takes the
/// database from `user_version = i` to `i + 1`; each runs in its own transaction.
pub type Migrations = &'static [&'static str];

static REGISTER_VEC: Once = Once::new();

/// Register sqlite-vec with every connection opened from now on in this process.
pub fn register_sqlite_vec() {
    REGISTER_VEC.call_once(|| {
        // SAFETY: `sqlite3_vec_init` has the signature of an SQLite extension entry point;
        // `sqlite3_auto_extension` takes it as the generic `void(*)(void)` and calls it
        // with the right arguments for each new connection.
        unsafe {
            type EntryPoint = unsafe extern "C" fn(
                *mut rusqlite::ffi::sqlite3,
                *mut *mut std::os::raw::c_char,
                *const rusqlite::ffi::sqlite3_api_routines,
            ) -> std::os::raw::c_int;
            let init: EntryPoint = std::mem::transmute::<*const (), EntryPoint>(
                sqlite_vec::sqlite3_vec_init as *const (),
            );
            rusqlite::ffi::sqlite3_auto_extension(Some(init));
        }
    });
}

/// Open (creating if needed) the database at `path` and bring it to the latest schema.
///
/// A file SQLite cannot use as a database (corrupt, or not a database at all) is renamed
/// to `<path>.corrupt-<unix-seconds>` together with its `-wal`/`-shm` files, a fresh
/// database is created in its place, and a warning saying so is pushed to `warnings`.
pub fn open(path: &Path, migrations: Migrations, warnings: &mut Vec<String>) -> Result<Connection> {
    open_with_patience(path, migrations, BUSY_TIMEOUT, warnings)
}

/// [`open`], waiting at most `patience` for locks other connections hold.
pub fn open_with_patience(
    path: &Path,
    migrations: Migrations,
    patience: Duration,
    warnings: &mut Vec<String>,
) -> Result<Connection> {
    register_sqlite_vec();
    if let Some(parent) = path.parent() {
        create_dir_all(parent)?;
    }
    match open_retrying(path, migrations, patience) {
        Ok(conn) => Ok(conn),
        Err(e) if is_corruption(&e) => {
            let aside = move_aside(path)?;
            let message = format!(
                "database {} was corrupt ({e}); moved it to {} and started a new one",
                path.display(),
                aside.display()
            );
            tracing::warn!("{message}");
            warnings.push(message);
            open_retrying(path, migrations, patience).map_err(|e| Error::db(path, e))
        }
        // A data root this process may not write (a read-only mount, another user's
        // files): searches still read the index as it was last written.
        Err(e) if is_read_only(&e) && path.is_file() => {
            open_read_only(path, migrations).map_err(|_| Error::db(path, e))
        }
        Err(e) => Err(Error::db(path, e)),
    }
}

/// Whether `e` says the file, or the directory its `-wal` and `-shm` files go in, cannot
/// be written.
fn is_read_only(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen)
    )
}

/// `path` opened read-only and immutable, for when it cannot be opened for writing.
/// SQLite reads a WAL database read-only only when its `-wal` and `-shm` files exist or
/// can be created; immutable, it reads the database file alone, which holds everything
/// once the last writer closed. Writes through the connection fail with "attempt to
/// write a readonly database". A schema older than `migrations` cannot be brought up to
/// date without writing, so it is refused.
fn open_read_only(path: &Path, migrations: Migrations) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(file_uri(path, "immutable=1"), flags)?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if usize::try_from(version).unwrap_or(0) < migrations.len() {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_READONLY),
            Some("read-only, and its schema needs an upgrade".into()),
        ));
    }
    conn.execute_batch("PRAGMA foreign_keys = ON;")?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    Ok(conn)
}

/// An SQLite `file:` URI for `path` with `query`: every byte but unreserved ones and `/`
/// percent-encoded, so `?`, `#` and `%` in a path stay part of it.
fn file_uri(path: &Path, query: &str) -> String {
    let mut uri = String::from("file:");
    for &b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push('?');
    uri.push_str(query);
    uri
}

/// [`open_and_migrate`], retried while another connection is setting the file up.
///
/// Switching a new file to WAL and the first migration take locks that SQLite may refuse
/// at once rather than through the busy handler (to avoid deadlock); those attempts are
/// retried for up to `patience`.
fn open_retrying(
    path: &Path,
    migrations: Migrations,
    patience: Duration,
) -> rusqlite::Result<Connection> {
    let deadline = std::time::Instant::now() + patience;
    let mut pause = Duration::from_millis(1);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match open_and_migrate(path, migrations, left) {
            Err(e)
                if matches!(
                    e.sqlite_error_code(),
                    Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
                ) && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

fn open_and_migrate(
    path: &Path,
    migrations: Migrations,
    patience: Duration,
) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(patience.min(BUSY_TIMEOUT))?;
    // The first statement reads the header: a non-database file fails here.
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        tracing::debug!("journal_mode is {mode}, not wal");
    }
    conn.execute_batch("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")?;
    conn.set_prepared_statement_cache_capacity(64);
    migrate(&conn, migrations)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    Ok(conn)
}

/// Apply the migrations `conn` has not seen yet, each in its own transaction.
///
/// Each step takes the write lock first (`BEGIN IMMEDIATE`) and reads `user_version`
/// inside it, so processes opening a new database at the same moment apply each step
/// once between them.
fn migrate(conn: &Connection, migrations: Migrations) -> rusqlite::Result<()> {
    let read_version = |conn: &Connection| -> rusqlite::Result<usize> {
        let v: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        Ok(usize::try_from(v).unwrap_or(0))
    };
    if read_version(conn)? >= migrations.len() {
        return Ok(());
    }
    loop {
        conn.execute_batch("BEGIN IMMEDIATE")?;
        let step = || -> rusqlite::Result<bool> {
            let version = read_version(conn)?;
            let Some(sql) = migrations.get(version) else {
                return Ok(false);
            };
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", (version + 1) as i64)?;
            Ok(true)
        };
        match step() {
            Ok(more) => {
                conn.execute_batch("COMMIT")?;
                if !more {
                    return Ok(());
                }
            }
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                return Err(e);
            }
        }
    }
}

/// `std::fs::create_dir_all`, with an error that names what is in the way when a part
/// of `dir` is a file.
pub(crate) fn create_dir_all(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        match dir
            .ancestors()
            .find(|a| std::fs::metadata(a).is_ok_and(|m| !m.is_dir()))
        {
            Some(file) => Error::io(
                file,
                std::io::Error::new(
                    std::io::ErrorKind::NotADirectory,
                    format!(
                        "is a file, not a directory, so {} cannot be created",
                        dir.display()
                    ),
                ),
            ),
            None => Error::io(
                dir,
                std::io::Error::new(e.kind(), format!("cannot create the directory: {e}")),
            ),
        }
    })
}

/// Write `bytes` to `path` whole or not at all: into a new file beside it (with
/// permissions `mode` where the platform has them, else the default ones), flushed to
/// disk, then renamed over `path`. The directory must exist; it is not synced (see
/// [`sync_dir`]).
pub(crate) fn write_atomically(path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let (temp, mut handle) = create_unique(dir, &format!(".{name}."), ".tmp")?;
    let written = (|| {
        #[cfg(unix)]
        if let Some(mode) = mode {
            use std::os::unix::fs::PermissionsExt;
            handle.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = mode;
        handle.write_all(bytes)?;
        handle.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(Error::io(path, e));
    }
    Ok(())
}

/// A new file `<dir>/<prefix><pid>-<n><suffix>` that did not exist before.
pub(crate) fn create_unique(
    dir: &Path,
    prefix: &str,
    suffix: &str,
) -> Result<(PathBuf, std::fs::File)> {
    static UNIQUE: AtomicU64 = AtomicU64::new(0);
    loop {
        let n = UNIQUE.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{prefix}{}-{n}{suffix}", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(handle) => return Ok((path, handle)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1_000_000 => {}
            Err(e) => return Err(Error::io(&path, e)),
        }
    }
}

/// Make a rename durable: sync the directory that holds it (where the platform can).
pub(crate) fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(handle) = std::fs::File::open(dir) {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Whether `e` says the file is damaged rather than busy, missing or unwritable.
pub fn is_corruption(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
    )
}

fn move_aside(path: &Path) -> Result<PathBuf> {
    let stamp = crate::time::unix_now();
    let aside = PathBuf::from(format!("{}.corrupt-{stamp}", path.display()));
    std::fs::rename(path, &aside).map_err(|e| Error::io(path, e))?;
    for suffix in ["-wal", "-shm"] {
        let side = PathBuf::from(format!("{}{suffix}", path.display()));
        if side.exists() {
            let to = PathBuf::from(format!("{}{suffix}", aside.display()));
            std::fs::rename(&side, &to).map_err(|e| Error::io(&side, e))?;
        }
    }
    Ok(aside)
}

/// Most idle connections a [`Database`] keeps open.
const MAX_IDLE: usize = 4;

/// One database file shared by every thread of an engine: a small pool of connections,
/// opened on demand, and one writer at a time.
///
/// Readers never wait for a writer (WAL); writers queue on [`Database::write`] instead of
/// on SQLite's busy timeout, so a long index run never makes another one fail with
/// "database is locked" — writers of this engine on an in-process lock, writers of other
/// engines and other processes on an OS file lock on `<database>-writer` beside it
/// (released by the OS when its holder dies).
pub struct Database {
    path: PathBuf,
    migrations: Migrations,
    idle: Mutex<Vec<Connection>>,
    writer: Mutex<()>,
    mmap_size: i64,
    /// What the last index runs of this database saw of their trees, and the watches
    /// that tell whether that still holds ([`crate::watch`]).
    fresh: crate::watch::Slot,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl Database {
    /// A database at `path` with schema `migrations`; nothing is opened yet.
    pub fn new(path: PathBuf, migrations: Migrations) -> Database {
        Database {
            path,
            migrations,
            idle: Mutex::new(Vec::new()),
            writer: Mutex::new(()),
            mmap_size: 0,
            fresh: Mutex::default(),
        }
    }

    /// Let SQLite read up to `bytes` of the file through a memory map (`PRAGMA
    /// mmap_size`) instead of `pread` into its page cache. For databases whose searches
    /// scan far more pages than the page cache holds (sqlite-vec's brute-force KNN reads
    /// every vector): it saves a system call and a copy per page. SQLite keeps the map
    /// consistent across its own connections; only truncation of the file by something
    /// other than SQLite (or an I/O error) would fault instead of returning an error.
    pub fn with_mmap(mut self, bytes: i64) -> Database {
        self.mmap_size = bytes;
        self
    }

    /// Copy what the WAL holds into the database file, as far as no reader needs it
    /// (a passive checkpoint: it waits for no one). Readers then read those pages from
    /// the file (through the memory map, where there is one) instead of looking each
    /// one up in the WAL. Best effort: a failure leaves the WAL as it was.
    pub fn checkpoint(&self) {
        if let Ok(conn) = self.read(&mut Vec::new())
            && let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
        {
            tracing::debug!("{}: checkpoint: {e}", self.path.display());
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where an index keeps what its last runs saw of their trees ([`crate::watch`]);
    /// empty until a run puts something there.
    pub(crate) fn fresh(&self) -> &crate::watch::Slot {
        &self.fresh
    }

    /// A connection for reading (or for writes that need no queueing).
    pub fn read(&self, warnings: &mut Vec<String>) -> Result<Pooled<'_>> {
        self.read_with_patience(BUSY_TIMEOUT, warnings)
    }

    /// [`Database::read`], waiting at most `patience` for another connection's locks
    /// when a new connection has to be opened.
    pub fn read_with_patience(
        &self,
        patience: Duration,
        warnings: &mut Vec<String>,
    ) -> Result<Pooled<'_>> {
        let idle = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let conn = match idle {
            Some(conn) => conn,
            None => {
                let conn = open_with_patience(&self.path, self.migrations, patience, warnings)?;
                if self.mmap_size > 0 {
                    conn.pragma_update(None, "mmap_size", self.mmap_size)
                        .map_err(|e| Error::db(&self.path, e))?;
                }
                conn
            }
        };
        Ok(Pooled {
            db: self,
            conn: Some(conn),
            _writer: None,
        })
    }

    /// A connection for writing, held by one caller at a time: in this process (the
    /// writer mutex), and among every engine and process using the file (an OS lock on
    /// `<database>-writer`, waited for without a time limit, like the mutex). What the
    /// holder reads to plan its writes cannot be changed by another cc-search writer
    /// before it commits.
    ///
    /// Its transactions begin `IMMEDIATE`: one that reads before it writes waits for a
    /// writer outside cc-search through the busy timeout, instead of failing at its first
    /// write with "database is locked" because that writer committed after the read.
    pub fn write(&self, warnings: &mut Vec<String>) -> Result<Pooled<'_>> {
        let local = self.writer.lock().map_err(|_| {
            Error::Internal(format!("{}: writer lock poisoned", self.path.display()))
        })?;
        let mut pooled = self.read(warnings)?;
        pooled.set_transaction_behavior(TransactionBehavior::Immediate);
        pooled._writer = Some(Writer {
            _across: self.lock_across_processes(),
            _local: local,
        });
        Ok(pooled)
    }

    /// The OS lock writers of every process queue on; `None` where the file cannot be
    /// created or locked (a read-only data root): SQLite's own locking still applies.
    fn lock_across_processes(&self) -> Option<std::fs::File> {
        let path = PathBuf::from(format!("{}-writer", self.path.display()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .ok()?;
        match file.lock() {
            Ok(()) => Some(file),
            Err(e) => {
                tracing::debug!("{}: no writer lock: {e}", path.display());
                None
            }
        }
    }
}

/// What a writing [`Pooled`] holds: the OS lock (released first, when the file closes),
/// then the in-process one.
struct Writer<'a> {
    _across: Option<std::fs::File>,
    _local: MutexGuard<'a, ()>,
}

/// A connection borrowed from a [`Database`]; returned to the pool when dropped.
pub struct Pooled<'a> {
    db: &'a Database,
    conn: Option<Connection>,
    _writer: Option<Writer<'a>>,
}

impl std::ops::Deref for Pooled<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        // Only `drop` takes the connection out.
        self.conn.as_ref().expect("connection present until drop")
    }
}

impl std::ops::DerefMut for Pooled<'_> {
    fn deref_mut(&mut self) -> &mut Connection {
        self.conn.as_mut().expect("connection present until drop")
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        // Whatever a caller set for itself (a deadline, a shorter wait for locks) does not
        // go back to the pool with the connection, even after a panic.
        conn.set_transaction_behavior(TransactionBehavior::Deferred);
        let reset = conn.progress_handler(0, None::<fn() -> bool>).is_ok()
            && conn.busy_timeout(BUSY_TIMEOUT).is_ok();
        if let Ok(mut idle) = self.db.idle.lock()
            && reset
            && idle.len() < MAX_IDLE
            && conn.is_autocommit()
        {
            idle.push(conn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: Migrations = &[
        "CREATE TABLE t (x INTEGER NOT NULL) STRICT;",
        "ALTER TABLE t ADD COLUMN y TEXT;",
    ];

    #[test]
    fn read_only_fallback_reads_paths_with_uri_characters() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a b?c#d%e&f=g/test.db");
        let mut warnings = Vec::new();
        {
            let conn = open(&path, SCHEMA, &mut warnings).unwrap();
            conn.execute("INSERT INTO t (x, y) VALUES (7, 'seven')", [])
                .unwrap();
        }
        let conn = open_read_only(&path, SCHEMA).unwrap();
        let y: String = conn
            .query_row("SELECT y FROM t WHERE x = 7", [], |r| r.get(0))
            .unwrap();
        assert_eq!(y, "seven");
        let e = conn
            .execute("INSERT INTO t (x) VALUES (8)", [])
            .unwrap_err();
        assert!(e.to_string().contains("readonly"), "{e}");
        // A schema that needs a migration cannot be read without writing.
        const NEWER: Migrations = &[SCHEMA[0], SCHEMA[1], "CREATE TABLE u (z);"];
        assert!(open_read_only(&path, NEWER).is_err());
    }

    #[test]
    fn opens_with_wal_foreign_keys_and_sqlite_vec() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/test.db");
        let mut warnings = Vec::new();
        let conn = open(&path, SCHEMA, &mut warnings).unwrap();
        assert!(warnings.is_empty());
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let fk: i64 = conn
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 2);
        let vec: String = conn
            .query_row("SELECT vec_version()", [], |r| r.get(0))
            .unwrap();
        assert!(vec.starts_with('v'), "{vec}");
        conn.execute("INSERT INTO t (x, y) VALUES (1, 'a')", [])
            .unwrap();
    }

    /// The k nearest as sqlite-vec 0.1.9 published orders them, for the selection the
    /// vendored copy replaced (`min_idx`): per chunk, repeatedly the nearest vector not
    /// yet taken, the last of equals; then merged into the list so far, which wins ties.
    fn published_knn(squared: &[i64], chunk: usize, k: usize) -> Vec<i64> {
        let mut list: Vec<(i64, i64)> = Vec::new(); // (distance², rowid)
        for (c, distances) in squared.chunks(chunk).enumerate() {
            let mut taken = vec![false; distances.len()];
            let mut picked = Vec::new();
            while picked.len() < k.min(distances.len()) {
                let mut best: Option<usize> = None;
                for (i, &d) in distances.iter().enumerate() {
                    if !taken[i] && best.is_none_or(|b| d <= distances[b]) {
                        best = Some(i);
                    }
                }
                let Some(i) = best else { break };
                taken[i] = true;
                picked.push((distances[i], (c * chunk + i + 1) as i64));
            }
            let (mut a, mut b, mut merged) = (0, 0, Vec::new());
            while merged.len() < k && (a < list.len() || b < picked.len()) {
                if b >= picked.len() || (a < list.len() && list[a].0 <= picked[b].0) {
                    merged.push(list[a]);
                    a += 1;
                } else {
                    merged.push(picked[b]);
                    b += 1;
                }
            }
            list = merged;
        }
        list.into_iter().map(|(_, rowid)| rowid).collect()
    }

    #[test]
    fn knn_keeps_the_order_of_the_published_sqlite_vec_ties_included() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(&dir.path().join("v.db"), SCHEMA, &mut Vec::new()).unwrap();
        conn.execute_batch("CREATE VIRTUAL TABLE v USING vec0(embedding float[3], chunk_size=8);")
            .unwrap();
        // 45 vectors of small integer coordinates (exact distances), many equally near
        // the query; rowids 1..=45 fill chunks of 8 in order, the last one in part.
        let mut state = 7u64;
        let mut squared = Vec::new();
        let query = [1f32, 0.0, 2.0];
        for rowid in 1..=45i64 {
            let v: Vec<f32> = (0..3)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((state >> 33) % 3) as f32
                })
                .collect();
            squared.push(
                v.iter()
                    .zip(&query)
                    .map(|(a, b)| ((a - b) * (a - b)) as i64)
                    .sum::<i64>(),
            );
            let blob: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
            conn.execute(
                "INSERT INTO v (rowid, embedding) VALUES (?, ?)",
                rusqlite::params![rowid, blob],
            )
            .unwrap();
        }
        let blob: Vec<u8> = query.iter().flat_map(|x| x.to_le_bytes()).collect();
        for k in 1..=50usize {
            let mut stmt = conn
                .prepare("SELECT rowid FROM v WHERE embedding MATCH ? AND k = ?")
                .unwrap();
            let got: Vec<i64> = stmt
                .query_map(rusqlite::params![blob, k as i64], |r| r.get(0))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            assert_eq!(got, published_knn(&squared, 8, k), "k = {k}");
        }
    }

    #[test]
    fn migrations_resume_from_user_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.db");
        {
            let conn = open(&path, &SCHEMA[..1], &mut Vec::new()).unwrap();
            conn.execute("INSERT INTO t (x) VALUES (7)", []).unwrap();
        }
        let conn = open(&path, SCHEMA, &mut Vec::new()).unwrap();
        let (x, y): (i64, Option<String>) = conn
            .query_row("SELECT x, y FROM t", [], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap();
        assert_eq!((x, y), (7, None));
    }

    #[test]
    fn corrupt_file_is_moved_aside_and_rebuilt() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.db");
        std::fs::write(&path, vec![0x5a; 8192]).unwrap();
        let mut warnings = Vec::new();
        let conn = open(&path, SCHEMA, &mut warnings).unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("corrupt"), "{warnings:?}");
        conn.execute("INSERT INTO t (x) VALUES (1)", []).unwrap();
        let aside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("bad.db.corrupt-"))
            .collect();
        assert_eq!(aside.len(), 1, "{aside:?}");
        // The damaged bytes are kept, not lost.
        let kept = std::fs::read(dir.path().join(&aside[0])).unwrap();
        assert_eq!(kept, vec![0x5a; 8192]);
    }

    #[test]
    fn writers_of_two_engines_on_one_file_queue_and_plan_under_the_lock() {
        // Two `Database`s on one file: what two engines, or two processes, have.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.db");
        let (a, b) = (
            Database::new(path.clone(), SCHEMA),
            Database::new(path, SCHEMA),
        );
        // Each writer plans from what it reads before its transaction (as the code index
        // does), then writes: no plan may be stale, no row lost or doubled.
        let bump = |db: &Database| {
            let conn = db.write(&mut Vec::new()).unwrap();
            let n: i64 = conn
                .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
                .unwrap();
            std::thread::sleep(Duration::from_millis(2));
            conn.execute_batch(&format!(
                "BEGIN IMMEDIATE; INSERT INTO t (x) VALUES ({n}); COMMIT;"
            ))
            .unwrap();
        };
        std::thread::scope(|s| {
            for db in [&a, &b] {
                s.spawn(move || (0..40).for_each(|_| bump(db)));
            }
        });
        let conn = a.read(&mut Vec::new()).unwrap();
        let (n, distinct): (i64, i64) = conn
            .query_row("SELECT count(*), count(DISTINCT x) FROM t", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((n, distinct), (80, 80));
    }

    #[test]
    fn a_writers_transaction_takes_the_write_lock_when_it_begins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.db");
        let db = Database::new(path.clone(), SCHEMA);
        let mut conn = db.write(&mut Vec::new()).unwrap();
        let tx = conn.transaction().unwrap();
        let _: i64 = tx
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        // Another program cannot commit between this read and the write that follows.
        let other = Connection::open(&path).unwrap();
        other.busy_timeout(Duration::ZERO).unwrap();
        let err = other
            .execute("INSERT INTO t (x) VALUES (1)", [])
            .unwrap_err();
        assert_eq!(err.sqlite_error_code(), Some(ErrorCode::DatabaseBusy));
        tx.execute("INSERT INTO t (x) VALUES (2)", []).unwrap();
        tx.commit().unwrap();
        drop(conn);
        // A connection back in the pool begins its transactions as usual again.
        let mut reader = db.read(&mut Vec::new()).unwrap();
        let tx = reader.transaction().unwrap();
        let _: i64 = tx
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        other.execute("INSERT INTO t (x) VALUES (3)", []).unwrap();
    }

    #[test]
    fn pool_reads_while_a_writer_holds_the_write_lock() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::new(dir.path().join("p.db"), SCHEMA);
        let writer = db.write(&mut Vec::new()).unwrap();
        writer
            .execute_batch("BEGIN IMMEDIATE; INSERT INTO t (x) VALUES (1);")
            .unwrap();
        std::thread::scope(|s| {
            s.spawn(|| {
                let reader = db.read(&mut Vec::new()).unwrap();
                let n: i64 = reader
                    .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
                    .unwrap();
                assert_eq!(n, 0, "the reader sees the last committed state");
            })
            .join()
            .unwrap();
        });
        writer.execute_batch("COMMIT").unwrap();
        drop(writer);
        let reader = db.read(&mut Vec::new()).unwrap();
        let n: i64 = reader
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
    }

    #[test]
    fn concurrent_first_opens_migrate_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("race.db");
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| s.spawn(|| open(&path, SCHEMA, &mut Vec::new()).map(|_| ())))
                .collect();
            for h in handles {
                h.join().unwrap().unwrap();
            }
        });
        let conn = open(&path, SCHEMA, &mut Vec::new()).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 2);
    }

    #[test]
    fn unwritable_location_is_a_clear_error_not_a_rebuild() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        // A path under a regular file can never be created.
        let err = open(&file.join("db.sqlite"), SCHEMA, &mut Vec::new()).unwrap_err();
        assert_eq!(err.code(), "io");
        assert!(err.to_string().contains("file"), "{err}");
    }
}
