'use strict'

// The package's `cc-search` command (bin/cc-search.js), run as a real process by the
// runtime running the tests (Node or Bun): `install claude --mcp` in both scopes
// (idempotent, exact uninstall, another program's server refused), the installed
// commands started as Claude Code starts them, `install claude` for the hooks, `mcp`,
// and usage errors. HOME, CLAUDE_CONFIG_DIR and CC_SEARCH_HOME always point at temporary
// directories: the user's own ~/.claude.json is never read or written.

const { describe, test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const { VERSION } = require('cc-search')
const { tempDir, makeProject, removeAll } = require('./helpers.js')

after(removeAll)

const PACKAGE_DIR = path.resolve(__dirname, '..')
const BIN = path.join(PACKAGE_DIR, 'bin', 'cc-search.js')
const HOOKS = path.join(PACKAGE_DIR, 'hooks')
const TIMEOUT_MS = 60_000

/** `mcpServers` entry as `claude mcp add` writes it. */
function server(command, ...args) {
  return { type: 'stdio', command, args, env: {} }
}

/** JSON as the core writes a new file: two spaces and a final newline. */
function asWritten(value) {
  return `${JSON.stringify(value, null, 2)}\n`
}

/** A user: a temporary HOME and data root; `env` for the command. */
function user(extra = {}) {
  const home = tempDir('cc-search-user-')
  const env = { ...process.env, HOME: home, CC_SEARCH_HOME: path.join(home, 'data'), ...extra }
  for (const name of ['CLAUDE_CONFIG_DIR', 'CLAUDE_PROJECT_DIR']) {
    if (!(name in extra)) delete env[name]
  }
  return { home, state: path.join(home, '.claude.json'), env }
}

/** Run the bin with this runtime. */
function cli(args, { env, cwd, input } = {}) {
  const child = spawnSync(process.execPath, [BIN, ...args], {
    env,
    cwd,
    input,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
  })
  if (child.error) throw child.error
  return child
}

function ok(child) {
  assert.equal(child.status, 0, `exit ${child.status}\nstdout: ${child.stdout}\nstderr: ${child.stderr}`)
  assert.equal(child.stderr, '')
  return child.stdout
}

function mode(file) {
  return fs.statSync(file).mode & 0o777
}

function noBackups(dir) {
  const names = fs.readdirSync(dir)
  assert.deepEqual(
    names.filter((n) => n.includes('.bak') || n.endsWith('.tmp')),
    [],
    names.join(', '),
  )
}

function request(id, method, params) {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params })
}

/** Start `command args…` as Claude Code starts an MCP server and say hello. */
function initialize(command, args, { cwd, env }) {
  const input = `${request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} })}\n`
  const child = spawnSync(command, args, { cwd, env, input, encoding: 'utf8', timeout: TIMEOUT_MS })
  if (child.error) throw child.error
  assert.equal(child.status, 0, child.stderr)
  const reply = JSON.parse(child.stdout.trim().split('\n')[0])
  assert.equal(reply.id, 1)
  return reply.result
}

describe('install claude --mcp --user', () => {
  test('registers this runtime and this script, idempotently, and uninstalls exactly', () => {
    const u = user()
    const line = `${process.execPath} ${BIN} mcp`
    assert.equal(
      ok(cli(['install', 'claude', '--mcp'], { env: u.env })),
      `Installed cc-search's MCP server in ${u.state}\n  MCP server \`cc-search\` added: \`${line}\`\n`,
    )
    assert.equal(
      fs.readFileSync(u.state, 'utf8'),
      asWritten({ mcpServers: { 'cc-search': server(process.execPath, BIN, 'mcp') } }),
    )
    assert.equal(mode(u.state), 0o600)
    assert.ok(!fs.existsSync(path.join(u.home, '.claude')), '--mcp installs no hooks')

    const before = fs.statSync(u.state)
    for (const args of [['--mcp'], ['--mcp', '--user']]) {
      assert.equal(
        ok(cli(['install', 'claude', ...args], { env: u.env })),
        `${u.state}: cc-search's MCP server is already installed; nothing changed\n`,
      )
    }
    assert.equal(fs.statSync(u.state).mtimeMs, before.mtimeMs)

    // The command as Claude Code runs it starts the server.
    const entry = JSON.parse(fs.readFileSync(u.state, 'utf8')).mcpServers['cc-search']
    const result = initialize(entry.command, entry.args, { cwd: makeProject({ 'a.txt': 'a' }), env: u.env })
    assert.equal(result.serverInfo.name, 'cc-search')
    assert.equal(result.serverInfo.version, VERSION)

    assert.equal(
      ok(cli(['install', 'claude', '--mcp', '--uninstall'], { env: u.env })),
      `Removed cc-search's MCP server from ${u.state}\n  MCP server \`cc-search\` removed (\`${line}\`)\n`,
    )
    assert.deepEqual(JSON.parse(fs.readFileSync(u.state, 'utf8')), { mcpServers: {} })
    assert.equal(
      ok(cli(['install', 'claude', '--mcp', '--uninstall'], { env: u.env })),
      `${u.state}: cc-search's MCP server is not installed there; nothing changed\n`,
    )
    noBackups(u.home)
  })

  test('keeps everything else in ~/.claude.json and carries --home', () => {
    const u = user()
    const existing = {
      numStartups: 2,
      projects: { '/work/app': { hasTrustDialogAccepted: true } },
      mcpServers: { github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' } },
      userID: 'abc',
    }
    const original = JSON.stringify(existing, null, 2) // as Claude Code writes it
    fs.writeFileSync(u.state, original, { mode: 0o600 })
    const data = path.join(u.home, 'other-data')
    ok(cli(['--home', data, 'install', 'claude', '--mcp', '--json'], { env: u.env }))
    const expected = JSON.parse(original)
    expected.mcpServers['cc-search'] = server(process.execPath, BIN, '--home', data, 'mcp')
    assert.equal(fs.readFileSync(u.state, 'utf8'), JSON.stringify(expected, null, 2))
    assert.equal(mode(u.state), 0o600)

    const out = JSON.parse(ok(cli(['install', 'claude', '--mcp', '--uninstall', '--json'], { env: u.env })))
    assert.equal(out.changed, true)
    assert.equal(fs.readFileSync(u.state, 'utf8'), original)
    noBackups(u.home)
  })

  test('follows CLAUDE_CONFIG_DIR', () => {
    const config = path.join(tempDir(), 'claude-config')
    const u = user({ CLAUDE_CONFIG_DIR: config })
    const out = JSON.parse(ok(cli(['install', 'claude', '--mcp', '--json'], { env: u.env })))
    assert.deepEqual(out, {
      path: path.join(config, '.claude.json'),
      changed: true,
      changes: [`MCP server \`cc-search\` added: \`${process.execPath} ${BIN} mcp\``],
      warnings: [],
    })
    assert.ok(!fs.existsSync(u.state))
  })
})

describe('install claude --mcp --project', () => {
  test('writes a portable .mcp.json, idempotently, and deletes it on uninstall', () => {
    const u = user()
    const project = makeProject({ 'README.md': '# p\n' })
    const mcpJson = path.join(project, '.mcp.json')
    const out = ok(cli(['install', 'claude', '--mcp', '--project-dir', project], { env: u.env }))
    assert.ok(
      out.startsWith(
        `Installed cc-search's MCP server in ${mcpJson}\n  MCP server \`cc-search\` added: \`npx --no-install cc-search mcp\`\n`,
      ),
      out,
    )
    assert.equal(
      fs.readFileSync(mcpJson, 'utf8'),
      asWritten({ mcpServers: { 'cc-search': server('npx', '--no-install', 'cc-search', 'mcp') } }),
    )
    assert.ok(!fs.existsSync(u.state), "the user's state is not touched")

    // --project alone: $CLAUDE_PROJECT_DIR, else the current directory.
    const elsewhere = tempDir()
    for (const [cwd, env] of [
      [project, u.env],
      [elsewhere, { ...u.env, CLAUDE_PROJECT_DIR: project }],
    ]) {
      assert.equal(
        ok(cli(['install', 'claude', '--mcp', '--project'], { env, cwd })),
        `${mcpJson}: cc-search's MCP server is already installed; nothing changed\n`,
      )
    }
    assert.ok(!fs.existsSync(path.join(elsewhere, '.mcp.json')))

    // What a teammate's Claude Code starts after `npm install` (a linked package: the
    // node_modules layout npm makes for it).
    fs.mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true })
    fs.symlinkSync(PACKAGE_DIR, path.join(project, 'node_modules', 'cc-search'))
    fs.symlinkSync('../cc-search/bin/cc-search.js', path.join(project, 'node_modules', '.bin', 'cc-search'))
    const result = initialize('npx', ['--no-install', 'cc-search', 'mcp'], { cwd: project, env: u.env })
    assert.equal(result.serverInfo.name, 'cc-search')
    fs.rmSync(path.join(project, 'node_modules'), { recursive: true })

    assert.equal(
      ok(cli(['install', 'claude', '--mcp', '--project', '--uninstall'], { env: u.env, cwd: project })),
      `Removed cc-search's MCP server from ${mcpJson}\n` +
        '  MCP server `cc-search` removed (`npx --no-install cc-search mcp`)\n' +
        '  .mcp.json removed: nothing else was in it\n',
    )
    assert.deepEqual(fs.readdirSync(project), ['README.md'])
  })

  test('keeps other servers and refuses to replace another program’s', () => {
    const u = user()
    const project = makeProject({})
    const mcpJson = path.join(project, '.mcp.json')
    const original = JSON.stringify({ mcpServers: { db: server('db-mcp', '--read-only') } }, null, 2)
    fs.writeFileSync(mcpJson, original, { mode: 0o640 })
    fs.chmodSync(mcpJson, 0o640)
    ok(cli(['install', 'claude', '--mcp', '--project'], { env: u.env, cwd: project }))
    assert.deepEqual(JSON.parse(fs.readFileSync(mcpJson, 'utf8')).mcpServers, {
      db: server('db-mcp', '--read-only'),
      'cc-search': server('npx', '--no-install', 'cc-search', 'mcp'),
    })
    ok(cli(['install', 'claude', '--mcp', '--project', '--uninstall'], { env: u.env, cwd: project }))
    assert.equal(fs.readFileSync(mcpJson, 'utf8'), original)
    assert.equal(mode(mcpJson), 0o640)
    noBackups(project)

    const foreign = JSON.stringify({ mcpServers: { 'cc-search': server('another-server') } })
    fs.writeFileSync(mcpJson, foreign)
    const refused = cli(['install', 'claude', '--mcp', '--project'], { env: u.env, cwd: project })
    assert.equal(refused.status, 1)
    assert.equal(refused.stdout, '')
    assert.ok(refused.stderr.startsWith('cc-search: error: invalid request for `claude.install_mcp`'), refused.stderr)
    assert.match(refused.stderr, /not cc-search's/)
    assert.equal(fs.readFileSync(mcpJson, 'utf8'), foreign)
  })
})

describe('install claude (hooks)', () => {
  /** The file-suggestion command in `settings`, run as Claude Code runs it: a shell, the query on stdin. */
  function pick(settings, project, env, query) {
    const command = JSON.parse(fs.readFileSync(settings, 'utf8')).fileSuggestion.command
    const child = spawnSync('/bin/sh', ['-c', command], {
      env: { ...env, CLAUDE_PROJECT_DIR: project },
      input: JSON.stringify({ query }),
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
    })
    return [child.status, child.stdout]
  }

  test("puts this package's native hook program into settings.json and takes it out", () => {
    const config = path.join(tempDir(), 'claude-config')
    const u = user({ CLAUDE_CONFIG_DIR: config })
    const settings = path.join(config, 'settings.json')
    const native = path.join(HOOKS, 'cc-search-hook')
    const out = ok(cli(['install', 'claude'], { env: u.env }))
    assert.ok(out.startsWith(`Installed cc-search in ${settings}\n`), out)
    assert.ok(out.includes(`The hooks run the native hook program ${native}, installed with this package.\n`), out)
    const written = JSON.parse(fs.readFileSync(settings, 'utf8'))
    assert.deepEqual(written.fileSuggestion, { type: 'command', command: `${native} file-suggestion` })
    assert.equal(written.hooks.SessionStart[0].hooks[0].command, `${native} session-start`)
    assert.ok(!fs.existsSync(path.join(config, '.claude.json')), 'no MCP server without --mcp')
    const project = makeProject({ 'src/components/Button.tsx': '' })
    assert.deepEqual(pick(settings, project, u.env, 'butt'), [0, 'src/components/Button.tsx\n'])
    const out2 = ok(cli(['install', 'claude', '--uninstall'], { env: u.env }))
    // The file and the directory the install created are gone; the one backup is in the
    // data root.
    assert.ok(!fs.existsSync(config), out2)
    const backup = path.join(u.env.CC_SEARCH_HOME, 'backups')
    assert.ok(out2.includes(`Backup of the previous file: ${backup}/settings.json-`), out2)
  })

  test('--home and --config are carried into the native hooks', () => {
    const config = path.join(tempDir(), 'claude-config')
    const u = user({ CLAUDE_CONFIG_DIR: config })
    const data = path.join(tempDir(), 'data')
    const toml = path.join(tempDir(), 'cc.toml')
    ok(cli(['--home', data, '--config', toml, 'install', 'claude'], { env: u.env }))
    const settings = path.join(config, 'settings.json')
    const native = path.join(HOOKS, 'cc-search-hook')
    const written = JSON.parse(fs.readFileSync(settings, 'utf8'))
    assert.equal(written.fileSuggestion.command, `${native} --home ${data} --config ${toml} file-suggestion`)
    const project = makeProject({ 'README.md': '' })
    assert.deepEqual(pick(settings, project, u.env, 'readme'), [0, 'README.md\n'])
    assert.ok(fs.existsSync(path.join(data, 'files.db')), 'the data root given to install is used')
  })

  test('where the native program cannot run, the Bun scripts are written, with a warning', () => {
    const config = path.join(tempDir(), 'claude-config')
    const u = user({ CLAUDE_CONFIG_DIR: config })
    const settings = path.join(config, 'settings.json')
    const impostor = path.join(tempDir(), 'cc-search-hook')
    fs.writeFileSync(impostor, '#!/bin/sh\necho cc-search-hook 0.0.1\n', { mode: 0o755 })
    const child = cli(['install', 'claude', '--hook-program', impostor], { env: u.env })
    assert.equal(child.status, 0, child.stderr)
    assert.equal(
      child.stderr,
      `cc-search: warning: ${impostor} --version said "cc-search-hook 0.0.1", not "cc-search-hook ${VERSION}"; ` +
        'writing the Bun hook scripts instead, which start Bun on every keystroke of the @ picker\n',
    )
    // Which hooks and why: said once, by that warning.
    assert.ok(!child.stdout.includes('The hooks run'), child.stdout)
    const written = JSON.parse(fs.readFileSync(settings, 'utf8'))
    assert.equal(written.fileSuggestion.command, path.join(HOOKS, 'file-suggestion.sh'))
    assert.equal(written.hooks.SessionStart[0].hooks[0].command, path.join(HOOKS, 'session-start.sh'))
    const project = makeProject({ 'src/components/Button.tsx': '' })
    assert.deepEqual(pick(settings, project, u.env, 'butt'), [0, 'src/components/Button.tsx\n'])

    // The real program, given: it replaces the scripts in place.
    const out = ok(cli(['install', 'claude', '--hook-program', path.join(HOOKS, 'cc-search-hook')], { env: u.env }))
    assert.ok(out.includes('fileSuggestion changed from'), out)
    assert.ok(out.includes(`The hooks run the native hook program ${path.join(HOOKS, 'cc-search-hook')}, as given with --hook-program.\n`), out)
    const again = JSON.parse(fs.readFileSync(settings, 'utf8'))
    assert.equal(again.fileSuggestion.command, `${path.join(HOOKS, 'cc-search-hook')} file-suggestion`)
    assert.equal(again.hooks.SessionStart.length, 1)
  })
})

describe('install claude --project (hooks)', () => {
  function git(cwd, ...args) {
    const child = spawnSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null' },
    })
    assert.equal(child.status, 0, child.stderr)
    return child.stdout
  }

  /** A project in git with everything committed, this package in its node_modules. */
  function repo(files) {
    const project = makeProject({ '.gitignore': 'node_modules/\n', ...files })
    fs.mkdirSync(path.join(project, 'node_modules'))
    fs.symlinkSync(PACKAGE_DIR, path.join(project, 'node_modules', 'cc-search'))
    git(project, 'init', '-q')
    git(project, 'add', '-A')
    git(project, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'init')
    return project
  }

  const status = (project) => git(project, 'status', '--porcelain', '--untracked-files=all')
  const FS = '"$CLAUDE_PROJECT_DIR"/node_modules/cc-search/hooks/cc-search-hook file-suggestion'
  const SS = '"$CLAUDE_PROJECT_DIR"/node_modules/cc-search/hooks/cc-search-hook session-start'

  test("writes commands that find the package in the project's node_modules, and leaves nothing behind", () => {
    const u = user()
    const project = repo({ 'src/components/Button.tsx': '' })
    const settings = path.join(project, '.claude', 'settings.json')
    const out = ok(cli(['install', 'claude', '--project'], { env: u.env, cwd: project }))
    assert.equal(
      out,
      `Installed cc-search in ${settings}\n` +
        `  fileSuggestion set to \`${FS}\`\n` +
        `  SessionStart hook added: \`${SS}\`\n` +
        "The hooks run this package's native hook program, from the node_modules of the project, as its settings are shared.\n" +
        "Commit .claude/settings.json to share it; everyone who runs `npm install` in the project has the hooks (cc-search must be in its package.json).\n" +
        'There was no previous file, so no backup.\n',
    )
    const text = fs.readFileSync(settings, 'utf8')
    assert.ok(!text.includes(project) && !text.includes(PACKAGE_DIR) && !text.includes(os.homedir()), text)
    const written = JSON.parse(text)
    assert.deepEqual(written.fileSuggestion, { type: 'command', command: FS })
    assert.equal(written.hooks.SessionStart[0].hooks[0].command, SS)
    assert.equal(status(project), '?? .claude/settings.json\n')

    // As Claude Code runs it on any machine: a shell, $CLAUDE_PROJECT_DIR set.
    const command = written.fileSuggestion.command
    const child = spawnSync('/bin/sh', ['-c', command], {
      cwd: tempDir(),
      env: { ...u.env, CLAUDE_PROJECT_DIR: project },
      input: JSON.stringify({ query: 'butt' }),
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
    })
    assert.deepEqual([child.status, child.stdout], [0, 'src/components/Button.tsx\n'], child.stderr)

    ok(cli(['install', 'claude', '--project', '--uninstall'], { env: u.env, cwd: project }))
    assert.equal(status(project), '')
    assert.ok(!fs.existsSync(path.join(project, '.claude')))
  })

  test('committed settings come back byte for byte, with no backup file in the project', () => {
    const u = user()
    const original = '{\r\n\t"model": "opus",\r\n\t"hooks": {}\r\n}'
    const project = repo({ '.claude/settings.json': original })
    const settings = path.join(project, '.claude', 'settings.json')
    const out = ok(cli(['install', 'claude', '--project-dir', project], { env: u.env }))
    const backup = out.match(/^Backup of the previous file: (.*)$/m)[1]
    assert.ok(backup.startsWith(path.join(u.env.CC_SEARCH_HOME, 'backups') + path.sep), backup)
    assert.equal(fs.readFileSync(backup, 'utf8'), original)
    assert.equal(status(project), ' M .claude/settings.json\n')
    // -C is --project-dir, as on every cc-search command line.
    ok(cli(['install', 'claude', '-C', project, '--uninstall'], { env: u.env, cwd: tempDir() }))
    assert.equal(fs.readFileSync(settings, 'utf8'), original)
    assert.equal(status(project), '')
    noBackups(path.join(project, '.claude'))
  })

  test('warns when the project does not have the package, refuses --hook-program', () => {
    const u = user()
    const project = makeProject({ 'README.md': '' })
    const child = cli(['install', 'claude', '--project'], { env: u.env, cwd: project })
    assert.equal(child.status, 0, child.stderr)
    assert.equal(
      child.stderr,
      `cc-search: warning: ${path.join(project, 'node_modules', 'cc-search')} has no hooks/cc-search-hook: ` +
        "the project's hooks run cc-search from its node_modules; add it to the project " +
        '(`npm install --save-dev cc-search`) so that everyone who runs `npm install` there has it\n',
    )
    const written = JSON.parse(fs.readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8'))
    assert.equal(written.fileSuggestion.command, FS, 'the portable form all the same')

    const refused = cli(['install', 'claude', '--project', '--hook-program', BIN], { env: u.env, cwd: project })
    assert.equal(refused.status, 2, refused.stderr)
    assert.match(refused.stderr, /a project's settings are shared/)
  })
})

describe('cc-search mcp', () => {
  test('serves MCP on stdio inside --root', () => {
    const u = user()
    const root = makeProject({ 'src/components/Button.tsx': 'x\n' })
    const input = [
      request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      request(2, 'tools/call', { name: 'files_suggest', arguments: { query: 'button' } }),
    ].join('\n')
    const child = cli(['mcp', '--root', root], { env: u.env, cwd: tempDir(), input: `${input}\n` })
    assert.equal(child.status, 0, child.stderr)
    const replies = child.stdout.trim().split('\n').map((line) => JSON.parse(line))
    assert.deepEqual(
      replies.map((r) => r.id),
      [1, 2],
    )
    assert.match(replies[1].result.content[0].text, /src\/components\/Button\.tsx/)
  })

  test('-C is the project: the first root', () => {
    const u = user()
    const root = makeProject({ 'src/components/Button.tsx': 'x\n' })
    const input = [
      request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      request(2, 'tools/call', { name: 'files_suggest', arguments: { query: 'button' } }),
    ].join('\n')
    for (const flag of ['-C', '--project-dir']) {
      const child = cli(['mcp', flag, root], { env: u.env, cwd: tempDir(), input: `${input}\n` })
      assert.equal(child.status, 0, child.stderr)
      const replies = child.stdout.trim().split('\n').map((line) => JSON.parse(line))
      assert.match(replies[1].result.content[0].text, /src\/components\/Button\.tsx/, flag)
    }
  })
})

describe('cc-search mcp options', () => {
  // Each option reaches serveMcp only when given; the server's own defaults otherwise.
  function session(args) {
    const u = user()
    const root = makeProject({ 'a.txt': 'a\n' })
    const input = [
      request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
      request(2, 'tools/list'),
    ].join('\n')
    const child = cli(['mcp', '--root', root, ...args], { env: u.env, input: `${input}\n` })
    assert.equal(child.status, 0, child.stderr)
    const [init, list] = child.stdout.trim().split('\n').map((line) => JSON.parse(line))
    return { instructions: init.result.instructions || '', tools: list.result.tools }
  }

  test('--tools, --structured and --max-tokens are passed on', () => {
    const plain = session([])
    const names = plain.tools.map((t) => t.name)
    assert.ok(!names.includes('code_delete_repos'), names.join())
    assert.ok(!plain.tools.some((t) => t.outputSchema))

    const all = session(['--tools', 'all']).tools.map((t) => t.name)
    assert.ok(all.includes('code_delete_repos'), all.join())
    assert.ok(!all.includes('claude_install_mcp'), 'installers are never tools')

    const some = session(['--tools', ' files , grep ', '--structured', '--max-tokens', '7'])
    const chosen = some.tools.map((t) => t.name)
    assert.ok(chosen.includes('files_suggest') && !chosen.includes('code_search_symbols'), chosen.join())
    assert.ok(some.tools.some((t) => t.outputSchema))
    assert.match(some.instructions, /default 7\b/)

    // As the Python CLI takes them: --tools repeated, and --no-structured.
    const repeated = session(['--tools', 'files', '--tools', 'grep', '--no-structured'])
    assert.deepEqual(
      repeated.tools.map((t) => t.name).sort(),
      chosen.slice().sort(),
    )
    assert.ok(!repeated.tools.some((t) => t.outputSchema))
  })
})

describe('usage', () => {
  test('help, version and usage errors', () => {
    const u = user()
    const help = cli(['--help'], { env: u.env })
    assert.equal(help.status, 0)
    assert.match(help.stdout, /install claude --mcp/)
    assert.equal(ok(cli(['--version'], { env: u.env })), `cc-search ${VERSION}\n`)
    for (const args of [
      [],
      ['bogus'],
      ['install'],
      ['install', 'claude', '--mcp', '--user', '--project'],
      ['install', 'claude', '--tools', 'x'],
      ['install', 'claude', '--project-dir'],
      ['install', 'claude', '--mcp=yes'],
      ['mcp', '--max-tokens', '0'],
      ['-x'],
    ]) {
      const child = cli(args, { env: u.env })
      assert.equal(child.status, 2, `${args.join(' ')}: ${child.stderr}`)
      assert.ok(!child.stderr.includes('    at '), child.stderr)
    }
    assert.ok(!fs.existsSync(u.state))
  })
})
