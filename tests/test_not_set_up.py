"""A folder init.py never set up (no memory/ inside it) is left exactly as it was.

Hooks and maintain.py do nothing (a stderr note, exit 0: they fail open);
cleanup.py and a real prune refuse it (exit 2, one line); status, recall and
prune --dry-run answer without creating memory/.cache.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from conftest import ROOT, tree_hash

INIT = ROOT / "scripts" / "init.py"


def hook(event: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "hook.py")], input=json.dumps(event),
                          capture_output=True, text=True, timeout=30, env=dict(os.environ))


@pytest.fixture
def plain(ws):
    """A workspace folder with a file in it but no memory/ folder."""
    (ws / "notes.txt").write_text("mine\n")
    return ws


EVENTS = [("message", "sent"), ("command", "new"), ("command", "reset"), ("session", "compact:before"),
          ("gateway", "startup"), ("agent", "bootstrap")]


@pytest.mark.parametrize("etype,action", EVENTS)
def test_hook_does_nothing_in_a_folder_not_set_up(plain, etype, action):
    before = tree_hash(plain)
    proc = hook({"type": etype, "action": action, "context": {"workspaceDir": str(plain)}})
    assert proc.returncode == 0
    assert proc.stdout == ""
    assert proc.stderr == (f"complex-memory-manager hook: {etype}:{action}: {plain} is not set up "
                           f"(no memory/ folder inside it; run init.py); nothing done\n")
    time.sleep(0.5)  # a detached maintain.py, if one had been started, would write by now
    assert tree_hash(plain) == before == {"notes.txt": tree_hash(plain)["notes.txt"]}


def test_hook_ignores_a_memory_link_leading_outside(ws, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (ws / "memory").symlink_to(outside, target_is_directory=True)
    proc = hook({"type": "command", "action": "new", "context": {"workspaceDir": str(ws)}})
    assert proc.returncode == 0 and proc.stdout == ""
    assert "is not set up" in proc.stderr
    time.sleep(0.5)
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in ws.iterdir()) == ["memory"]


def test_maintain_does_nothing_in_a_folder_not_set_up(plain, run_script):
    before = tree_hash(plain)
    for extra in ([], ["--only", "cleanup"]):
        r = run_script("maintain", "--workspace", plain, "--event", "command:new", *extra)
        assert (r.code, r.out) == (0, "")
        assert r.err == f"maintain: {plain} is not set up (no memory/ folder inside it; run init.py); nothing done\n"
    assert tree_hash(plain) == before


@pytest.mark.parametrize("args", [["--if-due"], [], ["--dry-run"], ["--purge-archive"]])
def test_cleanup_refuses_a_folder_not_set_up(plain, run_script, args):
    before = tree_hash(plain)
    r = run_script("cleanup", "-w", plain, *args)
    assert (r.code, r.out) == (2, "")
    assert r.err == (f"error: {plain} is not set up for memory (no memory/ folder inside it); "
                     f"set it up with: python3 {INIT} -w {plain}\n")
    assert tree_hash(plain) == before


def test_cleanup_json_error_for_a_folder_not_set_up(plain, run_script):
    before = tree_hash(plain)
    r = run_script("cleanup", "-w", plain, "--if-due", "--json")
    assert r.code == 2
    assert json.loads(r.out) == {"error": f"{plain} is not set up for memory (no memory/ folder inside it); "
                                          f"set it up with: python3 {INIT} -w {plain}", "kind": "workspace"}
    assert tree_hash(plain) == before


def test_read_only_commands_create_nothing(plain, run_script):
    (plain / "MEMORY.md").write_text("# Lessons\n\n## Use UTC\n- Always log in UTC.\n")
    before = tree_hash(plain)
    status = run_script("memory", "status", "-w", plain, "--json")
    assert status.code == 0, status.err
    assert json.loads(status.out)["memory_size"]["files"] == 1
    assert run_script("memory", "recall", "UTC", "-w", plain, "--json").code == 0
    dry = run_script("memory", "prune", "--dry-run", "-w", plain, "--json")
    assert dry.code == 0 and json.loads(dry.out)["moved"] == []
    assert tree_hash(plain) == before


def test_prune_refuses_a_folder_not_set_up(plain, run_script):
    before = tree_hash(plain)
    r = run_script("memory", "prune", "-w", plain)
    assert (r.code, r.out) == (2, "")
    assert r.err == (f"error: {plain} is not set up for memory (no memory/ folder inside it); "
                     f"set it up with: python3 {INIT} -w {plain}\n")
    assert tree_hash(plain) == before
