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

// ── the command line ──────────────────────────────────────────────────────────────────
//
// `cc-search`'s commands (Python's `cc_search/_cli_table.py`). Without a hint a request
// field of a command's operation becomes the option `--<field>` (`_` as `-`) with its
// schema's description as help, `N` as the metavar of a number and the option's name in
// capitals for the rest, a list repeatable, a set of strings its choices. The hints say
// what the schema cannot: positional arguments, short and grammar names (`-C`, `-n`),
// fields not offered, options that are the command line's own, and help that speaks of
// the command line (repeatable, comma-separated, stdin).

/// A command group (`cc-search code …`).
pub struct Group {
    pub name: &'static str,
    pub help: &'static str,
}

pub const GROUPS: &[Group] = &[
    Group {
        name: "files",
        help: "File paths ranked for the @ picker.",
    },
    Group {
        name: "code",
        help: "Code symbols (tree-sitter): index a repository, search and navigate its symbols.",
    },
    Group {
        name: "docs",
        help: "The project's docs (Markdown, reStructuredText) by section: index them, search \
               them (keyword + semantic).",
    },
    Group {
        name: "notes",
        help: "Session notes (sessions/YYYY_MM_DD_TOPIC/*.md) by H2 section: index, search.",
    },
    Group {
        name: "install",
        help: "Set cc-search up in other tools.",
    },
    Group {
        name: "hook",
        help: "Commands Claude Code runs, set up by `install claude`; they never fail.",
    },
];

/// How `--json` prints a command's result.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Json {
    /// No `--json`: the command prints no result of its own (hooks, the MCP server).
    None,
    /// `json.dumps` of the result (`, ` and `: `), warnings on stderr.
    Plain,
    /// Compact, on one line (the code commands, `call`), warnings on stderr.
    Compact,
    /// The command prints JSON anyway; `--json` is accepted and changes nothing.
    Always,
}

/// Whether a command reports progress (a bar on a terminal), and whether a run stopped
/// by Ctrl-C has kept what it did.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    None,
    /// It commits as it goes.
    Keeps,
    /// It writes all at the end: a stopped run wrote nothing.
    AtEnd,
}

/// The type of an option that is not a request field.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Own {
    Flag,
    Str,
    Int,
    /// Repeatable.
    Strs,
    /// `--x/--no-x`, `None` when neither is given.
    OnOff,
}

/// How many values a positional argument takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Nargs {
    One,
    Optional,
    /// One or more.
    Many,
    /// Any number.
    Any,
}

/// An option or argument of a command.
pub struct Opt {
    /// The request field it sets, or (with `own`) the name of the command line's own option.
    pub key: &'static str,
    /// Its spellings, long first; empty: a positional argument.
    pub flags: &'static [&'static str],
    pub nargs: Nargs,
    pub metavar: Option<&'static str>,
    pub help: Option<&'static str>,
    /// Not a request field: the command handles it.
    pub own: Option<Own>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// Values may also be given comma-separated.
    pub commas: bool,
    /// `-` reads the value from stdin.
    pub stdin: bool,
    /// A value of only blanks is refused ("Query required").
    pub nonblank: bool,
    /// Must be given.
    pub required: bool,
    /// An older spelling, still accepted and not shown.
    pub old: Option<&'static str>,
    /// The project (`-C/--project-dir DIR`): its help ends with the default.
    pub project: bool,
}

const fn opt_(key: &'static str, flags: &'static [&'static str]) -> Opt {
    Opt {
        key,
        flags,
        nargs: Nargs::One,
        metavar: None,
        help: None,
        own: None,
        min: None,
        max: None,
        commas: false,
        stdin: false,
        nonblank: false,
        required: false,
        old: None,
        project: false,
    }
}

/// No hint: what a request field without one gets.
pub const NO_HINT: Opt = opt_("", &[]);

/// The option `flags` for request field `key`.
const fn flag(key: &'static str, flags: &'static [&'static str]) -> Opt {
    opt_(key, flags)
}

/// The positional argument for request field `key`.
const fn pos(key: &'static str, metavar: &'static str) -> Opt {
    opt_(key, &[]).metavar(metavar)
}

/// The command line's own option `key`.
const fn own(key: &'static str, flags: &'static [&'static str], ty: Own) -> Opt {
    Opt {
        own: Some(ty),
        ..opt_(key, flags)
    }
}

/// `-C/--project-dir DIR` for request field `key`, `what` saying what it is.
const fn project(key: &'static str, what: &'static str) -> Opt {
    Opt {
        project: true,
        ..flag(key, &["--project-dir", "-C"])
            .metavar("DIR")
            .help(what)
    }
}

/// `-C/--project-dir DIR` as the command line's own option `project_dir`.
const fn own_project(what: &'static str) -> Opt {
    Opt {
        own: Some(Own::Str),
        ..project("project_dir", what)
    }
}

/// `-n/--limit N` for the request field `limit`.
const fn limit(help: &'static str) -> Opt {
    flag("limit", &["--limit", "-n"]).metavar("N").help(help)
}

impl Opt {
    const fn metavar(self, metavar: &'static str) -> Opt {
        Opt {
            metavar: Some(metavar),
            ..self
        }
    }
    const fn help(self, help: &'static str) -> Opt {
        Opt {
            help: Some(help),
            ..self
        }
    }
    const fn nargs(self, nargs: Nargs) -> Opt {
        Opt { nargs, ..self }
    }
    const fn range(self, min: Option<i64>, max: Option<i64>) -> Opt {
        Opt { min, max, ..self }
    }
    const fn commas(self) -> Opt {
        Opt {
            commas: true,
            ..self
        }
    }
    const fn stdin(self) -> Opt {
        Opt {
            stdin: true,
            ..self
        }
    }
    const fn nonblank(self) -> Opt {
        Opt {
            nonblank: true,
            ..self
        }
    }
    const fn required(self) -> Opt {
        Opt {
            required: true,
            ..self
        }
    }
    const fn old(self, old: &'static str) -> Opt {
        Opt {
            old: Some(old),
            ..self
        }
    }
}

/// A command: `name` (with its group: `code search`) runs `op` with the options its
/// request fields give, unless `own` says the command does its own work.
pub struct Command {
    pub name: &'static str,
    /// The operation whose request fields are its options.
    pub op: Option<&'static str>,
    /// Its help; `None`: the operation's summary.
    pub help: Option<&'static str>,
    /// The options with a hint, in the order shown after the positional arguments; the
    /// request's other fields follow in its order.
    pub opts: &'static [Opt],
    /// Request fields the command line does not offer.
    pub skip: &'static [&'static str],
    /// What `--json` prints, and its help.
    pub json: (Json, &'static str),
    /// `--compact` and `--max-tokens`: what an agent reads of the result.
    pub agent: bool,
    pub progress: Progress,
    /// Pairs of options that exclude each other.
    pub excludes: &'static [(&'static str, &'static str)],
    /// Options of which at least one must be given.
    pub one_of: &'static [&'static str],
}

const fn command(name: &'static str, op: &'static str, json: (Json, &'static str)) -> Command {
    Command {
        name,
        op: Some(op),
        help: None,
        opts: &[],
        skip: &[],
        json,
        agent: false,
        progress: Progress::None,
        excludes: &[],
        one_of: &[],
    }
}

/// A command that runs no operation of its own (or more than one).
const fn own_command(
    name: &'static str,
    help: &'static str,
    json: (Json, &'static str),
) -> Command {
    Command {
        op: None,
        help: Some(help),
        ..command(name, "", json)
    }
}

impl Command {
    const fn help(self, help: &'static str) -> Command {
        Command {
            help: Some(help),
            ..self
        }
    }
    const fn opts(self, opts: &'static [Opt]) -> Command {
        Command { opts, ..self }
    }
    const fn skip(self, skip: &'static [&'static str]) -> Command {
        Command { skip, ..self }
    }
    const fn agent(self) -> Command {
        Command {
            agent: true,
            ..self
        }
    }
    const fn progress(self, progress: Progress) -> Command {
        Command { progress, ..self }
    }
    const fn excludes(self, excludes: &'static [(&'static str, &'static str)]) -> Command {
        Command { excludes, ..self }
    }
    const fn one_of(self, one_of: &'static [&'static str]) -> Command {
        Command { one_of, ..self }
    }
}

const fn plain(help: &'static str) -> (Json, &'static str) {
    (Json::Plain, help)
}

const fn compact(help: &'static str) -> (Json, &'static str) {
    (Json::Compact, help)
}

const NO_JSON: (Json, &str) = (Json::None, "");

/// `-C/--project-dir` of the code commands (the request's `path`), and its old name.
const REPO: Opt = project("path", "The repository, or a directory inside it").old("--path");
const LOCK_WAIT: Opt = flag("lock_wait_secs", &["--lock-wait"])
    .metavar("SECONDS")
    .range(Some(0), None)
    .help("Seconds to wait for another index run's lock before giving up (default 30).");
const MODE: Opt = flag("mode", &["--mode"]).metavar("MODE");
const QUERY: Opt = pos("query", "QUERY").nonblank();
const SYMBOL_ID: Opt = pos("id", "ID").help("Symbol id.");
const DOCS_LIMIT: Opt =
    limit("Most results to list, 1 to 100 (default 10).").range(Some(1), Some(100));
const DOCS_INDEX_JSON: (Json, &str) =
    plain("the run's counts (files, sections, embedded) and the warnings");
const DOCS_QUERY_JSON: (Json, &str) = plain(
    "every hit with its whole section, score and place, the mode and the warnings (the text \
     output shows a snippet of each)",
);

pub const COMMANDS: &[Command] = &[
    command(
        "files refresh",
        "files.refresh",
        plain("each root's counts, and the warnings"),
    )
    .help("Index the file paths under DIR, or the project's session roots (incremental).")
    .opts(&[
        pos("root", "DIR").nargs(Nargs::Optional).help(
            "Directory to index. Without it: the project, the configured [index] roots and the \
             project's additional directories.",
        ),
        project("project_dir", "The project refreshed without DIR"),
        flag("max_depth", &["--max-depth"]).help("Deepest level below DIR to index."),
        flag("exclude", &["--exclude"])
            .metavar("PAT")
            .help("Gitignore-style pattern to leave out (repeatable)."),
    ])
    .skip(&["now", "claude_dir"])
    .progress(Progress::AtEnd),
    command(
        "files suggest",
        "files.suggest",
        plain(r#"{"paths": [...], "warnings": [...]}"#),
    )
    .help("Print the best paths for QUERY, one a line, relative to the project.")
    .opts(&[
        pos("query", "QUERY")
            .nargs(Nargs::Optional)
            .help("What was typed after @; empty lists the recent files."),
        project("project_dir", "The project, whose paths are suggested"),
        limit("Most paths to print, 1 to 15 (default 15)."),
    ])
    .skip(&["budget_ms", "within"]),
    command(
        "grep",
        "grep.search",
        (
            Json::Always,
            "Print the JSON result (what grep always prints).",
        ),
    )
    .help(
        "Search file contents (checkfor's flags) and print compact JSON on one line: per \
         directory, the files with matches in path order, paths relative to the directory.\n\n\
         Without --recursive only the directory's own files are read. With it, subdirectories \
         are searched as ripgrep searches them by default: files that ignore files exclude \
         (.gitignore in a git repository, .ignore, .git/info/exclude, the global excludes) and \
         hidden files and directories are skipped, nothing else; --hidden and --skip-generated \
         change that.\n\n\
         Finding nothing is not an error (status 0). Unreadable files are warnings on stderr; a \
         directory that cannot be read is reported in the JSON and on stderr, and the status is \
         then 1. A usage error exits with status 2, Ctrl-C with 130.",
    )
    .opts(&[
        flag("search", &["--search", "-e"])
            .metavar("TEXT")
            .required()
            .help("Text to search for: a literal substring, or a regular expression with --regex."),
        flag("dir", &["--dir"]).metavar("DIR[,DIR]").commas().help(
            "Comma-separated directories, searched and reported in this order (default: the \
             project, -C).",
        ),
        own_project("The project, searched when --dir is not given"),
        flag("ext", &["--ext"])
            .metavar("EXT[,EXT]")
            .commas()
            .help("Only files with one of these extensions (.go, or rs,py)."),
        flag("exclude", &["--exclude"])
            .metavar("TEXT[,TEXT]")
            .commas()
            .help(
                "Comma-separated strings; matching lines containing any are dropped (and counted).",
            ),
        flag("case_insensitive", &["--case-insensitive", "-i"]),
        flag("whole_word", &["--whole-word", "-w"]),
        flag("context", &["--context"]).range(Some(0), None),
        flag("recursive", &["--recursive", "-r"])
            .help("Search subdirectories too, skipping ignored and hidden files (as rg does)."),
        flag("max_matches", &["--max-matches", "--limit", "-n"])
            .range(Some(1), None)
            .help("List at most N matches (matches_found still counts them all)."),
        flag("max_tokens", &["--max-tokens"])
            .range(Some(1), None)
            .help(
                "Keep the JSON within about N tokens (context dropped first, then long lines \
             shortened, then the last matches).",
            ),
    ]),
    command(
        "code index",
        "code.index_repository",
        compact(
            "the run's counts (new, changed, unchanged and deleted files; the symbols and \
             references the index holds)",
        ),
    )
    .help("Index (or bring up to date) a repository's symbols; only changed files are parsed.")
    .opts(&[REPO])
    .progress(Progress::AtEnd),
    command(
        "code update",
        "code.update_files",
        compact(
            "the run's counts (new, changed, unchanged and deleted files; the symbols and \
             references the index holds)",
        ),
    )
    .opts(&[
        pos("files", "FILE...")
            .nargs(Nargs::Many)
            .help("Files to re-index."),
        REPO,
    ]),
    command(
        "code status",
        "code.index_status",
        compact(
            "files, symbols, references and languages, when indexed, and the files changed, \
             deleted or new since",
        ),
    )
    .help("What the index holds and which files changed since.")
    .opts(&[REPO]),
    command(
        "code overview",
        "code.get_overview",
        compact(
            "languages, directories, and the top types and entry points with their signatures \
             and docs",
        ),
    )
    .help("Languages, directories, most referenced types, entry points.")
    .opts(&[REPO])
    .agent(),
    command(
        "code symbols",
        "code.get_file_symbols",
        compact("the tree of symbols, each with its lines, signature and doc"),
    )
    .help("The symbols of one file, as a tree.")
    .opts(&[
        pos("file", "FILE").help("File, relative to the repository."),
        REPO,
    ])
    .agent(),
    command(
        "code search",
        "code.search_symbols",
        compact(
            "every hit with its signature and doc (the text output cuts the signature to the \
             line)",
        ),
    )
    .help("Search symbols by name, subword, doc comment, kind or path.")
    .opts(&[
        pos("query", "QUERY").help("Words, prefix*, AND/OR/NOT."),
        REPO,
        flag("kind", &["--kind", "-k"]).help("Only this kind (fn, class, ...)."),
        limit("Most symbols to list.").range(Some(1), None),
    ])
    .agent(),
    command(
        "code find",
        "code.find",
        compact(
            "the files with their scores, each file's best definition with its id, lines and \
             signature, and the sides that ranked",
        ),
    )
    .help("Find the files and definitions a description is about, best first.")
    .opts(&[
        pos("query", "QUERY")
            .stdin()
            .help("What to find: an issue, a stack trace, a question; `-` reads it from stdin."),
        REPO,
        limit("Most files to list (default 10).").range(Some(1), None),
    ])
    .agent()
    .progress(Progress::AtEnd),
    command(
        "code detail",
        "code.get_symbol_detail",
        compact(
            "the symbol with its whole signature and doc, its parent, children and references \
             (the text output shows the start of a long doc)",
        ),
    )
    .help("One symbol in full: signature, doc, parent, children, calls, callers.")
    .opts(&[SYMBOL_ID, REPO])
    .agent(),
    command(
        "code refs",
        "code.get_references",
        compact("every reference with its file, line, kind and referring symbol"),
    )
    .help("Who refers to a symbol.")
    .opts(&[SYMBOL_ID, REPO])
    .agent(),
    command(
        "code deps",
        "code.get_dependencies",
        compact("every name it refers to, with its kind and the symbol it resolved to"),
    )
    .help("What a symbol refers to.")
    .opts(&[SYMBOL_ID, REPO])
    .agent(),
    command(
        "code repos",
        "code.list_repos",
        compact("each repository's path, files, symbols, when indexed and database file"),
    )
    .help("The indexed repositories.")
    .skip(&["within"]),
    command(
        "code delete",
        "code.delete_repos",
        compact("the repositories whose index was deleted, and those without one"),
    )
    .help("Delete the code index of repositories.")
    .opts(&[
        pos("paths", "DIR...")
            .nargs(Nargs::Any)
            .help("Repositories whose index to delete."),
        flag("all", &["--all"]).help("Delete every code index."),
    ])
    .skip(&["within"])
    .one_of(&["paths", "all"]),
    command("docs index", "docs.index", DOCS_INDEX_JSON)
        .help(
            "Index the project's docs by section, for the current git branch: README and \
             other top-level docs, doc/, docs/, {apps,packages}/*/docs/, each package's \
             README and docs directories (Markdown, reStructuredText), a Rust crate's \
             lib.rs guide, and the project's remembered globs.",
        )
        .opts(&[
            flag("globs", &["--glob"])
                .metavar("GLOB")
                .old("--path")
                .help(
                    "More files to index, relative to the project root (repeatable); \
                     remembered, so every later run indexes them too.",
                ),
            flag("forget", &["--forget"]).help(
                "Forget the remembered globs (those given with --glob, or all) and drop \
                 their files from the index.",
            ),
            project("project_dir", "The project, or any directory inside it"),
            LOCK_WAIT,
        ])
        .progress(Progress::Keeps),
    command("docs query", "docs.query", DOCS_QUERY_JSON)
        .help("Search the project's indexed docs (current branch by default). Never indexes.")
        .opts(&[
            QUERY.help("What to look for."),
            flag("branch", &["--branch"]).metavar("NAME"),
            DOCS_LIMIT,
            project("project_dir", "The project, or any directory inside it"),
            MODE,
        ])
        .excludes(&[("all_branches", "branch")]),
    command("notes index", "notes.index", DOCS_INDEX_JSON)
        .help("Index the project's session notes (sessions/**/*.md) by H2 section.")
        .opts(&[
            project("project_dir", "The project, or any directory inside it"),
            LOCK_WAIT,
        ])
        .progress(Progress::Keeps),
    command("notes query", "notes.query", DOCS_QUERY_JSON)
        .help("Search the project's indexed session notes. Never indexes.")
        .opts(&[
            QUERY.help("What to look for."),
            flag("after", &["--after"]).metavar("YYYY-MM-DD"),
            flag("file", &["--file"]).metavar("NAME"),
            DOCS_LIMIT,
            project("project_dir", "The project, or any directory inside it"),
            MODE,
        ]),
    command(
        "search",
        "sessions.search",
        plain(
            "every hit with its whole text, score, project, session and time, and the warnings \
             (the text output shows a snippet of each)",
        ),
    )
    .help(
        "Search Claude Code sessions (keyword + semantic, recent first). Indexes first when \
         there is no index yet.",
    )
    .opts(&[
        QUERY
            .nargs(Nargs::Optional)
            .help("What to look for, in your own words."),
        flag("project", &["--project"])
            .metavar("NAME")
            .old("-p")
            .help("Only projects whose path contains NAME (case-insensitive)."),
        flag("since", &["--since", "-s"])
            .metavar("WHEN")
            .help("Only from this time on: 2h, 1w, 30d, or a date (2026-01-01)."),
        flag("types", &["--type", "-t"])
            .metavar("TYPE")
            .commas()
            .help(
                "Only this content type: user, assistant, tool, thinking or summary (repeatable, \
             or comma-separated).",
            ),
        limit("Most results to list, 1 to 100 (default 5).").range(Some(1), Some(100)),
        MODE,
    ])
    .skip(&["now", "projects_dir", "within"])
    .progress(Progress::Keeps),
    command(
        "chunk",
        "sessions.chunk",
        plain("its whole text, the messages around it, its session and time"),
    )
    .help("View the full content of a chunk, with its context.")
    .opts(&[pos("id", "ID").help("A chunk id from `search` (any unique prefix).")])
    .skip(&["within"]),
    command(
        "index",
        "sessions.index",
        plain("sessions and chunks read, written and removed, and the warnings"),
    )
    .help("Build or update the session search index (new and grown sessions only).")
    .opts(&[flag("force", &["--force"]).help("Reindex all sessions.")])
    .skip(&["projects_dir"])
    .progress(Progress::Keeps),
    command(
        "status",
        "sessions.status",
        plain("counts by project and kind, size, model, last run"),
    )
    .help("Show the session index: sessions, chunks, projects, size, model, last indexed.")
    .skip(&["within"]),
    own_command(
        "ops",
        "List the operations `call` can run.",
        plain("each operation's name, summary and request and response JSON Schemas"),
    ),
    own_command(
        "call",
        "Run any operation by name and print its JSON result.",
        (
            Json::Always,
            "Print the result as JSON: compact, on one line, as without --json.",
        ),
    )
    .opts(&[
        own("op", &[], Own::Str)
            .metavar("OP")
            .help("Operation name (see `ops`)."),
        own("params", &[], Own::Str)
            .metavar("PARAMS_JSON")
            .nargs(Nargs::Optional)
            .stdin()
            .help("JSON object of parameters (default: none); `-` reads it from stdin."),
    ]),
    own_command(
        "mcp",
        "Run the MCP server on stdin/stdout (JSON-RPC, one message a line) until stdin ends. \
         By default it offers the agent's toolset: file names, contents (checkfor), symbols, \
         docs, notes and earlier sessions. For Claude Code: `cc-search install claude --mcp`.",
        NO_JSON,
    )
    .opts(&[
        own_project("The project: the first directory the tools may read"),
        own("roots", &["--root"], Own::Strs).metavar("DIR").help(
            "Another directory the tools may read (repeatable; without -C the first is the \
             project). The configured [index] roots are added.",
        ),
        own("tools", &["--tools"], Own::Strs)
            .metavar("LIST")
            .commas()
            .help(
                "The tools offered, comma-separated (repeatable): `default` (the agent's toolset), \
             `all`, a component (files, grep, code, docs, notes, sessions, embed) or a tool \
             name. Default: [mcp] tools of the config, else `default`.",
            ),
        own("max_tokens", &["--max-tokens"], Own::Int)
            .range(Some(1), None)
            .help(
                "An answer's token budget when a call gives none. Default: [mcp] max_tokens of \
                 the config, else 8000.",
            ),
        own("structured", &["--structured"], Own::OnOff).help(
            "Also offer outputSchema and answer with structuredContent (protocol 2025-06-18 \
             on). Default: [mcp] structured of the config, else off.",
        ),
    ]),
    own_command(
        "install claude",
        "Make Claude Code use cc-search for @ file suggestions, with a SessionStart hook that \
         refreshes the index (idempotent; one backup of the previous file is kept in the data \
         root, and --uninstall puts the file back as it was). The hooks run the native program \
         cc-search-hook: by absolute path for --user, from PATH for --project (the file is \
         shared). With --mcp, register cc-search's MCP server with Claude Code instead, as \
         `claude mcp add` does.",
        plain("the settings file, whether and what changed, the backup, and the warnings"),
    )
    .opts(&[
        own("user", &["--user"], Own::Flag).help(
            "Edit the user settings: $CLAUDE_CONFIG_DIR/settings.json (~/.claude/settings.json); \
             with --mcp, ~/.claude.json. The default.",
        ),
        own("project", &["--project"], Own::Flag).help(
            "Edit the project's .claude/settings.json, with commands every teammate can run \
             (`cc-search-hook …` from PATH); with --mcp, its .mcp.json (`cc-search mcp`).",
        ),
        own_project("The project whose settings to edit; implies --project"),
        own("hooks_dir", &["--hooks-dir"], Own::Str)
            .metavar("DIR")
            .help(
                "Use DIR/file-suggestion.sh and DIR/session-start.sh (the npm package's Bun \
                 hooks) instead of the native hook program.",
            ),
        own("hook_program", &["--hook-program"], Own::Str)
            .metavar("FILE")
            .help(
                "The native hook program to use (default: the cc-search-hook installed with \
                 this cc-search). Where it cannot run, this CLI's slower `hook` commands are \
                 written instead, with a warning.",
            ),
        own("mcp", &["--mcp"], Own::Flag).help(
            "Register cc-search's MCP server instead (only that, not the hooks): in \
             ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json) as this cc-search's absolute \
             path, or with --project in the project's .mcp.json as `cc-search mcp`.",
        ),
        own("uninstall", &["--uninstall"], Own::Flag)
            .help("Remove what an install added, and only that."),
    ])
    .excludes(&[
        ("user", "project"),
        ("user", "project_dir"),
        ("hooks_dir", "hook_program"),
    ]),
    own_command(
        "hook file-suggestion",
        "Claude Code's fileSuggestion command: reads {\"query\": \"...\"} on stdin and prints up \
         to 15 paths of the project, one a line; no input at all lists the top files. Never \
         fails: on an error (input that is not that JSON among them) stdout stays empty, one \
         line on stderr says why, the status is 0.",
        NO_JSON,
    )
    .opts(&[HOOK_PROJECT]),
    own_command(
        "hook session-start",
        "Claude Code's SessionStart hook: starts `cc-search files refresh` for the project's \
         session in the background, logging to <data root>/logs/session-start.log, and returns \
         at once. Reads and ignores the hook's JSON on stdin; prints nothing on stdout; the \
         status is always 0.",
        NO_JSON,
    )
    .opts(&[HOOK_PROJECT]),
];

const HOOK_PROJECT: Opt = own_project("The project");

/// The commands of the npm package's `cc-search` (`bin/cc-search.js`, for Node and Bun
/// users without Python), each with the options of [`COMMANDS`] it leaves out: the same
/// spellings, from the same table.
pub const NODE_COMMANDS: &[(&str, &[&str])] = &[
    // The npm package's fallback is its own Bun hooks, found in the package.
    ("install claude", &["hooks_dir"]),
    ("mcp", &[]),
];
