//! What the bindings need that the operation table cannot say: every such hint is here,
//! and only here. The generator checks each one against the table (a hint naming an
//! operation, a type or a field that no longer exists fails the drift test), so none can
//! outlive what it is about.
//!
//! Without a hint an operation `x.y` becomes the methods `x_y` (Python) and `xY` / `xYAsync`
//! (Node), whose positional parameters are the request's required fields (the schema's
//! `required`) and whose other parameters are keyword-only (Python) or `options` (Node).

/// How a method differs from what the schema alone gives.
pub struct Method {
    /// The operation.
    pub op: &'static str,
    /// The method's name in Python (Node's is its camelCase); `None`: the operation's name.
    pub name: Option<&'static str>,
    /// The stem of the type names (`<stem>Request`, `<stem>Response`, `<stem>Options`);
    /// `None`: the method's name in PascalCase.
    pub stem: Option<&'static str>,
    /// The leading positional parameters, in order.
    pub args: &'static [Arg],
    /// The operation reports progress: Python's method takes `progress`.
    pub progress: bool,
    /// The method returns only this field of the response.
    pub returns: Option<&'static str>,
}

/// A positional parameter: a request field given before the others.
pub struct Arg {
    /// The request field.
    pub field: &'static str,
    /// Where it is positional.
    pub kind: ArgKind,
    /// Its name in Python when it is not the field's.
    pub py_name: Option<&'static str>,
    /// Python accepts a path (`os.PathLike`) for it, though the operation does not list it
    /// among its path parameters.
    pub path: bool,
}

/// Where a positional parameter is positional, and whether it may be left out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// First in Python and Node, and always given (the core refuses or defaults it).
    Required,
    /// Positional in Python and Node, and may be left out.
    Optional,
    /// Positional in Python only, and may be left out; in Node an option like the others.
    PythonOptional,
}

const fn method(op: &'static str, name: &'static str, args: &'static [Arg]) -> Method {
    Method {
        op,
        name: Some(name),
        stem: None,
        args,
        progress: false,
        returns: None,
    }
}

const fn args(op: &'static str, args: &'static [Arg]) -> Method {
    Method {
        op,
        name: None,
        stem: None,
        args,
        progress: false,
        returns: None,
    }
}

const fn arg(field: &'static str, kind: ArgKind) -> Arg {
    Arg {
        field,
        kind,
        py_name: None,
        path: false,
    }
}

const fn req(field: &'static str) -> Arg {
    arg(field, ArgKind::Required)
}

const fn opt(field: &'static str) -> Arg {
    arg(field, ArgKind::Optional)
}

const fn py_opt(field: &'static str) -> Arg {
    arg(field, ArgKind::PythonOptional)
}

impl Method {
    const fn progress(self) -> Method {
        Method {
            progress: true,
            ..self
        }
    }

    const fn stem(self, stem: &'static str) -> Method {
        Method {
            stem: Some(stem),
            ..self
        }
    }

    const fn returns(self, field: &'static str) -> Method {
        Method {
            returns: Some(field),
            ..self
        }
    }
}

impl Arg {
    const fn py_name(self, name: &'static str) -> Arg {
        Arg {
            py_name: Some(name),
            ..self
        }
    }

    const fn path(self) -> Arg {
        Arg { path: true, ..self }
    }
}

/// The methods as the bindings have always named and called them. The requests declare
/// no field required (they all default), so which ones come first is said here; Node's
/// `code*` methods take the repository as the option `path`, Python's positionally.
pub const METHODS: &[Method] = &[
    method("code.delete_repos", "code_delete", &[opt("paths")]),
    method("code.find", "code_find", &[req("query")]).progress(),
    method("code.get_dependencies", "code_dependencies", &[req("id")]),
    method(
        "code.get_file_symbols",
        "code_file_symbols",
        &[req("file").path()],
    ),
    method("code.get_overview", "code_overview", &[py_opt("path")]),
    method("code.get_references", "code_references", &[req("id")]),
    method("code.get_symbol_detail", "code_symbol", &[req("id")]).stem("CodeSymbolDetail"),
    method("code.index_repository", "code_index", &[py_opt("path")]).progress(),
    method("code.index_status", "code_status", &[py_opt("path")]),
    method("code.list_repos", "code_repos", &[]).returns("repos"),
    method("code.search_symbols", "code_search", &[req("query")]),
    method("code.update_files", "code_update", &[req("files")]),
    args("docs.index", &[py_opt("project_dir")]).progress(),
    args("docs.query", &[req("query")]),
    method("embed.text", "embed", &[req("texts")]),
    args("files.refresh", &[py_opt("root")]).progress(),
    args("files.suggest", &[opt("query")]),
    method(
        "grep.search",
        "grep",
        &[req("search"), py_opt("dir").py_name("dirs")],
    ),
    args("notes.index", &[py_opt("project_dir")]).progress(),
    args("notes.query", &[req("query")]),
    args("sessions.chunk", &[req("id")]),
    args("sessions.index", &[]).progress(),
    args("sessions.search", &[req("query")]).progress(),
];

/// Public names of the schemas' `$defs`, as `<component>.<Rust name>` or `<Rust name>`
/// (any component). Without one a def is named `<Component><Rust name>`.
pub const DEF_NAMES: &[(&str, &str)] = &[
    ("Mode", "SearchMode"),
    ("code.RepoSummary", "CodeRepo"),
    ("code.Symbol", "CodeSymbol"),
    ("docs.QueryHit", "DocsHit"),
    ("files.RootRefresh", "RootRefresh"),
    ("grep.DirectoryResult", "GrepDirectory"),
    ("grep.FileMatch", "GrepFile"),
    ("grep.LineMatch", "GrepMatch"),
    ("sessions.ProjectSessions", "SessionsProject"),
    ("sessions.SearchHit", "SessionsHit"),
];

/// Closed sets of strings the core checks but the schemas type as `string`.
pub const STRING_SETS: &[(&str, &str, &[&str])] = &[(
    "SessionsChunkKind",
    "A chunk kind of the session index.",
    &["user", "assistant", "tool", "thinking", "summary"],
)];

/// How a field's type is sharper than its schema says.
pub enum Refine {
    /// Always in the response, `null` when there is nothing: schemars marks every `Option`
    /// optional, whether it is left out (`skip_serializing_if`) or written as `null`.
    /// Without this hint an optional field is taken to be left out, never `null`.
    Present,
    /// Present only as `true` (left out when false).
    OnlyTrue,
    /// One of these strings (the items, for a list).
    OneOf(&'static [&'static str]),
    /// This named type (the items' type, for a list).
    Is(&'static str),
}

/// Field refinements, by generated type name (`*`: every response type) and JSON key.
pub const FIELDS: &[(&str, &str, Refine)] = &[
    ("*", "external", Refine::OnlyTrue),
    ("*", "truncated", Refine::OnlyTrue),
    ("ClaudeInstallResponse", "backup", Refine::Present),
    ("CodeIndexResponse", "status", Refine::OneOf(&["ok"])),
    ("CodeSymbol", "children", Refine::Is("CodeSymbol")),
    ("DocsHit", "similarity", Refine::Present),
    (
        "SessionsChunkResponse",
        "kind",
        Refine::Is("SessionsChunkKind"),
    ),
    (
        "SessionsChunkResponse",
        "parent_session_id",
        Refine::Present,
    ),
    ("SessionsChunkResponse", "prompt_uuid", Refine::Present),
    (
        "SessionsContextMessage",
        "role",
        Refine::OneOf(&["user", "assistant", "summary"]),
    ),
    ("SessionsGroupPart", "kind", Refine::Is("SessionsChunkKind")),
    ("SessionsHit", "kind", Refine::Is("SessionsChunkKind")),
    (
        "SessionsHit",
        "matched_by",
        Refine::OneOf(&["keyword", "vector"]),
    ),
    ("SessionsHit", "matched_window", Refine::Present),
    ("SessionsHit", "parent_session_id", Refine::Present),
    (
        "SessionsSearchRequest",
        "types",
        Refine::Is("SessionsChunkKind"),
    ),
    ("SessionsSearchResponse", "note", Refine::Present),
    ("SessionsStatusResponse", "last_indexed", Refine::Present),
    ("SessionsStatusResponse", "projects_dir", Refine::Present),
];
