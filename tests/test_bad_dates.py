"""Impossible dates (2026-13-45, 2026-02-30) are "no date", never a crash (QA bug 1)."""
import json
from datetime import date

import pytest

from memory_manager import clock, scoring, units

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}

BAD_NOTE = "# 2026-13-45\n\n## [2026-13-45] tea\n- Change: green tea in the morning\n"
OPENCLAW_NOTE = "# Vendor call\n- green tea supplier called back\n"


@pytest.mark.parametrize("value, expected", [
    ("2026-13-45", None), ("2026-02-30", None), ("2026-00-10", None), ("abcd-01-01", None),
    ("2026-1-5", None), ("", None), (None, None),
    ("2026-02-28", date(2026, 2, 28)), ("2024-02-29.md", date(2024, 2, 29)),
    ("2026-05-19 10:00", date(2026, 5, 19)), (date(2026, 1, 2), date(2026, 1, 2)),
])
def test_parse_day(value, expected):
    assert clock.parse_day(value) == expected


def test_age_days_of_impossible_date_is_undated():
    assert scoring.age_days("2026-13-45", date(2026, 11, 29)) is None
    assert scoring.age_days("2026-02-30", date(2026, 11, 29)) is None
    assert scoring.age_days("2026-11-20", date(2026, 11, 29)) == 9.0


def test_units_treat_impossible_dates_as_undated_and_say_so():
    [entry] = units.parse_text("memory/daily/2026-13-45.md", "daily", BAD_NOTE)
    assert entry.date is None and entry.meta == {"bad_date": "2026-13-45"}
    [note] = units.parse_text("memory/2026-02-30.md", "openclaw", OPENCLAW_NOTE)
    assert note.date is None and note.meta == {"bad_date": "2026-02-30"}
    text = "---\ncreated: 2026-02-30\n---\n# k\n\nbody\n"
    [know] = units.parse_text("memory/knowledge/k.md", "knowledge", text)
    assert know.date is None
    [good] = units.parse_text("memory/daily/2026-11-02.md", "daily", "## [2026-11-01] x\n- Change: y\n")
    assert good.date == "2026-11-01" and good.meta == {}


def _bad_workspace(ws):
    (ws / "memory/daily").mkdir(parents=True)
    (ws / "memory/daily/2026-13-45.md").write_text(BAD_NOTE, encoding="utf-8")
    (ws / "memory/2026-02-30.md").write_text(OPENCLAW_NOTE, encoding="utf-8")


@pytest.mark.parametrize("script, args", [
    ("memory", ["status", "--json"]), ("memory", ["recall", "green tea", "--json"]),
    ("memory", ["prune", "--dry-run", "--json"]), ("cleanup", ["--dry-run", "--json"]),
])
def test_readers_do_not_crash_on_impossible_dates(ws, run_script, script, args):
    _bad_workspace(ws)
    r = run_script(script, *args, env=ENV)
    assert r.code == 0, r.err
    assert "Traceback" not in r.err
    json.loads(r.out)


def test_recall_finds_entries_in_a_badly_dated_note(ws, run_script):
    _bad_workspace(ws)
    r = run_script("memory", "recall", "green tea", "--json", "--no-track", env=ENV)
    hits = json.loads(r.out)["hits"]
    assert sorted(h["path"] for h in hits) == ["memory/2026-02-30.md", "memory/daily/2026-13-45.md"]
    assert all(h["date"] is None for h in hits)


def test_status_reports_the_impossible_dates(ws, run_script):
    _bad_workspace(ws)
    doc = json.loads(run_script("memory", "status", "--json", env=ENV).out)
    assert doc["problems"] == ["memory/2026-02-30.md: '2026-02-30' is not a real date (treated as undated)",
                               "memory/daily/2026-13-45.md: '2026-13-45' is not a real date (treated as undated)"]


def _export(sections):
    return {"format": "cmm-export", "version": 1, "exported": "2026-11-29T12:00:00+00:00",
            "tool_version": "0.1.0", "daily": sections, "knowledge": [], "tier1": [], "tier2": []}


def test_import_refuses_the_section_with_an_impossible_date(ws, run_script, tmp_path):
    doc = _export([
        {"id": "d1", "date": "2026-13-45", "topic": "bad day", "pinned": False,
         "cause": ["green tea"], "change": [], "todo": []},
        {"id": "d2", "date": "2026-11-20", "topic": "good day", "pinned": False,
         "cause": ["black tea"], "change": [], "todo": []},
    ])
    src = tmp_path / "export.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    r = run_script("memory", "import", str(src), "--approved", "--json", env=ENV)
    assert r.code == 1, r.err  # the rest is imported; exit 1: not the whole job (import result v2)
    out = json.loads(r.out)
    assert out["problems"] == ["daily[0]: '2026-13-45' is not a real YYYY-MM-DD date (section not imported)"]
    assert [(x["item"], x["outcome"]) for x in out["refused"]] == [("daily[0]", "invalid")]
    assert out["counts"]["daily"] == 1
    assert sorted(p.name for p in (ws / "memory/daily").iterdir()) == ["2026-11-20.md"]


def test_import_from_openclaw_skips_a_note_with_an_impossible_date(ws, run_script):
    (ws / "memory").mkdir()
    (ws / "memory/2026-02-30.md").write_text(OPENCLAW_NOTE, encoding="utf-8")
    (ws / "memory/2026-02-27-vendor.md").write_text(OPENCLAW_NOTE, encoding="utf-8")
    r = run_script("memory", "import", "--from-openclaw", "--approved", "--json", env=ENV)
    assert r.code == 1, r.err  # the other note is imported; exit 1: not the whole job (import result v2)
    out = json.loads(r.out)
    assert out["problems"] == ["memory/2026-02-30.md: '2026-02-30' is not a real date (note not imported)"]
    assert sorted(p.name for p in (ws / "memory/daily").iterdir()) == ["2026-02-27.md"]


def test_export_names_the_badly_dated_note(ws, run_script):
    _bad_workspace(ws)
    r = run_script("memory", "export", "--approved", "--json", env=ENV)
    assert r.code in (0, 1), r.err
    assert "Traceback" not in r.err
    assert "2026-13-45.md: '2026-13-45' is not a real date (treated as undated)" in r.err + r.out
