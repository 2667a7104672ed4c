"""Lessons: one line appended to the right section of MEMORY.md (``memory.py lesson``).

``init`` turns MEMORY.md into a lessons file (``references/formats.md``,
``lessons`` v1): a title, the marker comment and three sections, in the
file's language — lessons (``## Lessons`` / ``## 经验``), mistakes to avoid
(``## Mistakes to avoid`` / ``## 避免的错误``) and decisions (``## Decisions``
/ ``## 决定``). :func:`add_lesson` puts ``- [YYYY-MM-DD] text`` first in its
section (the template asks for newest first), through the memory gate, after
a backup, atomically and under the workspace lock. OpenClaw loads MEMORY.md
into every session, so the result warns when the file grows past the
bootstrap limit (``initialize.BOOTSTRAP_MAX_CHARS``).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import backups, tree
from .clock import today
from .errors import BadInputError, NotFoundError, UnreadableFileError
from .fsio import atomic_write, read_text, workspace_lock

#: section kind -> its headings (English, Chinese), as the templates write them.
SECTIONS = {"lesson": ("## Lessons", "## 经验"),
            "mistake": ("## Mistakes to avoid", "## 避免的错误"),
            "decision": ("## Decisions", "## 决定")}
MARKER = "<!-- complex-memory-manager: lessons v1 -->"


def _section_at(text: str, at: int) -> str | None:
    """The kind (:data:`SECTIONS` key) of the section whose heading comes last before offset ``at``, or None."""
    kind = None
    for heading in re.finditer(r"^## .*$", text[:at], re.M):
        name = heading.group(0).rstrip()
        kind = next((k for k, titles in SECTIONS.items() if name in titles), None)
    return kind


def insert_line(text: str, kind: str, line: str) -> str:
    """Return ``text`` with ``line`` first under the ``kind`` section (added at the end when missing).

    The section's language follows the file: a Chinese heading when the file
    has Chinese section headings, else English.
    """
    lines = text.split("\n")
    heads = SECTIONS[kind]
    for i, existing in enumerate(lines):
        if existing.rstrip() in heads:
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            rest = lines[j:]
            if not rest or rest[0].startswith("#"):
                rest = [""] + rest  # a blank line before the next heading (or the file's end)
            return "\n".join(lines[:i + 1] + ["", line] + rest)
    zh = any(h[1] in text for h in SECTIONS.values())
    heading = heads[1] if zh else heads[0]
    return text.rstrip("\n") + f"\n\n{heading}\n\n{line}\n"


def add_lesson(ws: Path, cfg: dict[str, Any], text: str, kind: str = "lesson", *, approved: bool = False,
               source: str = "explicit_user") -> dict[str, Any]:
    """Append one lesson line to MEMORY.md.

    Args:
        text: one line (whitespace collapsed); what worked, failed or was decided, and why.
        kind: ``lesson``, ``mistake`` or ``decision`` (the section).

    Returns ``{"action": "lesson", "path", "section", "line", "chars", "backup", "warnings", "gate"}``.

    Raises:
        BadInputError: empty text or unknown kind; NotFoundError: no lessons file
        (run ``init.py``); GateDecisionError; FileWriteError.
    """
    from .initialize import BOOTSTRAP_MAX_CHARS
    from .store import _gate, rel

    if kind not in SECTIONS:
        raise BadInputError(f"kind must be one of {', '.join(SECTIONS)}")
    flat = " ".join(str(text).split())
    if not flat:
        raise BadInputError("the lesson text is empty")
    path = tree.Tree(Path(ws)).lessons_file()
    if path is None:
        odd = next((Path(ws) / n for n in tree.MEMORY_MD_NAMES
                    if (Path(ws) / n).exists() or (Path(ws) / n).is_symlink()), None)
        if odd is not None:  # a folder, a FIFO, a device or a dangling link (fatk8: "no MEMORY.md" was untrue)
            raise UnreadableFileError(f"{odd.name} is not a regular file (a folder, a FIFO or a broken link): move it "
                                "away, then run init.py to set MEMORY.md up as the lessons file; nothing was written")
        raise NotFoundError("no MEMORY.md: run init.py first, it sets MEMORY.md up as the lessons file")
    # MEMORY.md is loaded into every session: a health (or other sensitive) word
    # there asks for approval whatever surrounds it (strict, issue 10 round 4).
    line = f"- [{today().isoformat()}] {flat}"
    # The record names the line it adds by its id (``h-…``, as recall shows it), so that
    # ``forget`` of the lesson blanks it (atk12; a repeated lesson adds no line).
    from .entries import lesson_id

    decision = _gate(ws, "store", flat, source=source, sensitivity=None, approved=approved, cfg=cfg,
                     request="record a lesson in MEMORY.md", strict=True, entry=lesson_id(rel(ws, path), line),
                     where=rel(ws, path))
    with workspace_lock(ws):
        like = read_text(path)
        if MARKER not in like.text:
            raise BadInputError(f"{path.name} is not a lessons file yet: run init.py first (it keeps every line)")
        # The same lesson on another day is no new lesson: the README's "a repeated lesson adds
        # nothing" holds across days (walk-through r4, item 7); the line kept is the first one.
        found = re.search(rf"^- \[\d{{4}}-\d{{2}}-\d{{2}}\] {re.escape(flat)}\s*$", like.text, re.M)
        if found:
            # Named as it stands: the section the kept line is under (another --kind, maybe) and
            # its own date, not the ones this call asked for (nu16 item 7).
            return {"action": "lesson", "path": rel(ws, path), "section": _section_at(like.text, found.start()) or kind,
                    "line": found.group(0).rstrip(), "added": False,
                    "chars": len(like.text), "backup": None, "warnings": [], "gate": decision.payload()}
        new_text = insert_line(like.text, kind, line)
        data = like.encode(new_text)
        backup = backups.start(ws, "lesson", allow_withheld=approved)
        # A lesson line inserted into its section: the backup keeps no copy of MEMORY.md (v4).
        backup.save_change(path, data)
        atomic_write(path, data)
    warnings = []
    if len(new_text) > BOOTSTRAP_MAX_CHARS:
        warnings.append(f"{path.name} is {len(new_text):,} characters; OpenClaw loads only the first "
                        f"{BOOTSTRAP_MAX_CHARS:,} of a bootstrap file: merge or remove old lessons")
    return {"action": "lesson", "path": rel(ws, path), "section": kind, "line": line, "added": True,
            "chars": len(new_text), "backup": backup.id, "warnings": warnings, "gate": decision.payload()}
