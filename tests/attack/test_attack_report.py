"""Attack: memory.py report (issue 15).

The report may write only its own file: 0600, default memory/.cache/report.html,
with --approved only to an explicit --html FILE outside memory/. It must never
replace a user's file (no backup is taken), and never put T2 plaintext where the
agent reads it on every turn.
"""
from __future__ import annotations

import stat

import pytest

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}


@pytest.fixture
def filled(ws, run_script, t2_key):
    (ws / "AGENTS.md").write_text("# Rules\n\n- Keep answers short.\n", encoding="utf-8")
    (ws / "MEMORY.md").write_text("Prefers tea.\n", encoding="utf-8")
    assert run_script("init", "--yes", env=NOW).code == 0
    (ws / "memory/daily/2026-11-28.md").write_text("## [2026-11-28] Release\n- 改：tagged v2\n", encoding="utf-8")
    assert run_script("memory", "remember", "--skill", "news", "--topic", "habit", "--text", "T2PLAINTEXT at 7",
                      "--approved", env=NOW).code == 0
    return ws


@pytest.mark.parametrize("target,approved", [("AGENTS.md", False), ("MEMORY.md", True),
                                             ("memory/daily/2026-11-28.md", False)])
def test_report_never_overwrites_a_users_file(filled, run_script, target, approved):
    ws = filled
    old = (ws / target).read_bytes()
    args = ["report", "--html", str(ws / target)] + (["--approved"] if approved else [])
    r = run_script("memory", *args, env=NOW)
    assert (ws / target).read_bytes() == old, f"report replaced {target} (exit {r.code})"
    assert r.code != 0


def test_no_t2_plaintext_lands_in_a_file_the_agent_loads(filled, run_script):
    ws = filled
    run_script("memory", "report", "--html", str(ws / "MEMORY.md"), "--approved", env=NOW)
    assert "T2PLAINTEXT" not in (ws / "MEMORY.md").read_text(encoding="utf-8", errors="replace")


def test_every_file_in_the_cache_is_0600(filled, run_script):
    """Issue 10: every file under memory/.cache is 0600, every folder 0700 (matplotlib's too)."""
    ws = filled
    assert run_script("memory", "recall", "release", env=NOW).code == 0
    assert run_script("memory", "report", env=NOW).code == 0
    cache = ws / "memory/.cache"
    modes = {p.relative_to(cache).as_posix(): oct(stat.S_IMODE(p.stat().st_mode)) for p in cache.rglob("*")}
    assert any(name.startswith("matplotlib/") for name in modes), modes  # the font list, made by the report
    assert all(m == ("0o700" if (cache / name).is_dir() else "0o600") for name, m in modes.items()), modes


def test_a_chinese_report_draws_its_chart_labels(filled, run_script):
    """language zh (the default): matplotlib has no CJK glyph, so every chart label is a row of boxes
    and stderr fills with 'Glyph ... missing from font(s)' warnings."""
    r = run_script("memory", "report", env=NOW)
    assert r.code == 0
    assert "missing from font" not in r.err, r.err[:300]
