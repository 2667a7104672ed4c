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
  Taking it runs :data:`on_lock_acquired` (backups: sweep dead staging
  files, roll back a change a killed command left half-done); releasing it
  normally runs :data:`on_lock_released` (backups: mark the change complete).
- Every file-system step that changes something goes through :func:`step`,
  the test-only crash hook: with ``MEMORY_MANAGER_CRASH_AT=N`` the process
  kills itself (SIGKILL) at step N, for the fault-injection suite
  (``tests/faults/``); ``MEMORY_MANAGER_STEP_LOG=<file>`` appends each
  step's label to a file. Unset (always, outside tests) it costs one
  environment lookup.
- Files under ``memory/.cache``, ``memory/.state`` and ``.memory-backup``
  are private: written 0600, their folders made 0700 (issue 10).
"""
from __future__ import annotations

import codecs
import contextlib
import os
import re
import signal
import stat
import threading
import time
from pathlib import Path
# ``hashlib``, ``shutil`` and ``tempfile`` are imported where they are used, and ``BinaryIO``,
# ``Callable`` and ``Iterator`` are only annotations (strings here): the per-turn hook imports this
# module, and those imports (with ``dataclasses``) were a third of its start-up (bench/hook_bench.py).

from . import interrupts, tree
from .errors import FileWriteError, InputTooLargeError, MemoryManagerError, UnreadableFileError

# In our private folder at the workspace root, so that taking the lock never
# creates anything in the user-visible tree (a restore can then remove every
# folder a change created).
LOCK_RELPATH = tree.Tree(Path()).lock

#: Test-only crash hook (issue 11's fault-injection suite): kill at step N.
CRASH_ENV = "MEMORY_MANAGER_CRASH_AT"
STEP_LOG_ENV = "MEMORY_MANAGER_STEP_LOG"
SIGINT_ENV = "MEMORY_MANAGER_SIGINT_AT"
_steps = 0

#: Folders whose files are private (0600, folders 0700): derived indexes,
#: machine state and backups hold copies of memory text (issue 10).
PRIVATE_PARTS = ((tree.MEMORY, tree.CACHE), (tree.MEMORY, tree.STATE), (tree.MEMORY, tree.QUARANTINE),
                 (tree.BACKUPS,))

#: Called with the workspace path after the writer lock is taken / before it is released.
on_lock_acquired: list[Callable[[Path], None]] = []
on_lock_released: list[Callable[[Path], None]] = []
#: Called with (workspace, changed) when a command fails under the lock after changing files
#: (``changed``: the relative paths it replaced, renamed or removed); runs before the error's
#: message names them, so what a hook repairs is named too. Hooks fail open.
on_lock_failed: list[Callable[[Path, list[str]], None]] = []


_uncounted = 0


@contextlib.contextmanager
def uncounted() -> Iterator[None]:
    """Steps inside the block are not counted by :func:`step` (the test-only crash and step hooks).

    For a write that happens on one run and not on the next with the same inputs: the local
    secret made by the first forget or purge that seals its plan (:func:`memory_manager.backups.plan_seal`).
    Counted, it would shift every later step of that first run only, so a probe run and the
    killed runs after it would number their steps differently. Its own kill points are
    tested where the secret is made for itself (:func:`memory_manager.keyed.local_secret`).
    """
    global _uncounted
    _uncounted += 1
    try:
        yield
    finally:
        _uncounted -= 1


def step(label: str) -> None:
    """Count one file-system step; the test-only crash hook kills the process at step N.

    ``MEMORY_MANAGER_CRASH_AT=N`` (a positive integer): SIGKILL at the N-th
    step of this process, before the step happens, so no ``finally`` or
    ``atexit`` runs (as with a power cut or ``kill -9``).
    ``MEMORY_MANAGER_SIGINT_AT=N``: send this process SIGINT (a Ctrl-C) at
    the N-th step instead (:mod:`memory_manager.interrupts` decides what it does).
    ``MEMORY_MANAGER_STEP_LOG=<file>``: append ``<n> <label>`` per step.
    None is ever set outside tests.
    """
    crash = os.environ.get(CRASH_ENV)
    log = os.environ.get(STEP_LOG_ENV)
    sigint = os.environ.get(SIGINT_ENV)
    if (not crash and not log and not sigint) or _uncounted:
        return
    global _steps
    _steps += 1
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{_steps} {label}\n")
    if crash and crash.isdigit() and _steps == int(crash):
        os.kill(os.getpid(), signal.SIGKILL)
    if sigint and sigint.isdigit() and _steps == int(sigint):
        os.kill(os.getpid(), signal.SIGINT)


def is_private(path: Path) -> bool:
    """True when ``path`` lies in ``memory/.cache``, ``memory/.state`` or ``.memory-backup``."""
    parts = Path(path).absolute().parts
    for marker in PRIVATE_PARTS:
        n = len(marker)
        if any(tuple(parts[i:i + n]) == marker for i in range(len(parts) - n)):
            return True
    return False


def refuse_escaping_private(path: Path) -> None:
    """Raise when ``path`` lies in one of our private folders that leads out of its workspace.

    The private folders (``memory/.cache``, ``memory/.state``,
    ``memory/.quarantine``, ``.memory-backup``; :data:`PRIVATE_PARTS`) hold
    copies of memory text. A symlink planted there (or on ``memory/``) must
    not make any writer put a file outside the workspace (issue 10), whatever
    the command and whether or not it holds the writer lock: so every write
    primitive of this module asks here first. The workspace is the part of
    ``path`` before the folder's name; nothing else needs to be known.

    Raises:
        WorkspaceError: (exit 2) naming the folder; nothing was written.
    """
    from .errors import WorkspaceError

    parts = Path(path).absolute().parts
    for marker in PRIVATE_PARTS:
        n = len(marker)
        for i in range(1, len(parts) - n + 1):
            if tuple(parts[i:i + n]) != marker:
                continue
            ws = os.path.realpath(Path(*parts[:i]))
            folder = Path(*parts[:i + n])
            real = os.path.realpath(folder)
            if real != ws and not real.startswith(ws.rstrip(os.sep) + os.sep):
                raise WorkspaceError(f"{'/'.join(marker)} is a symlink leading outside the workspace "
                                     f"({folder} -> {real}); refusing to write there (remove the link)")


#: Mode of a folder we create outside the private ones: never writable by
#: group or others, whatever the umask (issue 10: under umask 000 a 0777
#: memory tree, hook or plugin folder let any user of the machine replace
#: T2 entries or the code the Gateway runs). ``mkdir`` only takes bits away
#: through the umask, so a stricter umask still gives a stricter mode.
FOLDER_MODE = 0o755


def _private_parents(folder: Path, leaf_mode: int | None = None) -> None:
    """Create ``folder`` and its missing parents; the private ones get mode 0700, the others
    :data:`FOLDER_MODE` at most (``leaf_mode``, when given, for ``folder`` itself)."""
    refuse_escaping_private(Path(folder) / "x")
    missing = []
    probe = folder
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for path in reversed(missing):
        step(f"mkdir {path}")
        private = is_private(path / "x")
        mode = 0o700 if private else (leaf_mode if leaf_mode is not None and path == folder else FOLDER_MODE)
        try:
            path.mkdir(mode=mode)
        except FileExistsError:
            continue
        if private or mode != FOLDER_MODE:
            os.chmod(path, mode)


def tighten_private(workspace: Path, deep_backups: bool = False) -> int:
    """Make files under ``memory/.cache`` and ``memory/.state`` 0600 and their folders 0700.

    Also ``.memory-backup`` and what sits directly in it (every level with
    ``deep_backups``). For workspaces written before these modes were the
    rule; symlinks are left alone. Returns the number of modes changed.
    """
    paths = tree.Tree(Path(workspace))
    changed = 0

    def fix(path: Path, want: int) -> None:
        nonlocal changed
        with contextlib.suppress(OSError):
            if not path.is_symlink() and stat.S_IMODE(path.stat().st_mode) != want:
                os.chmod(path, want)
                changed += 1

    for top, deep in ((paths.cache, True), (paths.state, True), (paths.quarantine, True),
                      (paths.backups, deep_backups)):
        if top.is_symlink() or not top.is_dir():
            continue
        fix(top, 0o700)
        if not deep:
            for item in top.iterdir():
                fix(item, 0o700 if item.is_dir() else 0o600)
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
            for name in dirnames:
                fix(Path(dirpath) / name, 0o700)
            for name in filenames:
                fix(Path(dirpath) / name, 0o600)
    return changed


def make_dirs(folder: Path, mode: int | None = None) -> None:
    """Create ``folder`` with its parents (one crash-hook step each).

    Private folders get 0700; others :data:`FOLDER_MODE` (0755, less under a
    stricter umask), never writable by group or others; ``mode`` (e.g.
    0o700), when given, is set on ``folder`` itself if this call creates it.
    Folders that exist already are left as they are.
    """
    _private_parents(Path(folder), mode)


def remove(path: Path, missing_ok: bool = False) -> None:
    """Unlink a file or symlink (one crash-hook step), then fsync its folder."""
    path = Path(path)
    step(f"unlink {path}")
    try:
        path.unlink()
    except FileNotFoundError:
        if not missing_ok:
            raise
        return
    _wrote(path)
    _fsync_dir(path.parent)


def unshare(path: Path) -> bool:
    """Remove ``path`` when it is not a plain file of its own; True when removed.

    For files of ours that are written in place (append-only logs, the recall
    index and its SQLite journal/WAL/shm): a name there that is a hard link
    (``st_nlink > 1``), a symlink, a FIFO, a socket or a device was planted,
    and writing through it would write into another file, possibly outside
    the workspace (issue 10: ``O_NOFOLLOW`` stops a symlink, not a hard
    link). Removing the name loses no byte: the other link keeps the data.
    A missing path is fine (False).

    Raises:
        FileWriteError: a folder stands where the file belongs (never removed).
    """
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
        return False
    if stat.S_ISDIR(st.st_mode):
        raise FileWriteError(f"{path}: a folder stands where a file of ours belongs; refusing to write there")
    remove(path, missing_ok=True)
    return True


def write_all(fd: int, data: bytes, sync: bool = False) -> None:
    """Write all of ``data`` (bytes) to the open file descriptor ``fd``, looping over short writes;
    with ``sync``, ``fsync`` it after. Raises OSError as ``os.write`` does (a full disk, a file-size
    limit), with whatever was written before left to the caller to remove."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    if sync:
        os.fsync(fd)


def open_append(path: Path) -> int:
    """Open ``path`` for appending (created 0600) and return the descriptor; never through a link.

    ``O_NOFOLLOW`` refuses a symlink at the last component, ``O_NONBLOCK``
    keeps a planted FIFO from hanging the open; a name that is not a plain
    file with one link is replaced first (:func:`unshare`), and what was
    opened is checked again with ``fstat`` (a link planted in between is
    refused). The caller closes the descriptor.

    Raises:
        FileWriteError: the file cannot be opened as a plain file of its own.
    """
    path = Path(path)
    refuse_escaping_private(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
    for _attempt in range(2):
        unshare(path)
        try:
            fd = os.open(path, flags, 0o600)
        except OSError as exc:
            raise FileWriteError(f"{path}: cannot open for appending ({exc.strerror or exc})") from None
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
            return fd
        os.close(fd)
    raise FileWriteError(f"{path}: is not a plain file of its own (a link was planted there); refusing to append")


def remove_dir(path: Path) -> None:
    """Remove an empty folder (one crash-hook step). Raises OSError when it is not empty."""
    step(f"rmdir {path}")
    Path(path).rmdir()


def remove_tree(path: Path) -> None:
    """Remove a folder of our own with everything in it (one crash-hook step)."""
    import shutil

    step(f"rmtree {path}")
    shutil.rmtree(path, ignore_errors=True)


def move(source: Path, target: Path, sync: bool = True) -> None:
    """Rename ``source`` to ``target`` on one file system (one crash-hook step).

    ``sync``: fsync both folders now; a caller moving many files passes False
    and calls :func:`sync_dir` on each folder once at the end (the backup
    made before the moves is durable either way, so a rename lost to a power
    cut is rolled back like any interrupted change).
    """
    source, target = Path(source), Path(target)
    step(f"rename {source} -> {target}")
    os.replace(source, target)
    _wrote(source, target)
    if sync:
        _fsync_dir(target.parent)
        if source.parent != target.parent:
            _fsync_dir(source.parent)


def sync_dir(folder: Path) -> None:
    """fsync a folder, so the names created or removed in it are durable."""
    _fsync_dir(Path(folder))


def sync_file(path: Path) -> None:
    """fsync a file already written and closed."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_filesystem(path: Path) -> bool:
    """Flush the whole file system holding ``path`` (Linux ``syncfs(2)``); False when unavailable.

    One call instead of one fsync per file: for a batch of thousands of new
    files (a backup of a large cleanup) it is several times faster (measured
    in ``bench/README.md``). Raises OSError when the flush itself fails.
    """
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        if syncfs(fd) != 0:
            error = ctypes.get_errno()
            raise OSError(error, os.strerror(error))
    finally:
        os.close(fd)
    return True


class TextFile:
    """A decoded text file (read-only once made).

    ``text`` has ``\\n`` line endings; ``newline`` is the style found on disk
    (``"\\r\\n"`` or ``"\\n"``); ``bom`` is True when the file started with the
    UTF-8 byte-order mark; ``raw`` is the exact bytes read. A plain class, not a dataclass:
    ``dataclasses`` imports ``inspect`` (and ``ast``, ``dis``, ``tokenize``) on the per-turn hook path.
    """

    __slots__ = ("text", "newline", "bom", "raw")

    def __init__(self, text: str, newline: str, bom: bool, raw: bytes) -> None:
        for name, value in (("text", text), ("newline", newline), ("bom", bom), ("raw", raw)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"TextFile is read-only ({name})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TextFile):
            return NotImplemented
        return (self.text, self.newline, self.bom, self.raw) == (other.text, other.newline, other.bom, other.raw)

    def __hash__(self) -> int:
        return hash((self.text, self.newline, self.bom, self.raw))

    def __repr__(self) -> str:
        return f"TextFile(newline={self.newline!r}, bom={self.bom!r}, {len(self.raw)} bytes)"

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


#: Workspace roots opened in this process (:func:`confine_reads`), as (absolute, real) paths.
_ROOTS: dict[str, str] = {}


def confine_reads(workspace: Path) -> None:
    """Register ``workspace``: from now on no file under it is read through a symlink leading out.

    Called by :class:`memory_manager.workspace.Workspace` for the workspace
    every command opens. A planted symlink (``MEMORY.md``, an index, a note)
    pointing outside must not make a command copy the outside file's lines
    into the workspace or into the agent's context (issue 10, round 4); a
    link that stays inside is fine.
    """
    root = os.path.abspath(workspace)
    _ROOTS[root] = os.path.realpath(root)


def leads_outside(path: Path) -> bool:
    """True when ``path`` lies (as written) in a registered workspace (:func:`confine_reads`) but
    resolves, symlinks followed, outside it (a symlink loop counts as outside)."""
    if not _ROOTS:
        return False
    where = os.path.abspath(path)
    for root, real in _ROOTS.items():
        if where == root or not where.startswith(root.rstrip(os.sep) + os.sep):
            continue
        try:
            target = os.path.realpath(where, strict=False)
        except (OSError, RuntimeError):
            return True
        if target != real and not target.startswith(real.rstrip(os.sep) + os.sep):
            return True
    return False


def shown_path(path: Path) -> str:
    """``path`` as messages show it: relative to the opened workspace it lies in
    (:func:`confine_reads`; ``memory/daily/2026-11-30.md``), else as given."""
    where = os.path.abspath(path)
    for root in _ROOTS:
        if where.startswith(root.rstrip(os.sep) + os.sep):
            return Path(os.path.relpath(where, root)).as_posix()
    return str(path)


def read_text(path: Path, label: str | None = None) -> TextFile:
    """Read ``path`` as UTF-8, remembering BOM and line endings.

    A file of an opened workspace that is a symlink leading out of it is
    not read (:func:`leads_outside`). Errors name ``label``, or the path
    relative to its workspace (:func:`shown_path`).

    Raises:
        UnreadableFileError: the file cannot be read, is not UTF-8, or leads
            outside its workspace.
    """
    label = label or shown_path(path)
    if leads_outside(path):
        raise UnreadableFileError(f"{label or path}: a symlink leading outside the workspace; not read "
                                  "(remove the link)")
    from .regular import read_regular

    try:
        raw = read_regular(path)  # a FIFO or a device is refused, never waited on (fatk8)
    except OSError as exc:
        raise UnreadableFileError(f"{label or path}: cannot read ({exc.strerror})") from None
    return decode_text(raw, str(label or path))


def input_limit(cfg: dict) -> int:
    """The most bytes one input may hold (``input.max_mb`` of the config, in MiB), as a whole number.

    Text read from stdin (``learn --text -`` and the other ``-`` options)
    and the files ``import`` reads are capped so that a runaway pipe or a
    huge file cannot fill memory or the notes (issue 11). Default 32 MiB:
    about 8 million CJK characters, far above any note, while a whole
    export of a large workspace still fits.
    """
    return max(1, int(float((cfg.get("input") or {}).get("max_mb", 32)) * 1024 * 1024))


def _too_large(label: str, limit: int, cfg: dict) -> InputTooLargeError:
    shown = (cfg.get("input") or {}).get("max_mb", 32)
    return InputTooLargeError(f"{label}: more than {limit:,} bytes, the input limit (input.max_mb = {shown} in "
                              "the config); nothing was changed")


def read_capped(source: Path | BinaryIO, cfg: dict, label: str | None = None) -> bytes:
    """Read a file or a binary stream, refusing more than :func:`input_limit` bytes.

    At most limit + 1 bytes are ever read into memory: one read of that size
    tells "fits" from "too large" without taking the rest of the input.

    Args:
        source: a path, or a binary stream (``sys.stdin.buffer``).
        cfg: the loaded config (``input.max_mb``).
        label: how the error names the input (default: the path, or ``stdin``).

    Raises:
        InputTooLargeError: (exit 2) over the limit, naming it.
        UnreadableFileError: the file cannot be opened or read.
    """
    limit = input_limit(cfg)
    if isinstance(source, (str, Path)):
        label = label or str(source)
        try:
            with open(source, "rb") as handle:
                if os.fstat(handle.fileno()).st_size > limit:  # known up front: read nothing
                    raise _too_large(label, limit, cfg)
                data = handle.read(limit + 1)
        except OSError as exc:
            raise UnreadableFileError(f"{label}: cannot read ({exc.strerror})") from None
    else:
        label = label or "stdin"
        data = source.read(limit + 1)
    if len(data) > limit:
        raise _too_large(label, limit, cfg)
    return data


def read_text_capped(source: Path | BinaryIO, cfg: dict, label: str | None = None) -> TextFile:
    """:func:`read_capped`, decoded as :func:`read_text` does (UTF-8, BOM and line endings kept)."""
    name = label or (str(source) if isinstance(source, (str, Path)) else "stdin")
    return decode_text(read_capped(source, cfg, name), name)


def sha256_bytes(data: bytes) -> str:
    """Return the hex SHA-256 of ``data``."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    """Return the hex SHA-256 of a file's bytes."""
    import hashlib

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
    import tempfile

    refuse_escaping_private(path)
    if is_private(path):
        mode = 0o600
    try:
        _private_parents(path.parent)
        step(f"stage {path}")
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.{STAGING_MARK}", suffix=".tmp",
                                       dir=path.parent)
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
        step(f"replace {path}")
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise FileWriteError(f"{path}: replace failed ({exc.strerror})") from None
    _wrote(path)
    _fsync_dir(path.parent)


def create_new(path: Path, data: bytes, mode: int = 0o600,
               check: Callable[[int], None] | None = None) -> None:
    """Create ``path`` holding ``data``, whole or not at all, never replacing a file already there.

    For a key or salt (issue 11, fatk9: a key file opened with ``O_EXCL`` and then written
    in place was left empty or torn by a file-size limit, and every later run read it as
    the key). The bytes go to a unique temporary file in the same folder, mode ``mode``
    before a byte is written, fsynced (:func:`stage_new`), then hard-linked into place
    (``link`` fails when the name exists, as ``O_EXCL`` does) and the temporary name
    removed (:func:`link_new`). On a file system without hard links it is renamed into
    place when the name is still free.

    Args:
        path: the file to create; its folder must exist.
        data: its complete content. mode: its permission bits.
        check: called with the temporary file's ``st_mode`` before anything is
            written; it may raise to refuse the file system (a mode it ignores).

    Raises:
        FileExistsError: ``path`` exists already (nothing written).
        FileWriteError: naming ``path``: it could not be written whole (nothing left behind).
    """
    link_new(stage_new(path, data, mode, check), path)


def stage_new(path: Path, data: bytes, mode: int = 0o600,
              check: Callable[[int], None] | None = None) -> Path:
    """The first half of :func:`create_new`: ``data`` in a unique staging file beside ``path``.

    The staging file (``.<name>.mmstage-<8 random>.tmp``) gets ``mode`` before a byte is
    written and is fsynced; the caller then links it into place (:func:`link_new`) or
    removes it (:func:`discard_staged`). A caller can do a second step in between (record
    the new file), so that a failed record leaves no new file behind (issue 11).

    Raises:
        FileWriteError: naming ``path``: the staging file could not be written (none is left).
        Anything ``check`` raises (no staging file is left).
    """
    import tempfile

    path = Path(path)
    refuse_escaping_private(path)
    step(f"stage {path}")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.{STAGING_MARK}", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise FileWriteError(f"{path}: cannot create a file there ({exc.strerror or exc})") from None
    tmp = Path(tmp_name)
    try:
        try:
            os.fchmod(fd, mode)
            if check is not None:
                check(os.fstat(fd).st_mode)
            write_all(fd, data, sync=True)
        finally:
            os.close(fd)
    except OSError as exc:
        discard_staged(tmp)
        raise FileWriteError(f"{path}: write failed ({exc.strerror or exc}); nothing was left there") from None
    except BaseException:
        discard_staged(tmp)
        raise
    return tmp


def discard_staged(tmp: Path) -> None:
    """Remove a staging file of :func:`stage_new` that will not be linked (one gone already is fine)."""
    with contextlib.suppress(OSError):
        Path(tmp).unlink()


def link_new(tmp: Path, path: Path) -> None:
    """The second half of :func:`create_new`: put the staging file ``tmp`` in place as ``path``.

    Raises:
        FileExistsError: ``path`` exists already (the staging file is removed).
        FileWriteError: naming ``path`` (the staging file is removed, nothing is left there).
    """
    import errno

    tmp, path = Path(tmp), Path(path)
    try:
        step(f"link {path}")
        try:
            os.link(tmp, path)
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            if os.path.lexists(path):  # no hard links here: the name is still free, or it is not ours
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
            os.rename(tmp, path)
    except FileExistsError:
        discard_staged(tmp)
        raise
    except OSError as exc:
        discard_staged(tmp)
        raise FileWriteError(f"{path}: write failed ({exc.strerror or exc}); nothing was left there") from None
    except BaseException:
        discard_staged(tmp)
        raise
    discard_staged(tmp)
    _wrote(path)
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
                step(f"replace {target}")
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


def outside_links(workspace: Path) -> list[str]:
    """Return the folders of our tree that are symlinks leading out of ``workspace``.

    Looked at: ``.memory-backup``, ``memory/`` and each folder of the memory
    tree (daily, knowledge, tier1/2, archive, .cache, .state, .quarantine) and
    each month folder of the archive. A symlink that stays inside is fine.
    """
    ws = Path(workspace)
    real = os.path.realpath(ws)
    paths = tree.Tree(ws)
    candidates = [paths.backups, paths.memory] + [paths.memory / name for name in tree.FOLDERS + tree.PRIVATE]
    with contextlib.suppress(OSError):
        if paths.archive.is_dir() and not paths.archive.is_symlink():
            candidates += [paths.archive / name for name in sorted(os.listdir(paths.archive))]
    out = []
    for path in candidates:
        if os.path.islink(path):
            target = os.path.realpath(path)
            if target != real and not target.startswith(real + os.sep):
                out.append(paths.rel(path))
    return out


def private_links(workspace: Path) -> list[str]:
    """Return the entries directly in our private folders that are symlinks, wherever they point.

    We never make a link in ``memory/.cache``, ``memory/.state``,
    ``memory/.quarantine`` or at the top of ``.memory-backup``: one found
    there was planted, and a writer that opened it (the recall index, a
    lock, a state file) would write wherever it points, outside the
    workspace or into a note (issue 10: a planted
    ``memory/.cache/recall-index.sqlite`` made recall copy the text of
    every entry into a file outside).
    """
    paths = tree.Tree(Path(workspace))
    out = []
    for folder in (paths.cache, paths.state, paths.quarantine, paths.backups):
        if os.path.islink(folder) or not os.path.isdir(folder):
            continue
        with contextlib.suppress(OSError):
            for name in sorted(os.listdir(folder)):
                if os.path.islink(os.path.join(folder, name)):
                    out.append(paths.rel(folder / name))
    return out


def refuse_outside_links(workspace: Path) -> None:
    """Raise before any write when a folder of our tree leads out of the workspace (issue 10).

    Every writer takes the workspace lock, so checking here covers cleanup,
    export, import, forget and the rest: a planted ``memory/.state`` or
    archive month symlink cannot make them write elsewhere.

    Raises:
        WorkspaceError: (exit 2) naming the first such folder.
    """
    from .errors import WorkspaceError

    found = outside_links(workspace)
    if found:
        raise WorkspaceError(f"{found[0]} is a symlink leading outside the workspace; refusing to write "
                             "(remove the link)")
    planted = private_links(workspace)
    if planted:
        raise WorkspaceError(f"{planted[0]} is a symlink in a private folder of the memory tree; refusing to "
                             "read or write through it (remove the link)")


#: Locks this thread already holds, by lock path, with a depth count: the
#: workspace lock is re-entrant within a thread (cleanup holds it and calls
#: prune, which takes it too), while other threads and processes still wait.
_held = threading.local()


def _wrote(*paths: Path) -> None:
    """Note ``paths`` as changed under every workspace lock this thread holds (see :func:`changed_so_far`)."""
    held = (getattr(_held, "wrote", None) or {}).values()
    for found in held:
        found.update(Path(p).absolute() for p in paths)
    if held:
        interrupts.changed()  # from now on Ctrl-C lets the command finish (memory_manager.interrupts)


def unrecord(*paths: Path) -> None:
    """Take ``paths`` off the changes noted under the workspace locks this thread holds.

    For a change put back byte for byte before the command failed (keygen --force
    restoring its key record): the error then says what is left changed, and only that.
    """
    for found in (getattr(_held, "wrote", None) or {}).values():
        found.difference_update(Path(p).absolute() for p in paths)


def changed_so_far(workspace: Path) -> list[str]:
    """The workspace files this thread replaced, renamed or removed since it took the lock (sorted
    relative paths, the backups folder left out); empty when the lock is not held."""
    root = Path(workspace).absolute()
    out = set()
    for path in (getattr(_held, "wrote", None) or {}).get(str((root / LOCK_RELPATH).absolute()), ()):
        try:
            rel = path.relative_to(root).as_posix()
        except ValueError:
            continue
        if not rel.startswith(tree.BACKUPS + "/"):
            out.add(rel)
    return sorted(out)


def _say_what_changed(workspace: Path, exc: BaseException) -> None:
    """A command failed under the lock after changing files: its error says so, and names them
    (issue 11: a non-zero exit changed nothing or says exactly what it changed)."""
    changed = changed_so_far(workspace)
    if not changed:
        return
    note = f"files changed before the error: {', '.join(changed)}"
    if isinstance(exc, MemoryManagerError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
        exc.args = (exc.args[0].replace("; nothing was changed", "").replace(" (nothing was changed)", "")
                    + f"; {note}",)
    elif isinstance(exc, OSError) and exc.strerror:
        exc.strerror = f"{exc.strerror}; {note}"


@contextlib.contextmanager
def workspace_lock(workspace: Path, timeout: float = 30.0,
                   on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the workspace's writer lock (``.memory-backup/.lock``) for the block.

    Every command that changes the workspace takes it, so concurrent writers
    (agent turns, hooks, cleanup) never interleave. Uses the filelock library.
    Re-entrant within one thread. ``on_wait``: called once, before waiting,
    when another process holds the lock (init says it waits instead of showing
    the wait as its writing step; nu16 item 14); not called when it is free.

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
    refuse_outside_links(Path(workspace))
    _private_parents(lock_path.parent)
    try:
        with _acquired(FileLock(str(lock_path), timeout=timeout), timeout, on_wait):
            interrupts.hold()  # Ctrl-C waits until the lock is released (memory_manager.interrupts)
            depth[key] = 1
            _held.wrote = getattr(_held, "wrote", None) or {}
            _held.wrote[key] = set()
            _held.since = getattr(_held, "since", None) or {}
            _held.since[key] = time.time()
            with contextlib.suppress(OSError):
                os.chmod(lock_path, 0o600)
            try:
                for hook in on_lock_acquired:
                    hook(Path(workspace))
                yield
                for hook in on_lock_released:
                    hook(Path(workspace))
            except BaseException as exc:
                if isinstance(exc, Exception):
                    changed = changed_so_far(Path(workspace))
                    for hook in on_lock_failed if changed else ():
                        with contextlib.suppress(Exception):
                            hook(Path(workspace), changed)
                with contextlib.suppress(Exception):
                    _say_what_changed(Path(workspace), exc)
                # Failed commands release the lock too: their backups are
                # complete (they say what was done), only a kill leaves one open.
                for hook in on_lock_released:
                    with contextlib.suppress(Exception):
                        hook(Path(workspace))
                interrupts.release(deliver=False)
                raise
            finally:
                depth[key] = 0
                _held.wrote.pop(key, None)
        interrupts.release()  # a Ctrl-C deferred while nothing was written stops the command now
    except Timeout:
        raise FileWriteError(f"{lock_path}: another writer held the lock for {timeout:g} s") from None


@contextlib.contextmanager
def _acquired(lock: "FileLock", timeout: float, on_wait: Callable[[], None] | None) -> Iterator[None]:
    """Hold filelock ``lock`` for the block; with ``on_wait``, try at once first and call it before waiting."""
    from filelock import Timeout

    if on_wait is None:
        lock.acquire(timeout=timeout)
    else:
        try:
            lock.acquire(timeout=0)
        except Timeout:
            on_wait()
            lock.acquire(timeout=timeout)
    try:
        yield
    finally:
        lock.release()


def lock_busy(workspace: Path) -> bool:
    """True when another process holds ``workspace``'s writer lock now; takes nothing, creates nothing.

    For read-only commands (``status``): a journal found while the lock is held belongs to a
    command still running, not to a killed one. Tries a shared, non-blocking ``flock`` on the
    lock file (filelock holds it exclusively) and lets go at once; no lock file: not busy.
    """
    import fcntl

    try:
        fd = os.open(Path(workspace) / LOCK_RELPATH, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing drops a shared lock taken above
    return False


def holds_lock(workspace: Path) -> bool:
    """True when this thread holds ``workspace``'s writer lock."""
    key = str((Path(workspace) / LOCK_RELPATH).absolute())
    return bool((getattr(_held, "depth", None) or {}).get(key))


#: The marker in every staging file :func:`_stage` writes (staging format 2, see
#: ``references/formats.md``): a name of ours is ``.<target>.mmstage-<8 random>.tmp``.
STAGING_MARK = "mmstage-"
#: A staging file of :func:`_stage` in either form: the current one with the marker, or the
#: old unmarked ``.<target name>.<8 random characters>.tmp`` of earlier versions
#: (``tempfile.mkstemp``'s random part is 8 characters of ``[a-z0-9_]``).
STAGING_NAME = re.compile(r"^\.(?P<target>.+?)\.(?P<mark>mmstage-)?[a-z0-9_]{8}\.tmp$")
#: Files at the workspace root that this bundle writes (init, cleanup).
ROOT_FILES = {"AGENTS.md", *tree.MEMORY_MD_NAMES, "HEARTBEAT.md", ".gitignore"}
_DAILY_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}\.md$")


def _provably_ours(folder: Path, name: str, anywhere: bool = False) -> bool:
    """True when ``folder/name`` is a staging file this bundle's writer made.

    A name with :data:`STAGING_MARK` is ours (only :func:`_stage` writes it). The old,
    unmarked form is read only where it cannot be a user's file: anywhere in the backup
    folder (``anywhere``), a daily note's name in a ``daily`` folder, or a rewrite of a
    file that exists beside it; any other unmarked name is left alone (issue 11, round 5).
    """
    match = STAGING_NAME.match(name)
    if not match:
        return False
    if match.group("mark") or anywhere:
        return True
    target = match.group("target")
    if folder.name == "daily" and _DAILY_NAME.match(target):
        return True
    return target not in ("", ".", "..") and "/" not in target and (folder / target).is_file()


def staging_files(workspace: Path, journals_only: bool = True) -> list[Path]:
    """Return the staging files of ours under ``workspace`` (:func:`_provably_ours`).

    Looked for: the workspace root (only targets in :data:`ROOT_FILES`),
    everything under ``memory/``, ``hooks/`` and the plugin's folder, the root of
    ``.memory-backup/`` and the backups with a journal left (``journals_only``:
    of the others only the files directly in each backup folder) or every backup. Symlinked folders are not followed.
    """
    ws = Path(workspace)
    found: list[Path] = []
    with contextlib.suppress(OSError):
        for name in os.listdir(ws):
            match = STAGING_NAME.match(name)
            if match and match.group("target") in ROOT_FILES:
                found.append(ws / name)
    folders = [tree.Tree(ws).memory, ws / "hooks", ws / tree.OPENCLAW_PLUGIN_DIR]
    backup_root = ws / LOCK_RELPATH.parent
    if backup_root.is_dir() and not backup_root.is_symlink():
        names = os.listdir(backup_root)
        found.extend(backup_root / n for n in names if _provably_ours(backup_root, n, True))
        if journals_only:
            folders += [backup_root / n[len(".open-"):] for n in names if n.startswith(".open-")]
            # A closed backup's own files (manifest, entries, after.json) are rewritten
            # in place by forget and purges: a kill there leaves a staging file beside them.
            for name in names:
                folder = backup_root / name
                if name.startswith(".") or folder.is_symlink() or not folder.is_dir():
                    continue
                with contextlib.suppress(OSError):
                    found.extend(folder / n for n in os.listdir(folder)
                                 if _provably_ours(folder, n, True))
        else:
            folders += [backup_root / n for n in names if not n.startswith(".")]
    for top in folders:
        if top.is_symlink() or not top.is_dir():
            continue
        in_backups = top.parent == backup_root
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
            found.extend(Path(dirpath) / n for n in filenames
                         if _provably_ours(Path(dirpath), n, in_backups))
    return sorted(set(found))


def sweep_staging(workspace: Path) -> list[Path]:
    """Remove staging files a killed writer left; return them.

    Only while holding the workspace lock, and only files whose last change
    is older than the moment this holder took the lock: a writer that
    staged them is gone (writers stage under the lock), and a file touched
    after that moment is not ours to judge. Only our own names
    (:func:`staging_files`).
    """
    key = str((Path(workspace) / LOCK_RELPATH).absolute())
    since = (getattr(_held, "since", None) or {}).get(key)
    if since is None or not holds_lock(workspace):
        return []
    removed = []
    for path in staging_files(workspace):
        try:
            if path.lstat().st_mtime < since and not path.is_symlink():
                remove(path)
                removed.append(path)
        except OSError:
            continue
    return removed


@contextlib.contextmanager
def folder_lock(folder: Path, timeout: float = 30.0) -> Iterator[float]:
    """Hold an exclusive ``flock`` on ``folder`` itself for the block; yield when it was taken (epoch s).

    For a folder outside any workspace that this bundle writes into (the config folder of the
    T2 key): it serialises our writers there without creating a lock file beside the user's
    files. Works on a folder because ``flock`` locks the open file description, whatever it is.

    Raises:
        FileWriteError: ``folder`` cannot be opened, or another writer held it for ``timeout`` s.
    """
    import fcntl

    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise FileWriteError(f"{folder}: cannot open the folder to lock it ({exc.strerror or exc})") from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    raise FileWriteError(f"{folder}: another writer held it for {timeout:g} s") from None
                time.sleep(0.05)
        yield time.time()
    finally:
        os.close(fd)  # closing drops the lock


def sweep_own_staging(path: Path, since: float) -> list[Path]:
    """Remove the staging files :func:`stage_new` left for ``path`` (a writer killed before it linked).

    Only ``path``'s own names (``.<name>.mmstage-<8 random>.tmp``, :data:`STAGING_MARK`), only
    regular files (never a symlink), and only those last changed before ``since`` (when the
    caller took the lock that every writer of ``path`` takes: a file touched later is not a dead
    writer's). Issue 11: the next run removes its own stale staging files and nothing else.
    Returns the files removed; one that cannot be removed is left (and not returned).
    """
    path = Path(path)
    pattern = re.compile(r"^\." + re.escape(path.name) + r"\." + re.escape(STAGING_MARK) + r"[a-z0-9_]{8}\.tmp$")
    removed = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return removed
    for name in sorted(names):
        if not pattern.match(name):
            continue
        stale = path.parent / name
        try:
            st = stale.lstat()
            if stat.S_ISREG(st.st_mode) and st.st_mtime < since:
                remove(stale)
                removed.append(stale)
        except OSError:
            continue
    return removed
