#!/usr/bin/env python3
"""hook.py: the one entry point the OpenClaw hook handlers call, event JSON on stdin."""
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702

# The logic lives in memory_manager/hookrun.py (standard library only, cached
# bytecode); see its docstring for the stdout protocol and the events.
from memory_manager.hookrun import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
