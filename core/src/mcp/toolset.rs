//! Which operations an MCP client sees as tools, and how.
//!
//! The default toolset ([`AGENT_TOOLS`]) is what a coding agent needs to find things: file
//! names, file contents, symbols and their references, docs, notes and earlier sessions.
//! Each of its tools has a description written for the agent (when to use it, what it
//! returns), shows only the parameters an agent sets (the others are still accepted), and
//! keeps its index fresh itself ([`Freshen`]): no `*_index` tool is needed. Every other
//! operation (index runs, status, deletion, raw embeddings) is offered only when asked
//! for ([`select`]), as the operation table describes it.

use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::error::{Error, Result};
use crate::ops::OperationInfo;
use crate::registry;

use super::schema::{object_schema, tool_schema};

/// The tool that runs `grep.search` with checkfor's name and schema.
pub const CHECKFOR_TOOL: &str = "checkfor";

/// The operation `checkfor` runs.
pub const CHECKFOR_OPERATION: &str = "grep.search";

/// The index run that keeps a tool's answers current, before the tool runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Freshen {
    /// The index operation.
    pub op: &'static str,
    /// Request fields copied from the tool's (confined) request to the index run's.
    pub copy: &'static [&'static str],
    /// Not again within this long for the same arguments.
    pub every: Duration,
    /// What the run leaves for later, so no answer waits for it: the request field that
    /// says so (set `true`), and the work, done after the run on a background thread,
    /// one at a time — when the run's answer says there is some (`pending_vectors`).
    pub later: Option<Later>,
}

/// Work an index run before an answer leaves to a background thread ([`Freshen::later`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Later {
    /// The index run's field that leaves the work out.
    pub field: &'static str,
    /// The work.
    pub run: fn(&crate::Engine) -> Result<usize>,
    /// What an answer says while it runs.
    pub note: &'static str,
}

/// A tool of the default toolset.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AgentTool {
    /// The operation it runs.
    pub op: &'static str,
    /// What an agent reads in `tools/list`: when to use it and what it returns.
    pub description: &'static str,
    /// What it is for, in a few words, for `initialize`'s instructions.
    pub brief: &'static str,
    /// The request fields shown, each with the description an agent reads.
    pub params: &'static [(&'static str, &'static str)],
    /// The fields without which a call makes no sense.
    pub required: &'static [&'static str],
    /// Kept fresh by this index run.
    pub freshen: Option<Freshen>,
    /// How to get more when an answer was cut to its budget.
    pub more: &'static str,
}

const REPO: (&str, &str) = ("path", "Repository root (default: the project).");

const CODE_FRESH: Option<Freshen> = Some(Freshen {
    op: "code.index_repository",
    copy: &["path"],
    every: Duration::ZERO,
    later: None,
});

/// The default toolset, in `tools/list` order.
pub(crate) const AGENT_TOOLS: &[AgentTool] = &[
    AgentTool {
        op: "files.suggest",
        description: "Find files by name: fuzzy path matching (prefix, partial name, abbreviation such as `scbutt` for src/components/Button.tsx) ranked by git activity. Prefer it to glob/find when you know part of a file's name. Paths best first.",
        brief: "a file by part of its name or path (fuzzy, git-ranked)",
        params: &[
            ("query", "Part of a path or file name."),
            ("limit", "Most paths (1-15, default 15)."),
        ],
        required: &["query"],
        freshen: None,
        more: "use a more specific query",
    },
    AgentTool {
        op: CHECKFOR_OPERATION,
        description: "Search file contents for a string in the given directories (a file: that file). Only their own files unless `recursive`, which searches subdirectories too (skipping ignored and hidden files); without it `below` counts the matches there. `regex` for a regular expression. Prefer it to grep/rg: compact JSON per directory with line numbers, cut to a token budget.",
        brief: "text in files (literal or regex, recursive on request)",
        params: &[],
        required: &["search"],
        freshen: None,
        more: "narrow `dir`, `ext`, `whole_word` or `search`, or raise `max_tokens`",
    },
    AgentTool {
        op: "code.find",
        description: "Find the code a task is about: pass the issue, bug report, stack trace or question as written. Returns the files to read or change and the definitions in them, best first (id, lines, signature). Use it first when you do not know where to look.",
        brief: "the files and definitions an issue, trace or question is about",
        params: &[
            (
                "query",
                "The task in free text: issue, error, stack trace, question.",
            ),
            ("limit", "Most files and definitions (10)."),
            REPO,
        ],
        required: &["query"],
        freshen: None,
        more: "lower `limit` or raise `max_tokens`",
    },
    AgentTool {
        op: "code.search_symbols",
        description: "Find where functions, classes, methods and types are defined: by name, subword (`user` finds getUserById), doc or path; BM25-ranked. Use it before reading files. Pass a hit's id to code_get_symbol_detail or code_get_references.",
        brief: "where a function, class, method or type is defined",
        params: &[
            (
                "query",
                "Names or words; `pre*` prefix, AND/OR/NOT, \"quoted phrase\".",
            ),
            ("kind", "Only this kind (fn, method, class, struct…)."),
            ("limit", "Most results (default 20)."),
            REPO,
        ],
        required: &["query"],
        freshen: CODE_FRESH,
        more: "narrow `query` or `kind`, lower `limit`, or raise `max_tokens`",
    },
    AgentTool {
        op: "code.get_symbol_detail",
        description: "One symbol by id: full signature and doc, parent, children, what it calls, who calls it and the types it uses, with files and lines. Read it instead of the whole file.",
        brief: "one symbol's signature, doc, calls and callers, by id",
        params: &[("id", "Symbol id from another code tool."), REPO],
        required: &["id"],
        freshen: CODE_FRESH,
        more: "raise `max_tokens`",
    },
    AgentTool {
        op: "code.get_references",
        description: "Who uses a symbol (by id): calls, imports, type uses, extends and implements, with file and line. Check it before changing or removing it.",
        brief: "who uses a symbol, by id",
        params: &[
            ("id", "Symbol id from another code tool."),
            ("offset", "Skip this many (paging)."),
            REPO,
        ],
        required: &["id"],
        freshen: CODE_FRESH,
        more: "raise `max_tokens`",
    },
    AgentTool {
        op: "code.get_file_symbols",
        description: "A file's outline, a line per symbol (`lines kind name #id`, methods under their class): cheaper than grepping for definitions. Use it to pick what to read.",
        brief: "a file's outline",
        params: &[("file", "Path relative to the repository root."), REPO],
        required: &["file"],
        freshen: CODE_FRESH,
        more: "raise `max_tokens`",
    },
    AgentTool {
        op: "code.get_overview",
        description: "A repository at a glance: languages, directories (files, symbols), main types, entry points, docs. Start here in an unfamiliar codebase.",
        brief: "a repository's map: languages, directories, main types, entry points",
        params: &[REPO],
        required: &[],
        freshen: CODE_FRESH,
        more: "raise `max_tokens`",
    },
    AgentTool {
        op: "docs.query",
        description: "Search the project's docs (README, docs/, doc/; .md, .rst) by meaning and keywords. Returns sections (file, heading, lines, matching lines): for design, architecture and how-to questions.",
        brief: "the project's docs, by meaning",
        params: &[
            ("query", "What to look for."),
            ("limit", "Most sections (default 10)."),
        ],
        required: &["query"],
        freshen: Some(Freshen {
            op: "docs.index",
            copy: &["project_dir"],
            every: Duration::ZERO,
            later: Some(Later {
                field: "keyword_only",
                run: crate::docs::embed_pending,
                note: "the docs are being embedded in the background: until that is done, some sections are found by keyword only",
            }),
        }),
        more: "narrow `query`, lower `limit`, or raise `max_tokens`",
    },
    AgentTool {
        op: "notes.query",
        description: "Search the project's session notes (sessions/**/*.md in dated folders) by meaning and keywords. Returns H2 sections (date, file, lines, matching lines). Use it to recall what was decided or done before.",
        brief: "the project's session notes, by meaning",
        params: &[
            ("query", "What to look for."),
            ("after", "Only notes from this date on (YYYY-MM-DD)."),
            ("limit", "Most sections (default 10)."),
        ],
        required: &["query"],
        freshen: Some(Freshen {
            op: "notes.index",
            copy: &["project_dir"],
            every: Duration::ZERO,
            later: None,
        }),
        more: "narrow `query` or `after`, lower `limit`, or raise `max_tokens`",
    },
    AgentTool {
        op: "sessions.search",
        description: "Search earlier Claude Code conversations in this project (prompts, replies, tool output) by meaning and keywords, recent first. Use it to recall a past decision, fix or command. Returns hits (session, when, matching lines); sessions_chunk shows one whole.",
        brief: "what was said, done or decided in earlier sessions",
        params: &[
            ("query", "What to look for."),
            ("project", "Another project (part of its path; * = all)."),
            ("since", "Only from this time on: 2h, 1w, 30d, 2026-01-01."),
            ("limit", "Most results (default 5)."),
        ],
        required: &["query"],
        freshen: Some(Freshen {
            op: "sessions.index",
            copy: &["projects_dir"],
            every: Duration::from_secs(60),
            // Parsing is quick; embedding a large history takes minutes: the first
            // answer comes by keyword, and meaning joins as the vectors arrive.
            later: Some(Later {
                field: "keyword_only",
                run: crate::sessions::embed_pending,
                note: "earlier sessions are being embedded in the background: until that is done, some are found by keyword only",
            }),
        }),
        more: "narrow `query`, `since` or `project`, lower `limit`, or raise `max_tokens`",
    },
    AgentTool {
        op: "sessions.chunk",
        description: "One chunk of an earlier session in full, by the id sessions_search gave (or a unique prefix), with the messages around it.",
        brief: "one earlier-session chunk in full",
        params: &[("id", "Chunk id from sessions_search.")],
        required: &["id"],
        freshen: None,
        more: "raise `max_tokens`",
    },
];

/// What the `max_tokens` parameter every tool takes says.
const MAX_TOKENS_DESCRIPTION: &str = "Answer budget in tokens (default 8000).";

/// The extras `checkfor` takes beyond checkfor's own parameters.
const CHECKFOR_EXTRAS: &[(&str, &str, &str)] = &[
    (
        "recursive",
        "boolean",
        "Search subdirectories too, skipping ignored and hidden files. Optional, defaults to false.",
    ),
    (
        "regex",
        "boolean",
        "`search` is a regular expression. Optional, defaults to false.",
    ),
    ("max_tokens", "integer", MAX_TOKENS_DESCRIPTION),
];

/// A tool as the server offers it.
#[derive(Debug)]
pub(crate) struct Tool {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
    pub output_schema: Option<Value>,
    pub op: &'static OperationInfo,
    pub checkfor: bool,
    /// The default toolset's entry, when it has one.
    pub agent: Option<&'static AgentTool>,
}

impl Tool {
    /// How to get more when an answer was cut.
    pub fn more(&self) -> &'static str {
        self.agent
            .map_or("narrow the request or raise `max_tokens`", |a| a.more)
    }
}

/// The tool name of an operation.
pub(crate) fn tool_name(op: &str) -> String {
    if op == CHECKFOR_OPERATION {
        CHECKFOR_TOOL.to_string()
    } else {
        op.replace('.', "_")
    }
}

/// The tools `selectors` name (see `ServerOptions::tools`), in order: the default
/// toolset's first, then the others in the operation table's order. Empty: the default
/// toolset. An unknown selector is an `invalid_request` error listing the known ones.
pub(crate) fn select(selectors: &[String]) -> Result<Vec<Tool>> {
    let offered: Vec<&'static OperationInfo> = registry::OPERATIONS
        .iter()
        .filter(|op| !op.writes_user_settings)
        .collect();
    let mut chosen: Vec<&'static str> = Vec::new();
    let defaults = || AGENT_TOOLS.iter().map(|t| t.op);
    if selectors.is_empty() {
        chosen.extend(defaults());
    }
    for selector in selectors {
        let selector = selector.trim();
        let matched: Vec<&'static str> = match selector {
            "default" => defaults().collect(),
            "all" => offered.iter().map(|op| op.name).collect(),
            _ => offered
                .iter()
                .filter(|op| {
                    component(op.name) == selector
                        || op.name == selector
                        || tool_name(op.name) == selector
                        || (selector == "grep" && op.name == CHECKFOR_OPERATION)
                })
                .map(|op| op.name)
                .collect(),
        };
        if matched.is_empty() {
            return Err(Error::invalid(
                "mcp",
                format!(
                    "unknown tool selector {:?}: use default, all, a component ({}) or a tool name ({})",
                    selector.chars().take(100).collect::<String>(),
                    components(&offered).join(", "),
                    offered
                        .iter()
                        .map(|op| tool_name(op.name))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            ));
        }
        chosen.extend(matched);
    }
    let mut ordered: Vec<&'static OperationInfo> = Vec::new();
    for agent in AGENT_TOOLS {
        if chosen.contains(&agent.op)
            && let Some(op) = offered.iter().find(|op| op.name == agent.op)
        {
            ordered.push(op);
        }
    }
    for op in &offered {
        if chosen.contains(&op.name) && !ordered.iter().any(|o| o.name == op.name) {
            ordered.push(op);
        }
    }
    Ok(ordered.into_iter().map(tool).collect())
}

fn component(op: &str) -> &str {
    op.split('.').next().unwrap_or(op)
}

fn components(offered: &[&'static OperationInfo]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = offered.iter().map(|op| component(op.name)).collect();
    names.dedup();
    names
}

/// The tool of one operation: the default toolset's form when it has one, else the
/// operation table's summary and full request schema (with `max_tokens`).
fn tool(op: &'static OperationInfo) -> Tool {
    let agent = AGENT_TOOLS.iter().find(|t| t.op == op.name);
    let full = tool_schema(op.request_schema());
    let checkfor = op.name == CHECKFOR_OPERATION;
    let input_schema = if checkfor {
        checkfor_input_schema()
    } else {
        match agent {
            Some(agent) => agent_schema(&full, agent),
            None => with_max_tokens(full),
        }
    };
    Tool {
        name: tool_name(op.name),
        description: agent.map_or(op.summary, |a| a.description).to_string(),
        input_schema,
        output_schema: object_schema(op.response_schema()),
        op,
        checkfor,
        agent,
    }
}

/// An operation's full schema with `max_tokens` added (every tool takes it).
fn with_max_tokens(mut schema: Value) -> Value {
    if let Value::Object(map) = &mut schema {
        if !map.contains_key("type") {
            map.insert("type".into(), json!("object"));
        }
        if let Some(Value::Object(properties)) = map.get_mut("properties")
            && !properties.contains_key("max_tokens")
        {
            properties.insert(
                "max_tokens".into(),
                json!({"type": "integer", "minimum": 1, "description": MAX_TOKENS_DESCRIPTION}),
            );
        }
    }
    schema
}

/// The agent's schema of a tool: only the parameters it lists, each with its type from
/// the operation's schema (nullable types made plain, no defaults) and the agent's
/// description, then `max_tokens`.
fn agent_schema(full: &Value, agent: &AgentTool) -> Value {
    let mut properties = Map::new();
    for (name, description) in agent.params {
        let mut property = full
            .pointer(&format!("/properties/{name}"))
            .map(plain_type)
            .unwrap_or_default();
        property.insert("description".into(), json!(description));
        properties.insert((*name).to_string(), Value::Object(property));
    }
    properties.insert(
        "max_tokens".into(),
        json!({"type": "integer", "minimum": 1, "description": MAX_TOKENS_DESCRIPTION}),
    );
    let mut schema = json!({"type": "object", "properties": properties});
    if !agent.required.is_empty() {
        schema["required"] = json!(agent.required);
    }
    schema
}

/// The type keywords of a property, without `null` and without annotations.
fn plain_type(property: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    let mut types: Vec<Value> = Vec::new();
    let mut collect = |value: &Value| match value.get("type") {
        Some(Value::String(t)) if t != "null" => types.push(json!(t)),
        Some(Value::Array(list)) => types.extend(list.iter().filter(|t| *t != "null").cloned()),
        _ => {}
    };
    collect(property);
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alternatives)) = property.get(key) {
            for alternative in alternatives {
                collect(alternative);
                if let Some(Value::Array(nested)) = alternative.get("anyOf") {
                    nested.iter().for_each(&mut collect);
                }
            }
        }
    }
    types.dedup();
    match types.len() {
        0 => {}
        1 => {
            out.insert("type".into(), types.remove(0));
        }
        _ => {
            out.insert("type".into(), Value::Array(types));
        }
    }
    for key in ["minimum", "maximum", "enum"] {
        if let Some(value) = property.get(key) {
            out.insert(key.into(), value.clone());
        }
    }
    if let Some(items) = property.get("items") {
        out.insert("items".into(), Value::Object(plain_type(items)));
    }
    out
}

/// checkfor's input schema, key for key as the checkfor server sends it, then the
/// extras (`recursive`, `regex`, `max_tokens`) in the same style.
fn checkfor_input_schema() -> Value {
    let mut schema = json!({
        "type": "object",
        "properties": {
            "case_insensitive": {
                "type": "boolean",
                "description": "Perform case-insensitive search. Optional, defaults to false.",
                "default": false
            },
            "context": {
                "type": "integer",
                "description": "Number of context lines before and after each match. Optional, defaults to 0.",
                "default": 0
            },
            "dir": {
                "type": "array",
                "description": "Array of directory paths to search. Can also accept a single string for backwards compatibility. Defaults to current directory if not provided."
            },
            "exclude": {
                "type": "array",
                "description": "Array of strings to exclude from results. Matches containing any of these strings will be filtered out. Optional."
            },
            "ext": {
                "type": "string",
                "description": "File extension to filter (e.g., '.go', '.rtf'). Optional."
            },
            "hide_filter_stats": {
                "type": "boolean",
                "description": "Hide original_matches and filtered_matches from output. Optional, defaults to false.",
                "default": false
            },
            "search": {
                "type": "string",
                "description": "String pattern to search for"
            },
            "whole_word": {
                "type": "boolean",
                "description": "Match whole words only. Optional, defaults to false.",
                "default": false
            }
        },
        "required": ["search"]
    });
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (name, kind, description) in CHECKFOR_EXTRAS {
            let mut property = json!({"type": kind, "description": description});
            if *kind == "boolean" {
                property["default"] = json!(false);
            } else {
                property["minimum"] = json!(1);
            }
            properties.insert((*name).to_string(), property);
        }
    }
    schema
}

/// The extra parameters `checkfor` takes beyond checkfor's own.
pub(crate) fn checkfor_extras() -> impl Iterator<Item = &'static str> {
    CHECKFOR_EXTRAS.iter().map(|(name, _, _)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_tool_names_a_real_operation_and_real_parameters() {
        for agent in AGENT_TOOLS {
            let op = registry::find(agent.op).unwrap();
            assert!(!op.writes_user_settings, "{}", agent.op);
            let schema = tool_schema(op.request_schema());
            if agent.op != CHECKFOR_OPERATION {
                for required in agent.required {
                    assert!(
                        agent.params.iter().any(|(p, _)| p == required),
                        "{}: required {required} is not shown",
                        agent.op
                    );
                }
            }
            for (name, _) in agent.params {
                let property = schema
                    .pointer(&format!("/properties/{name}"))
                    .unwrap_or_else(|| panic!("{} has no parameter {name}", agent.op));
                assert!(
                    plain_type(property).contains_key("type"),
                    "{}.{name}: no type in {property}",
                    agent.op
                );
            }
            if let Some(freshen) = agent.freshen {
                let index = registry::find(freshen.op).unwrap();
                let index_schema = tool_schema(index.request_schema());
                for field in freshen.copy {
                    assert!(
                        schema.pointer(&format!("/properties/{field}")).is_some()
                            && index_schema
                                .pointer(&format!("/properties/{field}"))
                                .is_some(),
                        "{} -> {}: {field}",
                        agent.op,
                        freshen.op
                    );
                }
            }
        }
    }

    #[test]
    fn selectors() {
        let names = |s: &[&str]| -> Vec<String> {
            select(&s.iter().map(|s| s.to_string()).collect::<Vec<_>>())
                .unwrap()
                .into_iter()
                .map(|t| t.name)
                .collect()
        };
        let default = names(&[]);
        assert_eq!(default, names(&["default"]));
        assert_eq!(default.len(), AGENT_TOOLS.len());
        assert_eq!(default[1], "checkfor");
        assert!(
            !default
                .iter()
                .any(|n| n.ends_with("_index") || n == "embed_text")
        );
        let all = names(&["all"]);
        assert!(all.len() > default.len());
        assert_eq!(
            &all[..default.len()],
            &default[..],
            "the default tools first"
        );
        assert!(
            !all.iter()
                .any(|n| n == "grep_search" || n.starts_with("claude"))
        );
        assert_eq!(names(&["grep"]), ["checkfor"]);
        assert_eq!(
            names(&["code_delete_repos", "files"]),
            ["files_suggest", "code_delete_repos", "files_refresh"]
        );
        assert_eq!(names(&["embed.text"]), ["embed_text"]);
        let error = select(&["nope".to_string()]).unwrap_err().to_string();
        assert!(
            error.contains("nope") && error.contains("sessions"),
            "{error}"
        );
    }
}
