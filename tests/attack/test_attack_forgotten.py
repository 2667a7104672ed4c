"""Attack: forgotten means gone (issue 10) - the gate audit log keeps the content of what was read and forgotten.

Issue 10 rule: "the audit log keeps hashes, categories and decisions, never content";
"a purge or forget also removes the copies in backups, archive, index and logs".
"""
from __future__ import annotations

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}


def test_show_then_forget_leaves_no_text_of_the_entry_in_the_audit_log(ws, run_script):
    (ws / "AGENTS.md").write_text("# Rules\n", encoding="utf-8")
    assert run_script("init", "--yes", env=NOW).code == 0
    (ws / "memory/daily/2026-11-20.md").write_text(
        "## [2026-11-20] Deploy pipeline\n- 因：builds were slow\n- 改：cached the wheels on the runner\n",
        encoding="utf-8")
    r = run_script("memory", "recall", "cached wheels", "--json", env=NOW)
    import json
    entry = json.loads(r.out)["hits"][0]["id"]
    assert run_script("memory", "show", entry, env=NOW).code == 0
    assert run_script("memory", "forget", entry, "--approved", env=NOW).code == 0
    log = (ws / "memory/.state/gate-audit.jsonl").read_text(encoding="utf-8")
    assert "cached the wheels" not in log
    assert "Deploy pipeline" not in log


def test_forget_leaves_no_text_in_the_recall_index(ws, run_script):
    """The index in memory/.cache keeps the forgotten text until some later command refreshes it."""
    (ws / "AGENTS.md").write_text("# Rules\n", encoding="utf-8")
    assert run_script("init", "--yes", env=NOW).code == 0
    (ws / "memory/daily/2026-11-20.md").write_text("## [2026-11-20] Deploy\n- 改：cached the zzwheels\n",
                                                   encoding="utf-8")
    (ws / "memory/daily/2026-11-21.md").write_text("## [2026-11-21] Other\n- 改：keep me\n", encoding="utf-8")
    import json
    entry = json.loads(run_script("memory", "recall", "zzwheels", "--json", env=NOW).out)["hits"][0]["id"]
    assert run_script("memory", "forget", entry, "--approved", env=NOW).code == 0
    leftovers = [p.name for p in (ws / "memory/.cache").iterdir() if p.is_file() and b"zzwheels" in p.read_bytes()]
    assert leftovers == []
