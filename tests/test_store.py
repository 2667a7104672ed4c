import os

import pytest

from conftest import tree_hash
from memory_manager import backups, entries, store
from memory_manager.config import load_config
from memory_manager.errors import (BadInputError, GateDecisionError, InvalidNameError, MalformedFileError,
                                   NotFoundError, WorkspaceError)


@pytest.fixture
def cfg():
    return load_config()


@pytest.fixture(autouse=True)
def fixed_now(monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-03-03T09:00:00+00:00")


def test_write_creates_the_note_and_index(ws, cfg):
    r = store.write_daily(ws, cfg, topic="记忆系统升级", cause=["目录混乱"], change=["调整为 daily/"], todo=["检查描述"])
    assert r["path"] == "memory/daily/2026-03-03.md" and r["added"] == 3 and not r["merged"]
    assert sorted(r["indexes"]) == ["memory/daily-index.md", "memory/knowledge-index.md"]
    assert (ws / r["path"]).read_text(encoding="utf-8") == (
        f"## [2026-03-03] 记忆系统升级\n<!-- id: {r['id']} -->\n- 因：目录混乱\n- 改：调整为 daily/\n- 待：检查描述\n")
    assert (ws / "memory/daily-index.md").read_text(encoding="utf-8") == "# 记忆索引\n\n- 记忆系统升级 → daily/2026-03-03.md\n"
    for sub in entries.TREE:
        assert (ws / "memory" / sub).is_dir()


def test_second_day_appends_the_date_to_the_topic(ws, cfg):
    store.write_daily(ws, cfg, topic="飞书配置", change=["a"], day="2026-03-02")
    r = store.write_daily(ws, cfg, topic="飞书配置", change=["b"])
    assert r["indexes"] == ["memory/daily-index.md"]
    assert "- 飞书配置 → daily/2026-03-02.md,daily/2026-03-03.md" in (ws / "memory/daily-index.md").read_text(encoding="utf-8")


def test_crlf_and_bom_daily_files_keep_their_style(ws, cfg):
    path = ws / "memory/daily/2026-03-03.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xef\xbb\xbf## [2026-03-03] T\r\n- \xe6\x94\xb9\xef\xbc\x9aold\r\n")
    store.write_daily(ws, cfg, topic="T", change=["new"])
    assert path.read_bytes() == "\ufeff## [2026-03-03] T\r\n- 改：old\r\n- 改：new\r\n".encode("utf-8")


def test_daily_topic_is_only_a_heading(ws, cfg):
    # A daily topic never becomes a file name, so '/' and '..' are plain text in the heading.
    for topic in ("../../etc", "a/b"):
        assert store.write_daily(ws, cfg, topic=topic, change=["x"])["path"] == "memory/daily/2026-03-03.md"
    text = (ws / "memory/daily/2026-03-03.md").read_text()
    assert "## [2026-03-03] ../../etc\n" in text and "## [2026-03-03] a/b\n" in text
    assert sorted(p.name for p in (ws / "memory/daily").iterdir()) == ["2026-03-03.md"]


def test_bad_input_changes_nothing(ws, cfg):
    before = tree_hash(ws)
    for kwargs in ({"topic": "T"}, {"topic": "T", "change": ["x"], "day": "2026-13-01"},
                   {"topic": "line\nbreak", "change": ["x"]}):
        with pytest.raises((BadInputError, InvalidNameError)):
            store.write_daily(ws, cfg, **kwargs)
    for kwargs in ({"key": "../x", "text": "t"}, {"key": "CON", "text": "t"}, {"key": "k", "text": "  "}):
        with pytest.raises(BadInputError):
            store.learn(ws, cfg, **kwargs)
    with pytest.raises(InvalidNameError):
        store.remember(ws, cfg, skill="..", topic="t", text="x")
    with pytest.raises(BadInputError, match="month"):
        store.remember(ws, cfg, skill="s", topic="2026-03", text="x")
    assert tree_hash(ws) == before


def test_symlinked_folder_leading_outside_is_refused(ws, cfg, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (ws / "memory").mkdir()
    os.symlink(outside, ws / "memory" / "knowledge")
    with pytest.raises(WorkspaceError):
        store.learn(ws, cfg, key="k", text="hello")
    assert list(outside.iterdir()) == []


def test_secret_refused_and_health_held_even_when_labelled_ordinary(ws, cfg):
    with pytest.raises(GateDecisionError) as err:
        store.write_daily(ws, cfg, topic="T", change=["key sk-" + "B" * 40], approved=True)
    assert err.value.decision.decision == "refuse"
    with pytest.raises(GateDecisionError) as err:
        store.remember(ws, cfg, skill="s", topic="t", text="diagnosed with depression", sensitivity="ordinary")
    assert err.value.decision.decision == "request_approval"
    assert not (ws / "memory/daily").exists() and not (ws / "memory/tier2-internal").exists()
    r = store.remember(ws, cfg, skill="s", topic="t", text="diagnosed with depression", approved=True)
    assert r["scheme"] == "xor-b64"


def test_learn_creates_then_merges(ws, cfg):
    r = store.learn(ws, cfg, key="clawhub", text="publish with clawhub publish", tags="cli, publish")
    assert r["created"] and r["path"] == "memory/knowledge/clawhub.md"
    text = (ws / r["path"]).read_text(encoding="utf-8")
    assert text.startswith(f"---\nformat: cmm-knowledge\nversion: 1\nid: {r['id']}\nkey: clawhub\ntags: [cli, publish]\n"
                           "created: 2026-03-03\nupdated: 2026-03-03\n---\n\npublish with clawhub publish\n")
    assert (ws / "memory/knowledge-index.md").read_text(encoding="utf-8") == "# 知识库索引\n\n- clawhub\n"
    r2 = store.learn(ws, cfg, key="clawhub", text="publish with clawhub publish", tags="cli")
    assert not r2["changed"]


def test_learn_refuses_to_touch_a_malformed_entry(ws, cfg):
    path = ws / "memory/knowledge/broken.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"---\ntags: [unclosed\n---\nbody\n")
    with pytest.raises(MalformedFileError):
        store.learn(ws, cfg, key="broken", text="more")
    assert path.read_bytes() == b"---\ntags: [unclosed\n---\nbody\n"
    assert store.check(ws) == ["broken.md: broken.md: frontmatter is not valid YAML (line 2)"]


def test_event_and_stats(ws, cfg):
    r = store.record_event(ws, cfg, event="skill_error", skill="web-fetch", text="timeout; fix: retry")
    assert r["path"] == "memory/knowledge/skill-web-fetch.md"
    assert "- [2026-03-03] skill_error: timeout; fix: retry" in (ws / r["path"]).read_text(encoding="utf-8")
    store.stats_record(ws, cfg, skill="skill-a", ok=True)
    r = store.stats_record(ws, cfg, skill="skill-a", ok=False)
    assert r["stats"] == {"calls": 2, "successes": 1, "success_rate": 0.5, "last_used": "2026-03-03"}
    r = store.stats_pattern(ws, cfg, trigger="morning request", skills=["news", "weather"])
    assert r["path"] == "memory/tier1-public/news_stats.json" and r["pattern"]["count"] == 1


def test_remember_show_and_replace(ws, cfg):
    r = store.remember(ws, cfg, skill="my-skill", topic="prefs", text="偏好简洁 🎉")
    assert r["expires"] == "2026-04-02" and oct((ws / r["path"]).stat().st_mode & 0o777) == "0o600"
    assert "偏好" not in (ws / r["path"]).read_text(encoding="utf-8")
    with pytest.raises(GateDecisionError, match="T2"):
        store.show(ws, cfg, r["id"])
    shown = store.show(ws, cfg, r["id"], approved=True)
    assert shown["text"] == "偏好简洁 🎉" and shown["kind"] == "t2"
    with pytest.raises(GateDecisionError, match="approval"):
        store.remember(ws, cfg, skill="my-skill", topic="prefs", text="new")
    r2 = store.remember(ws, cfg, skill="my-skill", topic="prefs", text="new", approved=True)
    assert r2["replaced"] and store.show(ws, cfg, "memory/tier2-internal/my-skill_prefs.md", approved=True)["text"] == "new"


def test_show_by_id_key_and_path_and_refuses_escapes(ws, cfg, tmp_path):
    d = store.write_daily(ws, cfg, topic="T", change=["x"])
    store.learn(ws, cfg, key="react", text="hooks")
    assert store.show(ws, cfg, d["id"])["change"] == ["x"]
    assert store.show(ws, cfg, "react")["body"] == "hooks"
    assert store.show(ws, cfg, "daily/2026-03-03.md")["kind"] == "daily"
    (tmp_path / "secret.txt").write_text("outside")
    with pytest.raises(WorkspaceError):
        store.show(ws, cfg, str(tmp_path / "secret.txt"))
    with pytest.raises(WorkspaceError):
        store.show(ws, cfg, "../secret.txt")
    with pytest.raises(NotFoundError):
        store.show(ws, cfg, "d-20260303-00000000")


def test_show_of_sensitive_memory_needs_approval(ws, cfg):
    store.learn(ws, cfg, key="med", text="takes medication at night", approved=True)
    with pytest.raises(GateDecisionError):
        store.show(ws, cfg, "med")
    assert store.show(ws, cfg, "med", approved=True)["body"] == "takes medication at night"


def test_forget_needs_approval_and_erases_every_copy(ws, cfg):
    a = store.write_daily(ws, cfg, topic="A", change=["a"])
    store.write_daily(ws, cfg, topic="B", change=["b"])
    before = (ws / a["path"]).read_bytes()
    with pytest.raises(GateDecisionError):
        store.forget(ws, cfg, a["id"])
    assert (ws / a["path"]).read_bytes() == before
    r = store.forget(ws, cfg, a["id"], approved=True)
    assert r["removed"] == "section"
    assert (ws / a["path"]).read_text(encoding="utf-8") == (
        f"## [2026-03-03] B\n<!-- id: {store.entries.daily_id('2026-03-03', 'B')} -->\n- 改：b\n")
    assert (ws / "memory/daily-index.md").read_text(encoding="utf-8") == "# 记忆索引\n\n- B → daily/2026-03-03.md\n"
    # Forgotten means gone (issue 10): the copies holding A are erased as well: the note and
    # the daily-index.md that lists the topic A, both backed up by the forget first. Write B
    # only appended to both, so its backup keeps no copy of either (format v4, "insertions"); but
    # its hashes and ranges of states that held A check a guess at A: erased too (v5), hashes only.
    assert r["erased"]["backups"] == 2
    write_b = [d for d in backups.list_backups(ws) if d["reason"] == "write 2026-03-03"][-1]
    assert sorted((e["path"], e["stored"], e.get("erased"), "sha256" in e) for e in write_b["entries"]) == [
        ("memory/daily-index.md", "erased", "hashes", False), ("memory/daily/2026-03-03.md", "erased", "hashes", False)]
    assert backups.not_restore_point(write_b) is None
    assert not list((ws / ".memory-backup").glob(f"*/files/{a['path']}"))


def test_forget_knowledge_and_t2_files(ws, cfg):
    k = store.learn(ws, cfg, key="react", text="hooks")
    t = store.remember(ws, cfg, skill="s", topic="t", text="x")
    store.forget(ws, cfg, k["id"], approved=True)
    store.forget(ws, cfg, t["id"], approved=True)
    assert not (ws / k["path"]).exists() and not (ws / t["path"]).exists()
    assert (ws / "memory/knowledge-index.md").read_text(encoding="utf-8") == "# 知识库索引\n"


def test_openclaw_notes_are_never_changed(ws, cfg):
    note = ws / "memory/2026-03-01-vendor.md"
    note.parent.mkdir(parents=True)
    note.write_text("# Session\n- talked\n")
    assert store.show(ws, cfg, "memory/2026-03-01-vendor.md")["kind"] == "openclaw"
    with pytest.raises(BadInputError, match="never changed"):
        store.forget(ws, cfg, "memory/2026-03-01-vendor.md", approved=True)
    assert note.read_text() == "# Session\n- talked\n"


def test_malformed_files_are_reported_skipped_and_never_rewritten(ws, cfg):
    files = {
        "memory/knowledge/bad-yaml.md": b"---\nkey: [\n---\nbody\n",
        "memory/knowledge/wrong-types.md": b"---\nkey: k\ntags: 7\n---\nbody\n",
        "memory/knowledge/bom-crlf.md": b"\xef\xbb\xbf---\r\nkey: bom-crlf\r\nmode: 0755\r\n---\r\nbody\r\n---\r\nmore\r\n",
        "memory/tier2-internal/s_bad.md": b"---\ntier: [\n---\n> x\n",
        "memory/tier1-public/s_stats.json": b"{oops",
        "memory/daily/2026-03-01.md": b"\xff\xfe not utf-8",
    }
    for rel, data in files.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_bytes(data)
    store.write_daily(ws, cfg, topic="T", change=["x"])
    store.learn(ws, cfg, key="fine", text="ok")
    store.remember(ws, cfg, skill="s", topic="good", text="fine")
    problems = store.check(ws)
    assert len(problems) == 5 and not any("bom-crlf" in p for p in problems)
    for rel, data in files.items():
        assert (ws / rel).read_bytes() == data
    index = (ws / "memory/knowledge-index.md").read_text(encoding="utf-8")
    assert index == "# 知识库索引\n\n- bom-crlf\n- fine\n"
    assert store.show(ws, cfg, "bom-crlf")["frontmatter"]["mode"] == "0755"


def test_an_unreadable_daily_file_is_never_rewritten(ws, cfg):
    path = ws / "memory/daily/2026-03-03.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe not utf-8")
    with pytest.raises(BadInputError, match="not UTF-8"):
        store.write_daily(ws, cfg, topic="T", change=["x"])
    assert path.read_bytes() == b"\xff\xfe not utf-8"


def test_show_and_forget_an_entry_of_a_multi_file(ws, cfg):
    from memory_manager import tiers

    for topic in ("a", "b"):
        store.remember(ws, cfg, skill="s", topic=topic, text=f"text {topic}")
    tiers.compact(ws, list(tiers.iter_t2_entries(ws)), backups.start(ws, "cleanup", allow_withheld=True))
    assert [p.name for p in (ws / "memory/tier2-internal").iterdir()] == ["s_2026-03.md"]
    ident = tiers.t2_id("s", "b")
    assert store.show(ws, cfg, ident, approved=True)["entries"][0]["text"] == "text b"
    r = store.forget(ws, cfg, ident, approved=True)
    assert r["removed"] == "section"
    left = list(tiers.iter_t2_entries(ws))
    assert [(e.topic, tiers.decrypt_entry(e, cfg)) for e in left] == [("a", "text a")]
    store.forget(ws, cfg, tiers.t2_id("s", "a"), approved=True)
    assert list((ws / "memory/tier2-internal").iterdir()) == []


def test_a_malformed_stats_file_is_left_alone(ws, cfg):
    path = ws / "memory/tier1-public/skill-a_stats.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"skill_stats": []}')
    with pytest.raises(MalformedFileError, match="skill_stats"):
        store.stats_record(ws, cfg, skill="skill-a", ok=True)
    assert path.read_bytes() == b'{"skill_stats": []}'


def test_show_a_daily_entry_by_id(ws, cfg):
    r = store.write_daily(ws, cfg, topic="T", cause=["c"], change=["x"], todo=["t"])
    shown = store.show(ws, cfg, r["id"])
    assert {k: shown[k] for k in ("kind", "id", "date", "topic", "cause", "change", "todo", "pinned", "path")} == {
        "kind": "daily", "id": r["id"], "date": "2026-03-03", "topic": "T", "cause": ["c"], "change": ["x"],
        "todo": ["t"], "pinned": False, "path": "memory/daily/2026-03-03.md"}
    assert shown["text"] == f"## [2026-03-03] T\n<!-- id: {r['id']} -->\n- 因：c\n- 改：x\n- 待：t"
