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

/** Parameters of each operation, as the core names them (snake_case). */
export interface OperationParams {
  'claude.install': {
    scope?: 'user' | 'project'
    project_dir?: string
    file_suggestion_command: string
    session_start_command: string
    uninstall?: boolean
  }
  'embed.text': {
    texts?: string[]
    cached?: boolean
  }
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
}

/** Result of each operation. */
export interface OperationResponses {
  'claude.install': ClaudeInstallResponse
  'embed.text': EmbedResponse
  'files.refresh': FilesRefreshResponse
  'files.suggest': FilesSuggestResponse
  'grep.search': GrepResponse
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
  /** Where messages come from: a readable stream (default `process.stdin`). */
  input?: { on(event: string, listener: (...args: any[]) => void): unknown }
  /** Where replies go: a writable stream (default `process.stdout`). */
  output?: { write(chunk: string): unknown }
}

/**
 * Open an engine and run an MCP session on stdin and stdout until stdin ends: the
 * `checkfor` tool and every cc-search operation as tools.
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
export declare class Engine {
  constructor(options?: EngineOptions)
  /** The data root in use (absolute). */
  readonly home: string
  /** Warnings from opening the engine (an invalid configuration file, for instance). */
  readonly warnings: string[]

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
}
