//! The MCP server: every operation of the table as a Model Context Protocol tool, over
//! JSON-RPC 2.0 with one message per line (the stdio transport).
//!
//! - `initialize` answers with the client's `protocolVersion` when it is one of
//!   [`PROTOCOL_VERSIONS`], else with [`LATEST_PROTOCOL_VERSION`]; `ping`, `tools/list`
//!   and `tools/call` follow. Notifications (messages without an `id`) never get a reply.
//! - Malformed messages get JSON-RPC errors: unparseable JSON [`PARSE_ERROR`], a message
//!   that is not a request [`INVALID_REQUEST`], an unknown method [`METHOD_NOT_FOUND`],
//!   bad `tools/call` parameters (an unknown tool, `arguments` not an object)
//!   [`INVALID_PARAMS`]. A tool that fails answers with a result whose `isError` is
//!   `true` and whose text says why.
//! - Batches (JSON arrays of messages, JSON-RPC 2.0 and MCP 2025-03-26) are answered with
//!   an array of the replies, notifications left out.
//! - The tools come from [`crate::registry::OPERATIONS`]: by default the agent's toolset
//!   (eleven reading tools, `toolset`), on request any other operation; each is named
//!   after its operation with `.` turned into `_` (`files.suggest` → `files_suggest`),
//!   except `grep.search`, which is `checkfor` with the checkfor server's input schema
//!   plus `recursive`, `regex` and `max_tokens`. Operations that write the user's
//!   settings are never tools.
//! - Every answer is compact JSON within a token budget (`max_tokens`, [`crate::agent`]); a cut
//!   one says `truncated` and `more`. Asked for ([`ServerOptions::structured`]), tools
//!   also carry an `outputSchema` and results a `structuredContent` object from protocol
//!   2025-06-18 on.
//! - Tools read only inside the server's roots: every path parameter an operation
//!   declares ([`crate::ops::Operation::PATH_PARAMS`]) is resolved (relative paths
//!   against the project, the first root), canonicalised, and refused with `isError` when
//!   it lies outside every root, through `..` or a symbolic link.
//!
//! ```
//! use std::sync::Arc;
//! use cc_search::Engine;
//! use cc_search::mcp::{Server, ServerOptions};
//!
//! # fn main() -> cc_search::Result<()> {
//! let home = tempfile::tempdir().unwrap();
//! let project = tempfile::tempdir().unwrap();
//! let engine = Arc::new(Engine::open_at(home.path())?);
//! let server = Server::new(engine, ServerOptions { roots: vec![project.path().into()], ..Default::default() })?;
//! let reply = server
//!     .handle(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#)
//!     .unwrap();
//! assert!(reply.contains(r#""protocolVersion":"2025-11-25""#));
//! // Notifications get no reply.
//! assert_eq!(server.handle(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#), None);
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::progress::Cancel;

// The server's parts, each in its file: the stdio transport (`transport.rs`: lines in,
// lines out, cancellations read at once), JSON-RPC and the MCP methods (`protocol.rs`),
// the path parameters kept inside the roots (`confinement.rs`), a tool's answer within
// its budget (`answers.rs`), checkfor's parameters mapped to `grep.search`
// (`checkfor.rs`), which operations are tools and how (`toolset.rs`) and their schemas
// (`schema.rs`). Here: the server itself, its options and how it starts.
mod answers;
mod checkfor;
mod confinement;
mod protocol;
mod schema;
mod toolset;
mod transport;

pub use answers::MAX_ANSWER_TOKENS;
pub use protocol::{
    INVALID_PARAMS, INVALID_REQUEST, LATEST_PROTOCOL_VERSION, METHOD_NOT_FOUND, PARSE_ERROR,
    PROTOCOL_VERSIONS, SERVER_NAME, STRUCTURED_CONTENT_SINCE,
};
use toolset::Tool;
pub use toolset::{CHECKFOR_OPERATION, CHECKFOR_TOOL};
pub use transport::MAX_MESSAGE_BYTES;

/// An answer's token budget when neither the call nor the configuration sets one.
pub const DEFAULT_MAX_TOKENS: usize = 8_000;

/// How to start a [`Server`].
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerOptions {
    /// The directories the tools may read; the first is the project, against which
    /// relative paths resolve and which path parameters default to. Empty: the project
    /// is `$CLAUDE_PROJECT_DIR`, else the current directory. The configured
    /// `[index] roots` are added either way.
    pub roots: Vec<PathBuf>,
    /// Which tools `tools/list` offers, as selectors: `default` (the agent's toolset),
    /// `all` (every operation), a component (`files`, `grep`, `code`, `docs`, `notes`,
    /// `sessions`, `embed`: all its operations) or one tool or operation name
    /// (`code_delete_repos`, `code.delete_repos`). Empty: `[mcp] tools` of the
    /// configuration, else `default`.
    pub tools: Vec<String>,
    /// The token budget of an answer when a call gives no `max_tokens` (4 bytes a token).
    /// `None`: `[mcp] max_tokens` of the configuration, else [`DEFAULT_MAX_TOKENS`].
    pub max_tokens: Option<usize>,
    /// Offer `outputSchema` and answer with `structuredContent` too (protocol 2025-06-18
    /// and later). `None`: `[mcp] structured` of the configuration, else `false`.
    pub structured: Option<bool>,
}

/// An MCP server over an [`Engine`]: [`Server::handle`] answers one message,
/// [`Server::serve`] runs a whole session on a pair of streams.
///
/// Thread safety: `Send + Sync`; `handle` may be called from several threads. The
/// negotiated protocol version is the server's state: one server per client session.
pub struct Server {
    engine: Arc<Engine>,
    roots: Vec<PathBuf>,
    tools: Vec<Tool>,
    max_tokens: usize,
    structured: bool,
    warnings: Vec<String>,
    version: Mutex<Option<&'static str>>,
    /// When each index run of [`Freshen`](toolset::Freshen) last ran, by operation and
    /// arguments.
    freshened: Mutex<HashMap<(String, String), Instant>>,
    /// The `tools/call` requests running now, by id (its JSON text), for
    /// `notifications/cancelled` to stop.
    running: Mutex<HashMap<String, Cancel>>,
    /// The index operations whose later work runs on a background thread now.
    later_running: Arc<Mutex<std::collections::HashSet<&'static str>>>,
}

/// Where the notifications a request sends while it runs go (`notifications/progress`,
/// one JSON message each, without a newline); see [`Server::handle_notifying`].
pub type Notify = Arc<dyn Fn(String) + Send + Sync>;

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("roots", &self.roots)
            .finish_non_exhaustive()
    }
}

impl Server {
    /// A server whose tools read inside `options.roots` (see [`ServerOptions`]).
    ///
    /// Each given root must be an existing directory (`io` or `invalid_request` error
    /// otherwise); a configured root that does not exist is skipped with a warning
    /// ([`Server::warnings`]).
    pub fn new(engine: Arc<Engine>, options: ServerOptions) -> Result<Server> {
        let mut roots: Vec<PathBuf> = Vec::new();
        let mut warnings = Vec::new();
        let given = if options.roots.is_empty() {
            vec![crate::env::project_dir(None, "mcp")?]
        } else {
            options.roots
        };
        for root in given {
            if root.as_os_str().is_empty() {
                return Err(Error::invalid("mcp", "a root is an empty path"));
            }
            let canonical = std::fs::canonicalize(&root).map_err(|e| Error::io(&root, e))?;
            if !canonical.is_dir() {
                return Err(Error::invalid(
                    "mcp",
                    format!("root {} is not a directory", root.display()),
                ));
            }
            if !roots.contains(&canonical) {
                roots.push(canonical);
            }
        }
        for configured in &engine.config().index.roots {
            let path = expand_home(configured);
            match std::fs::canonicalize(&path) {
                Ok(root) if root.is_dir() => {
                    if !roots.contains(&root) {
                        roots.push(root);
                    }
                }
                Ok(_) => warnings.push(format!(
                    "[index] root {configured}: not a directory; tools cannot read it"
                )),
                Err(e) => warnings.push(format!(
                    "[index] root {configured}: {e}; tools cannot read it"
                )),
            }
        }
        let config = &engine.config().mcp;
        let selectors = if options.tools.is_empty() {
            config.tools.clone()
        } else {
            options.tools
        };
        let tools = toolset::select(&selectors)?;
        let max_tokens = options
            .max_tokens
            .or(config.max_tokens)
            .unwrap_or(DEFAULT_MAX_TOKENS);
        if max_tokens == 0 {
            return Err(Error::invalid("mcp", "`max_tokens` must be at least 1"));
        }
        let structured = options.structured.or(config.structured).unwrap_or(false);
        Ok(Server {
            engine,
            roots,
            tools,
            max_tokens,
            structured,
            warnings,
            version: Mutex::new(None),
            freshened: Mutex::new(HashMap::new()),
            running: Mutex::new(HashMap::new()),
            later_running: Arc::new(Mutex::new(std::collections::HashSet::new())),
        })
    }

    /// The canonical directories the tools may read, the project first.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Warnings from starting the server (a configured root that does not exist), for
    /// the surface to show once.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The names of the tools `tools/list` offers, in its order.
    pub fn tool_names(&self) -> Vec<&str> {
        self.tools.iter().map(|t| t.name.as_str()).collect()
    }

    /// The token budget of an answer whose call gives no `max_tokens`.
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// The protocol version agreed by `initialize`, if it happened.
    pub fn protocol_version(&self) -> Option<&'static str> {
        self.version.lock().map(|v| *v).unwrap_or(None)
    }
}

fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix('~'), crate::env::home_dir()) {
        (Some(""), Some(home)) => home,
        (Some(rest), Some(home)) if rest.starts_with('/') => home.join(&rest[1..]),
        _ => PathBuf::from(path),
    }
}
