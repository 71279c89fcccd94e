#!/usr/bin/env node
'use strict'

// Run the test files (test/*.test.js, written against `node:test`) under Node's test
// runner, under Bun's (which runs `node:test` files natively), or both, and check that
// each run really ran them:
//
//   node test/run.js            both runtimes; the two must run the same tests
//   node test/run.js node       Node only
//   node test/run.js bun        Bun only
//
// A run fails when the runtime exits non-zero, when it ran no test at all, when a test
// file contributed no test (Bun exits 0 on a file that collects nothing), or when a test
// failed. With both runtimes the sets of test names must match, so a test Bun silently
// skipped is caught. Each run ends with a plain `<runtime>: N passed, N failed` line.
// Bun is the npm package's binary (node_modules/.bin/bun), or $BUN when set.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const PACKAGE_DIR = path.resolve(__dirname, '..')
const TEST_DIR = __dirname
const TIMEOUT_MS = 120_000

function testFiles() {
  const files = fs
    .readdirSync(TEST_DIR)
    .filter((name) => name.endsWith('.test.js'))
    .sort()
    .map((name) => path.join('test', name))
  if (files.length === 0) fail(`no *.test.js files in ${TEST_DIR}`)
  return files
}

function fail(message) {
  console.error(`test/run.js: ${message}`)
  process.exit(1)
}

function nodeBinary() {
  return process.versions.bun ? 'node' : process.execPath
}

// The `bun` package's postinstall moves the binary of `@oven/bun-<platform>` into
// node_modules/bun/bin; where install scripts did not run, the binary is still there.
function bunBinary() {
  if (process.env.BUN) return process.env.BUN
  const candidates = [
    path.join(PACKAGE_DIR, 'node_modules', '.bin', 'bun'),
    path.join(PACKAGE_DIR, 'node_modules', '@oven', `bun-${process.platform}-${process.arch}`, 'bin', 'bun'),
  ]
  for (const candidate of candidates) {
    if (!fs.existsSync(candidate)) continue
    const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8' })
    if (probe.status === 0) return candidate
  }
  fail(`no runnable bun in ${PACKAGE_DIR}/node_modules: run \`npm install\` there (bun is a devDependency)`)
}

// --- a small reader for the JUnit XML both runners write --------------------------

function decode(text) {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|quot|amp|lt|gt|apos);/g, (_, entity) => {
    switch (entity) {
      case 'quot':
        return '"'
      case 'amp':
        return '&'
      case 'lt':
        return '<'
      case 'gt':
        return '>'
      case 'apos':
        return "'"
      default:
        return String.fromCodePoint(
          entity[1] === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10),
        )
    }
  })
}

function attribute(tag, name, escapes = 1) {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)
  if (!match) return undefined
  let value = match[1]
  for (let i = 0; i < escapes; i++) value = decode(value)
  return value
}

// Every test case as {file, name: "suite > … > test", failed, skipped}. Bun wraps each
// file in a suite named after it; Node does not name files, so `file` is then undefined.
// Node's reporter escapes names twice (`&amp;quot;`), hence `escapes`.
function readJunit(xmlFile, escapes) {
  const xml = fs.readFileSync(xmlFile, 'utf8')
  const cases = []
  const suites = []
  let current = null
  const tags = /<(\/?)(testsuite|testcase|failure|error|skipped)\b([^>]*?)(\/?)>/g
  for (let m; (m = tags.exec(xml)); ) {
    const [, closing, kind, , selfClosing] = m
    if (kind === 'testsuite') {
      if (closing) suites.pop()
      else if (!selfClosing) {
        suites.push({ name: attribute(m[0], 'name', escapes), file: attribute(m[0], 'file') })
      }
    } else if (kind === 'testcase') {
      if (closing) {
        current = null
        continue
      }
      const named = suites.filter((s) => !(s.file && s.name === s.file)).map((s) => s.name)
      const testCase = {
        file: attribute(m[0], 'file') || (suites[0] && suites[0].file),
        name: [...named, attribute(m[0], 'name', escapes)].join(' > '),
        failed: false,
        skipped: false,
      }
      cases.push(testCase)
      current = selfClosing ? null : testCase
    } else if (current && !closing) {
      if (kind === 'skipped') current.skipped = true
      else current.failed = true
    }
  }
  return cases
}

// --- running ------------------------------------------------------------------------

function run(runtime, files) {
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-search-junit-')), 'report.xml')
  let command, args
  if (runtime === 'node') {
    command = nodeBinary()
    args = [
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=junit',
      `--test-reporter-destination=${report}`,
      ...files,
    ]
  } else {
    command = bunBinary()
    args = [
      'test',
      `--timeout=${TIMEOUT_MS}`,
      '--reporter=junit',
      `--reporter-outfile=${report}`,
      ...files.map((f) => `./${f}`),
    ]
  }
  const shown = command.startsWith(PACKAGE_DIR) ? path.relative(PACKAGE_DIR, command) : command
  console.log(`\n$ ${[shown, ...args].join(' ')}`)
  const child = spawnSync(command, args, { cwd: PACKAGE_DIR, stdio: 'inherit' })
  if (child.error) fail(`${runtime}: cannot run ${command}: ${child.error.message}`)

  const problems = []
  if (child.status !== 0) problems.push(`exited with ${child.status ?? child.signal}`)
  let cases = []
  if (!fs.existsSync(report)) {
    problems.push('wrote no test report')
  } else {
    cases = readJunit(report, runtime === 'node' ? 2 : 1)
  }
  fs.rmSync(path.dirname(report), { recursive: true, force: true })

  const failed = cases.filter((c) => c.failed)
  const skipped = cases.filter((c) => c.skipped)
  const passed = cases.length - failed.length - skipped.length
  if (cases.length === 0) problems.push('ran no test')
  if (failed.length > 0) problems.push(`${failed.length} failed: ${failed.map((c) => c.name).join('; ')}`)
  if (runtime === 'bun') {
    for (const file of files) {
      const count = cases.filter((c) => c.file === file).length
      if (count === 0) problems.push(`${file} ran no test`)
    }
  }
  console.log(`\n${runtime}: ${passed} passed, ${failed.length} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`)
  return { runtime, cases, problems }
}

function compare(a, b) {
  const names = (r) => r.cases.map((c) => c.name).sort()
  const [left, right] = [names(a), names(b)]
  const missing = (from, other) => {
    const pool = [...other]
    return from.filter((name) => {
      const i = pool.indexOf(name)
      if (i < 0) return true
      pool.splice(i, 1)
      return false
    })
  }
  const onlyA = missing(left, right)
  const onlyB = missing(right, left)
  const problems = []
  if (onlyA.length) problems.push(`only under ${a.runtime}: ${onlyA.join('; ')}`)
  if (onlyB.length) problems.push(`only under ${b.runtime}: ${onlyB.join('; ')}`)
  return problems
}

function main() {
  const which = process.argv[2] || 'both'
  if (!['node', 'bun', 'both'].includes(which)) fail(`unknown runtime ${which}; use node, bun or both`)
  const files = testFiles()
  const runtimes = which === 'both' ? ['node', 'bun'] : [which]
  const results = runtimes.map((runtime) => run(runtime, files))

  const problems = results.flatMap((r) => r.problems.map((p) => `${r.runtime}: ${p}`))
  if (results.length === 2) {
    problems.push(...compare(results[0], results[1]))
    if (problems.length === 0) {
      console.log(`node and bun ran the same ${results[0].cases.length} tests from ${files.length} files`)
    }
  }
  if (problems.length > 0) {
    for (const p of problems) console.error(`FAILED ${p}`)
    process.exit(1)
  }
}

main()
