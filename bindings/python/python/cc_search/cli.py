"""The ``cc-search`` command line.

Results go to stdout, warnings to stderr. An error prints one line on stderr and exits
with status 1; a usage error exits with status 2.
"""

# No `from __future__ import annotations` here: typer reads the parameters'
# annotations at run time, and older typer releases (the ones Python 3.9 gets) only
# understand real annotation objects.
import json
import sys
import warnings
from typing import Annotated, Any, List, Literal, Optional

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


def _warn_all(messages: List[str]) -> None:
    for message in messages:
        _report("warning", message)


def _open(ctx: typer.Context) -> Engine:
    options = ctx.find_object(_Options)
    home = options.home if options else None
    config = options.config if options else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CcSearchWarning)
        engine = Engine(home, config)
    _warn_all([str(w.message) for w in caught])
    return engine


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
            help="Directory to index; defaults to $CLAUDE_PROJECT_DIR, else the current one.",
            show_default=False,
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
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON result.")] = False,
) -> None:
    """Index the file paths under DIR (incremental)."""
    with _open(ctx) as engine:
        result = engine.files_refresh(
            directory, max_depth=max_depth, exclude=exclude, max_files=max_files
        )
    if as_json:
        _print_json(result)
        return
    _warn_all(result["warnings"])
    note = " (truncated at the file limit)" if result["truncated"] else ""
    sys.stdout.write(
        f"{result['root']}: {result['files']} files indexed{note}; "
        f"{result['added']} added, {result['updated']} updated, "
        f"{result['removed']} removed\n"
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
