"""Attack round 3 (issue 10): forgotten stays forgotten across an entry's older versions.

``forget ID --approved`` searches the backups for the entry's *current* text only.
A backup copy made before the entry last changed (an ``edit``, a ``learn`` update,
a second ``write`` merged into the same daily section) holds the older text, which
the search does not match: the forgotten words stay on disk in ``.memory-backup/``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}


def _files_holding(root: Path, needle: str) -> list[str]:
    out = []
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink() and needle.encode() in p.read_bytes():
            out.append(p.relative_to(root).as_posix())
    return out


def _init(ws: Path, run_script) -> None:
    assert run_script("init", "--yes", "--no-hooks", env=NOW).code == 0


def test_forget_after_edit_leaves_no_earlier_version_in_backups(ws, run_script):
    _init(ws, run_script)
    assert run_script("memory", "learn", "tea", "--text", "original FORGETME1 text", env=NOW).code == 0
    assert run_script("memory", "edit", "tea", "--text", "second FORGETME2 text", "--approved", env=NOW).code == 0
    assert run_script("memory", "edit", "tea", "--text", "third plain text", "--approved", env=NOW).code == 0
    r = run_script("memory", "forget", "tea", "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, "FORGETME1") == []
    assert _files_holding(ws, "FORGETME2") == []


def test_forget_after_a_learn_update_leaves_no_earlier_version_in_backups(ws, run_script):
    _init(ws, run_script)
    assert run_script("memory", "learn", "tea", "--text", "plain FORGETK3 entry text", env=NOW).code == 0
    assert run_script("memory", "used", "tea", env=NOW).code == 0
    r = run_script("memory", "learn", "tea", "--text", "plain FORGETK3 entry text", "--tags", "drink",
                   "--approved", env=NOW)
    assert r.code == 0, r.err
    r = run_script("memory", "forget", "tea", "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, "FORGETK3") == []


def test_forget_of_a_merged_daily_section_leaves_no_earlier_version_in_backups(ws, run_script):
    _init(ws, run_script)
    assert run_script("memory", "write", "--topic", "Rel", "--change", "first FORGETD4 line", env=NOW).code == 0
    assert run_script("memory", "write", "--topic", "Rel", "--change", "second plain line", env=NOW).code == 0
    ident = run_script("memory", "write", "--topic", "Rel", "--change", "second plain line", env=NOW).out
    ident = ident.split("[", 1)[1].split("]", 1)[0]
    assert ident.startswith("d-")
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, "FORGETD4") == []


def _approval_keys(ws: Path) -> set[str]:
    import json

    path = ws / "memory/.state/privacy-approvals.jsonl"
    if not path.is_file():
        return set()
    return {json.loads(line)["key"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def test_forget_leaves_no_confirmable_hash_of_the_forgotten_value(ws, run_script):
    """The approval record keys on HMAC(audit-salt, category + value); the salt lies next to it in
    memory/.state. After forget, anyone with the workspace can still confirm a guessed phone
    number (10^10 guesses at most) against the record: the forgotten value is not gone."""
    from memory_manager.auditlog import content_hash
    from memory_manager.gate import _value_digest

    _init(ws, run_script)
    text = "call Dr. Wang at 415-555-0132 tomorrow"
    assert run_script("memory", "learn", "contact", "--text", text, env=NOW).code == 1
    assert run_script("memory", "learn", "contact", "--text", text, "--approved", env=NOW).code == 0
    guess = content_hash(ws, _value_digest("phone", "415-555-0132"))
    before = _approval_keys(ws)
    # The record holds the number's keyed hash; since round 4 (cmm-privacy-approvals v2) it is keyed
    # with a secret outside the workspace, so the salt beside it no longer confirms the guess.
    assert before and guess not in before
    r = run_script("memory", "forget", "contact", "--approved", env=NOW)
    assert r.code == 0, r.err
    assert guess not in _approval_keys(ws) and not (before & _approval_keys(ws))


def test_forget_leaves_the_forgotten_knowledge_key_nowhere(ws, run_script):
    """forget's own backup names the key three times: the manifest's reason ("forget KEY"), the
    erased entry's path, and a plain copy of knowledge-index.md that lists it."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "zebrakeyplan", "--text", "some plain body text here", env=NOW).code == 0
    assert run_script("memory", "learn", "other", "--text", "x y z", env=NOW).code == 0
    r = run_script("memory", "forget", "zebrakeyplan", "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, "zebrakeyplan") == []


def test_forget_leaves_the_forgotten_daily_topic_nowhere(ws, run_script):
    """The section's topic is listed in daily-index.md; a backup copy of the index keeps it."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "tea", "--text", "green tea", env=NOW).code == 0
    out = run_script("memory", "write", "--topic", "ZebraTopicPlan", "--change", "FORGETDAY text line", env=NOW).out
    ident = out.split("[", 1)[1].split("]", 1)[0]
    assert run_script("memory", "write", "--topic", "Other", "--change", "kept line of text", env=NOW).code == 0
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, "FORGETDAY") == []
    assert _files_holding(ws, "ZebraTopicPlan") == []


def test_a_key_file_inside_the_workspace_is_never_used(ws, run_script, monkeypatch):
    """Every T2 file says its key is "never in the workspace", and crypt.py keygen refuses to put
    it there; but the workspace's own memory-manager.json may point tiers.key_file at a file inside
    the workspace, and remember then seals T2 with it (doctor even shows a check mark): the key
    travels with every copy, backup and sync of the workspace."""
    monkeypatch.delenv("MEMORY_MANAGER_KEY", raising=False)
    assert run_script("init", "--yes", "--no-hooks", "--no-key", env=NOW).code == 0
    key = ws / "t2.key"
    key.write_text("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n", encoding="ascii")
    key.chmod(0o600)
    (ws / "memory/memory-manager.json").write_text('{"tiers": {"key_file": "%s"}}\n' % key, encoding="utf-8")
    r = run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "internal words",
                   "--approved", env=NOW)
    assert r.code == 1, r.out
    assert "inside the workspace" in r.err
    assert not (ws / "memory/tier2-internal/s_t.md").exists()


@pytest.mark.parametrize("target", ["memory/knowledge/tea.md", "MEMORY.md", "memory/.state/gate-audit.jsonl",
                                    "memory/daily-index.md"])
def test_export_out_never_overwrites_a_workspace_file(ws, run_script, target):
    """export --out names any path: pointed at a knowledge entry, MEMORY.md, the gate's audit log
    or an index it replaces the file with the export JSON, exit 0, and keeps no backup copy
    (the report refuses any path inside the workspace but memory/.cache)."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "tea", "--text", "green tea KEEPME", env=NOW).code == 0
    entry = ws / target
    before = entry.read_bytes()
    r = run_script("memory", "export", "--approved", "--out", str(entry), env=NOW)
    assert r.code == 2, r.out
    assert entry.read_bytes() == before


def test_export_out_does_not_replace_an_existing_file_it_did_not_write(ws, run_script, tmp_path):
    """report --html refuses to replace a file that is not a previous report without --overwrite;
    export --out silently replaces any existing file."""
    _init(ws, run_script)
    assert run_script("memory", "learn", "tea", "--text", "green tea", env=NOW).code == 0
    other = tmp_path / "thesis.txt"
    other.write_text("three years of work\n", encoding="utf-8")
    r = run_script("memory", "export", "--approved", "--out", str(other), env=NOW)
    assert r.code != 0, r.out
    assert other.read_text(encoding="utf-8") == "three years of work\n"


def test_an_openclaw_note_name_holding_a_phone_never_becomes_a_topic(ws, run_script):
    """An OpenClaw note's name after the date becomes the daily section's topic. A phone number
    there is held with a finding id; --allow of that id then stores it as the topic
    ("call 415 867 5309", dashes turned to spaces) in the daily note and daily-index.md, though
    a finding in a name is refused whatever the flags (README, "No side doors"; import --help)."""
    import json

    _init(ws, run_script)
    (ws / "memory/2026-11-27-call 415-867-5309.md").write_text("# notes\n\nother plain line about deploy\n",
                                                                encoding="utf-8")
    r = run_script("memory", "import", "--from-openclaw", "--approved", "--json", env=NOW)
    held = json.loads(r.out)["held"]
    assert [h["category"] for h in held] == ["phone"]
    r = run_script("memory", "import", "--from-openclaw", "--approved", "--allow", held[0]["finding"], env=NOW)
    stored = [p for p in (ws / "memory").rglob("*.md")
              if p.name != "2026-11-27-call 415-867-5309.md" and "867" in p.read_text(encoding="utf-8")]
    assert stored == []


def test_a_refused_openclaw_note_name_is_not_echoed_with_its_secret(ws, run_script):
    """The refusal says the secret is never stored or shared, and prints it whole in the file name."""
    _init(ws, run_script)
    token = "gh" + "p_" + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef012345"  # built at run time: no secret-shaped literal in the file
    (ws / f"memory/2026-11-28-{token}.md").write_text("# notes\n\nplain line about the build\n", encoding="utf-8")
    r = run_script("memory", "import", "--from-openclaw", "--approved", env=NOW)
    assert "refuse" in r.err
    assert "ABCDEFGHIJKLMNOP" not in r.out + r.err


def test_an_archived_entry_recall_shows_can_be_forgotten_by_its_id(ws, run_script):
    """prune archives an old section; recall still finds it and prints its id ([archived]); but
    forget ID --approved says "no memory entry", so the user cannot forget it: its text stays in
    the archive, the backups and the recall index."""
    old = {"MEMORY_MANAGER_NOW": "2026-06-01T12:00:00+00:00"}
    assert run_script("init", "--yes", "--no-hooks", env=old).code == 0
    out = run_script("memory", "write", "--topic", "Old", "--change", "ancient PRUNEDTXT line of text", env=old).out
    ident = out.split("[", 1)[1].split("]", 1)[0]
    assert run_script("memory", "write", "--topic", "Old2", "--change", "another old line here", env=old).code == 0
    assert run_script("memory", "prune", env=NOW).code == 0
    hit = run_script("memory", "recall", "PRUNEDTXT", env=NOW).out
    assert "[archived: listed after live entries]" in hit and ident in hit
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _files_holding(ws, "PRUNEDTXT") == []


def test_a_killed_forget_of_a_t2_entry_leaves_no_plain_text_on_disk(tmp_path, run_script, t2_key, monkeypatch):
    """forget's roll-forward journal (.memory-backup/.open-ID) records the needles it will search
    for, and for a T2 entry that is the decrypted plain text, written unsealed although the key
    is at hand. Killed at any point after that (SIGKILL by the test-only crash hook), the
    workspace holds the T2 entry's plain text in a file until some later command runs."""
    leaks = {}
    for n in range(12, 24):
        ws = tmp_path / f"ws{n}"
        ws.mkdir()
        monkeypatch.setenv("OPENCLAW_WORKSPACE_DIR", str(ws))
        assert run_script("init", "--yes", "--no-hooks", env=NOW).code == 0
        r = run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text",
                       "internal CRASHPLAIN words here", "--approved", env=NOW)
        assert r.code == 0, r.err
        ident = r.out.split("[", 1)[1].split("]", 1)[0]
        run_script("memory", "forget", ident, "--approved", env=dict(NOW, MEMORY_MANAGER_CRASH_AT=str(n)))
        found = _files_holding(ws, "CRASHPLAIN")
        if found:
            leaks[n] = found
    assert leaks == {}
