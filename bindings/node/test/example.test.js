'use strict'

// The runnable example in examples/node works under the runtime running these tests.

const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const { tempDir, sampleProject, removeAll, isBun } = require('./helpers.js')

after(removeAll)

const EXAMPLE = path.join(__dirname, '..', '..', '..', 'examples', 'node', 'example.mjs')

function runExample(args) {
  const env = { ...process.env, CC_SEARCH_HOME: tempDir() }
  return spawnSync(process.execPath, [EXAMPLE, ...args], { env, encoding: 'utf8', timeout: 60_000 })
}

test('the example indexes a directory and prints suggestions', () => {
  const project = sampleProject()
  const run = runExample([project, 'readme', 'Button', 'no-such-file'])
  assert.equal(run.status, 0, run.stderr)
  const lines = run.stdout.trimEnd().split('\n')
  assert.match(lines[0], isBun ? /^cc-search \d+\.\d+\.\d+ on bun / : /^cc-search \d+\.\d+\.\d+ on node /)
  assert.deepEqual(lines.slice(1), [
    `indexed 3 files under ${project} (3 new)`,
    '@readme',
    '  README.md',
    '@Button',
    '  src/components/Button.tsx',
    '@no-such-file',
    '  (no match)',
  ])
})

test('the example runs on its own sample project', () => {
  const run = runExample([])
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stdout, /indexed 3 files under /)
  assert.match(run.stdout, /@readme\n {2}README\.md\n/)
  assert.match(run.stdout, /@Button\n {2}src\/components\/Button\.tsx\n/)
})

test('the example reports a missing directory as an io error', () => {
  const run = runExample([path.join(tempDir(), 'missing')])
  assert.equal(run.status, 1)
  assert.match(run.stderr, /^cc-search: io: .*missing/m)
})
