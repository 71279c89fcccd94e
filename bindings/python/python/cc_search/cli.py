"""The ``cc-search`` command line.

Results go to stdout, warnings to stderr (each once per run). An error prints one line
on stderr and exits with status 1; a usage error exits with status 2.

One grammar for every command (README.md, "The command line"): ``-C/--project-dir DIR``
is the project (a repository for ``code``), ``--path`` only ever a path, ``-n/--limit N``
the most results, ``--json`` the result as JSON, ``-V/--version`` the version.
"""

# No `from __future__ import annotations` here: typer reads the parameters'
# annotations at run time, and older typer releases (the ones Python 3.9 gets) only
# understand real annotation objects.
import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated, Any, Callable, List, Literal, Optional

import typer

from . import Error, _native
from ._cli_common import (
    PROG,
    _fail,
    _open,
    _Options,
    _print_json,
    _report,
    _warn_all,
)
from ._cli_hooks import hook_file_suggestion, hook_session_start
from ._cli_install import install_claude
from ._cli_options import (
    JSON_ALWAYS,
    _compact_json_option,
    _either,
    _json_option,
    _limit_option,
    _project_dir_option,
)
from ._cli_print import (
    _code_print,
    _print_chunk,
    _print_docs_results,
    _print_index,
    _print_session_results,
    _print_sessions_index,
    _print_sessions_status,
    _progress_bar,
)
from ._cli_print_code import (
    print_code_delete,
    print_code_find,
    print_code_deps,
    print_code_detail,
    print_code_index,
    print_code_overview,
    print_code_refs,
    print_code_repos,
    print_code_search,
    print_code_status,
    print_code_symbols,
)
from ._grep_cli import argument_text


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
            "-V",
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
    project_dir: _project_dir_option("The project refreshed without DIR") = None,
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
            show_default=False,
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
    as_json: _json_option(
        "Print the result as JSON: each root's counts, and the warnings."
    ) = False,
) -> None:
    """Index the file paths under DIR, or the project's session roots (incremental)."""
    with _open(ctx) as engine, _progress_bar(keeps_work=False) as progress:
        result = engine.files_refresh(
            directory,
            progress=progress,
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
    project_dir: _project_dir_option("The project, whose paths are suggested") = None,
    limit: _limit_option("Most paths to print, 1 to 15 (default 15).", Optional[int], None) = None,
    as_json: _json_option('Print the result as JSON: {"paths": [...], "warnings": [...]}.') = False,
) -> None:
    """Print the best paths for QUERY, one a line, relative to the project."""
    with _open(ctx) as engine:
        result = engine.files_suggest(argument_text(query), project_dir=project_dir, limit=limit)
    if as_json:
        _print_json(result)
        return
    _warn_all(result["warnings"])
    if result["paths"]:
        sys.stdout.write("\n".join(result["paths"]) + "\n")


@app.command(
    "grep",
    # Every argument goes to grep's own parser (`cc-search grep --help`), which is also
    # what `cc-search grep …` runs without this CLI (cc_search._main): one grammar.
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    add_help_option=False,
)
def grep(ctx: typer.Context) -> None:
    """Search file contents (checkfor's flags) and print compact JSON on one line."""
    from ._grep_cli import main as grep_main

    options = ctx.find_object(_Options)
    home = options.home if options else None
    config = options.config if options else None
    raise typer.Exit(grep_main(list(ctx.args), home, config))


# ── code: the tree-sitter symbol index ──

_RepoOption = _project_dir_option("The repository, or a directory inside it")
# The old name of -C/--project-dir on `code` commands, still accepted.
_OldPathOption = Annotated[Optional[str], typer.Option("--path", metavar="DIR", hidden=True)]
_MaxTokensOption = Annotated[
    Optional[int],
    typer.Option(
        "--max-tokens", metavar="N", min=1,
        help="Keep the result within about N tokens, cut as an agent's answer is (fewer "
        "items listed).",
        show_default=False,
    ),
]

_CompactOption = Annotated[
    bool,
    typer.Option(
        "--compact",
        help="Print what an agent reads instead, as the MCP tools answer: compact JSON with "
        "short keys, each file listed once.",
    ),
]


def _show(
    result: Any,
    as_json: bool,
    human: Callable[[Any], None],
    op: Optional[str] = None,
    compact: bool = False,
    max_tokens: Optional[int] = None,
) -> None:
    """The result of operation `op` as JSON on one line with `--json`, else as `human`
    lays it out (warnings on stderr either way). `--compact` (or a budget with `--json`)
    prints what an agent reads of it instead (`agent_answer`); `--max-tokens` cuts what
    is shown as an agent's answer is cut."""
    if op is not None and (compact or (as_json and max_tokens is not None)):
        _warn_all(result.pop("warnings", []))
        shown = _native.agent_answer(op, json.dumps(result), max_tokens)
        sys.stdout.write(shown + "\n")
    elif as_json:
        _code_print(result)
    else:
        if op is not None and max_tokens is not None:
            result = json.loads(
                _native.agent_answer(op, json.dumps(result), max_tokens, view=False)
            )
        human(result)


def _repo(project_dir: Optional[str], path: Optional[str]) -> Optional[str]:
    return _either(project_dir, path, "--project-dir/--path")


_IndexRunJson = _compact_json_option(
    "the run's counts (new, changed, unchanged and deleted files; the symbols and references "
    "the index holds)"
)


@code_app.command("index")
def code_index(
    ctx: typer.Context,
    project_dir: _RepoOption = None,
    force: Annotated[bool, typer.Option("--force", help="Re-parse every file.")] = False,
    path: _OldPathOption = None,
    as_json: _IndexRunJson = False,
) -> None:
    """Index (or bring up to date) a repository's symbols; only changed files are parsed."""
    repo = _repo(project_dir, path)
    started = time.monotonic()
    with _open(ctx) as engine, _progress_bar(keeps_work=False) as progress:
        result = engine.code_index(repo, force=force, progress=progress)
    seconds = time.monotonic() - started
    _show(result, as_json, lambda r: print_code_index(r, seconds))


@code_app.command("update")
def code_update(
    ctx: typer.Context,
    files: Annotated[List[Path], typer.Argument(metavar="FILE...", help="Files to re-index.")],
    project_dir: _RepoOption = None,
    path: _OldPathOption = None,
    as_json: _IndexRunJson = False,
) -> None:
    """Re-index the given files only (deleted ones are removed), without a walk."""
    repo = _repo(project_dir, path)
    started = time.monotonic()
    with _open(ctx) as engine:
        result = engine.code_update(files, path=repo)
    seconds = time.monotonic() - started
    _show(result, as_json, lambda r: print_code_index(r, seconds, "Updated"))


@code_app.command("status")
def code_status(
    ctx: typer.Context,
    project_dir: _RepoOption = None,
    path: _OldPathOption = None,
    as_json: _compact_json_option(
        "files, symbols, references and languages, when indexed, and the files changed, "
        "deleted or new since"
    ) = False,
) -> None:
    """What the index holds and which files changed since."""
    repo = _repo(project_dir, path)
    with _open(ctx) as engine:
        result = engine.code_status(repo)
    _show(result, as_json, print_code_status)


@code_app.command("overview")
def code_overview(
    ctx: typer.Context,
    project_dir: _RepoOption = None,
    max_tokens: _MaxTokensOption = None,
    path: _OldPathOption = None,
    as_json: _compact_json_option(
        "languages, directories, and the top types and entry points with their signatures "
        "and docs"
    ) = False,
    compact: _CompactOption = False,
) -> None:
    """Languages, directories, most referenced types, entry points."""
    repo = _repo(project_dir, path)
    with _open(ctx) as engine:
        result = engine.code_overview(repo)
    _show(result, as_json, print_code_overview, "code.get_overview", compact, max_tokens)


@code_app.command("symbols")
def code_symbols(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help="File, relative to the repository.")],
    project_dir: _RepoOption = None,
    max_tokens: _MaxTokensOption = None,
    path: _OldPathOption = None,
    as_json: _compact_json_option(
        "the tree of symbols, each with its lines, signature and doc"
    ) = False,
    compact: _CompactOption = False,
) -> None:
    """The symbols of one file, as a tree."""
    repo = _repo(project_dir, path)
    with _open(ctx) as engine:
        result = engine.code_file_symbols(file, path=repo)
    _show(result, as_json, print_code_symbols, "code.get_file_symbols", compact, max_tokens)


@code_app.command("search")
def code_search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="Words, prefix*, AND/OR/NOT.")],
    project_dir: _RepoOption = None,
    kind: Annotated[
        Optional[str],
        typer.Option(
            "--kind", "-k", metavar="KIND", help="Only this kind (fn, class, ...).",
            show_default=False,
        ),
    ] = None,
    limit: _limit_option("Most symbols to list.", Optional[int]) = None,
    max_tokens: _MaxTokensOption = None,
    path: _OldPathOption = None,
    as_json: _compact_json_option(
        "every hit with its signature and doc (the text output cuts the signature to the "
        "line)"
    ) = False,
    compact: _CompactOption = False,
) -> None:
    """Search symbols by name, subword, doc comment, kind or path."""
    repo = _repo(project_dir, path)
    with _open(ctx) as engine:
        result = engine.code_search(query, path=repo, kind=kind, limit=limit)
    _show(result, as_json, print_code_search, "code.search_symbols", compact, max_tokens)


@code_app.command("find")
def code_find(
    ctx: typer.Context,
    query: Annotated[
        str,
        typer.Argument(
            metavar="QUERY",
            help="What to find: an issue, a stack trace, a question; `-` reads it from stdin.",
        ),
    ],
    project_dir: _RepoOption = None,
    limit: _limit_option("Most files to list (default 10).", Optional[int]) = None,
    max_tokens: _MaxTokensOption = None,
    path: _OldPathOption = None,
    as_json: _compact_json_option(
        "the files with their scores, each file's best definition with its id, lines and "
        "signature, and the sides that ranked"
    ) = False,
    compact: _CompactOption = False,
) -> None:
    """Find the files and definitions a description is about, best first."""
    repo = _repo(project_dir, path)
    text = sys.stdin.read() if query == "-" else argument_text(query)
    with _open(ctx) as engine, _progress_bar(keeps_work=False) as progress:
        result = engine.code_find(text, path=repo, limit=limit, progress=progress)
    _show(result, as_json, print_code_find, "code.find", compact, max_tokens)


_SymbolId = Annotated[int, typer.Argument(metavar="ID", help="Symbol id.")]


@code_app.command("detail")
def code_detail(
    ctx: typer.Context,
    id: _SymbolId,  # noqa: A002
    project_dir: _RepoOption = None,
    max_tokens: _MaxTokensOption = None,
    path: _OldPathOption = None,
    as_json: _compact_json_option(
        "the symbol with its whole signature and doc, its parent, children and references "
        "(the text output shows the start of a long doc)"
    ) = False,
    compact: _CompactOption = False,
) -> None:
    """One symbol in full: signature, doc, parent, children, calls, callers."""
    repo = _repo(project_dir, path)
    with _open(ctx) as engine:
        result = engine.code_symbol(id, path=repo)
    _show(result, as_json, print_code_detail, "code.get_symbol_detail", compact, max_tokens)


@code_app.command("refs")
def code_refs(
    ctx: typer.Context,
    id: _SymbolId,  # noqa: A002
    project_dir: _RepoOption = None,
    max_tokens: _MaxTokensOption = None,
    path: _OldPathOption = None,
    as_json: _compact_json_option(
        "every reference with its file, line, kind and referring symbol"
    ) = False,
    compact: _CompactOption = False,
) -> None:
    """Who refers to a symbol."""
    repo = _repo(project_dir, path)
    with _open(ctx) as engine:
        result = engine.code_references(id, path=repo)
    _show(result, as_json, print_code_refs, "code.get_references", compact, max_tokens)


@code_app.command("deps")
def code_deps(
    ctx: typer.Context,
    id: _SymbolId,  # noqa: A002
    project_dir: _RepoOption = None,
    max_tokens: _MaxTokensOption = None,
    path: _OldPathOption = None,
    as_json: _compact_json_option(
        "every name it refers to, with its kind and the symbol it resolved to"
    ) = False,
    compact: _CompactOption = False,
) -> None:
    """What a symbol refers to."""
    repo = _repo(project_dir, path)
    with _open(ctx) as engine:
        result = engine.code_dependencies(id, path=repo)
    _show(result, as_json, print_code_deps, "code.get_dependencies", compact, max_tokens)


@code_app.command("repos")
def code_repos(
    ctx: typer.Context,
    as_json: _compact_json_option(
        "each repository's path, files, symbols, when indexed and database file"
    ) = False,
) -> None:
    """The indexed repositories."""
    with _open(ctx) as engine:
        result = {"repos": engine.code_repos()}
    _show(result, as_json, print_code_repos)


@code_app.command("delete")
def code_delete(
    ctx: typer.Context,
    paths: Annotated[
        Optional[List[Path]], typer.Argument(metavar="DIR...", help="Repositories whose index to delete.")
    ] = None,
    all_repos: Annotated[bool, typer.Option("--all", help="Delete every code index.")] = False,
    as_json: _compact_json_option(
        "the repositories whose index was deleted, and those without one"
    ) = False,
) -> None:
    """Delete the code index of repositories."""
    if not paths and not all_repos:
        _fail("give repository paths, or --all")
    with _open(ctx) as engine:
        result = engine.code_delete(paths, all=all_repos)
    _show(result, as_json, print_code_delete)


# ── docs and notes ──


_ProjectDirOption = _project_dir_option("The project, or any directory inside it")
_LimitOption = _limit_option("Most results to list, 1 to 100 (default 10).", int, 1, 100)
_IndexJsonOption = _json_option(
    "Print the result as JSON: the run's counts (files, sections, embedded) and the warnings."
)
_QueryJsonOption = _json_option(
    "Print the result as JSON: every hit with its whole section, score and place, the mode "
    "and the warnings (the text output shows a snippet of each)."
)
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


@docs_app.command("index")
def docs_index(
    ctx: typer.Context,
    globs: Annotated[
        Optional[List[str]],
        typer.Option(
            "--glob",
            metavar="GLOB",
            help="Markdown files to index, relative to the project root (repeatable; default "
            "docs/**/*.md and {apps,packages}/*/docs/**/*.md).",
            show_default=False,
        ),
    ] = None,
    project_dir: _ProjectDirOption = None,
    lock_wait: _LockWaitOption = None,
    json_output: _IndexJsonOption = False,
    old_globs: Annotated[
        # The old name of --glob, still accepted.
        Optional[List[str]], typer.Option("--path", metavar="GLOB", hidden=True)
    ] = None,
) -> None:
    """Index the project's markdown docs by H2 section, for the current git branch."""
    patterns = [*(globs or []), *(old_globs or [])]
    with _open(ctx) as engine, _progress_bar() as progress:
        result = engine.docs_index(
            project_dir, globs=patterns or None, lock_wait_secs=lock_wait, progress=progress
        )
    if json_output:
        _warn_all(result["warnings"])
        _print_json(result)
    else:
        _print_index(result, "docs")


@docs_app.command("query")
def docs_query(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What to look for.")],
    all_branches: Annotated[
        bool, typer.Option("--all-branches", help="Search every indexed branch of the project.")
    ] = False,
    branch: Annotated[
        Optional[str],
        typer.Option(
            "--branch", metavar="NAME", help="Search this branch instead of the current one.",
            show_default=False,
        ),
    ] = None,
    limit: _LimitOption = 10,
    project_dir: _ProjectDirOption = None,
    mode: _ModeOption = "hybrid",
    json_output: _QueryJsonOption = False,
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
    json_output: _IndexJsonOption = False,
) -> None:
    """Index the project's session notes (sessions/**/*.md) by H2 section."""
    with _open(ctx) as engine, _progress_bar() as progress:
        result = engine.notes_index(project_dir, lock_wait_secs=lock_wait, progress=progress)
    if json_output:
        _warn_all(result["warnings"])
        _print_json(result)
    else:
        _print_index(result, "notes")


@notes_app.command("query")
def notes_query(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What to look for.")],
    after: Annotated[
        Optional[str],
        typer.Option(
            "--after", metavar="YYYY-MM-DD", help="Only sessions on or after this date.",
            show_default=False,
        ),
    ] = None,
    file: Annotated[
        Optional[str],
        typer.Option(
            "--file", metavar="NAME", help="Only files with this base name (IMPLEMENTATION).",
            show_default=False,
        ),
    ] = None,
    limit: _LimitOption = 10,
    project_dir: _ProjectDirOption = None,
    mode: _ModeOption = "hybrid",
    json_output: _QueryJsonOption = False,
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


def _split_types(values: Optional[List[str]]) -> Optional[List[str]]:
    """`-t user -t tool` and `-t user,tool` alike."""
    if not values:
        return None
    return [t.strip() for value in values for t in value.split(",") if t.strip()]


@app.command("search")
def sessions_search(
    ctx: typer.Context,
    query: Annotated[
        str,
        typer.Argument(
            metavar="QUERY", help="What to look for, in your own words.", show_default=False
        ),
    ] = "",
    project: Annotated[
        Optional[str],
        typer.Option(
            "--project", metavar="NAME",
            help="Only projects whose path contains NAME (case-insensitive).",
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
    limit: _limit_option("Most results to list, 1 to 100 (default 5).", int, 1, 100) = 5,
    mode: _ModeOption = "hybrid",
    json_output: _json_option(
        "Print the result as JSON: every hit with its whole text, score, project, session and "
        "time, and the warnings (the text output shows a snippet of each)."
    ) = False,
    old_project: Annotated[
        # The old short name of --project, still accepted.
        Optional[str], typer.Option("-p", metavar="NAME", hidden=True)
    ] = None,
) -> None:
    """Search Claude Code sessions (keyword + semantic, recent first). Indexes first when
    there is no index yet."""
    project = _either(project, old_project, "--project/-p")
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
    json_output: _json_option(
        "Print the chunk as JSON: its whole text, the messages around it, its session and time."
    ) = False,
) -> None:
    """View the full content of a chunk, with its context."""
    with _open(ctx) as engine:
        result = engine.sessions_chunk(id)
    if json_output:
        _print_json(result)
        return
    _print_chunk(result)


@app.command("index")
def sessions_index(
    ctx: typer.Context,
    force: Annotated[bool, typer.Option("--force", help="Reindex all sessions.")] = False,
    json_output: _json_option(
        "Print the result as JSON: sessions and chunks read, written and removed, and the "
        "warnings."
    ) = False,
) -> None:
    """Build or update the session search index (new and grown sessions only)."""
    with _open(ctx) as engine, _progress_bar() as progress:
        result = engine.sessions_index(force=force, progress=progress)
    _warn_all(result["warnings"])
    if json_output:
        _print_json(result)
        return
    _print_sessions_index(result)


@app.command("status")
def sessions_status(
    ctx: typer.Context,
    json_output: _json_option(
        "Print the status as JSON: counts by project and kind, size, model, last run."
    ) = False,
) -> None:
    """Show the session index: sessions, chunks, projects, size, model, last indexed."""
    with _open(ctx) as engine:
        result = engine.sessions_status()
    _warn_all(result["warnings"])
    if json_output:
        _print_json(result)
        return
    _print_sessions_status(result)


@app.command("ops")
def ops(
    as_json: _json_option(
        "Print the table as JSON: each operation's name, summary and request and response "
        "JSON Schemas."
    ) = False,
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
    as_json: _json_option(JSON_ALWAYS) = False,
) -> None:
    """Run any operation by name and print its JSON result."""
    if params == "-":
        params = sys.stdin.read()
    with _open(ctx) as engine:
        sys.stdout.write(engine.call_json(op, params) + "\n")


@app.command("mcp")
def mcp(
    ctx: typer.Context,
    project_dir: _project_dir_option(
        "The project: the first directory the tools may read"
    ) = None,
    roots: Annotated[
        Optional[List[str]],
        typer.Option(
            "--root",
            metavar="DIR",
            help="Another directory the tools may read (repeatable; without -C the first is "
            "the project). The configured [index] roots are added.",
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
    named = ([project_dir] if project_dir is not None else []) + (roots or [])
    given = [os.path.abspath(os.path.expanduser(root)) for root in named]
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


# --- install claude, hook file-suggestion, hook session-start ---------------------------

install_app.command("claude")(install_claude)
hook_app.command("file-suggestion")(hook_file_suggestion)
hook_app.command("session-start")(hook_session_start)
