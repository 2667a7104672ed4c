"""The user-visible faults of issue 12, each run through the scripts on real files."""
from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, tree_hash
from memory_manager import tiers

NOW = {"MEMORY_MANAGER_NOW": "2026-03-03T09:00:00+00:00"}


def _body_lines(path):
    return path.read_text(encoding="utf-8").split("---\n", 2)[2].split("\n")


# ----------------------------------------------------------------------------- learn

def test_learn_keeps_a_statement_that_is_part_of_an_earlier_one(ws, run_script):
    assert run_script("memory", "learn", "release", "--text", "Never release on Tuesdays.", env=NOW).code == 0
    r = run_script("memory", "learn", "release", "--text", "release on Tuesdays.", "--json", env=NOW)
    assert r.code == 0 and json.loads(r.out)["changed"] is True
    again = run_script("memory", "learn", "release", "--text", "release on Tuesdays.", "--json", env=NOW)
    assert json.loads(again.out)["changed"] is False  # each statement once
    lines = [line for line in _body_lines(ws / "memory/knowledge/release.md") if line]
    assert lines == ["Never release on Tuesdays.", "release on Tuesdays."]


def test_twenty_concurrent_learns_keep_every_statement_once(ws, run_script):
    assert run_script("memory", "learn", "ops", "--text", "restart the queue worker nightly", env=NOW).code == 0
    texts = [f"restart the queue worker nightly{' and log it' * (n % 3)} #{n}" if n % 2 else
             "restart the queue" + " worker" * (n % 4) for n in range(20)]
    import os

    env = dict(os.environ, **NOW)
    procs = [subprocess.Popen([sys.executable, str(ROOT / "scripts/memory.py"), "learn", "ops", "--text", text],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for text in texts]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 20, errors
    lines = [line for line in _body_lines(ws / "memory/knowledge/ops.md") if line]
    expected = ["restart the queue worker nightly", *dict.fromkeys(texts)]
    assert sorted(lines) == sorted(dict.fromkeys(expected))
    assert lines[0] == "restart the queue worker nightly"  # earlier lines never rewritten


# -------------------------------------------------------------------------- remember

def _t2_ids(ws):
    return [e.id for e in tiers.iter_t2_entries(ws)]


def test_remember_on_an_entry_in_a_month_file_is_an_approved_edit(ws, run_script):
    (ws / "memory").mkdir()
    for topic, text in (("0-plan", "first plan"), ("zz-other", "other note")):
        r = run_script("memory", "remember", "--skill", "news", "--topic", topic, "--text", text, env=NOW)
        assert r.code == 0, r.err
    r = run_script("cleanup", "--json", env=NOW)
    assert r.code == 0, r.err
    month_file = ws / "memory/tier2-internal/news_2026-03.md"
    assert sorted(p.name for p in month_file.parent.iterdir()) == ["news_2026-03.md"]
    ident = tiers.t2_id("news", "0-plan")
    before = tree_hash(ws)
    held = run_script("memory", "remember", "--skill", "news", "--topic", "0-plan", "--text", "second plan", "--verbose",
                      env=NOW)
    assert held.code == 1 and "- Memory operation: edit" in held.err
    after = tree_hash(ws)
    assert {k: v for k, v in after.items() if "/.state/" not in k} == \
        {k: v for k, v in before.items() if "/.state/" not in k}  # only the gate's audit log grew
    done = run_script("memory", "remember", "--skill", "news", "--topic", "0-plan", "--text", "second plan",
                      "--approved", "--json", env=NOW)
    assert done.code == 0, done.err
    doc = json.loads(done.out)
    assert doc["path"] == "memory/tier2-internal/news_2026-03.md" and doc["replaced"] and doc["backup"]
    saved = (ws / ".memory-backup" / doc["backup"] / "entries.jsonl").read_text(encoding="utf-8")
    assert [json.loads(line)["path"] for line in saved.splitlines()] == ["memory/tier2-internal/news_2026-03.md"]
    assert sorted(p.name for p in month_file.parent.iterdir()) == ["news_2026-03.md"]
    for _ in range(2):
        assert sorted(_t2_ids(ws)) == sorted([ident, tiers.t2_id("news", "zz-other")])
        shown = run_script("memory", "show", ident, "--approved", "--json", env=NOW)
        assert [e["text"] for e in json.loads(shown.out)["entries"]] == ["second plan"]
        assert run_script("cleanup", "--json", env=dict(NOW, MEMORY_MANAGER_NOW="2026-03-20T09:00:00+00:00")).code == 0


def test_compaction_keeps_the_newer_copy_and_the_other_months(ws, run_script):
    """A workspace that already has two copies of an id (written by an older version) ends with one: the newer."""
    (ws / "memory").mkdir()
    for topic in ("0-plan", "b-topic"):
        assert run_script("memory", "remember", "--skill", "news", "--topic", topic, "--text", f"old {topic}",
                          env=NOW).code == 0
    assert run_script("cleanup", env=NOW).code == 0
    later = dict(NOW, MEMORY_MANAGER_NOW="2026-03-05T09:00:00+00:00")
    # the older version wrote a fresh single file beside the month file
    single = ws / "memory/tier2-internal/news_0-plan.md"
    from memory_manager import crypto, entries
    from memory_manager.clock import today
    from memory_manager.config import load_config
    import os
    os.environ["MEMORY_MANAGER_NOW"] = later["MEMORY_MANAGER_NOW"]
    try:
        sealed = crypto.encrypt("new plan", "news", "2026-03", load_config(), None)
        single.write_text(tiers.render_t2("news", "0-plan", sealed, today(), 30, "2026-03", "zh"), encoding="utf-8")
    finally:
        os.environ.pop("MEMORY_MANAGER_NOW")
    assert run_script("cleanup", env=later).code == 0
    assert not single.exists()
    ident = tiers.t2_id("news", "0-plan")
    assert _t2_ids(ws).count(ident) == 1
    shown = json.loads(run_script("memory", "show", ident, "--approved", "--json", env=later).out)
    assert [e["text"] for e in shown["entries"]] == ["new plan"]
    assert entries  # imported for the helpers above


# --------------------------------------------------------------------------- decrypt

def test_decrypt_in_place_adds_no_blank_line(ws, run_script):
    folder = ws / "memory/tier2-internal"
    folder.mkdir(parents=True)
    for name, gap in (("s_tight.md", ""), ("s_spaced.md", "\n")):
        path = folder / name
        path.write_text(f"---\ntier: internal\nsource_skill: s\n---\n{gap}my note\nsecond line\n", encoding="utf-8")
        r = run_script("crypt", "encrypt", "--file", str(path), env=NOW)
        assert r.code == 0, r.err
        assert "my note" not in path.read_text(encoding="utf-8")
        r = run_script("crypt", "decrypt", "--file", str(path), "--approved", env=NOW)
        assert r.code == 0, r.err
        assert path.read_text(encoding="utf-8").endswith(f"\nkey_derivation: concat\n---\n{gap}my note\nsecond line\n")


# ------------------------------------------------------------------------------ init

def test_a_star_bullet_rule_is_the_same_rule_as_its_dash_twin(ws, run_script):
    (ws / "AGENTS.md").write_text("# AGENTS\n\n- Ask before deleting files.\n\n## More\n\n* Ask before deleting files.\n"
                                  "+ Ask  before deleting files.\n* A rule of its own.\n", encoding="utf-8")
    result = run_script("init", "--yes", "--json", "--lang", "en")
    assert result.code == 0, result.err
    assert json.loads(result.out)["plan"]["removed_duplicates"] == ["* Ask before deleting files.",
                                                                    "+ Ask  before deleting files."]
    assert (ws / "AGENTS.md").read_text(encoding="utf-8").startswith(
        "# AGENTS\n\n- Ask before deleting files.\n\n## More\n\n* A rule of its own.\n")


# -------------------------------------------------------------- malformed frontmatter

def test_audit_and_recall_name_a_malformed_file_and_show_none_of_it(ws, run_script):
    knowledge = ws / "memory/knowledge"
    knowledge.mkdir(parents=True)
    broken = "---\nkey: [unclosed\ntags: x\n---\nzebra crossings are striped\n"
    (knowledge / "broken.md").write_text(broken, encoding="utf-8")
    (knowledge / "fine.md").write_text("---\nkey: fine\n---\nzebra herds migrate\n", encoding="utf-8")
    before = tree_hash(ws)
    audit = run_script("privacy_audit", "--json")
    warning = "memory/knowledge/broken.md: malformed (frontmatter is not valid YAML (line 3)); " \
              "scanned as plain text, not rewritten"
    assert json.loads(audit.out)["warnings"] == [warning]
    human = run_script("privacy_audit", env={"COLUMNS": "300"})
    assert f"warning: {warning}" in human.out
    found = run_script("memory", "recall", "zebra", "--json", "--no-track")
    doc = json.loads(found.out)
    assert [h["path"] for h in doc["hits"]] == ["memory/knowledge/fine.md"]
    assert doc["malformed"] == [{"file": "memory/knowledge/broken.md", "error": "frontmatter is not valid YAML (line 3)"}]
    plain = run_script("memory", "recall", "zebra", "--no-track")
    assert "warning: memory/knowledge/broken.md: frontmatter is not valid YAML (line 3)" in plain.err
    assert "unclosed" not in plain.out + found.out
    after = tree_hash(ws)
    assert {k: v for k, v in after.items() if not k.startswith(("memory/.cache", "memory/.state"))} == before


# ------------------------------------------------------------------------- time zone

def _openclaw_config(tmp_path, zone):
    state = tmp_path / "home" / ".openclaw"
    state.mkdir(parents=True, exist_ok=True)
    (state / "openclaw.json").write_text(json.dumps({"agents": {"defaults": {"userTimezone": zone}}}),
                                         encoding="utf-8")


def test_notes_are_dated_in_the_users_time_zone(ws, run_script, tmp_path):
    morning = {"MEMORY_MANAGER_NOW": "2026-03-02T23:30:00+00:00"}  # 07:30 on 3 March in UTC+8
    _openclaw_config(tmp_path, "Asia/Shanghai")
    r = run_script("memory", "write", "--topic", "standup", "--change", "planned the day", "--json", env=morning)
    assert r.code == 0, r.err
    assert json.loads(r.out)["path"] == "memory/daily/2026-03-03.md"
    status = json.loads(run_script("memory", "status", "--json", env=morning).out)
    assert status["time_zone"] == {"name": "Asia/Shanghai", "source": "OpenClaw agents.defaults.userTimezone",
                                   "today": "2026-03-03"}
    assert "时区：Asia/Shanghai（OpenClaw agents.defaults.userTimezone）；今天是 2026-03-03" in \
        run_script("memory", "status", env=morning).out


def test_without_openclaw_setting_tz_decides_then_a_bad_name_is_passed_over(ws, run_script, tmp_path):
    evening = {"MEMORY_MANAGER_NOW": "2026-03-03T03:00:00+00:00", "TZ": "America/New_York"}  # 22:00 on 2 March
    r = run_script("memory", "write", "--topic", "late", "--change", "x", "--json", env=evening)
    assert json.loads(r.out)["path"] == "memory/daily/2026-03-02.md"
    assert json.loads(run_script("memory", "status", "--json", env=evening).out)["time_zone"]["source"] == "TZ"
    _openclaw_config(tmp_path, "Mars/Olympus_Mons")
    zone = json.loads(run_script("memory", "status", "--json", env=evening).out)["time_zone"]
    assert (zone["name"], zone["source"], zone["today"]) == ("America/New_York", "TZ", "2026-03-02")


# ------------------------------------------------------------------ repeated blocks

def test_cleanup_reports_repeated_blocks_and_leaves_openclaws_files_alone(ws, run_script):
    (ws / "memory/daily").mkdir(parents=True)
    flush = "## Flush 10:30\n- checked the deploy queue\n```\n# not a heading\n```\n"
    openclaw = ws / "memory/2026-03-02.md"
    openclaw.write_text("# 2026-03-02\n\n" + flush + "\n## Flush 12:00\n- lunch\n\n" + flush, encoding="utf-8")
    ours = ws / "memory/daily/2026-03-02.md"
    section = "## [2026-03-02] deploy\n- 改：rolled back\n```sh\n# undo\n```\n"
    ours.write_text(section + "\n" + section + "\n## [2026-03-02] other\n- 待：retry\n", encoding="utf-8")
    before = openclaw.read_bytes()
    r = run_script("cleanup", "--json", env=NOW)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert "memory/2026-03-02.md: block '## Flush 10:30' repeated 2 times (lines 3, 12; OpenClaw's file, " \
           "left unchanged)" in doc["problems"]
    assert "memory/daily/2026-03-02.md: block '## [2026-03-02] deploy' repeated 2 times (lines 1, 7; " \
           "merged into the first)" in doc["problems"]
    assert openclaw.read_bytes() == before
    assert ours.read_text(encoding="utf-8") == ("## [2026-03-02] deploy\n- 改：rolled back\n```sh\n# undo\n```\n\n"
                                                "## [2026-03-02] other\n- 待：retry\n")
    saved = (ws / ".memory-backup" / doc["backup"] / "files/memory/daily/2026-03-02.md").read_text(encoding="utf-8")
    assert saved.count("## [2026-03-02] deploy") == 2  # the original bytes are in the backup


# ------------------------------------------------------------------ lower-case memory.md

def test_a_lower_case_memory_md_stays_the_lessons_file(ws, run_script):
    original = "# my memory\n\n- zebra stripes are unique\n"
    (ws / "memory.md").write_text(original, encoding="utf-8")
    r = run_script("init", "--yes", "--lang", "en", "--json", "--no-hooks")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    names = {p.name for p in ws.iterdir()}
    if "MEMORY.md" in names and (ws / "MEMORY.md").samefile(ws / "memory.md"):
        return  # a case-insensitive file system: one file, nothing to tell apart
    assert "MEMORY.md" not in names
    assert any("memory.md is this workspace's lessons file" in note for note in doc["plan"]["notes"])
    lessons = (ws / "memory.md").read_text(encoding="utf-8")
    assert "- zebra stripes are unique" in lessons and lessons != original
    hits = json.loads(run_script("memory", "recall", "zebra", "--json", "--no-track").out)["hits"]
    assert [h["path"] for h in hits] == ["memory.md"]
    back = run_script("init", "--restore", doc["backup"], "--json")
    assert back.code == 0, back.err
    assert (ws / "memory.md").read_text(encoding="utf-8") == original
    assert "MEMORY.md" not in {p.name for p in ws.iterdir()}


def test_init_names_a_memory_md_that_differs_from_memory_upper(ws, run_script):
    (ws / "MEMORY.md").write_text("# Lessons\n\n- short answers\n", encoding="utf-8")
    (ws / "memory.md").write_text("- zebra herds\n", encoding="utf-8")
    if (ws / "MEMORY.md").samefile(ws / "memory.md"):
        return  # case-insensitive file system
    r = run_script("init", "--yes", "--lang", "en", "--no-hooks")
    assert r.code == 0, r.err
    assert "memory.md differs from MEMORY.md" in (r.out + r.err).replace("\n", " ")
    assert (ws / "memory.md").read_text(encoding="utf-8") == "- zebra herds\n"
    hits = json.loads(run_script("memory", "recall", "zebra", "--json", "--no-track").out)["hits"]
    assert [h["path"] for h in hits] == ["memory.md"]
