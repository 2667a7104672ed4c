"""The gate's audit log: ``memory/.state/gate-audit.jsonl`` (format ``cmm-gate-audit`` v1).

One JSON object per line, appended under the workspace lock. A line never
holds content (issue 10): its ``summary`` is only the content's length and
the detected categories (``<42 chars withheld: name>``), next to the
operation, decision and a keyed hash. The hash is HMAC-SHA256 with a random per-workspace salt
(``memory/.state/audit-salt``, mode 0600), so a short secret cannot be
recovered by hashing guesses without that file, while two records of the
same content still share a hash.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

from .regular import read_regular
from . import tree
from .errors import FileWriteError
from .clock import now
from .fsio import make_dirs, open_append
from . import jsonio

LOG_NAME = "gate-audit.jsonl"
SALT_NAME = "audit-salt"
FORMAT = {"format": "cmm-gate-audit", "version": 1}


def log_path(ws: Path) -> Path:
    """Return ``memory/.state/gate-audit.jsonl``."""
    return tree.Tree(ws).state_file(LOG_NAME)


#: Bytes in the salt (:func:`_salt`); a file of any other size is torn, never used as a key.
SALT_BYTES = 32


def _salt(ws: Path) -> bytes:
    """The gate log's HMAC salt (``memory/.state/audit-salt``, :data:`SALT_BYTES` random bytes), made when missing.

    Made whole or not at all (fatk9: written in place, a file-size limit left it empty
    or torn, and every later run keyed the log's hashes with that): a temporary file,
    mode 0600, fsynced, linked into place. A salt of the wrong size (torn by an older
    version) is never used: it is replaced by a new one (the hashes it keyed are as good
    as unkeyed, so no record loses anything it had).

    Raises:
        FileWriteError: naming the salt file: it could not be written.
    """
    from . import fsio

    path = tree.Tree(ws).state_file(SALT_NAME)
    for _attempt in range(3):
        try:
            salt = read_regular(path)
        except FileNotFoundError:
            salt = None
        if salt is not None and len(salt) == SALT_BYTES:
            return salt
        make_dirs(path.parent)
        if salt is not None:  # torn: set aside, then made again (never read as a key)
            fsio.remove(path, missing_ok=True)
        salt = os.urandom(SALT_BYTES)
        try:
            fsio.create_new(path, salt, 0o600)
        except FileExistsError:  # another writer made it first: read theirs
            continue
        return salt
    raise FileWriteError(f"{path}: the gate log's salt is not {SALT_BYTES} bytes and could not be made again")


def content_hash(ws: Path, text_sha256: str) -> str:
    """Return the keyed hash recorded for content whose SHA-256 is ``text_sha256``."""
    return hmac.new(_salt(ws), text_sha256.encode("ascii"), hashlib.sha256).hexdigest()[:32]


def append(ws: Path, decision: Any) -> dict[str, Any]:
    """Append one record for a :class:`memory_manager.gate.Decision`; return it.

    Uses ``O_APPEND`` with one ``write`` per line, so concurrent appenders
    never interleave within a line (POSIX appends of one write are atomic for
    regular files on local file systems); callers also hold the lock.
    """
    record, line = record_line(ws, decision)
    append_line(ws, line)
    return record


def record_line(ws: Path, decision: Any) -> tuple[dict[str, Any], bytes]:
    """The record :func:`append` would write for ``decision``, and its line (UTF-8, newline-terminated).

    For a command that writes the record at its commit point (``forget``: the
    line is kept in its journal, so a run finished by the next one logs it
    exactly once, see :func:`append_line`).
    """
    # The log keeps hashes, categories and decisions, never content (issue 10):
    # not even ordinary words, which a later ``forget`` could not take back.
    summary = f"<{decision.chars} chars" + (f" withheld: {', '.join(decision.categories)}>"
                                            if decision.categories else ">")
    record = {"time": now().isoformat(timespec="seconds"), "operation": decision.operation,
              "source": decision.source, "sensitivity": decision.sensitivity,
              "approval": decision.approval, "decision": decision.decision,
              "categories": decision.categories, "summary": summary,
              "chars": decision.chars, "hash": content_hash(ws, decision.content_hash)}
    return record, (json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def append_line(ws: Path, line: bytes, once: bool = False) -> bool:
    """Append one record line (from :func:`record_line`); True when written.

    ``once``: do nothing when the log already holds this exact line (a run
    that finishes an interrupted one must not log its decision twice).

    Raises:
        FileWriteError: the line could not be written whole (a full disk, a
            file-size limit); the log is cut back to its size before, so it
            never keeps a torn line.
    """
    path = log_path(ws)
    make_dirs(path.parent)
    if once:
        try:
            if line.rstrip(b"\n") in read_regular(path).split(b"\n"):
                return False
        except FileNotFoundError:
            pass
    fd = open_append(path)  # never through a symlink or hard link (issue 10)
    try:
        before = os.fstat(fd).st_size
        try:
            written = os.write(fd, line)
            if written != len(line):  # a file-size limit or a full disk cut it short
                raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))
        except OSError as exc:
            # A torn line would stay in the log for good: cut the file back to where it was
            # (the caller holds the workspace lock, so no other appender wrote meanwhile), and
            # say which file refused (fatk6/atk8: an import under `ulimit -f 1` said only "File
            # too large").
            with contextlib.suppress(OSError):
                os.ftruncate(fd, before)
            raise FileWriteError(f"cannot record the gate's decision in {tree.rel(tree.STATE, LOG_NAME)} "
                                 f"({exc.strerror or exc}); nothing was changed") from None
    finally:
        os.close(fd)
    return True


def read(ws: Path, problems: list[str] | None = None) -> list[dict[str, Any]]:
    """Return every record (unparsable lines are skipped).

    The log is untrusted input like any file we read: a line that is not UTF-8 is
    skipped, never fatal (fatk8: a binary log stopped the report with an unexpected
    UnicodeDecodeError), and ``problems``, when given, gets one line naming the file
    for those lines or for a log that cannot be read at all (a FIFO, a folder).
    """
    out: list[dict[str, Any]] = []
    shown = tree.rel(tree.STATE, LOG_NAME)
    try:
        raw = read_regular(log_path(ws))
    except FileNotFoundError:
        return out
    except OSError as exc:
        if problems is not None:
            problems.append(f"{shown}: cannot read ({exc.strerror}); the gate's decisions are not counted")
        return out
    binary = 0
    for chunk in raw.splitlines():
        try:
            line = chunk.decode("utf-8")
        except UnicodeDecodeError:
            binary += 1
            continue
        try:
            out.append(jsonio.loads(line, "gate audit log"))
        except ValueError:
            continue
    if binary and problems is not None:
        problems.append(f"{shown}: {binary} line{'s' if binary != 1 else ''} not UTF-8 text; skipped")
    return out
