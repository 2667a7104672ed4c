"""The new-user walk-through, round 3 (notes/walkthrough-r3.md): each item as a real run.

Every test runs the scripts on real files in a temporary workspace and checks
exact results. The item number of the walk-through is in each test's name.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import tree_hash

AGENTS = "# AGENTS.md\n\nBe kind.\n"


def _setup(ws: Path, run_script) -> str:
    """An English workspace set up by init (no hooks); returns init's backup id."""
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    result = run_script("init", "--yes", "--no-hooks", "--lang", "en", "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)["backup"]


def _backups(run_script) -> list[dict]:
    return json.loads(run_script("init", "--list-backups", "--json").out)["backups"]


# ---------------------------------------------------------------- item 2

def test_item2_restore_refuses_files_changed_since_the_backup(ws, run_script):
    init_id = _setup(ws, run_script)
    assert run_script("memory", "lesson", "always test restores").code == 0
    lesson_md = (ws / "MEMORY.md").read_bytes()
    before = tree_hash(ws)

    preview = run_script("init", "--restore", init_id, "--dry-run", "--json")
    assert preview.code == 0
    assert json.loads(preview.out)["changed_since"] == ["MEMORY.md"]
    text = run_script("init", "--restore", init_id[:6], "--dry-run")
    assert "changed since the backup (a restore refuses them without --force): MEMORY.md" in text.out

    refused = run_script("init", "--restore", init_id, "--yes")
    assert refused.code == 1
    assert refused.err == (f"error: changed since backup {init_id} was made: MEMORY.md; restoring would lose "
                           "those changes: nothing was changed (pass --force to restore anyway; the current "
                           "files are backed up first)\n")
    assert tree_hash(ws) == before

    forced = run_script("init", "--restore", init_id, "--yes", "--force", "--json")
    assert forced.code == 0, forced.err
    doc = json.loads(forced.out)
    assert doc["changed_since"] == ["MEMORY.md"]
    assert not (ws / "MEMORY.md").exists()
    assert (ws / "AGENTS.md").read_text(encoding="utf-8") == AGENTS
    # the safety backup holds the lesson
    safety = [b for b in _backups(run_script) if b["id"] == doc["safety_backup"]][0]
    assert safety["role"] == "safety"
    copy = ws / ".memory-backup" / doc["safety_backup"] / "files" / "MEMORY.md"
    assert copy.read_bytes() == lesson_md


def test_item2_a_derived_index_changed_since_does_not_block(ws, run_script):
    _setup(ws, run_script)
    assert run_script("memory", "write", "--topic", "deploy", "--change", "deploy on Thursday").code == 0
    # the index changed after init's backup; it is derived, so the restore goes on
    preview = json.loads(run_script("init", "--restore", "--dry-run", "--json").out)
    assert preview["changed_since"] == []


# ---------------------------------------------------------------- item 3

def test_item3_restore_without_id_skips_a_forget_backup(ws, run_script):
    _setup(ws, run_script)
    assert run_script("memory", "write", "--topic", "first", "--change", "kept line").code == 0
    wrote = json.loads(run_script("memory", "write", "--topic", "second", "--change", "to forget",
                                  "--json").out)
    ids_before = [b["id"] for b in _backups(run_script)]
    forgot = run_script("memory", "forget", wrote["id"], "--approved", "--json")
    assert forgot.code == 0, forgot.err
    forget_id = json.loads(forgot.out)["backup"]
    listed = {b["id"]: b for b in _backups(run_script)}
    assert listed[forget_id]["not_restore_point"] == "copy erased on purpose (forget/purge)"
    text = run_script("init", "--list-backups")
    assert f"{forget_id}  " in text.out and "not a restore point: copy erased on purpose (forget/purge)" in text.out

    preview = json.loads(run_script("init", "--restore", "--dry-run", "--json").out)
    assert preview["restored"] == ids_before[-1]  # the write before the forget, not the forget
    assert preview["restored"] != forget_id
    explicit = run_script("init", "--restore", forget_id, "--dry-run", "--json")
    assert explicit.code == 0
    # forget also erases the daily-index copy naming the forgotten topic (trust round 3); since
    # backups v5 a restore names only the notes whose copies were erased: the derived index follows the notes
    assert json.loads(explicit.out)["notes"] == [
        "memory/daily/" + wrote["path"].split("/")[-1] + ": its copy was erased on purpose (forget/purge); "
        "left as it is"]
    kept = [json.loads(line) for line in (ws / ".memory-backup" / forget_id / "entries.jsonl").read_text().splitlines()]
    assert {(e["path"], e["stored"]) for e in kept} == {("memory/daily/" + wrote["path"].split("/")[-1], "erased"),
                                                        ("memory/daily-index.md", "erased")}


# ---------------------------------------------------------------- item 7

def test_item7_whole_ids_and_unique_prefix(ws, run_script):
    init_id = _setup(ws, run_script)
    assert run_script("memory", "lesson", "one").code == 0
    ids = [b["id"] for b in _backups(run_script)]
    assert len(ids) == 2 and ids[0] == init_id
    for width in ("40", "80", "200"):
        out = run_script("init", "--list-backups", env={"COLUMNS": width}).out
        for ident in ids:
            assert ident in out, (width, out)
    ambiguous = run_script("init", "--restore", "00000", "--dry-run")
    assert ambiguous.code == 2
    assert ambiguous.err == f"error: backup id '00000' is ambiguous: it starts 2 ids: {ids[0]}, {ids[1]}\n"
    assert json.loads(run_script("init", "--restore", "000002", "--dry-run", "--json").out)["restored"] == ids[1]
    missing = run_script("init", "--restore", "000009", "--dry-run")
    # bad input like an ambiguous prefix (walk-through r10, item 7)
    assert (missing.code, missing.err) == (2, "error: no backup with id '000009' (see --list-backups)\n")


# ---------------------------------------------------------------- item 12

def test_item12_restore_leaves_the_indexes_agreeing_with_the_files(ws, run_script):
    _setup(ws, run_script)
    assert run_script("memory", "write", "--topic", "deploy", "--change", "deploy on Thursday").code == 0
    assert run_script("memory", "write", "--topic", "release", "--change", "release on Tuesday").code == 0
    index = ws / "memory" / "daily-index.md"
    assert "release" in index.read_text(encoding="utf-8")
    restored = run_script("init", "--restore", "--yes", "--json")
    assert restored.code == 0, restored.err
    note = next((ws / "memory" / "daily").iterdir()).name
    assert index.read_text(encoding="utf-8").splitlines()[-1] == f"- deploy → daily/{note}"
    assert "release" not in index.read_text(encoding="utf-8")
    checks = {c["name"]: c for c in json.loads(run_script("doctor", "--json", "--no-openclaw").out)["checks"]}
    assert checks["index daily-index.md"]["status"] == "ok"


def test_item12_a_backup_without_the_index_gets_it_rebuilt(ws, run_script):
    """A backup holding the note only (as older versions made them): the restore rebuilds the index."""
    _setup(ws, run_script)
    assert run_script("memory", "write", "--topic", "deploy", "--change", "deploy on Thursday").code == 0
    assert run_script("memory", "write", "--topic", "release", "--change", "release on Tuesday").code == 0
    newest = _backups(run_script)[-1]["id"]
    entries = ws / ".memory-backup" / newest / "entries.jsonl"
    kept = [line for line in entries.read_text(encoding="utf-8").splitlines()
            if json.loads(line)["path"] not in ("memory/daily-index.md", "memory/knowledge-index.md")]
    entries.write_text("\n".join(kept) + "\n", encoding="utf-8")
    restored = run_script("init", "--restore", newest, "--yes", "--json")
    assert restored.code == 0, restored.err
    assert json.loads(restored.out)["indexes"] == ["memory/daily-index.md"]
    index = (ws / "memory" / "daily-index.md").read_text(encoding="utf-8")
    assert "deploy" in index and "release" not in index


# ---------------------------------------------------------------- item 18

def test_item18_restore_without_yes_still_works_with_a_deprecation_note(ws, run_script):
    init_id = _setup(ws, run_script)
    result = run_script("init", "--restore", init_id)
    assert result.code == 0
    assert result.err == ("warning: --restore without --yes is deprecated and will need --yes in a future "
                          "version (on a terminal it asks first)\n")
    assert (ws / "AGENTS.md").read_text(encoding="utf-8") == AGENTS
    with_yes = run_script("init", "--restore", "--yes", "--json")
    assert with_yes.code == 0 and with_yes.err == ""


# ---------------------------------------------------------------- item 11

def test_item11_gate_hold_is_one_line_with_its_advice_once(ws, run_script):
    _setup(ws, run_script)
    before = tree_hash(ws)
    held = run_script("memory", "write", "--topic", "contact", "--change", "email bob.smith@gmail.com")
    assert held.code == 1
    assert held.err == ("error: memory gate: request_approval (possible email found in --change: not stored unless "
                        "the user confirms it is fine to keep; then repeat with --approved)\n")
    health = run_script("memory", "write", "--topic", "health", "--change", "I have diabetes")
    assert health.err == ("error: memory gate: request_approval (health content needs explicit approval) "
                          "(re-run with --approved once the user agrees)\n")
    verbose = run_script("memory", "write", "--topic", "health", "--change", "I have diabetes", "--verbose")
    assert "AANA memory gate:" in verbose.err and verbose.err.count("error:") == 1
    as_json = json.loads(run_script("memory", "write", "--topic", "health", "--change", "I have diabetes",
                                    "--json").out)
    assert as_json["kind"] == "gate" and as_json["gate"]["recommended_action"] == "request_approval"
    assert {k: v for k, v in tree_hash(ws).items() if "/.state/" not in k} == \
        {k: v for k, v in before.items() if "/.state/" not in k}


# ---------------------------------------------------------------- item 19

def test_item19_skill_md_gate_example_agrees_with_memory_write(ws, run_script):
    import re

    from tests.conftest import ROOT

    skill = (ROOT / "SKILL.md").read_text(encoding="utf-8")
    example = re.search(r"`python3 \{baseDir\}/scripts/gate\.py ([^`]*)`", skill).group(1)
    assert "--source explicit_user" in example
    args = example.replace('"..."', '"prefers concise status updates"').split(" ")
    args = [a.strip('"') for a in args]
    text = args[args.index("--text") + 1:]
    args = args[:args.index("--text")] + ["--text", " ".join(text)]
    gate = run_script("gate", *args, "--json")
    assert json.loads(gate.out)["recommended_action"] == "proceed"
    write = run_script("memory", "write", "--topic", "style", "--change", "prefers concise status updates")
    assert write.code == 0


# ---------------------------------------------------------------- item 20

def test_item20_doc_slips(run_script):
    import re

    from tests.conftest import ROOT

    assert "CURVE_TABLE" not in (ROOT / "references" / "recall.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    verbs = re.findall(r"^  (\w+)\s", run_script("memory", "--help").out.split("Commands:")[1], re.M)
    assert len(verbs) >= 18
    table = readme.split("## Scripts")[1].split("\n\n")[2]
    rows = [line for line in table.splitlines() if "scripts/memory.py" in line]
    for verb in verbs:
        assert any(re.search(rf"\b{verb}\b", row) for row in rows), verb
    assert "how often\nthey were used" in readme or "how often they were used" in readme
    en = json.loads((ROOT / "templates" / "en" / "report.json").read_text(encoding="utf-8"))
    assert en["access"] == "Used (show, used)"
    decrypt = run_script("crypt", "decrypt", "--help").out
    assert "'aesgcm:v2:'" in decrypt and "'aesgcm:v1:'" in decrypt
    stats = run_script("memory", "stats", "record", "--skill", "weather")
    assert (stats.code, stats.err) == (2, "error: say how the call went: --ok or --fail\n")


# ---------------------------------------------------------------- item 17

def test_item17_no_tick_for_a_skipped_step_and_doctor_counts_warnings(ws, run_script, tmp_path):
    import shutil

    bindir = tmp_path / "bin"
    bindir.mkdir()
    # PATH without openclaw (but with the tools init may call: none needed beyond Python)
    path = str(bindir)
    assert shutil.which("openclaw", path=path) is None
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    result = run_script("init", "--yes", "--lang", "en", env={"PATH": path, "COLUMNS": "200"})
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert "skipped: enabling the hooks and the plugin in OpenClaw: openclaw is not on PATH" in lines
    assert not any(line.startswith("✓ enabling the hooks") for line in lines)
    assert "note: openclaw is not on PATH; run these commands yourself:" in lines

    # doctor: a warning (openclaw not on PATH) is not "all good"; exit 0, the warnings counted
    doctor = run_script("doctor", env={"PATH": path})
    assert doctor.code == 0
    assert doctor.out.splitlines()[-1] == "nothing broken; 1 warning (see ! lines)"
    assert json.loads(run_script("doctor", "--json", env={"PATH": path}).out)["warnings"] == 1
    clean = run_script("doctor", "--no-openclaw", env={"PATH": path})
    assert (clean.code, clean.out.splitlines()[-1]) == (0, "all good")


def test_item17_doctor_does_not_nag_about_hooks_on_a_no_hooks_workspace(ws, run_script):
    _setup(ws, run_script)  # --no-hooks
    doctor = run_script("doctor", "--no-openclaw")
    assert doctor.code == 0
    lines = doctor.out.splitlines()
    assert not any("fix:" in line for line in lines)
    assert ("✓ hooks: not installed in this workspace (init --no-hooks or --uninstall-hooks): the upkeep runs "
            "when you call the scripts; init --yes without --no-hooks installs them") in lines
    assert lines[-1] == "all good"


# ---------------------------------------------------------------- item 7 (tables)

@pytest.mark.parametrize("width", ["60", "100", "240"])
def test_item7_plan_table_never_cuts_a_path(ws, run_script, width):
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    result = run_script("init", "--yes", "--lang", "en", "--no-key", env={"COLUMNS": width})
    assert result.code == 0, result.err
    for name in ("hooks/memory-manager-gateway-startup/bundle-path.json", "memory/knowledge-index.md"):
        assert name in result.out, (width, result.out)


# ---------------------------------------------------------------- item 22

def test_item22_writes_refuse_a_folder_that_is_no_workspace(tmp_path, run_script):
    typo = tmp_path / "emtpy"
    typo.mkdir()
    for args in (["write", "--topic", "x", "--change", "y"], ["learn", "deploy", "--text", "Fridays off"],
                 ["lesson", "test restores"], ["stats", "record", "--skill", "weather", "--ok"]):
        result = run_script("memory", *args, "-w", typo)
        assert result.code == 2, args
        assert result.err.startswith(f"error: {typo} is not set up (no AGENTS.md, MEMORY.md or memory/ in it): "
                                     "set it up with `python3 ") and result.err.endswith(
            f"/scripts/init.py -w {typo}`, or pass -w with your workspace\n"), result.err
        assert list(typo.iterdir()) == []
    # status refuses it too, in one line (walk-through r10, item 6: no figures of zeros)
    status = run_script("memory", "status", "-w", typo)
    assert (status.code, status.out) == (2, "")
    assert status.err.startswith(f"error: {typo} is not set up (no AGENTS.md, MEMORY.md or memory/ in it)")
    assert json.loads(run_script("memory", "status", "-w", typo, "--json").out)["kind"] == "workspace"
    assert list(typo.iterdir()) == []
    # an OpenClaw workspace (AGENTS.md, no memory/ yet) takes the write
    (typo / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    assert run_script("memory", "write", "--topic", "x", "--change", "y", "-w", typo).code == 0


# ---------------------------------------------------------------- item 4

def _user_files(ws: Path) -> dict[str, str]:
    return {k: v for k, v in tree_hash(ws).items() if "/.state/" not in k and not k.startswith(".memory-backup")}


def test_item4_importing_the_same_export_twice_changes_nothing(ws, run_script, tmp_path):
    _setup(ws, run_script)
    assert run_script("memory", "learn", "Release Process", "--text", "Release on Tuesdays.").code == 0
    assert run_script("memory", "edit", "Release Process", "--text", "Release on Thursdays.", "--approved").code == 0
    assert run_script("memory", "write", "--topic", "deploy", "--change", "deploy moved to Thursday").code == 0
    export = tmp_path / "exp.json"
    assert run_script("memory", "export", "--approved", "--out", export).code == 0
    entry = ws / "memory" / "knowledge" / "Release Process.md"
    original = entry.read_bytes()
    before = _user_files(ws)
    for _ in range(2):
        again = run_script("memory", "import", export, "--approved", "--json")
        assert again.code == 0, again.err
        doc = json.loads(again.out)
        assert doc["counts"] == {"daily": 0, "daily_lines": 0, "knowledge": 0, "tier1": 0, "tier2": 0,
                                  "archive": 0, "lessons": 0}
        assert doc["already_present"] == ["daily " + doc["already_present"][0].split(" ")[1] + " deploy",
                                          "knowledge Release Process"]
    assert entry.read_bytes() == original
    assert _user_files(ws) == before
    human = run_script("memory", "import", export, "--approved")
    assert "already present, left as they are: daily " in human.out and "knowledge Release Process" in human.out

    # into a second workspace: the first import brings it, the second changes nothing
    other = tmp_path / "other"
    other.mkdir()
    (other / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    first = json.loads(run_script("memory", "import", export, "--approved", "--json", "-w", other).out)
    assert first["counts"]["knowledge"] == 1
    copied = (other / "memory" / "knowledge" / "Release Process.md").read_text(encoding="utf-8")
    assert copied.count("<!-- cmm-history") == 1
    snapshot = _user_files(other)
    second = json.loads(run_script("memory", "import", export, "--approved", "--json", "-w", other).out)
    assert second["counts"]["knowledge"] == 0 and "knowledge Release Process" in second["already_present"]
    assert _user_files(other) == snapshot

    shown = run_script("memory", "show", "Release Process", "--history")
    assert "cmm-history" not in shown.out
    assert shown.out.count("Release on Tuesdays.") == 1


def test_item4_show_history_of_a_file_with_a_doubled_history_block(ws, run_script):
    """A file an earlier import doubled: show --history prints each version once and no marker."""
    _setup(ws, run_script)
    assert run_script("memory", "learn", "Release Process", "--text", "Release on Tuesdays.").code == 0
    assert run_script("memory", "edit", "Release Process", "--text", "Release on Thursdays.", "--approved").code == 0
    entry = ws / "memory" / "knowledge" / "Release Process.md"
    text = entry.read_text(encoding="utf-8")
    block = text[text.index("<!-- cmm-history"):]
    entry.write_text(text.rstrip("\n") + "\n\n" + block, encoding="utf-8")
    shown = run_script("memory", "show", "Release Process", "--history")
    assert shown.code == 0
    assert "cmm-history" not in shown.out
    assert shown.out.count("Release on Tuesdays.") == 1


# ---------------------------------------------------------------- item 23

def test_item23_openclaw_headings_become_topics(ws, run_script):
    _setup(ws, run_script)
    note = ws / "memory" / "2026-11-30.md"
    note.write_text("# 2026-11-30\n\n## Session notes\n\n- deploy moved to Thursday\n- release train every week\n\n"
                    "## Decisions\n\n1. use canary builds\n", encoding="utf-8")
    result = run_script("memory", "import", "--from-openclaw", "--approved", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["counts"]["daily"] == 2
    daily = (ws / "memory" / "daily" / "2026-11-30.md").read_text(encoding="utf-8").splitlines()
    assert [line for line in daily if line.startswith("## ")] == ["## [2026-11-30] Session notes",
                                                                  "## [2026-11-30] Decisions"]
    changes = [line for line in daily if line.startswith("- Change: ")]
    assert changes == ["- Change: deploy moved to Thursday", "- Change: release train every week",
                       "- Change: use canary builds"]
    index = (ws / "memory" / "daily-index.md").read_text(encoding="utf-8")
    assert "- Session notes → daily/2026-11-30.md" in index and "- Decisions → daily/2026-11-30.md" in index
    again = json.loads(run_script("memory", "import", "--from-openclaw", "--approved", "--json").out)
    assert again["counts"]["daily_lines"] == 0


# ---------------------------------------------------------------- item 5

OLD_AGENTS = "# AGENTS.md\n\n## Rules\n\n- Be kind.\n\n## 💓 Heartbeats - Be Proactive!\n\n- check mail\n\n" \
             "### 🔄 Memory Maintenance\n\n- tidy notes\n"
OLD_HEARTBEAT = "# HEARTBEAT.md\n\n# Keep this file empty (or with only comments) to skip heartbeat API calls.\n"


def _fake_openclaw(tmp_path, version: str) -> dict:
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    fake = bindir / "openclaw"
    fake.write_text(f"#!/bin/sh\ncase \"$1\" in --version) echo '{version}';; *) exit 3;; esac\n")
    fake.chmod(0o755)
    import os

    return {"PATH": f"{bindir}:{os.environ['PATH']}"}


@pytest.mark.parametrize("version", [None, "OpenClaw 2026.1.29"])
def test_item5_old_openclaw_keeps_heartbeat_rules_in_agents_md(ws, run_script, tmp_path, version):
    (ws / "AGENTS.md").write_text(OLD_AGENTS, encoding="utf-8")
    (ws / "HEARTBEAT.md").write_text(OLD_HEARTBEAT, encoding="utf-8")
    env = _fake_openclaw(tmp_path, version) if version else {}
    result = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env)
    assert result.code == 0, result.err
    assert (ws / "HEARTBEAT.md").read_text(encoding="utf-8") == OLD_HEARTBEAT
    agents = (ws / "AGENTS.md").read_text(encoding="utf-8")
    assert "## 💓 Heartbeats - Be Proactive!" in agents and "### 🔄 Memory Maintenance" in agents
    why = ("OpenClaw 2026.1.29 is older than 2026.8" if version else
           "OpenClaw cannot be asked for its version and HEARTBEAT.md says to keep it empty (the layout before 2026.8)")
    assert (f"note: heartbeat sections left in AGENTS.md (Heartbeats - Be Proactive!): {why}, and moving them "
            "into HEARTBEAT.md would switch heartbeat turns on. Pass --heartbeat-move to move them anyway."
            ) in result.out.splitlines()


def test_item5_new_openclaw_still_moves_them(ws, run_script, tmp_path):
    (ws / "AGENTS.md").write_text(OLD_AGENTS, encoding="utf-8")
    (ws / "HEARTBEAT.md").write_text(OLD_HEARTBEAT, encoding="utf-8")
    result = run_script("init", "--yes", "--no-hooks", "--lang", "en", "--json",
                        env=_fake_openclaw(tmp_path, "OpenClaw 2026.9.6"))
    assert result.code == 0, result.err
    assert json.loads(result.out)["plan"]["moved_sections"] == ["Heartbeats - Be Proactive!"]
    assert "## 💓 Heartbeats - Be Proactive!" in (ws / "HEARTBEAT.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("width", ["50", "80", "200"])
def test_item7_cleanup_dry_run_never_cuts_a_path(ws, run_script, monkeypatch, width):
    from datetime import date

    from tests.test_cleanup import t2

    now = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
    monkeypatch.setenv("MEMORY_MANAGER_NOW", now["MEMORY_MANAGER_NOW"])
    for sub in ("daily", "tier2-internal", "archive"):
        (ws / "memory" / sub).mkdir(parents=True, exist_ok=True)
    t2(ws, "newsletter-digest", "sources-and-feeds", "old", date(2026, 9, 3))
    result = run_script("cleanup", "--dry-run", env={**now, "COLUMNS": width})
    assert result.code == 0, result.err
    assert "memory/tier2-internal/newsletter-digest_sources-and-feeds.md → " \
           "memory/archive/2026-09/newsletter-digest_sources-and-feeds.md" in result.out
    assert "…" not in result.out
