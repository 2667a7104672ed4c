"""doctor runs each installed hook like OpenClaw would; init repairs broken ones (issue 14, item 3)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from memory_manager import doctor, hookinstall

NAMES = ["memory-manager-bootstrap", "memory-manager-gateway-startup", "memory-manager-post-response",
         "memory-manager-session-end"]


def _registry_copy(tmp_path: Path) -> Path:
    """The skill as a registry may deliver it: no hooks/ folder."""
    dest = tmp_path / "registry" / "complex-memory-manager"
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "tests", "bench",
                                                               "hooks", "plugin"))
    return dest


def _script(bundle: Path, name: str, *args, env=None):
    return subprocess.run([sys.executable, str(bundle / "scripts" / f"{name}.py"), *map(str, args)],
                          capture_output=True, text=True, timeout=300, env=env)


PLUGIN = Path(".openclaw/extensions/complex-memory-manager")


def _point_nowhere(ws: Path) -> None:
    plugin = [ws / PLUGIN / "bundle-path.json"] if (ws / PLUGIN).is_dir() else []
    for path in [ws / "hooks" / name / "bundle-path.json" for name in NAMES] + plugin:
        doc = json.loads(path.read_text())
        doc["bundle"] = "/nonexistent/skill"
        path.write_text(json.dumps(doc))


@pytest.mark.external(Path("/usr/bin/node"), reason="node, which runs the handlers")
def test_doctor_catches_broken_hooks_and_init_from_a_copy_without_hooks_repairs_them(ws, tmp_path):
    assert _script(ROOT, "init", "-w", ws, "--yes", "--lang", "en").returncode == 0
    _point_nowhere(ws)
    copy = _registry_copy(tmp_path)
    broken = _script(copy, "doctor", "-w", ws, "--no-openclaw")
    assert broken.returncode == 1
    failing = [line for line in broken.stdout.splitlines() if line.startswith("✗ hook run ")]
    assert failing == [f"✗ hook run {n}: {sys.executable}: can't open file '/nonexistent/skill/scripts/hook.py': "
                       "[Errno 2] No such file or directory" for n in NAMES]
    assert "all good" not in broken.stdout
    assert [line for line in broken.stdout.splitlines() if line.startswith("✗ plugin")] == [
        "✗ plugin files: points at /nonexistent/skill, which has no scripts/hook.py",
        f"✗ plugin run: {sys.executable}: can't open file '/nonexistent/skill/scripts/hook.py': "
        "[Errno 2] No such file or directory"]
    repaired = _script(copy, "init", "-w", ws, "--yes")
    assert repaired.returncode == 0, repaired.stderr
    for name in NAMES:
        doc = json.loads((ws / "hooks" / name / "bundle-path.json").read_text())
        assert doc["bundle"] == str(copy.resolve())
        # The shims stay as the full bundle installed them.
        assert (ws / "hooks" / name / "handler.js").read_bytes() == (ROOT / "hooks" / name / "handler.js").read_bytes()
    good = _script(copy, "doctor", "-w", ws, "--no-openclaw")
    assert good.returncode == 0, good.stdout
    assert [line for line in good.stdout.splitlines() if line.startswith("✓ hook run ")] == \
        [f"✓ hook run {n}: the handler ran hook.py (node)" for n in NAMES]
    assert json.loads((ws / PLUGIN / "bundle-path.json").read_text())["bundle"] == str(copy.resolve())
    assert (ws / PLUGIN / "index.js").read_bytes() == (ROOT / "plugin" / "index.js").read_bytes()
    assert "✓ plugin run: its agent_end runner ran hook.py (node)" in good.stdout.splitlines()


def test_without_node_doctor_follows_the_handlers_steps(ws):
    assert _script(ROOT, "init", "-w", ws, "--yes", "--no-hooks").returncode == 0
    hookinstall.install(ws, ROOT, __import__("memory_manager.backups").backups.start(ws, "t"), openclaw=None)
    assert doctor.run_hook_dry(ws, NAMES[0], which=lambda _: None) == (True, "the handler ran hook.py")
    _point_nowhere(ws)
    ok, detail = doctor.run_hook_dry(ws, NAMES[0], which=lambda _: None)
    assert not ok and detail.endswith("can't open file '/nonexistent/skill/scripts/hook.py': "
                                      "[Errno 2] No such file or directory")


def test_without_node_doctor_follows_the_plugins_steps(ws):
    assert _script(ROOT, "init", "-w", ws, "--yes", env={**__import__("os").environ, "PATH": "/usr/bin:/bin"}
                   ).returncode == 0
    assert doctor.run_plugin_dry(ws, which=lambda _: None) == (True, "its agent_end runner ran hook.py")
    _point_nowhere(ws)
    ok, detail = doctor.run_plugin_dry(ws, which=lambda _: None)
    assert not ok and detail.endswith("can't open file '/nonexistent/skill/scripts/hook.py': "
                                      "[Errno 2] No such file or directory")


@pytest.mark.external(Path("/usr/bin/node"), reason="node, which loads the plugin")
def test_doctor_catches_a_plugin_that_registers_nothing(ws):
    assert _script(ROOT, "init", "-w", ws, "--yes", env={**__import__("os").environ, "PATH": "/usr/bin:/bin"}
                   ).returncode == 0
    index = ws / PLUGIN / "index.js"
    index.write_text(index.read_text().replace('api.on("llm_output"', 'void ("llm_output"'))
    assert doctor.run_plugin_dry(ws) == (False, "it registers agent_end, not agent_end,llm_output")


def test_the_dry_event_touches_no_workspace(tmp_path):
    elsewhere = tmp_path / "not-a-workspace"
    elsewhere.mkdir()
    event = {"type": "doctor", "action": "dry-run", "context": {"workspaceDir": str(elsewhere)}}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "hook.py")], input=json.dumps(event),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == ""
    reply = json.loads(proc.stdout)
    assert reply["log"] == [f"doctor:dry-run: hook.py {__import__('memory_manager').__version__} ran with "
                            f"{sys.executable}"]
    assert list(elsewhere.iterdir()) == []


def test_uninstall_from_a_copy_without_hooks_removes_them(ws, tmp_path):
    assert _script(ROOT, "init", "-w", ws, "--yes", "--lang", "en", env={**__import__("os").environ,
                                                                          "PATH": "/usr/bin:/bin"}).returncode == 0
    copy = _registry_copy(tmp_path)
    result = _script(copy, "init", "-w", ws, "--uninstall-hooks", env={**__import__("os").environ,
                                                                       "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert "removed 12 hook files and 4 plugin files" in result.stdout and not (ws / "hooks").exists()
    assert not (ws / ".openclaw").exists()
