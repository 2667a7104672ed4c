#!/usr/bin/env python3
"""detect.py: how full is a session's context? Prints the Memory Master status line."""
# First of all (the builtin _signal: the signal module imports enum, tens of ms): a Ctrl-C while
# starting up changes nothing and says so; memory_manager.interrupts takes over below.
import _signal, os, sys  # noqa: E401
_signal.signal(_signal.SIGINT, lambda *_: (os.write(*((1, b'{"error": "interrupted: nothing was changed", "kind": "interrupted"}\n') if "--json" in sys.argv else (2, b"interrupted: nothing was changed\n"))), os._exit(130))) \
    if __name__ == "__main__" else None  # a test harness importing the script keeps its own handler
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.interrupts import install; install() if __name__ == "__main__" else None  # noqa: E702

# Standard library only (argparse, not click): this runs on every agent turn, so
# a missing package must never silence it and it must start fast.
#
# Exit codes: 0 measured (or usage unknown, which is said, not guessed);
# 1 the named session does not exist; 2 bad input (options, stdin JSON, config,
# a --workspace that is not a folder).

import argparse  # noqa: E402
import json  # noqa: E402

from memory_manager import __version__  # noqa: E402
from memory_manager import context  # noqa: E402
from memory_manager.errors import BadInputError, MemoryManagerError  # noqa: E402


class _Parser(argparse.ArgumentParser):
    """argparse with exit 2 and one line (and a JSON document under --json)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # A secret pasted into an argument is never echoed back (issue 10, atk13).
        from memory_manager.privacy import unechoed

        message = unechoed(message, sys.argv[1:])
        if "--json" in sys.argv[1:]:
            sys.stdout.write(json.dumps({"error": message, "kind": "usage"}, allow_nan=False) + "\n")
        else:
            sys.stderr.write(f"error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="detect.py", description="Report how full a session's context window is and print "
                     "the status line at 50/70/85 % (thresholds from config.json).")
    parser.add_argument("--workspace", "-w", help="Workspace folder (for its config override and language).")
    parser.add_argument("--json", dest="json_", action="store_true", help="Print exactly one JSON document.")
    parser.add_argument("--version", action="version", version=f"complex-memory-manager, version {__version__}")
    parser.add_argument("--agent", help="OpenClaw agent id (default: from the session key, else main).")
    parser.add_argument("--session", help="Session key, e.g. agent:main:main (default: the most recent).")
    parser.add_argument("--stdin", action="store_true", help="Read a hook event (JSON) on stdin.")
    parser.add_argument("--state-dir", help="OpenClaw state folder (default: OPENCLAW_STATE_DIR, ~/.openclaw).")
    return parser


def load_cfg(workspace: str | None, event: dict | None) -> dict:
    """Config of the resolved workspace; shipped defaults when no workspace is found.

    An explicit ``--workspace`` that is missing is bad input; an implicit one
    that is missing just means nobody ran ``init`` there yet.
    """
    from memory_manager.config import load_config
    from memory_manager.errors import WorkspaceError
    from memory_manager.workspace import Workspace

    try:
        return Workspace.open(workspace, event=event).config
    except WorkspaceError:
        if workspace:
            raise
        return load_config(None)


def run(args: argparse.Namespace) -> tuple[int, dict]:
    """Measure and build the result document; returns (exit code, document)."""
    event = None
    if args.stdin:
        raw = sys.stdin.read()
        try:
            event = json.loads(raw) if raw.strip() else {}
        except ValueError as exc:
            raise BadInputError(f"stdin is not JSON ({exc})") from None
        if not isinstance(event, dict):
            raise BadInputError("stdin must hold a JSON object (a hook event)")
    for agent in (args.agent, context.agent_of(args.session) if args.session else None):
        if agent is not None and not context.valid_agent_id(agent):
            raise BadInputError(f"{context.shown_id(agent)!r} is not an OpenClaw agent id (letters, digits, '_' and '-')")
    cfg = load_cfg(args.workspace, event)
    state = pathlib.Path(args.state_dir) if args.state_dir else None
    if state is not None and not state.is_dir():
        # An explicit option naming nothing is bad input, as --workspace is (nu16 item 3): a typo in
        # it must not read as "usage unknown" with exit 0.
        raise BadInputError(f"--state-dir {args.state_dir}: no such folder")
    session = args.session
    usage = None
    if event is not None:
        usage, key = context.from_event(event)
        session = session or key
        if usage is not None and not usage.window:
            usage = None  # token counts without a window: measure the store instead
        if session == "unknown":
            session = None
    if usage is None:
        usage = context.measure(agent=args.agent, session_key=session, state=state)
    doc = usage.to_dict(cfg)
    doc["status_line"] = context.status_line(usage, cfg)
    doc["summary"] = context.describe(usage, cfg)
    code = 0
    missing = [n for n in usage.notes if n.startswith("no session ")]
    if (args.session or args.agent) and usage.session_id is None and missing:
        # A session or an agent the user named that the state folder does not have: not found (exit 1),
        # the one for the other (nu16 item 3b).
        doc["error"] = f"no session {context.shown_id(args.session)}" if args.session else missing[0]
        doc["kind"] = "not_found"
        code = 1
    return code, doc


def _typed(argv: list[str]) -> list[str]:
    """The values typed on the command line and the folders the environment names, at least 4 characters.

    An ``--opt=value``'s value counts too; OPENCLAW_STATE_DIR, OPENCLAW_WORKSPACE_DIR and the
    other path variables are echoed as the options are (tatk17 kind 6).
    """
    from memory_manager.workspace import echoed_values

    return echoed_values(argv)


def unechoed(value: object, argv: list[str]) -> object:
    """``value`` (a string, or a document of lists and dicts) with every typed value holding a secret masked.

    ``--state-dir`` and ``--workspace`` come back in notes, the summary and
    errors (``no session store for agent main in PATH``), and a token pasted as
    a path is never echoed (issue 10, attack round 15):
    :func:`memory_manager.privacy.unechoed`, as the usage errors and every
    click script do. The detector is imported only when a typed value is
    shown: the per-turn run (no options, or ``--stdin``) stays standard library only.
    """
    from memory_manager.jsonio import map_strings

    typed = _typed(argv)

    def masked(text: str) -> str:
        if not any(v in text or repr(v)[1:-1] in text for v in typed):
            return text
        from memory_manager.privacy import unechoed as _unechoed

        return _unechoed(text, argv)

    return map_strings(value, masked)


def _error(args: argparse.Namespace, message: str, kind: str, argv: list[str] | None = None) -> None:
    # A path or id typed in an option and named by the error is masked (issue 10, attack round 15:
    # ``-w`` naming a folder that does not exist echoed a token pasted as the path).
    message = unechoed(" ".join(message.split()), sys.argv[1:] if argv is None else argv)
    if args.json_:
        sys.stdout.write(json.dumps({"error": message, "kind": kind}, ensure_ascii=False, allow_nan=False) + "\n")
    else:
        sys.stderr.write(f"error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv  # the guard's switch, as in memory_manager.cli (no click here)
    args = build_parser().parse_args([a for a in argv if a != "--debug"])
    try:
        code, doc = run(args)
        doc = unechoed(doc, argv)  # notes, summary and error may name a typed path (--state-dir)
        text = json.dumps(doc, ensure_ascii=False, indent=2, allow_nan=False) if args.json_ else None
    except MemoryManagerError as exc:
        _error(args, str(exc) or exc.kind, exc.kind, argv)
        return exc.exit_code
    except Exception as exc:  # noqa: BLE001 - the top-level guard: one line, never a traceback
        if debug:
            import traceback

            traceback.print_exc()
        _error(args, f"unexpected {exc.__class__.__name__}: {exc}" + ("" if debug else " (run with --debug for "
                                                                          "the traceback)"), "internal", argv)
        return 1
    if args.json_:
        sys.stdout.write(text + "\n")
    elif code:
        sys.stderr.write(f"error: {doc['error']}\n")
    else:
        sys.stdout.write(doc["summary"] + "\n")
        if doc["status_line"]:
            sys.stdout.write(doc["status_line"] + "\n")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
