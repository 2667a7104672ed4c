#!/usr/bin/env python3
"""init.py: set up an OpenClaw workspace for complex-memory-manager (backup first, then rewrite)."""
# First of all (the builtin _signal: the signal module imports enum, tens of ms): a Ctrl-C while
# starting up changes nothing and says so; memory_manager.interrupts takes over below.
import _signal, os, sys  # noqa: E401
_signal.signal(_signal.SIGINT, lambda *_: (os.write(*((1, b'{"error": "interrupted: nothing was changed", "kind": "interrupted"}\n') if "--json" in sys.argv else (2, b"interrupted: nothing was changed\n"))), os._exit(130))) \
    if __name__ == "__main__" else None  # a test harness importing the script keeps its own handler
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.interrupts import install; install() if __name__ == "__main__" else None  # noqa: E702
from memory_manager.deps import require; require(allow_install=True)  # noqa: E702

import contextlib  # noqa: E402
import shutil  # noqa: E402
import time  # noqa: E402

import click  # noqa: E402

from memory_manager import backups, initialize  # noqa: E402
from memory_manager.cli import common_options, counted, emit_json, handle_errors, print_rows, rerun_note, run, step, \
    stdout, stderr, unechoed, unechoed_doc, verbose_line  # noqa: E402
from memory_manager.lang import resolve as resolve_language  # noqa: E402
from memory_manager.fsio import refuse_outside_links, workspace_lock  # noqa: E402
from memory_manager.workspace import Workspace, refuse_nested  # noqa: E402


def _say(text: str) -> None:
    """One line on stdout, a value typed or set in the environment that holds a finding masked.

    init names the workspace (``-w`` or ``OPENCLAW_WORKSPACE_DIR``) and the key file (under
    ``XDG_CONFIG_HOME`` or ``HOME``) in many lines: a token in those folders is masked as in every
    other script's messages (:func:`memory_manager.cli.unechoed`; tatk18 4 and 8).
    """
    stdout.print(unechoed(text), markup=False)


def _warn(text: str) -> None:
    """One line on stderr, masked as :func:`_say` masks."""
    stderr.print(unechoed(text), markup=False)


def _emit(doc: dict) -> None:
    """The one JSON document, every string masked as :func:`_say` masks (``workspace``, the key's ``path``)."""
    emit_json(unechoed_doc(doc))


def _show_plan(plan: initialize.Plan) -> None:
    rows = [(change.rel, "create" if change.old is None else "update", change.reason) for change in plan.changes]
    for folder in plan.new_dirs:
        rel = folder.relative_to(plan.workspace).as_posix()
        top = rel.split("/")[0]
        why = "OpenClaw hook" if top == "hooks" else ("OpenClaw plugin" if top == ".openclaw" else "memory tree")
        rows.append((rel + "/", "mkdir", why))
    print_rows(unechoed(f"init plan for {plan.workspace}"), ["path", "action", "why"], rows, whole=(0,))
    for line in plan.removed_duplicates:
        _say(f"duplicate rule removed: {line}")
    for section in plan.moved_sections:
        _say(f"moved to HEARTBEAT.md: {section}")


def _dry_run_summary(plan: initialize.Plan) -> None:
    """``--dry-run`` without ``--diff``: one line per file (action, lines added and removed, why), the
    files of each hook and of the plugin as one line per folder, then the folders to create.

    The full diff of a real workspace is hundreds of lines, most of them the hook and plugin
    shims (walk-through r9, item 3); ``--diff`` prints it.
    """
    rows: list[tuple[str, str, str, str]] = []
    grouped: dict[str, list[initialize.FileChange]] = {}
    for change in plan.changes:
        parts = change.rel.split("/")
        if change.old is None and parts[0] in ("hooks", ".openclaw") and len(parts) > 1:
            grouped.setdefault("/".join(parts[:-1]) + "/", []).append(change)
            continue
        added, removed = change.line_counts()
        rows.append((change.rel, "create" if change.old is None else "update",
                     f"+{added}" if change.old is None else f"+{added} -{removed}", change.reason))
    for folder, changes in grouped.items():
        added = sum(c.line_counts()[0] for c in changes)
        rows.append((folder, f"create {counted(len(changes), 'file')}", f"+{added}", changes[0].reason))
    if plan.changes:
        counts = [c.line_counts() for c in plan.changes]
        updated = sum(1 for c in plan.changes if c.old is not None)
        _say(f"would write {counted(len(plan.changes), 'file')} ({updated} updated, "
             f"{len(plan.changes) - updated} created; lines +{sum(a for a, _ in counts)} "
             f"-{sum(r for _, r in counts)}):")
    width = [max(len(r[i]) for r in rows) for i in range(3)] if rows else [0, 0, 0]
    for row in rows:
        _say("  " + "  ".join(cell.ljust(width[i]) for i, cell in enumerate(row[:3])) + "  " + row[3])
    if plan.new_dirs:
        rels = [folder.relative_to(plan.workspace).as_posix() for folder in plan.new_dirs]
        tops: dict[str, int] = {}
        for rel in rels:
            top = rel.split("/")[0]
            tops[top] = tops.get(top, 0) + (0 if rel == top else 1)
        shown = ", ".join((f"{top}/" + (f" with {counted(n, 'folder')} in it" if n else "")) if top in rels
                          else f"{counted(n, 'folder')} in {top}/" for top, n in tops.items())
        _say(f"would create {counted(len(rels), 'folder')}: {shown}")
    for line in plan.removed_duplicates:
        _say(f"duplicate rule removed: {line}")
    for section in plan.moved_sections:
        _say(f"moved to HEARTBEAT.md: {section}")


def _apply_command(ws, lang, no_hooks, no_plugin, no_key, heartbeat_move, no_heartbeat_move) -> str:
    """The init command that applies what this dry run showed (the same choices)."""
    extra = [f"--lang {lang}"] if lang else []
    extra += [flag for flag, on in (("--no-hooks", no_hooks), ("--no-plugin", no_plugin and not no_hooks),
                                    ("--no-key", no_key), ("--heartbeat-move", heartbeat_move),
                                    ("--no-heartbeat-move", no_heartbeat_move)) if on]
    return f"{_self()} -w {ws} " + " ".join(["--yes", *extra])


def _list_table(ws, found) -> None:
    """``--list-backups``: whole ids always (a table that folds, or plain lines on a narrow terminal)."""
    rows = []
    for b in found:
        state = b.get("state", "") + (" (safety copy)" if b.get("role") == "safety" else "")
        why = backups.not_restore_point(b)
        if why and b.get("role") != "safety" and "error" not in b:
            state += f"; not a restore point: {why}"
        rows.append((b["id"], str(b.get("created", "")), str(b.get("reason", b.get("error", ""))), state,
                     counted(b['files'], 'file')))
    print_rows(unechoed(f"backups in {backups.backup_root(ws)} (oldest first)"),
               ["id", "created", "reason", "state", "files"], rows, whole=(0,))


def _show_restore_plan(result: dict) -> None:
    for item in result["pending"]:
        verb = {"roll back": "rolled back", "finish": "finished", "keep as left": "kept as it was left (no undo copy)",
                "discard": "discarded (it had changed nothing)",
                "refuse": "left as it is, its plan refused (it would erase a copy of the user's file)"}.get(
                    item["action"], "rolled back (it fails its checks)")
        _say(f"an interrupted change (backup {item['id']}) would be {verb} first")
    _say(f"would restore backup {result['restored']} ({result.get('reason')}, "
         f"{result.get('created')}):")
    for line in result["paths"] or ["change nothing (the files already match it)"]:
        _say(f"  {line}")
    if result.get("changed_since"):
        _say(f"changed since the backup (a restore refuses them without --force): "
             f"{', '.join(result['changed_since'])}")
    for note in result["notes"]:
        _say(f"note: {note}")


def _deprecated_without_yes(option: str) -> None:
    """The old form (no --yes, not on a terminal) still works, with a note (CLI contract, formats.md)."""
    _warn(f"warning: {option} without --yes is deprecated and will need --yes in a future version "
          "(on a terminal it asks first)")


def _self() -> str:
    """This script as a command that works when copied (absolute path)."""
    return f"{sys.executable} {pathlib.Path(__file__).resolve()}"  # the Python that has the packages


def _hook_report(report) -> None:
    """Print what enabling (or disabling) the OpenClaw hooks did, or the commands to run."""
    for line in report.messages:
        if line.startswith("openclaw is not on PATH"):
            _say(f"note: {line}")
            for command in report.commands:
                _say(f"  {command}")
        else:
            _say(f"note: {line}")
    if report.ran:
        for command in report.commands:
            _say(f"ran: {command}")
    for name in report.kept_loading:
        _say(f"note: enabled {name} by name so that it keeps loading")
    for error in report.errors:
        _warn(f"warning: {error}")


def _notes(plan: initialize.Plan) -> None:
    for warning in plan.warnings:
        _warn(f"warning: {warning}")
    for note in plan.notes:
        _say(f"note: {note}")


def _key_to_create(cfg, yes: bool, no_key: bool, interactive: bool, ws=None):
    """The AES key file init will create, or None (a key exists, or the user keeps xor-b64).

    A new install should encrypt T2 for real: with ``--yes`` the key is made
    by default, interactively we ask (default yes); ``--no-key`` or config
    ``tiers.encryption_scheme: xor-b64`` keep the seed's obfuscation. A
    malformed key, or a ``tiers.key_file`` naming a file that does not exist,
    raises MalformedKeyError here, before anything is written: init never
    makes a key at a path the user may have mistyped (``crypt.py keygen``
    does, when asked to).
    """
    from memory_manager import crypto

    if no_key or cfg["tiers"]["encryption_scheme"] == "xor-b64" or crypto.check_key(cfg):
        return None
    if ws is not None:
        from memory_manager.tiers import require_key_for_sealed

        from memory_manager.errors import KeyRecordedError

        try:
            require_key_for_sealed(ws, cfg, making_key=True)  # entries sealed by a key that is missing: stop
        except KeyRecordedError as exc:
            # The recorded key keyed only approval marks (round 16): no new key replaces it, and the
            # rest of init (the memory tree, hooks, AGENTS.md) still applies; T2 stays xor-b64 meanwhile.
            _warn(f"warning: no key made: {exc}")
            return None
    path = crypto.key_path(cfg)
    if interactive and not yes:
        question = (f"Create an AES-256 key for T2 entries at {path}? Keep a copy somewhere safe: "
                    "losing it loses the T2 entries encrypted with it")
        return path if click.confirm(unechoed(question), default=True) else None
    return path


def _make_key(cfg, ws, path) -> dict:
    """Create the planned key (before the workspace changes); return the JSON ``key`` field.

    A key that appeared at that path since init planned (a second init run at
    the same time made it) is used, not an error, once it reads as a key.
    """
    from memory_manager import crypto

    import time

    from memory_manager.errors import CryptoError

    if path is None:
        return {"created": False, "path": None}
    for attempt in range(30):
        try:
            if path.exists() and crypto.check_key(cfg):
                return {"created": False, "path": None}
            made = crypto.keygen(cfg, ws)
            return {"created": True, "path": str(made), "mode": "0600"}
        except CryptoError:
            # Another init made the file an instant ago and is still writing it (empty, or
            # "exists already"): wait for it to read as a key (3 s at most), then use it.
            if not path.exists() or attempt == 29:
                raise
            time.sleep(0.1)
    return {"created": False, "path": None}


def _record_key(cfg, ws, key: dict) -> None:
    """Record the key init made as the store's key, now that the memory tree exists (attack round 13).

    The key is made before the workspace changes (a key that cannot be made
    leaves it untouched), so on a new workspace ``keygen`` found no memory
    tree to record it in; without the record another key in
    ``MEMORY_MANAGER_KEY`` that sealed first would take the store.
    """
    if key.get("created"):
        from memory_manager.tiers import record_made_key

        record_made_key(ws, cfg)


def _made(cfg, key: dict, ws):
    """``cfg`` when init records the key file (inside its backup: :func:`initialize.apply_files`), else None.

    The key it made now, or the key file an earlier init made and was killed
    before recording (:func:`tiers.unrecorded_key_file`, fatk11).
    """
    from memory_manager.tiers import unrecorded_key_file

    return cfg if key.get("created") or unrecorded_key_file(ws, cfg) else None


def _key_line(key: dict) -> None:
    if key.get("created"):
        _say(f"created AES key {key['path']} (mode 0600): new T2 entries are encrypted with it. "
             "Keep a copy somewhere safe: losing it loses the T2 entries.")


@click.command(help="Set up the workspace: back up, move heartbeat rules to HEARTBEAT.md, add the memory "
                    "rules to AGENTS.md, make MEMORY.md a lessons file, and create the memory tree.")
@common_options
@click.option("--dry-run", is_flag=True, help="Say what it would change, file by file (lines added and removed); "
                                                "write nothing.")
@click.option("--diff", "show_diff", is_flag=True,
              help="With --dry-run: print the full unified diff of every file (--verbose does too).")
@click.option("--yes", "-y", is_flag=True, help="Apply without asking.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default=None, help="Language of the templates and notes (default: the one saved in this workspace, OpenClaw's "
                   "ui.prefs.locale, the locale LC_ALL/LC_MESSAGES/LANG, else en).")
@click.option("--no-heartbeat-move", is_flag=True, help="Leave heartbeat sections in AGENTS.md.")
@click.option("--heartbeat-move", "heartbeat_move", is_flag=True,
              help="Move heartbeat sections to HEARTBEAT.md even on OpenClaw before 2026.8 (or a workspace that looks "
                   "like one), where that switches heartbeat turns on. By default init moves them only when that "
                   "cannot happen.")
@click.option("--list-backups", is_flag=True, help="List the backups and exit.")
@click.option("--restore", "restore_id", is_flag=False, flag_value="", default=None, metavar="[ID]",
              help="Put back the files of backup ID (default: the newest), backing up the current state first.")
@click.option("--install-deps", is_flag=True, help="Install the Python requirements with pip first.")
@click.option("--no-hooks", is_flag=True, help="Do not install the OpenClaw hooks into <workspace>/hooks/ (nor the plugin).")
@click.option("--no-plugin", is_flag=True, help="Do not install the OpenClaw plugin that runs the upkeep after every "
                                                 "turn (<workspace>/.openclaw/extensions/complex-memory-manager/).")
@click.option("--uninstall-hooks", is_flag=True, help="Disable and remove the hooks and the plugin init installed (backed "
                                                       "up first), giving OpenClaw's settings back as they were.")
@click.option("--force", is_flag=True,
              help="With --restore: restore even files changed since the backup (they are backed up first).")
@click.option("--no-key", is_flag=True,
              help="Do not create the AES key: T2 stays on xor-b64 (obfuscation, not encryption).")
@handle_errors
def init(workspace, json_, verbose, dry_run, show_diff, yes, lang, no_heartbeat_move, heartbeat_move, list_backups, restore_id,
         install_deps, no_hooks, no_plugin, uninstall_hooks, force, no_key) -> int:
    # The config loads only after the backup verbs: a broken config must not block a restore.
    opened = Workspace.open(workspace)
    ws = opened.root
    verbose_line(verbose, f"workspace: {ws} (chosen by {opened.rule})")
    if ws.is_dir():  # a folder of our tree planted as a symlink out: refuse before anything (issue 10)
        refuse_outside_links(ws)
    if list_backups and restore_id is not None:
        # One of the two would be dropped without a word (walk-through r10, item 7).
        raise click.UsageError("--list-backups lists the backups and --restore puts one back: pass one of them "
                               "(list first, then restore by id)")
    if list_backups:
        found = backups.list_backups(ws)
        if json_:
            _emit({"workspace": str(ws), "backups": [
                {**{k: b.get(k) for k in ("id", "seq", "created", "reason", "role", "state", "restores", "files",
                                          "error")}, "not_restore_point": backups.not_restore_point(b),
                 "stored": backups.stored_counts(b)}
                for b in found]})
        elif not found:
            _say("no backups")
        else:
            _list_table(ws, found)
        return 0
    if restore_id is not None and dry_run:
        result = backups.restore_plan(ws, restore_id or None)
        if json_:
            _emit(result)
        else:
            _show_restore_plan(result)
        return 0
    if restore_id is not None:
        if not yes:
            if not json_ and sys.stdin.isatty():
                # On a terminal: the plan first, then ask (like init itself).
                _show_restore_plan(backups.restore_plan(ws, restore_id or None))
                if not click.confirm("Restore these files (the current state is backed up first)?", default=False):
                    _say("nothing changed")
                    return 1
            else:
                _deprecated_without_yes("--restore")
        result = backups.restore(ws, restore_id or None, force=force)
        # A restore of init's own backup takes the memory rules away while notes written since
        # keep memory/: say so, as doctor does (walk-through r10, item 1).
        gaps = initialize.setup_gaps(ws)
        result["set_up"] = not initialize.setup_lost(gaps)
        if not result["set_up"]:
            result["notes"].append(f"the workspace is no longer set up for memory ({', '.join(gaps)}): set it up "
                                   f"again with `{_self()} -w {ws} --yes`{rerun_note(ws)} (your notes stay)")
        if json_:
            _emit(result)
        else:
            for item in result["recovered"]:
                _say(f"{item['action']} an interrupted change first (backup {item['id']})")
            if result["overwrote"]:
                _say(f"overwrote changes made since the backup (--force): "
                     f"{', '.join(result['overwrote'])}")
            if result["left_changed"]:
                _say(f"left as it is (--force): {', '.join(result['left_changed'])}: changed since the "
                     "backup, which keeps no copy to put back")
            if result["safety_backup"]:
                _say(f"restored backup {result['restored']} ({len(result['paths'])} paths changed); "
                     f"the state before the restore is backup {result['safety_backup']}: undo with "
                     f"`{_self()} -w {ws} --restore {result['safety_backup']} --yes`{rerun_note(ws)}")
            else:
                _say(f"backup {result['restored']}: the files already match it; nothing changed")
            if result["indexes"]:
                _say(f"rebuilt from the restored files: {', '.join(result['indexes'])}")
            for note in result["notes"]:
                _say(f"note: {note}")
        return 0
    if uninstall_hooks and dry_run:
        # A preview: list what would go, change nothing (walk-through r4, item 1).
        would = initialize.uninstall_plan(ws)
        if json_:
            _emit({"workspace": str(ws), "dry_run": True, "would_remove": would,
                       "openclaw_settings": "would be given back as they were before the first install"
                       if would else None})
            return 0
        if not would:
            _say("no hooks of this bundle are installed; dry run: nothing was changed")
            return 0
        for rel in would:
            _say(f"would remove {rel}")
        _say("would give OpenClaw's hook and plugin settings back as they were before the first install")
        _say("dry run: nothing was changed")
        return 0
    if uninstall_hooks:
        if not yes and initialize.hooks_installed(ws):
            if not json_ and sys.stdin.isatty():
                if not click.confirm("Disable and remove the hooks and the plugin this bundle installed (backed up first)?",
                                     default=False):
                    _say("nothing changed")
                    return 1
            else:
                _deprecated_without_yes("--uninstall-hooks")
        if json_:
            report, plugin_report, backup_id = initialize.uninstall_hooks(ws)
            _emit({"workspace": str(ws), "hooks": report.to_dict(), "plugin": plugin_report.to_dict(),
                       "backup": backup_id})
            return 0
        working = step("removing the hooks and the plugin, giving OpenClaw's settings back") \
            if initialize.hooks_installed(ws) else contextlib.nullcontext()
        with working:
            report, plugin_report, backup_id = initialize.uninstall_hooks(ws)
        _hook_report(report)
        _hook_report(plugin_report)
        if backup_id:
            _say(f"removed {len(report.changed)} hook files"
                 + (f" and {len(plugin_report.changed)} plugin files" if plugin_report.changed else "")
                 + f"; backup {backup_id}")
        else:
            _say("no hooks of this bundle are installed")
        return 0
    if show_diff and not dry_run:
        raise click.UsageError("--diff prints a dry run's full diff: pass it with --dry-run")
    # Only a workspace's top folder is set up: never its skills/ or memory/, nor this bundle (item 1, r9).
    refuse_nested(ws)
    cfg = opened.config
    # A change a killed run left half-done is rolled back before planning, so the
    # plan starts from the files as they were (and --restore then finds them).
    # A dry run changes nothing, this rollback included: it says the rollback would come first.
    pending = backups.interrupted(ws) if dry_run else backups.repair(ws)
    interactive = not (json_ or dry_run) and sys.stdin.isatty()
    key_path = _key_to_create(cfg, yes, no_key, interactive, ws)
    lang_given = lang is not None
    lang, lang_source = resolve_language(lang, ws)
    if not json_:
        # The first line comes at once; planning may ask `openclaw --version` (seconds).
        _say(f"init {ws}: language {lang} ({lang_source}; change it with --lang zh|en)")
    planning = step("planning") if not json_ and not dry_run else contextlib.nullcontext()
    # Heartbeat sections: --no-heartbeat-move never, --heartbeat-move always, else init decides (None).
    move = False if no_heartbeat_move else (True if heartbeat_move else None)

    def rebuild():
        return initialize.build_plan(ws, cfg, lang, heartbeat_move=move, hooks=not no_hooks,
                                     plugin=not no_plugin, key_planned=key_path is not None)

    with planning:
        plan = rebuild()
    plan.language_source = lang_source
    if dry_run:
        if json_:
            _emit({"workspace": str(ws), "rule": opened.rule, "dry_run": True, "plan": plan.summary(),
                       "diff": "".join(c.diff() for c in plan.changes), "would_roll_back": pending,
                       "key": {"would_create": str(key_path) if key_path else None}})
        else:
            full = show_diff or verbose
            for ident in pending:
                _say(f"an interrupted change (backup {ident}) would be rolled back first; the "
                     f"{'diff' if full else 'changes'} below {'is' if full else 'are'} against the files "
                     "as they are now")
            if full:
                for change in plan.changes:
                    sys.stdout.write(unechoed(change.diff()))
                for folder in plan.new_dirs:
                    sys.stdout.write(f"mkdir {folder.relative_to(ws).as_posix()}/\n")
            else:
                _dry_run_summary(plan)
            if plan.empty and not key_path:
                _say("nothing to do: the workspace is already set up")
            elif plan.empty:
                _say("the workspace is already set up; only the AES key is missing")
            if key_path:
                _say(f"would create AES key {key_path} (mode 0600; losing it loses T2 entries)")
            _notes(plan)
            if not plan.empty or key_path:
                apply = _apply_command(ws, lang if lang_given else None, no_hooks, no_plugin, no_key,
                                       heartbeat_move, no_heartbeat_move)
                _say("dry run: nothing was changed. " + ("" if full or plan.empty else "Every line: the same "
                     "command with --diff. ") + f"Apply with: {apply}{rerun_note(ws)}")
            else:
                _say("dry run: nothing was changed")
        return 0
    if plan.empty:
        key = _make_key(cfg, ws, key_path if yes else None)
        _record_key(cfg, ws, key)
        if json_:
            _emit({"workspace": str(ws), "rule": opened.rule, "applied": False, "backup": None,
                       "plan": plan.summary(), "key": key})
        else:
            _say("nothing to do: the workspace is already set up")
            _key_line(key)
        return 0
    if not yes and (json_ or not sys.stdin.isatty()):
        raise click.UsageError("init rewrites AGENTS.md and MEMORY.md: pass --yes to apply, or --dry-run to preview")
    if json_:
        # The lock before the key, as below (nu16 item 15).
        with workspace_lock(ws):
            key = _make_key(cfg, ws, key_path)
            plan, backup_id = initialize.apply_fresh(plan, rebuild, _made(cfg, key, ws))
        initialize.enable_hooks(plan)
        _emit({"workspace": str(ws), "rule": opened.rule, "applied": backup_id is not None,
                   "backup": backup_id, "plan": plan.summary(), "key": key})
        return 0
    # The plan first, then each step as it happens.
    _show_plan(plan)
    _notes(plan)
    if not yes and not click.confirm("Apply these changes (the originals are backed up first)?", default=False):
        _say("nothing changed")
        return 1
    waited: list[float] = []

    def waiting() -> None:
        waited.append(time.monotonic())
        _say("waiting for the workspace lock: another command is changing this workspace …")

    # The writer lock first, then the key, then the files, under one hold (nu16 items 14 and 15): a
    # wait for another command is said as a wait, not shown as the writing step, and a Ctrl-C while
    # waiting leaves no key file behind (it is made only once the lock is held).
    with workspace_lock(ws, on_wait=waiting):
        if waited:
            _say(f"✓ waited for the workspace lock ({time.monotonic() - waited[0]:.1f} s)")
        if yes and initialize.changed_since_planned(plan):
            # Not confirmed diff by diff: another init wrote first; plan again from the files as they are
            # now, before saying what will be written (initialize.apply_fresh, walk-through r6 item 13).
            fresh = rebuild()
            fresh.language_source, fresh.replanned = plan.language_source, True
            plan = fresh
        # The key first: if it cannot be made, the workspace is still untouched.
        key = _make_key(cfg, ws, key_path)
        backup_id = None
        if not plan.empty:
            with step(f"backing up and writing {counted(len(plan.changes), 'file')}, "
                      f"{counted(len(plan.new_dirs), 'folder')}"):
                if yes:
                    plan, backup_id = initialize.apply_fresh(plan, rebuild, _made(cfg, key, ws))
                else:
                    backup_id = initialize.apply_files(plan, _made(cfg, key, ws))
        if backup_id is None:
            _record_key(cfg, ws, key)  # a key made for a workspace set up meanwhile (as "nothing to do" does)
    if plan.replanned:
        _say("note: another command (a second init?) changed the workspace while this one was planning; "
             "planned again from the files as they are now")
        if backup_id is None:
            _say("nothing left to do: the workspace is already set up")
            _key_line(key)
            return 0
    if plan.enable_hooks or plan.enable_plugin:
        what = " and ".join(w for w, on in (("the hooks", plan.enable_hooks), ("the plugin", plan.enable_plugin)) if on)
        calls = plan.enable_hooks + plan.enable_plugin
        if shutil.which("openclaw"):
            with step(f"enabling {what} in OpenClaw ({calls} config call{'s' if calls > 1 else ''}; "
                      f"about {15 * calls} s)"):
                initialize.enable_hooks(plan)
        else:
            # No ✓ for a step that did not happen: the commands are printed instead.
            initialize.enable_hooks(plan)
            _say(f"skipped: enabling {what} in OpenClaw: openclaw is not on PATH")
    if plan.hook_report is not None:
        _hook_report(plan.hook_report)
    if plan.plugin_report is not None:
        _hook_report(plan.plugin_report)
    _key_line(key)
    _say(f"done. Backup {backup_id}: undo with `{_self()} -w {ws} --restore {backup_id} --yes`{rerun_note(ws)}")
    return 0


if __name__ == "__main__":
    run(init)
