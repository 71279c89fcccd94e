"""The ``cc-search`` command (:mod:`cc_search.cli`): the entry point of the package's
script and of ``python -m cc_search``."""

from __future__ import annotations


def main() -> None:
    from .cli import main as run

    run()
