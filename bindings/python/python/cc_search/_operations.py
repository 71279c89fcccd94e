"""Typed methods of every cc-search operation.

Generated from the operation table (``cc_search.OPERATIONS`` in the core, the JSON Schemas
:func:`cc_search.operations` returns) by ``make bindings``: do not edit. The drift test
``cargo test -p cc-search --test it -- bindings_generated`` fails when this file is not what the
table gives. :class:`cc_search.Engine` inherits :class:`EngineOperations`; the types are in
``_types.py``, loaded only when one is used at run time.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from ._types import (
        ClaudeInstallMcpResponse,
        ClaudeInstallResponse,
        CodeDeleteResponse,
        CodeDependenciesResponse,
        CodeFileSymbolsResponse,
        CodeFindResponse,
        CodeIndexResponse,
        CodeOverviewResponse,
        CodeReferencesResponse,
        CodeRepo,
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
        SessionsSince,
        SessionsStatusResponse,
        StrPath,
    )

__all__ = ["TYPE_NAMES", "EngineOperations"]

#: The names `_types.py` defines (its ``__all__``), known without loading it.
TYPE_NAMES = (
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
)


# ── the methods ──


class EngineOperations:
    """A typed method for every operation: :meth:`call` with the operation's name, its
    parameters as arguments (``None`` or absent: the default) and its typed result."""

    __slots__ = ()

    def call(
        self,
        op: str,
        params: Mapping[str, Any] | None = None,
        *,
        progress: ProgressCallback | None = None,
    ) -> dict[str, Any]:
        """Run the operation ``op`` with ``params``; :class:`cc_search.Engine` implements it."""
        raise NotImplementedError

    def claude_install(
        self,
        *,
        scope: str | None = None,
        project_dir: StrPath | None = None,
        file_suggestion_command: str | None = None,
        session_start_command: str | None = None,
        uninstall: bool = False,
    ) -> ClaudeInstallResponse:
        """Add cc-search's fileSuggestion command and SessionStart hook to a Claude Code
        settings.json (or remove them with ``uninstall``), idempotently, atomically, with one
        backup in the data root; uninstall puts the file back as it was.

        Args:
            scope: ``user`` (default): ``<config dir>/settings.json``; ``project``:
                ``<project_dir>/.claude/settings.json``. One of ``"user"``, ``"project"``.
            project_dir: The project, for scope ``project``; defaults to
                ``$CLAUDE_PROJECT_DIR``, else the current directory. Must exist.
            file_suggestion_command: The shell command Claude Code runs for ``@`` suggestions.
                Required to install.
            session_start_command: The shell command of the ``SessionStart`` hook. Required to
                install.
            uninstall: Remove cc-search's entries instead of adding them. The commands are
                optional then; when given, they are recognised as cc-search's too.

        Operation ``claude.install``.
        """
        params: dict[str, Any] = {}
        if scope is not None:
            params["scope"] = scope
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if file_suggestion_command is not None:
            params["file_suggestion_command"] = file_suggestion_command
        if session_start_command is not None:
            params["session_start_command"] = session_start_command
        if uninstall:
            params["uninstall"] = True
        return cast("ClaudeInstallResponse", self.call("claude.install", params))

    def claude_install_mcp(
        self,
        *,
        scope: str | None = None,
        project_dir: StrPath | None = None,
        name: str | None = None,
        command: str | None = None,
        args: str | Iterable[str] | None = None,
        uninstall: bool = False,
    ) -> ClaudeInstallMcpResponse:
        """Register cc-search's MCP server with Claude Code (mcpServers in ~/.claude.json or the
        project's .mcp.json, as ``claude mcp add`` writes it), or remove it with ``uninstall``
        (a project's .mcp.json put back as it was); idempotent, atomic, no backup files.

        Args:
            scope: ``user`` (default): Claude Code's ``~/.claude.json``
                (``$CLAUDE_CONFIG_DIR/.claude.json`` when set); ``project``:
                ``<project_dir>/.mcp.json``. One of ``"user"``, ``"project"``.
            project_dir: The project, for scope ``project``; defaults to
                ``$CLAUDE_PROJECT_DIR``, else the current directory. Must exist.
            name: The server's name in Claude Code (letters, digits, ``-`` and ``_``).
            command: The program Claude Code starts (no shell): an absolute path, or a name
                looked up on the PATH Claude Code runs with. Required to install.
            args: Its arguments (e.g. ``["mcp"]``).
            uninstall: Remove the server instead of adding it. ``command`` and ``args`` are
                optional then; when given, an entry running exactly them is recognised as
                cc-search's too.

        Operation ``claude.install_mcp``.
        """
        params: dict[str, Any] = {}
        if scope is not None:
            params["scope"] = scope
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if name is not None:
            params["name"] = name
        if command is not None:
            params["command"] = command
        if args is not None:
            params["args"] = _strings(args)
        if uninstall:
            params["uninstall"] = True
        return cast("ClaudeInstallMcpResponse", self.call("claude.install_mcp", params))

    def code_delete(
        self,
        paths: StrPath | Iterable[StrPath] | None = None,
        *,
        all: bool = False,
        within: StrPath | Iterable[StrPath] | None = None,
    ) -> CodeDeleteResponse:
        """Delete the code index of the given repositories (or of all with ``all``).

        Args:
            paths: Repository roots whose index to delete (they need not exist any more).
            all: Delete every code index instead (with ``within``: every one under it).
            within: Only what is stored for repositories under these directories (absent or
                empty: all): ``all`` deletes only those, and a ``paths`` entry outside them is
                refused. The MCP server sets it to its roots.

        Operation ``code.delete_repos``.
        """
        params: dict[str, Any] = {}
        if paths is not None:
            params["paths"] = _paths(paths)
        if all:
            params["all"] = True
        if within is not None:
            params["within"] = _paths(within)
        return cast("CodeDeleteResponse", self.call("code.delete_repos", params))

    def code_find(
        self,
        query: str,
        *,
        path: StrPath | None = None,
        limit: int | None = None,
        progress: ProgressCallback | None = None,
    ) -> CodeFindResponse:
        """Find the code a description is about (an issue, a stack trace, a question): the files
        and the definitions to change, ranked by keywords, the names and paths it mentions.

        Args:
            query: What to find, in free text: an issue, a stack trace, a question (first 16
                KiB).
            path: Repository root. Defaults to the project directory.
            limit: Most files, and most definitions (default 10).
            progress: Called as ``progress(stage, done, total)`` while the operation reports
                progress (see :data:`ProgressCallback`).

        Operation ``code.find``.
        """
        params: dict[str, Any] = {"query": query}
        if path is not None:
            params["path"] = os.fsdecode(path)
        if limit is not None:
            params["limit"] = limit
        return cast("CodeFindResponse", self.call("code.find", params, progress=progress))

    def code_dependencies(
        self,
        id: int,
        *,
        path: StrPath | None = None,
    ) -> CodeDependenciesResponse:
        """What a symbol refers to (calls, type uses, extends, implements), resolved to symbol
        ids where the index has them.

        Args:
            id: The symbol's id (from a search, an overview or a file's symbols).
            path: Repository root. Defaults to the project directory.

        Operation ``code.get_dependencies``.
        """
        params: dict[str, Any] = {"id": id}
        if path is not None:
            params["path"] = os.fsdecode(path)
        return cast("CodeDependenciesResponse", self.call("code.get_dependencies", params))

    def code_file_symbols(
        self,
        file: StrPath,
        *,
        path: StrPath | None = None,
    ) -> CodeFileSymbolsResponse:
        """All symbols of one file as a tree (classes with their methods…): name, kind, lines,
        signature, doc, id.

        Args:
            file: The file: relative to the repository root, or absolute inside it.
            path: Repository root. Defaults to the project directory.

        Operation ``code.get_file_symbols``.
        """
        params: dict[str, Any] = {"file": os.fsdecode(file)}
        if path is not None:
            params["path"] = os.fsdecode(path)
        return cast("CodeFileSymbolsResponse", self.call("code.get_file_symbols", params))

    def code_overview(self, path: StrPath | None = None) -> CodeOverviewResponse:
        """Overview of an indexed repository: languages, directories with file and symbol counts
        (samples apart), the most referenced types, the entry points and the docs.

        Args:
            path: Repository root. Defaults to the project directory.

        Operation ``code.get_overview``.
        """
        params: dict[str, Any] = {}
        if path is not None:
            params["path"] = os.fsdecode(path)
        return cast("CodeOverviewResponse", self.call("code.get_overview", params))

    def code_references(
        self,
        id: int,
        *,
        path: StrPath | None = None,
        offset: int | None = None,
    ) -> CodeReferencesResponse:
        """Who refers to a symbol (calls, imports, type uses, extends, implements), with file and
        line.

        Args:
            id: The symbol's id (from a search, an overview or a file's symbols).
            path: Repository root. Defaults to the project directory.
            offset: How many references to skip, in the answer's order: an answer cut short
                names the ``offset`` of the rest.

        Operation ``code.get_references``.
        """
        params: dict[str, Any] = {"id": id}
        if path is not None:
            params["path"] = os.fsdecode(path)
        if offset is not None:
            params["offset"] = offset
        return cast("CodeReferencesResponse", self.call("code.get_references", params))

    def code_symbol(self, id: int, *, path: StrPath | None = None) -> CodeSymbolDetailResponse:
        """One symbol in full: untruncated signature and doc, parent, children, what it calls,
        who calls it, the types it uses.

        Args:
            id: The symbol's id (from a search, an overview or a file's symbols).
            path: Repository root. Defaults to the project directory.

        Operation ``code.get_symbol_detail``.
        """
        params: dict[str, Any] = {"id": id}
        if path is not None:
            params["path"] = os.fsdecode(path)
        return cast("CodeSymbolDetailResponse", self.call("code.get_symbol_detail", params))

    def code_index(
        self,
        path: StrPath | None = None,
        *,
        force: bool = False,
        progress: ProgressCallback | None = None,
    ) -> CodeIndexResponse:
        """Index a repository's code symbols (functions, classes, methods, types…) and
        references with tree-sitter; incremental: only changed files are re-parsed.

        Args:
            path: Repository root. Defaults to the project directory.
            force: Re-parse every file, changed or not.
            progress: Called as ``progress(stage, done, total)`` while the operation reports
                progress (see :data:`ProgressCallback`).

        Operation ``code.index_repository``.
        """
        params: dict[str, Any] = {}
        if path is not None:
            params["path"] = os.fsdecode(path)
        if force:
            params["force"] = True
        return cast(
            "CodeIndexResponse",
            self.call("code.index_repository", params, progress=progress),
        )

    def code_status(self, path: StrPath | None = None) -> CodeStatusResponse:
        """Status of a repository's code index: files, symbols, references, languages, when
        indexed, and which files changed or disappeared since.

        Args:
            path: Repository root. Defaults to the project directory.

        Operation ``code.index_status``.
        """
        params: dict[str, Any] = {}
        if path is not None:
            params["path"] = os.fsdecode(path)
        return cast("CodeStatusResponse", self.call("code.index_status", params))

    def code_repos(self, *, within: StrPath | Iterable[StrPath] | None = None) -> list[CodeRepo]:
        """List the repositories with a code index: path, files, symbols, when indexed.

        Args:
            within: Only what is stored for repositories under these directories (absent or
                empty: all). The MCP server sets it to its roots.

        Operation ``code.list_repos``; returns the result's ``repos``.
        """
        params: dict[str, Any] = {}
        if within is not None:
            params["within"] = _paths(within)
        return cast("list[CodeRepo]", self.call("code.list_repos", params)["repos"])

    def code_search(
        self,
        query: str,
        *,
        path: StrPath | None = None,
        kind: str | None = None,
        limit: int | None = None,
    ) -> CodeSearchResponse:
        """Search a repository's symbols by name, subword (camelCase/snake_case split), doc
        comment, kind or path; prefix*, AND/OR/NOT; BM25-ranked compact results.

        Args:
            query: FTS5 query: words match names, their subwords (``user`` finds
                ``getUserById``), docs, kinds and paths; ``repo*`` is a prefix; ``AND``, ``OR``,
                ``NOT`` and quotes work. Text that is not a valid query is searched as plain words.
            path: Repository root. Defaults to the project directory.
            kind: Only symbols of this kind (``fn``, ``method``, ``class``, …).
            limit: Most results (default 20, or the project's ``search.max_results``).

        Operation ``code.search_symbols``.
        """
        params: dict[str, Any] = {"query": query}
        if path is not None:
            params["path"] = os.fsdecode(path)
        if kind is not None:
            params["kind"] = kind
        if limit is not None:
            params["limit"] = limit
        return cast("CodeSearchResponse", self.call("code.search_symbols", params))

    def code_update(
        self,
        files: StrPath | Iterable[StrPath],
        *,
        path: StrPath | None = None,
    ) -> CodeIndexResponse:
        """Re-index specific files of an indexed repository (changed ones re-parsed, deleted ones
        removed) without walking it.

        Args:
            files: Files to re-index: absolute, or relative to the repository root. A file that
                no longer exists is removed from the index.
            path: Repository root. Defaults to the project directory.

        Operation ``code.update_files``.
        """
        params: dict[str, Any] = {"files": _paths(files)}
        if path is not None:
            params["path"] = os.fsdecode(path)
        return cast("CodeIndexResponse", self.call("code.update_files", params))

    def docs_index(
        self,
        project_dir: StrPath | None = None,
        *,
        globs: str | Iterable[str] | None = None,
        forget: bool = False,
        keyword_only: bool = False,
        lock_wait_secs: int | None = None,
        progress: ProgressCallback | None = None,
    ) -> DocsIndexResponse:
        """Index the project's docs (README and other top-level docs, doc/, docs/,
        {apps,packages}/*/docs/, each package's README and docs directories, a Rust crate's
        lib.rs guide, plus globs given once and remembered; Markdown and reStructuredText) by
        section for the current branch: unchanged files skipped, content-addressed embeddings.

        Args:
            project_dir: A directory of the project; defaults to ``$CLAUDE_PROJECT_DIR``, else
                the current directory. The project root is its git work tree's root.
            globs: More files to index: globs relative to the project root (``*`` stays within
                one directory, ``**`` crosses them, ``{a,b}`` alternates), remembered for the
                project, so every later run (the automatic one before a query too) indexes them as
                well. Always indexed: top-level docs such as the README, ``doc/``, ``docs/``,
                ``{apps,packages}/*/docs/``, each package's README and docs directories (Markdown,
                reStructuredText) and a Rust crate's ``//!`` guide in its ``src/lib.rs``.
            forget: Forget the remembered globs (those in ``globs``, or all) and drop the files
                only they matched from the index.
            keyword_only: Split and store only: new sections are searchable by keyword at once,
                by meaning once a later run embeds them.
            lock_wait_secs: Seconds to wait for another index run's lock (default 30).
            progress: Called as ``progress(stage, done, total)`` while the operation reports
                progress (see :data:`ProgressCallback`).

        Operation ``docs.index``.
        """
        params: dict[str, Any] = {}
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if globs is not None:
            params["globs"] = _strings(globs)
        if forget:
            params["forget"] = True
        if keyword_only:
            params["keyword_only"] = True
        if lock_wait_secs is not None:
            params["lock_wait_secs"] = lock_wait_secs
        return cast("DocsIndexResponse", self.call("docs.index", params, progress=progress))

    def docs_query(
        self,
        query: str,
        *,
        project_dir: StrPath | None = None,
        all_branches: bool = False,
        branch: str | None = None,
        limit: int | None = None,
        mode: str | None = None,
    ) -> DocsQueryResponse:
        """Search the project's indexed docs (keyword + semantic) by section, on the current
        branch unless all_branches or branch is given. Never indexes.

        Args:
            query: What to look for (any text).
            project_dir: A directory of the project; defaults to ``$CLAUDE_PROJECT_DIR``, else
                the current directory. Results come from this project only.
            all_branches: Search every indexed branch of the project (identical sections on
                several branches are shown once, with their branches).
            branch: Search this branch instead of the current one.
            limit: Most results (default 10, at most 100).
            mode: ``hybrid`` (default; keyword-only when no model is available), ``keyword`` or
                ``vector``. One of ``"hybrid"``, ``"keyword"``, ``"vector"``.

        Operation ``docs.query``.
        """
        params: dict[str, Any] = {"query": query}
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if all_branches:
            params["all_branches"] = True
        if branch is not None:
            params["branch"] = branch
        if limit is not None:
            params["limit"] = limit
        if mode is not None:
            params["mode"] = mode
        return cast("DocsQueryResponse", self.call("docs.query", params))

    def embed(self, texts: Iterable[str], *, cached: bool = True) -> EmbedResponse:
        """Embed texts with all-MiniLM-L6-v2 (384-dim L2-normalised sentence vectors, as
        sentence-transformers computes them; texts cut at 256 word pieces), reusing cached
        vectors.

        Args:
            texts: The texts to embed. Each is cut at 256 word pieces, as sentence-transformers
                does.
            cached: Read and fill the engine's vector cache (``embeddings.db``), so a text
                already embedded is not embedded again. Default true.

        Operation ``embed.text``.
        """
        params: dict[str, Any] = {"texts": _string_list("texts", texts)}
        if not cached:
            params["cached"] = False
        return cast("EmbedResponse", self.call("embed.text", params))

    def files_refresh(
        self,
        root: StrPath | None = None,
        *,
        project_dir: StrPath | None = None,
        max_depth: int | None = None,
        exclude: str | Iterable[str] | None = None,
        max_files: int | None = None,
        now: int | None = None,
        claude_dir: StrPath | None = None,
        full: bool = False,
        progress: ProgressCallback | None = None,
    ) -> FilesRefreshResponse:
        """Index file paths: one directory, or the project plus configured roots (incremental by
        mtime; stale entries pruned).

        Args:
            root: Directory to index. Without it: the project (``$CLAUDE_PROJECT_DIR``, else the
                current directory), the configured ``[index] roots`` and the project's additional
                directories.
            project_dir: The project whose session is refreshed when ``root`` is not given;
                defaults to ``$CLAUDE_PROJECT_DIR``, else the current directory.
            max_depth: Maximum depth below the root; defaults to ``[index.depth]`` of the
                configuration.
            exclude: Extra gitignore-style patterns to exclude, on top of the defaults and the
                configuration's ``[index.exclude]``.
            max_files: Stop after this many files; defaults to ``[index.limits]
                max_files_per_root``.
            now: Compute git frecency as of this Unix time instead of now (for replaying a
                repository's history).
            claude_dir: Claude Code's configuration directory, whose session transcripts tell
                which files were read, edited and mentioned; defaults to ``$CLAUDE_CONFIG_DIR``,
                else ``~/.claude``.
            full: Walk every root in full. Without it, a root in a git work tree that was walked
                within the last day with the same rules is brought up to date from what moved:
                directories whose mtime changed, files git reports (status, and the commits between
                the HEAD last indexed and the current one).
            progress: Called as ``progress(stage, done, total)`` while the operation reports
                progress (see :data:`ProgressCallback`).

        Operation ``files.refresh``.
        """
        params: dict[str, Any] = {}
        if root is not None:
            params["root"] = os.fsdecode(root)
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if max_depth is not None:
            params["max_depth"] = max_depth
        if exclude is not None:
            params["exclude"] = _strings(exclude)
        if max_files is not None:
            params["max_files"] = max_files
        if now is not None:
            params["now"] = now
        if claude_dir is not None:
            params["claude_dir"] = os.fsdecode(claude_dir)
        if full:
            params["full"] = True
        return cast("FilesRefreshResponse", self.call("files.refresh", params, progress=progress))

    def files_suggest(
        self,
        query: str | None = None,
        *,
        project_dir: StrPath | None = None,
        limit: int | None = None,
        budget_ms: int | None = None,
        within: StrPath | Iterable[StrPath] | None = None,
    ) -> FilesSuggestResponse:
        """Suggest up to 15 file paths for an ``@`` query, ranked, relative to the project root.

        Args:
            query: What the user typed after ``@`` (may be empty: the top files are returned).
            project_dir: Project root; defaults to ``$CLAUDE_PROJECT_DIR``, else the current
                directory. Results are limited to it and shown relative to it.
            limit: Most paths to return, 1 to 15 (default 15).
            budget_ms: Time budget in milliseconds (default 100): past it, the file system is
                searched instead of the index.
            within: Only paths under these directories (absent or empty: anywhere the query
                looks), whatever the query's prefix or the project's additional directories name.
                The MCP server sets it to its roots.

        Operation ``files.suggest``.
        """
        params: dict[str, Any] = {}
        if query is not None:
            params["query"] = query
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if limit is not None:
            params["limit"] = limit
        if budget_ms is not None:
            params["budget_ms"] = budget_ms
        if within is not None:
            params["within"] = _paths(within)
        return cast("FilesSuggestResponse", self.call("files.suggest", params))

    def grep(
        self,
        search: str,
        dirs: StrPath | Iterable[StrPath] | None = None,
        *,
        ext: str | Iterable[str] | None = None,
        exclude: str | Iterable[str] | None = None,
        case_insensitive: bool = False,
        whole_word: bool = False,
        context: int | None = None,
        hide_filter_stats: bool = False,
        recursive: bool = False,
        hidden: bool = False,
        skip_generated: bool = False,
        regex: bool = False,
        max_matches: int | None = None,
        max_tokens: int | None = None,
    ) -> GrepResponse:
        """Search file contents in one or more directories (non-recursive unless asked): literal
        or regex, whole word, case-insensitive, exclude strings, context lines; compact JSON
        per directory (the checkfor tool).

        Args:
            search: The text to search for: a literal substring, or a regular expression (Rust
                ``regex`` syntax) with ``regex``. Must not be empty.
            dirs: Directories to search, in this order: one path or an array of paths. Defaults
                to the project directory (``$CLAUDE_PROJECT_DIR``, else the current directory).
                Relative paths are relative to the current directory; each is reported as given.
            ext: Only files whose name ends with one of these extensions (``.go`` or ``go``):
                one string, several separated by commas (``rs,py``), or an array.
            exclude: Drop matching lines that contain any of these strings (one string or an
                array).
            case_insensitive: Ignore case in ``search`` and ``exclude``.
            whole_word: Match whole words only (word characters: ASCII letters, digits, ``_``).
            context: Lines of context before and after each match (default 0).
            hide_filter_stats: Leave ``original_matches`` and ``filtered_matches`` out.
            recursive: Search subdirectories too, skipping what ripgrep skips by default: files
                that ignore files exclude (``.gitignore`` in a git repository, ``.ignore``) and
                hidden files and directories.
            hidden: With ``recursive``: search hidden files and directories too (never
                ``.git``).
            skip_generated: With ``recursive``: also skip dependency, build and cache output:
                the directories ``node_modules``, ``dist``, ``build``, ``.next``, ``.nuxt``,
                ``target``, ``__pycache__``, ``.venv``, ``vendor``, ``coverage``, ``.cache``, and
                ``*.pyc`` files.
            regex: ``search`` is a regular expression.
            max_matches: List at most this many matches (in output order).
            max_tokens: Keep the JSON result within about this many tokens (4 bytes each).

        Operation ``grep.search``.
        """
        params: dict[str, Any] = {"search": search}
        if dirs is not None:
            params["dir"] = _paths(dirs)
        if ext is not None:
            params["ext"] = _strings(ext)
        if exclude is not None:
            params["exclude"] = _strings(exclude)
        if case_insensitive:
            params["case_insensitive"] = True
        if whole_word:
            params["whole_word"] = True
        if context is not None:
            params["context"] = context
        if hide_filter_stats:
            params["hide_filter_stats"] = True
        if recursive:
            params["recursive"] = True
        if hidden:
            params["hidden"] = True
        if skip_generated:
            params["skip_generated"] = True
        if regex:
            params["regex"] = True
        if max_matches is not None:
            params["max_matches"] = max_matches
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        return cast("GrepResponse", self.call("grep.search", params))

    def notes_index(
        self,
        project_dir: StrPath | None = None,
        *,
        lock_wait_secs: int | None = None,
        progress: ProgressCallback | None = None,
    ) -> DocsIndexResponse:
        """Index the project's session notes (sessions/**/*.md, dated by their YYYY_MM_DD_TOPIC
        folder) by H2 section.

        Args:
            project_dir: A directory of the project whose ``sessions/**/*.md`` are indexed;
                defaults to ``$CLAUDE_PROJECT_DIR``, else the current directory.
            lock_wait_secs: Seconds to wait for another index run's lock (default 30).
            progress: Called as ``progress(stage, done, total)`` while the operation reports
                progress (see :data:`ProgressCallback`).

        Operation ``notes.index``.
        """
        params: dict[str, Any] = {}
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if lock_wait_secs is not None:
            params["lock_wait_secs"] = lock_wait_secs
        return cast("DocsIndexResponse", self.call("notes.index", params, progress=progress))

    def notes_query(
        self,
        query: str,
        *,
        project_dir: StrPath | None = None,
        after: str | None = None,
        file: str | None = None,
        limit: int | None = None,
        mode: str | None = None,
    ) -> DocsQueryResponse:
        """Search the project's indexed session notes (keyword + semantic) by H2 section,
        filtered by session date (after) and file name (file). Never indexes.

        Args:
            query: What to look for (any text).
            project_dir: A directory of the project; defaults to ``$CLAUDE_PROJECT_DIR``, else
                the current directory.
            after: Only notes of sessions on or after this date (``YYYY-MM-DD``).
            file: Only notes in files with this base name (``IMPLEMENTATION`` for
                ``IMPLEMENTATION.md``; case-insensitive).
            limit: Most results (default 10, at most 100).
            mode: ``hybrid`` (default; keyword-only when no model is available), ``keyword`` or
                ``vector``. One of ``"hybrid"``, ``"keyword"``, ``"vector"``.

        Operation ``notes.query``.
        """
        params: dict[str, Any] = {"query": query}
        if project_dir is not None:
            params["project_dir"] = os.fsdecode(project_dir)
        if after is not None:
            params["after"] = after
        if file is not None:
            params["file"] = file
        if limit is not None:
            params["limit"] = limit
        if mode is not None:
            params["mode"] = mode
        return cast("DocsQueryResponse", self.call("notes.query", params))

    def sessions_chunk(
        self,
        id: str,
        *,
        within: StrPath | Iterable[StrPath] | None = None,
    ) -> SessionsChunkResponse:
        """Show one session chunk in full (by its id from sessions.search, or any unique prefix),
        with its context messages and the other parts of its prompt group.

        Args:
            id: The chunk's id, or any unique prefix of it (hex).
            within: Only what is stored for projects under these directories (absent or empty:
                all): a chunk of another project is answered as an unknown id.

        Operation ``sessions.chunk``.
        """
        params: dict[str, Any] = {"id": id}
        if within is not None:
            params["within"] = _paths(within)
        return cast("SessionsChunkResponse", self.call("sessions.chunk", params))

    def sessions_index(
        self,
        *,
        force: bool = False,
        projects_dir: StrPath | None = None,
        keyword_only: bool = False,
        progress: ProgressCallback | None = None,
    ) -> SessionsIndexResponse:
        """Index Claude Code session transcripts ($CLAUDE_CONFIG_DIR/projects/**/*.jsonl) by
        prompt group: new and grown sessions only (force re-parses all), deleted ones removed.

        Args:
            force: Re-parse every transcript from the start.
            projects_dir: The folder of transcripts; default ``$CLAUDE_CONFIG_DIR/projects``
                (``~/.claude/projects``).
            keyword_only: Parse and store only: new chunks are searchable by keyword at once, by
                meaning once a later run embeds them.
            progress: Called as ``progress(stage, done, total)`` while the operation reports
                progress (see :data:`ProgressCallback`).

        Operation ``sessions.index``.
        """
        params: dict[str, Any] = {}
        if force:
            params["force"] = True
        if projects_dir is not None:
            params["projects_dir"] = os.fsdecode(projects_dir)
        if keyword_only:
            params["keyword_only"] = True
        return cast("SessionsIndexResponse", self.call("sessions.index", params, progress=progress))

    def sessions_search(
        self,
        query: str,
        *,
        project: str | None = None,
        since: SessionsSince | None = None,
        types: str | Iterable[str] | None = None,
        limit: int | None = None,
        mode: str | None = None,
        now: int | None = None,
        projects_dir: StrPath | None = None,
        within: StrPath | Iterable[StrPath] | None = None,
        progress: ProgressCallback | None = None,
    ) -> SessionsSearchResponse:
        """Search Claude Code session transcripts (keyword + semantic, recent first, tool output
        and thinking weighted down), filtered by project substring, since (2h, 1w, 30d,
        2026-01-01) and types; indexes on first use.

        Args:
            query: What to look for (any text).
            project: Only sessions whose project path contains this (case-insensitive, ``/`` and
                ``\\\\`` alike); ``*``: every project. The MCP server searches its own project unless
                this is given.
            since: Only chunks from this time on: Unix seconds, ``2h``, ``1w``, ``30d``,
                ``2026-01-01``.
            types: Only these kinds: ``user``, ``assistant``, ``tool``, ``thinking``,
                ``summary`` (default all). One of ``"user"``, ``"assistant"``, ``"tool"``,
                ``"thinking"``, ``"summary"``.
            limit: Most results (default 5, at most 100).
            mode: ``hybrid`` (default; keyword-only when no model is available), ``keyword`` or
                ``vector``. One of ``"hybrid"``, ``"keyword"``, ``"vector"``.
            now: "Now" for recency and relative ``since``, in Unix seconds (default: the clock),
                so a search can be reproduced exactly.
            projects_dir: The transcripts folder to index when no index exists yet (default
                ``$CLAUDE_CONFIG_DIR/projects``).
            within: Only what is stored for projects under these directories (absent or empty:
                all). The MCP server sets it to its roots unless ``project`` is given.
            progress: Called as ``progress(stage, done, total)`` while the operation reports
                progress (see :data:`ProgressCallback`).

        Operation ``sessions.search``.
        """
        params: dict[str, Any] = {"query": query}
        if project is not None:
            params["project"] = project
        if since is not None:
            params["since"] = since
        if types is not None:
            params["types"] = _strings(types)
        if limit is not None:
            params["limit"] = limit
        if mode is not None:
            params["mode"] = mode
        if now is not None:
            params["now"] = now
        if projects_dir is not None:
            params["projects_dir"] = os.fsdecode(projects_dir)
        if within is not None:
            params["within"] = _paths(within)
        return cast(
            "SessionsSearchResponse",
            self.call("sessions.search", params, progress=progress),
        )

    def sessions_status(
        self,
        *,
        within: StrPath | Iterable[StrPath] | None = None,
    ) -> SessionsStatusResponse:
        """Session index statistics: sessions, subagents, projects, chunks by kind, index size,
        model, last indexed.

        Args:
            within: Only what is stored for projects under these directories (absent or empty:
                all): sessions, projects and chunks are counted over those; the index size, model
                and last run stay those of the whole index. The MCP server sets it to its roots.

        Operation ``sessions.status``.
        """
        params: dict[str, Any] = {}
        if within is not None:
            params["within"] = _paths(within)
        return cast("SessionsStatusResponse", self.call("sessions.status", params))


def _paths(value: StrPath | Iterable[StrPath]) -> list[str]:
    """One path or several, as a list of strings."""
    if isinstance(value, (str, os.PathLike)):
        return [os.fsdecode(value)]
    return [os.fsdecode(item) for item in value]


def _strings(value: str | Iterable[str]) -> list[str]:
    """One string or several, as a list."""
    return [value] if isinstance(value, str) else list(value)


def _string_list(name: str, value: Iterable[str]) -> list[str]:
    """A list of strings; one string is refused (its characters are not what was meant)."""
    if isinstance(value, str):
        raise TypeError(f"{name} must be a list of strings, not one string")
    return list(value)
