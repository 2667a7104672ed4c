"""The smaller first-run items of issue 14 (item 7), each on real files."""
from __future__ import annotations

import json
import secrets

from conftest import ROOT


def _setup(run_script, ws):
    assert run_script("init", "-w", ws, "--yes", "--no-hooks", "--lang", "en").code == 0


def test_workspace_option_before_the_verb(run_script, ws, tmp_path):
    _setup(run_script, ws)
    elsewhere = {"OPENCLAW_WORKSPACE_DIR": str(tmp_path / "nowhere")}
    before = run_script("memory", "-w", ws, "status", "--json", env=elsewhere)
    assert before.code == 0, before.err
    after = run_script("memory", "status", "-w", ws, "--json", env=elsewhere)
    assert json.loads(before.out) == json.loads(after.out)
    # Inside a sub-group too, and a -w after the verb wins.
    assert run_script("memory", "-w", tmp_path / "nowhere", "stats", "show", "-w", ws, env=elsewhere).code == 0


def test_crypt_without_skill_is_a_usage_error(run_script):
    for verb in ("encrypt", "decrypt"):
        result = run_script("crypt", verb, input="hello")
        assert (result.code, result.out) == (2, "")
        assert result.err == f"error: {verb}ing stdin needs --skill NAME (part of the key and the associated data)\n"


def test_stats_show_reads_t1(run_script, ws):
    _setup(run_script, ws)
    assert run_script("memory", "stats", "show").out == "no T1 statistics yet (memory.py stats record --skill S --ok)\n"
    env = {"MEMORY_MANAGER_NOW": "2026-11-30T10:00:00+00:00"}
    for ok in ("--ok", "--ok", "--fail"):
        assert run_script("memory", "stats", "record", "--skill", "web-search", ok, env=env).code == 0
    assert run_script("memory", "stats", "pattern", "--trigger", "news question", "--skills", "web-search,summarize",
                      env=env).code == 0
    shown = run_script("memory", "stats", "show", env=env)
    assert shown.code == 0, shown.err
    assert shown.out.splitlines() == ["memory/tier1-public/web-search_stats.json:",
                                      "  web-search: 3 calls, success rate 66.67%, last used 2026-11-30",
                                      "  pattern 'news question' -> web-search, summarize: seen 1 time(s)"]
    doc = json.loads(run_script("memory", "stats", "show", "--skill", "web-search", "--json").out)
    assert doc["files"][0]["skill_stats"]["web-search"]["calls"] == 3
    missing = run_script("memory", "stats", "show", "--skill", "nobody")
    assert missing.code == 1 and missing.err.startswith("error: no T1 statistics for nobody")


def test_audit_table_keeps_whole_paths(run_script, ws):
    _setup(run_script, ws)
    name = "2026-11-30-a-rather-long-daily-note-name.md"
    secret = "sk-proj-" + secrets.token_hex(24)
    (ws / "memory" / "daily" / name).write_text(f"## [2026-11-30] x\n- Change: key {secret} here\n")
    result = run_script("privacy_audit", env={"COLUMNS": "80"})
    assert result.code == 1
    assert f"memory/daily/{name}" in result.out  # on one line, not cut to "memory/2026-1…"


def test_doctor_lists_skills_that_require_this_bundle(run_script, ws):
    _setup(run_script, ws)
    skills = ws / "skills"
    for name in ("uses-memory", "unrelated"):
        (skills / name).mkdir(parents=True)
    (skills / "uses-memory" / "SKILL.md").write_text(
        '---\nname: uses-memory\ndescription: x\nmetadata: { "openclaw": { "requires": '
        '{ "skills": ["complex-memory-manager"] } } }\n---\nCalls {baseDir}/../complex-memory-manager/scripts.\n')
    (skills / "unrelated" / "SKILL.md").write_text("---\nname: unrelated\ndescription: y\n---\n")
    result = run_script("doctor", "--no-openclaw")
    assert f"! skill uses-memory: names complex-memory-manager under requires.skills, which OpenClaw ignores, " \
           f"and {skills / 'complex-memory-manager' / 'scripts'} does not exist" in result.out
    assert "skill unrelated" not in result.out
    # Installed beside it (a link to this bundle): reachable.
    (skills / "complex-memory-manager").symlink_to(ROOT)
    again = run_script("doctor", "--no-openclaw")
    assert f"✓ skill uses-memory: names complex-memory-manager under requires.skills (OpenClaw does not " \
           f"enforce it); reaches the scripts at {skills / 'complex-memory-manager' / 'scripts'}" in again.out
