"""Installing the bundle's OpenClaw hooks into a workspace, and removing them.

OpenClaw 2026.9.6 does not discover hooks inside a skill folder, so ``init``
copies each ``<bundle>/hooks/<name>/`` to ``<workspace>/hooks/<name>/`` and
writes ``bundle-path.json`` beside the handler (format ``cmm-bundle-path``
v1, ``references/formats.md``): the handler reads it to find
``scripts/hook.py`` wherever the skill lives. Every file replaced is saved
through the caller's :class:`~memory_manager.backups.Backup` first; files
that are already identical are left alone (a re-run changes nothing).

Workspace hooks need an explicit ``openclaw hooks enable <name>``. Careful
(OpenClaw docs, "Hook configuration"): once any hook is enabled by name,
the enabled names form an allowlist, so a Gateway that discovered hooks
open-endedly (``hooks.internal.enabled: true`` and no named entries) would
stop loading the others. We therefore read which hooks were loading before,
enable ours, compare ``openclaw hooks list --json`` before and after, and
enable by name every hook that was loading and no longer is. When the
``openclaw`` command is not on PATH, the exact commands are returned for the
user to run. Either way the Gateway must be restarted to load hook files.

The caller (``init``) holds the workspace lock and owns the backup.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from . import __version__
from .fsio import atomic_write

BUNDLE_PATH_FILE = "bundle-path.json"
BUNDLE_PATH_FORMAT = {"format": "cmm-bundle-path", "version": 1}
#: Files of a hook folder that we ship (anything else in an installed folder
#: is the user's and is left alone).
HOOK_FILES = ("HOOK.md", "handler.js")
RESTART_HINT = "Restart the OpenClaw Gateway to load the hooks (openclaw gateway restart)."
#: Seconds an ``openclaw`` CLI call may take (it loads plugins: ~2-5 s).
OPENCLAW_TIMEOUT_S = 120

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


@dataclass
class HookReport:
    """What an install/uninstall did or would do.

    ``changed``: workspace paths written or removed; ``commands``: openclaw
    commands run (or to run, when ``ran`` is false); ``kept_loading``: hooks
    enabled by name so they keep loading; ``messages``: lines for the user;
    ``errors``: commands that failed (the files are still installed).
    """

    hooks: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    ran: bool = False
    kept_loading: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def bundle_hooks(bundle_root: Path) -> list[str]:
    """Names of the hook folders the bundle ships (``hooks/<name>/HOOK.md``), sorted."""
    root = Path(bundle_root) / "hooks"
    if not root.is_dir():
        return []
    return sorted(p.parent.name for p in root.glob("*/HOOK.md"))


def bundle_path_doc(bundle_root: Path, python: str | None = None, timeout_s: float = 2) -> bytes:
    """The ``bundle-path.json`` bytes (no timestamp: re-runs stay no-ops).

    ``python`` (default: this interpreter, the one ``init`` runs with and that
    has the bundle's packages) is what the handler runs ``hook.py`` with; the
    handler falls back to ``python3`` on PATH when that file is gone.
    ``timeout_s`` is ``hooks.timeout_seconds`` from the workspace config: the
    handler kills ``hook.py`` after that long (issue 6: bounded to 2 s).
    """
    doc = dict(BUNDLE_PATH_FORMAT, bundle=str(Path(bundle_root).resolve()), python=python or sys.executable,
               timeoutMs=int(timeout_s * 1000), tool_version=__version__)
    return (json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def _timeout(ws: Path) -> float:
    """``hooks.timeout_seconds`` of the workspace config (default 2 on a bad config: fail open)."""
    from .config import load_config
    from .errors import ConfigError

    try:
        return float(load_config(ws)["hooks"]["timeout_seconds"]) or 2
    except ConfigError:
        return 2


def _desired(bundle_root: Path, name: str, ws: Path) -> dict[str, bytes]:
    src = Path(bundle_root) / "hooks" / name
    files = {f: (src / f).read_bytes() for f in HOOK_FILES if (src / f).is_file()}
    files[BUNDLE_PATH_FILE] = bundle_path_doc(bundle_root, timeout_s=_timeout(ws))
    return files


def desired_files(ws: Path, bundle_root: Path) -> dict[str, bytes]:
    """Every file an installation puts in the workspace: ``{"hooks/<name>/<file>": bytes}``.

    ``init`` stages these in its own transaction (so a failed write leaves the
    workspace as it was) and then calls :func:`enable`.
    """
    return {f"hooks/{name}/{fname}": data for name in bundle_hooks(bundle_root)
            for fname, data in _desired(bundle_root, name, Path(ws)).items()}


def enable(ws: Path, bundle_root: Path, openclaw: str | None = "auto", runner: Runner | None = None,
           oc_config: Callable[[], dict[str, Any] | None] | None = None) -> HookReport:
    """Enable the bundle's hooks, whose files are already in ``<ws>/hooks/`` (``init``).

    Same enabling rules and report as :func:`install`, without writing files.
    """
    report = HookReport(hooks=bundle_hooks(bundle_root))
    report.messages.append(RESTART_HINT)
    return _enable(report, _which(openclaw), runner or _run, oc_config or _oc_config, enable=True)


def plan(ws: Path, bundle_root: Path) -> HookReport:
    """Return what :func:`install` would do, changing nothing (``init --dry-run``).

    ``changed`` lists the files that would be written; ``commands`` the
    openclaw commands that would run.
    """
    ws, report = Path(ws), HookReport(hooks=bundle_hooks(bundle_root))
    for name in report.hooks:
        for fname, data in _desired(bundle_root, name, ws).items():
            target = ws / "hooks" / name / fname
            if not target.is_file() or target.read_bytes() != data:
                report.changed.append(f"hooks/{name}/{fname}")
    report.commands = [f"openclaw hooks enable {name}" for name in report.hooks]
    if shutil.which("openclaw") is None:
        report.messages.append("openclaw is not on PATH; the commands will be printed for you to run.")
    report.messages.append(RESTART_HINT)
    return report


def _which(openclaw: str | None) -> str | None:
    if openclaw == "auto":
        return shutil.which("openclaw")
    return openclaw


def _run(cmd: Sequence[str]) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(list(cmd), capture_output=True, text=True, timeout=OPENCLAW_TIMEOUT_S,
                          stdin=subprocess.DEVNULL)


def parse_hooks_list(text: str) -> dict[str, dict[str, Any]]:
    """Parse ``openclaw hooks list --json`` output (log lines before the JSON are skipped)."""
    start = text.find("{")
    if start < 0:
        return {}
    try:
        doc = json.loads(text[start:])
    except ValueError:
        return {}
    return {h["name"]: h for h in doc.get("hooks", []) if isinstance(h, dict) and "name" in h}


def _ready(hook: dict[str, Any]) -> bool:
    return bool(hook.get("eligible") and hook.get("loadable") and not hook.get("disabled")
                and hook.get("enabledByConfig", True))


def loading_hooks(listed: dict[str, dict[str, Any]], oc_config: dict[str, Any] | None) -> set[str]:
    """Which listed hooks the Gateway actually loads under ``oc_config`` (OpenClaw 2026.9.6 rules).

    * ``hooks.internal.enabled: false``: none;
    * named entries enabled: those names (an allowlist);
    * master flag true with no named entries, or non-empty ``load.extraDirs``:
      open-ended discovery of every ready hook except workspace hooks, which
      always need their own entry;
    * nothing configured: none (directory-hook loading is skipped).
    """
    internal = ((oc_config or {}).get("hooks") or {}).get("internal") or {}
    if not isinstance(internal, dict) or internal.get("enabled") is False:
        return set()
    entries = internal.get("entries") if isinstance(internal.get("entries"), dict) else {}
    named = {k for k, v in entries.items() if not (isinstance(v, dict) and v.get("enabled") is False)}
    extra = (internal.get("load") or {}).get("extraDirs") if isinstance(internal.get("load"), dict) else None
    open_ended = bool(extra) or (internal.get("enabled") is True and not named)
    ready = {n for n, h in listed.items() if _ready(h)}
    if open_ended:
        return {n for n in ready if listed[n].get("source") != "openclaw-workspace" or n in named}
    return ready & named


def _oc_config() -> dict[str, Any] | None:
    from .workspace import read_openclaw_config

    return read_openclaw_config()


def install(ws: Path, bundle_root: Path, backup, openclaw: str | None = "auto",
            runner: Runner | None = None, oc_config: Callable[[], dict[str, Any] | None] | None = None) -> HookReport:
    """Copy the bundle's hooks into ``<ws>/hooks/`` and enable them.

    Args:
        ws: the workspace (caller holds its lock).
        bundle_root: the bundle folder (holds ``hooks/`` and ``scripts/hook.py``).
        backup: an open :class:`~memory_manager.backups.Backup`; every file
            replaced or created is saved through it before it changes.
        openclaw: path of the ``openclaw`` command, ``"auto"`` to look it up
            on PATH, None to only return the commands.
        runner, oc_config: injection points for tests (run a command; read
            OpenClaw's config).

    Returns a :class:`HookReport`. Raises BackupError / FileWriteError when
    a file cannot be backed up or written (nothing half-installed: the backup
    restores it). A failing ``openclaw`` command is reported, not raised.
    """
    ws = Path(ws)
    report = HookReport(hooks=bundle_hooks(bundle_root))
    for name in report.hooks:
        folder = ws / "hooks" / name
        for fname, data in _desired(bundle_root, name, ws).items():
            target = folder / fname
            if target.is_file() and not target.is_symlink() and target.read_bytes() == data:
                continue
            if not folder.parent.exists():
                backup.save_new_dir(folder.parent)
            if not folder.exists():
                backup.save_new_dir(folder)
            backup.save(target)
            if target.is_symlink():
                target.unlink()
            atomic_write(target, data, mode=0o644)
            report.changed.append(f"hooks/{name}/{fname}")
    report.messages.append(RESTART_HINT)
    return _enable(report, _which(openclaw), runner or _run, oc_config or _oc_config, enable=True)


def _enable(report: HookReport, openclaw: str | None, runner: Runner,
            oc_config: Callable[[], dict[str, Any] | None], enable: bool) -> HookReport:
    verb = "enable" if enable else "disable"
    report.commands = [f"openclaw hooks {verb} {name}" for name in report.hooks]
    if not openclaw:
        report.messages.insert(0, "openclaw is not on PATH; run these commands yourself:")
        return report

    def listed() -> dict[str, dict[str, Any]]:
        try:
            proc = runner([openclaw, "hooks", "list", "--json"])
        except (OSError, subprocess.SubprocessError) as exc:
            report.errors.append(f"openclaw hooks list --json: {exc}")
            return {}
        return parse_hooks_list(proc.stdout)

    before_list = listed()
    before = loading_hooks(before_list, oc_config())
    report.ran = True
    for name in report.hooks:
        try:
            proc = runner([openclaw, "hooks", verb, name])
        except (OSError, subprocess.SubprocessError) as exc:
            report.errors.append(f"openclaw hooks {verb} {name}: {exc}")
            continue
        if proc.returncode != 0:
            detail = (proc.stderr or proc.stdout).strip().splitlines()
            report.errors.append(f"openclaw hooks {verb} {name}: {detail[-1] if detail else proc.returncode}")
    after_list = listed()
    after = loading_hooks(after_list, oc_config())
    ours = set(report.hooks)
    for name in sorted((before - after) - ours):
        proc = runner([openclaw, "hooks", "enable", name])
        report.commands.append(f"openclaw hooks enable {name}")
        if proc.returncode == 0:
            report.kept_loading.append(name)
        else:
            report.errors.append(f"openclaw hooks enable {name} failed; it may no longer load")
    if enable:
        missing = [n for n in report.hooks if n not in after_list]
        if after_list and missing:
            report.errors.append("OpenClaw does not see " + ", ".join(missing) +
                                 " (is this workspace OpenClaw's agent workspace?)")
    return report


def uninstall(ws: Path, backup, bundle_root: Path | None = None, openclaw: str | None = "auto",
              runner: Runner | None = None,
              oc_config: Callable[[], dict[str, Any] | None] | None = None) -> HookReport:
    """Disable the hooks and remove the files :func:`install` wrote (``init --uninstall-hooks``).

    Each removed file is saved through ``backup`` first; files a user added
    to a hook folder stay, and so does the folder then. Hooks enabled earlier
    to keep them loading stay enabled (they were loading before install).
    ``bundle_root`` defaults to this package's bundle (for the hook names).
    With none of the bundle's hook folders present it returns an empty report
    (no messages, no commands) without running ``openclaw``.
    """
    from . import BUNDLE_ROOT

    ws = Path(ws)
    names = bundle_hooks(bundle_root or BUNDLE_ROOT)
    report = HookReport(hooks=[n for n in names if (ws / "hooks" / n).exists()])
    if not report.hooks:
        # Nothing installed (a second --uninstall-hooks, say): no openclaw
        # call, no commands to print, no restart to ask for.
        return report
    report = _enable(report, _which(openclaw), runner or _run, oc_config or _oc_config, enable=False)
    for name in report.hooks:
        folder = ws / "hooks" / name
        for fname in (*HOOK_FILES, BUNDLE_PATH_FILE):
            target = folder / fname
            if target.is_file() or target.is_symlink():
                backup.save(target)
                target.unlink()
                report.changed.append(f"hooks/{name}/{fname}")
        try:
            folder.rmdir()
        except OSError:
            pass
    hooks_dir = ws / "hooks"
    try:
        hooks_dir.rmdir()  # only when empty: we never remove a user's hooks
    except OSError:
        pass
    report.messages.append("Restart the OpenClaw Gateway to unload the hooks (openclaw gateway restart).")
    return report
