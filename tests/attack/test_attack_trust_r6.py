"""Attack round 6 (issue 10): a fresh attacker against the current main, new variants only.

Each test plays one attack (or careless use) that still gets through on main, against the real
scripts in a temporary workspace; it asserts the promised behaviour and is marked xfail (strict)
until fixed. Secret-shaped values are built at run time (tests/test_layout.py refuses literals).

Kinds and variants tried (the gate probed in process with ``gate.evaluate("store", ...)`` on 86
forms, then the failing ones through ``memory.py learn --text`` / ``--tags`` and the privacy
audit):

- Encodings of a GitHub token not covered by round 5: hex separated by spaces or colons, ``0x``
  hex bytes, octal escapes (every byte, or just ``\\137`` for the underscore), UTF-16 hex,
  Base85/Ascii85, uuencode, ROT13, reversed, four Base64 layers, Base64 wrapped at 20 columns.
  Broke (tests here): separated hex (2), octal escapes. Not filed (beyond "trivially
  decodable" as the issue words it, or past the 3 documented layers): ROT13, reversed, Base85,
  uuencode, UTF-16 hex, four layers, ``0x`` bytes.
- Obfuscations of a token: Cyrillic confusables (one letter, or all), a right-to-left override
  around the reversed token, a combining accent, a combining grapheme joiner, a variation
  selector or a Unicode tag character inside it, the token split over two lines.
  Broke (tests here): confusables (2), combining accent, CGJ, variation selector, tag
  character, split over two lines. Held: LRM/RLM inside the token, full-width underscore,
  mathematical bold letters, ``\\x`` escapes, ``&#x..;`` entities, ``&lowbar;``, percent on every
  byte, upper-case hex, ``\\u``/``\\U`` on every character, Base64 of the hex form, URL-safe
  Base64.
- Phone numbers: U+2011 non-breaking hyphen and U+2212 minus as separators, number split over
  two lines. Broke: all three. Held: dots, parentheses, ``+1``, Arabic-Indic and Devanagari
  digits, superscript and circled digits, Base64, reversed.
- Health facts: a Cyrillic I in ``HIV`` broke; Cyrillic/combining/ZWJ inside ``diabetes``
  and the hex form held. An AWS key id with a Cyrillic A broke.
- Certain findings held: SSN, card (spaces, dots, full-width), PEM header, OpenAI, Slack, JWT,
  password in en/fr/zh, Chinese ID number.

- Names (``learn KEY``, ``write --topic``, ``remember --skill/--topic``, ``stats pattern
  --trigger``, ``lesson``): the look-alike token, the CGJ token and the U+2011/U+2212 phone broke
  in the first four (file names and headings); octal escapes are refused as names; ``--trigger``
  refused all of them.
- Skill names (``stats record --skill``: a Tier 1 file name; ``event --skill``: a knowledge file
  name): the look-alike token, the CGJ token, both typographic phone forms and ``HIV-clinic``
  with a Cyrillic I: ten broke (plain ``HIV-clinic`` is refused in both).
- Look-alike names: ``deploy`` then ``dep`` + CGJ + ``loy``, ``dep`` + VS16 + ``loy`` and a
  Cyrillic ``e``: three broke (a second file that prints as ``deploy.md``). Held: U+200B, U+00AD
  and a tag character (control characters), ``Deploy`` (case).
- Imports (``import FILE --approved``, a cmm-export v3 with one knowledge entry): the look-alike
  token as key, as a tag and in an extra frontmatter line, and the spaced-hex token in the body:
  all four broke. Lessons (MEMORY.md, loaded by the session hook): the look-alike token and the
  U+2011 number broke.
- Split across fields: a token cut in two between ``learn --text`` and ``--tags``, a daily
  note's 因 and 改, its topic and 因, two lines of ``remember --text``: four broke. Not filed:
  two consecutive lessons, a key plus a text (the key is lower-cased and hyphenated), a second
  ``learn`` or an ``edit`` appending the rest (refused).
- Restore (forged lines appended to a backup's entries.jsonl): ``existed: false`` for a file
  behind a symlinked folder in memory/, ``.``, ``''``, ``.memory-backup``, ``./memory/../MEMORY.md``
  refused; a case variant ``MEMORY.MD`` ignored; a file the tool never writes (``AGENTS.md``)
  deleted only with ``--force`` and undoable. All held.
- Held (no test): symlinks replacing memory/, memory/knowledge, daily, tier1-public,
  tier2-internal, archive, .cache, .state and .memory-backup (every verb exits 2, nothing written
  outside); umask 000 through init, keygen, learn, write, remember, lesson, stats, recall, export,
  cleanup, maintain, audit, doctor and forget (no file o+r, no folder o+w); an approval for a
  number reused by another key or a daily note, or stretched by ``edit`` to a second number
  (asks again); residue of an approved knowledge entry (tags, edit history, recall, report,
  audit) after ``forget --approved`` in the workspace, the state and config folders and /tmp (the
  gate log keeps keyed hashes only). Not filed: ``report --html FILE`` outside the workspace
  keeps the forgotten text (a file the user named; ``forget`` says ``report_deleted: false``).

Each ``learn`` above that stored its value also left the privacy audit reporting the workspace
clean (exit 0).
"""
from __future__ import annotations

import pytest

from .trust_r4_common import NOW, _init

OPEN = "trust round 6 finding, open (issue 10)"

#: A GitHub token (ghp_ + 36 characters), built at run time.
TOKEN = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8" + "Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
#: An AWS access key id, built at run time.
AWS_ID = "AKIA" + "IOSFODNN7EXAMPLQ"
#: A North American number (a possible finding: phone), built at run time.
PHONE = "415-555" + "-0132"

_CYRILLIC = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445",
             "k": "\u043a", "h": "\u04bb"}


def _token_forms() -> dict[str, str]:
    raw = TOKEN.encode()
    return {
        "hex-spaced": " ".join(f"{b:02x}" for b in raw),
        "hex-colons": ":".join(f"{b:02x}" for b in raw),
        "octal-escapes": "".join(f"\\{b:03o}" for b in raw),
        "confusable-h": TOKEN.replace("h", _CYRILLIC["h"]),
        "confusables-all": "".join(_CYRILLIC.get(c, c) for c in TOKEN),
        "combining-accent": TOKEN[:10] + "\u0301" + TOKEN[10:],
        "grapheme-joiner": TOKEN[:10] + "\u034f" + TOKEN[10:],
        "variation-selector": TOKEN[:10] + "\ufe0f" + TOKEN[10:],
        "tag-character": TOKEN[:10] + "\U000e0041" + TOKEN[10:],
        "split-two-lines": TOKEN[:20] + "\n" + TOKEN[20:],
        "aws-cyrillic-a": AWS_ID.replace("A", "\u0410"),
    }


@pytest.mark.parametrize("form", sorted(_token_forms()))
def test_an_obfuscated_token_is_refused_like_the_plain_one(ws, run_script, form):
    """A token pasted as separated hex (``67 68 70 5f ...``, a hex dump), octal escapes (a C or
    shell string), with look-alike Cyrillic letters, with an invisible combining mark, grapheme
    joiner, variation selector or tag character inside, or wrapped over two lines: ``learn --text``
    stores it without asking and the privacy audit calls the workspace clean, although the plain
    token (and its ``\\x``, ``\\u``, percent and Base64 forms) is refused. Guarantee (gate.md /
    tiers.md: Tier 3 is never stored, no flag overrides it; issue 10: content that is trivially
    decodable counts as what it decodes to; README "No side doors": a key pasted over several
    lines is judged as one block)."""
    _init(run_script)
    value = _token_forms()[form]
    r = run_script("memory", "learn", "ci", "--text", f"ci blob {value} end", env=NOW)
    assert r.code == 1, f"a token in form {form} was stored"
    assert not (ws / "memory/knowledge/ci.md").exists()


@pytest.mark.parametrize("form", ["confusable-h", "grapheme-joiner", "tag-character"])
def test_an_obfuscated_token_in_tags_is_refused(ws, run_script, form):
    """The same look-alike and invisible-character forms pass through ``learn --tags`` into the
    frontmatter of a knowledge file. Guarantee (issue 10: every field that reaches disk passes
    the gate; Tier 3 is never stored)."""
    _init(run_script)
    value = _token_forms()[form]
    r = run_script("memory", "learn", "ci", "--text", "ci notes", "--tags", value, env=NOW)
    assert r.code == 1, f"a token in form {form} was stored as a tag"
    assert not (ws / "memory/knowledge/ci.md").exists()


def _phone_forms() -> dict[str, str]:
    return {
        "non-breaking-hyphen": PHONE.replace("-", "\u2011"),
        "minus-sign": PHONE.replace("-", "\u2212"),
        "split-two-lines": PHONE[:7] + "\n" + PHONE[7:],
    }


@pytest.mark.parametrize("form", sorted(_phone_forms()))
def test_a_phone_number_with_typographic_separators_asks_for_approval(ws, run_script, form):
    """A number copied from a web page or a word processor comes with U+2011 (non-breaking
    hyphen) or U+2212 (minus) between its groups, or wrapped after the exchange: ``learn`` stores
    it without the approval the ASCII form asks for (the dotted, parenthesised, ``+1``,
    Arabic-Indic and circled-digit forms all ask). Guarantee (gate.md: a possible finding is not
    stored unless the user confirms it)."""
    _init(run_script)
    value = _phone_forms()[form]
    r = run_script("memory", "learn", "pager", "--text", f"oncall pager {value} nightly", env=NOW)
    assert r.code == 1, f"a phone number in form {form} was stored without approval"
    assert not (ws / "memory/knowledge/pager.md").exists()


def test_a_health_term_with_a_look_alike_letter_asks_for_approval(ws, run_script):
    """``H\\u0406V positive`` (a Cyrillic I, the same glyph) is stored by ``learn`` without
    approval, while ``HIV positive`` asks; the Cyrillic and combining forms of ``diabetes``
    already ask. Guarantee (gate.md: a health fact is a possible finding and needs approval)."""
    _init(run_script)
    r = run_script("memory", "learn", "status", "--text", "teammate is H\u0406V positive", env=NOW)
    assert r.code == 1, "a health fact with a look-alike letter was stored without approval"
    assert not (ws / "memory/knowledge/status.md").exists()


def _name_forms() -> dict[str, str]:
    return {
        "token-confusable": TOKEN.replace("h", _CYRILLIC["h"]),
        "token-grapheme-joiner": TOKEN[:10] + "\u034f" + TOKEN[10:],
        "phone-non-breaking-hyphen": PHONE.replace("-", "\u2011"),
        "phone-minus-sign": PHONE.replace("-", "\u2212"),
    }


@pytest.mark.parametrize("door", ["learn-key", "write-topic", "remember-topic", "remember-skill"])
@pytest.mark.parametrize("form", sorted(_name_forms()))
def test_an_obfuscated_token_or_number_in_a_name_is_refused(ws, run_script, door, form):
    """The forms above pass as names too: ``learn KEY``, ``write --topic``, ``remember --topic``
    (without ``--approved``: a daily topic is a label, judged like the text) and ``remember --skill``
    create ``memory/knowledge/g\\u04bbp_….md``,
    ``memory/tier2-internal/415\\u2011555\\u2011….md`` and the like, list them in the indexes and
    copy them into backup manifests, and the audit finds nothing. Guarantee (gate.py rule 0 /
    issue 10: a finding of any confidence in a name is refused whatever the flags; the audit scans
    file names)."""
    _init(run_script)
    value = _name_forms()[form]
    args = {
        "learn-key": ("learn", value, "--text", "plain steps", "--approved"),
        "write-topic": ("write", "--topic", value, "--cause", "plain cause"),
        "remember-topic": ("remember", "--skill", "ops", "--topic", value, "--text", "plain", "--approved"),
        "remember-skill": ("remember", "--skill", value, "--topic", "notes", "--text", "plain", "--approved"),
    }[door]
    r = run_script("memory", *args, env=NOW)
    assert r.code != 0, f"{door} stored a name in form {form}"
    names = [p.name for p in (ws / "memory").rglob("*")]
    assert not any(value in n for n in names), names


@pytest.mark.parametrize("look_alike", ["grapheme-joiner", "variation-selector", "cyrillic-e"])
def test_a_key_that_looks_like_an_existing_one_is_refused_like_a_case_variant(ws, run_script, look_alike):
    """``learn deploy`` then ``learn dep\\u034floy`` (an invisible combining grapheme joiner),
    ``dep\\ufe0floy`` (a variation selector) or ``d\\u0435ploy`` (a Cyrillic e): each creates a
    second knowledge file whose name prints exactly like ``deploy.md``, so a careless user (or a
    planted entry) shadows the real one in the index and in recall. ``Deploy`` is refused ("names
    that differ only in case are refused"), and so are U+200B and U+00AD ("contains a control
    character"), but these three are not. Guarantee (issue 10 / formats.md: one name, one file; a
    name that differs only in a way the user cannot see is refused like a case variant)."""
    _init(run_script)
    spoof = {"grapheme-joiner": "dep\u034floy", "variation-selector": "dep\ufe0floy",
             "cyrillic-e": "d\u0435ploy"}[look_alike]
    assert run_script("memory", "learn", "deploy", "--text", "real steps", env=NOW).code == 0
    r = run_script("memory", "learn", spoof, "--text", "spoofed steps", env=NOW)
    assert r.code == 2, f"a {look_alike} look-alike of an existing key was stored"
    assert sorted(p.name for p in (ws / "memory/knowledge").iterdir()) == ["deploy.md"]


def _export_with(key: str, body: str, tags: list[str], extra: str = "") -> dict:
    fm = {"format": "cmm-knowledge", "version": "1", "id": "k-0123456789", "key": key, "tags": tags,
          "created": "2026-11-20", "updated": "2026-11-20"}
    fm_text = "\n".join(f"{k}: {v}" for k, v in fm.items() if k != "tags") + f"\ntags: [{', '.join(tags)}]" + extra
    entry = {"id": fm["id"], "key": key, "tags": tags, "created": fm["created"], "updated": fm["updated"],
             "pinned": False, "body": body, "frontmatter": fm, "frontmatter_text": fm_text}
    return {"format": "cmm-export", "version": 3, "exported": "2026-11-28T10:00:00+00:00", "tool_version": "0.1.0",
            "daily": [], "knowledge": [entry], "tier1": [], "tier2": [], "archive": [], "lessons": []}


@pytest.mark.parametrize("field", ["key", "body", "tags", "frontmatter"])
def test_an_import_with_an_obfuscated_token_in_any_field_is_refused(ws, run_script, tmp_path, field):
    """``memory.py import FILE --approved`` of an export whose knowledge entry carries the token with a
    look-alike Cyrillic letter in its key, its tags or an extra frontmatter line, or as
    space-separated hex in its body: the entry is imported and the value reaches the file name,
    the frontmatter or the text. Guarantee (issue 10: every field of every import that reaches
    disk passes the gate; Tier 3 is never stored)."""
    import json

    _init(run_script)
    look = TOKEN.replace("h", _CYRILLIC["h"])
    hexed = " ".join(f"{b:02x}" for b in TOKEN.encode())
    doc = {
        "key": _export_with(look, "plain body", ["one"]),
        "body": _export_with("ci", f"blob {hexed}", ["one"]),
        "tags": _export_with("ci", "plain body", [look]),
        "frontmatter": _export_with("ci", "plain body", ["one"], extra=f"\nowner: {look}"),
    }[field]
    src = tmp_path / "in.json"
    src.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    r = run_script("memory", "import", src, "--approved", env=NOW)
    stored = "".join(p.name + p.read_text(encoding="utf-8", errors="replace")
                     for p in (ws / "memory/knowledge").glob("*.md"))
    assert look not in stored and TOKEN.encode().hex()[:40] not in stored.replace(" ", ""), field
    assert r.code != 0, f"an import with a token in its {field} reported success"


@pytest.mark.parametrize("form", ["token-confusable", "phone-non-breaking-hyphen"])
def test_a_lesson_with_an_obfuscated_token_or_number_is_refused(ws, run_script, form):
    """``memory.py lesson`` puts its line in MEMORY.md, which the session hook loads into every
    session; the look-alike token and the U+2011 number go in (exit 0). Guarantee (gate.md:
    lessons are judged strictly, a secret is never stored and a number asks for approval)."""
    _init(run_script)
    value = _name_forms()[form]
    r = run_script("memory", "lesson", f"always check {value} first", env=NOW)
    assert r.code == 1, f"a lesson with {form} was stored"
    assert value not in (ws / "MEMORY.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("door", ["learn-text-tags", "write-cause-change", "write-topic-cause", "remember-two-lines"])
def test_a_token_split_across_two_fields_is_judged_as_one_value(ws, run_script, door):
    """A token cut in two and given to two fields of one command: the end of ``learn --text`` and
    ``--tags``, a daily note's 因 and 改 lines, its ``--topic`` (the heading) and first 因 line, or
    two lines of ``remember --text``. Each half alone is harmless, the file holds both, one line
    apart, and the gate (which judges tags joined since round 5) lets it through. Guarantee
    (README "No side doors": a key pasted over several lines is judged as one block in every door;
    Tier 3 is never stored, not even sealed in T2)."""
    _init(run_script)
    head, tail = TOKEN[:20], TOKEN[20:]
    args = {
        "learn-text-tags": ("learn", "ci", "--text", f"part {head}", "--tags", tail),
        "write-cause-change": ("write", "--topic", "ci", "--cause", head, "--change", tail),
        "write-topic-cause": ("write", "--topic", head, "--cause", tail),
        "remember-two-lines": ("remember", "--skill", "ops", "--topic", "ci", "--text", f"{head}\n{tail}",
                               "--approved"),
    }[door]
    r = run_script("memory", *args, env=NOW)
    assert r.code == 1, f"{door} stored a token split over two fields"


@pytest.mark.parametrize("door", ["stats-record", "event"])
@pytest.mark.parametrize("form", sorted([*_name_forms(), "health-look-alike"]))
def test_an_obfuscated_value_in_a_skill_name_is_refused(ws, run_script, door, form):
    """``stats record --skill`` names a Tier 1 (public) file ``memory/tier1-public/<skill>_stats.json``
    and ``event --skill`` a knowledge file ``skill-<skill>.md``; both take the look-alike token,
    the CGJ token, the U+2011/U+2212 number and ``H\\u0406V-clinic`` (a health term with a Cyrillic
    I) as a skill (exit 0). Guarantee (issue 10: ``stats record --skill`` and ``event --skill``
    pass the gate, a finding of any confidence in a name is refused; T1 holds no personal data)."""
    _init(run_script)
    value = {**_name_forms(), "health-look-alike": "H\u0406V-clinic"}[form]
    args = {"stats-record": ("stats", "record", "--skill", value, "--ok"),
            "event": ("event", "skill_error", "--skill", value, "--text", "plain fix")}[door]
    r = run_script("memory", *args, env=NOW)
    assert r.code != 0, f"{door} took a skill in form {form}"
    names = [p.name for p in (ws / "memory").rglob("*")]
    assert not any(value in n for n in names), names
