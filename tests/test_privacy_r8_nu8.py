"""What the round 8 new-user walk-through (nu8) pasted and the detector let through, as kinds.

- Passwords that look plain: one lucky digit repeated (``88888888``, ``666666``: the commonest
  Wi-Fi passwords and PINs in China) and the published most-common passwords (``letmein``) after a
  password word.
- A user name and its password as ``user / password`` after a log-in word (``登录用 admin / …``).
- A hospital follow-up, in Chinese and English, is health; a weekly one is a fixed schedule too.
Tempting lines beside each (placeholders, prose about passwords, technical senses) stay clean.
"""
from __future__ import annotations

import pytest

from memory_manager.privacy import scan

PW = "P@ss" + "w0rd2024"


def kinds(text: str) -> list[tuple[str, str]]:
    return sorted({(f.category, f.rule) for f in scan(text)})


@pytest.mark.parametrize("text, rule", [
    ("wifi 密码 " + "8" * 8, "password_phrase_zh"),
    ("办公室 wifi 密码是 " + "8" * 8 + "，别再问了", "password_phrase_zh"),
    ("vpn 密码 " + "6" * 6, "password_phrase_zh"),
    ("office wifi: GuestNet, password: " + "8" * 8, "password_assignment"),
    ("pw: " + "let" + "mein", "pass_assignment"),
    ("登录用 admin / " + PW, "login_pair"),
    ("login: ops / " + "K7!vn" + "2q9", "login_pair"),
])
def test_plain_looking_passwords_after_their_word_are_secrets(text, rule):
    assert ("secret", rule) in kinds(text)


@pytest.mark.parametrize("text", [
    "password: " + "0" * 8,          # a zero run is a placeholder
    "password: ********",
    "rotate the password monthly",
    "登录 页面 / 注册页面",
    "login page / signup page",
    "用户名 a / b",
])
def test_placeholders_and_prose_about_passwords_stay_clean(text):
    assert [k for k in kinds(text) if k[0] == "secret"] == []


@pytest.mark.parametrize("text, expected", [
    ("每周三晚上八点去医院复查", {"health", "schedule"}),
    ("明天上午10点去医院复查", {"health"}),
    ("every Wednesday at 8pm I go to the hospital for a follow-up", {"health", "schedule"}),
])
def test_a_hospital_follow_up_is_health(text, expected):
    assert expected <= {c for c, _ in kinds(text)}


@pytest.mark.parametrize("text", ["复查一下日志", "每周三晚上发布", "the hospital system deploy is every Friday evening"])
def test_recheck_and_release_schedules_are_not_health(text):
    assert kinds(text) == []
