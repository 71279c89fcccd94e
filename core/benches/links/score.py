#!/usr/bin/env python3
"""Score a cc-search code index's reference links against gold answers.

    score.py (--db INDEX.db | --home HOME) GOLD.jsonl [GOLD2.jsonl ...]
             [--lang python,...] [--examples [N]] [--json] [--no-kinds]

Precision / recall / wrong-link rate per language and per reference kind. Python 3.11
stdlib only. The gold format and every rule are in README.md beside this file.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from export import as_written, find_db, written  # (export.py, beside this file)

# Outcomes of one reference row (README.md, "Scoring rules").
CORRECT = "correct"  # linked to the gold symbol
WRONG_OTHER = "wrong_other"  # linked; gold is another indexed symbol in the project
WRONG_UNINDEXED = (
    "wrong_unindexed"  # linked; gold is in the project but not an indexed symbol
)
WRONG_EXTERNAL = "wrong_external"  # linked; gold is outside the project
MISSED = "missed"  # unlinked; gold is an indexed symbol
EXT_OK = "ext_ok"  # unlinked; gold is outside the project
UNINDEXED = "unindexed"  # unlinked; gold is in the project but no indexed symbol (local, param…)
UNKNOWN = "unknown"  # the oracle could not answer: skipped
NO_GOLD = "no_gold"  # the gold file has no line for this ref: skipped
WRONG = (WRONG_OTHER, WRONG_UNINDEXED, WRONG_EXTERNAL)




@dataclass
class Sym:
    id: int
    file: str
    name: str
    kind: str
    start: int
    end: int


@dataclass
class Tally:
    counts: dict = field(default_factory=lambda: defaultdict(int))

    def add(self, outcome: str, ambiguous: bool) -> None:
        self.counts[outcome] += 1
        if ambiguous:
            self.counts["ambiguous"] += 1

    @classmethod
    def from_summary(cls, summary: dict) -> Tally:
        """The counts back from a `summary()` (to add up several projects' JSON)."""
        t = cls()
        for k in (
            CORRECT,
            MISSED,
            EXT_OK,
            UNINDEXED,
            UNKNOWN,
            NO_GOLD,
            "ambiguous",
            *WRONG,
        ):
            t.counts[k] += summary.get(k, 0)
        return t

    def merge(self, other: Tally) -> None:
        for k, v in other.counts.items():
            self.counts[k] += v

    def summary(self) -> dict:
        c = self.counts
        correct = c[CORRECT]
        wrong = sum(c[w] for w in WRONG)
        missed = c[MISSED]
        linked = correct + wrong
        scored = linked + missed + c[EXT_OK] + c[UNINDEXED]

        def ratio(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "scored": scored,
            "unknown": c[UNKNOWN],
            "no_gold": c[NO_GOLD],
            "linked": linked,
            "correct": correct,
            "wrong": wrong,
            "wrong_other": c[WRONG_OTHER],
            "wrong_unindexed": c[WRONG_UNINDEXED],
            "wrong_external": c[WRONG_EXTERNAL],
            "missed": missed,
            "ext_ok": c[EXT_OK],
            "unindexed": c[UNINDEXED],
            "ambiguous": c["ambiguous"],
            "precision": ratio(correct, correct + wrong),
            "recall": ratio(correct, correct + missed),
            "wrong_link_rate": ratio(wrong, linked),
            # Of the refs whose gold is outside the project: how many the index left alone.
            "external_kept_unlinked": ratio(c[EXT_OK], c[EXT_OK] + c[WRONG_EXTERNAL]),
        }


def load_gold(paths: list[str]) -> dict:
    gold: dict = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    g = json.loads(line)
                    key = (g["file"], int(g["line"]), g["name"], g["kind"])
                except (ValueError, KeyError, TypeError) as e:
                    sys.exit(f"{path}:{n}: bad gold line ({e}): {line[:200]}")
                gold.setdefault(key, g)  # the first answer for a key wins
                if "qual" in g:  # answered for one qualifier: also keyed with it
                    gold.setdefault(key + (g["qual"],), g)
    return gold


def gold_for(
    gold: dict, rel: str, line: int, name: str, kind: str, qual, rows: set
) -> dict | None:
    """The gold answer of a ref row: the one given for its qualifier when the gold has
    qualifiers (two rows of a line may differ only in it: `vx.Type()`, `vy.Type()`), else
    the one for (file, line, name, kind) unless it was given for the qualifier of another
    of `rows` (the index's (file, line, name, kind, qual))."""
    g = gold.get((rel, line, name, kind, qual))
    if g is not None:
        return g
    g = gold.get((rel, line, name, kind))
    # An answer given for a qualifier that another row of the line has is that row's, not
    # this one's (`markup_context(m)` and `e.markup_context = …`); one whose row's
    # qualifier changed since (a value's class now known) is still this row's.
    if g is not None and "qual" in g and (rel, line, name, kind, g["qual"]) in rows:
        return None
    return g


def targets_of(g: dict) -> list[dict]:
    """The acceptable in-project targets of a gold answer (target, then alts)."""
    out = []
    for t in [g.get("target")] + list(g.get("alts") or []):
        if isinstance(t, dict) and "file" in t and "line" in t:
            out.append(
                {"file": t["file"], "line": int(t["line"]), "name": t.get("name")}
            )
    return out


class Index:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        cols = {row[1] for row in conn.execute("PRAGMA table_info(refs)")}
        self.has_ambiguous = "ambiguous" in cols
        self.has_qual = "qual" in cols
        self.syms: dict[int, Sym] = {}
        self.by_file: dict[str, list[Sym]] = defaultdict(list)
        for sid, rel, name, kind, start, end in conn.execute(
            "SELECT s.id, f.rel_path, s.name, s.kind, s.line_start, s.line_end "
            "FROM symbols s JOIN files f ON f.id = s.file_id"
        ):
            s = Sym(sid, rel, name, kind, start, end)
            self.syms[sid] = s
            self.by_file[rel].append(s)

    def refs(self):
        extra = (", r.ambiguous" if self.has_ambiguous else ", 0") + (
            ", r.qual" if self.has_qual else ", NULL"
        )
        rows = self.conn.execute(
            "SELECT r.id, f.rel_path, f.language, r.line, r.to_name, r.kind, r.to_symbol_id"
            + extra
            + " FROM refs r JOIN files f ON f.id = r.file_id ORDER BY r.id"
        )
        return (row[:-1] + (written(row[-1]),) for row in rows)

    def innermost(self, file: str, line: int, names: set[str]) -> Sym | None:
        """The innermost indexed symbol of one of `names` whose range holds `line`."""
        best = None
        for s in self.by_file.get(file, ()):
            inside = s.name in names and s.start <= line <= s.end
            if inside and (best is None or (s.start, -s.end) > (best.start, -best.end)):
                best = s
        return best


def classify(
    ix: Index, name: str, to_id: int | None, ambiguous: bool, g: dict
) -> tuple[str, Sym | None]:
    """The outcome of one ref row, and the indexed symbol gold points at (if any)."""
    target = g.get("target")
    if target == "unknown" or (target is not None and not isinstance(target, dict)):
        return UNKNOWN, None
    ts = targets_of(g)
    gold_syms = [
        ix.innermost(
            t["file"], t["line"], {name} | ({t["name"]} if t["name"] else set())
        )
        for t in ts
    ]
    gold_sym = next((s for s in gold_syms if s is not None), None)
    linked = to_id is not None and not ambiguous
    sym = ix.syms.get(to_id) if linked else None
    if linked and sym is None:
        linked = False  # a dangling id: treat as unlinked
    if linked:
        if target is None:
            return WRONG_EXTERNAL, None
        for t in ts:
            # The linked symbol holds the gold line, and no symbol of its name nested in it
            # holds it too (else the link went to the outer one of two same-named symbols).
            if sym.file == t["file"] and sym.start <= t["line"] <= sym.end:
                inner = ix.innermost(t["file"], t["line"], {sym.name})
                if inner is None or inner.id == sym.id:
                    return CORRECT, gold_sym
        return (WRONG_OTHER if gold_sym else WRONG_UNINDEXED), gold_sym
    if target is None:
        return EXT_OK, None
    return (MISSED if gold_sym else UNINDEXED), gold_sym


def fmt_sym(s: Sym | None) -> str:
    return f"{s.file}:{s.start}-{s.end} ({s.kind} {s.name})" if s else "-"


def fmt_gold(g: dict) -> str:
    t = g.get("target")
    if t is None:
        return "external"
    if isinstance(t, dict):
        extra = f" ({t['name']})" if t.get("name") else ""
        alts = f" +{len(g['alts'])} alts" if g.get("alts") else ""
        return f"{t['file']}:{t['line']}{extra}{alts}"
    return str(t)


def score(ix: Index, gold: dict, langs: set[str] | None) -> tuple[dict, dict, dict]:
    by_lang: dict[str, Tally] = defaultdict(Tally)
    by_kind: dict[tuple[str, str], Tally] = defaultdict(Tally)
    examples: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    gold_langs = {g.get("lang") for g in gold.values()} | {None}
    gold_files = {k[0] for k in gold}
    refs = list(ix.refs())
    as_indexed = {(rel, line, name, kind, qual) for _, rel, _, line, name, kind, _, _, qual in refs}
    rows = {
        (rel, line, as_written(lang, name), kind, qual)
        for _, rel, lang, line, name, kind, _, _, qual in refs
    }
    for rid, rel, lang, line, name, kind, to_id, amb, qual in refs:
        if langs is not None and lang not in langs:
            continue
        if as_written(lang, name) != name:
            # `x.a = v`: scored as `a`, once where `x.a += v` also calls the reader.
            name = as_written(lang, name)
            if (rel, line, name, kind, qual) in as_indexed:
                continue
        g = gold_for(gold, rel, line, name, kind, qual, rows)
        if g is None:
            # Only count a missing answer against languages / files the gold covers.
            if lang in gold_langs or rel in gold_files:
                by_lang[lang].add(NO_GOLD, False)
                by_kind[(lang, kind)].add(NO_GOLD, False)
            continue
        outcome, gold_sym = classify(ix, name, to_id, bool(amb), g)
        by_lang[lang].add(outcome, bool(amb) and outcome not in (UNKNOWN,))
        by_kind[(lang, kind)].add(outcome, bool(amb) and outcome not in (UNKNOWN,))
        if outcome in WRONG or outcome == MISSED:
            bucket = "wrong" if outcome in WRONG else "missed"
            examples[lang][bucket].append(
                {
                    "ref": f"{rel}:{line}",
                    "name": name,
                    "kind": kind,
                    "qual": qual,
                    "ambiguous": bool(amb),
                    "outcome": outcome,
                    "ours": fmt_sym(ix.syms.get(to_id)) if to_id is not None else "-",
                    "gold": fmt_gold(g),
                    "gold_symbol": fmt_sym(gold_sym),
                }
            )
    return by_lang, by_kind, examples


COLS = [
    ("scored", "scored", 7),
    ("unknown", "unk", 6),
    ("no_gold", "nogold", 6),
    ("linked", "linked", 6),
    ("correct", "ok", 6),
    ("wrong", "wrong", 6),
    ("missed", "missed", 6),
    ("ext_ok", "ext_ok", 6),
    ("unindexed", "unidx", 6),
    ("ambiguous", "ambig", 5),
    ("precision", "prec", 6),
    ("recall", "recall", 6),
    ("wrong_link_rate", "wrong%", 6),
    ("external_kept_unlinked", "extkept", 7),
]


def wrong_breakdown(rows: list[tuple[str, dict]]) -> str:
    """One line per language row: what the wrong links were linked instead of."""
    out = []
    for label, s in rows:
        if "/" not in label and s["wrong"]:
            out.append(
                f"{label}: wrong = {s['wrong_other']} to another symbol than gold's"
                f" + {s['wrong_unindexed']} where gold is no indexed symbol"
                f" + {s['wrong_external']} where gold is outside the project"
            )
    return "\n".join(out)


def table(rows: list[tuple[str, dict]]) -> str:
    def cell(v, w):
        if v is None:
            return "-".rjust(w)
        if isinstance(v, float):
            return f"{100 * v:.1f}".rjust(w)
        return str(v).rjust(w)

    lw = max([len(r[0]) for r in rows] + [8])
    head = "".ljust(lw) + " " + " ".join(h.rjust(w) for _, h, w in COLS)
    out = [head, "-" * len(head)]
    for label, s in rows:
        out.append(label.ljust(lw) + " " + " ".join(cell(s[k], w) for k, _, w in COLS))
    return "\n".join(out)


def sum_main(args: argparse.Namespace) -> None:
    by_lang: dict[str, Tally] = defaultdict(Tally)
    by_kind: dict[str, Tally] = defaultdict(Tally)
    for path in args.gold:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for lang, s in data["languages"].items():
            by_lang[lang].merge(Tally.from_summary(s))
        for lk, s in data["kinds"].items():
            by_kind[lk].merge(Tally.from_summary(s))
    if args.json:
        print(
            json.dumps(
                {
                    "sources": args.gold,
                    "languages": {k: t.summary() for k, t in sorted(by_lang.items())},
                    "kinds": {k: t.summary() for k, t in sorted(by_kind.items())},
                },
                indent=2,
            )
        )
        return
    pre = f"{args.label} " if args.label else ""
    rows = []
    for lang, t in sorted(by_lang.items()):
        rows.append((f"{pre}{lang}", t.summary()))
        if not args.no_kinds:
            for lk, tk in sorted(by_kind.items()):
                if lk.split("/", 1)[0] == lang:
                    rows.append((f"{pre}{lk}", tk.summary()))
    print(table(rows))
    if wrong_breakdown(rows):
        print(wrong_breakdown(rows))


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--db", help="the index database")
    src.add_argument("--home", help="a cc-search --home directory (its only code/*.db)")
    src.add_argument(
        "--sum",
        action="store_true",
        help="add up earlier --json outputs (the positional files) into one table",
    )
    ap.add_argument(
        "gold", nargs="+", help="gold JSONL file(s) (with --sum: score JSON files)"
    )
    ap.add_argument(
        "--lang", help="comma-separated languages (files.language) to score"
    )
    ap.add_argument(
        "--examples",
        nargs="?",
        type=int,
        const=10,
        default=0,
        metavar="N",
        help="print up to N (default 10) wrong links and N misses per language",
    )
    ap.add_argument(
        "--json", action="store_true", help="print JSON instead of the table"
    )
    ap.add_argument(
        "--label",
        default="",
        help="prefix for the table's row labels (e.g. the project)",
    )
    ap.add_argument("--no-kinds", action="store_true", help="no per-kind rows")
    ap.add_argument("--seed", type=int, default=0, help="seed for picking examples")
    args = ap.parse_args()

    if args.sum:
        return sum_main(args)
    path = Path(args.db) if args.db else find_db(args.home)
    ix = Index(sqlite3.connect(f"file:{path}?mode=ro", uri=True))
    gold = load_gold(args.gold)
    langs = set(args.lang.split(",")) if args.lang else None
    by_lang, by_kind, examples = score(ix, gold, langs)

    rng = random.Random(args.seed)
    picked = {}
    for lang, buckets in examples.items():
        picked[lang] = {}
        for bucket, items in buckets.items():
            items = list(items)
            rng.shuffle(items)
            picked[lang][bucket] = sorted(
                items[: args.examples], key=lambda e: e["ref"]
            )

    if args.json:
        out = {
            "db": str(path),
            "columns": {"ambiguous": ix.has_ambiguous, "qual": ix.has_qual},
            "languages": {lang: t.summary() for lang, t in sorted(by_lang.items())},
            "kinds": {
                f"{lang}/{kind}": t.summary()
                for (lang, kind), t in sorted(by_kind.items())
            },
        }
        if args.examples:
            out["examples"] = picked
        print(json.dumps(out, indent=2))
        return

    pre = f"{args.label} " if args.label else ""
    rows = []
    for lang, t in sorted(by_lang.items()):
        rows.append((f"{pre}{lang}", t.summary()))
        if not args.no_kinds:
            for (l2, kind), tk in sorted(by_kind.items()):
                if l2 == lang:
                    rows.append((f"{pre}{lang}/{kind}", tk.summary()))
    print(table(rows))
    if wrong_breakdown(rows):
        print(wrong_breakdown(rows))
    if not ix.has_ambiguous:
        print("(this index has no refs.ambiguous column: ambig is 0 by construction)")
    if args.examples:
        for lang in sorted(picked):
            for bucket in ("wrong", "missed"):
                items = picked[lang].get(bucket, [])
                if not items:
                    continue
                total = len(examples[lang][bucket])
                print(f"\n{pre}{lang}: {len(items)} of {total} {bucket}")
                for e in items:
                    q = f" qual={e['qual']!r}" if e["qual"] else ""
                    a = " AMBIGUOUS" if e["ambiguous"] else ""
                    print(
                        f"  {e['ref']} {e['name']} [{e['kind']}{q}{a}] {e['outcome']}"
                    )
                    print(f"      ours: {e['ours']}")
                    print(f"      gold: {e['gold']}   gold symbol: {e['gold_symbol']}")


if __name__ == "__main__":
    main()
