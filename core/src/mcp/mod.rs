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
use std::io::{BufRead, ErrorKind, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Map, Value, json};

use crate::agent;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{self, OperationInfo, PathParam};
use crate::progress::{Cancel, Progress, Watch};
use crate::registry;

mod schema;
mod toolset;

pub use toolset::{CHECKFOR_OPERATION, CHECKFOR_TOOL};
use toolset::{Freshen, Tool};

/// The protocol versions this server speaks, oldest first.
pub const PROTOCOL_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The newest protocol version: the answer to a client asking for one we do not know.
pub const LATEST_PROTOCOL_VERSION: &str = "2025-11-25";

/// The first protocol version with `outputSchema` and `structuredContent`.
pub const STRUCTURED_CONTENT_SINCE: &str = "2025-06-18";

/// JSON-RPC: the message is not valid JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the message is not a valid request.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: no such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC: the method's parameters are invalid.
pub const INVALID_PARAMS: i64 = -32602;

/// The name in `serverInfo`.
pub const SERVER_NAME: &str = "cc-search";

/// Longest message read: the largest parameters an operation takes, plus room for the
/// JSON-RPC envelope. A longer line is answered with [`INVALID_REQUEST`] and skipped.
pub const MAX_MESSAGE_BYTES: usize = ops::MAX_PARAMS_BYTES + (1 << 20);

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
    /// When each index run of [`Freshen`] last ran, by operation and arguments.
    freshened: Mutex<HashMap<(String, String), Instant>>,
    /// The `tools/call` requests running now, by id (its JSON text), for
    /// `notifications/cancelled` to stop.
    running: Mutex<HashMap<String, Cancel>>,
}

/// Where the notifications a request sends while it runs go (`notifications/progress`,
/// one JSON message each, without a newline); see [`Server::handle_notifying`].
pub type Notify = Arc<dyn Fn(String) + Send + Sync>;

/// How often, at most, a request's progress is notified.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("roots", &self.roots)
            .finish_non_exhaustive()
    }
}

/// A JSON-RPC error of a request.
struct RpcError {
    code: i64,
    message: String,
}

impl RpcError {
    fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
        }
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

    /// Answer one message (a line without its newline): `Some(reply)` (one line of JSON)
    /// or `None` for a notification, a response, a blank line or a batch of
    /// notifications.
    pub fn handle(&self, message: &str) -> Option<String> {
        self.handle_notifying(message, None)
    }

    /// [`Server::handle`], sending a `tools/call`'s progress to `notify` as it runs when
    /// the request asked for it (`params._meta.progressToken`). A
    /// `notifications/cancelled` stops the `tools/call` it names if one is running (on
    /// another thread: calls may run concurrently), and that call then answers nothing,
    /// as the protocol asks.
    pub fn handle_notifying(&self, message: &str, notify: Option<Notify>) -> Option<String> {
        let text = message.trim();
        if text.is_empty() {
            return None;
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(e) => {
                return Some(
                    error_reply(Value::Null, PARSE_ERROR, format!("Parse error: {e}")).to_string(),
                );
            }
        };
        let reply = match value {
            Value::Array(messages) => {
                if messages.is_empty() {
                    Some(error_reply(
                        Value::Null,
                        INVALID_REQUEST,
                        "Invalid Request: empty batch",
                    ))
                } else {
                    let replies: Vec<Value> = messages
                        .into_iter()
                        .filter_map(|m| self.handle_message(m, notify.as_ref()))
                        .collect();
                    (!replies.is_empty()).then_some(Value::Array(replies))
                }
            }
            message => self.handle_message(message, notify.as_ref()),
        };
        reply.map(|r| r.to_string())
    }

    /// Run a session: read messages from `input` line by line until its end, writing each
    /// reply as one line to `output` and flushing it. A client that closes `output` ends
    /// the session normally; other read and write failures are `io` errors.
    ///
    /// Requests are answered one after another, in order, on a thread of their own, so
    /// that this one keeps reading: a `notifications/cancelled` stops the `tools/call` it
    /// names at once, and a call that asked for progress sends `notifications/progress`
    /// while it runs.
    pub fn serve<R: BufRead, W: Write + Send>(&self, mut input: R, output: W) -> Result<()> {
        let (requests, queued) = std::sync::mpsc::channel::<Option<Vec<u8>>>();
        let (lines, written) = std::sync::mpsc::channel::<String>();
        let broken = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            let writer = scope.spawn(|| write_lines(written, output, &broken));
            let worker = {
                let lines = lines.clone();
                scope.spawn(move || {
                    let notify: Notify = {
                        let lines = Mutex::new(lines.clone());
                        Arc::new(move |message| {
                            if let Ok(lines) = lines.lock() {
                                let _ = lines.send(message);
                            }
                        })
                    };
                    for line in queued {
                        if let Some(reply) = self.answer_line(line.as_deref(), Some(&notify)) {
                            let _ = lines.send(reply);
                        }
                    }
                })
            };
            drop(lines);
            let mut line = Vec::new();
            let read = loop {
                if broken.load(std::sync::atomic::Ordering::Relaxed) {
                    break Ok(());
                }
                line.clear();
                let too_long = match read_line(&mut input, &mut line, MAX_MESSAGE_BYTES) {
                    Ok(Some(too_long)) => too_long,
                    Ok(None) => break Ok(()),
                    Err(e) => break Err(Error::io("MCP input", e)),
                };
                let line = if too_long { None } else { Some(line.clone()) };
                match line {
                    // A cancellation cannot wait behind the request it cancels.
                    Some(line) if is_cancellation(&line) => {
                        self.answer_line(Some(&line), None);
                    }
                    line => {
                        let _ = requests.send(line);
                    }
                }
            };
            drop(requests);
            let _ = worker.join();
            let written = writer
                .join()
                .unwrap_or_else(|_| Err(Error::Internal("MCP writer panicked".into())));
            read.and(written)
        })
    }

    /// The reply to one line of input (`None`: one that was too long).
    fn answer_line(&self, line: Option<&[u8]>, notify: Option<&Notify>) -> Option<String> {
        let Some(line) = line else {
            return Some(
                error_reply(
                    Value::Null,
                    INVALID_REQUEST,
                    format!("Invalid Request: message longer than {MAX_MESSAGE_BYTES} bytes"),
                )
                .to_string(),
            );
        };
        match std::str::from_utf8(line) {
            Ok(text) => self.handle_notifying(text, notify.cloned()),
            Err(e) => Some(
                error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    format!("Parse error: not UTF-8 ({e})"),
                )
                .to_string(),
            ),
        }
    }

    fn handle_message(&self, message: Value, notify: Option<&Notify>) -> Option<Value> {
        let Value::Object(mut message) = message else {
            return Some(error_reply(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: a message must be a JSON object",
            ));
        };
        let id = message.remove("id");
        let method = match message.get("method") {
            Some(Value::String(method)) => Some(method.clone()),
            _ => None,
        };
        let Some(id) = id else {
            // A notification (never answered, whatever it says), or a response to a
            // request this server never sends.
            if method.as_deref() == Some("notifications/cancelled") {
                if let Some(request) = message.get("params").and_then(|p| p.get("requestId")) {
                    self.cancel(request);
                }
                return None;
            }
            if method.is_some() || message.contains_key("result") || message.contains_key("error") {
                return None;
            }
            return Some(error_reply(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: no `method`",
            ));
        };
        let id = match id {
            Value::String(_) | Value::Number(_) => id,
            _ => {
                return Some(error_reply(
                    Value::Null,
                    INVALID_REQUEST,
                    "Invalid Request: `id` must be a string or a number",
                ));
            }
        };
        if method.is_none() && (message.contains_key("result") || message.contains_key("error")) {
            return None;
        }
        if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Some(error_reply(
                id,
                INVALID_REQUEST,
                "Invalid Request: `jsonrpc` must be \"2.0\"",
            ));
        }
        let Some(method) = method else {
            return Some(error_reply(
                id,
                INVALID_REQUEST,
                "Invalid Request: `method` must be a string",
            ));
        };
        let params = match message.remove("params") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(params)) => params,
            Some(Value::Array(_)) => {
                return Some(error_reply(
                    id,
                    INVALID_PARAMS,
                    "Invalid params: `params` must be an object",
                ));
            }
            Some(_) => {
                return Some(error_reply(
                    id,
                    INVALID_REQUEST,
                    "Invalid Request: `params` must be an object or an array",
                ));
            }
        };
        let outcome = match method.as_str() {
            "initialize" => self.initialize(&params),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(self.list_tools()),
            "tools/call" => {
                let token = Cancel::new();
                let key = id.to_string();
                if let Ok(mut running) = self.running.lock() {
                    running.insert(key.clone(), token.clone());
                }
                let mut watch = Watch::new().cancel(&token);
                let progress_token = params.get("_meta").and_then(|m| m.get("progressToken"));
                if let (Some(progress_token), Some(notify)) = (progress_token, notify) {
                    watch = watch.progress(progress_notifier(progress_token.clone(), notify));
                }
                let outcome = watch.run(|| self.call_tool(params));
                if let Ok(mut running) = self.running.lock() {
                    running.remove(&key);
                }
                if token.is_cancelled() {
                    return None;
                }
                outcome
            }
            _ => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!(
                    "Method not found: {}",
                    method.chars().take(200).collect::<String>()
                ),
            )),
        };
        Some(match outcome {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => error_reply(id, e.code, e.message),
        })
    }

    /// Stop the running `tools/call` whose id is `request`, if any.
    fn cancel(&self, request: &Value) {
        if let Ok(running) = self.running.lock()
            && let Some(token) = running.get(&request.to_string())
        {
            token.cancel();
        }
    }

    fn initialize(&self, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let version = match params.get("protocolVersion") {
            None | Some(Value::Null) => LATEST_PROTOCOL_VERSION,
            Some(Value::String(asked)) => PROTOCOL_VERSIONS
                .iter()
                .copied()
                .find(|v| v == asked)
                .unwrap_or(LATEST_PROTOCOL_VERSION),
            Some(_) => {
                return Err(RpcError::new(
                    INVALID_PARAMS,
                    "Invalid params: `protocolVersion` must be a string",
                ));
            }
        };
        if let Ok(mut slot) = self.version.lock() {
            *slot = Some(version);
        }
        let mut result = json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": {"name": SERVER_NAME, "version": crate::VERSION},
        });
        if at_least(version, "2025-03-26") {
            result["instructions"] = Value::String(self.instructions());
        }
        Ok(result)
    }

    /// The `instructions` of `initialize`: what each tool is for and when to prefer it
    /// to the agent's own grep, glob and file reads.
    pub fn instructions(&self) -> String {
        let mut text = String::from(
            "cc-search finds things in this project for fewer tokens than grep and reading whole files: prefer its tools to Grep, Glob and Read when looking for something.",
        );
        let mut others = Vec::new();
        for tool in &self.tools {
            match tool.agent {
                Some(agent) => {
                    text.push_str(&format!("\n- {}: {}", tool.name, agent.brief));
                }
                None => others.push(tool.name.as_str()),
            }
        }
        if !others.is_empty() {
            text.push_str(&format!("\n- also: {}", others.join(", ")));
        }
        let roots: Vec<String> = self.roots.iter().map(|r| r.display().to_string()).collect();
        text.push_str(&format!(
            "\nIndexes build and refresh themselves. Answers are compact JSON within `max_tokens` (default {}); `truncated` marks a cut answer and `more` says how to get the rest. Paths: only inside {}; relative ones resolve against {}.",
            self.max_tokens,
            roots.join(", "),
            roots.first().map_or(".", String::as_str),
        ));
        text
    }

    /// Whether results carry `structuredContent` (and tools an `outputSchema`): asked for
    /// when the server started, and the protocol has them.
    fn structured(&self) -> bool {
        self.structured
            && at_least(
                self.protocol_version().unwrap_or(LATEST_PROTOCOL_VERSION),
                STRUCTURED_CONTENT_SINCE,
            )
    }

    fn list_tools(&self) -> Value {
        let structured = self.structured();
        let tools: Vec<Value> = self
            .tools
            .iter()
            .map(|tool| {
                let mut entry = json!({
                    "name": tool.name,
                    "description": tool.description,
                    "inputSchema": tool.input_schema,
                });
                if structured && let Some(schema) = &tool.output_schema {
                    entry["outputSchema"] = schema.clone();
                }
                entry
            })
            .collect();
        json!({ "tools": tools })
    }

    fn call_tool(&self, params: Map<String, Value>) -> Result<Value, RpcError> {
        let name = match params.get("name") {
            Some(Value::String(name)) => name,
            _ => {
                return Err(RpcError::new(
                    INVALID_PARAMS,
                    "Invalid params: `name` must be a string",
                ));
            }
        };
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(arguments)) => arguments.clone(),
            Some(_) => {
                return Err(RpcError::new(
                    INVALID_PARAMS,
                    "Invalid params: `arguments` must be an object",
                ));
            }
        };
        let Some(tool) = self.tools.iter().find(|t| &t.name == name) else {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!(
                    "Unknown tool: {} (tools: {})",
                    name.chars().take(200).collect::<String>(),
                    self.tool_names().join(", ")
                ),
            ));
        };
        Ok(self.run_tool(tool, arguments))
    }

    fn run_tool(&self, tool: &Tool, mut arguments: Map<String, Value>) -> Value {
        let asked = match arguments.get("max_tokens") {
            None | Some(Value::Null) => None,
            Some(value) => match value.as_u64() {
                Some(n) if n >= 1 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
                _ => return tool_error("`max_tokens` must be a positive integer"),
            },
        };
        let budget = asked.unwrap_or(self.max_tokens);
        // grep cuts context lines before lines and lines before matches, and keeps its
        // counts true (checkfor's own `max_tokens`): better than cutting its JSON. Every
        // other tool's answer is cut by `fit_answer`, as `agent` cuts.
        if tool.checkfor {
            arguments.insert("max_tokens".into(), json!(budget));
        } else {
            arguments.shift_remove("max_tokens");
        }
        let (request, given_dirs) = if tool.checkfor {
            match checkfor_request(arguments) {
                Ok(mapped) => mapped,
                Err(message) => return tool_error(message),
            }
        } else {
            (arguments, None)
        };
        let request = match self.confine(tool.op, Value::Object(request)) {
            Ok(request) => request,
            Err(message) => return tool_error(message),
        };
        // The project's own budget for the answer, when the call gives none.
        let budget = match (asked, tool.op.agent.configured_budget) {
            (None, Some(configured)) => configured(&request).unwrap_or(budget),
            _ => budget,
        };
        let mut warnings = Vec::new();
        if let Some(freshen) = tool.agent.and_then(|a| a.freshen) {
            self.freshen(&freshen, &request, &mut warnings);
        }
        let text = match call_guarded(
            &self.engine,
            &self.roots,
            tool.op.name,
            &request.to_string(),
        ) {
            Ok(text) => text,
            Err(message) => return tool_error(message),
        };
        let mut response = match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => map,
            _ => {
                return tool_error(format!(
                    "internal error: `{}` answered no object",
                    tool.op.name
                ));
            }
        };
        let structured = self.structured() && tool.output_schema.is_some();
        if !warnings.is_empty() {
            if let Some(Value::Array(list)) = response.get_mut("warnings") {
                list.extend(warnings.into_iter().map(Value::String));
            } else {
                response.insert("warnings".into(), json!(warnings));
            }
        }
        if let Some(given) = &given_dirs {
            restore_dirs(&mut response, given);
        }
        // With `structuredContent` the answer carries the result twice: each half gets
        // half the budget.
        let limit = budget.saturating_mul(agent::BYTES_PER_TOKEN) / if structured { 2 } else { 1 };
        let mut response = Value::Object(response);
        // `structuredContent` follows the response schema: the result as it is.
        if !structured {
            agent::view(&tool.op.agent, &mut response);
        }
        let content = fit_answer(
            &tool.op.agent,
            &mut response,
            limit,
            tool.checkfor,
            tool.more(),
        );
        let mut result = json!({ "content": content });
        if structured {
            result["structuredContent"] = response;
        }
        result
    }

    /// Run `freshen`'s index operation with the fields it copies from `request`, unless it
    /// ran with the same arguments within its interval. Its failure is a warning: the
    /// tool still answers from the index as it is.
    fn freshen(&self, freshen: &Freshen, request: &Value, warnings: &mut Vec<String>) {
        let mut params = Map::new();
        for field in freshen.copy {
            if let Some(value) = request.get(*field).filter(|v| !v.is_null()) {
                params.insert((*field).to_string(), value.clone());
            }
        }
        let params = Value::Object(params).to_string();
        let key = (freshen.op.to_string(), params.clone());
        if let Ok(done) = self.freshened.lock()
            && let Some(at) = done.get(&key)
            && at.elapsed() < freshen.every
        {
            return;
        }
        match call_guarded(&self.engine, &self.roots, freshen.op, &params) {
            Ok(_) => {
                if let Ok(mut done) = self.freshened.lock() {
                    done.insert(key, Instant::now());
                }
            }
            Err(message) => warnings.push(format!(
                "the index could not be brought up to date: {message}"
            )),
        }
    }

    /// The request with each path parameter of `op` resolved inside the roots, or why
    /// one is refused.
    fn confine(&self, op: &OperationInfo, mut request: Value) -> Result<Value, String> {
        for param in op.path_params {
            let field = param.pointer.trim_start_matches('/');
            match request.pointer_mut(param.pointer) {
                None | Some(Value::Null) => {
                    if param.defaults_to_roots {
                        let roots: Vec<&str> =
                            self.roots.iter().filter_map(|r| r.to_str()).collect();
                        insert_at(&mut request, param.pointer, json!(roots));
                    } else if param.defaults_to_project {
                        self.insert_project(&mut request, param);
                    }
                }
                // An empty list would mean "everywhere" to the operation.
                Some(Value::Array(items)) if param.defaults_to_roots && items.is_empty() => {
                    return Err(format!(
                        "`{field}`: an empty list; leave it out for every root"
                    ));
                }
                Some(Value::String(path)) => *path = self.confine_path(field, path)?,
                Some(Value::Array(items)) => {
                    for item in items {
                        if let Value::String(path) = item {
                            *path = self.confine_path(field, path)?;
                        }
                    }
                }
                // Any other type is refused by the operation itself.
                Some(_) => {}
            }
        }
        Ok(request)
    }

    fn insert_project(&self, request: &mut Value, param: &PathParam) {
        let Some(project) = self.roots.first().and_then(|p| p.to_str()) else {
            return;
        };
        let value = if param.many {
            json!([project])
        } else {
            json!(project)
        };
        insert_at(request, param.pointer, value);
    }

    /// `given` resolved (against the project when relative) and canonicalised, when it
    /// lies inside a root.
    fn confine_path(&self, field: &str, given: &str) -> Result<String, String> {
        if given.is_empty() {
            return Err(format!("`{field}`: empty path"));
        }
        let path = Path::new(given);
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            match self.roots.first() {
                Some(project) => project.join(path),
                None => path.to_path_buf(),
            }
        };
        let resolved = resolve(&absolute).map_err(|e| format!("`{field}`: {given}: {e}"))?;
        if !self.roots.iter().any(|root| resolved.starts_with(root)) {
            let roots: Vec<String> = self.roots.iter().map(|r| r.display().to_string()).collect();
            return Err(format!(
                "`{field}`: {given} resolves to {}, outside the directories this server may read ({})",
                resolved.display(),
                roots.join(", ")
            ));
        }
        resolved
            .into_os_string()
            .into_string()
            .map_err(|p| format!("`{field}`: {} is not valid UTF-8", Path::new(&p).display()))
    }
}

/// Run operation `name` confined to `roots`, a panic caught: its JSON answer, or what
/// went wrong.
fn call_guarded(
    engine: &Engine,
    roots: &[PathBuf],
    name: &str,
    params: &str,
) -> std::result::Result<String, String> {
    let call = || crate::env::confined(roots, || registry::call(engine, name, params));
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(text)) => Ok(text),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("internal error: `{name}` panicked")),
    }
}

/// Set the field at JSON pointer `pointer` (whose parent object exists) to `value`.
fn insert_at(request: &mut Value, pointer: &str, value: Value) {
    let (parent, last) = match pointer.rfind('/') {
        Some(i) => (&pointer[..i], &pointer[i + 1..]),
        None => return,
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    if let Some(Value::Object(map)) = request.pointer_mut(parent) {
        map.insert(key, value);
    }
}

/// The canonical form of `path` (absolute). A path that does not exist yet is its
/// deepest existing ancestor, canonical, joined with the rest — which may hold neither
/// `..` nor a symbolic link, so nothing outside can hide behind a missing component.
fn resolve(path: &Path) -> std::result::Result<PathBuf, String> {
    match std::fs::canonicalize(path) {
        Ok(canonical) => return Ok(canonical),
        Err(e) if e.kind() != ErrorKind::NotFound => return Err(e.to_string()),
        Err(_) => {}
    }
    for ancestor in path.ancestors().skip(1) {
        let Ok(base) = std::fs::canonicalize(ancestor) else {
            continue;
        };
        let rest = path.strip_prefix(ancestor).map_err(|e| e.to_string())?;
        let mut resolved = base;
        let mut exists = true;
        for component in rest.components() {
            match component {
                Component::Normal(name) => resolved.push(name),
                Component::CurDir => continue,
                _ => return Err("`..` after a missing directory".to_string()),
            }
            if exists {
                match std::fs::symlink_metadata(&resolved) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        return Err("a symbolic link that does not resolve".to_string());
                    }
                    Ok(_) => {}
                    Err(_) => exists = false,
                }
            }
        }
        return Ok(resolved);
    }
    Err("no such file or directory".to_string())
}

/// checkfor's arguments as a `grep.search` request, and the directories as given (for
/// the `dir` fields of the answer). Like checkfor: `dir` may be one string or a list,
/// and defaults to the current directory (here: the project); other parameters are
/// taken when they have checkfor's type and ignored otherwise.
#[allow(clippy::type_complexity)]
fn checkfor_request(
    arguments: Map<String, Value>,
) -> std::result::Result<(Map<String, Value>, Option<Vec<String>>), String> {
    let mut request = Map::new();
    match arguments.get("search") {
        Some(Value::String(search)) => {
            request.insert("search".into(), Value::String(search.clone()));
        }
        _ => return Err("Missing or invalid 'search' parameter".to_string()),
    }
    let strings = |items: &Vec<Value>| -> Vec<String> {
        items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    let dirs = match arguments.get("dir") {
        Some(Value::String(dir)) => vec![dir.clone()],
        Some(Value::Array(items)) => strings(items),
        _ => Vec::new(),
    };
    let given = if dirs.is_empty() {
        vec![".".to_string()]
    } else {
        dirs
    };
    request.insert("dir".into(), json!(given));
    if let Some(Value::String(ext)) = arguments.get("ext") {
        request.insert("ext".into(), Value::String(ext.clone()));
    }
    if let Some(Value::Array(items)) = arguments.get("exclude") {
        request.insert("exclude".into(), json!(strings(items)));
    }
    for flag in ["case_insensitive", "whole_word", "hide_filter_stats"] {
        if let Some(Value::Bool(on)) = arguments.get(flag) {
            request.insert(flag.into(), Value::Bool(*on));
        }
    }
    for extra in toolset::checkfor_extras() {
        if let Some(value) = arguments.get(extra).filter(|v| !v.is_null()) {
            request.insert(extra.into(), value.clone());
        }
    }
    if let Some(context) = arguments.get("context").and_then(Value::as_f64)
        && context >= 1.0
    {
        // checkfor truncates a fractional count; huge ones are capped by grep.search.
        request.insert("context".into(), json!(context.min(u32::MAX as f64) as u64));
    }
    Ok((request, Some(given)))
}

/// Put the directories back as the caller wrote them in `directories[i].dir`.
fn restore_dirs(response: &mut Map<String, Value>, given: &[String]) {
    if let Some(Value::Array(directories)) = response.get_mut("directories")
        && directories.len() == given.len()
    {
        for (directory, dir) in directories.iter_mut().zip(given) {
            if let Some(slot) = directory.get_mut("dir") {
                *slot = Value::String(dir.clone());
            }
        }
    }
}

/// The `content` of an answer: `response` cut to `limit` bytes of text when it is
/// longer (then `truncated: true` and `more` say so), as compact JSON — for checkfor,
/// the warnings as a second block of lines as checkfor printed them.
fn fit_answer(
    shape: &ops::AgentShape,
    response: &mut Value,
    limit: usize,
    checkfor: bool,
    more: &str,
) -> Vec<Value> {
    let render = |response: &Value| -> Vec<String> {
        if !checkfor {
            return vec![response.to_string()];
        }
        let mut shown = response.clone();
        let warnings = shown
            .as_object_mut()
            .and_then(|map| map.shift_remove("warnings"));
        let mut texts = vec![shown.to_string()];
        if let Some(Value::Array(warnings)) = warnings
            && !warnings.is_empty()
        {
            let lines: Vec<String> = warnings
                .iter()
                .map(|w| format!("Warning: {}", w.as_str().unwrap_or_default()))
                .collect();
            texts.push(lines.join("\n"));
        }
        texts
    };
    let length = |texts: &[String]| texts.iter().map(String::len).sum::<usize>();
    let mut texts = render(response);
    let marked = response.get("truncated") == Some(&Value::Bool(true));
    if length(&texts) > limit || marked {
        let mut target = limit;
        loop {
            agent::fit(shape, response, target, more);
            texts = render(response);
            let total = length(&texts);
            if total <= limit || target == 0 {
                break;
            }
            // Rendering costs more than JSON (checkfor's warning lines): shrink further.
            target = target.saturating_sub(total - limit);
        }
        if length(&texts) > limit {
            texts = vec![json!({"truncated": true}).to_string()];
        }
    }
    texts
        .into_iter()
        .map(|text| json!({"type": "text", "text": text}))
        .collect()
}

fn tool_error(message: impl Into<String>) -> Value {
    json!({"content": [{"type": "text", "text": message.into()}], "isError": true})
}

fn error_reply(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

fn at_least(version: &str, minimum: &str) -> bool {
    let index = |v: &str| PROTOCOL_VERSIONS.iter().position(|p| *p == v);
    match (index(version), index(minimum)) {
        (Some(v), Some(m)) => v >= m,
        _ => false,
    }
}

fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix('~'), crate::env::home_dir()) {
        (Some(""), Some(home)) => home,
        (Some(rest), Some(home)) if rest.starts_with('/') => home.join(&rest[1..]),
        _ => PathBuf::from(path),
    }
}

/// A progress sink sending `notifications/progress` for `token` to `notify`, at most
/// every [`PROGRESS_EVERY`] and at the end of each stage. The protocol wants `progress`
/// to grow with each notification: stages follow each other on one scale (a stage's
/// units after the previous stages' extents), and the message names the stage.
fn progress_notifier(token: Value, notify: &Notify) -> impl Fn(&Progress<'_>) + 'static {
    /// Where the stages so far put the current one on the common scale.
    #[derive(Default)]
    struct Scale {
        stage: String,
        /// The units of the stages before this one.
        offset: u64,
        /// This stage's units so far: the most of its totals and counts seen.
        extent: u64,
        /// The last progress sent.
        sent: Option<u64>,
        last: Option<Instant>,
    }
    let notify = Arc::clone(notify);
    let scale = std::cell::RefCell::new(Scale::default());
    move |p: &Progress<'_>| {
        let mut scale = scale.borrow_mut();
        if scale.stage != p.stage {
            scale.offset += scale.extent;
            scale.extent = 0;
            scale.stage = p.stage.to_string();
        }
        scale.extent = scale.extent.max(p.total).max(p.done);
        let progress = scale.offset + p.done;
        let ends = p.total > 0 && p.done >= p.total;
        let due = scale.last.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY);
        if !(due || ends) || scale.sent.is_some_and(|sent| progress <= sent) {
            return;
        }
        scale.last = Some(Instant::now());
        scale.sent = Some(progress);
        let mut params = json!({
            "progressToken": token,
            "progress": progress,
            "message": if p.total > 0 {
                format!("{} {}/{}", p.stage, p.done, p.total)
            } else {
                format!("{} {}", p.stage, p.done)
            },
        });
        if p.total > 0 {
            params["total"] = json!(scale.offset + p.total);
        }
        notify(
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
                .to_string(),
        );
    }
}

/// Whether `line` is a `notifications/cancelled` message (a quick look before parsing).
fn is_cancellation(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"notifications/cancelled").is_some()
        && serde_json::from_slice::<Value>(line).is_ok_and(|v| {
            v.get("method").and_then(Value::as_str) == Some("notifications/cancelled")
        })
}

/// Write each line of `lines` to `output`, flushed one by one (the client wakes up once
/// per whole line), until every sender is gone. A closed `output` ends quietly, and sets
/// `broken` so the reader stops too.
fn write_lines<W: Write>(
    lines: std::sync::mpsc::Receiver<String>,
    mut output: W,
    broken: &std::sync::atomic::AtomicBool,
) -> Result<()> {
    for mut line in lines {
        line.push('\n');
        match output
            .write_all(line.as_bytes())
            .and_then(|()| output.flush())
        {
            Ok(()) => {}
            Err(e) => {
                broken.store(true, std::sync::atomic::Ordering::Relaxed);
                return if e.kind() == ErrorKind::BrokenPipe {
                    Ok(())
                } else {
                    Err(Error::io("MCP output", e))
                };
            }
        }
    }
    Ok(())
}

/// Read one line (without its newline) into `line`, keeping at most `limit` bytes.
/// `Ok(None)` at the end of input; `Ok(Some(true))` when the line was longer than
/// `limit` (it is skipped whole).
fn read_line<R: BufRead>(
    input: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Option<bool>> {
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read_any.then_some(too_long));
        }
        read_any = true;
        let (chunk, used, done) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long && line.len() + chunk.len() <= limit {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
            line.clear();
        }
        input.consume(used);
        if done {
            return Ok(Some(too_long));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_grows_across_stages_on_one_scale() {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&sent);
        let notify: Notify = Arc::new(move |m| log.lock().unwrap().push(m));
        let sink = progress_notifier(json!("t"), &notify);
        let step = |stage, done, total| sink(&Progress { stage, done, total });
        step("walk", 5, 10); // sent: the first
        step("walk", 6, 10); // not yet due
        step("parse", 0, 4); // not due: a stage may pass without a notification
        step("embed", 3, 3); // sent: a stage's end
        let sent: Vec<Value> = sent
            .lock()
            .unwrap()
            .iter()
            .map(|m| serde_json::from_str(m).unwrap())
            .collect();
        let params: Vec<&Value> = sent.iter().map(|m| &m["params"]).collect();
        assert_eq!(params.len(), 2, "{params:?}");
        assert_eq!(params[0]["progress"], 5);
        assert_eq!(params[0]["total"], 10);
        // After walk's 10 and parse's 4 units.
        assert_eq!(params[1]["progress"], 17);
        assert_eq!(params[1]["total"], 17);
        assert_eq!(params[1]["message"], "embed 3/3");
    }

    #[test]
    fn lines_are_bounded() {
        let mut input = std::io::Cursor::new(b"short\nmuch too long\nok".to_vec());
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line, 8).unwrap(), Some(false));
        assert_eq!(line, b"short");
        line.clear();
        assert_eq!(read_line(&mut input, &mut line, 8).unwrap(), Some(true));
        line.clear();
        assert_eq!(read_line(&mut input, &mut line, 8).unwrap(), Some(false));
        assert_eq!(line, b"ok");
        line.clear();
        assert_eq!(read_line(&mut input, &mut line, 8).unwrap(), None);
    }

    #[test]
    fn versions_compare_by_position() {
        assert!(at_least("2025-11-25", STRUCTURED_CONTENT_SINCE));
        assert!(at_least("2025-06-18", STRUCTURED_CONTENT_SINCE));
        assert!(!at_least("2025-03-26", STRUCTURED_CONTENT_SINCE));
        assert!(!at_least("1999-01-01", STRUCTURED_CONTENT_SINCE));
    }
}
