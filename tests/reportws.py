"""A workspace with something in every part of the report, built through the package's own writers.

:func:`build` fills a folder with: daily notes on 30 days in the window (and
three older ones that cleanup has archived), OpenClaw's own notes, knowledge
entries with tags and recalls, lessons in MEMORY.md, T1 statistics and
patterns, T2 entries, usage records of two sessions (with a compaction), a
privacy audit, a cleanup and the gate decisions all of these made. It
returns what a test checks against (topics, planted tokens, T2 plaintext).
Used by tests/test_report*.py and dev/report_screenshot.py.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import privacy_fakes as fakes  # noqa: E402

#: "Today" of the built workspace (MEMORY_MANAGER_NOW while building and reporting).
NOW = "2026-11-30T09:30:00+00:00"
TODAY = date(2026, 11, 30)

TOPICS_EN = ["Deploy pipeline", "Flaky login test", "Release notes", "Backup rotation", "Search latency",
             "Onboarding doc", "Cache warm-up", "Weekly report"]
TOPICS_ZH = ["周报自动化", "飞书机器人", "日志清理", "数据库迁移"]


@dataclass
class Built:
    """What :func:`build` wrote (for assertions)."""

    ws: Path
    topics: list[tuple[str, str]] = field(default_factory=list)   # (topic, date) of each section in the window
    old_topics: list[str] = field(default_factory=list)   # written before the window (archived by cleanup)
    daily_token: str = ""
    openclaw_token: str = ""
    openclaw_headings: list[str] = field(default_factory=list)
    knowledge_keys: list[str] = field(default_factory=list)
    t2_texts: list[str] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)


@contextmanager
def clock(when: str):
    """Set MEMORY_MANAGER_NOW for the block (the package reads it on every call)."""
    before = os.environ.get("MEMORY_MANAGER_NOW")
    os.environ["MEMORY_MANAGER_NOW"] = when
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("MEMORY_MANAGER_NOW", None)
        else:
            os.environ["MEMORY_MANAGER_NOW"] = before


def _at(day: date, hour: int = 9, minute: int = 0) -> str:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc).isoformat()


def build(ws: Path, lang: str = "en", audit: bool = True, cleanup: bool = True) -> Built:
    """Fill ``ws`` (an existing folder, possibly a copy of examples/sample-workspace); return a :class:`Built`."""
    from memory_manager import access, hookrun, store
    from memory_manager.context import Usage
    from memory_manager.workspace import Workspace

    ws = Path(ws)
    store.ensure_tree(ws)
    opened = Workspace(ws)
    if lang != "en" or not opened.paths.override.exists():
        opened.paths.override.write_text(f'{{"language": "{lang}"}}\n', encoding="utf-8")
    cfg = Workspace(ws).config
    out = Built(ws)

    # Three notes from before the window: the cleanup below archives them (low value, old).
    for n, topic in enumerate(["Old migration plan", "Old vendor call", "Old laptop setup"]):
        day = TODAY - timedelta(days=60 + n)
        with clock(_at(day)):
            store.write_daily(ws, cfg, topic=topic, cause=["an old reason"], change=["an old change"], day=day.isoformat())
        out.old_topics.append(topic)
    if cleanup:
        from memory_manager.cleanup import run_cleanup
        from memory_manager.prune import prune

        with clock(_at(TODAY - timedelta(days=31))):
            prune(ws, cfg)  # what `memory.py prune` does: the old notes go to the archive
            run_cleanup(ws, cfg)

    topics = TOPICS_EN + TOPICS_ZH
    for n in range(30):  # one or two notes on every day of the window
        day = TODAY - timedelta(days=n)
        for k in range(1 + (n % 3 == 0)):
            topic = topics[(n + 5 * k) % len(topics)]
            zh = topic[0] >= "\u4e00"
            with clock(_at(day, 9 + k)):
                store.write_daily(ws, cfg, topic=topic,
                                  cause=["用户要求每周五发送" if zh else f"the {topic.lower()} needed work"],
                                  change=["改成了定时任务" if zh else "changed the schedule and checked the logs"],
                                  todo=["下周复查" if zh else "check again next week"], day=day.isoformat())
            out.topics.append((topic, day.isoformat()))

    # A token pasted into a daily note by hand (the gate never saw it).
    out.daily_token = fakes.fake("GITHUB_PAT", seed=21)
    note = ws / "memory" / "daily" / f"{(TODAY - timedelta(days=2)).isoformat()}.md"
    with note.open("a", encoding="utf-8") as handle:
        handle.write(f"\n## [{(TODAY - timedelta(days=2)).isoformat()}] CI token rotation\n"
                     f"- Change: set GITHUB_TOKEN={out.daily_token} in the runner\n")
    out.topics.append(("CI token rotation", (TODAY - timedelta(days=2)).isoformat()))

    # OpenClaw's own notes (memory/YYYY-MM-DD.md), one with a key in it.
    out.openclaw_token = fakes.fake("OPENAI_KEY", seed=22)
    for n, (heading, body) in enumerate([
            ("Flush 08:40", "- Talked about the release checklist.\n- The user wants a summary first."),
            ("Session summary", f"- Tried the API with key {out.openclaw_token} and it worked."),
            ("Flush 17:05", "- 整理了本周的待办。")]):
        day = TODAY - timedelta(days=1 + 3 * n)
        path = ws / "memory" / f"{day.isoformat()}.md"
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"# {day.isoformat()}\n\n## {heading}\n{body}\n")
        out.openclaw_headings.append(heading)

    for key, text, tags in [("deploy-rules", "Deploy only after the build is green.", ["deploy", "ci"]),
                            ("report-format", "Weekly reports go out on Friday afternoon.", ["report"]),
                            ("飞书-webhook", "机器人消息使用卡片格式。", ["飞书", "bot"])]:
        with clock(_at(TODAY - timedelta(days=5))):
            store.learn(ws, cfg, key=key, text=text, tags=tags)
        out.knowledge_keys.append(key)
    with clock(_at(TODAY - timedelta(days=1))):
        from memory_manager.entries import knowledge_id

        for _ in range(3):
            access.record(ws, [knowledge_id("deploy-rules")])

    lessons = opened.paths.memory_md
    if not lessons.exists():
        lessons.write_text("# MEMORY.md\n\n## Lessons\n- Check the calendar before planning a release.\n"
                           "- Small pull requests get reviewed the same day.\n", encoding="utf-8")

    for n, (skill, ok_calls, fail_calls) in enumerate([("weather", 40, 2), ("calendar", 18, 6),
                                                       ("feishu-bot", 9, 0), ("web-search", 25, 11)]):
        with clock(_at(TODAY - timedelta(days=n))):
            for i in range(ok_calls + fail_calls):
                store.stats_record(ws, cfg, skill=skill, ok=i < ok_calls)
        out.skills.append(skill)
    with clock(NOW):
        store.stats_pattern(ws, cfg, trigger="morning briefing", skills=["weather", "calendar"])

    for skill, topic, text, days_ago in [("notes", "prefs", "prefers green tea after lunch, PLAINTEXT-TEA-7", 3),
                                         ("notes", "style", "likes short answers, PLAINTEXT-STYLE-8", 26),
                                         ("feishu-bot", "channel", "posts go to the team channel, PLAINTEXT-BOT-9", 10)]:
        with clock(_at(TODAY - timedelta(days=days_ago))):
            store.remember(ws, cfg, skill=skill, topic=topic, text=text)
        out.t2_texts.append(text)

    # Usage records of two sessions, as the hooks write them; one compaction.
    for key, window, series in [("agent:main:main", 200000, [12, 25, 41, 55, 68, 74, 86, 30, 44, 52]),
                                ("agent:main:cron", 32768, [8, 15, 22, 35, 48, 61])]:
        for n, pct in enumerate(series):
            at = datetime(2026, 11, 29, 8, 0, tzinfo=timezone.utc) + timedelta(minutes=40 * n)
            with clock(at.isoformat()):
                hookrun.record_usage(ws, "message:sent", Usage(agent="main", session_key=key, used=window * pct // 100,
                                                      window=window, source="entry"), cfg)
        out.sessions.append(key)
    with clock(datetime(2026, 11, 29, 12, 30, tzinfo=timezone.utc).isoformat()):  # between 86 % and 30 %
        hookrun.record_usage(ws, "session:compact:before",
                             Usage(agent="main", session_key="agent:main:main", used=176000, window=200000,
                                   source="event"), cfg)

    if audit:
        from memory_manager.audit import audit_workspace, record_last

        with clock(NOW):
            record_last(ws, audit_workspace(ws, cfg))
    return out
