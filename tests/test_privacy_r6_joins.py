"""Values cut by a line break are read joined (privacy issue 9, multi-line set I).

A password on the line after its label, an ``.env`` value wrapped after ``KEY=``, a token the
chat wrapped, a database URL cut in its password, an e-mail address cut after ``@``, and cards,
phone numbers and ID numbers split over lines or over two table cells are found; build numbers,
counters and timestamps cut the same way are not, nor a placeholder on the line after a label,
nor a key that only follows another key. Every value is made for this file and built at run
time (``tests/test_layout.py`` refuses secret-looking literals); the multi-line set's notes are
not repeated here.
"""
from __future__ import annotations

import random
import string

import pytest

from memory_manager.privacy import luhn_valid, scan


def _luhn(body: str) -> str:
    return next(body + d for d in "0123456789" if luhn_valid(body + d))


def _cn_id(body17: str) -> str:
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body17 + "10X98765432"[sum(int(c) * w for c, w in zip(body17, weights)) % 11]


def _tok(n: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _pw(seed: int) -> str:
    return _tok(5, seed, string.ascii_uppercase) + "!" + _tok(4, seed + 1, string.digits) + _tok(3, seed + 2, "qwxz")


_VISA = _luhn("441712345098765")
_MC = _luhn("542519880034512")
_ID = _cn_id("44030519880214321")
_ID2 = _cn_id("11010819920730052")

PRIVATE = [
    ("password next line, en", f"Grafana admin on the new box\nuser: grafana\npassword:\n{_pw(1)}\nrotate monthly",
     "secret"),
    ("password next line, indented", f"router login\n  passwd:\n    {_pw(2)}\n", "secret"),
    ("password next line, zh", f"家里 NAS 的登录信息\n用户名：admin\n口令：\n{_pw(3)}\n别外传", "secret"),
    ("yaml block scalar", f"env:\n  REDIS_PASSWORD: |\n    {_pw(4)}\n  REDIS_DB: 2", "secret"),
    ("env value wrapped after KEY=", "deploy/.env\nAPP_ENV=prod\nCOOKIE_SECRET=\n"
     f"{_tok(32, 5, '0123456789abcdef')}\n{_tok(32, 6, '0123456789abcdef')}\nPORT=3000", "secret"),
    ("random value after its label line", "CI 里的部署令牌：\n" + _tok(20, 7) + "/" + _tok(19, 17) + "\n下个月过期",
     "secret"),
    ("token wrapped, no digit after the break", "gitlab token: glpat-" + _tok(8, 8) + "\n"
     + _tok(12, 9, string.ascii_letters), "secret"),
    ("db URL cut in its password", "mysql://report:" + _tok(6, 10) + "\n" + _tok(6, 11) + "@db-2.internal:3306/bi\n",
     "secret"),
    ("feishu webhook cut after its path", "飞书群机器人：\nhttps://open.feishu.cn/open-apis/bot/v2/hook/\n"
     + _tok(8, 12, "0123456789abcdef") + "-" + _tok(4, 13, "0123456789abcdef") + "-" + _tok(4, 14, "0123456789abcdef")
     + "-" + _tok(4, 15, "0123456789abcdef") + "-" + _tok(12, 16, "0123456789abcdef"), "secret"),
    ("e-mail cut after @", "my personal address (not the work one):\nzhou.min.2031@\ngmail.com\n", "email"),
    ("card over two lines", f"新信用卡卡号：\n{_VISA[:4]} {_VISA[4:8]} {_VISA[8:12]}\n{_VISA[12:]}\n", "payment_card"),
    ("card one group a line", "the card for the domain renewals\n" + "\n".join(_MC[i:i + 4] for i in range(0, 16, 4)),
     "payment_card"),
    ("card over two table cells", f"| item | value |\n|---|---|\n| card number | {_MC[:7]} |\n| | {_MC[7:]} |",
     "payment_card"),
    ("ID over two lines", f"身份证号（报名用）：\n{_ID[:10]}\n{_ID[10:]}\n", "government_id"),
    ("ID over two table cells", f"| 字段 | 值 |\n|---|---|\n| 证件号码 | {_ID2[:8]} |\n| | {_ID2[8:]} |",
     "government_id"),
    ("CN mobile over two lines", "快递员让留的联系电话：\n139 2261\n7745\n", "phone"),
    ("UK mobile over two lines", "the plumber's mobile:\n07911\n123456\n", "phone"),
    ("international number cut", "reach me on holiday at\n+33 6 12 34\n56 78\n", "phone"),
    ("PIN on the next line", "the side gate keypad\nPIN:\n" + _tok(6, 18, "123456789") + "\n", "secret"),
]

BENIGN = [
    ("build number cut", "nightly build\nbuild 1398822\n4410\npublished to beta"),
    ("counter cut", "perf stat\ninstructions 1851204\n7730\ncycles 99120"),
    ("timestamps one per line", "retries at (epoch ms):\n1718160259168\n1718160262151\n1718160268143"),
    ("metrics table", "| day | requests |\n|---|---|\n| mon | 4916 |\n| tue | 5031 |\n| wed | 4870 |"),
    ("placeholder after a label", "set it in the chart:\npassword:\n  ${REDIS_PASSWORD}\nport: 6379"),
    ("label then a key of its own", "APP_SECRET=\nAPP_ENV=staging\nLOG_LEVEL=info"),
    ("key lines after a key line", "DB_PASSWORD=changeme\n  JWT_SECRET=change-this-to-a-random-string\n"),
    ("digest to pin", "the digest to pin in the chart:\nregistry.local/team/api@\nsha256:" + "ab12" * 16),
    ("build number on a weak cue", "release build number:\n1398\n8224415\n"),
    ("URL wrapped with a timestamp range", "https://grafana.local/d/x1/api?orgId=1&from=1718150000000&to=17181\n"
     "60000000&refresh=30s"),
]


@pytest.mark.parametrize("label,note,category", PRIVATE, ids=[p[0] for p in PRIVATE])
def test_a_value_cut_by_a_line_break_is_found(label, note, category):
    found = scan(note)
    assert category in {f.category for f in found}, (label, [(f.category, f.rule) for f in found])


def test_a_joined_finding_spans_both_lines():
    note = f"the new card:\n{_VISA[:4]} {_VISA[4:8]}\n{_VISA[8:12]} {_VISA[12:]}\nexpires soon"
    hit = [f for f in scan(note) if f.category == "payment_card"]
    assert len(hit) == 1 and hit[0].line == 2
    assert hit[0].end > len(note.split("\n")[1])  # past the end of its first line: the value crosses the break


@pytest.mark.parametrize("label,note", BENIGN, ids=[b[0] for b in BENIGN])
def test_numbers_and_keys_cut_the_same_way_are_not_private(label, note):
    assert [(f.category, f.rule) for f in scan(note)] == [], label


def test_a_password_on_the_next_line_is_refused_by_memory_py(ws, run_script):
    value = _pw(40)
    r = run_script("memory", "learn", "vpn", "--text", f"VPN for the lab\nuser: lab\npassword:\n{value}", "--json")
    assert r.code == 1, r.out + r.err
    for p in ws.rglob("*"):
        if p.is_file():
            assert value.encode() not in p.read_bytes(), p
