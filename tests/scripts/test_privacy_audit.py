"""scripts/privacy_audit.py as a user runs it: exit codes, the JSON document, the table, no secret printed."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, SHARED, tree_hash

sys.path.insert(0, str(ROOT / "bench"))
import privacy_fakes as fakes  # noqa: E402

CHECKS = [
    ("names_handles", "No real names, usernames or handles"),
    ("keys_tokens", "No API keys or tokens"),
    ("home_paths", "No paths containing personal home directories"),
    ("schedules", "No fixed personal schedules"),
    ("location", "Nothing finer than city level"),
    ("t2_expiry", "Every Tier 2 entry has an expiry date"),
    ("tier3", "Tier 3 data never touches memory"),
]


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def checks(failed: dict[str, int]) -> list[dict]:
    return [{"id": cid, "title": title, "passed": cid not in failed, "findings": failed.get(cid, 0), "approved": 0,
             "status": "fail" if cid in failed else "ok"}
            for cid, title in CHECKS]


def test_clean_workspace_exits_0_with_exact_json(ws, run_script):
    write(ws / "MEMORY.md", "# Lessons\n- Keep answers short.\n")
    write(ws / "memory" / "daily" / "2026-03-03.md", "## [2026-03-03] x\n- Change: added an index\n")
    result = run_script("privacy_audit", "--workspace", ws, "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out) == {
        "format": "privacy-audit", "version": 1, "workspace": str(ws), "scope": "workspace", "clean": True,
        "summary": {"files_scanned": 2, "findings": 0, "notices": 0, "t2_entries": 0, "t2_decrypted": 0,
                    "t2_unreadable": 0, "unread_files": 0, "approved": 0},
        "checks": checks({}), "findings": [], "notices": [], "unreadable": [], "skipped": [], "unread_files": [], "warnings": [],
    }


def test_findings_exit_1_with_exact_json_and_no_secret(ws, run_script):
    key = fakes.fake("OPENAI_KEY", seed=3)
    write(ws / "MEMORY.md", f"# Lessons\n- deploy key {key}\n")
    write(ws / "memory" / "knowledge" / "prefs.md", "---\nformat: cmm-knowledge\n---\n"
          "user wakes up at 06:30\nmail zhang.wei1988@gmail.com\n")
    result = run_script("privacy_audit", "--json", env={"OPENCLAW_WORKSPACE_DIR": str(ws)})
    assert result.code == 1, result.err
    assert key not in result.out and key not in result.err
    doc = json.loads(result.out)
    assert doc["clean"] is False
    assert doc["summary"] == {"files_scanned": 2, "findings": 3, "notices": 0, "t2_entries": 0,
                              "t2_decrypted": 0, "t2_unreadable": 0, "unread_files": 0, "approved": 0}
    assert doc["checks"] == checks({"keys_tokens": 1, "schedules": 1, "tier3": 1})
    assert doc["findings"] == [
        {"file": "MEMORY.md", "line": 2, "check": "keys_tokens", "category": "secret", "rule": "openai_key",
         "excerpt": "sk-" + key[3] + "********", "decrypted": False, "confidence": "certain", "approved": False},
        {"file": "memory/knowledge/prefs.md", "line": 4, "check": "schedules", "category": "schedule",
         "rule": "clock_time_24h", "excerpt": "0****", "decrypted": False, "confidence": "possible",
         "approved": False},
        {"file": "memory/knowledge/prefs.md", "line": 5, "check": "tier3", "category": "email", "rule": "email",
         "excerpt": "zhan********", "decrypted": False, "confidence": "possible", "approved": False},
    ]


def test_table_output_and_exit_1(ws, run_script):
    key = fakes.fake("GITHUB_PAT", seed=5)
    write(ws / "memory" / "daily" / "2026-03-03.md", f"- token {key}\n- 我有抑郁症\n")
    result = run_script("privacy_audit", "--workspace", ws)
    assert result.code == 1
    assert key not in result.out and key not in result.err
    assert "隐私检查清单" in result.out and "未通过" in result.out
    assert "github_token" in result.out
    assert "1 条敏感话题提示" in result.out
    assert "已扫描 1 个文件，已解密 Tier 2 条目 0/0：1 项发现" in result.out


def test_notices_alone_do_not_fail(ws, run_script):
    write(ws / "memory" / "daily" / "2026-03-03.md", "- user mentioned a court date next week\n")
    result = run_script("privacy_audit", "--workspace", ws, "--json")
    assert result.code == 0
    doc = json.loads(result.out)
    assert doc["clean"] is True
    assert [(n["category"], n["excerpt"]) for n in doc["notices"]] == [("legal", "court date")]


def test_xor_b64_config_is_reported_as_obfuscation(ws, run_script):
    write(ws / "memory" / "memory-manager.json", json.dumps({"tiers": {"encryption_scheme": "xor-b64"}}))
    result = run_script("privacy_audit", "--workspace", ws, "--json")
    assert result.code == 0
    [warning] = json.loads(result.out)["warnings"]
    assert warning.startswith("xor-b64 is obfuscation, not encryption")
    human = run_script("privacy_audit", "--workspace", ws)
    assert "xor-b64 is obfuscation" in human.out


def test_missing_workspace_exits_2_with_json_error(tmp_path, run_script):
    result = run_script("privacy_audit", "--workspace", tmp_path / "missing", "--json")
    assert result.code == 2
    doc = json.loads(result.out)
    assert doc["kind"] == "workspace" and "does not exist" in doc["error"]
    assert "Traceback" not in result.err


def test_bad_config_exits_2_one_line(ws, run_script):
    write(ws / "memory" / "memory-manager.json", json.dumps({"tiers": {"encryption_scheme": "rot13"}}))
    result = run_script("privacy_audit", "--workspace", ws)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("error: ") and len(result.err.strip().splitlines()) == 1


def test_unknown_option_exits_2(ws, run_script):
    result = run_script("privacy_audit", "--workspace", ws, "--frobnicate", "--json")
    assert result.code == 2
    assert json.loads(result.out)["kind"] == "usage"


def test_empty_workspace_is_clean(ws, run_script):
    result = run_script("privacy_audit", "--workspace", ws)
    assert result.code == 0
    assert "已扫描 0 个文件，已解密 Tier 2 条目 0/0：没有问题" in result.out


@pytest.mark.parametrize("root", [
    FIXTURES / "workspaces",
    pytest.param(SHARED / "workspaces",
                 marks=pytest.mark.external(SHARED / "workspaces", reason="workspaces a real OpenClaw wrote"))],
    ids=["fixtures", "real"])
def test_real_workspaces_are_read_without_change(tmp_path, run_script, root):
    for src in sorted(root.iterdir()):
        if not src.is_dir():
            continue
        dest = tmp_path / src.name
        shutil.copytree(src, dest, symlinks=True)
        before = tree_hash(dest)
        result = run_script("privacy_audit", "--workspace", dest, "--json")
        assert result.code in (0, 1), (src.name, result.err)
        doc = json.loads(result.out)
        assert doc["format"] == "privacy-audit" and doc["clean"] is (result.code == 0)
        assert tree_hash(dest) == before


def test_latin1_file_with_a_key_is_not_clean(ws, run_script):
    """QA bug 6: a Latin-1 note used to be skipped and the audit said clean."""
    key = fakes.fake("OPENAI_KEY", seed=9)
    path = ws / "memory" / "2026-11-23.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(f"# Café notes\nkey {key}\n".encode("latin-1"))
    result = run_script("privacy_audit", "--json")
    assert result.code == 1, result.err
    doc = json.loads(result.out)
    assert doc["clean"] is False and doc["summary"]["unread_files"] == 1
    assert doc["unread_files"] == [{"file": "memory/2026-11-23.md", "reason":
                                    "could not be read as UTF-8 text (not UTF-8 (byte 5)): not fully checked"}]
    assert [(f["file"], f["line"], f["rule"]) for f in doc["findings"]] == [("memory/2026-11-23.md", 2, "openai_key")]
    assert key not in result.out
    human = run_script("privacy_audit")
    assert human.code == 1
    assert "NOT CHECKED: memory/2026-11-23.md: could not be read as UTF-8 text" in human.out
    assert "1 项发现，1 个文件无法读取" in human.out


def test_latin1_file_without_findings_is_still_not_clean(ws, run_script):
    path = ws / "memory" / "knowledge" / "cafe.md"
    path.parent.mkdir(parents=True)
    path.write_bytes("café au lait\n".encode("latin-1"))
    result = run_script("privacy_audit", "--json")
    assert result.code == 1
    doc = json.loads(result.out)
    assert doc["clean"] is False and doc["findings"] == []
    assert [row["file"] for row in doc["unread_files"]] == ["memory/knowledge/cafe.md"]
