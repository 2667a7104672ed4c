"""Round 13 kinds (tfix13): each kind atk13 found, closed as a kind, with variants beside the found case.

1. Every command that makes the T2 key records it as the store's key (``init --yes``, ``init --json``,
   ``crypt.py reseal`` with nothing to reseal).
2. A purge blanks every audit record it cannot recompute (cleanup run without the T2 key), as forget does.
3. A lesson's records are found after hand edits change its id (the records name its file); the
   records of the lessons still there keep theirs.
4. Every path option whose name reaches disk passes the gate (``export --out`` file or the folder it
   makes, ``report --html``, ``import FILE``), and the refusal never echoes the value.
5. ``unquarantine --approved`` under another key or with no key is refused (one line, exit 1,
   nothing changed); with the store's key its mark verifies and cleanup keeps the entry.
6. Approval-record lines carry a key fingerprint (``kfp``); forget drops the lines it cannot
   recompute, and keeps the lines of other values it can.
7. No option error echoes a secret pasted into the option (click's own errors, domain errors,
   the argparse scripts), with or without ``--json``.

Each test runs the real scripts in a temporary workspace (tests/conftest.py); secret-shaped values
are built at run time.
"""
from __future__ import annotations

import base64
import json
import os
import re
from datetime import date
from pathlib import Path

import pytest

from memory_manager import crypto, tiers
from memory_manager.config import load_config

from .trust_r4_common import NOW, PHONE, TOKEN, _init

K2 = base64.b64encode(bytes(range(100, 132))).decode()
E2 = {**NOW, "MEMORY_MANAGER_KEY": K2}
PHONE2 = "415-555" + "-0177"


def _key_file() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager" / "key"


def _record(ws: Path) -> list[str]:
    return (ws / "memory/.state/t2-key-accepted").read_text(encoding="ascii").split()


def _file_key_check() -> str:
    return tiers.key_check(base64.b64decode(_key_file().read_text(encoding="ascii").strip()))


def _audit(ws: Path) -> list[dict]:
    path = ws / "memory/.state/gate-audit.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _hashed(ws: Path) -> list[dict]:
    return [r for r in _audit(ws) if r.get("hash") or r.get("entry") or r.get("file")]


def _approvals(ws: Path) -> list[dict]:
    path = ws / "memory/.state/privacy-approvals.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _one_error(r) -> str:
    lines = [ln for ln in r.err.splitlines() if ln.strip() and not ln.startswith("warning")]
    assert len(lines) == 1 and "Traceback" not in r.err, r.err
    return lines[0]


# ------------------------------------------------------------ 1. a key a command makes is recorded

@pytest.mark.parametrize("how", ["yes", "json"])
def test_init_records_the_key_it_makes_on_a_new_workspace(ws, run_script, how):
    extra = ("--json",) if how == "json" else ()
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", *extra, env=NOW)
    assert r.code == 0, r.err
    assert _record(ws) == [_file_key_check()]
    assert oct((ws / "memory/.state/t2-key-accepted").stat().st_mode & 0o777) == "0o600"
    r = run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one", env=E2)
    assert r.code == 1
    assert "not this store's key" in _one_error(r)
    assert not (ws / "memory/tier2-internal/s_a.md").exists()
    assert _record(ws) == [_file_key_check()]


def test_reseal_with_nothing_to_reseal_records_the_key_it_makes(ws, run_script):
    _init(run_script, "--no-key")
    assert not _key_file().exists() and not (ws / "memory/.state/t2-key-accepted").exists()
    r = run_script("crypt", "reseal", env=NOW)
    assert r.code == 0, r.err
    assert "nothing to reseal" in r.out
    assert _record(ws) == [_file_key_check()]
    r = run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one", env=E2)
    assert r.code == 1 and "not this store's key" in _one_error(r)


# ------------------------------------------------------------ 2. a keyless purge blanks what it cannot recompute

def _plant_token_entry(ws: Path) -> None:
    cfg = load_config(ws)
    sealed = crypto.encrypt("alpha fact one " + TOKEN, "s", "2026-11", cfg, "xor-b64", topic="a",
                            entry_id=tiers.t2_id("s", "a"))
    tiers.t2_path(ws, "s", "a").write_text(tiers.render_t2("s", "a", sealed, date(2026, 11, 25), 30, "2026-11", "en"))


def test_a_keyless_purge_blanks_every_record_it_cannot_recompute_and_drops_such_approvals(ws, run_script, tmp_path):
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--scheme", "xor-b64", "--text",
                      "alpha fact one", env=NOW).code == 0
    # A second entry's record and an approval line, keyed with the T2 key as well.
    assert run_script("memory", "learn", "zeb", "--text", f"zebra vendor line {PHONE}", "--approved",
                      env=NOW).code == 0
    assert {r["kid"] for r in _hashed(ws)} == {"t2"} and len(_hashed(ws)) == 2
    assert [a["kid"] for a in _approvals(ws)] == ["t2"]
    _plant_token_entry(ws)
    _key_file().rename(tmp_path / "key.away")
    c = run_script("cleanup", "--json", env=NOW)
    assert c.code == 0, c.err
    assert not tiers.t2_path(ws, "s", "a").exists()
    # Neither record can be told apart from the purged entry's without the key: both lose hash,
    # entry reference and key fingerprint (less kept, never more); the categories and decisions stay.
    assert _hashed(ws) == []
    assert [r["decision"] for r in _audit(ws)][:2] == ["proceed", "proceed"]
    assert _approvals(ws) == []
    assert TOKEN not in json.dumps(_audit(ws))


def test_a_purge_with_the_key_keeps_the_records_of_other_entries(ws, run_script):
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "a", "--scheme", "xor-b64", "--text",
                      "alpha fact one", env=NOW).code == 0
    assert run_script("memory", "learn", "deploy", "--text", "deploy uses port 8443", env=NOW).code == 0
    assert len(_hashed(ws)) == 2
    _plant_token_entry(ws)
    assert run_script("cleanup", env=NOW).code == 0
    left = _hashed(ws)
    assert len(left) == 1 and left[0]["kid"] == "t2" and left[0]["kfp"] and left[0]["entry"]


# ------------------------------------------------------------ 3. a lesson's records survive no hand edit

def _lesson_ids(run_script, query: str) -> list[str]:
    r = run_script("memory", "--json", "recall", query, env=NOW)
    assert r.code == 0, r.err
    return re.findall(r'"(h-[0-9a-f]{12})"', r.out)


def test_forget_of_a_lesson_edited_twice_and_shown_blanks_all_its_records_only(ws, run_script):
    _init(run_script)
    assert run_script("memory", "lesson", "always pin the golden image tag before deploy", env=NOW).code == 0
    assert run_script("memory", "lesson", "rotate the staging certificates every quarter", env=NOW).code == 0
    memory = ws / "MEMORY.md"
    text = memory.read_text(encoding="utf-8")
    memory.write_text(text.replace("tag before deploy", "tag before every deploy"), encoding="utf-8")
    ident = _lesson_ids(run_script, "golden image tag")[0]
    assert run_script("memory", "show", ident, env=NOW).code == 0  # a read record of the second wording
    text = memory.read_text(encoding="utf-8")
    memory.write_text(text.replace("golden image tag", "golden base image tag"), encoding="utf-8")
    ident = _lesson_ids(run_script, "golden base image")[0]
    before = _hashed(ws)
    assert len(before) == 3 and all(r.get("file") for r in before)
    f = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert f.code == 0, f.err
    assert "golden" not in memory.read_text(encoding="utf-8")
    # The other lesson, still there as written, keeps its record (hash, entry and file).
    left = _hashed(ws)
    assert len(left) == 1 and left[0]["hash"] and left[0]["entry"] and left[0]["file"]
    assert left[0] == next(r for r in before if r["entry"] == left[0]["entry"])


def test_forget_of_an_imported_lesson_edited_by_hand_blanks_its_import_record(ws, run_script, tmp_path):
    _init(run_script)
    doc = {"format": "cmm-export", "version": 3, "daily": [], "knowledge": [], "tier1": [], "tier2": [],
           "lessons": [{"section": "lesson", "line": "- [2026-11-20] drain the build queue before upgrades"}]}
    src = tmp_path / "lessons.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    r = run_script("memory", "import", str(src), "--approved", env=NOW)
    assert r.code == 0, r.out + r.err
    memory = ws / "MEMORY.md"
    assert "drain the build queue" in memory.read_text(encoding="utf-8")
    # The import's overall decision (the whole document, no one entry) and the lesson line's own record.
    assert [(bool(r.get("entry")), bool(r.get("file"))) for r in _hashed(ws)] == [(False, False), (True, True)]
    memory.write_text(memory.read_text(encoding="utf-8").replace("build queue", "build queue fully"),
                      encoding="utf-8")
    ident = _lesson_ids(run_script, "drain build queue")[0]
    assert run_script("memory", "forget", ident, "--approved", env=NOW).code == 0
    assert "drain" not in memory.read_text(encoding="utf-8")
    assert [(r.get("entry"), r.get("file")) for r in _hashed(ws)] == [(None, None)]


# ------------------------------------------------------------ 4. path options pass the gate

@pytest.mark.parametrize("where", ["file", "folder"])
def test_export_out_refuses_a_secret_in_the_file_or_a_folder_it_makes(ws, run_script, tmp_path, where):
    _init(run_script)
    out = tmp_path / f"x-{TOKEN}.json" if where == "file" else tmp_path / f"d-{TOKEN}" / "x.json"
    r = run_script("memory", "export", "--out", str(out), "--approved", env=NOW)
    assert r.code == 2
    assert _one_error(r) == ("error: --out: the path holds secret (a file or folder name is stored, so it must "
                             "hold no secret or personal data); name another file; nothing was written")
    assert TOKEN not in r.out + r.err
    assert not any(TOKEN in p.name for p in tmp_path.rglob("*"))


def test_report_html_refuses_a_phone_number_in_its_name_before_any_other_check(ws, run_script, tmp_path):
    _init(run_script)
    folder = tmp_path / f"dir-{PHONE}"
    folder.mkdir()
    r = run_script("memory", "report", "--html", str(folder), env=NOW)  # a folder: refused for its name first
    assert r.code == 2
    assert PHONE not in r.out + r.err and "phone" in _one_error(r)


def test_import_refuses_a_file_whose_name_holds_a_secret_and_keeps_only_the_name_in_the_backup(
        ws, run_script, tmp_path):
    _init(run_script)
    doc = {"format": "cmm-export", "version": 3, "daily": [], "tier1": [], "tier2": [],
           "knowledge": [{"key": "deploy", "body": "deploy uses port 8443", "tags": []}]}
    bad = tmp_path / f"e-{TOKEN}.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    r = run_script("memory", "import", str(bad), "--approved", env=NOW)
    assert r.code == 2
    assert TOKEN not in r.out + r.err and "import FILE: the path holds secret" in _one_error(r)
    assert not (ws / "memory/knowledge/deploy.md").exists()
    sub = tmp_path / "private-folder-name"
    sub.mkdir()
    good = sub / "export.json"
    good.write_text(json.dumps(doc), encoding="utf-8")
    r = run_script("memory", "import", str(good), "--approved", env=NOW)
    assert r.code == 0, r.err
    assert (ws / "memory/knowledge/deploy.md").is_file()
    assert not [p for p in (ws / ".memory-backup").rglob("*") if p.is_file() and "private-folder-name".encode()
                in p.read_bytes()]


# ------------------------------------------------------------ 5. unquarantine writes a mark that verifies, or nothing

def _quarantined(ws: Path, run_script) -> str:
    (ws / "memory/tier2-internal/s_crane.md").write_text(
        f"---\nskill: s\ntopic: crane\ncreated: 2026-11-01\nscheme: none\n---\ncrane contact {PHONE} tonight\n")
    assert run_script("cleanup", env=NOW).code == 0
    q = [p.stem for p in (ws / "memory/.quarantine").glob("*.md")]
    assert len(q) == 1
    return q[0]


@pytest.mark.parametrize("shell", ["another-key", "no-key"])
def test_unquarantine_without_the_stores_key_changes_nothing(ws, run_script, tmp_path, shell):
    _init(run_script)
    ident = _quarantined(ws, run_script)
    held = (ws / f"memory/.quarantine/{ident}.md").read_bytes()
    audit = (ws / "memory/.state/gate-audit.jsonl").read_bytes()
    if shell == "another-key":
        r = run_script("memory", "unquarantine", ident, "--approved", env=E2)
        want = "not this store's key"
    else:
        _key_file().rename(tmp_path / "key.away")
        r = run_script("memory", "unquarantine", ident, "--approved", env=NOW)
        (tmp_path / "key.away").rename(_key_file())
        want = "no T2 key is found"
    assert r.code == 1
    line = _one_error(r)
    assert want in line and line.endswith("nothing was changed"), line
    assert (ws / f"memory/.quarantine/{ident}.md").read_bytes() == held
    assert not (ws / "memory/tier2-internal/s_crane.md").exists()
    assert (ws / "memory/.state/gate-audit.jsonl").read_bytes() == audit  # not even the gate's record


def test_unquarantine_with_the_stores_key_writes_a_mark_cleanup_keeps(ws, run_script):
    _init(run_script)
    ident = _quarantined(ws, run_script)
    r = run_script("memory", "unquarantine", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    text = (ws / "memory/tier2-internal/s_crane.md").read_text(encoding="utf-8")
    assert re.search(r'\napproval: "v2:t2:[0-9a-f]{64}"\n', text), text[:400]
    assert run_script("cleanup", env=NOW).code == 0
    assert not list((ws / "memory/.quarantine").glob("*.md"))
    assert (ws / "memory/tier2-internal/s_crane.md").read_text(encoding="utf-8") == text


# ------------------------------------------------------------ 6. approval lines forget cannot recompute

def test_approval_lines_carry_a_key_fingerprint_and_forget_keeps_other_values_it_can_recompute(ws, run_script):
    _init(run_script)
    for key, phone in (("zeb", PHONE), ("yak", PHONE2)):
        r = run_script("memory", "learn", key, "--text", f"vendor line {phone}", "--approved", env=NOW)
        assert r.code == 0, r.err
    lines = _approvals(ws)
    assert len(lines) == 2 and all(a["kid"] == "t2" and re.fullmatch(r"[0-9a-f]{16}", a["kfp"]) for a in lines)
    assert run_script("memory", "forget", "zeb", "--approved", env=NOW).code == 0
    assert _approvals(ws) == [lines[1]]


def test_forget_without_the_key_drops_every_line_it_cannot_recompute(ws, run_script, tmp_path):
    _init(run_script)
    for key, phone in (("zeb", PHONE), ("yak", PHONE2)):
        assert run_script("memory", "learn", key, "--text", f"vendor line {phone}", "--approved", env=NOW).code == 0
    _key_file().rename(tmp_path / "key.away")
    f = run_script("memory", "forget", "zeb", "--approved", env=NOW)
    assert f.code == 0, f.err
    # Neither t2-keyed line can be recomputed without the key: both go (less kept, never more).
    assert _approvals(ws) == []


def test_forget_under_the_key_file_drops_a_line_keyed_by_another_environment_key(ws, run_script):
    _init(run_script)
    assert run_script("memory", "learn", "zeb", "--text", f"vendor line {PHONE}", "--approved", env=E2).code == 0
    assert run_script("memory", "learn", "yak", "--text", f"vendor line {PHONE2}", "--approved", env=NOW).code == 0
    mine = _approvals(ws)[1]
    assert run_script("memory", "forget", "zeb", "--approved", env=NOW).code == 0
    assert _approvals(ws) == [mine]


# ------------------------------------------------------------ 7. no option error echoes a secret

def test_a_not_found_error_masks_the_id_it_names(ws, run_script):
    _init(run_script)
    r = run_script("memory", "show", TOKEN, env=NOW)
    assert r.code == 1  # a domain error: no such entry
    assert _one_error(r) == "error: no memory entry '[secret]'"


@pytest.mark.parametrize("argv", [
    ("memory", "write", "--date", "{T}", "--topic", "x", "--cause", "y"),
    ("memory", "--json", "write", "--date", "{T}", "--topic", "x", "--cause", "y"),
    ("memory", "report", "--days", "{T}"),
    ("memory", "recall", "x", "--{T}"),
    ("memory", "remember", "--skill", "s", "--topic", "a", "--text", "t", "--scheme", "{T}"),
    ("init", "--lang", "{T}"),
    ("init", "--lang={T}"),
    ("crypt", "encrypt", "--scheme", "{T}"),
    ("cleanup", "--{T}"),
    ("privacy_audit", "--{T}"),
    ("gate", "--{T}"),
    ("doctor", "--{T}"),
    ("detect", "--{T}"),
    ("detect", "--json", "--{T}"),
    ("maintain", "-w", "{ws}", "--only", "{T}"),
])
def test_no_option_error_echoes_a_secret(ws, run_script, argv):
    _init(run_script)
    args = [a.replace("{T}", TOKEN).replace("{ws}", str(ws)) for a in argv]
    r = run_script(*args, env=NOW)
    assert r.code == 2, (r.code, r.out, r.err)  # usage or bad input (STYLE.md)
    assert TOKEN not in r.out + r.err
    assert TOKEN[:8] not in r.out + r.err
    assert "[secret]" in r.out + r.err
    assert "Traceback" not in r.err
