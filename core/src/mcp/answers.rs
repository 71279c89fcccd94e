//! A tool's answer: its `max_tokens` read, its request mapped (checkfor) and confined,
//! its index freshened, the operation run, and the result shaped for an agent
//! ([`crate::agent`]) and cut to the budget as text blocks ([`fit_answer`]); a tool that
//! fails answers `isError`.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value, json};

use super::Server;
use super::checkfor::{checkfor_request, restore_dirs};
use super::confinement::call_guarded;
use super::toolset::{Freshen, Tool};
use crate::agent;
use crate::ops;

/// The most tokens an answer has, whatever `max_tokens` asks: Claude Code refuses a tool
/// answer above 25,000 tokens (`MAX_MCP_OUTPUT_TOKENS`), counted by its tokenizer. At this
/// crate's estimate of [`agent::BYTES_PER_TOKEN`] bytes a token, 20,000 keeps even dense
/// JSON (about 3.2 bytes a token) under it. A longer answer is cut, and says so, as any
/// answer over its budget is.
pub const MAX_ANSWER_TOKENS: usize = 20_000;

impl Server {
    pub(super) fn run_tool(&self, tool: &Tool, mut arguments: Map<String, Value>) -> Value {
        let asked = match arguments.get("max_tokens") {
            None | Some(Value::Null) => None,
            Some(value) => match value.as_u64() {
                Some(n) if n >= 1 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
                _ => return tool_error("`max_tokens` must be a positive integer"),
            },
        };
        let budget = asked.unwrap_or(self.max_tokens).min(MAX_ANSWER_TOKENS);
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
        // The project's own budget for the answer, when the call gives none; never
        // above what a client takes.
        let budget = match (asked, tool.op.agent.configured_budget) {
            (None, Some(configured)) => configured(&request).unwrap_or(budget),
            _ => budget,
        }
        .min(MAX_ANSWER_TOKENS);
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
        if let Some(later) = tool.agent.and_then(|a| a.freshen?.later)
            && warnings.iter().any(|w| w == later.note)
            && let Some(Value::Array(list)) = response.get_mut("warnings")
        {
            // What has no vectors yet is being embedded: no command to run.
            list.retain(|w| {
                !w.as_str()
                    .is_some_and(|w| w.contains(crate::hybrid::UNEMBEDDED))
            });
        }
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
        let more = match budget >= MAX_ANSWER_TOKENS {
            true => at_ceiling(tool.more()),
            false => tool.more().to_string(),
        };
        let content = fit_answer(&tool.op.agent, &mut response, limit, tool.checkfor, &more);
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
        if let Some(later) = &freshen.later {
            params.insert(later.field.to_string(), Value::Bool(true));
        }
        let params = Value::Object(params).to_string();
        let key = (freshen.op.to_string(), params.clone());
        if let Ok(done) = self.freshened.lock()
            && let Some(at) = done.get(&key)
            && at.elapsed() < freshen.every
        {
            self.note_later(freshen, warnings);
            return;
        }
        match call_guarded(&self.engine, &self.roots, freshen.op, &params) {
            Ok(out) => {
                if let Ok(mut done) = self.freshened.lock() {
                    done.insert(key, Instant::now());
                }
                // Only work left to do starts the later run (and its note).
                let pending = serde_json::from_str::<Value>(&out)
                    .ok()
                    .and_then(|v| v.get("pending_vectors")?.as_u64())
                    .is_none_or(|n| n > 0);
                if let Some(later) = freshen.later
                    && pending
                    && self
                        .later_running
                        .lock()
                        .is_ok_and(|mut r| r.insert(freshen.op))
                {
                    let engine = Arc::clone(&self.engine);
                    let running = Arc::clone(&self.later_running);
                    let op = freshen.op;
                    let done = move || {
                        if let Ok(mut running) = running.lock() {
                            running.remove(op);
                        }
                    };
                    let spawned = std::thread::Builder::new()
                        .name("cc-search-later".into())
                        .spawn(move || {
                            // A failure leaves the work for the next run: nothing to tell.
                            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                (later.run)(&engine)
                            }));
                            done();
                        });
                    if spawned.is_err()
                        && let Ok(mut running) = self.later_running.lock()
                    {
                        running.remove(freshen.op);
                    }
                }
                self.note_later(freshen, warnings);
            }
            Err(message) => warnings.push(format!(
                "the index could not be brought up to date: {message}"
            )),
        }
    }
}

impl Server {
    /// While `freshen`'s later work runs, say so.
    fn note_later(&self, freshen: &Freshen, warnings: &mut Vec<String>) {
        if let Some(later) = &freshen.later
            && self
                .later_running
                .lock()
                .is_ok_and(|r| r.contains(freshen.op))
        {
            warnings.push(later.note.to_string());
        }
    }

    /// Wait until no background work runs (tests, and a server that shuts down).
    pub fn wait_for_background(&self, timeout: std::time::Duration) -> bool {
        let start = Instant::now();
        while self.later_running.lock().is_ok_and(|r| !r.is_empty()) {
            if start.elapsed() > timeout {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        true
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
        let mut lines: Vec<String> = Vec::new();
        if let Some(Value::Array(warnings)) = warnings {
            lines.extend(
                warnings
                    .iter()
                    .map(|w| format!("Warning: {}", w.as_str().unwrap_or_default())),
            );
        }
        // What a search without `recursive` left below, and how to get it.
        let directories = shown.get("directories").and_then(Value::as_array);
        for directory in directories.into_iter().flatten() {
            if let (Some(dir), Some(below)) = (directory["dir"].as_str(), directory.get("below")) {
                let (matches, files) = (
                    below["matches"].as_u64().unwrap_or(0),
                    below["files"].as_u64().unwrap_or(0),
                );
                let plural = |n: u64, one: &'static str, many: &'static str| {
                    if n == 1 { one } else { many }
                };
                lines.push(format!(
                    "Note: {matches} more {} in {files} {} in subdirectories of {dir}: \
                     `recursive: true` searches them.",
                    plural(matches, "match", "matches"),
                    plural(files, "file", "files"),
                ));
            }
        }
        if !lines.is_empty() {
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

/// How to get the rest of an answer cut at [`MAX_ANSWER_TOKENS`], where a larger
/// `max_tokens` gives no more: what a tool's hint says but raising it.
fn at_ceiling(more: &str) -> String {
    let narrower = more
        .trim_end_matches("raise `max_tokens`")
        .trim_end()
        .trim_end_matches(" or")
        .trim_end_matches(',')
        .trim_end();
    match narrower.is_empty() {
        true => format!("no answer holds more than {MAX_ANSWER_TOKENS} tokens"),
        false => format!("{narrower}: no answer holds more than {MAX_ANSWER_TOKENS} tokens"),
    }
}

fn tool_error(message: impl Into<String>) -> Value {
    json!({"content": [{"type": "text", "text": message.into()}], "isError": true})
}
