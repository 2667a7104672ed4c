"""The archive stays searchable: recall finds archived entries (below live ones, marked), unarchive brings one back."""
import json

import pytest

ENV = {"MEMORY_MANAGER_NOW": "2026-11-30T09:00:00+00:00"}


@pytest.fixture
def archived(ws, run_script):
    (ws / "memory").mkdir()
    for day, topic, change in [("2026-06-01", "Balcony plants", "Repotted the monstera with bark and perlite."),
                               ("2026-06-02", "Car", "Annual inspection passed on the second try."),
                               ("2026-11-29", "Plants again", "Watered the balcony plants.")]:
        r = run_script("memory", "write", "--topic", topic, "--change", change, "--date", day, env=ENV)
        assert r.code == 0, r.err
    r = run_script("memory", "prune", "--json", env=ENV)
    moved = json.loads(r.out)["moved"]
    assert sorted(m["heading"] for m in moved) == ["[2026-06-01] Balcony plants", "[2026-06-02] Car"]
    return ws


def recall(run_script, query):
    r = run_script("memory", "recall", query, "--json", env=ENV)
    assert r.code == 0, r.err
    return json.loads(r.out)["hits"]


def test_recall_searches_the_archive_below_live_entries(run_script, archived):
    hits = recall(run_script, "balcony plants")
    assert [(h["heading"], h["archived"]) for h in hits] == [
        ("[2026-11-29] Plants again", False), ("[2026-06-01] Balcony plants", True)]
    assert hits[1]["path"] == "memory/archive/2026-06/daily-2026-06-01.md"
    assert "archived:" not in hits[1]["snippet"]
    r = run_script("memory", "recall", "monstera", env=ENV)
    assert "[archived: listed after live entries]" in r.out.splitlines()[0]


def test_unarchive_brings_the_section_back(run_script, archived):
    ident = recall(run_script, "monstera")[0]["id"]
    r = run_script("memory", "unarchive", ident, "--json", env=ENV)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert (doc["from"], doc["to"]) == ("memory/archive/2026-06/daily-2026-06-01.md", "memory/daily/2026-06-01.md")
    text = (archived / "memory/daily/2026-06-01.md").read_text(encoding="utf-8")
    assert "Repotted the monstera with bark and perlite." in text and "archived:" not in text
    assert f"<!-- id: {ident} -->" in text
    assert not (archived / "memory/archive/2026-06/daily-2026-06-01.md").exists()
    assert [(h["id"], h["archived"]) for h in recall(run_script, "monstera")] == [(ident, False)]
    assert "Balcony plants" in (archived / "memory/daily-index.md").read_text(encoding="utf-8")
    r = run_script("memory", "unarchive", ident, "--json", env=ENV)
    assert r.code == 1 and json.loads(r.out)["kind"] == "not_found"


def test_archived_knowledge_comes_back_and_expired_t2_never_shows(run_script, ws):
    (ws / "memory").mkdir()
    r = run_script("memory", "learn", "tea", "--text", "Green tea wants water around 80 degrees.", "--tags", "tea",
                   env={"MEMORY_MANAGER_NOW": "2026-05-01T09:00:00+00:00"})
    assert r.code == 0, r.err
    (ws / "memory/memory-manager.json").write_text('{"prune": {"window": 0}}', encoding="utf-8")
    r = run_script("memory", "prune", "--json", env=ENV)
    assert [m["heading"] for m in json.loads(r.out)["moved"]] == ["tea"]
    (ws / "memory/archive/2026-05/old_t2.md").write_text(
        "---\nformat: cmm-t2\nversion: 1\n---\ngreen tea secret preference\n", encoding="utf-8")
    hits = recall(run_script, "green tea water")
    assert [(h["heading"], h["archived"]) for h in hits] == [("tea", True)]
    r = run_script("memory", "unarchive", hits[0]["id"], "--json", env=ENV)
    assert r.code == 0, r.out + r.err
    text = (ws / "memory/knowledge/tea.md").read_text(encoding="utf-8")
    assert text.startswith("---\nformat: cmm-knowledge\n") and text.endswith("Green tea wants water around 80 degrees.\n")


def test_status_previews_the_cleanup_window_and_counts_the_archive(run_script, ws):
    (ws / "memory").mkdir()
    for day in ("2026-06-01", "2026-06-02", "2026-06-03"):
        assert run_script("memory", "write", "--topic", f"Note {day}", "--change", "something", "--date", day,
                          env=ENV).code == 0
    (ws / "memory/memory-manager.json").write_text('{"prune": {"window": 1}}', encoding="utf-8")
    doc = json.loads(run_script("memory", "status", "--json", env=ENV).out)
    assert doc["cleanup_preview"] == {"enabled": True, "would_archive": 2, "expired_t2": 0, "window": 1,
                                        "threshold_applied": False}
    assert (doc["archived_entries"], doc["memory_size"]["entries"]) == (0, 3)
    r = run_script("memory", "status", env=ENV)
    assert "下次清理：将归档 2 条（容量窗口 1）；已归档的 0 条仍可搜索" in r.out
    assert run_script("memory", "prune", env=ENV).code == 0
    doc = json.loads(run_script("memory", "status", "--json", env=ENV).out)
    # the three daily files stay (their title line); their sections are in the archive
    assert (doc["archived_entries"], doc["memory_size"]["entries"], doc["memory_size"]["files"]) == (3, 0, 3)
