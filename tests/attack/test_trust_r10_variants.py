"""Variants of the attack round 10 findings (issue 10) fixed by tfix10: one or more per kind.

Kind 1: the gate audit log's hash must not confirm a guess from the workspace alone, and keeps no
hash of refused or forgotten content at all (format ``cmm-gate-audit`` v2, now v3, references/formats.md).
Kind 2: forget of an archived entry (pruned section or knowledge file, expired T2 file) leaves its
names nowhere, as forget of a live one. Kind 3: a well-formed key that opens none of the aes-gcm
entries never seals beside them, and no write replaces an entry it cannot read.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from memory_manager import auditlog, keyed

from .trust_r4_common import NOW, PHONE, TOKEN, _init


def _records(ws: Path) -> list[dict]:
    return [json.loads(line) for line in auditlog.log_path(ws).read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _v2(ws: Path, text: str) -> set[str]:
    """The v2 hashes of ``text`` under every secret at hand (what the secret's holder can compute)."""
    return set(auditlog.hashes_of(ws, [text]))


# ------------------------------------------------------------ kind 1: the audit log's hash


def test_a_refused_token_keeps_no_hash_and_no_salt_is_made(ws, run_script):
    """A certain finding (T3) is refused: its record has no hash at all, and the log's v1 salt is
    not created beside it."""
    _init(run_script)
    assert run_script("memory", "learn", "ci", "--text", f"use {TOKEN} later", env=NOW).code == 1
    refused = [r for r in _records(ws) if r["decision"] == "refuse"]
    assert refused and all(r["hash"] is None and r["kid"] is None and r["entry"] is None and r["v"] == 3 for r in refused)
    assert not (ws / "memory/.state/audit-salt").exists()


def test_a_t2_record_is_keyed_with_the_t2_key_and_a_held_number_with_a_secret_outside(ws, run_script):
    """With a T2 key, the record of ``remember`` is keyed from it (kid t2); the hash of the text under
    the key matches, so the user with the key can still tell two decisions on one entry apart."""
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "door", "--text", "pot 7",
                      env=NOW).code == 0
    rec = [r for r in _records(ws) if r["operation"] == "store"][-1]
    assert rec["kid"] == "t2" and rec["hash"] in _v2(ws, "ops\ndoor\npot 7")
    # Without the key file (moved away), nothing in the workspace gives the t2 secret.
    from memory_manager.config import load_config

    cfg = load_config(ws)
    assert rec["hash"] != keyed.digest(b"", auditlog.HASH_LABEL, hashlib.sha256(b"ops\ndoor\npot 7").hexdigest())[:32]
    assert keyed.t2_secret(cfg) is not None


def test_forget_blanks_the_keyed_hashes_of_the_entrys_decisions(ws, run_script):
    """Even the holder of the secret cannot confirm the forgotten number from the log: forget sets
    the hash of the entry's store and ask records to null and writes its own without one."""
    _init(run_script)
    text = f"contact\n{PHONE}\n"
    assert run_script("memory", "learn", "contact", "--text", PHONE, env=NOW).code == 1
    assert run_script("memory", "learn", "contact", "--text", PHONE, "--approved", env=NOW).code == 0
    wanted = _v2(ws, text)
    assert wanted & {r["hash"] for r in _records(ws)}
    r = run_script("memory", "forget", "contact", "--approved", env=NOW)
    assert r.code == 0, r.err
    records = _records(ws)
    assert not wanted & {r["hash"] for r in records}
    assert records[-1]["operation"] == "delete" and records[-1]["hash"] is None


def test_forget_of_a_t2_entry_blanks_its_store_and_reuse_hashes(ws, run_script):
    from memory_manager import tiers

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "door", "--text", "pot 7",
                      env=NOW).code == 0
    ident = tiers.t2_id("ops", "door")
    assert run_script("memory", "show", ident, "--approved", env=NOW).code == 0
    wanted = _v2(ws, "ops\ndoor\npot 7") | _v2(ws, "pot 7")
    assert len(wanted & {r["hash"] for r in _records(ws)}) == 2
    assert run_script("memory", "forget", ident, "--approved", env=NOW).code == 0
    assert not wanted & {r["hash"] for r in _records(ws)}


def test_a_v1_audit_log_is_still_read_and_forget_blanks_its_hashes(ws, run_script):
    """formats.md: v1 lines (no ``v``, hash keyed with memory/.state/audit-salt) are read as v1, and
    forget blanks a v1 hash of the forgotten entry too."""
    import hmac

    _init(run_script)
    assert run_script("memory", "learn", "contact", "--text", "call the desk", env=NOW).code == 0
    salt = b"s" * 32
    (ws / "memory/.state/audit-salt").write_bytes(salt)
    digest = hashlib.sha256(b"contact\ncall the desk\n").hexdigest()
    old = hmac.new(salt, digest.encode("ascii"), hashlib.sha256).hexdigest()[:32]
    line = {"time": "2026-11-20T10:00:00+00:00", "operation": "store", "source": "explicit_user",
            "sensitivity": "ordinary", "approval": "implicit_low_risk", "decision": "proceed",
            "categories": [], "summary": "<22 chars>", "chars": 22, "hash": old}
    with auditlog.log_path(ws).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    v1 = [r for r in auditlog.read(ws) if r["v"] == 1]
    assert len(v1) == 1 and v1[0]["kid"] == "salt" and v1[0]["hash"] == old
    assert run_script("memory", "forget", "contact", "--approved", env=NOW).code == 0
    assert old not in auditlog.log_path(ws).read_text(encoding="utf-8")


# ------------------------------------------------------------ kind 3: a second well-formed key

#: Another well-formed AES key (32 bytes, Base64), as in test_attack_trust_r10.
OTHER_KEY = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8="


def test_reseal_and_encrypt_file_under_a_key_that_opens_nothing_are_refused(ws, run_script):
    """``crypt.py reseal`` and ``encrypt --file`` seal too: under another machine's key they stop
    (exit 1, one line naming MEMORY_MANAGER_KEY) and change no file."""
    from memory_manager import tiers

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "first", "--text", "under the key file",
                      env=NOW).code == 0
    plain = tiers.t2_path(ws, "ops", "draft")
    plain.write_text("---\nformat: cmm-t2\nversion: 1\ntier: internal\nsource_skill: ops\ntopic: draft\n"
                     "created: 2026-11-29\n---\n\nplain draft text\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in (ws / "memory/tier2-internal").iterdir()}
    for args in (("reseal",), ("encrypt", "--file", str(plain))):
        r = run_script("crypt", *args, env={**NOW, "MEMORY_MANAGER_KEY": OTHER_KEY})
        assert r.code == 1, (args, r.out, r.err)
        lines = [ln for ln in r.err.splitlines() if ln.strip()]
        assert len(lines) == 1 and "MEMORY_MANAGER_KEY" in lines[0] and "Traceback" not in r.err, r.err
    assert {p: p.read_bytes() for p in (ws / "memory/tier2-internal").iterdir()} == before


def test_an_entry_of_another_key_is_not_replaced_even_when_others_open(ws, run_script, monkeypatch):
    """A store already split (one entry sealed with another key): the active key opens the other
    entries, so writes go on, but the entry it cannot read is never replaced."""
    from memory_manager import tiers

    from .trust_r4_common import _plant_t2

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "first", "--text", "under the key file",
                      env=NOW).code == 0
    monkeypatch.setenv("MEMORY_MANAGER_KEY", OTHER_KEY)
    path = _plant_t2(ws, "ops", "foreign", "sealed with the other key")
    monkeypatch.delenv("MEMORY_MANAGER_KEY")
    sealed = path.read_bytes()
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "foreign", "--text", "new text", "--approved",
                   env=NOW)
    assert r.code == 1 and "cannot be read" in r.err and tiers.t2_id("ops", "foreign") in r.err, r.err
    assert path.read_bytes() == sealed
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "second", "--text", "still writes",
                      env=NOW).code == 0


def test_a_key_started_on_purpose_with_keygen_force_may_write(ws, run_script):
    """``keygen --force`` is the documented way to start a new key over entries of a missing one:
    that key writes (the old entries stay unreadable until their key is back)."""
    from memory_manager import crypto, tiers

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "first", "--text", "old key",
                      env=NOW).code == 0
    key = crypto.config_dir() / crypto.KEY_FILENAME
    key.rename(key.with_name("key.moved"))
    assert run_script("crypt", "keygen", "--force", env=NOW).code == 0
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "second", "--text", "new key", env=NOW)
    assert r.code == 0, r.err
    assert tiers.t2_path(ws, "ops", "second").exists()
    accepted = (ws / "memory/.state" / tiers.ACCEPTED_NAME).read_text(encoding="ascii").split()
    # Oldest first (the first key recorded when it sealed, round 12), the accepted key last.
    import base64

    old = base64.b64decode(key.with_name("key.moved").read_text().strip())
    assert accepted == [tiers.key_check(old), tiers.key_check(crypto.load_key(None))]


# ------------------------------------------------------------ kind 2: forget of an archived entry

LATER = {"MEMORY_MANAGER_NOW": "2027-06-01T12:00:00+00:00"}


def test_forget_of_one_of_two_pruned_sections_leaves_the_other(ws, run_script):
    """Two sections pruned into one archive file: forget of one removes its topic everywhere and
    keeps the other (archived, restorable by unarchive)."""
    import re

    from .trust_r4_common import _files_holding

    _init(run_script)
    made = run_script("memory", "write", "--topic", "okapigone", "--cause", "okapi cause", "--json", env=NOW)
    ident = re.search(r"d-\d{8}-[0-9a-f]{8}", made.out).group(0)
    assert run_script("memory", "write", "--topic", "tapirkept", "--cause", "tapir cause", env=NOW).code == 0
    assert run_script("memory", "prune", env=LATER).code == 0
    assert run_script("memory", "forget", ident, "--approved", env=LATER).code == 0
    assert _files_holding(ws, "okapigone") == []
    assert any(p.startswith("memory/archive/") for p in _files_holding(ws, "tapirkept"))


def test_forget_of_a_cleanup_archived_t2_file_by_its_path_leaves_its_topic_nowhere(ws, run_script):
    from .trust_r4_common import _files_holding

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "quaggatopic", "--text",
                      "rotate the staging certs monthly", env=NOW).code == 0
    assert run_script("cleanup", env=LATER).code == 0
    [archived] = list((ws / "memory/archive").rglob("ops_quaggatopic.md"))
    r = run_script("memory", "forget", archived.relative_to(ws).as_posix(), "--approved", env=LATER)
    assert r.code == 0, r.err
    assert _files_holding(ws, "quaggatopic") == []

