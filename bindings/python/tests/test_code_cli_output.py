"""What ``cc-search code`` shows a person (the default) and a program (``--json``), on a
small real git repository indexed by the real CLI."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cc_search._cli_print_code import print_code_deps, print_code_detail, print_code_refs
from support import run_cli

MODELS = '''class User:
    """A user of the app."""

    def __init__(self, name: str) -> None:
        self.name = name

    def greet(self) -> str:
        return format_greeting(self.name)


def format_greeting(name: str) -> str:
    """Hello, NAME."""
    return "Hello, " + name.upper()
'''

MAIN = '''from app.models import User, format_greeting


def main() -> None:
    user = User("ada")
    print(user.greet())
    print(format_greeting("bob"))
'''

LIB = """/// A point in the plane.
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    /// The distance to the origin, squared.
    pub fn norm(&self) -> i32 {
        square(self.x) + square(self.y)
    }
}

fn square(v: i32) -> i32 {
    v * v
}

impl<T> From<T> for Point where T: Into<i32> {
    fn from(v: T) -> Self {
        let v = v.into();
        Point { x: v, y: v }
    }
}
"""


class Repo:
    """The repository, its data root, and the CLI run on it."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root, self.home = root, home

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        where = [] if args[0] in ("repos", "delete") else ["-C", str(self.root)]
        proc = run_cli("code", *args, *where, home=self.home)
        assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
        return proc

    def text(self, *args: str) -> str:
        """The human output, which is never JSON."""
        out = self.run(*args).stdout
        assert out.strip() and not out.lstrip().startswith(("{", "[")), (args, out)
        with pytest.raises(ValueError):
            json.loads(out)
        return out

    def json(self, *args: str) -> Any:
        """The `--json` output: compact, on one line."""
        out = self.run(*args, "--json").stdout
        value = json.loads(out)
        assert out == json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"
        return value

    def symbol(self, query: str, kind: str) -> dict[str, Any]:
        hits = self.json("search", query, "--kind", kind)["hits"]
        return next(h for h in hits if h["name"] == query)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Repo]:
    root = tmp_path_factory.mktemp("output") / "shop"
    for rel, text in {"app/models.py": MODELS, "app/main.py": MAIN, "src/lib.rs": LIB}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    home = tmp_path_factory.mktemp("output-home")
    yield Repo(root.resolve(), home)


def lines_of(text: str) -> list[str]:
    return text.rstrip("\n").split("\n")


def test_index_and_update(repo: Repo) -> None:
    out = repo.text("index", "--force")
    first, second = lines_of(out)
    assert re.fullmatch(
        r"Indexed 3 files in \d+\.\d\ds: 3 parsed \(\d new, \d changed\), 0 unchanged, 0 removed",
        first,
    ), first
    assert re.fullmatch(r"The index holds \d+ symbols and \d+ references\.", second), second
    again = repo.json("index")
    assert (again["new"], again["changed"], again["unchanged"]) == (0, 0, 3)
    updated = repo.text("update", "app/main.py")
    assert updated.startswith("Updated 1 file in ")
    assert "0 parsed (0 new, 0 changed), 1 unchanged, 0 removed" in updated


def test_search(repo: Repo) -> None:
    repo.run("index")
    hit = repo.json("search", "greeting")["hits"][0]
    assert (hit["name"], hit["path"], hit["start_line"], hit["end_line"]) == (
        "format_greeting", "app/models.py", 11, 13,
    )
    out = repo.text("search", "greeting")
    first = lines_of(out)[0]
    assert re.fullmatch(
        rf"#{hit['id']}  fn  format_greeting  app/models\.py:11-13  "
        r"def format_greeting\(name:str\) -> str",
        first,
    ), first
    assert lines_of(out)[-1] == 'Found 1 symbol for "greeting"'
    assert "No symbols." in repo.text("search", "nothing_is_called_this")


def test_search_over_several_files_shows_each_hits_file(repo: Repo) -> None:
    repo.run("index")
    found = repo.json("search", "User OR Point OR main")
    assert len({h["path"] for h in found["hits"]}) > 1
    out = repo.text("search", "User OR Point OR main")
    for hit in found["hits"]:
        place = f"{hit['path']}:{hit['start_line']}"
        assert any(f"#{hit['id']} " in line and place in line for line in lines_of(out)), hit
    # What an agent reads lists each file once.
    compact = json.loads(repo.run("search", "User OR Point OR main", "--compact").stdout)
    assert compact["_f"] and all("fi" in h and "f" not in h for h in compact["hits"])
    assert [compact["_f"][h["fi"]] for h in compact["hits"]] == [h["path"] for h in found["hits"]]


def test_symbols_is_a_tree(repo: Repo) -> None:
    repo.run("index")
    tree = repo.json("symbols", "app/models.py")["symbols"]
    user, greet = tree[0], tree[0]["children"][2]
    out = lines_of(repo.text("symbols", "app/models.py"))
    assert out[0] == "app/models.py  5 symbols"
    assert re.fullmatch(rf"  class User +1-8 +#{user['id']}", out[1]), out
    assert re.fullmatch(r"    method __init__ +4-5 +#\d+", out[2]), out
    # The attribute `__init__` assigns is the class's, at its line.
    assert re.fullmatch(r"    var name +5 +#\d+", out[3]), out
    assert re.fullmatch(rf"    method greet +7-8 +#{greet['id']}", out[4]), out
    assert re.fullmatch(r"  fn format_greeting +11-13 +#\d+", out[5]), out
    # The columns line up.
    assert len({line.index("#") for line in out[1:]}) == 1
    rust = repo.text("symbols", "src/lib.rs")
    assert re.search(r"^  impl Point +7-12 +#\d+\n    method norm +9-11 +#\d+$", rust, re.M)
    # A trait's impl names the trait, as the code does (its `where` clause left out).
    assert re.search(r"^  impl<T> From<T> for Point +18-23 +#\d+\n    method from +19-22 ", rust, re.M), rust


def test_detail_shows_where_what_and_the_references(repo: Repo) -> None:
    repo.run("index")
    greet = repo.symbol("greet", "method")
    target = repo.symbol("format_greeting", "fn")
    user = repo.symbol("User", "class")
    out = repo.text("detail", str(greet["id"]))
    assert lines_of(out)[0] == f"method greet  app/models.py:7-8  #{greet['id']}"
    assert "\n  def greet(self) -> str\n" in out
    assert f"Parent: class User  app/models.py:1-8  #{user['id']}" in out
    assert re.search(rf"Calls \(1\):\n  format_greeting  → #{target['id']}\n", out), out
    # `self.name` read: the attribute `__init__` assigns.
    name = repo.symbol("name", "var")
    assert re.search(
        rf"Types and values \(2\):\n  str   \(external\)\n  name  \(value\)  → #{name['id']}\n", out
    ), out

    main = repo.symbol("main", "fn")
    shown = repo.text("detail", str(main["id"]))
    assert re.search(r"^  print +\(external\)$", shown, re.M), shown
    # `user = User("ada")` declares `user`'s type: `user.greet()` is `User.greet`.
    assert re.search(rf"^  greet +→ #{greet['id']}$", shown, re.M), shown

    full = repo.text("detail", str(target["id"]))
    assert "\n  Hello, NAME.\n" in full
    # Who calls it, grouped by file, with line numbers and the caller's id.
    assert re.search(
        rf"Called by \(3\):\n  app/main\.py\n    1  import\n    7  call +main +#{main['id']}\n"
        rf"  app/models\.py\n    8  call +greet +#{greet['id']}\n",
        full,
    ), full

    doc = repo.text("detail", str(user["id"]))
    assert "Children (3):" in doc and re.search(r"^  method greet +7-8 +#\d+$", doc, re.M)


def test_refs_cut_short_say_the_offset_of_the_rest(tmp_path: Path) -> None:
    root = tmp_path / "many"
    calls = "".join(f"    format_greeting('n{i}')\n" for i in range(40))
    (root / "app").mkdir(parents=True)
    (root / "app" / "models.py").write_text(MODELS)
    (root / "app" / "calls.py").write_text(
        f"from app.models import format_greeting\n\n\ndef run() -> None:\n{calls}"
    )
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    many = Repo(root.resolve(), tmp_path / "home")
    many.run("index")
    target = many.symbol("format_greeting", "fn")
    total = many.json("refs", str(target["id"]))["total"]
    assert total == 42  # the import, 40 calls and `greet`

    # A budget too small for all: the rest is an `--offset` away, page after page.
    seen: list[str] = []
    offset = 0
    while True:
        page = lines_of(many.text("refs", str(target["id"]), "--offset", str(offset),
                                  "--max-tokens", "150"))
        header = re.fullmatch(rf"References to #{target['id']} \((\d+)-(\d+) of 42\)", page[0])
        rows = [line for line in page if re.match(r"^ +\d+  ", line)]
        assert header and rows, page
        assert int(header[1]) == offset + 1 and int(header[2]) == offset + len(rows), page
        seen.extend(f"{offset}:{row.split()[0]}" for row in rows)
        if "--offset" not in page[-1]:
            break
        tail = re.fullmatch(
            r"(\d+) more references were left out to fit the token budget: "
            r"--offset (\d+) shows them, or raise --max-tokens\.", page[-1])
        assert tail and int(tail[2]) == offset + len(rows), page[-1]
        assert int(tail[1]) == 42 - offset - len(rows)
        offset = int(tail[2])
    assert offset > 0 and len(seen) == 42
    assert many.json("refs", str(target["id"]), "--offset", "40")["references"][0]["line"] == 44
    assert lines_of(many.text("refs", str(target["id"]), "--offset", "50"))[1] == (
        "  None after the first 50."
    )


def test_refs_and_deps(repo: Repo) -> None:
    repo.run("index")
    target = repo.symbol("format_greeting", "fn")
    main = repo.symbol("main", "fn")
    refs = lines_of(repo.text("refs", str(target["id"])))
    assert refs[0] == f"References to #{target['id']} (3)"
    assert refs[1:3] == ["  app/main.py", "    1  import"]
    assert re.fullmatch(rf"    7  call +main +#{main['id']}", refs[3]), refs
    assert refs[4] == "  app/models.py"
    assert [r["path"] for r in repo.json("refs", str(target["id"]))["references"]] == [
        "app/main.py", "app/main.py", "app/models.py",
    ]

    deps = lines_of(repo.text("deps", str(main["id"])))
    assert deps[0] == f"Dependencies of #{main['id']} (4)"
    assert re.fullmatch(rf"  call +format_greeting +→ #{target['id']}", deps[-1]), deps
    assert any(re.fullmatch(r"  call +print +\(external\)", line) for line in deps), deps
    assert lines_of(repo.text("deps", str(target["id"])))[1:] == [
        "  type_ref  str    (external)",
        "  call      upper  (external)",
    ]


def test_overview_status_and_repos(repo: Repo) -> None:
    repo.run("index")
    overview = repo.text("overview")
    assert "Languages: python 2, rust 1\n" in overview
    assert re.search(r"Directories \(2\):\n +files +symbols +directory\n +2 +\d+ +app\n", overview)
    assert "Entry points (" in overview and re.search(r"main +main +app/main\.py:4-7 +#\d+", overview)

    status = repo.text("status")
    assert f"Repository: {repo.root}\n" in status
    assert "Files:      3 (python 2, rust 1)\n" in status
    assert "Changes:    none since" in status

    repos = lines_of(repo.text("repos"))
    assert repos[0].split() == ["files", "symbols", "indexed", "repository"]
    assert any(line.startswith("    3 ") and line.endswith(str(repo.root)) for line in repos)


def test_status_lists_what_changed(tmp_path: Path, home: Path) -> None:
    other = Repo(tmp_path / "changed", home)
    (other.root / "a.py").parent.mkdir(parents=True)
    (other.root / "a.py").write_text("def a():\n    pass\n")
    (other.root / "b.py").write_text("def b():\n    pass\n")
    subprocess.run(["git", "init", "-q", str(other.root)], check=True)
    other.run("index")
    (other.root / "a.py").write_text("def a():\n    return 1\n")
    (other.root / "b.py").unlink()
    status = other.text("status")
    assert "Changes:    1 changed, 1 deleted since: `cc-search code index`" in status
    assert "\n  M a.py\n  D b.py\n" in status
    deleted = run_cli("code", "delete", str(other.root), str(tmp_path / "never"), home=home)
    assert deleted.stdout == (
        f"Deleted the code index of {other.root}\nNo code index for {tmp_path / 'never'}\n"
    )
    assert run_cli("code", "repos", home=home).stdout.startswith("No code index yet")


def test_truncated_says_how_to_see_more(repo: Repo) -> None:
    repo.run("index")
    cut = repo.json("search", "User OR Point OR main OR square", "--max-tokens", "40")
    assert cut["truncated"] is True
    out = repo.text("search", "User OR Point OR main OR square", "--max-tokens", "40")
    assert "raise --max-tokens" in lines_of(out)[-1]
    # The text shows the hits the agent's answer kept, no more.
    query = "User OR Point OR main OR square"
    every = repo.json("search", query)["hits"]
    kept = repo.json("search", query, "--max-tokens", "120")
    out = repo.text("search", query, "--max-tokens", "120")
    shown = [line for line in lines_of(out) if re.match(r"\s*#\d+ ", line)]
    assert 0 < len(shown) == len(kept["hits"]) < len(every), (out, kept)
    assert [re.match(r"\s*#(\d+)", line).group(1) for line in shown] == [
        str(h["id"]) for h in every[: len(shown)]
    ]


def test_output_is_deterministic(repo: Repo) -> None:
    repo.run("index")
    greet = str(repo.symbol("greet", "method")["id"])
    for args in [
        ["search", "User OR Point OR main"],
        ["symbols", "src/lib.rs"],
        ["detail", greet],
        ["refs", greet],
        ["deps", greet],
        ["overview"],
        ["status"],
    ]:
        assert repo.run(*args).stdout == repo.run(*args).stdout, args


def test_every_json_option_says_what_it_prints(repo: Repo) -> None:
    for command in ["index", "update", "status", "overview", "symbols", "search", "detail",
                    "refs", "deps", "repos", "delete"]:
        shown = run_cli("code", command, "--help", home=repo.home, env={"COLUMNS": "200"}).stdout
        line = next(line for line in shown.splitlines() if line.lstrip().startswith("--json"))
        assert "Print the result as compact JSON on one line:" in line, (command, line)
        assert "as without --json" not in line, (command, line)


# --- references a name could resolve to in several ways (the printer alone) --------------


def test_ambiguous_references_show_their_candidates(capsys: pytest.CaptureFixture[str]) -> None:
    print_code_detail({
        "id": 7, "name": "run", "kind": "fn", "path": "a.py", "start_line": 3, "end_line": 9,
        "calls": [
            {"name": "helper", "id": 12, "ambiguous": True, "candidates": [12, 40]},
            {"name": "save", "ambiguous": True, "candidates": [41, 42]},
            {"name": "load", "ambiguous": True},
            {"name": "print", "external": True},
        ],
        "type_refs": [{"name": "Base", "id": 3, "kind": "extends"}],
        "called_by": [{"from_id": 9, "from_name": "main", "path": "b.py", "kind": "call",
                       "line": 4, "ambiguous": True, "candidates": [7, 8]}],
    })
    out = capsys.readouterr().out
    assert "  helper  → #12 ambiguous: #12 #40\n" in out
    assert "  save    ambiguous: #41 #42\n" in out
    assert "  load    ambiguous\n" in out
    assert "  print   (external)\n" in out
    assert "  Base  (extends)  → #3\n" in out
    assert "  b.py\n    4  call  main  #9  ambiguous: #7 #8\n" in out

    print_code_refs({"id": 7, "references": [{"from_name": "x", "from_id": 1, "path": "c.py",
                                                "kind": "call", "line": 2}]})
    assert capsys.readouterr().out == "References to #7 (1)\n  c.py\n    2  call  x  #1\n"
    print_code_deps({"id": 7, "dependencies": [{"to_name": "y", "kind": "call", "ambiguous": True,
                                                  "candidates": [5, 6]}], "truncated": True})
    out = capsys.readouterr().out
    assert "  call  y  ambiguous: #5 #6\n" in out
    assert out.endswith("raise --max-tokens to see them.\n")


def test_a_method_of_an_unknown_value_is_ambiguous_with_its_candidates(
    tmp_path: Path, home: Path
) -> None:
    # `user.greet()` on a parameter of no declared type: the index does not know its
    # type, so the call links to no definition but names `User.greet` as a candidate,
    # and `User.greet`'s references list the call as a maybe; `print` is the builtin.
    root = tmp_path / "shop"
    (root / "app").mkdir(parents=True)
    (root / "app" / "models.py").write_text(MODELS)
    (root / "app" / "main.py").write_text("def main(user):\n    print(user.greet())\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    repo = Repo(root.resolve(), home)
    repo.run("index")
    main = repo.symbol("main", "fn")
    greet = repo.symbol("greet", "method")
    deps = {d["to_name"]: d for d in repo.json("deps", str(main["id"]))["dependencies"]}
    assert deps["greet"]["ambiguous"] is True
    assert deps["greet"]["candidates"] == [greet["id"]]
    assert "to_id" not in deps["greet"]
    assert deps["print"]["external"] is True
    assert re.search(rf"greet\s+ambiguous: #{greet['id']}", repo.text("deps", str(main["id"])))
    refs = repo.json("refs", str(greet["id"]))["references"]
    assert [(r["from_name"], r.get("maybe")) for r in refs] == [("main", True)]
    assert "(maybe)" in repo.text("refs", str(greet["id"]))
