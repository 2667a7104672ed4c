"""A certain value glued to a Latin label is found; its benign neighbours are not (tatk16 2).

A value whose own checksum (GB 11643 resident ID, ISO 13616 IBAN) or published prefix (OpenAI
``sk-proj-``) makes it certain is a finding even with a label glued to it (``sfz…``, ``idno…``,
``ibanGB33…``, ``openaisk-proj-…``). Letters mixed with digits before it (a hash, a UUID, Base64,
a build id), a number whose check digit is wrong and words that merely start like a label
(``idle``, ``ibanez``, ``openair``, ``risk-proj-…``) give no finding. Values are built at run time.

tatk17 1 and 5: the label's length is no guard (``residentidnumber…``, ``…isthenumberofmine``,
``mynricnumberS…``, ``openai_sk-proj-…``), an ID word after digits is a label (``v2id…``), and every
ID kind inside a URL (query value, path segment, fragment) is the finding it is alone, on an RFC 2606
host too: a host name is not a line's word about its value (``privacy._prose``).
"""
from __future__ import annotations

import base64

import pytest

from memory_manager.privacy import scan


def _cn_id(body17: str) -> str:
    """A mainland resident ID number with its GB 11643 check character."""
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body17 + "10X98765432"[sum(int(a) * b for a, b in zip(body17, weights)) % 11]


CN_ID = _cn_id("3101151985" + "1023456")
CN_ID_X = _cn_id("4403041990" + "0307123")
#: The same number with a wrong check digit: an order number of the same length.
NOT_ID = CN_ID[:-1] + str((int(CN_ID[-1]) + 1) % 10)
IBAN = "GB33" + "BUKB" + "20201555555555"
IBAN_DE = "DE89" + "3704" + "0044" + "0532" + "0130" + "00"
BAD_IBAN = "GB34" + "BUKB" + "20201555555555"
KEY_BODY = "Qm7Rt2Vx9Kp3Ln8Zs5Wc1Hd4Ab6Ef0Gh2Jk4Lm6" * 2 + "T3BlbkFJ" + "Qm7Rt2Vx9Kp3Ln8Zs5Wc1Hd4Ab6Ef0Gh2"
OPENAI = "sk-" + "proj-" + KEY_BODY


#: Letter-led IDs with a valid check character (not the published specimens).
TW_ID = "B1427" + "18063"
HK_ID = "K765432" + "(4)"
NRIC = "T0312" + "345B"
NINO = "AB12" + "3456C"
SSN = "123-45" + "-6789"


def _kinds(text: str) -> set[str]:
    return {f.category for f in scan(text) if f.confidence == "certain"}


def _certain(text: str) -> set[tuple[str, str]]:
    """(category, confidence) of each certain finding."""
    return {(f.category, f.confidence) for f in scan(text) if f.confidence == "certain"}


@pytest.mark.parametrize("text, category", [
    (f"sfz{CN_ID}", "government_id"),
    (f"my id{CN_ID}", "government_id"),
    (f"idno{CN_ID}", "government_id"),
    (f"idcard{CN_ID_X}", "government_id"),
    (f"ID{CN_ID}号", "government_id"),
    (f"2026-11-27-id{CN_ID}", "government_id"),
    (f"id{CN_ID}abc", "government_id"),
    (f"{CN_ID}hao", "government_id"),
    ("iban" + IBAN, "bank_account"),
    ("IBAN" + IBAN_DE, "bank_account"),
    ("iban" + IBAN + "please", "bank_account"),
    ("openai" + OPENAI, "secret"),
    ("key" + OPENAI, "secret"),
    ("openai" + "sk-" + KEY_BODY[:20] + "T3BlbkFJ" + KEY_BODY[:20], "secret"),
    # letter-led IDs with one check character: after an ID word only
    ("nric" + "S1234567D", "government_id"),
    ("id" + "A123456789", "government_id"),
    ("myid" + "A123456789", "government_id"),
    ("hkid" + "A123456(3)", "government_id"),
])
def test_a_certain_value_glued_to_a_label_is_found(text, category):
    assert category in _kinds(text), scan(text)


@pytest.mark.parametrize("text, category", [
    # tatk17 1: labels longer than 12 letters, before or after the value
    (f"residentidnumber{CN_ID}", "government_id"),
    (f"nationalidentitynumber{CN_ID}", "government_id"),
    (f"{CN_ID}isthenumberofmine", "government_id"),
    # the same written in groups (6-8-4)
    (f"sfz{CN_ID[:6]} {CN_ID[6:14]} {CN_ID[14:]}", "government_id"),
    (f"residentidnumber{CN_ID[:6]}-{CN_ID[6:14]}-{CN_ID[14:]}", "government_id"),
    (f"{CN_ID[:6]}-{CN_ID[6:14]}-{CN_ID[14:]}isthenumber", "government_id"),
    ("bankaccountnumber" + IBAN, "bank_account"),
    ("mybankaccountibanis" + IBAN, "bank_account"),
    (IBAN + "isthebankaccountofmine", "bank_account"),
    ("myopenaiapikeyis" + OPENAI, "secret"),
    # a label written in snake case
    ("openai_" + OPENAI, "secret"),
    ("openai_api_key_" + OPENAI, "secret"),
    ("iban_" + IBAN, "bank_account"),
    ("my_id_number_" + NRIC, "government_id"),
    # an ID word after digits
    (f"v2id{CN_ID}", "government_id"),
    # letter-led IDs after a long ID label
    ("idnumber" + TW_ID, "government_id"),
    ("yourtaiwanidnumber" + TW_ID, "government_id"),
    ("mynricnumber" + NRIC, "government_id"),
    ("mynricis" + NRIC, "government_id"),
    ("myhkidnumber" + HK_ID, "government_id"),
    ("identitycardno" + HK_ID, "government_id"),
    ("mynationalinsurancenumber" + NINO, "government_id"),
    # Chinese labels glued
    (f"身份证号码{CN_ID}", "government_id"),
    ("身分證字號" + TW_ID, "government_id"),
    ("香港身份證號碼" + HK_ID, "government_id"),
    ("我的NRIC号码" + NRIC, "government_id"),
    ("银行账号" + IBAN, "bank_account"),
    ("openai密钥" + OPENAI, "secret"),
])
def test_a_certain_value_glued_to_a_long_label_is_found(text, category):
    assert category in _kinds(text), scan(text)


@pytest.mark.parametrize("value", [CN_ID, IBAN, TW_ID, HK_ID, NRIC, NINO])
@pytest.mark.parametrize("where", [
    "https://x.example/u?id={}&t=1",      # a query value, on an RFC 2606 host
    "https://gov.example.cn/check?idcard={}",
    "https://x.example/users/{}/",        # a path segment
    "https://x.example/p#ref={}",         # a fragment
    "x.example/u?v={}",                   # no scheme
    "https://portal.bank.com/a/{}",
])
def test_an_id_inside_a_url_is_the_finding_it_is_alone(value, where):
    """tatk17 5: same category, same certainty as the value alone."""
    alone = _certain(f"note {value}")
    assert alone, scan(f"note {value}")
    assert _certain("the link " + where.format(value)) == alone, scan("the link " + where.format(value))


@pytest.mark.parametrize("url", ["https://x.example/?ssn=" + SSN, "https://x.example/p#ssn=" + SSN])
def test_an_ssn_after_its_url_label_is_found(url):
    assert _certain(url) == _certain(f"ssn {SSN}") == {("government_id", "certain")}


@pytest.mark.parametrize("text", [
    # a published specimen or made-up digits on a line whose words call it a sample: documentation still
    "example ID: 11010519491231002X",
    "sample SSN 078-05-1120 from https://x.example/ssn",
    f"docs: https://x.example/check?idcard={CN_ID}",
    # a long label with a wrong check digit, a bad IBAN
    f"residentidnumber{NOT_ID}",
    f"order{NOT_ID[:6]}-{NOT_ID[6:14]}-{NOT_ID[14:]}",
    f"build v2r{CN_ID[:6]} {CN_ID[6:14]} {CN_ID[14:]}",
    "bankaccountnumber" + BAD_IBAN,
    "yourtaiwanidnumber" + TW_ID[:-1] + str((int(TW_ID[-1]) + 1) % 10),
    # words that merely end like an ID label, letters after digits that are no ID word
    "paid" + TW_ID,
    "android" + NRIC,
    "omni" + NINO,
    "commit3f9a" + CN_ID,
    "x9idnumber" + TW_ID,
])
def test_a_long_or_url_neighbour_gives_no_certain_finding(text):
    assert _kinds(text) == set(), scan(text)


def _hex(n: int, seed: str) -> str:
    import hashlib
    out = ""
    while len(out) < n:
        out += hashlib.sha256((seed + str(len(out))).encode()).hexdigest()
    return out[:n]


@pytest.mark.parametrize("text", [
    # hex digests holding the ID's digits: letters only before them, or letters and digits mixed
    "deadbeef" + CN_ID + _hex(64 - 8 - 18, "a").replace("0", "c"),
    "sha1 " + "cafe" + CN_ID + "abcdefabcdefabcdef",
    "commit 3f9a" + CN_ID + "e1",
    # a UUID, Base64 blobs and build ids with the same digits inside
    "request 9b2e4c1a-77f0-4d2b-9a31-" + "c0ffee" + "123456",
    "blob " + base64.b64encode(b"\x8f\x01zz" + CN_ID.encode()).decode() + "Qx9" + CN_ID,
    "build b7c9x" + CN_ID,
    "artifact v2r" + CN_ID + "k",
    # the same shapes without a valid check digit or mod-97
    f"order{NOT_ID}",
    f"sfz{NOT_ID}",
    f"txn{NOT_ID}x",
    "iban" + BAD_IBAN,
    "XJ9" + IBAN,
    "build" + BAD_IBAN,
    # words that start like a label, and an English word ending in -sk before sk-proj-
    "the worker was idle for a while",
    "an ibanez guitar at the openair festival",
    "ticket risk" + "-proj-Alpha2024Budget_Review_Q3_final_version_v2_draft_Notes",
    "see task" + "-admin-Queue2024Worker_Config_Values_for_staging_and_prod_v3",
    "desk" + "-proj-" + KEY_BODY,
    # a letter-led ID's shape glued to a word that is not an ID word, or to letters after digits
    "build" + "A123456789",
    "server" + "S1234567D",
    "music" + "S1234567D",
    "x9id" + "A123456789",
])
def test_a_benign_neighbour_gives_no_certain_finding(text):
    assert _kinds(text) == set(), scan(text)


def test_the_privacy_audit_finds_each_glued_value_in_a_note_and_in_a_file_name(ws, run_script):
    """The audit reads notes and file names with the same detector as the write doors."""
    import json

    env = {"MEMORY_MANAGER_NOW": "2026-11-28T09:00:00+00:00"}
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env)
    assert r.code == 0, r.err
    daily = ws / "memory/daily"
    daily.mkdir(parents=True, exist_ok=True)
    (daily / "2026-11-28.md").write_text(
        f"# 2026-11-28\n\n## pay\n\n- Change: ibanGB33BUKB20201555555555 and openai{OPENAI}\n", encoding="utf-8")
    (ws / "memory" / f"2026-11-27-sfz{CN_ID}.md").write_text("# notes\nan ordinary note\n", encoding="utf-8")
    audit = run_script("privacy_audit", "--json", env=env)
    assert audit.code == 1, audit.err
    found = {(f["file"].split("/")[-1][:14], f["rule"]) for f in json.loads(audit.out)["findings"]}
    assert ("2026-11-28.md", "iban_glued") in found, found
    assert ("2026-11-28.md", "openai_key_glued") in found, found
    assert any(name.startswith("2026-11-27-sfz") and rule.startswith("cn_resident_id") for name, rule in found), found
