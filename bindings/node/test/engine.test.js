'use strict'

// Opening an engine, the module's plain functions, configuration warnings, and the
// CommonJS and ES module entry points.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const ccSearch = require('cc-search')
const { Engine, CcSearchError, ERROR_CODES, VERSION, version, operations } = ccSearch
const { tempDir, sampleProject, removeAll } = require('./helpers.js')

after(removeAll)

// Collect the process warnings emitted while `fn` runs (they arrive on the next tick).
async function warningsDuring(fn) {
  const seen = []
  const listener = (warning) => seen.push(warning)
  process.on('warning', listener)
  try {
    fn()
    await new Promise((resolve) => setTimeout(resolve, 20))
  } finally {
    process.off('warning', listener)
  }
  return seen.filter((w) => w.name === 'CcSearchWarning')
}

describe('module', () => {
  test('version() is the package version', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'))
    assert.equal(version(), pkg.version)
    assert.equal(VERSION, pkg.version)
    assert.match(version(), /^\d+\.\d+\.\d+$/)
  })

  test('ERROR_CODES lists the core error codes', () => {
    assert.deepEqual([...ERROR_CODES], [
      'invalid_request',
      'unknown_operation',
      'io',
      'database',
      'internal',
      'cancelled',
    ])
    assert.ok(Object.isFrozen(ERROR_CODES))
  })

  test('operations() describes files.refresh and files.suggest with schemas', () => {
    const ops = operations()
    const names = ops.map((op) => op.name)
    assert.ok(names.includes('files.refresh'), names.join(','))
    assert.ok(names.includes('files.suggest'), names.join(','))
    const suggest = ops.find((op) => op.name === 'files.suggest')
    assert.equal(typeof suggest.summary, 'string')
    assert.ok(suggest.summary.length > 0)
    assert.deepEqual(Object.keys(suggest.request.properties).sort(), [
      'budget_ms',
      'limit',
      'project_dir',
      'query',
      'within',
    ])
    assert.ok('paths' in suggest.response.properties)
    const refresh = ops.find((op) => op.name === 'files.refresh')
    assert.deepEqual(Object.keys(refresh.request.properties).sort(), [
      'claude_dir',
      'exclude',
      'full',
      'max_depth',
      'max_files',
      'now',
      'project_dir',
      'root',
    ])
  })

  test('the native module carries the same surface', () => {
    const native = require('../native.js')
    assert.equal(native.version(), VERSION)
    assert.deepEqual(native.errorCodes(), [...ERROR_CODES])
    assert.deepEqual(JSON.parse(native.operations()), operations())
    assert.equal(typeof native.Engine, 'function')
  })

  test('import() gives the same objects as require()', async () => {
    const esm = await import('cc-search')
    assert.equal(esm.Engine, Engine)
    assert.equal(esm.CcSearchError, CcSearchError)
    assert.equal(esm.version(), VERSION)
    assert.equal(esm.default, ccSearch)
  })
})

describe('Engine', () => {
  test('home is the given data root', () => {
    const home = tempDir()
    const engine = new Engine({ home })
    assert.equal(engine.home, home)
    assert.deepEqual(engine.warnings, [])
  })

  test('a relative home is made absolute', () => {
    const engine = new Engine({ home: 'relative-home-dir' })
    assert.equal(engine.home, path.resolve('relative-home-dir'))
    assert.ok(!fs.existsSync('relative-home-dir'), 'opening must not create the data root')
  })

  test('CC_SEARCH_HOME set in process.env is the default home', () => {
    const home = tempDir()
    const saved = process.env.CC_SEARCH_HOME
    process.env.CC_SEARCH_HOME = home
    try {
      assert.equal(new Engine().home, home)
      assert.equal(new Engine({}).home, home)
      const other = tempDir()
      assert.equal(new Engine({ home: other }).home, other, 'an explicit home wins')
    } finally {
      if (saved === undefined) delete process.env.CC_SEARCH_HOME
      else process.env.CC_SEARCH_HOME = saved
    }
  })

  test('the index lives in home: a second engine on it sees the files', () => {
    const home = tempDir()
    const project = sampleProject()
    new Engine({ home }).filesRefresh({ root: project })
    assert.ok(fs.existsSync(path.join(home, 'files.db')))
    const again = new Engine({ home })
    // Already indexed: no "indexed on the fly" warning, and the paths are there.
    assert.deepEqual(again.filesSuggest('readme', { projectDir: project }), {
      paths: ['README.md'],
      warnings: [],
    })
  })

  test('bad options are invalid_request', () => {
    const cases = [
      'a string',
      42,
      [tempDir()],
      { home: 42 },
      { home: tempDir(), configPath: {} },
      { home: tempDir(), config_path: 'x.toml' },
      { hom: tempDir() },
    ]
    for (const options of cases) {
      assert.throws(
        () => new Engine(options),
        (err) => err instanceof CcSearchError && err.code === 'invalid_request',
        JSON.stringify(options),
      )
    }
  })
})

describe('configuration', () => {
  test('an invalid config.toml gives defaults and exactly one warning, shown once', async () => {
    const home = tempDir()
    fs.writeFileSync(path.join(home, 'config.toml'), '[weights\ngit_recency = "lots"\n')
    let engine
    const emitted = await warningsDuring(() => {
      engine = new Engine({ home })
    })
    assert.equal(engine.warnings.length, 1, engine.warnings.join('\n'))
    assert.match(engine.warnings[0], /config\.toml/)
    assert.equal(emitted.length, 1)
    assert.equal(emitted[0].message, engine.warnings[0])
    assert.equal(emitted[0].code, 'CC_SEARCH_CONFIG')

    // The defaults apply: the engine works.
    const project = sampleProject()
    assert.equal(engine.filesRefresh({ root: project }).files, 3)
    assert.deepEqual(engine.filesSuggest('Button', { projectDir: project }).paths, [
      'src/components/Button.tsx',
    ])

    // Shown once: neither calls nor another engine on the same file show it again.
    const again = await warningsDuring(() => {
      engine.filesSuggest('readme', { projectDir: project })
      const second = new Engine({ home })
      assert.equal(second.warnings.length, 1)
    })
    assert.equal(again.length, 0)
  })

  test('an unknown key is a warning too, not a failure', async () => {
    const home = tempDir()
    fs.writeFileSync(path.join(home, 'config.toml'), '[index]\nno_such_key = 1\n')
    const engine = new Engine({ home })
    assert.equal(engine.warnings.length, 1)
    assert.match(engine.warnings[0], /no_such_key/)
  })

  test('configPath points at another file', () => {
    const dir = tempDir()
    const configPath = path.join(dir, 'custom.toml')
    fs.writeFileSync(configPath, 'this is not toml = = =\n')
    const engine = new Engine({ home: tempDir(), configPath })
    assert.equal(engine.warnings.length, 1)
    assert.ok(engine.warnings[0].includes('custom.toml'), engine.warnings[0])
  })

  test('a valid config.toml gives no warning and is applied', () => {
    const home = tempDir()
    fs.writeFileSync(path.join(home, 'config.toml'), '[index.exclude]\npatterns = ["*.md"]\n')
    const engine = new Engine({ home })
    assert.deepEqual(engine.warnings, [])
    const project = sampleProject()
    assert.equal(engine.filesRefresh({ root: project }).files, 2)
    assert.deepEqual(engine.filesSuggest('readme', { projectDir: project }).paths, [])
  })

  test('a missing config file gives no warning', () => {
    const engine = new Engine({ home: tempDir(), configPath: path.join(tempDir(), 'absent.toml') })
    assert.deepEqual(engine.warnings, [])
  })
})
