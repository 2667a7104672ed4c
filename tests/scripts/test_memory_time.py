"""Time and change through the real verbs: write with dates, learn, edit, show --history, recall with a clock."""
import json

import pytest

from conftest import tree_hash

ZONE = "Asia/Shanghai"


def at(day: str, hhmm: str = "09:00") -> dict:
    return {"MEMORY_MANAGER_NOW": f"{day}T{hhmm}:00+08:00", "TZ": ZONE}


@pytest.fixture
def mem(ws, run_script):
    (ws / "memory").mkdir()
    notes = [("2026-10-05", "Gym: upper day", "Bench press 5x5 at 60 kg."),
             ("2026-10-06", "Dentist", "Filled a cavity; next check-up in April."),
             ("2026-10-07", "Gym: lower day", "Squat 5x5 at 85 kg."),
             ("2026-10-12", "Refund review", "Design review approved the refund state machine.")]
    for day, topic, change in notes:
        r = run_script("memory", "write", "--topic", topic, "--change", change, "--date", day, env=at(day))
        assert r.code == 0, r.err
    r = run_script("memory", "learn", "deploy-window", "--text", "Deploy window: Tuesday and Thursday 14:00-16:00.",
                   "--tags", "deploy", "--approved", env=at("2026-09-02"))
    assert r.code == 0, r.err
    return ws


def recall(run_script, query, now, *extra):
    r = run_script("memory", "recall", query, "--json", *extra, env=at(*now))
    assert r.code == 0, r.err
    return json.loads(r.out)["hits"]


def test_time_only_query_lists_that_day(run_script, mem):
    for query in ("What did I do yesterday?", "昨天做了什么？"):
        hits = recall(run_script, query, ("2026-10-08", "20:00"))
        assert [h["heading"] for h in hits] == ["[2026-10-07] Gym: lower day"]
        assert hits[0]["time_reason"] == "in the asked time (span 2026-10-07)"


def test_day_in_the_users_zone_not_utc(run_script, mem):
    # 00:20 on Oct 8 in Shanghai is still Oct 7 in UTC: "yesterday" is Oct 7 here.
    hits = recall(run_script, "昨天做了什么？", ("2026-10-08", "00:20"))
    assert [h["heading"] for h in hits] == ["[2026-10-07] Gym: lower day"]


def test_time_and_topic(run_script, mem):
    hits = recall(run_script, "What did I do at the gym last Monday?", ("2026-10-14", "09:00"))
    assert hits[0]["heading"] == "[2026-10-05] Gym: upper day"
    hits = recall(run_script, "上周做了哪些事", ("2026-10-14", "09:00"))
    assert [h["heading"] for h in hits] == ["[2026-10-05] Gym: upper day", "[2026-10-06] Dentist",
                                            "[2026-10-07] Gym: lower day"]


def test_time_with_nothing_there_falls_back_to_keywords(run_script, mem):
    hits = recall(run_script, "dentist three days ago", ("2026-10-20", "09:00"))
    assert hits[0]["heading"] == "[2026-10-06] Dentist"
    assert hits[0]["time_reason"] == "nothing from the asked time (span 2026-10-17); ranked without it"


def test_edit_keeps_dated_history_and_recall_scores_the_current_text(run_script, mem):
    path = mem / "memory/knowledge/deploy-window.md"
    r = run_script("memory", "edit", "deploy-window", "--text", "Deploy window: Wednesday 10:00-12:00 only.",
                   "--json", env=at("2026-10-20"))
    assert r.code == 1 and json.loads(r.out)["kind"] == "gate"          # an edit needs approval
    before = path.read_text(encoding="utf-8")
    r = run_script("memory", "edit", "deploy-window", "--text", "Deploy window: Wednesday 10:00-12:00 only.",
                   "--approved", "--json", env=at("2026-10-20"))
    assert r.code == 0, r.out + r.err
    doc = json.loads(r.out)
    assert (doc["since"], doc["updated"], doc["versions"]) == ("2026-09-02", "2026-10-20", 2)
    backup = mem / ".memory-backup" / doc["backup"]
    # backed up first (the copy may be sealed: it holds exact times)
    assert '"memory/knowledge/deploy-window.md"' in (backup / "entries.jsonl").read_text(encoding="utf-8")
    assert before.startswith("---\nformat: cmm-knowledge\nversion: 1\n")
    text = path.read_text(encoding="utf-8")
    assert "updated: 2026-10-20\n" in text and "created: 2026-09-02\n" in text and "version: 2\n" in text
    assert text.endswith("\n\nDeploy window: Wednesday 10:00-12:00 only.\n\n"
                         "<!-- cmm-history: earlier versions, newest first -->\n"
                         "### 2026-09-02 .. 2026-10-20\n"
                         "Deploy window: Tuesday and Thursday 14:00-16:00.\n")
    r = run_script("memory", "show", "deploy-window", "--json", "--no-track", "--approved", env=at("2026-10-21"))
    shown = json.loads(r.out)
    assert shown["text"] == "Deploy window: Wednesday 10:00-12:00 only." and "versions" not in shown
    r = run_script("memory", "show", "deploy-window", "--history", "--json", "--no-track", "--approved",
                   env=at("2026-10-21"))
    assert [(v["since"], v["until"]) for v in json.loads(r.out)["versions"]] == [
        ("2026-10-20", None), ("2026-09-02", "2026-10-20")]
    # Recall scores the current text: "Thursday" is only in the old one.
    assert recall(run_script, "deploy window Thursday", ("2026-10-21",)) [0]["snippet"] == \
        "Deploy window: Wednesday 10:00-12:00 only."
    assert recall(run_script, "Thursday", ("2026-10-21",)) == []
    # A question about the past finds the old version, and says which one.
    hits = recall(run_script, "What was the deploy window originally?", ("2026-10-21",))
    assert (hits[0]["version"], hits[0]["current"]) == ("2026-09-02", False)
    assert hits[0]["snippet"] == "Deploy window: Tuesday and Thursday 14:00-16:00."
    hits = recall(run_script, "What's the deploy window now?", ("2026-10-21",))
    assert (hits[0]["version"], hits[0]["current"]) == ("2026-10-20", True)


def test_learn_appends_and_records_updated(run_script, mem):
    r = run_script("memory", "learn", "deploy-window", "--text", "Fridays are a full freeze.",
                   env=at("2026-10-09"))
    assert r.code == 0, r.err
    text = (mem / "memory/knowledge/deploy-window.md").read_text(encoding="utf-8")
    assert "updated: 2026-10-09\n" in text
    assert text.endswith("Deploy window: Tuesday and Thursday 14:00-16:00.\n\nFridays are a full freeze.\n")
    # dated by its last change: "last week" from Oct 14 finds it
    hits = recall(run_script, "what did I note down last week?", ("2026-10-14",))
    assert "deploy-window" in [h["heading"] for h in hits]


def test_edit_refuses_daily_and_unchanged_text(run_script, mem):
    daily = json.loads(run_script("memory", "recall", "dentist", "--json", env=at("2026-10-20")).out)["hits"][0]["id"]
    before = tree_hash(mem / "memory")
    r = run_script("memory", "edit", "deploy-window", "--text", "Deploy window: Tuesday and Thursday 14:00-16:00.",
                   "--approved", env=at("2026-10-20"))
    # The same text again is no edit: nothing to do, exit 0 (walk-through r4, item 8), nothing written.
    assert r.code == 0 and r.out.startswith("unchanged: memory/knowledge/deploy-window.md"), (r.code, r.out, r.err)
    r = run_script("memory", "edit", daily, "--text", "x", "--approved", env=at("2026-10-20"))
    assert r.code == 2 and "edit works on knowledge and T2 entries; memory/daily/2026-10-06.md is a daily entry" in r.err
    assert tree_hash(mem / "memory") == before


def test_edit_dates_replaced_text_from_when_it_began_not_from_the_last_append(run_script, mem):
    # Walk-through r6, item 4: learn appends a line (the entry's `updated` moves), then an edit on
    # a later day replaces the whole text. The replaced text began when the entry was created;
    # dating it from the append hid the original from "originally" and from days in between.
    for day, line in (("2026-09-10", "Mirror sync runs from rack B."),
                      ("2026-10-01", "Mirror sync moved to rack D.")):
        r = run_script("memory", "learn", "mirror-sync", "--text", line, "--tags", "mirror", env=at(day))
        assert r.code == 0, r.err
    r = run_script("memory", "edit", "mirror-sync", "--text", "Mirror sync runs from rack D.", "--approved",
                   "--json", env=at("2026-10-05"))
    assert r.code == 0, r.err
    assert json.loads(r.out)["since"] == "2026-09-10"
    r = run_script("memory", "show", "mirror-sync", "--history", "--json", "--no-track", "--approved",
                   env=at("2026-10-06"))
    assert [(v["since"], v["until"]) for v in json.loads(r.out)["versions"]] == [
        ("2026-10-05", None), ("2026-09-10", "2026-10-05")]
    hits = recall(run_script, "Which rack did mirror sync use originally?", ("2026-10-06",))
    assert (hits[0]["version"], hits[0]["current"]) == ("2026-09-10", False)
    # A second edit dates the text it replaces from the first edit, not from creation.
    r = run_script("memory", "edit", "mirror-sync", "--text", "Mirror sync runs from rack E.", "--approved",
                   "--json", env=at("2026-10-12"))
    assert r.code == 0 and json.loads(r.out)["since"] == "2026-10-05"


def test_t2_edit_keeps_history_inside_the_encrypted_entry(run_script, ws):
    (ws / "memory").mkdir()
    r = run_script("memory", "remember", "--skill", "editor", "--topic", "style", "--text",
                   "Prefers tabs for indentation.", "--scheme", "xor-b64", "--json", env=at("2026-10-01"))
    assert r.code == 0, r.err
    ident = json.loads(r.out)["id"]
    r = run_script("memory", "edit", ident, "--text", "Prefers four spaces for indentation.", "--json",
                   env=at("2026-10-05"))
    assert r.code == 1 and json.loads(r.out)["kind"] == "gate"                 # an edit: approval first
    r = run_script("memory", "edit", ident, "--text", "Prefers four spaces for indentation.", "--approved",
                   "--json", env=at("2026-10-05"))
    assert r.code == 0, r.out + r.err
    assert json.loads(r.out)["history"] is True
    raw = (ws / "memory/tier2-internal/editor_style.md").read_text(encoding="utf-8")
    assert "tabs" not in raw and "cmm-history" not in raw                     # history is inside the ciphertext
    r = run_script("memory", "show", ident, "--json", env=at("2026-10-06"))
    assert r.code == 1                                                        # T2 needs approval to read
    shown = json.loads(run_script("memory", "show", ident, "--approved", "--no-track", "--json",
                                  env=at("2026-10-06")).out)
    assert shown["text"] == "Prefers four spaces for indentation." and "versions" not in shown["entries"][0]
    shown = json.loads(run_script("memory", "show", ident, "--history", "--approved", "--no-track", "--json",
                                  env=at("2026-10-06")).out)
    assert shown["entries"][0]["versions"] == [
        {"since": "2026-10-01", "until": "2026-10-05", "text": "Prefers tabs for indentation."}]
    hits = recall(run_script, "indentation tabs", ("2026-10-06",), "--approved")
    assert [h["snippet"] for h in hits] == ["Prefers four spaces for indentation."]
    assert run_script("memory", "forget", ident, "--approved", env=at("2026-10-06")).code == 0
    assert not (ws / "memory/tier2-internal/editor_style.md").exists()


def test_past_question_reaches_a_version_replaced_the_same_day(run_script, mem):
    """nu7 (and nu16 item 1): the version an edit replaced the day it was written, dated D .. D, is
    half a day older than the current text for a question about the past (recall.SAME_DAY_SUPERSEDED)."""
    r = run_script("memory", "learn", "standup", "--text", "The team standup is at 10:00 on weekdays",
                   "--tags", "meeting", env=at("2026-10-20", "09:00"))
    assert r.code == 0, r.err
    r = run_script("memory", "edit", "standup", "--text", "The team standup is at 10:30 on weekdays",
                   "--approved", env=at("2026-10-20", "11:00"))
    assert r.code == 0, r.err
    hits = recall(run_script, "what time was the standup originally", ("2026-10-21",))
    assert (hits[0]["current"], hits[0]["snippet"]) == (False, "The team standup is at 10:00 on weekdays")
