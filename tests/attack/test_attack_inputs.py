"""Attack: bad config values, clock extremes (issue 11); the file-size limits are in test_attack_limits.py.

Issue 11: "exit 0 means the whole job was done; any other exit either changed
nothing or says exactly what it changed"; validated bad input exits 2 with one
line naming the key; `--json` prints one JSON document, errors too; never a traceback.
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from tests.faults.test_faults_commands import _export_json, _with_export, _with_knowledge
from tests.faults.harness import snapshot
from tests.faults.test_faults import ENV, _cleanup_workspace

LIMITS = [512, 1024, 2048, 4096, 8192, 20000]


def _strict_json(text: str):
    """One JSON document as any parser takes it: NaN and Infinity refused (issue 11)."""
    def refuse(token):
        raise ValueError(f"{token} is not JSON")
    return json.loads(text, parse_constant=refuse)


def _user_files(ws: Path) -> dict[str, bytes]:
    return {k: v for k, v in snapshot(ws).items() if not k.startswith("memory/.state")}


def _run(ws: Path, args: list[str], limit: int | None = None, env: dict | None = None):
    def pre():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    full = {**os.environ, **ENV, "OPENCLAW_WORKSPACE_DIR": "", **(env or {})}
    return subprocess.run([sys.executable, str(ROOT / "scripts" / f"{args[0]}.py"), *args[1:], "-w", str(ws)],
                          capture_output=True, text=True, preexec_fn=pre, env=full, timeout=120)


BAD_CONFIG = [
    ({"recall": {"top_k": 5.0}}, ["memory", "recall", "deploy", "--json"]),          # named in issue 11
    ({"recall": {"top_k": 1e308}}, ["memory", "recall", "deploy", "--json"]),
    ({"recall": {"neighbour_share": float("nan")}}, ["memory", "recall", "deploy", "--json"]),
    ({"access": {"log_divisor": 0}}, ["cleanup", "--json"]),               # a zero divisor
    ({"tiers": {"t2_expiry_days": 1000000000}}, ["cleanup", "--json"]),
    ({"cleanup": {"archive_retention_days": 10000000000}}, ["cleanup", "--json"]),
]


@pytest.mark.parametrize("override,args", BAD_CONFIG, ids=lambda x: json.dumps(x) if isinstance(x, dict) else "")
def test_a_bad_config_value_exits_2_naming_the_key(tmp_path, override, args):
    os.environ.update(ENV)
    ws = tmp_path / "w"
    ws.mkdir()
    _with_knowledge(ws)
    (ws / "memory/memory-manager.json").write_text(json.dumps(override), encoding="utf-8")  # NaN as the bare token
    r = _run(ws, args)
    key = next(iter(next(iter(override.values()))))
    assert "Traceback" not in r.stderr
    assert r.returncode == 2, (r.returncode, r.stderr[-300:])
    # Under --json the error is the one JSON document on stdout (the CLI contract), not stderr.
    doc = _strict_json(r.stdout)
    value = next(iter(next(iter(override.values())).values()))
    if value != value:  # a bare NaN is not JSON: the override file is refused whole, named with the token
        assert "memory-manager.json" in doc["error"] and "NaN is not a JSON number" in doc["error"], doc
    else:
        assert key in doc["error"], doc
    assert doc["kind"] == "config", doc


@pytest.mark.parametrize("now", ["9999-12-31T23:59:59+00:00", "0001-01-01T00:00:00+00:00"])
@pytest.mark.parametrize("args", [["memory", "status", "--json"], ["memory", "write", "--topic", "T", "--change", "c",
                                                                    "--json"], ["cleanup", "--json"]])
def test_an_extreme_clock_is_one_json_error_not_a_traceback(tmp_path, now, args):
    os.environ.update(ENV)
    ws = tmp_path / "w"
    ws.mkdir()
    _with_knowledge(ws)
    r = _run(ws, args, env={"MEMORY_MANAGER_NOW": now, "TZ": "Pacific/Kiritimati"})
    assert "Traceback" not in r.stderr, r.stderr[-200:]
    assert r.returncode in (0, 2)  # works, or one line naming MEMORY_MANAGER_NOW
    _strict_json(r.stdout)


