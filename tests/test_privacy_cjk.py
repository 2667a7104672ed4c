"""E-mails, phones, IDs and keys right next to Chinese text (QA bug 2).

Python's Unicode ``\\b`` never falls between a CJK character and an ASCII
letter or digit, so the rules use ASCII lookarounds. Each case is checked in
the detector, then end to end through the scripts a user runs.
"""
from __future__ import annotations

import json
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import privacy_fakes as fakes  # noqa: E402

from memory_manager.privacy import scan  # noqa: E402

QA_CASES = [
    ("我的邮箱zhangsan@163.com", "email", "zhangsan@163.com"),
    ("联系我13912345678", "phone", "13912345678"),
    ("我的手机是13812345678", "phone", "13812345678"),
    ("老板手机18612345678", "phone", "18612345678"),
    ("手机13812345678", "phone", "13812345678"),
    ("邮箱zhang.san@gmail.com请查收", "email", "zhang.san@gmail.com"),
    ("联系邮箱：john.smith@gmail.com，谢谢", "email", "john.smith@gmail.com"),
    ("电话：+44 20 7946 0958，晚上打", "phone", "+44 20 7946 0958"),
    ("call me：+1 415-555-0132，after 6", "phone", "+1 415-555-0132"),
]


@pytest.mark.parametrize("text, category, value", QA_CASES)
def test_contact_data_next_to_cjk_is_found_with_its_exact_span(text, category, value):
    found = [f for f in scan(text) if f.category == category]
    assert len(found) == 1
    assert text[found[0].start:found[0].end].lower() == value.lower()


def test_passport_number_before_chinese_text():
    [found] = scan("护照号E12345678是新办的")
    assert (found.category, found.rule) == ("government_id", "id_document_number")
    assert "护照号E12345678是新办的"[found.start:found.end] == "护照号E12345678"


@pytest.mark.parametrize("name, before, after, rule", [
    ("GITHUB_PAT", "令牌", "别外传", "github_token"),
    ("AWS_ACCESS_KEY", "用这个", "登录", "aws_access_key_id"),
    ("HF_TOKEN", "模型令牌", "记下来", "huggingface_token"),
    ("NPM_TOKEN", "npm令牌", "已配置", "npm_token"),
    ("IBAN_DE", "账户IBAN：", "，转账用", "iban"),
    ("CN_ID", "身份证号", "是他的", "cn_resident_id"),
])
def test_keys_and_ids_between_cjk_characters(name, before, after, rule):
    value = fakes.fake(name, seed=5)
    text = before + value + after
    found = [f for f in scan(text) if f.rule == rule]
    assert [(f.start, f.end) for f in found] == [(len(before), len(before) + len(value))]


@pytest.mark.parametrize("text", ["版本号1.2.3已经发布", "订单号13812345678已发货", "这个提交3f9c2a1修好了测试",
                                  "每周三开会，地点待定"])
def test_benign_lines_next_to_cjk_stay_clean(text):
    assert scan(text) == []


PHONE = "13812345678"
EMAIL = "zhang.san@gmail.com"


@pytest.mark.parametrize("args", [
    ["write", "--topic", "联系", "--change", f"我的手机是{PHONE}"],
    ["write", "--topic", "联系", "--change", f"我的邮箱{EMAIL}"],
    ["learn", "contact", "--text", f"老板手机{PHONE}"],
    ["remember", "--skill", "crm", "--topic", "boss", "--text", f"联系我{PHONE}", "--scheme", "xor-b64"],
    ["stats", "pattern", "--trigger", f"邮箱{EMAIL}", "--skills", "mail"],
])
def test_store_verbs_refuse_cjk_adjacent_contact_data(ws, run_script, args):
    # Phone numbers and e-mail addresses are possible findings (privacy issue 9):
    # refused until the user approves, with the category and the flag named.
    # A T1 value is public (gate rule 0, issue 10): refused outright, no flag stores it.
    r = run_script("memory", *args, "--json")
    assert r.code == 1, r.err
    doc = json.loads(r.out)
    if args[0] == "stats":
        assert doc["kind"] == "gate" and doc["gate"]["recommended_action"] == "refuse"
        assert "names and public values are stored as plain text" in doc["error"] and "email" in doc["error"]
    else:
        assert doc["kind"] == "gate" and doc["gate"]["recommended_action"] == "request_approval"
        assert "--approved" in doc["error"] and ("phone" in doc["error"] or "email" in doc["error"])
    assert PHONE not in r.out + r.err and EMAIL not in r.out + r.err
    memory = ws / "memory"
    stored = [p for p in memory.rglob("*") if p.is_file() and ".state" not in p.parts] if memory.exists() else []
    assert all(PHONE not in p.read_text(encoding="utf-8", errors="replace") for p in stored)


def test_gate_refuses_a_phone_after_chinese(ws, run_script):
    r = run_script("gate", "--operation", "store", "--text", f"手机{PHONE}", "--json")
    assert r.code == 1
    doc = json.loads(r.out)
    assert doc["recommended_action"] == "request_approval" and doc["categories"] == ["phone"]
    assert PHONE not in r.out


def test_privacy_audit_finds_cjk_adjacent_contact_data(ws, run_script):
    (ws / "memory/daily").mkdir(parents=True)
    (ws / "memory/daily/2026-03-03.md").write_text(
        f"## [2026-03-03] 联系\n- 改：我的邮箱{EMAIL}\n- 改：联系我13912345678\n", encoding="utf-8")
    r = run_script("privacy_audit", "--json")
    assert r.code == 1, r.err
    doc = json.loads(r.out)
    assert doc["clean"] is False
    assert sorted(f["category"] for f in doc["findings"]) == ["email", "phone"]


def test_cleanup_quarantines_a_t2_entry_with_a_phone_after_chinese(ws, run_script):
    from datetime import date

    from test_cleanup import t2

    (ws / "memory" / "tier2-internal").mkdir(parents=True)
    path = t2(ws, "crm", "boss", "老板手机18612345678", date(2026, 11, 20))
    r = run_script("cleanup", "--json", env={"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"})
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    # A phone number is a *possible* finding: quarantined, never destroyed (issue 10).
    assert doc["deleted"] == 0 and doc["quarantined"] == 1 and not path.exists()
    assert [a["step"] for a in doc["actions"]] == ["quarantine"]
    assert "18612345678" not in r.out
