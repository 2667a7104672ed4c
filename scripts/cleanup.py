#!/usr/bin/env python3
"""cleanup.py: the 7-day memory cleanup (purge PII, archive, merge, compact, prune, retention)."""
# First of all (the builtin _signal: the signal module imports enum, tens of ms): a Ctrl-C while
# starting up changes nothing and says so; memory_manager.interrupts takes over below.
import _signal, os, sys  # noqa: E401
_signal.signal(_signal.SIGINT, lambda *_: (os.write(*((1, b'{"error": "interrupted: nothing was changed", "kind": "interrupted"}\n') if "--json" in sys.argv else (2, b"interrupted: nothing was changed\n"))), os._exit(130))) \
    if __name__ == "__main__" else None  # a test harness importing the script keeps its own handler
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.interrupts import install; install() if __name__ == "__main__" else None  # noqa: E702
from memory_manager.deps import require; require()  # noqa: E702

import click  # noqa: E402
from rich.progress import Progress  # noqa: E402

from memory_manager import messages  # noqa: E402
from memory_manager.cleanup import run_cleanup  # noqa: E402
from memory_manager.cli import common_options, open_workspace, emit_json, handle_errors, print_rows, rerun_note, run, stderr, \
    stdout, unechoed  # noqa: E402

STEPS = ["scan", "purge", "archive", "merge", "compact", "memory-md", "prune", "retention", "log"]


@click.command(help="Run the 7-day cleanup: purge T2 entries holding PII, archive expired T2 entries, merge "
                    "duplicates, compact T2 files, prune, and list (or purge) old archives. Everything changed "
                    "is backed up first (init.py --restore undoes it), except purged PII.")
@common_options
@click.option("--dry-run", is_flag=True, help="List what would be done; change nothing.")
@click.option("--if-due", is_flag=True, help="Do nothing unless the cleanup interval (7 days) has passed.")
@click.option("--purge-archive", is_flag=True, help="Delete archives past the retention period (90 days).")
@click.option("--approved", is_flag=True, help="The user approved removing MEMORY.md's duplicate lines.")
@handle_errors
def cleanup(workspace, json_, verbose, dry_run, if_due, purge_archive, approved) -> int:
    opened = open_workspace(workspace, verbose)
    show_bar = not json_ and stderr.is_terminal
    with Progress(console=stderr, transient=True, disable=not show_bar) as bar:
        task = bar.add_task("cleanup", total=len(STEPS))

        def progress(step: str) -> None:
            bar.update(task, advance=1, description=f"cleanup: {step}")

        report = run_cleanup(opened.root, opened.config, dry_run=dry_run, if_due=if_due, purge_archive=purge_archive,
                             approved=approved, progress=progress)
    if json_:
        # the folder masked as in every other line (tatk20 2: a token in -w was printed in full here)
        emit_json({"workspace": unechoed(str(opened.root)), **report.as_dict()})
        return 0
    lang = opened.config["language"]  # the workspace's language, zh or en (r9, item 4)

    def say(key: str, **values) -> str:
        return messages.say(lang, key, **values)

    if not report.ran:
        stdout.print(say("cleanup.not_due", last=report.last_run), markup=False)
        return 0
    if report.actions:
        rows = [(action.step, action.path + (f" → {action.target}" if action.target else ""), action.detail)
                for action in report.actions]
        print_rows(say("cleanup.title_dry") if dry_run else say("cleanup.title"),
                   [say("cleanup.col.step"), say("cleanup.col.path"), say("cleanup.col.detail")], rows, whole=(1,))
    for problem in report.problems:
        stderr.print(f"warning: {problem}", markup=False)
    if report.kept_only_copy:
        kept = report.kept_only_copy
        files = sorted({path for paths in kept.values() for path in paths})
        stdout.print(messages.say(lang, "cleanup.kept_only_copy", len(kept), ids=", ".join(kept),
                                  files=", ".join(files)), markup=False)
    # The log file keeps the seed's English line (report.log_line); the screen says it in the user's language.
    summary = say("cleanup.summary", date=report.log_line[1:11], archived=report.archived, deleted=report.deleted,
                  merged=report.merged) if lang == "zh" else report.log_line
    stdout.print(summary + (say("cleanup.dry_tail") if dry_run else ""), markup=False)
    if report.backup:
        init_py = pathlib.Path(__file__).resolve().parent / "init.py"
        # The folder masked as in every other line (a token in it never shows), with a note when it is.
        stdout.print(unechoed(say("cleanup.backup", id=report.backup,
                                  cmd=f"{sys.executable} {init_py} -w {opened.root} --restore {report.backup} --yes"))
                     + rerun_note(opened.root), markup=False)
    return 0


if __name__ == "__main__":
    run(cleanup)
