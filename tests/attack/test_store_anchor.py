"""This machine's note of the store's key, outside the workspace (memory_manager/anchor.py; tatk18 1 and 2).

Whether a store is keyed decides how a mark whose secret is away is judged (references/tiers.md,
"approval marks"). The record ``memory/.state/t2-key-accepted`` lies in the workspace; the note in
``${XDG_CONFIG_HOME}/complex-memory-manager/stores/<hash of the path>.json`` does not, and wins when
it can be read. With no note, or one that cannot be read, the record decides as before.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
from pathlib import Path

from memory_manager import anchor, crypto, keyed, tiers

from .test_forged_marks_r17 import _forge, _remember
from .trust_r4_common import NOW, _init

ARGS = ("t-aaaaaaaaaa", "2026-11-29", "x")
FORGED_T2, FORGED_LOCAL = "v2:t2:" + "0" * 64, "v2:local:" + "0" * 64
MISMATCH = ("memory/.state/t2-key-accepted, the store's key record, does not match this machine's note; "
            "trusting the note")


def _stores() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager" / "stores"


def _note(ws: Path) -> Path:
    # The name is spelled out here, not taken from the module: 32 hex digits of SHA-256 of the resolved path.
    return _stores() / (hashlib.sha256(str(ws.resolve()).encode()).hexdigest()[:32] + ".json")


def _record(ws: Path) -> Path:
    return ws / "memory/.state/t2-key-accepted"


def _real_t2_mark() -> str:
    """A ``v2:t2`` mark of :data:`ARGS` keyed with the key file's key (made in-process, no note written)."""
    return "v2:t2:" + keyed._mark_digest(keyed.t2_secret({}), *ARGS)


def _key_away(tmp_path: Path) -> None:
    key = crypto.key_path({})
    key.rename(tmp_path / "key.away")


def _problems(out: str) -> list[str]:
    return json.loads(out)["problems"]


# ------------------------------------------------------------ written by init, and by the first v2:local mark

def test_init_with_a_key_writes_the_note_0600_in_a_0700_folder(ws, run_script):
    _init(run_script)
    check = tiers.key_check(crypto.load_key({}))
    assert json.loads(_note(ws).read_text(encoding="ascii")) == {
        "format": "cmm-store-anchor", "version": 1, "keys": [check], "keyless_since": None}
    assert _record(ws).read_text(encoding="ascii").split() == [check]
    assert oct(_note(ws).stat().st_mode & 0o777) == "0o600"
    assert oct(_stores().stat().st_mode & 0o777) == "0o700"
    assert str(ws) not in _note(ws).read_text(encoding="ascii") and ws.name not in _note(ws).read_text(encoding="ascii")
    assert [p.name for p in _stores().iterdir()] == [_note(ws).name]


def test_a_keyless_store_is_noted_keyless_by_its_first_approved_entry(ws, run_script):
    _init(run_script, "--no-key")
    assert not _stores().exists()
    text = _remember(run_script)
    assert 'approval: "v2:local:' in text
    assert json.loads(_note(ws).read_text(encoding="ascii")) == {
        "format": "cmm-store-anchor", "version": 1, "keys": [], "keyless_since": "2026-11-29"}
    assert oct(_note(ws).stat().st_mode & 0o777) == "0o600"
    assert oct(_stores().stat().st_mode & 0o777) == "0o700"
    assert not _record(ws).exists()


# ------------------------------------------------------------ the record planted, deleted or changed, the note present

def test_a_record_planted_in_a_keyless_store_is_reported_and_changes_nothing(ws, run_script):
    _init(run_script, "--no-key")
    text = _remember(run_script)
    _forge(ws, text, "t2")
    _record(ws).write_text("0" * 32 + "\n", encoding="ascii")
    assert keyed.approval_state(ws, {}, *ARGS, FORGED_T2) == "invalid"
    c = run_script("cleanup", "--json", env=NOW)
    assert c.code == 0, c.err
    assert _problems(c.out).count(MISMATCH) == 1, c.out
    assert (ws / "memory/tier2-internal/s_crane.md").is_file()
    assert [p.name for p in (ws / "memory/.quarantine").glob("*.md")] == ["t-aaaaaaaaaa.md"]
    d = run_script("doctor", "--no-openclaw", "--json", env=NOW)
    [row] = [c for c in json.loads(d.out)["checks"] if c["name"] == "T2 key note"]
    assert row["status"] == "warn" and row["detail"] == MISMATCH, row


def test_a_deleted_or_changed_record_with_the_key_away_keeps_the_real_mark_and_fails_the_forged_one(
        ws, run_script, tmp_path):
    _init(run_script)
    real = _real_t2_mark()
    _key_away(tmp_path)
    for change in ("deleted", "changed", "folder"):
        if _record(ws).is_dir():
            _record(ws).rmdir()
        elif _record(ws).exists():
            _record(ws).unlink()
        if change == "changed":
            _record(ws).write_text("1" * 32 + "\n", encoding="ascii")
        elif change == "folder":
            _record(ws).mkdir()
        assert keyed.approval_state(ws, {}, *ARGS, real) == "unchecked", change
        assert keyed.approval_state(ws, {}, *ARGS, FORGED_LOCAL) == "invalid", change  # no hash-secret here
        assert tiers.store_key_problem(ws) == MISMATCH, change


def test_a_record_changed_to_another_key_with_that_key_at_hand_does_not_make_its_marks_the_stores(
        ws, run_script, monkeypatch):
    _init(run_script)
    store_mark = _real_t2_mark()
    other = os.urandom(32)
    _record(ws).write_text(tiers.key_check(other) + "\n", encoding="ascii")
    monkeypatch.setenv(crypto.ENV_KEY, base64.b64encode(other).decode())
    # A mark keyed with the other key: not one of the store's key, so it cannot be checked here.
    assert keyed.approval_state(ws, {}, *ARGS, _real_t2_mark()) == "unchecked"
    monkeypatch.delenv(crypto.ENV_KEY)
    assert keyed.approval_state(ws, {}, *ARGS, store_mark) == "valid"  # the store's key still judges


def test_cleanup_with_the_key_writes_a_deleted_record_again(ws, run_script):
    _init(run_script)
    before = _record(ws).read_bytes()
    _record(ws).unlink()
    c = run_script("cleanup", "--json", env=NOW)
    assert c.code == 0, c.err
    assert _record(ws).read_bytes() == before
    assert MISMATCH not in _problems(c.out)


# ------------------------------------------------------------ no note: the record decides, as before

def test_without_a_note_the_record_decides_as_before(ws, run_script):
    _init(run_script, "--no-key")
    _remember(run_script)  # makes the hash-secret and the note
    _note(ws).unlink()
    assert keyed.approval_state(ws, {}, *ARGS, FORGED_T2) == "invalid"  # no record: no t2 mark can be real
    _record(ws).write_text("0" * 32 + "\n", encoding="ascii")
    assert keyed.approval_state(ws, {}, *ARGS, FORGED_T2) == "unchecked"  # today's rule (the known limit)
    assert tiers.store_key_problem(ws) is None


def test_an_unreadable_note_is_never_a_reason_to_call_a_mark_forged(ws, run_script, tmp_path):
    _init(run_script)
    real = _real_t2_mark()
    _key_away(tmp_path)
    note = _note(ws)
    for kind in ("folder", "symlink", "not-json", "other-format"):
        if note.is_dir() and not note.is_symlink():
            note.rmdir()
        elif note.exists() or note.is_symlink():
            note.unlink()
        if kind == "folder":
            note.mkdir()
        elif kind == "symlink":
            target = tmp_path / "elsewhere.json"
            target.write_text(json.dumps({"format": "cmm-store-anchor", "version": 1, "keys": [],
                                          "keyless_since": "2026-11-29"}), encoding="ascii")
            note.symlink_to(target)
        elif kind == "not-json":
            note.write_bytes(b"\xff{")
        else:
            note.write_text(json.dumps({"format": "other", "version": 1, "keys": []}), encoding="ascii")
        assert keyed.approval_state(ws, {}, *ARGS, real) == "unchecked", kind  # the record decides: keyed
        problem = tiers.store_key_problem(ws)
        assert problem is not None and problem.startswith("this machine's note of this store (stores/"), kind
        assert "it is not used" in problem and str(tmp_path) not in problem, problem
    d = run_script("doctor", "--no-openclaw", "--json", env=NOW)
    [row] = [c for c in json.loads(d.out)["checks"] if c["name"] == "T2 key note"]
    assert row["status"] == "warn" and "is not a cmm-store-anchor v1 note" in row["detail"], row


def test_a_moved_workspace_has_no_note_and_the_first_run_with_the_key_writes_it(ws, run_script, tmp_path):
    _init(run_script)
    old_note = _note(ws)
    moved = tmp_path / "moved"
    shutil.move(str(ws), moved)
    assert not _note(moved).exists()
    real = _real_t2_mark()
    assert keyed.approval_state(moved, {}, *ARGS, real) == "valid"
    env = dict(NOW, OPENCLAW_WORKSPACE_DIR=str(moved))
    d = run_script("cleanup", "--dry-run", "--json", env=env)
    assert d.code == 0, d.err
    assert not _note(moved).exists(), "a dry run writes no note"
    c = run_script("cleanup", "--json", env=env)
    assert c.code == 0, c.err
    # Trust on first use: the key at hand matches the record, so the note is written for the new place.
    assert _note(moved).read_bytes() == old_note.read_bytes()
    assert oct(_note(moved).stat().st_mode & 0o777) == "0o600"


def test_a_moved_keyless_workspace_falls_back_to_the_record(ws, run_script, tmp_path):
    _init(run_script, "--no-key")
    _remember(run_script)
    moved = tmp_path / "moved"
    shutil.move(str(ws), moved)
    assert anchor.load(moved) is None
    (moved / "memory/.state/t2-key-accepted").write_text("0" * 32 + "\n", encoding="ascii")
    assert keyed.approval_state(moved, {}, *ARGS, FORGED_T2) == "unchecked"  # as before the note


def test_a_dry_run_writes_no_note(ws, run_script):
    _init(run_script)
    _note(ws).unlink()
    shutil.rmtree(_stores())
    d = run_script("cleanup", "--dry-run", "--json", env=NOW)
    assert d.code == 0, d.err
    assert not _stores().exists()
