"""Store verbs of ``scripts/memory.py``: write, learn, event, stats, remember, show, forget, export, import.

Each verb is a thin click front end over :mod:`memory_manager.store` and
:mod:`memory_manager.transfer`. Exit codes: 0 done; 1 a domain error or the
memory gate held/refused the operation (one ``error:`` line saying why; the
gate block with ``--verbose``/``--debug``, its payload under ``--json``); 2 bad input. ``--json`` prints exactly one JSON document.
"""
from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any, Callable

import click

from memory_manager import gate as gate_mod, tree
from memory_manager.cli import common_options, counted, open_workspace, emit_json, handle_errors, stderr, stdout
from memory_manager.errors import BadInputError, GateDecisionError


def _context(workspace: Path | None, verbose: bool, writes: bool = True) -> tuple[Path, dict[str, Any]]:
    """The workspace and its config.

    A writing verb refuses (exit 2) a folder named with ``-w`` that holds no
    workspace files (a typo would otherwise grow a memory tree there
    unnoticed). A folder chosen by OPENCLAW_WORKSPACE_DIR or OpenClaw's config
    is OpenClaw's workspace on its own word, even before its first file.
    """
    from memory_manager.workspace import require_workspace

    opened = open_workspace(workspace, verbose)
    if writes and opened.rule == "--workspace":
        require_workspace(opened.root)
    return opened.root, opened.config


def gated(func: Callable[..., Any]) -> Callable[..., Any]:
    """Report a gate refusal or hold as one ``error:`` line on stderr; exit 1.

    The gate's detail block comes too with ``--verbose`` or ``--debug``, and
    its payload is always in the ``--json`` error document.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except GateDecisionError as exc:
            decision = exc.decision
            if kwargs.get("json_"):
                emit_json({"error": str(exc), "kind": exc.kind,
                           "gate": decision.payload() if decision is not None else None})
            else:
                from memory_manager import cli

                if decision is not None and (kwargs.get("verbose") or cli.DEBUG):
                    stderr.print(decision.block(), markup=False)
                stderr.print(f"error: {exc}", markup=False)
            sys.exit(1)

    return wrapper


def gate_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--source``, ``--sensitivity`` (can only raise the computed class) and ``--approved``."""
    func = click.option("--approved", is_flag=True,
                        help="The user explicitly approved this exact operation (silence is not approval).")(func)
    func = click.option("--sensitivity", type=click.Choice(gate_mod.SENSITIVITIES), default=None,
                        help="Sensitivity you know of; it can only raise what the content shows.")(func)
    return func


def source_option(default: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--source", type=click.Choice(gate_mod.SOURCES), default=default, show_default=True,
                        help="Where the content came from.")


def _text(value: str, cfg: dict[str, Any]) -> str:
    """``-`` reads the text from stdin (UTF-8), at most ``input.max_mb`` of it (exit 2 past it)."""
    from memory_manager.fsio import read_text_capped

    return read_text_capped(sys.stdin.buffer, cfg, "stdin").text if value == "-" else value


def _print(result: dict[str, Any], json_: bool, line: str) -> None:
    if json_:
        emit_json(result)
    else:
        stdout.print(line, markup=False)


@click.command("write")
@click.option("--topic", required=True, help="Section topic (becomes the heading and the index line).")
@click.option("--cause", multiple=True, help="因 / Cause line (repeatable; - reads stdin).")
@click.option("--change", multiple=True, help="改 / Change line (repeatable; - reads stdin).")
@click.option("--todo", multiple=True, help="待 / Todo line (repeatable; - reads stdin).")
@click.option("--date", "day", default=None, help="YYYY-MM-DD (default: today).")
@source_option("explicit_user")
@gate_options
@common_options
@handle_errors
@gated
def write_cmd(topic, cause, change, todo, day, source, sensitivity, approved, workspace, json_, verbose):
    """Write a daily note (因/改/待) and update daily-index.md."""
    from memory_manager.store import write_daily

    ws, cfg = _context(workspace, verbose)
    lines = [list(cause), list(change), list(todo)]
    if sum(v.count("-") for v in lines) > 1:
        raise BadInputError("only one --cause, --change or --todo can be - (stdin is read once)")
    cause, change, todo = [[_text(v, cfg) for v in values] for values in lines]
    result = write_daily(ws, cfg, topic=topic, cause=list(cause), change=list(change), todo=list(todo), day=day,
                         source=source, sensitivity=sensitivity, approved=approved)
    verb = "merged into" if result["merged"] else "wrote"
    _print(result, json_, f"{verb} {result['path']} [{result['id']}] {topic}: {result['added']} new line(s)")
    return 0


@click.command("learn")
@click.argument("key")
@click.option("--text", required=True, help="The knowledge (use - to read stdin).")
@click.option("--tags", default="", help="Comma-separated tags.")
@click.option("--pinned", is_flag=True, help="Mark the new entry as pinned (never pruned).")
@source_option("explicit_user")
@gate_options
@common_options
@handle_errors
@gated
def learn_cmd(key, text, tags, pinned, source, sensitivity, approved, workspace, json_, verbose):
    """Write knowledge entry memory/knowledge/KEY.md and update knowledge-index.md."""
    from memory_manager.store import learn

    ws, cfg = _context(workspace, verbose)
    result = learn(ws, cfg, key=key, text=_text(text, cfg), tags=tags, source=source, sensitivity=sensitivity,
                   approved=approved, pinned=pinned)
    state = "created" if result["created"] else ("updated" if result["changed"] else "unchanged")
    _print(result, json_, f"{state} {result['path']} [{result['id']}]")
    return 0


@click.command("event")
@click.argument("event", type=click.Choice(["skill_complete", "skill_error"]))
@click.option("--skill", required=True, help="The skill the event is about.")
@click.option("--text", required=True, help="What was learned, or the error and its fix (- reads stdin).")
@source_option("tool_output")
@gate_options
@common_options
@handle_errors
@gated
def event_cmd(event, skill, text, source, sensitivity, approved, workspace, json_, verbose):
    """Record a skill event in the knowledge base (knowledge/skill-SKILL.md)."""
    from memory_manager.store import record_event

    ws, cfg = _context(workspace, verbose)
    result = record_event(ws, cfg, event=event, skill=skill, text=_text(text, cfg), source=source,
                          sensitivity=sensitivity, approved=approved)
    _print(result, json_, f"recorded {event} for {skill} in {result['path']}" if result.get("changed", True) else
           f"already recorded: {result['path']} holds that {event} line for {skill} today; nothing added")
    return 0


@click.group("stats")
def stats_group() -> None:
    """T1 public statistics (memory/tier1-public/<skill>_stats.json)."""


@stats_group.command("record")
@click.option("--skill", required=True, help="The skill that was called.")
# Two flags, not a click --ok/--fail pair: a pair lets the last one win silently, and
# "--ok --fail" contradicts itself (walk-through r6, finding 6): a usage error instead.
@click.option("--ok", "ok_", is_flag=True, help="The call succeeded (give --ok or --fail, not both).")
@click.option("--fail", "fail_", is_flag=True, help="The call failed.")
@click.option("--approved", is_flag=True, help="Approval (only needed in strict gate mode).")
@common_options
@handle_errors
@gated
def stats_record_cmd(skill, ok_, fail_, approved, workspace, json_, verbose):
    """Count one call of a skill (--ok or --fail)."""
    if ok_ == fail_:
        raise click.UsageError("--ok and --fail contradict each other: give one" if ok_
                               else "say how the call went: --ok or --fail")
    ok = ok_
    from memory_manager.store import stats_record

    ws, cfg = _context(workspace, verbose)
    result = stats_record(ws, cfg, skill=skill, ok=ok, approved=approved)
    rec = result["stats"]
    _print(result, json_, f"{skill}: {counted(rec['calls'], 'call')}, success rate {rec['success_rate']:.2%} ({result['path']})")
    return 0


@stats_group.command("show")
@click.option("--skill", default=None, help="Only this skill's file (default: every stats file).")
@common_options
@handle_errors
def stats_show_cmd(skill, workspace, json_, verbose):
    """Show the T1 statistics: calls and success rate per skill, observed patterns."""
    from memory_manager.store import stats_show

    ws, cfg = _context(workspace, verbose, writes=False)
    result = stats_show(ws, skill=skill)
    if json_:
        emit_json(result)
        return 0
    if not result["files"] and not result["problems"]:
        stdout.print("no T1 statistics yet (memory.py stats record --skill S --ok)", markup=False)
    for item in result["files"]:
        stdout.print(f"{item['path']}:", markup=False)
        for name, rec in item["skill_stats"].items():
            stdout.print(f"  {name}: {counted(rec.get('calls', 0), 'call')}, success rate {rec.get('success_rate', 0):.2%}"
                         f", last used {rec.get('last_used', '-')}", markup=False)
        for pattern in item["patterns_observed"]:
            stdout.print(f"  pattern '{pattern.get('trigger')}' -> {', '.join(pattern.get('skills_used', []))}: "
                         f"seen {pattern.get('count', 0)} time(s)", markup=False)
    for problem in result["problems"]:
        stderr.print(f"warning: {problem}", markup=False)
    return 0


@stats_group.command("pattern")
@click.option("--trigger", required=True, help="What triggered the skills (generic, no personal details).")
@click.option("--skills", required=True, help="Comma-separated skills used.")
@click.option("--skill", "owner", default=None, help="Whose stats file holds it (default: the first skill).")
@click.option("--approved", is_flag=True, help="Approval (only needed in strict gate mode).")
@common_options
@handle_errors
@gated
def stats_pattern_cmd(trigger, skills, owner, approved, workspace, json_, verbose):
    """Count one observed usage pattern."""
    from memory_manager.store import stats_pattern

    ws, cfg = _context(workspace, verbose)
    result = stats_pattern(ws, cfg, trigger=trigger, skills=skills.split(","), owner=owner, approved=approved)
    _print(result, json_, f"pattern '{trigger}' seen {result['pattern']['count']} time(s) ({result['path']})")
    return 0


@click.command("remember")
@click.option("--skill", required=True, help="Source skill.")
@click.option("--topic", required=True, help=f"Topic (file {tree.rel(tree.TIER2)}/SKILL_TOPIC.md).")
@click.option("--text", required=True, help="The internal memory (- reads stdin).")
@click.option("--scheme", type=click.Choice(["auto", "xor-b64", "aes-gcm"]), default=None,
              help="Encryption scheme (default: config tiers.encryption_scheme). xor-b64 is obfuscation only.")
@source_option("explicit_user")
@gate_options
@common_options
@handle_errors
@gated
def remember_cmd(skill, topic, text, scheme, source, sensitivity, approved, workspace, json_, verbose):
    """Write a T2 internal entry, encrypted, expiring after 30 days."""
    from memory_manager.store import remember

    ws, cfg = _context(workspace, verbose)
    result = remember(ws, cfg, skill=skill, topic=topic, text=_text(text, cfg), scheme=scheme, source=source,
                      sensitivity=sensitivity, approved=approved)
    note = (" (xor-b64 is obfuscation, not encryption: run 'crypt.py reseal' to make a key and encrypt it "
            "with aes-gcm)") if result["scheme"] == "xor-b64" else ""
    if result.get("unchanged"):
        _print(result, json_, f"unchanged {result['path']} [{result['id']}]: the entry already holds this text")
        return 0
    _print(result, json_, f"remembered {result['path']} [{result['id']}] {result['scheme']}, "
                          f"expires {result['expires']}{note}")
    return 0


@click.command("show")
@click.argument("ref")
@click.option("--approved", is_flag=True, help="The user approved reusing this (sensitive or T2) memory.")
@click.option("--history", "history", is_flag=True, help="Also list the superseded versions, newest first.")
@click.option("--no-track", is_flag=True, help=f"Do not count this read as a use (leaves {tree.rel(tree.STATE)} untouched).")
@common_options
@handle_errors
@gated
def show_cmd(ref, approved, history, no_track, workspace, json_, verbose):
    """Show an entry by id (d-…, k-…, t-…), knowledge key or path; T2 is decrypted.

    Shows the current text; --history adds the earlier versions an edit kept.
    Opening an entry counts as one use of it (recall ranking).
    """
    from memory_manager.store import show

    ws, cfg = _context(workspace, verbose, writes=False)
    result = show(ws, cfg, ref, approved=approved, track=not no_track, history=history)
    if json_:
        emit_json(result)
    else:
        stdout.print(f"{result['kind']} {result['path']}", markup=False, style="bold")
        stdout.print(result["text"], markup=False)
        for v in result.get("versions", [])[1:]:
            stdout.print(f"--- {v['since']} .. {v['until']}", markup=False, style="bold")
            stdout.print(v["text"], markup=False)
    for warning in result.get("warnings", []):
        stderr.print(f"warning: {warning}", markup=False)
    return 0


@click.command("edit")
@click.argument("ref")
@click.option("--text", required=True, help="The new text; the old one is kept as dated history (- reads stdin).")
@source_option("explicit_user")
@gate_options
@common_options
@handle_errors
@gated
def edit_cmd(ref, text, source, sensitivity, approved, workspace, json_, verbose):
    """Replace a knowledge entry's text, keeping the old text as dated history (needs --approved).

    The file is backed up first; recall then finds the new text, and the old
    one only when a question asks about the past (show --history lists it).
    """
    from memory_manager.store import edit

    ws, cfg = _context(workspace, verbose)
    result = edit(ws, cfg, ref, text=_text(text, cfg), approved=approved, source=source, sensitivity=sensitivity)
    if result.get("unchanged"):
        _print(result, json_, f"unchanged: {result['path']} [{result['id']}] already holds that text; nothing to do")
        return 0
    kept = f"{result['versions']} version(s)" if "versions" in result else \
        ("old text kept as history" if result.get("history") else "replaced")
    _print(result, json_, f"edited {result['path']} [{result['id']}]: {kept}; backup {result['backup']}")
    return 0


@click.command("used")
@click.argument("refs", nargs=-1, required=True)
@common_options
@handle_errors
def used_cmd(refs, workspace, json_, verbose):
    """Count one use of each entry REFS (ids recall printed) that the answer was built on.

    Recall does not count what it lists; call this for the hits you actually
    used, so that memory that helps ranks higher next time.
    """
    from memory_manager.store import used

    ws, _ = _context(workspace, verbose)
    result = used(ws, list(refs))
    _print(result, json_, f"counted {len(result['ids'])} use(s): {' '.join(result['ids'])}")
    return 0


@click.command("lesson")
@click.argument("text")
@click.option("--kind", type=click.Choice(["lesson", "mistake", "decision"]), default="lesson", show_default=True,
              help="The MEMORY.md section: lessons, mistakes to avoid, decisions.")
@source_option("explicit_user")
@click.option("--approved", is_flag=True, help="The user approved storing this exact line.")
@common_options
@handle_errors
@gated
def lesson_cmd(text, kind, source, approved, workspace, json_, verbose):
    """Add a one-line lesson to MEMORY.md (newest first in its section), backed up first."""
    from memory_manager.lessons import add_lesson

    ws, cfg = _context(workspace, verbose)
    result = add_lesson(ws, cfg, _text(text, cfg), kind, approved=approved, source=source)
    for warning in result["warnings"]:
        stderr.print(f"warning: {warning}", markup=False)
    state = "added to" if result["added"] else "already in"
    _print(result, json_, f"{state} {result['path']} ({result['section']}): {result['line']}")
    return 0


@click.command("unarchive")
@click.argument("ref")
@click.option("--approved", is_flag=True, help="The user approved bringing this entry back.")
@common_options
@handle_errors
@gated
def unarchive_cmd(ref, approved, workspace, json_, verbose):
    """Bring archived entry REF (an id recall printed with [archived]) back to live memory."""
    from memory_manager.unarchive import unarchive

    ws, cfg = _context(workspace, verbose)
    result = unarchive(ws, cfg, ref, approved=approved)
    _print(result, json_, f"unarchived {result['id']}: {result['from']} -> {result['to']} (backup {result['backup']})")
    return 0


@click.command("forget")
@click.argument("ref")
@click.option("--approved", is_flag=True, help="The user approved deleting this entry.")
@common_options
@handle_errors
@gated
def forget_cmd(ref, approved, workspace, json_, verbose):
    """Delete one entry (after approval) with every copy: backups, archive, index, logs."""
    from memory_manager.erasure import summary
    from memory_manager.store import forget

    ws, cfg = _context(workspace, verbose)
    result = forget(ws, cfg, ref, approved=approved)
    # "file removed: PATH", not "file removed from PATH" (walk-through r6, finding 15).
    where = (f"file removed: {result['path']}" if result["removed"] == "file"
             else f"{result['removed']} removed from {result['path']}")
    _print(result, json_, f"forgot {result['kind']} {result['ref']} ({where}); {summary(result['erased'])}")
    for problem in result["erased"]["problems"]:
        stderr.print(f"warning: {problem}", markup=False)
    for note in result.get("still_in") or []:
        stderr.print(f"warning: the OpenClaw note {note} still holds this text (this entry was imported from it; "
                     "OpenClaw's own notes are never changed by memory.py), so recall still finds it there: edit "
                     f"{note} yourself to remove it", markup=False)
    return 0


@click.command("unquarantine")
@click.argument("ident")
@click.option("--approved", is_flag=True, help="The user approved putting this entry back.")
@common_options
@handle_errors
@gated
def unquarantine_cmd(ident, approved, workspace, json_, verbose):
    """Put a T2 entry that cleanup quarantined back in place (marked approved)."""
    from memory_manager.quarantine import restore

    ws, cfg = _context(workspace, verbose)
    result = restore(ws, cfg, ident, approved=approved)
    _print(result, json_, f"restored {ident} to {result['path']} (backup {result['backup']})")
    return 0


@click.command("export")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the JSON here (default: stdout).")
@click.option("--approved", is_flag=True, help="The user approved exporting the memory.")
@click.option("--overwrite", is_flag=True,
              help="Replace an existing --out file that is not an export of ours (never one inside the workspace).")
@common_options
@handle_errors
@gated
def export_cmd(out, approved, overwrite, workspace, json_, verbose):
    """Export the memory as JSON: daily notes, knowledge, T1, T2 (still encrypted), the archive and the lessons."""
    from memory_manager.transfer import export

    ws, cfg = _context(workspace, verbose, writes=False)
    result = export(ws, cfg, out=out, approved=approved, overwrite=overwrite)
    for problem in result["problems"]:
        stderr.print(f"warning: skipped {problem}", markup=False)
    if out is None:
        emit_json(result["document"])
    elif json_:
        emit_json({k: v for k, v in result.items() if k != "document"})
    else:
        c = result["counts"]
        stdout.print(f"exported {c['daily']} daily, {c['knowledge']} knowledge, {c['tier1']} T1, "
                     f"{c['tier2']} T2 (encrypted), {c['archive']} archive file(s), {c['lessons']} lesson(s) "
                     f"to {out}", markup=False)
    return 0


@click.command("import")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--from-openclaw", is_flag=True, help=f"Import OpenClaw's own {tree.rel('YYYY-MM-DD*.md')} notes.")
@click.option("--approved", is_flag=True, help="The user approved this import (it covers content with no finding).")
@click.option("--allow", "allow", multiple=True, metavar="ID",
              help="A finding the user confirmed is fine to keep, by the id an earlier run listed under held "
                   "(repeatable); certain findings and findings in names are never allowed.")
@common_options
@handle_errors
@gated
def import_cmd(file, from_openclaw, approved, allow, workspace, json_, verbose):
    """Import a JSON export FILE, or OpenClaw's daily notes as daily entries.

    Items holding a possible finding or a sensitive topic are held, each
    listed with its finding id: approve them one by one with --allow ID.
    Exit 0 only when every item was imported (or was there already); exit 1
    when any item was refused, held or skipped: what passed is imported, and
    each item is named with what happened to it.
    """
    from memory_manager.transfer import import_memory

    ws, cfg = _context(workspace, verbose)
    result = import_memory(ws, cfg, source_file=file, from_openclaw=from_openclaw, approved=approved,
                           allow=allow)
    if json_:
        emit_json(result)
    else:
        c = result["counts"]
        stdout.print(f"imported from {result['source']}: {c['daily']} daily section(s) ({counted(c['daily_lines'], 'line')}), "
                     f"{c['knowledge']} knowledge, {c['tier1']} T1, {c['tier2']} T2, {c['archive']} archive "
                     f"file(s), {c['lessons']} lesson(s)", markup=False)
        for item in result["imported"]:
            lines = f" ({counted(item['lines'], 'line')})" if "lines" in item else ""
            stdout.print(f"imported: {item['item']}{lines}", markup=False)
        if result["already_present"]:
            stdout.print(f"already present, left as they are: {', '.join(result['already_present'])}", markup=False)
        for item in result["refused"]:
            cats = f", {', '.join(item['categories'])}" if item["categories"] else ""
            stderr.print(f"not imported ({item['outcome']}{cats}): {item['reason']}", markup=False)
        if result["refused"]:
            stderr.print(f"import incomplete: {len(result['refused'])} item(s) not imported, "
                         f"{len(result['imported'])} imported", markup=False)
    return 0 if result["complete"] else 1


COMMANDS = [write_cmd, learn_cmd, event_cmd, stats_group, remember_cmd, show_cmd, edit_cmd, used_cmd, lesson_cmd,
            unarchive_cmd, forget_cmd, unquarantine_cmd, export_cmd, import_cmd]
