"""One grammar for every ``cc-search`` command (README.md, "The command line"): what
``-C/--project-dir``, ``--path``, ``-n/--limit``, ``--json`` and ``-V/--version`` mean on
each command family, the old names still accepted, and the messages of a project that is
a file and of an unknown ``@namespace:`` (warnings: test_cli_warnings.py).

The grammar is checked twice: on the command tree itself (every command, so a new one
cannot drift) and by running each family as a real process from a directory that is not
the project, so that only the flag can lead it there."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

import cc_search
from cc_search._cli_printers import PRINTERS
from cc_search.cli import Command, commands, parser_for
from support import cli_path, make_files, run_cli, run_program

#: Commands that print no result of their own: Claude Code's hooks (their stdout is the
#: protocol) and the MCP server (JSON-RPC).
NO_RESULT = {"hook file-suggestion", "hook session-start", "mcp"}

#: Commands without a project: the session commands read every project's transcripts,
#: `ops` lists the operation table, `call` takes its parameters as JSON, `code repos` lists
#: every repository and `code delete` names the repositories as arguments.
NO_PROJECT = {"search", "chunk", "index", "status", "ops", "call", "code repos", "code delete"}

#: Commands that list results, and so take -n/--limit.
LIMITED = {
    "files suggest", "grep", "code search", "code find", "docs query", "notes query", "search"
}

#: Operations no command runs by itself: `install claude` runs the installers, and `embed`
#: is for programs (`call embed.text` reaches it).
NOT_COMMANDS = {"claude.install", "claude.install_mcp", "embed.text"}

ALL = {command.name: command for command in commands()}


def options(command: Command) -> list[argparse.Action]:
    return [a for a in parser_for(command)._actions if a.option_strings]


def shown(command: Command) -> list[argparse.Action]:
    return [a for a in options(command) if a.help != argparse.SUPPRESS]


def named(command: Command, flag: str) -> argparse.Action | None:
    return next((a for a in options(command) if flag in a.option_strings), None)


def test_every_command_is_checked() -> None:
    assert len(ALL) >= 26
    for name in NO_RESULT | NO_PROJECT | LIMITED:
        assert name in ALL, name


def test_every_operation_is_a_command_with_a_printer() -> None:
    ran = {command.op for command in commands() if command.op is not None}
    assert ran | NOT_COMMANDS == {op["name"] for op in cc_search.operations()}
    for command in commands():
        if command.op is not None and command.json != "always":
            assert command.name in PRINTERS, command.name
    assert set(PRINTERS) <= set(ALL)


@pytest.mark.parametrize("name", sorted(ALL))
def test_the_same_flag_means_the_same_thing(name: str) -> None:
    command = ALL[name]
    for option in shown(command):
        # --path is only ever a path; -p means nothing.
        assert "--path" not in option.option_strings, (name, option.option_strings)
        assert "-p" not in option.option_strings, (name, option.option_strings)
        # Every value has a metavar, in capitals.
        if option.nargs != 0 and option.option_strings != ["-h", "--help"]:
            assert option.metavar, (name, option.option_strings)
            assert option.metavar.upper() == option.metavar, (name, option.metavar)
        # -C is --project-dir and -n is --limit, wherever they appear.
        if "-C" in option.option_strings:
            assert "--project-dir" in option.option_strings, (name, option.option_strings)
        if "-n" in option.option_strings:
            assert "--limit" in option.option_strings, (name, option.option_strings)
        assert "full content" not in (option.help or ""), (name, option.help)

    project = named(command, "--project-dir")
    if name in NO_PROJECT:
        assert project is None, name
    else:
        assert project is not None and set(project.option_strings) == {"--project-dir", "-C"}
        assert project.metavar == "DIR"

    limit = named(command, "--limit")
    if name in LIMITED:
        assert limit is not None and "-n" in limit.option_strings and limit.metavar == "N", name
    else:
        assert limit is None, name

    as_json = named(command, "--json")
    if name in NO_RESULT:
        assert as_json is None, name
    else:
        assert as_json is not None and as_json.nargs == 0, name
        assert (as_json.help or "").startswith("Print "), (name, as_json.help)


def test_help_texts_show_the_grammar(home: Path) -> None:
    for args, present, absent in [
        (["docs", "index"], ["--glob GLOB", "-C, --project-dir DIR"], ["--path", "<int range>"]),
        (
            ["code", "search"],
            ["-C, --project-dir DIR", "-n, --limit N", "--json"],
            ["--path", "-p,"],
        ),
        (["search"], ["--project NAME", "-n, --limit N"], ["-p,", "<int range>", "INTEGER"]),
        (["grep"], ["-C, --project-dir DIR", "--hidden", "--skip-generated", "--json"], []),
        (
            ["--home", str(home), "grep"],
            ["-C, --project-dir DIR", "-n, --max-matches, --limit N"],
            [],
        ),
    ]:
        proc = run_cli(*args, "--help", home=home)
        assert proc.returncode == 0, proc
        for text in present:
            assert text in proc.stdout, (args, text)
        for text in absent:
            assert text not in proc.stdout, (args, text)


def test_version_short_and_long(home: Path) -> None:
    expected = f"cc-search {cc_search.__version__}\n"
    for flag in ("-V", "--version"):
        proc = run_cli(flag, home=home)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, expected, "")


# --- each family, run from a directory that is not the project ---------------------------


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """The current directory of every run: a project of its own, never the one meant."""
    return make_files(tmp_path / "elsewhere", ["decoy.md", "docs/decoy.md"], "decoy\n")


@pytest.fixture
def app_dir(tmp_path: Path) -> Path:
    root = tmp_path / "app"
    make_files(root, ["README.md"], "# App\n")
    make_files(root, ["src/main.py"], "def needle_function():\n    return 'needle'\n")
    make_files(root, ["src/util.py"], "def other_needle():\n    return 'needle'\n")
    make_files(root, ["docs/guide.md"], "# Guide\n\n## Needles\n\nThe needle is in the haystack.\n")
    make_files(root, ["sessions/2026_01_02_NEEDLE/NOTES.md"], "## Found\n\nThe needle was found.\n")
    return root


def cli(
    *args: str, home: Path, cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, home=home, cwd=cwd, stdin=stdin)


def ok(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, (proc.args, proc.stdout, proc.stderr)
    return proc.stdout


def test_project_dir_is_the_project_on_files(home: Path, app_dir: Path, elsewhere: Path) -> None:
    refreshed = ok(cli("files", "refresh", "-C", str(app_dir), "--json", home=home, cwd=elsewhere))
    assert json.loads(refreshed)["root"] == os.path.realpath(app_dir)
    found = ok(cli("files", "suggest", "readme", "-C", str(app_dir), home=home, cwd=elsewhere))
    assert found == "README.md\n"
    long = ok(
        cli("files", "suggest", "readme", "--project-dir", str(app_dir), home=home, cwd=elsewhere)
    )
    assert long == found


def test_project_dir_is_the_default_dir_of_grep(home: Path, app_dir: Path, elsewhere: Path) -> None:
    result = json.loads(
        ok(
            cli(
                "grep",
                "--search",
                "needle",
                "--recursive",
                "-C",
                str(app_dir),
                home=home,
                cwd=elsewhere,
            )
        )
    )
    (directory,) = result["directories"]
    assert directory["dir"] == str(app_dir)
    assert {f["path"] for f in directory["files"]} >= {"src/main.py", "src/util.py"}
    # The same through the full command line (global options before `grep`).
    again = ok(
        cli(
            "--home",
            str(home),
            "grep",
            "-e",
            "needle",
            "-r",
            "--project-dir",
            str(app_dir),
            home=home,
            cwd=elsewhere,
        )
    )
    assert json.loads(again) == result
    # --dir, when given, is what is searched.
    only = json.loads(
        ok(
            cli(
                "grep",
                "--search",
                "needle",
                "--dir",
                str(app_dir / "src"),
                "-C",
                str(elsewhere),
                home=home,
                cwd=elsewhere,
            )
        )
    )
    assert [d["dir"] for d in only["directories"]] == [str(app_dir / "src")]


def test_project_dir_is_the_repository_of_code(home: Path, app_dir: Path, elsewhere: Path) -> None:
    indexed = json.loads(
        ok(cli("code", "index", "-C", str(app_dir), "--json", home=home, cwd=elsewhere))
    )
    assert indexed["stats"]["files"] >= 2
    hits = json.loads(
        ok(
            cli(
                "code", "search", "needle_function", "-C", str(app_dir), "--json",
                home=home, cwd=elsewhere,
            )
        )
    )
    assert [h["name"] for h in hits["hits"]] == ["needle_function"]
    status = json.loads(
        ok(cli("code", "status", "--project-dir", str(app_dir), "--json", home=home, cwd=elsewhere))
    )
    assert status["indexed"] is True
    # The old name, hidden, still works; given with -C it must agree.
    old = json.loads(
        ok(cli("code", "status", "--path", str(app_dir), "--json", home=home, cwd=elsewhere))
    )
    assert old == status
    both = cli(
        "code", "status", "-C", str(app_dir), "--path", str(elsewhere), home=home, cwd=elsewhere
    )
    assert both.returncode == 2 and "--path is the old name of --project-dir" in both.stderr
    # -p is no flag of `code` any more.
    assert cli("code", "status", "-p", str(app_dir), home=home, cwd=elsewhere).returncode == 2


def test_project_dir_is_the_project_of_docs_and_notes(
    home: Path, app_dir: Path, elsewhere: Path
) -> None:
    indexed = json.loads(
        ok(cli("docs", "index", "-C", str(app_dir), "--json", home=home, cwd=elsewhere))
    )
    # README.md and docs/guide.md: the README is documentation too.
    assert (indexed["project"], indexed["files"]) == ("app", 2)
    found = json.loads(
        ok(
            cli(
                "docs",
                "query",
                "needle",
                "-C",
                str(app_dir),
                "--mode",
                "keyword",
                "--json",
                home=home,
                cwd=elsewhere,
            )
        )
    )
    assert [h["file"] for h in found["results"]] == ["docs/guide.md"]
    # --glob adds files to the defaults (and is remembered); --path is its old, hidden name.
    for flag in ("--glob", "--path"):
        custom = json.loads(
            ok(
                cli(
                    "docs",
                    "index",
                    "-C",
                    str(app_dir),
                    flag,
                    "src/*.md",
                    "--json",
                    home=home,
                    cwd=elsewhere,
                )
            )
        )
        assert (custom["files"], custom["globs"]) == (2, ["src/*.md"]), flag
    notes = json.loads(
        ok(cli("notes", "index", "-C", str(app_dir), "--json", home=home, cwd=elsewhere))
    )
    assert notes["files"] == 1
    hit = json.loads(
        ok(
            cli(
                "notes",
                "query",
                "needle",
                "-C",
                str(app_dir),
                "--mode",
                "keyword",
                "--json",
                home=home,
                cwd=elsewhere,
            )
        )
    )
    assert [h["session_path"] for h in hit["results"]] == ["sessions/2026_01_02_NEEDLE"]


def test_project_dir_is_the_project_of_the_hooks_and_install(
    home: Path, app_dir: Path, elsewhere: Path, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    hook = subprocess.run(
        [cli_path(), "hook", "file-suggestion", "-C", str(app_dir)],
        input='{"query": "readme"}',
        capture_output=True,
        text=True,
        cwd=elsewhere,
        timeout=60,
        env={**env, "CC_SEARCH_HOME": str(home)},
    )
    assert (hook.returncode, hook.stdout) == (0, "README.md\n"), hook.stderr
    claude = tmp_path / "claude-config"
    installed = run_program(
        [cli_path(), "install", "claude", "-C", str(app_dir), "--json"],
        home,
        cwd=elsewhere,
        env={"CLAUDE_CONFIG_DIR": str(claude), "HOME": str(tmp_path)},
    )
    assert installed.returncode == 0, installed.stderr
    assert json.loads(installed.stdout)["settings_path"] == str(
        app_dir / ".claude" / "settings.json"
    )
    assert (app_dir / ".claude" / "settings.json").is_file()
    assert not (elsewhere / ".claude").exists()


# --- -n/--limit and --json ----------------------------------------------------------------


def test_limit_on_every_command_that_lists(home: Path, app_dir: Path, elsewhere: Path) -> None:
    ok(cli("code", "index", "-C", str(app_dir), home=home, cwd=elsewhere))
    ok(cli("docs", "index", "-C", str(app_dir), home=home, cwd=elsewhere))
    suggested = ok(
        cli("files", "suggest", "py", "-C", str(app_dir), "-n", "1", home=home, cwd=elsewhere)
    )
    assert len(suggested.splitlines()) == 1
    for flag in ("-n", "--limit", "--max-matches"):
        grep = json.loads(
            ok(
                cli(
                    "grep",
                    "--search",
                    "needle",
                    "--recursive",
                    "-C",
                    str(app_dir),
                    flag,
                    "1",
                    home=home,
                    cwd=elsewhere,
                )
            )
        )
        assert sum(len(f["matches"]) for f in grep["directories"][0]["files"]) == 1, flag
    code = json.loads(
        ok(
            cli(
                "code", "search", "needle*", "-C", str(app_dir), "-n", "1", "--json",
                home=home, cwd=elsewhere,
            )
        )
    )
    assert len(code["hits"]) == 1
    docs = json.loads(
        ok(
            cli(
                "docs",
                "query",
                "needle haystack",
                "-C",
                str(app_dir),
                "-n",
                "1",
                "--mode",
                "keyword",
                "--json",
                home=home,
                cwd=elsewhere,
            )
        )
    )
    assert len(docs["results"]) == 1
    assert (
        cli(
            "docs", "query", "x", "-C", str(app_dir), "-n", "0", home=home, cwd=elsewhere
        ).returncode
        == 2
    )


def test_json_is_accepted_where_the_output_is_json_anyway(
    home: Path, app_dir: Path, elsewhere: Path
) -> None:
    ok(cli("files", "refresh", "-C", str(app_dir), home=home, cwd=elsewhere))
    for args in [
        ["grep", "--search", "needle", "--recursive", "-C", str(app_dir)],
        ["--home", str(home), "grep", "--search", "needle", "--recursive", "-C", str(app_dir)],
        ["call", "files.suggest", json.dumps({"query": "readme", "project_dir": str(app_dir)})],
    ]:
        plain = ok(cli(*args, home=home, cwd=elsewhere))
        as_json = ok(cli(*args, "--json", home=home, cwd=elsewhere))
        assert as_json == plain, args
        compact = json.dumps(json.loads(plain), ensure_ascii=False, separators=(",", ":"))
        assert plain == compact + "\n", args


def test_code_prints_text_and_compact_json_with_json(
    home: Path, app_dir: Path, elsewhere: Path
) -> None:
    ok(cli("code", "index", "-C", str(app_dir), home=home, cwd=elsewhere))
    for args in [
        ["code", "search", "needle_function", "-C", str(app_dir)],
        ["code", "overview", "-C", str(app_dir)],
        ["code", "status", "-C", str(app_dir)],
        ["code", "repos"],
    ]:
        plain = ok(cli(*args, home=home, cwd=elsewhere))
        with pytest.raises(ValueError):
            json.loads(plain)
        as_json = ok(cli(*args, "--json", home=home, cwd=elsewhere))
        compact = json.dumps(json.loads(as_json), ensure_ascii=False, separators=(",", ":"))
        assert as_json == compact + "\n", args


# --- messages ------------------------------------------------------------------------------


def test_a_project_dir_that_is_a_file_is_an_error(home: Path, app_dir: Path) -> None:
    for command in (["files", "suggest"], ["files", "refresh"]):
        proc = cli(*command, "--project-dir", "README.md", home=home, cwd=app_dir)
        assert (proc.returncode, proc.stdout) == (1, ""), proc
        assert proc.stderr == "cc-search: error: README.md: not a directory\n"


def test_an_unknown_namespace_is_named(home: Path, app_dir: Path) -> None:
    proc = cli("files", "suggest", "@nosuch:readme", "-C", str(app_dir), home=home, cwd=app_dir)
    assert (proc.returncode, proc.stdout) == (0, ""), proc
    warning = (
        "no namespace `nosuch` (none is configured: [namespaces] in config.toml), so "
        "`@nosuch:` was searched for as plain text"
    )
    assert f"cc-search: warning: {warning}\n" in proc.stderr
    as_json = json.loads(
        ok(
            cli(
                "files",
                "suggest",
                "@nosuch:readme",
                "-C",
                str(app_dir),
                "--json",
                home=home,
                cwd=app_dir,
            )
        )
    )
    assert as_json["paths"] == [] and warning in as_json["warnings"]
    (home / "config.toml").write_text('[namespaces]\ndocs = ["docs/**"]\n')
    named = cli("files", "suggest", "@nosuch:readme", "-C", str(app_dir), home=home, cwd=app_dir)
    assert "no namespace `nosuch` (configured: docs)" in named.stderr
    known = cli("files", "suggest", "@docs:guide", "-C", str(app_dir), home=home, cwd=app_dir)
    assert (known.stdout, known.stderr) == ("docs/guide.md\n", "")


def test_search_project_is_a_name(home: Path, tmp_path: Path) -> None:
    from support import Transcript, keyword_only

    projects = tmp_path / "claude" / "projects"
    Transcript("aaaaaaaa-0000-4000-8000-00000000000a", "/home/u/webshop", 1_772_000_000).prompt(
        "How is the needle cached?"
    ).reply("The needle is cached in redis.").write(projects)
    Transcript("bbbbbbbb-0000-4000-8000-00000000000b", "/home/u/billing", 1_772_000_000).prompt(
        "Where is the needle billed?"
    ).reply("The needle is billed monthly.").write(projects)
    data = keyword_only(tmp_path / "sessions-home")
    env = {"CLAUDE_CONFIG_DIR": str(projects.parent)}

    def found(*args: str) -> set[Any]:
        proc = run_cli("search", "needle", *args, "--json", home=data, env=env)
        assert proc.returncode == 0, proc.stderr
        return {hit["project"] for hit in json.loads(proc.stdout)["results"]}

    assert found() == {"/home/u/webshop", "/home/u/billing"}
    assert found("--project", "WEBSHOP") == {"/home/u/webshop"}
    assert found("-p", "billing") == {"/home/u/billing"}  # the old short name, hidden
    assert len(found("-n", "1")) == 1
