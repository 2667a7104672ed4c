import json

import pytest

from conftest import tree_hash
from memory_manager import store, transfer
from memory_manager.config import load_config
from memory_manager.errors import BadInputError, GateDecisionError


@pytest.fixture
def cfg():
    return load_config()


@pytest.fixture(autouse=True)
def fixed_now(monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-03-03T09:00:00+00:00")


def _fill(ws, cfg):
    store.write_daily(ws, cfg, topic="记忆系统升级", cause=["混乱"], change=["调整"], todo=["检查"])
    store.learn(ws, cfg, key="react", text="hooks 🎣", tags="js")
    store.stats_record(ws, cfg, skill="skill-a", ok=True)
    store.remember(ws, cfg, skill="my-skill", topic="prefs", text="偏好：简洁")


def test_export_needs_approval_and_keeps_t2_encrypted(ws, cfg, tmp_path):
    _fill(ws, cfg)
    out = tmp_path / "export.json"
    with pytest.raises(GateDecisionError):
        transfer.export(ws, cfg, out=out)
    assert not out.exists()
    r = transfer.export(ws, cfg, out=out, approved=True)
    assert r["counts"] == {"daily": 1, "knowledge": 1, "tier1": 1, "tier2": 1, "archive": 0, "lessons": 0}
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["format"] == "cmm-export" and doc["version"] == 3
    assert doc["daily"][0]["cause"] == ["混乱"] and doc["knowledge"][0]["body"] == "hooks 🎣"
    assert "偏好" not in out.read_text(encoding="utf-8")
    assert oct(out.stat().st_mode & 0o777) == "0o600"


def test_export_import_round_trip_into_an_empty_workspace(ws, cfg, tmp_path):
    _fill(ws, cfg)
    out = tmp_path / "export.json"
    transfer.export(ws, cfg, out=out, approved=True)
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(GateDecisionError):
        transfer.import_memory(other, cfg, source_file=out)
    r = transfer.import_memory(other, cfg, source_file=out, approved=True)
    assert r["counts"] == {"daily": 1, "daily_lines": 3, "knowledge": 1, "tier1": 1, "tier2": 1, "archive": 0,
                             "lessons": 0}
    for rel in ("memory/daily/2026-03-03.md", "memory/daily-index.md", "memory/knowledge-index.md",
                "memory/tier1-public/skill-a_stats.json", "memory/tier2-internal/my-skill_prefs.md"):
        assert (other / rel).read_bytes() == (ws / rel).read_bytes(), rel
    assert store.show(other, cfg, "memory/tier2-internal/my-skill_prefs.md", approved=True)["text"] == "偏好：简洁"
    before = tree_hash(other / "memory")
    again = transfer.import_memory(other, cfg, source_file=out, approved=True)
    assert again["counts"] == {"daily": 0, "daily_lines": 0, "knowledge": 0, "tier1": 0, "tier2": 0, "archive": 0,
                                 "lessons": 0}
    assert {k: v for k, v in tree_hash(other / "memory").items() if ".state" not in k} == \
        {k: v for k, v in before.items() if ".state" not in k}


def test_import_keeps_the_benign_lines_of_a_section_with_a_refused_line(ws, cfg, tmp_path):
    doc = {"format": "cmm-export", "version": 1,
           "daily": [{"date": "2026-03-02", "topic": "router", "cause": ["moved the router to the hall"],
                      "change": ["家里路由器密码 mango2291home", "firmware 1.4.2 installed"], "todo": []}]}
    path = tmp_path / "in.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = transfer.import_memory(ws, cfg, source_file=path, approved=True)
    assert r["counts"]["daily_lines"] == 2
    assert [s.split(":")[0] for s in r["skipped"]] == ["daily[0] line 2"]
    text = (ws / "memory/daily/2026-03-02.md").read_text(encoding="utf-8")
    assert "moved the router to the hall" in text and "firmware 1.4.2 installed" in text
    assert "mango2291home" not in text


def test_import_skips_a_secret_item_and_reports_it(ws, cfg, tmp_path):
    doc = {"format": "cmm-export", "version": 1,
           "daily": [{"date": "2026-03-01", "topic": "ok", "cause": [], "change": ["fine"], "todo": []},
                     {"date": "2026-03-01", "topic": "leak", "cause": [], "change": ["sk-" + "C" * 40], "todo": []},
                     {"date": "2026-03-01", "topic": "two\nlines", "change": ["x"]}],
           "knowledge": [{"key": "../../etc/passwd", "body": "x"},
                         {"key": "k", "body": "fine", "frontmatter_text": "key: k\ntoken: sk-" + "F" * 40}]}
    path = tmp_path / "in.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = transfer.import_memory(ws, cfg, source_file=path, approved=True)
    assert r["counts"]["daily"] == 1
    assert len(r["skipped"]) == 2 and r["skipped"][0].startswith("daily[1] line 1: refuse")
    assert r["skipped"][1].startswith("knowledge k: refuse") and not (ws / "memory/knowledge/k.md").exists()
    assert len(r["problems"]) == 2
    assert "sk-" not in (ws / "memory/daily/2026-03-01.md").read_text(encoding="utf-8")
    assert not (tmp_path / "etc").exists()


@pytest.mark.parametrize("content,fragment", [("{", "not valid JSON"), ('{"format": "x"}', "not a cmm-export"),
                                              ('{"format": "cmm-export", "version": 4}', "version")])
def test_bad_export_files_are_bad_input(ws, cfg, tmp_path, content, fragment):
    path = tmp_path / "in.json"
    path.write_text(content)
    with pytest.raises(BadInputError, match=fragment):
        transfer.import_memory(ws, cfg, source_file=path, approved=True)
    with pytest.raises(BadInputError):
        transfer.import_memory(ws, cfg, approved=True)


OPENCLAW_NOTE = """# Session: 2026-02-10 14:30:00 UTC

- **Session Key**: agent:main:main
- **Source**: webchat

## Conversation Summary

user: can you set up the weekly report?
assistant: done, it runs on Fridays
"""


def test_import_openclaw_notes_as_daily_entries(ws, cfg):
    note = ws / "memory" / "2026-02-10-weekly-report.md"
    note.parent.mkdir(parents=True)
    note.write_text(OPENCLAW_NOTE, encoding="utf-8")
    plain = ws / "memory" / "2026-02-11.md"
    plain.write_text("Reads tech headlines first.\n", encoding="utf-8")
    r = transfer.import_memory(ws, cfg, from_openclaw=True, approved=True)
    assert r["counts"]["daily"] == 3
    # one section per heading of the note (walk-through r3, item 23): the lead, then "## Conversation Summary"
    lead, summary = store.entries.parse_daily((ws / "memory/daily/2026-02-10.md").read_text(encoding="utf-8"))
    assert lead.topic == "weekly report"
    assert lead.lines_of("cause") == ["从 OpenClaw 笔记导入：memory/2026-02-10-weekly-report.md"]
    assert lead.lines_of("change") == ["Session: 2026-02-10 14:30:00 UTC", "**Session Key**: agent:main:main",
                                       "**Source**: webchat"]
    assert summary.topic == "weekly report: Conversation Summary"
    assert summary.lines_of("change") == ["user: can you set up the weekly report?",
                                          "assistant: done, it runs on Fridays"]
    assert "- OpenClaw note → daily/2026-02-11.md" in (ws / "memory/daily-index.md").read_text(encoding="utf-8")
    assert note.read_text(encoding="utf-8") == OPENCLAW_NOTE
    again = transfer.import_memory(ws, cfg, from_openclaw=True, approved=True)
    assert again["counts"]["daily_lines"] == 0


def test_round_trip_keeps_user_frontmatter_byte_for_byte(ws, cfg, tmp_path):
    original = "---\nkey: deploy\nanswer: NO\nswitch: on\nmode: 0755\nrelease: 1.10\nwhen: 2026-03-03\n说明: 中文\n---\n\nsteps\n"
    path = ws / "memory/knowledge/deploy.md"
    path.parent.mkdir(parents=True)
    path.write_text(original, encoding="utf-8")
    out = tmp_path / "x.json"
    transfer.export(ws, cfg, out=out, approved=True)
    other = tmp_path / "other"
    other.mkdir()
    r = transfer.import_memory(other, cfg, source_file=out, approved=True)
    assert r["counts"]["knowledge"] == 1
    assert (other / "memory/knowledge/deploy.md").read_text(encoding="utf-8") == original
