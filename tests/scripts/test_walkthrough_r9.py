"""Round 9 new-user walk-through (nu9): each item runs the real scripts on a copy of a real
OpenClaw workspace (``../shared/workspaces/``, copied into ``tmp_path``; the originals are never
touched) and checks exact output.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHARED, tree_hash, writable_copy

REAL = SHARED / "workspaces" / "openclaw-2026.9.6"
pytestmark = pytest.mark.external(REAL, reason="a workspace OpenClaw 2026.9.6 wrote")


def _copy_real(ws: Path) -> Path:
    """Fill ``ws`` (the test's OPENCLAW_WORKSPACE_DIR) with a writable copy of the real workspace."""
    return writable_copy(REAL, ws)


def _init(run_script, *extra: str, lang: str = "en"):
    result = run_script("init", "--yes", "--lang", lang, "--no-hooks", *extra)
    assert result.code == 0, result.err
    return result


# ---------------------------------------------------------------- item 5: singular and plural in status

def test_item5_status_counts_one_t2_entry_in_the_singular(tmp_path, run_script, t2_key):
    ws = _copy_real(tmp_path / "ws")
    _init(run_script)
    made = run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "User likes green tea")
    assert made.code == 0, made.err
    status = run_script("memory", "status")
    assert status.code == 0, status.err
    assert "tiers: T1 0 statistics files (0 skills), T2 1 encrypted entry, T3 0\n" in status.out
    assert "average value: n/a over 0 prunable entries\n" in status.out
    second = run_script("memory", "remember", "--skill", "demo", "--topic", "milk", "--text", "User takes oat milk")
    assert second.code == 0, second.err
    assert "T2 2 encrypted entries, T3 0\n" in run_script("memory", "status").out


def test_item5_status_one_obfuscated_entry_is_singular(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _init(run_script, "--no-key")
    made = run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "User likes green tea")
    assert made.code == 0, made.err
    status = run_script("memory", "status")
    command = f"{sys.executable} {ROOT / 'scripts' / 'crypt.py'} reseal -w {ws}"
    assert ("tiers: T1 0 statistics files (0 skills), T2 1 entry (0 encrypted, 1 obfuscated only with xor-b64), "
            "T3 0\n") in status.out
    assert f"note: 1 T2 entry is not encrypted with a key: run `{command}` to encrypt it with aes-gcm\n" in status.out


# ---------------------------------------------------------------- item 2: undoing a restore gives empty folders back

def _layout(ws: Path) -> list[str]:
    """Every path under ``ws`` but the backups, with its kind and mode."""
    out = []
    for path in sorted(ws.rglob("*")):
        rel = path.relative_to(ws).as_posix()
        if rel.split("/")[0] == ".memory-backup":
            continue
        out.append(f"{rel}{'/' if path.is_dir() else ''} {stat.S_IMODE(path.stat().st_mode):o}")
    return out


def test_item2_undoing_a_restore_brings_back_the_empty_memory_folders(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _init(run_script)
    empty = ["memory/archive", "memory/daily", "memory/knowledge", "memory/tier1-public", "memory/tier2-internal"]
    assert all((ws / rel).is_dir() and not any((ws / rel).iterdir()) for rel in empty)
    set_up = _layout(ws)
    hashes = {k: v for k, v in tree_hash(ws).items() if not k.startswith(".memory-backup")}

    undone = run_script("init", "--restore", "--yes")
    assert undone.code == 0, undone.err
    assert not (ws / "memory").exists()
    safety = json.loads(run_script("init", "--list-backups", "--json").out)["backups"][-1]
    assert safety["role"] == "safety"

    preview = run_script("init", "--restore", safety["id"], "--dry-run")
    assert preview.out.splitlines()[1:7] == ["  create folder memory/", *(f"  create folder {rel}/" for rel in (
        "memory/daily", "memory/knowledge", "memory/tier1-public", "memory/tier2-internal", "memory/archive"))]
    again = run_script("init", "--restore", safety["id"], "--yes")
    assert again.code == 0, again.err
    # 14: the 6 folders, 6 files, and memory/.state/ with the record of the key init made (round 11)
    assert again.out.startswith(f"restored backup {safety['id']} (14 paths changed); ")
    assert _layout(ws) == set_up  # every folder back, with its mode
    assert {k: v for k, v in tree_hash(ws).items() if not k.startswith(".memory-backup")} == hashes
    # the memory verbs work again at once
    assert run_script("memory", "write", "--topic", "undo", "--cause", "c", "--change", "x", "--todo", "t").code == 0

    # and the undo can itself be undone: the folders it made are recorded as created
    third = [b for b in json.loads(run_script("init", "--list-backups", "--json").out)["backups"]
             if b["role"] == "safety"][-1]
    assert third["restores"] == safety["id"]
    entries = [json.loads(line) for line in (ws / ".memory-backup" / third["id"] / "entries.jsonl")
               .read_text(encoding="utf-8").splitlines()]
    assert {"path": "memory/daily", "existed": False, "kind": "dir"} in entries


# ---------------------------------------------------------------- item 1: init sets up a workspace's top folder only

def test_item1_init_refuses_the_skills_folder_of_a_workspace(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    skills = ws / "skills"
    skills.mkdir()
    before = tree_hash(ws)
    for args, env in (((("-w", str(skills))), None), ((), {"OPENCLAW_WORKSPACE_DIR": str(skills)})):
        for mode in ("--dry-run", "--yes"):
            refused = run_script("init", mode, *args, env=env)
            assert (refused.code, refused.out, refused.err) == (2, "", (
                f"error: {skills} is inside the workspace {ws} (it holds AGENTS.md and SOUL.md); init sets up a "
                f"workspace's top folder: run it with -w {ws}\n"))
    assert tree_hash(ws) == before


def test_item1_init_refuses_the_memory_folder_of_a_set_up_workspace(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _init(run_script)
    before = tree_hash(ws)
    memory = ws / "memory"
    refused = run_script("init", "--yes", "--no-hooks", env={"OPENCLAW_WORKSPACE_DIR": str(memory)})
    assert (refused.code, refused.err) == (2, (
        f"error: {memory} is inside the workspace {ws} (it holds memory/memory-manager.json); init sets up a "
        f"workspace's top folder: run it with -w {ws}\n"))
    daily = memory / "daily"
    deeper = run_script("init", "--dry-run", "-w", str(daily))
    assert deeper.code == 2 and deeper.err.startswith(f"error: {daily} is inside the workspace {ws} ")
    assert tree_hash(ws) == before


def test_item1_init_refuses_a_memory_tree_moved_out_of_its_workspace(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    _init(run_script)
    moved = tmp_path / "moved-memory"
    shutil.copytree(ws / "memory", moved)
    refused = run_script("init", "--yes", "-w", str(moved))
    assert (refused.code, refused.err) == (2, (
        f"error: {moved} is a memory/ folder of this skill (it holds memory-manager.json), not a workspace; pass -w "
        "with the workspace that holds it\n"))
    assert not (moved / "memory").exists() and not (moved / "AGENTS.md").exists()


def test_item1_init_refuses_a_folder_inside_the_bundle(run_script):
    sample = ROOT / "examples" / "sample-workspace"
    before = tree_hash(sample)
    for target in (sample, ROOT):
        refused = run_script("init", "--dry-run", "-w", str(target))
        assert (refused.code, refused.err) == (2, (
            f"error: {target} is inside the skill's own folder {ROOT}; pass -w with your OpenClaw workspace (the "
            "folder that holds AGENTS.md)\n"))
    assert tree_hash(sample) == before


def test_item1_the_top_folder_and_a_fresh_empty_folder_are_still_set_up(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    assert _init(run_script).out.startswith(f"init {ws}: language en")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    made = run_script("init", "--yes", "--lang", "en", "--no-hooks", "-w", str(fresh))
    assert made.code == 0, made.err
    assert (fresh / "memory" / "daily").is_dir() and (fresh / "MEMORY.md").is_file()
    # a folder beside the workspace (not under it) is its own
    beside = tmp_path / "other"
    beside.mkdir()
    assert run_script("init", "--dry-run", "-w", str(beside)).code == 0
    # a code repository's AGENTS.md alone does not make its subfolders part of a workspace
    repo = tmp_path / "repo"
    (repo / "agent").mkdir(parents=True)
    (repo / "AGENTS.md").write_text("# coding-agent rules\n", encoding="utf-8")
    assert run_script("init", "--dry-run", "-w", str(repo / "agent")).code == 0


# ---------------------------------------------------------------- item 6: cleanup after a key change

OTHER_KEY = "AQECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="


def test_item6_cleanup_after_a_key_change_warns_once_and_keeps_old_entries_apart(tmp_path, run_script, t2_key):
    ws = _copy_real(tmp_path / "ws")
    _init(run_script)
    t2 = ws / "memory" / "tier2-internal"
    for topic, text, key in (("tea", "User likes green tea", t2_key), ("milk", "User takes oat milk", t2_key),
                             ("bread", "User bakes sourdough", OTHER_KEY), ("jam", "User likes jam", OTHER_KEY)):
        if key == OTHER_KEY:
            # The key change is deliberate (what `crypt.py keygen --force` records): since tfix10 a
            # key that opens none of the sealed entries is refused unless the store accepted it.
            import base64

            from memory_manager.tiers import accept_key

            accept_key(ws, base64.b64decode(OTHER_KEY))
        made = run_script("memory", "remember", "--skill", "demo", "--topic", topic, "--text", text,
                          env={"MEMORY_MANAGER_KEY": key})
        assert made.code == 0, made.err
    old = {name: (t2 / f"demo_{name}.md").read_bytes() for name in ("tea", "milk")}
    result = run_script("cleanup", "--json", env={"MEMORY_MANAGER_KEY": OTHER_KEY})
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    tea_id = old["tea"].decode().split("id: ", 1)[1].split()[0].strip("'\"")
    milk_id = old["milk"].decode().split("id: ", 1)[1].split()[0].strip("'\"")
    detail = ("cannot be decrypted with the current T2 key: not checked for personal data, not merged or "
              "combined")
    assert [a for a in doc["actions"] if a["step"] == "left as is"] == [
        {"step": "left as is", "path": "memory/tier2-internal/demo_milk.md",
         "detail": f"T2 entry {milk_id} {detail}"},
        {"step": "left as is", "path": "memory/tier2-internal/demo_tea.md",
         "detail": f"T2 entry {tea_id} {detail}"}]
    assert doc["problems"] == [
        "2 T2 entries in memory/tier2-internal/demo_milk.md, memory/tier2-internal/demo_tea.md cannot be decrypted "
        "with the current T2 key (sealed with another key, or damaged): left as they are; with the key that sealed "
        "them back (tiers.key_file or MEMORY_MANAGER_KEY) the next cleanup checks them"]
    # the entries of the current key are combined; those of the old key stay byte for byte in their files
    month = next(t2.glob("demo_2*.md"))
    assert sorted(p.name for p in t2.iterdir()) == sorted([month.name, "demo_milk.md", "demo_tea.md"])
    assert {name: (t2 / f"demo_{name}.md").read_bytes() for name in old} == old
    assert "oat milk" not in month.read_text(encoding="utf-8")
    # with the old key back, every entry reads
    for topic, text in (("tea", "User likes green tea"), ("milk", "User takes oat milk")):
        shown = run_script("memory", "recall", text, "--approved", "--json", env={"MEMORY_MANAGER_KEY": t2_key})
        assert text in shown.out, shown.out

    # the human output: one warning line on stderr, one line per entry in the table
    again = run_script("cleanup", env={"MEMORY_MANAGER_KEY": OTHER_KEY, "COLUMNS": "250"})
    assert again.code == 0, again.err
    assert again.err.count("warning: ") == 1 and again.err.startswith("warning: 2 T2 entries in "), again.err
    assert again.out.count(detail) == 2


# ---------------------------------------------------------------- item 3: a dry run says what, not every line

def test_item3_dry_run_prints_a_summary_and_a_closing_line(tmp_path, run_script):
    ws = _copy_real(tmp_path / "ws")
    before = tree_hash(ws)
    key = tmp_path / "home" / ".config" / "complex-memory-manager" / "key"
    init = f"{sys.executable} {ROOT / 'scripts' / 'init.py'}"
    dry = run_script("init", "--dry-run", env={"LANG": "C.UTF-8"})
    assert (dry.code, dry.err) == (0, "")
    assert dry.out.splitlines() == [
        f"init {ws}: language en (default; change it with --lang zh|en)",
        "would write 22 files (1 updated, 21 created; lines +654 -0):",
        "  AGENTS.md                                     update          +13 -0  memory rules block",
        "  MEMORY.md                                     create          +10     lessons file",
        "  memory/daily-index.md                         create          +1      index",
        "  memory/knowledge-index.md                     create          +1      index",
        "  .gitignore                                    create          +9      ignore rules",
        "  memory/memory-manager.json                    create          +3      language en",
        "  hooks/memory-manager-bootstrap/               create 3 files  +115    OpenClaw hook",
        "  hooks/memory-manager-gateway-startup/         create 3 files  +115    OpenClaw hook",
        "  hooks/memory-manager-post-response/           create 3 files  +115    OpenClaw hook",
        "  hooks/memory-manager-session-end/             create 3 files  +115    OpenClaw hook",
        "  .openclaw/extensions/complex-memory-manager/  create 4 files  +157    OpenClaw plugin",
        "would create 14 folders: memory/ with 5 folders in it, hooks/ with 4 folders in it, .openclaw/ with 2 "
        "folders in it",
        f"would create AES key {key} (mode 0600; losing it loses T2 entries)",
        f"dry run: nothing was changed. Every line: the same command with --diff. Apply with: {init} -w {ws} --yes"]
    assert tree_hash(ws) == before and not key.exists()

    # the full diff on request (--diff or --verbose), with the same closing line
    for flag in ("--diff", "--verbose"):
        full = run_script("init", "--dry-run", flag, "--lang", "en", "--no-hooks", env={"LANG": "C.UTF-8"})
        assert full.code == 0, full.err
        lines = full.out.splitlines()
        assert "+++ b/AGENTS.md" in lines and "mkdir memory/daily/" in lines
        assert lines[-1] == f"dry run: nothing was changed. Apply with: {init} -w {ws} --yes --lang en --no-hooks"
    assert tree_hash(ws) == before
    misplaced = run_script("init", "--diff", "--yes")
    assert (misplaced.code, misplaced.err.splitlines()[-1]) == (
        2, "error: --diff prints a dry run's full diff: pass it with --dry-run")

    # the command it names applies exactly that; a second dry run has nothing to do
    applied = run_script("init", "--yes", "--lang", "en", "--no-hooks")
    assert applied.code == 0, applied.err
    again = run_script("init", "--dry-run", "--no-hooks")
    assert again.out.splitlines()[1:] == ["nothing to do: the workspace is already set up",
                                          "dry run: nothing was changed"]


# ---------------------------------------------------------------- item 4: Chinese output in a Chinese workspace

def test_item4_status_audit_and_cleanup_speak_the_workspace_language(tmp_path, run_script, t2_key):
    ws = _copy_real(tmp_path / "ws")
    _init(run_script, lang="zh")
    made = run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "User likes green tea")
    assert made.code == 0, made.err
    status = run_script("memory", "status", env={"LANG": "C.UTF-8"})  # the workspace's choice, not the locale
    assert status.code == 0, status.err
    lines = status.out.splitlines()
    assert lines[1:] == [
        "平均价值：n/a（基于 0 条可修剪条目）",
        "修剪率：0.0%（0 条将被移走；阈值 0.6，容量窗口 200）",
        "下次清理：将归档 0 条（容量窗口 200）；已归档的 0 条仍可搜索",
        "分层：T1 0 个统计文件（0 个技能），T2 1 条加密条目，T3 0",
        "普通记忆：0 个每日小节，0 条知识条目",
        f"时区：UTC（TZ）；今天是 {lines[-1][-10:]}"]
    assert lines[0].startswith("记忆大小：") and "个文件，共 " in lines[0] and lines[0].endswith(" 字节）")

    audit = run_script("privacy_audit", env={"LANG": "C.UTF-8", "COLUMNS": "120"})
    assert audit.code == 0, audit.err
    assert "隐私检查清单" in audit.out and "没有 API 密钥或令牌" in audit.out and "通过" in audit.out
    assert audit.out.splitlines()[-1].startswith("已扫描 ") and audit.out.rstrip().endswith(
        "个文件，已解密 Tier 2 条目 1/1：没有问题")

    dry = run_script("cleanup", "--dry-run", env={"LANG": "C.UTF-8"})
    assert dry.code == 0, dry.err
    day = lines[-1][-10:]
    assert dry.out.splitlines()[-1] == f"[{day}] 记忆清理：归档 0，删除 0，合并 0（演练：没有做任何更改）"
    done = run_script("cleanup", env={"LANG": "C.UTF-8"})
    assert done.out.splitlines()[-1] == f"[{day}] 记忆清理：归档 0，删除 0，合并 0"
    # the log file keeps the seed's line, whatever the language
    log = (ws / "memory" / ".state" / "cleanup.log").read_text(encoding="utf-8")
    assert log.splitlines()[-1] == f"[{day}] Memory cleanup: 0 archived, 0 deleted, 0 merged"
    assert run_script("cleanup", "--if-due").out.startswith("清理尚未到期（上次运行 ")

    # the same workspace switched to English speaks English again
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks").code == 0
    english = run_script("memory", "status", env={"LANG": "zh_CN.UTF-8"})
    assert "tiers: T1 0 statistics files (0 skills), T2 1 encrypted entry, T3 0\n" in english.out
    assert run_script("cleanup", "--if-due").out.startswith("cleanup not due (last run ")


def test_item4_every_message_key_exists_in_both_languages():
    en = json.loads((ROOT / "templates" / "en" / "messages.json").read_text(encoding="utf-8"))
    zh = json.loads((ROOT / "templates" / "zh" / "messages.json").read_text(encoding="utf-8"))
    audit_titles = {k for k in zh if k.startswith("audit.check.")}  # zh only: en reads audit.CHECKS
    assert set(en) == set(zh) - audit_titles
    from memory_manager.audit import CHECKS
    assert audit_titles == {f"audit.check.{cid}" for cid in CHECKS}
