// The file-picker specification's "Query Client", written as the specification
// describes it, for comparison with hooks/file-suggestion.sh on the same index:
//
//   echo '{"query": "src/comp"}' | CC_SEARCH_HOME=<data root> CLAUDE_PROJECT_DIR=<project> \
//     bun bench/spec-suggest.js
//
// Bun + bun:sqlite: read {"query"} from stdin, open the index cc-search builds
// (<data root>/files.db; the specification calls it index.db, with the same schema),
// run the specification's FTS5 query, project-scoped (`path LIKE <project>/%`),
// `ORDER BY rank`, LIMIT 15, and print the paths in the specification's smart format.
// User text is never passed raw to MATCH: each token is quoted and the last one made a
// prefix, so no query is an FTS5 syntax error. An empty query lists the most recently
// modified files of the project. This is the specification's fast path only: its
// `fd --changed-within 24h` scan, frecency and priority patterns would come on top.
//
// Bun only (bun:sqlite); not part of the npm package.

import { Database } from 'bun:sqlite'
import os from 'node:os'
import path from 'node:path'

const LIMIT = 15

function formatPath(absolutePath, projectRoot) {
  if (absolutePath.startsWith(projectRoot)) {
    return path.relative(projectRoot, absolutePath)
  }
  if (absolutePath.startsWith(os.homedir())) {
    return absolutePath.replace(os.homedir(), '~')
  }
  return absolutePath
}

/** `src/comp` → `"src" "comp"*`: the tokens the unicode61 tokenizer would see, quoted. */
function ftsQuery(query) {
  const tokens = query.split(/[^\p{L}\p{N}_-]+/u).filter(Boolean)
  if (tokens.length === 0) return null
  return tokens.map((t, i) => `"${t.replaceAll('"', '""')}"${i === tokens.length - 1 ? '*' : ''}`).join(' ')
}

async function suggest(input) {
  const projectRoot = process.env.CLAUDE_PROJECT_DIR || process.cwd()
  const home = process.env.CC_SEARCH_HOME || path.join(os.homedir(), '.local/share/cc-search')
  const db = new Database(path.join(home, 'files.db'), { readwrite: true, create: false })
  const scope = `${projectRoot}/`
  const match = ftsQuery(typeof input.query === 'string' ? input.query : '')
  const rows =
    match === null
      ? db
          .query(`SELECT path FROM files_meta WHERE path LIKE ? || '%' ORDER BY mtime DESC LIMIT ${LIMIT}`)
          .all(scope)
      : db
          .query(
            `SELECT path FROM files_fts WHERE files_fts MATCH ? AND path LIKE ? || '%' ORDER BY rank LIMIT ${LIMIT}`,
          )
          .all(match, scope)
  return rows.map((row) => formatPath(row.path, projectRoot))
}

let input = {}
try {
  input = JSON.parse(await Bun.stdin.text())
} catch {
  // No input, or not JSON: the empty query.
}
try {
  const paths = await suggest(input ?? {})
  if (paths.length > 0) process.stdout.write(`${paths.join('\n')}\n`)
} catch (err) {
  console.error(`[file-picker] ${err.message}`)
}
