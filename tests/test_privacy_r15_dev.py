"""Families read from the released sets (U, V, Y and the earlier ones) in round 15 (issue 9).

Each case is our own phrasing of a family, not a line of a set: digits written as words or spaced
out (a PIN read aloud, a phone number typed digit by digit), a UnionPay debit number reported as a
card and as the account it draws on, a password written before "is the new ... password", an NRIC or
Taiwan ID typed in lower case after its key word. The benign side: numbers in words that are
prose, a file or a tool "is the password policy", lower-case runs that are not after an ID word.
"""
from __future__ import annotations

import pytest

from memory_manager.privacy import scan, spelled_digits


def _cats(text: str) -> set[str]:
    return {f.category for f in scan(text)}


@pytest.mark.parametrize("text, category", [
    ("the safe's PIN is six one one nine", "secret"),
    ("gate code: two-eight-four-four", "secret"),
    ("路由器密码 幺五九二六八", "secret"),
    ("call me on 0 7 7 0 0 9 0 0 1 2 3", "phone"),
    ("mobile: 1 5 9 1 2 3 4 5 6 7 8", "phone"),
    ("my social is one two three, four five, six seven eight nine", "government_id"),
    ("转到我建行卡 6217 0012 3456 7890 122", "bank_account"),
    ("转到我建行卡 6217 0012 3456 7890 122", "payment_card"),
    ("qwerty77 is my new wifi password", "secret"),
    ("Kestrel2020 <- that's the new NAS password", "secret"),
    ("nric s9012345i", "government_id"),
    ("身份证 a123456789", "government_id"),
])
def test_private_families_are_found(text, category):
    assert category in _cats(text), scan(text)


@pytest.mark.parametrize("text", [
    "one or two of them, maybe three",
    "we need four five-minute breaks",
    "三四个人就够了",
    "二〇二六年三月的计划",
    "version 1 2 3 of the plan",
    "README.md is the password policy doc",
    "bitwarden9 is the password manager we picked",
    "hunter2 is the most common password in the leak",
    "build g9095547r passed",
    "commit a123456789 reverted the change",
])
def test_benign_look_alikes_get_nothing(text):
    assert _cats(text) == set(), scan(text)


def test_the_spelled_view_maps_each_digit_back_to_its_word():
    view, starts, ends = spelled_digits("PIN four seven two nine!")
    assert view == "PIN 4729!"
    assert [("PIN four seven two nine!"[s:e]) for s, e in zip(starts[4:8], ends[4:8])] == ["four", "seven", "two", "nine"]
    assert spelled_digits("no digits in words here") is None


def test_a_pin_read_aloud_is_refused_through_memory_py(ws, run_script):
    r = run_script("memory", "learn", "bank-notes", "--text", "ATM PIN is three eight one six", "--approved")
    assert r.code != 0 and "secret" in r.err, r.out + r.err
    assert not (ws / "memory/knowledge/bank-notes.md").exists()
    assert all("three eight one six" not in p.read_text(encoding="utf-8", errors="replace")
               for p in ws.rglob("*") if p.is_file())
