'use strict'

// The MCP server from JavaScript: `Engine#mcpHandle` message by message, `serveMcp` over
// in-memory streams and as a real stdio process, on real temporary projects.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { PassThrough, Writable } = require('node:stream')
const { spawnSync } = require('node:child_process')

const { Engine, CcSearchError, VERSION } = require('cc-search')
const { tempDir, makeProject, removeAll } = require('./helpers.js')

after(removeAll)

function project() {
  return makeProject({
    'log.txt': 'log message\nlogger info\nlog\ncatalog\n',
    'src/components/Button.tsx': 'export const Button = () => null\n',
  })
}

function request(id, method, params) {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params })
}

// Run `fn` with CLAUDE_PROJECT_DIR set to `dir`, restoring it afterwards.
function withProject(dir, fn) {
  const before = process.env.CLAUDE_PROJECT_DIR
  process.env.CLAUDE_PROJECT_DIR = dir
  try {
    return fn()
  } finally {
    if (before === undefined) delete process.env.CLAUDE_PROJECT_DIR
    else process.env.CLAUDE_PROJECT_DIR = before
  }
}

describe('mcpHandle', () => {
  test('answers the handshake, stays silent on notifications, runs checkfor', () => {
    const root = project()
    const engine = new Engine({ home: tempDir() })
    withProject(root, () => {
      const init = JSON.parse(
        engine.mcpHandle(request(1, 'initialize', { protocolVersion: '2025-03-26', capabilities: {} })),
      )
      assert.deepEqual(init.result.serverInfo, { name: 'cc-search', version: VERSION })
      assert.equal(init.result.protocolVersion, '2025-03-26')
      assert.equal(engine.mcpHandle('{"jsonrpc":"2.0","method":"notifications/initialized"}'), null)

      const list = JSON.parse(engine.mcpHandle(request(2, 'tools/list')))
      const names = list.result.tools.map((t) => t.name)
      // The agent's toolset: reading tools only, checkfor for grep.
      assert.ok(names.includes('checkfor') && names.includes('files_suggest'), names.join())
      assert.ok(!names.some((n) => n.endsWith('_index') || n === 'grep_search' || n.startsWith('claude')), names.join())
      assert.ok(JSON.stringify(list).length <= 8500) // the ceiling: 8.5 KB

      const call = JSON.parse(
        engine.mcpHandle(request(3, 'tools/call', { name: 'checkfor', arguments: { search: 'log', whole_word: true } })),
      )
      assert.equal(call.id, 3)
      assert.equal(
        call.result.content[0].text,
        '{"directories":[{"dir":".","matches_found":2,"files":[{"path":"log.txt","matches":[{"line":1,"content":"log message"},{"line":3,"content":"log"}]}]}]}',
      )
      assert.equal(call.result.structuredContent, undefined, 'none before 2025-06-18')
    })
  })

  test('protocol errors are replies; escaping paths are tool errors', () => {
    const root = project()
    const engine = new Engine({ home: tempDir() })
    withProject(root, () => {
      assert.equal(JSON.parse(engine.mcpHandle('{oops')).error.code, -32700)
      assert.equal(JSON.parse(engine.mcpHandle(request(1, 'nope'))).error.code, -32601)
      const unknown = JSON.parse(engine.mcpHandle(request(2, 'tools/call', { name: 'nope' })))
      assert.equal(unknown.error.code, -32602)
      const escaped = JSON.parse(
        engine.mcpHandle(request(3, 'tools/call', { name: 'checkfor', arguments: { search: 'x', dir: '..' } })),
      )
      assert.equal(escaped.result.isError, true)
      assert.match(escaped.result.content[0].text, /outside the directories/)
    })
    assert.throws(
      () => engine.mcpHandle(42),
      (err) => err instanceof CcSearchError && err.code === 'invalid_request',
    )
  })
})

describe('serveMcp', () => {
  test('serves a session over streams and resolves at the end of input', async () => {
    const root = project()
    const engine = new Engine({ home: tempDir() })
    const input = new PassThrough()
    const chunks = []
    const output = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(chunk.toString())
        done()
      },
    })
    const served = engine.serveMcp({ roots: [root], input, output })
    input.write(`${request(1, 'initialize', { protocolVersion: '2025-11-25' })}\n`)
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    input.write(`${request(2, 'tools/call', { name: 'files_suggest', arguments: { query: 'button' } })}\r\n`)
    input.end(request(3, 'ping'))
    await served
    const replies = chunks.join('').trimEnd().split('\n').map((line) => JSON.parse(line))
    assert.deepEqual(
      replies.map((r) => r.id),
      [1, 2, 3],
    )
    assert.deepEqual(JSON.parse(replies[1].result.content[0].text).paths, ['src/components/Button.tsx'])
    assert.equal(replies[1].result.structuredContent, undefined, 'the result once unless asked')
    assert.deepEqual(replies[2].result, {})
  })

  test('offers the tools, budget and structured output it is started with', async () => {
    const root = project()
    const engine = new Engine({ home: tempDir() })
    const defaults = engine.mcpStart({ roots: [root] })
    assert.ok(defaults.includes('checkfor') && !defaults.includes('code_delete_repos'), defaults.join())
    const all = engine.mcpStart({ roots: [root], tools: 'default,code_delete_repos', maxTokens: 50, structured: true })
    assert.deepEqual(all, [...defaults, 'code_delete_repos'])
    engine.mcpHandle(request(1, 'initialize', { protocolVersion: '2025-06-18' }))
    const list = JSON.parse(engine.mcpHandle(request(2, 'tools/list'))).result.tools
    assert.ok(list.every((t) => t.outputSchema && t.outputSchema.type === 'object'))
    const call = JSON.parse(
      engine.mcpHandle(request(3, 'tools/call', { name: 'checkfor', arguments: { search: 'o', recursive: true } })),
    ).result
    assert.equal(JSON.parse(call.content[0].text).truncated, true)
    assert.ok(call.content[0].text.length + JSON.stringify(call.structuredContent).length <= 50 * 4)
    for (const bad of [{ tools: ['nope'] }, { tools: 3 }, { maxTokens: 0 }, { structured: 'yes' }]) {
      assert.throws(
        () => engine.mcpStart({ roots: [root], ...bad }),
        (err) => err instanceof CcSearchError && err.code === 'invalid_request',
        JSON.stringify(bad),
      )
    }
  })

  test('refuses roots that are not an array of strings or do not exist', async () => {
    const engine = new Engine({ home: tempDir() })
    await assert.rejects(engine.serveMcp({ roots: 'x' }), (err) => err.code === 'invalid_request')
    await assert.rejects(
      engine.serveMcp({ roots: [path.join(tempDir(), 'missing')] }),
      (err) => err instanceof CcSearchError && err.code === 'io',
    )
  })

  test('runs as a stdio server process', () => {
    const root = project()
    const entry = path.join(__dirname, '..', 'index.js')
    const input = [
      request(1, 'initialize', { protocolVersion: '2024-11-05' }),
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      request(2, 'tools/call', { name: 'checkfor', arguments: { search: 'catalog' } }),
      '',
    ].join('\n')
    const child = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(entry)}).serveMcp()`], {
      cwd: root,
      input,
      encoding: 'utf8',
      env: { ...process.env, CC_SEARCH_HOME: tempDir(), CLAUDE_PROJECT_DIR: '' },
      timeout: 60_000,
    })
    assert.equal(child.status, 0, child.stderr)
    const replies = child.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))
    assert.equal(replies.length, 2)
    assert.equal(replies[0].result.protocolVersion, '2024-11-05')
    assert.equal(JSON.parse(replies[1].result.content[0].text).directories[0].matches_found, 1)
  })
})
