'use strict'

// The code symbol index from JavaScript: engine.code* / code*Async and the generic call,
// on real temporary repositories, under Node and Bun alike.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')

const { Engine, CcSearchError, agentAnswer } = require('cc-search')
const { tempDir, makeProject, removeAll } = require('./helpers.js')

after(removeAll)

function repo() {
  return makeProject({
    '.gitignore': 'out/\n',
    'src/service.ts':
      "import { helper } from './helpers';\n\n/** Loads users. More. */\nexport class UserService {\n  getUserById(id: number): User {\n    return helper(id);\n  }\n}\n",
    'src/helpers.ts': 'export function helper(id: number) { return id; }\n',
    'app/parser.py': 'class HTMLParser:\n    """Parses HTML."""\n\n    def feed(self, data: str) -> None:\n        pass\n',
    'out/gen.ts': 'export function generated() {}\n',
    'README.md': '# Title\n\nIntro.\n',
  })
}

describe('code', () => {
  test('index, search, file symbols, detail, references, dependencies', () => {
    const engine = new Engine({ home: tempDir() })
    const root = repo()
    const indexed = engine.codeIndex({ path: root })
    assert.equal(indexed.status, 'ok')
    assert.equal(indexed.stats.files, 4)
    assert.equal(indexed.new, 4)
    const again = engine.codeIndex({ path: root })
    assert.deepEqual([again.new, again.changed, again.unchanged], [0, 0, 4])

    const found = engine.codeSearch('user', { path: root })
    const names = found.hits.map((h) => h.name)
    assert.ok(names.includes('getUserById') && names.includes('UserService'), String(names))
    assert.ok(found.hits.every((h) => h.path === 'src/service.ts'))
    // What an agent reads of it: short keys, the one file on each hit.
    const agent = JSON.parse(agentAnswer('code.search_symbols', found))
    assert.ok(agent.hits.every((h) => h.f === 'src/service.ts' && h.n !== undefined), JSON.stringify(agent))
    assert.equal(agent._f, undefined)
    assert.deepEqual(engine.codeSearch('html', { path: root }).hits.map((h) => h.name), ['HTMLParser'])
    assert.deepEqual(engine.codeSearch('generated', { path: root }).hits, [])
    assert.deepEqual(engine.codeSearch('user', { path: root, kind: 'method' }).hits.map((h) => h.name), ['getUserById'])

    const symbols = engine.codeFileSymbols('src/service.ts', { path: root })
    const cls = symbols.symbols[0]
    assert.deepEqual([cls.name, cls.kind, cls.start_line, cls.end_line, cls.doc], ['UserService', 'class', 4, 8, 'Loads users.'])
    const method = cls.children[0]
    assert.equal(method.signature, 'getUserById(id:number):User')

    const detail = engine.codeSymbol(method.id, { path: root })
    assert.equal(detail.signature, 'getUserById(id: number): User')
    assert.equal(detail.parent.name, 'UserService')
    const target = detail.calls[0].id
    assert.equal(engine.codeSymbol(target, { path: root }).path, 'src/helpers.ts')
    const refs = engine.codeReferences(target, { path: root })
    assert.ok(refs.references.some((r) => r.from_name === 'getUserById' && r.line === 6 && r.path === 'src/service.ts'), JSON.stringify(refs))
    // Paged: the total stays, the first `offset` are skipped.
    assert.ok(refs.total >= 2 && refs.total === refs.references.length, JSON.stringify(refs))
    const rest = engine.codeReferences(target, { path: root, offset: 1 })
    assert.deepEqual([rest.total, rest.offset, rest.references], [refs.total, 1, refs.references.slice(1)])
    const deps = engine.codeDependencies(method.id, { path: root })
    assert.deepEqual(deps.dependencies.find((d) => d.to_name === 'helper'), { to_name: 'helper', kind: 'call', to_id: target })

    assert.deepEqual(engine.codeOverview({ path: root }).languages, { markdown: 1, python: 1, typescript: 2 })
    assert.equal(engine.codeStatus({ path: root }).indexed, true)
    // The generic call gives the same result.
    assert.deepEqual(engine.call('code.search_symbols', { path: root, query: 'html' }), engine.codeSearch('html', { path: root }))
  })

  test('an unknown value\'s method is ambiguous; a function passed by name is a value reference', () => {
    const engine = new Engine({ home: tempDir() })
    const root = makeProject({
      'src/pets.ts': 'export class Cat { speak() {} }\nexport class Dog { speak() {} }\n',
      'src/app.ts':
        "import { Cat } from './pets';\nexport function talk(pet) { pet.speak(); }\nexport function all(pets) { return pets.map(talk); }\nexport function one() { const c: Cat = new Cat(); c.speak(); }\n",
    })
    engine.codeIndex({ path: root })
    const syms = engine.codeFileSymbols('src/app.ts', { path: root }).symbols
    const id = (name) => syms.find((s) => s.name === name).id
    const speak = engine.codeDependencies(id('talk'), { path: root }).dependencies.find((d) => d.to_name === 'speak')
    assert.equal(speak.ambiguous, true, JSON.stringify(speak))
    assert.equal(speak.to_id, undefined)
    assert.equal(speak.candidates.length, 2)
    // `c: Cat` is declared: `c.speak()` is Cat's.
    const cat = engine.codeFileSymbols('src/pets.ts', { path: root }).symbols.find((s) => s.name === 'Cat')
    const typed = engine.codeDependencies(id('one'), { path: root }).dependencies.find((d) => d.to_name === 'speak')
    assert.equal(typed.to_id, cat.children[0].id, JSON.stringify(typed))
    // `pets.map(talk)`: talk used as a value.
    const refs = engine.codeReferences(id('talk'), { path: root }).references
    assert.deepEqual(refs.map((r) => [r.from_name, r.kind]), [['all', 'value']])
  })

  test('async variants, update, budgets, repos and delete', async () => {
    const engine = new Engine({ home: tempDir() })
    const root = repo()
    await engine.codeIndexAsync({ path: root })
    require('node:fs').writeFileSync(path.join(root, 'src/helpers.ts'), 'export function renamedHelper() {}\n')
    assert.deepEqual((await engine.codeStatusAsync({ path: root })).stale_files, ['src/helpers.ts'])
    const updated = await engine.codeUpdateAsync(['src/helpers.ts'], { path: root })
    assert.equal(updated.changed, 1)
    assert.deepEqual((await engine.codeSearchAsync('renamed', { path: root })).hits.map((h) => h.name), ['renamedHelper'])
    for (let i = 0; i < 30; i++) {
      require('node:fs').writeFileSync(path.join(root, `m${String(i).padStart(2, '0')}.py`), `def item_${i}():\n    '''Item ${i}.'''\n`)
    }
    await engine.codeIndexAsync({ path: root })
    const all = engine.codeSearch('item', { path: root, limit: 100 })
    assert.equal(all.hits.length, 30)
    const text = agentAnswer('code.search_symbols', all, 100)
    const cut = JSON.parse(text)
    assert.equal(cut.truncated, true)
    assert.ok(cut.hits.length > 0 && cut.hits.length < 30)
    assert.ok(text.length <= 400)
    const symbolAsync = await engine.codeSymbolAsync(cut.hits[0].id, { path: root })
    assert.equal(symbolAsync.kind, 'fn')
    assert.deepEqual((await engine.codeReposAsync()).map((r) => r.path), [root])
    assert.deepEqual(engine.codeRepos().map((r) => r.path), [root])
    assert.deepEqual(engine.codeDelete([root]).deleted, [root])
    assert.deepEqual(await engine.codeReposAsync(), [])
  })

  test('the canonical definition first; qualified names resolve', () => {
    const root = makeProject({
      'src/pkg/config/__init__.py': 'class Config:\n    pass\n',
      'testing/test_config.py': 'def test_it():\n    class Config:\n        pass\n',
      'src/pkg/fixtures.py': 'class FixtureDef:\n    def execute(self):\n        pass\n',
      'src/pkg/runner.py': 'def execute(item):\n    return item\n',
    })
    const engine = new Engine({ home: tempDir() })
    engine.codeIndex({ path: root })
    assert.equal(engine.codeSearch('Config', { path: root }).hits[0].path, 'src/pkg/config/__init__.py')
    for (const query of ['FixtureDef.execute', 'src/pkg/fixtures.py:execute', 'pkg.fixtures.execute']) {
      const top = engine.codeSearch(query, { path: root }).hits[0]
      assert.deepEqual([top.name, top.path], ['execute', 'src/pkg/fixtures.py'], query)
    }
  })

  test('symbol detail within a token budget', async () => {
    const engine = new Engine({ home: tempDir() })
    const files = { 'lib/target.py': 'def target(value: int) -> int:\n    """Target. Returns value."""\n    return value\n' }
    for (let i = 0; i < 40; i++) {
      const n = String(i).padStart(2, '0')
      files[`lib/caller_${n}.py`] = `from lib.target import target\n\n\ndef caller_${n}():\n    return target(${i})\n`
    }
    const root = makeProject(files)
    engine.codeIndex({ path: root })
    const target = engine.codeSearch('target', { path: root, kind: 'fn' }).hits[0].id
    const full = engine.codeSymbol(target, { path: root })
    // Each caller imports and calls it.
    assert.equal(full.called_by.filter((r) => r.kind === 'call').length, 40)
    assert.equal(full.truncated, undefined)
    const text = agentAnswer('code.get_symbol_detail', full, 400)
    const cut = JSON.parse(text)
    assert.equal(cut.truncated, true)
    assert.ok(cut.called_by.length > 0 && cut.called_by.length < 80, JSON.stringify(cut))
    assert.ok(text.length <= 1600)
    // The first callers, in order, each pointing at its file in `_f`.
    cut.called_by.forEach((shown, i) => {
      assert.deepEqual([shown.line, cut._f[shown.fi]], [full.called_by[i].line, full.called_by[i].path])
    })
    assert.deepEqual(await engine.codeSymbolAsync(target, { path: root }), full)
    assert.deepEqual(engine.call('code.get_symbol_detail', { path: root, id: target }), full)
    // A budget is not a field of the operation: refused, not ignored.
    assert.throws(() => engine.call('code.get_symbol_detail', { path: root, id: target, max_tokens: 400 }), { code: 'invalid_request' })
  })

  test('errors carry codes', async () => {
    const engine = new Engine({ home: tempDir() })
    const root = repo()
    assert.throws(() => engine.codeIndex({ path: path.join(root, 'missing') }), (err) => err instanceof CcSearchError && err.code === 'io')
    engine.codeIndex({ path: root })
    assert.throws(() => engine.codeSymbol(987654, { path: root }), (err) => err.code === 'invalid_request' && /987654/.test(err.message))
    await assert.rejects(engine.codeSearchAsync('', { path: root }), (err) => err.code === 'invalid_request')
    assert.throws(() => engine.codeSearch('x', { path: root, kind: 'widget' }), (err) => err.code === 'invalid_request')
    assert.throws(() => engine.codeDelete(), (err) => err.code === 'invalid_request')
  })

  test('defaults to CLAUDE_PROJECT_DIR', () => {
    const engine = new Engine({ home: tempDir() })
    const root = repo()
    const before = process.env.CLAUDE_PROJECT_DIR
    process.env.CLAUDE_PROJECT_DIR = root
    try {
      assert.equal(engine.codeIndex().stats.files, 4)
      assert.deepEqual(engine.codeSearch('html').hits.map((h) => h.name), ['HTMLParser'])
    } finally {
      if (before === undefined) delete process.env.CLAUDE_PROJECT_DIR
      else process.env.CLAUDE_PROJECT_DIR = before
    }
  })

  test('binary files are warnings', () => {
    const engine = new Engine({ home: tempDir() })
    const root = makeProject({ 'bin.rs': Buffer.from([0x66, 0x6e, 0x00, 0xff]), 'ok.rs': 'fn fine() {}\n' })
    const out = engine.codeIndex({ path: root })
    assert.ok(out.warnings.some((w) => w.includes('bin.rs') && w.includes('binary')), JSON.stringify(out))
    assert.deepEqual(engine.codeSearch('fine', { path: root }).hits.map((h) => h.name), ['fine'])
  })
})
