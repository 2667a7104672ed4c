#!/usr/bin/env python3
"""maintain.py: the heavier upkeep the hooks start detached after a turn or a session."""
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702

# Steps (each skipped with a note on stderr when its module is not available):
# 1. ``entries.rebuild_indexes(ws, cfg)``: bring daily-index.md and
#    knowledge-index.md in line with notes written during the session;
# 2. ``tiers.seal_plaintext_t2(ws, cfg)``: encrypt T2 entries an agent wrote by hand;
# 3. ``audit.audit_paths(ws, changed_paths, cfg)`` on the memory files changed
#    since the last run; findings go to ``memory/.state/bootstrap-note.json``,
#    which the next ``agent:bootstrap`` shows once;
# 4. ``scripts/cleanup.py --if-due``.
# Steps 1 and 2 run under the workspace lock. ``--only cleanup`` runs step 4 alone
# (``gateway:startup``). Exit 0 when every available step succeeded, 1 otherwise.

import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

from memory_manager import hookrun, tree  # noqa: E402

BUNDLE = pathlib.Path(__file__).resolve().parents[1]
STAMP_RELPATH = pathlib.Path(hookrun.MAINTAIN_STAMP_RELPATH)
PENDING_RELPATH = pathlib.Path(hookrun.PENDING_RELPATH)
USAGE_RELPATH = pathlib.Path(hookrun.USAGE_RELPATH)
#: Usage records kept: enough for a few weeks of turns; older ones say nothing
#: the current session needs. 1,000 records are ~200 KB. The hook also rotates
#: the file past 1 MiB (hookrun.USAGE_MAX_BYTES), for when this never runs.
USAGE_KEEP_LINES = 1000
#: Folders whose files are not audited: derived data, state, and the archive
#: (already audited before it was archived).
SKIP_DIRS = {*tree.PRIVATE, tree.ARCHIVE}
CLEANUP_TIMEOUT_S = 300


def note(message: str) -> None:
    sys.stderr.write(f"maintain: {message}\n")


def optional(module: str, attr: str):
    """Return ``memory_manager.<module>.<attr>`` or None (with a note) when missing."""
    try:
        mod = importlib.import_module(f"memory_manager.{module}")
    except ModuleNotFoundError as exc:
        note(f"skipped {module}.{attr}: {exc.name} is not available")
        return None
    func = getattr(mod, attr, None)
    if func is None:
        note(f"skipped {module}.{attr}: not defined")
    return func


def changed_since(ws: pathlib.Path, since: float, own: dict | None = None) -> list[pathlib.Path]:
    """Markdown files under memory/ (and MEMORY.md) modified after ``since`` (epoch seconds).

    ``own`` maps relative paths the last run wrote itself (indexes, sealed T2
    files) to their mtime in ns; those are skipped while unchanged since.
    """
    own = own or {}

    def ours(path: pathlib.Path) -> bool:
        rel = path.relative_to(ws).as_posix()
        return rel in own and path.stat().st_mtime_ns == own[rel]

    found = []
    root = tree.Tree(ws).memory
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            path = pathlib.Path(dirpath) / name
            if name.endswith(".md") and path.stat().st_mtime > since and not ours(path):
                found.append(path)
    memory_md = tree.Tree(ws).lessons_file() or tree.Tree(ws).memory_md
    if memory_md.is_file() and memory_md.stat().st_mtime > since and not ours(memory_md):
        found.append(memory_md)
    return sorted(found)


def finding_line(ws: pathlib.Path, finding) -> str:
    """One line for the bootstrap note: where and what kind, never the matched text."""
    get = finding.get if isinstance(finding, dict) else (lambda k, d=None: getattr(finding, k, d))
    path = get("file") or get("path")  # audit.AuditItem.file is workspace-relative
    try:
        path = (pathlib.Path(path).relative_to(ws).as_posix() if pathlib.Path(path).is_absolute()
                else pathlib.Path(path).as_posix()) if path else "?"
    except ValueError:
        path = str(path)
    line = get("line")
    where = f"{path}:{line}" if line else path
    return f"{where}: {get('category', '?')} ({get('rule', '?')})"


def read_stamp(ws: pathlib.Path) -> tuple[float, dict]:
    """(start of the last run in epoch seconds, the files it wrote) or (0, {})."""
    try:
        doc = json.loads((ws / STAMP_RELPATH).read_text(encoding="utf-8"))
        own = doc.get("own") if isinstance(doc.get("own"), dict) else {}
        return float(doc["at"]), own
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 0.0, {}


def trim_usage(ws: pathlib.Path) -> None:
    from memory_manager.fsio import atomic_write

    path = ws / USAGE_RELPATH
    try:
        lines = path.read_bytes().splitlines(keepends=True)
    except OSError:
        return
    if len(lines) > USAGE_KEEP_LINES:
        atomic_write(path, b"".join(lines[-USAGE_KEEP_LINES:]), mode=0o600)


def run_cleanup(ws: pathlib.Path) -> bool:
    script = BUNDLE / "scripts" / "cleanup.py"
    if not script.is_file():
        note("skipped cleanup: scripts/cleanup.py is not available")
        return True
    proc = subprocess.run([sys.executable, str(script), "--if-due", "--workspace", str(ws)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=CLEANUP_TIMEOUT_S)
    for line in (proc.stdout + proc.stderr).splitlines():
        note(f"cleanup: {line}")
    if proc.returncode != 0:
        note(f"cleanup exited {proc.returncode}")
    return proc.returncode == 0


def maintain(ws: pathlib.Path, only: str | None = None) -> bool:
    """Run the steps; return True when every available step succeeded."""
    from memory_manager.clock import now
    from memory_manager.fsio import atomic_write, workspace_lock
    from memory_manager.workspace import Workspace

    cfg = Workspace(ws).config
    ok = True
    if only != "cleanup":
        started = time.time()
        since, own = read_stamp(ws)
        changed = changed_since(ws, since, own)
        written: list[pathlib.Path] = []
        rebuild = optional("entries", "rebuild_indexes")
        seal = optional("tiers", "seal_plaintext_t2")
        audit = optional("audit", "audit_paths")
        with workspace_lock(ws):
            for label, func in (("rebuild_indexes", rebuild), ("seal_plaintext_t2", seal)):
                if func is None:
                    continue
                try:
                    paths = func(ws, cfg)
                    written += [pathlib.Path(p) for p in paths or []]
                    if paths:
                        note(f"{label}: {', '.join(str(p) for p in paths)}")
                except Exception as exc:  # noqa: BLE001 - one failing step must not stop the others
                    ok = False
                    note(f"{label} failed: {exc.__class__.__name__}: {exc}")
            trim_usage(ws)
        if audit is not None and changed:
            try:
                findings = list(audit(ws, changed, cfg).findings)
            except Exception as exc:  # noqa: BLE001
                ok, findings = False, []
                note(f"audit_paths failed: {exc.__class__.__name__}: {exc}")
            if findings:
                lines = [finding_line(ws, f) for f in findings]
                doc = {"format": "cmm-bootstrap-note", "version": 1,
                       "created": now().isoformat(timespec="seconds"), "lines": lines}
                atomic_write(ws / PENDING_RELPATH, (json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
                             .encode("utf-8"), mode=0o600)
                note(f"audit: {len(lines)} finding(s) queued for the next bootstrap note")
        # The stamp is the start time, so a user's edit made during this run
        # is audited next time; our own writes are listed so they are not.
        own_now = {}
        for path in written:
            try:
                own_now[path.relative_to(ws).as_posix()] = path.stat().st_mtime_ns
            except (OSError, ValueError):
                pass
        atomic_write(ws / STAMP_RELPATH, (json.dumps({"format": "cmm-maintain-stamp", "version": 1,
                                                      "at": started, "own": own_now}, ensure_ascii=False)
                                          + "\n").encode("utf-8"), mode=0o600)
    ok = run_cleanup(ws) and ok
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="maintain.py", description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", "-w", required=True)
    parser.add_argument("--event", default="manual", help="The hook event that started this run (logged).")
    parser.add_argument("--only", choices=["cleanup"], help="Run only this step.")
    from memory_manager import __version__

    parser.add_argument("--version", action="version", version=f"complex-memory-manager {__version__}")
    args = parser.parse_args(argv)
    from memory_manager.errors import MemoryManagerError

    ws = pathlib.Path(args.workspace)
    if not ws.is_dir():
        note(f"workspace {ws} is not a directory")
        return 2
    from memory_manager.workspace import is_set_up

    if not is_set_up(ws):
        # Fail open like the hooks that start us: never create memory/ (its
        # indexes, .state, .cache) or .memory-backup/ in a folder init.py did
        # not set up.
        note(f"{ws} is not set up (no {tree.MEMORY}/ folder inside it; run init.py); nothing done")
        return 0
    note(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} start ({args.event})")
    from memory_manager.deps import install_command, missing

    absent = missing()
    if absent:
        # The hook runs whatever python3 is on the Gateway's PATH; without the
        # bundle's packages nothing here can run safely (no lock, no crypto).
        note(f"skipped everything: missing Python packages {', '.join(absent)}; "
             f"install them with: {' '.join(install_command())}")
        return 2
    try:
        ok = maintain(ws, args.only)
    except MemoryManagerError as exc:
        note(f"error: {exc}")
        return exc.exit_code
    except Exception as exc:  # noqa: BLE001 - detached: a traceback helps nobody in a log
        note(f"failed: {exc.__class__.__name__}: {exc}")
        return 1
    note(f"done ({'ok' if ok else 'with errors'})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
