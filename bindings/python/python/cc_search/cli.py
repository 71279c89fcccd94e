"""The ``cc-search`` command line.

Every command, its options and their help are data generated from the operation table
(:mod:`cc_search._cli_table`); this module builds the parser of the command that runs
(argparse: nothing more is imported to start), turns the options into the operation's
request, runs it and hands the result to its printer. Only the printers (``_cli_print``,
``_cli_print_code``) and the commands that do more than run one operation (``grep``,
``install claude``, ``hook …``, ``mcp``, ``ops``, ``call``) are written by hand.

Results go to stdout, warnings to stderr (each once per run). An error prints one line
on stderr and exits with status 1; a usage error exits with status 2.

One grammar for every command (README.md, "The command line"): ``-C/--project-dir DIR``
is the project (a repository for ``code``), ``--path`` only ever a path, ``-n/--limit N``
the most results, ``--json`` the result as JSON, ``-V/--version`` the version.
"""

from __future__ import annotations

import argparse
import sys
import time

from . import _cli_table
from ._cli_common import PROG

# Not `typing.TYPE_CHECKING`: importing typing would cost every command's start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, Callable, NoReturn

SUMMARY = "Embedded search for coding agents: files, grep, code, docs and sessions."

#: The options before the command, with their help.
GLOBAL_OPTIONS = (
    ("--home PATH", "Data root; defaults to $CC_SEARCH_HOME, else $XDG_DATA_HOME/cc-search."),
    ("--config PATH", "Configuration file; defaults to config.toml in the data root."),
    ("-V, --version", "Print the version and exit."),
    ("-h, --help", "Show this message and exit."),
)


class Param:
    """A positional argument (no ``flags``) or an option of a command, as the table
    declares it."""

    #: The request field it sets (with ``field``), else the name the command reads it by.
    dest: str
    #: Its spellings, long first.
    flags: tuple[str, ...] = ()
    #: It is a field of the command's request.
    field = True
    #: ``str``, ``int``, ``flag`` (on when given) or ``onoff`` (``--x``/``--no-x``).
    kind = "str"
    #: It takes several values (a repeatable option).
    many = False
    #: How many values a positional argument takes (argparse's ``nargs``).
    nargs: str | None = None
    metavar: str | None = None
    help = ""
    choices: tuple[str, ...] = ()
    default: str | None = None
    min: int | None = None
    max: int | None = None
    #: Values may also be given comma-separated.
    commas = False
    #: ``-`` reads the value from stdin.
    stdin = False
    #: A value of only blanks is refused.
    nonblank = False
    required = False
    #: An older spelling, still accepted and not shown.
    old: str | None = None

    def __init__(self, entry: dict[str, Any]) -> None:
        self.__dict__.update(entry)


class Command:
    """A command: ``name`` (``code search``) runs ``op`` with its parameters as the
    request, or (without ``op``) does its own work."""

    name: str
    help: str
    params: tuple[Param, ...] = ()
    op: str | None = None
    #: What ``--json`` prints: ``plain``, ``compact`` (one line), ``always`` (JSON anyway)
    #: or ``none`` (no ``--json``: the command prints no result of its own).
    json = "plain"
    json_help = ""
    #: ``--compact`` and ``--max-tokens``: what an agent reads of the result.
    agent = False
    #: Progress reported, and what a run stopped by Ctrl-C kept: ``keeps`` (what it did)
    #: or ``at-end`` (nothing: it writes at the end).
    progress: str | None = None
    #: Pairs of parameters that exclude each other.
    excludes: tuple[tuple[str, str], ...] = ()
    #: Parameters of which at least one must be given.
    one_of: tuple[str, ...] = ()

    def __init__(self, entry: dict[str, Any]) -> None:
        self.__dict__.update(entry)
        self.params = tuple(Param(p) for p in entry["params"])


def command(name: str) -> Command | None:
    """The command called `name` (``code search``), if there is one."""
    entry = next((c for c in _cli_table.COMMANDS if c["name"] == name), None)
    return None if entry is None else Command(entry)


def commands() -> list[Command]:
    """Every command of the table, in its order."""
    return [Command(entry) for entry in _cli_table.COMMANDS]


class Options:
    """The options given before the command: the data root and the configuration file."""

    def __init__(self, home: str | None = None, config: str | None = None) -> None:
        self.home = home
        self.config = config


# ── help and usage errors ──


class _Formatter(argparse.HelpFormatter):
    """``Usage:`` as the rest of the help says it; a description's paragraphs kept apart."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any = None) -> None:
        super().add_usage(usage, actions, groups, "Usage: " if prefix is None else prefix)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        """``-C, --project-dir DIR``: short spellings first, the value named once."""
        if not action.option_strings:
            return super()._format_action_invocation(action)
        text = ", ".join(sorted(action.option_strings, key=lambda f: f.startswith("--")))
        if action.nargs != 0:
            text += " " + self._format_args(action, action.dest.upper())
        return text

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n\n".join(
            super(_Formatter, self)._fill_text(p, width, indent) for p in text.split("\n\n")
        )


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors read as the rest of the command line's: the
    usage, then ``Error: …``, status 2."""

    def error(self, message: str) -> NoReturn:
        usage_error(self.format_usage(), self.prog, message)


def usage_error(usage: str, prog: str, message: str) -> NoReturn:
    sys.stderr.write(f"{usage.rstrip()}\nTry '{prog} -h' for help.\n\nError: {message}\n")
    sys.exit(2)


def _width() -> int:
    import shutil

    return min(shutil.get_terminal_size().columns, 100) - 2


def _listing(rows: Sequence[tuple[str, str]]) -> str:
    """Rows of a help listing: names in a column, the first sentence of their help."""
    import textwrap

    width = max(len(name) for name, _ in rows) + 4
    lines = []
    for name, text in rows:
        first = text.split("\n\n")[0]
        end = first.find(". ")
        first = first if end < 0 else first[: end + 1]
        wrapped = textwrap.wrap(first, _width() - width) or [""]
        lines.append(f"  {name:<{width - 2}}{wrapped[0]}")
        lines += [" " * width + more for more in wrapped[1:]]
    return "\n".join(lines)


def _group_usage(words: str) -> str:
    return f"Usage: {PROG}{words} [OPTIONS] COMMAND [ARGS]..."


def _help(words: str, text: str, rows: Sequence[tuple[str, str]], options: bool) -> str:
    import textwrap

    parts = [_group_usage(words), textwrap.fill(text, _width())]
    if options:
        parts.append("Options:\n" + _listing(GLOBAL_OPTIONS))
    parts.append("Commands:\n" + _listing(rows))
    return "\n\n".join(parts) + "\n"


def _top_rows() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    groups = dict(_cli_table.GROUPS)
    for entry in _cli_table.COMMANDS:
        group, _, rest = entry["name"].partition(" ")
        if rest:
            if all(name != group for name, _ in rows):
                rows.append((group, groups[group]))
        else:
            rows.append((entry["name"], entry["help"]))
    return rows


def _group_rows(group: str) -> list[tuple[str, str]]:
    return [
        (c["name"].split(" ", 1)[1], c["help"])
        for c in _cli_table.COMMANDS
        if c["name"].startswith(group + " ")
    ]


# ── a command's parser ──


def _number(minimum: int | None, maximum: int | None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is less than {minimum}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{value} is more than {maximum}")
        return value

    return parse


def _add(parser: argparse.ArgumentParser, param: Param, flags: Sequence[str], **extra: Any) -> None:
    """`param` as an argparse argument spelled `flags` (none: positional)."""
    kwargs: dict[str, Any] = {"help": param.help, **extra}
    if param.kind == "flag":
        kwargs["action"] = "store_true"
    elif param.kind == "onoff":
        kwargs["action"] = argparse.BooleanOptionalAction
        kwargs["default"] = None
    else:
        if param.kind == "int":
            kwargs["type"] = _number(param.min, param.max)
        if param.choices and not param.commas:
            # (Comma lists are checked by the core, which names what it does not know.)
            kwargs["choices"] = param.choices
        metavar = param.metavar
        if param.many and not flags and metavar:
            metavar = metavar.rstrip(".")
        kwargs["metavar"] = metavar
        if param.many and flags:
            kwargs["action"] = "append"
        if param.default is not None:
            kwargs["default"] = param.default
    if flags:
        kwargs["dest"] = extra.get("dest", param.dest)
        if param.required and "dest" not in extra:
            kwargs["required"] = True
        parser.add_argument(*flags, **kwargs)
    else:
        if param.nargs is not None:
            kwargs["nargs"] = param.nargs
        parser.add_argument(param.dest, **kwargs)


def parser_for(command: Command) -> argparse.ArgumentParser:
    """The parser of `command`, as the table declares it."""
    parser = _Parser(
        prog=f"{PROG} {command.name}",
        description=command.help,
        formatter_class=_Formatter,
        allow_abbrev=False,
        add_help=False,
    )
    parser._positionals.title = "Arguments"
    parser._optionals.title = "Options"
    for param in command.params:
        _add(parser, param, param.flags)
        if param.old is not None:
            _add(parser, param, (param.old,), dest=f"old_{param.dest}", help=argparse.SUPPRESS)
    if command.json != "none":
        parser.add_argument("--json", action="store_true", help=command.json_help)
    parser.add_argument("-h", "--help", action="help", help="Show this message and exit.")
    if command.agent:
        parser.add_argument(
            "--max-tokens",
            metavar="N",
            type=_number(1, None),
            help="Keep the result within about N tokens, cut as an agent's answer is (fewer "
            "items listed).",
        )
        parser.add_argument(
            "--compact",
            action="store_true",
            help="Print what an agent reads instead, as the MCP tools answer: compact JSON "
            "with short keys, each file listed once.",
        )
    return parser


def _name(param: Param) -> str:
    return param.flags[0] if param.flags else (param.metavar or param.dest.upper())


def read(command: Command, ns: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """The parsed values made what the request takes, in `ns`: old spellings merged,
    ``-`` read from stdin, text that was not UTF-8 made text, comma lists split; then the
    command's rules (exclusions, one of, non-blank) checked."""
    from ._cli_common import _fail, argument_text

    for param in command.params:
        value = getattr(ns, param.dest)
        if param.old is not None:
            old = getattr(ns, f"old_{param.dest}")
            if param.many:
                value = (value or []) + (old or []) or None
            elif old is not None:
                if value is not None and value != old:
                    parser.error(
                        f"{param.old} is the old name of {param.flags[0]}: give one of them"
                    )
                value = old
        if param.stdin and value == "-":
            value = sys.stdin.read()
        if param.kind == "str" and value is not None:
            if isinstance(value, list):
                value = [argument_text(v) for v in value]
                if param.commas:
                    value = [t.strip() for v in value for t in v.split(",") if t.strip()]
            else:
                value = argument_text(value)
        setattr(ns, param.dest, value)
    given = {p.dest: _given(getattr(ns, p.dest)) for p in command.params}
    by_dest = {p.dest: p for p in command.params}
    for a, b in command.excludes:
        if given[a] and given[b]:
            parser.error(f"{_name(by_dest[a])} cannot be combined with {_name(by_dest[b])}")
    if command.one_of and not any(given[d] for d in command.one_of):
        parser.error("give " + " or ".join(_name(by_dest[d]) for d in command.one_of))
    for param in command.params:
        if param.nonblank and not (getattr(ns, param.dest) or "").strip():
            _fail("Query required")


def _given(value: Any) -> bool:
    return value is not None and value is not False and value != []


def request(command: Command, ns: argparse.Namespace) -> dict[str, Any]:
    """The operation's parameters: the request fields given."""
    return {
        p.dest: getattr(ns, p.dest)
        for p in command.params
        if p.field and _given(getattr(ns, p.dest))
    }


# ── running a command ──


def _run(command: Command, ns: argparse.Namespace, options: Options) -> None:
    """Run the command's operation and show its result."""
    from ._cli_common import _open
    from ._cli_print import _progress_bar

    assert command.op is not None
    params = request(command, ns)
    started = time.monotonic()
    with _open(options) as engine:
        if command.progress is None:
            result = engine.call(command.op, params)
        else:
            with _progress_bar(keeps_work=command.progress == "keeps") as bar:
                result = engine.call(command.op, params, progress=bar)
    ns.seconds = time.monotonic() - started
    show(command, result, ns)


def show(command: Command, result: Any, ns: argparse.Namespace) -> None:
    """The result as ``--json`` asks (compact for the code commands), or as what an agent
    reads (``--compact``, or a budget with ``--json``), else as its printer lays it out;
    ``--max-tokens`` cuts what is shown as an agent's answer is cut. Warnings go to
    stderr, but for plain JSON, which holds them."""
    import json

    from . import _native
    from ._cli_common import _print_json, _warn_all

    op = command.op or ""
    compact = getattr(ns, "compact", False)
    as_json = getattr(ns, "json", False)
    max_tokens = getattr(ns, "max_tokens", None) if command.agent else None
    if as_json and command.json == "plain":
        # Plain JSON holds the warnings, and says them there only.
        _print_json(result)
        return
    _warn_all(result.get("warnings", []))
    if command.agent and (compact or (as_json and max_tokens is not None)):
        result.pop("warnings", None)
        shown = _native.agent_answer(op, json.dumps(result), max_tokens)
        sys.stdout.write(shown + "\n")
    elif as_json:
        result.pop("warnings", None)
        _print_json(result, compact=True)
    else:
        if max_tokens is not None:
            result = json.loads(
                _native.agent_answer(op, json.dumps(result), max_tokens, view=False)
            )
        from ._cli_printers import PRINTERS

        PRINTERS[command.name](result, ns)


def _own(command: Command) -> Callable[[argparse.Namespace, Options, Any], None] | None:
    """The handler of a command that does more than run its operation and print the
    result (``None`` for the others), imported only for that command."""
    if command.name == "grep":
        from ._grep_cli import run as grep

        return grep
    if command.name == "install claude":
        from ._cli_install import install_claude

        return install_claude
    if command.name.startswith("hook "):
        from ._cli_hooks import HOOKS

        return HOOKS[command.name]
    if command.op is None:
        from ._cli_commands import OWN

        return OWN[command.name]
    return None


def _version() -> NoReturn:
    from . import __version__

    sys.stdout.write(f"{PROG} {__version__}\n")
    sys.exit(0)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line with `argv` (default: the process's arguments)."""
    args = list(sys.argv[1:] if argv is None else argv)
    options = Options()
    top_usage = _group_usage("")

    def top_error(message: str) -> NoReturn:
        usage_error(top_usage, PROG, message)

    while args and args[0].startswith("-"):
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            sys.stdout.write(_help("", SUMMARY, _top_rows(), True))
            sys.exit(0)
        if arg in ("-V", "--version"):
            _version()
        name, eq, value = arg.partition("=")
        if name in ("--home", "--config"):
            if not eq:
                if not args:
                    top_error(f"Option '{name}' requires an argument.")
                value = args.pop(0)
            setattr(options, name[2:], value)
        else:
            top_error(f"No such option: {arg}")
    if not args:
        sys.stdout.write(_help("", SUMMARY, _top_rows(), True))
        sys.exit(2)
    word = args.pop(0)
    group = next((g for g in _cli_table.GROUPS if g[0] == word), None)
    name = word
    if group is not None:
        if not args or args[0] in ("-h", "--help"):
            sys.stdout.write(_help(f" {word}", group[1], _group_rows(word), False))
            sys.exit(0 if args else 2)
        name = f"{word} {args.pop(0)}"
    found = command(name)
    if found is None:
        if group is not None:
            sub = name.split(" ", 1)[1]
            usage_error(_group_usage(f" {word}"), f"{PROG} {word}", f"No such command '{sub}'.")
        top_error(f"No such command '{word}'.")
    parser = parser_for(found)
    ns = parser.parse_args(args)
    try:
        read(found, ns, parser)
        handler = _own(found)
        if handler is None:
            _run(found, ns, options)
        else:
            handler(ns, options, parser)
    except Exception as e:
        from ._native import Error

        if not isinstance(e, Error):
            raise
        from ._cli_common import _report

        _report("error", str(e))
        sys.exit(1)
