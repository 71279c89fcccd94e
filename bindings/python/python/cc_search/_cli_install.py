"""``cc-search install claude``: Claude Code's picker and hooks (or, with ``--mcp``,
cc-search's MCP server) put into its settings by the core's installer operations."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
from typing import TYPE_CHECKING, Any, Callable

from ._cli_common import (
    PROG,
    _entry_point,
    _fail,
    _global_options,
    _open,
    _print_json,
    _report,
    _self_argv,
    _shell_command,
    _warn_all,
)

if TYPE_CHECKING:
    import argparse

    from .cli import Options

#: The native hook program the wheel installs beside the `cc-search` command.
NATIVE_HOOK = "cc-search-hook"

#: The commands of a project's shared settings: the native hook program as each person
#: has it on PATH (no path of this machine, no --home / --config).
PROJECT_HOOKS = (f"{NATIVE_HOOK} file-suggestion", f"{NATIVE_HOOK} session-start")

#: The hook scripts of the npm package, looked for in `--hooks-dir`.
HOOK_SCRIPTS = ("file-suggestion.sh", "session-start.sh")


def _hook_scripts(hooks_dir: str) -> list[str]:
    """The hook scripts in `hooks_dir` as shell commands; an error when one is missing."""
    directory = os.path.abspath(os.path.expanduser(hooks_dir))
    commands = []
    for name in HOOK_SCRIPTS:
        script = os.path.join(directory, name)
        if not os.path.isfile(script):
            _fail(f"--hooks-dir: there is no {name} in {directory}")
        if not os.access(script, os.X_OK):
            _fail(f"--hooks-dir: {script} is not executable")
        commands.append(shlex.quote(script))
    return commands


def _native_hook(given: str | None) -> tuple[str | None, str]:
    """The native hook program to write, checked by running it: `given`, else the one
    installed beside this `cc-search` (or in this environment's scripts). Returns its
    absolute path, or None and why it cannot be used."""
    from . import __version__

    if given is not None:
        program = os.path.abspath(os.path.expanduser(given))
    else:
        entry = _entry_point()
        dirs = [os.path.dirname(entry)] if entry else []
        dirs += [sysconfig.get_path("scripts"), os.path.dirname(sys.executable)]
        beside = (os.path.join(d, NATIVE_HOOK) for d in dirs)
        found = next((p for p in beside if os.path.isfile(p)), None)
        if found is None:
            why = f"the native hook program ({NATIVE_HOOK}) is not installed with this cc-search"
            return None, why
        program = found
    try:
        proc = subprocess.run(
            [program, "--version"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"the native hook program {program} cannot run here ({e})"
    expected = f"{NATIVE_HOOK} {__version__}"
    if proc.returncode != 0 or proc.stdout.strip() != expected:
        said = proc.stdout.strip() or proc.stderr.strip() or f"status {proc.returncode}"
        said = said.splitlines()[0][:100]
        return None, f"{program} --version said {said!r}, not {expected!r}"
    return program, ""


def install_claude(ns: argparse.Namespace, options: Options, parser: Any) -> None:
    """`install claude`: the hooks (``claude.install``), or with ``--mcp`` the MCP server
    (``claude.install_mcp``), with the commands this cc-search runs as."""
    project, project_dir, uninstall = ns.project, ns.project_dir, ns.uninstall
    hooks_dir, hook_program, mcp, as_json = ns.hooks_dir, ns.hook_program, ns.mcp, ns.json
    in_project = project or project_dir is not None
    if mcp:
        for given, flag in ((hooks_dir, "--hooks-dir"), (hook_program, "--hook-program")):
            if given is not None:
                parser.error(f"{flag} is for the hooks, not for --mcp")
        _install_claude_mcp(options, in_project, project_dir, uninstall, as_json)
        return
    if in_project:
        for given, flag in ((hooks_dir, "--hooks-dir"), (hook_program, "--hook-program")):
            if given is not None:
                parser.error(
                    f"{flag} names a file of this machine, but a project's settings are shared: "
                    f"they run `{NATIVE_HOOK}` from each person's PATH (use --user for your own)"
                )
        if not uninstall and (options.home or options.config):
            _report(
                "warning",
                "--home and --config are not written into the project's settings (they are "
                "shared); the hooks use $CC_SEARCH_HOME or the default data root",
            )
        file_suggestion, session_start = PROJECT_HOOKS
        runs = (
            f"`{NATIVE_HOOK}` from the PATH of each person who works on the project, "
            "as its settings are shared"
        )
    elif hooks_dir is not None:
        file_suggestion, session_start = _hook_scripts(hooks_dir)
        runs = "the Bun hook scripts, as given with --hooks-dir"
    else:
        # An uninstall removes whichever cc-search hooks are there: nothing to check.
        program, why_not = (None, "") if uninstall else _native_hook(hook_program)
        if program is not None:
            argv = [program, *_global_options(options)]
            how = "as given with --hook-program" if hook_program else "installed with this cc-search"
            runs = f"the native hook program {program}, {how}"
        else:
            argv = [*_self_argv(options), "hook"]
            runs = ""  # the warning below says which and why, once
            if why_not:
                _report(
                    "warning",
                    f"{why_not}; writing this CLI's `{PROG} hook` commands instead, which "
                    "start Python on every keystroke of the @ picker",
                )
        file_suggestion = _shell_command([*argv, "file-suggestion"])
        session_start = _shell_command([*argv, "session-start"])
    params: dict[str, Any] = {
        "scope": "project" if in_project else "user",
        "file_suggestion_command": file_suggestion,
        "session_start_command": session_start,
        "uninstall": uninstall,
    }
    if project_dir is not None:
        params["project_dir"] = os.path.abspath(os.path.expanduser(project_dir))

    def backup(result: Any) -> list[str]:
        lines = [f"The hooks run {runs}."] if runs and not uninstall else []
        if in_project and not uninstall:
            lines.append(
                f"Commit .claude/settings.json to share it; everyone needs `{NATIVE_HOOK}` on "
                f"PATH (`pip install cc-search` or `pipx install cc-search` puts it there)."
            )
        if result["backup"]:
            return [*lines, f"Backup of the previous file: {result['backup']}"]
        return [*lines, "There was no previous file, so no backup."]

    _install(options, "claude.install", params, as_json, "cc-search", "settings_path", backup)


#: The command a project's .mcp.json runs: whatever `cc-search` is on each teammate's PATH.
PROJECT_MCP_ARGV = [PROG, "mcp"]


def _install_claude_mcp(
    options: Options, project: bool, project_dir: str | None, uninstall: bool, as_json: bool
) -> None:
    """`install claude --mcp`: the `claude.install_mcp` operation with this CLI's command."""
    if project and (options.home or options.config):
        _report(
            "warning",
            "--home and --config are not written into .mcp.json (it is shared); the server "
            "uses $CC_SEARCH_HOME or the default data root",
        )
    argv = PROJECT_MCP_ARGV if project else [*_self_argv(options), "mcp"]
    params: dict[str, Any] = {
        "scope": "project" if project else "user",
        "command": argv[0],
        "args": argv[1:],
        "uninstall": uninstall,
    }
    if project_dir is not None:
        params["project_dir"] = os.path.abspath(os.path.expanduser(project_dir))

    def approval(result: Any) -> list[str]:
        if not project or uninstall:
            return []
        return [
            "Commit .mcp.json to share it; Claude Code asks each person to approve its "
            "servers once (`claude mcp list` shows it as pending until then)."
        ]

    what = "cc-search's MCP server"
    _install(options, "claude.install_mcp", params, as_json, what, "path", approval)


def _install(
    options: Options,
    op: str,
    params: dict[str, Any],
    as_json: bool,
    what: str,
    path_key: str,
    tail: Callable[[Any], list[str]],
) -> None:
    """Run an installer operation and print what it did: the JSON result, or a line on
    the file, one per change, and `tail(result)`'s lines after a change."""
    uninstall = params["uninstall"]
    with _open(options) as engine:
        result = engine.call(op, params)
    if as_json:
        _print_json(result)
        return
    _warn_all(result["warnings"])
    path = result[path_key]
    if not result["changed"]:
        state = "not installed there" if uninstall else "already installed"
        sys.stdout.write(f"{path}: {what} is {state}; nothing changed\n")
        return
    done = f"Removed {what} from" if uninstall else f"Installed {what} in"
    lines = [f"{done} {path}"]
    lines += [f"  {change}" for change in result["changes"]]
    lines += tail(result)
    sys.stdout.write("\n".join(lines) + "\n")
