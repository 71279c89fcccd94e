'use strict'

// Two builds of the file-suggestion hook, A against B, on one index: each round runs
// every query once with each, alternating which goes first, so drift in the machine's
// load falls on both alike. For "is this change slower?", where hooks-bench.js compares
// the hook with the specification's client.
//
//   node bench/hooks-bench.js --quick --dir /tmp/hb     # a 10k tree and its index, kept
//   node bench/hooks-ab.js A B --dir /tmp/hb [--tree 10k|100k] [--rounds 40] [--queries a,b]
//
// A and B are each a bindings/node directory with its addon built (npm run build:release),
// whose Bun hook is run, or a native hook program (cc-search-hook, built with --release).
// `--tree 100k` uses the 100k tree (hooks-bench.js without --quick keeps both); `--queries`
// replaces the default queries (comma-separated). Prints p50, p90 and p99 per build, and
// the number of paths each printed per query (they must agree).

const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const QUERIES = ['button', 'src/comp', 'utils.ts', 'ser', 'hooks/use', 'x', '']
const WARMUP_ROUNDS = 2

function option(argv, name, fallback) {
  const at = argv.indexOf(name)
  return at >= 0 ? argv[at + 1] : fallback
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

function main() {
  const argv = process.argv.slice(2)
  const packages = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'))
  const dir = option(argv, '--dir')
  const rounds = Number(option(argv, '--rounds', '40'))
  const tree = option(argv, '--tree', '10k')
  const queries = argv.includes('--queries') ? option(argv, '--queries', '').split(',') : QUERIES
  if (packages.length !== 2 || !dir) {
    console.error('usage: node bench/hooks-ab.js A B --dir DIR [--tree 10k|100k] [--rounds N] [--queries a,b]')
    process.exit(2)
  }
  const bin = path.join(__dirname, '..', 'node_modules', '.bin')
  const env = {
    ...process.env,
    CC_SEARCH_HOME: path.join(dir, `home-${tree}`),
    CLAUDE_PROJECT_DIR: path.join(dir, `tree-${tree}`),
    PATH: `${bin}:${process.env.PATH}`,
  }
  const sides = packages.map((p) => {
    const native = fs.statSync(p).isFile()
    return {
      name: p,
      command: native ? path.resolve(p) : path.join(path.resolve(p), 'hooks', 'file-suggestion.sh'),
      args: native ? ['file-suggestion'] : [],
      ms: [],
      printed: {},
    }
  })
  for (let round = 0; round < rounds + WARMUP_ROUNDS; round++) {
    for (const query of queries) {
      const order = round % 2 ? [sides[1], sides[0]] : sides
      for (const side of order) {
        const start = process.hrtime.bigint()
        const run = spawnSync(side.command, side.args, { input: JSON.stringify({ query }), env })
        const ms = Number(process.hrtime.bigint() - start) / 1e6
        if (run.status !== 0 || run.stderr.length) {
          throw new Error(`${side.name} "${query}": status ${run.status}: ${run.stderr}`)
        }
        if (round >= WARMUP_ROUNDS) side.ms.push(ms)
        side.printed[query] = run.stdout.toString().split('\n').filter(Boolean).length
      }
    }
  }
  console.log('| build | runs | p50 | p90 | p99 |')
  console.log('| --- | --- | --- | --- | --- |')
  for (const side of sides) {
    const sorted = [...side.ms].sort((a, b) => a - b)
    const cell = (p) => `${percentile(sorted, p).toFixed(1)} ms`
    console.log(`| ${side.name} | ${sorted.length} | ${cell(50)} | ${cell(90)} | ${cell(99)} |`)
  }
  const differ = queries.filter((q) => sides[0].printed[q] !== sides[1].printed[q])
  console.log(`\npaths printed per query: ${JSON.stringify(sides[0].printed)}`)
  if (differ.length) {
    console.log(`the builds printed different numbers of paths for: ${differ.join(', ')}`)
    process.exit(1)
  }
}

main()
