"""Ctrl-C (SIGINT) for every script: a change either finishes or never starts, and the user is told which.

Every script calls :func:`install` on its first line, before it imports
anything heavy, so an interrupt is never a Python traceback (walk-through r4,
items 2 and 16). What an interrupt does depends on how far the command got:

- **Starting up** (imports, before the command's error guard runs):
  ``interrupted: nothing was changed`` on stderr (or that error as the one
  JSON document under ``--json``), exit 130, at once.
- **Running, nothing written yet**: a ``KeyboardInterrupt`` is raised; the
  guard (:mod:`memory_manager.cli`) reports it the same way (exit 130).
- **Holding the workspace writer lock** (:func:`memory_manager.fsio.workspace_lock`
  calls :func:`hold` and :func:`release`): the interrupt is deferred. One line
  on stderr says the change under way is being finished; the command then
  ends as it would have (its own output, its own exit code). If it turns
  out the lock was released without a byte written, the deferred interrupt
  is delivered then, and "nothing was changed" is true.
- **After a write** (:func:`changed` was called): the change is on disk, so
  the command finishes and reports it; a later interrupt is deferred too,
  so an output saying what was done is never cut short or followed by a
  second document.
- **Exiting** (:func:`exiting`): ignored.

So a writing command never leaves a journal open because of Ctrl-C (only a
kill does, and the next command rolls that back as before), and no command
says "interrupted" about a change it kept. Standard library only: it runs
before the third-party imports.
"""
from __future__ import annotations

import json
import os
import signal
import sys

#: Exit status for an interrupt (128 + SIGINT, the shell's convention).
EXIT_CODE = 130
MESSAGE = "interrupted: nothing was changed"

_state = {"phase": "startup", "held": 0, "changed": False, "pending": False, "json": False}


def install(argv: list[str] | None = None) -> None:
    """Install the SIGINT handler (first thing a script does); ``argv`` defaults to ``sys.argv[1:]``.

    ``--json`` among the arguments (before a ``--``) makes the early
    interrupt a JSON document, like every other error of that run.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if "--" in args:
        args = args[:args.index("--")]
    _state["json"] = "--json" in args
    try:
        signal.signal(signal.SIGINT, _handler)
    except ValueError:  # not the main thread (imported as a library): leave Python's default
        pass


def _write(fd: int, text: str) -> None:
    try:
        os.write(fd, text.encode("utf-8"))
    except OSError:
        pass


def _handler(signum: int, frame: object) -> None:
    if _state["phase"] == "exiting":
        return
    if _state["held"] or _state["changed"]:
        if not _state["pending"]:
            _state["pending"] = True
            _write(2, "interrupt: finishing the change under way first (stopping half-way would "
                      "leave it half-done)\n")
        return
    if _state["phase"] == "running":
        raise KeyboardInterrupt
    # Starting up: nothing has run, so nothing was changed; no guard is in place yet.
    if _state["json"]:
        _write(1, json.dumps({"error": MESSAGE, "kind": "interrupted"}, indent=2, allow_nan=False) + "\n")
    else:
        _write(2, MESSAGE + "\n")
    os._exit(EXIT_CODE)


def running() -> None:
    """The command's error guard is in place: from now on an interrupt raises ``KeyboardInterrupt``."""
    if _state["phase"] == "startup":
        _state["phase"] = "running"


def exiting() -> None:
    """The command has reported its result (or its error): later interrupts are ignored.

    Where this module's handler is installed (a script), SIGINT is set to
    ``SIG_IGN`` as well: while the interpreter shuts down it puts back the
    default action of every signal that has a Python handler (``SIG_IGN``
    excepted), and a Ctrl-C in that window would end a finished command
    with status -2 instead of its own.
    """
    _state["phase"] = "exiting"
    try:
        if signal.getsignal(signal.SIGINT) is _handler:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (ValueError, OSError):  # not the main thread
        pass


def hold() -> None:
    """The workspace writer lock was taken: defer interrupts until :func:`release`."""
    _state["held"] += 1


def release(deliver: bool = True) -> None:
    """The writer lock was released (``deliver``: normally; False: an error is on its way out).

    Raises:
        KeyboardInterrupt: an interrupt was deferred and nothing was written
            under the lock (so the command stops now, having changed nothing).
    """
    _state["held"] = max(0, _state["held"] - 1)
    if deliver and not _state["held"] and _state["pending"] and not _state["changed"] \
            and _state["phase"] == "running":
        _state["pending"] = False
        raise KeyboardInterrupt


def changed() -> None:
    """A file of the workspace was written: from now on the command finishes rather than stops."""
    _state["changed"] = True


def nothing_changed() -> bool:
    """True while this process has written nothing to a workspace (what an interrupt may then say)."""
    return not _state["changed"]


def pending() -> bool:
    """True when an interrupt was deferred (the change under way was finished)."""
    return _state["pending"]
