"""The commands that run no single operation of their own: ``ops`` (the operation
table), ``call`` (any operation by name) and ``mcp`` (the MCP server)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Callable

from ._cli_common import _open, _print_json, _warn_all

if TYPE_CHECKING:
    import argparse

    from .cli import Options


def ops(ns: argparse.Namespace, options: Options, parser: Any) -> None:
    from . import operations

    table = operations()
    if ns.json:
        _print_json(table)
        return
    width = max((len(op["name"]) for op in table), default=0)
    for op in table:
        sys.stdout.write(f"{op['name']:<{width}}  {op['summary']}\n")


def call(ns: argparse.Namespace, options: Options, parser: Any) -> None:
    with _open(options) as engine:
        sys.stdout.write(engine.call_json(ns.op, ns.params or "") + "\n")


def mcp(ns: argparse.Namespace, options: Options, parser: Any) -> None:
    import signal

    from . import _native

    # The loop runs in Rust without the GIL: Ctrl-C ends the process rather than waiting
    # for Python to see it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    named = ([ns.project_dir] if ns.project_dir is not None else []) + (ns.roots or [])
    given = [os.path.abspath(os.path.expanduser(root)) for root in named]
    with _open(options) as engine:
        server = _native.McpServer(
            engine._native,
            given or None,
            tools=ns.tools or None,
            max_tokens=ns.max_tokens,
            structured=ns.structured,
        )
        _warn_all(server.warnings)
        sys.stdout.flush()
        server.serve_stdio()


#: The handlers, by command name: ``handler(options, data root, parser)``.
OWN: dict[str, Callable[[argparse.Namespace, Options, Any], None]] = {
    "ops": ops,
    "call": call,
    "mcp": mcp,
}
