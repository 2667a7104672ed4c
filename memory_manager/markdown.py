"""Line-level Markdown structure: headings, sections and code fences.

Just enough structure to move or replace whole sections without touching any
other byte: a document is a list of lines (without their endings); a section
runs from an ATX heading to the next heading of the same or a higher level
(CommonMark's ATX headings; lines inside fenced code blocks are never
headings).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class Heading:
    """A heading at ``index`` (0-based line number) with ``level`` 1-6 and ``title``."""

    index: int
    level: int
    title: str


def fenced_lines(lines: list[str]) -> list[bool]:
    """Return, for each line, whether it lies inside (or opens/closes) a fenced code block."""
    inside: list[bool] = []
    fence: str | None = None
    for line in lines:
        match = _FENCE.match(line)
        if fence is None:
            if match:
                fence = match.group(1)[0] * len(match.group(1))
                inside.append(True)
            else:
                inside.append(False)
        else:
            inside.append(True)
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                    and line.strip() == match.group(1):
                fence = None
    return inside


def is_heading(line: str) -> bool:
    """True when ``line`` is an ATX heading (ignoring code fences: see :func:`headings`)."""
    return _HEADING.match(line) is not None


def heading_of(line: str) -> tuple[int, str] | None:
    """Return ``(level, title)`` when ``line`` is an ATX heading, else None (fences not considered)."""
    match = _HEADING.match(line)
    if match is None:
        return None
    return len(match.group(1)), (match.group(2) or "").strip()


def headings(lines: list[str]) -> list[Heading]:
    """Return every ATX heading outside code fences, in order."""
    fenced = fenced_lines(lines)
    found = []
    for index, line in enumerate(lines):
        if fenced[index]:
            continue
        match = _HEADING.match(line)
        if match:
            found.append(Heading(index, len(match.group(1)), (match.group(2) or "").strip()))
    return found


def section_end(lines: list[str], heading: Heading, all_headings: list[Heading] | None = None) -> int:
    """Return the index one past the last line of ``heading``'s section (subsections included)."""
    for other in all_headings if all_headings is not None else headings(lines):
        if other.index > heading.index and other.level <= heading.level:
            return other.index
    return len(lines)


def plain_title(title: str) -> str:
    """Return a heading title without leading emoji, punctuation and Markdown emphasis."""
    title = re.sub(r"[*_`]", "", title)
    return re.sub(r"^[^\w\u4e00-\u9fff]+", "", title).strip()
