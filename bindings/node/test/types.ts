// Compile-only check of index.d.ts (`npm run check:types`): the typed API as a user
// writes it. Lines marked @ts-expect-error must stay errors.

import {
  CcSearchError,
  ERROR_CODES,
  Engine,
  type ErrorCode,
  type FilesRefreshResponse,
  type FilesSuggestResponse,
  VERSION,
  operations,
  serveMcp,
  version,
} from 'cc-search'

async function main(): Promise<void> {
  const engine = new Engine({ home: '/tmp/cc-search-types', configPath: null })
  const home: string = engine.home
  const warnings: string[] = engine.warnings

  const refreshed: FilesRefreshResponse = engine.filesRefresh({ root: '.', maxDepth: 3, exclude: ['*.log'], maxFiles: 10 })
  const count: number = refreshed.files + refreshed.added + refreshed.updated + refreshed.removed
  const truncated: boolean = refreshed.truncated
  const again: FilesRefreshResponse = await engine.filesRefreshAsync()

  const found: FilesSuggestResponse = engine.filesSuggest('src/comp', { projectDir: '.', limit: 5 })
  const paths: string[] = found.paths
  const asyncPaths: string[] = (await engine.filesSuggestAsync('readme')).paths
  const everything: FilesSuggestResponse = engine.filesSuggest()

  // Known operations are typed by name; any other name gives a plain object.
  const typed: FilesSuggestResponse = engine.call('files.suggest', { query: 'x', project_dir: '.', limit: 3 })
  const typedAsync: FilesRefreshResponse = await engine.callAsync('files.refresh', { root: '.', max_depth: 2 })
  const other: Record<string, unknown> = engine.call('code.search', { query: 'x' })
  const otherAsync: Record<string, unknown> = await engine.callAsync('docs.search')

  try {
    engine.call('files.nope')
  } catch (err) {
    if (err instanceof CcSearchError) {
      const code: ErrorCode = err.code
      const message: string = err.message
      void code, message
    }
  }
  const codes: readonly ErrorCode[] = ERROR_CODES
  const v: string = version() + VERSION
  const names: string[] = operations().map((op) => op.name)

  const mcpReply: string | null = engine.mcpHandle('{"jsonrpc":"2.0","id":1,"method":"ping"}')
  const served: Promise<void> = engine.serveMcp({ roots: ['.'] })
  const servedAlone: Promise<void> = serveMcp({ home: '/tmp/cc-search-types', roots: null })
  void [mcpReply, served, servedAlone]
  // @ts-expect-error an MCP message is a string
  engine.mcpHandle({ jsonrpc: '2.0' })

  // @ts-expect-error camelCase options only
  engine.filesSuggest('x', { project_dir: '.' })
  // @ts-expect-error a query is a string
  engine.filesSuggest(42)
  // @ts-expect-error home is read-only
  engine.home = '/elsewhere'
  // @ts-expect-error not an error code
  const bad: ErrorCode = 'nope'

  void [home, warnings, count, truncated, again, paths, asyncPaths, everything, typed, typedAsync, other, otherAsync, codes, v, names, bad]
}

void main
