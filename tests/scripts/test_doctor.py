"""scripts/doctor.py run as a real process, with a stand-in `openclaw` command on PATH."""
from __future__ import annotations

import json
import os
import shlex
import stat
import subprocess
import sys


from conftest import ROOT
from memory_manager import backups, hookinstall

NAMES = hookinstall.bundle_hooks(ROOT)


def fake_openclaw(tmp_path, hooks_enabled=True, skill_eligible=True):
    """A shell script answering --version, skills info and hooks list like OpenClaw 2026.9.6."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    skill = {"name": "complex-memory-manager", "eligible": skill_eligible, "disabled": False,
             "baseDir": str(ROOT), "missing": {"bins": [] if skill_eligible else ["python3"]}}
    hooks = {"hooks": [{"name": n, "source": "openclaw-workspace", "eligible": True, "disabled": not hooks_enabled,
                        "enabledByConfig": hooks_enabled, "loadable": hooks_enabled} for n in NAMES]}
    (tmp_path / "skill.json").write_text(json.dumps(skill))
    (tmp_path / "hooks.json").write_text(json.dumps(hooks))
    script = bin_dir / "openclaw"
    script.write_text(f"""#!/bin/sh
case "$1 $2" in
  "--version ") echo "OpenClaw 2026.9.6 (eb377ac)";;
  "skills info") echo "[plugins] noise"; cat {tmp_path / 'skill.json'};;
  "hooks list") cat {tmp_path / 'hooks.json'};;
  *) exit 3;;
esac
""")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return {"PATH": f"{bin_dir}:{os.environ['PATH']}"}


def good_workspace(ws):
    for sub in ("daily", "knowledge", "tier1-public", "tier2-internal", "archive"):
        (ws / "memory" / sub).mkdir(parents=True)
    (ws / "memory" / "daily-index.md").write_text("# Memory Index\n\n- a → daily/2026-01-01.md\n")
    (ws / "memory" / "knowledge-index.md").write_text("# 知识库索引\n\n- k1\n- k2\n", encoding="utf-8")
    # the notes the indexes name: doctor compares each index with its files (walk-through r10, item 1)
    (ws / "memory" / "daily" / "2026-01-01.md").write_text("## [2026-01-01] a\n- Cause: x\n")
    for key in ("k1", "k2"):
        (ws / "memory" / "knowledge" / f"{key}.md").write_text(f"---\nkey: {key}\ntags: []\n---\n\nText {key}\n")
    hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw=None)


def test_all_good(run_script, ws, tmp_path, t2_key):
    good_workspace(ws)
    r = run_script("doctor", env=fake_openclaw(tmp_path))
    assert r.code == 0, r.out + r.err
    lines = r.out.splitlines()
    assert f"✓ workspace: {ws} (chosen by OPENCLAW_WORKSPACE_DIR)" in lines
    assert "✓ index daily-index.md: 1 entry" in lines and "✓ index knowledge-index.md: 2 entries" in lines
    assert "✓ openclaw: OpenClaw 2026.9.6 (eb377ac)" in lines
    assert f"✓ skill: eligible, from {ROOT}" in lines
    assert all(f"✓ hook {n}: eligible and enabled" in lines for n in NAMES)
    # Hooks without the plugin: worth a warning (the upkeep waits), so not "all good" (walk-through r3, item 17).
    assert [line.split(":")[0] for line in lines if line.startswith("!")] == ["! plugin files"]
    assert lines[-1] == "nothing broken; 1 warning (see ! lines)"


def test_an_index_that_does_not_match_its_files_fails(run_script, ws):
    good_workspace(ws)
    (ws / "memory" / "knowledge" / "k2.md").unlink()
    (ws / "memory" / "knowledge" / "k3.md").write_text("---\nkey: k3\ntags: []\n---\n\nText k3\n")
    r = run_script("doctor", "--no-openclaw")
    lines = r.out.splitlines()
    at = lines.index("✗ index knowledge-index.md: 2 entries, but it does not match the files: missing k3, naming "
                     "what the files lack k2")
    assert lines[at + 1] == (f"    fix: {shlex.join([sys.executable, str(ROOT / 'scripts' / 'maintain.py'), '-w', str(ws)])}"
                             "  # the upkeep: rebuilds the indexes from the files")
    assert "✓ index daily-index.md: 1 entry" in lines and r.code == 1


def test_agents_md_without_the_rules_block_is_no_longer_set_up(run_script, ws):
    good_workspace(ws)
    (ws / "AGENTS.md").write_text("# AGENTS.md\n\nMy own rules.\n")
    r = run_script("doctor", "--no-openclaw")
    lines = r.out.splitlines()
    at = lines.index("✗ set up: the workspace is no longer set up: AGENTS.md has no memory rules block, no "
                     ".gitignore, no memory/memory-manager.json (the agent does not use the memory without its rules)")
    assert lines[at + 1].startswith(f"    fix: {shlex.join([sys.executable, str(ROOT / 'scripts' / 'init.py'), '-w', str(ws)])} --yes")
    assert r.code == 1


def test_empty_workspace_says_what_to_fix(run_script, ws):
    r = run_script("doctor", "--no-openclaw")
    assert r.code == 1
    lines = r.out.splitlines()
    assert ("✗ memory tree: missing: memory/daily/, memory/knowledge/, memory/tier1-public/, "
            "memory/tier2-internal/, memory/archive/") in lines
    assert lines[lines.index("✗ index daily-index.md: missing") + 1] == (
        f"    fix: {shlex.join([sys.executable, str(ROOT / 'scripts' / 'init.py'), '-w', str(ws)])} --yes"
        "  # creates the missing index; preview first with --dry-run instead of --yes")
    assert ("✓ hooks: not installed in this workspace (init --no-hooks or --uninstall-hooks): the upkeep runs "
            "when you call the scripts; init --yes without --no-hooks installs them") in lines
    assert not any(line.startswith("! hook files") for line in lines)
    assert lines[-1] == "something needs fixing (see fix: lines); 1 warning"  # the T2 key


def test_hooks_not_enabled(run_script, ws, tmp_path):
    good_workspace(ws)
    r = run_script("doctor", "--json", env=fake_openclaw(tmp_path, hooks_enabled=False, skill_eligible=False))
    doc = json.loads(r.out)
    assert r.code == 1 and doc["ok"] is False and doc["rule"] == "OPENCLAW_WORKSPACE_DIR"
    by_name = {c["name"]: c for c in doc["checks"]}
    assert by_name[f"hook {NAMES[0]}"] == {"name": f"hook {NAMES[0]}", "status": "fail",
                                           "detail": "installed but not enabled",
                                           "fix": f"openclaw hooks enable {NAMES[0]}, then restart the Gateway"}
    assert by_name["skill"]["status"] == "fail" and "'bins': ['python3']" in by_name["skill"]["detail"]


def test_bad_config(run_script, ws):
    good_workspace(ws)
    (ws / "memory" / "memory-manager.json").write_text('{"hooks": {"bootstrap": "yes"}}')
    r = run_script("doctor", "--no-openclaw", "--json")
    doc = json.loads(r.out)
    [config] = [c for c in doc["checks"] if c["name"] == "config"]
    assert r.code == 1 and config["status"] == "fail" and "'hooks.bootstrap' must be a boolean" in config["detail"]


def test_stale_bundle_path(run_script, ws, tmp_path):
    good_workspace(ws)
    path = ws / "hooks" / NAMES[0] / "bundle-path.json"
    path.write_text(json.dumps({"bundle": str(tmp_path / "moved")}))
    r = run_script("doctor", "--no-openclaw")
    assert f"✗ hook files {NAMES[0]}: points at {tmp_path / 'moved'}, which has no scripts/hook.py" in r.out.splitlines()
    assert r.code == 1


def test_missing_workspace(run_script, tmp_path):
    r = run_script("doctor", "--no-openclaw", "--workspace", tmp_path / "nope")
    assert r.code == 1 and f"✗ workspace: workspace {tmp_path / 'nope'} does not exist (chosen by --workspace)" in r.out


def test_fix_lines_work_when_copied(run_script, ws, tmp_path):
    """Each init fix line, pasted into a shell from another folder, sets up the workspace doctor checked."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ)
    env.pop("OPENCLAW_WORKSPACE_DIR")  # the pasting shell may resolve another workspace, or none
    doc = json.loads(run_script("doctor", "--no-openclaw", "--json", "-w", ws).out)
    fixes = {c["fix"] for c in doc["checks"] if c["status"] != "ok" and c["fix"] and "init.py" in c["fix"]}
    assert len(fixes) == 3  # folders, index (twice), no T2 key (init creates it); no hooks is a choice
    command = shlex.join([sys.executable, str(ROOT / "scripts" / "init.py"), "-w", str(ws)])
    assert all(f.startswith(command + " --yes  # ") for f in fixes)
    pasted = subprocess.run(["sh", "-c", sorted(fixes)[0]], cwd=elsewhere, env=env, capture_output=True,
                            text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert pasted.returncode == 0, pasted.stderr
    after = json.loads(run_script("doctor", "--no-openclaw", "--json", "-w", ws).out)
    assert [c["name"] for c in after["checks"] if c["status"] != "ok"] == []
    assert list(elsewhere.iterdir()) == []
