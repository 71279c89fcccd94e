//! The per-project configuration file: `.cc-search.json` at the repository root (or
//! ctxhelpr's `.ctxhelpr.json` when only that exists).
//!
//! ```json
//! {
//!   "output": {"max_tokens": 2000, "truncate_signatures": 120, "truncate_doc_comments": 100},
//!   "search": {"max_results": 20},
//!   "indexer": {"ignore": ["generated/**"], "max_file_size": 1048576}
//! }
//! ```
//!
//! Every key is optional. A file that is not valid JSON, or a key with a wrong type,
//! leaves the defaults in place and produces a warning; unknown keys are ignored.

use std::path::Path;

use serde_json::Value;

/// The file names read, in order of preference.
pub const CONFIG_FILES: [&str; 2] = [".cc-search.json", ".ctxhelpr.json"];

/// Default limit for signatures in brief views, in bytes.
pub const DEFAULT_TRUNCATE_SIGNATURES: usize = 120;
/// Default limit for doc comments in brief views, in bytes.
pub const DEFAULT_TRUNCATE_DOCS: usize = 100;
/// Default largest file indexed (1 MiB).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 1024 * 1024;
/// Default number of search results.
pub const DEFAULT_MAX_RESULTS: usize = 20;

/// How output is shortened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputConfig {
    /// Token budget for every response of this project (a request's `max_tokens` wins).
    pub max_tokens: Option<usize>,
    /// Signatures longer than this (bytes) are cut in brief views.
    pub truncate_signatures: usize,
    /// Doc comments longer than this (bytes) are shortened in brief views.
    pub truncate_doc_comments: usize,
}

/// What is indexed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexerConfig {
    /// Gitignore-style patterns excluded on top of `.gitignore` and the defaults.
    pub ignore: Vec<String>,
    /// Files larger than this many bytes are skipped.
    pub max_file_size: u64,
}

/// A project's `.cc-search.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectConfig {
    /// Output settings.
    pub output: OutputConfig,
    /// Indexing settings.
    pub indexer: IndexerConfig,
    /// Default number of search results.
    pub max_results: usize,
}

impl Default for ProjectConfig {
    fn default() -> Self {
        ProjectConfig {
            output: OutputConfig {
                max_tokens: None,
                truncate_signatures: DEFAULT_TRUNCATE_SIGNATURES,
                truncate_doc_comments: DEFAULT_TRUNCATE_DOCS,
            },
            indexer: IndexerConfig {
                ignore: Vec::new(),
                max_file_size: DEFAULT_MAX_FILE_SIZE,
            },
            max_results: DEFAULT_MAX_RESULTS,
        }
    }
}

impl ProjectConfig {
    /// Read the configuration of the repository at `root`; problems become warnings.
    pub fn load(root: &Path, warnings: &mut Vec<String>) -> ProjectConfig {
        let mut config = ProjectConfig::default();
        let Some((path, bytes)) = CONFIG_FILES.iter().find_map(|name| {
            let path = root.join(name);
            std::fs::read(&path).ok().map(|b| (path, b))
        }) else {
            return config;
        };
        let shown = path.display();
        let Ok(text) = String::from_utf8(bytes) else {
            warnings.push(format!("{shown}: not valid UTF-8; using the defaults"));
            return config;
        };
        let value: Value = match serde_json::from_str(&text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => {
                warnings.push(format!("{shown}: not a JSON object; using the defaults"));
                return config;
            }
            Err(e) => {
                warnings.push(format!("{shown}: not valid JSON ({e}); using the defaults"));
                return config;
            }
        };
        let number = |section: &str, key: &str, warnings: &mut Vec<String>| -> Option<u64> {
            let v = value.get(section)?.get(key)?;
            match v.as_u64() {
                Some(n) => Some(n),
                None if v.is_null() => None,
                None => {
                    warnings.push(format!(
                        "{shown}: `{section}.{key}` must be a non-negative integer; ignored"
                    ));
                    None
                }
            }
        };
        if let Some(n) = number("output", "max_tokens", warnings) {
            config.output.max_tokens = Some(n as usize);
        }
        if let Some(n) = number("output", "truncate_signatures", warnings) {
            config.output.truncate_signatures = (n as usize).max(8);
        }
        if let Some(n) = number("output", "truncate_doc_comments", warnings) {
            config.output.truncate_doc_comments = (n as usize).max(8);
        }
        if let Some(n) = number("indexer", "max_file_size", warnings) {
            config.indexer.max_file_size = n;
        }
        if let Some(n) = number("search", "max_results", warnings) {
            config.max_results = (n as usize).max(1);
        }
        if let Some(v) = value.get("indexer").and_then(|i| i.get("ignore")) {
            match v.as_array() {
                Some(items) if items.iter().all(Value::is_string) => {
                    config.indexer.ignore = items
                        .iter()
                        .filter_map(|i| i.as_str().map(str::to_string))
                        .collect();
                }
                _ => warnings.push(format!(
                    "{shown}: `indexer.ignore` must be an array of strings; ignored"
                )),
            }
        }
        config
    }
}
