"""memory.py recall / prune / status as real processes on real files."""
import json

import pytest

from conftest import tree_hash

NOTE = """# 2026-01-05

## [2026-01-05] 飞书日报
<!-- id: d-feishu -->
- 改：配置机器人每天发送飞书日报

## [2026-01-05] Deploy
<!-- id: d-deploy -->
- Change: deploys wait for the green build
"""


@pytest.fixture
def mem(ws):
    (ws / "memory/daily").mkdir(parents=True)
    (ws / "memory/daily/2026-01-05.md").write_text(NOTE, encoding="utf-8")
    return ws


ENV = {"MEMORY_MANAGER_NOW": "2026-03-05T00:00:00+00:00"}


def test_recall_json(run_script, mem):
    r = run_script("memory", "recall", "日报", "--json", env=ENV)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["query"] == "日报"
    assert [(h["id"], h["path"], h["date"]) for h in doc["hits"]] == [
        ("d-feishu", "memory/daily/2026-01-05.md", "2026-01-05")]
    assert doc["hits"][0]["parts"] == {"keyword": 1.0, "time": 0.1, "access": 0.0, "tags": 0.5, "total": 0.501}
    assert doc["hits"][0]["time_weight"] == 0.01 and doc["hits"][0]["time_reason"] == "decay by age (59 days)"


def test_recall_human_output(run_script, mem):
    r = run_script("memory", "recall", "deploys", "--top-k", "1", env=ENV)
    assert r.code == 0 and r.out.startswith("1. 0.501  memory/daily/2026-01-05.md › [2026-01-05] Deploy  [d-deploy]")


def test_recall_leaves_access_state_byte_identical(run_script, mem):
    assert run_script("memory", "used", "d-deploy", env=ENV).code == 0          # creates the sidecar
    state = mem / "memory/.state"
    before = tree_hash(state)
    assert "access.json" in before
    for extra in ((), ("--no-track",)):
        r = run_script("memory", "recall", "deploy", *extra, "--json", env=ENV)
        assert r.code == 0 and json.loads(r.out)["hits"]
        assert tree_hash(state) == before


def test_no_track_on_fresh_workspace_creates_no_state(run_script, mem):
    assert run_script("memory", "recall", "deploy", "--no-track", env=ENV).code == 0
    assert not (mem / "memory/.state").exists()


def test_used_and_show_count_one_use_each(run_script, mem):
    r = run_script("memory", "used", "d-deploy", "--json", env=ENV)
    assert r.code == 0 and json.loads(r.out) == {"action": "used", "ids": ["d-deploy"]}
    r = run_script("memory", "learn", "tea", "--text", "green tea at 80 C", "--json", env=ENV)
    kid = json.loads(r.out)["id"]
    assert run_script("memory", "show", kid, env=ENV).code == 0
    assert run_script("memory", "show", kid, "--no-track", env=ENV).code == 0
    doc = json.loads((mem / "memory/.state/access.json").read_text(encoding="utf-8"))
    assert doc["entries"] == {"d-deploy": {"count": 1, "last": "2026-03-05T00:00:00+00:00"},
                              kid: {"count": 1, "last": "2026-03-05T00:00:00+00:00"}}
    r = run_script("memory", "used", "d-nothing", "--json", env=ENV)
    assert r.code == 1 and json.loads(r.out)["kind"] == "not_found"


@pytest.mark.parametrize("args", [("recall", ""), ("recall", "x", "--top-k", "0"), ("recall",)])
def test_bad_input_exits_2_without_traceback(run_script, mem, args):
    before = tree_hash(mem)
    r = run_script("memory", *args, "--json", env=ENV)
    assert r.code == 2 and "Traceback" not in r.err
    assert "error" in json.loads(r.out)
    assert tree_hash(mem) == before


def test_no_match_is_exit_0(run_script, mem):
    r = run_script("memory", "recall", "zebra", "--json", env=ENV)
    assert r.code == 0 and json.loads(r.out)["hits"] == []


def test_prune_dry_run_then_prune(run_script, mem):
    dry = run_script("memory", "prune", "--dry-run", "--json", env=ENV)
    assert dry.code == 0
    doc = json.loads(dry.out)
    assert [m["id"] for m in doc["moves"]] == ["d-feishu", "d-deploy"]
    assert (mem / "memory/daily/2026-01-05.md").read_text(encoding="utf-8") == NOTE
    real = run_script("memory", "prune", "--json", env=ENV)
    assert real.code == 0
    assert [m["id"] for m in json.loads(real.out)["moved"]] == ["d-feishu", "d-deploy"]
    assert (mem / "memory/daily/2026-01-05.md").read_text(encoding="utf-8") == "# 2026-01-05\n\n"
    assert "配置机器人每天发送飞书日报" in (mem / "memory/archive/2026-01/daily-2026-01-05.md").read_text(encoding="utf-8")


def test_status(run_script, mem):
    r = run_script("memory", "status", "--json", env=ENV)
    assert r.code == 0
    doc = json.loads(r.out)
    assert doc["memory_size"]["entries"] == 2 and doc["prune_rate"] == 1.0
    assert doc["tiers"] == {"t1": 0, "t1_skills": 0, "t2": 0, "t3": 0, "daily": 2, "knowledge": 0}
    human = run_script("memory", "status", env=ENV)
    # a Chinese workspace (the suite's locale): status speaks Chinese (walk-through r9, item 4)
    assert "修剪率：100.0%" in human.out
    assert "分层：T1 0 个统计文件（0 个技能），T2 0 条加密条目，T3 0" in human.out
    assert "普通记忆：2 个每日小节，0 条知识条目" in human.out


def test_status_counts_tiers_as_the_readme_defines_them(run_script, mem):
    """T1 = statistics files (and their skills), T2 = encrypted entries; daily and
    knowledge entries are counted apart, never as T1 (QA bug 8)."""
    env = {**ENV, "MEMORY_MANAGER_KEY": "k" * 43 + "="}  # 32 bytes of Base64
    for skill in ("weather", "news"):
        r = run_script("memory", "stats", "record", "--skill", skill, "--ok", env=env)
        assert r.code == 0, r.err
    r = run_script("memory", "stats", "record", "--skill", "calendar", "--ok", env=env)
    assert r.code == 0, r.err
    r = run_script("memory", "learn", "tea", "--text", "green tea in the morning", env=env)
    assert r.code == 0, r.err
    for topic in ("sources", "layout"):
        r = run_script("memory", "remember", "--skill", "news", "--topic", topic, "--text", "prefers short items",
                       "--scheme", "xor-b64", "--approved", env=env)
        assert r.code == 0, r.err
    doc = json.loads(run_script("memory", "status", "--json", env=env).out)
    t1 = sorted(p.name for p in (mem / "memory/tier1-public").glob("*_stats.json"))
    assert t1 == ["calendar_stats.json", "news_stats.json", "weather_stats.json"]
    assert doc["tiers"] == {"t1": 3, "t1_skills": 3, "t2": 2, "t3": 0, "daily": 2, "knowledge": 1}
    assert doc["problems"] == []


def test_missing_workspace_is_exit_2(run_script, tmp_path):
    r = run_script("memory", "recall", "x", "--workspace", str(tmp_path / "nope"), "--json")
    assert r.code == 2 and json.loads(r.out)["kind"] == "workspace"
