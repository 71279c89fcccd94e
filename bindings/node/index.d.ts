// Types of cc-search for Node and Bun.
//
// The operations' types and the `Engine` methods that run them are generated from the
// core's operation table into operations.d.ts (`make bindings`); this file declares the
// rest and gives `Engine` those methods.

import type {
  CallOptions,
  EngineOperations,
  OperationName,
  OperationParams,
  OperationResponses,
} from './operations.js'

export * from './operations.js'

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

/** Options naming the repository of a code operation (the `code*` methods' options have it). */
export interface CodeRepoOptions {
  /** Repository root (default `$CLAUDE_PROJECT_DIR`, else the current directory). */
  path?: string
}

/** Options of code operations with a token budget. */
export interface CodeBudgetOptions extends CodeRepoOptions {
  /** Keep the JSON within about this many tokens (4 bytes each). */
  maxTokens?: number
}

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
 * What an agent reads of operation `op`'s `result` (as a method or `Engine#call` returned
 * it): compact JSON text with short keys, each file listed once and fields it has no use
 * for left out, within `maxTokens` when given (a cut answer says `"truncated": true`) —
 * what the MCP tools answer.
 */
export declare function agentAnswer(op: string, result: unknown, maxTokens?: number): string

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

  /**
   * Like {@link Engine.call}, on a worker thread. Rejects with a {@link CcSearchError};
   * with code `cancelled` when `options.signal` aborts it (what it had committed stays).
   */
  callAsync<Op extends OperationName>(
    op: Op,
    params?: OperationParams[Op] | null,
    options?: CallOptions | null,
  ): Promise<OperationResponses[Op]>
  callAsync(
    op: string,
    params?: Record<string, unknown> | null,
    options?: CallOptions | null,
  ): Promise<Record<string, unknown>>

  /** Stop every async call running on this engine now (code `cancelled`). */
  cancelRunning(): void
}


/**
 * The generated methods (operations.d.ts): one per operation, `filesSuggest(query, options)`
 * and its `filesSuggestAsync` twin, and so on.
 */
export interface Engine extends EngineOperations {}
