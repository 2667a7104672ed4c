"""Fixes for the second new-user pass: recall never prints secrets or reads outside the
workspace, the audit log keeps no words of sensitive content, T2 hit ids work with show,
daily topics may hold '/' and ':', agent ids cannot climb out of the state folder."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T10:00:00+00:00"}


def setup(ws, run_script):
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=ENV).code == 0


def test_recall_masks_secrets_in_openclaw_notes(ws, run_script):
    setup(ws, run_script)
    token = "ghp_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
    mobile = "139" + "1234" + "5678"
    (ws / "memory" / "2026-11-21-session.md").write_text(
        f"# Session\n\n## Deploy token\nThe deploy token is {token} and the vendor phone 手机{mobile}.\n")
    result = run_script("memory", "recall", "deploy token vendor", "--json", "--no-track", "-w", ws, env=ENV)
    assert result.code == 0, result.err
    hit = json.loads(result.out)["hits"][0]
    assert hit["path"] == "memory/2026-11-21-session.md"
    assert token not in result.out and mobile not in result.out
    assert "[secret]" in hit["snippet"] and "[phone]" in hit["snippet"]


def test_recall_never_reads_outside_the_workspace(ws, run_script, tmp_path):
    setup(ws, run_script)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("## Original plan\nthe original launch plan\n")
    (ws / "memory" / "knowledge").rmdir()
    (ws / "memory" / "knowledge").symlink_to(outside)
    (ws / "memory" / "daily" / "elsewhere.md").symlink_to(outside / "secret.md")
    result = run_script("memory", "recall", "original launch plan", "--json", "--no-track", "-w", ws, env=ENV)
    # A folder of the tree leading out stops every command, readers too (issue 10): one JSON error.
    doc = json.loads(result.out)
    assert result.code == 2 and doc["kind"] == "workspace" and "memory/knowledge is a symlink" in doc["error"]
    assert "original launch plan" not in result.out
    (ws / "memory" / "knowledge").unlink()
    (ws / "memory" / "knowledge").mkdir()  # the folder back: the linked note alone is never read
    result = run_script("memory", "recall", "original launch plan", "--json", "--no-track", "-w", ws, env=ENV)
    assert result.code == 0 and json.loads(result.out)["hits"] == []


def test_audit_log_keeps_no_words_of_sensitive_content(ws, run_script):
    setup(ws, run_script)
    result = run_script("memory", "write", "-w", ws, "--topic", "health", "--sensitivity", "ordinary",
                        "--change", "the user was diagnosed with diabetes and takes sertraline", env=ENV)
    assert result.code == 1
    log = (ws / "memory" / ".state" / "gate-audit.jsonl").read_text()
    record = json.loads(log.splitlines()[-1])
    assert record["summary"].startswith("<") and "withheld: health" in record["summary"]
    assert "sertraline" not in log and "diabetes" not in log


def test_t2_recall_id_works_with_show(ws, run_script):
    setup(ws, run_script)
    made = json.loads(run_script("memory", "remember", "-w", ws, "--skill", "editor", "--topic", "prefs",
                                 "--text", "The user prefers the vim editor.", "--json", env=ENV).out)
    hits = json.loads(run_script("memory", "recall", "vim editor", "--approved", "--json", "--no-track",
                                 "-w", ws, env=ENV).out)["hits"]
    assert [h["id"] for h in hits] == [made["id"]]
    shown = run_script("memory", "show", hits[0]["id"], "--approved", "-w", ws, env=ENV)
    assert shown.code == 0 and "The user prefers the vim editor." in shown.out


def test_daily_topics_may_hold_slashes_and_colons(ws, run_script):
    setup(ws, run_script)
    for topic in ("CI/CD 迁移", "A: B?"):
        result = run_script("memory", "write", "-w", ws, "--topic", topic, "--change", "moved the pipeline", env=ENV)
        assert result.code == 0, result.err
    text = (ws / "memory" / "daily" / "2026-11-29.md").read_text()
    assert "## [2026-11-29] CI/CD 迁移\n" in text and "## [2026-11-29] A: B?\n" in text
    bad = run_script("memory", "write", "-w", ws, "--topic", "two\nlines", "--change", "x", env=ENV)
    assert bad.code == 2 and bad.err.startswith("error: topic")


def test_agent_id_cannot_leave_the_state_folder(run_script):
    for args in (["--session", "agent:../../etc:main"], ["--agent", "../x"]):
        result = run_script("detect", *args, "--json")
        assert result.code == 2 and json.loads(result.out)["kind"] == "bad_input"


def test_doctor_json_without_dependencies():
    # MEMORY_MANAGER_NO_VENV: as if the bundle had no venv of its own to re-run with (doctor finds it now).
    proc = subprocess.run([sys.executable, "-S", str(ROOT / "scripts" / "doctor.py"), "--json"],
                          capture_output=True, text=True, env={**os.environ, "MEMORY_MANAGER_NO_VENV": "1"})
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and doc["ok"] is False and doc["checks"][0]["name"] == "dependencies"
