"""Recall ranking on small fixtures with known answers (English, Chinese, mixed), tracking, T2 hook."""
import json

import pytest

from memory_manager.access import access_path
from memory_manager.config import load_config
from memory_manager.errors import BadInputError
from memory_manager.recall import recall

CFG = load_config(None)

NOTES = {
    "memory/daily/2026-03-01.md": """# 2026-03-01

## [2026-03-01] Deploy pipeline
<!-- id: d-deploy -->
- Cause: deploys were failing on the build server
- Change: the deploy script now waits for the green build

## [2026-03-01] Lunch
<!-- id: d-lunch -->
- Change: ordered noodles for the team lunch
""",
    "memory/daily/2026-03-02.md": """# 2026-03-02

## [2026-03-02] 飞书日报
<!-- id: d-feishu -->
- 因：每天的飞书日报总是忘记发送
- 改：配置了定时机器人自动发送日报

## [2026-03-02] 出差安排
<!-- id: d-train -->
- 改：下周一坐高铁去上海参加客户会议

## [2026-03-02] Python 脚本
<!-- id: d-mixed -->
- 改：用Python写了一个备份脚本，每晚自动运行 backup
""",
    "memory/knowledge/preferences.md": """---
format: cmm-knowledge
version: 1
id: k-prefs
key: preferences
tags: [style, answers]
created: 2026-02-01
updated: 2026-02-01
---
The user prefers short answers with a summary line first.
""",
}


@pytest.fixture
def notes(ws, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-03-05")
    for rel, text in NOTES.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")
    return ws


@pytest.mark.parametrize("query, expected", [
    ("Why were deploys failing on the build server?", "d-deploy"),
    ("deploying", "d-deploy"),                      # stemming
    ("what did we order for lunch", "d-lunch"),
    ("日报", "d-feishu"),                            # two-character word inside a longer run
    ("飞书日报怎么自动发送", "d-feishu"),
    ("高铁", "d-train"),
    ("什么时候去上海", "d-train"),
    ("python 备份脚本", "d-mixed"),                  # mixed query, mixed note
    ("Python backup", "d-mixed"),
    ("short answers summary", "k-prefs"),
])
def test_known_answer_ranks_first(notes, query, expected):
    hits = recall(notes, query, CFG, track=False)
    assert hits and hits[0].id == expected


def test_only_matching_entries_are_returned(notes):
    hits = recall(notes, "noodles", CFG, track=False)
    assert [h.id for h in hits] == ["d-lunch"]
    assert recall(notes, "zebra", CFG, track=False) == []
    assert recall(notes, "the of and", CFG, track=False) == []   # stop words only


def test_hit_fields_and_score_parts(notes):
    (hit,) = recall(notes, "noodles", CFG, track=False)
    assert (hit.path, hit.heading, hit.date) == ("memory/daily/2026-03-01.md", "[2026-03-01] Lunch", "2026-03-01")
    assert "noodles" in hit.snippet
    # 4 days old: time 1.0; never recalled: access 0; untagged: 0.5; best match: keyword 1.0.
    # One candidate near the best: time weight 0.2 * 1/20 = 0.01 (scoring.plain_time_weight)
    assert hit.parts == {"keyword": 1.0, "time": 1.0, "access": 0.0, "tags": 0.5, "total": 0.51}
    assert hit.score == pytest.approx(0.51) and hit.time_weight == pytest.approx(0.01)


def test_tags_part_uses_query_words(notes):
    (hit,) = recall(notes, "short answers", CFG, track=False)
    assert hit.parts["tags"] == 0.5       # "answers" matches tag "answers", not "style": 1 of 2


def test_top_k(notes):
    assert len(recall(notes, "自动 发送 deploy noodles", CFG, top_k=2, track=False)) == 2
    with pytest.raises(BadInputError):
        recall(notes, "x", CFG, top_k=0)


def test_recall_counts_no_access_used_does(notes):
    from memory_manager.store import used

    recall(notes, "noodles", CFG)
    recall(notes, "noodles", CFG)
    assert not access_path(notes).exists()          # listing an entry is not using it (issue 13)
    assert used(notes, ["d-lunch", "d-lunch"]) == {"action": "used", "ids": ["d-lunch"]}
    used(notes, ["d-lunch"])
    doc = json.loads(access_path(notes).read_text(encoding="utf-8"))
    assert doc["format"] == "cmm-access" and doc["version"] == 1
    assert doc["entries"] == {"d-lunch": {"count": 2, "last": "2026-03-05T00:00:00+00:00"}}
    (hit,) = recall(notes, "noodles", CFG, track=False)
    assert hit.parts["access"] == pytest.approx(0.1648, abs=1e-4)   # ln(3)/10 * 1.5


def test_access_count_decays_with_time(notes, monkeypatch):
    from memory_manager.store import used

    used(notes, ["d-lunch"] * 1)
    used(notes, ["d-lunch"])
    used(notes, ["d-lunch"])                       # 3 uses on 2026-03-05
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-04-04")   # 30 days later: half weight, no recent boost
    (hit,) = recall(notes, "noodles", CFG, track=False)
    assert hit.parts["access"] == pytest.approx(0.09163, abs=1e-4)  # ln(1.5 + 1)/10


def test_no_track_writes_nothing(notes):
    recall(notes, "noodles", CFG, track=False)
    assert not access_path(notes).exists()


def test_hand_edit_shows_up_in_next_recall(notes):
    assert recall(notes, "pizza", CFG, track=False) == []
    path = notes / "memory/daily/2026-03-01.md"
    path.write_text(path.read_text(encoding="utf-8").replace("noodles", "pizza"), encoding="utf-8")
    assert [h.id for h in recall(notes, "pizza", CFG, track=False)] == ["d-lunch"]


def test_old_relevant_entry_still_surfaces(notes, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2027-03-05")     # a year later: time at its floor 0.1
    (notes / "memory/daily/2027-03-04.md").write_text(
        "## [2027-03-04] Build\n<!-- id: d-new -->\n- the build server is fast now\n", encoding="utf-8")
    hits = recall(notes, "why were deploys failing", CFG, track=False)
    assert hits[0].id == "d-deploy" and hits[0].parts["time"] == 0.1   # the only candidate: nothing to lift


def test_old_entry_alone_holding_distinctive_words_beats_newer_partial_matches(notes, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2027-03-05")
    new = "".join(f"## [2027-03-0{i}] Server {i}\n<!-- id: d-new{i} -->\n- the build server was slow\n\n"
                  for i in range(1, 5))
    (notes / "memory/daily/2027-03-04.md").write_text(new, encoding="utf-8")
    hits = recall(notes, "deploys failing on the build server", CFG, track=False)
    # d-deploy alone holds "deploys" and "failing"; four newer notes share only "build server".
    assert hits[0].id == "d-deploy"
    assert hits[0].parts["time"] == 1.0
    assert hits[0].time_reason == "only entry holding the query's distinctive words: no decay"
    assert sorted(h.time_reason for h in hits[1:5]) == [f"decay by age ({d} days)" for d in (1, 2, 3, 4)]


def _remember(ws, text, scheme="xor-b64", monkeypatch=None):
    from memory_manager import store
    from memory_manager.config import load_config

    return store.remember(ws, load_config(ws), skill="editor-skill", topic="prefs", text=text, scheme=scheme)


def _audit(ws):
    path = ws / "memory/.state/gate-audit.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_t2_held_back_until_the_user_approves(notes):
    _remember(notes, "## Editor\nThe user prefers the vim editor with dark themes.")
    before = len(_audit(notes))
    stats: dict = {}
    assert recall(notes, "vim editor", CFG, track=False, t2_stats=stats) == []
    assert stats == {"held": 1, "locked": 0, "refused": 0, "included": 0}
    stats = {}
    hits = recall(notes, "vim editor", CFG, track=False, approved=True, t2_stats=stats)
    assert [(h.kind, h.heading, h.path) for h in hits] == [("t2", "Editor", "memory/tier2-internal/editor-skill_prefs.md")]
    assert stats["included"] == 1 and len(_audit(notes)) == before       # --no-track: no audit record
    recall(notes, "vim editor", CFG, approved=True)
    assert [r["operation"] for r in _audit(notes)[before:]] == ["reuse"]
    assert "vim" not in json.dumps(_audit(notes))
    assert b"vim" not in (notes / "memory/.cache/recall-index.sqlite").read_bytes()  # plaintext never indexed


def test_t2_without_its_key_is_locked(notes, monkeypatch):
    import base64

    monkeypatch.setenv("MEMORY_MANAGER_KEY", base64.b64encode(bytes(range(32))).decode())
    _remember(notes, "The user prefers the vim editor.", scheme="aes-gcm")
    monkeypatch.delenv("MEMORY_MANAGER_KEY")
    stats: dict = {}
    assert recall(notes, "vim editor", CFG, track=False, approved=True, t2_stats=stats) == []
    assert stats["locked"] == 1


def test_workspace_without_memory_gets_no_hits_and_no_cache(ws):
    assert recall(ws, "anything", CFG) == []
    assert list(ws.iterdir()) == []
