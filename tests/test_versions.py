"""Versions of a changed fact: "now" finds the latest statement, "before" the one before it (issue 13).

Notes are written through the store's verbs with the clock at each note's day, as a user would;
questions are asked later. Each test checks the exact first hit (and its version date).
"""
import pytest

from memory_manager import store
from memory_manager.config import load_config
from memory_manager.recall import recall
from tests.conftest import zone_clock

CFG = load_config(None)
ZONE = "Europe/Berlin"


@pytest.fixture
def clock(monkeypatch):
    return zone_clock(monkeypatch, "+02:00", ZONE)


def note(ws, clock, day: str, topic: str, change: str) -> str:
    clock(day)
    return store.write_daily(ws, CFG, topic=topic, day=day, approved=True, change=[change])["id"]


FILLER = [("Groceries", "Bought apples, oat milk and coffee beans at the market."),
          ("Bug triage", "Closed three crash reports from the beta testers."),
          ("Running", "Ran 8 km along the canal in the rain."),
          ("Reading", "Finished the novel about the lighthouse keeper."),
          ("Car service", "The garage changed the oil and the wipers."),
          ("Team lunch", "Team lunch at the Vietnamese place near the station."),
          ("Garden", "Planted tulip bulbs along the fence."),
          ("Taxes", "Sent the receipts for the tax return to the accountant."),
          ("读书", "读完了那本讲灯塔看守人的小说。"),
          ("买菜", "在市场买了苹果、燕麦奶和咖啡豆。"),
          ("跑步", "沿着运河跑了 8 公里，下着雨。"),
          ("修车", "车行换了机油和雨刷。")]


def fill(ws, clock) -> None:
    """Unrelated notes on other days, so that word weights are those of a lived-in workspace."""
    for i, (topic, change) in enumerate(FILLER):
        note(ws, clock, f"2026-08-{10 + i:02d}", topic, change)


def first(ws, clock, query: str, day: str = "2026-10-20") -> tuple[str, str | None, str]:
    clock(day, "20:00")
    hit = recall(ws, query, CFG, top_k=5, track=False)[0]
    return hit.id, hit.version, hit.time_reason


@pytest.fixture
def choir(ws, clock):
    """A rehearsal day set, changed, then a newer note about the rehearsal that states no day."""
    (ws / "memory").mkdir()
    fill(ws, clock)
    ids = {"first": note(ws, clock, "2026-09-01", "Choir", "Choir rehearsal is on Tuesdays at 19:00 in the church hall."),
           "moved": note(ws, clock, "2026-09-15", "Choir moved",
                         "Choir rehearsal moved to Thursdays at 19:30, same hall."),
           "later": note(ws, clock, "2026-10-08", "Choir rehearsal",
                         "Choir rehearsal: learned the new carol for the winter concert; choir rehearsal ran long."),
           "zh_first": note(ws, clock, "2026-09-02", "合唱团", "合唱团排练定在每周二晚上 19:00。"),
           "zh_moved": note(ws, clock, "2026-09-16", "合唱团改时间", "合唱团排练改到每周四晚上 19:30。"),
           "zh_later": note(ws, clock, "2026-10-09", "合唱团排练", "合唱团排练学了新歌，合唱团排练拖得很晚。")}
    return ids


def test_now_asks_a_weekday_and_a_later_mention_without_one_does_not_supersede(ws, clock, choir):
    # The newest note about the rehearsal says nothing about its day: the change of 09-15 is current.
    # Since round 4 the versions of a fact are grouped across languages (a shared time links them), so
    # the same change written in Chinese a day later (09-16) answers the English question as well.
    assert first(ws, clock, "which day is choir rehearsal now?")[0] in (choir["moved"], choir["zh_moved"])
    assert first(ws, clock, "合唱团排练现在是星期几？")[0] == choir["zh_moved"]
    assert first(ws, clock, "合唱团排练现在几点开始？")[0] == choir["zh_moved"]


def test_past_asks_the_version_before_the_change(ws, clock, choir):
    ident, _, reason = first(ws, clock, "which day was choir rehearsal before it moved?")
    assert ident in (choir["first"], choir["zh_first"])  # the same first version, in either language
    assert reason == "asks for an earlier state: older versions first"
    assert first(ws, clock, "合唱团排练改时间之前是周几？")[0] == choir["zh_first"]


def test_a_later_daily_note_supersedes_an_older_knowledge_entry(ws, clock):
    (ws / "memory").mkdir()
    fill(ws, clock)
    clock("2026-08-01")
    store.learn(ws, CFG, key="climbing-card", text="Climbing gym monthly card costs 49 EUR, yoga included.",
                tags="", approved=True)
    raised = note(ws, clock, "2026-09-08", "Climbing gym price",
                  "Climbing gym monthly card goes up to 54 EUR from October; yoga still included.")
    note(ws, clock, "2026-09-20", "Bouldering", "Bouldering session with Tom, two new routes at the climbing gym.")
    # The entry's current text is as old as when it was written, not "as new as the newest note".
    assert first(ws, clock, "how much is the climbing gym monthly card now?")[0] == raised


@pytest.fixture
def printer(ws, clock):
    """A knowledge entry edited twice: three dated versions of one fact."""
    (ws / "memory").mkdir()
    fill(ws, clock)
    clock("2026-08-03")
    ident = store.learn(ws, CFG, key="office-printer", text="The office printer stands on floor 2 next to the kitchen.",
                        tags="", approved=True)["id"]
    clock("2026-09-01")
    store.edit(ws, CFG, ident, text="The office printer moved to floor 3, room 3.12.", approved=True)
    clock("2026-10-01")
    store.edit(ws, CFG, ident, text="The office printer moved to the mail room in the basement.", approved=True)
    note(ws, clock, "2026-10-05", "Printing", "Printed the contracts; the printer was out of toner, office printer fixed.")
    return ident


def test_now_answers_the_current_text_of_an_edited_entry(ws, clock, printer):
    assert first(ws, clock, "where is the office printer now?")[:2] == (printer, "2026-10-01")


def test_past_previous_is_the_version_right_before_the_newest(ws, clock, printer):
    assert first(ws, clock, "where was the office printer before the latest change?")[:2] == (printer, "2026-09-01")
    assert first(ws, clock, "办公室打印机之前在哪 office printer")[:2] == (printer, "2026-09-01")


def test_past_earliest_is_the_first_version(ws, clock, printer):
    assert first(ws, clock, "where was the office printer originally?")[:2] == (printer, "2026-08-03")
    assert first(ws, clock, "office printer 最早放在哪")[:2] == (printer, "2026-08-03")


def test_before_a_named_change_is_the_version_before_the_one_that_brought_it(ws, clock, printer):
    # "floor 3" came with the 09-01 version: the version before that one is the first.
    assert first(ws, clock, "where was the office printer before it moved to floor 3?")[:2] == (printer, "2026-08-03")
    # "the mail room" came with the newest version: the version before it is the middle one.
    assert first(ws, clock, "where was the office printer before the mail room?")[:2] == (printer, "2026-09-01")


def test_one_character_word_within_a_named_day(ws, clock):
    # 跑 ("ran") is one character: the index holds character pairs and 跑了 is in no note.
    (ws / "memory").mkdir()
    fill(ws, clock)
    note(ws, clock, "2026-10-13", "晨跑", "绕公园跑步 5 公里。")
    review = note(ws, clock, "2026-10-14", "Code review", "Reviewed the parser pull request with Sam.")
    run = note(ws, clock, "2026-10-14", "晨练", "沿河边慢跑 7 公里，膝盖没事。")
    assert first(ws, clock, "昨天跑了多远", day="2026-10-15")[0] == run
    # Nothing of that day shares a character: the day's entries in the order they were written.
    assert first(ws, clock, "昨天吃了什么菜", day="2026-10-15")[0] == review


def test_past_finds_an_earlier_version_that_shares_few_words(ws, clock):
    # The change note repeats the question's words; the first booking, written before it, does not.
    (ws / "memory").mkdir()
    fill(ws, clock)
    booked = note(ws, clock, "2026-09-03", "Autumn trip", "Booked the TAP flight to Lisbon for Oct 2, departs 07:15 from BER.")
    note(ws, clock, "2026-09-20", "Lisbon flight time changed",
         "The airline changed our Lisbon flight time: the Lisbon flight now leaves at 11:40 on Oct 2.")
    assert first(ws, clock, "what time did our Lisbon flight leave originally?")[0] == booked


def test_within_a_named_time_the_entry_whose_topic_names_it_comes_first(ws, clock):
    # Both notes of last week mention the physio; only one is about the visit.
    (ws / "memory").mkdir()
    fill(ws, clock)
    visit = note(ws, clock, "2026-10-12", "Physio visit",
                 "Knee check: a tight IT band and weak glutes; foam rolling and side leg raises every day, "
                 "easy runs only this week, check again in two weeks, paid 45 EUR.")
    run = note(ws, clock, "2026-10-13", "Easy run", "Easy 6 km as the physio told me; knee fine.")
    clock("2026-10-20")
    hits = recall(ws, "what did the physio say last week?", CFG, top_k=5, track=False)
    assert [h.id for h in hits] == [visit, run]
    assert hits[0].parts["keyword"] == 1.0 and hits[1].parts["keyword"] < 1.0   # still 0..1


@pytest.fixture
def staging(ws, clock):
    """An English knowledge entry on a port, edited once, then changed again by a Chinese note."""
    (ws / "memory").mkdir()
    fill(ws, clock)
    clock("2026-08-11")
    ident = store.learn(ws, CFG, key="staging-db-port", text="Staging Postgres (orders-stg) listens on port 5433; "
                        "read-only work uses the app_ro user.", tags="", approved=True)["id"]
    clock("2026-09-03")
    store.edit(ws, CFG, ident, text="Staging Postgres (orders-stg) is now reached through PgBouncer on port 6432; "
               "direct access to 5433 is closed. The app_ro user is unchanged.", approved=True)
    moved = note(ws, clock, "2026-09-29", "staging 数据库端口又变了",
                 "staging Postgres（orders-stg）现在走 pooler 节点的 6543 端口，PgBouncer 的 6432 下周五关掉，"
                 "app_ro 用户不变。")
    mention = note(ws, clock, "2026-10-05", "Staging test run",
                   "Ran the staging Postgres integration tests against orders-stg; all green, no port trouble.")
    return {"entry": ident, "moved": moved, "mention": mention}


def test_now_finds_the_change_in_the_other_language_through_the_value_it_replaces(ws, clock, staging):
    # The Chinese note shares few words with the English question, but it names the old port (6432),
    # PgBouncer and the user of the entry the question matches: it is the newest version of that
    # fact. The later English note names no value of the fact: a mention, not a version.
    assert first(ws, clock, "which port does staging Postgres use these days?")[0] == staging["moved"]


def test_past_previous_and_earliest_follow_the_group_across_entry_and_note(ws, clock, staging):
    assert first(ws, clock, "which port did staging Postgres use before the pooler move?")[:2] == \
        (staging["entry"], "2026-09-03")
    assert first(ws, clock, "which port did staging Postgres use originally?")[:2] == (staging["entry"], "2026-08-11")


def test_values_are_numbers_codes_weekdays_and_names_in_chinese_text():
    from memory_manager.recall import _values

    assert _values("SRE 周会从周二 10:30 挪到了周四 14:00") == {"sre", "周二", "10:30", "周四", "14:00"}
    # A weekday is one value in both languages (round 6): "Wednesday" and 周三 are the same day.
    assert _values("Moved to B2-27 on Wednesday, 1 week later") == {"b2-27", "周三"}
    # English words of an English text are not names; one-digit numbers tie nothing.
    assert _values("The full backup now finishes at 06:40 UTC") == {"06:40"}


def test_within_a_named_day_an_english_word_inside_a_compound_word_counts(ws, clock):
    # "dough" is inside "sourdough": no note of that Sunday holds a term of the question.
    (ws / "memory").mkdir()
    fill(ws, clock)
    note(ws, clock, "2026-10-04", "Swim lesson", "She swam 25 m and got her badge.")
    bread = note(ws, clock, "2026-10-04", "Sourdough with rye flour", "Went up to 360 g water; much better oven spring.")
    note(ws, clock, "2026-10-04", "Laundry", "Washed the winter jackets.")
    assert first(ws, clock, "what did I change in the bread dough on Sunday", day="2026-10-06")[0] == bread


# ---- round 6 (set I): what makes a later entry a new version of the asked fact, and what does not

def test_the_same_number_in_another_unit_is_another_quantity(ws, clock):
    # The plan stays at 300 Mbps; a later bread recipe's "300 g" shares the digits, not the quantity.
    (ws / "memory").mkdir()
    fill(ws, clock)
    note(ws, clock, "2026-09-01", "Broadband", "Home broadband: 300 Mbps fibre for 45 EUR a month.")
    switched = note(ws, clock, "2026-09-20", "Broadband switched", "Switched broadband to the 300 Mbps plan at 39 EUR a month.")
    note(ws, clock, "2026-10-05", "Rye bread", "Baked rye bread: 300 g flour, 200 g water, now with more salt.")
    assert first(ws, clock, "how much do I pay for broadband now?")[0] == switched


def test_a_later_change_that_does_not_name_the_fact_is_no_version_of_it(ws, clock):
    # The question names the cat; a later recipe change shares 克 and 一天 and says 改成, not the cat.
    (ws / "memory").mkdir()
    fill(ws, clock)
    note(ws, clock, "2026-09-01", "年糕的猫粮", "年糕每天吃 60 克干粮，分两顿。")
    food = note(ws, clock, "2026-09-20", "年糕换粮", "年糕的猫粮改了：现在每天吃 50 克低脂粮，分三顿。")
    note(ws, clock, "2026-10-05", "早饭", "面包配方改了：一天吃两片，面粉 450 克，水 330 克。")
    assert first(ws, clock, "年糕现在一天吃多少克")[0] == food


def test_a_number_asked_in_a_unit_is_answered_by_the_version_in_that_unit(ws, clock):
    # Same day: the vet weighed the dog (公斤) and the food changed (克); the question asks grams.
    (ws / "memory").mkdir()
    fill(ws, clock)
    note(ws, clock, "2026-09-01", "旺财的狗粮", "旺财每天吃 300 克狗粮。")
    clock("2026-09-25", "20:00")
    food = store.learn(ws, CFG, key="dog-food", text="旺财的狗粮改成每天 250 克，分早晚两顿。", approved=True)["id"]
    note(ws, clock, "2026-09-25", "旺财看兽医", "旺财称重 21 公斤，兽医建议换低脂狗粮，目标减到 19 公斤。")
    assert first(ws, clock, "旺财现在每天吃多少克狗粮")[0] == food


def test_the_weekday_a_question_names_ties_no_two_facts(ws, clock):
    # The handover is on Mondays; a later, unrelated Monday meeting shares the day the question names.
    (ws / "memory").mkdir()
    fill(ws, clock)
    note(ws, clock, "2026-09-01", "Handover", "The support handover is on Monday at 09:00 in the ops channel.")
    moved = note(ws, clock, "2026-09-15", "Handover moved", "Support handover moved to Monday 10:30, after the ops sync.")
    note(ws, clock, "2026-10-01", "Budget review", "Budget review with finance moved to Mondays at 14:00; support costs on the agenda.")
    assert first(ws, clock, "support 交接现在是周一几点")[0] == moved


def test_a_sport_asked_in_chinese_finds_its_change_written_in_english(ws, clock):
    (ws / "memory").mkdir()
    fill(ws, clock)
    note(ws, clock, "2026-09-01", "网球", "每周二晚上 7 点在大学球场打网球。")
    moved = note(ws, clock, "2026-09-28", "Tennis moved", "The tennis group moved to Thursdays 18:00 at the indoor courts.")
    assert first(ws, clock, "网球现在是周几打")[0] == moved


def test_a_change_in_the_other_language_among_many_notes_in_the_questions_language(ws, clock):
    # Several Chinese notes name 乒乓球 with more terms than the English change note's one word
    # "table tennis"; measured against its own language's best it is as much a statement of the
    # subject, and its word for it is the glossary's word for the seed's.
    (ws / "memory").mkdir()
    fill(ws, clock)
    note(ws, clock, "2026-09-01", "加入乒乓球队", "每周二晚上 7 点在社区中心打乒乓球，买了季卡。")
    note(ws, clock, "2026-09-08", "第一次打乒乓球", "打乒乓球两个小时，认识了几个球友。")
    note(ws, clock, "2026-09-15", "乒乓球拍", "乒乓球拍换了新胶皮。")
    moved = note(ws, clock, "2026-09-28", "Table tennis is moving",
                 "The community centre closes for repairs: table tennis moved to Thursdays 19:00 at the school gym.")
    note(ws, clock, "2026-10-10", "Table tennis doubles", "Doubles all night at table tennis; my backhand is improving.")
    assert first(ws, clock, "乒乓球现在是周几打")[0] == moved

