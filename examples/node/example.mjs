// Index a directory and print file suggestions for a few `@` queries.
//
//   node examples/node/example.mjs [DIR] [QUERY...]
//   bun  examples/node/example.mjs [DIR] [QUERY...]
//
// Without DIR, a small sample project is made in a temporary directory. The index goes
// to $CC_SEARCH_HOME when it is set, else to a temporary data root removed at the end.
// In a project of your own, `import { Engine } from 'cc-search'`.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { Engine, CcSearchError, version } from '../../bindings/node/index.mjs'

const temporary = []
function tempDir(prefix) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  temporary.push(dir)
  return dir
}

function sampleProject() {
  const root = tempDir('cc-search-example-')
  const files = {
    'src/components/Button.tsx': 'export const Button = () => null\n',
    'src/components/Modal.tsx': 'export const Modal = () => null\n',
    'README.md': '# Example\n',
  }
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
    fs.writeFileSync(path.join(root, rel), content)
  }
  return root
}

const [dirArg, ...queryArgs] = process.argv.slice(2)
const project = dirArg ? path.resolve(dirArg) : sampleProject()
const queries = queryArgs.length > 0 ? queryArgs : ['src/comp', 'readme', 'Button', '']
const home = process.env.CC_SEARCH_HOME || tempDir('cc-search-example-home-')

try {
  const engine = new Engine({ home })
  const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`
  console.log(`cc-search ${version()} on ${runtime}`)

  const refreshed = await engine.filesRefreshAsync({ root: project })
  console.log(`indexed ${refreshed.files} files under ${refreshed.root} (${refreshed.added} new)`)
  for (const warning of refreshed.warnings) console.log(`  warning: ${warning}`)

  const answers = await Promise.all(
    queries.map((query) => engine.filesSuggestAsync(query, { projectDir: project, limit: 5 })),
  )
  queries.forEach((query, i) => {
    console.log(`@${query}`)
    for (const p of answers[i].paths) console.log(`  ${p}`)
    if (answers[i].paths.length === 0) console.log('  (no match)')
  })
} catch (err) {
  if (err instanceof CcSearchError) {
    console.error(`cc-search: ${err.code}: ${err.message}`)
    process.exitCode = 1
  } else {
    throw err
  }
} finally {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true })
}
