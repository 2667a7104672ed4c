"""Superseded text kept inside an entry: the ``history`` block of a knowledge entry.

``memory.py edit ID --text`` replaces an entry's text and keeps what it
replaced, dated, at the end of the same file (``references/formats.md``,
knowledge entry version 2)::

    <current text>

    <!-- cmm-history: earlier versions, newest first -->
    ### 2026-09-23 .. 2026-10-20
    <the text as it was from 2026-09-23 until the edit on 2026-10-20>

    ### 2026-09-02 .. 2026-09-23
    <the first text>

Each version is headed ``### <from> .. <until>`` (``YYYY-MM-DD``): the day
that text began (the previous edit's day, or ``created`` for the first
version; see :func:`memory_manager.store.edit`) and the day it was superseded. Recall scores the current text only; the versions
are searched when a query asks about an earlier state
(:mod:`memory_manager.querytime`), and ``show --history`` lists them. A file
without the marker has no history (version 1 entries read unchanged).
Standard library only.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

MARKER = "<!-- cmm-history: earlier versions, newest first -->"
_MARKER_RE = re.compile(r"^<!--\s*cmm-history\b.*-->\s*$", re.M)
_VERSION_RE = re.compile(r"^### (\d{4}-\d{2}-\d{2}) \.\. (\d{4}-\d{2}-\d{2})\s*$", re.M)


@dataclass(frozen=True)
class Version:
    """One superseded text: written on ``since``, replaced on ``until`` (``YYYY-MM-DD`` each)."""

    since: str
    until: str
    text: str

    def as_dict(self) -> dict[str, str]:
        return {"since": self.since, "until": self.until, "text": self.text}


def split(body: str) -> tuple[str, list[Version]]:
    """Split an entry body into its current text and its versions (newest first).

    Text between the marker and the first version heading is ignored (it can
    only be blank lines or a comment a person added). A second marker (an
    import before 0.1.x appended the block again) is dropped, and so is a
    version identical to one already read: the text, not the marker, is what
    ``show --history`` and recall see.
    """
    m = _MARKER_RE.search(body)
    if not m:
        return body, []
    current = body[:m.start()].rstrip("\n")
    block = _MARKER_RE.sub("", body[m.end():])
    heads = list(_VERSION_RE.finditer(block))
    versions: list[Version] = []
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(block)
        version = Version(h.group(1), h.group(2), block[h.end():end].strip("\n"))
        if version not in versions:
            versions.append(version)
    return current, versions


def merge(versions: list[Version], more: list[Version]) -> list[Version]:
    """``versions`` plus those of ``more`` not already there (same dates and text), newest first."""
    out = list(versions)
    for version in more:
        if all((v.since, v.until, v.text.strip()) != (version.since, version.until, version.text.strip())
               for v in out):
            out.append(version)
    return sorted(out, key=lambda v: (v.until, v.since), reverse=True)


def join(current: str, versions: list[Version]) -> str:
    """Render a body: ``current`` then, when there are versions, the history block."""
    text = current.rstrip("\n") + "\n"
    if not versions:
        return text
    parts = [text, "\n", MARKER, "\n"]
    for v in versions:
        parts += [f"### {v.since} .. {v.until}\n", v.text.strip("\n"), "\n\n"]
    return "".join(parts).rstrip("\n") + "\n"


def supersede(body: str, new_text: str, since: str, today: str) -> str:
    """Return ``body`` with ``new_text`` as the current text and the old one first in history.

    Args:
        body: the entry's body as stored (current text and any history).
        new_text: the replacing text.
        since: the day the current text was written (the entry's ``updated``/``created``).
        today: the day of the edit (``YYYY-MM-DD``).
    """
    current, versions = split(body)
    old = current.strip("\n")
    if old:
        versions = [Version(since, today, old)] + versions
    return join(new_text.strip("\n"), versions)
