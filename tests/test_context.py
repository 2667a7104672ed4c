"""Context usage from OpenClaw session stores (memory_manager.context)."""
from __future__ import annotations

import shutil

import pytest

from conftest import SHARED
from memory_manager import context
from memory_manager.config import load_config
from ocstore import assistant, legacy_store, sqlite_store, user

SHIPPED = SHARED / "openclaw" / "state-2026.9.6"
EN = {"language": "en", "context": dict(context.DEFAULT_CONTEXT)}
ZH = {"language": "zh", "context": dict(context.DEFAULT_CONTEXT)}


def entry(total=None, window=32768, fresh=True, version=1, **extra):
    doc = {"contextTokens": window, **extra}
    if total is not None:
        doc.update(totalTokens=total, totalTokensFresh=fresh)
        if version is not None:
            doc["totalTokensVersion"] = version
    return doc


#: The state folder a real OpenClaw 2026.9.6 wrote, when a local copy sits beside the
#: repository; without it these tests are deselected with a note (conftest.py). The
#: same shapes are covered in a clone by the stores ocstore.py builds.
on_shipped = pytest.mark.external(SHIPPED, reason="a state folder OpenClaw 2026.9.6 wrote")


@pytest.fixture
def shipped(tmp_path):
    return SHIPPED


@on_shipped
def test_shipped_store_main_session_29_percent(shipped):
    usage = context.measure(session_key="agent:main:main", state=shipped)
    assert (usage.used, usage.window, usage.percent, usage.source, usage.store) == (9548, 32768, 29, "entry", "sqlite")
    assert context.describe(usage, EN) == ("agent:main:main: 29% (9,548 / 32,768 tokens, from entry); "
                                           "compaction at 24,576, 15,028 tokens away")
    assert context.status_line(usage, EN) is None


@on_shipped
def test_shipped_store_most_recent_session_is_main(shipped):
    assert context.measure(state=shipped).session_key == "agent:main:main"


@on_shipped
def test_shipped_store_zstd_rows_decoded(shipped):
    db = shipped / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    events = context.read_transcript(db, "aad18973-c1c1-483b-9b94-4e2f4d901271")
    assert len(events) == 20 and None not in events
    assert events[9]["message"]["content"].startswith("message number 1 with some padding")
    assert events[17]["type"] == "compaction" and events[17]["tokensBefore"] == 10519
    # The newest assistant usage is the prompt side of the last call: 9,548.
    assert context.latest_assistant_usage(reversed(events)) == (9548, None)


@on_shipped
def test_shipped_store_is_opened_read_only(shipped, tmp_path):
    copy = tmp_path / "state"
    shutil.copytree(shipped, copy)
    db = copy / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    before = db.read_bytes()
    conn = context.open_readonly(db)
    with pytest.raises(Exception):
        conn.execute("delete from session_nodes")
    conn.close()
    assert db.read_bytes() == before


def test_fresh_entry(tmp_path):
    sqlite_store(tmp_path, {"agent:main:main": (entry(16384), [user(), assistant(99)])})
    usage = context.measure(state=tmp_path)
    assert (usage.used, usage.percent, usage.source) == (16384, 50, "entry")
    assert context.status_line(usage, EN) == \
        "📝 Context 50% used (16,384/32,768 tokens): anything worth saving to memory or the knowledge base?"
    assert context.status_line(usage, ZH) == \
        "📝 上下文已用 50%（16,384/32,768 tokens）：有值得存入记忆或知识库的内容吗？"


def test_stale_entry_uses_latest_assistant_prompt_side(tmp_path):
    events = [user(), assistant(1000), user(), assistant(20000, cache_read=2000, cache_write=1000), user("next")]
    sqlite_store(tmp_path, {"agent:main:main": (entry(30000, fresh=False, inputTokens=99), events)})
    usage = context.measure(session_key="agent:main:main", state=tmp_path)
    assert (usage.used, usage.percent, usage.source) == (23000, 70, "transcript")
    assert usage.notes == ["totalTokens is stale"]
    # 70 % of a 32k window is already within 4,000 tokens of compaction (24,576).
    assert context.status_line(usage, EN) == \
        "🚨 Context 70% used (23,000/32,768 tokens): compaction is near, record progress now!"


def test_70_percent_line_on_a_large_window(tmp_path):
    sqlite_store(tmp_path, {"agent:main:main": (entry(141000, window=200000), [])})
    usage = context.measure(state=tmp_path)
    assert context.status_line(usage, EN) == \
        "⚠️ Context 70% used (141,000/200,000 tokens): a good moment to record progress."
    assert context.status_line(usage, ZH) == \
        "⚠️ 上下文已用 70%（141,000/200,000 tokens）：建议现在记录当前进度。"


def test_wrong_version_is_stale(tmp_path):
    sqlite_store(tmp_path, {"k": (entry(5000, version=2), [assistant(3000)])})
    usage = context.measure(agent="main", session_key="k", state=tmp_path)
    assert (usage.used, usage.source) == (3000, "transcript")


def test_stale_entry_without_transcript_is_unknown_never_full(tmp_path):
    sqlite_store(tmp_path, {"agent:main:main": (entry(40000, fresh=False, inputTokens=40000), [])})
    usage = context.measure(state=tmp_path)
    assert usage.percent is None and usage.used is None
    assert context.status_line(usage, EN) is None
    assert context.describe(usage, EN) == \
        "Context usage unknown (totalTokens is stale; no assistant usage in the transcript)"
    assert context.describe(usage, ZH) == "上下文使用率未知（totalTokens 已过期；对话记录中没有助手的用量）"


def test_overflowing_fresh_counter_falls_back(tmp_path):
    sqlite_store(tmp_path, {"agent:main:main": (entry(50000), [user(), assistant(30000)])})
    usage = context.measure(state=tmp_path)
    assert (usage.used, usage.percent, usage.source) == (30000, 91, "transcript")
    assert context.level(usage, EN) == 3
    assert context.status_line(usage, EN) == \
        "🚨 Context 91% used (30,000/32,768 tokens): compaction is near, record progress now!"


def test_overflowing_transcript_figure_is_not_trusted(tmp_path):
    sqlite_store(tmp_path, {"agent:main:main": (entry(50000), [assistant(40000)])})
    usage = context.measure(state=tmp_path)
    assert usage.percent is None
    assert "transcript usage 40000 does not fit the window 32768" in usage.notes


def test_usage_before_a_compaction_is_not_used(tmp_path):
    events = [assistant(25000), {"type": "compaction", "tokensBefore": 25000}, user()]
    sqlite_store(tmp_path, {"agent:main:main": (entry(None), events)})
    usage = context.measure(state=tmp_path)
    assert usage.percent is None
    assert usage.notes == ["no totalTokens", "compacted since the last model call"]


def test_empty_session(tmp_path):
    sqlite_store(tmp_path, {"agent:main:new": (entry(None), [])})
    usage = context.measure(state=tmp_path)
    assert usage.session_key == "agent:main:new" and usage.percent is None


def test_no_store(tmp_path):
    usage = context.measure(state=tmp_path)
    assert usage.percent is None and usage.notes == [f"no session store for agent main in {tmp_path}"]


def test_zstd_user_rows_skipped_without_decoding(tmp_path):
    pytest.importorskip("zstandard")
    sqlite_store(tmp_path, {"agent:main:main": (entry(None), [user(), assistant(12000), user("x" * 500)])},
                 compress=True)
    usage = context.measure(state=tmp_path)
    assert (usage.used, usage.source) == (12000, "transcript")
    db = tmp_path / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    assert context.read_transcript(db, "sid-0")[2]["message"]["content"] == "x" * 500


def test_most_recent_session_wins(tmp_path):
    sqlite_store(tmp_path, {"agent:main:old": (entry(1000, updatedAt=5), []),
                            "agent:main:new": (entry(2000, updatedAt=9), [])})
    assert context.measure(state=tmp_path).session_key == "agent:main:new"


def test_compaction_point_and_85_line_near_it():
    ctx = context.DEFAULT_CONTEXT
    assert context.compaction_point(32768, ctx) == 24576      # reserve capped at a quarter: 75 %
    assert context.compaction_point(200000, ctx) == 180000    # full 20,000 reserve
    near = context.Usage(agent="main", session_key="s", used=20576, window=32768)   # 62 %, 4,000 away
    assert near.percent == 62 and context.level(near, EN) == 3
    assert context.status_line(near, EN).startswith("🚨 Context 62% used")
    far = context.Usage(agent="main", session_key="s", used=20575, window=32768)
    assert context.level(far, EN) == 1
    big = context.Usage(agent="main", session_key="s", used=170000, window=200000)  # 85 %
    assert context.level(big, EN) == 3
    below = context.Usage(agent="main", session_key="s", used=99999, window=200000)
    assert context.status_line(below, EN) is None


def test_thresholds_from_config(tmp_path):
    cfg = load_config(None)
    assert cfg["context"]["thresholds"] == [50, 70, 85]
    cfg["context"]["thresholds"] = [10, 20, 30]
    usage = context.Usage(agent="main", session_key="s", used=7000, window=32768)   # 21 %
    assert context.level(usage, cfg) == 2


def test_legacy_store_with_torn_last_line(tmp_path):
    legacy_store(tmp_path, {"agent:main:main": (entry(9000, fresh=False), [user(), assistant(17000, 500)])},
                 torn='{"type":"message","message":{"role":"assistant","usage":{"input":99')
    usage = context.measure(state=tmp_path)
    assert (usage.store, usage.used, usage.percent, usage.source) == ("legacy", 17500, 53, "transcript")


def test_legacy_store_fresh(tmp_path):
    legacy_store(tmp_path, {"agent:main:a": (entry(3000, updatedAt=1), []),
                            "agent:main:b": (entry(26000, updatedAt=2), [])})
    usage = context.measure(state=tmp_path)
    assert (usage.session_key, usage.percent, context.level(usage, EN)) == ("agent:main:b", 79, 3)


def test_from_event_previous_session_entry():
    event = {"type": "command", "action": "new", "sessionKey": "agent:main:main",
             "context": {"previousSessionEntry": entry(24000)}}
    usage, key = context.from_event(event)
    assert key == "agent:main:main" and (usage.used, usage.percent, usage.source) == (24000, 73, "event")


def test_from_event_compact_counts_have_no_window():
    usage, key = context.from_event({"type": "session", "action": "compact:before", "sessionKey": "k",
                                     "context": {"tokenCount": 17503, "tokenCountOriginal": 14}})
    assert (usage.used, usage.window, usage.percent) == (17503, None, None)
    usage, _ = context.from_event({"type": "session", "action": "compact:before", "sessionKey": "k",
                                   "context": {"tokenCountOriginal": 900}})
    assert usage.used == 900  # the estimate only when the observed count is missing
