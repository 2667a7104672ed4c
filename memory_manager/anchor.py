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
        before = unfinished_keygen(ws)
        raw = read_regular(path, limit=_LIMIT) if before is None else before[1]
        if raw is None:
            return None  # no note before the keygen that never finished
        doc = json.loads(raw.decode("utf-8"))
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


# ---------------------------------------------------------------- an interrupted keygen --force (tatk20 9)

#: The marker ``crypt.py keygen --force`` leaves beside the note while it records a new key and links its
#: file: ``stores/<name>.keygen.json`` (references/formats.md, "Key change in progress").
PENDING_FORMAT = "cmm-keygen-pending"
PENDING_VERSION = 1


def pending_place(ws: Path | None) -> Path | None:
    """The keygen marker's path for ``ws`` (beside its note), None when the store can have no note."""
    path = place(ws)
    return None if path is None else path.with_name(path.name[:-len(".json")] + ".keygen.json")


def begin_keygen(ws: Path, key_file: Path, check: str, record: Path) -> Callable[[], None] | None:
    """Before ``keygen --force`` records a new key: note what the record and the note held, outside the workspace.

    Args:
        ws: the workspace; key_file: the key file about to be linked (absolute);
        check: the new key's check value (32 hex digits); record: the store's key record
            (``memory/.state/t2-key-accepted``).

    A keygen killed after it recorded the new key but before its key file was in place
    left a store whose key exists nowhere: the record and this note named it, and the
    store's real key, put back, was refused for good (tatk20 9). The marker holds the
    key file's path, the new key's check value and the bytes the record and the note
    held before (key check values only, Base64); :func:`recover_keygen`, run by the next
    command that takes the workspace lock, puts them back unless the key file holds the
    new key. It lies in the config folder, not the workspace: a marker that the hand
    forging an entry could plant would rewrite the note it guards.

    Returns:
        A function that removes the marker (keygen calls it once the key is in place, or
        after it undid the record itself); None when no marker could be written (no place
        outside the workspace, a failed write): best effort, as the note is.
    """
    import base64

    path = pending_place(ws)
    note = place(ws)
    if path is None or note is None:
        return None
    ok, old_note = _current(note)
    try:
        st = os.lstat(record)
        # the record's own limit (tiers.accept_key reads up to 1 MiB): a padded record must not
        # leave keygen without its marker (atk21 6)
        old_record = _read_small(record, 1 << 20) if stat.S_ISREG(st.st_mode) else None
    except (FileNotFoundError, NotADirectoryError):
        old_record = None
    except OSError:
        return None
    if not ok or (old_record is None and os.path.lexists(record)):
        return None  # something there is not ours to put back: no marker, keygen's own checks apply
    doc = {"format": PENDING_FORMAT, "version": PENDING_VERSION, "key_file": str(key_file), "key": check,
           "record": None if old_record is None else base64.b64encode(old_record).decode("ascii"),
           "note": None if old_note is None else base64.b64encode(old_note).decode("ascii")}
    from .errors import MemoryManagerError

    try:
        _put(path, (json.dumps(doc, indent=2, allow_nan=False) + "\n").encode("ascii"))
    except (OSError, MemoryManagerError):
        return None

    def done() -> None:
        try:
            _put(path, None)
        except (OSError, MemoryManagerError):
            pass  # the next command finds the key file holding the new key and removes it

    return done


def _read_small(path: Path, limit: int = _LIMIT) -> bytes:
    from .regular import read_regular

    return read_regular(path, limit=limit)


def _marker(ws: Path | None) -> tuple[Path, str, str, bytes | None, bytes | None] | None:
    """The keygen marker of ``ws`` read: ``(path, key file, new key's check value, record before, note before)``.

    None when there is none, or something stands there that is not a marker of this format
    (left alone: it changes nothing).
    """
    import base64

    path = pending_place(ws)
    if path is None:
        return None
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        doc = json.loads(_read_small(path, 4 << 20).decode("utf-8"))
        if not isinstance(doc, dict) or doc.get("format") != PENDING_FORMAT or doc.get("version") != PENDING_VERSION:
            return None
        key_file, check = doc["key_file"], doc["key"]
        old_record = None if doc["record"] is None else base64.b64decode(doc["record"], validate=True)
        old_note = None if doc["note"] is None else base64.b64decode(doc["note"], validate=True)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not (isinstance(key_file, str) and isinstance(check, str) and _CHECK.match(check)):
        return None
    return path, key_file, check, old_record, old_note


def unfinished_keygen(ws: Path | None) -> tuple[bytes | None, bytes | None] | None:
    """What the record and the note held before a keygen that never put its key in place, else None.

    ``(record bytes or None, note bytes or None)`` when a marker (:func:`begin_keygen`)
    names a new key that its key file does not hold: the keygen was killed, or is still
    between the record and the link. Readers then read those bytes in place of the record
    and the note (:func:`load`, :func:`memory_manager.tiers.recorded_keys`), before the
    next writer puts them back (:func:`recover_keygen`): the new key exists nowhere, so it
    cannot be the store's key.
    """
    found = _marker(ws)
    if found is None:
        return None
    _path, key_file, check, old_record, old_note = found
    if _holds_key(Path(key_file), check):
        return None
    return old_record, old_note


def recover_keygen(ws: Path, record: Path) -> str | None:
    """Under the workspace lock: finish with the marker of a keygen that was killed (:func:`begin_keygen`).

    When the key file the marker names holds the new key, the keygen got that far and its
    record and note stand: the marker is removed. Otherwise the new key exists nowhere:
    the record and the note are put back as they were before it, then the marker is
    removed. A marker that is not one of this format (or not a regular file) is left
    alone and changes nothing.

    Returns:
        One line for the user when the record and the note were put back, else None.
        Never raises (a failure leaves the marker for the next command).
    """
    found = _marker(ws)
    if found is None:
        return None
    path, key_file, check, old_record, old_note = found
    from .errors import MemoryManagerError

    if _holds_key(Path(key_file), check):
        try:
            _put(path, None)
        except (OSError, MemoryManagerError):
            pass
        return None
    from . import fsio

    note = place(ws)
    changed = False
    try:
        if _current(record)[1] != old_record:
            changed = True
            if old_record is None:
                fsio.remove(record, missing_ok=True)
            else:
                fsio.atomic_write(record, old_record, mode=0o600)
        if note is not None and _current(note)[1] != old_note:
            changed = True
            _put(note, old_note)
        _put(path, None)
    except (OSError, MemoryManagerError):
        return None
    if not changed:
        return None  # killed before it recorded anything: nothing to put back, nothing to say
    return ("rolled back an interrupted crypt.py keygen --force: its key was never put in place, so the store's key "
            "record and this machine's note name the key they named before; run keygen --force again for a new key")


def _holds_key(key_file: Path, check: str) -> bool:
    """True when the new key ``check`` names is at hand: in ``key_file`` (a symlink followed, as the
    key's readers follow it) or in ``MEMORY_MANAGER_KEY`` (a keygen killed past its link whose key
    the user then keeps elsewhere is the store's key: atk21 5)."""
    import base64

    held = [os.environ.get("MEMORY_MANAGER_KEY", "")]
    try:
        if stat.S_ISREG(os.stat(key_file).st_mode):
            held.append(_read_small(key_file).decode("ascii"))
    except (OSError, ValueError):
        pass
    for text in held:
        try:
            key = base64.b64decode(text.strip(), validate=True)
        except ValueError:
            continue
        if len(key) == 32 and check_value(key) == check:
            return True
    return False


def check_value(key: bytes) -> str:
    """A key check value: 32 hex digits of HMAC-SHA-256(key, "cmm t2 key check v1") (:func:`memory_manager.tiers.key_check`).

    Tells keys apart and reveals nothing of one; standard library only (this module is on the hooks' path).
    """
    import hmac

    return hmac.new(key, b"cmm t2 key check v1", hashlib.sha256).hexdigest()[:32]


# ---------------------------------------------------------------- spent plan seals (atk21 2 and 8)

#: How many spent seals a store keeps (one per forget or purge; the oldest go first).
SPENT_KEPT = 1024


def spent_place(ws: Path | None) -> Path | None:
    """The file of spent plan seals for ``ws`` (beside its note), None when the store can have no note."""
    path = place(ws)
    return None if path is None else path.with_name(path.name[:-len(".json")] + ".spent")


def seal_spent(ws: Path | None, seal: str) -> bool:
    """True when ``seal`` (a forget or purge plan's, :func:`memory_manager.backups.plan_seal`) was spent here.

    A sealed plan is finished once: its command spends the seal when it closes its backup or
    finishes the plan, so a journal captured earlier and put back later (with its backup's
    manifest set to ``open`` again: the workspace is the attacker's to write) is refused
    (atk21 2 and 8: a replayed plan deleted an entry remembered since). Never raises.
    """
    path = spent_place(ws)
    if path is None or not _CHECK_SEAL.match(seal or ""):
        return False
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        return seal in _read_small(path, 1 << 20).decode("ascii", "replace").split()
    except OSError:
        return False


def spend_seal(ws: Path | None, seal: str | None) -> None:
    """Note ``seal`` as spent (:func:`seal_spent`): the file keeps the last :data:`SPENT_KEPT`. Best effort."""
    path = spent_place(ws)
    if path is None or not seal or not _CHECK_SEAL.match(seal):
        return
    from .errors import MemoryManagerError

    ok, old = _current(path)
    if not ok:
        return
    kept = [s for s in (old or b"").decode("ascii", "replace").split() if _CHECK_SEAL.match(s) and s != seal]
    kept = [*kept, seal][-SPENT_KEPT:]
    from .fsio import uncounted

    try:
        # bookkeeping outside the workspace, whose first write also makes its folder: not counted as
        # steps, so a first run and a re-run of the same command number their steps alike (fsio.uncounted)
        with uncounted():
            _put(path, ("\n".join(kept) + "\n").encode("ascii"))
    except (OSError, MemoryManagerError):
        pass


_CHECK_SEAL = re.compile(r"^[0-9a-f]{64}$")
