"""Run a piece of pure-CPU work in a forked child while this process does the rest (standard library only).

The detector (:func:`memory_manager.privacy.scan` of a long text) and the
report's masker (:class:`memory_manager.report._Masker`) share their work with
a child the same way (the detector splits it in two; the masker's two
processes take chunks from a pipe until none is left): Python's regular
expressions hold the GIL, so threads do not help, and a forked child inherits
the compiled rules instead of compiling them again. One helper for both, so a
fix to the child's handling reaches both.
"""
from __future__ import annotations

import os
import pickle
import signal
from typing import Any, Callable, NoReturn


def _child(body: Callable[[], Any], out_fd: int, close: tuple[int, ...]) -> NoReturn:
    """In a forked child: ignore Ctrl-C (the parent's to handle), close the parent's pipe ends ``close``,
    send ``body()``'s result pickled on ``out_fd``, and leave with ``os._exit`` (0 once sent, else 1),
    running none of the parent's cleanup (atexit handlers, buffered files, locks)."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for fd in close:
            os.close(fd)
        data = pickle.dumps(body(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(out_fd, "wb") as pipe:
            pipe.write(data)
        code = 0
    finally:
        os._exit(code)


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
        _child(work, write_fd, (read_fd,))
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


class Worker:
    """A forked child that gets ready now and is given its input later (see :func:`start`).

    :meth:`send` passes the input (pickled, written by a thread so the caller
    never waits for a child still getting ready), :meth:`wait` gives the
    result or None, :meth:`cancel` stops a child whose input never comes.
    Every failure reads as None, as for :func:`in_child`: the caller then
    does the work itself.
    """

    def __init__(self, pid: int, send_fd: int, read_fd: int) -> None:
        self._pid = pid
        self._send_fd: int | None = send_fd
        self._read_fd: int | None = read_fd
        self._writer: Any = None
        self._reaped = False  # once reaped, the pid may belong to another process: never signalled again
        self._accept: Callable[[Any], bool] = lambda _value: True

    def send(self, data: Any, accept: Callable[[Any], bool] = lambda _value: True) -> None:
        """Give the child its input ``data`` (it must pickle); ``accept`` checks the result as :func:`in_child` does."""
        import threading

        fd, self._send_fd = self._send_fd, None
        if fd is None:
            return
        self._accept = accept
        try:
            payload = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            os.close(fd)  # the child reads no input and gives up
            return

        def write() -> None:
            try:
                with os.fdopen(fd, "wb") as pipe:
                    pipe.write(len(payload).to_bytes(8, "big") + payload)
            except OSError:
                pass  # the child died: wait() says so

        self._writer = threading.Thread(target=write, daemon=True)
        self._writer.start()

    def wait(self) -> Any | None:
        """Block until the child has exited; its result, or None when anything failed (or nothing was sent)."""
        fd, self._read_fd = self._read_fd, None
        if fd is None:
            return None
        if self._send_fd is not None:  # wait() without send(): nothing to work on
            self.cancel()
            os.close(fd)
            return None
        try:
            with os.fdopen(fd, "rb") as pipe:
                data = pipe.read()
            if self._writer is not None:
                self._writer.join()
            _, status = os.waitpid(self._pid, 0)
            self._reaped = True
            if os.waitstatus_to_exitcode(status) != 0:
                return None
            result = pickle.loads(data)
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, AttributeError, ImportError, IndexError):
            return None
        return result if self._accept(result) else None

    def cancel(self) -> None:
        """Stop the child (the input will not come) and reap it; safe to call more than once."""
        for name in ("_send_fd", "_read_fd"):
            fd = getattr(self, name)
            setattr(self, name, None)
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        if self._reaped:
            return
        self._reaped = True
        try:
            os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
        except (OSError, ChildProcessError):
            pass


def start(prepare: Callable[[], Any], work: Callable[[Any], Any]) -> Worker | None:
    """Fork a child that runs ``prepare()`` at once, then ``work(input)`` when :meth:`Worker.send` gives the input.

    For work whose input is known only later but whose set-up (importing a
    large library) can overlap what this process does meanwhile: the report
    forks its chart child before it gathers the memory, so matplotlib is
    imported while the other core would otherwise idle. None when the pipes
    or the fork could not be made (the caller does the work itself). The
    child ignores Ctrl-C, leaves with ``os._exit`` (none of the parent's
    cleanup), and gives up when its input pipe closes without data. The
    input crosses the pipe as its length (8 bytes, big-endian) then its pickle.
    """
    try:
        in_read, in_write = os.pipe()
    except OSError:
        return None
    try:
        out_read, out_write = os.pipe()
    except OSError:
        os.close(in_read)
        os.close(in_write)
        return None
    try:
        pid = os.fork()
    except OSError:
        for fd in (in_read, in_write, out_read, out_write):
            os.close(fd)
        return None
    if pid == 0:  # the child
        def body() -> Any:
            try:
                prepare()
            except Exception:  # noqa: BLE001 - work() fails the same way if it matters; the parent redoes it
                pass
            # Length first: a child forked later by the parent holds a copy of the
            # pipe's write end, so the end of the input cannot be told by end of file.
            with os.fdopen(in_read, "rb") as pipe:
                size = int.from_bytes(pipe.read(8) or b"\0", "big")
                raw = pipe.read(size) if size else b""
            if not raw or len(raw) != size:
                raise EOFError("no input")  # cancelled, or the parent is gone
            return work(pickle.loads(raw))

        _child(body, out_write, (in_write, out_read))
    os.close(in_read)
    os.close(out_write)
    return Worker(pid, in_write, out_read)
