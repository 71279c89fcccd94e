//! `files.refresh`: bring the index of one root up to date.

use std::collections::HashMap;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, TransactionBehavior, params};

use super::{RefreshRequest, RefreshResponse};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::walk::{WalkOptions, WalkedFile, walk};

const OP: &str = "files.refresh";

/// Fewest added + removed files for which a bulk write is considered.
const BULK_MIN_CHANGES: usize = 256;
/// A bulk write is used when changes × this exceed the rows in the table.
const BULK_SHARE: i64 = 6;

/// Index the files under `request.root`: new files are added, files whose mtime changed
/// are updated, files that are gone are removed — all in one transaction.
pub fn refresh(engine: &Engine, request: RefreshRequest) -> Result<RefreshResponse> {
    let root = super::project_dir(request.root, OP)?;
    let config = engine.config();
    let root_str = utf8(&root)?;
    let max_depth = request
        .max_depth
        .unwrap_or_else(|| config.index.depth_for(root_str));
    let max_files = request
        .max_files
        .unwrap_or(config.index.limits.max_files_per_root);
    if max_files == 0 {
        return Err(Error::invalid(OP, "max_files must be at least 1"));
    }
    let mut excludes = config.index.exclude.patterns.clone();
    excludes.extend(request.exclude);

    let mut warnings = Vec::new();
    let mut conn = engine.files_db().write(&mut warnings)?;
    let db_path = engine.files_db_path();

    let options = WalkOptions {
        max_depth,
        max_files,
        max_file_size: config.index.limits.max_file_size_mb.saturating_mul(1 << 20),
        excludes,
        allowed_roots: watched_roots(&conn).map_err(|e| Error::db(db_path, e))?,
        threads: 0,
    };
    let walked = walk(&root, &options)?;
    warnings.extend(walked.warnings);

    let stats = write_root(&mut conn, root_str, max_depth, &walked.files, &mut warnings)
        .map_err(|e| Error::db(db_path, e))?;
    drop(conn);

    let limit_mb = config.index.limits.warn_threshold_mb;
    if let Ok(meta) = std::fs::metadata(db_path)
        && meta.len() > limit_mb.saturating_mul(1 << 20)
    {
        warnings.push(format!(
            "file index {} is {} MB, over warn_threshold_mb = {limit_mb}",
            db_path.display(),
            meta.len() >> 20
        ));
    }
    Ok(RefreshResponse {
        root: root_str.to_string(),
        files: stats.files,
        added: stats.added,
        updated: stats.updated,
        removed: stats.removed,
        truncated: walked.truncated,
        warnings,
    })
}

struct Stats {
    files: usize,
    added: usize,
    updated: usize,
    removed: usize,
}

fn write_root(
    conn: &mut Connection,
    root: &str,
    max_depth: usize,
    files: &[WalkedFile],
    warnings: &mut Vec<String>,
) -> rusqlite::Result<Stats> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut known: HashMap<String, i64> = {
        let mut stmt = tx.prepare_cached("SELECT path, mtime FROM files_meta WHERE root = ?1")?;
        stmt.query_map([root], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    let mut stats = Stats {
        files: 0,
        added: 0,
        updated: 0,
        removed: 0,
    };
    let mut added = Vec::new();
    let mut updated = Vec::new();
    for file in files {
        let Some(path) = file.path.to_str() else {
            warnings.push(format!(
                "path is not valid UTF-8, skipped: {}",
                file.path.display()
            ));
            continue;
        };
        stats.files += 1;
        match known.remove(path) {
            Some(mtime) if mtime == file.mtime => {}
            Some(_) => updated.push((path, file.mtime)),
            None => added.push((path, file)),
        }
    }
    let mut gone: Vec<String> = known.drain().map(|(path, _)| path).collect();
    gone.sort();
    stats.added = added.len();
    stats.updated = updated.len();
    stats.removed = gone.len();

    // Row by row, the FTS triggers cost ~8x what one rebuild of the whole FTS index
    // costs per row; when a large share of the table changes, write without them.
    let changes = added.len() + gone.len();
    let bulk = changes >= BULK_MIN_CHANGES && {
        let rows: i64 = tx.query_row("SELECT count(*) FROM files_meta", [], |r| r.get(0))?;
        changes as i64 * BULK_SHARE > rows + added.len() as i64
    };
    if bulk {
        tx.execute_batch(
            "DROP TRIGGER files_meta_ai; DROP TRIGGER files_meta_ad; DROP TRIGGER files_meta_au;",
        )?;
    }
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO files_meta (path, filename, dir_components, root, mtime, relative_path)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT(path) DO UPDATE SET mtime = excluded.mtime
             WHERE files_meta.mtime != excluded.mtime",
        )?;
        for (path, file) in &added {
            let relative = file
                .path
                .strip_prefix(root)
                .ok()
                .and_then(Path::to_str)
                .unwrap_or(path);
            let (dirs, filename) = match relative.rsplit_once('/') {
                Some((dirs, name)) => (dirs.replace('/', " "), name),
                None => (String::new(), relative),
            };
            insert.execute(params![path, filename, dirs, root, file.mtime, relative])?;
        }
        let mut update = tx.prepare_cached("UPDATE files_meta SET mtime = ?2 WHERE path = ?1")?;
        for (path, mtime) in &updated {
            update.execute(params![path, mtime])?;
        }
        let mut delete = tx.prepare_cached("DELETE FROM files_meta WHERE path = ?1")?;
        for path in &gone {
            delete.execute([path])?;
        }
    }
    if bulk {
        tx.execute_batch("INSERT INTO files_fts(files_fts) VALUES ('rebuild');")?;
        tx.execute_batch(super::FTS_TRIGGERS)?;
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    tx.execute(
        "INSERT INTO watched_roots (root, max_depth, last_indexed, file_count)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(root) DO UPDATE SET max_depth = excluded.max_depth,
           last_indexed = excluded.last_indexed, file_count = excluded.file_count",
        params![root, max_depth as i64, now, stats.files as i64],
    )?;
    tx.commit()?;
    Ok(stats)
}

/// Every root indexed so far.
pub(crate) fn watched_roots(conn: &Connection) -> rusqlite::Result<Vec<std::path::PathBuf>> {
    let mut stmt = conn.prepare_cached("SELECT root FROM watched_roots ORDER BY root")?;
    stmt.query_map([], |r| r.get::<_, String>(0))?
        .map(|r| r.map(std::path::PathBuf::from))
        .collect()
}

fn utf8(path: &Path) -> Result<&str> {
    path.to_str()
        .ok_or_else(|| Error::invalid(OP, format!("path is not valid UTF-8: {}", path.display())))
}
