"""Shared values and helpers of the trust round 4 attack tests (issue 10), and what the attack tried.

Each test plays one attack (or careless use) that still gets through on main, against the real
scripts in a temporary workspace. Secret-shaped values are built at run time.

Kinds: a T3 value reaching .state through a hook (session key); secrets in file names printed by
recall, the audit, cleanup and status; names left behind after forget/purge (T2 topic, token
name, quarantined e-mail name, unkeyed id hashes); approvals that reach other entries (value-wide
record, forged ``approved:`` line, unquarantine of a name with a finding, copied id comment);
paths and links (restore modes and unchecked deletes, hard links to outside files, MEMORY.md and
index links read outside); permissions under umask 000 (memory tree, ~/.config, hooks, plugin);
side doors (numbers glued into slug names, health facts the detector misses); names that differ
only in case; decodable T2 text outside .gitignore; a lesson that cannot be forgotten.

Tried and held (no test here): ``..``, absolute paths, control characters and RTL marks in every
name option and import field; symlinks in knowledge/archive files, ``--html``/``--out`` through a
link into the workspace, key-file symlinks; forged quarantine ``origin``; restore of forged
symlink entries and paths in .memory-backup; malformed keys; residue (plain, Base64, xor-b64,
JSON and \\u escapes) after forget, purge and ``crypt.py encrypt --file``, including zh text;
0600/0700 of .cache/.state/.memory-backup/.quarantine after every command under umask 000.
"""
from __future__ import annotations

import json

from datetime import date
from pathlib import Path


from memory_manager import crypto, tiers
from memory_manager.config import load_config

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
LATER = {"MEMORY_MANAGER_NOW": "2026-12-09T12:00:00+00:00"}
#: A GitHub token shape (a certain finding), built at run time.
TOKEN = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
#: A North American number (a possible finding: phone).
PHONE = "415-555" + "-0132"


def _init(run_script, *extra: str) -> None:
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", *extra, env=NOW)
    assert r.code == 0, r.err


def _files_holding(root: Path, needle: str) -> list[str]:
    """Every file under root whose bytes or whose path holds ``needle``."""
    out = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if needle in rel:
            out.append("NAME:" + rel)
        elif p.is_file() and not p.is_symlink() and needle.encode() in p.read_bytes():
            out.append(rel)
    return out


def _plant_t2(ws: Path, skill: str, topic: str, text: str, scheme: str = "aes-gcm") -> Path:
    """A T2 entry written straight to disk (as an older version or an agent would have)."""
    cfg = load_config(ws)
    sealed = crypto.encrypt(text, skill, "2026-11", cfg, scheme, topic=topic, entry_id=tiers.t2_id(skill, topic))
    path = tiers.t2_path(ws, skill, topic)
    path.write_text(tiers.render_t2(skill, topic, sealed, date(2026, 11, 25), 30, "2026-11", "en"))
    return path


#: An e-mail address (a possible finding), built at run time.
EMAIL = "alice.chen" + "@" + "mailbox-hq.net"


def _export(tmp_path, **parts) -> str:
    """Write a ``cmm-export`` v3 document holding ``parts`` (empty sections otherwise); return its path."""
    doc = {"format": "cmm-export", "version": 3, "daily": [], "knowledge": [], "tier1": [], "tier2": [], **parts}
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return str(path)
