"""Index a directory with cc-search and print file suggestions.

    python example.py [DIR] [QUERY ...]

Without DIR, a small demo project is created in a temporary directory. The index lives
in $CC_SEARCH_HOME when it is set, else in a temporary directory removed at the end.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import cc_search

DEMO_FILES = ["src/components/Button.tsx", "src/components/Modal.tsx", "README.md"]


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="cc-search-example-") as scratch:
        if argv:
            project = Path(argv[0])
        else:
            project = Path(scratch, "demo")
            for rel in DEMO_FILES:
                (project / rel).parent.mkdir(parents=True, exist_ok=True)
                (project / rel).write_text("")
        queries = argv[1:] or ["src/comp", "readme", "Button", ""]
        home = os.environ.get("CC_SEARCH_HOME") or Path(scratch, "home")

        with cc_search.Engine(home) as engine:
            try:
                indexed = engine.files_refresh(project)
            except cc_search.IoError as e:
                print(f"cannot index {project}: {e}", file=sys.stderr)
                return 1
            print(f"indexed {indexed['files']} files under {indexed['root']}")
            for query in queries:
                found = engine.files_suggest(query, project_dir=project, limit=5)
                print(f"@{query}")
                for path in found["paths"]:
                    print(f"  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
