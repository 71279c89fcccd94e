"""The ``cc-search`` command. ``cc-search grep …`` goes straight to its lean
implementation (an agent runs it where it would run ``rg``: it must start fast);
everything else goes through the full command line (:mod:`cc_search.cli`)."""

from __future__ import annotations

import sys


def main(prog_name: str | None = None) -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["grep"]:
        from ._grep_cli import main as grep

        sys.exit(grep(argv[1:]))
    from .cli import app

    app(prog_name=prog_name)
