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
// the only module loaded besides the cc-search package is what reads and writes the
// standard streams. Under Bun that is Bun's own file API: node:fs costs Bun ~3 ms to
// initialise, `process.stdout`/`process.stderr` ~8 ms — more than a whole query.

const isBun = typeof Bun !== 'undefined'

/** Most bytes of stdin read; a picker query is a few hundred at most. */
const MAX_INPUT = 1 << 20

/** Lines for stderr, written at the end (one write, whatever happened). */
const notes = []

function note(message) {
  notes.push(`cc-search: ${String(message).replace(/\s*\n\s*/g, ' ')}\n`)
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

/** Whether the bytes read so far end in what may close a JSON object (`}` or a newline). */
function mayBeComplete(chunk) {
  const last = chunk[chunk.length - 1]
  return last === 0x7d /* } */ || last === 0x0a /* \n */
}

/**
 * The standard streams through Bun's file API.
 *
 * readInput: the text on stdin, read until end of input, until it holds one complete
 * JSON object (so a writer that keeps its end open cannot stall the picker), or until
 * MAX_INPUT. A descriptor that cannot be read is empty input. A terminal is not looked
 * for (a stat costs Bun 1 ms): file-suggestion.sh never hands one over, it gives
 * /dev/null instead.
 */
const bunIo = {
  async readInput() {
    const decoder = new TextDecoder()
    let text = ''
    let size = 0
    let reader
    try {
      reader = Bun.stdin.stream().getReader()
      while (size < MAX_INPUT) {
        const { done, value } = await reader.read()
        if (done) break
        size += value.length
        text += decoder.decode(value, { stream: true })
        if (mayBeComplete(value) && parseObject(text) !== undefined) break
      }
    } catch {
      // A descriptor that cannot be read: what was read so far.
    }
    if (reader) reader.cancel().catch(() => {})
    return text + decoder.decode()
  },
  async write(fd, text) {
    await Bun.write(fd === 1 ? Bun.stdout : Bun.stderr, text)
  },
}

/** The standard streams through node:fs (Node, or Bun without its file API). */
function nodeIo() {
  const fs = require('node:fs')

  // A descriptor the other end left non-blocking answers EAGAIN instead of waiting:
  // wait a millisecond and try again.
  function pause() {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1)
  }

  return {
    // See bunIo.readInput. (fstat rather than `tty.isatty`: loading node:tty is slow.)
    async readInput() {
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
        if (mayBeComplete(buffer.subarray(0, n))) {
          const text = Buffer.concat(chunks).toString('utf8')
          if (parseObject(text) !== undefined) return text
        }
      }
      return Buffer.concat(chunks).toString('utf8')
    },
    async write(fd, text) {
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
    },
  }
}

const io = isBun && typeof Bun.stdin?.stream === 'function' ? bunIo : nodeIo()

async function main() {
  const query = queryOf(await io.readInput())
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
    await io.write(1, response.paths.join('\n') + '\n')
  } catch (err) {
    // EPIPE: the picker stopped listening. Anything else is worth one line.
    if (!(err && err.code === 'EPIPE')) note(`file suggestion: cannot write the result: ${err.message}`)
  }
}

async function run() {
  try {
    await main()
  } catch (err) {
    note(`file suggestion failed: ${err && err.message ? err.message : err}`)
  }
  if (notes.length > 0) {
    try {
      await io.write(2, notes.join(''))
    } catch {
      // Nowhere left to report to.
    }
  }
  process.exitCode = 0
}

run()
