"""cc-search: embedded search for coding agents, in-process over SQLite.

Open an :class:`Engine` on a data root, index a project, ask for paths::

    import cc_search

    with cc_search.Engine() as engine:  # data in $CC_SEARCH_HOME, else XDG
        engine.files_refresh("/src/app")
        for path in engine.files_suggest("src/comp", project_dir="/src/app")["paths"]:
            print(path)

Every operation of the core is a typed method of :class:`Engine` (generated from the
core's operation table into :mod:`cc_search._operations`, with a TypedDict for each
request and result in :mod:`cc_search._types`, loaded on first use) and is also reachable by name with :meth:`Engine.call`. Errors
raise :class:`Error` subclasses whose ``code`` is the same on every surface of
cc-search. The GIL is released while the core works, so one engine can serve many
threads.
"""

from __future__ import annotations

from . import _native
from ._native import (  # noqa: F401 (re-exported: the error classes)
    CancelledError,
    DatabaseError,
    Error,
    InternalError,
    InvalidRequestError,
    IoError,
    UnknownOperationError,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ._engine import *  # noqa: F403 (its public names: Engine, operations, ...)
    from ._types import *  # noqa: F403 (the generated types, listed in its __all__)

__version__: str = _native.version()


def __getattr__(name: str) -> Any:
    """Every other name (:class:`Engine`, :func:`operations`, the generated types, ...)
    is loaded on first use: importing the package costs the native module alone, so a
    command that needs nothing more (``cc-search grep``) starts as fast as Python does."""
    if name.startswith("_") and name != "__all__":
        # Submodules (`from . import _engine` asks for one first) and private names.
        raise AttributeError(f"module 'cc_search' has no attribute {name!r}")
    from . import _engine

    value = _engine.lookup(name)
    if name != "__all__":
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    from . import _engine

    return _engine.names(globals())
