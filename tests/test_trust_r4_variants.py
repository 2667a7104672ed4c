"""Variants of the trust round 4 attacks (issue 10) the attacker did not try.

Each kind fixed for ``tests/attack/test_attack_trust_r4_paths.py`` gets one or two cases here:
other files, other commands, the same guarantee. Secret-shaped values are built at run time.
"""
from __future__ import annotations

import json
import os
import stat

from tests.attack.trust_r4_common import NOW, PHONE, _init, _plant_t2


def _loose_dirs(root):
    return [p.relative_to(root).as_posix() for p in [root, *root.rglob("*")]
            if p.is_dir() and not p.is_symlink() and stat.S_IMODE(p.stat().st_mode) & 0o022]


# ------------------------------------------------------------------ umask 000

def test_a_permissive_umask_leaves_no_folder_writable_after_writes_cleanup_and_import(ws, run_script, t2_key):
    """Folders made later than init (a daily note's, the archive month cleanup opens, the
    backups) are 0755 at most under umask 000, like those init makes."""
    old = os.umask(0)
    try:
        _init(run_script)
        note = ws / "memory/2026-10-02-notes.md"
        note.write_text("# n\n\n## alpha\n- imported line\n", encoding="utf-8")
        assert run_script("memory", "import", "--from-openclaw", "--approved", env=NOW).code == 0
        assert run_script("memory", "write", "--topic", "alpha", "--change", "a line", env=NOW).code == 0
        _plant_t2(ws, "rel", "old", "old preference")
        assert run_script("cleanup", env={"MEMORY_MANAGER_NOW": "2027-01-15T12:00:00+00:00"}).code == 0
    finally:
        os.umask(old)
    assert list((ws / "memory/archive").iterdir())  # cleanup made a month folder
    assert _loose_dirs(ws) == []


def test_keygen_under_a_permissive_umask_makes_no_missing_parent_writable_by_others(run_script, tmp_path):
    """``crypt.py keygen`` with a key path several folders deep that do not exist yet."""
    deep = tmp_path / "cfgroot"
    old = os.umask(0)
    try:
        r = run_script("crypt", "keygen", env={"XDG_CONFIG_HOME": str(deep / "a" / "b")})
    finally:
        os.umask(old)
    assert r.code == 0, r.err
    key = deep / "a/b/complex-memory-manager/key"
    assert key.is_file()
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert _loose_dirs(deep) == []


# ------------------------------------------------------------------ hard links

def test_the_approval_record_is_not_appended_through_a_hard_link(ws, run_script, tmp_path, t2_key):
    """memory/.state/privacy-approvals.jsonl hard-linked to an outside file: an approved
    remember writes its approval line into a fresh file of its own, the outside one is untouched."""
    _init(run_script)
    outside = tmp_path / "outside-approvals"
    outside.write_text("OUTSIDE\n")
    record = ws / "memory/.state/privacy-approvals.jsonl"
    record.parent.mkdir(mode=0o700, exist_ok=True)
    record.unlink(missing_ok=True)
    os.link(outside, record)
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "desk", "--text", f"ring {PHONE}",
                   "--approved", env=NOW)
    assert r.code == 0, r.err
    assert outside.read_text() == "OUTSIDE\n"
    assert record.stat().st_nlink == 1 and record.read_text().count("\n") >= 1


def test_the_recall_index_itself_is_not_written_through_a_hard_link(ws, run_script, tmp_path):
    """A second name outside the workspace for memory/.cache/recall-index.sqlite (a hard link to
    the live index): the next recall drops the shared file and builds an index of its own, so the
    text of an entry written later never reaches the outside name."""
    _init(run_script)
    assert run_script("memory", "learn", "tea", "--text", "zebralinked green tea", env=NOW).code == 0
    assert run_script("memory", "recall", "zebralinked", env=NOW).code == 0  # the index exists
    index = ws / "memory/.cache/recall-index.sqlite"
    outside = tmp_path / "outside.sqlite"
    os.link(index, outside)
    assert run_script("memory", "learn", "coffee", "--text", "zebrasecondterm black coffee", env=NOW).code == 0
    r = run_script("memory", "recall", "zebrasecondterm", env=NOW)
    assert r.code == 0 and "zebrasecondterm" in r.out, r.out + r.err
    assert b"zebrasecondterm" not in outside.read_bytes()
    assert index.stat().st_nlink == 1


def test_a_fifo_planted_as_the_gate_audit_log_neither_hangs_nor_receives_the_decision(ws, run_script):
    """A FIFO in place of memory/.state/gate-audit.jsonl: the write does not block on it
    (no reader) and the decision lands in a plain log file."""
    _init(run_script)
    log = ws / "memory/.state/gate-audit.jsonl"
    log.parent.mkdir(mode=0o700, exist_ok=True)
    log.unlink(missing_ok=True)
    os.mkfifo(log)
    r = run_script("memory", "learn", "tea", "--text", "green tea", env=NOW)
    assert r.code == 0, r.err
    assert stat.S_ISREG(log.lstat().st_mode) and log.read_text().strip()


# ------------------------------------------------------------------ restore modes

def test_restore_of_an_unchanged_file_does_not_chmod_it_group_writable(ws, run_script):
    """The file still holds the backed-up bytes: restore only sets its mode, and a forged
    0o777 or 0o1666 is cut to what a restore may apply (no write for group/others, no sticky)."""
    _init(run_script)
    assert run_script("memory", "learn", "tea", "--text", "green tea", env=NOW).code == 0
    assert run_script("memory", "learn", "tea", "--text", "black tea", "--approved", env=NOW).code == 0
    newest = sorted(p for p in (ws / ".memory-backup").iterdir() if p.is_dir() and not p.name.startswith("."))[-1]
    assert run_script("init", "--restore", newest.name, "--yes", env=NOW).code == 0  # now unchanged
    entries = newest / "entries.jsonl"
    lines = [json.loads(line) for line in entries.read_text().splitlines() if line.strip()]
    path = ws / lines[0]["path"]
    lines[0]["mode"] = 0o1777
    entries.write_text("".join(json.dumps(e) + "\n" for e in lines))
    r = run_script("init", "--restore", newest.name, "--yes", "--force", env=NOW)
    assert r.code == 0, r.err
    assert stat.S_IMODE(path.stat().st_mode) & 0o7022 == 0
    assert "not applied" in r.out + r.err


# ------------------------------------------------------------------ forgotten names

def test_forget_of_a_daily_section_leaves_neither_its_topic_nor_its_id(ws, run_script):
    """A daily section read with ``show`` (an access count), audited by ``maintain`` (state files),
    then forgotten: neither its topic nor its id (a hash a guess can be checked against) stays."""
    from tests.attack.trust_r4_common import _files_holding

    _init(run_script)
    out = run_script("memory", "write", "--topic", "zebradailytopic", "--change", "a plain line", env=NOW).out
    ident = out.split("[", 1)[1].split("]", 1)[0]
    assert run_script("memory", "show", ident, env=NOW).code == 0
    assert run_script("maintain", "--workspace", ws, env=NOW).code == 0
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, "zebradailytopic") == []
    assert _files_holding(ws, ident) == []


def test_a_purged_entry_whose_text_holds_the_token_leaves_its_topic_nowhere(ws, run_script, t2_key):
    """The token is in the text, the topic is harmless: cleanup purges the entry, and its file name
    (``<skill>_<topic>.md``) leaves the backups and the state files with it; state files stay JSON."""
    from tests.attack.trust_r4_common import TOKEN, _files_holding

    _init(run_script)
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "zebrapurgetopic", "--text", "deploy notes",
                   env=NOW)
    assert r.code == 0, r.err
    path = ws / "memory/tier2-internal/ops_zebrapurgetopic.md"
    assert path.is_file()
    _plant = __import__("tests.attack.trust_r4_common", fromlist=["_plant_t2"])._plant_t2
    _plant(ws, "ops", "zebrapurgetopic", f"deploy with {TOKEN}")
    assert run_script("privacy_audit", env=NOW).code == 1
    assert run_script("maintain", "--workspace", ws, env=NOW).code == 0
    assert not path.exists()
    assert _files_holding(ws, "zebrapurgetopic") == []
    for state in (ws / "memory/.state").glob("*.json"):
        json.loads(state.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ symlinks read

def test_the_report_reads_no_daily_note_through_a_link_leading_outside(ws, run_script, tmp_path):
    """A daily note planted as a symlink to an outside file: ``memory report`` copies none of its
    lines into memory/.cache/report.html, and the outside file stays as it was."""
    _init(run_script)
    marker = "OUTSIDEDAILY" + "zebra"
    outside = tmp_path / "elsewhere-daily.md"
    body = f"# 2026-11-28\n\n## [2026-11-28] alpha\n- Change: {marker} line\n"
    outside.write_text(body, encoding="utf-8")
    (ws / "memory/daily").mkdir(exist_ok=True)
    (ws / "memory/daily/2026-11-28.md").symlink_to(outside)
    run_script("memory", "report", env=NOW)
    assert outside.read_text(encoding="utf-8") == body
    from tests.attack.trust_r4_common import _files_holding

    assert _files_holding(ws, marker) == []


def test_the_bootstrap_hook_reads_no_knowledge_index_through_a_link_leading_outside(ws, run_script, tmp_path):
    """The knowledge index planted the same way as the daily index: its lines never reach the note."""
    _init(run_script)
    marker = "OUTSIDEKIDX" + "zebra"
    outside = tmp_path / "elsewhere-kindex.md"
    outside.write_text(f"# Knowledge Index\n\n- {marker} -> knowledge/x.md\n", encoding="utf-8")
    index = ws / "memory/knowledge-index.md"
    index.unlink(missing_ok=True)
    index.symlink_to(outside)
    event = {"type": "agent", "action": "bootstrap", "sessionKey": "agent:main:main",
             "context": {"workspaceDir": str(ws), "bootstrapFiles": []}}
    r = run_script("hook", input=json.dumps(event), env=NOW)
    assert r.code == 0, r.err
    assert marker not in r.out
    assert not any(marker in p.read_text(errors="replace") for p in (ws / "memory/.cache").glob("*") if p.is_file())


# ------------------------------------------------------------------ .gitignore

def _ignored(ws, rel: str) -> bool:
    import subprocess

    return subprocess.run(["git", "-C", str(ws), "check-ignore", "-q", rel]).returncode == 0


def test_the_gitignore_keeps_readable_t2_out_but_lets_archived_notes_in(ws, run_script):
    """Keyless: an archived T2 file (``<skill>_<topic>.md``, a month file) is ignored, prune's
    archived daily and knowledge files are not (they are the user's notes)."""
    import subprocess

    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    _init(run_script, "--no-key")
    assert _ignored(ws, "memory/archive/2026-11/rel_old.md")
    assert _ignored(ws, "memory/archive/2026-11/rel_2026-11.md")
    assert _ignored(ws, "memory/.quarantine/t-0123456789.md")
    assert not _ignored(ws, "memory/archive/2026-11/daily-2026-11-02.md")
    assert not _ignored(ws, "memory/archive/2026-11/knowledge-tea.md")


def test_the_quarantine_is_kept_out_of_git_with_a_key_too(ws, run_script, t2_key):
    """With a T2 key the quarantine is sealed, yet still private: ignored all the same."""
    import subprocess

    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    _init(run_script)
    assert _ignored(ws, "memory/.quarantine/t-0123456789.md")


# ------------------------------------------------------------------ duplicated id comments

def test_forget_by_the_printed_id_when_the_copy_sits_above_the_original(ws, run_script):
    """The copied section (with the original's ``<!-- id -->``) is inserted *above* the original,
    twice: every section still has an id of its own, and forgetting the hit recall prints for
    the original's text removes exactly that section."""
    _init(run_script)
    out = run_script("memory", "write", "--topic", "alpha", "--change", "alphaline keep this", env=NOW).out
    ident = out.split("[", 1)[1].split("]", 1)[0]
    note = ws / "memory/daily/2026-11-29.md"
    text = note.read_text(encoding="utf-8")
    copies = "".join(f"## [2026-11-29] copy{n}\n<!-- id: {ident} -->\n- Change: copyline{n} stays\n\n" for n in (1, 2))
    head, sep, rest = text.partition("## [2026-11-29] alpha")
    note.write_text(head + copies + sep + rest, encoding="utf-8")
    doc = json.loads(run_script("memory", "recall", "alphaline copyline1 copyline2", "--json", env=NOW).out)
    ids = [h["id"] for h in doc["hits"] if h["path"] == "memory/daily/2026-11-29.md"]
    assert len(ids) == 3 and len(set(ids)) == 3, ids
    hit = next(h for h in doc["hits"] if "alphaline" in h.get("snippet", ""))
    r = run_script("memory", "forget", hit["id"], "--approved", env=NOW)
    assert r.code == 0, r.err
    left = note.read_text(encoding="utf-8")
    assert "alphaline" not in left and "copyline1 stays" in left and "copyline2 stays" in left, left


# ------------------------------------------------------------------ lessons

def test_forget_of_one_lesson_keeps_the_others_byte_for_byte(ws, run_script):
    """Three lessons in two sections; forgetting the one recall finds removes that line only,
    and a lesson in another section (a decision) is found and kept as it was."""
    _init(run_script)
    assert run_script("memory", "lesson", "zebralessonone keep", env=NOW).code == 0
    assert run_script("memory", "lesson", "zebralessontwo drop", env=NOW).code == 0
    assert run_script("memory", "lesson", "zebralessonthree keep", "--kind", "decision", env=NOW).code == 0
    before = (ws / "MEMORY.md").read_text(encoding="utf-8")
    doc = json.loads(run_script("memory", "recall", "zebralessontwo", "--json", env=NOW).out)
    hit = next(h for h in doc["hits"] if h["path"] == "MEMORY.md")
    assert "zebralessontwo" in hit["snippet"] and "zebralessonone" not in hit["snippet"]
    r = run_script("memory", "forget", hit["id"], "--approved", env=NOW)
    assert r.code == 0, r.err
    after = (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert after == before.replace("- [2026-11-29] zebralessontwo drop\n", "")


def test_forget_of_an_openclaw_note_hit_says_what_to_do(ws, run_script):
    """A hit in OpenClaw's own note cannot be forgotten by memory.py: the refusal says whose note
    it is and that the user edits it; nothing changes."""
    _init(run_script)
    note = ws / "memory/2026-11-28-notes.md"
    note.write_text("# n\n\n## alpha\n- zebraonlyopenclaw line\n", encoding="utf-8")
    doc = json.loads(run_script("memory", "recall", "zebraonlyopenclaw", "--json", env=NOW).out)
    hit = next(h for h in doc["hits"] if h["path"] == "memory/2026-11-28-notes.md")
    r = run_script("memory", "forget", hit["id"], "--approved", env=NOW)
    assert r.code == 2 and "edit it yourself" in r.err, (r.code, r.err)
    assert note.read_text(encoding="utf-8") == "# n\n\n## alpha\n- zebraonlyopenclaw line\n"
