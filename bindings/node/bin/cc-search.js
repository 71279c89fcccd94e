#!/usr/bin/env node
'use strict'

// The `cc-search` command of the npm package (Node and Bun): set cc-search up in Claude
// Code, and run its MCP server. Everything it does runs in the core through the addon
// (`engine.call('claude.install_mcp', …)`, `serveMcp`); this file only reads the command
// line and prints. Results go to stdout, warnings and errors to stderr; an error exits
// with status 1, a usage error with status 2.

const path = require('node:path')

const PROG = 'cc-search'

const USAGE = `Usage: ${PROG} [--home DIR] [--config FILE] COMMAND [OPTIONS]

Embedded search for coding agents: files, grep, code, docs and sessions.

Commands:
  install claude --mcp [--user | --project | -C DIR] [--uninstall] [--json]
      Register cc-search's MCP server with Claude Code, as \`claude mcp add\` does:
      --user (default): in ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json), running
        this copy of cc-search with this runtime (absolute paths);
      --project: in the project's .mcp.json, as \`npx --no-install cc-search mcp\`, which
        works for everyone who ran \`npm install\` there (commit the file).
      Idempotent; --uninstall removes exactly that server.
  install claude [--user | --project | -C DIR] [--hook-program FILE] [--uninstall] [--json]
      Without --mcp: this package's hooks in Claude Code's settings.json (the @ picker's
      fileSuggestion command and a SessionStart hook). They run the native program
      hooks/cc-search-hook (or FILE); where it cannot run, the Bun scripts
      hooks/file-suggestion.sh and hooks/session-start.sh, with a warning. --user: by
      absolute path; --project: from the project's node_modules
      ("$CLAUDE_PROJECT_DIR"/node_modules/cc-search/hooks/…), which works for everyone
      who ran \`npm install\` there (commit the file). One backup of the previous file is
      kept in the data root; --uninstall puts the file back as it was.
      -C, --project-dir DIR: the project whose settings to edit (implies --project).
  mcp [-C DIR] [--root DIR]... [--tools LIST]... [--max-tokens N] [--[no-]structured]
      Run the MCP server on stdin/stdout until stdin ends. -C, --project-dir: the project,
      the first directory the tools may read (default $CLAUDE_PROJECT_DIR, else the
      current directory). --root: another directory the tools may read (repeatable;
      without -C the first is the project). --tools: comma-separated selectors (default,
      all, a component, a tool name). --max-tokens: the answers' token budget.
      --structured: answer with structuredContent too.

Options:
  --home DIR       Data root; defaults to $CC_SEARCH_HOME, else $XDG_DATA_HOME/cc-search.
  --config FILE    Configuration file; defaults to config.toml in the data root.
  -h, --help       Show this message and exit.
  -V, --version    Print the version and exit.
`

class UsageError extends Error {}

// --- the command line ----------------------------------------------------------------

const GLOBAL_VALUES = ['home', 'config']
// The options of each command, spelled as the Python CLI spells them: the same table
// (core/tests/it/bindgen/hints.rs) writes both.
// ── the commands, generated from the command-line table by `make bindings`: do not edit ──
const COMMANDS = {
  'install claude': {
    flags: ['user', 'project', 'mcp', 'uninstall', 'json'],
    values: ['project-dir', 'hook-program'],
    many: [],
  },
  mcp: {
    flags: ['structured', 'no-structured'],
    values: ['project-dir', 'max-tokens'],
    many: ['root', 'tools'],
  },
}
const SHORT = { '-C': 'project-dir' }
// ── end of the generated commands ──

/**
 * `argv` (without the runtime and script) as `{ command, options, help, version }`.
 * Options may come before or after the command words; `--name=value` and
 * `--name value` both work.
 */
function parse(argv) {
  const words = []
  const options = {}
  let help = false
  let version = false
  // -C DIR is --project-dir DIR, as on every cc-search command line.
  const pending = argv.map((arg) => (arg in SHORT ? `--${SHORT[arg]}` : arg))
  const seen = []
  while (pending.length > 0) {
    const arg = pending.shift()
    if (arg === '-h' || arg === '--help') {
      help = true
      continue
    }
    if (arg === '-V' || arg === '--version') {
      version = true
      continue
    }
    if (arg === '--') {
      words.push(...pending.splice(0))
      continue
    }
    if (!arg.startsWith('-') || arg === '-') {
      words.push(arg)
      continue
    }
    if (!arg.startsWith('--')) throw new UsageError(`no such option: ${arg}`)
    const eq = arg.indexOf('=')
    const name = arg.slice(2, eq < 0 ? undefined : eq)
    const inline = eq < 0 ? undefined : arg.slice(eq + 1)
    seen.push(name)
    const takesValue =
      GLOBAL_VALUES.includes(name) ||
      Object.values(COMMANDS).some((c) => c.values.includes(name) || c.many.includes(name))
    if (takesValue) {
      const value = inline !== undefined ? inline : pending.shift()
      if (value === undefined || (inline === undefined && value.startsWith('--'))) {
        throw new UsageError(`option --${name} requires a value`)
      }
      if (Object.values(COMMANDS).some((c) => c.many.includes(name))) {
        ;(options[name] = options[name] || []).push(value)
      } else {
        options[name] = value
      }
    } else if (Object.values(COMMANDS).some((c) => c.flags.includes(name))) {
      if (inline !== undefined) throw new UsageError(`option --${name} takes no value`)
      options[name] = true
    } else {
      throw new UsageError(`no such option: --${name}`)
    }
  }
  const command = words.join(' ')
  if (words.length > 0 && !(command in COMMANDS)) {
    if (words[0] === 'install' && words.length === 1) throw new UsageError('install what? `install claude`')
    throw new UsageError(`unknown command: ${command}`)
  }
  if (command) {
    const spec = COMMANDS[command]
    for (const name of seen) {
      if (GLOBAL_VALUES.includes(name)) continue
      if (!spec.flags.includes(name) && !spec.values.includes(name) && !spec.many.includes(name)) {
        throw new UsageError(`option --${name} is not an option of \`${command}\``)
      }
    }
  }
  return { command, options, help, version }
}

// --- output ----------------------------------------------------------------------------

function report(kind, message) {
  process.stderr.write(`${PROG}: ${kind}: ${String(message).split('\n').join(' ')}\n`)
}

function warnAll(messages) {
  for (const message of messages) report('warning', message)
}

function absolute(file) {
  const home = process.env.HOME
  if (home && (file === '~' || file.startsWith('~/'))) file = path.join(home, file.slice(1))
  return path.resolve(file)
}

function shellQuote(word) {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

function openEngine(options) {
  const { Engine } = require('..')
  return new Engine({
    home: options.home === undefined ? undefined : absolute(options.home),
    configPath: options.config === undefined ? undefined : absolute(options.config),
  })
}

/** The --home and --config given to this run, made absolute. */
function globalOptions(options) {
  const argv = []
  if (options.home !== undefined) argv.push('--home', absolute(options.home))
  if (options.config !== undefined) argv.push('--config', absolute(options.config))
  return argv
}

/** The command line that runs this cc-search again from anywhere, with --home/--config. */
function selfArgv(options) {
  return [process.execPath, path.resolve(__filename), ...globalOptions(options)]
}

// --- install claude --------------------------------------------------------------------

/** The native hook program this package ships in hooks/. */
const NATIVE_HOOK = 'cc-search-hook'

/**
 * The native hook program to write, checked by running it: `given`, else this package's
 * hooks/cc-search-hook. Returns `{ program }` (absolute), or `{ why }` it cannot be used.
 */
function nativeHook(given) {
  const program = given === undefined ? path.resolve(__dirname, '..', 'hooks', NATIVE_HOOK) : absolute(given)
  if (given === undefined && !require('node:fs').existsSync(program)) {
    return { why: `the native hook program ${program} is not in this package` }
  }
  const { spawnSync } = require('node:child_process')
  const run = spawnSync(program, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] })
  const expected = `${NATIVE_HOOK} ${require('..').VERSION}`
  if (run.error) return { why: `the native hook program ${program} cannot run here (${run.error.message})` }
  if (run.status !== 0 || run.stdout.trim() !== expected) {
    const said = (run.stdout.trim() || run.stderr.trim() || `status ${run.status ?? run.signal}`).split('\n')[0].slice(0, 100)
    return { why: `${program} --version said ${JSON.stringify(said)}, not ${JSON.stringify(expected)}` }
  }
  return { program }
}

/**
 * Where a project's shared settings find this package's hook `file`: in the project's own
 * node_modules, by way of `$CLAUDE_PROJECT_DIR`, which Claude Code sets for the commands
 * it runs.
 */
function projectHook(file) {
  return `"$CLAUDE_PROJECT_DIR"/node_modules/${PROG}/hooks/${file}`
}

/** What a project's .mcp.json runs: the cc-search its own `npm install` brought. */
const PROJECT_MCP_ARGV = ['npx', '--no-install', PROG, 'mcp']

function installClaude(options) {
  const project = Boolean(options.project) || options['project-dir'] !== undefined
  if (options.user && project) throw new UsageError('--user cannot be combined with --project or --project-dir')
  const params = { scope: project ? 'project' : 'user', uninstall: Boolean(options.uninstall) }
  if (options['project-dir'] !== undefined) params.project_dir = absolute(options['project-dir'])
  else if (project && process.env.CLAUDE_PROJECT_DIR) params.project_dir = process.env.CLAUDE_PROJECT_DIR
  let runs = ''
  if (options.mcp) {
    if (options['hook-program'] !== undefined) throw new UsageError('--hook-program is for the hooks, not for --mcp')
    if (project && (options.home !== undefined || options.config !== undefined)) {
      report(
        'warning',
        '--home and --config are not written into .mcp.json (it is shared); the server uses $CC_SEARCH_HOME or the default data root',
      )
    }
    const argv = project ? PROJECT_MCP_ARGV : [...selfArgv(options), 'mcp']
    Object.assign(params, { command: argv[0], args: argv.slice(1) })
  } else if (project) {
    if (options['hook-program'] !== undefined) {
      throw new UsageError(
        "--hook-program names a file of this machine, but a project's settings are shared: they run cc-search from the project's node_modules (use --user for your own)",
      )
    }
    if (!params.uninstall && (options.home !== undefined || options.config !== undefined)) {
      report(
        'warning',
        "--home and --config are not written into the project's settings (they are shared); the hooks use $CC_SEARCH_HOME or the default data root",
      )
    }
    // An uninstall removes whichever cc-search hooks are there: nothing to check.
    const native = params.uninstall ? { program: NATIVE_HOOK } : nativeHook(undefined)
    let files = [NATIVE_HOOK, NATIVE_HOOK]
    if (native.program) {
      params.file_suggestion_command = `${projectHook(NATIVE_HOOK)} file-suggestion`
      params.session_start_command = `${projectHook(NATIVE_HOOK)} session-start`
      runs = "this package's native hook program, from the node_modules of the project, as its settings are shared"
    } else {
      // The warning says which hooks and why, once.
      report('warning', `${native.why}; writing the Bun hook scripts instead, which start Bun on every keystroke of the @ picker`)
      files = ['file-suggestion.sh', 'session-start.sh']
      params.file_suggestion_command = projectHook(files[0])
      params.session_start_command = projectHook(files[1])
    }
    const installed = path.join(params.project_dir || process.cwd(), 'node_modules', PROG)
    if (!params.uninstall && !require('node:fs').existsSync(path.join(installed, 'hooks', files[0]))) {
      report(
        'warning',
        `${installed} has no hooks/${files[0]}: the project's hooks run cc-search from its node_modules; add it to the project (\`npm install --save-dev cc-search\`) so that everyone who runs \`npm install\` there has it`,
      )
    }
  } else {
    // An uninstall removes whichever cc-search hooks are there: nothing to check.
    const native = params.uninstall ? { why: '' } : nativeHook(options['hook-program'])
    if (native.program) {
      const argv = [native.program, ...globalOptions(options)]
      params.file_suggestion_command = [...argv, 'file-suggestion'].map(shellQuote).join(' ')
      params.session_start_command = [...argv, 'session-start'].map(shellQuote).join(' ')
      const how = options['hook-program'] === undefined ? 'installed with this package' : 'as given with --hook-program'
      runs = `the native hook program ${native.program}, ${how}`
    } else {
      if (native.why) {
        report('warning', `${native.why}; writing the Bun hook scripts instead, which start Bun on every keystroke of the @ picker`)
      }
      // The warning says which hooks and why, once.
      const hooks = path.resolve(__dirname, '..', 'hooks')
      params.file_suggestion_command = shellQuote(path.join(hooks, 'file-suggestion.sh'))
      params.session_start_command = shellQuote(path.join(hooks, 'session-start.sh'))
    }
  }
  const result = openEngine(options).call(options.mcp ? 'claude.install_mcp' : 'claude.install', params)
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`)
    return
  }
  warnAll(result.warnings)
  const file = options.mcp ? result.path : result.settings_path
  const what = options.mcp ? "cc-search's MCP server" : 'cc-search'
  if (!result.changed) {
    const state = params.uninstall ? 'not installed there' : 'already installed'
    process.stdout.write(`${file}: ${what} is ${state}; nothing changed\n`)
    return
  }
  const lines = [`${params.uninstall ? `Removed ${what} from` : `Installed ${what} in`} ${file}`]
  lines.push(...result.changes.map((change) => `  ${change}`))
  if (options.mcp && project && !params.uninstall) {
    lines.push(
      "Commit .mcp.json to share it; Claude Code asks each person to approve its servers once (`claude mcp list` shows it as pending until then).",
    )
  }
  if (!options.mcp) {
    if (!params.uninstall && runs) lines.push(`The hooks run ${runs}.`)
    if (!params.uninstall && project) {
      lines.push(
        "Commit .claude/settings.json to share it; everyone who runs `npm install` in the project has the hooks (cc-search must be in its package.json).",
      )
    }
    lines.push(result.backup ? `Backup of the previous file: ${result.backup}` : 'There was no previous file, so no backup.')
  }
  process.stdout.write(`${lines.join('\n')}\n`)
}

// --- mcp -------------------------------------------------------------------------------

function mcp(options) {
  const serve = { home: undefined, configPath: undefined }
  if (options.home !== undefined) serve.home = absolute(options.home)
  if (options.config !== undefined) serve.configPath = absolute(options.config)
  // Only what was given: the server's defaults (and the configuration) decide the rest.
  const roots = [...(options['project-dir'] !== undefined ? [options['project-dir']] : []), ...(options.root || [])]
  if (roots.length > 0) serve.roots = roots.map(absolute)
  if (options.tools !== undefined) {
    serve.tools = options.tools
      .flatMap((list) => list.split(','))
      .map((s) => s.trim())
      .filter((s) => s !== '')
  }
  if (options['max-tokens'] !== undefined) {
    const n = Number(options['max-tokens'])
    if (!Number.isInteger(n) || n < 1) throw new UsageError('--max-tokens takes a whole number of at least 1')
    serve.maxTokens = n
  }
  if (options.structured) serve.structured = true
  if (options['no-structured']) serve.structured = false
  return require('..').serveMcp(serve)
}

// --- main ------------------------------------------------------------------------------

async function main(argv) {
  const { command, options, help, version } = parse(argv)
  if (help || (!command && !version)) {
    process.stdout.write(USAGE)
    if (!help) process.exitCode = 2
    return
  }
  if (version) {
    process.stdout.write(`${PROG} ${require('..').VERSION}\n`)
    return
  }
  if (command === 'install claude') installClaude(options)
  else await mcp(options)
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof UsageError) {
    process.stderr.write(`${PROG}: usage error: ${err.message}\nTry '${PROG} --help' for help.\n`)
    process.exitCode = 2
  } else if (err && err.name === 'CcSearchError') {
    report('error', err.message)
    process.exitCode = 1
  } else {
    report('error', err && err.stack ? err.stack : err)
    process.exitCode = 1
  }
})
