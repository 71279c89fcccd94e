"""``cc-search grep``: checkfor's flags over the ``grep.search`` operation, compact JSON.

An agent's shell runs it where it would run ``rg``, so it starts lean: argparse and the
native module, not typer and the rest of the CLI, and the JSON the core writes goes to
stdout as it is instead of being parsed and written again in Python. Warnings go to
stderr, one line each.
"""

from __future__ import annotations

import sys

PROG = "cc-search"

DESCRIPTION = """\
Search file contents (checkfor's flags) and print compact JSON on one line: per
directory, the files with matches in path order, paths relative to the directory.

Without --recursive only the directory's own files are read. With it, subdirectories
are searched as ripgrep searches them by default: files that ignore files exclude
(.gitignore in a git repository, .ignore, .git/info/exclude, the global excludes) and
hidden files and directories are skipped, nothing else; --hidden and --skip-generated
change that.

Finding nothing is not an error (status 0). Unreadable files are warnings on stderr; a
directory that cannot be read is reported in the JSON and on stderr, and the status is
then 1. A usage error exits with status 2, Ctrl-C with 130.
"""

GENERATED = (
    "node_modules, dist, build, .next, .nuxt, target, __pycache__, .venv, vendor, "
    "coverage, .cache, *.pyc"
)


def _parser(prog: str):  # type: ignore[no-untyped-def]
    import argparse

    parser = argparse.ArgumentParser(
        prog=prog,
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add(
        "--search",
        "-e",
        required=True,
        metavar="TEXT",
        help="Text to search for: a literal substring, or a regular expression with --regex.",
    )
    add(
        "--dir",
        metavar="DIR[,DIR]",
        help="Comma-separated directories, searched and reported in this order "
        "(default: the project, -C).",
    )
    add(
        "--project-dir",
        "-C",
        metavar="DIR",
        help="The project, searched when --dir is not given (default: $CLAUDE_PROJECT_DIR, "
        "else the current directory).",
    )
    add(
        "--ext",
        metavar="EXT[,EXT]",
        help="Only files with one of these extensions (.go, or rs,py).",
    )
    add(
        "--exclude",
        metavar="TEXT[,TEXT]",
        help="Comma-separated strings; matching lines containing any are dropped (and counted).",
    )
    add(
        "--case-insensitive",
        "-i",
        action="store_true",
        help="Ignore case in the search and exclude strings.",
    )
    add(
        "--whole-word",
        "-w",
        action="store_true",
        help="Match whole words only (ASCII letters, digits, _).",
    )
    add(
        "--context",
        metavar="N",
        type=_count(0),
        default=0,
        help="Lines of context around each match.",
    )
    add(
        "--hide-filter-stats",
        action="store_true",
        help="Leave original_matches and filtered_matches out.",
    )
    add(
        "--recursive",
        "-r",
        action="store_true",
        help="Search subdirectories too, skipping ignored and hidden files (as rg does).",
    )
    add(
        "--hidden",
        action="store_true",
        help="With --recursive: search hidden files and directories too (never .git).",
    )
    add(
        "--skip-generated",
        action="store_true",
        help=f"With --recursive: also skip dependency, build and cache output ({GENERATED}).",
    )
    add("--regex", action="store_true", help="The search text is a regular expression.")
    add(
        "--max-matches",
        "--limit",
        "-n",
        metavar="N",
        type=_count(1),
        help="List at most N matches (matches_found still counts them all).",
    )
    add(
        "--max-tokens",
        metavar="N",
        type=_count(1),
        help="Keep the JSON within about N tokens (context dropped first, then long lines "
        "shortened, then the last matches).",
    )
    add("--json", action="store_true", help="Print the JSON result (what grep always prints).")
    return parser


def _count(least: int):  # type: ignore[no-untyped-def]
    def parse(text: str) -> int:
        import argparse

        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is less than {least}")
        return value

    return parse


def _list(value: str | None) -> list[str] | None:
    """``"a, b,"`` as ``["a", "b"]`` (None when nothing is left)."""
    if value is None:
        return None
    items = [item.strip() for item in value.split(",")]
    return [item for item in items if item] or None


def argument_text(value: str) -> str:
    """A command-line argument as text: bytes that were not valid UTF-8 (they arrive as
    surrogate escapes) become U+FFFD, so a query never fails to encode."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


#: The warnings this run has shown: each is shown once.
_SHOWN: set[str] = set()


def _report(kind: str, message: str) -> None:
    message = " ".join(message.split("\n"))
    if kind == "warning":
        if message in _SHOWN:
            return
        _SHOWN.add(message)
    if sys.stderr.isatty():
        colour = "1;31" if kind == "error" else "33"
        sys.stderr.write(f"{PROG}: \x1b[{colour}m{kind}:\x1b[0m {message}\n")
    else:
        sys.stderr.write(f"{PROG}: {kind}: {message}\n")
    sys.stderr.flush()


def split_warnings(text: bytes) -> tuple[bytes, list[str]]:
    """The JSON result without its ``warnings``, and the warnings. ``warnings`` is the
    last key the core writes, and ``,"warnings":[`` can only be that key: inside a JSON
    string every quote is escaped."""
    at = text.rfind(b',"warnings":[')
    if at < 0:
        return text, []
    import json

    return text[:at] + b"}", json.loads(text[at + len(b',"warnings":') : -1])


def main(argv: list[str], home: str | None = None, config: str | None = None) -> int:
    """Run ``cc-search grep`` with ``argv`` (the arguments after ``grep``); the exit
    status."""
    args = _parser(f"{PROG} grep").parse_args(argv)
    params: dict[str, object] = {"search": argument_text(args.search)}
    dirs = _list(args.dir)
    if dirs is None and args.project_dir is not None:
        dirs = [args.project_dir]
    for key, value in (
        ("dir", dirs),
        ("ext", _list(args.ext)),
        ("exclude", _list(args.exclude)),
        ("context", args.context or None),
        ("max_matches", args.max_matches),
        ("max_tokens", args.max_tokens),
    ):
        if value is not None:
            params[key] = [argument_text(v) for v in value] if isinstance(value, list) else value
    for flag in (
        "case_insensitive",
        "whole_word",
        "hide_filter_stats",
        "recursive",
        "hidden",
        "skip_generated",
        "regex",
    ):
        if getattr(args, flag):
            params[flag] = True

    import json

    from . import Error, _native

    try:
        engine = _native.Engine(home, config)
        for message in engine.warnings:
            _report("warning", message)
        text = engine.call_bytes("grep.search", json.dumps(params, ensure_ascii=False))
    except Error as e:
        _report("error", str(e))
        return 1
    except KeyboardInterrupt:
        _report("error", "interrupted")
        return 130
    result, warnings = split_warnings(text)
    for message in warnings:
        _report("warning", message)
    failed = []
    if b'"error":"' in result:
        # A directory could not be searched (`error` is a key only there).
        failed = [d for d in json.loads(result)["directories"] if "error" in d]
    for directory in failed:
        _report("error", f"{directory['dir']}: {directory['error']}")
    try:
        sys.stdout.flush()
        sys.stdout.buffer.write(result)
        sys.stdout.buffer.write(b"\n")
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        # The reader stopped early (`| head`): what it read is what it wanted.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1 if failed else 0
