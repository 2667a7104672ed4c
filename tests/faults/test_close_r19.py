"""Closing a backup (tatk19 1 and 6): a change that finished is closed by the next command, never rolled
back, and a rollback keeps what the files held before it overwrites them (references/formats.md, Journal).

Real scripts on real files in a temporary workspace; the full disk is injected at the named step (as
tests/attack/test_attack_r19_quick.py does), the kill with MEMORY_MANAGER_CRASH_AT.
"""
from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from tests.faults.harness import run_forked

DAY = {"MEMORY_MANAGER_NOW": "2026-01-01T10:00:00+00:00", "LANG": "en_US.UTF-8"}
WRITE = ["write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e"]


def _journals(ws: Path) -> list[Path]:
    return sorted((ws / ".memory-backup").glob(".open-*"))


def _full_disk(monkeypatch, *endings: str) -> None:
    """ENOSPC at every step whose label ends with one of ``endings``, once ``after.json`` is being staged."""
    from memory_manager import fsio

    real, seen = fsio.step, []
    _REAL.append(real)

    def step(label: str) -> None:
        seen.append(label)
        closing = any(x.startswith("stage ") and x.endswith("/after.json") for x in seen)
        if closing and label.split(" ", 1)[0] in ("stage", "truncate") and label.endswith(endings):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(label)

    monkeypatch.setattr(fsio, "step", step)


_REAL: list = []


def _disk_freed(monkeypatch) -> None:
    from memory_manager import fsio

    monkeypatch.setattr(fsio, "step", _REAL.pop())


def _learn(ws: Path, tmp_path: Path) -> tuple[int, str]:
    err = tmp_path / "learn.err"
    code = run_forked("memory", ["learn", "deploy", "--text", "NEWFACT ships on Tuesdays.", "-w", str(ws)], dict(DAY),
                      stderr=err)
    return code, err.read_text(encoding="utf-8")


@pytest.mark.parametrize("full", [("/manifest.json",), ("/after.json", "/manifest.json")])
def test_a_change_whose_header_could_not_be_written_is_closed_by_the_next_command(ws, run_script, monkeypatch,
                                                                                   tmp_path, full):
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=DAY).code == 0
    _full_disk(monkeypatch, *full)
    code, _err = _learn(ws, tmp_path)
    assert code == 0  # the change stands, and the journal says so
    journal, = _journals(ws)
    assert journal.stat().st_size == 0  # emptied in place: no space needed
    ident = journal.name[len(".open-"):]
    status = json.loads(run_script("memory", "status", "--json", env=DAY).out)["interrupted"]
    assert [(i["id"], i["action"]) for i in status] == [(ident, "finish")]
    _disk_freed(monkeypatch)
    w = run_script("memory", *WRITE, env=DAY)
    assert w.code == 0, w.err
    assert (f"warning: closed the backup of an earlier learn deploy (backup {ident}): the change had finished, so "
            "every file is kept as it is") in w.err.splitlines(), w.err
    assert "NEWFACT" in (ws / "memory/knowledge/deploy.md").read_text(encoding="utf-8")
    assert not _journals(ws)
    listed = {b["id"]: b for b in json.loads(run_script("init", "--list-backups", "--json").out)["backups"]}
    assert listed[ident]["state"] == "complete"


def test_a_backup_that_cannot_be_closed_at_all_is_an_error_not_a_success(ws, run_script, monkeypatch, tmp_path):
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=DAY).code == 0
    _full_disk(monkeypatch, "/after.json", "/manifest.json", "")  # the truncation too
    code, err = _learn(ws, tmp_path)
    assert code == 1
    journal, = _journals(ws)
    ident = journal.name[len(".open-"):]
    line, = [x for x in err.splitlines() if x.startswith("error: ")]
    assert line.startswith(f"error: the learn deploy changed its files, but its backup {ident} could not be closed ("), err
    assert "(No space left on device)): the next command rolls the change back from that backup; files changed " \
        "before the error: memory/knowledge-index.md, memory/knowledge/deploy.md" in line, err


def _init_killed_at(ws, tmp_path, label: str) -> str:
    """Give the user an AGENTS.md, kill ``init`` at its first step labelled ``label``; the open backup's id.

    The step is numbered on a probe copy (``MEMORY_MANAGER_STEP_LOG``), then the real run is killed there.
    """
    (ws / "AGENTS.md").write_text("# My rules\n\n- be brief\n", encoding="utf-8")
    args = ["--yes", "--lang", "en", "--no-hooks"]
    log = tmp_path / "steps.log"
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "AGENTS.md").write_bytes((ws / "AGENTS.md").read_bytes())
    assert run_forked("init", [*args, "-w", str(probe)], dict(DAY, MEMORY_MANAGER_STEP_LOG=str(log),
                                                          XDG_CONFIG_HOME=str(tmp_path / "probe-cfg"))) == 0
    labels = [line.split(" ", 1)[1] for line in log.read_text().splitlines()]
    step = next(n for n, lab in enumerate(labels, 1) if lab.startswith(label))
    assert run_forked("init", [*args, "-w", str(ws)], dict(DAY, MEMORY_MANAGER_CRASH_AT=str(step))) == -9
    journal, = _journals(ws)
    return journal.name[len(".open-"):]


def test_a_rollback_keeps_a_users_edit_in_a_backup_of_its_own(ws, run_script, tmp_path):
    ident = _init_killed_at(ws, tmp_path, "backup-entry memory/.state")
    edited = (ws / "AGENTS.md").read_text(encoding="utf-8") + "- never force-push to main\n"
    (ws / "AGENTS.md").write_text(edited, encoding="utf-8")
    w = run_script("memory", *WRITE, env=DAY)
    assert w.code == 0, w.err
    line = next(x for x in w.err.splitlines() if "rolled back an interrupted init" in x)
    listed = json.loads(run_script("init", "--list-backups", "--json").out)["backups"]
    keeper = next(b for b in listed if b["reason"] == f"rollback {ident}")
    assert keeper["role"] == "safety" and keeper["state"] == "complete"
    assert line.endswith(f"; what AGENTS.md, MEMORY.md, .gitignore, memory/memory-manager.json held is kept in "
                         f"backup {keeper['id']}"), line
    assert (ws / "AGENTS.md").read_text(encoding="utf-8") == "# My rules\n\n- be brief\n"  # rolled back
    r = run_script("init", "--restore", keeper["id"], "--yes", env=DAY)
    assert r.code == 0, r.err
    assert (ws / "AGENTS.md").read_text(encoding="utf-8") == edited


def test_a_rollback_after_a_kill_while_closing_keeps_only_what_changed_since(ws, run_script, tmp_path):
    ident = _init_killed_at(ws, tmp_path, "unlink ")
    assert (ws / ".memory-backup" / ident / "after.json").exists()  # killed while closing: still rolled back
    edited = (ws / "AGENTS.md").read_text(encoding="utf-8") + "- never force-push to main\n"
    (ws / "AGENTS.md").write_text(edited, encoding="utf-8")
    w = run_script("memory", *WRITE, env=DAY)
    assert w.code == 0, w.err
    line = next(x for x in w.err.splitlines() if "rolled back an interrupted init" in x)
    keeper = next(b for b in json.loads(run_script("init", "--list-backups", "--json").out)["backups"]
                  if b["reason"] == f"rollback {ident}")
    # after.json shows the other files as init left them: only the edited one needs keeping.
    assert line.endswith(f"; what AGENTS.md held is kept in backup {keeper['id']}"), line
    r = run_script("init", "--restore", keeper["id"], "--yes", env=DAY)
    assert r.code == 0, r.err
    assert (ws / "AGENTS.md").read_text(encoding="utf-8") == edited
