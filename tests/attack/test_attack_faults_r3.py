"""Attack round 3 on issue 11: faults, bad input and restore sequences the fault suite does not name.

Each test runs the real scripts on real files in a temporary workspace and
states the promise it checks (README "What every writing command promises",
"Exit codes", "Bad input" in the developer guide).
"""
from __future__ import annotations

import json

import pytest

from conftest import TEST_KEY

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00", "MEMORY_MANAGER_KEY": TEST_KEY}
DAY = "2026-11-29"


def _init(ws, run_script):
    (ws / "AGENTS.md").write_text("# Rules\n\n- short\n", encoding="utf-8")
    (ws / "MEMORY.md").write_text("Prefers tea.\n", encoding="utf-8")
    r = run_script("init", "--yes", "--lang", "en", env=ENV)
    assert r.code == 0, r.err


def _files(ws):
    """Every file outside the backups, the derived cache and the state folder, with its bytes."""
    out = {}
    for path in sorted(ws.rglob("*")):
        rel = path.relative_to(ws).as_posix()
        if rel.startswith((".memory-backup", "memory/.cache", "memory/.state")) or not path.is_file():
            continue
        out[rel] = path.read_bytes()
    return out


# --- bad input in a file we read ---------------------------------------------------------------

def test_stats_file_with_more_successes_than_calls_is_refused(ws, run_script):
    """A T1 statistics file is untrusted input (issue 11): ``successes`` above ``calls`` is not a
    count any run could have written. Today ``stats record`` accepts it, prints "success rate
    5000.00%" and writes ``success_rate: 50.0`` back. Expected: exit 2, one line naming the file
    and the key, the file byte-identical."""
    _init(ws, run_script)
    assert run_script("memory", "stats", "record", "--skill", "news", "--ok", env=ENV).code == 0
    path = ws / "memory/tier1-public/news_stats.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["skill_stats"]["news"]["successes"] = 99
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    before = path.read_bytes()
    r = run_script("memory", "stats", "record", "--skill", "news", "--ok", env=ENV)
    assert r.code == 2, (r.code, r.out, r.err)
    assert "news_stats.json" in r.err and "successes" in r.err
    assert "Traceback" not in r.err
    assert path.read_bytes() == before


# --- forget and the backups of earlier commands ------------------------------------------------

def test_forget_erases_the_older_versions_kept_by_earlier_backups(ws, run_script):
    """README: "``forget`` erases every copy of what it deletes ... (forgotten means gone)".
    ``learn deploy`` on an existing key backs up the entry's previous text; a later
    ``forget deploy --approved`` says "erased 1 backup copy" but the previous text
    ("Never deploy on Fridays.") stays in the learn's backup, and ``init --restore <that id>``
    brings the forgotten entry back."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=ENV).code == 0
    assert run_script("memory", "learn", "deploy", "--text", "Tag before deploying.", env=ENV).code == 0
    r = run_script("memory", "forget", "deploy", "--approved", env=ENV)
    assert r.code == 0, r.err
    leftovers = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*")
                       if p.is_file() and b"Never deploy on Fridays" in p.read_bytes())
    assert leftovers == []


def test_forget_then_restore_reaches_the_older_backup(ws, run_script):
    """After ``forget`` the next bare ``init --restore`` picked forget's own backup, whose copy of
    the entry forget erased, and stopped: "copy of memory/knowledge/deploy.md is missing; nothing was
    changed". So after any forget a bare ``--restore`` could never undo anything. README: forget is
    the one command --restore cannot undo; the restore should then name the next backup, not refuse
    every restore for good (nor reach past the learns to undo ``init``).

    Expected: exit 0; the restore uses the newest backup that is a restore point, here the first
    ``learn``'s (it recorded deploy.md as created; format v3), and names forget's backup and the
    second learn's (their copies of the entry were erased) as passed over; the forgotten entry
    stays gone, and so does its line in the knowledge index: the index copy forget made names the
    key and was erased with it (issue 10), so the index is the one rebuilt without the key, not its
    bytes before the forget as first written here. ``init`` is not undone."""
    _init(ws, run_script)
    agents = (ws / "AGENTS.md").read_bytes()
    index = ws / "memory/knowledge-index.md"
    before_learn = index.read_bytes()
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=ENV).code == 0
    assert run_script("memory", "learn", "deploy", "--text", "Tag before deploying.", env=ENV).code == 0
    assert run_script("memory", "forget", "deploy", "--approved", env=ENV).code == 0
    after_forget = _files(ws)
    ids = [b["id"] for b in json.loads(run_script("init", "--list-backups", "--json", env=ENV).out)["backups"]]
    assert len(ids) == 4  # init, learn (created), learn (appended), forget
    r = run_script("init", "--restore", "--yes", "--json", env=ENV)
    assert "Traceback" not in r.err
    assert r.code == 0, (r.code, r.err)
    result = json.loads(r.out)
    assert result["restored"] == ids[1]
    assert [n.split(" (")[0] for n in result["notes"]] == [f"newer backup {ids[2]}", f"newer backup {ids[3]}"]
    assert all("copy erased on purpose" in n for n in result["notes"])
    assert _files(ws) == after_forget
    assert index.read_bytes() == before_learn
    assert not (ws / "memory/knowledge/deploy.md").exists()
    assert (ws / "AGENTS.md").read_bytes() == agents


def test_restore_after_learning_a_new_entry_removes_it(ws, run_script):
    """README: "``init --restore`` undoes it" for a command that only creates a file: ``learn`` of a
    new key (format v3 records the file as created). The entry and its index line go; a later
    edit by hand keeps the file unless --force."""
    _init(ws, run_script)
    before = _files(ws)
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=ENV).code == 0
    r = run_script("init", "--restore", "--yes", env=ENV)
    assert r.code == 0, r.err
    assert _files(ws) == before
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=ENV).code == 0
    path = ws / "memory/knowledge/deploy.md"
    with path.open("a", encoding="utf-8") as fh:
        fh.write("A line I typed myself.\n")
    edited = path.read_bytes()
    r = run_script("init", "--restore", "--yes", env=ENV)
    assert r.code == 1 and "memory/knowledge/deploy.md" in r.err and "Traceback" not in r.err
    assert path.read_bytes() == edited
    r = run_script("init", "--restore", "--yes", "--force", env=ENV)
    assert r.code == 0, r.err
    assert not path.exists()


# --- a full disk or a file-size limit in memory/.cache (the derived index) ---------------------

def _run_limited(ws, limit, *args):
    """Run ``scripts/memory.py args -w ws`` with RLIMIT_FSIZE = ``limit`` bytes."""
    import os
    import resource
    import subprocess
    import sys

    from conftest import ROOT

    def pre():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    env = {**os.environ, **ENV}
    return subprocess.run([sys.executable, str(ROOT / "scripts/memory.py"), *args, "-w", str(ws)],
                          capture_output=True, text=True, env=env, preexec_fn=pre, timeout=120)


def test_recall_answers_when_the_derived_index_cannot_be_written(ws, run_script):
    """Developer guide: "Markdown files are the source of truth; any index/cache is derived and
    rebuildable". With a file-size limit (or a full disk, or a read-only ``memory/.cache``) the
    read-only ``recall`` cannot write its SQLite index and today exits 1 ("recall index ...:
    disk I/O error") without an answer, although every entry is in the Markdown files. Expected:
    recall still finds the entry (an index kept in memory for this run), exit 0, files unchanged."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=ENV).code == 0
    before = _files(ws)
    r = _run_limited(ws, 8 * 1024, "recall", "deploy")
    assert "Traceback" not in r.stderr
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert "Never deploy on Fridays." in r.stdout
    assert _files(ws) == before


def test_status_answers_when_the_derived_index_cannot_be_written(ws, run_script):
    """Same as above for ``status`` (a read-only report of sizes and counts): today exit 1,
    "recall index ...: disk I/O error". Expected exit 0 with the entry counts."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=ENV).code == 0
    r = _run_limited(ws, 8 * 1024, "status")
    assert "Traceback" not in r.stderr
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert "1 knowledge entry" in r.stdout


# --- --restore after a sequence: newer user text ----------------------------------------------

def test_restore_does_not_silently_overwrite_text_added_after_the_command(ws, run_script):
    """README: "``init.py --restore`` undoes it" (the last change). After ``write`` merges a line
    into an existing note, the user adds a line of their own to that note by hand; a bare
    ``--restore`` then puts the whole file back to its bytes before the write: the user's newer
    line is gone from the note (only the restore's safety copy keeps it) and neither the restore
    nor ``--restore --dry-run`` says the file changed after the backed-up command. Expected:
    either the user's line survives the restore, or the restore refuses (non-zero exit, one line
    naming the file changed since backup ...) and leaves the note byte-identical."""
    _init(ws, run_script)
    note = ws / f"memory/daily/{DAY}.md"
    assert run_script("memory", "write", "--topic", "Docs", "--change", "wrote the guide", env=ENV).code == 0
    assert run_script("memory", "write", "--topic", "Docs", "--change", "reviewed the guide", env=ENV).code == 0
    with note.open("a", encoding="utf-8") as fh:
        fh.write("- my own line, typed by hand after the write\n")
    edited = note.read_bytes()
    r = run_script("init", "--restore", env=ENV)
    assert "Traceback" not in r.err
    if r.code == 0:
        assert b"my own line, typed by hand after the write" in note.read_bytes()
    else:
        assert note.read_bytes() == edited
        assert f"memory/daily/{DAY}.md" in r.err


# --- a killed restore, then a different command ---------------------------------------------

def test_a_write_that_rolls_back_a_killed_restore_says_so(ws, run_script):
    """README: "the next command that takes the workspace lock rolls the interrupted change back
    from its backup". Kill ``init --restore`` after it has put ``memory/knowledge/deploy.md`` back
    (only its closing steps left), then run ``memory write``: the write silently turns deploy.md
    back to its bytes before the restore and prints only "wrote memory/daily/...". The user, who
    asked for a restore, is never told it was undone (issue 11: every message true). Expected: the
    write's output names the rolled-back restore or the file it changed (deploy.md)."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=ENV).code == 0
    assert run_script("memory", "learn", "deploy", "--text", "Tag before deploying.", env=ENV).code == 0
    path = ws / "memory/knowledge/deploy.md"
    appended = path.read_bytes()
    log = ws.parent / "steps.log"
    probe = ws.parent / "probe"
    import shutil
    shutil.copytree(ws, probe, symlinks=True)
    assert run_script("init", "--restore", "-w", str(probe), env={**ENV, "MEMORY_MANAGER_STEP_LOG": str(log)}).code == 0
    steps = log.read_text(encoding="utf-8").splitlines()
    last_replace = max(int(s.split()[0]) for s in steps if s.split()[1] == "replace" and s.endswith("deploy.md"))
    killed = run_script("init", "--restore", env={**ENV, "MEMORY_MANAGER_CRASH_AT": str(last_replace + 1)})
    assert killed.code != 0
    assert path.read_bytes() != appended  # the restore had put the older text back
    r = run_script("memory", "write", "--topic", "Docs", "--change", "wrote the guide", env=ENV)
    assert r.code == 0, r.err
    assert path.read_bytes() == appended  # rolled back by the write
    said = r.out + r.err
    assert "deploy.md" in said or "restore" in said.lower(), said


# --- a second run --------------------------------------------------------------------------------

def test_a_second_identical_remember_is_a_no_op_without_approval(ws, run_script):
    """README: "A second run changes nothing (a repeated write, learn, lesson, import or remember of
    the same text adds nothing)". ``learn`` and ``lesson`` repeated say "unchanged" / "already in"
    and exit 0; ``remember`` repeated with the same text asks for approval of an *edit*
    ("request_approval (edit always needs the user's explicit approval)") and exits 1, although
    nothing would change. An agent retrying after a timeout is sent to ask the user to approve a
    no-op. Expected: exit 0, the entry byte-identical, and no approval request."""
    _init(ws, run_script)
    args = ("memory", "remember", "--skill", "news", "--topic", "habit", "--text", "Reads headlines at 7.")
    assert run_script(*args, env=ENV).code == 0
    path = ws / "memory/tier2-internal/news_habit.md"
    before = path.read_bytes()
    r = run_script(*args, env=ENV)
    assert path.read_bytes() == before
    assert r.code == 0, (r.code, r.err[-300:])
    assert "request_approval" not in r.out + r.err


# --- export --out: a writing command outside the promises ---------------------------------------

def test_export_out_does_not_replace_a_workspace_file(ws, run_script):
    """Developer guide: "Users' workspace files are precious: never lose a byte. Every change to a
    user's file is backed up first". ``memory.py export --approved --out MEMORY.md`` replaces the
    workspace's MEMORY.md (its lessons) with the JSON export: no backup is made, so ``init
    --restore`` cannot bring the lessons back. (``report --html`` refuses any file inside the
    workspace.) Expected: exit 2, one line, MEMORY.md byte-identical."""
    _init(ws, run_script)
    assert run_script("memory", "lesson", "Check the backup before deploying.", "--approved", env=ENV).code == 0
    memory_md = ws / "MEMORY.md"
    before = memory_md.read_bytes()
    r = run_script("memory", "export", "--approved", "--out", str(memory_md), env=ENV)
    assert "Traceback" not in r.err
    assert memory_md.read_bytes() == before
    assert r.code == 2, (r.code, r.out, r.err)


def test_export_out_does_not_replace_an_existing_file_silently(ws, run_script, tmp_path):
    """The same outside the workspace: ``export --out notes.txt`` replaces an existing user file
    that is not an export, with exit 0 and no word of it (``report --html`` asks for
    ``--overwrite`` in that case). Expected: a refusal (non-zero exit) naming the file, the file
    byte-identical."""
    _init(ws, run_script)
    other = tmp_path / "notes.txt"
    other.write_text("my precious notes\n", encoding="utf-8")
    r = run_script("memory", "export", "--approved", "--out", str(other), env=ENV)
    assert other.read_text(encoding="utf-8") == "my precious notes\n"
    assert r.code != 0 and "notes.txt" in r.err
