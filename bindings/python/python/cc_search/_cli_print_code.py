"""How ``cc-search code`` shows its results to a person: symbols one a line, a file's
symbols as a tree, a symbol in full, references grouped by file, an overview, index
runs and status (``--json`` prints the operation's result as JSON instead: `_code_print`;
``--compact`` what an agent reads of it). Each printer reads the full result (``name``,
``kind``, ``path``, ``start_line``).

What a printer shows depends on the result and the width of the terminal only (and, for
an index run, the time it took), so the same index prints the same text. Each printer
shows the result's warnings on stderr first; colour only through `_Printer`."""

import json
import shutil
import sys
import time
from collections.abc import Sequence
from typing import Any, Optional

from ._cli_common import PROG, _warn_all
from ._cli_print import _RULE, _SNIPPET_CHARS, _cut, _Printer

#: Width of a line when stdout is not a terminal (a terminal's own width otherwise).
_PLAIN_WIDTH = 100
#: Most characters a name or a `path:lines` column is padded to (longer ones stick out).
_NAME_COLUMN = 32
_PLACE_COLUMN = 40
#: Fewest characters of a signature shown, however little room the line has left.
_MIN_SIGNATURE = 24

#: A cell of a row: its text, its style, and the width it is padded to (0: none).
_Cell = tuple[str, str, int]


def _width() -> int:
    if sys.stdout.isatty():
        return max(40, shutil.get_terminal_size((_PLAIN_WIDTH, 24)).columns)
    return _PLAIN_WIDTH


def _row(
    p: _Printer, cells: Sequence[_Cell], gap: str = "  ", more: bool = False
) -> tuple[str, int]:
    """The cells joined by `gap`, each padded to its width but the last non-empty one
    (no trailing spaces) unless `more` follows, and the row's length in characters."""
    kept = list(cells)
    while kept and not kept[-1][0]:
        kept.pop()
    parts: list[str] = []
    length = 0
    for i, (text, style, width) in enumerate(kept):
        pad = " " * max(width - len(text), 0) if more or i < len(kept) - 1 else ""
        parts.append(p.styled(text, style) + pad if text else pad)
        length += len(text) + len(pad)
    length += len(gap) * max(len(kept) - 1, 0)
    return gap.join(parts), length


def _column(values: Sequence[str], cap: int = 0) -> int:
    widest = max((len(v) for v in values), default=0)
    return min(widest, cap) if cap else widest


def _clip(text: str, limit: int) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: max(limit - 1, 0)].rstrip() + "…"


def _lines(item: dict[str, Any]) -> str:
    """An item's lines: `12` for one line, `12-40` for several."""
    start, end = item["start_line"], item["end_line"]
    return str(start) if start == end else f"{start}-{end}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _text(p: _Printer, text: str) -> str:
    """Text as it is, never read as markup (`src/[id].tsx`) when colour is on."""
    return p.styled(text, "default")


def _when(seconds: Optional[int]) -> str:
    if seconds is None:
        return "never"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def _languages(langs: dict[str, int]) -> str:
    """`rust 150, python 43`: most files first."""
    ordered = sorted(langs.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{lang} {count}" for lang, count in ordered)


def _truncated(p: _Printer, result: dict[str, Any], what: str) -> None:
    """The last line when the token budget left items out, and how to see them."""
    if result.get("truncated"):
        p.out(p.styled(
            f"More {what} were left out to fit the token budget: raise --max-tokens to see "
            "them.", "yellow",
        ))


def _heading(p: _Printer, title: str, count: Optional[int] = None) -> None:
    p.out(p.styled(title + (f" ({count})" if count is not None else "") + ":", "bold"))


# ── symbols: search hits, overview lists ──


def _symbol_list(p: _Printer, symbols: Sequence[dict[str, Any]], indent: str = "") -> None:
    """One line per symbol: id, kind, name, `path:lines` and the signature, cut to the
    width of the line."""
    ids = [f"#{s['id']}" for s in symbols]
    places = [f"{s['path']}:{_lines(s)}" for s in symbols]
    id_w, kind_w = _column(ids), _column([s["kind"] for s in symbols])
    name_w = _column([s["name"] for s in symbols], _NAME_COLUMN)
    place_w = _column(places, _PLACE_COLUMN)
    width = _width()
    for symbol, sid, place in zip(symbols, ids, places):
        signature = symbol.get("signature") or ""
        line, length = _row(p, [
            (sid.rjust(id_w), "cyan", id_w),
            (symbol["kind"], "magenta", kind_w),
            (symbol["name"], "bold", name_w),
            (place, "green", place_w),
        ], more=bool(signature))
        if signature:
            room = max(width - len(indent) - length - 2, _MIN_SIGNATURE)
            line += "  " + p.styled(_clip(signature, room), "default")
        p.out(indent + line)


def print_code_search(result: dict[str, Any]) -> None:
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    hits = result["hits"]
    if hits:
        _symbol_list(p, hits)
    else:
        p.out("No symbols.")
    p.out(_RULE)
    p.out(_text(p, f"Found {_plural(len(hits), 'symbol')} for \"{result['query']}\""))
    _truncated(p, result, "symbols")


def print_code_find(result: dict[str, Any]) -> None:
    """One line per file, best first: rank, score, path; under it, the definitions of
    it the answer ranks (id, kind, name, lines, signature), each with its rank among
    them."""
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    files = result["files"]
    hits: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for rank, hit in enumerate(result["hits"]):
        hits.setdefault(hit["path"], []).append((rank, hit))
    width = _width()
    rank_w = len(str(len(files)))
    hit_w = len(str(len(result["hits"])))
    for i, f in enumerate(files):
        p.out(
            f"{str(i + 1).rjust(rank_w)}. " + p.styled(f"{f['score']:.3f}", "cyan")
            + "  " + p.styled(f["path"], "green")
        )
        for rank, hit in hits.get(f["path"], []):
            line, length = _row(p, [
                (f"d{str(rank + 1).ljust(hit_w)}", "yellow", 0),
                (f"#{hit['id']}", "cyan", 0),
                (hit["kind"], "magenta", 0),
                (hit["name"], "bold", 0),
                (_lines(hit), "default", 0),
            ], gap=" ", more=bool(hit.get("snippet")))
            indent = " " * (rank_w + 2)
            if hit.get("snippet"):
                room = max(width - len(indent) - length - 2, _MIN_SIGNATURE)
                line += "  " + p.styled(_clip(hit["snippet"], room), "default")
            p.out(indent + line)
    if not files:
        p.out("No files.")
    p.out(_RULE)
    sides = " + ".join(result.get("used", [])) or "nothing"
    p.out(_text(p, f"Found {_plural(len(files), 'file')} by {sides}"))
    _truncated(p, result, "files")


def _kind_and_name(symbol: dict[str, Any]) -> tuple[str, str]:
    """How a file's tree names a symbol: the core's rule for outlines
    (`outline_parts`), its kind and name apart so that they are coloured apart."""
    from . import _native

    shown = {k: symbol.get(k) for k in ("kind", "name", "signature")}
    return _native.outline_parts(json.dumps(shown))


def print_code_symbols(result: dict[str, Any]) -> None:
    """A file's symbols as a tree: kind and name indented by nesting, lines, id."""
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    rows: list[tuple[str, dict[str, Any]]] = []

    def walk(symbols: Sequence[dict[str, Any]], depth: int) -> None:
        for symbol in symbols:
            rows.append(("  " * depth, symbol))
            walk(symbol.get("children", []), depth + 1)

    walk(result["symbols"], 0)
    p.out(p.styled(result["path"], "green") + "  " + p.styled(_plural(len(rows), "symbol"), "dim"))
    parts = [_kind_and_name(s) for _, s in rows]
    labels = [indent + f"{kind} {name}" for (indent, _), (kind, name) in zip(rows, parts)]
    label_w = _column(labels, _NAME_COLUMN + 12)
    lines_w = _column([_lines(s) for _, s in rows])
    for (indent, symbol), (kind, name), label in zip(rows, parts, labels):
        kind_name = indent + p.styled(kind, "magenta") + " " + p.styled(name, "bold")
        pad = " " * max(label_w - len(label), 0)
        p.out(
            "  " + kind_name + pad + "  " + p.styled(_lines(symbol).ljust(lines_w), "dim")
            + "  " + p.styled(f"#{symbol['id']}", "cyan")
        )
    if not rows:
        p.out("  No symbols.")
    _truncated(p, result, "symbols")


# ── one symbol and its references ──


def _ref_id(candidate: Any) -> str:
    return f"#{candidate['id']}" if isinstance(candidate, dict) else f"#{candidate}"


def _target(p: _Printer, entry: dict[str, Any], id_key: Optional[str]) -> str:
    """Where a reference points: `→ #id` when resolved, `ambiguous: #12 #40` when it may
    be one of several, `(external)` when it is outside the index. Without `id_key` (an
    incoming reference, whose target is the symbol asked about) only the ambiguity."""
    parts = []
    if id_key and entry.get(id_key) is not None:
        parts.append(p.styled(f"→ #{entry[id_key]}", "cyan"))
    candidates = entry.get("candidates") or []
    if candidates:
        parts.append(p.styled("ambiguous: " + " ".join(map(_ref_id, candidates)), "yellow"))
    elif entry.get("ambiguous"):
        parts.append(p.styled("ambiguous", "yellow"))
    if not parts and id_key:
        parts.append(p.styled("(external)", "dim"))
    return " ".join(parts)


def _targets(p: _Printer, entries: Sequence[dict[str, Any]], name_key: str, id_key: str,
             kind_column: bool = False) -> None:
    """Outgoing references, one a line: [kind,] name, where it points."""
    name_w = _column([e[name_key] for e in entries], _NAME_COLUMN)
    kind_w = _column([e.get("kind") or "" for e in entries])
    for entry in entries:
        cells: list[_Cell] = []
        if kind_column:
            cells.append((entry.get("kind") or "", "dim", kind_w))
        cells.append((entry[name_key], "bold", name_w))
        if not kind_column and entry.get("kind"):
            cells.append((f"({entry['kind']})", "dim", 0))
        line, _ = _row(p, cells, more=True)
        p.out("  " + line + "  " + _target(p, entry, id_key))


def _sources(p: _Printer, entries: Sequence[dict[str, Any]]) -> None:
    """Incoming references grouped by file (in the order given): line, kind, the
    referring symbol and its id."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        groups.setdefault(entry.get("path") or "?", []).append(entry)
    line_w = _column([str(e["line"]) for e in entries])
    kind_w = _column([e["kind"] for e in entries])
    name_w = _column([e.get("from_name") or "" for e in entries], _NAME_COLUMN)
    for path, group in groups.items():
        p.out("  " + p.styled(path, "green"))
        for entry in group:
            from_id = entry.get("from_id")
            line, _ = _row(p, [
                (str(entry["line"]).rjust(line_w), "dim", line_w),
                (entry["kind"], "magenta", kind_w),
                (entry.get("from_name") or "", "bold", name_w),
                (f"#{from_id}" if from_id is not None else "", "cyan", 0),
            ])
            extra = _target(p, entry, None)
            if entry.get("maybe"):
                # An ambiguous reference that may mean this symbol or another.
                extra = p.styled("(maybe)", "yellow")
            p.out("    " + line + ("  " + extra if extra else ""))


def _brief_line(p: _Printer, symbol: dict[str, Any]) -> str:
    return (
        p.styled(symbol["kind"], "magenta") + " " + p.styled(symbol["name"], "bold") + "  "
        + p.styled(f"{symbol['path']}:{_lines(symbol)}", "green") + "  "
        + p.styled(f"#{symbol['id']}", "cyan")
    )


def print_code_detail(result: dict[str, Any]) -> None:
    """A symbol in full: where it is, signature, doc, parent, children, calls, callers,
    types."""
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    p.out(_brief_line(p, result))
    if result.get("signature"):
        p.out()
        for line in result["signature"].split("\n"):
            p.out("  " + p.styled(line, "default"))
    if result.get("doc"):
        p.out()
        text, more = _cut(result["doc"].strip(), _SNIPPET_CHARS)
        for line in text.split("\n"):
            p.out(("  " + p.styled(line.rstrip(), "dim")) if line.strip() else "")
        if more:
            p.out("  " + p.styled(f"[truncated - {more} more chars; --json shows all]", "dim"))
    parent = result.get("parent")
    if parent:
        p.out()
        p.out(p.styled("Parent:", "bold") + " " + _brief_line(p, parent))
    children = result.get("children", [])
    if children:
        p.out()
        _heading(p, "Children", len(children))
        labels = [f"{c['kind']} {c['name']}" for c in children]
        label_w = _column(labels, _NAME_COLUMN + 12)
        lines_w = _column([_lines(c) for c in children])
        for child, label in zip(children, labels):
            pad = " " * max(label_w - len(label), 0)
            p.out(
                "  " + p.styled(child["kind"], "magenta") + " " + p.styled(child["name"], "bold")
                + pad + "  " + p.styled(_lines(child).ljust(lines_w), "dim") + "  "
                + p.styled(f"#{child['id']}", "cyan")
            )
    for key, title in (("calls", "Calls"), ("called_by", "Called by"), ("type_refs", "Types and values")):
        entries = result.get(key, [])
        if not entries:
            continue
        p.out()
        _heading(p, title, len(entries))
        if key == "called_by":
            _sources(p, entries)
        else:
            _targets(p, entries, "name", "id")
    if result.get("truncated"):
        p.out()
    _truncated(p, result, "children, calls or callers")


def print_code_refs(result: dict[str, Any]) -> None:
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    refs = result["references"]
    offset = result.get("offset", 0)
    total = result.get("total", len(refs))
    shown = f"{len(refs)}" if len(refs) == total else f"{offset + 1}-{offset + len(refs)} of {total}"
    p.out(p.styled(f"References to #{result['id']}", "bold") + " "
          + p.styled(f"({shown if refs else total})", "dim"))
    if refs:
        _sources(p, refs)
    elif total == 0:
        p.out("  None.")
    elif offset >= total:
        p.out(f"  None after the first {offset}.")
    left = total - offset - len(refs)
    if result.get("truncated") and refs and left > 0:
        p.out(p.styled(
            f"{left} more references were left out to fit the token budget: "
            f"--offset {offset + len(refs)} shows them, or raise --max-tokens.", "yellow",
        ))
    else:
        _truncated(p, result, "references")


def print_code_deps(result: dict[str, Any]) -> None:
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    deps = result["dependencies"]
    p.out(p.styled(f"Dependencies of #{result['id']}", "bold") + " "
          + p.styled(f"({len(deps)})", "dim"))
    if deps:
        _targets(p, deps, "to_name", "to_id", kind_column=True)
    else:
        p.out("  None.")
    _truncated(p, result, "dependencies")


# ── the repository ──


def print_code_overview(result: dict[str, Any]) -> None:
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    p.out(p.styled("Repository:", "bold") + " " + p.styled(result["repo"], "green"))
    langs = result.get("languages", {})
    p.out(p.styled("Languages:", "bold") + " " + _text(p, _languages(langs) or "none"))
    mods = result.get("directories", [])
    if mods:
        p.out()
        _heading(p, "Directories", len(mods))
        files_w = max(_column([str(m["files"]) for m in mods]), len("files"))
        syms_w = max(_column([str(m["symbols"]) for m in mods]), len("symbols"))
        p.out("  " + p.styled(f"{'files':>{files_w}}  {'symbols':>{syms_w}}  directory", "dim"))
        for mod in mods:
            p.out(f"  {mod['files']:>{files_w}}  {mod['symbols']:>{syms_w}}  "
                  + p.styled(mod["path"], "green"))
        if result.get("more_directories"):
            p.out(p.styled(f"  … and {result['more_directories']} smaller directories", "dim"))
    samples = result.get("samples", [])
    if samples:
        listed = ", ".join(f"{s['path']} ({s['files']})" for s in samples)
        p.out(p.styled("Fixtures and examples:", "bold") + " " + _text(p, listed))
    types = result.get("top_types", [])
    if types:
        p.out()
        _heading(p, "Most referenced types", len(types))
        _symbol_list(p, types, indent="  ")
    entries = result.get("entry_points", [])
    if entries:
        p.out()
        _heading(p, "Entry points", len(entries))
        for entry in entries:
            where = entry.get("path") or ""
            if entry.get("start_line"):
                where += f":{entry['start_line']}-{entry['end_line']}"
            target = f" → {entry['target']}" if entry.get("target") else ""
            symbol = f"  #{entry['id']}" if entry.get("id") is not None else ""
            p.out(f"  {p.styled(entry['name'], 'cyan')}  {entry['declared_in']}{target}  "
                  + p.styled(where, "green") + symbol)
    docs = result.get("docs", {})
    if docs:
        p.out()
        listed = ", ".join(f"{d} ({n})" for d, n in docs.items())
        p.out(p.styled("Docs:", "bold") + " " + _text(p, listed))
    if result.get("truncated"):
        p.out()
    _truncated(p, result, "directories, types or entry points")


def print_code_index(
    result: dict[str, Any], seconds: Optional[float] = None, verb: str = "Indexed"
) -> None:
    """An index or update run: files parsed, unchanged, removed, skipped, and the time it
    took; then what the index holds."""
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    stats = result["stats"]
    parsed = result["new"] + result["changed"]
    skipped = f", {result['skipped']} skipped" if result.get("skipped") else ""
    took = f" in {seconds:.2f}s" if seconds is not None else ""
    p.out(
        f"{verb} {_plural(stats['files'], 'file')}{took}: {parsed} parsed "
        f"({result['new']} new, {result['changed']} changed), {result['unchanged']} unchanged, "
        f"{result['deleted']} removed{skipped}"
    )
    p.out(
        f"The index holds {_plural(stats['symbols'], 'symbol')} and "
        f"{_plural(stats['refs'], 'reference')}."
    )


def _status_row(p: _Printer, name: str, value: str) -> None:
    p.out(p.styled(f"{name + ':':<12}", "bold") + value)


def print_code_status(result: dict[str, Any]) -> None:
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    _status_row(p, "Repository", p.styled(result["repo"], "green"))
    if not result["indexed"]:
        _status_row(p, "Indexed", f"never: `{PROG} code index` builds it")
        return
    _status_row(p, "Indexed", _when(result.get("indexed_at")))
    langs = _languages(result.get("languages", {}))
    _status_row(p, "Files", f"{result['files']}" + (f" ({langs})" if langs else ""))
    _status_row(p, "Symbols", str(result["symbols"]))
    _status_row(p, "References", str(result["refs"]))
    stale, deleted, new = result.get("stale", 0), result.get("deleted", 0), result.get("new", 0)
    if not (stale or deleted or new):
        _status_row(p, "Changes", "none since")
        return
    changes = [f"{stale} changed"] if stale else []
    changes += [f"{deleted} deleted"] if deleted else []
    changes += [f"{new} new"] if new else []
    _status_row(p, "Changes", ", ".join(changes) + f" since: `{PROG} code index` brings it up "
                "to date")
    for mark, key, count in (("M", "stale_files", stale), ("D", "deleted_files", deleted)):
        listed = result.get(key, [])
        for path in listed:
            p.out(f"  {p.styled(mark, 'yellow')} " + _text(p, path))
        if count > len(listed):
            p.out(p.styled(f"  … and {count - len(listed)} more", "dim"))


def print_code_repos(result: dict[str, Any]) -> None:
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    repos = result["repos"]
    if not repos:
        p.out(f"No code index yet: `{PROG} code index` builds one.")
        return
    files_w = max(_column([str(r["files"]) for r in repos]), len("files"))
    syms_w = max(_column([str(r["symbols"]) for r in repos]), len("symbols"))
    when_w = max(_column([_when(r.get("indexed_at")) for r in repos]), len("indexed"))
    p.out(p.styled(f"{'files':>{files_w}}  {'symbols':>{syms_w}}  {'indexed':<{when_w}}  "
                   "repository", "dim"))
    for repo in repos:
        p.out(f"{repo['files']:>{files_w}}  {repo['symbols']:>{syms_w}}  "
              f"{_when(repo.get('indexed_at')):<{when_w}}  " + p.styled(repo["path"], "green"))


def print_code_delete(result: dict[str, Any]) -> None:
    _warn_all(result.pop("warnings", []))
    p = _Printer()
    for path in result["deleted"]:
        p.out("Deleted the code index of " + p.styled(path, "green"))
    for path in result.get("not_found", []):
        p.out("No code index for " + p.styled(path, "green"))
    if not result["deleted"] and not result.get("not_found"):
        p.out("No code index to delete.")
