import json
import os
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT, SHARED, tree_hash
from memory_manager import entries

NOW = {"MEMORY_MANAGER_NOW": "2026-03-03T09:00:00+00:00"}


def test_write_twice_merges_and_indexes(ws, run_script):
    r = run_script("memory", "write", "--topic", "记忆系统升级", "--cause", "目录混乱", "--change", "调整", env=NOW)
    assert r.code == 0, r.err
    assert r.out.startswith("wrote memory/daily/2026-03-03.md [d-20260303-")
    r = run_script("memory", "write", "--topic", "记忆系统升级", "--change", "调整", "--change", "上传", "--todo", "检查",
                   "--json", env=NOW)
    doc = json.loads(r.out)
    assert r.code == 0 and doc["merged"] and doc["added"] == 2
    [section] = entries.parse_daily((ws / "memory/daily/2026-03-03.md").read_text(encoding="utf-8"))
    assert section.items == [("cause", "目录混乱"), ("change", "调整"), ("change", "上传"), ("todo", "检查")]


def test_english_mode_writes_english_labels(ws, run_script):
    (ws / "memory").mkdir()
    (ws / "memory/memory-manager.json").write_text('{"language": "en"}')
    assert run_script("memory", "write", "--topic", "Setup", "--change", "done", env=NOW).code == 0
    assert "- Change: done" in (ws / "memory/daily/2026-03-03.md").read_text()
    assert (ws / "memory/daily-index.md").read_text().startswith("# Memory Index\n")


def test_gate_refusal_is_one_line_and_the_block_comes_with_verbose(ws, run_script):
    secret = "sk-" + "D" * 40
    r = run_script("memory", "write", "--topic", "T", "--change", f"key {secret}", "--approved")
    assert r.code == 1 and len(r.err.splitlines()) == 1 and r.err.startswith("error: memory gate: refuse (")
    r = run_script("memory", "write", "--topic", "T", "--change", f"key {secret}", "--approved", "--verbose")
    assert r.code == 1 and "AANA memory gate:" in r.err and "- Decision: refuse" in r.err
    assert r.err.splitlines()[-1].startswith("error: memory gate: refuse (")
    assert secret not in r.err and secret not in r.out
    r = run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "I have diabetes",
                   "--sensitivity", "ordinary", "--json")
    doc = json.loads(r.out)
    assert r.code == 1 and doc["kind"] == "gate" and doc["gate"]["recommended_action"] == "request_approval"
    assert not (ws / "memory/daily").exists()


@pytest.mark.parametrize("args", [
    ["write", "--topic", "x → y", "--change", "y"],
    ["write", "--topic", "T"],
    ["learn", "a/b", "--text", "x"],
    ["remember", "--skill", "CON", "--topic", "t", "--text", "x"],
    ["write", "--topic", "T", "--change", "x", "--date", "03/03/2026"],
    ["write", "--topic", "T", "--change", "x", "--source", "gossip"],
])
def test_bad_input_exits_2_with_one_line_and_changes_nothing(ws, run_script, args):
    before = tree_hash(ws)
    r = run_script("memory", *args)
    assert r.code == 2 and r.err.startswith("error: ") and r.err.count("\n") == 1 and "Traceback" not in r.err
    assert tree_hash(ws) == before
    r = run_script("memory", *args, "--json")
    doc = json.loads(r.out)
    assert r.code == 2 and set(doc) == {"error", "kind"}


def test_learn_event_stats_remember_show_forget(ws, run_script):
    assert run_script("memory", "learn", "oauth", "--text", "use PKCE", "--tags", "auth,web", env=NOW).code == 0
    assert (ws / "memory/knowledge-index.md").read_text(encoding="utf-8") == "# 知识库索引\n\n- oauth\n"
    r = run_script("memory", "event", "skill_complete", "--skill", "web-fetch", "--text", "learned to page results", env=NOW)
    assert r.code == 0 and "skill-web-fetch.md" in r.out
    run_script("memory", "stats", "record", "--skill", "skill-a", "--ok", env=NOW)
    r = run_script("memory", "stats", "record", "--skill", "skill-a", "--fail", "--json", env=NOW)
    assert json.loads(r.out)["stats"] == {"calls": 2, "successes": 1, "success_rate": 0.5, "last_used": "2026-03-03"}
    r = run_script("memory", "stats", "pattern", "--trigger", "morning request", "--skills", "morning-news-daily", env=NOW)
    assert r.code == 0
    stats = json.loads((ws / "memory/tier1-public/morning-news-daily_stats.json").read_text())
    assert stats["patterns_observed"] == [{"trigger": "morning request", "skills_used": ["morning-news-daily"],
                                          "count": 1, "last_seen": "2026-03-03"}]
    r = run_script("memory", "remember", "--skill", "my-skill", "--topic", "prefs", "--text", "-", "--json",
                   input="简洁的更新 🎉", env=NOW)
    t2 = json.loads(r.out)
    assert r.code == 0 and t2["scheme"] == "xor-b64" and t2["expires"] == "2026-04-02"
    r = run_script("memory", "show", t2["id"], "--verbose")
    assert r.code == 1 and "- Decision: request_approval" in r.err and "简洁" not in r.out + r.err
    r = run_script("memory", "show", t2["id"], "--approved")
    assert r.code == 0 and "简洁的更新 🎉" in r.out
    r = run_script("memory", "forget", "oauth", "--verbose")
    assert r.code == 1 and "- Decision: request_approval" in r.err
    r = run_script("memory", "forget", "oauth", "--approved", "--json")
    doc = json.loads(r.out)
    assert r.code == 0 and doc["removed"] == "file"
    # Forgotten means gone (issue 10): the backup copy made by the forget itself is erased too.
    # The note and forget's knowledge-index copy naming the key. The event's backup keeps no copy
    # of the index that named oauth then: adding its line only inserted text (format v4, "insertions").
    assert doc["erased"]["backups"] == 2 and not list((ws / ".memory-backup").glob("*/files/memory/knowledge/oauth.md"))
    assert (ws / "memory/knowledge-index.md").read_text(encoding="utf-8") == "# 知识库索引\n\n- skill-web-fetch\n"
    r = run_script("memory", "show", "no-such-entry")
    assert r.code == 1 and "no memory entry" in r.err


def test_aes_gcm_with_a_key_in_the_environment(ws, run_script):
    import base64

    env = dict(NOW, MEMORY_MANAGER_KEY=base64.b64encode(b"z" * 32).decode())
    r = run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "机密偏好", "--json", env=env)
    assert json.loads(r.out)["scheme"] == "aes-gcm"
    assert "aesgcm:v2:" in (ws / "memory/tier2-internal/s_t.md").read_text()
    assert "机密偏好" in run_script("memory", "show", "memory/tier2-internal/s_t.md", "--approved", env=env).out
    r = run_script("memory", "show", "memory/tier2-internal/s_t.md", "--approved", "--json")
    assert r.code == 1 and json.loads(r.out)["kind"] == "key_unavailable"
    env["MEMORY_MANAGER_KEY"] = base64.b64encode(b"y" * 32).decode()
    r = run_script("memory", "show", "memory/tier2-internal/s_t.md", "--approved", env=env)
    assert r.code == 1 and "wrong key" in r.err


def test_export_and_import_from_openclaw(ws, run_script, tmp_path):
    (ws / "memory").mkdir()
    (ws / "memory/2026-02-10-vendor-pitch.md").write_text("# Session\n\n- vendor pitched a CRM\n", encoding="utf-8")
    r = run_script("memory", "import", "--from-openclaw", "--verbose")
    assert r.code == 1 and "- Memory operation: import" in r.err
    r = run_script("memory", "import", "--from-openclaw", "--approved")
    assert r.code == 0 and "1 daily section(s)" in r.out
    assert "- vendor pitch → daily/2026-02-10.md" in (ws / "memory/daily-index.md").read_text(encoding="utf-8")
    out = tmp_path / "x.json"
    r = run_script("memory", "export", "--approved", "--out", str(out))
    assert r.code == 0 and json.loads(out.read_text())["daily"][0]["topic"] == "vendor pitch"
    r = run_script("memory", "export", "--approved")
    assert json.loads(r.out)["format"] == "cmm-export"


WRITER = """
import subprocess, sys
n = sys.argv[1]
sys.exit(subprocess.call([sys.executable, sys.argv[2], "write", "--topic", f"topic-{int(n) % 5}",
                          "--change", f"line from writer {n}", "--json"], stdout=subprocess.DEVNULL))
"""


def test_twenty_processes_write_at_once_and_lose_nothing(ws):
    env = dict(os.environ, **NOW)
    script = str(ROOT / "scripts" / "memory.py")
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(n), script], env=env,
                              stderr=subprocess.PIPE, text=True) for n in range(20)]
    codes = [p.wait(timeout=120) for p in procs]
    errs = [p.stderr.read() for p in procs]
    assert codes == [0] * 20, errs
    sections = entries.parse_daily((ws / "memory/daily/2026-03-03.md").read_text(encoding="utf-8"))
    assert sorted(s.topic for s in sections) == [f"topic-{i}" for i in range(5)]
    lines = sorted(t for s in sections for _, t in s.items)
    assert lines == sorted(f"line from writer {n}" for n in range(20))
    for s in sections:
        assert sorted(t for _, t in s.items) == sorted(f"line from writer {n}" for n in range(20) if n % 5 == int(s.topic[-1]))
    index = (ws / "memory/daily-index.md").read_text(encoding="utf-8")
    assert sorted(index.splitlines()[2:]) == [f"- topic-{i} → daily/2026-03-03.md" for i in range(5)]
    cfg = __import__("memory_manager.config", fromlist=["load_config"]).load_config()
    assert entries.rebuild_indexes(ws, cfg) == []  # already consistent with the files
    assert not list((ws / "memory/daily").glob(".*.tmp"))


@pytest.mark.parametrize("src", [
    FIXTURES / "workspaces" / "openclaw-2026.9.6",
    pytest.param(SHARED / "workspaces" / "openclaw-2026.9.6",
                 marks=pytest.mark.external(SHARED / "workspaces" / "openclaw-2026.9.6",
                                            reason="a workspace OpenClaw 2026.9.6 wrote"))], ids=["fixture", "real"])
def test_verbs_on_a_copy_of_a_shared_workspace(tmp_path, run_script, src):
    import shutil

    ws = tmp_path / "copy"
    shutil.copytree(src, ws)
    for path in [ws, *ws.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    before = {k: v for k, v in tree_hash(ws).items() if not k.startswith(("memory", ".memory-backup"))}
    env = dict(NOW, OPENCLAW_WORKSPACE_DIR=str(ws))
    assert run_script("memory", "write", "--topic", "setup", "--change", "first note", env=env).code == 0
    assert run_script("memory", "learn", "k", "--text", "t", env=env).code == 0
    after = {k: v for k, v in tree_hash(ws).items() if not k.startswith(("memory", ".memory-backup"))}
    assert after == before  # nothing outside memory/ changed


@pytest.mark.parametrize("key", ["-", "-x"])
def test_knowledge_keys_starting_with_a_dash_are_refused(ws, run_script, key):
    """QA bug 7: '-.md' and '-x.md' look like options to every shell tool."""
    r = run_script("memory", "learn", "--text", "some knowledge", "--", key)
    assert r.code == 2
    assert r.err.strip() == f"error: key {key!r} must not start with '-' (it would look like an option)"
    assert not (ws / "memory" / "knowledge").exists() or list((ws / "memory" / "knowledge").iterdir()) == []
