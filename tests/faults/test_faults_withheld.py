"""A change whose undo copy was withheld, killed part-way, then recovered by the next *other* command (issue 11).

On a keyless install a restore (or an approved change) cannot keep an undo
copy of a file with a privacy finding (issue 10: sealed or not kept). When
such a change is killed part-way, rolling it back would put back the files
it can and leave the one it cannot: the attack of round 6 found
``init --restore`` killed after removing a note with a finding, then the next
command saying "rolled back ... put back memory/daily-index.md" while the note
stayed gone and the index listed a section that no longer existed.

Now such a restore is finished (rolled forward) by the next command that
takes the lock, and any other journaled change that cannot be rolled back is
kept as it was left with its indexes rebuilt; the warning says which. Every
kill point of the restore is tried (the run is short); after the next command
(``memory.py lesson``, not a re-run of the restore) the tree is the
uninterrupted run's (restore finished) or the starting one (rolled back: the
kill came before the restore changed anything), the daily index agrees with
the notes, and every file the warning names was changed by the recovery.

``status`` (read-only) reports an interrupted change and what the next
writing command will do about it, text and ``--json``, and changes nothing.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from tests.faults import harness
from tests.faults.harness import run_forked, snapshot

NOW = "2026-11-29T12:00:00+00:00"
ENV = {"MEMORY_MANAGER_NOW": NOW}  # no MEMORY_MANAGER_KEY: keyless (init --no-key)
DAY = "2026-11-29"
NOTE = f"memory/daily/{DAY}.md"
INDEX = "memory/daily-index.md"
FINDING = "ops.lead" + "@" + "corp-mail.net"
RANDOM = {"memory/.state/audit-salt", "memory/.state/gate-audit.jsonl"}
LESSON = ["lesson", "probe"]


def _tree(ws: Path) -> dict[str, bytes]:
    return {k: v for k, v in snapshot(ws).items() if k not in RANDOM}


def _setup(ws: Path, note_first: bool) -> None:
    env = dict(ENV, OPENCLAW_WORKSPACE_DIR="")
    assert run_forked("init", ["-w", str(ws), "--yes", "--no-key", "--no-hooks"], env) == 0
    if note_first:  # the write then only inserts into a note that exists: the restore deletes bytes
        (ws / NOTE).write_text(f"## [{DAY}] Release\n- 改：shipped v2\n", encoding="utf-8")
        _reindex(ws)
    assert run_forked("memory", ["write", "--topic", "Crash", "--change", f"crash {FINDING}", "--date", DAY,
                                 "--approved", "-w", str(ws)], env) == 0
    assert FINDING.encode() in (ws / NOTE).read_bytes()


TOPICS = ("Crash", "Release", "Other")


def _index_agrees(tree: dict[str, bytes]) -> bool:
    """The daily index lists each section (by topic) exactly when a daily note holds it."""
    notes = b"".join(v for k, v in tree.items() if k.startswith("memory/daily/"))
    return all((f"] {t}".encode() in notes) == (t.encode() in tree.get(INDEX, b"")) for t in TOPICS)


def _held(tree: dict[str, bytes]) -> bytes:
    return b"\n".join(v for k, v in tree.items() if k.startswith(("memory/daily/", "memory/archive/")))


def _lost(start: dict[str, bytes], now: dict[str, bytes], end: dict[str, bytes]) -> list[str]:
    """Item lines of the starting daily notes that the uninterrupted run keeps (in a note or the
    archive) and that no daily note or archive file holds now."""
    lines = {line for k, v in start.items() if k.startswith("memory/daily/") for line in v.splitlines()
             if line.startswith("- ".encode())}
    return sorted(line.decode() for line in lines if line in _held(end) and line not in _held(now))


def _named(warning: str) -> list[str]:
    """The files a recovery warning says it put back or changed."""
    found = re.search(r"(?:put back|changed) ([^;\n]+)", warning)
    return [p.strip() for p in found.group(1).split(",")] if found else []


RESTORE = ("init", ["--restore", "--yes"])


def _exercise(tmp_path: Path, setup, command: tuple[str, list[str]] = RESTORE,
              forward: str = "finished an interrupted restore",
              kept_as_left: bool = False) -> tuple[int, list[str], set[str]]:
    """Kill ``command`` at every step on a workspace ``setup(ws)`` made; run the next command; check."""
    start = tmp_path / "start"
    start.mkdir()
    setup(start)
    env = dict(ENV, OPENCLAW_WORKSPACE_DIR="")
    script, args = command

    def fresh(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(start, target, symlinks=True)
        return target

    # The two trees recovery may end in, each followed by the same next command.
    finished = fresh("finished")
    log = tmp_path / "steps.log"
    assert run_forked(script, [*args, "-w", str(finished)], dict(env, MEMORY_MANAGER_STEP_LOG=str(log))) == 0
    assert run_forked("memory", [*LESSON, "-w", str(finished)], env) == 0
    rolled = fresh("rolled")
    assert run_forked("memory", [*LESSON, "-w", str(rolled)], env) == 0
    ends = {"finished": _tree(finished), "rolled back": _tree(rolled)}
    first = _tree(start)
    assert ends["finished"] != ends["rolled back"]
    total = len(log.read_text().splitlines())
    failures: list[str] = []
    seen: set[str] = set()
    for n in range(1, total + 1):
        ws = fresh(f"kill-{n}")
        if run_forked(script, [*args, "-w", str(ws)], dict(env, MEMORY_MANAGER_CRASH_AT=str(n))) != -9:
            failures.append(f"step {n}: not killed")
            continue
        killed = _tree(ws)
        err = tmp_path / f"err-{n}"
        code = run_forked("memory", [*LESSON, "-w", str(ws)], dict(ENV, OPENCLAW_WORKSPACE_DIR=""), stderr=err)
        warning = err.read_text()
        now = _tree(ws)
        if code != 0:
            failures.append(f"step {n}: the next command exited {code}: {warning}")
            continue
        end = [name for name, tree in ends.items() if tree == now]
        if _lost(first, now, ends["finished"]):
            failures.append(f"step {n}: lost {_lost(first, now, ends['finished'])}")
        if not end and kept_as_left and forward in warning:
            end = ["kept as left"]  # a part-done change kept (no undo copy): checked by what follows
        if not end:
            failures.append(f"step {n}: neither finished nor rolled back: "
                            f"{harness.diff(now, ends['finished'])} / {harness.diff(now, ends['rolled back'])}")
            continue
        seen.add(end[0])
        if not _index_agrees(now):
            failures.append(f"step {n}: {INDEX} disagrees with {NOTE}")
        if "interrupted" in warning:
            said = ("kept as left" if kept_as_left and end[0] != "finished" else "finished") if forward in warning else \
                "rolled back" if "rolled back an interrupted" in warning else "?"
            if said != end[0]:
                failures.append(f"step {n}: the warning says {said!r}, the tree is {end[0]!r}: {warning.strip()}")
            for rel in _named(warning):
                if killed.get(rel) == now.get(rel):
                    failures.append(f"step {n}: the warning names {rel}, which the recovery did not change: "
                                    f"{warning.strip()}")
        elif set(harness.diff(killed, now)) - {"MEMORY.md"}:  # only the lesson's own change, unless it says
            failures.append(f"step {n}: files changed by the recovery without a word: {harness.diff(killed, now)}")
        if list((ws / ".memory-backup").glob(".open-*")):
            failures.append(f"step {n}: a journal is left")
        if FINDING.encode() in b"".join(p.read_bytes() for p in (ws / ".memory-backup").rglob("*") if p.is_file()):
            failures.append(f"step {n}: the finding is in a backup in plain")
        shutil.rmtree(ws)
    return total, failures, seen


def test_killed_keyless_restore_of_a_new_note_is_finished_by_the_next_command(tmp_path, monkeypatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    total, failures, seen = _exercise(tmp_path, lambda ws: _setup(ws, note_first=False))
    assert not (tmp_path / "finished" / NOTE).exists()
    assert total > 10
    assert failures == []
    assert seen == {"finished", "rolled back"}  # both endings were reached: the kill points span the point


def test_killed_keyless_restore_of_an_insertion_is_finished_by_the_next_command(tmp_path, monkeypatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    total, failures, seen = _exercise(tmp_path, lambda ws: _setup(ws, note_first=True))
    assert FINDING.encode() not in (tmp_path / "finished" / NOTE).read_bytes()
    assert total > 10
    assert failures == []
    assert seen == {"finished", "rolled back"}


OLD_NOTES = {"memory/daily/2026-08-01.md": f"## [2026-08-01] Release\n- 改：mail {FINDING} about v2\n",
             "memory/daily/2026-08-02.md": "## [2026-08-02] Other\n- 改：a plain line\n"}


def _old_notes(ws: Path) -> None:
    """A keyless workspace with two old notes prune moves to the archive; one holds a finding, so
    prune's backup withholds its copy (maintenance that only moves entries may: formats.md)."""
    env = dict(ENV, OPENCLAW_WORKSPACE_DIR="")
    assert run_forked("init", ["-w", str(ws), "--yes", "--no-key", "--no-hooks"], env) == 0
    for rel, text in OLD_NOTES.items():
        (ws / rel).write_text(text, encoding="utf-8")
    _reindex(ws)


def _reindex(ws: Path) -> None:
    """Index the notes written by hand, as a write would have left the index."""
    from memory_manager import entries
    from memory_manager.config import load_config

    entries.rebuild_indexes(ws, load_config(ws))
    assert b"Release" in (ws / INDEX).read_bytes()


def test_killed_keyless_prune_without_an_undo_copy_is_kept_as_left_with_its_index(tmp_path, monkeypatch):
    # Rolling back the archive files while the note whose copy was withheld stays cut would lose
    # its section; the next command keeps the part-done prune instead, and says so.
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    total, failures, seen = _exercise(tmp_path, _old_notes, ("memory", ["prune"]),
                                      forward="could not roll back an interrupted prune", kept_as_left=True)
    entries = [json.loads(line) for p in (tmp_path / "finished" / ".memory-backup").glob("*/entries.jsonl")
               for line in p.read_text().splitlines()]
    assert next(e for e in entries if e["path"] == "memory/daily/2026-08-01.md")["stored"] == "withheld"
    assert total > 5
    assert failures == []
    assert "rolled back" in seen and ("finished" in seen or "kept as left" in seen), seen


def _status(run_script, ws: Path) -> tuple[dict, str]:
    as_json = run_script("memory", "status", "--json", "-w", str(ws), env=ENV)
    assert as_json.code == 0, as_json.err
    text = run_script("memory", "status", "-w", str(ws), env=ENV)
    assert text.code == 0, text.err
    return json.loads(as_json.out), text.err


def _killed_after(tmp_path: Path, script: str, args: list[str], ws: Path, label: str) -> None:
    """Run ``script args`` on a copy of ``ws`` to find the step labelled ``label``; kill ``ws``'s run right after it."""
    probe = tmp_path / "probe"
    shutil.copytree(ws, probe, symlinks=True)
    log = tmp_path / "probe.log"
    env = dict(ENV, OPENCLAW_WORKSPACE_DIR="")
    assert run_forked(script, [*args, "-w", str(probe)], dict(env, MEMORY_MANAGER_STEP_LOG=str(log))) == 0
    steps = [line.split(" ", 1)[1] for line in log.read_text().splitlines()]
    at = max(i for i, step in enumerate(steps, start=1) if step.startswith("replace") and step.endswith(label))
    assert run_forked(script, [*args, "-w", str(ws)], dict(env, MEMORY_MANAGER_CRASH_AT=str(at + 1))) == -9


def test_status_reports_a_half_done_write_and_repairs_nothing(tmp_path, run_script, monkeypatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    ws = tmp_path / "ws"
    ws.mkdir()
    env = dict(ENV, OPENCLAW_WORKSPACE_DIR="")
    assert run_forked("init", ["-w", str(ws), "--yes", "--no-key", "--no-hooks"], env) == 0
    (ws / NOTE).write_text(f"## [{DAY}] Release\n- 改：shipped v2\n", encoding="utf-8")
    before = (ws / NOTE).read_bytes()
    clean, _ = _status(run_script, ws)
    assert clean["interrupted"] == []
    _killed_after(tmp_path, "memory", ["write", "--topic", "Docs", "--change", "wrote the guide", "--date", DAY],
                  ws, NOTE)
    half = (ws / NOTE).read_bytes()
    assert half != before and b"wrote the guide" in half  # the note was written, the write not closed
    killed = snapshot(ws)
    doc, err = _status(run_script, ws)
    [item] = doc["interrupted"]
    assert item["reason"] == f"write {DAY}" and item["action"] == "roll back" and NOTE in item["paths"], item
    assert f"an interrupted write {DAY} (backup {item['id']}) is counted above as it was left; the next command " \
           f"that writes will roll it back (put back {', '.join(item['paths'])})" in err, err
    assert snapshot(ws) == killed  # read-only: nothing repaired
    assert (ws / ".memory-backup" / f".open-{item['id']}").exists()
    from filelock import FileLock

    with FileLock(str(ws / ".memory-backup" / ".lock"), timeout=5):  # as a command running now holds it
        busy, err = _status(run_script, ws)
    assert [(i["id"], i["action"]) for i in busy["interrupted"]] == [(item["id"], "in progress")]
    assert f"a change (backup {item['id']}) is in progress in another process" in err, err
    assert run_forked("memory", [*LESSON, "-w", str(ws)], env) == 0  # the next locked command rolls it back
    assert (ws / NOTE).read_bytes() == before
    after, err = _status(run_script, ws)
    assert after["interrupted"] == [] and "interrupted" not in err


def test_status_reports_a_restore_it_will_finish(tmp_path, run_script, monkeypatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    ws = tmp_path / "ws"
    ws.mkdir()
    _setup(ws, note_first=False)
    _killed_after(tmp_path, "init", ["--restore", "--yes"], ws, INDEX)
    killed = snapshot(ws)
    doc, err = _status(run_script, ws)
    [item] = doc["interrupted"]
    assert item["action"] == "finish" and item["role"] == "safety", item
    assert "the next command that writes will finish it" in err, err
    assert snapshot(ws) == killed
    assert run_forked("memory", [*LESSON, "-w", str(ws)], dict(ENV, OPENCLAW_WORKSPACE_DIR="")) == 0
    assert not (ws / NOTE).exists() and b"Crash" not in (ws / INDEX).read_bytes()
    assert _status(run_script, ws)[0]["interrupted"] == []
