// Types of every cc-search operation and the `Engine` methods that run them.
//
// Generated from the operation table (cc_search::OPERATIONS in the core) by `make bindings`:
// do not edit. `cargo test -p cc-search --test it -- bindings_generated` fails when this file is
// not what the table gives. index.d.ts re-exports it and gives `Engine` these methods.

/**
 * Options of `Engine.callAsync`, also taken by every `…Async` method beside the
 * operation's own.
 */
export interface CallOptions {
  /** Stops the call within a fraction of a second (it rejects with code `cancelled`). */
  signal?: AbortSignal | null
  /**
   * Called on the JS thread as the operation reports progress: `stage` (`walk`, `parse`,
   * `embed`), `done` of `total` units (`total` 0: not known yet).
   */
  onProgress?: ((stage: string, done: number, total: number) => void) | null
}

/** A chunk kind of the session index. */
export type SessionsChunkKind = 'user' | 'assistant' | 'tool' | 'thinking' | 'summary'

// ── claude.install ──

/** Parameters of `claude.install`. */
export interface ClaudeInstallRequest {
  /**
   * `user` (default): `<config dir>/settings.json`; `project`:
   * `<project_dir>/.claude/settings.json`.
   */
  scope?: ClaudeScope
  /**
   * The project, for scope `project`; defaults to `$CLAUDE_PROJECT_DIR`, else the current
   * directory. Must exist.
   */
  project_dir?: string | null
  /** The shell command Claude Code runs for `@` suggestions. Required to install. */
  file_suggestion_command?: string
  /** The shell command of the `SessionStart` hook. Required to install. */
  session_start_command?: string
  /**
   * Remove cc-search's entries instead of adding them. The commands are optional then; when given,
   * they are recognised as cc-search's too.
   */
  uninstall?: boolean
}

/** Options of `claudeInstall`: the parameters of `claude.install`, in camelCase. */
export interface ClaudeInstallOptions {
  /**
   * `user` (default): `<config dir>/settings.json`; `project`:
   * `<project_dir>/.claude/settings.json`.
   */
  scope?: ClaudeScope
  /**
   * The project, for scope `project`; defaults to `$CLAUDE_PROJECT_DIR`, else the current
   * directory. Must exist.
   */
  projectDir?: string | null
  /** The shell command Claude Code runs for `@` suggestions. Required to install. */
  fileSuggestionCommand?: string
  /** The shell command of the `SessionStart` hook. Required to install. */
  sessionStartCommand?: string
  /**
   * Remove cc-search's entries instead of adding them. The commands are optional then; when given,
   * they are recognised as cc-search's too.
   */
  uninstall?: boolean
}

/**
 * Which file `Install` and `InstallMcp` edit.
 *
 * - `'user'`: The user's own: `settings.json` in Claude Code's configuration directory
 *   (`config_dir`) for `claude.install`, Claude Code's state file (`user_state_file`,
 *   `~/.claude.json`) for `claude.install_mcp`.
 * - `'project'`: The project's: `.claude/settings.json` for `claude.install`, `.mcp.json` (shared
 *   with everyone who works on it) for `claude.install_mcp`.
 */
export type ClaudeScope = 'user' | 'project'

/** Result of `claude.install`. */
export interface ClaudeInstallResponse {
  /** The settings file (as addressed; a symbolic link is followed for the write). */
  settings_path: string
  /** Whether the file was rewritten. `false`: it already said what it should. */
  changed: boolean
  /**
   * The one backup of the file, in the data root: the previous content, kept before it was replaced
   * or deleted (`null` when nothing was written or there was no previous file).
   */
  backup: string | null
  /** What changed, one line each, for people. */
  changes: string[]
  /** Anything worth knowing (a replaced `fileSuggestion` of another program, …). */
  warnings: string[]
}

// ── claude.install_mcp ──

/** Parameters of `claude.install_mcp`. */
export interface ClaudeInstallMcpRequest {
  /**
   * `user` (default): Claude Code's `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set);
   * `project`: `<project_dir>/.mcp.json`.
   */
  scope?: ClaudeScope
  /**
   * The project, for scope `project`; defaults to `$CLAUDE_PROJECT_DIR`, else the current
   * directory. Must exist.
   */
  project_dir?: string | null
  /** The server's name in Claude Code (letters, digits, `-` and `_`). */
  name?: string
  /**
   * The program Claude Code starts (no shell): an absolute path, or a name looked up on the PATH
   * Claude Code runs with. Required to install.
   */
  command?: string
  /** Its arguments (e.g. `["mcp"]`). */
  args?: string[]
  /**
   * Remove the server instead of adding it. `command` and `args` are optional then; when given, an
   * entry running exactly them is recognised as cc-search's too.
   */
  uninstall?: boolean
}

/** Options of `claudeInstallMcp`: the parameters of `claude.install_mcp`, in camelCase. */
export interface ClaudeInstallMcpOptions {
  /**
   * `user` (default): Claude Code's `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set);
   * `project`: `<project_dir>/.mcp.json`.
   */
  scope?: ClaudeScope
  /**
   * The project, for scope `project`; defaults to `$CLAUDE_PROJECT_DIR`, else the current
   * directory. Must exist.
   */
  projectDir?: string | null
  /** The server's name in Claude Code (letters, digits, `-` and `_`). */
  name?: string
  /**
   * The program Claude Code starts (no shell): an absolute path, or a name looked up on the PATH
   * Claude Code runs with. Required to install.
   */
  command?: string
  /** Its arguments (e.g. `["mcp"]`). */
  args?: string[]
  /**
   * Remove the server instead of adding it. `command` and `args` are optional then; when given, an
   * entry running exactly them is recognised as cc-search's too.
   */
  uninstall?: boolean
}

/** Result of `claude.install_mcp`. */
export interface ClaudeInstallMcpResponse {
  /** The file edited (as addressed; a symbolic link is followed for the write). */
  path: string
  /** Whether the file was rewritten (or deleted). `false`: it already said what it should. */
  changed: boolean
  /** What changed, one line each, for people. */
  changes: string[]
  /**
   * Anything worth knowing (a command not found here, another program's entry left in place, …).
   */
  warnings: string[]
}

// ── code.delete_repos ──

/** Parameters of `code.delete_repos`. */
export interface CodeDeleteRequest {
  /** Repository roots whose index to delete (they need not exist any more). */
  paths?: string[]
  /** Delete every code index instead (with `within`: every one under it). */
  all?: boolean
  /**
   * Only what is stored for repositories under these directories (absent or empty: all): `all`
   * deletes only those, and a `paths` entry outside them is refused. The MCP server sets it to its
   * roots.
   */
  within?: string[]
}

/** Options of `codeDelete`: the parameters of `code.delete_repos` but `paths`, in camelCase. */
export interface CodeDeleteOptions {
  /** Delete every code index instead (with `within`: every one under it). */
  all?: boolean
  /**
   * Only what is stored for repositories under these directories (absent or empty: all): `all`
   * deletes only those, and a `paths` entry outside them is refused. The MCP server sets it to its
   * roots.
   */
  within?: string[]
}

/** Result of `code.delete_repos`. */
export interface CodeDeleteResponse {
  /** Repositories whose index was deleted, by path. */
  deleted: string[]
  /** Paths given that had no index. */
  not_found?: string[]
}

// ── code.find ──

/** Parameters of `code.find`. */
export interface CodeFindRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /** What to find, in free text: an issue, a stack trace, a question (first 16 KiB). */
  query?: string
  /** Most files, and most definitions (default 10). */
  limit?: number | null
}

/** Options of `codeFind`: the parameters of `code.find` but `query`, in camelCase. */
export interface CodeFindOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /** Most files, and most definitions (default 10). */
  limit?: number | null
}

/** Result of `code.find`. */
export interface CodeFindResponse {
  /** Files, best first. */
  files: CodeFoundFile[]
  /** The definitions to change, best first: up to `limit`, each in a listed file. */
  hits: CodeFoundCode[]
  /** The sides that ranked: `keyword`, `structure`, `meaning` (not without the embedding model). */
  used: string[]
  /** Problems met; left out when empty. */
  warnings?: string[]
}

/** A file `code.find` ranks. */
export interface CodeFoundFile {
  /** Path relative to the repository root. */
  path: string
  /** Score (higher is better; comparable within one answer only). */
  score: number
}

/** A definition `code.find` points at. */
export interface CodeFoundCode {
  /** Its file (one of `files`), relative to the repository root. */
  path: string
  /** Symbol id (for `get_symbol_detail`, `get_references`, `get_dependencies`). */
  id: number
  /** Name. */
  name: string
  /** Kind. */
  kind: string
  /** First line (1-based). */
  start_line: number
  /** Last line. */
  end_line: number
  /** Its signature, shortened, or its first line. */
  snippet?: string
}

// ── code.get_dependencies ──

/** Parameters of `code.get_symbol_detail` and `code.get_dependencies`. */
export interface CodeDependenciesRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /** The symbol's id (from a search, an overview or a file's symbols). */
  id?: number
}

/**
 * Options of `codeDependencies`: the parameters of `code.get_dependencies` but `id`, in camelCase.
 */
export interface CodeDependenciesOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
}

/** Result of `code.get_dependencies`. */
export interface CodeDependenciesResponse {
  /** The symbol. */
  id: number
  /** What it refers to, in line order. */
  dependencies: CodeDependency[]
}

/** One dependency of a symbol. */
export interface CodeDependency {
  /** The name referred to. */
  to_name: string
  /** `call`, `import`, `type_ref`, `extends` or `implements`. */
  kind: string
  /** The symbol it resolved to. */
  to_id?: number
  /**
   * Present (`true`) when it resolved to nothing in the index (the standard library, a dependency,
   * a builtin).
   */
  external?: true
  /**
   * Present (`true`) when several definitions could be meant and none is linked: `candidates` lists
   * some.
   */
  ambiguous?: boolean
  /** With `ambiguous`: ids of definitions it could mean (at most five). */
  candidates?: number[]
}

// ── code.get_file_symbols ──

/** Parameters of `code.get_file_symbols`. */
export interface CodeFileSymbolsRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /** The file: relative to the repository root, or absolute inside it. */
  file?: string
}

/**
 * Options of `codeFileSymbols`: the parameters of `code.get_file_symbols` but `file`, in camelCase.
 */
export interface CodeFileSymbolsOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
}

/** Result of `code.get_file_symbols`. */
export interface CodeFileSymbolsResponse {
  /** The file, relative to the repository root. */
  path: string
  /** Its top-level symbols in line order, each with its `children`. */
  symbols: CodeSymbol[]
  /** Problems met; left out when empty. */
  warnings?: string[]
}

/** A symbol as lists show it: where it is, its signature and doc shortened. */
export interface CodeSymbol {
  /** Symbol id (for `get_symbol_detail`, `get_references`, `get_dependencies`). */
  id: number
  /** Name. */
  name: string
  /** Kind (`fn`, `method`, `class`, …). */
  kind: string
  /** File, relative to the repository root (`/`-separated). */
  path: string
  /** First line (1-based). */
  start_line: number
  /** Last line. */
  end_line: number
  /** Signature, normalised and shortened. */
  signature?: string
  /** Doc comment, shortened. */
  doc?: string
  /**
   * A function or method that only declares what others implement (no body, or a stub of one: a
   * trait's or interface's method, an abstract method, a hookspec); left out when false.
   */
  declaration?: boolean
  /**
   * In search results, the name of the symbol it is defined in (a method's class, a nested
   * function's function); left out at a file's top level and in file views.
   */
  within?: string
  /** Symbols defined inside it (file views), each of this same shape. */
  children?: CodeSymbol[]
}

// ── code.get_overview ──

/** Parameters of `code.get_overview`. */
export interface CodeOverviewRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
}

/** Options of `codeOverview`: the parameters of `code.get_overview`, in camelCase. */
export interface CodeOverviewOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
}

/** Result of `code.get_overview`. */
export interface CodeOverviewResponse {
  /** Repository name (its directory's name). */
  repo: string
  /** Files per language. */
  languages: Record<string, number>
  /**
   * Directories two levels deep, each with the files and symbols at and below it, by path — at
   * most `OVERVIEW_DIRECTORIES`, the largest.
   */
  directories: CodeDirectorySummary[]
  /** Smaller directories not listed. */
  more_directories?: number
  /**
   * Test fixtures, examples and samples (`fixtures/`, `examples/`, `testdata/`…), counted apart
   * from the code.
   */
  samples: CodeDirectorySummary[]
  /**
   * The most referenced top-level types (classes, structs, interfaces, traits, enums) outside tests
   * and samples.
   */
  top_types: CodeSymbol[]
  /**
   * What starts a program: declared commands first, then `python -m` modules and `main` functions.
   */
  entry_points: CodeEntryPoint[]
  /**
   * Documentation files (what `docs.query` searches) per top directory (`.` for the root's own).
   */
  docs: Record<string, number>
  /** Problems met; left out when empty. */
  warnings?: string[]
}

/** A directory of the repository in an overview, with what is below it. */
export interface CodeDirectorySummary {
  /** Directory, relative (`.` for the root's own files). */
  path: string
  /** Files indexed in it and below. */
  files: number
  /** Symbols in those files. */
  symbols: number
}

/** Where a program starts. */
export interface CodeEntryPoint {
  /**
   * The command's name (a console script, an npm or Cargo binary), the package's name for
   * `package.json`'s `main` and a `__main__.py`, or `main`.
   */
  name: string
  /**
   * What declares it: `pyproject.toml`, `setup.cfg`, `setup.py`, `package.json`, `Cargo.toml` (each
   * with its directory when not the root), `python -m`, or `main`.
   */
  declared_in: string
  /**
   * What the declaration names, as written (`pkg.cli:main`, `bin/cli.js`); empty for `main`
   * functions and `__main__.py`.
   */
  target?: string
  /** The file it runs, relative to the repository root, when known. */
  path?: string
  /** The function it runs, when the index has it: its symbol id… */
  id?: number
  /** …and lines. */
  start_line?: number
  /** Last line. */
  end_line?: number
}

// ── code.get_references ──

/** Parameters of `code.get_references`. */
export interface CodeReferencesRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /** The symbol's id (from a search, an overview or a file's symbols). */
  id?: number
  /**
   * How many references to skip, in the answer's order: an answer cut short names the `offset` of
   * the rest.
   */
  offset?: number
}

/** Options of `codeReferences`: the parameters of `code.get_references` but `id`, in camelCase. */
export interface CodeReferencesOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /**
   * How many references to skip, in the answer's order: an answer cut short names the `offset` of
   * the rest.
   */
  offset?: number
}

/** Result of `code.get_references`. */
export interface CodeReferencesResponse {
  /** The symbol. */
  id: number
  /** How many references it has in all. */
  total: number
  /** How many were skipped (the request's `offset`). */
  offset?: number
  /**
   * References to it, by file and line: the sure ones, then those that may mean it (from `offset`
   * on).
   */
  references: CodeRefSource[]
}

/** A reference to a symbol, from where it is made. */
export interface CodeRefSource {
  /** The referring symbol's id; absent for a file's top level (an import). */
  from_id?: number
  /** The referring symbol's name. */
  from_name?: string
  /** The referring file, relative to the repository root. */
  path: string
  /**
   * `call`, `import`, `type_ref`, `extends`, `implements` or `value` (read, passed on, assigned).
   */
  kind: string
  /** Line of the reference. */
  line: number
  /**
   * Present (`true`) when the reference may mean this symbol or another of its name (its target is
   * ambiguous: a method called on a value of unknown type); these come after the sure ones.
   */
  maybe?: boolean
  /**
   * With `maybe`, for a call of a method this one overrides or implements (which may run this one):
   * that method, as `Type.method`.
   */
  via?: string
}

// ── code.get_symbol_detail ──

/** Parameters of `code.get_symbol_detail` and `code.get_dependencies`. */
export interface CodeSymbolDetailRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /** The symbol's id (from a search, an overview or a file's symbols). */
  id?: number
}

/** Options of `codeSymbol`: the parameters of `code.get_symbol_detail` but `id`, in camelCase. */
export interface CodeSymbolDetailOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
}

/** Result of `code.get_symbol_detail`. */
export interface CodeSymbolDetailResponse {
  /** Id. */
  id: number
  /** Name. */
  name: string
  /** Kind. */
  kind: string
  /** File, relative to the repository root. */
  path: string
  /** First line (1-based). */
  start_line: number
  /** Last line. */
  end_line: number
  /** Full signature. */
  signature?: string
  /** Full doc comment. */
  doc?: string
  /**
   * A function or method that only declares what others implement (no body, or a stub of one); left
   * out when false.
   */
  declaration?: boolean
  /** The symbol it is defined in (without signature and doc). */
  parent?: CodeSymbol
  /** Symbols defined in it (without signatures and docs). */
  children?: CodeSymbol[]
  /** What it calls. */
  calls?: CodeRefTarget[]
  /** Who refers to it. */
  called_by?: CodeRefSource[]
  /**
   * The types it names, extends or implements, and the definitions it uses as values (kind
   * `value`).
   */
  type_refs?: CodeRefTarget[]
}

/** A symbol another refers to. */
export interface CodeRefTarget {
  /** The name referred to. */
  name: string
  /** The symbol it resolved to; absent when it is outside the index. */
  id?: number
  /** Reference kind when not implied by the list (`extends`, `implements`). */
  kind?: string
  /**
   * Present (`true`) when the name resolved to nothing in the index (the standard library, a
   * dependency, a builtin).
   */
  external?: true
  /**
   * Present (`true`) when several definitions could be meant (a method called on a value of unknown
   * type) and none is linked: `candidates` lists some.
   */
  ambiguous?: boolean
  /** With `ambiguous`: ids of definitions it could mean (at most five). */
  candidates?: number[]
}

// ── code.index_repository ──

/** Parameters of `code.index_repository`. */
export interface CodeIndexRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /** Re-parse every file, changed or not. */
  force?: boolean
}

/** Options of `codeIndex`: the parameters of `code.index_repository`, in camelCase. */
export interface CodeIndexOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /** Re-parse every file, changed or not. */
  force?: boolean
}

/** Result of `code.index_repository` and `code.update_files`. */
export interface CodeIndexResponse {
  /** `ok`. */
  status: 'ok'
  /** Totals. */
  stats: CodeIndexStats
  /** Files indexed for the first time. */
  new: number
  /** Files re-parsed because their content changed. */
  changed: number
  /** Files left as they were. */
  unchanged: number
  /** Files removed from the index. */
  deleted: number
  /** Files not indexed (binary, too large, unreadable); see `warnings`. */
  skipped?: number
  /** What was skipped and why; left out when empty. */
  warnings?: string[]
}

/** Counts of an index run. */
export interface CodeIndexStats {
  /** Files indexed (source files the repository has, as far as this run looked). */
  files: number
  /** Symbols in the index. */
  symbols: number
  /** References in the index. */
  refs: number
}

// ── code.index_status ──

/** Parameters of `code.index_status`. */
export interface CodeStatusRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
}

/** Options of `codeStatus`: the parameters of `code.index_status`, in camelCase. */
export interface CodeStatusOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
}

/** Result of `code.index_status`. */
export interface CodeStatusResponse {
  /** Repository root. */
  repo: string
  /** Whether it has been indexed. */
  indexed: boolean
  /** Files in the index. */
  files: number
  /** Symbols in the index. */
  symbols: number
  /** References in the index. */
  refs: number
  /** When it was last indexed (Unix seconds). */
  indexed_at?: number
  /** Files whose size or mtime changed since (count). */
  stale?: number
  /** Some of them (at most 50), sorted. */
  stale_files?: string[]
  /** Indexed files that no longer exist (count). */
  deleted?: number
  /** Some of them (at most 50), sorted. */
  deleted_files?: string[]
  /** Source files not indexed yet (count). */
  new?: number
  /** Files per language. */
  languages: Record<string, number>
  /** Problems met; left out when empty. */
  warnings?: string[]
}

// ── code.list_repos ──

/** Parameters of `code.list_repos`. */
export interface CodeReposRequest {
  /**
   * Only what is stored for repositories under these directories (absent or empty: all). The MCP
   * server sets it to its roots.
   */
  within?: string[]
}

/** Options of `codeRepos`: the parameters of `code.list_repos`, in camelCase. */
export interface CodeReposOptions {
  /**
   * Only what is stored for repositories under these directories (absent or empty: all). The MCP
   * server sets it to its roots.
   */
  within?: string[]
}

/** Result of `code.list_repos`. */
export interface CodeReposResponse {
  /** Indexed repositories, by path. */
  repos: CodeRepo[]
  /**
   * Databases that could not be read (only without `within`: their repository is unknown); left out
   * when empty.
   */
  warnings?: string[]
}

/** One indexed repository. */
export interface CodeRepo {
  /** Repository root. */
  path: string
  /** Files indexed. */
  files: number
  /** Symbols indexed. */
  symbols: number
  /** When it was last indexed (Unix seconds). */
  indexed_at?: number
  /** Its database file. */
  database: string
}

// ── code.search_symbols ──

/** Parameters of `code.search_symbols`. */
export interface CodeSearchRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /**
   * FTS5 query: words match names, their subwords (`user` finds `getUserById`), docs, kinds and
   * paths; `repo*` is a prefix; `AND`, `OR`, `NOT` and quotes work. Text that is not a valid query
   * is searched as plain words.
   */
  query?: string
  /** Only symbols of this kind (`fn`, `method`, `class`, …). */
  kind?: string | null
  /** Most results (default 20, or the project's `search.max_results`). */
  limit?: number | null
}

/** Options of `codeSearch`: the parameters of `code.search_symbols` but `query`, in camelCase. */
export interface CodeSearchOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /** Only symbols of this kind (`fn`, `method`, `class`, …). */
  kind?: string | null
  /** Most results (default 20, or the project's `search.max_results`). */
  limit?: number | null
}

/** Result of `code.search_symbols`. */
export interface CodeSearchResponse {
  /** The query. */
  query: string
  /** Matches, best first (BM25). */
  hits: CodeSymbol[]
  /** Problems met; left out when empty. */
  warnings?: string[]
}

// ── code.update_files ──

/** Parameters of `code.update_files`. */
export interface CodeUpdateRequest {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
  /**
   * Files to re-index: absolute, or relative to the repository root. A file that no longer exists
   * is removed from the index.
   */
  files?: string[]
}

/** Options of `codeUpdate`: the parameters of `code.update_files` but `files`, in camelCase. */
export interface CodeUpdateOptions {
  /** Repository root. Defaults to the project directory. */
  path?: string | null
}

// ── docs.index ──

/** Parameters of `docs.index`. */
export interface DocsIndexRequest {
  /**
   * A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current directory. The
   * project root is its git work tree's root.
   */
  project_dir?: string | null
  /**
   * More files to index: globs relative to the project root (`*` stays within one directory, `**`
   * crosses them, `{a,b}` alternates), remembered for the project, so every later run (the
   * automatic one before a query too) indexes them as well. Always indexed: top-level docs such as
   * the README, `doc/`, `docs/`, `{apps,packages}/*\/docs/`, each package's README and docs
   * directories (Markdown, reStructuredText) and a Rust crate's `//!` guide in its `src/lib.rs`.
   */
  globs?: string[]
  /**
   * Forget the remembered globs (those in `globs`, or all) and drop the files only they matched
   * from the index.
   */
  forget?: boolean
  /**
   * Split and store only: new sections are searchable by keyword at once, by meaning once a later
   * run embeds them.
   */
  keyword_only?: boolean
  /** Seconds to wait for another index run's lock (default 30). */
  lock_wait_secs?: number | null
}

/** Options of `docsIndex`: the parameters of `docs.index`, in camelCase. */
export interface DocsIndexOptions {
  /**
   * A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current directory. The
   * project root is its git work tree's root.
   */
  projectDir?: string | null
  /**
   * More files to index: globs relative to the project root (`*` stays within one directory, `**`
   * crosses them, `{a,b}` alternates), remembered for the project, so every later run (the
   * automatic one before a query too) indexes them as well. Always indexed: top-level docs such as
   * the README, `doc/`, `docs/`, `{apps,packages}/*\/docs/`, each package's README and docs
   * directories (Markdown, reStructuredText) and a Rust crate's `//!` guide in its `src/lib.rs`.
   */
  globs?: string[]
  /**
   * Forget the remembered globs (those in `globs`, or all) and drop the files only they matched
   * from the index.
   */
  forget?: boolean
  /**
   * Split and store only: new sections are searchable by keyword at once, by meaning once a later
   * run embeds them.
   */
  keywordOnly?: boolean
  /** Seconds to wait for another index run's lock (default 30). */
  lockWaitSecs?: number | null
}

/** Result of `docs.index` and `notes.index`. */
export interface DocsIndexResponse {
  /** The project's name (its root directory's name). */
  project: string
  /**
   * The branch indexed: the one HEAD names (also before the first commit), `detached@<7 hex>` on a
   * detached HEAD; empty outside git, and for notes, which belong to no branch.
   */
  branch: string
  /** The project root. */
  root: string
  /** The globs remembered for the project (docs), indexed beside the defaults. */
  globs: string[]
  /** Files found. */
  files: number
  /** Files skipped: mtime and size unchanged. */
  unchanged: number
  /** Files whose mtime changed but whose content did not: only the mtime was updated. */
  touched: number
  /** Files (re)chunked: new or changed. */
  indexed: number
  /** Files gone since the last run, removed from the index. */
  removed: number
  /** Sections new or changed (text, or the branch they are on). */
  sections_written: number
  /** Sections removed. */
  sections_removed: number
  /** Section windows the model embedded now (the others came from the vector cache). */
  embedded: number
  /**
   * This project's sections (on this branch, for docs) still without vectors (no model available).
   */
  pending_vectors: number
  /** Skipped files and anything else worth telling. */
  warnings: string[]
}

// ── docs.query ──

/** Parameters of `docs.query`. */
export interface DocsQueryRequest {
  /** What to look for (any text). */
  query?: string
  /**
   * A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current directory.
   * Results come from this project only.
   */
  project_dir?: string | null
  /**
   * Search every indexed branch of the project (identical sections on several branches are shown
   * once, with their branches).
   */
  all_branches?: boolean
  /** Search this branch instead of the current one. */
  branch?: string | null
  /** Most results (default 10, at most 100). */
  limit?: number | null
  /** `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`. */
  mode?: SearchMode
}

/** Options of `docsQuery`: the parameters of `docs.query` but `query`, in camelCase. */
export interface DocsQueryOptions {
  /**
   * A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current directory.
   * Results come from this project only.
   */
  projectDir?: string | null
  /**
   * Search every indexed branch of the project (identical sections on several branches are shown
   * once, with their branches).
   */
  allBranches?: boolean
  /** Search this branch instead of the current one. */
  branch?: string | null
  /** Most results (default 10, at most 100). */
  limit?: number | null
  /** `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`. */
  mode?: SearchMode
}

/**
 * Which retrievers a search uses.
 *
 * - `'hybrid'`: Keyword and vector lists fused (keyword only when no model is available).
 * - `'keyword'`: BM25 over FTS5 only.
 * - `'vector'`: Nearest neighbours of the query's vector only (needs the model).
 */
export type SearchMode = 'hybrid' | 'keyword' | 'vector'

/** Result of `docs.query` and `notes.query`. */
export interface DocsQueryResponse {
  /** The query. */
  query: string
  /** The project searched. */
  project: string
  /** The branch searched (empty with `all_branches`, and for notes). */
  branch: string
  /** Best first. */
  results: DocsHit[]
  /** The retrievers used: `hybrid`, `keyword` (no model, or asked) or `vector`. */
  mode: SearchMode
  /** Time spent searching, in milliseconds. */
  search_time_ms: number
  /** A missing model (once), an unindexed project, and the like. */
  warnings: string[]
}

/** One result of `docs.query` or `notes.query`. */
export interface DocsHit {
  /** 1 for the best. */
  rank: number
  /** Fused score (higher is better; comparable within one query). */
  score: number
  /** The file, relative to the project root. */
  file: string
  /** The section's title (`(full document)`, `(preamble)`, or `Title##1` for a repeated title). */
  section: string
  /**
   * The section's first line in the file (from 1); `None` for a section indexed before sections
   * knew their lines, until its file is indexed again.
   */
  start_line?: number
  /** Its last line. */
  end_line?: number
  /**
   * What an agent reads of the section: the lines holding the query's words, else the start of the
   * window that matched by meaning; at most 1,000 bytes.
   */
  excerpt: string
  /** The section's full text, its heading included. */
  content: string
  /** The project. */
  project: string
  /** The branch (docs; empty for notes and outside git). */
  branch: string
  /** Other branches with the identical section (docs with `all_branches`). */
  also_on: string[]
  /** The file's mtime when indexed (Unix seconds). */
  mtime: number
  /** The session folder (notes), relative to the project root. */
  session_path?: string
  /** The session's date (notes), `YYYY-MM-DD`. */
  session_date?: string
  /** Cosine similarity to the query (when the vector list found it). */
  similarity: number | null
  /** Which lists found it: `keyword`, `vector` or both. */
  matched_by: string[]
}

// ── embed.text ──

/** Parameters of `Text` (`embed.text`). */
export interface EmbedRequest {
  /** The texts to embed. Each is cut at 256 word pieces, as sentence-transformers does. */
  texts?: string[]
  /**
   * Read and fill the engine's vector cache (`embeddings.db`), so a text already embedded is not
   * embedded again. Default true.
   */
  cached?: boolean
}

/** Options of `embed`: the parameters of `embed.text` but `texts`, in camelCase. */
export interface EmbedOptions {
  /**
   * Read and fill the engine's vector cache (`embeddings.db`), so a text already embedded is not
   * embedded again. Default true.
   */
  cached?: boolean
}

/** Result of `Text` (`embed.text`). */
export interface EmbedResponse {
  /** One L2-normalised vector per text, in the order of the request. */
  vectors: number[][]
  /** The model that made them. */
  model_id: string
  /** The length of each vector. */
  dims: number
  /** How many distinct texts the model embedded now; the others came from the cache. */
  embedded: number
  /** Anything worth telling the caller (a cache database rebuilt after corruption). */
  warnings: string[]
}

// ── files.refresh ──

/** Parameters of `files.refresh`. */
export interface FilesRefreshRequest {
  /**
   * Directory to index. Without it: the project (`$CLAUDE_PROJECT_DIR`, else the current
   * directory), the configured `[index] roots` and the project's additional directories.
   */
  root?: string | null
  /**
   * The project whose session is refreshed when `root` is not given; defaults to
   * `$CLAUDE_PROJECT_DIR`, else the current directory.
   */
  project_dir?: string | null
  /** Maximum depth below the root; defaults to `[index.depth]` of the configuration. */
  max_depth?: number | null
  /**
   * Extra gitignore-style patterns to exclude, on top of the defaults and the configuration's
   * `[index.exclude]`.
   */
  exclude?: string[]
  /** Stop after this many files; defaults to `[index.limits] max_files_per_root`. */
  max_files?: number | null
  /**
   * Compute git frecency as of this Unix time instead of now (for replaying a repository's
   * history).
   */
  now?: number | null
  /**
   * Claude Code's configuration directory, whose session transcripts tell which files were read,
   * edited and mentioned; defaults to `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
   */
  claude_dir?: string | null
  /**
   * Walk every root in full. Without it, a root in a git work tree that was walked within the last
   * day with the same rules is brought up to date from what moved: directories whose mtime changed,
   * files git reports (status, and the commits between the HEAD last indexed and the current one).
   */
  full?: boolean
}

/** Options of `filesRefresh`: the parameters of `files.refresh`, in camelCase. */
export interface FilesRefreshOptions {
  /**
   * Directory to index. Without it: the project (`$CLAUDE_PROJECT_DIR`, else the current
   * directory), the configured `[index] roots` and the project's additional directories.
   */
  root?: string | null
  /**
   * The project whose session is refreshed when `root` is not given; defaults to
   * `$CLAUDE_PROJECT_DIR`, else the current directory.
   */
  projectDir?: string | null
  /** Maximum depth below the root; defaults to `[index.depth]` of the configuration. */
  maxDepth?: number | null
  /**
   * Extra gitignore-style patterns to exclude, on top of the defaults and the configuration's
   * `[index.exclude]`.
   */
  exclude?: string[]
  /** Stop after this many files; defaults to `[index.limits] max_files_per_root`. */
  maxFiles?: number | null
  /**
   * Compute git frecency as of this Unix time instead of now (for replaying a repository's
   * history).
   */
  now?: number | null
  /**
   * Claude Code's configuration directory, whose session transcripts tell which files were read,
   * edited and mentioned; defaults to `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
   */
  claudeDir?: string | null
  /**
   * Walk every root in full. Without it, a root in a git work tree that was walked within the last
   * day with the same rules is brought up to date from what moved: directories whose mtime changed,
   * files git reports (status, and the commits between the HEAD last indexed and the current one).
   */
  full?: boolean
}

/** Result of `files.refresh`. */
export interface FilesRefreshResponse {
  /** The canonical root that was indexed. */
  root: string
  /** Files now indexed under the root. */
  files: number
  /** Files new to the index. */
  added: number
  /** Files whose modification time changed. */
  updated: number
  /** Files that disappeared and were removed from the index. */
  removed: number
  /** Whether the file limit cut a walk short. */
  truncated: boolean
  /** Each root refreshed, the one asked for (or the project) first. */
  roots: RootRefresh[]
  /** What was skipped and why. */
  warnings: string[]
}

/** What `files.refresh` did to one root. */
export interface RootRefresh {
  /** The canonical root. */
  root: string
  /** Files now indexed under it. */
  files: number
  /** Files new to the index. */
  added: number
  /** Files whose modification time changed. */
  updated: number
  /** Files removed from the index. */
  removed: number
  /** Whether the file limit cut its walk short. */
  truncated: boolean
  /** Whether it was brought up to date from directory mtimes and git rather than walked in full. */
  incremental: boolean
}

// ── files.suggest ──

/** Parameters of `files.suggest`. */
export interface FilesSuggestRequest {
  /** What the user typed after `@` (may be empty: the top files are returned). */
  query?: string
  /**
   * Project root; defaults to `$CLAUDE_PROJECT_DIR`, else the current directory. Results are
   * limited to it and shown relative to it.
   */
  project_dir?: string | null
  /** Most paths to return, 1 to 15 (default 15). */
  limit?: number | null
  /**
   * Time budget in milliseconds (default 100): past it, the file system is searched instead of the
   * index.
   */
  budget_ms?: number | null
  /**
   * Only paths under these directories (absent or empty: anywhere the query looks), whatever the
   * query's prefix or the project's additional directories name. The MCP server sets it to its
   * roots.
   */
  within?: string[]
}

/** Options of `filesSuggest`: the parameters of `files.suggest` but `query`, in camelCase. */
export interface FilesSuggestOptions {
  /**
   * Project root; defaults to `$CLAUDE_PROJECT_DIR`, else the current directory. Results are
   * limited to it and shown relative to it.
   */
  projectDir?: string | null
  /** Most paths to return, 1 to 15 (default 15). */
  limit?: number | null
  /**
   * Time budget in milliseconds (default 100): past it, the file system is searched instead of the
   * index.
   */
  budgetMs?: number | null
  /**
   * Only paths under these directories (absent or empty: anywhere the query looks), whatever the
   * query's prefix or the project's additional directories name. The MCP server sets it to its
   * roots.
   */
  within?: string[]
}

/** Result of `files.suggest`. */
export interface FilesSuggestResponse {
  /**
   * Best first: relative to the project root inside it, `~/…` under the home directory, absolute
   * elsewhere.
   */
  paths: string[]
  /** Anything worth telling the user (an index built on the fly, a recovered database). */
  warnings: string[]
}

// ── grep.search ──

/**
 * Parameters of `grep.search`: checkfor's, plus `recursive`, `regex`, `max_matches` and
 * `max_tokens`.
 */
export interface GrepRequest {
  /**
   * The text to search for: a literal substring, or a regular expression (Rust `regex` syntax) with
   * `regex`. Must not be empty.
   */
  search: string
  /**
   * Directories to search, in this order: one path or an array of paths. Defaults to the project
   * directory (`$CLAUDE_PROJECT_DIR`, else the current directory). Relative paths are relative to
   * the current directory; each is reported as given.
   */
  dir?: string | string[]
  /**
   * Only files whose name ends with one of these extensions (`.go` or `go`): one string, several
   * separated by commas (`rs,py`), or an array.
   */
  ext?: string | string[]
  /** Drop matching lines that contain any of these strings (one string or an array). */
  exclude?: string | string[]
  /** Ignore case in `search` and `exclude`. */
  case_insensitive?: boolean
  /** Match whole words only (word characters: ASCII letters, digits, `_`). */
  whole_word?: boolean
  /** Lines of context before and after each match (default 0). */
  context?: number
  /** Leave `original_matches` and `filtered_matches` out. */
  hide_filter_stats?: boolean
  /**
   * Search subdirectories too, skipping what ripgrep skips by default: files that ignore files
   * exclude (`.gitignore` in a git repository, `.ignore`) and hidden files and directories.
   */
  recursive?: boolean
  /** With `recursive`: search hidden files and directories too (never `.git`). */
  hidden?: boolean
  /**
   * With `recursive`: also skip dependency, build and cache output: the directories `node_modules`,
   * `dist`, `build`, `.next`, `.nuxt`, `target`, `__pycache__`, `.venv`, `vendor`, `coverage`,
   * `.cache`, and `*.pyc` files.
   */
  skip_generated?: boolean
  /** `search` is a regular expression. */
  regex?: boolean
  /** List at most this many matches (in output order). */
  max_matches?: number | null
  /** Keep the JSON result within about this many tokens (4 bytes each). */
  max_tokens?: number | null
}

/** Options of `grep`: the parameters of `grep.search` but `search`, in camelCase. */
export interface GrepOptions {
  /**
   * Directories to search, in this order: one path or an array of paths. Defaults to the project
   * directory (`$CLAUDE_PROJECT_DIR`, else the current directory). Relative paths are relative to
   * the current directory; each is reported as given.
   */
  dir?: string | string[]
  /**
   * Only files whose name ends with one of these extensions (`.go` or `go`): one string, several
   * separated by commas (`rs,py`), or an array.
   */
  ext?: string | string[]
  /** Drop matching lines that contain any of these strings (one string or an array). */
  exclude?: string | string[]
  /** Ignore case in `search` and `exclude`. */
  caseInsensitive?: boolean
  /** Match whole words only (word characters: ASCII letters, digits, `_`). */
  wholeWord?: boolean
  /** Lines of context before and after each match (default 0). */
  context?: number
  /** Leave `original_matches` and `filtered_matches` out. */
  hideFilterStats?: boolean
  /**
   * Search subdirectories too, skipping what ripgrep skips by default: files that ignore files
   * exclude (`.gitignore` in a git repository, `.ignore`) and hidden files and directories.
   */
  recursive?: boolean
  /** With `recursive`: search hidden files and directories too (never `.git`). */
  hidden?: boolean
  /**
   * With `recursive`: also skip dependency, build and cache output: the directories `node_modules`,
   * `dist`, `build`, `.next`, `.nuxt`, `target`, `__pycache__`, `.venv`, `vendor`, `coverage`,
   * `.cache`, and `*.pyc` files.
   */
  skipGenerated?: boolean
  /** `search` is a regular expression. */
  regex?: boolean
  /** List at most this many matches (in output order). */
  maxMatches?: number | null
  /** Keep the JSON result within about this many tokens (4 bytes each). */
  maxTokens?: number | null
}

/** Result of `grep.search` (checkfor's shape). */
export interface GrepResponse {
  /** One entry per directory, in the order asked for. */
  directories: GrepDirectory[]
  /** Present (`true`) when `max_matches` or `max_tokens` left matches or lines out. */
  truncated?: true
  /**
   * Files that could not be read, and what a recursive walk skipped; left out when empty. Surfaces
   * show them apart from the result (the CLI on stderr).
   */
  warnings?: string[]
}

/** The matches in one directory. */
export interface GrepDirectory {
  /** The directory, as given. */
  dir: string
  /** Matches found (after `exclude`). */
  matches_found: number
  /**
   * Matches before `exclude` dropped any; only with `exclude`, without `hide_filter_stats`, and not
   * zero.
   */
  original_matches?: number
  /** Matches `exclude` dropped; only with `exclude`, without `hide_filter_stats`, and not zero. */
  filtered_matches?: number
  /** Files with matches, in path order, paths relative to `dir`. */
  files: GrepFile[]
  /** Why the directory could not be searched; left out when it was. */
  error?: string
  /**
   * Without `recursive`: the matches in its subdirectories, which `recursive` would search too
   * (with ripgrep's rules, as it walks them); left out when there are none.
   */
  below?: GrepBelow
}

/** The matches in one file. */
export interface GrepFile {
  /** Path relative to the directory searched, `/`-separated. */
  path: string
  /** Matching lines, in line order. */
  matches: GrepMatch[]
}

/** One matching line. */
export interface GrepMatch {
  /** Line number, from 1. */
  line: number
  /** The line, without its line ending. */
  content: string
  /** Up to `context` lines before it; left out when none. */
  context_before?: string[]
  /** Up to `context` lines after it; left out when none. */
  context_after?: string[]
}

/** Matches a recursive search would add below a directory searched without it. */
export interface GrepBelow {
  /** Matching lines (after `exclude`). */
  matches: number
  /** Files that have them. */
  files: number
}

// ── notes.index ──

/** Parameters of `notes.index`. */
export interface NotesIndexRequest {
  /**
   * A directory of the project whose `sessions/**\/*.md` are indexed; defaults to
   * `$CLAUDE_PROJECT_DIR`, else the current directory.
   */
  project_dir?: string | null
  /** Seconds to wait for another index run's lock (default 30). */
  lock_wait_secs?: number | null
}

/** Options of `notesIndex`: the parameters of `notes.index`, in camelCase. */
export interface NotesIndexOptions {
  /**
   * A directory of the project whose `sessions/**\/*.md` are indexed; defaults to
   * `$CLAUDE_PROJECT_DIR`, else the current directory.
   */
  projectDir?: string | null
  /** Seconds to wait for another index run's lock (default 30). */
  lockWaitSecs?: number | null
}

// ── notes.query ──

/** Parameters of `notes.query`. */
export interface NotesQueryRequest {
  /** What to look for (any text). */
  query?: string
  /** A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current directory. */
  project_dir?: string | null
  /** Only notes of sessions on or after this date (`YYYY-MM-DD`). */
  after?: string | null
  /**
   * Only notes in files with this base name (`IMPLEMENTATION` for `IMPLEMENTATION.md`;
   * case-insensitive).
   */
  file?: string | null
  /** Most results (default 10, at most 100). */
  limit?: number | null
  /** `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`. */
  mode?: SearchMode
}

/** Options of `notesQuery`: the parameters of `notes.query` but `query`, in camelCase. */
export interface NotesQueryOptions {
  /** A directory of the project; defaults to `$CLAUDE_PROJECT_DIR`, else the current directory. */
  projectDir?: string | null
  /** Only notes of sessions on or after this date (`YYYY-MM-DD`). */
  after?: string | null
  /**
   * Only notes in files with this base name (`IMPLEMENTATION` for `IMPLEMENTATION.md`;
   * case-insensitive).
   */
  file?: string | null
  /** Most results (default 10, at most 100). */
  limit?: number | null
  /** `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`. */
  mode?: SearchMode
}

// ── sessions.chunk ──

/** Parameters of `sessions.chunk`. */
export interface SessionsChunkRequest {
  /** The chunk's id, or any unique prefix of it (hex). */
  id?: string
  /**
   * Only what is stored for projects under these directories (absent or empty: all): a chunk of
   * another project is answered as an unknown id.
   */
  within?: string[]
}

/** Options of `sessionsChunk`: the parameters of `sessions.chunk` but `id`, in camelCase. */
export interface SessionsChunkOptions {
  /**
   * Only what is stored for projects under these directories (absent or empty: all): a chunk of
   * another project is answered as an unknown id.
   */
  within?: string[]
}

/** Result of `sessions.chunk`. */
export interface SessionsChunkResponse {
  /** The id (8 hex characters). */
  id: string
  /** The full id (64 hex characters). */
  full_id: string
  /** Its kind. */
  kind: SessionsChunkKind
  /** The project path. */
  project: string
  /** The session. */
  session_id: string
  /** The session a subagent transcript belongs to. */
  parent_session_id: string | null
  /** The transcript file. */
  session_path: string
  /** When (RFC 3339, UTC). */
  timestamp: string
  /** The same, in Unix seconds. */
  time: number
  /** The full text. */
  content: string
  /** The prompt and replies of its group (up to 5 messages). */
  messages: SessionsContextMessage[]
  /** The `uuid` of the record that opened its group. */
  prompt_uuid: string | null
  /** The `uuid`s of its group's messages. */
  message_ids: string[]
  /** Every part of its group (this one included), in kind order. */
  group: SessionsGroupPart[]
}

/** One message of a chunk's context. */
export interface SessionsContextMessage {
  /** `user`, `assistant` or `summary`. */
  role: 'user' | 'assistant' | 'summary'
  /** Its text (cut at 2000 characters). */
  content: string
}

/** Another part of the same prompt group. */
export interface SessionsGroupPart {
  /** Its id (8 hex characters). */
  id: string
  /** Its kind. */
  kind: SessionsChunkKind
  /** Its length in characters. */
  chars: number
}

// ── sessions.index ──

/** Parameters of `sessions.index`. */
export interface SessionsIndexRequest {
  /** Re-parse every transcript from the start. */
  force?: boolean
  /** The folder of transcripts; default `$CLAUDE_CONFIG_DIR/projects` (`~/.claude/projects`). */
  projects_dir?: string | null
  /**
   * Parse and store only: new chunks are searchable by keyword at once, by meaning once a later run
   * embeds them.
   */
  keyword_only?: boolean
}

/** Options of `sessionsIndex`: the parameters of `sessions.index`, in camelCase. */
export interface SessionsIndexOptions {
  /** Re-parse every transcript from the start. */
  force?: boolean
  /** The folder of transcripts; default `$CLAUDE_CONFIG_DIR/projects` (`~/.claude/projects`). */
  projectsDir?: string | null
  /**
   * Parse and store only: new chunks are searchable by keyword at once, by meaning once a later run
   * embeds them.
   */
  keywordOnly?: boolean
}

/** Result of `sessions.index`. */
export interface SessionsIndexResponse {
  /** The folder indexed. */
  projects_dir: string
  /** Main session transcripts found. */
  sessions: number
  /** Subagent transcripts found (`agent-*.jsonl`, `subagents/`). */
  subagents: number
  /** Transcripts parsed from the start (new, rewritten, or `force`). */
  parsed: number
  /** Transcripts that grew: parsed from their last prompt group on. */
  grown: number
  /** Transcripts unchanged (size and mtime), not read. */
  unchanged: number
  /** Transcripts gone from disk, removed from the index. */
  removed: number
  /** Bytes read from transcripts. */
  bytes_parsed: number
  /** Chunks new or changed. */
  chunks_written: number
  /** Chunks removed. */
  chunks_removed: number
  /** Chunks in the index after the run. */
  chunks: number
  /** Chunk windows the model embedded now (the others came from the vector cache). */
  embedded: number
  /** Chunks still without vectors (no model available). */
  pending_vectors: number
  /** Lines skipped as corrupt. */
  corrupt_lines: number
  /** Records skipped on purpose, by type (`progress`, `file-history-snapshot`, …). */
  skipped_records: Record<string, number>
  /** Corrupt lines (one warning per file), unreadable files, a missing model. */
  warnings: string[]
}

// ── sessions.search ──

/** Parameters of `sessions.search`. */
export interface SessionsSearchRequest {
  /** What to look for (any text). */
  query?: string
  /**
   * Only sessions whose project path contains this (case-insensitive, `/` and `\\` alike); `*`:
   * every project. The MCP server searches its own project unless this is given.
   */
  project?: string | null
  /** Only chunks from this time on: Unix seconds, `2h`, `1w`, `30d`, `2026-01-01`. */
  since?: SessionsSince | null
  /** Only these kinds: `user`, `assistant`, `tool`, `thinking`, `summary` (default all). */
  types?: SessionsChunkKind[]
  /** Most results (default 5, at most 100). */
  limit?: number | null
  /** `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`. */
  mode?: SearchMode
  /**
   * "Now" for recency and relative `since`, in Unix seconds (default: the clock), so a search can
   * be reproduced exactly.
   */
  now?: number | null
  /**
   * The transcripts folder to index when no index exists yet (default
   * `$CLAUDE_CONFIG_DIR/projects`).
   */
  projects_dir?: string | null
  /**
   * Only what is stored for projects under these directories (absent or empty: all). The MCP server
   * sets it to its roots unless `project` is given.
   */
  within?: string[]
}

/** Options of `sessionsSearch`: the parameters of `sessions.search` but `query`, in camelCase. */
export interface SessionsSearchOptions {
  /**
   * Only sessions whose project path contains this (case-insensitive, `/` and `\\` alike); `*`:
   * every project. The MCP server searches its own project unless this is given.
   */
  project?: string | null
  /** Only chunks from this time on: Unix seconds, `2h`, `1w`, `30d`, `2026-01-01`. */
  since?: SessionsSince | null
  /** Only these kinds: `user`, `assistant`, `tool`, `thinking`, `summary` (default all). */
  types?: SessionsChunkKind[]
  /** Most results (default 5, at most 100). */
  limit?: number | null
  /** `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`. */
  mode?: SearchMode
  /**
   * "Now" for recency and relative `since`, in Unix seconds (default: the clock), so a search can
   * be reproduced exactly.
   */
  now?: number | null
  /**
   * The transcripts folder to index when no index exists yet (default
   * `$CLAUDE_CONFIG_DIR/projects`).
   */
  projectsDir?: string | null
  /**
   * Only what is stored for projects under these directories (absent or empty: all). The MCP server
   * sets it to its roots unless `project` is given.
   */
  within?: string[]
}

/**
 * A point in time: Unix seconds, or text — `2h`, `30m`, `1w`, `30d`, `1y` (that long before now),
 * `2026-01-01`, or an RFC 3339 timestamp.
 */
export type SessionsSince = number | string

/** Result of `sessions.search`. */
export interface SessionsSearchResponse {
  /** The query. */
  query: string
  /** Best first. */
  results: SessionsHit[]
  /** How many results. */
  total_results: number
  /** The retrievers used: `hybrid`, `keyword` or `vector`. */
  mode: SearchMode
  /** Set when nothing matched and these are the closest matches by meaning instead. */
  note: string | null
  /** Time spent, in milliseconds (indexing on the first search included). */
  search_time_ms: number
  /** An index built on the fly, a project filter matching nothing, a missing model. */
  warnings: string[]
}

/** One result of `sessions.search`. */
export interface SessionsHit {
  /** 1 for the best. */
  rank: number
  /** The chunk's id (8 hex characters; `sessions.chunk` shows it whole). */
  id: string
  /** Score (fused, weighted by kind and recency; higher is better). */
  score: number
  /** `user`, `assistant`, `tool`, `thinking` or `summary`. */
  kind: SessionsChunkKind
  /** The project path (the session's `cwd`). */
  project: string
  /** The session (`claude --resume <session_id>`; for a subagent, its file's name). */
  session_id: string
  /** The session a subagent transcript belongs to. */
  parent_session_id: string | null
  /** The transcript file. */
  session_path: string
  /** When the prompt was written (RFC 3339, UTC). */
  timestamp: string
  /** The same, in Unix seconds. */
  time: number
  /** How long ago, in words. */
  age: string
  /** The matched chunk's full text. */
  content: string
  /** The window of `content` that matched best by meaning, when the chunk has several. */
  matched_window: string | null
  /**
   * What an agent reads of the chunk: the lines holding the query's words, else the start of the
   * window that matched by meaning; at most 1,000 bytes.
   */
  excerpt: string
  /** The prompt and the assistant's replies around the match (up to 5 messages). */
  messages: SessionsContextMessage[]
  /** Which lists found it: `keyword`, `vector` or both. */
  matched_by: Array<'keyword' | 'vector'>
}

// ── sessions.status ──

/** Parameters of `sessions.status`. */
export interface SessionsStatusRequest {
  /**
   * Only what is stored for projects under these directories (absent or empty: all): sessions,
   * projects and chunks are counted over those; the index size, model and last run stay those of
   * the whole index. The MCP server sets it to its roots.
   */
  within?: string[]
}

/** Options of `sessionsStatus`: the parameters of `sessions.status`, in camelCase. */
export interface SessionsStatusOptions {
  /**
   * Only what is stored for projects under these directories (absent or empty: all): sessions,
   * projects and chunks are counted over those; the index size, model and last run stay those of
   * the whole index. The MCP server sets it to its roots.
   */
  within?: string[]
}

/** Result of `sessions.status`. */
export interface SessionsStatusResponse {
  /** The index database (`sessions.db` in the data root). */
  db_path: string
  /** The transcripts folder of the last run. */
  projects_dir: string | null
  /** Main sessions indexed. */
  sessions: number
  /** Subagent transcripts indexed. */
  subagents: number
  /** Projects, with their session counts, sorted by path. */
  projects: SessionsProject[]
  /** Chunks. */
  chunks: number
  /** Chunks by kind. */
  chunks_by_kind: Record<string, number>
  /** Chunks without vectors yet. */
  pending_vectors: number
  /** Size of the index on disk (database and its WAL), bytes. */
  index_bytes: number
  /** The embedding model's directory, or why there is none. */
  model: string
  /** When the last run finished (RFC 3339), if ever. */
  last_indexed: string | null
  /** Anything worth telling. */
  warnings: string[]
}

/** Sessions of one project. */
export interface SessionsProject {
  /** The project path. */
  project: string
  /** Its main sessions. */
  sessions: number
}

// ── by operation name ──

/** Parameters of each operation, as the core names them (snake_case). */
export interface OperationParams {
  'claude.install': ClaudeInstallRequest
  'claude.install_mcp': ClaudeInstallMcpRequest
  'code.delete_repos': CodeDeleteRequest
  'code.find': CodeFindRequest
  'code.get_dependencies': CodeDependenciesRequest
  'code.get_file_symbols': CodeFileSymbolsRequest
  'code.get_overview': CodeOverviewRequest
  'code.get_references': CodeReferencesRequest
  'code.get_symbol_detail': CodeSymbolDetailRequest
  'code.index_repository': CodeIndexRequest
  'code.index_status': CodeStatusRequest
  'code.list_repos': CodeReposRequest
  'code.search_symbols': CodeSearchRequest
  'code.update_files': CodeUpdateRequest
  'docs.index': DocsIndexRequest
  'docs.query': DocsQueryRequest
  'embed.text': EmbedRequest
  'files.refresh': FilesRefreshRequest
  'files.suggest': FilesSuggestRequest
  'grep.search': GrepRequest
  'notes.index': NotesIndexRequest
  'notes.query': NotesQueryRequest
  'sessions.chunk': SessionsChunkRequest
  'sessions.index': SessionsIndexRequest
  'sessions.search': SessionsSearchRequest
  'sessions.status': SessionsStatusRequest
}

/** Result of each operation. */
export interface OperationResponses {
  'claude.install': ClaudeInstallResponse
  'claude.install_mcp': ClaudeInstallMcpResponse
  'code.delete_repos': CodeDeleteResponse
  'code.find': CodeFindResponse
  'code.get_dependencies': CodeDependenciesResponse
  'code.get_file_symbols': CodeFileSymbolsResponse
  'code.get_overview': CodeOverviewResponse
  'code.get_references': CodeReferencesResponse
  'code.get_symbol_detail': CodeSymbolDetailResponse
  'code.index_repository': CodeIndexResponse
  'code.index_status': CodeStatusResponse
  'code.list_repos': CodeReposResponse
  'code.search_symbols': CodeSearchResponse
  'code.update_files': CodeIndexResponse
  'docs.index': DocsIndexResponse
  'docs.query': DocsQueryResponse
  'embed.text': EmbedResponse
  'files.refresh': FilesRefreshResponse
  'files.suggest': FilesSuggestResponse
  'grep.search': GrepResponse
  'notes.index': DocsIndexResponse
  'notes.query': DocsQueryResponse
  'sessions.chunk': SessionsChunkResponse
  'sessions.index': SessionsIndexResponse
  'sessions.search': SessionsSearchResponse
  'sessions.status': SessionsStatusResponse
}

/** The name of an operation known to these types. */
export type OperationName = keyof OperationParams

// ── the methods ──

/**
 * The methods of `Engine` that run an operation each: its parameters as arguments and
 * `options` (camelCase), its typed result. Each throws a `CcSearchError`; its `Async`
 * twin runs on a worker thread and rejects with one.
 */
export interface EngineOperations {
  /**
   * Add cc-search's fileSuggestion command and SessionStart hook to a Claude Code settings.json (or
   * remove them with `uninstall`), idempotently, atomically, with one backup in the data root;
   * uninstall puts the file back as it was.
   *
   * @param options The other parameters (`ClaudeInstallOptions`).
   * @see Operation `claude.install`.
   */
  claudeInstall(options?: ClaudeInstallOptions): ClaudeInstallResponse
  /** Like {@link EngineOperations.claudeInstall}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  claudeInstallAsync(options?: ClaudeInstallOptions & CallOptions): Promise<ClaudeInstallResponse>

  /**
   * Register cc-search's MCP server with Claude Code (mcpServers in ~/.claude.json or the project's
   * .mcp.json, as `claude mcp add` writes it), or remove it with `uninstall` (a project's .mcp.json
   * put back as it was); idempotent, atomic, no backup files.
   *
   * @param options The other parameters (`ClaudeInstallMcpOptions`).
   * @see Operation `claude.install_mcp`.
   */
  claudeInstallMcp(options?: ClaudeInstallMcpOptions): ClaudeInstallMcpResponse
  /** Like {@link EngineOperations.claudeInstallMcp}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  claudeInstallMcpAsync(
    options?: ClaudeInstallMcpOptions & CallOptions,
  ): Promise<ClaudeInstallMcpResponse>

  /**
   * Delete the code index of the given repositories (or of all with `all`).
   *
   * @param paths Repository roots whose index to delete (they need not exist any more).
   * @param options The other parameters (`CodeDeleteOptions`).
   * @see Operation `code.delete_repos`.
   */
  codeDelete(paths?: string[], options?: CodeDeleteOptions): CodeDeleteResponse
  /** Like {@link EngineOperations.codeDelete}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeDeleteAsync(
    paths?: string[],
    options?: CodeDeleteOptions & CallOptions,
  ): Promise<CodeDeleteResponse>

  /**
   * Find the code a description is about (an issue, a stack trace, a question): the files and the
   * definitions to change, ranked by keywords, the names and paths it mentions.
   *
   * @param query What to find, in free text: an issue, a stack trace, a question (first 16 KiB).
   * @param options The other parameters (`CodeFindOptions`).
   * @see Operation `code.find`.
   */
  codeFind(query: string, options?: CodeFindOptions): CodeFindResponse
  /** Like {@link EngineOperations.codeFind}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeFindAsync(query: string, options?: CodeFindOptions & CallOptions): Promise<CodeFindResponse>

  /**
   * What a symbol refers to (calls, type uses, extends, implements), resolved to symbol ids where
   * the index has them.
   *
   * @param id The symbol's id (from a search, an overview or a file's symbols).
   * @param options The other parameters (`CodeDependenciesOptions`).
   * @see Operation `code.get_dependencies`.
   */
  codeDependencies(id: number, options?: CodeDependenciesOptions): CodeDependenciesResponse
  /** Like {@link EngineOperations.codeDependencies}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeDependenciesAsync(
    id: number,
    options?: CodeDependenciesOptions & CallOptions,
  ): Promise<CodeDependenciesResponse>

  /**
   * All symbols of one file as a tree (classes with their methods…): name, kind, lines,
   * signature, doc, id.
   *
   * @param file The file: relative to the repository root, or absolute inside it.
   * @param options The other parameters (`CodeFileSymbolsOptions`).
   * @see Operation `code.get_file_symbols`.
   */
  codeFileSymbols(file: string, options?: CodeFileSymbolsOptions): CodeFileSymbolsResponse
  /** Like {@link EngineOperations.codeFileSymbols}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeFileSymbolsAsync(
    file: string,
    options?: CodeFileSymbolsOptions & CallOptions,
  ): Promise<CodeFileSymbolsResponse>

  /**
   * Overview of an indexed repository: languages, directories with file and symbol counts (samples
   * apart), the most referenced types, the entry points and the docs.
   *
   * @param options The other parameters (`CodeOverviewOptions`).
   * @see Operation `code.get_overview`.
   */
  codeOverview(options?: CodeOverviewOptions): CodeOverviewResponse
  /** Like {@link EngineOperations.codeOverview}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeOverviewAsync(options?: CodeOverviewOptions & CallOptions): Promise<CodeOverviewResponse>

  /**
   * Who refers to a symbol (calls, imports, type uses, extends, implements), with file and line.
   *
   * @param id The symbol's id (from a search, an overview or a file's symbols).
   * @param options The other parameters (`CodeReferencesOptions`).
   * @see Operation `code.get_references`.
   */
  codeReferences(id: number, options?: CodeReferencesOptions): CodeReferencesResponse
  /** Like {@link EngineOperations.codeReferences}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeReferencesAsync(
    id: number,
    options?: CodeReferencesOptions & CallOptions,
  ): Promise<CodeReferencesResponse>

  /**
   * One symbol in full: untruncated signature and doc, parent, children, what it calls, who calls
   * it, the types it uses.
   *
   * @param id The symbol's id (from a search, an overview or a file's symbols).
   * @param options The other parameters (`CodeSymbolDetailOptions`).
   * @see Operation `code.get_symbol_detail`.
   */
  codeSymbol(id: number, options?: CodeSymbolDetailOptions): CodeSymbolDetailResponse
  /** Like {@link EngineOperations.codeSymbol}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeSymbolAsync(
    id: number,
    options?: CodeSymbolDetailOptions & CallOptions,
  ): Promise<CodeSymbolDetailResponse>

  /**
   * Index a repository's code symbols (functions, classes, methods, types…) and references with
   * tree-sitter; incremental: only changed files are re-parsed.
   *
   * @param options The other parameters (`CodeIndexOptions`).
   * @see Operation `code.index_repository`.
   */
  codeIndex(options?: CodeIndexOptions): CodeIndexResponse
  /** Like {@link EngineOperations.codeIndex}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeIndexAsync(options?: CodeIndexOptions & CallOptions): Promise<CodeIndexResponse>

  /**
   * Status of a repository's code index: files, symbols, references, languages, when indexed, and
   * which files changed or disappeared since.
   *
   * @param options The other parameters (`CodeStatusOptions`).
   * @see Operation `code.index_status`.
   */
  codeStatus(options?: CodeStatusOptions): CodeStatusResponse
  /** Like {@link EngineOperations.codeStatus}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeStatusAsync(options?: CodeStatusOptions & CallOptions): Promise<CodeStatusResponse>

  /**
   * List the repositories with a code index: path, files, symbols, when indexed.
   *
   * @param options The other parameters (`CodeReposOptions`).
   * @returns The result's `repos`.
   * @see Operation `code.list_repos`.
   */
  codeRepos(options?: CodeReposOptions): CodeRepo[]
  /** Like {@link EngineOperations.codeRepos}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeReposAsync(options?: CodeReposOptions & CallOptions): Promise<CodeRepo[]>

  /**
   * Search a repository's symbols by name, subword (camelCase/snake_case split), doc comment, kind
   * or path; prefix*, AND/OR/NOT; BM25-ranked compact results.
   *
   * @param query FTS5 query: words match names, their subwords (`user` finds `getUserById`), docs,
   *   kinds and paths; `repo*` is a prefix; `AND`, `OR`, `NOT` and quotes work. Text that is not a
   *   valid query is searched as plain words.
   * @param options The other parameters (`CodeSearchOptions`).
   * @see Operation `code.search_symbols`.
   */
  codeSearch(query: string, options?: CodeSearchOptions): CodeSearchResponse
  /** Like {@link EngineOperations.codeSearch}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeSearchAsync(
    query: string,
    options?: CodeSearchOptions & CallOptions,
  ): Promise<CodeSearchResponse>

  /**
   * Re-index specific files of an indexed repository (changed ones re-parsed, deleted ones removed)
   * without walking it.
   *
   * @param files Files to re-index: absolute, or relative to the repository root. A file that no
   *   longer exists is removed from the index.
   * @param options The other parameters (`CodeUpdateOptions`).
   * @see Operation `code.update_files`.
   */
  codeUpdate(files: string[], options?: CodeUpdateOptions): CodeIndexResponse
  /** Like {@link EngineOperations.codeUpdate}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  codeUpdateAsync(
    files: string[],
    options?: CodeUpdateOptions & CallOptions,
  ): Promise<CodeIndexResponse>

  /**
   * Index the project's docs (README and other top-level docs, doc/, docs/,
   * {apps,packages}/*\/docs/, each package's README and docs directories, a Rust crate's lib.rs
   * guide, plus globs given once and remembered; Markdown and reStructuredText) by section for the
   * current branch: unchanged files skipped, content-addressed embeddings.
   *
   * @param options The other parameters (`DocsIndexOptions`).
   * @see Operation `docs.index`.
   */
  docsIndex(options?: DocsIndexOptions): DocsIndexResponse
  /** Like {@link EngineOperations.docsIndex}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  docsIndexAsync(options?: DocsIndexOptions & CallOptions): Promise<DocsIndexResponse>

  /**
   * Search the project's indexed docs (keyword + semantic) by section, on the current branch unless
   * all_branches or branch is given. Never indexes.
   *
   * @param query What to look for (any text).
   * @param options The other parameters (`DocsQueryOptions`).
   * @see Operation `docs.query`.
   */
  docsQuery(query: string, options?: DocsQueryOptions): DocsQueryResponse
  /** Like {@link EngineOperations.docsQuery}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  docsQueryAsync(
    query: string,
    options?: DocsQueryOptions & CallOptions,
  ): Promise<DocsQueryResponse>

  /**
   * Embed texts with all-MiniLM-L6-v2 (384-dim L2-normalised sentence vectors, as
   * sentence-transformers computes them; texts cut at 256 word pieces), reusing cached vectors.
   *
   * @param texts The texts to embed. Each is cut at 256 word pieces, as sentence-transformers does.
   * @param options The other parameters (`EmbedOptions`).
   * @see Operation `embed.text`.
   */
  embed(texts: string[], options?: EmbedOptions): EmbedResponse
  /** Like {@link EngineOperations.embed}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  embedAsync(texts: string[], options?: EmbedOptions & CallOptions): Promise<EmbedResponse>

  /**
   * Index file paths: one directory, or the project plus configured roots (incremental by mtime;
   * stale entries pruned).
   *
   * @param options The other parameters (`FilesRefreshOptions`).
   * @see Operation `files.refresh`.
   */
  filesRefresh(options?: FilesRefreshOptions): FilesRefreshResponse
  /** Like {@link EngineOperations.filesRefresh}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  filesRefreshAsync(options?: FilesRefreshOptions & CallOptions): Promise<FilesRefreshResponse>

  /**
   * Suggest up to 15 file paths for an `@` query, ranked, relative to the project root.
   *
   * @param query What the user typed after `@` (may be empty: the top files are returned).
   * @param options The other parameters (`FilesSuggestOptions`).
   * @see Operation `files.suggest`.
   */
  filesSuggest(query?: string, options?: FilesSuggestOptions): FilesSuggestResponse
  /** Like {@link EngineOperations.filesSuggest}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  filesSuggestAsync(
    query?: string,
    options?: FilesSuggestOptions & CallOptions,
  ): Promise<FilesSuggestResponse>

  /**
   * Search file contents in one or more directories (non-recursive unless asked): literal or regex,
   * whole word, case-insensitive, exclude strings, context lines; compact JSON per directory (the
   * checkfor tool).
   *
   * @param search The text to search for: a literal substring, or a regular expression (Rust
   *   `regex` syntax) with `regex`. Must not be empty.
   * @param options The other parameters (`GrepOptions`).
   * @see Operation `grep.search`.
   */
  grep(search: string, options?: GrepOptions): GrepResponse
  /** Like {@link EngineOperations.grep}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  grepAsync(search: string, options?: GrepOptions & CallOptions): Promise<GrepResponse>

  /**
   * Index the project's session notes (sessions/**\/*.md, dated by their YYYY_MM_DD_TOPIC folder)
   * by H2 section.
   *
   * @param options The other parameters (`NotesIndexOptions`).
   * @see Operation `notes.index`.
   */
  notesIndex(options?: NotesIndexOptions): DocsIndexResponse
  /** Like {@link EngineOperations.notesIndex}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  notesIndexAsync(options?: NotesIndexOptions & CallOptions): Promise<DocsIndexResponse>

  /**
   * Search the project's indexed session notes (keyword + semantic) by H2 section, filtered by
   * session date (after) and file name (file). Never indexes.
   *
   * @param query What to look for (any text).
   * @param options The other parameters (`NotesQueryOptions`).
   * @see Operation `notes.query`.
   */
  notesQuery(query: string, options?: NotesQueryOptions): DocsQueryResponse
  /** Like {@link EngineOperations.notesQuery}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  notesQueryAsync(
    query: string,
    options?: NotesQueryOptions & CallOptions,
  ): Promise<DocsQueryResponse>

  /**
   * Show one session chunk in full (by its id from sessions.search, or any unique prefix), with its
   * context messages and the other parts of its prompt group.
   *
   * @param id The chunk's id, or any unique prefix of it (hex).
   * @param options The other parameters (`SessionsChunkOptions`).
   * @see Operation `sessions.chunk`.
   */
  sessionsChunk(id: string, options?: SessionsChunkOptions): SessionsChunkResponse
  /** Like {@link EngineOperations.sessionsChunk}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  sessionsChunkAsync(
    id: string,
    options?: SessionsChunkOptions & CallOptions,
  ): Promise<SessionsChunkResponse>

  /**
   * Index Claude Code session transcripts ($CLAUDE_CONFIG_DIR/projects/**\/*.jsonl) by prompt
   * group: new and grown sessions only (force re-parses all), deleted ones removed.
   *
   * @param options The other parameters (`SessionsIndexOptions`).
   * @see Operation `sessions.index`.
   */
  sessionsIndex(options?: SessionsIndexOptions): SessionsIndexResponse
  /** Like {@link EngineOperations.sessionsIndex}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  sessionsIndexAsync(options?: SessionsIndexOptions & CallOptions): Promise<SessionsIndexResponse>

  /**
   * Search Claude Code session transcripts (keyword + semantic, recent first, tool output and
   * thinking weighted down), filtered by project substring, since (2h, 1w, 30d, 2026-01-01) and
   * types; indexes on first use.
   *
   * @param query What to look for (any text).
   * @param options The other parameters (`SessionsSearchOptions`).
   * @see Operation `sessions.search`.
   */
  sessionsSearch(query: string, options?: SessionsSearchOptions): SessionsSearchResponse
  /** Like {@link EngineOperations.sessionsSearch}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  sessionsSearchAsync(
    query: string,
    options?: SessionsSearchOptions & CallOptions,
  ): Promise<SessionsSearchResponse>

  /**
   * Session index statistics: sessions, subagents, projects, chunks by kind, index size, model,
   * last indexed.
   *
   * @param options The other parameters (`SessionsStatusOptions`).
   * @see Operation `sessions.status`.
   */
  sessionsStatus(options?: SessionsStatusOptions): SessionsStatusResponse
  /** Like {@link EngineOperations.sessionsStatus}, on a worker thread; `options` may add
   * {@link CallOptions}. */
  sessionsStatusAsync(
    options?: SessionsStatusOptions & CallOptions,
  ): Promise<SessionsStatusResponse>
}
