"""The detector: every category with true and false positives, redaction, ciphertext, the rule table.

Fake secrets are generated at run time (bench/privacy_fakes.py) so that no
file in the bundle looks like it leaks one.
"""
from __future__ import annotations

import random
import re
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import privacy_fakes as fakes  # noqa: E402

from memory_manager import privacy  # noqa: E402
from memory_manager.privacy import CATEGORIES, RULES, Finding, redact, scan  # noqa: E402


def F(name: str, seed: int = 1) -> str:
    return fakes.fake(name, seed)


def categories(text: str) -> set[str]:
    return {f.category for f in scan(text)}


# (category, line) pairs that must be found. Templates are filled at run time.
POSITIVES = [
    ("secret", "OPENAI_API_KEY={OPENAI_KEY}"),
    ("secret", "key {OPENAI_PROJ_KEY}"),
    ("secret", "ANTHROPIC_API_KEY={ANTHROPIC_KEY}"),
    ("secret", "token {GITHUB_PAT}"),
    ("secret", "{GITHUB_FINE_PAT}"),
    ("secret", "{GITLAB_PAT}"),
    ("secret", "aws {AWS_ACCESS_KEY}"),
    ("secret", "aws_secret_access_key = {AWS_SECRET}"),
    ("secret", "maps {GOOGLE_API_KEY}"),
    ("secret", "{SLACK_BOT_TOKEN}"),
    ("secret", "hook {SLACK_WEBHOOK}"),
    ("secret", "{STRIPE_SECRET}"),
    ("secret", "{HF_TOKEN}"),
    ("secret", "Authorization: Bearer {JWT}"),
    ("secret", "{PRIVATE_KEY_HEADER}"),
    ("secret", "{OPENSSH_KEY_HEADER}"),
    ("secret", "bot {TELEGRAM_TOKEN}"),
    ("secret", "{DISCORD_WEBHOOK}"),
    ("secret", "{SENDGRID_KEY}"),
    ("secret", "{NPM_TOKEN}"),
    ("secret", "{PYPI_TOKEN}"),
    ("secret", "{TWILIO_KEY}"),
    ("secret", "{ALIYUN_KEY}"),
    ("secret", "{GROQ_KEY}"),
    ("secret", "postgres://admin:{PASSWORD}@db.internal:5432/app"),
    ("secret", "password={PASSWORD}"),
    ("secret", "pin password=12345678"),
    ("secret", "the wifi password is {PASSWORD}"),
    ("secret", "登录密码是 {PASSWORD}"),
    ("secret", "client_secret = \"{B64_SECRET}\""),
    ("secret", "api_token: {HEX_SECRET}"),
    ("government_id", "身份证号 {CN_ID}"),
    ("government_id", "{CN_ID}"),
    ("government_id", "SSN {SSN}"),
    ("government_id", "Aadhaar {AADHAAR}"),
    ("government_id", "passport number E12345678"),
    ("payment_card", "card {CARD_VISA}"),
    ("payment_card", "{CARD_MC_SPACED}"),
    ("payment_card", "amex {CARD_AMEX_SPACED}"),
    ("payment_card", "银联 {CARD_UNIONPAY}"),
    ("payment_card", "{CARD_JCB}"),
    ("bank_account", "IBAN {IBAN_DE}"),
    ("bank_account", "{IBAN_GB_SPACED}"),
    ("bank_account", "银行账号 6217000010012345678"),
    ("email", "mail zhang.wei1988@gmail.com"),
    ("email", "邮箱：li_na@qq.com"),
    ("phone", "手机 13800138000"),
    ("phone", "call +1 415-555-0132"),
    ("phone", "电话 010-62345678"),
    ("phone", "+44 7700 900123"),
    ("address", "221B Baker Street, London"),
    ("address", "北京市朝阳区建国路88号"),
    ("address", "3号楼2单元501室"),
    ("address", "P.O. Box 1234"),
    ("home_path", "/home/zhangwei/.config"),
    ("home_path", "/Users/marysmith/Documents"),
    ("home_path", r"C:\Users\LiLei\Desktop"),
    ("schedule", "wakes up at 6am"),
    ("schedule", "gym at 06:30"),
    ("schedule", "每天早上6点起床"),
    ("schedule", "晚上九点半下班"),
    ("name", "my name is John Smith"),
    ("name", "我叫李明"),
    ("name", "姓名：刘洋"),
    ("handle", "ping @dave_ops on slack"),
    ("handle", "follow @dave_ops on Twitter for the deploy notes"),
    ("handle", "微博 @小明同学"),
    ("handle", "username: marysmith42"),
    ("health", "diagnosed with diabetes"),
    ("health", "我有抑郁症"),
    ("legal", "going through a divorce"),
    ("legal", "正在打官司"),
    ("financial", "my salary is 35k"),
    ("financial", "房贷每月还8000"),
    ("biometric", "fingerprint scan for the door"),
    ("biometric", "录了人脸识别"),
    ("minor", "my daughter is 8 years old"),
    ("minor", "我女儿12岁"),
    ("protected", "she is Muslim"),
    ("protected", "是党员"),
]

NEGATIVES = [
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "request 550e8400-e29b-41d4-a716-446655440000",
    "trace_id: 550e8400-e29b-41d4-a716-446655440000",
    "released 2026-03-01T14:05:33Z",
    "[2026-11-29 19:08:11,204] INFO",
    "listening on port 8080",
    "docker run -p 5432:5432 postgres",
    "host 192.168.1.1 and 10.0.0.12",
    "numpy 1.26.4 and Chrome/124.0.6367.91",
    "order #20260301123456",
    "订单号 202603011234567890",
    "ISBN 978-3-16-148410-0",
    "export OPENAI_API_KEY=sk-xxxx",
    "set the key to <your key>",
    "api_key: YOUR_API_KEY_HERE",
    "token = \"${GITHUB_TOKEN}\"",
    "password: ********",
    "password policy: at least 12 characters",
    "password_min_length = 12",
    "postgres://user:password@localhost/app",
    "you@example.com and test@foo.test",
    "git clone git@github.com:acme/tools.git",
    "/home/user/project and /home/runner/work",
    r"C:\Users\Public\Documents",
    "/Users/<name>/Library",
    "cron 0 6 * * *",
    "ratio 16:9",
    "三点建议",
    "@dataclass(frozen=True)",
    "    @cached",
    "npm install @types/node",
    "the @here mention",
    "Lives in Beijing",
    "用户住在杭州",
    "公司在深圳南山区",
    "fixed a minor typo",
    "race condition fixed",
    "health check endpoint",
    "diagnose the build failure",
    "SSH key fingerprint SHA256:abc",
    "the child process exits",
    "email notifications disabled",
    "loan calculator feature (demo data)",
    "biometric login is out of scope",
    "rename the function; the name field is required",
    "call me back later",
    "the court component renders the basketball court",
    "legal review of the MIT license is done",
    "account settings page redesigned",
    "不要把身份证号写进记忆",
    "SSN-shaped 000-12-3456 is never issued",
    "the wheel is 9 inches",
    "第3点需要再讨论",
    "PWD=/srv/app/current",
    "pwd: 12",
]

#: category -> a benign line that comes close to that category's rules.
NEAR_MISSES = {
    "secret": "token_ttl_seconds = 3600 and secret_name: prod-db-credentials",
    "government_id": "ticket 110105194912310021 is an order id with a wrong check digit",
    "payment_card": "tracking 4111 1111 1111 1112",
    "bank_account": "IBAN DE00370400440532013000 is a typo",
    "email": "noreply@github.com sent the build",
    "phone": "build 20260301.4 took 12.5 s",
    "address": "Main Street Cafe is a wiki page name",
    "home_path": "/home/ubuntu/.bashrc on the CI box",
    "schedule": "[2026-03-01 08:30:00] job started",
    "name": "her name isn't needed",
    "handle": "@staticmethod",
    "health": "diagnose the flaky health check",
    "legal": "the bail-out path in the parser",
    "financial": "balance the shards across nodes",
    "biometric": "host key fingerprint SHA256:abc",
    "minor": "minor version bump",
    "protected": "protected branch rules",
}


@pytest.mark.parametrize("category,template", POSITIVES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(POSITIVES)])
def test_true_positive(category, template):
    line = fakes.fill(template, random.Random(7))
    found = scan(line)
    assert category in {f.category for f in found}, (line, found)


@pytest.mark.parametrize("line", NEGATIVES)
def test_false_positive(line):
    assert scan(line) == []


@pytest.mark.parametrize("category", sorted(NEAR_MISSES))
def test_near_miss_per_category(category):
    assert scan(NEAR_MISSES[category]) == []


def test_every_category_has_true_positive_and_near_miss_cases():
    assert set(NEAR_MISSES) == set(CATEGORIES)


def test_every_category_has_true_positive_cases():
    assert {c for c, _ in POSITIVES} == set(CATEGORIES)


def test_finding_fields_line_offsets_and_gate_properties():
    key = F("OPENAI_KEY")
    text = f"first line\nsecond {key} here\n"
    [f] = scan(text)
    assert (f.category, f.rule, f.line, f.start, f.end) == ("secret", "openai_key", 2, 7, 7 + len(key))
    assert f.sensitivity == "credential" and f.tier3 is True
    [h] = scan("pick-up from kindergarten")
    assert (h.category, h.sensitivity, h.tier3) == ("minor", "protected", False)


@pytest.mark.parametrize("name", ["OPENAI_KEY", "GITHUB_PAT", "AWS_SECRET", "PASSWORD", "CN_ID", "CARD_VISA",
                                  "IBAN_DE", "JWT", "B64_SECRET"])
def test_excerpt_never_holds_the_secret(name):
    value = F(name)
    line = {"AWS_SECRET": f"aws_secret_access_key = {value}", "PASSWORD": f"password={value}",
            "B64_SECRET": f"client_secret={value}"}.get(name, f"x {value}")
    found = scan(line)
    assert found
    for f in found:
        assert value not in f.excerpt
        assert value[: len(value) // 2] not in f.excerpt


def test_redact_keeps_at_most_a_quarter_and_eight_stars():
    assert redact("13800138000") == "13********"
    assert redact("6am") == "***"
    assert redact("sk-" + "A" * 40) == "sk-A********"


def test_no_finding_spans_lines():
    assert scan("Baker\nStreet") == []
    assert [f.line for f in scan("ok\n\nme@gmail.com\r\nmore")] == [3]


def test_overlapping_rules_report_once():
    card = F("CARD_VISA_SPACED")
    found = scan(f"paid with {card}")
    assert [f.category for f in found] == ["payment_card"]


def test_ciphertext_of_t2_entries_is_not_a_finding():
    # A quoted Base64-alphabet line that happens to look like a token: under
    # an "Encrypted" heading it is the entry's ciphertext.
    tricky = F("GITHUB_PAT")
    entry = f"---\ntier: internal\n---\n\n## Encrypted Entry\n> {tricky}\n\n## Decryption Note\nsee docs\n"
    assert scan(entry) == []
    assert scan(f"ciphertext: {tricky}") == []
    # The same line outside an Encrypted section is scanned.
    assert categories(f"## Notes\n> {tricky}") == {"secret"}


def test_luhn_and_issuer_prefix_both_required():
    good = F("CARD_VISA")
    bad_check = good[:-1] + str((int(good[-1]) + 1) % 10)
    assert categories(f"card {good}") == {"payment_card"}
    assert "payment_card" not in categories(f"card {bad_check}")
    no_issuer = fakes.luhn_complete("9" + "1" * 14)  # 9 is no card network's prefix
    assert "payment_card" not in categories(f"card {no_issuer}")


def test_resident_id_needs_check_digit_and_real_birth_date():
    good = F("CN_ID")
    assert categories(good) == {"government_id"}
    wrong_check = good[:17] + ("0" if good[17] != "0" else "1")
    assert scan(wrong_check) == []
    future = good[:6] + "20990101" + good[14:]
    assert "government_id" not in categories(future)


def test_iban_checksum_required():
    good = F("IBAN_DE")
    bad = good[:2] + ("00" if good[2:4] != "00" else "01") + good[4:]
    assert categories(good) == {"bank_account"}
    assert scan(bad) == []


def test_scan_empty_and_plain_text():
    assert scan("") == []
    assert scan("The user prefers concise answers.\n用户喜欢简洁的回答。") == []


def test_rule_table_names_a_source_for_every_rule():
    assert len(RULES) >= 60
    for rule in RULES.values():
        assert rule.category in CATEGORIES
        assert len(rule.source) > 10, rule.name


def _top_level_alternatives(pattern: str) -> list[str]:
    out, depth, current, i = [], 0, "", 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            current += pattern[i:i + 2]
            i += 2
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "|" and depth == 0:
            out.append(current)
            current = ""
        else:
            current += ch
        i += 1
    return out + [current]


def _first_words(alternative: str) -> list[str]:
    """The possible first words of a keyword alternative (expanding one leading group)."""
    m = re.match(r"\(\?:([^()]*)\)(.*)", alternative)
    if m:
        return [re.sub(r"[^a-z0-9].*", "", a + m.group(2)) for a in m.group(1).split("|")]
    return [re.sub(r"[^a-z0-9].*", "", alternative)]


def test_topic_triggers_cover_every_english_keyword():
    for rule in privacy._TOPIC_EN:
        for alternative in _top_level_alternatives(rule.pattern.pattern):
            for word in _first_words(alternative):
                if word and word.isalpha():
                    assert word[:3] in privacy._TOPIC_EN_TRIGGERS, (rule.name, alternative)


def test_finding_is_frozen_dataclass():
    f = Finding("email", "email", 1, 0, 3, "a**")
    with pytest.raises(AttributeError):
        f.line = 2  # type: ignore[misc]


def test_importing_the_detector_and_audit_loads_no_third_party_module():
    # The per-turn path may import these: the standard library only at import time.
    import subprocess

    code = ("import sys; sys.path.insert(0, sys.argv[1]); import memory_manager.privacy, memory_manager.audit; "
            "print(sorted(m for m in ('phonenumbers', 'stdnum', 'click', 'rich', 'yaml', 'frontmatter') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
