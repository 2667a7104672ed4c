"""Attack round 19 (quick, tatk19): a fresh attacker against main at bb5a129.

Targets the paths that landed in round 18 and their promises (references/tiers.md, references/formats.md,
README "Backups"): init's lock before its key, backup retention's only-copy rule, cleanup's journal
``done`` record, the refusal of an id two knowledge files share, approval marks and quarantine. Each test
plays one attack that got through, against the real scripts on real files in a temporary workspace, and
asserts the promised behaviour. Strict xfails until fixed.

Found (tests here):
1. (high) A rollback overwrites a user's file edited after the kill: init killed after it rewrote AGENTS.md,
   the user (or the agent) adds a line to AGENTS.md, and the next writing command (a hook's upkeep,
   ``memory.py write``) puts init's copy back; the added line is in no file and no backup. The same when init
   is killed after its backup was marked complete (only the journal's unlink left): the complete backup's
   ``after.json`` says the file changed since, and the rollback deletes it anyway.
2. (medium) ``forget ID --approved`` of the id recall prints for an archived knowledge entry also deletes the
   live entry learned again under the same key (same id): two knowledge files hold the id, and forget acts on
   both instead of refusing (tatk18 6's rule covers only two live files).
3. (high) A forged ``forward`` plan in a journal beside a *finished* forget's or purging cleanup's backup
   (forget: ``paths: ["AGENTS.md", "MEMORY.md"]``; purge: a needle of their text) is finished by the next
   command: init's copies of the user's AGENTS.md and MEMORY.md, the only ones, are erased from every backup.
   The plan's checks look at field types and the backup's reason, not at what that backup did.
4. (medium) Two quarantined T2 entries of one skill and topic (the same entry remembered again and quarantined
   again) share an id: ``status`` lists the id twice, and ``forget``/``unquarantine``/``show`` act on the
   older file without a word, where tatk18 6 refuses an id two files hold, naming both.
5. (low) A cleanup killed after its purge leaves a journal whose ``done`` record the re-run reports: its
   ``erased`` names are taken as written (only the counts are checked), so a name holding a token, or
   ``../../etc/passwd``, comes out in full in ``cleanup --json`` (``erased``).
6. (high) A full disk at the very end of a change: ``learn`` (``lesson``, ``edit``, ``remember``, ``init
   --restore``) writes the note and ``after.json``, then staging the backup's ``manifest.json`` as complete
   fails (ENOSPC). The command prints ``updated ...`` and exits 0, but its journal stays; the next command
   (any hook's upkeep) "rolls back an interrupted learn" and the fact the user was told is stored is gone.
   Found on a 600 KiB tmpfs with 16-19 KiB free; the test injects the same ENOSPC at that step (no mount
   needed).
7. (medium) A daily section copied by hand into another day's note keeps its ``<!-- id: -->`` comment: recall
   prints the copy with that id, and ``forget ID --approved`` removes the *other* section (the original, its
   note deleted) and leaves the copy the user asked to forget. Ids are unique within a file only; the tatk18 6
   refusal covers knowledge files.
8. (low) ``cleanup --dry-run`` ("list what would be done") says nothing of backup retention: the backups the
   real run removes are not listed and ``backups_kept_only_copy`` is empty, though ``backups.retention`` has a
   dry-run mode.
9. (low) A cleanup killed after its purge whose journal is rolled back by another command first (``memory.py
   write``: "its purge of 1 T2 entry stays done"): the done record goes with the journal, and the next cleanup
   logs ``0 deleted``; ``cleanup.log`` never records that purge.

Kinds (severity): rollback over what the user wrote since (1, high); forged forward plans reach user files'
only copies (3, high); a finished change left open by a full disk, then undone (6, high); an id two files hold
is acted on, not refused (2, 4, 7, medium); the done record read as trusted or lost (5, 9, low); dry run
silent on retention (8, low).

Tried and held (no test here): init's lock (Ctrl-C while init waits for a held lock: no key, nothing but the
lock file; two inits of two workspaces sharing one HOME at once, 4 runs: one key, both stores record it);
retention (config values out of range, strings, Infinity, 1e308: one-line refusals; symlinks to outside
folders planted as a removed backup's files/, extra entries and a link beside after.json: outside intact;
backups from the future (MEMORY_MANAGER_NOW ahead, then back): kept, bare --restore still picks the newest by
order; code read: AGENTS.md as a symlink or FIFO counts as the only copy); done record: wrong types, floats,
booleans are ignored (code read), a 4,200-digit count is reported as written (a 4 KB log line, not filed);
forget of a T2 entry killed at each of its 29 steps: no plain text anywhere after the kill or the re-run;
crypt encrypt --file killed at each of 18 steps: old or new, then encrypted by the re-run; six concurrent
learn of one key and six concurrent write: every line kept; a FIFO as a backup's after.json:
list/restore/status/cleanup answer; ENOSPC on a 600 KiB tmpfs at 1-2 KiB steps for learn, edit, forget,
remember, lesson, cleanup, init --lang zh, init --restore: originals byte-identical on every failure (init
stages all), forget names what it changed (noticed, not filed: a failed learn/edit/remember leaves its
journal, and the next command says it "rolled back an interrupted learn" that changed nothing); approval marks
kept through cleanup's month merge and through reseal of a keyless store's v2:local marks.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

DAY = {"MEMORY_MANAGER_NOW": "2026-01-01T10:00:00+00:00", "LANG": "en_US.UTF-8"}
LATE = {"MEMORY_MANAGER_NOW": "2026-12-01T10:00:00+00:00", "LANG": "en_US.UTF-8"}
USER_LINE = "- never force-push to main (added by hand after the crash)\n"


def _script(name: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``scripts/<name>.py`` (the test's HOME and workspace) with extra ``env``."""
    return subprocess.run([sys.executable, str(ROOT / "scripts" / f"{name}.py"), *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=120)


def _steps(ws: Path, tmp_path: Path, *args: str) -> list[str]:
    """The file-system steps of ``init *args`` on a copy of ``ws`` (MEMORY_MANAGER_STEP_LOG), by label."""
    import shutil
    probe = tmp_path / "probe"
    shutil.copytree(ws, probe)
    log = tmp_path / "steps.log"
    r = _script("init", *args, "-w", str(probe), env={**DAY, "MEMORY_MANAGER_STEP_LOG": str(log),
                                                         "XDG_CONFIG_HOME": str(tmp_path / "probe-cfg")})
    assert r.returncode == 0, r.stderr
    return [line.split(" ", 1)[1].replace(str(probe), str(ws)) for line in log.read_text().splitlines()]


def _everything(root: Path) -> bytes:
    """Every file's bytes under ``root`` joined (to look for a line anywhere, backups included)."""
    return b"\n".join(p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink())


# ------------------------------------------------------------ 1: a rollback destroys what the user wrote after the kill

@pytest.mark.parametrize("kill_before", ["backup-entry memory/.state", "unlink"])
def test_a_rollback_keeps_what_the_user_wrote_after_the_kill(ws, tmp_path, kill_before):
    (ws / "AGENTS.md").write_text("# My rules\n\n- be brief\n", encoding="utf-8")
    (ws / "MEMORY.md").write_text("Prefers tea.\n", encoding="utf-8")
    args = ("--yes", "--lang", "en", "--no-hooks")
    labels = _steps(ws, tmp_path, *args)
    step = next(n for n, label in enumerate(labels, 1) if label.startswith(kill_before))
    assert "replace " + str(ws / "AGENTS.md") in labels[:step - 1]  # AGENTS.md is init's by then
    r = _script("init", *args, env={**DAY, "MEMORY_MANAGER_CRASH_AT": str(step)})
    assert r.returncode == -9
    assert list((ws / ".memory-backup").glob(".open-*"))
    with (ws / "AGENTS.md").open("a", encoding="utf-8") as fh:  # the agent edits its rules file by hand
        fh.write(USER_LINE)
    w = _script("memory", "write", "--topic", "release", "--cause", "c", "--change", "d", "--todo", "e", env=DAY)
    assert w.returncode == 0, w.stderr
    # Every byte the user wrote is still somewhere: in AGENTS.md, or in a backup a restore can use.
    assert USER_LINE.encode() in _everything(ws)


# ------------------------------------------------------------ 2: forget of an archived id deletes the live entry too

def test_forget_of_an_archived_id_never_reaches_the_entry_learned_again(ws, run_script):
    # Fixed by giving the entry learned again a fresh id (references/formats.md "Ids": the key's next id
    # when an archived entry holds its first); an id two files hold from before is refused
    # (tests/scripts/test_forget_shared_id.py).
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=DAY).code == 0
    assert run_script("memory", "learn", "foo", "--text", "The build server is blue.", env=DAY).code == 0
    p = run_script("memory", "prune", env=LATE)
    assert p.code == 0, p.err
    archived = ws / "memory/archive/2026-01/knowledge-foo.md"
    assert archived.exists()
    assert run_script("memory", "learn", "foo", "--text", "The build server is green now.", env=LATE).code == 0
    hits = json.loads(run_script("memory", "recall", "blue", "--json", env=LATE).out)
    ident = hits["hits"][0]["id"] if isinstance(hits, dict) else hits[0]["id"]
    live = (ws / "memory/knowledge/foo.md").read_text(encoding="utf-8")
    assert f"id: {ident}" not in live and f"id: {ident}" in archived.read_text(encoding="utf-8")
    f = run_script("memory", "forget", ident, "--approved", env=LATE)
    # forget deletes the entry the user named (the archived one), never the live one learned again.
    assert f.code == 0, f.err
    assert (ws / "memory/knowledge/foo.md").read_text(encoding="utf-8") == live
    assert not archived.exists()


# ------------------------------------------------------------ 3: a forged forward plan erases the user's only copies

AGENTS = "# My rules\n\n- be brief\n"
MEMORY = "Prefers tea.\n"


def _plan_on_a_finished_backup(ws: Path, run_script, kind: str) -> str:
    """init over the user's AGENTS.md and MEMORY.md, then a finished ``forget`` or purging ``cleanup``;
    return that command's backup id (complete, journal gone)."""
    from .trust_r4_common import NOW, TOKEN, _plant_t2

    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    (ws / "MEMORY.md").write_text(MEMORY, encoding="utf-8")
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=NOW).code == 0
    if kind == "forget":
        assert run_script("memory", "learn", "deploy", "--text", "Tag first.", env=NOW).code == 0
        f = run_script("memory", "forget", "deploy", "--approved", env=NOW)
        assert f.code == 0, f.err
    else:
        _plant_t2(ws, "s", "a", "alpha fact " + TOKEN)
        c = run_script("cleanup", "--json", env=NOW)
        assert c.code == 0 and json.loads(c.out)["deleted"] == 1, c.out + c.err
    listed = json.loads(run_script("init", "--list-backups", "--json").out)["backups"]
    last = listed[-1]
    assert last["reason"].startswith(kind) and not list((ws / ".memory-backup").glob(".open-*"))
    return last["id"]


@pytest.mark.parametrize("kind", ["forget", "cleanup"])
def test_a_forged_forward_plan_does_not_erase_the_users_only_copies(ws, run_script, kind):
    from .trust_r4_common import NOW

    ident = _plan_on_a_finished_backup(ws, run_script, kind)
    before = _everything(ws / ".memory-backup")
    assert AGENTS.encode() in before and MEMORY.encode() in before  # init's copies, before the forged plan
    if kind == "forget":
        plan = {"kind": "forget", "ident": None, "needles": [], "paths": ["AGENTS.md", "MEMORY.md"], "result": {}}
    else:
        plan = {"kind": "purge", "audit_known": {}, "items": [
            {"ident": "t-0000000000", "skill": "s", "topic": "zz", "file": "memory/tier2-internal/s_zz.md",
             "needles": ["be brief", "Prefers tea."], "audit_hashes": [], "audit_refs": [], "drop_approvals": []}]}
    journal = ws / ".memory-backup" / f".open-{ident}"
    journal.write_text(json.dumps({"id": ident, "pid": 1, "reason": kind, "forward": plan}), encoding="utf-8")
    journal.chmod(0o600)
    s = run_script("memory", "status", env=NOW)  # read-only: says what the next writer does
    assert "left a plan to finish it that is refused" in s.out + s.err, s.out + s.err
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e", env=NOW)
    assert w.code == 0, w.err
    # Refused whole, in one line (fix19p), and the journal is gone.
    # Beside a finished (closed) backup the plan is not even read since round 15 (a plan is finished once,
    # for a change still open): the journal goes without a word; a plan beside an open backup is refused
    # in one line (fix19p).
    assert [line for line in w.err.splitlines() if "refused the plan" in line and "nothing was erased" in line] \
        or "interrupted" not in w.err, w.err
    assert not list((ws / ".memory-backup").glob(".open-*"))
    # What the user wrote before init is still in a backup: init --restore can put it back.
    held = _everything(ws / ".memory-backup")
    assert AGENTS.encode() in held and MEMORY.encode() in held


# ------------------------------------------------------------ 4: two quarantined entries share an id

def _quarantine_twice(ws: Path, run_script) -> list[str]:
    """The same T2 entry remembered (an e-mail, approved), its mark struck (a claim), quarantined; twice."""
    from .trust_r4_common import EMAIL, NOW

    for text in (f"write to {EMAIL} for invoices", f"write to {EMAIL} for refunds"):
        r = run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", text, "--approved", env=NOW)
        assert r.code == 0, r.err
        entry = ws / "memory/tier2-internal/s_t.md"
        entry.write_text("".join(line for line in entry.read_text(encoding="utf-8").splitlines(keepends=True)
                                 if not line.startswith("approval:")), encoding="utf-8")
        c = run_script("cleanup", env=NOW)
        assert c.code == 0, c.err
    held = sorted(p.name for p in (ws / "memory/.quarantine").glob("*.md"))
    assert len(held) == 2, held
    return held


@pytest.mark.parametrize("verb", ["forget", "unquarantine", "show"])
def test_an_id_two_quarantined_entries_share_is_refused(ws, run_script, verb):
    from .trust_r4_common import NOW

    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=NOW).code == 0
    held = _quarantine_twice(ws, run_script)
    status = run_script("memory", "status", env=NOW).out
    ident = "t-" + held[0].split("-")[1].split(".")[0]
    assert status.count(ident) == 2  # listed twice, one id
    before = {p.name: p.read_bytes() for p in (ws / "memory").rglob("*") if p.is_file() and ".state" not in p.parts
              and ".cache" not in p.parts}
    r = run_script("memory", verb, ident, "--approved", env=NOW)
    # tiers.md (tatk18 6): an id two files hold is refused in one line naming both, exit 2, nothing changed.
    assert r.code == 2, r.out
    assert all(name in r.err for name in held), r.err
    after = {p.name: p.read_bytes() for p in (ws / "memory").rglob("*") if p.is_file() and ".state" not in p.parts
             and ".cache" not in p.parts}
    assert after == before


# ------------------------------------------------------------ 5: a done record's names echoed as written

def test_a_done_records_names_are_not_echoed(tmp_path):
    from tests.faults.harness import run_forked
    from tests.faults.test_fault16_purge import _killed_at, _setup

    from .trust_r4_common import TOKEN

    env, template, _reference, labels = _setup(tmp_path)
    step = next(n for n, label in enumerate(labels, 1)
                if label.startswith("replace ") and label.endswith("memory/.state/cleanup.log"))
    ws = _killed_at(tmp_path, template, env, step)
    journal, = (ws / ".memory-backup").glob(".open-*")
    doc = json.loads(journal.read_text(encoding="utf-8"))
    assert doc["done"]["kind"] == "purge"  # the genuine record of the purge it did
    doc["done"]["erased"] = {TOKEN: 1, "../../etc/passwd": 1}
    journal.write_text(json.dumps(doc), encoding="utf-8")
    r = subprocess.run([sys.executable, str(ROOT / "scripts/cleanup.py"), "-w", str(ws), "--json"], capture_output=True,
                       text=True, env={**os.environ, **env}, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["deleted"] == 1
    assert TOKEN[8:] not in r.stdout + r.stderr


# ------------------------------------------------------------ 6: a full disk while closing a finished change

@pytest.mark.parametrize("verb", ["learn", "lesson", "edit", "remember", "restore"])
def test_a_change_that_said_done_is_not_rolled_back_after_a_full_disk(ws, run_script, monkeypatch, verb):
    import errno

    from memory_manager import fsio
    from tests.faults.harness import run_forked

    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=DAY).code == 0
    assert run_script("memory", "learn", "deploy", "--text", "Tag first.", env=DAY).code == 0
    real, seen = fsio.step, []

    def disk_full_at_the_last_manifest(label: str) -> None:
        seen.append(label)
        if label.startswith("stage ") and label.endswith("/manifest.json") \
                and any(x.startswith("replace ") and x.endswith("/after.json") for x in seen):
            raise OSError(errno.ENOSPC, "No space left on device")  # what the tmpfs run hit here
        real(label)

    monkeypatch.setattr(fsio, "step", disk_full_at_the_last_manifest)
    args, target = {
        "learn": (["learn", "deploy", "--text", "NEWFACT ships on Tuesdays."], "memory/knowledge/deploy.md"),
        "lesson": (["lesson", "NEWFACT ships on Tuesdays."], "MEMORY.md"),
        "edit": (["edit", "deploy", "--text", "NEWFACT: tag, then deploy.", "--approved"],
                 "memory/knowledge/deploy.md"),
        "remember": (["remember", "--skill", "s", "--topic", "u", "--text", "NEWFACT likes tea"],
                     "memory/tier2-internal/s_u.md"),
        "restore": (["--restore", "--yes"], "memory/knowledge/deploy.md"),  # undoes `learn deploy`
    }[verb]
    target = ws / target

    def stored() -> bool:
        if verb == "remember":  # sealed: the entry file is the fact
            return target.exists()
        if verb == "restore":
            return not target.exists()
        return target.exists() and "NEWFACT" in target.read_text(encoding="utf-8")

    script = "init" if verb == "restore" else "memory"
    assert run_forked(script, [*args, "-w", str(ws)], dict(DAY)) == 0  # it said the fact is stored
    assert stored()
    monkeypatch.setattr(fsio, "step", real)
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e", env=DAY)
    assert w.code == 0, w.err
    assert stored(), w.err


# ------------------------------------------------------------ 7: a daily section copied into another note keeps its id

def test_forget_of_a_daily_id_two_notes_hold_is_refused(ws, run_script):
    day1 = {**DAY, "MEMORY_MANAGER_NOW": "2026-11-28T12:00:00+00:00"}
    day2 = {**DAY, "MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=day1).code == 0
    assert run_script("memory", "write", "--topic", "release", "--cause", "old build broke", "--change", "tagged v2",
                      "--todo", "ship", env=day1).code == 0
    assert run_script("memory", "write", "--topic", "standup", "--cause", "x", "--change", "y", "--todo", "z",
                      env=day2).code == 0
    first = ws / "memory/daily/2026-11-28.md"
    section = first.read_text(encoding="utf-8")[first.read_text(encoding="utf-8").index("## "):]
    second = ws / "memory/daily/2026-11-29.md"
    with second.open("a", encoding="utf-8") as fh:  # the user copies the section, and changes its text
        fh.write(section.replace("tagged v2", "tagged v3 with the staging password"))
    hits = json.loads(run_script("memory", "recall", "staging password", "--json", env=day2).out)
    hit = (hits["hits"] if isinstance(hits, dict) else hits)[0]
    assert hit["path"].endswith("2026-11-29.md")
    before = (first.read_bytes(), second.read_bytes())
    f = run_script("memory", "forget", hit["id"], "--approved", env=day2)
    # As for knowledge (tatk18 6): an id two files hold is refused, naming both, nothing changed.
    assert f.code == 2, f.out
    assert (first.read_bytes(), second.read_bytes()) == before


# ------------------------------------------------------------ 8: cleanup --dry-run is silent on backup retention

def test_cleanup_dry_run_lists_what_retention_would_do(ws, run_script):
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    (ws / "MEMORY.md").write_text(MEMORY, encoding="utf-8")
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=DAY).code == 0
    day = {**DAY, "MEMORY_MANAGER_NOW": "2026-01-02T10:00:00+00:00"}
    for n in (1, 2, 3, 4):
        assert run_script("memory", "learn", f"k{n}", "--text", f"fact {n}", env=day).code == 0
    (ws / "memory/memory-manager.json").write_text(
        json.dumps({"language": "en", "backups": {"keep_last": 2, "min_age_days": 1, "max_age_days": 30}}),
        encoding="utf-8")

    def retention(doc: dict) -> tuple[list[str], dict]:
        return ([a["path"] for a in doc["actions"] if a.get("step") == "backup-retention"],
                doc["backups_kept_only_copy"])

    dry = json.loads(run_script("cleanup", "--dry-run", "--json", env=LATE).out)
    real = json.loads(run_script("cleanup", "--json", env=LATE).out)
    assert retention(real)[0] and retention(real)[1]  # the real run removes two and keeps init's
    assert retention(dry) == retention(real)


# ------------------------------------------------------------ 9: a done record lost to another command's rollback

def test_a_purge_rolled_back_by_another_command_is_still_logged(tmp_path):
    from tests.faults.harness import run_forked
    from tests.faults.test_fault16_purge import _killed_at, _setup

    env, template, reference, labels = _setup(tmp_path)
    step = next(n for n, label in enumerate(labels, 1)
                if label.startswith("replace ") and label.endswith("memory/.state/cleanup.log"))
    ws = _killed_at(tmp_path, template, env, step)
    write = ["write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e", "-w", str(ws)]
    assert run_forked("memory", write, env) == 0
    assert not list((ws / ".memory-backup").glob(".open-*"))
    assert run_forked("cleanup", ["-w", str(ws)], env) == 0
    want = (reference / "memory/.state/cleanup.log").read_text(encoding="utf-8")
    assert "1 deleted" in want
    assert "1 deleted" in (ws / "memory/.state/cleanup.log").read_text(encoding="utf-8")
