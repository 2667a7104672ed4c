"""Memory files -> entries: sections, ids, dates, tags, pinned flag, sources."""
from pathlib import Path

from memory_manager.entries import daily_id
from memory_manager.units import parse_file, parse_text, source_files, stable_id

DAILY = """# 2026-03-03

## [2026-03-03] 记忆系统升级
<!-- id: d-20260303-1a2b3c4d -->
<!-- pinned -->
- 因：飞书日报总是漏发
- 改：配置机器人

## Deploy notes
```
## not a heading (code)
```
- Cause: slow
"""

KNOWLEDGE = """---
format: cmm-knowledge
version: 1
id: k-deploy
key: deploy
tags: [deploy, python]
created: 2026-01-10
updated: 2026-02-01
---
# Deploy
Use rsync.
"""


def test_daily_sections():
    entries = parse_text("memory/daily/2026-03-03.md", "daily", DAILY)
    assert [e.heading for e in entries] == ["[2026-03-03] 记忆系统升级", "Deploy notes"]
    first, second = entries
    assert first.id == "d-20260303-1a2b3c4d" and first.pinned and first.date == "2026-03-03"
    assert first.text == "- 因：飞书日报总是漏发\n- 改：配置机器人"
    assert second.id == daily_id("2026-03-03", "Deploy notes")  # a hand-written section of a daily note
    assert second.date == "2026-03-03"          # from the "# date" title
    assert "## not a heading" in second.text    # fenced code is not a section break
    assert not second.pinned
    assert DAILY[first.span[0]:first.span[1]].startswith("## [2026-03-03] 记忆系统升级\n")
    assert DAILY[second.span[0]:second.span[1]].endswith("- Cause: slow\n")


def test_knowledge_entry_is_one_unit_with_frontmatter():
    (entry,) = parse_text("memory/knowledge/deploy.md", "knowledge", KNOWLEDGE)
    # dated by its last change (frontmatter updated), issue 13
    assert (entry.id, entry.heading, entry.date, entry.tags) == ("k-deploy", "deploy", "2026-02-01", ["deploy", "python"])
    assert entry.text == "# Deploy\nUse rsync."


def test_preamble_becomes_an_entry_only_with_content():
    text = "# MEMORY.md\n\n- The build server is rebuilt on Mondays.\n\n## Prefs\n- short answers\n"
    entries = parse_text("MEMORY.md", "memory_md", text)
    assert [(e.heading, e.date) for e in entries] == [("MEMORY.md", None), ("Prefs", None)]
    assert parse_text("x.md", "summary", "# Title only\n\n## A\nbody\n")[0].heading == "A"


def test_duplicate_headings_get_distinct_ids():
    a, b = parse_text("memory/2026-01-01.md", "openclaw", "## Same\none\n## Same\ntwo\n")
    assert a.id != b.id


def test_malformed_frontmatter_is_named_and_never_an_entry():
    for kind in ("knowledge", "openclaw", "daily"):
        found, error = parse_file("memory/knowledge/x.md", kind, "---\n[unclosed\n---\nbody\n")
        assert (found, error) == ([], "frontmatter is not valid YAML (line 2)")
    assert parse_text("memory/x.md", "openclaw", "---\nkey: 1\nno end\n") == []


def test_source_files(ws: Path):
    for rel in ["memory/daily/2026-03-03.md", "memory/knowledge/deploy.md", "memory/2026-03-01.md",
                "memory/2026-03-02-meeting.md", "MEMORY.md", "memory/summaries/2026-03-01-summary.md",
                "library/insights/a.md", "memory/archive/2026-01/daily-2026-01-01.md",
                "memory/daily-index.md", "memory/tier2-internal/s_t.md", "memory/notes.md"]:
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text("## x\ny\n", encoding="utf-8")
    assert source_files(ws) == [
        ("memory/daily/2026-03-03.md", "daily"), ("memory/knowledge/deploy.md", "knowledge"),
        ("memory/2026-03-01.md", "openclaw"), ("memory/2026-03-02-meeting.md", "openclaw"),
        ("MEMORY.md", "memory_md"), ("memory/summaries/2026-03-01-summary.md", "summary"),
        ("library/insights/a.md", "library")]
