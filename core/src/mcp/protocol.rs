//! JSON-RPC 2.0 and the MCP methods: a message (or a batch) parsed and checked, then
//! `initialize` (the protocol version agreed), `ping`, `tools/list`, `tools/call`, and the
//! notifications (`notifications/cancelled` stops a running call); the error codes and
//! replies; a running call's progress sent as `notifications/progress`.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value, json};

use super::{Notify, Server};
use crate::error::Result;
use crate::progress::{Cancel, Progress, Watch};

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

/// How often, at most, a request's progress is notified.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

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
    pub(super) fn structured(&self) -> bool {
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
}

pub(super) fn error_reply(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

fn at_least(version: &str, minimum: &str) -> bool {
    let index = |v: &str| PROTOCOL_VERSIONS.iter().position(|p| *p == v);
    match (index(version), index(minimum)) {
        (Some(v), Some(m)) => v >= m,
        _ => false,
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

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
    fn versions_compare_by_position() {
        assert!(at_least("2025-11-25", STRUCTURED_CONTENT_SINCE));
        assert!(at_least("2025-06-18", STRUCTURED_CONTENT_SINCE));
        assert!(!at_least("2025-03-26", STRUCTURED_CONTENT_SINCE));
        assert!(!at_least("1999-01-01", STRUCTURED_CONTENT_SINCE));
    }
}
