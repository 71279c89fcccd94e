"""What a file's outline and a repository's overview cost an agent, against the grep it
would run instead: bytes of the answer the MCP tools give (``agent_answer`` of
``code.get_file_symbols`` and ``code.get_overview``) and of the full typed results, next to
``grep -nE`` for the definitions of the same file.

    .venv/bin/python bindings/python/bench/agent_views.py REPO FILE [FILE...]

REPO is any checkout (pytest's, for the table in docs/BENCHMARKS.md), indexed into a
temporary data root first; each FILE is relative to it. The grep pattern is the one an
agent would write for the file's language (Python ``def``/``class``, Rust ``fn``/``struct``
…). Deterministic: the same checkout gives the same numbers.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from cc_search import Engine, agent_answer

#: The definitions an agent greps for, by extension.
PATTERNS = {
    ".py": r"^\s*(async )?(def|class) ",
    ".rs": r"^\s*(pub(\(\w+\))? )?(async )?(fn|struct|enum|trait|impl|mod|type|const) ",
    ".ts": r"^\s*(export )?(async )?(function|class|interface|type|const|enum) ",
    ".js": r"^\s*(export )?(async )?(function|class|const) ",
    ".go": r"^(func|type) ",
}


def grep_bytes(repo: Path, rel: str) -> int:
    pattern = PATTERNS.get(Path(rel).suffix, PATTERNS[".py"])
    out = subprocess.run(
        ["grep", "-nE", pattern, rel], cwd=repo, capture_output=True, check=False
    ).stdout
    return len(out)


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    repo = Path(sys.argv[1]).resolve()
    files = sys.argv[2:]
    with tempfile.TemporaryDirectory() as home:
        engine = Engine(home=home)
        engine.code_index(path=repo)
        print("| view | agent answer, B | full result, B | grep -nE, B | answer / grep |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for rel in files:
            full = engine.call("code.get_file_symbols", {"path": str(repo), "file": rel})
            answer = agent_answer("code.get_file_symbols", full)
            whole = len(json.dumps(full, separators=(",", ":"), ensure_ascii=False).encode())
            grep = grep_bytes(repo, rel)
            print(
                f"| outline of `{rel}` | {len(answer.encode()):,} | {whole:,} | {grep:,} "
                f"| {len(answer.encode()) / grep:.2f} |"
            )
        full = engine.call("code.get_overview", {"path": str(repo)})
        answer = agent_answer("code.get_overview", full)
        whole = len(json.dumps(full, separators=(",", ":"), ensure_ascii=False).encode())
        print(f"| overview of `{repo.name}` | {len(answer.encode()):,} | {whole:,} | — | — |")


if __name__ == "__main__":
    main()
