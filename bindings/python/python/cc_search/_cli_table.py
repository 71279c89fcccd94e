"""The ``cc-search`` command line as data: every command, its options, their types and
help.

Generated from the operation table (each command's request schema) and the command-line
hints (``core/tests/it/bindgen/hints.rs``) by ``make bindings``: do not edit. The drift test
``cargo test -p cc-search --test it -- bindings_generated`` fails when this file is not what
they give. :mod:`cc_search.cli` builds the parsers from it and runs the commands; its
``Command`` and ``Param`` say what each key means (a key left out has their default).
Plain literals, no imports: reading the table costs a command's start-up nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The command groups and their help.
GROUPS: tuple[tuple[str, str], ...] = (
    ("files", "File paths ranked for the @ picker."),
    ("code", "Code symbols (tree-sitter): index a repository, search and navigate its symbols."),
    ("docs", (
        "The project's docs (Markdown, reStructuredText) by section: index them, search them "
        "(keyword + semantic)."
    )),
    ("notes", "Session notes (sessions/YYYY_MM_DD_TOPIC/*.md) by H2 section: index, search."),
    ("install", "Set cc-search up in other tools."),
    ("hook", "Commands Claude Code runs, set up by `install claude`; they never fail."),
)

#: Every command, in the order the help lists them.
COMMANDS: tuple[dict[str, Any], ...] = (
    {
        "name": "files refresh",
        "op": "files.refresh",
        "help": "Index the file paths under DIR, or the project's session roots (incremental).",
        "json": "plain",
        "json_help": "Print the result as JSON: each root's counts, and the warnings.",
        "progress": "at-end",
        "params": (
            {
                "dest": "root",
                "nargs": "?",
                "metavar": "DIR",
                "help": (
                    "Directory to index. Without it: the project, the configured [index] roots and "
                    "the project's additional directories."
                ),
            },
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The project refreshed without DIR (default: $CLAUDE_PROJECT_DIR, else the "
                    "current directory)."
                ),
            },
            {
                "dest": "max_depth",
                "flags": ("--max-depth",),
                "kind": "int",
                "metavar": "N",
                "help": "Deepest level below DIR to index.",
            },
            {
                "dest": "exclude",
                "flags": ("--exclude",),
                "many": True,
                "metavar": "PAT",
                "help": "Gitignore-style pattern to leave out (repeatable).",
            },
            {
                "dest": "max_files",
                "flags": ("--max-files",),
                "kind": "int",
                "metavar": "N",
                "help": (
                    "Stop after this many files; defaults to [index.limits] max_files_per_root."
                ),
            },
            {
                "dest": "full",
                "flags": ("--full",),
                "kind": "flag",
                "help": (
                    "Walk every root in full. Without it, a root in a git work tree that was "
                    "walked within the last day with the same rules is brought up to date from "
                    "what moved: directories whose mtime changed, files git reports (status, and "
                    "the commits between the HEAD last indexed and the current one)."
                ),
            },
        ),
    },
    {
        "name": "files suggest",
        "op": "files.suggest",
        "help": "Print the best paths for QUERY, one a line, relative to the project.",
        "json": "plain",
        "json_help": "Print the result as JSON: {\"paths\": [...], \"warnings\": [...]}.",
        "params": (
            {
                "dest": "query",
                "nargs": "?",
                "metavar": "QUERY",
                "help": "What was typed after @; empty lists the recent files.",
            },
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The project, whose paths are suggested (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
            },
            {
                "dest": "limit",
                "flags": ("--limit", "-n"),
                "kind": "int",
                "metavar": "N",
                "help": "Most paths to print, 1 to 15 (default 15).",
            },
        ),
    },
    {
        "name": "grep",
        "op": "grep.search",
        "help": (
            "Search file contents (checkfor's flags) and print compact JSON on one line: per "
            "directory, the files with matches in path order, paths relative to the "
            "directory.\n\nWithout --recursive only the directory's own files are read. With it, "
            "subdirectories are searched as ripgrep searches them by default: files that ignore "
            "files exclude (.gitignore in a git repository, .ignore, .git/info/exclude, the global "
            "excludes) and hidden files and directories are skipped, nothing else; --hidden and "
            "--skip-generated change that.\n\nFinding nothing is not an error (status 0). "
            "Unreadable files are warnings on stderr; a directory that cannot be read is reported "
            "in the JSON and on stderr, and the status is then 1. A usage error exits with status "
            "2, Ctrl-C with 130."
        ),
        "json": "always",
        "json_help": "Print the JSON result (what grep always prints).",
        "params": (
            {
                "dest": "search",
                "flags": ("--search", "-e"),
                "metavar": "TEXT",
                "help": (
                    "Text to search for: a literal substring, or a regular expression with --regex."
                ),
                "required": True,
            },
            {
                "dest": "dir",
                "flags": ("--dir",),
                "many": True,
                "metavar": "DIR[,DIR]",
                "help": (
                    "Comma-separated directories, searched and reported in this order (default: "
                    "the project, -C)."
                ),
                "commas": True,
            },
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "field": False,
                "metavar": "DIR",
                "help": (
                    "The project, searched when --dir is not given (default: $CLAUDE_PROJECT_DIR, "
                    "else the current directory)."
                ),
            },
            {
                "dest": "ext",
                "flags": ("--ext",),
                "many": True,
                "metavar": "EXT[,EXT]",
                "help": "Only files with one of these extensions (.go, or rs,py).",
                "commas": True,
            },
            {
                "dest": "exclude",
                "flags": ("--exclude",),
                "many": True,
                "metavar": "TEXT[,TEXT]",
                "help": (
                    "Comma-separated strings; matching lines containing any are dropped (and "
                    "counted)."
                ),
                "commas": True,
            },
            {
                "dest": "case_insensitive",
                "flags": ("--case-insensitive", "-i"),
                "kind": "flag",
                "help": "Ignore case in --search and --exclude.",
            },
            {
                "dest": "whole_word",
                "flags": ("--whole-word", "-w"),
                "kind": "flag",
                "help": "Match whole words only (word characters: ASCII letters, digits, _).",
            },
            {
                "dest": "context",
                "flags": ("--context",),
                "kind": "int",
                "metavar": "N",
                "help": "Lines of context before and after each match (default 0).",
                "min": 0,
            },
            {
                "dest": "recursive",
                "flags": ("--recursive", "-r"),
                "kind": "flag",
                "help": (
                    "Search subdirectories too, skipping ignored and hidden files (as rg does)."
                ),
            },
            {
                "dest": "max_matches",
                "flags": ("--max-matches", "--limit", "-n"),
                "kind": "int",
                "metavar": "N",
                "help": "List at most N matches (matches_found still counts them all).",
                "min": 1,
            },
            {
                "dest": "max_tokens",
                "flags": ("--max-tokens",),
                "kind": "int",
                "metavar": "N",
                "help": (
                    "Keep the JSON within about N tokens (context dropped first, then long lines "
                    "shortened, then the last matches)."
                ),
                "min": 1,
            },
            {
                "dest": "hide_filter_stats",
                "flags": ("--hide-filter-stats",),
                "kind": "flag",
                "help": "Leave original_matches and filtered_matches out.",
            },
            {
                "dest": "hidden",
                "flags": ("--hidden",),
                "kind": "flag",
                "help": "With --recursive: search hidden files and directories too (never .git).",
            },
            {
                "dest": "skip_generated",
                "flags": ("--skip-generated",),
                "kind": "flag",
                "help": (
                    "With --recursive: also skip dependency, build and cache output: the "
                    "directories node_modules, dist, build, .next, .nuxt, target, __pycache__, "
                    ".venv, vendor, coverage, .cache, and *.pyc files."
                ),
            },
            {
                "dest": "regex",
                "flags": ("--regex",),
                "kind": "flag",
                "help": "--search is a regular expression.",
            },
        ),
    },
    {
        "name": "code index",
        "op": "code.index_repository",
        "help": (
            "Index (or bring up to date) a repository's symbols; only changed files are parsed."
        ),
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: the run's counts (new, changed, "
            "unchanged and deleted files; the symbols and references the index holds)."
        ),
        "progress": "at-end",
        "params": (
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
            {
                "dest": "force",
                "flags": ("--force",),
                "kind": "flag",
                "help": "Re-parse every file, changed or not.",
            },
        ),
    },
    {
        "name": "code update",
        "op": "code.update_files",
        "help": (
            "Re-index specific files of an indexed repository (changed ones re-parsed, deleted "
            "ones removed) without walking it."
        ),
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: the run's counts (new, changed, "
            "unchanged and deleted files; the symbols and references the index holds)."
        ),
        "params": (
            {
                "dest": "files",
                "many": True,
                "nargs": "+",
                "metavar": "FILE...",
                "help": "Files to re-index.",
            },
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
        ),
    },
    {
        "name": "code status",
        "op": "code.index_status",
        "help": "What the index holds and which files changed since.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: files, symbols, references and "
            "languages, when indexed, and the files changed, deleted or new since."
        ),
        "params": (
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
        ),
    },
    {
        "name": "code overview",
        "op": "code.get_overview",
        "help": "Languages, directories, most referenced types, entry points.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: languages, directories, and the top "
            "types and entry points with their signatures and docs."
        ),
        "agent": True,
        "params": (
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
        ),
    },
    {
        "name": "code symbols",
        "op": "code.get_file_symbols",
        "help": "The symbols of one file, as a tree.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: the tree of symbols, each with its "
            "lines, signature and doc."
        ),
        "agent": True,
        "params": (
            {"dest": "file", "metavar": "FILE", "help": "File, relative to the repository."},
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
        ),
    },
    {
        "name": "code search",
        "op": "code.search_symbols",
        "help": "Search symbols by name, subword, doc comment, kind or path.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: every hit with its signature and doc "
            "(the text output cuts the signature to the line)."
        ),
        "agent": True,
        "params": (
            {"dest": "query", "metavar": "QUERY", "help": "Words, prefix*, AND/OR/NOT."},
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
            {
                "dest": "kind",
                "flags": ("--kind", "-k"),
                "metavar": "KIND",
                "help": "Only this kind (fn, class, ...).",
            },
            {
                "dest": "limit",
                "flags": ("--limit", "-n"),
                "kind": "int",
                "metavar": "N",
                "help": "Most symbols to list.",
                "min": 1,
            },
        ),
    },
    {
        "name": "code find",
        "op": "code.find",
        "help": "Find the files and definitions a description is about, best first.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: the files with their scores, each "
            "file's best definition with its id, lines and signature, and the sides that ranked."
        ),
        "agent": True,
        "progress": "at-end",
        "params": (
            {
                "dest": "query",
                "metavar": "QUERY",
                "help": (
                    "What to find: an issue, a stack trace, a question; `-` reads it from stdin."
                ),
                "stdin": True,
            },
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
            {
                "dest": "limit",
                "flags": ("--limit", "-n"),
                "kind": "int",
                "metavar": "N",
                "help": "Most files to list (default 10).",
                "min": 1,
            },
        ),
    },
    {
        "name": "code detail",
        "op": "code.get_symbol_detail",
        "help": "One symbol in full: signature, doc, parent, children, calls, callers.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: the symbol with its whole signature and "
            "doc, its parent, children and references (the text output shows the start of a long "
            "doc)."
        ),
        "agent": True,
        "params": (
            {"dest": "id", "kind": "int", "metavar": "ID", "help": "Symbol id."},
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
        ),
    },
    {
        "name": "code refs",
        "op": "code.get_references",
        "help": "Who refers to a symbol.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: every reference with its file, line, "
            "kind and referring symbol."
        ),
        "agent": True,
        "params": (
            {"dest": "id", "kind": "int", "metavar": "ID", "help": "Symbol id."},
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
            {
                "dest": "offset",
                "flags": ("--offset",),
                "kind": "int",
                "metavar": "N",
                "help": (
                    "How many references to skip, in the answer's order: an answer cut short names "
                    "the --offset of the rest."
                ),
            },
        ),
    },
    {
        "name": "code deps",
        "op": "code.get_dependencies",
        "help": "What a symbol refers to.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: every name it refers to, with its kind "
            "and the symbol it resolved to."
        ),
        "agent": True,
        "params": (
            {"dest": "id", "kind": "int", "metavar": "ID", "help": "Symbol id."},
            {
                "dest": "path",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The repository, or a directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
                "old": "--path",
            },
        ),
    },
    {
        "name": "code repos",
        "op": "code.list_repos",
        "help": "The indexed repositories.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: each repository's path, files, symbols, "
            "when indexed and database file."
        ),
        "params": (
        ),
    },
    {
        "name": "code delete",
        "op": "code.delete_repos",
        "help": "Delete the code index of repositories.",
        "json": "compact",
        "json_help": (
            "Print the result as compact JSON on one line: the repositories whose index was "
            "deleted, and those without one."
        ),
        "one_of": ("paths", "all"),
        "params": (
            {
                "dest": "paths",
                "many": True,
                "nargs": "*",
                "metavar": "DIR...",
                "help": "Repositories whose index to delete.",
            },
            {
                "dest": "all",
                "flags": ("--all",),
                "kind": "flag",
                "help": "Delete every code index.",
            },
        ),
    },
    {
        "name": "docs index",
        "op": "docs.index",
        "help": (
            "Index the project's docs by section, for the current git branch: README and other "
            "top-level docs, doc/, docs/, {apps,packages}/*/docs/, each package's README and docs "
            "directories (Markdown, reStructuredText), a Rust crate's lib.rs guide, and the "
            "project's remembered globs."
        ),
        "json": "plain",
        "json_help": (
            "Print the result as JSON: the run's counts (files, sections, embedded) and the "
            "warnings."
        ),
        "progress": "keeps",
        "params": (
            {
                "dest": "globs",
                "flags": ("--glob",),
                "many": True,
                "metavar": "GLOB",
                "help": (
                    "More files to index, relative to the project root (repeatable); remembered, "
                    "so every later run indexes them too."
                ),
                "old": "--path",
            },
            {
                "dest": "forget",
                "flags": ("--forget",),
                "kind": "flag",
                "help": (
                    "Forget the remembered globs (those given with --glob, or all) and drop their "
                    "files from the index."
                ),
            },
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The project, or any directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
            },
            {
                "dest": "lock_wait_secs",
                "flags": ("--lock-wait",),
                "kind": "int",
                "metavar": "SECONDS",
                "help": (
                    "Seconds to wait for another index run's lock before giving up (default 30)."
                ),
                "min": 0,
            },
            {
                "dest": "keyword_only",
                "flags": ("--keyword-only",),
                "kind": "flag",
                "help": (
                    "Split and store only: new sections are searchable by keyword at once, by "
                    "meaning once a later run embeds them."
                ),
            },
        ),
    },
    {
        "name": "docs query",
        "op": "docs.query",
        "help": "Search the project's indexed docs (current branch by default). Never indexes.",
        "json": "plain",
        "json_help": (
            "Print the result as JSON: every hit with its whole section, score and place, the mode "
            "and the warnings (the text output shows a snippet of each)."
        ),
        "excludes": (("all_branches", "branch"),),
        "params": (
            {"dest": "query", "metavar": "QUERY", "help": "What to look for.", "nonblank": True},
            {
                "dest": "branch",
                "flags": ("--branch",),
                "metavar": "NAME",
                "help": "Search this branch instead of the current one.",
            },
            {
                "dest": "limit",
                "flags": ("--limit", "-n"),
                "kind": "int",
                "metavar": "N",
                "help": "Most results to list, 1 to 100 (default 10).",
                "min": 1,
                "max": 100,
            },
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The project, or any directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
            },
            {
                "dest": "mode",
                "flags": ("--mode",),
                "metavar": "MODE",
                "help": (
                    "hybrid (default; keyword-only when no model is available), keyword or vector."
                ),
                "choices": ("hybrid", "keyword", "vector"),
                "default": "hybrid",
            },
            {
                "dest": "all_branches",
                "flags": ("--all-branches",),
                "kind": "flag",
                "help": (
                    "Search every indexed branch of the project (identical sections on several "
                    "branches are shown once, with their branches)."
                ),
            },
        ),
    },
    {
        "name": "notes index",
        "op": "notes.index",
        "help": "Index the project's session notes (sessions/**/*.md) by H2 section.",
        "json": "plain",
        "json_help": (
            "Print the result as JSON: the run's counts (files, sections, embedded) and the "
            "warnings."
        ),
        "progress": "keeps",
        "params": (
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The project, or any directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
            },
            {
                "dest": "lock_wait_secs",
                "flags": ("--lock-wait",),
                "kind": "int",
                "metavar": "SECONDS",
                "help": (
                    "Seconds to wait for another index run's lock before giving up (default 30)."
                ),
                "min": 0,
            },
        ),
    },
    {
        "name": "notes query",
        "op": "notes.query",
        "help": "Search the project's indexed session notes. Never indexes.",
        "json": "plain",
        "json_help": (
            "Print the result as JSON: every hit with its whole section, score and place, the mode "
            "and the warnings (the text output shows a snippet of each)."
        ),
        "params": (
            {"dest": "query", "metavar": "QUERY", "help": "What to look for.", "nonblank": True},
            {
                "dest": "after",
                "flags": ("--after",),
                "metavar": "YYYY-MM-DD",
                "help": "Only notes of sessions on or after this date (YYYY-MM-DD).",
            },
            {
                "dest": "file",
                "flags": ("--file",),
                "metavar": "NAME",
                "help": (
                    "Only notes in files with this base name (IMPLEMENTATION for "
                    "IMPLEMENTATION.md; case-insensitive)."
                ),
            },
            {
                "dest": "limit",
                "flags": ("--limit", "-n"),
                "kind": "int",
                "metavar": "N",
                "help": "Most results to list, 1 to 100 (default 10).",
                "min": 1,
                "max": 100,
            },
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "metavar": "DIR",
                "help": (
                    "The project, or any directory inside it (default: $CLAUDE_PROJECT_DIR, else "
                    "the current directory)."
                ),
            },
            {
                "dest": "mode",
                "flags": ("--mode",),
                "metavar": "MODE",
                "help": (
                    "hybrid (default; keyword-only when no model is available), keyword or vector."
                ),
                "choices": ("hybrid", "keyword", "vector"),
                "default": "hybrid",
            },
        ),
    },
    {
        "name": "search",
        "op": "sessions.search",
        "help": (
            "Search Claude Code sessions (keyword + semantic, recent first). Indexes first when "
            "there is no index yet."
        ),
        "json": "plain",
        "json_help": (
            "Print the result as JSON: every hit with its whole text, score, project, session and "
            "time, and the warnings (the text output shows a snippet of each)."
        ),
        "progress": "keeps",
        "params": (
            {
                "dest": "query",
                "nargs": "?",
                "metavar": "QUERY",
                "help": "What to look for, in your own words.",
                "nonblank": True,
            },
            {
                "dest": "project",
                "flags": ("--project",),
                "metavar": "NAME",
                "help": "Only projects whose path contains NAME (case-insensitive).",
                "old": "-p",
            },
            {
                "dest": "since",
                "flags": ("--since", "-s"),
                "metavar": "WHEN",
                "help": "Only from this time on: 2h, 1w, 30d, or a date (2026-01-01).",
            },
            {
                "dest": "types",
                "flags": ("--type", "-t"),
                "many": True,
                "metavar": "TYPE",
                "help": (
                    "Only this content type: user, assistant, tool, thinking or summary "
                    "(repeatable, or comma-separated)."
                ),
                "choices": ("user", "assistant", "tool", "thinking", "summary"),
                "commas": True,
            },
            {
                "dest": "limit",
                "flags": ("--limit", "-n"),
                "kind": "int",
                "metavar": "N",
                "help": "Most results to list, 1 to 100 (default 5).",
                "min": 1,
                "max": 100,
            },
            {
                "dest": "mode",
                "flags": ("--mode",),
                "metavar": "MODE",
                "help": (
                    "hybrid (default; keyword-only when no model is available), keyword or vector."
                ),
                "choices": ("hybrid", "keyword", "vector"),
                "default": "hybrid",
            },
        ),
    },
    {
        "name": "chunk",
        "op": "sessions.chunk",
        "help": "View the full content of a chunk, with its context.",
        "json": "plain",
        "json_help": (
            "Print the result as JSON: its whole text, the messages around it, its session and "
            "time."
        ),
        "params": (
            {
                "dest": "id",
                "metavar": "ID",
                "help": "A chunk id from `search` (any unique prefix).",
            },
        ),
    },
    {
        "name": "index",
        "op": "sessions.index",
        "help": "Build or update the session search index (new and grown sessions only).",
        "json": "plain",
        "json_help": (
            "Print the result as JSON: sessions and chunks read, written and removed, and the "
            "warnings."
        ),
        "progress": "keeps",
        "params": (
            {
                "dest": "force",
                "flags": ("--force",),
                "kind": "flag",
                "help": "Reindex all sessions.",
            },
            {
                "dest": "keyword_only",
                "flags": ("--keyword-only",),
                "kind": "flag",
                "help": (
                    "Parse and store only: new chunks are searchable by keyword at once, by "
                    "meaning once a later run embeds them."
                ),
            },
        ),
    },
    {
        "name": "status",
        "op": "sessions.status",
        "help": "Show the session index: sessions, chunks, projects, size, model, last indexed.",
        "json": "plain",
        "json_help": "Print the result as JSON: counts by project and kind, size, model, last run.",
        "params": (
        ),
    },
    {
        "name": "ops",
        "help": "List the operations `call` can run.",
        "json": "plain",
        "json_help": (
            "Print the result as JSON: each operation's name, summary and request and response "
            "JSON Schemas."
        ),
        "params": (
        ),
    },
    {
        "name": "call",
        "help": "Run any operation by name and print its JSON result.",
        "json": "always",
        "json_help": "Print the result as JSON: compact, on one line, as without --json.",
        "params": (
            {"dest": "op", "field": False, "metavar": "OP", "help": "Operation name (see `ops`)."},
            {
                "dest": "params",
                "field": False,
                "nargs": "?",
                "metavar": "PARAMS_JSON",
                "help": "JSON object of parameters (default: none); `-` reads it from stdin.",
                "stdin": True,
            },
        ),
    },
    {
        "name": "mcp",
        "help": (
            "Run the MCP server on stdin/stdout (JSON-RPC, one message a line) until stdin ends. "
            "By default it offers the agent's toolset: file names, contents (checkfor), symbols, "
            "docs, notes and earlier sessions. For Claude Code: `cc-search install claude --mcp`."
        ),
        "json": "none",
        "params": (
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "field": False,
                "metavar": "DIR",
                "help": (
                    "The project: the first directory the tools may read (default: "
                    "$CLAUDE_PROJECT_DIR, else the current directory)."
                ),
            },
            {
                "dest": "roots",
                "flags": ("--root",),
                "field": False,
                "many": True,
                "metavar": "DIR",
                "help": (
                    "Another directory the tools may read (repeatable; without -C the first is the "
                    "project). The configured [index] roots are added."
                ),
            },
            {
                "dest": "tools",
                "flags": ("--tools",),
                "field": False,
                "many": True,
                "metavar": "LIST",
                "help": (
                    "The tools offered, comma-separated (repeatable): `default` (the agent's "
                    "toolset), `all`, a component (files, grep, code, docs, notes, sessions, "
                    "embed) or a tool name. Default: [mcp] tools of the config, else `default`."
                ),
                "commas": True,
            },
            {
                "dest": "max_tokens",
                "flags": ("--max-tokens",),
                "field": False,
                "kind": "int",
                "metavar": "N",
                "help": (
                    "An answer's token budget when a call gives none. Default: [mcp] max_tokens of "
                    "the config, else 8000."
                ),
                "min": 1,
            },
            {
                "dest": "structured",
                "flags": ("--structured",),
                "field": False,
                "kind": "onoff",
                "help": (
                    "Also offer outputSchema and answer with structuredContent (protocol "
                    "2025-06-18 on). Default: [mcp] structured of the config, else off."
                ),
            },
        ),
    },
    {
        "name": "install claude",
        "help": (
            "Make Claude Code use cc-search for @ file suggestions, with a SessionStart hook that "
            "refreshes the index (idempotent; one backup of the previous file is kept in the data "
            "root, and --uninstall puts the file back as it was). The hooks run the native program "
            "cc-search-hook: by absolute path for --user, from PATH for --project (the file is "
            "shared). With --mcp, register cc-search's MCP server with Claude Code instead, as "
            "`claude mcp add` does."
        ),
        "json": "plain",
        "json_help": (
            "Print the result as JSON: the settings file, whether and what changed, the backup, "
            "and the warnings."
        ),
        "excludes": (("user", "project"), ("user", "project_dir"), ("hooks_dir", "hook_program")),
        "params": (
            {
                "dest": "user",
                "flags": ("--user",),
                "field": False,
                "kind": "flag",
                "help": (
                    "Edit the user settings: $CLAUDE_CONFIG_DIR/settings.json "
                    "(~/.claude/settings.json); with --mcp, ~/.claude.json. The default."
                ),
            },
            {
                "dest": "project",
                "flags": ("--project",),
                "field": False,
                "kind": "flag",
                "help": (
                    "Edit the project's .claude/settings.json, with commands every teammate can "
                    "run (`cc-search-hook …` from PATH); with --mcp, its .mcp.json (`cc-search "
                    "mcp`)."
                ),
            },
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "field": False,
                "metavar": "DIR",
                "help": (
                    "The project whose settings to edit; implies --project (default: "
                    "$CLAUDE_PROJECT_DIR, else the current directory)."
                ),
            },
            {
                "dest": "hooks_dir",
                "flags": ("--hooks-dir",),
                "field": False,
                "metavar": "DIR",
                "help": (
                    "Use DIR/file-suggestion.sh and DIR/session-start.sh (the npm package's Bun "
                    "hooks) instead of the native hook program."
                ),
            },
            {
                "dest": "hook_program",
                "flags": ("--hook-program",),
                "field": False,
                "metavar": "FILE",
                "help": (
                    "The native hook program to use (default: the cc-search-hook installed with "
                    "this cc-search). Where it cannot run, this CLI's slower `hook` commands are "
                    "written instead, with a warning."
                ),
            },
            {
                "dest": "mcp",
                "flags": ("--mcp",),
                "field": False,
                "kind": "flag",
                "help": (
                    "Register cc-search's MCP server instead (only that, not the hooks): in "
                    "~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json) as this cc-search's absolute "
                    "path, or with --project in the project's .mcp.json as `cc-search mcp`."
                ),
            },
            {
                "dest": "uninstall",
                "flags": ("--uninstall",),
                "field": False,
                "kind": "flag",
                "help": "Remove what an install added, and only that.",
            },
        ),
    },
    {
        "name": "hook file-suggestion",
        "help": (
            "Claude Code's fileSuggestion command: reads {\"query\": \"...\"} on stdin and prints "
            "up to 15 paths of the project, one a line; no input at all lists the top files. Never "
            "fails: on an error (input that is not that JSON among them) stdout stays empty, one "
            "line on stderr says why, the status is 0."
        ),
        "json": "none",
        "params": (
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "field": False,
                "metavar": "DIR",
                "help": "The project (default: $CLAUDE_PROJECT_DIR, else the current directory).",
            },
        ),
    },
    {
        "name": "hook session-start",
        "help": (
            "Claude Code's SessionStart hook: starts `cc-search files refresh` for the project's "
            "session in the background, logging to <data root>/logs/session-start.log, and returns "
            "at once. Reads and ignores the hook's JSON on stdin; prints nothing on stdout; the "
            "status is always 0."
        ),
        "json": "none",
        "params": (
            {
                "dest": "project_dir",
                "flags": ("--project-dir", "-C"),
                "field": False,
                "metavar": "DIR",
                "help": "The project (default: $CLAUDE_PROJECT_DIR, else the current directory).",
            },
        ),
    },
)
