'use strict'

// The standard streams of the hook scripts. Under Bun they go through Bun's own file API:
// node:fs costs Bun ~3 ms to initialise, `process.stdout`/`process.stderr` ~8 ms — more
// than a whole picker query. Under Node, through node:fs.

/** Most bytes of stdin read; a hook's input is a few hundred at most. */
const MAX_INPUT = 1 << 20

/** `text` as a JSON object, or undefined. */
function parseObject(text) {
  try {
    const value = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
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
 * for (a stat costs Bun 1 ms): the hooks' .sh scripts never hand one over, they
 * give /dev/null instead.
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

const io = typeof Bun !== 'undefined' && typeof Bun.stdin?.stream === 'function' ? bunIo : nodeIo()

module.exports = {
  /** See bunIo.readInput: stdin's text, up to one complete JSON object. */
  readInput: () => io.readInput(),
  /** Write all of `text` to descriptor 1 or 2. */
  write: (fd, text) => io.write(fd, text),
  parseObject,
}
