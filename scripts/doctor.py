#!/usr/bin/env python3
"""doctor.py: check the installation and say what to fix (exit 1 when something is wrong)."""
# First of all (the builtin _signal: the signal module imports enum, tens of ms): a Ctrl-C while
# starting up changes nothing and says so; memory_manager.interrupts takes over below.
import _signal, os, sys  # noqa: E401
_signal.signal(_signal.SIGINT, lambda *_: (os.write(*((1, b'{"error": "interrupted: nothing was changed", "kind": "interrupted"}\n') if "--json" in sys.argv else (2, b"interrupted: nothing was changed\n"))), os._exit(130))) \
    if __name__ == "__main__" else None  # a test harness importing the script keeps its own handler
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.interrupts import install; install() if __name__ == "__main__" else None  # noqa: E702

# doctor must still report when dependencies are missing, so it checks them
# itself instead of calling deps.require() first (which would exit 2).
from memory_manager import deps  # noqa: E402

deps.use_bundle_venv()  # the packages may be in the bundle's venv (as every other script finds them)
if deps.missing() and ("--help" in sys.argv[1:] or "-h" in sys.argv[1:]):
    deps.help_without_packages()  # the README: --help works without the packages
if deps.missing():
    _absent = ", ".join(deps.missing())
    _fix = " ".join(deps.install_command())
    if "--json" in sys.argv[1:]:  # the --json contract holds here too
        import json

        sys.stdout.write(json.dumps({"ok": False, "checks": [{"name": "dependencies", "status": "fail",
                                     "detail": f"missing: {_absent}", "fix": _fix}]}, allow_nan=False) + "\n")
    sys.stderr.write(f"✗ Python packages missing: {_absent}\n  fix: {_fix}\n")
    raise SystemExit(1)

import click  # noqa: E402

from memory_manager import BUNDLE_ROOT  # noqa: E402
from memory_manager.cli import common_options, emit_json, handle_errors, run, stdout, unechoed_doc  # noqa: E402
from memory_manager.doctor import diagnose  # noqa: E402


@click.command(help="Check Python, dependencies, OpenClaw, the skill and its hooks, the workspace, the config "
                    "and the memory tree; print what to fix. Exit 0: nothing broken ('all good', or 'N warnings' "
                    "when some ! lines are worth a look); exit 1: something is broken (✗ lines).")
@click.option("--no-openclaw", is_flag=True, help="Do not run the openclaw command (offline checks only).")
@common_options
@handle_errors
def doctor(workspace, json_, verbose, no_openclaw):
    # The checks name --workspace's folder: a secret typed there is masked (issue 10, atk15).
    result = unechoed_doc(diagnose(workspace, BUNDLE_ROOT, use_openclaw=not no_openclaw))
    if json_:
        emit_json(result)
    else:
        marks = {"ok": "[green]✓[/green]", "warn": "[yellow]![/yellow]", "fail": "[red]✗[/red]"}
        for check in result["checks"]:
            stdout.print(f"{marks[check['status']]} {check['name']}: ", end="")
            stdout.print(check["detail"], markup=False)
            if check.get("fix") and check["status"] != "ok":
                stdout.print("    fix: ", end="")
                stdout.print(check["fix"], markup=False)
        warned = result["warnings"]
        plural = "warning" if warned == 1 else "warnings"
        if not result["ok"]:
            stdout.print("[red]something needs fixing (see fix: lines)[/red]"
                         + (f"; {warned} {plural}" if warned else ""))
        elif warned:
            stdout.print(f"[yellow]nothing broken; {warned} {plural} (see ! lines)[/yellow]")
        else:
            stdout.print("[green]all good[/green]")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    run(doctor)
