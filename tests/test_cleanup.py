"""cleanup: each step on fixtures with exact expected trees, dry-run, restore, symlinks, bad dates."""
from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from conftest import tree_hash
from memory_manager import backups, crypto, tiers
from memory_manager.cleanup import run_cleanup
from memory_manager.clock import month_of
from memory_manager.config import load_config

NOW = "2026-11-29T12:00:00+00:00"


@pytest.fixture
def mem(ws, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", NOW)
    for sub in ("daily", "knowledge", "tier1-public", "tier2-internal", "archive"):
        (ws / "memory" / sub).mkdir(parents=True, exist_ok=True)
    (ws / "memory" / "daily-index.md").write_text("# 记忆索引\n")
    (ws / "memory" / "knowledge-index.md").write_text("# 知识库索引\n")
    return ws


def t2(ws: Path, skill: str, topic: str, text: str, created: date) -> Path:
    cfg = load_config(ws)
    month = month_of(created)
    sealed = crypto.encrypt(text, skill, month, cfg, "xor-b64")
    path = tiers.t2_path(ws, skill, topic)
    path.write_text(tiers.render_t2(skill, topic, sealed, created, 30, month, "en"))
    return path


def user_tree(ws):
    """The tree without our private folders: backups, state, and the derived recall cache."""
    return {k: v for k, v in tree_hash(ws).items()
            if not k.startswith((".memory-backup", "memory/.state", "memory/.cache"))}


def run(ws, **kw):
    return run_cleanup(ws, load_config(ws), **kw)


def test_expired_t2_moves_byte_identical_to_creation_month(mem):
    old = t2(mem, "news", "sources", "Reads tech headlines first.", date(2026, 9, 3))
    fresh = t2(mem, "news", "layout", "Prefers short summaries.", date(2026, 11, 20))
    old_bytes = old.read_bytes()
    report = run(mem)
    assert report.log_line == "[2026-11-29] Memory cleanup: 1 archived, 0 deleted, 0 merged"
    target = mem / "memory/archive/2026-09/news_sources.md"
    assert target.read_bytes() == old_bytes and not old.exists() and fresh.exists()
    assert (mem / "memory/.state/cleanup.log").read_text() == report.log_line + "\n"
    assert [a.step for a in report.actions] == ["archive"]


def test_past_expires_is_archived_even_when_recent(mem):
    path = t2(mem, "news", "x", "text", date(2026, 11, 25))
    text = path.read_text().replace("expires: 2026-12-25", "expires: 2026-11-28")
    path.write_text(text)
    assert run(mem).archived == 1
    assert (mem / "memory/archive/2026-11/news_x.md").read_text() == text


def test_certain_finding_purged_without_backup_copy_and_redacted_audit(mem):
    token = "ghp_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"  # a published token format: certain
    pii = t2(mem, "crm", "contact", f"Deploy with {token}", date(2026, 11, 25))
    t2(mem, "crm", "tone", "Prefers a friendly tone.", date(2026, 11, 25))
    report = run(mem)
    assert not pii.exists()
    assert report.deleted == 1 and report.actions[0].step == "purge"
    everything = b"".join(p.read_bytes() for p in mem.rglob("*") if p.is_file())
    assert token.encode() not in everything
    audit = [json.loads(l) for l in (mem / "memory/.state/gate-audit.jsonl").read_text().splitlines()]
    assert audit[0]["decision"] == "purge_pii" and audit[0]["categories"] == ["secret"]
    assert "ghp_" not in json.dumps(audit)


def test_possible_finding_quarantined_not_destroyed(mem):
    email = "alice.chen" + "@" + "mailbox-hq.net"  # not a reserved domain: the detector ignores those
    pii = t2(mem, "crm", "contact", f"Send the weekly report to {email}", date(2026, 11, 25))
    report = run(mem)
    assert not pii.exists() and report.deleted == 0 and report.quarantined == 1
    assert report.actions[0].step == "quarantine"
    held = list((mem / "memory/.quarantine").iterdir())
    assert len(held) == 1 and email.encode() not in held[0].read_bytes()


def test_health_topic_is_not_purged(mem):
    path = t2(mem, "coach", "plan", "Avoid scheduling workouts on days with medication changes.", date(2026, 11, 25))
    assert run(mem).deleted == 0 and path.exists()


def test_duplicate_t2_and_daily_sections_merge(mem):
    a = t2(mem, "news", "a", "Prefers short   summaries.", date(2026, 11, 20))
    b = t2(mem, "news", "b", "Prefers short summaries.", date(2026, 11, 22))
    daily = mem / "memory/daily/2026-11-28.md"
    daily.write_text("## [2026-11-28] 飞书配置\n- 因：需要通知\n- 改：加了机器人\n- 改：加了机器人\n\n"
                     "## [2026-11-28] 日报\n- 因：x\n\n"
                     "## [2026-11-28] 飞书配置\n- 因：需要通知\n- 待：测试群消息\n")
    report = run(mem)
    assert a.exists() and not b.exists()
    assert daily.read_text() == ("## [2026-11-28] 飞书配置\n- 因：需要通知\n- 改：加了机器人\n- 待：测试群消息\n\n"
                                 "## [2026-11-28] 日报\n- 因：x\n")
    assert report.merged == 3  # one T2 duplicate, one duplicate section, one repeated line
    index = (mem / "memory/daily-index.md").read_text()
    assert "飞书配置 → daily/2026-11-28.md" in index


def test_compact_same_skill_and_month(mem):
    t2(mem, "news", "a", "one", date(2026, 11, 20))
    t2(mem, "news", "b", "two", date(2026, 11, 21))
    t2(mem, "mail", "c", "three", date(2026, 11, 21))
    run(mem)
    names = sorted(p.name for p in (mem / "memory/tier2-internal").iterdir())
    assert names == ["mail_c.md", "news_2026-11.md"]
    cfg = load_config(mem)
    texts = sorted(tiers.decrypt_entry(e, cfg) for e in tiers.iter_t2_entries(mem))
    assert texts == ["one", "three", "two"]


def test_memory_md_duplicates_need_approval(mem):
    memory_md = mem / "MEMORY.md"
    memory_md.write_text("# M\n\n- Use trash, not rm.\n- Other.\n-  Use trash,  not rm.\n")
    report = run(mem)
    assert memory_md.read_text() == "# M\n\n- Use trash, not rm.\n- Other.\n-  Use trash,  not rm.\n"
    assert report.actions[0].detail == "line 5 duplicates an earlier line: reported (removing it needs --approved)"
    report = run(mem, approved=True)
    assert memory_md.read_text() == "# M\n\n- Use trash, not rm.\n- Other.\n"
    assert report.deleted == 1


def test_archive_retention_listed_then_purged(mem, t2_key):
    folder = mem / "memory/archive/2026-01"
    folder.mkdir()
    (folder / "news_old.md").write_text("old")
    (mem / "memory/.state").mkdir()
    (mem / "memory/.state/archive-ledger.json").write_text(json.dumps(
        {"format": "cmm-archive-ledger", "version": 1, "archived": {"memory/archive/2026-01/news_old.md": "2026-02-01T00:00:00+00:00"}}))
    report = run(mem)
    assert [a.step for a in report.actions] == ["retention"] and (folder / "news_old.md").exists()
    report = run(mem, purge_archive=True)
    assert not (folder / "news_old.md").exists() and report.deleted == 1
    # An archive copy is T2 content: stored encrypted with the T2 key.
    copy = backups.backup_root(mem) / report.backup / "files/memory/archive/2026-01/news_old.md"
    assert b"old" not in copy.read_bytes()
    assert backups.read_copy(mem, report.backup, "memory/archive/2026-01/news_old.md") == b"old"


def test_dry_run_changes_nothing(mem):
    t2(mem, "news", "sources", "old", date(2026, 9, 3))
    t2(mem, "news", "a", "x", date(2026, 11, 20))
    t2(mem, "news", "b", "x", date(2026, 11, 21))
    before = tree_hash(mem)
    report = run(mem, dry_run=True)
    assert tree_hash(mem) == before
    assert [a.step for a in report.actions] == ["archive", "merge"]
    assert report.log_line == "[2026-11-29] Memory cleanup: 1 archived, 0 deleted, 1 merged"


def test_restore_undoes_cleanup(mem, t2_key):
    t2(mem, "news", "sources", "old", date(2026, 9, 3))
    t2(mem, "news", "a", "x", date(2026, 11, 20))
    t2(mem, "news", "b", "y", date(2026, 11, 21))
    (mem / "memory/daily/2026-11-28.md").write_text("## [2026-11-28] T\n- 改：a\n- 改：a\n")
    # The index as a write would leave it: a restore rebuilds the derived indexes from the files.
    from memory_manager import entries

    entries.rebuild_indexes(mem, load_config(mem))
    before = user_tree(mem)
    report = run(mem)
    assert user_tree(mem) != before
    backups.restore(mem, report.backup)
    after = user_tree(mem)
    # The archive month folder that cleanup created stays only if not empty: here it goes.
    assert after == before


def test_symlinks_are_never_followed(mem, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("---\ntier: internal\ncreated: 2020-01-01\n---\nplain text with bob@example.org\n")
    (mem / "memory/tier2-internal/evil_link.md").symlink_to(outside)
    report = run(mem)
    assert outside.read_text().startswith("---\ntier: internal")
    assert (mem / "memory/tier2-internal/evil_link.md").is_symlink()
    assert any("symlink" in p for p in report.problems)


@pytest.mark.parametrize("created,expect_archived", [
    ("garbage", 0), ("2026-09-01T10:00:00+08:00", 1), ("'2026-09-01'", 1), ("2026-09-01 10:00", 1), ("[1, 2]", 0),
])
def test_malformed_dates_handled_or_reported(mem, created, expect_archived):
    path = t2(mem, "news", "x", "text", date(2026, 11, 25))
    text = path.read_text().replace("created: 2026-11-25", f"created: {created}")
    path.write_text(text)
    report = run(mem)
    assert report.archived == expect_archived
    if not expect_archived:
        assert any("created date missing or not a date" in p for p in report.problems)


def test_if_due(mem, monkeypatch):
    assert run(mem, if_due=True).ran
    assert not run(mem, if_due=True).ran
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-12-07T12:00:00+00:00")
    assert run(mem, if_due=True).ran


def test_openclaw_notes_and_t1_never_rewritten(mem):
    note = mem / "memory/2026-08-01.md"
    note.write_text("# raw\n- x\n- x\n")
    stats = mem / "memory/tier1-public/news_stats.json"
    stats.write_text('{"skill_stats": {}, "patterns_observed": []}\n')
    run(mem)
    assert note.read_text() == "# raw\n- x\n- x\n" and stats.read_text() == '{"skill_stats": {}, "patterns_observed": []}\n'


def _daily_entries(ws, n, day="2026-10-01"):
    lines = [f"## [{day}] topic {i}\n- 改：note number {i}\n" for i in range(n)]
    (ws / "memory/daily" / f"{day}.md").write_text("\n".join(lines))


def test_cleanup_applies_the_capacity_window_not_the_threshold(mem):
    _daily_entries(mem, 5)
    # Old, untagged, never recalled: value 0.5 < 0.6, but only the window applies by default.
    assert [a.step for a in run(mem).actions] == []
    (mem / "memory" / "memory-manager.json").write_text('{"prune": {"window": 3}}')
    report = run(mem)
    assert [a.step for a in report.actions] == ["prune", "prune"]
    assert report.archived == 2
    text = (mem / "memory/archive/2026-10/daily-2026-10-01.md").read_text()
    assert text.count("<!-- archived:") == 2
    # One backup holds the whole cleanup: restoring it gives the notes back.
    backups.restore(mem, report.backup)
    assert (mem / "memory/daily/2026-10-01.md").read_text().count("## [2026-10-01]") == 5
    assert not (mem / "memory/archive/2026-10").exists()


def test_auto_threshold_prunes_low_value_entries(mem):
    _daily_entries(mem, 2)
    (mem / "memory" / "memory-manager.json").write_text('{"prune": {"auto_threshold": true}}')
    report = run(mem, dry_run=True)
    assert [a.step for a in report.actions] == ["prune", "prune"]
    # 59 days old: time decay at its floor 0.1; never recalled: access 0; untagged: tags 0.5.
    # Value = (0.1 + 0 + 0.5) / 3 = 0.200 (weights 0.2 each, rescaled to a third).
    assert report.actions[0].detail == "[2026-10-01] topic 0: value 0.200 below threshold 0.6"


def test_a_clock_time_is_not_pii(mem):
    path = t2(mem, "weather", "api", "The weather API answers slowly before 8am.", date(2026, 11, 25))
    assert run(mem).deleted == 0 and path.exists()


def test_outdated_usage_patterns_retire_to_the_archive(mem):
    stats = mem / "memory/tier1-public/editor_stats.json"
    doc = {"format": "cmm-t1-stats", "version": 1, "skill_stats": {},
           "patterns_observed": [
               {"trigger": "morning report", "skills_used": ["editor"], "count": 4, "last_seen": "2026-08-01"},
               {"trigger": "weekly review", "skills_used": ["editor"], "count": 2, "last_seen": "2026-11-01"},
               {"trigger": "seed pattern", "skills_used": ["editor"], "count": 9}]}
    stats.write_text(json.dumps(doc), encoding="utf-8")
    before = stats.read_bytes()
    report = run(mem, dry_run=True)
    assert report.patterns_retired == 1 and stats.read_bytes() == before
    report = run(mem)
    assert report.as_dict()["patterns_retired"] == 1
    kept = json.loads(stats.read_text(encoding="utf-8"))["patterns_observed"]
    # 2026-08-01 is 120 days before 2026-11-29 (> 90); the undated one is dated today, not retired
    assert [(p["trigger"], p["last_seen"]) for p in kept] == [("weekly review", "2026-11-01"),
                                                             ("seed pattern", "2026-11-29")]
    archived = json.loads((mem / "memory/archive/2026-11/patterns-editor_stats.json").read_text(encoding="utf-8"))
    assert archived == {"format": "cmm-archived-patterns", "version": 1,
                        "source": "memory/tier1-public/editor_stats.json",
                        "patterns": [{"trigger": "morning report", "skills_used": ["editor"], "count": 4,
                                      "last_seen": "2026-08-01", "retired": "2026-11-29"}]}
    assert any(a.step == "patterns" for a in report.actions)
    # backed up first: restoring the run's backup brings the pattern back
    backups.restore(mem, report.backup)
    assert stats.read_bytes() == before


def test_record_pattern_keeps_last_seen(mem):
    doc = {"skill_stats": {}, "patterns_observed": []}
    tiers.record_pattern(doc, "t", ["a"], date(2026, 11, 2))
    assert tiers.record_pattern(doc, "t", ["a"], date(2026, 11, 5)) == {
        "trigger": "t", "skills_used": ["a"], "count": 2, "last_seen": "2026-11-05"}
