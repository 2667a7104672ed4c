"""The new-user walk-through, round 4 (notes/walkthrough-r4.md): each item as a real run.

Every test runs the scripts on real files in a temporary workspace and checks
exact results. The item number of the walk-through is in each test's name.
"""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

AGENTS = "# AGENTS.md\n\nBe kind.\n"
NOW = {"MEMORY_MANAGER_NOW": "2026-11-20T10:00:00"}


def snapshot(root: Path) -> dict[str, tuple]:
    """Every path under ``root`` with its kind, permission bits and bytes (symlinks by target)."""
    out: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            out[rel] = ("link", os.readlink(path))
        elif stat.S_ISDIR(info.st_mode):
            out[rel] = ("dir", stat.S_IMODE(info.st_mode))
        else:
            out[rel] = ("file", stat.S_IMODE(info.st_mode), path.read_bytes())
    return out


def _setup(ws: Path, run_script, *extra: str) -> None:
    """An English workspace set up by init (hooks and plugin installed unless ``extra`` says otherwise)."""
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    result = run_script("init", "--yes", "--lang", "en", "--json", *extra)
    assert result.code == 0, result.err


# ---------------------------------------------------------------- item 1

def test_item1_uninstall_hooks_dry_run_changes_nothing(ws, run_script):
    _setup(ws, run_script)
    assert (ws / "hooks").is_dir() and (ws / ".openclaw" / "extensions" / "complex-memory-manager").is_dir()
    before = snapshot(ws)

    text = run_script("init", "--uninstall-hooks", "--dry-run")
    assert text.code == 0, text.err
    assert snapshot(ws) == before
    assert text.err == ""  # no "without --yes is deprecated" warning for a preview
    assert "would remove hooks/" in text.out
    assert "would remove .openclaw/extensions/complex-memory-manager/index.js" in text.out
    assert text.out.rstrip().endswith("dry run: nothing was changed")

    doc = run_script("init", "--uninstall-hooks", "--dry-run", "--json")
    assert doc.code == 0, doc.err
    plan = json.loads(doc.out)
    assert plan["dry_run"] is True
    assert ".openclaw/extensions/complex-memory-manager/index.js" in plan["would_remove"]
    assert any(p.startswith("hooks/") for p in plan["would_remove"])
    assert snapshot(ws) == before

    # The real uninstall removes exactly what the preview listed.
    done = run_script("init", "--uninstall-hooks", "--yes", "--json")
    assert done.code == 0, done.err
    removed = json.loads(done.out)
    assert sorted(removed["hooks"]["changed"] + removed["plugin"]["changed"]) == sorted(plan["would_remove"])
    # And a preview with nothing installed says so.
    again = run_script("init", "--uninstall-hooks", "--dry-run")
    assert again.code == 0 and "no hooks of this bundle are installed" in again.out


def _write_args(ws: Path, topic: str) -> list[str]:
    return [sys.executable, str(ROOT / "scripts" / "memory.py"), "-w", str(ws), "write", "--topic", topic,
            "--change", "half written"]


def _interrupted_write(ws: Path, tmp_path: Path) -> None:
    """Leave a write killed just after it replaced the day's note: a journal for the next writer to roll back.

    The step to kill at is found by a run on a copy (``MEMORY_MANAGER_STEP_LOG``).
    """
    import shutil

    copy, log = tmp_path / "copy", tmp_path / "steps.log"
    shutil.copytree(ws, copy, symlinks=True)
    subprocess.run(_write_args(copy, "killed"), env=dict(os.environ, MEMORY_MANAGER_STEP_LOG=str(log), **NOW),
                   capture_output=True, check=True)
    steps = log.read_text(encoding="utf-8").splitlines()
    n = next(int(line.split()[0]) for line in steps if line.split()[1] == "replace" and "/memory/daily/" in line)
    proc = subprocess.run(_write_args(ws, "killed"), env=dict(os.environ, MEMORY_MANAGER_CRASH_AT=str(n + 1), **NOW),
                          capture_output=True)
    assert proc.returncode == -9
    assert any(p.name.startswith(".open-") for p in (ws / ".memory-backup").iterdir())
    assert "killed" in (ws / "memory" / "daily" / "2026-11-20.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("interrupted", [False, True], ids=["clean", "journal-left"])
def test_item1_every_dry_run_leaves_the_workspace_bytes_alone(ws, run_script, interrupted, tmp_path):
    _setup(ws, run_script)
    for day, topic in (("2026-11-01", "Old note"), ("2026-11-02", "Another old note"), ("2026-11-20", "Today")):
        result = run_script("memory", "write", "--topic", topic, "--change", f"something on {day}",
                            env={"MEMORY_MANAGER_NOW": f"{day}T09:00:00"})
        assert result.code == 0, result.err
    first = json.loads(run_script("init", "--list-backups", "--json").out)["backups"][0]["id"]
    if interrupted:
        _interrupted_write(ws, tmp_path)
    before = snapshot(ws)
    previews = [
        ("init", "--dry-run"),
        ("init", "--dry-run", "--lang", "zh"),
        ("init", "--uninstall-hooks", "--dry-run"),
        ("init", "--restore", "--dry-run"),
        ("init", "--restore", first, "--dry-run"),
        ("memory", "prune", "--dry-run"),
        ("cleanup", "--dry-run"),
        ("cleanup", "--dry-run", "--purge-archive"),
    ]
    for args in previews:
        for form in ((), ("--json",)):
            result = run_script(*args, *form, env=NOW)
            assert result.code in (0, 1), (args, form, result.err)
            assert "Traceback" not in result.err
            if form:
                json.loads(result.out)  # one document
            assert snapshot(ws) == before, (args, form)


# ---------------------------------------------------------------- items 2 and 16

INTERRUPTED = {"error": "interrupted: nothing was changed", "kind": "interrupted"}
FINISHING = "interrupt: finishing the change under way first"


def _script(name: str) -> list[str]:
    return [sys.executable, str(ROOT / "scripts" / f"{name}.py")]


def _steps(cmd: list[str], ws: Path, tmp_path: Path) -> int:
    """How many file-system steps ``cmd`` takes on a copy of ``ws`` (``MEMORY_MANAGER_STEP_LOG``)."""
    import shutil

    copy, log = tmp_path / "count", tmp_path / "count.log"
    shutil.rmtree(copy, ignore_errors=True)
    log.unlink(missing_ok=True)
    shutil.copytree(ws, copy, symlinks=True)
    proc = subprocess.run([a if a != str(ws) else str(copy) for a in cmd],
                          env=dict(os.environ, MEMORY_MANAGER_STEP_LOG=str(log), **NOW), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return len(log.read_text(encoding="utf-8").splitlines())


def _check_interrupted_run(proc, ws: Path, before: dict, as_json: bool, run_script, signalled: bool = True) -> str:
    """The promise after a Ctrl-C: finished and said so, or nothing changed and said so; returns which.

    ``signalled`` False: the command had already exited when the test meant to send the signal.
    """
    assert "Traceback" not in proc.stderr, proc.stderr
    if as_json:
        doc = json.loads(proc.stdout)  # exactly one document, whatever happened
    assert not [p for p in (ws / ".memory-backup").iterdir() if p.name.startswith(".open-")], "journal left open"
    if proc.returncode == 130:
        assert snapshot(ws) == before
        if as_json:
            assert doc == INTERRUPTED
        else:
            assert proc.stderr.endswith("interrupted: nothing was changed\n")
        outcome = "nothing changed"
    else:
        assert proc.returncode == 0, proc.stderr
        if signalled and proc.stderr:
            # A signal that lands while the change is under way is answered with this line; one that lands
            # after the command's last write (while the interpreter exits) finds nothing under way: exit 0,
            # nothing said, the write finished (a quiet machine ends `write` in about the 0.5 s delay).
            assert FINISHING in proc.stderr
        assert snapshot(ws) != before
        if as_json:
            assert "error" not in doc
        outcome = "finished"
    def kept(snap: dict) -> dict:  # the derived cache aside (status may build it)
        return {k: v for k, v in snap.items() if not k.startswith("memory/.cache")}

    after = kept(snapshot(ws))
    status = run_script("memory", "status", env=NOW)  # the next command rolls nothing back
    assert status.code == 0 and "rolled back" not in status.err, status.err
    assert kept(snapshot(ws)) == after
    return outcome


@pytest.mark.parametrize("verb", [
    ("memory", "write", "--topic", "Interrupted", "--change", "kept or not", "--json"),
    ("memory", "write", "--topic", "Interrupted", "--change", "kept or not"),
    ("memory", "lesson", "Interrupts never lose a note.", "--json"),
    ("memory", "prune", "--json"),
    ("init", "--yes", "--lang", "zh", "--no-hooks", "--json"),
], ids=["write-json", "write-text", "lesson", "prune", "init"])
def test_item2_ctrl_c_at_every_step_of_a_write_finishes_it(ws, run_script, tmp_path, verb):
    import shutil

    _setup(ws, run_script, "--no-hooks")
    for day in ("2026-11-01", "2026-11-20"):
        assert run_script("memory", "write", "--topic", f"On {day}", "--change", "a line",
                          env={"MEMORY_MANAGER_NOW": f"{day}T09:00:00"}).code == 0
    pristine = tmp_path / "pristine"
    shutil.copytree(ws, pristine, symlinks=True)
    cmd = _script(verb[0]) + ["-w", str(ws), *verb[1:]]
    total = _steps(cmd, ws, tmp_path)
    assert total >= 3
    outcomes = set()
    # Every step of the JSON write; the others at their first, middle and last steps (the machine is shared).
    for n in (range(1, total + 1) if verb[1] == "write" and "--json" in verb else sorted({1, total // 2, total})):
        shutil.rmtree(ws)
        shutil.copytree(pristine, ws, symlinks=True)
        before = snapshot(ws)
        proc = subprocess.run(cmd, env=dict(os.environ, MEMORY_MANAGER_SIGINT_AT=str(n), **NOW),
                              capture_output=True, text=True)
        outcomes.add(_check_interrupted_run(proc, ws, before, "--json" in verb, run_script))
    # Every step of a write happens under the writer lock, after the point where stopping would change nothing.
    assert outcomes == {"finished"}


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_item2_ctrl_c_while_waiting_for_the_lock_changes_nothing(ws, run_script, as_json):
    import signal
    import time

    from filelock import FileLock

    _setup(ws, run_script, "--no-hooks")
    before = snapshot(ws)
    cmd = _script("memory") + ["-w", str(ws), "write", "--topic", "Waiting", "--change", "never written"]
    with FileLock(str(ws / ".memory-backup" / ".lock")):
        proc = subprocess.Popen(cmd + (["--json"] if as_json else []), env=dict(os.environ, **NOW),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(3)  # imports done; it waits for the lock this test holds
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    result = subprocess.CompletedProcess(cmd, 130, out, err)
    assert _check_interrupted_run(result, ws, before, as_json, run_script) == "nothing changed"
    if not as_json:
        assert out == "" and err == "interrupted: nothing was changed\n"


@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5, 0.8])
def test_item16_ctrl_c_while_starting_up_is_one_line_never_a_traceback(ws, run_script, delay):
    """Any moment from the script's first line: exit 130 and the one line (or document), or the finished write."""
    import signal
    import time

    _setup(ws, run_script, "--no-hooks")
    before = snapshot(ws)
    cmd = _script("memory") + ["-w", str(ws), "write", "--topic", "Early", "--change", "line", "--json"]
    proc = subprocess.Popen(cmd, env=dict(os.environ, **NOW), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(delay)
    done_before = proc.poll() is not None  # on a quiet machine the write may finish before the signal
    if not done_before:
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    result = subprocess.CompletedProcess(cmd, proc.returncode, out, err)
    _check_interrupted_run(result, ws, before, True, run_script, signalled=not done_before)


def test_item16_every_script_installs_the_early_handler_first():
    """The inline handler of each script (before any import) says what memory_manager.interrupts says."""
    from memory_manager import interrupts

    for name in ("cleanup", "crypt", "detect", "doctor", "gate", "init", "maintain", "memory", "privacy_audit"):
        lines = (ROOT / "scripts" / f"{name}.py").read_text(encoding="utf-8").splitlines()
        code = [line for line in lines if line.strip() and not line.startswith("#")]
        start = 0
        if code[0].startswith('"""'):  # the module docstring comes first
            start = next(i for i, line in enumerate(code) if i and line.rstrip().endswith('"""')) + 1 \
                if not (code[0].count('"""') == 2) else 1
        assert code[start] == "import _signal, os, sys  # noqa: E401", name
        assert code[start + 1].startswith("_signal.signal(_signal.SIGINT,"), name
        # Only when run as a script: a test harness that imports it keeps pytest's own Ctrl-C.
        assert code[start + 2].startswith('    if __name__ == "__main__" else None'), name
        handler = code[start + 1].rstrip(" \\")  # the line continues with the __main__ condition
        assert json.dumps(INTERRUPTED).encode() in handler.encode().decode("unicode_escape").encode(), name
        assert interrupts.MESSAGE in code[start + 1], name


# ---------------------------------------------------------------- item 3

def test_item3_export_carries_the_archive_and_the_lessons_and_import_brings_them_back(ws, run_script, tmp_path):
    _setup(ws, run_script, "--no-hooks")
    old = {"MEMORY_MANAGER_NOW": "2026-11-01T09:00:00"}
    assert run_script("memory", "write", "--topic", "Team standup notes", "--change", "moved to 10:00",
                      env=old).code == 0
    assert run_script("memory", "lesson", "Always benchmark before and after an index change.", env=NOW).code == 0
    assert run_script("memory", "lesson", "Freeze deploys on Fridays.", "--kind", "decision", env=NOW).code == 0
    pruned = run_script("memory", "prune", "--json", env={"MEMORY_MANAGER_NOW": "2026-11-30T09:00:00"})
    assert pruned.code == 0 and len(json.loads(pruned.out)["moved"]) == 1, pruned.out
    archived = sorted((ws / "memory" / "archive").rglob("*.md"))
    assert [p.relative_to(ws / "memory" / "archive").as_posix() for p in archived] == ["2026-11/daily-2026-11-01.md"]

    out = tmp_path / "export.json"
    text = run_script("memory", "export", "--approved", "--out", str(out), env=NOW)
    assert text.code == 0, text.err
    assert text.out == (f"exported 0 daily, 0 knowledge, 0 T1, 0 T2 (encrypted), 1 archive file(s), 2 lesson(s) "
                        f"to {out}\n")
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["version"] == 3
    assert doc["archive"] == [{"file": "2026-11/daily-2026-11-01.md", "text": archived[0].read_text(encoding="utf-8")}]
    assert doc["lessons"] == [
        {"section": "lesson", "line": "- [2026-11-20] Always benchmark before and after an index change."},
        {"section": "decision", "line": "- [2026-11-20] Freeze deploys on Fridays."}]

    # Into a fresh workspace: both come back, the archive byte for byte.
    other = tmp_path / "other"
    other.mkdir()
    (other / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    assert run_script("init", "-w", other, "--yes", "--no-hooks", "--lang", "en").code == 0
    imported = run_script("memory", "-w", other, "import", str(out), "--approved", "--json", env=NOW)
    assert imported.code == 0, imported.err
    result = json.loads(imported.out)
    assert result["counts"]["archive"] == 1 and result["counts"]["lessons"] == 2, result
    assert (other / "memory" / "archive" / "2026-11" / "daily-2026-11-01.md").read_bytes() == archived[0].read_bytes()
    memory_md = (other / "MEMORY.md").read_text(encoding="utf-8")
    assert "- [2026-11-20] Always benchmark before and after an index change.\n" in memory_md
    assert "- [2026-11-20] Freeze deploys on Fridays.\n" in memory_md
    hits = json.loads(run_script("memory", "-w", other, "recall", "standup", "--json", env=NOW).out)
    assert [(h["heading"], h["archived"]) for h in hits["hits"]] == [("[2026-11-01] Team standup notes", True)]

    # A second import adds nothing; an old (version 2) export is still read.
    again = json.loads(run_script("memory", "-w", other, "import", str(out), "--approved", "--json", env=NOW).out)
    assert again["counts"]["archive"] == 0 and again["counts"]["lessons"] == 0
    assert (other / "MEMORY.md").read_text(encoding="utf-8") == memory_md
    v2 = dict(doc, version=2)
    del v2["archive"], v2["lessons"]
    v2_file = tmp_path / "v2.json"
    v2_file.write_text(json.dumps(v2), encoding="utf-8")
    old_doc = run_script("memory", "-w", other, "import", str(v2_file), "--approved", "--json", env=NOW)
    assert old_doc.code == 0 and json.loads(old_doc.out)["problems"] == []


# ---------------------------------------------------------------- item 4

def test_item4_audit_reports_approved_phone_email_and_schedule_as_kept_never_ok(ws, run_script):
    _setup(ws, run_script, "--no-hooks")
    held = run_script("memory", "write", "--topic", "Calls", "--change", "Call Bob back on +1 650 253 0000", env=NOW)
    assert held.code == 1  # the gate holds a possible phone number until the user approves it
    for args in (("write", "--topic", "Calls", "--change", "Call Bob back on +1 650 253 0000", "--approved"),
                 ("write", "--topic", "Gym", "--change", "I go to the gym every Tuesday at 6am", "--approved"),
                 ("learn", "contacts", "--text", "Team lead: bob@acme-corp.io", "--approved")):
        assert run_script("memory", *args, env=NOW).code == 0
    doc = run_script("privacy_audit", "--json", env=NOW)
    assert doc.code == 0, doc.err
    report = json.loads(doc.out)
    rows = {row["id"]: (row["status"], row["findings"], row["approved"]) for row in report["checks"]}
    assert rows["tier3"] == ("approved", 0, 2)
    assert rows["schedules"][0] == "approved" and rows["schedules"][2] >= 1
    assert rows["keys_tokens"] == ("ok", 0, 0)
    assert report["summary"]["approved"] == 2 + rows["schedules"][2]

    text = run_script("privacy_audit", env={**NOW, "COLUMNS": "200"})
    assert text.code == 0
    tier3_row = next(line for line in text.out.splitlines() if "Tier 3 data never touches memory" in line)
    assert "kept with approval" in tier3_row and " ok " not in tier3_row
    schedule_row = next(line for line in text.out.splitlines() if "No fixed personal schedules" in line)
    assert "kept with approval" in schedule_row and " ok " not in schedule_row
    assert "stored because the user approved them (--approved)" in text.out
    assert "memory/daily/2026-11-20.md:3 phone: +1 " in text.out
    assert text.out.rstrip().endswith(f"clean but for {report['summary']['approved']} approved item(s)")

    # The rules the agent reads say the same (AGENTS.md block and references/tiers.md).
    agents = (ws / "AGENTS.md").read_text(encoding="utf-8")
    assert "phone numbers and street addresses are T3 too: store one only when the user says that very value " \
           "may be kept, and then with `--approved`" in agents
    tiers_md = (ROOT / "references" / "tiers.md").read_text(encoding="utf-8")
    assert "**What `--approved` does with T3.**" in tiers_md and "kept with approval" in tiers_md


# ---------------------------------------------------------------- item 5

def test_item5_report_shows_no_internal_markup_no_template_intro_and_a_zh_checklist(ws, run_script, tmp_path):
    _setup(ws, run_script, "--no-hooks")
    assert run_script("memory", "learn", "deploy-freeze", "--text", "No deploys on Fridays.",
                      env={"MEMORY_MANAGER_NOW": "2026-11-18T09:00:00"}).code == 0
    shown = json.loads(run_script("memory", "show", "deploy-freeze", "--json", env=NOW).out)
    ident = shown["id"] if "id" in shown else shown["entries"][0]["id"]
    assert run_script("memory", "edit", ident, "--text", "No deploys from Thursday noon.", "--approved",
                      env={"MEMORY_MANAGER_NOW": "2026-11-27T09:00:00"}).code == 0
    assert run_script("memory", "lesson", "Always benchmark before and after an index change.", env=NOW).code == 0
    assert run_script("privacy_audit", env=NOW).code == 0
    result = run_script("memory", "report", env=NOW)
    assert result.code == 0, result.err
    page = (ws / "memory" / ".cache" / "report.html").read_text(encoding="utf-8")
    assert "cmm-history" not in page and "### 2026-11-18" not in page and "earlier versions, newest first" not in page
    assert "No deploys from Thursday noon." in page and "No deploys on Fridays." not in page
    assert "1 earlier version(s) kept in the file" in page
    assert "Long-term lessons only" not in page  # the template's introduction is no lesson
    assert "Always benchmark before and after an index change." in page
    assert "Tier 3 data never touches memory" in page

    zh = tmp_path / "zh"
    zh.mkdir()
    assert run_script("init", "-w", zh, "--yes", "--no-hooks", "--lang", "zh").code == 0
    assert run_script("privacy_audit", "-w", zh, env=NOW).code == 0
    assert run_script("memory", "-w", zh, "report", env=NOW).code == 0
    page = (zh / "memory" / ".cache" / "report.html").read_text(encoding="utf-8")
    assert "T3 数据从不进入记忆" in page and "Tier 3 data never touches memory" not in page
    assert "No real names, usernames or handles" not in page
    assert "这里只放长期有用的经验" not in page


# ---------------------------------------------------------------- items 6 and 12

def _edited_entry(ws: Path, run_script) -> str:
    assert run_script("memory", "learn", "deploy-freeze", "--text", "No deploys on Fridays.",
                      env={"MEMORY_MANAGER_NOW": "2026-11-18T09:00:00"}).code == 0
    ident = json.loads(run_script("memory", "show", "deploy-freeze", "--json", env=NOW).out)["id"]
    assert run_script("memory", "edit", ident, "--text", "No deploys from Thursday noon.", "--approved",
                      env={"MEMORY_MANAGER_NOW": "2026-11-27T09:00:00"}).code == 0
    return ident


def test_item6_recall_text_marks_a_superseded_version_and_text_edited_after_the_asked_time(ws, run_script):
    _setup(ws, run_script, "--no-hooks")
    ident = _edited_entry(ws, run_script)
    later = {"MEMORY_MANAGER_NOW": "2026-11-30T09:00:00"}
    before = run_script("memory", "recall", "what was the deploy freeze rule before", env=later)
    assert before.code == 0
    import re

    assert re.match(r"1\. 0\.\d{3}  memory/knowledge/deploy-freeze\.md › deploy-freeze \[superseded: the text as "
                    rf"of 2026-11-18, replaced since\]  \[{ident}\]", before.out.splitlines()[0]), before.out
    assert before.out.splitlines()[1] == "   No deploys on Fridays."
    now = run_script("memory", "recall", "deploy freeze", env=later)
    assert "superseded" not in now.out and "edited on" not in now.out and "No deploys from Thursday noon." in now.out

    on_day = run_script("memory", "recall", "deploy freeze on 2026-11-20", env=later)
    assert f"[edited on 2026-11-27, after the asked time: this is the current text; show {ident} --history has " \
           "the earlier one]" in on_day.out
    doc = json.loads(run_script("memory", "recall", "deploy freeze on 2026-11-20", "--json", env=later).out)
    assert doc["hits"][0]["edited_after_span"] == "2026-11-27"
    last_week = run_script("memory", "recall", "deploy freeze last week", env=later)  # 11-23..11-29 holds the edit
    assert "edited on" not in last_week.out


def test_item12_archived_hits_show_the_sum_of_their_parts_and_time_listings_say_their_order(ws, run_script):
    _setup(ws, run_script, "--no-hooks")
    assert run_script("memory", "write", "--topic", "Payment gateway", "--change", "switched payment gateway",
                      env={"MEMORY_MANAGER_NOW": "2026-11-10T09:00:00"}).code == 0
    later = {"MEMORY_MANAGER_NOW": "2026-11-30T09:00:00"}
    assert run_script("memory", "prune", env=later).code == 0
    doc = json.loads(run_script("memory", "recall", "payment gateway", "--json", env=later).out)
    hit = doc["hits"][0]
    assert hit["archived"] is True and hit["score"] == pytest.approx(hit["parts"]["total"] - 1.0, abs=1e-6)
    text = run_script("memory", "recall", "payment gateway", env=later)
    first = text.out.splitlines()[0]
    assert first.startswith(f"1. {hit['parts']['total']:.3f}  memory/archive/2026-11/daily-2026-11-10.md › "
                            "[2026-11-10] Payment gateway [archived: listed after live entries]")
    assert "-0." not in text.out
    listing = run_script("memory", "recall", "what did I do on 2026-11-10", env=later)
    assert listing.out.splitlines()[0] == "the asked time's entries, in the order they were written (not by score):"
    plain = run_script("memory", "recall", "payment gateway", env=later)
    assert "in the order they were written" not in plain.out
    assert "minus 1.0 for an archived hit" in (ROOT / "references" / "recall.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------- item 17

def test_item17_inside_a_workspace_without_w_the_error_suggests_w_dot(ws, run_script, tmp_path):
    _setup(ws, run_script, "--no-hooks")
    env = dict(os.environ, OPENCLAW_WORKSPACE_DIR="", OPENCLAW_STATE_DIR=str(tmp_path / "state"))
    del env["OPENCLAW_WORKSPACE_DIR"]
    proc = subprocess.run(_script("memory") + ["status"], cwd=ws, env=env, capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr == (f"error: workspace {tmp_path / 'state' / 'workspace'} does not exist (chosen by <state "
                           f"dir>/workspace); the current folder {ws} looks like a workspace: pass -w . to use it\n")
    elsewhere = subprocess.run(_script("memory") + ["status"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert elsewhere.returncode == 2 and "pass -w ." not in elsewhere.stderr
    dot = subprocess.run(_script("memory") + ["-w", ".", "status"], cwd=ws, env=env, capture_output=True, text=True)
    assert dot.returncode == 0, dot.stderr


# ---------------------------------------------------------------- item 18

def test_item18_second_init_names_plain_text_t2_not_xor_b64(ws, run_script, t2_key):
    _setup(ws, run_script, "--no-hooks")
    assert "memory/tier2-internal/" not in (ws / ".gitignore").read_text(encoding="utf-8")
    (ws / "memory" / "tier2-internal" / "crm_prefs.md").write_text(
        "---\nskill: crm\ntopic: prefs\ncreated: 2026-11-20\nexpires: 2026-12-20\ntier: internal\n---\n"
        "Prefers short replies.\n", encoding="utf-8")
    again = run_script("init", "--yes", "--no-hooks", env=NOW)
    assert again.code == 0, again.err
    text = (ws / ".gitignore").read_text(encoding="utf-8")
    assert "# some T2 entries are plain text (not encrypted): keep them out of git\nmemory/tier2-internal/\n" in text
    assert "xor-b64" not in text


# ---------------------------------------------------------------- item 20

def test_item20_note_labels_are_not_indexed_words(ws, run_script):
    _setup(ws, run_script, "--no-hooks")
    for n in (4, 5):
        assert run_script("memory", "write", "--topic", f"Parallel {n}", "--cause", f"run {n}", "--change",
                          f"line {n}", "--todo", f"check {n}", env=NOW).code == 0
    assert run_script("memory", "write", "--topic", "Index work", "--change", "benchmark the index change first",
                      env=NOW).code == 0
    for query in ("todo", "cause"):
        result = run_script("memory", "recall", query, "--json", env=NOW)
        assert result.code == 0 and json.loads(result.out)["hits"] == [], (query, result.out)
    # "change" is a word of one note's text, not the label of every note's Change line.
    hits = json.loads(run_script("memory", "recall", "Change", "--json", env=NOW).out)["hits"]
    assert [h["heading"] for h in hits] == ["[2026-11-20] Index work"]
    hits = json.loads(run_script("memory", "recall", "benchmark index change", "--json", env=NOW).out)["hits"]
    assert [h["heading"] for h in hits] == ["[2026-11-20] Index work"]
    assert all(h["parts"]["keyword"] > 0 for h in hits)



def test_item20_chinese_note_labels_are_not_indexed_words(ws, run_script, tmp_path):
    zh = tmp_path / "zh"
    zh.mkdir()
    assert run_script("init", "-w", zh, "--yes", "--no-hooks", "--lang", "zh").code == 0
    assert run_script("memory", "-w", zh, "write", "--topic", "周会", "--cause", "例行", "--change", "时间提前",
                      "--todo", "通知大家", env=NOW).code == 0
    assert "- 待：通知大家" in (zh / "memory" / "daily" / "2026-11-20.md").read_text(encoding="utf-8")
    for query in ("待", "因", "改"):
        result = run_script("memory", "-w", zh, "recall", query, "--json", env=NOW)
        assert result.code == 0 and json.loads(result.out)["hits"] == [], (query, result.out)
    hits = json.loads(run_script("memory", "-w", zh, "recall", "通知", "--json", env=NOW).out)["hits"]
    assert [h["heading"] for h in hits] == ["[2026-11-20] 周会"]


# ---------------------------------------------------------------- item 7

LESSON = "Always benchmark before and after an index change."


def test_item7_the_same_lesson_on_another_day_adds_nothing(ws, run_script):
    _setup(ws, run_script, "--no-hooks")
    first = run_script("memory", "lesson", LESSON, "--json", env={"MEMORY_MANAGER_NOW": "2026-11-19T09:00:00"})
    assert json.loads(first.out)["added"] is True
    before = (ws / "MEMORY.md").read_bytes()
    again = run_script("memory", "lesson", LESSON, "--json", env={"MEMORY_MANAGER_NOW": "2026-11-30T09:00:00"})
    assert again.code == 0 and json.loads(again.out)["added"] is False
    assert (ws / "MEMORY.md").read_bytes() == before


def test_item7_cleanup_finds_a_lesson_repeated_on_two_days_and_leaves_no_doubled_blank_line(ws, run_script):
    _setup(ws, run_script, "--no-hooks")
    path = ws / "MEMORY.md"
    text = path.read_text(encoding="utf-8")
    # Two days' copies, written by hand (or by an older version): one line apart in the section.
    text = text.replace("## Lessons\n", f"## Lessons\n\n- [2026-11-30] {LESSON}\n\n- [2026-11-19] {LESSON}\n")
    path.write_text(text, encoding="utf-8")
    report = run_script("cleanup", "--json", env=NOW)
    actions = [a for a in json.loads(report.out)["actions"] if a["step"] == "memory-md"]
    assert len(actions) == 1 and "duplicates an earlier line: reported" in actions[0]["detail"], actions
    assert run_script("cleanup", "--approved", env=NOW).code == 0
    after = path.read_text(encoding="utf-8")
    assert after.count(LESSON) == 1 and f"- [2026-11-30] {LESSON}" in after
    assert "\n\n\n" not in after


# ---------------------------------------------------------------- item 8

def test_item8_repeating_edit_crypt_and_event_finds_nothing_to_do_exit_0(ws, run_script, t2_key):
    _setup(ws, run_script, "--no-hooks")
    ident = _edited_entry(ws, run_script)
    same = run_script("memory", "edit", ident, "--text", "No deploys from Thursday noon.", env=NOW)
    assert same.code == 0, same.err
    assert same.out == f"unchanged: memory/knowledge/deploy-freeze.md [{ident}] already holds that text; " \
                       "nothing to do\n"
    assert json.loads(run_script("memory", "edit", ident, "--text", "No deploys from Thursday noon.", "--json",
                                 env=NOW).out)["unchanged"] is True

    t2 = ws / "memory" / "tier2-internal" / "crm_prefs.md"
    t2.write_text("---\nskill: crm\ntopic: prefs\ncreated: 2026-11-20\nexpires: 2026-12-20\ntier: internal\n---\n"
                  "Prefers short replies.\n", encoding="utf-8")
    first = run_script("crypt", "encrypt", "--file", t2, env=NOW)
    assert first.code == 0, first.err
    sealed = t2.read_bytes()
    second = run_script("crypt", "encrypt", "--file", t2, env=NOW)
    assert second.code == 0, second.err
    assert second.out == "unchanged: memory/tier2-internal/crm_prefs.md is already encrypted; nothing to do\n"
    assert t2.read_bytes() == sealed

    recorded = run_script("memory", "event", "skill_complete", "--skill", "crm", "--text", "synced", env=NOW)
    assert recorded.code == 0 and recorded.out.startswith("recorded skill_complete for crm"), recorded.out
    repeated = run_script("memory", "event", "skill_complete", "--skill", "crm", "--text", "synced", env=NOW)
    assert repeated.code == 0
    assert repeated.out == ("already recorded: memory/knowledge/skill-crm.md holds that skill_complete line for crm "
                            "today; nothing added\n")


# ---------------------------------------------------------------- item 15

def test_item15_gate_after_approval_says_why_it_proceeds_not_to_approve_again(ws, run_script):
    _setup(ws, run_script, "--no-hooks")
    held = run_script("gate", "--operation", "store", "--text", "Call Bob on +1 650 253 0000", "--source",
                      "explicit_user", "--json", env=NOW)
    doc = json.loads(held.out)
    assert doc["recommended_action"] == "request_approval"
    assert doc["reasons"] == ["possible phone found: not stored unless the user confirms it is fine to keep; then "
                              "repeat with --approved"]
    ok = run_script("gate", "--operation", "store", "--text", "Call Bob on +1 650 253 0000", "--source",
                    "explicit_user", "--approved", "--json", env=NOW)
    doc = json.loads(ok.out)
    assert doc["recommended_action"] == "proceed"
    assert doc["reasons"] == ["possible phone found: stored because the user confirmed it is fine to keep "
                              "(--approved)"]
    text = run_script("gate", "--operation", "store", "--text", "Call Bob on +1 650 253 0000", "--source",
                      "explicit_user", "--approved", env=NOW)
    assert "repeat with --approved" not in text.out and "Decision: proceed" in text.out


# ---------------------------------------------------------------- items 13 and 21 (cleanup's undo)

def test_item13_restoring_a_cleanup_needs_no_force_for_the_tools_own_state(ws, run_script):
    _setup(ws, run_script, "--no-hooks")
    with (ws / "MEMORY.md").open("a", encoding="utf-8") as handle:
        handle.write("- dup line\n- dup line\n")
    first = run_script("cleanup", "--approved", env={"MEMORY_MANAGER_NOW": "2026-11-29T09:00:00"})
    assert first.code == 0, first.err
    ident = first.out.split("backup ")[1].split(":")[0]
    # item 21: the undo command it prints is the one that works without a warning
    assert first.out.rstrip().endswith(f"--restore {ident} --yes`")
    later = run_script("cleanup", "--approved", env={"MEMORY_MANAGER_NOW": "2026-12-07T09:00:00"})
    assert later.code == 0  # rewrites memory/.state/cleanup.log and cleanup.json
    plan = json.loads(run_script("init", "--restore", ident, "--dry-run", "--json").out)
    assert plan["changed_since"] == []
    restored = run_script("init", "--restore", ident, "--yes")
    assert restored.code == 0, restored.err
    assert (ws / "MEMORY.md").read_text(encoding="utf-8").endswith("- dup line\n- dup line\n")
    # A user's own change since is still protected.
    ident2 = run_script("cleanup", "--approved", env={"MEMORY_MANAGER_NOW": "2026-12-14T09:00:00"}).out \
        .split("backup ")[1].split(":")[0]
    with (ws / "MEMORY.md").open("a", encoding="utf-8") as handle:
        handle.write("- my own line\n")
    refused = run_script("init", "--restore", ident2, "--yes")
    assert refused.code == 1 and "MEMORY.md" in refused.err and "memory/.state" not in refused.err


# ---------------------------------------------------------------- item 21 (small messages)

def test_item21_small_messages(ws, run_script, tmp_path):
    _setup(ws, run_script, "--no-hooks")
    # a dry run piped into a reader that stops early: no "error: Broken pipe"
    proc = subprocess.run(f"{sys.executable} {ROOT / 'scripts' / 'init.py'} -w {ws} --dry-run --lang zh | head -c 10",
                          shell=True, capture_output=True, text=True)
    assert proc.stderr == "" and len(proc.stdout) == 10
    # export: into the workspace, and into a folder that does not exist
    inside = run_script("memory", "export", "--approved", "--out", ws / "exp.json", env=NOW)
    assert inside.code == 2 and "never writes into the workspace" in inside.err and "replaces" not in inside.err
    missing = run_script("memory", "export", "--approved", "--out", tmp_path / "nonexist-dir" / "x.json", env=NOW)
    assert missing.code == 2 and "does not exist" in missing.err
    assert not (tmp_path / "nonexist-dir").exists()
    # counts in the right number
    assert run_script("memory", "learn", "deploy", "--text", "Never on Fridays.", env=NOW).code == 0
    status = run_script("memory", "status", env=NOW)
    assert "1 knowledge entry\n" in status.out and "0 daily sections" in status.out
    # an ambiguous backup id names a few, not all
    for n in range(7):
        assert run_script("memory", "write", "--topic", f"t{n}", "--change", f"c{n}", env=NOW).code == 0
    ambiguous = run_script("init", "--restore", "0000", "--yes")
    ids = [b["id"] for b in json.loads(run_script("init", "--list-backups", "--json").out)["backups"]]
    assert len(ids) == 9  # init's, learn's and one per write (backups v3 record the files a command creates)
    assert ambiguous.code == 2 and ambiguous.err == (
        f"error: backup id '0000' is ambiguous: it starts 9 ids: {', '.join(ids[:5])} and 4 more "
        "(see --list-backups)\n")


def test_item5_report_reads_an_audit_recorded_before_approved_counts(ws, run_script):
    """An audit saved by the previous version has no ``approved`` in its checks: the report still renders."""
    _setup(ws, run_script, "--no-hooks")
    assert run_script("privacy_audit", env=NOW).code == 0
    state = next((ws / "memory" / ".state").glob("*audit*.json"))
    doc = json.loads(state.read_text(encoding="utf-8"))
    report = doc["report"]
    for check in report["checks"]:
        del check["approved"], check["status"]
    state.write_text(json.dumps(doc), encoding="utf-8")
    result = run_script("memory", "report", env=NOW)
    assert result.code == 0, result.err
    assert "Tier 3 data never touches memory" in (ws / "memory" / ".cache" / "report.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- item 22

def test_item22_status_explains_why_prune_and_cleanup_numbers_differ(ws, run_script):
    _setup(ws, run_script, "--no-hooks")
    for day in ("2026-11-01", "2026-11-02"):
        assert run_script("memory", "write", "--topic", f"Old {day}", "--change", "x",
                          env={"MEMORY_MANAGER_NOW": f"{day}T09:00:00"}).code == 0
    status = run_script("memory", "status", env=NOW)
    assert status.code == 0
    lines = status.out.splitlines()
    assert any(line.startswith("prune rate: ") and "(2 would move;" in line for line in lines), status.out
    assert any(line.startswith("next cleanup: would archive 0 entries") for line in lines), status.out
    assert "note: the 2 above are what `memory.py prune` would move (value under 0.6: an untagged note never " \
           "used is worth at most 0.5 once a week old); the weekly cleanup applies only the capacity window" \
           in status.out


# ---------------------------------------------------------------- item 11

DEBIAN_PYTHON = Path("/usr/bin/python3")


@pytest.mark.external(DEBIAN_PYTHON, ROOT / ".venv" / "bin" / "python",
                      reason="Debian's Python (without the bundle's packages) and the bundle's venv")
def test_item11_doctor_finds_the_bundle_venv_like_every_other_script(ws, tmp_path):
    probe = subprocess.run([str(DEBIAN_PYTHON), "-s", "-c", "import click"], capture_output=True)
    assert probe.returncode != 0, "this test needs a Python without the packages"
    env = dict(os.environ, HOME=str(tmp_path / "nohome"))
    env.pop("MEMORY_MANAGER_NO_VENV", None)
    helped = subprocess.run([str(DEBIAN_PYTHON), "-s", str(ROOT / "scripts" / "doctor.py"), "--help"], env=env,
                            capture_output=True, text=True)
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: doctor.py [OPTIONS]"), helped.stderr
    doc = subprocess.run([str(DEBIAN_PYTHON), "-s", str(ROOT / "scripts" / "doctor.py"), "-w", str(ws), "--json",
                          "--no-openclaw"], env=env, capture_output=True, text=True)
    checks = json.loads(doc.stdout)["checks"]
    assert not any("missing" in str(c.get("detail", "")) and c.get("name") == "dependencies" for c in checks), checks
