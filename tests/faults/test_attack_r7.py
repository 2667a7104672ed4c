"""Attack of round 7 on issue 11 (crash-safe, honest under faults): what broke and what held.

Each test runs the scripts on real files in a temporary workspace. A finding is a strict
xfail reproducing it exactly (an import stopped by a file-size limit leaves the daily index
stale; an import killed between two sections of one note leaves that note part-written until
the next command rolls it back; a tampered journal whose restore plan sits on a write's backup
makes the next write undo init); the passing tests pin down attacks that held, so a regression
shows: a killed ``forget`` recovered by a *different* next command (``status --json``, then
``lesson``), the erasure of hashes of states that held forgotten text, a garbage journal,
symlinks planted in ``.memory-backup/`` and ``memory/.state``, and ``prune`` under
``RLIMIT_FSIZE``.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from tests.faults import harness
from tests.faults.harness import holding, run_forked, snapshot, staging_left

NOW = "2026-11-29T12:00:00+00:00"
ENV = {"MEMORY_MANAGER_NOW": NOW}  # keyless: init --no-key
RANDOM = {"memory/.state/audit-salt", "memory/.state/gate-audit.jsonl"}
NEEDLE = "Zephyr" + "quux"
DAY = "2026-11-29"


def _tree(ws: Path) -> dict[str, bytes]:
    return {k: v for k, v in snapshot(ws).items() if k not in RANDOM}


def _run(script: str, args: list[str], ws: Path, limit: int = 0) -> tuple[int, str, str]:
    """Run ``scripts/<script>.py args -w ws`` in a subprocess (optionally under RLIMIT_FSIZE)."""
    env = dict(os.environ, **ENV, OPENCLAW_WORKSPACE_DIR="")
    env.pop("MEMORY_MANAGER_KEY", None)

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / f"{script}.py"), *args, "-w", str(ws)],
                          capture_output=True, text=True, env=env, preexec_fn=lower if limit else None, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def _init(ws: Path) -> None:
    ws.mkdir(parents=True, exist_ok=True)
    assert run_forked("init", ["-w", str(ws), "--yes", "--no-key", "--no-hooks"], dict(ENV, OPENCLAW_WORKSPACE_DIR="")) == 0


def _write(ws: Path, topic: str, change: str, day: str = DAY) -> None:
    assert run_forked("memory", ["write", "--topic", topic, "--change", change, "--date", day, "-w", str(ws)],
                      dict(ENV, OPENCLAW_WORKSPACE_DIR="")) == 0


def _indexes_agree(ws: Path) -> list[str]:
    """The derived indexes that differ from a rebuild from the notes (on a copy)."""
    from memory_manager import entries
    from memory_manager.config import load_config

    copy = ws.parent / f"{ws.name}-rebuilt"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(ws, copy, symlinks=True, ignore=shutil.ignore_patterns("indexes-stale"))
    entries.rebuild_indexes(copy, load_config(copy))
    return [rel for rel in ("memory/daily-index.md", "memory/knowledge-index.md")
            if (ws / rel).exists() and (ws / rel).read_bytes() != (copy / rel).read_bytes()]


# --- finding: import stopped by a file-size limit leaves the daily index stale --------------------

def _export_of_two_days(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    _init(src)
    for day in ("2026-08-01", "2026-08-02"):
        for t in range(3):
            # The second day's sections are longer: a file-size limit between the two notes' sizes
            # lets the import write the first note and stops it at the second (8000 bytes: above the
            # audit log's size after the import's records, v3 records carrying entry references).
            _write(src, f"Topic {day[-2:]} {t}", f"change number {t} " + "x" * (200 if day.endswith("1") else 4500), day)
    code, out, err = _run("memory", ["export", "--approved"], src)
    assert code == 0, err
    path = tmp_path / "export.json"
    path.write_text(out, encoding="utf-8")
    return path


def test_import_under_a_file_size_limit_leaves_the_daily_index_agreeing(tmp_path, monkeypatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("MEMORY_MANAGER_KEY", raising=False)
    export = _export_of_two_days(tmp_path)
    ws = tmp_path / "ws"
    _init(ws)
    code, out, err = _run("memory", ["import", str(export), "--approved", "--json"], ws, limit=8000)
    doc = json.loads(out)
    assert code == 1, (code, out, err)
    # The failed import keeps the note it wrote, brings the index in line at once, and names both.
    assert doc["error"] == (f"{ws}/memory/daily/2026-08-02.md: write failed (File too large); files changed "
                            "before the error: memory/daily-index.md, memory/daily/2026-08-01.md")
    assert not (ws / "memory/daily/2026-08-02.md").exists()
    assert (ws / "memory/daily/2026-08-01.md").exists()
    assert _indexes_agree(ws) == []
    code, _, err = _run("memory", ["lesson", "probe"], ws)  # the next writing command
    assert code == 0, err
    assert "failed part-way" not in err
    assert b"Topic 01 0" in (ws / "memory/daily/2026-08-01.md").read_bytes()
    assert _indexes_agree(ws) == []


def test_an_index_that_could_not_be_rebuilt_after_a_failure_is_rebuilt_by_the_next_command(tmp_path, monkeypatch):
    # When the same full disk stops the index rebuild too, a mark in memory/.state is left (made
    # here as the failing command would) and the next command rebuilds the index and says so.
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("MEMORY_MANAGER_KEY", raising=False)
    from memory_manager import backups, entries

    ws = tmp_path / "ws"
    _init(ws)
    _write(ws, "Kept topic", "done", "2026-07-01")
    note = ws / "memory/daily/2026-07-02.md"
    note.write_text("# 2026-07-02\n\n## Written by a command that then failed\n- 改：it stays\n", encoding="utf-8")
    assert _indexes_agree(ws) == ["memory/daily-index.md"]

    def full_disk(*_a, **_k):
        raise OSError(27, "File too large")

    monkeypatch.setattr(entries, "rebuild_indexes", full_disk)
    backups._on_failure(ws, ["memory/daily/2026-07-02.md"])
    monkeypatch.undo()
    assert (ws / "memory/.state/indexes-stale").read_bytes() == b""
    backups._on_failure(ws, ["memory/.state/other.json"])  # no note changed: nothing to do
    code, _, err = _run("memory", ["lesson", "probe"], ws)  # the next writing command
    assert code == 0, err
    assert "an earlier command failed part-way after changing notes: rebuilt memory/daily-index.md" in err
    assert _indexes_agree(ws) == []
    assert not (ws / "memory/.state/indexes-stale").exists()
    code, _, err = _run("memory", ["lesson", "probe two"], ws)
    assert code == 0 and "failed part-way" not in err


# --- held: a killed forget, recovered by a different next command --------------------------------

def _daily_with_needle(ws: Path) -> str:
    _init(ws)
    _write(ws, "Release", "tagged v2")
    code, out, err = _run("memory", ["write", "--topic", f"{NEEDLE} plan", "--change", f"{NEEDLE} moved to Friday",
                                     "--date", DAY], ws)
    assert code == 0, err
    _write(ws, "Later", "lunch")
    return re.search(r"\[(d-[0-9a-f-]+)\]", out).group(1)


def test_killed_keyless_forget_then_status_and_lesson_leave_no_trace(tmp_path, monkeypatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("MEMORY_MANAGER_KEY", raising=False)
    start = tmp_path / "start"
    ident = _daily_with_needle(start)
    first = _tree(start)
    env = dict(ENV, OPENCLAW_WORKSPACE_DIR="")
    ref = tmp_path / "ref"
    shutil.copytree(start, ref, symlinks=True)
    log = tmp_path / "steps.log"
    assert run_forked("memory", ["forget", ident, "--approved", "-w", str(ref)],
                      dict(env, MEMORY_MANAGER_STEP_LOG=str(log))) == 0
    assert holding(ref, NEEDLE.encode()) == []
    after = _tree(ref)
    labels = [line.split(" ", 1)[1] for line in log.read_text().splitlines()]
    failures, forgotten = [], 0
    points = harness.kill_points(len(labels), labels)
    for n in points:
        ws = tmp_path / f"k{n}"
        shutil.copytree(start, ws, symlinks=True)
        assert run_forked("memory", ["forget", ident, "--approved", "-w", str(ws)],
                          dict(env, MEMORY_MANAGER_CRASH_AT=str(n))) == -9
        killed = _tree(ws)
        for rel in set(killed) | set(first) | set(after):
            if not harness.STAGING(rel) and killed.get(rel) not in (first.get(rel), after.get(rel)):
                failures.append(f"{n}: {rel} neither old nor new")
        code, out, err = _run("memory", ["status", "--json"], ws)
        json.loads(out)
        if code != 0 or "Traceback" in err:
            failures.append(f"{n}: status exited {code}: {err}")
        code, out, err = _run("memory", ["lesson", "probe"], ws)
        if code != 0 or "Traceback" in err:
            failures.append(f"{n}: lesson exited {code}: {err}")
        notes = b"".join(v for k, v in _tree(ws).items())
        if NEEDLE.encode() not in notes:
            forgotten += 1
            if holding(ws, NEEDLE.encode()):
                failures.append(f"{n}: forgotten, but left in {holding(ws, NEEDLE.encode())}")
        if _indexes_agree(ws):
            failures.append(f"{n}: index disagrees: {_indexes_agree(ws)}")
        if staging_left(ws) or list((ws / ".memory-backup").glob(".open-*")):
            failures.append(f"{n}: staging or journal left")
        shutil.rmtree(ws)
    print(f"forget (keyless), next status+lesson: {len(labels)} steps, {len(points)} kill points tried, "
          f"{len(failures)} failures")
    assert len(points) >= 6
    assert failures == []
    assert 0 < forgotten < len(points)  # the kill points span the point where forget is finished, not rolled back


def test_forget_erases_every_hash_of_a_state_that_held_the_text(tmp_path, monkeypatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("MEMORY_MANAGER_KEY", raising=False)
    ws = tmp_path / "ws"
    hashes: set[str] = set()

    def record() -> None:
        for path in ws.rglob("*"):
            if path.is_file() and ".memory-backup" not in path.parts and NEEDLE.encode() in path.read_bytes():
                hashes.add(hashlib.sha256(path.read_bytes()).hexdigest())

    ident = _daily_with_needle(ws)
    record()
    env = dict(ENV, OPENCLAW_WORKSPACE_DIR="")
    assert run_forked("memory", ["learn", "zk", "--text", f"{NEEDLE} is the codename.", "-w", str(ws)], env) == 0
    record()
    assert run_forked("memory", ["learn", "zk", "--text", "More about it.", "-w", str(ws)], env) == 0
    record()
    assert len(hashes) >= 4
    for ref in (ident, "zk"):
        code, _, err = _run("memory", ["forget", ref, "--approved"], ws)
        assert code == 0, err
    blobs = {p.relative_to(ws).as_posix(): p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    assert [(h[:12], k) for h in sorted(hashes) for k, v in blobs.items() if h.encode() in v] == []
    assert holding(ws, NEEDLE.encode()) == []


# --- held: a garbage journal ---------------------------------------------------------------------

def test_a_garbage_journal_is_rolled_back_truthfully_without_a_traceback(tmp_path):
    ws = tmp_path / "ws"
    _init(ws)
    note = ws / f"memory/daily/{DAY}.md"
    _write(ws, "Release", "shipped v2")
    [write_id] = [p.name for p in (ws / ".memory-backup").iterdir() if p.name.startswith("000002-")]
    (ws / ".memory-backup" / f".open-{write_id}").write_bytes(b'{"id": "000002-20')  # torn
    killed = _tree(ws)
    code, out, err = _run("memory", ["status", "--json"], ws)
    assert code == 0 and "Traceback" not in err
    [item] = json.loads(out)["interrupted"]
    assert (item["id"], item["action"]) == (write_id, "roll back")
    code, _, err = _run("memory", ["lesson", "probe"], ws)
    assert code == 0 and "Traceback" not in err
    assert f"rolled back an interrupted write {DAY} (backup {write_id}): put back memory/daily/{DAY}.md, " \
           "memory/daily-index.md" in err, err
    assert not note.exists()
    assert sorted(harness.diff(killed, _tree(ws))) == ["MEMORY.md", "memory/daily-index.md", f"memory/daily/{DAY}.md"]
    assert _indexes_agree(ws) == []
    assert not list((ws / ".memory-backup").glob(".open-*"))


# --- held: symlinks planted in private folders ---------------------------------------------------

@pytest.mark.parametrize("plant", ["state-dir", "backup-dir", "backup-id", "journal"])
def test_a_symlink_planted_in_a_private_folder_is_refused_and_nothing_outside_changes(tmp_path, plant):
    ws = tmp_path / "ws"
    _init(ws)
    _write(ws, "Release", "shipped v2")
    outside = tmp_path / "outside"
    outside.mkdir()
    if plant == "state-dir":
        shutil.copytree(ws / "memory/.state", outside, dirs_exist_ok=True)
        shutil.rmtree(ws / "memory/.state")
        (ws / "memory/.state").symlink_to(outside)
    elif plant == "backup-dir":
        shutil.copytree(ws / ".memory-backup", outside, dirs_exist_ok=True)
        shutil.rmtree(ws / ".memory-backup")
        (ws / ".memory-backup").symlink_to(outside)
    elif plant == "backup-id":
        (ws / ".memory-backup" / "000003-20261129T120000Z").symlink_to(outside)
    else:
        (outside / "victim.txt").write_text("precious\n")
        [write_id] = [p.name for p in (ws / ".memory-backup").iterdir() if p.name.startswith("000002-")]
        (ws / ".memory-backup" / f".open-{write_id}").symlink_to(outside / "victim.txt")
    inside, beyond = _tree(ws), {p.relative_to(outside).as_posix(): p.read_bytes()
                                 for p in outside.rglob("*") if p.is_file()}
    code, out, err = _run("memory", ["write", "--topic", "Sec", "--change", "a change", "--date", DAY, "--json"], ws)
    assert code == 2, (code, out, err)
    assert "symlink" in json.loads(out)["error"]
    assert _tree(ws) == inside
    assert {p.relative_to(outside).as_posix(): p.read_bytes() for p in outside.rglob("*") if p.is_file()} == beyond


# --- held: prune under a file-size limit ---------------------------------------------------------

@pytest.mark.parametrize("limit", [300, 700, 1500, 6000])
def test_prune_under_a_file_size_limit_does_all_or_nothing_and_says_so(tmp_path, limit):
    ws = tmp_path / "ws"
    _init(ws)
    for day in ("2026-08-01", "2026-08-02"):
        _write(ws, f"Topic {day[-2:]}", "change " + "x" * 400, day)
    whole = tmp_path / "whole"
    shutil.copytree(ws, whole, symlinks=True)
    assert _run("memory", ["prune"], whole)[0] == 0
    before = _tree(ws)
    assert _tree(whole) != before
    code, out, err = _run("memory", ["prune", "--json"], ws, limit=limit)
    doc = json.loads(out)
    assert "Traceback" not in err
    if code == 0:  # the whole job was done
        assert _tree(ws) == _tree(whole)
    else:
        assert code == 1 and doc["kind"] == "backup" and doc["error"].endswith("nothing was changed"), (code, out)
        assert _tree(ws) == before
    assert staging_left(ws) == [] and not list((ws / ".memory-backup").glob(".open-*"))


# --- finding: a killed import leaves a note holding part of what it imported --------------------

def test_a_killed_import_leaves_each_note_old_or_new(tmp_path, monkeypatch):
    # fatk6: an import wrote a note once per imported section, so a kill between two of them left
    # the note holding part of what it imported. Each note is now written once, all its sections in.
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("MEMORY_MANAGER_KEY", raising=False)
    export = _export_of_two_days(tmp_path)
    notes = ["memory/daily/2026-08-01.md", "memory/daily/2026-08-02.md"]
    start = tmp_path / "start"
    _init(start)
    env = dict(ENV, OPENCLAW_WORKSPACE_DIR="")
    ref = tmp_path / "ref"
    shutil.copytree(start, ref, symlinks=True)
    log = tmp_path / "steps.log"
    assert run_forked("memory", ["import", str(export), "--approved", "-w", str(ref)],
                      dict(env, MEMORY_MANAGER_STEP_LOG=str(log))) == 0
    whole = {note: (ref / note).read_bytes() for note in notes}
    assert all(data.count(b"## [") == 3 for data in whole.values())
    labels = [line.split(" ", 1)[1] for line in log.read_text().splitlines()]
    replaces = [n for n, label in enumerate(labels, start=1) if label in {f"replace {ref / note}" for note in notes}]
    assert len(replaces) == 2  # one replace per note, not one per section
    for point in sorted({n + d for n in replaces for d in (-1, 0, 1)}):
        ws = tmp_path / f"ws-{point}"
        shutil.copytree(start, ws, symlinks=True)
        assert run_forked("memory", ["import", str(export), "--approved", "-w", str(ws)],
                          dict(env, MEMORY_MANAGER_CRASH_AT=str(point))) == -9
        for note in notes:
            assert not (ws / note).exists() or (ws / note).read_bytes() == whole[note], (point, note)
        code, _, err = _run("memory", ["lesson", "probe"], ws)  # the next command rolls the import back
        assert code == 0, err
        assert not any((ws / note).exists() for note in notes), (point, err)


# --- finding: a tampered journal's restore plan is finished against a backup that is no restore's --

def test_a_tampered_restore_plan_on_a_change_backup_is_not_finished(tmp_path):
    ws = tmp_path / "ws"
    _init(ws)
    _write(ws, "Release", "shipped v2")
    ids = sorted(p.name for p in (ws / ".memory-backup").iterdir() if p.name[:6].isdigit())
    init_id, write_id = ids
    manifest = json.loads((ws / ".memory-backup" / write_id / "manifest.json").read_text())
    assert (manifest["role"], manifest["state"], manifest["restores"]) == ("change", "complete", None)
    plan = {"id": write_id, "pid": 1, "reason": "restore",
            "forward": {"kind": "restore", "restores": init_id, "withheld": []}}
    (ws / ".memory-backup" / f".open-{write_id}").write_text(json.dumps(plan))
    agents, lessons = (ws / "AGENTS.md").read_bytes(), (ws / "MEMORY.md").read_bytes()
    code, out, err = _run("memory", ["status", "--json"], ws)
    assert code == 0 and len(json.loads(out)["interrupted"]) == 1  # today: action 'finish', paths [] (none named)
    code, out, err = _run("memory", ["write", "--topic", "Next", "--change", "more", "--date", DAY], ws)
    assert "Traceback" not in err
    # A plan its backup does not back (a change backup, restores null, nothing withheld) must not
    # be finished; today the write removes every file init created and says the undo copy of
    # '' was withheld.
    assert (ws / "AGENTS.md").exists() and (ws / "AGENTS.md").read_bytes() == agents, err
    assert (ws / "MEMORY.md").read_bytes() == lessons


# --- fatk7 (a quick attack on the round 6 fixes): forged forget plans, odd journal files ------------

def _init_and_write(tmp_path: Path) -> tuple[Path, str, str]:
    ws = tmp_path / "ws"
    _init(ws)
    _write(ws, "Release", "shipped v2")
    ids = sorted(p.name for p in (ws / ".memory-backup").iterdir() if p.name[:6].isdigit())
    return ws, ids[0], ids[1]


@pytest.mark.parametrize("forward", [
    {"kind": "forget", "paths": ["AGENTS.md", "MEMORY.md"], "names": ["Release"], "needles": ["shipped"]},
    {"kind": "forget", "paths": ["AGENTS.md"], "result": [1, 2]},
])
def test_a_forged_forget_plan_on_a_write_backup_is_not_finished(tmp_path, forward):
    # A forget plan counts only on a forget's own backup, with fields of their types: this one sits
    # on a write's backup, so the next command rolls that journal back like any other and init's
    # backup keeps every entry (before: its entries were renamed away, or every command stopped
    # with a TypeError).
    ws, init_id, write_id = _init_and_write(tmp_path)
    entries_before = (ws / ".memory-backup" / init_id / "entries.jsonl").read_bytes()
    (ws / ".memory-backup" / f".open-{write_id}").write_text(json.dumps({"id": write_id, "pid": 1, "reason": "x",
                                                                         "forward": forward}))
    code, out, err = _run("memory", ["write", "--topic", "Next", "--change", "more", "--date", DAY], ws)
    assert code == 0, err
    assert "finished an interrupted" not in err and "rolled back an interrupted" in err
    assert (ws / ".memory-backup" / init_id / "entries.jsonl").read_bytes() == entries_before
    assert (ws / "AGENTS.md").exists() and (ws / "MEMORY.md").exists()
    code, out, _ = _run("init", ["--restore", init_id, "--dry-run", "--json"], ws)
    assert code == 0 and {"remove AGENTS.md", "remove MEMORY.md"} <= set(json.loads(out)["paths"])


@pytest.mark.parametrize("kind", ["fifo", "huge"])
def test_a_journal_that_is_no_regular_file_or_too_big_stops_with_one_line_naming_it(tmp_path, kind):
    from memory_manager.backups import JOURNAL_MAX_BYTES

    ws, _init_id, write_id = _init_and_write(tmp_path)
    journal = ws / ".memory-backup" / f".open-{write_id}"
    if kind == "fifo":
        os.mkfifo(journal)
    else:
        with open(journal, "wb") as handle:
            handle.truncate(JOURNAL_MAX_BYTES + 1)  # sparse: no disk used
    before = _tree(ws) if kind == "huge" else None
    # status (read-only) names it among what it could not check; a writer stops with one line.
    code, out, err = _run("memory", ["status", "--json"], ws)  # a FIFO used to block here for ever
    assert code == 0 and "Traceback" not in err, (code, err)
    assert any(str(journal) in p and "remove it to go on" in p for p in json.dumps(json.loads(out)).split('"'))
    code, out, err = _run("memory", ["lesson", "probe"], ws)
    assert code == 1 and "Traceback" not in err, (code, err)
    assert str(journal) in err and "remove it to go on" in err and len(err.strip().splitlines()) == 1, err
    if before is not None:
        assert _tree(ws) == before


# --- atk8 (an attack on the final round 6 code): odd journals name themselves ------------------------

@pytest.mark.parametrize("forward", [{"kind": "zzz"}, {"kind": ["forget"]}])
def test_a_journal_with_a_plan_this_version_cannot_finish_names_itself_and_status_says_blocked(tmp_path, forward):
    ws, _init_id, write_id = _init_and_write(tmp_path)
    journal = ws / ".memory-backup" / f".open-{write_id}"
    journal.write_text(json.dumps({"id": write_id, "pid": 1, "reason": "x", "forward": forward}))
    before = _tree(ws)
    code, out, err = _run("memory", ["status", "--json"], ws)
    assert code == 0, err
    [item] = json.loads(out)["interrupted"]
    assert item["action"] == "blocked" and str(journal) in item["error"]  # was "finish", which nothing would do
    code, out, err = _run("memory", ["lesson", "probe"], ws)
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert str(journal) in err and "remove that journal to keep the files as they are" in err
    assert _tree(ws) == before


def test_a_directory_planted_as_a_journal_stops_writers_with_one_line_and_status_says_blocked(tmp_path):
    ws, _init_id, _write_id = _init_and_write(tmp_path)
    journal = ws / ".memory-backup" / ".open-000009-20261129T120000Z"  # no backup folder of that id
    journal.mkdir()
    before = _tree(ws)
    code, out, err = _run("memory", ["status", "--json"], ws)
    assert code == 0, err
    [item] = json.loads(out)["interrupted"]
    assert item["action"] == "blocked" and "must be a regular file" in item["error"]
    code, out, err = _run("memory", ["lesson", "probe"], ws)
    assert code == 1 and err.strip() == f"error: {journal}: a journal must be a regular file; remove it to go on"
    assert _tree(ws) == before and journal.is_dir()


@pytest.mark.parametrize("kind", ["file", "directory", "symlink", "fifo"])
def test_what_stands_at_the_stale_mark_is_named_by_status_and_the_indexes_are_rebuilt(tmp_path, kind):
    # atk8 (round 6): a directory planted as the mark was skipped silently, and status never said
    # the indexes might be stale. Now status names what stands there and the next writing command
    # rebuilds the indexes; it removes the mark (and a planted symlink or FIFO, never followed),
    # but not a directory, which it names on every run instead.
    ws = tmp_path / "ws"
    _init(ws)
    _write(ws, "Kept topic", "done", "2026-07-01")
    note = ws / "memory/daily/2026-07-02.md"
    note.write_text("# 2026-07-02\n\n## Written by a command that then failed\n- 改：it stays\n", encoding="utf-8")
    assert _indexes_agree(ws) == ["memory/daily-index.md"]
    mark = ws / "memory/.state/indexes-stale"
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"not ours")
    if kind == "file":
        mark.write_bytes(b"")
    elif kind == "directory":
        (mark / "inside").mkdir(parents=True)
    elif kind == "symlink":
        mark.symlink_to(outside)
    else:
        os.mkfifo(mark)
    code, out, err = _run("memory", ["status", "--json"], ws)
    if kind == "symlink":  # the guard on every private folder refuses before anything reads it
        assert code == 2
        assert json.loads(out)["error"] == ("memory/.state/indexes-stale is a symlink in a private folder of the "
                                            "memory tree; refusing to read or write through it (remove the link)")
        assert _run("memory", ["lesson", "probe"], ws)[0] == 2
        assert outside.read_bytes() == b"not ours" and mark.is_symlink()
        return
    assert code == 0, err
    assert json.loads(out)["indexes_stale"] == kind
    code, _, err = _run("memory", ["status"], ws)
    assert code == 0
    expected = ("the daily and knowledge indexes may be stale" if kind == "file"
                else f"memory/.state/indexes-stale is a {kind}, not a mark this bundle writes")
    assert expected in err
    assert _indexes_agree(ws) == ["memory/daily-index.md"]  # status only reads
    code, _, err = _run("memory", ["lesson", "probe"], ws)
    assert code == 0, err
    assert "rebuilt memory/daily-index.md" in err
    assert _indexes_agree(ws) == []
    assert outside.read_bytes() == b"not ours"
    if kind == "directory":
        assert (mark / "inside").is_dir()
        assert "is a directory, not the mark this bundle writes" in err
        code, _, err = _run("memory", ["lesson", "probe two"], ws)
        assert code == 0 and "is a directory, not the mark this bundle writes" in err
    else:
        assert not os.path.lexists(mark)
        code, out, _ = _run("memory", ["status", "--json"], ws)
        assert json.loads(out)["indexes_stale"] is None


@pytest.mark.parametrize("limit", [200, 600, 1024])
def test_a_gate_record_cut_by_a_file_size_limit_names_the_log_and_leaves_no_torn_line(tmp_path, limit):
    # atk8 (round 6): `import` under `ulimit -f 1` said only "File too large", and the gate's audit
    # log kept a torn line. Now the line is cut back and the error names the log; nothing else changed.
    export = _export_of_two_days(tmp_path)
    ws = tmp_path / "ws"
    _init(ws)
    log = ws / "memory/.state/gate-audit.jsonl"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_bytes(b"x" * (limit - 50) + b"\n")  # a log near the limit: the next record does not fit
    before = _tree(ws)
    code, out, err = _run("memory", ["import", str(export), "--approved", "--json"], ws, limit=limit)
    assert code == 1, (code, out, err)
    assert json.loads(out) == {"error": "cannot record the gate's decision in memory/.state/gate-audit.jsonl "
                                        "(File too large); nothing was changed", "kind": "write_failed"}
    assert log.read_bytes() == b"x" * (limit - 50) + b"\n"
    after = _tree(ws)
    assert {k for k in after if k != "memory/.state/gate-audit.jsonl"} == \
        {k for k in before if k != "memory/.state/gate-audit.jsonl"}
    assert all(after[k] == before[k] for k in before if not k.startswith("memory/.state/"))
