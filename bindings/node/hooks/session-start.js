'use strict'

// Claude Code's SessionStart hook, run by session-start.sh under Bun (or Node).
//
//   session-start.js             the hook: reads and ignores the hook's JSON on stdin,
//                                starts the worker below detached (its own session, stdin
//                                closed, stdout and stderr appended to the log), exits 0
//   session-start.js --worker P  the worker: refreshes what a session of project P needs
//                                (P, the configured roots, P's additional directories),
//                                logging each step
//
// The log is <data root>/logs/session-start.log (the data root is $CC_SEARCH_HOME, else
// the engine's default); over 1 MiB it is moved to session-start.log.1 first. The core
// decides the project, the log and its rotation, and that a refresh is due
// (files::hook); this script starts it. The hook never fails the session: it exits 0
// and leaves stdout empty (Claude Code adds a SessionStart hook's stdout to the
// conversation); a failure to start the refresh is one line on stderr
// (`cc-search: error: hook session-start: …`, as the native cc-search-hook and the Python
// CLI's hook write it).

const fs = require('node:fs')

const { readInput } = require('./stdin.js')

function oneLine(message) {
  return String(message).replace(/\s*\n\s*/g, ' ')
}

function count(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

function errorText(err) {
  return oneLine(err && err.message ? err.message : err)
}

// --- the hook ------------------------------------------------------------------------

function failed(message) {
  try {
    fs.writeSync(2, `cc-search: error: hook session-start: ${oneLine(message)}\n`)
  } catch {
    // Nowhere left to report to.
  }
}

async function hook() {
  // Read (so Claude Code's write never fails) and handed to the core, which ignores it.
  const input = await readInput()
  let answer
  try {
    const { Engine } = require('../index.js')
    // Warnings of the engine (an invalid configuration) are the worker's to log.
    process.removeAllListeners('warning')
    const engine = new Engine()
    // The core decides: the project, the log (rotated) and whether a refresh is due.
    answer = engine.hook('session-start', input)
  } catch (err) {
    failed(errorText(err))
    return
  }
  if (answer.error) {
    failed(answer.error)
    return
  }
  if (!answer.refresh) return
  try {
    const { projectDir, log } = answer.refresh
    const fd = fs.openSync(log, 'a')
    const { spawn } = require('node:child_process')
    const worker = spawn(process.execPath, [__filename, '--worker', projectDir], {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: process.env,
    })
    worker.on('error', (err) => failed(`cannot start the index refresh: ${errorText(err)}`))
    worker.unref()
    fs.closeSync(fd)
  } catch (err) {
    failed(`cannot start the index refresh: ${errorText(err)}`)
  }
}

// --- the worker ----------------------------------------------------------------------

function log(message) {
  const line = `${new Date().toISOString()} [${process.pid}] ${oneLine(message)}\n`
  try {
    fs.writeSync(1, line)
  } catch {
    // The log is gone; nothing else to do.
  }
}

/**
 * Refresh what a session start refreshes for `project`: the project, the configured
 * `[index] roots` and the project's additional directories (the core decides), with
 * one log line per root.
 */
function worker(project) {
  const started = Date.now()
  log(`refresh ${project}: started`)
  try {
    const { Engine } = require('../index.js')
    process.removeAllListeners('warning')
    const engine = new Engine()
    for (const warning of engine.warnings) log(`warning: ${warning}`)
    const r = engine.filesRefresh({ projectDir: project })
    for (const root of r.roots) {
      const counts = `${root.added} added, ${root.updated} updated, ${root.removed} removed`
      const truncated = root.truncated ? ', truncated by the file limit' : ''
      log(`indexed ${root.root}: ${count(root.files, 'file')} (${counts})${truncated}`)
    }
    for (const warning of r.warnings) log(`warning: ${warning}`)
    const total = `${count(r.files, 'file')} in ${count(r.roots.length, 'root')}`
    log(`refresh ${r.root}: done, ${total} in ${Date.now() - started} ms`)
  } catch (err) {
    log(`refresh ${project}: failed: ${errorText(err)}`)
    process.exitCode = 1
  }
}

if (process.argv[2] === '--worker') {
  worker(process.argv[3] || process.cwd())
} else {
  hook()
    .catch((err) => failed(errorText(err)))
    .finally(() => {
      process.exitCode = 0
    })
}
