"""Which occurrence of a name on a line a query means (README.md, "No column in the index").

Shared by the Python-written oracles (oracle_python.py, oracle_c.py,
oracle_rust_rustdoc.py); oracle_go.go, oracle_java.java and oracle_ts.mjs carry the same
rules. Python 3.11 stdlib only.

A ref row has no column, but its `kind` and `qual` (export.py's "qual": the receiver or path
written before the name, `self`/`this` replaced by the enclosing type's name, "?" for an
expression, "!" for a Rust macro, null when written bare) say which occurrence it is:

- qual fits: null → not preceded by `.`/`::`/`->`; "?" → preceded by one; "!" → followed
  by `!`; a path → preceded by its last segment and `.`/`::`/`->` (a one-segment qual, the
  enclosing type's name, also by `this.`/`self.`/`Self::`/`cls.`). A query without a
  "qual" key (an index without the column) fits any occurrence.
- kind fits: `call` → followed (after optional generic args: `<T>`, `::<T>`, `[T]`) by
  `(`, or by `!` for a Rust macro; `type_ref` → not followed by `(` nor by the `:` of a
  key or label (`Bar1: Bar1{…}`, `{Foo: Foo}`); other kinds → any.

`fit()` gives 4 for the qual, 2 for a member occurrence where the qual is a path (a
receiver's class need not be what is written: `options.max_width` with qual
`ConsoleOptions`, not the local `max_width` it is assigned to), 1 for the kind: the best
occurrence is the one with the highest fit, the leftmost among equals (so the first
occurrence when nothing fits).
"""

from __future__ import annotations

import re

SELF_NAMES = ("self", "this", "Self", "cls")
SEPARATORS = ("::", "->", ".")
_CALL_AFTER = re.compile(r"\s*(?:::\s*)?(?:<[^()]*>|\[[^()]*\])?\s*\(")
_MACRO_AFTER = re.compile(r"\s*!")
_PAREN_AFTER = re.compile(r"\s*\(")
_KEY_AFTER = re.compile(r"\s*:(?!:)")  # a key or label: Go `Bar1: Bar1{…}`, TS `{Foo: Foo}`
# the identifier before a separator (`a?.foo`, `a!.foo`: `a`)
_TRAILING_IDENT = re.compile(r"([A-Za-z0-9_$]+)[?!]*$")


def qual_fits(text: str, col: int, name: str, q: dict) -> bool:
    """Whether the occurrence of `name` at `col` of `text` is written as the query's qual says."""
    if "qual" not in q:
        return True
    qual = q["qual"]
    before = text[:col].rstrip()
    sep = next((s for s in SEPARATORS if before.endswith(s)), None)
    if qual is None:
        return sep is None
    if qual == "?":
        return sep is not None
    if qual == "!":
        return _MACRO_AFTER.match(text, col + len(name)) is not None
    if sep is None:
        return False
    m = _TRAILING_IDENT.search(before[: -len(sep)].rstrip())
    if not m:
        return False
    prev = m.group(1)
    last = qual.rsplit(".", 1)[-1]
    return prev == last or ("." not in qual and prev in SELF_NAMES)


def kind_fits(text: str, col: int, name: str, q: dict) -> bool:
    end = col + len(name)
    kind = q.get("kind")
    if kind == "call":
        return (
            _CALL_AFTER.match(text, end) is not None
            or (q.get("qual") == "!" and _MACRO_AFTER.match(text, end) is not None)
        )
    if kind == "type_ref":
        return _PAREN_AFTER.match(text, end) is None and _KEY_AFTER.match(text, end) is None
    return True


def member_fits(text: str, col: int, q: dict) -> bool:
    """Whether a query whose qual is a path (a receiver's class, `ConsoleOptions` for
    `options.max_width`, need not be what is written) meets a member occurrence."""
    qual = q.get("qual")
    if qual in (None, "?", "!"):
        return False
    before = text[:col].rstrip()
    return any(before.endswith(s) for s in SEPARATORS)


def fit(text: str, col: int, name: str, q: dict) -> int:
    """How well the occurrence at `col` fits the query: 0..7, higher is better."""
    return (
        4 * qual_fits(text, col, name, q)
        + 2 * member_fits(text, col, q)
        + kind_fits(text, col, name, q)
    )


def best(text: str, cols, name: str, q: dict) -> int | None:
    """The column among `cols` (occurrences of `name` on `text`) the query means."""
    cols = sorted(set(cols))
    if not cols:
        return None
    return max(cols, key=lambda c: (fit(text, c, name, q), -c))
