//! The MCP server's message handler (`mcp::Server::handle`), fed one fuzzed line at a
//! time, over an engine on a sandboxed data root (`common`) with the sandboxed project as
//! its only root (the server itself confines every path to it).
//!
//! - no panic (the server's own panic guard is not reached: libFuzzer aborts first);
//! - a reply is one line of JSON-RPC 2.0: an object (an array for a batch), each with
//!   `jsonrpc: "2.0"`, an `id`, and exactly one of `result` and `error`;
//! - a blank line, a notification (no `id`, a `method`) get no reply; text that is not
//!   JSON gets a parse error (-32700, id null); a request with a string or number `id`, a
//!   `method` and `jsonrpc: "2.0"` gets a reply with that same `id`.
#![no_main]

mod common;

use std::sync::{Arc, OnceLock};

use cc_search::mcp::{PARSE_ERROR, Server, ServerOptions};
use cc_search::{Engine, EngineOptions};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let sandbox = common::sandbox();
        let engine = Engine::open(EngineOptions {
            home: Some(sandbox.home.clone()),
            config_path: None,
        })
        .unwrap();
        Server::new(
            Arc::new(engine),
            ServerOptions {
                roots: vec![sandbox.project.clone()],
                tools: vec!["all".into()],
                ..Default::default()
            },
        )
        .unwrap()
    })
}

fn check_reply(reply: &Value) {
    let Value::Object(reply) = reply else {
        panic!("a reply that is not an object: {reply}");
    };
    assert_eq!(reply.get("jsonrpc"), Some(&Value::from("2.0")));
    assert!(reply.contains_key("id"));
    assert!(
        reply.contains_key("result") != reply.contains_key("error"),
        "{reply:?}"
    );
    if let Some(error) = reply.get("error") {
        assert!(error.get("code").is_some_and(Value::is_i64));
        assert!(error.get("message").is_some_and(Value::is_string));
    }
}

/// What a message must get: `Some(Some(id))` a reply with that id, `Some(None)` no reply.
fn expected(message: &Value) -> Option<Option<Value>> {
    let Value::Object(m) = message else {
        return None;
    };
    let method = m.get("method").is_some_and(Value::is_string);
    match m.get("id") {
        None if method => Some(None),
        Some(id @ (Value::String(_) | Value::Number(_)))
            if method && m.get("jsonrpc") == Some(&Value::from("2.0")) =>
        {
            Some(Some(id.clone()))
        }
        _ => None,
    }
}

fuzz_target!(|line: &str| {
    // One line: the transport splits on newlines.
    let line = line.split('\n').next().unwrap_or("");
    let server = server();
    let reply = server.handle(line);
    let parsed: Option<Value> = serde_json::from_str(line.trim()).ok();
    let Some(reply) = reply else {
        match &parsed {
            None => assert!(line.trim().is_empty(), "no reply to unparseable {line:?}"),
            Some(message) => {
                if let Some(Some(id)) = expected(message) {
                    panic!("no reply to request {id}");
                }
            }
        }
        return;
    };
    assert!(!reply.contains('\n'), "a reply over several lines");
    let reply: Value = serde_json::from_str(&reply).expect("the reply is JSON");
    match (&parsed, &reply) {
        (None, _) => {
            check_reply(&reply);
            assert_eq!(reply["error"]["code"], PARSE_ERROR);
            assert_eq!(reply["id"], Value::Null);
        }
        (Some(Value::Array(batch)), Value::Array(replies)) => {
            assert!(!batch.is_empty() && replies.len() <= batch.len());
            replies.iter().for_each(check_reply);
        }
        (Some(message), _) => {
            check_reply(&reply);
            match expected(message) {
                Some(Some(id)) => assert_eq!(reply["id"], id),
                Some(None) => panic!("a reply to a notification: {reply}"),
                None => {}
            }
        }
    }
});
