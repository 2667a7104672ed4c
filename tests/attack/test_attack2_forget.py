"""Attack 2 (issue 10, 'forgotten means gone'): after `forget --approved` the text must be nowhere.

Reproduced from the outside on 2026-11-30 (fails on main ad9c8d5).
"""
from __future__ import annotations

from pathlib import Path


def _files_holding(root: Path, needle: str) -> list[str]:
    out = []
    for p in root.rglob("*"):
        if p.is_file() and needle.encode() in p.read_bytes():
            out.append(str(p.relative_to(root)))
    return sorted(out)


def _setup(ws, run_script):
    assert run_script("init", "--yes", "--no-hooks").code == 0
    assert run_script("memory", "learn", "quasar-notes", "--text",
                      "the quasarfrobnicate flag breaks arm64 builds").code == 0
    assert run_script("memory", "recall", "quasarfrobnicate").code == 0   # the index now holds it
    r = run_script("memory", "forget", "quasar-notes", "--approved")
    assert r.code == 0, r.err


def test_forget_leaves_no_copy_in_the_gate_audit_log(ws, run_script):
    """The gate audit log keeps hashes, categories and decisions, never content (issue 10)."""
    _setup(ws, run_script)
    assert _files_holding(ws / "memory" / ".state", "quasarfrobnicate") == []


def test_forget_leaves_no_plain_copy_in_backups(ws, run_script):
    """A forget also removes the copies in backups (issue 10); today 'copy kept in backup' in plain text."""
    _setup(ws, run_script)
    assert _files_holding(ws / ".memory-backup", "quasarfrobnicate") == []


def test_forget_leaves_no_copy_in_the_recall_index(ws, run_script):
    """The recall index drops a forgotten entry at once, not at the next recall."""
    _setup(ws, run_script)
    assert _files_holding(ws / "memory" / ".cache", "quasarfrobnicate") == []
