"""The upkeep the hooks start, detached, after a turn or a session: the one owner of upkeep.

Steps, in order (each one's failure is logged and the next still runs):

1. :func:`memory_manager.entries.rebuild_indexes`: bring ``daily-index.md``
   and ``knowledge-index.md`` in line with notes written during the session;
2. :func:`memory_manager.tiers.seal_plaintext_t2`: encrypt T2 entries an
   agent wrote by hand;
3. trim the context-usage log to :data:`USAGE_KEEP_LINES` records;
4. :func:`memory_manager.audit.audit_paths` on the memory files changed since
   the last run; findings go to ``memory/.state/bootstrap-note.json``, which
   the next ``agent:bootstrap`` shows once (where and what kind, never the
   matched text);
5. :func:`memory_manager.cleanup.run_cleanup` when due (7 days), in this
   process: the hook starts one process, never a chain of them.

Steps 1-3 run under the workspace lock. ``only="cleanup"`` runs step 5 alone
(``gateway:startup``). ``scripts/maintain.py`` is the thin front end the
hook starts (:func:`memory_manager.hookrun.spawn_maintenance`).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable

from .regular import read_regular, read_regular_text
from . import audit, cleanup, entries, hookrun, jsonio, tiers, tree
from .clock import now
from .fsio import atomic_write, workspace_lock
from .workspace import Workspace

#: Usage records kept: enough for a few weeks of turns; older ones say nothing
#: the current session needs. 1,000 records are ~200 KB. The hook also rotates
#: the file past 1 MiB (hookrun.USAGE_MAX_BYTES), for when this never runs.
USAGE_KEEP_LINES = 1000
#: Folders whose files are not audited: derived data, state, and the archive
#: (already audited before it was archived).
SKIP_DIRS = {*tree.PRIVATE, tree.ARCHIVE}

Log = Callable[[str], None]


def changed_since(ws: Path, since: float, own: dict[str, int] | None = None) -> list[Path]:
    """Markdown files under ``memory/`` (and the lessons file) modified after ``since``.

    Args:
        ws: the workspace root.
        since: epoch seconds (the start of the last run).
        own: relative path -> mtime in ns of files the last run wrote itself
            (indexes, sealed T2 files); those are skipped while unchanged since.
    """
    own = own or {}

    def ours(path: Path) -> bool:
        rel = path.relative_to(ws).as_posix()
        return rel in own and path.stat().st_mtime_ns == own[rel]

    found = []
    paths = tree.Tree(ws)
    for dirpath, dirnames, filenames in os.walk(paths.memory):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            path = Path(dirpath) / name
            if name.endswith(".md") and path.stat().st_mtime > since and not ours(path):
                found.append(path)
    for name in tree.MEMORY_MD_NAMES:
        lessons = ws / name
        if lessons.is_file() and lessons.stat().st_mtime > since and not ours(lessons):
            found.append(lessons)
    return sorted(set(found))


def finding_line(ws: Path, finding: Any) -> str:
    """One line for the bootstrap note: where and what kind, never the matched text."""
    get = finding.get if isinstance(finding, dict) else (lambda k, d=None: getattr(finding, k, d))
    path = get("file") or get("path")  # audit.AuditItem.file is workspace-relative
    try:
        path = (Path(path).relative_to(ws).as_posix() if Path(path).is_absolute()
                else Path(path).as_posix()) if path else "?"
    except ValueError:
        path = str(path)
    line = get("line")
    where = f"{path}:{line}" if line else path
    return f"{where}: {get('category', '?')} ({get('rule', '?')})"


def read_stamp(ws: Path) -> tuple[float, dict[str, int]]:
    """Return (start of the last run in epoch seconds, the files it wrote), or ``(0, {})``."""
    try:
        doc = jsonio.loads(read_regular_text(ws / hookrun.MAINTAIN_STAMP_RELPATH, "utf-8"), "maintain stamp")
        own = doc.get("own") if isinstance(doc.get("own"), dict) else {}
        return float(doc["at"]), own
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 0.0, {}


def trim_usage(ws: Path) -> None:
    """Keep the last :data:`USAGE_KEEP_LINES` records of the context-usage log; rewrite v1 labels as v2.

    A ``cmm-context-usage`` v1 record kept a session key's plain lower-case
    words (a cron job id, a subagent label: tatk9); such a record is rewritten
    by the v2 rule (:func:`memory_manager.hookrun.upgrade_usage_record`), in the
    log and in its rotated part (``.1``), so the words leave the disk at the
    next upkeep (a v1 record whose label v2 keeps as it is stays as written).
    """
    relabel = hookrun.usage_relabeller(ws)
    for rel_path, keep in ((hookrun.USAGE_RELPATH, USAGE_KEEP_LINES), (hookrun.USAGE_RELPATH + ".1", None)):
        path = ws / rel_path
        try:
            lines = read_regular(path).splitlines(keepends=True)
        except OSError:
            continue
        changed = keep is not None and len(lines) > keep
        if changed:
            lines = lines[-keep:]
        out = []
        for line in lines:
            if b'"v": 1' in line or b'"v":1' in line:
                try:
                    doc = jsonio.parse(line.decode("utf-8"))
                except (ValueError, UnicodeDecodeError):
                    doc = None
                new = hookrun.upgrade_usage_record(doc, relabel) if isinstance(doc, dict) else None
                if new is not None and new.get("session") != doc.get("session"):  # it kept a plain word
                    line = (json.dumps(new, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
                    changed = True
            out.append(line)
        if changed:
            atomic_write(path, b"".join(out), mode=0o600)


def cleanup_if_due(workspace: Workspace, log: Log) -> bool:
    """Run the 7-day cleanup when due, in this process; return True unless it failed."""
    try:
        report = cleanup.run_cleanup(workspace.root, workspace.config, if_due=True)
    except Exception as exc:  # noqa: BLE001 - detached: log it, the other steps already ran
        log(f"cleanup failed: {exc.__class__.__name__}: {exc}")
        return False
    if not report.ran:
        log(f"cleanup: not due (last run {report.last_run})")
        return True
    log(f"cleanup: {report.log_line}")
    for problem in report.problems:
        log(f"cleanup: warning: {problem}")
    return True


def run(workspace: Workspace, log: Log, only: str | None = None) -> bool:
    """Run the upkeep steps (module docstring) on a set-up workspace.

    Args:
        workspace: the opened workspace (its config is loaded here).
        log: receives one line per thing done or failed (the detached log).
        only: ``"cleanup"`` to run step 5 alone.

    Returns True when every step succeeded.

    Raises:
        ConfigError: the workspace config is invalid (nothing was done).
        FileWriteError: the workspace lock could not be taken.
    """
    ws, cfg = workspace.root, workspace.config
    ok = True
    if only != "cleanup":
        started = time.time()
        since, own = read_stamp(ws)
        changed = changed_since(ws, since, own)
        written: list[Path] = []
        with workspace_lock(ws):
            for label, step in (("rebuild_indexes", entries.rebuild_indexes),
                                ("seal_plaintext_t2", tiers.seal_plaintext_t2)):
                try:
                    paths = step(ws, cfg)
                    written += [Path(p) for p in paths or []]
                    if paths:
                        log(f"{label}: {', '.join(str(p) for p in paths)}")
                except Exception as exc:  # noqa: BLE001 - one failing step must not stop the others
                    ok = False
                    log(f"{label} failed: {exc.__class__.__name__}: {exc}")
            trim_usage(ws)
        if changed:
            try:
                findings = list(audit.audit_paths(ws, changed, cfg).findings)
            except Exception as exc:  # noqa: BLE001
                ok, findings = False, []
                log(f"audit_paths failed: {exc.__class__.__name__}: {exc}")
            if findings:
                lines = [finding_line(ws, f) for f in findings]
                doc = {"format": "cmm-bootstrap-note", "version": 1,
                       "created": now().isoformat(timespec="seconds"), "lines": lines}
                atomic_write(ws / hookrun.PENDING_RELPATH,
                             (json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode("utf-8"), mode=0o600)
                log(f"audit: {len(lines)} finding(s) queued for the next bootstrap note")
        # The stamp is the start time, so a user's edit made during this run
        # is audited next time; our own writes are listed so they are not.
        own_now = {}
        for path in written:
            try:
                own_now[path.relative_to(ws).as_posix()] = path.stat().st_mtime_ns
            except (OSError, ValueError):
                pass
        atomic_write(ws / hookrun.MAINTAIN_STAMP_RELPATH,
                     (json.dumps({"format": "cmm-maintain-stamp", "version": 1, "at": started, "own": own_now},
                                 ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"), mode=0o600)
    return cleanup_if_due(workspace, log) and ok
