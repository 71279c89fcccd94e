"""Native core of cc-search (Rust, pyo3). Use the `cc_search` package instead."""

import os
from collections.abc import Callable, Sequence
from typing import final

__version__: str

def version() -> str:
    """The version of the cc-search core (``MAJOR.MINOR.PATCH``)."""

def operations() -> str:
    """The operation table as JSON: ``[{"name", "summary", "request", "response"}]``."""

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
        reports progress."""
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
