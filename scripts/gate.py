#!/usr/bin/env python3
"""gate.py: ask the memory gate (AANA seed) about one memory operation."""
# First of all (the builtin _signal: the signal module imports enum, tens of ms): a Ctrl-C while
# starting up changes nothing and says so; memory_manager.interrupts takes over below.
import _signal, os, sys  # noqa: E401
_signal.signal(_signal.SIGINT, lambda *_: (os.write(*((1, b'{"error": "interrupted: nothing was changed", "kind": "interrupted"}\n') if "--json" in sys.argv else (2, b"interrupted: nothing was changed\n"))), os._exit(130))) \
    if __name__ == "__main__" else None  # a test harness importing the script keeps its own handler
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.interrupts import install; install() if __name__ == "__main__" else None  # noqa: E702
from memory_manager.deps import require; require()  # noqa: E702

# Prints the seed's gate block (``--json``: the seed's review-payload field
# names). Exit 0 when the decision is ``proceed``; 1 for refusals, approval
# requests and every other hold (the block says why); 2 for bad input.
# The decision is appended to the workspace's redacted audit log when the
# workspace exists.

import click  # noqa: E402

from memory_manager import gate  # noqa: E402
from memory_manager.cli import common_options, emit_json, handle_errors, open_workspace, run, stdout  # noqa: E402


@click.command(help="Ask the memory gate about one memory operation; exit 1 unless it may proceed.")
@click.option("--operation", required=True, type=click.Choice(gate.OPERATIONS), help="The memory operation.")
@click.option("--text", required=True, help="The memory content (- reads stdin).")
@click.option("--source", type=click.Choice(gate.SOURCES), default="unknown", show_default=True,
              help="Where the content came from.")
@click.option("--sensitivity", type=click.Choice(gate.SENSITIVITIES), default=None,
              help="Known sensitivity; it can only raise what the content shows.")
@click.option("--tier", type=click.Choice(["public", "internal"]), default=None, help="The memory's tier.")
@click.option("--request", default=None, help="The user's request, in a few words.")
@click.option("--approved", is_flag=True, help="The user explicitly approved this operation.")
@common_options
@handle_errors
def main(operation, text, source, sensitivity, tier, request, approved, workspace, json_, verbose):
    opened = open_workspace(workspace, verbose, must_exist=False)
    ws = opened.root if opened.root.is_dir() else None
    cfg = opened.config
    body = sys.stdin.read() if text == "-" else text
    decision = gate.evaluate(operation, body, source=source, sensitivity=sensitivity, approved=approved,
                             cfg=cfg, tier=tier, request=request)
    if ws is not None:
        from memory_manager.fsio import workspace_lock

        with workspace_lock(ws):
            gate.record(ws, decision)
    if json_:
        emit_json(decision.payload())
    else:
        stdout.print(decision.block(), markup=False)
    return 0 if decision.allowed else 1


if __name__ == "__main__":
    run(main)
