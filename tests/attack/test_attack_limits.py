"""Attack: file-size limits (RLIMIT_FSIZE) on cleanup and import (issue 11).

Issue 11: "exit 0 means the whole job was done; any other exit either changed
nothing or says exactly what it changed".
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from tests.faults.test_faults_commands import _export_json, _with_export
from tests.faults.harness import snapshot
from tests.faults.test_faults import ENV, _cleanup_workspace

LIMITS = [512, 1024, 2048, 4096, 8192, 20000]


def _user_files(ws: Path) -> dict[str, bytes]:
    return {k: v for k, v in snapshot(ws).items() if not k.startswith("memory/.state")}


def _run(ws: Path, args: list[str], limit: int | None = None, env: dict | None = None):
    def pre():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    full = {**os.environ, **ENV, "OPENCLAW_WORKSPACE_DIR": "", **(env or {})}
    return subprocess.run([sys.executable, str(ROOT / "scripts" / f"{args[0]}.py"), *args[1:], "-w", str(ws)],
                          capture_output=True, text=True, preexec_fn=pre, env=full, timeout=120)


def _limit_case(tmp_path, prepare, args):
    template = tmp_path / "t"
    template.mkdir()
    prepare(template)
    args = [str(_export_json(template)) if a == "EXPORT" else a for a in args]
    ref = tmp_path / "ref"
    shutil.copytree(template, ref, symlinks=True)
    assert _run(ref, args).returncode == 0
    before, after = _user_files(template), _user_files(ref)
    problems = []
    for limit in LIMITS:
        ws = tmp_path / f"l{limit}"
        shutil.copytree(template, ws, symlinks=True)
        r = _run(ws, args, limit)
        now = _user_files(ws)
        said = r.stdout + r.stderr
        changed = sorted(k for k in set(now) | set(before) if now.get(k) != before.get(k))
        if r.returncode == 0 and now != after:
            problems.append(f"{limit}: exit 0 but the job is not done")
        if r.returncode != 0 and changed:
            if "nothing was changed" in said or "nothing changed" in said:
                problems.append(f"{limit}: says nothing was changed, changed {changed}")
            unnamed = [c for c in changed if c not in said]
            if unnamed:
                problems.append(f"{limit}: exit {r.returncode}, changed without saying so: {unnamed}")
    return problems


def test_cleanup_under_a_file_size_limit_is_all_or_nothing_or_says_what_it_did(tmp_path):
    for key, value in ENV.items():
        os.environ[key] = value
    assert _limit_case(tmp_path, _cleanup_workspace, ["cleanup"]) == []


def test_import_under_a_file_size_limit_is_all_or_nothing_or_says_what_it_did(tmp_path):
    for key, value in ENV.items():
        os.environ[key] = value
    assert _limit_case(tmp_path, _with_export, ["memory", "import", "EXPORT", "--approved"]) == []


def test_import_from_openclaw_under_a_file_size_limit_is_all_or_nothing_or_says_what_it_did(tmp_path):
    from tests.faults.test_faults_commands import _openclaw_notes

    for key, value in ENV.items():
        os.environ[key] = value
    assert _limit_case(tmp_path, _openclaw_notes, ["memory", "import", "--from-openclaw", "--approved"]) == []
