"""memory.py lesson: one line into the right section of MEMORY.md, gated, backed up, atomic."""
import json

from memory_manager import templates

NOW = {"MEMORY_MANAGER_NOW": "2026-11-30T09:00:00+00:00"}


def lessons_file(ws, lang="en"):
    text = templates.render("memory-lessons.md", lang).rstrip("\n") + "\n"
    (ws / "memory").mkdir(exist_ok=True)
    (ws / "MEMORY.md").write_text(text, encoding="utf-8")
    return text


def test_lesson_goes_first_in_its_section(ws, run_script):
    template = lessons_file(ws)
    r = run_script("memory", "lesson", "Run the migration on a copy first", "--json", env=NOW)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert (doc["section"], doc["line"], doc["added"]) == ("lesson", "- [2026-11-30] Run the migration on a copy first", True)
    assert run_script("memory", "lesson", "Check the clock zone", env=NOW).code == 0
    assert run_script("memory", "lesson", "Chose SQLite FTS5 over a vector store", "--kind", "decision",
                      env=NOW).code == 0
    text = (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert text == template.replace(
        "## Lessons\n\n## Mistakes",
        "## Lessons\n\n- [2026-11-30] Check the clock zone\n- [2026-11-30] Run the migration on a copy first\n\n"
        "## Mistakes").replace(
        "## Decisions\n", "## Decisions\n\n- [2026-11-30] Chose SQLite FTS5 over a vector store\n")
    # backed up before each change
    assert (ws / ".memory-backup" / doc["backup"] / "entries.jsonl").exists()


def test_chinese_file_and_repeat_is_a_no_op(ws, run_script):
    lessons_file(ws, "zh")
    assert run_script("memory", "lesson", "先在副本上跑迁移", "--kind", "mistake", env=NOW).code == 0
    before = (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert "## 避免的错误\n\n- [2026-11-30] 先在副本上跑迁移\n\n## 决定" in before
    r = run_script("memory", "lesson", "先在副本上跑迁移", "--kind", "mistake", "--json", env=NOW)
    assert r.code == 0 and json.loads(r.out)["added"] is False
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == before


def test_gate_refuses_secrets_and_nothing_changes(ws, run_script):
    template = lessons_file(ws)
    r = run_script("memory", "lesson", "the key is sk-" + "A" * 40, "--approved", "--verbose", env=NOW)
    assert r.code == 1 and "Decision: refuse" in r.err
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == template
    assert not [p for p in (ws / ".memory-backup").glob("0*")] if (ws / ".memory-backup").exists() else True


def test_not_a_lessons_file_and_bootstrap_warning(ws, run_script):
    (ws / "memory").mkdir()
    (ws / "MEMORY.md").write_text("# my notes\n", encoding="utf-8")
    r = run_script("memory", "lesson", "x y z", env=NOW)
    assert r.code == 2 and "not a lessons file yet: run init.py first" in r.err
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == "# my notes\n"
    text = lessons_file(ws) + "\n".join(f"- old lesson number {i} " + "x" * 60 for i in range(300)) + "\n"
    (ws / "MEMORY.md").write_text(text, encoding="utf-8")
    r = run_script("memory", "lesson", "Keep MEMORY.md short", env=NOW)
    assert r.code == 0 and "OpenClaw loads only the first 20,000" in r.err
