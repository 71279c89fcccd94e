"""``code.find`` from Python: ``Engine.code_find``, ``cc-search code find`` (a real
subprocess, the description as an argument and on stdin) and the MCP tool, on a real git
repository and the real embedding model."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import cc_search
from support import run_cli

FILES = {
    "billing/invoice.py": (
        '"""Invoices."""\n\n\n'
        "class Invoice:\n"
        '    """A bill sent to a customer."""\n\n'
        "    def add_line(self, item, price):\n"
        "        self.lines.append((item, price))\n\n"
        "    def total_with_tax(self, rate):\n"
        '        """The sum of the lines, with the tax rate applied."""\n'
        "        return sum(p for _, p in self.lines) * (1 + rate)\n"
    ),
    "billing/mailer.py": (
        '"""Sending invoices by mail."""\n\n\n'
        "def send_invoice(invoice, address):\n"
        '    """Mail an invoice as a PDF attachment."""\n'
        "    raise SmtpRefused('the mail server refused the message')\n"
    ),
    "billing/storage.py": (
        "def save_pdf(document, folder):\n"
        '    """Write a document to disk."""\n'
        "    return folder / document.name\n"
    ),
    "tests/test_invoice.py": (
        "from billing.invoice import Invoice\n\n\n"
        "def test_total_with_tax_of_an_invoice():\n"
        "    invoice = Invoice()\n"
        "    assert invoice.total_with_tax(0.2) == 0\n"
    ),
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null", "PATH": "/usr/bin:/bin"}
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "billing"]):
        subprocess.run(["git", *args], cwd=root, check=True, env=env)
    return root.resolve()


def test_engine_code_find(engine: cc_search.Engine, repo: Path) -> None:
    result = engine.code_find("The invoice total ignores the tax rate", path=repo)
    assert result["files"][0]["path"] == "billing/invoice.py"
    # The definitions to change, best first across the files: the method, then the rest.
    best = result["hits"][0]
    assert (best["path"], best["name"]) == ("billing/invoice.py", "total_with_tax")
    assert (best["start_line"], best["end_line"]) == (10, 12)
    listed = {f["path"] for f in result["files"]}
    assert all(h["path"] in listed for h in result["hits"])
    assert len(result["hits"]) > len({h["path"] for h in result["hits"]}), result["hits"]
    # The real model is here: all three sides ranked.
    assert "keyword" in result["used"] and "meaning" in result["used"], result
    # The test file says the same words; the code comes first.
    paths = [f["path"] for f in result["files"]]
    assert paths.index("billing/invoice.py") < paths.index("tests/test_invoice.py")
    # A stack trace finds the file it names; `limit` cuts the list.
    trace = (
        'Traceback (most recent call last):\n  File "/srv/app/billing/mailer.py", line 6, '
        "in send_invoice\nSmtpRefused: the mail server refused the message"
    )
    traced = engine.code_find(trace, path=repo, limit=1)
    assert [f["path"] for f in traced["files"]] == ["billing/mailer.py"]
    assert "structure" in traced["used"]
    with pytest.raises(cc_search.InvalidRequestError, match="no words"):
        engine.code_find("?!", path=repo)


def test_engine_code_find_reports_progress(engine: cc_search.Engine, repo: Path) -> None:
    stages: list[str] = []
    engine.code_find("save a pdf to disk", path=repo, progress=lambda s, d, t: stages.append(s))
    assert "find index" in stages


def test_cli_code_find(repo: Path, home: Path) -> None:
    proc = run_cli("code", "find", "mail the invoice as a pdf", "-C", str(repo), "--json", home=home)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1
    found = json.loads(proc.stdout)
    assert found["files"][0]["path"] == "billing/mailer.py"
    # `-` reads the description from stdin: a long issue with quotes and newlines.
    issue = "Sending fails:\n\n```\nSmtpRefused: the mail server refused the message\n```\nin `send_invoice`\n"
    piped = run_cli("code", "find", "-", "-C", str(repo), "--json", "--limit", "2", home=home, stdin=issue)
    assert piped.returncode == 0, piped.stderr
    result = json.loads(piped.stdout)
    assert [f["path"] for f in result["files"]][0] == "billing/mailer.py"
    assert len(result["files"]) <= 2
    # For a person: ranked paths, under each its ranked definitions, the sides used.
    human = run_cli("code", "find", "write a document to disk", "-C", str(repo), home=home)
    assert human.returncode == 0, human.stderr
    lines = human.stdout.splitlines()
    assert lines[0].startswith("1. ") and lines[0].endswith("billing/storage.py")
    assert lines[1].split()[0] == "d1" and "save_pdf" in lines[1] and "1-3" in lines[1]
    assert lines[-1].startswith("Found ") and "keyword" in lines[-1]
    # No words: a usage of the operation's error, exit 1.
    bad = run_cli("code", "find", "-C", str(repo), "--", "-- ?", home=home)
    assert bad.returncode == 1 and "no words" in bad.stderr


def test_mcp_code_find(repo: Path, home: Path) -> None:
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "code_find", "arguments": {"query": "tax rate of the invoice total"}}},
    ]
    proc = run_cli("mcp", "--root", str(repo), home=home, stdin="".join(json.dumps(m) + "\n" for m in lines))
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    tools = {t["name"]: t for t in replies[1]["result"]["tools"]}
    assert tools["code_find"]["inputSchema"]["required"] == ["query"]
    result = replies[2]["result"]
    assert result.get("isError") is not True, result
    answer = json.loads(result["content"][0]["text"])
    assert answer["files"][0] == {"f": "billing/invoice.py"}
    # Each hit points at its file in `files`.
    best = answer["hits"][0]
    assert (best["fi"], best["n"], best["l"]) == (0, "total_with_tax", "10-12")
    # What the agent does not need is left out of its context.
    assert "used" not in answer
