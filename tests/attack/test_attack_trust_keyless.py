"""A keyless install (init --no-key) and the backups it cannot seal (issue 10, decided here).

A backup copy of T2 content or of a file with a finding is sealed with the T2 key or not kept.
Without a key, a change to such a file would have no undo. Decision (README "Security",
references/tiers.md): no command makes that change silently. Unless the user approved the
change (``--approved``), it is refused before anything changes, naming the file and the two
ways out; with approval (and for maintenance that only moves or purges entries: cleanup,
prune) it goes ahead, the manifest says ``withheld`` and stderr says it cannot be undone.

Backup format v4 (issues 10 and 11): a change that only adds text (a write merged into a
section, learn on the same day) needs no copy at all (``stored: "insertions"``), so it goes
ahead without approval, key or no key, and ``init --restore`` undoes it; the rule above is
left for changes that do need a copy (``edit``, and any change that is not of that form:
``tests/test_backups.py``, ``test_save_change_keeps_a_copy_when_most_of_a_file_is_replaced``).
"""
from __future__ import annotations

import json
from pathlib import Path

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
DAY = "2026-11-29"
PHONE = "call the landlord on 158 1234 5678"


def _setup(ws: Path, run_script, *extra: str) -> Path:
    assert run_script("init", "--yes", "--no-hooks", *extra, env=NOW).code == 0
    r = run_script("memory", "write", "--topic", "Flat", "--cause", PHONE, "--approved", env=NOW)
    assert r.code == 0, r.err
    return ws / f"memory/daily/{DAY}.md"


def _backups(ws: Path) -> list[str]:
    return sorted(p.name for p in (ws / ".memory-backup").iterdir() if not p.name.startswith("."))


def test_without_a_key_a_change_that_only_adds_text_needs_no_copy_and_is_undone(ws, run_script):
    note = _setup(ws, run_script, "--no-key")
    before = note.read_bytes()
    r = run_script("memory", "write", "--topic", "Flat", "--change", "paid the deposit", env=NOW)
    assert r.code == 0, r.err
    assert "no backup copy" not in r.err
    newest = _backups(ws)[-1]
    entries = [json.loads(line) for line in (ws / ".memory-backup" / newest / "entries.jsonl").read_text().splitlines()]
    assert [(e["path"], e["stored"]) for e in entries] == [(f"memory/daily/{DAY}.md", "insertions")]
    assert not any((ws / ".memory-backup" / newest).rglob("files/*"))
    assert run_script("init", "--restore", newest, "--yes", env=NOW).code == 0
    assert note.read_bytes() == before
    assert "158 1234 5678" not in "".join(p.read_text(errors="replace") for p in (ws / ".memory-backup").rglob("*")
                                          if p.is_file())


def test_with_approval_a_change_that_needs_a_copy_goes_ahead_and_says_so(ws, run_script):
    assert run_script("init", "--yes", "--no-hooks", "--no-key", env=NOW).code == 0
    assert run_script("memory", "learn", "landlord", "--text", PHONE, "--approved", env=NOW).code == 0
    r = run_script("memory", "edit", "landlord", "--text", "deposit is two months", "--approved", "--json", env=NOW)
    assert r.code == 0, r.err
    json.loads(r.out)  # still one JSON document on stdout
    assert "warning: no backup copy of memory/knowledge/landlord.md: there is no T2 key to seal it" in r.err
    newest = _backups(ws)[-1]
    entries = [json.loads(line) for line in (ws / ".memory-backup" / newest / "entries.jsonl").read_text().splitlines()]
    assert [(e["path"], e["stored"]) for e in entries] == [("memory/knowledge/landlord.md", "withheld")]
    assert "158 1234 5678" not in "".join(p.read_text(errors="replace") for p in (ws / ".memory-backup").rglob("*")
                                          if p.is_file())


def test_with_a_key_the_same_change_needs_no_approval_and_is_undoable(ws, run_script, t2_key):
    note = _setup(ws, run_script)
    before = note.read_bytes()
    r = run_script("memory", "write", "--topic", "Flat", "--change", "paid the deposit", env=NOW)
    assert r.code == 0, r.err
    assert "no backup copy" not in r.err
    newest = _backups(ws)[-1]
    entries = [json.loads(line) for line in (ws / ".memory-backup" / newest / "entries.jsonl").read_text().splitlines()]
    # Only text was added: no copy at all, sealed or not (backup format v4).
    assert [(e["path"], e["stored"]) for e in entries] == [(f"memory/daily/{DAY}.md", "insertions")]
    assert run_script("init", "--restore", newest, env=NOW).code == 0
    assert note.read_bytes() == before


def test_without_a_key_an_ordinary_note_is_backed_up_without_a_warning(ws, run_script):
    """No warning for a note without a finding; appending to it keeps no copy (v4)."""
    assert run_script("init", "--yes", "--no-hooks", "--no-key", env=NOW).code == 0
    assert run_script("memory", "write", "--topic", "CI", "--change", "cached the wheels", env=NOW).code == 0
    r = run_script("memory", "write", "--topic", "CI", "--change", "pinned pip", env=NOW)
    assert r.code == 0 and "no backup copy" not in r.err
    newest = _backups(ws)[-1]
    entries = [json.loads(line) for line in (ws / ".memory-backup" / newest / "entries.jsonl").read_text().splitlines()]
    assert [(e["path"], e["stored"]) for e in entries] == [(f"memory/daily/{DAY}.md", "insertions")]


def test_without_a_key_learn_on_an_entry_with_a_finding_goes_ahead_and_is_undone(ws, run_script):
    assert run_script("init", "--yes", "--no-hooks", "--no-key", env=NOW).code == 0
    assert run_script("memory", "learn", "landlord", "--text", PHONE, "--approved", env=NOW).code == 0
    path = ws / "memory/knowledge/landlord.md"
    before = path.read_bytes()
    r = run_script("memory", "learn", "landlord", "--text", "deposit is two months", env=NOW)
    assert r.code == 0 and "no backup copy" not in r.err
    assert run_script("init", "--restore", "--yes", env=NOW).code == 0
    assert path.read_bytes() == before
    assert "158 1234 5678" not in "".join(p.read_text(errors="replace") for p in (ws / ".memory-backup").rglob("*")
                                          if p.is_file())


def test_without_a_key_a_derived_index_with_a_finding_never_stops_a_write(ws, run_script):
    """daily-index.md is rebuilt from the notes: its copy is withheld quietly, the write goes
    through whole (it stopped half-way, the new note written and the index not)."""
    assert run_script("init", "--yes", "--no-hooks", "--no-key", env=NOW).code == 0
    assert run_script("memory", "write", "--topic", "Call 158 1234 5678", "--change", "landlord", "--approved",
                      env=NOW).code == 0
    r = run_script("memory", "write", "--topic", "CI", "--change", "pinned pip", "--date", "2026-11-30", env=NOW)
    assert r.code == 0, r.err
    assert "no backup copy" not in r.err
    assert "CI" in (ws / "memory/daily-index.md").read_text(encoding="utf-8")
