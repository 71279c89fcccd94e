"""The request and result types of every cc-search operation, as TypedDicts.

Generated from the operation table by ``make bindings`` (with ``_operations.py``): do not
edit. Reach them as ``cc_search.<Name>``: the package loads this module on first use.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Literal, TypedDict, Union

__all__ = [
    "ClaudeInstallMcpRequest",
    "ClaudeInstallMcpResponse",
    "ClaudeInstallRequest",
    "ClaudeInstallResponse",
    "ClaudeScope",
    "CodeDeleteRequest",
    "CodeDeleteResponse",
    "CodeDependenciesRequest",
    "CodeDependenciesResponse",
    "CodeDependency",
    "CodeDirectorySummary",
    "CodeEntryPoint",
    "CodeFileSymbolsRequest",
    "CodeFileSymbolsResponse",
    "CodeFindRequest",
    "CodeFindResponse",
    "CodeFoundCode",
    "CodeFoundFile",
    "CodeIndexRequest",
    "CodeIndexResponse",
    "CodeIndexStats",
    "CodeOverviewRequest",
    "CodeOverviewResponse",
    "CodeRefSource",
    "CodeRefTarget",
    "CodeReferencesRequest",
    "CodeReferencesResponse",
    "CodeRepo",
    "CodeReposRequest",
    "CodeReposResponse",
    "CodeSearchRequest",
    "CodeSearchResponse",
    "CodeStatusRequest",
    "CodeStatusResponse",
    "CodeSymbol",
    "CodeSymbolDetailRequest",
    "CodeSymbolDetailResponse",
    "CodeUpdateRequest",
    "DocsHit",
    "DocsIndexRequest",
    "DocsIndexResponse",
    "DocsQueryRequest",
    "DocsQueryResponse",
    "EmbedRequest",
    "EmbedResponse",
    "FilesRefreshRequest",
    "FilesRefreshResponse",
    "FilesSuggestRequest",
    "FilesSuggestResponse",
    "GrepBelow",
    "GrepDirectory",
    "GrepFile",
    "GrepMatch",
    "GrepRequest",
    "GrepResponse",
    "NotesIndexRequest",
    "NotesQueryRequest",
    "ProgressCallback",
    "RootRefresh",
    "SearchMode",
    "SessionsChunkKind",
    "SessionsChunkRequest",
    "SessionsChunkResponse",
    "SessionsContextMessage",
    "SessionsGroupPart",
    "SessionsHit",
    "SessionsIndexRequest",
    "SessionsIndexResponse",
    "SessionsProject",
    "SessionsSearchRequest",
    "SessionsSearchResponse",
    "SessionsSince",
    "SessionsStatusRequest",
    "SessionsStatusResponse",
    "StrPath",
]

#: A filesystem path: ``str`` or any ``os.PathLike`` (``pathlib.Path``, ...).
StrPath = Union[str, "os.PathLike[str]"]

#: Called as ``progress(stage, done, total)`` on the calling thread while an operation reports
#: progress; the methods that take it: :meth:`~cc_search.Engine.code_find`,
#: :meth:`~cc_search.Engine.code_index`, :meth:`~cc_search.Engine.docs_index`,
#: :meth:`~cc_search.Engine.files_refresh`, :meth:`~cc_search.Engine.notes_index`,
#: :meth:`~cc_search.Engine.sessions_index`, :meth:`~cc_search.Engine.sessions_search`.
ProgressCallback = Callable[[str, int, int], object]


#: A chunk kind of the session index.
SessionsChunkKind = Literal["user", "assistant", "tool", "thinking", "summary"]


# ── claude.install ──


class ClaudeInstallRequest(TypedDict, total=False):
    """Parameters of ``claude.install``."""

    scope: ClaudeScope
    """``user`` (default): ``<config dir>/settings.json``; ``project``:
    ``<project_dir>/.claude/settings.json``.
    """
    project_dir: str | None
    """The project, for scope ``project``; defaults to ``$CLAUDE_PROJECT_DIR``, else the current
    directory. Must exist.
    """
    file_suggestion_command: str
    """The shell command Claude Code runs for ``@`` suggestions. Required to install."""
    session_start_command: str
    """The shell command of the ``SessionStart`` hook. Required to install."""
    uninstall: bool
    """Remove cc-search's entries instead of adding them. The commands are optional then; when
    given, they are recognised as cc-search's too.
    """


#: Which file ``Install`` and ``InstallMcp`` edit.
#:
#: - ``"user"``: The user's own: ``settings.json`` in Claude Code's configuration directory
#:   (``config_dir``) for ``claude.install``, Claude Code's state file (``user_state_file``,
#:   ``~/.claude.json``) for ``claude.install_mcp``.
#: - ``"project"``: The project's: ``.claude/settings.json`` for ``claude.install``, ``.mcp.json``
#:   (shared with everyone who works on it) for ``claude.install_mcp``.
ClaudeScope = Literal["user", "project"]


class ClaudeInstallResponse(TypedDict):
    """Result of ``claude.install``."""

    settings_path: str
    """The settings file (as addressed; a symbolic link is followed for the write)."""
    changed: bool
    """Whether the file was rewritten. ``false``: it already said what it should."""
    backup: str | None
    """The one backup of the file, in the data root: the previous content, kept before it was
    replaced or deleted (``null`` when nothing was written or there was no previous file).
    """
    changes: list[str]
    """What changed, one line each, for people."""
    warnings: list[str]
    """Anything worth knowing (a replaced ``fileSuggestion`` of another program, …)."""


# ── claude.install_mcp ──


class ClaudeInstallMcpRequest(TypedDict, total=False):
    """Parameters of ``claude.install_mcp``."""

    scope: ClaudeScope
    """``user`` (default): Claude Code's ``~/.claude.json`` (``$CLAUDE_CONFIG_DIR/.claude.json``
    when set); ``project``: ``<project_dir>/.mcp.json``.
    """
    project_dir: str | None
    """The project, for scope ``project``; defaults to ``$CLAUDE_PROJECT_DIR``, else the current
    directory. Must exist.
    """
    name: str
    """The server's name in Claude Code (letters, digits, ``-`` and ``_``)."""
    command: str
    """The program Claude Code starts (no shell): an absolute path, or a name looked up on the
    PATH Claude Code runs with. Required to install.
    """
    args: list[str]
    """Its arguments (e.g. ``["mcp"]``)."""
    uninstall: bool
    """Remove the server instead of adding it. ``command`` and ``args`` are optional then; when
    given, an entry running exactly them is recognised as cc-search's too.
    """


class ClaudeInstallMcpResponse(TypedDict):
    """Result of ``claude.install_mcp``."""

    path: str
    """The file edited (as addressed; a symbolic link is followed for the write)."""
    changed: bool
    """Whether the file was rewritten (or deleted). ``false``: it already said what it should."""
    changes: list[str]
    """What changed, one line each, for people."""
    warnings: list[str]
    """Anything worth knowing (a command not found here, another program's entry left in place,
    …).
    """


# ── code.delete_repos ──


class CodeDeleteRequest(TypedDict, total=False):
    """Parameters of ``code.delete_repos``."""

    paths: list[str]
    """Repository roots whose index to delete (they need not exist any more)."""
    all: bool
    """Delete every code index instead (with ``within``: every one under it)."""
    within: list[str]
    """Only what is stored for repositories under these directories (absent or empty: all):
    ``all`` deletes only those, and a ``paths`` entry outside them is refused. The MCP server
    sets it to its roots.
    """


class _CodeDeleteResponseRequired(TypedDict):
    deleted: list[str]
    """Repositories whose index was deleted, by path."""


class CodeDeleteResponse(_CodeDeleteResponseRequired, total=False):
    """Result of ``code.delete_repos``."""

    not_found: list[str]
    """Paths given that had no index."""


# ── code.find ──


class CodeFindRequest(TypedDict, total=False):
    """Parameters of ``code.find``."""

    path: str | None
    """Repository root. Defaults to the project directory."""
    query: str
    """What to find, in free text: an issue, a stack trace, a question (first 16 KiB)."""
    limit: int | None
    """Most files, and most definitions (default 10)."""


class _CodeFindResponseRequired(TypedDict):
    files: list[CodeFoundFile]
    """Files, best first."""
    hits: list[CodeFoundCode]
    """The definitions to change, best first: up to ``limit``, each in a listed file."""
    used: list[str]
    """The sides that ranked: ``keyword``, ``structure``, ``meaning`` (not without the embedding
    model).
    """


class CodeFindResponse(_CodeFindResponseRequired, total=False):
    """Result of ``code.find``."""

    warnings: list[str]
    """Problems met; left out when empty."""


class CodeFoundFile(TypedDict):
    """A file ``code.find`` ranks."""

    path: str
    """Path relative to the repository root."""
    score: float
    """Score (higher is better; comparable within one answer only)."""


class _CodeFoundCodeRequired(TypedDict):
    path: str
    """Its file (one of ``files``), relative to the repository root."""
    id: int
    """Symbol id (for ``get_symbol_detail``, ``get_references``, ``get_dependencies``)."""
    name: str
    """Name."""
    kind: str
    """Kind."""
    start_line: int
    """First line (1-based)."""
    end_line: int
    """Last line."""


class CodeFoundCode(_CodeFoundCodeRequired, total=False):
    """A definition ``code.find`` points at."""

    snippet: str
    """Its signature, shortened, or its first line."""


# ── code.get_dependencies ──


class CodeDependenciesRequest(TypedDict, total=False):
    """Parameters of ``code.get_symbol_detail`` and ``code.get_dependencies``."""

    path: str | None
    """Repository root. Defaults to the project directory."""
    id: int
    """The symbol's id (from a search, an overview or a file's symbols)."""


class CodeDependenciesResponse(TypedDict):
    """Result of ``code.get_dependencies``."""

    id: int
    """The symbol."""
    dependencies: list[CodeDependency]
    """What it refers to, in line order."""


class _CodeDependencyRequired(TypedDict):
    to_name: str
    """The name referred to."""
    kind: str
    """``call``, ``import``, ``type_ref``, ``extends`` or ``implements``."""


class CodeDependency(_CodeDependencyRequired, total=False):
    """One dependency of a symbol."""

    to_id: int
    """The symbol it resolved to."""
    external: Literal[True]
    """Present (``true``) when it resolved to nothing in the index (the standard library, a
    dependency, a builtin).
    """
    ambiguous: bool
    """Present (``true``) when several definitions could be meant and none is linked:
    ``candidates`` lists some.
    """
    candidates: list[int]
    """With ``ambiguous``: ids of definitions it could mean (at most five)."""


# ── code.get_file_symbols ──


class CodeFileSymbolsRequest(TypedDict, total=False):
    """Parameters of ``code.get_file_symbols``."""

    path: str | None
    """Repository root. Defaults to the project directory."""
    file: str
    """The file: relative to the repository root, or absolute inside it."""


class _CodeFileSymbolsResponseRequired(TypedDict):
    path: str
    """The file, relative to the repository root."""
    symbols: list[CodeSymbol]
    """Its top-level symbols in line order, each with its ``children``."""


class CodeFileSymbolsResponse(_CodeFileSymbolsResponseRequired, total=False):
    """Result of ``code.get_file_symbols``."""

    warnings: list[str]
    """Problems met; left out when empty."""


class _CodeSymbolRequired(TypedDict):
    id: int
    """Symbol id (for ``get_symbol_detail``, ``get_references``, ``get_dependencies``)."""
    name: str
    """Name."""
    kind: str
    """Kind (``fn``, ``method``, ``class``, …)."""
    path: str
    """File, relative to the repository root (``/``-separated)."""
    start_line: int
    """First line (1-based)."""
    end_line: int
    """Last line."""


class CodeSymbol(_CodeSymbolRequired, total=False):
    """A symbol as lists show it: where it is, its signature and doc shortened."""

    signature: str
    """Signature, normalised and shortened."""
    doc: str
    """Doc comment, shortened."""
    declaration: bool
    """A function or method that only declares what others implement (no body, or a stub of one:
    a trait's or interface's method, an abstract method, a hookspec); left out when false.
    """
    within: str
    """In search results, the name of the symbol it is defined in (a method's class, a nested
    function's function); left out at a file's top level and in file views.
    """
    children: list[CodeSymbol]
    """Symbols defined inside it (file views), each of this same shape."""


# ── code.get_overview ──


class CodeOverviewRequest(TypedDict, total=False):
    """Parameters of ``code.get_overview``."""

    path: str | None
    """Repository root. Defaults to the project directory."""


class _CodeOverviewResponseRequired(TypedDict):
    repo: str
    """Repository name (its directory's name)."""
    languages: dict[str, int]
    """Files per language."""
    directories: list[CodeDirectorySummary]
    """Directories two levels deep, each with the files and symbols at and below it, by path —
    at most ``OVERVIEW_DIRECTORIES``, the largest.
    """
    samples: list[CodeDirectorySummary]
    """Test fixtures, examples and samples (``fixtures/``, ``examples/``, ``testdata/``…),
    counted apart from the code.
    """
    top_types: list[CodeSymbol]
    """The most referenced top-level types (classes, structs, interfaces, traits, enums) outside
    tests and samples.
    """
    entry_points: list[CodeEntryPoint]
    """What starts a program: declared commands first, then ``python -m`` modules and ``main``
    functions.
    """
    docs: dict[str, int]
    """Documentation files (what ``docs.query`` searches) per top directory (``.`` for the root's
    own).
    """


class CodeOverviewResponse(_CodeOverviewResponseRequired, total=False):
    """Result of ``code.get_overview``."""

    more_directories: int
    """Smaller directories not listed."""
    warnings: list[str]
    """Problems met; left out when empty."""


class CodeDirectorySummary(TypedDict):
    """A directory of the repository in an overview, with what is below it."""

    path: str
    """Directory, relative (``.`` for the root's own files)."""
    files: int
    """Files indexed in it and below."""
    symbols: int
    """Symbols in those files."""


class _CodeEntryPointRequired(TypedDict):
    name: str
    """The command's name (a console script, an npm or Cargo binary), the package's name for
    ``package.json``'s ``main`` and a ``__main__.py``, or ``main``.
    """
    declared_in: str
    """What declares it: ``pyproject.toml``, ``setup.cfg``, ``setup.py``, ``package.json``,
    ``Cargo.toml`` (each with its directory when not the root), ``python -m``, or ``main``.
    """


class CodeEntryPoint(_CodeEntryPointRequired, total=False):
    """Where a program starts."""

    target: str
    """What the declaration names, as written (``pkg.cli:main``, ``bin/cli.js``); empty for
    ``main`` functions and ``__main__.py``.
    """
    path: str
    """The file it runs, relative to the repository root, when known."""
    id: int
    """The function it runs, when the index has it: its symbol id…"""
    start_line: int
    """…and lines."""
    end_line: int
    """Last line."""


# ── code.get_references ──


class CodeReferencesRequest(TypedDict, total=False):
    """Parameters of ``code.get_references``."""

    path: str | None
    """Repository root. Defaults to the project directory."""
    id: int
    """The symbol's id (from a search, an overview or a file's symbols)."""
    offset: int
    """How many references to skip, in the answer's order: an answer cut short names the
    ``offset`` of the rest.
    """


class _CodeReferencesResponseRequired(TypedDict):
    id: int
    """The symbol."""
    total: int
    """How many references it has in all."""
    references: list[CodeRefSource]
    """References to it, by file and line: the sure ones, then those that may mean it (from
    ``offset`` on).
    """


class CodeReferencesResponse(_CodeReferencesResponseRequired, total=False):
    """Result of ``code.get_references``."""

    offset: int
    """How many were skipped (the request's ``offset``)."""


class _CodeRefSourceRequired(TypedDict):
    path: str
    """The referring file, relative to the repository root."""
    kind: str
    """``call``, ``import``, ``type_ref``, ``extends``, ``implements`` or ``value`` (read, passed
    on, assigned).
    """
    line: int
    """Line of the reference."""


class CodeRefSource(_CodeRefSourceRequired, total=False):
    """A reference to a symbol, from where it is made."""

    from_id: int
    """The referring symbol's id; absent for a file's top level (an import)."""
    from_name: str
    """The referring symbol's name."""
    maybe: bool
    """Present (``true``) when the reference may mean this symbol or another of its name (its
    target is ambiguous: a method called on a value of unknown type); these come after the
    sure ones.
    """
    via: str
    """With ``maybe``, for a call of a method this one overrides or implements (which may run
    this one): that method, as ``Type.method``.
    """


# ── code.get_symbol_detail ──


class CodeSymbolDetailRequest(TypedDict, total=False):
    """Parameters of ``code.get_symbol_detail`` and ``code.get_dependencies``."""

    path: str | None
    """Repository root. Defaults to the project directory."""
    id: int
    """The symbol's id (from a search, an overview or a file's symbols)."""


class _CodeSymbolDetailResponseRequired(TypedDict):
    id: int
    """Id."""
    name: str
    """Name."""
    kind: str
    """Kind."""
    path: str
    """File, relative to the repository root."""
    start_line: int
    """First line (1-based)."""
    end_line: int
    """Last line."""


class CodeSymbolDetailResponse(_CodeSymbolDetailResponseRequired, total=False):
    """Result of ``code.get_symbol_detail``."""

    signature: str
    """Full signature."""
    doc: str
    """Full doc comment."""
    declaration: bool
    """A function or method that only declares what others implement (no body, or a stub of one);
    left out when false.
    """
    parent: CodeSymbol
    """The symbol it is defined in (without signature and doc)."""
    children: list[CodeSymbol]
    """Symbols defined in it (without signatures and docs)."""
    calls: list[CodeRefTarget]
    """What it calls."""
    called_by: list[CodeRefSource]
    """Who refers to it."""
    type_refs: list[CodeRefTarget]
    """The types it names, extends or implements, and the definitions it uses as values (kind
    ``value``).
    """


class _CodeRefTargetRequired(TypedDict):
    name: str
    """The name referred to."""


class CodeRefTarget(_CodeRefTargetRequired, total=False):
    """A symbol another refers to."""

    id: int
    """The symbol it resolved to; absent when it is outside the index."""
    kind: str
    """Reference kind when not implied by the list (``extends``, ``implements``)."""
    external: Literal[True]
    """Present (``true``) when the name resolved to nothing in the index (the standard library, a
    dependency, a builtin).
    """
    ambiguous: bool
    """Present (``true``) when several definitions could be meant (a method called on a value of
    unknown type) and none is linked: ``candidates`` lists some.
    """
    candidates: list[int]
    """With ``ambiguous``: ids of definitions it could mean (at most five)."""


# ── code.index_repository ──


class CodeIndexRequest(TypedDict, total=False):
    """Parameters of ``code.index_repository``."""

    path: str | None
    """Repository root. Defaults to the project directory."""
    force: bool
    """Re-parse every file, changed or not."""


class _CodeIndexResponseRequired(TypedDict):
    status: Literal["ok"]
    """``ok``."""
    stats: CodeIndexStats
    """Totals."""
    new: int
    """Files indexed for the first time."""
    changed: int
    """Files re-parsed because their content changed."""
    unchanged: int
    """Files left as they were."""
    deleted: int
    """Files removed from the index."""


class CodeIndexResponse(_CodeIndexResponseRequired, total=False):
    """Result of ``code.index_repository`` and ``code.update_files``."""

    skipped: int
    """Files not indexed (binary, too large, unreadable); see ``warnings``."""
    warnings: list[str]
    """What was skipped and why; left out when empty."""


class CodeIndexStats(TypedDict):
    """Counts of an index run."""

    files: int
    """Files indexed (source files the repository has, as far as this run looked)."""
    symbols: int
    """Symbols in the index."""
    refs: int
    """References in the index."""


# ── code.index_status ──


class CodeStatusRequest(TypedDict, total=False):
    """Parameters of ``code.index_status``."""

    path: str | None
    """Repository root. Defaults to the project directory."""


class _CodeStatusResponseRequired(TypedDict):
    repo: str
    """Repository root."""
    indexed: bool
    """Whether it has been indexed."""
    files: int
    """Files in the index."""
    symbols: int
    """Symbols in the index."""
    refs: int
    """References in the index."""
    languages: dict[str, int]
    """Files per language."""


class CodeStatusResponse(_CodeStatusResponseRequired, total=False):
    """Result of ``code.index_status``."""

    indexed_at: int
    """When it was last indexed (Unix seconds)."""
    stale: int
    """Files whose size or mtime changed since (count)."""
    stale_files: list[str]
    """Some of them (at most 50), sorted."""
    deleted: int
    """Indexed files that no longer exist (count)."""
    deleted_files: list[str]
    """Some of them (at most 50), sorted."""
    new: int
    """Source files not indexed yet (count)."""
    warnings: list[str]
    """Problems met; left out when empty."""


# ── code.list_repos ──


class CodeReposRequest(TypedDict, total=False):
    """Parameters of ``code.list_repos``."""

    within: list[str]
    """Only what is stored for repositories under these directories (absent or empty: all). The
    MCP server sets it to its roots.
    """


class _CodeReposResponseRequired(TypedDict):
    repos: list[CodeRepo]
    """Indexed repositories, by path."""


class CodeReposResponse(_CodeReposResponseRequired, total=False):
    """Result of ``code.list_repos``."""

    warnings: list[str]
    """Databases that could not be read (only without ``within``: their repository is unknown);
    left out when empty.
    """


class _CodeRepoRequired(TypedDict):
    path: str
    """Repository root."""
    files: int
    """Files indexed."""
    symbols: int
    """Symbols indexed."""
    database: str
    """Its database file."""


class CodeRepo(_CodeRepoRequired, total=False):
    """One indexed repository."""

    indexed_at: int
    """When it was last indexed (Unix seconds)."""


# ── code.search_symbols ──


class CodeSearchRequest(TypedDict, total=False):
    """Parameters of ``code.search_symbols``."""

    path: str | None
    """Repository root. Defaults to the project directory."""
    query: str
    """FTS5 query: words match names, their subwords (``user`` finds ``getUserById``), docs,
    kinds and paths; ``repo*`` is a prefix; ``AND``, ``OR``, ``NOT`` and quotes work. Text
    that is not a valid query is searched as plain words.
    """
    kind: str | None
    """Only symbols of this kind (``fn``, ``method``, ``class``, …)."""
    limit: int | None
    """Most results (default 20, or the project's ``search.max_results``)."""


class _CodeSearchResponseRequired(TypedDict):
    query: str
    """The query."""
    hits: list[CodeSymbol]
    """Matches, best first (BM25)."""


class CodeSearchResponse(_CodeSearchResponseRequired, total=False):
    """Result of ``code.search_symbols``."""

    warnings: list[str]
    """Problems met; left out when empty."""


# ── code.update_files ──


class CodeUpdateRequest(TypedDict, total=False):
    """Parameters of ``code.update_files``."""

    path: str | None
    """Repository root. Defaults to the project directory."""
    files: list[str]
    """Files to re-index: absolute, or relative to the repository root. A file that no longer
    exists is removed from the index.
    """


# ── docs.index ──


class DocsIndexRequest(TypedDict, total=False):
    """Parameters of ``docs.index``."""

    project_dir: str | None
    """A directory of the project; defaults to ``$CLAUDE_PROJECT_DIR``, else the current
    directory. The project root is its git work tree's root.
    """
    globs: list[str]
    """More files to index: globs relative to the project root (``*`` stays within one directory,
    ``**`` crosses them, ``{a,b}`` alternates), remembered for the project, so every later run
    (the automatic one before a query too) indexes them as well. Always indexed: top-level
    docs such as the README, ``doc/``, ``docs/``, ``{apps,packages}/*/docs/``, each package's
    README and docs directories (Markdown, reStructuredText) and a Rust crate's ``//!`` guide
    in its ``src/lib.rs``.
    """
    forget: bool
    """Forget the remembered globs (those in ``globs``, or all) and drop the files only they
    matched from the index.
    """
    keyword_only: bool
    """Split and store only: new sections are searchable by keyword at once, by meaning once a
    later run embeds them.
    """
    lock_wait_secs: int | None
    """Seconds to wait for another index run's lock (default 30)."""


class DocsIndexResponse(TypedDict):
    """Result of ``docs.index`` and ``notes.index``."""

    project: str
    """The project's name (its root directory's name)."""
    branch: str
    """The branch indexed: the one HEAD names (also before the first commit), ``detached@<7
    hex>`` on a detached HEAD; empty outside git, and for notes, which belong to no branch.
    """
    root: str
    """The project root."""
    globs: list[str]
    """The globs remembered for the project (docs), indexed beside the defaults."""
    files: int
    """Files found."""
    unchanged: int
    """Files skipped: mtime and size unchanged."""
    touched: int
    """Files whose mtime changed but whose content did not: only the mtime was updated."""
    indexed: int
    """Files (re)chunked: new or changed."""
    removed: int
    """Files gone since the last run, removed from the index."""
    sections_written: int
    """Sections new or changed (text, or the branch they are on)."""
    sections_removed: int
    """Sections removed."""
    embedded: int
    """Section windows the model embedded now (the others came from the vector cache)."""
    pending_vectors: int
    """This project's sections (on this branch, for docs) still without vectors (no model
    available).
    """
    warnings: list[str]
    """Skipped files and anything else worth telling."""


# ── docs.query ──


class DocsQueryRequest(TypedDict, total=False):
    """Parameters of ``docs.query``."""

    query: str
    """What to look for (any text)."""
    project_dir: str | None
    """A directory of the project; defaults to ``$CLAUDE_PROJECT_DIR``, else the current
    directory. Results come from this project only.
    """
    all_branches: bool
    """Search every indexed branch of the project (identical sections on several branches are
    shown once, with their branches).
    """
    branch: str | None
    """Search this branch instead of the current one."""
    limit: int | None
    """Most results (default 10, at most 100)."""
    mode: SearchMode
    """``hybrid`` (default; keyword-only when no model is available), ``keyword`` or ``vector``."""


#: Which retrievers a search uses.
#:
#: - ``"hybrid"``: Keyword and vector lists fused (keyword only when no model is available).
#: - ``"keyword"``: BM25 over FTS5 only.
#: - ``"vector"``: Nearest neighbours of the query's vector only (needs the model).
SearchMode = Literal["hybrid", "keyword", "vector"]


class DocsQueryResponse(TypedDict):
    """Result of ``docs.query`` and ``notes.query``."""

    query: str
    """The query."""
    project: str
    """The project searched."""
    branch: str
    """The branch searched (empty with ``all_branches``, and for notes)."""
    results: list[DocsHit]
    """Best first."""
    mode: SearchMode
    """The retrievers used: ``hybrid``, ``keyword`` (no model, or asked) or ``vector``."""
    search_time_ms: int
    """Time spent searching, in milliseconds."""
    warnings: list[str]
    """A missing model (once), an unindexed project, and the like."""


class _DocsHitRequired(TypedDict):
    rank: int
    """1 for the best."""
    score: float
    """Fused score (higher is better; comparable within one query)."""
    file: str
    """The file, relative to the project root."""
    section: str
    """The section's title (``(full document)``, ``(preamble)``, or ``Title##1`` for a repeated
    title).
    """
    excerpt: str
    """What an agent reads of the section: the lines holding the query's words, else the start of
    the window that matched by meaning; at most 1,000 bytes.
    """
    content: str
    """The section's full text, its heading included."""
    project: str
    """The project."""
    branch: str
    """The branch (docs; empty for notes and outside git)."""
    also_on: list[str]
    """Other branches with the identical section (docs with ``all_branches``)."""
    mtime: int
    """The file's mtime when indexed (Unix seconds)."""
    similarity: float | None
    """Cosine similarity to the query (when the vector list found it)."""
    matched_by: list[str]
    """Which lists found it: ``keyword``, ``vector`` or both."""


class DocsHit(_DocsHitRequired, total=False):
    """One result of ``docs.query`` or ``notes.query``."""

    start_line: int
    """The section's first line in the file (from 1); ``None`` for a section indexed before
    sections knew their lines, until its file is indexed again.
    """
    end_line: int
    """Its last line."""
    session_path: str
    """The session folder (notes), relative to the project root."""
    session_date: str
    """The session's date (notes), ``YYYY-MM-DD``."""


# ── embed.text ──


class EmbedRequest(TypedDict, total=False):
    """Parameters of ``Text`` (``embed.text``)."""

    texts: list[str]
    """The texts to embed. Each is cut at 256 word pieces, as sentence-transformers does."""
    cached: bool
    """Read and fill the engine's vector cache (``embeddings.db``), so a text already embedded is
    not embedded again. Default true.
    """


class EmbedResponse(TypedDict):
    """Result of ``Text`` (``embed.text``)."""

    vectors: list[list[float]]
    """One L2-normalised vector per text, in the order of the request."""
    model_id: str
    """The model that made them."""
    dims: int
    """The length of each vector."""
    embedded: int
    """How many distinct texts the model embedded now; the others came from the cache."""
    warnings: list[str]
    """Anything worth telling the caller (a cache database rebuilt after corruption)."""


# ── files.refresh ──


class FilesRefreshRequest(TypedDict, total=False):
    """Parameters of ``files.refresh``."""

    root: str | None
    """Directory to index. Without it: the project (``$CLAUDE_PROJECT_DIR``, else the current
    directory), the configured ``[index] roots`` and the project's additional directories.
    """
    project_dir: str | None
    """The project whose session is refreshed when ``root`` is not given; defaults to
    ``$CLAUDE_PROJECT_DIR``, else the current directory.
    """
    max_depth: int | None
    """Maximum depth below the root; defaults to ``[index.depth]`` of the configuration."""
    exclude: list[str]
    """Extra gitignore-style patterns to exclude, on top of the defaults and the configuration's
    ``[index.exclude]``.
    """
    max_files: int | None
    """Stop after this many files; defaults to ``[index.limits] max_files_per_root``."""
    now: int | None
    """Compute git frecency as of this Unix time instead of now (for replaying a repository's
    history).
    """
    claude_dir: str | None
    """Claude Code's configuration directory, whose session transcripts tell which files were
    read, edited and mentioned; defaults to ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``.
    """
    full: bool
    """Walk every root in full. Without it, a root in a git work tree that was walked within the
    last day with the same rules is brought up to date from what moved: directories whose
    mtime changed, files git reports (status, and the commits between the HEAD last indexed
    and the current one).
    """


class FilesRefreshResponse(TypedDict):
    """Result of ``files.refresh``."""

    root: str
    """The canonical root that was indexed."""
    files: int
    """Files now indexed under the root."""
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


class RootRefresh(TypedDict):
    """What ``files.refresh`` did to one root."""

    root: str
    """The canonical root."""
    files: int
    """Files now indexed under it."""
    added: int
    """Files new to the index."""
    updated: int
    """Files whose modification time changed."""
    removed: int
    """Files removed from the index."""
    truncated: bool
    """Whether the file limit cut its walk short."""
    incremental: bool
    """Whether it was brought up to date from directory mtimes and git rather than walked in
    full.
    """


# ── files.suggest ──


class FilesSuggestRequest(TypedDict, total=False):
    """Parameters of ``files.suggest``."""

    query: str
    """What the user typed after ``@`` (may be empty: the top files are returned)."""
    project_dir: str | None
    """Project root; defaults to ``$CLAUDE_PROJECT_DIR``, else the current directory. Results are
    limited to it and shown relative to it.
    """
    limit: int | None
    """Most paths to return, 1 to 15 (default 15)."""
    budget_ms: int | None
    """Time budget in milliseconds (default 100): past it, the file system is searched instead of
    the index.
    """
    within: list[str]
    """Only paths under these directories (absent or empty: anywhere the query looks), whatever
    the query's prefix or the project's additional directories name. The MCP server sets it to
    its roots.
    """


class FilesSuggestResponse(TypedDict):
    """Result of ``files.suggest``."""

    paths: list[str]
    """Best first: relative to the project root inside it, ``~/…`` under the home directory,
    absolute elsewhere.
    """
    warnings: list[str]
    """Anything worth telling the user (an index built on the fly, a recovered database)."""


# ── grep.search ──


class _GrepRequestRequired(TypedDict):
    search: str
    """The text to search for: a literal substring, or a regular expression (Rust ``regex``
    syntax) with ``regex``. Must not be empty.
    """


class GrepRequest(_GrepRequestRequired, total=False):
    """Parameters of ``grep.search``: checkfor's, plus ``recursive``, ``regex``, ``max_matches``
    and ``max_tokens``.
    """

    dir: str | list[str]
    """Directories to search, in this order: one path or an array of paths. Defaults to the
    project directory (``$CLAUDE_PROJECT_DIR``, else the current directory). Relative paths
    are relative to the current directory; each is reported as given.
    """
    ext: str | list[str]
    """Only files whose name ends with one of these extensions (``.go`` or ``go``): one string,
    several separated by commas (``rs,py``), or an array.
    """
    exclude: str | list[str]
    """Drop matching lines that contain any of these strings (one string or an array)."""
    case_insensitive: bool
    """Ignore case in ``search`` and ``exclude``."""
    whole_word: bool
    """Match whole words only (word characters: ASCII letters, digits, ``_``)."""
    context: int
    """Lines of context before and after each match (default 0)."""
    hide_filter_stats: bool
    """Leave ``original_matches`` and ``filtered_matches`` out."""
    recursive: bool
    """Search subdirectories too, skipping what ripgrep skips by default: files that ignore files
    exclude (``.gitignore`` in a git repository, ``.ignore``) and hidden files and
    directories.
    """
    hidden: bool
    """With ``recursive``: search hidden files and directories too (never ``.git``)."""
    skip_generated: bool
    """With ``recursive``: also skip dependency, build and cache output: the directories
    ``node_modules``, ``dist``, ``build``, ``.next``, ``.nuxt``, ``target``, ``__pycache__``,
    ``.venv``, ``vendor``, ``coverage``, ``.cache``, and ``*.pyc`` files.
    """
    regex: bool
    """``search`` is a regular expression."""
    max_matches: int | None
    """List at most this many matches (in output order)."""
    max_tokens: int | None
    """Keep the JSON result within about this many tokens (4 bytes each)."""


class _GrepResponseRequired(TypedDict):
    directories: list[GrepDirectory]
    """One entry per directory, in the order asked for."""


class GrepResponse(_GrepResponseRequired, total=False):
    """Result of ``grep.search`` (checkfor's shape)."""

    truncated: Literal[True]
    """Present (``true``) when ``max_matches`` or ``max_tokens`` left matches or lines out."""
    warnings: list[str]
    """Files that could not be read, and what a recursive walk skipped; left out when empty.
    Surfaces show them apart from the result (the CLI on stderr).
    """


class _GrepDirectoryRequired(TypedDict):
    dir: str
    """The directory, as given."""
    matches_found: int
    """Matches found (after ``exclude``)."""
    files: list[GrepFile]
    """Files with matches, in path order, paths relative to ``dir``."""


class GrepDirectory(_GrepDirectoryRequired, total=False):
    """The matches in one directory."""

    original_matches: int
    """Matches before ``exclude`` dropped any; only with ``exclude``, without
    ``hide_filter_stats``, and not zero.
    """
    filtered_matches: int
    """Matches ``exclude`` dropped; only with ``exclude``, without ``hide_filter_stats``, and not
    zero.
    """
    error: str
    """Why the directory could not be searched; left out when it was."""
    below: GrepBelow
    """Without ``recursive``: the matches in its subdirectories, which ``recursive`` would search
    too (with ripgrep's rules, as it walks them); left out when there are none.
    """


class GrepFile(TypedDict):
    """The matches in one file."""

    path: str
    """Path relative to the directory searched, ``/``-separated."""
    matches: list[GrepMatch]
    """Matching lines, in line order."""


class _GrepMatchRequired(TypedDict):
    line: int
    """Line number, from 1."""
    content: str
    """The line, without its line ending."""


class GrepMatch(_GrepMatchRequired, total=False):
    """One matching line."""

    context_before: list[str]
    """Up to ``context`` lines before it; left out when none."""
    context_after: list[str]
    """Up to ``context`` lines after it; left out when none."""


class GrepBelow(TypedDict):
    """Matches a recursive search would add below a directory searched without it."""

    matches: int
    """Matching lines (after ``exclude``)."""
    files: int
    """Files that have them."""


# ── notes.index ──


class NotesIndexRequest(TypedDict, total=False):
    """Parameters of ``notes.index``."""

    project_dir: str | None
    """A directory of the project whose ``sessions/**/*.md`` are indexed; defaults to
    ``$CLAUDE_PROJECT_DIR``, else the current directory.
    """
    lock_wait_secs: int | None
    """Seconds to wait for another index run's lock (default 30)."""


# ── notes.query ──


class NotesQueryRequest(TypedDict, total=False):
    """Parameters of ``notes.query``."""

    query: str
    """What to look for (any text)."""
    project_dir: str | None
    """A directory of the project; defaults to ``$CLAUDE_PROJECT_DIR``, else the current
    directory.
    """
    after: str | None
    """Only notes of sessions on or after this date (``YYYY-MM-DD``)."""
    file: str | None
    """Only notes in files with this base name (``IMPLEMENTATION`` for ``IMPLEMENTATION.md``;
    case-insensitive).
    """
    limit: int | None
    """Most results (default 10, at most 100)."""
    mode: SearchMode
    """``hybrid`` (default; keyword-only when no model is available), ``keyword`` or ``vector``."""


# ── sessions.chunk ──


class SessionsChunkRequest(TypedDict, total=False):
    """Parameters of ``sessions.chunk``."""

    id: str
    """The chunk's id, or any unique prefix of it (hex)."""
    within: list[str]
    """Only what is stored for projects under these directories (absent or empty: all): a chunk
    of another project is answered as an unknown id.
    """


class SessionsChunkResponse(TypedDict):
    """Result of ``sessions.chunk``."""

    id: str
    """The id (8 hex characters)."""
    full_id: str
    """The full id (64 hex characters)."""
    kind: SessionsChunkKind
    """Its kind."""
    project: str
    """The project path."""
    session_id: str
    """The session."""
    parent_session_id: str | None
    """The session a subagent transcript belongs to."""
    session_path: str
    """The transcript file."""
    timestamp: str
    """When (RFC 3339, UTC)."""
    time: int
    """The same, in Unix seconds."""
    content: str
    """The full text."""
    messages: list[SessionsContextMessage]
    """The prompt and replies of its group (up to 5 messages)."""
    prompt_uuid: str | None
    """The ``uuid`` of the record that opened its group."""
    message_ids: list[str]
    """The ``uuid``s of its group's messages."""
    group: list[SessionsGroupPart]
    """Every part of its group (this one included), in kind order."""


class SessionsContextMessage(TypedDict):
    """One message of a chunk's context."""

    role: Literal["user", "assistant", "summary"]
    """``user``, ``assistant`` or ``summary``."""
    content: str
    """Its text (cut at 2000 characters)."""


class SessionsGroupPart(TypedDict):
    """Another part of the same prompt group."""

    id: str
    """Its id (8 hex characters)."""
    kind: SessionsChunkKind
    """Its kind."""
    chars: int
    """Its length in characters."""


# ── sessions.index ──


class SessionsIndexRequest(TypedDict, total=False):
    """Parameters of ``sessions.index``."""

    force: bool
    """Re-parse every transcript from the start."""
    projects_dir: str | None
    """The folder of transcripts; default ``$CLAUDE_CONFIG_DIR/projects``
    (``~/.claude/projects``).
    """
    keyword_only: bool
    """Parse and store only: new chunks are searchable by keyword at once, by meaning once a
    later run embeds them.
    """


class SessionsIndexResponse(TypedDict):
    """Result of ``sessions.index``."""

    projects_dir: str
    """The folder indexed."""
    sessions: int
    """Main session transcripts found."""
    subagents: int
    """Subagent transcripts found (``agent-*.jsonl``, ``subagents/``)."""
    parsed: int
    """Transcripts parsed from the start (new, rewritten, or ``force``)."""
    grown: int
    """Transcripts that grew: parsed from their last prompt group on."""
    unchanged: int
    """Transcripts unchanged (size and mtime), not read."""
    removed: int
    """Transcripts gone from disk, removed from the index."""
    bytes_parsed: int
    """Bytes read from transcripts."""
    chunks_written: int
    """Chunks new or changed."""
    chunks_removed: int
    """Chunks removed."""
    chunks: int
    """Chunks in the index after the run."""
    embedded: int
    """Chunk windows the model embedded now (the others came from the vector cache)."""
    pending_vectors: int
    """Chunks still without vectors (no model available)."""
    corrupt_lines: int
    """Lines skipped as corrupt."""
    skipped_records: dict[str, int]
    """Records skipped on purpose, by type (``progress``, ``file-history-snapshot``, …)."""
    warnings: list[str]
    """Corrupt lines (one warning per file), unreadable files, a missing model."""


# ── sessions.search ──


class SessionsSearchRequest(TypedDict, total=False):
    """Parameters of ``sessions.search``."""

    query: str
    """What to look for (any text)."""
    project: str | None
    """Only sessions whose project path contains this (case-insensitive, ``/`` and ``\\\\`` alike);
    ``*``: every project. The MCP server searches its own project unless this is given.
    """
    since: SessionsSince | None
    """Only chunks from this time on: Unix seconds, ``2h``, ``1w``, ``30d``, ``2026-01-01``."""
    types: list[SessionsChunkKind]
    """Only these kinds: ``user``, ``assistant``, ``tool``, ``thinking``, ``summary`` (default
    all).
    """
    limit: int | None
    """Most results (default 5, at most 100)."""
    mode: SearchMode
    """``hybrid`` (default; keyword-only when no model is available), ``keyword`` or ``vector``."""
    now: int | None
    """"Now" for recency and relative ``since``, in Unix seconds (default: the clock), so a
    search can be reproduced exactly.
    """
    projects_dir: str | None
    """The transcripts folder to index when no index exists yet (default
    ``$CLAUDE_CONFIG_DIR/projects``).
    """
    within: list[str]
    """Only what is stored for projects under these directories (absent or empty: all). The MCP
    server sets it to its roots unless ``project`` is given.
    """


#: A point in time: Unix seconds, or text — ``2h``, ``30m``, ``1w``, ``30d``, ``1y`` (that long
#: before now), ``2026-01-01``, or an RFC 3339 timestamp.
SessionsSince = Union[int, str]


class SessionsSearchResponse(TypedDict):
    """Result of ``sessions.search``."""

    query: str
    """The query."""
    results: list[SessionsHit]
    """Best first."""
    total_results: int
    """How many results."""
    mode: SearchMode
    """The retrievers used: ``hybrid``, ``keyword`` or ``vector``."""
    note: str | None
    """Set when nothing matched and these are the closest matches by meaning instead."""
    search_time_ms: int
    """Time spent, in milliseconds (indexing on the first search included)."""
    warnings: list[str]
    """An index built on the fly, a project filter matching nothing, a missing model."""


class SessionsHit(TypedDict):
    """One result of ``sessions.search``."""

    rank: int
    """1 for the best."""
    id: str
    """The chunk's id (8 hex characters; ``sessions.chunk`` shows it whole)."""
    score: float
    """Score (fused, weighted by kind and recency; higher is better)."""
    kind: SessionsChunkKind
    """``user``, ``assistant``, ``tool``, ``thinking`` or ``summary``."""
    project: str
    """The project path (the session's ``cwd``)."""
    session_id: str
    """The session (``claude --resume <session_id>``; for a subagent, its file's name)."""
    parent_session_id: str | None
    """The session a subagent transcript belongs to."""
    session_path: str
    """The transcript file."""
    timestamp: str
    """When the prompt was written (RFC 3339, UTC)."""
    time: int
    """The same, in Unix seconds."""
    age: str
    """How long ago, in words."""
    content: str
    """The matched chunk's full text."""
    matched_window: str | None
    """The window of ``content`` that matched best by meaning, when the chunk has several."""
    excerpt: str
    """What an agent reads of the chunk: the lines holding the query's words, else the start of
    the window that matched by meaning; at most 1,000 bytes.
    """
    messages: list[SessionsContextMessage]
    """The prompt and the assistant's replies around the match (up to 5 messages)."""
    matched_by: list[Literal["keyword", "vector"]]
    """Which lists found it: ``keyword``, ``vector`` or both."""


# ── sessions.status ──


class SessionsStatusRequest(TypedDict, total=False):
    """Parameters of ``sessions.status``."""

    within: list[str]
    """Only what is stored for projects under these directories (absent or empty: all): sessions,
    projects and chunks are counted over those; the index size, model and last run stay those
    of the whole index. The MCP server sets it to its roots.
    """


class SessionsStatusResponse(TypedDict):
    """Result of ``sessions.status``."""

    db_path: str
    """The index database (``sessions.db`` in the data root)."""
    projects_dir: str | None
    """The transcripts folder of the last run."""
    sessions: int
    """Main sessions indexed."""
    subagents: int
    """Subagent transcripts indexed."""
    projects: list[SessionsProject]
    """Projects, with their session counts, sorted by path."""
    chunks: int
    """Chunks."""
    chunks_by_kind: dict[str, int]
    """Chunks by kind."""
    pending_vectors: int
    """Chunks without vectors yet."""
    index_bytes: int
    """Size of the index on disk (database and its WAL), bytes."""
    model: str
    """The embedding model's directory, or why there is none."""
    last_indexed: str | None
    """When the last run finished (RFC 3339), if ever."""
    warnings: list[str]
    """Anything worth telling."""


class SessionsProject(TypedDict):
    """Sessions of one project."""

    project: str
    """The project path."""
    sessions: int
    """Its main sessions."""
