//! `grep`: search file contents in one or more directories, with compact JSON results.
//!
//! One operation, [`Search`] (`grep.search`). Its parameters are those of the `checkfor`
//! tool (`search`, `dir`, `ext`, `exclude`, `case_insensitive`, `whole_word`, `context`,
//! `hide_filter_stats`) plus `recursive`, `regex`, `max_matches` and `max_tokens`; its
//! result is checkfor's shape:
//!
//! ```json
//! {"directories":[{"dir":"./pkg","matches_found":3,"original_matches":5,"filtered_matches":2,
//!   "files":[{"path":"user.go","matches":[{"line":4,"content":"…"}]}]}]}
//! ```
//!
//! What a search does:
//!
//! - Each directory is searched in the order given and reported on its own, with paths
//!   relative to it and files in path order. Without `recursive` only its own files are
//!   read (subdirectories are skipped, every file is read as checkfor does); with it the
//!   tree is walked by [`crate::walk`]: `.gitignore` rules, the default excludes, no
//!   symlinks followed. A directory that cannot be read gets an `error` and the others
//!   are still searched.
//! - `search` is a literal substring unless `regex` is set; `case_insensitive` applies to
//!   it and to the `exclude` strings; `whole_word` requires a non-word character (or the
//!   line's edge) on both sides of an occurrence, word characters being ASCII
//!   `[A-Za-z0-9_]`, and a line matches when any occurrence does.
//! - A matching line that contains one of the `exclude` strings is dropped and counted:
//!   `original_matches` (before) and `filtered_matches` (dropped) are shown when exclude
//!   strings were given and `hide_filter_stats` is not set. As in checkfor, a count of
//!   zero is left out.
//! - `context` lines before and after each match are the file's own lines, clipped at its
//!   edges; an empty side is left out.
//! - Files with a NUL byte (binary) are skipped. Lines of any length are read; bytes that
//!   are not UTF-8 are shown as U+FFFD. A file that cannot be read is skipped with a
//!   warning.
//! - `max_matches` keeps the first matches in output order; `max_tokens` bounds the JSON
//!   (about four bytes a token) by dropping context lines, then shortening long lines,
//!   then dropping the last matches. Either sets `"truncated":true`. `matches_found`
//!   counts the matches the search found, also when fewer are listed.
//!
//! Matching runs on ripgrep's libraries (`grep-searcher`, `grep-regex`); files are
//! searched in parallel, one searcher per thread, and the output is the same on every run.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use grep_matcher::Matcher;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The operation's name.
const OP: &str = "grep.search";

/// What a whole-word occurrence must have on each side (unless at the line's edge): a
/// byte that is not an ASCII word character.
const NON_WORD: &str = "(?-u:[^0-9A-Za-z_])";

/// Fewer files than this are searched on the calling thread alone: starting threads
/// would cost more than it saves.
const MIN_PARALLEL_FILES: usize = 16;

/// Longest `content` kept, in bytes, when `max_tokens` has to shorten lines.
const SHORT_LINE_BYTES: usize = 200;

/// `grep.search`: search file contents in directories (the `checkfor` tool).
#[derive(Debug, Clone, Copy)]
pub struct Search;

/// Parameters of `grep.search`: checkfor's, plus `recursive`, `regex`, `max_matches` and
/// `max_tokens`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// The text to search for: a literal substring, or a regular expression (Rust
    /// `regex` syntax) with `regex`. Must not be empty.
    pub search: String,
    /// Directories to search, in this order: one path or an array of paths. Defaults to
    /// the project directory (`$CLAUDE_PROJECT_DIR`, else the current directory).
    /// Relative paths are relative to the current directory; each is reported as given.
    #[serde(default, deserialize_with = "one_or_many")]
    #[schemars(with = "OneOrMany")]
    pub dir: Vec<String>,
    /// Only files whose name ends with this extension (`.go`, or `go`).
    #[serde(default)]
    pub ext: Option<String>,
    /// Drop matching lines that contain any of these strings (one string or an array).
    #[serde(default, deserialize_with = "one_or_many")]
    #[schemars(with = "OneOrMany")]
    pub exclude: Vec<String>,
    /// Ignore case in `search` and `exclude`.
    #[serde(default)]
    pub case_insensitive: bool,
    /// Match whole words only (word characters: ASCII letters, digits, `_`).
    #[serde(default)]
    pub whole_word: bool,
    /// Lines of context before and after each match (default 0).
    #[serde(default)]
    pub context: usize,
    /// Leave `original_matches` and `filtered_matches` out.
    #[serde(default)]
    pub hide_filter_stats: bool,
    /// Search subdirectories too, following `.gitignore` and the default excludes.
    #[serde(default)]
    pub recursive: bool,
    /// `search` is a regular expression.
    #[serde(default)]
    pub regex: bool,
    /// List at most this many matches (in output order).
    #[serde(default)]
    pub max_matches: Option<usize>,
    /// Keep the JSON result within about this many tokens (4 bytes each).
    #[serde(default)]
    pub max_tokens: Option<usize>,
}

/// A string or an array of strings (how `dir` and `exclude` may be given).
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
#[allow(dead_code)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    struct Visitor;
    impl<'de> serde::de::Visitor<'de> for Visitor {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string or an array of strings")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(vec![v.to_string()])
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(item) = seq.next_element::<String>()? {
                out.push(item);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_any(Visitor)
}

/// Result of `grep.search` (checkfor's shape).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchResponse {
    /// One entry per directory, in the order asked for.
    pub directories: Vec<DirectoryResult>,
    /// Present (`true`) when `max_matches` or `max_tokens` left matches or lines out.
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// Files that could not be read, and what a recursive walk skipped; left out when
    /// empty. Surfaces show them apart from the result (the CLI on stderr).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The matches in one directory.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DirectoryResult {
    /// The directory, as given.
    pub dir: String,
    /// Matches found (after `exclude`).
    pub matches_found: usize,
    /// Matches before `exclude` dropped any; only with `exclude`, without
    /// `hide_filter_stats`, and not zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_matches: Option<usize>,
    /// Matches `exclude` dropped; only with `exclude`, without `hide_filter_stats`, and
    /// not zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filtered_matches: Option<usize>,
    /// Files with matches, in path order, paths relative to `dir`.
    pub files: Vec<FileMatch>,
    /// Why the directory could not be searched; left out when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The matches in one file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FileMatch {
    /// Path relative to the directory searched, `/`-separated.
    pub path: String,
    /// Matching lines, in line order.
    pub matches: Vec<LineMatch>,
}

/// One matching line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LineMatch {
    /// Line number, from 1.
    pub line: u64,
    /// The line, without its line ending.
    pub content: String,
    /// Up to `context` lines before it; left out when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context_before: Vec<String>,
    /// Up to `context` lines after it; left out when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context_after: Vec<String>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl crate::ops::Operation for Search {
    const NAME: &'static str = OP;
    const SUMMARY: &'static str = "Search file contents in one or more directories (non-recursive unless asked): literal or regex, whole word, case-insensitive, exclude strings, context lines; compact JSON per directory (the checkfor tool).";
    type Request = SearchRequest;
    type Response = SearchResponse;
    const PATH_PARAMS: &'static [crate::ops::PathParam] =
        &[crate::ops::PathParam::many("/dir").or_project()];
    fn run(_engine: &crate::Engine, request: SearchRequest) -> Result<SearchResponse> {
        search(&request)
    }
}

/// Run a search (what `grep.search` does; it needs no engine).
pub fn search(request: &SearchRequest) -> Result<SearchResponse> {
    let plan = Plan::new(request)?;
    let mut warnings = Vec::new();

    // The files of every directory, in output order, as one list of jobs.
    let mut listings: Vec<std::result::Result<(), String>> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    for (index, dir) in plan.dirs.iter().enumerate() {
        match list_files(dir, request.recursive, plan.ext.as_deref(), &mut warnings) {
            Ok(files) => {
                listings.push(Ok(()));
                jobs.extend(files.into_iter().map(|(rel, path)| Job {
                    dir: index,
                    rel,
                    path,
                }));
            }
            Err(message) => listings.push(Err(message)),
        }
    }

    let outcomes = run_jobs(&plan, &jobs)?;

    // Assemble in order, keeping at most `max_matches` matches.
    let mut directories: Vec<DirectoryResult> = plan
        .dirs
        .iter()
        .zip(&listings)
        .map(|(dir, listing)| DirectoryResult {
            dir: dir.clone(),
            error: listing.as_ref().err().cloned(),
            ..DirectoryResult::default()
        })
        .collect();
    let mut stats = vec![(0usize, 0usize); plan.dirs.len()];
    let mut remaining = plan.max_matches.unwrap_or(usize::MAX);
    let mut truncated = false;
    for (job, outcome) in jobs.iter().zip(outcomes) {
        if truncated {
            break;
        }
        let hits = match outcome {
            None => break, // not searched: an earlier file reached max_matches
            Some(Outcome::Binary) => continue,
            Some(Outcome::Failed(message)) => {
                warnings.push(format!(
                    "cannot search {}: {message}",
                    shown_path(&plan.dirs[job.dir], &job.rel)
                ));
                continue;
            }
            Some(Outcome::Searched(hits)) => hits,
        };
        let FileHits {
            mut matches,
            mut original,
            mut filtered,
        } = hits;
        if matches.len() > remaining {
            truncated = true;
            matches.truncate(remaining);
            // The statistics cover the lines up to the last match listed.
            let before = matches.last().map_or(0, |m| m.filtered_before);
            filtered = before;
            original = matches.len() + before;
        }
        remaining -= matches.len();
        let entry = &mut stats[job.dir];
        entry.0 += original;
        entry.1 += filtered;
        let directory = &mut directories[job.dir];
        directory.matches_found += matches.len();
        if !matches.is_empty() {
            directory.files.push(FileMatch {
                path: job.rel.clone(),
                matches: matches.into_iter().map(|hit| hit.line).collect(),
            });
        }
    }
    if plan.show_stats {
        for (directory, (original, filtered)) in directories.iter_mut().zip(stats) {
            directory.original_matches = (original > 0).then_some(original);
            directory.filtered_matches = (filtered > 0).then_some(filtered);
        }
    }

    warnings.sort();
    warnings.dedup();
    let mut response = SearchResponse {
        directories,
        truncated,
        warnings,
    };
    if let Some(max_tokens) = plan.max_tokens {
        fit_tokens(&mut response, max_tokens);
    }
    Ok(response)
}

/// A request checked and compiled.
struct Plan {
    dirs: Vec<String>,
    ext: Option<String>,
    matcher: RegexMatcher,
    exclude: Option<RegexMatcher>,
    context: usize,
    show_stats: bool,
    max_matches: Option<usize>,
    max_tokens: Option<usize>,
}

impl Plan {
    fn new(request: &SearchRequest) -> Result<Plan> {
        if request.search.is_empty() {
            return Err(Error::invalid(OP, "`search` must not be empty"));
        }
        if request.max_matches == Some(0) {
            return Err(Error::invalid(OP, "`max_matches` must be at least 1"));
        }
        if request.max_tokens == Some(0) {
            return Err(Error::invalid(OP, "`max_tokens` must be at least 1"));
        }
        if let Some(dir) = request.dir.iter().find(|d| d.is_empty()) {
            return Err(Error::invalid(
                OP,
                format!("`dir` holds an empty path ({dir:?})"),
            ));
        }
        let dirs = if request.dir.is_empty() {
            vec![
                crate::env::env_path("CLAUDE_PROJECT_DIR")
                    .map_or_else(|| ".".to_string(), |p| p.to_string_lossy().into_owned()),
            ]
        } else {
            request.dir.clone()
        };
        let ext = request
            .ext
            .as_deref()
            .map(|e| e.trim().trim_start_matches('*'))
            .filter(|e| !e.is_empty())
            .map(|e| {
                if e.starts_with('.') {
                    e.to_string()
                } else {
                    format!(".{e}")
                }
            });
        let excludes: Vec<&str> = request
            .exclude
            .iter()
            .map(String::as_str)
            .filter(|e| !e.is_empty())
            .collect();
        let exclude = if excludes.is_empty() {
            None
        } else {
            Some(
                RegexMatcherBuilder::new()
                    .case_insensitive(request.case_insensitive)
                    .fixed_strings(true)
                    .build_many(&excludes)
                    .map_err(|e| Error::invalid(OP, format!("`exclude`: {e}")))?,
            )
        };
        Ok(Plan {
            dirs,
            ext,
            matcher: build_matcher(request)?,
            exclude,
            context: request.context,
            show_stats: !excludes.is_empty() && !request.hide_filter_stats,
            max_matches: request.max_matches,
            max_tokens: request.max_tokens,
        })
    }
}

/// The line matcher for `search`: `^` and `$` match at line edges, and no match spans a
/// line ending.
fn build_matcher(request: &SearchRequest) -> Result<RegexMatcher> {
    let mut builder = RegexMatcherBuilder::new();
    builder
        .case_insensitive(request.case_insensitive)
        .multi_line(true)
        .line_terminator(Some(b'\n'));
    let built = if request.whole_word {
        let inner = if request.regex {
            request.search.clone()
        } else {
            escape(&request.search)
        };
        builder.build(&format!("(?:^|{NON_WORD})(?:{inner})(?:$|{NON_WORD})"))
    } else if request.regex {
        builder.build(&request.search)
    } else {
        builder.fixed_strings(true).build(&request.search)
    };
    built.map_err(|e| {
        let what = if request.regex {
            "`search` is not a valid regular expression"
        } else {
            "`search` cannot be searched for"
        };
        Error::invalid(OP, format!("{what}: {e}"))
    })
}

/// `text` as a regular expression matching exactly it.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `dir` and `rel` joined as a user would type them.
fn shown_path(dir: &str, rel: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{rel}")
    } else {
        format!("{dir}/{rel}")
    }
}

/// The files to search in `dir` as (path relative to `dir`, path to open), sorted by
/// relative path. `Err` when the directory itself cannot be read.
fn list_files(
    dir: &str,
    recursive: bool,
    ext: Option<&str>,
    warnings: &mut Vec<String>,
) -> std::result::Result<Vec<(String, PathBuf)>, String> {
    let wanted = |name: &str| ext.is_none_or(|ext| name.ends_with(ext) && name.len() > ext.len());
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    if recursive {
        // Paths only: grep needs no mtimes or sizes, and skips binary files by content.
        let options = crate::walk::WalkOptions {
            max_depth: usize::MAX,
            max_files: usize::MAX,
            max_file_size: u64::MAX,
            metadata: false,
            ..crate::walk::WalkOptions::default()
        };
        let walked = crate::walk::walk(Path::new(dir), &options).map_err(|e| match e {
            Error::Io { source, .. } => source.to_string(),
            other => other.to_string(),
        })?;
        warnings.extend(walked.warnings);
        for file in walked.files {
            let Ok(rel) = file.path.strip_prefix(&walked.root) else {
                continue;
            };
            let name = file
                .path
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default();
            if !wanted(&name) {
                continue;
            }
            files.push((slash_path(rel), file.path));
        }
    } else {
        let entries = std::fs::read_dir(dir).map_err(|e| e.to_string())?;
        // A link is followed only to a file inside the directory searched, as the
        // recursive walk's rules have it: a link cannot bring in a file from elsewhere.
        let inside = std::fs::canonicalize(dir).map_err(|e| e.to_string())?;
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    warnings.push(format!("{dir}: {e}"));
                    continue;
                }
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                warnings.push(format!(
                    "cannot search {}: unknown file type",
                    shown_path(dir, &name)
                ));
                continue;
            };
            if kind.is_symlink() {
                match std::fs::canonicalize(&path).and_then(|t| Ok((std::fs::metadata(&t)?, t))) {
                    Ok((meta, target)) if meta.is_file() && target.starts_with(&inside) => {}
                    Ok((meta, target)) if meta.is_file() => {
                        warnings.push(format!(
                            "symlink leaves {dir}, skipped: {} -> {}",
                            shown_path(dir, &name),
                            target.display()
                        ));
                        continue;
                    }
                    Ok(_) => continue,
                    Err(e) => {
                        warnings.push(format!("cannot search {}: {e}", shown_path(dir, &name)));
                        continue;
                    }
                }
            } else if !kind.is_file() {
                // Directories are not descended into; FIFOs, sockets and devices are not
                // files to search (reading a FIFO would wait forever).
                continue;
            }
            if wanted(&name) {
                files.push((name, path));
            }
        }
    }
    files.sort_by(|a, b| {
        Path::new(&a.0)
            .cmp(Path::new(&b.0))
            .then_with(|| a.0.cmp(&b.0))
    });
    Ok(files)
}

fn slash_path(path: &Path) -> String {
    let parts: Vec<_> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    parts.join("/")
}

/// One file to search: its directory's index, its shown path, the path to open.
struct Job {
    dir: usize,
    rel: String,
    path: PathBuf,
}

/// What searching one file gave.
enum Outcome {
    Searched(FileHits),
    Binary,
    Failed(String),
}

/// The matches of one file.
struct FileHits {
    matches: Vec<Hit>,
    /// Matching lines before `exclude`.
    original: usize,
    /// Matching lines `exclude` dropped.
    filtered: usize,
}

struct Hit {
    line: LineMatch,
    /// Lines `exclude` dropped before this one in its file.
    filtered_before: usize,
}

/// Search every job, in parallel; `None` for jobs left unsearched because `max_matches`
/// was reached by the files before them.
fn run_jobs(plan: &Plan, jobs: &[Job]) -> Result<Vec<Option<Outcome>>> {
    // One more than asked, so a cut is known to have left something out.
    let per_file = plan.max_matches.map_or(usize::MAX, |m| m.saturating_add(1));
    let next = AtomicUsize::new(0);
    let found = AtomicUsize::new(0);
    let stop = crate::progress::stopper();
    // `caller`: the calling thread, which also asks the caller whether to stop (a
    // pending Ctrl-C); the others see what it decided through `stop`.
    let worker = |matcher: RegexMatcher, exclude: Option<RegexMatcher>, caller: bool| {
        let mut searcher = SearcherBuilder::new()
            .line_number(true)
            .binary_detection(BinaryDetection::quit(b'\0'))
            .before_context(plan.context)
            .after_context(plan.context)
            .build();
        let mut done: Vec<(usize, Outcome)> = Vec::new();
        loop {
            // Files are taken in order and every file taken is finished, so the files
            // searched are always a prefix of the list: the output does not depend on
            // timing.
            if found.load(Ordering::Acquire) >= per_file
                || stop.stopped()
                || (caller && crate::progress::checkpoint().is_err())
            {
                break;
            }
            let index = next.fetch_add(1, Ordering::AcqRel);
            let Some(job) = jobs.get(index) else {
                break;
            };
            let outcome = search_file(
                &mut searcher,
                &matcher,
                exclude.as_ref(),
                plan.context,
                per_file,
                &job.path,
            );
            if let Outcome::Searched(hits) = &outcome {
                found.fetch_add(hits.matches.len(), Ordering::AcqRel);
            }
            done.push((index, outcome));
        }
        done
    };

    let threads = if jobs.len() < MIN_PARALLEL_FILES {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(jobs.len())
    };
    let mut finished: Vec<(usize, Outcome)> = if threads <= 1 {
        worker(plan.matcher.clone(), plan.exclude.clone(), true)
    } else {
        // The calling thread is one of the workers.
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    let (matcher, exclude) = (plan.matcher.clone(), plan.exclude.clone());
                    let worker = &worker;
                    scope.spawn(move || worker(matcher, exclude, false))
                })
                .collect();
            let mut all = worker(plan.matcher.clone(), plan.exclude.clone(), true);
            for helper in helpers {
                let done = helper
                    .join()
                    .map_err(|_| Error::Internal(format!("{OP}: a search thread panicked")))?;
                all.extend(done);
            }
            Ok::<_, Error>(all)
        })?
    };
    crate::progress::checkpoint()?;
    finished.sort_by_key(|(index, _)| *index);
    let mut outcomes: Vec<Option<Outcome>> = Vec::with_capacity(jobs.len());
    outcomes.resize_with(jobs.len(), || None);
    for (index, outcome) in finished {
        outcomes[index] = Some(outcome);
    }
    Ok(outcomes)
}

fn search_file(
    searcher: &mut Searcher,
    matcher: &RegexMatcher,
    exclude: Option<&RegexMatcher>,
    context: usize,
    limit: usize,
    path: &Path,
) -> Outcome {
    let mut sink = Collect {
        exclude,
        context: context as u64,
        limit,
        hits: Vec::new(),
        lines: Vec::new(),
        original: 0,
        filtered: 0,
        binary: false,
        stop_after: None,
    };
    if let Err(e) = searcher.search_path(matcher, path, &mut sink) {
        return Outcome::Failed(e.to_string());
    }
    if sink.binary {
        return Outcome::Binary;
    }
    let Collect {
        mut hits,
        lines,
        original,
        filtered,
        ..
    } = sink;
    if context > 0 {
        for hit in &mut hits {
            let line = hit.line.line;
            let start = line.saturating_sub(context as u64);
            let end = line.saturating_add(context as u64);
            let from = lines.partition_point(|(n, _)| *n < start);
            let to = lines.partition_point(|(n, _)| *n <= end);
            for (n, text) in &lines[from..to] {
                if *n < line {
                    hit.line.context_before.push(text.clone());
                } else if *n > line {
                    hit.line.context_after.push(text.clone());
                }
            }
        }
    }
    Outcome::Searched(FileHits {
        matches: hits,
        original,
        filtered,
    })
}

/// Collects one file's matching lines (and, with context, every line the searcher shows
/// around them).
struct Collect<'a> {
    exclude: Option<&'a RegexMatcher>,
    context: u64,
    limit: usize,
    hits: Vec<Hit>,
    /// With context: every line shown, matching or not, in line order.
    lines: Vec<(u64, String)>,
    original: usize,
    filtered: usize,
    binary: bool,
    /// Once `limit` matches are kept: the last line still needed (for context).
    stop_after: Option<u64>,
}

impl Sink for Collect<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        let first = mat.line_number().unwrap_or(0);
        for (i, line) in mat.lines().enumerate() {
            let number = first + i as u64;
            let text = trim_line_end(line);
            if let Some(stop) = self.stop_after {
                if number > stop {
                    return Ok(false);
                }
                self.lines.push((number, lossy(text)));
                continue;
            }
            if self.context > 0 {
                self.lines.push((number, lossy(text)));
            }
            self.original += 1;
            if let Some(exclude) = self.exclude
                && exclude.is_match(text).unwrap_or(false)
            {
                self.filtered += 1;
                continue;
            }
            self.hits.push(Hit {
                line: LineMatch {
                    line: number,
                    content: lossy(text),
                    ..LineMatch::default()
                },
                filtered_before: self.filtered,
            });
            if self.hits.len() >= self.limit {
                if self.context == 0 {
                    return Ok(false);
                }
                self.stop_after = Some(number.saturating_add(self.context));
            }
        }
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, std::io::Error> {
        let number = ctx.line_number().unwrap_or(0);
        if self.stop_after.is_some_and(|stop| number > stop) {
            return Ok(false);
        }
        self.lines.push((number, lossy(trim_line_end(ctx.bytes()))));
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _: u64) -> Result<bool, std::io::Error> {
        self.binary = true;
        Ok(false)
    }
}

/// A line without its `\n` or `\r\n`.
fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// --- max_tokens -----------------------------------------------------------------------

/// Bytes of the result as surfaces print it (compact JSON, without the warnings).
fn json_bytes(response: &SearchResponse) -> usize {
    #[derive(Serialize)]
    struct Shown<'a> {
        directories: &'a [DirectoryResult],
        #[serde(skip_serializing_if = "is_false")]
        truncated: bool,
    }
    serde_json::to_vec(&Shown {
        directories: &response.directories,
        truncated: response.truncated,
    })
    .map_or(usize::MAX, |v| v.len())
}

/// Make the printed result fit `max_tokens` (4 bytes a token): drop context lines, then
/// shorten long lines, then drop the last matches.
fn fit_tokens(response: &mut SearchResponse, max_tokens: usize) {
    let budget = max_tokens.saturating_mul(4);
    if json_bytes(response) <= budget {
        return;
    }
    response.truncated = true;
    for m in all_matches(&mut response.directories) {
        m.context_before = Vec::new();
        m.context_after = Vec::new();
    }
    if json_bytes(response) <= budget {
        return;
    }
    for m in all_matches(&mut response.directories) {
        shorten(&mut m.content);
    }
    if json_bytes(response) <= budget {
        return;
    }
    // Keep the longest prefix of matches (in output order) that fits, counting the bytes
    // each adds to the compact JSON.
    let skeleton = SearchResponse {
        directories: response
            .directories
            .iter()
            .map(|d| DirectoryResult {
                files: Vec::new(),
                error: d.error.clone(),
                dir: d.dir.clone(),
                ..*d
            })
            .collect(),
        truncated: true,
        warnings: Vec::new(),
    };
    let mut size = json_bytes(&skeleton);
    let mut kept: Vec<Vec<(usize, usize)>> = Vec::new(); // per directory: (file index, matches kept)
    'dirs: for d in &response.directories {
        let mut per_file = Vec::new();
        for (fi, f) in d.files.iter().enumerate() {
            let mut count = 0;
            for (mi, m) in f.matches.iter().enumerate() {
                let mut add = json_len(m) + usize::from(mi > 0);
                if mi == 0 {
                    // `{"path":…,"matches":[` … `]}` and the comma before a later file.
                    add += json_len(&f.path) + r#"{"path":,"matches":[]}"#.len();
                    add += usize::from(!per_file.is_empty());
                }
                if size + add > budget {
                    if count > 0 {
                        per_file.push((fi, count));
                    }
                    kept.push(per_file);
                    break 'dirs;
                }
                size += add;
                count += 1;
            }
            if count > 0 {
                per_file.push((fi, count));
            }
        }
        kept.push(per_file);
    }
    for (di, d) in response.directories.iter_mut().enumerate() {
        let keep = kept.get(di).cloned().unwrap_or_default();
        let files = std::mem::take(&mut d.files);
        d.files = files
            .into_iter()
            .enumerate()
            .filter_map(|(fi, mut f)| {
                let (_, count) = keep.iter().find(|(k, _)| *k == fi)?;
                f.matches.truncate(*count);
                Some(f)
            })
            .collect();
    }
}

fn all_matches(directories: &mut [DirectoryResult]) -> impl Iterator<Item = &mut LineMatch> {
    directories
        .iter_mut()
        .flat_map(|d| d.files.iter_mut())
        .flat_map(|f| f.matches.iter_mut())
}

/// `content` cut to about [`SHORT_LINE_BYTES`], at a character boundary, marked with `…`.
fn shorten(content: &mut String) {
    if content.len() <= SHORT_LINE_BYTES {
        return;
    }
    let mut end = SHORT_LINE_BYTES;
    while !content.is_char_boundary(end) {
        end -= 1;
    }
    content.truncate(end);
    content.push('…');
}

/// The length of a value's compact JSON.
fn json_len<T: Serialize + ?Sized>(value: &T) -> usize {
    serde_json::to_vec(value).map_or(usize::MAX / 4, |v| v.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher(
        search: &str,
        whole_word: bool,
        case_insensitive: bool,
        regex: bool,
    ) -> RegexMatcher {
        let request = SearchRequest {
            search: search.into(),
            whole_word,
            case_insensitive,
            regex,
            ..SearchRequest::default()
        };
        build_matcher(&request).unwrap()
    }

    fn matches(m: &RegexMatcher, line: &str) -> bool {
        m.is_match(line.as_bytes()).unwrap()
    }

    #[test]
    fn whole_word_uses_ascii_word_characters() {
        let m = matcher("hello", true, false, false);
        for (text, expected) in [
            ("hello", true),
            ("hello world", true),
            ("say hello", true),
            ("hello, world", true),
            ("helloworld", false),
            ("superhello", false),
            ("hello_world", false),
            ("Hello", false),
            ("hello1", false),
            ("(hello)", true),
            ("héllo hello", true),
            ("éhelloé", true),
        ] {
            assert_eq!(matches(&m, text), expected, "{text:?}");
        }
        let log = matcher("log", true, false, false);
        assert!(matches(&log, "log logger log"));
        assert!(matches(&log, "logger log"));
        assert!(!matches(&log, "logger catalog"));
    }

    #[test]
    fn literal_search_escapes_regex_syntax() {
        let m = matcher("m.Table(", false, false, false);
        assert!(matches(&m, "x := m.Table(1)"));
        assert!(!matches(&m, "x := mxTable(1)"));
        let w = matcher("a.b", true, false, false);
        assert!(matches(&w, "x a.b y"));
        assert!(!matches(&w, "x a.bc y"));
        assert!(!matches(&w, "x axb y"));
        assert_eq!(escape(r"a\b.c*[d]-~"), r"a\\b\.c\*\[d\]\-\~");
    }

    #[test]
    fn regex_anchors_match_at_line_edges() {
        let m = matcher("^fn ", false, false, true);
        assert!(matches(&m, "fn main()"));
        assert!(!matches(&m, "  fn main()"));
    }

    #[test]
    fn case_insensitive_whole_word() {
        let m = matcher("LOG", true, true, false);
        assert!(matches(&m, "a Log b"));
        assert!(!matches(&m, "Logger"));
    }

    #[test]
    fn shorten_cuts_at_a_character_boundary() {
        let mut s = "é".repeat(150);
        shorten(&mut s);
        assert!(s.ends_with('…'));
        assert!(s.len() <= SHORT_LINE_BYTES + '…'.len_utf8());
        let mut short = "abc".to_string();
        shorten(&mut short);
        assert_eq!(short, "abc");
    }
}
