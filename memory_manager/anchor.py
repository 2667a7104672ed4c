"""This machine's note of a store's key, kept outside the workspace (tatk18, findings 1 and 2).

Whether a store is keyed (and with which T2 key) decides how cleanup judges an
approval mark it cannot check (:func:`memory_manager.keyed.approval_state`): a
``v2:t2`` mark in a store that never had a key is forged, one in a keyed store
whose key is away cannot be checked. The store's key record
(``memory/.state/t2-key-accepted``, :func:`memory_manager.tiers.recorded_key`)
lies in the workspace, where the hand that forges an entry can plant or delete
it too: tatk18 found a planted record turning a forged ``v2:t2`` mark into
"cannot be checked" (the entry stayed), and a lost one quarantining the user's
real ``v2:t2`` entry while a forged ``v2:local`` one stayed.

So the config folder (:func:`memory_manager.keypath.config_dir`, beside the
key and the hash-secret) keeps a note per store:
``stores/<first 32 hex digits of SHA-256 of the workspace's resolved path>.json``
(folder 0700, file 0600, written atomically), holding only key check values
and a date, never the path or any content::

    {"format": "cmm-store-anchor", "version": 1, "keys": ["<32 hex>", ...], "keyless_since": "2026-12-03"}

``keys`` oldest first, the last one the store's key; empty with
``keyless_since`` (the day the store was first noted keyless) for a store
without a key. When the note can be read it decides, and the record is only a
cache (:func:`memory_manager.tiers.store_key`); with no note (a moved
workspace, another ``HOME``, a store from before this note) the record
decides, as before, and the first run with the key at hand that finds it
matches the record writes the note (trust on first use). A note that cannot be
read (a folder, a symlink, not this format) never makes a mark forged: it
counts as absent and is reported (:func:`memory_manager.tiers.store_key_problem`).

Only the standard library is imported at module level (``keyed`` is on the hooks' path).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Callable, NamedTuple

#: The note's ``format`` and ``version`` (references/formats.md, "Store key note").
FORMAT = "cmm-store-anchor"
VERSION = 1
#: The folder of the notes, inside the key's folder.
FOLDER = "stores"
#: A key check value (:func:`memory_manager.tiers.key_check`) and a day, as the note holds them.
_CHECK = re.compile(r"^[0-9a-f]{32}$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
#: More than any real note holds (a few hundred bytes): a larger file is not one.
_LIMIT = 1 << 16


class Note(NamedTuple):
    """A readable note: ``keys`` (key check values, oldest first) and ``keyless_since`` (a day or None)."""

    keys: tuple[str, ...]
    keyless_since: str | None

    @property
    def key(self) -> str | None:
        """The store's key check value, None for a keyless store."""
        return self.keys[-1] if self.keys else None


class UnreadableNote(Exception):
    """Something stands at the note's place that is not a note of this format (the message says what)."""


def name(ws: Path) -> str:
    """The note's file name for workspace ``ws``: 32 hex digits of SHA-256 of its resolved path, ``.json``."""
    return hashlib.sha256(os.fsencode(str(Path(ws).resolve()))).hexdigest()[:32] + ".json"


def place(ws: Path | None) -> Path | None:
    """The note's path for ``ws``, or None when there is none: no workspace, or the config folder lies inside it.

    A note inside the workspace would be as easy to plant as the record it guards
    (the hash-secret is refused there for the same reason, :func:`memory_manager.keyed.local_secret`).
    """
    if ws is None:
        return None
    from .keypath import config_dir

    try:
        folder = config_dir()
        root = Path(ws).resolve()
        if folder.resolve() == root or root in folder.resolve().parents:
            return None
        return folder / FOLDER / name(root)
    except (OSError, RuntimeError, ValueError):  # no HOME to be found, a link loop: no note, as no hash-secret
        return None


def load(ws: Path | None) -> Note | None:
    """Return the note of ``ws``, None when there is none (nothing at its place, or no place).

    Raises:
        UnreadableNote: a folder, a symlink or another non-regular file stands there, or the
            file is not a note of this format (not JSON, another format or version, values
            that are not key check values or a day).
    """
    path = place(ws)
    if path is None:
        return None
    from .regular import file_kind, read_regular

    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise UnreadableNote(f"cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise UnreadableNote("is a symlink" if stat.S_ISLNK(st.st_mode) else f"is {file_kind(st.st_mode)}")
    try:
        doc = json.loads(read_regular(path, limit=_LIMIT).decode("utf-8"))
    except OSError as exc:
        raise UnreadableNote(f"cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, ValueError):
        raise UnreadableNote("is not JSON") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise UnreadableNote(f"is not a {FORMAT} v{VERSION} note")
    keys = doc.get("keys")
    since = doc.get("keyless_since")
    if not isinstance(keys, list) or not all(isinstance(k, str) and _CHECK.match(k) for k in keys) \
            or not (since is None or (isinstance(since, str) and _DAY.match(since))):
        raise UnreadableNote(f"is not a {FORMAT} v{VERSION} note (keys or keyless_since)")
    return Note(tuple(keys), since)


def read(ws: Path | None) -> tuple[Note | None, str | None]:
    """:func:`load` that never raises: ``(note, None)``, ``(None, None)`` with no note, ``(None, why)`` when unreadable."""
    try:
        return load(ws), None
    except UnreadableNote as exc:
        return None, str(exc)


def _bytes(keys: list[str], keyless_since: str | None) -> bytes:
    doc = {"format": FORMAT, "version": VERSION, "keys": keys, "keyless_since": None if keys else keyless_since}
    return (json.dumps(doc, indent=2, allow_nan=False) + "\n").encode("ascii")


def _put(path: Path, data: bytes | None) -> None:
    """Write ``data`` at ``path`` (0600, atomic; its folders 0700 when made), or remove it when None.

    Raises:
        OSError, MemoryManagerError: it could not be written or removed.
    """
    from . import fsio

    if data is None:
        fsio.remove(path, missing_ok=True)
        return
    fsio.make_dirs(path.parent.parent, 0o700)  # the key's folder, as keygen and the hash-secret make it
    fsio.make_dirs(path.parent, 0o700)
    fsio.atomic_write(path, data, mode=0o600)


def _current(path: Path) -> tuple[bool, bytes | None]:
    """``(writable, old bytes)``: only a regular file (or nothing) at ``path`` is ever replaced."""
    from .regular import read_regular

    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return True, None
    except OSError:
        return False, None
    if not stat.S_ISREG(st.st_mode):
        return False, None  # a folder or a symlink someone put there: left alone (and reported)
    try:
        return True, read_regular(path, limit=_LIMIT)
    except OSError:
        return False, None


def note_keys(ws: Path | None, keys: list[str], *, only_new: bool = False) -> Callable[[], None] | None:
    """Note ``keys`` (the record's values, oldest first, the store's key last) as the store's keys.

    Keys noted before and missing from ``keys`` stay, before them (a record deleted and
    written again keeps the note's history). ``only_new``: write only when there is no note
    at all (trust on first use). Best effort: a place that cannot hold a note (no config
    folder outside the workspace, a folder or a symlink there) or a failed write leaves no
    note (a stale note is removed when the new one cannot be written: with no note the
    record decides, as before), and is never an error of the command.

    Returns:
        None when nothing was written, else a function that puts the note back as it was.
    """
    path = place(ws)
    if path is None or not keys:
        return None
    ok, old = _current(path)
    if not ok or (only_new and old is not None):
        return None
    note, _why = read(ws)
    earlier = list(note.keys) if note is not None else []
    new = [*(k for k in earlier if k not in keys), *keys]
    data = _bytes(new, None)
    if old == data:
        return None
    return _replace(path, old, data)


def note_keyless(ws: Path | None, day: str) -> bool:
    """Note a store with no key as keyless since ``day`` (``YYYY-MM-DD``), when it has no note yet.

    Called when the first ``v2:local`` approval mark is made for a store whose record names no
    key (:func:`memory_manager.keyed.approval_mark`). Best effort, as :func:`note_keys`.

    Returns:
        True when the note was written.
    """
    path = place(ws)
    if path is None:
        return False
    ok, old = _current(path)
    if not ok or old is not None:
        return False
    return _replace(path, None, _bytes([], day)) is not None


def _replace(path: Path, old: bytes | None, data: bytes) -> Callable[[], None] | None:
    from .errors import MemoryManagerError

    try:
        _put(path, data)
    except (OSError, MemoryManagerError):
        if old is not None:
            try:
                _put(path, None)  # a note that no longer tells the truth is worse than none
            except (OSError, MemoryManagerError):
                pass
        return None

    def undo() -> None:
        try:
            _put(path, old)
        except (OSError, MemoryManagerError):
            pass

    return undo
