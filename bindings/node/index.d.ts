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
}

/** Result of each operation. */
export interface OperationResponses {
  'claude.install': ClaudeInstallResponse
  'files.refresh': FilesRefreshResponse
  'files.suggest': FilesSuggestResponse
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
}
