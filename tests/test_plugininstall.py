"""memory_manager.plugininstall and plugin/: the native OpenClaw plugin that runs the upkeep after every turn."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from memory_manager import backups, plugininstall

PID = "complex-memory-manager"
ENTRY = {"enabled": True, "hooks": {"allowConversationAccess": True}}
FILES = ["bundle-path.json", "index.js", "openclaw.plugin.json", "package.json"]


def apply_merge_patch(target, patch):
    """RFC 7396, as `openclaw config patch` applies it (objects merge, null deletes, the rest replaces)."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = apply_merge_patch(out.get(key), value)
    return out


class FakeOpenClaw:
    """Plays `openclaw config patch --file F` over a config dict and logs the calls."""

    def __init__(self, config):
        self.config, self.calls, self.patches = config, [], []

    def read_config(self):
        return json.loads(json.dumps(self.config))

    def __call__(self, cmd):
        self.calls.append(" ".join(cmd[1:4]))
        assert cmd[1:4] == ["config", "patch", "--file"]
        patch = json.loads(Path(cmd[4]).read_text())
        self.patches.append(patch)
        self.config = apply_merge_patch(self.config, patch)
        return subprocess.CompletedProcess(cmd, 0, "Updated config\n", "")


def _install_files(ws, bundle=ROOT):
    for rel, data in plugininstall.desired_files(ws, bundle).items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_bytes(data)


def test_the_bundle_ships_a_plugin_whose_ids_agree():
    manifest = json.loads((ROOT / "plugin" / "openclaw.plugin.json").read_text())
    package = json.loads((ROOT / "plugin" / "package.json").read_text())
    index = (ROOT / "plugin" / "index.js").read_text()
    assert manifest["id"] == PID and manifest["configSchema"] == {"type": "object", "additionalProperties": False}
    assert package["type"] == "module" and package["openclaw"]["extensions"] == ["./index.js"]
    assert index.startswith(plugininstall.SIGNATURE.decode()) and f'const ID = "{PID}";' in index
    assert 'api.on("agent_end"' in index and 'api.on("llm_output"' in index


def test_desired_files_and_a_copy_without_the_plugin_folder(ws, tmp_path):
    files = plugininstall.desired_files(ws, ROOT)
    assert sorted(files) == [f".openclaw/extensions/{PID}/{f}" for f in FILES]
    assert json.loads(files[f".openclaw/extensions/{PID}/bundle-path.json"])["bundle"] == str(ROOT.resolve())
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "scripts", copy / "scripts")
    # Without plugin/ in the bundle: nothing to install, only a repair of an installed one.
    assert plugininstall.desired_files(ws, copy) == {}
    _install_files(ws)
    assert list(plugininstall.desired_files(ws, copy)) == [f".openclaw/extensions/{PID}/bundle-path.json"]


def test_enable_with_nothing_configured_records_then_enables_in_one_call(ws):
    _install_files(ws)
    fake = FakeOpenClaw({"gateway": {"port": 1}})
    report = plugininstall.enable(ws, openclaw="openclaw", runner=fake, oc_config=fake.read_config)
    assert report.errors == [] and fake.calls == ["config patch --file"]
    assert fake.config == {"gateway": {"port": 1}, "plugins": {"entries": {PID: ENTRY}}}
    assert json.loads(plugininstall.record_path(ws).read_text()) == {
        "format": "cmm-openclaw-plugins", "version": 1, "plugins_present": False, "entries_present": False,
        "entry": None, "allow_present": False, "allow": None}
    assert plugininstall.record_path(ws).stat().st_mode & 0o777 == 0o600
    # A second enable changes nothing and runs nothing.
    again = plugininstall.enable(ws, openclaw="openclaw", runner=fake, oc_config=fake.read_config)
    assert fake.calls == ["config patch --file"] and again.commands == []


def test_enable_keeps_the_users_entry_and_joins_an_allowlist(ws):
    _install_files(ws)
    fake = FakeOpenClaw({"plugins": {"allow": ["voice-call"], "entries": {
        PID: {"enabled": False, "hooks": {"allowPromptInjection": False}, "env": {"X": "1"}}}}})
    plugininstall.enable(ws, openclaw="openclaw", runner=fake, oc_config=fake.read_config)
    assert fake.config == {"plugins": {"allow": ["voice-call", PID], "entries": {
        PID: {"enabled": True, "hooks": {"allowPromptInjection": False, "allowConversationAccess": True},
              "env": {"X": "1"}}}}}


@pytest.mark.parametrize("plugins, error", [
    ({"deny": [PID]}, f"plugins.deny names {PID}; the plugin stays off"),
    ({"enabled": False}, "plugins are switched off in OpenClaw (plugins.enabled: false); the plugin stays off"),
])
def test_a_users_refusal_is_reported_and_left_alone(ws, plugins, error):
    _install_files(ws)
    fake = FakeOpenClaw({"plugins": plugins})
    report = plugininstall.enable(ws, openclaw="openclaw", runner=fake, oc_config=fake.read_config)
    assert report.errors == [error] and fake.calls == [] and fake.config == {"plugins": plugins}


@pytest.mark.parametrize("before", [
    {},
    {"plugins": {}},
    {"plugins": {"entries": {"anthropic": {"config": {"a": 1}}}}},
    {"plugins": {"allow": ["voice-call"], "entries": {PID: {"enabled": False}}, "load": {"paths": ["/x"]}}},
    {"plugins": {"allow": [], "entries": {}}},
])
def test_install_uninstall_twice_gives_openclaws_plugin_settings_back_exactly(ws, before):
    fake = FakeOpenClaw(json.loads(json.dumps(before)))
    for _ in range(2):
        _install_files(ws)
        report = plugininstall.enable(ws, openclaw="openclaw", runner=fake, oc_config=fake.read_config)
        assert report.errors == []
        assert fake.config["plugins"]["entries"][PID] == {**(before.get("plugins", {}).get("entries", {})
                                                             .get(PID, {})), **ENTRY}
        undo = plugininstall.uninstall(ws, backups.start(ws, "u"), openclaw="openclaw", runner=fake,
                                       oc_config=fake.read_config)
        assert undo.errors == [] and fake.config == before
        assert not plugininstall.record_path(ws).exists() and not (ws / ".openclaw").exists()


def test_uninstall_without_a_record_removes_only_ours(ws):
    _install_files(ws)
    fake = FakeOpenClaw({"plugins": {"allow": ["a", PID], "entries": {"a": {"enabled": True}, PID: ENTRY}}})
    plugininstall.uninstall(ws, backups.start(ws, "u"), openclaw="openclaw", runner=fake, oc_config=fake.read_config)
    assert fake.config == {"plugins": {"allow": ["a"], "entries": {"a": {"enabled": True}}}}


def test_uninstall_keeps_a_users_files_and_backs_ours_up(ws):
    _install_files(ws)
    folder = ws / ".openclaw" / "extensions" / PID
    (folder / "notes.txt").write_text("mine")
    (ws / ".openclaw" / "workspace-state.json").write_text("{}")
    backup = backups.start(ws, "u")
    report = plugininstall.uninstall(ws, backup, openclaw=None)
    assert report.commands == [f"openclaw plugins disable {PID}"]
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    assert (ws / ".openclaw" / "workspace-state.json").read_text() == "{}"
    assert sorted(c.rsplit("/", 1)[1] for c in report.changed) == sorted(FILES)
    # Nothing installed any more: a second uninstall does nothing at all.
    assert plugininstall.uninstall(ws, backups.start(ws, "u2"), openclaw="openclaw",
                                   runner=lambda cmd: pytest.fail("ran openclaw")).hooks == []


def test_merge_patch_turns_one_value_into_the_other():
    cases = [({"a": 1, "b": {"c": [1], "d": 2}}, {"b": {"c": [2]}, "e": {}}),
             ({"a": {"b": {}}}, {}), ({}, {"a": {"b": {"c": 1}}}), ({"x": [1, 2]}, {"x": [1, 2]})]
    for current, target in cases:
        assert apply_merge_patch(current, plugininstall.merge_patch(current, target)) == target
    assert plugininstall.merge_patch({"a": 1}, None) is None


# ------------------------------------------------------------------ the shim itself (node)

_NODE_DRIVER = """
const mod = await import(process.argv[1]);
const handlers = {};
const logged = [];
const logger = { info: (m) => logged.push(m), error: (m) => logged.push("E " + m), warn: (m) => logged.push("W " + m) };
mod.default.register({ on: (name, fn) => { handlers[name] = fn; }, logger });
const ctx = { runId: "r1", agentId: "main", sessionKey: "agent:main:main", sessionId: "s1", workspaceDir: "/ws",
              trigger: "user", contextTokenBudget: 32768 };
// OpenClaw 2026.9.6 order: agent_end first, then llm_output of the same run.
const ended = handlers.agent_end({ runId: "r1", success: true, messages: [{ role: "user", content: "secret words" }] }, ctx);
await handlers.llm_output({ runId: "r1", sessionId: "s1", provider: "mock", model: "m", contextTokenBudget: 32768,
  assistantTexts: ["the reply"], prompt: "secret words",
  lastAssistant: { role: "assistant", usage: { input: 20000, output: 3, cacheRead: 1000, cacheWrite: 0 } },
  usage: { input: 40000, output: 6, cacheRead: 2000, cacheWrite: 0, total: 42006 } }, ctx);
await ended;
process.stdout.write(JSON.stringify(logged));
"""


@pytest.mark.external(Path("/usr/bin/node"), reason="node, which runs the plugin")
def test_the_shim_joins_agent_end_and_llm_output_and_sends_no_conversation_text(ws, tmp_path):
    bundle = tmp_path / "bundle"
    (bundle / "scripts").mkdir(parents=True)
    seen = tmp_path / "event.json"
    (bundle / "scripts" / "hook.py").write_text(
        f"import sys, json\nopen({str(seen)!r}, 'w').write(sys.stdin.read())\n"
        "print(json.dumps({'protocol': 'cmm-hook', 'version': 1, 'bootstrapFiles': [], 'log': ['agent:end: ok']}))\n")
    _install_files(ws, ROOT)
    folder = ws / ".openclaw" / "extensions" / PID
    (folder / "bundle-path.json").write_text(json.dumps({"bundle": str(bundle), "python": sys.executable}))
    proc = subprocess.run(["/usr/bin/node", "--input-type=module", "-e", _NODE_DRIVER, (folder / "index.js").as_uri()],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ["[complex-memory-manager] agent:end: ok"]
    assert json.loads(seen.read_text()) == {
        "type": "agent", "action": "end", "sessionKey": "agent:main:main",
        "context": {"agentId": "main", "sessionKey": "agent:main:main", "sessionId": "s1", "workspaceDir": "/ws",
                    "trigger": "user", "success": True, "provider": "mock", "model": "m", "contextTokenBudget": 32768,
                    "usage": {"input": 40000, "output": 6, "cacheRead": 2000, "cacheWrite": 0, "total": 42006},
                    "lastCallUsage": {"input": 20000, "output": 3, "cacheRead": 1000, "cacheWrite": 0},
                    "runId": "r1"}}
