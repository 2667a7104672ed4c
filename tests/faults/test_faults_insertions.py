"""Kill a keyless write into a note with a privacy finding, and the restore that undoes it (issues 10, 11).

The write only appends, so its backup keeps no copy of the note (format v4:
``stored: "insertions"``); the restore that undoes it deletes the inserted
bytes, and its safety backup keeps only those bytes (``stored: "deletions"``).
Killed at each file-system step (sampled like the other fault tests;
``MEMORY_MANAGER_FAULTS=full`` for every step): after the kill every file is
old or new, the re-run gives the uninterrupted tree, and at no point does
``.memory-backup/`` hold the note's finding in plain.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.faults import harness
from tests.faults.harness import Scenario, exercise, run_forked

NOW = "2026-11-29T12:00:00+00:00"
#: No MEMORY_MANAGER_KEY: the install is keyless (``init --no-key``).
ENV = {"MEMORY_MANAGER_NOW": NOW}
DAY = "2026-11-29"
FINDING = "ops.lead" + "@" + "corp-mail.net"
RANDOM = {"memory/.state/audit-salt", "memory/.state/gate-audit.jsonl"}


def _keyless_note(ws: Path) -> None:
    assert run_forked("init", ["-w", str(ws), "--yes", "--no-key", "--no-hooks"], ENV) == 0
    (ws / f"memory/daily/{DAY}.md").write_text(
        f"## [{DAY}] Release\n- 改：mail {FINDING} about v2\n", encoding="utf-8")


_plain_snapshot = harness.snapshot


def _snapshot(ws: Path) -> dict[str, bytes]:
    return {k: v for k, v in _plain_snapshot(ws).items() if k not in RANDOM}


WRITE = ["write", "--topic", "Docs", "--change", "wrote the guide", "--date", DAY]


def _keyless_note_written(ws: Path) -> None:
    _keyless_note(ws)
    assert run_forked("memory", [*WRITE, "-w", str(ws)], ENV) == 0


SCENARIOS = {
    "memory write (keyless, note with a finding)": Scenario(
        "memory write (keyless, note with a finding)", _keyless_note, ("memory", WRITE),
        [("memory", WRITE, "after")], ENV, never_backed_up=FINDING.encode()),
    "init --restore of that write": Scenario(
        "init --restore of that write", _keyless_note_written, ("init", ["--restore", "--yes"]),
        [("init", ["--restore", "--yes"], "after")], ENV, never_backed_up=FINDING.encode()),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_killed_at_each_step_then_repaired_without_a_plain_copy(name, tmp_path, monkeypatch, capsys):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(harness, "snapshot", _snapshot)  # the audit salt is random per run
    outcome = exercise(SCENARIOS[name], tmp_path)
    with capsys.disabled():
        print(f"\n{name}: {outcome.steps} steps, {outcome.tried} kill points tried, "
              f"{len(outcome.failures)} failures {outcome.failures[:5]}")
    assert outcome.steps > 10
    assert outcome.failures == []
