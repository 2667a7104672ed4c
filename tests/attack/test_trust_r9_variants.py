"""Variants of the round 9 trust findings (issue 10), one or more per kind, written with the fixes.

Kinds (tests/attack/test_attack_trust_r9.py holds the attacks as found):

- a T2 "ciphertext" that reads as a value in clear (imported T2 and archived T2 files): a value at
  the start of a wrapped quote line, a card number that passes its checksum, a value glued into
  the Base64 (which the detector does not read) decoding to control characters, the same file
  planted in the workspace (the audit), and no false refusal on real ciphertexts;
- frontmatter text of an imported T2 file that no field holds (a comment line of its own, an
  archived T2 file's comment): refused like a value (gate rule 0); a harmless comment imports;
- session-key words kept in ``memory/.state/context-usage.jsonl``: an agent id, a per-account id
  after the channel; a v1 record's plain words are relabelled when read and leave the disk at the
  next upkeep, under the label a v2 record of the same key gets;
- tatk7's report leftovers: a page that shows a forgotten section only through an audit excerpt
  (a cut of its line) is deleted by id; a page written without ids whose body the report masked
  whole (a number split over two lines) is found by the same reading.

Secret-shaped values are built at run time (tests/test_layout.py refuses literals).
"""
from __future__ import annotations

import base64
import json
import random
import re
from datetime import date
from pathlib import Path

from .trust_r4_common import NOW, PHONE, _init, _export

AWS_KEY_ID = "AK" + "IA" + "QWERTYUIOPASDFGH"
#: A card number that passes the Luhn check (certain), built at run time.
LUHN_CARD = "4539" + "5787" + "6362" + "1486"
CN_PHONE = "138" + "1234" + "5678"


def _crafted_t2(cipher: str, skill: str = "ops", topic: str = "prefs", month: str = "2026-11") -> str:
    """A single-entry xor-b64 T2 file whose quoted ciphertext is exactly ``cipher`` (joined)."""
    from memory_manager import crypto, tiers

    key = crypto.derive_xor_key(skill, month).encode("ascii")
    data = base64.b64decode(cipher)
    plain = bytes(b ^ key[i % len(key)] for i, b in enumerate(data)).decode("latin-1")
    sealed = crypto.xor_encrypt(plain, skill, month)
    assert sealed.ciphertext == cipher
    return tiers.render_t2(skill, topic, sealed, date(2026, 11, 25), 30, month, "en")


def _refused(r) -> list[str]:
    return [x["reason"] for x in json.loads(r.out)["refused"]]


# ------------------------------------------------------------ (a) a ciphertext that reads in clear


def test_a_value_at_the_start_of_a_wrapped_quote_line_is_refused(ws, run_script, tmp_path):
    """The ciphertext wrapped over two quote lines: joined, the key id is glued to Base64 before
    it (no word boundary, nothing found); as the file shows it, it starts the second line."""
    _init(run_script, "--no-key")
    head, tail = "QUJD", AWS_KEY_ID + "+abc"
    text = _crafted_t2(head + tail).replace(f"> {head}{tail}\n", f"> {head}\n> {tail}\n")
    r = run_script("memory", "import", _export(tmp_path, tier2=[{"file": "ops_prefs.md", "text": text}]),
                   "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    assert any("reads as secret in clear" in reason for reason in _refused(r)), r.out
    assert not (ws / "memory/tier2-internal/ops_prefs.md").exists()


def test_an_archived_t2_file_whose_ciphertext_is_a_card_number_is_refused(ws, run_script, tmp_path):
    _init(run_script, "--no-key")
    text = _crafted_t2(LUHN_CARD + "+AAA", month="2026-10")
    export = _export(tmp_path, archive=[{"file": "2026-10/ops_prefs.md", "text": text}], lessons=[])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    assert any("payment_card" in reason for reason in _refused(r)), r.out
    assert not (ws / "memory/archive/2026-10/ops_prefs.md").exists()


def test_a_value_glued_into_the_base64_decodes_to_noise_and_is_refused(ws, run_script, tmp_path):
    """The detector reads no key id inside a run of letters (``xyzAKIA...abc``), but the file
    spells it; the legacy xor-b64 key of the skill and month (anyone's to derive) decodes it to
    control characters, no text a user wrote: not an entry of ours."""
    from memory_manager import crypto, privacy, tiers

    _init(run_script, "--no-key")
    cipher = "xy" + AWS_KEY_ID + "ab"
    assert privacy.scan(cipher) == [] or all(f.rule == "bare_random_line" for f in privacy.scan(cipher))
    text = _crafted_t2(cipher)
    entry = tiers.parse_t2(text, Path("ops_prefs.md"))[0]
    assert not crypto.plausible(crypto.xor_decrypt(entry.ciphertext, "ops", "2026-11"))
    r = run_script("memory", "import", _export(tmp_path, tier2=[{"file": "ops_prefs.md", "text": text}]),
                   "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    assert any("control characters" in reason for reason in _refused(r)), r.out
    assert not (ws / "memory/tier2-internal/ops_prefs.md").exists()


def test_the_audit_reports_a_t2_file_whose_ciphertext_spells_a_value(ws, run_script):
    """The same file planted in the workspace (an agent wrote it): the audit blanks the ciphertext
    lines before it scans and read the key id nowhere; it now reads each as written."""
    _init(run_script, "--no-key")
    (ws / "memory/tier2-internal/ops_prefs.md").write_text(_crafted_t2(AWS_KEY_ID + "+abc"), encoding="utf-8")
    r = run_script("privacy_audit", "--json", env=NOW)
    doc = json.loads(r.out)
    assert r.code == 1 and doc["clean"] is False, r.out
    assert [(f["file"], f["rule"], f["category"]) for f in doc["findings"]] == [
        ("memory/tier2-internal/ops_prefs.md", "ciphertext_in_clear", "secret")]
    assert AWS_KEY_ID[4:] not in r.out


def test_real_ciphertexts_do_not_read_as_values():
    """The rule has no false refusal on ciphertexts the store writes: 600 xor-b64 and aes-gcm
    texts of varied lengths and languages (a fixed seed; aes-gcm nonces are random, so those texts
    differ between runs: the rule must hold whatever they are)."""
    from memory_manager import crypto
    from memory_manager.privacy import ciphertext_in_clear

    rng = random.Random(9)
    words = ["deploy", "token", "release", "staging", "prefers", "tea", "短", "会议", "记录", "2026-11-20", "8080",
             "call at 10:30", "v1.2.3", "answers", "PIN", "dl", "ok"]
    key = bytes(rng.getrandbits(8) for _ in range(32))
    for n in range(600):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 80)))
        sealed = (crypto.xor_encrypt(text, f"skill{n % 7}", f"2026-{n % 12 + 1:02d}") if n % 2
                  else crypto.aes_encrypt(text, "ops", key, "prefs", "t-00000000aa"))
        assert ciphertext_in_clear(sealed.ciphertext) == [], (n, sealed.ciphertext)


# ------------------------------------------------------------ (b) frontmatter text no field holds


def _sealed_t2_text(ws, month: str = "2026-11") -> str:
    from memory_manager import crypto, tiers
    from memory_manager.config import load_config

    sealed = crypto.encrypt("short answers", "ops", month, load_config(ws), "xor-b64", topic="prefs",
                            entry_id=tiers.t2_id("ops", "prefs"))
    return tiers.render_t2("ops", "prefs", sealed, date(2026, 11, 25), 30, month, "en")


def test_a_comment_line_of_its_own_in_imported_t2_frontmatter_is_refused(ws, run_script, tmp_path):
    _init(run_script, "--no-key")
    text = _sealed_t2_text(ws).replace("topic: prefs\n", f"topic: prefs\n# landlord {PHONE}, texts only\n")
    export = _export(tmp_path, tier2=[{"file": "ops_prefs.md", "text": text}])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    doc = json.loads(r.out)
    assert doc["held"] == [] and doc["refused"][0]["outcome"] == "refused"
    assert "frontmatter as written" in doc["refused"][0]["reason"]
    assert not (ws / "memory/tier2-internal/ops_prefs.md").exists()


def test_a_comment_in_an_archived_t2_files_frontmatter_is_refused(ws, run_script, tmp_path):
    _init(run_script, "--no-key")
    text = _sealed_t2_text(ws, "2026-10").replace("topic: prefs\n", f"topic: prefs  # mom {CN_PHONE}\n")
    export = _export(tmp_path, archive=[{"file": "2026-10/ops_prefs.md", "text": text}], lessons=[])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.out
    assert not (ws / "memory/archive/2026-10/ops_prefs.md").exists()


def test_a_harmless_comment_in_imported_t2_frontmatter_is_imported_as_written(ws, run_script, tmp_path):
    _init(run_script, "--no-key")
    text = _sealed_t2_text(ws).replace("topic: prefs\n", "topic: prefs  # written by hand\n")
    r = run_script("memory", "import", _export(tmp_path, tier2=[{"file": "ops_prefs.md", "text": text}]),
                   "--approved", "--json", env=NOW)
    assert r.code == 0, r.out
    assert (ws / "memory/tier2-internal/ops_prefs.md").read_text(encoding="utf-8") == text


# ------------------------------------------------------------ (c) session-key words


def _hook(run_script, ws, key: str) -> None:
    event = {"type": "message", "action": "sent", "sessionKey": key, "context": {"workspaceDir": str(ws)}}
    assert run_script("hook", input=json.dumps(event), env=NOW).code == 0


def test_an_agent_id_and_a_channel_account_id_of_plain_words_are_hashed(ws, run_script):
    _init(run_script)
    _hook(run_script, ws, "agent:alice-" + "therapist" + ":main")
    _hook(run_script, ws, "agent:main:telegram:bob-" + "rehab" + ":group:team")
    lines = (ws / "memory/.state/context-usage.jsonl").read_text(encoding="utf-8").splitlines()
    sessions = [json.loads(line)["session"] for line in lines]
    assert [json.loads(line)["v"] for line in lines] == [2, 2]
    assert re.fullmatch(r"agent:#[0-9a-f]{12}:main", sessions[0]), sessions
    assert re.fullmatch(r"agent:main:telegram:#[0-9a-f]{12}:group:#[0-9a-f]{12}", sessions[1]), sessions
    assert "therapist" not in "".join(lines) and "rehab" not in "".join(lines) and "alice" not in "".join(lines)


def test_a_v1_record_with_plain_words_is_relabelled_when_read_and_rewritten_by_upkeep(ws, run_script, monkeypatch):
    """Records written before round 9 kept ``cron:hiv-clinic-reminder``: the reader never shows the
    words (the report reads through it), upkeep rewrites the record, and the label is the one a
    v2 record of the same key gets, so the session's points stay one series."""
    from memory_manager import hookrun, upkeep

    _init(run_script)
    key = "agent:main:cron:" + "hiv" + "-clinic-reminder"
    old = {"v": 1, "at": "2026-11-28T10:00:00+00:00", "event": "message:sent", "session": key, "used": 1000,
           "window": 32768, "percent": 3, "source": "entry"}
    usage = ws / "memory/.state/context-usage.jsonl"
    usage.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    usage.write_text(json.dumps(old) + "\n", encoding="utf-8")
    _hook(run_script, ws, key)  # a v2 record of the same session
    read = hookrun.read_usage(ws)
    assert [r["v"] for r in read] == [2, 2]
    assert read[0]["session"] == read[1]["session"] and read[0]["session"].startswith("agent:main:cron:#")
    upkeep.trim_usage(ws)
    text = usage.read_text(encoding="utf-8")
    assert "hiv" not in text and "clinic" not in text
    assert [json.loads(line)["session"] for line in text.splitlines()] == [read[0]["session"]] * 2
    report = run_script("memory", "report", env=NOW)
    assert report.code == 0, report.err
    page = (ws / "memory/.cache/report.html").read_text(encoding="utf-8")
    assert read[0]["session"] in page and "clinic" not in page and "hiv-" not in page


# ------------------------------------------------------------ tatk7: report pages forget cannot find


def test_a_page_showing_a_section_only_through_an_audit_excerpt_is_deleted_by_forget(ws, run_script, tmp_path):
    """A daily section older than the timeline (30 days) is shown only in the Health section, as a
    finding of the last audit (its file, line and a redacted excerpt: no whole line of it). The row
    carries the section's id, so forget deletes the page."""
    _init(run_script)
    made = run_script("memory", "write", "--topic", "lease", "--date", "2026-09-20", "--cause",
                      f"landlord mobile {CN_PHONE}, texts only after six in the evening", "--approved", "--json",
                      env=NOW)
    assert made.code == 0, made.err
    ident = json.loads(made.out)["id"]
    (ws / "memory/.state/privacy-approvals.jsonl").unlink()  # as an agent would have written it: unapproved
    audit = run_script("privacy_audit", "--json", env=NOW)
    assert [f["file"] for f in json.loads(audit.out)["findings"]] == ["memory/daily/2026-09-20.md"], audit.out
    page = tmp_path / "out" / "r.html"
    assert run_script("memory", "report", "--html", page, env=NOW).code == 0
    shown = page.read_text(encoding="utf-8")
    assert "lease" not in shown.split('<section id="timeline">')[1].split("</section>")[0]
    assert f'data-id="{ident}"' in shown.split('<section id="health">')[1]
    gone = run_script("memory", "forget", ident, "--approved", "--json", env=NOW)
    assert gone.code == 0, gone.err
    assert json.loads(gone.out)["erased"]["reports_deleted"] == [str(page)]
    assert not page.exists()


def test_a_page_without_ids_is_found_by_the_reading_the_report_masked_it_with(ws, run_script, tmp_path):
    """tatk7 #7: the report masks a knowledge body whole, so a number split over two lines shows as
    ``landlord mobile [phone]``; forget masked each line alone and looked for ``landlord mobile
    138-1234-`` (the second line is too short to look for). A page as an older version wrote it (no
    data-id) is now found by the whole reading."""
    from memory_manager.fsio import sha256_bytes

    _init(run_script)
    body = f"landlord mobile {CN_PHONE[:3]}-{CN_PHONE[3:7]}-\n{CN_PHONE[7:]}"
    made = run_script("memory", "learn", "lease", "--text", body, "--approved", "--json", env=NOW)
    assert made.code == 0, made.err
    ident = json.loads(made.out)["id"]
    page = tmp_path / "r.html"
    assert run_script("memory", "report", "--html", page, env=NOW).code == 0
    stripped = re.sub(r' data-id="[^"]*"', "", page.read_text(encoding="utf-8"))
    assert ident not in stripped and "landlord mobile [phone]" in stripped
    page.write_text(stripped, encoding="utf-8")
    record = ws / "memory/.state/reports.json"
    doc = json.loads(record.read_text(encoding="utf-8"))
    doc["reports"][0]["sha256"] = sha256_bytes(stripped.encode("utf-8"))
    record.write_text(json.dumps(doc), encoding="utf-8")
    gone = run_script("memory", "forget", ident, "--approved", "--json", env=NOW)
    assert gone.code == 0, gone.err
    assert json.loads(gone.out)["erased"]["reports_deleted"] == [str(page)]
    assert not page.exists()
