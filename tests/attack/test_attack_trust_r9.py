"""Attack round 9 (issue 10): a fresh trust attacker (tatk9) against main at 866383f.

Each test plays one attack (or careless use) that still gets through, against the real scripts
in a temporary workspace; it asserts the promised behaviour and is marked xfail (strict) until
fixed. Secret-shaped values are built at run time (tests/test_layout.py refuses literals).

Found (tests here):

- Round 8's joined reading stops at the item. A number split between two ``write`` calls that
  merge into one daily section, between two items of an export with the same date and topic,
  or between an existing section and an imported item, is stored without a word (the stored
  section is exactly the shape round 8 holds inside one item), and the privacy audit calls the
  workspace clean. A certain token completed by a second ``write --approved`` (its half reads as
  a *possible* random string) lands whole in a section, and so does a password written under its
  label (``staging db password:`` / ``数据库口令：``) by a second ``write`` with no flag at all:
  certain findings are refused whatever the flags; recall prints the password. ``learn``,
  ``remember`` and ``edit --approved`` store a password a blank line below its label (one call,
  or a second ``learn`` appending the value), text that ``event`` and ``write`` refuse as certain.
- ``import --from-openclaw``: a number split by a blank line (a heading and the paragraph under
  it, two list items with a blank line between them) is imported; the copy on disk holds the
  two halves as consecutive lines of one section. The same section carried as an archived daily
  file (``archive`` in an export; recall searches the archive) is imported whole.
- ``report --html``: each part of the path is read on its own, so a phone number or an SSN cut
  by a ``/`` (``mom mobile 138-1234/5678.html``) is accepted, written as folder and file name,
  and recorded in ``memory/.state/reports.json``.
- An imported xor-b64 T2 entry whose *ciphertext text* spells a secret (an AWS key id, a card
  number: all Base64 characters) is stored: the quote lines that hold the ciphertext are left
  out of the gate and only the decoded bytes (Latin-1 noise) are read. The privacy audit calls
  the workspace clean while the file holds the key id in clear.
- A phone number in a YAML comment of an imported T2 file's frontmatter (``topic: prefs  #
  landlord <phone>``) is read as content: held, then stored on ``--allow``, in the plain
  frontmatter beside the sealed body, where the same words as a value are refused whatever the
  flags (gate rule 0).
- An archived T2 file in an import whose ``tier``/``format`` values are quoted in YAML
  (``tier: "internal"``) is not recognised as T2 (a regular expression on the first 400
  characters) and is gated as raw text: its xor-b64 body is never decoded, so a GitHub token
  sealed with the key anyone can derive is stored under ``memory/archive/``; the audit (which
  does not read archived T2 entries) says clean.
- Strict scanning (a health word on a line about the user counts even beside a technical word)
  is skipped by ``import``: a T1 pattern trigger ``my HIV diagnosis reminder`` (refused by
  ``stats pattern``: T1 is public) and a lesson with the same words (asked by ``lesson``:
  MEMORY.md is loaded into every session) are stored on ``--approved``.
- The same exemption reaches names (gate rule 0: a name is refused on *any* finding, topics
  included): ``hiv-clinic-reminder``, ``my-diabetes-reminder``, ``my-pregnancy-test-reminder``
  as a ``learn`` key, a ``remember --topic`` (a T2 file name in clear beside the encrypted body),
  an ``event --skill``, ``learn --tags`` and a ``report --html`` file name (recorded in
  ``reports.json``) are stored, while ``stats record --skill`` refuses
  the ``my-`` ones (``hiv-test``, ``my-depression-notes`` and the Chinese forms are refused);
  ``hiv-clinic-reminder`` (no ``my``) even names a public T1 file through ``stats record``.
- A *possible* secret (a random 36-character value, ``bare_random_line``) approved in ``write
  --cause/--change/--todo`` is stored as ``- Change: <value>``, which the rule no longer reads
  as bare: recall prints it whole (the same value through ``learn`` shows ``[secret]``) and the
  audit counts 0 approved items (clean), where it must say "kept with approval".
- Session keys (low): a segment of lower-case words is kept as structure unless it follows
  ``dm``/``group``/...: a cron job id (``cron:hiv-clinic-reminder``), a subagent label or a
  per-account id (``slack:alice-therapy:dm:...``) reaches ``memory/.state/context-usage.jsonl``
  as given.
- A health fact in a daily topic beside a technical word (``my HIV diagnosis reminder``) is
  stored without approval and is carried by the daily index into the bootstrap note, i.e. into
  every session's context, while ``lesson`` with the same words asks (strict scanning is kept
  for MEMORY.md, the other file loaded into every session).

Tried and held (no test here): ``report --html`` with a token split over two folders (its first
half is refused by itself), a percent-encoded token, an e-mail, a health word in English and
Chinese, a whole phone number in one part; ``export --out`` with a token or phone in the file
name (written where the user asked, recorded nowhere in the workspace or ~/.config); the default
key and the hash-secret through ``~/.config`` symlinked into the workspace (refused, approval
unbound) and a relative ``XDG_CONFIG_HOME`` run from inside the workspace (keygen refuses);
symlinks planted as ``hooks/``, ``hooks/<hook>``, ``.openclaw`` and ``.openclaw/extensions``
(init refuses, nothing written outside); modes under umask 000 of T2 files, ``crypt.py decrypt
--file`` output, ``export --out``, ``report --html``, backups; an approved phone in a daily topic
(masked in recall, status and the index); ``write --topic`` / ``learn --tags`` / ``lesson``
with a health fact (ask or refuse); a token half written first (refused as certain); a block
held for a joined number with ``--allow`` of that number only (the line holding an e-mail stays
held); a phone in an imported knowledge entry's frontmatter text, as a value or a YAML comment
(held); a number split over an imported knowledge body (held); residue after ``forget`` of a
daily section that was recalled, used, shown and reported (no topic, id hash, digits or file
hash left in the workspace or ~/.config); a cleanup purge of a T2 entry with a token after
status, recall, audit and report (no topic left); a quarantined entry and ``report --html``
(not shown, nothing to erase); ``forget`` deleting a forged ``reports.json`` path (only files
carrying the report marker are touched); keyless ``crypt.py decrypt --file`` (no plain copy in
backups); folders ``report --html`` creates under umask 000 (0700); the approval record after
forgetting a section whose stored form hides its finding (line removed).
"""
from __future__ import annotations

import base64
import json
import re
from datetime import date
from pathlib import Path

import pytest

from .trust_r4_common import NOW, PHONE, TOKEN, _init, _export

CN_PHONE = "138" + "1234" + "5678"
SSN = "536" + "-90-" + "4399"
#: An AWS access key id shape (certain), built at run time.
AWS_KEY_ID = "AK" + "IA" + "QWERTYUIOPASDFGH"
CARD = "4111" * 4


def _daily_text(ws: Path) -> str:
    folder = ws / "memory/daily"
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))) if folder.is_dir() else ""


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


# ------------------------------------------------------------ values split between items of one section


def test_a_number_split_between_two_writes_to_one_section_asks(ws, run_script):
    """The same two lines in one ``write`` ask for approval (round 8's rule); written one call
    after the other they merge into the same section and nothing asks."""
    _init(run_script)
    first = run_script("memory", "write", "--topic", "lease", "--cause", f"landlord's mobile: {CN_PHONE[:3]}-{CN_PHONE[3:7]}-",
                       env=NOW)
    assert first.code == 0, first.err
    second = run_script("memory", "write", "--topic", "lease", "--cause", f"{CN_PHONE[7:]} call after six", env=NOW)
    assert second.code == 1, second.out
    assert "phone" in second.err
    assert CN_PHONE not in _digits(_daily_text(ws))



def test_a_token_completed_by_an_approved_second_write_is_refused(ws, run_script):
    """``write --change 'ci token ghp'`` holds nothing; the rest of the token alone reads as a
    *possible* random string, so ``--approved`` stores it, right under the first half: the
    section now holds a GitHub token (certain: refused whatever the flags)."""
    _init(run_script)
    assert run_script("memory", "write", "--topic", "deploy", "--change", f"ci token {TOKEN[:3]}", env=NOW).code == 0
    rest = run_script("memory", "write", "--topic", "deploy", "--change", TOKEN[3:], "--approved", env=NOW)
    assert rest.code == 1, rest.out
    text = _daily_text(ws)
    assert TOKEN[3:] not in text



@pytest.mark.parametrize("label", ["staging db password:", "数据库口令："], ids=["en", "zh"])
def test_a_password_written_under_its_label_by_a_second_write_is_refused(ws, run_script, label):
    """``write --change 'staging db password:' --change <value>`` is refused whatever the flags
    (a value after an explicit password word: certain). Written one call after the other, with
    no flag at all, both lines merge into the section; recall prints the password and the audit
    calls the workspace clean."""
    _init(run_script)
    value = "Tq7" + "-harbor-" + "Lumen"
    assert run_script("memory", "write", "--topic", "db", "--change", label, "--change", value, env=NOW).code == 1
    assert run_script("memory", "write", "--topic", "db", "--change", label, env=NOW).code == 0
    second = run_script("memory", "write", "--topic", "db", "--change", value, env=NOW)
    assert second.code == 1, second.out
    assert value not in _daily_text(ws)



@pytest.mark.parametrize("door", ["learn", "remember", "edit"])
def test_a_password_a_blank_line_below_its_label_is_refused(ws, run_script, door):
    """``event skill_error`` and ``write --change`` refuse ``'staging db password:\\n\\n<value>'``
    (certain); ``learn``, ``remember`` (T2: certain findings are refused there too) and ``edit
    --approved`` store the very same text; two ``learn`` calls (the second appends a paragraph)
    give the same body."""
    _init(run_script)
    text = "staging db password:\n\n" + "Tq7" + "-harbor-" + "Lumen"
    assert run_script("memory", "event", "skill_error", "--skill", "deploy", "--text", text, env=NOW).code == 1
    assert run_script("memory", "write", "--topic", "db", "--change", text, env=NOW).code == 1
    if door == "learn":
        r = run_script("memory", "learn", "db", "--text", text, env=NOW)
    elif door == "remember":
        r = run_script("memory", "remember", "--skill", "ops", "--topic", "db", "--text", text, env=NOW)
    else:
        made = run_script("memory", "learn", "db", "--text", "hello", "--json", env=NOW)
        r = run_script("memory", "edit", json.loads(made.out)["id"], "--text", text, "--approved", env=NOW)
    assert r.code == 1, r.out



def test_a_number_split_between_two_imported_items_of_one_section_is_held(ws, run_script, tmp_path):
    _init(run_script)
    export = _export(tmp_path, daily=[
        {"date": "2026-11-20", "topic": "lease", "cause": [f"landlord's mobile: {CN_PHONE[:3]}-{CN_PHONE[3:7]}-"]},
        {"date": "2026-11-20", "topic": "lease", "cause": [f"{CN_PHONE[7:]} call after six"]},
    ])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    assert any(h["category"] == "phone" for h in json.loads(r.out)["held"])
    assert CN_PHONE not in _digits(_daily_text(ws))



def test_an_imported_line_that_completes_a_number_in_an_existing_section_is_held(ws, run_script, tmp_path):
    _init(run_script)
    made = run_script("memory", "write", "--topic", "lease", "--date", "2026-11-20", "--cause",
                      f"landlord's mobile: {CN_PHONE[:3]}-{CN_PHONE[3:7]}-", env=NOW)
    assert made.code == 0, made.err
    export = _export(tmp_path, daily=[{"date": "2026-11-20", "topic": "lease", "cause": [f"{CN_PHONE[7:]} call after six"]}])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    assert CN_PHONE not in _digits(_daily_text(ws))



@pytest.mark.parametrize("note", [
    "# Landlord mobile {a}-{b}-\n\n{c} texts only, after six.\n",
    "# Landlord\n\n- mobile {a}-{b}-\n\n- {c} texts only, after six.\n",
], ids=["heading-and-paragraph", "two-list-items"])
def test_a_number_split_by_a_blank_line_in_an_openclaw_note_is_held(ws, run_script, note):
    """Round 8 reads each run of non-blank lines as a block; the import writes the runs as
    consecutive lines of one section, where the number is whole again."""
    _init(run_script)
    (ws / "memory/2026-11-20-landlord.md").write_text(
        note.format(a=CN_PHONE[:3], b=CN_PHONE[3:7], c=CN_PHONE[7:]), encoding="utf-8")
    r = run_script("memory", "import", "--from-openclaw", "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    assert any(h["category"] == "phone" for h in json.loads(r.out)["held"])
    assert CN_PHONE not in _digits(_daily_text(ws))



def test_a_number_split_over_the_lines_of_an_imported_archive_section_is_held(ws, run_script, tmp_path):
    """The same section round 8 holds as an export's daily item, carried as an archived daily
    file (``archive: [{"file": "2026-09/daily-2026-09.md", ...}]``), is imported on
    ``--approved``; recall searches the archive."""
    _init(run_script)
    text = (f"## [2026-09-20] lease\n<!-- id: d-20260920-51631409 -->\n"
            f"- Cause: landlord's mobile: {CN_PHONE[:3]}-{CN_PHONE[3:7]}-\n- Cause: {CN_PHONE[7:]} call after six\n")
    export = _export(tmp_path, archive=[{"file": "2026-09/daily-2026-09.md", "text": text}], lessons=[])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    assert any(h["category"] == "phone" for h in json.loads(r.out)["held"])
    assert not (ws / "memory/archive/2026-09/daily-2026-09.md").exists()


# ------------------------------------------------------------ report --html: a value cut by a slash


@pytest.mark.parametrize("parts", [
    ("mom mobile " + CN_PHONE[:3] + "-" + CN_PHONE[3:7], CN_PHONE[7:] + ".html"),
    ("call +1 " + PHONE[:7], PHONE[8:] + ".html"),
    ("ssn " + SSN[:6], SSN[7:] + ".html"),
], ids=["cn-phone", "nanp-phone", "ssn"])
def test_a_value_cut_by_a_slash_in_the_html_path_is_refused(ws, run_script, tmp_path, parts):
    _init(run_script)
    assert run_script("memory", "learn", "boat", "--text", "The dinghy needs new oarlocks.", env=NOW).code == 0
    out = tmp_path / "out" / parts[0] / parts[1]
    r = run_script("memory", "report", "--html", out, env=NOW)
    assert r.code == 2, r.out
    assert not out.exists()
    record = ws / "memory/.state/reports.json"
    assert not record.exists() or parts[1] not in record.read_text(encoding="utf-8")


# ------------------------------------------------------------ T2 import: the ciphertext text itself

def _t2_export_with_ciphertext(tmp_path, cipher: str) -> str:
    """An export whose one T2 entry is xor-b64 with exactly ``cipher`` as its quoted text."""
    from memory_manager import crypto, tiers

    skill, topic, month = "ops", "prefs", "2026-11"
    key = crypto.derive_xor_key(skill, month).encode("ascii")
    data = base64.b64decode(cipher)
    plain = bytes(b ^ key[i % len(key)] for i, b in enumerate(data)).decode("latin-1")
    sealed = crypto.xor_encrypt(plain, skill, month)
    assert sealed.ciphertext == cipher
    text = tiers.render_t2(skill, topic, sealed, date(2026, 11, 25), 30, month, "en")
    return _export(tmp_path, tier2=[{"file": tiers.t2_path(Path("."), skill, topic).name, "text": text}])


@pytest.mark.parametrize("value", [AWS_KEY_ID + "+abc", CARD + "+AAA"], ids=["aws-key-id", "card"])
def test_an_imported_ciphertext_that_spells_a_secret_is_refused(ws, run_script, tmp_path, value):
    """The quote lines of the ciphertext are what the file holds on disk; the gate reads only
    what they decode to (Latin-1 noise here), so the secret they spell is written as is."""
    _init(run_script, "--no-key")
    export = _t2_export_with_ciphertext(tmp_path, value)
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    target = ws / "memory/tier2-internal/ops_prefs.md"
    assert not target.exists() or value[:16] not in target.read_text(encoding="utf-8")


def test_a_value_in_a_yaml_comment_of_imported_t2_frontmatter_is_refused(ws, run_script, tmp_path):
    """``note: landlord <phone>`` in an imported T2 file's frontmatter is refused whatever the
    flags (gate rule 0: the frontmatter of a sealed entry stays plain beside it); the same words
    as a YAML comment (``topic: prefs  # landlord <phone>``) are read as content: held, then
    stored in that frontmatter on ``--allow ID``."""
    from memory_manager import crypto, tiers
    from memory_manager.config import load_config

    _init(run_script, "--no-key")
    skill, topic, month = "ops", "prefs", "2026-11"
    sealed = crypto.encrypt("short answers", skill, month, load_config(ws), "xor-b64", topic=topic,
                            entry_id=tiers.t2_id(skill, topic))
    text = tiers.render_t2(skill, topic, sealed, date(2026, 11, 25), 30, month, "en")
    as_value = _export(tmp_path, tier2=[{"file": "ops_prefs.md",
                                         "text": text.replace("topic: prefs\n", f"topic: prefs\nnote: landlord {PHONE}\n")}])
    refused = run_script("memory", "import", as_value, "--approved", "--json", env=NOW)
    assert refused.code == 1 and json.loads(refused.out)["refused"][0]["outcome"] == "refused"
    as_comment = _export(tmp_path, tier2=[{"file": "ops_prefs.md",
                                           "text": text.replace("topic: prefs\n", f"topic: prefs  # landlord {PHONE}\n")}])
    first = run_script("memory", "import", as_comment, "--approved", "--json", env=NOW)
    assert first.code == 1, first.out
    held = json.loads(first.out)["held"]
    if held:
        again = run_script("memory", "import", as_comment, "--approved", "--allow", held[0]["finding"], "--json",
                           env=NOW)
        assert again.code == 1, again.out
    stored = ws / "memory/tier2-internal/ops_prefs.md"
    assert not stored.exists() or PHONE not in stored.read_text(encoding="utf-8")



def test_an_imported_archive_t2_entry_with_quoted_frontmatter_is_read_decrypted(ws, run_script, tmp_path):
    """The import tells an archived T2 file by ``^tier:\\s*internal`` or ``^format:\\s*cmm-t2`` in its
    first 400 characters; with the same YAML values quoted (``tier: "internal"``) the file is
    gated as plain text, so its xor-b64 body (decodable by anyone, the file says how) is never
    decoded: a GitHub token inside is stored in ``memory/archive/``, and the audit says clean."""
    from memory_manager import crypto, tiers
    from memory_manager.config import load_config

    _init(run_script, "--no-key")
    skill, topic, month = "ops", "prefs", "2026-10"
    sealed = crypto.xor_encrypt(f"deploy token {TOKEN}", skill, month)
    text = tiers.render_t2(skill, topic, sealed, date(2026, 10, 5), 30, month, "en")
    text = text.replace("tier: internal", 'tier: "internal"').replace("format: cmm-t2", 'format: "cmm-t2"')
    export = _export(tmp_path, archive=[{"file": f"{month}/{skill}_{topic}.md", "text": text}], lessons=[])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    stored = ws / "memory/archive" / month / f"{skill}_{topic}.md"
    if stored.exists():
        plain = [tiers.decrypt_entry(e, load_config(ws)) for e in tiers.parse_t2(stored.read_text(encoding="utf-8"), stored)]
        assert not any(TOKEN in p for p in plain)


# ------------------------------------------------------------ a health fact in the bootstrap note

def test_a_health_fact_in_a_daily_topic_does_not_reach_the_bootstrap_note_unasked(ws, run_script):
    """``lesson 'my HIV diagnosis reminder'`` asks (MEMORY.md is loaded into every session and is
    scanned strictly); the same words as a daily topic store without asking, go into
    daily-index.md, and the bootstrap hook hands that line to the agent on every session."""
    _init(run_script)
    words = "my " + "HIV" + " diagnosis reminder"
    assert run_script("memory", "lesson", words, env=NOW).code == 1
    r = run_script("memory", "write", "--topic", words, "--todo", "book the follow-up", env=NOW)
    event = {"type": "agent", "action": "bootstrap", "sessionKey": "agent:main:main",
             "context": {"workspaceDir": str(ws), "bootstrapFiles": []}}
    hook = run_script("hook", input=json.dumps(event), env=NOW)
    assert hook.code == 0, hook.err
    assert r.code == 1 or "HIV" not in hook.out


# ------------------------------------------------------------ strict scanning skipped by import

HEALTH_LINE = "my " + "HIV" + " diagnosis reminder"



def test_an_imported_t1_trigger_with_a_health_fact_is_refused(ws, run_script, tmp_path):
    """``stats pattern --trigger 'my HIV diagnosis reminder'`` is refused (T1 is public, read
    strictly: gate rule 0 and 4); the same trigger in an imported T1 file is stored."""
    _init(run_script)
    assert run_script("memory", "stats", "pattern", "--trigger", HEALTH_LINE, "--skills", "a,b", env=NOW).code == 1
    data = {"format": "cmm-t1-stats", "version": 1, "skill_stats": {},
            "patterns_observed": [{"trigger": HEALTH_LINE, "skills_used": ["c", "d"], "count": 1,
                                   "last_seen": "2026-11-29"}]}
    export = _export(tmp_path, tier1=[{"file": "c_stats.json", "data": data}])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    stored = ws / "memory/tier1-public/c_stats.json"
    assert not stored.exists() or "HIV" not in stored.read_text(encoding="utf-8")



def test_an_imported_lesson_with_a_health_fact_is_held(ws, run_script, tmp_path):
    """``lesson 'my HIV diagnosis reminder: ...'`` asks (MEMORY.md is loaded into every session,
    so it is read strictly); an export's lesson with the same words goes into MEMORY.md on
    ``import --approved``, which approves only content with no finding."""
    _init(run_script)
    line = f"{HEALTH_LINE}: book the clinic"
    assert run_script("memory", "lesson", line, env=NOW).code == 1
    export = _export(tmp_path, archive=[], lessons=[{"section": "lesson", "line": f"- [2026-11-20] {line}"}])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    assert "HIV" not in (ws / "MEMORY.md").read_text(encoding="utf-8")


# ------------------------------------------------------------ a health word beside a technical word in a name


@pytest.mark.parametrize("door", ["learn-key", "remember-topic", "event-skill", "learn-tags", "report-html"])
@pytest.mark.parametrize("name", ["hiv" + "-clinic-reminder", "my-" + "diabetes" + "-reminder",
                                  "my-" + "pregnancy" + "-test-reminder"])
def test_a_health_fact_in_a_name_is_refused_beside_a_technical_word(ws, run_script, tmp_path, name, door):
    """Gate rule 0: a name is refused when the detector finds *anything* in it, a sensitive topic
    included (``stats record --skill`` refuses the ``my-`` names: T1 is read strictly). The
    content rule that lets "reminder" or "test" excuse a health word is applied to names too, so
    the name becomes a knowledge file, a T2 file name beside an encrypted body, or tags."""
    _init(run_script)
    args = {"learn-key": ("learn", name, "--text", "book the clinic"),
            "remember-topic": ("remember", "--skill", "ops", "--topic", name, "--text", "book the clinic"),
            "event-skill": ("event", "skill_complete", "--skill", name, "--text", "ok"),
            "learn-tags": ("learn", "clinic", "--text", "book the clinic", "--tags", name),
            "report-html": ("report", "--html", tmp_path / "out" / f"{name}.html")}[door]
    if name.startswith("my-"):
        assert run_script("memory", "stats", "record", "--skill", name, "--ok", env=NOW).code == 1
    r = run_script("memory", *args, env=NOW)
    assert r.code == (2 if door == "report-html" else 1), r.out
    stem = name.split("-")[1] if name.startswith("my-") else name.split("-")[0]
    word = re.compile(rf"(?<![a-z]){stem}(?![a-z])")  # 'hiv' as a word, not inside 'archive'
    held = [str(p.relative_to(ws)) for p in (ws / "memory").rglob("*")
            if word.search(p.name) or (p.is_file() and word.search(p.read_bytes().decode("utf-8", "replace")))]
    assert held == []



def test_a_health_fact_in_a_t1_skill_name_is_refused(ws, run_script):
    """T1 is public and read strictly, but only on a line about the user: ``hiv-clinic-reminder``
    (no ``my``) becomes ``memory/tier1-public/hiv-clinic-reminder_stats.json``."""
    _init(run_script)
    name = "hiv" + "-clinic-reminder"
    r = run_script("memory", "stats", "record", "--skill", name, "--ok", env=NOW)
    assert r.code == 1, r.out
    assert list((ws / "memory/tier1-public").glob("hiv*")) == []


# ------------------------------------------------------------ an approved secret the stored form hides


@pytest.mark.parametrize("option", ["--cause", "--change", "--todo"])
def test_an_approved_secret_in_a_daily_line_is_masked_and_audited(ws, run_script, option):
    """``write --change <random 36 characters>`` asks (possible secret: a bare random line); with
    ``--approved`` it is stored as ``- Change: <value>``, a line the same rule no longer reads as
    bare. Recall then prints the whole value (``learn --text`` with the same value shows
    ``[secret]``) and the privacy audit reports the workspace clean with 0 approved items, where
    it must list the value as kept with approval (tiers.md, "What --approved does")."""
    _init(run_script)
    value = TOKEN[4:]
    assert run_script("memory", "write", "--topic", "deploy", option, value, env=NOW).code == 1
    assert run_script("memory", "write", "--topic", "deploy", option, value, "--approved", env=NOW).code == 0
    hit = run_script("memory", "recall", "deploy", "--json", env=NOW)
    assert hit.code == 0, hit.err
    assert value[:5] not in hit.out
    audit = run_script("privacy_audit", "--json", env=NOW)
    assert json.loads(audit.out)["summary"]["approved"] >= 1


# ------------------------------------------------------------ session keys: ids that are plain words

@pytest.mark.parametrize("key", ["agent:main:cron:" + "hiv" + "-clinic-reminder",
                                 "agent:main:subagent:alice-chen-" + "therapy",
                                 "agent:main:slack:alice-" + "therapy" + ":dm:u123"],
                         ids=["cron-job", "subagent-label", "account-id"])
def test_plain_word_identifiers_in_a_session_key_are_hashed(ws, run_script, key):
    """The hooks write each session's key to ``memory/.state/context-usage.jsonl`` with its
    identifiers as keyed hashes (gate.md, "OpenClaw session keys are identifiers"); a segment of
    lower-case words is kept as structure unless it follows ``dm``/``group``/..., so a cron job
    id, a subagent label or a per-account id that names a person or a health fact is written
    as given."""
    _init(run_script)
    event = {"type": "message", "action": "sent", "sessionKey": key, "context": {"workspaceDir": str(ws)}}
    assert run_script("hook", input=json.dumps(event), env=NOW).code == 0
    usage = ws / "memory/.state/context-usage.jsonl"
    assert usage.exists()
    assert "therapy" not in usage.read_text(encoding="utf-8") and "hiv" not in usage.read_text(encoding="utf-8")
