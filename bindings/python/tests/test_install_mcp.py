"""`cc-search install claude --mcp`: cc-search's MCP server registered with Claude Code,
end to end through the installed entry point, on real files — and checked with the real
Claude Code CLI (`claude mcp list` / `claude mcp get`, which start `cc-search mcp`).

HOME (and CLAUDE_CONFIG_DIR where a test sets it) always point at temp directories: the
user's own ~/.claude.json is never read or written. Claude Code is installed from npm
into the repository's .tools/claude-code once; a test that needs it is skipped, saying
why, only when npm cannot install it. No chat is ever started: `claude mcp …` works
without an account.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support import cli_path, run_cli

ROOT = Path(__file__).resolve().parents[3]
#: The Claude Code release the tests run (CC_SEARCH_CLAUDE_CODE_VERSION overrides it).
CLAUDE_CODE_VERSION = os.environ.get("CC_SEARCH_CLAUDE_CODE_VERSION", "2.1.197")
CLAUDE_CODE_DIR = ROOT / ".tools" / "claude-code"


@dataclass
class User:
    home: Path
    """$HOME, where ~/.claude.json is."""

    @property
    def state(self) -> Path:
        return self.home / ".claude.json"


@pytest.fixture(autouse=True)
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> User:
    home = tmp_path / "user-home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    # `cc-search` on the PATH, as for anyone who installed it: the project scope's
    # command is the bare name.
    bin_dir = os.path.dirname(cli_path())
    monkeypatch.setenv("PATH", bin_dir + os.pathsep + os.environ.get("PATH", ""))
    return User(home=home)


def server(command: str, *args: str) -> dict[str, Any]:
    """An `mcpServers` entry as `claude mcp add` writes it."""
    return {"type": "stdio", "command": command, "args": list(args), "env": {}}


def as_written(value: Any) -> str:
    """JSON as cc-search writes a new file: two spaces, a final newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def no_backups(directory: Path) -> None:
    names = sorted(p.name for p in directory.iterdir())
    assert not [n for n in names if ".bak" in n or n.endswith(".tmp")], names


# ---------------------------------------------------------------------------------------
# user scope: ~/.claude.json


def test_user_scope_installs_this_entry_point_idempotently(home: Path, user: User) -> None:
    command = cli_path()
    proc = run_cli("install", "claude", "--mcp", home=home)
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    assert proc.stdout == (
        f"Installed cc-search's MCP server in {user.state}\n"
        f"  MCP server `cc-search` added: `{command} mcp`\n"
    )
    assert user.state.read_text() == as_written(
        {"mcpServers": {"cc-search": server(command, "mcp")}}
    )
    assert mode(user.state) == 0o600, "private, as Claude Code creates it"
    assert not (user.home / ".claude").exists(), "hooks are not installed by --mcp"

    before = user.state.stat()
    for args in (["--mcp"], ["--mcp", "--user"]):
        again = run_cli("install", "claude", *args, home=home)
        assert (again.returncode, again.stderr) == (0, ""), again
        assert again.stdout == (
            f"{user.state}: cc-search's MCP server is already installed; nothing changed\n"
        )
    assert (user.state.stat().st_ino, user.state.stat().st_mtime_ns) == (
        before.st_ino,
        before.st_mtime_ns,
    )

    removed = run_cli("install", "claude", "--mcp", "--uninstall", home=home)
    assert (removed.returncode, removed.stderr) == (0, ""), removed
    assert removed.stdout == (
        f"Removed cc-search's MCP server from {user.state}\n"
        f"  MCP server `cc-search` removed (`{command} mcp`)\n"
    )
    assert json.loads(user.state.read_text()) == {"mcpServers": {}}
    again = run_cli("install", "claude", "--mcp", "--uninstall", home=home)
    assert (
        again.stdout
        == f"{user.state}: cc-search's MCP server is not installed there; nothing changed\n"
    )
    no_backups(user.home)


def test_user_scope_keeps_everything_else_in_claude_json(home: Path, user: User) -> None:
    # As Claude Code keeps it: two spaces, no final newline, 0600, much else in it.
    existing = {
        "numStartups": 3,
        "userID": "0123abcd",
        "projects": {"/work/app": {"allowedTools": [], "hasTrustDialogAccepted": True}},
        "mcpServers": {"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"}},
        "tipsHistory": {"memory-command": 2},
    }
    original = json.dumps(existing, indent=2)
    user.state.write_text(original)
    user.state.chmod(0o600)

    proc = run_cli("install", "claude", "--mcp", home=home)
    assert proc.returncode == 0, proc
    expected = json.loads(original)
    expected["mcpServers"]["cc-search"] = server(cli_path(), "mcp")
    assert user.state.read_text() == json.dumps(expected, indent=2)
    assert mode(user.state) == 0o600

    proc = run_cli("install", "claude", "--mcp", "--uninstall", home=home)
    assert proc.returncode == 0, proc
    assert user.state.read_text() == original, "exactly the entry it added is gone"
    assert mode(user.state) == 0o600
    no_backups(user.home)


def test_user_scope_carries_home_and_config_options(home: Path, user: User, tmp_path: Path) -> None:
    data = tmp_path / "data"
    config = tmp_path / "cc.toml"
    proc = run_cli(
        "--home", str(data), "--config", str(config), "install", "claude", "--mcp", home=home
    )
    assert proc.returncode == 0, proc
    assert json.loads(user.state.read_text())["mcpServers"]["cc-search"] == server(
        cli_path(), "--home", str(data), "--config", str(config), "mcp"
    )
    # Installed again without them: the same server, updated in place.
    proc = run_cli("install", "claude", "--mcp", home=home)
    assert f"MCP server `cc-search` changed from `{cli_path()} --home {data}" in proc.stdout
    assert json.loads(user.state.read_text())["mcpServers"] == {
        "cc-search": server(cli_path(), "mcp")
    }


def test_user_scope_follows_claude_config_dir(home: Path, user: User, tmp_path: Path) -> None:
    config = tmp_path / "claude-config"
    proc = run_cli(
        "install", "claude", "--mcp", "--json", home=home, env={"CLAUDE_CONFIG_DIR": str(config)}
    )
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    state = config / ".claude.json"
    assert json.loads(proc.stdout) == {
        "path": str(state),
        "changed": True,
        "changes": [f"MCP server `cc-search` added: `{cli_path()} mcp`"],
        "warnings": [],
    }
    assert json.loads(state.read_text()) == {"mcpServers": {"cc-search": server(cli_path(), "mcp")}}
    assert not user.state.exists()


# ---------------------------------------------------------------------------------------
# project scope: .mcp.json


def test_project_scope_writes_a_portable_mcp_json(home: Path, user: User, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    mcp_json = project / ".mcp.json"
    proc = run_cli("install", "claude", "--mcp", "--project-dir", str(project), home=home)
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    assert proc.stdout.startswith(
        f"Installed cc-search's MCP server in {mcp_json}\n"
        "  MCP server `cc-search` added: `cc-search mcp`\n"
    )
    assert "approve" in proc.stdout
    # No absolute path into this machine: `cc-search` as each teammate has it on PATH.
    assert mcp_json.read_text() == as_written(
        {"mcpServers": {"cc-search": server("cc-search", "mcp")}}
    )
    assert not user.state.exists(), "the user's state is not touched"

    # --project alone: the current directory (or $CLAUDE_PROJECT_DIR).
    for cwd, env in ((project, None), (tmp_path, {"CLAUDE_PROJECT_DIR": str(project)})):
        again = run_cli("install", "claude", "--mcp", "--project", home=home, cwd=cwd, env=env)
        assert (
            again.stdout
            == f"{mcp_json}: cc-search's MCP server is already installed; nothing changed\n"
        )
    assert not (tmp_path / ".mcp.json").exists()

    removed = run_cli(
        "install", "claude", "--mcp", "--project", "--uninstall", home=home, cwd=project
    )
    assert (removed.returncode, removed.stderr) == (0, ""), removed
    assert removed.stdout == (
        f"Removed cc-search's MCP server from {mcp_json}\n"
        "  MCP server `cc-search` removed (`cc-search mcp`)\n"
        "  .mcp.json removed: nothing else was in it\n"
    )
    assert list(project.iterdir()) == []


def test_project_scope_leaves_home_and_config_out(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    data = tmp_path / "data"
    proc = run_cli(
        "--home", str(data), "install", "claude", "--mcp", "--project", home=home, cwd=project
    )
    assert proc.returncode == 0, proc
    assert proc.stderr == (
        "cc-search: warning: --home and --config are not written into .mcp.json (it is "
        "shared); the server uses $CC_SEARCH_HOME or the default data root\n"
    )
    entry = json.loads((project / ".mcp.json").read_text())["mcpServers"]["cc-search"]
    assert entry == server("cc-search", "mcp")


def test_project_scope_keeps_other_servers(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    mcp_json = project / ".mcp.json"
    original = json.dumps({"mcpServers": {"db": server("db-mcp", "--read-only")}}, indent=2)
    mcp_json.write_text(original)
    mcp_json.chmod(0o640)
    run_cli("install", "claude", "--mcp", "--project", home=home, cwd=project)
    assert json.loads(mcp_json.read_text()) == {
        "mcpServers": {
            "db": server("db-mcp", "--read-only"),
            "cc-search": server("cc-search", "mcp"),
        }
    }
    run_cli("install", "claude", "--mcp", "--project", "--uninstall", home=home, cwd=project)
    assert mcp_json.read_text() == original
    assert mode(mcp_json) == 0o640
    no_backups(project)


def test_another_programs_server_is_refused_and_left_untouched(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    mcp_json = project / ".mcp.json"
    foreign = json.dumps({"mcpServers": {"cc-search": server("some-other-server")}})
    mcp_json.write_text(foreign)
    proc = run_cli("install", "claude", "--mcp", "--project", home=home, cwd=project)
    assert (proc.returncode, proc.stdout) == (1, ""), proc
    assert proc.stderr.startswith("cc-search: error: invalid request for `claude.install_mcp`")
    assert "not cc-search's" in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert mcp_json.read_text() == foreign

    proc = run_cli("install", "claude", "--mcp", "--project", "--uninstall", home=home, cwd=project)
    assert proc.returncode == 0, proc
    assert "is not cc-search's; left as it is" in proc.stderr
    assert mcp_json.read_text() == foreign


def test_malformed_files_are_left_untouched(home: Path, user: User) -> None:
    for text in ("{oops", "[]", '{"mcpServers": []}'):
        user.state.write_text(text)
        for args in ([], ["--uninstall"]):
            proc = run_cli("install", "claude", "--mcp", *args, home=home)
            assert (proc.returncode, proc.stdout) == (1, ""), proc
            assert str(user.state) in proc.stderr
            assert user.state.read_text() == text
        no_backups(user.home)


def test_mcp_usage_and_hooks_stay_separate(home: Path, user: User, tmp_path: Path) -> None:
    for args in (
        ["install", "claude", "--mcp", "--user", "--project"],
        ["install", "claude", "--mcp", "--hooks-dir", str(tmp_path)],
    ):
        proc = run_cli(*args, home=home)
        assert proc.returncode == 2, (args, proc)
        assert "Traceback" not in proc.stderr
    assert not user.state.exists()

    # Without --mcp: the hooks only, never the MCP server.
    proc = run_cli("install", "claude", home=home)
    assert proc.returncode == 0, proc
    assert (user.home / ".claude" / "settings.json").is_file()
    assert not user.state.exists()


# ---------------------------------------------------------------------------------------
# with the real Claude Code CLI


@pytest.fixture(scope="session")
def claude_cli() -> str:
    """The `claude` of @anthropic-ai/claude-code, installed from npm into .tools/."""
    binary = CLAUDE_CODE_DIR / "node_modules" / ".bin" / "claude"

    def works() -> bool:
        if not binary.exists():
            return False
        probe = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, timeout=60
        )
        return probe.returncode == 0 and probe.stdout.startswith(CLAUDE_CODE_VERSION)

    if not works():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed: cannot install @anthropic-ai/claude-code")
        CLAUDE_CODE_DIR.mkdir(parents=True, exist_ok=True)
        (CLAUDE_CODE_DIR / "package.json").write_text('{"private": true}\n')
        proc = subprocess.run(
            [
                npm,
                "install",
                "--no-audit",
                "--no-fund",
                "--no-save",
                f"@anthropic-ai/claude-code@{CLAUDE_CODE_VERSION}",
            ],
            cwd=CLAUDE_CODE_DIR,
            capture_output=True,
            text=True,
            timeout=900,
        )
        if proc.returncode != 0 or not works():
            pytest.skip(
                f"npm could not install @anthropic-ai/claude-code@{CLAUDE_CODE_VERSION} into "
                f"{CLAUDE_CODE_DIR}: {(proc.stderr or proc.stdout).strip()[-500:]}"
            )
    return str(binary)


def claude(cli: str, *args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """Run `claude args…` with HOME and cc-search's data root isolated, no variable of an
    outer Claude Code session, no update check or telemetry."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ANTHROPIC"))}
    env.update(
        CC_SEARCH_HOME=str(home),
        DISABLE_AUTOUPDATER="1",
        DISABLE_TELEMETRY="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
    )
    return subprocess.run(
        [cli, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=180
    )


def output(proc: subprocess.CompletedProcess[str]) -> str:
    return proc.stdout + proc.stderr


def assert_not_found(proc: subprocess.CompletedProcess[str]) -> None:
    text = output(proc)
    assert proc.returncode != 0, text
    assert 'No MCP server named "cc-search"' in text or "not found" in text.lower(), text


def test_claude_code_connects_to_the_user_server(
    claude_cli: str, home: Path, user: User, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    proc = run_cli("install", "claude", "--mcp", "--user", home=home)
    assert proc.returncode == 0, proc

    listed = claude(claude_cli, "mcp", "list", cwd=project, home=home)
    assert listed.returncode == 0, output(listed)
    line = next((x for x in listed.stdout.splitlines() if x.startswith("cc-search:")), None)
    assert line is not None, output(listed)
    assert f"{cli_path()} mcp" in line and "Connected" in line, line

    got = claude(claude_cli, "mcp", "get", "cc-search", cwd=project, home=home)
    assert got.returncode == 0, output(got)
    assert "Scope: User config" in got.stdout, got.stdout
    assert "Connected" in got.stdout, got.stdout
    assert f"Command: {cli_path()}" in got.stdout, got.stdout

    proc = run_cli("install", "claude", "--mcp", "--user", "--uninstall", home=home)
    assert proc.returncode == 0, proc
    assert_not_found(claude(claude_cli, "mcp", "get", "cc-search", cwd=project, home=home))
    no_backups(user.home)


def test_claude_code_connects_to_the_project_server(
    claude_cli: str, home: Path, user: User, tmp_path: Path
) -> None:
    project = (tmp_path / "project").resolve()
    project.mkdir()
    proc = run_cli("install", "claude", "--mcp", "--project", home=home, cwd=project)
    assert proc.returncode == 0, proc

    # Claude Code runs a project's servers only once the person approved them.
    got = claude(claude_cli, "mcp", "get", "cc-search", cwd=project, home=home)
    assert got.returncode == 0, output(got)
    assert "Scope: Project config" in got.stdout and "Pending approval" in got.stdout, got.stdout

    # The approval as Claude Code records it: the folder trusted, the server enabled.
    state = json.loads(user.state.read_text()) if user.state.exists() else {}
    state.setdefault("projects", {})[str(project)] = {"hasTrustDialogAccepted": True}
    user.state.write_text(json.dumps(state, indent=2))
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text(
        '{"enabledMcpjsonServers": ["cc-search"]}\n'
    )

    listed = claude(claude_cli, "mcp", "list", cwd=project, home=home)
    line = next((x for x in listed.stdout.splitlines() if x.startswith("cc-search:")), None)
    assert line is not None and "cc-search mcp" in line and "Connected" in line, output(listed)
    got = claude(claude_cli, "mcp", "get", "cc-search", cwd=project, home=home)
    assert got.returncode == 0, output(got)
    assert "Scope: Project config" in got.stdout and "Connected" in got.stdout, got.stdout
    assert "Command: cc-search" in got.stdout, got.stdout

    proc = run_cli("install", "claude", "--mcp", "--project", "--uninstall", home=home, cwd=project)
    assert proc.returncode == 0, proc
    assert not (project / ".mcp.json").exists()
    assert_not_found(claude(claude_cli, "mcp", "get", "cc-search", cwd=project, home=home))


def test_claude_mcp_add_writes_what_install_writes(
    claude_cli: str, home: Path, user: User, tmp_path: Path
) -> None:
    """The entries of `claude mcp add` and of `install claude --mcp` are the same: an
    install after `claude mcp add` has nothing to do, and uninstall removes it."""
    project = (tmp_path / "project").resolve()
    project.mkdir()
    for scope, argv in (("user", [cli_path(), "mcp"]), ("project", ["cc-search", "mcp"])):
        added = claude(
            claude_cli, "mcp", "add", "-s", scope, "cc-search", "--", *argv, cwd=project, home=home
        )
        assert added.returncode == 0, output(added)
        proc = run_cli("install", "claude", "--mcp", f"--{scope}", home=home, cwd=project)
        assert (proc.returncode, proc.stderr) == (0, ""), proc
        assert "already installed; nothing changed" in proc.stdout, proc.stdout
        proc = run_cli(
            "install", "claude", "--mcp", f"--{scope}", "--uninstall", home=home, cwd=project
        )
        assert "MCP server `cc-search` removed" in proc.stdout, proc
    assert_not_found(claude(claude_cli, "mcp", "get", "cc-search", cwd=project, home=home))
    assert not (project / ".mcp.json").exists()


def test_claude_code_reports_no_unknown_schema_formats(
    claude_cli: str, home: Path, tmp_path: Path
) -> None:
    """Claude Code validates each tool's schemas and prints a line per `format` it does not
    know (schemars' `uint64`, `double`, …): there must be none."""
    project = tmp_path / "project"
    project.mkdir()
    added = claude(
        claude_cli,
        "mcp",
        "add",
        "-s",
        "user",
        "cc-search",
        "--",
        cli_path(),
        "mcp",
        cwd=project,
        home=home,
    )
    assert added.returncode == 0, output(added)
    got = claude(claude_cli, "mcp", "get", "cc-search", cwd=project, home=home)
    assert "Connected" in got.stdout, output(got)
    unknown = [line for line in output(got).splitlines() if "unknown format" in line]
    assert unknown == [], f"{len(unknown)} lines with 'unknown format', e.g. {unknown[:3]}"


def test_project_mcp_json_round_trip_is_exact_and_leaves_git_clean(
    claude_cli: str, home: Path, user: User, tmp_path: Path
) -> None:
    """A team's committed .mcp.json (as `claude mcp add` writes it: no final newline):
    the install adds a portable entry Claude Code reads, the uninstall puts the very same
    bytes back, and git sees nothing left behind."""
    project = (tmp_path / "project").resolve()
    project.mkdir()
    mcp_json = project / ".mcp.json"
    original = json.dumps({"mcpServers": {"db": server("db-mcp", "--read-only")}}, indent=2)
    mcp_json.write_text(original)
    git_env = {**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null"}

    def git(*args: str) -> str:
        proc = subprocess.run(
            ["git", *args], cwd=project, capture_output=True, text=True, env=git_env, timeout=60
        )
        assert proc.returncode == 0, proc
        return proc.stdout

    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "mcp")

    proc = run_cli("install", "claude", "--mcp", "--project", home=home, cwd=project)
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    text = mcp_json.read_text()
    assert "/" not in text and ".venv" not in text, text
    assert git("status", "--porcelain", "--untracked-files=all") == " M .mcp.json\n"
    got = claude(claude_cli, "mcp", "get", "cc-search", cwd=project, home=home)
    assert got.returncode == 0, output(got)
    assert "Scope: Project config" in got.stdout and "Command: cc-search" in got.stdout, got.stdout

    proc = run_cli("install", "claude", "--mcp", "--project", "--uninstall", home=home, cwd=project)
    assert proc.returncode == 0, proc
    assert mcp_json.read_text() == original
    assert git("status", "--porcelain", "--untracked-files=all") == ""
    assert_not_found(claude(claude_cli, "mcp", "get", "cc-search", cwd=project, home=home))
