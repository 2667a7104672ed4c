"""Attack round 8 (issue 10): what the trust attackers of round 7 (tatk8, helper-85) found, fixed.

Each test plays the attack against the real scripts in a temporary workspace and checks the
promised behaviour. Secret-shaped values are built at run time (tests/test_layout.py refuses
literals).

- A phone number split over lines passed ``import --approved``: a daily line holding a line
  break, two cause lines of one section, a wrapped OpenClaw note. A block whose joined reading
  finds what no single line holds is now held like a possible finding on one line.
- A T2 file in an import carried plain text beside its ciphertext (a ``## Notes`` section with a
  token): only the name, frontmatter and decrypted text were gated.
- ``report`` read the workspace without the lock: a ``forget`` finishing meanwhile left the
  forgotten entry in the page and the page recorded after ``forget`` had looked.
- Forgetting a T2 entry left an ``--html`` report (without ``--approved``) that counted it under
  its skill.
- ``report --html`` took a token or a phone number as a file or folder name, and recorded it.
- The default key file inside the workspace (``HOME`` or ``XDG_CONFIG_HOME`` in it) was used
  without a word.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .trust_r4_common import NOW, PHONE, TOKEN, _init, _export

CN_PHONE = "138" + "1234" + "5678"


def _daily_text(ws) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ws / "memory/daily").glob("*.md")))


@pytest.mark.parametrize("section", [
    {"cause": [f"landlord tel: {CN_PHONE[:3]}-{CN_PHONE[3:7]}-\n{CN_PHONE[7:]} about the lease"]},
    {"cause": [f"landlord's mobile: {CN_PHONE[:3]}-{CN_PHONE[3:7]}-", f"{CN_PHONE[7:]} call after six"]},
    {"cause": [f"landlord {PHONE[:7]}"], "change": [f"{PHONE[7:]} is the rest of it"]},
], ids=["line-with-break", "two-cause-lines", "cause-and-change"])
def test_a_number_split_over_the_lines_of_an_imported_section_is_held(ws, run_script, tmp_path, section):
    _init(run_script)
    export = _export(tmp_path, daily=[{"date": "2026-11-20", "topic": "lease", **section}])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 1, r.err
    doc = json.loads(r.out)
    held = [h for h in doc["held"] if h["category"] == "phone"]
    assert held and doc["counts"]["daily_lines"] == 0
    digits = "".join(c for c in _daily_text(ws) if c.isdigit())
    assert CN_PHONE not in digits and PHONE.replace("-", "") not in digits
    # The user confirms that very number: the section is stored.
    again = run_script("memory", "import", export, "--approved", "--allow", held[0]["finding"], "--json", env=NOW)
    assert again.code == 0, again.err
    assert json.loads(again.out)["counts"]["daily_lines"] >= 2


def test_a_benign_section_of_several_lines_still_imports_with_approval(ws, run_script, tmp_path):
    _init(run_script)
    export = _export(tmp_path, daily=[{"date": "2026-11-20", "topic": "release", "cause": ["build 4411 was red"],
                                       "change": ["pinned node to 22.3"], "todo": ["ship 1.4 on Friday"]}])
    r = run_script("memory", "import", export, "--approved", "--json", env=NOW)
    assert r.code == 0, r.err
    assert json.loads(r.out)["counts"]["daily_lines"] == 3


def test_a_wrapped_number_in_an_openclaw_note_is_held(ws, run_script):
    _init(run_script)
    note = ws / "memory" / "2026-11-20-landlord.md"
    note.write_text(f"# Landlord\n\nHis new mobile: {CN_PHONE[:3]}-{CN_PHONE[3:7]}-\n{CN_PHONE[7:]}, texts only.\n",
                    encoding="utf-8")
    r = run_script("memory", "import", "--from-openclaw", "--approved", "--json", env=NOW)
    assert r.code == 1, r.err
    assert any(h["category"] == "phone" for h in json.loads(r.out)["held"])
    assert (ws / "memory/daily").is_dir() is False or CN_PHONE[7:] not in _daily_text(ws)


def test_plain_text_beside_an_imported_t2_ciphertext_is_gated(ws, run_script, tmp_path):
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "ops", "--topic", "prefs", "--text", "short answers",
                      env=NOW).code == 0
    path = ws / "memory/tier2-internal/ops_prefs.md"
    text = path.read_text(encoding="utf-8") + f"\n## Notes\ndeploy token {TOKEN}\n"
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    export = _export(tmp_path, tier2=[{"file": "ops_prefs.md", "text": text}])
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", "-w", fresh, env=NOW).code == 0
    r = run_script("memory", "import", export, "--approved", "-w", fresh, "--json", env=NOW)
    assert r.code == 1
    assert not (fresh / "memory/tier2-internal/ops_prefs.md").exists()
    assert TOKEN not in r.out + r.err
    # The same file without the extra section imports.
    export = _export(tmp_path, tier2=[{"file": "ops_prefs.md", "text": path.read_text(encoding="utf-8")}])
    ok = run_script("memory", "import", export, "--approved", "-w", fresh, "--json", env=NOW)
    assert ok.code == 0, ok.err
    assert (fresh / "memory/tier2-internal/ops_prefs.md").read_text(encoding="utf-8") == path.read_text(
        encoding="utf-8")


def test_forgetting_a_t2_entry_deletes_an_html_report_that_only_counted_it(ws, run_script, tmp_path):
    from memory_manager import tiers

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "travel", "--topic", "ferry", "--text",
                      "book the Saturday ferry", env=NOW).code == 0
    out = tmp_path / "out" / "memory.html"
    assert run_script("memory", "report", "--html", out, env=NOW).code == 0
    page = out.read_text(encoding="utf-8")
    assert "travel" in page and "book the Saturday ferry" not in page
    ident = tiers.t2_id("travel", "ferry")
    record = json.loads((ws / "memory/.state/reports.json").read_text(encoding="utf-8"))
    assert record["version"] == 2 and record["reports"][0]["hidden"] == [ident]
    r = run_script("memory", "forget", ident, "--approved", "--json", env=NOW)
    assert r.code == 0, r.err
    assert json.loads(r.out)["erased"]["reports_deleted"] == [str(out)] and not out.exists()


def test_a_version_1_report_record_is_still_read(ws, run_script, tmp_path):
    """The record's old form (round 6, no ``hidden`` list) is read: forget still finds a page by its text."""
    from memory_manager.fsio import sha256_bytes

    _init(run_script)
    made = run_script("memory", "learn", "boat", "--text", "The dinghy needs new oarlocks.", "--json", env=NOW)
    assert made.code == 0, made.err
    out = tmp_path / "old.html"
    assert run_script("memory", "report", "--html", out, env=NOW).code == 0
    record = ws / "memory/.state/reports.json"
    record.write_text(json.dumps({"format": "cmm-report-record", "version": 1, "reports": [
        {"path": str(out), "sha256": sha256_bytes(out.read_bytes()), "written": "2026-11-29T12:00:00+00:00"}]}),
        encoding="utf-8")
    r = run_script("memory", "forget", json.loads(made.out)["id"], "--approved", "--json", env=NOW)
    assert r.code == 0, r.err
    assert json.loads(r.out)["erased"]["reports_deleted"] == [str(out)]


@pytest.mark.parametrize("name", [
    lambda: f"memory/.cache/{TOKEN}.html", lambda: f"out/{CN_PHONE}/report.html", lambda: "out/zhang.wei@qq.com.html",
], ids=["token-file", "phone-folder", "email-file"])
def test_report_refuses_a_private_value_in_the_html_path(ws, run_script, tmp_path, name, monkeypatch):
    _init(run_script)
    monkeypatch.chdir(ws if name().startswith("memory/") else tmp_path)
    target = name()
    r = run_script("memory", "report", "--html", target, env=NOW)
    assert r.code == 2 and "nothing was written" in r.err
    assert TOKEN not in r.err and CN_PHONE not in r.err
    assert not (ws / "memory/.state/reports.json").exists()
    assert not list((ws / "memory/.cache").glob("*.html")) if (ws / "memory/.cache").is_dir() else True
    assert not (tmp_path / "out").exists()


def test_report_holds_the_workspace_lock_while_it_reads_and_records(ws, run_script, tmp_path):
    """tatk8: a forget finishing while the report was being built left the forgotten text in the page.
    Whatever the report reads, renders, writes and records happens with the writer lock held."""
    from memory_manager import report
    from memory_manager.workspace import Workspace

    _init(run_script)
    assert run_script("memory", "learn", "boat", "--text", "The dinghy needs new oarlocks.", env=NOW).code == 0
    lock = ws / ".memory-backup" / ".lock"
    seen = []

    def render(model):
        probe = ("import sys\nfrom filelock import FileLock, Timeout\n"
                 "try:\n    FileLock(sys.argv[1], timeout=0.2).acquire()\nexcept Timeout:\n    sys.exit(3)\n")
        seen.append(subprocess.run([sys.executable, "-c", probe, str(lock)]).returncode)
        return "<html></html>"

    target = tmp_path / "r.html"
    report.make(Workspace(ws), target, render, days=30)
    assert seen == [3] and target.read_text(encoding="utf-8") == "<html></html>"


def test_a_default_key_file_inside_the_workspace_is_refused(ws, run_script, tmp_path):
    """helper-85: with HOME (or XDG_CONFIG_HOME) inside the workspace, the default key file lies in
    it and was used silently; a key that travels with every copy of the workspace protects nothing."""
    _init(run_script)
    key_dir = ws / "home-in-ws" / "complex-memory-manager"
    key_dir.mkdir(parents=True)
    (key_dir / "key").write_text("A" * 43 + "=\n", encoding="ascii")
    env = {**NOW, "XDG_CONFIG_HOME": str(ws / "home-in-ws")}
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "prefs", "--text", "short answers", env=env)
    assert r.code == 1 and "inside the workspace" in r.err
    assert not (ws / "memory/tier2-internal/ops_prefs.md").exists()


@pytest.mark.parametrize("by", ["id", "path"])
def test_an_expired_t2_entry_cleanup_archived_can_still_be_forgotten(ws, run_script, by):
    """nu8 (round 8): cleanup moved an expired T2 file to memory/archive/; recall never shows it (by
    design), and show, unarchive and forget answered 'no memory entry' by id, or 'not an entry of this
    store (OpenClaw's own notes ...)' by path: what was stored could no longer be forgotten."""
    from memory_manager import tiers

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "写作", "--topic", "语气", "--text", "用户喜欢简洁的中文回复",
                      env=NOW).code == 0
    later = {"MEMORY_MANAGER_NOW": "2027-01-15T12:00:00+00:00"}
    cleaned = run_script("cleanup", "--json", env=later)
    assert cleaned.code == 0, cleaned.err
    archived = sorted((ws / "memory/archive").rglob("*.md"))
    assert [p.name for p in archived] == ["写作_语气.md"]
    ident = tiers.t2_id("写作", "语气")
    ref = ident if by == "id" else str(archived[0].relative_to(ws))
    shown = run_script("memory", "show", ref, "--approved", "--json", env=later)
    assert shown.code == 0, shown.err
    assert "用户喜欢简洁的中文回复" in json.loads(shown.out)["text"]
    r = run_script("memory", "forget", ref, "--approved", "--json", env=later)
    assert r.code == 0, r.err
    assert not archived[0].exists()
    assert run_script("memory", "show", ident, "--approved", env=later).code != 0
    for path in ws.rglob("*"):
        if path.is_file():
            assert "用户喜欢简洁的中文回复".encode() not in path.read_bytes(), path


def test_a_missing_key_of_aes_gcm_entries_stops_remember_init_reseal_and_keygen(ws, run_script, tmp_path):
    """nu8 (round 8): with the key file moved away, ``remember`` wrote xor-b64 without a word, doctor
    offered ``init --yes`` to make a key, and ``crypt.py reseal`` made a second key: the store was split
    over two keys and the old entries went unreadable. With aes-gcm entries present and no key, each
    stops with one line (exit 1) and changes nothing; ``keygen --force`` makes a new key on purpose."""
    from memory_manager import crypto

    _init(run_script)  # makes the key (init --yes)
    assert run_script("memory", "remember", "--skill", "writing", "--topic", "lang", "--text", "prefers bullet lists",
                      env=NOW).code == 0
    key = tmp_path / "home" / ".config" / "complex-memory-manager" / "key"
    assert key.is_file() and "aes-gcm" in (ws / "memory/tier2-internal/writing_lang.md").read_text(encoding="utf-8")
    key.rename(tmp_path / "key.moved")
    before = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if ".memory-backup" not in p.parts)
    r = run_script("memory", "remember", "--skill", "writing", "--topic", "tone", "--text", "short", env=NOW)
    assert r.code == 1 and "1 T2 entry is sealed with aes-gcm" in r.err and "nothing was stored" in r.err
    for args in (("crypt", "reseal"), ("crypt", "keygen"), ("init", "--yes", "--no-hooks")):
        r = run_script(*args, env=NOW)
        assert r.code == 1 and "a new key cannot open them" in r.err, (args, r.err)
        assert not key.exists()
    doctor = run_script("doctor", env=NOW)
    assert doctor.code == 1 and "sealed with aes-gcm" in doctor.out + doctor.err
    assert sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if ".memory-backup" not in p.parts) == before
    made = run_script("crypt", "keygen", "--force", env=NOW)
    assert made.code == 0 and key.is_file(), made.err
    assert crypto.ENV_KEY == "MEMORY_MANAGER_KEY"
