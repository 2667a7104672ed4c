"""memory_manager.hookinstall: copying, enabling and removing the bundle's hooks."""
from __future__ import annotations

import json
import os
import subprocess
import sys


from conftest import ROOT, tree_hash
from memory_manager import backups, fsio, hookinstall

NAMES = ["memory-manager-bootstrap", "memory-manager-gateway-startup", "memory-manager-post-response",
         "memory-manager-session-end"]


def bundled(name, **over):
    doc = {"name": name, "source": "openclaw-bundled", "eligible": True, "disabled": False,
           "enabledByConfig": True, "loadable": True}
    doc.update(over)
    return doc


class FakeOpenClaw:
    """Plays `openclaw hooks list/enable/disable` over a config dict, by OpenClaw's selection rules."""

    def __init__(self, config, listed):
        self.config, self.listed, self.calls = config, listed, []

    def read_config(self):
        return json.loads(json.dumps(self.config))

    def __call__(self, cmd):
        self.calls.append(" ".join(cmd[1:]))
        verb = cmd[2]
        if verb == "list":
            hooks = [dict(h) for h in self.listed]
            return subprocess.CompletedProcess(cmd, 0, "[plugins] loading\n" + json.dumps({"hooks": hooks}), "")
        if cmd[1] == "config":
            path = cmd[3].split(".")
            if cmd[2] == "unset":
                holder = self.config
                for key in path[:-1]:
                    holder = holder.get(key, {})
                holder.pop(path[-1], None)
            else:
                self.config.setdefault(path[0], {})[path[1]] = json.loads(cmd[4])
            return subprocess.CompletedProcess(cmd, 0, f"Updated {cmd[3]}\n", "")
        name = cmd[3]
        internal = self.config.setdefault("hooks", {}).setdefault("internal", {})
        internal["enabled"] = True
        internal.setdefault("entries", {})[name] = {"enabled": verb == "enable"}
        return subprocess.CompletedProcess(cmd, 0, f"ok {name}\n", "")


def workspace_hooks(ws_names):
    # As OpenClaw 2026.9.6 lists a workspace hook not enabled yet: "eligible" false
    # (it is not enabled), requirements met.
    return [{"name": n, "source": "openclaw-workspace", "eligible": False, "disabled": True,
             "enabledByConfig": False, "loadable": False, "requirementsSatisfied": True} for n in ws_names]


def test_a_hook_whose_requirements_are_missing_is_not_enabled(ws):
    hooks = workspace_hooks(NAMES)
    hooks[0].update(requirementsSatisfied=False, missing={"bins": ["python3"]})
    fake = FakeOpenClaw({}, hooks)
    report = hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw="openclaw", runner=fake,
                                 oc_config=fake.read_config)
    assert report.errors == [f"{NAMES[0]} is not eligible (missing {{'bins': ['python3']}}); not enabled"]
    assert sorted(fake.config["hooks"]["internal"]["entries"]) == NAMES[1:]


def test_bundle_ships_four_hooks():
    assert hookinstall.bundle_hooks(ROOT) == NAMES
    for name in NAMES:
        text = (ROOT / "hooks" / name / "HOOK.md").read_text()
        assert f"name: {name}\n" in text and '"requires": { "bins": ["python3"] }' in text
        assert (ROOT / "hooks" / name / "handler.js").read_bytes() == \
            (ROOT / "hooks" / NAMES[0] / "handler.js").read_bytes()


def test_install_without_openclaw_returns_commands(ws):
    backup = backups.start(ws, "init")
    report = hookinstall.install(ws, ROOT, backup, openclaw=None)
    assert report.ran is False
    assert report.commands == [f"openclaw hooks enable {n}" for n in NAMES]
    assert report.messages[0] == "openclaw is not on PATH; run these commands yourself:"
    assert report.messages[-1] == hookinstall.RESTART_HINT
    assert sorted(report.changed) == sorted(f"hooks/{n}/{f}" for n in NAMES
                                            for f in ("HOOK.md", "handler.js", "bundle-path.json"))
    doc = json.loads((ws / "hooks" / NAMES[0] / "bundle-path.json").read_text())
    assert doc == {"format": "cmm-bundle-path", "version": 1, "bundle": str(ROOT.resolve()),
                   "python": sys.executable, "timeoutMs": 2000, "tool_version": doc["tool_version"]}
    # Second run: nothing changes.
    before = tree_hash(ws / "hooks")
    again = hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw=None)
    assert again.changed == [] and tree_hash(ws / "hooks") == before


def test_install_backs_up_a_users_hook_and_restore_gives_it_back(ws):
    folder = ws / "hooks" / NAMES[0]
    folder.mkdir(parents=True)
    (folder / "handler.js").write_text("// the user's own handler\n")
    (folder / "notes.txt").write_text("mine\n")
    original = tree_hash(ws)
    with fsio.workspace_lock(ws):  # as init: the backup closes with the lock (after.json)
        backup = backups.start(ws, "init")
        hookinstall.install(ws, ROOT, backup, openclaw=None)
    assert (folder / "handler.js").read_bytes() == (ROOT / "hooks" / NAMES[0] / "handler.js").read_bytes()
    assert (folder / "notes.txt").read_text() == "mine\n"
    backups.restore(ws, backup.id)
    after = {k: v for k, v in tree_hash(ws).items() if not k.startswith(".memory-backup")}
    assert after == {k: v for k, v in original.items() if not k.startswith(".memory-backup")}


def test_plan_changes_nothing(ws):
    before = tree_hash(ws)
    report = hookinstall.plan(ws, ROOT)
    assert len(report.changed) == 12 and tree_hash(ws) == before


def test_enable_with_nothing_configured(ws):
    fake = FakeOpenClaw({}, [bundled("boot-md"), bundled("session-memory")] + workspace_hooks(NAMES))
    report = hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw="openclaw", runner=fake,
                                 oc_config=fake.read_config)
    assert report.ran and report.errors == [] and report.kept_loading == []
    # One listing and one config write, not one slow `hooks enable` per hook.
    assert [c.split(" {")[0] for c in fake.calls] == ["hooks list --json", "config set hooks.internal"]
    assert fake.config == {"hooks": {"internal": {"enabled": True,
                                                  "entries": {n: {"enabled": True} for n in NAMES}}}}


def test_enable_keeps_open_ended_hooks_loading(ws):
    """Master flag on, no named entries: every ready hook loads; naming ours would narrow that."""
    fake = FakeOpenClaw({"hooks": {"internal": {"enabled": True}}},
                        [bundled("boot-md"), bundled("session-memory"), bundled("broken", eligible=False),
                         {"name": "other-ws", "source": "openclaw-workspace", "eligible": True, "disabled": True,
                          "enabledByConfig": False, "loadable": False}] + workspace_hooks(NAMES))
    report = hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw="openclaw", runner=fake,
                                 oc_config=fake.read_config)
    assert report.kept_loading == ["boot-md", "session-memory"]
    assert len(fake.calls) == 2 and report.commands[0].startswith("openclaw config set hooks.internal '{")
    entries = fake.config["hooks"]["internal"]["entries"]
    assert sorted(entries) == sorted(NAMES + ["boot-md", "session-memory"])


def test_enable_with_existing_allowlist_keeps_it(ws):
    fake = FakeOpenClaw({"hooks": {"internal": {"entries": {"session-memory": {"enabled": True}}}}},
                        [bundled("boot-md"), bundled("session-memory")] + workspace_hooks(NAMES))
    report = hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw="openclaw", runner=fake,
                                 oc_config=fake.read_config)
    assert report.kept_loading == []


def test_openclaw_not_seeing_the_workspace_is_reported(ws):
    fake = FakeOpenClaw({}, [bundled("boot-md")])
    report = hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw="openclaw", runner=fake,
                                 oc_config=fake.read_config)
    assert report.errors == ["OpenClaw does not see " + ", ".join(NAMES) +
                             " (is this workspace OpenClaw's agent workspace?)"]


def test_uninstall_reverses_install(ws):
    (ws / "AGENTS.md").write_text("x\n")
    before = tree_hash(ws)
    fake = FakeOpenClaw({}, [bundled("boot-md")] + workspace_hooks(NAMES))
    hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw="openclaw", runner=fake,
                        oc_config=fake.read_config)
    report = hookinstall.uninstall(ws, backups.start(ws, "uninstall-hooks"), openclaw="openclaw",
                                   runner=fake, oc_config=fake.read_config)
    assert report.commands == ["openclaw config unset hooks"]
    assert fake.config == {}
    assert len(report.changed) == 12
    after = {k: v for k, v in tree_hash(ws).items()
             if not k.startswith(".memory-backup") and not k.startswith("memory")}
    assert after == before and not hookinstall.record_path(ws).exists()


def test_install_uninstall_twice_gives_openclaws_hook_state_back_exactly(ws):
    """Issue 14, item 5: five built-in hooks that were not loading stay off; nothing else is left behind."""
    (ws / "memory").mkdir()
    config = {"hooks": {"token": "webhook-secret", "internal": {"entries": {"boot-md": {"enabled": False}},
                                                                "load": {"extraDirs": []}}}}
    five = [bundled(n) for n in ("boot-md", "session-memory", "command-logger", "bootstrap-extra-files", "x")]
    fake = FakeOpenClaw(json.loads(json.dumps(config)), five + workspace_hooks(NAMES))
    for _ in range(2):
        hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw="openclaw", runner=fake,
                            oc_config=fake.read_config)
        entries = fake.config["hooks"]["internal"]["entries"]
        assert {n for n, v in entries.items() if v.get("enabled")} == set(NAMES)
        record = json.loads(hookinstall.record_path(ws).read_text())
        assert record == {"format": "cmm-openclaw-hooks", "version": 1, "hooks_present": True,
                          "internal": config["hooks"]["internal"]}  # the webhook token is not copied
        assert oct(hookinstall.record_path(ws).stat().st_mode & 0o777) == "0o600"
        hookinstall.uninstall(ws, backups.start(ws, "u"), openclaw="openclaw", runner=fake,
                              oc_config=fake.read_config)
        assert fake.config == config
        assert not hookinstall.record_path(ws).exists()


def test_uninstall_without_a_record_removes_only_our_entries(ws):
    hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw=None)
    fake = FakeOpenClaw({"hooks": {"internal": {"enabled": True, "entries": {
        "boot-md": {"enabled": True}, **{n: {"enabled": True} for n in NAMES}}}}}, [bundled("boot-md")])
    hookinstall.uninstall(ws, backups.start(ws, "u"), openclaw="openclaw", runner=fake, oc_config=fake.read_config)
    assert fake.config == {"hooks": {"internal": {"enabled": True, "entries": {"boot-md": {"enabled": True}}}}}


def test_uninstall_with_nothing_installed_says_nothing_and_runs_nothing(ws):
    fake = FakeOpenClaw({}, [bundled("boot-md")])
    for openclaw in ("openclaw", None):
        report = hookinstall.uninstall(ws, backups.start(ws, "uninstall-hooks"), openclaw=openclaw,
                                       runner=fake, oc_config=fake.read_config)
        assert (report.hooks, report.messages, report.commands, report.changed, report.ran) == ([], [], [], [], False)
    assert fake.calls == []


def test_second_uninstall_hooks_prints_no_empty_header(run_script, ws):
    env = {"PATH": os.defpath}  # no openclaw on PATH
    first = run_script("init", "-w", ws, "--yes", env=env)
    assert first.code == 0, first.err
    assert run_script("init", "-w", ws, "--uninstall-hooks", env=env).code == 0
    second = run_script("init", "-w", ws, "--uninstall-hooks", env=env)
    assert (second.code, second.out, second.err) == (0, "no hooks of this bundle are installed\n", "")


def test_uninstall_keeps_user_files(ws):
    hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw=None)
    (ws / "hooks" / NAMES[0] / "mine.txt").write_text("keep\n")
    hookinstall.uninstall(ws, backups.start(ws, "u"), openclaw=None)
    assert sorted(p.name for p in (ws / "hooks").rglob("*")) == [NAMES[0], "mine.txt"]


def test_parse_hooks_list_tolerates_noise():
    assert hookinstall.parse_hooks_list("no json here") == {}
    assert hookinstall.parse_hooks_list('log\n{"hooks": [{"name": "a"}]}') == {"a": {"name": "a"}}


def test_timeout_from_config_is_recorded(ws):
    (ws / "memory").mkdir()
    (ws / "memory" / "memory-manager.json").write_text('{"hooks": {"timeout_seconds": 5}}')
    hookinstall.install(ws, ROOT, backups.start(ws, "init"), openclaw=None)
    assert json.loads((ws / "hooks" / NAMES[1] / "bundle-path.json").read_text())["timeoutMs"] == 5000


def test_manifest_hook_md_and_config_agree():
    import re

    import yaml

    from memory_manager import hookrun
    from memory_manager.config import load_defaults

    manifest = yaml.safe_load((ROOT / "package.yaml").read_text(encoding="utf-8"))
    switches = load_defaults()["hooks"]
    assert sorted(h["name"] for h in manifest["hooks"]) == NAMES
    for hook in manifest["hooks"]:
        text = (ROOT / "hooks" / hook["name"] / "HOOK.md").read_text(encoding="utf-8")
        meta = yaml.safe_load(re.match(r"^---\n(.*?)\n---\n", text, re.S).group(1))
        assert meta["metadata"]["openclaw"]["events"] == hook["events"]
        assert meta["metadata"]["openclaw"]["requires"]["bins"] == ["python3"]
        key = hook["switch"].split(".", 1)[1]
        assert switches[key] is True and f"hooks.{key}: false" in text
        assert all(hookrun.SWITCH[event] == key for event in hook["events"])


def test_desired_files_match_plan_and_enable_without_openclaw(ws):
    files = hookinstall.desired_files(ws, ROOT)
    assert sorted(files) == sorted(hookinstall.plan(ws, ROOT).changed) and len(files) == 12
    report = hookinstall.enable(ws, ROOT, openclaw=None)
    assert not report.ran and report.commands == [f"openclaw hooks enable {n}" for n in NAMES]
    assert not (ws / "hooks").exists()
