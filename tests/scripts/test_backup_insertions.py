"""Undo records without a copy: a change that only inserts text keeps none (backup format v4; issues 10, 11).

Real scripts on a temporary workspace. A daily note in which the privacy
detector finds something (an e-mail address) could not be appended to on a
keyless install (its backup copy could be neither sealed nor kept in plain);
now the write's backup records only where the new bytes went in
(``stored: "insertions"``) and ``init --restore`` deletes them again, byte
for byte, with no copy of the note anywhere under ``.memory-backup/``.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from memory_manager import backups

DAY = "2026-11-29"
NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
FINDING = "ops.lead" + "@" + "corp-mail.net"
NOTE = f"memory/daily/{DAY}.md"
OLD = f"## [{DAY}] Release\n- 改：mail {FINDING} about v2\n".encode("utf-8")
#: The note with one CRLF line among LF lines: a write normalises it, which is no insertion.
MIXED = OLD + "- 待：one CRLF line\r\n".encode("utf-8")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _setup(ws: Path, run_script, *keyless: str) -> None:
    result = run_script("init", "--yes", "--no-hooks", *keyless, env=NOW)
    assert result.code == 0, result.err
    (ws / NOTE).write_bytes(OLD)


def _backups(run_script) -> list[dict]:
    return json.loads(run_script("init", "--list-backups", "--json", env=NOW).out)["backups"]


def _in_backups(ws: Path, needle: bytes) -> list[str]:
    root = ws / ".memory-backup"
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and needle in p.read_bytes())


def _note_copies(ws: Path) -> list[str]:
    return sorted(p.relative_to(ws).as_posix() for p in (ws / ".memory-backup").glob(f"*/files/{NOTE}"))


def _write(run_script, text: str = "wrote the guide"):
    return run_script("memory", "write", "--topic", "Docs", "--change", text, "--date", DAY, "--json", env=NOW)


def _check_write_and_restore(ws: Path, run_script) -> None:
    """Write into the note, restore, undo the restore: exact bytes each time, no copy of the note kept."""
    wrote = _write(run_script)
    assert wrote.code == 0, wrote.err
    new = (ws / NOTE).read_bytes()
    section = f"\n## [{DAY}] Docs\n<!-- id: {json.loads(wrote.out)['id']} -->\n- 改：wrote the guide\n".encode()
    assert new == OLD + section  # appended, nothing truncated
    listed = _backups(run_script)
    write = listed[-1]
    assert (write["reason"], write["stored"]) == (f"write {DAY}", {"insertions": 2})  # the note and daily-index.md
    entry = next(e for e in backups.manifest(ws, write["id"])["entries"] if e["path"] == NOTE)
    assert entry == {"path": NOTE, "existed": True, "kind": "file", "stored": "insertions", "sha256": _sha(OLD),
                     "size": len(OLD), "mode": 0o644, "new_sha256": _sha(new), "new_size": len(new),
                     "inserted": [[len(OLD), len(new)]]}
    assert _note_copies(ws) == [] and _in_backups(ws, FINDING.encode()) == []
    # read_copy rebuilds the saved bytes from the note as the write left it; iter_copies finds no copy.
    assert backups.read_copy(ws, write["id"], NOTE) == OLD
    assert [c for c in backups.iter_copies(ws) if c[1]["path"] == NOTE] == []

    restored = run_script("init", "--restore", "--yes", "--json", env=NOW)
    assert restored.code == 0, restored.err
    doc = json.loads(restored.out)
    assert (doc["restored"], doc["paths"], doc["notes"]) == (write["id"], [NOTE, "memory/daily-index.md"], [])
    assert (ws / NOTE).read_bytes() == OLD
    # The restore's own safety backup keeps only the bytes it deleted (the new section): no copy
    # of the note and nothing of its finding.
    safety = backups.manifest(ws, doc["safety_backup"])
    kept = next(e for e in safety["entries"] if e["path"] == NOTE)
    assert (kept["stored"], kept["deleted"], kept["pieces"]) == ("deletions", [[len(OLD), len(new)]], "plain")
    assert (ws / ".memory-backup" / doc["safety_backup"] / "files" / NOTE).read_bytes() == section
    assert _in_backups(ws, FINDING.encode()) == []

    undo = run_script("init", "--restore", doc["safety_backup"], "--yes", "--json", env=NOW)
    assert undo.code == 0, undo.err
    assert (ws / NOTE).read_bytes() == new
    assert _in_backups(ws, FINDING.encode()) == []


def test_keyless_write_into_a_note_with_a_finding_keeps_no_copy_and_restores(ws, run_script):
    _setup(ws, run_script, "--no-key")
    _check_write_and_restore(ws, run_script)


def test_with_a_key_the_same_and_a_change_that_is_not_an_insertion_still_seals(ws, run_script, t2_key):
    _setup(ws, run_script)
    _check_write_and_restore(ws, run_script)
    # A change that is no insertion (edit replaces an entry's text, keeping the old one as
    # history) still keeps a copy: sealed with the key.
    knowledge = ws / "memory/knowledge/release.md"
    assert run_script("memory", "learn", "release", "--text", f"Ask {FINDING} first.", "--approved", env=NOW).code == 0
    before = knowledge.read_bytes()
    edited = run_script("memory", "edit", "release", "--text", "Deploy on Tuesdays only.", "--approved", env=NOW)
    assert edited.code == 0, edited.err
    edit = _backups(run_script)[-1]
    entry = next(e for e in backups.manifest(ws, edit["id"])["entries"] if e["path"] == "memory/knowledge/release.md")
    assert (entry["stored"], entry["sha256"]) == ("aes-gcm", _sha(before))
    assert _in_backups(ws, FINDING.encode()) == []
    assert backups.read_copy(ws, edit["id"], "memory/knowledge/release.md") == before


def test_a_write_that_normalises_a_crlf_line_keeps_only_the_carriage_return(ws, run_script):
    """The note's one CRLF line among LF lines loses its CR when the write keeps the note's style:
    no insertion, but the replaced bytes are one CR (``stored: "replacements"``)."""
    _setup(ws, run_script, "--no-key")
    (ws / NOTE).write_bytes(MIXED)
    wrote = _write(run_script)
    assert wrote.code == 0, wrote.err
    new = (ws / NOTE).read_bytes()
    assert new.startswith(MIXED.replace(b"\r\n", b"\n"))
    write = _backups(run_script)[-1]
    entry = next(e for e in backups.manifest(ws, write["id"])["entries"] if e["path"] == NOTE)
    assert (entry["stored"], entry["pieces"]) == ("replacements", "plain")
    assert (ws / ".memory-backup" / write["id"] / "files" / NOTE).read_bytes() == b"\r"
    assert _in_backups(ws, FINDING.encode()) == []
    assert run_script("init", "--restore", "--yes", env=NOW).code == 0
    assert (ws / NOTE).read_bytes() == MIXED


def test_a_note_changed_after_the_write_is_named_and_left_alone(ws, run_script):
    _setup(ws, run_script, "--no-key")
    assert _write(run_script).code == 0
    write = _backups(run_script)[-1]["id"]
    with open(ws / NOTE, "ab") as handle:  # the user adds a line by hand afterwards
        handle.write(b"- added by hand\n")
    edited = (ws / NOTE).read_bytes()
    refused = run_script("init", "--restore", write, "--yes", env=NOW)
    assert (refused.code, (ws / NOTE).read_bytes()) == (1, edited)
    forced = run_script("init", "--restore", write, "--yes", "--force", "--json", env=NOW)
    assert forced.code == 0, forced.err
    assert json.loads(forced.out)["notes"] == [
        f"{NOTE}: changed after backup {write} was made, which keeps no copy of it (only what the change "
        "inserted); not restored: restore the newer backup first"]
    assert (ws / NOTE).read_bytes() == edited


def test_learn_and_lesson_appends_keep_no_copy_on_a_keyless_install(ws, run_script):
    _setup(ws, run_script, "--no-key")
    knowledge = ws / "memory/knowledge/release.md"
    assert run_script("memory", "learn", "release", "--text", "Tag before deploying.", env=NOW).code == 0
    with open(knowledge, "ab") as handle:  # a finding the user typed into the entry by hand
        handle.write(f"\nAsk {FINDING} first.\n".encode())
    before = knowledge.read_bytes()
    learned = run_script("memory", "learn", "release", "--text", "Never deploy on Fridays.", env=NOW)
    assert learned.code == 0, learned.err
    assert knowledge.read_bytes().startswith(before.rsplit(b"\n---\n", 1)[0])
    learn = _backups(run_script)[-1]
    assert (learn["reason"], learn["stored"]) == ("learn release", {"insertions": 1})  # the index is unchanged
    memory_md = ws / "MEMORY.md"
    with open(memory_md, "ab") as handle:
        handle.write(f"\nThe release contact is {FINDING}.\n".encode())
    lesson_before = memory_md.read_bytes()
    lesson = run_script("memory", "lesson", "Check the backup before deploying.", env=NOW)
    assert lesson.code == 0, lesson.err
    assert _backups(run_script)[-1]["stored"] == {"insertions": 1}
    assert _in_backups(ws, FINDING.encode()) == []
    assert run_script("init", "--restore", "--yes", env=NOW).code == 0
    assert memory_md.read_bytes() == lesson_before


def test_forget_after_keyless_writes_leaves_nothing_of_it_in_backups(ws, run_script):
    _setup(ws, run_script, "--no-key")
    first = _write(run_script, "the tulip plan")
    assert first.code == 0
    assert run_script("memory", "write", "--topic", "Later", "--change", "more", "--date", DAY, env=NOW).code == 0
    forgot = run_script("memory", "forget", json.loads(first.out)["id"], "--approved", env=NOW)
    assert forgot.code == 0, forgot.err
    assert b"tulip" not in (ws / NOTE).read_bytes()
    assert _in_backups(ws, b"tulip") == [] and _in_backups(ws, FINDING.encode()) == []
    # The second write's backup keeps no copy; restoring it now cannot bring the section back. Its
    # entry for the note recorded states that held the section: erased, hashes and ranges too
    # (backups v5), and the backup stays a restore point (it never held the text).
    second = [b for b in _backups(run_script) if b["reason"] == f"write {DAY}"][-1]
    assert second["not_restore_point"] is None
    plan = json.loads(run_script("init", "--restore", second["id"], "--dry-run", "--json", env=NOW).out)
    assert f"{NOTE}: its record was erased on purpose (forget/purge); left as it is" in plan["notes"]
    assert "restore " + NOTE not in plan["paths"]


def test_learn_on_a_later_day_keeps_only_the_replaced_date_on_a_keyless_install(ws, run_script):
    """learn on another day rewrites the entry's ``updated:`` date and appends a paragraph: the
    backup keeps the two replaced digits of the date (``stored: "replacements"``), nothing else."""
    _setup(ws, run_script, "--no-key")
    knowledge = ws / "memory/knowledge/release.md"
    assert run_script("memory", "learn", "release", "--text", f"Ask {FINDING} first.", "--approved",
                      env=NOW).code == 0
    before = knowledge.read_bytes()
    later = {"MEMORY_MANAGER_NOW": "2026-11-30T12:00:00+00:00"}
    learned = run_script("memory", "learn", "release", "--text", "Never deploy on Fridays.", env=later)
    assert learned.code == 0, learned.err
    after = knowledge.read_bytes()
    assert after == before.replace(b"updated: 2026-11-29", b"updated: 2026-11-30") + b"\nNever deploy on Fridays.\n"
    learn = _backups(run_script)[-1]
    assert learn["stored"] == {"replacements": 1}
    entry = next(e for e in backups.manifest(ws, learn["id"])["entries"] if e["path"] == "memory/knowledge/release.md")
    at = before.index(b"updated: 2026-11-29") + len("updated: 2026-11-")
    assert (entry["replaced"], entry["pieces"]) == ([[at, at + 2, 2], [len(before), len(after), 0]], "plain")
    assert (ws / ".memory-backup" / learn["id"] / "files/memory/knowledge/release.md").read_bytes() == b"29"
    assert _in_backups(ws, FINDING.encode()) == []
    restored = run_script("init", "--restore", "--yes", "--json", env=later)
    assert restored.code == 0, restored.err
    assert knowledge.read_bytes() == before
    assert run_script("init", "--restore", json.loads(restored.out)["safety_backup"], "--yes", env=later).code == 0
    assert knowledge.read_bytes() == after
    assert _in_backups(ws, FINDING.encode()) == []


def test_restore_of_an_older_write_rebuilds_the_index_it_keeps_no_copy_of(ws, run_script):
    """The index changed after the write (a later write on another day), so its insertions entry
    cannot be applied: the restore rebuilds it from the restored notes instead, with no note."""
    _setup(ws, run_script, "--no-key")
    assert _write(run_script).code == 0
    first = _backups(run_script)[-1]["id"]
    later = run_script("memory", "write", "--topic", "Later", "--change", "more", "--date", "2026-11-30", env=NOW)
    assert later.code == 0, later.err
    restored = run_script("init", "--restore", first, "--yes", "--json", env=NOW)
    assert restored.code == 0, restored.err
    doc = json.loads(restored.out)
    assert (doc["paths"], doc["notes"], doc["indexes"]) == ([NOTE], [], ["memory/daily-index.md"])
    assert (ws / NOTE).read_bytes() == OLD
    index = (ws / "memory/daily-index.md").read_text(encoding="utf-8")
    assert "Release" in index and "Later" in index and "Docs" not in index
