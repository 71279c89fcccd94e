'use strict'

// Claude Code's `fileSuggestion` command, run by file-suggestion.sh under Bun (or Node).
//
// stdin:  {"query": "..."} — no input (blanks only, or a terminal) means the empty query,
//         which lists the project's top-ranked files; any other input (not JSON, not an
//         object, no string `query`) is an error: nothing on stdout, one line on stderr.
// stdout: up to 15 paths, one a line, best first, relative to the project
//         ($CLAUDE_PROJECT_DIR, else the current directory).
//
// The picker must never break: every failure leaves stdout empty (or holding the paths
// written so far), puts one line on stderr (`cc-search: error: hook file-suggestion: …`),
// and exits 0. Warnings (an index built on the fly, a recovered database, an invalid
// configuration) go to stderr, one a line (`cc-search: warning: …`): the same lines as
// the native cc-search-hook and the Python CLI's hook write.
//
// Start-up is kept to the minimum: the only modules loaded are the cc-search package
// (whose addon makes sense of the input and answers in one call) and stdin.js (the
// standard streams, without node:fs under Bun).

const { readInput, write } = require('./stdin.js')

/** Lines for stderr, written at the end (one write, whatever happened). */
const notes = []

function note(message) {
  notes.push(`cc-search: ${String(message).replace(/\s*\n\s*/g, ' ')}\n`)
}

function failed(message) {
  note(`error: hook file-suggestion: ${message}`)
}

// What the input means, what to print and which warnings to show are the core's
// (files::hook); this script reads, writes and reports.
async function main() {
  const input = await readInput()
  let engine
  let answer
  try {
    const { Engine } = require('../index.js')
    // The runtime would print the engine's warnings over two lines; the answer has
    // them, shown below one line each.
    process.removeAllListeners('warning')
    engine = new Engine()
    answer = engine.hook('file-suggestion', input)
  } catch (err) {
    failed(err && err.message ? err.message : err)
    return
  }
  if (answer.error) {
    failed(answer.error)
    return
  }
  for (const warning of answer.warnings) note(`warning: ${warning}`)
  if (answer.stdout === '') return
  try {
    await write(1, answer.stdout)
  } catch (err) {
    // EPIPE: the picker stopped listening. Anything else is worth one line.
    if (!(err && err.code === 'EPIPE')) failed(`cannot write the answer: ${err.message}`)
  }
}

async function run() {
  try {
    await main()
  } catch (err) {
    failed(err && err.message ? err.message : err)
  }
  if (notes.length > 0) {
    try {
      await write(2, notes.join(''))
    } catch {
      // Nowhere left to report to.
    }
  }
  process.exitCode = 0
}

run()
