"""Attack (issue 10, "Paths that come from data"), each kind with its siblings.

1. A folder of our tree planted as a symlink out of the workspace (memory/.state, .cache,
   .quarantine, archive, an archive month, .memory-backup, memory/ itself): every command
   refuses in one line, exits non-zero, and writes nothing outside; under --json the
   error is the one JSON document. The write primitives refuse as well, so a caller that
   skips the CLI (a hook, a library user) cannot write through the link either.
2. Paths read from a backup (manifest entries, the copies under files/, journal names):
   a copy that is a symlink, a symlinked folder inside files/, an absolute or ``../``
   path, a journal named ``.open-..``: nothing outside is read, written or removed.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from memory_manager import backups, fsio
from memory_manager.errors import BackupError, WorkspaceError

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
SECRET = "OUTSIDE-SECRET-TEXT"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def planted(ws, tmp_path, run_script):
    """A set-up workspace with a note, and an outside folder holding one file."""
    (ws / "AGENTS.md").write_text("# Rules\n", encoding="utf-8")
    assert run_script("init", "--yes", "--no-hooks", env=NOW).code == 0
    assert run_script("memory", "write", "--topic", "Release", "--change", "tagged the release", env=NOW).code == 0
    out = tmp_path / "outside"
    out.mkdir()
    (out / "secret.md").write_text(f"## [2026-11-29] Outside\n- 改：{SECRET}\n", encoding="utf-8")
    return ws, out


def _link(ws: Path, rel: str, out: Path) -> None:
    path = ws / rel
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(out, target_is_directory=True)


FOLDERS = ["memory/.state", "memory/.cache", "memory/.quarantine", "memory/archive", "memory/archive/2026-09",
           ".memory-backup"]
COMMANDS = [["privacy_audit"], ["memory", "report"], ["memory", "recall", "release"],
            ["memory", "write", "--topic", "T", "--change", "c"], ["memory", "status"], ["cleanup"],
            ["init", "--yes", "--no-hooks"]]


@pytest.mark.parametrize("rel", FOLDERS)
def test_a_symlinked_private_folder_is_refused_by_every_command(planted, run_script, rel):
    ws, out = planted
    _link(ws, rel, out)
    before, mine = _snapshot(out), _snapshot(ws / "memory" / "daily")
    for args in COMMANDS:  # one workspace per folder, every command in turn
        r = run_script(*args, env=NOW)
        assert r.code == 2, (args, r.code, r.out, r.err)
        assert r.err.strip().splitlines() == [f"error: {rel} is a symlink leading outside the workspace; "
                                              "refusing to write (remove the link)"], args
        assert _snapshot(out) == before, args
        assert _snapshot(ws / "memory" / "daily") == mine, args


@pytest.mark.parametrize("rel", ["memory/.state", "memory/.cache"])
def test_the_refusal_is_one_json_document_under_json(planted, run_script, rel):
    ws, out = planted
    _link(ws, rel, out)
    r = run_script("privacy_audit", "--json", env=NOW)
    assert r.code == 2
    doc = json.loads(r.out)
    assert doc["kind"] == "workspace" and f"{rel} is a symlink leading outside" in doc["error"]
    assert _snapshot(out) == {"secret.md": (out / "secret.md").read_bytes()}


@pytest.mark.parametrize("rel", ["memory/.state", "memory/.cache", "memory/.quarantine", ".memory-backup"])
def test_the_write_primitives_refuse_a_private_folder_that_leads_out(planted, rel):
    """Below the CLI (hooks and library callers skip it): atomic_write and make_dirs refuse too."""
    ws, out = planted
    _link(ws, rel, out)
    with pytest.raises(WorkspaceError, match="symlink leading outside the workspace"):
        fsio.atomic_write(ws / rel / "x.json", b"{}")
    with pytest.raises(WorkspaceError):
        fsio.make_dirs(ws / rel / "sub")
    assert sorted(p.name for p in out.iterdir()) == ["secret.md"]


def test_a_symlinked_memory_folder_is_refused_by_the_write_primitives(planted):
    ws, out = planted
    shutil.rmtree(ws / "memory")
    (ws / "memory").symlink_to(out, target_is_directory=True)
    with pytest.raises(WorkspaceError):
        fsio.atomic_write(ws / "memory" / ".state" / "x.json", b"{}")
    assert sorted(p.name for p in out.iterdir()) == ["secret.md"]


@pytest.mark.parametrize("rel", ["memory/.cache/recall-index.sqlite", "memory/.cache/recall-index.sqlite.lock",
                                 "memory/.state/gate-audit.jsonl", "memory/.state/access.json",
                                 ".memory-backup/.lock"])
def test_a_planted_file_link_in_a_private_folder_is_refused(planted, run_script, rel):
    """A file of ours replaced by a link: to a copy of the recall index outside, recall wrote
    the text of every entry into it (SQLite follows links); to a log, appends went there."""
    ws, out = planted
    assert run_script("memory", "recall", "release", env=NOW).code == 0  # the index and access file exist
    path, target = ws / rel, out / "copy"
    target.write_bytes(path.read_bytes() if path.exists() else b"")
    path.unlink(missing_ok=True)
    path.symlink_to(target)
    before, note = target.read_bytes(), (ws / "memory/daily/2026-11-29.md").read_bytes()
    for args in (["memory", "recall", "release"], ["memory", "write", "--topic", "T", "--change", "zzsecret"],
                 ["privacy_audit"], ["cleanup"]):
        r = run_script(*args, env=NOW)
        assert r.code == 2, (args, r.err)
        assert r.err.strip().splitlines() == [f"error: {rel} is a symlink in a private folder of the memory tree; "
                                              "refusing to read or write through it (remove the link)"], args
    assert target.read_bytes() == before
    assert (ws / "memory/daily/2026-11-29.md").read_bytes() == note


def test_the_recall_index_is_never_opened_through_a_link(planted, run_script):
    """Below the CLI: the index module refuses a linked index file too."""
    from memory_manager import index
    ws, out = planted
    assert run_script("memory", "recall", "release", env=NOW).code == 0
    path = ws / "memory/.cache/recall-index.sqlite"
    (out / "copy.sqlite").write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(out / "copy.sqlite")
    before = (out / "copy.sqlite").read_bytes()
    with pytest.raises(WorkspaceError, match="is a symlink"):
        index.open_index(ws)
    assert (out / "copy.sqlite").read_bytes() == before


# ------------------------------------------------------------------ paths read from a backup

def _newest(ws: Path) -> Path:
    return sorted(p for p in (ws / ".memory-backup").iterdir() if not p.name.startswith("."))[-1]


def _entries(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "entries.jsonl").read_text().splitlines()]


def _write_entries(folder: Path, entries: list[dict]) -> None:
    (folder / "entries.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))


def test_restore_reads_no_copy_through_a_symlinked_folder_in_files(planted, run_script, tmp_path):
    """files/memory/ replaced by a link to a folder outside holding a matching copy."""
    ws, out = planted
    assert run_script("memory", "write", "--topic", "Release", "--change", "second line", env=NOW).code == 0
    backup = _newest(ws)  # holds the daily note as it was before the second line
    rel = next(e["path"] for e in _entries(backup) if e["path"].startswith("memory/") and e["kind"] == "file"
               and e["existed"])
    fake = tmp_path / "fake"
    (fake / Path(rel).relative_to("memory")).parent.mkdir(parents=True)
    data = f"{SECRET}\n".encode()
    (fake / Path(rel).relative_to("memory")).write_bytes(data)
    entries = _entries(backup)
    import hashlib
    for e in entries:
        if e["path"] == rel:
            e.update(sha256=hashlib.sha256(data).hexdigest(), size=len(data), stored="plain")
    _write_entries(backup, entries)
    # Backup format v4: the write only appended, so its backup has no files/ at all; the forged
    # entry (a plain copy) makes the restore look for one there.
    if (backup / "files" / "memory").exists():
        shutil.rmtree(backup / "files" / "memory")
    (backup / "files").mkdir(exist_ok=True)
    (backup / "files" / "memory").symlink_to(fake, target_is_directory=True)
    before = {p.relative_to(ws).as_posix(): p.read_bytes() for p in ws.rglob("*") if p.is_file()
              and ".memory-backup" not in p.parts}
    r = run_script("init", "--restore", backup.name, env=NOW)
    assert r.code == 1 and "symlink" in r.err and "nothing was changed" in r.err
    after = {p.relative_to(ws).as_posix(): p.read_bytes() for p in ws.rglob("*") if p.is_file()
             and ".memory-backup" not in p.parts}
    assert after == before


def test_restore_refuses_a_copy_that_is_a_symlink_even_inside_the_workspace(planted, run_script):
    """A link is refused whatever it points at: a backup holds files only."""
    ws, out = planted
    # init's backup holds AGENTS.md (the write after it made its own backup: the note it created).
    backup = [p for p in sorted((ws / ".memory-backup").iterdir()) if (p / "files" / "AGENTS.md").is_file()][-1]
    copy = backup / "files" / "AGENTS.md"
    copy.unlink()
    copy.symlink_to(ws / "AGENTS.md")
    with pytest.raises(BackupError, match="is a symlink"):
        backups.restore(ws, backup.name)


@pytest.mark.parametrize("path", ["/etc/hostname", "../outside/secret.md", "memory/../../outside/secret.md"])
def test_forget_erases_no_file_named_by_a_forged_manifest_path(planted, run_script, path):
    """erase_copies walks every backup's entries: a path leading out is neither read nor removed."""
    ws, out = planted
    ident = "000900-20260101T000000Z"
    folder = ws / ".memory-backup" / ident
    (folder / "files").mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps(
        {"format": "memory-backup", "version": 2, "id": ident, "seq": 900, "created": "2026-01-01T00:00:00+00:00",
         "reason": "forged", "role": "change", "restores": None, "state": "complete"}))
    _write_entries(folder, [{"path": path, "existed": True, "kind": "file", "sha256": "0" * 64, "size": 1,
                             "mode": 0o600, "stored": "plain"}])
    result = backups.erase_copies(ws, [SECRET])
    assert result["erased"] == 0
    assert (out / "secret.md").read_text(encoding="utf-8").endswith(f"{SECRET}\n")
    assert [c for c in backups.iter_copies(ws) if c[0] == ident] == []


@pytest.mark.parametrize("name", [".open-..", ".open-."])
def test_a_forged_journal_name_never_makes_the_workspace_a_backup_to_roll_back(planted, run_script, name):
    """A journal '.open-..' named the workspace itself as the interrupted backup: the
    rollback found no manifest there and removed the folder, i.e. the whole workspace."""
    ws, out = planted
    (ws / ".memory-backup" / name).write_text("{}")
    assert backups.interrupted(ws) == []
    r = run_script("memory", "write", "--topic", "After", "--change", "still here", env=NOW)
    assert r.code == 0, r.err
    assert (ws / "AGENTS.md").read_text(encoding="utf-8").startswith("# Rules\n")
    assert "still here" in (ws / "memory" / "daily" / "2026-11-29.md").read_text(encoding="utf-8")
    assert len(backups.list_backups(ws)) >= 2


def test_a_journal_for_a_symlinked_backup_folder_is_not_rolled_back(planted, run_script, tmp_path):
    """A valid-looking id whose folder is a link to a forged backup outside: never read."""
    ws, out = planted
    ident = "000901-20260101T000000Z"
    forged = tmp_path / "forged"
    (forged / "files").mkdir(parents=True)
    import hashlib
    data = f"{SECRET}\n".encode()
    (forged / "files" / "AGENTS.md").write_bytes(data)
    (forged / "manifest.json").write_text(json.dumps(
        {"format": "memory-backup", "version": 2, "id": ident, "seq": 901, "created": "2026-01-01T00:00:00+00:00",
         "reason": "forged", "role": "change", "restores": None, "state": "open"}))
    (forged / "entries.jsonl").write_text(json.dumps(
        {"path": "AGENTS.md", "existed": True, "kind": "file", "sha256": hashlib.sha256(data).hexdigest(),
         "size": len(data), "mode": 0o644, "stored": "plain"}) + "\n")
    (ws / ".memory-backup" / ident).symlink_to(forged, target_is_directory=True)
    (ws / ".memory-backup" / f".open-{ident}").write_text("{}")
    assert backups.interrupted(ws) == []  # the library never rolls back from it
    r = run_script("memory", "write", "--topic", "After", "--change", "still here", env=NOW)
    assert r.code == 2 and r.err.strip().splitlines() == [  # and every command refuses while it is there
        f"error: .memory-backup/{ident} is a symlink in a private folder of the memory tree; "
        "refusing to read or write through it (remove the link)"]
    assert SECRET not in (ws / "AGENTS.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("ident", ["..", ".", "../memory", "000001-20260101T000000Z/../.."])
def test_a_backup_id_from_the_command_line_names_no_other_folder(planted, ident):
    ws, out = planted
    from memory_manager.errors import NotFoundError
    with pytest.raises(NotFoundError):
        backups.manifest(ws, ident)
