"""Approval marks whose secret is not at hand (tfix16, attack round 16 finding 1; references/tiers.md).

A mark cleanup cannot check (no T2 key in the shell, a hash-secret of another HOME) is not a
mark that failed: the entry stays where it is and cleanup says so in one line; the hooks' upkeep
(``maintain.py``) takes the same path. A recorded key that keyed approval marks is something the
key secured: neither ``init`` nor ``crypt.py keygen`` replaces it without ``--force``.
"""
from __future__ import annotations

import os
from pathlib import Path

from .trust_r4_common import NOW, PHONE, _init

UNCHECKED = "approval mark cannot be checked without the secret that made it"


def _remember(run_script):
    r = run_script("memory", "remember", "--skill", "s", "--topic", "crane", "--scheme", "xor-b64", "--text",
                   f"crane contact {PHONE} tonight", "--approved", env=NOW)
    assert r.code == 0, r.err


def _key_file() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager" / "key"


def _record(ws: Path) -> Path:
    return ws / "memory/.state/t2-key-accepted"


def test_the_hooks_upkeep_under_another_home_keeps_the_entry_and_says_so(ws, run_script, tmp_path):
    _init(run_script, "--no-key")
    _remember(run_script)
    other = tmp_path / "service-home"
    env = dict(NOW, HOME=str(other), XDG_CONFIG_HOME=str(other / ".config"))
    r = run_script("maintain", "--workspace", ws, env=env)
    assert r.code == 0, r.err
    assert (ws / "memory/tier2-internal/s_crane.md").is_file()
    assert not list((ws / "memory").glob(".quarantine/*.md"))
    lines = [line for line in r.err.splitlines() if UNCHECKED in line]
    assert len(lines) == 1 and lines[0].startswith("maintain: cleanup: warning: 1 approved T2 entry"), r.err


def test_cleanup_without_the_key_says_so_in_one_line(ws, run_script, tmp_path):
    _init(run_script)
    _remember(run_script)
    _key_file().rename(tmp_path / "key.away")
    c = run_script("cleanup", env=NOW)
    assert c.code == 0, c.err
    assert sum(UNCHECKED in line for line in c.err.splitlines()) == 1, c.err
    # Back with the key, the mark verifies and the entry is kept as approved.
    (tmp_path / "key.away").rename(_key_file())
    c = run_script("cleanup", "--json", env=dict(NOW, MEMORY_MANAGER_NOW="2026-12-09T12:00:00+00:00"))
    assert c.code == 0, c.err
    assert UNCHECKED not in c.out and "kept (approved by the user)" in c.out


def test_keygen_and_init_keep_a_recorded_key_that_keyed_approval_marks(ws, run_script, tmp_path):
    _init(run_script)
    _remember(run_script)
    before = _record(ws).read_bytes()
    _key_file().rename(tmp_path / "key.away")
    i = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=NOW)
    assert i.code == 0, i.err
    warn = [line for line in i.err.splitlines() if line.startswith("warning: no key made:")]
    assert len(warn) == 1 and "approval marks of 1 T2 entry" in warn[0] and "keygen --force" in warn[0]
    assert not _key_file().exists() and _record(ws).read_bytes() == before
    k = run_script("crypt", "keygen", env=NOW)
    assert k.code == 1 and "keygen --force" in k.err and "nothing was changed" in k.err
    assert not _key_file().exists() and _record(ws).read_bytes() == before
    k = run_script("crypt", "keygen", "--force", env=NOW)
    assert k.code == 0, k.err
    assert len(_record(ws).read_text(encoding="ascii").split()) == 2
