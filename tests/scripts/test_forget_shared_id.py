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
