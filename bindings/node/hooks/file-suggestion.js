'use strict'

// Claude Code's `fileSuggestion` command, run by file-suggestion.sh under Bun (or Node).
//
// stdin:  {"query": "..."} — empty input, a terminal, invalid JSON or a missing `query`
//         all mean the empty query, which lists the project's top-ranked files.
// stdout: up to 15 paths, one a line, best first, relative to the project
//         ($CLAUDE_PROJECT_DIR, else the current directory).
//
// The picker must never break: every failure leaves stdout empty (or holding the paths
// written so far), puts one line on stderr, and exits 0. Warnings (an index built on
// the fly, a recovered database, an invalid configuration) go to stderr, one a line.
//
// Start-up is kept to the minimum: stdin is read before anything else is loaded, and
// the only module loaded besides `fs` is the cc-search package itself.

const fs = require('node:fs')

/** Most bytes of stdin read; a picker query is a few hundred at most. */
const MAX_INPUT = 1 << 20

function note(message) {
  const line = `cc-search: ${String(message).replace(/\s*\n\s*/g, ' ')}\n`
  try {
    writeAll(2, line)
  } catch {
    // Nowhere left to report to.
  }
}

// A descriptor the other end left non-blocking answers EAGAIN instead of waiting: wait
// a millisecond and try again.
function pause() {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1)
}

/**
 * The text on stdin, read until end of input, until it holds one complete JSON object
 * (so a writer that keeps its end open cannot stall the picker), or until MAX_INPUT.
 * A character device (a terminal, /dev/null), or a descriptor that cannot be read, is
 * empty input. (fstat rather than `tty.isatty`: loading node:tty costs Bun ~5 ms.)
 */
function readInput() {
  try {
    if (fs.fstatSync(0).isCharacterDevice()) return ''
  } catch {
    return ''
  }
  const chunks = []
  let size = 0
  const buffer = Buffer.alloc(64 * 1024)
  while (size < MAX_INPUT) {
    let n
    try {
      n = fs.readSync(0, buffer, 0, buffer.length, null)
    } catch (err) {
      if (err && err.code === 'EAGAIN') {
        pause()
        continue
      }
      // EBADF (closed), EISDIR and the like: no more input.
      break
    }
    if (n === 0) break
    chunks.push(Buffer.from(buffer.subarray(0, n)))
    size += n
    if (buffer[n - 1] === 0x7d /* } */ || buffer[n - 1] === 0x0a /* \n */) {
      const text = Buffer.concat(chunks).toString('utf8')
      if (parseObject(text) !== undefined) return text
    }
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** `text` as a JSON object, or undefined. */
function parseObject(text) {
  try {
    const value = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** The query of the picker's input; anything unusable is the empty query. */
function queryOf(text) {
  if (text.trim() === '') return ''
  const input = parseObject(text)
  return input !== undefined && typeof input.query === 'string' ? input.query : ''
}

function writeAll(fd, text) {
  const bytes = Buffer.from(text, 'utf8')
  let offset = 0
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(fd, bytes, offset, bytes.length - offset)
    } catch (err) {
      if (err && err.code === 'EAGAIN') {
        pause()
        continue
      }
      throw err
    }
  }
}

function main() {
  const query = queryOf(readInput())
  let engine
  let response
  try {
    const { Engine } = require('../index.js')
    // The runtime would print the engine's warnings over two lines; they are shown
    // below, one line each, with the response's.
    process.removeAllListeners('warning')
    engine = new Engine()
    const projectDir = process.env.CLAUDE_PROJECT_DIR || process.cwd()
    response = engine.filesSuggest(query, { projectDir })
  } catch (err) {
    const where = engine ? ` (data root ${engine.home})` : ''
    note(`file suggestion failed${where}: ${err && err.message ? err.message : err}`)
    return
  }
  for (const warning of [...engine.warnings, ...response.warnings]) note(warning)
  if (response.paths.length === 0) return
  try {
    writeAll(1, response.paths.join('\n') + '\n')
  } catch (err) {
    // EPIPE: the picker stopped listening. Anything else is worth one line.
    if (!(err && err.code === 'EPIPE')) note(`file suggestion: cannot write the result: ${err.message}`)
  }
}

try {
  main()
} catch (err) {
  note(`file suggestion failed: ${err && err.message ? err.message : err}`)
}
process.exitCode = 0
