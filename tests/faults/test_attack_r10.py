"""Attack of round 10 on issue 11 (crash-safe, honest under faults, no tracebacks): what broke.

fatk10, a fresh attacker on main 65b851d. Each finding is a strict xfail that runs the real
scripts on a temporary workspace and asserts what issue 11 and the README promise, so it passes
now (as an xfail) and fails once fixed. What held up (kill points of commands and options the
suite does not kill, a kill during the re-run of a killed run, racing writers, odd file-size
limits, config values, MEMORY_MANAGER_NOW extremes, non-UTF-8 files in the memory folders) is in
the round's report.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from tests.faults.harness import run_forked

NOW = "2026-11-29T12:00:00+00:00"
ENV = {"MEMORY_MANAGER_NOW": NOW, "OPENCLAW_WORKSPACE_DIR": ""}  # keyless unless a test makes a key
#: Long enough for any of these commands on a tiny workspace.
PATIENCE = 60


def _run(script: str, args: list[str], ws: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run ``scripts/<script>.py args -w ws`` as a user would; return (exit code, stdout, stderr)."""
    full = dict(os.environ, **ENV)
    full.pop("MEMORY_MANAGER_KEY", None)
    full.update(env or {})
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / f"{script}.py"), *args, "-w", str(ws)],
                          capture_output=True, text=True, env=full, timeout=PATIENCE)
    return proc.returncode, proc.stdout, proc.stderr


def _initialised(ws: Path) -> None:
    """An initialised keyless workspace."""
    ws.mkdir(parents=True, exist_ok=True)
    (ws / "MEMORY.md").write_text("Prefers tea.\n", encoding="utf-8")
    assert run_forked("init", ["-w", str(ws), "--yes", "--no-key", "--no-hooks"], ENV) == 0


# --------------------------------------------------------------------------- non-UTF-8 files

@pytest.mark.parametrize("json_", [True, False], ids=["json", "text"])
def test_stats_show_carries_on_past_a_non_utf8_statistics_file(json_, tmp_path):
    """README: "Read-only commands carry on past a file that is not UTF-8 text and name it"; and
    ``store.stats_show``'s own docstring: "a malformed file is named in problems and left out"."""
    ws = tmp_path / "ws"
    _initialised(ws)
    assert run_forked("memory", ["stats", "record", "--skill", "diet", "--ok", "-w", str(ws)], ENV) == 0
    bad = ws / "memory/tier1-public/news_stats.json"
    data = b'{"format": "cmm-t1-stats", "version": 1, "skill_stats": {"news\xff\xfe": {}}}\n'
    bad.write_bytes(data)
    code, out, err = _run("memory", [*(["--json"] if json_ else []), "stats", "show"], ws)
    assert "Traceback" not in err
    assert code == 0, (code, out, err)
    if json_:
        doc = json.loads(out)
        assert [f["path"] for f in doc["files"]] == ["memory/tier1-public/diet_stats.json"]
        assert any("news_stats.json" in p for p in doc["problems"])
    else:
        assert "diet" in out and "news_stats.json" in err
    assert bad.read_bytes() == data


# --------------------------------------------------------------------------- forget under a file-size limit

SECRET = b"Never deploy on Fridays"


def _limited(args: list[str], ws: Path, limit: int | None, out: Path) -> int:
    """``memory.py args -w ws`` forked in-process under RLIMIT_FSIZE ``limit`` (bytes); its output goes to ``out``."""
    from tests.faults.test_promises import _run_limited

    return _run_limited("memory", [*args, "-w", str(ws)], dict(ENV, _OUT=str(out)), limit)[0]


def test_forget_stopped_by_a_file_size_limit_past_deleting_is_finished_by_the_next_run(tmp_path, monkeypatch):
    """README: forget "erases every copy of what it deletes, its own backup's included"; issue 11:
    "make the next run repair what a crash left". Tries file-size limits until one stops forget
    after the entry file is gone (a few hundred bytes on this workspace)."""
    import shutil

    from conftest import TEST_KEY
    from tests.faults.harness import holding

    monkeypatch.setenv("MEMORY_MANAGER_KEY", TEST_KEY)  # a keyed workspace, as the fault suite's
    template = tmp_path / "template"
    _initialised(template)
    assert run_forked("memory", ["learn", "deploy", "--text", SECRET.decode() + ".", "-w", str(template)], ENV) == 0
    stopped, left = 0, []
    for limit in range(0, 2000, 5):
        ws = tmp_path / f"limit-{limit}"
        shutil.copytree(template, ws, symlinks=True)
        code = _limited(["forget", "deploy", "--approved"], ws, limit, tmp_path / "out.txt")
        if code == 0:
            break  # from here on the limit no longer stops it
        if code == 1 and not (ws / "memory/knowledge/deploy.md").exists():
            stopped += 1
            said = (tmp_path / "out.txt").read_text(encoding="utf-8", errors="replace")
            assert "deploy.md" in said  # it says it changed the entry's file (this holds)
            # The next runs: the same forget again, then any writer.
            _limited(["forget", "deploy", "--approved"], ws, None, tmp_path / "out2.txt")
            assert _limited(["lesson", "Check the backup first.", "--approved"], ws, None, tmp_path / "out3.txt") == 0
            if holding(ws, SECRET):
                left.append((limit, holding(ws, SECRET)))
            if stopped >= 3:
                break
        shutil.rmtree(ws)
    assert stopped, "no file-size limit stopped forget past deleting the entry"
    assert left == []


@pytest.mark.parametrize("json_", [True, False], ids=["json", "text"])
def test_used_over_a_non_utf8_access_file_refuses_or_says_it_replaced_it(json_, tmp_path):
    """README: "a write to such a file [not UTF-8] is refused and leaves it byte-identical"; issue 11:
    every message true. ``status`` names the file (this holds); ``used`` must too."""
    ws = tmp_path / "ws"
    _initialised(ws)
    assert run_forked("memory", ["learn", "deploy", "--text", "Tag before deploying.", "-w", str(ws)], ENV) == 0
    access = ws / "memory/.state/access.json"
    access.parent.mkdir(parents=True, exist_ok=True)
    data = b'{"entries": {"k-b7bd55c11b": {"count": 41\xff\xfe, "last": "2026-11-01T00:00:00+00:00"}}}\n'
    access.write_bytes(data)
    code, out, err = _run("memory", [*(["--json"] if json_ else []), "used", "deploy"], ws)
    assert "Traceback" not in err
    if json_:
        json.loads(out)
    refused = code != 0 and access.read_bytes() == data and "access.json" in out + err
    said_so = code == 0 and "access.json" in out + err
    assert refused or said_so, (code, out, err)


def test_show_over_a_non_utf8_access_file_shows_warns_and_leaves_it(tmp_path):
    """ffix11: ``show`` counts a use; over an access.json it cannot read it still shows the entry
    (a read), counts nothing, names the file in one warning and leaves it byte-identical."""
    ws = tmp_path / "ws"
    _initialised(ws)
    assert run_forked("memory", ["learn", "deploy", "--text", "Tag before deploying.", "-w", str(ws)], ENV) == 0
    access = ws / "memory/.state/access.json"
    access.parent.mkdir(parents=True, exist_ok=True)
    data = b'{"entries": {"k-b7bd55c11b": {"count": 41\xff\xfe}}}\n'
    access.write_bytes(data)
    code, out, err = _run("memory", ["show", "deploy"], ws)
    assert code == 0 and "Tag before deploying." in out, (code, out, err)
    assert err.strip() == ("warning: memory/.state/access.json: not UTF-8; nothing was counted "
                           "(fix or move the file away)"), err
    assert access.read_bytes() == data
    code, out, err = _run("memory", ["--json", "used", "deploy"], ws)
    assert code == 2 and json.loads(out) == {"error": "memory/.state/access.json: not UTF-8; nothing was counted "
                                                      "(fix or move the file away)", "kind": "unreadable"}
    assert access.read_bytes() == data
