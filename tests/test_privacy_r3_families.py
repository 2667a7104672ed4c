"""Round 3 of the privacy detector (issue 9): the families the outside attacker found leaking or
refused, each with new examples of our own (none of the attacker's lines) and benign lines of the
same family. Each line is scanned; the expected categories are exact."""
from __future__ import annotations

import pytest

from memory_manager.privacy import luhn_valid, scan


def _luhn(body: str) -> str:
    """``body`` with a Luhn check digit appended."""
    return next(body + d for d in "0123456789" if luhn_valid(body + d))


_VISA = _luhn("453201511283036")   # 16 digits, Visa range
_AMEX = _luhn("37144963539843")    # 15 digits, Amex range
_UP20 = _luhn("6212345678901234567")  # a 20-digit run of a UnionPay prefix

PRIVATE = [
    # credentials through a password-file option fed by process substitution, sshpass
    ("rclone sync --password-file=<(echo Gx7pq2Lm) src dst", "secret"),
    ("sshpass -f <(printf 'Zr8kk1Wq') ssh deploy@db1", "secret"),
    ("borg create --passphrase-file <(echo plum-river-88) repo::x", "secret"),
    ("sshpass -pTq9vv2Mx scp f.txt ops@10.0.0.4:/srv", "secret"),
    # a Bearer token with dots, dashes and underscores
    ("curl -H 'X: 1' then Bearer aZ3.kq9_Lm2-Px7.Rt4Vw8Yz0Ab", "secret"),
    ("header is Bearer 9fQe-2LpX_77aa.ZZk3mW0qRtY5u", "secret"),
    # cards glued to a word or grouped with slashes
    (f"退款卡 REF{_VISA}", "payment_card"),
    (f"card {_AMEX[:4]}/{_AMEX[4:10]}/{_AMEX[10:]}", "payment_card"),
    (f"退款打到这张 {_UP20}", "payment_card"),
    # e-mail spelt out in English and Chinese
    ("write to anna dot berg at fastmail dot com", "email"),
    ("邮箱 wang点lei艾特qq点com", "email"),
    ("邮箱 zhaoyun 艾特 126 点 com", "email"),
    # European street addresses
    ("ma soeur habite 7 Rue du Bac, 75007 Paris", "address"),
    ("indirizzo: Via Garibaldi 21, 10122 Torino", "address"),
    ("we stay at 12 Calle de Alcalá, 28014 Madrid", "address"),
    ("my flat is 40 Avenue Victor Hugo", "address"),
    # a person's weekly whereabouts with a relation word
    ("我老板每周二上午去医院陪床，不在办公室", "schedule"),
    ("室友每周六晚上8点去夜跑", "schedule"),
    ("my neighbour walks the dog every Sunday morning", "schedule"),
    # addiction treatment, pending charges
    ("my uncle goes to NA meetings twice a week", "health"),
    ("她在戒毒所待了半年", "legal"),
    ("爸爸每天去门诊喝美沙酮", "health"),
    ("he started suboxone last month", "health"),
    ("my cousin has a bail hearing next Tuesday", "legal"),
    ("she is facing theft charges in Ohio", "legal"),
    ("他被指控挪用公款，下月受审", "legal"),
]

BENIGN = [
    "diff <(echo a) <(echo b)",
    "pass the file with --password-file=/etc/rsync.secret (mode 600)",
    "Bearer tokens are described in RFC 6750",
    "Authorization scheme: Bearer <token>",
    "Bearer YOUR_ACCESS_TOKEN_GOES_HERE_12345",
    f"order{_VISA} shipped",
    f"订单号{_VISA}已发货",
    "ticket 12/345678/90123 closed",
    "the dot product at scale",
    "version 3 dot 2 at launch",
    "5 Place holders in the template",
    "route via Calle Mayor is closed for the parade",
    "每周五下午跑回归测试",
    "老板每周一早上9点开周会",
    "battery charge is 80%, charges overnight",
    "pending charges on the card will post tomorrow",
    "美沙酮 的英文是 methadone",
    "rehab 的英文是 康复",
    "a bipolar junction transistor in the amplifier",
    "第一小学的新闻稿",
    "孩子们的作品海报",
    "the bail hearing date field in the case schema",
]


@pytest.mark.parametrize("line,category", PRIVATE)
def test_r3_family_private_line_is_found(line, category):
    assert category in {f.category for f in scan(line)}, scan(line)


@pytest.mark.parametrize("line", BENIGN)
def test_r3_family_benign_line_has_no_finding(line):
    assert scan(line) == []
