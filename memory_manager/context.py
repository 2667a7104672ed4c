"""How full is a session's context window? Read OpenClaw's session stores, read-only.

Two store layouts are supported (both under ``<state dir>/agents/<agentId>/``):

* OpenClaw 2026.9.6: one SQLite file per agent, ``agent/openclaw-agent.sqlite``.
  Session entries are JSON in ``session_nodes.entry_json``; transcripts are
  rows of ``transcript_events`` holding ``event_json`` or, compressed,
  ``event_zstd`` (zstd). The file is in WAL mode and the Gateway may be
  writing, and its CHECK constraints use SQL functions newer than Python's
  bundled SQLite, so it is opened with a ``mode=ro`` URI and never written.
* Older releases: ``sessions/sessions.json`` (session key -> entry) and one
  ``sessions/<sessionId>.jsonl`` transcript per session.

Usage rules (OpenClaw 2026.9.6 semantics, issue 6):

* an entry's ``totalTokens`` is the prompt size of the last model call
  (input + cacheRead + cacheWrite; output excluded) and ``contextTokens`` the
  window. ``totalTokens`` is trusted only when ``totalTokensFresh`` is true
  and ``totalTokensVersion`` is 1 where present, and only when it fits the
  window;
* otherwise the latest assistant message's ``usage`` in the transcript is
  used, prompt side only (``input + cacheRead + cacheWrite``), unless a
  compaction happened after it (that figure describes a context that no
  longer exists). ``inputTokens`` alone is never used (it omits the cache);
* a figure that is not trusted never yields 100 % or more: a stale or
  overflowing counter is reported as unknown, and so is anything we cannot
  read. We say "unknown" rather than guess.

Compaction point (OpenClaw 2026.9.6 auto-compaction): the window minus a
reserve of 20,000 tokens, the reserve being at most a quarter of the window
(on a 32k window compaction starts at 75 %). The 85 % status line is shown
from 4,000 tokens before that point, whichever comes first, so that the
warning arrives before compaction rather than never. All three numbers come
from the ``context`` section of ``config.json``.

Standard library only: this module is on the per-turn path. zstd is imported
only when a compressed row must actually be decoded (``compression.zstd`` on
Python 3.14+, else the ``zstandard`` package).
"""
from __future__ import annotations

from .jsonio import parse as _parse_json
from .regular import read_regular_text

import json
import os
import re
import sqlite3
from pathlib import Path
# No ``typing`` at run time on the per-turn hook path (it costs more than the rest of
# this module): annotations are strings (``from __future__ import annotations``),
# so ``Any`` is only a name for readers and type checkers.
from collections.abc import Iterable, Mapping

SQLITE_RELPATH = Path("agent") / "openclaw-agent.sqlite"
LEGACY_RELPATH = Path("sessions") / "sessions.json"
#: How far back in a transcript we look for the latest assistant usage (rows).
#: A turn writes a handful of rows; 400 covers long tool loops without
#: reading a whole month-long transcript on every turn.
TRANSCRIPT_SCAN_ROWS = 400
#: Bytes read from the end of a legacy JSONL transcript before falling back
#: to the whole file (same reason: keep the per-turn path cheap).
JSONL_TAIL_BYTES = 256 * 1024
#: Milliseconds SQLite waits for a Gateway write lock before giving up.
BUSY_TIMEOUT_MS = 200

DEFAULT_CONTEXT = {"thresholds": [50, 70, 85], "compaction_reserve_tokens": 20000,
                   "compaction_warn_tokens": 4000}

#: Status lines (Memory Master seed, "Compression Detection": a reminder at
#: 50 %, 70 % and 85 %). Chinese keeps the seed's meaning in our own words.
STATUS_LINES = {
    "zh": ("📝 上下文已用 {pct}%（{used}/{window} tokens）：有值得存入记忆或知识库的内容吗？",
           "⚠️ 上下文已用 {pct}%（{used}/{window} tokens）：建议现在记录当前进度。",
           "🚨 上下文已用 {pct}%（{used}/{window} tokens）：即将压缩，请立刻记录当前进度！"),
    "en": ("📝 Context {pct}% used ({used}/{window} tokens): anything worth saving to memory or the knowledge base?",
           "⚠️ Context {pct}% used ({used}/{window} tokens): a good moment to record progress.",
           "🚨 Context {pct}% used ({used}/{window} tokens): compaction is near, record progress now!"),
}
UNKNOWN_LINE = {"zh": "上下文使用率未知（{why}）", "en": "Context usage unknown ({why})"}


class Usage:
    """A measurement of one session's context.

    ``used`` and ``window`` are tokens (None when unknown); ``source`` says
    where ``used`` came from: ``entry`` (a fresh ``totalTokens``),
    ``transcript`` (latest assistant usage), ``event`` (a hook event's
    counts) or ``unknown``. ``note`` explains an unknown or a fallback.
    """

    # A plain class, not a dataclass: this module is on the per-turn hook path, and
    # dataclasses imports inspect (and ast, tokenize, dis) on every agent turn.
    FIELDS = ("agent", "session_key", "session_id", "store", "used", "window", "source", "updated_at", "notes")

    def __init__(self, agent: str, session_key: str | None = None, session_id: str | None = None,
                 store: str = "none", used: int | None = None, window: int | None = None,
                 source: str = "unknown", updated_at: int | None = None, notes: list[str] | None = None) -> None:
        self.agent = agent
        self.session_key = session_key
        self.session_id = session_id
        self.store = store
        self.used = used
        self.window = window
        self.source = source
        self.updated_at = updated_at
        self.notes = [] if notes is None else notes

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Usage) and all(getattr(self, f) == getattr(other, f) for f in self.FIELDS)

    def __repr__(self) -> str:
        return "Usage(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self.FIELDS) + ")"

    @property
    def known(self) -> bool:
        return self.used is not None and bool(self.window)

    @property
    def percent(self) -> int | None:
        """Whole percent, rounded down (so a line never shows before it is due)."""
        if not self.known:
            return None
        return self.used * 100 // self.window  # type: ignore[operator]

    def to_dict(self, cfg: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The measurement as detect.py's ``--json`` document: :attr:`FIELDS` plus ``percent``,
        ``compaction_at``, ``tokens_to_compaction`` (tokens) and ``level`` (0-3); ``agent`` and
        ``session_key`` as :func:`shown_id` shows them."""
        doc = {f: (list(getattr(self, f)) if f == "notes" else getattr(self, f)) for f in self.FIELDS}
        # The agent id and key as messages show them (:func:`shown_id`), found or not: a key OpenClaw
        # found names the peer (``agent:main:whatsapp:dm:+1415…``), and ``--json`` reaches the same
        # agent prompt and logs as the summary line (attack rounds 14 and 15: the summary cut the
        # number while the JSON document beside it showed it whole). Ordinary keys read as before.
        for f in ("agent", "session_key"):
            if doc.get(f):
                doc[f] = shown_id(doc[f])
        doc["percent"] = self.percent
        ctx = _ctx(cfg)
        point = compaction_point(self.window, ctx) if self.window else None
        doc["compaction_at"] = point
        doc["tokens_to_compaction"] = (point - self.used) if (point is not None and self.used is not None) else None
        doc["level"] = level(self, cfg)
        return doc


def _ctx(cfg: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if cfg and isinstance(cfg.get("context"), Mapping):
        return cfg["context"]
    return DEFAULT_CONTEXT


def compaction_point(window: int, ctx: Mapping[str, Any] | None = None) -> int:
    """Return the token count at which OpenClaw auto-compacts a ``window``-token context.

    window minus ``compaction_reserve_tokens`` (20,000), the reserve capped at a
    quarter of the window (OpenClaw 2026.9.6 behaviour; issue 6).
    """
    ctx = ctx or DEFAULT_CONTEXT
    reserve = min(int(ctx["compaction_reserve_tokens"]), window // 4)
    return window - reserve


def level(usage: Usage, cfg: Mapping[str, Any] | None = None) -> int:
    """Return 0 (below the first threshold) to 3 (the 85 % line is due).

    Level 3 is also due once ``used`` is within ``compaction_warn_tokens`` of
    the compaction point: on small windows compaction comes before 85 %.
    """
    if not usage.known:
        return 0
    ctx = _ctx(cfg)
    pct = usage.percent or 0
    lvl = sum(1 for t in ctx["thresholds"] if pct >= t)
    point = compaction_point(usage.window, ctx)  # type: ignore[arg-type]
    if usage.used >= point - int(ctx["compaction_warn_tokens"]):  # type: ignore[operator]
        lvl = 3
    return lvl


def status_line(usage: Usage, cfg: Mapping[str, Any] | None = None) -> str | None:
    """Return the status line for ``usage`` in the configured language, or None below 50 %."""
    lvl = level(usage, cfg)
    if lvl == 0:
        return None
    lang = (cfg or {}).get("language", "zh")
    template = STATUS_LINES.get(lang, STATUS_LINES["en"])[lvl - 1]
    return template.format(pct=usage.percent, used=f"{usage.used:,}", window=f"{usage.window:,}")


#: The reasons usage is unknown (the notes above), in Chinese: a zh line is
#: Chinese throughout (walk-through r3, item 21). Each pattern matches one
#: note as written in this module; a note no pattern knows stays as it is.
_NOTES_ZH = [
    (re.compile(r"^no session store for agent (.+) in (.+)$"), "{1} 中没有智能体 {0} 的会话存储"),
    (re.compile(r"^the session has no context window recorded$"), "会话没有记录上下文窗口"),
    (re.compile(r"^totalTokens (\S+) exceeds the window (\S+)$"), "totalTokens {0} 超过上下文窗口 {1}"),
    (re.compile(r"^totalTokens is stale$"), "totalTokens 已过期"),
    (re.compile(r"^no totalTokens$"), "没有 totalTokens"),
    (re.compile(r"^no usage$"), "没有用量记录"),
    (re.compile(r"^no assistant usage in the transcript$"), "对话记录中没有助手的用量"),
    (re.compile(r"^transcript usage (\S+) does not fit the window (\S+)$"), "对话记录的用量 {0} 与上下文窗口 {1} 不符"),
    (re.compile(r"^a compressed transcript row needs the zstandard package$"), "压缩的对话记录行需要 zstandard 包"),
    (re.compile(r"^cannot open (.+?): (.+)$"), "无法打开 {0}：{1}"),
    (re.compile(r"^cannot read (.+?): (.+)$"), "无法读取 {0}：{1}"),
    (re.compile(r"^no sessions$"), "没有会话"),
    (re.compile(r"^no session found$"), "没有找到会话"),
    (re.compile(r"^no session (.+)$"), "没有会话 {0}"),
    (re.compile(r"^unreadable session entry$"), "会话条目无法读取"),
    (re.compile(r"^(.+) is not an object$"), "{0} 不是 JSON 对象"),
    (re.compile(r"^(.+) is not an OpenClaw agent id$"), "{0} 不是 OpenClaw 智能体 id"),
]


def _note_zh(note: str) -> str:
    for pattern, text in _NOTES_ZH:
        match = pattern.match(note)
        if match:
            return text.format(*match.groups())
    return note


def describe(usage: Usage, cfg: Mapping[str, Any] | None = None) -> str:
    """One plain line for humans: the figures (in English, as the hook logs), or why they are unknown.

    The "unknown" line follows the configured language, reasons included: a
    line is in one language throughout (walk-through r3, item 21).
    """
    lang = (cfg or {}).get("language", "zh")
    if not usage.known:
        notes = list(usage.notes) or ["no session found"]
        if lang == "zh":
            return UNKNOWN_LINE["zh"].format(why="；".join(_note_zh(n) for n in notes))
        return UNKNOWN_LINE.get(lang, UNKNOWN_LINE["en"]).format(why="; ".join(notes))
    point = compaction_point(usage.window, _ctx(cfg))  # type: ignore[arg-type]
    left = point - usage.used  # type: ignore[operator]
    where = f"{left:,} tokens away" if left >= 0 else f"passed by {-left:,} tokens"
    return (f"{shown_id(usage.session_key)}: {usage.percent}% ({usage.used:,} / {usage.window:,} tokens, "
            f"from {usage.source}); compaction at {point:,}, {where}")


# --------------------------------------------------------------------------- numbers


def _int(value: Any) -> int | None:
    """Return ``value`` as a non-negative int, or None (bools and junk rejected)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if value != value or value < 0 or value == float("inf"):  # NaN, negative, 1e999 (fatk8: OverflowError)
        return None
    return int(value)


def prompt_tokens(usage: Mapping[str, Any]) -> int | None:
    """Prompt side of a model call's usage: input + cacheRead + cacheWrite (tokens).

    Output tokens are not part of the context that was sent. Returns None when
    ``input`` is missing (a usage block without it tells us nothing).
    """
    if not isinstance(usage, Mapping):
        return None
    base = _int(usage.get("input"))
    if base is None:
        return None
    return base + (_int(usage.get("cacheRead")) or 0) + (_int(usage.get("cacheWrite")) or 0)


def fresh_total(entry: Mapping[str, Any]) -> int | None:
    """Return the entry's ``totalTokens`` when OpenClaw itself would trust it, else None."""
    if entry.get("totalTokensFresh") is not True:
        return None
    if "totalTokensVersion" in entry and entry.get("totalTokensVersion") != 1:
        return None
    return _int(entry.get("totalTokens"))


def window_of(entry: Mapping[str, Any]) -> int | None:
    """Return the entry's context window (``contextTokens``), None when absent or zero."""
    window = _int(entry.get("contextTokens"))
    return window or None


def latest_assistant_usage(events: Iterable[Mapping[str, Any] | None]) -> tuple[int | None, str | None]:
    """Scan transcript events, newest first; return (prompt tokens, note).

    Stops at the first assistant message carrying usage. A ``compaction``
    event met before it means the figure predates the compaction: returns
    (None, note). ``None`` items (unreadable rows) are skipped.
    """
    for event in events:
        if not isinstance(event, Mapping):
            continue
        kind = event.get("type")
        if kind == "compaction":
            return None, "compacted since the last model call"
        if kind in ("reset", "session"):
            return None, "no model call since the session started"
        message = event.get("message")
        if kind == "message" and isinstance(message, Mapping) and message.get("role") == "assistant":
            tokens = prompt_tokens(message.get("usage") or {})
            if tokens is not None:
                return tokens, None
    return None, "no assistant usage in the transcript"


def measure_entry(entry: Mapping[str, Any], events: Iterable[Mapping[str, Any] | None] | None,
                  usage: Usage) -> Usage:
    """Fill ``usage`` from a session entry, falling back to its transcript events.

    ``events`` is an iterable of transcript events newest first (read lazily,
    only when the entry's own counter cannot be trusted).
    """
    usage.window = window_of(entry)
    usage.updated_at = _int(entry.get("updatedAt"))
    total = fresh_total(entry)
    if total is not None and (usage.window is None or total <= usage.window):
        usage.used, usage.source = total, "entry"
        if usage.window is None:
            usage.notes.append("the session has no context window recorded")
        return usage
    if total is not None:
        usage.notes.append(f"totalTokens {total} exceeds the window {usage.window}")
    elif "totalTokens" in entry:
        usage.notes.append("totalTokens is stale")
    else:
        usage.notes.append("no totalTokens")
    if events is None:
        return _overflowed(usage, total)
    tokens, why = latest_assistant_usage(events)
    if tokens is None:
        usage.notes.append(why or "no usage")
        return _overflowed(usage, total)
    if usage.window is not None and tokens >= usage.window:
        # A figure we cannot trust must never claim the window is full.
        usage.notes.append(f"transcript usage {tokens} does not fit the window {usage.window}")
        return usage
    usage.used, usage.source = tokens, "transcript"
    if usage.window is None:
        usage.notes.append("the session has no context window recorded")
    return usage


def _overflowed(usage: Usage, total: int | None) -> Usage:
    """``usage`` with a fresh ``total`` above the window taken as it is, when nothing else measured it.

    A fresh counter past the window means the session overflowed (or the window shrank under it):
    the fullest session of all. Reported as unknown it got no warning at all (nu16 item 18), so
    it counts as used (over 100 %, the top line) with the note saying it exceeds the window. A
    transcript figure that fits is still preferred (:func:`measure_entry`); a stale counter is never used.
    """
    if total is not None and usage.window is not None and total > usage.window:
        usage.used, usage.source = total, "entry"
    return usage


# --------------------------------------------------------------------------- stores


_PLAIN_SEGMENT = re.compile(r"[a-z][a-z0-9_-]{0,23}")


def shown_id(value: str | None) -> str:
    """Return an agent id or session key as it may be shown in a message or a log line.

    OpenClaw session keys name the peer (``agent:main:whatsapp:dm:+1415…``)
    and a mistyped agent id can be anything pasted, a token included, while
    these lines reach the Gateway log on disk and the agent's prompt (attack
    round 14). Each ``:``-separated segment is kept when it reads as an
    ordinary name (lowercase ASCII letters, digits, ``_`` or ``-``, at most 24
    characters and 4 digits: ``main``, ``whatsapp``, ``coder-2``); any other
    segment shows its first 4 characters and ``…`` (the bundle's rule for a
    value that may be secret: never more than its first 4 characters, issue
    10). Standard library only: the per-turn hook calls it.

    Args:
        value: an agent id or a session key (None or empty: returned as ``""``).
    """
    if not value:
        return ""
    out = []
    for seg in str(value).split(":"):
        plain = _PLAIN_SEGMENT.fullmatch(seg) and sum(ch.isdigit() for ch in seg) <= 4
        out.append(seg if plain or not seg else seg[:4] + "…")
    return ":".join(out)


def valid_agent_id(agent: str) -> bool:
    """True when ``agent`` can be an OpenClaw agent id: letters, digits, ``_`` and ``-``.

    The id becomes a folder name under ``<state>/agents/``, so anything else
    (``..``, ``/``) is refused before a path is built from it.
    """
    return bool(agent) and agent[0].isascii() and agent[0].isalnum() and \
        all(ch.isascii() and (ch.isalnum() or ch in "_-") for ch in agent)


def agent_of(session_key: str | None, default: str = "main") -> str:
    """Return the agent id of a session key ``agent:<id>:<rest>`` (else ``default``)."""
    if session_key and session_key.startswith("agent:"):
        parts = session_key.split(":", 2)
        if len(parts) >= 2 and parts[1]:
            return parts[1]
    return default


def _zstd_decompress(blob: bytes) -> bytes:
    """Decode one zstd frame; imported here so plain rows never pay for it."""
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14+

        return zstd.decompress(blob)
    except ImportError:
        import zstandard  # type: ignore[import-not-found]

        return zstandard.ZstdDecompressor().decompress(blob, max_output_size=8 << 20)


def open_readonly(path: Path) -> sqlite3.Connection:
    """Open an OpenClaw SQLite store read-only (``mode=ro`` URI; never written).

    A WAL database needs its ``-shm`` file; when the folder is not writable
    (a copied or archived state folder) and no ``-shm`` exists, no Gateway can
    be writing it, so ``immutable=1`` is used instead.

    Raises sqlite3.Error when the file cannot be opened.
    """
    # Percent-escape the three characters a file: URI path cannot hold as is
    # (urllib.parse would cost an import on every turn for this).
    raw = str(Path(path).absolute()).replace("%", "%25").replace("?", "%3F").replace("#", "%23")
    uri = "file:" + raw + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        conn.execute("select 1 from sqlite_master limit 1").fetchall()
        return conn
    except sqlite3.OperationalError:
        conn.close()
        if os.access(Path(path).parent, os.W_OK):
            raise
    conn = sqlite3.connect(uri + "&immutable=1", uri=True)
    conn.execute("select 1 from sqlite_master limit 1").fetchall()
    return conn


def _sqlite_events(conn: sqlite3.Connection, session_id: str, notes: list[str], decode_all: bool = False,
                   limit: int = TRANSCRIPT_SCAN_ROWS):
    """Yield transcript events of ``session_id`` newest first, decoding zstd lazily.

    With ``decode_all`` every compressed row is decompressed; otherwise rows
    whose navigation summary shows they cannot carry assistant usage are
    yielded as a stub ``{"type", "message": {"role"}}``.
    """
    rows = conn.execute(
        "select event_json, event_zstd, navigation_json from transcript_events "
        "where session_id = ? order by seq desc limit ?", (session_id, limit))
    for event_json, event_zstd, navigation in rows:
        if event_json is not None:
            try:
                yield _parse_json(event_json)
            except ValueError:
                yield None
            continue
        # Compressed row: the navigation summary says what it is, so rows that
        # cannot hold assistant usage are classified without decompressing.
        nav = None
        try:
            nav = _parse_json(navigation).get("navigation") if navigation else None
        except (ValueError, AttributeError):
            nav = None
        if isinstance(nav, dict) and not decode_all:
            role = (nav.get("message") or {}).get("role") if isinstance(nav.get("message"), dict) else None
            if nav.get("type") != "message" or role != "assistant":
                yield {"type": nav.get("type"), "message": {"role": role}}
                continue
        try:
            yield _parse_json(_zstd_decompress(event_zstd).decode("utf-8"))
        except ImportError:
            notes.append("a compressed transcript row needs the zstandard package")
            yield None
        except Exception:
            yield None


def read_transcript(db: Path, session_id: str, limit: int = 100000) -> list[dict[str, Any] | None]:
    """Return every transcript event of ``session_id`` in order (zstd rows decoded).

    For tests and ``doctor``; the per-turn path reads lazily instead. ``None``
    marks a row that could not be decoded. Raises sqlite3.Error.
    """
    conn = open_readonly(db)
    try:
        notes: list[str] = []
        events = list(_sqlite_events(conn, session_id, notes, decode_all=True, limit=limit))
    finally:
        conn.close()
    events.reverse()
    return events


#: Session-key segments of runs that are not the conversation: OpenClaw's heartbeat
#: turns and cron jobs (``agent:<id>:cron:<job>``) use their own sessions, often
#: small and most recently touched (issue 14: 4 % for a heartbeat while the main chat was at 85 %).
BACKGROUND_SEGMENTS = ("cron", "heartbeat")


def _background(key: str) -> bool:
    return any(part.lower() in BACKGROUND_SEGMENTS or part.lower().startswith("heartbeat")
               for part in key.split(":")[2:])


def pick_session(updated: Mapping[str, int | None], agent: str) -> str | None:
    """Choose the session to report when none is named.

    ``updated`` maps session keys to their last-update time. Order: the
    agent's main session (``agent:<id>:main``), else the most recently
    updated one that is not a heartbeat or cron run, else the most recent.
    """
    if not updated:
        return None
    main = f"agent:{agent}:main"
    if main in updated:
        return main
    recent = sorted(updated, key=lambda k: updated[k] or 0, reverse=True)
    return next((k for k in recent if not _background(k)), recent[0])


def sqlite_usage(db: Path, agent: str, session_key: str | None) -> Usage:
    """Measure a session in a 2026.9.6 SQLite store (``session_key`` None: :func:`pick_session`)."""
    usage = Usage(agent=agent, store="sqlite")
    try:
        conn = open_readonly(db)
    except sqlite3.Error as exc:
        usage.notes.append(f"cannot open {db.name}: {exc}")
        return usage
    try:
        if session_key:
            row = conn.execute("select session_key, current_session_id, entry_json from session_nodes "
                               "where session_key = ?", (session_key,)).fetchone()
        else:
            updated = dict(conn.execute("select session_key, updated_at from session_nodes "
                                        "where archived_at is null").fetchall())
            chosen = pick_session(updated, agent)
            row = None if chosen is None else conn.execute(
                "select session_key, current_session_id, entry_json from session_nodes where session_key = ?",
                (chosen,)).fetchone()
        if row is None:
            usage.session_key = session_key
            usage.notes.append(f"no session {shown_id(session_key)}" if session_key else "no sessions")
            return usage
        usage.session_key, usage.session_id = row[0], row[1]
        try:
            entry = _parse_json(row[2])
        except ValueError:
            entry = {}
            usage.notes.append("unreadable session entry")
        if not isinstance(entry, dict):
            entry = {}
        usage.session_id = entry.get("sessionId") or usage.session_id
        return measure_entry(entry, _sqlite_events(conn, usage.session_id, usage.notes), usage)
    except sqlite3.Error as exc:
        usage.notes.append(f"cannot read {db.name}: {exc}")
        return usage
    finally:
        conn.close()


def _jsonl_events(path: Path):
    """Yield JSONL transcript events newest first; a torn or bad line is skipped."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as handle:
            start = max(0, size - JSONL_TAIL_BYTES)
            handle.seek(start)
            data = handle.read()
            lines = data.split(b"\n")
            if start:
                lines = lines[1:]  # the first line of the tail is probably cut
            seen = 0
            for line in reversed(lines):
                seen += 1
                if not line.strip():
                    continue
                try:
                    yield _parse_json(line)
                except ValueError:
                    continue
            if start:
                handle.seek(0)
                head = handle.read(start + 1).split(b"\n")
                for line in reversed(head[:-1]):
                    try:
                        yield _parse_json(line)
                    except ValueError:
                        continue
    except OSError:
        return


def legacy_usage(store: Path, agent: str, session_key: str | None) -> Usage:
    """Measure a session in an older ``sessions.json`` + ``<sessionId>.jsonl`` store."""
    usage = Usage(agent=agent, store="legacy")
    try:
        data = _parse_json(read_regular_text(store, "utf-8"))
    except (OSError, ValueError) as exc:
        usage.notes.append(f"cannot read {store.name}: {exc.__class__.__name__}")
        return usage
    if not isinstance(data, dict):
        usage.notes.append(f"{store.name} is not an object")
        return usage
    entries = {k: v for k, v in data.items() if isinstance(v, dict)}
    if session_key:
        entry = entries.get(session_key)
        usage.session_key = session_key
        if entry is None:
            usage.notes.append(f"no session {shown_id(session_key)}")
            return usage
    else:
        if not entries:
            usage.notes.append("no sessions")
            return usage
        usage.session_key = pick_session({k: _int(v.get("updatedAt")) for k, v in entries.items()}, agent)
        entry = entries[usage.session_key]
    usage.session_id = entry.get("sessionId") if isinstance(entry.get("sessionId"), str) else None
    transcript = None
    if usage.session_id:
        transcript = store.parent / f"{usage.session_id}.jsonl"
    session_file = entry.get("sessionFile")
    if isinstance(session_file, str) and session_file.endswith(".jsonl"):
        candidate = Path(session_file)
        transcript = candidate if candidate.is_absolute() else store.parent / candidate
    events = _jsonl_events(transcript) if transcript is not None and transcript.is_file() else iter(())
    return measure_entry(entry, events, usage)


def measure(agent: str | None = None, session_key: str | None = None,
            state: Path | None = None) -> Usage:
    """Measure context usage of a session.

    Args:
        agent: OpenClaw agent id (default: from ``session_key``, else ``main``).
        session_key: e.g. ``agent:main:main``; None picks the main session,
            else the most recent that is not a heartbeat or cron run (:func:`pick_session`).
        state: OpenClaw state dir (default: :func:`workspace.state_dir`).

    Never raises for a missing or unreadable store: the result is then unknown
    with a note saying why.
    """
    if state is None:
        from .workspace import state_dir

        state = state_dir()
    agent = agent or agent_of(session_key)
    if not valid_agent_id(agent):
        return Usage(agent=agent, session_key=session_key, notes=[f"{shown_id(agent)!r} is not an OpenClaw agent id"])
    base = Path(state) / "agents" / agent
    db = base / SQLITE_RELPATH
    if db.is_file():
        usage = sqlite_usage(db, agent, session_key)
        legacy = base / LEGACY_RELPATH
        # A store migrated from the old layout keeps sessions.json around; use
        # it only when the SQLite store does not know the session.
        if usage.session_key is None or not usage.session_id:
            if legacy.is_file():
                return legacy_usage(legacy, agent, session_key)
        return usage
    legacy = base / LEGACY_RELPATH
    if legacy.is_file():
        return legacy_usage(legacy, agent, session_key)
    return Usage(agent=agent, session_key=session_key, notes=[f"no session store for agent {shown_id(agent)} in {state}"])


def from_event(event: Mapping[str, Any]) -> tuple[Usage | None, str | None]:
    """Extract usage carried by a hook event itself, when it carries any.

    ``command:new``/``command:reset`` carry ``previousSessionEntry`` (the
    session being replaced), ``session:compact:before`` carries
    ``tokenCount`` (OpenClaw 2026.9.6: the observed count before compaction,
    else its estimate) and ``tokenCountOriginal`` (an estimate), no window;
    ``agent:end`` (sent by our plugin, from OpenClaw's ``llm_output``) carries
    ``lastCallUsage`` (the model's ``input``/``cacheRead``/``cacheWrite``/``output``
    tokens of the turn's last call), ``usage`` (the same summed over the turn's
    calls) and ``contextTokenBudget`` (the window, tokens). Returns (usage or None,
    session key of the event).
    """
    ctx = event.get("context") if isinstance(event.get("context"), Mapping) else {}
    key = event.get("sessionKey") if isinstance(event.get("sessionKey"), str) else None
    key = key or (ctx.get("sessionKey") if isinstance(ctx.get("sessionKey"), str) else None)
    agent = ctx.get("agentId") if isinstance(ctx.get("agentId"), str) else agent_of(key)
    entry = ctx.get("previousSessionEntry")
    if isinstance(entry, Mapping):
        usage = Usage(agent=agent, session_key=key, store="event",
                      session_id=entry.get("sessionId") if isinstance(entry.get("sessionId"), str) else None)
        measure_entry(entry, None, usage)
        if usage.used is not None:
            usage.source = "event"
        return usage, key
    # agent:end (our plugin, from OpenClaw's llm_output): the usage the model itself
    # reported for the turn's last call, and the context budget OpenClaw resolved for it.
    # lastCallUsage is the turn's last call (the context as it is now); usage sums all the
    # turn's calls (a turn with tools makes several), so it is only the fallback.
    reported = None
    for field in ("lastCallUsage", "usage"):
        if reported is None and isinstance(ctx.get(field), Mapping):
            reported = prompt_tokens(ctx[field])
    if reported is not None:
        usage = Usage(agent=agent, session_key=key, store="event", used=reported, source="event",
                      window=_int(ctx.get("contextTokenBudget")),
                      session_id=ctx.get("sessionId") if isinstance(ctx.get("sessionId"), str) else None)
        return usage, key
    # tokenCount is OpenClaw's observed count of the session before compaction (the
    # model's reported usage, 17,503 in issue 14's run); tokenCountOriginal is only its
    # estimate over the original messages (14 there), so it is the fallback.
    tokens = _int(ctx.get("tokenCount"))
    if tokens is None:
        tokens = _int(ctx.get("tokenCountOriginal"))
    if tokens is not None:
        usage = Usage(agent=agent, session_key=key, store="event", used=tokens, source="event",
                      session_id=ctx.get("sessionId") if isinstance(ctx.get("sessionId"), str) else None)
        return usage, key
    return None, key
