"""Attack round 10 (issue 10): a fresh trust attacker (tatk10) against main at 8bb8730.

Each test plays one attack (or careless use) that still gets through, against the real scripts
in a temporary workspace; it asserts the promised behaviour and is marked xfail (strict) until
fixed. Secret-shaped values are built at run time (tests/test_layout.py refuses literals).

Found (tests here):

- The gate audit log keys its content hash on ``memory/.state/audit-salt``, which lies next to it
  in the workspace: anyone holding the workspace confirms a guessed value (10,000 phone numbers in
  2 s) for a value that was refused and never stored, and for a value stored and then forgotten
  (``forget`` says "0 log record(s)" and leaves the store and delete records), and for the plain
  text of a T2 entry sealed with aes-gcm (no key needed). The approval record moved to a secret
  outside the workspace in round 4; the audit log did not.
- ``forget`` of an *archived* entry (a knowledge entry or daily section ``prune`` moved, a T2 entry
  cleanup archived when it expired) leaves its name behind: the key, topic or T2 file name stays in
  the backups' ``entries.jsonl``/``after.json``/``manifest.json`` and in plain backup copies of
  ``knowledge-index.md``/``daily-index.md``; the same forget of a live entry leaves nothing.
- A second well-formed key (``MEMORY_MANAGER_KEY`` set to another machine's key): ``remember`` seals
  new entries with it beside the key file's entries (a split store, where round 8 stops on a
  *missing* key), and ``remember --approved`` on a topic it cannot decrypt replaces the approved
  entry without history (its text survives only as a sealed backup copy, subject to retention).
- Detector gaps that every door shares (text, names, T1 public file names, recall's mask): a
  mobile number glued to a Latin word (``mom13812345678``, ``phone13812345678``, full-width); a
  labelled SSN or passport number in JSON quotes, brackets or after a dash; a 10-digit phone
  number with no separators even after "my phone is"; a provider token (GitHub, AWS, Slack) with
  one letter, digit or ``_`` glued in front (certain without it, nothing with it: stored with no
  flag, printed whole by recall); twelve recovery words a line below "seed phrase:" or after
  "wallet:"/"seed:"; health facts outside the vocabulary (abortion, 堕胎, HRT, chlamydia,
  self-harm, overdose, infertile, colostomy).
- Recall masks line by line: a token wrapped over two lines of an OpenClaw note shows its second
  half (the audit, which reads lines joined, finds it).

Tried and held (plain tests here for the first two): data folders (daily, knowledge,
tier1-public, tier2-internal) linked out, 4 verbs each; forget of a daily section shown in the
cached report and an ``--html`` report (both removed); a secret as the QUERY/REF of recall, show,
used, forget, unarchive, unquarantine, edit (5 values, nothing written); file links out in
tier1/tier2/daily and an OpenClaw note through stats, remember, write, export, import, audit,
show, cleanup, reseal; ``crypt.py encrypt/decrypt --file`` on a knowledge file, MEMORY.md, an
outside file, a ``..`` path; an imported T2 file whose name and frontmatter differ, a knowledge
import whose frontmatter repeats another entry's id; nested dicts/lists in every daily and
knowledge import field; heading/frontmatter injection through line breaks; ``keygen --force``
over aes-gcm entries; xor-b64 approved entries through ``reseal`` + cleanup (kept, backups
sealed); cleanup under a wrong key (left alone); month-named topics and ``_`` collisions (3);
unarchive and unquarantine onto a live entry of the same id (refused); re-``init`` in another
language (lessons kept); backup copies of daily, knowledge and MEMORY.md with approved numbers
(sealed); the recall index after forget (deleted) and after ``recall --approved`` (no T2 text);
modes under umask 000 through 15 commands and the hooks; session labels of 12 chat-key shapes
(keyed outside the workspace); maintain.log naming a plain T2 file (scrubbed by the purge).
Not filed: ``alice@example.com`` as a skill/key (a reserved documentation domain, ignored by
design); a BIP-39 test vector with repeated words (the uniqueness check; rare in real phrases).
Round 6 judged "the gate log keeps keyed hashes only" as held: its key lies in the workspace.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from .trust_r4_common import NOW, PHONE, TOKEN, _files_holding, _init

LATER = {"MEMORY_MANAGER_NOW": "2027-06-01T12:00:00+00:00"}


def _audit_hashes(ws: Path) -> set[str]:
    log = ws / "memory/.state/gate-audit.jsonl"
    return {json.loads(line)["hash"] for line in log.read_text(encoding="utf-8").splitlines() if line.strip()}


def _confirms(ws: Path, guesses: list[str]) -> list[str]:
    """The guesses the audit log confirms with nothing but the workspace's own files."""
    import hmac

    # tfix10: the fix stops making the salt for the log (v2 hashes are keyed outside the
    # workspace); a workspace without it confirms nothing with it, and an unkeyed hash of the
    # guess (whole or cut to 32 digits) would confirm it too, so that is checked as well.
    salt_file = ws / "memory/.state/audit-salt"
    salt = salt_file.read_bytes() if salt_file.exists() else None
    hashes = _audit_hashes(ws)
    out = []
    for guess in guesses:
        digest = hashlib.sha256(guess.encode("utf-8")).hexdigest()
        seen = {digest, digest[:32]}
        if salt is not None:
            seen.add(hmac.new(salt, digest.encode("ascii"), hashlib.sha256).hexdigest()[:32])
        if seen & hashes:
            out.append(guess)
    return out


# ------------------------------------------------------------ the audit log's hash is keyed inside the workspace


def test_a_refused_number_cannot_be_confirmed_from_the_audit_log(ws, run_script):
    """``learn contact --text <phone>`` is refused (asks); nothing is stored, yet the audit log keeps
    HMAC(audit-salt, sha256("contact\\n<phone>\\n")) and the salt lies beside it."""
    _init(run_script)
    assert run_script("memory", "learn", "contact", "--text", PHONE, env=NOW).code == 1
    guesses = [f"contact\n{PHONE[:-4]}{n:04d}\n" for n in range(10000)]
    assert _confirms(ws, guesses) == []


def test_a_forgotten_number_cannot_be_confirmed_from_the_audit_log(ws, run_script):
    _init(run_script)
    assert run_script("memory", "learn", "contact", "--text", PHONE, "--approved", env=NOW).code == 0
    r = run_script("memory", "forget", "contact", "--approved", env=NOW)
    assert r.code == 0, r.err
    guesses = [f"contact\n{PHONE[:-4]}{n:04d}\n" for n in range(10000)]
    assert _confirms(ws, guesses) == []


def test_a_sealed_t2_text_cannot_be_confirmed_without_the_key(ws, run_script):
    """The body is sealed with aes-gcm; the store record (and the reuse record of ``show --approved``)
    keeps the keyed hash of ``skill\ntopic\ntext`` and the plain text of ``show``, keyed with the salt
    beside it: a short T2 fact is read back by guessing, with no key."""
    from memory_manager import tiers

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "door", "--text",
                      "the spare key sits under pot 7", env=NOW).code == 0
    assert run_script("memory", "show", tiers.t2_id("ops", "door"), "--approved", env=NOW).code == 0
    guesses = [f"ops\ndoor\nthe spare key sits under pot {n}" for n in range(10)]
    guesses += [f"the spare key sits under pot {n}" for n in range(10)]
    assert _confirms(ws, guesses) == []


# ------------------------------------------------------------ forget of an archived entry leaves its name


def test_forget_of_a_pruned_knowledge_entry_leaves_its_key_nowhere(ws, run_script):
    _init(run_script)
    made = run_script("memory", "learn", "wombatkey", "--text", "wombat body text unused", "--json", env=NOW)
    assert made.code == 0, made.err
    ident = json.loads(made.out)["id"]
    assert run_script("memory", "learn", "keepme", "--text", "kept", env=NOW).code == 0
    assert run_script("memory", "prune", env=LATER).code == 0
    assert list((ws / "memory/archive").rglob("knowledge-wombatkey.md"))
    r = run_script("memory", "forget", ident, "--approved", env=LATER)
    assert r.code == 0, r.err
    assert _files_holding(ws, "wombatkey") == []


def test_forget_of_a_pruned_daily_section_leaves_its_topic_nowhere(ws, run_script):
    _init(run_script)
    made = run_script("memory", "write", "--topic", "ibexdailytopic", "--cause", "ibex cause", "--json", env=NOW)
    assert made.code == 0, made.err
    ident = re.search(r"d-\d{8}-[0-9a-f]{8}", made.out).group(0)
    assert run_script("memory", "write", "--topic", "other", "--cause", "x y", env=NOW).code == 0
    assert run_script("memory", "prune", env=LATER).code == 0
    r = run_script("memory", "forget", ident, "--approved", env=LATER)
    assert r.code == 0, r.err
    assert _files_holding(ws, "ibexdailytopic") == []


def test_forget_of_a_cleanup_archived_t2_entry_leaves_its_topic_nowhere(ws, run_script):
    from memory_manager import tiers

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "zebratopic", "--text",
                      "rotate the staging certs monthly", env=NOW).code == 0
    assert run_script("cleanup", env=LATER).code == 0
    assert list((ws / "memory/archive").rglob("ops_zebratopic.md"))
    r = run_script("memory", "forget", tiers.t2_id("ops", "zebratopic"), "--approved", env=LATER)
    assert r.code == 0, r.err
    assert _files_holding(ws, "zebratopic") == []


# ------------------------------------------------------------ a mobile number glued to a Latin word

CN_PHONE = "138" + "1234" + "5678"


@pytest.mark.parametrize("value", ["mom" + CN_PHONE, "phone" + CN_PHONE, "ｍｏｍ" + "１３８１２３４" + "５６７８"],
                         ids=["mom", "phone", "fullwidth"])
@pytest.mark.parametrize("door", ["write", "learn_key", "stats_record", "remember_topic"])
def test_a_mobile_number_glued_to_a_word_is_not_stored(ws, run_script, door, value):
    """``电话１３８…`` and ``tel:138…`` are found (a CJK word or a colon is a boundary); the same
    digits right after Latin letters are not, so ``stats record --skill mom<number>`` names a public
    T1 file after the user's mother's mobile, and ``write --cause`` stores it for recall to print."""
    _init(run_script)
    args = {"write": ("write", "--topic", "family", "--cause", f"call {value} tonight"),
            "learn_key": ("learn", value, "--text", "family contact"),
            "stats_record": ("stats", "record", "--skill", value, "--ok"),
            "remember_topic": ("remember", "--skill", "family", "--topic", value, "--text", "x")}[door]
    r = run_script("memory", *args, env=NOW)
    assert r.code != 0, r.out
    import unicodedata

    assert all(CN_PHONE not in unicodedata.normalize("NFKC", str(p.relative_to(ws))) and
               CN_PHONE not in unicodedata.normalize("NFKC", p.read_bytes().decode("utf-8", "replace"))
               for p in ws.rglob("*") if p.is_file())


# ------------------------------------------------------------ a labelled id number in quotes or brackets

SSN_DIGITS = "536" + "90" + "4399"
PASSPORT = "E" + "1234" + "5678"


@pytest.mark.parametrize("text", [
    '{"ssn": "' + SSN_DIGITS + '"}',
    'employee ssn (' + SSN_DIGITS + ') on file',
    "ssn - " + SSN_DIGITS,
    '{"passport": "' + PASSPORT + '"}',
], ids=["json-ssn", "bracket-ssn", "dash-ssn", "json-passport"])
def test_a_labelled_id_number_in_quotes_or_brackets_is_refused(ws, run_script, text):
    """``ssn: <9 digits>``, ``ssn#<digits>`` and ``passport: <id>`` are certain findings (refused
    whatever the flags); the same label and value as a JSON field, or with the value in brackets,
    are stored by ``learn`` with no flag at all, and recall prints them."""
    _init(run_script)
    r = run_script("memory", "learn", "hrnote", "--text", text, env=NOW)
    assert r.code == 1, r.out
    assert not (ws / "memory/knowledge/hrnote.md").exists()


@pytest.mark.parametrize("text", ["my phone is " + PHONE.replace("-", ""), "wife" + PHONE.replace("-", "")],
                         ids=["labelled", "glued"])
def test_an_unformatted_phone_number_after_its_label_asks(ws, run_script, text):
    """``my phone is 415-555-0132`` asks for approval; written without separators (as a phone's
    contact card copies it) the same number is stored without a word."""
    _init(run_script)
    r = run_script("memory", "learn", "contact", "--text", text, env=NOW)
    assert r.code == 1, r.out


# ------------------------------------------------------------ a second valid key

#: Another well-formed AES key (32 bytes, Base64): a second machine's, or one pasted by mistake.
OTHER_KEY = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8="


def test_remember_with_a_key_that_opens_no_existing_entry_is_refused(ws, run_script):
    """Round 8 stops ``remember`` when the key of existing aes-gcm entries is missing; a different
    key of the right shape is used without a word: the new entry opens only with it, the old ones
    only with the key file."""
    from memory_manager import tiers

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "first", "--text", "under the key file",
                      env=NOW).code == 0
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "second", "--text", "under another key",
                   env={**NOW, "MEMORY_MANAGER_KEY": OTHER_KEY})
    assert r.code == 1, r.out
    assert not tiers.t2_path(ws, "ops", "second").exists()


def test_an_approved_entry_is_not_replaced_by_a_write_that_cannot_read_it(ws, run_script):
    from memory_manager import tiers

    _init(run_script)
    ident = tiers.t2_id("ops", "release")
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "release", "--text", "approved fact ONE",
                      "--approved", env=NOW).code == 0
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "release", "--text", "second text",
                   "--approved", env={**NOW, "MEMORY_MANAGER_KEY": OTHER_KEY})
    assert r.code == 1, r.out
    shown = run_script("memory", "show", ident, "--approved", env=NOW)
    assert "approved fact ONE" in shown.out, shown.err


# ------------------------------------------------------------ a token with one character glued in front

AWS_KEY_ID = "AK" + "IA" + "QWERTYUIOPASDFGH"
SLACK = "xo" + "xb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"


@pytest.mark.parametrize("token", [TOKEN, AWS_KEY_ID, SLACK], ids=["github", "aws", "slack"])
@pytest.mark.parametrize("glue", ["x", "_", "1"])
def test_a_token_with_a_character_glued_in_front_is_refused(ws, run_script, token, glue):
    """``use <token> later`` is refused (certain) and so is ``use -<token> later``; one word
    character before the token hides it from every rule: ``learn`` stores it without approval and
    recall prints all of it."""
    _init(run_script)
    r = run_script("memory", "learn", "ci", "--text", f"use {glue}{token} later", env=NOW)
    assert r.code == 1, r.out
    assert _files_holding(ws, token) == []
    recalled = run_script("memory", "recall", "use later", env=NOW)
    assert token not in recalled.out


def test_recall_masks_a_token_wrapped_over_two_lines_of_a_note(ws, run_script):
    """The privacy audit finds the wrapped token (it reads the lines joined) and the gate refuses
    such a block; recall masks the first line's half only, so 21 of the token's 41 characters show."""
    _init(run_script)
    (ws / "memory/2026-11-28.md").write_text(
        f"# 2026-11-28\n\n## deploy\n- qqmark ci token {TOKEN[:20]}\n  {TOKEN[20:]}\n", encoding="utf-8")
    r = run_script("memory", "recall", "qqmark", env=NOW)
    assert r.code == 0, r.err
    assert "qqmark" in r.out
    assert TOKEN[20:] not in r.out and TOKEN[:20] not in r.out


# ------------------------------------------------------------ health facts the vocabulary misses


@pytest.mark.parametrize("text", [
    "user had an abortion last year", "用户堕胎过一次", "user is on HRT since spring", "user has chlamydia",
    "user self-harms when stressed", "user overdosed last year", "user is infertile", "user has a colostomy bag",
], ids=["abortion", "zh-abortion", "hrt", "chlamydia", "self-harm", "overdose", "infertile", "colostomy"])
def test_a_health_fact_the_vocabulary_misses_asks_for_approval(ws, run_script, text):
    """``user had a miscarriage``, ``用户流产过``, ``user has herpes``, ``attempted suicide`` and
    ``用户有自残行为`` ask for approval (health, sensitive topic); these neighbours of theirs are
    stored without a word and loaded by the bootstrap note like any daily line."""
    _init(run_script)
    r = run_script("memory", "write", "--topic", "notes", "--cause", text, env=NOW)
    assert r.code == 1, r.out


# ------------------------------------------------------------ a wallet's recovery words

#: Twelve BIP-39 words (a wallet's recovery phrase), built at run time.
WORDS = " ".join(["ozone", "drill", "grab", "fiber", "curtain", "grace", "pudding", "thank", "cruise", "elder",
                  "eight", "picnic"])


@pytest.mark.parametrize("text", ["seed phrase:\n" + WORDS, "wallet: " + WORDS, "seed: " + WORDS,
                                  "my wallet words are " + WORDS],
                         ids=["next-line", "wallet", "seed", "wallet-words"])
def test_a_recovery_phrase_is_refused_whatever_its_label(ws, run_script, text):
    """``seed phrase: <12 words>`` and ``my 12 words: <12 words>`` are refused (certain: whoever reads
    them owns the wallet); the same words a line below their label, or after ``wallet:``, are stored
    by ``learn`` without a flag and printed whole by recall."""
    _init(run_script)
    r = run_script("memory", "learn", "wallet", "--text", text, env=NOW)
    assert r.code == 1, r.out
    assert _files_holding(ws, "pudding thank cruise") == []


# ------------------------------------------------------------ held (kept as plain tests)


@pytest.mark.parametrize("folder", ["daily", "knowledge", "tier1-public", "tier2-internal"])
def test_a_data_folder_linked_outside_stops_every_write(ws, run_script, tmp_path, folder):
    """Held: the data folders (not only the private ones round 4 listed) planted as a link out."""
    import shutil

    _init(run_script)
    out = tmp_path / "outside"
    out.mkdir()
    shutil.rmtree(ws / "memory" / folder)
    (ws / "memory" / folder).symlink_to(out, target_is_directory=True)
    for args in (("write", "--topic", "t", "--cause", "c"), ("learn", "k", "--text", "x"),
                 ("stats", "record", "--skill", "s", "--ok"), ("remember", "--skill", "s", "--topic", "t", "--text", "x")):
        r = run_script("memory", *args, env=NOW)
        assert r.code == 2, (args, r.out, r.err)
    assert list(out.iterdir()) == []


def test_forget_of_a_daily_section_removes_the_reports_that_showed_it(ws, run_script, tmp_path):
    """Held: the cached report and a report the user named with ``--html`` both go with the section."""
    _init(run_script)
    made = run_script("memory", "write", "--topic", "fam", "--cause", "zzuniqword call mom", "--json", env=NOW)
    assert made.code == 0, made.err
    ident = re.search(r"d-\d{8}-[0-9a-f]{8}", made.out).group(0)
    assert run_script("memory", "report", env=NOW).code == 0
    page = tmp_path / "pages" / "r.html"
    page.parent.mkdir()
    assert run_script("memory", "report", "--html", str(page), env=NOW).code == 0
    assert "zzuniqword" in page.read_text(encoding="utf-8")
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert not page.exists()
    assert _files_holding(ws, "zzuniqword") == []
