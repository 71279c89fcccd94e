'use strict'

// files.refresh and files.suggest on real temporary projects: exact paths, incremental
// counts, options, and the sync, async and generic forms agreeing.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const { Engine } = require('cc-search')
const { tempDir, makeProject, sampleProject, writeFile, touchLater, removeAll } = require('./helpers.js')

after(removeAll)

const BUTTON = 'src/components/Button.tsx'
const MODAL = 'src/components/Modal.tsx'
const README = 'README.md'

// The picker examples every surface must answer the same way. Where two paths tie on
// the query (`src/comp` matches both components equally) the order is the core's
// tie-break, so those are compared as sets; every single answer is exact.
const EXPECTED = [
  ['src/comp', [BUTTON, MODAL]],
  ['readme', [README]],
  ['Button', [BUTTON]],
  ['Modal', [MODAL]],
  ['components/', [BUTTON, MODAL]],
  ['nothing-matches-this', []],
]

function sortedPaths(response) {
  return [...response.paths].sort()
}

describe('files.refresh', () => {
  test('indexes a project and reports its canonical root', () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    assert.deepEqual(engine.filesRefresh({ root: project }), {
      root: project,
      files: 3,
      added: 3,
      updated: 0,
      removed: 0,
      truncated: false,
      roots: [{ root: project, files: 3, added: 3, updated: 0, removed: 0, truncated: false, incremental: false }],
      warnings: [],
    })
  })

  test('the async form gives the same result', async () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    const pending = engine.filesRefreshAsync({ root: project })
    assert.ok(pending instanceof Promise)
    assert.deepEqual(await pending, {
      root: project,
      files: 3,
      added: 3,
      updated: 0,
      removed: 0,
      truncated: false,
      roots: [{ root: project, files: 3, added: 3, updated: 0, removed: 0, truncated: false, incremental: false }],
      warnings: [],
    })
  })

  test('a root given with .. and a trailing slash is canonicalised', () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    const response = engine.filesRefresh({ root: path.join(project, 'src', '..') + '/' })
    assert.equal(response.root, project)
    assert.equal(response.files, 3)
  })

  test('a git work tree is refreshed from what moved; full walks it all', () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null' }
    const git = (...args) => {
      const run = spawnSync('git', ['-C', project, ...args], { env, encoding: 'utf8' })
      assert.equal(run.status, 0, run.stderr)
    }
    git('init', '-q')
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'start')
    // Ignore rules written an instant before a refresh may have been written after it
    // started, so the next one would walk in full: date `git init`'s exclude file back.
    fs.utimesSync(path.join(project, '.git/info/exclude'), 1_600_000_000, 1_600_000_000)
    assert.equal(engine.filesRefresh({ root: project }).roots[0].incremental, false)
    writeFile(project, 'lib/fresh/thing.js')
    const again = engine.filesRefresh({ root: project })
    assert.equal(again.roots[0].incremental, true)
    assert.equal(again.added, 1)
    assert.deepEqual(engine.filesSuggest('fresh/thing', { projectDir: project }).paths, ['lib/fresh/thing.js'])
    assert.equal(engine.filesRefresh({ root: project, full: true }).roots[0].incremental, false)
  })

  test('refresh is incremental: added, updated, removed', async () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    const first = engine.filesRefresh({ root: project })
    assert.deepEqual([first.files, first.added, first.updated, first.removed], [3, 3, 0, 0])

    const unchanged = engine.filesRefresh({ root: project })
    assert.deepEqual([unchanged.files, unchanged.added, unchanged.updated, unchanged.removed], [3, 0, 0, 0])

    touchLater(path.join(project, BUTTON), 60)
    const touched = await engine.filesRefreshAsync({ root: project })
    assert.deepEqual([touched.files, touched.added, touched.updated, touched.removed], [3, 0, 1, 0])

    writeFile(project, 'src/hooks/useThing.ts', 'export {}\n')
    fs.rmSync(path.join(project, MODAL))
    const changed = engine.filesRefresh({ root: project })
    assert.deepEqual([changed.files, changed.added, changed.updated, changed.removed], [3, 1, 0, 1])

    assert.deepEqual(engine.filesSuggest('Modal', { projectDir: project }).paths, [])
    assert.deepEqual(engine.filesSuggest('useThing', { projectDir: project }).paths, [
      'src/hooks/useThing.ts',
    ])
  })

  test('maxDepth limits the walk', () => {
    const project = sampleProject()
    const shallow = new Engine({ home: tempDir() }).filesRefresh({ root: project, maxDepth: 1 })
    assert.equal(shallow.files, 1)
    const deep = new Engine({ home: tempDir() }).filesRefresh({ root: project, maxDepth: 3 })
    assert.equal(deep.files, 3)
  })

  test('exclude adds gitignore-style patterns', () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    const response = engine.filesRefresh({ root: project, exclude: ['*.md'] })
    assert.equal(response.files, 2)
    assert.deepEqual(engine.filesSuggest('readme', { projectDir: project }).paths, [])
    assert.deepEqual(sortedPaths(engine.filesSuggest('', { projectDir: project })), [BUTTON, MODAL])
  })

  test('maxFiles truncates with a warning', () => {
    const engine = new Engine({ home: tempDir() })
    const response = engine.filesRefresh({ root: sampleProject(), maxFiles: 1 })
    assert.equal(response.files, 1)
    assert.equal(response.truncated, true)
    assert.equal(response.warnings.length, 1)
  })

  test('.gitignore and node_modules are respected', () => {
    const project = makeProject({
      '.gitignore': 'build/\n',
      'build/out.js': '',
      'node_modules/dep/index.js': '',
      'src/main.ts': '',
    })
    fs.mkdirSync(path.join(project, '.git'))
    const engine = new Engine({ home: tempDir() })
    engine.filesRefresh({ root: project })
    assert.deepEqual(engine.filesSuggest('out', { projectDir: project }).paths, [])
    assert.deepEqual(engine.filesSuggest('dep', { projectDir: project }).paths, [])
    assert.deepEqual(engine.filesSuggest('main', { projectDir: project }).paths, ['src/main.ts'])
  })

  test('the root defaults to CLAUDE_PROJECT_DIR set in process.env', () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    const saved = process.env.CLAUDE_PROJECT_DIR
    process.env.CLAUDE_PROJECT_DIR = project
    try {
      assert.equal(engine.filesRefresh().root, project)
      assert.deepEqual(engine.filesSuggest('readme').paths, [README])
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_PROJECT_DIR
      else process.env.CLAUDE_PROJECT_DIR = saved
    }
  })
})

describe('files.suggest', () => {
  const engine = new Engine({ home: tempDir() })
  const project = sampleProject()
  engine.filesRefresh({ root: project })

  for (const [query, paths] of EXPECTED) {
    test(`${JSON.stringify(query)} gives ${JSON.stringify(paths)}`, async () => {
      const sync = engine.filesSuggest(query, { projectDir: project })
      assert.deepEqual(sync.warnings, [])
      assert.deepEqual(sortedPaths(sync), paths)
      // Every form gives the same answer, in the same order.
      assert.deepEqual(await engine.filesSuggestAsync(query, { projectDir: project }), sync)
      const params = { query, project_dir: project }
      assert.deepEqual(engine.call('files.suggest', params), sync)
      assert.deepEqual(await engine.callAsync('files.suggest', params), sync)
    })
  }

  test('matching ignores case', () => {
    assert.deepEqual(engine.filesSuggest('BUTTON', { projectDir: project }).paths, [BUTTON])
    assert.deepEqual(engine.filesSuggest('modal.tsx', { projectDir: project }).paths, [MODAL])
  })

  test('an empty query lists the most recently modified files first', () => {
    const own = new Engine({ home: tempDir() })
    const dir = sampleProject()
    touchLater(path.join(dir, MODAL), 100)
    touchLater(path.join(dir, README), 50)
    touchLater(path.join(dir, BUTTON), 10)
    own.filesRefresh({ root: dir })
    assert.deepEqual(own.filesSuggest('', { projectDir: dir }).paths, [MODAL, README, BUTTON])
    assert.deepEqual(own.filesSuggest(undefined, { projectDir: dir }).paths, [MODAL, README, BUTTON])
    assert.deepEqual(own.filesSuggest('', { projectDir: dir, limit: 2 }).paths, [MODAL, README])
  })

  test('limit caps the answer; at most 15 paths by default', () => {
    const files = {}
    for (let i = 0; i < 30; i++) files[`pkg/widget${String(i).padStart(2, '0')}.ts`] = ''
    const dir = makeProject(files)
    const own = new Engine({ home: tempDir() })
    own.filesRefresh({ root: dir })
    assert.equal(own.filesSuggest('widget', { projectDir: dir }).paths.length, 15)
    assert.equal(own.filesSuggest('widget', { projectDir: dir, limit: 15 }).paths.length, 15)
    assert.deepEqual(own.filesSuggest('widget07', { projectDir: dir, limit: 1 }).paths, ['pkg/widget07.ts'])
    const three = own.filesSuggest('widget', { projectDir: dir, limit: 3 }).paths
    assert.equal(three.length, 3)
    for (const p of three) assert.match(p, /^pkg\/widget\d\d\.ts$/)
  })

  test('a project never indexed is indexed on the fly, with a warning', async () => {
    const own = new Engine({ home: tempDir() })
    const dir = sampleProject()
    const first = await own.filesSuggestAsync('src/comp', { projectDir: dir })
    assert.deepEqual(sortedPaths(first), [BUTTON, MODAL])
    assert.equal(first.warnings.length, 1)
    assert.ok(first.warnings[0].includes(dir), first.warnings[0])
    // Only the first time.
    assert.deepEqual(own.filesSuggest('src/comp', { projectDir: dir }), { paths: first.paths, warnings: [] })
  })

  test('results stay inside the project', () => {
    const own = new Engine({ home: tempDir() })
    const a = makeProject({ 'src/alpha.ts': '', 'shared.ts': '' })
    const b = makeProject({ 'src/beta.ts': '', 'shared.ts': '' })
    own.filesRefresh({ root: a })
    own.filesRefresh({ root: b })
    assert.deepEqual(own.filesSuggest('shared', { projectDir: a }).paths, ['shared.ts'])
    assert.deepEqual(own.filesSuggest('beta', { projectDir: a }).paths, [])
    assert.deepEqual(own.filesSuggest('beta', { projectDir: b }).paths, ['src/beta.ts'])
  })

  test('a subdirectory of an indexed project answers relative to itself', () => {
    const sub = path.join(project, 'src')
    assert.deepEqual(engine.filesSuggest('Button', { projectDir: sub }).paths, ['components/Button.tsx'])
  })

  test('non-ASCII file names round-trip', () => {
    const own = new Engine({ home: tempDir() })
    const dir = makeProject({ 'docs/café-notes.md': '', 'docs/日本語.md': '' })
    own.filesRefresh({ root: dir })
    assert.deepEqual(own.filesSuggest('café', { projectDir: dir }).paths, ['docs/café-notes.md'])
    assert.deepEqual(sortedPaths(own.filesSuggest('docs', { projectDir: dir })), [
      'docs/café-notes.md',
      'docs/日本語.md',
    ])
  })
})
