#!/usr/bin/env node
'use strict'

// The `fileSuggestion` command as Claude Code runs it — a whole process, JSON on stdin,
// paths on stdout — under every program cc-search ships for it, timed against the
// specification's own query client on the same index, in the same run:
//
//   native: hooks/cc-search-hook file-suggestion (the program `install claude` writes
//           on every install path: the wheel, the npm package, `make install`)
//   bun:    hooks/file-suggestion.sh (sh → Bun → the cc-search addon), the npm fallback
//   python: <repo>/.venv/bin/cc-search hook file-suggestion, the pip fallback (when that
//           virtualenv exists; build it in release for a fair number)
//   spec:   bun bench/spec-suggest.js (Bun + bun:sqlite, the specification's FTS5 query)
//
// and where the native hook's time goes: the start of its process (`--version`, against
// /bin/true as the floor of starting any process from here) and each step of a run
// (`--timings`: reading stdin, opening the engine, opening the index, the query, writing
// the answer).
//
//   node bench/hooks-bench.js            10k- and 100k-file trees
//   node bench/hooks-bench.js --quick    10k only (also: CC_SEARCH_BENCH_QUICK=1)
//   node bench/hooks-bench.js --rounds N each query N times per tool and tree
//   node bench/hooks-bench.js --dir DIR  generate the trees in DIR once and keep them
//                                        (also: CC_SEARCH_BENCH_DIR); the indexes are
//                                        always built afresh
//   node bench/hooks-bench.js --recent   every file and directory modified just now, as
//                                        right after a clone (default: fixed times in
//                                        2024, a project nobody touched for a day)
//   node bench/hooks-bench.js --no-python  leave the Python CLI out
//   node bench/hooks-bench.js --hook NAME=PROGRAM  also time PROGRAM file-suggestion, a
//                                        native hook program as one install path put it
//                                        (repeatable; bindings/hook/bench/install-paths.sh
//                                        passes one per pip and npm path)
//
// Build in release first (`npm run build:release`: the addon and the native hook), and
// `npm run build` after to return to the debug build the tests use. The trees are
// generated deterministically (the corpus of core/benches/bench.rs: the same files on
// every run, with fixed modification times) in a temporary directory (removed at the end
// unless --dir), and indexed with cc-search. Each round runs every query once with each
// tool, the order of the tools rotating; a few unmeasured runs per query warm the page
// cache first. Every tool built on the core must print the same paths. Prints markdown
// tables: p50 and p99 per tree and tool over all runs, and each as a multiple of the
// spec client's (below 1× the tool is faster). A run that exits non-zero stops the
// bench; a run that writes to stderr (a warning, such as a fallback) is counted, and its
// message shown under the table.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const PACKAGE_DIR = path.resolve(__dirname, '..')
const HOOK = path.join(PACKAGE_DIR, 'hooks', 'file-suggestion.sh')
const NATIVE = path.join(PACKAGE_DIR, 'hooks', 'cc-search-hook')
const PYTHON_CLI = path.resolve(PACKAGE_DIR, '..', '..', '.venv', 'bin', 'cc-search')
const SPEC = path.join(__dirname, 'spec-suggest.js')
const ADDON = path.join(PACKAGE_DIR, `cc-search.${process.platform}-${process.arch}-gnu.node`)

const QUERIES = ['button', 'src/comp', 'utils.ts', 'ser', 'hooks/use', 'x', '']
const WARMUP = 3

// --- the corpus (core/benches/bench.rs) --------------------------------------------------

const WORDS = [
  'api', 'auth', 'button', 'client', 'components', 'config', 'core', 'data', 'docs', 'editor',
  'engine', 'events', 'hooks', 'index', 'layout', 'lib', 'modal', 'models', 'net', 'parser',
  'render', 'router', 'server', 'services', 'src', 'store', 'styles', 'tests', 'types', 'ui',
  'user', 'utils', 'view', 'worker',
]
const EXTS = ['ts', 'tsx', 'rs', 'py', 'md', 'json', 'go', 'css']
const MASK = (1n << 64n) - 1n

/** xorshift64, as in bench.rs: `next()` is the state shifted right by 11 (53 bits). */
class Rng {
  constructor(seed) {
    this.state = seed
  }
  next() {
    let x = this.state
    x ^= (x << 13n) & MASK
    x ^= x >> 7n
    x ^= (x << 17n) & MASK
    this.state = x
    return Number(x >> 11n)
  }
  pick(items) {
    return items[this.next() % items.length]
  }
}

/**
 * The tree of `n` empty files under `root`, 1–5 directories deep: {files, dirs} in
 * creation order. With `write`, the files are created too.
 */
function generate(root, n, write) {
  const rng = new Rng(0x9e3779b97f4a7c15n)
  const files = []
  const seen = new Set()
  const dirs = new Set()
  while (files.length < n) {
    const depth = 1 + (rng.next() % 5)
    const parts = [root]
    for (let i = 0; i < depth; i++) {
      parts.push(rng.pick(WORDS))
      dirs.add(path.join(...parts))
    }
    const dir = path.join(...parts)
    if (write) fs.mkdirSync(dir, { recursive: true })
    const count = Math.min(1 + (rng.next() % 12), n - files.length)
    for (let i = 0; i < count; i++) {
      const name = `${rng.pick(WORDS)}${['', '_', '-', ''][rng.next() % 4]}${rng.pick(WORDS)}.${rng.pick(EXTS)}`
      const file = path.join(dir, name)
      if (!seen.has(file)) {
        seen.add(file)
        if (write) fs.writeFileSync(file, '')
        files.push(file)
      }
    }
  }
  return { files, dirs: [...dirs] }
}

const YEAR = 365 * 86400
/** 2024-01-01T00:00:00Z: file i is modified within the year after it, directories after. */
const OLD_BASE = 1_704_067_200

/** Set modification times: fixed ones in 2024 (`old`), or now (`recent`). */
function setTimes({ files, dirs }, mode) {
  const now = Date.now() / 1000
  files.forEach((file, i) => {
    const t = mode === 'old' ? OLD_BASE + ((i * 2_654_435_761) % YEAR) : now
    fs.utimesSync(file, t, t)
  })
  const dirTime = mode === 'old' ? OLD_BASE + YEAR : now
  for (const dir of dirs) fs.utimesSync(dir, dirTime, dirTime)
}

// --- running and timing ------------------------------------------------------------------

function bunBinary() {
  if (process.env.BUN) return process.env.BUN
  const candidates = [
    path.join(PACKAGE_DIR, 'node_modules', '.bin', 'bun'),
    path.join(PACKAGE_DIR, 'node_modules', '@oven', `bun-${process.platform}-${process.arch}`, 'bin', 'bun'),
  ]
  const found = candidates.find((c) => fs.existsSync(c))
  if (!found) fail(`no bun in ${PACKAGE_DIR}/node_modules: run \`npm install\` there`)
  return found
}

/** Stop the bench (the trees are still removed on the way out). */
function fail(message) {
  throw new Error(message)
}

/** Messages runs wrote on stderr, by tool and message, with how often. */
const warnings = new Map()

/**
 * Run one tool once on `query`; returns {ms, stdout}. A failed run stops the bench; what
 * a successful run wrote on stderr is counted in `warnings`.
 */
function runOnce(tool, query, env) {
  const input = JSON.stringify({ query })
  // A tool that reads no stdin gets none (writing to it could meet a closed pipe).
  const stdin = tool.readsStdin ? { input } : { stdio: ['ignore', 'pipe', 'pipe'] }
  const start = process.hrtime.bigint()
  const child = spawnSync(tool.command, tool.args, { ...stdin, env, encoding: 'utf8', timeout: 30_000 })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (child.error) fail(`${tool.name} ${input}: ${child.error.message}`)
  if (child.status !== 0) {
    fail(`${tool.name} ${input}: exit ${child.status ?? child.signal}, stderr: ${child.stderr.trim()}`)
  }
  if (child.stderr !== '') {
    const key = `${tool.name} ${input}: ${child.stderr.trim()}`
    warnings.set(key, (warnings.get(key) || 0) + 1)
  }
  return { ms, stdout: child.stdout, warned: child.stderr !== '' }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b)
  return { runs: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
}

function ms(value) {
  return `${value.toFixed(1)} ms`
}

function ratio(value, of) {
  return `${(value / of).toFixed(2)}×`
}

function benchTree(label, n, tools, rounds, work, times) {
  const root = path.join(work, `tree-${label}`)
  const home = path.join(work, `home-${label}`)
  let t = Date.now()
  // `.complete-<label>` holds the times the kept tree has.
  const complete = path.join(work, `.complete-${label}`)
  const kept = fs.existsSync(complete) ? fs.readFileSync(complete, 'utf8') : null
  if (kept === null) fs.rmSync(root, { recursive: true, force: true })
  const tree = generate(root, n, kept === null)
  if (kept !== times) {
    setTimes(tree, times)
    fs.writeFileSync(complete, times)
  }
  const generated = Date.now() - t
  fs.rmSync(home, { recursive: true, force: true })
  t = Date.now()
  // Indexed by a child process: an engine left open in this one (its threads, its mapped
  // index) made every process it started afterwards slower to start (`/bin/true`: 2 ms
  // p50 before, 4.7 ms after indexing 100k files), the programs timed here included.
  const indexer = spawnSync(
    process.execPath,
    [
      '-e',
      `const { Engine } = require(${JSON.stringify(path.join(__dirname, '..', 'index.js'))})
       const [home, root, max] = process.argv.slice(1)
       const refreshed = new Engine({ home }).filesRefresh({ root, maxFiles: Number(max) })
       process.stdout.write(String(refreshed.files))`,
      home,
      root,
      String(n + 1),
    ],
    { encoding: 'utf8' },
  )
  if (indexer.status !== 0) fail(`indexing ${root}: ${indexer.stderr.trim()}`)
  if (Number(indexer.stdout) !== n) fail(`indexed ${indexer.stdout} files of ${n} under ${root}`)
  const indexed = Date.now() - t
  // The tree and its index are written back to disk before anything is timed: the
  // kernel's writeback of 100k new files otherwise runs beside the first minute of runs.
  spawnSync('sync')
  const made = kept === null ? 'generated' : 'reused'
  console.error(`${label}: ${made} ${n} files in ${generated} ms, indexed in ${indexed} ms`)

  const env = { ...process.env, CC_SEARCH_HOME: home, CLAUDE_PROJECT_DIR: root }
  const answers = {}
  for (const tool of tools) {
    for (const query of QUERIES) {
      for (let i = 0; i < WARMUP; i++) runOnce(tool, query, env)
      answers[`${tool.name}\0${query}`] = runOnce(tool, query, env).stdout
    }
  }
  // Every tool built on the core prints the same paths.
  const core = tools.filter((tool) => tool.name !== 'spec')
  for (const query of QUERIES) {
    for (const tool of core.slice(1)) {
      const [a, b] = [core[0], tool].map((t) => answers[`${t.name}\0${query}`])
      if (a !== b) fail(`${core[0].name} and ${tool.name} answer ${JSON.stringify(query)} differently:\n${a}---\n${b}`)
    }
  }
  const timings = Object.fromEntries(tools.map((tool) => [tool.name, []]))
  const warned = Object.fromEntries(tools.map((tool) => [tool.name, 0]))
  const perQuery = Object.fromEntries(
    tools.map((tool) => [tool.name, Object.fromEntries(QUERIES.map((q) => [q, []]))]),
  )
  for (let round = 0; round < rounds; round++) {
    for (const query of QUERIES) {
      const shift = round % tools.length
      const order = [...tools.slice(shift), ...tools.slice(0, shift)]
      for (const tool of order) {
        const run = runOnce(tool, query, env)
        if (run.warned) warned[tool.name] += 1
        timings[tool.name].push(run.ms)
        perQuery[tool.name][query].push(run.ms)
      }
    }
  }
  const steps = nativeSteps(env, rounds)
  return { label, n, answers, times: timings, perQuery, warned, steps }
}

const STEPS = ['read input', 'open engine', 'open index', 'query', 'write']

/**
 * Where a native hook run's time goes: each query `rounds` times with `--timings`; the
 * median of each step over all runs (ms).
 */
function nativeSteps(env, rounds) {
  const times = Object.fromEntries(STEPS.map((step) => [step, []]))
  for (let round = 0; round < rounds; round++) {
    for (const query of QUERIES) {
      const child = spawnSync(NATIVE, ['--timings', 'file-suggestion'], {
        input: JSON.stringify({ query }),
        env,
        encoding: 'utf8',
      })
      const line = child.stderr.split('\n').find((l) => l.startsWith('cc-search: timings: '))
      if (child.status !== 0 || !line) fail(`cc-search-hook --timings: no timings (stderr: ${child.stderr})`)
      for (const step of STEPS) {
        const m = new RegExp(`${step} ([0-9.]+) ms`).exec(line)
        if (!m) fail(`cc-search-hook --timings: no ${step} in ${line}`)
        times[step].push(Number(m[1]))
      }
    }
  }
  return Object.fromEntries(STEPS.map((step) => [step, stats(times[step]).p50]))
}

/** p50 and p99 of starting `command args` as a process, `count` times. */
function processStart(command, args, count) {
  const tool = { name: path.basename(command), command, args, readsStdin: false }
  for (let i = 0; i < WARMUP; i++) runOnce(tool, '', process.env)
  const times = []
  for (let i = 0; i < count; i++) times.push(runOnce(tool, '', process.env).ms)
  return stats(times)
}

function main() {
  const argv = process.argv.slice(2)
  const times = argv.includes('--recent') ? 'recent' : 'old'
  const quick = argv.includes('--quick') || /^(1|true|yes)$/i.test(process.env.CC_SEARCH_BENCH_QUICK || '')
  const roundsAt = argv.indexOf('--rounds')
  const roundsArg = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : undefined
  if (roundsArg !== undefined && !(Number.isInteger(roundsArg) && roundsArg > 0)) {
    fail('--rounds takes a positive integer')
  }
  // 30 rounds of the 7 queries: 210 runs per program and tree, so that the p99 is not
  // just the second-slowest run (as it is of 105).
  const trees = [
    { label: '10k', n: 10_000, rounds: roundsArg ?? 30 },
    ...(quick ? [] : [{ label: '100k', n: 100_000, rounds: roundsArg ?? 30 }]),
  ]

  const bun = bunBinary()
  const bunVersion = spawnSync(bun, ['--version'], { encoding: 'utf8' }).stdout.trim()
  if (!fs.existsSync(NATIVE)) fail(`no ${NATIVE}: run \`npm run build:release\` first`)
  const dirAt = argv.indexOf('--dir')
  const keep = dirAt >= 0 ? argv[dirAt + 1] : process.env.CC_SEARCH_BENCH_DIR || undefined
  if (dirAt >= 0 && !keep) fail('--dir takes a directory')
  const work = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'cc-search-hooks-bench-'))
  fs.mkdirSync(work, { recursive: true })
  const empty = path.join(work, 'empty.js')
  fs.writeFileSync(empty, '')
  const realWork = fs.realpathSync(work)
  // The hook finds Bun through $BUN, so both Bun tools run the same binary.
  process.env.BUN = bun
  const tools = [
    { name: 'native', label: 'cc-search-hook (native)', command: NATIVE, args: ['file-suggestion'], readsStdin: true },
    { name: 'bun', label: 'file-suggestion.sh (Bun)', command: HOOK, args: [], readsStdin: true },
  ]
  const python = !argv.includes('--no-python') && fs.existsSync(PYTHON_CLI)
  if (python) {
    tools.push({
      name: 'python',
      label: 'cc-search hook (Python)',
      command: PYTHON_CLI,
      args: ['hook', 'file-suggestion'],
      readsStdin: true,
    })
  }
  argv.forEach((arg, i) => {
    if (arg !== '--hook') return
    const [, name, program] = /^([\w.-]+)=(.+)$/.exec(argv[i + 1] || '') || []
    if (!name) fail('--hook takes NAME=PROGRAM')
    if (!fs.existsSync(program)) fail(`--hook ${name}: no ${program}`)
    if (tools.some((tool) => tool.name === name)) fail(`--hook ${name}: that name is taken`)
    tools.push({ name, label: `cc-search-hook (${name})`, command: program, args: ['file-suggestion'], readsStdin: true })
  })
  tools.push({ name: 'spec', label: 'spec client (Bun + bun:sqlite)', command: bun, args: [SPEC], readsStdin: true })
  const baseline = { name: 'bun', command: bun, args: [empty], readsStdin: false }

  const results = []
  try {
    for (const tree of trees) {
      const result = benchTree(tree.label, tree.n, tools, tree.rounds, realWork, times)
      // Starting a process, in the same conditions: Bun with an empty script (the floor
      // of both Bun tools), the native hook printing its version, /bin/true.
      const count = tree.rounds * QUERIES.length
      result.floor = processStart(baseline.command, baseline.args, count)
      result.nativeStart = processStart(NATIVE, ['--version'], count)
      result.trueStart = processStart('/bin/true', [], count)
      results.push(result)
    }
  } finally {
    if (!keep) fs.rmSync(work, { recursive: true, force: true })
  }

  const describe = (file) => {
    const st = fs.existsSync(file) ? fs.statSync(file) : null
    return `${path.basename(file)} (${st ? `${(st.size / 1048576).toFixed(1)} MiB, built ${st.mtime.toISOString()}` : 'missing'})`
  }
  console.log(`## file suggestion as a whole process: each hook program vs the specification's query client\n`)
  console.log(
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model?.trim() ?? 'unknown'}), ${os.platform()} ${os.release()}, ` +
      `Bun ${bunVersion}, Node ${process.versions.node}, ${describe(NATIVE)}, addon ${describe(ADDON)}` +
      `${python ? `, Python CLI ${PYTHON_CLI}` : ''}. ` +
      `Queries: ${QUERIES.map((q) => JSON.stringify(q)).join(', ')}. Modification times: ` +
      `${times === 'old' ? 'fixed, in 2024' : 'just now (every directory changed in the last 24 h)'}.\n`,
  )
  const columns = ['tree', 'program', 'runs', 'p50', 'p99', 'p50 ÷ spec p50', 'p99 ÷ spec p99', 'runs with stderr']
  console.log(`| ${columns.join(' | ')} |`)
  console.log(`| ${columns.map(() => '---').join(' | ')} |`)
  for (const r of results) {
    const spec = stats(r.times.spec)
    for (const tool of tools) {
      const t = stats(r.times[tool.name])
      const ratios = tool.name === 'spec' ? '1× | 1×' : `${ratio(t.p50, spec.p50)} | ${ratio(t.p99, spec.p99)}`
      console.log(
        `| ${r.label} files | ${tool.label} | ${t.runs} | ${ms(t.p50)} | ${ms(t.p99)} | ${ratios} | ${r.warned[tool.name]} |`,
      )
    }
  }
  console.log('\nStarting a process (p50 / p99), and where a native hook run goes (p50 of each step, `--timings`):\n')
  const stepColumns = ['tree', '/bin/true', 'cc-search-hook --version', 'Bun, empty script', ...STEPS]
  console.log(`| ${stepColumns.join(' | ')} |`)
  console.log(`| ${stepColumns.map(() => '---').join(' | ')} |`)
  for (const r of results) {
    const start = (s) => `${ms(s.p50)} / ${ms(s.p99)}`
    const steps = STEPS.map((step) => `${r.steps[step].toFixed(2)} ms`)
    console.log(
      `| ${r.label} files | ${start(r.trueStart)} | ${start(r.nativeStart)} | ${start(r.floor)} | ${steps.join(' | ')} |`,
    )
  }
  console.log('\nPer query, p50, and the number of paths each printed:\n')
  console.log(`| query | ${results.flatMap((r) => tools.map((t) => `${r.label} ${t.name}`)).join(' | ')} |`)
  console.log(`| --- | ${results.flatMap(() => tools.map(() => '---')).join(' | ')} |`)
  for (const query of QUERIES) {
    const cells = results.flatMap((r) =>
      tools.map((tool) => {
        const count = r.answers[`${tool.name}\0${query}`].split('\n').filter(Boolean).length
        return `${ms(stats(r.perQuery[tool.name][query]).p50)} (${count})`
      }),
    )
    console.log(`| ${JSON.stringify(query)} | ${cells.join(' | ')} |`)
  }
  if (warnings.size > 0) {
    console.log('\nWhat runs wrote on stderr (warm-up runs included):\n')
    for (const [message, count] of warnings) console.log(`- ${count}× ${message.replace(/\n/g, ' ')}`)
  }
}

// bench/hook-ab.js times builds of the hook with the same queries and percentiles.
module.exports = { QUERIES, percentile }

if (require.main === module) {
  try {
    main()
  } catch (err) {
    console.error(`hooks-bench: ${err.message}`)
    process.exitCode = 1
  }
}
