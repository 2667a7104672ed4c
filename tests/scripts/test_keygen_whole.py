"""Key commands are whole or nothing (issue 11; atk11: keygen --force made its key, then could not
record it, and the key stayed): ``crypt.py keygen --force`` and ``crypt.py reseal`` either finish or
leave the key folder and the workspace as they were, and say so in one line; a keygen killed before
it put its key in place leaves a staging file that the next keygen removes (only its own names).

Each test runs the real script on a temporary workspace and key folder (tests/conftest.py).
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}


def _key() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager" / "key"


def _sealed_store(ws: Path, run_script) -> bytes:
    """An initialised workspace with one aes-gcm entry whose key is then moved away; the old key's bytes."""
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=NOW).code == 0
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "x1", env=NOW).code == 0
    old = _key().read_bytes()
    _key().rename(_key().with_name("old-key"))
    # Since round 12 the first seal records the key; the tests below plant their own record.
    _record(ws).unlink()
    return old


def _record(ws: Path) -> Path:
    return ws / "memory/.state/t2-key-accepted"


def _config_files() -> list[str]:
    return sorted(p.name for p in _key().parent.iterdir())


@pytest.mark.parametrize("planted", ["folder", "symlink", "not text"])
def test_keygen_force_makes_no_key_when_its_record_is_bad_input(ws, run_script, planted):
    _sealed_store(ws, run_script)
    if planted == "folder":
        _record(ws).mkdir()
    elif planted == "symlink":
        _record(ws).symlink_to(ws / "elsewhere")
    else:
        _record(ws).write_bytes(b"\xff\xfe not a record\n")
    before = _config_files()
    r = run_script("crypt", "keygen", "--force", env=NOW)
    assert r.code == 2, (r.code, r.err)
    assert r.err.count("\n") == 1 and "memory/.state/t2-key-accepted" in r.err, r.err
    assert "Traceback" not in r.err
    assert planted == "symlink" or "nothing was changed" in r.err  # a link: refused by the workspace lock first
    assert not _key().exists() and _config_files() == before  # no key, no staging file
    r = run_script("crypt", "keygen", "--force", "--json", env=NOW)
    assert r.code == 2 and json.loads(r.out)["kind"] == ("workspace" if planted == "symlink" else "unreadable"), r.out


def test_keygen_force_on_a_full_disk_for_the_record_makes_no_key(ws, run_script):
    """The record cannot be written (a file-size limit on its staging file): exit 1, no key, record unchanged."""
    _sealed_store(ws, run_script)
    _record(ws).write_text("0" * 32 + "\n", encoding="ascii")
    record = _record(ws).read_bytes()
    before = _config_files()
    env = dict(os.environ, **NOW)
    # 100 bytes: the 45-byte key stages, the record (two 33-byte lines and more) does not.
    proc = subprocess.run([sys.executable, str(ROOT / "scripts/crypt.py"), "keygen", "--force", "-w", str(ws)],
                          capture_output=True, text=True, env=env, timeout=60,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (60, 60)))
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert "t2-key-accepted" in proc.stderr, proc.stderr
    assert not _key().exists() and _config_files() == before
    assert _record(ws).read_bytes() == record


def test_keygen_force_puts_the_record_back_when_the_key_cannot_be_put_in_place(ws, run_script):
    """The key's name is taken between the check and the link (a racing writer): the record is put back."""
    from memory_manager import crypto, fsio
    from memory_manager.config import load_config
    from memory_manager.errors import CryptoError

    _sealed_store(ws, run_script)
    record = b"0" * 32 + b"\n"
    _record(ws).write_bytes(record)
    real_link = fsio.link_new

    def racing(tmp, path):
        Path(path).write_text("someone else's\n")
        real_link(tmp, path)

    fsio.link_new = racing
    try:
        with pytest.raises(CryptoError, match="exists already; .*; nothing was changed$"):
            crypto.keygen(load_config(ws), ws, force=True)
    finally:
        fsio.link_new = real_link
    assert _record(ws).read_bytes() == record
    assert _key().read_text() == "someone else's\n"
    assert [n for n in _config_files() if "mmstage" in n] == []


def test_keygen_force_then_remember_writes_with_the_new_key(ws, run_script):
    _sealed_store(ws, run_script)
    r = run_script("crypt", "keygen", "--force", env=NOW)
    assert r.code == 0, r.err
    assert _key().exists() and len(_record(ws).read_text().split()) == 1
    r = run_script("memory", "remember", "--skill", "s", "--topic", "b", "--text", "x2", env=NOW)
    assert r.code == 0, r.err


def test_a_killed_keygen_leaves_a_staging_file_the_next_keygen_removes(ws, run_script):
    folder = _key().parent
    folder.mkdir(parents=True)
    env = dict(os.environ, MEMORY_MANAGER_CRASH_AT="2", **NOW)  # step 1 stages the key, step 2 links it
    proc = subprocess.run([sys.executable, str(ROOT / "scripts/crypt.py"), "keygen", "-w", str(ws)],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == -9, (proc.returncode, proc.stderr)
    left = [n for n in os.listdir(folder) if n.startswith(".key.mmstage-")]
    assert len(left) == 1 and not _key().exists(), os.listdir(folder)
    # Not ours: another file's staging name, and a user's file that looks alike without the mark.
    (folder / ".hash-secret.mmstage-abcdefgh.tmp").write_text("x")
    (folder / ".key.abcdefgh.tmp").write_text("x")
    old = time.time() - 60
    os.utime(folder / left[0], (old, old))
    r = run_script("crypt", "keygen", env=NOW)
    assert r.code == 0, r.err
    assert sorted(os.listdir(folder)) == [".hash-secret.mmstage-abcdefgh.tmp", ".key.abcdefgh.tmp", "key"]


def test_a_reseal_that_cannot_decode_an_entry_removes_the_key_it_made(ws, run_script):
    assert run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en", env=NOW).code == 0
    t2 = ws / "memory/tier2-internal"
    t2.mkdir(exist_ok=True)
    # An xor-b64 entry whose ciphertext is not Base64: reseal cannot decode it (CryptoError while planning).
    (t2 / "s_bad.md").write_text("---\nformat: cmm-t2\nskill: s\ntopic: bad\ncreated: 2026-11-01\n"
                                 "scheme: xor-b64\nkey_hint: s-2026-11\n---\n!!! not base64 !!!\n", encoding="utf-8")
    before = {p.relative_to(ws).as_posix(): p.read_bytes() for p in (ws / "memory").rglob("*")
              if p.is_file() and ".state" not in p.parts}
    r = run_script("crypt", "reseal", env=NOW)
    if r.code == 0:
        pytest.skip(f"the entry did not stop reseal here: {r.out}")
    assert r.code in (1, 2) and "Traceback" not in r.err and r.err.count("\n") == 1, r.err
    assert "was removed again; nothing was changed" in r.err, r.err
    assert not _key().exists()
    after = {p.relative_to(ws).as_posix(): p.read_bytes() for p in (ws / "memory").rglob("*")
             if p.is_file() and ".state" not in p.parts}
    assert after == before


def test_the_hash_secret_maker_removes_its_own_stale_staging_file(ws):
    """The same kind in the same folder: the hash-secret (keyed.local_secret) is made whole or not at all,
    and a maker killed before it linked left a staging file that the next maker removes."""
    from memory_manager import keyed

    folder = _key().parent
    folder.mkdir(parents=True)
    stale = folder / f".{keyed.SECRET_NAME}.mmstage-abcdefgh.tmp"
    stale.write_text("half")
    other = folder / ".key.mmstage-abcdefgh.tmp"  # the key's, not the secret maker's to judge
    other.write_text("x")
    old = time.time() - 60
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    assert keyed.local_secret(ws) is not None
    assert sorted(os.listdir(folder)) == [".key.mmstage-abcdefgh.tmp", keyed.SECRET_NAME]
