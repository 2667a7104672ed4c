#!/usr/bin/env python3
"""privacy_audit.py: run the privacy checklist over the memory tree and MEMORY.md.

Exit: 0 clean, 1 findings or an unreadable (not fully checked) file, 2 bad input.
T2 entries without their key and topic notices are listed, exit unchanged.
"""
# First of all (the builtin _signal: the signal module imports enum, tens of ms): a Ctrl-C while
# starting up changes nothing and says so; memory_manager.interrupts takes over below.
import _signal, os, sys  # noqa: E401
_signal.signal(_signal.SIGINT, lambda *_: (os.write(*((1, b'{"error": "interrupted: nothing was changed", "kind": "interrupted"}\n') if "--json" in sys.argv else (2, b"interrupted: nothing was changed\n"))), os._exit(130))) \
    if __name__ == "__main__" else None  # a test harness importing the script keeps its own handler
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.interrupts import install; install() if __name__ == "__main__" else None  # noqa: E702
from memory_manager.deps import require; require()  # noqa: E702

from pathlib import Path  # noqa: E402

import click  # noqa: E402
from rich.table import Table  # noqa: E402
from rich.text import Text  # noqa: E402

from memory_manager.audit import AuditReport, audit_workspace, record_last  # noqa: E402
from memory_manager import messages  # noqa: E402
from memory_manager.cli import common_options, open_workspace, emit_json, handle_errors, run, stdout, \
    unechoed  # noqa: E402


def render(report: AuditReport, lang: str = "en") -> None:
    """Print ``report`` for a person: checklist, findings table, notices, unreadable entries, warnings.

    ``lang``: the workspace's language (zh/en) for the checklist and the summary (r9, item 4);
    the findings themselves (categories, rules, excerpts) are shown as the detector names them.
    """
    def say(key: str, count: int | None = None, **values) -> str:
        return messages.say(lang, key, count, **values)

    checks = Table(title=say("audit.checklist"), show_lines=False)
    checks.add_column(say("audit.col.check"))
    checks.add_column(say("audit.col.result"))
    checks.add_column(say("audit.col.findings"), justify="right")
    checks.add_column(say("audit.col.approved"), justify="right")
    looks = {"ok": (say("audit.result.ok"), "green"), "fail": (say("audit.result.fail"), "bold red"),
             "approved": (say("audit.result.approved"), "yellow")}
    for row in report.check_results():
        label, style = looks[row["status"]]
        title = say(f"audit.check.{row['id']}") if lang == "zh" else row["title"]
        checks.add_row(Text(title), Text(label, style=style), str(row["findings"]), str(row["approved"]))
    stdout.print(checks)
    if report.findings:
        table = Table(title="Findings")
        for column in ("file", "line", "check", "category", "rule", "excerpt"):
            table.add_column(column, justify="right" if column == "line" else "left", no_wrap=True)
        for item in report.findings:
            file = item.file + (" (decrypted)" if item.decrypted else "")
            table.add_row(Text(file), "" if item.line is None else str(item.line), item.check, item.category,
                          item.rule, Text(item.excerpt))
        # Never cut a cell (issue 14: "memory/2026-1…" names no file): when the table
        # does not fit the line, one plain line per finding instead.
        rows = [(item.file + (" (decrypted)" if item.decrypted else ""), "" if item.line is None else str(item.line),
                 item.check, item.category, item.rule, item.excerpt) for item in report.findings]
        widths = [max([len(h)] + [Text(row[i]).cell_len for row in rows])
                  for i, h in enumerate(("file", "line", "check", "category", "rule", "excerpt"))]
        if sum(widths) + 3 * len(widths) + 1 <= stdout.width:
            stdout.print(table)
        else:
            stdout.print("Findings", markup=False)
            for file, line, check, category, rule, excerpt in rows:
                stdout.print(f"  {file}{':' + line if line else ''}  {check}  {category}  {rule}  {excerpt}",
                             markup=False)
    if report.approved_items:
        stdout.print(Text(say("audit.approved_head", len(report.approved_items))))
        for item in report.approved_items:
            stdout.print(Text(f"  {item.file}:{item.line} {item.category}: {item.excerpt}"))
    if report.topic_notices:
        stdout.print(Text(say("audit.topics_head", len(report.topic_notices))))
        for item in report.topic_notices:
            stdout.print(Text(f"  {item.file}:{item.line} {item.category}: {item.excerpt}"))
    for row in report.unreadable:
        stdout.print(Text(f"not checked (cannot read Tier 2 entry): {row['file']}: {row['reason']}"))
    for row in report.unread_files:
        stdout.print(Text(f"NOT CHECKED: {row['file']}: {row['reason']}", style="bold red"))
    for row in report.skipped:
        stdout.print(Text(f"skipped: {row['file']}: {row['reason']}"))
    for warning in report.warnings:
        stdout.print(Text("warning: " + warning, style="yellow"))
    verdict = say("audit.clean") if report.clean else say("audit.findings", len(report.findings)) + (
        say("audit.unread", len(report.unread_files)) if report.unread_files else "")
    if report.clean and report.approved_items:
        verdict = say("audit.clean_but", len(report.approved_items))
    stdout.print(Text(say("audit.summary", files=report.files_scanned, decrypted=report.t2_decrypted,
                          total=report.t2_entries, verdict=verdict)))


@click.command(help="Audit the memory tree and MEMORY.md against the privacy checklist "
                    "(exit 0 clean, 1 findings or unreadable files, 2 bad input). In a set-up "
                    "workspace the summary is kept for the report's Health section.")
@common_options
@handle_errors
def main(workspace: Path | None, json_: bool, verbose: bool) -> int:
    opened = open_workspace(workspace, verbose)
    report = audit_workspace(opened.root, opened.config)
    record_last(opened.root, report)  # the HTML report's Health section reads it (memory.py report)
    if json_:
        doc = report.to_json()
        if "workspace" in doc:  # the folder masked as in every other line (tatk20 2)
            doc["workspace"] = unechoed(doc["workspace"])
        emit_json(doc)
    else:
        render(report, opened.config["language"])
    return 0 if report.clean else 1


if __name__ == "__main__":
    run(main)
