"""Kinds the detector must hold on (privacy issue 9, round 5).

Round 5's development set G (``bench/privacy_corpus/independent-g.tsv``) and last round's held-out
set F named the kinds: secrets in phrasings and formats the issue did not list (security-question
answers, authenticator seeds and recovery codes, browser password exports, Notion tokens, Bitcoin WIF
keys, Telegram bot URLs, a random value after a key word in any language), identifiers of other
countries, bank accounts in hyphen groups, phone numbers read out in words, Traditional Chinese
phrasings, protected topics; and benign lines that tempted the rules (documentation examples,
city-centre coordinates, server rooms, template expressions, fingerprints). Every case is a phrasing
written for this file, with other values, so a rule fixes a kind and not a line. Key material is
assembled at run time (``tests/test_layout.py`` refuses secret-looking literals).
"""
from __future__ import annotations

import hashlib
import json
import random
import string

import pytest

from memory_manager.privacy import CERTAIN, POSSIBLE, TOPIC, fold_traditional, scan

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _rand(n: int, alphabet: str = string.ascii_letters + string.digits, seed: int = 5) -> str:
    """``n`` characters from ``alphabet``, mixing classes as generated keys do."""
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _base58check(payload: bytes) -> str:
    raw = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    n, out = int.from_bytes(raw, "big"), ""
    while n:
        n, r = divmod(n, 58)
        out = _B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def _wif(seed: int = 11) -> str:
    rng = random.Random(seed)
    return _base58check(b"\x80" + bytes(rng.randrange(256) for _ in range(32)) + b"\x01")


def _base32(n: int, seed: int = 3) -> str:
    return _rand(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", seed)


#: (line, category, confidence of the finding of that category)
FOUND = [
    # secrets: formats with a published shape
    ("poll with https://api.telegram.org/bot" + "5821937046:" + "AA" + _rand(33, seed=1) + "/getMe", "secret", CERTAIN),
    ("the wiki sync uses " + "ntn_" + _rand(46, seed=2), "secret", CERTAIN),
    ("paper wallet backup " + _wif(), "secret", CERTAIN),
    ("https://intranet.lan/login,li.wei,Harbor#4417", "secret", CERTAIN),
    ("WIFI:T:WPA;S:Attic-5G;P:Quokka!8812;H:false;;", "secret", CERTAIN),
    ("lftp -u deploy,Tz8mQw2kLp sftp://files.shop.lan", "secret", CERTAIN),
    (r"net use Y: \\nas02\photos /user:HOME\mum Kettle7#blue", "secret", CERTAIN),
    # secrets: natural phrasings
    ("security question: name of my first teacher, answer = Mrs Okafor", "secret", CERTAIN),
    ("银行密保问题“最喜欢的城市”答案：洛阳", "secret", CERTAIN),
    ("身份验证器的种子：" + " ".join(_base32(4, s) for s in range(8)), "secret", CERTAIN),
    ("2FA seed for the exchange " + _base32(32, 9), "secret", CERTAIN),
    ("腾讯云 MFA 救援码 48201937 55038216 90417725", "secret", CERTAIN),
    # a random value after a key word in another language: tomorrow's vendor format
    ("Schlüssel für die Wetter-API: " + _rand(32, seed=7), "secret", CERTAIN),
    ("la clé du webhook est " + _rand(28, seed=8), "secret", CERTAIN),
    ("对象存储 AK " + _rand(24, seed=12) + " SK " + _rand(40, seed=13), "secret", CERTAIN),
    ("MAIL_PASSWORD=qwhzkfrtnbvoeyal  # 163 邮箱客户端授权码", "secret", CERTAIN),
    # identifiers
    ("ITIN 912-78-4403 for the freelancer's 1099", "government_id", CERTAIN),
    ("Canadian social insurance number 046 454 286 on the T4", "government_id", CERTAIN),
    ("PAN card ABCPE4821K for the rent receipts", "government_id", CERTAIN),
    ("CPF 529.982.247-25 no cadastro da loja", "government_id", CERTAIN),
    ("韩国同事的 RRN 880212-1538217 要填进签证表", "government_id", CERTAIN),
    ("マイナンバー 1234 5678 9018 を会社に出した", "government_id", CERTAIN),
    ("meine Steuer-ID ist 86095742719", "government_id", CERTAIN),
    ("驾驶证档案编号 510104882231 别弄丢", "government_id", CERTAIN),
    ("台胞證號碼 07302518，訂機票要用", "government_id", CERTAIN),
    # bank accounts in hyphen groups, a debit card with its branch
    ("pay the deposit into HSBC account 512-738204-838", "bank_account", CERTAIN),
    ("POSB savings a/c 188-42957-3 for the tuition", "bank_account", CERTAIN),
    ("轉帳帳號 012-38-274615-9，戶名寫我", "bank_account", CERTAIN),
    ("开户行：工商银行杭州西湖支行 卡号 6222 0212 3456 7890 128", "bank_account", CERTAIN),
    # accounts on a named platform, phones read out, a Taiwan mobile
    ("我的支付宝账号是 18611223344，转账写备注", "handle", POSSIBLE),
    ("kuaishou account 2938475610, reply there", "handle", POSSIBLE),
    ("LINE ID: mingmei0423 有事找她", "handle", POSSIBLE),
    ("call me on four one five, three nine two, eight eight one zero", "phone", POSSIBLE),
    ("我手机号幺三九 二八七六 五四三二，晚上打", "phone", POSSIBLE),
    ("她的手機 0928-551-306，白天比較好接", "phone", POSSIBLE),
    # names
    ('git config --global user.name "Ingrid Solberg"', "name", POSSIBLE),
    ("Full Name: Marcus Ellery Vance", "name", POSSIBLE),
    ("信的落款：此致 敬礼 —— 韩雪梅", "name", POSSIBLE),
    ("机票上的拼音名 ZHOU YUTONG 要和护照一致", "name", POSSIBLE),
    # addresses finer than a city
    ("the spare key is hidden at ///maple.tiger.window", "address", POSSIBLE),
    ("我家定位的 Plus Code 是 7PJP74PX+Q4，外卖找不到就发这个", "address", POSSIBLE),
    ("出差这几天住在 国贸大酒店 1508 房", "address", POSSIBLE),
    ("my aunt lives at Blk 88, #07-214, Singapore 310088", "address", POSSIBLE),
    # a person's schedule
    ("保洁阿姨每周三上午 9 点来，她有钥匙", "schedule", POSSIBLE),
    ("每个月月底我都回老家，家里三天没人", "schedule", POSSIBLE),
    ("we'll be in Porto from 4 to 19 August, nobody at the house", "schedule", POSSIBLE),
    # sensitive topics
    ("my uncle is a die-hard Trump supporter, skip the election talk", "protected", TOPIC),
    ("她爸是国民党的老党员，吃饭别聊两岸", "protected", TOPIC),
    ("her family is Brahmin and objects to the match", "protected", TOPIC),
    ("I joined the nurses' union last month, keep it quiet", "protected", TOPIC),
    ("外婆信一贯道，初一十五都吃素", "protected", TOPIC),
    ("my FICO score is 590 since the divorce", "financial", TOPIC),
    ("I own about 1.5 ETH that my wife doesn't know about", "financial", TOPIC),
    ("我的重疾险保单号在抽屉里，被保人是我爸", "financial", TOPIC),
    ("his visa expired in March and he is still working here", "legal", TOPIC),
    ("我们在做试管，月底移植胚胎", "health", TOPIC),
    ("爺爺心律不整，每天早上要量血壓", "health", TOPIC),
    ("我的步態特徵被社區監視器建檔了", "biometric", TOPIC),
]

#: Benign lines of the same families: no finding and no notice.
CLEAN = [
    # documentation examples and placeholders
    "the docs example uses token=6a2fxxxx-91bc-4d0e-xxxx-31c7aa0e9d55, swap in your own",
    "钉钉文档的示例 webhook：https://oapi.dingtalk.com/robot/send?access_token=xxxxxxxxxxxxxxxxxxxx",
    "netrc from the README: machine git.example.org login myuser password mypassword",
    "db_password = os.getenv('PGPASSWORD')",
    "REDIS_PASSWORD= (empty means no auth in dev)",
    "AWS account 123456789012 is the documentation's sample account id",
    # template expressions, fingerprints, key ids
    "api_token: ${{ secrets.DEPLOY_TOKEN_VALUE_NAME }}",
    "secret: {{ .Values.global.registrySecretName }}",
    "host key fingerprint is SHA256:" + _rand(43, seed=21) + " after the reinstall",
    "release signing key ID 9C3E5F27B1A04D86 is published on the keyserver",
    # places that are not a person's
    "the map centres on 39.9087, 116.3975 (Tiananmen Square) by default",
    "5 号楼 2 层的 UPS 下午断电检修",
    "305 室是网络设备间，钥匙在前台",
    "test fixture address: 742 Evergreen Terrace, Springfield (a cartoon)",
    # numbers that are not phones or IDs
    "+1 (012) 555-0147 is rejected by the validator: NPAs never start with 0",
    "MTU 9000 on the VXLAN underlay",
    "脱敏后的手机号 138****5678 可以放进周报",
    "The 2FA code 204817 expired before I typed it",
    # technical senses of topic words
    "Touch ID 不可用时回退到系统密码",
    "技术债务还剩 7 项，下个迭代清掉",
    "the circuit breaker arrested the retry storm",
    "儿童模式：12 岁以下用户需家长授权",
    "the bankrupt state in the trading game sim resets each round",
]


@pytest.mark.parametrize("line,category,confidence", FOUND)
def test_each_kind_is_found(line, category, confidence):
    found = {(f.category, f.confidence) for f in scan(line)}
    assert (category, confidence) in found, found


@pytest.mark.parametrize("line", CLEAN)
def test_benign_lines_of_the_same_kinds_stay_clean(line):
    assert scan(line) == []


def test_traditional_chinese_is_read_as_simplified_with_offsets_kept():
    line = "阿嬤高血壓，客戶電話 13912345678"
    folded = fold_traditional(line)
    assert len(folded) == len(line) and folded.startswith("阿嬷高血压")
    assert fold_traditional("plain ascii") == "plain ascii"
    phone = [f for f in scan(line) if f.category == "phone"]
    assert len(phone) == 1 and line[phone[0].start:phone[0].end] == "13912345678"


def test_a_wif_key_with_a_broken_checksum_is_not_a_key():
    key = _wif(seed=4)
    broken = key[:-1] + ("2" if key[-1] != "2" else "3")
    assert any(f.rule == "bitcoin_wif" for f in scan(f"cold storage {key}"))
    assert not any(f.rule == "bitcoin_wif" for f in scan(f"cold storage {broken}"))


def test_an_itin_outside_the_irs_groups_is_not_an_itin():
    assert any(f.rule == "us_itin" for f in scan("ITIN 931-70-2288 on the form"))
    assert not any(f.rule == "us_itin" for f in scan("ticket 931-42-2288 on the form"))


def _files(ws):
    return {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}


@pytest.mark.parametrize("verb", ["write", "learn", "remember"])
def test_a_wif_key_is_refused_by_memory_py_even_approved_and_leaves_no_trace(ws, run_script, verb):
    from conftest import TEST_KEY

    value = _wif(seed=23)
    text = f"冷钱包私钥 {value} 抄在本子上了"
    args = {"write": ["write", "--topic", "wallet", "--change", text],
            "learn": ["learn", "wallet", "--text", text],
            "remember": ["remember", "--skill", "home", "--topic", "wallet", "--text", text]}[verb]
    r = run_script("memory", *args, "--approved", "--json", env={"MEMORY_MANAGER_KEY": TEST_KEY})
    assert r.code == 1, r.err
    assert json.loads(r.out)["gate"]["recommended_action"] == "refuse"
    assert value not in r.out + r.err
    for path, data in _files(ws).items():
        assert value.encode() not in data, path


def test_a_security_answer_is_refused_by_memory_py(ws, run_script):
    text = "security question answers: first car = Corolla, childhood street = Wren Lane"
    r = run_script("memory", "learn", "bank", "--text", text, "--approved", "--json")
    assert r.code == 1, r.err
    for path, data in _files(ws).items():
        assert b"Corolla" not in data, path


@pytest.mark.parametrize("line", CLEAN[:6])
def test_benign_lines_store_through_memory_py(ws, run_script, line):
    r = run_script("memory", "learn", "r5-note", "--text", line, "--json")
    assert r.code == 0, r.err
    assert line in (ws / "memory" / "knowledge" / "r5-note.md").read_text(encoding="utf-8")
