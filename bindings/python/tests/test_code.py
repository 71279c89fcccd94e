"""The code symbol index from Python: the ``Engine.code_*`` methods and the
``cc-search code`` commands (a real subprocess), on real temporary repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cc_search
from support import run_cli


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    write(root, ".gitignore", "build_out/\n")
    write(
        root,
        "src/service.ts",
        "import { helper } from './helpers';\n\n"
        "/** Loads users. More text. */\n"
        "export class UserService {\n"
        "  getUserById(id: number): User {\n"
        "    return helper(id);\n"
        "  }\n"
        "}\n",
    )
    write(root, "src/helpers.ts", "export function helper(id: number) { return id; }\n")
    write(root, "app/parser.py", 'class HTMLParser:\n    """Parses HTML."""\n\n    def feed(self, data: str) -> None:\n        pass\n')
    write(root, "build_out/gen.ts", "export function generated() {}\n")
    write(root, "README.md", "# Title\n\nIntro.\n")
    return root.resolve()


def test_index_search_and_navigate(engine: cc_search.Engine, repo: Path) -> None:
    result = engine.code_index(repo)
    assert result["status"] == "ok"
    assert result["stats"]["files"] == 4
    assert result["new"] == 4
    again = engine.code_index(repo)
    assert (again["new"], again["changed"], again["deleted"]) == (0, 0, 0)

    found = engine.code_search("user", path=repo)
    names = [h["name"] for h in found["hits"]]
    assert "getUserById" in names and "UserService" in names
    # Every hit names its file and lines in full.
    assert all(h["path"] == "src/service.ts" for h in found["hits"])
    assert all(h["start_line"] <= h["end_line"] for h in found["hits"])
    # What an agent reads of it: short keys, the one file inlined.
    agent = json.loads(cc_search.agent_answer("code.search_symbols", found))
    assert all(h["f"] == "src/service.ts" and "path" not in h for h in agent["hits"])
    assert "_f" not in agent and agent["q"] == "user"
    assert [h["name"] for h in engine.code_search("html", path=repo)["hits"]] == ["HTMLParser"]
    assert engine.code_search("generated", path=repo)["hits"] == []
    assert [h["name"] for h in engine.code_search("user", path=repo, kind="method")["hits"]] == ["getUserById"]

    symbols = engine.code_file_symbols("src/service.ts", path=repo)
    cls = symbols["symbols"][0]
    assert (cls["name"], cls["kind"], cls["start_line"], cls["end_line"], cls["doc"]) == (
        "UserService", "class", 4, 8, "Loads users.",
    )
    method = cls["children"][0]
    assert method["signature"] == "getUserById(id:number):User"

    detail = engine.code_symbol(method["id"], path=repo)
    assert detail["signature"] == "getUserById(id: number): User"
    assert detail["parent"]["name"] == "UserService"
    target = detail["calls"][0]["id"]
    assert engine.code_symbol(target, path=repo)["path"] == "src/helpers.ts"
    refs = engine.code_references(target, path=repo)
    assert any(
        r.get("from_name") == "getUserById" and r["line"] == 6 and r["path"] == "src/service.ts"
        for r in refs["references"]
    )
    deps = engine.code_dependencies(method["id"], path=repo)
    assert {"to_name": "helper", "kind": "call", "to_id": target} in deps["dependencies"]

    overview = engine.code_overview(repo)
    assert overview["languages"] == {"markdown": 1, "python": 1, "typescript": 2}
    status = engine.code_status(repo)
    assert status["indexed"] is True and status["files"] == 4


def test_update_status_budget_and_repos(engine: cc_search.Engine, repo: Path) -> None:
    engine.code_index(repo)
    write(repo, "src/helpers.ts", "export function renamedHelper() {}\n")
    assert engine.code_status(repo)["stale_files"] == ["src/helpers.ts"]
    updated = engine.code_update(["src/helpers.ts"], path=repo)
    assert updated["changed"] == 1
    assert [h["name"] for h in engine.code_search("renamed", path=repo)["hits"]] == ["renamedHelper"]

    for i in range(30):
        write(repo, f"lib/m{i:02}.py", f"def item_{i:02}():\n    '''Item {i}.'''\n")
    engine.code_index(repo)
    found = engine.code_search("item", path=repo, limit=100)
    assert len(found["hits"]) == 30 and "truncated" not in found
    text = cc_search.agent_answer("code.search_symbols", found, max_tokens=100)
    cut = json.loads(text)
    assert cut["truncated"] is True
    assert 0 < len(cut["hits"]) < 30
    assert len(text) <= 400

    assert [r["path"] for r in engine.code_repos()] == [str(repo)]
    assert engine.code_delete([repo])["deleted"] == [str(repo)]
    assert engine.code_repos() == []


def many_callers(root: Path) -> Path:
    """A repository where ``target`` (with a long doc) is called by 40 functions."""
    doc = "Target. " + "A long explanation of what it does. " * 10
    write(root, "lib/target.py", f'def target(value: int) -> int:\n    """{doc}"""\n    return value\n')
    for i in range(40):
        write(
            root,
            f"lib/caller_{i:02}.py",
            f"from lib.target import target\n\n\ndef caller_{i:02}():\n    return target({i})\n",
        )
    return root.resolve()


def test_symbol_detail_budget(engine: cc_search.Engine, tmp_path: Path, home: Path) -> None:
    root = many_callers(tmp_path / "callers")
    engine.code_index(root)
    target = engine.code_search("target", path=root, kind="fn")["hits"][0]["id"]
    full = engine.code_symbol(target, path=root)
    # Each caller imports and calls it.
    assert [r["kind"] for r in full["called_by"]].count("call") == 40
    assert "truncated" not in full
    text = cc_search.agent_answer("code.get_symbol_detail", full, max_tokens=500)
    cut = json.loads(text)
    assert cut["truncated"] is True
    assert 0 < len(cut["called_by"]) < 80
    assert len(text) <= 2000
    # The first callers stay, in order, each pointing at its file in `_f`.
    for shown, caller in zip(cut["called_by"], full["called_by"]):
        assert (shown["line"], cut["_f"][shown["fi"]]) == (caller["line"], caller["path"])

    assert cli_json("index", "-C", str(root), home=home)["stats"]["files"] == 41
    cli_target = cli_json("search", "target", "-C", str(root), "--kind", "fn", home=home)["hits"][0]["id"]
    cli_full = cli_json("detail", str(cli_target), "-C", str(root), home=home)
    assert [r["kind"] for r in cli_full["called_by"]].count("call") == 40
    cli_cut = cli_json("detail", str(cli_target), "-C", str(root), "--max-tokens", "500", home=home)
    assert cli_cut["truncated"] is True
    assert len(cli_cut["called_by"]) == len(cut["called_by"])
    # --compact prints what an agent reads: the MCP tool's answer.
    compact = cli_json("detail", str(cli_target), "-C", str(root), "--compact", home=home)
    assert compact == json.loads(cc_search.agent_answer("code.get_symbol_detail", cli_full))
    assert compact["n"] == "target" and len(compact["_f"]) == 40
    assert run_cli("code", "detail", str(cli_target), "-C", str(root), "--max-tokens", "0", home=home).returncode == 2


def test_errors(engine: cc_search.Engine, repo: Path, tmp_path: Path) -> None:
    with pytest.raises(cc_search.IoError):
        engine.code_index(tmp_path / "missing")
    engine.code_index(repo)
    with pytest.raises(cc_search.InvalidRequestError, match="12345"):
        engine.code_symbol(12345, path=repo)
    with pytest.raises(cc_search.InvalidRequestError):
        engine.code_search("", path=repo)
    with pytest.raises(cc_search.InvalidRequestError):
        engine.code_search("x", path=repo, kind="widget")
    with pytest.raises(cc_search.InvalidRequestError):
        engine.code_delete()


def test_binary_and_non_utf8_files(engine: cc_search.Engine, tmp_path: Path) -> None:
    root = tmp_path / "bad"
    write(root, "bin.py", b"def x():\0\xff\xfe")
    write(root, "latin.py", b"# caf\xe9\ndef still_found():\n    pass\n")
    result = engine.code_index(root)
    assert any("bin.py" in w and "binary" in w for w in result["warnings"])
    assert [h["name"] for h in engine.code_search("still_found", path=root)["hits"]] == ["still_found"]


# --- the CLI -----------------------------------------------------------------------------


def test_the_canonical_definition_first_and_qualified_names(
    engine: cc_search.Engine, tmp_path: Path, home: Path
) -> None:
    root = tmp_path / "canonical"
    write(root, "src/pkg/config/__init__.py", "class Config:\n    pass\n")
    write(root, "testing/test_config.py", "def test_it():\n    class Config:\n        pass\n")
    write(root, "src/pkg/fixtures.py", "class FixtureDef:\n    def execute(self):\n        pass\n")
    write(root, "src/pkg/runner.py", "def execute(item):\n    return item\n")
    engine.code_index(root)
    assert engine.code_search("Config", path=root)["hits"][0]["path"] == "src/pkg/config/__init__.py"
    for query in ("FixtureDef.execute", "src/pkg/fixtures.py:execute"):
        top = engine.code_search(query, path=root)["hits"][0]
        assert (top["name"], top["path"]) == ("execute", "src/pkg/fixtures.py"), query
    found = cli_json("search", "pkg.config.Config", "-C", str(root), home=home)
    assert found["hits"][0]["path"] == "src/pkg/config/__init__.py"


def cli_json(*args: str, home: Path) -> dict:
    proc = run_cli("code", *args, "--json", home=home)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_cli(repo: Path, home: Path) -> None:
    index = cli_json("index", "--project-dir", str(repo), home=home)
    assert index["stats"]["files"] == 4
    proc = run_cli("code", "search", "user", "-C", str(repo), "--json", home=home)
    assert proc.returncode == 0, proc.stderr
    # One line of compact JSON.
    assert proc.stdout.count("\n") == 1 and ", " not in proc.stdout
    hits = json.loads(proc.stdout)["hits"]
    assert "getUserById" in [h["name"] for h in hits]
    method = next(h for h in hits if h["name"] == "getUserById")
    detail = cli_json("detail", str(method["id"]), "-C", str(repo), home=home)
    assert detail["parent"]["name"] == "UserService"
    refs = cli_json("refs", str(detail["calls"][0]["id"]), "-C", str(repo), home=home)
    assert any(r.get("from_name") == "getUserById" for r in refs["references"])
    deps = cli_json("deps", str(method["id"]), "-C", str(repo), home=home)
    assert "helper" in [d["to_name"] for d in deps["dependencies"]]
    syms = cli_json("symbols", "app/parser.py", "-C", str(repo), home=home)
    assert syms["symbols"][0]["children"][0]["name"] == "feed"
    assert cli_json("overview", "-C", str(repo), home=home)["languages"]["typescript"] == 2
    assert cli_json("status", "-C", str(repo), home=home)["indexed"] is True
    write(repo, "app/parser.py", "def replaced():\n    pass\n")
    assert cli_json("update", "app/parser.py", "-C", str(repo), home=home)["changed"] == 1
    assert cli_json("repos", home=home)["repos"][0]["path"] == str(repo)
    assert cli_json("delete", str(repo), home=home)["deleted"] == [str(repo)]


def test_cli_defaults_to_the_project_and_reports_errors(repo: Path, home: Path) -> None:
    proc = run_cli("code", "index", "--json", home=home, cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["stats"]["files"] == 4
    bad = run_cli("code", "detail", "999999", home=home, cwd=repo)
    assert bad.returncode == 1
    assert "999999" in bad.stderr
    # Neither repositories nor --all: a usage error.
    nothing = run_cli("code", "delete", home=home)
    assert nothing.returncode == 2 and "give DIR... or --all" in nothing.stderr
    usage = run_cli("code", "search", home=home)
    assert usage.returncode == 2


def test_warnings_go_to_stderr(repo: Path, home: Path) -> None:
    write(repo, "blob.rs", b"\0\0binary")
    proc = run_cli("code", "index", "-C", str(repo), "--json", home=home)
    assert proc.returncode == 0
    assert "blob.rs" in proc.stderr
    assert "warnings" not in json.loads(proc.stdout)
    # Without --json too, once, and not on stdout.
    plain = run_cli("code", "index", "-C", str(repo), "--force", home=home)
    assert plain.returncode == 0
    assert plain.stderr.count("blob.rs") == 1 and "blob.rs" not in plain.stdout


def test_mcp_tools_include_code(repo: Path, home: Path) -> None:
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "code_search_symbols", "arguments": {"query": "html"}}},
    ]
    proc = run_cli(
        "mcp",
        "--root",
        str(repo),
        home=home,
        stdin="".join(json.dumps(m) + "\n" for m in lines),
    )
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    result = replies[1]["result"]
    assert result.get("isError") is not True, result
    assert json.loads(result["content"][0]["text"])["hits"][0]["n"] == "HTMLParser"
