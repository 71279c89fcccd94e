//! File discovery shared by every index: gitignore-aware, bounded, symlink-safe.
//!
//! Built on the `ignore` crate (ripgrep's walker). What a walk honours:
//!
//! - `.gitignore` files (nested, in parent directories, `.git/info/exclude` and the global
//!   excludes file), also outside git repositories unless [`WalkOptions::require_git`];
//!   `.ignore` files;
//! - the built-in [`DEFAULT_EXCLUDES`] (unless [`WalkOptions::default_excludes`] is off) and
//!   the caller's own gitignore-style patterns;
//! - a maximum depth, a maximum number of files (deterministically truncated, with a
//!   warning) and a maximum file size;
//! - symlinks: never descended into. A file reached through a link is indexed under its
//!   canonical path by the walk of the root that contains it, with that root's rules (so it
//!   appears once, and a link cannot bring an excluded or gitignored file in); a broken
//!   link or one that escapes the allowed roots is skipped with a warning. Loops cannot
//!   occur.
//!
//! Hidden files are included (`.claude/settings.json` is a file people ask for) unless
//! [`WalkOptions::skip_hidden`]; the `.git` directory never is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use ignore::overrides::OverrideBuilder;
use ignore::{WalkBuilder, WalkState};

use crate::error::{Error, Result};

/// Never walked, whatever the options.
const ALWAYS_EXCLUDED: &[&str] = &[".git"];

/// Dependency, build and cache output no index wants (gitignore-style patterns): the
/// directories of those names (a file named `build` or `coverage` is a project's own).
pub const DEFAULT_EXCLUDES: &[&str] = &[
    "node_modules/",
    "dist/",
    "build/",
    ".next/",
    ".nuxt/",
    "target/",
    "__pycache__/",
    ".venv/",
    "vendor/",
    "coverage/",
    ".cache/",
    "*.pyc",
];

/// Default maximum depth below a root.
pub const DEFAULT_MAX_DEPTH: usize = 10;

/// What to walk and within which bounds.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Maximum depth below the root (1 = the root's own entries).
    pub max_depth: usize,
    /// Stop after this many files; the result is then the first files in path order.
    pub max_files: usize,
    /// Skip files larger than this many bytes.
    pub max_file_size: u64,
    /// Gitignore-style patterns to exclude, in addition to [`DEFAULT_EXCLUDES`].
    pub excludes: Vec<String>,
    /// Exclude [`DEFAULT_EXCLUDES`] (default: yes).
    pub default_excludes: bool,
    /// Skip hidden files and directories (names starting with `.`; default: no).
    pub skip_hidden: bool,
    /// Honour `.gitignore` files only inside a git repository, as ripgrep does (default:
    /// no, they are honoured everywhere).
    pub require_git: bool,
    /// Roots a symlink may resolve into (canonical or not). The walked root is always
    /// allowed.
    pub allowed_roots: Vec<PathBuf>,
    /// Worker threads (0 = one per core).
    pub threads: usize,
    /// Read each file's and directory's metadata (mtimes, sizes). Without it a walk only
    /// lists paths — mtimes and sizes are 0 — at a third of the cost; a `max_file_size`
    /// below `u64::MAX` still reads the size of each file.
    pub metadata: bool,
    /// Stop when this says so: the walk then fails with [`Error::Cancelled`]. By default,
    /// what stops the operation running on the thread that made the options
    /// ([`crate::progress::stopper`]), so a walk on another thread stops with it too.
    pub stop: crate::progress::Stopper,
    /// Counts the files found so far, for progress reported from another thread.
    pub found: Arc<AtomicUsize>,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            max_files: 50_000,
            max_file_size: 100 * 1024 * 1024,
            excludes: Vec::new(),
            default_excludes: true,
            skip_hidden: false,
            require_git: false,
            allowed_roots: Vec::new(),
            threads: 0,
            metadata: true,
            stop: crate::progress::stopper(),
            found: Arc::default(),
        }
    }
}

/// One file found by a walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkedFile {
    /// Canonical absolute path.
    pub path: PathBuf,
    /// Modification time, seconds since the Unix epoch.
    pub mtime: i64,
    /// Size in bytes.
    pub size: u64,
}

/// Directories with their modification times in nanoseconds.
pub type DirMtimes = Vec<(PathBuf, i64)>;

/// What a walk found.
#[derive(Debug, Default)]
pub struct WalkResult {
    /// The canonical root that was walked.
    pub root: PathBuf,
    /// Files, sorted by path, each once.
    pub files: Vec<WalkedFile>,
    /// Directories walked (the root included) with their modification times in
    /// nanoseconds (a file created in the same second as the walk still moves it), sorted.
    pub dirs: Vec<(PathBuf, i64)>,
    /// Why something was skipped, sorted.
    pub warnings: Vec<String>,
    /// Whether `max_files` cut the walk short.
    pub truncated: bool,
}

/// Walk `root` and return its files in path order.
///
/// Fails only when `root` itself cannot be used (missing, not a directory); anything
/// below it that cannot be read becomes a warning.
pub fn walk(root: &Path, options: &WalkOptions) -> Result<WalkResult> {
    let root = directory(root)?;
    let allowed = allowed_roots(&root, options);
    walk_within(&root, &root, &allowed, options)
}

/// What [`visit`] found besides the files it handed over.
#[derive(Debug, Default)]
pub struct Visited {
    /// The canonical root that was walked.
    pub root: PathBuf,
    /// Why something was skipped, sorted.
    pub warnings: Vec<String>,
}

/// Walk `root` with the rules of [`walk`] and hand each file's path to a visitor, in no
/// particular order, on the walk's own threads: `make` makes one visitor per thread, so
/// work done per file (reading it) runs while the walk goes on. `max_files` does not
/// apply. Fails as [`walk`] does, and with [`Error::Cancelled`] when `options.stop`
/// stopped it.
pub fn visit<M, V>(root: &Path, options: &WalkOptions, make: M) -> Result<Visited>
where
    M: Fn() -> V + Sync,
    V: FnMut(&Path) + Send,
{
    let root = directory(root)?;
    let allowed = allowed_roots(&root, options);
    let warnings = parallel(&root, &root, &allowed, options, || {
        let mut visitor = make();
        move |found: Found<'_>| {
            if let Found::File(entry) = found {
                visitor(entry.path());
            }
            WalkState::Continue
        }
    })?;
    Ok(Visited { root, warnings })
}

/// `root` made canonical, when it is a directory.
fn directory(root: &Path) -> Result<PathBuf> {
    let root = std::fs::canonicalize(root).map_err(|e| Error::io(root, e))?;
    let meta = std::fs::metadata(&root).map_err(|e| Error::io(&root, e))?;
    if !meta.is_dir() {
        return Err(Error::io(
            &root,
            std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
        ));
    }
    Ok(root)
}

/// An entry a parallel walk passes on: a directory or a file, never a link (links are
/// checked and reported by the walk itself).
enum Found<'e> {
    Dir(&'e ignore::DirEntry),
    File(&'e ignore::DirEntry),
}

/// Walk `start`, a directory below the canonical `root`, in parallel with the rules of a
/// walk of `root`, giving what it finds to visitors `make` makes, one per thread. Returns
/// the warnings (unsorted); fails with [`Error::Cancelled`] when `options.stop` stopped it.
fn parallel<M, V>(
    root: &Path,
    start: &Path,
    allowed: &[PathBuf],
    options: &WalkOptions,
    make: M,
) -> Result<Vec<String>>
where
    M: Fn() -> V + Sync,
    V: FnMut(Found<'_>) -> WalkState + Send,
{
    let builder = walk_builder_at(root, start, options, depth_left(root, start, options))?;
    let warnings: Mutex<Vec<String>> = Mutex::new(Vec::new());
    builder.build_parallel().run(|| {
        let mut visitor = make();
        let warnings = &warnings;
        Box::new(move |entry| {
            if options.stop.stopped() {
                return WalkState::Quit;
            }
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    push(warnings, format!("skipped: {e}"));
                    return WalkState::Continue;
                }
            };
            if entry.path_is_symlink() {
                check_symlink(entry.path(), allowed, warnings);
                return WalkState::Continue;
            }
            match entry.file_type() {
                Some(t) if t.is_dir() => visitor(Found::Dir(&entry)),
                Some(t) if t.is_file() => visitor(Found::File(&entry)),
                _ => WalkState::Continue,
            }
        })
    });
    options.stop.checkpoint()?;
    Ok(warnings.into_inner().unwrap_or_default())
}

/// Walk `start`, a directory below the canonical `root`, with the rules of a walk of
/// `root` (its excludes are relative to `root`; `max_depth` counts from `root`).
fn walk_within(
    root: &Path,
    start: &Path,
    allowed: &[PathBuf],
    options: &WalkOptions,
) -> Result<WalkResult> {
    let root = root.to_path_buf();
    let found: Mutex<BTreeMap<PathBuf, WalkedFile>> = Mutex::new(BTreeMap::new());
    let dirs: Mutex<Vec<(PathBuf, i64)>> = Mutex::new(Vec::new());
    let count = AtomicUsize::new(0);
    let over_limit = AtomicUsize::new(0);

    let mut warnings = parallel(&root, start, allowed, options, || {
        |found_now: Found<'_>| {
            match found_now {
                Found::Dir(entry) => {
                    let mtime = if options.metadata {
                        entry.metadata().map(|m| crate::time::mtime_ns(&m))
                    } else {
                        Ok(0)
                    };
                    if let (Ok(mtime), Ok(mut dirs)) = (mtime, dirs.lock()) {
                        dirs.push((entry.path().to_path_buf(), mtime));
                    }
                }
                Found::File(entry) => {
                    let file = if options.metadata {
                        match entry.metadata() {
                            Ok(m) => walked(entry.path().to_path_buf(), &m),
                            Err(_) => return WalkState::Continue,
                        }
                    } else {
                        WalkedFile {
                            path: entry.path().to_path_buf(),
                            mtime: 0,
                            size: 0,
                        }
                    };
                    if count.fetch_add(1, Ordering::Relaxed) >= options.max_files {
                        over_limit.store(1, Ordering::Relaxed);
                        return WalkState::Quit;
                    }
                    options.found.fetch_add(1, Ordering::Relaxed);
                    if let Ok(mut found) = found.lock() {
                        found.insert(file.path.clone(), file);
                    }
                }
            }
            WalkState::Continue
        }
    })?;
    let mut files: Vec<WalkedFile> = found
        .into_inner()
        .unwrap_or_default()
        .into_values()
        .collect();
    let truncated = over_limit.load(Ordering::Relaxed) == 1;
    let mut dirs = dirs.into_inner().unwrap_or_default();
    if truncated {
        // Which files (and directories) a parallel walk saw before stopping depends on
        // timing; walk again in order so the kept subset is the same on every run.
        (files, dirs) = ordered_first_files(&root, start, allowed, options)?;
        warnings.push(format!(
            "{}: more than {} files; indexed the first {} in path order",
            root.display(),
            options.max_files,
            files.len()
        ));
    }
    warnings.sort();
    warnings.dedup();
    dirs.sort();
    Ok(WalkResult {
        root,
        files,
        dirs,
        warnings,
        truncated,
    })
}

/// What changed below a root since a walk that recorded its directories, found without
/// walking the root again; see [`rewalk`].
#[derive(Debug, Default)]
pub struct Rewalk {
    /// Directories listed again because their mtime moved: the files directly in each
    /// are now exactly those of [`Rewalk::files`] there. Sorted.
    pub listed: Vec<PathBuf>,
    /// Directories that appeared: every file below each is in [`Rewalk::files`]. Sorted.
    pub added_dirs: Vec<PathBuf>,
    /// Directories that disappeared (or became links or files), with all below them. Sorted.
    pub gone_dirs: Vec<PathBuf>,
    /// The files found in listed and added directories, sorted, each once.
    pub files: Vec<WalkedFile>,
    /// Every directory of the root now, with its mtime in nanoseconds, sorted (as
    /// [`WalkResult::dirs`]).
    pub dirs: Vec<(PathBuf, i64)>,
    /// Why something was skipped, sorted.
    pub warnings: Vec<String>,
}

/// Bring an earlier walk of `root` up to date from directory mtimes alone.
///
/// `known_dirs` are the [`WalkResult::dirs`] of a complete (untruncated) walk of `root`
/// with the same `options`. Creating, removing or renaming an entry moves its directory's
/// mtime, so only directories whose mtime moved are listed again (one level, with the
/// walk's rules) and only new directories are walked. What this cannot see: a file's own
/// mtime when its content changed in place, and changes of ignore rules (`.gitignore`
/// edits, `options`): callers check those (git status, the ignore files' mtimes) and walk
/// in full when they moved. `max_files` is not applied.
///
/// File system timestamps come from a coarse clock: an entry created in the same tick as
/// the one before it, after the earlier walk listed its directory, leaves the directory's
/// mtime where the earlier walk recorded it. A directory whose recorded mtime is at or
/// after `racy_from` (the earlier walk's start, less a tick) is therefore listed again
/// even when its mtime did not move.
pub fn rewalk(
    root: &Path,
    options: &WalkOptions,
    known_dirs: &[(PathBuf, i64)],
    racy_from: i64,
) -> Result<Rewalk> {
    let root = std::fs::canonicalize(root).map_err(|e| Error::io(root, e))?;
    let allowed = allowed_roots(&root, options);
    let mut known: Vec<&(PathBuf, i64)> = known_dirs.iter().collect();
    known.sort();
    let known_set: std::collections::BTreeSet<&Path> =
        known.iter().map(|(dir, _)| dir.as_path()).collect();
    let mut out = Rewalk::default();
    let mut changed = Vec::new();
    for (dir, mtime) in known {
        if out
            .gone_dirs
            .last()
            .is_some_and(|gone| dir.starts_with(gone))
        {
            continue;
        }
        match std::fs::symlink_metadata(dir) {
            Ok(meta) if meta.is_dir() => {
                let now = crate::time::mtime_ns(&meta);
                if now != *mtime || *mtime >= racy_from {
                    changed.push(dir.clone());
                }
                out.dirs.push((dir.clone(), now));
            }
            _ if dir == &root => {
                return Err(Error::io(
                    &root,
                    std::io::Error::new(std::io::ErrorKind::NotFound, "root disappeared"),
                ));
            }
            _ => out.gone_dirs.push(dir.clone()),
        }
    }
    let sink = Mutex::new(Vec::new());
    let mut files = BTreeMap::new();
    for dir in changed {
        if depth_left(&root, &dir, options) == 0 {
            // Its entries are deeper than the walk goes.
            out.listed.push(dir);
            continue;
        }
        let mut builder = walk_builder_at(&root, &dir, options, 1)?;
        builder.sort_by_file_path(|a, b| a.cmp(b));
        for entry in builder.build() {
            let entry = match entry {
                Ok(entry) if entry.depth() == 1 => entry,
                Ok(_) => continue,
                Err(e) => {
                    push(&sink, format!("skipped: {e}"));
                    continue;
                }
            };
            if entry.path_is_symlink() {
                check_symlink(entry.path(), &allowed, &sink);
            } else if entry.file_type().is_some_and(|t| t.is_dir()) {
                if !known_set.contains(entry.path()) {
                    let below = walk_within(&root, entry.path(), &allowed, options)?;
                    out.warnings.extend(below.warnings);
                    out.dirs.extend(below.dirs);
                    files.extend(below.files.into_iter().map(|f| (f.path.clone(), f)));
                    out.added_dirs.push(entry.into_path());
                }
            } else if entry.file_type().is_some_and(|t| t.is_file())
                && let Ok(meta) = entry.metadata()
            {
                let file = walked(entry.path().to_path_buf(), &meta);
                files.insert(file.path.clone(), file);
            }
        }
        out.listed.push(dir);
    }
    out.files = files.into_values().collect();
    out.warnings.extend(sink.into_inner().unwrap_or_default());
    out.warnings.sort();
    out.warnings.dedup();
    out.dirs.sort();
    out.listed.sort();
    out.added_dirs.sort();
    Ok(out)
}

/// One entry of [`entries_below`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The path (below the listed directory).
    pub path: PathBuf,
    /// Whether it is a directory (symlinks are never either).
    pub is_dir: bool,
    /// Modification time, seconds since the Unix epoch.
    pub mtime: i64,
}

/// The files and directories up to `depth` levels below `dir`, with a walk's rules
/// (gitignore files of `dir` and its parents, the default excludes, `excludes`), at most
/// `limit` of them, in path order. Symlinks are left out. Errors leave entries out.
pub fn entries_below(dir: &Path, depth: usize, excludes: &[String], limit: usize) -> Vec<Entry> {
    let options = WalkOptions {
        max_depth: depth,
        excludes: excludes.to_vec(),
        threads: 1,
        ..WalkOptions::default()
    };
    let Ok(mut builder) = walk_builder(dir, &options) else {
        return Vec::new();
    };
    builder.sort_by_file_path(|a, b| a.cmp(b));
    builder
        .build()
        .flatten()
        .filter(|e| e.depth() > 0 && !e.path_is_symlink())
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some(Entry {
                is_dir: meta.is_dir(),
                mtime: crate::time::mtime_secs(&meta),
                path: e.into_path(),
            })
        })
        .take(limit)
        .collect()
}

/// The symlink targets a walk of `root` accepts: the root and the caller's roots.
fn allowed_roots(root: &Path, options: &WalkOptions) -> Vec<PathBuf> {
    let mut allowed: Vec<PathBuf> = vec![root.to_path_buf()];
    for extra in &options.allowed_roots {
        allowed.push(std::fs::canonicalize(extra).unwrap_or_else(|_| extra.clone()));
    }
    allowed
}

/// How many levels below `start` (inside `root`) a walk of `root` may still go.
fn depth_left(root: &Path, start: &Path, options: &WalkOptions) -> usize {
    let depth = start
        .strip_prefix(root)
        .map(|rel| rel.components().count())
        .unwrap_or(0);
    options.max_depth.saturating_sub(depth)
}

fn walk_builder(root: &Path, options: &WalkOptions) -> Result<WalkBuilder> {
    walk_builder_at(root, root, options, options.max_depth)
}

/// A walker of `start` with the rules of a walk of `root`, going `max_depth` levels down.
fn walk_builder_at(
    root: &Path,
    start: &Path,
    options: &WalkOptions,
    max_depth: usize,
) -> Result<WalkBuilder> {
    let mut overrides = OverrideBuilder::new(root);
    let defaults: &[&str] = if options.default_excludes {
        DEFAULT_EXCLUDES
    } else {
        &[]
    };
    for pattern in ALWAYS_EXCLUDED
        .iter()
        .chain(defaults)
        .copied()
        .chain(options.excludes.iter().map(String::as_str))
    {
        let pattern = pattern.trim();
        if pattern.is_empty() {
            continue;
        }
        // An override glob starting with `!` excludes what it matches.
        let negated = format!("!{}", pattern.trim_start_matches('!'));
        overrides
            .add(&negated)
            .map_err(|e| Error::invalid("walk", format!("exclude pattern `{pattern}`: {e}")))?;
    }
    let overrides = overrides
        .build()
        .map_err(|e| Error::invalid("walk", format!("exclude patterns: {e}")))?;
    let mut builder = WalkBuilder::new(start);
    builder
        .hidden(options.skip_hidden)
        .git_ignore(true)
        .git_global(true)
        .git_exclude(true)
        .parents(true)
        .require_git(options.require_git)
        .ignore(true)
        .follow_links(false)
        .overrides(overrides)
        .max_depth(Some(max_depth))
        // A size limit costs a stat per file; none is asked for without one.
        .max_filesize((options.max_file_size < u64::MAX).then_some(options.max_file_size))
        .threads(options.threads);
    Ok(builder)
}

/// The first `max_files` files below `start` (inside `root`) in path order, and the
/// directories walked until then.
fn ordered_first_files(
    root: &Path,
    start: &Path,
    allowed: &[PathBuf],
    options: &WalkOptions,
) -> Result<(Vec<WalkedFile>, DirMtimes)> {
    let mut builder = walk_builder_at(root, start, options, depth_left(root, start, options))?;
    builder.sort_by_file_path(|a, b| a.cmp(b));
    let sink = Mutex::new(Vec::new());
    let mut files = BTreeMap::new();
    let mut dirs = Vec::new();
    for entry in builder.build().flatten() {
        if !entry.path_is_symlink() && entry.file_type().is_some_and(|t| t.is_dir()) {
            if let Ok(meta) = entry.metadata() {
                dirs.push((entry.path().to_path_buf(), crate::time::mtime_ns(&meta)));
            }
            continue;
        }
        let file = if entry.path_is_symlink() {
            check_symlink(entry.path(), allowed, &sink);
            None
        } else if entry.file_type().is_some_and(|t| t.is_file()) {
            entry
                .metadata()
                .ok()
                .map(|m| walked(entry.path().to_path_buf(), &m))
        } else {
            None
        };
        if let Some(file) = file {
            files.insert(file.path.clone(), file);
            if files.len() >= options.max_files {
                break;
            }
        }
    }
    Ok((files.into_values().collect(), dirs))
}

/// A symlink found by the walk. Its target is never indexed through the link: a target
/// inside an allowed root is indexed under its canonical path by that root's own walk,
/// with that root's rules (so a link cannot bring `.git`, an excluded or a gitignored file
/// into the index), and a broken link or one that escapes the allowed roots is reported.
fn check_symlink(link: &Path, allowed: &[PathBuf], warnings: &Mutex<Vec<String>>) {
    match std::fs::canonicalize(link) {
        Err(e) => push(
            warnings,
            format!("broken symlink skipped: {} ({e})", link.display()),
        ),
        Ok(target) if !allowed.iter().any(|root| target.starts_with(root)) => push(
            warnings,
            format!(
                "symlink escapes the indexed roots, skipped: {} -> {}",
                link.display(),
                target.display()
            ),
        ),
        Ok(_) => {}
    }
}

fn walked(path: PathBuf, meta: &std::fs::Metadata) -> WalkedFile {
    WalkedFile {
        path,
        mtime: crate::time::mtime_secs(meta),
        size: meta.len(),
    }
}

fn push(warnings: &Mutex<Vec<String>>, message: String) {
    if let Ok(mut w) = warnings.lock() {
        w.push(message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    #[cfg(unix)]
    use std::os::unix::fs::symlink;

    fn names(result: &WalkResult) -> Vec<String> {
        result
            .files
            .iter()
            .map(|f| {
                f.path
                    .strip_prefix(&result.root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    }

    fn touch(root: &Path, rel: &str) {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, rel.as_bytes()).unwrap();
    }

    #[test]
    fn honours_gitignore_default_and_user_excludes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for rel in [
            "src/main.rs",
            "src/gen/out.rs",
            "node_modules/x/index.js",
            "target/debug/bin",
            "a/__pycache__/m.pyc",
            "b/m.pyc",
            ".claude/settings.json",
            ".git/HEAD",
            "docs/notes.tmp",
            "docs/guide.md",
            "deep/nested/keep.txt",
            "deep/nested/.gitignore",
            "deep/nested/drop.log",
            "scripts/build",
            "scripts/coverage",
            "build/out.js",
        ] {
            touch(root, rel);
        }
        fs::write(root.join(".gitignore"), "src/gen/\n").unwrap();
        fs::write(root.join("deep/nested/.gitignore"), "*.log\n").unwrap();
        let options = WalkOptions {
            excludes: vec!["*.tmp".into()],
            ..WalkOptions::default()
        };
        let result = walk(root, &options).unwrap();
        assert_eq!(
            names(&result),
            [
                ".claude/settings.json",
                ".gitignore",
                "deep/nested/.gitignore",
                "deep/nested/keep.txt",
                "docs/guide.md",
                "scripts/build",
                "scripts/coverage",
                "src/main.rs",
            ]
        );
        assert!(!result.truncated);
        let dirs: Vec<String> = result
            .dirs
            .iter()
            .map(|(d, _)| {
                d.strip_prefix(&result.root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        // `a` and `b` hold only excluded files; they are walked all the same.
        assert_eq!(
            dirs,
            [
                "",
                ".claude",
                "a",
                "b",
                "deep",
                "deep/nested",
                "docs",
                "scripts",
                "src"
            ]
        );
    }

    #[test]
    fn depth_size_and_count_limits() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for rel in ["a.txt", "b/c.txt", "b/d/e.txt", "f.txt", "g.txt"] {
            touch(root, rel);
        }
        fs::write(root.join("big.bin"), vec![0u8; 4096]).unwrap();
        let shallow = walk(
            root,
            &WalkOptions {
                max_depth: 2,
                max_file_size: 1024,
                ..WalkOptions::default()
            },
        )
        .unwrap();
        assert_eq!(names(&shallow), ["a.txt", "b/c.txt", "f.txt", "g.txt"]);

        for _ in 0..3 {
            let limited = walk(
                root,
                &WalkOptions {
                    max_files: 2,
                    ..WalkOptions::default()
                },
            )
            .unwrap();
            assert!(limited.truncated);
            assert_eq!(names(&limited), ["a.txt", "b/c.txt"]);
            assert!(limited.warnings.iter().any(|w| w.contains("more than 2")));
            // The directories are those walked before the cut, the same on every run.
            let dirs: Vec<PathBuf> = limited.dirs.iter().map(|(d, _)| d.clone()).collect();
            let canonical = fs::canonicalize(root).unwrap();
            assert_eq!(dirs, [canonical.clone(), canonical.join("b")]);
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_dedup_skip_broken_and_escaping_and_survive_loops() {
        let outside = tempfile::tempdir().unwrap();
        touch(outside.path(), "secret.txt");
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(root, "real/file.txt");
        symlink(root.join("real/file.txt"), root.join("alias.txt")).unwrap();
        symlink(root.join("real"), root.join("real-link")).unwrap();
        symlink(root.join("missing"), root.join("broken")).unwrap();
        symlink(outside.path().join("secret.txt"), root.join("escape.txt")).unwrap();
        symlink(outside.path(), root.join("escape-dir")).unwrap();
        symlink(root, root.join("real/loop")).unwrap();

        let result = walk(root, &WalkOptions::default()).unwrap();
        assert_eq!(names(&result), ["real/file.txt"]);
        let joined = result.warnings.join("\n");
        assert!(joined.contains("broken symlink skipped"), "{joined}");
        assert!(joined.contains("escape.txt"), "{joined}");
        assert!(joined.contains("escape-dir"), "{joined}");

        // With the outside directory allowed, the link is no longer reported: the file is
        // indexed by that directory's own walk, not through the link.
        let widened = walk(
            root,
            &WalkOptions {
                allowed_roots: vec![outside.path().to_path_buf()],
                ..WalkOptions::default()
            },
        )
        .unwrap();
        assert_eq!(names(&widened), ["real/file.txt"]);
        assert!(!widened.warnings.iter().any(|w| w.contains("escape.txt")));
    }

    #[cfg(unix)]
    #[test]
    fn links_cannot_bring_excluded_or_ignored_files_in() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(root, ".git/config");
        touch(root, "secret.env");
        touch(root, "node_modules/pk/index.js");
        fs::write(root.join(".gitignore"), "secret.env\n").unwrap();
        symlink(root.join(".git/config"), root.join("gitconfig")).unwrap();
        symlink(root.join("secret.env"), root.join("env-link")).unwrap();
        symlink(root.join("node_modules/pk/index.js"), root.join("pk.js")).unwrap();
        let result = walk(root, &WalkOptions::default()).unwrap();
        assert_eq!(names(&result), [".gitignore"]);
    }

    #[test]
    fn missing_root_is_an_io_error() {
        let err = walk(
            Path::new("/nonexistent/cc-search-root"),
            &WalkOptions::default(),
        )
        .unwrap_err();
        assert_eq!(err.code(), "io");
        assert!(err.to_string().contains("/nonexistent/cc-search-root"));
    }
}
