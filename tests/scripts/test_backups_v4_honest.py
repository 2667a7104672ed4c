"""Backups v4 (entries without a copy) under forget and --force restore (issue 11, attack of round 6).

Real scripts on a temporary workspace:

- ``forget`` erases every backup entry that records a state of the note (or
  of the daily index) that held the forgotten section: the copy, and since
  v4 also an ``insertions`` entry's sha256 before/after and byte ranges. No
  sha256 of the section's text or of a file state holding it is left
  anywhere under the workspace, so a guess at the text cannot be checked
  offline with the section id.
- ``init --restore --force`` says per file what it did: it overwrote the
  files it put back and left alone (and says so) a file an ``insertions``
  entry cannot apply to.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

DAY = "2026-11-29"
NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
NOTE = f"memory/daily/{DAY}.md"
INDEX = "memory/daily-index.md"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write(run_script, topic: str, change: str):
    result = run_script("memory", "write", "--topic", topic, "--change", change, "--date", DAY, "--json", env=NOW)
    assert result.code == 0, result.err
    return json.loads(result.out)


def _holding(ws: Path, needles: set[str]) -> dict[str, list[str]]:
    """The files under ``ws`` holding each needle (as hex text), every file included."""
    found: dict[str, list[str]] = {}
    for path in sorted(ws.rglob("*")):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            for needle in needles:
                if needle.encode() in data:
                    found.setdefault(needle, []).append(path.relative_to(ws).as_posix())
    return found


@pytest.mark.parametrize("keyless", [True, False])
def test_forget_leaves_no_hash_of_the_forgotten_text_or_of_a_state_holding_it(ws, run_script, keyless, request):
    if not keyless:
        request.getfixturevalue("t2_key")
    init = run_script("init", "--yes", "--no-hooks", *(["--no-key"] if keyless else []), env=NOW)
    assert init.code == 0, init.err
    before_note = None
    states: dict[str, bytes] = {}
    first = _write(run_script, "Launch", "moved the launch to the blue harbour plan")
    states["note after the section"] = (ws / NOTE).read_bytes()
    states["index after the section"] = (ws / INDEX).read_bytes()
    _write(run_script, "Docs", "wrote the guide")
    states["note after a later write"] = (ws / NOTE).read_bytes()
    states["index after a later write"] = (ws / INDEX).read_bytes()
    # The v4 entries of both writes are insertions (no copy): the attack's way in.
    kinds = [json.loads(line)["stored"] for p in sorted((ws / ".memory-backup").glob("*/entries.jsonl"))
             for line in p.read_text().splitlines() if json.loads(line).get("path") == NOTE
             and json.loads(line).get("existed")]
    assert kinds == ["insertions"], kinds
    note = states["note after a later write"].decode()
    start = note.index(f"## [{DAY}] Launch")
    end = note.index(f"## [{DAY}] Docs")
    section = note[start:end]
    forgot = run_script("memory", "forget", first["id"], "--approved", "--json", env=NOW)
    assert forgot.code == 0, forgot.err + forgot.out
    after = (ws / NOTE).read_bytes()
    assert b"blue harbour" not in after and b"wrote the guide" in after
    assert before_note is None
    needles = {_sha(section.encode()), _sha(section.rstrip("\n").encode()), _sha(section.strip().encode()),
               *(_sha(v) for v in states.values())}
    names = {_sha(v): k for k, v in states.items()}
    left = _holding(ws, needles)
    assert left == {}, {names.get(k, "the section's text"): v for k, v in left.items()}
    assert _holding(ws, {"blue harbour"}) == {}
    # The write backups keep their other entries; the erased ones name no hash or range any more.
    for path in (ws / ".memory-backup").glob("*/entries.jsonl"):
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            if entry.get("stored") == "erased":
                assert not {"sha256", "new_sha256", "inserted", "size", "new_size", "also"} & set(entry), entry
    # A restore still runs: the erased entries are reported and left alone.
    listed = json.loads(run_script("init", "--list-backups", "--json", env=NOW).out)["backups"]
    assert all(b.get("error") is None for b in listed)


def test_force_restore_says_per_file_what_it_did(ws, run_script):
    init = run_script("init", "--yes", "--no-hooks", "--no-key", env=NOW)
    assert init.code == 0, init.err
    (ws / NOTE).write_text(f"## [{DAY}] Release\n- 改：shipped v2\n", encoding="utf-8")
    _write(run_script, "Docs", "wrote the guide")
    # The user changes the note by hand after the write: the write's insertions entry cannot apply.
    edited = (ws / NOTE).read_bytes() + "- 待：a line typed by hand\n".encode()
    (ws / NOTE).write_bytes(edited)
    # ... and MEMORY.md, which this backup does not hold: not part of it.
    refused = run_script("init", "--restore", "--yes", env=NOW)
    assert refused.code != 0
    assert f"{NOTE}: changed since the backup, which cannot undo its change (it keeps no copy)" in refused.err, \
        refused.err
    assert "restoring would lose those changes" not in refused.err
    forced = run_script("init", "--restore", "--yes", "--force", env=NOW)
    assert forced.code == 0, forced.err
    assert (ws / NOTE).read_bytes() == edited  # left alone
    assert "overwrote" not in forced.out, forced.out
    assert f"left as it is (--force): {NOTE}" in forced.out, forced.out
    doc = json.loads(run_script("init", "--restore", "--yes", "--force", "--json", env=NOW).out)
    assert doc["overwrote"] == [] and doc["left_changed"] == [NOTE], doc
