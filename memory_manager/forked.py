"""Run a piece of pure-CPU work in a forked child while this process does the rest (standard library only).

The detector (:func:`memory_manager.privacy.scan` of a long text) and the
report's masker (:class:`memory_manager.report._Masker`) split their work in
two the same way: Python's regular expressions hold the GIL, so threads do
not help, and a forked child inherits the compiled rules instead of compiling
them again. One helper for both, so a fix to the child's handling reaches both.
"""
from __future__ import annotations

import os
import pickle
import signal
from typing import Any, Callable


def in_child(work: Callable[[], Any], accept: Callable[[Any], bool] = lambda _value: True
             ) -> Callable[[], Any | None]:
    """Start ``work()`` in a forked child; return a function that waits for it and gives its result.

    Args:
        work: called in the child with no arguments; its result must pickle.
        accept: a check of the result as received (its shape and types); a
            result it refuses counts as a failure.

    The returned function blocks until the child has exited, then returns
    the result, or None when anything failed: ``os.fork`` or the pipe could
    not be made, the child raised or was killed, the data did not unpickle,
    ``accept`` refused it. The caller then does the work itself, so a failure
    costs time, never a result. The result crosses a pipe pickled; only this
    process's own child writes to it. The child ignores Ctrl-C (the parent's
    to handle) and leaves with ``os._exit``, running none of the parent's
    cleanup (atexit handlers, buffered files, locks).
    """
    try:
        read_fd, write_fd = os.pipe()
    except OSError:
        return lambda: None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        return lambda: None
    if pid == 0:  # the child: compute, send, leave without running the parent's cleanup
        code = 1
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            os.close(read_fd)
            data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_fd, "wb") as pipe:
                pipe.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)

    def wait() -> Any | None:
        try:
            with os.fdopen(read_fd, "rb") as pipe:
                data = pipe.read()
            _, status = os.waitpid(pid, 0)
            if os.waitstatus_to_exitcode(status) != 0:
                return None
            result = pickle.loads(data)
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, AttributeError, ImportError, IndexError):
            return None
        return result if accept(result) else None

    return wait
