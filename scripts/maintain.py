#!/usr/bin/env python3
"""maintain.py: the heavier upkeep the hooks start detached after a turn or a session."""
# First of all (the builtin _signal: the signal module imports enum, tens of ms): a Ctrl-C while
# starting up changes nothing and says so; memory_manager.interrupts takes over below.
import _signal, os, sys  # noqa: E401
_signal.signal(_signal.SIGINT, lambda *_: (os.write(*((1, b'{"error": "interrupted: nothing was changed", "kind": "interrupted"}\n') if "--json" in sys.argv else (2, b"interrupted: nothing was changed\n"))), os._exit(130))) \
    if __name__ == "__main__" else None  # a test harness importing the script keeps its own handler
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.interrupts import install; install() if __name__ == "__main__" else None  # noqa: E702

# The upkeep itself is memory_manager.upkeep (its docstring lists the steps);
# this front end checks the workspace and the packages, runs it and logs.
# Exit 0 when every step succeeded, 1 otherwise, 2 for a bad workspace or
# missing packages. Started detached by the hooks (memory_manager.hookrun).

import argparse  # noqa: E402
import time  # noqa: E402

from memory_manager import __version__, tree  # noqa: E402
from memory_manager.deps import install_command, missing  # noqa: E402
from memory_manager.errors import MemoryManagerError  # noqa: E402
from memory_manager.workspace import Workspace, is_set_up  # noqa: E402


#: The arguments of this run (``main``'s ``argv``): a note naming one of them masks a secret in it.
_ARGV: list[str] = []


def note(message: str) -> None:
    """Log one line to stderr, with a secret in ``--workspace`` (or a folder the environment names) masked.

    The workspace is named in notes and errors; a token pasted as its path, or in the folder
    OPENCLAW_WORKSPACE_DIR names, is never echoed (issue 10, atk15; tatk17 kind 6). The detector is
    imported only when the note holds such a value.
    """
    from memory_manager.workspace import echoed_values

    if any(v in message for v in echoed_values(_ARGV)):
        from memory_manager.privacy import unechoed

        message = unechoed(message, _ARGV)
    sys.stderr.write(f"maintain: {message}\n")


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors never echo a secret pasted into an argument (issue 10, atk13)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        from memory_manager.privacy import unechoed

        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {unechoed(message, sys.argv[1:])}\n")


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="maintain.py", description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", "-w", required=True)
    parser.add_argument("--event", default="manual", help="The hook event that started this run (logged).")
    parser.add_argument("--only", choices=["cleanup"], help="Run only this step.")
    parser.add_argument("--version", action="version", version=f"complex-memory-manager, version {__version__}")
    args = parser.parse_args(argv)
    _ARGV[:] = sys.argv[1:] if argv is None else [str(a) for a in argv]
    ws = pathlib.Path(args.workspace)
    if not ws.is_dir():
        from memory_manager.privacy import mask

        note(f"workspace {mask(str(ws))} is not a directory")
        return 2
    if not is_set_up(ws):
        # Fail open like the hooks that start us: never create memory/ (its
        # indexes, .state, .cache) or .memory-backup/ in a folder init.py did
        # not set up.
        note(f"{ws} is not set up (no {tree.MEMORY}/ folder inside it; run init.py); nothing done")
        return 0
    note(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} start ({args.event})")
    absent = missing()
    if absent:
        # The hook runs whatever python3 is on the Gateway's PATH; without the
        # bundle's packages nothing here can run safely (no lock, no crypto).
        note(f"skipped everything: missing Python packages {', '.join(absent)}; "
             f"install them with: {' '.join(install_command())}")
        return 2
    # Imported only now: it needs those packages (the modules above are standard library only).
    from memory_manager import upkeep

    try:
        ok = upkeep.run(Workspace(ws, rule="--workspace"), note, args.only)
    except MemoryManagerError as exc:
        note(f"error: {exc}")
        return exc.exit_code
    except Exception as exc:  # noqa: BLE001 - detached: a traceback helps nobody in a log
        note(f"failed: {exc.__class__.__name__}: {exc}")
        return 1
    note(f"done ({'ok' if ok else 'with errors'})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
