"""The ``cc-search`` command line.

Results go to stdout, warnings to stderr. An error prints one line on stderr and exits
with status 1; a usage error exits with status 2.
"""

# No `from __future__ import annotations` here: typer reads the parameters'
# annotations at run time, and older typer releases (the ones Python 3.9 gets) only
# understand real annotation objects.
import contextlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Annotated, Any, Callable, List, Literal, NoReturn, Optional, Tuple

import typer

from . import CcSearchWarning, Engine, Error

PROG = "cc-search"


class _App(typer.Typer):
    """A Typer app that reports cc-search errors as one line instead of a traceback."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except Error as e:
            _report("error", str(e))
            sys.exit(1)


# Rich help and error boxes on a terminal; plain text for pipes, logs and scripts.
_MARKUP: Optional[Literal["rich"]] = "rich" if sys.stdout.isatty() and sys.stderr.isatty() else None

app = _App(
    name=PROG,
    rich_markup_mode=_MARKUP,
    help="Embedded search for coding agents: files, grep, code, docs and sessions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
files_app = typer.Typer(
    help="File paths ranked for the @ picker.",
    rich_markup_mode=_MARKUP,
    no_args_is_help=True,
)
app.add_typer(files_app, name="files")
install_app = typer.Typer(
    help="Set cc-search up in other tools.",
    rich_markup_mode=_MARKUP,
    no_args_is_help=True,
)
app.add_typer(install_app, name="install")
hook_app = typer.Typer(
    help="Commands Claude Code runs, set up by `install claude`; they never fail.",
    rich_markup_mode=_MARKUP,
    no_args_is_help=True,
)
app.add_typer(hook_app, name="hook")
code_app = typer.Typer(
    help="Code symbols (tree-sitter): index a repository, search and navigate its symbols.",
    rich_markup_mode=_MARKUP,
    no_args_is_help=True,
)
app.add_typer(code_app, name="code")
docs_app = typer.Typer(
    help="Markdown docs by H2 section: index the project's docs, search them (keyword + semantic).",
    rich_markup_mode=_MARKUP,
    no_args_is_help=True,
)
app.add_typer(docs_app, name="docs")
notes_app = typer.Typer(
    help="Session notes (sessions/YYYY_MM_DD_TOPIC/*.md) by H2 section: index, search.",
    rich_markup_mode=_MARKUP,
    no_args_is_help=True,
)
app.add_typer(notes_app, name="notes")


class _Options:
    def __init__(self, home: Optional[str], config: Optional[str]) -> None:
        self.home = home
        self.config = config


def _report(kind: str, message: str) -> None:
    """One line on stderr: ``cc-search: error: ...``, coloured on a terminal."""
    message = " ".join(message.split("\n"))
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.markup import escape

        style = "bold red" if kind == "error" else "yellow"
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"{PROG}: [{style}]{kind}:[/] {escape(message)}"
        )
    else:
        sys.stderr.write(f"{PROG}: {kind}: {message}\n")
        sys.stderr.flush()


def _fail(message: str) -> NoReturn:
    """Report an error as one line on stderr and exit with status 1."""
    _report("error", message)
    raise typer.Exit(1)


def _warn_all(messages: List[str]) -> None:
    for message in messages:
        _report("warning", message)


def _open(ctx: typer.Context) -> Engine:
    engine, messages = _open_quietly(ctx)
    _warn_all(messages)
    return engine


def _open_quietly(ctx: typer.Context) -> Tuple[Engine, List[str]]:
    """The engine, and the warnings of opening it (not shown)."""
    options = ctx.find_object(_Options)
    home = options.home if options else None
    config = options.config if options else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CcSearchWarning)
        engine = Engine(home, config)
    return engine, [str(w.message) for w in caught]


def _print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")


def _version(value: bool) -> None:
    if value:
        from . import __version__

        sys.stdout.write(f"{PROG} {__version__}\n")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    home: Annotated[
        Optional[str],
        typer.Option(
            "--home",
            metavar="PATH",
            help="Data root; defaults to $CC_SEARCH_HOME, else $XDG_DATA_HOME/cc-search.",
            show_default=False,
        ),
    ] = None,
    config: Annotated[
        Optional[str],
        typer.Option(
            "--config",
            metavar="PATH",
            help="Configuration file; defaults to config.toml in the data root.",
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Embedded search for coding agents: files, grep, code, docs and sessions."""
    ctx.obj = _Options(home, config)


@files_app.command("refresh")
def files_refresh(
    ctx: typer.Context,
    directory: Annotated[
        Optional[str],
        typer.Argument(
            metavar="[DIR]",
            help="Directory to index. Without it: the project, the configured [index] roots "
            "and the project's additional directories.",
            show_default=False,
        ),
    ] = None,
    project_dir: Annotated[
        Optional[str],
        typer.Option(
            "--project-dir",
            metavar="D",
            help="The project refreshed without DIR (default $CLAUDE_PROJECT_DIR, else the "
            "current directory).",
        ),
    ] = None,
    max_depth: Annotated[
        Optional[int],
        typer.Option("--max-depth", metavar="N", help="Deepest level below DIR to index."),
    ] = None,
    exclude: Annotated[
        Optional[List[str]],
        typer.Option(
            "--exclude",
            metavar="PAT",
            help="Gitignore-style pattern to leave out (repeatable).",
        ),
    ] = None,
    max_files: Annotated[
        Optional[int],
        typer.Option("--max-files", metavar="N", help="Stop after this many files."),
    ] = None,
    full: Annotated[
        bool,
        typer.Option(
            "--full",
            help="Walk every root in full, even where directory mtimes and git tell what "
            "changed since the last refresh.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON result.")] = False,
) -> None:
    """Index the file paths under DIR, or the project's session roots (incremental)."""
    with _open(ctx) as engine:
        result = engine.files_refresh(
            directory,
            project_dir=project_dir,
            max_depth=max_depth,
            exclude=exclude,
            max_files=max_files,
            full=full,
        )
    if as_json:
        _print_json(result)
        return
    _warn_all(result["warnings"])
    for root in result["roots"]:
        note = " (truncated at the file limit)" if root["truncated"] else ""
        sys.stdout.write(
            f"{root['root']}: {root['files']} files indexed{note}; "
            f"{root['added']} added, {root['updated']} updated, "
            f"{root['removed']} removed\n"
        )


def _query_text(query: str) -> str:
    # Arguments that were not valid UTF-8 arrive with surrogate escapes; a picker query
    # never fails, so such bytes become U+FFFD.
    return query.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


@files_app.command("suggest")
def files_suggest(
    ctx: typer.Context,
    query: Annotated[
        str,
        typer.Argument(
            metavar="[QUERY]",
            help="What was typed after @; empty lists the recent files.",
            show_default=False,
        ),
    ] = "",
    project_dir: Annotated[
        Optional[str],
        typer.Option(
            "--project-dir",
            metavar="D",
            help="Project root; defaults to $CLAUDE_PROJECT_DIR, else the current directory.",
            show_default=False,
        ),
    ] = None,
    limit: Annotated[
        Optional[int],
        typer.Option("--limit", metavar="N", help="Most paths to print, 1 to 15 (default 15)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON result.")] = False,
) -> None:
    """Print the best paths for QUERY, one a line, relative to the project."""
    with _open(ctx) as engine:
        result = engine.files_suggest(_query_text(query), project_dir=project_dir, limit=limit)
    if as_json:
        _print_json(result)
        return
    _warn_all(result["warnings"])
    if result["paths"]:
        sys.stdout.write("\n".join(result["paths"]) + "\n")


def _comma_list(value: Optional[str]) -> Optional[List[str]]:
    """``"a, b,"`` as ``["a", "b"]`` (None when nothing is left)."""
    if value is None:
        return None
    items = [item.strip() for item in value.split(",")]
    return [item for item in items if item] or None


@app.command("grep")
def grep(
    ctx: typer.Context,
    search: Annotated[
        str,
        typer.Option(
            "--search",
            metavar="S",
            help="Text to search for: a literal substring, or a regular expression with --regex.",
            show_default=False,
        ),
    ],
    dirs: Annotated[
        Optional[str],
        typer.Option(
            "--dir",
            metavar="A,B",
            help="Comma-separated directories, searched and reported in this order "
            "(default: $CLAUDE_PROJECT_DIR, else the current directory).",
            show_default=False,
        ),
    ] = None,
    ext: Annotated[
        Optional[str],
        typer.Option("--ext", metavar="EXT", help="Only files with this extension (.go)."),
    ] = None,
    exclude: Annotated[
        Optional[str],
        typer.Option(
            "--exclude",
            metavar="X,Y",
            help="Comma-separated strings; matching lines containing any are dropped "
            "(and counted).",
        ),
    ] = None,
    case_insensitive: Annotated[
        bool,
        typer.Option("--case-insensitive", help="Ignore case in the search and exclude strings."),
    ] = False,
    whole_word: Annotated[
        bool,
        typer.Option("--whole-word", help="Match whole words only (ASCII letters, digits, _)."),
    ] = False,
    context: Annotated[
        int,
        typer.Option("--context", metavar="N", min=0, help="Lines of context around each match."),
    ] = 0,
    hide_filter_stats: Annotated[
        bool,
        typer.Option(
            "--hide-filter-stats", help="Leave original_matches and filtered_matches out."
        ),
    ] = False,
    recursive: Annotated[
        bool,
        typer.Option(
            "--recursive",
            help="Search subdirectories too, following .gitignore and the default excludes.",
        ),
    ] = False,
    regex: Annotated[
        bool, typer.Option("--regex", help="The search text is a regular expression.")
    ] = False,
    max_matches: Annotated[
        Optional[int],
        typer.Option("--max-matches", metavar="N", min=1, help="List at most N matches."),
    ] = None,
    max_tokens: Annotated[
        Optional[int],
        typer.Option(
            "--max-tokens",
            metavar="N",
            min=1,
            help="Keep the JSON within about N tokens (context dropped first, then long "
            "lines shortened, then the last matches).",
        ),
    ] = None,
) -> None:
    """Search file contents (checkfor's flags) and print compact JSON on one line.

    Finding nothing is not an error (status 0). Unreadable files are warnings on stderr;
    a directory that cannot be read is reported in the JSON and on stderr, and the
    status is then 1.
    """
    with _open(ctx) as engine:
        result = engine.grep(
            _query_text(search),
            _comma_list(dirs),
            ext=ext,
            exclude=_comma_list(exclude),
            case_insensitive=case_insensitive,
            whole_word=whole_word,
            context=context,
            hide_filter_stats=hide_filter_stats,
            recursive=recursive,
            regex=regex,
            max_matches=max_matches,
            max_tokens=max_tokens,
        )
    _warn_all(result.pop("warnings", []))
    failed = [d for d in result["directories"] if "error" in d]
    for directory in failed:
        _report("error", f"{directory['dir']}: {directory.get('error', '')}")
    sys.stdout.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")
    if failed:
        raise typer.Exit(1)


# ── code: the tree-sitter symbol index ──

_RepoOption = Annotated[
    Optional[Path],
    typer.Option(
        "--path",
        "-p",
        metavar="DIR",
        help="Repository root (default: $CLAUDE_PROJECT_DIR, else the current directory).",
        show_default=False,
    ),
]
_MaxTokensOption = Annotated[
    Optional[int],
    typer.Option("--max-tokens", metavar="N", min=1, help="Keep the JSON within about N tokens."),
]


def _code_print(result: Any) -> None:
    """Warnings on stderr, the compact JSON on one line."""
    if isinstance(result, dict):
        _warn_all(result.pop("warnings", []))
    sys.stdout.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")


@code_app.command("index")
def code_index(
    ctx: typer.Context,
    path: _RepoOption = None,
    force: Annotated[bool, typer.Option("--force", help="Re-parse every file.")] = False,
) -> None:
    """Index (or bring up to date) a repository's symbols; only changed files are parsed."""
    with _open(ctx) as engine:
        _code_print(engine.code_index(path, force=force))


@code_app.command("update")
def code_update(
    ctx: typer.Context,
    files: Annotated[List[Path], typer.Argument(metavar="FILE...", help="Files to re-index.")],
    path: _RepoOption = None,
) -> None:
    """Re-index the given files only (deleted ones are removed), without a walk."""
    with _open(ctx) as engine:
        _code_print(engine.code_update(files, path=path))


@code_app.command("status")
def code_status(ctx: typer.Context, path: _RepoOption = None) -> None:
    """What the index holds and which files changed since."""
    with _open(ctx) as engine:
        _code_print(engine.code_status(path))


@code_app.command("overview")
def code_overview(ctx: typer.Context, path: _RepoOption = None, max_tokens: _MaxTokensOption = None) -> None:
    """Languages, directories, most referenced types, entry points."""
    with _open(ctx) as engine:
        _code_print(engine.code_overview(path, max_tokens=max_tokens))


@code_app.command("symbols")
def code_symbols(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help="File, relative to the repository.")],
    path: _RepoOption = None,
    max_tokens: _MaxTokensOption = None,
) -> None:
    """The symbols of one file, as a tree."""
    with _open(ctx) as engine:
        _code_print(engine.code_file_symbols(file, path=path, max_tokens=max_tokens))


@code_app.command("search")
def code_search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="Words, prefix*, AND/OR/NOT.")],
    path: _RepoOption = None,
    kind: Annotated[
        Optional[str], typer.Option("--kind", "-k", metavar="KIND", help="Only this kind (fn, class, ...).")
    ] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", "-n", metavar="N", min=1, help="Most results.")] = None,
    max_tokens: _MaxTokensOption = None,
) -> None:
    """Search symbols by name, subword, doc comment, kind or path."""
    with _open(ctx) as engine:
        _code_print(engine.code_search(query, path=path, kind=kind, limit=limit, max_tokens=max_tokens))


@code_app.command("detail")
def code_detail(
    ctx: typer.Context,
    id: Annotated[int, typer.Argument(metavar="ID", help="Symbol id.")],  # noqa: A002
    path: _RepoOption = None,
    max_tokens: _MaxTokensOption = None,
) -> None:
    """One symbol in full: signature, doc, parent, children, calls, callers."""
    with _open(ctx) as engine:
        _code_print(engine.code_symbol(id, path=path, max_tokens=max_tokens))


@code_app.command("refs")
def code_refs(
    ctx: typer.Context,
    id: Annotated[int, typer.Argument(metavar="ID", help="Symbol id.")],  # noqa: A002
    path: _RepoOption = None,
    max_tokens: _MaxTokensOption = None,
) -> None:
    """Who refers to a symbol."""
    with _open(ctx) as engine:
        _code_print(engine.code_references(id, path=path, max_tokens=max_tokens))


@code_app.command("deps")
def code_deps(
    ctx: typer.Context,
    id: Annotated[int, typer.Argument(metavar="ID", help="Symbol id.")],  # noqa: A002
    path: _RepoOption = None,
    max_tokens: _MaxTokensOption = None,
) -> None:
    """What a symbol refers to."""
    with _open(ctx) as engine:
        _code_print(engine.code_dependencies(id, path=path, max_tokens=max_tokens))


@code_app.command("repos")
def code_repos(ctx: typer.Context) -> None:
    """The indexed repositories."""
    with _open(ctx) as engine:
        _code_print({"repos": engine.code_repos()})


@code_app.command("delete")
def code_delete(
    ctx: typer.Context,
    paths: Annotated[
        Optional[List[Path]], typer.Argument(metavar="DIR...", help="Repositories whose index to delete.")
    ] = None,
    all_repos: Annotated[bool, typer.Option("--all", help="Delete every code index.")] = False,
) -> None:
    """Delete the code index of repositories."""
    if not paths and not all_repos:
        _fail("give repository paths, or --all")
    with _open(ctx) as engine:
        _code_print(engine.code_delete(paths, all=all_repos))


# ── docs and notes ──

_RULE = "─" * 49
_SNIPPET_CHARS = 400

_ProjectDirOption = Annotated[
    Optional[Path],
    typer.Option(
        "--project-dir",
        metavar="DIR",
        help="A directory of the project (default: $CLAUDE_PROJECT_DIR, else the current directory).",
        show_default=False,
    ),
]
_LimitOption = Annotated[int, typer.Option("--limit", "-n", min=1, max=100, help="Number of results.")]
_JsonOption = Annotated[bool, typer.Option("--json", help="JSON output with the full content.")]
_LockWaitOption = Annotated[
    Optional[int],
    typer.Option(
        "--lock-wait",
        metavar="SECONDS",
        min=0,
        help="Seconds to wait for another index run's lock before giving up (default 30).",
        show_default=False,
    ),
]
_ModeOption = Annotated[
    str,
    typer.Option(
        "--mode",
        metavar="MODE",
        help="hybrid (keyword + semantic; keyword-only without a model), keyword or vector.",
    ),
]


def _colour() -> bool:
    """Colour only on a terminal, and never with NO_COLOR set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _cut(text: str, limit: int) -> Tuple[str, int]:
    """``text`` cut at a word boundary near ``limit`` characters, and how many are left."""
    if len(text) <= limit:
        return text, 0
    cut = text.rfind(" ", 0, limit)
    cut = cut if cut > limit // 2 else limit
    return text[:cut].rstrip(), len(text) - cut


def _snippet(content: str) -> Tuple[str, int]:
    """The first lines of a section below its heading, and how many characters are left."""
    lines = content.split("\n")
    if lines and lines[0].lstrip().startswith("#"):
        lines = lines[1:]
    return _cut("\n".join(lines).strip(), _SNIPPET_CHARS)


class _Printer:
    """Lines on stdout, styled with rich markup when colour is on (see `_colour`)."""

    def __init__(self) -> None:
        self.colour = _colour()
        if self.colour:
            from rich.console import Console

            self._console = Console(highlight=False, soft_wrap=True)

    def styled(self, text: str, style: str) -> str:
        if not self.colour:
            return text
        from rich.markup import escape

        return f"[{style}]{escape(text)}[/]"

    def out(self, line: str = "") -> None:
        if self.colour:
            self._console.print(line)
        else:
            sys.stdout.write(line + "\n")

    def footer(self, count: int, millis: int) -> None:
        """The rule and ``Found N results in X.XXs``."""
        self.out(_RULE)
        noun = "result" if count == 1 else "results"
        self.out(f"Found {count} {noun} in {millis / 1000:.2f}s")


def _print_docs_results(result: Any, notes: bool) -> None:
    """Results the way `cc-search search` shows sessions: rank, where, score, snippet."""
    hits = result["results"]
    top = hits[0]["score"] if hits and hits[0]["score"] > 0 else 1.0
    p = _Printer()
    for hit in hits:
        where = hit["project"]
        if notes:
            if hit.get("session_date"):
                where += f" | {hit['session_date']}"
        elif hit["branch"]:
            where += " @ " + ", ".join([hit["branch"], *hit["also_on"]])
        percent = round(100 * hit["score"] / top)
        p.out(
            p.styled(f"[{hit['rank']}]", "bold cyan") + " " + p.styled(hit["file"], "green")
            + " § " + p.styled(hit["section"], "bold") + " | Project: " + p.styled(where, "green")
            + " | " + p.styled(f"{percent}%", "dim")
        )
        p.out()
        text, more = _snippet(hit["content"])
        for line in text.split("\n"):
            p.out("  " + p.styled(line, "default"))
        if more:
            p.out("  " + p.styled(f"[truncated - {more} more chars]", "dim"))
        p.out()
    if not hits:
        p.out("No results.")
        p.out()
    p.footer(len(hits), result["search_time_ms"])


def _print_index(result: Any, what: str) -> None:
    _warn_all(result["warnings"])
    branch = f" @ {result['branch']}" if result["branch"] else ""
    sys.stdout.write(
        f"{what}: {result['project']}{branch}: {result['files']} files "
        f"({result['indexed']} indexed, {result['unchanged']} unchanged, "
        f"{result['touched']} touched, {result['removed']} removed), "
        f"{result['sections_written']} sections written, {result['sections_removed']} removed, "
        f"{result['embedded']} embedded"
        + (f", {result['pending_vectors']} waiting for the model" if result["pending_vectors"] else "")
        + "\n"
    )


@docs_app.command("index")
def docs_index(
    ctx: typer.Context,
    paths: Annotated[
        Optional[List[str]],
        typer.Option(
            "--path",
            metavar="GLOB",
            help="Markdown files to index, relative to the project root (repeatable; default "
            "docs/**/*.md and {apps,packages}/*/docs/**/*.md).",
            show_default=False,
        ),
    ] = None,
    project_dir: _ProjectDirOption = None,
    lock_wait: _LockWaitOption = None,
    json_output: _JsonOption = False,
) -> None:
    """Index the project's markdown docs by H2 section, for the current git branch."""
    with _open(ctx) as engine:
        result = engine.docs_index(project_dir, globs=paths or None, lock_wait_secs=lock_wait)
    if json_output:
        _warn_all(result["warnings"])
        _print_json(result)
    else:
        _print_index(result, "docs")


@docs_app.command("query")
def docs_query(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help="What to look for.")],
    all_branches: Annotated[
        bool, typer.Option("--all-branches", help="Search every indexed branch of the project.")
    ] = False,
    branch: Annotated[
        Optional[str],
        typer.Option("--branch", metavar="B", help="Search branch B instead of the current one."),
    ] = None,
    limit: _LimitOption = 10,
    project_dir: _ProjectDirOption = None,
    mode: _ModeOption = "hybrid",
    json_output: _JsonOption = False,
) -> None:
    """Search the project's indexed docs (current branch by default). Never indexes."""
    if not query.strip():
        _fail("Query required")
    if all_branches and branch:
        _fail("--all-branches and --branch exclude each other")
    with _open(ctx) as engine:
        result = engine.docs_query(
            query, project_dir=project_dir, all_branches=all_branches, branch=branch,
            limit=limit, mode=mode,
        )
    _warn_all(result["warnings"])
    if json_output:
        _print_json(result)
    else:
        _print_docs_results(result, notes=False)


@notes_app.command("index")
def notes_index(
    ctx: typer.Context,
    project_dir: _ProjectDirOption = None,
    lock_wait: _LockWaitOption = None,
    json_output: _JsonOption = False,
) -> None:
    """Index the project's session notes (sessions/**/*.md) by H2 section."""
    with _open(ctx) as engine:
        result = engine.notes_index(project_dir, lock_wait_secs=lock_wait)
    if json_output:
        _warn_all(result["warnings"])
        _print_json(result)
    else:
        _print_index(result, "notes")


@notes_app.command("query")
def notes_query(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help="What to look for.")],
    after: Annotated[
        Optional[str],
        typer.Option("--after", metavar="YYYY-MM-DD", help="Only sessions on or after this date."),
    ] = None,
    file: Annotated[
        Optional[str],
        typer.Option("--file", metavar="NAME", help="Only files with this base name (IMPLEMENTATION)."),
    ] = None,
    limit: _LimitOption = 10,
    project_dir: _ProjectDirOption = None,
    mode: _ModeOption = "hybrid",
    json_output: _JsonOption = False,
) -> None:
    """Search the project's indexed session notes. Never indexes."""
    if not query.strip():
        _fail("Query required")
    with _open(ctx) as engine:
        result = engine.notes_query(
            query, project_dir=project_dir, after=after, file=file, limit=limit, mode=mode
        )
    _warn_all(result["warnings"])
    if json_output:
        _print_json(result)
    else:
        _print_docs_results(result, notes=True)


# ── sessions: Claude Code transcripts (spec: `search`, `chunk`, `index`, `status`) ──

#: Characters of each context message shown before `[truncated - N more chars]`.
_MESSAGE_CHARS = 300
_ROLE_LABELS = {
    "user": ("You:", "cyan"),
    "assistant": ("Claude:", "green"),
    "summary": ("Summary:", "magenta"),
}
#: Hits whose text is not among their context messages get it shown under this label.
_KIND_LABELS = {"tool": "Tool:", "thinking": "Thinking:"}
_STAGES = {"parse": "Parsing transcripts", "embed": "Embedding chunks"}


class _ProgressBar:
    """A one-line progress bar on stderr, redrawn in place; only on a terminal.

    Drawn with a carriage return, never hiding the cursor, so an interrupted run leaves
    the terminal as it was."""

    WIDTH = 30

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self._drawn = False
        self._last = (0.0, "", -1)

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        # At most ~20 redraws a second, but always the last step of a stage.
        if (stage, done) != self._last[1:] and (done >= total or now - self._last[0] >= 0.05):
            self._last = (now, stage, done)
            filled = self.WIDTH * done // total if total else self.WIDTH
            percent = 100 * done // total if total else 100
            label = _STAGES.get(stage, stage)
            bar = "█" * filled + "░" * (self.WIDTH - filled)
            sys.stderr.write(f"\r{label:<20} {bar} {done}/{total} {percent:3d}%\x1b[K")
            sys.stderr.flush()
            self._drawn = True

    def callback(self) -> Optional["_ProgressBar"]:
        return self if self.enabled else None

    def clear(self) -> None:
        if self._drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self._drawn = False


@contextlib.contextmanager
def _progress_bar() -> Any:
    """A progress bar for the duration of the block. Ctrl-C ends the process at once:
    the core cannot be interrupted between its reports, and its writes are transactions,
    so what was committed stays and the next run picks up the rest."""
    import signal

    bar = _ProgressBar()
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        yield bar.callback()
    finally:
        signal.signal(signal.SIGINT, previous)
        bar.clear()


def _project_name(project: str) -> str:
    """The last component of a project path (`/home/me/src/myapp` → `myapp`)."""
    trimmed = project.rstrip("/\\")
    return os.path.basename(trimmed) or project


def _print_message(p: _Printer, label: str, style: str, content: str) -> None:
    text, more = _cut(" ".join(content.split()) if "\n" not in content else content.strip(),
                      _MESSAGE_CHARS)
    lines = [line.rstrip() for line in text.split("\n")]
    p.out("  " + p.styled(label, style) + " " + p.styled(lines[0], "default"))
    for previous, line in zip(lines, lines[1:]):
        if line or previous:  # one blank line at most
            p.out(("  " + p.styled(line, "default")) if line else "")
    if more:
        p.out("  " + p.styled(f"[truncated - {more} more chars]", "dim"))
    p.out()


def _print_session_results(result: Any) -> None:
    """Spec §6: rank, project, age and score; the context; the chunk command; the footer."""
    hits = result["results"]
    top = hits[0]["score"] if hits and hits[0]["score"] > 0 else 1.0
    p = _Printer()
    if result.get("note"):
        p.out(p.styled(result["note"], "yellow"))
        p.out()
    for hit in hits:
        percent = round(100 * hit["score"] / top)
        p.out(
            p.styled(f"[{hit['rank']}]", "bold cyan") + " Project: "
            + p.styled(_project_name(hit["project"]), "green") + " | "
            + p.styled(hit["age"], "dim") + " | " + p.styled(f"{percent}%", "dim")
        )
        p.out()
        for message in hit["messages"]:
            label, style = _ROLE_LABELS.get(message["role"], (message["role"] + ":", "bold"))
            _print_message(p, label, style, message["content"])
        if hit["kind"] in _KIND_LABELS:
            _print_message(
                p, _KIND_LABELS[hit["kind"]], "yellow", hit["matched_window"] or hit["content"]
            )
        p.out("  " + p.styled(f"→ {PROG} chunk {hit['id']}", "dim"))
        p.out()
    if not hits:
        p.out("No results.")
        p.out()
    p.footer(len(hits), result["search_time_ms"])


def _split_types(values: Optional[List[str]]) -> Optional[List[str]]:
    """`-t user -t tool` and `-t user,tool` alike."""
    if not values:
        return None
    return [t.strip() for value in values for t in value.split(",") if t.strip()]


@app.command("search")
def sessions_search(
    ctx: typer.Context,
    query: Annotated[
        str, typer.Argument(help="What to look for, in your own words.", show_default=False)
    ] = "",
    project: Annotated[
        Optional[str],
        typer.Option(
            "--project", "-p", metavar="TEXT",
            help="Only projects whose path contains TEXT (case-insensitive).",
            show_default=False,
        ),
    ] = None,
    since: Annotated[
        Optional[str],
        typer.Option(
            "--since", "-s", metavar="WHEN",
            help="Only from this time on: 2h, 1w, 30d, or a date (2026-01-01).",
            show_default=False,
        ),
    ] = None,
    types: Annotated[
        Optional[List[str]],
        typer.Option(
            "--type", "-t", metavar="TYPE",
            help="Only this content type: user, assistant, tool, thinking or summary "
            "(repeatable, or comma-separated).",
            show_default=False,
        ),
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, max=100, help="Number of results.")
    ] = 5,
    mode: _ModeOption = "hybrid",
    json_output: _JsonOption = False,
) -> None:
    """Search Claude Code sessions (keyword + semantic, recent first). Indexes first when
    there is no index yet."""
    if not query.strip():
        _fail("Query required")
    with _open(ctx) as engine, _progress_bar() as progress:
        result = engine.sessions_search(
            query, project=project, since=since, types=_split_types(types), limit=limit,
            mode=mode, progress=progress,
        )
    _warn_all(result["warnings"])
    if json_output:
        _print_json(result)
    else:
        _print_session_results(result)


@app.command("chunk")
def sessions_chunk(
    ctx: typer.Context,
    id: Annotated[  # noqa: A002
        str, typer.Argument(metavar="ID", help="A chunk id from `search` (any unique prefix).")
    ],
    json_output: _JsonOption = False,
) -> None:
    """View the full content of a chunk, with its context."""
    with _open(ctx) as engine:
        result = engine.sessions_chunk(id)
    if json_output:
        _print_json(result)
        return
    p = _Printer()
    p.out(
        p.styled(result["id"], "bold cyan") + " " + p.styled(result["kind"], "bold")
        + " | Project: " + p.styled(_project_name(result["project"]), "green") + " | "
        + p.styled(result["timestamp"], "dim")
    )
    p.out(p.styled(f"Session: {result['session_id']}  ({result['session_path']})", "dim"))
    p.out()
    for line in result["content"].split("\n"):
        p.out(p.styled(line, "default"))
    others = [part for part in result["group"] if part["id"] != result["id"]]
    if others:
        p.out()
        p.out(p.styled("Same prompt:", "dim"))
        for part in others:
            p.out(p.styled(f"  {part['kind']:<9} {part['chars']:>7} chars  → {PROG} chunk "
                           f"{part['id']}", "dim"))


def _size(n: int) -> str:
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"  # pragma: no cover


@app.command("index")
def sessions_index(
    ctx: typer.Context,
    force: Annotated[bool, typer.Option("--force", help="Reindex all sessions.")] = False,
    json_output: _JsonOption = False,
) -> None:
    """Build or update the session search index (new and grown sessions only)."""
    with _open(ctx) as engine, _progress_bar() as progress:
        result = engine.sessions_index(force=force, progress=progress)
    _warn_all(result["warnings"])
    if json_output:
        _print_json(result)
        return
    subagents = f" and {result['subagents']} subagent transcripts" if result["subagents"] else ""
    sys.stdout.write(
        f"Indexed {result['sessions']} sessions{subagents} from {result['projects_dir']}: "
        f"{result['parsed']} parsed, {result['grown']} grown, {result['unchanged']} unchanged, "
        f"{result['removed']} removed; {result['chunks']} chunks "
        f"({result['chunks_written']} written, {result['chunks_removed']} removed), "
        f"{result['embedded']} embedded"
        + (f", {result['pending_vectors']} waiting for the model" if result["pending_vectors"] else "")
        + "\n"
    )


@app.command("status")
def sessions_status(ctx: typer.Context, json_output: _JsonOption = False) -> None:
    """Show the session index: sessions, chunks, projects, size, model, last indexed."""
    with _open(ctx) as engine:
        result = engine.sessions_status()
    _warn_all(result["warnings"])
    if json_output:
        _print_json(result)
        return
    p = _Printer()

    def row(name: str, value: str) -> None:
        p.out(p.styled(f"{name + ':':<14}", "bold") + value)

    kinds = ", ".join(f"{kind} {n}" for kind, n in result["chunks_by_kind"].items() if n)
    subagents = f" (+ {result['subagents']} subagent transcripts)" if result["subagents"] else ""
    row("Sessions", f"{result['sessions']}{subagents}")
    row("Chunks", f"{result['chunks']}" + (f" ({kinds})" if kinds else ""))
    row("Projects", str(len(result["projects"])))
    for project in result["projects"]:
        p.out(f"  {project['sessions']:>6}  " + p.styled(project["project"], "green"))
    row("Index", f"{result['db_path']} ({_size(result['index_bytes'])})")
    pending = result["pending_vectors"]
    row("Model", result["model"] + (f" ({pending} chunks waiting for vectors)" if pending else ""))
    row("Last indexed", result["last_indexed"] or "never")
    if result["projects_dir"]:
        row("Transcripts", result["projects_dir"])


@app.command("ops")
def ops(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print names, summaries and JSON Schemas.")
    ] = False,
) -> None:
    """List the operations `call` can run."""
    from . import operations

    table = operations()
    if as_json:
        _print_json(table)
        return
    width = max((len(op["name"]) for op in table), default=0)
    for op in table:
        sys.stdout.write(f"{op['name']:<{width}}  {op['summary']}\n")


@app.command("call")
def call(
    ctx: typer.Context,
    op: Annotated[str, typer.Argument(metavar="OP", help="Operation name (see `ops`).")],
    params: Annotated[
        str,
        typer.Argument(
            metavar="[PARAMS_JSON]",
            help="JSON object of parameters (default: none); `-` reads it from stdin.",
            show_default=False,
        ),
    ] = "",
) -> None:
    """Run any operation by name and print its JSON result."""
    if params == "-":
        params = sys.stdin.read()
    with _open(ctx) as engine:
        sys.stdout.write(engine.call_json(op, params) + "\n")


@app.command("mcp")
def mcp(
    ctx: typer.Context,
    roots: Annotated[
        Optional[List[str]],
        typer.Option(
            "--root",
            metavar="DIR",
            help="A directory the tools may read (repeatable; the first is the project). "
            "Default: $CLAUDE_PROJECT_DIR, else the current directory. The configured "
            "[index] roots are added.",
            show_default=False,
        ),
    ] = None,
    tools: Annotated[
        Optional[List[str]],
        typer.Option(
            "--tools",
            metavar="LIST",
            help="The tools offered, comma-separated (repeatable): `default` (the agent's "
            "toolset), `all`, a component (files, grep, code, docs, notes, sessions, embed) "
            "or a tool name. Default: [mcp] tools of the config, else `default`.",
            show_default=False,
        ),
    ] = None,
    max_tokens: Annotated[
        Optional[int],
        typer.Option(
            "--max-tokens",
            metavar="N",
            min=1,
            help="An answer's token budget when a call gives none. Default: [mcp] "
            "max_tokens of the config, else 8000.",
            show_default=False,
        ),
    ] = None,
    structured: Annotated[
        Optional[bool],
        typer.Option(
            "--structured/--no-structured",
            help="Also offer outputSchema and answer with structuredContent (protocol "
            "2025-06-18 on). Default: [mcp] structured of the config, else off.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run the MCP server on stdin/stdout (JSON-RPC, one message a line) until stdin
    ends. By default it offers the agent's toolset: file names, contents (checkfor),
    symbols, docs, notes and earlier sessions. For Claude Code:
    `cc-search install claude --mcp`."""
    import signal

    from . import _native

    # The loop runs in Rust without the GIL: Ctrl-C ends the process rather than waiting
    # for Python to see it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    given = [os.path.abspath(os.path.expanduser(root)) for root in roots or []]
    with _open(ctx) as engine:
        selectors = [t.strip() for item in tools or [] for t in item.split(",") if t.strip()]
        server = _native.McpServer(
            engine._native,
            given or None,
            tools=selectors or None,
            max_tokens=max_tokens,
            structured=structured,
        )
        _warn_all(server.warnings)
        sys.stdout.flush()
        server.serve_stdio()


# --- install claude ---------------------------------------------------------------------

#: The hook scripts of the npm package, looked for in `--hooks-dir`.
HOOK_SCRIPTS = ("file-suggestion.sh", "session-start.sh")


def _self_argv(ctx: typer.Context) -> List[str]:
    """The command line that runs this cc-search again from anywhere: the absolute path
    of this entry point (else the one beside this interpreter, else ``python -m
    cc_search``), with the ``--home`` and ``--config`` given to this run, made absolute."""
    argv: List[str] = []
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0).startswith(PROG):
        found = argv0 if os.sep in argv0 else shutil.which(argv0)
        if found and os.path.isfile(found):
            argv = [os.path.abspath(found)]
    if not argv:
        beside = shutil.which(PROG, path=os.path.dirname(sys.executable))
        if beside:
            argv = [os.path.abspath(beside)]
        else:
            argv = [os.path.abspath(sys.executable), "-m", "cc_search"]
    options = ctx.find_object(_Options)
    if options is not None and options.home:
        argv += ["--home", os.path.abspath(os.path.expanduser(options.home))]
    if options is not None and options.config:
        argv += ["--config", os.path.abspath(os.path.expanduser(options.config))]
    return argv


def _shell_command(argv: List[str]) -> str:
    return " ".join(shlex.quote(arg) for arg in argv)


def _hook_scripts(hooks_dir: str) -> List[str]:
    """The hook scripts in `hooks_dir` as shell commands; an error when one is missing."""
    directory = os.path.abspath(os.path.expanduser(hooks_dir))
    commands = []
    for name in HOOK_SCRIPTS:
        script = os.path.join(directory, name)
        if not os.path.isfile(script):
            _fail(f"--hooks-dir: there is no {name} in {directory}")
        if not os.access(script, os.X_OK):
            _fail(f"--hooks-dir: {script} is not executable")
        commands.append(shlex.quote(script))
    return commands


@install_app.command("claude")
def install_claude(
    ctx: typer.Context,
    user: Annotated[
        bool,
        typer.Option(
            "--user",
            help="Edit the user settings: $CLAUDE_CONFIG_DIR/settings.json "
            "(~/.claude/settings.json); with --mcp, ~/.claude.json. The default.",
        ),
    ] = False,
    project: Annotated[
        bool,
        typer.Option(
            "--project",
            help="Edit the project's .claude/settings.json; with --mcp, its .mcp.json.",
        ),
    ] = False,
    project_dir: Annotated[
        Optional[str],
        typer.Option(
            "--project-dir",
            metavar="D",
            help="The project (implies --project); defaults to $CLAUDE_PROJECT_DIR, "
            "else the current directory.",
            show_default=False,
        ),
    ] = None,
    hooks_dir: Annotated[
        Optional[str],
        typer.Option(
            "--hooks-dir",
            metavar="DIR",
            help="Use DIR/file-suggestion.sh and DIR/session-start.sh (the npm package's "
            "Bun hooks) instead of this CLI's `hook` commands.",
            show_default=False,
        ),
    ] = None,
    mcp: Annotated[
        bool,
        typer.Option(
            "--mcp",
            help="Register cc-search's MCP server instead (only that, not the hooks): in "
            "~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json) as this cc-search's absolute "
            "path, or with --project in the project's .mcp.json as `cc-search mcp`.",
        ),
    ] = False,
    uninstall: Annotated[
        bool,
        typer.Option("--uninstall", help="Remove what an install added, and only that."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON result.")] = False,
) -> None:
    """Make Claude Code use cc-search for @ file suggestions, with a SessionStart hook
    that refreshes the index (idempotent; the previous settings file is backed up). With
    --mcp, register cc-search's MCP server with Claude Code instead, as `claude mcp add`
    does."""
    if user and (project or project_dir is not None):
        raise typer.BadParameter(
            "--user cannot be combined with --project or --project-dir", param_hint="'--user'"
        )
    if mcp:
        if hooks_dir is not None:
            raise typer.BadParameter(
                "--hooks-dir is for the hooks, not for --mcp", param_hint="'--hooks-dir'"
            )
        in_project = project or project_dir is not None
        _install_claude_mcp(ctx, in_project, project_dir, uninstall, as_json)
        return
    if hooks_dir is not None:
        file_suggestion, session_start = _hook_scripts(hooks_dir)
    else:
        argv = _self_argv(ctx)
        file_suggestion = _shell_command([*argv, "hook", "file-suggestion"])
        session_start = _shell_command([*argv, "hook", "session-start"])
    params: dict[str, Any] = {
        "scope": "project" if project or project_dir is not None else "user",
        "file_suggestion_command": file_suggestion,
        "session_start_command": session_start,
        "uninstall": uninstall,
    }
    if project_dir is not None:
        params["project_dir"] = os.path.abspath(os.path.expanduser(project_dir))

    def backup(result: Any) -> List[str]:
        if result["backup"]:
            return [f"Backup of the previous file: {result['backup']}"]
        return ["There was no previous file, so no backup."]

    _install(ctx, "claude.install", params, as_json, "cc-search", "settings_path", backup)


#: The command a project's .mcp.json runs: whatever `cc-search` is on each teammate's PATH.
PROJECT_MCP_ARGV = [PROG, "mcp"]


def _install_claude_mcp(
    ctx: typer.Context, project: bool, project_dir: Optional[str], uninstall: bool, as_json: bool
) -> None:
    """`install claude --mcp`: the `claude.install_mcp` operation with this CLI's command."""
    options = ctx.find_object(_Options)
    if project and options is not None and (options.home or options.config):
        _report(
            "warning",
            "--home and --config are not written into .mcp.json (it is shared); the server "
            "uses $CC_SEARCH_HOME or the default data root",
        )
    argv = PROJECT_MCP_ARGV if project else [*_self_argv(ctx), "mcp"]
    params: dict[str, Any] = {
        "scope": "project" if project else "user",
        "command": argv[0],
        "args": argv[1:],
        "uninstall": uninstall,
    }
    if project_dir is not None:
        params["project_dir"] = os.path.abspath(os.path.expanduser(project_dir))

    def approval(result: Any) -> List[str]:
        if not project or uninstall:
            return []
        return [
            "Commit .mcp.json to share it; Claude Code asks each person to approve its "
            "servers once (`claude mcp list` shows it as pending until then)."
        ]

    _install(ctx, "claude.install_mcp", params, as_json, "cc-search's MCP server", "path", approval)


def _install(
    ctx: typer.Context,
    op: str,
    params: dict[str, Any],
    as_json: bool,
    what: str,
    path_key: str,
    tail: Callable[[Any], List[str]],
) -> None:
    """Run an installer operation and print what it did: the JSON result, or a line on
    the file, one per change, and `tail(result)`'s lines after a change."""
    uninstall = params["uninstall"]
    with _open(ctx) as engine:
        result = engine.call(op, params)
    if as_json:
        _print_json(result)
        return
    _warn_all(result["warnings"])
    path = result[path_key]
    if not result["changed"]:
        state = "not installed there" if uninstall else "already installed"
        sys.stdout.write(f"{path}: {what} is {state}; nothing changed\n")
        return
    done = f"Removed {what} from" if uninstall else f"Installed {what} in"
    lines = [f"{done} {path}"]
    lines += [f"  {change}" for change in result["changes"]]
    lines += tail(result)
    sys.stdout.write("\n".join(lines) + "\n")


# --- hook file-suggestion, hook session-start --------------------------------------------

#: Most bytes of hook input read; the rest is ignored.
HOOK_INPUT_LIMIT = 1 << 20
#: Longest wait for the hook input to end, in seconds.
HOOK_INPUT_TIMEOUT = 2.0
#: The session-start log moves to ``session-start.log.1`` when it grows past this.
MAX_LOG_BYTES = 1 << 20


def _read_hook_input() -> bytes:
    """The hook's JSON from stdin: nothing when stdin is closed or a terminal; at most
    HOOK_INPUT_LIMIT bytes, and no longer than HOOK_INPUT_TIMEOUT if the writer never
    closes the pipe."""
    stream = sys.stdin
    if stream is None:
        return b""
    try:
        fd = stream.fileno()
        if os.isatty(fd):
            return b""
    except (OSError, ValueError):
        return b""
    try:
        import select
    except ImportError:  # pragma: no cover - every supported platform has it
        select = None  # type: ignore[assignment]
    chunks: List[bytes] = []
    size = 0
    deadline = time.monotonic() + HOOK_INPUT_TIMEOUT
    while size < HOOK_INPUT_LIMIT:
        if select is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                ready, _, _ = select.select([fd], [], [], remaining)
            except (OSError, ValueError):
                ready = [fd]
            if not ready:
                break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)[:HOOK_INPUT_LIMIT]


def _hook_query(data: bytes) -> str:
    """The ``query`` of the hook input; ``""`` for anything else (no input, not JSON, not
    an object, no string ``query``)."""
    try:
        value = json.loads(data.decode("utf-8", "replace")) if data.strip() else None
    except ValueError:
        return ""
    query = value.get("query") if isinstance(value, dict) else None
    if not isinstance(query, str):
        return ""
    # A lone surrogate (from a `\ud800` escape) cannot reach the core: it becomes U+FFFD.
    return query.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _hook_failed(hook: str, error: BaseException) -> None:
    # A hook must not fail, not even on a closed stderr.
    with contextlib.suppress(Exception):
        _report("error", f"hook {hook}: {error}")


@hook_app.command("file-suggestion")
def hook_file_suggestion(ctx: typer.Context) -> None:
    """Claude Code's fileSuggestion command: reads {"query": "..."} on stdin and prints up
    to 15 paths of the project ($CLAUDE_PROJECT_DIR, else the current directory), one a
    line. Never fails: on an error stdout stays empty, stderr says why, the status is 0."""
    try:
        query = _hook_query(_read_hook_input())
        engine, opening = _open_quietly(ctx)
        with engine:
            result = engine.files_suggest(query, limit=15)
        output = "".join(f"{path}\n" for path in result["paths"][:15])
    except Exception as e:
        _hook_failed("file-suggestion", e)
        return
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except OSError as e:  # the picker went away
        _hook_failed("file-suggestion", e)
        _silence_stdout()
        return
    _warn_all([*opening, *result["warnings"]])


def _silence_stdout() -> None:
    """After a failed write, keep the interpreter's final flush of stdout quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _open_log(home: Path) -> Any:
    """``<home>/logs/session-start.log`` for appending; over MAX_LOG_BYTES it moves to
    ``session-start.log.1`` first."""
    logs = home / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / "session-start.log"
    try:
        if log.stat().st_size > MAX_LOG_BYTES:
            os.replace(log, logs / "session-start.log.1")
    except FileNotFoundError:
        pass
    return open(log, "ab")


@hook_app.command("session-start")
def hook_session_start(ctx: typer.Context) -> None:
    """Claude Code's SessionStart hook: starts `cc-search files refresh` for the project's session
    ($CLAUDE_PROJECT_DIR, else the current directory) in the background, logging to
    <data root>/logs/session-start.log, and returns at once. Reads and ignores the hook's
    JSON on stdin; prints nothing on stdout; the status is always 0."""
    try:
        _read_hook_input()
        project = os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
        project = os.path.abspath(project)
        # Warnings of opening the engine (an invalid configuration) are the refresh's to log.
        engine, _ = _open_quietly(ctx)
        with engine:
            home = engine.home
        # Without a DIR the refresh covers the session: the project, the configured
        # roots and the project's additional directories.
        argv = [*_self_argv(ctx), "files", "refresh", "--project-dir", project]
        with _open_log(home) as log:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
            log.write(f"{stamp} session-start: {_shell_command(argv)}\n".encode())
            log.flush()
            subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                close_fds=True,
                start_new_session=True,
            )
    except Exception as e:
        _hook_failed("session-start", e)
