"""The generated types are loaded on first use, not on import: the picker's hook imports
the package and its CLI on every keystroke."""

from __future__ import annotations

import subprocess
import sys


def run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_importing_the_package_and_cli_does_not_build_the_types() -> None:
    out = run(
        "import sys, cc_search, cc_search.cli\n"
        "print('cc_search._types' in sys.modules)"
    )
    assert out == "False"


def test_types_and_their_old_names_are_there_on_first_use() -> None:
    out = run(
        "import sys, cc_search\n"
        "t = cc_search.FilesSuggestResponse\n"
        "print('cc_search._types' in sys.modules, cc_search.SuggestResult is t,"
        " t.__name__, 'paths' in t.__annotations__)"
    )
    assert out == "True True FilesSuggestResponse True"


def test_star_import_and_dir_list_every_name() -> None:
    out = run(
        "import cc_search\n"
        "ns = {}\n"
        "exec('from cc_search import *', ns)\n"
        "print(sorted(n for n in cc_search.__all__ if n not in ns),"
        " 'GrepResponse' in dir(cc_search))"
    )
    assert out == "[] True"


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    out = run(
        "import cc_search\n"
        "try:\n    cc_search.NoSuchThing\n"
        "except AttributeError as e:\n    print('AttributeError', e)"
    )
    assert out == "AttributeError module 'cc_search' has no attribute 'NoSuchThing'"


def test_importing_the_package_loads_the_native_module_alone() -> None:
    # `cc-search grep` needs nothing more: the rest loads on first use.
    out = run(
        "import sys, cc_search\n"
        "print([m for m in ('cc_search._engine', 'cc_search._operations', 'json')"
        " if m in sys.modules], isinstance(cc_search.IoError('x'), cc_search.Error))"
    )
    assert out == "[] True"
