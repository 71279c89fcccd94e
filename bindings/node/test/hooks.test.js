'use strict'

// The hooks Claude Code runs, under both programs the package ships for them: the native
// hooks/cc-search-hook (file-suggestion, session-start) and the Bun scripts
// (hooks/file-suggestion.sh, hooks/session-start.sh). Real processes with real stdin on
// real temporary projects and data roots: exact stdout, exit status 0 whatever happens,
// one line on stderr per problem, the background refresh of the session-start hook, and
// the runtime each script picks.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')

const { Engine } = require('cc-search')
const { tempDir, makeProject, writeFile, removeAll } = require('./helpers.js')

after(removeAll)

const PACKAGE_DIR = path.resolve(__dirname, '..')
const HOOKS_DIR = path.join(PACKAGE_DIR, 'hooks')
const SUGGEST = path.join(HOOKS_DIR, 'file-suggestion.sh')
const SESSION_START = path.join(HOOKS_DIR, 'session-start.sh')
const NATIVE = path.join(HOOKS_DIR, 'cc-search-hook')

/** Each program that answers the hooks, as the command lines Claude Code would run. */
const RUNTIMES = [
  { name: 'Bun scripts', suggest: [SUGGEST], sessionStart: [SESSION_START] },
  { name: 'native cc-search-hook', suggest: [NATIVE, 'file-suggestion'], sessionStart: [NATIVE, 'session-start'] },
]
const TIMEOUT_MS = 30_000

const BUTTON = 'src/components/Button.tsx'
const MODAL = 'src/components/Modal.tsx'
const README = 'README.md'
/** The empty query's answer on `project()`: most recently modified first. */
const TOP = `${BUTTON}\n${MODAL}\n${README}\n`

// --- fixtures ------------------------------------------------------------------------

/** The Bun the package installs (as test/run.js finds it), or $BUN. */
function packageBun() {
  if (process.env.BUN) return process.env.BUN
  const candidates = [
    path.join(PACKAGE_DIR, 'node_modules', '.bin', 'bun'),
    path.join(PACKAGE_DIR, 'node_modules', '@oven', `bun-${process.platform}-${process.arch}`, 'bin', 'bun'),
  ]
  const found = candidates.find((c) => fs.existsSync(c))
  if (!found) throw new Error(`no bun in ${PACKAGE_DIR}/node_modules: run npm install`)
  return found
}

/** A real Node (not Bun's `node` alias), whichever runtime runs the tests. */
function realNode() {
  if (!process.versions.bun) return process.execPath
  const probe = spawnSync('node', ['-p', 'process.versions.bun ? "" : process.execPath'], {
    encoding: 'utf8',
  })
  const found = probe.status === 0 ? probe.stdout.trim() : ''
  if (!found) throw new Error('no Node on PATH')
  return found
}

const BUN = packageBun()

/**
 * The project used throughout: two components and a README with fixed, distinct
 * modification times (README oldest, Button newest), so every order is exact.
 */
function project(extra = {}) {
  const root = makeProject({
    [BUTTON]: 'export const Button = () => null\n',
    [MODAL]: 'export const Modal = () => null\n',
    [README]: '# Sample\n',
    ...extra,
  })
  const base = 1_700_000_000
  for (const [rel, offset] of [
    [README, 100],
    [MODAL, 200],
    [BUTTON, 300],
  ]) {
    fs.utimesSync(path.join(root, rel), base + offset, base + offset)
  }
  return root
}

/** A data root in which `root` is already indexed. */
function indexedHome(root) {
  const home = tempDir('cc-search-home-')
  new Engine({ home }).filesRefresh({ root })
  return home
}

/** The environment of a hook: ours without cc-search's and Claude Code's variables. */
function hookEnv(vars) {
  const env = { ...process.env }
  for (const name of ['CC_SEARCH_HOME', 'CLAUDE_PROJECT_DIR', 'BUN']) delete env[name]
  env.BUN = BUN
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  return env
}

/**
 * Run a hook (a script, or a command line as an array) to completion. `input`: text on
 * stdin (a pipe closed after it); `stdin: 'closed'` runs it with descriptor 0 closed.
 */
function runHook(command, { input, stdin, env = {}, cwd } = {}) {
  const [file, ...args] = [].concat(command)
  const options = { env: hookEnv(env), cwd, encoding: 'utf8', timeout: TIMEOUT_MS }
  const child =
    stdin === 'closed'
      ? spawnSync('/bin/sh', ['-c', 'exec "$0" "$@" <&-', file, ...args], options)
      : spawnSync(file, args, { ...options, input: input ?? '' })
  if (child.error) throw child.error
  return {
    status: child.status,
    signal: child.signal,
    stdout: child.stdout,
    stderr: child.stderr,
    pid: child.pid,
  }
}

/**
 * Run a hook script whose stdin stays open: `chunks` are written with a pause between
 * them, and the pipe is closed only after the process has exited.
 */
function runHookOpen(command, chunks, { env = {} } = {}) {
  const [file, ...args] = [].concat(command)
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: hookEnv(env), stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${path.basename(file)} still running after ${TIMEOUT_MS} ms`))
    }, TIMEOUT_MS)
    child.on('error', reject)
    child.on('close', (status) => {
      clearTimeout(timer)
      child.stdin.destroy()
      resolve({ status, stdout, stderr })
    })
    child.stdin.on('error', () => {})
    let i = 0
    const next = () => {
      if (i < chunks.length) {
        child.stdin.write(chunks[i++])
        setTimeout(next, 50)
      }
    }
    next()
  })
}

/** An executable shell script `name` in `dir` that records its use in `marker`, then runs `target`. */
function wrapper(dir, name, target, marker) {
  const file = path.join(dir, name)
  fs.writeFileSync(file, `#!/bin/sh\necho "$0" >> '${marker}'\nexec '${target}' "$@"\n`, { mode: 0o755 })
  return file
}

/** Poll `check` until it returns a truthy value, or fail after TIMEOUT_MS. */
async function waitFor(what, check) {
  const deadline = Date.now() + TIMEOUT_MS
  for (;;) {
    const value = check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

function readLog(home) {
  try {
    return fs.readFileSync(path.join(home, 'logs', 'session-start.log'), 'utf8')
  } catch {
    return ''
  }
}

const LOG_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) \[(\d+)\] (.*)$/

/** The log's lines as {at (ms), pid, text}; every line must have the log's format. */
function logLines(home) {
  return readLog(home)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const m = LOG_LINE.exec(line)
      assert.ok(m, `log line in an unexpected format: ${JSON.stringify(line)}`)
      return { at: Date.parse(m[1]), pid: Number(m[2]), text: m[3] }
    })
}

/** Wait until the log holds `count` lines that end a refresh (done or failed). */
function waitForRefreshes(home, count) {
  return waitFor(`${count} finished refresh(es) in the session-start log`, () => {
    const ended = logLines(home).filter((l) => /^refresh .*: (done|failed)/.test(l.text))
    return ended.length >= count ? ended : null
  })
}

// --- file-suggestion.sh --------------------------------------------------------------

for (const rt of RUNTIMES) describe(`file suggestion (${rt.name})`, () => {
  test('{"query":"butt"} prints the one matching path', () => {
    const root = project()
    const r = runHook(rt.suggest, {
      input: '{"query":"butt"}',
      env: { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root },
    })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${BUTTON}\n`, ''])
  })

  test('answers each picker query exactly, one path a line', () => {
    const root = project()
    const env = { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root }
    const cases = [
      ['{"query":"readme"}', `${README}\n`],
      ['{"query":"Modal"}', `${MODAL}\n`],
      ['{"query": "src/components/Butt"}\n', `${BUTTON}\n`],
      ['{"query":"nothing-matches-this"}', ''],
      // Two letters swapped, one wrong: still the file meant.
      ['{"query":"raedme"}', `${README}\n`],
      ['{"query":"Modla"}', `${MODAL}\n`],
      ['{"query":"Mudal"}', `${MODAL}\n`],
    ]
    for (const [input, expected] of cases) {
      const r = runHook(rt.suggest, { input, env })
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, expected, ''], input)
    }
    // Both components match `src/comp` equally well; the core's tie-break orders them.
    const r = runHook(rt.suggest, { input: '{"query":"src/comp"}', env })
    assert.equal(r.status, 0)
    assert.deepEqual(r.stdout.split('\n').sort(), ['', BUTTON, MODAL])
  })

  test('empty stdin gives the top-ranked files', () => {
    const root = project()
    const r = runHook(rt.suggest, { input: '', env: { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root } })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, TOP, ''])
  })

  test('no stdin at all (descriptor closed) gives the top-ranked files', () => {
    const root = project()
    const r = runHook(rt.suggest, {
      stdin: 'closed',
      env: { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root },
    })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, TOP, ''])
  })

  const script = ['/usr/bin/script', '/bin/script'].find((p) => fs.existsSync(p))
  test(
    'a terminal on stdin is not waited on: the top-ranked files',
    { skip: script ? false : 'needs util-linux script(1) for a terminal' },
    async () => {
      const root = project()
      const env = { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root }
      // script(1) gives the hook a terminal as stdin; script's own stdin stays open, so
      // the terminal never reaches end of input: a hook reading it would hang.
      const r = await new Promise((resolve, reject) => {
        const line = rt.suggest.map((word) => `'${word}'`).join(' ')
        const child = spawn(script, ['-qec', line, '/dev/null'], {
          env: hookEnv(env),
          stdio: ['pipe', 'pipe', 'pipe'],
        })
        let stdout = ''
        child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
        const timer = setTimeout(() => {
          child.kill('SIGKILL')
          reject(new Error(`${rt.name} waited on the terminal`))
        }, 10_000)
        child.on('error', reject)
        child.on('close', (status) => {
          clearTimeout(timer)
          child.stdin.destroy()
          resolve({ status, stdout })
        })
      })
      assert.equal(r.status, 0)
      assert.equal(r.stdout.replace(/\r\n/g, '\n'), TOP)
    },
  )

  test('no input (blanks only) is the empty query', () => {
    const root = project()
    const env = { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root }
    for (const input of ['', '\n \n', '{"query":""}']) {
      const r = runHook(rt.suggest, { input, env })
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, TOP, ''], JSON.stringify(input))
    }
  })

  test('input that is not the hook\'s JSON prints nothing, and one line on stderr', () => {
    const root = project()
    const env = { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root }
    const prefix = 'cc-search: error: hook file-suggestion: the input is not {"query": "..."} but '
    const cases = [
      ['garbage\n', '8 bytes that are not JSON'],
      ['not json', '8 bytes that are not JSON'],
      ['{"query":', '9 bytes that are not JSON'],
      ['{}', 'an object without `query`'],
      ['{"query":null}', 'an object whose `query` is not a string'],
      ['{"query":42}', 'an object whose `query` is not a string'],
      ['["butt"]', 'JSON that is not an object'],
      ['null', 'JSON that is not an object'],
      ['"butt"', 'JSON that is not an object'],
    ]
    for (const [input, why] of cases) {
      const r = runHook(rt.suggest, { input, env })
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', `${prefix}${why}\n`], JSON.stringify(input))
    }
  })

  test('answers as soon as a complete query arrives, in pieces, on a stdin left open', async () => {
    const root = project()
    const env = { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root }
    const r = await runHookOpen(rt.suggest, ['{"que', 'ry":"bu', 'tt"}'], { env })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${BUTTON}\n`, ''])
  })

  test('query text that is FTS5 syntax never breaks the picker', () => {
    const root = project()
    const env = { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root }
    for (const query of ['"', '-', '*', 'AND (', 'NEAR(a b)', '^butt', 'butt"']) {
      const r = runHook(rt.suggest, { input: JSON.stringify({ query }), env })
      assert.equal(r.status, 0, query)
      assert.equal(r.stderr, '', query)
      assert.match(r.stdout, /^([^\n]+\n)*$/, query)
    }
    const r = runHook(rt.suggest, { input: JSON.stringify({ query: 'butt"' }), env })
    assert.equal(r.stdout, `${BUTTON}\n`)
  })

  test('prints at most 15 paths, each a file of the project', () => {
    const extra = {}
    for (let i = 0; i < 20; i++) extra[`lib/widget${String(i).padStart(2, '0')}.ts`] = ''
    const root = project(extra)
    const r = runHook(rt.suggest, {
      input: '{"query":"widget"}',
      env: { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root },
    })
    assert.equal(r.status, 0)
    const lines = r.stdout.split('\n')
    assert.equal(lines.pop(), '')
    assert.equal(lines.length, 15)
    assert.equal(new Set(lines).size, 15)
    for (const line of lines) {
      assert.match(line, /^lib\/widget\d\d\.ts$/)
      assert.ok(fs.existsSync(path.join(root, line)), line)
    }
  })

  test('paths with spaces and non-ASCII names come out intact', () => {
    const root = project({ 'docs/Meeting notés ü.md': '' })
    const r = runHook(rt.suggest, {
      input: JSON.stringify({ query: 'meeting not' }),
      env: { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root },
    })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, 'docs/Meeting notés ü.md\n', ''])
  })

  test('without CLAUDE_PROJECT_DIR the project is the current directory', () => {
    const root = project()
    const r = runHook(rt.suggest, {
      input: '{"query":"readme"}',
      cwd: root,
      env: { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: undefined },
    })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${README}\n`, ''])
  })

  test('a project never indexed is indexed on the first query, with one line on stderr', () => {
    const root = project()
    const home = tempDir('cc-search-home-')
    const env = { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root }
    const first = runHook(rt.suggest, { input: '{"query":"butt"}', env })
    assert.deepEqual(
      [first.status, first.stdout, first.stderr],
      [0, `${BUTTON}\n`, `cc-search: warning: ${root} was not indexed yet; indexed 3 files\n`],
    )
    assert.ok(fs.existsSync(path.join(home, 'files.db')))
    const second = runHook(rt.suggest, { input: '{"query":"butt"}', env })
    assert.deepEqual([second.status, second.stdout, second.stderr], [0, `${BUTTON}\n`, ''])
  })

  test('a data root that is a regular file: exit 0, nothing on stdout, one line on stderr', () => {
    const root = project()
    const home = path.join(tempDir(), 'not-a-directory')
    fs.writeFileSync(home, 'a file where the data root should be\n')
    for (const input of ['{"query":"butt"}', '']) {
      const r = runHook(rt.suggest, { input, env: { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root } })
      assert.equal(r.status, 0)
      assert.equal(r.stdout, '')
      assert.match(r.stderr, /^cc-search: error: hook file-suggestion: [^\n]*not-a-directory[^\n]*\n$/)
    }
    assert.equal(fs.readFileSync(home, 'utf8'), 'a file where the data root should be\n')
  })

  test('a project directory that does not exist: exit 0, nothing on stdout, one line on stderr', () => {
    const home = tempDir('cc-search-home-')
    const missing = path.join(tempDir(), 'gone')
    const r = runHook(rt.suggest, { input: '{"query":"butt"}', env: { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: missing } })
    assert.equal(r.status, 0)
    assert.equal(r.stdout, '')
    assert.match(r.stderr, /^cc-search: error: hook file-suggestion: [^\n]*gone[^\n]*\n$/)
  })

  test('an invalid config.toml still answers, its warning on one stderr line', () => {
    const root = project()
    const home = indexedHome(root)
    fs.writeFileSync(path.join(home, 'config.toml'), '[weights\nnot toml at all = = =\n')
    const r = runHook(rt.suggest, { input: '{"query":"butt"}', env: { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root } })
    assert.equal(r.status, 0)
    assert.equal(r.stdout, `${BUTTON}\n`)
    const lines = r.stderr.split('\n')
    assert.equal(lines.pop(), '')
    assert.equal(lines.length, 1, r.stderr)
    assert.match(lines[0], /^cc-search: warning: .*config\.toml/)
  })

  test('works when reached through a symbolic link', () => {
    const root = project()
    const link = path.join(tempDir(), path.basename(rt.suggest[0]))
    fs.symlinkSync(rt.suggest[0], link)
    const r = runHook([link, ...rt.suggest.slice(1)], {
      input: '{"query":"modal"}',
      env: { CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root },
    })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${MODAL}\n`, ''])
  })
})

// --- the runtime the scripts pick ------------------------------------------------------

describe('hook runtime', () => {
  test('$BUN comes before bun on PATH', () => {
    const root = project()
    const bin = tempDir()
    const marker = path.join(tempDir(), 'used')
    const fromEnv = wrapper(tempDir(), 'bun', BUN, marker)
    wrapper(bin, 'bun', BUN, marker)
    const r = runHook(SUGGEST, {
      input: '{"query":"butt"}',
      env: { BUN: fromEnv, PATH: `${bin}:${process.env.PATH}`, CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root },
    })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${BUTTON}\n`, ''])
    assert.equal(fs.readFileSync(marker, 'utf8'), `${fromEnv}\n`)
  })

  test('without $BUN, bun on PATH', () => {
    const root = project()
    const bin = tempDir()
    const marker = path.join(tempDir(), 'used')
    const onPath = wrapper(bin, 'bun', BUN, marker)
    const r = runHook(SUGGEST, {
      input: '{"query":"butt"}',
      env: { BUN: undefined, PATH: `${bin}:${process.env.PATH}`, CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root },
    })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${BUTTON}\n`, ''])
    assert.equal(fs.readFileSync(marker, 'utf8'), `${onPath}\n`)
  })

  test("without bun on PATH, the package's own Bun before Node", () => {
    const root = project()
    const bin = tempDir()
    const marker = path.join(tempDir(), 'used')
    wrapper(bin, 'node', realNode(), marker)
    const r = runHook(SUGGEST, {
      input: '{"query":"butt"}',
      env: { BUN: undefined, PATH: bin, CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root },
    })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${BUTTON}\n`, ''])
    assert.equal(fs.existsSync(marker), false, 'node was used although the package has bun')
  })

  // A copy of the package without node_modules: index.js and native.js are links to
  // the real ones, the hooks are copies (they find their runtime next to themselves).
  // Its directory name has spaces, which the scripts must quote.
  function packageWithoutBun() {
    const dir = tempDir('cc-search package ')
    for (const name of fs.readdirSync(PACKAGE_DIR)) {
      if (name === 'index.js' || name === 'native.js' || name.endsWith('.node')) {
        fs.symlinkSync(path.join(PACKAGE_DIR, name), path.join(dir, name))
      }
    }
    fs.cpSync(HOOKS_DIR, path.join(dir, 'hooks'), { recursive: true })
    return dir
  }

  test('with no Bun anywhere, Node', () => {
    const root = project()
    const pkg = packageWithoutBun()
    const bin = tempDir()
    const marker = path.join(tempDir(), 'used')
    const node = wrapper(bin, 'node', realNode(), marker)
    for (const [script, input, expected] of [
      ['file-suggestion.sh', '{"query":"butt"}', `${BUTTON}\n`],
      ['file-suggestion.sh', '', TOP],
    ]) {
      const r = runHook(path.join(pkg, 'hooks', script), {
        input,
        env: { BUN: undefined, PATH: bin, CC_SEARCH_HOME: indexedHome(root), CLAUDE_PROJECT_DIR: root },
      })
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, expected, ''], input)
    }
    assert.equal(fs.readFileSync(marker, 'utf8'), `${node}\n${node}\n`)
  })

  test('with neither Bun nor Node: exit 0, nothing on stdout, one line on stderr', () => {
    const root = project()
    const pkg = packageWithoutBun()
    const home = tempDir('cc-search-home-')
    for (const script of ['file-suggestion.sh', 'session-start.sh']) {
      const r = runHook(path.join(pkg, 'hooks', script), {
        input: '{"query":"butt"}',
        env: { BUN: undefined, PATH: tempDir(), CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root },
      })
      assert.deepEqual(
        [r.status, r.stdout, r.stderr],
        [0, '', 'cc-search: neither bun nor node found (set BUN to the path of bun)\n'],
        script,
      )
    }
  })
})

// --- session-start.sh ----------------------------------------------------------------

for (const rt of RUNTIMES) describe(`session start (${rt.name})`, () => {
  const HOOK_INPUT = JSON.stringify({
    session_id: 'abc123',
    transcript_path: '/tmp/transcript.jsonl',
    hook_event_name: 'SessionStart',
    source: 'startup',
  })

  test('returns while the background refresh is held up; the index exists afterwards', async () => {
    const root = project()
    const home = tempDir('cc-search-home-')
    // The log is a named pipe the test fills to the brim, so the worker blocks on its
    // first log line until the test reads: a hook that waited for it would never return.
    const log = path.join(home, 'logs', 'session-start.log')
    fs.mkdirSync(path.dirname(log))
    assert.equal(spawnSync('mkfifo', [log]).status, 0, 'mkfifo')
    const reader = fs.openSync(log, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
    const filler = fs.openSync(log, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)
    let text = ''
    try {
      const page = Buffer.alloc(4096, '.')
      let filled = 0
      for (;;) {
        try {
          filled += fs.writeSync(filler, page)
        } catch (err) {
          if (err.code === 'EAGAIN') break
          throw err
        }
      }

      const r = runHook(rt.sessionStart, { input: HOOK_INPUT, env: { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root } })
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', ''])
      assert.equal(fs.existsSync(path.join(home, 'files.db')), false, 'the refresh ran before the hook returned')

      const buffer = Buffer.alloc(64 * 1024)
      await waitFor('the refresh to finish', () => {
        for (;;) {
          let n
          try {
            n = fs.readSync(reader, buffer, 0, buffer.length, null)
          } catch (err) {
            if (err.code === 'EAGAIN') break
            throw err
          }
          if (n === 0) break
          text += buffer.toString('latin1', 0, n)
        }
        return /: (done|failed)/.test(text)
      })
      assert.equal(text.slice(0, filled), '.'.repeat(filled))
      text = Buffer.from(text.slice(filled), 'latin1').toString('utf8')
      const lines = text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => LOG_LINE.exec(line))
      assert.ok(lines.every(Boolean), text)
      assert.deepEqual(
        lines.map((m) => m[3].replace(/ in \d+ ms$/, ' in N ms')),
        [
          `refresh ${root}: started`,
          `indexed ${root}: 3 files (3 added, 0 updated, 0 removed)`,
          `refresh ${root}: done, 3 files in 1 root in N ms`,
        ],
      )
      // One worker wrote them all, and it was not the hook's own process.
      assert.equal(new Set(lines.map((m) => m[2])).size, 1)
      assert.ok(Number.isInteger(r.pid) && r.pid > 0)
      assert.notEqual(Number(lines[0][2]), r.pid)
    } finally {
      fs.closeSync(filler)
      fs.closeSync(reader)
    }

    // The project is indexed: the first query finds it covered (no on-the-fly warning).
    assert.deepEqual(new Engine({ home }).filesSuggest('butt', { projectDir: root }), {
      paths: [BUTTON],
      warnings: [],
    })
  })

  test('empty stdin and closed stdin start the refresh too; the second run is incremental', async () => {
    const root = project()
    const home = tempDir('cc-search-home-')
    const env = { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root }
    const first = runHook(rt.sessionStart, { input: '', env })
    assert.deepEqual([first.status, first.stdout, first.stderr], [0, '', ''])
    await waitForRefreshes(home, 1)

    writeFile(root, 'src/components/Tooltip.tsx', 'export {}\n')
    const second = runHook(rt.sessionStart, { stdin: 'closed', env })
    assert.deepEqual([second.status, second.stdout, second.stderr], [0, '', ''])
    await waitForRefreshes(home, 2)
    const indexed = logLines(home).filter((l) => l.text.startsWith('indexed '))
    assert.deepEqual(
      indexed.map((l) => l.text),
      [`indexed ${root}: 3 files (3 added, 0 updated, 0 removed)`, `indexed ${root}: 4 files (1 added, 0 updated, 0 removed)`],
    )
    const r = runHook(rt.suggest, { input: '{"query":"tool"}', env })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, 'src/components/Tooltip.tsx\n', ''])
  })

  test('without CLAUDE_PROJECT_DIR the project is the current directory', async () => {
    const root = project()
    const home = tempDir('cc-search-home-')
    const r = runHook(rt.sessionStart, {
      input: HOOK_INPUT,
      cwd: root,
      env: { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: undefined },
    })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', ''])
    const [done] = await waitForRefreshes(home, 1)
    assert.match(done.text, new RegExp(`^refresh ${root}: done, 3 files in 1 root in`))
  })

  test("refreshes the session's roots: the project and its additional directories", async () => {
    const shared = makeProject({ 'lib/shared-util.ts': '' })
    const root = project({
      '.claude/settings.json': JSON.stringify({ permissions: { additionalDirectories: [shared] } }),
    })
    const home = tempDir('cc-search-home-')
    const r = runHook(rt.sessionStart, { input: HOOK_INPUT, env: { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root } })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', ''])
    await waitForRefreshes(home, 1)
    const indexed = logLines(home)
      .filter((l) => l.text.startsWith('indexed '))
      .map((l) => l.text)
    assert.deepEqual(indexed, [
      `indexed ${root}: 4 files (4 added, 0 updated, 0 removed)`,
      `indexed ${shared}: 1 file (1 added, 0 updated, 0 removed)`,
    ])
  })

  test('a data root that is a regular file: exit 0, nothing on stdout, one line on stderr', () => {
    const root = project()
    const home = path.join(tempDir(), 'not-a-directory')
    fs.writeFileSync(home, 'a file where the data root should be\n')
    const r = runHook(rt.sessionStart, { input: HOOK_INPUT, env: { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root } })
    assert.equal(r.status, 0)
    assert.equal(r.stdout, '')
    assert.match(
      r.stderr,
      /^cc-search: error: hook session-start: [^\n]*not-a-directory[^\n]*\n$/,
    )
    assert.equal(fs.readFileSync(home, 'utf8'), 'a file where the data root should be\n')
  })

  test('a project directory that does not exist: the hook succeeds, the log says why the refresh failed', async () => {
    const home = tempDir('cc-search-home-')
    const missing = path.join(tempDir(), 'gone')
    const r = runHook(rt.sessionStart, { input: HOOK_INPUT, env: { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: missing } })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', ''])
    const [failed] = await waitForRefreshes(home, 1)
    assert.match(failed.text, new RegExp(`^refresh ${missing}: failed: .*gone`))
  })

  test('a log over 1 MiB is moved aside before the next run', async () => {
    const root = project()
    const home = tempDir('cc-search-home-')
    const old = `${'x'.repeat(1023)}\n`.repeat(1025)
    writeFile(home, 'logs/session-start.log', old)
    const r = runHook(rt.sessionStart, { input: HOOK_INPUT, env: { CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root } })
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', ''])
    await waitForRefreshes(home, 1)
    assert.equal(fs.readFileSync(path.join(home, 'logs', 'session-start.log.1'), 'utf8'), old)
    assert.equal(logLines(home).length, 3)
  })
})
