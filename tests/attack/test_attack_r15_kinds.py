"""Attack round 15 (atk15): six kinds a previous attacker found on main at ea0c507, one test per kind.

Each test runs the real scripts in a temporary workspace and asserts what issue 10 promises:
a secret typed or found is never shown past its first 4 characters, a name that reaches disk
passes the gate, forgotten means gone (names included), and no run ends in a traceback.
Secret-shaped values are built at run time.

1. ``detect.py --json`` showed a found session key and agent id whole, where the summary beside
   it cut each segment that is not an ordinary name (``context.shown_id``).
2. ``detect.py --state-dir PATH`` echoed a token pasted as the path (notes, summary, JSON);
   ``doctor.py`` the same for ``--workspace`` in its checks.
3. ``report --html DIR/page.html`` into an existing folder named with a token wrote the page and
   recorded the whole path in ``memory/.state/reports.json``; ``export --out`` wrote into it and
   printed the path; a relative ``--out`` name was never read at all.
4. ``detect.py -w MISSING`` and ``doctor.py -w MISSING`` named the missing folder, token and all.
5. ``forget ID --approved`` of a knowledge entry whose file the user renamed by hand left the old
   name (holding the private words) in ``.memory-backup/`` (``entries.jsonl``, ``after.json``),
   with the older version's copy.
6. A purge by cleanup that deleted a report written with ``--html`` outside the workspace ended
   with "unexpected ValueError" (exit 1, no report of what it did).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from ocstore import sqlite_store

from .trust_r4_common import NOW, PHONE, TOKEN, _init


def _entry(total: int, window: int = 32768) -> dict:
    return {"contextTokens": window, "totalTokens": total, "totalTokensFresh": True, "totalTokensVersion": 1}


def _shows_more_than_4(output: str, value: str) -> bool:
    """True when any 5 characters of ``value`` after its first one appear in ``output``."""
    return any(value[i:i + 5] in output for i in range(1, len(value) - 4))


#: A direct chat's number, as OpenClaw puts it in the session key (a T3 value).
NUMBER = "+1" + PHONE.replace("-", "")


# ------------------------------------------------------------ kind 1: detect --json shows a found key whole

@pytest.mark.parametrize("how", ["picked", "named", "event"])
def test_detect_json_cuts_a_found_session_key_as_the_summary_does(run_script, tmp_path, how):
    key = f"agent:main:whatsapp:dm:{NUMBER}"
    sqlite_store(tmp_path / "home" / ".openclaw", {key: (_entry(20000), [])})
    if how == "event":
        event = {"type": "command", "action": "reset", "sessionKey": key,
                 "context": {"sessionId": "s-1", "previousSessionEntry": _entry(20000)}}
        r = run_script("detect", "--stdin", "--json", input=json.dumps(event))
    else:
        r = run_script("detect", "--json", *(["--session", key] if how == "named" else []))
    assert r.code == 0, r.out + r.err
    doc = json.loads(r.out)
    # context.shown_id: "+14155550132" is not an ordinary name, so it shows 4 characters and "…".
    assert doc["session_key"] == "agent:main:whatsapp:dm:+141…"
    assert doc["agent"] == "main"
    assert doc["summary"].startswith("agent:main:whatsapp:dm:+141…: 61% ")
    assert NUMBER not in r.out and PHONE.replace("-", "") not in r.out


def test_detect_json_cuts_a_found_agent_id_holding_a_number(run_script, tmp_path):
    agent = "p" + PHONE.replace("-", "")  # a valid agent id (letters and digits), not an ordinary name
    sqlite_store(tmp_path / "home" / ".openclaw", {f"agent:{agent}:main": (_entry(8000), [])}, agent=agent)
    r = run_script("detect", "--json", "--agent", agent)
    assert r.code == 0, r.out + r.err
    doc = json.loads(r.out)
    assert (doc["agent"], doc["session_key"], doc["used"]) == ("p415…", "agent:p415…:main", 8000)
    assert PHONE.replace("-", "") not in r.out


def test_detect_json_keeps_an_ordinary_key_as_it_is(run_script, tmp_path):
    sqlite_store(tmp_path / "home" / ".openclaw", {"agent:main:cron:nightly-2": (_entry(100), [])})
    doc = json.loads(run_script("detect", "--json").out)
    assert (doc["agent"], doc["session_key"]) == ("main", "agent:main:cron:nightly-2")


# ------------------------------------------------------------ kind 2: --state-dir echoed

@pytest.mark.parametrize("json_out", [False, True])
def test_detect_state_dir_holding_a_token_is_masked(run_script, tmp_path, json_out):
    state = tmp_path / f"state-{TOKEN}"
    # A missing folder is bad input (exit 2, nu16 item 3), named masked:
    missing = run_script("detect", *(["--json"] if json_out else []), "--state-dir", state)
    assert missing.code == 2 and f"--state-dir {tmp_path}/state-[secret]: no such folder" in missing.out + missing.err
    assert not _shows_more_than_4(missing.out + missing.err, TOKEN), missing.out + missing.err
    state.mkdir()  # a folder with no session store in it
    r = run_script("detect", *(["--json"] if json_out else []), "--state-dir", state)
    assert r.code == 0, r.out + r.err  # usage unknown is said, not an error
    summary = f"上下文使用率未知（{tmp_path}/state-[secret] 中没有智能体 main 的会话存储）"  # LANG zh_CN (conftest)
    if json_out:
        doc = json.loads(r.out)
        assert doc["summary"] == summary
        assert doc["notes"] == [f"no session store for agent main in {tmp_path}/state-[secret]"]
    else:
        assert r.out == summary + "\n"
    assert not _shows_more_than_4(r.out + r.err, TOKEN), r.out + r.err


def test_detect_state_dir_holding_a_token_is_masked_in_a_found_store_too(run_script, tmp_path):
    state = tmp_path / f"state-{TOKEN}"
    sqlite_store(state, {"agent:main:main": (_entry(100), [])})
    r = run_script("detect", "--json", "--state-dir", state)
    assert r.code == 0 and json.loads(r.out)["used"] == 100  # still measured
    assert not _shows_more_than_4(r.out + r.err, TOKEN)


@pytest.mark.parametrize("json_out", [False, True])
def test_doctor_workspace_holding_a_token_is_masked_in_its_checks(ws, run_script, tmp_path, json_out):
    other = tmp_path / f"ws-{TOKEN}"
    other.mkdir()
    _init(run_script, "-w", str(other))
    r = run_script("doctor", "--no-openclaw", "-w", other, *(["--json"] if json_out else []), env=NOW)
    assert "Traceback" not in r.err
    assert not _shows_more_than_4(r.out + r.err, TOKEN), r.out + r.err
    if json_out:
        assert json.loads(r.out)["workspace"] == f"{tmp_path}/ws-[secret]"
    else:
        assert f"{tmp_path}/ws-[secret]" in r.out


# ------------------------------------------------------------ kind 3: a token in an existing folder's name reaches disk

HOLDS_SECRET = ("the path holds secret (a file or folder name is stored, so it must hold no secret or personal data); "
                "name another file; nothing was written")


@pytest.mark.parametrize("depth", ["folder", "folder-above"])
def test_report_html_into_an_existing_folder_named_with_a_token_is_refused(ws, run_script, tmp_path, depth):
    _init(run_script)
    assert run_script("memory", "learn", "deploy", "--text", "deploy uses port 8443", env=NOW).code == 0
    folder = tmp_path / f"pages-{TOKEN}"
    where = folder / "sub" if depth == "folder-above" else folder
    where.mkdir(parents=True)
    record = ws / "memory" / ".state" / "reports.json"
    r = run_script("memory", "report", "--html", where / "page.html", env=NOW)
    # gate.md rule 0: a name that reaches disk (reports.json records the whole path) passes the gate.
    assert r.code == 2, r.out + r.err
    assert r.err == f"error: --html: {HOLDS_SECRET}\n"
    assert r.out == ""
    assert list(where.iterdir()) == []
    assert not record.exists() or TOKEN not in record.read_text(encoding="utf-8")


@pytest.mark.parametrize("form", ["existing-folder", "relative-name"])
def test_export_out_into_a_name_holding_a_secret_is_refused(ws, run_script, tmp_path, form, monkeypatch):
    _init(run_script)
    assert run_script("memory", "learn", "deploy", "--text", "deploy uses port 8443", env=NOW).code == 0
    if form == "existing-folder":
        folder = tmp_path / f"out-{TOKEN}"
        folder.mkdir()
        out, category = str(folder / "x.json"), "secret"
    else:  # a bare file name, relative to the current folder: the gate never read it
        folder = tmp_path / "cwd"
        folder.mkdir()
        monkeypatch.chdir(folder)
        out, category = f"x-{NUMBER}.json", "phone"
    r = run_script("memory", "export", "--out", out, "--approved", env=NOW)
    assert r.code == 2, r.out + r.err
    assert r.err == f"error: --out: {HOLDS_SECRET.replace('secret', category, 1)}\n"
    assert r.out == ""
    assert list(folder.iterdir()) == []


def test_report_html_into_an_ordinary_existing_folder_still_works(ws, run_script, tmp_path):
    _init(run_script)
    (tmp_path / "pages").mkdir()
    r = run_script("memory", "report", "--html", tmp_path / "pages" / "page.html", env=NOW)
    assert r.code == 0, r.err
    assert (tmp_path / "pages" / "page.html").is_file()


# ------------------------------------------------------------ kind 4: -w MISSING echoed

@pytest.mark.parametrize("json_out", [False, True])
def test_detect_missing_workspace_error_masks_a_token(run_script, tmp_path, json_out):
    missing = tmp_path / f"ws-{TOKEN}"
    r = run_script("detect", *(["--json"] if json_out else []), "-w", missing)
    assert r.code == 2, r.out + r.err
    message = f"workspace {tmp_path}/ws-[secret] does not exist (chosen by --workspace)"
    if json_out:
        assert json.loads(r.out) == {"error": message, "kind": "workspace"}
    else:
        assert r.err == f"error: {message}\n"
    assert not _shows_more_than_4(r.out + r.err, TOKEN)


@pytest.mark.parametrize("json_out", [False, True])
def test_doctor_missing_workspace_check_masks_a_token(run_script, tmp_path, json_out):
    missing = tmp_path / f"ws-{TOKEN}"
    r = run_script("doctor", "--no-openclaw", *(["--json"] if json_out else []), "-w", missing)
    assert r.code == 1, r.out + r.err  # something is broken: the workspace
    detail = f"workspace {tmp_path}/ws-[secret] does not exist (chosen by --workspace)"
    if json_out:
        check = next(c for c in json.loads(r.out)["checks"] if c["name"] == "workspace")
        assert (check["status"], check["detail"]) == ("fail", detail)
    else:
        assert f"✗ workspace: {detail}\n" in r.out
    assert not _shows_more_than_4(r.out + r.err, TOKEN)


# ------------------------------------------------------------ kind 5: forget leaves a former file name

def _backup_residue(ws: Path, needle: str) -> list[str]:
    return [p.relative_to(ws).as_posix() for p in sorted((ws / ".memory-backup").rglob("*"))
            if needle in p.name or (p.is_file() and needle.encode() in p.read_bytes())]


@pytest.mark.parametrize("how", ["renamed", "renamed-and-edited-by-hand", "renamed-twice"])
def test_forget_erases_the_names_a_renamed_knowledge_file_had(ws, run_script, how):
    _init(run_script)
    assert run_script("memory", "learn", "deploy", "--text", "deploy uses port 8443 on the blue cluster",
                      env=NOW).code == 0
    knowledge = ws / "memory" / "knowledge"
    private = knowledge / "alice-chen-hiv-clinic.md"
    (knowledge / "deploy.md").rename(private)
    r = run_script("memory", "edit", "k-b7bd55c11b", "--text", "deploy uses port 9443 on the blue cluster",
                   "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _backup_residue(ws, "hiv-clinic")  # the backup of the edit names the file as it was then
    if how == "renamed-twice":
        private.rename(knowledge / "clinic-notes.md")
        assert run_script("memory", "edit", "k-b7bd55c11b", "--text", "deploy uses port 7443 on the blue cluster",
                          "--approved", env=NOW).code == 0
        private = knowledge / "clinic-notes.md"
    if how == "renamed-and-edited-by-hand":
        private.write_text(private.read_text(encoding="utf-8") + "\nand a line written by hand\n", encoding="utf-8")
    private.rename(knowledge / "visits.md")
    r = run_script("memory", "forget", "k-b7bd55c11b", "--approved", env=NOW)
    assert r.code == 0, r.err
    # Forgotten means gone (issue 10): no former name stays in .memory-backup/, nor the copies of
    # the entry's older versions kept under those names.
    assert _backup_residue(ws, "hiv-clinic") == []
    assert _backup_residue(ws, "clinic-notes") == []
    kept = [e for d in (ws / ".memory-backup").iterdir() if (d / "entries.jsonl").is_file()
            for e in map(json.loads, (d / "entries.jsonl").read_text(encoding="utf-8").splitlines())
            if e["path"].startswith("memory/knowledge/") and e.get("existed") and e.get("stored") != "erased"]
    assert kept == []
    assert not [p for p in (ws / ".memory-backup").rglob("files/memory/knowledge/*")]


def test_forget_leaves_another_entrys_former_name_alone(ws, run_script):
    _init(run_script)
    for key in ("deploy", "rollback"):
        assert run_script("memory", "learn", key, "--text", f"{key} runs on the blue cluster at night",
                          env=NOW).code == 0
    knowledge = ws / "memory" / "knowledge"
    (knowledge / "rollback.md").rename(knowledge / "rollback-steps.md")
    assert run_script("memory", "edit", "rollback-steps", "--text", "rollback runs on the green cluster",
                      "--approved", env=NOW).code == 0
    assert run_script("memory", "forget", "deploy", "--approved", env=NOW).code == 0
    # The other entry's earlier name is its own history: it stays restorable.
    assert _backup_residue(ws, "memory/knowledge/rollback.md")


# ------------------------------------------------------------ kind 6: purge deletes a report outside the workspace

def _plant_plain_t2_with_token(ws: Path) -> None:
    (ws / "memory/tier2-internal/s_crane.md").write_text(
        f"---\nskill: s\ntopic: crane\ncreated: 2026-11-01\nscheme: none\n---\ncrane deploy token {TOKEN} tonight\n")


@pytest.mark.parametrize("script", ["cleanup", "maintain"])
def test_purge_deletes_a_report_written_outside_the_workspace_without_a_traceback(ws, run_script, tmp_path, script):
    _init(run_script)
    _plant_plain_t2_with_token(ws)
    page = tmp_path / "elsewhere" / "page.html"
    page.parent.mkdir()
    assert run_script("memory", "report", "--html", page, env=NOW).code == 0
    if script == "cleanup":
        r = run_script("cleanup", "--json", env=NOW)
        assert r.code == 0, r.out + r.err
        doc = json.loads(r.out)
        assert (doc["deleted"], doc["erased"]["reports"]) == (1, 1)
        assert {"step": "purge", "path": str(page),
                "detail": "report written with --html deleted (it held a purged entry)"} in doc["actions"]
    else:
        r = run_script("maintain", "-w", ws, "--only", "cleanup", env=NOW)
        assert r.code == 0, r.err
        assert r.err.splitlines()[-1] == "maintain: done (ok)"
    assert "Traceback" not in r.err and "ValueError" not in r.out + r.err
    assert not page.exists()  # the bundle's own page, unchanged since it was written: deleted
    assert not (ws / "memory/tier2-internal/s_crane.md").exists()


def test_purge_leaves_a_changed_report_outside_the_workspace_and_says_so(ws, run_script, tmp_path):
    _init(run_script)
    _plant_plain_t2_with_token(ws)
    page = tmp_path / "elsewhere" / "page.html"
    page.parent.mkdir()
    assert run_script("memory", "report", "--html", page, env=NOW).code == 0
    page.write_text(page.read_text(encoding="utf-8") + "<!-- my notes -->\n", encoding="utf-8")
    r = run_script("cleanup", env=NOW)
    assert r.code == 0, r.out + r.err
    assert page.exists()  # changed by the user since: theirs, left in place
    assert f"warning: {page}: a report written with --html and changed since it was written still holds the " \
           "forgotten text; it was left as it is: delete or edit it yourself" in r.err.splitlines()
    assert "Traceback" not in r.err
