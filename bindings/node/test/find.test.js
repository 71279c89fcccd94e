'use strict'

// code.find from JavaScript: engine.codeFind / codeFindAsync and the generic call, on a
// real git repository with the real embedding model, under Node and Bun alike.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const { Engine, CcSearchError } = require('cc-search')
const { tempDir, makeProject, removeAll, modelDir } = require('./helpers.js')

after(removeAll)

const SKIP = Boolean(process.env.CC_SEARCH_TEST_NO_MODEL)

function engineWithModel() {
  const home = tempDir()
  fs.writeFileSync(path.join(home, 'config.toml'), `[embed]\nmodel_dir = ${JSON.stringify(modelDir())}\n`)
  return new Engine({ home })
}

function repo() {
  const root = makeProject({
    'routes/booking.ts':
      '/** Reserve a table for a party at a given time. */\n' +
      'export function reserveTable(party: number, at: Date): Booking {\n' +
      '  if (party > 12) throw new RangeError("party too large for one table")\n' +
      '  return { party, at }\n' +
      '}\n',
    'routes/menu.ts': 'export function listDishes(): string[] {\n  return ["soup", "bread"]\n}\n',
    'lib/clock.ts': '/** Opening hours of the restaurant. */\nexport const OPENING_HOURS = [12, 22]\n',
    'test/booking.test.ts': 'import { reserveTable } from "../routes/booking"\n\ntest("reserve a table for a party", () => reserveTable(2, new Date()))\n',
  })
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null' }
  for (const args of [['init', '-q'], ['add', '-A'], ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'restaurant']]) {
    execFileSync('git', ['-C', root, ...args], { env })
  }
  return root
}

describe('code.find', { skip: SKIP && 'CC_SEARCH_TEST_NO_MODEL' }, () => {
  test('codeFind ranks files and points at definitions', async () => {
    const engine = engineWithModel()
    const root = repo()
    const found = engine.codeFind('Booking a table for a large party throws a RangeError', { path: root })
    assert.equal(found.files[0].path, 'routes/booking.ts', JSON.stringify(found))
    // The definitions to change, best first across the files.
    const best = found.hits[0]
    assert.deepEqual([best.path, best.name, best.kind, best.start_line, best.end_line], ['routes/booking.ts', 'reserveTable', 'fn', 2, 5])
    assert.ok(found.hits.every((h) => found.files.some((f) => f.path === h.path)), JSON.stringify(found.hits))
    assert.ok(found.used.includes('keyword') && found.used.includes('meaning'), JSON.stringify(found.used))
    const paths = found.files.map((f) => f.path)
    assert.ok(paths.indexOf('routes/booking.ts') < paths.indexOf('test/booking.test.ts'))
    // Same answer from the async twin and the generic call.
    assert.deepEqual(await engine.codeFindAsync('Booking a table for a large party throws a RangeError', { path: root }), found)
    assert.deepEqual(engine.call('code.find', { path: root, query: 'Booking a table for a large party throws a RangeError' }), found)
    const one = engine.codeFind('`OPENING_HOURS` are wrong on sundays', { path: root, limit: 1 })
    assert.deepEqual(one.files.map((f) => f.path), ['lib/clock.ts'])
    assert.ok(one.used.includes('structure'))
  })

  test('errors carry codes', async () => {
    const engine = engineWithModel()
    const root = repo()
    assert.throws(() => engine.codeFind('?!', { path: root }), (err) => err instanceof CcSearchError && err.code === 'invalid_request')
    await assert.rejects(engine.codeFindAsync('table', { path: path.join(root, 'missing') }), (err) => err.code === 'io')
  })
})
