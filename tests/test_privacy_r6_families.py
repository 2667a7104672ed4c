"""Kinds the detector must hold on (privacy issue 9, round 6, development set I).

Set I named these families: a BitLocker recovery password, a seed phrase after a bare cue word,
Google-style backup codes in Chinese, the code that opens a lockbox or a gate, a user name and a
password given as a pair, secrets in name/value attribute pairs, an SSN with an aside before it,
Medicare and UK driving-licence numbers, brokerage accounts, and sensitive topics in words the
lists lacked (surgery, alcoholism, a party by name, a discipline inquiry, licence points, an offer,
a housing fund, a tax filing, a blood group, one's own voice or gait); and benign lines that
tempted: documentation specimens of IDs and IBANs, publishable and site keys, medical and
financial words in a system's sense or in a code table, a venue's address, the GitHub API host.
Every case is a phrasing written for this file, with other values than the set's; values that
look like secrets are built at run time (``tests/test_layout.py``).
"""
from __future__ import annotations

import random
import string

import pytest

from memory_manager.privacy import CERTAIN, scan


def _rand(n: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _bitlocker(seed: int, valid: bool = True) -> str:
    rng = random.Random(seed)
    blocks = [rng.randrange(1, 65535) * 11 + (0 if valid else 1) for _ in range(8)]
    return "-".join(f"{b:06d}" for b in blocks)


_WORDS = ("canal ember frost glide harbor ivory jungle kettle lemon marble noble orbit pepper quartz raven "
          "saddle timber umbra velvet walnut yonder zephyr amber bridge").split()


def _phrase(n: int, seed: int) -> str:
    return " ".join(random.Random(seed).sample(_WORDS, n))


def _pw(seed: int) -> str:
    return _rand(4, seed, string.ascii_uppercase) + "#" + _rand(4, seed + 1, string.digits) + _rand(3, seed + 2, "kmz")


def _mbi() -> str:
    return "".join(["3", "K", "X", "7", "-", "P", "Q", "2", "-", "W", "E", "4", "8"])


def _uk_licence() -> str:
    return "".join(["MORGA", "7", "53", "11", "6", "SM", "9", "IJ"])


PRIVATE = [
    (lambda: f"BitLocker 恢复密钥（工作笔记本）：{_bitlocker(1)}", "secret"),
    (lambda: f"recovery key for the external drive: {_bitlocker(2)}", "secret"),
    (lambda: f"mnemonic words {_phrase(12, 3)}", "secret"),
    (lambda: f"冷钱包助记词 {_phrase(24, 4)}，纸质备份在保险柜", "secret"),
    (lambda: "GitHub 的备用验证码：" + "、".join(f"{_rand(4, i, string.digits)} {_rand(4, i + 9, string.digits)}"
                                         for i in range(5, 8)), "secret"),
    (lambda: f"the key safe by the back door opens with {_rand(4, 8, '123456789')}", "secret"),
    (lambda: f"车库门禁密码是 {_rand(6, 9, '123456789')}，别告诉快递", "secret"),
    (lambda: f"用户名和密码分别为 ops 和 {_pw(10)}", "secret"),
    (lambda: f"the router user and password are admin and {_pw(11)}", "secret"),
    (lambda: f'<add key="SmtpPassword" value="{_pw(12)}"/>', "secret"),
    (lambda: f'<property name="db.password" value="{_pw(13)}"/>', "secret"),
    (lambda: "my SSN (without dashes) 52" + "1" + "38" + "4417", "government_id"),
    (lambda: f"Medicare MBI {_mbi()} for Dad's clinic visit", "government_id"),
    (lambda: f"driving licence no. {_uk_licence()} for the hire car", "government_id"),
    (lambda: "Schwab brokerage account 4471-" + "9023", "bank_account"),
    (lambda: "我的证券账户 31085" + "52176，别外传", "bank_account"),
    (lambda: "my dad had a tonsillectomy on Monday", "health"),
    (lambda: "she had a C-section in May and is still off work", "health"),
    (lambda: "Tom is a recovering alcoholic, skip the wine pairing", "health"),
    (lambda: "我是 O 型血，RH 阴性", "health"),
    (lambda: "老王被纪委叫去谈话了", "legal"),
    (lambda: "这个周期驾照已经扣了 6 分", "legal"),
    (lambda: "my offer: base 80k plus a sign-on 15k", "financial"),
    (lambda: "我的公积金每月缴 2800", "financial"),
    (lambda: "their AGI was $98,400 last year", "financial"),
    (lambda: "he is a member of the socialist party", "protected"),
    (lambda: "she joined as a communist party member in 2019", "protected"),
    (lambda: "recorded my own voice for the cloning demo, samples in voice/me/", "biometric"),
    (lambda: "my gait data from the treadmill app", "biometric"),
    (lambda: "my sister-in-law 周雨桐 lands at 6pm", "name"),
    (lambda: "信用卡申请表：持卡人 苏婉清，待审核", "name"),
    (lambda: "Daniel Okafor, born 12 March 1979, signs as guarantor", "name"),
    (lambda: "we're staying at the Hilton near the station, room 608, till Tuesday", "address"),
]

BENIGN = [
    "DE89 3704 0044 0532 0130 00 appears in every IBAN validator's docs",
    "GB82 WEST 1234 5698 7654 32 is the sample in the spec",
    "the form hint shows a placeholder HKID A123456(3)",
    "身份证样例 11010519491231002X 写在接口文档里",
    "sample NRIC S1234567D in the signup placeholder",
    lambda: "Stripe publishable key pk_test_" + _rand(24, 20) + " goes in the checkout page",
    lambda: "reCAPTCHA site key 6L" + _rand(38, 21) + " is in the public HTML",
    "诊断出是线程池耗尽，不是数据库的问题",
    "the connection pool is bankrupt after the burst, every call waits",
    "ICD-10 code I10 maps to hypertension in the code table",
    "药品字典新增阿莫西林胶囊 0.25g 规格",
    "招聘 JD：资深前端，薪资范围 25-40K·14 薪",
    '<path d="M2 12h20" stroke="currentColor" stroke-width="2"/>',
    "the meetup is at Galvanize Hall, 44 Tehama St, San Francisco",
    'curl -H "Authorization: token $GH_TOKEN" https://api.github.com/user/repos',
    lambda: '<add key="PasswordMinLength" value="12"/>',
    lambda: "seed the staging database with users from the fixtures before the load test tomorrow morning at ten",
    lambda: f"disk serial {_bitlocker(22, valid=False)}",
    "server room 3 at the data center is cold",
    "the Linux kernel, born 1991, is older than some of the team",
    "meeting room 402 is booked for the retro",
]


@pytest.mark.parametrize("make,category", PRIVATE, ids=[str(i) for i in range(len(PRIVATE))])
def test_each_kind_is_found(make, category):
    line = make()
    found = scan(line)
    assert category in {f.category for f in found}, (line, [(f.category, f.rule) for f in found])


@pytest.mark.parametrize("line", BENIGN, ids=[str(i) for i in range(len(BENIGN))])
def test_benign_lines_of_the_same_kinds_stay_clean(line):
    text = line() if callable(line) else line
    assert [(f.category, f.rule) for f in scan(text)] == [], text


def test_a_secret_key_beside_a_site_key_is_still_a_secret():
    line = "reCAPTCHA secret key 6L" + _rand(38, 23) + " stays on the server"
    assert [f.confidence for f in scan(line) if f.category == "secret"] == [CERTAIN]


def test_a_real_address_at_a_venue_word_is_still_an_address():
    assert "address" in {f.category for f in scan("I'm staying with my sister at 12 Oak Street near the convention center")}


def test_a_specimen_without_a_docs_word_is_still_an_iban():
    assert "bank_account" in {f.category for f in scan("wire the deposit to DE89 3704 0044 0532 0130 00 today")}


def test_a_bitlocker_key_is_refused_by_memory_py_even_approved(ws, run_script):
    value = _bitlocker(30)
    r = run_script("memory", "learn", "laptop", "--text", f"BitLocker recovery key {value}", "--approved", "--json")
    assert r.code == 1, r.out + r.err
    for p in ws.rglob("*"):
        if p.is_file():
            assert value.encode() not in p.read_bytes(), p
