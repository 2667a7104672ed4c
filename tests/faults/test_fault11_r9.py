"""Round 9 (fault11): variants beside fatk8's findings in test_attack_r8.py, one per new rule.

- a writer that would replace a state file that is no regular file refuses, naming it (exit 2):
  ``used`` over a FIFO ``access.json``; ``cleanup --dry-run`` lists what a real run refuses;
- a number too large to read in the config names its key (``1e400`` as well as 5,000 digits);
- a gate-audit log with one binary line: report counts the other lines and names the file.
"""
from __future__ import annotations

import json
import os
import stat

import pytest

from tests.faults.test_attack_r8 import _base, _run


def test_used_refuses_to_write_over_a_fifo_access_json(tmp_path):
    ws = tmp_path / "ws"
    _base(ws)
    fifo = ws / "memory/.state/access.json"
    os.mkfifo(fifo, 0o600)
    code, out, err = _run("memory", ["used", "deploy", "--json"], ws)
    assert code == 2, (code, out, err)
    assert json.loads(out) == {"error": "memory/.state/access.json: not a regular file (a FIFO); nothing was "
                                        "counted (move it away)", "kind": "unreadable"}
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # left where it was, not replaced


def test_cleanup_dry_run_lists_a_state_file_a_real_run_refuses(tmp_path):
    ws = tmp_path / "ws"
    _base(ws)
    (ws / "memory/.state/archive-ledger.json").mkdir()
    code, out, err = _run("cleanup", ["--dry-run", "--json"], ws)
    assert code == 0, (code, out, err)
    assert "memory/.state/archive-ledger.json: not a regular file (a folder); a real run refuses until it is " \
           "moved away" in json.loads(out)["problems"]


@pytest.mark.parametrize("value, shown", [("1e400", "1e400 (past the float range)"),
                                          ("-" + "9" * 5000, "a 5,000-digit number")])
def test_a_number_too_large_to_read_in_the_config_names_its_key(value, shown, tmp_path):
    ws = tmp_path / "ws"
    _base(ws)
    override = ws / "memory/memory-manager.json"
    override.write_text('{"scoring": {"keyword_weight": ' + value + "}}", encoding="utf-8")
    code, out, err = _run("memory", ["recall", "deploy", "--json"], ws)
    assert code == 2, (code, out, err)
    assert json.loads(out) == {"error": f"{override}: 'scoring.keyword_weight' is {shown}, far past any allowed "
                                        "value", "kind": "config"}


def test_report_counts_the_readable_lines_of_a_gate_log_with_a_binary_line(tmp_path):
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    ws = tmp_path / "ws"
    _base(ws)
    log = ws / "memory/.state/gate-audit.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines) + b"\xff\xfe binary\n")
    code, out, err = _run("memory", ["report", "--html", str(tmp_path / "r.html"), "--json"], ws, timeout=120)
    assert code == 0, (code, out, err)
    doc = json.loads(out)
    assert "memory/.state/gate-audit.jsonl: 1 line not UTF-8 text; skipped" in doc["problems"], doc
