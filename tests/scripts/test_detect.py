"""scripts/detect.py run as a real process."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT, SHARED
from ocstore import assistant, sqlite_store, user

import pytest


def entry(total, window=32768, fresh=True):
    return {"contextTokens": window, "totalTokens": total, "totalTokensFresh": fresh, "totalTokensVersion": 1}


@pytest.mark.external(SHARED / "openclaw" / "state-2026.9.6", reason="a state folder OpenClaw 2026.9.6 wrote")
def test_shipped_store(run_script):
    state = SHARED / "openclaw" / "state-2026.9.6"
    r = run_script("detect", "--state-dir", state, "--session", "agent:main:main")
    assert r.code == 0, r.err
    assert r.out == "agent:main:main: 29% (9,548 / 32,768 tokens, from entry); compaction at 24,576, 15,028 tokens away\n"


def test_status_line_zh_default(run_script, tmp_path):
    sqlite_store(tmp_path / "home" / ".openclaw", {"agent:main:main": (entry(16500), [])})
    r = run_script("detect")
    assert r.code == 0, r.err
    assert r.out.splitlines()[1] == "📝 上下文已用 50%（16,500/32,768 tokens）：有值得存入记忆或知识库的内容吗？"


def test_language_from_workspace_override(run_script, tmp_path, ws):
    (ws / "memory").mkdir()
    (ws / "memory" / "memory-manager.json").write_text('{"language": "en"}')
    sqlite_store(tmp_path / "home" / ".openclaw", {"agent:main:main": (entry(28000), [])})
    r = run_script("detect", "--workspace", ws)
    assert r.out.splitlines()[1] == \
        "🚨 Context 85% used (28,000/32,768 tokens): compaction is near, record progress now!"


def test_json(run_script, tmp_path):
    sqlite_store(tmp_path / "home" / ".openclaw",
                 {"agent:main:main": (entry(99, fresh=False), [user(), assistant(8000, 192)])})
    r = run_script("detect", "--json")
    doc = json.loads(r.out)
    assert r.code == 0
    assert {k: doc[k] for k in ("session_key", "used", "window", "percent", "source", "level",
                                "compaction_at", "tokens_to_compaction", "status_line")} == {
        "session_key": "agent:main:main", "used": 8192, "window": 32768, "percent": 25, "source": "transcript",
        "level": 0, "compaction_at": 24576, "tokens_to_compaction": 16384, "status_line": None}


def test_stdin_event_previous_entry(run_script, tmp_path):
    event = {"type": "command", "action": "reset", "sessionKey": "agent:main:main",
             "context": {"previousSessionEntry": entry(23500)}}
    r = run_script("detect", "--stdin", "--json", input=json.dumps(event))
    doc = json.loads(r.out)
    assert (doc["used"], doc["percent"], doc["source"], doc["level"]) == (23500, 71, "event", 3)


def test_unknown_session_exit_1(run_script, tmp_path):
    sqlite_store(tmp_path / "home" / ".openclaw", {"agent:main:main": (entry(100), [])})
    r = run_script("detect", "--session", "agent:main:nope", "--json")
    assert r.code == 1 and json.loads(r.out)["kind"] == "not_found"


def test_no_store_says_unknown(run_script, tmp_path):
    r = run_script("detect")
    assert r.code == 0
    # one language throughout (walk-through r3, item 21)
    assert r.out == f"上下文使用率未知（{tmp_path / 'home' / '.openclaw'} 中没有智能体 main 的会话存储）\n"


def test_bad_stdin_exit_2(run_script):
    r = run_script("detect", "--stdin", "--json", input="{nope")
    assert r.code == 2 and json.loads(r.out)["kind"] == "bad_input"
    r = run_script("detect", "--bogus")
    assert r.code == 2 and r.err.startswith("error: unrecognized arguments")


def test_missing_explicit_workspace_exit_2(run_script, tmp_path):
    r = run_script("detect", "--workspace", tmp_path / "absent")
    assert r.code == 2 and "does not exist" in r.err


def test_version(run_script):
    r = run_script("detect", "--version")
    assert r.code == 0 and r.out.startswith("complex-memory-manager, version ")


def test_imports_standard_library_only(tmp_path):
    """The per-turn path must not load click, rich, yaml (or any third-party module)."""
    sqlite_store(tmp_path / "home" / ".openclaw", {"agent:main:main": (entry(20000), [user(), assistant(1)])})
    proc = subprocess.run([sys.executable, "-X", "importtime", str(ROOT / "scripts" / "detect.py")],
                          capture_output=True, text=True, env=dict(os.environ))
    assert proc.returncode == 0
    loaded = {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    for banned in ("click", "rich", "yaml", "frontmatter", "filelock", "zstandard", "cryptography"):
        assert banned not in loaded


def test_without_session_the_main_chat_wins_over_a_newer_heartbeat_or_cron(run_script, tmp_path):
    """Issue 14: the most recently touched session is often a heartbeat or cron run."""
    state = tmp_path / "home" / ".openclaw"
    sqlite_store(state, {"agent:main:main": (dict(entry(27853), updatedAt=10), []),
                         "agent:main:heartbeat": (dict(entry(1310), updatedAt=30), []),
                         "agent:main:cron:nightly-digest": (dict(entry(1200), updatedAt=40), [])})
    r = run_script("detect", "--json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert (doc["session_key"], doc["percent"]) == ("agent:main:main", 85)


def test_without_a_main_session_the_newest_conversation_wins(tmp_path):
    from memory_manager.context import pick_session

    assert pick_session({"agent:ops:cron:x": 9, "agent:ops:telegram:42": 5, "agent:ops:heartbeat": 8}, "ops") == \
        "agent:ops:telegram:42"
    assert pick_session({"agent:ops:cron:x": 9}, "ops") == "agent:ops:cron:x"  # nothing else: still an answer
    assert pick_session({}, "ops") is None
