"""Issue 10, data loss and "forgotten means gone": each test plays one attack or careless use
against the real scripts and checks that it fails safely.

Attack kinds here: cleanup destroying an approved entry (possible finding), cleanup destroying
an unapproved possible finding, an approved entry with a now-certain finding, a certain finding
leaving copies behind, forget leaving copies (backups, archive, index, logs, report), crypt.py
encrypt --file leaving the plain text in backups, the audit log keeping content.
"""
from __future__ import annotations

import hashlib
import json
import stat
from datetime import date

from memory_manager import backups, crypto, tiers
from memory_manager.config import load_config

NOW = "2026-11-29T12:00:00+00:00"
ENV = {"MEMORY_MANAGER_NOW": NOW}
TOKEN = "ghp_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
EMAIL = "alice.chen" + "@" + "mailbox-hq.net"  # a possible finding (often a false alarm: a team alias)


def init(ws, run_script):
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=ENV)
    assert r.code == 0, r.err


def planted_t2(ws, skill, topic, text, approved=None, scheme="aes-gcm"):
    """A T2 entry written straight to disk (as an older version or an agent would have)."""
    cfg = load_config(ws)
    sealed = crypto.encrypt(text, skill, "2026-11", cfg, scheme, topic=topic, entry_id=tiers.t2_id(skill, topic))
    body = tiers.render_t2(skill, topic, sealed, date(2026, 11, 25), 30, "2026-11", "en")
    if approved:
        body = tiers.mark_approved(body, date.fromisoformat(approved))
    path = tiers.t2_path(ws, skill, topic)
    path.write_text(body)
    return path


def every_byte(root):
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def cleanup(run_script, ws):
    r = run_script("cleanup", "--json", "-w", ws, env=ENV)
    assert r.code == 0, r.err
    return json.loads(r.out)


def test_cleanup_keeps_an_approved_entry_with_a_possible_finding(ws, run_script, t2_key):
    init(ws, run_script)
    args = ("memory", "remember", "-w", ws, "--skill", "release", "--topic", "crew",
            "--text", f"send the release notes to {EMAIL}")
    held = run_script(*args, env=ENV)
    assert held.code == 1  # the detector sees a possible e-mail address: the gate asks first
    assert run_script(*args, "--approved", env=ENV).code == 0
    path = ws / "memory/tier2-internal/release_crew.md"
    before = path.read_bytes()
    doc = cleanup(run_script, ws)
    assert path.read_bytes() == before and doc["deleted"] == 0 and doc["quarantined"] == 0
    assert [a["step"] for a in doc["actions"]] == ["keep"]


def test_unapproved_possible_finding_is_quarantined_and_restorable(ws, run_script, t2_key):
    init(ws, run_script)
    path = planted_t2(ws, "release", "crew", f"send {EMAIL} the notes about the freeze", scheme="xor-b64")
    ident = tiers.t2_id("release", "crew")
    doc = cleanup(run_script, ws)
    assert doc["deleted"] == 0 and doc["quarantined"] == 1 and not path.exists()
    qfile = ws / "memory/.quarantine" / f"{ident}.md"
    assert stat.S_IMODE(qfile.stat().st_mode) == 0o600
    assert stat.S_IMODE(qfile.parent.stat().st_mode) == 0o700
    assert b"aesgcm:" in qfile.read_bytes()  # sealed with the T2 key, no longer xor-b64
    status = json.loads(run_script("memory", "status", "--json", "-w", ws, env=ENV).out)
    assert [(r["id"], r["sealed"]) for r in status["quarantine"]] == [(ident, True)]
    shown = run_script("memory", "show", ident, "--approved", "--json", "-w", ws, env=ENV)
    # Returned so the user can decide, its T3-class value masked as recall masks it.
    assert shown.code == 0 and json.loads(shown.out)["text"] == "send [email] the notes about the freeze"
    assert json.loads(shown.out)["quarantined"] is True
    found = json.loads(run_script("memory", "recall", "freeze release crew", "--approved", "--json",
                                  "-w", ws, env=ENV).out)
    assert found["hits"] == []  # recall does not search the quarantine
    assert b"freeze" not in every_byte(ws / "memory/.cache")  # the index holds none of its text
    assert run_script("memory", "unquarantine", ident, "-w", ws, env=ENV).code == 1  # needs the user's word
    back = run_script("memory", "unquarantine", ident, "--approved", "--json", "-w", ws, env=ENV)
    assert back.code == 0, back.err
    assert json.loads(back.out)["path"] == "memory/tier2-internal/release_crew.md" and not qfile.exists()
    again = cleanup(run_script, ws)  # restored = approved: it stays now
    assert path.exists() and again["quarantined"] == 0


def test_approved_entry_with_a_now_certain_finding_is_quarantined_not_destroyed(ws, run_script, t2_key):
    init(ws, run_script)
    path = planted_t2(ws, "deploy", "notes", f"deploy token {TOKEN}", approved="2026-11-20")
    doc = cleanup(run_script, ws)
    assert doc["deleted"] == 0 and doc["quarantined"] == 1 and not path.exists()
    ident = tiers.t2_id("deploy", "notes")
    shown = run_script("memory", "show", ident, "--approved", "--json", "-w", ws, env=ENV)
    assert shown.code == 0 and json.loads(shown.out)["text"] == "deploy token [secret]"  # returned, masked
    gone = run_script("memory", "forget", ident, "--approved", "--json", "-w", ws, env=ENV)
    assert gone.code == 0, gone.err
    assert not list((ws / "memory/.quarantine").iterdir())
    assert run_script("memory", "show", ident, "--approved", "-w", ws, env=ENV).code == 1


def test_certain_unapproved_finding_is_purged_with_its_backup_copies(ws, run_script, t2_key):
    init(ws, run_script)
    path = planted_t2(ws, "deploy", "notes", f"deploy token {TOKEN}")
    old = backups.start(ws, "earlier change")  # an earlier backup holds a (sealed) copy
    old.save(path)
    old.close()
    cipher = tiers.parse_t2(path.read_text(), path)[0].ciphertext
    doc = cleanup(run_script, ws)
    assert doc["deleted"] == 1 and doc["erased"]["backups"] == 1 and not path.exists()
    assert cipher.encode() not in every_byte(ws) and TOKEN.encode() not in every_byte(ws)
    assert [c for c in backups.iter_copies(ws) if c[1]["path"].endswith("deploy_notes.md")] == []


def test_forget_removes_backup_archive_index_log_and_report_copies(ws, run_script):
    init(ws, run_script)
    secret_plan = "the Zanzibar launch moves to the second week of March"
    r = run_script("memory", "write", "-w", ws, "--topic", "launch", "--change", secret_plan, "--json", env=ENV)
    made = json.loads(r.out)
    note = ws / made["path"]
    earlier = backups.start(ws, "earlier change")
    earlier.save(note)
    earlier.close()
    archive = ws / "memory/archive/2026-11/daily-2026-11-29.md"
    archive.parent.mkdir(parents=True)
    # An archived copy of the text under another id (one id in two files is refused, tatk19: formats.md
    # "One id, one file"): erased by its text.
    meta = {"format": "cmm-archive", "version": 1, "id": made["id"][:-8] + "00000000", "heading": "launch"}
    archive.write_text(f"## [2026-11-29] launch\n- 改：{secret_plan}\n<!-- archived: {json.dumps(meta)} -->\n\n"
                       "## [2026-11-01] other\n- 改：kept\n<!-- archived: {\"id\": \"d-x\"} -->\n")
    log = ws / "memory/.state/gate-audit.jsonl"  # a record an older version wrote verbatim
    with log.open("a") as handle:
        handle.write(json.dumps({"operation": "store", "summary": "launch " + secret_plan[:60] + "…",
                                 "chars": 70}) + "\n")
    report = ws / "memory/.cache/report.html"
    report.parent.mkdir(exist_ok=True)
    report.write_text(f"<p>{secret_plan}</p>")
    assert json.loads(run_script("memory", "recall", "Zanzibar", "--json", "-w", ws, env=ENV).out)["hits"]
    gone = run_script("memory", "forget", made["id"], "--approved", "--json", "-w", ws, env=ENV)
    assert gone.code == 0, gone.err
    erased = json.loads(gone.out)["erased"]
    # logs: the verbatim record an older version wrote, and (since tfix10, round 9) the keyed hash
    # of the store record of the entry, blanked; + the index copy naming the entry
    assert (erased["backups"], erased["archive"], erased["index"], erased["logs"], erased["report"]) == (3, 1, 1, 2, 1)
    assert b"Zanzibar" not in every_byte(ws)
    assert "kept" in archive.read_text()
    assert json.loads(run_script("memory", "recall", "Zanzibar", "--json", "-w", ws, env=ENV).out)["hits"] == []
    human = run_script("memory", "forget", "no-such", "--approved", "-w", ws, env=ENV)
    assert human.code == 1


def test_crypt_encrypt_file_leaves_no_plain_copy(ws, run_script, t2_key):
    init(ws, run_script)
    plain = ws / "memory/tier2-internal/notes_draft.md"
    plain.write_text("---\ntier: internal\nsource_skill: notes\ncreated: 2026-11-25\nexpires: 2026-12-25\n---\n"
                     "The draft budget for Orion is ready for review.\n")
    # A version 1 backup (older versions) kept the plain text as it was.
    old = ws / ".memory-backup/20261101T090000Z"
    (old / "files/memory/tier2-internal").mkdir(parents=True)
    (old / "files/memory/tier2-internal/notes_draft.md").write_bytes(plain.read_bytes())
    (old / "manifest.json").write_text(json.dumps({
        "format": "memory-backup", "version": 1, "id": old.name, "created": "2026-11-01T09:00:00+00:00",
        "reason": "remember", "tool_version": "0.9.0",
        "entries": [{"path": "memory/tier2-internal/notes_draft.md", "existed": True, "kind": "file",
                     "sha256": hashlib.sha256(plain.read_bytes()).hexdigest(), "size": plain.stat().st_size,
                     "mode": 420}]}))
    r = run_script("crypt", "encrypt", "--file", plain, "--json", "-w", ws, env=ENV)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["erased"]["backups"] == 1
    assert b"Orion" not in every_byte(ws)
    # The change's own copy is sealed with the T2 key: the encryption can still be undone.
    assert b"Orion" in backups.read_copy(ws, doc["backup"], "memory/tier2-internal/notes_draft.md")


def test_audit_log_never_keeps_ordinary_content(ws, run_script):
    init(ws, run_script)
    assert run_script("memory", "write", "-w", ws, "--topic", "plans", "--change",
                      "the quarterly plan mentions Zanzibar", env=ENV).code == 0
    assert run_script("memory", "learn", "vendor", "--text", "Orion ships on Fridays", "-w", ws, env=ENV).code == 0
    log = (ws / "memory/.state/gate-audit.jsonl").read_text()
    assert "Zanzibar" not in log and "Orion" not in log and "plans" not in log
    assert all(json.loads(line)["summary"].startswith("<") for line in log.splitlines())



def test_an_entry_of_a_month_file_is_quarantined_alone_and_goes_back_there(ws, run_script, t2_key):
    init(ws, run_script)
    cfg = load_config(ws)
    keep = tiers.T2Entry(path=ws, skill="crm", topic="tone", id=tiers.t2_id("crm", "tone"), month="2026-11",
                         created=date(2026, 11, 25), expires=date(2026, 12, 25),
                         ciphertext=crypto.encrypt("Prefers a friendly tone.", "crm", "2026-11", cfg,
                                                   "xor-b64").ciphertext,
                         params={"scheme": "xor-b64", "text_encoding": "latin-1", "key_derivation": "concat"})
    flagged = tiers.T2Entry(path=ws, skill="crm", topic="crew", id=tiers.t2_id("crm", "crew"), month="2026-11",
                            created=date(2026, 11, 25), expires=date(2026, 12, 25),
                            ciphertext=crypto.encrypt(f"send the notes to {EMAIL}", "crm", "2026-11", cfg,
                                                      "xor-b64").ciphertext,
                            params={"scheme": "xor-b64", "text_encoding": "latin-1", "key_derivation": "concat"})
    month = tiers.multi_path(ws, "crm", "2026-11")
    month.write_text(tiers.render_multi("crm", "2026-11", [keep, flagged]))
    doc = cleanup(run_script, ws)
    assert doc["quarantined"] == 1 and doc["deleted"] == 0
    assert [e.id for e in tiers.parse_t2(month.read_text(), month)] == [keep.id]
    back = run_script("memory", "unquarantine", flagged.id, "--approved", "--json", "-w", ws, env=ENV)
    assert back.code == 0, back.err
    assert json.loads(back.out)["path"] == "memory/tier2-internal/crm_2026-11.md"
    assert [e.id for e in tiers.parse_t2(month.read_text(), month)] == [keep.id, flagged.id]
    shown = run_script("memory", "show", flagged.id, "--approved", "--json", "-w", ws, env=ENV)
    assert json.loads(shown.out)["text"] == f"send the notes to {EMAIL}"
    assert cleanup(run_script, ws)["quarantined"] == 0  # approved now: kept in its month file
