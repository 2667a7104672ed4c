"""Attack round 12 (quick, atk12): a fresh attacker against main at f930227 (tfix11a/tfix11b/pfix11).

Each test plays one attack that still gets through, against the real scripts in a temporary
workspace, asserts the promised behaviour (issue 10) and is marked xfail (strict) until fixed.
Secret-shaped values are built at run time (tests/test_layout.py refuses literals).

Found (tests here): forget leaves keyed audit hashes of a MEMORY.md lesson (3 kinds) and of
gate.py's record of the same text (v3 records with no entry reference are not matched by hash);
forget run without the key, or under another key, leaves the t2-keyed records of learn/write/
remember and of a quarantined entry; a key that opens only one archived entry seals a live entry beside the store key's;
a second key is accepted while the only sealed copies are in the backups (decrypt --file), and
that backup no longer restores (these two fixed in tfix12k: the store's key is recorded); forget after unquarantine, and after prune + unarchive, leaves
the intermediate file name (plain id, knowledge key) in the backups' entries.jsonl/after.json.

Tried and held: import of T2/archive items sealed with another key, plain T2 in an archive
item, archive names with ``..``/absolute paths/phone slugs, tokens in archive body, tags and
frontmatter, ``source_skill: ../../..``; planted aes-gcm T2 holding a token (recall/show/report/
export refuse it), a phone (held, --allow works); show of one entry of a month-combined file;
a second key against month-combined entries; forget of a T2 entry with no key (no copy kept);
report files and mask cache after forget of knowledge/daily/lesson; symlinked knowledge, daily,
MEMORY.md, quarantine and T2 files (refused or left alone); recall masks (long line, heading,
Base64, frontmatter, wrapped halves, daily heading); held decisions keep no hash (12 doors);
write --date paths; stats pattern --skills/--skill, tags with findings (refused).
"""
from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path

import pytest

from .trust_r4_common import NOW, _files_holding, _init

K1 = base64.b64encode(bytes(range(32))).decode()


def _hashed_records(ws: Path) -> list[dict]:
    """Audit records that still keep a hash or an entry reference."""
    path = ws / "memory/.state/gate-audit.jsonl"
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            if isinstance(rec, dict) and (rec.get("hash") or rec.get("entry")):
                out.append(rec)
    return out


# ------------------------------------------------------------ forget leaves the audit hash of a lesson

@pytest.mark.parametrize("kind", ["lesson", "mistake", "decision"])
def test_forget_of_a_lesson_blanks_its_audit_hash(ws, run_script, kind):
    env = {**NOW, "MEMORY_MANAGER_KEY": K1}
    _init(run_script)
    assert run_script("memory", "lesson", "always pin the golden image tag before deploy", "--kind", kind,
                      env=env).code == 0
    r = run_script("memory", "--json", "recall", "golden image tag", env=env)
    ids = re.findall(r'"(h-[0-9a-f]{12})"', r.out)
    assert ids, r.out
    f = run_script("memory", "forget", ids[0], "--approved", env=env)
    assert f.code == 0, f.err
    assert "golden image" not in (ws / "MEMORY.md").read_text(encoding="utf-8")
    # The lesson was the only content stored: no record may keep a hash of it.
    assert _hashed_records(ws) == []


# ------------------------------------------------------------ forget run without the key the records were keyed with

@pytest.mark.parametrize("door", ["learn", "write", "remember", "quarantine"])
def test_forget_without_the_key_blanks_the_records_keyed_with_it(ws, run_script, door):
    env = {**NOW, "MEMORY_MANAGER_KEY": K1}
    # Set up with the key in the environment (no key file is made): later shells may lack the variable.
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env).code == 0
    assert not list(Path(os.environ["XDG_CONFIG_HOME"]).rglob("key"))
    if door == "learn":
        r = run_script("memory", "learn", "deploy-port", "--text", "deploy uses port 8443 on host alpha", env=env)
    elif door == "quarantine":
        phone = "415-555" + "-0132"
        (ws / "memory/tier2-internal/s_crane.md").write_text(
            f"---\nskill: s\ntopic: crane\ncreated: 2026-11-01\nscheme: none\n---\ncrane contact {phone} tonight\n")
        assert run_script("cleanup", env=env).code == 0
        q = [p.stem for p in (ws / "memory/.quarantine").glob("*.md")]
        assert len(q) == 1
        r = run_script("memory", "show", q[0], "--approved", env=env)
        r.out = f"[{q[0]}]"
    elif door == "remember":
        r = run_script("memory", "remember", "--skill", "q", "--topic", "solo", "--text",
                       "solo fact: lives on shelf four", env=env)
    else:
        r = run_script("memory", "write", "--topic", "deploy", "--cause", "deploy uses port 8443 on host alpha",
                       env=env)
    assert r.code == 0, r.err
    ident = re.findall(r"\[([dkt]-[0-9a-f-]+)\]", r.out)[0]
    assert _hashed_records(ws), "the store keeps a keyed record to start with"
    # The key is not at hand this time (unset variable: a shell without it); forget needs none here.
    f = run_script("memory", "forget", ident, "--approved", env=NOW)
    # Either forget refuses (nothing changed) or no record of the forgotten entry keeps a hash.
    if f.code == 0:
        assert _hashed_records(ws) == []


# ------------------------------------------------------------ a key that opens only an archived entry seals live ones

K2 = base64.b64encode(bytes(range(100, 132))).decode()
LATER = {"MEMORY_MANAGER_NOW": "2027-01-15T12:00:00+00:00"}


# Fixed in round 12 (tfix12k): the store's key is recorded (tiers.sealing_key); only it seals.
def test_a_key_opening_only_an_archived_entry_does_not_seal_beside_the_live_ones(ws, run_script, tmp_path,
                                                                                 monkeypatch):
    import shutil

    # Another store, sealed with K2, whose entry expired into its archive.
    other = tmp_path / "other"
    other.mkdir()
    o_env = {"OPENCLAW_WORKSPACE_DIR": str(other), "MEMORY_MANAGER_KEY": K2}
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env={**NOW, **o_env}).code == 0
    assert run_script("memory", "remember", "--skill", "old", "--topic", "gone", "--text",
                      "the old cache lives on volume two", env={**NOW, **o_env}).code == 0
    assert run_script("cleanup", env={**LATER, **o_env}).code == 0
    archived = [p for p in (other / "memory/archive").rglob("*.md") if p.is_file()]
    assert archived
    # This store: live entries sealed with K1; the other store's archived file copied into its archive.
    env = {**NOW, "MEMORY_MANAGER_KEY": K1}
    # K1 is this store's key from the start: init under it makes no key file (round 11: a key file
    # init makes is recorded as the store's key, and K1 would then be refused).
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env).code == 0
    assert run_script("memory", "remember", "--skill", "s", "--topic", "mine", "--text",
                      "the nightly job runs at two", env=env).code == 0
    for p in archived:
        dest = ws / p.relative_to(other)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(p, dest)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "new", "--text", "the weekly job runs on monday",
                   env={**NOW, "MEMORY_MANAGER_KEY": K2})
    # Either refused (K2 opens none of the live entries) or the new entry opens with the store's key.
    if r.code == 0:
        ident = re.findall(r"\[(t-[0-9a-f]+)\]", r.out)[0]
        s = run_script("memory", "show", ident, "--approved", env=env)
        assert s.code == 0 and "monday" in s.out, s.out + s.err


# ------------------------------------------------------------ unquarantine, then forget: the quarantine name stays



def test_forget_after_unquarantine_leaves_no_plain_id(ws, run_script):
    env = {**NOW, "MEMORY_MANAGER_KEY": K1}
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env).code == 0  # K1 is the store's key
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "plain fact one",
                      env=env).code == 0
    phone = "415-555" + "-0132"
    (ws / "memory/tier2-internal/s_crane.md").write_text(
        f"---\nskill: s\ntopic: crane\ncreated: 2026-11-01\nscheme: none\n---\ncrane contact {phone} tonight\n")
    assert run_script("cleanup", env=env).code == 0
    quarantined = [p.stem for p in (ws / "memory/.quarantine").glob("*.md")]
    assert len(quarantined) == 1
    ident = quarantined[0]
    assert run_script("memory", "unquarantine", ident, "--approved", env=env).code == 0
    f = run_script("memory", "forget", ident, "--approved", env=env)
    assert f.code == 0, f.err
    # The id is derived from skill and topic: a plain copy confirms a guessed topic.
    assert _files_holding(ws, ident) == []
    assert _files_holding(ws, phone) == []


def test_forget_after_unarchive_leaves_no_archive_name(ws, run_script):
    old = {"MEMORY_MANAGER_NOW": "2026-06-01T12:00:00+00:00", "MEMORY_MANAGER_KEY": K1}
    env = {**NOW, "MEMORY_MANAGER_KEY": K1}
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=old).code == 0
    r = run_script("memory", "learn", "pelican-route", "--text", "pelican route goes through gate nine", env=old)
    ident = re.findall(r"\[(k-[0-9a-f]+)\]", r.out)[0]
    p = run_script("memory", "prune", env=env)
    assert p.code == 0 and "archive" in p.out, p.out + p.err
    assert run_script("memory", "unarchive", ident, "--approved", env=env).code == 0
    f = run_script("memory", "forget", "pelican-route", "--approved", env=env)
    assert f.code == 0, f.err
    assert _files_holding(ws, "pelican") == []
    assert _files_holding(ws, ident) == []


def test_forget_under_another_key_blanks_the_records_keyed_with_the_first(ws, run_script):
    _init(run_script)  # makes the key file
    env = {**NOW, "MEMORY_MANAGER_KEY": K1}  # a knowledge entry written while the variable was set
    r = run_script("memory", "learn", "deploy-port", "--text", "deploy uses port 8443 on host alpha", env=env)
    assert r.code == 0, r.err
    f = run_script("memory", "forget", "deploy-port", "--approved", env=NOW)
    assert f.code == 0, f.err
    assert _hashed_records(ws) == []


def test_forget_blanks_the_gate_scripts_record_of_the_same_text(ws, run_script):
    env = {**NOW, "MEMORY_MANAGER_KEY": K1}
    phone = "415-555" + "-0132"
    text = f"my mother's number is {phone}"
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env).code == 0
    # The agent asks the gate first (as the skill tells it to), then stores what the user approved.
    g = run_script("gate", "--operation", "store", "--text", text, "--approved", "--source", "explicit_user", env=env)
    assert g.code == 0, g.out + g.err
    assert run_script("memory", "learn", "k1", "--text", text, "--approved", env=env).code == 0
    f = run_script("memory", "forget", "k1", "--approved", env=env)
    assert f.code == 0, f.err
    assert _hashed_records(ws) == []


# ------------------------------------------------------------ a first key on a store whose sealed copies are in its backups

# Fixed in round 12 (tfix12k): the first key to seal is recorded; another key is refused.
def test_a_second_key_is_not_accepted_while_the_backups_are_sealed_with_the_first(ws, run_script):
    env = {**NOW, "MEMORY_MANAGER_KEY": K1}
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env).code == 0
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one",
                      env=env).code == 0
    d = run_script("crypt", "decrypt", "--file", str(ws / "memory/tier2-internal/s_a.md"), "--approved", env=env)
    assert d.code == 0, d.err
    backup = re.findall(r"backup (\d{6}-\d{8}T\d{6}Z)", d.out)[0]
    env2 = {**NOW, "MEMORY_MANAGER_KEY": K2}
    r = run_script("memory", "remember", "--skill", "s", "--topic", "b", "--text", "beta fact two", env=env2)
    # Either the other key is refused, or the store's backups still restore under the key it now uses.
    if r.code == 0:
        back = run_script("init", "--restore", backup, "--yes", "--force", env=env2)
        assert back.code == 0, back.err
