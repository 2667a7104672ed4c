"""Versions of a fact across wording and language, and listings of a time (issue 13, round 5).

Each test writes a small workspace through the real verbs (``memory.py write --date``, ``learn``,
``edit --approved``) with the clock at each note's day, asks ``memory.py recall --json`` later,
and checks the exact first hit. One test per kind of fix; the kinds come from the misses of the
time set G (bench/README.md, round 5).
"""
import json

import pytest

ZONE = "Asia/Shanghai"


def at(day: str, hhmm: str = "09:00") -> dict:
    return {"MEMORY_MANAGER_NOW": f"{day}T{hhmm}:00+08:00", "TZ": ZONE}


#: Unrelated notes, so that word weights are those of a lived-in workspace.
FILLER = [("2026-03-02", "Groceries", "Bought apples, oat milk and coffee beans at the market."),
          ("2026-03-03", "Bug triage", "Closed three crash reports from the beta testers."),
          ("2026-03-04", "跑步", "沿着河边跑了 8 公里，下着小雨。"),
          ("2026-03-05", "读书", "读完了那本讲灯塔看守人的小说。")]


def write(run_script, day: str, topic: str, change: str, cause: str = "") -> str:
    args = ["memory", "write", "--topic", topic, "--change", change, "--date", day, "--json"]
    if cause:
        args += ["--cause", cause]
    r = run_script(*args, env=at(day))
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["id"]


def learn(run_script, day: str, key: str, text: str) -> str:
    r = run_script("memory", "learn", key, "--text", text, "--approved", "--json", env=at(day))
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["id"]


def edit(run_script, day: str, ident: str, text: str) -> None:
    r = run_script("memory", "edit", ident, "--text", text, "--approved", "--json", env=at(day))
    assert r.code == 0, r.out + r.err


def first(run_script, query: str, day: str = "2026-05-10", hhmm: str = "20:00") -> dict:
    r = run_script("memory", "recall", query, "--json", env=at(day, hhmm))
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["hits"][0]


@pytest.fixture
def mem(ws, run_script):
    (ws / "memory").mkdir()
    for day, topic, change in FILLER:
        write(run_script, day, topic, change)
    return ws


def test_now_follows_an_edit_written_in_the_other_language(run_script, mem):
    # The entry was learnt in Chinese and edited in English: its current text shares no word with a
    # Chinese question, its earlier text does. Later daily notes name the meeting and a release
    # "5.16" (not a clock time) or a weekday deadline, but state no new meeting time.
    ident = learn(run_script, "2026-03-09", "team-weekly-sync", "移动端周会：每周二 10:30–11:15，Yarra 会议室。")
    edit(run_script, "2026-05-07", ident, "Mobile weekly sync: Thursdays 10:00-10:30, Birrarung room.")
    write(run_script, "2026-04-23", "周会", "决定 5.16 先发 checkout 新地址页。")
    write(run_script, "2026-05-08", "周会", "大家每周写书面进展，会上只讨论阻塞问题。", cause="周三前交第一份周报。")
    hit = first(run_script, "现在周会是周几、几点开")
    assert (hit["id"], hit["version"], hit["current"]) == (ident, "2026-05-07", True)
    assert hit["time_reason"] == "asks for the current state: newest version first"
    assert set(hit["parts"]) >= {"keyword", "time", "access", "tags"}


def test_now_links_a_change_note_in_the_other_language_by_the_value_it_replaces(run_script, mem):
    # The newest note about the staging port states no port; the Chinese change note shares no word
    # with the question but the port it replaces (9443) with the knowledge entry.
    learn(run_script, "2026-03-10", "staging-api-gateway", "Staging API gateway: https://stg-gw.internal:9443 (VPN required).")
    change = write(run_script, "2026-05-01", "staging 网关端口又改了", "staging 网关改到 stg-gw.internal:7443，更新了 build config。",
                   cause="9443 和新上的 mTLS 代理冲突。")
    write(run_script, "2026-05-04", "Staging port on iOS",
          "The iOS debug scheme was still pointing at the old port; fixed it and confirmed both apps reach staging.")
    assert first(run_script, "which port is the staging gateway on now?")["id"] == change


def test_a_later_note_restating_the_value_is_not_a_new_version(run_script, mem):
    # "Friday badminton" after the move to Fridays restates the day: the note that made the change
    # is the current version, and the version before it is the knowledge entry.
    ident = learn(run_script, "2026-03-16", "badminton-booking", "羽毛球固定场：每周三 19:00–21:00，Coburg 体育馆 3 号场。")
    moved = write(run_script, "2026-04-09", "羽毛球改时间", "群主订好了新时间：每周五 20:00–22:00，换到 4 号场。")
    write(run_script, "2026-05-01", "周五羽毛球", "打到十点，最后一局把左脚踝扭了一下。", cause="周五的场。")
    assert first(run_script, "羽毛球现在是周几？")["id"] == moved
    assert first(run_script, "羽毛球原来是周几、在几号场")["id"] == ident


def test_now_asking_for_a_brand_skips_a_later_note_naming_none(run_script, mem):
    # 什么牌子 asks for a name: the newest note naming a brand is current; the later note about the
    # mix (3:1) names none.
    write(run_script, "2026-03-12", "豆包猫粮补货", "照旧在 Petbarn 下单了 Royal Canin 室内成猫粮 4kg。")
    applaws = write(run_script, "2026-05-02", "豆包复查", "兽医说可以换回普通猫粮；选了 Applaws 无谷鸡肉猫粮。")
    write(run_script, "2026-05-07", "豆包换粮", "新猫粮和旧猫粮 3:1 混着喂，豆包吃得很香。")
    assert first(run_script, "豆包现在吃的是什么牌子的猫粮")["id"] == applaws


def test_before_the_latest_change_is_the_version_before_the_newest(run_script, mem):
    # 最近一次调整之前: the change named is the newest one (a note of 9 May), so the answer is the
    # edit of 4 April, not the first text, although that edit is the version holding the word 调整.
    ident = learn(run_script, "2026-03-21", "library-hours", "Brunswick 图书馆开放时间：周六 10:00–17:00，周日 13:00–17:00。")
    edit(run_script, "2026-04-04", ident, "Brunswick 图书馆开放时间调整：周六改为 10:00–14:00，周日 13:00–17:00。")
    write(run_script, "2026-05-09", "图书馆周六又改了", "Brunswick 图书馆门口贴了通知：周六恢复到 10:00–16:00。")
    hit = first(run_script, "图书馆周六最近一次调整之前是几点关门")
    assert (hit["id"], hit["version"], hit["current"]) == (ident, "2026-04-04", True)


def test_start_of_this_month_with_these_few_days_lists_the_month_start(run_script, mem):
    # "这个月初这几天": the first days of this month, not the six days before today.
    for day, topic in (("2026-04-29", "Sprint review"), ("2026-05-01", "劳动节"), ("2026-05-03", "Weekly planning")):
        write(run_script, day, topic, "Notes of the day.")
    r = run_script("memory", "recall", "这个月初这几天都记了啥", "--json", env=at("2026-05-04", "07:45"))
    assert r.code == 0, r.err
    assert [h["heading"] for h in json.loads(r.out)["hits"]] == ["[2026-05-01] 劳动节", "[2026-05-03] Weekly planning"]


def test_last_night_and_the_end_of_last_month_list_from_the_end(run_script, mem):
    for topic in ("Hotfix 5.16.1", "周五晚饭", "Sourdough prep"):
        write(run_script, "2026-05-08", topic, "Notes of the day.")
    for day in ("2026-04-24", "2026-04-29", "2026-04-30"):
        write(run_script, day, f"Notes {day}", "Notes of the day.")
    r = run_script("memory", "recall", "what did I do last night", env=at("2026-05-09", "00:05"))
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "the asked time's entries, newest first (not by score):"
    doc = json.loads(run_script("memory", "recall", "what did I do last night", "--json", env=at("2026-05-09", "00:05")).out)
    assert [h["heading"] for h in doc["hits"]] == ["[2026-05-08] Sourdough prep", "[2026-05-08] 周五晚饭",
                                                   "[2026-05-08] Hotfix 5.16.1"]
    assert doc["hits"][0]["time_reason"] == "in the asked time (span 2026-05-08); listed from its end"
    hit = first(run_script, "上个月底记了哪些东西", "2026-05-06", "13:00")
    assert hit["heading"] == "[2026-04-30] Notes 2026-04-30"


def test_a_public_holiday_named_in_the_query_is_its_day(ws, run_script):
    # Easter Monday 2026 is 6 April (a movable feast: the holidays library's calendar of the
    # country of the user's zone, Australia/Melbourne -> AU); 国庆节 is China's 1-3 October whatever
    # the zone. The notes of the day are listed; the day before and after are not.
    (ws / "memory").mkdir()
    mel = {"TZ": "Australia/Melbourne"}
    for day, topic in (("2026-04-05", "Easter Sunday lunch"), ("2026-04-06", "Great Ocean Road drive"),
                       ("2026-04-07", "Back at work"), ("2025-09-30", "节前收拾"), ("2025-10-02", "国庆出游")):
        r = run_script("memory", "write", "--topic", topic, "--change", "Notes of the day.", "--date", day,
                       env={**mel, "MEMORY_MANAGER_NOW": f"{day}T20:00:00+10:00"})
        assert r.code == 0, r.err
    now = {**mel, "MEMORY_MANAGER_NOW": "2026-05-10T19:05:00+10:00"}
    doc = json.loads(run_script("memory", "recall", "what happened on Easter Monday", "--json", env=now).out)
    assert [h["heading"] for h in doc["hits"]] == ["[2026-04-06] Great Ocean Road drive"]
    assert doc["hits"][0]["time_reason"] == "in the asked time (span 2026-04-06)"
    doc = json.loads(run_script("memory", "recall", "国庆节做了什么", "--json", env=now).out)
    assert [h["heading"] for h in doc["hits"]] == ["[2025-10-02] 国庆出游"]
