"""Each command's result as a person reads it (without ``--json``): the printer of every
command that runs an operation, by the command's name. A command the table gains without
a printer here fails the grammar test (``tests/test_cli_grammar.py``)."""

from __future__ import annotations

import sys
from typing import Any, Callable

from . import _cli_print as show
from . import _cli_print_code as code


def _refresh(result: Any, ns: Any) -> None:
    for root in result["roots"]:
        note = " (truncated at the file limit)" if root["truncated"] else ""
        sys.stdout.write(
            f"{root['root']}: {root['files']} files indexed{note}; "
            f"{root['added']} added, {root['updated']} updated, "
            f"{root['removed']} removed\n"
        )


def _paths(result: Any, ns: Any) -> None:
    if result["paths"]:
        sys.stdout.write("\n".join(result["paths"]) + "\n")


#: The printer of each command that runs an operation: ``printer(result, options)``.
PRINTERS: dict[str, Callable[[Any, Any], None]] = {
    "files refresh": _refresh,
    "files suggest": _paths,
    "code index": lambda r, ns: code.print_code_index(r, ns.seconds),
    "code update": lambda r, ns: code.print_code_index(r, ns.seconds, "Updated"),
    "code status": lambda r, ns: code.print_code_status(r),
    "code overview": lambda r, ns: code.print_code_overview(r),
    "code symbols": lambda r, ns: code.print_code_symbols(r),
    "code search": lambda r, ns: code.print_code_search(r),
    "code find": lambda r, ns: code.print_code_find(r),
    "code detail": lambda r, ns: code.print_code_detail(r),
    "code refs": lambda r, ns: code.print_code_refs(r),
    "code deps": lambda r, ns: code.print_code_deps(r),
    "code repos": lambda r, ns: code.print_code_repos(r),
    "code delete": lambda r, ns: code.print_code_delete(r),
    "docs index": lambda r, ns: show._print_index(r, "docs"),
    "docs query": lambda r, ns: show._print_docs_results(r, notes=False),
    "notes index": lambda r, ns: show._print_index(r, "notes"),
    "notes query": lambda r, ns: show._print_docs_results(r, notes=True),
    "search": lambda r, ns: show._print_session_results(r),
    "chunk": lambda r, ns: show._print_chunk(r),
    "index": lambda r, ns: show._print_sessions_index(r),
    "status": lambda r, ns: show._print_sessions_status(r),
}
