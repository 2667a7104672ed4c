"""Byte ranges that turn one version of a file into another, for undo records without a copy.

A change that only *inserts* text (an appended daily section, an item merged
into a section, a paragraph added to a knowledge entry) can be undone from
the new file alone: delete the inserted ranges. :func:`insertions` finds
those ranges (or says the change is not of that form); :func:`delete`
applies them; :func:`reinsert` puts deleted ranges back from their bytes
(the undo of such an undo, see ``backups`` format v4 in
``references/formats.md``).

Ranges are ``[start, end)`` byte offsets, sorted, non-empty and disjoint,
always in the coordinates of the *longer* file (the one that holds them).

Cost: linear in the file size for a change with one insertion (common prefix
and suffix, compared in blocks); a change with several insertions also runs
:mod:`difflib` on the lines between the first and the last difference, which
is skipped (the change then counts as not insertion-only, and the caller
keeps a copy instead) when that stretch is larger than :data:`DIFF_LIMIT`.
Every result is verified (deleting the ranges must give the old bytes
exactly) before it is returned.
"""
from __future__ import annotations

import difflib
from typing import Sequence

#: Bytes compared at a time while looking for the common prefix and suffix.
BLOCK = 1 << 16
#: The most bytes (of the longer side) between the first and last difference that
#: :func:`insertions` hands to difflib: its matcher is not linear, and a change that
#: scattered insertions over megabytes is rare enough to keep a copy for instead.
DIFF_LIMIT = 2 * 1024 * 1024

Ranges = list[list[int]]


def _prefix(a: bytes, b: bytes, limit: int) -> int:
    """Length of the common prefix of ``a`` and ``b``, at most ``limit``."""
    i = 0
    while i < limit:
        j = min(i + BLOCK, limit)
        if a[i:j] != b[i:j]:
            lo, hi = i, j  # the first difference is in [lo, hi): halve the block
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if a[lo:mid] == b[lo:mid]:
                    lo = mid
                else:
                    hi = mid
            return lo
        i = j
    return limit


def _suffix(a: bytes, b: bytes, limit: int) -> int:
    """Length of the common suffix of ``a`` and ``b``, at most ``limit``."""
    la, lb = len(a), len(b)
    i = 0
    while i < limit:
        j = min(i + BLOCK, limit)
        if a[la - j:la - i] != b[lb - j:lb - i]:
            lo, hi = i, j  # the common suffix has length in [lo, hi)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if a[la - mid:la - lo] == b[lb - mid:lb - lo]:
                    lo = mid
                else:
                    hi = mid
            return lo
        i = j
    return limit


#: The most bytes of an old stretch that :func:`_subsequence` walks byte by byte (a Python loop).
SUBSEQUENCE_LIMIT = 256 * 1024


def _subsequence(old: bytes, new: bytes) -> Ranges | None:
    """The bytes of ``new`` left over when ``old`` is matched in it left to right, as ranges; None when
    ``old`` is not a subsequence of ``new`` (then no insertion-only change gives ``new``: the greedy
    leftmost match finds one whenever one exists)."""
    if len(old) > SUBSEQUENCE_LIMIT:
        return None
    ranges: Ranges = []
    at = 0
    for i in range(len(old)):
        found = new.find(old[i:i + 1], at)
        if found < 0:
            return None
        if found > at:
            ranges.append([at, found])
        at = found + 1
    if at < len(new):
        ranges.append([at, len(new)])
    return ranges


def _middle(old: bytes, new: bytes) -> Ranges | None:
    """Insertions of ``new`` over ``old`` (both a stretch of whole lines); None if none fit.

    A line diff first (its ranges follow the lines the user sees); lines it
    pairs as changed are matched byte by byte (:func:`_subsequence`); when
    the line diff pairs them in a way no insertion explains, the whole
    stretch is matched byte by byte (when small enough).
    """
    if len(new) > DIFF_LIMIT:
        return None
    by_lines = _by_lines(old, new)
    return by_lines if by_lines is not None else _subsequence(old, new)


def _by_lines(old: bytes, new: bytes) -> Ranges | None:
    old_lines = old.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    offsets = [0]
    for line in new_lines:
        offsets.append(offsets[-1] + len(line))
    old_offsets = [0]
    for line in old_lines:
        old_offsets.append(old_offsets[-1] + len(line))
    found: Ranges = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "insert":
            found.append([offsets[j1], offsets[j2]])
        elif tag == "replace":
            # Lines that changed: text inserted inside them (one stretch) still counts.
            part_old = old[old_offsets[i1]:old_offsets[i2]]
            part_new = new[offsets[j1]:offsets[j2]]
            if len(part_new) <= len(part_old):
                return None
            p = _prefix(part_old, part_new, len(part_old))
            s = _suffix(part_old, part_new, len(part_old) - p)
            if p + s == len(part_old):
                found.append([offsets[j1] + p, offsets[j2] - s])
                continue
            inner = _subsequence(part_old[p:len(part_old) - s], part_new[p:len(part_new) - s])
            if inner is None:
                return None
            found += [[offsets[j1] + p + a, offsets[j1] + p + b] for a, b in inner]
        else:  # delete
            return None
    return found


def _merge(ranges: Ranges) -> Ranges:
    out: Ranges = []
    for start, end in ranges:
        if end <= start:
            continue
        if out and out[-1][1] == start:
            out[-1][1] = end
        else:
            out.append([start, end])
    return out


def insertions(old: bytes, new: bytes) -> Ranges | None:
    """The byte ranges of ``new`` that, deleted, give ``old``; None when ``new`` is not ``old`` with insertions.

    Args:
        old: the file's bytes before the change.
        new: its bytes after the change.

    Returns ``[[start, end], ...]`` (offsets into ``new``, sorted, disjoint,
    adjacent ranges merged; ``[]`` when the bytes are equal), verified:
    ``delete(new, result) == old``. None also when the insertions are
    scattered over more than :data:`DIFF_LIMIT` bytes (see the module docstring).
    """
    if len(new) < len(old):
        return None
    if new == old:
        return []
    p = _prefix(old, new, len(old))
    s = _suffix(old, new, len(old) - p)
    if p + s == len(old):  # one stretch inserted at p (the usual append or merge)
        return [[p, len(new) - s]]
    # Several stretches: diff whole lines between the first and the last difference.
    p = old.rfind(b"\n", 0, p) + 1  # back to the start of p's line (same bytes in both)
    q = len(old) - s  # the common suffix starts here in old; move it to a line start
    if q > 0 and old[q - 1:q] != b"\n":
        nl = old.find(b"\n", q)
        q = len(old) if nl < 0 else nl + 1
    s = len(old) - q
    found = _middle(old[p:len(old) - s], new[p:len(new) - s])
    if found is None:
        return None
    result = _merge([[p + a, p + b] for a, b in found])
    if delete(new, result) != old:  # never trust a diff with the user's bytes: check it
        return None
    return result


def valid(ranges: object, size: int) -> bool:
    """True when ``ranges`` (read from a manifest) is a sorted list of disjoint ``[start, end)`` pairs within ``size``."""
    if not isinstance(ranges, list):
        return False
    last = 0
    for item in ranges:
        if not (isinstance(item, list) and len(item) == 2 and all(type(v) is int for v in item)):
            return False
        start, end = item
        if start < last or end <= start or end > size:
            return False
        last = end
    return True


def delete(data: bytes, ranges: Sequence[Sequence[int]]) -> bytes:
    """``data`` without the byte ranges ``ranges`` (sorted, disjoint, within ``data``)."""
    parts, last = [], 0
    for start, end in ranges:
        parts.append(data[last:start])
        last = end
    parts.append(data[last:])
    return b"".join(parts)


def cut(data: bytes, ranges: Sequence[Sequence[int]]) -> bytes:
    """The bytes of ``data`` in ``ranges``, concatenated (what :func:`delete` removes)."""
    return b"".join(data[start:end] for start, end in ranges)


def reinsert(short: bytes, ranges: Sequence[Sequence[int]], pieces: bytes) -> bytes:
    """Undo :func:`delete`: put ``pieces`` (:func:`cut` of the longer file) back at ``ranges``.

    ``ranges`` are in the coordinates of the longer file, as :func:`delete` took them.

    Raises:
        ValueError: the pieces do not fill the ranges exactly, or a range lies past the end.
    """
    if sum(end - start for start, end in ranges) != len(pieces):
        raise ValueError("the pieces do not fill the ranges")
    out, pos_short, pos_pieces, pos_long = [], 0, 0, 0
    for start, end in ranges:
        take = start - pos_long
        if pos_short + take > len(short):
            raise ValueError("a range lies past the end of the file")
        out.append(short[pos_short:pos_short + take])
        pos_short += take
        out.append(pieces[pos_pieces:pos_pieces + end - start])
        pos_pieces += end - start
        pos_long = end
    out.append(short[pos_short:])
    return b"".join(out)


Hunks = list[list[int]]


def replacements(old: bytes, new: bytes) -> Hunks | None:
    """The stretches of ``new`` that replaced stretches of ``old``: ``[[start, end, old_length], ...]``.

    ``new[start:end]`` (offsets into ``new``, sorted, disjoint) took the
    place of ``old_length`` bytes of ``old``; the unchanged bytes between
    hunks are the same in both. Found like :func:`insertions` (prefix and
    suffix, then a line diff of what lies between, each changed stretch of
    lines narrowed to the bytes that differ), so a change of one date in a
    frontmatter and a paragraph added at the end are two small hunks, not
    one hunk spanning the file. None when the stretch between the first and
    last difference is larger than :data:`DIFF_LIMIT` (one hunk would then
    hold most of the file: the caller keeps a copy instead). Verified with
    :func:`unsplice` before it is returned.
    """
    if new == old:
        return []
    p = _prefix(old, new, min(len(old), len(new)))
    s = _suffix(old, new, min(len(old), len(new)) - p)
    if p + s == len(old) or p + s == len(new):
        hunks = [[p, len(new) - s, len(old) - s - p]]
    else:
        p = old.rfind(b"\n", 0, p) + 1
        q = len(old) - s
        if q > 0 and old[q - 1:q] != b"\n":
            nl = old.find(b"\n", q)
            q = len(old) if nl < 0 else nl + 1
        s = len(old) - q
        old_mid, new_mid = old[p:len(old) - s], new[p:len(new) - s]
        if max(len(old_mid), len(new_mid)) > DIFF_LIMIT:
            return None
        old_lines = old_mid.splitlines(keepends=True)
        new_lines = new_mid.splitlines(keepends=True)
        old_at, new_at = [0], [0]
        for line in old_lines:
            old_at.append(old_at[-1] + len(line))
        for line in new_lines:
            new_at.append(new_at[-1] + len(line))
        hunks = []
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines,
                                                          autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            a, b = old_mid[old_at[i1]:old_at[i2]], new_mid[new_at[j1]:new_at[j2]]
            lo = _prefix(a, b, min(len(a), len(b)))
            hi = _suffix(a, b, min(len(a), len(b)) - lo)
            hunks.append([p + new_at[j1] + lo, p + new_at[j2] - hi, len(a) - lo - hi])
    hunks = [h for h in hunks if h[1] > h[0] or h[2] > 0]
    if unsplice(new, hunks, cut_old(old, new, hunks)) != old:
        return None
    return hunks


def _old_starts(hunks: Sequence[Sequence[int]]) -> list[int]:
    """Where each hunk starts in the old file."""
    starts, shift = [], 0
    for start, end, length in hunks:
        starts.append(start + shift)
        shift += length - (end - start)
    return starts


def cut_old(old: bytes, new: bytes, hunks: Sequence[Sequence[int]]) -> bytes:
    """The bytes of ``old`` that the hunks replaced, concatenated (what :func:`unsplice` needs)."""
    return b"".join(old[at:at + h[2]] for at, h in zip(_old_starts(hunks), hunks))


def valid_hunks(hunks: object, size: int) -> bool:
    """True when ``hunks`` (read from a manifest) are sorted, disjoint ``[start, end, old_length]`` within ``size``."""
    if not isinstance(hunks, list):
        return False
    last = 0
    for item in hunks:
        if not (isinstance(item, list) and len(item) == 3 and all(type(v) is int for v in item)):
            return False
        start, end, length = item
        if start < last or end < start or end > size or length < 0 or (end == start and length == 0):
            return False
        last = end
    return True


def unsplice(new: bytes, hunks: Sequence[Sequence[int]], pieces: bytes) -> bytes:
    """Undo a change: put ``pieces`` (:func:`cut_old`) back in place of each hunk of ``new``.

    Raises:
        ValueError: the pieces do not fill the hunks exactly.
    """
    if sum(h[2] for h in hunks) != len(pieces):
        raise ValueError("the pieces do not fill the hunks")
    out, pos, at = [], 0, 0
    for start, end, length in hunks:
        out.append(new[pos:start])
        out.append(pieces[at:at + length])
        at += length
        pos = end
    out.append(new[pos:])
    return b"".join(out)
