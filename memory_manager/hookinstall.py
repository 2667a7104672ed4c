"""Installing the bundle's OpenClaw hooks into a workspace, and removing them.

OpenClaw 2026.9.6 does not discover hooks inside a skill folder, so ``init``
copies each ``<bundle>/hooks/<name>/`` to ``<workspace>/hooks/<name>/`` and
writes ``bundle-path.json`` beside the handler (format ``cmm-bundle-path``
v1, ``references/formats.md``): the handler reads it to find
``scripts/hook.py`` wherever the skill lives. Every file replaced is saved
through the caller's :class:`~memory_manager.backups.Backup` first; files
that are already identical are left alone (a re-run changes nothing).

Workspace hooks must be enabled by name in OpenClaw's config
(``hooks.internal.entries.<name>.enabled``). ``openclaw hooks enable`` takes
one name per call and each call loads OpenClaw's plugins (about 10 s), so
init writes ``hooks.internal`` in a single ``openclaw config set`` call
instead, after one ``openclaw hooks list --json`` (which hooks OpenClaw sees,
which are eligible, which are loading). Careful (OpenClaw docs, "Hook
configuration"): once any hook is enabled by name, the enabled names form an
allowlist, so a Gateway that discovered hooks open-endedly
(``hooks.internal.enabled: true`` and no named entries) would stop loading
the others: every hook that was loading is named as well.

Before the first install, ``hooks.internal`` as it was is recorded in the
workspace (``memory/.state/openclaw-hooks-before.json``, format
``cmm-openclaw-hooks`` v1); ``--uninstall-hooks`` writes exactly that back
(or removes the key when there was none) and deletes the record, so
install -> uninstall -> install -> uninstall leaves OpenClaw's hook settings
as they were. When the ``openclaw`` command is not on PATH, the commands are
returned for the user to run. Either way the Gateway must be restarted to
load hook files.

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

from .jsonio import parse as _parse_json
from .regular import read_regular, read_regular_text
from . import __version__
from .fsio import atomic_write

BUNDLE_PATH_FILE = "bundle-path.json"
#: OpenClaw's ``hooks.internal`` as it was before the first install (format
#: ``cmm-openclaw-hooks`` v1, references/formats.md; path: tree.Tree.openclaw_hooks_record)
#: is given back by uninstall.
RECORD_FORMAT = {"format": "cmm-openclaw-hooks", "version": 1}
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


#: The first line of our handler.js: how an installed folder is recognised as ours.
HANDLER_SIGNATURE = b"// complex-memory-manager hook handler"


def installed_hooks(ws: Path) -> list[str]:
    """Names of the folders in ``<ws>/hooks/`` that hold our handler (sorted)."""
    root = Path(ws) / "hooks"
    found = []
    for handler in root.glob("*/handler.js") if root.is_dir() else ():
        try:
            with open(handler, "rb") as fh:
                if fh.read(len(HANDLER_SIGNATURE)) == HANDLER_SIGNATURE:
                    found.append(handler.parent.name)
        except OSError:
            continue
    return sorted(found)


def hook_names(ws: Path, bundle_root: Path) -> list[str]:
    """The hooks to install or repair: the bundle's, or, when the skill copy has no
    ``hooks/`` folder (a registry copy may not), the ones already installed in ``ws``."""
    return bundle_hooks(bundle_root) or installed_hooks(ws)


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
    """The files of hook ``name``: the bundle's HOOK.md and handler.js when it ships them (a copy
    without ``hooks/`` leaves the installed ones as they are), and a bundle-path.json pointing here."""
    src = Path(bundle_root) / "hooks" / name
    files = {f: read_regular(src / f) for f in HOOK_FILES if (src / f).is_file()}
    files[BUNDLE_PATH_FILE] = bundle_path_doc(bundle_root, timeout_s=_timeout(ws))
    return files


def desired_files(ws: Path, bundle_root: Path) -> dict[str, bytes]:
    """Every file an installation puts in the workspace: ``{"hooks/<name>/<file>": bytes}``.

    ``init`` stages these in its own transaction (so a failed write leaves the
    workspace as it was) and then calls :func:`enable`.
    """
    return {f"hooks/{name}/{fname}": data for name in hook_names(ws, bundle_root)
            for fname, data in _desired(bundle_root, name, Path(ws)).items()}


def enable(ws: Path, bundle_root: Path, openclaw: str | None = "auto", runner: Runner | None = None,
           oc_config: Callable[[], dict[str, Any] | None] | None = None) -> HookReport:
    """Enable the bundle's hooks, whose files are already in ``<ws>/hooks/`` (``init``).

    Same enabling rules and report as :func:`install`, without writing files.
    """
    report = HookReport(hooks=hook_names(ws, bundle_root))
    report.messages.append(RESTART_HINT)
    return _enable(report, _which(openclaw), runner or _run, oc_config or _oc_config, enable=True, ws=Path(ws))


def plan(ws: Path, bundle_root: Path) -> HookReport:
    """Return what :func:`install` would do, changing nothing (``init --dry-run``).

    ``changed`` lists the files that would be written; ``commands`` the
    openclaw commands that would run.
    """
    ws, report = Path(ws), HookReport(hooks=bundle_hooks(bundle_root))
    for name in report.hooks:
        for fname, data in _desired(bundle_root, name, ws).items():
            target = ws / "hooks" / name / fname
            if not target.is_file() or read_regular(target) != data:
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
        doc = _parse_json(text[start:])
    except ValueError:
        return {}
    return {h["name"]: h for h in doc.get("hooks", []) if isinstance(h, dict) and "name" in h}


def _requirements_met(hook: dict[str, Any]) -> bool:
    """True unless OpenClaw says the hook's requirements (bins, env, OS) are missing.

    ``requirementsSatisfied`` is what ``openclaw hooks enable`` checks
    (2026.9.6); ``eligible`` is false for any hook not enabled yet, so it
    is read only when the other field is absent.
    """
    if "requirementsSatisfied" in hook:
        return bool(hook["requirementsSatisfied"])
    return bool(hook.get("eligible", True)) or not any((hook.get("missing") or {}).values())


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
            if target.is_file() and not target.is_symlink() and read_regular(target) == data:
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
    return _enable(report, _which(openclaw), runner or _run, oc_config or _oc_config, enable=True, ws=ws)


def _set_internal(report: HookReport, openclaw: str, runner: Runner, internal: dict[str, Any] | None,
                  drop_hooks: bool = False) -> bool:
    """Write ``hooks.internal`` of OpenClaw's config in one ``openclaw config`` call; True on success.

    ``internal`` None removes the key (``config unset``); ``drop_hooks``
    removes the whole ``hooks`` key instead (it held nothing but ours).
    One call instead of one ``openclaw hooks enable`` per hook: each call
    loads OpenClaw's plugins (about 7-14 s), and ``hooks enable`` takes one
    name only (OpenClaw 2026.9.6 ``hooks enable <name>``).
    """
    if drop_hooks:
        cmd = [openclaw, "config", "unset", "hooks"]
    elif internal is None:
        cmd = [openclaw, "config", "unset", "hooks.internal"]
    else:
        cmd = [openclaw, "config", "set", "hooks.internal", json.dumps(internal, ensure_ascii=False, allow_nan=False), "--strict-json"]
    shown = " ".join(cmd[1:4]) + (f" '{cmd[4]}' --strict-json" if len(cmd) > 4 else "")
    report.commands.append(f"openclaw {shown}")
    report.ran = True
    try:
        proc = runner(cmd)
    except (OSError, subprocess.SubprocessError) as exc:
        report.errors.append(f"openclaw {' '.join(cmd[1:4])}: {exc}")
        return False
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip().splitlines()
        report.errors.append(f"openclaw {' '.join(cmd[1:4])}: {detail[-1] if detail else proc.returncode}")
        return False
    return True


def _internal_of(config: dict[str, Any] | None) -> dict[str, Any] | None:
    hooks = (config or {}).get("hooks")
    internal = hooks.get("internal") if isinstance(hooks, dict) else None
    return json.loads(json.dumps(internal, allow_nan=False)) if isinstance(internal, dict) else None


def record_path(ws: Path) -> Path:
    """Where the workspace keeps OpenClaw's hook settings as they were before the first install."""
    from .tree import Tree

    return Tree(Path(ws)).openclaw_hooks_record


def read_record(ws: Path) -> dict[str, Any] | None:
    """The recorded hook settings (format ``cmm-openclaw-hooks`` v1), or None when absent or unreadable."""
    try:
        doc = _parse_json(read_regular_text(record_path(ws), "utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(doc, dict) and doc.get("format") == RECORD_FORMAT["format"] and "internal" in doc:
        return doc
    return None


def _record(ws: Path, config: dict[str, Any] | None) -> None:
    """Save OpenClaw's ``hooks.internal`` (and whether ``hooks`` existed) unless a record is there.

    Only ``hooks.internal`` is kept: ``hooks`` may also hold the webhook
    token, which has no business in a workspace file.
    """
    if read_record(ws) is not None:
        return
    doc = dict(RECORD_FORMAT, hooks_present=isinstance((config or {}).get("hooks"), dict),
               internal=_internal_of(config))
    path = record_path(ws)
    atomic_write(path, (json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"), mode=0o600)


def _enable(report: HookReport, openclaw: str | None, runner: Runner,
            oc_config: Callable[[], dict[str, Any] | None], enable: bool, ws: Path | None = None) -> HookReport:
    """Enable the bundle's hooks in OpenClaw's config (``hooks.internal``), in one call.

    Before the first install, OpenClaw's ``hooks.internal`` is recorded in
    the workspace (:func:`_record`) so that uninstalling gives exactly that back.
    Hooks that were loading open-endedly are named too (an allowlist would
    drop them otherwise, see the module docstring).
    """
    report.commands = [f"openclaw hooks enable {name}" for name in report.hooks]
    if not openclaw:
        report.messages.insert(0, "openclaw is not on PATH; run these commands yourself:")
        return report
    report.commands = []
    try:
        proc = runner([openclaw, "hooks", "list", "--json"])
        listed = parse_hooks_list(proc.stdout)
    except (OSError, subprocess.SubprocessError) as exc:
        report.errors.append(f"openclaw hooks list --json: {exc}")
        listed = {}
    report.ran = True
    config = oc_config()
    if ws is not None:
        _record(ws, config)
    internal = _internal_of(config)
    new = json.loads(json.dumps(internal or {}, allow_nan=False))
    entries = dict(new.get("entries") or {}) if isinstance(new.get("entries"), dict) else {}
    named = {k for k, v in entries.items() if not (isinstance(v, dict) and v.get("enabled") is False)}
    loading_before = loading_hooks(listed, config)
    # A hook OpenClaw does not list yet (another workspace, say) is still named:
    # harmless, and it loads once OpenClaw sees it. One it lists as not eligible is not.
    ours = [n for n in report.hooks if _requirements_met(listed.get(n, {}))]
    for name in report.hooks:
        if name not in ours:
            missing = {k: v for k, v in (listed[name].get("missing") or {}).items() if v}
            report.errors.append(f"{name} is not eligible (missing {missing}); not enabled")
    if not named:
        # Naming any hook turns the entries into an allowlist: name every hook that was loading.
        for name in sorted(loading_before - set(report.hooks)):
            report.kept_loading.append(name)
    for name in [*ours, *report.kept_loading]:
        entries[name] = {**(entries.get(name) if isinstance(entries.get(name), dict) else {}), "enabled": True}
    new["enabled"] = True
    new["entries"] = entries
    if new != internal:
        _set_internal(report, openclaw, runner, new)
    missing = [n for n in report.hooks if n not in listed]
    if listed and missing:
        report.errors.append("OpenClaw does not see " + ", ".join(missing) +
                             " (is this workspace OpenClaw's agent workspace?)")
    return report


def _restore(report: HookReport, ws: Path, openclaw: str | None, runner: Runner,
             oc_config: Callable[[], dict[str, Any] | None]) -> HookReport:
    """Give OpenClaw's ``hooks.internal`` back as recorded before the first install (one call).

    Without a record (hooks installed by an older version) our entries are
    removed from ``hooks.internal.entries`` and nothing else changes.
    """
    record = read_record(ws)
    config = oc_config() if openclaw else None
    current = _internal_of(config)
    if record is not None:
        target = record["internal"]
        drop = target is None and not record.get("hooks_present") and \
            set((config or {}).get("hooks") or {}) <= {"internal"}
    else:
        target = json.loads(json.dumps(current, allow_nan=False)) if current is not None else None
        if target is not None and isinstance(target.get("entries"), dict):
            for name in report.hooks:
                target["entries"].pop(name, None)
        drop = False
    if not openclaw:
        report.commands = [f"openclaw hooks disable {name}" for name in report.hooks]
        report.messages.insert(0, "openclaw is not on PATH; run these commands yourself:")
        return report
    if current != target or (drop and "hooks" in (config or {})):
        if _set_internal(report, openclaw, runner, target, drop_hooks=drop) and record is not None:
            record_path(ws).unlink()
    elif record is not None:
        record_path(ws).unlink()
    return report


def uninstall(ws: Path, backup, bundle_root: Path | None = None, openclaw: str | None = "auto",
              runner: Runner | None = None,
              oc_config: Callable[[], dict[str, Any] | None] | None = None) -> HookReport:
    """Disable the hooks and remove the files :func:`install` wrote (``init --uninstall-hooks``).

    Each removed file is saved through ``backup`` first; files a user added
    to a hook folder stay, and so does the folder then. OpenClaw's
    ``hooks.internal`` goes back to what was recorded before the first
    install (:func:`_restore`).
    ``bundle_root`` defaults to this package's bundle (for the hook names).
    With none of the bundle's hook folders present it returns an empty report
    (no messages, no commands) without running ``openclaw``.
    """
    from . import BUNDLE_ROOT

    ws = Path(ws)
    # The bundle's names, and ours found installed (a skill copy without hooks/ still uninstalls them).
    names = sorted(set(bundle_hooks(bundle_root or BUNDLE_ROOT)) | set(installed_hooks(ws)))
    report = HookReport(hooks=[n for n in names if (ws / "hooks" / n).exists()])
    if not report.hooks:
        # Nothing installed (a second --uninstall-hooks, say): no openclaw
        # call, no commands to print, no restart to ask for.
        return report
    report = _restore(report, ws, _which(openclaw), runner or _run, oc_config or _oc_config)
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
