"""Daily notes, knowledge entries and their two indexes: parsing and writing.

Formats (``references/formats.md`` has the full description):

- Daily note section (Memory Master seed), in ``memory/daily/YYYY-MM-DD.md``::

      ## [2026-03-03] 记忆系统升级
      <!-- id: d-20260303-1a2b3c4d -->
      - 因：原因/背景
      - 改：做了什么
      - 待：后续

  English labels ``- Cause:`` / ``- Change:`` / ``- Todo:``; both are read.
  The id is ``d-<YYYYMMDD>-<first 8 hex of sha256(date + "\\n" + topic)>``,
  so the same date and topic always give the same id (stable across
  rebuilds and machines). Writing the same topic twice on one day merges
  into the one section, adding only lines not already there, in order.
- Knowledge entry ``memory/knowledge/<key>.md``: YAML frontmatter
  (``format: cmm-knowledge``, ``version: 1``, ``id``, ``key``, ``tags``,
  ``created``, ``updated``, optional ``pinned``) and a Markdown body.
- ``memory/daily-index.md`` and ``memory/knowledge-index.md``: derived from
  the files by :func:`rebuild_indexes`.

Frontmatter is never re-dumped: changes are made line by line on the text
the user wrote (:func:`set_frontmatter_fields`), so values like ``NO``,
``on``, ``0755``, ``1.10``, dates and Chinese text stay byte-identical.
Malformed files (bad YAML, a frontmatter that is not a mapping, wrong
types, no closing ``---``) raise :class:`MalformedFileError` from the
parsers; the iterators report them and skip them, and no writer rewrites them.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Iterator

from . import tree
from .clock import parse_day
from .errors import MalformedFileError, MemoryManagerError
from .fsio import TextFile, atomic_write, read_text
from .markdown import _HEADING as _MD_HEADING

# Paths of the memory tree (memory_manager.tree owns them; names kept for callers).
MEMORY = tree.MEMORY
DAILY_DIR = tree.DAILY
KNOWLEDGE_DIR = tree.KNOWLEDGE
DAILY_INDEX = tree.DAILY_INDEX
KNOWLEDGE_INDEX = tree.KNOWLEDGE_INDEX
KNOWLEDGE_FORMAT = "cmm-knowledge"
KNOWLEDGE_VERSION = 2
#: Version written by ``learn`` for a new entry: an entry without history is still version 1
#: (older readers keep reading it); ``edit`` writes version 2 (the history block).
KNOWLEDGE_VERSION_PLAIN = 1

#: label kind -> the labels a reader accepts (zh first: the seed's form).
LABELS = {"cause": ("因", "Cause"), "change": ("改", "Change"), "todo": ("待", "Todo")}
KINDS = ("cause", "change", "todo")
TREE = tree.FOLDERS
INDEX_FILES = tree.INDEX_FILES
INDEX_TITLES = {"daily": {"zh": "# 记忆索引", "en": "# Memory Index"},
                "knowledge": {"zh": "# 知识库索引", "en": "# Knowledge Index"}}

_BRACKET = re.compile(r"^\[(\d{4}-\d{2}-\d{2})\]\s*(.*)$")
_DAY_START = re.compile(r"^\[?(\d{4}-\d{2}-\d{2})\]?(?![\d])")
_ID = re.compile(r"^\s*<!--\s*id:\s*([A-Za-z0-9_.:-]+)\s*-->\s*$")
_PINNED = re.compile(r"^\s*<!--\s*pinned\s*-->\s*$", re.I)
_ITEM = re.compile(r"^\s*[-*]\s*(因|改|待|Cause|Change|Todo)\s*[:：]\s?(.*)$", re.I)
#: :mod:`memory_manager.markdown`'s ATX heading pattern, searched line by line over a whole text.
_HEADING_LINES = re.compile(_MD_HEADING.pattern, re.M)
_DATE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
_DAY_FILE = re.compile(r"^\d{4}-\d{2}-\d{2}.*\.md$")


def memory_dir(ws: Path) -> Path:
    """Return ``<ws>/memory``."""
    return Path(ws) / MEMORY


def language(cfg: dict[str, Any]) -> str:
    """Return the configured language (``zh`` or ``en``; config.load_config resolves ``auto``)."""
    return cfg["language"] if cfg.get("language") in ("zh", "en") else "en"


#: The labels as usually written, to their kind (others go through :func:`_label_kind`).
_LABEL_KINDS = {label: kind for kind, names in LABELS.items() for label in names}


def _label_kind(label: str) -> str:
    low = label.lower()
    for kind, names in LABELS.items():
        if label in names or low == names[1].lower():
            return kind
    raise ValueError(label)


def daily_id(day: str, topic: str) -> str:
    """Return the stable id of the daily section (``d-YYYYMMDD-xxxxxxxx``)."""
    digest = hashlib.sha256(f"{day}\n{topic}".encode("utf-8")).hexdigest()[:8]
    return f"d-{day.replace('-', '')}-{digest}"


def knowledge_id(key: str, n: int = 1) -> str:
    """Return the stable id of knowledge entry ``key`` (``k-xxxxxxxxxx``: 10 hex of sha256(key)).

    ``n`` > 1 gives the key's ``n``-th id, 10 hex of sha256("<key>\n<n>"): the one a new entry of
    ``key`` takes when its first id is held by an archived entry of the same key (pruned, then learned
    again: :func:`memory_manager.store.new_knowledge_id`, tatk19), so the two never share one.
    """
    seed = key if n <= 1 else f"{key}\n{n}"
    return "k-" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:10]


# ----------------------------------------------------------------- frontmatter

@dataclass
class Frontmatter:
    """A split Markdown file: ``raw`` frontmatter lines, ``meta`` as YAML read, ``body``.

    ``meta`` comes from ``yaml.safe_load`` (typed, for checks); ``literal``
    holds each top-level scalar as the user wrote it (strings, via PyYAML's
    BaseLoader), for display and export.
    """

    raw: str
    meta: dict[str, Any]
    literal: dict[str, Any]
    body: str
    has_frontmatter: bool
    #: Where ``body`` starts in the text that was split (characters).
    body_offset: int = 0


_LOADER = None


def _safe_loader():
    """``yaml.SafeLoader`` that keeps an impossible date (``created: 2026-02-30``)
    as its string instead of raising ``ValueError`` from PyYAML's timestamp
    constructor: date readers then see "no date" (``clock.parse_day``).

    Built on ``CSafeLoader`` (libyaml's parser, PyYAML's safe constructors)
    when PyYAML has it: the same values, about six times faster, which
    matters when every knowledge entry is read (status, the report).
    """
    global _LOADER
    if _LOADER is None:
        import yaml

        class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
            pass

        def timestamp(loader, node):
            try:
                return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
            except ValueError:
                return loader.construct_scalar(node)

        Loader.add_constructor("tag:yaml.org,2002:timestamp", timestamp)
        _LOADER = Loader
    return _LOADER


#: A frontmatter line the fast path reads: ``key: value`` at the line start, one space after the colon.
_FM_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*): (.+)")
#: A plain scalar the fast path reads as a string: starts with a letter or ``_`` (no YAML resolver
#: keys on those but the words of :data:`_FM_WORDS`), then word characters, ``.``, ``-``, ``/`` with
#: single spaces between words: nothing YAML reads as a comment, a mapping, a flow or an anchor.
_FM_PLAIN = re.compile(r"[^\W\d][\w./-]*(?: [\w./-]+)*")
#: A double-quoted scalar without escapes, line breaks or characters YAML refuses: its content as is.
_FM_QUOTED = re.compile("\"([^\"\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]*)\"")
_FM_INT = re.compile(r"0|[1-9][0-9]{0,17}")
_FM_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
#: PyYAML's (YAML 1.1) boolean and null words; only ``true`` and ``false`` are read by the fast path.
_FM_WORDS = frozenset("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF "
                      "null Null NULL".split())


def _fast_scalar(text: str) -> tuple[Any, str] | None:
    """``(safe value, literal value)`` of one scalar of :func:`_fast_frontmatter`, or None when unsure."""
    if _FM_PLAIN.fullmatch(text):
        if text in _FM_WORDS:
            return (True, text) if text == "true" else (False, text) if text == "false" else None
        return text, text
    if _FM_INT.fullmatch(text):
        return int(text), text
    if m := _FM_DATE.fullmatch(text):
        try:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3))), text
        except ValueError:
            return text, text  # an impossible date stays text, as :func:`_safe_loader` keeps it
    if m := _FM_QUOTED.fullmatch(text):
        return m.group(1), m.group(1)
    return None


def _fast_frontmatter(raw: str) -> tuple[dict, dict] | None:
    """:func:`_load_twice` of the simple frontmatter we write ourselves, without PyYAML; None when unsure.

    Reads only lines ``key: scalar`` and ``key: [scalar, scalar]`` (a flow list of plain
    scalars, ``", "`` between them), where a scalar is a plain word run, an integer, a
    ``YYYY-MM-DD`` date, ``true``/``false`` or a double-quoted string without escapes. Anything
    else (comments, blank or indented lines, other YAML words, repeated keys) returns None and
    the caller parses with PyYAML: the fast path only answers when it gives the same values
    (issue 13: PyYAML's constructors were half the time of reading a knowledge file).
    """
    meta: dict[str, Any] = {}
    literal: dict[str, Any] = {}
    for line in raw.split("\n"):
        m = _FM_LINE.fullmatch(line)
        if m is None:
            return None
        key, value = m.groups()
        if key in _FM_WORDS or key in meta:
            return None
        if value[0] == "[" and value[-1] == "]":
            inner = value[1:-1]
            items = [_fast_scalar(v) if _FM_PLAIN.fullmatch(v) or v[:1].isdigit() else None
                     for v in (inner.split(", ") if inner else [])]
            if None in items:
                return None
            meta[key], literal[key] = [v[0] for v in items], [v[1] for v in items]  # type: ignore[index]
            continue
        found = _fast_scalar(value)
        if found is None:
            return None
        meta[key], literal[key] = found
    return meta, literal


def _load_twice(raw: str) -> tuple[Any, Any]:
    """``(safe value, literal value)`` of one YAML document, parsed once.

    The same as ``yaml.load(raw, Loader=_safe_loader())`` and
    ``yaml.load(raw, Loader=yaml.CBaseLoader)``: libyaml builds the node tree
    once and both constructors read it. PyYAML's ``BaseConstructor`` looks
    at no tag (every scalar a string, by the node's kind alone), so the
    resolver's tags that the safe side needs change nothing for it; it reads
    the tree first because the safe side rewrites merge keys (``<<``) in
    place. Knowledge frontmatter was parsed twice on every index build
    (issue 13).

    Raises:
        yaml.YAMLError: as either load would.
    """
    fast = _fast_frontmatter(raw)
    if fast is not None:
        return fast
    from yaml.constructor import BaseConstructor

    loader = _safe_loader()(raw)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        literal = BaseConstructor().construct_document(node)
        return loader.construct_document(node), literal
    finally:
        loader.dispose()


def split_frontmatter(text: str, label: str = "file") -> Frontmatter:
    """Split ``text`` (``\\n`` endings, no BOM) into frontmatter and body.

    A frontmatter starts with ``---`` on the first line and ends at the next
    line that is exactly ``---`` (or ``...``); a later ``---`` belongs to the
    body. Text without a leading ``---`` has an empty frontmatter.

    Raises:
        MalformedFileError: no closing line, invalid YAML, or not a mapping.
    """
    import yaml

    if text.split("\n", 1)[0].rstrip() != "---":  # before splitting it all: a 50 MB note has no frontmatter
        return Frontmatter("", {}, {}, text, False)
    lines = text.split("\n")
    for end in range(1, len(lines)):
        if lines[end].rstrip() in ("---", "..."):
            break
    else:
        raise MalformedFileError(f"{label}: frontmatter has no closing '---'")
    raw = "\n".join(lines[1:end])
    try:
        meta, literal = _load_twice(raw) if raw.strip() else ({}, {})
    except yaml.YAMLError as exc:
        try:  # libyaml marks some errors a line later: report what the pure-Python parser says
            yaml.load(raw, Loader=yaml.BaseLoader)  # noqa: S506 - BaseLoader builds only str/list/dict
        except yaml.YAMLError as python_exc:
            exc = python_exc
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 2})" if where is not None else ""
        raise MalformedFileError(f"{label}: frontmatter is not valid YAML{line}") from None
    if not isinstance(meta, dict) or not isinstance(literal, dict):
        raise MalformedFileError(f"{label}: frontmatter must be a YAML mapping")
    offset = min(len(text), len("\n".join(lines[:end + 1])) + 1)
    return Frontmatter(raw, meta, literal, "\n".join(lines[end + 1:]), True, offset)


def yaml_scalar(value: Any) -> str:
    """Render one value for a frontmatter line so YAML reads it back unchanged.

    Strings that YAML would read as something else (``NO``, ``0755``,
    ``1.10``, dates, ``null``) or that hold special characters are written
    as JSON strings (valid YAML double-quoted scalars).
    """
    import yaml

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value, allow_nan=False)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_scalar(v) for v in value) + "]"
    text = str(value)
    try:
        plain_ok = (text.strip() == text and text != "" and "\n" not in text
                    and not re.search(r"[:#\[\]{},&*!|>'\"%@`]", text)
                    and yaml.safe_load(text) == text)
    except yaml.YAMLError:
        plain_ok = False
    return text if plain_ok else json.dumps(text, ensure_ascii=False, allow_nan=False)


def set_frontmatter_fields(raw: str, fields: dict[str, Any]) -> str:
    """Return frontmatter text ``raw`` with top-level ``fields`` set, line by line.

    A key that exists is replaced in place (with its indented continuation
    lines, e.g. a block list); a new key is appended. Every other line is
    kept byte for byte.
    """
    lines = raw.split("\n") if raw else []
    for key, value in fields.items():
        new_line = f"{key}: {yaml_scalar(value)}"
        pattern = re.compile(rf"^{re.escape(key)}\s*:")
        for i, line in enumerate(lines):
            if pattern.match(line):
                j = i + 1
                while j < len(lines) and (lines[j].startswith((" ", "\t", "- ")) and lines[j].strip()):
                    j += 1
                lines[i:j] = [new_line]
                break
        else:
            lines.append(new_line)
    return "\n".join(lines)


def join_frontmatter(raw: str, body: str) -> str:
    """Return ``---\\n<raw>\\n---\\n<body>``."""
    return f"---\n{raw}\n---\n{body}"


# ----------------------------------------------------------------- daily notes

@dataclass
class DailySection:
    """One ``## [date] topic`` section: its items and where it sits in the file.

    ``items`` is a list of ``(kind, text)`` in file order; ``start``/``end``
    are line numbers (0-based, end exclusive) in the file's text.
    """

    date: str
    topic: str
    id: str
    pinned: bool
    items: list[tuple[str, str]]
    start: int
    end: int
    path: Path | None = None
    other: list[str] = field(default_factory=list)
    #: character offsets of the whole section in the file's text: the heading
    #: line up to the next section (trailing blank lines included). Forget
    #: removes exactly these characters.
    span: tuple[int, int] = (0, 0)

    def lines_of(self, kind: str) -> list[str]:
        """Return the texts of ``kind`` (``cause``/``change``/``todo``) in order."""
        return [text for k, text in self.items if k == kind]

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (date, topic, id, pinned, cause, change, todo, path)."""
        return {"id": self.id, "date": self.date, "topic": self.topic, "pinned": self.pinned,
                "cause": self.lines_of("cause"), "change": self.lines_of("change"),
                "todo": self.lines_of("todo"), "other": self.other,
                "path": self.path.as_posix() if self.path else None}


@dataclass
class Chunk:
    """A piece of a Markdown note between two section breaks.

    ``level`` is 0 for text before the first heading, 1 for a ``# title``
    and what follows it, 2 for a ``## section``; ``title`` is the heading
    text (None at level 0). ``start``/``body``/``end`` are character offsets
    (heading line, first line after it, start of the next chunk);
    ``line``/``end_line`` the same as 0-based line numbers.
    """

    level: int
    title: str | None
    start: int
    body: int
    end: int
    line: int
    end_line: int
    #: line numbers (relative to ``line``) that lie inside a fenced code block
    fenced: frozenset[int] = frozenset()


def split_chunks(text: str, offset: int = 0) -> list[Chunk]:
    """Split ``text[offset:]`` (``\n`` endings) at its ``#`` and ``##`` headings.

    Headings inside fenced code blocks (a shell comment, say) are not
    breaks (CommonMark: a fence runs to the closing fence of the same kind,
    or to the end of the file). ``###`` and deeper stay inside their
    section. Every character from ``offset`` on belongs to exactly one chunk.
    """
    base_line = text[:offset].count("\n")
    if "```" not in text and "~~~" not in text:
        # No line can open a fence (a fence needs three backticks or tildes): find the
        # headings with one multi-line search instead of a regex call per line
        # (issue 13: a cold index build splits 45 MB of notes). Same chunks.
        return _split_unfenced(text, offset, base_line)
    return _split_lines(text, offset, base_line)


def _split_lines(text: str, offset: int, base_line: int) -> list[Chunk]:
    """:func:`split_chunks` line by line (code fences seen)."""
    from .markdown import fenced_lines, heading_of

    lines = text[offset:].split("\n")
    fenced = fenced_lines(lines)
    chunks: list[Chunk] = []
    cur = Chunk(0, None, offset, offset, len(text), base_line, base_line + len(lines))
    cur_fenced: set[int] = set()
    pos = offset
    for n, line in enumerate(lines):
        found = None if fenced[n] else heading_of(line)
        if found is not None and found[0] <= 2:
            cur.end, cur.end_line, cur.fenced = pos, base_line + n, frozenset(cur_fenced)
            chunks.append(cur)
            body = min(len(text), pos + len(line) + 1)
            cur = Chunk(found[0], found[1], pos, body, len(text), base_line + n, base_line + len(lines))
            cur_fenced = set()
        elif fenced[n]:
            cur_fenced.add(base_line + n - cur.line)
        pos += len(line) + 1
    cur.fenced = frozenset(cur_fenced)
    chunks.append(cur)
    # the leading chunk is kept only when it holds something
    if chunks[0].level == 0 and chunks[0].end == chunks[0].start:
        chunks.pop(0)
    return chunks


def _split_unfenced(text: str, offset: int, base_line: int) -> list[Chunk]:
    """:func:`split_chunks` of a text without code fences: only lines holding a ``#`` are tried.

    :data:`_HEADING_LINES` is :mod:`memory_manager.markdown`'s heading pattern in
    multi-line mode: it cannot cross a line break, so matched at a line start it
    gives what the per-line match gives, the same level and title.
    """
    sub = text[offset:]
    n_lines = sub.count("\n") + 1
    size = len(text)
    chunks: list[Chunk] = []
    cur = Chunk(0, None, offset, offset, size, base_line, base_line + n_lines)
    line, last = 0, 0
    find, match = sub.find, _HEADING_LINES.match
    hash_at = find("#")
    while hash_at >= 0:
        # A heading line starts with at most three spaces, then "#": look at each line
        # holding a "#" once, from its start.
        start = sub.rfind("\n", 0, hash_at) + 1
        m = match(sub, start) if hash_at - start <= 3 else None
        line_end = find("\n", hash_at)
        hash_at = -1 if line_end < 0 else find("#", line_end + 1)
        if m is None or len(m.group(1)) > 2:
            continue
        level = len(m.group(1))
        line += sub.count("\n", last, start)
        last = start
        pos = offset + start
        cur.end, cur.end_line = pos, base_line + line
        chunks.append(cur)
        cur = Chunk(level, (m.group(2) or "").strip(), pos, min(size, offset + m.end() + 1), size,
                    base_line + line, base_line + n_lines)
    chunks.append(cur)
    if chunks[0].level == 0 and chunks[0].end == chunks[0].start:
        chunks.pop(0)
    return chunks


def _day_of_name(path: Path | str | None) -> str | None:
    if path is None:
        return None
    m = _DAY_START.match((path if isinstance(path, Path) else Path(path)).name)
    return m.group(1) if m else None


def _daily_heads(text: str, path: Path | None, chunks: list[Chunk] | None) -> Iterator[tuple[Chunk, str, str, int]]:
    """``(chunk, date, topic, occurrence)`` of each section of a daily note (see :func:`parse_daily`).

    ``occurrence``: how many earlier sections of the file have the same date and topic; the id
    before any id comment is :func:`_section_id` of the three, made only when needed (most
    sections carry an id comment; issue 13).
    """
    running = _day_of_name(path)
    seen: dict[tuple[str, str], int] = {}
    for chunk in split_chunks(text) if chunks is None else chunks:
        if chunk.level == 1:
            title_day = _DAY_START.match(chunk.title or "")
            if title_day:
                running = title_day.group(1)
            continue
        if chunk.level != 2:
            continue
        head = _BRACKET.match(chunk.title or "")
        day, topic = (head.group(1), head.group(2).strip()) if head else (running, (chunk.title or "").strip())
        if not day or not topic:
            continue
        occurrence = seen.get((day, topic), 0)
        seen[(day, topic)] = occurrence + 1
        yield chunk, day, topic, occurrence


def _section_id(day: str, topic: str, occurrence: int) -> str:
    """A daily section's id without an id comment: :func:`daily_id` of its date and topic (and occurrence)."""
    return daily_id(day, topic if not occurrence else f"{topic}\n{occurrence}")


def daily_marks(text: str, path: Path | None, chunks: list[Chunk]) -> dict[int, tuple[str, bool, str]]:
    """What :func:`parse_daily` reads of each section but its lines: ``{span start: (id, pinned, date)}``.

    The same id (the first ``<!-- id: … -->`` line outside a fence, else
    :func:`daily_id`), pinned mark and date as :func:`parse_daily`, found by
    looking only at the lines that hold ``<!--`` (both comments start so):
    recall's index needs no items, and a cold build reads every note
    (issue 13). ``chunks``: :func:`split_chunks` of ``text``.
    """
    out: dict[int, tuple[str, bool, str]] = {}
    find = text.find
    used: set[str] = set()  # ids are unique within a file (see parse_daily)
    for chunk, day, topic, occurrence in _daily_heads(text, path, chunks):
        ident = None
        pinned = explicit = False
        at = find("<!--", chunk.body, chunk.end)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            end = find("\n", at)
            end = len(text) if end < 0 else end
            line = text[start:end]
            if start >= chunk.body and not (chunk.fenced and text.count("\n", chunk.start, start) in chunk.fenced):
                if (m := _ID.match(line)) and not explicit:
                    ident, explicit = m.group(1), True
                elif _PINNED.match(line):
                    pinned = True
            at = find("<!--", end, chunk.end)
        out[chunk.start] = (_unique_daily_id(ident, day, topic, occurrence, used), pinned, day)
    return out


def _unique_daily_id(ident: str | None, day: str, topic: str, occurrence: int, used: set[str]) -> str:
    """``ident`` (the section's id comment, None without one), or when there is none or an earlier section
    of the file has it already (a copied id comment), the id the section has without the comment
    (:func:`_section_id`), counted on until unused; noted in ``used``."""
    if ident is None or ident in used:
        ident, extra = _section_id(day, topic, occurrence), 0
        while ident in used:
            extra += 1
            ident = daily_id(day, f"{topic}\n{extra}")
    used.add(ident)
    return ident


def parse_daily(text: str, path: Path | None = None, chunks: list[Chunk] | None = None) -> list[DailySection]:
    """Parse the sections of a daily note (``\n`` endings).

    A section is a ``##`` heading outside code fences: ``## [YYYY-MM-DD]
    topic`` (the Memory Master form), or ``## topic`` dated by the ``#
    YYYY-MM-DD`` title above it or, failing that, by the file name. It runs
    to the next ``#``/``##`` heading outside a fence. Items are ``- `` or
    ``* `` bullets labelled 因/改/待 or Cause/Change/Todo (any case, ``:`` or
    ``：``). ``<!-- id: … -->`` and ``<!-- pinned -->`` (any case) are read on
    their own lines. Without an id comment a section's id is
    :func:`daily_id` of its date and topic (a repeat of the same date and
    topic in one file is told apart by its occurrence number).
    Ids are unique within a file: an id comment already used by an earlier
    section (copied along with a section the user duplicated by hand) is
    ignored and the section gets the id it would have without it, so recall,
    ``show`` and ``forget`` always name the same section (issue 10: ``forget``
    of the copy's id once deleted the original).
    ``chunks`` are :func:`split_chunks` of ``text`` when the caller has them already.
    """
    all_lines = text.split("\n")
    sections: list[DailySection] = []
    used: set[str] = set()
    for chunk, day, topic, occurrence in _daily_heads(text, path, chunks):
        section = DailySection(day, topic, None, False, [], chunk.line, chunk.end_line, path,  # id: below
                               span=(chunk.start, chunk.end))
        explicit = False
        fenced = chunk.fenced
        for n in range(chunk.line + 1, chunk.end_line):
            line = all_lines[n]
            if fenced and (n - chunk.line) in fenced:
                section.other.append(line)
            elif "<!--" in line and (m := _ID.match(line)) and not explicit:  # both comments start "<!--"
                section.id, explicit = m.group(1), True
            elif "<!--" in line and _PINNED.match(line):
                section.pinned = True
            elif m := _ITEM.match(line):
                label = m.group(1)
                kind = _LABEL_KINDS.get(label) or _label_kind(label)
                section.items.append((kind, m.group(2).rstrip()))
            elif line.strip():
                section.other.append(line)
        while section.end > section.start + 1 and not all_lines[section.end - 1].strip():
            section.end -= 1  # trailing blank lines belong to the gap (the span keeps them)
        section.id = _unique_daily_id(section.id, day, topic, occurrence, used)
        sections.append(section)
    return sections


def _item_line(kind: str, text: str, lang: str) -> str:
    zh, en = LABELS[kind]
    return f"- {zh}：{text}" if lang == "zh" else f"- {en}: {text}"


def render_daily_section(day: str, topic: str, items: list[tuple[str, str]], lang: str,
                         pinned: bool = False, other: list[str] = ()) -> str:
    """Render a new section with the ``daily-entry.md`` template (no trailing newline);
    ``other`` lines (free text, fenced code) follow the items as they are."""
    from .templates import render

    lines = [_item_line(kind, text, lang) for kind, text in items] + list(other)
    if pinned:
        lines.insert(0, "<!-- pinned -->")
    return render("daily-entry.md", lang, date=day, topic=topic, id=daily_id(day, topic),
                  items="\n".join(lines)).rstrip("\n")


def ordered_items(cause: list[str], change: list[str], todo: list[str]) -> list[tuple[str, str]]:
    """Return ``(kind, text)`` pairs in 因/改/待 order, each text stripped, blanks and repeats dropped."""
    out: list[tuple[str, str]] = []
    for kind, texts in (("cause", cause), ("change", change), ("todo", todo)):
        for text in texts:
            for piece in str(text).split("\n"):
                piece = piece.strip()
                if piece and (kind, piece) not in out:
                    out.append((kind, piece))
    return out


def merge_daily_text(text: str, day: str, topic: str, items: list[tuple[str, str]],
                     lang: str, other: list[str] = (), pinned: bool = False,
                     parsed: list[DailySection] | None = None) -> tuple[str, str, list[tuple[str, str]]]:
    """Add a section (or merge into the existing one) in daily-note ``text``.

    Returns ``(new_text, section_id, added_items)``; ``added_items`` is
    empty when every line was already there (the caller then writes nothing).
    ``other`` lines (free text, fenced code) go to the end of a new section;
    in an existing one, as a block, unless the section already holds that
    block (so a second import does not repeat a code block). Added ``other``
    lines count as ``("other", line)`` in ``added_items``.
    Merging keeps every distinct line: a new line goes after the last line
    of its kind (or after the last line of an earlier kind), so the section
    stays in 因/改/待 order. ``parsed``: :func:`parse_daily` of ``text`` when the
    caller has it already (a 50 MB note is then parsed once, not twice).
    """
    if parsed is None:
        parsed = parse_daily(text)
    sections = [s for s in parsed if s.date == day and s.topic == topic]
    if not sections:
        block = render_daily_section(day, topic, items, lang, pinned, other)
        base = text.rstrip("\n")
        new_text = (base + "\n\n" if base else "") + block + "\n"
        return new_text, daily_id(day, topic), list(items) + [("other", line) for line in other]
    section = sections[0]
    lines = text.split("\n")
    present = set(section.items)
    added: list[tuple[str, str]] = []
    for kind, value in items:
        if (kind, value) in present:
            continue
        rank = KINDS.index(kind)
        insert_at = section.start + 1
        for n in range(section.start + 1, section.end):
            if _ID.match(lines[n]) or _PINNED.match(lines[n]):
                insert_at = max(insert_at, n + 1)
            elif m := _ITEM.match(lines[n]):
                if KINDS.index(_label_kind(m.group(1))) <= rank:
                    insert_at = n + 1
        lines.insert(insert_at, _item_line(kind, value, lang))
        section.end += 1
        present.add((kind, value))
        added.append((kind, value))
    if other and not _holds_run(section.other, list(other)):
        lines[section.end:section.end] = list(other)
        added += [("other", line) for line in other]
    return "\n".join(lines), section.id, added


def _holds_run(lines: list[str], run: list[str]) -> bool:
    """True when ``run`` appears in ``lines`` as consecutive lines."""
    return any(lines[i:i + len(run)] == run for i in range(len(lines) - len(run) + 1))


def daily_files(ws: Path) -> list[Path]:
    """Return ``memory/daily/YYYY-MM-DD.md`` files, oldest first."""
    folder = memory_dir(ws) / DAILY_DIR
    if not folder.is_dir() or not stays_inside(ws, folder):
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and _DATE_NAME.match(p.name) and stays_inside(ws, p))


def stays_inside(ws: Path, path: Path) -> bool:
    """True when ``path`` (symlinks resolved) is inside workspace ``ws``: nothing is read through a link
    that leads out (issue 10: a planted symlink must not make export or cleanup read elsewhere)."""
    real = os.path.realpath(ws)
    target = os.path.realpath(path)
    return target == real or target.startswith(real + os.sep)


def openclaw_note_files(ws: Path) -> list[Path]:
    """Return OpenClaw's own notes ``memory/YYYY-MM-DD*.md``, oldest first (read, never rewritten)."""
    folder = tree.Tree(Path(ws)).memory
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and _DAY_FILE.match(p.name))


def iter_daily(ws: Path, problems: list[str] | None = None) -> Iterator[DailySection]:
    """Yield every daily section, oldest file first; unreadable files go to ``problems``.

    A note or section whose ``YYYY-MM-DD`` is no real date (``2026-13-45``)
    is still yielded (its lines are the user's memory) and also named in
    ``problems``; date readers treat it as undated (``clock.parse_day``).
    """
    for path in daily_files(ws):
        name_day = _DATE_NAME.match(path.name).group(1)
        if problems is not None and parse_day(name_day) is None:
            problems.append(f"{path.name}: {name_day!r} is not a real date (treated as undated)")
        try:
            text = read_text(path).text
        except Exception as exc:  # UnreadableFileError: report and skip
            if problems is not None:
                problems.append(f"{path.name}: {exc}")
            continue
        for section in parse_daily(text, path):
            if problems is not None and section.date != name_day and parse_day(section.date) is None:
                problems.append(f"{path.name}: section [{section.date}] {section.topic!r}: "
                                "not a real date (treated as undated)")
            yield section


# ---------------------------------------------------------- notes as entries

@dataclass
class Entry:
    """One unit of recall, show, forget and pruning, from any Markdown memory file.

    ``path`` is workspace-relative (POSIX); ``ordinal`` the chunk's position
    in the file; ``heading`` the heading text without ``#`` marks; ``date``
    ``YYYY-MM-DD`` or None; ``id`` as :func:`parse_entries` assigns it;
    ``kind`` the source kind; ``text`` the body without id/pinned comments;
    ``span`` the character offsets of the whole entry in the file's ``\\n``
    text (a knowledge entry spans its file); ``meta`` extra facts
    (``bad_date``).
    """

    path: str
    ordinal: int
    heading: str
    date: str | None
    id: str
    kind: str
    text: str
    tags: list[str] = field(default_factory=list)
    pinned: bool = False
    span: tuple[int, int] = (0, 0)
    meta: dict[str, Any] = field(default_factory=dict)


_ID_ANY = re.compile(r"<!--\s*id:\s*([^\s>]+?)\s*-->")
_PINNED_ANY = re.compile(r"<!--\s*pinned\s*-->", re.I)
_DATE_IN_HEADING = re.compile(r"\[(\d{4}-\d{2}-\d{2})\]")


def stable_id(path: str, heading: str, occurrence: int) -> str:
    """Return the id ``h-<12 hex>`` of SHA-1(path, heading, occurrence): for a section
    of a file that is not a daily note or knowledge entry and carries no id comment.

    Stable as long as the file is not renamed and the heading not edited.
    """
    digest = hashlib.sha1(f"{path}\n{heading}\n{occurrence}".encode("utf-8")).hexdigest()
    return "h-" + digest[:12]


def _clean(body: str) -> str:
    body = _ID_ANY.sub("", body)
    # Both patterns start "<!--": with none left (a daily section once its id comment is gone) the
    # pinned pattern has nothing to find (issue 13: a regular-expression scan per entry skipped).
    return (_PINNED_ANY.sub("", body) if "<!--" in body else body).strip()


#: ``_iso`` of strings seen so far: a cold index build meets the same few
#: hundred dates a hundred thousand times (issue 13: < 3 s at 100k entries).
_ISO_CACHE: dict[str, str | None] = {}


def _iso(value: Any) -> str | None:
    if isinstance(value, str):
        found = _ISO_CACHE.get(value, _ISO_MISS)
        if found is not _ISO_MISS:
            return found  # type: ignore[return-value]
        day = parse_day(value)
        if len(_ISO_CACHE) > 100_000:
            _ISO_CACHE.clear()
        found = _ISO_CACHE[value] = day.isoformat() if day else None
        return found
    day = parse_day(value)
    return day.isoformat() if day else None


_ISO_MISS = object()


def _bad(value: str | None) -> str | None:
    return value if value and _iso(value) is None else None


#: The marker line of a lessons file (``lessons.MARKER``; formats.md, ``lessons`` v1).
LESSONS_MARKER = "<!-- complex-memory-manager: lessons v1 -->"

_PREAMBLES: tuple[str, ...] | None = None


def _template_preambles() -> tuple[str, ...]:
    """The paragraphs between the marker and the first section of ``templates/*/memory-lessons.md``."""
    global _PREAMBLES
    if _PREAMBLES is None:
        from . import templates

        found = []
        for lang in templates.LANGUAGES:
            try:
                text = templates.load("memory-lessons.md", lang)
            except MemoryManagerError:
                continue
            head = text.split(LESSONS_MARKER, 1)[-1].split("\n## ", 1)[0]
            found += [p.strip() for p in head.split("\n\n") if p.strip()]
        _PREAMBLES = tuple(found)
    return _PREAMBLES


def _without_template_preamble(body: str) -> str:
    """``body`` (a lessons file's text above its sections) without the marker line and the paragraphs
    init's template wrote there, word for word; anything else stays."""
    body = body.replace(LESSONS_MARKER, "")
    for para in _template_preambles():
        body = body.replace(para, "")
    return body
#: One lesson line as ``memory.py lesson`` writes it: ``- [YYYY-MM-DD] text``.
_LESSON_LINE = re.compile(r"^[-*] \[(\d{4}-\d{2}-\d{2})\] (\S.*)$")


def lesson_id(rel: str, line: str, occurrence: int = 0) -> str:
    """The id ``h-<12 hex>`` of one lesson line of a lessons file: SHA-1 of path, ``lesson``,
    the line (and its occurrence when the same line repeats). Stable while the line is unchanged."""
    digest = hashlib.sha1(f"{rel}\nlesson\n{line}\n{occurrence}".encode("utf-8")).hexdigest()
    return "h-" + digest[:12]


def _lesson_lines(rel: str, text: str, chunk: "Chunk", used: set[str]
                  ) -> tuple[list[tuple[str, str | None, str, tuple[int, int]]], str]:
    """Split the lesson lines out of one ``##`` section of a lessons file (MEMORY.md).

    Each ``- [YYYY-MM-DD] text`` line is an entry of its own (issue 10: a
    lesson recall shows can be forgotten without taking the others along):
    ``(id, date, line, span)`` with the span covering the line and its line
    break. Returns them and the rest of the section's body (what is left
    once they are cut out). Lines inside code fences are left in the body.
    """
    found = []
    rest = []
    offset = chunk.body
    fenced = False
    for line in text[chunk.body:chunk.end].split("\n"):
        end = offset + len(line) + 1
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        m = None if fenced else _LESSON_LINE.match(line.rstrip())
        if m:
            occurrence, ident = 0, lesson_id(rel, line.rstrip())
            while ident in used:
                occurrence += 1
                ident = lesson_id(rel, line.rstrip(), occurrence)
            used.add(ident)
            found.append((ident, _iso(m.group(1)), line.rstrip(), (offset, min(end, chunk.end))))
        else:
            rest.append(line)
        offset = end
    return found, "\n".join(rest)


def _comment_lines(text: str, chunk: Chunk) -> tuple[str | None, bool]:
    """The id comment and pinned mark on their own lines of ``chunk`` (fences skipped)."""
    ident, pinned = None, False
    for n, line in enumerate(text[chunk.start:chunk.end].split("\n")):
        if n == 0 and chunk.level or n in chunk.fenced:
            continue
        if ident is None and (m := _ID.match(line)):
            ident = m.group(1)
        elif _PINNED.match(line):
            pinned = True
    return ident, pinned


def parse_entries(rel: str, kind: str, text: str) -> tuple[list[Entry], str | None]:
    """Split one Markdown memory file into entries: the one reader of every note format.

    Args:
        rel: workspace-relative POSIX path (part of ``h-`` ids; its name may
            carry the date).
        kind: ``daily``, ``knowledge``, ``openclaw``, ``memory_md``,
            ``summary``, ``library``, ``t1`` or ``t2`` (decrypted text).
        text: the decoded file content, ``\\n`` endings.

    Returns ``(entries, error)``. ``error`` says why a frontmatter is malformed
    (then ``entries`` is empty: its raw lines are never shown as text) or a
    malformed knowledge entry.

    Ids: a knowledge entry has :func:`knowledge_id` of its key (frontmatter
    ``id`` when given); a daily section has :func:`parse_daily`'s id; any
    other section its ``<!-- id: … -->`` comment, else :func:`stable_id`.
    """
    rel_path = Path(rel)  # made once: a cold index build reads every file (issue 13)
    name = rel_path.name
    try:
        fm = split_frontmatter(text, name)
    except MalformedFileError as exc:
        return [], str(exc).removeprefix(f"{name}: ")
    meta = fm.meta
    name_day = _day_of_name(rel_path)
    extra: dict[str, Any] = {}
    if _bad(name_day):
        extra["bad_date"] = name_day
    file_date = _iso(name_day) or _iso(meta.get("created") or meta.get("date") or meta.get("updated"))
    raw_tags = meta.get("tags") or []
    if isinstance(raw_tags, str):
        raw_tags = [t for t in re.split(r"[,\s]+", raw_tags) if t]
    tags = [str(t) for t in raw_tags] if isinstance(raw_tags, list) else []
    stem = rel_path.stem

    if kind == "knowledge":
        try:
            entry = parse_knowledge(text, rel_path, fm)
        except MalformedFileError as exc:
            return [], str(exc).removeprefix(f"{name}: ")
        from . import history

        # Recall scores the current text; superseded versions travel in meta (issue 13).
        body, versions = history.split(text[fm.body_offset:])
        h1 = next((c.title for c in split_chunks(body) if c.level == 1 and c.title), None)
        heading = (entry.key if "key" in meta else None) or h1 or stem
        pinned = entry.pinned or any(_PINNED.match(line) for line in body.split("\n"))
        # An entry's time is when it last changed: ``updated`` before ``created``.
        changed = _iso(meta.get("updated")) or file_date
        if versions:
            extra["versions"] = versions
        extra["dates"] = sorted({d for d in [_iso(meta.get("created")), changed]
                                 + [v.since for v in versions] if d})
        return [Entry(rel, 0, heading, changed, entry.id, kind, _clean(body), entry.tags, pinned,
                      (0, len(text)), extra)], None

    chunks = split_chunks(text, fm.body_offset)
    daily = daily_marks(text, rel_path, chunks) if kind == "daily" else {}
    out: list[Entry] = []
    seen: dict[str, int] = {}
    used: set[str] = set()  # ids are unique within a file (see parse_daily)
    lessons = kind == "memory_md" and LESSONS_MARKER in text
    for ordinal, chunk in enumerate(chunks):
        body = text[chunk.body:chunk.end] if chunk.level else text[chunk.start:chunk.end]
        if lessons and chunk.level == 2:
            found, body = _lesson_lines(rel, text, chunk, used)
            for n, (ident, date, line, span) in enumerate(found):
                out.append(Entry(rel, ordinal, chunk.title or stem, date, ident, kind, line, list(tags), False, span,
                                 dict(extra, lesson=True)))
            if not _clean(body):
                continue
        if lessons and chunk.level < 2:
            # init's own words above the sections (the marker and the template's preamble) are no
            # memory: recalled, they outranked real answers (nu16 items 9 and 9b). Text a user
            # wrote there stays an entry.
            body = _without_template_preamble(body)
        if chunk.level < 2 and not _clean(body):
            continue  # a bare "# title" (or blank lines) is no entry of its own
        heading = chunk.title if chunk.level else stem
        here = dict(extra)
        section = daily.get(chunk.start)
        if section is not None:
            ident, pinned, day = section
            date = _iso(day)
            if day and date is None:  # _bad(day), without reading the date twice
                here["bad_date"] = day
        else:
            ident, pinned = _comment_lines(text, chunk)
            occurrence = seen.get(heading, 0)
            seen[heading] = occurrence + 1
            if ident in used:  # a copied id comment: this section gets an id of its own
                ident = None
            ident = ident or stable_id(rel, heading, occurrence)
            while ident in used:
                occurrence += 1
                ident = stable_id(rel, heading, occurrence)
            hd = _DATE_IN_HEADING.search(heading)
            date = (_iso(hd.group(1)) if hd else None) or file_date
            if hd and _bad(hd.group(1)):
                here["bad_date"] = hd.group(1)
        used.add(ident)
        out.append(Entry(rel, ordinal, heading, date, ident, kind, _clean(body), list(tags),
                         pinned or meta.get("pinned") is True, (chunk.start, chunk.end), here))
    return out, None


# ------------------------------------------------------------------- knowledge

@dataclass
class KnowledgeEntry:
    """A knowledge entry: ``key``, ``id``, ``tags``, dates, ``pinned``, ``body``, ``path``.

    ``literal`` is the frontmatter as written (strings), ``raw_frontmatter``
    its exact text (so an export/import round trip keeps every value byte for
    byte); ``error`` is set when the file is malformed.
    """

    key: str
    path: Path
    id: str = ""
    tags: list[str] = field(default_factory=list)
    created: str = ""
    updated: str = ""
    pinned: bool = False
    body: str = ""
    literal: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    raw_frontmatter: str = ""

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"id": self.id, "key": self.key, "tags": self.tags, "created": self.created,
                "updated": self.updated, "pinned": self.pinned, "body": self.body,
                "frontmatter": self.literal, "frontmatter_text": self.raw_frontmatter,
                "path": self.path.as_posix(), "error": self.error}


def parse_knowledge(text: str, path: Path, fm: Frontmatter | None = None) -> KnowledgeEntry:
    """Parse a knowledge entry file (``\\n`` endings, no BOM).

    A file without frontmatter is read as a plain body (older hand-written
    entries); ``key`` defaults to the file name.

    Raises:
        MalformedFileError: bad YAML, not a mapping, or a field of the wrong
            type (``tags`` not a list of strings, ``key`` not a string,
            ``pinned`` not a boolean, ``version`` newer than we read).
    """
    fm = fm if fm is not None else split_frontmatter(text, path.name)  # already split by parse_entries
    meta = fm.meta
    key = meta.get("key", path.stem)
    if not isinstance(key, str) or not key:
        raise MalformedFileError(f"{path.name}: 'key' must be text")
    tags = meta.get("tags", [])
    if tags is None:
        tags = []
    if isinstance(tags, str):
        tags = [t.strip() for t in tags.split(",") if t.strip()]
    if not isinstance(tags, list) or not all(isinstance(t, (str, int, float)) for t in tags):
        raise MalformedFileError(f"{path.name}: 'tags' must be a list of words")
    pinned = meta.get("pinned", False)
    if not isinstance(pinned, bool):
        raise MalformedFileError(f"{path.name}: 'pinned' must be true or false")
    version = meta.get("version", KNOWLEDGE_VERSION)
    if meta.get("format", KNOWLEDGE_FORMAT) == KNOWLEDGE_FORMAT and (
            not isinstance(version, int) or isinstance(version, bool) or version > KNOWLEDGE_VERSION):
        raise MalformedFileError(f"{path.name}: unsupported cmm-knowledge version {version!r}")
    lit = fm.literal
    return KnowledgeEntry(key=key, path=path, id=str(meta.get("id") or knowledge_id(key)),
                          tags=[str(t) for t in tags],
                          created=str(lit.get("created", "")) if not isinstance(lit.get("created"), (list, dict)) else "",
                          updated=str(lit.get("updated", "")) if not isinstance(lit.get("updated"), (list, dict)) else "",
                          pinned=pinned, body=fm.body.strip("\n"), literal=lit, raw_frontmatter=fm.raw)


def parse_day_text(value: str | None) -> str | None:
    """``YYYY-MM-DD`` of a real date at the start of ``value`` (a frontmatter literal), else None."""
    day = parse_day(value)
    return day.isoformat() if day else None


def knowledge_files(ws: Path) -> list[Path]:
    """Return ``memory/knowledge/*.md`` sorted by name."""
    folder = memory_dir(ws) / KNOWLEDGE_DIR
    if not folder.is_dir() or not stays_inside(ws, folder):
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix == ".md" and not p.name.startswith(".")
                  and stays_inside(ws, p))


def read_knowledge(path: Path) -> tuple[KnowledgeEntry, TextFile]:
    """Read and parse a knowledge file. Raises UnreadableFileError / MalformedFileError."""
    tf = read_text(path)
    return parse_knowledge(tf.text, path), tf


def iter_knowledge(ws: Path, problems: list[str] | None = None) -> Iterator[KnowledgeEntry]:
    """Yield parsed knowledge entries; malformed ones are reported in ``problems`` and skipped."""
    for path in knowledge_files(ws):
        try:
            entry, _ = read_knowledge(path)
        except Exception as exc:  # MalformedFileError / UnreadableFileError: report, skip
            if problems is not None:
                problems.append(f"{path.name}: {exc}")
            continue
        yield entry


def render_knowledge(key: str, body: str, tags: list[str], day: str, lang: str, pinned: bool = False,
                     ident: str | None = None) -> str:
    """Render a new knowledge entry file with the ``knowledge-entry.md`` template (id ``ident``, else
    :func:`knowledge_id` of ``key``)."""
    from .templates import render

    extra = "pinned: true\n" if pinned else ""
    return render("knowledge-entry.md", lang, id=ident or knowledge_id(key), key=yaml_scalar(key),
                  tags=yaml_scalar(list(tags)), created=day, updated=day, extra=extra,
                  body=body.strip("\n")).rstrip("\n") + "\n"


def update_knowledge_text(text: str, path: Path, body_add: str, tags_add: list[str], day: str) -> str | None:
    """Return the new text of an existing entry with ``body_add`` and ``tags_add`` merged.

    Each line of ``body_add`` that is not already a line of the body (spaces
    at either end ignored) is appended, once, on its own line; the new lines
    form one paragraph after the existing text. A statement is never
    dropped for being part of a longer one ("release on Tuesdays." after
    "Never release on Tuesdays."), and earlier lines are never rewritten.
    Returns None when nothing would change (every line present, no new
    tag). Only ``tags``/``updated`` lines of the frontmatter change.

    Raises:
        MalformedFileError: the file cannot be parsed (it is never rewritten).
    """
    entry = parse_knowledge(text, path)
    fm = split_frontmatter(text, path.name)
    from . import history

    new_tags = [t for t in tags_add if t not in entry.tags]
    body = fm.body
    # Only the current text counts: a statement that was superseded (history) and is
    # learned again is current again, so it is appended above the history block.
    current, versions = history.split(body)
    # An imported body may carry its own history block: its current text is
    # merged line by line, its versions added when not already there, so the
    # same export imported twice changes nothing the second time (walk-through r3, item 4).
    add_current, add_versions = history.split(body_add)
    merged = history.merge(versions, add_versions)
    present = {line.strip() for line in current.split("\n")}
    fresh: list[str] = []
    for line in add_current.split("\n"):
        if line.strip() and line.strip() not in present:
            present.add(line.strip())
            fresh.append(line.rstrip())
    if not new_tags and not fresh and len(merged) == len(versions):
        return None
    if fresh or len(merged) != len(versions):
        if fresh:
            current = current.rstrip("\n") + ("\n\n" if current.strip() else "\n") + "\n".join(fresh) + "\n"
        versions = merged
        body = history.join(current, versions) if versions else current
        if versions and not body.startswith("\n"):
            body = "\n" + body
    if not fm.has_frontmatter:
        raw = "\n".join([f"format: {KNOWLEDGE_FORMAT}", f"version: {KNOWLEDGE_VERSION_PLAIN}",
                         f"id: {entry.id}", f"key: {yaml_scalar(entry.key)}",
                         f"tags: {yaml_scalar(entry.tags + new_tags)}", f"created: {day}", f"updated: {day}"])
        return join_frontmatter(raw, body if body.startswith("\n") else "\n" + body)
    fields: dict[str, Any] = {"updated": date.fromisoformat(day)}
    if new_tags:
        fields = {"tags": entry.tags + new_tags, **fields}
    return join_frontmatter(set_frontmatter_fields(fm.raw, fields), body)


# --------------------------------------------------------------------- indexes

def _index_text(kind: str, existing: str | None, lang: str, lines: list[str]) -> str:
    """Render ``<kind>-index.md``; an existing index keeps its title's language."""
    from .templates import render

    text = render(f"{kind}-index.md", lang, lines="\n".join(lines)).rstrip("\n") + "\n"
    if existing:
        first = existing.split("\n", 1)[0].strip()
        if first in INDEX_TITLES[kind].values():
            text = first + "\n" + text.split("\n", 1)[1]
    return text


def parse_daily_index(text: str) -> dict[str, list[str]]:
    """Parse ``daily-index.md`` into ``{topic: [daily/<date>.md, ...]}``.

    Accepts the seed's short form where later dates omit ``daily/``.
    """
    out: dict[str, list[str]] = {}
    for line in text.split("\n"):
        if not line.startswith("- ") or "→" not in line:
            continue
        topic, _, refs = line[2:].rpartition("→")
        files = []
        for ref in refs.split(","):
            ref = ref.strip()
            if ref:
                files.append(ref if ref.startswith("daily/") else f"daily/{ref}")
        out.setdefault(topic.strip(), []).extend(f for f in files if f not in out.get(topic.strip(), []))
    return out


def daily_index_text(ws: Path, cfg: dict[str, Any], existing: str | None,
                     problems: list[str] | None = None) -> str:
    """Compute ``daily-index.md`` from the daily files.

    Topics keep the order they have in the existing index; new topics follow
    in order of first appearance (oldest file first). Each topic lists its files oldest first.
    """
    mapping: dict[str, list[str]] = {}
    for section in iter_daily(ws, problems):
        ref = f"daily/{section.path.name}" if section.path else f"daily/{section.date}.md"
        refs = mapping.setdefault(section.topic, [])
        if ref not in refs:
            refs.append(ref)
    order = [t for t in parse_daily_index(existing or "") if t in mapping]
    order += [t for t in mapping if t not in order]  # first appearance: oldest file, then file order
    shown = _masked_names(order)
    return _index_text("daily", existing, language(cfg),
                       [f"- {shown[topic]} → {','.join(sorted(mapping[topic]))}" for topic in order])


def _masked_names(names: list[str]) -> dict[str, str]:
    """Map each name (a topic, a key) to its form in an index: a finding masked (``privacy.mask_name``).

    The indexes are derived copies loaded into every session (the bootstrap
    note shows them): a token or a number in a name a file was given outside
    the gate (an agent, an older version) is not copied there in full (issue
    10, round 4). One detector pass over all names (one per line).
    """
    out = {n: n for n in names}
    # Speed only (an index is rebuilt on every write): the detector reads just the
    # names that could hold a T3 value at all (a digit, "@", a secret's key word
    # or a long letters-and-digits run); the rest cannot be masked anyway.
    suspect = [n for n in names if _MAYBE_T3.search(n)]
    if not suspect:
        return out
    from .privacy import mask_name

    clean = [n.replace("\n", " ") for n in suspect]
    masked = mask_name("\n".join(clean)).split("\n")
    if len(masked) != len(clean):  # never expected (one line in, one line out); fall back to one by one
        masked = [mask_name(n) for n in clean]
    out.update(zip(suspect, masked))
    return out


#: What a name must hold for :func:`_masked_names` to run the detector on it.
_MAYBE_T3 = re.compile(r"(?i)\d|@|[a-z0-9]{16,}|pass|pwd|secret|token|key|mima|密码|口令|[^\x00-\x7f]")


def knowledge_index_text(ws: Path, cfg: dict[str, Any], existing: str | None,
                         problems: list[str] | None = None) -> str:
    """Compute ``knowledge-index.md`` (one ``- <key>`` line per entry, sorted)."""
    keys = sorted({entry.path.stem for entry in iter_knowledge(ws, problems)})
    shown = _masked_names(keys)
    return _index_text("knowledge", existing, language(cfg), [f"- {shown[k]}" for k in keys])


def rebuild_indexes(ws: Path, cfg: dict[str, Any], problems: list[str] | None = None) -> list[Path]:
    """Bring ``daily-index.md`` and ``knowledge-index.md`` in line with the files.

    Writes atomically (the caller holds :func:`~memory_manager.fsio.workspace_lock`),
    keeps an existing index's BOM and line endings, and writes nothing when
    an index is already right. Malformed entry files are left out (and
    named in ``problems``).

    Returns the index paths that were changed.
    """
    changed: list[Path] = []
    root = memory_dir(ws)
    for name, builder in ((DAILY_INDEX, daily_index_text), (KNOWLEDGE_INDEX, knowledge_index_text)):
        path = root / name
        like: TextFile | None = None
        existing = None
        if path.exists():
            try:
                like = read_text(path)
                existing = like.text
            except Exception:  # unreadable index: it is derived, so rebuild it
                like = None
        new = builder(ws, cfg, existing, problems)
        if new != existing:
            from .backups import open_backup

            # Derived, but a restore of the command's backup must give back the
            # index that matched the files it restores (issue 11: --restore undoes it).
            data = like.encode(new) if like is not None else new.encode("utf-8")
            current = open_backup(ws)
            if current is not None and not current.has(path):
                current.save_derived(path, data)
            atomic_write(path, data)
            changed.append(path)
    return changed
