"""Pruning: archives (never deletes), protects recent and pinned entries, honours the window."""
import json

import pytest

from memory_manager.config import load_config
from memory_manager.prune import plan, prune, status
from memory_manager.recall import recall

CFG = load_config(None)

OLD_DAILY = """# 2026-01-05

## [2026-01-05] Old decision
<!-- id: d-old -->
- Change: moved the wiki

## [2026-01-05] Keep me
<!-- id: d-pin -->
<!-- pinned -->
- Change: the production password rotation schedule
"""
NEW_DAILY = "## [2026-03-03] Fresh\n<!-- id: d-new -->\n- Change: new thing\n"
OPENCLAW = "# 2026-01-02\n\n- OpenClaw wrote this old note about the wiki.\n"
KNOWLEDGE = """---
format: cmm-knowledge
version: 1
id: k-old
key: old-topic
created: 2026-01-20
updated: 2026-01-20
---
Old knowledge about the wiki.
"""


@pytest.fixture
def mem(ws, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-03-05T12:00:00+00:00")
    files = {"memory/daily/2026-01-05.md": OLD_DAILY, "memory/daily/2026-03-03.md": NEW_DAILY,
             "memory/2026-01-02.md": OPENCLAW, "memory/knowledge/old-topic.md": KNOWLEDGE}
    for rel, text in files.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")
    return ws


def test_dry_run_lists_exactly_and_changes_nothing(mem):
    from conftest import tree_hash

    before = tree_hash(mem / "memory")
    result = prune(mem, CFG, dry_run=True)
    assert [(m["id"], m["archive"]) for m in result["moves"]] == [
        ("d-old", "memory/archive/2026-01/daily-2026-01-05.md"),      # value (0.1+0+0.5)/3 = 0.2
        ("k-old", "memory/archive/2026-01/knowledge-old-topic.md"),   # 44 days: (0.26+0+0.5)/3 = 0.253
    ]
    assert result["moves"][0]["reason"] == "value 0.200 below threshold 0.6"
    after = {k: v for k, v in tree_hash(mem / "memory").items() if not k.startswith((".cache", ".lock"))}
    assert after == {k: v for k, v in before.items()}


def test_prune_archives_never_deletes(mem):
    result = prune(mem, CFG)
    assert sorted(m["id"] for m in result["moved"]) == ["d-old", "k-old"]
    daily = (mem / "memory/daily/2026-01-05.md").read_text(encoding="utf-8")
    assert daily == "# 2026-01-05\n\n## [2026-01-05] Keep me\n<!-- id: d-pin -->\n<!-- pinned -->\n" \
                    "- Change: the production password rotation schedule\n"
    arch = (mem / "memory/archive/2026-01/daily-2026-01-05.md").read_text(encoding="utf-8")
    assert arch.startswith("# Archived from memory/daily/2026-01-05.md\n\n"
                           "## [2026-01-05] Old decision\n<!-- id: d-old -->\n- Change: moved the wiki\n<!-- archived: ")
    meta = json.loads(arch.split("<!-- archived: ", 1)[1].rsplit(" -->", 1)[0])
    assert meta["format"] == "cmm-archive" and meta["version"] == 1
    assert (meta["id"], meta["source"], meta["created"], meta["archived"]) == (
        "d-old", "memory/daily/2026-01-05.md", "2026-01-05", "2026-03-05T12:00:00+00:00")
    assert meta["reason"] == "value 0.200 below threshold 0.6"
    assert not (mem / "memory/knowledge/old-topic.md").exists()
    karch = (mem / "memory/archive/2026-01/knowledge-old-topic.md").read_text(encoding="utf-8")
    assert karch.startswith(KNOWLEDGE)
    # untouched: recent entry, OpenClaw's own note
    assert (mem / "memory/daily/2026-03-03.md").read_text(encoding="utf-8") == NEW_DAILY
    assert (mem / "memory/2026-01-02.md").read_text(encoding="utf-8") == OPENCLAW
    # backed up first
    from memory_manager import backups

    manifest = backups.manifest(mem, result["backup"])
    saved = {e["path"]: e["existed"] for e in manifest["entries"] if e["kind"] == "file"}
    assert saved == {"memory/archive/2026-01/daily-2026-01-05.md": False,
                     "memory/archive/2026-01/knowledge-old-topic.md": False,
                     "memory/daily/2026-01-05.md": True, "memory/knowledge/old-topic.md": True,
                     "memory/daily-index.md": False, "memory/knowledge-index.md": False}
    # the index follows: the moved entry is no longer recalled, the pinned one still is
    assert recall(mem, "wiki", CFG, track=False)[0].path == "memory/2026-01-02.md"
    assert [h.id for h in recall(mem, "password rotation", CFG, track=False)] == ["d-pin"]
    # a second run has nothing left to move
    assert prune(mem, CFG)["moved"] == []


def test_restore_undoes_a_prune(mem):
    from conftest import tree_hash
    from memory_manager.backups import restore

    before = {k: v for k, v in tree_hash(mem / "memory").items() if not k.startswith(".")}
    result = prune(mem, CFG)
    restore(mem, result["backup"])
    after = {k: v for k, v in tree_hash(mem / "memory").items() if not k.startswith(".")}
    assert after == before


def test_capacity_window_moves_lowest_value_first(ws, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-03-05")
    (ws / "memory/knowledge").mkdir(parents=True)
    # four tagged entries (tags 1.0), ages 8/10/12/14 days: time 0.98/0.94/0.90/0.86,
    # values 0.660/0.647/0.633/0.620, all above the threshold
    for n, day in enumerate(["2026-02-25", "2026-02-23", "2026-02-21", "2026-02-19"]):
        (ws / f"memory/knowledge/k{n}.md").write_text(
            f"---\nid: k{n}\nkey: k{n}\ntags: [t]\ncreated: {day}\n---\nbody {n}\n", encoding="utf-8")
    cfg = json.loads(json.dumps(CFG))
    cfg["prune"]["window"] = 2
    p = plan(ws, cfg)
    assert [(m.item.row["id"], m.reason) for m in p.moves] == [
        ("k3", "beyond capacity window 2 (value 0.620)"), ("k2", "beyond capacity window 2 (value 0.633)")]
    cfg["prune"]["window"], cfg["prune"]["threshold"] = 200, 0.64
    p = plan(ws, cfg)
    assert [(m.item.row["id"], m.reason) for m in p.moves] == [
        ("k3", "value 0.620 below threshold 0.64"), ("k2", "value 0.633 below threshold 0.64")]


def test_status_metrics(mem):
    doc = status(mem, CFG)
    assert doc["memory_size"]["entries"] == 5 and doc["memory_size"]["files"] == 4
    assert doc["prunable_entries"] == 4 and doc["would_move"] == 2 and doc["prune_rate"] == 0.5
    # values: d-old 0.2, d-pin 0.2 (pinned), d-new (1+0+0.5)/3 = 0.5, k-old (0.26+0+0.5)/3
    assert doc["average_value"] == pytest.approx((0.2 + 0.2 + 0.5 + 0.76 / 3) / 4, abs=1e-6)
    assert doc["tiers"] == {"t1": 0, "t1_skills": 0, "t2": 0, "t3": 0, "daily": 3, "knowledge": 1}
    assert doc["problems"] == []


def test_store_indexes_rebuilt_and_undone_by_restore(mem):
    from memory_manager.backups import restore

    (mem / "memory/daily-index.md").write_text("# Memory Index\n", encoding="utf-8")
    before = (mem / "memory/daily-index.md").read_bytes()
    result = prune(mem, CFG)
    assert result["moved"] and result["warnings"] == []
    assert "memory/daily-index.md" in result["indexes"]
    assert (mem / "memory/daily-index.md").read_text() == (
        "# Memory Index\n\n- Keep me → daily/2026-01-05.md\n- Fresh → daily/2026-03-03.md\n")
    restore(mem, result["backup"])
    assert (mem / "memory/daily-index.md").read_bytes() == before
    assert not (mem / "memory/knowledge-index.md").exists()


def test_prune_keeps_bom_and_crlf_of_the_note(ws, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-03-05")
    (ws / "memory/daily").mkdir(parents=True)
    path = ws / "memory/daily/2026-01-05.md"
    path.write_bytes(b"\xef\xbb\xbf# 2026-01-05\r\n\r\n## old\r\n- gone\r\n\r\n## kept\r\n<!-- pinned -->\r\n- stays\r\n")
    result = prune(ws, CFG)
    assert [m["heading"] for m in result["moved"]] == ["old"]
    assert path.read_bytes() == b"\xef\xbb\xbf# 2026-01-05\r\n\r\n## kept\r\n<!-- pinned -->\r\n- stays\r\n"
