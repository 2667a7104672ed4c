"""backups.py: ids and order, the journal and rollback, manifest checks, sealed copies,
retention, erasing copies, private modes. Each attack of issue 10 has its test here."""
import json
import os
import shutil
import stat
import time
from pathlib import Path

import pytest

from conftest import ROOT, TEST_KEY
from memory_manager import backups, fsio
from memory_manager.config import load_config
from memory_manager.errors import BackupError, ConfigError, DirtyFileError, NotFoundError

V1_FIXTURE = ROOT / "tests" / "fixtures" / "backup-v1"


def _tree(root: Path) -> dict[str, bytes]:
    """Every user file (outside .memory-backup) and its bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and backups.BACKUP_DIRNAME not in p.relative_to(root).parts}


def _forge(ws: Path, entries: list[dict], files: dict[str, bytes] | None = None) -> str:
    """Write a v2 backup by hand (an attacker who can write .memory-backup/); return its id."""
    ident = "000900-20260101T000000Z"
    folder = backups.backup_root(ws) / ident
    (folder / "files").mkdir(parents=True)
    header = {"format": "memory-backup", "version": 2, "id": ident, "seq": 900, "created": "2026-01-01T00:00:00+00:00",
              "reason": "forged", "role": "change", "restores": None, "state": "complete"}
    (folder / "manifest.json").write_text(json.dumps(header))
    (folder / "entries.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    for rel, data in (files or {}).items():
        (folder / "files" / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / "files" / rel).write_bytes(data)
    return ident


# ----------------------------------------------------------------------------- basics

def test_manifest_v3_written_before_change_and_restore(ws):
    f = ws / "AGENTS.md"
    f.write_bytes(b"one\r\n")
    f.chmod(0o640)
    with fsio.workspace_lock(ws):  # as every command: the backup closes (after.json) with the lock
        b = backups.start(ws, "test")
        b.save(f)
        b.save(ws / "NEW.md")
        b.save_new_dir(ws / "memory")
        header = json.loads((b.folder / "manifest.json").read_text())
        assert (header["format"], header["version"], header["seq"], header["role"]) == ("memory-backup", 5, 1, "change")
        lines = [json.loads(line) for line in (b.folder / "entries.jsonl").read_text().splitlines()]
        assert [(e["path"], e["existed"]) for e in lines] == [("AGENTS.md", True), ("NEW.md", False), ("memory", False)]
        assert lines[0]["size"] == 5 and lines[0]["mode"] == 0o640 and lines[0]["stored"] == "plain"
        f.write_bytes(b"two")
        (ws / "NEW.md").write_text("x")
        (ws / "memory").mkdir()
    after = json.loads((b.folder / "after.json").read_text())["paths"]
    assert after["NEW.md"] == fsio.sha256_bytes(b"x")
    result = backups.restore(ws)
    assert f.read_bytes() == b"one\r\n" and not (ws / "NEW.md").exists() and not (ws / "memory").exists()
    assert stat.S_IMODE(f.stat().st_mode) == 0o640
    assert result["restored"] == b.id
    assert backups.read_copy(ws, result["safety_backup"], "AGENTS.md") == b"two"


def test_v3_restore_keeps_a_created_file_the_user_edited_since_unless_forced(ws):
    with fsio.workspace_lock(ws):
        b = backups.start(ws, "learn deploy")
        b.save(ws / "deploy.md")
        (ws / "deploy.md").write_text("what the command wrote\n")
    (ws / "deploy.md").write_text("what the command wrote\nand a line the user added\n")
    with pytest.raises(DirtyFileError, match="deploy.md"):
        backups.restore(ws)
    assert (ws / "deploy.md").read_text() == "what the command wrote\nand a line the user added\n"
    result = backups.restore(ws, force=True)
    assert not (ws / "deploy.md").exists() and result["changed_since"] == ["deploy.md"]
    assert backups.read_copy(ws, result["safety_backup"], "deploy.md") == \
        b"what the command wrote\nand a line the user added\n"


def test_v3_restore_without_after_json_does_not_delete_a_created_file_unforced(ws):
    """Nothing vouches for the created file's bytes (after.json lost): it is not deleted without --force."""
    with fsio.workspace_lock(ws):
        b = backups.start(ws, "learn deploy")
        b.save(ws / "deploy.md")
        (ws / "deploy.md").write_text("new\n")
    (b.folder / "after.json").unlink()
    assert backups.restore_plan(ws)["changed_since"] == ["deploy.md"]
    with pytest.raises(DirtyFileError):
        backups.restore(ws)
    assert (ws / "deploy.md").read_text() == "new\n"
    backups.restore(ws, force=True)
    assert not (ws / "deploy.md").exists()


def test_v2_manifest_with_a_created_file_still_restores(ws):
    """A version 2 backup (no after.json) keeps its rule: the file it created is removed."""
    (ws / "AGENTS.md").write_bytes(b"now\n")
    (ws / "NEW.md").write_bytes(b"made by the command\n")
    ident = _forge(ws, [{"path": "AGENTS.md", "existed": True, "kind": "file", "sha256": fsio.sha256_bytes(b"old\n"),
                         "size": 4, "mode": 0o644, "stored": "plain"},
                        {"path": "NEW.md", "existed": False, "kind": "file"}], {"AGENTS.md": b"old\n"})
    assert [d["version"] for d in backups.list_backups(ws)] == [2]
    result = backups.restore(ws)
    assert result["restored"] == ident and sorted(result["paths"]) == ["AGENTS.md", "NEW.md"]
    assert (ws / "AGENTS.md").read_bytes() == b"old\n" and not (ws / "NEW.md").exists()
    assert [d["version"] for d in backups.list_backups(ws)] == [2, 5]  # the safety backup is v5


def test_restore_refuses_corrupt_copy(ws):
    f = ws / "a.md"
    f.write_text("a")
    b = backups.start(ws, "t")
    b.save(f)
    (b.folder / "files" / "a.md").write_text("tampered")
    f.write_text("b")
    with pytest.raises(BackupError, match="sha256"):
        backups.restore(ws, b.id)
    assert f.read_text() == "b"
    assert [d["id"] for d in backups.list_backups(ws)] == [b.id]  # not even a safety backup


def test_restore_unknown_id(ws):
    with pytest.raises(NotFoundError):
        backups.restore(ws, "nope")


def test_nonempty_created_dir_is_kept(ws):
    with fsio.workspace_lock(ws):
        b = backups.start(ws, "t")
        b.save_new_dir(ws / "memory")
        b.save(ws / "memory" / "x.md")
        (ws / "memory").mkdir()
        (ws / "memory" / "x.md").write_text("created")
    (ws / "memory" / "user.md").write_text("user wrote this later")
    backups.restore(ws, b.id)
    assert (ws / "memory" / "user.md").read_text() == "user wrote this later"
    assert not (ws / "memory" / "x.md").exists()


# ----------------------------------------------------------------------------- ids and "newest"

def test_ids_sort_in_creation_order_with_many_in_one_second(ws, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-05-01T10:00:00Z")
    made = []
    for n in range(12):
        (ws / "f.md").write_text(str(n))
        b = backups.start(ws, f"change {n}")
        b.save(ws / "f.md")
        made.append(b.id)
    assert made[9].startswith("000010-") and made[11] == "000012-20260501T100000Z"
    assert [d["id"] for d in backups.list_backups(ws)] == made
    assert backups.restore_plan(ws)["restored"] == made[-1]
    # v1 ids compare their suffix as a number: -10 after -9.
    assert sorted(["20260501T100000Z-10", "20260501T100000Z-9", "20260501T100000Z"], key=backups.order_key) == \
        ["20260501T100000Z", "20260501T100000Z-9", "20260501T100000Z-10"]


def test_a_backup_made_under_a_future_clock_does_not_hijack_newest(ws, monkeypatch):
    (ws / "f.md").write_text("first")
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2099-01-01T00:00:00Z")
    future = backups.start(ws, "future")
    future.save(ws / "f.md")
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-05-01T00:00:00Z")
    (ws / "f.md").write_text("second")
    later = backups.start(ws, "later")
    later.save(ws / "f.md")
    assert [d["id"] for d in backups.list_backups(ws)] == [future.id, later.id]
    assert backups.restore_plan(ws)["restored"] == later.id


def test_newest_skips_the_restores_own_safety_copies(ws):
    f = ws / "AGENTS.md"
    f.write_text("original")
    b = backups.start(ws, "init")
    b.save(f)
    f.write_text("changed by init")
    first = backups.restore(ws)
    assert first["restored"] == b.id and f.read_text() == "original"
    f.write_text("edited again")
    second = backups.restore(ws)  # still the init backup, not the safety copy of the first restore
    assert second["restored"] == b.id and f.read_text() == "original"
    docs = backups.list_backups(ws)
    assert [(d["role"], d.get("restores")) for d in docs] == [("change", None), ("safety", b.id), ("safety", b.id)]
    backups.restore(ws, first["safety_backup"])  # undo the first restore explicitly
    assert f.read_text() == "changed by init"


def test_v1_manifest_still_lists_and_restores(ws):
    shutil.copytree(V1_FIXTURE, backups.backup_root(ws))
    (ws / "AGENTS.md").write_text("rewritten by an old init\n")
    (ws / "MEMORY.md").write_text("lessons\n")
    (ws / "memory").mkdir()
    [doc] = backups.list_backups(ws)
    assert (doc["id"], doc["version"], doc["role"], doc["files"]) == ("20260301T090000Z", 1, "change", 3)
    result = backups.restore(ws)
    assert result["restored"] == "20260301T090000Z"
    assert (ws / "AGENTS.md").read_bytes() == (V1_FIXTURE / "20260301T090000Z/files/AGENTS.md").read_bytes()
    assert not (ws / "MEMORY.md").exists() and not (ws / "memory").exists()
    # The v2 safety backup sorts after the v1 one.
    assert [d["id"] for d in backups.list_backups(ws)] == ["20260301T090000Z", result["safety_backup"]]


# ----------------------------------------------------------------------------- manifest attacks (issue 10)

@pytest.mark.parametrize("bad", ["../outside.md", "/etc/passwd", "a/../../outside.md", "./AGENTS.md", "",
                                 ".memory-backup/.lock", "a\\..\\b", None])
def test_restore_refuses_paths_out_of_the_workspace(ws, tmp_path, bad):
    outside = tmp_path / "outside.md"
    outside.write_text("not yours")
    (ws / "AGENTS.md").write_text("keep")
    ident = _forge(ws, [{"path": "AGENTS.md", "existed": False, "kind": "file"},
                        {"path": bad, "existed": False, "kind": "file"}])
    before = _tree(ws)
    with pytest.raises(BackupError, match="nothing was changed"):
        backups.restore(ws, ident)
    assert outside.read_text() == "not yours" and _tree(ws) == before


def test_restore_refuses_a_symlinked_folder_leading_out(ws, tmp_path):
    away = tmp_path / "away"
    away.mkdir()
    (away / "x.md").write_text("outside file")
    (ws / "link").symlink_to(away)
    ident = _forge(ws, [{"path": "link/x.md", "existed": False, "kind": "file"}])
    with pytest.raises(BackupError, match="symlink out of the workspace"):
        backups.restore(ws, ident)
    assert (away / "x.md").read_text() == "outside file"


def test_did_not_exist_never_wipes_a_tree_of_user_files(ws):
    (ws / "memory/daily").mkdir(parents=True)
    (ws / "memory/daily/2026-05-01.md").write_text("user notes")
    ident = _forge(ws, [{"path": "memory", "existed": False, "kind": "file"},
                        {"path": "memory", "existed": False, "kind": "dir"}])
    result = backups.restore(ws, ident)
    assert (ws / "memory/daily/2026-05-01.md").read_text() == "user notes"
    assert result["notes"] == ["memory: a folder is there now; left alone"]


def test_safety_backup_of_a_folder_keeps_its_contents(ws):
    (ws / "memory/daily").mkdir(parents=True)
    (ws / "memory/daily/a.md").write_text("a")
    b = backups.start(ws, "t")
    b.save(ws / "memory")
    saved = {e["path"] for e in backups.manifest(ws, b.id)["entries"]}
    assert saved == {"memory", "memory/daily", "memory/daily/a.md"}
    assert backups.read_copy(ws, b.id, "memory/daily/a.md") == b"a"


def test_forged_checksum_or_mode_is_refused(ws):
    ident = _forge(ws, [{"path": "a.md", "existed": True, "kind": "file", "sha256": "x" * 64, "mode": 0o644}],
                   {"a.md": b"a"})
    with pytest.raises(BackupError, match="malformed"):
        backups.restore(ws, ident)
    assert not (ws / "a.md").exists()


def test_restore_replaces_a_planted_symlink_without_following_it(ws, tmp_path):
    target = tmp_path / "victim.md"
    target.write_text("victim")
    (ws / "AGENTS.md").write_text("mine")
    b = backups.start(ws, "t")
    b.save(ws / "AGENTS.md")
    (ws / "AGENTS.md").unlink()
    (ws / "AGENTS.md").symlink_to(target)
    backups.restore(ws)
    assert target.read_text() == "victim"
    assert not (ws / "AGENTS.md").is_symlink() and (ws / "AGENTS.md").read_text() == "mine"


# ----------------------------------------------------------------------------- sealed copies (issue 10)

T2_TEXT = b"---\ntier: internal\nsource_skill: s\n---\n\nUser likes tea.\n"
PII_TEXT = b"# Agents\n\nMail bob.smith@corp.com for access.\n"


def test_t2_and_finding_copies_are_encrypted_and_restore_byte_for_byte(ws, t2_key):
    t2 = ws / "memory/tier2-internal/s_tea.md"
    t2.parent.mkdir(parents=True)
    t2.write_bytes(T2_TEXT)
    agents = ws / "AGENTS.md"
    agents.write_bytes(PII_TEXT)
    plain = ws / "HEARTBEAT.md"
    plain.write_bytes(b"# Heartbeat\n")
    b = backups.start(ws, "t")
    for path in (t2, agents, plain):
        b.save(path)
    stored = {e["path"]: e["stored"] for e in backups.manifest(ws, b.id)["entries"]}
    assert stored == {"memory/tier2-internal/s_tea.md": "aes-gcm", "AGENTS.md": "aes-gcm", "HEARTBEAT.md": "plain"}
    raw = b"".join(p.read_bytes() for p in (b.folder / "files").rglob("*") if p.is_file())
    assert b"tea" not in raw and b"bob.smith" not in raw and b"# Heartbeat" in raw
    t2.write_text("changed")
    agents.unlink()
    backups.restore(ws)
    assert t2.read_bytes() == T2_TEXT and agents.read_bytes() == PII_TEXT


def test_without_the_key_such_copies_are_withheld_and_restore_says_so(ws, monkeypatch):
    agents = ws / "AGENTS.md"
    agents.write_bytes(PII_TEXT)
    # A change nobody approved may not withhold the copy: it is refused before anything changes.
    with pytest.raises(BackupError, match="no T2 key to seal its backup copy"):
        backups.start(ws, "t").save(agents)
    b = backups.start(ws, "t", allow_withheld=True)
    b.save(agents)
    assert b.withheld == ["AGENTS.md"] and not (b.folder / "files").exists()
    agents.write_text("changed")
    result = backups.restore(ws)
    assert agents.read_text() == "changed"
    assert result["notes"] == ["AGENTS.md: its copy was withheld (no T2 key when it was saved); not restored"]


def test_an_encrypted_copy_needs_the_key_and_fails_safely_without_it(ws, monkeypatch, t2_key):
    agents = ws / "AGENTS.md"
    agents.write_bytes(PII_TEXT)
    b = backups.start(ws, "t")
    b.save(agents)
    agents.write_text("changed")
    monkeypatch.delenv("MEMORY_MANAGER_KEY")
    with pytest.raises(BackupError, match="no T2 key"):
        backups.restore(ws)
    monkeypatch.setenv("MEMORY_MANAGER_KEY", "B" + TEST_KEY[1:])  # another key
    with pytest.raises(BackupError, match="does not decrypt"):
        backups.restore(ws)
    assert agents.read_text() == "changed"


def test_a_sealed_copy_moved_to_another_path_does_not_decrypt(ws, t2_key):
    (ws / "AGENTS.md").write_bytes(PII_TEXT)
    (ws / "MEMORY.md").write_bytes(PII_TEXT.replace(b"Agents", b"Memory"))
    b = backups.start(ws, "t")
    b.save(ws / "AGENTS.md")
    b.save(ws / "MEMORY.md")
    shutil.copy(b.folder / "files/MEMORY.md", b.folder / "files/AGENTS.md")
    (ws / "AGENTS.md").write_text("x")
    with pytest.raises(BackupError, match="does not decrypt"):
        backups.restore(ws)


# ----------------------------------------------------------------------------- private modes

def test_backup_files_are_0600_and_folders_0700(ws, t2_key):
    (ws / "memory/daily").mkdir(parents=True)
    (ws / "memory/daily/a.md").write_text("note")
    with fsio.workspace_lock(ws):
        b = backups.start(ws, "t")
        b.save(ws / "memory/daily/a.md")
        fsio.atomic_write(ws / "memory/.state/x/y.json", b"{}")
        fsio.atomic_write(ws / "memory/.cache/z.txt", b"z")
    for top in (backups.backup_root(ws), ws / "memory/.state", ws / "memory/.cache"):
        for path in [top, *top.rglob("*")]:
            want = 0o700 if path.is_dir() else 0o600
            assert stat.S_IMODE(path.stat().st_mode) == want, path


# ----------------------------------------------------------------------------- journal and rollback (issue 11)

def _killed_change(ws: Path) -> backups.Backup:
    """Open a backup under the lock, change files, and 'die' (the lock release never marks it complete)."""
    with fsio.workspace_lock(ws):
        b = backups.start(ws, "init")
        b.save(ws / "AGENTS.md")
        b.save(ws / "NEW.md")
        b.save_new_dir(ws / "memory")
        (ws / "AGENTS.md").write_text("half-written change")
        (ws / "NEW.md").write_text("new")
        (ws / "memory").mkdir()
        backups._OPEN.pop(str(ws.absolute()))  # as if SIGKILLed: nobody closes it
    return b


def test_the_next_lock_holder_rolls_back_a_killed_change(ws):
    (ws / "AGENTS.md").write_text("original")
    b = _killed_change(ws)
    assert backups.interrupted(ws) == [b.id]
    with fsio.workspace_lock(ws):
        pass
    assert (ws / "AGENTS.md").read_text() == "original" and not (ws / "NEW.md").exists()
    assert not (ws / "memory").exists() and backups.interrupted(ws) == []
    assert backups.manifest(ws, b.id)["state"] == "rolled-back"
    with pytest.raises(NotFoundError):  # a rolled-back change is not "newest"
        backups.restore(ws)


def test_restore_reports_the_rolled_back_change(ws):
    (ws / "AGENTS.md").write_text("original")
    done = backups.start(ws, "earlier")
    done.save(ws / "AGENTS.md")
    b = _killed_change(ws)
    assert backups.restore_plan(ws)["interrupted"] == [b.id]
    result = backups.restore(ws)
    assert result["rolled_back"] == [b.id] and result["restored"] == done.id
    assert (ws / "AGENTS.md").read_text() == "original"


def test_a_torn_entry_line_is_ignored(ws):
    (ws / "AGENTS.md").write_text("original")
    b = backups.start(ws, "t")
    b.save(ws / "AGENTS.md")
    with open(b.folder / "entries.jsonl", "a") as handle:
        handle.write('{"path": "MEM')
    assert [e["path"] for e in backups.manifest(ws, b.id)["entries"]] == ["AGENTS.md"]


def test_stale_staging_files_of_ours_are_swept_and_others_kept(ws):
    (ws / "memory/daily").mkdir(parents=True)
    ours = [ws / ".AGENTS.md.k2j4h5g6.tmp", ws / "memory/daily/.2026-05-01.md.ab_cd123.tmp"]
    theirs = [ws / ".notes.md.k2j4h5g6.tmp", ws / "memory/daily/.scratch.tmp", ws / "draft.tmp"]
    for path in ours + theirs:
        path.write_text("x")
        os.utime(path, (time.time() - 60, time.time() - 60))
    with fsio.workspace_lock(ws):
        pass
    assert [p.exists() for p in ours] == [False, False] and all(p.exists() for p in theirs)


def test_the_sweep_removes_only_names_it_can_prove_are_its_own(ws):
    """Issue 11, fault round 5: our writer's names carry ``mmstage-``; the old unmarked form
    is swept only in the backup folder, for a daily note's name, or beside the file it
    rewrites. A user's hidden file that merely looks like the old form stays."""
    for folder in ("memory/knowledge", "hooks/h", ".memory-backup"):
        (ws / folder).mkdir(parents=True, exist_ok=True)
    (ws / "memory/knowledge/deploy.md").write_text("entry")
    ours = [ws / "memory/knowledge/.deploy.md.mmstage-ab12cd34.tmp",   # the current form
            ws / "memory/knowledge/.deploy.md.ab12cd34.tmp",           # old form, beside its file
            ws / "hooks/h/.handler.js.mmstage-k2j4h5g6.tmp",           # current form, no target
            ws / ".memory-backup/.manifest.json.zz_99aa1.tmp"]          # the backup folder is ours
    theirs = [ws / "memory/knowledge/.todo.list0001.tmp", ws / "memory/.ideas.20261129.tmp",
              ws / "hooks/h/.handler.js.k2j4h5g6.tmp", ws / "memory/knowledge/.gone.md.ab12cd34.tmp"]
    for path in ours + theirs:
        path.write_text("x")
        os.utime(path, (time.time() - 60, time.time() - 60))
    with fsio.workspace_lock(ws):
        pass
    assert [p.name for p in ours if p.exists()] == []
    assert [p.name for p in theirs if not p.exists()] == []


def test_a_write_stages_under_the_marked_name(ws, monkeypatch):
    """The staging file :func:`fsio.atomic_write` makes is named ``.<target>.mmstage-<8>.tmp``."""
    seen = []
    real = fsio.os.replace

    def spy(src, dst, *a, **k):
        seen.append(Path(src).name)
        return real(src, dst, *a, **k)

    monkeypatch.setattr(fsio.os, "replace", spy)
    fsio.atomic_write(ws / "note.md", b"hello")
    assert (ws / "note.md").read_bytes() == b"hello"
    assert len(seen) == 1 and fsio.STAGING_NAME.match(seen[0]).group("mark") == "mmstage-"
    assert seen[0].startswith(".note.md.mmstage-") and seen[0].endswith(".tmp")


# ----------------------------------------------------------------------------- retention

def _aged(ws, monkeypatch, n: int, day: str = "2026-01-01") -> list[str]:
    """``n`` backups made on ``day``, each holding another version of a knowledge entry (the
    bundle's own note: an old version of it is not a user's file, so the policy alone decides)."""
    monkeypatch.setenv("MEMORY_MANAGER_NOW", f"{day}T00:00:00Z")
    note = ws / "memory/knowledge/f.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    made = []
    for i in range(n):
        note.write_text(f"version {i}")
        b = backups.start(ws, "change")
        b.save(note)
        made.append(b.id)
    return made


def test_retention_keeps_the_last_20_and_the_young(ws, monkeypatch):
    cfg = load_config(ws)
    old = _aged(ws, monkeypatch, 25, "2026-01-01")
    young = _aged(ws, monkeypatch, 3, "2026-06-01")
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-06-01T12:00:00Z")
    plan = backups.retention(ws, cfg, dry_run=True)
    assert plan["removed"] == old[:8] and plan["dry_run"]
    assert len(backups.list_backups(ws)) == 28
    result = backups.retention(ws, cfg)
    assert result["removed"] == old[:8] and result["bytes_freed"] > 0
    assert [d["id"] for d in backups.list_backups(ws)] == old[8:] + young
    # Nothing younger than a day goes, even past every limit.
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-06-01T12:00:00Z")
    tight = dict(cfg, backups={"keep_last": 1, "min_age_days": 1, "max_age_days": 1, "max_total_mb": 0})
    assert backups.retention(ws, tight)["removed"] == old[8:]
    assert [d["id"] for d in backups.list_backups(ws)] == young


def test_retention_never_deletes_the_only_copy_of_a_users_file(ws, monkeypatch):
    cfg = load_config(ws)
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-01-01T00:00:00Z")
    (ws / "gone.md").write_text("only copy")
    b = backups.start(ws, "forget")
    b.save(ws / "gone.md")
    (ws / "gone.md").unlink()
    rest = _aged(ws, monkeypatch, 21, "2026-01-02")
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-12-01T00:00:00Z")
    result = backups.retention(ws, cfg)
    assert b.id in result["kept_only_copy"] and b.id not in result["removed"]
    assert result["removed"] == [rest[0]]  # holds a version of the note f.md, which still exists
    assert backups.read_copy(ws, b.id, "gone.md") == b"only copy"


def _copy_of(ws, rel: str, text: str) -> str:
    """A closed backup holding a copy of ``rel`` as ``text``; returns its id."""
    path = ws / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    b = backups.start(ws, "change")
    b.save(path)
    b.close()
    return b.id


def test_retention_keeps_the_only_copy_of_a_users_file_rewritten_since(ws, monkeypatch):
    """Issue 10: retention "never deletes the only copy of a user's file". A user's file
    (outside memory/, such as the AGENTS.md init rewrote) still in the workspace with other
    bytes: the backup's copy is the only copy of what it held, and the backup stays; the same
    for the workspace's config override. A note of the bundle's (memory/knowledge/) in the same
    state goes, and so does a copy whose bytes are back in the workspace or in a newer backup."""
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-01-01T00:00:00Z")
    agents = _copy_of(ws, "AGENTS.md", "# My rules\n")
    override = _copy_of(ws, "memory/memory-manager.json", '{"language": "en"}\n')
    note = _copy_of(ws, "memory/knowledge/deploy.md", "Tag first.\n")
    soul_old = _copy_of(ws, "SOUL.md", "calm\n")
    soul_new = _copy_of(ws, "SOUL.md", "calm\n")  # the same bytes again, in a newer backup
    back = _copy_of(ws, "HEARTBEAT.md", "- check mail\n")
    hook = _copy_of(ws, "hooks/memory-manager-bootstrap/HOOK.md", "old hook\n")
    newest = _copy_of(ws, "memory/knowledge/last.md", "kept by keep_last\n")
    (ws / "AGENTS.md").write_text("# My rules\n<!-- managed block -->\n")
    (ws / "memory/memory-manager.json").write_text('{"language": "zh"}\n')
    (ws / "memory/knowledge/deploy.md").write_text("Tag, then deploy.\n")
    (ws / "SOUL.md").write_text("bold\n")
    (ws / "hooks/memory-manager-bootstrap/HOOK.md").write_text("new hook\n")
    # HEARTBEAT.md holds its backed-up bytes again: not the only copy.
    policy = {"keep_last": 1, "min_age_days": 1, "max_age_days": 30, "max_total_mb": 0}
    cfg = dict(load_config(ws), backups=policy)
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-12-01T00:00:00Z")
    result = backups.retention(ws, cfg)
    assert result["kept_only_copy"] == [agents, override, soul_new]
    assert result["only_copy_paths"] == {agents: ["AGENTS.md"], override: ["memory/memory-manager.json"],
                                         soul_new: ["SOUL.md"]}
    assert result["removed"] == [note, soul_old, back, hook]
    assert [d["id"] for d in backups.list_backups(ws)] == [agents, override, soul_new, newest]
    assert backups.read_copy(ws, agents, "AGENTS.md") == b"# My rules\n"
    assert backups.read_copy(ws, soul_new, "SOUL.md") == b"calm\n"


@pytest.mark.parametrize("damage", ["no-manifest", "not-json", "newer-version"])
def test_retention_keeps_an_unreadable_backup_holding_copies(ws, monkeypatch, damage):
    """Issue 11, fault round 5: a backup whose manifest cannot be read cannot prove a copy
    in it is not the only one: it is kept (``kept_unreadable``), its copy byte-identical,
    while an unreadable backup holding no copy at all is still removed."""
    cfg = load_config(ws)
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-01-01T00:00:00Z")
    (ws / "gone.md").write_text("only copy")
    b = backups.start(ws, "forget")
    b.save(ws / "gone.md")
    b.close()
    (ws / "gone.md").unlink()
    empty = backups.start(ws, "nothing")
    empty.save_new_dir(ws / "newdir")
    empty.close()
    rest = _aged(ws, monkeypatch, 21, "2026-01-02")
    for ident in (b.id, empty.id):
        manifest = ws / ".memory-backup" / ident / "manifest.json"
        if damage == "no-manifest":
            manifest.unlink()
        elif damage == "not-json":
            manifest.write_bytes(manifest.read_bytes()[:30])
        else:
            manifest.write_text(json.dumps(dict(json.loads(manifest.read_text()), version=99)))
    copies = {p: p.read_bytes() for p in (ws / ".memory-backup" / b.id).rglob("*") if p.is_file()}
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-12-01T00:00:00Z")
    # An unreadable backup's age is unknown, so it counts as young; min_age_days 0 removes that guard.
    result = backups.retention(ws, dict(cfg, backups={"keep_last": 1, "min_age_days": 0, "max_age_days": 30,
                                                      "max_total_mb": 0}))
    assert result["kept_unreadable"] == [b.id]
    assert empty.id in result["removed"] and b.id not in result["removed"]
    assert {p: p.read_bytes() for p in copies if p.is_file()} == copies
    assert result["removed"] == sorted([empty.id, *rest[:-1]])


def test_retention_config_is_validated(ws):
    override = ws / "memory/memory-manager.json"
    override.parent.mkdir(parents=True)
    for bad, message in (({"keep_last": 0}, "at least 1"), ({"min_age_days": -1}, "negative"),
                         ({"max_age_days": "old"}, "must be a number"), ({"max_age_days": 0.5}, "whole number"),
                         ({"keep": 3}, "unknown key")):
        override.write_text(json.dumps({"backups": bad}))
        with pytest.raises(ConfigError, match=message):
            load_config(ws)


# ----------------------------------------------------------------------------- erasing copies

def test_erase_copies_removes_every_copy_holding_the_entry_and_counts(ws, t2_key):
    t2 = ws / "memory/tier2-internal/s_x.md"
    t2.parent.mkdir(parents=True)
    t2.write_text("entry t-abc123: secret plan\n")
    (ws / "other.md").write_text("unrelated\n")
    first = backups.start(ws, "a")
    first.save(t2)
    first.save(ws / "other.md")
    t2.write_text("entry t-abc123: secret plan v2\n")
    second = backups.start(ws, "b")
    second.save(t2)
    result = backups.erase_copies(ws, ["t-abc123"])
    assert result == {"erased": 2, "backups": [first.id, second.id], "unchecked": 0}
    assert [(i, e["path"]) for i, e, _ in backups.iter_copies(ws)] == [(first.id, "other.md")]
    assert backups.manifest(ws, first.id)["entries"][0]["stored"] == "erased"
    with pytest.raises(NotFoundError, match="erased"):
        backups.read_copy(ws, first.id, "memory/tier2-internal/s_x.md")
    assert backups.erase_copies(ws, ["t-abc123"])["erased"] == 0


def test_erase_copies_counts_what_it_could_not_check(ws, monkeypatch, t2_key):
    t2 = ws / "memory/tier2-internal/s_x.md"
    t2.parent.mkdir(parents=True)
    t2.write_text("t-abc123\n")
    backups.start(ws, "a").save(t2)
    monkeypatch.delenv("MEMORY_MANAGER_KEY")
    assert backups.erase_copies(ws, ["t-abc123"]) == {"erased": 0, "backups": [], "unchecked": 1}


def test_modes_left_by_older_versions_are_tightened_by_the_next_writer(ws):
    (ws / "memory/.state").mkdir(parents=True)
    (ws / "memory/.cache").mkdir()
    (ws / "memory/.state/cleanup.log").write_text("old log")
    (ws / "memory/.cache/recall-index.sqlite").write_text("x")
    old = backups.backup_root(ws) / "20260101T000000Z" / "files"
    old.mkdir(parents=True)
    (old / "AGENTS.md").write_text("copy")
    for path in [ws / "memory/.state", ws / "memory/.cache", *old.parents, *ws.rglob("*")]:
        if str(path).startswith(str(ws)) and not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)
    with fsio.workspace_lock(ws):
        pass
    for top in (backups.backup_root(ws), ws / "memory/.state", ws / "memory/.cache"):
        for path in [top, *top.rglob("*")]:
            assert stat.S_IMODE(path.stat().st_mode) == (0o700 if path.is_dir() else 0o600), path


def test_cleanup_and_recall_leave_private_folders_private(ws, run_script, t2_key):
    (ws / "AGENTS.md").write_text("# Rules\n")
    assert run_script("init", "--yes", "--no-hooks").code == 0
    assert run_script("memory", "write", "--topic", "Release", "--change", "tagged v2").code == 0
    assert run_script("memory", "recall", "release").code == 0
    assert run_script("cleanup").code == 0
    tops = [backups.backup_root(ws), ws / "memory/.state", ws / "memory/.cache"]
    assert all(top.is_dir() for top in tops)
    for top in tops:
        for path in [top, *top.rglob("*")]:
            assert stat.S_IMODE(path.stat().st_mode) == (0o700 if path.is_dir() else 0o600), path


def test_cleanup_applies_the_retention_policy(ws, monkeypatch):
    from memory_manager.cleanup import run_cleanup

    (ws / "memory/daily").mkdir(parents=True)
    made = _aged(ws, monkeypatch, 22, "2026-01-01")
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-06-01T00:00:00Z")
    report = run_cleanup(ws, load_config(ws))
    assert [(a.step, a.path) for a in report.actions] == [("backup-retention", f".memory-backup/{i}") for i in made[:2]]
    assert [d["id"] for d in backups.list_backups(ws)] == made[2:]


# ----------------------------------------------------------------------------- through init.py

def test_init_list_backups_and_dry_run_name_the_backup_restore_would_use(ws, run_script, t2_key, monkeypatch):
    (ws / "AGENTS.md").write_bytes(PII_TEXT)
    original = _tree(ws)
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2099-01-01T00:00:00Z")  # a clock far ahead first
    assert run_script("init", "--yes", "--no-hooks").code == 0
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-05-01T00:00:00Z")
    (ws / "AGENTS.md").write_text("edited after init\n")
    assert run_script("init", "--yes", "--no-hooks").code == 0
    listed = json.loads(run_script("init", "--list-backups", "--json").out)["backups"]
    assert [(b["seq"], b["reason"], b["role"], b["state"]) for b in listed] == \
        [(1, "init", "change", "complete"), (2, "init", "change", "complete")]
    dry = json.loads(run_script("init", "--restore", "--dry-run", "--json").out)
    assert dry["restored"] == listed[1]["id"] and dry["paths"] == ["restore AGENTS.md"]
    human = run_script("init", "--restore", "--dry-run")
    assert f"would restore backup {listed[1]['id']} (init," in human.out
    assert run_script("init", "--restore").code == 0
    assert (ws / "AGENTS.md").read_text() == "edited after init\n"
    # Restoring again uses the same init backup, not the restore's safety copy.
    dry = json.loads(run_script("init", "--restore", "--dry-run", "--json").out)
    assert dry["restored"] == listed[1]["id"] and dry["paths"] == []
    # AGENTS.md was edited by hand since the first init: restoring it needs --force.
    refused = run_script("init", "--restore", listed[0]["id"], "--yes")
    assert refused.code == 1 and "changed since backup" in refused.err and "AGENTS.md" in refused.err
    assert run_script("init", "--restore", listed[0]["id"], "--yes", "--force").code == 0
    assert _tree(ws) == original  # the encrypted copy restored byte for byte


def test_init_restore_refuses_a_manifest_reaching_outside(ws, run_script, tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.md").write_text("outside the workspace")
    ident = _forge(ws, [{"path": "../victim", "existed": False, "kind": "file"}])
    result = run_script("init", "--restore", ident, "--yes")
    # A forged manifest is validated bad input (issue 11's exit-code contract): exit 2, one line naming the file.
    assert result.code == 2, (result.code, result.err)
    assert result.err == (f"error: backup {ident}: path '../victim' leaves the workspace in "
                          f".memory-backup/{ident}/entries.jsonl; nothing was changed\n")
    assert (victim / "keep.md").read_text() == "outside the workspace"


@pytest.mark.parametrize("entry", [{"path": "/etc/passwd", "existed": False, "kind": "file"},
                                   {"path": ".memory-backup/.lock", "existed": False, "kind": "file"},
                                   {"path": "a.md", "existed": "yes", "kind": "file"},
                                   {"path": "a.md", "existed": True, "kind": "file", "sha256": "x", "mode": 420},
                                   ["not", "an", "object"]])
def test_init_restore_of_a_forged_manifest_entry_is_bad_input_naming_the_file(ws, run_script, entry):
    (ws / "a.md").write_text("keep")
    ident = _forge(ws, [entry])
    before = _tree(ws)
    result = run_script("init", "--restore", ident, "--json")
    assert result.code == 2, (result.code, result.out, result.err)
    doc = json.loads(result.out)
    assert doc["kind"] == "malformed_backup" and f".memory-backup/{ident}/entries.jsonl" in doc["error"], doc
    assert doc["error"].endswith("nothing was changed") and "\n" not in doc["error"]
    assert _tree(ws) == before


def test_a_damaged_copy_stays_a_backup_error_not_bad_input(ws):
    """A copy that fails its checksum is damage, not a forged field: exit 1 as before."""
    from memory_manager.errors import MalformedBackupError

    ident = _forge(ws, [{"path": "a.md", "existed": True, "kind": "file", "sha256": "0" * 64, "mode": 0o644}],
                   {"a.md": b"a"})
    with pytest.raises(BackupError, match="fails its sha256 check") as caught:
        backups.restore(ws, ident)
    assert not isinstance(caught.value, MalformedBackupError) and caught.value.exit_code == 1


def test_a_file_changed_after_the_checks_is_not_overwritten(ws, monkeypatch):
    from memory_manager.errors import DirtyFileError

    (ws / "a.md").write_text("backed up")
    (ws / "b.md").write_text("backed up b")
    b = backups.start(ws, "t")
    b.save(ws / "a.md")
    b.save(ws / "b.md")
    (ws / "a.md").write_text("changed by the command")
    (ws / "b.md").write_text("changed by the command b")
    real_plan = backups._plan

    def plan_then_edit(*args, **kwargs):
        steps = real_plan(*args, **kwargs)
        (ws / "b.md").write_text("the user typed this meanwhile")  # after the checks, before the writes
        return steps

    monkeypatch.setattr(backups, "_plan", plan_then_edit)
    with pytest.raises(DirtyFileError, match="b.md changed while the restore was running"):
        backups.restore(ws, b.id)
    assert (ws / "b.md").read_text() == "the user typed this meanwhile"
    assert (ws / "a.md").read_text() == "backed up"  # done before it stopped, and in the safety copy
    [safety] = [d for d in backups.list_backups(ws) if d["role"] == "safety"]
    assert backups.read_copy(ws, safety["id"], "a.md") == b"changed by the command"


def test_an_interrupted_change_that_cannot_be_rolled_back_says_how_to_go_on(ws):
    (ws / "AGENTS.md").write_text("original")
    b = _killed_change(ws)
    (b.folder / "files" / "AGENTS.md").unlink()  # its copy is gone
    with pytest.raises(BackupError, match=r"cannot be rolled back: .*copy of AGENTS.md is missing.*delete .*\.open-"):
        with fsio.workspace_lock(ws):
            pass
    assert (ws / "AGENTS.md").read_text() == "half-written change"  # nothing was touched
    (backups.backup_root(ws) / f".open-{b.id}").unlink()
    with fsio.workspace_lock(ws):
        pass
    assert (ws / "AGENTS.md").read_text() == "half-written change"


# ----------------------------------------------------------------------------- v4: changes without a copy

def test_two_insertions_into_one_file_in_one_command_roll_back_from_either_state(ws):
    """An import writes one note twice under one backup: the entry is updated, and a kill
    between the two writes (or after both) still rolls back to the original bytes."""
    note = ws / "memory/daily/2026-11-29.md"
    note.parent.mkdir(parents=True)
    original = b"## [2026-11-29] A\n- x\n"
    mid = original + b"\n## [2026-11-29] B\n- y\n"
    final = mid + b"\n## [2026-11-29] C\n- z\n"
    for stop_after in ("first", "second save", "second write"):
        note.write_bytes(original)
        with fsio.workspace_lock(ws):
            b = backups.start(ws, "import")
            b.save_change(note, mid)
            fsio.atomic_write(note, mid)
            if stop_after != "first":
                b.save_change(note, final)
            if stop_after == "second write":
                fsio.atomic_write(note, final)
            backups._OPEN.pop(str(ws.absolute()))  # as if SIGKILLed
        (entry,) = backups.manifest(ws, b.id)["entries"]
        if stop_after == "first":
            assert entry["inserted"] == [[len(original), len(mid)]] and "also" not in entry
        else:
            assert entry["inserted"] == [[len(original), len(final)]]
            assert entry["also"] == [{"new_sha256": fsio.sha256_bytes(mid), "new_size": len(mid),
                                      "inserted": [[len(original), len(mid)]]}]
        with fsio.workspace_lock(ws):
            pass  # the next lock holder rolls the killed change back
        assert note.read_bytes() == original, stop_after
        assert backups.manifest(ws, b.id)["state"] == "rolled-back"
    assert not list(backups.iter_copies(ws))


def test_retention_an_insertions_entry_is_not_the_only_copy(ws, monkeypatch):
    cfg = load_config(ws)
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-01-01T00:00:00Z")
    (ws / "gone.md").write_text("first line\n")
    appended = backups.start(ws, "write")
    appended.save_change(ws / "gone.md", b"first line\nsecond line\n")
    (ws / "kept.md").write_text("only copy")
    copied = backups.start(ws, "forget")
    copied.save(ws / "kept.md")
    (ws / "gone.md").unlink()
    (ws / "kept.md").unlink()
    rest = _aged(ws, monkeypatch, 20, "2026-01-02")
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-12-01T00:00:00Z")
    result = backups.retention(ws, dict(cfg, backups={"keep_last": 20, "min_age_days": 1, "max_age_days": 30,
                                                      "max_total_mb": 0}))
    # The insertions entry cannot give gone.md back on its own (it holds no bytes): not a copy.
    assert result["removed"] == [appended.id] and result["kept_only_copy"] == [copied.id]
    assert [d["id"] for d in backups.list_backups(ws)] == [copied.id, *rest]


def test_a_forged_insertions_entry_is_refused_before_anything_changes(ws):
    (ws / "a.md").write_bytes(b"abcdef")
    now = fsio.sha256_bytes(b"abcdef")
    base = {"path": "a.md", "existed": True, "kind": "file", "stored": "insertions", "mode": 0o644,
            "sha256": fsio.sha256_bytes(b"abc"), "size": 3, "new_sha256": now, "new_size": 6}
    for bad in ([[3, 9]], [[4, 2]], [[0, 1], [0, 2]], "3-6", [[3, 6.0]]):
        ident = _forge(ws, [dict(base, inserted=bad)])
        with pytest.raises(BackupError, match="malformed entry for a.md"):
            backups.restore(ws, ident)
        shutil.rmtree(backups.backup_root(ws) / ident)
    # Ranges of the right shape whose deletion does not give the recorded old bytes.
    ident = _forge(ws, [dict(base, inserted=[[0, 3]])])
    with pytest.raises(BackupError, match="fails its sha256 check"):
        backups.restore(ws, ident)
    assert (ws / "a.md").read_bytes() == b"abcdef"
    shutil.rmtree(backups.backup_root(ws) / ident)
    ident = _forge(ws, [dict(base, inserted=[[3, 6]])])
    assert backups.restore(ws, ident)["paths"] == ["a.md"] and (ws / "a.md").read_bytes() == b"abc"


def test_a_deletions_entry_with_a_size_of_the_wrong_type_is_malformed(ws):
    (ws / "a.md").write_bytes(b"abc")
    now = fsio.sha256_bytes(b"abc")
    base = {"path": "a.md", "existed": True, "kind": "file", "stored": "deletions", "mode": 0o644,
            "sha256": fsio.sha256_bytes(b"abcdef"), "new_sha256": now, "new_size": 3, "deleted": [[3, 6]]}
    for bad in ("abc", "6", 6.0, -1, [6]):
        ident = _forge(ws, [dict(base, size=bad)])
        with pytest.raises(BackupError, match="malformed entry for a.md"):
            backups.restore(ws, ident)
        assert (ws / "a.md").read_bytes() == b"abc"
        shutil.rmtree(backups.backup_root(ws) / ident)


def test_a_v3_backup_still_restores_and_a_v4_one_lists_its_kinds(ws):
    (ws / "a.md").write_text("v3 copy")
    b = backups.start(ws, "old")
    b.save(ws / "a.md")
    header = json.loads((b.folder / "manifest.json").read_text())
    (b.folder / "manifest.json").write_text(json.dumps(dict(header, version=3)))
    (ws / "a.md").write_text("changed")
    assert backups.restore(ws, b.id)["paths"] == ["a.md"] and (ws / "a.md").read_text() == "v3 copy"
    c = backups.start(ws, "new")
    c.save_change(ws / "a.md", b"v3 copy, appended")
    assert backups.stored_counts(backups.manifest(ws, c.id)) == {"insertions": 1}
    assert backups.manifest(ws, c.id)["version"] == backups.VERSION == 5


def test_erase_copies_searches_the_bytes_a_replacements_entry_keeps(ws):
    (ws / "a.md").write_bytes(b"updated: 28\nplan tulip\nbody line one\nbody line two\nbody line three\n")
    b = backups.start(ws, "learn")
    new = b"updated: 29\nplan rose\nbody line one\nbody line two\nbody line three\nmore\n"
    b.save_change(ws / "a.md", new)
    (ws / "a.md").write_bytes(new)
    (entry,) = backups.manifest(ws, b.id)["entries"]
    assert (entry["stored"], entry["pieces"]) == ("replacements", "plain")
    assert (b.folder / "files" / "a.md").read_bytes() == b"8\nplan tulip"  # the replaced bytes only
    assert backups.read_copy(ws, b.id, "a.md") == b"updated: 28\nplan tulip\nbody line one\nbody line two\nbody line three\n"
    assert [e["path"] for _, e, _ in backups.iter_copies(ws)] == ["a.md"]  # its pieces count as a copy here
    assert backups.erase_copies(ws, ["tulip"]) == {"erased": 1, "backups": [b.id], "unchecked": 0}
    assert backups.manifest(ws, b.id)["entries"][0]["stored"] == "erased"
    assert not (b.folder / "files" / "a.md").exists()


def test_save_change_keeps_a_copy_when_most_of_a_file_is_replaced(ws, monkeypatch):
    """No insertion, deletion or small replacement: a copy, by the rule for copies (sealed with a
    key; without one refused unless approved, then withheld)."""
    monkeypatch.setattr(backups, "WITHHELD", [])  # the CLI warns about this list: leave none behind
    note = ws / "memory/daily/2026-11-29.md"
    note.parent.mkdir(parents=True)
    old = ("- mail ops.lead" + "@" + "corp-mail.net about the release\n").encode()
    new = b"- something else entirely, longer than before\n"
    note.write_bytes(old)
    with pytest.raises(BackupError, match="there is no T2 key to seal its backup copy"):
        backups.start(ws, "write").save_change(note, new)
    approved = backups.start(ws, "write", allow_withheld=True)
    approved.save_change(note, new)
    assert approved.entries[0]["stored"] == "withheld" and backups.WITHHELD == ["memory/daily/2026-11-29.md"]
    monkeypatch.setenv("MEMORY_MANAGER_KEY", TEST_KEY)
    sealed = backups.start(ws, "write")
    sealed.save_change(note, new)
    assert sealed.entries[0]["stored"] == "aes-gcm"
    assert backups.read_copy(ws, sealed.id, "memory/daily/2026-11-29.md") == old


def test_a_bare_restore_names_the_newer_backup_it_passed_over_in_the_right_tense(ws, run_script):
    """nu7 (round 6): `--restore --dry-run` said it "restored the newest one that is"."""
    env = {"OPENCLAW_WORKSPACE_DIR": str(ws)}
    assert run_script("init", "--yes", "--no-key", "--no-hooks", env=env).code == 0
    for key, text in (("alpha", "first fact"), ("beta", "second fact")):
        assert run_script("memory", "learn", key, "--text", text, env=env).code == 0
    assert run_script("memory", "forget", "beta", "--approved", env=env).code == 0
    dry = run_script("init", "--restore", "--dry-run", "--json", env=env)
    assert dry.code == 0, dry.err
    doc = json.loads(dry.out)
    assert len(doc["notes"]) == 1
    assert doc["notes"][0].endswith("is not a restore point: copy erased on purpose (forget/purge); "
                                    "would restore the newest one that is")
    real = run_script("init", "--restore", "--yes", "--json", env=env)
    assert real.code == 0, real.err
    assert json.loads(real.out)["notes"][0].endswith("; restored the newest one that is")
