"""Report verb of ``memory.py``: ``report`` (a thin click front end).

The domain logic lives in :mod:`memory_manager.report` (gathering, writing)
and :mod:`memory_manager.report_render` (the page and its charts, the only
importer of the optional Jinja2/matplotlib extra).
"""
from __future__ import annotations

from pathlib import Path

import click

from memory_manager import tree
from memory_manager.cli import common_options, counted, emit_json, handle_errors, open_workspace, stderr, stdout


@click.command("report")
@click.option("--html", "html", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"Write the page here (default: {tree.rel(tree.CACHE, tree.REPORT)}).")
@click.option("--days", type=click.IntRange(1, 3650), default=30, show_default=True,
              help="Days of daily notes in the timeline, ending today.")
@click.option("--approved", is_flag=True,
              help=f"The user approved showing T2 (internal) entries: decrypted in memory, written only to "
                   f"the --html FILE you name, outside {tree.MEMORY}/.")
@click.option("--overwrite", is_flag=True,
              help="Replace the --html FILE even when it exists and is not a previous report "
                   "(never a file inside the workspace).")
@click.option("--open", "open_", is_flag=True, help="Open the page in the default browser afterwards.")
@common_options
@handle_errors
def report_cmd(html: Path | None, days: int, approved: bool, overwrite: bool, open_: bool, workspace: Path | None, json_: bool,
               verbose: bool) -> int:
    """Write a private, offline HTML report: timeline, knowledge, tiers, context usage, health.

    One self-contained file (mode 0600) that loads nothing from the network;
    every entry's text is masked as in recall. Needs the report extra
    (Jinja2, matplotlib): without it, exit 1 with the command that installs it.
    """
    import gc

    # A report of 10,000 entries builds about a million dicts, lists and placeholders that all
    # live until the page is written: Python's cyclic garbage collector walked them again and
    # again and freed nothing (0.2-0.3 s of CPU, issue 15, round 10). Off for the command (and
    # the children it forks, which inherit it); reference counting still frees the rest.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _report(html, days, approved, overwrite, open_, workspace, json_, verbose)
    finally:
        if collecting:
            gc.enable()


def _report(html: Path | None, days: int, approved: bool, overwrite: bool, open_: bool, workspace: Path | None,
            json_: bool, verbose: bool) -> int:
    from memory_manager.deps import require_report
    from memory_manager.report import make, target_path

    opened = open_workspace(workspace, verbose, set_up=True)
    target = target_path(opened, html, approved, overwrite)  # bad --html / --approved: exit 2 before any work
    require_report()
    from memory_manager.report_render import Pages, private_config, start_charts

    private_config(opened)  # before matplotlib is imported (preload, the chart child)
    # The chart child imports matplotlib while this process gathers, and draws while the text is
    # masked; this process fills the template while a masking child works (without a chart
    # child, one core or no fork, it imports matplotlib then too).
    charts = start_charts()
    pages = Pages(charts)
    try:
        model, size, untracked = make(opened, target, pages.render, days=days, approved=approved,
                                      meanwhile=pages.meanwhile, gathered=pages.gathered)
    finally:
        if charts is not None:
            charts.cancel()  # reaps a child whose data never came (an error before the page was drawn)
    for old in untracked:
        stderr.print(f"warning: {old} (an older report) is no longer recorded: a later forget will not delete it; "
                     "delete it yourself if it is no longer needed", markup=False)
    if json_:
        emit_json({"path": str(target), "bytes": size, "days": days, "approved": approved,
                   "counts": model.counts, "problems": model.problems, "untracked": untracked})
    else:
        c = model.counts
        stdout.print(f"report written to {target} ({size:,} bytes): {c['daily']} daily and {c['openclaw']} "
                     f"OpenClaw entries in {days} days, {c['knowledge']} knowledge, {counted(c['t1_skills'], 'T1 skill')}, "
                     + counted(c['t2'], 'T2 entry', 'T2 entries') + (f" ({c['t2_shown']} shown)" if approved else "")
                     + f", {counted(c['sessions'], 'session')}", markup=False)
        for problem in model.problems:
            stderr.print(f"warning: {problem}", markup=False)
    if open_:
        import webbrowser

        if not webbrowser.open(target.resolve().as_uri()):
            stderr.print(f"warning: no browser could be started; open {target} yourself", markup=False)
    return 0


COMMANDS = [report_cmd]
