"""``cc-search hook file-suggestion`` and ``cc-search hook session-start``: the commands
Claude Code runs, set up by ``cc-search install claude``.

The protocol is the core's (``files::hook``, shared with the npm package's Bun hooks):
what the input means, how much of it is read, what is printed, the session-start log and
its rotation, and whether a background refresh is due. Here: read stdin, make one native
call, write the answer, report on stderr, and start the refresh command (this CLI's
``files refresh``) when asked to. A hook never fails: the exit status is 0.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any, Callable

from ._cli_common import _open_quietly, _report, _self_argv, _shell_command, _warn_all

if TYPE_CHECKING:
    import argparse

    from .cli import Options

#: Longest wait for the hook input to end, in seconds.
HOOK_INPUT_TIMEOUT = 2.0


def _read_hook_input() -> bytes:
    """The hook's JSON from stdin: nothing when stdin is closed or a terminal; at most
    the core's limit, up to the first complete JSON object, and no longer than
    HOOK_INPUT_TIMEOUT if the writer never closes the pipe."""
    from . import _native

    limit = _native.HOOK_INPUT_LIMIT
    stream = sys.stdin
    if stream is None:
        return b""
    try:
        fd = stream.fileno()
        if os.isatty(fd):
            return b""
    except (OSError, ValueError):
        return b""
    try:
        import select
    except ImportError:  # pragma: no cover - every supported platform has it
        select = None  # type: ignore[assignment]
    chunks: list[bytes] = []
    size = 0
    deadline = time.monotonic() + HOOK_INPUT_TIMEOUT
    while size < limit:
        if select is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                ready, _, _ = select.select([fd], [], [], remaining)
            except (OSError, ValueError):
                ready = [fd]
            if not ready:
                break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if _native.hook_input_complete(b"".join(chunks)):
            break
    return b"".join(chunks)[:limit]


def _run_hook(options: Options, name: str, project_dir: str | None) -> Any:
    """The core's answer to hook `name` for this process's stdin (see `_native.Engine.hook`).
    Warnings of opening the engine are in the answer (file-suggestion) or the refresh's
    to log (session-start)."""
    data = _read_hook_input()
    engine, _ = _open_quietly(options)
    with engine:
        return engine._native.hook(name, data, project_dir)


def _hook_failed(hook: str, error: BaseException | str) -> None:
    # A hook must not fail, not even on a closed stderr.
    with contextlib.suppress(Exception):
        _report("error", f"hook {hook}: {error}")


def hook_file_suggestion(ns: argparse.Namespace, options: Options, parser: Any) -> None:
    """Claude Code's fileSuggestion command: reads {"query": "..."} on stdin and prints up
    to 15 paths of the project, one a line; no input at all lists the top files. Never
    fails: on an error (input that is not that JSON among them) stdout stays empty, one
    line on stderr says why, the status is 0."""
    try:
        answer = _run_hook(options, "file-suggestion", ns.project_dir)
    except Exception as e:
        _hook_failed("file-suggestion", e)
        return
    if answer["error"] is not None:
        _hook_failed("file-suggestion", answer["error"])
        return
    try:
        sys.stdout.write(answer["stdout"])
        sys.stdout.flush()
    except OSError as e:  # the picker went away
        _hook_failed("file-suggestion", e)
        _silence_stdout()
        return
    _warn_all(answer["warnings"])


def _silence_stdout() -> None:
    """After a failed write, keep the interpreter's final flush of stdout quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def hook_session_start(ns: argparse.Namespace, options: Options, parser: Any) -> None:
    """Claude Code's SessionStart hook: starts `cc-search files refresh` for the project's session
    in the background, logging to
    <data root>/logs/session-start.log, and returns at once. Reads and ignores the hook's
    JSON on stdin; prints nothing on stdout; the status is always 0."""
    try:
        answer = _run_hook(options, "session-start", ns.project_dir)
        if answer["error"] is not None:
            _hook_failed("session-start", answer["error"])
            return
        refresh = answer["refresh"]
        if refresh is None:
            return
        # Without a DIR the refresh covers the session: the project, the configured
        # roots and the project's additional directories.
        argv = [*_self_argv(options), "files", "refresh", "--project-dir", refresh["project_dir"]]
        with open(refresh["log"], "ab") as log:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
            log.write(f"{stamp} session-start: {_shell_command(argv)}\n".encode())
            log.flush()
            subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                close_fds=True,
                start_new_session=True,
            )
    except Exception as e:
        _hook_failed("session-start", e)


#: The hooks, by command name.
HOOKS: dict[str, Callable[[argparse.Namespace, Options, Any], None]] = {
    "hook file-suggestion": hook_file_suggestion,
    "hook session-start": hook_session_start,
}
