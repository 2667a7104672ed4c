"""Issue 10: backup retention "never deletes the only copy of a user's file".

init rewrites the user's AGENTS.md and MEMORY.md; its backup is then the only place that holds
what the user wrote. Past ``keep_last`` / ``max_age_days`` the cleanup used to delete it (the
written rule protected only files gone from the workspace). Run through the real scripts on
files in a temporary workspace.
"""
from __future__ import annotations

import json
from pathlib import Path

AGENTS = "# My rules\n\n- be brief\n"
MEMORY = "Prefers tea.\n"


def _at(day: str) -> dict:
    return {"MEMORY_MANAGER_NOW": f"{day}T10:00:00+00:00", "LANG": "en_US.UTF-8"}


def _ids(run_script) -> list[tuple[str, str]]:
    listed = json.loads(run_script("init", "--list-backups", "--json").out)["backups"]
    return [(b["id"], b["reason"]) for b in listed]


def _workspace(ws: Path, run_script) -> str:
    """init (2026-01-01) of a workspace with the user's AGENTS.md and MEMORY.md, then five
    commands on 2026-01-02 (one `edit`, whose backup holds a whole copy of a knowledge entry);
    the config keeps the last 2 backups, and none older than 30 days. Returns init's backup id."""
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    (ws / "MEMORY.md").write_text(MEMORY, encoding="utf-8")
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=_at("2026-01-01")).code == 0
    assert (ws / "AGENTS.md").read_text(encoding="utf-8") != AGENTS  # init added its block
    day = _at("2026-01-02")
    assert run_script("memory", "learn", "deploy", "--text", "Tag first.", env=day).code == 0
    assert run_script("memory", "edit", "deploy", "--text", "Tag, then deploy.", "--approved", env=day).code == 0
    for n in (1, 2, 3):
        assert run_script("memory", "learn", f"k{n}", "--text", f"fact {n}", env=day).code == 0
    (ws / "memory/memory-manager.json").write_text(
        json.dumps({"language": "en", "backups": {"keep_last": 2, "min_age_days": 1, "max_age_days": 30}}),
        encoding="utf-8")
    ids = _ids(run_script)
    assert [reason for _id, reason in ids] == ["init", "learn deploy", "edit deploy", "learn k1", "learn k2",
                                               "learn k3"]
    return ids[0][0]


def test_cleanup_keeps_inits_backup_of_the_files_it_rewrote(ws, run_script, t2_key):
    init_id = _workspace(ws, run_script)
    before = [i for i, _r in _ids(run_script)]
    out = run_script("cleanup", env=_at("2026-12-01"))
    assert out.code == 0, out.err
    assert out.err == ""
    lines = out.out.splitlines()
    assert lines[-2:] == [
        f"kept 1 backup past the retention policy ({init_id}): it holds the only copy of what AGENTS.md, "
        "MEMORY.md held before a change",
        "[2026-12-01] Memory cleanup: 0 archived, 0 deleted, 0 merged"]
    # The edit's copy of the knowledge entry (the bundle's note, still there) went with the others.
    assert [i for i, _r in _ids(run_script)] == [init_id, *before[-2:]]
    files = ws / ".memory-backup" / init_id / "files"
    assert (files / "AGENTS.md").read_text(encoding="utf-8") == AGENTS
    assert (files / "MEMORY.md").read_text(encoding="utf-8") == MEMORY
    # Every later run says it again (it is why the backup stays), in the JSON result too.
    doc = json.loads(run_script("cleanup", "--json", env=_at("2026-12-02")).out)
    assert doc["backups_kept_only_copy"] == {init_id: ["AGENTS.md", "MEMORY.md"]}
    assert [a for a in doc["actions"] if a["step"] == "backup-retention"] == []
    # And the user can still get the originals back.
    restored = run_script("init", "--restore", init_id, "--yes", "--force", env=_at("2026-12-02"))
    assert restored.code == 0, restored.err
    assert (ws / "AGENTS.md").read_text(encoding="utf-8") == AGENTS
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == MEMORY


def test_cleanup_removes_inits_backup_once_the_originals_are_back(ws, run_script, t2_key):
    """Not the only copy any more: the user put the same bytes back by hand."""
    init_id = _workspace(ws, run_script)
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    (ws / "MEMORY.md").write_text(MEMORY, encoding="utf-8")
    doc = json.loads(run_script("cleanup", "--json", env=_at("2026-12-01")).out)
    assert doc["backups_kept_only_copy"] == {}
    removed = [a["path"] for a in doc["actions"] if a["step"] == "backup-retention"]
    assert removed[0] == f".memory-backup/{init_id}" and len(removed) == 4
    assert len(_ids(run_script)) == 2
