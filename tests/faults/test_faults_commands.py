"""Kill points of the writing commands write, learn, remember, forget and import (issue 11).

Each scenario runs one command uninterrupted, then killed at every file-system
step (sampled like tests/faults unless MEMORY_MANAGER_FAULTS=full); after the
kill every user file must be old or new, and re-running the same command must
give the uninterrupted tree with no staging file, journal or held lock.
"""
from __future__ import annotations

from datetime import date
import shutil
from pathlib import Path

import pytest

from tests.faults import harness
from tests.faults.harness import Scenario, exercise, run_forked

_snapshot = harness.snapshot
#: Files whose bytes are random per run (a fresh salt) or carry the salt's hashes.
RANDOM = {"memory/.state/audit-salt", "memory/.state/gate-audit.jsonl"}


def _snapshot_without_random(ws):
    return {k: v for k, v in _snapshot(ws).items() if k not in RANDOM}
from tests.faults.test_faults import ENV, _initialised, _t2

DAY = "2026-11-29"


def _with_note(ws: Path) -> None:
    _initialised(ws)
    (ws / f"memory/daily/{DAY}.md").write_text(
        f"## [{DAY}] Release\n- 因：old build broke\n- 改：tagged v2\n", encoding="utf-8")


def _with_knowledge(ws: Path) -> None:
    _with_note(ws)
    assert run_forked("memory", ["learn", "deploy", "--text", "Never deploy on Fridays.", "-w", str(ws)], ENV) == 0


def _with_t2_plain(ws: Path) -> None:
    _initialised(ws)
    _t2(ws, "news", "habit", "Reads headlines at 7.", date(2026, 11, 20))


def _export_file(ws: Path) -> None:
    _with_note(ws)
    out = ws.parent / f"{ws.name}-export.json"
    assert run_forked("memory", ["export", "-w", str(ws)], ENV) in (0,)


def _openclaw_notes(ws: Path) -> None:
    _initialised(ws)
    (ws / "memory/2026-11-27.md").write_text("# 2026-11-27\n\n## Flush 10:00\n- talked about the release\n",
                                             encoding="utf-8")
    (ws / "memory/2026-11-28-session.md").write_text("# Session summary\n\n- fixed the build\n", encoding="utf-8")


SCENARIOS = {
    "memory write": Scenario("memory write", _with_note,
                             ("memory", ["write", "--topic", "Docs", "--change", "wrote the guide", "--date", DAY]),
                             None, ENV),
    "memory learn (new)": Scenario("memory learn (new)", _with_note,
                                   ("memory", ["learn", "deploy", "--text", "Never deploy on Fridays."]), None, ENV),
    "memory learn (append)": Scenario("memory learn (append)", _with_knowledge,
                                      ("memory", ["learn", "deploy", "--text", "Tag before deploying."]), None, ENV),
    "memory remember": Scenario("memory remember", _with_note,
                                ("memory", ["remember", "--skill", "news", "--topic", "habit",
                                            "--text", "Reads headlines at 7.", "--approved", "--scheme", "xor-b64"]), None, ENV),
    "memory forget": Scenario("memory forget", _with_knowledge,
                              ("memory", ["forget", "deploy", "--approved"]), None, ENV),
    "memory import --from-openclaw": Scenario("memory import --from-openclaw", _openclaw_notes,
                                              ("memory", ["import", "--from-openclaw", "--approved"]), None, ENV),
}


def _export_json(ws: Path) -> Path:
    return ws / "export.json"


def _with_export(ws: Path) -> None:
    """A workspace with one note, and an export (beside it) of another workspace's knowledge and note."""
    other = ws.parent / "exported-from"
    other.mkdir()
    _with_knowledge(other)
    (other / "memory/daily/2026-11-20.md").write_text("## [2026-11-20] Wiki\n- 改：moved the wiki\n", encoding="utf-8")
    with open(other / f"memory/daily/{DAY}.md", "a", encoding="utf-8") as fh:
        fh.write(f"\n## [{DAY}] Docs\n- 改：wrote the guide\n")
    assert run_forked("memory", ["export", "--approved", "--out", str(ws.parent / "export.json.tmpout"), "-w", str(other)], ENV) == 0
    _with_note(ws)
    shutil.move(str(ws.parent / "export.json.tmpout"), _export_json(ws))


def _with_t2_entry(ws: Path) -> None:
    _with_note(ws)
    assert run_forked("memory", ["remember", "--skill", "news", "--topic", "habit", "--text", "Reads at 7.",
                                 "--approved", "--scheme", "xor-b64", "-w", str(ws)], ENV) == 0


SCENARIOS["memory remember (approved edit)"] = Scenario(
    "memory remember (approved edit)", _with_t2_entry,
    ("memory", ["remember", "--skill", "news", "--topic", "habit", "--text", "Reads at 8.", "--approved",
                "--scheme", "xor-b64"]), None, ENV)

SCENARIOS["memory import FILE"] = Scenario(
    "memory import FILE", _with_export, ("memory", ["import", "template/export.json", "--approved"]), None, ENV)


# --------------------------------------------------------------------------- more writing commands

def _with_archive(ws: Path) -> None:
    """A workspace whose January note prune has moved to memory/archive/."""
    from tests.faults.test_faults import _prune_workspace

    _prune_workspace(ws)
    assert run_forked("memory", ["prune", "-w", str(ws)], ENV) == 0


def _archived_id() -> str:
    from memory_manager.entries import daily_id

    return daily_id("2026-01-05", "Moved the wiki")


SCENARIOS["memory edit"] = Scenario(
    "memory edit", _with_knowledge, ("memory", ["edit", "deploy", "--text", "Deploy on Tuesdays only.", "--approved"]),
    None, ENV)
SCENARIOS["memory lesson"] = Scenario(
    "memory lesson", _with_note, ("memory", ["lesson", "Check the backup before deploying.", "--approved"]), None, ENV)
SCENARIOS["memory unarchive"] = Scenario(
    "memory unarchive", _with_archive, ("memory", ["unarchive", _archived_id(), "--approved"]), None, ENV)


#: Known faults, open (name -> why; strict xfail, so a fixed fault fails until its mark goes).
#: Empty: forget killed while erasing (steps past its point of no return) is now finished by
#: the next run from its journal's plan instead of being rolled back.
KNOWN_FAULTS: dict[str, str] = {}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN_FAULTS[n])) if n in KNOWN_FAULTS else n
    for n in SCENARIOS])
def test_command_killed_then_old_or_new(name, tmp_path, monkeypatch, capsys):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(harness, "snapshot", _snapshot_without_random)
    monkeypatch.chdir(tmp_path)  # "memory import template/export.json" reads the template's copy
    scenario = SCENARIOS[name]
    if scenario.rerun is None:  # the repair run is the same command again
        scenario.rerun = [(scenario.command[0], scenario.command[1], "after")]
    outcome = exercise(scenario, tmp_path)
    with capsys.disabled():
        print(f"\n{name}: {outcome.steps} steps, {outcome.tried} kill points tried, "
              f"{len(outcome.failures)} failures {outcome.failures[:5]}")
    assert outcome.failures == []



def _delete_records(ws: Path) -> list[dict]:
    import json

    log = ws / "memory/.state/gate-audit.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return [r for r in map(json.loads, lines) if r.get("operation") == "delete"]


def test_forget_killed_anywhere_logs_its_decision_once(tmp_path, monkeypatch):
    """One gate record per forget: a run killed before its point of no return is rolled back and
    leaves none (the re-run logs its own); one killed after it is finished by the re-run, which
    appends the interrupted run's record only if the log lacks it. Every kill point, not sampled."""
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    template = tmp_path / "template"
    template.mkdir()
    _with_knowledge(template)
    log = tmp_path / "steps.log"
    reference = tmp_path / "reference"
    shutil.copytree(template, reference)
    args = ["forget", "deploy", "--approved"]
    env = dict(ENV, OPENCLAW_WORKSPACE_DIR="")
    assert run_forked("memory", [*args, "-w", str(reference)], dict(env, MEMORY_MANAGER_STEP_LOG=str(log))) == 0
    assert len(_delete_records(reference)) == 1
    total = len(log.read_text().splitlines())
    assert total >= 20
    for n in range(1, total + 1):
        ws = tmp_path / f"kill-{n}"
        shutil.copytree(template, ws)
        assert run_forked("memory", [*args, "-w", str(ws)], dict(env, MEMORY_MANAGER_CRASH_AT=str(n))) == -9
        assert run_forked("memory", [*args, "-w", str(ws)], env) == 0, f"step {n}"
        records = _delete_records(ws)
        assert len(records) == 1, f"step {n}: {len(records)} delete records"
        assert records[0]["decision"] == "proceed"
        shutil.rmtree(ws)


def test_forget_held_for_approval_logs_once_and_changes_nothing(tmp_path, monkeypatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    ws = tmp_path / "ws"
    ws.mkdir()
    _with_knowledge(ws)
    before = _snapshot_without_random(ws)
    assert run_forked("memory", ["forget", "deploy", "-w", str(ws)], dict(ENV, OPENCLAW_WORKSPACE_DIR="")) == 1
    assert _snapshot_without_random(ws) == before
    records = _delete_records(ws)
    assert len(records) == 1 and records[0]["decision"] != "proceed"

