//! `files.refresh`: bring the index up to date.
//!
//! With a `root`, that directory alone. Without one, what a session start refreshes: the
//! project (`$CLAUDE_PROJECT_DIR`, else the current directory), the configured
//! `[index] roots` and the project's additional directories from `.claude/settings*.json`.
//! Roots are walked concurrently, then written in one transaction: new files added,
//! changed mtimes updated, vanished files removed.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use super::list::{Snapshot, snapshot_dir};
use super::{RefreshRequest, RefreshResponse, RootRefresh};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::walk::{Rewalk, WalkOptions, WalkResult, WalkedFile, rewalk, walk};

const OP: &str = "files.refresh";

/// Fewest added + removed files for which a bulk write is considered.
const BULK_MIN_CHANGES: usize = 256;
/// A bulk write is used when changes × this exceed the rows in the table.
const BULK_SHARE: i64 = 6;

/// How long a root is brought up to date incrementally before it is walked in full again.
const FULL_WALK_TTL: i64 = 86_400;

/// A file or directory modified this close before the last refresh started may have
/// been modified after it: file system timestamps come from a coarse clock.
const CLOCK_SLACK_NS: i64 = 10_000_000;

/// One root to refresh and how.
struct Plan {
    root: PathBuf,
    root_str: String,
    options: WalkOptions,
    /// The walk's rules as one string: a root is only brought up to date incrementally
    /// when they have not changed since its last walk.
    walk_key: String,
}

/// What the last refresh of a root left that an incremental refresh builds on.
struct Prior {
    dirs: Vec<(PathBuf, i64)>,
    /// When the last refresh started, in nanoseconds.
    walked_at_ns: i64,
    file_count: usize,
    git_head: Option<String>,
    /// The ignore files (`.gitignore`, `.ignore`) indexed under the root.
    rule_files: Vec<PathBuf>,
}

/// What the index holds about a root's last walk (`watched_roots`).
struct StoredRoot {
    walk_key: Option<String>,
    walked_at_ns: Option<i64>,
    full_walk_at: Option<i64>,
    file_count: usize,
    git_head: Option<String>,
}

/// What was found for one root: a full walk, or the changes since the last refresh.
enum Found {
    Full(WalkResult),
    Changes {
        rewalk: Rewalk,
        prior: Prior,
        /// Files git reports as changed (status, commits since the last refresh), stat'ed
        /// again for their mtimes: in-place edits do not move a directory's mtime.
        restat: Vec<WalkedFile>,
    },
}

impl Found {
    fn truncated(&self) -> bool {
        matches!(self, Found::Full(w) if w.truncated)
    }
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
    let files_db = engine.database(&super::FILES_DB)?;
    let db_path = files_db.path();
    // The root asked for, else the project: its sessions' transcripts are read too.
    let explicit = request.root.is_some();
    let project = super::project_dir(request.root.or(request.project_dir), OP)?;
    let project_key = utf8(&project)?.to_string();
    let started_at = crate::time::unix_now();
    let started_ns = crate::time::unix_now_ns();
    let (indexed_roots, heads, cursors, stored) = {
        let conn = files_db.read(&mut warnings)?;
        let read = || -> rusqlite::Result<_> {
            Ok((
                watched_roots(&conn)?,
                git_heads(&conn)?,
                transcript_cursors(&conn, &project_key)?,
                stored_roots(&conn)?,
            ))
        };
        read().map_err(|e| Error::db(db_path, e))?
    };
    let claude_dir = request
        .claude_dir
        .clone()
        .unwrap_or_else(crate::transcripts::config_dir);
    let now = request.now.unwrap_or_else(crate::time::unix_now);

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
    let found = Arc::new(AtomicUsize::new(0));
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
        let options = WalkOptions {
            max_depth: depth,
            max_files,
            max_file_size: config.index.limits.max_file_size_mb.saturating_mul(1 << 20),
            excludes,
            allowed_roots: allowed.clone(),
            found: Arc::clone(&found),
            ..WalkOptions::default()
        };
        plans.push(Plan {
            walk_key: walk_key(&options),
            options,
            root,
            root_str,
        });
    }
    // The last walk of each root, where this refresh may build on it instead of walking.
    let mut priors: Vec<Option<Prior>> = plans.iter().map(|_| None).collect();
    if !request.full {
        let conn = files_db.read(&mut warnings)?;
        for (plan, slot) in plans.iter().zip(&mut priors) {
            *slot = prior(&conn, plan, stored.get(&plan.root_str), started_at)
                .map_err(|e| Error::db(db_path, e))?;
        }
    }

    // Walk every root at once, and read git activity beside the walks; the first root
    // (the one asked for, or the project) must work.
    let replay = request.now.is_some();
    type Activity = (Vec<GitActivity>, crate::claude::activity::Scan);
    let (walks, activity): (Vec<Result<Found>>, Activity) = std::thread::scope(|s| {
        let git = s.spawn(|| git_activity(&plans, &heads, now, replay));
        let sessions = s.spawn(|| crate::claude::activity::scan(&claude_dir, &project, &cursors));
        // The walks run on threads of their own, one a root, while this one reports
        // progress and checks for cancellation (the walkers stop with it).
        let walks = crate::progress::run_polling(
            || {
                std::thread::scope(|w| {
                    let handles: Vec<_> = plans
                        .iter()
                        .zip(priors)
                        .map(|(plan, prior)| {
                            w.spawn(move || match prior {
                                Some(prior) => rewalk(
                                    &plan.root,
                                    &plan.options,
                                    &prior.dirs,
                                    prior.walked_at_ns.saturating_sub(CLOCK_SLACK_NS),
                                )
                                .map(|rewalk| Found::Changes {
                                    rewalk,
                                    prior,
                                    restat: Vec::new(),
                                }),
                                None => walk(&plan.root, &plan.options).map(Found::Full),
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| {
                            h.join().unwrap_or_else(|_| {
                                Err(Error::Internal("walker thread panicked".into()))
                            })
                        })
                        .collect()
                })
            },
            || {
                let _ = crate::progress::report("walk", found.load(Ordering::Relaxed), 0);
            },
        )
        .unwrap_or_else(|e| vec![Err(e)]);
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
    // Cancelled while walking: nothing is written.
    crate::progress::checkpoint()?;
    let (activity, sessions) = activity;
    warnings.extend(sessions.warnings.iter().cloned());
    for repo in &activity {
        warnings.extend(repo.warnings.iter().cloned());
    }
    let mut walked = Vec::new();
    for (i, (plan, result)) in plans.iter().zip(walks).enumerate() {
        // Changes that cannot be trusted on their own (ignore rules moved, git could not
        // say what changed, the file limit may be reached) mean a full walk after all.
        let result = result.and_then(|found| match complete_changes(plan, found, &activity) {
            Some(found) => Ok(found),
            None => walk(&plan.root, &plan.options).map(Found::Full),
        });
        match result {
            Ok(mut found) => {
                warnings.append(match &mut found {
                    Found::Full(w) => &mut w.warnings,
                    Found::Changes { rewalk, .. } => &mut rewalk.warnings,
                });
                walked.push((plan, found));
            }
            Err(e) if i > 0 => warnings.push(format!("{}: {e}; skipped", plan.root.display())),
            Err(e) => return Err(e),
        }
    }

    let mut conn = files_db.write(&mut warnings)?;
    let snapshots = snapshot_dir(db_path);
    let mut summaries = Vec::new();
    let mut write = |conn: &mut Connection, warnings: &mut Vec<String>| -> rusqlite::Result<()> {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for (plan, found) in &walked {
            let head = repo_of(&plan.root, &activity).and_then(|r| r.head.as_deref());
            let stats = write_root(
                &tx,
                plan,
                found,
                (started_at, started_ns),
                head,
                &snapshots,
                warnings,
            )?;
            summaries.push(RootRefresh {
                root: plan.root_str.clone(),
                files: stats.files,
                added: stats.added,
                updated: stats.updated,
                removed: stats.removed,
                truncated: found.truncated(),
                incremental: matches!(found, Found::Changes { .. }),
            });
        }
        // Snapshots no row names any more (replaced just now, or left by a run that
        // failed), removed once every root's list is written, while this run still
        // holds the write lock: no other writer has a new one it has yet to name.
        let named: HashSet<String> = tx
            .prepare_cached("SELECT snapshot FROM files_lists WHERE snapshot IS NOT NULL")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Snapshot::sweep(&snapshots, &named);
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

/// The repository a root is in (the innermost, when repositories nest).
fn repo_of<'a>(root: &Path, activity: &'a [GitActivity]) -> Option<&'a GitActivity> {
    activity
        .iter()
        .filter(|repo| root.starts_with(&repo.root))
        .max_by_key(|repo| repo.root.len())
}

/// The walk's rules as one string; see [`Plan::walk_key`].
fn walk_key(options: &WalkOptions) -> String {
    // `allowed_roots` only decide which symlinks are warned about, never what is indexed.
    serde_json::json!([
        options.max_depth,
        options.max_files,
        options.max_file_size,
        options.excludes,
    ])
    .to_string()
}

/// What the last refresh of `plan`'s root left to build on, if it may be built on: a
/// complete walk with the same rules, in full within [`FULL_WALK_TTL`], of a root in a
/// git work tree (git tells what changed in place).
fn prior(
    conn: &Connection,
    plan: &Plan,
    stored: Option<&StoredRoot>,
    now: i64,
) -> rusqlite::Result<Option<Prior>> {
    let Some(stored) = stored else {
        return Ok(None);
    };
    let (Some(key), Some(walked_at_ns), Some(full_at)) =
        (&stored.walk_key, stored.walked_at_ns, stored.full_walk_at)
    else {
        return Ok(None);
    };
    let recent = (0..FULL_WALK_TTL).contains(&(now - full_at));
    if *key != plan.walk_key || !recent || crate::git::Repo::discover(&plan.root).is_none() {
        return Ok(None);
    }
    let mut stmt = conn.prepare_cached("SELECT path, mtime_ns FROM files_dirs WHERE root = ?1")?;
    let dirs: Vec<(PathBuf, i64)> = stmt
        .query_map([&plan.root_str], |r| {
            Ok((PathBuf::from(r.get::<_, String>(0)?), r.get(1)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    if !dirs.iter().any(|(dir, _)| *dir == plan.root) {
        return Ok(None);
    }
    let mut stmt = conn.prepare_cached(
        "SELECT path FROM files_meta WHERE root = ?1 AND filename IN ('.gitignore', '.ignore')",
    )?;
    let rule_files = stmt
        .query_map([&plan.root_str], |r| {
            Ok(PathBuf::from(r.get::<_, String>(0)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(Prior {
        dirs,
        walked_at_ns,
        file_count: stored.file_count,
        git_head: stored.git_head.clone(),
        rule_files,
    }))
}

/// Finish the changes found for a root with what git says, or `None` when they cannot be
/// trusted and the root must be walked in full: git could not tell what changed, an
/// ignore file moved since the last refresh, or the file limit may be reached.
fn complete_changes(plan: &Plan, found: Found, activity: &[GitActivity]) -> Option<Found> {
    let Found::Changes {
        rewalk,
        prior,
        mut restat,
    } = found
    else {
        return Some(found);
    };
    if prior.file_count + rewalk.files.len() > plan.options.max_files {
        return None;
    }
    let repo = repo_of(&plan.root, activity)?;
    let mut changed: Vec<PathBuf> = repo.status_paths.clone()?;
    if repo.head != prior.git_head {
        let (Some(old), Some(new)) = (&prior.git_head, &repo.head) else {
            return None;
        };
        let git = crate::git::Repo::discover(&plan.root)?;
        changed.extend(git.changed_between(old, new).ok()?);
    }
    // Ignore rules that moved since the last refresh started change what belongs to the
    // index anywhere below them. (File system clocks are coarse: a little slack.)
    let since = prior.walked_at_ns.saturating_sub(CLOCK_SLACK_NS);
    let exclude_file = repo.git_dir.join("info").join("exclude");
    let is_rules = |path: &Path| {
        *path == exclude_file
            || matches!(
                path.file_name().and_then(|n| n.to_str()),
                Some(".gitignore" | ".ignore")
            )
    };
    // Every ignore file the index knows (an edited or deleted one, tracked or not), the
    // ones in the directories listed again (new ones), the ones git reports.
    let candidates = (prior.rule_files.iter())
        .chain(rewalk.files.iter().map(|f| &f.path))
        .chain(&changed);
    for path in candidates.chain(std::iter::once(&exclude_file)) {
        if !is_rules(path) {
            continue;
        }
        match std::fs::symlink_metadata(path) {
            Ok(meta) if crate::time::mtime_ns(&meta) < since => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && *path == exclude_file => {}
            _ => return None,
        }
    }
    for path in &changed {
        if let Ok(meta) = std::fs::symlink_metadata(path)
            && meta.is_file()
            && path.starts_with(&plan.root)
        {
            restat.push(WalkedFile {
                path: path.clone(),
                mtime: crate::time::mtime_secs(&meta),
                size: meta.len(),
            });
        }
    }
    restat.sort_by(|a, b| a.path.cmp(&b.path));
    restat.dedup_by(|a, b| a.path == b.path);
    Some(Found::Changes {
        rewalk,
        prior,
        restat,
    })
}

/// The indexed files of `root` a set of changes covers: the files directly in each
/// listed directory, everything below added and vanished ones.
fn known_in_changes(
    tx: &Transaction<'_>,
    root: &str,
    rewalk: &Rewalk,
) -> rusqlite::Result<HashMap<String, i64>> {
    let mut stmt = tx.prepare_cached(
        "SELECT path, mtime FROM files_meta WHERE path >= ?1 AND path < ?2 AND root = ?3",
    )?;
    let mut known = HashMap::new();
    let mut scan = |dir: &Path, direct_only: bool| -> rusqlite::Result<()> {
        let Some(dir) = dir.to_str() else {
            return Ok(());
        };
        let (lo, hi) = super::scope_bounds(dir);
        let mut rows = stmt.query(params![lo, hi, root])?;
        while let Some(row) = rows.next()? {
            let path: String = row.get(0)?;
            if !direct_only || !path[lo.len()..].contains('/') {
                known.insert(path, row.get(1)?);
            }
        }
        Ok(())
    };
    for dir in &rewalk.listed {
        scan(dir, true)?;
    }
    for dir in rewalk.added_dirs.iter().chain(&rewalk.gone_dirs) {
        scan(dir, false)?;
    }
    Ok(known)
}

fn write_root(
    tx: &Transaction<'_>,
    plan: &Plan,
    found: &Found,
    (started_at, started_ns): (i64, i64),
    head: Option<&str>,
    snapshots: &Path,
    warnings: &mut Vec<String>,
) -> rusqlite::Result<Stats> {
    let root = plan.root_str.as_str();
    let (mut known, files, dirs) = match found {
        Found::Full(walked) => {
            let mut stmt =
                tx.prepare_cached("SELECT path, mtime FROM files_meta WHERE root = ?1")?;
            let known: HashMap<String, i64> = stmt
                .query_map([root], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?;
            (known, &walked.files, &walked.dirs)
        }
        Found::Changes { rewalk, .. } => (
            known_in_changes(tx, root, rewalk)?,
            &rewalk.files,
            &rewalk.dirs,
        ),
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
    let own = |file: &WalkedFile| {
        !file
            .path
            .to_str()
            .is_some_and(|p| nested.iter().any(|n| p.starts_with(n.as_str())))
    };
    for file in files.iter().filter(|f| own(f)) {
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
    if let Found::Changes { prior, restat, .. } = found {
        // Files edited in place, outside the directories listed again.
        let mut indexed =
            tx.prepare_cached("SELECT mtime FROM files_meta WHERE path = ?1 AND root = ?2")?;
        for file in restat.iter().filter(|f| own(f)) {
            let Some(path) = file.path.to_str() else {
                continue;
            };
            if files.binary_search_by(|f| f.path.cmp(&file.path)).is_ok() {
                continue;
            }
            let mtime: Option<i64> = indexed
                .query_row(params![path, root], |r| r.get(0))
                .optional()?;
            if mtime.is_some_and(|m| m != file.mtime) {
                updated.push((path, file.mtime));
            }
        }
        // The count as of this transaction: another refresh may have written since the
        // last walk was read.
        let before: i64 = tx
            .prepare_cached("SELECT coalesce(file_count, 0) FROM watched_roots WHERE root = ?1")?
            .query_row([root], |r| r.get(0))
            .optional()?
            .unwrap_or(prior.file_count as i64);
        let before = usize::try_from(before).unwrap_or(0);
        stats.files = (before + added.len()).saturating_sub(gone.len());
    }
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
        .prepare_cached(
            "SELECT 1 FROM files_lists
             WHERE root = ?1 AND entry_index IS NOT NULL AND snapshot IS NOT NULL",
        )?
        .exists([root])?;
    if changes > 0 || !listed {
        write_list(tx, root, snapshots)?;
    }
    write_dirs(tx, root, dirs)?;
    let now = crate::time::unix_now();
    // A truncated walk cannot be built on: which files it kept depends on all of them.
    let key = (!found.truncated()).then_some(plan.walk_key.as_str());
    let full = matches!(found, Found::Full(_));
    tx.execute(
        "INSERT INTO watched_roots (root, max_depth, last_indexed, file_count, walk_key,
           walked_at, full_walk_at, git_head)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT(root) DO UPDATE SET max_depth = excluded.max_depth,
           last_indexed = excluded.last_indexed, file_count = excluded.file_count,
           walk_key = excluded.walk_key, walked_at = excluded.walked_at,
           full_walk_at = CASE WHEN ?9 THEN excluded.full_walk_at
                               ELSE watched_roots.full_walk_at END,
           git_head = excluded.git_head",
        params![
            root,
            plan.options.max_depth as i64,
            now,
            stats.files as i64,
            key,
            started_ns,
            started_at,
            head,
            full
        ],
    )?;
    Ok(stats)
}

/// Store the root's path list for the picker's fuzzy scan (see `list.rs`): in its row,
/// and in a new snapshot file in `snapshots`, whose name the row keeps (NULL when it
/// could not be written: the scan reads the row then). The old snapshot is removed by
/// the run's sweep, once every root is written.
fn write_list(
    tx: &rusqlite::Transaction<'_>,
    root: &str,
    snapshots: &Path,
) -> rusqlite::Result<()> {
    let mut stmt =
        tx.prepare_cached("SELECT relative_path FROM files_meta WHERE root = ?1 ORDER BY path")?;
    let mut list = super::list::ListBuilder::default();
    let mut rows = stmt.query([root])?;
    while let Some(row) = rows.next()? {
        list.push(&row.get::<_, String>(0)?);
    }
    let (paths, index, count) = list.finish();
    let snapshot = Snapshot::write(snapshots, &paths, &index, count).ok();
    tx.execute(
        "INSERT INTO files_lists (root, paths, count, entry_index, snapshot)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(root) DO UPDATE SET paths = excluded.paths, count = excluded.count,
           entry_index = excluded.entry_index, snapshot = excluded.snapshot",
        params![root, paths, count as i64, index, snapshot],
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
    /// Every path git status reports (both sides of a rename); None when it failed.
    status_paths: Option<Vec<PathBuf>>,
    /// The repository's git directory.
    git_dir: PathBuf,
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
        activity.git_dir = repo.git_dir().to_path_buf();
        match repo.status() {
            Ok(entries) => {
                activity.boosts = crate::git::status_boosts(&entries);
                let mut paths = Vec::new();
                for entry in entries {
                    if let crate::git::FileState::Renamed { from } = entry.state {
                        paths.push(from);
                    }
                    paths.push(entry.path);
                }
                activity.status_paths = Some(paths);
            }
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

/// What the index holds about each root's last walk, by root.
fn stored_roots(conn: &Connection) -> rusqlite::Result<HashMap<String, StoredRoot>> {
    let mut stmt = conn.prepare_cached(
        "SELECT root, walk_key, walked_at, full_walk_at, file_count, git_head
         FROM watched_roots",
    )?;
    stmt.query_map([], |r| {
        Ok((
            r.get(0)?,
            StoredRoot {
                walk_key: r.get(1)?,
                walked_at_ns: r.get(2)?,
                full_walk_at: r.get(3)?,
                file_count: usize::try_from(r.get::<_, Option<i64>>(4)?.unwrap_or(0)).unwrap_or(0),
                git_head: r.get(5)?,
            },
        ))
    })?
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
