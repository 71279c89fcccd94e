// Types of cc-search for Node and Bun.

/** The codes a {@link CcSearchError} carries; the same on every cc-search surface. */
export type ErrorCode =
  | 'invalid_request'
  | 'unknown_operation'
  | 'io'
  | 'database'
  | 'internal'

/** Every error code, in the core's order. */
export declare const ERROR_CODES: readonly ErrorCode[]

/** The version of cc-search (`MAJOR.MINOR.PATCH`). */
export declare const VERSION: string

/** The version of cc-search (`MAJOR.MINOR.PATCH`). */
export declare function version(): string

/**
 * An error from cc-search.
 *
 * - `invalid_request`: malformed parameters, an unknown or mistyped field, a value out
 *   of range.
 * - `unknown_operation`: no operation has that name.
 * - `io`: a filesystem failure, such as a missing directory.
 * - `database`: a SQLite failure.
 * - `internal`: a bug; the message says where.
 */
export declare class CcSearchError extends Error {
  constructor(message: string, code: ErrorCode, options?: { cause?: unknown })
  readonly name: 'CcSearchError'
  readonly code: ErrorCode
}

/** How to open an {@link Engine}. */
export interface EngineOptions {
  /**
   * Data root: databases live here, and so does `config.toml` unless `configPath`
   * says otherwise. Default: `$CC_SEARCH_HOME`, else `$XDG_DATA_HOME/cc-search`
   * (`~/.local/share/cc-search`).
   */
  home?: string | null
  /** An explicit configuration file (TOML). */
  configPath?: string | null
}

/** Options of {@link Engine.filesRefresh}. */
export interface FilesRefreshOptions {
  /**
   * Directory to index. Without it: the project (`projectDir`, else
   * `$CLAUDE_PROJECT_DIR`, else the current directory), the configured `[index] roots`
   * and the project's additional directories from `.claude/settings*.json`.
   */
  root?: string
  /** The project whose session is refreshed when `root` is not given. */
  projectDir?: string
  /** Maximum depth below the root. Default: `[index.depth]` of the configuration. */
  maxDepth?: number
  /** Extra gitignore-style patterns to exclude, on top of the defaults and the configuration. */
  exclude?: string[]
  /** Stop after this many files. Default: `[index.limits] max_files_per_root`. */
  maxFiles?: number
  /**
   * Walk every root in full. Without it, a root in a git work tree walked within the last
   * day with the same rules is brought up to date from directory mtimes and git.
   */
  full?: boolean
}

/** What `files.refresh` did to one root. */
export interface RootRefresh {
  root: string
  files: number
  added: number
  updated: number
  removed: number
  truncated: boolean
  /** Brought up to date from directory mtimes and git rather than walked in full. */
  incremental: boolean
}

/** Result of `files.refresh`; the counts are totals over `roots`. */
export interface FilesRefreshResponse {
  /** The canonical root asked for (or the project). */
  root: string
  /** Files now indexed under the roots. */
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

/** Options of {@link Engine.filesSuggest}. */
export interface FilesSuggestOptions {
  /**
   * Project root; results are limited to it and shown relative to it. Default:
   * `$CLAUDE_PROJECT_DIR`, else the current directory. A project never indexed is
   * indexed on the fly.
   */
  projectDir?: string
  /** Most paths to return, 1 to 15 (default 15). */
  limit?: number
  /** Time budget in milliseconds (default 100); past it the file system is searched. */
  budgetMs?: number
}

/** Result of `files.suggest`. */
export interface FilesSuggestResponse {
  /**
   * Best first, at most 15: relative to the project root inside it, `~/…` under the
   * home directory, absolute elsewhere.
   */
  paths: string[]
  /** Anything worth telling the user (an index built on the fly, a recovered database). */
  warnings: string[]
}

/** Options of {@link Engine.grep}. */
export interface GrepOptions {
  /**
   * Directories to search, in this order (one path or an array). Default:
   * `$CLAUDE_PROJECT_DIR`, else the current directory.
   */
  dir?: string | string[]
  /** Only files with this extension (`.go` or `go`). */
  ext?: string
  /** Drop matching lines that contain any of these strings (counted in the statistics). */
  exclude?: string | string[]
  /** Ignore case in `search` and `exclude`. */
  caseInsensitive?: boolean
  /** Match whole words only (word characters: ASCII letters, digits, `_`). */
  wholeWord?: boolean
  /** Lines of context before and after each match (default 0). */
  context?: number
  /** Leave `original_matches` and `filtered_matches` out. */
  hideFilterStats?: boolean
  /** Search subdirectories too, following `.gitignore` and the default excludes. */
  recursive?: boolean
  /** `search` is a regular expression. */
  regex?: boolean
  /** List at most this many matches; sets `truncated` when more were found. */
  maxMatches?: number
  /** Keep the JSON result within about this many tokens (4 bytes each). */
  maxTokens?: number
}

/** One matching line of `grep.search`. */
export interface GrepMatch {
  /** Line number, from 1. */
  line: number
  /** The line without its line ending. */
  content: string
  /** Up to `context` lines before it; absent when none. */
  context_before?: string[]
  /** Up to `context` lines after it; absent when none. */
  context_after?: string[]
}

/** The matches in one file. */
export interface GrepFile {
  /** Relative to the directory searched, `/`-separated. */
  path: string
  matches: GrepMatch[]
}

/** The matches in one directory. */
export interface GrepDirectory {
  /** The directory, as given. */
  dir: string
  /** Matches found (after `exclude`). */
  matches_found: number
  /** Matches before `exclude`: with `exclude`, without `hideFilterStats`, when not zero. */
  original_matches?: number
  /** Matches `exclude` dropped: with `exclude`, without `hideFilterStats`, when not zero. */
  filtered_matches?: number
  /** Files with matches, in path order. */
  files: GrepFile[]
  /** Why the directory could not be searched; absent when it was. */
  error?: string
}

/** Result of `grep.search` (the `checkfor` shape). */
export interface GrepResponse {
  /** One per directory, in the order given. */
  directories: GrepDirectory[]
  /** `true` when `maxMatches` or `maxTokens` left something out; absent otherwise. */
  truncated?: true
  /** Files that could not be read; absent when none. */
  warnings?: string[]
}

/** Options of {@link Engine.embed}. */
export interface EmbedOptions {
  /** Read and fill the data root's vector cache (default true). */
  cached?: boolean
}

/** Result of `embed.text`. */
export interface EmbedResponse {
  /** One L2-normalised vector per text, in the order given. */
  vectors: number[][]
  /** The model that made them (`sentence-transformers/all-MiniLM-L6-v2`). */
  model_id: string
  /** The length of each vector (384). */
  dims: number
  /** How many distinct texts the model embedded now; the rest came from the cache. */
  embedded: number
  warnings: string[]
}

/** Options of {@link Engine.docsIndex}. */
export interface DocsIndexOptions {
  /** A directory of the project (default: CLAUDE_PROJECT_DIR, else the current directory). */
  projectDir?: string
  /** Globs of the markdown files, relative to the project root. */
  globs?: string[]
  /** Seconds to wait for another index run (default 30). */
  lockWaitSecs?: number
}

/** Options of {@link Engine.notesIndex}. */
export interface NotesIndexOptions {
  projectDir?: string
  lockWaitSecs?: number
}

/** Result of `docs.index` and `notes.index`. */
export interface DocsIndexResponse {
  /** The project's name (its root directory's name). */
  project: string
  /**
   * The branch indexed (the one HEAD names, even before the first commit;
   * `detached@<sha>` on a detached HEAD; empty outside git and for notes, which belong
   * to no branch).
   */
  branch: string
  root: string
  files: number
  /** Files skipped: mtime and size unchanged. */
  unchanged: number
  /** Files with a new mtime but the same content: only the mtime was updated. */
  touched: number
  /** Files new or changed, split into sections again. */
  indexed: number
  removed: number
  sections_written: number
  sections_removed: number
  /** Section windows the model embedded now; the rest came from the vector cache. */
  embedded: number
  /** Sections still without vectors (no model available). */
  pending_vectors: number
  warnings: string[]
}

/** How a search retrieves: both lists fused, BM25 only, or nearest vectors only. */
export type SearchMode = 'hybrid' | 'keyword' | 'vector'

/** Options of {@link Engine.sessionsIndex}. */
export interface SessionsIndexOptions {
  /** Parse every transcript again from the start. */
  force?: boolean
  /** The transcripts folder (default `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`). */
  projectsDir?: string
}

/** A chunk kind of the session index. */
export type SessionsChunkKind = 'user' | 'assistant' | 'tool' | 'thinking' | 'summary'

/** Options of {@link Engine.sessionsSearch}. */
export interface SessionsSearchOptions {
  /** Only projects whose path contains this (case-insensitive). */
  project?: string
  /** Only from this time on: `2h`, `1w`, `30d`, `2026-01-01`, or Unix seconds. */
  since?: string | number
  /** Only these kinds (default all). */
  types?: SessionsChunkKind[]
  /** Most results, 1 to 100 (default 5). */
  limit?: number
  mode?: SearchMode
  /** "Now" in Unix seconds, for recency and relative `since` (default the clock). */
  now?: number
  /** The transcripts folder to index when no index exists yet. */
  projectsDir?: string
}

/** Result of {@link Engine.sessionsIndex}. */
export interface SessionsIndexResponse {
  projects_dir: string
  sessions: number
  subagents: number
  /** Transcripts parsed from the start. */
  parsed: number
  /** Transcripts appended to: only their new bytes were parsed. */
  grown: number
  unchanged: number
  removed: number
  bytes_parsed: number
  chunks_written: number
  chunks_removed: number
  chunks: number
  /** Chunk windows the model embedded in this run (the others came from the vector cache). */
  embedded: number
  pending_vectors: number
  corrupt_lines: number
  skipped_records: Record<string, number>
  warnings: string[]
}

/** A message around a session search result. */
export interface SessionsContextMessage {
  role: 'user' | 'assistant' | 'summary'
  content: string
}

/** One result of {@link Engine.sessionsSearch}. */
export interface SessionsHit {
  rank: number
  /** 8 hex characters; {@link Engine.sessionsChunk} shows the chunk whole. */
  id: string
  score: number
  kind: SessionsChunkKind
  /** The project path (the session's working directory). */
  project: string
  /** Usable with `claude --resume <session_id>`. */
  session_id: string
  parent_session_id: string | null
  session_path: string
  /** RFC 3339, UTC. */
  timestamp: string
  time: number
  /** How long ago, in words. */
  age: string
  content: string
  matched_window: string | null
  messages: SessionsContextMessage[]
  matched_by: Array<'keyword' | 'vector'>
}

/** Result of {@link Engine.sessionsSearch}. */
export interface SessionsSearchResponse {
  query: string
  results: SessionsHit[]
  total_results: number
  mode: SearchMode
  /** Set when nothing matched by keyword and these are the closest matches by meaning. */
  note: string | null
  search_time_ms: number
  warnings: string[]
}

/** Result of {@link Engine.sessionsChunk}. */
export interface SessionsChunkResponse {
  id: string
  full_id: string
  kind: SessionsChunkKind
  project: string
  session_id: string
  parent_session_id: string | null
  session_path: string
  timestamp: string
  time: number
  content: string
  messages: SessionsContextMessage[]
  prompt_uuid: string | null
  message_ids: string[]
  group: Array<{ id: string; kind: SessionsChunkKind; chars: number }>
}

/** Result of {@link Engine.sessionsStatus}. */
export interface SessionsStatusResponse {
  db_path: string
  projects_dir: string | null
  sessions: number
  subagents: number
  projects: Array<{ project: string; sessions: number }>
  chunks: number
  chunks_by_kind: Record<string, number>
  pending_vectors: number
  index_bytes: number
  model: string
  last_indexed: string | null
  warnings: string[]
}

/** Options of {@link Engine.docsQuery}. */
export interface DocsQueryOptions {
  projectDir?: string
  /** Search every indexed branch (identical sections shown once). */
  allBranches?: boolean
  /** Search this branch instead of the current one. */
  branch?: string
  /** Most results, 1 to 100 (default 10). */
  limit?: number
  mode?: SearchMode
}

/** Options of {@link Engine.notesQuery}. */
export interface NotesQueryOptions {
  projectDir?: string
  /** Only sessions on or after this date (`YYYY-MM-DD`). */
  after?: string
  /** Only files with this base name (`IMPLEMENTATION`), case-insensitive. */
  file?: string
  limit?: number
  mode?: SearchMode
}

/** One result of `docs.query` or `notes.query`. */
export interface DocsHit {
  rank: number
  score: number
  /** Relative to the project root. */
  file: string
  /** The H2 title, `(full document)`, `(preamble)`, or `Title##1` for a repeat. */
  section: string
  /** The section's full text, its heading included. */
  content: string
  project: string
  branch: string
  /** Other branches with the identical section (docs, `allBranches`). */
  also_on: string[]
  mtime: number
  /** Notes: the session folder. */
  session_path?: string
  /** Notes: the session's date, `YYYY-MM-DD`. */
  session_date?: string
  /** Cosine similarity to the query, when the vector list found it. */
  similarity: number | null
  /** `keyword`, `vector` or both. */
  matched_by: string[]
}

/** Result of `docs.query` and `notes.query`. */
export interface DocsQueryResponse {
  query: string
  project: string
  branch: string
  results: DocsHit[]
  /** The retrievers used (`keyword` when no model is available). */
  mode: SearchMode
  search_time_ms: number
  warnings: string[]
}

/** Result of `claude.install`. */
export interface ClaudeInstallResponse {
  /** The settings file written (or that would have been). */
  settings_path: string
  /** Whether the file changed. */
  changed: boolean
  /** Where the previous file was copied before writing, if it was. */
  backup: string | null
  /** One line per change made. */
  changes: string[]
  warnings: string[]
}

/** A symbol in brief (signature and doc shortened), as code results list them. */
export interface CodeSymbol {
  /** Symbol id, for {@link Engine.codeSymbol}, `codeReferences`, `codeDependencies`. */
  id: number
  /** Name. */
  n: string
  /** Kind: `fn method class interface struct enum trait mod const var impl section type`. */
  k: string
  /** File, relative to the repository (when the result does not say it otherwise). */
  f?: string
  /** Index of the file in the result's `_f`. */
  fi?: number
  /** Lines, `start-end`. */
  l: string
  /** Signature, normalised and shortened. */
  sig?: string
  /** Doc comment, shortened. */
  doc?: string
  /** Symbols defined inside it (file views). */
  children?: CodeSymbol[]
}

/** Options naming the repository of a code operation. */
export interface CodeRepoOptions {
  /** Repository root (default `$CLAUDE_PROJECT_DIR`, else the current directory). */
  path?: string
}

/** Options of {@link Engine.codeIndex}. */
export interface CodeIndexOptions extends CodeRepoOptions {
  /** Re-parse every file. */
  force?: boolean
}

/** Options of code operations with a token budget. */
export interface CodeBudgetOptions extends CodeRepoOptions {
  /** Keep the JSON within about this many tokens (4 bytes each). */
  maxTokens?: number
}

/** Options of {@link Engine.codeSearch}. */
export interface CodeSearchOptions extends CodeBudgetOptions {
  /** Only symbols of this kind. */
  kind?: string
  /** Most results (default 20). */
  limit?: number
}

/** Result of `code.index_repository` and `code.update_files`. */
export interface CodeIndexResponse {
  status: 'ok'
  stats: { files: number; symbols: number; refs: number }
  new: number
  changed: number
  unchanged: number
  deleted: number
  skipped?: number
  warnings?: string[]
}

/** Result of `code.index_status`. */
export interface CodeStatusResponse {
  repo: string
  indexed: boolean
  files: number
  symbols: number
  refs: number
  indexed_at?: number
  stale?: number
  stale_files?: string[]
  deleted?: number
  deleted_files?: string[]
  new?: number
  langs: Record<string, number>
  warnings?: string[]
}

/** Result of `code.get_overview`. */
export interface CodeOverviewResponse {
  repo: string
  langs: Record<string, number>
  mods: { p: string; files: number; syms: number }[]
  top_types: CodeSymbol[]
  entry_points: CodeSymbol[]
  truncated?: true
  warnings?: string[]
}

/** Result of `code.get_file_symbols`. */
export interface CodeFileSymbolsResponse {
  f: string
  syms: CodeSymbol[]
  truncated?: true
  warnings?: string[]
}

/** Result of `code.search_symbols`: with several files `_f` lists them and hits have `fi`. */
export interface CodeSearchResponse {
  q: string
  hits: CodeSymbol[]
  _f?: string[]
  truncated?: true
  warnings?: string[]
}

/** A reference to a symbol, from where it is made. */
export interface CodeRefSource {
  from_id?: number
  from_n?: string
  fi?: number
  from_f?: string
  kind: string
  line: number
}

/** A name a symbol refers to. */
export interface CodeRefTarget {
  n: string
  id?: number
  kind?: string
  external?: true
}

/** Result of `code.get_symbol_detail`: one symbol, untruncated. */
export interface CodeSymbolDetailResponse {
  id: number
  n: string
  k: string
  f: string
  l: string
  sig?: string
  doc?: string
  parent?: CodeSymbol
  children?: CodeSymbol[]
  calls?: CodeRefTarget[]
  called_by?: CodeRefSource[]
  type_refs?: CodeRefTarget[]
  _f?: string[]
  truncated?: true
}

/** Result of `code.get_references`. */
export interface CodeReferencesResponse {
  id: number
  refs_to: CodeRefSource[]
  _f?: string[]
  truncated?: true
}

/** Result of `code.get_dependencies`. */
export interface CodeDependenciesResponse {
  id: number
  deps: { to_n: string; kind: string; to_id?: number; external?: true }[]
  truncated?: true
}

/** One indexed repository. */
export interface CodeRepo {
  p: string
  files: number
  symbols: number
  indexed_at?: number
  db: string
}

/** Result of `code.delete_repos`. */
export interface CodeDeleteResponse {
  deleted: string[]
  not_found?: string[]
}

/** Parameters of each operation, as the core names them (snake_case). */
export interface OperationParams {
  'code.delete_repos': { paths?: string[]; all?: boolean }
  'code.get_dependencies': { path?: string; id: number; max_tokens?: number }
  'code.get_file_symbols': { path?: string; file: string; max_tokens?: number }
  'code.get_overview': { path?: string; max_tokens?: number }
  'code.get_references': { path?: string; id: number; max_tokens?: number }
  'code.get_symbol_detail': { path?: string; id: number; max_tokens?: number }
  'code.index_repository': { path?: string; force?: boolean }
  'code.index_status': { path?: string }
  'code.list_repos': Record<string, never>
  'code.search_symbols': { path?: string; query: string; kind?: string; limit?: number; max_tokens?: number }
  'code.update_files': { path?: string; files: string[] }
  'claude.install': {
    scope?: 'user' | 'project'
    project_dir?: string
    file_suggestion_command: string
    session_start_command: string
    uninstall?: boolean
  }
  'docs.index': { project_dir?: string; globs?: string[]; lock_wait_secs?: number }
  'docs.query': {
    query: string
    project_dir?: string
    all_branches?: boolean
    branch?: string
    limit?: number
    mode?: SearchMode
  }
  'embed.text': {
    texts?: string[]
    cached?: boolean
  }
  'sessions.chunk': { id: string }
  'sessions.index': { force?: boolean; projects_dir?: string }
  'sessions.search': {
    query: string
    project?: string
    since?: string | number
    types?: SessionsChunkKind[]
    limit?: number
    mode?: SearchMode
    now?: number
    projects_dir?: string
  }
  'sessions.status': Record<string, never>
  'files.refresh': {
    root?: string
    project_dir?: string
    max_depth?: number
    exclude?: string[]
    max_files?: number
    now?: number
    claude_dir?: string
  }
  'files.suggest': {
    query?: string
    project_dir?: string
    limit?: number
    budget_ms?: number
  }
  'grep.search': {
    search: string
    dir?: string | string[]
    ext?: string
    exclude?: string | string[]
    case_insensitive?: boolean
    whole_word?: boolean
    context?: number
    hide_filter_stats?: boolean
    recursive?: boolean
    regex?: boolean
    max_matches?: number
    max_tokens?: number
  }
  'notes.index': { project_dir?: string; lock_wait_secs?: number }
  'notes.query': {
    query: string
    project_dir?: string
    after?: string
    file?: string
    limit?: number
    mode?: SearchMode
  }
}

/** Result of each operation. */
export interface OperationResponses {
  'code.delete_repos': CodeDeleteResponse
  'code.get_dependencies': CodeDependenciesResponse
  'code.get_file_symbols': CodeFileSymbolsResponse
  'code.get_overview': CodeOverviewResponse
  'code.get_references': CodeReferencesResponse
  'code.get_symbol_detail': CodeSymbolDetailResponse
  'code.index_repository': CodeIndexResponse
  'code.index_status': CodeStatusResponse
  'code.list_repos': { repos: CodeRepo[]; warnings?: string[] }
  'code.search_symbols': CodeSearchResponse
  'code.update_files': CodeIndexResponse
  'claude.install': ClaudeInstallResponse
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

/** One entry of the operation table. */
export interface OperationInfo {
  /** Dotted name, `<component>.<verb>`. */
  name: string
  /** What it does, in one line. */
  summary: string
  /** JSON Schema of the parameters. */
  request: Record<string, unknown>
  /** JSON Schema of the result. */
  response: Record<string, unknown>
}

/** The operations this build offers, with JSON Schemas of their parameters and results. */
export declare function operations(): OperationInfo[]

/** Options of {@link Engine.serveMcp}. */
export interface McpServeOptions {
  /**
   * The directories the tools may read; the first is the project, against which relative
   * paths resolve. Default: `$CLAUDE_PROJECT_DIR`, else the current directory. The
   * configured `[index] roots` are added.
   */
  roots?: string[] | null
  /**
   * The tools offered, as selectors: `default` (the agent's toolset), `all`, a component
   * (`files`, `grep`, `code`, `docs`, `notes`, `sessions`, `embed`) or a tool name; a
   * comma-separated string or a list. Default: `[mcp] tools` of the configuration, else
   * `default`.
   */
  tools?: string | string[] | null
  /** An answer's token budget when a call gives no `max_tokens` (default 8000). */
  maxTokens?: number | null
  /** Also offer `outputSchema` and answer with `structuredContent` (default off). */
  structured?: boolean | null
  /** Where messages come from: a readable stream (default `process.stdin`). */
  input?: { on(event: string, listener: (...args: any[]) => void): unknown }
  /** Where replies go: a writable stream (default `process.stdout`). */
  output?: { write(chunk: string): unknown }
}

/**
 * Open an engine and run an MCP session on stdin and stdout until stdin ends, offering
 * the agent's toolset unless `tools` says otherwise.
 */
export declare function serveMcp(options?: EngineOptions & McpServeOptions): Promise<void>

/**
 * A cc-search engine: a data root, its configuration and its databases. Open one per
 * data root and share it; its methods may be called concurrently.
 *
 * Opening never fails on an invalid configuration file: the defaults apply, the reason
 * is in {@link Engine.warnings}, and it is shown once with `process.emitWarning`
 * (type `CcSearchWarning`).
 *
 * @throws {CcSearchError} `invalid_request` for bad options.
 */
/** The Claude Code hooks {@link Engine.hook} answers. */
export type HookName = 'file-suggestion' | 'session-start'

/** What a Claude Code hook answers ({@link Engine.hook}). */
export interface HookAnswer {
  /** The hook's whole stdout: empty, or lines each ending in a newline. */
  stdout: string
  /** Lines for stderr once stdout is written (one line each, no prefix). */
  warnings: string[]
  /** Why the hook could not do its work (one line); stdout is then empty. */
  error?: string | null
  /** A refresh of the project's session roots to start now, detached, its output
   * appended to `log` (already rotated). */
  refresh?: { projectDir: string; log: string } | null
}

/** Most bytes of a hook's stdin read; the rest is ignored. */
export declare const HOOK_INPUT_LIMIT: number

/**
 * Whether the bytes of a hook's stdin read so far hold one complete JSON object, so
 * that reading may stop.
 */
export declare function hookInputComplete(input: Uint8Array): boolean

export declare class Engine {
  constructor(options?: EngineOptions)
  /** The data root in use (absolute). */
  readonly home: string
  /** Warnings from opening the engine (an invalid configuration file, for instance). */
  readonly warnings: string[]

  /**
   * Answer the Claude Code hook `name` for the bytes of its stdin, as the scripts in
   * `hooks/` do (the protocol is the core's: the limits, the input's JSON, the log and
   * its rotation). Never throws for the hook's own failures: they are `error`.
   *
   * @throws {CcSearchError} `invalid_request` for an unknown hook or input that is not
   *   a Uint8Array.
   */
  hook(name: HookName, input: Uint8Array, options?: { projectDir?: string }): HookAnswer

  /**
   * Answer one MCP message (a line of JSON-RPC 2.0) as this engine's MCP server: the
   * reply (one line of JSON), or `null` for a notification. Protocol errors and failing
   * tools are replies; the session starts with the first call, its tools reading inside
   * the project (`$CLAUDE_PROJECT_DIR`, else the current directory) and the configured
   * roots.
   *
   * @throws {CcSearchError} `io` when the project directory cannot be read.
   */
  mcpHandle(message: string): string | null

  /**
   * Run an MCP session on `input`/`output` (default stdin/stdout), one message a line;
   * resolves when `input` ends.
   */
  serveMcp(options?: McpServeOptions): Promise<void>

  /**
   * Start (or restart) this engine's MCP session with these options (`input`/`output`
   * are not used); {@link Engine.mcpHandle} answers in it. Returns the names of the
   * tools offered.
   *
   * @throws {CcSearchError} `invalid_request` for an unknown tool selector or a bad option.
   */
  mcpStart(options?: McpServeOptions): string[]

  /**
   * Run an operation by name with parameters as the core names them (snake_case);
   * blocks until done. Operations added to the core are reachable here without a new
   * binding.
   *
   * @throws {CcSearchError}
   */
  call<Op extends OperationName>(op: Op, params?: OperationParams[Op] | null): OperationResponses[Op]
  call(op: string, params?: Record<string, unknown> | null): Record<string, unknown>

  /** Like {@link Engine.call}, on a worker thread. Rejects with a {@link CcSearchError}. */
  callAsync<Op extends OperationName>(
    op: Op,
    params?: OperationParams[Op] | null,
  ): Promise<OperationResponses[Op]>
  callAsync(op: string, params?: Record<string, unknown> | null): Promise<Record<string, unknown>>

  /**
   * Index the file paths under a directory; incremental (by modification time), stale
   * entries pruned.
   *
   * @throws {CcSearchError} `io` for a missing directory, `invalid_request` for bad options.
   */
  filesRefresh(options?: FilesRefreshOptions): FilesRefreshResponse
  /** Like {@link Engine.filesRefresh}, on a worker thread. */
  filesRefreshAsync(options?: FilesRefreshOptions): Promise<FilesRefreshResponse>

  /**
   * Suggest up to 15 file paths for an `@` query, best first, relative to the project.
   * An empty query gives the most recently modified files; no query text is ever an
   * error.
   *
   * @throws {CcSearchError} `io` for a missing project directory, `invalid_request` for a
   * limit outside 1..15.
   */
  filesSuggest(query?: string, options?: FilesSuggestOptions): FilesSuggestResponse
  /** Like {@link Engine.filesSuggest}, on a worker thread. */
  filesSuggestAsync(query?: string, options?: FilesSuggestOptions): Promise<FilesSuggestResponse>

  /**
   * Search file contents (the `checkfor` tool): a literal substring, or a regular
   * expression with `regex`, in each directory's own files (all below with
   * `recursive`). Finding nothing is not an error; a directory that cannot be read has
   * an `error` in its entry.
   *
   * @throws {CcSearchError} `invalid_request` for an empty `search`, an invalid regular
   * expression or bad options.
   */
  grep(search: string, options?: GrepOptions): GrepResponse
  /** Like {@link Engine.grep}, on a worker thread. */
  grepAsync(search: string, options?: GrepOptions): Promise<GrepResponse>

  /**
   * Sentence vectors with all-MiniLM-L6-v2 (384 floats, L2-normalised, as
   * sentence-transformers computes them; texts cut at 256 word pieces), cached per data
   * root.
   *
   * @throws {CcSearchError} `io` when no model is found (the message says how to get
   * one), `invalid_request` when `texts` is not an array of strings.
   */
  embed(texts: string[], options?: EmbedOptions): EmbedResponse
  /** Like {@link Engine.embed}, on a worker thread. */
  embedAsync(texts: string[], options?: EmbedOptions): Promise<EmbedResponse>

  /**
   * Index the project's markdown docs by H2 section for the current git branch;
   * unchanged files skipped, content-addressed embeddings.
   *
   * @throws {CcSearchError} `io` when another index run holds the lock past
   * `lockWaitSecs`, `invalid_request` for a bad glob.
   */
  docsIndex(options?: DocsIndexOptions): DocsIndexResponse
  /** Like {@link Engine.docsIndex}, on a worker thread. */
  docsIndexAsync(options?: DocsIndexOptions): Promise<DocsIndexResponse>
  /** Search the project's indexed docs (current branch by default). Never indexes. */
  docsQuery(query: string, options?: DocsQueryOptions): DocsQueryResponse
  /** Like {@link Engine.docsQuery}, on a worker thread. */
  docsQueryAsync(query: string, options?: DocsQueryOptions): Promise<DocsQueryResponse>
  /** Index the project's session notes (`sessions/`, dated by folder) by H2 section. */
  notesIndex(options?: NotesIndexOptions): DocsIndexResponse
  /** Like {@link Engine.notesIndex}, on a worker thread. */
  notesIndexAsync(options?: NotesIndexOptions): Promise<DocsIndexResponse>
  /** Search the project's indexed session notes. Never indexes. */
  notesQuery(query: string, options?: NotesQueryOptions): DocsQueryResponse
  /** Like {@link Engine.notesQuery}, on a worker thread. */
  notesQueryAsync(query: string, options?: NotesQueryOptions): Promise<DocsQueryResponse>

  /** Index Claude Code's session transcripts; new and grown ones only. */
  sessionsIndex(options?: SessionsIndexOptions): SessionsIndexResponse
  /** Like {@link Engine.sessionsIndex}, on a worker thread. */
  sessionsIndexAsync(options?: SessionsIndexOptions): Promise<SessionsIndexResponse>
  /**
   * Search the session transcripts (keyword + semantic, recent first); indexes first
   * when no index exists.
   * @throws {CcSearchError} `invalid_request` for an empty query ("Query required"), an
   * unknown type or a malformed `since`.
   */
  sessionsSearch(query: string, options?: SessionsSearchOptions): SessionsSearchResponse
  /** Like {@link Engine.sessionsSearch}, on a worker thread. */
  sessionsSearchAsync(query: string, options?: SessionsSearchOptions): Promise<SessionsSearchResponse>
  /**
   * One chunk in full, by id or unique prefix.
   * @throws {CcSearchError} `invalid_request` for an unknown or ambiguous id.
   */
  sessionsChunk(id: string): SessionsChunkResponse
  /** Like {@link Engine.sessionsChunk}, on a worker thread. */
  sessionsChunkAsync(id: string): Promise<SessionsChunkResponse>
  /** What the session index holds. */
  sessionsStatus(): SessionsStatusResponse
  /** Like {@link Engine.sessionsStatus}, on a worker thread. */
  sessionsStatusAsync(): Promise<SessionsStatusResponse>

  /** Index a repository's code symbols; only changed files are parsed again. */
  codeIndex(options?: CodeIndexOptions): CodeIndexResponse
  /** Like {@link Engine.codeIndex}, on a worker thread. */
  codeIndexAsync(options?: CodeIndexOptions): Promise<CodeIndexResponse>
  /** Re-index exactly `files` (absolute or relative to the repository), without a walk. */
  codeUpdate(files: string[], options?: CodeRepoOptions): CodeIndexResponse
  /** Like {@link Engine.codeUpdate}, on a worker thread. */
  codeUpdateAsync(files: string[], options?: CodeRepoOptions): Promise<CodeIndexResponse>
  /** What the index holds and which files changed since. */
  codeStatus(options?: CodeRepoOptions): CodeStatusResponse
  /** Like {@link Engine.codeStatus}, on a worker thread. */
  codeStatusAsync(options?: CodeRepoOptions): Promise<CodeStatusResponse>
  /** Languages, directories, most referenced types, entry points. */
  codeOverview(options?: CodeBudgetOptions): CodeOverviewResponse
  /** Like {@link Engine.codeOverview}, on a worker thread. */
  codeOverviewAsync(options?: CodeBudgetOptions): Promise<CodeOverviewResponse>
  /** The symbols of one file, as a tree. */
  codeFileSymbols(file: string, options?: CodeBudgetOptions): CodeFileSymbolsResponse
  /** Like {@link Engine.codeFileSymbols}, on a worker thread. */
  codeFileSymbolsAsync(file: string, options?: CodeBudgetOptions): Promise<CodeFileSymbolsResponse>
  /** Search symbols by name, subword, doc, kind or path; `prefix*`, `AND`/`OR`/`NOT`. */
  codeSearch(query: string, options?: CodeSearchOptions): CodeSearchResponse
  /** Like {@link Engine.codeSearch}, on a worker thread. */
  codeSearchAsync(query: string, options?: CodeSearchOptions): Promise<CodeSearchResponse>
  /**
   * One symbol in full; `maxTokens` leaves list items out (callers first) and sets
   * `truncated`, the signature and doc stay whole.
   * @throws {CcSearchError} `invalid_request` for an unknown id.
   */
  codeSymbol(id: number, options?: CodeBudgetOptions): CodeSymbolDetailResponse
  /** Like {@link Engine.codeSymbol}, on a worker thread. */
  codeSymbolAsync(id: number, options?: CodeBudgetOptions): Promise<CodeSymbolDetailResponse>
  /** Who refers to symbol `id`. */
  codeReferences(id: number, options?: CodeBudgetOptions): CodeReferencesResponse
  /** Like {@link Engine.codeReferences}, on a worker thread. */
  codeReferencesAsync(id: number, options?: CodeBudgetOptions): Promise<CodeReferencesResponse>
  /** What symbol `id` refers to. */
  codeDependencies(id: number, options?: CodeBudgetOptions): CodeDependenciesResponse
  /** Like {@link Engine.codeDependencies}, on a worker thread. */
  codeDependenciesAsync(id: number, options?: CodeBudgetOptions): Promise<CodeDependenciesResponse>
  /** The repositories with a code index. */
  codeRepos(): CodeRepo[]
  /** Like {@link Engine.codeRepos}, on a worker thread. */
  codeReposAsync(): Promise<CodeRepo[]>
  /** Delete the code index of `paths` (or of all with `options.all`). */
  codeDelete(paths?: string[], options?: { all?: boolean }): CodeDeleteResponse
  /** Like {@link Engine.codeDelete}, on a worker thread. */
  codeDeleteAsync(paths?: string[], options?: { all?: boolean }): Promise<CodeDeleteResponse>
}
