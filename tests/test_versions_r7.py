"""Round 7 (set K) kinds of "now" and "past" misses, each on its own notes (issue 13).

Notes are written through the store's verbs with the clock at each note's day; questions are asked
later. Every test asserts the exact first hit (and its version), and each names the switch in
``memory_manager.recall`` that decides it: with the switch off, the test fails.
"""
import pytest

from memory_manager import querytime, recall as recall_mod, store
from memory_manager.config import load_config
from memory_manager.recall import _values, recall
from tests.conftest import zone_clock

CFG = load_config(None)
ZONE = "Pacific/Auckland"


@pytest.fixture
def clock(monkeypatch):
    return zone_clock(monkeypatch, "+13:00", ZONE)


def note(ws, clock, day: str, topic: str, change: str, cause: str | None = None) -> str:
    clock(day)
    return store.write_daily(ws, CFG, topic=topic, day=day, approved=True, change=[change],
                             cause=[cause] if cause else [])["id"]


FILLER = [("Groceries", "Bought feijoas, milk and bread at the Sunday market."),
          ("Bug triage", "Closed four crash reports from the beta testers."),
          ("Running", "Ran 9 km around the domain before work."),
          ("Reading", "Finished the book about the lighthouse keeper."),
          ("Car service", "The garage changed the oil and the wiper blades."),
          ("Garden", "Planted tomato seedlings along the fence."),
          ("读书", "读完了那本讲灯塔看守人的小说。"),
          ("买菜", "在市场买了苹果、牛奶和面包。"),
          ("跑步", "绕着公园跑了 9 公里。"),
          ("修车", "车行换了机油和雨刷。")]


def fill(ws, clock) -> None:
    (ws / "memory").mkdir()
    for i, (topic, change) in enumerate(FILLER):
        note(ws, clock, f"2026-08-{10 + i:02d}", topic, change)


def first(ws, clock, query: str, day: str = "2026-10-28") -> tuple[str, str | None]:
    clock(day, "20:00")
    hit = recall(ws, query, CFG, top_k=5, track=False)[0]
    return hit.id, hit.version


@pytest.fixture
def handover(ws, clock):
    """A knowledge entry edited the same day a daily note tells the change without the new time."""
    fill(ws, clock)
    clock("2026-09-01")
    ident = store.learn(ws, CFG, key="support-rota",
                        text="Support rota: the weekly handover is on Monday at 11:00, ticket queue ops-primary.",
                        tags="rota,work", approved=True)["id"]
    story = note(ws, clock, "2026-10-09", "support handover moved",
                 "The team agreed to move the support handover off Monday; I updated the rota note.",
                 cause="Monday retro kept cutting the handover short.")
    clock("2026-10-09", "17:00")
    store.edit(ws, CFG, ident, text="Support rota: the weekly handover moved to Thursday at 14:00 "
               "(Monday clashed with the retro), ticket queue ops-primary.", approved=True)
    return ident, story


def test_now_prefers_the_entry_edited_the_day_of_the_change_over_that_days_note(ws, clock, handover, monkeypatch):
    ident, story = handover
    assert first(ws, clock, "When is the support handover currently?") == (ident, "2026-10-09")
    monkeypatch.setattr(recall_mod, "SAME_DAY_RECORD", False)
    assert first(ws, clock, "When is the support handover currently?")[0] == story


@pytest.fixture
def ci_server(ws, clock):
    """A sprint note plans an upgrade; days later the knowledge entry states the upgraded version."""
    fill(ws, clock)
    clock("2026-09-02")
    ident = store.learn(ws, CFG, key="ci-server",
                        text="CI server: Jenkins 2.401 on ci-build-02, nightly full build at 01:00.",
                        tags="", approved=True)["id"]
    plan = note(ws, clock, "2026-10-05", "sprint planning",
                "Plan: the CI server gets upgraded to Jenkins version 2.452 this sprint.")
    clock("2026-10-14")
    store.edit(ws, CFG, ident, text="CI server: Jenkins 2.452.1 LTS on ci-build-02 after the 14 October "
               "maintenance window; nightly full build at 01:00.", approved=True)
    return ident, plan


def test_now_a_later_knowledge_entry_is_a_version_without_a_change_word(ws, clock, ci_server, monkeypatch):
    ident, plan = ci_server
    assert first(ws, clock, "Which Jenkins version is the CI server on now?") == (ident, "2026-10-14")
    monkeypatch.setattr(recall_mod, "LATER_RECORD", False)
    assert first(ws, clock, "Which Jenkins version is the CI server on now?")[0] == plan


def test_now_who_is_seeded_by_the_entry_that_names_someone(ws, clock, monkeypatch):
    fill(ws, clock)
    clock("2026-09-02")
    roles = store.learn(ws, CFG, key="team-roles",
                        text="Payments team: Ingrid Olsen is the lead (reviews, sprint scope); Mateo runs on-call.",
                        tags="", approved=True)["id"]
    clock("2026-10-06")
    store.edit(ws, CFG, roles, text="Payments team: Mateo Silva is now the lead (reviews, sprint scope); Ingrid "
               "Olsen moved to the security team.", approved=True)
    clock("2026-10-07")
    chores = store.learn(ws, CFG, key="home-chores",
                         text="家务分工：我负责周二、周四倒垃圾，周末 10 点前洗车，孩子们周三吸尘。",
                         tags="", approved=True)["id"]
    assert first(ws, clock, "现在 payments 组的 lead 是谁？") == (roles, "2026-10-06")
    monkeypatch.setattr(recall_mod, "NAME_RECORD", False)
    assert first(ws, clock, "现在 payments 组的 lead 是谁？")[0] == chores


def test_a_clock_time_is_one_value_with_or_without_am_pm():
    assert {"7:30", "15:30"} <= _values("The group now meets at 7:30am and leaves at 3:30pm.")
    assert "7:30" in _values("每周六早上 7:30 集合。")
    assert "12:15" in _values("lunch at 12:15pm") and "0:05" in _values("paged at 12:05am")


def test_tightened_and_its_kin_state_a_change():
    for text in ("Tightened the disk alert to above 85%.", "Extended the trial to 60 days.",
                 "Lena took over the standup.", "告警阈值收紧到 80%。", "下周起由小王接手值班。"):
        assert querytime.states("change", text), text
    assert not querytime.states("change", "Checked the disk alert volume for the week.")


def test_now_a_teacher_change_named_by_another_pair_of_the_subjects_word(ws, clock, monkeypatch):
    # 书法课 is indexed as 书法 + 法课; the change note says 换书法老师 (书法, never 法课). The rarest pair the
    # entry holds, 法课, straddles two words: the other pair of the same run names the subject too.
    fill(ws, clock)
    clock("2026-09-05")
    store.learn(ws, CFG, key="calligraphy",
                text="书法课：林老师，每周六上午 10 点在她 Parnell 的工作室上课，一节 90 分钟 $55。",
                tags="", approved=True)
    for day in ("2026-09-12", "2026-09-19"):
        note(ws, clock, day, "书法课", "林老师让我多练横画，这周练了《九成宫》。", cause="周六上午上课。")
    change = note(ws, clock, "2026-10-03", "换书法老师",
                  "她介绍了何老师（何思远），以后每周日下午 3 点在 Mt Eden 上课，一节 60 分钟 $65。",
                  cause="林老师要去悉尼半年，停课。")
    assert first(ws, clock, "现在书法课是哪位老师、什么时候上？")[0] == change
    monkeypatch.setattr(recall_mod, "SAME_RUN", False)
    assert first(ws, clock, "现在书法课是哪位老师、什么时候上？")[0] != change


def test_a_date_in_the_before_clause_dates_the_change_not_the_answer():
    from datetime import date

    today = date(2026, 10, 25)
    qt = querytime.parse("What was Pip's carprofen dose before the vet changed it on October 21?", today)
    assert (qt.mode, qt.past, qt.span, qt.before_day) == ("past", "previous", None, date(2026, 10, 21))
    qt = querytime.parse("10月21号改药之前 Pip 吃多少", today)
    assert (qt.mode, qt.span, qt.before_day) == ("past", None, date(2026, 10, 21))
    # A date that is not inside the change clause is the asked time, as before.
    qt = querytime.parse("What did I do on October 21?", today)
    assert (qt.span, qt.before_day) == ((date(2026, 10, 21), date(2026, 10, 21)), None)


def test_past_before_a_dated_change_is_the_version_before_that_day(ws, clock, monkeypatch):
    fill(ws, clock)
    clock("2026-09-01")
    ident = store.learn(ws, CFG, key="pip-meds", text="Pip (our dog) takes carprofen 50 mg twice a day with food.",
                        tags="", approved=True)["id"]
    halved = note(ws, clock, "2026-10-02", "Pip's recheck",
                  "The vet lowered Pip's carprofen to 25 mg twice a day; his liver values are fine.")
    note(ws, clock, "2026-10-21", "Groceries again", "Bought dog biscuits and rice at the Sunday market.")
    clock("2026-10-21", "18:00")
    store.edit(ws, CFG, ident, text="Pip (our dog) takes carprofen 50 mg once a day, in the morning with food.",
               approved=True)
    query = "What was Pip's carprofen dose before the vet changed it on October 21?"
    assert first(ws, clock, query, day="2026-10-25")[0] == halved
    monkeypatch.setattr(querytime, "BEFORE_DATE", False)
    assert first(ws, clock, query, day="2026-10-25")[0] != halved


def test_past_before_a_value_that_only_a_later_note_holds(ws, clock, monkeypatch):
    # The entry was edited once (7070 -> 7171); the move to 7272 is only in a daily note. "Before 7272" is
    # the entry's newest version, not its first.
    fill(ws, clock)
    clock("2026-09-02")
    ident = store.learn(ws, CFG, key="build-cache-port",
                        text="The build cache server (bcache) listens on port 7070 behind the office proxy.",
                        tags="", approved=True)["id"]
    clock("2026-09-24")
    store.edit(ws, CFG, ident, text="The build cache server (bcache) now listens on port 7171 behind the office "
               "proxy (moved off 7070, which the metrics agent took).", approved=True)
    note(ws, clock, "2026-10-16", "bcache 又换端口", "新的 tracing agent 占用了现在的端口，把 bcache 改到 7272，通知了各个团队。")
    query = "Which port did the build cache server use before it was changed to 7272?"
    assert first(ws, clock, query, day="2026-10-20") == (ident, "2026-09-24")
    monkeypatch.setattr(recall_mod, "VALUE_ANCHOR", False)
    assert first(ws, clock, query, day="2026-10-20") == (ident, "2026-09-02")


def test_a_question_in_english_finds_a_chinese_note_through_everyday_words(ws, clock):
    # lend / 借给 and stove / 炉子 were not in the glossary: the question found nothing at all.
    fill(ws, clock)
    lent = note(ws, clock, "2026-09-16", "借帐篷", "把我们的双人帐篷和炉子借给了同事 Aroha，她下周去 Tongariro 露营。")
    for i in range(6):
        note(ws, clock, f"2026-10-{10 + i:02d}", "Weekly notes", f"Sprint {i}: reviewed pull requests and planned the week.")
    assert [h.id for h in recall(ws, "Who did we lend the tent and the stove to?", CFG, top_k=3, track=False)][:1] \
        == [lent]


def test_now_a_dose_is_asked_in_milligrams(ws, clock, monkeypatch):
    # "药量是多少" asks for a dose: the later note's weight (3.9kg) is a number, not the dose.
    fill(ws, clock)
    clock("2026-09-01")
    ident = store.learn(ws, CFG, key="rex-meds", text="Rex 的药：苯巴比妥 30mg，一天两次，早晚各一次。",
                        tags="", approved=True)["id"]
    clock("2026-10-12")
    store.edit(ws, CFG, ident, text="Rex 的药（10/12 复查后更新）：苯巴比妥 15mg，一天两次，早上混在罐头里喂，"
               "晚上直接喂；下次复查在 11 月中，诊所是 Remuera Vets。", approved=True)
    later = note(ws, clock, "2026-10-20", "Rex", "Rex 体重 3.9kg。")
    clock("2026-10-25", "20:00")
    assert querytime.parse("Rex 现在的药量是多少？", __import__("datetime").date(2026, 10, 25)).unit == "mg"
    assert first(ws, clock, "Rex 现在的药量是多少？", day="2026-10-25") == (ident, "2026-10-12")
    monkeypatch.setattr(querytime, "_IMPLIED_UNIT", ())
    # Since round 9 a later note that states no change does not supersede the edited entry either
    # (recall.NOW_CHANGE): both rules keep the dose; with both off the weight wins.
    assert first(ws, clock, "Rex 现在的药量是多少？", day="2026-10-25") == (ident, "2026-10-12")
    monkeypatch.setattr(recall_mod, "NOW_CHANGE", False)
    assert first(ws, clock, "Rex 现在的药量是多少？", day="2026-10-25")[0] == later


def test_a_named_day_finds_the_walk_written_in_the_other_language(ws, clock):
    # 散步 / walk and 中午 / lunch were not in the glossary: another note of that day matched 一起 better.
    fill(ws, clock)
    walk = note(ws, clock, "2026-09-25", "Lunch walk", "Walked around the harbour at lunchtime with Tama from finance.")
    note(ws, clock, "2026-09-25", "数据对账", "和财务一起对了九月的账，找到两笔重复付款。")
    clock("2026-10-02", "20:00")
    hits = recall(ws, "9月25号中午散步是跟谁一起去的？", CFG, top_k=3, track=False)
    assert [h.id for h in hits][:1] == [walk]


def test_now_an_internet_change_written_in_chinese_supersedes_the_english_entry(ws, clock):
    # 网络 / internet: the change note names the home internet as 网络, the entry as "internet"; without the
    # glossary line the note did not name the fact and the entry's old provider stayed current.
    fill(ws, clock)
    clock("2026-09-01")
    store.learn(ws, CFG, key="home-internet",
                text="Home internet: Vodafone fibre 100/20 Mbps, $79/month, modem in the garage.", tags="", approved=True)
    change = note(ws, clock, "2026-10-09", "换家里网络", "换成 Orcon fibre 300/100 Mbps，每月 $85，新路由器放在书房。",
                  cause="Vodafone 合同到期。")
    assert first(ws, clock, "现在家里的宽带是哪家的，每月多少钱？")[0] == change
