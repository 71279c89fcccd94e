"""``cc-search grep``: checkfor's flags over the ``grep.search`` operation, compact JSON.

An agent's shell runs it where it would run ``rg``, so it stays lean: the native module
and nothing else, and the JSON the core writes goes to stdout as it is instead of being
parsed and written again in Python. Warnings go to stderr, one line each.
"""

from __future__ import annotations

import sys

from ._cli_common import _report, _warn_all

# Not `typing.TYPE_CHECKING`: importing typing would cost `cc-search grep`'s start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from .cli import Options


def split_warnings(text: bytes) -> tuple[bytes, list[str]]:
    """The JSON result without its ``warnings``, and the warnings. ``warnings`` is the
    last key the core writes, and ``,"warnings":[`` can only be that key: inside a JSON
    string every quote is escaped."""
    at = text.rfind(b',"warnings":[')
    if at < 0:
        return text, []
    import json

    return text[:at] + b"}", json.loads(text[at + len(b',"warnings":') : -1])


def run(ns: argparse.Namespace, options: Options, parser: Any) -> None:
    """Run ``cc-search grep`` with the parsed options; exits with its status."""
    import json

    from . import _native
    from ._native import Error
    from .cli import command, request

    grep = command("grep")
    assert grep is not None
    if ns.dir is None and ns.project_dir is not None:
        ns.dir = [ns.project_dir]
    params = request(grep, ns)
    try:
        engine = _native.Engine(options.home, options.config)
        _warn_all(engine.warnings)
        text = engine.call_bytes("grep.search", json.dumps(params, ensure_ascii=False))
    except Error as e:
        _report("error", str(e))
        sys.exit(1)
    except KeyboardInterrupt:
        _report("error", "interrupted")
        sys.exit(130)
    result, warnings = split_warnings(text)
    _warn_all(warnings)
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
    sys.exit(1 if failed else 0)
