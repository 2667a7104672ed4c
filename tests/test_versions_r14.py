"""Round 14 (set W as development set) kinds of "now" misses, each on its own invented notes (issue 13).

A number written with thousands separators is one value (``GROUPED_NUMBERS``); a value a version gives
as the old one ties no later note to the fact (``OLD_VALUE_APART``); another knowledge entry never joins
a fact by a shared value (``RECORDS_APART``). Every test asserts the exact first hit and names the
switch that decides it: with the switch off, the test fails.
"""
import pytest

from memory_manager import recall as recall_mod
from memory_manager.recall import _old_value, _values
from tests.test_versions_r9 import CFG, clock, edit, fill, first, learn, note  # noqa: F401 (fixture)


def test_a_grouped_number_is_one_value():
    assert {"2400", "2150"} <= _values("Parking pass: SGD 2,400 a month (was 2,150)")
    assert not {"400", "150"} & _values("Parking pass: SGD 2,400 a month (was 2,150)")
    assert "1234567" in _values("budget 1,234,567 SGD")


@pytest.mark.parametrize("text, token, old", [
    ("停车月卡：每月新币2,400（原来2,150）", "2150", True),
    ("停车月卡：每月新币2,400（原来2,150）", "2400", False),
    ("Parking pass: SGD 2,400 a month (was 2,150)", "2150", True),
    ("Rush fee 2,150, paid on delivery", "2150", False),
    ("moved from 2,150 to 2,400; 2,150 was too low", "2150", False),
    ("fee 2,150 then, still 2,150 now", "2150", False),
])
def test_an_old_value_is_one_written_as_the_former(text, token, old):
    assert _old_value(token, text) is old


@pytest.fixture
def parking(ws, clock):
    """A Chinese parking-pass entry whose old value reappears in a later, unrelated English note."""
    fill(ws, clock)
    ident = learn(ws, clock, "2026-09-01", "parking-pass", "停车月卡：10月起涨到每月新币2,400（原来2,150），在公司楼下B2。")
    note(ws, clock, "2026-09-20", "Translation quote", "New rate card sent from today: SGD 3,900 a day, rush fee 2,150.")
    return ident


def test_now_is_not_taken_over_by_a_note_sharing_the_old_value(ws, clock, parking):
    assert first(ws, clock, "How much is my parking pass now?")[0] == parking


@pytest.mark.parametrize("switch", ["GROUPED_NUMBERS", "OLD_VALUE_APART"])
def test_now_with_the_switch_off(ws, clock, parking, monkeypatch, switch):
    monkeypatch.setattr(recall_mod, switch, False)
    assert first(ws, clock, "How much is my parking pass now?")[0] != parking


@pytest.fixture
def gym(ws, clock):
    """Two knowledge entries that share one price; the other one is edited later."""
    fill(ws, clock)
    ident = learn(ws, clock, "2026-08-01", "gym-membership", "健身房会员：每月新币 137，FitHub 碧山店。")
    other = learn(ws, clock, "2026-08-05", "piano-lesson", "Piano lesson with Ms Tan: SGD 120 per lesson.")
    recall_mod_edit = __import__("memory_manager.store", fromlist=["edit"]).edit
    clock("2026-09-10", "18:00")
    recall_mod_edit(ws, CFG, other, text="Piano lesson with Ms Tan: SGD 137 per lesson from September.",
                    approved=True)
    return ident


def test_now_keeps_to_the_fact_and_not_another_entry_with_the_same_value(ws, clock, gym):
    assert first(ws, clock, "健身房会员现在多少钱？")[0] == gym


def test_now_with_records_together(ws, clock, gym, monkeypatch):
    monkeypatch.setattr(recall_mod, "RECORDS_APART", False)
    assert first(ws, clock, "健身房会员现在多少钱？")[0] != gym

