import json

import pytest

from memory_manager import backups
from memory_manager.errors import BackupError, NotFoundError


def test_manifest_written_before_change_and_restore(ws):
    f = ws / "AGENTS.md"
    f.write_bytes(b"one\r\n")
    f.chmod(0o640)
    b = backups.start(ws, "test")
    b.save(f)
    b.save(ws / "NEW.md")
    b.save_new_dir(ws / "memory")
    manifest = json.loads((b.folder / "manifest.json").read_text())
    assert manifest["format"] == "memory-backup" and manifest["version"] == 1
    assert [(e["path"], e["existed"]) for e in manifest["entries"]] == [("AGENTS.md", True), ("NEW.md", False), ("memory", False)]
    assert manifest["entries"][0]["size"] == 5 and manifest["entries"][0]["mode"] == 0o640
    f.write_bytes(b"two")
    (ws / "NEW.md").write_text("x")
    (ws / "memory").mkdir()
    result = backups.restore(ws)
    assert f.read_bytes() == b"one\r\n" and not (ws / "NEW.md").exists() and not (ws / "memory").exists()
    assert result["restored"] == b.id
    # The safety backup holds the state before the restore.
    safety = backups.backup_root(ws) / result["safety_backup"] / "files" / "AGENTS.md"
    assert safety.read_bytes() == b"two"


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


def test_restore_unknown_id(ws):
    with pytest.raises(NotFoundError):
        backups.restore(ws, "nope")


def test_nonempty_created_dir_is_kept(ws):
    b = backups.start(ws, "t")
    b.save_new_dir(ws / "memory")
    b.save(ws / "memory" / "x.md")
    (ws / "memory").mkdir()
    (ws / "memory" / "x.md").write_text("created")
    (ws / "memory" / "user.md").write_text("user wrote this later")
    backups.restore(ws, b.id)
    assert (ws / "memory" / "user.md").read_text() == "user wrote this later"
    assert not (ws / "memory" / "x.md").exists()
