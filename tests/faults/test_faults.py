"""Kill init, init --restore, cleanup and prune at file-system steps; the next run must repair (issue 11).

CI tries a sample of kill points per command (``harness.SAMPLE``, chosen to cover
each kind of step); ``MEMORY_MANAGER_FAULTS=full`` tries every step. Each test prints
``<command>: <steps> steps, <tried> kill points tried, <failures> failures``.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from conftest import TEST_KEY
from memory_manager import crypto, tiers
from memory_manager.clock import month_of
from memory_manager.config import load_config

from .harness import Scenario, exercise, run_forked

NOW = "2026-11-29T12:00:00+00:00"
ENV = {"MEMORY_MANAGER_NOW": NOW, "MEMORY_MANAGER_KEY": TEST_KEY}

AGENTS = """# Workspace rules

- Reply in the user's language.
- Keep answers short.

## Memory

- Write things down; memory does not survive a restart.

## Heartbeats

- On each heartbeat, look at the inbox and the calendar.

### What to skip

- Nothing between 23:00 and 08:00.

## Tools

- Keep answers short.
"""
MEMORY_MD = "Prefers tea over coffee.\nThe release contact is ops@corp.com.\n"


def _init_workspace(ws: Path) -> None:
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    (ws / "MEMORY.md").write_text(MEMORY_MD, encoding="utf-8")
    (ws / ".gitignore").write_text("node_modules/\n", encoding="utf-8")


def _initialised(ws: Path) -> None:
    _init_workspace(ws)
    assert run_forked("init", ["-w", str(ws), "--yes"], ENV) == 0


def _t2(ws: Path, skill: str, topic: str, text: str, created: date) -> None:
    cfg = load_config(ws)
    month = month_of(created)
    sealed = crypto.encrypt(text, skill, month, cfg, "xor-b64")
    tiers.t2_path(ws, skill, topic).write_text(tiers.render_t2(skill, topic, sealed, created, 30, month, "en"))


def _cleanup_workspace(ws: Path) -> None:
    _initialised(ws)
    for n in range(4):
        _t2(ws, "news", f"old{n}", f"Old headline habit {n}.", date(2026, 9, 3 + n))
    _t2(ws, "news", "a", "same text", date(2026, 11, 20))
    _t2(ws, "news", "b", "same text", date(2026, 11, 21))
    _t2(ws, "diet", "x", "Likes oats.", date(2026, 11, 22))
    _t2(ws, "diet", "y", "Skips lunch on Fridays.", date(2026, 11, 23))
    (ws / "memory/daily/2026-11-28.md").write_text(
        "## [2026-11-28] Release\n- 改：tagged v2\n- 改：tagged v2\n\n## [2026-11-28] Release\n- 待：write notes\n",
        encoding="utf-8")


def _prune_workspace(ws: Path) -> None:
    _initialised(ws)
    daily = ws / "memory/daily"
    (daily / "2026-01-05.md").write_text(
        "## [2026-01-05] Moved the wiki\n- 改：the wiki lives on the new host\n\n"
        "## [2026-01-05] Pinned rule\n<!-- pinned -->\n- 改：rotate the deploy token monthly\n", encoding="utf-8")
    (daily / "2026-11-28.md").write_text("## [2026-11-28] Fresh\n- 改：new thing\n", encoding="utf-8")
    (ws / "memory/knowledge/old-topic.md").write_text(
        "---\nformat: cmm-knowledge\nversion: 1\nid: k-old\nkey: old-topic\ncreated: 2026-01-20\n"
        "updated: 2026-01-20\n---\nOld knowledge about the wiki.\n", encoding="utf-8")


SCENARIOS = {
    "init": Scenario("init", _init_workspace, ("init", ["--yes"]),
                     [("init", ["--yes"], "after"), ("init", ["--restore"], "before")], ENV),
    "init --restore": Scenario("init --restore", _initialised, ("init", ["--restore"]),
                               [("init", ["--restore"], "after")], ENV),
    "cleanup": Scenario("cleanup", _cleanup_workspace, ("cleanup", []), [("cleanup", [], "after")], ENV),
    "memory prune": Scenario("memory prune", _prune_workspace, ("memory", ["prune"]),
                             [("memory", ["prune"], "after")], ENV),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_killed_at_each_step_then_repaired(name, tmp_path, monkeypatch, capsys):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    outcome = exercise(SCENARIOS[name], tmp_path)
    with capsys.disabled():
        print(f"\n{name}: {outcome.steps} steps, {outcome.tried} kill points tried, "
              f"{len(outcome.failures)} failures")
    assert outcome.steps > 10
    assert outcome.failures == []
