"""The one backup mechanism for every change to a file, and ``init --restore``.

Layout (format ``memory-backup`` version 5, ``references/formats.md``)::

    .memory-backup/                      0700, every file 0600
      .lock                              the workspace writer lock (fsio)
      .open-<id>                         journal: backup <id> belongs to a change in progress
      <id>/manifest.json                 header: id, seq, created, reason, role, state
      <id>/entries.jsonl                 one JSON line per saved path, appended and fsynced
                                         before the first byte of that path changes
      <id>/files/<relative path>         the saved bytes (or AES-GCM ciphertext, see below)

Ids are ``<seq>-<UTC stamp>`` with a zero-padded sequence number that only
grows (one more than the largest found), so ten backups in one second sort
right and a backup made under a future ``MEMORY_MANAGER_NOW`` cannot pass for
the newest: order is the sequence, never the clock. Version 1 backups
(``YYYYMMDDTHHMMSSZ[-n]``, entries inside ``manifest.json``) still list and
restore; they sort before every version 2 backup, by stamp then ``n``
compared as a number.

Version 3 (issue 11) has the layout of version 2; what changed is what a
backup promises. Every command records the files it is about to *create*
("absent" entries: ``existed: false``), so ``init --restore`` undoes a
command that only made new files (learn or remember of a new entry, import,
a new daily note, a new statistics file) by removing them. A version 3
restore removes such a file only when ``after.json`` shows it still holds
what the command wrote; when it cannot tell (no ``after.json``), the file
counts as changed since and stays unless ``--force``. Version 1 and 2
backups keep their rule (a created file is removed unless ``after.json``
says it changed).

Crash safety (issue 11). A backup opened while its command holds the
workspace lock is *open* until the lock is released: its journal file
``.open-<id>`` says so. A command killed part-way never releases the lock, so
the next command that takes it finds the journal and rolls the interrupted
change back from the backup (every saved path put back, every created path
removed) before doing anything else; the backup is then marked
``rolled-back``. This covers ``init --restore`` itself: its safety backup is
open while it works, so a killed restore is rolled back and the re-run
restores again from scratch.

Privacy (issue 10). A copy of T2 content (``memory/tier2-internal``,
``memory/archive``) or of a file in which the privacy detector finds
anything is stored encrypted with the T2 key (AES-256-GCM, associated data
binding backup id and path), or, without a key, not at all (the entry says
``stored: "withheld"`` and a restore reports the path it cannot put back).

Changes without a copy (version 4, issues 10 and 11). A caller that knows
the bytes it will write (:meth:`Backup.save_change`) gets an entry with no
copy when the change only inserts bytes (``stored: "insertions"``: the
inserted ranges, the sha256 and size before and after); a restore deletes
the ranges from the file as the change left it and checks the result, and
names and leaves a file in any other state. When the change only deletes
bytes (a restore of such an entry) or replaces a few, only those bytes are
kept (``stored: "deletions"`` / ``"replacements"``), by the rule for copies. Nothing of the file is
copied, so nothing needs the privacy scan or the key; the ranges come from
:mod:`memory_manager.edits`.

Version 5 (issue 11, round 6): an entry erased on purpose (``stored:
"erased"``) keeps no ``sha256``, ``size``, ``new_sha256``, ``inserted``...
(:data:`BYTE_FIELDS`), and ``forget`` erases every entry, of any version's
backup, that records a state of a file that held the forgotten text
(:func:`tainted_states`); ``after.json`` shows such a state as ``"erased"``.
A restore whose safety backup withheld an undo copy writes a ``forward``
plan of kind ``restore`` in its journal (journal version 3): a killed run is
finished, not rolled back. Versions 1 to 4 read as before.

"Newest" (``init --restore`` without an id) is the newest complete backup
that holds entries and was made by a command before changing files: not a
restore's own safety backup, not a rolled-back one.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import stat
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable, Iterator

from .jsonio import parse as _parse_json
from .regular import read_regular, read_regular_text
from . import __version__, edits, tree
from .clock import now, stamp
from .errors import BackupError, DirtyFileError, FileWriteError, KeyUnavailableError, MalformedBackupError, \
    MemoryManagerError, NotFoundError, UnknownBackupIdError, WorkspaceError
from . import fsio
from .fsio import atomic_write, sha256_bytes, sha256_file
from . import jsonio

BACKUP_DIRNAME = tree.BACKUPS
MANIFEST = "manifest.json"
ENTRIES = "entries.jsonl"
JOURNAL_PREFIX = ".open-"
TRASH_PREFIX = ".deleting-"
FORMAT_NAME = "memory-backup"
VERSION = 5
#: Versions this module reads (1 to 4 are still listed and restored).
READ_VERSIONS = (1, 2, 3, 4, 5)
#: Zero padding of the sequence number in an id: lexical order of ids then
#: equals creation order up to a million backups (we sort by the number anyway).
SEQ_DIGITS = 6
_V2_ID = re.compile(r"^(\d{%d,})-(\d{8}T\d{6}Z)$" % SEQ_DIGITS)
_V1_ID = re.compile(r"^(\d{8}T\d{6}Z)(?:-(\d+))?$")
_SHA = re.compile(r"^[0-9a-f]{64}$")
#: Copies of files under these folders are T2 content (the T2 files and the
#: archive they move to): stored encrypted or not at all. In the archive,
#: prune's daily-/knowledge- files are judged by their findings like the live
#: notes (unless one holds a T2 file, :func:`_looks_t2`); everything else there is T2.
T2_PREFIXES = (tree.rel(tree.TIER2) + "/", tree.rel(tree.ARCHIVE) + "/")
_T2_MARKERS = (b"format: cmm-t2", b"tier: internal")
#: Entries that keep no copy of the file (v4): they undo a change from the file as it left it.
EDIT_KINDS = ("insertions", "deletions", "replacements")
#: Of those, the ones that keep bytes (the deleted or replaced ones) under ``files/``.
PIECE_KINDS = ("deletions", "replacements")
#: A change that replaces bytes is recorded by its pieces only while they are at most this
#: share of the old file; past it the pieces are most of the file and a copy is kept instead.
MAX_REPLACED_SHARE = 0.5
#: Names prune gives what it archives (memory_manager.prune): daily sections and knowledge files.
_PRUNE_PREFIXES = ("daily-", "knowledge-")


def _looks_t2(data: bytes) -> bool:
    """True when ``data`` has the frontmatter of a T2 file (``format: cmm-t2`` or the seed's ``tier: internal``)."""
    return any(marker in data for marker in _T2_MARKERS)
ROLES = ("change", "safety")
#: From this many copies in one batch, one syncfs(2) replaces an fsync per copy and folder.
SYNCFS_BATCH = 16
STATES = ("open", "complete", "rolled-back")
#: What the command left (written when its backup is marked complete): the
#: digest of every path it backed up, so a later restore can tell a user's
#: change made since from the command's own (walk-through r3, item 2).
AFTER = "after.json"
AFTER_FORMAT = "memory-backup-after"
#: Derived files a restore rebuilds anyway (daily-index.md, knowledge-index.md,
#: the cache): a later change to them is not a user's change to protect.
DERIVED = (tree.rel(tree.DAILY_INDEX), tree.rel(tree.KNOWLEDGE_INDEX))
DERIVED_PREFIXES = (tree.rel(tree.CACHE) + "/",)


def backup_root(workspace: Path) -> Path:
    """Return ``<workspace>/.memory-backup``."""
    return tree.Tree(Path(workspace)).backups


def order_key(ident: str, seq: int | None = None) -> tuple[int, str, int]:
    """Return the sort key of a backup id: creation order (v1 ids first, by stamp then number)."""
    match = _V2_ID.match(ident)
    if match:
        return (int(match.group(1)), match.group(2), 0)
    match = _V1_ID.match(ident)
    if match:
        return (0, match.group(1), int(match.group(2) or 1))
    return (seq or 0, ident, 0)


# ------------------------------------------------------------------ encryption

def _load_key(workspace: Path) -> bytes | None:
    """Return the T2 key, or None when none is configured."""
    from . import crypto
    from .config import load_config

    try:
        cfg = load_config(workspace)
    except MemoryManagerError:
        cfg = None
    try:
        return crypto.load_key(cfg)
    except KeyUnavailableError:
        return None


def sealing_key(workspace: Path) -> bytes | None:
    """Return the T2 key to seal a copy with, or None when none is configured.

    The key a copy is sealed with must be the one this store accepts
    (:func:`memory_manager.tiers.sealing_key`, attack round 11): a copy sealed
    with another machine's key could only be restored with that key.
    :func:`_load_key` stays the key to *open* copies with.

    Raises:
        WrongKeyError: the key in use opens none of the store's aes-gcm entries.
        MalformedKeyError: the key is configured but broken.
    """
    from . import tiers
    from .config import load_config

    try:
        cfg = load_config(workspace)
    except MemoryManagerError:
        cfg = None
    return tiers.sealing_key(Path(workspace), cfg, "nothing was changed")


def _aad(ident: str, rel: str) -> bytes:
    # Binds a copy to its backup and path: a copy moved to another entry fails to decrypt.
    return f"cmm-backup-v2|{ident}|{rel}".encode("utf-8")


def _seal(key: bytes, ident: str, rel: str, data: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    from .crypto import NONCE_BYTES

    nonce = os.urandom(NONCE_BYTES)
    return nonce + AESGCM(key).encrypt(nonce, data, _aad(ident, rel))


def _open_sealed(key: bytes, ident: str, rel: str, blob: bytes) -> bytes:
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    from .crypto import NONCE_BYTES

    try:
        return AESGCM(key).decrypt(blob[:NONCE_BYTES], blob[NONCE_BYTES:], _aad(ident, rel))
    except (InvalidTag, ValueError):
        raise BackupError(f"backup {ident}: encrypted copy of {rel} does not decrypt "
                          "(wrong T2 key, or the copy was changed)") from None


def sealed_copies(workspace: Path) -> Iterator[tuple[str, str, bytes]]:
    """Yield ``(backup id, workspace path, blob)`` for every copy in ``.memory-backup/`` sealed with aes-gcm.

    Whole copies (``stored: "aes-gcm"``) and the sealed pieces of an edit
    (``pieces: "aes-gcm"``). Backups that do not read, and copies that are
    missing or unreadable, are passed over: this only tells which keys the
    copies need (:func:`memory_manager.tiers.sealing_key`, attack round 12:
    a key accepted while only the backups were sealed made them unrestorable).
    """
    for doc in list_backups(workspace):
        if doc.get("error"):
            continue
        folder = backup_root(workspace) / doc["id"]
        for entry in doc.get("entries") or []:
            if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
                continue
            if entry.get("stored") != "aes-gcm" and entry.get("pieces") != "aes-gcm":
                continue
            try:
                blob = _read_copy(folder, entry["path"], doc["id"])
            except (OSError, MemoryManagerError):
                continue
            yield doc["id"], entry["path"], blob


def opens_copy(key: bytes, ident: str, rel: str, blob: bytes) -> bool:
    """True when ``key`` opens the sealed copy ``blob`` of ``rel`` in backup ``ident`` (AES-GCM authenticates)."""
    try:
        _open_sealed(key, ident, rel, blob)
    except BackupError:
        return False
    return True


def needs_sealing(rel: str, data: bytes) -> bool:
    """True when a copy of ``data`` (workspace path ``rel``) must be encrypted or withheld.

    T2 content (every file under ``memory/tier2-internal/``, and under
    ``memory/archive/`` all but prune's daily/knowledge files: :data:`T2_PREFIXES`)
    always; any other file when the privacy
    detector finds anything in it (issue 10: "a backup copy of T2 content or
    of anything with a finding is stored encrypted with the T2 key, or not
    at all"). Bytes that are not UTF-8 are scanned as Latin-1.
    """
    if rel.startswith(T2_PREFIXES[0]):
        return True
    if rel.startswith(T2_PREFIXES[1]):
        # The archive holds moved T2 files and prune's daily-/knowledge- files: only
        # the latter are judged by their findings like live notes (unarchive brings
        # them back), and only when they do not hold a T2 file after all.
        name = rel.rsplit("/", 1)[-1]
        if not name.startswith(_PRUNE_PREFIXES) or _looks_t2(data):
            return True
    from . import privacy

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return bool(privacy.scan(text)) or bool(privacy.scan(rel))


# ------------------------------------------------------------------ backups

@dataclass
class Backup:
    """An open backup: call :meth:`save` on every path before changing it.

    ``entries`` lists what was saved (dicts as in ``entries.jsonl``);
    ``withheld`` the paths whose copy was not stored (no T2 key).
    ``allow_withheld``: whether a copy that must be sealed may be withheld
    when there is no T2 key (see :func:`start`); otherwise saving such a
    file raises before anything changes.
    """

    workspace: Path
    id: str
    reason: str
    seq: int = 0
    role: str = "change"
    restores: str | None = None
    created: str = ""
    entries: list[dict[str, Any]] = field(default_factory=list)
    withheld: list[str] = field(default_factory=list)
    state: str = "open"
    allow_withheld: bool = False
    _saved: set[str] = field(default_factory=set, repr=False)
    #: Folders of copies whose own name is known to be on disk (fsynced parent).
    _durable: set[Path] = field(default_factory=set, repr=False)
    _key: Any = field(default=False, repr=False)
    #: What the destructive part of the change did (a purge's done record, :func:`done_records`),
    #: written into the manifest when :func:`recover` closes the backup; None: nothing to keep.
    done: dict[str, Any] | None = None
    #: For a rollback's own backup (:func:`_keep_current`): the paths whose bytes it kept.
    kept: list[str] = field(default_factory=list, repr=False)
    #: The seal of the plan :meth:`roll_forward` wrote, spent when the plan is done (anchor.spend_seal).
    _seal: str | None = field(default=None, repr=False)

    @property
    def folder(self) -> Path:
        return backup_root(self.workspace) / self.id

    @property
    def journal(self) -> Path:
        return backup_root(self.workspace) / f"{JOURNAL_PREFIX}{self.id}"

    def _rel(self, path: Path) -> str:
        try:
            return Path(path).absolute().relative_to(Path(self.workspace).absolute()).as_posix()
        except ValueError:
            raise WorkspaceError(f"{path} is outside the workspace {self.workspace}") from None

    def header(self) -> dict[str, Any]:
        """The manifest document (without entries)."""
        doc = {"format": FORMAT_NAME, "version": VERSION, "id": self.id, "seq": self.seq,
               "created": self.created, "reason": self.reason, "role": self.role,
               "restores": self.restores, "state": self.state, "tool_version": __version__}
        if self.done is not None:
            doc["done"] = self.done
        return doc

    def _write_header(self) -> None:
        atomic_write(self.folder / MANIFEST,
                     (json.dumps(self.header(), indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"), mode=0o600)

    def _append(self, *entries: dict[str, Any]) -> None:
        """Append entry lines with one write and one fsync: O(1) per path, so a large change stays linear."""
        if not entries:
            return
        data = "".join(json.dumps(e, ensure_ascii=False, sort_keys=True, allow_nan=False) + "\n" for e in entries).encode("utf-8")
        fsio.step(f"backup-entry {entries[0]['path']}" + (f" (+{len(entries) - 1})" if len(entries) > 1 else ""))
        fd = fsio.open_append(self.folder / ENTRIES)  # never through a symlink or hard link
        try:
            fsio.write_all(fd, data, sync=True)
        finally:
            os.close(fd)
        for entry in entries:
            self.entries.append(entry)
            self._saved.add(entry["path"])

    def save_derived(self, path: Path, new: bytes | None = None) -> None:
        """Save a derived file (``daily-index.md``, ``knowledge-index.md``) before it changes.

        Like :meth:`save` (or :meth:`save_change` when the caller passes the
        ``new`` bytes it will write), except that without a T2 key a copy that would
        need sealing is withheld quietly: the file is rebuilt from the notes
        it indexes, so changing it loses none of the user's bytes (the keyless
        rule of :func:`start` protects the user's own files).
        """
        allowed, self.allow_withheld = self.allow_withheld, True
        mark = len(WITHHELD)
        try:
            self.save_changes([(Path(path), new)])
        finally:
            self.allow_withheld = allowed
            del WITHHELD[mark:]

    def has(self, path: Path) -> bool:
        """Return True when ``path`` is already recorded in this backup."""
        return self._rel(path) in self._saved

    def _key_or_none(self) -> bytes | None:
        if self._key is False:
            # The key a copy is sealed with is the store's (one check for every sealing door).
            self._key = sealing_key(self.workspace)
        return self._key

    def _save_file(self, path: Path, rel: str) -> dict[str, Any]:
        data = read_regular(path)
        entry: dict[str, Any] = {"path": rel, "existed": True, "kind": "file", "sha256": sha256_bytes(data),
                                 "size": len(data), "mode": stat.S_IMODE(path.stat().st_mode), "stored": "plain"}
        entry["stored"] = self._keep(rel, data)
        return entry

    def _keep(self, rel: str, data: bytes) -> str:
        """Write ``data`` to this backup's ``files/<rel>`` by the rule for copies; return how it is kept.

        ``"plain"``, ``"aes-gcm"`` (T2 content or a privacy finding, sealed with
        the T2 key) or ``"withheld"`` (such bytes and no key: nothing written,
        allowed only with ``allow_withheld``).

        Raises:
            BackupError: the bytes must be sealed, there is no key, and the change is not approved.
        """
        stored, payload = "plain", data
        if needs_sealing(rel, data):
            key = self._key_or_none()
            if key is None:
                # A keyless install (init --no-key) cannot seal this copy, and a
                # plain one is not allowed (issue 10): the change would have no
                # undo. Only a change the user approved (or maintenance that moves
                # or purges, see start) goes ahead, and it is said aloud.
                if not self.allow_withheld:
                    raise BackupError(
                        f"{rel} holds T2 content or a privacy finding and there is no T2 key to seal its backup "
                        "copy, so this change could not be undone; nothing was changed. Create the key "
                        "(crypt.py keygen) or, if the user accepts a change without undo, repeat with --approved")
                self.withheld.append(rel)
                WITHHELD.append(rel)
                return "withheld"
            payload = _seal(key, self.id, rel, data)
            stored = "aes-gcm"
        dest = self.folder / "files" / rel
        fsio.make_dirs(dest.parent)
        # Written in place, not staged and renamed: the folder is this backup's
        # own, and a copy no entry line names yet is never read (a kill here
        # leaves bytes nobody uses). save_many makes the copies durable before
        # it writes their entry lines.
        fsio.step(f"copy {dest}")
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            fsio.write_all(fd, payload)
        finally:
            os.close(fd)
        return stored

    def _entry(self, path: Path, rel: str, folders: set[Path], copies: list[Path]) -> list[dict[str, Any]]:
        """The entries for ``path`` (a folder: itself, then what it holds), copies written and fsynced."""
        if path.is_symlink():
            return [{"path": rel, "existed": True, "kind": "symlink", "target": os.readlink(path)}]
        if not path.exists():
            return [{"path": rel, "existed": False, "kind": "file"}]
        if path.is_dir():
            found = [{"path": rel, "existed": True, "kind": "dir", "mode": stat.S_IMODE(path.stat().st_mode)}]
            for child in sorted(path.iterdir()):
                found += self._entry(child, self._rel(child), folders, copies)
            return found
        entry = self._save_file(path, rel)
        if entry["stored"] != "withheld":
            copies.append(self.folder / "files" / rel)
            folder = (self.folder / "files" / rel).parent
            folders.add(folder)  # the copy's new name
            while folder not in self._durable and folder != self.folder:  # a folder made for it: its name too
                folder = folder.parent
                folders.add(folder)
        return [entry]

    def save_many(self, paths: Iterable[Path]) -> None:
        """Record several paths before changing any of them (as :meth:`save`, in one batch).

        Every copy is written, then made durable (with its folder names), then
        all entry lines are appended with one fsync. Durable means one fsync
        per copy and per folder, or, for a batch of :data:`SYNCFS_BATCH` copies
        or more on Linux, one ``syncfs`` of the file system: a change of
        thousands of files costs a handful of flushes, not one per file.

        Raises:
            BackupError: a copy or the entries could not be written.
            WorkspaceError: a path is outside the workspace.
        """
        found: list[dict[str, Any]] = []
        folders: set[Path] = set()
        copies: list[Path] = []
        seen: set[str] = set()
        current = "?"
        try:
            for path in paths:
                path = Path(path)
                current = rel = self._rel(path)
                if rel in self._saved or rel in seen:
                    continue
                for entry in self._entry(path, rel, folders, copies):
                    if entry["path"] not in self._saved and entry["path"] not in seen:
                        seen.add(entry["path"])
                        found.append(entry)
            if copies:
                fsio.step(f"sync {len(copies)} copies")
                if len(copies) < SYNCFS_BATCH or not fsio.sync_filesystem(self.folder):
                    for copy in copies:
                        fsio.sync_file(copy)
                    for folder in sorted(folders):
                        fsio.sync_dir(folder)
                self._durable.update(folders)
            self._append(*found)
        except (BackupError, WorkspaceError):
            raise
        except OSError as exc:
            raise BackupError(f"backup of {current} failed ({exc.strerror or exc}); nothing was changed") from None
        except FileWriteError as exc:
            raise BackupError(f"backup of {current} failed ({exc}); nothing was changed") from None

    def save(self, path: Path) -> None:
        """Record ``path`` (file, missing file, symlink, or folder with its files) before changing it.

        A file's bytes are copied (encrypted or withheld as the module says)
        and the entry line is fsynced before returning. Saving the same path
        twice keeps the first copy. A folder is recorded with every file in
        it, so removing it could be undone.

        Raises:
            BackupError: the copy or the entry could not be written.
            WorkspaceError: ``path`` is outside the workspace.
        """
        self.save_many([path])

    def save_change(self, path: Path, new: bytes) -> None:
        """Record ``path`` before the caller replaces its bytes with exactly ``new``.

        When ``new`` is the current file with bytes inserted (:func:`edits.insertions`),
        the entry keeps no copy at all: ``stored: "insertions"``, the inserted
        ranges and the sha256 and size of the file before and after (format v4,
        ``references/formats.md``). Nothing of the file is copied, so nothing
        private is, and no privacy scan is needed (issues 10 and 11: a keyless
        install can append to a note with a finding; a 50 MB note is not scanned).
        When ``new`` is the file with bytes deleted, only the deleted bytes are
        kept (``stored: "deletions"``), sealed or withheld by the rule for copies;
        when a few bytes are replaced (at most :data:`MAX_REPLACED_SHARE` of the
        file: ``learn`` on a later day changes the ``updated:`` date), only the
        replaced ones (``stored: "replacements"``), by the same rule.
        Anything else is saved as :meth:`save` does (a copy: plain, sealed or
        withheld). The caller must then write ``new`` byte for byte: a restore
        checks the file's sha256 against the recorded one.

        A path this backup already recorded by insertions (a command that
        writes the same note twice, an import) gets an updated entry that
        covers the file as it is now and as it will be, so a kill between the
        two writes still rolls back.

        Raises:
            BackupError: the entry or a copy could not be written, or a copy
                that must be sealed cannot be (no key, change not approved).
            WorkspaceError: ``path`` is outside the workspace.
        """
        self.save_changes([(Path(path), new)])

    def save_changes(self, items: Iterable[tuple[Path, bytes | None]]) -> None:
        """:meth:`save_change` for several ``(path, new bytes)`` pairs in one batch (``None``: as :meth:`save`).

        Raises:
            BackupError, WorkspaceError: as :meth:`save_change`.
        """
        plain: list[Path] = []
        edited: list[dict[str, Any]] = []
        pieces: list[Path] = []
        current = "?"
        try:
            for path, new in items:
                path = Path(path)
                current = rel = self._rel(path)
                if new is None or path.is_symlink() or not path.is_file():
                    plain.append(path)
                    continue
                if rel in self._saved:
                    update = self._update_entry(path, rel, new)
                    if update is not None:
                        edited.append(update)
                    continue
                if any(e["path"] == rel for e in edited):
                    continue
                entry = self._edit_entry(path, rel, read_regular(path), new)
                if entry is None:
                    plain.append(path)
                    continue
                if entry.get("pieces") in ("plain", "aes-gcm"):
                    pieces.append(self.folder / "files" / rel)
                edited.append(entry)
            if plain:
                self.save_many(plain)
            if pieces:
                fsio.step(f"sync {len(pieces)} copies")
                for copy in pieces:
                    fsio.sync_file(copy)
                    folder = copy.parent
                    fsio.sync_dir(folder)
                    while folder not in self._durable and folder != self.folder:
                        folder = folder.parent
                        fsio.sync_dir(folder)
                    self._durable.add(copy.parent)
            self._append(*edited)
        except (BackupError, WorkspaceError):
            raise
        except OSError as exc:
            raise BackupError(f"backup of {current} failed ({exc.strerror or exc}); nothing was changed") from None
        except FileWriteError as exc:
            raise BackupError(f"backup of {current} failed ({exc}); nothing was changed") from None

    def _edit_entry(self, path: Path, rel: str, old: bytes, new: bytes) -> dict[str, Any] | None:
        """An ``insertions``, ``deletions`` or ``replacements`` entry for ``old`` -> ``new``, or None (keep a copy).

        A ``replacements`` entry only while the replaced bytes are at most
        :data:`MAX_REPLACED_SHARE` of the old file (else they are most of a copy).
        """
        base = {"path": rel, "existed": True, "kind": "file", "sha256": sha256_bytes(old), "size": len(old),
                "mode": stat.S_IMODE(path.stat().st_mode), "new_sha256": sha256_bytes(new), "new_size": len(new)}
        inserted = edits.insertions(old, new)
        if inserted is not None:
            return {**base, "stored": "insertions", "inserted": inserted}
        deleted = edits.insertions(new, old)
        if deleted is not None:
            # The change removes bytes: only they are needed to undo it, and they are
            # kept by the rule for any copy (sealed or withheld when they are T2 content
            # or hold a finding: issue 10). A restore of an insertions entry is such a change.
            return self._pieces_entry({**base, "stored": "deletions", "deleted": deleted},
                                      rel, edits.cut(old, deleted))
        replaced = edits.replacements(old, new)
        if replaced is None or sum(h[2] for h in replaced) > MAX_REPLACED_SHARE * len(old):
            return None
        # A few bytes replaced (learn on a later day rewrites the entry's ``updated:`` date
        # and appends a paragraph): only the replaced bytes are kept, by the same rule.
        return self._pieces_entry({**base, "stored": "replacements", "replaced": replaced}, rel,
                                  edits.cut_old(old, new, replaced))

    def _pieces_entry(self, entry: dict[str, Any], rel: str, blob: bytes) -> dict[str, Any]:
        """Keep ``blob`` (the bytes a change deleted or replaced) for ``entry`` as a copy would be kept.

        Raises:
            BackupError: it must be sealed, there is no key, and the change is not approved.
        """
        entry["pieces"] = self._keep(rel, blob)
        return entry

    def _update_entry(self, path: Path, rel: str, new: bytes) -> dict[str, Any] | None:
        """A second change of ``rel`` under this backup: the entry line that replaces the first, or None.

        Only an ``insertions`` entry needs one (a copy or an absent entry
        restores whatever the file holds later). The update covers the new
        bytes and keeps every state the file was in before (``also``), so a
        rollback finds the file in any of them.

        Raises:
            BackupError: the file is no longer what the first entry recorded
                (written by someone else between two saves of one command), or
                the change after it is not insertion-only: it could not be undone.
        """
        first = next((e for e in reversed(self.entries) if e.get("path") == rel), None)
        if first is None or first.get("stored") not in EDIT_KINDS:
            return None
        if first.get("stored") != "insertions":
            # Its pieces file would have to hold two versions; no command changes one
            # file twice that way today (import writes each knowledge key once).
            raise BackupError(f"{rel}: a second change in one command cannot be recorded by its first backup "
                              "entry; nothing was changed")
        now = read_regular(path)
        if sha256_bytes(now) != first.get("new_sha256"):
            raise BackupError(f"{rel} changed outside this command since it was backed up; nothing was changed")
        old = edits.delete(now, first["inserted"])
        inserted = edits.insertions(old, new)
        if inserted is None:
            raise BackupError(f"{rel}: a second change in one command that is not an insertion cannot be "
                              "undone from the first backup entry; nothing was changed")
        states = [{k: first[k] for k in ("new_sha256", "new_size", "inserted")}, *first.get("also", [])]
        return {**first, "new_sha256": sha256_bytes(new), "new_size": len(new), "inserted": inserted,
                "also": states, "update": True}

    def save_new_dir(self, path: Path) -> None:
        """Record a folder that the change is about to create (removed on restore if empty)."""
        rel = self._rel(path)
        if rel in self._saved:
            return
        try:
            self._append({"path": rel, "existed": False, "kind": "dir"})
        except OSError as exc:
            raise BackupError(f"backup of {rel}/ failed ({exc.strerror or exc}); nothing was changed") from None

    def close(self, state: str = "complete", record_after: bool = True) -> None:
        """Mark the backup ``complete`` (or ``rolled-back``) and remove its journal.

        Called by the workspace lock's release for every backup opened under
        it; harmless on a folder a caller already removed. When the header
        cannot be written (a full disk) while closing as ``complete``, the
        journal is emptied in place instead (truncating needs no space,
        :func:`_mark_closing`): the change stands, the command may say so, and
        the next lock holder closes it, never rolls it back (tatk19 6: the
        journal stayed as it was, and the next command undid a change the user
        was told was stored). ``record_after``: False when the next lock holder
        closes such a change (the files may have changed since; no ``after.json``
        is made from them).

        Raises:
            OSError, FileWriteError: the backup could not be closed and the
                journal could not be emptied either (it stays: the next command
                rolls the change back).
        """
        if self.state == state:
            return
        self.state = state
        if self.folder.is_dir():
            if state == "complete" and record_after:
                self._write_after()
            try:
                self._write_header()
            except (OSError, FileWriteError):
                if state == "complete" and _mark_closing(self.journal):
                    return  # the next lock holder closes it (header complete, journal removed)
                raise
        fsio.remove(self.journal, missing_ok=True)
        if self._seal:
            from . import anchor

            # the plan is done: a copy of its journal captured earlier is spent (killed before this, the
            # journal is gone already, and a replay of a copy finds its backup closed, below)
            anchor.spend_seal(self.workspace, self._seal)
            self._seal = None

    def roll_forward(self, plan: dict[str, Any]) -> None:
        """From now on, an interruption is finished, not rolled back: record ``plan`` in the journal.

        For a change whose last part destroys what a rollback needs (``forget``
        erases every copy of an entry, this backup's own included). Call it
        once the files are as they should end up; ``plan`` (JSON) says what is
        left to do: ``{"kind": "forget", ...}`` (see :func:`recover`). The
        journal is rewritten atomically (it holds what the plan needs, such as
        the forgotten text to search for, until the backup closes and removes it).

        Raises:
            FileWriteError: the journal could not be rewritten (the change is
                then still rolled back by the next run).
        """
        doc = {"id": self.id, "pid": os.getpid(), "reason": self.reason, "forward": plan}
        seal = plan_seal(self.workspace, self.id, plan, create=True)
        if seal is not None:
            doc["seal"] = seal
            self._seal = seal
        atomic_write(self.journal, (json.dumps(doc, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"),
                     mode=0o600)

    def resume_rollback(self, done: dict[str, Any] | None = None) -> None:
        """Make an interruption roll back again (the journal without its ``forward`` plan).

        For a change whose destructive part, finished under a :meth:`roll_forward`
        plan, is now complete and whose backup was brought in line with it
        (:meth:`rebase`): cleanup's purge. What the command does next is rolled
        back by the next run as usual, to the state right after that part.

        ``done``: what that part did, ``{"kind": "purge", "deleted": n, "erased": {name: n}}``,
        kept in the journal: a rollback leaves it done, so the re-run, which finds
        nothing left to do, reports it as its own (:func:`finished`; fault16: it
        logged "0 deleted" where the uninterrupted run logged "1 deleted").

        Raises:
            FileWriteError: the journal could not be rewritten (the plan stays:
                the next run finishes the destructive part again, which changes nothing).
        """
        doc: dict[str, Any] = {"id": self.id, "pid": os.getpid(), "reason": self.reason}
        if done is not None:
            doc["done"] = done
        atomic_write(self.journal, (json.dumps(doc, allow_nan=False) + "\n").encode("utf-8"), mode=0o600)
        if self._seal:
            from . import anchor

            # the plan is done and no longer in the journal: a captured copy of it is spent (killed before
            # this, the next command finishes the plan again, which changes nothing, and spends it)
            anchor.spend_seal(self.workspace, self._seal)
            self._seal = None

    def rebase(self, path: Path) -> bool:
        """Keep ``path`` as it is now as this backup's copy of it; True when the copy changed.

        A rollback or a restore of this backup then puts back the bytes of now,
        not those saved before the change began. For a file that a destructive
        step changed on purpose (cleanup's purge blanks the purged entry's
        records in the gate's audit log, issue 10): a rollback of the rest of the
        command must not bring the erased hashes back, and the backup must not
        keep them either (fatk11). Only a path saved as a whole copy (plain,
        sealed or withheld) is rebased; the copy is kept by the rule for copies.
        Call it only under a :meth:`roll_forward` plan whose finishing calls it
        again: the copy and the entry line are two writes, and a run killed between
        them is finished, never rolled back from the copy.

        Raises:
            BackupError: the copy or the entries could not be written.
        """
        rel = self._rel(path)
        try:
            found = _read_entries(self.folder, self.header())
        except (OSError, ValueError) as exc:
            raise BackupError(f"{self.folder / ENTRIES}: cannot be read ({exc})") from None
        at = next((n for n, e in enumerate(found) if isinstance(e, dict) and e.get("path") == rel), None)
        if at is None or found[at].get("kind") != "file" or found[at].get("stored") not in ("plain", "aes-gcm",
                                                                                           "withheld"):
            return False
        try:
            data = read_regular(path)
        except FileNotFoundError:
            return False
        digest = sha256_bytes(data)
        if found[at].get("sha256") == digest and found[at].get("existed"):
            return False
        entry: dict[str, Any] = {"path": rel, "existed": True, "kind": "file", "sha256": digest, "size": len(data),
                                 "mode": stat.S_IMODE(path.stat().st_mode)}
        allowed, self.allow_withheld = self.allow_withheld, True  # a copy it cannot seal: none, as before
        try:
            entry["stored"] = self._keep(rel, data)
            copy = self.folder / "files" / rel
            if entry["stored"] == "withheld":
                fsio.remove(copy, missing_ok=True)
            else:
                fsio.sync_file(copy)
            found[at] = entry
            _rewrite_entries(self.folder, {"version": VERSION, "entries": found})
        except OSError as exc:
            raise BackupError(f"backup of {rel} failed ({exc.strerror or exc})") from None
        except FileWriteError as exc:
            raise BackupError(f"backup of {rel} failed ({exc})") from None
        finally:
            self.allow_withheld = allowed
        self.entries = [entry if isinstance(e, dict) and e.get("path") == rel else e for e in self.entries]
        return True

    def _write_after(self) -> bool:
        """Record what the command left at every path it backed up (``after.json``, see :data:`AFTER`).

        Best effort: without it a restore simply cannot tell later changes
        from the command's own (as for backups made before this file existed).
        Returns True when it was written.
        """
        paths: dict[str, str | None] = {}
        try:  # a path renamed on disk meanwhile (a forgotten key, :func:`erase_copies`) is left out
            on_disk = {e.get("path") for e in _read_entries(self.folder, self.header()) if isinstance(e, dict)}
        except (OSError, ValueError):
            on_disk = None
        for entry in self.entries:
            if entry.get("kind") == "dir" or (on_disk is not None and entry.get("path") not in on_disk):
                continue
            try:
                paths[entry["path"]] = _snapshot(Path(self.workspace) / entry["path"])
            except OSError:
                return False
        doc = {"format": AFTER_FORMAT, "version": 1, "paths": paths}
        try:
            atomic_write(self.folder / AFTER, (json.dumps(doc, ensure_ascii=False, sort_keys=True, allow_nan=False)
                                               + "\n").encode("utf-8"), mode=0o600)
        except (OSError, FileWriteError):
            return False
        return True


#: Backups opened under the workspace lock in this process, by lock key, closed on release.
_OPEN: dict[str, list[Backup]] = {}


def open_backup(workspace: Path) -> Backup | None:
    """The backup this process opened last under ``workspace``'s lock and has not closed, or None.

    For writers of derived files inside a command (``daily-index.md``,
    ``knowledge-index.md``): saved into the command's backup before they
    change, so ``init --restore`` puts them back with the files they index.
    """
    found = _OPEN.get(_ws_key(workspace)) or []
    return found[-1] if found and found[-1].state == "open" else None


def _ws_key(workspace: Path) -> str:
    return str(Path(workspace).absolute())


def leave_for_rollback(workspace: Path, backup: Backup) -> None:
    """Leave ``backup`` open, its journal in place: the next command rolls its change back, as after a kill.

    For a change that failed (an error, not a kill) part-way before its point of no return and must not
    stand half-done: ``forget`` stopped after deleting the entry, before it erased the entry's copies,
    its own backup's included (fatk10: closed as complete, that copy stayed in plain and no later run
    knew of it). The indexes are marked stale (:data:`STALE_INDEXES`), so that the next command rebuilds
    them once the notes are put back. Best effort: a mark that cannot be written leaves the rebuild to
    :func:`recover`'s own check.
    """
    found = _OPEN.get(_ws_key(workspace)) or []
    if backup in found:
        found.remove(backup)
    with contextlib.suppress(OSError, MemoryManagerError):
        atomic_write(tree.Tree(workspace).state / STALE_INDEXES, b"", mode=0o600)


def _next_seq(root: Path) -> int:
    highest = 0
    with os.scandir(root) as found:
        for item in found:
            match = _V2_ID.match(item.name)
            if match:
                highest = max(highest, int(match.group(1)))
    return highest + 1


#: Paths whose backup copy this process withheld (no T2 key): the CLI warns about each at the end.
WITHHELD: list[str] = []


def start(workspace: Path, reason: str, role: str = "change", restores: str | None = None,
          allow_withheld: bool = False) -> Backup:
    """Open a new backup for ``reason`` (e.g. ``"init"``, ``"cleanup"``).

    Args:
        workspace: the workspace folder.
        reason: a short label shown by ``--list-backups``.
        role: ``"change"`` (a command about to change files) or ``"safety"``
            (a restore's copy of the state it replaces; never "newest").
        restores: for a safety backup, the id being restored.
        allow_withheld: without a T2 key, a copy that must be sealed (T2
            content, a file with a finding) cannot be kept. False (the
            default): saving such a file raises BackupError before anything
            changes, so no command changes it silently without an undo.
            True: the copy is withheld (``stored: "withheld"``), listed in
            :data:`WITHHELD` and warned about by the CLI. Callers pass True
            for a change the user approved (``--approved``: edits, forget,
            imports), for a restore, and for maintenance that only moves
            entries or purges them (cleanup, prune, init's own section).

    The id is ``<seq>-<YYYYMMDDTHHMMSSZ>`` (see the module docstring). Under
    the workspace lock the backup stays open (journal file present) until
    the lock is released, so a killed command is rolled back by the next.

    Raises:
        BackupError: the folder cannot be made (nothing was changed).
    """
    workspace = Path(workspace)
    root = backup_root(workspace)
    try:
        fsio.make_dirs(root)
        locked = fsio.holds_lock(workspace)
        for _ in range(1000):
            ident = f"{_next_seq(root):0{SEQ_DIGITS}d}-{stamp()}"
            journal = root / f"{JOURNAL_PREFIX}{ident}"
            try:
                if locked:
                    # The journal comes first: whatever a kill leaves after this
                    # point (a folder without a manifest, a staging file in it)
                    # is found and cleared by the next lock holder.
                    atomic_write(journal, (json.dumps({"id": ident, "pid": os.getpid(), "reason": reason}, allow_nan=False)
                                           + "\n").encode("utf-8"), mode=0o600)
                fsio.step(f"backup-start {ident}")
                (root / ident).mkdir(mode=0o700)
            except FileExistsError:
                if locked:
                    fsio.remove(journal, missing_ok=True)
                continue
            except FileWriteError as exc:
                raise BackupError(f"cannot create a backup in {root} ({exc}); nothing was changed") from None
            backup = Backup(workspace, ident, reason, seq=int(ident.split("-")[0]), role=role, restores=restores,
                            created=now().isoformat(timespec="seconds"), state="open" if locked else "complete",
                            allow_withheld=allow_withheld)
            try:
                backup._write_header()
                fsio.sync_dir(root)  # the new folder's name
            except FileWriteError as exc:
                shutil.rmtree(root / ident, ignore_errors=True)
                fsio.remove(journal, missing_ok=True)
                raise BackupError(f"cannot create a backup in {root} ({exc}); nothing was changed") from None
            if locked:
                _OPEN.setdefault(_ws_key(workspace), []).append(backup)
            return backup
    except OSError as exc:
        raise BackupError(f"cannot create a backup in {root} ({exc.strerror}); nothing was changed") from None
    raise BackupError(f"cannot find a free backup id under {root}")


def _mark_closing(journal: Path) -> bool:
    """Empty ``journal`` in place: its change finished and the command goes on to report it, but the backup's
    header could not be written (:meth:`Backup.close`); the next lock holder closes it, never rolls it back.
    Truncating needs no free space. A journal is always written whole (staged and renamed), so an empty one
    is never left by a kill. Returns True when done."""
    try:
        if not _journal_file(journal):
            return False
        fsio.step(f"truncate {journal}")
        os.truncate(journal, 0)
    except (OSError, MemoryManagerError):
        return False
    return True


def _closing(journal: Path) -> bool:
    """True when ``journal`` was emptied by :meth:`Backup.close` (:func:`_mark_closing`): its change finished and
    its command reported it, only the backup's header could not be written. Closed by the next lock holder."""
    try:
        info = os.lstat(journal)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size == 0


def _on_release(workspace: Path) -> None:
    """The workspace lock is being released normally: every backup opened under it is complete.

    Raises:
        BackupError: a backup could not be closed, nor its journal emptied (:meth:`Backup.close`): the
            command must not report success, as the next command rolls the change back. One line
            naming the backup and what happens to the files.
    """
    failed: list[tuple[Backup, BaseException]] = []
    for backup in _OPEN.pop(_ws_key(workspace), []):
        try:
            backup.close()
        except (OSError, MemoryManagerError) as exc:
            failed.append((backup, exc))
    if failed:
        backup, exc = failed[0]
        why = getattr(exc, "strerror", None) or str(exc)
        raise BackupError(f"the {backup.reason or 'change'} changed its files, but its backup {backup.id} could not be "
                          f"closed ({why}): the next command rolls the change back from that backup")


# ------------------------------------------------------------------ reading

def _read_entries(folder: Path, doc: dict[str, Any]) -> list[dict[str, Any]]:
    if doc.get("version") == 1:
        return list(doc.get("entries") or [])
    result = []
    try:
        raw = read_regular(folder / ENTRIES)
    except FileNotFoundError:
        return []
    where: dict[Any, int] = {}
    lines = raw.split(b"\n")
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            entry = jsonio.loads(line, ENTRIES)
        except (ValueError, MemoryManagerError) as exc:
            if n == len(lines) - 1:
                break  # a torn last line (no line break after it): a command killed before it changed that path
            # A whole line that does not read is damage, not a kill: the backup cannot be trusted (fatk8).
            raise ValueError(f"{ENTRIES} line {n + 1} unreadable ({exc})") from None
        path = entry.get("path") if isinstance(entry, dict) else None
        if isinstance(entry, dict) and entry.get("update") is True and isinstance(path, str) and path in where:
            # v4: a second change of the path in one command replaces its insertions entry
            # (the update keeps the earlier states in "also"; see Backup._update_entry).
            result[where[path]] = entry
            continue
        if isinstance(path, str) and path not in where:
            where[path] = len(result)
        result.append(entry)
    return result


def _check_seq(ident: str, doc: dict[str, Any]) -> None:
    """Raise ValueError unless the manifest's ``seq`` (when there) is the number its id starts with.

    Creation order is the sequence (references/formats.md): a ``seq`` of 400 digits, a
    string or one that disagrees with the id is no manifest of ours (a hand edit, damage),
    and a backup read with it would be misordered, so it counts as unreadable (fatk8).
    """
    if "seq" not in doc:
        return
    seq = doc["seq"]
    match = _V2_ID.match(ident)
    if isinstance(seq, bool) or not isinstance(seq, int) \
            or (seq != int(match.group(1)) if match else not 0 <= seq < 10 ** 9):
        shown = f"a {len(str(abs(seq)))}-digit number" if isinstance(seq, int) and abs(seq) >= 10 ** 9 else repr(seq)[:40]
        raise ValueError(f"{MANIFEST}: 'seq' is {shown}, not this backup's sequence number")


def _read(folder: Path) -> dict[str, Any]:
    """Read one backup folder into a dict (header + ``entries`` + ``files``), or with ``error``."""
    try:
        doc = jsonio.loads(read_regular_text(folder / MANIFEST, "utf-8"), MANIFEST)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME or doc.get("version") not in READ_VERSIONS:
            raise ValueError("not a memory-backup manifest")
        _check_seq(folder.name, doc)
        doc["entries"] = _read_entries(folder, doc)
    except OSError as exc:
        # A FIFO, a folder or a device where the manifest or the entries file should be (fatk8):
        # named, so that a restore or a listing that passes over the backup says which file.
        name = Path(exc.filename).name if exc.filename else MANIFEST
        why = f"{name}: cannot read ({exc.strerror})" if exc.strerror else f"missing or unreadable {name}"
        return {"id": folder.name, "error": why, "files": 0, "entries": []}
    except (ValueError, MemoryManagerError) as exc:
        why = str(exc) if str(exc).startswith((ENTRIES, MANIFEST)) else "missing or unreadable manifest"
        return {"id": folder.name, "error": why, "files": 0, "entries": []}
    if doc.get("version") == 1:
        # v1 had no roles: a restore's safety copy is known by its reason.
        doc.setdefault("role", "safety" if str(doc.get("reason", "")).startswith("restore ") else "change")
        doc.setdefault("state", "complete")
    doc["id"] = folder.name
    doc["files"] = len(doc["entries"])
    return doc


def _folders(workspace: Path) -> list[Path]:
    root = backup_root(workspace)
    if not root.is_dir():
        return []
    found = [p for p in root.iterdir() if p.is_dir() and not p.is_symlink() and not p.name.startswith(".")]
    return sorted(found, key=lambda p: order_key(p.name))


def recorded_paths(workspace: Path, pattern: "re.Pattern[str]") -> list[str]:
    """Every workspace-relative path the backups' manifests (``entries.jsonl``, ``after.json``) name
    that matches ``pattern`` (full match), sorted; a backup that does not read is passed over.

    What ``forget`` uses to find an entry's earlier file names (atk12: a quarantine or archive name)."""
    found: set[str] = set()
    for folder in _folders(workspace):
        doc = _read(folder)
        for entry in doc.get("entries") or []:
            path = entry.get("path") if isinstance(entry, dict) else None
            if isinstance(path, str) and pattern.fullmatch(path):
                found.add(path)
        after = _after(workspace, folder.name) or {}
        found.update(p for p in after if isinstance(p, str) and pattern.fullmatch(p))
    return sorted(found)


#: The SHA-256 of no bytes: an empty file's state says nothing about whose file it was.
_EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def former_paths(workspace: Path, rel: str, data: bytes, pattern: "re.Pattern[str]",
                 marker: bytes | None = None) -> list[str]:
    """The other paths the backups record for the file now at ``rel``: its names before a rename by hand.

    ``forget`` knows an entry's file by its name today; a user who renamed it
    (``mv deploy.md alice-chen-hiv-clinic.md``, then back to a neutral name)
    left its earlier names, which may hold the private words, in the backups'
    entry lines and ``after.json`` (attack round 15). A recorded path matching
    ``pattern`` (full match) was this file when

    - a state recorded for it (an entry's ``sha256``/``new_sha256``, its
      ``after.json`` hash) is a state of this file: ``data``'s hash, or one
      recorded for ``rel`` or for a path found already (a rename by hand keeps
      the bytes, so the old name's last state is the new name's first); or
    - ``marker`` (the entry's ``id:`` line) is in a copy the backups keep of
      it (sealed ones opened with the T2 key when it is at hand): the file was
      renamed and edited by hand.

    Paths that exist now, and paths a manifest should not hold
    (:func:`_rel_problem`), are not returned: another file lives there (a new
    entry learned under the old name, two files swapped); this file's states
    under such a name are :func:`former_states`.
    A backup that does not read is passed over.

    Args:
        workspace: the workspace. rel: the file's workspace-relative POSIX path now.
        data: its bytes now. pattern: the paths to consider (the entry's folder).
        marker: bytes only this entry's file holds, or None.

    Returns the paths, sorted (``rel`` not among them).
    """
    return former_paths_and_states(workspace, rel, data, pattern, marker)[0]


def former_states(workspace: Path, rel: str, data: bytes, pattern: "re.Pattern[str]",
                  marker: bytes | None = None) -> list[str]:
    """The sha256 digests of this file's states recorded under an earlier name that another file holds now.

    The counterpart of :func:`former_paths` for a name that exists again (tatk17 kind 2: a
    knowledge file renamed by hand whose old name was learned again; two entries whose files
    were swapped). Every copy of such a name cannot go (the other file's older versions are
    there too), so the backup entries are told apart one by one: an entry under that name is
    this file's when a state it records is one of this file's (its bytes now, a state recorded
    for ``rel`` or a former name, or one found so, step by step back through its edits), or
    when its copy holds ``marker`` (the entry's id line). ``forget`` erases the entries
    recording these digests (:func:`erase_copies`'s ``hashes``): the pre-edit text under the
    old name goes, the other file's copies stay.

    Args: as :func:`former_paths`. Returns the digests, sorted.
    """
    return former_paths_and_states(workspace, rel, data, pattern, marker)[1]


def former_paths_and_states(workspace: Path, rel: str, data: bytes, pattern: "re.Pattern[str]",
                            marker: bytes | None) -> tuple[list[str], list[str]]:
    """:func:`former_paths` and :func:`former_states` in one walk of the backups."""
    states: dict[str, set[str]] = {}
    copies: dict[str, list[tuple[Path, str, dict[str, Any]]]] = {}
    # One record per backup and path (its entry's states with its after.json value: the state
    # before the change and the one after it), (path, states, copy or None), judged one by one.
    records: list[tuple[str, set[str], tuple[Path, str, dict[str, Any]] | None]] = []
    ws = Path(workspace)
    for folder in _folders(workspace):
        doc = _read(folder)
        if "error" in doc:
            continue
        here: dict[str, int] = {}
        for entry in doc.get("entries") or []:
            path = entry.get("path") if isinstance(entry, dict) else None
            if not isinstance(path, str) or (path != rel and not pattern.fullmatch(path)):
                continue
            states.setdefault(path, set()).update(entry_states(entry))
            copy = None
            if entry.get("stored", "plain") in ("plain", "aes-gcm") and _holds_bytes(entry):
                copy = (folder, doc["id"], entry)
                copies.setdefault(path, []).append(copy)
            here[path] = len(records)
            records.append((path, set(entry_states(entry)), copy))
        for path, value in (_after(workspace, folder.name) or {}).items():
            if isinstance(path, str) and isinstance(value, str) and (path == rel or pattern.fullmatch(path)):
                states.setdefault(path, set()).add(value)
                if path in here:
                    records[here[path]][1].add(value)
                else:
                    records.append((path, {value}, None))
    known = ({sha256_bytes(data)} | states.get(rel, set())) - {_EMPTY_SHA}
    key: Any = False

    def copy_holds_marker(folder: Path, ident: str, path: str, entry: dict[str, Any]) -> bool:
        nonlocal key
        try:
            blob = _read_copy(folder, path, ident)
            if entry.get("stored", "plain") == "aes-gcm":
                if key is False:
                    key = _load_key(workspace)
                if key is None:
                    return False
                blob = _open_sealed(key, ident, path, blob)
        except (OSError, BackupError):
            return False
        return bool(marker) and marker in blob

    def holds_marker(path: str) -> bool:
        return bool(marker) and any(copy_holds_marker(f, i, path, e) for f, i, e in copies.get(path, []))

    # Under a name another file holds now, entries are judged one by one against ``own``: the
    # states this file surely had (its bytes now, then step by step back through entries found
    # so). The states recorded for ``rel`` as a whole are not used there: after a swap they are
    # the other file's (tatk17 kind 2).
    own = {sha256_bytes(data)} - {_EMPTY_SHA}
    judged = [(n, path, seen, copy) for n, (path, seen, copy) in enumerate(records)
              if path == rel or (not _rel_problem(path) and (ws / path).exists())]
    marked: dict[int, bool] = {}

    def record_marked(n: int, path: str, copy: tuple[Path, str, dict[str, Any]] | None) -> bool:
        if n not in marked:
            marked[n] = copy is not None and copy_holds_marker(copy[0], copy[1], path, copy[2])
        return marked[n]

    found: set[str] = set()
    mine: set[int] = set()
    grew = True
    while grew:
        grew = False
        for path, seen in states.items():
            if path == rel or path in found or _rel_problem(path) or (ws / path).exists():
                continue
            if seen & known or holds_marker(path):
                found.add(path)
                known |= seen - {_EMPTY_SHA}
                own |= seen - {_EMPTY_SHA}
                grew = True
        for n, path, seen, copy in judged:
            if n in mine:
                continue
            if seen & own or (path != rel and record_marked(n, path, copy)):
                mine.add(n)
                own |= seen - {_EMPTY_SHA}
                known |= seen - {_EMPTY_SHA}
                grew = True
    held = set()
    for n in mine:
        if records[n][0] != rel:
            held |= records[n][1]
    held -= {_EMPTY_SHA}
    return sorted(found), sorted(held)


def list_backups(workspace: Path) -> list[dict[str, Any]]:
    """Return every backup's manifest in creation order (oldest first).

    Each dict holds the header fields, ``entries`` (list of dicts) and
    ``files`` (their count). Folders without a readable manifest are listed
    with ``"error"`` set.
    """
    return [_read(folder) for folder in _folders(workspace)]


def stored_counts(doc: dict[str, Any]) -> dict[str, int]:
    """How backup ``doc`` keeps the files that existed: ``{"plain": n, "aes-gcm": n, "insertions": n, ...}``.

    For ``--list-backups --json``: ``insertions`` entries (format v4) keep no
    copy at all, ``deletions`` only the bytes a change removed.
    """
    counts: dict[str, int] = {}
    for entry in doc.get("entries", []):
        if isinstance(entry, dict) and entry.get("kind") == "file" and entry.get("existed"):
            kind = str(entry.get("stored", "plain"))
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def erased(doc: dict[str, Any]) -> list[str]:
    """The paths whose copy in backup ``doc`` was erased on purpose (``forget``, a purge)."""
    return [e["path"] for e in doc.get("entries", []) if isinstance(e, dict) and e.get("stored") == "erased"
            and e.get("erased") != "hashes" and isinstance(e.get("path"), str)]


def _restorable(doc: dict[str, Any]) -> bool:
    """A backup "newest" may pick: complete, made by a command, holding entries.

    A backup with a copy erased on purpose is not a restore point: ``forget``
    backs the entry up (so a crash half-way can be rolled back) and then
    erases that very copy (forgotten means gone, issue 10); "undo the last
    change" cannot mean bringing it back, and restoring the rest of such a
    backup would be a partial undo (walk-through r3, item 3).
    """
    return "error" not in doc and bool(doc["entries"]) and doc.get("role") == "change" \
        and doc.get("state") == "complete" and not erased(doc)


def not_restore_point(doc: dict[str, Any]) -> str | None:
    """Why ``init --restore`` without an id skips backup ``doc`` (shown by ``--list-backups``), or None."""
    if "error" in doc:
        return "unreadable"
    if doc.get("role") == "safety":
        return "a restore's safety copy"
    if doc.get("state") != "complete":
        return doc.get("state") or "open"
    if not doc["entries"]:
        return "empty"
    if erased(doc):
        return "copy erased on purpose (forget/purge)"
    return None


def match_ids(workspace: Path, prefix: str) -> list[str]:
    """The backup ids that are ``prefix`` or start with it (``init --restore 000007``)."""
    ids = [doc["id"] for doc in list_backups(workspace)]
    if prefix in ids:
        return [prefix]
    return [i for i in ids if i.startswith(prefix)]


def _resolve(workspace: Path, ident: str) -> str:
    """The one backup id ``ident`` names (the id itself or a unique prefix of it).

    Raises:
        UnknownBackupIdError: (exit 2) no id starts with it. BadInputError: several do (they are named).
    """
    found = match_ids(workspace, ident) if ident else []
    if len(found) == 1:
        return found[0]
    if not found:
        raise UnknownBackupIdError(f"no backup with id {ident!r} (see --list-backups)")
    from .errors import BadInputError

    shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more (see --list-backups)" if len(found) > 5 else "")
    raise BadInputError(f"backup id {ident!r} is ambiguous: it starts {len(found)} ids: {shown}")


def skipped_notes(workspace: Path, doc: dict[str, Any], dry_run: bool = False) -> list[str]:
    """Notes naming the change backups newer than ``doc`` that a bare ``--restore`` passed over, and why,
    and every backup it could not read.

    ``dry_run``: the notes say "would restore" (nu7: a dry run said it "restored").

    "Undo the last change" picks the newest restore point (:func:`_restorable`);
    when the last change cannot be undone (``forget``: its copies are erased
    on purpose) the restore says so instead of leaving the user to guess which
    change it undid (issue 11: every message true).
    """
    out = []
    key = order_key(doc["id"], doc.get("seq"))
    for other in list_backups(workspace):
        if "error" in other and other["id"] != doc["id"]:
            # An older backup that cannot be read (a FIFO as its manifest, a torn file) is no
            # restore point either: named, never passed over in silence (fatk8). A newer one
            # stopped the bare restore already (_load).
            out.append(f"backup {other['id']} cannot be read ({other['error']}); passed over")
            continue
        if order_key(other["id"], other.get("seq")) <= key:
            continue
        if other.get("role") == "safety":
            # A restore's safety copy is no change to undo, but a bare --restore right after a
            # restore is the user undoing it: name the copy it passes over, and how to restore
            # it (nu16 item 4; the README: it "says which newer ones it skipped").
            if other.get("state") == "complete" and other["entries"]:
                out.append(f"newer backup {other['id']} ({other.get('reason') or '?'}) is the state before that "
                           f"restore, not a change: {'would pass' if dry_run else 'passed'} over it; to undo the "
                           f"restore, restore it by id (--restore {other['id']})")
            continue
        why = not_restore_point(other)
        # A rolled-back or empty backup stands for no change at all: nothing to say.
        if why and other.get("state") == "complete" and other["entries"]:
            out.append(f"newer backup {other['id']} ({other.get('reason') or '?'}) is not a restore point: {why}; "
                       + ("would restore the newest one that is" if dry_run else "restored the newest one that is"))
    return out


def _load(workspace: Path, ident: str | None) -> dict[str, Any]:
    found = list_backups(workspace)
    if ident is None:
        usable = [b for b in found if _restorable(b)]
        newer = found[found.index(usable[-1]) + 1:] if usable else found
        broken = [b for b in newer if "error" in b]
        if broken:
            # The newest change may be in a backup that cannot be read: never undo an older
            # change in its place without a word (fatk8).
            raise BackupError(f"backup {broken[-1]['id']} is newer than every backup that can be restored, and it "
                              f"cannot be read ({broken[-1]['error']}): nothing was restored; restore a backup by "
                              "its id (--restore ID, see --list-backups), or remove that folder first")
        if not usable:
            raise NotFoundError(f"no backups to restore in {backup_root(workspace)}")
        return usable[-1]
    ident = _resolve(workspace, ident)
    for doc in found:
        if doc["id"] == ident:
            if "error" in doc:
                raise BackupError(f"backup {ident}: {doc['error']}")
            if doc.get("state") == "open":
                raise BackupError(f"backup {ident} belongs to a change still in progress")
            return doc
    raise UnknownBackupIdError(f"no backup with id {ident!r} (see --list-backups)")


def _after(workspace: Path, ident: str) -> dict[str, Any] | None:
    """What the command of backup ``ident`` left (``after.json``), or None (not recorded)."""
    try:
        doc = jsonio.loads(read_regular_text(backup_root(workspace) / ident / AFTER, "utf-8"), AFTER)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or doc.get("format") != AFTER_FORMAT or not isinstance(doc.get("paths"), dict):
        return None
    return doc["paths"]


def _derived(rel: str) -> bool:
    return rel in DERIVED or rel.startswith(DERIVED_PREFIXES)


#: The bundle's own bookkeeping (``memory/.state/``: cleanup's log and stamp, access counts): a
#: later run of the tool changes it, never the user, so it does not make a restore ask for
#: ``--force`` (walk-through r4, item 13). A restore still puts its bytes back.
TOOL_STATE_PREFIXES = (tree.rel(tree.STATE) + "/",)


def changed_since(workspace: Path, doc: dict[str, Any], steps: list["_Step"]) -> list[str]:
    """The paths a restore of ``doc`` would overwrite or remove that changed after its command ran.

    Compares each path's current state with what the command left
    (``after.json``); derived indexes are left out (a restore rebuilds them),
    and so is the tool's own state in ``memory/.state/`` (:data:`TOOL_STATE_PREFIXES`).
    A version 1 or 2 backup without ``after.json`` (made before it existed, or
    not closed) has nothing to compare with: an empty list. In a version 3
    backup a file the command created (``existed: false``) that ``after.json``
    does not vouch for is listed too: a restore never deletes a file it cannot
    show to be the command's own without ``force``.
    """
    after = _after(workspace, doc["id"])
    # Version 3: a file the command created is removed only when it provably
    # still holds the command's bytes; no record of them counts as changed.
    proof_to_remove = (doc.get("version") or 1) >= 3
    if after is None:
        if not proof_to_remove:
            return []
        after = {}
    return [s.rel for s in steps if s.action in ("restore", "remove", "keep") and not _derived(s.rel)
            and not s.rel.startswith(TOOL_STATE_PREFIXES)
            and ((s.rel in after and after[s.rel] != s.now)
                 or (proof_to_remove and s.action == "remove" and s.rel not in after))]


# ------------------------------------------------------------------ checking a manifest

def valid_id(ident: Any) -> bool:
    """True when ``ident`` has the shape of a backup id (v2 ``NNNNNN-YYYYMMDDTHHMMSSZ`` or v1).

    Ids come from folder and journal names under ``.memory-backup`` and from
    the command line; anything else (``..``, ``.``, a path) is never used to
    build a path (issue 10: a planted ``.open-..`` journal must not make
    recovery treat the workspace itself as a backup folder).
    """
    return isinstance(ident, str) and bool(_V2_ID.match(ident) or _V1_ID.match(ident))


def _rel_problem(raw: Any) -> str | None:
    """Why ``raw`` (a path read from a manifest) is not a plain relative POSIX path, else None."""
    if not isinstance(raw, str) or not raw or "\\" in raw or "\0" in raw:
        return f"bad path {raw!r} in the manifest"
    if PurePosixPath(raw).is_absolute() or any(part in ("..", ".", "") for part in raw.split("/")):
        return f"path {raw!r} leaves the workspace"
    return None


def _malformed(folder: Path, ident: str, problem: str) -> MalformedBackupError:
    """The error for a manifest entry we refuse, naming the file that holds it (bad input, exit 2).

    The entries sit in ``entries.jsonl`` (format v2 and later) or in ``manifest.json`` (v1).
    """
    name = ENTRIES if (Path(folder) / ENTRIES).exists() else MANIFEST
    return MalformedBackupError(f"backup {ident}: {problem} in {BACKUP_DIRNAME}/{ident}/{name}; nothing was changed")


def _copy_path(folder: Path, raw: Any, ident: str) -> Path:
    """Return the copy of workspace path ``raw`` in backup ``folder``, refusing any way out.

    The path comes from the manifest (data, not code): it must be a plain
    relative path (:func:`_rel_problem`), and neither the backup folder, its
    ``files/`` nor any folder on the way may be a symlink. The copy itself is
    opened without following a link (:func:`_read_copy`).

    Raises:
        BackupError: naming the backup and the path; nothing was changed.
    """
    problem = _rel_problem(raw)
    if problem:
        raise _malformed(folder, ident, problem)
    path = folder
    for part in ("files", *PurePosixPath(raw).parts[:-1]):
        if path.is_symlink():
            raise BackupError(f"backup {ident}: {path.name}/ in the backup is a symlink; nothing was changed")
        path = path / part
    if path.is_symlink():
        raise BackupError(f"backup {ident}: {path.name}/ in the backup is a symlink; nothing was changed")
    return path / PurePosixPath(raw).name


def _read_copy(folder: Path, raw: Any, ident: str) -> bytes:
    """Read the copy of ``raw`` in backup ``folder`` (see :func:`_copy_path`); a symlink is refused.

    Raises:
        BackupError: a path that leads out, a symlinked copy or folder.
        OSError: the copy is missing or unreadable (the caller words it).
    """
    import errno

    path = _copy_path(folder, raw, ident)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise BackupError(f"backup {ident}: the copy of {raw} is a symlink (a backup holds files only); "
                              "nothing was changed") from None
        raise
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise BackupError(f"backup {ident}: the copy of {raw} is not a file; nothing was changed")
        return handle.read()


def _check_path(workspace: Path, raw: Any, ident: str) -> Path:
    """Return the workspace path of a manifest entry, refusing anything that could leave it.

    Refused: not a string, empty, absolute, a ``.``/``..`` part, a backslash,
    a NUL, the workspace itself, anything in ``.memory-backup/``, and a path
    whose folders (symlinks resolved) lead out of the workspace.
    """
    folder = backup_root(workspace) / ident
    problem = _rel_problem(raw)
    if problem:
        raise _malformed(folder, ident, problem)
    pure = PurePosixPath(raw)
    if pure.parts[0] == BACKUP_DIRNAME:
        raise _malformed(folder, ident, f"path {raw!r} is inside {BACKUP_DIRNAME}/")
    target = Path(workspace) / pure
    from .workspace import inside

    # Only the folders are resolved: the entry itself may be a symlink, which a
    # restore replaces or removes as a link (never following it).
    if not inside(Path(workspace), target.parent):
        raise BackupError(f"backup {ident}: {raw} lies behind a symlink out of the workspace; nothing was changed")
    return target


#: Mode bits a restore may apply from a manifest: read and execute for anyone, write for the
#: owner only; never setuid, setgid or sticky (issue 10: a forged ``mode: 0o6777``).
RESTORABLE_MODE_BITS = 0o755


def safe_mode(mode: int) -> int:
    """``mode`` (permission bits from a manifest) without the bits a restore never applies
    (:data:`RESTORABLE_MODE_BITS`)."""
    return mode & RESTORABLE_MODE_BITS


def _current_sha(target: Path) -> str | None:
    if target.is_symlink() or not target.is_file():
        return None
    return sha256_file(target)


@dataclass
class _Step:
    """One planned restore action on ``rel`` (``action``: restore, remove, chmod, rmdir, or keep: a v4
    entry without a copy that cannot be applied to the file as it is now, left alone with a note)."""

    action: str
    rel: str
    target: Path
    entry: dict[str, Any]
    data: bytes | None = None
    #: What is there now (sha256 of a file, "symlink", "dir" or None): checked again right before acting.
    now: str | None = None
    #: A rollback's undo of an edit entry around bytes added after the change (:func:`_undo_edit`, ``around``):
    #: ``data`` keeps them, and the file as it is now is kept in the rollback's own backup first.
    merged: bool = False


def _snapshot(target: Path) -> str | None:
    if target.is_symlink():
        return "symlink:" + os.readlink(target)
    if target.is_dir():
        return "dir"
    if target.exists():
        return sha256_file(target)
    return None


def _plan(workspace: Path, doc: dict[str, Any], key_needed: bool = True, rollback: bool = False,
          left: list[str] | None = None) -> tuple[list[_Step], list[str]]:
    """Check every entry and read every copy; return the steps and the notes, changing nothing.

    Each note starts with the path it concerns (``"<path>: ..."``).

    Args:
        rollback: planned for :func:`recover` (an interrupted change, not a restore the user asked
            for): an edit entry is undone around bytes added before or after the change's state
            (:func:`_undo_edit`, ``around``), and the notes speak of the interrupted change.
        left: when given, receives the path of every file the plan leaves as it is though the backup
            records it as changed (a folder or a symlink there now, a copy withheld or erased, an edit
            entry it cannot undo): the paths a rollback must name as not rolled back (tatk20 4 and 10).

    Raises:
        BackupError: an entry is malformed or leaves the workspace, a copy is
            missing, fails its checksum, or cannot be decrypted.
    """
    ident = doc["id"]
    folder = backup_root(workspace) / ident
    steps: list[_Step] = []
    notes: list[str] = []
    key: Any = False
    seen: set[str] = set()
    for entry in doc["entries"]:
        if not isinstance(entry, dict):
            raise _malformed(folder, ident, f"malformed entry {str(entry)[:80]!r}")
        target = _check_path(workspace, entry.get("path"), ident)
        rel = entry["path"]
        if rel in seen:
            continue
        seen.add(rel)
        kind, existed = entry.get("kind"), entry.get("existed")
        if kind not in ("file", "dir", "symlink") or not isinstance(existed, bool):
            raise _malformed(folder, ident, f"malformed entry for {rel}")
        current = _snapshot(target)
        if kind == "file" and existed and entry.get("stored") == "erased":
            # Erased on purpose (forget/purge): since format v5 the entry keeps no hash or size
            # either (a hash of a state that held the forgotten text confirms a guess at it); an
            # entry erased by an older version still has them, and reads the same.
            if current is not None and not _derived(rel):  # an index is rebuilt from the notes instead
                notes.append(f"{rel}: its {'record' if entry.get('erased') == 'hashes' else 'copy'} was erased on "
                             "purpose (forget/purge); left as it is")
                _leave(left, rel)
            continue
        if kind == "file" and existed:
            sha, mode = entry.get("sha256"), entry.get("mode")
            if not isinstance(sha, str) or not _SHA.match(sha) or not isinstance(mode, int) or not 0 <= mode <= 0o7777:
                raise _malformed(folder, ident, f"malformed entry for {rel}")
            stored = entry.get("stored", "plain")
            safe = safe_mode(mode)
            if safe != mode:
                # The manifest is data: setuid/setgid/sticky bits and write access for group or
                # others are never applied from it (issue 10); the rest of the mode is.
                notes.append(f"{rel}: mode {mode:o} in the manifest not applied; {safe:o} used")
                entry = dict(entry, mode=safe)
            if current == sha:
                if stat.S_IMODE(target.stat().st_mode) != safe:
                    steps.append(_Step("chmod", rel, target, entry, now=current))
                continue
            if current == "dir":
                # Only a plain copy can be put back by hand; an edit entry keeps no copy of the file, a
                # sealed one needs the T2 key (tatk20 4: the note named a copy an edit entry never has).
                # The copy is named inside the workspace: its absolute path may hold a token (issue 10).
                copy = f"; restore it by hand from {tree.BACKUPS}/{ident}/files/{rel}" \
                    if stored == "plain" else f"; backup {ident} keeps no copy of it" if stored in EDIT_KINDS else ""
                notes.append(f"{rel}: is a folder now; left alone{copy}")
                _leave(left, rel)
                continue
            if stored == "withheld":
                notes.append(f"{rel}: its copy was withheld (no T2 key when it was saved); not restored")
                _leave(left, rel)
                continue
            if stored == "erased":
                notes.append(f"{rel}: its copy was erased on purpose (forget/purge); left as it is")
                _leave(left, rel)
                continue
            if stored in EDIT_KINDS:
                if key is False and stored in PIECE_KINDS and entry.get("pieces") == "aes-gcm":
                    key = _load_key(workspace)
                blob, note = _undo_edit(folder, ident, rel, target, entry, current, key, around=rollback)
                if blob is None:
                    if not _derived(rel):  # a derived index is rebuilt from the notes instead (restore)
                        notes.append(note)
                        _leave(left, rel)
                    # A step that changes nothing, so that changed_since still names the
                    # file: without --force the restore refuses as it does for a copy.
                    steps.append(_Step("keep", rel, target, entry, now=current))
                    continue
                if note:
                    notes.append(note)
                steps.append(_Step("restore", rel, target, entry, data=blob, now=current, merged=bool(note)))
                continue
            try:
                blob = _read_copy(folder, rel, ident)
            except OSError:
                raise BackupError(f"backup {ident}: copy of {rel} is missing; nothing was changed") from None
            if stored == "aes-gcm":
                if key is False:
                    key = _load_key(workspace)
                if key is None:
                    raise BackupError(f"backup {ident}: the copy of {rel} is encrypted and no T2 key is "
                                      "available (MEMORY_MANAGER_KEY or the key file); nothing was changed")
                blob = _open_sealed(key, ident, rel, blob)
            elif stored != "plain":
                raise BackupError(f"backup {ident}: copy of {rel} is {stored!r}; nothing was changed")
            if sha256_bytes(blob) != sha:
                raise BackupError(f"backup {ident}: copy of {rel} fails its sha256 check; nothing was changed")
            steps.append(_Step("restore", rel, target, entry, data=blob, now=current))
        elif kind == "file" and not existed:
            if current is None:
                continue
            if current == "dir":
                # "Did not exist" was a file path; a folder there now is the user's: never wiped.
                notes.append(f"{rel}: a folder is there now; left alone")
                _leave(left, rel)
                continue
            steps.append(_Step("remove", rel, target, entry, now=current))
        elif kind == "dir" and not existed:
            if current == "dir":
                steps.append(_Step("rmdir", rel, target, entry, now=current))
        elif kind == "dir" and existed:
            # A folder that was there (saved with its contents, as a restore's safety backup saves
            # each empty folder it removes) comes back when missing, even empty: undoing a restore
            # gives back memory/daily/ and the rest (walk-through r9, item 2). Its mode goes
            # through safe_mode like a file's; a file there now is the user's and stays.
            if current is None:
                mode = entry.get("mode")
                mode = safe_mode(mode) if isinstance(mode, int) and 0 <= mode <= 0o7777 else 0o700
                steps.append(_Step("mkdir", rel, target, dict(entry, mode=mode), now=current))
            elif current != "dir":
                notes.append(f"{rel}: was a folder; something else is there now, left alone")
                _leave(left, rel)
        elif kind == "symlink" and current != "symlink:" + str(entry.get("target")):
            notes.append(f"{rel}: was a symlink to {entry.get('target')}; not recreated")
            _leave(left, rel)
    # Folders that were there come first, outermost first; created folders go last, deepest
    # first, and only when empty (never lose a byte).
    steps.sort(key=lambda s: (0 if s.action == "mkdir" else 2 if s.action == "rmdir" else 1,
                              -s.rel.count("/") if s.action == "rmdir" else s.rel.count("/") if s.action == "mkdir"
                              else 0))
    return steps, notes


def _leave(left: list[str] | None, rel: str) -> None:
    """Note in :func:`_plan`'s ``left`` (when asked for) that ``rel`` is left as it is."""
    if left is not None and rel not in left:
        left.append(rel)


def _edit_states(entry: dict[str, Any]) -> list[tuple[str, int, str, Any]]:
    """The states an ``insertions``/``deletions`` entry can undo: (sha256, size, ranges field, ranges)."""
    field_name = {"insertions": "inserted", "deletions": "deleted", "replacements": "replaced"}[entry["stored"]]
    states = [(entry.get("new_sha256"), entry.get("new_size"), field_name, entry.get(field_name))]
    for older in entry.get("also") or []:
        if isinstance(older, dict):
            states.append((older.get("new_sha256"), older.get("new_size"), field_name, older.get(field_name)))
    return states


def _undo_edit(folder: Path, ident: str, rel: str, target: Path, entry: dict[str, Any], current: str | None,
               key: bytes | None | bool, around: bool = False) -> tuple[bytes | None, str]:
    """The bytes that undo an ``insertions`` or ``deletions`` entry, or (None, the note that says why not).

    Such an entry keeps no copy of the file: it is undone from the file as
    the change left it, so only when the file's sha256 is the recorded
    ``new_sha256`` (or one of the states in ``also``). A file changed after
    the command cannot be undone this way: its one-line note says so, and the
    newer backup has to be restored first. The result is checked against the
    entry's ``sha256`` before any step is planned.

    ``around`` (a rollback of an interrupted change, :func:`recover`): the file may also be the change's
    state with bytes added after it or before it, as when the user appends a line to a knowledge file
    after a ``learn`` was killed (tatk20 10: the rollback said "rolled back" and the interrupted text
    stayed). The state is found by its sha256 as the file's first or last ``new_size`` bytes; the
    change is undone there and the added bytes kept as they are, and the note (non-empty on success
    then) says so. The caller keeps the file as it is now in the rollback's own backup first.

    Raises:
        BackupError: a malformed entry, missing or undecryptable pieces, or a
            result that fails its sha256 check (nothing was changed).
    """
    stored = entry["stored"]
    what = {"insertions": "inserted", "deletions": "deleted", "replacements": "replaced"}[stored]
    old_size = entry.get("size") or 0
    if type(old_size) is not int or old_size < 0:
        raise _malformed(folder, ident, f"malformed entry for {rel}")
    for sha, size, field_name, ranges in _edit_states(entry):
        if not isinstance(sha, str) or not _SHA.match(sha) or type(size) is not int \
                or not (edits.valid_hunks(ranges, size) if stored == "replacements" else
                        edits.valid(ranges, size if stored == "insertions" else old_size)):
            raise _malformed(folder, ident, f"malformed entry for {rel}")
    if current is None:
        return None, (f"{rel}: is gone; backup {ident} keeps no copy of it, only what the change "
                      f"{what}, so it is not restored")
    if current == "dir" or current.startswith("symlink:"):
        return None, (f"{rel}: is a {'folder' if current == 'dir' else 'symlink'} now; left alone; backup {ident} "
                      f"keeps no copy of it, only what the change {what}")
    now_data: bytes | None = None
    for sha, size, _field, ranges in _edit_states(entry):
        head = tail = b""
        if current == sha:
            data = read_regular(target)
        elif around and size > 0:
            if now_data is None:
                now_data = read_regular(target)
            if len(now_data) <= size:
                continue
            if sha256_bytes(now_data[:size]) == sha:
                data, tail = now_data[:size], now_data[size:]
            elif sha256_bytes(now_data[-size:]) == sha:
                head, data = now_data[:-size], now_data[-size:]
            else:
                continue
        else:
            continue
        if stored == "insertions":
            blob = edits.delete(data, ranges)
        else:
            pieces_stored = entry.get("pieces")
            if pieces_stored in ("withheld", "erased"):
                return None, (f"{rel}: the bytes the change {what} were {pieces_stored} "
                              f"({'no T2 key when they were saved' if pieces_stored == 'withheld' else 'forget/purge'}); "
                              "not restored")
            try:
                pieces = _read_copy(folder, rel, ident)
            except OSError:
                raise BackupError(f"backup {ident}: copy of {rel} is missing; nothing was changed") from None
            if pieces_stored == "aes-gcm":
                if not key:
                    raise BackupError(f"backup {ident}: the copy of {rel} is encrypted and no T2 key is "
                                      "available (MEMORY_MANAGER_KEY or the key file); nothing was changed")
                pieces = _open_sealed(key, ident, rel, pieces)
            elif pieces_stored != "plain":
                raise BackupError(f"backup {ident}: copy of {rel} is {pieces_stored!r}; nothing was changed")
            try:
                blob = edits.reinsert(data, ranges, pieces) if stored == "deletions" else \
                    edits.unsplice(data, ranges, pieces)
            except ValueError:
                raise BackupError(f"backup {ident}: copy of {rel} does not fit its entry; nothing was changed") \
                    from None
        if sha256_bytes(blob) != entry["sha256"]:
            raise BackupError(f"backup {ident}: undoing the change of {rel} fails its sha256 check; nothing was "
                              "changed")
        if head or tail:
            return head + blob + tail, (f"{rel}: what the interrupted change {what} undone, what was added "
                                        f"{'after' if tail else 'before'} it kept")
        return blob, ""
    if around:
        # A rollback: the file still holds what the interrupted change wrote, and says so (tatk20 10).
        return None, (f"{rel}: changed after the interrupted change, which its backup keeps no copy of (only what "
                      f"the change {what}); left as it is, with what the change {what}")
    return None, (f"{rel}: changed after backup {ident} was made, which keeps no copy of it (only what the change "
                  f"{what}); not restored: restore the newer backup first")


def _describe(step: _Step) -> str:
    return {"restore": f"restore {step.rel}", "remove": f"remove {step.rel}", "chmod": f"chmod {step.rel}",
            "rmdir": f"remove if empty {step.rel}/", "mkdir": f"create folder {step.rel}/"}[step.action]


def restore_plan(workspace: Path, ident: str | None = None) -> dict[str, Any]:
    """Say what :func:`restore` would do, changing nothing (``init --restore --dry-run``).

    Returns ``{"restored": id, "reason": ..., "created": ..., "dry_run": True,
    "paths": [...], "notes": [...], "interrupted": [ids], "changed_since": [paths]}``:
    ``restored`` names the backup it would use (``ident`` may be a unique
    prefix of its id), each path is marked ``restore``, ``remove``, ``chmod``
    or ``remove if empty``; ``interrupted`` lists the interrupted changes the
    real run would roll back first; ``changed_since`` the paths it would
    overwrite or remove that changed after the backed-up command ran (the real
    run refuses them without ``force``).

    Raises:
        NotFoundError: no such backup (UnknownBackupIdError, exit 2, for a mistyped id).
        BackupError: the backup fails its checks.
        BadInputError: ``ident`` is an ambiguous prefix.
    """
    workspace = Path(workspace)
    doc = _load(workspace, ident)
    steps, notes = _plan(workspace, doc)
    if ident is None:
        notes += skipped_notes(workspace, doc, dry_run=True)
    return {"restored": doc["id"], "reason": doc.get("reason"), "created": doc.get("created"), "dry_run": True,
            "paths": [_describe(s) for s in steps if s.action != "keep"], "notes": notes, "interrupted": interrupted(workspace),
            "pending": pending(workspace),
            "changed_since": changed_since(workspace, doc, steps)}


def _apply(workspace: Path, steps: list[_Step]) -> list[str]:
    changed = []
    for step in steps:
        if step.action == "keep":
            continue  # an entry this restore cannot apply (its note says why)
        if _snapshot(step.target) != step.now:
            raise DirtyFileError(f"{step.rel} changed while the restore was running; run it again")
        if step.action == "restore":
            if step.target.is_symlink():
                fsio.remove(step.target)
            fsio.make_dirs(step.target.parent)
            atomic_write(step.target, step.data or b"", mode=step.entry.get("mode"))
            changed.append(step.rel)
        elif step.action == "chmod":
            os.chmod(step.target, step.entry["mode"])
        elif step.action == "remove":
            fsio.remove(step.target)
            changed.append(step.rel)
        elif step.action == "mkdir":
            fsio.make_dirs(step.target, mode=step.entry["mode"])  # the recorded mode (safe_mode), on it alone
            changed.append(step.rel + "/")
        elif step.action == "rmdir":
            try:
                fsio.remove_dir(step.target)
                changed.append(step.rel + "/")
            except OSError:
                pass  # not empty: something the user put there stays
    return changed


def restore(workspace: Path, ident: str | None = None, force: bool = False) -> dict[str, Any]:
    """Put the files of backup ``ident`` (default: the newest) back byte for byte.

    Under the workspace lock: an interrupted change (a killed command or
    restore) is rolled back first; then every manifest entry is checked and
    every copy read and verified before anything changes; a path that changed
    after the backed-up command ran (:func:`changed_since`: a lesson added to
    MEMORY.md since init, say) stops the restore unless ``force``; the current
    state of every path that will change is saved in a safety backup (role
    ``safety``, reason ``restore <id>``); then the paths are put back. Files
    that did not exist at backup time are removed; folders created by the
    change are removed only when empty; a folder is never wiped. Last, when
    the notes may no longer match the indexes, they are rebuilt from the files
    as the restore left them (daily-index.md, knowledge-index.md when the
    memory tree is there; the recall index is dropped and rebuilt by the next
    recall), so doctor and recall agree with the files: an index the backup
    held is put back first and rewritten only when a note the backup does not
    hold changed after it was made, and then only if it differs (notes
    written after the backup stay; walk-through r10, item 1).

    ``ident`` is an id or a unique prefix of one. Returns ``{"restored": id,
    "safety_backup": id|None, "paths": [...], "notes": [...], "rolled_back":
    [ids], "changed_since": [paths], "overwrote": [paths], "left_changed": [paths],
    "indexes": [paths]}`` (no safety backup when nothing needed to change;
    ``changed_since`` lists every path changed after the backed-up command,
    ``overwrote`` those of them ``force`` put back, ``left_changed`` those it
    left as they are because an entry without a copy cannot apply to them).

    Raises:
        NotFoundError: no such backup (UnknownBackupIdError, exit 2, for a mistyped id).
        BadInputError: ``ident`` is an ambiguous prefix.
        BackupError: an entry leaves the workspace, a copy is missing, fails its
            sha256 check or cannot be decrypted (nothing is changed).
        DirtyFileError: a path changed since the backup and ``force`` is off
            (nothing is changed), or a file changed while the restore ran
            (stopped there; the safety backup holds everything changed so far).
    """
    workspace = Path(workspace)
    if not backup_root(workspace).is_dir():
        # Nothing was ever backed up: refuse before the lock, which would create the backup
        # folder (and its .lock) in a workspace a refused command must leave as it was (nu16 item 19).
        _load(workspace, ident)
    with fsio.workspace_lock(workspace):
        rolled = list(_RECOVERED.pop(_ws_key(workspace), []))
        doc = _load(workspace, ident)
        steps, notes = _plan(workspace, doc)
        if ident is None:
            notes += skipped_notes(workspace, doc)
        dirty = changed_since(workspace, doc, steps)
        # A path changed since that this backup cannot apply to (an entry without a copy, v4) is
        # left as it is, --force or not: say so, never that it was (or would be) overwritten.
        kept = {s.rel for s in steps if s.action == "keep"}
        overwrite = [p for p in dirty if p not in kept]
        left = [p for p in dirty if p in kept]
        if dirty and not force:
            why = []
            if overwrite:
                why.append(f"changed since backup {doc['id']} was made: {', '.join(overwrite)}; restoring would "
                           "lose those changes")
            why += [f"{p}: changed since the backup, which cannot undo its change (it keeps no copy); "
                    "a restore would leave it as it is" for p in left]
            raise DirtyFileError("; ".join(why) + ": nothing was changed (pass --force to restore "
                                 + ("anyway; the current files are backed up first)" if overwrite else
                                    "the rest anyway)"))
        safety_id = None
        if any(step.action != "keep" for step in steps):
            # The user asked for the restore: a copy that cannot be sealed is withheld, said aloud.
            safety = start(workspace, f"restore {doc['id']}", role="safety", restores=doc["id"], allow_withheld=True)
            safety_id = safety.id
            # One batch: every copy written, then made durable together, then the entry
            # lines (save_many); one fsync per path made a large restore slow.
            # A file the restore gives back by deleting or re-inserting bytes (or any file whose
            # new bytes only insert into or delete from the current ones) is recorded without a
            # copy of the file (format v4): an undo of an undo keeps no plain copy either.
            safety.save_changes([(step.target, step.data if step.action == "restore" else None)
                                 for step in steps if step.action not in ("chmod", "keep", "mkdir")])
            for step in steps:  # a folder the restore makes again: undoing the restore removes it if empty
                if step.action == "mkdir":
                    safety.save_new_dir(step.target)
        if safety_id is not None and safety.withheld:
            # The safety backup could not keep an undo copy of some path (no T2 key and a
            # finding): a kill from here could not be rolled back without leaving that path
            # changed and the rest not, so the next run finishes this restore instead (F1).
            safety.roll_forward({"kind": "restore", "restores": doc["id"], "withheld": list(safety.withheld)})
        changed = _apply(workspace, steps)
        indexes = _indexes_after(workspace, doc, steps, changed)
    return {"restored": doc["id"], "safety_backup": safety_id, "paths": changed, "notes": notes,
            "rolled_back": rolled, "recovered": recovered_actions(rolled), "changed_since": dirty, "overwrote": [p for p in overwrite if p in changed],
            "left_changed": left, "indexes": indexes}


_INDEXED = (tree.rel(tree.DAILY) + "/", tree.rel(tree.KNOWLEDGE) + "/")


def _indexes_after(workspace: Path, doc: dict[str, Any], steps: list[_Step], changed: list[str],
                   rollback: bool = False) -> list[str]:
    """After a restore (or a rollback) of ``doc`` applied ``steps``: rebuild the derived indexes when
    they may not match the notes now; return the paths rebuilt.

    A backup that holds the indexes put them back as they were; one that does
    not (a note file only, or made by an older version) leaves them naming
    what is no longer there. An index recorded without a copy (v4) that could
    not be put back, or a note left as it is while its index was put back,
    also leaves them out of step with the notes. ``rollback``: undoing a killed
    change, whose backup saved each index before changing it (one it does not
    hold is unchanged), so only the last two cases rebuild. A restore whose
    backup held an index also rebuilds when a note it does not hold changed
    after the backup was made (:func:`_notes_written_after`; only an index
    that differs is written).
    """
    held = {e.get("path") for e in doc["entries"] if isinstance(e, dict)}
    if not rollback and changed and held & set(DERIVED) and _notes_written_after(workspace, doc, held):
        # A restore puts back the paths of one backup and leaves every other file as it is now:
        # notes written after that backup stay, and an index the backup held comes back without
        # them (walk-through r10, item 1: a note and a knowledge entry missing from the indexes).
        # The indexes are derived, so they are rebuilt from the files as the restore left them
        # (only an index that differs is written). When no note outside the backup changed since
        # it was made, the indexes it put back are the ones of that moment: left byte for byte,
        # even if they did not match a hand-written note then (the undo promise, test_promises).
        return _rebuild_derived(workspace)
    notes_changed = any(p.startswith(_INDEXED) for p in changed)
    stale = any(s.action == "keep" and _derived(s.rel) for s in steps) or any(
        isinstance(e, dict) and e.get("stored") == "erased" and _derived(str(e.get("path"))) for e in doc["entries"])
    kept_notes = any(s.action == "keep" and s.rel.startswith(_INDEXED) for s in steps)
    if (notes_changed or kept_notes) and (stale or kept_notes or (not rollback and not held & set(DERIVED))):
        return _rebuild_derived(workspace)
    return []


def _notes_written_after(workspace: Path, doc: dict[str, Any], held: set[Any]) -> bool:
    """Whether a daily or knowledge note that backup ``doc`` does not hold changed after it was made.

    "After" is the file-system time of the backup's own files (its manifest is
    written last, when the command that made it finished), not the recorded
    ``created`` stamp, which follows ``MEMORY_MANAGER_NOW``. A note deleted
    since is not seen here (the index that named it is rebuilt by the next
    write or ``maintain``). Fails towards a rebuild: an unreadable backup
    folder counts as changed.
    """
    folder = backup_root(workspace) / str(doc.get("id", ""))
    try:
        made = max(p.lstat().st_mtime_ns for p in folder.iterdir() if p.is_file())
    except (OSError, ValueError):
        return True
    for prefix in _INDEXED:
        base = Path(workspace) / prefix
        if not base.is_dir() or base.is_symlink():
            continue
        for path in base.rglob("*.md"):
            rel = path.relative_to(workspace).as_posix()
            if rel in held:
                continue
            try:
                if path.lstat().st_mtime_ns > made:
                    return True
            except OSError:
                return True
    return False


def _notes_left(workspace: Path) -> bool:
    """Whether a daily note or knowledge entry (``*.md`` under the indexed folders) is in ``workspace``."""
    for prefix in _INDEXED:
        base = Path(workspace) / prefix
        if base.is_dir() and not base.is_symlink() and next(base.rglob("*.md"), None) is not None:
            return True
    return False


def _rebuild_derived(workspace: Path) -> list[str]:
    """Bring the derived indexes in line with the files a restore put back; return the paths changed.

    Only where the memory tree still is (a restore of init's backup removes
    it, and must not bring an index back). The recall index is dropped
    (rebuilt by the next recall). Fails open: an index that cannot be
    rebuilt now is rebuilt by the next write or ``maintain``.
    """
    root = tree.Tree(workspace)
    memory = Path(workspace) / tree.MEMORY
    done: list[str] = []
    if not memory.is_dir() or memory.is_symlink():
        return done
    try:
        # An index the restore removed (init's own backup: the indexes did not exist before it)
        # is made again when notes stay to be indexed: the agent reads the indexes first (nu16 item 5).
        if any((memory / name).is_file() for name in (tree.DAILY_INDEX, tree.KNOWLEDGE_INDEX)) or _notes_left(workspace):
            done += [p.relative_to(workspace).as_posix() for p in _indexes_from_notes(workspace)]
        index = root.recall_index
        for candidate in (index, index.with_name(index.name + "-wal"), index.with_name(index.name + "-shm"),
                          index.with_name(index.name + "-journal")):
            if candidate.is_file() and not candidate.is_symlink():
                fsio.remove(candidate)
                if candidate == index:
                    done.append(candidate.relative_to(workspace).as_posix())
    except (OSError, MemoryManagerError):
        pass
    return done


# ------------------------------------------------------------------ recovery

#: Interrupted changes rolled back in this process, by workspace (reported by the next restore).
_RECOVERED: dict[str, list[str]] = {}


def interrupted(workspace: Path) -> list[str]:
    """Return the ids of backups whose change was interrupted (journal left by a killed command)."""
    root = backup_root(workspace)
    if not root.is_dir():
        return []
    # Only names of the id's shape: ``.open-..`` would otherwise name the workspace
    # itself as the backup folder to roll back and remove (issue 10).
    # A backup folder planted as a symlink is never ours: not rolled back from.
    ids = [name[len(JOURNAL_PREFIX):] for name in os.listdir(root)
           if name.startswith(JOURNAL_PREFIX) and valid_id(name[len(JOURNAL_PREFIX):])
           and not (root / name[len(JOURNAL_PREFIX):]).is_symlink()]
    return sorted((i for i in ids if not _open_here(workspace, i)), key=order_key)


def _open_here(workspace: Path, ident: str) -> bool:
    return any(b.id == ident for b in _OPEN.get(_ws_key(workspace), []))


def recover(workspace: Path) -> list[str]:
    """Roll back every change a killed command left half-done; return their backup ids.

    Runs when the workspace lock is taken (the lock holder is the only
    writer, so a journal it did not write belongs to a dead process). For
    each journal, newest first: the backup's entries are put back (copies
    verified first), the backup is marked ``rolled-back`` and its journal
    removed. A journal holding a ``forward`` plan (:meth:`Backup.roll_forward`:
    the change was past its point of no return) is finished instead and its
    backup marked ``complete``; :func:`finished` gives the result. Each
    rollback or finish is said in one :class:`InterruptedChangeWarning`
    (reason, backup id and the files whose bytes it put back). A journal whose backup folder has no manifest (killed while
    opening it) is removed with the folder: nothing had changed yet.

    Raises:
        BackupError: a rollback failed its checks (the journal stays, so the
            next run tries again; nothing was changed by this attempt).
    """
    workspace = Path(workspace)
    done = []
    for ident in reversed(interrupted(workspace)):
        folder = backup_root(workspace) / ident
        journal = backup_root(workspace) / f"{JOURNAL_PREFIX}{ident}"
        if not _journal_file(journal):
            continue
        doc = _read(folder) if folder.is_dir() else {"error": "missing"}
        if "error" in doc:
            if folder.is_dir():
                fsio.remove_tree(folder)
            fsio.remove(journal, missing_ok=True)
            done.append(ident)
            continue
        backup = Backup(workspace, ident, doc.get("reason", ""), seq=int(doc.get("seq") or 0),
                        role=doc.get("role", "change"), restores=doc.get("restores"),
                        created=doc.get("created", ""), state="open")
        what = doc.get("reason") or "change"
        plan = _forward_plan(journal, doc)
        if plan is not None and plan.get("kind") == "restore":
            # A restore whose safety backup withheld an undo copy (no T2 key): finished, never
            # rolled back (a rollback would leave that path restored and the rest not; F1).
            result = _finish_restore(workspace, plan)
            if result is None:  # the backup it restores is gone or fails its checks
                _keep_as_left(workspace, doc, backup, [f"{p} (withheld: no T2 key)" for p in plan.get("withheld") or []
                                                       if isinstance(p, str)])
                _ACTIONS[ident] = "kept as left"
            else:
                _ACTIONS[ident] = "finished"
                _say(f"finished an interrupted restore of backup {result['restored']} (safety backup {ident}); "
                     f"it could not be rolled back: the undo copy of {_shown(plan.get('withheld') or [])} was "
                     "withheld (no T2 key)", result["paths"], verb="changed",
                     tail=f"; rebuilt {', '.join(result['indexes'])}" if result["indexes"] else "")
                backup.close("complete")
            done.append(ident)
            continue
        if plan is not None and plan.get("kind") in SEALED_PLANS and doc.get("state") != "open" \
                and _seal_spent(journal):
            # The change finished and closed its backup; only the journal's removal was cut short (or a
            # journal captured earlier was put back: atk21 2 and 8). Nothing is left to do: a plan is
            # finished once, for a change still open.
            fsio.remove(journal, missing_ok=True)
            _ACTIONS[ident] = "finished"
            done.append(ident)
            continue
        refused = None if plan is None else _plan_problem(workspace, ident, plan)
        if refused is not None:
            # A plan that would erase what the user wrote (tatk19 3): read as untrusted input, it
            # is refused whole, and nothing is erased. A change still open is kept as it was left
            # (its backup closed complete); a complete backup's change had finished: only the
            # journal goes.
            if doc.get("state") == "open":
                backup.close("complete")
            else:
                fsio.remove(journal, missing_ok=True)
            _ACTIONS[ident] = "refused"
            _say(f"refused the plan left to finish an interrupted {what} (backup {ident}): {refused}; "
                 "nothing was erased", [])
            done.append(ident)
            continue
        if plan is not None:
            # Past its point of no return (see Backup.roll_forward): finish the change.
            result = _finish(workspace, plan, journal, backup)
            held = _journal_doc(journal)
            backup._seal = held.get("seal") if isinstance(held, dict) and isinstance(held.get("seal"), str) else None
            _ACTIONS[ident] = "finished"
            _say(f"finished an interrupted {what} (backup {ident})", [])
            if plan.get("kind") == "purge":
                # Kept in the manifest whichever command finished it: the next cleanup logs it (tatk19 9).
                backup.done = _valid_done({"kind": "purge", **result})
            backup.close("complete")
            _FINISHED.setdefault(_ws_key(workspace), []).append(
                {"id": ident, "reason": doc.get("reason", ""), "result": result})
            done.append(ident)
            continue
        if _closing(journal):
            # It finished and said so; only its header could not be written (a full disk, Backup.close).
            # Rolling it back would undo a change the user was told was stored (tatk19 6).
            backup.close("complete", record_after=False)
            _ACTIONS[ident] = "finished"
            _say(f"closed the backup of an earlier {what} (backup {ident}): the change had finished, so every file "
                 "is kept as it is", [])
            done.append(ident)
            continue
        left: list[str] = []
        try:
            steps, notes = _plan(workspace, doc, rollback=True, left=left)
        except BackupError as exc:
            raise BackupError(f"an interrupted change (backup {ident}) cannot be rolled back: {exc}. Nothing "
                              f"else runs until it is; to keep the files as they are instead, delete {journal}") \
                from None
        stuck = _stuck(workspace, doc, steps)
        kept_done = _done_part(journal, doc)
        if stuck:
            # A path the change already altered has no undo copy (withheld: no T2 key; F1). Putting
            # the others back would leave a change half undone (an archive without the entries a
            # note lost, an index naming a section that is gone): every file stays as the command
            # left it, the indexes are rebuilt from the notes, and the message says exactly that.
            backup.done = kept_done  # the purge stays done here too: the next cleanup logs it
            _keep_as_left(workspace, doc, backup, stuck)
            _ACTIONS[ident] = "kept as left"
            done.append(ident)
            continue
        differ = [s.rel for s in steps if s.action == "remove"
                  or (s.action == "restore" and s.now != sha256_bytes(s.data or b""))]
        keeper = _keep_current(workspace, doc, steps)
        changed = _apply(workspace, steps)
        tail = ""
        if keeper is not None:
            keeper.close("complete")
            with contextlib.suppress(ValueError):
                _OPEN.get(_ws_key(workspace), []).remove(keeper)
            if keeper.kept:
                tail = f"; what {_shown(keeper.kept)} held is kept in backup {keeper.id}"
            if keeper.withheld:
                tail += f"; what {_shown(keeper.withheld)} held is not kept (withheld: no T2 key)"
        # An index the change had not saved yet had not changed yet either: rebuilt only when
        # one it changed could not be put back (or a note was left as it is).
        indexes = _indexes_after(workspace, doc, steps, changed, rollback=True)
        # The done record goes into the manifest with the state, in one write: whichever command
        # rolls the journal back, the next cleanup logs the purge (tatk19 9: memory.py write
        # dropped it with the journal, and cleanup.log never recorded that purge).
        backup.done = kept_done
        backup.close("rolled-back")
        _ACTIONS[ident] = "rolled back"
        tail += f"; rebuilt {', '.join(indexes)}" if indexes else ""
        if kept_done is not None:
            # Rolled back to the state right after its purge (Backup.resume_rollback): the purge
            # stays done, and the re-run, which finds nothing left to purge, reports it (finished).
            n = kept_done["deleted"]
            tail += f"; its purge of {n} T2 entr{'y' if n == 1 else 'ies'} stays done"
            _FINISHED.setdefault(_ws_key(workspace), []).append(
                {"id": ident, "reason": doc.get("reason", ""), "result": kept_done})
        # A file the rollback left as it is (a folder or a symlink there now, an edit it cannot undo) is
        # named with the reason, never counted as rolled back (tatk20 4 and 10: the message said only
        # "rolled back", the file kept the interrupted text or the entry was in no live file); bytes a
        # user added around the change are said to be kept.
        kept_around = [n for n in notes if any(n.startswith(s.rel + ": ") for s in steps if s.merged)]
        tail += "".join(f"; {n}" for n in kept_around)
        reasons = [n for n in notes if n.split(": ", 1)[0] in left]
        but = f" except {', '.join(n.replace(': ', ' (', 1) + ')' for n in reasons)}" if reasons else ""
        _say(f"rolled back an interrupted {what} (backup {ident}){but}", differ, tail=tail)
        done.append(ident)
    if done:
        _RECOVERED.setdefault(_ws_key(workspace), []).extend(done)
    return done


def _unproven(workspace: Path, ident: str, steps: list[_Step]) -> list[_Step]:
    """The rollback steps that overwrite or remove a user's file whose bytes now may not be the interrupted
    command's: a whole copy put back or a created file removed, unless ``after.json`` (a kill while the
    backup was being closed) shows the file as the command left it. An entry without a copy is undone only
    from a state the command left (:func:`_undo_edit`); the derived indexes and the tool's own state are
    left out."""
    after = _after(workspace, ident) or {}
    return [s for s in steps if s.action in ("restore", "remove") and s.now is not None
            and not s.now.startswith("symlink:") and s.now != "dir"
            and (s.entry.get("stored") not in EDIT_KINDS or s.merged)
            and not _derived(s.rel) and not s.rel.startswith(TOOL_STATE_PREFIXES)
            and not (s.rel in after and after[s.rel] == s.now)]


def _keep_current(workspace: Path, doc: dict[str, Any], steps: list[_Step]) -> "Backup | None":
    """Before a rollback of ``doc`` overwrites or removes files (:func:`_unproven`), keep what they hold now
    in a backup of its own (role ``safety``, reason ``rollback <id>``, ``restores`` the rolled-back id),
    by the rule for copies; return it (its ``kept`` names the paths), or None when no step needs it.

    A killed command leaves no record of the bytes it wrote (``after.json`` only when it was killed while
    closing), so a file the user edited after the kill (a line added to AGENTS.md) cannot be told from
    the command's own: a rollback never destroys bytes that are in no backup (tatk19 1). ``init --restore
    <that id>`` brings them back. Without a T2 key a copy that must be sealed is withheld (``withheld``;
    the warning names it).

    Raises:
        BackupError: the copies could not be written (nothing was rolled back).
    """
    todo = _unproven(workspace, doc["id"], steps)
    if not todo:
        return None
    try:
        keeper = start(workspace, f"rollback {doc['id']}", role="safety", restores=doc["id"], allow_withheld=True)
        keeper.save_many([s.target for s in todo])
    except (BackupError, WorkspaceError) as exc:
        raise BackupError(f"an interrupted change (backup {doc['id']}) cannot be rolled back: what its files hold "
                          f"now could not be kept first ({exc}). Nothing else runs until it is") from None
    keeper.kept = [s.rel for s in todo if s.rel not in keeper.withheld]
    return keeper


#: What :func:`recover` did with each interrupted change, by backup id: "rolled back",
#: "finished" or "kept as left" (a journal without a backup: "discarded").
_ACTIONS: dict[str, str] = {}


def recovered_actions(ids: Iterable[str]) -> list[dict[str, str]]:
    """``[{"id", "action"}]`` for interrupted changes this process recovered (``init --restore`` reports them)."""
    return [{"id": i, "action": _ACTIONS.get(i, "discarded")} for i in ids]


class InterruptedChangeWarning(UserWarning):
    """The lock holder rolled back (or finished) a change a killed command left half-done."""


def _shown(paths: list[str]) -> str:
    return ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")


def _say(what: str, paths: list[str], verb: str = "put back", tail: str = "") -> None:
    """Warn (one line on stderr through the CLI) that :func:`recover` changed files (issue 11: every message true).

    ``paths``: the files it changed, named after ``verb``; ``tail``: what else it did.
    """
    import warnings

    warnings.warn(InterruptedChangeWarning(what + (f": {verb} {_shown(paths)}" if paths else "") + tail),
                  stacklevel=3)


def _stuck(workspace: Path, doc: dict[str, Any], steps: list[_Step]) -> list[str]:
    """The user's files (not the derived indexes) the change of ``doc`` altered that a rollback cannot put back
    because their undo bytes were not kept, each as ``"<path> (withheld: no T2 key)"`` or ``"<path> (erased)"``.

    Their entry's copy, or the pieces of an entry without a copy, is ``withheld``
    (no T2 key) or ``erased``, and the file is no longer what the entry
    recorded. (An entry without a copy whose file is in no state it undoes,
    because someone edited it after the kill, is only noted, as before.) Read-only.
    """
    back = {s.rel for s in steps if s.action in ("restore", "chmod")}
    found: list[str] = []
    seen: set[str] = set()
    for entry in doc["entries"]:
        if not isinstance(entry, dict) or entry.get("kind") != "file" or not entry.get("existed"):
            continue
        rel = entry.get("path")
        if not isinstance(rel, str) or _derived(rel) or rel in back or rel in seen:
            continue
        seen.add(rel)
        stored = entry.get("stored")
        why = stored if stored in ("withheld", "erased") else \
            entry.get("pieces") if stored in PIECE_KINDS and entry.get("pieces") in ("withheld", "erased") else None
        if why is None:
            continue
        try:
            current = _snapshot(_check_path(workspace, rel, doc["id"]))
        except (BackupError, OSError):
            continue
        if why == "erased" or current != entry.get("sha256"):
            found.append(f"{rel} ({'withheld: no T2 key' if why == 'withheld' else 'erased on purpose'})")
    return found


def _keep_as_left(workspace: Path, doc: dict[str, Any], backup: "Backup", stuck: list[str]) -> None:
    """Recovery of a change that cannot be rolled back (:func:`_stuck`): keep every file as it is,
    rebuild the derived indexes from the notes, mark the backup ``complete`` and say exactly that."""
    indexes = _rebuild_derived(workspace)
    backup.close("complete")
    _say(f"could not roll back an interrupted {doc.get('reason') or 'change'} (backup {doc['id']}): no undo copy "
         f"of {_shown(stuck)}; every file is kept as the change left it, which may be part-done", [],
         tail=f"; rebuilt {', '.join(indexes)} from the notes" if indexes else "")


def _finish_restore(workspace: Path, plan: dict[str, Any]) -> dict[str, Any] | None:
    """Finish an interrupted restore from its ``forward`` plan (``{"kind": "restore", "restores": id}``).

    Puts back every path of the backup it restores that is not back yet (the
    rest already is) and rebuilds the indexes as :func:`restore` does; the
    safety backup already recorded every path before the first one changed.
    Returns ``{"restored": id, "paths": [...], "indexes": [...]}``, or None
    when that backup is gone or fails its checks (nothing was changed).
    """
    ident = plan.get("restores")
    if not valid_id(ident):
        return None
    folder = backup_root(workspace) / str(ident)
    if folder.is_symlink() or not folder.is_dir():
        return None
    doc = _read(folder)
    if "error" in doc:
        return None
    try:
        steps, _notes = _plan(workspace, doc)
    except BackupError:
        return None
    changed = _apply(workspace, steps)
    return {"restored": ident, "paths": changed, "indexes": _indexes_after(workspace, doc, steps, changed)}


def pending(workspace: Path) -> list[dict[str, Any]]:
    """What the next command that takes the lock will do about each interrupted change; changes nothing.

    For ``status`` (read-only: it never repairs, issue 11 F3). Returns, oldest
    first, ``{"id", "reason", "role", "action", "paths"}`` with ``action``
    one of ``"roll back"`` (``paths``: the files it will put back or remove),
    ``"finish"`` (a ``forward`` plan: a forget past its point of no return, a
    restore whose undo copy was withheld), ``"refuse"`` (a plan that would erase a
    user's file copy, :func:`_plan_problem`; ``error``), ``"keep as left"`` (``paths``: the
    files without an undo copy, :func:`_stuck`), ``"discard"`` (opened, nothing
    changed yet) or ``"blocked"`` (the rollback fails its checks; ``error``); while
    another process holds the lock, every journal is ``"in progress"`` (a command
    running now: nothing to say about it yet).
    """
    workspace = Path(workspace)
    out = []
    busy = fsio.lock_busy(workspace)
    for ident in interrupted(workspace):
        if busy:  # the journal of a command running now, not of a killed one
            out.append({"id": ident, "reason": None, "role": None, "paths": [], "action": "in progress"})
            continue
        folder = backup_root(workspace) / ident
        doc = _read(folder) if folder.is_dir() else {"error": "missing"}
        item: dict[str, Any] = {"id": ident, "reason": doc.get("reason"), "role": doc.get("role"), "paths": []}
        journal = backup_root(workspace) / f"{JOURNAL_PREFIX}{ident}"
        try:
            _journal_file(journal)
        except BackupError as exc:
            item.update(action="blocked", error=str(exc))
            out.append(item)
            continue
        plan = None if "error" in doc else _forward_plan(journal, doc)
        if "error" in doc:
            item["action"] = "discard"
        elif plan is not None and plan.get("kind") not in _PLAN_KINDS:
            item.update(action="blocked", error=_unknown_plan(journal, plan))
        elif plan is not None and plan.get("kind") in SEALED_PLANS and doc.get("state") != "open" \
                and _seal_spent(journal):
            # finished already: recover only removes the journal, erasing nothing
            item.update(action="refuse", error="its backup is closed: the change it belongs to finished already")
        elif plan is not None:
            refused = _plan_problem(workspace, ident, plan)
            if refused is None:
                item["action"] = "finish"
            else:
                item.update(action="refuse", error=refused)
        elif _closing(journal):
            item["action"] = "finish"
        else:
            try:
                steps, _notes = _plan(workspace, doc, rollback=True)
            except BackupError as exc:
                item.update(action="blocked", error=str(exc))
            else:
                stuck = _stuck(workspace, doc, steps)
                if stuck:
                    item.update(action="keep as left", paths=stuck)
                else:
                    item.update(action="roll back", paths=[
                        s.rel for s in steps if s.action == "remove"
                        or (s.action == "restore" and s.now != sha256_bytes(s.data or b""))])
        out.append(item)
    return out


#: Interrupted changes this process finished (rolled forward), by workspace key:
#: ``{"id", "reason", "result"}`` each; see :func:`finished`.
_FINISHED: dict[str, list[dict[str, Any]]] = {}


#: Plans that erase: a journal holding one is finished only when its seal checks (tatk20 4 and 7).
SEALED_PLANS = ("forget", "purge")


def plan_seal(workspace: Path, ident: str, plan: dict[str, Any], create: bool = False) -> str | None:
    """The seal of a ``forget`` or ``purge`` plan in backup ``ident``'s journal: 64 hex digits, or None.

    HMAC-SHA-256 (RFC 2104) with this machine's local secret
    (:func:`memory_manager.keyed.local_secret`, kept outside the workspace, 0600) over
    a label, the backup id and the plan as canonical JSON (sorted keys, no spaces).
    A plan planted in a journal by whoever can write the workspace cannot carry a seal
    that checks (tatk20: a forged purge plan deleted a live T2 entry, a forged forget
    plan erased the backup copies of live entries). None for other plans, or when there
    is no secret (``create`` False and none made yet, or no place for one outside the
    workspace): such a plan is judged by its fields alone, as before the seal.
    """
    if plan.get("kind") not in SEALED_PLANS:
        return None
    import hashlib
    import hmac

    from .keyed import local_secret

    if create:
        with fsio.uncounted():  # made on the first sealed plan only: see fsio.uncounted
            secret = local_secret(workspace, create=True)
    else:
        secret = local_secret(workspace, create=False)
    if secret is None:
        return None
    try:
        # ASCII escapes: a lone surrogate a planted plan holds cannot stop the encoding (atk21 9)
        body = json.dumps(plan, ensure_ascii=True, sort_keys=True, separators=(",", ":"), allow_nan=False)
        where = os.fsencode(str(Path(workspace).resolve()))
    except (ValueError, TypeError, OSError, RuntimeError):
        return "unsealable"  # never equal to a seal (64 hex digits): the plan is refused
    # The workspace is bound too: the secret is the machine's, shared by its stores (atk21 3).
    return hmac.new(secret, b"cmm forward plan v2\0" + where + b"\0" + ident.encode("ascii", "replace") + b"\0"
                    + body.encode("ascii"), hashlib.sha256).hexdigest()


def _seal_checks(journal: Path, doc: dict[str, Any], plan: dict[str, Any]) -> bool:
    """False when a forget or purge plan lacks the seal this machine's secret gives it (:func:`plan_seal`)."""
    import hmac

    ident = journal.name[len(JOURNAL_PREFIX):]
    expected = plan_seal(journal.parent.parent, ident, plan)
    if expected is None:
        # No secret here (another HOME, or none made yet). A purge plan deletes live entries: it is
        # finished only with its seal checked (atk21 1 and 1b; its writer made the secret, so a genuine
        # one met here is kept as left, and the next cleanup purges again). A forget plan is judged by
        # its fields alone, as before the seal: refusing it would leave the forgotten text in its backup.
        return plan.get("kind") != "purge"
    seal = doc.get("seal")
    if not (isinstance(seal, str) and hmac.compare_digest(seal, expected)):
        return False
    from . import anchor

    return not anchor.seal_spent(journal.parent.parent, seal)  # a plan is finished once (atk21 2 and 8)


def _seal_spent(journal: Path) -> bool:
    """True when the journal's plan carries a seal that was spent (the plan was done: a replayed copy)."""
    from . import anchor

    doc = _journal_doc(journal)
    seal = doc.get("seal") if isinstance(doc, dict) else None
    return isinstance(seal, str) and anchor.seal_spent(journal.parent.parent, seal)


def _forward_plan(journal: Path, manifest: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The ``forward`` plan a journal holds (:meth:`Backup.roll_forward`), or None (roll back).

    ``manifest``: the journal's backup as read (:func:`_read`). A journal is read as untrusted
    input: a ``restore`` plan counts only when that backup backs it, a restore's safety backup
    (``role: safety``) of the very backup the plan restores, with every path the plan names as
    withheld recorded there as withheld (fatk6: a forged plan on a write's backup made the next
    command undo init). Any other restore plan is ignored: the journal is rolled back as usual.
    """
    doc = _journal_doc(journal)
    plan = doc.get("forward") if isinstance(doc, dict) else None
    if not isinstance(plan, dict):
        return None
    if plan.get("kind") == "restore" and manifest is not None and not _backs(journal, manifest, plan):
        return None
    if plan.get("kind") == "forget" and manifest is not None and not _forget_plan_ok(manifest, plan):
        return None
    if plan.get("kind") == "purge" and manifest is not None and not _purge_plan_ok(manifest, plan):
        return None
    return plan


def _done_part(journal: Path, manifest: dict[str, Any]) -> dict[str, Any] | None:
    """What the destructive part of a rolled-back change did (:meth:`Backup.resume_rollback`), or None.

    Read as untrusted input: counted only on a cleanup's own backup, as
    ``{"kind": "purge", "deleted": n, "erased": {name: n}}`` with whole numbers
    not below 0; anything else is ignored (the rollback goes ahead as usual).
    Of ``erased``, only the names of the counts a purge writes (:data:`DONE_COUNTS`)
    are kept: the rest are dropped, never echoed (tatk19 5: a name holding a token,
    or ``../../etc/passwd``, came out in full in ``cleanup --json``).
    """
    if manifest.get("reason") != "cleanup":
        return None
    doc = _journal_doc(journal)
    return _valid_done(doc.get("done") if isinstance(doc, dict) else None)


def _valid_done(done: Any) -> dict[str, Any] | None:
    """``{"kind": "purge", "deleted": n, "erased": {name: n}}`` of a done record read as untrusted input (see
    :func:`_done_part`), or None when it is not one."""
    def count(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0

    if not isinstance(done, dict) or done.get("kind") != "purge" or not count(done.get("deleted")):
        return None
    erased = done.get("erased", {})
    if not isinstance(erased, dict) or not all(isinstance(k, str) and count(v) for k, v in erased.items()):
        return None
    return {"kind": "purge", "deleted": done["deleted"],
            "erased": {k: v for k, v in erased.items() if k in DONE_COUNTS}}


def done_records(workspace: Path, since: str | None = None) -> list[dict[str, Any]]:
    """The purges killed cleanups did, as their backups keep them, newer than backup ``since``.

    :func:`recover` writes a cleanup's done record into its backup's manifest (``"done"``) when it
    rolls the rest of the run back (:meth:`Backup.resume_rollback`) or finishes its purge plan,
    whichever command takes the lock first (tatk19 9). ``cleanup`` reports and logs each once:
    it keeps the id of the newest it reported (``since``; ids only grow). Read as untrusted input
    (:func:`_valid_done`); only a cleanup's own backup counts. Returns ``[{"id", "deleted",
    "erased"}]``, oldest first. Read-only.
    """
    after = order_key(since) if valid_id(since) else None
    out = []
    for doc in list_backups(workspace):
        if "error" in doc or doc.get("reason") != "cleanup" or doc.get("role") != "change" \
                or doc.get("state") not in ("rolled-back", "complete"):
            continue
        if after is not None and order_key(doc["id"]) <= after:
            continue
        done = _valid_done(doc.get("done"))
        if done is not None:
            out.append({"id": doc["id"], **done})
    return out


#: The names of the counts of a purge's ``erased`` (:func:`memory_manager.erasure.erase`'s counts,
#: ``approvals`` and ``reports`` of :func:`memory_manager.cleanup.finish_purge`): what a done
#: record may name (:func:`_done_part`).
DONE_COUNTS = frozenset({"backups", "archive", "index", "logs", "report", "state", "unchecked", "approvals",
                         "reports"})


def _journal_doc(journal: Path) -> Any:
    """The parsed JSON of ``journal``, or None when it is gone or not JSON (read as untrusted input).

    Raises:
        BackupError: from :func:`_journal_file` (the journal is not a regular file of a journal's size).
    """
    if not _journal_file(journal):
        return None
    try:
        return _parse_json(read_regular_text(journal, "utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def _journal_file(journal: Path) -> bool:
    """True when ``journal`` exists as a regular file of a journal's size; False when it is gone.

    Raises:
        BackupError: it is something else (a FIFO would block every command, status included;
            a directory cannot be removed as a journal; a huge file would exhaust memory: fatk7,
            atk8), with one line naming it and the way on.
    """
    try:
        info = os.lstat(journal)
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode):
        raise BackupError(f"{journal}: a journal must be a regular file; remove it to go on")
    if info.st_size > JOURNAL_MAX_BYTES:
        raise BackupError(f"{journal}: {info.st_size} bytes, larger than any journal this tool writes "
                          f"({JOURNAL_MAX_BYTES}); remove it to go on")
    return True


#: Largest journal read (bytes): a forget's plan holds the forgotten entry's text to search for
#: (an entry is at most ``limits.max_input_bytes``, 50 MB by default), so this is generous.
JOURNAL_MAX_BYTES = 256 << 20


def _forget_plan_ok(manifest: dict[str, Any], plan: dict[str, Any]) -> bool:
    """True when a ``forget`` plan sits on a forget's own backup and its fields have their types
    (:func:`memory_manager.erasure.finish_forget`); a forged plan on another backup, or one with
    odd fields, is rolled back as any journal is (fatk7: a plan on a write's backup rewrote init's
    backup, and one with a bad ``result`` stopped every command with a TypeError)."""
    if manifest.get("role") != "change" or not str(manifest.get("reason", "")).startswith("forget "):
        return False

    def strings(key: str) -> bool:
        value = plan.get(key, [])
        return isinstance(value, list) and all(isinstance(v, str) for v in value)

    paths = plan.get("paths", [])
    needles = plan.get("needles", [])
    return (isinstance(needles, list) and all(isinstance(n, (str, dict)) for n in needles)
            and strings("names") and strings("paths") and strings("drop_approvals") and strings("ids")
            and strings("hashes") and strings("audit_hashes")
            and all(p and not p.startswith("/") and ".." not in PurePosixPath(p).parts for p in paths)
            and isinstance(plan.get("result", {}), dict) and isinstance(plan.get("ident"), (str, type(None)))
            and isinstance(plan.get("audit_line", ""), str) and isinstance(plan.get("approvals", []), list))


def _purge_plan_ok(manifest: dict[str, Any], plan: dict[str, Any]) -> bool:
    """True when a ``purge`` plan sits on a cleanup's own backup and its fields have their types
    (:func:`memory_manager.cleanup.finish_purge`); any other is rolled back as any journal is (as
    :func:`_forget_plan_ok`: a forged plan must not make the next command delete a file)."""
    if manifest.get("role") != "change" or manifest.get("reason") != "cleanup":
        return False
    items = plan.get("items")
    if not isinstance(items, list) or not isinstance(plan.get("audit_known", {}), dict):
        return False
    tier2 = tree.rel(tree.TIER2)
    for item in items:
        if not isinstance(item, dict):
            return False
        rel = item.get("file")
        if not isinstance(rel, str) or PurePosixPath(rel).parent.as_posix() != tier2 \
                or PurePosixPath(rel).name in ("", ".", ".."):
            return False
        if not all(isinstance(item.get(k), str) for k in ("ident", "skill", "topic")):
            return False
        for key in ("needles", "audit_hashes", "audit_refs", "drop_approvals"):
            value = item.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, (str, dict) if key == "needles" else str)
                                                      for v in value):
                return False
    return True


def _plan_problem(workspace: Path, ident: str, plan: dict[str, Any]) -> str | None:
    """Why a ``forget`` or ``purge`` plan in backup ``ident``'s journal must not be finished, or None.

    A journal is untrusted input (tatk19 3: a plan planted beside a finished forget's backup, its
    ``paths`` naming ``AGENTS.md`` or its needles taken from it, erased init's only copy of the
    user's files from every backup). A plan may erase what a forget or purge takes out (entries of
    this bundle's store and their copies), never one of the user's own files (:func:`user_file`)
    by path, and never, from another backup, a copy of a user's file that is the only one
    (:func:`_only_copy`, the rule retention keeps such a backup by; the copies the plan would erase
    count as gone) or the bytes a change of one replaced or deleted (``deletions`` /
    ``replacements`` pieces: what the user wrote before). A forget or purge plan whose seal
    does not check (:func:`plan_seal`) is refused first: only this machine's commands wrote it.
    Read-only.
    """
    kind = plan.get("kind")
    journal = backup_root(workspace) / f"{JOURNAL_PREFIX}{ident}"
    doc = _journal_doc(journal)
    if kind in SEALED_PLANS and not _seal_checks(journal, doc if isinstance(doc, dict) else {}, plan):
        # Planted by a hand that can write the workspace but not this machine's secret (tatk20 4 and 7:
        # a forged purge plan deleted a live entry, a forged forget plan erased copies of live ones).
        return ("it does not carry a seal this machine can check (planted, or written under another "
                "HOME or config folder)")
    if kind == "forget":
        from .erasure import forget_erasures  # erasure uses this module: imported when needed

        calls = forget_erasures(workspace, plan)
    elif kind == "purge":
        from .cleanup import purge_erasures  # cleanup uses this module: imported when needed

        calls = purge_erasures(workspace, plan)
    else:
        return None
    from . import privacy

    named = sorted({privacy.mask_name(p)[:120] for call in calls for p in call.get("paths", []) if user_file(p)})
    if named:
        return f"it names {_shown(named)}, the user's own file{'s' if len(named) > 1 else ''}, to erase"
    try:
        would = [item for call in calls for item in erase_copies(workspace, dry_run=True, **call)["would_erase"]]
    except (OSError, MemoryManagerError) as exc:
        return f"what it would erase cannot be checked ({exc})"
    going = {(i, e.get("path")) for i, e in would}
    others = {e.get("sha256") for d in list_backups(workspace) if "error" not in d for e in d["entries"]
              if isinstance(e, dict) and e.get("existed") and (d["id"], e.get("path")) not in going
              and e.get("stored", "plain") in ("plain", "aes-gcm")}
    current: dict[str, str | None] = {}
    held = sorted({str(e.get("path")) for i, e in would if i != ident and isinstance(e.get("path"), str)
                   and user_file(e["path"]) and _holds_bytes(e)
                   and (e.get("stored") in PIECE_KINDS or _only_copy(workspace, e, others, current))})
    if held:
        return (f"it would erase the only copy of what the user wrote in {_shown(held)} from other backups")
    return None


def _backs(journal: Path, manifest: dict[str, Any], plan: dict[str, Any]) -> bool:
    """True when ``manifest`` (a backup as read) is the safety backup a ``restore`` plan needs."""
    withheld = plan.get("withheld")
    if manifest.get("role") != "safety" or manifest.get("restores") != plan.get("restores") \
            or not valid_id(plan.get("restores")) or not isinstance(withheld, list) or not withheld \
            or not all(isinstance(p, str) for p in withheld):
        return False
    folder = journal.parent / journal.name[len(JOURNAL_PREFIX):]
    try:
        recorded = {e.get("path") for e in _read_entries(folder, manifest)
                    if isinstance(e, dict) and (e.get("stored") == "withheld" or e.get("pieces") == "withheld")}
    except (OSError, ValueError, MemoryManagerError):
        return False
    return set(withheld) <= recorded


def _finish(workspace: Path, plan: dict[str, Any], journal: Path, backup: "Backup | None" = None) -> dict[str, Any]:
    """Finish an interrupted change from its ``forward`` plan; return what it did.

    Raises:
        BackupError: the plan is of an unknown kind (a newer version wrote it):
            nothing runs until it is finished by that version.
    """
    if plan.get("kind") == "forget":
        from .erasure import finish_forget  # erasure uses this module: imported when needed

        return finish_forget(workspace, plan)
    if plan.get("kind") == "purge":
        from .cleanup import finish_purge  # cleanup uses this module: imported when needed

        return finish_purge(workspace, plan, backup)
    raise BackupError(_unknown_plan(journal, plan))


#: The ``forward`` plans this version finishes (:meth:`Backup.roll_forward`).
_PLAN_KINDS = ("restore", "forget", "purge")


def _unknown_plan(journal: Path, plan: dict[str, Any]) -> str:
    """The one-line error for a journal whose plan this version cannot finish (atk8: it named no file)."""
    return (f"{journal}: an interrupted change must be finished by the version that started it (unknown plan "
            f"{str(plan.get('kind'))[:40]!r}); with this version, remove that journal to keep the files as they are")


def finished(workspace: Path, reason: str | None = None, ref: str | None = None) -> dict[str, Any] | None:
    """The result of an interrupted change with ``reason`` (or, for ``forget``, whose result names
    ``ref``) that this process just finished, or None.

    ``forget`` asks after :func:`repair`: when the interrupted run it finished
    was this very forget, the re-run reports that and does nothing more. Its
    backup's reason holds a random stand-in for the entry (issue 10), so it
    asks by the ``ref`` its plan recorded.
    """
    items = _FINISHED.get(_ws_key(workspace), [])
    for item in items:
        result = item.get("result") if isinstance(item.get("result"), dict) else {}
        if (reason is not None and item["reason"] == reason) or (
                ref is not None and result.get("action") == "forget" and result.get("ref") == ref):
            items.remove(item)
            return item
    return None


def repair(workspace: Path) -> list[str]:
    """Roll back interrupted changes now (taking the lock) when any is left; return their ids.

    For a command that plans before it takes the lock (init): it calls this
    first, so its plan starts from the files as they were. Does nothing,
    and creates nothing, when no journal is left.
    """
    if not interrupted(workspace):
        return []
    with fsio.workspace_lock(workspace):
        return list(_RECOVERED.pop(_ws_key(workspace), []))


def _on_acquire(workspace: Path) -> None:
    """Taken the workspace lock: remove dead staging files, then roll back interrupted changes."""
    fsio.sweep_staging(workspace)
    root = backup_root(workspace)
    # Older versions left 0644/0755 modes: once per workspace, every level of
    # the backups; the small .cache and .state folders on every run.
    marker = root / ".modes-v2"
    deep = root.is_dir() and not marker.exists()
    fsio.tighten_private(workspace, deep_backups=deep)
    if deep:
        atomic_write(marker, b"", mode=0o600)
    if root.is_dir():
        for name in os.listdir(root):
            if name.startswith(TRASH_PREFIX):  # a retention deletion cut short
                fsio.remove_tree(root / name)
    _recover_keygen(workspace)
    recover(workspace)


def _recover_keygen(workspace: Path) -> None:
    """A ``crypt.py keygen --force`` killed before its key file was in place: put the key record back (tatk20 9)."""
    from . import anchor

    marker = anchor.pending_place(workspace)
    if marker is None or not os.path.lexists(marker):
        return  # the common case, without importing the tiers module (hooks take this lock too)
    from .tiers import ACCEPTED_NAME

    said = anchor.recover_keygen(workspace, tree.Tree(workspace).state_file(ACCEPTED_NAME))
    if said:
        _say(said, [])


#: Left in ``memory/.state`` when a command failed after changing notes and the derived indexes
#: could not be brought in line then either (the same full disk): the next command rebuilds them.
STALE_INDEXES = "indexes-stale"


def _indexes_from_notes(workspace: Path) -> list[Path]:
    """Bring the derived indexes in line with the notes (:func:`memory_manager.entries.rebuild_indexes`
    with the workspace's config); return the paths changed. Raises OSError or MemoryManagerError."""
    from . import entries  # entries does not import this module; imported when needed
    from .config import load_config

    return entries.rebuild_indexes(Path(workspace), load_config(Path(workspace)))


def _on_failure(workspace: Path, changed: list[str]) -> None:
    """A command failed under the lock after changing notes (``changed``: relative paths): it keeps
    what it did and says so, and the derived indexes follow the notes now, or, when that fails
    too, by the next command (issue 11: indexes never stay stale; fatk6's finding: an import
    stopped by a file-size limit left ``daily-index.md`` without the note it had written)."""
    if not any(rel.startswith(_INDEXED) for rel in changed):
        return
    mark = tree.Tree(workspace).state / STALE_INDEXES
    try:
        _indexes_from_notes(workspace)
    except (OSError, MemoryManagerError):
        with contextlib.suppress(OSError, MemoryManagerError):
            atomic_write(mark, b"", mode=0o600)


def stale_mark(workspace: Path) -> str | None:
    """What stands at ``memory/.state/`` :data:`STALE_INDEXES`: None (nothing), ``"file"`` (the mark a
    failed command left), or the kind of anything else planted there (``"directory"``,
    ``"symlink"``, ``"fifo"``, ``"other"``). Read with ``lstat``: a symlink is never followed."""
    try:
        st = os.lstat(tree.Tree(workspace).state / STALE_INDEXES)
    except OSError:
        return None
    for kind, test in (("file", stat.S_ISREG), ("directory", stat.S_ISDIR), ("symlink", stat.S_ISLNK),
                       ("fifo", stat.S_ISFIFO)):
        if test(st.st_mode):
            return kind
    return "other"


def _rebuild_stale(workspace: Path) -> None:
    """The workspace lock was taken and something stands at :data:`STALE_INDEXES` (:func:`stale_mark`):
    rebuild the derived indexes and say so; the mark stays while the rebuild fails.

    The mark is ours and is removed after the rebuild, and so is a symlink, FIFO or other
    non-directory planted under its name (unlinked, never followed or opened). A directory there
    is not ours to delete (it may hold someone's files): the indexes are rebuilt on every
    command while it stands, and each time a warning names it (atk8: it was skipped silently).
    """
    kind = stale_mark(workspace)
    if kind is None:
        return
    mark = tree.Tree(workspace).state / STALE_INDEXES
    try:
        rebuilt = _indexes_from_notes(workspace)
    except (OSError, MemoryManagerError):
        return
    rel = mark.relative_to(workspace).as_posix()
    if kind == "directory":
        _say(f"{rel} is a directory, not the mark this bundle writes: the indexes were rebuilt in case "
             "they were stale, and will be on every command until it is removed",
             [p.relative_to(workspace).as_posix() for p in rebuilt], verb="rebuilt")
        return
    fsio.remove(mark, missing_ok=True)
    what = "an earlier command failed part-way after changing notes"
    if kind != "file":
        what = f"{rel} was a {kind}, not the mark this bundle writes (removed)"
    _say(what, [p.relative_to(workspace).as_posix() for p in rebuilt], verb="rebuilt")


fsio.on_lock_acquired.append(_on_acquire)
fsio.on_lock_acquired.append(_rebuild_stale)  # after the recovery: the notes are as they stay
fsio.on_lock_released.append(_on_release)
fsio.on_lock_failed.append(_on_failure)


# ------------------------------------------------------------------ retention

def _age(doc: dict[str, Any], at: datetime) -> timedelta:
    try:
        created = datetime.fromisoformat(str(doc.get("created")))
    except ValueError:
        return timedelta(0)  # unknown age counts as young: never removed for age
    if created.tzinfo is None:
        created = created.replace(tzinfo=timezone.utc)
    return at - created


def _size(folder: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total


def retention(workspace: Path, cfg: dict[str, Any], dry_run: bool = False) -> dict[str, Any]:
    """Apply the ``backups`` retention policy of the config; return what was (or would be) removed.

    Config keys (``config.json``, section ``backups``): ``keep_last`` (20:
    the newest N are never removed), ``min_age_days`` (1: nothing younger is
    ever removed), ``max_age_days`` (older backups are removed; 0 = no age
    limit) and ``max_total_mb`` (then the oldest are removed until the
    folder fits; 0 = no size limit). A backup is removed only when no file
    copy in it is the only copy of a user's file (issue 10: retention "never
    deletes the only copy of a user's file"; :func:`_only_copy`): a copy whose
    bytes (sha256) are in a backup that stays never counts; otherwise a copy of
    a path gone from the workspace is the only copy, and so is a copy of one
    of the user's own files (:func:`user_file`: outside ``memory/``, not a
    hook or plugin file init installs) whose workspace file now holds other
    bytes, such as the ``AGENTS.md`` init rewrote: its backup is the only
    place left with what the user wrote. Open backups (a change in progress)
    are never removed. A backup whose manifest cannot be read
    (torn, or written by a newer format version) cannot prove any of its
    copies is not the only one: it is kept while it holds any file copy
    (``kept_unreadable``; issue 11, fault round 5) and removed only when
    its ``files/`` folder holds nothing.

    Returns ``{"removed": [ids], "kept_only_copy": [ids], "only_copy_paths": {id: [paths]},
    "kept_unreadable": [ids], "unreadable_why": {id: what could not be read}, "bytes_freed": n,
    "dry_run": bool}``: ``kept_only_copy`` are the backups past the policy kept for holding the
    only copy of a user's file (``only_copy_paths`` names those files in each).
    """
    workspace = Path(workspace)
    policy = cfg.get("backups") or {}
    keep_last = max(1, int(policy.get("keep_last", 20)))
    min_age = timedelta(days=float(policy.get("min_age_days", 1)))
    max_age_days = float(policy.get("max_age_days", 0) or 0)
    max_bytes = int(float(policy.get("max_total_mb", 0) or 0) * 1024 * 1024)
    docs = list_backups(workspace)
    at = now()
    sizes = {d["id"]: _size(backup_root(workspace) / d["id"]) for d in docs}
    total = sum(sizes.values())
    open_ids = set(interrupted(workspace)) | {b.id for b in _OPEN.get(_ws_key(workspace), [])}
    candidates = [d for d in docs[:-keep_last] if d["id"] not in open_ids and _age(d, at) >= min_age]
    kept = {d["id"] for d in docs} - {d["id"] for d in candidates}
    removed: list[str] = []
    only_copy: list[str] = []
    only_paths: dict[str, list[str]] = {}
    unreadable: list[str] = []
    current: dict[str, str | None] = {}  # each path's sha256 in the workspace, read once
    for doc in candidates:
        too_old = max_age_days > 0 and _age(doc, at) > timedelta(days=max_age_days)
        too_big = max_bytes > 0 and total > max_bytes
        broken = "error" in doc
        if not (too_old or too_big or broken):
            kept.add(doc["id"])
            continue
        others = {e.get("sha256") for d in docs if d is not doc and d["id"] not in removed
                  for e in d["entries"] if isinstance(e, dict) and e.get("stored", "plain") in ("plain", "aes-gcm")}
        if broken and _holds_copies(backup_root(workspace) / doc["id"]):
            unreadable.append(doc["id"])
            kept.add(doc["id"])
            continue
        held = [] if broken else [str(e.get("path")) for e in doc["entries"]
                                  if _only_copy(workspace, e, others, current)]
        if held:
            only_copy.append(doc["id"])
            only_paths[doc["id"]] = sorted(set(held))
            kept.add(doc["id"])
            continue
        removed.append(doc["id"])
        total -= sizes[doc["id"]]
        if not dry_run:
            _delete_backup(workspace, doc["id"])
    errors = {d["id"]: d["error"] for d in docs if d["id"] in unreadable}
    return {"removed": removed, "kept_only_copy": only_copy, "only_copy_paths": only_paths,
            "kept_unreadable": unreadable,
            "unreadable_why": errors, "dry_run": dry_run, "bytes_freed": sum(sizes[i] for i in removed)}


def _holds_copies(folder: Path) -> bool:
    """True when backup ``folder``'s ``files/`` holds anything (or cannot be looked at)."""
    files = folder / "files"
    if files.is_symlink():
        return True
    if not os.path.lexists(files):
        return False
    try:
        for _dirpath, _dirs, names in os.walk(files, onerror=_raise):
            if names:
                return True
    except OSError:
        return True
    return False


def _raise(exc: OSError) -> None:
    raise exc


def _only_copy(workspace: Path, entry: Any, others: set[Any], current: dict[str, str | None]) -> bool:
    """True when ``entry`` holds the only copy of a user's file (see :func:`retention`).

    ``others``: the sha256 of every copy in the backups that stay; ``current``: a cache of
    workspace files' sha256 by path (filled here; None: no regular file there, or unreadable).
    """
    # An insertions or deletions entry (v4) is not a copy: it undoes a change only together
    # with the file as the change left it, so it never keeps a backup alive on its own.
    if not isinstance(entry, dict) or entry.get("kind") != "file" or not entry.get("existed") \
            or entry.get("stored") in ("withheld", "erased", *EDIT_KINDS):
        return False
    if entry.get("sha256") in others:
        return False  # the same bytes stay in another backup
    rel = str(entry.get("path"))
    target = Path(workspace) / rel
    if not (target.exists() or target.is_symlink()):
        return True  # the path is gone: this copy is all that is left of it
    if not user_file(rel):
        # The bundle's own data (notes, T2, indexes, state, cache) and its installed hooks: its
        # earlier versions are what retention exists to let go; the file itself is still there.
        return False
    if rel not in current:
        try:
            current[rel] = _current_sha(target)
        except OSError:
            current[rel] = None  # cannot be read: it cannot prove it holds these bytes
    # A user's file rewritten since (init's AGENTS.md, MEMORY.md, HEARTBEAT.md): these bytes,
    # what the user wrote, are nowhere else (issue 10). The same bytes back in place: not the only copy.
    return current[rel] != entry.get("sha256")


#: Paths outside ``memory/`` that are this bundle's, not the user's: the hook folders and the
#: plugin init installs (their earlier versions are the bundle's own files, shipped with it).
BUNDLE_PREFIXES = ("hooks/memory-manager-", tree.OPENCLAW_PLUGIN_DIR + "/")


def user_file(rel: str) -> bool:
    """True when workspace-relative path ``rel`` is one of the user's own files, for retention.

    The user's files are the workspace's own (``AGENTS.md``, ``MEMORY.md``,
    ``HEARTBEAT.md``, ``.gitignore``...: everything outside ``memory/`` but
    the hooks and plugin init installs, :data:`BUNDLE_PREFIXES`) and the
    workspace's config override ``memory/memory-manager.json``. Under
    ``memory/`` the rest is this bundle's data: notes it writes, T2 content
    and its archive, derived indexes and caches, its state (issue 10 names
    T2 and derived data as not a user's file in this sense: keeping every
    version of them would let the backups grow without bound).
    """
    if rel == tree.rel(tree.OVERRIDE):
        return True
    return not rel.startswith((tree.MEMORY + "/", *BUNDLE_PREFIXES))


def _delete_backup(workspace: Path, ident: str) -> None:
    """Remove one backup: renamed aside first (one atomic step), then deleted."""
    root = backup_root(workspace)
    trash = root / f"{TRASH_PREFIX}{ident}"
    fsio.move(root / ident, trash)
    fsio.remove_tree(trash)


# ------------------------------------------------------------------ erasing copies

#: Derived indexes (rebuilt from the notes on restore): a backup copy naming a
#: forgotten key or topic is dropped (see ``names`` in :func:`erase_copies`).
DERIVED_INDEXES = (f"{tree.MEMORY}/{tree.DAILY_INDEX}", f"{tree.MEMORY}/{tree.KNOWLEDGE_INDEX}")


def hidden_name(name: str, secret: bytes | None = None) -> str:
    """``#`` and 12 hex digits that stand for a forgotten name (a key, topic, file name or id).

    A forgotten name must not stay readable in a backup's reason, entry
    paths or state files (issue 10), and must not be replaced by anything a
    guess can be checked against: a plain SHA-256 of the name (what round 3
    wrote) confirms a guessed key with one hash. So the digits are an HMAC
    keyed with ``secret``, a random value the caller draws once per erasure
    and never stores (:func:`new_secret`); one erasure shows the same name
    the same way everywhere, so two forgotten names still tell apart.
    Without ``secret`` a fresh random one is drawn (a one-off label).
    """
    import hashlib
    import hmac

    return "#" + hmac.new(secret or new_secret(), name.encode("utf-8"), hashlib.sha256).hexdigest()[:12]


def new_secret() -> bytes:
    """A random key for :func:`hidden_name`, held in memory for one erasure only."""
    return os.urandom(32)


#: What a file entry says about the bytes it saved: hashes, sizes, ranges and the pieces' storage.
#: All go when the entry is erased (:func:`erase_entry`): with a forgotten entry's id or topic, a
#: hash of a file state that held it, or the byte range it filled, checks a guess at its text offline.
BYTE_FIELDS = ("sha256", "size", "new_sha256", "new_size", "inserted", "deleted", "replaced", "also", "pieces",
               "update")


def erase_entry(entry: dict[str, Any], only_hashes: bool = False) -> None:
    """Mark a file entry ``stored: "erased"`` and drop every field that describes its bytes (:data:`BYTE_FIELDS`).

    ``only_hashes``: the entry kept no bytes (an ``insertions`` entry, v4): only its hashes
    and ranges went, marked ``"erased": "hashes"``. Such an entry could never bring the
    forgotten text back, so it does not stop its backup from being a restore point (:func:`erased`).
    """
    for name in BYTE_FIELDS:
        entry.pop(name, None)
    entry["stored"] = "erased"
    if only_hashes:
        entry["erased"] = "hashes"
    else:
        entry.pop("erased", None)


def entry_states(entry: Any) -> set[str]:
    """The sha256 digests a file entry records: the file before, after, and any state in between (``also``)."""
    if not isinstance(entry, dict):
        return set()
    found = {entry.get("sha256"), entry.get("new_sha256")}
    for older in entry.get("also") or []:
        if isinstance(older, dict):
            found.add(older.get("new_sha256"))
    return {h for h in found if isinstance(h, str)}


def tainted_states(workspace: Path, rel: str, data: bytes, holds: Callable[[bytes], bool]) -> list[str]:
    """The sha256 digests of the states of ``rel`` that hold what ``holds`` looks for, as far as backups rebuild them.

    For ``forget`` (issue 11, backups v4): an entry without a copy records the
    file's hash before and after a change and the ranges it inserted; with
    the forgotten entry's id or topic, such a hash checks a guess at its text.
    Starting from ``data`` (the file's bytes right before the forget), every
    earlier state the backups' ``insertions`` entries (and ``deletions`` /
    ``replacements`` entries with plain pieces) lead back to is rebuilt and
    checked against its hash; the digests of the states for which ``holds``
    is true are returned (sorted). A state no entry leads back to (the user
    edited the file between two commands) is not known and not returned.

    Args:
        workspace: the workspace. rel: the file's workspace-relative POSIX path.
        data: its bytes now. holds: ``bytes -> bool``, True for a state holding the forgotten text.
    """
    known = {sha256_bytes(data): data}
    items = [(doc["id"], e) for doc in list_backups(workspace) if "error" not in doc for e in doc["entries"]
             if isinstance(e, dict) and e.get("path") == rel and e.get("stored") in EDIT_KINDS]
    grew = True
    while grew:
        grew = False
        for ident, entry in items:
            old_sha = entry.get("sha256")
            if not isinstance(old_sha, str) or old_sha in known:
                continue
            try:
                states = _edit_states(entry)
            except (KeyError, TypeError):
                continue
            for sha, _size, _field, ranges in states:
                if sha not in known:
                    continue
                new = known[sha]
                try:
                    if entry["stored"] == "insertions":
                        if not edits.valid(ranges, len(new)):
                            continue
                        old = edits.delete(new, ranges)
                    elif entry.get("pieces") == "plain":
                        pieces = _read_copy(backup_root(workspace) / ident, rel, ident)
                        old = edits.reinsert(new, ranges, pieces) if entry["stored"] == "deletions" else \
                            edits.unsplice(new, ranges, pieces)
                    else:
                        continue
                except (OSError, ValueError, TypeError, BackupError):
                    continue
                if sha256_bytes(old) == old_sha:
                    known[old_sha] = old
                    grew = True
                    break
    return sorted(h for h, b in known.items() if holds(b))


def _hide_names(doc: dict[str, Any], folder: Path, named: list[str], paths: list[str],
                secret: bytes | None = None) -> bool:
    """Replace forgotten names in backup ``doc``'s reason, entry paths and ``after.json``; True when changed."""
    changed = False
    for entry in doc["entries"]:
        if isinstance(entry, dict) and entry.get("path") in paths:
            entry["path"] = str(PurePosixPath(entry["path"]).with_name(hidden_name(entry["path"], secret) + ".md"))
            if entry.get("existed"):  # an absent entry (a created file) holds no copy to erase
                erase_entry(entry)
            changed = True
    reason = str(doc.get("reason", ""))
    new_reason = reason
    for name in named:
        new_reason = re.sub(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", hidden_name(name, secret), new_reason)
    if new_reason != reason and doc.get("version") != 1:
        try:
            header = jsonio.loads(read_regular_text(folder / MANIFEST, "utf-8"), MANIFEST)
            header["reason"] = new_reason
            atomic_write(folder / MANIFEST, (json.dumps(header, indent=2, ensure_ascii=False, allow_nan=False)
                                             + "\n").encode("utf-8"), mode=0o600)
        except (OSError, ValueError):
            pass
    after = _after(folder.parent.parent, doc["id"])
    if after is not None and any(p in after for p in paths):
        kept = {k: v for k, v in after.items() if k not in paths}
        atomic_write(folder / AFTER, (json.dumps({"format": AFTER_FORMAT, "paths": kept, "version": 1},
                                                 ensure_ascii=False, sort_keys=True, allow_nan=False) + "\n"
                                      ).encode("utf-8"), mode=0o600)
    return changed


def erase_copies(workspace: Path, needles: Iterable[str | bytes], cfg: dict[str, Any] | None = None,
                 stored: tuple[str, ...] = ("plain", "aes-gcm"), names: Iterable[str] = (),
                 paths: Iterable[str] = (), secret: bytes | None = None,
                 hashes: Iterable[str] = (), dry_run: bool = False) -> dict[str, Any]:
    """Remove from every backup each stored copy that contains any of ``needles``.

    For a purge or ``forget``: pass what identifies the entry in a file (its
    plain text, its ciphertext, its id line). Encrypted copies are decrypted
    in memory to be searched (they need the T2 key; without it they are
    counted as ``unchecked``). A matching copy's file is deleted and its
    entry marked ``stored: "erased"`` (a restore then reports it and leaves
    the path alone). Runs under the workspace lock.

    Args:
        workspace: the workspace.
        needles: strings (UTF-8 encoded for the search) or bytes; empty ones are ignored.
        cfg: unused today (the key comes from the environment or the key file).
        stored: which copies to consider: ``("plain",)`` leaves sealed copies
            alone (``crypt.py encrypt --file``: the sealed copy of the change
            stays restorable, a plain one from an older version goes).
        paths: workspace-relative POSIX paths whose every stored copy goes,
            whatever it holds: a forgotten entry that was its own file
            (knowledge, T2), whose older versions earlier backups keep
            (issue 11: ``learn`` twice, then ``forget``); entry lines and
            ``after.json`` name them by :func:`hidden_name` (issue 10).
        names: a forgotten knowledge key or daily topic: a copy of a derived
            index (:data:`DERIVED_INDEXES`) that holds one goes too (a restore
            rebuilds the index from the notes; issue 10), and a backup's
            reason naming one shows :func:`hidden_name` instead.
        secret: the key of :func:`hidden_name` for this erasure (drawn here when None).
        hashes: sha256 digests of file states that held the forgotten text
            (:func:`tainted_states`): every entry recording one is erased
            (an ``insertions`` entry keeps no copy, but its hashes and ranges
            check a guess; backups v4), and ``after.json`` drops them.

    An erased entry keeps no hash, size or ranges (:func:`erase_entry`), and
    the hash of every erased state goes from every backup's ``after.json``.

    ``dry_run``: change nothing, and list each entry that would be erased as it is now, in
    ``"would_erase": [(backup id, entry), ...]`` (:func:`plan_refusal` checks a forward plan so).

    Returns ``{"erased": n_copies, "backups": [ids changed], "unchecked": n}``.

    Raises:
        FileWriteError: a manifest could not be rewritten.
    """
    workspace = Path(workspace)
    wanted = [n.encode("utf-8") if isinstance(n, str) else bytes(n) for n in needles]
    wanted = [n for n in wanted if n]
    names = [n for n in names if n]
    paths = [p for p in paths if p]
    # A name counts as a whole word of the index (a topic "A" is not every capital A).
    named = [re.compile(rb"(?<![\w-])" + re.escape(n.encode("utf-8")) + rb"(?![\w-])") for n in names]
    erased, unchecked, touched = 0, 0, []
    whole = {str(p) for p in paths if p}
    gone = {h for h in hashes if isinstance(h, str) and h}
    would: list[tuple[str, dict[str, Any]]] = []
    if not wanted and not whole and not named and not gone:
        return {"erased": 0, "backups": [], "unchecked": 0, **({"would_erase": would} if dry_run else {})}
    secret = secret or new_secret()
    # A dry run reads only: it runs under the caller's lock (recover) or none (status).
    with contextlib.nullcontext() if dry_run else fsio.workspace_lock(workspace):
        key: Any = False
        docs = [doc for doc in list_backups(workspace) if "error" not in doc]
        changed_docs: list[dict[str, Any]] = []
        for doc in docs:
            folder = backup_root(workspace) / doc["id"]
            changed = False
            for entry in doc["entries"]:
                if not isinstance(entry, dict) or entry.get("kind") != "file" or not entry.get("existed"):
                    continue
                if entry.get("stored") == "erased":
                    continue
                if entry_states(entry) & gone and _may_erase(entry, stored):
                    # It recorded a state that held the forgotten text (v4: hashes and ranges
                    # of a change kept without a copy): the entry goes, its pieces with it.
                    would.append((doc["id"], dict(entry)))
                    erased += _erase_with_bytes(folder, doc["id"], entry, dry_run)
                    changed = True
                    continue
                stored_as = entry.get("stored", "plain")
                if stored_as in PIECE_KINDS:  # v4: the bytes a change deleted or replaced, searched like a copy
                    stored_as = entry.get("pieces")
                if stored_as not in ("plain", "aes-gcm") or stored_as not in stored:
                    continue  # an insertions entry (v4) holds no text: nothing to erase
                try:  # a path that leads out or through a symlink is never read nor removed
                    copy = _copy_path(folder, entry.get("path"), doc["id"])
                    if entry.get("path") in whole:
                        would.append((doc["id"], dict(entry)))
                        if not dry_run:
                            fsio.remove(copy, missing_ok=True)
                        gone |= entry_states(entry)
                        erase_entry(entry)
                        erased += 1
                        changed = True
                        continue
                    blob = _read_copy(folder, entry.get("path"), doc["id"])
                except (OSError, BackupError):
                    continue
                if stored_as == "aes-gcm":
                    if key is False:
                        key = _load_key(workspace)
                    if key is None:
                        unchecked += 1
                        continue
                    try:
                        blob = _open_sealed(key, doc["id"], entry["path"], blob)
                    except BackupError:
                        unchecked += 1
                        continue
                if any(n in blob for n in wanted) or (
                        entry.get("path") in DERIVED_INDEXES and any(n.search(blob) for n in named)):
                    would.append((doc["id"], dict(entry)))
                    if not dry_run:
                        fsio.remove(copy)
                    gone |= entry_states(entry)
                    erase_entry(entry)
                    erased += 1
                    changed = True
            # A copy no entry line names (a command killed after copying but before recording it,
            # then rolled back: fatk9) is never read by a restore, yet keeps the bytes in plain.
            # It is removed whatever it holds: nothing can use it, and a sealed one cannot be
            # checked without its entry; one holding the forgotten text counts as erased.
            for rel, copy in [] if dry_run else _orphan_copies(folder, doc):
                try:
                    blob = read_regular(copy)
                except OSError:
                    blob = b""
                try:
                    fsio.remove(copy, missing_ok=True)
                except OSError:
                    continue
                if rel in whole or any(n in blob for n in wanted):
                    erased += 1
                    changed = True
            if dry_run:  # what _hide_names would erase: every other entry of a path that goes whole
                would += [(doc["id"], dict(e)) for e in doc["entries"] if isinstance(e, dict)
                          and e.get("path") in whole and e.get("existed") and e.get("stored") != "erased"]
            elif names or paths:
                changed = _hide_names(doc, folder, names, paths, secret) or changed
            if changed:
                changed_docs.append(doc)
        for doc in docs:
            folder = backup_root(workspace) / doc["id"]
            changed = doc in changed_docs
            if any(entry_states(e) & gone for e in doc["entries"] if isinstance(e, dict)
                   and e.get("stored") != "erased" and _may_erase(e, stored)):
                # Another entry recorded an erased state (a copy of the same bytes): it goes too.
                for entry in doc["entries"]:
                    if isinstance(entry, dict) and entry.get("existed") and entry_states(entry) & gone \
                            and entry.get("stored") != "erased" and _may_erase(entry, stored):
                        would.append((doc["id"], dict(entry)))
                        erased += _erase_with_bytes(folder, doc["id"], entry, dry_run)
                changed = True
            if dry_run:
                continue
            after = _after(workspace, doc["id"])
            if after is not None and gone & {v for v in after.values() if isinstance(v, str)}:
                # "erased" never equals a state, so a restore still counts the path as changed since.
                kept = {k: ("erased" if v in gone else v) for k, v in after.items()}
                atomic_write(folder / AFTER, (json.dumps({"format": AFTER_FORMAT, "paths": kept, "version": 1},
                                                         ensure_ascii=False, sort_keys=True, allow_nan=False)
                                              + "\n").encode("utf-8"), mode=0o600)
            if changed:
                touched.append(doc["id"])
                _rewrite_entries(folder, doc)
    if dry_run:
        return {"erased": erased, "backups": [], "unchecked": unchecked, "would_erase": would}
    return {"erased": erased, "backups": touched, "unchecked": unchecked}


def _orphan_copies(folder: Path, doc: dict[str, Any]) -> list[tuple[str, Path]]:
    """The files under backup ``folder``'s ``files/`` that no entry of ``doc`` keeps bytes in, as
    ``(workspace-relative POSIX path, copy path)``; symlinks are neither followed nor listed."""
    files = folder / "files"
    if files.is_symlink() or not files.is_dir():
        return []
    named = {e.get("path") for e in doc["entries"] if _holds_bytes(e) and e.get("stored") != "erased"}
    found = []
    for dirpath, dirs, names in os.walk(files, followlinks=False):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(dirpath, d))]
        for name in names:
            path = Path(dirpath) / name
            if path.is_symlink() or not path.is_file():
                continue
            rel = path.relative_to(files).as_posix()
            if rel not in named:
                found.append((rel, path))
    return sorted(found)


def _may_erase(entry: dict[str, Any], stored: tuple[str, ...]) -> bool:
    """True when :func:`erase_copies` may erase ``entry`` for a state it records: it keeps no bytes,
    or keeps them as ``stored`` allows (``crypt.py encrypt --file`` keeps sealed copies)."""
    if not _holds_bytes(entry):
        return True
    kind = entry.get("stored", "plain")
    return (entry.get("pieces") if kind in PIECE_KINDS else kind) in stored


def _rewrite_entries(folder: Path, doc: dict[str, Any]) -> None:
    if doc.get("version") == 1:
        header = {k: v for k, v in doc.items() if k not in ("files", "role", "state")}
        atomic_write(folder / MANIFEST, (json.dumps(header, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"),
                     mode=0o600)
        return
    body = "".join(json.dumps(e, ensure_ascii=False, sort_keys=True, allow_nan=False) + "\n" for e in doc["entries"])
    atomic_write(folder / ENTRIES, body.encode("utf-8"), mode=0o600)


def _erase_with_bytes(folder: Path, ident: str, entry: dict[str, Any], dry_run: bool = False) -> int:
    """Erase ``entry`` of backup ``ident`` (in ``folder``) and remove the file it keeps under ``files/``,
    if any; return 1 when it kept bytes (a copy or pieces), else 0 (only its hashes went).
    ``dry_run``: the entry (in memory) only, no file removed."""
    held = _holds_bytes(entry)
    if held and not dry_run:
        try:
            fsio.remove(_copy_path(folder, entry.get("path"), ident), missing_ok=True)
        except BackupError:
            pass
    erase_entry(entry, only_hashes=not held)
    return int(held)


def _holds_bytes(entry: Any) -> bool:
    """True when ``entry`` has a file under ``files/``: a copy, or the pieces a change deleted (v4)."""
    if not isinstance(entry, dict) or entry.get("kind") != "file" or not entry.get("existed"):
        return False
    stored = entry.get("stored", "plain")
    return stored in ("plain", "aes-gcm") or (stored in PIECE_KINDS and entry.get("pieces") in ("plain", "aes-gcm"))


def iter_copies(workspace: Path) -> Iterator[tuple[str, dict[str, Any], Path]]:
    """Yield ``(backup id, entry, copy path)`` for every stored file copy (tests, audits).

    A ``deletions`` entry's pieces (the bytes a change deleted) count as a
    copy here; an ``insertions`` entry has none (format v4).
    """
    for doc in list_backups(workspace):
        for entry in doc["entries"]:
            if _holds_bytes(entry):
                try:
                    yield doc["id"], entry, _copy_path(backup_root(workspace) / doc["id"], entry.get("path"), doc["id"])
                except BackupError:
                    continue


def manifest(workspace: Path, ident: str) -> dict[str, Any]:
    """Return backup ``ident``'s manifest (header fields plus ``entries``), v1 or v2.

    Raises:
        NotFoundError: no such backup. BackupError: its manifest is unreadable.
    """
    folder = backup_root(workspace) / ident if valid_id(ident) else None
    if folder is None or folder.is_symlink() or not folder.is_dir():
        raise NotFoundError(f"no backup with id {ident!r} (see --list-backups)")
    doc = _read(folder)
    if "error" in doc:
        raise BackupError(f"backup {ident}: {doc['error']}")
    return doc


def read_copy(workspace: Path, ident: str, rel: str) -> bytes:
    """Return the saved bytes of workspace path ``rel`` in backup ``ident`` (decrypted when sealed).

    An ``insertions`` or ``deletions`` entry (v4) keeps no copy: its bytes are
    rebuilt from the file as it is now, when that is what the change left
    (or already the saved bytes).

    Raises:
        NotFoundError: no such backup or path, its copy was withheld or erased,
            or (v4 entry without a copy) the file changed after the backup.
        BackupError: the copy is missing, encrypted without a key available, or fails its checksum.
    """
    doc = manifest(workspace, ident)
    for entry in doc["entries"]:
        if isinstance(entry, dict) and entry.get("path") == rel and entry.get("kind") == "file" \
                and entry.get("existed"):
            stored = entry.get("stored", "plain")
            if stored in EDIT_KINDS:
                # No copy (v4): the saved bytes come back from the file as the change left it.
                folder = backup_root(workspace) / ident
                target = _check_path(workspace, rel, ident)
                current = _snapshot(target)
                if current == entry.get("sha256"):  # the file holds the saved bytes again (restored)
                    return read_regular(target)
                blob, note = _undo_edit(folder, ident, rel, target, entry, current,
                                        _load_key(workspace) if entry.get("pieces") == "aes-gcm" else None)
                if blob is None:
                    raise NotFoundError(f"backup {ident}: {note}")
                return blob
            if stored not in ("plain", "aes-gcm"):
                raise NotFoundError(f"backup {ident}: the copy of {rel} was {stored}")
            try:
                blob = _read_copy(backup_root(workspace) / ident, rel, ident)
            except OSError:
                raise BackupError(f"backup {ident}: copy of {rel} is missing") from None
            if stored == "aes-gcm":
                key = _load_key(workspace)
                if key is None:
                    raise BackupError(f"backup {ident}: the copy of {rel} is encrypted and no T2 key is available")
                blob = _open_sealed(key, ident, rel, blob)
            if sha256_bytes(blob) != entry.get("sha256"):
                raise BackupError(f"backup {ident}: copy of {rel} fails its sha256 check")
            return blob
    raise NotFoundError(f"backup {ident} holds no copy of {rel}")
