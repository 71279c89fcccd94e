'use strict'

// The standard streams of the hook scripts. Under Bun they go through Bun's own file API:
// node:fs costs Bun ~3 ms to initialise, `process.stdout`/`process.stderr` ~8 ms — more
// than a whole picker query. Under Node, through node:fs.
//
// How much is read and when the input is complete are the core's (files::hook, through
// the addon: HOOK_INPUT_LIMIT, hookInputComplete); only the reading is done here. The
// addon is loaded by the first read, so that a package that cannot load it fails there,
// inside the hook's own error handling.

function core() {
  return require('../index.js')
}

/** `chunks` (Uint8Arrays of `size` bytes in all) as one Uint8Array, without Buffer. */
function joined(chunks, size) {
  if (chunks.length === 1) return chunks[0]
  const all = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.length
  }
  return all
}

/**
 * The standard streams through Bun's file API.
 *
 * readInput: the bytes on stdin, read until end of input, until they hold one complete
 * JSON object (so a writer that keeps its end open cannot stall the picker), or until
 * HOOK_INPUT_LIMIT. A descriptor that cannot be read is empty input. A terminal is not
 * looked for (a stat costs Bun 1 ms): the hooks' .sh scripts never hand one over, they
 * give /dev/null instead.
 */
const bunIo = {
  async readInput() {
    const { HOOK_INPUT_LIMIT, hookInputComplete } = core()
    const chunks = []
    let size = 0
    let reader
    try {
      reader = Bun.stdin.stream().getReader()
      while (size < HOOK_INPUT_LIMIT) {
        const { done, value } = await reader.read()
        if (done) break
        chunks.push(value)
        size += value.length
        if (hookInputComplete(joined(chunks, size))) break
      }
    } catch {
      // A descriptor that cannot be read: what was read so far.
    }
    if (reader) reader.cancel().catch(() => {})
    return joined(chunks, size)
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
      const { HOOK_INPUT_LIMIT, hookInputComplete } = core()
      try {
        if (fs.fstatSync(0).isCharacterDevice()) return Buffer.alloc(0)
      } catch {
        return Buffer.alloc(0)
      }
      const chunks = []
      let size = 0
      const buffer = Buffer.alloc(64 * 1024)
      while (size < HOOK_INPUT_LIMIT) {
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
        const input = Buffer.concat(chunks)
        if (hookInputComplete(input)) return input
      }
      return Buffer.concat(chunks)
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

const io = typeof Bun !== 'undefined' && typeof Bun.stdin?.stream === 'function' ? bunIo : nodeIo()

module.exports = {
  /** See bunIo.readInput: stdin's bytes (a Uint8Array), up to one complete JSON object. */
  readInput: () => io.readInput(),
  /** Write all of `text` to descriptor 1 or 2. */
  write: (fd, text) => io.write(fd, text),
}
