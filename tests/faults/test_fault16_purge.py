"""Fault round 16 (fault16): cleanup's purge is finished, not rolled back, once it has begun to destroy.

A purge deletes an entry with every copy and blanks the keyed hashes of its audit records: a
rollback cannot bring the entry back, only the hashes. The run's journal therefore holds a
``purge`` plan from the first deletion until the purge is done (the next command finishes it),
and the backup's copy of the audit log is then the blanked log, so a rollback of the steps after
the purge, or a restore of the backup, brings no erased hash back (fatk11, finding 2).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.faults.harness import run_forked
from tests.faults.test_fault_r15_quick import NOW, _audit, _purge_workspace, _steps


def _log_copies(ws: Path) -> list[list[dict]]:
    """Every backup's copy of the gate audit log, parsed."""
    out = []
    for path in sorted((ws / ".memory-backup").glob("*/files/memory/.state/gate-audit.jsonl")):
        out.append([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()])
    return out


def _setup(tmp_path: Path):
    env = dict(NOW, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    template = tmp_path / "template"
    _purge_workspace(template, env)
    reference = tmp_path / "reference"
    shutil.copytree(template, reference, symlinks=True)
    labels = _steps("cleanup", [], reference, env, tmp_path / "steps.log")
    return env, template, reference, labels


def _killed_at(tmp_path: Path, template: Path, env: dict, step: int) -> Path:
    """A copy of ``template`` (at ``tmp_path/ws``) whose cleanup was killed at ``step`` (SIGKILL)."""
    ws = tmp_path / "ws"
    shutil.copytree(template, ws, symlinks=True)
    assert run_forked("cleanup", ["-w", str(ws)], dict(env, MEMORY_MANAGER_CRASH_AT=str(step))) == -9
    return ws


def test_an_uninterrupted_purge_leaves_the_blanked_log_in_its_backup(tmp_path):
    _env, _template, reference, _labels = _setup(tmp_path)
    want = _audit(reference)
    assert [r["decision"] for r in want] == ["proceed", "proceed", "purge_pii"] and want[0]["hash"] is None
    # The cleanup's backup keeps the log as the purge left it: no hash or kfp of the purged entry.
    assert _log_copies(reference) == [want]


def test_cleanup_killed_at_its_first_deletion_is_finished_by_the_next_run(tmp_path):
    env, template, reference, labels = _setup(tmp_path)
    step = next(n for n, label in enumerate(labels, 1)
                if label.startswith("unlink ") and label.endswith("memory/tier2-internal/s_a.md"))
    ws = _killed_at(tmp_path, template, env, step)
    assert (ws / "memory/tier2-internal/s_a.md").exists()  # killed right before the deletion
    assert run_forked("cleanup", ["-w", str(ws)], env) == 0
    assert not (ws / "memory/tier2-internal/s_a.md").exists()
    assert _audit(ws) == _audit(reference)
    assert _log_copies(ws) == [_audit(reference)]
    # The finished purge counts as the run's: the log line is the uninterrupted run's.
    assert (ws / "memory/.state/cleanup.log").read_text() == (reference / "memory/.state/cleanup.log").read_text()
    assert not list((ws / ".memory-backup").glob(".open-*"))


def test_cleanup_killed_after_its_purge_logs_the_purge_it_did(tmp_path):
    env, template, reference, labels = _setup(tmp_path)
    step = next(n for n, label in enumerate(labels, 1)
                if label.startswith("replace ") and label.endswith("memory/.state/cleanup.log"))
    ws = _killed_at(tmp_path, template, env, step)
    assert run_forked("cleanup", ["-w", str(ws)], env) == 0
    assert _audit(ws) == _audit(reference)  # holds (finding 2 of fatk11)
    assert (ws / "memory/.state/cleanup.log").read_text() == (reference / "memory/.state/cleanup.log").read_text()


def test_the_rerun_of_a_cleanup_killed_after_its_purge_says_what_the_purge_did(tmp_path):
    """The rolled-back journal keeps what the purge did ({"kind": "purge", "deleted", "erased"}):
    the re-run says the rollback left the purge done, and counts it as its own (--json)."""
    env, template, reference, labels = _setup(tmp_path)
    step = next(n for n, label in enumerate(labels, 1)
                if label.startswith("replace ") and label.endswith("memory/.state/cleanup.log"))
    ws = _killed_at(tmp_path, template, env, step)
    journal = json.loads(next((ws / ".memory-backup").glob(".open-*")).read_text(encoding="utf-8"))
    assert "forward" not in journal and journal["done"]["kind"] == "purge" and journal["done"]["deleted"] == 1
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "cleanup.py"), "-w", str(ws), "--json"],
                          capture_output=True, text=True, env={**os.environ, **env}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert (doc["deleted"], doc["log_line"]) == (1, "[2026-11-29] Memory cleanup: 0 archived, 1 deleted, 0 merged")
    assert doc["erased"] == journal["done"]["erased"] and doc["erased"]
    assert f"rolled back an interrupted cleanup (backup {journal['id']})" in proc.stderr
    assert "its purge of 1 T2 entry stays done" in proc.stderr
    assert not list((ws / ".memory-backup").glob(".open-*"))
