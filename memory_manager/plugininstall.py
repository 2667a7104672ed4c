"""Installing the bundle's native OpenClaw plugin into a workspace, and removing it.

Why a plugin beside the hooks: OpenClaw's internal ``message:sent`` hook fires
only for channel deliveries, so in the TUI, the web chat and ``openclaw
agent`` the post-response upkeep would wait for ``/new``, a reset, compaction
or a restart. Native plugin hooks fire after every turn (``agent_end``), and
``llm_output`` carries the usage the model reported and the context budget
(OpenClaw 2026.9.6, docs/plugins/hooks/reference.md). The plugin
(``<bundle>/plugin/``: ``openclaw.plugin.json``, ``package.json`` and a
zero-logic ``index.js``) runs ``scripts/hook.py`` with an ``agent:end`` event
after each turn; the internal hooks stay installed as the fallback.

Where: OpenClaw discovers plugin folders under ``<workspace>/.openclaw/extensions/``
(docs/gateway/config-extensions.md), so ``init`` copies the plugin to
``<workspace>/.openclaw/extensions/complex-memory-manager/`` with a
``bundle-path.json`` beside ``index.js`` (the same file as the hooks', format
``cmm-bundle-path`` v1). A workspace plugin loads only once enabled by name,
and a non-bundled plugin gets ``agent_end``/``llm_output`` only with
``hooks.allowConversationAccess`` (docs/plugins/hooks.md, "Permissions and
scope"), so init sets ``plugins.entries.complex-memory-manager`` to
``{"enabled": true, "hooks": {"allowConversationAccess": true}}`` (keeping what
the user had there) and adds the id to ``plugins.allow`` when that allowlist
exists. One ``openclaw config patch`` call does both.

Before the first install the entry and the allowlist as they were are recorded
in the workspace (``memory/.state/openclaw-plugins-before.json``, format
``cmm-openclaw-plugins`` v1); ``--uninstall-hooks`` writes exactly that back
(removing keys that were absent, and ``plugins`` itself when it held nothing
else), so install -> uninstall -> install -> uninstall leaves OpenClaw's plugin
settings as they were. The rest of ``plugins`` (other plugins' settings, which
may hold API keys) is never copied into the workspace.

The caller (``init``) holds the workspace lock and owns the backup.
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Callable

from .jsonio import parse as _parse_json
from .regular import read_regular, read_regular_text
from . import tree
from .fsio import atomic_write
from .hookinstall import BUNDLE_PATH_FILE, HookReport, Runner, _oc_config, _run, _timeout, _which, bundle_path_doc

PLUGIN_ID = "complex-memory-manager"
#: Files of the plugin folder that we ship (anything else in the installed folder is the user's).
PLUGIN_FILES = ("openclaw.plugin.json", "package.json", "index.js")
#: The first line of our index.js: how an installed folder is recognised as ours.
SIGNATURE = b"// complex-memory-manager plugin shim"
#: Where the plugin goes, relative to the workspace (an OpenClaw plugin discovery root).
INSTALL_REL = tree.OPENCLAW_PLUGIN_DIR
RECORD_FORMAT = {"format": "cmm-openclaw-plugins", "version": 1}
#: What init sets in plugins.entries.<id> (merged over what the user had there).
ENTRY = {"enabled": True, "hooks": {"allowConversationAccess": True}}
RESTART_HINT = "The Gateway loads the plugin on its next start (openclaw gateway restart)."


def bundle_has_plugin(bundle_root: Path) -> bool:
    """True when the bundle ships ``plugin/`` (a registry copy may not)."""
    return all((Path(bundle_root) / "plugin" / f).is_file() for f in PLUGIN_FILES)


def install_dir(ws: Path) -> Path:
    """``<ws>/.openclaw/extensions/complex-memory-manager``."""
    return Path(ws) / INSTALL_REL


def installed(ws: Path) -> bool:
    """True when ``install_dir(ws)/index.js`` is our shim (first line :data:`SIGNATURE`)."""
    try:
        with open(install_dir(ws) / "index.js", "rb") as fh:
            return fh.read(len(SIGNATURE)) == SIGNATURE
    except OSError:
        return False


def desired_files(ws: Path, bundle_root: Path) -> dict[str, bytes]:
    """Every file an installation puts in the workspace: ``{"<INSTALL_REL>/<file>": bytes}``.

    The bundle's plugin files when it ships them, and a ``bundle-path.json``
    pointing at this bundle; a skill copy without ``plugin/`` only repairs the
    ``bundle-path.json`` of a plugin already installed, and installs nothing
    new ({} then).
    """
    ws, bundle_root = Path(ws), Path(bundle_root)
    if bundle_has_plugin(bundle_root):
        files = {f"{INSTALL_REL}/{f}": read_regular(bundle_root / "plugin" / f) for f in PLUGIN_FILES}
    elif installed(ws):
        files = {}
    else:
        return {}
    files[f"{INSTALL_REL}/{BUNDLE_PATH_FILE}"] = bundle_path_doc(bundle_root, timeout_s=_timeout(ws))
    return files


def record_path(ws: Path) -> Path:
    """Where the workspace keeps OpenClaw's plugin settings as they were before the first install."""
    from .tree import Tree

    return Tree(Path(ws)).openclaw_plugins_record


def read_record(ws: Path) -> dict[str, Any] | None:
    """The recorded plugin settings (format ``cmm-openclaw-plugins`` v1), or None when absent or unreadable."""
    try:
        doc = _parse_json(read_regular_text(record_path(ws), "utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(doc, dict) and doc.get("format") == RECORD_FORMAT["format"] and "entry" in doc:
        return doc
    return None


def _plugins_of(config: dict[str, Any] | None) -> dict[str, Any] | None:
    plugins = (config or {}).get("plugins")
    return copy.deepcopy(plugins) if isinstance(plugins, dict) else None


def _record(ws: Path, plugins: dict[str, Any] | None) -> None:
    """Save our entry and the allowlist as they are now, unless a record is there already."""
    if read_record(ws) is not None:
        return
    present, plugins = plugins is not None, plugins or {}
    entries = plugins.get("entries") if isinstance(plugins.get("entries"), dict) else {}
    doc = dict(RECORD_FORMAT, plugins_present=present,
               entries_present="entries" in plugins, entry=entries.get(PLUGIN_ID),
               allow_present="allow" in plugins, allow=plugins.get("allow"))
    path = record_path(ws)
    atomic_write(path, (json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"),
                 mode=0o600)


def merge_patch(current: Any, target: Any) -> Any:
    """The JSON merge patch (RFC 7396) that turns ``current`` into ``target``.

    ``openclaw config patch`` applies one: objects merge recursively, arrays
    and scalars replace, null deletes (OpenClaw 2026.9.6 ``config patch
    --help``). ``target`` None deletes the whole value.
    """
    if target is None:
        return None
    if not (isinstance(current, dict) and isinstance(target, dict)):
        return copy.deepcopy(target)
    out: dict[str, Any] = {key: None for key in current if key not in target}
    for key, value in target.items():
        if key not in current:
            out[key] = copy.deepcopy(value)
        elif current[key] != value:
            out[key] = merge_patch(current[key], value)
    return out


def _patch(report: HookReport, openclaw: str, runner: Runner, plugins_patch: Any) -> bool:
    """Apply ``{"plugins": plugins_patch}`` with one ``openclaw config patch --file``; True on success.

    The patch goes through a private temporary file (``--stdin`` would need a
    runner that feeds stdin), removed afterwards.
    """
    body = json.dumps({"plugins": plugins_patch}, ensure_ascii=False, allow_nan=False)
    report.commands.append(f"openclaw config patch '{body}'")
    report.ran = True
    fd, name = tempfile.mkstemp(prefix="cmm-plugin-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(body)
        proc = runner([openclaw, "config", "patch", "--file", name])
    except (OSError, subprocess.SubprocessError) as exc:
        report.errors.append(f"openclaw config patch: {exc}")
        return False
    finally:
        try:
            os.unlink(name)
        except OSError:
            pass
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip().splitlines()
        report.errors.append(f"openclaw config patch: {detail[-1] if detail else proc.returncode}")
        return False
    return True


def _manual(report: HookReport, enable: bool) -> HookReport:
    report.commands = [f"openclaw plugins {'enable' if enable else 'disable'} {PLUGIN_ID}"]
    if enable:
        report.commands.append(f"openclaw config set plugins.entries.{PLUGIN_ID}.hooks.allowConversationAccess "
                               "true --strict-json")
    report.messages.insert(0, "openclaw is not on PATH; run these commands yourself:")
    return report


def enable(ws: Path, openclaw: str | None = "auto", runner: Runner | None = None,
           oc_config: Callable[[], dict[str, Any] | None] | None = None) -> HookReport:
    """Enable the plugin, whose files are already in :func:`install_dir` (``init``).

    Records OpenClaw's plugin settings first (:func:`_record`), then merges
    :data:`ENTRY` into ``plugins.entries.complex-memory-manager`` and adds
    the id to an existing ``plugins.allow``, in one ``openclaw config patch``.
    A ``plugins.deny`` naming the plugin, or ``plugins.enabled: false``, is
    the user's choice: reported, nothing changed. Without ``openclaw`` on
    PATH the commands are returned for the user to run. Failures are
    reported in the returned :class:`~memory_manager.hookinstall.HookReport`
    (``hooks`` holds the plugin id), never raised.
    """
    ws = Path(ws)
    report = HookReport(hooks=[PLUGIN_ID])
    report.messages.append(RESTART_HINT)
    openclaw = _which(openclaw)
    if not openclaw:
        return _manual(report, enable=True)
    plugins = _plugins_of((oc_config or _oc_config)())
    _record(ws, plugins)
    plugins = plugins or {}
    if plugins.get("enabled") is False:
        report.errors.append("plugins are switched off in OpenClaw (plugins.enabled: false); the plugin stays off")
        return report
    deny = plugins.get("deny")
    if isinstance(deny, list) and PLUGIN_ID in deny:
        report.errors.append(f"plugins.deny names {PLUGIN_ID}; the plugin stays off")
        return report
    entries = plugins.get("entries") if isinstance(plugins.get("entries"), dict) else {}
    entry = entries.get(PLUGIN_ID) if isinstance(entries.get(PLUGIN_ID), dict) else {}
    new_entry = copy.deepcopy(entry)
    new_entry["enabled"] = True
    new_entry["hooks"] = {**(entry.get("hooks") if isinstance(entry.get("hooks"), dict) else {}),
                          **ENTRY["hooks"]}
    target = copy.deepcopy(plugins)
    target["entries"] = {**entries, PLUGIN_ID: new_entry}
    allow = plugins.get("allow")
    if isinstance(allow, list) and PLUGIN_ID not in allow:
        # An allowlist loads only the plugins it names (docs/cli/plugins/install.md).
        target["allow"] = [*allow, PLUGIN_ID]
    if target != plugins:
        _patch(report, openclaw, runner or _run, merge_patch(plugins, target))
    return report


def _restore(report: HookReport, ws: Path, openclaw: str, runner: Runner,
             oc_config: Callable[[], dict[str, Any] | None]) -> None:
    """Give ``plugins`` back as recorded before the first install (one ``config patch``).

    Without a record (installed by hand, or the record lost) only our entry
    and our id in ``plugins.allow`` are removed.
    """
    record = read_record(ws)
    current = _plugins_of(oc_config())
    target: dict[str, Any] | None = copy.deepcopy(current) if current is not None else {}
    entries = target.get("entries") if isinstance(target.get("entries"), dict) else None
    if record is None:
        if entries is not None:
            entries.pop(PLUGIN_ID, None)
        if isinstance(target.get("allow"), list):
            target["allow"] = [p for p in target["allow"] if p != PLUGIN_ID]
    else:
        if record["entry"] is None:
            if entries is not None:
                entries.pop(PLUGIN_ID, None)
        else:
            target.setdefault("entries", {})[PLUGIN_ID] = copy.deepcopy(record["entry"])
        if entries is not None and not entries and not record.get("entries_present"):
            target.pop("entries")
        if record.get("allow_present"):
            target["allow"] = copy.deepcopy(record.get("allow"))
        else:
            target.pop("allow", None)
        if not target and not record.get("plugins_present"):
            target = None
    if current is None and not target:
        target = None
    if target != current:
        if not _patch(report, openclaw, runner, merge_patch(current or {}, target)):
            return
    if record is not None:
        record_path(ws).unlink()


def uninstall(ws: Path, backup, openclaw: str | None = "auto", runner: Runner | None = None,
              oc_config: Callable[[], dict[str, Any] | None] | None = None) -> HookReport:
    """Disable the plugin and remove the files :func:`desired_files` put there (``init --uninstall-hooks``).

    Each removed file is saved through ``backup`` first; files a user added to
    the plugin folder stay, and so does the folder then (and ``.openclaw/``
    stays whenever it holds anything else). OpenClaw's plugin settings go back
    to the record (:func:`_restore`). With the plugin not installed it returns
    an empty report without running ``openclaw``.
    """
    ws = Path(ws)
    folder = install_dir(ws)
    report = HookReport()
    if not installed(ws) and read_record(ws) is None:
        return report
    report.hooks = [PLUGIN_ID]
    openclaw = _which(openclaw)
    if openclaw:
        _restore(report, ws, openclaw, runner or _run, oc_config or _oc_config)
    else:
        _manual(report, enable=False)
    for fname in (*PLUGIN_FILES, BUNDLE_PATH_FILE):
        target = folder / fname
        if target.is_file() or target.is_symlink():
            backup.save(target)
            target.unlink()
            report.changed.append(f"{INSTALL_REL}/{fname}")
    for empty in (folder, folder.parent, folder.parent.parent):
        try:
            empty.rmdir()  # only when empty: never a user's files
        except OSError:
            break
    report.messages.append("Restart the OpenClaw Gateway to unload the plugin (openclaw gateway restart).")
    return report
