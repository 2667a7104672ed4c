"""Issue 10, attack round 4: variants of each fixed kind that the attacker's tests do not try.

Written with the fixes (branch trustA), against the real scripts in a temporary workspace.
Secret-shaped values are built at run time (tests/test_layout.py refuses literals).
"""
from __future__ import annotations

import json
import stat

import pytest

from memory_manager import tiers

from .trust_r4_common import EMAIL, LATER, NOW, PHONE, TOKEN, _files_holding, _init, _plant_t2

DIGITS = "+1" + PHONE.replace("-", "")
CN_MOBILE = "138" + "12345678"


# ---------------------------------------------------------------- session keys

def test_a_session_end_hook_never_writes_a_peer_address_or_group_id(ws, run_script):
    """Variant: the session-end hook (``command:new``), a peer named by an e-mail address and a
    Telegram group with a topic id: every identifier is a keyed hash, the structure stays."""
    _init(run_script)
    assert run_script("maintain", "--workspace", ws, env=NOW).code == 0
    for key in (f"agent:main:email:dm:{EMAIL}", "agent:main:telegram:group:-100" + CN_MOBILE + ":topic:77"):
        event = {"type": "command", "action": "new", "sessionKey": key, "context": {"workspaceDir": str(ws)}}
        assert run_script("hook", input=json.dumps(event), env=NOW).code == 0
    assert _files_holding(ws, EMAIL.split("@")[0]) == [] and _files_holding(ws, CN_MOBILE) == []
    lines = (ws / "memory/.state/context-usage.jsonl").read_text(encoding="utf-8").splitlines()
    sessions = [json.loads(line)["session"] for line in lines]
    assert [s.rsplit(":", 1)[0] for s in sessions[:1]] == ["agent:main:email:dm"]
    assert sessions[1].startswith("agent:main:telegram:group:#") and ":topic:#" in sessions[1]


# ------------------------------------------------------------- paths shown back

def test_recall_masks_a_number_glued_into_a_knowledge_file_name(ws, run_script):
    """Variant: a knowledge file an agent named ``mom_13812345678.md``; recall prints its path."""
    _init(run_script)
    (ws / "memory/knowledge" / f"mom_{CN_MOBILE}.md").write_text(
        "---\nformat: cmm-knowledge\nversion: 1\nid: k-00000000cd\nkey: notes\ntags: []\n"
        "created: 2026-11-29\nupdated: 2026-11-29\n---\n\nzebrafamily call plan\n", encoding="utf-8")
    r = run_script("memory", "recall", "zebrafamily", env=NOW)
    j = run_script("memory", "recall", "zebrafamily", "--json", env=NOW)
    assert r.code == 0 and "zebrafamily" in r.out, r.err
    assert json.loads(j.out)["hits"]
    assert CN_MOBILE not in r.out and CN_MOBILE not in j.out


def test_the_audit_masks_a_token_glued_by_an_underscore_into_an_openclaw_note_name(ws, run_script):
    _init(run_script)
    (ws / "memory" / f"2026-11-28-deploy_{TOKEN}.md").write_text("# deploy\n\n- steps\n", encoding="utf-8")
    r = run_script("privacy_audit", env=NOW)
    j = run_script("privacy_audit", "--json", env=NOW)
    assert json.loads(j.out)["clean"] is False
    assert TOKEN[4:] not in r.out + r.err + j.out


# ------------------------------------------------------------------ slug names

@pytest.mark.parametrize("args,digits", [
    (("learn", "iban_" + "DE89" + "3704" + "0044" + "0532" + "013000", "--text", "x"), "370400440532013000"),
    (("write", "--topic", "ssn_" + "078-05" + "-1120", "--change", "x"), "078-05-1120"),
    (("stats", "pattern", "--trigger", "ping_" + DIGITS, "--skills", "rel"), DIGITS[2:]),
], ids=["learn_iban_underscore", "write_ssn_underscore", "t1_trigger_phone"])
def test_a_glued_number_is_refused_at_other_doors(ws, run_script, args, digits):
    """Variants: an IBAN glued by "_" into a key, an SSN glued by "_" (its own hyphens kept) into a
    daily topic, a phone glued into a T1 trigger (a public value)."""
    _init(run_script)
    r = run_script("memory", *args, env=NOW)
    assert r.code == 1, r.out
    assert _files_holding(ws, digits) == []


# ---------------------------------------------------------------- health facts

@pytest.mark.parametrize("args", [
    ("stats", "pattern", "--trigger", "my therapy reminder", "--skills", "rel"),
    ("lesson", "my chemo schedule means no travel in March"),
], ids=["t1_trigger_therapy", "lesson_chemo"])
def test_other_health_facts_do_not_pass_without_approval(ws, run_script, args):
    _init(run_script)
    r = run_script("memory", *args, env=NOW)
    assert r.code == 1, r.out
    assert _files_holding(ws, "therapy") == [] and _files_holding(ws, "chemo") == []


def test_an_approved_lesson_with_a_health_fact_is_stored(ws, run_script):
    """The user's word still counts: strict scanning asks, it does not refuse."""
    _init(run_script)
    r = run_script("memory", "lesson", "my chemo schedule means no travel in March", "--approved", env=NOW)
    assert r.code == 0, r.err


# ------------------------------------------------------------------- approvals

def test_an_approval_mark_copied_to_another_entry_does_not_keep_it(ws, run_script, t2_key):
    """Variant: both lines of a real approval (``approved`` and its keyed ``approval``) copied
    into another entry's frontmatter: the mark is bound to the entry id and text, so the copy
    is quarantined, while the original stays."""
    _init(run_script)
    args = ("memory", "remember", "--skill", "crm", "--topic", "desk", "--text", f"desk is {PHONE}", "--approved")
    assert run_script(*args, env=NOW).code == 0
    real = ws / "memory/tier2-internal/crm_desk.md"
    marks = [line for line in real.read_text(encoding="utf-8").splitlines()
             if line.startswith(("approved:", "approval:"))]
    assert len(marks) == 2 and marks[1].startswith("approval:")
    other = _plant_t2(ws, "crm", "bob", f"Bob private cell {PHONE}")
    text = other.read_text(encoding="utf-8")
    other.write_text(text.replace("---\n", "---\n" + "\n".join(marks) + "\n", 1), encoding="utf-8")
    doc = json.loads(run_script("cleanup", "--json", env=NOW).out)
    assert doc["quarantined"] == 1 and not other.exists() and real.exists(), doc["actions"]


def test_an_approved_value_in_a_knowledge_entry_cannot_be_confirmed_from_the_workspace(ws, run_script):
    """Variant: no T2 key at all (``init --no-key``): the approval record of an e-mail approved in
    a knowledge entry is keyed with the local secret, which lies outside the workspace (0600)."""
    from memory_manager.auditlog import content_hash
    from memory_manager.crypto import config_dir
    from memory_manager.gate import _value_digest

    r = run_script("init", "--yes", "--no-hooks", "--no-key", "--lang", "en", env=NOW)
    assert r.code == 0, r.err
    assert run_script("memory", "learn", "contact", "--text", f"team alias {EMAIL}", "--approved", env=NOW).code == 0
    assert (ws / "memory/.state/privacy-approvals.jsonl").is_file()
    guess = content_hash(ws, _value_digest("email", EMAIL))
    assert _files_holding(ws, guess) == [] and _files_holding(ws, guess[:32]) == []
    secret = config_dir() / "hash-secret"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    # The approval still counts: the audit lists the address as an approved notice, not a failure.
    audit = json.loads(run_script("privacy_audit", "--json", env=NOW).out)
    assert [n["category"] for n in audit["notices"] if n.get("approved")] == ["email"]


def test_a_v1_approval_record_line_is_still_read(ws, run_script):
    """formats.md: v1 lines (keyed with the audit salt, written by older versions) still count."""
    from memory_manager.auditlog import content_hash
    from memory_manager.gate import _value_digest, approvals_path

    _init(run_script)
    (ws / "memory/knowledge/contact.md").write_text(
        "---\nformat: cmm-knowledge\nversion: 1\nid: k-00000000ef\nkey: contact\ntags: []\n"
        f"created: 2026-11-29\nupdated: 2026-11-29\n---\n\nteam alias {EMAIL}\n", encoding="utf-8")
    assert json.loads(run_script("privacy_audit", "--json", env=NOW).out)["clean"] is False
    line = {"time": "2026-11-20T10:00:00+00:00", "category": "email", "rule": "email", "confidence": "possible",
            "key": content_hash(ws, _value_digest("email", EMAIL))}
    approvals_path(ws).parent.mkdir(parents=True, exist_ok=True)
    approvals_path(ws).write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert json.loads(run_script("privacy_audit", "--json", env=NOW).out)["clean"] is True


def test_unquarantine_refuses_a_topic_with_a_glued_number_and_keeps_it_quarantined(ws, run_script, t2_key):
    _init(run_script)
    _plant_t2(ws, "crm", f"mom_{CN_MOBILE}", "ring about the contract")
    assert json.loads(run_script("cleanup", "--json", env=NOW).out)["quarantined"] == 1
    ident = tiers.t2_id("crm", f"mom_{CN_MOBILE}")
    r = run_script("memory", "unquarantine", ident, "--approved", env=NOW)
    assert r.code == 1 and CN_MOBILE not in r.out + r.err
    run_script("cleanup", env=LATER)
    assert [p for p in _files_holding(ws / "memory", CN_MOBILE) if not p.startswith(".quarantine/")] == []
    assert (ws / "memory/.quarantine" / f"{ident}.md").is_file()


# ------------------------------------------------------------------------ case

def test_names_that_differ_only_in_unicode_normalisation_never_share_a_file(ws, run_script):
    """APFS also ignores the difference between composed and decomposed accents (café, cafe + U+0301)."""
    _init(run_script)
    assert run_script("memory", "learn", "caf\u00e9", "--text", "flat white", env=NOW).code == 0
    r = run_script("memory", "learn", "cafe\u0301", "--text", "espresso", env=NOW)
    assert r.code == 2 and "differs only in case" in r.err
    assert len(list((ws / "memory/knowledge").glob("*.md"))) == 1


def test_a_t1_skill_that_differs_only_in_case_is_refused(ws, run_script):
    _init(run_script)
    assert run_script("memory", "stats", "record", "--skill", "rel", "--ok", env=NOW).code == 0
    r = run_script("memory", "stats", "record", "--skill", "Rel", "--ok", env=NOW)
    assert r.code == 2
    names = [p.name.casefold() for p in (ws / "memory/tier1-public").iterdir()]
    assert names == ["rel_stats.json"]


def test_a_t2_skill_that_differs_only_in_case_is_refused_against_a_month_file(ws, run_script, t2_key):
    """The skill's month file (``rel_2026-11.md``, made by compaction) is its file too."""
    _init(run_script)
    folder = ws / "memory/tier2-internal"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rel_2026-11.md").write_text("---\nformat: cmm-t2-multi\nversion: 1\ntier: internal\n"
                                           "source_skill: rel\n---\n", encoding="utf-8")
    r = run_script("memory", "remember", "--skill", "Rel", "--topic", "crew", "--text", "two", env=NOW)
    assert r.code == 2, r.out
    assert sorted(p.name for p in folder.iterdir()) == ["rel_2026-11.md"]
