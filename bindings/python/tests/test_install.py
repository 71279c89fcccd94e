"""`cc-search install claude`, end to end through the installed entry point (a subprocess
per call), on real settings files. CLAUDE_CONFIG_DIR, HOME and CC_SEARCH_HOME always point
at temp directories: the user's own ~/.claude is never read or written."""

from __future__ import annotations

import json
import os
import shlex
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support import cli_path, make_files, native_hook_path, run_cli


@dataclass
class Claude:
    config: Path
    """$CLAUDE_CONFIG_DIR (not created)."""
    user_home: Path
    """$HOME."""

    @property
    def settings(self) -> Path:
        return self.config / "settings.json"


@pytest.fixture(autouse=True)
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Claude:
    user_home = tmp_path / "user-home"
    user_home.mkdir()
    config = tmp_path / "claude-config"
    monkeypatch.setenv("HOME", str(user_home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    return Claude(config=config, user_home=user_home)


def own_commands(*options: str) -> tuple[str, str]:
    """The commands `install claude` writes without --hooks-dir: the native hook program
    installed beside the `cc-search` command."""
    argv = [native_hook_path(), *options]
    return (
        shlex.join([*argv, "file-suggestion"]),
        shlex.join([*argv, "session-start"]),
    )


def python_commands(*options: str) -> tuple[str, str]:
    """The commands written where the native hook program cannot run: this CLI's."""
    argv = [cli_path(), *options]
    return (
        shlex.join([*argv, "hook", "file-suggestion"]),
        shlex.join([*argv, "hook", "session-start"]),
    )


def installed(file_suggestion: str, session_start: str) -> dict[str, Any]:
    """cc-search's two entries, as install adds them to a file without them."""
    return {
        "fileSuggestion": {"type": "command", "command": file_suggestion},
        "hooks": {
            "SessionStart": [
                {
                    "matcher": "startup",
                    "hooks": [{"type": "command", "command": session_start}],
                }
            ]
        },
    }


def as_claude_writes(value: Any) -> str:
    """JSON as Claude Code writes settings: two spaces, a final newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


EXISTING: dict[str, Any] = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {"allow": ["Bash(git status)"], "deny": []},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo pre"}]}],
        "SessionStart": [
            {"matcher": "resume", "hooks": [{"type": "command", "command": "echo resumed"}]}
        ],
    },
    "model": "opus",
    "unknownFutureKey": {"zeta": [1, 2.5, None, True, "café"], "alpha": {}},
}


def with_cc_search(file_suggestion: str, session_start: str) -> dict[str, Any]:
    """EXISTING after an install: the same keys in the same order, plus cc-search's."""
    expected: dict[str, Any] = json.loads(json.dumps(EXISTING))
    expected["hooks"]["SessionStart"].append(
        {"matcher": "startup", "hooks": [{"type": "command", "command": session_start}]}
    )
    expected["fileSuggestion"] = {"type": "command", "command": file_suggestion}
    return expected


#: What `install claude --project` writes: the native program from each person's PATH.
PROJECT_FS, PROJECT_SS = "cc-search-hook file-suggestion", "cc-search-hook session-start"


def backups(data_root: Path) -> list[Path]:
    """The files the installers keep in the data root (backups and install records)."""
    root = data_root / "backups"
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null"},
        timeout=60,
    )
    assert proc.returncode == 0, proc
    return proc.stdout


def git_repo(root: Path) -> Path:
    """A git repository at `root` with everything in it committed."""
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init")
    return root


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cc-search-hook` on the PATH, as for anyone who installed cc-search."""
    bin_dir = os.path.dirname(native_hook_path())
    monkeypatch.setenv("PATH", bin_dir + os.pathsep + os.environ.get("PATH", ""))


def hooks_dir(root: Path, executable: bool = True) -> Path:
    make_files(root, ["file-suggestion.sh", "session-start.sh"], "#!/bin/sh\n")
    if executable:
        for name in ("file-suggestion.sh", "session-start.sh"):
            (root / name).chmod(0o755)
    return root


def test_install_into_the_user_settings(home: Path, claude: Claude) -> None:
    fs_command, ss_command = own_commands()
    proc = run_cli("install", "claude", home=home)
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    assert proc.stdout == (
        f"Installed cc-search in {claude.settings}\n"
        f"  fileSuggestion set to `{fs_command}`\n"
        f"  SessionStart hook added: `{ss_command}`\n"
        f"The hooks run the native hook program {native_hook_path()}, "
        "installed with this cc-search.\n"
        "There was no previous file, so no backup.\n"
    )
    assert claude.settings.read_text() == as_claude_writes(installed(fs_command, ss_command))
    assert not (claude.user_home / ".claude").exists()

    # Idempotent: nothing changes, nothing is written, no backup appears.
    before = claude.settings.stat()
    again = run_cli("install", "claude", "--user", home=home)
    assert (again.returncode, again.stderr) == (0, "")
    assert again.stdout == f"{claude.settings}: cc-search is already installed; nothing changed\n"
    assert sorted(p.name for p in claude.config.iterdir()) == ["settings.json"]
    assert claude.settings.stat().st_mtime_ns == before.st_mtime_ns
    assert claude.settings.stat().st_ino == before.st_ino


def test_install_keeps_existing_settings_and_backs_them_up(home: Path, claude: Claude) -> None:
    claude.config.mkdir()
    original = as_claude_writes(EXISTING)
    claude.settings.write_text(original)
    claude.settings.chmod(0o600)
    fs_command, ss_command = own_commands()

    proc = run_cli("install", "claude", home=home)
    assert proc.returncode == 0, proc
    # Nothing beside the file: the one backup is in the data root.
    assert [p.name for p in claude.config.iterdir()] == ["settings.json"]
    backup = next(p for p in backups(home) if p.name == "settings.json")
    assert proc.stdout.endswith(f"Backup of the previous file: {backup}\n")
    assert backup.read_text() == original
    # Byte for byte what it was, plus cc-search's entries; the permissions are kept.
    assert claude.settings.read_text() == as_claude_writes(with_cc_search(fs_command, ss_command))
    assert stat.S_IMODE(claude.settings.stat().st_mode) == 0o600

    uninstalled = run_cli("install", "claude", "--uninstall", home=home)
    assert uninstalled.returncode == 0, uninstalled
    assert uninstalled.stdout == (
        f"Removed cc-search from {claude.settings}\n"
        f"  fileSuggestion `{fs_command}` removed\n"
        f"  SessionStart hook `{ss_command}` removed\n"
        "  settings.json put back byte for byte as it was before cc-search's install\n"
        f"Backup of the previous file: {backup}\n"
    )
    assert claude.settings.read_text() == original
    assert [p.name for p in claude.config.iterdir()] == ["settings.json"]
    assert backups(home) == [backup], "one backup, replaced on each write"
    assert backup.read_text() == as_claude_writes(with_cc_search(fs_command, ss_command))

    again = run_cli("install", "claude", "--uninstall", home=home)
    assert again.stdout == f"{claude.settings}: cc-search is not installed there; nothing changed\n"


def test_install_into_a_project(home: Path, claude: Claude, tmp_path: Path, on_path: None) -> None:
    project = make_files(tmp_path / "project", ["README.md"])
    settings = project / ".claude" / "settings.json"

    proc = run_cli("install", "claude", "--project-dir", str(project), home=home)
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    assert proc.stdout == (
        f"Installed cc-search in {settings}\n"
        f"  fileSuggestion set to `{PROJECT_FS}`\n"
        f"  SessionStart hook added: `{PROJECT_SS}`\n"
        "The hooks run `cc-search-hook` from the PATH of each person who works on the project, "
        "as its settings are shared.\n"
        "Commit .claude/settings.json to share it; everyone needs `cc-search-hook` on PATH "
        "(`pip install cc-search` or `pipx install cc-search` puts it there).\n"
        "There was no previous file, so no backup.\n"
    )
    # Nothing of this machine in the shared file: no path, no virtualenv.
    text = settings.read_text()
    assert text == as_claude_writes(installed(PROJECT_FS, PROJECT_SS))
    assert "/" not in text.replace("https://", "") and ".venv" not in text
    assert not claude.config.exists(), "the user settings are not touched"

    # --project without a directory: $CLAUDE_PROJECT_DIR, else the current directory.
    here = run_cli("install", "claude", "--project", home=home, cwd=project)
    assert here.stdout == f"{settings}: cc-search is already installed; nothing changed\n"
    other = make_files(tmp_path / "other", ["x"])
    from_env = run_cli(
        "install",
        "claude",
        "--project",
        home=home,
        cwd=other,
        env={"CLAUDE_PROJECT_DIR": str(project)},
    )
    assert from_env.stdout == f"{settings}: cc-search is already installed; nothing changed\n"
    assert not (other / ".claude").exists()

    # Uninstalled: the file and the .claude/ it created are gone.
    removed = run_cli("install", "claude", "--project", "--uninstall", home=home, cwd=project)
    assert (removed.returncode, removed.stderr) == (0, ""), removed
    assert removed.stdout == (
        f"Removed cc-search from {settings}\n"
        f"  fileSuggestion `{PROJECT_FS}` removed\n"
        f"  SessionStart hook `{PROJECT_SS}` removed\n"
        "  settings.json removed: nothing else was in it\n"
        "  .claude/ removed: cc-search's install created it and it is empty\n"
        f"Backup of the previous file: {backups(home)[0]}\n"
    )
    assert sorted(p.name for p in project.iterdir()) == ["README.md"]


def test_project_install_and_uninstall_leave_git_clean(
    home: Path, tmp_path: Path, on_path: None
) -> None:
    # Committed settings of the team's own.
    project = git_repo(
        make_files(tmp_path / "project", [".claude/settings.json", "README.md"], "")
    )
    settings = project / ".claude" / "settings.json"
    original = '{\n    "model": "opus",\n    "hooks": {}\n}'
    settings.write_text(original)
    git(project, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qam", "settings")
    proc = run_cli("install", "claude", "--project", home=home, cwd=project)
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    assert git(project, "status", "--porcelain", "--untracked-files=all") == (
        " M .claude/settings.json\n"
    )
    assert json.loads(settings.read_text())["fileSuggestion"]["command"] == PROJECT_FS
    proc = run_cli("install", "claude", "--project", "--uninstall", home=home, cwd=project)
    assert proc.returncode == 0, proc
    assert settings.read_text() == original
    assert git(project, "status", "--porcelain", "--untracked-files=all") == ""

    # No settings before: installed, it is the only new file; uninstalled, nothing is left.
    fresh = git_repo(make_files(tmp_path / "fresh", ["README.md"], "# p\n"))
    run_cli("install", "claude", "--project", home=home, cwd=fresh)
    assert git(fresh, "status", "--porcelain", "--untracked-files=all") == (
        "?? .claude/settings.json\n"
    )
    run_cli("install", "claude", "--project", "--uninstall", home=home, cwd=fresh)
    assert git(fresh, "status", "--porcelain", "--untracked-files=all") == ""
    assert not (fresh / ".claude").exists()


def test_project_install_warns_when_cc_search_hook_is_not_on_path(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    project = make_files(tmp_path / "project", ["README.md"])
    data = tmp_path / "data"
    proc = run_cli("--home", str(data), "install", "claude", "--project", home=home, cwd=project)
    assert proc.returncode == 0, proc
    assert proc.stderr == (
        "cc-search: warning: --home and --config are not written into the project's settings "
        "(they are shared); the hooks use $CC_SEARCH_HOME or the default data root\n"
        "cc-search: warning: `cc-search-hook` is not on this PATH: Claude Code runs the hooks "
        "only where `cc-search-hook` is on the PATH it starts with\n"
    )
    # Still the portable form, for the teammates who have it.
    settings = project / ".claude" / "settings.json"
    assert json.loads(settings.read_text()) == installed(PROJECT_FS, PROJECT_SS)

    # Options that name files of this machine are refused for a project.
    for option in ("--hooks-dir", "--hook-program"):
        refused = run_cli(
            "install", "claude", "--project", option, str(tmp_path), home=home, cwd=project
        )
        assert refused.returncode == 2, refused
        assert "a project's settings are shared" in refused.stderr, refused.stderr


def test_project_command_answers_the_picker(home: Path, tmp_path: Path, on_path: None) -> None:
    """The shared command as Claude Code runs it on a teammate's machine: a shell, the
    query on stdin, cc-search-hook found on PATH."""
    project = make_files(tmp_path / "project", ["src/components/Button.tsx", "README.md"])
    run_cli("install", "claude", "--project", home=home, cwd=project)
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    proc = subprocess.run(
        settings["fileSuggestion"]["command"],
        shell=True,
        input='{"query": "butt"}',
        capture_output=True,
        text=True,
        cwd=project,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(project), "CC_SEARCH_HOME": str(home)},
        timeout=60,
    )
    assert (proc.returncode, proc.stdout) == (0, "src/components/Button.tsx\n"), proc


def test_hooks_dir_uses_the_bun_scripts_and_replaces_the_cli_hooks(
    home: Path, claude: Claude, tmp_path: Path
) -> None:
    scripts = hooks_dir(tmp_path / "node_modules" / "cc-search" / "hooks")
    run_cli("install", "claude", home=home)
    fs_old, ss_old = own_commands()

    proc = run_cli("install", "claude", "--hooks-dir", str(scripts), home=home)
    assert proc.returncode == 0, proc
    fs_new = str(scripts / "file-suggestion.sh")
    ss_new = str(scripts / "session-start.sh")
    assert f"  fileSuggestion changed from `{fs_old}` to `{fs_new}`\n" in proc.stdout
    assert f"  SessionStart hook changed from `{ss_old}` to `{ss_new}`\n" in proc.stdout
    assert "\nThe hooks run the Bun hook scripts, as given with --hooks-dir.\n" in proc.stdout
    # One entry of cc-search, never two.
    assert json.loads(claude.settings.read_text()) == installed(fs_new, ss_new)

    # Back to the native hooks, and out again: no settings file is left, nor the
    # directory the first install created.
    run_cli("install", "claude", home=home)
    assert json.loads(claude.settings.read_text()) == installed(fs_old, ss_old)
    run_cli("install", "claude", "--uninstall", home=home)
    assert not claude.config.exists()


def test_hooks_dir_must_hold_executable_scripts(home: Path, claude: Claude, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run_cli("install", "claude", "--hooks-dir", str(empty), home=home)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == (
        f"cc-search: error: --hooks-dir: there is no file-suggestion.sh in {empty}\n"
    )

    plain = hooks_dir(tmp_path / "plain", executable=False)
    proc = run_cli("install", "claude", "--hooks-dir", str(plain), home=home)
    assert proc.returncode == 1
    assert "is not executable" in proc.stderr
    assert not claude.config.exists(), "nothing was written"


def test_home_and_config_options_are_carried_into_the_hooks(
    home: Path, claude: Claude, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    config = tmp_path / "cc.toml"
    proc = run_cli("--home", str(data), "--config", str(config), "install", "claude", home=home)
    assert proc.returncode == 0, proc
    fs_command, ss_command = own_commands("--home", str(data), "--config", str(config))
    assert json.loads(claude.settings.read_text()) == installed(fs_command, ss_command)


def test_where_the_native_program_cannot_run_the_python_hooks_are_written(
    home: Path, claude: Claude, tmp_path: Path
) -> None:
    # A program that is not ours (wrong version, another platform's binary): refused.
    impostor = tmp_path / "cc-search-hook"
    impostor.write_text("#!/bin/sh\necho cc-search-hook 0.0.1\n")
    impostor.chmod(0o755)
    not_executable = tmp_path / "plain"
    not_executable.write_text("")
    for program in (impostor, not_executable, tmp_path / "missing"):
        proc = run_cli("install", "claude", "--hook-program", str(program), home=home)
        assert proc.returncode == 0, proc
        warning = proc.stderr.splitlines()
        assert len(warning) == 1, proc.stderr
        assert warning[0].startswith(f"cc-search: warning: {program}") or warning[0].startswith(
            f"cc-search: warning: the native hook program {program} cannot run here"
        ), warning
        assert warning[0].endswith(
            "; writing this CLI's `cc-search hook` commands instead, which start Python on "
            "every keystroke of the @ picker"
        )
        # Which hook and why: said once, by that warning.
        assert "The hooks run" not in proc.stdout, proc.stdout
        if program == impostor:
            assert proc.stdout.startswith("Installed cc-search in "), proc.stdout
        else:
            assert proc.stdout.endswith("cc-search is already installed; nothing changed\n")
        assert json.loads(claude.settings.read_text()) == installed(*python_commands())

    # A copy of the real program elsewhere (as `make install` puts it) is used as given.
    copy = tmp_path / "bin" / "cc-search-hook"
    copy.parent.mkdir()
    copy.write_bytes(Path(native_hook_path()).read_bytes())
    copy.chmod(0o755)
    proc = run_cli("install", "claude", "--hook-program", str(copy), home=home)
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    assert f"\nThe hooks run the native hook program {copy}, as given with --hook-program.\n" in (
        proc.stdout
    ), proc.stdout
    fs_command, ss_command = (
        shlex.join([str(copy), "file-suggestion"]),
        shlex.join([str(copy), "session-start"]),
    )
    assert json.loads(claude.settings.read_text()) == installed(fs_command, ss_command)


@pytest.mark.parametrize("program", ["native", "python"])
def test_installed_command_answers_the_picker(
    home: Path, claude: Claude, tmp_path: Path, program: str
) -> None:
    """What Claude Code does with the settings: run the command through a shell with the
    query on stdin."""
    project = make_files(tmp_path / "project", ["src/components/Button.tsx", "README.md"])
    data = tmp_path / "data"
    cannot_run = ["--hook-program", str(tmp_path / "missing")] if program == "python" else []
    run_cli("--home", str(data), "install", "claude", *cannot_run, home=home)
    command = json.loads(claude.settings.read_text())["fileSuggestion"]["command"]
    assert ("cc-search-hook" in command) == (program == "native"), command
    proc = subprocess.run(
        command,
        shell=True,
        input='{"query": "butt"}',
        capture_output=True,
        text=True,
        cwd=project,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(project)},
        timeout=60,
    )
    assert (proc.returncode, proc.stdout) == (0, "src/components/Button.tsx\n"), proc
    assert (data / "files.db").is_file(), "the data root given to install is used"


def test_malformed_settings_are_left_untouched(home: Path, claude: Claude) -> None:
    claude.config.mkdir()
    for text, uninstall_too in (("{oops", True), ("[]", True), ('{"hooks": []}', False)):
        claude.settings.write_text(text)
        for args in ([], ["--uninstall"]) if uninstall_too else ([],):
            proc = run_cli("install", "claude", *args, home=home)
            assert (proc.returncode, proc.stdout) == (1, ""), proc
            assert proc.stderr.startswith("cc-search: error: invalid request for `claude.install`")
            assert proc.stderr.count("\n") == 1
            assert str(claude.settings) in proc.stderr
            assert claude.settings.read_text() == text
            assert [p.name for p in claude.config.iterdir()] == ["settings.json"]
    # Nothing of cc-search can be in a `hooks` that is not an object: nothing to uninstall.
    proc = run_cli("install", "claude", "--uninstall", home=home)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert claude.settings.read_text() == '{"hooks": []}'


def test_usage_errors(home: Path, claude: Claude, tmp_path: Path) -> None:
    for args in (
        ["install", "claude", "--user", "--project"],
        ["install", "claude", "--user", "--project-dir", str(tmp_path)],
        ["install", "claude", "--bogus"],
        ["install", "vim"],
    ):
        proc = run_cli(*args, home=home)
        assert proc.returncode == 2, (args, proc)
        assert proc.stdout == ""
        assert "Traceback" not in proc.stderr
    assert not claude.config.exists()


def test_json_output(home: Path, claude: Claude) -> None:
    proc = run_cli("install", "claude", "--json", home=home)
    assert proc.returncode == 0, proc
    result = json.loads(proc.stdout)
    fs_command, ss_command = own_commands()
    assert result == {
        "settings_path": str(claude.settings),
        "changed": True,
        "backup": None,
        "changes": [
            f"fileSuggestion set to `{fs_command}`",
            f"SessionStart hook added: `{ss_command}`",
        ],
        "warnings": [],
    }


def test_a_foreign_file_suggestion_is_replaced_with_a_warning(home: Path, claude: Claude) -> None:
    claude.config.mkdir()
    claude.settings.write_text(
        as_claude_writes({"fileSuggestion": {"type": "command", "command": "my-picker"}})
    )
    proc = run_cli("install", "claude", home=home)
    assert proc.returncode == 0
    assert proc.stderr.startswith(
        "cc-search: warning: the previous fileSuggestion `my-picker` is not cc-search's"
    )
    fs_command, _ = own_commands()
    assert json.loads(claude.settings.read_text())["fileSuggestion"]["command"] == fs_command
