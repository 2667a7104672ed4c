"""Kinds the detector must hold on (privacy issue 9, round 8, development set K).

Set K named these families: a password after an e-mail address (combo-list form), a vendor token
split by spaces, a card number read digit by digit, Chinese and UK number plates and VINs, green
card / BRP / driving licence numbers after their cue, a seed phrase after a hardware wallet's
backup or "recovery words" (and the Chinese word list after 助记词), session cookies by their
services' names, a hotel room with its guest, a name signing a message, game account ids with
their game, Taiwan bank accounts, an NHS number, a visa a person's stay hangs on, a person alone
or away on fixed weekdays, and one-time codes that are still live (asked to be handed over, or
authorising a transfer); and benign lines that tempted: role mailboxes and mailing lists, a
place's opening hours, an A/B test, a CLI help line's metavariable, a research topic's key words,
expired or template codes, a VIN or a plate shown as a format, a meeting room.
Every case is a phrasing written for this file, with other values than the set's; values that
look like secrets are built at run time (``tests/test_layout.py``). Each positive names the
exact (category, rule) findings it gives.
"""
from __future__ import annotations

import random
import string

import pytest

from memory_manager.privacy import _VIN_VALUES, _VIN_WEIGHTS, nhs_number_ok, scan, vin_check_ok


def _rand(n: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _luhn(prefix: str, length: int, seed: int) -> str:
    """A Luhn-valid card number of ``length`` digits starting with ``prefix``."""
    body = prefix + _rand(length - len(prefix) - 1, seed, string.digits)
    total = 0
    for i, d in enumerate(reversed(body)):
        n = int(d) * (2 if i % 2 == 0 else 1)
        total += n - 9 if n > 9 else n
    return body + str((10 - total % 10) % 10)


def _vin(seed: int, valid: bool = True) -> str:
    """A 17-character VIN whose ninth character is (or is not) its ISO 3779 check digit."""
    chars = [c for c in _VIN_VALUES if c not in "IOQ"]
    v = list(_rand(17, seed, "".join(chars)))
    v[0], v[5], v[12] = "3", "7", "5"  # a digit and letters mixed, whatever the draw
    v[1] = "F"
    v[8] = "0"
    s = sum(_VIN_VALUES[c] * w for c, w in zip(v, _VIN_WEIGHTS)) % 11
    good = "X" if s == 10 else str(s)
    v[8] = good if valid else ("1" if good == "0" else "0")
    return "".join(v)


def _nhs(seed: int) -> str:
    rng = random.Random(seed)
    while True:
        digits = "".join(str(rng.randrange(10)) for _ in range(10))
        if nhs_number_ok(digits):
            return f"{digits[:3]} {digits[3:6]} {digits[6:]}"


def _pw(seed: int) -> str:
    return _rand(5, seed, string.ascii_lowercase) + "-" + _rand(3, seed + 1, string.digits) + _rand(2, seed + 2, "QRT")


def _otp(seed: int) -> str:
    return _rand(6, seed, "123456789")


_WORDS = ("anchor basket cinder dolphin eager fabric galaxy hollow island jacket kitten ladder meadow "
          "napkin oyster pencil quiver ribbon saddle tunnel uncle violin wagon yellow").split()
_ZH_WORDS = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"


def _zh_phrase(n: int, seed: int) -> str:
    return " ".join(random.Random(seed).sample(list(_ZH_WORDS), n))


def _en_phrase(n: int, seed: int) -> str:
    return " ".join(random.Random(seed).sample(_WORDS, n))


def _gh_split(seed: int) -> str:
    body = _rand(36, seed)
    return "ghp_" + body[:11] + " " + body[11:23] + " " + body[23:]


# (make the line, the exact set of (category, rule) it gives)
PRIVATE = [
    # a password right after an e-mail address
    # (glued to ":" the address is not reported as one: "git@github.com:owner/repo" is an SSH remote)
    (lambda: f"old forum combo nadia.k@outlook.com:{_pw(1)}", {("secret", "email_password_pair")}),
    (lambda: f"备用账号 zhao.lin@qq.com | {_pw(2)}", {("email", "email"), ("secret", "email_password_pair")}),
    # a vendor token split by spaces
    (lambda: f"the deploy token, broken up: {_gh_split(3)}", {("secret", "split_vendor_token")}),
    (lambda: f"拆开发你：{_gh_split(4)} 自己拼起来", {("secret", "split_vendor_token")}),
    # a card read one digit at a time
    (lambda: "card number, slowly: " + " ".join(_luhn("4", 16, 5)), {("payment_card", "card_digit_by_digit")}),
    (lambda: "我念一下卡号 " + " ".join(_luhn("62", 16, 6)) + " 你记一下", {("payment_card", "card_digit_by_digit")}),
    # number plates and VINs
    (lambda: "老婆的车牌 浙A·7K3P9，停在B2", {("government_id", "cn_licence_plate")}),
    (lambda: "my car is the grey one, plate 苏E 5Q2D8", {("government_id", "cn_licence_plate")}),
    (lambda: "my car reg is KM19 TRX if security asks", {("government_id", "uk_number_plate")}),
    (lambda: f"our car's VIN {_vin(7)} for the insurance form", {("government_id", "vin")}),
    (lambda: f"我的车车架号 {_vin(8, valid=False)}，保险要用", {("government_id", "vin")}),
    # residence documents and licences after their cue
    (lambda: "green card number MSC" + _rand(10, 9, string.digits), {("government_id", "id_document_number_r8")}),
    (lambda: "BRP no. ZRX" + _rand(6, 10, string.digits) + " expires next spring", {("government_id", "id_document_number_r8")}),
    (lambda: "driver licence number D" + _rand(7, 11, string.digits), {("government_id", "id_document_number_r8")}),
    (lambda: "她的绿卡号 EAC" + _rand(10, 12, string.digits), {("government_id", "id_document_number_r8")}),
    # seed phrases after a wallet's backup or recovery words; the Chinese word list
    (lambda: f"trezor backup: {_en_phrase(12, 13)}", {("secret", "mnemonic_phrase")}),
    (lambda: f"my recovery words {_en_phrase(24, 14)}", {("secret", "mnemonic_phrase")}),
    (lambda: f"钱包助记词：{_zh_phrase(12, 15)}", {("secret", "seed_phrase_zh_words")}),
    # session cookies by their services' names
    (lambda: "bilibili SESSDATA=" + _rand(32, 16, "0123456789abcdef") + "%2C17" + _rand(8, 17, string.digits),
     {("secret", "session_cookie")}),
    (lambda: "linkedin 的 li_at=" + _rand(40, 18), {("secret", "session_cookie")}),
    # a hotel room with its guest
    (lambda: "we're in room 1212 at the Novotel until Sunday", {("address", "guest_room_en")}),
    (lambda: "今晚在汉庭2207，你到了打给我", {("address", "hotel_chain_room_zh")}),
    # a name signing a message
    (lambda: "Cheers, Marguerite Oyelaran", {("name", "signoff_name_en")}),
    (lambda: "Thanks, Ingrid", {("name", "signoff_name_en")}),
    (lambda: "see you at the gate. — Tomasz Wielgus", {("name", "dash_signature_en")}),
    (lambda: "I'll bring the keys on Friday\n— Tomasz Wielgus", {("name", "dash_signature_en")}),
    (lambda: "顺颂商祺 —— 黄思远（财务部）", {("name", "signature_name_zh_r8")}),
    # game accounts with their game
    (lambda: "honkai star rail UID 80" + _rand(7, 19, string.digits), {("handle", "game_account_id")}),
    (lambda: "xbox gamertag: frostbyte_88", {("handle", "game_account_id")}),
    (lambda: "我的鸣潮UID 12" + _rand(7, 20, string.digits), {("handle", "game_account_id_zh")}),
    (lambda: "和平精英 游戏ID 是lanmao_07", {("handle", "game_account_id_zh")}),
    # Taiwan bank accounts
    (lambda: "郵局帳號 (700) " + _rand(14, 21, string.digits), {("bank_account", "tw_bank_account")}),
    (lambda: "transfer to bank code 812 account " + _rand(14, 22, string.digits),
     {("bank_account", "tw_bank_account")}),
    # an NHS number / a hospital record number
    # (grouped 3-3-4, the number is also a valid UK phone number: both are reported)
    (lambda: f"Mum's NHS number is {_nhs(23)}", {("health", "medical_record_number"), ("phone", "phone")}),
    (lambda: "我的病历号 20" + _rand(8, 24, string.digits),
     {("health", "medical_record_number"), ("health", "health_terms_zh")}),
    # a visa a person's stay hangs on
    (lambda: "my husband is on an H-4 so he cannot work yet", {("legal", "immigration_visa_en")}),
    (lambda: "她拿的是F-1，暑假不能打工", {("legal", "immigration_visa_zh")}),
    # alone or away on fixed weekdays
    (lambda: "I'm alone with the baby Mon-Thu while he works offshore", {("schedule", "alone_weekdays_en")}),
    (lambda: "周一到周四我一个人带娃", {("schedule", "alone_weekdays_zh")}),
    # one-time codes that are still live
    (lambda: f"the bank code is {_otp(25)}, read it to me quick", {("secret", "live_one_time_code")}),
    (lambda: f"验证码{_otp(26)}，您正在进行付款操作", {("secret", "live_one_time_code")}),
]

BENIGN = [
    "billing@fastmail.com sent the invoice again",
    "forwarded to the users@lists.debian.org thread",
    "反馈邮箱 kefu@taobao.com 一直没回",
    "the pool opens at 7am on Sundays",
    "图书馆早上8点开门，晚上10点关门",
    "ran an A/B test on the pricing page, pregnancy-safe copy won",
    "AB测试的结果：新版的焦虑感文案转化更高",
    "  --password PASSWORD   the password to connect with",
    "  -k, --token TEXT   API token (defaults to $TOKEN)",
    "离婚率是这篇论文的关键词",
    "the verification code 448120 expired, requesting another",
    "短信模板：您的验证码为 {code}，请勿泄露",
    "payment failed with error code 402913, send me the logs",
    "VIN format: 17 characters, the ninth is a check digit (see the decoder tests)",
    "车牌格式：京A 开头的是北京的，新能源是 6 位",
    "meeting room 204 at the Hilton conference floor, 9am",
    "如家2023年营收增长了12%",
    "酒店预授权用卡 4000 1234 5678 9010 以后再说",
    "our old repo is at git@github.com:acme/tools.git",
    "see the chapter on caching -- Design Patterns",
    "Reading list:\n- Design Patterns\n- Release It",
    "# Links\n— Getting Started",
    "Thanks, everyone",
    "genshin UID format is nine digits",
    "游戏ID 是自增主键",
    "github token format: ghp_ followed by 36 characters",
]


@pytest.mark.parametrize("make,want", PRIVATE, ids=[str(i) for i in range(len(PRIVATE))])
def test_each_kind_is_found_by_its_rule(make, want):
    line = make()
    assert {(f.category, f.rule) for f in scan(line)} == want, line


@pytest.mark.parametrize("line", BENIGN, ids=[str(i) for i in range(len(BENIGN))])
def test_benign_lines_of_the_same_kinds_stay_clean(line):
    assert [(f.category, f.rule) for f in scan(line)] == [], line


def test_vin_check_digit():
    assert vin_check_ok(_vin(40)) and not vin_check_ok(_vin(40, valid=False))


def test_a_vin_without_its_check_digit_or_a_vin_word_is_not_one():
    assert scan(f"my car: {_vin(41, valid=False)}") == []


def test_nhs_number_check_digit():
    assert nhs_number_ok(_nhs(42).replace(" ", ""))
    assert not nhs_number_ok("1111111111")


def test_a_split_token_that_does_not_join_into_the_format_is_not_one():
    assert scan("ghp_" + _rand(10, 43) + " " + _rand(10, 44) + " is not a whole token") == []


def test_email_then_a_word_is_not_a_password():
    assert {f.category for f in scan("ask ops.lead@corp-mail.net : thanks!")} == {"email"}
