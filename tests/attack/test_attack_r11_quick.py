"""Attack round 11 (quick, atk11): a fresh attacker against main at f425ae8 (tfix10/pfix10/ffix9/nu9).

Each test plays one attack that still gets through, against the real scripts in a temporary
workspace, asserts the promised behaviour and is marked xfail (strict) until fixed. Secret-shaped
values are built at run time (tests/test_layout.py refuses literals).
"""
from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from .trust_r4_common import NOW, PHONE, _init

OTHER_PHONE = "415-555" + "-0199"


def _key2() -> str:
    return base64.b64encode(bytes(range(100, 132))).decode()


# ------------------------------------------------------------ a second key still writes (cleanup's quarantine)


@pytest.mark.xfail(strict=True, reason="atk11: cleanup under another machine's key seals a quarantined entry with it "
                                       "(split store); unquarantine then puts it in tier2 beside the key file's entries")
def test_cleanup_under_a_second_key_does_not_seal_with_it(ws, run_script):
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "plain fact one",
                      env=NOW).code == 0
    (ws / "memory/tier2-internal/s_b.md").write_text(
        f"---\nskill: s\ntopic: b\ncreated: 2026-11-01\nscheme: none\n---\ncall {PHONE} tonight\n")
    r = run_script("cleanup", env={**NOW, "MEMORY_MANAGER_KEY": _key2()})
    # Either refused outright (exit 1) or the quarantine copy is readable with this store's key.
    if r.code == 0:
        q = list((ws / "memory/.quarantine").glob("*.md"))
        ident = q[0].stem if q else None
        assert ident is None or run_script("memory", "unquarantine", ident, "--approved", env=NOW).code == 0
        shown = run_script("memory", "show", ident, "--approved", env=NOW) if ident else None
        assert shown is None or (shown.code == 0 and PHONE in shown.out), (shown.code, shown.err)


# ------------------------------------------------------------ forget after edit leaves the first version's hash


@pytest.mark.xfail(strict=True, reason="atk11: forget of an edited knowledge entry leaves the audit hash of its "
                                       "first version (kid local): a guess is confirmed with the hash-secret")
def test_forget_after_edit_blanks_every_version_hash(ws, run_script):
    _init(run_script, "--no-key")
    assert run_script("memory", "learn", "c2", "--text", f"call {PHONE}", "--approved", env=NOW).code == 0
    assert run_script("memory", "edit", "c2", "--text", f"call {OTHER_PHONE}", "--approved", env=NOW).code == 0
    r = run_script("memory", "forget", "c2", "--approved", env=NOW)
    assert r.code == 0, r.err
    log = ws / "memory/.state/gate-audit.jsonl"
    kept = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert [rec for rec in kept if rec.get("hash")] == []
