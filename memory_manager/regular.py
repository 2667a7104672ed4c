"""Reading a file that must be a regular file, without blocking on a FIFO or a device (issue 11).

Every file the bundle reads from a workspace, a state folder or a config is untrusted input: a
FIFO planted where a state file, a note or the key file is expected made ``open()`` wait for a
writer forever, some commands holding the workspace lock (fatk8), and ``/dev/zero`` as the key
file was read until memory ran out. :func:`read_regular` opens with ``O_NONBLOCK`` (so opening a
FIFO returns at once), checks with ``fstat`` that it is a regular file, and only then reads.

Only ``os``, ``stat`` and ``errno`` are imported: the per-turn hook path reads through it too.
"""
from __future__ import annotations

import errno
import os
import stat


def file_kind(mode: int) -> str:
    """What a non-regular file is, for messages: ``a folder``, ``a FIFO``, ``a socket``, ``a device``."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """Return the bytes of ``path`` when it is a regular file (symlinks followed).

    Args:
        path: the file.
        limit: the most bytes accepted (None: no limit); the key file passes a few KiB.

    Raises:
        OSError: as ``open`` does (missing file, no permission), or with ``EINVAL`` and the
            strerror ``not a regular file (a FIFO)`` (a folder, a FIFO, a socket, a device),
            or ``EFBIG`` past ``limit``: callers that already catch ``OSError`` report it as
            an unreadable file, one line, as they report any other.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"not a regular file ({file_kind(st.st_mode)})", str(path))
        if limit is not None and st.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", str(path))
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if limit is not None and size > limit:
                raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", str(path))
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_regular_text(path: str | os.PathLike[str], encoding: str = "utf-8") -> str:
    """:func:`read_regular` decoded as ``Path.read_text`` decodes (universal newlines).

    Raises:
        OSError: as :func:`read_regular`; UnicodeDecodeError: not ``encoding``.
    """
    text = read_regular(path).decode(encoding)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


__all__ = ["file_kind", "read_regular", "read_regular_text"]
