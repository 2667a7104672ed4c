"""Access statistics: how often and how lately each entry was recalled.

State, not cache (it cannot be rebuilt from the notes), so it lives in
``memory/.state/access.json`` (format ``cmm-access`` version 1, see
``references/formats.md``), never in the notes' frontmatter: recalling must
not rewrite the user's files. Keys are entry ids (:mod:`memory_manager.units`).

Every recall that returns hits calls :func:`record` (unless ``track=False``),
which reads, updates and atomically rewrites the file under the workspace
lock, so concurrent recalls never lose a count. A missing file means "never
recalled"; an unreadable one is treated the same for scoring (recall must not
fail on it), and a write to it is refused, leaving it byte-identical (issue 11,
fatk10: the counts are state, so replacing it would lose them unsaid).
"""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Iterable

from .regular import read_regular_text
from . import tree
from . import jsonio

FORMAT = {"format": "cmm-access", "version": 1}


def access_path(ws: Path) -> Path:
    """Return ``<ws>/memory/.state/access.json``."""
    return tree.Tree(Path(ws)).access


def load(ws: Path) -> dict[str, dict]:
    """Return ``{entry id: {"count": int, "last": ISO 8601 UTC str}}`` ({} when absent/unreadable)."""
    return read(ws)[0]


def read(ws: Path) -> tuple[dict[str, dict], str | None]:
    """:func:`load`, with why the file could not be used: ``(entries, problem)``.

    ``problem`` is None when the file is absent or read; otherwise one line naming the file
    (``memory/.state/access.json: not a regular file (a FIFO); ...``): read-only commands
    carry on without the counts and show it (status ``problems``, recall ``malformed``),
    as they name any other unreadable file (issue 11, fatk8).
    """
    path = access_path(ws)
    shown = tree.rel(tree.STATE, tree.ACCESS)
    try:
        text = read_regular_text(path, "utf-8")
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"{shown}: cannot read ({exc.strerror}); access counts not used"
    except ValueError:  # UnicodeDecodeError
        return {}, f"{shown}: not UTF-8; access counts not used"
    try:
        doc = jsonio.loads(text, shown)
    except ValueError as exc:
        return {}, f"{exc}; access counts not used"
    entries = doc.get("entries") if isinstance(doc, dict) else None
    if not isinstance(entries, dict):
        return {}, f"{shown}: no 'entries' object; access counts not used"
    return entries, None


def days_since(last: str | None, now: datetime) -> float | None:
    """Days (fractional) between an ISO timestamp and ``now``; None when unknown."""
    if not last:
        return None
    try:
        then = datetime.fromisoformat(str(last).replace("Z", "+00:00"))
    except ValueError:
        return None
    if then.tzinfo is None:
        then = then.replace(tzinfo=now.tzinfo)
    return max(0.0, (now - then).total_seconds() / 86400.0)


def _refuse_no_regular_file(ws: Path) -> None:
    """Raise UnreadableFileError when ``access.json`` is there but is a folder, a FIFO, a
    socket or a device: a write over it would replace what someone put there (fatk8), so
    the writer refuses and names it, as a write to any such file does (issue 11)."""
    import os
    import stat

    from .errors import UnreadableFileError
    from .regular import file_kind

    try:
        mode = os.stat(access_path(ws)).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UnreadableFileError(f"{tree.rel(tree.STATE, tree.ACCESS)}: cannot read ({exc.strerror}); "
                                  "nothing was counted") from None
    if not stat.S_ISREG(mode):
        raise UnreadableFileError(f"{tree.rel(tree.STATE, tree.ACCESS)}: not a regular file ({file_kind(mode)}); "
                                  "nothing was counted (move it away)")


def record(ws: Path, ids: Iterable[str]) -> None:
    """Add one access (now) to each id, atomically under the workspace lock.

    A file that is not UTF-8, not JSON, without an ``entries`` object, or no regular file
    is refused and left byte-identical: the counts cannot be rebuilt, so replacing it
    would lose them without a word (README: a write to such a file is refused; fatk10).

    Raises :class:`memory_manager.errors.FileWriteError` when the file or the
    lock cannot be written; :class:`memory_manager.errors.UnreadableFileError`
    (exit 2, nothing written) when ``access.json`` is a folder, a FIFO or a device,
    or cannot be read as a ``cmm-access`` document (the message names it).
    """
    ids = list(dict.fromkeys(ids))
    if not ids:
        return
    from .clock import now
    from .fsio import atomic_write, workspace_lock

    stamp = now().isoformat(timespec="seconds")
    with workspace_lock(ws):
        _refuse_no_regular_file(ws)
        entries, problem = read(ws)
        if problem is not None:
            from .errors import UnreadableFileError

            said = problem.removesuffix("; access counts not used")
            raise UnreadableFileError(f"{said}; nothing was counted (fix or move the file away)")
        for ident in ids:
            item = entries.get(ident) if isinstance(entries.get(ident), dict) else {}
            entries[ident] = {"count": int(item.get("count", 0)) + 1, "last": stamp}
        doc = dict(FORMAT, entries=entries)
        atomic_write(access_path(ws), (json.dumps(doc, ensure_ascii=False, sort_keys=True, allow_nan=False) + "\n").encode("utf-8"),
                     mode=0o600)


def drop(ws: Path, ids: Iterable[str]) -> int:
    """Remove the access counts of ``ids`` (a forgotten or purged entry); return how many went.

    An entry id is a plain hash of the entry's name (``k-`` + SHA-256 of the
    key): a count left behind would let anyone holding the workspace confirm
    a guessed name of a forgotten entry (issue 10). Runs under the workspace
    lock; nothing is written when none of the ids is listed.
    """
    ids = {i for i in ids if isinstance(i, str) and i}
    if not ids:
        return 0
    from .fsio import atomic_write, workspace_lock

    with workspace_lock(ws):
        entries = load(ws)
        gone = [i for i in ids if i in entries]
        if not gone:
            return 0
        for ident in gone:
            del entries[ident]
        doc = dict(FORMAT, entries=entries)
        atomic_write(access_path(ws), (json.dumps(doc, ensure_ascii=False, sort_keys=True, allow_nan=False) + "\n").encode("utf-8"),
                     mode=0o600)
    return len(gone)


#: Days over which an access loses half its weight (issue 13: counts decay over time).
#: 30 days: a memory used every week keeps a high count, one used once a season fades.
ACCESS_HALF_LIFE_DAYS = 30.0


def decayed_count(item: dict, now: datetime, cfg: dict | None = None) -> float:
    """The access count of one sidecar item, decayed by the time since its last use.

    ``count`` halves every :data:`ACCESS_HALF_LIFE_DAYS` days after ``last``
    (a count with no readable ``last`` is taken as it is).
    """
    try:
        count = float(item.get("count", 0))
    except (TypeError, ValueError):
        return 0.0
    since = days_since(item.get("last"), now)
    if since is None:
        return count
    return count * 0.5 ** (since / ACCESS_HALF_LIFE_DAYS)
