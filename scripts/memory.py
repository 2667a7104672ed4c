#!/usr/bin/env python3
"""memory.py: write, read, recall and maintain the memory store (a click group)."""
# First of all (the builtin _signal: the signal module imports enum, tens of ms): a Ctrl-C while
# starting up changes nothing and says so; memory_manager.interrupts takes over below.
import _signal, os, sys  # noqa: E401
_signal.signal(_signal.SIGINT, lambda *_: (os.write(*((1, b'{"error": "interrupted: nothing was changed", "kind": "interrupted"}\n') if "--json" in sys.argv else (2, b"interrupted: nothing was changed\n"))), os._exit(130))) \
    if __name__ == "__main__" else None  # a test harness importing the script keeps its own handler
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.interrupts import install; install() if __name__ == "__main__" else None  # noqa: E702
from memory_manager.deps import require; require()  # noqa: E702

import click  # noqa: E402

from memory_manager import __version__  # noqa: E402
from memory_manager.cli import group_options, pass_to_verbs, run  # noqa: E402

# scripts/ is on sys.path (Python puts the script's own folder first), so the verb modules import by name.
import _recall_cmds  # noqa: E402
import _report_cmds  # noqa: E402
import _store_cmds  # noqa: E402


@click.group(help="Write, read, recall and maintain the agent's memory.")
@click.version_option(__version__, "--version", prog_name="complex-memory-manager")
@group_options
@click.pass_context
def memory(ctx: click.Context, workspace, json_) -> None:
    pass_to_verbs(ctx, workspace, json_)


# The verbs, in plain sight: store (_store_cmds), recall (_recall_cmds) and report (_report_cmds).
# A missing or broken module fails here, loudly, instead of hiding its verbs.
for _command in (*_store_cmds.COMMANDS, *_recall_cmds.COMMANDS, *_report_cmds.COMMANDS):
    memory.add_command(_command)

if __name__ == "__main__":
    run(memory)
