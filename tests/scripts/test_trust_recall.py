"""Issue 10, recall: a secret is masked before the snippet is cut, so a token cut short by the
snippet's edge never shows more than its first 4 characters (attack kind: cut token)."""
from __future__ import annotations

import json

import pytest

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T10:00:00+00:00"}
TOKEN = "ghp_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"


@pytest.mark.parametrize("filler", [90, 110, 125, 140, 150])
def test_a_token_cut_by_the_snippet_edge_stays_masked(ws, run_script, filler):
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=ENV).code == 0
    # The query word comes first; the token starts near the end of the 160-character window.
    body = "deploy " + ("x" * filler) + f" token {TOKEN} end of the note"
    (ws / "memory" / "2026-11-21-session.md").write_text(f"# Session\n\n## Deploy {TOKEN}\n{body}\n")
    result = run_script("memory", "recall", "deploy", "--json", "--no-track", "-w", ws, env=ENV)
    assert result.code == 0, result.err
    hits = json.loads(result.out)["hits"]
    assert [h["path"] for h in hits] == ["memory/2026-11-21-session.md"]  # still returned
    assert TOKEN[:5] not in result.out  # at most the first 4 characters, in snippet and heading
    assert "[secret]" in hits[0]["heading"]
