"""Round 9 (set M as development set) kinds of "now" and "past" misses, each on its own invented notes
(issue 13).

Notes are written through the store's verbs with the clock at each note's day; questions are asked
later. Every test asserts the exact first hit (and its version), and each names the switch in
``memory_manager.recall`` that decides it: with the switch off, the test fails.
"""
import json

import pytest

from memory_manager import glossary, querytime, recall as recall_mod, store
from memory_manager.config import load_config
from memory_manager.recall import _asked_values, _clock_values, recall
from tests.conftest import zone_clock

CFG = load_config(None)
ZONE = "Asia/Singapore"


@pytest.fixture
def clock(monkeypatch):
    return zone_clock(monkeypatch, "+08:00", ZONE)


def note(ws, clock, day: str, topic: str, change: str, cause: str | None = None) -> str:
    clock(day)
    return store.write_daily(ws, CFG, topic=topic, day=day, approved=True, change=[change],
                             cause=[cause] if cause else [])["id"]


def learn(ws, clock, day: str, key: str, text: str) -> str:
    clock(day)
    return store.learn(ws, CFG, key=key, text=text, tags="", approved=True)["id"]


def edit(ws, clock, day: str, ident: str, text: str) -> None:
    clock(day, "18:00")
    store.edit(ws, CFG, ident, text=text, approved=True)


FILLER = [("Groceries", "Bought durian, milk and bread at the wet market."),
          ("Bug triage", "Closed four crash reports from the beta testers."),
          ("Running", "Ran 8 km along the park connector before work."),
          ("Reading", "Finished the novel about the lighthouse keeper."),
          ("Car service", "The garage changed the oil and the wiper blades."),
          ("读书", "读完了那本讲灯塔看守人的小说。"),
          ("买菜", "在菜市场买了苹果、牛奶和面包。"),
          ("修车", "车行换了机油和雨刷。")]


def fill(ws, clock) -> None:
    (ws / "memory").mkdir()
    for i, (topic, change) in enumerate(FILLER):
        note(ws, clock, f"2026-06-{10 + i:02d}", topic, change)


def first(ws, clock, query: str, day: str = "2026-09-28") -> tuple[str, str | None]:
    clock(day, "20:00")
    hits = recall(ws, query, CFG, top_k=5, track=False)
    return (hits[0].id, hits[0].version) if hits else (None, None)


# 1. NOW_HISTORY ---------------------------------------------------------------------------------

@pytest.fixture
def piano(ws, clock):
    """A Chinese entry about calligraphy class fees, edited into English: the current text shares no
    word with a Chinese question (and the glossary knows neither 书法 nor 学费)."""
    fill(ws, clock)
    ident = learn(ws, clock, "2026-07-01", "calligraphy-fee", "书法班学费：每节课 45 新币，陈老师，周六上午上课。")
    edit(ws, clock, "2026-09-02", ident, "Calligraphy class: the fee is now 52 SGD per lesson with Mr Chen, "
         "Saturday mornings.")
    return ident


def test_now_reaches_the_current_text_through_an_earlier_text_in_the_other_language(ws, clock, piano,
                                                                                   monkeypatch):
    assert first(ws, clock, "现在书法班学费是多少？") == (piano, "2026-09-02")
    monkeypatch.setattr(recall_mod, "NOW_HISTORY", False)
    assert first(ws, clock, "现在书法班学费是多少？") == (None, None)


def test_a_plain_question_still_matches_only_current_texts(ws, clock, piano):
    # Only "now" questions are lifted by an earlier text; a plain one finds nothing to rank.
    assert first(ws, clock, "书法班学费") == (None, None)


# 2. NOW_CHANGE ----------------------------------------------------------------------------------

@pytest.fixture
def rex(ws, clock):
    """The dog's food: an entry edited to a smaller portion, then a weigh-in note with other numbers."""
    fill(ws, clock)
    ident = learn(ws, clock, "2026-07-02", "rex-food", "Rex (our labrador) eats 300 g of kibble twice a day.")
    edit(ws, clock, "2026-09-05", ident, "Rex eats 250 g of light kibble twice a day until he is down from "
         "34 kg (vet's advice).")
    weigh = note(ws, clock, "2026-09-20", "Rex weigh-in", "Rex weighed 32 kg at the vet, down from 34 kg; walked "
                 "him 5 km after.", cause="Rex eats everything he finds on walks.")
    return ident, weigh


def test_now_a_later_note_that_states_no_change_does_not_supersede_the_edit(ws, clock, rex, monkeypatch):
    ident, weigh = rex
    assert first(ws, clock, "How much does Rex eat now?") == (ident, "2026-09-05")
    monkeypatch.setattr(recall_mod, "NOW_CHANGE", False)
    assert first(ws, clock, "How much does Rex eat now?")[0] == weigh


def test_now_a_later_note_that_states_a_change_still_supersedes(ws, clock, rex):
    ident, _ = rex
    cut = note(ws, clock, "2026-09-24", "Rex diet", "Changed Rex's food from 250 g to 220 g of light kibble twice a day; he eats it all.")
    assert first(ws, clock, "How much does Rex eat now?")[0] == cut


# 3. NOW_COPY_RECORD -----------------------------------------------------------------------------

@pytest.fixture
def choir(ws, clock):
    """A rehearsal entry edited one evening; the next day's note tells of the first rehearsal on the new day."""
    fill(ws, clock)
    ident = learn(ws, clock, "2026-07-03", "choir", "Choir rehearsal: Thursdays 7:00pm at St Mark's hall.")
    note(ws, clock, "2026-08-13", "Choir rehearsal", "Thursday rehearsal at St Mark's hall; 19 singers, new alto part.")
    edit(ws, clock, "2026-09-07", ident, "Choir rehearsal: Tuesdays 7:30pm at the library hall.")
    story = note(ws, clock, "2026-09-08", "First choir rehearsal on Tuesday",
                 "First rehearsal on the new Tuesday schedule at the library hall; 23 singers came.")
    return ident, story


def test_now_of_two_copies_of_one_change_the_entry_comes_first(ws, clock, choir, monkeypatch):
    ident, story = choir
    assert first(ws, clock, "When is choir rehearsal now?") == (ident, "2026-09-07")
    monkeypatch.setattr(recall_mod, "NOW_COPY_RECORD", False)
    assert first(ws, clock, "When is choir rehearsal now?")[0] == story


# 4. VALUE_RUN -----------------------------------------------------------------------------------

@pytest.fixture
def swim(ws, clock):
    """Mia's swim class moves from Saturday to Sunday; later notes repeat Sunday, one of them with a
    change word that is about something else (a cancellation)."""
    fill(ws, clock)
    ident = learn(ws, clock, "2026-07-04", "mia-swim", "Mia 的游泳课：每周六上午在 Toa Payoh 泳池，教练 Ken；"
                  "带泳镜、泳帽和毛巾，学费按学期交，请假要提前一天发消息给 Ken。")
    sat = note(ws, clock, "2026-08-08", "Mia 游泳课", "周六 Mia 的游泳课在 Toa Payoh，练了 25 米蛙泳腿。")
    edit(ws, clock, "2026-08-20", ident, "Mia 的游泳课：从 8/23 起改到每周日上午，在 Bishan 泳池，教练还是 Ken；"
         "带泳镜、泳帽和毛巾，学费按学期交，请假要提前一天发消息给 Ken。")
    sunday = note(ws, clock, "2026-08-30", "Mia 游泳课", "周日 Mia 的游泳课在 Bishan，Ken 教她换气，游了 50 米。")
    note(ws, clock, "2026-09-13", "Mia 游泳课取消", "周日 Bishan 泳池维修，Mia 的游泳课取消了，在家练了 20 分钟。")
    return ident, sat, sunday


def test_past_before_dates_from_the_version_that_brought_the_current_value(ws, clock, swim, monkeypatch):
    ident, sat, sunday = swim
    # The Saturday note right before the move; the Sunday notes after the edit repeat the new day.
    assert first(ws, clock, "Mia 以前游泳课是周几？") == (sat, None)
    monkeypatch.setattr(recall_mod, "VALUE_RUN", False)
    assert first(ws, clock, "Mia 以前游泳课是周几？")[0] == sunday


def test_asked_values_tell_weekdays_clocks_and_quantities():
    assert _asked_values("weekday", "周日在 Bishan 上课, then Monday") == {"周日", "周一"}
    assert _clock_values("开到下午 5 点, then 5pm, 17:00 and 9:30am") == {"5:00", "9:30"}
    assert _asked_values("number", "Rex eats 2.5 cups; code v2; $8,900/month") == {"2.5", "8900"}
    assert _asked_values("number", "保留 7 天，12 个分区", {"day"}) == {"7"}


# 5. OWN_CHAIN -----------------------------------------------------------------------------------

@pytest.fixture
def helpdesk(ws, clock):
    """Two edited entries that share a stray number: office hours changed from the 24th, and the
    after-hours helpdesk moved to a 24-hour provider."""
    fill(ws, clock)
    hours = learn(ws, clock, "2026-07-01", "office-hours",
                  "Office hours: weekdays 9am-5pm; after-hours calls go to the helpdesk line.")
    desk = learn(ws, clock, "2026-07-01", "after-hours-helpdesk",
                 "After-hours IT emergencies are escalated to Northwind Support, open every night.")
    edit(ws, clock, "2026-08-10", hours, "Office hours (from Aug 24): weekdays 8am-6pm; after-hours calls go "
         "to the helpdesk line.")
    edit(ws, clock, "2026-09-03", desk, "下班后的 IT 紧急情况现在转给 Contoso Helpdesk（24 小时）；Northwind 不再是首选。")
    return hours, desk


def test_past_an_entry_with_its_own_history_is_not_a_version_of_another(ws, clock, helpdesk, monkeypatch):
    hours, desk = helpdesk
    question = "Where did after-hours IT emergencies go before Contoso?"
    assert first(ws, clock, question) == (desk, "2026-07-01")
    monkeypatch.setattr(recall_mod, "OWN_CHAIN", False)
    assert first(ws, clock, question)[0] == hours


# 6. 原来 asks for the first version ------------------------------------------------------------

def test_yuanlai_and_kin_ask_for_the_first_version():
    from datetime import date

    for q in ("游泳课原来是周几？", "学费原先是多少？", "本来是几点开会？", "原本在哪个泳池？"):
        qt = querytime.parse(q, date(2026, 9, 28))
        assert (qt.mode, qt.past) == ("past", "earliest"), q
    qt = querytime.parse("游泳课改到周日之前是周几？", date(2026, 9, 28))
    assert (qt.mode, qt.past) == ("past", "previous")


def test_past_yuanlai_finds_the_first_of_three_versions(ws, clock):
    fill(ws, clock)
    ident = learn(ws, clock, "2026-07-05", "kafka-retention", "Kafka topic orders.v3: retention 14 days, 6 partitions.")
    note(ws, clock, "2026-08-02", "Kafka 磁盘", "把 orders.v3 的 retention 从 14 天降到 5 天，磁盘降到 40%。")
    edit(ws, clock, "2026-09-10", ident, "Kafka topic orders.v3: retention 10 days, 6 partitions (bigger disks).")
    assert first(ws, clock, "orders.v3 的 retention 原来是几天？") == (ident, "2026-07-05")


# 7. Glossary ------------------------------------------------------------------------------------

def test_monthly_rent_in_chinese_finds_rent():
    assert "rent" in glossary.expand("诊所的月租是多少", ["诊所", "月租"])
    assert "rent" in glossary.expand("租金涨了吗", ["租金"])


def test_the_script_answers_now_through_an_earlier_text(ws, clock, piano, run_script):
    clock("2026-09-28", "20:00")
    res = run_script("memory", "recall", "现在书法班学费是多少？", "--workspace", str(ws), "--json")
    assert res.code == 0, res.err
    hits = json.loads(res.out)["hits"]
    assert (hits[0]["id"], hits[0]["version"], hits[0]["current"]) == (piano, "2026-09-02", True)
