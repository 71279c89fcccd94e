'use strict'

// docs.* and notes.* from JavaScript: engine.docsIndex / docsQuery / notesIndex /
// notesQuery (and their Async forms) on real markdown files in temporary projects and a
// git repository, with the real all-MiniLM-L6-v2, under Node and Bun alike.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const { Engine, CcSearchError } = require('cc-search')
const { tempDir, makeProject, writeFile, removeAll, modelDir } = require('./helpers.js')

after(removeAll)

const SKIP = Boolean(process.env.CC_SEARCH_TEST_NO_MODEL)

const GUIDE =
  '# Guide\n\nHow the matcher works.\n\n' +
  '## Matching\n\nThe matcher pairs riders with drivers by distance and rating.\n\n' +
  '## Errors\n\nErrors are retried with exponential backoff.\n'

function engineWithModel() {
  const home = tempDir()
  fs.writeFileSync(
    path.join(home, 'config.toml'),
    `[embed]\nmodel_dir = ${JSON.stringify(modelDir())}\n`,
  )
  return new Engine({ home })
}

function git(root, ...args) {
  execFileSync('git', ['-C', root, ...args], {
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_SYSTEM: '/dev/null',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
    stdio: 'ignore',
  })
}

describe('docs and notes', { skip: SKIP && 'CC_SEARCH_TEST_NO_MODEL is set' }, () => {
  test('index, then query by meaning; a second run skips unchanged files', async () => {
    const engine = engineWithModel()
    const project = makeProject({
      'docs/guide.md': GUIDE,
      'apps/web/docs/ui.md': '## Buttons\n\nPrimary buttons are blue.\n',
    })
    const indexed = engine.docsIndex({ projectDir: project })
    assert.equal(indexed.project, path.basename(project))
    assert.deepEqual([indexed.files, indexed.indexed, indexed.sections_written], [2, 2, 4])
    assert.equal(indexed.pending_vectors, 0)
    const found = await engine.docsQueryAsync('how are riders paired with drivers', {
      projectDir: project,
    })
    assert.equal(found.mode, 'hybrid')
    assert.deepEqual([found.results[0].file, found.results[0].section], ['docs/guide.md', 'Matching'])
    assert.ok(found.results[0].matched_by.includes('vector'))
    const again = await engine.docsIndexAsync({ projectDir: project })
    assert.deepEqual([again.unchanged, again.embedded], [2, 0])
    const keyword = engine.docsQuery('primary buttons', { projectDir: project, mode: 'keyword', limit: 1 })
    assert.deepEqual(
      keyword.results.map((h) => [h.file, h.section]),
      [['apps/web/docs/ui.md', 'Buttons']],
    )
  })

  test('queries follow the branch; allBranches folds identical sections', () => {
    const engine = engineWithModel()
    const project = makeProject({ 'docs/guide.md': GUIDE })
    git(project, 'init', '-q', '-b', 'main')
    git(project, 'add', '-A')
    git(project, 'commit', '-qm', 'docs')
    engine.docsIndex({ projectDir: project })
    git(project, 'checkout', '-q', '-b', 'feature')
    writeFile(project, 'docs/hooks.md', '## Webhooks\n\nWebhooks deliver trip events.\n')
    const feature = engine.docsIndex({ projectDir: project })
    assert.deepEqual([feature.branch, feature.embedded], ['feature', 1])
    const onMain = engine.docsQuery('webhooks trip events', { projectDir: project, branch: 'main' })
    assert.ok(onMain.results.every((h) => h.branch === 'main' && h.file !== 'docs/hooks.md'))
    const all = engine.docsQuery('riders drivers', { projectDir: project, allBranches: true })
    const top = all.results[0]
    assert.deepEqual([top.branch, ...top.also_on].sort(), ['feature', 'main'])
  })

  test('notes: dated by folder, filtered by date and file name', async () => {
    const engine = engineWithModel()
    const project = makeProject({
      'sessions/2026_02_05_AUTH/IMPLEMENTATION.md': '## Plan\n\nRotate refresh tokens.\n',
      'sessions/2026_03_10_CACHE/NOTES.md': '## Findings\n\nRefresh tokens cached in redis.\n',
    })
    assert.equal((await engine.notesIndexAsync({ projectDir: project })).files, 2)
    const later = engine.notesQuery('refresh tokens', { projectDir: project, after: '2026-03-01' })
    assert.deepEqual(later.results.map((h) => h.session_date), ['2026-03-10'])
    const impl = await engine.notesQueryAsync('refresh tokens', {
      projectDir: project,
      file: 'IMPLEMENTATION',
    })
    assert.deepEqual(impl.results.map((h) => h.session_path), ['sessions/2026_02_05_AUTH'])
    assert.throws(
      () => engine.notesQuery('x', { projectDir: project, after: 'soon' }),
      (err) => err instanceof CcSearchError && err.code === 'invalid_request',
    )
  })

  test('bad input: empty query, bad glob, unknown option', () => {
    const engine = engineWithModel()
    const project = makeProject({ 'docs/a.md': '## A\n\ntext\n' })
    assert.throws(
      () => engine.docsQuery('  ', { projectDir: project }),
      (err) => err instanceof CcSearchError && err.code === 'invalid_request',
    )
    assert.throws(
      () => engine.docsIndex({ projectDir: project, globs: ['docs/[a.md'] }),
      (err) => err instanceof CcSearchError && err.code === 'invalid_request' && /glob/.test(err.message),
    )
    assert.throws(
      () => engine.docsQuery('x', { projectDir: project, colour: true }),
      (err) => err instanceof CcSearchError && err.code === 'invalid_request',
    )
    const unindexed = engine.docsQuery('text', { projectDir: project })
    assert.deepEqual(unindexed.results, [])
    assert.ok(unindexed.warnings.some((w) => w.includes('cc-search docs index')))
  })
})

describe('docs and notes without the model (keyword only)', () => {
  test('an unborn branch has its name, a branch never indexed is reported, notes ignore branches', () => {
    const home = tempDir()
    fs.writeFileSync(path.join(home, 'config.toml'), '[embed]\nmodel_dir = "/nonexistent/model"\n')
    const engine = new Engine({ home })
    const project = makeProject({
      'docs/guide.md': GUIDE,
      'sessions/2026_02_05_AUTH/NOTES.md': '## Findings\n\nThe kiwi token rotates.\n',
    })
    git(project, 'init', '-q', '-b', 'trunk')
    const docs = engine.docsIndex({ projectDir: project, lockWaitSecs: 1 })
    assert.deepEqual([docs.branch, docs.indexed, docs.pending_vectors], ['trunk', 1, 3])
    const here = engine.docsQuery('exponential backoff', { projectDir: project })
    assert.deepEqual([here.mode, here.branch, here.results[0].section], ['keyword', 'trunk', 'Errors'])
    const elsewhere = engine.docsQuery('exponential backoff', { projectDir: project, branch: 'gone' })
    assert.deepEqual(elsewhere.results, [])
    assert.match(elsewhere.warnings.join('\n'), /no docs indexed on branch gone of project .* \(indexed: trunk\)/)

    const notes = engine.notesIndex({ projectDir: project, lockWaitSecs: 1 })
    assert.deepEqual([notes.branch, notes.indexed], ['', 1])
    git(project, 'checkout', '-q', '-b', 'other')
    const again = engine.notesIndex({ projectDir: project })
    assert.deepEqual([again.unchanged, again.indexed], [1, 0], 'nothing re-chunked on another branch')
    assert.equal(engine.notesQuery('kiwi token', { projectDir: project }).results.length, 1)
    assert.throws(
      () => engine.notesQuery('kiwi', { projectDir: project, after: '2026-02-31' }),
      (err) =>
        err instanceof CcSearchError &&
        err.code === 'invalid_request' &&
        /February 2026 has 28 days/.test(err.message),
    )
  })
})

describe('callAsync: progress and an AbortSignal', { skip: SKIP }, () => {
  test('progress arrives on the JS thread, an abort stops the run at once and keeps what it wrote', async () => {
    const engine = engineWithModel()
    const project = tempDir()
    for (let f = 0; f < 10; f++) {
      let text = `# Guide ${f}\n\n`
      for (let s = 0; s < 40; s++) {
        text += `## Topic ${f}-${s}\n\nHow part ${s} of guide ${f} sets up widget ${f * 100 + s}.\n\n`
      }
      writeFile(project, `docs/g${f}.md`, text)
    }
    const controller = new AbortController()
    const steps = []
    let abortedAt = null
    const run = engine.callAsync('docs.index', { project_dir: project }, {
      signal: controller.signal,
      onProgress: (stage, done, total) => {
        steps.push([stage, done, total])
        if (stage === 'embed' && done > 0 && abortedAt === null) {
          abortedAt = Date.now()
          controller.abort()
        }
      },
    })
    await assert.rejects(run, (err) => err instanceof CcSearchError && err.code === 'cancelled')
    assert.ok(abortedAt !== null, JSON.stringify(steps))
    assert.ok(Date.now() - abortedAt < 1000, `stopped ${Date.now() - abortedAt} ms after the abort`)
    assert.deepEqual(steps[0], ['parse', 0, 10])
    // The sections and the vectors written stay; the next run embeds only the rest.
    const again = await engine.callAsync('docs.index', { project_dir: project })
    assert.equal(again.unchanged, 10)
    assert.equal(again.pending_vectors, 0)
    assert.ok(again.embedded > 0 && again.embedded < 400, JSON.stringify(again))
    // A signal aborted before the call stops it before it writes anything.
    await assert.rejects(
      engine.callAsync('docs.index', { project_dir: tempDir() }, { signal: AbortSignal.abort() }),
      (err) => err.code === 'cancelled',
    )
    await assert.rejects(
      engine.callAsync('docs.index', {}, { onProgress: 'no' }),
      (err) => err instanceof CcSearchError && err.code === 'invalid_request',
    )
  })

  test('the generated Async methods take signal and onProgress beside their own options', async () => {
    const engine = engineWithModel()
    const project = tempDir()
    for (let f = 0; f < 6; f++) {
      let text = `# Notes ${f}\n\n`
      for (let s = 0; s < 40; s++) {
        text += `## Step ${f}-${s}\n\nPart ${s} of note ${f} explains gadget ${f * 100 + s}.\n\n`
      }
      writeFile(project, `docs/n${f}.md`, text)
    }
    const controller = new AbortController()
    const stages = new Set()
    const run = engine.docsIndexAsync({
      projectDir: project,
      signal: controller.signal,
      onProgress: (stage, done) => {
        stages.add(stage)
        if (stage === 'embed' && done > 0) controller.abort()
      },
    })
    await assert.rejects(run, (err) => err instanceof CcSearchError && err.code === 'cancelled')
    assert.deepEqual([...stages].sort(), ['embed', 'parse'])
    // The operation's own options still reach it; a search by meaning says what is missing.
    const found = await engine.docsQueryAsync('gadget', { projectDir: project, limit: 2 })
    assert.ok(
      (found.warnings ?? []).some((w) => /have no vectors yet/.test(w) && /cc-search docs index/.test(w)),
      JSON.stringify(found.warnings),
    )
    const again = await engine.docsIndexAsync({ projectDir: project, onProgress: () => {} })
    assert.equal(again.unchanged, 6)
    assert.equal(again.pending_vectors, 0)
    await assert.rejects(
      engine.grepAsync('x', { dir: project, recursive: true, signal: AbortSignal.abort() }),
      (err) => err.code === 'cancelled',
    )
  })
})
