"""Variants of the atk11 forget attacks (issue 10, "forgotten means gone"), fixed as one kind.

The gate audit log (``cmm-gate-audit`` v3) names the entry of each record that keeps a hash by
a keyed id; ``forget`` blanks every record of the entry by it, whatever text each saw. These
tests chain the moves the attack tried one by one (edit then prune, merge then prune, combine
then forget), check that other entries' records keep their hashes, that no plain id is written,
and that a v2 log (no ``entry``) is still read and matched by hash. Real scripts, temporary
workspace; secret-shaped values built at run time.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from memory_manager import auditlog, entries, tiers

from .trust_r4_common import NOW, PHONE, _files_holding, _init

OTHER_PHONE = "415-555" + "-0199"
THEN = {"MEMORY_MANAGER_NOW": "2026-06-01T12:00:00+00:00"}
LATER = {"MEMORY_MANAGER_NOW": "2026-12-01T12:00:00+00:00"}


def _records(ws: Path) -> list[dict]:
    log = ws / "memory/.state/gate-audit.jsonl"
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


def _hashed(ws: Path) -> list[dict]:
    return [r for r in _records(ws) if r.get("hash")]


def test_edit_then_prune_then_forget_blanks_every_version(ws, run_script):
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", "--no-key", env=THEN)
    assert r.code == 0, r.err
    assert run_script("memory", "learn", "c2", "--text", f"call {PHONE}", "--approved", env=THEN).code == 0
    assert run_script("memory", "edit", "c2", "--text", f"call {OTHER_PHONE}", "--approved", env=THEN).code == 0
    assert len(_hashed(ws)) == 2
    r = run_script("memory", "prune", env=LATER)
    assert r.code == 0 and "archive" in r.out, r.out + r.err
    assert not (ws / "memory/knowledge/c2.md").exists()
    r = run_script("memory", "forget", entries.knowledge_id("c2"), "--approved", env=LATER)
    assert r.code == 0, r.err
    assert _hashed(ws) == []
    assert all(r["entry"] is None for r in _records(ws))


def test_merged_then_pruned_daily_section_forget_blanks_every_write(ws, run_script):
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=THEN)
    assert r.code == 0, r.err
    assert run_script("memory", "write", "--topic", "contact", "--cause", f"call {PHONE}", "--approved",
                      env=THEN).code == 0
    r = run_script("memory", "write", "--topic", "contact", "--change", "moved on", env=THEN)
    assert r.code == 0, r.err
    ident = re.search(r"\[(d-[0-9a-f-]+)\]", r.out).group(1)
    assert len(_hashed(ws)) == 2
    r = run_script("memory", "prune", env=LATER)
    assert r.code == 0 and "archive" in r.out, r.out + r.err
    r = run_script("memory", "forget", ident, "--approved", env=LATER)
    assert r.code == 0, r.err
    assert _hashed(ws) == []


def test_forget_keeps_the_hashes_of_other_entries(ws, run_script):
    _init(run_script)
    assert run_script("memory", "learn", "a1", "--text", f"call {PHONE}", "--approved", env=NOW).code == 0
    assert run_script("memory", "learn", "b1", "--text", "tea at four", env=NOW).code == 0
    assert run_script("memory", "write", "--topic", "b2", "--cause", "tea at five", env=NOW).code == 0
    kept = [r["hash"] for r in _hashed(ws)][1:]
    assert len(kept) == 2
    r = run_script("memory", "forget", "a1", "--approved", env=NOW)
    assert r.code == 0, r.err
    assert "1 log record(s)" in r.out, r.out
    assert [r["hash"] for r in _hashed(ws)] == kept


def test_the_log_names_no_entry_by_its_plain_id(ws, run_script):
    """The ids derive from key, date and topic: a plain id would confirm a guessed name."""
    _init(run_script)
    assert run_script("memory", "learn", "lemurkey", "--text", "tea at four", env=NOW).code == 0
    assert run_script("memory", "remember", "--skill", "sk", "--topic", "lemurtopic", "--text", "lynx",
                      env=NOW).code == 0
    raw = (ws / "memory/.state/gate-audit.jsonl").read_text(encoding="utf-8")
    assert entries.knowledge_id("lemurkey") not in raw and tiers.t2_id("sk", "lemurtopic") not in raw
    recs = _hashed(ws)
    assert len(recs) == 2 and all(r["v"] == 3 and len(r["entry"]) == 32 for r in recs)
    assert recs[0]["entry"] != recs[1]["entry"]


def test_a_v2_log_is_read_and_its_records_still_blanked_by_hash(ws, run_script):
    _init(run_script)
    assert run_script("memory", "learn", "old1", "--text", f"call {PHONE}", "--approved", env=NOW).code == 0
    assert run_script("memory", "learn", "old2", "--text", "tea at four", env=NOW).code == 0
    log = ws / "memory/.state/gate-audit.jsonl"
    # as round 10 wrote them: v2, no entry
    v2 = [{k: v for k, v in dict(r, v=2).items() if k != "entry"} for r in _records(ws)]
    log.write_text("".join(json.dumps(r) + "\n" for r in v2), encoding="utf-8")
    read = auditlog.read(ws)
    assert [r["v"] for r in read] == [2, 2] and all(r["entry"] is None for r in read)
    r = run_script("memory", "forget", "old1", "--approved", env=NOW)
    assert r.code == 0, r.err
    after = _records(ws)
    assert after[0]["hash"] is None and after[0]["v"] == 2
    assert after[1]["hash"] == v2[1]["hash"]


def test_forget_after_t2_recall_reuse_and_a_rewrite_blanks_them_all(ws, run_script):
    _init(run_script)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "contact", "--text", f"call {PHONE}",
                   "--approved", env=NOW)
    assert r.code == 0, r.err
    ident = re.search(r"\[(t-[0-9a-f]+)\]", r.out).group(1)
    assert run_script("memory", "recall", "call", "--approved", env=NOW).code == 0
    assert run_script("memory", "remember", "--skill", "s", "--topic", "contact", "--text", f"call {OTHER_PHONE}",
                      "--approved", env=NOW).code == 0
    assert run_script("memory", "recall", "call", "--approved", env=NOW).code == 0
    assert len(_hashed(ws)) >= 4
    r = run_script("memory", "forget", ident, "--approved", env=NOW)
    assert r.code == 0, r.err
    assert _hashed(ws) == []


def test_forget_of_a_combined_t2_entry_blanks_its_audit_records_too(ws, run_script):
    first = {"MEMORY_MANAGER_NOW": "2026-10-02T12:00:00+00:00"}
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=first)
    assert r.code == 0, r.err
    r = run_script("memory", "remember", "--skill", "sk", "--topic", "lemurtopic", "--text", "lynx one", env=first)
    ident = re.search(r"\[(t-[0-9a-f]+)\]", r.out).group(1)
    assert run_script("memory", "remember", "--skill", "sk", "--topic", "keep", "--text", "two", env=first).code == 0
    when = {"MEMORY_MANAGER_NOW": "2026-10-20T12:00:00+00:00"}
    assert run_script("cleanup", env=when).code == 0
    assert run_script("memory", "show", ident, "--approved", env=when).code == 0
    keep = [r["hash"] for r in _hashed(ws)][1:2]
    r = run_script("memory", "forget", ident, "--approved", env=when)
    assert r.code == 0, r.err
    assert [r["hash"] for r in _hashed(ws)] == keep  # the other entry's record stays
    assert _files_holding(ws, "lemurtopic") == []


def test_forget_of_an_imported_daily_section_blanks_its_import_records(ws, run_script, tmp_path):
    _init(run_script)
    doc = tmp_path / "in.json"
    doc.write_text(json.dumps({"format": "cmm-export", "version": 3, "daily": [
        {"date": "2026-11-01", "topic": "lemurtopic", "cause": ["tea at four"], "change": ["tea at five"]}]}))
    r = run_script("memory", "import", str(doc), "--approved", env=NOW)
    assert r.code == 0, r.out + r.err
    before = _hashed(ws)
    assert len(before) >= 3
    r = run_script("memory", "forget", entries.daily_id("2026-11-01", "lemurtopic"), "--approved", env=NOW)
    assert r.code == 0, r.err
    # only the import's overall decision (about no content: 0 chars) keeps its hash
    assert [r["chars"] for r in _hashed(ws)] == [0]


def test_cleanup_purge_blanks_the_purged_entrys_audit_records(ws, run_script):
    """A purge is a forget by cleanup: the records of the entry's earlier writes lose their hashes too."""
    from .trust_r4_common import TOKEN

    _init(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "b", "--text", "tea at four",
                      env=NOW).code == 0
    assert run_script("memory", "learn", "k1", "--text", "tea at five", env=NOW).code == 0
    kept = [r["hash"] for r in _hashed(ws)][1:]
    assert len(kept) == 1
    # the file rewritten by hand (or by an older version) with a certain finding and no approval
    (ws / "memory/tier2-internal/s_b.md").write_text(
        f"---\nskill: s\ntopic: b\ncreated: 2026-11-01\nscheme: none\n---\nuse {TOKEN} tonight\n")
    r = run_script("cleanup", env=NOW)
    assert r.code == 0, r.err
    assert not (ws / "memory/tier2-internal/s_b.md").exists(), r.out
    assert [r["hash"] for r in _hashed(ws)] == kept
