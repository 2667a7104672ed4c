import json
from datetime import date

from conftest import tree_hash
from test_cleanup import t2  # noqa: F401  (fixture helpers)

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}


def setup(ws):
    for sub in ("daily", "tier2-internal", "archive"):
        (ws / "memory" / sub).mkdir(parents=True, exist_ok=True)


def test_json_report_and_exit_codes(ws, run_script, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", ENV["MEMORY_MANAGER_NOW"])
    setup(ws)
    t2(ws, "news", "sources", "old", date(2026, 9, 3))
    result = run_script("cleanup", "--json", "--dry-run", env=ENV)
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert doc["dry_run"] and doc["archived"] == 1 and doc["actions"][0]["target"] == "memory/archive/2026-09/news_sources.md"
    result = run_script("cleanup", env=ENV)
    assert result.code == 0 and "[2026-11-29] 记忆清理：归档 1，删除 0，合并 0" in result.out
    result = run_script("cleanup", "--if-due", "--json", env=ENV)
    assert json.loads(result.out)["ran"] is False


def test_bad_config_exit_2_nothing_changed(ws, run_script):
    setup(ws)
    (ws / "memory" / "memory-manager.json").write_text('{"cleanup": {"interval_days": "weekly"}}')
    before = tree_hash(ws)
    result = run_script("cleanup")
    assert result.code == 2 and result.err.startswith("error: ") and "interval_days" in result.err
    assert tree_hash(ws) == before
