"""Attack 2 (issues 9/10): private phrasings that reach disk, through the text and the side doors.

Every case was pasted from the outside on 2026-11-30 and found on disk afterwards (fails on
main ad9c8d5). The full set is in tests/attack/phrasings.py and /work/evalsets/attack2-phrasings.tsv.
"""
from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest


def _init(run_script):
    r = run_script("init", "--yes", "--no-hooks")
    assert r.code == 0, r.err


def _on_disk(ws: Path, needle: str, skip: tuple[str, ...] = ()) -> list[str]:
    """Files under the workspace whose name or content holds ``needle`` (or its NFKC form)."""
    forms = {needle, unicodedata.normalize("NFKC", needle), needle.replace("\u200b", "")}
    found = []
    for p in ws.rglob("*"):
        rel = str(p.relative_to(ws))
        if rel in skip:
            continue
        if any(f in rel for f in forms):
            found.append("name:" + rel)
        elif p.is_file() and any(f in p.read_bytes().decode("utf-8", "replace") for f in forms):
            found.append(rel)
    return found


# (text, distinctive part): stored by `write --cause` today, without --approved.
MISSED = [
    ("passphrase for the backup disk: 'amber violin seventy otter'", "amber violin seventy otter"),
    ("pasword for jenkins is Hx9vv!trq (typo intended)", "Hx9vv!trq"),
    ("router admin → user root, pass Lx4-pQ9-mm", "Lx4-pQ9-mm"),
    ("the safe combination is 32-17-05", "32-17-05"),
    ("邮箱的登陆密码（不是登录）是 qiuyue_1314", "qiuyue_1314"),
    ("保险柜密码三七二九一五，即 372915", "372915"),
    ("测试服 redis 的 requirepass 是 r3dis_Yk82!", "r3dis_Yk82!"),
    ("「密碼」：Hsinchu#2024tw（繁體）", "Hsinchu#2024tw"),
    ("服务器 mima: Sv9_kL2p@x", "Sv9_kL2p@x"),
    ("我的 PIN 码是 ４４０７", "４４０７"),
    ("云服务器root的pwd→Ali!yun_5531", "Ali!yun_5531"),
    ("sendgrid SG.k2Lm9Xq7Zp4R.t8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Lq7Mz4Px1Rv8Tw3Ya6Bc",
     "k2Lm9Xq7Zp4R.t8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Lq7Mz4Px1Rv8Tw3Ya6Bc"),
    ("the secret is\nsk-\nproj-Lm9Xq7Zp4Rt8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Qa", "Lm9Xq7Zp4Rt8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Qa"),
    ("七牛 SK：Rt9Vb3Nc6Yh1Jd5Fs0Ga2EkQwErTyUiOpAsDfG", "Rt9Vb3Nc6Yh1Jd5Fs0Ga2EkQwErTyUiOpAsDfG"),
    ("百度地图 ak=Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0G", "Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0G"),
    ("NI number QQ 12 34 56 C on my payslip", "QQ 12 34 56 C"),
    ("her gmail is m.okafor77 at gmail dot com", "m.okafor77"),
    ("personal mail: jdoe.private%40outlook.com", "jdoe.private%40outlook.com"),
    ("my personal github user is qbranwell-dev", "qbranwell-dev"),
    ("快递放 成都市武侯区 天府大道北段 1700 号 环球中心 W6 区 1808", "天府大道北段 1700 号"),
    ("我血型 AB 型 Rh 阴性", "Rh 阴性"),
    ("他有案底，之前因为诈骗进去过", "因为诈骗进去过"),
    ("my sister is undocumented, keep that quiet", "undocumented"),
]


@pytest.mark.parametrize("text,value", MISSED, ids=[f"m{i:02d}" for i in range(len(MISSED))])
def test_write_does_not_store_private_phrasing(ws, run_script, text, value):
    """`write --cause` refuses (or asks for approval of) each private phrasing: nothing on disk."""
    _init(run_script)
    run_script("memory", "write", "--topic", "misc", "--cause", text)
    assert _on_disk(ws, value) == []


SIDE = [
    ("the wifi password at the cabin is tern-lake-4471", "tern-lake-4471"),
    ("my bank PIN is 8264", "8264"),
    ("支付宝支付密码是 620418", "620418"),
    ("我的身份证号 110105198704237610", "110105198704237610"),
    ("我妈有 2 型糖尿病", "2 型糖尿病"),
]


@pytest.mark.parametrize("text,value", SIDE, ids=["pw", "pin", "zh_pin", "cn_id", "health_zh"])
@pytest.mark.parametrize("door", ["topic", "skill"])
def test_remember_topic_and_skill_pass_the_gate(ws, run_script, text, value, door):
    """`remember --topic/--skill` become the T2 file name and frontmatter: they must pass the gate."""
    _init(run_script)
    args = {"topic": ("--skill", "s", "--topic", text), "skill": ("--skill", text, "--topic", "t")}[door]
    r = run_script("memory", "remember", *args, "--text", "prefers short replies", "--approved")
    assert _on_disk(ws, value) == [], r.out + r.err


def test_import_approval_is_not_approval_of_each_possible_finding(ws, run_script, tmp_path):
    """`import --approved` (required for every import) silently stores phones, addresses and names
    that `write` refuses as *possible* findings until the user confirms each."""
    _init(run_script)
    lines = ["我手机 158 1234 5678，有事打", "寄到：上海市浦东新区张杨路 1210 弄 22 号 401 室",
             "房东王建国说下个月涨房租"]
    for line in lines:   # write refuses each one (possible finding, needs --approved)
        assert run_script("memory", "write", "--topic", "x", "--cause", line).code != 0
    doc = {"format": "cmm-export", "version": 2, "exported": "2026-11-30T00:00:00+00:00",
           "tool_version": "0.1.0", "knowledge": [], "tier1": [], "tier2": [],
           "daily": [{"id": "d-20261129-0000000a", "date": "2026-11-29", "topic": "imp", "pinned": False,
                      "cause": lines, "change": [], "todo": [], "other": []}]}
    f = tmp_path / "exp.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    run_script("memory", "import", str(f), "--approved")
    assert [v for v in ("158 1234 5678", "张杨路", "王建国") if _on_disk(ws, v)] == []


def test_import_splits_multiline_key_material_and_keeps_its_body(ws, run_script, tmp_path):
    """A PuTTY private key pasted as one cause is gated line by line on import: the key body is stored."""
    _init(run_script)
    key = "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAAIHq7Lm2Xp9Zk4Rt8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Qa1Bc"
    doc = {"format": "cmm-export", "version": 2, "exported": "2026-11-30T00:00:00+00:00",
           "tool_version": "0.1.0", "knowledge": [], "tier1": [], "tier2": [],
           "daily": [{"id": "d-20261129-0000000b", "date": "2026-11-29", "topic": "imp", "pinned": False,
                      "cause": [key], "change": [], "todo": [], "other": []}]}
    f = tmp_path / "exp.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    run_script("memory", "import", str(f), "--approved")
    assert _on_disk(ws, "AAAAIHq7Lm2Xp9Zk4Rt8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Qa1Bc") == []


def test_import_tier1_trigger_with_hex_api_key(ws, run_script, tmp_path):
    """A T1 pattern trigger in an import is gated more weakly than `write`: a keyed hex API key passes."""
    _init(run_script)
    doc = {"format": "cmm-export", "version": 2, "exported": "2026-11-30T00:00:00+00:00",
           "tool_version": "0.1.0", "daily": [], "knowledge": [], "tier2": [],
           "tier1": [{"file": "s1_stats.json", "data": {"format": "cmm-t1-stats", "version": 1,
                      "skill_stats": {"s1": {"calls": 1, "successes": 1, "success_rate": 1.0, "last_used": "2026-11-29"}},
                      "patterns_observed": [{"trigger": 'api_key = "f3a9c1e7b2d84f6a9e0c5b7d1a3f8e2c"',
                                             "skills_used": ["s1"], "count": 1, "last_seen": "2026-11-29"}]}}]}
    f = tmp_path / "exp.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    run_script("memory", "import", str(f), "--approved")
    assert _on_disk(ws, "f3a9c1e7b2d84f6a9e0c5b7d1a3f8e2c") == []


def test_import_t2_xor_entry_holding_a_password_is_not_stored(ws, run_script, tmp_path):
    """An imported T2 entry in `xor-b64` (obfuscation, decodable by anyone) is decoded and gated:
    a password inside must not land in memory/tier2-internal/ (issue 10, side doors)."""
    _init(run_script)
    enc = run_script("crypt", "encrypt", "--skill", "s", "--month", "2026-11", "--scheme", "xor-b64",
                     input="the wifi password at the cabin is tern-lake-4471")
    assert enc.code == 0, enc.err
    text = ("---\ntier: internal\nsource_skill: s\nkey_hint: s-2026-11\ncreated: 2026-11-29\n"
            "expires: 2026-12-29\nformat: cmm-t2\nversion: 1\nid: t-00000000ab\ntopic: wifi\n"
            "scheme: xor-b64\ntext_encoding: latin-1\nkey_derivation: concat\n---\n\n## 加密条目\n> "
            + enc.out.strip() + "\n")
    doc = {"format": "cmm-export", "version": 2, "exported": "2026-11-30T00:00:00+00:00",
           "tool_version": "0.1.0", "daily": [], "knowledge": [], "tier1": [],
           "tier2": [{"file": "s_wifi.md", "text": text}]}
    f = tmp_path / "exp.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    run_script("memory", "import", str(f), "--approved")
    assert not (ws / "memory" / "tier2-internal" / "s_wifi.md").exists()


BENIGN_REFUSED = ["cancer of the codebase: the utils module",
                  "the bankruptcy module of the accounting demo has new tests",
                  "2 号楼的测试环境网络不通"]


@pytest.mark.parametrize("text", BENIGN_REFUSED, ids=["cancer_metaphor", "bankruptcy_module", "zh_building_2"])
def test_benign_technical_line_stores_without_approval(ws, run_script, text):
    """Technical senses of health/financial words and a test building number are ordinary notes."""
    _init(run_script)
    r = run_script("memory", "write", "--topic", "tech", "--cause", text)
    assert r.code == 0, r.out + r.err


@pytest.mark.parametrize("text,value", SIDE, ids=["pw", "pin", "zh_pin", "cn_id", "health_zh"])
def test_stats_pattern_skill_option_passes_the_gate(ws, run_script, text, value):
    """`stats pattern --skill S` names the T1 file: it is not gated (`--skills` and `--trigger` are)."""
    _init(run_script)
    r = run_script("memory", "stats", "pattern", "--trigger", "deploy", "--skills", "s1", "--skill", text)
    assert _on_disk(ws, value) == [], r.out + r.err
