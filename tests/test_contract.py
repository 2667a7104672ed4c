"""Issue 11: the error contract, as tables.

1. Every config key with every kind of bad value: a ConfigError (exit 2)
   naming the key (in process: the table is large), plus one real run per
   kind of failure through the scripts.
2. Every file we read, fed bad content: read-only commands carry on and
   name the file; writes refuse with exit 2 naming it and leave every byte.
3. ``MEMORY_MANAGER_NOW`` extremes and clock conversions.
4. The ``--json`` contract for every script and verb, success and failure:
   stdout holds exactly one JSON document (``error`` and ``kind`` on
   failure), stderr never a traceback.
5. The top-level guard: an unexpected error is one line (or one JSON
   document), exit 1; ``--debug`` adds the traceback. No JSON we write
   holds NaN.
"""
from __future__ import annotations

import ast
import json
import math
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import ROOT, tree_hash
from memory_manager import clock, config, jsonio
from memory_manager.errors import BadInputError, ConfigError

NOW = {"MEMORY_MANAGER_NOW": "2026-11-24T09:00:00+00:00"}


def _override(ws: Path, text: str) -> None:
    (ws / "memory").mkdir(parents=True, exist_ok=True)
    (ws / "memory" / "memory-manager.json").write_text(text, encoding="utf-8")


def _nested(key: str, value_text: str) -> str:
    """The override text setting dotted ``key`` to the raw JSON ``value_text``."""
    parts = key.split(".")
    text = value_text
    for part in reversed(parts):
        text = "{" + json.dumps(part) + ": " + text + "}"
    return text


def _one_json(out: str):
    """Parse stdout as exactly one JSON document (json.loads refuses trailing data)."""
    return json.loads(out)


# ----------------------------------------------------------------------------- 1. config keys

def _leaves(doc, prefix=""):
    for key, value in doc.items():
        if isinstance(value, dict):
            yield from _leaves(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


DEFAULT_LEAVES = dict(_leaves(config.load_defaults()))
NUMERIC = sorted(k for k, v in DEFAULT_LEAVES.items() if isinstance(v, (int, float)) and not isinstance(v, bool))
INTEGER = sorted(k for k in NUMERIC if config.RANGES[k][0] == "int")


def test_every_numeric_key_has_a_range():
    assert sorted(config.RANGES) == NUMERIC


def _bad_values(key):
    kind, low, high, low_open = config.RANGES[key]
    values = {"a string": '"5"', "a boolean": "true", "null": "null", "a list": "[1]",
              "NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity", "1e400": "1e400",
              "far too large": "1" + "0" * 400, "below the range": repr(low - 1 if not low_open else low),
              "above the range": repr(high + 1 if kind == "int" else high * 2 + 1)}
    if kind == "int":
        values["a whole float"] = f"{float(DEFAULT_LEAVES[key])!r}"
        values["1e308 days"] = "1e308"
    return values


CONFIG_CASES = [(key, label, raw) for key in NUMERIC for label, raw in _bad_values(key).items()
                if not (key == "version" and label in ("below the range",))]


@pytest.mark.parametrize("key,label,raw", CONFIG_CASES, ids=[f"{k}-{l}" for k, l, _ in CONFIG_CASES])
def test_bad_numeric_config_value_is_refused_naming_the_key_or_file(ws, key, label, raw):
    _override(ws, _nested(key, raw))
    with pytest.raises(ConfigError) as info:
        config.load_config(ws)
    message = str(info.value)
    assert info.value.exit_code == 2 and "\n" not in message
    if label in ("NaN", "Infinity", "-Infinity", "1e400"):
        # not JSON numbers (RFC 8259): refused while parsing, naming the file
        assert message.startswith(str(ws / "memory" / "memory-manager.json") + ": ")
    else:
        assert f"'{key}'" in message


@pytest.mark.parametrize("key", sorted(k for k, v in DEFAULT_LEAVES.items() if isinstance(v, bool)))
def test_booleans_must_be_booleans(ws, key):
    for raw in ("1", '"true"', "null"):
        _override(ws, _nested(key, raw))
        with pytest.raises(ConfigError, match=f"'{key}' must be a boolean"):
            config.load_config(ws)


@pytest.mark.parametrize("key", sorted(config.CHOICES))
def test_choice_keys_take_listed_values_only(ws, key):
    _override(ws, _nested(key, '"nope"'))
    with pytest.raises(ConfigError, match=f"'{key}' must be one of"):
        config.load_config(ws)


@pytest.mark.parametrize("raw,words", [
    ("[50, 70]", "three rising percentages"),
    ("[50, NaN, 90]", "NaN is not a JSON number"),
    ('[50, "70", 90]', "list of finite numbers"),
])
def test_context_thresholds(ws, raw, words):
    _override(ws, _nested("context.thresholds", raw))
    with pytest.raises(ConfigError, match=words):
        config.load_config(ws)


def test_key_file_must_be_a_usable_path(ws):
    _override(ws, _nested("tiers.key_file", json.dumps("a\u0000b")))
    with pytest.raises(ConfigError, match="'tiers.key_file' must be a path"):
        config.load_config(ws)


@pytest.mark.parametrize("text,words", [
    ("[" * 100_000 + "]" * 100_000, "JSON nested deeper than 64 levels"),
    ('{"recall": ' * 70 + "1" + "}" * 70, "JSON nested deeper than 64 levels"),
    ("\ufeff{}", None),
    ("", "not valid JSON (line 1"),
])
def test_over_deep_or_empty_config(ws, text, words):
    _override(ws, text)
    if words is None:
        assert config.load_config(ws)["recall"]["top_k"] == 10
        return
    with pytest.raises(ConfigError, match=words.replace("(", r"\(")):
        config.load_config(ws)


@pytest.mark.parametrize("args", [["memory", "recall", "tea"], ["memory", "status"], ["cleanup", "--dry-run"],
                                  ["privacy_audit"], ["memory", "write", "--topic", "t", "--change", "c"]])
def test_top_k_5_0_fails_every_command_with_one_line(ws, run_script, args):
    assert run_script("init", "--yes", "--no-hooks", "--no-key").code == 0
    _override(ws, '{"recall": {"top_k": 5.0}}')
    before = tree_hash(ws)
    r = run_script(*args, env=NOW)
    assert r.code == 2, (r.out, r.err)
    assert r.err == (f"error: {ws / 'memory' / 'memory-manager.json'}: 'recall.top_k' must be a whole number "
                     "(an integer), not 5.0\n")
    j = run_script(*args, "--json", env=NOW)
    assert j.code == 2 and _one_json(j.out) == {
        "error": f"{ws / 'memory' / 'memory-manager.json'}: 'recall.top_k' must be a whole number (an integer), "
                 "not 5.0", "kind": "config"}
    assert tree_hash(ws) == before


# ----------------------------------------------------------------------------- 2. files we read

@pytest.fixture
def mem(ws, run_script):
    r = run_script("init", "--yes", "--no-hooks", "--no-key")
    assert r.code == 0, r.err
    assert run_script("memory", "learn", "tea", "--text", "green tea", env=NOW).code == 0
    return ws


BINARY = b"\xff\xfe\x00\x01binary\x80"
LATIN1 = "## caf\u00e9\n- na\u00efve\n".encode("latin-1")

#: file (relative to the workspace) -> content; each is planted alone.
UNREADABLE = {
    "memory/daily/2026-11-24.md": BINARY,
    "memory/daily/2026-11-20.md": LATIN1,
    "memory/knowledge/latin.md": LATIN1,
    "memory/2026-11-19.md": BINARY,
    "memory/archive/2026-10/2026-10-01.md": BINARY,
}


@pytest.mark.parametrize("rel", sorted(UNREADABLE))
def test_read_only_commands_carry_on_and_name_an_unreadable_file(mem, run_script, rel):
    path = mem / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(UNREADABLE[rel])
    status = run_script("memory", "status", "--json", env=NOW)
    assert status.code == 0, status.err
    doc = _one_json(status.out)
    if not rel.startswith("memory/archive/"):  # the archive is not searched by recall or status
        assert any(p.startswith(rel + ": not UTF-8") for p in doc["problems"]), doc["problems"]
        recall = run_script("memory", "recall", "tea", "--no-track", "--json", env=NOW)
        assert recall.code == 0
        rdoc = _one_json(recall.out)
        assert [h["path"] for h in rdoc["hits"]] == ["memory/knowledge/tea.md"]
        assert any(m["file"] == rel and m["error"].startswith("not UTF-8") for m in rdoc["malformed"])
        human = run_script("memory", "recall", "tea", "--no-track", env=NOW)
        assert human.code == 0 and f"warning: {rel}: not UTF-8" in human.err
    audit = run_script("privacy_audit", "--json", env=NOW)
    assert audit.code == 1  # an unread file makes the report not clean
    assert rel in audit.out
    assert path.read_bytes() == UNREADABLE[rel]


@pytest.mark.parametrize("rel,args", [
    ("memory/daily/2026-11-24.md", ["memory", "write", "--topic", "t", "--change", "c"]),
    ("memory/knowledge/latin.md", ["memory", "learn", "latin", "--text", "x", "--approved"]),
    ("memory/knowledge/latin.md", ["memory", "forget", "memory/knowledge/latin.md", "--approved"]),
    ("memory/tier2-internal/bin_x.md", ["memory", "remember", "--skill", "bin", "--topic", "x", "--text", "y",
                                        "--approved"]),
    ("memory/tier1-public/bin_stats.json", ["memory", "stats", "record", "--skill", "bin", "--ok"]),
])
def test_a_write_to_an_unreadable_file_refuses_and_leaves_it_byte_identical(mem, run_script, rel, args):
    path = mem / rel
    path.write_bytes(BINARY if not rel.endswith("latin.md") else LATIN1)
    before = tree_hash(mem)
    r = run_script(*args, env=NOW)
    assert r.code == 2, (r.out, r.err)
    assert r.err.startswith("error: ") and r.err.count("\n") == 1 and path.name in r.err
    assert tree_hash(mem) == before


@pytest.mark.parametrize("stats,words", [
    ({"skill_stats": {"bin": {"calls": "many"}}}, "skill_stats.bin.calls must be a whole number from 0, not 'many'"),
    ({"skill_stats": {"bin": {"calls": 3.5}}}, "skill_stats.bin.calls must be a whole number from 0, not 3.5"),
    ({"skill_stats": {"bin": {"successes": -1}}}, "skill_stats.bin.successes must be a whole number from 0"),
    ({"skill_stats": {"bin": {"success_rate": 7}}}, "skill_stats.bin.success_rate must be a number from 0 to 1"),
    ({"skill_stats": {"bin": []}}, "skill_stats.bin must be an object"),
    ({"skill_stats": {}, "patterns_observed": [{"count": "x"}]}, "patterns_observed[0].count must be a whole number"),
    ({"skill_stats": {}, "patterns_observed": [{"skills_used": "a"}]}, "skills_used must be a list of strings"),
    ({"skill_stats": {}, "version": 9}, "unsupported cmm-t1-stats version 9"),
])
def test_bad_t1_statistics(mem, run_script, stats, words):
    path = mem / "memory" / "tier1-public" / "bin_stats.json"
    path.write_text(json.dumps(stats), encoding="utf-8")
    before = tree_hash(mem)
    r = run_script("memory", "stats", "record", "--skill", "bin", "--ok", "--json", env=NOW)
    assert r.code == 2
    assert _one_json(r.out) == {"error": f"bin_stats.json: {words}" if words.startswith("unsupported")
                                else _one_json(r.out)["error"], "kind": "malformed"}
    assert words in _one_json(r.out)["error"] and _one_json(r.out)["error"].startswith("bin_stats.json: ")
    assert tree_hash(mem) == before
    status = run_script("memory", "status", "--json", env=NOW)
    assert status.code == 0 and any(words in p for p in _one_json(status.out)["problems"])


@pytest.mark.parametrize("text,words", [
    ('{"skill_stats": {"a": {"calls": NaN}}}', "NaN is not a JSON number"),
    ('{"skill_stats": {"a": {"calls": Infinity}}}', "Infinity is not a JSON number"),
    ('{"skill_stats": {"a": {"calls": 1e400}}}', "number 1e400 is too large"),
    ("[" * 5000 + "]" * 5000, "JSON nested deeper than 64 levels"),
])
def test_t1_json_that_is_not_json(mem, run_script, text, words):
    (mem / "memory" / "tier1-public" / "a_stats.json").write_text(text)
    r = run_script("memory", "stats", "record", "--skill", "a", "--ok", env=NOW)
    assert r.code == 2 and r.err.startswith(f"error: a_stats.json: {words}") and r.err.count("\n") == 1


def _export(ws, run_script, tmp_path):
    out = tmp_path / "export.json"
    r = run_script("memory", "export", "--out", str(out), "--approved", env=NOW)
    assert r.code == 0, r.err
    return out


@pytest.mark.parametrize("mutate,words", [
    (lambda d: "[" * 200_000, "JSON nested deeper than 64 levels"),
    (lambda d: json.dumps({**d, "version": "@"}).replace('"@"', "NaN"), "NaN is not a JSON number"),
    (lambda d: json.dumps({**d, "version": "@"}).replace('"@"', "1e999"), "number 1e999 is too large"),
    (lambda d: json.dumps({**d, "tier1": [{"file": "x_stats.json",
                                          "data": {"skill_stats": {"x": {"calls": "many"}}}}]}), None),
    (lambda d: json.dumps({**d, "knowledge": [{"key": "k", "body": "b", "tags": [[[[[[[["x"]]]]]]]]}]}), None),
])
def test_bad_import_documents(mem, run_script, tmp_path, mutate, words):
    src = _export(mem, run_script, tmp_path)
    src.write_text(mutate(json.loads(src.read_text())), encoding="utf-8")
    before = tree_hash(mem)
    r = run_script("memory", "import", str(src), "--approved", "--json", env=NOW)
    doc = _one_json(r.out)
    if words is None:  # one bad item: reported, the rest imported, never a traceback; exit 1 (import result v2)
        assert r.code == 1, r.err
        assert doc["complete"] is False and doc["refused"][0]["outcome"] == "invalid"
        assert doc["problems"] and ("calls must be a whole number" in doc["problems"][0]
                                    or doc["problems"][0].startswith("knowledge[0]"))
        return
    assert r.code == 2 and doc["kind"] == "bad_json" and doc["error"].startswith(f"{src}: {words}")
    assert tree_hash(mem) == before


# ----------------------------------------------------------------------------- 3. the clock

@pytest.mark.parametrize("value,words", [
    ("yesterday", "is not an ISO 8601 date or time"),
    ("0001-01-01T00:00:00+14:00", "is outside the years 1900-9000"),
    ("9999-12-31T23:59:59-12:00", "is outside the years 1900-9000"),
    ("1899-12-31", "is outside the years 1900-9000"),
    ("9001-01-01", "is outside the years 1900-9000"),
])
def test_extreme_now_is_bad_input(mem, run_script, value, words):
    before = tree_hash(mem)
    for args in (["memory", "status"], ["memory", "write", "--topic", "t", "--change", "c"],
                 ["memory", "remember", "--skill", "s", "--topic", "t", "--text", "x", "--approved"], ["cleanup"]):
        r = run_script(*args, env={"MEMORY_MANAGER_NOW": value})
        assert r.code == 2, (args, r.out, r.err)
        assert r.err == f"error: MEMORY_MANAGER_NOW={value!r} {words}\n"
    assert tree_hash(mem) == before


@pytest.mark.parametrize("value,tz", [("1900-01-01T00:00:00+14:00", "Etc/GMT+12"),
                                      ("9000-12-31T23:59:59-12:00", "Etc/GMT-14")])
def test_the_extreme_years_still_work_everywhere(mem, run_script, value, tz):
    """The edges of the accepted years, shifted to the farthest user time zones, never overflow."""
    env = {"MEMORY_MANAGER_NOW": value, "TZ": tz}
    for args in (["memory", "write", "--topic", "t", "--change", "c"], ["memory", "status"],
                 ["memory", "remember", "--skill", "s", "--topic", "t", "--text", "x", "--approved"],
                 ["memory", "recall", "t"], ["cleanup"], ["memory", "prune"]):
        r = run_script(*args, env=env)
        assert r.code == 0, (args, r.out, r.err)


def test_local_time_conversion_never_overflows():
    from datetime import timedelta

    for moment in (datetime.min.replace(tzinfo=timezone.utc), datetime.max.replace(tzinfo=timezone.utc)):
        assert clock.to_local(moment).tzinfo is not None
        for hours in (-14, 14):
            assert clock.to_local(moment, timezone(timedelta(hours=hours))).tzinfo is not None
    assert clock.from_timestamp(1e20) is None and clock.from_timestamp(-1e20) is None
    assert clock.from_timestamp(0) == datetime(1970, 1, 1, tzinfo=timezone.utc)


def test_an_archive_file_with_an_absurd_mtime_is_reported_not_fatal(mem, run_script):
    import os

    old = mem / "memory" / "archive" / "2026-01" / "x.md"
    old.parent.mkdir(parents=True)
    old.write_text("## x\n")
    try:
        os.utime(old, (2**40, 2**40))  # year ~36812
    except OverflowError:
        pytest.skip("the file system cannot store such a time")
    r = run_script("cleanup", "--purge-archive", "--json", env=NOW)
    assert r.code == 0, r.err
    assert old.exists()


# ----------------------------------------------------------------------------- 4. --json for every verb

#: (name, args for success, args for failure). Failure: bad input, a refusal or a missing thing.
JSON_CASES = [
    ("memory write", ["memory", "write", "--topic", "t", "--change", "c"],
     ["memory", "write", "--topic", "t", "--change", "c", "--date", "2026-02-30"]),
    ("memory learn", ["memory", "learn", "coffee", "--text", "flat white"], ["memory", "learn", "../x", "--text", "y"]),
    ("memory event", ["memory", "event", "skill_error", "--skill", "web", "--text", "timeout; retried"],
     ["memory", "event", "skill_error", "--skill", "", "--text", "x"]),
    ("memory stats record", ["memory", "stats", "record", "--skill", "web", "--ok"],
     ["memory", "stats", "record", "--skill", "a/b", "--ok"]),
    ("memory stats pattern", ["memory", "stats", "pattern", "--trigger", "morning", "--skills", "web"],
     ["memory", "stats", "pattern", "--trigger", "morning", "--skills", ""]),
    ("memory remember", ["memory", "remember", "--skill", "s", "--topic", "t", "--text", "x", "--approved"],
     ["memory", "remember", "--skill", "s", "--topic", "2026-05", "--text", "x", "--approved"]),
    ("memory show", ["memory", "show", "memory/knowledge/tea.md"], ["memory", "show", "no-such-entry"]),
    ("memory forget", ["memory", "forget", "memory/knowledge/tea.md", "--approved"],
     ["memory", "forget", "memory/knowledge/tea.md"]),
    ("memory export", ["memory", "export", "--approved"], ["memory", "export"]),
    ("memory import", ["memory", "import", "--from-openclaw", "--approved"], ["memory", "import", "--approved"]),
    ("memory recall", ["memory", "recall", "tea"], ["memory", "recall", " "]),
    ("memory prune", ["memory", "prune", "--dry-run"], ["memory", "prune", "--no-such-option"]),
    ("memory status", ["memory", "status"], ["memory", "status", "--workspace", "/nonexistent/ws"]),
    ("memory report", ["memory", "report"], ["memory", "report", "--days", "0"]),
    ("memory (no verb)", None, ["memory", "no-such-verb"]),
    ("crypt encrypt", ["crypt", "encrypt", "--skill", "s", "--month", "2026-11", "--scheme", "xor-b64"],
     ["crypt", "encrypt", "--skill", "s", "--scheme", "xor-b64"]),
    ("crypt decrypt", None, ["crypt", "decrypt", "--skill", "s", "--scheme", "aes-gcm"]),
    ("crypt keygen", ["crypt", "keygen"], None),
    ("crypt reseal", ["crypt", "reseal"], ["crypt", "reseal", "--workspace", "/nonexistent/ws"]),
    ("memory stats (no verb)", None, ["memory", "stats"]),
    ("init", ["init", "--dry-run"], ["init", "--restore", "no-such-backup"]),
    ("init list-backups", ["init", "--list-backups"], ["init", "--lang", "fr"]),
    ("cleanup", ["cleanup", "--dry-run"], ["cleanup", "--workspace", "/nonexistent/ws"]),
    # gate and doctor answer a refusal or a broken install with their own document (exit 1);
    # their failure here is bad input
    ("gate", ["gate", "--operation", "store", "--text", "likes tea", "--source", "explicit_user"],
     ["gate", "--operation", "shout", "--text", "x"]),
    ("privacy_audit", ["privacy_audit"], ["privacy_audit", "--workspace", "/nonexistent/ws"]),
    ("doctor", ["doctor", "--no-openclaw"], ["doctor", "--no-openclaw", "--colour"]),
    ("detect", ["detect"], ["detect", "--session", "agent:main:nope"]),
]
_STDIN = {"crypt encrypt": "hello", "crypt decrypt": "aesgcm:v2:AAAA"}


@pytest.mark.parametrize("name,ok,bad", JSON_CASES, ids=[c[0] for c in JSON_CASES])
def test_json_contract(mem, run_script, name, ok, bad):
    (mem / "memory" / "2026-11-20.md").write_text("# note\n- met the vendor\n")
    if ok is not None:
        r = run_script(*ok, "--json", env=NOW, input=_STDIN.get(name, ""))
        assert r.code == 0, (r.out, r.err)
        doc = _one_json(r.out)
        assert not (isinstance(doc, dict) and "error" in doc and "kind" in doc and len(doc) == 2)
        assert "Traceback" not in r.err
    if bad is not None:
        r = run_script(*bad, "--json", env=NOW, input=_STDIN.get(name, ""))
        assert r.code in (1, 2), (r.out, r.err)
        doc = _one_json(r.out)
        assert isinstance(doc["error"], str) and doc["error"] and "\n" not in doc["error"]
        assert isinstance(doc["kind"], str) and doc["kind"]
        assert "Traceback" not in r.err


# ----------------------------------------------------------------------------- 5. the guard

def test_an_unexpected_error_is_one_line_and_debug_shows_the_traceback(mem, run_script):
    """A bug (here: scoring raising, injected through sitecustomize) is one line, exit 1."""
    hook = mem.parent / "inject"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        "import memory_manager.scoring as s\n"
        "def boom(*a, **k):\n    raise RuntimeError('injected fault')\n"
        "s.combine = boom\n")
    env = {**NOW, "PYTHONPATH": str(hook)}
    r = run_script("memory", "recall", "tea", env=env)
    assert r.code == 1
    assert r.err == "error: unexpected RuntimeError: injected fault (run with --debug for the traceback)\n"
    j = run_script("memory", "recall", "tea", "--json", env=env)
    assert j.code == 1 and _one_json(j.out) == {
        "error": "unexpected RuntimeError: injected fault (run with --debug for the traceback)", "kind": "internal"}
    d = run_script("memory", "recall", "tea", "--debug", env=env)
    assert d.code == 1 and "Traceback (most recent call last)" in d.err
    assert d.err.rstrip().endswith("error: unexpected RuntimeError: injected fault")


def test_a_nan_score_never_reaches_stdout(mem, run_script):
    hook = mem.parent / "inject_nan"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        "import memory_manager.scoring as s\n"
        "_real = s.combine\n"
        "def nan(*a, **k):\n    r = _real(*a, **k)\n    return type(r)(*[float('nan')] * 5)\n"
        "s.combine = nan\n")
    r = run_script("memory", "recall", "tea", "--json", env={**NOW, "PYTHONPATH": str(hook)})
    json.loads(r.out)  # whatever happened, stdout is valid JSON (no bare NaN)
    assert "NaN" not in r.out


def test_every_json_dumps_in_the_bundle_refuses_nan():
    """allow_nan=False everywhere we write JSON (RFC 8259 has no NaN)."""
    missing = []
    for path in sorted([*(ROOT / "memory_manager").glob("*.py"), *(ROOT / "scripts").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "dumps" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "json":
                if not any(k.arg == "allow_nan" for k in node.keywords):
                    missing.append(f"{path.name}:{node.lineno}")
    assert missing == []


def test_jsonio_refuses_what_is_not_json():
    for text in ("NaN", "[Infinity]", "-Infinity", "1e400", "[" * 65 + "]" * 65):
        with pytest.raises(jsonio.JSONInputError):
            jsonio.loads(text, "x")
    assert jsonio.loads('["[[[[", {"a": "{{{{"}]' + " " * 10, "x") == ["[[[[", {"a": "{{{{"}]
    assert jsonio.loads("[" * 64 + "]" * 64, "x") is not None
    with pytest.raises(ValueError):
        jsonio.dumps({"score": math.nan})
    assert issubclass(jsonio.JSONInputError, BadInputError)


def test_write_to_a_large_note_appends_and_keeps_every_byte(mem, run_script):
    """The 50 MB case is timed in bench/bignote_bench.py; here over 1 MB, bytes only."""
    note = mem / "memory" / "daily" / "2026-11-24.md"
    block = "".join(f"## [2026-11-24] topic {n}\n\n- 改：build {n} 发布\n\n" for n in range(20_000))
    note.write_text("# 2026-11-24\n\n" + block, encoding="utf-8")
    original = note.read_bytes()
    assert len(original) > 1_000_000
    r = run_script("memory", "write", "--topic", "appended", "--change", "one more", "--json", env=NOW)
    assert r.code == 0, r.err
    after = note.read_bytes()
    assert after.startswith(original)
    assert after[len(original):].decode("utf-8").count("one more") == 1
    s = run_script("memory", "status", "--json", env=NOW)
    assert s.code == 0 and _one_json(s.out)["tiers"]["daily"] == 20_001


@pytest.mark.parametrize("limit", [0, 4096, 60_000])
def test_a_file_size_limit_is_exit_1_in_one_line_and_changes_no_note(mem, limit):
    """RLIMIT_FSIZE (what a full disk looks like to a writer): exit 1, one line, the note unchanged."""
    import os
    import resource
    import subprocess
    import sys

    note = mem / "memory" / "daily" / "2026-11-24.md"
    note.write_text("# 2026-11-24\n\n" + "".join(f"## [2026-11-24] t{n}\n- 改：x{n}\n\n" for n in range(4000)))
    original = note.read_bytes()
    assert len(original) > 60_000

    def cap():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    for as_json in (False, True):
        proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "memory.py"), "write", "--topic", "big",
                               "--change", "y", *(["--json"] if as_json else [])], env={**os.environ, **NOW},
                              capture_output=True, text=True, preexec_fn=cap, timeout=120)
        assert proc.returncode == 1, (proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr
        if as_json:
            doc = _one_json(proc.stdout)
            assert doc["kind"] in ("os_error", "write_failed", "backup") and "\n" not in doc["error"]
        else:
            assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1
        assert note.read_bytes() == original
