"""Choosing the language (issue 14, item 1): --lang, saved choice, OpenClaw, locale, English."""
from __future__ import annotations

import json

import pytest

from conftest import tree_hash
from memory_manager import lang


@pytest.mark.parametrize("env, expected", [
    ({}, ("en", "default")),
    ({"LANG": "C.UTF-8"}, ("en", "default")),
    ({"LANG": "zh_CN.UTF-8"}, ("zh", "locale (LANG)")),
    ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}, ("en", "locale (LC_MESSAGES)")),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "de_DE", "LC_ALL": "zh_TW.UTF-8"}, ("zh", "locale (LC_ALL)")),
    ({"LC_ALL": "POSIX", "LANG": "zh_SG"}, ("zh", "locale (LANG)")),
])
def test_locale_rule(env, expected):
    assert lang.resolve(env=env, oc_config=None) == expected


def test_order_explicit_saved_openclaw_locale(tmp_path):
    ws = tmp_path / "w"
    (ws / "memory").mkdir(parents=True)
    zh_env = {"LANG": "zh_CN.UTF-8"}
    oc_en = {"ui": {"prefs": {"locale": "en"}}}
    assert lang.resolve(ws=ws, env=zh_env, oc_config=oc_en) == ("en", "OpenClaw's ui.prefs.locale")
    assert lang.resolve(ws=ws, env={}, oc_config={"ui": {"prefs": {"locale": "zh-CN"}}}) == \
        ("zh", "OpenClaw's ui.prefs.locale")
    (ws / "memory" / "memory-manager.json").write_text('{"language": "zh"}')
    assert lang.resolve(ws=ws, env={}, oc_config=oc_en) == ("zh", "saved in this workspace")
    assert lang.resolve("en", ws=ws, env=zh_env, oc_config=None) == ("en", "--lang")


def test_lessons_file_of_an_earlier_chinese_init_counts_as_saved(tmp_path):
    ws = tmp_path / "w"
    ws.mkdir()
    (ws / "MEMORY.md").write_text("\ufeff# MEMORY.md - 经验教训\r\n<!-- complex-memory-manager: lessons v1 -->\r\n",
                                  encoding="utf-8")
    assert lang.resolve(ws=ws, env={}, oc_config=None) == ("zh", "saved in this workspace")


def test_openclaw_config_is_read_from_the_state_dir(tmp_path, monkeypatch):
    state = tmp_path / "home" / ".openclaw"
    state.mkdir(parents=True)
    (state / "openclaw.json").write_text(json.dumps({"ui": {"prefs": {"locale": "zh"}}}))
    monkeypatch.delenv("LANG")
    assert lang.resolve() == ("zh", "OpenClaw's ui.prefs.locale")


def test_english_locale_gives_an_english_install(ws, run_script):
    result = run_script("init", "--yes", "--no-hooks", env={"LANG": "en_US.UTF-8"})
    assert result.code == 0, result.err
    assert f"init {ws}: language en (locale (LANG); change it with --lang zh|en)" in result.out
    assert (ws / "MEMORY.md").read_text().startswith("# MEMORY.md - Lessons and Experience\n")
    assert (ws / "memory/daily-index.md").read_text() == "# Memory Index\n"
    assert json.loads((ws / "memory/memory-manager.json").read_text()) == {"language": "en"}
    # Saved: a later run under a Chinese locale keeps English and says why.
    again = run_script("init", "--yes", "--no-hooks", env={"LANG": "zh_CN.UTF-8"})
    assert "language en (saved in this workspace" in again.out
    assert "nothing to do" in again.out


def test_lang_en_after_a_chinese_init_switches_headings_with_a_backup(ws, run_script):
    (ws / "MEMORY.md").write_text("- 旧的一行\n")
    assert run_script("init", "--yes", "--no-hooks", "--lang", "zh").code == 0
    memory_zh = (ws / "MEMORY.md").read_text()
    assert memory_zh.startswith("# MEMORY.md - 经验教训\n") and "## 原 MEMORY.md 内容（init 前保留）" in memory_zh
    # The user adds a lesson under a Chinese heading.
    (ws / "MEMORY.md").write_text(memory_zh.replace("## 经验\n", "## 经验\n\n- 先备份再改\n"))
    (ws / "memory/knowledge-index.md").write_text("# 知识库索引\n\n- deploy\n")
    before = (ws / "MEMORY.md").read_bytes()
    result = run_script("init", "--yes", "--no-hooks", "--lang", "en")
    assert result.code == 0, result.err
    memory_en = (ws / "MEMORY.md").read_text()
    assert memory_en.startswith("# MEMORY.md - Lessons and Experience\n<!-- complex-memory-manager: lessons v1 -->\n")
    assert "## Lessons\n\n- 先备份再改\n" in memory_en
    assert "## Kept from the previous MEMORY.md\n\n- 旧的一行\n" in memory_en
    assert "经验" not in memory_en.replace("先备份再改", "")
    assert (ws / "memory/daily-index.md").read_text() == "# Memory Index\n"
    assert (ws / "memory/knowledge-index.md").read_text() == "# Knowledge Index\n\n- deploy\n"
    assert json.loads((ws / "memory/memory-manager.json").read_text())["language"] == "en"
    backup_id = result.out.split("Backup ")[1].split(":")[0]
    assert (ws / ".memory-backup" / backup_id / "files" / "MEMORY.md").read_bytes() == before


def test_switch_keeps_crlf_and_bom(ws, run_script):
    assert run_script("init", "--yes", "--no-hooks", "--lang", "zh").code == 0
    text = (ws / "MEMORY.md").read_text()
    (ws / "MEMORY.md").write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en").code == 0
    raw = (ws / "MEMORY.md").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf# MEMORY.md - Lessons and Experience\r\n")
    assert b"\r\n## Decisions\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    snapshot = tree_hash(ws)
    assert "nothing to do" in run_script("init", "--yes", "--no-hooks", "--lang", "en").out
    assert tree_hash(ws) == snapshot
