'use strict'

// Many callAsync calls in flight at once on one engine (and on several), on the
// libuv thread pool: every promise settles with its own answer or its own error.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')

const { Engine, CcSearchError } = require('cc-search')
const { tempDir, makeProject, sampleProject, removeAll } = require('./helpers.js')

after(removeAll)

const BUTTON = 'src/components/Button.tsx'
const MODAL = 'src/components/Modal.tsx'
const README = 'README.md'

describe('concurrent callAsync', () => {
  test('sixteen suggestions at once on one engine all answer exactly', async () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    await engine.filesRefreshAsync({ root: project })
    const queries = ['readme', 'Button', 'Modal', 'nothing-here']
    const expected = { readme: [README], Button: [BUTTON], Modal: [MODAL], 'nothing-here': [] }
    const calls = []
    for (let i = 0; i < 16; i++) {
      const query = queries[i % queries.length]
      calls.push(engine.callAsync('files.suggest', { query, project_dir: project }).then((r) => [query, r]))
    }
    const results = await Promise.all(calls)
    assert.equal(results.length, 16)
    for (const [query, response] of results) {
      assert.deepEqual(response, { paths: expected[query], warnings: [] }, query)
    }
  })

  test('refreshes of several projects and suggestions interleave correctly', async () => {
    const engine = new Engine({ home: tempDir() })
    const projects = []
    // Names more than one typo apart: a typo of one is never another project's file.
    const only = ['only-alpha', 'only-bravo', 'only-charlie', 'only-delta']
    for (let i = 0; i < 4; i++) {
      const files = {}
      for (let j = 0; j < 50; j++) files[`mod${i}/file${j}.ts`] = ''
      files[`${only[i]}.md`] = ''
      projects.push(makeProject(files))
    }
    const refreshes = await Promise.all(projects.map((root) => engine.filesRefreshAsync({ root })))
    refreshes.forEach((r, i) => {
      assert.equal(r.root, projects[i])
      assert.equal(r.files, 51)
      assert.equal(r.added, 51)
    })
    const answers = await Promise.all(
      projects.flatMap((projectDir, i) => [
        engine.filesSuggestAsync(only[i], { projectDir }),
        engine.filesSuggestAsync(`mod${i}/file7.`, { projectDir }),
        // Another project's file is never suggested here.
        engine.filesSuggestAsync(only[(i + 1) % 4], { projectDir }),
      ]),
    )
    projects.forEach((_, i) => {
      assert.deepEqual(answers[3 * i].paths, [`${only[i]}.md`])
      // The exact file first; near misses of the same project may follow.
      assert.equal(answers[3 * i + 1].paths[0], `mod${i}/file7.ts`)
      assert.ok(answers[3 * i + 1].paths.every((p) => p.startsWith(`mod${i}/`)), answers[3 * i + 1].paths)
      assert.deepEqual(answers[3 * i + 2].paths, [])
    })
  })

  test('the same project refreshed concurrently ends consistent', async () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    const results = await Promise.all(Array.from({ length: 6 }, () => engine.filesRefreshAsync({ root: project })))
    for (const r of results) assert.equal(r.files, 3)
    // Exactly one of them found the files new; the rest saw them indexed.
    assert.equal(results.reduce((sum, r) => sum + r.added, 0), 3)
    assert.deepEqual(engine.filesSuggest('readme', { projectDir: project }).paths, [README])
  })

  test('failures and successes in flight together each settle on their own', async () => {
    const engine = new Engine({ home: tempDir() })
    const project = sampleProject()
    const missing = path.join(project, 'missing')
    const outcomes = await Promise.allSettled([
      engine.callAsync('files.suggest', { query: 'Button', project_dir: project }),
      engine.callAsync('files.nope', {}),
      engine.callAsync('files.suggest', { query: 'x', project_dir: missing }),
      engine.callAsync('files.suggest', { query: 'x', limit: 99, project_dir: project }),
      engine.filesSuggestAsync('readme', { projectDir: project }),
    ])
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'fulfilled' ? o.value.paths : o.reason.code)),
      [[BUTTON], 'unknown_operation', 'io', 'invalid_request', [README]],
    )
    for (const o of outcomes) if (o.status === 'rejected') assert.ok(o.reason instanceof CcSearchError)
  })

  test('several engines on separate data roots run side by side', async () => {
    const project = sampleProject()
    const engines = Array.from({ length: 4 }, () => new Engine({ home: tempDir() }))
    const answers = await Promise.all(engines.map((e) => e.filesSuggestAsync('Modal', { projectDir: project })))
    for (const a of answers) {
      assert.deepEqual(a.paths, [MODAL])
      // Each data root indexed the project itself.
      assert.equal(a.warnings.length, 1)
    }
  })

  test('the event loop keeps running while calls are in flight', async () => {
    const engine = new Engine({ home: tempDir() })
    const files = {}
    for (let i = 0; i < 2000; i++) files[`d${i % 20}/f${i}.txt`] = ''
    const project = makeProject(files)
    const events = []
    const started = Date.now()
    const pending = engine.filesRefreshAsync({ root: project }).then((result) => {
      events.push('settled')
      return result
    })
    // Runs at the event loop's next turn. Had the refresh run on the JS thread, the
    // promise would have settled (a microtask) before the loop could turn; on a worker
    // thread, indexing 2000 files outlasts a turn of the loop.
    setImmediate(() => events.push('turned'))
    const result = await pending
    const elapsed = Date.now() - started
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(result.files, 2000, `the refresh found ${result.files} of 2000 files`)
    assert.deepEqual(events, ['turned', 'settled'], `the loop did not turn during a ${elapsed} ms refresh`)
  })
})
