//! Planning a run: which files to parse and which to remove.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::write::write_run;
use super::{Job, RunStats, now, too_large};
use crate::code::config::ProjectConfig;
use crate::code::db;
use crate::code::lang::extractor_for_path;
use crate::error::{Error, Result};
use crate::store::Database;

/// Deepest directory level walked below a repository root.
const MAX_DEPTH: usize = 64;
/// Most files indexed in one repository.
const MAX_FILES: usize = 500_000;

struct Known {
    pub(super) id: i64,
    pub(super) hash: String,
    pub(super) mtime: i64,
    pub(super) size: i64,
    indexed_at: i64,
}

/// The path of `path` relative to `root`, `/`-separated; `None` outside it or not UTF-8.
pub(crate) fn relative(root: &Path, path: &Path) -> Option<String> {
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
    // What the run depends on besides the files.
    let scope = root.to_string_lossy();
    let settings = format!("{:?}", config.indexer);
    if !force {
        match crate::watch::look::<(RunStats, Vec<String>)>(database.fresh(), &scope, &settings) {
            crate::watch::Look::Same((stats, kept)) => {
                warnings.extend(kept);
                return Ok(stats);
            }
            crate::watch::Look::Edited((stats, kept), files) => {
                if let Some(stats) = index_edited(database, root, config, stats, &files, warnings)?
                {
                    let answer = (stats.settled(), kept.clone());
                    crate::watch::vouch(database.fresh(), &scope, &settings, answer);
                    warnings.extend(kept);
                    return Ok(stats);
                }
            }
            crate::watch::Look::Walk => {}
        }
    }
    let before = warnings.len();
    let stats = walk_and_index(database, root, config, force, warnings)?;
    crate::watch::record(
        database.fresh(),
        &scope,
        settings,
        &stats.1,
        (stats.0.settled(), warnings[before..].to_vec()),
    );
    Ok(stats.0)
}

/// [`index_repository`]'s run: the stats and the directories walked.
fn walk_and_index(
    database: &Database,
    root: &Path,
    config: &ProjectConfig,
    force: bool,
    warnings: &mut Vec<String>,
) -> Result<(RunStats, Vec<PathBuf>)> {
    let walk = crate::walk::walk(
        root,
        &crate::walk::WalkOptions {
            max_depth: MAX_DEPTH,
            max_files: MAX_FILES,
            // Files over the limit are skipped below, with a warning, not dropped unseen.
            max_file_size: u64::MAX,
            excludes: config.indexer.ignore.clone(),
            allowed_roots: vec![root.to_path_buf()],
            ..Default::default()
        },
    )?;
    warnings.extend(walk.warnings);
    let dirs: Vec<PathBuf> = walk.dirs.into_iter().map(|(dir, _)| dir).collect();
    let conn = database.write(warnings)?;
    db::backfill(&conn, database.path())?;
    let rels: Vec<Option<String>> = walk.files.iter().map(|f| relative(root, &f.path)).collect();
    let facts = super::tree_facts(rels.iter().flatten().map(String::as_str));
    let facts = serde_json::to_string(&facts).map_err(|e| Error::Internal(e.to_string()))?;
    if db::meta(&conn, super::TREE_FACTS)
        .map_err(|e| Error::db(database.path(), e))?
        .as_deref()
        != Some(facts.as_str())
    {
        db::set_meta(&conn, super::TREE_FACTS, &facts)
            .map_err(|e| Error::db(database.path(), e))?;
    }
    let known = load_known(&conn, database.path())?;
    let started = now();
    let mut stats = RunStats::default();
    let mut jobs = Vec::new();
    let mut seen: HashSet<String> = HashSet::with_capacity(walk.files.len());
    for (file, rel) in walk.files.iter().zip(rels) {
        let Some((lang, ext)) = extractor_for_path(&file.path) else {
            continue;
        };
        let Some(rel) = rel else {
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
        return Ok((stats, dirs));
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
    Ok((stats, dirs))
}

/// After a run whose answer was `before`, only `edited` (files that were there then) were
/// written to: re-index those the index has, without a walk, and give the run's stats
/// (`before`'s files, this run's changes and totals). `None` when one of them is not in the index but could
/// be (a language's extension): whether a walk would take it cannot be told here.
fn index_edited(
    database: &Database,
    root: &Path,
    config: &ProjectConfig,
    before: RunStats,
    edited: &[PathBuf],
    warnings: &mut Vec<String>,
) -> Result<Option<RunStats>> {
    let mut known = Vec::new();
    {
        let conn = database.read(warnings)?;
        let mut stmt = conn
            .prepare_cached("SELECT 1 FROM files WHERE rel_path = ?1")
            .map_err(|e| Error::db(database.path(), e))?;
        for path in edited {
            let Some(rel) = relative(root, path) else {
                continue;
            };
            if stmt
                .exists([&rel])
                .map_err(|e| Error::db(database.path(), e))?
            {
                known.push(path.clone());
            } else if extractor_for_path(path).is_some() {
                return Ok(None);
            }
        }
    }
    if known.is_empty() {
        return Ok(Some(before));
    }
    let run = reindex_files(database, root, &known, config, warnings)?;
    let files = before.files.saturating_sub(run.deleted);
    Ok(Some(RunStats {
        files,
        changed: run.changed,
        deleted: run.deleted,
        unchanged: files.saturating_sub(run.changed),
        skipped: before.skipped + run.skipped,
        bytes_parsed: run.bytes_parsed,
        ..run
    }))
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
    // The counts recorded by the last walk no longer hold.
    crate::watch::forget(database.fresh(), &root.to_string_lossy());
    reindex_files(database, root, files, config, warnings)
}

/// [`update_files`]'s run.
fn reindex_files(
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

pub(super) fn count(conn: &Connection, table: &str, path: &Path) -> Result<u64> {
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
