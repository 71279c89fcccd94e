#!/usr/bin/env node
'use strict'

// Two (or more) builds of the native `fileSuggestion` hook, alternating, on one tree:
// each whole process as Claude Code runs it (JSON on stdin, paths on stdout), started by
// Node's spawnSync like bench/hooks-bench.js, each build with its own data root (an
// index of the tree that build wrote: schemas differ between builds).
//
//   node bench/hook-ab.js --tree DIR [--rounds N] PROGRAM@HOME PROGRAM@HOME…
//
// Each round runs every query once with every build, the order reversed every other
// round. Before timing, each build answers each query three times, and every build must
// print the same paths. Prints per build: p50, p99 and the largest run over all runs, and
// the p50 of each query.

const { spawnSync } = require('node:child_process')

const { QUERIES, percentile } = require('./hooks-bench.js')

/** The `p`th percentile of `values` (in any order). */
function percentileOf(values, p) {
  return percentile([...values].sort((a, b) => a - b), p)
}

function main() {
  const argv = process.argv.slice(2)
  const take = (flag) => {
    const at = argv.indexOf(flag)
    return at >= 0 ? argv.splice(at, 2)[1] : undefined
  }
  const tree = take('--tree')
  const rounds = Number(take('--rounds') || 15)
  const builds = argv.map((arg) => {
    const [program, home] = arg.split('@')
    if (!program || !home) throw new Error(`${arg}: expected PROGRAM@HOME`)
    return { name: arg, program, home }
  })
  if (!tree || builds.length === 0 || !(rounds > 0)) {
    throw new Error('usage: hook-ab.js --tree DIR [--rounds N] PROGRAM@HOME…')
  }
  const run = (build, query) => {
    const env = { ...process.env, CC_SEARCH_HOME: build.home, CLAUDE_PROJECT_DIR: tree }
    const started = process.hrtime.bigint()
    const child = spawnSync(build.program, ['file-suggestion'], { input: JSON.stringify({ query }), env })
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    if (child.status !== 0) throw new Error(`${build.name} exited ${child.status}: ${child.stderr}`)
    return { ms, stdout: String(child.stdout) }
  }
  for (const query of QUERIES) {
    let first
    for (const build of builds) {
      for (let i = 0; i < 3; i++) run(build, query)
      const { stdout } = run(build, query)
      if (first !== undefined && stdout !== first) {
        throw new Error(`${builds[0].name} and ${build.name} answer ${JSON.stringify(query)} differently`)
      }
      first = stdout
    }
  }
  const times = new Map(builds.map((b) => [b.name, { all: [], per: Object.fromEntries(QUERIES.map((q) => [q, []])) }]))
  for (let round = 0; round < rounds; round++) {
    for (const query of QUERIES) {
      const order = round % 2 ? [...builds].reverse() : builds
      for (const build of order) {
        const { ms } = run(build, query)
        times.get(build.name).all.push(ms)
        times.get(build.name).per[query].push(ms)
      }
    }
  }
  for (const build of builds) {
    const t = times.get(build.name)
    const perQuery = QUERIES.map((q) => `${JSON.stringify(q)} ${percentileOf(t.per[q], 50).toFixed(1)}`).join(' ')
    console.log(
      `${build.name}: ${t.all.length} runs, p50 ${percentileOf(t.all, 50).toFixed(1)} ms, ` +
        `p99 ${percentileOf(t.all, 99).toFixed(1)} ms, max ${percentileOf(t.all, 100).toFixed(1)} ms | p50 ${perQuery}`,
    )
  }
}

try {
  main()
} catch (err) {
  console.error(`hook-ab: ${err.message}`)
  process.exitCode = 1
}
