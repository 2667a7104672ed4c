"""Recall of a named time that the calendar words alone do not give (issue 13, round 6).

Notes are written through the store with the clock at each note's day and hour in Toronto;
questions are asked later. Each test checks the exact hits.
"""
import pytest

from memory_manager import store
from memory_manager.config import load_config
from memory_manager.recall import recall
from tests.conftest import zone_clock

CFG = load_config(None)


@pytest.fixture
def clock(monkeypatch):
    return zone_clock(monkeypatch, "-04:00", "America/Toronto")


def note(ws, clock, day: str, hhmm: str, topic: str, change: str) -> str:
    clock(day, hhmm)
    return store.write_daily(ws, CFG, topic=topic, day=day, approved=True, change=[change])["id"]


@pytest.fixture
def autumn(ws, clock):
    """A fortnight of notes around a Monday holiday that Ontario keeps and Canada as a whole does not."""
    (ws / "memory").mkdir()
    ids = {
        "fri": note(ws, clock, "2025-10-10", "18:00", "Packed the car", "Packed the car for the cottage."),
        "sat": note(ws, clock, "2025-10-11", "12:00", "Cottage", "Raked leaves at the cottage; cold lake swim."),
        "mon_am": note(ws, clock, "2025-10-13", "10:00", "Turkey", "Put the turkey in at ten; 6 kg bird."),
        "mon_pm": note(ws, clock, "2025-10-13", "21:00", "Feast", "Eleven at the table; the pecan pie won."),
        "tue": note(ws, clock, "2025-10-14", "09:00", "Back at work", "Sprint planning, two tickets on the ingest job."),
        "wed_am": note(ws, clock, "2025-10-15", "08:00", "Dentist call", "Booked a filling for November."),
        "wed_pm": note(ws, clock, "2025-10-15", "22:00", "Movie night", "Watched an old heist film with the kids."),
        "thu": note(ws, clock, "2025-10-16", "12:30", "Lunch", "Pho with the new hire."),
    }
    return ids


def ask(ws, clock, query: str, day: str, hhmm: str = "08:00") -> list[str]:
    clock(day, hhmm)
    return [h.id for h in recall(ws, query, CFG, top_k=5, track=False)]


def test_a_provincial_holiday_lists_its_day(ws, clock, autumn):
    assert ask(ws, clock, "anything on Thanksgiving Monday?", "2025-10-20") == [autumn["mon_am"], autumn["mon_pm"]]


def test_a_holidays_long_weekend_is_the_weekend_and_the_holiday(ws, clock, autumn):
    hits = ask(ws, clock, "感恩节长周末都干了啥", "2025-10-20")
    assert hits == [autumn["sat"], autumn["mon_am"], autumn["mon_pm"]]
    assert ask(ws, clock, "what pie did we have over the Thanksgiving long weekend", "2025-10-20")[0] == autumn["mon_pm"]


def test_day_before_yesterday_without_its_article_and_filler_words(ws, clock, autumn):
    # Friday 17th: the day before yesterday is Wednesday 15th; "anything worth remembering" names no topic.
    assert ask(ws, clock, "day before yesterday, anything worth remembering?", "2025-10-17") == [
        autumn["wed_am"], autumn["wed_pm"]]


def test_last_night_lists_the_evening_first(ws, clock, autumn):
    assert ask(ws, clock, "anything from last night?", "2025-10-16")[0] == autumn["wed_pm"]
    assert ask(ws, clock, "the night before last, anything?", "2025-10-17")[0] == autumn["wed_pm"]


def test_within_a_named_week_another_ending_of_a_word_counts(ws, clock, autumn):
    # "hiker" is kept apart from "hikes" by the stemmer; within last week no entry holds "hiker".
    hike = note(ws, clock, "2025-10-17", "18:30", "Trail", "Two hikes on the escarpment trail, 14 km in all.")
    assert ask(ws, clock, "last week's hiker trip, how far was it?", "2025-10-22")[0] == hike
