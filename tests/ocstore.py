"""Build OpenClaw session stores for tests: the 2026.9.6 SQLite layout and the older JSONL one.

The SQLite schema is the shipped store's ``session_nodes`` and
``transcript_events`` tables (OpenClaw 2026.9.6), minus the navigation CHECK,
which needs SQL functions newer than Python's bundled SQLite.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE session_nodes (
  session_key TEXT NOT NULL PRIMARY KEY,
  current_session_id TEXT NOT NULL,
  entry_json TEXT NOT NULL,
  legacy_acp_migration_json TEXT,
  entry_valid INTEGER NOT NULL DEFAULT 0 CHECK (entry_valid IN (-1, 0, 1)),
  updated_at INTEGER NOT NULL,
  status TEXT,
  created_at INTEGER,
  archived_at INTEGER
) STRICT;
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_json TEXT,
  created_at INTEGER NOT NULL,
  event_zstd BLOB,
  event_utf8_bytes INTEGER CHECK (event_utf8_bytes IS NULL OR event_utf8_bytes >= 0),
  navigation_json TEXT,
  PRIMARY KEY (session_id, seq),
  CHECK ((event_json IS NOT NULL AND event_zstd IS NULL)
         OR (event_json IS NULL AND event_zstd IS NOT NULL AND event_utf8_bytes IS NOT NULL
             AND navigation_json IS NOT NULL))
) STRICT;
PRAGMA journal_mode=WAL;
"""


def assistant(inp: int, cache_read: int = 0, cache_write: int = 0, out: int = 5) -> dict:
    return {"type": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}],
            "usage": {"input": inp, "output": out, "cacheRead": cache_read, "cacheWrite": cache_write,
                      "totalTokens": inp + out + cache_read + cache_write}}}


def user(text: str = "hi") -> dict:
    return {"type": "message", "message": {"role": "user", "content": text}}


def sqlite_store(state: Path, sessions: dict[str, tuple[dict, list[dict]]], agent: str = "main",
                 compress: bool = False) -> Path:
    """Write ``<state>/agents/<agent>/agent/openclaw-agent.sqlite``.

    ``sessions``: key -> (entry, transcript events oldest first). With
    ``compress`` user rows are stored as zstd with a navigation summary,
    as OpenClaw does for larger rows.
    """
    db = state / "agents" / agent / "agent" / "openclaw-agent.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db)
    conn.executescript(SCHEMA)
    for n, (key, (entry, events)) in enumerate(sessions.items()):
        sid = entry.setdefault("sessionId", f"sid-{n}")
        updated = entry.setdefault("updatedAt", 1_000 + n)
        conn.execute("insert into session_nodes (session_key, current_session_id, entry_json, updated_at) "
                     "values (?,?,?,?)", (key, sid, json.dumps(entry), updated))
        for seq, event in enumerate(events):
            text = json.dumps(event)
            if compress and event.get("message", {}).get("role") == "user":
                import zstandard

                nav = {"version": 1, "navigation": {"type": "message", "message": {"role": "user"}}}
                conn.execute("insert into transcript_events (session_id, seq, event_zstd, event_utf8_bytes, "
                             "navigation_json, created_at) values (?,?,?,?,?,0)",
                             (sid, seq, zstandard.ZstdCompressor().compress(text.encode()), len(text),
                              json.dumps(nav)))
            else:
                conn.execute("insert into transcript_events (session_id, seq, event_json, created_at) "
                             "values (?,?,?,0)", (sid, seq, text))
    conn.commit()
    conn.close()
    return db


def legacy_store(state: Path, sessions: dict[str, tuple[dict, list[dict]]], agent: str = "main",
                 torn: str | None = None) -> Path:
    """Write ``sessions/sessions.json`` and one ``<sessionId>.jsonl`` per session.

    ``torn``: text appended without a newline to every transcript (a line
    cut off while the Gateway was writing).
    """
    folder = state / "agents" / agent / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    index = {}
    for n, (key, (entry, events)) in enumerate(sessions.items()):
        sid = entry.setdefault("sessionId", f"sid-{n}")
        entry.setdefault("updatedAt", 1_000 + n)
        index[key] = entry
        body = "".join(json.dumps(e) + "\n" for e in events) + (torn or "")
        (folder / f"{sid}.jsonl").write_text(body, encoding="utf-8")
    (folder / "sessions.json").write_text(json.dumps(index), encoding="utf-8")
    return folder / "sessions.json"
