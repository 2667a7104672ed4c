"""``memory.py import``: the exit code and result of a partial import (v2), and ``--allow`` bound
to what it approves (issue 10, round 6; issue 11's rule: exit 0 means the whole job was done).

Each test runs the real script on a real export file in a temporary workspace and checks the exit
code, the one JSON document (or the lines) it prints and what is on disk. Secret-shaped values are
built at run time (tests/test_layout.py refuses literals).
"""
from __future__ import annotations

import json

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
TOKEN = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8" + "Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
PHONE = "415-555" + "-0132"


def _init(run_script, *extra: str) -> None:
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", *extra, env=ENV)
    assert r.code == 0, r.err


def _entry(key: str, body: str) -> dict:
    return {"id": f"k-{key}", "key": key, "tags": [], "created": "2026-11-20", "updated": "2026-11-20",
            "pinned": False, "body": body}


def _export(tmp_path, *knowledge: dict, daily: list | None = None) -> str:
    doc = {"format": "cmm-export", "version": 3, "exported": "2026-11-28T10:00:00+00:00", "tool_version": "0.1.0",
           "daily": daily or [], "knowledge": list(knowledge), "tier1": [], "tier2": [], "archive": [], "lessons": []}
    path = tmp_path / "in.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def _knowledge(ws) -> list[str]:
    return sorted(p.name for p in (ws / "memory/knowledge").glob("*.md"))


def test_a_whole_import_exits_0_and_lists_each_item(ws, run_script, tmp_path):
    _init(run_script)
    src = _export(tmp_path, _entry("deploy", "run the staging job first"),
                  daily=[{"date": "2026-11-20", "topic": "release", "cause": ["freeze starts"], "change": [],
                          "todo": []}])
    r = run_script("memory", "import", src, "--approved", "--json", env=ENV)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert (doc["format"], doc["version"], doc["complete"]) == ("cmm-import-result", 2, True)
    assert doc["imported"] == [{"kind": "daily", "item": "daily 2026-11-20 release", "lines": 1},
                               {"kind": "knowledge", "item": "knowledge deploy"}]
    assert doc["refused"] == [] and doc["counts"]["knowledge"] == 1 and doc["counts"]["daily_lines"] == 1
    # The same file again: everything is there already, nothing refused: still a whole job.
    again = run_script("memory", "import", src, "--approved", "--json", env=ENV)
    assert again.code == 0 and json.loads(again.out)["imported"] == []


def test_a_partial_import_exits_1_imports_what_passed_and_names_each_refused_item(ws, run_script, tmp_path):
    """A secret is refused, a phone number held; the clean entry is imported. Exit 1, and each item
    is named with its category, never its value (JSON and lines)."""
    _init(run_script)
    src = _export(tmp_path, _entry("deploy", "run the staging job first"), _entry("ci", f"token {TOKEN}"),
                  _entry("pager", f"call {PHONE} at night"))
    r = run_script("memory", "import", src, "--approved", "--json", env=ENV)
    assert r.code == 1, r.err
    doc = json.loads(r.out)
    assert doc["complete"] is False
    assert doc["imported"] == [{"kind": "knowledge", "item": "knowledge deploy"}]
    assert [(x["item"], x["outcome"], x["categories"]) for x in doc["refused"]] == [
        ("knowledge ci", "refused", ["secret"]), ("knowledge pager", "held", ["phone"])]
    assert doc["held"][0]["where"] == "knowledge pager" and doc["held"][0]["category"] == "phone"
    assert TOKEN[4:16] not in r.out and PHONE not in r.out and "5550132" not in r.out
    assert _knowledge(ws) == ["deploy.md"]

    # The same in lines: stdout says what was imported, stderr what was not and why.
    _init(run_script)
    (ws / "memory/knowledge/deploy.md").unlink()
    text = run_script("memory", "import", src, "--approved", env=ENV)
    assert text.code == 1
    assert "imported: knowledge deploy" in text.out.splitlines()
    err = text.err.splitlines()
    assert err[0].startswith("not imported (refused, secret): knowledge ci: refuse (")
    assert err[1].startswith("not imported (held, phone): knowledge pager: held (possible phone ")
    assert err[2] == "import incomplete: 2 item(s) not imported, 1 imported"
    assert TOKEN[4:16] not in text.out + text.err and PHONE not in text.out + text.err


def test_a_malformed_item_makes_the_import_partial_too(ws, run_script, tmp_path):
    _init(run_script)
    src = _export(tmp_path, _entry("deploy", "run the staging job first"),
                  daily=[{"date": "2026-13-45", "topic": "release", "cause": ["freeze"], "change": [], "todo": []}])
    r = run_script("memory", "import", src, "--approved", "--json", env=ENV)
    assert r.code == 1
    doc = json.loads(r.out)
    assert doc["imported"] == [{"kind": "knowledge", "item": "knowledge deploy"}]
    assert doc["refused"] == [{"item": "daily[0]", "outcome": "invalid", "categories": [],
                               "reason": "daily[0]: '2026-13-45' is not a real YYYY-MM-DD date (section not imported)"}]


def _held_id(run_script, src: str) -> str:
    r = run_script("memory", "import", src, "--approved", "--json", env=ENV)
    assert r.code == 1
    return json.loads(r.out)["held"][0]["finding"]


def test_allow_must_name_a_finding_held_in_this_import(ws, run_script, tmp_path):
    """``--allow`` with an id that is not 12 hex digits, or that names no finding of this file (a
    typo, an id from another file or workspace): exit 2, one line, nothing imported. With the id
    the first run listed, the held entry is imported and the job is whole (exit 0)."""
    _init(run_script)
    src = _export(tmp_path, _entry("deploy", "run the staging job first"), _entry("pager", f"call {PHONE} at night"))
    ident = _held_id(run_script, src)
    (ws / "memory/knowledge/deploy.md").unlink()
    for bad in ("xyz", "0" * 12, ident[:-1] + ("0" if ident[-1] != "0" else "1")):
        r = run_script("memory", "import", src, "--approved", "--allow", bad, env=ENV)
        assert r.code == 2, (bad, r.err)
        assert r.err.count("\n") == 1 and "--allow" in r.err and "nothing was imported" in r.err
        assert _knowledge(ws) == []
    r = run_script("memory", "import", src, "--approved", "--allow", ident, "--json", env=ENV)
    assert r.code == 0, r.err
    assert [x["item"] for x in json.loads(r.out)["imported"]] == ["knowledge deploy", "knowledge pager"]
    assert _knowledge(ws) == ["deploy.md", "pager.md"]


def test_allow_that_cannot_be_recorded_is_refused_before_anything_is_written(ws, run_script, tmp_path, monkeypatch):
    """No T2 key and $XDG_CONFIG_HOME inside the workspace: no secret outside the workspace can
    record the approval, so ``--allow`` is refused (exit 1, ``approval_unbound``), nothing is
    imported, not even the clean entry; ``--approved`` alone (nothing to record) still imports that."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(ws / ".config"))
    _init(run_script, "--no-key")
    src = _export(tmp_path, _entry("deploy", "run the staging job first"), _entry("pager", f"call {PHONE} at night"))
    ident = _held_id(run_script, src)
    (ws / "memory/knowledge/deploy.md").unlink()
    r = run_script("memory", "import", src, "--approved", "--allow", ident, "--json", env=ENV)
    assert r.code == 1
    doc = json.loads(r.out)
    assert doc["kind"] == "approval_unbound" and "cannot bind the approval" in doc["error"]
    assert _knowledge(ws) == []
    assert not any(PHONE.encode() in p.read_bytes() for p in ws.rglob("*") if p.is_file())
    plain = run_script("memory", "import", src, "--approved", "--json", env=ENV)
    assert plain.code == 1 and _knowledge(ws) == ["deploy.md"]
