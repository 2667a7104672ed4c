"""Attack round 11 (quick, atk11): a fresh attacker against main at f425ae8 (tfix10/pfix10/ffix9/nu9).

Each test plays one attack that still gets through, against the real scripts in a temporary
workspace, asserts the promised behaviour and is marked xfail (strict) until fixed. Secret-shaped
values are built at run time (tests/test_layout.py refuses literals).

Found (tests here): a second key still writes through cleanup's quarantine and through import;
keygen --force makes its key before it can record it; the audit log keeps keyed hashes of
forgotten text after an edit, a T2 rewrite, a merged daily write and a prune (and of a value the
user declined, confirmable with the config folder's hash-secret); an import's held-finding id is
keyed with the workspace's audit salt; forget of a T2 entry combined into a month file leaves its
old file name in the backups; import writes a knowledge text of the wrong type as an empty entry;
init sets up a workspace through a symlink inside another workspace; 24 gate variants of the
round 10 rules and 5 wrapped-token shapes are stored without approval; a line separator (U+2028,
\v, \r) stops the gate and the privacy audit with an unexpected IndexError; recall prints the
second half of a token wrapped with '\\' or over table rows.

Tried and held: forget of pruned/cleanup-archived/quarantined entries (names, text, ids: gone from
.memory-backup, .cache, .state, archive); session keys of 23 shapes (all words hashed); init
--dry-run over a folder/FIFO/binary AGENTS.md or MEMORY.md and a memory/daily link or file (exit
2); init -w through a link to memory/ and with ../ (refused); labelled SSN/passport in 14 quote and
label shapes; glued tokens of 5 providers (found); crafted T2 ciphertexts spelling an AWS id, a
phone, an SSN, a mobile (refused as undecryptable or spelled); daily field types (checked);
hash-secret torn or a FIFO (approval refused, exit 1); cleanup's monthly combine under a second
key (left alone).
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


# Fixed in round 11 (cleanup refuses a key the store did not accept before any change: tiers.sealing_key).
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


# Fixed in round 11 (audit log v3: each record names its entry by a keyed id; forget blanks by it).
def test_forget_after_edit_blanks_every_version_hash(ws, run_script):
    _init(run_script, "--no-key")
    assert run_script("memory", "learn", "c2", "--text", f"call {PHONE}", "--approved", env=NOW).code == 0
    assert run_script("memory", "edit", "c2", "--text", f"call {OTHER_PHONE}", "--approved", env=NOW).code == 0
    r = run_script("memory", "forget", "c2", "--approved", env=NOW)
    assert r.code == 0, r.err
    log = ws / "memory/.state/gate-audit.jsonl"
    kept = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert [rec for rec in kept if rec.get("hash")] == []


# ------------------------------------------------------------ variants of the round 10 detector rules past the gate

_MOBILE = "138" + "12345678"
_PHONE10 = "415555" + "0132"
_TOKEN = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
_WORDS = "ribbon anchor grape useful velvet tiger mango orbit pencil salad frost cousin".split()

GATE_VARIANTS = {
    "mobile_glued_after_plus_country_code": "tel+86" + _MOBILE,
    "mobile_glued_with_underscore": "mom_" + _MOBILE,
    "mobile_glued_dashed": "call mom" + _MOBILE[:3] + "-" + _MOBILE[3:7] + "-" + _MOBILE[7:],
    "mobile_glued_split_over_lines": "mom" + _MOBILE[:6] + "\n" + _MOBILE[6:],
    "glued_token_wrapped_no_label": "x" + _TOKEN[:20] + "\n" + _TOKEN[20:],
    "phone_after_reach_me_at": "reach me at " + _PHONE10,
    "phone_after_text_me_on": "text me on " + _PHONE10,
    "phone_glued_after_zh_label": "电话" + _PHONE10,
    "phone_after_ph_hash": "ph# " + _PHONE10,
    "phone_on_the_line_below_its_label": "my phone number is\n" + _PHONE10,
    "recovery_words_numbered": " ".join(f"{i + 1}. {w}" for i, w in enumerate(_WORDS)),
    "recovery_words_one_a_line_below_wallet_words": "wallet words:\n" + "\n".join(_WORDS),
    "ssn_dotted_after_label": "SSN: " + "536.22." + "8741",
    "ssn_after_ss_hash": "SS#: " + "536228" + "741",
    "ssn_after_tax_id": "tax id " + "536228" + "741",
    "health_prep": "I take PrEP every day",
    "health_truvada": "I'm on Truvada",
    "health_antiretrovirals": "I take antiretrovirals",
    "health_cd4": "my CD4 count came back",
    "health_hep_c": "I have hep C",
    "health_plan_b": "I take Plan B",
    "health_wellbutrin": "I take Wellbutrin",
    "health_antabuse": "I'm on Antabuse",
    "health_pacemaker": "I have a pacemaker",
}


@pytest.mark.parametrize("name", sorted(GATE_VARIANTS))
# Fixed in round 11 (pfix11): privacy_lexicon cues and medicines, ssn_any_label, recovery word lists, wrapped runs.
def test_gate_variant_asks_before_storing(ws, run_script, name):
    _init(run_script)
    text = GATE_VARIANTS[name]
    r = run_script("memory", "learn", "k1", "--text", text, env=NOW)
    assert r.code == 1, (r.code, r.out)
    assert not (ws / "memory/knowledge/k1.md").exists()


# ------------------------------------------------------------ forget of a pruned entry keeps its audit hashes


def _hashed_records(ws: Path) -> list[dict]:
    log = ws / "memory/.state/gate-audit.jsonl"
    return [rec for rec in (json.loads(line) for line in log.read_text().splitlines() if line.strip())
            if rec.get("hash")]


@pytest.mark.parametrize("door", ["learn", "write"])
# Fixed in round 11 (audit log v3: each record names its entry by a keyed id; forget blanks by it).
def test_forget_of_a_pruned_entry_blanks_its_audit_hashes(ws, run_script, door):
    import re

    then = {"MEMORY_MANAGER_NOW": "2026-06-01T12:00:00+00:00"}
    later = {"MEMORY_MANAGER_NOW": "2026-12-01T12:00:00+00:00"}
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=then)
    assert r.code == 0, r.err
    args = (["learn", "contact", "--text", f"call {PHONE}"] if door == "learn"
            else ["write", "--topic", "contact", "--cause", f"call {PHONE}"])
    r = run_script("memory", *args, "--approved", env=then)
    assert r.code == 0, r.err
    ident = re.search(r"\[([dk]-[0-9a-f-]+)\]", r.out).group(1)
    assert _hashed_records(ws), "the store record has a hash"
    r = run_script("memory", "prune", env=later)
    assert r.code == 0 and "archive" in r.out, r.out + r.err
    r = run_script("memory", "forget", ident, "--approved", env=later)
    assert r.code == 0, r.err
    assert _hashed_records(ws) == []


# ------------------------------------------------------------ a declined value keeps a hash the config folder confirms


# Fixed in round 11 (a held or refused decision keeps no audit hash: auditlog.NOT_LET_THROUGH).
def test_a_declined_value_cannot_be_confirmed_with_the_config_folder(ws, run_script):
    import hashlib

    from memory_manager import auditlog, keyed

    _init(run_script, "--no-key")
    # An ordinary entry first: its record's hash makes the hash-secret (a declined value makes none).
    assert run_script("memory", "learn", "other", "--text", "plain words", env=NOW).code == 0
    assert run_script("memory", "learn", "contact", "--text", PHONE, env=NOW).code == 1
    assert not (ws / "memory/knowledge/contact.md").exists()
    # the hash-secret file in ${XDG_CONFIG_HOME}/complex-memory-manager/, read as the bundle reads it
    assert (Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager/hash-secret").is_file()
    secret = keyed.local_secret(ws, create=False)
    hashes = {rec["hash"] for rec in _hashed_records(ws)}
    confirmed = []
    for n in range(10000):
        guess = f"contact\n{PHONE[:-4]}{n:04d}\n"
        digest = hashlib.sha256(guess.encode()).hexdigest()
        if auditlog._v2_hash(secret, digest) in hashes:
            confirmed.append(guess)
    assert confirmed == []


# ------------------------------------------------------------ keygen --force makes the key before it can record it


# Fixed in round 10 (ffix10): keygen --force records the key, then puts it in place (crypto.keygen).
def test_keygen_force_is_whole_or_nothing_when_the_accepted_record_cannot_be_written(ws, run_script):
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "x1", env=NOW).code == 0
    key = Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager/key"
    key.rename(key.with_name("old-key"))
    (ws / "memory/.state/t2-key-accepted").unlink()  # recorded by the first seal since round 12
    (ws / "memory/.state/t2-key-accepted").mkdir()
    r = run_script("crypt", "keygen", "--force", env=NOW)
    assert not key.exists(), "a key was made that the store does not accept"
    assert r.code == 2, (r.code, r.err)  # a folder where a state file is expected: bad input (README)


# ------------------------------------------------------------ import: knowledge fields of the wrong type


@pytest.mark.parametrize("field", ['"text": ["the fact"]', '"text": 5', '"text": {"a": "the fact"}', '"text": null',
                                   '"text": "t", "pinned": "yes"'])
# Fixed in round 9 (transfer._check_knowledge_types).
def test_import_refuses_a_knowledge_field_of_the_wrong_type(ws, run_script, tmp_path, field):
    _init(run_script)
    doc = tmp_path / "in.json"
    doc.write_text('{"format": "cmm-export", "version": 3, "knowledge": [{"key": "k1", ' + field + '}]}')
    r = run_script("memory", "import", str(doc), "--approved", env=NOW)
    assert r.code != 0, r.out
    assert not (ws / "memory/knowledge/k1.md").exists()


# ------------------------------------------------------------ init sets up a nested workspace through a symlink


# Fixed in round 9 (workspace.nested_reason reads the folders above the path as written too).
def test_init_refuses_a_symlink_inside_a_workspace(ws, run_script, tmp_path):
    _init(run_script)
    (ws / "AGENTS.md").write_text("# agents\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (ws / "skills").mkdir(exist_ok=True)
    (ws / "skills/mine").symlink_to(outside)
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", "-w", str(ws / "skills/mine"), env=NOW)
    assert r.code == 2, r.out
    assert list(outside.iterdir()) == []


# Fixed in round 11 (audit log v3: each record names its entry by a keyed id; forget blanks by it).
def test_forget_after_a_t2_rewrite_blanks_the_first_texts_hashes(ws, run_script):
    import re

    _init(run_script)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "contact", "--text", f"call {PHONE}",
                   "--approved", env=NOW)
    assert r.code == 0, r.err
    ident = re.search(r"\[(t-[0-9a-f]+)\]", r.out).group(1)
    assert run_script("memory", "show", ident, "--approved", env=NOW).code == 0
    assert run_script("memory", "remember", "--skill", "s", "--topic", "contact", "--text", f"call {OTHER_PHONE}",
                      "--approved", env=NOW).code == 0
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _hashed_records(ws) == []


# Fixed in round 11 (audit log v3: each record names its entry by a keyed id; forget blanks by it).
def test_forget_of_a_merged_daily_section_blanks_every_write_hash(ws, run_script):
    import re

    _init(run_script)
    assert run_script("memory", "write", "--topic", "contact", "--cause", f"call {PHONE}", "--approved",
                      env=NOW).code == 0
    r = run_script("memory", "write", "--topic", "contact", "--change", "moved on", env=NOW)
    assert r.code == 0, r.err
    ident = re.search(r"\[(d-[0-9a-f-]+)\]", r.out).group(1)
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _hashed_records(ws) == []


# ------------------------------------------------------------ wrapped tokens: three lines, quoted lines, U+2028


WRAPPED = {
    "three_lines_below_label": "token:\n" + _TOKEN[:12] + "\n" + _TOKEN[12:26] + "\n" + _TOKEN[26:],
    "quoted_lines_below_label": "token:\n> " + _TOKEN[:20] + "\n> " + _TOKEN[20:],
    "full_width_lines_below_label": "token:\n" + "\n".join(
        "".join(chr(ord(c) + 0xFEE0) for c in part) for part in (_TOKEN[:20], _TOKEN[20:])),
    "zero_width_space_before_the_break": "token:\n" + _TOKEN[:20] + "\u200b\n" + _TOKEN[20:],
    "hyphen_at_the_break": _TOKEN[:20] + "-\n" + _TOKEN[20:],
}


@pytest.mark.parametrize("name", sorted(WRAPPED))
# Fixed in round 11 (pfix11): decoding.wrapped reads any number of lines, quote prefixes, U+200B, a hyphen.
def test_a_wrapped_token_is_refused(ws, run_script, name):
    _init(run_script)
    r = run_script("memory", "learn", "k1", "--text", WRAPPED[name], env=NOW)
    assert r.code == 1, r.out
    assert not (ws / "memory/knowledge/k1.md").exists()


@pytest.mark.parametrize("door", ["learn", "write"])
# Fixed in round 9 (privacy._scan_name and mask_name split lines as scan counts them).
def test_a_token_split_by_a_line_separator_gets_the_gates_refusal(ws, run_script, door):
    _init(run_script)
    text = "token: " + _TOKEN[:20] + "\u2028" + _TOKEN[20:]
    args = ["learn", "k1", "--text", text] if door == "learn" else ["write", "--topic", "t", "--cause", text]
    r = run_script("memory", *args, env=NOW)
    assert "unexpected" not in r.err, r.err
    assert r.code == 1 and "refuse" in r.err, (r.code, r.err)


@pytest.mark.parametrize("sep", ["\x0b", "\r", "\u2028"])
# Fixed in round 9 (privacy._scan_name and mask_name split lines as scan counts them).
def test_privacy_audit_survives_a_file_name_with_a_line_separator(ws, run_script, sep):
    _init(run_script)
    (ws / "memory" / f"notes{sep}call {PHONE}.md").write_text("x\n")
    r = run_script("privacy_audit", env=NOW)
    assert "unexpected" not in r.err, r.err
    assert r.code in (0, 1) and PHONE not in r.out + r.err


# ------------------------------------------------------------ forget of a T2 entry combined into a month file


@pytest.mark.parametrize("archived", [False, True])
# Fixed in round 11 (forget erases every own-file home an entry had: store._archived_origin).
def test_forget_of_a_combined_t2_entry_erases_its_file_name(ws, run_script, archived):
    import re

    from .trust_r4_common import _files_holding

    first = {"MEMORY_MANAGER_NOW": "2026-10-02T12:00:00+00:00"}
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=first)
    assert r.code == 0, r.err
    r = run_script("memory", "remember", "--skill", "sk", "--topic", "lemurtopic", "--text", "lynx one", env=first)
    assert r.code == 0, r.err
    ident = re.search(r"\[(t-[0-9a-f]+)\]", r.out).group(1)
    assert run_script("memory", "remember", "--skill", "sk", "--topic", "keep", "--text", "two", env=first).code == 0
    when = {"MEMORY_MANAGER_NOW": "2026-10-20T12:00:00+00:00"}
    assert run_script("cleanup", env=when).code == 0
    assert (ws / "memory/tier2-internal/sk_2026-10.md").is_file()
    if archived:
        when = {"MEMORY_MANAGER_NOW": "2026-11-20T12:00:00+00:00"}
        assert run_script("cleanup", env=when).code == 0
        assert (ws / "memory/archive/2026-10/sk_2026-10.md").is_file()
    r = run_script("memory", "forget", ident, "--approved", env=when)
    assert r.code == 0, r.err
    assert _files_holding(ws, "lemurtopic") == []


# ------------------------------------------------------------ an import's held-finding id is keyed inside the workspace


# Fixed in round 11 (held ids are keyed outside the workspace: gate.finding_id).
def test_a_held_import_value_cannot_be_confirmed_from_its_id_and_the_workspace(ws, run_script, tmp_path):
    import hashlib
    import hmac
    import re

    _init(run_script)
    doc = tmp_path / "in.json"
    doc.write_text(json.dumps({"format": "cmm-export", "version": 3, "daily": [
        {"date": "2026-11-01", "topic": "contact", "cause": [f"call {PHONE}"]}]}))
    r = run_script("memory", "import", str(doc), "--approved", env=NOW)
    assert r.code == 1 and not (ws / "memory/daily/2026-11-01.md").exists()
    printed = re.search(r"possible phone ([0-9a-f]{12})", r.out + r.err).group(1)
    salt_file = ws / "memory/.state/audit-salt"
    confirmed = []
    if salt_file.exists():
        salt = salt_file.read_bytes()
        for n in range(10000):
            guess = f"{PHONE[:-4]}{n:04d}"
            digest = hashlib.sha256(f"phone\0{guess}".encode()).hexdigest()
            if hmac.new(salt, digest.encode("ascii"), hashlib.sha256).hexdigest()[:12] == printed:
                confirmed.append(guess)
    assert confirmed == []


# Fixed in round 11 (import refuses a key the store did not accept: tiers.sealing_key).
def test_import_under_a_second_key_does_not_split_the_store(ws, run_script, tmp_path):
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "a", "--topic", "x", "--text", "fact a", env=NOW).code == 0
    other = tmp_path / "other"
    other.mkdir()
    env2 = {**NOW, "OPENCLAW_WORKSPACE_DIR": str(other), "MEMORY_MANAGER_KEY": _key2()}
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env2).code == 0
    assert run_script("memory", "remember", "--skill", "b", "--topic", "y", "--text", "fact b", env=env2).code == 0
    out = tmp_path / "k2.json"
    assert run_script("memory", "export", "--out", str(out), "--approved", env=env2).code == 0
    # remember refuses this key here (round 10) ...
    assert run_script("memory", "remember", "--skill", "c", "--topic", "z", "--text", "c",
                      env={**NOW, "MEMORY_MANAGER_KEY": _key2()}).code == 1
    # ... import must too
    r = run_script("memory", "import", str(out), "--approved", env={**NOW, "MEMORY_MANAGER_KEY": _key2()})
    assert not (ws / "memory/tier2-internal/b_y.md").exists(), r.out


# ------------------------------------------------------------ recall's mask of a wrapped token in an OpenClaw note


@pytest.mark.parametrize("shape", ["backslash", "table"])
# Fixed in round 11 (pfix11): decoding.wrapped reads through a trailing backslash and table bars.
def test_recall_masks_both_halves_of_a_wrapped_token(ws, run_script, shape):
    _init(run_script)
    head, tail = _TOKEN[:20], _TOKEN[20:]
    body = (f"- deploy token: {head}\\\n{tail}\n- deploy done\n" if shape == "backslash"
            else f"| deploy token | {head} |\n|  | {tail} |\n")
    (ws / "memory/2026-11-28.md").write_text("# 2026-11-28\n\n" + body)
    r = run_script("memory", "recall", "deploy token", env=NOW)
    assert r.code == 0, r.err
    assert "2026-11-28" in r.out
    assert tail not in r.out
