"""Turning memory Markdown files into entries, the unit of recall and pruning.

An *entry* is a ``##`` section of a note (daily note, OpenClaw's own
``memory/YYYY-MM-DD*.md``, a MEMORY.md section, a summary or library page) or
a whole knowledge entry (``memory/knowledge/<key>.md``). Text before a note's
first ``##`` heading becomes an entry of its own only when it holds more than
a ``#`` title. Headings inside fenced code blocks are not section breaks.

Each entry carries:
- ``path`` (workspace-relative, POSIX), ``ordinal`` (position in the file);
- ``heading`` (the heading text, without ``## ``);
- ``date`` (``YYYY-MM-DD``): the ``[YYYY-MM-DD]`` in the heading (Memory
  Master's daily form), else the file name's leading date, else the
  frontmatter's ``created``/``date``/``updated``, else ``None``;
- ``id``: the ``<!-- id: ... -->`` comment (or frontmatter ``id``), else
  ``h-`` + 12 hex of SHA-1 over path, heading and occurrence number (stable
  as long as the file is not renamed and the heading not edited);
- ``tags`` (knowledge frontmatter ``tags``), ``pinned`` (``<!-- pinned -->``
  or frontmatter ``pinned: true``);
- ``text`` (the body with id/pinned comments removed) and ``span`` (start
  and end character offsets of the section in the file's ``\\n`` text, used
  by pruning to cut it out).

Sources (:func:`source_files`): ``memory/daily/``, ``memory/knowledge/``,
OpenClaw's ``memory/YYYY-MM-DD*.md``, ``MEMORY.md``, ``memory/summaries/``,
``memory/tier1-public/`` and ``library/`` when they exist (the Optimization
seed's L0-L3 layers). T2 entries are never read from disk into the index;
:func:`t2_entries` decrypts them in memory at query time (see there).
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import tree
from .clock import parse_day

#: source kinds that this bundle created (pruning may rewrite only these).
OWN_KINDS = ("daily", "knowledge")

_DATE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})")
_DATE_HEADING = re.compile(r"\[(\d{4}-\d{2}-\d{2})\]")
_H2 = re.compile(r"^##[ \t]+(.+?)[ \t]*#*[ \t]*$")
_H1 = re.compile(r"^#[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_ID = re.compile(r"<!--\s*id:\s*([^\s>]+?)\s*-->")
_PINNED = re.compile(r"<!--\s*pinned\s*-->", re.I)
_OPENCLAW_NOTE = re.compile(r"^\d{4}-\d{2}-\d{2}.*\.md$")


@dataclass
class Entry:
    """One unit of recall (see the module docstring for each field)."""

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


def _inside(path: str, root_real: str) -> bool:
    """True when ``path`` (symlinks resolved) lies inside ``root_real`` (already resolved)."""
    real = os.path.realpath(path)
    return real == root_real or real.startswith(root_real + os.sep)


def _walk_md(folder: str, prefix: str, recursive: bool, out: list, kind: str,
             name_ok=None, root_real: str = "") -> None:
    """Append ``(relative path, kind, DirEntry)`` for each ``*.md`` under ``folder``.

    Plain strings and ``os.scandir`` (no ``pathlib``): this runs on every recall,
    over every memory file, so it must stay cheap. A folder or file that is a
    symlink leading out of the workspace (``root_real``) is skipped: recall
    never reads outside the workspace, like every other command.
    """
    if root_real and not _inside(folder, root_real):
        return
    try:
        with os.scandir(folder) as it:
            items = sorted(it, key=lambda d: d.name)
    except OSError:
        return
    for item in items:
        name = item.name
        if name.startswith("."):
            continue
        if item.is_symlink() and root_real and not _inside(item.path, root_real):
            continue
        if name.endswith(".md") and item.is_file():
            if name_ok is None or name_ok(name):
                out.append((prefix + name, kind, item))
        elif recursive and item.is_dir(follow_symlinks=False):
            _walk_md(item.path, prefix + name + "/", True, out, kind, name_ok, root_real)


def scan_sources(ws: Path) -> list[tuple[str, str, os.DirEntry]]:
    """Like :func:`source_files`, with each file's ``os.DirEntry`` (for a cheap ``stat``)."""
    root = os.fspath(ws)
    real = os.path.realpath(root)
    mem = os.path.join(root, tree.MEMORY)
    found: list[tuple[str, str, os.DirEntry]] = []

    def under(name: str, kind: str, recursive: bool = False, name_ok=None) -> None:
        _walk_md(os.path.join(mem, name), tree.rel(name) + "/", recursive, found, kind, name_ok, root_real=real)

    under(tree.DAILY, "daily")
    under(tree.KNOWLEDGE, "knowledge")
    _walk_md(mem, tree.MEMORY + "/", False, found, "openclaw", _OPENCLAW_NOTE.match, root_real=real)
    top: list = []
    _walk_md(root, "", False, top, "memory_md", lambda n: n in tree.MEMORY_MD_NAMES, root_real=real)
    found.extend(sorted(top, key=lambda t: t[0] != tree.MEMORY_MD)[:1])  # MEMORY.md wins over memory.md
    under(tree.SUMMARIES, "summary", recursive=True)
    under(tree.TIER1, "t1")
    _walk_md(os.path.join(root, tree.LIBRARY), tree.LIBRARY + "/", True, found, "library", root_real=real)
    return found


def source_files(ws: Path) -> list[tuple[str, str]]:
    """List the Markdown files recall reads, as ``(relative path, kind)``.

    Kinds: ``daily``, ``knowledge``, ``openclaw``, ``memory_md``, ``summary``,
    ``t1``, ``library``. Hidden files and folders are skipped; the archive,
    T2 folder and the generated indexes are not sources.
    """
    return [(rel, kind) for rel, kind, _ in scan_sources(ws)]


def split_frontmatter(text: str) -> tuple[dict[str, Any], int, str | None]:
    """Split YAML frontmatter off ``text`` with the store's strict splitter
    (:func:`memory_manager.entries.split_frontmatter`).

    Returns ``(meta, body_offset, error)``: ``meta`` is ``{}`` when there is
    none or it is malformed (then ``error`` says why and the whole text is body).
    """
    from .entries import split_frontmatter as split
    from .errors import MalformedFileError

    try:
        fm = split(text, "frontmatter")
    except MalformedFileError as exc:
        return {}, 0, str(exc).removeprefix("frontmatter: ")
    return fm.meta, fm.body_offset, None


def _iso(value: Any) -> str | None:
    """``YYYY-MM-DD`` of a real calendar date at the start of ``value``, else None."""
    day = parse_day(value)
    return day.isoformat() if day else None


def _bad_date(value: str | None) -> str | None:
    """``value`` when it looks like ``YYYY-MM-DD`` but is no real date (``2026-13-45``)."""
    return value if value and parse_day(value) is None else None


def stable_id(path: str, heading: str, occurrence: int) -> str:
    """Return the fallback id ``h-<12 hex>`` of SHA-1(path, heading, occurrence)."""
    digest = hashlib.sha1(f"{path}\n{heading}\n{occurrence}".encode("utf-8")).hexdigest()
    return "h-" + digest[:12]


def _clean(body: str) -> str:
    return _PINNED.sub("", _ID.sub("", body)).strip()


def _sections(text: str, offset: int) -> list[tuple[str | None, int, int, int]]:
    """Return ``(heading or None, start, body_start, end)`` for each section."""
    out: list[tuple[str | None, int, int, int]] = []
    fence: str | None = None
    pos = offset
    cur_heading: str | None = None
    cur_start = offset
    cur_body = offset
    for line in text[offset:].splitlines(keepends=True):
        stripped = line.rstrip("\n")
        fm = _FENCE.match(stripped)
        if fm:
            mark = fm.group(1)[0]
            if fence is None:
                fence = mark
            elif fence == mark:
                fence = None
        elif fence is None:
            hm = _H2.match(stripped)
            if hm:
                out.append((cur_heading, cur_start, cur_body, pos))
                cur_heading, cur_start, cur_body = hm.group(1).strip(), pos, pos + len(line)
        pos += len(line)
    out.append((cur_heading, cur_start, cur_body, pos))
    return out


def parse_text(rel: str, kind: str, text: str) -> list[Entry]:
    """Split one file's text (``\\n`` line endings) into entries.

    Args:
        rel: workspace-relative POSIX path (used for ids and dates).
        kind: the source kind from :func:`source_files` (or ``t2``).
        text: the decoded file content.
    """
    meta, body_at, error = split_frontmatter(text)
    name_date = _DATE_NAME.match(Path(rel).name)
    # An impossible date (2026-13-45, 2026-02-30) in the name, a heading or the
    # frontmatter means "no date": it is kept in meta["bad_date"] so that
    # callers can report it, and never reaches the date arithmetic.
    bad = _bad_date(name_date.group(1) if name_date else None)
    file_date = _iso(name_date.group(1) if name_date else None) or _iso(
        meta.get("created") or meta.get("date") or meta.get("updated"))
    raw_tags = meta.get("tags") or []
    if isinstance(raw_tags, str):
        raw_tags = [t for t in re.split(r"[,\s]+", raw_tags) if t]
    tags = [str(t) for t in raw_tags] if isinstance(raw_tags, list) else []
    fm_pinned = meta.get("pinned") is True
    extra: dict[str, Any] = {"frontmatter_error": error} if error else {}
    if bad:
        extra["bad_date"] = bad
    stem = Path(rel).stem

    if kind == "knowledge":
        body = text[body_at:]
        title = str(meta.get("key") or "") or None
        h1 = next((m.group(1) for m in map(_H1.match, body.splitlines()[:5]) if m), None)
        heading = title or h1 or stem
        ident = meta.get("id")
        idm = _ID.search(body)
        ident = str(ident) if ident else (idm.group(1) if idm else stable_id(rel, heading, 0))
        return [Entry(rel, 0, heading, file_date, ident, kind, _clean(body), tags,
                      fm_pinned or bool(_PINNED.search(body)), (0, len(text)), extra)]

    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for ordinal, (heading, start, body_start, end) in enumerate(_sections(text, body_at)):
        body = text[body_start:end]
        if heading is None:
            lines = [ln for ln in body.splitlines() if ln.strip()]
            title = next((m.group(1) for m in map(_H1.match, lines[:1]) if m), None)
            content = [ln for ln in lines if not _H1.match(ln)]
            if not content:
                continue
            heading = title or stem
            if title:  # the file's "# title" is the heading, not part of the text
                body = body.replace(next(ln for ln in lines if _H1.match(ln)), "", 1)
        head_zone = "\n".join(body.splitlines()[:3])
        idm = _ID.search(head_zone)
        occurrence = seen.get(heading, 0)
        seen[heading] = occurrence + 1
        ident = idm.group(1) if idm else stable_id(rel, heading, occurrence)
        hd = _DATE_HEADING.search(heading)
        date = (_iso(hd.group(1)) if hd else None) or file_date
        meta_here = dict(extra)
        if hd and _bad_date(hd.group(1)):
            meta_here["bad_date"] = hd.group(1)
        pinned = fm_pinned or bool(_PINNED.search(head_zone))
        entries.append(Entry(rel, ordinal, heading, date, ident, kind, _clean(body),
                             list(tags), pinned, (start, end), meta_here))
    return entries


def t2_entries(ws: Path, cfg: dict[str, Any], record: bool = True, approved: bool = False,
               stats: dict[str, int] | None = None) -> list[Entry]:
    """Return decrypted T2 entries that may be reused, or ``[]``.

    The hook point for tier 2 (Tiers seed). Reusing T2 memory needs the
    user's approval in both gate modes (references/gate.md), so without
    ``approved`` nothing is decrypted: the entries that could have been used
    are only counted (``stats["held"]``) so the caller can ask. With it, an
    entry is included when (1) it has not expired, (2) its key is available
    and it decrypts (``tiers.decrypt_entry``; entries without their key are
    counted in ``stats["locked"]``, undecryptable ones skipped), and (3) the
    memory gate allows the reuse (``gate.evaluate("reuse", plaintext,
    approved=True)``: secrets and T3 stay refused). Plaintext lives only in
    memory: it is never written to the index. ``record`` appends each gate
    decision to the audit log; recall passes ``track`` so ``--no-track``
    writes nothing.
    """
    try:
        from . import gate, tiers
    except ImportError:  # pragma: no cover - the store ships with the bundle
        return []
    from .clock import today
    from .errors import CryptoError, KeyUnavailableError

    counts = stats if stats is not None else {}
    for name in ("held", "locked", "refused", "included"):
        counts.setdefault(name, 0)
    out: list[Entry] = []
    ws = Path(ws)
    for item in tiers.iter_t2_entries(ws):
        if getattr(item, "error", None) or Path(item.path).is_symlink():
            continue
        expires = _iso(getattr(item, "expires", None))
        if expires and expires < today().isoformat():
            continue
        if not approved:
            counts["held"] += 1
            continue
        try:
            plain = tiers.decrypt_entry(item, cfg)
        except KeyUnavailableError:
            counts["locked"] += 1
            continue
        except CryptoError:
            continue
        # Stored T2 entries went through the gate when written: a stored preference.
        decision = gate.evaluate("reuse", plain, source="approved_preference", approved=True, cfg=cfg,
                                 tier="internal", request="recall")
        if record:
            gate.record(ws, decision)
        if not decision.allowed:
            counts["refused"] += 1
            continue
        counts["included"] += 1
        rel = Path(item.path).relative_to(ws).as_posix() if Path(item.path).is_absolute() else str(item.path)
        created = _iso(getattr(item, "created", None))
        for entry in parse_text(rel, "t2", plain):
            entry.date = entry.date or created
            entry.span = (0, 0)
            entry.id = getattr(item, "id", "") or entry.id  # the store's t-… id: `memory.py show` takes it
            out.append(entry)
    return out
