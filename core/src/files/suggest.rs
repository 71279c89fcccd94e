//! `files.suggest`: answer an `@` picker query.
//!
//! The pipeline (spec "Query Flow", with cc-search's own matching):
//!
//! 1. Parse the prefix (`@ns:`, `@/folder:`, `@*.ext`, `@@`) and resolve the scope: the
//!    project, its additional directories from `.claude/settings*.json`, or what the
//!    prefix names. Directories no index covers yet are indexed first.
//! 2. Candidates. A query whose words the FTS5 index matches selectively (at most
//!    [`FTS_CAP`] files) takes those files; otherwise — a typo, an abbreviation, a very
//!    common word, or a prefix filter — every path in scope is scored by the fuzzy matcher
//!    from the root's path list. An empty query takes the most frecent and the most
//!    recently modified files.
//! 3. Files created or changed since the last refresh are found in the directories whose
//!    mtime moved, most recent first, within a slice of the time budget.
//! 4. Classify each match as tight or scattered; when fewer than 15 are tight, scan the
//!    path lists again for paths one typo away from the query (see [`super::typo`]).
//! 5. Rank (fit, fuzzy match, frecency, priorities), drop files that no longer exist,
//!    format.
//!
//! The whole query has a time budget (100 ms by default). When the index cannot answer in
//! time, or is locked or damaged, the file system is searched instead (fd when installed,
//! else the walker) so the picker never comes back empty while files exist.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension, params};

use super::list::{PathList, Snapshot, snapshot_dir};
use super::query::{self, ParsedQuery};
use super::rank::{
    Activity, Candidate, Fit, NameFacts, PathMatcher, PriorityGlobs, char_mask, rank,
};
use super::scope::{Filter, Scope};
use super::typo::TypoMatcher;
use super::{MAX_SUGGESTIONS, RefreshRequest, SuggestRequest, SuggestResponse, scope_bounds};
use crate::engine::Engine;
use crate::env::home_dir;
use crate::error::{Error, Result};
use crate::text::{fts5_query, truncate_utf8};

const OP: &str = "files.suggest";

/// Default time budget of one query.
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(100);
/// How many levels below a directory an enclosing root's walk must reach for the
/// directory to count as indexed.
const MIN_COVERED_DEPTH: usize = 5;
/// Largest time budget a query may ask for (one minute).
pub const MAX_BUDGET_MS: u64 = 60_000;
/// Most files the FTS stage hands to the matcher; a query matching more is scanned.
pub const FTS_CAP: usize = 400;
/// Most fuzzy-scan matches kept for the final ranking.
const SCAN_KEEP: usize = 300;
/// Most files listed for an empty query with a prefix filter before falling back to the
/// mtime order.
const FILTER_KEEP: usize = 2000;
/// How far back a file counts as fresh (spec: `fd --changed-within 24h`).
const FRESH_WINDOW: i64 = 24 * 3600;
/// How deep below a new directory new files are looked for.
const FRESH_DIR_DEPTH: usize = 4;
/// Most entries read below one new directory.
const FRESH_DIR_ENTRIES: usize = 2000;
/// Most recently modified directories the fresh-file search looks at.
const FRESH_DIRS: usize = 256;
/// Most time the fresh-file search may take.
const FRESH_MAX_TIME: Duration = Duration::from_millis(5);
/// Share of the remaining budget the fresh-file search may use (at most
/// [`FRESH_MAX_TIME`]).
const FRESH_SHARE: u32 = 5;

/// Suggest up to 15 paths for `request.query`; see the module documentation.
pub fn suggest(engine: &Engine, request: SuggestRequest) -> Result<SuggestResponse> {
    let started = Instant::now();
    let limit = match request.limit {
        None => MAX_SUGGESTIONS,
        Some(n) if (1..=MAX_SUGGESTIONS).contains(&n) => n,
        Some(n) => {
            return Err(Error::invalid(
                OP,
                format!("limit must be between 1 and {MAX_SUGGESTIONS}, got {n}"),
            ));
        }
    };
    let budget = match request.budget_ms {
        None => DEFAULT_BUDGET,
        Some(ms) if ms <= MAX_BUDGET_MS => Duration::from_millis(ms),
        Some(ms) => {
            return Err(Error::invalid(
                OP,
                format!("budget_ms must be at most {MAX_BUDGET_MS}, got {ms}"),
            ));
        }
    };
    let project = super::project_dir(request.project_dir, OP)?;
    let config = engine.config();
    let mut warnings = Vec::new();
    let typed = truncate_utf8(&request.query, crate::text::MAX_QUERY_BYTES);
    let parsed = query::parse(typed, &config.namespaces);
    if let Some(name) = query::unknown_namespace(typed, &config.namespaces) {
        warnings.push(unknown_namespace(name, config.namespaces.keys()));
    }
    let (extra, extra_warnings) = crate::claude::additional_directories(&project);
    warnings.extend(extra_warnings);
    let mut scope = Scope::resolve(
        parsed.prefix.as_ref(),
        &project,
        config,
        extra,
        &mut warnings,
    );
    // Whatever the prefix or the project's settings name, only paths under `within`.
    scope.confine(crate::engine::Within::new(&request.within));

    let mut ctx = Search {
        engine,
        scope: &scope,
        parsed: &parsed,
        limit,
        budget,
        deadline: started + budget,
        warnings: &mut warnings,
    };
    let paths = match ctx.search_index() {
        Ok(paths) => paths,
        Err(e) if e.falls_back() => {
            let reason = e.to_string();
            let found = ctx.search_file_system()?;
            warnings.push(format!(
                "index unavailable ({reason}); searched the file system instead"
            ));
            found
        }
        Err(e) => return Err(e.into()),
    };
    Ok(SuggestResponse { paths, warnings })
}

/// The warning of a query `@name:…` whose `name` is no namespace of `configured`.
fn unknown_namespace<'a>(
    name: &str,
    configured: impl ExactSizeIterator<Item = &'a String>,
) -> String {
    let known = if configured.len() == 0 {
        "none is configured: [namespaces] in config.toml".to_string()
    } else {
        let names: Vec<&str> = configured.map(String::as_str).collect();
        format!("configured: {}", names.join(", "))
    };
    format!("no namespace `{name}` ({known}), so `@{name}:` was searched for as plain text")
}

/// What the scan scores paths with: the fuzzy matcher, or the typo matcher when the
/// fuzzy one found too few tight matches.
trait Scorer: Send + Sized {
    /// The query's characters (see [`char_mask`]).
    fn required_chars(&self) -> u64;
    /// Whether a path with the characters `mask` may match a query with `required`.
    fn may_match(required: u64, mask: u64) -> bool;
    /// The path's score, or None when it does not match or cannot reach `floor`.
    fn score_above(&mut self, path: &str, floor: u32) -> Option<u32>;
    /// Another scorer for the same query, for another thread.
    fn fork(&self) -> Self;
    /// How what it matches fits (the exact matcher's are classified afterwards).
    fn fit(&self) -> Fit;
    /// Whether [`Scorer::bound`] bounds scores: the scan then scores paths best bound
    /// first (see [`score_best_bound_first`]).
    const BOUNDED: bool;
    /// The most `score_above` can give the path whose [`NameFacts`] are `facts`, known
    /// without matching it; `boundaries` holds (at least) its
    /// [`boundary_mask`](super::rank::boundary_mask); `path` reads it, when its facts do
    /// not settle a bonus.
    fn bound<'p>(
        &self,
        facts: &NameFacts,
        boundaries: u64,
        path: impl FnOnce() -> Option<&'p str>,
    ) -> u32;
}

impl Scorer for PathMatcher {
    fn required_chars(&self) -> u64 {
        PathMatcher::required_chars(self)
    }
    fn may_match(required: u64, mask: u64) -> bool {
        mask & required == required
    }
    fn score_above(&mut self, path: &str, floor: u32) -> Option<u32> {
        PathMatcher::score_above(self, path, floor)
    }
    fn fork(&self) -> Self {
        PathMatcher::fork(self)
    }
    fn fit(&self) -> Fit {
        Fit::Tight
    }
    const BOUNDED: bool = true;
    fn bound<'p>(
        &self,
        facts: &NameFacts,
        boundaries: u64,
        path: impl FnOnce() -> Option<&'p str>,
    ) -> u32 {
        self.bound_of(facts, boundaries, path)
    }
}

impl Scorer for TypoMatcher {
    fn required_chars(&self) -> u64 {
        TypoMatcher::required_chars(self)
    }
    fn may_match(required: u64, mask: u64) -> bool {
        TypoMatcher::may_match(required, mask)
    }
    fn score_above(&mut self, path: &str, floor: u32) -> Option<u32> {
        TypoMatcher::score_above(self, path, floor)
    }
    fn fork(&self) -> Self {
        TypoMatcher::fork(self)
    }
    fn fit(&self) -> Fit {
        Fit::Near
    }
    // A typo's score depends on the correction found in the path: no cheap bound.
    const BOUNDED: bool = false;
    fn bound<'p>(
        &self,
        _facts: &NameFacts,
        _boundaries: u64,
        _path: impl FnOnce() -> Option<&'p str>,
    ) -> u32 {
        u32::MAX
    }
}

/// Classify how each matched candidate fits the query (see [`Fit`]) and adjust its
/// score (see [`PathMatcher::judge`]); how many fit tightly (candidates the index
/// matched by words count as tight).
fn classify(matcher: &mut PathMatcher, found: &mut BTreeMap<String, Candidate>) -> usize {
    let mut tight = 0;
    for c in found.values_mut() {
        if let Some(score) = c.matched {
            let (fit, score) = matcher.judge(&c.display, score);
            (c.fit, c.matched) = (fit, Some(score));
        }
        tight += usize::from(c.fit == Fit::Tight);
    }
    tight
}

/// Lists with more entries than this are scored on several threads.
const PARALLEL_SCAN_ENTRIES: usize = 8192;

/// Entries in a row a thread of the scan takes (see [`Stripes`]).
const STRIPE: usize = 1024;

/// A list of `n` entries cut in runs of [`STRIPE`] entries, which the threads of the
/// scan take in turn, each the next one not yet taken, until none is left: a thread
/// that is not running (on a busy machine, or while the fresh-file search has its core)
/// leaves its part to the others instead of holding the scan up. Runs, not halves: a
/// list is in path order, so halves would give one thread a directory whose paths all
/// match (`src/comp`: 9,125 paths matched in one half at 100k files, 5,274 in the
/// other) while the other waits.
struct Stripes {
    next: AtomicUsize,
    n: usize,
}

impl Stripes {
    fn new(n: usize) -> Stripes {
        Stripes {
            next: AtomicUsize::new(0),
            n,
        }
    }

    /// The entries of the stripes this thread takes, one stripe at a time.
    fn take(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::from_fn(|| {
            let start = self.next.fetch_add(STRIPE, Ordering::Relaxed);
            (start < self.n).then(|| start..(start + STRIPE).min(self.n))
        })
        .flatten()
    }
}

/// An entry of a path list, as the scan reads it (see [`Search::entries`]).
struct Entry<'l> {
    /// Its index in the list.
    i: usize,
    entry: &'l str,
    /// How it is displayed.
    display: Cow<'l, str>,
    /// At least the characters of the displayed form's
    /// [`boundary_mask`](super::rank::boundary_mask).
    boundaries: u64,
}

/// The fresh-file search's directories being looked up (see [`Search::start_fresh`]).
struct FreshDirs {
    /// The directories whose mtime moved since the refresh, in the order looked at.
    moved: std::thread::JoinHandle<Vec<String>>,
    /// How long looking them up may take, and then reading those that moved.
    slice: Duration,
}

/// Where the entries of one root's path list are, relative to one scope directory.
struct ListPart<'a> {
    root: &'a Path,
    dir: &'a Path,
    /// Prefix of the entries below `dir` (empty when the root is inside it).
    skip: &'a str,
    /// What precedes an entry when displayed.
    shown: &'a str,
    /// Relative prefixes (below the root, or below `dir` when `skip` is not empty) of
    /// which an entry must start with one to lie under `within`; `None`: all do.
    within: Option<Vec<PathBuf>>,
}

/// The best `keep` scored paths so far, worst on top; strings are made only for what
/// enters.
struct Best {
    keep: usize,
    heap: BinaryHeap<Reverse<(u32, Reverse<String>, String)>>,
}

impl Best {
    fn new(keep: usize) -> Best {
        Best {
            keep,
            heap: BinaryHeap::new(),
        }
    }

    fn is_full(&self) -> bool {
        self.heap.len() >= self.keep
    }

    /// The score a newcomer must beat (0 until full).
    fn floor(&self) -> u32 {
        match self.heap.peek() {
            Some(Reverse((worst, _, _))) if self.is_full() => *worst,
            _ => 0,
        }
    }

    /// Whether (`score`, `display`) would enter: a higher score, or the same score and a
    /// smaller display than the worst kept, so the result does not depend on the order in
    /// which entries come (or on how the list was split between threads).
    fn admits(&self, score: u32, display: &str) -> bool {
        match self.heap.peek() {
            Some(Reverse((worst, Reverse(worst_display), _))) if self.is_full() => {
                score > *worst || (score == *worst && display < worst_display.as_str())
            }
            _ => true,
        }
    }

    fn offer(&mut self, score: u32, display: &str, root: &Path, entry: &str) {
        if !self.admits(score, display) {
            return;
        }
        let path = format!("{}/{entry}", root.display());
        self.heap
            .push(Reverse((score, Reverse(display.to_string()), path)));
        if self.heap.len() > self.keep {
            self.heap.pop();
        }
    }

    /// Offer (`score`, `display`) and raise `floor` (see [`SharedFloor`]) to this heap's.
    fn offer_sharing(
        &mut self,
        score: u32,
        display: &str,
        root: &Path,
        entry: &str,
        floor: &SharedFloor,
    ) {
        let before = self.floor();
        self.offer(score, display, root, entry);
        if self.floor() > before {
            floor.raise(self.floor());
        }
    }

    fn merge(&mut self, other: Best) {
        for item in other.heap {
            self.heap.push(item);
            if self.heap.len() > self.keep {
                self.heap.pop();
            }
        }
    }
}

/// The highest [`Best::floor`] of the threads scanning parts of one list into heaps of
/// their own. A thread's heap keeps the best of a part of what the scan scores, so once
/// full, its worst score is at most the worst of the best of the whole: a path scoring
/// below the highest of those floors enters no heap that matters, and no thread scores
/// it. What the merged heaps keep is the same whatever the threads' timing.
struct SharedFloor(AtomicU32);

impl SharedFloor {
    /// A floor that starts at `floor` (the worst score already kept, 0 for none).
    fn new(floor: u32) -> SharedFloor {
        SharedFloor(AtomicU32::new(floor))
    }

    fn get(&self) -> u32 {
        self.0.load(Ordering::Relaxed)
    }

    fn raise(&self, floor: u32) {
        self.0.fetch_max(floor, Ordering::Relaxed);
    }
}

/// Why the index could not answer.
enum SearchError {
    /// The time budget ran out.
    Timeout,
    /// The database failed (locked, corrupt, I/O).
    Database(rusqlite::Error),
    /// Anything else: reported, not worked around.
    Other(Error),
}

impl SearchError {
    fn falls_back(&self) -> bool {
        !matches!(self, SearchError::Other(_))
    }
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Timeout => write!(f, "over the time budget"),
            SearchError::Database(e) => write!(f, "{e}"),
            SearchError::Other(e) => write!(f, "{e}"),
        }
    }
}

impl From<rusqlite::Error> for SearchError {
    fn from(e: rusqlite::Error) -> Self {
        if e.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted) {
            SearchError::Timeout
        } else {
            SearchError::Database(e)
        }
    }
}

impl From<Error> for SearchError {
    fn from(e: Error) -> Self {
        match e {
            Error::Database { source, .. } => SearchError::from(source),
            other => SearchError::Other(other),
        }
    }
}

impl From<SearchError> for Error {
    fn from(e: SearchError) -> Self {
        match e {
            SearchError::Other(e) => e,
            other => Error::Internal(other.to_string()),
        }
    }
}

struct Search<'a> {
    engine: &'a Engine,
    scope: &'a Scope,
    parsed: &'a ParsedQuery,
    limit: usize,
    budget: Duration,
    deadline: Instant,
    warnings: &'a mut Vec<String>,
}

impl Search<'_> {
    fn search_index(&mut self) -> std::result::Result<Vec<String>, SearchError> {
        if self.ensure_indexed()? {
            // A first index takes what it takes; the query gets its own budget after it.
            self.deadline = Instant::now() + self.budget;
        }
        let remaining = self.deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(SearchError::Timeout);
        }
        let files_db = self.engine.database(&super::FILES_DB)?;
        let mut conn = files_db.read_with_patience(remaining, self.warnings)?;
        // Any statement still running past the deadline is interrupted.
        // A lock held elsewhere is waited for only as long as the budget lasts; the pool
        // takes both settings off the connection when it comes back.
        let deadline = self.deadline;
        conn.progress_handler(1000, Some(move || Instant::now() > deadline))?;
        conn.busy_timeout(
            deadline
                .saturating_duration_since(Instant::now())
                .min(crate::store::BUSY_TIMEOUT),
        )?;
        // One read transaction for every statement of the query: one snapshot, and the
        // file locks taken once instead of per statement (hundreds of them).
        let tx = conn.unchecked_transaction()?;
        let paths = self.query_index(&tx)?;
        tx.finish()?;
        Ok(paths)
    }

    fn query_index(&mut self, conn: &Connection) -> std::result::Result<Vec<String>, SearchError> {
        let text = self.parsed.text.trim();
        let mut matcher = PathMatcher::new(text);
        let has_query = has_words(text);
        let mut found: BTreeMap<String, Candidate> = BTreeMap::new();
        let fresh = self.start_fresh(conn)?;
        if !has_query && !self.scope.is_filtered() {
            self.top_files(conn, &mut found)?;
        } else if !has_query {
            self.filtered_files(conn, &mut found)?;
        } else {
            let selective =
                !self.scope.is_filtered() && self.fts(conn, text, &mut matcher, &mut found)?;
            if !selective || found.len() < self.limit {
                self.scan(
                    conn,
                    Some(&mut matcher),
                    SCAN_KEEP,
                    self.deadline,
                    &mut found,
                )?;
            }
        }
        self.fresh(conn, fresh, &mut matcher, has_query, &mut found)?;
        if has_query && classify(&mut matcher, &mut found) < self.limit {
            self.typos(conn, text, &mut found)?;
        }
        fill_activity(conn, self.engine, &mut found, !has_query)?;
        if Instant::now() > self.deadline {
            return Err(SearchError::Timeout);
        }
        Ok(self.finish(found.into_values().collect(), has_query))
    }

    /// Index the scope's directories that no watched root covers yet; whether any was.
    fn ensure_indexed(&mut self) -> std::result::Result<bool, SearchError> {
        let remaining = self.deadline.saturating_duration_since(Instant::now());
        let roots = {
            let files_db = self.engine.database(&super::FILES_DB)?;
            let conn = files_db.read_with_patience(remaining, self.warnings)?;
            super::refresh::watched_roots_with_depth(&conn)?
        };
        let config = self.engine.config();
        let mut indexed = false;
        for dir in &self.scope.search_dirs() {
            // Covered: a root itself, or inside a root walked deep enough below it (a
            // shallow `~/Developer = 2` does not cover a project inside it).
            let wanted = config
                .index
                .depth_for(&dir.to_string_lossy())
                .min(MIN_COVERED_DEPTH);
            let covered = roots.iter().any(|(root, depth)| {
                dir == root
                    || dir
                        .strip_prefix(root)
                        .is_ok_and(|below| below.components().count() + wanted <= *depth)
            });
            if covered {
                continue;
            }
            let refreshed = super::refresh(
                self.engine,
                RefreshRequest {
                    root: Some(dir.clone()),
                    ..RefreshRequest::default()
                },
            )?;
            self.warnings.push(format!(
                "{} was not indexed yet; indexed {} files",
                refreshed.root, refreshed.files
            ));
            self.warnings.extend(refreshed.warnings);
            indexed = true;
        }
        Ok(indexed)
    }

    /// Too few tight matches: look for paths one typo away from the query (see
    /// [`super::typo`]), in at most half the remaining budget; what is not found by then
    /// is left out, the exact matches are answered all the same.
    fn typos(
        &self,
        conn: &Connection,
        text: &str,
        found: &mut BTreeMap<String, Candidate>,
    ) -> std::result::Result<(), SearchError> {
        let Some(mut typo) = TypoMatcher::new(text) else {
            return Ok(());
        };
        let now = Instant::now();
        let stop = now + self.deadline.saturating_duration_since(now) / 2;
        match self.scan(conn, Some(&mut typo), SCAN_KEEP, stop, found) {
            Err(SearchError::Timeout) if Instant::now() <= self.deadline => Ok(()),
            other => other.map(|_| ()),
        }
    }

    /// Rank, drop what no longer exists, format.
    fn finish(&mut self, mut candidates: Vec<Candidate>, has_query: bool) -> Vec<String> {
        let priorities = PriorityGlobs::new(&self.engine.config().priorities, self.warnings);
        rank(&mut candidates, &priorities, has_query);
        candidates
            .into_iter()
            .filter(|c| Path::new(&c.path).is_file())
            .take(self.limit)
            .map(|c| c.display)
            .collect()
    }

    /// The FTS stage. Returns whether the index matched selectively (≤ [`FTS_CAP`] files),
    /// in which case those files are all the candidates it has.
    fn fts(
        &self,
        conn: &Connection,
        text: &str,
        matcher: &mut PathMatcher,
        found: &mut BTreeMap<String, Candidate>,
    ) -> std::result::Result<bool, SearchError> {
        let Some(expr) = fts5_query(text, true) else {
            return Ok(false);
        };
        let rowids: Vec<i64> = conn
            .prepare_cached("SELECT rowid FROM files_fts WHERE files_fts MATCH ?1 LIMIT ?2")?
            .query_map(
                params![
                    format!("{{filename dir_components}} : ({expr})"),
                    FTS_CAP as i64 + 1
                ],
                |r| r.get(0),
            )?
            .collect::<rusqlite::Result<_>>()?;
        if rowids.len() > FTS_CAP {
            return Ok(false);
        }
        let mut stmt =
            conn.prepare_cached("SELECT path, mtime FROM files_meta WHERE rowid = ?1")?;
        for rowid in rowids {
            let Some((path, mtime)) = stmt
                .query_row([rowid], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
                })
                .optional()?
            else {
                continue;
            };
            let Some(display) = self.in_scope(&path) else {
                continue;
            };
            let matched = matcher.score(&display);
            found.insert(path.clone(), candidate(path, display, matched, mtime));
        }
        Ok(true)
    }

    /// Score every path in scope from the roots' path lists; keep the best `keep`.
    /// Without a matcher, list (up to `keep`) what passes the filter; returns whether that
    /// listing is complete. Large lists are scored on all cores. Past `deadline`, stops
    /// with [`SearchError::Timeout`].
    fn scan<S: Scorer>(
        &self,
        conn: &Connection,
        matcher: Option<&mut S>,
        keep: usize,
        deadline: Instant,
        found: &mut BTreeMap<String, Candidate>,
    ) -> std::result::Result<bool, SearchError> {
        let lists: Vec<(String, Option<String>, i64)> = conn
            .prepare_cached("SELECT root, snapshot, count FROM files_lists ORDER BY root")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let snapshots = snapshot_dir(self.engine.database(&super::FILES_DB)?.path());
        let mut best = Best::new(keep);
        let mut complete = true;
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(4);
        for (root, snapshot, count) in lists {
            // The list's snapshot file, else its row's columns.
            let mapped = snapshot
                .and_then(|name| Snapshot::open(&snapshots, &name, usize::try_from(count).ok()?));
            let stored: Option<(Vec<u8>, Option<Vec<u8>>)>;
            let list = match &mapped {
                Some(snapshot) => snapshot.list(),
                None => {
                    stored = conn
                        .prepare_cached(
                            "SELECT paths, entry_index FROM files_lists WHERE root = ?1",
                        )?
                        .query_row([&root], |r| Ok((r.get(0)?, r.get(1)?)))
                        .optional()?;
                    let Some((paths, index)) = &stored else {
                        continue;
                    };
                    PathList::new(paths, index.as_deref(), usize::try_from(count).unwrap_or(0))
                }
            };
            let root = Path::new(&root);
            for dir in &self.scope.dirs {
                // Which of the root's entries lie in `dir`, and how to show them.
                let (skip, shown) = if root.starts_with(dir) {
                    (String::new(), self.display_prefix(root))
                } else if let Ok(below) = dir.strip_prefix(root) {
                    (
                        format!("{}/", below.to_string_lossy()),
                        self.display_prefix(dir),
                    )
                } else {
                    continue;
                };
                // Entries are relative to the root when it is inside `dir`, else to `dir`.
                let within = self
                    .scope
                    .within_below(if skip.is_empty() { root } else { dir });
                if within.as_ref().is_some_and(Vec::is_empty) {
                    continue;
                }
                let part = ListPart {
                    root,
                    dir,
                    skip: &skip,
                    shown: &shown,
                    within,
                };
                match matcher.as_deref() {
                    None => {
                        if !self.list_filtered(&list, &part, &mut best) {
                            complete = false;
                        }
                    }
                    Some(m) if threads > 1 && list.len() > PARALLEL_SCAN_ENTRIES => {
                        let stripes = Stripes::new(list.len());
                        let floor = SharedFloor::new(best.floor());
                        let work = |mut m: S| {
                            let mut local = Best::new(keep);
                            let share = stripes.take();
                            let best = (&mut local, &floor);
                            self.score_list(&list, share, &part, &mut m, best);
                            local
                        };
                        let work = &work;
                        let mut forks: Vec<S> = (0..threads).map(|_| m.fork()).collect();
                        // This thread is one of the scan's: one thread fewer to start.
                        let own = forks.pop().expect("threads > 1");
                        let heaps: Vec<Best> = std::thread::scope(|s| {
                            let others: Vec<_> = forks
                                .into_iter()
                                .map(|m| s.spawn(move || work(m)))
                                .collect();
                            let own = work(own);
                            let others = others.into_iter().filter_map(|h| h.join().ok());
                            std::iter::once(own).chain(others).collect()
                        });
                        for heap in heaps {
                            best.merge(heap);
                        }
                    }
                    Some(_) => {
                        if let Some(m) = matcher.as_deref() {
                            let mut m = m.fork();
                            let floor = SharedFloor::new(0);
                            let all = 0..list.len();
                            self.score_list(&list, all, &part, &mut m, (&mut best, &floor));
                        }
                    }
                }
                if Instant::now() > deadline {
                    return Err(SearchError::Timeout);
                }
            }
        }
        let fit = matcher.map_or(Fit::Tight, |m| m.fit());
        for Reverse((score, Reverse(display), path)) in best.heap {
            offer(found, path, display, fit, (score > 0).then_some(score));
        }
        Ok(complete)
    }

    /// The entries `indices` of `list` in the part's directory, each with its displayed
    /// form and (at least) the characters of its
    /// [`boundary_mask`](super::rank::boundary_mask), passing the filter
    /// and whose characters (see [`char_mask`]) `may_match`.
    fn entries<'l>(
        &'l self,
        list: &'l PathList<'_>,
        indices: impl Iterator<Item = usize> + 'l,
        part: &'l ListPart<'_>,
        may_match: impl Fn(u64) -> bool + 'l,
    ) -> impl Iterator<Item = Entry<'l>> + 'l {
        // Characters the displayed form has besides the entry's own. The entry's first
        // character counts as a boundary in its own mask, as it is after `shown`.
        let shown = char_mask(part.shown);
        indices.filter_map(move |i| {
            let (entry, display) = self.entry(list, i, part, |mask| may_match(mask | shown))?;
            let boundaries = list.boundaries(i)? | shown;
            Some(Entry {
                i,
                entry,
                display,
                boundaries,
            })
        })
    }

    /// Entry `i` of `list` with its displayed form, when it is in the part's directory,
    /// passes the filter and its characters `may_match` (the entry's own: the caller adds
    /// those of `part.shown`).
    fn entry<'l>(
        &self,
        list: &'l PathList<'_>,
        i: usize,
        part: &ListPart<'_>,
        may_match: impl Fn(u64) -> bool,
    ) -> Option<(&'l str, Cow<'l, str>)> {
        if !may_match(list.mask(i)?) {
            return None;
        }
        let entry = list.entry(i)?;
        if entry.is_empty() || entry.starts_with('/') {
            return None;
        }
        let rel = if part.skip.is_empty() {
            entry
        } else {
            entry.strip_prefix(part.skip)?
        };
        if let Some(prefixes) = &part.within
            && !prefixes.iter().any(|p| Path::new(rel).starts_with(p))
        {
            return None;
        }
        if !self.accepts_rel(rel, part.dir) {
            return None;
        }
        let display: Cow<'_, str> = if part.shown.is_empty() {
            Cow::Borrowed(rel)
        } else {
            Cow::Owned(format!("{}{rel}", part.shown))
        };
        Some((entry, display))
    }

    /// Fuzzy-score the entries `indices` of `list` into `best`, with the floor it shares
    /// with the threads scoring the rest (see [`score_best_bound_first`]).
    fn score_list<S: Scorer>(
        &self,
        list: &PathList<'_>,
        indices: impl Iterator<Item = usize>,
        part: &ListPart<'_>,
        m: &mut S,
        (best, floor): (&mut Best, &SharedFloor),
    ) {
        let required = m.required_chars();
        let may_match = move |mask: u64| S::may_match(required, mask);
        let shown = char_mask(part.shown);
        let entry_at = |i| self.entry(list, i, part, |mask| may_match(mask | shown));
        if !S::BOUNDED {
            for Entry { entry, display, .. } in self.entries(list, indices, part, may_match) {
                // Once the heap is full, only a score above its worst can enter.
                if let Some(score) = m.score_above(&display, best.floor().max(floor.get())) {
                    best.offer_sharing(score, &display, part.root, entry, floor);
                }
            }
            return;
        }
        let keys = if self.shows_as_stored(part) {
            keys_of_index(m, list, indices)
        } else {
            self.entries(list, indices, part, may_match)
                .map(|e| {
                    let bound = m.bound(&NameFacts::of(&e.display), e.boundaries, || {
                        Some(&e.display)
                    });
                    key(bound, e.i)
                })
                .collect()
        };
        score_best_bound_first(m, keys, entry_at, part.root, (best, floor));
    }

    /// Whether every entry of the part is shown as stored and none is filtered out by
    /// its path: then what bounds its score is in the list's index.
    fn shows_as_stored(&self, part: &ListPart<'_>) -> bool {
        part.skip.is_empty()
            && part.shown.is_empty()
            && part.within.is_none()
            && matches!(self.scope.filter, Filter::All)
    }

    /// List the filter's matches of `list` into `best`; false when `best` filled up first.
    fn list_filtered(&self, list: &PathList<'_>, part: &ListPart<'_>, best: &mut Best) -> bool {
        for Entry { entry, display, .. } in self.entries(list, 0..list.len(), part, |_| true) {
            if best.is_full() {
                return false;
            }
            best.offer(0, &display, part.root, entry);
        }
        true
    }

    /// An empty query: the most frecent and the most recently modified files.
    fn top_files(
        &self,
        conn: &Connection,
        found: &mut BTreeMap<String, Candidate>,
    ) -> std::result::Result<(), SearchError> {
        let take = self.limit * 4;
        let weights = &self.engine.config().weights;
        for (lo, hi) in self.ranges() {
            // The most frecent files, by the formula of `Activity::frecency`. The best
            // of the frecency range are found first, from that table alone (SQLite keeps
            // the best rows without sorting them all), and only those are looked up in
            // the files: a repository's history can give every one of 100k files a
            // frecency, and looking each up cost 40 ms. Four times the rows asked for
            // leave room for frecent files that are no longer indexed (deleted since
            // the commits that made them frecent).
            let mut frecent = conn.prepare_cached(
                "SELECT m.path, m.mtime FROM (
                     SELECT path, git_recency * ?3 + git_frequency * ?4 + git_status_boost * ?5
                                  + claude_reads * ?6 + claude_edits * ?7 + claude_mentions * ?8
                                  AS score
                     FROM frecency WHERE path >= ?1 AND path < ?2
                     ORDER BY score DESC, path LIMIT ?9 * 4
                 ) f CROSS JOIN files_meta m ON m.path = f.path
                 ORDER BY f.score DESC, m.path
                 LIMIT ?9",
            )?;
            let rows = frecent.query_map(
                params![
                    lo,
                    hi,
                    weights.git_recency,
                    weights.git_frequency,
                    weights.git_status,
                    weights.claude_read,
                    weights.claude_edit,
                    weights.claude_mention,
                    take as i64
                ],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
            )?;
            for row in rows {
                let (path, mtime) = row?;
                self.add_plain(path, mtime, found);
            }
            // `+path` keeps SQLite on the mtime index (newest first, stopping at the
            // limit) instead of sorting every file in the range.
            let mut recent = conn.prepare_cached(
                "SELECT path, mtime FROM files_meta WHERE +path >= ?1 AND +path < ?2
                 ORDER BY mtime DESC LIMIT ?3",
            )?;
            let rows = recent.query_map(params![lo, hi, take as i64], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
            })?;
            for row in rows {
                let (path, mtime) = row?;
                self.add_plain(path, mtime, found);
            }
        }
        Ok(())
    }

    /// An empty query with a prefix filter: every match when there are few, else the
    /// most recently modified matches.
    fn filtered_files(
        &self,
        conn: &Connection,
        found: &mut BTreeMap<String, Candidate>,
    ) -> std::result::Result<(), SearchError> {
        let mut listed = BTreeMap::new();
        if self.scan::<PathMatcher>(conn, None, FILTER_KEEP, self.deadline, &mut listed)? {
            found.extend(listed);
            return Ok(());
        }
        let mut stmt = conn.prepare_cached(
            "SELECT path, mtime FROM files_meta WHERE +path >= ?1 AND +path < ?2
             ORDER BY mtime DESC",
        )?;
        for (lo, hi) in self.ranges() {
            let mut rows = stmt.query(params![lo, hi])?;
            let mut kept = 0;
            while let Some(row) = rows.next()? {
                let path: String = row.get(0)?;
                let before = found.len();
                self.add_plain(path, row.get(1)?, found);
                if found.len() > before {
                    kept += 1;
                    if kept >= self.limit * 4 {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Start looking for the directories whose mtime moved since the refresh, for
    /// [`Search::fresh`]: the scope's own directories and the [`FRESH_DIRS`] most
    /// recently modified ones (where work happens), each looked up on another thread
    /// while the query runs (a `stat` each: 256 of them cost about 1 ms, which the
    /// query's single-threaded stages leave a core for), within a slice of the budget.
    fn start_fresh(&self, conn: &Connection) -> std::result::Result<FreshDirs, SearchError> {
        let slice = (self.deadline.saturating_duration_since(Instant::now()) / FRESH_SHARE)
            .min(FRESH_MAX_TIME);
        let mut listed: Vec<(String, i64)> = Vec::new();
        let mut own = conn.prepare_cached("SELECT mtime_ns FROM files_dirs WHERE path = ?1")?;
        for dir in &self.scope.search_dirs() {
            let Some(d) = dir.to_str() else { continue };
            let mtime: Option<i64> = own.query_row([d], |r| r.get(0)).optional()?;
            if let Some(mtime) = mtime {
                listed.push((d.to_string(), mtime));
            }
        }
        let mut recent = conn.prepare_cached(
            "SELECT path, mtime_ns FROM files_dirs ORDER BY mtime_ns DESC LIMIT ?1",
        )?;
        let rows = recent.query_map([FRESH_DIRS as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
        for row in rows {
            let (dir, mtime): (String, i64) = row?;
            if self.scope.dir_of(Path::new(&dir)).is_some() {
                listed.push((dir, mtime));
            }
        }
        let moved = std::thread::spawn(move || {
            // The slice counts from when the thread runs (on a loaded machine, that may
            // be late).
            let stop = Instant::now() + slice;
            let now = crate::time::unix_now();
            let mut seen = HashSet::new();
            let mut moved = Vec::new();
            for (dir, indexed_mtime) in listed {
                if Instant::now() > stop {
                    break;
                }
                if !seen.insert(dir.clone()) {
                    continue;
                }
                let Ok(meta) = std::fs::metadata(&dir) else {
                    continue;
                };
                let mtime = crate::time::mtime_ns(&meta);
                if mtime != indexed_mtime && now - mtime / 1_000_000_000 <= FRESH_WINDOW {
                    moved.push(dir);
                }
            }
            moved
        });
        Ok(FreshDirs { moved, slice })
    }

    /// Files created or modified in the last 24 hours that the index has not seen: in
    /// the directories [`Search::start_fresh`] found moved, within a slice of the budget
    /// (as long as it gave the lookups); the next refresh catches the rest.
    fn fresh(
        &self,
        conn: &Connection,
        dirs: FreshDirs,
        matcher: &mut PathMatcher,
        has_query: bool,
        found: &mut BTreeMap<String, Candidate>,
    ) -> std::result::Result<(), SearchError> {
        let now = crate::time::unix_now();
        let FreshDirs { moved, slice } = dirs;
        // A thread that panicked found nothing.
        let moved = moved.join().unwrap_or_default();
        // Reading the moved directories has a slice of its own, from now (the query ran
        // in between).
        let stop = Instant::now() + slice;
        let mut indexed = conn.prepare_cached("SELECT 1 FROM files_meta WHERE path = ?1")?;
        let mut known_dirs = conn.prepare_cached("SELECT 1 FROM files_dirs WHERE path = ?1")?;
        for dir in moved {
            if Instant::now() > stop {
                return Ok(());
            }
            let excludes = &self.engine.config().index.exclude.patterns;
            for entry in crate::walk::entries_below(Path::new(&dir), 1, excludes, FRESH_DIR_ENTRIES)
            {
                let Some(path_str) = entry.path.to_str() else {
                    continue;
                };
                if entry.is_dir {
                    // A new directory: its files are new too.
                    if !known_dirs.exists([path_str])? {
                        let below = crate::walk::entries_below(
                            &entry.path,
                            FRESH_DIR_DEPTH,
                            excludes,
                            FRESH_DIR_ENTRIES,
                        );
                        for file in below.iter().filter(|e| !e.is_dir) {
                            if now - file.mtime <= FRESH_WINDOW
                                && let Some(p) = file.path.to_str()
                            {
                                self.add_fresh(p, file.mtime, matcher, has_query, found);
                            }
                        }
                    }
                    continue;
                }
                if now - entry.mtime > FRESH_WINDOW || indexed.exists([path_str])? {
                    continue;
                }
                self.add_fresh(path_str, entry.mtime, matcher, has_query, found);
            }
            if Instant::now() > stop {
                return Ok(());
            }
        }
        Ok(())
    }

    fn add_fresh(
        &self,
        path: &str,
        mtime: i64,
        matcher: &mut PathMatcher,
        has_query: bool,
        found: &mut BTreeMap<String, Candidate>,
    ) {
        let Some(display) = self.in_scope(path) else {
            return;
        };
        let matched = if has_query {
            match matcher.score(&display) {
                Some(s) => Some(s),
                None => return,
            }
        } else {
            None
        };
        found
            .entry(path.to_string())
            .or_insert_with(|| candidate(path.to_string(), display, matched, mtime));
    }

    /// Add a candidate found without a query.
    fn add_plain(&self, path: String, mtime: i64, found: &mut BTreeMap<String, Candidate>) {
        if let Some(display) = self.in_scope(&path) {
            found
                .entry(path.clone())
                .or_insert_with(|| candidate(path, display, None, mtime));
        }
    }

    /// The displayed form of `path` when it is in scope and passes the filter.
    fn in_scope(&self, path: &str) -> Option<String> {
        let p = Path::new(path);
        let dir = self.scope.dir_of(p)?;
        if !self.scope.accepts(p, dir) {
            return None;
        }
        Some(display_path(p, &self.scope.project, home_dir().as_deref()))
    }

    /// Whether `rel` (below scope directory `dir`) passes the filter.
    fn accepts_rel(&self, rel: &str, dir: &Path) -> bool {
        match self.scope.filter {
            Filter::All => true,
            _ => self.scope.accepts(&dir.join(rel), dir),
        }
    }

    /// What precedes a path below `dir` when displayed: `""` for the project itself,
    /// `sub/` inside it, `~/x/` or `/abs/` outside.
    fn display_prefix(&self, dir: &Path) -> String {
        if dir == self.scope.project {
            return String::new();
        }
        format!(
            "{}/",
            display_path(dir, &self.scope.project, home_dir().as_deref())
        )
    }

    /// Index ranges `[dir/, dir0)` of the directories to read.
    fn ranges(&self) -> Vec<(String, String)> {
        self.scope
            .search_dirs()
            .iter()
            .map(|d| scope_bounds(&d.to_string_lossy()))
            .collect()
    }

    /// The fallback: list the scope's directories from the file system and rank by the
    /// fuzzy matcher alone.
    fn search_file_system(&mut self) -> Result<Vec<String>> {
        let text = self.parsed.text.trim();
        let mut matcher = PathMatcher::new(text);
        let has_query = has_words(text);
        let mut found = BTreeMap::new();
        let mut unmatched = Vec::new();
        for dir in self.scope.search_dirs() {
            for path in list_files(&dir, self.engine, self.warnings) {
                let Some(p) = path.to_str() else { continue };
                let Some(display) = self.in_scope(p) else {
                    continue;
                };
                let matched = if has_query {
                    match matcher.score(&display) {
                        Some(s) => Some(s),
                        None => {
                            unmatched.push((p.to_string(), display));
                            continue;
                        }
                    }
                } else {
                    None
                };
                let mtime = if has_query {
                    0
                } else {
                    std::fs::metadata(&path)
                        .map(|m| crate::time::mtime_secs(&m))
                        .unwrap_or(0)
                };
                found.insert(
                    p.to_string(),
                    candidate(p.to_string(), display, matched, mtime),
                );
            }
        }
        if has_query
            && classify(&mut matcher, &mut found) < self.limit
            && let Some(mut typo) = TypoMatcher::new(text)
        {
            // Matches that are not tight are looked at again with the unmatched paths.
            let scattered = found
                .values()
                .filter(|c| c.fit != Fit::Tight)
                .map(|c| (c.path.clone(), c.display.clone()));
            let looked_at: Vec<(String, String)> = scattered.chain(unmatched).collect();
            for (path, display) in looked_at {
                if let Some(score) = typo.score(&display) {
                    offer(&mut found, path, display, Fit::Near, Some(score));
                }
            }
        }
        Ok(self.finish(found.into_values().collect(), has_query))
    }
}

/// Files under `dir` for the fallback: `fd` when installed, else the walker.
fn list_files(dir: &Path, engine: &Engine, warnings: &mut Vec<String>) -> Vec<PathBuf> {
    const MAX: usize = 20_000;
    for fd in ["fd", "fdfind"] {
        let output = std::process::Command::new(fd)
            .args([
                "--type",
                "f",
                "--hidden",
                "--exclude",
                ".git",
                "--absolute-path",
            ])
            .arg(".")
            .arg(dir)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output();
        if let Ok(output) = output
            && output.status.success()
        {
            // fd's order depends on its threads: sort, then keep the first MAX.
            let mut files: Vec<PathBuf> = output
                .stdout
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .filter_map(|l| std::str::from_utf8(l).ok())
                .map(PathBuf::from)
                .collect();
            files.sort();
            files.truncate(MAX);
            return files;
        }
    }
    let config = engine.config();
    let options = crate::walk::WalkOptions {
        max_depth: config.index.depth_for(&dir.to_string_lossy()),
        max_files: MAX,
        excludes: config.index.exclude.patterns.clone(),
        ..crate::walk::WalkOptions::default()
    };
    match crate::walk::walk(dir, &options) {
        Ok(result) => result.files.into_iter().map(|f| f.path).collect(),
        Err(e) => {
            warnings.push(format!("cannot list {}: {e}", dir.display()));
            Vec::new()
        }
    }
}

/// The scan's key of entry `i` whose score is at most `bound`: the bound's complement
/// (high 32 bits, so that the highest bound sorts first) and the index (low 32 bits: a
/// list's offsets are u32, so it has fewer entries than that).
fn key(bound: u32, i: usize) -> u64 {
    (u64::from(!bound) << 32) | i as u64
}

/// The [`key`]s of the entries `indices` of `list` whose characters may match `m`'s query,
/// each bounded from the list's index alone (its masks and [`NameFacts`]; a path is read
/// only where its first bytes begin the query), for entries shown as stored.
fn keys_of_index<S: Scorer>(
    m: &S,
    list: &PathList<'_>,
    indices: impl Iterator<Item = usize>,
) -> Vec<u64> {
    let required = m.required_chars();
    indices
        .filter_map(|i| {
            if !S::may_match(required, list.mask(i)?) {
                return None;
            }
            let bound = m.bound(&list.facts(i)?, list.boundaries(i)?, || list.entry(i));
            Some(key(bound, i))
        })
        .collect()
}

/// Score the entries whose [`key`]s are `keys` into `best`, highest bound first;
/// `entry_at(i)` gives entry `i` and its displayed form (None: not in the scan), and the
/// displayed forms sort as their entries come in the list (a list is in path order).
///
/// The bound of an entry is what its prefix, file name and stem can make of the best
/// fuzzy score there is, found without matching anything ([`Scorer::bound`]). The scan
/// stops at the first entry whose bound is below the floor (the worst score `best`
/// keeps, or the higher one `floor` holds, from the threads scanning the rest of the
/// list: see [`SharedFloor`]): every entry left has a bound as low. An entry whose bound
/// only ties the worst kept is scored only when its display sorts before the worst's
/// (see [`Best::admits`]): nothing else it could score would enter. The first that does
/// not also stops the scan: the entries of the same bound after it sort after it too,
/// and the rest have lower bounds (`x`, whose bounds most paths share: the 12,000 paths
/// that tie the floor are no longer read). For a query most paths match (`ser`: 84% of
/// them), the paths whose names begin with it come first, and few others can reach what
/// they score: most paths are never matched. For one whose best matches are inside
/// longer names (`utils.ts` in `utilssrc.ts`), the floor rises as fast as the matches
/// come, highest bound first, instead of from whichever entries come first.
///
/// Bound order costs a sort, so it is found a slice at a time: the `best.keep` highest
/// bounds, then four times as many of the rest, and so on, each slice selected from
/// what is left and sorted, until the floor stops the scan. Ties go in list order. What
/// enters does not depend on the order, so the answer is the one scoring every entry
/// would give.
fn score_best_bound_first<'l, S: Scorer>(
    m: &mut S,
    mut keys: Vec<u64>,
    entry_at: impl Fn(usize) -> Option<(&'l str, Cow<'l, str>)>,
    root: &Path,
    (best, floor): (&mut Best, &SharedFloor),
) {
    let bound = |key: u64| !((key >> 32) as u32);
    let index = |key: u64| key as u32 as usize;
    let mut rest = &mut keys[..];
    let mut slice = best.keep.max(1);
    while !rest.is_empty() {
        let n = slice.min(rest.len());
        if n < rest.len() {
            rest.select_nth_unstable(n - 1);
        }
        let (next, left) = std::mem::take(&mut rest).split_at_mut(n);
        next.sort_unstable();
        for &key in next.iter() {
            let bound = bound(key);
            let lowest = best.floor().max(floor.get());
            if bound < lowest {
                // Every entry left has a bound this low or lower.
                return;
            }
            let Some((entry, display)) = entry_at(index(key)) else {
                continue;
            };
            if !best.admits(bound, &display) {
                // The bound ties the worst kept, whose display sorts before this one:
                // so do those of every entry left with the same bound.
                return;
            }
            if let Some(score) = m.score_above(&display, lowest) {
                best.offer_sharing(score, &display, root, entry, floor);
            }
        }
        rest = left;
        slice = slice.saturating_mul(4);
    }
}

/// Whether `text` has anything to search for: punctuation alone (`"`, `*`, `/`) is an
/// empty query, answered with the top files.
fn has_words(text: &str) -> bool {
    !crate::text::path_tokens(text).is_empty()
}

/// Add a match of `path` to `found`, or refit the one there (see [`Candidate::refit`]).
fn offer(
    found: &mut BTreeMap<String, Candidate>,
    path: String,
    display: String,
    fit: Fit,
    matched: Option<u32>,
) {
    match found.entry(path) {
        std::collections::btree_map::Entry::Vacant(e) => {
            let mut c = candidate(e.key().clone(), display, matched, 0);
            c.fit = fit;
            e.insert(c);
        }
        std::collections::btree_map::Entry::Occupied(mut e) => e.get_mut().refit(fit, matched),
    }
}

fn candidate(path: String, display: String, matched: Option<u32>, mtime: i64) -> Candidate {
    Candidate {
        path,
        display,
        matched,
        fit: Fit::Tight,
        mtime,
        frecency: 0.0,
        score: 0.0,
    }
}

/// Look up the frecency of every candidate, and its mtime where unknown when `need_mtime`
/// (see [`rank`]: only an empty query is ordered by it).
fn fill_activity(
    conn: &Connection,
    engine: &Engine,
    found: &mut BTreeMap<String, Candidate>,
    need_mtime: bool,
) -> std::result::Result<(), SearchError> {
    if found.is_empty() {
        return Ok(());
    }
    let weights = &engine.config().weights;
    // All candidates in one statement: hundreds of lookups without a statement each.
    let paths = serde_json::to_string(&found.keys().collect::<Vec<_>>())
        .map_err(|e| SearchError::Other(Error::Internal(format!("{OP}: {e}"))))?;
    // A modification time orders only the answers to an empty query: with a query, only
    // the files with a frecency are looked up, in that table alone.
    let mut stmt = conn.prepare_cached(if need_mtime {
        "SELECT m.path, m.mtime, f.git_recency, f.git_frequency, f.git_status_boost,
                f.claude_reads, f.claude_edits, f.claude_mentions
         FROM json_each(?1) AS j JOIN files_meta m ON m.path = j.value
         LEFT JOIN frecency f ON f.path = m.path"
    } else {
        "SELECT f.path, 0, f.git_recency, f.git_frequency, f.git_status_boost,
                f.claude_reads, f.claude_edits, f.claude_mentions
         FROM json_each(?1) AS j JOIN frecency f ON f.path = j.value"
    })?;
    let mut rows = stmt.query([paths])?;
    while let Some(r) = rows.next()? {
        let path: String = r.get(0)?;
        let Some(c) = found.get_mut(&path) else {
            continue;
        };
        let activity = activity_at(r, 2)?;
        if need_mtime && c.mtime == 0 {
            c.mtime = r.get(1)?;
        }
        c.frecency = activity.frecency(weights);
    }
    Ok(())
}

/// The activity signals of a row whose columns from `first` on are `git_recency,
/// git_frequency, git_status_boost, claude_reads, claude_edits, claude_mentions` of
/// `frecency` (NULL, from a LEFT JOIN, is 0).
fn activity_at(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Activity> {
    let signal = |i: usize| -> rusqlite::Result<f64> {
        Ok(r.get::<_, Option<f64>>(first + i)?.unwrap_or(0.0))
    };
    Ok(Activity {
        git_recency: signal(0)?,
        git_frequency: signal(1)?,
        git_status_boost: signal(2)?,
        claude_reads: signal(3)?,
        claude_edits: signal(4)?,
        claude_mentions: signal(5)?,
    })
}

/// The spec's smart path format: relative inside the project, `~/…` under the home
/// directory, absolute elsewhere.
pub fn display_path(path: &Path, project: &Path, home: Option<&Path>) -> String {
    if let Ok(rel) = path.strip_prefix(project)
        && !rel.as_os_str().is_empty()
    {
        return rel.to_string_lossy().into_owned();
    }
    if let Some(home) = home
        && let Ok(rel) = path.strip_prefix(home)
    {
        return format!("~/{}", rel.to_string_lossy());
    }
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::list::ListBuilder;
    use crate::files::rank::boundary_mask;

    #[test]
    fn display_paths() {
        let project = Path::new("/home/u/proj");
        let home = Some(Path::new("/home/u"));
        assert_eq!(
            display_path(Path::new("/home/u/proj/src/a.rs"), project, home),
            "src/a.rs"
        );
        assert_eq!(
            display_path(Path::new("/home/u/.config/x"), project, home),
            "~/.config/x"
        );
        assert_eq!(
            display_path(Path::new("/etc/hosts"), project, home),
            "/etc/hosts"
        );
        // A sibling whose name extends the project's is not inside it.
        assert_eq!(
            display_path(Path::new("/home/u/project2/a"), project, home),
            "~/project2/a"
        );
    }

    #[test]
    fn scope_bounds_cover_only_children() {
        let (lo, hi) = scope_bounds("/a/b");
        for inside in ["/a/b/c", "/a/b/zzz/y", "/a/b/\u{10ffff}"] {
            assert!(inside >= lo.as_str() && inside < hi.as_str(), "{inside}");
        }
        for outside in ["/a/b", "/a/b-c/d", "/a/bc/d", "/a/b0/x", "/a/c"] {
            assert!(
                !(outside >= lo.as_str() && outside < hi.as_str()),
                "{outside}"
            );
        }
    }
    /// The best `keep` of `paths` by scoring every path, as (score, path), best first.
    fn keep_by_scoring_all(query: &str, paths: &[String], keep: usize) -> Vec<(u32, String)> {
        let mut m = PathMatcher::new(query);
        let mut all: Vec<(u32, String)> = paths
            .iter()
            .filter_map(|p| Some((m.score(p)?, p.clone())))
            .collect();
        all.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        all.truncate(keep);
        all
    }

    /// The best `keep` of `paths` as the scan keeps them, (score, path), best first:
    /// bounded from a list's index, as the scan bounds entries shown as stored, after
    /// checking that the bounds are those of the paths as displayed (the other entries').
    fn keep_by_scan<S: Scorer>(m: &mut S, paths: &[String], keep: usize) -> Vec<(u32, String)> {
        let mut builder = ListBuilder::default();
        for p in paths {
            builder.push(p);
        }
        let (text, index, count) = builder.finish();
        let list = PathList::new(&text, Some(&index), count);
        let keys = keys_of_index(m, &list, 0..list.len());
        let required = m.required_chars();
        let of_paths: Vec<u64> = (paths.iter().enumerate())
            .filter(|(_, p)| S::may_match(required, char_mask(p)))
            .map(|(i, p)| {
                let facts = NameFacts::of(p);
                key(m.bound(&facts, boundary_mask(p), || Some(p)), i)
            })
            .collect();
        assert_eq!(keys, of_paths);
        let mut best = Best::new(keep);
        let at = |i: usize| list.entry(i).map(|p| (p, Cow::Borrowed(p)));
        score_best_bound_first(
            m,
            keys,
            at,
            Path::new("/r"),
            (&mut best, &SharedFloor::new(0)),
        );
        let mut kept: Vec<(u32, String)> = best
            .heap
            .into_iter()
            .map(|Reverse((score, Reverse(display), path))| {
                assert_eq!(path, format!("/r/{display}"));
                (score, display)
            })
            .collect();
        kept.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        kept
    }

    /// The best `keep` of `paths` as `parts` threads of the scan keep them, each scoring
    /// its stripes into a heap of its own with a floor they share, one after another
    /// (`in_turn`: each later part starts from the floor the earlier ones raised, the
    /// most the floor can prune) or at once, merged as the scan merges them.
    fn keep_by_parts(
        query: &str,
        paths: &[String],
        keep: usize,
        parts: usize,
        in_turn: bool,
    ) -> Vec<(u32, String)> {
        let mut builder = ListBuilder::default();
        for p in paths {
            builder.push(p);
        }
        let (text, index, count) = builder.finish();
        let list = PathList::new(&text, Some(&index), count);
        let floor = SharedFloor::new(0);
        let m = PathMatcher::new(query);
        // In turn, part `t` takes every `parts`-th stripe from its `t`-th; at once, the
        // parts take the stripes as the scan's threads do.
        let stripes = Stripes::new(list.len());
        let part = |t: usize| {
            let mut m = m.fork();
            let keys = match in_turn {
                true => keys_of_index(&m, &list, every_nth_stripe(list.len(), t, parts)),
                false => keys_of_index(&m, &list, stripes.take()),
            };
            let mut local = Best::new(keep);
            let at = |i: usize| list.entry(i).map(|p| (p, Cow::Borrowed(p)));
            score_best_bound_first(&mut m, keys, at, Path::new("/r"), (&mut local, &floor));
            local
        };
        let heaps: Vec<Best> = match in_turn {
            true => (0..parts).map(part).collect(),
            false => std::thread::scope(|s| {
                let handles: Vec<_> = (0..parts).map(|t| s.spawn(move || part(t))).collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            }),
        };
        let mut best = Best::new(keep);
        for heap in heaps {
            best.merge(heap);
        }
        let mut kept: Vec<(u32, String)> = (best.heap.into_iter())
            .map(|Reverse((score, Reverse(display), _))| (score, display))
            .collect();
        kept.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        kept
    }

    #[test]
    fn threads_sharing_a_floor_keep_what_scoring_every_path_keeps() {
        // Stripes of 1,024 entries: 5,000 paths give each of three parts several.
        for seed in [4, 5] {
            let paths = crate::files::rank::generated_paths(5000, seed);
            for query in crate::files::rank::UNSELECTIVE_QUERIES {
                for keep in [1, 15, 300] {
                    let all = keep_by_scoring_all(query, &paths, keep);
                    for parts in [2, 3] {
                        for in_turn in [true, false] {
                            assert_eq!(
                                keep_by_parts(query, &paths, keep, parts, in_turn),
                                all,
                                "{query:?}, keep {keep}, {parts} parts, in turn: {in_turn}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Every `parts`-th stripe of a list of `n` entries, beginning with its `t`-th.
    fn every_nth_stripe(n: usize, t: usize, parts: usize) -> impl Iterator<Item = usize> {
        (t * STRIPE..n)
            .step_by(parts * STRIPE)
            .flat_map(move |start| start..(start + STRIPE).min(n))
    }

    #[test]
    fn the_threads_take_every_entry_once() {
        for n in [0, 1, 1023, 1024, 1025, 5000, 100_000] {
            for threads in 1..=4 {
                let stripes = Stripes::new(n);
                let mut seen: Vec<usize> = std::thread::scope(|s| {
                    let handles: Vec<_> = (0..threads)
                        .map(|_| s.spawn(|| stripes.take().collect::<Vec<_>>()))
                        .collect();
                    handles
                        .into_iter()
                        .flat_map(|h| h.join().unwrap())
                        .collect()
                });
                seen.sort_unstable();
                assert_eq!(
                    seen,
                    (0..n).collect::<Vec<_>>(),
                    "{n} entries, {threads} threads"
                );
                // Once taken, nothing is left.
                assert_eq!(stripes.take().next(), None);
            }
        }
    }

    #[test]
    fn scoring_best_bound_first_keeps_what_scoring_every_path_keeps() {
        for seed in [1, 2, 3] {
            let paths = crate::files::rank::generated_paths(4000, seed);
            for query in crate::files::rank::UNSELECTIVE_QUERIES {
                for keep in [1, 15, 300] {
                    let mut m = PathMatcher::new(query);
                    assert_eq!(
                        keep_by_scan(&mut m, &paths, keep),
                        keep_by_scoring_all(query, &paths, keep),
                        "{query:?}, keep {keep}, seed {seed}"
                    );
                }
            }
        }
    }
}
