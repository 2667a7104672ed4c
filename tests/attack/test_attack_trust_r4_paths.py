"""Attack round 4 (issue 10), part 2: forgetting, paths, links and permissions.

The attack kinds and what held: tests/attack/trust_r4_common.py.
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from memory_manager import tiers

from .trust_r4_common import EMAIL, NOW, PHONE, TOKEN, _files_holding, _init, _plant_t2


def test_forget_leaves_the_forgotten_t2_topic_nowhere(ws, run_script, t2_key):
    """forget of a T2 entry erases its copies, but the backups still name its file
    (``<skill>_<topic>.md``) in entries.jsonl and after.json: the topic of a forgotten entry stays
    on disk. Round 3 fixed the same for a knowledge key and a daily topic (a digest in their
    place). Guarantee (tiers.md, "Forgotten means gone"): forget leaves no name behind."""
    _init(run_script)
    r = run_script("memory", "remember", "--skill", "rel", "--topic", "quaggaplan", "--text",
                   "likes short replies", env=NOW)
    assert r.code == 0, r.err
    ident = r.out.split("[", 1)[1].split("]", 1)[0]
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, "quaggaplan") == []


def test_a_purged_t2_entry_whose_name_holds_a_token_leaves_the_name_nowhere(ws, run_script, t2_key):
    """A plain-text T2 file whose topic is a token: the upkeep seals it (backing it up), then
    cleanup purges it ("deleted with every copy"). The token stays in plain text in the backup's
    entries.jsonl and after.json, in memory/.state/maintain-last.json and in
    memory/.state/privacy-audit.json. Guarantee (tiers.md): a purge removes the copies in
    backups, archive, index and logs."""
    _init(run_script)
    (ws / "memory/tier2-internal" / f"ops_{TOKEN}.md").write_text(
        f"---\ntier: internal\nsource_skill: ops\ntopic: {TOKEN}\ncreated: 2026-11-25\n"
        "expires: 2026-12-25\nscheme: plain\n---\n\ndeploy notes\n", encoding="utf-8")
    assert run_script("privacy_audit", env=NOW).code == 1
    r = run_script("maintain", "--workspace", ws, env=NOW)
    assert r.code == 0, r.err
    assert not list((ws / "memory/tier2-internal").glob("*.md"))  # purged
    left = _files_holding(ws, TOKEN[4:])
    assert left == [], left


def test_restore_does_not_apply_setuid_or_world_writable_modes_from_a_manifest(ws, run_script):
    """A backup's entries.jsonl is data; ``init --restore`` applies its ``mode`` verbatim, so a
    forged mode 0o6777 makes a restored note setuid, setgid and writable by every user.
    Guarantee (tiers.md, "Paths from data"): restore checks each manifest entry before touching
    anything; a user's file never becomes writable by others."""
    _init(run_script)
    assert run_script("memory", "learn", "tea", "--text", "green tea", env=NOW).code == 0
    assert run_script("memory", "learn", "tea", "--text", "black tea", "--approved", env=NOW).code == 0
    newest = sorted(p for p in (ws / ".memory-backup").iterdir() if p.is_dir() and not p.name.startswith("."))[-1]
    entries = newest / "entries.jsonl"
    lines = [json.loads(line) for line in entries.read_text().splitlines() if line.strip()]
    assert [e["path"] for e in lines] == ["memory/knowledge/tea.md"]
    for e in lines:
        e["mode"] = 0o6777
    entries.write_text("".join(json.dumps(e) + "\n" for e in lines))
    r = run_script("init", "--restore", newest.name, "--yes", env=NOW)
    mode = stat.S_IMODE((ws / "memory/knowledge/tea.md").stat().st_mode)
    assert mode & (stat.S_ISUID | stat.S_ISGID | stat.S_IWOTH | stat.S_IWGRP) == 0, (oct(mode), r.out, r.err)


def test_the_gate_audit_log_is_not_appended_through_a_hard_link(ws, run_script, tmp_path):
    """memory/.state/gate-audit.jsonl is opened with O_NOFOLLOW, which stops a symlink but not a
    hard link: a log replaced by a hard link to a file outside the workspace gets every decision
    appended to that outside file. Guarantee (tiers.md): nothing is written outside the
    workspace; the append-only logs refuse a planted link."""
    _init(run_script)
    outside = tmp_path / "outside.log"
    outside.write_text("OUTSIDE\n")
    log = ws / "memory/.state/gate-audit.jsonl"
    log.parent.mkdir(mode=0o700, exist_ok=True)
    if log.exists():
        log.unlink()
    os.link(outside, log)
    run_script("memory", "learn", "tea", "--text", "green tea", env=NOW)
    assert outside.read_text() == "OUTSIDE\n"


def test_a_permissive_umask_leaves_no_memory_folder_writable_by_others(ws, run_script):
    """With umask 000 every file is 0600, but init makes memory/ and its folders (daily,
    knowledge, tier2-internal, archive...) 0777: any user of the machine can delete or replace
    the T2 entries and plant links beside them. Guarantee (issue 10 and the house rules): private
    folders are 0700, users' files are never lost; a permissive umask changes nothing."""
    old = os.umask(0)
    try:
        _init(run_script)
        assert run_script("memory", "remember", "--skill", "rel", "--topic", "p", "--text", "likes tea", env=NOW).code == 0
    finally:
        os.umask(old)
    loose = [p.relative_to(ws).as_posix() for p in [ws / "memory", *(ws / "memory").rglob("*")]
             if p.is_dir() and stat.S_IMODE(p.stat().st_mode) & 0o022]
    assert loose == []


def test_forget_of_a_quarantined_entry_leaves_its_name_nowhere(ws, run_script, t2_key):
    """The same quarantined entry, then ``forget ID --approved``: the e-mail in its name stays
    in the cleanup backup's entries.jsonl and after.json. Guarantee (tiers.md, "Forgotten means
    gone"): forget leaves no name behind."""
    _init(run_script)
    _plant_t2(ws, "crm", EMAIL, "ring about the contract")
    assert json.loads(run_script("cleanup", "--json", env=NOW).out)["quarantined"] == 1
    ident = tiers.t2_id("crm", EMAIL)
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, EMAIL) == []


def _memory_md_link_outside(ws: Path, tmp_path: Path) -> tuple[Path, str]:
    """Replace MEMORY.md by a link to a lessons file outside the workspace holding a marker."""
    marker = "OUTSIDEMARK" + "zebra"
    outside = tmp_path / "elsewhere.md"
    outside.write_text((ws / "MEMORY.md").read_text(encoding="utf-8") + f"- [2026-11-01] {marker} line\n",
                       encoding="utf-8")
    (ws / "MEMORY.md").unlink()
    (ws / "MEMORY.md").symlink_to(outside)
    return outside, marker


@pytest.mark.parametrize("args", [("memory", "lesson", "prefer small commits"), ("memory", "report")],
                         ids=["lesson", "report"])
def test_a_memory_md_link_leading_outside_is_not_read(ws, run_script, tmp_path, args):
    """MEMORY.md planted as a symlink to a file outside the workspace: ``lesson`` reads the outside
    file and writes its lines into the workspace's MEMORY.md (which the agent loads every session),
    and ``report`` copies them into memory/.cache/report.html. A knowledge file linked the same
    way is refused ("leads outside"). Guarantee (issue 10, "Paths that come from data"): a symlink
    planted in the workspace never makes a command read or write outside."""
    _init(run_script)
    outside, marker = _memory_md_link_outside(ws, tmp_path)
    before = outside.read_bytes()
    run_script(*args, env=NOW)
    assert outside.read_bytes() == before
    assert _files_holding(ws, marker) == []


def test_the_bootstrap_hook_reads_no_index_through_a_link_leading_outside(ws, run_script, tmp_path):
    """memory/daily-index.md planted as a symlink to a file outside the workspace: the
    agent:bootstrap hook reads it and hands its lines to the agent as part of the bootstrap note
    (the model's context). Guarantee (tiers.md, "Paths from data"): a file that is a symlink leading
    outside is never read."""
    _init(run_script)
    marker = "OUTSIDEIDX" + "zebra"
    outside = tmp_path / "elsewhere-index.md"
    outside.write_text(f"# Memory Index\n\n- [2026-11-28] {marker} -> daily/2026-11-28.md\n", encoding="utf-8")
    (ws / "memory/daily-index.md").unlink()
    (ws / "memory/daily-index.md").symlink_to(outside)
    event = {"type": "agent", "action": "bootstrap", "sessionKey": "agent:main:main",
             "context": {"workspaceDir": str(ws), "bootstrapFiles": []}}
    r = run_script("hook", input=json.dumps(event), env=NOW)
    assert r.code == 0, r.err
    assert marker not in r.out


def test_a_permissive_umask_leaves_no_folder_on_the_key_path_writable_by_others(ws, run_script, tmp_path):
    """Under umask 000, ``init --yes`` creates the key file 0600 in a 0700 folder, but the
    missing ``$XDG_CONFIG_HOME`` (~/.config) it creates on the way is 0777: any user can rename
    the key folder away and put their own key in its place, so the next T2 entries are sealed
    with a key the attacker holds. Guarantee (tiers.md): the key file is the user's alone."""
    old = os.umask(0)
    try:
        _init(run_script)
    finally:
        os.umask(old)
    home = tmp_path / "home"
    key = home / ".config/complex-memory-manager/key"
    assert key.is_file()
    loose = [p.relative_to(home).as_posix() for p in (key.parent, key.parent.parent)
             if stat.S_IMODE(p.stat().st_mode) & 0o022]
    assert loose == []


def test_a_lesson_recall_shows_can_be_forgotten(ws, run_script):
    """``lesson --approved`` stores a line with a phone number in MEMORY.md (the user confirmed
    it); recall finds it and prints its id (``h-...``, path MEMORY.md). ``forget ID --approved``
    refuses: "MEMORY.md is not an entry of this store (OpenClaw's own notes are never changed)",
    although this bundle wrote the line; the number stays in MEMORY.md, in the backup the next
    lesson made of MEMORY.md, in the recall index and in the approval record. Guarantee
    (tiers.md, "Forgotten means gone"): what the store wrote can be forgotten with every copy."""
    _init(run_script)
    assert run_script("memory", "lesson", f"call the ops desk at {PHONE}", "--approved", env=NOW).code == 0
    assert run_script("memory", "lesson", "prefer small commits", env=NOW).code == 0
    doc = json.loads(run_script("memory", "recall", "ops desk", "--json", env=NOW).out)
    ident = next(h["id"] for h in doc["hits"] if PHONE in json.dumps(h) or h["path"] == "MEMORY.md")
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, PHONE) == []


@pytest.mark.parametrize("kind", ["knowledge", "t2"])
def test_forget_leaves_no_unkeyed_hash_that_confirms_the_forgotten_name(ws, run_script, t2_key, kind):
    """tiers.md: "forget also leaves no name and no confirmable hash behind". But entry ids are
    the plain SHA-256 of the name (``k-`` + sha256(key)[:10], ``t-`` + sha256(skill\\ntopic)[:10]):
    after forget, memory/.state/access.json still lists the id of every entry that was read, and
    the backup's reason reads ``forget #<sha256(key)[:12]>`` (or ``forget t-...``). Anyone holding
    the workspace confirms a guessed key or topic with one hash; round 3 removed the approval
    record's keyed hash for this very reason."""
    import hashlib

    _init(run_script)
    if kind == "knowledge":
        assert run_script("memory", "learn", "zebrakeyplan", "--text", "some plain body", env=NOW).code == 0
        ref, digest = "zebrakeyplan", hashlib.sha256(b"zebrakeyplan").hexdigest()
    else:
        r = run_script("memory", "remember", "--skill", "rel", "--topic", "zebratopic", "--text", "likes tea", env=NOW)
        assert r.code == 0, r.err
        ref, digest = tiers.t2_id("rel", "zebratopic"), hashlib.sha256(b"rel\nzebratopic").hexdigest()
    assert run_script("memory", "show", ref, "--approved", env=NOW).code == 0  # counted as a use
    r = run_script("memory", "forget", ref, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, digest[:10]) == []


def test_restore_deletes_no_file_the_backup_has_no_checksum_for(ws, run_script):
    """A line added to a backup's entries.jsonl, ``{"path": "memory/knowledge/other.md",
    "existed": false}``, makes ``init --restore ID --yes`` (no --force) delete a knowledge entry
    the user wrote after that backup: after.json holds no checksum for it, so nothing shows that
    the backup's change created it. Guarantee (issue 10, "Paths that come from data"): restore
    checks each manifest entry, the checksum of what it will delete included, before touching
    anything; a file changed since the backup (or unknown to it) needs --force."""
    _init(run_script)
    assert run_script("memory", "learn", "tea", "--text", "green tea", env=NOW).code == 0
    assert run_script("memory", "learn", "tea", "--text", "black tea", "--approved", env=NOW).code == 0
    newest = sorted(p for p in (ws / ".memory-backup").iterdir() if p.is_dir() and not p.name.startswith("."))[-1]
    assert run_script("memory", "learn", "other", "--text", "written later", env=NOW).code == 0
    other = ws / "memory/knowledge/other.md"
    before = other.read_bytes()
    with (newest / "entries.jsonl").open("a") as handle:
        handle.write(json.dumps({"existed": False, "kind": "file", "path": "memory/knowledge/other.md"}) + "\n")
    run_script("init", "--restore", newest.name, "--yes", env=NOW)
    assert other.is_file() and other.read_bytes() == before


def test_the_recall_index_journal_is_not_written_through_a_hard_link(ws, run_script, tmp_path):
    """A symlink planted as memory/.cache/recall-index.sqlite-journal is refused, a hard link is
    not: SQLite writes its rollback journal (pages of the index: the text of every entry) into the
    linked file, which lives outside the workspace. Guarantee (tiers.md, "Paths from data"):
    nothing is written outside the workspace through a planted link."""
    _init(run_script)
    assert run_script("memory", "learn", "tea", "--text", "zebrajournal green tea", env=NOW).code == 0
    assert run_script("memory", "recall", "zebrajournal", env=NOW).code == 0  # the index exists
    outside = tmp_path / "outside-journal"
    outside.write_bytes(b"")
    os.link(outside, ws / "memory/.cache/recall-index.sqlite-journal")
    assert run_script("memory", "learn", "coffee", "--text", "zebrajournal black coffee", env=NOW).code == 0
    run_script("memory", "recall", "zebrajournal", env=NOW)
    assert outside.read_bytes() == b""


def test_forget_of_an_imported_note_does_not_leave_it_silently_recallable(ws, run_script):
    """``import --from-openclaw`` copies an OpenClaw note's section into memory/daily/;
    ``forget ID --approved`` of the copy says "forgot ... erased N backup copies" and nothing else,
    while the OpenClaw note it came from still holds the text and ``recall`` keeps returning it
    (forget of that hit is refused: OpenClaw's notes are never changed). A careless user believes
    it is gone. Guarantee (tiers.md, "Forgotten means gone"): forget says what it could not remove;
    either the text is no longer recalled or forget names the note that still holds it."""
    _init(run_script)
    note = ws / "memory/2026-11-28-notes.md"
    note.write_text("# n\n\n## alpha\n- zebraocnote line one\n\n## beta\n- other stuff\n", encoding="utf-8")
    assert run_script("memory", "import", "--from-openclaw", "--approved", env=NOW).code == 0
    doc = json.loads(run_script("memory", "recall", "zebraocnote", "--json", env=NOW).out)
    ident = next(h["id"] for h in doc["hits"] if h["path"].startswith("memory/daily/"))
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    still = "zebraocnote" in run_script("memory", "recall", "zebraocnote", env=NOW).out
    assert not still or "2026-11-28-notes.md" in r.out + r.err


def test_a_permissive_umask_leaves_no_hook_or_plugin_folder_writable_by_others(ws, run_script):
    """Under umask 000, ``init --yes`` installs the hooks (``<ws>/hooks/*``) and the plugin
    (``<ws>/.openclaw/extensions/complex-memory-manager``) in folders made 0777: any user of the
    machine can replace handler.js, index.js or bundle-path.json (which names the Python to run),
    and the Gateway then runs their code as the user at the next turn. Guarantee (issue 10):
    nothing the bundle installs lets another user in; a permissive umask changes nothing."""
    old = os.umask(0)
    try:
        r = run_script("init", "--yes", "--lang", "en", env=NOW)
    finally:
        os.umask(old)
    assert r.code == 0, r.err
    assert (ws / "hooks").is_dir()
    loose = [p.relative_to(ws).as_posix() for top in (ws / "hooks", ws / ".openclaw") if top.exists()
             for p in [top, *top.rglob("*")] if stat.S_IMODE(p.lstat().st_mode) & 0o022]
    assert loose == []


def test_forget_by_the_id_recall_prints_removes_that_section_and_no_other(ws, run_script):
    """A user copies a section of a daily note by hand to start a new one (heading and line
    changed, the ``<!-- id: ... -->`` comment copied along). recall finds the new section and
    prints the copied id; ``show`` of that id shows the *old* section, and ``forget ID --approved``
    deletes the old section (the user's "keep this" line) and leaves the text the user asked to
    forget. Guarantee (issue 10): --approved on one item never removes another; forget removes what
    the user was shown."""
    _init(run_script)
    out = run_script("memory", "write", "--topic", "alpha", "--change", "alphaline keep this", env=NOW).out
    ident = out.split("[", 1)[1].split("]", 1)[0]
    note = ws / "memory/daily/2026-11-29.md"
    with note.open("a", encoding="utf-8") as handle:
        handle.write(f"\n## [2026-11-29] gamma\n<!-- id: {ident} -->\n- Change: gammaline forget this\n")
    doc = json.loads(run_script("memory", "recall", "gammaline", "--json", env=NOW).out)
    hit = next(h for h in doc["hits"] if "gamma" in h.get("heading", ""))
    r = run_script("memory", "forget", hit["id"], "--approved", env=NOW)
    text = note.read_text(encoding="utf-8")
    assert "alphaline keep this" in text, text
    assert r.code != 0 or "gammaline" not in text


def test_t2_text_anyone_can_decode_is_kept_out_of_git_in_quarantine_and_archive(ws, run_script):
    """Without a key (``init --no-key``) init writes ``memory/tier2-internal/`` into .gitignore
    ("T2 entries use xor-b64, which anyone can decode: keep them out of git"). But cleanup moves
    such entries on: an expired one to ``memory/archive/<month>/`` and one with a finding (an
    e-mail address here) to ``memory/.quarantine/``, still xor-b64; neither folder is ignored, so
    ``git add -A`` in a synced workspace publishes exactly the entries the detector flagged.
    Guarantee (issue 10): nothing leaves the workspace; quarantine is private (0700/0600)."""
    import subprocess

    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    _init(run_script, "--no-key")
    _plant_t2(ws, "rel", "crew", f"send {EMAIL} the notes", scheme="xor-b64")
    _plant_t2(ws, "rel", "old", "old preference zebraold", scheme="xor-b64")
    assert json.loads(run_script("cleanup", "--json", env=NOW).out)["quarantined"] == 1
    assert run_script("cleanup", env={"MEMORY_MANAGER_NOW": "2027-01-15T12:00:00+00:00"}).code == 0
    assert list((ws / "memory/archive").rglob("rel_old.md"))
    out = subprocess.run(["git", "-C", str(ws), "status", "--porcelain", "--untracked-files=all"],
                         capture_output=True, text=True, check=True).stdout
    exposed = [line[3:] for line in out.splitlines()
               if line[3:].startswith(("memory/.quarantine/", "memory/archive/"))]
    assert exposed == []
