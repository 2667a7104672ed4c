"""Attack (issue 10, "Side doors past the gate"), each kind with its siblings.

1. Approval is specific: ``import --approved`` approves the import, not every possible
   finding in a file the user has not read. Each finding is held, listed with its id, and
   stored only when the user names it (``--allow ID``); certain findings never are.
2. Names are not content (gate rule 0): a finding of any confidence in a value that becomes
   a file name, the frontmatter of a sealed T2 entry or a T1 (public) value is refused,
   whatever the flags: remember --skill/--topic, learn KEY, event --skill, stats
   record/pattern, and every name and T1 value of an import (read as text, not JSON).
3. A multi-line secret is judged as a block in every door: write, learn, remember, import
   of a daily line holding line breaks, import of an OpenClaw note.
4. unarchive validates the archived knowledge key as learn does, and gates it as a name.
"""
from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
DAY = "2026-11-29"
#: A PuTTY private key pasted whole: the header lines are key material, the body line alone is not.
PUTTY_BODY = "AAAAIHq7Lm2Xp9Zk4Rt8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Qa1Bc"
PUTTY = f"PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\n{PUTTY_BODY}"


def _init(run_script):
    r = run_script("init", "--yes", "--no-hooks", env=NOW)
    assert r.code == 0, r.err


def _on_disk(ws: Path, needle: str) -> list[str]:
    """Workspace files whose name or content holds ``needle`` (or its NFKC form)."""
    forms = {needle, unicodedata.normalize("NFKC", needle)}
    found = []
    for p in ws.rglob("*"):
        rel = p.relative_to(ws).as_posix()
        if any(f in rel for f in forms):
            found.append("name:" + rel)
        elif p.is_file() and any(f in p.read_bytes().decode("utf-8", "replace") for f in forms):
            found.append(rel)
    return found


def _export(tmp_path: Path, **parts) -> Path:
    doc = {"format": "cmm-export", "version": 2, "exported": "2026-11-30T00:00:00+00:00", "tool_version": "0.1.0",
           "daily": [], "knowledge": [], "tier1": [], "tier2": []}
    doc.update(parts)
    f = tmp_path / "exp.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return f


def _daily(cause: list[str], topic: str = "imp") -> list[dict]:
    return [{"id": "d-20261129-0000000a", "date": DAY, "topic": topic, "pinned": False, "cause": cause,
             "change": [], "todo": [], "other": []}]


# ------------------------------------------------------------------ 1. approval is specific

PHONE = "我手机 158 1234 5678，有事打"
ADDRESS = "寄到：上海市浦东新区张杨路 1210 弄 22 号 401 室"
NAME = "房东王建国说下个月涨房租"
BENIGN = "the CI cache now keeps wheels"


def test_import_holds_each_possible_finding_and_names_it(ws, run_script, tmp_path):
    _init(run_script)
    f = _export(tmp_path, daily=_daily([PHONE, ADDRESS, NAME, BENIGN]))
    r = run_script("memory", "import", str(f), "--approved", "--json", env=NOW)
    assert r.code == 1, r.err  # held items: the import is not whole (import result v2, round 6)
    doc = json.loads(r.out)
    assert doc["counts"]["daily_lines"] == 1
    assert sorted({(h["where"], h["category"], h["confidence"]) for h in doc["held"]}) == [
        ("daily[0] line 1", "phone", "possible"), ("daily[0] line 2", "address", "possible"),
        ("daily[0] line 3", "name", "possible")]
    assert all(re.fullmatch(r"[0-9a-f]{12}", h["finding"]) for h in doc["held"])
    assert [v for v in ("158 1234 5678", "张杨路", "王建国") if _on_disk(ws, v)] == []
    assert BENIGN in (ws / f"memory/daily/{DAY}.md").read_text(encoding="utf-8")
    # the id is not the value: nothing of it in the output
    assert "158" not in r.out and "张杨路" not in r.out and "王建国" not in r.out


def test_allow_stores_exactly_the_finding_the_user_named(ws, run_script, tmp_path):
    _init(run_script)
    f = _export(tmp_path, daily=_daily([PHONE, ADDRESS, NAME]))
    first = json.loads(run_script("memory", "import", str(f), "--approved", "--json", env=NOW).out)
    phone = next(h["finding"] for h in first["held"] if h["category"] == "phone")
    r = run_script("memory", "import", str(f), "--approved", "--allow", phone, "--json", env=NOW)
    assert r.code == 1, r.err  # the address and the name are still held
    doc = json.loads(r.out)
    assert sorted({h["category"] for h in doc["held"]}) == ["address", "name"]
    assert _on_disk(ws, "158 1234 5678") == [f"memory/daily/{DAY}.md"]
    assert _on_disk(ws, "张杨路") == [] and _on_disk(ws, "王建国") == []
    # the user's confirmation of that finding is in the approval record (a keyed hash, never the value)
    record = (ws / "memory/.state/privacy-approvals.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["category"] for line in record] == ["phone"]


def test_allow_covers_no_certain_finding_and_no_finding_of_another_value(ws, run_script, tmp_path):
    _init(run_script)
    secret = "the wifi password at the cabin is tern-lake-4471"
    other_phone = "备用号码 139 8765 4321"
    f = _export(tmp_path, daily=_daily([PHONE, secret, other_phone]))
    first = json.loads(run_script("memory", "import", str(f), "--approved", "--json", env=NOW).out)
    ids = [h["finding"] for h in first["held"]]
    assert len(ids) == 2  # the two phones; the password is refused outright, never held
    phone = next(h["finding"] for h in first["held"] if h["where"] == "daily[0] line 1")
    r = run_script("memory", "import", str(f), "--approved", "--allow", phone, "--json", env=NOW)
    doc = json.loads(r.out)
    assert any("line 2: refuse" in s for s in doc["skipped"])
    assert _on_disk(ws, "tern-lake-4471") == [] and _on_disk(ws, "139 8765 4321") == []
    assert _on_disk(ws, "158 1234 5678") == [f"memory/daily/{DAY}.md"]


def test_allow_without_the_imports_approval_stores_nothing(ws, run_script, tmp_path):
    _init(run_script)
    f = _export(tmp_path, daily=_daily([PHONE]))
    first = json.loads(run_script("memory", "import", str(f), "--approved", "--json", env=NOW).out)
    r = run_script("memory", "import", str(f), "--allow", first["held"][0]["finding"], env=NOW)
    assert r.code == 1 and "import always needs the user's explicit approval" in r.err
    assert _on_disk(ws, "158 1234 5678") == []


def test_openclaw_notes_are_held_the_same_way(ws, run_script):
    _init(run_script)
    (ws / "memory/2026-11-28.md").write_text(f"# 2026-11-28\n\n- {PHONE}\n\n- {BENIGN}\n", encoding="utf-8")
    r = run_script("memory", "import", "--from-openclaw", "--approved", "--json", env=NOW)
    doc = json.loads(r.out)
    assert [h["category"] for h in doc["held"]] == ["phone"]
    assert _on_disk(ws, "158 1234 5678") == ["memory/2026-11-28.md"]  # the user's own note, read only
    assert BENIGN in (ws / "memory/daily/2026-11-28.md").read_text(encoding="utf-8")


def test_a_sensitive_topic_in_an_import_is_held_too(ws, run_script, tmp_path):
    _init(run_script)
    f = _export(tmp_path, knowledge=[{"id": "k-000000000a", "key": "family", "tags": ["home"], "created": DAY,
                                      "updated": DAY, "pinned": False, "body": "我妈有 2 型糖尿病，每天打胰岛素"}])
    doc = json.loads(run_script("memory", "import", str(f), "--approved", "--json", env=NOW).out)
    assert {(h["where"], h["category"], h["confidence"]) for h in doc["held"]} == {
        ("knowledge family", "health", "topic")}
    assert not (ws / "memory/knowledge/family.md").exists()


# ------------------------------------------------------------------ 2. names are not content

HEALTH = "我妈有 2 型糖尿病"


NAMED = [(HEALTH, "2 型糖尿病"), ("bipolar II", "bipolar II"), ("房东王建国", "王建国"),
         ("call 158 1234 5678", "158 1234 5678")]


@pytest.mark.parametrize("door", ["remember_topic", "remember_skill", "learn_key", "event_skill", "stats_record",
                                  "stats_pattern_skill", "stats_pattern_trigger", "stats_pattern_skills"])
def test_a_finding_in_a_name_is_refused_even_with_approval(ws, run_script, door):
    """A sensitive topic, a possible name and a phone, each in each door: refused, nothing on disk."""
    _init(run_script)
    for value, needle in NAMED:
        _refused_in(ws, run_script, door, value, needle)


def _refused_in(ws, run_script, door, value, needle):
    args = {
        "remember_topic": ("remember", "--skill", "s", "--topic", value, "--text", "prefers short replies"),
        "remember_skill": ("remember", "--skill", value, "--topic", "t", "--text", "prefers short replies"),
        "learn_key": ("learn", value, "--text", "ordinary text"),
        "event_skill": ("event", "skill_complete", "--skill", value, "--text", "ran fine"),
        "stats_record": ("stats", "record", "--skill", value, "--ok"),
        "stats_pattern_skill": ("stats", "pattern", "--trigger", "deploy", "--skills", "s1", "--skill", value),
        "stats_pattern_trigger": ("stats", "pattern", "--trigger", value, "--skills", "s1"),
        "stats_pattern_skills": ("stats", "pattern", "--trigger", "deploy", "--skills", value),
    }[door]
    r = run_script("memory", *args, "--approved", env=NOW)
    assert r.code == 1, (door, value, r.code, r.out, r.err)
    assert "names and public values are stored as plain text" in r.err, (door, value)
    assert _on_disk(ws, needle) == [], (door, value)


def test_a_hex_api_key_in_a_t1_trigger_is_refused(ws, run_script):
    _init(run_script)
    value = "f3a9c1e7b2d84f6a9e0c5b7d1a3f8e2c"
    r = run_script("memory", "stats", "pattern", "--trigger", f'api_key = "{value}"', "--skills", "s1",
                   "--approved", env=NOW)
    assert r.code == 1 and _on_disk(ws, value) == []


def test_a_plain_name_still_stores(ws, run_script):
    """The rule refuses findings, not names: the ordinary doors keep working."""
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "news", "--topic", "digest", "--text",
                      "prefers short replies", "--approved", env=NOW).code == 0
    assert run_script("memory", "stats", "pattern", "--trigger", "deploy friday", "--skills", "s1", env=NOW).code == 0
    assert run_script("memory", "learn", "deploy-notes", "--text", "tag first", env=NOW).code == 0


def _t1(key: str, trigger: str) -> list[dict]:
    return [{"file": "s1_stats.json", "data": {"format": "cmm-t1-stats", "version": 1,
             "skill_stats": {key: {"calls": 1, "successes": 1, "success_rate": 1.0, "last_used": DAY}},
             "patterns_observed": [{"trigger": trigger, "skills_used": ["s1"], "count": 1, "last_seen": DAY}]}}]


@pytest.mark.parametrize("key,trigger,needle", [
    ("s1", 'password: "Quokka93xzTern"', "Quokka93xzTern"),
    ("s1", HEALTH, "2 型糖尿病"),
    ("call 158 1234 5678", "deploy", "158 1234 5678"),
], ids=["quoted_password", "health_trigger", "phone_skill_key"])
def test_every_t1_value_of_an_import_is_read_as_text_and_refused_with_any_finding(ws, run_script, tmp_path,
                                                                                  key, trigger, needle):
    _init(run_script)
    f = _export(tmp_path, tier1=_t1(key, trigger))
    finding = json.loads(run_script("memory", "import", str(f), "--approved", "--json", env=NOW).out)
    assert finding["counts"]["tier1"] == 0 and finding["held"] == []
    assert _on_disk(ws, needle) == []
    assert not (ws / "memory/tier1-public/s1_stats.json").exists()


def test_a_t2_import_whose_topic_holds_a_finding_is_refused(ws, run_script, tmp_path):
    _init(run_script)
    enc = run_script("crypt", "encrypt", "--skill", "s", "--month", "2026-11", "--scheme", "xor-b64",
                     input="prefers short replies")
    assert enc.code == 0, enc.err
    text = ("---\ntier: internal\nsource_skill: s\nkey_hint: s-2026-11\ncreated: 2026-11-29\n"
            "expires: 2026-12-29\nformat: cmm-t2\nversion: 1\nid: t-00000000ab\ntopic: bipolar II\n"
            "scheme: xor-b64\ntext_encoding: latin-1\nkey_derivation: concat\n---\n\n## 加密条目\n> "
            + enc.out.strip() + "\n")
    f = _export(tmp_path, tier2=[{"file": "s_bipolar II.md", "text": text}])
    doc = json.loads(run_script("memory", "import", str(f), "--approved", "--json", env=NOW).out)
    assert doc["counts"]["tier2"] == 0 and _on_disk(ws, "bipolar") == []


# ------------------------------------------------------------------ 3. multi-line secrets are one block

@pytest.mark.parametrize("door", ["write", "learn", "remember"])
def test_a_multiline_key_is_refused_whole_by_every_store_door(ws, run_script, t2_key, door):
    _init(run_script)
    args = {"write": ("write", "--topic", "keys", "--cause", PUTTY),
            "learn": ("learn", "keys", "--text", PUTTY),
            "remember": ("remember", "--skill", "s", "--topic", "keys", "--text", PUTTY)}[door]
    r = run_script("memory", *args, "--approved", env=NOW)
    assert r.code == 1 and "refuse" in r.err
    assert _on_disk(ws, PUTTY_BODY) == []


def test_an_imported_daily_line_with_line_breaks_is_one_block(ws, run_script, tmp_path):
    _init(run_script)
    f = _export(tmp_path, daily=_daily([PUTTY, BENIGN]))
    doc = json.loads(run_script("memory", "import", str(f), "--approved", "--json", env=NOW).out)
    assert any(s.startswith("daily[0] block 1: refuse") for s in doc["skipped"])
    assert _on_disk(ws, PUTTY_BODY) == []
    assert BENIGN in (ws / f"memory/daily/{DAY}.md").read_text(encoding="utf-8")


def test_an_openclaw_note_with_a_key_over_lines_keeps_only_its_other_paragraphs(ws, run_script):
    _init(run_script)
    note = f"# 2026-11-28\n\n{PUTTY}\n\n- {BENIGN}\n"
    (ws / "memory/2026-11-28.md").write_text(note, encoding="utf-8")
    r = run_script("memory", "import", "--from-openclaw", "--approved", "--json", env=NOW)
    assert r.code == 1, r.err  # the key's block is refused: not the whole note (import result v2, round 6)
    assert [x["outcome"] for x in json.loads(r.out)["refused"]] == ["refused"]
    assert _on_disk(ws, PUTTY_BODY) == ["memory/2026-11-28.md"]  # the user's own note, read only
    assert BENIGN in (ws / "memory/daily/2026-11-28.md").read_text(encoding="utf-8")


# ------------------------------------------------------------------ 4. unarchive validates the key

@pytest.fixture
def archived_tea(ws, run_script):
    (ws / "memory").mkdir()
    old = {"MEMORY_MANAGER_NOW": "2026-05-01T09:00:00+00:00"}
    assert run_script("memory", "learn", "tea", "--text", "Green tea wants water around 80 degrees.",
                      env=old).code == 0
    (ws / "memory/memory-manager.json").write_text('{"prune": {"window": 0}}', encoding="utf-8")
    assert run_script("memory", "prune", env=NOW).code == 0
    path = ws / "memory/archive/2026-05/knowledge-tea.md"
    text = path.read_text(encoding="utf-8")
    ident = re.search(r'"id": "([^"]+)"', text).group(1)
    return ws, path, text, ident


def _snapshot(ws: Path) -> dict[str, bytes]:
    return {p.relative_to(ws).as_posix(): p.read_bytes() for p in sorted((ws / "memory").rglob("*"))
            if p.is_file() and ".state" not in p.parts and ".cache" not in p.parts}


@pytest.mark.parametrize("source", ["memory/knowledge/..md", "memory/knowledge/.hidden.md",
                                    "memory/knowledge/-rf.md", "memory/knowledge/CON.md"])
def test_unarchive_refuses_a_key_learn_would_refuse(archived_tea, run_script, source):
    ws, path, text, ident = archived_tea
    path.write_text(text.replace('"source": "memory/knowledge/tea.md"', json.dumps({"source": source})[1:-1]),
                    encoding="utf-8")
    assert source in path.read_text(encoding="utf-8")
    before = _snapshot(ws)
    r = run_script("memory", "unarchive", ident, "--approved", env=NOW)
    assert r.code == 2 and "names no valid knowledge key" in r.err, (r.code, r.err)
    assert _snapshot(ws) == before


def test_unarchive_gates_the_key_as_a_name(archived_tea, run_script):
    ws, path, text, ident = archived_tea
    path.write_text(text.replace('"source": "memory/knowledge/tea.md"', '"source": "memory/knowledge/bipolar II.md"')
                    .replace("key: tea", "key: bipolar II"), encoding="utf-8")
    before = _snapshot(ws)
    r = run_script("memory", "unarchive", ident, "--approved", env=NOW)
    assert r.code == 1 and "names and public values are stored as plain text" in r.err
    assert _snapshot(ws) == before


def test_unarchive_refuses_a_frontmatter_key_other_than_the_file_name(archived_tea, run_script):
    ws, path, text, ident = archived_tea
    assert "key: tea" in text
    path.write_text(text.replace("key: tea", "key: coffee"), encoding="utf-8")
    before = _snapshot(ws)
    r = run_script("memory", "unarchive", ident, "--approved", env=NOW)
    assert r.code == 2 and "frontmatter key 'coffee' is not 'tea'" in r.err
    assert _snapshot(ws) == before
