//! What an operation is: a name, a serde request type, a serde response type and a
//! function over `&Engine` — the [`Operation`] trait, which every component implements —
//! and [`OperationInfo`], the same with the types erased to JSON.
//!
//! The list of every operation is [`crate::registry`], above the components it lists.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::engine::Engine;
use crate::error::{Error, Result};

/// One operation: its name, its request and response types, and what it does.
pub trait Operation {
    /// Dotted name, `<component>.<verb>` (e.g. `files.suggest`).
    const NAME: &'static str;
    /// One line saying what it does, for `tools/list` and the docs.
    const SUMMARY: &'static str;
    /// Parameters. Unknown fields are refused, missing ones take their defaults.
    type Request: DeserializeOwned + schemars::JsonSchema;
    /// Result.
    type Response: Serialize + schemars::JsonSchema;
    /// The request fields that name files or directories. Every operation says (`&[]`
    /// when it has none): the MCP server canonicalises each one and refuses a path that
    /// leaves the directories it may read, so a new operation is confined without
    /// touching the server.
    const PATH_PARAMS: &'static [PathParam];
    /// Whether the operation changes the user's own settings (outside cc-search's data
    /// root). Such operations are left out of the MCP tools: an agent cannot run them.
    const WRITES_USER_SETTINGS: bool = false;
    /// How an agent reads the result ([`crate::agent`] applies it at the MCP server and
    /// the CLI's `--compact`): shorter keys, paths listed once, fields it has no use for
    /// left out. The result itself is always full; the default shows it as it is.
    const AGENT: AgentShape = AgentShape::FULL;
    /// Do it.
    fn run(engine: &Engine, request: Self::Request) -> Result<Self::Response>;
}

/// A request field holding a path (or a list of paths), as [`Operation::PATH_PARAMS`]
/// declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathParam {
    /// Where the field is in the request object, as a JSON pointer (`/root`).
    pub pointer: &'static str,
    /// The field holds a list of paths (a single string is accepted too).
    pub many: bool,
    /// Without the field the operation works on the project directory
    /// (`$CLAUDE_PROJECT_DIR`, else the current directory); a caller that knows the
    /// project better (the MCP server) passes its own instead.
    pub defaults_to_project: bool,
    /// The field limits what the operation answers about to stored indexes of
    /// repositories and projects under these directories (absent: all of them). A caller
    /// that may only see some directories (the MCP server) always sets it to those, so
    /// an agent cannot list, read or delete what other projects stored.
    pub defaults_to_roots: bool,
    /// The field that, when the caller gives it, stands in for the roots: the default
    /// above is not applied (`sessions.search`'s `project`: an agent asks for another
    /// project's sessions by naming it).
    pub unless: Option<&'static str>,
}

impl PathParam {
    /// A field holding one path.
    pub const fn one(pointer: &'static str) -> PathParam {
        PathParam {
            pointer,
            many: false,
            defaults_to_project: false,
            defaults_to_roots: false,
            unless: None,
        }
    }

    /// A field holding a list of paths.
    pub const fn many(pointer: &'static str) -> PathParam {
        PathParam {
            pointer,
            many: true,
            defaults_to_project: false,
            defaults_to_roots: false,
            unless: None,
        }
    }

    /// The same field, which defaults to the project directory when absent.
    pub const fn or_project(self) -> PathParam {
        PathParam {
            defaults_to_project: true,
            ..self
        }
    }

    /// A list of directories that confines the answer to what is stored for
    /// repositories and projects under them ([`PathParam::defaults_to_roots`]).
    pub const fn within(pointer: &'static str) -> PathParam {
        PathParam {
            pointer,
            many: true,
            defaults_to_project: false,
            defaults_to_roots: true,
            unless: None,
        }
    }

    /// The same field, whose default is not applied when the request has `pointer`
    /// ([`PathParam::unless`]).
    pub const fn unless_given(self, pointer: &'static str) -> PathParam {
        PathParam {
            unless: Some(pointer),
            ..self
        }
    }
}

/// How an operation's result is shown to an agent, declared beside the operation
/// ([`Operation::AGENT`]) and applied by [`crate::agent`]: the typed result, full names and
/// all, made cheaper to read where it pays. In the order applied:
///
/// 1. `omit`: fields left out, as paths (`results/*/score`: the `score` of every item of
///    `results`);
/// 2. `paths`: the lists whose items name their file in `path`, shown once;
/// 3. `inherit_path`: an object's `path` that equals the enclosing object's is left out;
/// 4. `line_ranges`: `start_line` and `end_line` become one `"l": "start-end"`;
/// 5. `keys`: keys renamed, full → short, in every object of the answer.
///
/// The answer is then cut to the caller's token budget; `configured_budget` gives one
/// when the caller gives none (a project's own setting).
#[derive(Debug, Clone, Copy)]
pub struct AgentShape {
    /// Fields left out, as `/`-separated paths with `*` for every item of a list.
    pub omit: &'static [&'static str],
    /// Where the files of listed items go.
    pub paths: Option<PathTable>,
    /// Leave out a `path` equal to the enclosing object's `path`.
    pub inherit_path: bool,
    /// `start_line` / `end_line` as one `"l": "start-end"`.
    pub line_ranges: bool,
    /// Keys renamed (full, short), in every object of the answer.
    pub keys: &'static [(&'static str, &'static str)],
    /// The token budget the request's project sets for its answers, if any (the request
    /// as the operation receives it).
    pub configured_budget: Option<fn(&serde_json::Value) -> Option<usize>>,
    /// The key of a tree of symbols (each with its `children`) shown as an outline: a list
    /// of one line per symbol, `start[-end] kind name #id`, children indented two spaces
    /// under their parent — names, kinds and lines, what a grep for definitions would
    /// show, at less cost; a symbol's details are one `id` away.
    pub outline: Option<&'static str>,
    /// The key of the list an answer pages through (its request's `offset`, its
    /// `total`): an answer cut short says which `offset` gives the rest.
    pub paged: Option<&'static str>,
}

impl AgentShape {
    /// The result as it is.
    pub const FULL: AgentShape = AgentShape {
        omit: &[],
        paths: None,
        inherit_path: false,
        line_ranges: false,
        keys: &[],
        configured_budget: None,
        outline: None,
        paged: None,
    };
}

/// The files of listed items shown once ([`AgentShape::paths`]): the items of `lists`
/// (paths as in [`AgentShape::omit`]) lose `path` for `fi`, an index into `table`. With
/// `table` `"_f"` a list of the paths is added to the answer — unless the items name one
/// file only, which each then keeps as `f`; any other `table` names a list already in the
/// answer whose items have a `path` (an item whose file it lacks keeps its `path`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathTable {
    /// The lists whose items name a file.
    pub lists: &'static [&'static str],
    /// `"_f"`, or the key of a list of objects with `path`.
    pub table: &'static str,
}

/// An entry of the operation table, with the operation's types erased to JSON.
pub struct OperationInfo {
    /// The operation's name.
    pub name: &'static str,
    /// What it does, in one line.
    pub summary: &'static str,
    /// The request fields that are paths ([`Operation::PATH_PARAMS`]).
    pub path_params: &'static [PathParam],
    /// Whether it writes the user's settings ([`Operation::WRITES_USER_SETTINGS`]).
    pub writes_user_settings: bool,
    /// How an agent reads its result ([`Operation::AGENT`]).
    pub agent: AgentShape,
    call: fn(&Engine, &str) -> Result<String>,
    request_schema: fn() -> serde_json::Value,
    response_schema: fn() -> serde_json::Value,
}

impl OperationInfo {
    /// The table entry of operation `O`.
    pub const fn of<O: Operation>() -> OperationInfo {
        OperationInfo {
            name: O::NAME,
            summary: O::SUMMARY,
            path_params: O::PATH_PARAMS,
            writes_user_settings: O::WRITES_USER_SETTINGS,
            agent: O::AGENT,
            call: call_json::<O>,
            request_schema: schema::<O::Request>,
            response_schema: schema::<O::Response>,
        }
    }

    /// Run it with JSON parameters.
    pub fn call(&self, engine: &Engine, params_json: &str) -> Result<String> {
        (self.call)(engine, params_json)
    }

    /// JSON Schema of the parameters.
    pub fn request_schema(&self) -> serde_json::Value {
        (self.request_schema)()
    }

    /// JSON Schema of the result.
    pub fn response_schema(&self) -> serde_json::Value {
        (self.response_schema)()
    }
}

impl std::fmt::Debug for OperationInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OperationInfo")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Largest JSON parameter text accepted (64 MiB).
pub const MAX_PARAMS_BYTES: usize = 64 << 20;

/// Run operation `O` with JSON parameters, returning JSON: the text must be a JSON object
/// (empty or `null` means all defaults), unknown fields are refused, and every failure
/// to read it is an [`Error::InvalidRequest`] naming the operation.
pub fn call_json<O: Operation>(engine: &Engine, params_json: &str) -> Result<String> {
    if params_json.len() > MAX_PARAMS_BYTES {
        return Err(Error::invalid(
            O::NAME,
            format!(
                "parameters are {} bytes; the limit is {MAX_PARAMS_BYTES}",
                params_json.len()
            ),
        ));
    }
    let trimmed = params_json.trim();
    let text = if trimmed.is_empty() || trimmed == "null" {
        "{}"
    } else {
        trimmed
    };
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::invalid(O::NAME, e.to_string()))?;
    if !value.is_object() {
        return Err(Error::invalid(O::NAME, "parameters must be a JSON object"));
    }
    let request: O::Request = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let message = if path == "." {
            inner.to_string()
        } else {
            format!("`{path}`: {inner}")
        };
        Error::invalid(O::NAME, message)
    })?;
    let response = O::run(engine, request)?;
    serde_json::to_string(&response).map_err(|e| Error::Internal(format!("{}: {e}", O::NAME)))
}

fn schema<T: schemars::JsonSchema>() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap_or(serde_json::Value::Null)
}
