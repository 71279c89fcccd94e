"""The options every ``cc-search`` command spells the same way (README.md, "The command
line"): ``-C/--project-dir DIR``, ``-n/--limit N`` and ``--json``, and the hidden old
names some commands still accept."""

# No `from __future__ import annotations`: typer reads the parameters' annotations at
# run time (see cli.py).
from typing import Annotated, Any, Optional, TypeVar

import typer

T = TypeVar("T")

#: The help of `--json` on the commands whose output is JSON anyway (`call`).
JSON_ALWAYS = "Print the result as JSON: compact, on one line, as without --json."


def _project_dir_option(what: str) -> Any:
    """``-C/--project-dir DIR``: the project (or repository) a command works on; `what`
    says what it is for that command."""
    return Annotated[
        Optional[str],
        typer.Option(
            "--project-dir",
            "-C",
            metavar="DIR",
            help=f"{what} (default: $CLAUDE_PROJECT_DIR, else the current directory).",
            show_default=False,
        ),
    ]


def _limit_option(
    what: str, kind: Any = int, minimum: Optional[int] = 1, maximum: Optional[int] = None
) -> Any:
    """``-n/--limit N``: the most results a command prints (outside `minimum` and
    `maximum` a usage error; without them the core says what is allowed)."""
    return Annotated[
        kind,
        typer.Option(
            "--limit",
            "-n",
            metavar="N",
            min=minimum,
            max=maximum,
            help=what,
            show_default=False,
        ),
    ]


def _json_option(what: str) -> Any:
    """``--json``: `what` says what is printed."""
    return Annotated[bool, typer.Option("--json", help=what)]


def _compact_json_option(what: str) -> Any:
    """``--json`` of a command whose JSON is compact, on one line (`code …`): `what`
    says what it holds."""
    return _json_option(f"Print the result as compact JSON on one line: {what}.")


def _either(given: Optional[T], old: Optional[T], names: str) -> Optional[T]:
    """The value of an option given under its name or its hidden old one (`names`:
    "--new/--old"); both at once is a usage error unless they agree."""
    if old is None:
        return given
    if given is not None and given != old:
        new_name, old_name = names.split("/")
        raise typer.BadParameter(
            f"{old_name} is the old name of {new_name}: give one of them",
            param_hint=f"'{old_name}'",
        )
    return old
