//! `files.refresh`: bring the index up to date.
//!
//! With a `root`, that directory alone. Without one, what a session start refreshes: the
//! project (`$CLAUDE_PROJECT_DIR`, else the current directory), the configured
//! `[index] roots` and the project's additional directories from `.claude/settings*.json`.
//! Roots are walked concurrently, then written in one transaction: new files added,
//! changed mtimes updated, vanished files removed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, Transaction, TransactionBehavior, params};

use super::{RefreshRequest, RefreshResponse, RootRefresh};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::walk::{WalkOptions, WalkResult, walk};

const OP: &str = "files.refresh";

/// Fewest added + removed files for which a bulk write is considered.
const BULK_MIN_CHANGES: usize = 256;
/// A bulk write is used when changes × this exceed the rows in the table.
const BULK_SHARE: i64 = 6;

/// One root to refresh and how.
struct Plan {
    root: PathBuf,
    root_str: String,
    options: WalkOptions,
}

/// Refresh the index; see the module documentation.
pub fn refresh(engine: &Engine, request: RefreshRequest) -> Result<RefreshResponse> {
    let config = engine.config();
    let max_files = request
        .max_files
        .unwrap_or(config.index.limits.max_files_per_root);
    if max_files == 0 {
        return Err(Error::invalid(OP, "max_files must be at least 1"));
    }
    let mut warnings = Vec::new();
    let db_path = engine.files_db_path();
    // The root asked for, else the project: its sessions' transcripts are read too.
    let explicit = request.root.is_some();
    let project = crate::engine::project_dir(request.root.or(request.project_dir), OP)?;
    let project_key = utf8(&project)?.to_string();
    let (indexed_roots, heads, cursors) = {
        let conn = engine.files_db().read(&mut warnings)?;
        let read = || -> rusqlite::Result<_> {
            Ok((
                watched_roots(&conn)?,
                git_heads(&conn)?,
                transcript_cursors(&conn, &project_key)?,
            ))
        };
        read().map_err(|e| Error::db(db_path, e))?
    };
    let claude_dir = request
        .claude_dir
        .clone()
        .unwrap_or_else(crate::claude::config_dir);
    let now = request.now.unwrap_or_else(crate::git::unix_now);

    // What to refresh: the root asked for, or the session's roots.
    let mut roots: Vec<(PathBuf, String)> = vec![(project.clone(), project_key.clone())];
    if !explicit {
        for configured in &config.index.roots {
            let path = super::scope::expand_home(configured);
            match std::fs::canonicalize(&path) {
                Ok(root) => roots.push((root, configured.clone())),
                Err(e) => warnings.push(format!("[index] root {configured}: {e}; skipped")),
            }
        }
        let (extra, extra_warnings) = crate::claude::additional_directories(&project);
        warnings.extend(extra_warnings);
        roots.extend(extra.into_iter().map(|d| {
            let key = d.to_string_lossy().into_owned();
            (d, key)
        }));
    }
    let mut seen = std::collections::HashSet::new();
    roots.retain(|(root, _)| seen.insert(root.clone()));

    let mut allowed = indexed_roots;
    allowed.extend(roots.iter().map(|(r, _)| r.clone()));
    let mut plans = Vec::new();
    for (root, config_key) in roots {
        let Some(root_str) = root.to_str().map(str::to_string) else {
            warnings.push(format!(
                "root is not valid UTF-8, skipped: {}",
                root.display()
            ));
            continue;
        };
        let mut excludes = config.index.exclude.patterns.clone();
        excludes.extend(request.exclude.iter().cloned());
        let depth = request.max_depth.unwrap_or_else(|| {
            // `[index.depth]` keys are written as in `[index] roots` (`~/x`) or absolute.
            if config.index.depth.contains_key(&config_key) {
                config.index.depth_for(&config_key)
            } else {
                config.index.depth_for(&root_str)
            }
        });
        plans.push(Plan {
            options: WalkOptions {
                max_depth: depth,
                max_files,
                max_file_size: config.index.limits.max_file_size_mb.saturating_mul(1 << 20),
                excludes,
                allowed_roots: allowed.clone(),
                threads: 0,
            },
            root,
            root_str,
        });
    }

    // Walk every root at once, and read git activity beside the walks; the first root
    // (the one asked for, or the project) must work.
    let replay = request.now.is_some();
    type Activity = (Vec<GitActivity>, crate::claude::activity::Scan);
    let (walks, activity): (Vec<Result<WalkResult>>, Activity) = std::thread::scope(|s| {
        let handles: Vec<_> = plans
            .iter()
            .map(|plan| s.spawn(|| walk(&plan.root, &plan.options)))
            .collect();
        let git = s.spawn(|| git_activity(&plans, &heads, now, replay));
        let sessions = s.spawn(|| crate::claude::activity::scan(&claude_dir, &project, &cursors));
        let walks = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Internal("walker thread panicked".into())))
            })
            .collect();
        let sessions = sessions
            .join()
            .unwrap_or_else(|_| crate::claude::activity::Scan {
                accesses: Vec::new(),
                cursors: cursors.clone(),
                warnings: vec!["session transcript scan panicked".into()],
                files_read: 0,
                bytes_read: 0,
            });
        (walks, (git.join().unwrap_or_default(), sessions))
    });
    let (activity, sessions) = activity;
    warnings.extend(sessions.warnings.iter().cloned());
    for repo in &activity {
        warnings.extend(repo.warnings.iter().cloned());
    }
    let mut walked = Vec::new();
    for (i, (plan, result)) in plans.iter().zip(walks).enumerate() {
        match result {
            Ok(mut w) => {
                warnings.append(&mut w.warnings);
                walked.push((plan, w));
            }
            Err(e) if i > 0 => warnings.push(format!("{}: {e}; skipped", plan.root.display())),
            Err(e) => return Err(e),
        }
    }

    let mut conn = engine.files_db().write(&mut warnings)?;
    let mut summaries = Vec::new();
    let mut write = |conn: &mut Connection, warnings: &mut Vec<String>| -> rusqlite::Result<()> {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for (plan, result) in &walked {
            let stats = write_root(
                &tx,
                &plan.root_str,
                plan.options.max_depth,
                result,
                warnings,
            )?;
            summaries.push(RootRefresh {
                root: plan.root_str.clone(),
                files: stats.files,
                added: stats.added,
                updated: stats.updated,
                removed: stats.removed,
                truncated: result.truncated,
            });
        }
        for repo in &activity {
            write_frecency(&tx, repo, now)?;
        }
        write_sessions(&tx, &project_key, &sessions, now)?;
        tx.commit()
    };
    write(&mut conn, &mut warnings).map_err(|e| Error::db(db_path, e))?;
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
    let total = |f: fn(&RootRefresh) -> usize| summaries.iter().map(f).sum::<usize>();
    Ok(RefreshResponse {
        root: summaries
            .first()
            .map(|s| s.root.clone())
            .unwrap_or_default(),
        files: total(|s| s.files),
        added: total(|s| s.added),
        updated: total(|s| s.updated),
        removed: total(|s| s.removed),
        truncated: summaries.iter().any(|s| s.truncated),
        roots: summaries,
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
    tx: &Transaction<'_>,
    root: &str,
    max_depth: usize,
    walked: &WalkResult,
    warnings: &mut Vec<String>,
) -> rusqlite::Result<Stats> {
    let files = &walked.files;
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
    // Roots nested in this one index their own files.
    let nested: Vec<String> = watched_roots(tx)?
        .into_iter()
        .filter_map(|r| r.to_str().map(|r| format!("{r}/")))
        .filter(|r| r.len() > root.len() + 1 && r.starts_with(&format!("{root}/")))
        .collect();
    for file in files {
        if let Some(p) = file.path.to_str()
            && nested.iter().any(|n| p.starts_with(n.as_str()))
        {
            continue;
        }
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
        // A file another root indexed first (an outer root) moves to this one: each file
        // belongs to the most specific root that contains it.
        let mut insert = tx.prepare_cached(
            "INSERT INTO files_meta (path, filename, dir_components, root, mtime, relative_path)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT(path) DO UPDATE SET mtime = excluded.mtime, root = excluded.root,
               filename = excluded.filename, dir_components = excluded.dir_components,
               relative_path = excluded.relative_path",
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
    let listed: bool = tx
        .prepare_cached("SELECT 1 FROM files_lists WHERE root = ?1")?
        .exists([root])?;
    if changes > 0 || !listed {
        write_list(tx, root)?;
    }
    write_dirs(tx, root, &walked.dirs)?;
    let now = crate::git::unix_now();
    tx.execute(
        "INSERT INTO watched_roots (root, max_depth, last_indexed, file_count)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(root) DO UPDATE SET max_depth = excluded.max_depth,
           last_indexed = excluded.last_indexed, file_count = excluded.file_count",
        params![root, max_depth as i64, now, stats.files as i64],
    )?;
    Ok(stats)
}

/// Store the root's paths (relative to it; absolute when outside it) as one
/// NUL-separated list, in path order, for the picker's fuzzy scan.
fn write_list(tx: &rusqlite::Transaction<'_>, root: &str) -> rusqlite::Result<()> {
    let mut stmt =
        tx.prepare_cached("SELECT relative_path FROM files_meta WHERE root = ?1 ORDER BY path")?;
    let mut list = Vec::new();
    let mut count = 0i64;
    let mut rows = stmt.query([root])?;
    while let Some(row) = rows.next()? {
        let rel: String = row.get(0)?;
        if count > 0 {
            list.push(0);
        }
        list.extend_from_slice(rel.as_bytes());
        count += 1;
    }
    tx.execute(
        "INSERT INTO files_lists (root, paths, count) VALUES (?1, ?2, ?3)
         ON CONFLICT(root) DO UPDATE SET paths = excluded.paths, count = excluded.count",
        params![root, list, count],
    )?;
    Ok(())
}

/// Bring the root's directory mtimes up to date (for finding files created since).
fn write_dirs(
    tx: &rusqlite::Transaction<'_>,
    root: &str,
    dirs: &[(std::path::PathBuf, i64)],
) -> rusqlite::Result<()> {
    let mut known: HashMap<String, i64> = {
        let mut stmt =
            tx.prepare_cached("SELECT path, mtime_ns FROM files_dirs WHERE root = ?1")?;
        stmt.query_map([root], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    let mut upsert = tx.prepare_cached(
        "INSERT INTO files_dirs (path, root, mtime_ns) VALUES (?1, ?2, ?3)
         ON CONFLICT(path) DO UPDATE SET root = excluded.root, mtime_ns = excluded.mtime_ns",
    )?;
    for (dir, mtime) in dirs {
        let Some(dir) = dir.to_str() else { continue };
        if known.remove(dir) != Some(*mtime) {
            upsert.execute(params![dir, root, mtime])?;
        }
    }
    let mut delete = tx.prepare_cached("DELETE FROM files_dirs WHERE path = ?1")?;
    for dir in known.keys() {
        delete.execute([dir])?;
    }
    Ok(())
}

/// What git says about one repository at refresh time.
#[derive(Debug, Default)]
struct GitActivity {
    /// The work tree's root (canonical).
    root: String,
    head: Option<String>,
    branch: Option<String>,
    /// Recomputed history, when HEAD moved (or the last one is stale); None keeps the
    /// stored frecency.
    history: Option<crate::git::History>,
    /// Status boost per absolute path.
    boosts: std::collections::BTreeMap<PathBuf, f64>,
    warnings: Vec<String>,
}

/// How long a history stays valid when HEAD does not move (its 90-day window slides).
const HISTORY_TTL: i64 = 3600;

/// Git activity of the repositories the plans' roots are in, each repository once.
fn git_activity(
    plans: &[Plan],
    heads: &HashMap<String, (Option<String>, i64)>,
    now: i64,
    replay: bool,
) -> Vec<GitActivity> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for plan in plans {
        let Some(repo) = crate::git::Repo::discover(&plan.root) else {
            continue;
        };
        let Some(root) = repo.root().to_str().map(str::to_string) else {
            continue;
        };
        if !seen.insert(root.clone()) {
            continue;
        }
        let head = repo.head();
        let mut activity = GitActivity {
            branch: repo.branch(),
            ..GitActivity::default()
        };
        let fresh = heads
            .get(&root)
            .is_some_and(|(stored, at)| *stored == head && now - *at < HISTORY_TTL && now >= *at);
        if replay || !fresh {
            match repo.history(&crate::git::HistoryWindow::recent(now)) {
                Ok(history) => activity.history = Some(history),
                Err(e) => activity
                    .warnings
                    .push(format!("git history of {root}: {e}; no frecency from it")),
            }
        }
        match repo.status() {
            Ok(entries) => activity.boosts = crate::git::status_boosts(&entries),
            Err(e) => activity
                .warnings
                .push(format!("git status of {root}: {e}; no status boosts")),
        }
        activity.root = root;
        activity.head = head;
        out.push(activity);
    }
    out
}

/// Store one repository's frecency: history (when recomputed), status boosts, HEAD.
fn write_frecency(tx: &Transaction<'_>, repo: &GitActivity, now: i64) -> rusqlite::Result<()> {
    let (lo, hi) = super::scope_bounds(&repo.root);
    // Only indexed files get rows (the table references files_meta).
    let mut upsert = tx.prepare_cached(
        "INSERT INTO frecency (path, git_recency, git_frequency, git_status_boost, last_seen)
         SELECT ?1, ?2, ?3, 0, ?4 WHERE EXISTS (SELECT 1 FROM files_meta WHERE path = ?1)
         ON CONFLICT(path) DO UPDATE SET git_recency = excluded.git_recency,
           git_frequency = excluded.git_frequency, last_seen = excluded.last_seen",
    )?;
    if let Some(history) = &repo.history {
        // Reset (not delete) so the other signals of these rows stay.
        tx.execute(
            "UPDATE frecency SET git_recency = 0, git_frequency = 0, last_seen = 0
             WHERE path >= ?1 AND path < ?2",
            params![lo, hi],
        )?;
        for (path, file) in &history.files {
            let Some(path) = path.to_str() else { continue };
            upsert.execute(params![
                path,
                file.recency(now),
                i64::from(file.commits),
                file.last_commit
            ])?;
        }
    }
    tx.execute(
        "UPDATE frecency SET git_status_boost = 0
         WHERE path >= ?1 AND path < ?2 AND git_status_boost != 0",
        params![lo, hi],
    )?;
    let mut boost = tx.prepare_cached(
        "INSERT INTO frecency (path, git_status_boost)
         SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM files_meta WHERE path = ?1)
         ON CONFLICT(path) DO UPDATE SET git_status_boost = excluded.git_status_boost",
    )?;
    for (path, value) in &repo.boosts {
        if let Some(path) = path.to_str() {
            boost.execute(params![path, value])?;
        }
    }
    tx.execute(
        "INSERT INTO git_heads (repo, head, branch, indexed_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(repo) DO UPDATE SET head = excluded.head, branch = excluded.branch,
           indexed_at = CASE WHEN ?5 THEN excluded.indexed_at ELSE git_heads.indexed_at END",
        params![
            repo.root,
            repo.head,
            repo.branch,
            now,
            repo.history.is_some()
        ],
    )?;
    Ok(())
}

/// How far each of the project's transcripts has been read.
fn transcript_cursors(
    conn: &Connection,
    project: &str,
) -> rusqlite::Result<std::collections::BTreeMap<PathBuf, crate::claude::activity::Cursor>> {
    let mut stmt = conn.prepare_cached(
        "SELECT file, offset, size, mtime_ns FROM claude_transcripts WHERE project = ?1",
    )?;
    stmt.query_map([project], |r| {
        Ok((
            PathBuf::from(r.get::<_, String>(0)?),
            crate::claude::activity::Cursor {
                offset: r.get::<_, i64>(1)?.max(0) as u64,
                size: r.get::<_, i64>(2)?.max(0) as u64,
                mtime_ns: r.get(3)?,
            },
        ))
    })?
    .collect()
}

/// How long a Claude Code access counts.
const SESSION_WINDOW: i64 = 90 * 86_400;

/// Store the accesses a transcript scan found, the new cursors, and the decayed sums per
/// file of the project (`exp(-days/14)` per access, as git recency).
fn write_sessions(
    tx: &Transaction<'_>,
    project: &str,
    scan: &crate::claude::activity::Scan,
    now: i64,
) -> rusqlite::Result<()> {
    use crate::claude::activity::AccessKind;
    let mut insert = tx.prepare_cached(
        "INSERT OR IGNORE INTO claude_accesses (path, kind, at) VALUES (?1, ?2, ?3)",
    )?;
    for access in &scan.accesses {
        if let Some(path) = access.path.to_str() {
            insert.execute(params![path, access.kind.as_str(), access.at])?;
        }
    }
    tx.execute(
        "DELETE FROM claude_accesses WHERE at < ?1",
        [now - SESSION_WINDOW],
    )?;
    tx.execute(
        "DELETE FROM claude_transcripts WHERE project = ?1",
        [project],
    )?;
    let mut cursor = tx.prepare_cached(
        "INSERT INTO claude_transcripts (project, file, offset, size, mtime_ns)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (file, c) in &scan.cursors {
        if let Some(file) = file.to_str() {
            cursor.execute(params![
                project,
                file,
                i64::try_from(c.offset).unwrap_or(i64::MAX),
                i64::try_from(c.size).unwrap_or(i64::MAX),
                c.mtime_ns
            ])?;
        }
    }
    // Decayed sums over the project's files.
    let (lo, hi) = super::scope_bounds(project);
    let mut sums: std::collections::BTreeMap<String, [f64; 3]> = Default::default();
    {
        let mut stmt = tx.prepare_cached(
            "SELECT path, kind, at FROM claude_accesses WHERE path >= ?1 AND path < ?2",
        )?;
        let mut rows = stmt.query(params![lo, hi])?;
        while let Some(row) = rows.next()? {
            let (path, kind, at): (String, String, i64) = (row.get(0)?, row.get(1)?, row.get(2)?);
            let slot = match kind.as_str() {
                k if k == AccessKind::Read.as_str() => 0,
                k if k == AccessKind::Mention.as_str() => 2,
                _ => 1,
            };
            sums.entry(path).or_default()[slot] += crate::git::recency(at, now);
        }
    }
    tx.execute(
        "UPDATE frecency SET claude_reads = 0, claude_edits = 0, claude_mentions = 0
         WHERE path >= ?1 AND path < ?2
           AND (claude_reads != 0 OR claude_edits != 0 OR claude_mentions != 0)",
        params![lo, hi],
    )?;
    let mut upsert = tx.prepare_cached(
        "INSERT INTO frecency (path, claude_reads, claude_edits, claude_mentions)
         SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM files_meta WHERE path = ?1)
         ON CONFLICT(path) DO UPDATE SET claude_reads = excluded.claude_reads,
           claude_edits = excluded.claude_edits, claude_mentions = excluded.claude_mentions",
    )?;
    for (path, [reads, edits, mentions]) in &sums {
        upsert.execute(params![path, reads, edits, mentions])?;
    }
    // Rows every signal of which went back to zero only slow the frecency queries down.
    tx.execute(
        "DELETE FROM frecency WHERE git_recency = 0 AND git_frequency = 0
           AND git_status_boost = 0 AND claude_reads = 0 AND claude_edits = 0
           AND claude_mentions = 0",
        [],
    )?;
    Ok(())
}

/// The HEAD (and when its history was read) of every repository indexed so far.
fn git_heads(conn: &Connection) -> rusqlite::Result<HashMap<String, (Option<String>, i64)>> {
    let mut stmt = conn.prepare_cached("SELECT repo, head, indexed_at FROM git_heads")?;
    stmt.query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))?
        .collect()
}

/// Every root indexed so far, with the depth it was walked to.
pub(crate) fn watched_roots_with_depth(
    conn: &Connection,
) -> rusqlite::Result<Vec<(PathBuf, usize)>> {
    let mut stmt =
        conn.prepare_cached("SELECT root, max_depth FROM watched_roots ORDER BY root")?;
    stmt.query_map([], |r| {
        Ok((
            PathBuf::from(r.get::<_, String>(0)?),
            usize::try_from(r.get::<_, Option<i64>>(1)?.unwrap_or(0)).unwrap_or(0),
        ))
    })?
    .collect()
}

/// Every root indexed so far.
pub(crate) fn watched_roots(conn: &Connection) -> rusqlite::Result<Vec<PathBuf>> {
    Ok(watched_roots_with_depth(conn)?
        .into_iter()
        .map(|(root, _)| root)
        .collect())
}

fn utf8(path: &Path) -> Result<&str> {
    // Only the root asked for is checked here; other roots are skipped with a warning.
    path.to_str()
        .ok_or_else(|| Error::invalid(OP, format!("path is not valid UTF-8: {}", path.display())))
}
