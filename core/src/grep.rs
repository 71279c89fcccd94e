//! `grep`: search file contents in one or more directories, with compact JSON results.
//!
//! One operation, [`Search`] (`grep.search`). Its parameters are those of the `checkfor`
//! tool (`search`, `dir`, `ext`, `exclude`, `case_insensitive`, `whole_word`, `context`,
//! `hide_filter_stats`) plus `recursive`, `hidden`, `skip_generated`, `regex`,
//! `max_matches` and `max_tokens`; its result is checkfor's shape:
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
//!   tree is walked by [`crate::walk`] with ripgrep's defaults: ignore files (`.gitignore`
//!   inside a git repository, `.ignore`, `.git/info/exclude`, the global excludes) and
//!   hidden files exclude, symlinks are not followed; `hidden` includes hidden files,
//!   `skip_generated` adds the index walkers' [`crate::walk::DEFAULT_EXCLUDES`]. Files are
//!   searched on the walk's threads as it finds them. A directory that cannot be read
//!   gets an `error` and the others are still searched. A file given as a directory is
//!   searched itself (its path in the answer is its name), whatever `ext` says.
//! - Without `recursive`, what is below goes uncounted in `matches_found` but not unseen:
//!   `below` counts the matches (and their files) that a recursive search would add, in
//!   the subdirectories it would walk, so an answer that found little says where the
//!   rest is.
//! - `ext` keeps files whose name ends with one of its extensions.
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
//!   then dropping the last matches. Either sets `"truncated":true`. Every file is still
//!   searched: `matches_found` (and the filter statistics) count all the matches there
//!   are, also when fewer are listed.
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
    /// Only files whose name ends with one of these extensions (`.go` or `go`): one
    /// string, several separated by commas (`rs,py`), or an array.
    #[serde(default, deserialize_with = "one_or_many")]
    #[schemars(with = "OneOrMany")]
    pub ext: Vec<String>,
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
    /// Search subdirectories too, skipping what ripgrep skips by default: files that
    /// ignore files exclude (`.gitignore` in a git repository, `.ignore`) and hidden
    /// files and directories.
    #[serde(default)]
    pub recursive: bool,
    /// With `recursive`: search hidden files and directories too (never `.git`).
    #[serde(default)]
    pub hidden: bool,
    /// With `recursive`: also skip dependency, build and cache output: the directories
    /// `node_modules`, `dist`, `build`, `.next`, `.nuxt`, `target`, `__pycache__`, `.venv`,
    /// `vendor`, `coverage`, `.cache`, and `*.pyc` files.
    #[serde(default)]
    pub skip_generated: bool,
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
    /// Without `recursive`: the matches in its subdirectories, which `recursive` would
    /// search too (with ripgrep's rules, as it walks them); left out when there are none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below: Option<Below>,
}

/// Matches a recursive search would add below a directory searched without it.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Below {
    /// Matching lines (after `exclude`).
    pub matches: usize,
    /// Files that have them.
    pub files: usize,
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
    let mut directories = Vec::with_capacity(plan.dirs.len());
    let mut remaining = plan.max_matches.unwrap_or(usize::MAX);
    let mut truncated = false;
    for dir in &plan.dirs {
        let mut directory = DirectoryResult {
            dir: dir.clone(),
            ..DirectoryResult::default()
        };
        let searched = if Path::new(dir).is_file() {
            search_one(&plan, dir, &mut warnings)
        } else if plan.recursive {
            search_tree(&plan, dir, &mut warnings)
        } else {
            let listed = search_listed(&plan, dir, &mut warnings);
            if listed.is_ok() {
                directory.below = count_below(&plan, dir)?;
            }
            listed
        };
        let (mut original, mut filtered) = (0, 0);
        match searched {
            Ok(files) => {
                for (rel, hits) in files {
                    original += hits.original;
                    filtered += hits.filtered;
                    directory.matches_found += hits.original - hits.filtered;
                    let mut matches = hits.matches;
                    if matches.len() > remaining || hits.original - hits.filtered > matches.len() {
                        truncated = true;
                    }
                    matches.truncate(remaining);
                    remaining -= matches.len();
                    if !matches.is_empty() {
                        directory.files.push(FileMatch { path: rel, matches });
                    }
                }
            }
            Err(Error::Cancelled) => return Err(Error::Cancelled),
            Err(e) => directory.error = Some(message(e)),
        }
        if plan.show_stats {
            directory.original_matches = (original > 0).then_some(original);
            directory.filtered_matches = (filtered > 0).then_some(filtered);
        }
        directories.push(directory);
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

/// A file given as a directory: the file itself, by its name.
fn search_one(
    plan: &Plan,
    file: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<(String, FileHits)>> {
    let path = Path::new(file);
    let name = path
        .file_name()
        .map_or_else(|| file.to_string(), |n| n.to_string_lossy().into_owned());
    let found = plan
        .file_searcher()
        .search(path)
        .map(|outcome| (name, outcome));
    let parent = path.parent().map_or(".", |p| p.to_str().unwrap_or("."));
    Ok(in_path_order(parent, found.into_iter().collect(), warnings))
}

/// What a recursive search would add below `dir`: its matches in the files of its
/// subdirectories, counted (none listed) with the same rules. `None` when there are none
/// or the tree cannot be walked (the answer is about `dir`'s own files either way).
fn count_below(plan: &Plan, dir: &str) -> Result<Option<Below>> {
    let counting = Plan {
        dirs: Vec::new(),
        exts: plan.exts.clone(),
        recursive: true,
        hidden: plan.hidden,
        skip_generated: plan.skip_generated,
        matcher: plan.matcher.clone(),
        exclude: plan.exclude.clone(),
        context: 0,
        show_stats: false,
        max_matches: Some(0),
        max_tokens: None,
    };
    let mut ignored = Vec::new();
    let files = match search_tree(&counting, dir, &mut ignored) {
        Ok(files) => files,
        Err(Error::Cancelled) => return Err(Error::Cancelled),
        Err(_) => return Ok(None),
    };
    let mut below = Below::default();
    for (_, hits) in files.iter().filter(|(rel, _)| rel.contains('/')) {
        let kept = hits.original - hits.filtered;
        if kept > 0 {
            below.matches += kept;
            below.files += 1;
        }
    }
    Ok((below.matches > 0).then_some(below))
}

/// An error as a directory's `error`: an I/O error's own words.
fn message(error: Error) -> String {
    match error {
        Error::Io { source, .. } => source.to_string(),
        other => other.to_string(),
    }
}

/// Search the files with matches below `dir` (walked with ripgrep's rules, plus the
/// request's), as (path relative to `dir`, matches) in path order. The walk's threads
/// search each file as they find it.
fn search_tree(
    plan: &Plan,
    dir: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<(String, FileHits)>> {
    let options = crate::walk::WalkOptions {
        max_depth: usize::MAX,
        max_files: usize::MAX,
        max_file_size: u64::MAX,
        // Paths only: grep needs no mtimes or sizes, and skips binary files by content.
        metadata: false,
        default_excludes: plan.skip_generated,
        skip_hidden: !plan.hidden,
        require_git: true,
        ..crate::walk::WalkOptions::default()
    };
    let found: std::sync::Mutex<Vec<(PathBuf, Outcome)>> = std::sync::Mutex::default();
    let visited = crate::progress::run_polling(
        || {
            crate::walk::visit(Path::new(dir), &options, || {
                let mut searcher = plan.file_searcher();
                let found = &found;
                move |path: &Path| {
                    if !plan.wanted(path) {
                        return;
                    }
                    if let Some(outcome) = searcher.search(path)
                        && let Ok(mut found) = found.lock()
                    {
                        found.push((path.to_path_buf(), outcome));
                    }
                }
            })
        },
        || (),
    )??;
    warnings.extend(visited.warnings);
    let found = found.into_inner().unwrap_or_default();
    let found = found.into_iter().filter_map(|(path, outcome)| {
        let rel = path.strip_prefix(&visited.root).ok()?;
        Some((slash_path(rel), outcome))
    });
    Ok(in_path_order(dir, found.collect(), warnings))
}

/// Search the files directly in `dir` (every file, as checkfor does; links only to files
/// inside `dir`), as (name, matches) in path order.
fn search_listed(
    plan: &Plan,
    dir: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<(String, FileHits)>> {
    let files = list_files(dir, plan, warnings)?;
    let next = AtomicUsize::new(0);
    let stop = crate::progress::stopper();
    // `caller`: the calling thread, which also asks the caller whether to stop (a
    // pending Ctrl-C); the others see what it decided through `stop`.
    let worker = |caller: bool| {
        let mut searcher = plan.file_searcher();
        let mut done: Vec<(String, Outcome)> = Vec::new();
        while !(stop.stopped() || (caller && crate::progress::checkpoint().is_err())) {
            let Some((name, path)) = files.get(next.fetch_add(1, Ordering::AcqRel)) else {
                break;
            };
            if let Some(outcome) = searcher.search(path) {
                done.push((name.clone(), outcome));
            }
        }
        done
    };
    let threads = if files.len() < MIN_PARALLEL_FILES {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(files.len())
    };
    let found = std::thread::scope(|scope| {
        // The calling thread is one of the workers.
        let helpers: Vec<_> = (1..threads)
            .map(|_| scope.spawn(|| worker(false)))
            .collect();
        let mut all = worker(true);
        for helper in helpers {
            let done = helper
                .join()
                .map_err(|_| Error::Internal(format!("{OP}: a search thread panicked")))?;
            all.extend(done);
        }
        Ok::<_, Error>(all)
    })?;
    crate::progress::checkpoint()?;
    Ok(in_path_order(dir, found, warnings))
}

/// Files' outcomes sorted by path, those that could not be searched turned into
/// warnings.
fn in_path_order(
    dir: &str,
    mut found: Vec<(String, Outcome)>,
    warnings: &mut Vec<String>,
) -> Vec<(String, FileHits)> {
    found.sort_by(|a, b| {
        Path::new(&a.0)
            .cmp(Path::new(&b.0))
            .then_with(|| a.0.cmp(&b.0))
    });
    found
        .into_iter()
        .filter_map(|(rel, outcome)| match outcome {
            Outcome::Searched(hits) => Some((rel, hits)),
            Outcome::Binary => None,
            Outcome::Failed(message) => {
                warnings.push(format!(
                    "cannot search {}: {message}",
                    shown_path(dir, &rel)
                ));
                None
            }
        })
        .collect()
}

/// A request checked and compiled.
struct Plan {
    dirs: Vec<String>,
    /// File name endings wanted (`.rs`); empty: every file.
    exts: Vec<String>,
    recursive: bool,
    hidden: bool,
    skip_generated: bool,
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
        let mut exts: Vec<String> = request
            .ext
            .iter()
            .flat_map(|e| e.split(','))
            .map(|e| e.trim().trim_start_matches('*'))
            .filter(|e| !e.is_empty())
            .map(|e| {
                if e.starts_with('.') {
                    e.to_string()
                } else {
                    format!(".{e}")
                }
            })
            .collect();
        exts.sort();
        exts.dedup();
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
            exts,
            recursive: request.recursive,
            hidden: request.hidden,
            skip_generated: request.skip_generated,
            matcher: build_matcher(request)?,
            exclude,
            context: request.context,
            show_stats: !excludes.is_empty() && !request.hide_filter_stats,
            max_matches: request.max_matches,
            max_tokens: request.max_tokens,
        })
    }
}

impl Plan {
    /// What one thread searches files with.
    fn file_searcher(&self) -> FileSearcher<'_> {
        FileSearcher {
            plan: self,
            searcher: SearcherBuilder::new()
                .line_number(true)
                .binary_detection(BinaryDetection::quit(b'\0'))
                .before_context(self.context)
                .after_context(self.context)
                .build(),
            matcher: self.matcher.clone(),
            exclude: self.exclude.clone(),
        }
    }

    /// Whether a file's name has one of the wanted endings (and more before it).
    fn wanted(&self, path: &Path) -> bool {
        if self.exts.is_empty() {
            return true;
        }
        let Some(name) = path.file_name() else {
            return false;
        };
        let name = name.as_encoded_bytes();
        self.exts
            .iter()
            .any(|ext| name.len() > ext.len() && name.ends_with(ext.as_bytes()))
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

/// The files directly in `dir` as (name, path to open). Fails when the directory itself
/// cannot be read.
fn list_files(
    dir: &str,
    plan: &Plan,
    warnings: &mut Vec<String>,
) -> Result<Vec<(String, PathBuf)>> {
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    {
        let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        // A link is followed only to a file inside the directory searched, as the
        // recursive walk's rules have it: a link cannot bring in a file from elsewhere.
        let inside = std::fs::canonicalize(dir).map_err(|e| Error::io(dir, e))?;
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
            if plan.wanted(&path) {
                files.push((name, path));
            }
        }
    }
    Ok(files)
}

fn slash_path(path: &Path) -> String {
    let parts: Vec<_> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    parts.join("/")
}

/// What searching one file gave.
enum Outcome {
    Searched(FileHits),
    Binary,
    Failed(String),
}

/// One thread's searcher and matchers.
struct FileSearcher<'p> {
    plan: &'p Plan,
    searcher: Searcher,
    matcher: RegexMatcher,
    exclude: Option<RegexMatcher>,
}

impl FileSearcher<'_> {
    /// What searching `path` gave, when it says more than "no match": matches, or why it
    /// could not be searched.
    fn search(&mut self, path: &Path) -> Option<Outcome> {
        let outcome = search_file(
            &mut self.searcher,
            &self.matcher,
            self.exclude.as_ref(),
            self.plan,
            path,
        );
        match &outcome {
            Outcome::Searched(hits) if hits.original > 0 => Some(outcome),
            Outcome::Failed(_) => Some(outcome),
            Outcome::Searched(_) | Outcome::Binary => None,
        }
    }
}

/// The matches of one file.
struct FileHits {
    /// The first `max_matches` matches (all without it).
    matches: Vec<LineMatch>,
    /// Matching lines before `exclude`, all of them.
    original: usize,
    /// Matching lines `exclude` dropped, all of them.
    filtered: usize,
}

/// Search one file: its first `max_matches` matches, and how many there are in all.
fn search_file(
    searcher: &mut Searcher,
    matcher: &RegexMatcher,
    exclude: Option<&RegexMatcher>,
    plan: &Plan,
    path: &Path,
) -> Outcome {
    let context = plan.context as u64;
    let mut sink = Collect {
        exclude,
        context,
        limit: plan.max_matches.unwrap_or(usize::MAX),
        hits: Vec::new(),
        lines: Vec::new(),
        original: 0,
        filtered: 0,
        binary: false,
        keep_until: u64::MAX,
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
            let line = hit.line;
            let start = line.saturating_sub(context);
            let end = line.saturating_add(context);
            let from = lines.partition_point(|(n, _)| *n < start);
            let to = lines.partition_point(|(n, _)| *n <= end);
            for (n, text) in &lines[from..to] {
                if *n < line {
                    hit.context_before.push(text.clone());
                } else if *n > line {
                    hit.context_after.push(text.clone());
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

/// Collects one file's first `limit` matching lines (and, with context, the lines the
/// searcher shows around them), and counts all of them.
struct Collect<'a> {
    exclude: Option<&'a RegexMatcher>,
    context: u64,
    limit: usize,
    hits: Vec<LineMatch>,
    /// With context: every line shown up to `keep_until`, matching or not, in line order.
    lines: Vec<(u64, String)>,
    original: usize,
    filtered: usize,
    binary: bool,
    /// The last line still needed for context: the last kept match's line plus
    /// `context`, once `limit` matches are kept.
    keep_until: u64,
}

impl Sink for Collect<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        let first = mat.line_number().unwrap_or(0);
        for (i, line) in mat.lines().enumerate() {
            let number = first + i as u64;
            let text = trim_line_end(line);
            if self.context > 0 && number <= self.keep_until {
                self.lines.push((number, lossy(text)));
            }
            self.original += 1;
            if let Some(exclude) = self.exclude
                && exclude.is_match(text).unwrap_or(false)
            {
                self.filtered += 1;
                continue;
            }
            if self.hits.len() < self.limit {
                self.hits.push(LineMatch {
                    line: number,
                    content: lossy(text),
                    ..LineMatch::default()
                });
                if self.hits.len() == self.limit {
                    self.keep_until = number.saturating_add(self.context);
                }
            }
        }
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, std::io::Error> {
        let number = ctx.line_number().unwrap_or(0);
        if number <= self.keep_until {
            self.lines.push((number, lossy(trim_line_end(ctx.bytes()))));
        }
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
