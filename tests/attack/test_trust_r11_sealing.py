"""Round 11, kind "a second key seals": every door that seals goes through ``tiers.sealing_key``.

atk11 found cleanup's quarantine and ``import`` sealing with another machine's key (set in
``MEMORY_MANAGER_KEY``) after round 10 had closed ``remember``. The fix routes every sealing call
through one function; these tests check that no module seals around it (an ``ast`` scan) and
play each door that test_attack_r11_quick.py and test_trust_r10_variants.py do not: ``crypt.py
encrypt`` of stdin, the upkeep's sealing of plain T2 files, a backup copy that must be sealed,
and cleanup's dry run. Also "no-key cleanup combines aes-gcm entries of two keys": without a key
nothing tells which key sealed an entry, so none is combined.
"""
from __future__ import annotations

import ast
import base64
from pathlib import Path

import pytest

from .trust_r4_common import NOW, PHONE, _init

ROOT = Path(__file__).resolve().parents[2]
#: Another well-formed AES key (32 bytes, Base64): another machine's.
OTHER_KEY = base64.b64encode(bytes(range(100, 132))).decode()
SECOND = {**NOW, "MEMORY_MANAGER_KEY": OTHER_KEY}

#: The crypto functions that seal T2 text, and the one place allowed to call each.
SEALERS = {"encrypt": "memory_manager/tiers.py", "aes_encrypt": "memory_manager/crypto.py",
           "xor_encrypt": "memory_manager/crypto.py"}


def _calls(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "crypto":
                names.add(func.attr)
            elif isinstance(func, ast.Name):
                names.add(func.id)
    return names


def test_only_tiers_seal_calls_the_crypto_sealing_functions():
    """One door: a module that calls ``crypto.encrypt`` (or ``aes_encrypt``) itself would seal with
    whatever key is configured, never asking whether this store accepts it."""
    offenders = []
    for path in sorted([*(ROOT / "memory_manager").glob("*.py"), *(ROOT / "scripts").glob("*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        for name in sorted(_calls(path) & set(SEALERS)):
            if SEALERS[name] != rel:
                offenders.append(f"{rel}: {name}")
    assert offenders == []


def test_backup_copies_are_sealed_only_through_the_checked_key():
    """``backups._seal`` takes its key from ``backups.sealing_key`` (the store's check), never ``_load_key``."""
    src = (ROOT / "memory_manager/backups.py").read_text(encoding="utf-8")
    start = src.index("    def _key_or_none(self)")
    body = src[start:src.index("\n    def ", start + 10)]
    assert "sealing_key(self.workspace)" in body and "_load_key" not in body
    store = (ROOT / "memory_manager/store.py").read_text(encoding="utf-8")
    assert "backups._load_key" not in store


def _store_with_one_entry(run_script, ws: Path) -> dict[str, bytes]:
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "first", "--text", "under the key file",
                      env=NOW).code == 0
    return {p.name: p.read_bytes() for p in (ws / "memory/tier2-internal").iterdir()}


def _one_line_naming_the_key(r) -> None:
    lines = [ln for ln in r.err.splitlines() if ln.strip() and not ln.startswith("warning")]
    assert len(lines) == 1 and "MEMORY_MANAGER_KEY" in lines[0] and ("opens none" in lines[0] or "not this store's key" in lines[0]), r.err
    assert "Traceback" not in r.err


def test_crypt_encrypt_of_stdin_under_a_second_key_prints_nothing(ws, run_script):
    _store_with_one_entry(run_script, ws)
    r = run_script("crypt", "encrypt", "--skill", "ops", "--topic", "second", input="a text", env=SECOND)
    assert r.code == 1 and r.out == "", (r.code, r.out)
    _one_line_naming_the_key(r)
    # the store's own key still seals
    ok = run_script("crypt", "encrypt", "--skill", "ops", "--topic", "second", input="a text", env=NOW)
    assert ok.code == 0 and ok.out.startswith("aesgcm:v2:"), ok.err


def test_the_upkeep_does_not_seal_a_plain_t2_file_with_a_second_key(ws, run_script, monkeypatch):
    from memory_manager import tiers
    from memory_manager.config import load_config
    from memory_manager.errors import WrongKeyError

    _store_with_one_entry(run_script, ws)
    plain = tiers.t2_path(ws, "ops", "draft")
    plain.write_text("---\nformat: cmm-t2\nversion: 1\ntier: internal\nsource_skill: ops\ntopic: draft\n"
                     "created: 2026-11-29\n---\n\nplain draft text\n", encoding="utf-8")
    before = plain.read_bytes()
    backups_before = sorted(p.name for p in (ws / ".memory-backup").iterdir())
    monkeypatch.setenv("MEMORY_MANAGER_KEY", OTHER_KEY)
    with pytest.raises(WrongKeyError):
        tiers.seal_plaintext_t2(ws, load_config(ws))
    assert plain.read_bytes() == before
    assert sorted(p.name for p in (ws / ".memory-backup").iterdir()) == backups_before  # no backup opened
    monkeypatch.delenv("MEMORY_MANAGER_KEY")
    assert tiers.seal_plaintext_t2(ws, load_config(ws)) == [plain]  # the store's key seals it


def test_a_backup_copy_is_not_sealed_with_a_second_key(ws, run_script):
    """An edit of an approved knowledge entry that holds a phone number: its backup copy must be
    sealed; under another machine's key it is refused, the entry unchanged."""
    _store_with_one_entry(run_script, ws)
    assert run_script("memory", "learn", "contact", "--text", f"call {PHONE}", "--approved", env=NOW).code == 0
    path = ws / "memory/knowledge/contact.md"
    before = path.read_bytes()
    r = run_script("memory", "edit", "contact", "--text", f"call {PHONE} after six", "--approved", env=SECOND)
    assert r.code == 1, (r.code, r.out, r.err)
    _one_line_naming_the_key(r)
    assert path.read_bytes() == before
    r = run_script("memory", "edit", "contact", "--text", f"call {PHONE} after six", "--approved", env=NOW)
    assert r.code == 0, r.err


def test_cleanup_dry_run_under_a_second_key_is_refused_too(ws, run_script):
    before = _store_with_one_entry(run_script, ws)
    (ws / "memory/tier2-internal/ops_b.md").write_text(
        f"---\nskill: ops\ntopic: b\ncreated: 2026-11-01\nscheme: none\n---\ncall {PHONE} tonight\n")
    for args in (("--dry-run",), ()):
        r = run_script("cleanup", *args, env=SECOND)
        assert r.code == 1, (args, r.code, r.out)
        _one_line_naming_the_key(r)
    assert not (ws / "memory/.quarantine").exists()
    assert {n: b for n, b in ((p.name, p.read_bytes()) for p in (ws / "memory/tier2-internal").iterdir())
            if n in before} == before
    # the store's key quarantines it, sealed with that key
    r = run_script("cleanup", env=NOW)
    assert r.code == 0, r.err
    assert [p.read_text().count("aesgcm:v2:") for p in (ws / "memory/.quarantine").glob("*.md")] == [1]


def test_a_key_accepted_with_keygen_force_still_runs_cleanup(ws, run_script):
    from memory_manager import crypto

    _store_with_one_entry(run_script, ws)
    key = crypto.config_dir() / crypto.KEY_FILENAME
    key.rename(key.with_name("key.moved"))
    assert run_script("crypt", "keygen", "--force", env=NOW).code == 0
    r = run_script("cleanup", env=NOW)
    assert r.code == 0, r.err


def test_cleanup_without_a_key_combines_no_aes_gcm_entries(ws, run_script):
    """Without a key nothing tells which key sealed an aes-gcm entry: cleanup leaves each in its own
    file (it once put entries of two keys into one month file); with the key back it combines them."""
    from memory_manager import crypto

    _init(run_script)
    for topic in ("first", "second"):
        assert run_script("memory", "remember", "--skill", "ops", "--topic", topic, "--text", f"{topic} fact",
                          env=NOW).code == 0
    t2 = ws / "memory/tier2-internal"
    before = {p.name: p.read_bytes() for p in t2.iterdir()}
    key = crypto.config_dir() / crypto.KEY_FILENAME
    key.rename(key.with_name("key.moved"))
    r = run_script("cleanup", env=NOW)
    assert r.code == 0, r.err
    assert {p.name: p.read_bytes() for p in t2.iterdir()} == before
    key.with_name("key.moved").rename(key)
    r = run_script("cleanup", env=NOW)
    assert r.code == 0, r.err
    assert [p.name for p in t2.iterdir()] == ["ops_2026-11.md"]


# ------------------------------------------------------------ an import's held-finding id is keyed outside


def test_a_held_import_id_depends_on_the_secret_outside_the_workspace(ws, run_script, tmp_path):
    """The id of a held finding is keyed with the secret in the config folder, not with anything in
    the workspace: the same workspace under another config folder gives another id, the same
    config folder the same id (so ``--allow ID`` still names it), and no audit salt is made."""
    import json
    import re

    _init(run_script, "--no-key")
    doc = tmp_path / "in.json"
    doc.write_text(json.dumps({"format": "cmm-export", "version": 3, "daily": [
        {"date": "2026-11-01", "topic": "contact", "cause": [f"call {PHONE}"]}]}))

    def held_id(env) -> str:
        r = run_script("memory", "import", str(doc), "--approved", env={**NOW, **env})
        assert r.code == 1, r.err
        return re.search(r"possible phone ([0-9a-f]{12})", r.out + r.err).group(1)

    first, again = held_id({}), held_id({})
    other = held_id({"XDG_CONFIG_HOME": str(tmp_path / "elsewhere")})
    assert first == again and other != first
    assert not (ws / "memory/.state/audit-salt").exists()
    r = run_script("memory", "import", str(doc), "--approved", "--allow", first, env=NOW)
    assert r.code == 0, r.out + r.err
    assert PHONE in (ws / "memory/daily/2026-11-01.md").read_text()
