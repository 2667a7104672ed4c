"""Attack round 5 (issue 10): new variants against the current main.

Each test plays one attack (or careless use) that still gets through on main, against the real
scripts in a temporary workspace. Secret-shaped values are built at run time
(tests/test_layout.py refuses literals).

Kinds with a test here: residue of a forget in the last privacy audit; permissions under umask 000
(matplotlib's folders made by report, $XDG_CONFIG_HOME made for the hash-secret) and a hash-secret
readable by others used silently; trivially encoded secrets and numbers (percent, JSON escape,
HTML entity, quoted-printable, hex, Base32; Base64 accepted with --approved; a token split over two
tags) in text and in names; an approval the tool cannot bind (config folder inside the workspace)
dropped by the next cleanup.

Tried and held (no test here): full-width digits and letters in phone numbers and tokens (NFKC),
zero-width space / soft hyphen / word joiner inside a token, upper-case and hyphen variants,
URL-safe Base64 without approval; NFC/NFD spellings of one knowledge key, T2 topic, skill and T1
skill (refused like case), names over 100 bytes in every name option; hard links and symlinks
planted as a knowledge file (edit, forget), a daily note (write), MEMORY.md (lesson),
knowledge-index.md, a T1 stats file (stats record/pattern), a T2 file (remember), crypt.py
decrypt --file (outside path, symlink, ``..``) and six memory/.state files; health facts (en, zh)
in --tags, --trigger, --skills, lesson and --topic; a value approved in one entry reused in
learn/write/remember/stats, planted in another T2 entry, or in a second import after --allow;
an approved T2 entry after a later unapproved remember on its topic, after keygen replaced the
local secret, after expiry and archive retention, after month compaction; sealed T2 imports with
a token, a phone and a health fact; gate.py --request with a phone and a health fact (never
logged); secrets in show/used/forget/edit/unarchive arguments and recall queries (masked, never
written); session keys through the hooks; residue of forget (knowledge with tags and an edit
history, daily section, T2, quarantined T2, decrypted-in-place T2) in the index, cached report,
mask cache, backups and ~/.config; modes of export --out and report --html under umask 000.
"""
from __future__ import annotations

import json

import pytest

from .trust_r4_common import NOW, _init

# Found by a fresh attacker at the end of round 4, after the round's fixes. The tests marked xfail
# are not fixed yet (issue 10 stays open). Strict: a test that starts passing fails the suite until
# its mark goes.

#: A North American number (a possible finding: phone), built at run time.
PHONE = "415-555" + "-0132"
OTHER_PHONE = "212-555" + "-0187"


def test_forget_leaves_the_forgotten_entrys_finding_in_the_last_privacy_audit(ws, run_script):
    """A knowledge entry with a phone number the user approved, then a privacy audit (maintenance
    runs one), then ``forget KEY --approved``: memory/.state/privacy-audit.json still lists a
    notice for the forgotten entry (its file name replaced by a stand-in, but the category, the
    line and the first digits of the number, ``415***``), and a forgotten daily section keeps its
    notice with the real file name and the number's prefix. Guarantee (tiers.md, "Forgotten
    means gone"): a forget removes the entry's copies, and the files of memory/.state (the last
    privacy audit named explicitly) keep nothing of the forgotten entry. Variant (no test): a T2
    entry cleanup purges for a token keeps its finding (rule github_token) in the same file."""
    _init(run_script)
    assert run_script("memory", "learn", "oncallzed", "--text", f"oncall pager {PHONE} for nightly",
                      "--approved", env=NOW).code == 0
    w = run_script("memory", "write", "--topic", "rota", "--cause", f"pager {OTHER_PHONE} for rota",
                   "--approved", "--json", env=NOW)
    assert w.code == 0, w.err
    assert run_script("memory", "write", "--topic", "other", "--cause", "benign line", env=NOW).code == 0
    assert run_script("privacy_audit", "-w", ws, env=NOW).code in (0, 1)
    audit = ws / "memory/.state/privacy-audit.json"
    assert PHONE[:3] in audit.read_text() and OTHER_PHONE[:3] in audit.read_text()
    f = run_script("memory", "forget", "oncallzed", "--approved", env=NOW)
    assert f.code == 0, f.err
    section = json.loads(w.out)
    ident = section.get("id") or next(v for v in json.dumps(section).split('"') if v.startswith("d-2026"))
    g = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert g.code == 0, g.err
    doc = json.loads(audit.read_text())
    left = [n for n in json.dumps(doc).split("{") if '"excerpt"' in n]
    assert not any(PHONE[:3] in n or OTHER_PHONE[:3] in n for n in left), left


def test_a_permissive_umask_leaves_no_folder_the_report_creates_writable_by_others(ws, run_script, tmp_path):
    """Under umask 000, ``memory.py report`` (matplotlib, loaded by the bundle to draw the charts)
    creates ~/.cache, ~/.cache/matplotlib and ~/.config/matplotlib 0777 and its font list 0666:
    any user of the machine can plant a ``matplotlibrc`` or a forged font list that the next
    report reads, and the bundle has written outside the workspace and its own config folder.
    Guarantee (README, "Nothing leaves the workspace"): folders the bundle creates are never
    writable by group or others, even under umask 000 (round 4 fixed the same hole for ~/.config
    made by init)."""
    import os
    import stat

    home = tmp_path / "home"
    old = os.umask(0)
    try:
        _init(run_script)
        assert run_script("memory", "learn", "deploy", "--text", "deploy steps for the release", env=NOW).code == 0
        r = run_script("memory", "report", env=NOW, timeout=180)
    finally:
        os.umask(old)
    assert r.code == 0, r.err
    loose = [p.relative_to(home).as_posix() for p in [home, *home.rglob("*")]
             if not p.is_symlink() and stat.S_IMODE(p.stat().st_mode) & 0o022]
    assert loose == []


#: The body of a GitHub token (ghp_ + 36 characters), built at run time.
_TOKEN_BODY = "k3Jd9Qx7Lm2Pz8" + "Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"


def _encodings() -> dict[str, str]:
    token = "ghp" + "_" + _TOKEN_BODY
    return {
        "percent": token.replace("_", "%5F"),
        "json-escape": token.replace("_", "\\u005f"),
        "html-entity": token.replace("_", "&#95;"),
        "quoted-printable": token.replace("_", "=5F"),
        "hex": token.encode().hex(),
        "base32": __import__("base64").b32encode(token.encode()).decode(),
    }


@pytest.mark.parametrize("form", ["percent", "json-escape", "html-entity", "quoted-printable", "hex", "base32"])
def test_a_trivially_encoded_token_is_refused_like_its_base64_form(ws, run_script, form):
    """A token copied from a URL, a JSON string or an HTML page arrives encoded (``ghp%5F...``,
    ``ghp\\u005f...``, ``ghp&#95;...``, ``ghp=5F...``, hex or Base32). The gate decodes a Base64 token but none of
    these: ``learn --text`` stores it without even asking, ``gate.py`` answers proceed, and the
    privacy audit calls the workspace clean, although one standard decode gives the token back.
    Guarantee (gate.md / tiers.md: Tier 3 is never stored, no flag overrides it; issue 10: content
    that is trivially decodable counts as what it decodes to)."""
    _init(run_script)
    encoded = _encodings()[form]
    r = run_script("memory", "learn", "ci", "--text", f"ci blob {encoded}", env=NOW)
    assert r.code == 1, f"a {form}-encoded token was stored"
    assert not (ws / "memory/knowledge/ci.md").exists()


def test_a_base64_token_is_refused_even_with_approval(ws, run_script):
    """The gate decodes a Base64 blob and sees a GitHub token in it (the summary says ``withheld:
    secret``), but rates it a *possible* finding: ``learn --approved`` and ``remember --approved``
    store it, and cleanup keeps it as approved. A token is a certain finding; wrapping it in Base64
    changes nothing. Guarantee (README "Approval is specific": certain findings, secrets, are
    refused whatever the flags; gate.md rule 1)."""
    import base64

    _init(run_script)
    blob = base64.b64encode(("ghp" + "_" + _TOKEN_BODY).encode()).decode()
    r = run_script("memory", "learn", "ci", "--text", f"ci blob {blob}", "--approved", env=NOW)
    assert r.code == 1, "a Base64-wrapped token was stored with --approved"
    assert not (ws / "memory/knowledge/ci.md").exists()


def test_a_token_split_over_two_tags_is_judged_as_one_value(ws, run_script):
    """``learn --tags`` splits on commas; a token pasted with a comma in it (``ghp_abc…,…xyz``) is
    stored as two tags written side by side in the frontmatter (``tags: [ghp_…, …]``), and neither
    the gate nor the privacy audit finds it. Guarantee (README "No side doors": every field that
    reaches disk passes the gate, a key pasted over several lines is judged as one block in every
    door; Tier 3 is never stored)."""
    _init(run_script)
    token = "ghp" + "_" + _TOKEN_BODY
    r = run_script("memory", "learn", "ci", "--text", "ci notes", "--tags", f"{token[:22]},{token[22:]}", env=NOW)
    stored = (ws / "memory/knowledge/ci.md").read_text() if (ws / "memory/knowledge/ci.md").exists() else ""
    assert r.code == 1 and token[4:22] not in stored, stored


def test_a_percent_encoded_phone_number_asks_for_approval(ws, run_script):
    """``415%2D555%2D0132`` (a number copied from a ``tel:`` or search URL) is stored by ``learn``
    and ``write`` without the approval the same number asks for in plain form, and the audit sees
    nothing. Guarantee (gate.md: a possible finding is not stored unless the user confirms it)."""
    _init(run_script)
    encoded = PHONE.replace("-", "%2D")
    r = run_script("memory", "learn", "pager", "--text", f"oncall pager {encoded}", env=NOW)
    w = run_script("memory", "write", "--topic", "rota", "--cause", f"pager {encoded}", env=NOW)
    assert r.code == 1 and w.code == 1, "a percent-encoded phone number was stored without approval"


def test_a_permissive_umask_leaves_no_folder_on_the_hash_secret_path_writable_by_others(ws, run_script, tmp_path,
                                                                                         monkeypatch):
    """Without a T2 key (``init --no-key``), the first ``remember --approved`` draws the local
    ``hash-secret`` (the key of approval marks, approval records and session labels) in
    ``$XDG_CONFIG_HOME/complex-memory-manager/``; under umask 000 it creates the missing
    ``$XDG_CONFIG_HOME`` 0777 (round 4 fixed only the key file's path). Any user of the machine can
    then move the folder away and plant a secret they know: from then on they can forge approval
    marks (cleanup keeps what nobody approved) and confirm guesses of approved values and chat
    peers. Guarantee (README: folders the bundle creates are never writable by group or others,
    even under umask 000; approval marks hold a secret outside the workspace)."""
    import os
    import stat

    xdg = tmp_path / "home" / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    old = os.umask(0)
    try:
        _init(run_script, "--no-key")
        r = run_script("memory", "remember", "--skill", "ops", "--topic", "rota", "--text",
                       f"oncall phone {PHONE}", "--approved", env=NOW)
    finally:
        os.umask(old)
    assert r.code == 0, r.err
    assert (xdg / "complex-memory-manager" / "hash-secret").exists()
    loose = [p.as_posix() for p in [xdg, *xdg.rglob("*")] if stat.S_IMODE(p.stat().st_mode) & 0o022]
    assert loose == []


def test_a_hash_secret_readable_by_others_is_not_used_silently(ws, run_script, tmp_path):
    """The local ``hash-secret`` (``~/.config/complex-memory-manager/hash-secret``) keys the
    approval marks, the approval record and session labels when there is no T2 key. Made readable
    and writable by everyone (0666; or planted so by another user), it is used without a word:
    ``remember --approved`` writes marks with it and cleanup trusts them, while the T2 key file in
    the same state gets a warning. Whoever can read it forges approval marks (cleanup keeps an
    entry nobody approved) and confirms guesses of approved values and DM peers. Guarantee
    (README "Approval is specific": the mark is an HMAC with a secret outside the workspace, a
    hand-written approval is only a claim; tiers.md: a key readable by group or others is warned
    about)."""
    import os

    _init(run_script, "--no-key")
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "rota", "--text",
                      f"oncall phone {PHONE}", "--approved", env=NOW).code == 0
    secret = tmp_path / "home/.config/complex-memory-manager/hash-secret"
    assert secret.is_file()
    os.chmod(secret, 0o666)
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "pager", "--text",
                   f"pager {OTHER_PHONE}", "--approved", env=NOW)
    assert r.code != 0 or "hash-secret" in r.err, (r.code, r.err)


def test_an_approved_entry_stays_in_place_when_the_workspace_holds_the_config_folder(ws, run_script, monkeypatch):
    """A workspace that holds ``$XDG_CONFIG_HOME`` (the workspace is the home folder, or
    ~/.config is kept in it): without a T2 key, the local ``hash-secret`` may not be drawn there
    (inside the workspace), so ``remember --approved`` stores the entry with a bare
    ``approved:`` date and no mark, says nothing and exits 0; the next automatic maintenance (a
    hook's ``maintain.py``, here ``cleanup.py``) finds the phone number, treats the user's approval
    as a claim and moves the entry to quarantine. Guarantee (issue 10 / README "Nothing approved is
    destroyed"): an approved entry stays where it is, even with a possible finding; an approval
    the tool cannot bind is refused when given, not dropped later."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(ws / ".config"))
    _init(run_script, "--no-key")
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "rota", "--text",
                   f"oncall phone {PHONE}", "--approved", env=NOW)
    if r.code != 0:
        return  # refused up front: the user knows the approval did not hold
    path = ws / "memory/tier2-internal/ops_rota.md"
    assert path.is_file()
    c = run_script("cleanup", "-w", ws, env=NOW)
    assert c.code == 0, c.err
    assert path.is_file(), "the approved entry was moved to quarantine: " + c.out[-400:]


def test_a_percent_encoded_token_or_number_in_a_name_is_refused(ws, run_script):
    """Names are not content: a name with any finding is refused even with ``--approved``. A
    percent-encoded token or phone number is taken as a plain name: ``learn KEY``, ``remember
    --topic`` and ``stats record --skill`` create ``knowledge/ghp%5F….md``,
    ``tier1-public/ghp%5F…_stats.json`` (T1: public) and a T2 file name holding it, copied into
    the indexes and backup manifests, and the audit of file names sees nothing. Guarantee (README
    "No side doors": a skill, topic, key or file name with any finding is refused)."""
    _init(run_script)
    token = ("ghp" + "_" + _TOKEN_BODY).replace("_", "%5F")
    number = PHONE.replace("-", "%2D")
    codes = [run_script("memory", "learn", token, "--text", "ci notes", env=NOW).code,
             run_script("memory", "learn", f"pager-{number}", "--text", "ci notes", env=NOW).code,
             run_script("memory", "remember", "--skill", "ops", "--topic", token, "--text", "ci",
                        "--approved", env=NOW).code,
             run_script("memory", "stats", "record", "--skill", token, "--ok", env=NOW).code]
    named = [p.name for p in (ws / "memory").rglob("*") if _TOKEN_BODY[:12] in p.name or "0132" in p.name]
    assert named == [], (codes, named)
