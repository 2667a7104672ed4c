import os
import stat

import pytest

from memory_manager.errors import FileWriteError, UnreadableFileError
from memory_manager.fsio import Transaction, atomic_write, decode_text, read_text


def test_roundtrip_keeps_bom_and_crlf(tmp_path):
    path = tmp_path / "a.md"
    raw = b"\xef\xbb\xbf# T\r\n\r\n- x\r\n"
    path.write_bytes(raw)
    doc = read_text(path)
    assert (doc.text, doc.newline, doc.bom) == ("# T\n\n- x\n", "\r\n", True)
    assert doc.encode(doc.text) == raw
    assert doc.encode("# T\n- y\n") == b"\xef\xbb\xbf# T\r\n- y\r\n"


def test_non_utf8_refused(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes(b"caf\xe9")
    with pytest.raises(UnreadableFileError, match="not UTF-8"):
        read_text(path)


def test_atomic_write_keeps_mode_and_leaves_no_temp(tmp_path):
    path = tmp_path / "a"
    path.write_text("old")
    path.chmod(0o640)
    atomic_write(path, b"new")
    assert path.read_bytes() == b"new" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["a", "home"]  # home: the isolated HOME fixture
    atomic_write(tmp_path / "secret", b"s", mode=0o600)
    assert stat.S_IMODE((tmp_path / "secret").stat().st_mode) == 0o600


def test_transaction_abort_on_failed_stage(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("A")
    b.write_text("B")  # a file: nothing can be created "inside" it
    tx = Transaction()
    tx.stage(a, b"A2")
    with pytest.raises(FileWriteError, match="cannot create a file there"):
        tx.stage(b / "x", b"x")
    tx.commit()  # nothing left staged: a no-op
    assert a.read_text() == "A" and b.read_text() == "B"
    assert sorted(os.listdir(tmp_path)) == ["a", "b", "home"]


def test_decode_mixed_lines_prefers_majority():
    assert decode_text(b"a\r\nb\r\nc\n").newline == "\r\n"
    assert decode_text(b"a\nb\nc\r\n").newline == "\n"


def test_an_error_under_the_lock_names_the_files_already_changed(tmp_path):
    """Issue 11: a failed command either changed nothing or says what it changed; its error
    loses a 'nothing was changed' that is no longer true and lists the files written."""
    from memory_manager.errors import BackupError
    from memory_manager.fsio import atomic_write, changed_so_far, remove, workspace_lock

    (tmp_path / "gone.md").write_text("x", encoding="utf-8")
    with pytest.raises(BackupError) as caught:
        with workspace_lock(tmp_path):
            assert changed_so_far(tmp_path) == []
            atomic_write(tmp_path / "memory" / "a.md", b"new")
            remove(tmp_path / "gone.md")
            raise BackupError("backup of b.md failed (File too large); nothing was changed")
    assert str(caught.value) == ("backup of b.md failed (File too large); files changed before the error: "
                                 "gone.md, memory/a.md")
    with pytest.raises(BackupError) as caught:
        with workspace_lock(tmp_path):
            raise BackupError("backup of b.md failed; nothing was changed")
    assert str(caught.value) == "backup of b.md failed; nothing was changed"
