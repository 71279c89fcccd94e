'use strict'

// sessions.* from JavaScript: engine.sessionsIndex / sessionsSearch / sessionsChunk /
// sessionsStatus (and their Async forms) on transcripts written in Claude Code's format,
// indexed into a real SQLite file (keyword-only), under Node and Bun alike.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const { Engine, CcSearchError } = require('cc-search')
const { tempDir, writeFile, removeAll } = require('./helpers.js')

after(removeAll)

const DAY = 86_400
// 2026-03-01T00:00:00Z: the searches' "now", so ages and `since` are fixed.
const NOW = 1_772_323_200

// One transcript: a prompt and a reply split over two lines (thinking, then text), as
// Claude Code writes them, plus a record the index skips.
function transcript(session, cwd, time, prompt, reply) {
  const base = (n, type, extra) => ({
    parentUuid: n === 1 ? null : `${session}-${n - 1}`,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId: session,
    version: '2.0.5',
    gitBranch: 'main',
    type,
    uuid: `${session}-${n}`,
    timestamp: new Date((time + n) * 1000).toISOString(),
    ...extra,
  })
  const message = (block) => ({
    message: { id: `msg_${session.slice(0, 8)}`, type: 'message', role: 'assistant', content: [block] },
  })
  return [
    { type: 'progress', data: { type: 'hook_progress' }, uuid: `${session}-p` },
    base(1, 'user', { message: { role: 'user', content: prompt } }),
    base(2, 'assistant', message({ type: 'thinking', thinking: `Thinking: ${prompt}`, signature: 's' })),
    base(3, 'assistant', message({ type: 'text', text: reply })),
  ]
    .map((record) => JSON.stringify(record) + '\n')
    .join('')
}

function setup() {
  const home = tempDir()
  fs.writeFileSync(path.join(home, 'config.toml'), '[embed]\nmodel_dir = "/nonexistent/model"\n')
  const projects = path.join(tempDir(), 'projects')
  const alpha = writeFile(
    projects,
    '-home-u-alpha/aaaaaaaa-0000-4000-8000-000000000001.jsonl',
    transcript('aaaaaaaa-0000-4000-8000-000000000001', '/home/u/alpha', NOW - 2 * DAY - 3600,
      'How should I handle JWT refresh tokens?', 'Rotate refresh tokens on every use.'),
  )
  writeFile(
    projects,
    '-home-u-beta/bbbbbbbb-0000-4000-8000-000000000002.jsonl',
    transcript('bbbbbbbb-0000-4000-8000-000000000002', '/home/u/beta', NOW - 40 * DAY,
      'Configure nginx caching for static assets', 'Use proxy_cache_path for the refresh.') +
      '{this line is corrupted\n',
  )
  return { engine: new Engine({ home }), projects, alpha }
}

describe('sessions', () => {
  test('index, search with filters, show a chunk, status; sync and async agree', async () => {
    const { engine, projects, alpha } = setup()
    const indexed = engine.sessionsIndex({ projectsDir: projects })
    assert.deepEqual([indexed.sessions, indexed.parsed, indexed.corrupt_lines], [2, 2, 1])
    assert.ok(indexed.skipped_records.progress >= 2)
    assert.ok(indexed.warnings.some((w) => /corrupt line/.test(w)))
    const again = await engine.sessionsIndexAsync({ projectsDir: projects })
    assert.deepEqual([again.parsed, again.unchanged, again.chunks], [0, 2, indexed.chunks])

    const found = engine.sessionsSearch('JWT refresh tokens', { now: NOW })
    const first = found.results[0]
    assert.equal(first.rank, 1)
    assert.equal(first.project, '/home/u/alpha')
    assert.equal(first.session_id, 'aaaaaaaa-0000-4000-8000-000000000001')
    assert.equal(first.session_path, alpha)
    assert.equal(first.age, '2 days ago')
    assert.match(first.id, /^[0-9a-f]{8}$/)
    assert.equal(first.messages[0].role, 'user')
    // The same answer but for its own timing (taken from the same call).
    const foundAsync = await engine.sessionsSearchAsync('JWT refresh tokens', { now: NOW })
    assert.deepEqual(foundAsync, { ...found, search_time_ms: foundAsync.search_time_ms })

    const recent = engine.sessionsSearch('refresh', { now: NOW, since: '1w', limit: 10 })
    assert.ok(recent.results.length > 0)
    assert.ok(recent.results.every((hit) => hit.time >= NOW - 7 * DAY))
    const beta = engine.sessionsSearch('refresh', { now: NOW, project: 'BETA', types: ['assistant'] })
    assert.deepEqual(beta.results.map((hit) => [hit.project, hit.kind]), [['/home/u/beta', 'assistant']])
    // `*`: every project.
    const every = engine.sessionsSearch('refresh', { now: NOW, project: '*', limit: 10 })
    assert.deepEqual([...new Set(every.results.map((hit) => hit.project))].sort(), ['/home/u/alpha', '/home/u/beta'])
    const nowhere = engine.sessionsSearch('refresh', { project: 'nowhere' })
    assert.deepEqual(nowhere.results, [])
    assert.ok(nowhere.warnings.includes('No sessions found for project nowhere'))

    const chunk = engine.sessionsChunk(first.id.slice(0, 5))
    assert.equal(chunk.content, first.content)
    assert.equal(chunk.full_id.slice(0, 8), first.id)
    assert.deepEqual(await engine.sessionsChunkAsync(first.id), chunk)
    assert.deepEqual(
      chunk.group.map((part) => part.kind).sort(),
      ['assistant', 'thinking', 'user'],
    )

    const status = engine.sessionsStatus()
    assert.equal(status.sessions, 2)
    assert.deepEqual(status.projects.map((p) => p.project), ['/home/u/alpha', '/home/u/beta'])
    assert.equal(status.chunks, indexed.chunks)
    assert.match(status.model, /^none/)
    assert.deepEqual((await engine.sessionsStatusAsync()).chunks_by_kind, status.chunks_by_kind)
  })

  test('bad requests are invalid_request errors, sync and async', async () => {
    const { engine, projects } = setup()
    engine.sessionsIndex({ projectsDir: projects })
    for (const [call, pattern] of [
      [(e) => e.sessionsSearch('   '), /Query required/],
      [(e) => e.sessionsSearch('x', { types: ['nonsense'] }), /unknown type/],
      [(e) => e.sessionsSearch('x', { since: 'yesterday' }), /since/],
      [(e) => e.sessionsSearch('x', { limit: 0 }), /limit/],
      [(e) => e.sessionsChunk('ffffffff'), /ffffffff/],
    ]) {
      assert.throws(() => call(engine), (err) => err instanceof CcSearchError &&
        err.code === 'invalid_request' && pattern.test(err.message))
    }
    await assert.rejects(engine.sessionsSearchAsync(''), (err) => err.code === 'invalid_request')
  })
})
