'use strict'

// grep.search from JavaScript: engine.grep / grepAsync and the generic call, on real
// temporary directories, under Node and Bun alike.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const { Engine, CcSearchError } = require('cc-search')
const { tempDir, makeProject, removeAll } = require('./helpers.js')

after(removeAll)

function tree() {
  return makeProject({
    'test.rtf': 'log message\nlogger info\nlog\ncatalog\n',
    'model.go': 'x := m.Table\nm.Tables()\ny := m.Table(1)\nm.TableName\n',
    'sub/deep.go': 'log in a subdirectory\n',
  })
}

function lines(result, dir = 0, file = 0) {
  return result.directories[dir].files[file].matches.map((m) => m.line)
}

describe('grep', () => {
  test('whole word: log matches two of four lines, in checkfor\'s shape', () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    assert.deepEqual(engine.grep('log', { dir: root, wholeWord: true }), {
      directories: [
        {
          dir: root,
          matches_found: 2,
          files: [
            {
              path: 'test.rtf',
              matches: [
                { line: 1, content: 'log message' },
                { line: 3, content: 'log' },
              ],
            },
          ],
          // sub/deep.go's match, which `recursive` would add.
          below: { matches: 1, files: 1 },
        },
      ],
    })
  })

  test('exclude counts what it drops; the counts can be hidden', () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    const result = engine.grep('m.Table', { dir: [root], exclude: ['m.Tables', 'm.TableName'] })
    const directory = result.directories[0]
    assert.equal(directory.matches_found, 2)
    assert.equal(directory.original_matches, 4)
    assert.equal(directory.filtered_matches, 2)
    assert.deepEqual(lines(result), [1, 3])
    const hidden = engine.grep('m.Table', { dir: root, exclude: 'm.Tables', hideFilterStats: true })
    assert.equal('original_matches' in hidden.directories[0], false)
    const plain = engine.grep('m.Table', { dir: root })
    assert.equal('filtered_matches' in plain.directories[0], false)
    assert.equal(plain.directories[0].matches_found, 4)
  })

  test('case-insensitive search and exclude, ext, context', () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    const result = engine.grep('M.TABLE', {
      dir: root,
      ext: 'go',
      exclude: ['m.tables', 'M.TABLENAME'],
      caseInsensitive: true,
      context: 1,
    })
    assert.deepEqual(result.directories[0].files, [
      {
        path: 'model.go',
        matches: [
          { line: 1, content: 'x := m.Table', context_after: ['m.Tables()'] },
          { line: 3, content: 'y := m.Table(1)', context_before: ['m.Tables()'], context_after: ['m.TableName'] },
        ],
      },
    ])
  })

  test('directories in order; recursive reads subdirectories', () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    const other = makeProject({ 'notes.txt': 'log\n' })
    const flat = engine.grep('log', { dir: [other, root], wholeWord: true })
    assert.deepEqual(flat.directories.map((d) => d.dir), [other, root])
    assert.deepEqual(flat.directories[1].files.map((f) => f.path), ['test.rtf'])
    const deep = engine.grep('log', { dir: root, wholeWord: true, recursive: true })
    assert.deepEqual(deep.directories[0].files.map((f) => f.path), ['sub/deep.go', 'test.rtf'])
  })

  test('without recursive, below counts what is in subdirectories; a file as dir is searched', () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    const flat = engine.grep('log', { dir: root, wholeWord: true })
    assert.deepEqual(flat.directories[0].below, { matches: 1, files: 1 })
    const deep = engine.grep('log', { dir: root, wholeWord: true, recursive: true })
    assert.equal(deep.directories[0].below, undefined)
    assert.equal(deep.directories[0].matches_found, flat.directories[0].matches_found + 1)
    const file = path.join(root, 'sub', 'deep.go')
    const one = engine.grep('log', { dir: file })
    assert.equal(one.directories[0].dir, file)
    assert.deepEqual(one.directories[0].files, [
      { path: 'deep.go', matches: [{ line: 1, content: 'log in a subdirectory' }] },
    ])
  })

  test('regex, maxMatches and maxTokens', () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    assert.deepEqual(lines(engine.grep('^log\\b', { dir: root, regex: true })), [1, 3])
    const capped = engine.grep('log', { dir: root, maxMatches: 1 })
    assert.equal(capped.truncated, true)
    assert.deepEqual(capped.directories[0].files, [
      { path: 'test.rtf', matches: [{ line: 1, content: 'log message' }] },
    ])
    const budget = Math.floor((root.length + 190) / 4)
    const small = engine.grep('log', { dir: root, maxTokens: budget })
    assert.equal(small.truncated, true)
    assert.equal(small.directories[0].matches_found, 4)
    const shown = small.directories[0].files[0].matches.length
    assert.ok(shown > 0 && shown < 4, `${shown} matches`)
    assert.ok(JSON.stringify(small).length <= budget * 4)
  })

  test('a missing directory is reported, the others searched; unreadable files warn', () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    fs.symlinkSync(path.join(root, 'gone.txt'), path.join(root, 'broken.txt'))
    const missing = path.join(root, 'missing')
    const result = engine.grep('log', { dir: [missing, root] })
    assert.match(result.directories[0].error, /No such file/)
    assert.deepEqual(result.directories[0].files, [])
    assert.equal(result.directories[1].matches_found, 4)
    assert.equal('error' in result.directories[1], false)
    assert.equal(result.warnings.length, 1)
    assert.match(result.warnings[0], /broken\.txt/)
  })

  test('without dir: the project directory', () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    const saved = process.env.CLAUDE_PROJECT_DIR
    process.env.CLAUDE_PROJECT_DIR = root
    try {
      const result = engine.grep('catalog')
      assert.equal(result.directories[0].dir, root)
      assert.equal(result.directories[0].files[0].path, 'test.rtf')
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_PROJECT_DIR
      else process.env.CLAUDE_PROJECT_DIR = saved
    }
  })

  test('async and generic forms agree with the sync one', async () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    const sync = engine.grep('log', { dir: root, context: 1 })
    const pending = engine.grepAsync('log', { dir: root, context: 1 })
    assert.ok(pending instanceof Promise)
    assert.deepEqual(await pending, sync)
    assert.deepEqual(engine.call('grep.search', { search: 'log', dir: root, context: 1 }), sync)
    assert.deepEqual(await engine.callAsync('grep.search', { search: 'log', dir: [root], context: 1 }), sync)
  })

  test('bad input is a CcSearchError with code invalid_request', async () => {
    const engine = new Engine({ home: tempDir() })
    const root = tree()
    const cases = [
      [() => engine.grep('', { dir: root }), /must not be empty/],
      [() => engine.grep('(', { dir: root, regex: true }), /regular expression/],
      [() => engine.grep('x', { dir: root, maxMatches: 0 }), /max_matches/],
      [() => engine.grep('x', { dir: root, colour: true }), /unknown field `colour`/],
      [() => engine.grep(undefined, { dir: root }), /missing field `search`/],
    ]
    for (const [fn, message] of cases) {
      assert.throws(fn, (err) => {
        assert.ok(err instanceof CcSearchError)
        assert.equal(err.code, 'invalid_request')
        assert.match(err.message, message)
        return true
      })
    }
    await assert.rejects(engine.grepAsync('', { dir: root }), (err) => err.code === 'invalid_request')
  })
})
