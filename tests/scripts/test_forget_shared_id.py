"""An id two knowledge files share (one renamed by hand, its old name learned again) is refused (tatk18 6).

``forget``, ``show`` and ``edit`` by that id stop with one line naming both files and change nothing
(references/tiers.md "forget"); the key or path of either still reaches it, and forgetting one by its
key leaves the other in place.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture()
def shared(ws, run_script):
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=NOW).code == 0
    kb = ws / "memory/knowledge"
    assert run_script("memory", "learn", "k1", "--text", "zebramarker one", env=NOW).code == 0
    kid = re.search(r"k-[0-9a-f]{10}", (kb / "k1.md").read_text(encoding="utf-8")).group(0)
    (kb / "k1.md").rename(kb / "k2.md")  # renamed by hand: the id stays in its frontmatter
    assert run_script("memory", "learn", "k1", "--text", "fresh keepme", env=NOW).code == 0
    return kb, kid


@pytest.mark.parametrize("args", [("forget", "{id}", "--approved"), ("--json", "forget", "{id}", "--approved"),
                                  ("show", "{id}"), ("edit", "{id}", "--text", "other", "--approved")])
def test_a_shared_id_is_refused_naming_both_files_and_nothing_changes(ws, run_script, shared, args):
    kb, kid = shared
    before = _snapshot(ws)
    r = run_script("memory", *[a.format(id=kid) for a in args], env=NOW)
    assert r.code == 2, r.out + r.err
    message = (f"id {kid} is held by 2 knowledge files (memory/knowledge/k1.md, memory/knowledge/k2.md; one was "
               "renamed by hand): give the key or path of the one you mean")
    if "--json" in args:
        assert json.loads(r.out)["error"] == message
    else:
        assert r.err.strip().splitlines() == [f"error: {message}"], r.err
    assert _snapshot(ws) == before


def test_the_key_still_reaches_one_and_the_other_stays(ws, run_script, shared):
    kb, _kid = shared
    r = run_script("memory", "forget", "k1", "--approved", env=NOW)
    assert r.code == 0, r.err
    assert not (kb / "k1.md").exists()
    assert "zebramarker" in (kb / "k2.md").read_text(encoding="utf-8")
    assert "keepme" not in "".join(p.read_text(encoding="utf-8", errors="replace") for p in ws.rglob("*.md"))


# ------------------------------------------------------------ tatk19: the same rule for every place an id lives

LATE = {"MEMORY_MANAGER_NOW": "2026-12-01T10:00:00+00:00"}


@pytest.fixture()
def archived_and_live(ws, run_script):
    """foo learned, pruned, learned again; then the live file given the archived entry's id by hand
    (what a workspace written before the fresh id holds)."""
    day = {"MEMORY_MANAGER_NOW": "2026-01-01T10:00:00+00:00"}
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=day).code == 0
    assert run_script("memory", "learn", "foo", "--text", "zebramarker blue", env=day).code == 0
    assert run_script("memory", "prune", env=LATE).code == 0
    r = run_script("memory", "learn", "foo", "--text", "fresh keepme green", env=LATE)
    assert r.code == 0, r.err
    old = "k-2c26b46b68"  # knowledge_id("foo")
    live = ws / "memory/knowledge/foo.md"
    text = live.read_text(encoding="utf-8")
    new = re.search(r"^id: (k-[0-9a-f]{10})$", text, re.M).group(1)
    assert new != old and f"[{new}]" in r.out  # the key's next id (formats.md "Ids"), and learn says it
    live.write_text(text.replace(f"id: {new}", f"id: {old}"), encoding="utf-8")
    return live, ws / "memory/archive/2026-01/knowledge-foo.md", old


@pytest.mark.parametrize("verb", [("forget", "{id}", "--approved"), ("show", "{id}")])
def test_an_id_an_archived_and_a_live_entry_share_is_refused(ws, run_script, archived_and_live, verb):
    _live, _archived, kid = archived_and_live
    before = _snapshot(ws / "memory")
    r = run_script("memory", *[a.format(id=kid) for a in verb], env=LATE)
    assert r.code == 2, r.out + r.err
    assert r.err.strip().splitlines() == [
        f"error: id {kid} is held by 2 files (memory/knowledge/foo.md, memory/archive/2026-01/knowledge-foo.md): "
        f"give <path>#<id> of the one you mean (memory/archive/2026-01/knowledge-foo.md#{kid})"
    ], r.err
    assert {k: v for k, v in _snapshot(ws / "memory").items() if not k.startswith((".state", ".cache"))} == \
        {k: v for k, v in before.items() if not k.startswith((".state", ".cache"))}


@pytest.mark.parametrize("pick", ["memory/archive/2026-01/knowledge-foo.md", "memory/archive/2026-01/knowledge-foo.md#{id}",
                                  "archive/2026-01/knowledge-foo.md#{id}"])
def test_the_archive_path_reaches_the_archived_one_and_the_key_the_live_one(ws, run_script, archived_and_live, pick):
    live, archived, kid = archived_and_live
    r = run_script("memory", "forget", pick.format(id=kid), "--approved", env=LATE)
    assert r.code == 0, r.err
    assert not archived.exists() and "keepme" in live.read_text(encoding="utf-8")
    assert "zebramarker" not in "".join(p.read_text(encoding="utf-8", errors="replace") for p in ws.rglob("*.md"))
    r = run_script("memory", "forget", "foo", "--approved", env=LATE)
    assert r.code == 0, r.err
    assert not live.exists()


def test_path_and_id_of_another_file_is_not_found(ws, run_script, archived_and_live):
    _live, _archived, kid = archived_and_live
    before = _snapshot(ws / "memory")
    r = run_script("memory", "forget", f"memory/daily/none.md#{kid}", "--approved", env=LATE)
    assert r.code != 0 and r.err.startswith("error: no memory entry"), r.err
    r = run_script("memory", "forget", f"../../etc/passwd#{kid}", "--approved", env=LATE)
    assert r.code != 0, r.err
    assert _snapshot(ws / "memory") == before


def test_a_quarantine_file_is_reached_by_its_path(ws, run_script):
    from tests.attack.test_attack_r19_quick import _quarantine_twice
    from tests.attack.trust_r4_common import NOW

    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=NOW).code == 0
    held = _quarantine_twice(ws, run_script)
    q = ws / "memory/.quarantine"
    newer, older = held  # t-<id>-2.md sorts before t-<id>.md: the second quarantine is the -2 one
    assert newer.endswith("-2.md")
    ident = "t-" + older.split("-")[1].split(".")[0]
    r = run_script("memory", "show", f"memory/.quarantine/{newer}", "--approved", env=NOW)
    assert r.code == 0 and "refunds" in r.out and "invoices" not in r.out, r.out + r.err
    r = run_script("memory", "forget", f"memory/.quarantine/{newer}#{ident}", "--approved", env=NOW)
    assert r.code == 0, r.err
    assert sorted(p.name for p in q.glob("*.md")) == [older]
    r = run_script("memory", "show", ident, "--approved", env=NOW)  # one file holds it now
    assert r.code == 0 and "invoices" in r.out, r.out + r.err


def test_a_copied_daily_section_is_reached_once_its_id_comment_goes(ws, run_script):
    day1 = {"MEMORY_MANAGER_NOW": "2026-11-28T12:00:00+00:00"}
    day2 = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks", env=day1).code == 0
    assert run_script("memory", "write", "--topic", "release", "--cause", "old build broke", "--change",
                      "tagged v2", "--todo", "ship", env=day1).code == 0
    first, second = ws / "memory/daily/2026-11-28.md", ws / "memory/daily/2026-11-29.md"
    text = first.read_text(encoding="utf-8")
    section = text[text.index("## "):]
    ident = re.search(r"d-\d{8}-[0-9a-f]{8}", section).group(0)
    second.write_text(section.replace("tagged v2", "tagged v3 copy"), encoding="utf-8")
    r = run_script("memory", "forget", ident, "--approved", env=day2)
    assert r.code == 2 and "memory/daily/2026-11-28.md, memory/daily/2026-11-29.md" in r.err, r.err
    # The hint: <path>#<id> picks one; the copy goes, the original stays.
    assert f"give <path>#<id> of the one you mean (memory/daily/2026-11-29.md#{ident})" in r.err
    before = first.read_bytes()
    r = run_script("memory", "forget", f"memory/daily/2026-11-29.md#{ident}", "--approved", env=day2)
    assert r.code == 0, r.err
    assert first.read_bytes() == before and "tagged v3 copy" not in "".join(
        p.read_text(encoding="utf-8", errors="replace") for p in ws.rglob("*.md"))


def test_an_id_two_archive_files_hold_is_refused_by_unarchive_and_picked_by_path(ws, run_script):
    day = {"MEMORY_MANAGER_NOW": "2026-01-01T10:00:00+00:00"}
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=day).code == 0
    assert run_script("memory", "learn", "foo", "--text", "zebramarker blue", env=day).code == 0
    assert run_script("memory", "prune", env=LATE).code == 0
    first = ws / "memory/archive/2026-01/knowledge-foo.md"
    copy = ws / "memory/archive/2026-02/knowledge-foo.md"
    copy.parent.mkdir()
    copy.write_text(first.read_text(encoding="utf-8").replace("zebramarker blue", "zebramarker copy"), encoding="utf-8")
    kid = "k-2c26b46b68"
    before = _snapshot(ws / "memory")
    r = run_script("memory", "unarchive", kid, "--approved", env=LATE)
    assert r.code == 2, r.out + r.err
    assert r.err.strip().splitlines() == [
        f"error: id {kid} is held by 2 files (memory/archive/2026-01/knowledge-foo.md, "
        f"memory/archive/2026-02/knowledge-foo.md): give <path>#<id> of the one you mean "
        f"(memory/archive/2026-02/knowledge-foo.md#{kid})"], r.err
    assert {k: v for k, v in _snapshot(ws / "memory").items() if not k.startswith((".state", ".cache"))} == \
        {k: v for k, v in before.items() if not k.startswith((".state", ".cache"))}
    r = run_script("memory", "unarchive", f"memory/archive/2026-02/knowledge-foo.md#{kid}", "--approved", env=LATE)
    assert r.code == 0, r.err
    assert "zebramarker copy" in (ws / "memory/knowledge/foo.md").read_text(encoding="utf-8")
    assert not copy.exists() and "zebramarker blue" in first.read_text(encoding="utf-8")
