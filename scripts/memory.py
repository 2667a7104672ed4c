#!/usr/bin/env python3
"""memory.py: write, read, recall and maintain the memory store (a click group)."""
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.deps import require; require()  # noqa: E702

import click  # noqa: E402

from memory_manager import __version__  # noqa: E402
from memory_manager.cli import run  # noqa: E402


@click.group(help="Write, read, recall and maintain the agent's memory.")
@click.version_option(__version__, "--version", prog_name="complex-memory-manager")
def memory() -> None:
    pass


def _register() -> None:
    """Attach the verbs: store (_store_cmds), recall (_recall_cmds) and report (_report_cmds)."""
    import importlib

    for module_name in ("_store_cmds", "_recall_cmds", "_report_cmds"):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        for command in module.COMMANDS:
            memory.add_command(command)


_register()

if __name__ == "__main__":
    run(memory)
