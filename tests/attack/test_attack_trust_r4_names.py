"""Attack round 4 (issue 10), part 1: names, masking, approvals and side doors.

The attack kinds and what held: tests/attack/trust_r4_common.py.
"""
from __future__ import annotations

import json

import pytest

from memory_manager import tiers

from .trust_r4_common import EMAIL, LATER, NOW, PHONE, TOKEN, _files_holding, _init, _plant_t2


def test_a_hook_never_writes_the_phone_number_of_a_dm_session_key(ws, run_script):
    """OpenClaw names a direct-message session after the peer (``agent:main:whatsapp:dm:+1415...``).
    The post-response / session-end hooks append the event's session key verbatim to
    memory/.state/context-usage.jsonl, so the peer's phone number (T3: stored nowhere) lands on
    disk without passing the gate, and the privacy audit never looks there. Guarantee (gate.md,
    "Every door passes the gate"): whatever reaches disk is classified, a T3 value is stored
    nowhere."""
    _init(run_script)
    assert run_script("maintain", "--workspace", ws, env=NOW).code == 0  # so the hook spawns nothing
    digits = "+1" + PHONE.replace("-", "")
    event = {"type": "message", "action": "sent", "sessionKey": f"agent:main:whatsapp:dm:{digits}",
             "context": {"workspaceDir": str(ws)}}
    r = run_script("hook", input=json.dumps(event), env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, digits[2:]) == []


def test_recall_masks_a_secret_in_the_path_of_a_hit(ws, run_script):
    """OpenClaw's own notes are named ``memory/YYYY-MM-DD-<slug>.md``; recall reads them. A token
    in the slug is printed in full in the hit's path (text and --json) although the heading and
    snippet are masked. Guarantee (gate.md): a hit that contains a secret is returned with the
    value masked, never more than its first 4 characters shown."""
    _init(run_script)
    (ws / "memory" / f"2026-11-28-{TOKEN}.md").write_text(
        "# notes\n\n## deploy\n- zebradeploy steps for the release\n", encoding="utf-8")
    r = run_script("memory", "recall", "zebradeploy", env=NOW)
    assert r.code == 0 and "zebradeploy" in r.out, r.err
    j = run_script("memory", "recall", "zebradeploy", "--json", env=NOW)
    assert json.loads(j.out)["hits"]
    assert TOKEN[4:] not in r.out and TOKEN[4:] not in j.out


def test_recall_masks_a_secret_in_a_t2_file_name(ws, run_script, t2_key):
    """A T2 file whose topic is a token (an older version or an agent wrote it) is found by
    ``recall --approved`` and its path is printed with the token in full."""
    _init(run_script)
    _plant_t2(ws, "ops", TOKEN, "zebradeploy notes for the release")
    r = run_script("memory", "recall", "zebradeploy", "--approved", env=NOW)
    assert r.code == 0 and "zebradeploy" in r.out, r.err
    assert TOKEN[4:] not in r.out


def test_the_privacy_audit_masks_a_secret_in_a_t2_file_name(ws, run_script, t2_key):
    """The audit report names a T2 file by its path; a token in that name is printed in full
    (text and --json), while the same token in a knowledge file name is masked. Guarantee
    (gate.md): the privacy audit scans file names, masked in its report."""
    _init(run_script)
    _plant_t2(ws, "ops", TOKEN, "deploy notes")
    r = run_script("privacy_audit", env=NOW)
    j = run_script("privacy_audit", "--json", env=NOW)
    assert json.loads(j.out)["clean"] is False
    assert TOKEN[4:] not in r.out + r.err and TOKEN[4:] not in j.out


def test_cleanup_does_not_print_a_purged_token_name_in_full(ws, run_script, t2_key):
    """cleanup's action list names the purged file by its path, token and all (stdout of an
    automatic run lands in memory/.state/maintain.log). Guarantee (gate.md): every message that
    names a refused file masks its secrets as recall does."""
    _init(run_script)
    _plant_t2(ws, "ops", TOKEN, "deploy notes")
    r = run_script("cleanup", env=NOW)
    j = run_script("cleanup", "--json", env=NOW)
    assert r.code == 0, r.err
    assert "purge" in r.out
    assert TOKEN[4:] not in r.out + r.err and TOKEN[4:] not in j.out


def test_approving_a_value_in_one_entry_does_not_approve_another_t2_entry(ws, run_script, t2_key):
    """The user approves an office number in one knowledge entry (``learn --approved``). A T2
    entry the user never saw (an agent wrote it) holds the same number as someone's private
    cell: cleanup keeps it, "approved by the user", because the approval record keys on the
    value. The import path already treats approval as specific (gate.md: "An import's approval is
    specific"). Guarantee (issue 10): an entry with an unapproved possible finding is
    quarantined; --approved on one item approves no other."""
    _init(run_script)
    assert run_script("memory", "learn", "office", "--text", f"office line {PHONE}", "--approved", env=NOW).code == 0
    path = _plant_t2(ws, "crm", "alice", f"Alice private cell {PHONE}, never share")
    r = run_script("cleanup", "--json", env=NOW)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["quarantined"] == 1 and not path.exists(), doc["actions"]


@pytest.mark.parametrize("args", [
    ("stats", "pattern", "--trigger", "user's insulin dose reminder", "--skills", "rel"),
    ("lesson", "my HIV diagnosis means I skip Friday standups"),
], ids=["t1_trigger_insulin", "lesson_hiv"])
def test_a_health_fact_about_the_user_does_not_pass_without_approval(ws, run_script, args):
    """Health facts about the user reach disk without approval: a T1 (public) trigger about the
    user's insulin dose, and a MEMORY.md lesson about the user's HIV diagnosis (the detector sees
    no health topic in either; its Chinese twin is caught). Guarantee (gate.md rules 0 and 4): a
    sensitive topic needs approval, and in a public name it is refused."""
    _init(run_script)
    r = run_script("memory", *args, env=NOW)
    assert r.code == 1, r.out
    assert _files_holding(ws, "insulin") == [] and _files_holding(ws, "HIV") == []


#: Names in the slug style file names take: the separator glues the number to a word, and the
#: detector (which finds each value with a space before it) sees nothing.
SLUG_NAMES = {
    "ssn_hyphen": ("ssn-" + "078-05" + "-1120", "078-05-1120"),
    "cn_mobile_underscore": ("mom_" + "138" + "12345678", "13812345678"),
    "intl_phone_underscore": ("call_+1" + PHONE.replace("-", ""), PHONE.replace("-", "")),
}
NAME_DOORS = {
    "learn_key": lambda n: ("learn", n, "--text", "x"),
    "write_topic": lambda n: ("write", "--topic", n, "--change", "x"),
    "remember_topic": lambda n: ("remember", "--skill", "crm", "--topic", n, "--text", "x"),
    "stats_record_skill": lambda n: ("stats", "record", "--skill", n, "--ok"),
    "learn_tags": lambda n: ("learn", "tg", "--text", "x", "--tags", n),
    "event_skill": lambda n: ("event", "--skill", n, "skill_complete", "--text", "ok"),
    "stats_pattern_skills": lambda n: ("stats", "pattern", "--trigger", "sync", "--skills", "a," + n),
}


@pytest.mark.parametrize("door", sorted(NAME_DOORS))
@pytest.mark.parametrize("case", sorted(SLUG_NAMES))
def test_a_number_glued_into_a_slug_name_is_refused(ws, run_script, t2_key, door, case):
    """Rule 0 of gate.md: a value that becomes a file name is refused when the detector finds
    anything in it, whatever the flags. Written the way file names are (``ssn-078-05-1120``,
    ``mom_13812345678``, ``call_+14155550132``), a US SSN (a certain finding when written with a
    space), a Chinese mobile number and a phone number pass every name door: they become file
    names, headings and T1 keys, and the privacy audit then reports the workspace clean."""
    name, digits = SLUG_NAMES[case]
    _init(run_script)
    r = run_script("memory", *NAME_DOORS[door](name), env=NOW)
    assert r.code == 1, r.out
    assert _files_holding(ws, digits) == []


def test_the_privacy_audit_finds_a_number_in_a_slug_file_name(ws, run_script):
    """A knowledge file named ``ssn-078-05-1120.md`` (an older version or an agent wrote it):
    the audit scans file names (gate.md) yet reports the workspace clean."""
    _init(run_script)
    name = SLUG_NAMES["ssn_hyphen"][0]
    (ws / "memory/knowledge" / f"{name}.md").write_text(
        f"---\nformat: cmm-knowledge\nversion: 1\nid: k-00000000ab\nkey: notes\ntags: []\n"
        "created: 2026-11-29\nupdated: 2026-11-29\n---\n\nharmless body\n", encoding="utf-8")
    r = run_script("privacy_audit", "--json", env=NOW)
    assert json.loads(r.out)["clean"] is False and r.code == 1




def test_a_quarantined_entry_named_by_an_email_is_listed_masked(ws, run_script, t2_key):
    """An agent wrote a T2 entry whose topic is an e-mail address; cleanup quarantines it (names
    are scanned). ``memory.py status`` (no approval asked) then lists it as
    ``crm/alice.chen@...`` in full, text and --json. Guarantee (tiers.md): an e-mail address is T3;
    quarantine is read only with ``show ID --approved``, secrets masked."""
    _init(run_script)
    _plant_t2(ws, "crm", EMAIL, "ring about the contract")
    assert json.loads(run_script("cleanup", "--json", env=NOW).out)["quarantined"] == 1
    r = run_script("memory", "status", env=NOW)
    j = run_script("memory", "status", "--json", env=NOW)
    assert json.loads(j.out)["quarantine"]
    assert EMAIL not in r.out and EMAIL not in j.out


def test_an_openclaw_note_name_with_a_glued_number_never_becomes_a_topic(ws, run_script):
    """gate.md: an OpenClaw note whose name (the part after the date, which becomes the daily
    topic) holds a finding is refused. ``memory/2026-11-27-mom-13812345678.md`` (a Chinese mobile
    number, joined by a hyphen as note names are) is imported with its name as the topic: the
    number reaches memory/daily/ and daily-index.md."""
    _init(run_script)
    digits = "138" + "12345678"
    (ws / "memory" / f"2026-11-27-mom-{digits}.md").write_text("# n\n\n## calls\n- ring back tomorrow\n",
                                                               encoding="utf-8")
    run_script("memory", "import", "--from-openclaw", "--approved", env=NOW)
    assert [p for p in _files_holding(ws, digits) if not p.startswith("NAME:memory/2026-11-27-")
            and not p.startswith("memory/2026-11-27-")] == []


def test_an_approved_t2_value_cannot_be_confirmed_without_the_t2_key(ws, run_script, t2_key):
    """``remember --approved`` seals a T2 entry holding a phone number with AES-GCM, and writes the
    number's keyed hash to memory/.state/privacy-approvals.jsonl; the key of that hash (the audit
    salt) lies beside it in plain. Anyone with the workspace but without the T2 key enumerates the
    numbers of one area code (10^7 HMACs, seconds) and reads the sealed number back: the T2 body
    is not confidential. Round 3 made forget drop these lines for the same reason (tiers.md: the
    record's hash "could confirm a guess"); a live T2 entry needs the same protection (e.g. the
    hash keyed with the T2 key)."""
    from memory_manager.auditlog import content_hash
    from memory_manager.gate import _value_digest

    _init(run_script)
    args = ("memory", "remember", "--skill", "crm", "--topic", "desk", "--text", f"ops desk is {PHONE}")
    assert run_script(*args, env=NOW).code == 1
    assert run_script(*args, "--approved", env=NOW).code == 0
    guess = content_hash(ws, _value_digest("phone", PHONE))
    assert _files_holding(ws, guess) == []


@pytest.mark.parametrize("door", ["learn", "remember"])
def test_names_that_differ_only_in_case_never_share_a_file_on_a_case_insensitive_disk(ws, run_script, t2_key, door):
    """macOS (APFS) and Windows file systems ignore case by default: ``learn Tea`` after ``learn
    tea`` (or ``remember --skill Rel`` after ``--skill rel``, same topic) opens the other entry's
    file and replaces it. On Linux the store writes two files whose names differ only in case, so
    the same workspace synced to a Mac loses one. Guarantee (issue 10, formats.md "T2 file
    names"): the name-to-file mapping is injective; refuse such a name or encode it."""
    _init(run_script)
    if door == "learn":
        runs = [("memory", "learn", "tea", "--text", "green"), ("memory", "learn", "Tea", "--text", "black")]
        folder = ws / "memory/knowledge"
    else:
        runs = [("memory", "remember", "--skill", "rel", "--topic", "crew", "--text", "one"),
                ("memory", "remember", "--skill", "Rel", "--topic", "crew", "--text", "two")]
        folder = ws / "memory/tier2-internal"
    assert run_script(*runs[0], env=NOW).code == 0
    run_script(*runs[1], env=NOW)
    names = [p.name.casefold() for p in folder.iterdir()]
    assert len(names) == len(set(names)), sorted(p.name for p in folder.iterdir())


def test_unquarantine_never_writes_a_name_holding_a_finding(ws, run_script, t2_key):
    """Cleanup quarantines a T2 entry because its topic is an e-mail address;
    ``unquarantine ID --approved`` puts it back under the same file name and marks it approved,
    and every later cleanup keeps it ("approved by the user"): the address now sits in a file
    name, frontmatter, listings and backup manifests for good. Guarantee (gate.md rule 0): a name
    with any finding is refused whatever the flags; the user's approval of the content cannot
    reach it."""
    _init(run_script)
    _plant_t2(ws, "crm", EMAIL, "ring about the contract")
    assert json.loads(run_script("cleanup", "--json", env=NOW).out)["quarantined"] == 1
    run_script("memory", "unquarantine", tiers.t2_id("crm", EMAIL), "--approved", env=NOW)
    run_script("cleanup", env=LATER)
    assert [p for p in _files_holding(ws / "memory", EMAIL) if not p.startswith(".quarantine/")] == []


def test_an_approval_written_by_hand_into_a_plain_t2_file_is_not_trusted(ws, run_script, t2_key):
    """The upkeep seals T2 files an agent wrote in plain text (README, "Hooks"). A plain file that
    simply says ``approved: "2026-11-25"`` in its frontmatter, holding someone's e-mail address, is
    sealed and then kept by cleanup "approved by the user"; without that line it is quarantined.
    Nobody ran ``remember --approved``: the approval is forged by whoever writes the file.
    Guarantee (tiers.md): an entry is approved when ``remember --approved`` or ``unquarantine``
    wrote the mark; anything else with a possible finding is quarantined."""
    _init(run_script)
    (ws / "memory/tier2-internal/crm_alice.md").write_text(
        "---\ntier: internal\nsource_skill: crm\ntopic: alice\ncreated: 2026-11-25\nexpires: 2026-12-25\n"
        f"scheme: plain\napproved: \"2026-11-25\"\n---\n\nAlice private mail {EMAIL} never share\n",
        encoding="utf-8")
    r = run_script("maintain", "--workspace", ws, env=NOW)
    assert r.code == 0, r.err
    assert not (ws / "memory/tier2-internal/crm_alice.md").exists()
    assert len(list((ws / "memory/.quarantine").glob("t-*.md"))) == 1
