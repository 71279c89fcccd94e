'use strict'

// Bad input never crashes: each case gets a CcSearchError with the core's code, or a
// natural empty/most-recent answer. Sync and async forms fail the same way.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const { Engine, CcSearchError, ERROR_CODES } = require('cc-search')
const native = require('../native.js')
const { tempDir, sampleProject, removeAll } = require('./helpers.js')

after(removeAll)

const BUTTON = 'src/components/Button.tsx'
const MODAL = 'src/components/Modal.tsx'
const README = 'README.md'
const ALL = [README, BUTTON, MODAL] // sorted

// Assert that `fn` throws (or, when it returns a promise, rejects with) a CcSearchError
// whose code is `code` and whose message matches `message`.
async function rejectsWith(fn, code, message) {
  let outcome
  try {
    outcome = { value: await fn() }
  } catch (err) {
    outcome = { err }
  }
  assert.ok('err' in outcome, `expected a ${code} error, got ${JSON.stringify(outcome.value)}`)
  const { err } = outcome
  assert.ok(err instanceof CcSearchError, `not a CcSearchError: ${err && err.stack}`)
  assert.ok(err instanceof Error)
  assert.equal(err.name, 'CcSearchError')
  assert.equal(err.code, code, err.message)
  assert.ok(ERROR_CODES.includes(err.code))
  if (message) assert.match(err.message, message)
  return err
}

// Both forms, sync and async, must fail the same way.
async function bothFail(engine, op, params, code, message) {
  assert.throws(() => engine.call(op, params), (err) => err instanceof CcSearchError && err.code === code)
  const pending = engine.callAsync(op, params)
  assert.ok(pending instanceof Promise, 'callAsync must return a promise even for bad input')
  await rejectsWith(() => pending, code, message)
  return rejectsWith(() => engine.call(op, params), code, message)
}

const engine = new Engine({ home: tempDir() })
const project = sampleProject()
engine.filesRefresh({ root: project })

describe('hostile queries are never errors', () => {
  const cases = [
    // [label, query, expected sorted paths]
    ['empty', '', ALL],
    ['a lone double quote', '"', ALL],
    ['a leading minus', '-foo', []],
    ['NEAR(', 'NEAR(', []],
    ['a lone star', '*', ALL],
    ['AND', 'AND', []],
    ['OR', 'OR', []],
    ['NOT Button', 'NOT Button', []],
    ['a quoted name', '"Button"', [BUTTON]],
    ['a trailing star', 'Butt*', [BUTTON]],
    ['a column filter', 'filename:Button', []],
    ['a caret', '^Button', [BUTTON]],
    ['a NUL character', '\0', ALL],
    ['unbalanced parentheses', '((Modal', [MODAL]],
    ['a 100 KB query', 'a'.repeat(100 * 1024), []],
    ['a 100 KB query of punctuation', '"*()^:/. '.repeat(13 * 1024), ALL],
    ['a 100 KB query of operators', 'AND "-*( NEAR( '.repeat(7 * 1024), []],
    ['a 100 KB multibyte query', 'é'.repeat(50 * 1024), []],
  ]
  for (const [label, query, expected] of cases) {
    test(label, async () => {
      const sync = engine.filesSuggest(query, { projectDir: project })
      assert.deepEqual([...sync.paths].sort(), expected)
      assert.deepEqual(sync.warnings, [])
      assert.deepEqual(await engine.filesSuggestAsync(query, { projectDir: project }), sync)
    })
  }
})

describe('bad requests carry the core error code', () => {
  test('an unknown operation is unknown_operation, naming the known ones', async () => {
    const err = await bothFail(engine, 'files.nope', {}, 'unknown_operation', /files\.nope/)
    assert.match(err.message, /files\.suggest/)
    await bothFail(engine, '', null, 'unknown_operation')
    await bothFail(engine, 'x'.repeat(100 * 1024), null, 'unknown_operation')
  })

  test('an operation name that is not a string is invalid_request', async () => {
    for (const op of [undefined, null, 42, {}, ['files.suggest']]) {
      await bothFail(engine, op, {}, 'invalid_request', /operation name must be a string/)
    }
  })

  test('an unknown field is invalid_request, naming it', async () => {
    await bothFail(engine, 'files.suggest', { query: 'x', bogus: 1 }, 'invalid_request', /bogus/)
    await rejectsWith(() => engine.filesSuggest('x', { projectDir: project, bogusOption: 1 }), 'invalid_request', /bogus_option/)
    await rejectsWith(() => engine.filesRefreshAsync({ root: project, maxdepth: 2 }), 'invalid_request', /maxdepth/)
  })

  test('a mistyped field is invalid_request', async () => {
    await bothFail(engine, 'files.suggest', { query: 42 }, 'invalid_request')
    await rejectsWith(() => engine.filesSuggest(42, { projectDir: project }), 'invalid_request')
    await rejectsWith(() => engine.filesSuggestAsync(['a'], { projectDir: project }), 'invalid_request')
    await rejectsWith(() => engine.filesRefresh({ root: project, maxDepth: 'deep' }), 'invalid_request')
    await rejectsWith(() => engine.filesRefresh({ root: project, exclude: '*.md' }), 'invalid_request')
    await rejectsWith(() => engine.filesRefresh({ root: project, maxFiles: -1 }), 'invalid_request')
  })

  test('parameters that are not an object are invalid_request', async () => {
    await bothFail(engine, 'files.suggest', 'readme', 'invalid_request')
    await bothFail(engine, 'files.suggest', [1, 2], 'invalid_request')
    await bothFail(engine, 'files.suggest', 7, 'invalid_request')
    await rejectsWith(() => engine.filesRefresh('some/dir'), 'invalid_request')
    await rejectsWith(() => engine.filesSuggestAsync('x', 'dir'), 'invalid_request')
  })

  test('parameters that cannot become JSON are invalid_request', async () => {
    const circular = { query: 'x' }
    circular.self = circular
    await bothFail(engine, 'files.suggest', circular, 'invalid_request', /JSON/)
    await bothFail(engine, 'files.suggest', { limit: 10n }, 'invalid_request', /JSON/)
    await bothFail(engine, 'files.suggest', () => {}, 'invalid_request', /JSON/)
  })

  test('malformed JSON text is invalid_request (native surface)', async () => {
    const raw = new native.Engine(tempDir(), null)
    for (const text of ['{bad', '{"query": }', '[', '{"query": "x"', '"unterminated', 'nul']) {
      assert.throws(
        () => raw.call('files.suggest', text),
        (err) => err instanceof Error && err.code === 'invalid_request' && /files\.suggest/.test(err.message),
        text,
      )
      await assert.rejects(raw.callAsync('files.suggest', text), (err) => err.code === 'invalid_request')
    }
  })

  test('"", "null" and "{}" are the default parameters (native surface)', () => {
    // Defaults mean the current directory as the project: run in a child process whose
    // working directory is the sample project and whose environment names no other.
    const script = `
      const native = require(${JSON.stringify(require.resolve('../native.js'))})
      const raw = new native.Engine(${JSON.stringify(tempDir())}, null)
      const out = {}
      for (const text of ['', 'null', '  null  ', '{}']) {
        out[text] = JSON.parse(raw.call('files.suggest', text)).paths.sort()
      }
      out.root = JSON.parse(raw.call('files.refresh', '')).root
      process.stdout.write(JSON.stringify(out))
    `
    const env = { ...process.env }
    delete env.CLAUDE_PROJECT_DIR
    const child = spawnSync(process.execPath, ['-e', script], { cwd: project, env, encoding: 'utf8' })
    assert.equal(child.status, 0, child.stderr)
    assert.deepEqual(JSON.parse(child.stdout), {
      '': ALL,
      null: ALL,
      '  null  ': ALL,
      '{}': ALL,
      root: project,
    })
  })

  test('arguments of the wrong type to the native surface throw, never crash', () => {
    const raw = new native.Engine(tempDir(), null)
    for (const call of [() => raw.call(42, ''), () => raw.call('files.suggest'), () => raw.callAsync('x', {})]) {
      assert.throws(call, (err) => err instanceof Error && typeof err.code === 'string')
    }
    assert.throws(() => new native.Engine(5), (err) => err instanceof Error)
  })

  test('a query with a lone surrogate is invalid_request, not a crash', async () => {
    await rejectsWith(() => engine.filesSuggest('\ud800abc', { projectDir: project }), 'invalid_request')
    await rejectsWith(() => engine.filesSuggestAsync('abc\udfff', { projectDir: project }), 'invalid_request')
  })

  test('the native surface names unknown operations too', async () => {
    const raw = new native.Engine(tempDir(), null)
    assert.throws(() => raw.call('nope', ''), (err) => err.code === 'unknown_operation' && /nope/.test(err.message))
    await assert.rejects(raw.callAsync('nope', ''), (err) => err.code === 'unknown_operation')
  })
})

describe('out-of-range values', () => {
  for (const limit of [0, 16, 100, -1, 1.5]) {
    test(`limit ${limit} is invalid_request`, async () => {
      await rejectsWith(() => engine.filesSuggest('x', { projectDir: project, limit }), 'invalid_request')
      await rejectsWith(() => engine.filesSuggestAsync('x', { projectDir: project, limit }), 'invalid_request')
    })
  }

  test('limits 1 and 15 are accepted', () => {
    assert.equal(engine.filesSuggest('', { projectDir: project, limit: 1 }).paths.length, 1)
    assert.equal(engine.filesSuggest('', { projectDir: project, limit: 15 }).paths.length, 3)
  })
})

describe('missing and wrong directories', () => {
  const missing = path.join(project, 'no', 'such', 'dir')

  test('a missing project directory is io, naming it', async () => {
    const err = await rejectsWith(() => engine.filesSuggest('x', { projectDir: missing }), 'io')
    assert.ok(err.message.includes(missing), err.message)
    await rejectsWith(() => engine.filesSuggestAsync('x', { projectDir: missing }), 'io')
  })

  test('a missing root is io', async () => {
    await rejectsWith(() => engine.filesRefresh({ root: missing }), 'io')
    await rejectsWith(() => engine.filesRefreshAsync({ root: missing }), 'io')
    await bothFail(engine, 'files.refresh', { root: missing }, 'io')
  })

  test('a root that is a file is io', async () => {
    await rejectsWith(() => engine.filesRefresh({ root: path.join(project, README) }), 'io', /not a directory/)
  })

  test('an empty directory name is invalid_request', async () => {
    await rejectsWith(() => engine.call('files.suggest', { query: 'x', project_dir: '' }), 'invalid_request')
  })

  test('a data root that cannot be created fails the call, not the process', async () => {
    const file = path.join(tempDir(), 'plain-file')
    fs.writeFileSync(file, 'x')
    const broken = new Engine({ home: file })
    const err = await rejectsWith(() => broken.filesRefreshAsync({ root: project }), 'io')
    assert.ok(err.message.includes(file), err.message)
    await rejectsWith(() => broken.filesSuggest('x', { projectDir: project }), 'io')
  })

  test('the engine still works after every error above', () => {
    assert.deepEqual(engine.filesSuggest('readme', { projectDir: project }), { paths: [README], warnings: [] })
  })
})
