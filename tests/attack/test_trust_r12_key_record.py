"""Round 12, kind "the store's key is a recorded fact" (tfix12k; atk12 kinds 3 and 4).

The first key that seals anything is recorded in ``memory/.state/t2-key-accepted`` (key check
values, the last one accepted: references/formats.md); from then on only that key seals. A
workspace with no record accepts a key only when it opens every aes-gcm item found (sealed backup
copies included). Each test runs the real scripts in a temporary workspace (tests/conftest.py).
"""
from __future__ import annotations

import base64
import os
import re
from pathlib import Path

from .trust_r4_common import NOW

K1 = base64.b64encode(bytes(range(32))).decode()
K2 = base64.b64encode(bytes(range(100, 132))).decode()
E1 = {**NOW, "MEMORY_MANAGER_KEY": K1}
E2 = {**NOW, "MEMORY_MANAGER_KEY": K2}


def _record(ws: Path) -> Path:
    return ws / "memory/.state/t2-key-accepted"


def _check(key_b64: str) -> str:
    from memory_manager.tiers import key_check

    return key_check(base64.b64decode(key_b64))


def _one_line(r) -> str:
    lines = [ln for ln in r.err.splitlines() if ln.strip() and not ln.startswith("warning")]
    assert len(lines) == 1 and "Traceback" not in r.err, r.err
    return lines[0]


def _init_env_key(run_script) -> None:
    # The key lives in the environment only: init makes no key file.
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=E1).code == 0
    assert not list(Path(os.environ["XDG_CONFIG_HOME"]).rglob("key"))


def test_the_first_key_to_seal_on_an_empty_store_is_recorded_and_another_is_refused(ws, run_script):
    _init_env_key(run_script)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one", env=E1)
    assert r.code == 0, r.err
    assert _record(ws).read_text(encoding="ascii").split() == [_check(K1)]
    assert oct(_record(ws).stat().st_mode & 0o777) == "0o600"
    ident = re.findall(r"\[(t-[0-9a-f]+)\]", r.out)[0]
    assert run_script("memory", "forget", ident, "--approved", env=E1).code == 0
    # No aes-gcm entry is left anywhere: the record still says whose store this is.
    r = run_script("memory", "remember", "--skill", "s", "--topic", "b", "--text", "beta fact two", env=E2)
    assert r.code == 1
    assert "not this store's key" in _one_line(r) and "MEMORY_MANAGER_KEY" in r.err
    assert not (ws / "memory/tier2-internal/s_b.md").exists()
    assert _record(ws).read_text(encoding="ascii").split() == [_check(K1)]


def test_a_store_with_no_record_accepts_only_a_key_that_opens_its_sealed_backup_copies(ws, run_script):
    _init_env_key(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one",
                      env=E1).code == 0
    d = run_script("crypt", "decrypt", "--file", str(ws / "memory/tier2-internal/s_a.md"), "--approved", env=E1)
    assert d.code == 0, d.err
    _record(ws).unlink()  # a workspace from before round 12: no record, only the backup is sealed
    r = run_script("memory", "remember", "--skill", "s", "--topic", "b", "--text", "beta fact two", env=E2)
    assert r.code == 1
    line = _one_line(r)
    assert "does not open" in line and "backup copies" in line, line
    assert not _record(ws).exists() and not (ws / "memory/tier2-internal/s_b.md").exists()
    r = run_script("memory", "remember", "--skill", "s", "--topic", "b", "--text", "beta fact two", env=E1)
    assert r.code == 0, r.err
    assert _record(ws).read_text(encoding="ascii").split() == [_check(K1)]


def test_keygen_without_force_refuses_while_the_store_records_another_key(ws, run_script):
    _init_env_key(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one",
                      env=E1).code == 0
    r = run_script("crypt", "keygen", env=NOW)
    assert r.code == 1
    assert "keygen --force" in _one_line(r) and "nothing was changed" in r.err
    assert not list(Path(os.environ["XDG_CONFIG_HOME"]).rglob("key"))
    r = run_script("crypt", "keygen", "--force", env=NOW)
    assert r.code == 0, r.err
    from memory_manager import crypto

    new = base64.b64encode(crypto.load_key(None)).decode()
    assert _record(ws).read_text(encoding="ascii").split() == [_check(K1), _check(new)]
    # Started on purpose: the new key seals, the old one no longer does.
    assert run_script("memory", "remember", "--skill", "s", "--topic", "b", "--text", "beta fact two",
                      env=NOW).code == 0
    r = run_script("memory", "remember", "--skill", "s", "--topic", "c", "--text", "gamma fact three", env=E1)
    assert r.code == 1 and "not this store's key" in _one_line(r)


def test_a_cleanup_dry_run_records_no_key(ws, run_script):
    _init_env_key(run_script)
    assert not _record(ws).exists()
    assert run_script("cleanup", "--dry-run", env=E1).code == 0
    assert not _record(ws).exists()


def test_init_makes_no_key_while_the_store_records_another(ws, run_script):
    _init_env_key(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one",
                      env=E1).code == 0
    before = _record(ws).read_bytes()
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=NOW)
    assert r.code == 1
    assert "keygen --force" in _one_line(r) and "nothing was changed" in r.err
    assert not list(Path(os.environ["XDG_CONFIG_HOME"]).rglob("key"))
    assert _record(ws).read_bytes() == before
