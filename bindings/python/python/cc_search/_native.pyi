"""Native core of cc-search (Rust, pyo3). Use the `cc_search` package instead."""

import os
from collections.abc import Callable, Sequence
from typing import TypedDict, final

__version__: str

HOOK_INPUT_LIMIT: int
"""Most bytes of a Claude Code hook's stdin read; the rest is ignored."""

class HookRefresh(TypedDict):
    """A refresh of the project's session roots to start now, detached."""

    project_dir: str
    """The project, absolute."""
    log: str
    """The log to append the refresh's output to (already rotated)."""

class HookAnswer(TypedDict):
    """What a Claude Code hook answers (:meth:`Engine.hook`)."""

    stdout: str
    """The hook's whole stdout: empty, or lines each ending in a newline."""
    warnings: list[str]
    """Lines for stderr once stdout is written (one line each, no prefix)."""
    error: str | None
    """Why the hook could not do its work (one line); stdout is then empty."""
    refresh: HookRefresh | None

def hook_input_complete(input: bytes) -> bool:
    """Whether the bytes of a hook's stdin read so far hold one complete JSON object."""

def version() -> str:
    """The version of the cc-search core (``MAJOR.MINOR.PATCH``)."""

def operations() -> str:
    """The operation table as JSON: ``[{"name", "summary", "request", "response"}]``."""

def agent_answer(
    op: str, result_json: str, max_tokens: int | None = None, view: bool = True
) -> str:
    """Operation ``op``'s result (its JSON text) as an agent reads it: short keys, each
    file once, within ``max_tokens`` when given (what the MCP tools answer). With
    ``view=False`` the result keeps its full names and is only cut to ``max_tokens``."""

def outline_parts(symbol_json: str) -> tuple[str, str]:
    """How an outline names a symbol, from its JSON: its kind and name, or for an ``impl``
    the parts of its signature's head (``impl<S>``, ``Clone for Router<S>``)."""

def error_codes() -> list[str]:
    """Every error code an exception's ``code`` can hold."""

@final
class Engine:
    """An open cc-search engine; every call releases the GIL."""

    def __init__(
        self,
        home: str | os.PathLike[str] | None = None,
        config_path: str | os.PathLike[str] | None = None,
    ) -> None: ...
    def call(
        self,
        op: str,
        params_json: str,
        progress: Callable[[str, int, int], object] | None = None,
    ) -> str:
        """Run operation ``op`` with JSON parameters (``""`` for the defaults); return
        its JSON result. ``progress(stage, done, total)`` is called as the operation
        reports progress. Ctrl-C stops it within a fraction of a second
        (``KeyboardInterrupt``), keeping what it committed."""
    def call_bytes(self, op: str, params_json: str) -> bytes:
        """Like :meth:`call`, the JSON result as UTF-8 bytes (for writing it out as it
        is)."""
    def cancel_running(self) -> None:
        """Stop every call running on this engine now (``CancelledError``)."""
    def hook(
        self,
        name: str,
        input: bytes,
        project_dir: str | os.PathLike[str] | None = None,
    ) -> HookAnswer:
        """Answer a Claude Code hook for the bytes of its stdin (the core's protocol);
        its failures are in ``error``."""
    def close(self) -> None:
        """Release the databases; later calls raise ``InvalidRequestError``."""
    @property
    def closed(self) -> bool: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def home(self) -> str: ...
    @property
    def config_path(self) -> str: ...

@final
class McpServer:
    """An MCP server over an engine (JSON-RPC 2.0, one message a line)."""

    def __init__(
        self,
        engine: Engine,
        roots: Sequence[str | os.PathLike[str]] | None = None,
        *,
        tools: Sequence[str] | None = None,
        max_tokens: int | None = None,
        structured: bool | None = None,
    ) -> None: ...
    @property
    def tools(self) -> list[str]:
        """The names of the tools ``tools/list`` offers, in its order."""
    def handle(self, message: str) -> str | None:
        """The reply to one message, or ``None`` for a notification."""
    def serve_stdio(self) -> None:
        """Serve on stdin/stdout (fds 0 and 1), GIL released, until stdin ends."""
    @property
    def roots(self) -> list[str]: ...
    @property
    def warnings(self) -> list[str]: ...

class Error(Exception):
    """Base class of every cc-search error."""

    code: str
    """Stable machine-readable code, one of :func:`error_codes`."""

class InvalidRequestError(Error, ValueError):
    """Malformed request: invalid JSON, a missing or mistyped field, a value out of range."""

class UnknownOperationError(Error, ValueError):
    """No operation has this name."""

class IoError(Error, OSError):
    """A filesystem operation failed (a missing directory, a permission denied)."""

class DatabaseError(Error):
    """A SQLite operation failed."""

class InternalError(Error, RuntimeError):
    """A bug or an impossible state in cc-search."""

class CancelledError(Error):
    """The call stopped because :meth:`Engine.cancel_running` asked it to."""
