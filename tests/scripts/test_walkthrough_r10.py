"""Round 10 new-user walk-through (nu10): each item runs the real scripts on a copy of a real
OpenClaw workspace (``../shared/workspaces/``, copied into ``tmp_path``; the originals are never
touched) and checks exact output.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHARED, tree_hash, writable_copy

REAL = SHARED / "workspaces" / "openclaw-2026.9.6"
pytestmark = pytest.mark.external(REAL, reason="a workspace OpenClaw 2026.9.6 wrote")
NOW = {"MEMORY_MANAGER_NOW": "2026-12-02T09:00:00+00:00"}
INIT = ROOT / "scripts" / "init.py"


def _copy_real(ws: Path) -> Path:
    """Fill ``ws`` with a writable copy of the real workspace."""
    return writable_copy(REAL, ws)


def _ok(result):
    assert result.code == 0, result.out + result.err
    return result


def _backup_ids(run_script) -> list[str]:
    return [b["id"] for b in json.loads(run_script("init", "--list-backups", "--json").out)["backups"]]


def _doctor_lines(run_script, *extra: str) -> list[str]:
    return run_script("doctor", "--no-openclaw", *extra).out.splitlines()


def _healthy(lines: list[str]) -> bool:
    """doctor found nothing broken; its one warning is the T2 key these tests leave out (--no-key)."""
    return [line.split(":")[0] for line in lines if line[:1] in "✗!"] == ["! T2 key"] \
        and lines[-1] == "nothing broken; 1 warning (see ! lines)"


# ---------------------------------------------------------------- item 1: a restore leaves the indexes true

def test_item1_restore_of_an_init_backup_rebuilds_the_indexes_from_the_files(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _ok(run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en"))
    _ok(run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "zh"))  # its backup holds both indexes
    switch = _backup_ids(run_script)[-1]
    _ok(run_script("memory", "write", "--topic", "after switch", "--cause", "x", env=NOW))
    _ok(run_script("memory", "learn", "newkey", "--text", "Deploys happen on Tuesdays", env=NOW))
    restored = _ok(run_script("init", "--restore", switch, "--yes"))
    assert "rebuilt from the restored files: memory/daily-index.md, memory/knowledge-index.md\n" in restored.out
    # the English titles the backup held, with the note and the entry written after it
    assert (ws / "memory" / "daily-index.md").read_text(encoding="utf-8") == (
        "# Memory Index\n\n- after switch → daily/2026-12-02.md\n")
    assert (ws / "memory" / "knowledge-index.md").read_text(encoding="utf-8") == "# Knowledge Index\n\n- newkey\n"
    lines = _doctor_lines(run_script)
    assert "✓ index daily-index.md: 1 entry" in lines and "✓ index knowledge-index.md: 1 entry" in lines
    assert "✓ set up: AGENTS.md memory rules, .gitignore rules, memory/memory-manager.json" in lines
    assert _healthy(lines)


def test_item1_doctor_finds_an_index_that_does_not_match_its_files(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _ok(run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en"))
    _ok(run_script("memory", "write", "--topic", "after switch", "--cause", "x", env=NOW))
    _ok(run_script("memory", "learn", "newkey", "--text", "Deploys happen on Tuesdays", env=NOW))
    (ws / "memory" / "daily-index.md").write_text("# Memory Index\n\n- gone topic → daily/2026-01-01.md\n",
                                                  encoding="utf-8")
    (ws / "memory" / "knowledge-index.md").write_text("# Knowledge Index\n", encoding="utf-8")
    doctor = run_script("doctor", "--no-openclaw")
    assert doctor.code == 1
    lines = doctor.out.splitlines()
    fix = (f"    fix: {sys.executable} {ROOT / 'scripts' / 'maintain.py'} -w {ws}  # the upkeep: rebuilds the "
           "indexes from the files")
    at = lines.index("✗ index daily-index.md: 1 entry, but it does not match the files: missing after switch → "
                     "daily/2026-12-02.md, naming what the files lack gone topic → daily/2026-01-01.md")
    assert lines[at + 1] == fix
    at = lines.index("✗ index knowledge-index.md: 0 entries, but it does not match the files: missing newkey")
    assert lines[at + 1] == fix
    # the fix it names works
    assert subprocess.run(fix.split("fix: ", 1)[1].split("  #")[0].split(), capture_output=True).returncode == 0
    assert _healthy(_doctor_lines(run_script))


def test_item1_restoring_the_first_init_says_the_workspace_is_no_longer_set_up(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _ok(run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en"))
    first = _backup_ids(run_script)[0]
    _ok(run_script("memory", "write", "--topic", "after switch", "--cause", "x", env=NOW))
    _ok(run_script("memory", "learn", "newkey", "--text", "Deploys happen on Tuesdays", env=NOW))
    restored = _ok(run_script("init", "--restore", first, "--yes", "--force"))
    gaps = "AGENTS.md has no memory rules block, no .gitignore, no memory/memory-manager.json"
    assert restored.out.splitlines()[-1] == (
        f"note: the workspace is no longer set up for memory ({gaps}): set it up again with "
        f"`{sys.executable} {INIT} -w {ws} --yes` (your notes stay)")
    doc = json.loads(_ok(run_script("init", "--restore", first, "--yes", "--force", "--json")).out)
    assert doc["set_up"] is False
    doctor = run_script("doctor", "--no-openclaw")
    assert doctor.code == 1
    lines = doctor.out.splitlines()
    at = lines.index(f"✗ set up: the workspace is no longer set up: {gaps} (the agent does not use the memory "
                     "without its rules)")
    assert lines[at + 1] == (f"    fix: {sys.executable} {INIT} -w {ws} --yes  # sets the workspace up again; "
                             "your notes stay; preview first with --dry-run instead of --yes")
    assert lines[-1] == "something needs fixing (see fix: lines); 1 warning"
    # the fix sets it up again, the notes kept
    _ok(run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en"))
    assert (ws / "memory" / "knowledge" / "newkey.md").is_file()
    # init indexes the notes it finds (an index naming none of them would be stale at once)
    assert (ws / "memory" / "daily-index.md").read_text(encoding="utf-8") == (
        "# Memory Index\n\n- after switch → daily/2026-12-02.md\n")
    assert (ws / "memory" / "knowledge-index.md").read_text(encoding="utf-8") == "# Knowledge Index\n\n- newkey\n"
    assert _healthy(_doctor_lines(run_script))


# ---------------------------------------------------------------- item 2: the hint names the workspace

def test_item2_a_folder_inside_the_workspace_is_refused_naming_the_workspace(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _ok(run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en"))
    before = tree_hash(ws)
    line = (f"error: {ws / 'memory'} is not a workspace (no AGENTS.md, MEMORY.md or memory/ in it); it is inside "
            f"the workspace {ws} (which holds memory/memory-manager.json): pass -w {ws}\n")
    for args in (["status"], ["write", "--topic", "t", "--cause", "c"]):
        result = run_script("memory", *args, "-w", ws / "memory")
        assert (result.code, result.out, result.err) == (2, "", line), args
    assert tree_hash(ws) == before
    env = {k: v for k, v in os.environ.items() if k != "OPENCLAW_WORKSPACE_DIR"}
    for here in (ws / "memory", ws / "memory" / "daily"):
        proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "memory.py"), "status"], cwd=here, env=env,
                              capture_output=True, text=True)
        assert proc.returncode == 2
        assert proc.stderr == (f"error: workspace {tmp_path / 'home' / '.openclaw' / 'workspace'} does not exist "
                               f"(chosen by <state dir>/workspace); the current folder {here} is inside the "
                               f"workspace {ws}: pass -w {ws} to use it\n")


# ---------------------------------------------------------------- item 3: installed in <workspace>/skills

def _install_bundle(ws: Path) -> Path:
    """Copy the bundle to ``ws/skills/complex-memory-manager`` as the README installs it (no tests, no benches)."""
    target = ws / "skills" / "complex-memory-manager"
    shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(".git", "tests", "bench", ".venv", "__pycache__",
                                                                  ".pytest_cache"))
    return target


def test_item3_init_from_the_installed_skill_names_the_workspace_around_it(tmp_path):
    ws = _copy_real(tmp_path / "ws")
    bundle = _install_bundle(ws)
    env = {k: v for k, v in os.environ.items() if k != "OPENCLAW_WORKSPACE_DIR"}
    missing = f"error: workspace {tmp_path / 'home' / '.openclaw' / 'workspace'} does not exist (chosen by <state dir>/workspace)"

    def init(*args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "scripts/init.py" if cwd == bundle else str(bundle / "scripts" / "init.py"),
                               *args], cwd=cwd, env=env, capture_output=True, text=True)

    here = init("--dry-run", cwd=bundle)
    assert (here.returncode, here.stderr) == (2, f"{missing}; the current folder {bundle} is inside the workspace "
                                                 f"{ws}: pass -w {ws} to use it\n")
    elsewhere = init("--dry-run", cwd=tmp_path)
    assert (elsewhere.returncode, elsewhere.stderr) == (2, f"{missing}; this skill is installed in the workspace "
                                                           f"{ws}: pass -w {ws} to use it\n")
    dot = init("--dry-run", "-w", ".", cwd=bundle)
    assert (dot.returncode, dot.stderr) == (2, f"error: {bundle} is inside the skill's own folder {bundle}; pass "
                                               f"-w {ws} (the workspace it is installed in)\n")
    # ../.. is shown as the folder it names
    up = init("--dry-run", "-w", "../..", cwd=bundle / "scripts")
    assert (up.returncode, up.stderr) == (2, f"error: {ws / 'skills'} is inside the workspace {ws} (it holds "
                                             f"AGENTS.md and SOUL.md); init sets up a workspace's top folder: run "
                                             f"it with -w {ws}\n")
    top = init("--dry-run", "-w", "../../..", cwd=bundle / "scripts")
    assert top.returncode == 0, top.stderr
    assert top.stdout.startswith(f"init {ws}: language ")


# ---------------------------------------------------------------- item 4: the same text again needs no approval

def test_item4_a_repeated_remember_is_unchanged_without_approval(tmp_path, run_script, t2_key):
    ws = _copy_real(tmp_path / "ws")
    _ok(run_script("init", "--yes", "--no-hooks", "--lang", "zh"))
    args = ("memory", "remember", "--skill", "weather", "--topic", "出行偏好", "--text", "用户喜欢早上7点前出门跑步")
    first = run_script(*args)
    assert first.code == 1 and "request_approval" in first.err  # a schedule: the first store asks
    _ok(run_script(*args, "--approved"))
    stored = tree_hash(ws)
    again = _ok(run_script(*args))
    assert again.out == ("unchanged memory/tier2-internal/weather_出行偏好.md [t-ce75ee0b5c]: the entry already "
                         "holds this text\n")
    doc = json.loads(_ok(run_script(*args, "--json")).out)
    assert (doc["unchanged"], doc["backup"], doc["gate"]) == (True, None, None)
    assert tree_hash(ws) == stored  # nothing stored, no backup, no audit line
    # a different text is a change: it still needs the approval
    other = run_script("memory", "remember", "--skill", "weather", "--topic", "出行偏好", "--text",
                       "用户喜欢早上6点前出门跑步")
    assert other.code == 1 and "request_approval" in other.err
    after = tree_hash(ws)
    assert after.pop("memory/.state/gate-audit.jsonl") != stored.pop("memory/.state/gate-audit.jsonl")  # the ask
    assert after == stored


# ---------------------------------------------------------------- item 5: a malformed openclaw.json

def test_item5_a_malformed_openclaw_config_is_bad_input_naming_the_file(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _ok(run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en"))
    config = tmp_path / "home" / ".openclaw" / "openclaw.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"agents": {"defaults": {"workspace": str(ws)}}})[:-1])  # the closing brace gone
    env = {"OPENCLAW_WORKSPACE_DIR": ""}
    line = (f"{config}: not valid JSON (Expecting ',' delimiter, line 1 column {len(config.read_text()) + 1}); "
            "OpenClaw's config names the workspace: fix the file, or pass -w with your workspace")
    for command in (("memory", "status"), ("memory", "write", "--topic", "t", "--cause", "c"), ("init", "--dry-run"),
                    ("cleanup", "--dry-run"), ("crypt", "reseal"), ("privacy_audit",)):
        result = run_script(*command, env=env)
        assert (result.code, result.out, result.err) == (2, "", f"error: {line}\n"), command
    as_json = run_script("memory", "status", "--json", env=env)
    assert (as_json.code, json.loads(as_json.out)) == (2, {"error": line, "kind": "bad_json"})
    doctor = run_script("doctor", "--no-openclaw", env=env)
    assert doctor.code == 1 and f"✗ workspace: {line}" in doctor.out.splitlines()
    # -w does not read the config: the command works
    _ok(run_script("memory", "status", "-w", ws, env=env))
    config.write_text(json.dumps({"agents": {"defaults": {"workspace": str(ws)}}}))
    _ok(run_script("memory", "status", env=env))


# ---------------------------------------------------------------- item 6: status of a folder that is no workspace

def test_item6_status_of_a_typo_is_one_line_and_exit_2(tmp_path, run_script):
    typo = tmp_path / "typo"
    typo.mkdir()
    for lang in ("C.UTF-8", "zh_CN.UTF-8"):
        result = run_script("memory", "status", "-w", typo, env={"LANG": lang})
        assert (result.code, result.out) == (2, "")
        assert result.err == (f"error: {typo} is not set up (no AGENTS.md, MEMORY.md or memory/ in it): set it up "
                              f"with `python3 {INIT} -w {typo}`, or pass -w with your workspace\n")
    as_json = run_script("memory", "status", "-w", typo, "--json")
    assert as_json.code == 2 and json.loads(as_json.out)["kind"] == "workspace"
    assert list(typo.iterdir()) == []
    # an OpenClaw workspace init has not set up yet still gets its figures (its MEMORY.md counts)
    ws = _copy_real(tmp_path / "ws")
    fresh = run_script("memory", "status", "-w", ws, env={"LANG": "C.UTF-8"})
    assert fresh.code == 0 and fresh.out.startswith(f"not set up: {ws} has no memory/ folder")


# ---------------------------------------------------------------- item 7: --restore quirks

def test_item7_restore_bad_ids_and_list_backups_are_usage_errors(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _ok(run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en"))
    _ok(run_script("memory", "lesson", "one"))
    before = tree_hash(ws)
    missing = run_script("init", "--restore", "1", "--yes")
    assert (missing.code, missing.err) == (2, "error: no backup with id '1' (see --list-backups)\n")
    assert json.loads(run_script("init", "--restore", "1", "--dry-run", "--json").out) == {
        "error": "no backup with id '1' (see --list-backups)", "kind": "not_found"}
    assert run_script("init", "--restore", "00000", "--yes").code == 2
    for args in (["--restore", "--list-backups"], ["--list-backups", "--restore"],
                 ["--list-backups", "--restore", "000001"]):
        both = run_script("init", *args)
        assert (both.code, both.out, both.err) == (2, "", "error: --list-backups lists the backups and --restore "
                                                   "puts one back: pass one of them (list first, then restore by "
                                                   "id)\n"), args
    assert tree_hash(ws) == before


# ---------------------------------------------------------------- item 8: crypt.py -w before the verb

def test_item8_crypt_takes_w_and_json_before_the_verb(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _ok(run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en"))
    _ok(run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "User likes green tea"))
    env = {"OPENCLAW_WORKSPACE_DIR": str(tmp_path / "elsewhere")}
    keygen = _ok(run_script("crypt", "-w", ws, "keygen", env=env))
    assert keygen.out.startswith("created ")
    reseal = _ok(run_script("crypt", "-w", ws, "--json", "reseal", env=env))
    assert json.loads(reseal.out)["entries"] == 1
    again = _ok(run_script("crypt", "-w", ws, "reseal", env=env))
    assert again.out == "nothing to reseal: every T2 entry is aes-gcm\n"
    # a -w after the verb wins
    other = tmp_path / "nope"
    late = run_script("crypt", "-w", ws, "reseal", "-w", other, env=env)
    assert (late.code, late.err) == (2, f"error: workspace {other} does not exist (chosen by --workspace)\n")
