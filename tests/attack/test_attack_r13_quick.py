"""Attack round 13 (quick, atk13): a fresh attacker against main at f26f7b3 (round 10's fixes of round 12).

Each test plays one attack that got through, against the real scripts in a temporary
workspace, and asserts the promised behaviour (issue 10, references/tiers.md and gate.md); the
xfail marks went with the fixes (tfix13; each kind has its tests in test_trust_r13_kinds.py).
Secret-shaped values are built at run time.

Found (tests here): ``init --yes`` on a new workspace makes the key but records no check value
(the memory tree is made after the key), so another key in ``MEMORY_MANAGER_KEY`` that seals
first becomes the store's key and init's own key file is refused from then on; cleanup's purge
run without the key leaves the purged entry's t2-keyed audit record (hash and entry reference),
where ``forget`` blanks records it cannot recompute; a MEMORY.md lesson edited by hand and then
forgotten leaves the record of its first wording (hash and entry reference); ``export --out``
writes a file named with a token (``report --html`` refuses it); ``unquarantine --approved``
under another key or without a key puts the entry back with ``approved:`` and no mark, so the
next cleanup quarantines it again; ``forget`` keeps an approval-record line keyed with a key it
does not have (no key in the shell, or the line keyed under another ``MEMORY_MANAGER_KEY``).

Tried and held: t2-key-accepted deleted, emptied, whitespace only, a garbage last line,
upper-case hex, CRLF line ends; another key in MEMORY_MANAGER_KEY beside the key file through
learn/write/lesson (insertions, no copy to seal), edit, crypt.py encrypt stdin, reseal, cleanup
(all refused or nothing sealed); forget under another XDG_CONFIG_HOME (local-keyed records
blanked); forget of a knowledge entry whose records were keyed by two keys (blanked); forget of
month-combined, unquarantined, archived (prune) daily/knowledge entries and a lesson (no name or
text left); forget under a full-file limit, the next command finishing it keyless; forget after
keygen --force of an entry with sealed copies of the old key; import of a pre-forget export
under the old key (refused); ``..``/absolute paths in 16 id/key/date/skill/topic options;
symlinked knowledge, daily, T2 notes and record (refused or left alone); tokens in gate.py
--request, recall queries, "not found" arguments; recall of a token in an OpenClaw note at 7
snippet offsets (masked); keyless purge residue in backups (none).
"""
from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

from memory_manager import crypto, tiers
from memory_manager.config import load_config

from .trust_r4_common import NOW, TOKEN, _init

K2 = base64.b64encode(bytes(range(100, 132))).decode()


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


def _key_file() -> Path:
    import os

    return Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager" / "key"


# ------------------------------------------------------------ init makes the key but does not record it

def test_init_records_the_key_it_makes_so_another_key_cannot_take_the_store(ws, run_script):
    _init(run_script)
    key = base64.b64decode(_key_file().read_text(encoding="ascii").strip())
    record = ws / "memory/.state/t2-key-accepted"
    # tiers.md: "The record is written ... by crypt.py keygen and init when they make the key".
    assert record.is_file() and record.read_text(encoding="ascii").split()[-1:] == [tiers.key_check(key)]
    # So a stray key in the environment seals nothing here, and init's own key keeps working.
    r = run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one",
                   env={**NOW, "MEMORY_MANAGER_KEY": K2})
    assert r.code == 1, r.out
    r = run_script("memory", "remember", "--skill", "s", "--topic", "b", "--text", "beta fact two", env=NOW)
    assert r.code == 0, r.err


# ------------------------------------------------------------ cleanup's purge without the key leaves the keyed record

def test_a_purge_without_the_key_blanks_the_purged_entrys_keyed_records(ws, run_script, tmp_path):
    _init(run_script)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "a", "--scheme", "xor-b64", "--text",
                   "alpha fact one", env=NOW)
    assert r.code == 0, r.err
    assert _hashed_records(ws), "the store keeps a keyed record to start with"
    # The entry now holds a certain finding and no approval (as if the detector learnt its format
    # later): cleanup purges it at once.
    cfg = load_config(ws)
    sealed = crypto.encrypt("alpha fact one " + TOKEN, "s", "2026-11", cfg, "xor-b64", topic="a",
                            entry_id=tiers.t2_id("s", "a"))
    from datetime import date

    tiers.t2_path(ws, "s", "a").write_text(tiers.render_t2("s", "a", sealed, date(2026, 11, 25), 30, "2026-11",
                                                           "en"))
    # This shell has no key (the key file moved away: a sandboxed hook, another user).
    _key_file().rename(tmp_path / "key.away")
    c = run_script("cleanup", env=NOW)
    assert c.code == 0, c.err
    assert not tiers.t2_path(ws, "s", "a").exists(), "purged"
    # tiers.md: "Cleanup's purge blanks the purged entry's records by reference and hash"; what it
    # cannot recompute it blanks, as forget does.
    assert _hashed_records(ws) == []


# ------------------------------------------------------------ a hand-edited lesson keeps the record of its first wording

def test_forget_of_a_hand_edited_lesson_blanks_the_record_of_its_first_wording(ws, run_script):
    _init(run_script)
    assert run_script("memory", "lesson", "always pin the golden image tag before deploy", env=NOW).code == 0
    memory = ws / "MEMORY.md"
    memory.write_text(memory.read_text(encoding="utf-8").replace("tag before deploy", "tag before every deploy"),
                      encoding="utf-8")
    r = run_script("memory", "--json", "recall", "golden image tag", env=NOW)
    ids = re.findall(r'"(h-[0-9a-f]{12})"', r.out)
    assert ids, r.out
    f = run_script("memory", "forget", ids[0], "--approved", env=NOW)
    assert f.code == 0, f.err
    assert "golden image" not in memory.read_text(encoding="utf-8")
    # The lesson was the only content stored: gate.md, v3 records name their entry "whatever text
    # each saw"; none may keep a hash of it.
    assert _hashed_records(ws) == []


# ------------------------------------------------------------ export --out takes a secret as a file name

def test_export_out_refuses_a_file_name_holding_a_secret(ws, run_script, tmp_path):
    _init(run_script)
    assert run_script("memory", "learn", "deploy", "--text", "deploy uses port 8443", env=NOW).code == 0
    out = tmp_path / f"export-{TOKEN}.json"
    # The same name is refused by report --html (gate.md: the file name it creates is read as a name).
    r = run_script("memory", "report", "--html", str(tmp_path / f"page-{TOKEN}.html"), env=NOW)
    assert r.code != 0 and not list(tmp_path.glob("page-*"))
    r = run_script("memory", "export", "--out", str(out), "--approved", env=NOW)
    # Issue 10: "every option of every verb ... that reaches disk — ... file names — passes the gate".
    assert r.code == 2, r.err  # bad input (STYLE.md), one line naming the category, never the value
    assert not out.exists() and not list(tmp_path.glob("export-*"))
    assert TOKEN not in r.out + r.err
    assert r.err.strip().splitlines() == ["error: --out: the path holds secret (a file or folder name is stored, so it "
                                          "must hold no secret or personal data); name another file; nothing was "
                                          "written"]


# ------------------------------------------------------------ unquarantine under another key writes no approval mark

@pytest.mark.parametrize("shell", ["another-key", "no-key"])
def test_unquarantine_under_another_key_is_refused_or_writes_a_mark_that_verifies(ws, run_script, tmp_path, shell):
    _init(run_script)
    phone = "415-555" + "-0132"
    (ws / "memory/tier2-internal/s_crane.md").write_text(
        f"---\nskill: s\ntopic: crane\ncreated: 2026-11-01\nscheme: none\n---\ncrane contact {phone} tonight\n")
    assert run_script("cleanup", env=NOW).code == 0
    q = [p.stem for p in (ws / "memory/.quarantine").glob("*.md")]
    assert len(q) == 1
    if shell == "another-key":
        r = run_script("memory", "unquarantine", q[0], "--approved", env={**NOW, "MEMORY_MANAGER_KEY": K2})
    else:  # the key file is not at hand in this shell (it cannot open the sealed quarantine copy)
        _key_file().rename(tmp_path / "key.away")
        r = run_script("memory", "unquarantine", q[0], "--approved", env=NOW)
        (tmp_path / "key.away").rename(_key_file())
    # Refused (exit 1, a domain error: the key is not this store's, or missing), nothing changed.
    assert r.code == 1, r.out + r.err
    assert "Traceback" not in r.err
    if r.code == 0:
        # tiers.md: "An approved entry therefore always carries a mark that verifies";
        # "unquarantine ID --approved writes a real mark".
        text = (ws / "memory/tier2-internal/s_crane.md").read_text(encoding="utf-8")
        assert "\napproval: " in text
        c = run_script("cleanup", env=NOW)  # the store's own key (the key file)
        assert c.code == 0, c.err
        assert not list((ws / "memory/.quarantine").glob("*.md")), "an approved entry stays where it is"
    else:
        # Or refused as every other door refuses a key that is not the store's (one line, nothing changed).
        assert len(r.err.strip().splitlines()) == 1, r.err
        assert (ws / f"memory/.quarantine/{q[0]}.md").is_file()


# ------------------------------------------------------------ forget keeps an approval line keyed with a key it lacks

@pytest.mark.parametrize("shell", ["learnt-under-another-key", "forgotten-without-key"])
def test_forget_drops_approval_lines_it_cannot_recompute(ws, run_script, tmp_path, shell):
    _init(run_script)
    phone = "415-555" + "-0132"
    learn_env = {**NOW, "MEMORY_MANAGER_KEY": K2} if shell == "learnt-under-another-key" else NOW
    r = run_script("memory", "learn", "zeb", "--text", f"zebra vendor line {phone}", "--approved", env=learn_env)
    assert r.code == 0, r.err
    record = ws / "memory/.state/privacy-approvals.jsonl"
    assert record.read_text(encoding="utf-8").strip(), "the approval is recorded"
    if shell == "forgotten-without-key":
        _key_file().rename(tmp_path / "key.away")
    f = run_script("memory", "forget", "zeb", "--approved", env=NOW)
    assert f.code == 0, f.err
    # tiers.md: "the approval record loses the line of every value found in the entry"; the only
    # value approved here was the forgotten entry's.
    assert record.read_text(encoding="utf-8").strip() == ""
