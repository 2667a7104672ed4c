"""Recall verbs of ``memory.py``: ``recall``, ``prune``, ``status`` (thin click front ends).

The domain logic lives in :mod:`memory_manager.recall` and
:mod:`memory_manager.prune`; they are imported inside each command so that
loading ``memory.py`` stays fast.
"""
from __future__ import annotations

from pathlib import Path

import click

from memory_manager import messages, tree
from memory_manager.cli import common_options, counted, open_workspace, emit_json, handle_errors, rerun_note, stderr, \
    stdout, unechoed


def _context(workspace: Path | None, verbose: bool):
    opened = open_workspace(workspace, verbose)
    return opened.root, opened.config


@click.command("recall")
@click.argument("query")
@click.option("--top-k", "top_k", type=click.IntRange(min=1), default=None,
              help="Number of entries to return (default: config recall.top_k, 10).")
@click.option("--no-track", is_flag=True, help="Write nothing (no audit line for T2 reuse). Recall never counts "
              "accesses itself: `memory.py used ID...` and `show` do.")
@click.option("--approved", is_flag=True, help="The user approved reusing T2 (internal) memory for this recall.")
@common_options
@handle_errors
def recall_cmd(query: str, top_k: int | None, no_track: bool, approved: bool, workspace: Path | None, json_: bool,
               verbose: bool) -> int:
    """Find the entries that best answer QUERY (English, Chinese or mixed).

    Each hit shows its file, heading, date, a snippet and its score with the
    parts keyword / time / access / tags. Exit 0 also when nothing matches.
    """
    from memory_manager.errors import BadInputError
    from memory_manager.recall import recall

    if not query.strip():
        raise BadInputError("the query is empty")
    ws, cfg = _context(workspace, verbose)
    t2: dict[str, int] = {}
    malformed: list[dict[str, str]] = []
    time_info: dict = {}
    hits = recall(ws, query, cfg, top_k=top_k, track=not no_track, approved=approved, t2_stats=t2,
                  malformed=malformed, time_info=time_info)
    # A question naming a time with nothing noted in it says so, naming the time
    # (walk-through r6, finding 12; references/recall.md): not only "no matching entries".
    span = time_info.get("span")
    empty_span = None
    if span and not time_info.get("entries_in_span"):
        empty_span = (f"nothing was noted on {span[0]}" if span[0] == span[1]
                      else f"nothing was noted between {span[0]} and {span[1]}")
    if json_:
        emit_json({"query": query, "hits": [h.as_dict() for h in hits], "t2": t2, "malformed": malformed,
                   "time": {**time_info, "note": empty_span}})
        return 0
    for item in malformed:
        # access.json says itself what was left out (the counts, not the notes).
        tail = "" if item["error"].endswith("not used") else "; not searched"
        stderr.print(f"warning: {item['file']}: {item['error']}{tail} (fix the file)", markup=False)
    if t2.get("held"):
        one = t2["held"] == 1
        stdout.print(f"note: {counted(t2['held'], 'T2 (internal) entry', 'T2 (internal) entries')} "
                     f"{'was' if one else 'were'} not searched: reusing {'it' if one else 'them'} needs the "
                     "user's approval; ask, then repeat with --approved", markup=False)
    if t2.get("locked"):
        stdout.print(f"note: {counted(t2['locked'], 'T2 entry', 'T2 entries')} "
                     f"{'is' if t2['locked'] == 1 else 'are'} aes-gcm and no key is available", markup=False)
    if not hits:
        stdout.print(f"{empty_span} (the time the question names)" if empty_span else "no matching entries",
                     markup=False)
        return 0
    if empty_span:
        stdout.print(f"note: {empty_span} (the time the question names); these entries are from other times",
                     markup=False)
    if any(h.listed for h in hits):
        if any(h.time_reason and h.time_reason.endswith("listed from its end") for h in hits):
            stdout.print("the asked time's entries, newest first (not by score):", markup=False)
        else:
            stdout.print("the asked time's entries, in the order they were written (not by score):", markup=False)
    for n, h in enumerate(hits, 1):
        p = h.parts
        # The score shown is the weighted sum of the parts shown (``total``); an archived hit
        # ranks after every live one (its ranking key is total - 1: references/recall.md).
        marks = []
        if h.archived:
            marks.append("archived: listed after live entries")
        if not h.current:
            marks.append(f"superseded: the text as of {h.version}, replaced since" if h.version
                         else "superseded: an earlier text, replaced since")
        if h.edited_after_span:
            marks.append(f"edited on {h.edited_after_span}, after the asked time: this is the current text; "
                         f"show {h.id} --history has the earlier one")
        mark = "".join(f" [{m}]" for m in marks)
        stdout.print(f"{n}. {p['total']:.3f}  {h.shown_path} › {h.heading}{mark}  [{h.id}]"
                     f"  (keyword {p['keyword']:.2f}, time {p['time']:.2f}, access {p['access']:.2f},"
                     f" tags {p['tags']:.2f})", markup=False)
        stdout.print(f"   {h.snippet}", markup=False)
    in_span = time_info.get("entries_in_span") or 0
    if any(h.listed for h in hits) and in_span > len(hits):
        # A listing cut at --top-k says so: the entries left out are the last of the order shown
        # (the newest written, for "today"), never dropped without a word (nu16 item 6).
        stdout.print(f"listed {len(hits)} of {in_span} entries of the asked time; repeat with --top-k {in_span} "
                     "to list them all", markup=False)
    return 0



@click.command("prune")
@click.option("--dry-run", is_flag=True, help="List exactly what would move; change nothing.")
@common_options
@handle_errors
def prune_cmd(dry_run: bool, workspace: Path | None, json_: bool, verbose: bool) -> int:
    """Archive low-value entries (value < prune.threshold, or beyond prune.window).

    Entries move to memory/archive/YYYY-MM/ with a note of why; nothing is
    deleted. Pinned entries and entries from the last 7 days never move.
    """
    from memory_manager.prune import prune

    ws, cfg = _context(workspace, verbose)
    result = prune(ws, cfg, dry_run=dry_run)
    if json_:
        emit_json(result)
        return 0
    items = result["moves"] if dry_run else result["moved"]
    verb = "would move" if dry_run else "moved"
    stdout.print(f"{verb} {len(items)} of {result['prunable_entries']} entries", markup=False)
    for m in items:
        stdout.print(f"- {m['path']} › {m['heading']} -> {m['archive']} ({m['reason']})", markup=False)
    if result.get("backup"):
        stdout.print(f"backup: {result['backup']}", markup=False)
    for w in result["warnings"]:
        stderr.print(f"warning: {w}", markup=False)
    return 0


@click.command("status")
@common_options
@handle_errors
def status_cmd(workspace: Path | None, json_: bool, verbose: bool) -> int:
    """Print memory size, average value, prune rate and entries per tier."""
    from memory_manager import initialize
    from memory_manager.prune import status

    from memory_manager.errors import WorkspaceError
    from memory_manager.workspace import is_set_up, looks_like_workspace, not_a_workspace

    ws, cfg = _context(workspace, verbose)
    if not is_set_up(ws) and not looks_like_workspace(ws):
        # A typo in -w, or a folder inside a workspace: no figures of zeros to read as "empty
        # memory", one line and exit 2 like the writing verbs (walk-through r10, items 2 and 6).
        # An OpenClaw workspace init has not set up yet still shows its MEMORY.md below.
        raise WorkspaceError(not_a_workspace(ws))
    doc = status(ws, cfg)
    # Set up as init and doctor say it (nu16 item 10): memory/ is there and a restore of init's
    # own backup did not take the memory rules away (initialize.setup_lost).
    gaps = initialize.setup_gaps(ws) if is_set_up(ws) else []
    doc["set_up"] = is_set_up(ws) and not initialize.setup_lost(gaps)
    if json_:
        emit_json(doc)
        return 0
    lang = cfg["language"]  # the workspace's language (config.load resolved "auto"): zh or en (r9, item 4)

    def say(key: str, count: int | None = None, **values) -> str:
        return messages.say(lang, key, count, **values)

    def line(key: str, count: int | None = None, **values) -> None:
        stdout.print(say(key, count, **values), markup=False)

    if not doc["set_up"]:
        init = Path(__file__).resolve().parent / "init.py"
        if gaps:
            # In English, as init and doctor say it: the gaps are named in English, and the
            # workspace's language setting may be one of them (a line is one language throughout).
            stdout.print(unechoed(f"not set up: the workspace is no longer set up for memory ({', '.join(gaps)}): "
                                  f"set it up again with `python3 {init} -w {ws} --yes`{rerun_note(ws)} (your notes stay)"),
                         markup=False)
        else:
            line("status.not_set_up", ws=ws, memory=tree.MEMORY, init=init)
    size = doc["memory_size"]
    avg = "n/a" if doc["average_value"] is None else f"{doc['average_value']:.3f}"
    line("status.size", entries=say("n.entry", size["entries"]), files=say("n.file", size["files"]),
         bytes=say("n.byte", size["bytes"]))
    line("status.average", avg=avg, prunable=say("n.prunable", doc["prunable_entries"]))
    line("status.prune_rate", rate=f"{doc['prune_rate']:.1%}", would=doc["would_move"], threshold=doc["threshold"],
         window=doc["window"])
    cp = doc["cleanup_preview"]
    if cp["enabled"]:
        line("status.next_cleanup", entries=say("n.entry", cp["would_archive"]), window=cp["window"],
             also=say("status.threshold_too") if cp["threshold_applied"] else "",
             archived=say("n.archived_stays", doc["archived_entries"]))
        if not cp["threshold_applied"] and doc["would_move"] != cp["would_archive"] - cp["expired_t2"]:
            # Two numbers for two rules (walk-through r4, item 22): `memory.py prune` applies the value
            # threshold, the weekly cleanup only the capacity window (prune.auto_threshold: false).
            line("status.prune_note", would=doc["would_move"], threshold=doc["threshold"])
    t = doc["tiers"]
    weak = {k: n for k, n in doc["t2_by_scheme"].items() if k != "aes-gcm" and n}
    if weak:
        parts = [say("status.part_encrypted", doc["t2_by_scheme"]["aes-gcm"])]
        parts += [say("status.part_xor", weak["xor-b64"])] if "xor-b64" in weak else []
        parts += [say("status.part_plain", weak["plain"])] if "plain" in weak else []
        t2_text = say("status.t2_mixed", entries=say("n.entry", t["t2"]), parts=say("sep").join(parts))
    else:
        t2_text = say("status.t2_encrypted", t["t2"])
    line("status.tiers", files=say("n.stats_file", t["t1"]), skills=say("n.skill", t["t1_skills"]), t2=t2_text,
         t3=t["t3"])
    if weak:
        from memory_manager.audit import reseal_command

        line("status.weak_note", sum(weak.values()), cmd=reseal_command(ws))
    line("status.plain", daily=say("n.daily_section", t["daily"]), knowledge=say("n.knowledge_entry", t["knowledge"]))
    z = doc["time_zone"]
    line("status.time_zone", name=z["name"], source=z["source"], today=z["today"])
    held = doc.get("quarantine", [])
    if held:
        line("status.quarantine", len(held))
        for row in held:
            unsealed = "" if row.get("sealed", True) else say("status.quarantine_unsealed")
            line("status.quarantine_row", id=row.get("id"), skill=row.get("skill", ""), topic=row.get("topic", ""),
                 reason=row.get("reason") or row.get("error"), since=row.get("quarantined", "?"), unsealed=unsealed)
    for item in doc["interrupted"]:
        stderr.print(f"warning: {_pending_line(item)}", markup=False)
    stale = doc.get("indexes_stale")
    if stale == "file":
        stderr.print("warning: the daily and knowledge indexes may be stale (an earlier command failed part-way "
                      "after changing notes); the next command that writes rebuilds them", markup=False)
    elif stale:
        stderr.print(f"warning: {tree.MEMORY}/{tree.STATE}/indexes-stale is a {stale}, not a mark this bundle writes; the next "
                     "command that writes rebuilds the indexes" + (" on every run until it is removed"
                                                                   if stale == "directory" else " and removes it"),
                     markup=False)
    for problem in doc["problems"]:
        stderr.print(f"warning: {problem}", markup=False)
    return 0


def _pending_line(item: dict) -> str:
    """One line for an interrupted change (memory_manager.backups.pending): what the next writing command does."""
    what = f"an interrupted {item.get('reason') or 'change'} (backup {item['id']})"
    shown = ", ".join(item.get("paths") or [])
    if item["action"] == "roll back":
        return (f"{what} is counted above as it was left; the next command that writes will roll it back"
                + (f" (put back {shown})" if shown else ""))
    if item["action"] == "finish":
        return f"{what} is counted above as it was left; the next command that writes will finish it"
    if item["action"] == "keep as left":
        return (f"{what} cannot be rolled back (no undo copy of {shown}); the next command "
                "that writes keeps every file as it was left and rebuilds the indexes")
    if item["action"] == "in progress":
        return f"a change (backup {item['id']}) is in progress in another process; the figures above may be mid-way"
    if item["action"] == "discard":
        return f"{what} had changed nothing yet; the next command that writes removes its journal"
    if item["action"] == "refuse":
        return (f"{what} left a plan to finish it that is refused ({item.get('error')}); the next command "
                "that writes removes its journal and erases nothing")
    return f"{what} cannot be rolled back: {item.get('error')}"


COMMANDS = [recall_cmd, prune_cmd, status_cmd]
