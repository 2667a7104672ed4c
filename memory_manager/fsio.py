"""Safe file reading and writing.

- Reading keeps what a writer needs to give a file back as it was: encoding
  (UTF-8 only; anything else is refused), a BOM, and the line-ending style.
- Writing is atomic: a unique temporary file in the same folder, fsync, the
  original mode, ``os.replace``, then an fsync of the folder; the temporary
  file is removed on failure (the pattern of basic-memory's ``file_utils``).
- :class:`Transaction` stages several writes and commits them together: every
  new content is written and fsynced to its temporary file first, so a failed
  write (disk full, ``RLIMIT_FSIZE``, permissions) leaves every original
  byte-identical.
- :func:`workspace_lock` serialises writers of one workspace (filelock).
"""
from __future__ import annotations

import codecs
import contextlib
import hashlib
import os
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from . import tree
from .errors import FileWriteError, UnreadableFileError

# In our private folder at the workspace root, so that taking the lock never
# creates anything in the user-visible tree (a restore can then remove every
# folder a change created).
LOCK_RELPATH = tree.Tree(Path()).lock


@dataclass(frozen=True)
class TextFile:
    """A decoded text file.

    ``text`` has ``\\n`` line endings; ``newline`` is the style found on disk
    (``"\\r\\n"`` or ``"\\n"``); ``bom`` is True when the file started with the
    UTF-8 byte-order mark; ``raw`` is the exact bytes read.
    """

    text: str
    newline: str
    bom: bool
    raw: bytes

    def encode(self, new_text: str) -> bytes:
        """Encode ``new_text`` (``\\n`` endings) in this file's style."""
        body = new_text.replace("\r\n", "\n")
        if self.newline == "\r\n":
            body = body.replace("\n", "\r\n")
        data = body.encode("utf-8")
        return (codecs.BOM_UTF8 + data) if self.bom else data


def decode_text(raw: bytes, label: str = "file") -> TextFile:
    """Decode UTF-8 bytes into a :class:`TextFile`.

    Raises:
        UnreadableFileError: the bytes are not UTF-8.
    """
    bom = raw.startswith(codecs.BOM_UTF8)
    body = raw[len(codecs.BOM_UTF8):] if bom else raw
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(f"{label}: not UTF-8 (byte {exc.start})") from None
    crlf = text.count("\r\n")
    newline = "\r\n" if crlf and crlf >= text.count("\n") - crlf else "\n"
    return TextFile(text.replace("\r\n", "\n"), newline, bom, raw)


def read_text(path: Path, label: str | None = None) -> TextFile:
    """Read ``path`` as UTF-8, remembering BOM and line endings.

    Raises:
        UnreadableFileError: the file cannot be read or is not UTF-8.
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"{label or path}: cannot read ({exc.strerror})") from None
    return decode_text(raw, str(label or path))


def sha256_bytes(data: bytes) -> str:
    """Return the hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    """Return the hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _stage(path: Path, data: bytes, mode: int | None) -> Path:
    """Write ``data`` to a unique temporary file beside ``path``; return its path."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise FileWriteError(f"{path}: cannot create a file there ({exc.strerror or exc})") from None
    tmp = Path(tmp_name)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):
            raise FileWriteError(f"{path}: write failed ({exc.strerror or exc})") from None
        raise
    return tmp


def _mode_for(path: Path, mode: int | None) -> int | None:
    if mode is not None:
        return mode
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except (OSError, ValueError):
        return None


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` atomically.

    Args:
        path: target file; its folder is created when missing.
        data: the complete new content (bytes).
        mode: permission bits; default keeps the existing file's mode (0600
            should be passed for anything sensitive).

    Raises:
        FileWriteError: the write failed; the original is unchanged.
    """
    path = Path(path)
    tmp = _stage(path, data, _mode_for(path, mode))
    try:
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise FileWriteError(f"{path}: replace failed ({exc.strerror})") from None
    _fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str, like: TextFile | None = None, mode: int | None = None) -> None:
    """Write ``text`` atomically as UTF-8, in the style of ``like`` when given."""
    data = like.encode(text) if like is not None else text.encode("utf-8")
    atomic_write(path, data, mode)


class Transaction:
    """Several file writes that land together or not at all.

    ``stage()`` writes each new content to a temporary file right away (the
    step that fails on a full disk or a file-size limit); ``commit()`` renames
    them all into place. If staging fails, every temporary file is removed and
    no original has changed. A rename failing part-way (very rare: same folder,
    same file system) restores the files already replaced from the bytes read
    before the change.
    """

    def __init__(self) -> None:
        self._staged: list[tuple[Path, Path, bytes | None]] = []

    def stage(self, path: Path, data: bytes, mode: int | None = None) -> None:
        """Stage ``data`` for ``path``. Raises :class:`FileWriteError` on failure."""
        path = Path(path)
        previous = path.read_bytes() if path.exists() else None
        try:
            tmp = _stage(path, data, _mode_for(path, mode))
        except BaseException:
            self.abort()
            raise
        self._staged.append((path, tmp, previous))

    @property
    def paths(self) -> list[Path]:
        """The target paths staged so far, in order."""
        return [target for target, _, _ in self._staged]

    def abort(self) -> None:
        """Remove every staged temporary file; originals stay untouched."""
        for _, tmp, _ in self._staged:
            with contextlib.suppress(OSError):
                tmp.unlink()
        self._staged.clear()

    def commit(self) -> None:
        """Move every staged file into place.

        Raises:
            FileWriteError: a rename failed; files already replaced were put back.
        """
        done: list[tuple[Path, bytes | None]] = []
        try:
            for target, tmp, previous in self._staged:
                os.replace(tmp, target)
                done.append((target, previous))
        except OSError as exc:
            for target, previous in reversed(done):
                with contextlib.suppress(OSError, FileWriteError):
                    if previous is None:
                        target.unlink()
                    else:
                        atomic_write(target, previous)
            self.abort()
            raise FileWriteError(f"commit failed ({exc.strerror}); originals restored") from None
        for folder in {target.parent for target, _, _ in self._staged}:
            _fsync_dir(folder)
        self._staged.clear()


#: Locks this thread already holds, by lock path, with a depth count: the
#: workspace lock is re-entrant within a thread (cleanup holds it and calls
#: prune, which takes it too), while other threads and processes still wait.
_held = threading.local()


@contextlib.contextmanager
def workspace_lock(workspace: Path, timeout: float = 30.0) -> Iterator[None]:
    """Hold the workspace's writer lock (``.memory-backup/.lock``) for the block.

    Every command that changes the workspace takes it, so concurrent writers
    (agent turns, hooks, cleanup) never interleave. Uses the filelock library.
    Re-entrant within one thread.

    Raises:
        FileWriteError: the lock could not be taken within ``timeout`` seconds.
    """
    from filelock import FileLock, Timeout

    lock_path = Path(workspace) / LOCK_RELPATH
    key = str(lock_path.absolute())
    depth: dict[str, int] = getattr(_held, "depth", None) or {}
    _held.depth = depth
    if depth.get(key):
        depth[key] += 1
        try:
            yield
        finally:
            depth[key] -= 1
        return
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(str(lock_path), timeout=timeout):
            depth[key] = 1
            try:
                yield
            finally:
                depth[key] = 0
    except Timeout:
        raise FileWriteError(f"{lock_path}: another writer held the lock for {timeout:g} s") from None
