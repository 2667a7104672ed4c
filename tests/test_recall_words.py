"""Query words that the ranking used to lose (issue 13, time set N): Chinese weekday spellings,
a holiday's name that is a topic word, and a misspelt English word.

Notes are written through the store with the clock at each note's day in London; questions are
asked later. Each test checks the exact hits.
"""
import pytest

from memory_manager import store
from memory_manager.config import load_config
from memory_manager.recall import recall
from memory_manager.textproc import tokens
from tests.conftest import zone_clock

CFG = load_config(None)


@pytest.fixture
def clock(monkeypatch):
    return zone_clock(monkeypatch, "+00:00", "Europe/London")


def note(ws, clock, day: str, topic: str, change: str) -> str:
    clock(day, "18:00")
    return store.write_daily(ws, CFG, topic=topic, day=day, approved=True, change=[change])["id"]


def notes(ws, clock, **rows: tuple[str, str, str]) -> dict[str, str]:
    """A new memory tree with one daily note per row (``name=(day, topic, change)``); the ids by name."""
    (ws / "memory").mkdir()
    return {name: note(ws, clock, *row) for name, row in rows.items()}


@pytest.fixture
def bakery(ws, clock):
    return notes(
        ws, clock,
        helper=("2026-11-02", "周六帮手换人", "从这周起周六改由 Jess 来店里帮忙，7:00-14:00。"),
        sunday=("2026-11-03", "周日也开门", "决定从 11 月 22 日起周日也开门，8:00-13:00。"),
        play=("2026-11-05", "学校圣诞剧", "Maisie 在圣诞剧里演一只驯鹿，12 月 10 日演出。"),
        maisie=("2026-11-09", "Maisie 周日比赛", "Maisie 的球队 3:2 赢了，她助攻一次。"),
        beans=("2026-11-10", "Coffee", "Switched the espresso beans to Origin Pathfinder."),
        tea=("2026-11-11", "Tea", "New loose-leaf tea from Postcard Teas for the counter."),
    )


def ask(ws, clock, query: str, day: str = "2026-11-20") -> list[str]:
    clock(day, "12:00")
    return [h.id for h in recall(ws, query, CFG, top_k=3, track=False)]


def test_chinese_weekday_spellings_are_one_term():
    assert tokens("礼拜六") == tokens("星期六") == tokens("周六") == ["周六"]
    assert tokens("礼拜天") == tokens("星期日") == tokens("星期天") == ["周日"]
    assert tokens("礼拜几收") == ["周几", "几收"]
    assert tokens("这周天气") == ["这周", "周天", "天气"]  # 周天 stays: it is also 周 + 天气


def test_a_weekday_written_with_libai_finds_the_note_that_writes_zhou(ws, clock, bakery):
    assert ask(ws, clock, "礼拜六谁来店里帮忙")[0] == bakery["helper"]
    assert ask(ws, clock, "礼拜天开门吗")[0] == bakery["sunday"]


def test_a_holiday_name_with_nothing_on_its_days_is_a_topic_word(ws, clock, bakery):
    # Christmas 2025 holds no note: "圣诞剧" is the school play of November 2026.
    assert ask(ws, clock, "Maisie 圣诞剧里演啥")[0] == bakery["play"]


def test_a_misspelt_word_is_read_as_the_word_one_edit_away(ws, clock, bakery):
    assert ask(ws, clock, "which espreso beans do we use") == [bakery["beans"]]
    assert ask(ws, clock, "which espresso beans do we use") == [bakery["beans"]]


def test_a_short_unknown_word_is_not_corrected(ws, clock, bakery):
    assert ask(ws, clock, "tae") == []  # three letters: tea, tee, toe... too many neighbours


@pytest.fixture
def flat(ws, clock):
    return notes(
        ws, clock,
        lead=("2026-09-21", "浴室拆除", "地板下发现一段旧铅管，Dave 说必须整段换掉，要加 £450。"),
        swap=("2026-09-29", "铅管更换", "Dave 今天把铅管换成了铜管，说铅管的活拖了三周。"),
        bread=("2026-10-19", "Sourdough price rise", "The sourdough price goes up; costs are up too."),
        grinder=("2026-11-12", "Coffee", "New grinder; much better espresso."),
        boiler=("2026-10-02", "Boiler", "Boiler quote for the new flat: £900."),
    )


def test_a_question_frame_translated_only_adds_to_what_the_topic_found(ws, clock, flat):
    # 多少钱 -> cost / price: no topic of its own, so the English price note stays out.
    assert ask(ws, clock, "换铅管多花了多少钱") == [flat["swap"], flat["lead"]]


def test_much_of_how_much_is_no_topic_word(ws, clock, flat):
    assert ask(ws, clock, "how much did the new flat cost")[0] == flat["boiler"]
    assert ask(ws, clock, "how much") == [flat["grinder"]]  # alone, the words are kept


def test_a_date_written_in_the_other_language_links_the_versions_of_a_fact(ws, clock):
    (ws / "memory").mkdir()
    clock("2026-09-16", "10:00")
    store.learn(ws, CFG, key="flat-move-in-date", text="Target date to move into the Leyton flat: Sunday 15 November 2026.",
                approved=True)
    basin = note(ws, clock, "2026-10-06", "Bathroom first fix", "Marek moved the basin in the flat bathroom 30cm to the left.")
    # "15", "11" and "12" alone are common numbers: they tie nothing together.
    for day, text in (("2026-10-07", "Sold 15 loaves and 11 cakes by 12."), ("2026-10-08", "15 orders, 12 of them online."),
                      ("2026-10-09", "11 trays, 15 minutes each at 12 past."), ("2026-10-10", "Paid 15 and 12 for 11 bags.")):
        note(ws, clock, day, "Counter", text)
    later = note(ws, clock, "2026-10-22", "搬家日期推迟", "搬进公寓的日期从 11 月 15 日推到 12 月 6 日。")
    hits = ask(ws, clock, "when's the move into the flat now?", "2026-11-08")
    assert hits[0] == later and basin in hits


def test_the_first_of_a_month_links_nothing(ws, clock):
    (ws / "memory").mkdir()
    clock("2026-08-17", "10:00")
    store.learn(ws, CFG, key="gym-membership", text="Boulder gym: monthly membership 59 €/month.", approved=True)
    clock("2026-09-30", "12:00")
    store.learn(ws, CFG, key="gym-membership", text="Boulder gym: from 1 October the monthly membership costs 64 €/month.",
                approved=True)
    sync = note(ws, clock, "2026-09-24", "Weekly sync moving", "From 1 October the weekly sync is on Wednesdays at 11:00.")
    hits = ask(ws, clock, "what did the gym membership cost before the price went up", "2026-10-11")
    assert hits[0] != sync


@pytest.fixture
def quinta(ws, clock):
    return notes(
        ws, clock,
        owls=("2026-09-20", "酒庄", "老榨房里发现一对仓鸮在筑巢，房梁上有食丸。决定今年冬天不动那个房间。"),
        release=("2026-10-01", "发版", "新版本周四晚上上线，回滚方案写在文档里。"),
        barrels=("2026-11-10", "酒窖", "新到的橡木桶放进了二号酒窖，下周开始装酒。"),
        yeast=("2026-11-12", "发酵", "4号罐换成 QA23 酵母，低温下更稳。"),
    )


def test_a_chinese_word_brings_the_other_chinese_words_of_its_glossary_line(ws, clock, quinta):
    # 猫头鹰 / 仓鸮 and 做窝 / 筑巢 share a line: the question used to find nothing at all.
    assert ask(ws, clock, "那对猫头鹰在哪间房子里做窝来着？") == [quinta["owls"]]
    assert ask(ws, clock, "部署是哪天？")[0] == quinta["release"]  # 部署/上线/发布 = deploy


def test_without_glossary_synonyms_the_chinese_question_finds_nothing(ws, clock, quinta, monkeypatch):
    from memory_manager import glossary

    monkeypatch.setattr(glossary, "SYNONYMS", False)
    assert ask(ws, clock, "那对猫头鹰在哪间房子里做窝来着？") == []
    assert quinta["release"] not in ask(ws, clock, "部署是哪天？")


def test_a_chinese_word_the_notes_write_keeps_its_own_sense():
    from memory_manager import glossary

    def held(n):
        return lambda terms: {t: n for t in terms}

    assert "仓鸮" in glossary.expand("猫头鹰在哪", tokens("猫头鹰在哪"), held=held(0))
    assert "仓鸮" not in glossary.expand("猫头鹰在哪", tokens("猫头鹰在哪"), held=held(2))
    assert "仓鸮" not in glossary.expand("猫头鹰在哪", tokens("猫头鹰在哪"))  # no index: no synonyms
