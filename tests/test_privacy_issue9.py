"""Every example on the page of privacy issue 9, as the detector and the gate must treat it.

Three outcomes: *refused* (a certain finding: no flag stores it), *approval*
(a possible finding or a sensitive topic: refused until ``--approved``, then
stored), *stored* (a benign line: no finding, no notice). The detector
tests scan the line; the script tests push a sample of each outcome through
``memory.py write/learn/remember`` and look at every file afterwards.
"""
from __future__ import annotations

import json

import pytest

from memory_manager import gate
from memory_manager.privacy import CERTAIN, POSSIBLE, TOPIC, normalise, scan

CFG = {"gate": {"mode": "auto"}}

#: (line, category, confidence): refused always.
REFUSED = [
    ("跳板机的口令 Rt$7bastion", "secret", CERTAIN),
    ("家里路由器密码 mango2291home", "secret", CERTAIN),
    ("the password for the NAS is blue-otter-17", "secret", CERTAIN),
    ("my PIN is 7302", "secret", CERTAIN),
    ("user: ops / pass: K7!vn2q", "secret", CERTAIN),
    ("mysql -uroot -pS3cr3t!x shop", "secret", CERTAIN),
    ("redis-cli -h cache01 -a Qm4$zz81q ping", "secret", CERTAIN),
    ("docker login -u bot -p Lk92!xx0a registry.local", "secret", CERTAIN),
    ("docker login --username bot --password-stdin <<< 'Lk92!xx0a'", "secret", CERTAIN),
    ("requirepass Hv9%ee21kk", "secret", CERTAIN),
    ("machine ftp.corp.lan login backup password Wq8#ll20", "secret", CERTAIN),
    ("BT_TOKEN=access_token$production$7dwk8v2mgq4r9t3x$" + "3f" * 16, "secret", CERTAIN),
    ("square EAAA" + "l" + "Qx7Lm2Pq9Rt4Vw7Yz0Ab3Cd6Ef9Gh2Jk5Mn8Pq1St4Vw7Yz0Ab3Cd6Ef9Gh2Jk5M", "secret", CERTAIN),
    ("VAULT_TOKEN=hvs." + "CAESIJx8kLm2Pq9Rt4Vw7Yz0Ab3Cd6", "secret", CERTAIN),
    ("AGE-SECRET-KEY-1" + "QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQY", "secret", CERTAIN),
    ("PMAK-" + "0123456789abcdef01234567-" + "0123456789abcdef0123456789abcdef01", "secret", CERTAIN),
    ("lin_api_" + "Ab3Cd6Ef9Gh2Jk5Mn8Pq1St4Vw7Yz0Ab3Cd6Ef9G", "secret", CERTAIN),
    ("dckr_pat_" + "Ab3Cd6Ef9Gh2Jk5Mn8Pq1St4Vw7", "secret", CERTAIN),
    ("千帆 bce-v3/ALTAK-" + "Ab3Cd6Ef9Gh2Jk5Mn8Pq/" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4", "secret", CERTAIN),
    ("智谱 " + "0f1e2d3c4b5a69788796a5b4c3d2e1f0.Ab3Cd5Ef7Gh9Ij1K", "secret", CERTAIN),
    ("ARK_API_KEY=8a7b6c5d-4e3f-2a1b-9c8d-7e6f5a4b3c2d", "secret", CERTAIN),
    ("公众号 AppID wx1234567890abcdef AppSecret 9f86d081884c7d659a2feaa0c55ad015", "secret", CERTAIN),
    ("飞书 app_id cli_a1b2c3d4e5f60718 app_secret: Xk8dH2mQ9pL4sT7vB1nC6zR3wY5jF0gA", "secret", CERTAIN),
    ("https://open.feishu.cn/open-apis/bot/v2/hook/3c2a1b9e-8f7d-4c6b-a5e4-d3c2b1a09f8e", "secret", CERTAIN),
    ("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=8a7b6c5d-4e3f-2a1b-9c8d-7e6f5a4b3c2d", "secret", CERTAIN),
    ("https://oapi.dingtalk.com/robot/send?access_token=" + "9f8e7d6c5b4a3928" * 4, "secret", CERTAIN),
    ("钉钉加签 SEC" + "0a1b2c3d4e5f6789" * 4, "secret", CERTAIN),
    ("private key: MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7", "secret", CERTAIN),
    ("PuTTY-User-Key-File-3: ssh-ed25519", "secret", CERTAIN),
    ("wallet private key 4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "secret", CERTAIN),
    ("内部服务秘钥：Qz8vN3kL7pR2tW5yB9mC4xH6jF1gD0sA", "secret", CERTAIN),
    ("the signing token is 7Hq2pL9xZ4mN8vB3kR6tW1yC5", "secret", CERTAIN),
    ("NRIC S1234567D", "government_id", CERTAIN),
    ("台湾身分证 A123456789", "government_id", CERTAIN),
    ("HKID A123456(3)", "government_id", CERTAIN),
    ("National Insurance number AB 12 34 56 C", "government_id", CERTAIN),
    ("银联卡 6212 2411 1956 2336 273", "payment_card", CERTAIN),
    ("card 4539/1488/0343/6467", "payment_card", CERTAIN),
    ("ref4539148803436467", "payment_card", CERTAIN),
    ("手机号 １５８\u200b１２３４\u3000５６７８ 的主人的卡 ４５３９ １４８８ ０３４３ ６４６７", "payment_card", CERTAIN),
]

#: (line, category, confidence): refused unless the user approves.
APPROVAL = [
    ("手机号 １５８１２３４\u200b５６７８", "phone", POSSIBLE),
    ("C:\\Users\\Zhang Wei\\Documents\\plan.docx", "home_path", POSSIBLE),
    ("cd /mnt/c/Users/haozhou/Projects", "home_path", POSSIBLE),
    ("\\\\wsl$\\Ubuntu\\home\\chenjing\\code", "home_path", POSSIBLE),
    ("我的QQ号是 2837461950", "handle", POSSIBLE),
    ("微信号 leo_zhang1990", "handle", POSSIBLE),
    ("抖音号 xiaoyu_dance77", "handle", POSSIBLE),
    ("小红书号 94827361052", "handle", POSSIBLE),
    ("my Instagram is @sunny.days_92", "handle", POSSIBLE),
    ("他的 GitHub 账号 chen-haoran-88", "handle", POSSIBLE),
    ("my full name is Eleanor Whitcombe", "name", POSSIBLE),
    ("我叫王建华", "name", POSSIBLE),
    ("新同事名字是欧阳子涵", "name", POSSIBLE),
    ("房东刘桂芳说押金下个月退", "name", POSSIBLE),
    ("家住朝阳区建国路 88 号 5 号楼 1201 室", "address", POSSIBLE),
    ("home GPS: 31.204813, 121.437562", "address", POSSIBLE),
    ("her kids are alone at home every Tuesday evening", "schedule", POSSIBLE),
    ("我老公每周一三五上夜班，晚上就我和孩子在家", "schedule", POSSIBLE),
    ("我妈妈有糖尿病", "health", TOPIC),
    ("他有焦虑症", "health", TOPIC),
    ("Sam is bipolar", "health", TOPIC),
    ("my 23andMe DNA results came back", "biometric", TOPIC),
    ("女儿今年 8 岁，在实验小学二年级", "minor", TOPIC),
    ("she is a practising Muslim", "protected", TOPIC),
    ("he was arrested for DUI last month", "legal", TOPIC),
    ("my sister owes $40k on credit cards", "financial", TOPIC),
    ("把我老婆的人脸照片录进门禁系统了", "biometric", TOPIC),
]

#: Benign lines: no finding and no notice.
STORED = [
    "banner@3x.png and avatar@2x.webp are too large",
    "open UDP ports 20000-20099 for the media relay",
    "number 1234567 is not in any numbering plan",
    "下个月 20 号发布",
    "3 号机柜的交换机",
    "project name: Silver Lantern",
    "@release-crew please freeze main",
    "set SLACK_BOT_TOKEN=" + "xoxb-" + "your-token-here as in the docs",
    "-----BEGIN " + "PRIVATE KEY----- <your key here> -----END PRIVATE KEY-----",
    "0 3 * * * /usr/local/bin/backup.sh",
    "log rotation at 03:30 UTC",
    "sprint review every other Thursday at 15:00",
    "每周日凌晨 2 点跑全量备份",
    "we diagnosed a deadlock in the scheduler",
    "the Bluetooth GATT profile of the blood pressure meter",
    "Touch ID prompt text: Use Touch ID to unlock",
    "compliance checklist for the privacy law: health data and biometric data are special categories",
    "表单字段：婚姻状况、学历",
    "mail user@example.com for the demo",
    "kill the child process and restart",
    "人脸识别接口超时，先降级",
    "孩子节点的渲染顺序不对",
    "第 2 单元测试失败",
]


def categories(line):
    return {(f.category, f.confidence) for f in scan(line)}


@pytest.mark.parametrize("line,category,confidence", REFUSED)
def test_refused_examples_are_certain_findings(line, category, confidence):
    assert (category, confidence) in categories(line)
    d = gate.evaluate("store", line, source="explicit_user", approved=True, cfg=CFG)
    assert d.decision == "refuse" and not d.allowed


@pytest.mark.parametrize("line,category,confidence", APPROVAL)
def test_possible_findings_and_topics_need_approval(line, category, confidence):
    found = categories(line)
    assert (category, confidence) in found
    assert not any(c == CERTAIN for _, c in found), found
    d = gate.evaluate("store", line, source="explicit_user", cfg=CFG)
    assert not d.allowed and d.decision in ("request_approval", "narrow")
    ok = gate.evaluate("store", line, source="explicit_user", approved=True, cfg=CFG)
    assert ok.allowed and ok.approved_findings


@pytest.mark.parametrize("line", STORED)
def test_benign_examples_have_no_finding_and_store(line):
    assert scan(line) == []
    assert gate.evaluate("store", line, source="explicit_user", cfg=CFG).allowed


def test_a_card_is_a_card_whatever_the_topic_word():
    # With "--topic notes" the "no" inside "notes" used to switch the card rule off.
    for line in ("notes\n4539 1488 0343 6467", "order notes 4539148803436467", "ref4539148803436467"):
        assert "payment_card" in {f.category for f in scan(line)}, line


def test_findings_map_back_to_the_original_characters():
    line = "卡号：４５３９\u3000１４８８\u200b ０３４３ ６４６７，谢谢"
    assert normalise(line)[0] == "卡号:4539 1488 0343 6467,谢谢"
    (card,) = [f for f in scan(line) if f.category == "payment_card"]
    assert line[card.start:card.end] == "４５３９\u3000１４８８\u200b ０３４３ ６４６７"


def test_windows_user_name_with_a_space_is_one_finding_hidden_whole():
    line = "C:\\Users\\Zhang Wei\\Documents"
    (f,) = scan(line)
    assert line[f.start:f.end].endswith("Zhang Wei") and "Wei" not in f.excerpt
    assert "Zhang" not in gate.redacted_summary(line, [f]) and "Wei" not in gate.redacted_summary(line, [f])


def test_every_finding_has_a_confidence_and_topics_are_never_certain():
    for line, _, _ in REFUSED + APPROVAL:
        for f in scan(line):
            assert f.confidence in (CERTAIN, POSSIBLE, TOPIC)
            assert (f.confidence == TOPIC) == (f.category in {"health", "legal", "financial", "biometric",
                                                              "minor", "protected"})


# ------------------------------------------------------------------ through the scripts

def _files(ws):
    return {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}


@pytest.mark.parametrize("verb", ["write", "learn", "remember"])
def test_a_certain_finding_is_refused_with_approved_and_leaves_no_trace(ws, run_script, verb, monkeypatch):
    from conftest import TEST_KEY

    value = "mango2291home"
    text = f"家里路由器密码 {value}"
    args = {"write": ["write", "--topic", "router", "--change", text],
            "learn": ["learn", "router", "--text", text],
            "remember": ["remember", "--skill", "home", "--topic", "router", "--text", text]}[verb]
    r = run_script("memory", *args, "--approved", "--json", env={"MEMORY_MANAGER_KEY": TEST_KEY})
    assert r.code == 1, r.err
    doc = json.loads(r.out)
    assert doc["gate"]["recommended_action"] == "refuse"
    assert value not in r.out + r.err
    for path, data in _files(ws).items():
        assert value.encode() not in data, path


def test_a_possible_finding_names_its_category_and_the_flag_then_stores_and_is_recorded(ws, run_script):
    text = "房东刘桂芳说押金下个月退"
    r = run_script("memory", "write", "--topic", "rent", "--change", text, "--json")
    assert r.code == 1
    doc = json.loads(r.out)
    assert doc["gate"]["recommended_action"] == "request_approval"
    assert "possible name" in doc["error"] and "--approved" in doc["error"]
    assert not (ws / "memory" / "daily").exists() or text not in "".join(
        p.read_text(encoding="utf-8") for p in (ws / "memory" / "daily").glob("*.md"))
    r = run_script("memory", "write", "--topic", "rent", "--change", text, "--approved", "--json")
    assert r.code == 0, r.err
    record = [json.loads(line) for line in gate.approvals_path(ws).read_text(encoding="utf-8").splitlines()]
    assert [(x["category"], x["confidence"]) for x in record] == [("name", "possible")]
    assert "刘桂芳" not in gate.approvals_path(ws).read_text(encoding="utf-8")
    # The audit lists the approved name as a notice and stays clean.
    audit = run_script("privacy_audit", "--json")
    report = json.loads(audit.out)
    assert audit.code == 0 and report["findings"] == []
    assert [(n["category"], n["confidence"], n["approved"]) for n in report["notices"]] == [("name", "possible", True)]


@pytest.mark.parametrize("line", STORED[:8])
def test_benign_examples_store_through_the_script(ws, run_script, line):
    r = run_script("memory", "learn", "bench-note", "--text", line, "--json")
    assert r.code == 0, r.err
    assert line in (ws / "memory" / "knowledge" / "bench-note.md").read_text(encoding="utf-8")
