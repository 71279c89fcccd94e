// Compile-only check of index.d.ts (`npm run check:types`): the typed API as a user
// writes it. Lines marked @ts-expect-error must stay errors.

import {
  CcSearchError,
  ERROR_CODES,
  Engine,
  type CodeSearchResponse,
  type CodeSymbol,
  type DocsIndexResponse,
  type DocsQueryResponse,
  type ErrorCode,
  type FilesRefreshResponse,
  type FilesSuggestResponse,
  type SessionsHit,
  type SessionsSearchResponse,
  VERSION,
  agentAnswer,
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
  const watched: FilesRefreshResponse = await engine.filesRefreshAsync({
    root: '.',
    signal: new AbortController().signal,
    onProgress: (stage: string, done: number, total: number) => console.log(stage, done, total),
  })

  const found: FilesSuggestResponse = engine.filesSuggest('src/comp', { projectDir: '.', limit: 5 })
  const paths: string[] = found.paths
  const asyncPaths: string[] = (await engine.filesSuggestAsync('readme')).paths
  const everything: FilesSuggestResponse = engine.filesSuggest()

  // code: the symbol index.
  const indexed: number = engine.codeIndex({ path: '.', force: true }).stats.symbols
  const hits: CodeSearchResponse = engine.codeSearch('user', { path: '.', kind: 'fn', limit: 5 })
  const firstHit: CodeSymbol | undefined = hits.hits[0]
  const firstLine: number | undefined = firstHit?.start_line
  void firstLine
  const detailSig: string | undefined = (await engine.codeSymbolAsync(1)).signature
  const agentText: string = agentAnswer('code.search_symbols', hits, 200)
  void agentText
  // @ts-expect-error: a budget is the agent's, not the operation's
  engine.codeSymbol(1, { path: '.', maxTokens: 200 })
  const refsLine: number | undefined = engine.codeReferences(1).references[0]?.line
  const repoPaths: string[] = engine.codeRepos().map((r) => r.path)
  const typedCode: CodeSearchResponse = engine.call('code.search_symbols', { query: 'x', limit: 3 })
  // @ts-expect-error: the query is a string
  engine.codeSearch(42)

  // docs and notes.
  const docsIndexed: DocsIndexResponse = engine.docsIndex({ projectDir: '.', globs: ['docs/**/*.md'], lockWaitSecs: 5 })
  const written: number = docsIndexed.sections_written + docsIndexed.pending_vectors
  const docsHits: DocsQueryResponse = await engine.docsQueryAsync('matching', { allBranches: true, limit: 3, mode: 'keyword' })
  const section: string | undefined = docsHits.results[0]?.section
  const noteDate: string | undefined = engine.notesQuery('auth', { after: '2026-01-01', file: 'NOTES' }).results[0]?.session_date
  const typedDocs: DocsQueryResponse = engine.call('docs.query', { query: 'x', branch: 'main' })
  // @ts-expect-error: modes are hybrid, keyword or vector
  engine.docsQuery('x', { mode: 'fuzzy' })
  void [written, section, noteDate, typedDocs]

  // sessions.
  const sessionsIndexed = engine.sessionsIndex({ force: true, projectsDir: '/tmp/projects' })
  const parsed: number = sessionsIndexed.parsed + sessionsIndexed.skipped_records['progress']!
  const sessionsFound: SessionsSearchResponse = await engine.sessionsSearchAsync('jwt', {
    project: 'app', since: '1w', types: ['user', 'tool'], limit: 3, now: 0,
  })
  const hit: SessionsHit | undefined = sessionsFound.results[0]
  const resume: string | undefined = hit?.session_id
  const role: 'user' | 'assistant' | 'summary' | undefined = hit?.messages[0]?.role
  const chunkText: string = engine.sessionsChunk('a2ffd9f7').content
  const lastIndexed: string | null = engine.sessionsStatus().last_indexed
  const typedSessions: SessionsSearchResponse = engine.call('sessions.search', { query: 'x', since: 3600 })
  // @ts-expect-error: types are user, assistant, tool, thinking or summary
  engine.sessionsSearch('x', { types: ['tools'] })
  void [parsed, resume, role, chunkText, lastIndexed, typedSessions]

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
