"""The seed's score, part by part, against hand-computed values (config.json defaults)."""
import math
from datetime import date

import pytest

from memory_manager.config import load_config
from memory_manager.scoring import access_score, age_days, combine, tag_score, time_score, value_score

CFG = load_config(None)


@pytest.mark.parametrize("days, expected", [
    (None, 1.0), (0, 1.0), (7, 1.0),
    (8, 0.98),     # continuous: 1 - 0.02*(8-7); the seed's code would give 1 - 0.02*8 = 0.84
    (17, 0.80), (51, 0.12), (52, 0.10), (400, 0.10),
])
def test_time_decay(days, expected):
    assert time_score(days, CFG) == pytest.approx(expected)


def test_time_decay_has_no_jump_after_the_grace_period():
    assert time_score(7, CFG) - time_score(7.5, CFG) == pytest.approx(0.01)


def test_age_in_days():
    assert age_days("2026-03-01", date(2026, 3, 20)) == 19
    assert age_days("2026-04-01", date(2026, 3, 20)) == 0
    assert age_days(None, date(2026, 3, 20)) is None


@pytest.mark.parametrize("count, since, expected", [
    (0, None, 0.0),
    (1, None, math.log(2) / 10),                 # 0.0693
    (1, 3.0, math.log(2) / 10 * 1.5),            # recalled 3 days ago: x1.5 = 0.1040
    (9, 7.0, math.log(10) / 10 * 1.5),           # day 7 still counts as recent: 0.3454
    (9, 8.0, math.log(10) / 10),                 # 0.2303
    (30000, 0.0, 1.0),                           # ln(30001)/10*1.5 = 1.546 -> capped at 1
])
def test_access(count, since, expected):
    assert access_score(count, since, CFG) == pytest.approx(expected)


def test_tags():
    tt = [["deploy"], ["python"], ["飞书"], ["machin", "learn"]]
    assert tag_score([], ["x"], CFG) == 0.5                      # untagged: the seed's neutral 0.5
    assert tag_score(tt, ["deploy", "python"], CFG) == 0.5       # 2 of 4 tags
    assert tag_score(tt, ["machin"], CFG) == 0.0                 # a multi-word tag needs all its words
    assert tag_score(tt, ["machin", "learn", "飞书"], CFG) == 0.5
    assert tag_score(tt, None, CFG) == 1.0                        # no query (value score): all matched


def test_combine_weights():
    parts = combine(0.5, 0.98, 0.104, 0.5, CFG)
    # 0.4*0.5 + 0.2*0.98 + 0.2*0.104 + 0.2*0.5 = 0.2 + 0.196 + 0.0208 + 0.1
    assert parts.total == pytest.approx(0.5168)
    assert combine(1, 1, 1, 1, CFG, disabled=("time", "tags")).total == pytest.approx(0.6)


def test_value_score_rescales_without_keyword():
    # weights 0.2/0.2/0.2 rescaled to 1/3 each
    assert value_score(0.98, 0.0, 0.5, CFG) == pytest.approx(1.48 / 3)  # 0.4933
    assert value_score(1.0, 0.3, 0.5, CFG) == pytest.approx(0.6)


def test_old_exact_match_beats_new_weak_match():
    old = combine(1.0, time_score(400, CFG), 0, 0.5, CFG).total    # 0.4 + 0.02 + 0.1 = 0.52
    new = combine(0.5, time_score(0, CFG), 0, 0.5, CFG).total      # 0.2 + 0.2 + 0.1 = 0.50
    assert old == pytest.approx(0.52) and new == pytest.approx(0.50) and old > new
