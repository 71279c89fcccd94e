"""How ``cc-search`` shows results to a person: sessions, docs and notes hits, index
runs, status, chunks and a progress bar (``--json`` prints the result as it is instead)."""

import contextlib
import json
import os
import sys
import time
from typing import Any, Optional

from ._cli_common import PROG, _warn_all


def _code_print(result: Any) -> None:
    """`code … --json`: warnings on stderr, the compact JSON on one line (the text the
    code commands print otherwise is _cli_print_code's)."""
    if isinstance(result, dict):
        _warn_all(result.pop("warnings", []))
    sys.stdout.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")


_RULE = "─" * 49
_SNIPPET_CHARS = 400


def _colour() -> bool:
    """Colour only on a terminal, and never with NO_COLOR set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _cut(text: str, limit: int) -> tuple[str, int]:
    """``text`` cut at a word boundary near ``limit`` characters, and how many are left."""
    if len(text) <= limit:
        return text, 0
    cut = text.rfind(" ", 0, limit)
    cut = cut if cut > limit // 2 else limit
    return text[:cut].rstrip(), len(text) - cut


def _snippet(content: str) -> tuple[str, int]:
    """The first lines of a section below its heading, and how many characters are left."""
    lines = content.split("\n")
    if lines and lines[0].lstrip().startswith("#"):
        lines = lines[1:]
    return _cut("\n".join(lines).strip(), _SNIPPET_CHARS)


#: SGR codes of the styles the printers use.
_SGR = {
    "bold": "1",
    "dim": "2",
    "cyan": "36",
    "green": "32",
    "magenta": "35",
    "yellow": "33",
    "default": "39",
}


class _Printer:
    """Lines on stdout, styled with ANSI colours when colour is on (see `_colour`)."""

    def __init__(self) -> None:
        self.colour = _colour()

    def styled(self, text: str, style: str) -> str:
        if not self.colour:
            return text
        codes = ";".join(_SGR[word] for word in style.split())
        return f"\x1b[{codes}m{text}\x1b[0m"

    def out(self, line: str = "") -> None:
        sys.stdout.write(line + "\n")

    def footer(self, count: int, millis: int) -> None:
        """The rule and ``Found N results in X.XXs``."""
        self.out(_RULE)
        noun = "result" if count == 1 else "results"
        self.out(f"Found {count} {noun} in {millis / 1000:.2f}s")


def _print_docs_results(result: Any, notes: bool) -> None:
    """Results the way `cc-search search` shows sessions: rank, where, score, snippet."""
    hits = result["results"]
    top = hits[0]["score"] if hits and hits[0]["score"] > 0 else 1.0
    p = _Printer()
    for hit in hits:
        where = hit["project"]
        if notes:
            if hit.get("session_date"):
                where += f" | {hit['session_date']}"
        elif hit["branch"]:
            where += " @ " + ", ".join([hit["branch"], *hit["also_on"]])
        percent = round(100 * hit["score"] / top)
        p.out(
            p.styled(f"[{hit['rank']}]", "bold cyan") + " " + p.styled(hit["file"], "green")
            + " § " + p.styled(hit["section"], "bold") + " | Project: " + p.styled(where, "green")
            + " | " + p.styled(f"{percent}%", "dim")
        )
        p.out()
        text, more = _snippet(hit["content"])
        for line in text.split("\n"):
            p.out("  " + p.styled(line, "default"))
        if more:
            p.out("  " + p.styled(f"[truncated - {more} more chars]", "dim"))
        p.out()
    if not hits:
        p.out("No results.")
        p.out()
    p.footer(len(hits), result["search_time_ms"])


def _print_index(result: Any, what: str) -> None:
    _warn_all(result["warnings"])
    branch = f" @ {result['branch']}" if result["branch"] else ""
    sys.stdout.write(
        f"{what}: {result['project']}{branch}: {result['files']} files "
        f"({result['indexed']} indexed, {result['unchanged']} unchanged, "
        f"{result['touched']} touched, {result['removed']} removed), "
        f"{result['sections_written']} sections written, {result['sections_removed']} removed, "
        f"{result['embedded']} embedded"
        + (f", {result['pending_vectors']} waiting for the model" if result["pending_vectors"] else "")
        + "\n"
    )
    if result.get("globs"):
        sys.stdout.write(f"  also indexing (remembered): {', '.join(result['globs'])}\n")


#: Characters of each context message shown before `[truncated - N more chars]`.
_MESSAGE_CHARS = 300
_ROLE_LABELS = {
    "user": ("You:", "cyan"),
    "assistant": ("Claude:", "green"),
    "summary": ("Summary:", "magenta"),
}
#: Hits whose text is not among their context messages get it shown under this label.
_KIND_LABELS = {"tool": "Tool:", "thinking": "Thinking:"}
_STAGES = {"walk": "Listing files", "parse": "Reading files", "embed": "Embedding sections"}


class _ProgressBar:
    """A one-line progress bar on stderr, redrawn in place; only on a terminal.

    Drawn with a carriage return, never hiding the cursor, so an interrupted run leaves
    the terminal as it was."""

    WIDTH = 30

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self._drawn = False
        self._last = (0.0, "", -1)

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        # At most ~20 redraws a second, but always the last step of a stage.
        if (stage, done) != self._last[1:] and (done >= total or now - self._last[0] >= 0.05):
            self._last = (now, stage, done)
            label = _STAGES.get(stage, stage)
            if total:
                filled = self.WIDTH * min(done, total) // total
                bar = "█" * filled + "░" * (self.WIDTH - filled)
                line = f"{label:<20} {bar} {done}/{total} {100 * done // total:3d}%"
            else:  # not known yet: a count
                line = f"{label:<20} {done}"
            sys.stderr.write(f"\r{line}\x1b[K")
            sys.stderr.flush()
            self._drawn = True

    def callback(self) -> Optional["_ProgressBar"]:
        return self if self.enabled else None

    def clear(self) -> None:
        if self._drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self._drawn = False


@contextlib.contextmanager
def _progress_bar(keeps_work: bool = True) -> Any:
    """A progress bar for the duration of the block, and Ctrl-C for a long run: the core
    stops at its next checkpoint (within a fraction of a second), keeping what it had
    committed, and the command says so and exits with status 130. ``keeps_work``: whether
    the run commits as it goes (an index of docs, notes, sessions) or writes all at once
    at the end (files refresh, code index), so a stopped run wrote nothing."""
    bar = _ProgressBar()
    try:
        yield bar.callback()
    except KeyboardInterrupt:
        bar.clear()
        if keeps_work:
            sys.stderr.write(
                "interrupted: what was done is kept; run the command again to finish\n"
            )
        else:
            sys.stderr.write("interrupted: nothing was written; run the command again\n")
        sys.stderr.flush()
        raise SystemExit(130) from None
    finally:
        bar.clear()


def _project_name(project: str) -> str:
    """The last component of a project path (`/home/me/src/myapp` → `myapp`)."""
    trimmed = project.rstrip("/\\")
    return os.path.basename(trimmed) or project


def _print_message(p: _Printer, label: str, style: str, content: str) -> None:
    text, more = _cut(" ".join(content.split()) if "\n" not in content else content.strip(),
                      _MESSAGE_CHARS)
    lines = [line.rstrip() for line in text.split("\n")]
    p.out("  " + p.styled(label, style) + " " + p.styled(lines[0], "default"))
    for previous, line in zip(lines, lines[1:]):
        if line or previous:  # one blank line at most
            p.out(("  " + p.styled(line, "default")) if line else "")
    if more:
        p.out("  " + p.styled(f"[truncated - {more} more chars]", "dim"))
    p.out()


def _print_session_results(result: Any) -> None:
    """Spec §6: rank, project, age and score; the context; the chunk command; the footer."""
    hits = result["results"]
    top = hits[0]["score"] if hits and hits[0]["score"] > 0 else 1.0
    p = _Printer()
    if result.get("note"):
        p.out(p.styled(result["note"], "yellow"))
        p.out()
    for hit in hits:
        percent = round(100 * hit["score"] / top)
        p.out(
            p.styled(f"[{hit['rank']}]", "bold cyan") + " Project: "
            + p.styled(_project_name(hit["project"]), "green") + " | "
            + p.styled(hit["age"], "dim") + " | " + p.styled(f"{percent}%", "dim")
        )
        p.out()
        for message in hit["messages"]:
            label, style = _ROLE_LABELS.get(message["role"], (message["role"] + ":", "bold"))
            _print_message(p, label, style, message["content"])
        if hit["kind"] in _KIND_LABELS:
            _print_message(
                p, _KIND_LABELS[hit["kind"]], "yellow", hit["matched_window"] or hit["content"]
            )
        p.out("  " + p.styled(f"→ {PROG} chunk {hit['id']}", "dim"))
        p.out()
    if not hits:
        p.out("No results.")
        p.out()
    p.footer(len(hits), result["search_time_ms"])


def _print_chunk(result: Any) -> None:
    """A chunk in full: its id, kind, project and time, its session, its text, and the
    other parts of the same prompt."""
    p = _Printer()
    p.out(
        p.styled(result["id"], "bold cyan") + " " + p.styled(result["kind"], "bold")
        + " | Project: " + p.styled(_project_name(result["project"]), "green") + " | "
        + p.styled(result["timestamp"], "dim")
    )
    p.out(p.styled(f"Session: {result['session_id']}  ({result['session_path']})", "dim"))
    p.out()
    for line in result["content"].split("\n"):
        p.out(p.styled(line, "default"))
    others = [part for part in result["group"] if part["id"] != result["id"]]
    if others:
        p.out()
        p.out(p.styled("Same prompt:", "dim"))
        for part in others:
            p.out(p.styled(f"  {part['kind']:<9} {part['chars']:>7} chars  → {PROG} chunk "
                           f"{part['id']}", "dim"))


def _size(n: int) -> str:
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"  # pragma: no cover


def _print_sessions_index(result: Any) -> None:
    subagents = f" and {result['subagents']} subagent transcripts" if result["subagents"] else ""
    sys.stdout.write(
        f"Indexed {result['sessions']} sessions{subagents} from {result['projects_dir']}: "
        f"{result['parsed']} parsed, {result['grown']} grown, {result['unchanged']} unchanged, "
        f"{result['removed']} removed; {result['chunks']} chunks "
        f"({result['chunks_written']} written, {result['chunks_removed']} removed), "
        f"{result['embedded']} embedded"
        + (f", {result['pending_vectors']} waiting for the model" if result["pending_vectors"] else "")
        + "\n"
    )


def _print_sessions_status(result: Any) -> None:
    p = _Printer()

    def row(name: str, value: str) -> None:
        p.out(p.styled(f"{name + ':':<14}", "bold") + value)

    kinds = ", ".join(f"{kind} {n}" for kind, n in result["chunks_by_kind"].items() if n)
    subagents = f" (+ {result['subagents']} subagent transcripts)" if result["subagents"] else ""
    row("Sessions", f"{result['sessions']}{subagents}")
    row("Chunks", f"{result['chunks']}" + (f" ({kinds})" if kinds else ""))
    row("Projects", str(len(result["projects"])))
    for project in result["projects"]:
        p.out(f"  {project['sessions']:>6}  " + p.styled(project["project"], "green"))
    row("Index", f"{result['db_path']} ({_size(result['index_bytes'])})")
    pending = result["pending_vectors"]
    row("Model", result["model"] + (f" ({pending} chunks waiting for vectors)" if pending else ""))
    row("Last indexed", result["last_indexed"] or "never")
    if result["projects_dir"]:
        row("Transcripts", result["projects_dir"])
