"""Round 9 new-user walk-through (nu9): each item runs the real scripts on a copy of a real
OpenClaw workspace (``../shared/workspaces/``, copied into ``tmp_path``; the originals are never
touched) and checks exact output.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHARED, tree_hash

REAL = SHARED / "workspaces" / "openclaw-2026.9.6"
pytestmark = pytest.mark.external(REAL, reason="a workspace OpenClaw 2026.9.6 wrote")


def _copy_real(ws: Path) -> Path:
    """Fill ``ws`` (the test's OPENCLAW_WORKSPACE_DIR) with a writable copy of the real workspace."""
    if ws.exists():
        shutil.rmtree(ws)
    shutil.copytree(REAL, ws)
    for path in [ws, *ws.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)
    return ws


def _init(run_script, *extra: str, lang: str = "en"):
    result = run_script("init", "--yes", "--lang", lang, "--no-hooks", *extra)
    assert result.code == 0, result.err
    return result


# ---------------------------------------------------------------- item 5: singular and plural in status

def test_item5_status_counts_one_t2_entry_in_the_singular(tmp_path, run_script, t2_key):
    ws = _copy_real(tmp_path / "ws")
    _init(run_script)
    made = run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "User likes green tea")
    assert made.code == 0, made.err
    status = run_script("memory", "status")
    assert status.code == 0, status.err
    assert "tiers: T1 0 statistics files (0 skills), T2 1 encrypted entry, T3 0\n" in status.out
    assert "average value: n/a over 0 prunable entries\n" in status.out
    second = run_script("memory", "remember", "--skill", "demo", "--topic", "milk", "--text", "User takes oat milk")
    assert second.code == 0, second.err
    assert "T2 2 encrypted entries, T3 0\n" in run_script("memory", "status").out


def test_item5_status_one_obfuscated_entry_is_singular(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _init(run_script, "--no-key")
    made = run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "User likes green tea")
    assert made.code == 0, made.err
    status = run_script("memory", "status")
    command = f"{sys.executable} {ROOT / 'scripts' / 'crypt.py'} reseal -w {ws}"
    assert ("tiers: T1 0 statistics files (0 skills), T2 1 entry (0 encrypted, 1 obfuscated only with xor-b64), "
            "T3 0\n") in status.out
    assert f"note: 1 T2 entry is not encrypted with a key: run `{command}` to encrypt it with aes-gcm\n" in status.out
