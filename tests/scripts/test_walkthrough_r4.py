"""The new-user walk-through, round 4 (notes/walkthrough-r4.md): each item as a real run.

Every test runs the scripts on real files in a temporary workspace and checks
exact results. The item number of the walk-through is in each test's name.
"""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

AGENTS = "# AGENTS.md\n\nBe kind.\n"
NOW = {"MEMORY_MANAGER_NOW": "2026-11-20T10:00:00"}


def snapshot(root: Path) -> dict[str, tuple]:
    """Every path under ``root`` with its kind, permission bits and bytes (symlinks by target)."""
    out: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            out[rel] = ("link", os.readlink(path))
        elif stat.S_ISDIR(info.st_mode):
            out[rel] = ("dir", stat.S_IMODE(info.st_mode))
        else:
            out[rel] = ("file", stat.S_IMODE(info.st_mode), path.read_bytes())
    return out


def _setup(ws: Path, run_script, *extra: str) -> None:
    """An English workspace set up by init (hooks and plugin installed unless ``extra`` says otherwise)."""
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    result = run_script("init", "--yes", "--lang", "en", "--json", *extra)
    assert result.code == 0, result.err


# ---------------------------------------------------------------- item 1

def test_item1_uninstall_hooks_dry_run_changes_nothing(ws, run_script):
    _setup(ws, run_script)
    assert (ws / "hooks").is_dir() and (ws / ".openclaw" / "extensions" / "complex-memory-manager").is_dir()
    before = snapshot(ws)

    text = run_script("init", "--uninstall-hooks", "--dry-run")
    assert text.code == 0, text.err
    assert snapshot(ws) == before
    assert text.err == ""  # no "without --yes is deprecated" warning for a preview
    assert "would remove hooks/" in text.out
    assert "would remove .openclaw/extensions/complex-memory-manager/index.js" in text.out
    assert text.out.rstrip().endswith("dry run: nothing was changed")

    doc = run_script("init", "--uninstall-hooks", "--dry-run", "--json")
    assert doc.code == 0, doc.err
    plan = json.loads(doc.out)
    assert plan["dry_run"] is True
    assert ".openclaw/extensions/complex-memory-manager/index.js" in plan["would_remove"]
    assert any(p.startswith("hooks/") for p in plan["would_remove"])
    assert snapshot(ws) == before

    # The real uninstall removes exactly what the preview listed.
    done = run_script("init", "--uninstall-hooks", "--yes", "--json")
    assert done.code == 0, done.err
    removed = json.loads(done.out)
    assert sorted(removed["hooks"]["changed"] + removed["plugin"]["changed"]) == sorted(plan["would_remove"])
    # And a preview with nothing installed says so.
    again = run_script("init", "--uninstall-hooks", "--dry-run")
    assert again.code == 0 and "no hooks of this bundle are installed" in again.out


def _write_args(ws: Path, topic: str) -> list[str]:
    return [sys.executable, str(ROOT / "scripts" / "memory.py"), "-w", str(ws), "write", "--topic", topic,
            "--change", "half written"]


def _interrupted_write(ws: Path, tmp_path: Path) -> None:
    """Leave a write killed just after it replaced the day's note: a journal for the next writer to roll back.

    The step to kill at is found by a run on a copy (``MEMORY_MANAGER_STEP_LOG``).
    """
    import shutil

    copy, log = tmp_path / "copy", tmp_path / "steps.log"
    shutil.copytree(ws, copy, symlinks=True)
    subprocess.run(_write_args(copy, "killed"), env=dict(os.environ, MEMORY_MANAGER_STEP_LOG=str(log), **NOW),
                   capture_output=True, check=True)
    steps = log.read_text(encoding="utf-8").splitlines()
    n = next(int(line.split()[0]) for line in steps if line.split()[1] == "replace" and "/memory/daily/" in line)
    proc = subprocess.run(_write_args(ws, "killed"), env=dict(os.environ, MEMORY_MANAGER_CRASH_AT=str(n + 1), **NOW),
                          capture_output=True)
    assert proc.returncode == -9
    assert any(p.name.startswith(".open-") for p in (ws / ".memory-backup").iterdir())
    assert "killed" in (ws / "memory" / "daily" / "2026-11-20.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("interrupted", [False, True], ids=["clean", "journal-left"])
def test_item1_every_dry_run_leaves_the_workspace_bytes_alone(ws, run_script, interrupted, tmp_path):
    _setup(ws, run_script)
    for day, topic in (("2026-11-01", "Old note"), ("2026-11-02", "Another old note"), ("2026-11-20", "Today")):
        result = run_script("memory", "write", "--topic", topic, "--change", f"something on {day}",
                            env={"MEMORY_MANAGER_NOW": f"{day}T09:00:00"})
        assert result.code == 0, result.err
    first = json.loads(run_script("init", "--list-backups", "--json").out)["backups"][0]["id"]
    if interrupted:
        _interrupted_write(ws, tmp_path)
    before = snapshot(ws)
    previews = [
        ("init", "--dry-run"),
        ("init", "--dry-run", "--lang", "zh"),
        ("init", "--uninstall-hooks", "--dry-run"),
        ("init", "--restore", "--dry-run"),
        ("init", "--restore", first, "--dry-run"),
        ("memory", "prune", "--dry-run"),
        ("cleanup", "--dry-run"),
        ("cleanup", "--dry-run", "--purge-archive"),
    ]
    for args in previews:
        for form in ((), ("--json",)):
            result = run_script(*args, *form, env=NOW)
            assert result.code in (0, 1), (args, form, result.err)
            assert "Traceback" not in result.err
            if form:
                json.loads(result.out)  # one document
            assert snapshot(ws) == before, (args, form)
