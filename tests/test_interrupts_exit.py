"""A finished command ignores Ctrl-C while Python shuts down (memory_manager.interrupts.exiting)."""
from __future__ import annotations

import signal
import subprocess
import sys

from conftest import ROOT

CODE = """
import signal, sys
sys.path.insert(0, {root!r})
from memory_manager import interrupts
interrupts.install([])
assert signal.getsignal(signal.SIGINT) is interrupts._handler
interrupts.running()
interrupts.exiting()
assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
import os
os.kill(os.getpid(), signal.SIGINT)  # ignored: the process ends with its own status
print("done")
sys.exit(3)
"""


def test_exiting_sets_sigint_to_ignore_where_the_scripts_handler_is_installed():
    proc = subprocess.run([sys.executable, "-c", CODE.format(root=str(ROOT))], capture_output=True, text=True,
                          timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, "done\n", "")


def test_exiting_leaves_a_handler_that_is_not_the_scripts_own():
    code = CODE.format(root=str(ROOT)).replace("interrupts.install([])\n", "").replace(
        "assert signal.getsignal(signal.SIGINT) is interrupts._handler\n", "").replace(
        "assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN\n",
        "assert signal.getsignal(signal.SIGINT) is signal.default_int_handler\n").replace(
        "os.kill(os.getpid(), signal.SIGINT)  # ignored: the process ends with its own status\n", "")
    # Started as from a shell: a suite run in the background (``cmd &`` without job control)
    # ignores SIGINT, and an ignored signal survives exec, so Python would not install its handler.
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, "done\n", "")
