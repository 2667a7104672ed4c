"""Kinds the detector must hold on (privacy issue 9, round 9, development set M).

Set M's benign lines were flagged mostly by kind, not by accident of wording: a sensitive topic
spoken of in general (what is usual, how something works, teaching, a survey, a made-up person),
documentation values (a vendor's sample token, a validator's fake numbers, a list of test values
under a line that says so), code that computes a password instead of holding one, public service
numbers (toll-free and shared-cost hotlines), a number sequence, hosts on private network names,
an institution's hours. Each test here is a phrasing written for this file, with other values
than the set's; values that look like secrets are built at run time (``tests/test_layout.py``).
Each kind has a benign case and a private one that must still be found.
"""
from __future__ import annotations

import random
import string

import pytest

from memory_manager.privacy import scan


def _rand(n: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _kinds(text: str) -> set[str]:
    return {f.category for f in scan(text)}


# ---- a sensitive topic spoken of in general is knowledge, not a fact about someone ----

@pytest.mark.parametrize("line", [
    "pharmacists typically check kidney function before dosing metformin",
    "what is the difference between type 1 and type 2 diabetes?",
    "how do courts decide custody after a divorce",
    "prepare a quiz about world religions for the history class",
    "在小说里设定一个有赌债的反派",
    "科普：什么是抑郁症，通常怎么治疗",
    "律师一般怎么收取离婚案件的费用",
    "假如一个人失业了，社保怎么续",
])
def test_a_topic_in_general_is_not_flagged(line: str) -> None:
    assert scan(line) == []


@pytest.mark.parametrize("line, category", [
    ("my sister usually takes metformin after dinner", "health"),
    ("I typically see my therapist for depression on Fridays", "health"),
    ("我妈一般每周做两次透析", "health"),
    ("老公说他欠了赌债，通常瞒着我", "financial"),
    ("隔壁组的小王是穆斯林，一般不参加聚餐", "protected"),
])
def test_a_topic_about_someone_is_still_flagged_with_a_general_word(line: str, category: str) -> None:
    assert category in _kinds(line)


# ---- code that computes or fetches a password holds none ----

@pytest.mark.parametrize("line", [
    "def rotate_password(account_id: str, old_password: str) -> bool:",
    'pwd = keyring.get_password("smtp", user)',
    "db_password = %(PGPASS)s",
    '  MYSQL_PASSWORD: ${MYSQL_PASSWORD:?missing, see README}',
    '  admin_password: "CHANGE-ME"',
])
def test_a_password_expression_or_fill_in_word_is_not_a_secret(line: str) -> None:
    assert "secret" not in _kinds(line)


def test_a_literal_password_beside_an_expression_shape_is_still_found() -> None:
    value = _rand(6, 91) + "_" + _rand(4, 92, string.digits)
    assert "secret" in _kinds(f"password = {value}")
    assert "secret" in _kinds(f"  MYSQL_PASSWORD: ${{MYSQL_PASSWORD:-{value}}}")  # a default is a value
    assert "secret" in _kinds(f"邮箱密码：{value}（公司那台）")  # a full-width bracket after it is no call


# ---- documentation values ----

def test_a_vendor_sample_token_in_a_docs_line_is_not_a_secret() -> None:
    sample = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0." + _rand(20, 93)
    assert "secret" not in _kinds(f"the sample token from jwt.io looks like {sample}")


def test_a_random_key_the_line_says_comes_from_the_docs_is_not_a_secret() -> None:
    key = "-".join(_rand(5, 94 + i, string.ascii_uppercase + string.digits) for i in range(5))
    assert "secret" not in _kinds(f"generic setup key from the vendor docs: {key}")


def test_a_random_key_without_a_docs_source_is_still_a_secret() -> None:
    key = _rand(28, 99)
    assert "secret" in _kinds(f"api key for the staging box: {key}")


def test_fake_numbers_a_validator_rejects_are_documentation() -> None:
    assert "government_id" not in _kinds("our validator rejects 987-65-4321 and 111-11-1111 as invalid SSNs")


def test_test_cards_listed_under_a_docs_heading_are_not_cards() -> None:
    note = "Test card numbers from the acquirer's sandbox docs:\nVisa      4012 8888 8888 1881\nDiscover  6011 1111 1111 1117\n"
    assert "payment_card" not in _kinds(note)


def test_a_card_under_a_heading_that_is_not_about_docs_is_still_a_card() -> None:
    from tests.test_privacy_r8_families import _luhn

    card = _luhn("4539", 16, 95)
    grouped = " ".join(card[i:i + 4] for i in range(0, 16, 4))
    assert "payment_card" in _kinds(f"Cards for the trip:\nmine  {grouped}\n")


# ---- telephone numbers that are nobody's ----

@pytest.mark.parametrize("line", [
    "订餐热线 400-610-0521，节假日照常",
    "billing questions: call 1-888-467-2211",
    "the primes 2 3 5 7 11 13 17 19 23 29",
])
def test_service_numbers_and_sequences_are_not_phones(line: str) -> None:
    assert "phone" not in _kinds(line)


@pytest.mark.parametrize("line", [
    "我的手机 139 2617 4408",
    "her mobile is 090-3318-7765, call after six",
])
def test_a_personal_number_is_still_a_phone(line: str) -> None:
    assert "phone" in _kinds(line)


# ---- hosts on private network names and an institution's hours ----

@pytest.mark.parametrize("line", [
    "scp build.tar.gz release@artifacts.corp:/srv/drop",
    "git clone gitea@code.lan:infra/dns.git",
])
def test_a_login_on_a_private_network_name_is_not_an_email(line: str) -> None:
    assert "email" not in _kinds(line)


def test_a_real_mail_domain_is_still_an_email() -> None:
    assert "email" in _kinds("write to lin.qiao@proton.me about the lease")


def test_an_institutions_hours_are_not_a_persons_schedule() -> None:
    assert "schedule" not in _kinds("社区医院挂号时间 7:30-11:00，下午 13:30-16:00")


# ---- multi-line notes: a value on the line after its label, a heading that says what follows ----

@pytest.mark.parametrize("label", ["pw", "Password", "密码：", "口令"])
def test_a_password_alone_on_the_line_after_its_label_is_found(label: str) -> None:
    value = _rand(5, 101) + "=" + _rand(4, 102) + "!" + _rand(3, 103, string.digits)  # holds a '=': no key=value
    note = f"NAS 管理员\nuser: root\n{label}\n  {value}\nrotate after the audit\n"
    assert "secret" in _kinds(note)


def test_key_lines_after_a_password_label_are_keys_not_values() -> None:
    note = "[auth]\npassword:\nmin_length = 12\nmax_age_days = 90\n"
    assert "secret" not in _kinds(note)


def test_a_fingerprint_under_a_key_listing_is_the_keys() -> None:
    note = ("$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:" + _rand(43, 104) + " ops@build (ED25519)\n"
            "fingerprint matches the one on the server\n")
    assert "biometric" not in _kinds(note)


def test_a_persons_fingerprint_is_still_biometric() -> None:
    assert "biometric" in _kinds("my fingerprint no longer unlocks the door after the burn")


def test_a_docs_sample_key_cut_over_lines_under_a_docs_heading_is_not_a_secret() -> None:
    note = "Stripe docs 示例 key（公开的）：\nsk_test_4eC39HqLy\njWDarjtT1zdp7dc\n"
    assert "secret" not in _kinds(note)


def test_a_live_key_cut_over_lines_is_still_a_secret() -> None:
    key = "sk_live_" + _rand(24, 105)
    assert "secret" in _kinds(f"prod billing key:\n{key[:14]}\n{key[14:]}\n")


def test_a_made_up_number_under_a_docs_heading_is_not_a_phone() -> None:
    assert "phone" not in _kinds("Phone field examples from the form docs:\n0161 234 5678\n")


def test_a_notice_to_whoever_it_concerns_is_not_about_a_person() -> None:
    assert _kinds("下周体检通知：\n有高血压的同学请空腹前往，带上病历。\n") == set()
    assert "health" in _kinds("下周体检：\n我有高血压，得空腹去。\n")


# ---- misses by kind: one-time and pickup codes handed over, device IDs, accounts, regrouped cards ----

def test_a_code_to_be_used_on_the_users_behalf_is_a_secret() -> None:
    code = _rand(6, 111, string.digits)
    assert "secret" in _kinds(f"短信验证码{code}，帮我登录一下医保app")
    assert "secret" in _kinds(f"use this login code {code} to sign in for me")


def test_a_parcel_pickup_code_handed_over_is_a_secret() -> None:
    code = _rand(8, 112, string.digits)
    assert "secret" in _kinds(f"菜鸟柜取件码 {code}，你帮我取一下")
    assert "secret" not in _kinds(f"取件码 {code} 已过期，重新申请")


def _luhn15(prefix: str, seed: int) -> str:
    from tests.test_privacy_r8_families import _luhn

    return _luhn(prefix, 15, seed)


def test_an_imei_of_someones_phone_is_an_identifier() -> None:
    imei = _luhn15("35", 113)
    assert "government_id" in _kinds(f"老婆的手机被偷了，IMEI号 {imei}")
    assert "government_id" in _kinds(f"my handset's IMEI is {imei}, the carrier wants it")


def test_an_imei_of_a_test_unit_or_a_docs_example_is_not() -> None:
    imei = _luhn15("35", 114)
    assert "government_id" not in _kinds(f"lab test unit IMEI {imei} stays in the rack")
    assert "government_id" not in _kinds(f"example IMEI {imei} from the format docs")


def test_a_sort_code_with_its_account_number_is_a_bank_account() -> None:
    account = _rand(8, 115, string.digits)
    assert "bank_account" in _kinds(f"pay the deposit to sort code 20-45-77, account {account}")


def test_a_grouped_iban_followed_by_its_bic_is_found() -> None:
    from stdnum import iban as std_iban

    bban = "DE" + "00" + "5001" + "0517" + _rand(10, 116, string.digits)
    check = 98 - int("".join(str(int(c, 36)) for c in bban[4:] + bban[:2]) + "00") % 97
    value = bban[:2] + f"{check:02d}" + bban[4:]
    assert std_iban.is_valid(value, check_country=False)
    grouped = " ".join(value[i:i + 4] for i in range(0, len(value), 4))
    assert "bank_account" in _kinds(f"IBAN {grouped} BIC INGDDEFF")


def test_a_card_grouped_in_fives_with_a_card_word_is_a_card() -> None:
    from tests.test_privacy_r8_families import _luhn

    card = _luhn("37", 15, 117)
    assert "payment_card" in _kinds(f"my amex card {card[:5]} {card[5:10]} {card[10:]} expires soon")
    assert "payment_card" not in _kinds(f"row counts {card[:5]} {card[5:10]} {card[10:]} per shard")


def test_an_address_spelt_out_with_a_hint_to_put_the_at_back_is_an_email() -> None:
    assert "email" in _kinds("jmarlowe at protonmail.com（at 改成 @）")


def test_a_handle_after_a_platform_short_name_is_a_handle() -> None:
    assert "handle" in _kinds("find me on insta @lena.bakes_77")
    assert "handle" in _kinds("gitlab.com/weiqiang_dev 是我的号")


def test_password_contraction_is_a_connector() -> None:
    value = _rand(5, 118) + "#" + _rand(3, 119, string.digits)
    assert "secret" in _kinds(f"the router password's {value} now")


# ---- sensitive topics: typed apostrophes, the user saying it of themselves, compound words ----

@pytest.mark.parametrize("line, category", [
    ("my uncle was diagnosed with Parkinson\u2019s last spring", "health"),
    ("my landlord is a Jehovah\u2019s Witness, no visits on Sundays", "protected"),
    ("she joined the teachers\u2019 union last month", "protected"),
])
def test_a_typographic_apostrophe_reads_as_an_apostrophe(line: str, category: str) -> None:
    assert category in _kinds(line)


def test_the_user_saying_it_of_themselves_counts_beside_a_technical_word() -> None:
    assert "health" in _kinds("我是糖尿病患者，这个系统的提醒功能帮了我")
    assert "protected" in _kinds("I'm a Muslim, so the canteen feature that hides pork helps")
    assert scan("我是做糖尿病风险预测模型的，AUC 0.88") == []


def test_the_users_own_body_beside_a_technical_word_is_about_them() -> None:
    assert "health" in _kinds("my right ear has hearing loss, please raise the app's audio")


def test_a_technical_word_inside_a_longer_word_does_not_excuse_a_topic() -> None:
    assert "protected" in _kinds("I joined the union at work and sit on its strike committee")
    assert "health" in _kinds("我妈体检说肾功能不太好")


@pytest.mark.parametrize("line, category", [
    ("我爸去年做了肝移植，一直在吃免疫抑制药", "health"),
    ("my partner tested positive for chlamydia", "health"),
    ("外婆术后第二天还在发烧", "health"),
    ("my mum lives on unemployment benefits since the factory closed", "financial"),
    ("我们家领低保好几年了", "financial"),
    ("my brother gambled away his savings", "financial"),
    ("我姐被列为失信人员，贷款批不下来", "financial"),
    ("I voted for the Tories and my partner doesn't know", "protected"),
])
def test_topic_word_families_about_a_person(line: str, category: str) -> None:
    assert category in _kinds(line)


@pytest.mark.parametrize("line", [
    "the child module inherits from the shared base config",
    "the clinic restocks flu vaccines every Friday",
    "the ethics committee meets on Tuesdays",
])
def test_topic_like_words_in_other_senses_are_not_topics(line: str) -> None:
    assert scan(line) == []


def test_a_person_named_by_an_institutions_role_keeps_their_schedule() -> None:
    assert "schedule" in _kinds("the store manager is alone in the back office every Sunday night")


# ---- names after a role, letters' sign-offs, game nicknames, cloud and phone home folders, empty homes ----

@pytest.mark.parametrize("line", [
    "出纳韩雨桐把发票退回来了",
    "5床患者苏慕白，明天出院",
    "带我的是董嘉禾，人挺好",
])
def test_a_full_name_after_a_role_word_is_a_name(line: str) -> None:
    assert "name" in _kinds(line)


@pytest.mark.parametrize("line", [
    "财务马上就打款",
    "主管高度评价这个方案",
    "前台高兴地说没问题",
])
def test_a_role_word_before_an_ordinary_phrase_is_not_a_name(line: str) -> None:
    assert "name" not in _kinds(line)


def test_a_letter_signed_after_ci_zhi_jing_li_with_a_space() -> None:
    assert "name" in _kinds("此致敬礼 柯思远 2025年3月")


def test_a_chinese_game_nickname_with_digits_is_a_handle() -> None:
    assert "handle" in _kinds("和平精英 ID：夜猫子2048，来组队")
    assert "handle" not in _kinds("和平精英 ID 在哪里看")


def test_a_onedrive_personal_site_is_a_home_folder() -> None:
    assert "home_path" in _kinds("https://fabrikam-my.sharepoint.com/personal/mei_lin_fabrikam_com/Documents/tax")


def test_android_user_storage_is_a_home_folder_only_when_the_line_says_whose() -> None:
    assert "home_path" in _kinds("/storage/emulated/0/Pictures/Screenshots 里是我的截图")
    assert "home_path" not in _kinds("logcat writes to /storage/emulated/0/Download/trace.txt")


def test_a_season_when_a_home_stands_empty_is_a_schedule() -> None:
    assert "schedule" in _kinds("每年暑假七月我们都去海边，家里没人")
    assert "schedule" not in _kinds("每年春节机房空着没人值守，服务器自动巡检")


@pytest.mark.parametrize("line", [
    "Priya usually skips her physiotherapy on Mondays",
    "Chen Jing usually takes metformin with breakfast",
])
def test_a_named_person_with_a_general_word_still_has_the_topic(line: str) -> None:
    assert "health" in _kinds(line)


@pytest.mark.parametrize("line", [
    "Depression is common among shift workers, studies estimate",
    "Nurses usually double-check insulin pens at handover",
])
def test_a_capitalised_topic_word_or_a_crowd_at_the_start_is_no_person(line: str) -> None:
    assert scan(line) == []
