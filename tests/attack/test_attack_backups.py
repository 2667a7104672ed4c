"""Attack: changes to existing files that `init --restore` cannot undo, and a forget step the crash hook misses.

README ("Backups"): every writing command (init, remember, learn, forget, import, ...)
backs up each file before changing it. These change an existing file with no backup.
"""
from __future__ import annotations

import json
import os

from conftest import tree_hash  # noqa: F401  (kept for symmetry with the suite)
from memory_manager import backups

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
DAY = "2026-11-29"


def _init(ws, run_script):
    (ws / "AGENTS.md").write_text("# Rules\n", encoding="utf-8")
    assert run_script("init", "--yes", env=NOW).code == 0


def _backups(ws):
    return sorted(p.name for p in (ws / ".memory-backup").iterdir() if not p.name.startswith("."))


def test_learn_on_an_existing_key_backs_the_file_up(ws, run_script):
    _init(ws, run_script)
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=NOW).code == 0
    path = ws / "memory/knowledge/deploy.md"
    old = path.read_bytes()
    before = _backups(ws)
    assert run_script("memory", "learn", "deploy", "--text", "Tag before deploying.", env=NOW).code == 0
    assert path.read_bytes() != old
    new = [b for b in _backups(ws) if b not in before]
    assert new, "learn changed memory/knowledge/deploy.md and made no backup"
    # The old bytes come back: from a copy, or (backup format v4: the change only appended a
    # paragraph) from the entry's inserted ranges and the file as learn left it.
    assert backups.read_copy(ws, new[-1], "memory/knowledge/deploy.md") == old
    assert run_script("init", "--restore", new[-1], "--yes", env=NOW).code == 0
    assert path.read_bytes() == old


def test_import_merging_into_an_existing_note_backs_it_up(ws, run_script, tmp_path):
    _init(ws, run_script)
    note = ws / f"memory/daily/{DAY}.md"
    note.write_text(f"## [{DAY}] Release\n- 改：tagged v2\n", encoding="utf-8")
    old = note.read_bytes()
    doc = {"format": "cmm-export", "version": 2, "exported": "2026-11-29T12:00:00+00:00", "tool_version": "0.1.0",
           "daily": [{"id": "d-20261129-00000001", "date": DAY, "topic": "Docs", "pinned": False, "cause": [],
                      "change": ["wrote the guide"], "todo": [], "other": []}],
           "knowledge": [], "tier1": [], "tier2": []}
    src = tmp_path / "export.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    before = _backups(ws)
    r = run_script("memory", "import", str(src), "--approved", env=NOW)
    assert r.code == 0, r.err
    assert note.read_bytes() != old
    new = [b for b in _backups(ws) if b not in before]
    assert new, "import rewrote memory/daily/2026-11-29.md and made no backup"


def test_write_into_a_hand_written_note_backs_it_up(ws, run_script):
    _init(ws, run_script)
    note = ws / f"memory/daily/{DAY}.md"
    note.write_text(f"## [{DAY}] Mine\n- 改：hand-written line\n", encoding="utf-8")
    before = _backups(ws)
    assert run_script("memory", "write", "--topic", "Docs", "--change", "x", "--date", DAY, env=NOW).code == 0
    assert [b for b in _backups(ws) if b not in before], "write changed a hand-written note with no backup"


def test_forget_removes_the_file_through_the_write_layer(ws, run_script, tmp_path):
    """store.forget unlinks the file directly: no crash-hook step, no folder fsync."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=NOW).code == 0
    log = tmp_path / "steps.log"
    r = run_script("memory", "forget", "deploy", "--approved", env=dict(NOW, MEMORY_MANAGER_STEP_LOG=str(log)))
    assert r.code == 0
    steps = log.read_text().splitlines()
    assert any(s.endswith("unlink " + str(ws / "memory/knowledge/deploy.md")) for s in steps), steps


def test_forget_rerun_after_a_kill_repairs_the_journal_and_index(ws, run_script, tmp_path):
    """Killed after the file went (step 12), the documented re-run says 'no memory entry' and leaves
    the journal open and knowledge-index.md still listing the forgotten key."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=NOW).code == 0
    log = tmp_path / "steps.log"
    probe = tmp_path / "probe"
    import shutil
    shutil.copytree(ws, probe, symlinks=True)
    run_script("memory", "forget", "deploy", "--approved", "-w", str(probe),
               env=dict(NOW, MEMORY_MANAGER_STEP_LOG=str(log)))
    steps = log.read_text().splitlines()
    at = next(i + 1 for i, s in enumerate(steps) if "knowledge-index.md" in s and " stage " in s)
    r = run_script("memory", "forget", "deploy", "--approved", env=dict(NOW, MEMORY_MANAGER_CRASH_AT=str(at)))
    assert r.code == -9
    run_script("memory", "forget", "deploy", "--approved", env=NOW)
    assert not [p for p in os.listdir(ws / ".memory-backup") if p.startswith(".open-")], "journal left open"
    index = (ws / "memory/knowledge-index.md").read_text(encoding="utf-8")
    assert ("deploy" in index) == (ws / "memory/knowledge/deploy.md").exists()
