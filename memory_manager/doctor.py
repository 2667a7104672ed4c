"""Installation checks for ``scripts/doctor.py``: what is wrong, and how to fix it.

Each check is a dict ``{"name", "status", "detail", "fix"}`` with status
``ok``, ``warn`` (worth knowing, not broken) or ``fail``. :func:`diagnose`
runs them all and never raises: a check that cannot run is itself reported.
"""
from __future__ import annotations

import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from .jsonio import parse as _parse_json
from .regular import read_regular, read_regular_text
from . import SKILL_NAME, __version__, deps, entries, hookinstall, plugininstall, tree
from .entries import INDEX_FILES, INDEX_TITLES, TREE
from .errors import MemoryManagerError

MIN_PYTHON = (3, 10)
OPENCLAW_TIMEOUT_S = 120

Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def _check(name: str, status: str, detail: str, fix: str | None = None) -> dict[str, Any]:
    return {"name": name, "status": status, "detail": detail, "fix": fix}


def init_fix(bundle_root: Path, ws: Path | None, why: str = "", keep_hooks_off: bool = False) -> str:
    """The ``fix:`` text that reruns init on ``ws``: a command that works when copied.

    It names this Python and the bundle's ``scripts/init.py`` by absolute path
    and the resolved workspace with ``-w`` (the user's shell may resolve
    another one, or none), and passes ``--yes`` (init asks otherwise); the
    preview with ``--dry-run`` follows as a shell comment, so the whole line
    can still be pasted. ``keep_hooks_off``: a fix that is not about the hooks
    adds ``--no-hooks`` when ``ws`` is set up without hooks or plugin (the user
    left them out; nu16 item 16: following the key fix installed them).
    """
    cmd = [sys.executable, str(Path(bundle_root).resolve() / "scripts" / "init.py")]
    if ws is not None:
        cmd += ["-w", str(ws)]
    line = shlex.join(cmd) + " --yes"
    if keep_hooks_off and ws is not None and _hooks_left_out(ws):
        line += " --no-hooks"
    return f"{line}  # {why + '; ' if why else ''}preview first with --dry-run instead of --yes"


def _hooks_left_out(ws: Path) -> bool:
    """True when ``ws`` is set up (``memory/`` there) with none of the hooks and no plugin installed."""
    from .workspace import is_set_up

    return is_set_up(ws) and not hookinstall.installed_hooks(ws) and not plugininstall.installed(ws)


def _xor_entries(ws: Path | None) -> int:
    """How many readable T2 entries of ``ws`` are sealed with xor-b64 (obfuscation only)."""
    if ws is None:
        return 0
    from .tiers import iter_t2_entries

    return sum(1 for e in iter_t2_entries(Path(ws)) if not e.error and not e.plaintext and e.scheme == "xor-b64")


def _run(cmd: list[str]) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(cmd, capture_output=True, text=True, timeout=OPENCLAW_TIMEOUT_S, stdin=subprocess.DEVNULL)


def _json_tail(text: str) -> Any:
    start = text.find("{")
    if start < 0:
        return None
    try:
        return _parse_json(text[start:])
    except ValueError:
        return None


def check_python() -> list[dict[str, Any]]:
    checks = []
    version = platform.python_version()
    if sys.version_info[:2] < MIN_PYTHON:
        checks.append(_check("python", "fail", f"Python {version} at {sys.executable}",
                             f"install Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer"))
    else:
        checks.append(_check("python", "ok", f"Python {version} at {sys.executable}"))
    absent = deps.missing()
    if absent:
        checks.append(_check("dependencies", "fail", "missing: " + ", ".join(absent),
                             " ".join(deps.install_command())))
    else:
        checks.append(_check("dependencies", "ok", "all importable"))
    return checks


def check_openclaw(ws: Path | None, bundle_root: Path, runner: Runner, which: Callable[[str], str | None]
                   ) -> list[dict[str, Any]]:
    """OpenClaw version, skill eligibility, each hook's eligibility and enablement."""
    exe = which("openclaw")
    if not exe:
        return [_check("openclaw", "warn", "the openclaw command is not on PATH; skill and hook state not checked",
                       "run doctor where openclaw is installed, or add it to PATH")]
    checks = []
    try:
        proc = runner([exe, "--version"])
        version = (proc.stdout.strip().splitlines() or ["?"])[-1]
        checks.append(_check("openclaw", "ok" if proc.returncode == 0 else "fail", version))
        skill = _json_tail(runner([exe, "skills", "info", SKILL_NAME, "--json"]).stdout)
        if not isinstance(skill, dict):
            checks.append(_check("skill", "fail", f"OpenClaw does not list the skill {SKILL_NAME}",
                                 f"put the bundle in <workspace>/skills/{SKILL_NAME} or ~/.openclaw/skills"))
        elif skill.get("eligible") and not skill.get("disabled"):
            checks.append(_check("skill", "ok", f"eligible, from {skill.get('baseDir')}"))
        else:
            missing = {k: v for k, v in (skill.get("missing") or {}).items() if v}
            checks.append(_check("skill", "fail", f"not eligible (disabled={skill.get('disabled')}, missing={missing})",
                                 f"openclaw skills info {SKILL_NAME}"))
        listed = hookinstall.parse_hooks_list(runner([exe, "hooks", "list", "--json"]).stdout)
        for name in hookinstall.bundle_hooks(bundle_root):
            hook = listed.get(name)
            if hook is None:
                checks.append(_check(f"hook {name}", "fail", "not installed where OpenClaw looks",
                                     init_fix(bundle_root, ws, "installs the hooks")))
            elif not hook.get("eligible"):
                missing = {k: v for k, v in (hook.get("missing") or {}).items() if v}
                checks.append(_check(f"hook {name}", "fail", f"not eligible (missing {missing})",
                                     "make python3 available on the Gateway's PATH"))
            elif hook.get("disabled") or not hook.get("enabledByConfig", True):
                checks.append(_check(f"hook {name}", "fail", "installed but not enabled",
                                     f"openclaw hooks enable {name}, then restart the Gateway"))
            else:
                checks.append(_check(f"hook {name}", "ok", "eligible and enabled"))
        if ws is not None and plugininstall.installed(ws):
            checks.append(check_plugin_config(_json_tail(runner([exe, "plugins", "list", "--json"]).stdout),
                                              bundle_root, ws))
    except (OSError, subprocess.SubprocessError) as exc:
        checks.append(_check("openclaw", "fail", f"running openclaw failed: {exc}"))
    return checks


def check_installed_hooks(ws: Path, bundle_root: Path) -> list[dict[str, Any]]:
    """The copies in ``<ws>/hooks``: present, current, and pointing at a bundle that exists.

    None of them installed is a choice (``init --no-hooks`` or
    ``--uninstall-hooks``), not a fault: one ``ok`` line saying so and how to
    install them, no warning per hook. Some present and some absent is a
    broken install: a warning for each absent one.
    """
    checks = []
    names = hookinstall.hook_names(ws, bundle_root)
    if names and not any((ws / "hooks" / name).exists() for name in names):
        return [_check("hooks", "ok", "not installed in this workspace (init --no-hooks or --uninstall-hooks): the "
                       "upkeep runs when you call the scripts; init --yes without --no-hooks installs them")]
    for name in names:
        folder = ws / "hooks" / name
        if not folder.is_dir():
            checks.append(_check(f"hook files {name}", "warn", f"{folder} is absent (hooks not installed)",
                                 init_fix(bundle_root, ws, "installs the hooks")))
            continue
        try:
            doc = _parse_json(read_regular_text(folder / hookinstall.BUNDLE_PATH_FILE, "utf-8"))
            target = Path(doc["bundle"])
        except (OSError, ValueError, KeyError, TypeError):
            checks.append(_check(f"hook files {name}", "fail", "bundle-path.json missing or unreadable",
                                 init_fix(bundle_root, ws, "reinstalls the hooks")))
            continue
        if not (target / "scripts" / "hook.py").is_file():
            checks.append(_check(f"hook files {name}", "fail", f"points at {target}, which has no scripts/hook.py",
                                 init_fix(bundle_root, ws, "reinstalls the hooks from this bundle")))
            continue
        python = doc.get("python")
        if isinstance(python, str) and not Path(python).exists():
            checks.append(_check(f"hook files {name}", "warn", f"the recorded Python {python} is gone; "
                                 "the hook falls back to python3 on PATH",
                                 init_fix(bundle_root, ws, "records this Python")))
            continue
        stale = [f for f in hookinstall.HOOK_FILES
                 if (bundle_root / "hooks" / name / f).is_file()
                 and (not (folder / f).is_file()
                      or read_regular(folder / f) != read_regular(bundle_root / "hooks" / name / f))]
        if stale:
            checks.append(_check(f"hook files {name}", "warn", "older copy: " + ", ".join(stale),
                                 init_fix(bundle_root, ws, "then restart the Gateway")))
        else:
            checks.append(_check(f"hook files {name}", "ok", f"bundle {target}"))
    return checks


#: Loads an installed handler.js as OpenClaw does (an ES module's default export),
#: calls it with doctor's dry event, and prints what it logged as JSON.
_NODE_HARNESS = """
const lines = [];
for (const k of ["log", "info", "warn", "error"]) console[k] = (...a) => lines.push([k, a.join(" ")]);
try {
  const mod = await import(process.argv[1]);
  await mod.default(JSON.parse(process.argv[2]));
} catch (error) {
  lines.push(["throw", String(error && error.message || error)]);
}
process.stdout.write(JSON.stringify(lines));
"""
HOOK_RUN_TIMEOUT_S = 30


def run_hook_dry(ws: Path, name: str, which: Callable[[str], str | None] = shutil.which) -> tuple[bool, str]:
    """Send doctor's dry event through installed hook ``name``; return ``(ok, detail)``.

    With ``node`` on PATH the handler itself runs (as the Gateway would run
    it: imported, default export called with the event); without it, the
    handler's own steps are followed in Python (bundle-path.json -> the
    recorded Python, else python3 -> ``<bundle>/scripts/hook.py``). It is
    ok when hook.py answered the dry event (hookrun.DRY_EVENT) and nothing
    was logged as an error.
    """
    from .hookrun import DRY_EVENT, PROTOCOL

    folder = Path(ws) / "hooks" / name
    node = which("node")
    try:
        lines = _dry_lines(ws, node, _NODE_HARNESS, folder / "handler.js", lambda event: _python_dry(folder, event, PROTOCOL))
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        return False, f"could not run the handler ({exc})"
    errors = [text for level, text in lines if level in ("error", "warn", "throw")]
    answered = any(DRY_EVENT in text for level, text in lines if level in ("log", "info"))
    if errors or not answered:
        first = errors[0] if errors else "hook.py gave no answer"
        return False, first.replace("[complex-memory-manager] ", "")
    return True, "the handler ran hook.py" + (" (node)" if node else "")


def _dry_lines(ws: Path, node: str | None, harness: str, module: Path,
               python_dry: Callable[[dict[str, Any]], list[list[str]]]) -> list[list[str]]:
    """Doctor's dry event (hookrun.DRY_EVENT) through a hook or plugin module; its log lines.

    With ``node`` (a path) the JS ``harness`` imports ``module`` and prints the
    ``[level, text]`` lines as JSON (timeout HOOK_RUN_TIMEOUT_S seconds);
    without it ``python_dry(event)`` follows the module's steps in Python.
    Raises OSError, subprocess.SubprocessError or ValueError (bad JSON).
    """
    from .hookrun import DRY_EVENT

    kind, _, action = DRY_EVENT.partition(":")
    event = {"type": kind, "action": action, "sessionKey": "doctor", "context": {"workspaceDir": str(ws)}}
    if not node:
        return python_dry(event)
    proc = subprocess.run([node, "--input-type=module", "-e", harness, module.resolve().as_uri(),
                           json.dumps(event, allow_nan=False)],
                          capture_output=True, text=True, timeout=HOOK_RUN_TIMEOUT_S, stdin=subprocess.DEVNULL)
    return _parse_json(proc.stdout or "[]")


def _python_dry(folder: Path, event: dict[str, Any], protocol: dict[str, Any]) -> list[list[str]]:
    """The handler's steps without node: which Python, which hook.py, the answer's log lines."""
    try:
        info = _parse_json(read_regular_text(folder / hookinstall.BUNDLE_PATH_FILE, "utf-8"))
        bundle = Path(info["bundle"])
        python = info.get("python") if isinstance(info.get("python"), str) and Path(info["python"]).exists() \
            else "python3"
    except (OSError, ValueError, KeyError, TypeError):
        bundle, python = folder.parent.parent, "python3"
    proc = subprocess.run([python, str(bundle / "scripts" / "hook.py")], input=json.dumps(event, allow_nan=False),
                          capture_output=True, text=True, timeout=HOOK_RUN_TIMEOUT_S)
    lines = [["error", line] for line in proc.stderr.splitlines() if line.strip()]
    last = (proc.stdout.strip().splitlines() or [""])[-1]
    if last:
        reply = _parse_json(last)
        if reply.get("protocol") == protocol["protocol"]:
            lines += [["log", line] for line in reply.get("log", [])]
    return lines


def check_hook_runs(ws: Path, bundle_root: Path, which: Callable[[str], str | None] = shutil.which
                    ) -> list[dict[str, Any]]:
    """One check per installed hook of ours: does its handler really run hook.py (issue 14, item 3)?"""
    checks = []
    for name in hookinstall.installed_hooks(ws):
        ok, detail = run_hook_dry(ws, name, which)
        checks.append(_check(f"hook run {name}", "ok" if ok else "fail", detail,
                             None if ok else init_fix(bundle_root, ws, "repairs the hook's bundle-path.json")))
    return checks


def check_plugin_config(listed: Any, bundle_root: Path, ws: Path) -> dict[str, Any]:
    """What ``openclaw plugins list --json`` says of our plugin, and its conversation access.

    A plugin that is not enabled, or lacks ``hooks.allowConversationAccess``
    (without it OpenClaw does not call ``agent_end``/``llm_output`` for a
    non-bundled plugin), is a warning: the internal hooks still run the upkeep,
    only later (at ``/new``, compaction or a restart).
    """
    from .workspace import read_openclaw_config

    name, pid = "plugin", plugininstall.PLUGIN_ID
    plugins = listed.get("plugins") if isinstance(listed, dict) else None
    found = next((p for p in plugins or [] if isinstance(p, dict) and p.get("id") == pid), None)
    if found is None:
        return _check(name, "warn", f"OpenClaw does not see {pid} in {plugininstall.install_dir(ws)} "
                      "(is this workspace OpenClaw's agent workspace?)", init_fix(bundle_root, ws, "reinstalls it"))
    if not found.get("enabled"):
        return _check(name, "warn", f"installed but not enabled (status {found.get('status')})",
                      init_fix(bundle_root, ws, "enables it") + " (after --uninstall-hooks) or "
                      f"openclaw plugins enable {pid}")
    entry = (((read_openclaw_config() or {}).get("plugins") or {}).get("entries") or {}).get(pid)
    if not (isinstance(entry, dict) and isinstance(entry.get("hooks"), dict)
            and entry["hooks"].get("allowConversationAccess") is True):
        return _check(name, "warn", "enabled, but without hooks.allowConversationAccess OpenClaw does not call "
                      "its agent_end/llm_output handlers",
                      f"openclaw config set plugins.entries.{pid}.hooks.allowConversationAccess true --strict-json")
    return _check(name, "ok", f"enabled with conversation access ({found.get('origin', '?')} plugin, "
                  f"status {found.get('status', '?')})")


def check_installed_plugin(ws: Path, bundle_root: Path) -> list[dict[str, Any]]:
    """The plugin copy in ``<ws>/.openclaw/extensions/``: current, and pointing at a bundle that exists."""
    folder = plugininstall.install_dir(ws)
    if not plugininstall.installed(ws):
        if plugininstall.bundle_has_plugin(bundle_root) and hookinstall.installed_hooks(ws):
            return [_check("plugin files", "warn", f"{folder} is absent: the upkeep waits for /new, compaction "
                           "or a restart instead of running after every turn", init_fix(bundle_root, ws,
                                                                                       "installs the plugin"))]
        return []
    try:
        doc = _parse_json(read_regular_text(folder / hookinstall.BUNDLE_PATH_FILE, "utf-8"))
        target = Path(doc["bundle"])
    except (OSError, ValueError, KeyError, TypeError):
        return [_check("plugin files", "fail", "bundle-path.json missing or unreadable",
                       init_fix(bundle_root, ws, "reinstalls the plugin"))]
    if not (target / "scripts" / "hook.py").is_file():
        return [_check("plugin files", "fail", f"points at {target}, which has no scripts/hook.py",
                       init_fix(bundle_root, ws, "reinstalls the plugin from this bundle"))]
    stale = [f for f in plugininstall.PLUGIN_FILES if (bundle_root / "plugin" / f).is_file()
             and (not (folder / f).is_file() or read_regular(folder / f) != read_regular(bundle_root / "plugin" / f))]
    if stale:
        return [_check("plugin files", "warn", "older copy: " + ", ".join(stale),
                       init_fix(bundle_root, ws, "then restart the Gateway"))]
    return [_check("plugin files", "ok", f"bundle {target}")]


#: Loads the installed plugin as OpenClaw does (an ES module whose default export
#: registers typed hooks through api.on), lists what it registers, then sends
#: doctor's dry event through the same function its agent_end handler calls.
_NODE_PLUGIN_HARNESS = """
const lines = [];
const logger = {};
for (const k of ["info", "warn", "error", "debug"]) logger[k] = (m) => lines.push([k, String(m)]);
try {
  const mod = await import(process.argv[1]);
  const hooks = [];
  mod.default.register({ on: (name) => hooks.push(name), logger, pluginConfig: {} });
  lines.push(["hooks", hooks.sort().join(",")]);
  await mod.runHook(JSON.parse(process.argv[2]), logger);
} catch (error) {
  lines.push(["throw", String(error && error.message || error)]);
}
process.stdout.write(JSON.stringify(lines));
"""
#: The typed hooks the plugin must register (its agent_end handler waits for llm_output).
PLUGIN_HOOKS = "agent_end,llm_output"


def run_plugin_dry(ws: Path, which: Callable[[str], str | None] = shutil.which) -> tuple[bool, str]:
    """Send doctor's dry event through the installed plugin; return ``(ok, detail)``.

    With ``node`` on PATH the plugin module itself is imported and registered
    against a stand-in ``api`` (it must register ``agent_end`` and
    ``llm_output``), then its hook runner gets the dry event; without node the
    runner's steps are followed in Python, as for the hooks. Ok when hook.py
    answered (hookrun.DRY_EVENT) and nothing was logged as an error.
    """
    from .hookrun import DRY_EVENT, PROTOCOL

    folder = plugininstall.install_dir(ws)
    node = which("node")
    try:
        lines = _dry_lines(ws, node, _NODE_PLUGIN_HARNESS, folder / "index.js",
                           lambda event: _python_dry_plugin(folder, event, PROTOCOL))
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        return False, f"could not run the plugin ({exc})"
    registered = [text for level, text in lines if level == "hooks"]
    errors = [text for level, text in lines if level in ("error", "warn", "throw")]
    if node and not errors and registered != [PLUGIN_HOOKS]:
        errors.append(f"it registers {registered[0] if registered else 'nothing'}, not {PLUGIN_HOOKS}")
    answered = any(DRY_EVENT in text for level, text in lines if level in ("log", "info"))
    if errors or not answered:
        first = errors[0] if errors else "hook.py gave no answer"
        return False, first.replace("[complex-memory-manager] ", "")
    return True, f"its agent_end runner ran hook.py{' (node)' if node else ''}"


def _python_dry_plugin(folder: Path, event: dict[str, Any], protocol: dict[str, Any]) -> list[list[str]]:
    """:func:`_python_dry` for the plugin folder (its fallback bundle is one folder up, not two)."""
    if (folder / hookinstall.BUNDLE_PATH_FILE).is_file():
        return _python_dry(folder, event, protocol)
    return _python_dry(folder / "_", event, protocol)


def check_plugin_run(ws: Path, bundle_root: Path, which: Callable[[str], str | None] = shutil.which
                     ) -> list[dict[str, Any]]:
    """Does the installed plugin really run hook.py (a dry event through it)? [] when not installed."""
    if not plugininstall.installed(ws):
        return []
    ok, detail = run_plugin_dry(ws, which)
    return [_check("plugin run", "ok" if ok else "fail", detail,
                   None if ok else init_fix(bundle_root, ws, "repairs the plugin's bundle-path.json"))]


def _requires_skills(skill_md: Path) -> list[str]:
    """``metadata.openclaw.requires.skills`` of a SKILL.md frontmatter ([] when absent or unreadable)."""
    import yaml

    try:
        text = skill_md.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return []
    if not text.startswith("---"):
        return []
    end = text.find("\n---", 3)
    try:
        meta = yaml.safe_load(text[3:end]) if end > 0 else None
    except yaml.YAMLError:
        return []
    node: Any = meta
    for key in ("metadata", "openclaw", "requires", "skills"):
        node = node.get(key) if isinstance(node, dict) else None
    return [str(item) for item in node] if isinstance(node, list) else []


def skill_folders(ws: Path | None) -> list[Path]:
    """Skill folders OpenClaw 2026.9.6 loads: ``<workspace>/skills/*`` and ``<state dir>/skills/*``."""
    from .workspace import state_dir

    roots = ([ws / "skills"] if ws is not None else []) + [state_dir() / "skills"]
    return [p for root in roots if root.is_dir() for p in sorted(root.iterdir()) if (p / "SKILL.md").is_file()]


def check_dependent_skills(ws: Path | None, bundle_root: Path) -> list[dict[str, Any]]:
    """Skills that name this bundle under ``requires.skills`` (issue 14): OpenClaw ignores that field,
    so say so, and whether each can reach the bundle's scripts from where it is installed."""
    checks = []
    for folder in skill_folders(ws):
        if folder.name == SKILL_NAME or SKILL_NAME not in _requires_skills(folder / "SKILL.md"):
            continue
        sibling = folder.parent / SKILL_NAME / "scripts" / "memory.py"
        if sibling.is_file():
            checks.append(_check(f"skill {folder.name}", "ok",
                                 f"names {SKILL_NAME} under requires.skills (OpenClaw does not enforce it); "
                                 f"reaches the scripts at {sibling.parent}"))
        else:
            checks.append(_check(f"skill {folder.name}", "warn",
                                 f"names {SKILL_NAME} under requires.skills, which OpenClaw ignores, and "
                                 f"{sibling.parent} does not exist: its calls to the scripts fail",
                                 f"install {SKILL_NAME} beside it ({folder.parent}/{SKILL_NAME}) or call "
                                 f"{Path(bundle_root).resolve() / 'scripts'}/memory.py by its full path"))
    return checks


def check_memory_tree(ws: Path, bundle_root: Path, cfg: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The memory tree's folders and the two indexes: present, readable, and matching the files.

    ``cfg`` (the effective config) lets the indexes be compared with a rebuild from the
    files; without it (a broken config) they are only checked for their title.
    """
    mem = tree.Tree(ws).memory
    absent = [d for d in TREE if not (mem / d).is_dir()]
    checks = []
    if absent:
        checks.append(_check("memory tree", "fail", "missing: " + ", ".join(f"{tree.rel(d)}/" for d in absent),
                             init_fix(bundle_root, ws, "creates the missing folders")))
    else:
        checks.append(_check("memory tree", "ok", f"{mem}"))
    for kind, name in INDEX_FILES.items():
        titles = tuple(INDEX_TITLES[kind].values())
        path = mem / name
        try:
            first = path.read_text(encoding="utf-8-sig").splitlines()[:1]
        except FileNotFoundError:
            checks.append(_check(f"index {name}", "fail", "missing",
                                 init_fix(bundle_root, ws, "creates the missing index")))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            checks.append(_check(f"index {name}", "fail", f"unreadable ({exc.__class__.__name__})",
                                 f"check {path}"))
            continue
        if not first or first[0].strip() not in titles:
            checks.append(_check(f"index {name}", "warn", f"unexpected first line {first[:1]}",
                                 init_fix(bundle_root, ws, "or let the next session's maintenance rebuild it")))
        else:
            text = path.read_text(encoding="utf-8-sig")
            entries = sum(1 for line in text.splitlines() if line.startswith("- "))
            stale = _index_gap(ws, cfg, kind, text) if cfg is not None else None
            counted = f"{entries} entr{'y' if entries == 1 else 'ies'}"
            if stale:
                checks.append(_check(f"index {name}", "fail", f"{counted}, but it does not match the files: "
                                     f"{stale}", _maintain_fix(bundle_root, ws)))
            else:
                checks.append(_check(f"index {name}", "ok", counted))
    return checks


def _index_gap(ws: Path, cfg: dict[str, Any], kind: str, text: str) -> str | None:
    """What an index lacks or names in excess compared with the files it is derived from, or None.

    An index is derived (:func:`memory_manager.entries.rebuild_indexes`): its ``- `` lines are
    compared, in any order, with the lines a rebuild from the files would write now. A
    restore that put an index back without the notes written after it left one that looked
    fine (walk-through r10, item 1). None when the files cannot be read here either.
    """
    builder = entries.daily_index_text if kind == "daily" else entries.knowledge_index_text
    try:
        want = builder(ws, cfg, text, [])
    except (OSError, UnicodeDecodeError, MemoryManagerError):
        return None
    have_lines = {line.strip() for line in text.splitlines() if line.startswith("- ")}
    want_lines = {line.strip() for line in want.splitlines() if line.startswith("- ")}
    if have_lines == want_lines:
        return None
    gaps = []
    missing = sorted(want_lines - have_lines)
    extra = sorted(have_lines - want_lines)
    if missing:
        gaps.append(f"missing {'; '.join(line[2:] for line in missing[:3])}" + (" ..." if len(missing) > 3 else ""))
    if extra:
        gaps.append(f"naming what the files lack {'; '.join(line[2:] for line in extra[:3])}"
                    + (" ..." if len(extra) > 3 else ""))
    return ", ".join(gaps)


def _maintain_fix(bundle_root: Path, ws: Path) -> str:
    """The ``fix:`` command that rebuilds the derived indexes from the files (the upkeep, maintain.py)."""
    return shlex.join([sys.executable, str(Path(bundle_root).resolve() / "scripts" / "maintain.py"), "-w", str(ws)]) \
        + "  # the upkeep: rebuilds the indexes from the files"


def check_set_up(ws: Path, bundle_root: Path) -> list[dict[str, Any]]:
    """init's own changes (:func:`memory_manager.initialize.setup_gaps`): ok, warn or fail.

    Fail when AGENTS.md lacks the memory rules block (the agent no longer uses the memory:
    a restore of init's backup took it away; walk-through r10, item 1), or when AGENTS.md is
    gone while init's other marks are there. Warn when only ``.gitignore``'s block or
    ``memory/memory-manager.json`` is missing (an older version did not write them). No
    row for a folder with none of init's marks and no AGENTS.md: nothing to compare with.
    """
    from .initialize import setup_gaps, setup_lost

    gaps = setup_gaps(ws)
    fix = init_fix(bundle_root, ws, "sets the workspace up again; your notes stay")
    if not gaps:
        return [_check("set up", "ok", f"AGENTS.md memory rules, .gitignore rules, {tree.rel(tree.OVERRIDE)}")]
    if setup_lost(gaps):
        return [_check("set up", "fail", f"the workspace is no longer set up: {', '.join(gaps)} (the agent "
                       "does not use the memory without its rules)", fix)]
    if gaps[0] == "no AGENTS.md":
        return []
    return [_check("set up", "warn", ", ".join(gaps), fix)]


def check_writable(ws: Path) -> list[dict[str, Any]]:
    """The workspace, ``memory/`` and ``.memory-backup/`` can be written: ok, or fail naming the folder.

    Every writer takes the lock in ``.memory-backup/`` and backs up before it changes a
    file: on a read-only mount (or a folder the user cannot write) each of them fails,
    so doctor must not say "nothing broken" (fatk9). ``os.access`` answers for the
    real user and reports a read-only file system even to root; ``statvfs`` says which.
    """
    folders = [ws, tree.Tree(ws).memory, ws / tree.BACKUPS]
    for folder in folders:
        if not folder.is_dir() or os.access(folder, os.W_OK):
            continue
        try:
            readonly = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except OSError:
            readonly = False
        if readonly:
            return [_check("writable", "fail", f"{folder} is on a read-only file system: every command that "
                           "writes (write, learn, forget, cleanup, init --restore) fails",
                           f"remount it read-write (for example: mount -o remount,rw \"$(df --output=target "
                           f"{shlex.quote(str(folder))} | tail -1)\") or point -w at a writable copy")]
        return [_check("writable", "fail", f"{folder} is not writable by this user: every command that writes fails",
                       f"run as the folder's owner or give this user write access (chmod u+w {shlex.quote(str(folder))})")]
    return [_check("writable", "ok", ", ".join(str(f) for f in folders if f.is_dir()))]


def check_store_note(ws: Path) -> list[dict[str, Any]]:
    """One warning when the store's key record and this machine's note of it disagree, or the note cannot be read.

    The note (:mod:`memory_manager.anchor`, outside the workspace) decides how cleanup judges
    approval marks (tatk18); the record in the workspace is its cache
    (:func:`memory_manager.tiers.store_key_problem`). No row when all is well.
    """
    from .tiers import ACCEPTED_NAME, store_key_problem

    problem = store_key_problem(ws)
    if not problem:
        return []
    record = tree.rel(tree.STATE, ACCEPTED_NAME)
    if "does not match" in problem:
        fix = (f"if you did not change {record} yourself, remove it: with the store's key at hand the next "
               "cleanup writes it again (if you changed the key on purpose under another HOME, remove this "
               "machine's note instead)")
    else:
        fix = "remove the note: the next run with the store's key at hand writes it again (trust on first use)"
    return [_check("T2 key note", "warn", problem, fix)]


def check_key(cfg: dict[str, Any] | None, bundle_root: Path, ws: Path | None) -> list[dict[str, Any]]:
    """The T2 key: ok (aes-gcm), warn (none: xor-b64; or readable by others), fail (malformed).

    A malformed key stops every T2 command (crypto module docstring), so it is a failure here.
    """
    import warnings

    from . import crypto
    from .audit import reseal_command
    from .errors import MalformedKeyError

    cfg = cfg or {}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            usable = crypto.check_key(cfg)
    except MalformedKeyError as exc:
        # The fix never says "make a new key" nor "drop to xor-b64": entries written with
        # the real key need that key back (walk-through r6, findings 1 and 14).
        tiers = cfg.get("tiers") or {}
        if crypto.missing_key_file(cfg):
            fix = (f"edit tiers.key_file in {tiers.get(crypto.KEY_SOURCE)} so that it names your key file "
                   "(or remove the setting to use the default key)")
        elif tiers.get("_key_file_refused"):
            fix = "move the key file out of the workspace and set tiers.key_file to its new place"
        elif crypto.ENV_KEY in os.environ:
            fix = (f"set {crypto.ENV_KEY} to your key (Base64 of 32 bytes, as 'crypt.py keygen' writes), "
                   "or unset it to use the key file")
        else:
            fix = "put your key back in the key file from your copy (Base64 of 32 bytes, as 'crypt.py keygen' writes)"
        return [_check("T2 key", "fail", str(exc), fix)]
    if not usable:
        if ws is not None:
            from .errors import KeyUnavailableError
            from .tiers import require_key_for_sealed

            try:
                require_key_for_sealed(ws, cfg)
            except KeyUnavailableError as exc:  # the key of existing aes-gcm entries is missing (nu8)
                return [_check("T2 key", "fail", str(exc).split(": put the key back")[0],
                               f"put your key back in {crypto.key_path(cfg)} from your copy, or set {crypto.ENV_KEY}")]
        # With xor-b64 entries there, the one fix is reseal: it makes the key and seals them
        # (status and the audit name it); init would make the key and leave them (nu16 item 16).
        fix = (f"{reseal_command(ws)}  # makes the key and encrypts the xor-b64 entries with it"
               if _xor_entries(ws) else init_fix(bundle_root, ws, "creates the key", keep_hooks_off=True))
        return [_check("T2 key", "warn", "no AES key: T2 entries use xor-b64, which is obfuscation, not encryption",
                       fix)]
    where = crypto.ENV_KEY if crypto.key_state(cfg) == "env" else str(crypto.key_path(cfg))
    rows = []
    if caught:
        rows.append(_check("T2 key", "warn", str(caught[0].message), f"chmod 600 {crypto.key_path(cfg)}"))
    else:
        rows.append(_check("T2 key", "ok", f"aes-gcm with the key from {where}"))
    weak = _xor_entries(ws)
    if weak:
        # A key does not reseal what was written before it: an entry left on xor-b64 is still
        # readable by anyone with the file, as status and the privacy audit say (nu16 item 17).
        rows.append(_check("T2 entries", "warn", f"{'1 T2 entry is' if weak == 1 else f'{weak} T2 entries are'} "
                           "xor-b64, which is obfuscation, not encryption", reseal_command(ws)))
    return rows


def diagnose(workspace: Any, bundle_root: Path, use_openclaw: bool = True, runner: Runner | None = None,
             which: Callable[[str], str | None] = shutil.which) -> dict[str, Any]:
    """Run every check. Returns ``{"ok", "warnings", "version", "workspace", "rule", "checks": [...]}``.

    ``ok`` is false when any check has status ``fail`` (doctor exits 1);
    ``warnings`` counts the ``warn`` checks (worth knowing, not broken: exit 0,
    but never "all good").
    """
    from .config import load_config
    from .workspace import Workspace

    checks = check_python()
    ws = rule = opened = None
    try:
        opened = Workspace.open(workspace)
        ws, rule = opened.root, opened.rule
        checks.append(_check("workspace", "ok", f"{ws} (chosen by {rule})"))
    except MemoryManagerError as exc:
        checks.append(_check("workspace", "fail", str(exc), "pass --workspace DIR or set OPENCLAW_WORKSPACE_DIR"))
    cfg = None
    try:
        cfg = opened.config if opened is not None else load_config(None)
        checks.append(_check("config", "ok", f"language {cfg['language']}, hooks "
                             + ", ".join(k for k, v in cfg["hooks"].items() if v is True) + " on"))
    except MemoryManagerError as exc:
        from .config import DEFAULTS_PATH

        if str(exc).startswith(str(DEFAULTS_PATH)):  # the bundle's own file: restore, never remove
            fix = f"fix the value in {DEFAULTS_PATH} (the shipped defaults; a fresh copy of the bundle has them)"
        else:
            fix = "fix or remove " + str(tree.Tree(ws).override if ws else tree.rel(tree.OVERRIDE))
        checks.append(_check("config", "fail", str(exc), fix))
    checks += check_key(cfg, bundle_root, ws)
    if ws is not None:
        checks += check_store_note(ws)
    if ws is not None:
        checks += check_set_up(ws, bundle_root)
        checks += check_memory_tree(ws, bundle_root, cfg)
        checks += check_writable(ws)
        checks += check_installed_hooks(ws, bundle_root)
        checks += check_hook_runs(ws, bundle_root, which)
        checks += check_installed_plugin(ws, bundle_root)
        checks += check_plugin_run(ws, bundle_root, which)
        try:
            from . import context

            usage = context.measure()
            checks.append(_check("context", "ok", context.describe(usage, cfg)))
        except Exception as exc:  # noqa: BLE001 - informational only
            checks.append(_check("context", "warn", f"could not measure ({exc})"))
    checks += check_dependent_skills(ws, bundle_root)
    if use_openclaw:
        checks += check_openclaw(ws, bundle_root, runner or _run, which)
    return {"ok": all(c["status"] != "fail" for c in checks),
            "warnings": sum(1 for c in checks if c["status"] == "warn"), "version": __version__,
            "workspace": str(ws) if ws else None, "rule": rule, "checks": checks}
