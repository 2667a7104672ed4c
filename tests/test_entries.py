import os
from pathlib import Path

import pytest

from memory_manager import entries
from memory_manager.config import load_config
from memory_manager.errors import MalformedFileError


@pytest.fixture
def cfg():
    return load_config()


SEED_EXAMPLE = """## [2026-03-03] 记忆系统升级
- 因：原记忆目录混乱，查找困难
- 改：目录调整为 daily/ + knowledge/，上传 v1.1.0
- 待：检查 ClawHub 描述
"""


def test_parse_seed_section_without_id_gets_the_stable_id():
    [section] = entries.parse_daily(SEED_EXAMPLE)
    assert (section.date, section.topic) == ("2026-03-03", "记忆系统升级")
    assert section.id == entries.daily_id("2026-03-03", "记忆系统升级")
    assert section.id.startswith("d-20260303-") and len(section.id) == 19
    assert section.lines_of("cause") == ["原记忆目录混乱，查找困难"]
    assert section.lines_of("change") == ["目录调整为 daily/ + knowledge/，上传 v1.1.0"]
    assert section.lines_of("todo") == ["检查 ClawHub 描述"]


def test_english_labels_and_pinned_are_read():
    text = "## [2026-03-04] Feishu\n<!-- id: d-20260304-deadbeef -->\n<!-- pinned -->\n- Cause: a\n- Change: b\n- todo: c\n"
    [section] = entries.parse_daily(text)
    assert section.id == "d-20260304-deadbeef" and section.pinned
    assert section.items == [("cause", "a"), ("change", "b"), ("todo", "c")]


def test_new_section_renders_the_contract_form():
    text, ident, added = entries.merge_daily_text("", "2026-03-03", "记忆系统升级",
                                                  entries.ordered_items(["因1"], ["改1"], ["待1"]), "zh")
    assert text == f"## [2026-03-03] 记忆系统升级\n<!-- id: {ident} -->\n- 因：因1\n- 改：改1\n- 待：待1\n"
    assert len(added) == 3
    text_en, _, _ = entries.merge_daily_text("", "2026-03-03", "T", [("change", "x")], "en")
    assert "- Change: x" in text_en


def test_same_topic_twice_merges_keeping_every_distinct_line_in_order():
    text, ident, _ = entries.merge_daily_text("", "2026-03-03", "T", entries.ordered_items(["c1"], ["x1"], ["t1"]), "zh")
    text, ident2, added = entries.merge_daily_text(text, "2026-03-03", "T",
                                                   entries.ordered_items(["c1", "c2"], ["x2"], ["t1"]), "zh")
    assert ident2 == ident and added == [("cause", "c2"), ("change", "x2")]
    [section] = entries.parse_daily(text)
    assert section.items == [("cause", "c1"), ("cause", "c2"), ("change", "x1"), ("change", "x2"), ("todo", "t1")]
    again, _, added = entries.merge_daily_text(text, "2026-03-03", "T", [("change", "x1")], "zh")
    assert again == text and added == []


def test_merge_targets_the_right_section_among_several():
    text = ""
    for topic in ("A", "B"):
        text, _, _ = entries.merge_daily_text(text, "2026-03-03", topic, [("change", topic.lower())], "zh")
    text, _, _ = entries.merge_daily_text(text, "2026-03-03", "A", [("todo", "later")], "zh")
    a, b = entries.parse_daily(text)
    assert a.items == [("change", "a"), ("todo", "later")] and b.items == [("change", "b")]


def _write(ws, rel, text, raw=None):
    path = ws / "memory" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw if raw is not None else text.encode("utf-8"))
    return path


def test_rebuild_indexes_matches_the_files_and_is_idempotent(ws, cfg):
    _write(ws, "daily/2026-03-02.md", "## [2026-03-02] 飞书配置\n- 改：a\n\n## [2026-03-02] 电商网站\n- 改：b\n")
    _write(ws, "daily/2026-03-03.md", "## [2026-03-03] 飞书配置\n- 改：c\n")
    _write(ws, "knowledge/react.md", "---\nkey: react\n---\nbody\n")
    _write(ws, "knowledge/oauth.md", "plain body, no frontmatter\n")
    changed = entries.rebuild_indexes(ws, cfg)
    assert sorted(p.name for p in changed) == ["daily-index.md", "knowledge-index.md"]
    assert (ws / "memory/daily-index.md").read_text(encoding="utf-8") == (
        "# 记忆索引\n\n- 飞书配置 → daily/2026-03-02.md,daily/2026-03-03.md\n- 电商网站 → daily/2026-03-02.md\n")
    assert (ws / "memory/knowledge-index.md").read_text(encoding="utf-8") == "# 知识库索引\n\n- oauth\n- react\n"
    before = os.stat(ws / "memory/daily-index.md").st_ino
    assert entries.rebuild_indexes(ws, cfg) == []
    assert os.stat(ws / "memory/daily-index.md").st_ino == before  # no change -> no write


def test_rebuild_keeps_the_existing_topic_order_and_title_language(ws, cfg):
    _write(ws, "daily/2026-03-02.md", "## [2026-03-02] A\n- 改：a\n\n## [2026-03-02] B\n- 改：b\n")
    _write(ws, "daily-index.md", "# Memory Index\n\n- B → 2026-03-02.md\n- A → daily/2026-03-02.md\n")
    entries.rebuild_indexes(ws, cfg)
    assert (ws / "memory/daily-index.md").read_text(encoding="utf-8") == (
        "# Memory Index\n\n- B → daily/2026-03-02.md\n- A → daily/2026-03-02.md\n")


def test_parse_daily_index_accepts_the_seed_short_form():
    assert entries.parse_daily_index("# 记忆索引\n\n- 飞书配置 → daily/2026-03-02.md,2026-03-03.md\n") == {
        "飞书配置": ["daily/2026-03-02.md", "daily/2026-03-03.md"]}


USER_FM = """---
format: cmm-knowledge
version: 1
key: deploy
answer: NO
switch: on
mode: 0755
release: 1.10
when: 2026-03-03
说明: 中文说明
tags:
  - ops
updated: 2026-03-03
---
Intro line.

---

A horizontal rule above belongs to the body.
"""


def test_updating_knowledge_keeps_user_values_byte_identical(tmp_path):
    path = tmp_path / "deploy.md"
    new = entries.update_knowledge_text(USER_FM, path, "New paragraph.", ["ops", "ci"], "2026-11-29")
    old_lines, new_lines = USER_FM.split("\n"), new.split("\n")
    for line in ("answer: NO", "switch: on", "mode: 0755", "release: 1.10", "when: 2026-03-03", "说明: 中文说明"):
        assert line in old_lines and line in new_lines
    assert "tags: [ops, ci]" in new_lines and "updated: 2026-11-29" in new_lines and "  - ops" not in new_lines
    entry = entries.parse_knowledge(new, path)
    assert entry.tags == ["ops", "ci"]
    assert entry.literal["answer"] == "NO" and entry.literal["mode"] == "0755" and entry.literal["release"] == "1.10"
    assert entry.body.endswith("A horizontal rule above belongs to the body.\n\nNew paragraph.")
    assert "\n---\n" in entry.body
    assert entries.update_knowledge_text(new, path, "New paragraph.", ["ci"], "2026-11-30") is None


@pytest.mark.parametrize("text,fragment", [
    ("---\nkey: [unclosed\n---\nbody\n", "not valid YAML"),
    ("---\n- a list\n---\nbody\n", "must be a YAML mapping"),
    ("---\nkey: k\ntags: {a: 1}\n---\nbody\n", "'tags'"),
    ("---\nkey: k\npinned: maybe\n---\nbody\n", "'pinned'"),
    ("---\nkey: k\nno closing line\n", "no closing"),
    ("---\nformat: cmm-knowledge\nversion: 9\n---\nbody\n", "version"),
])
def test_malformed_knowledge_raises(tmp_path, text, fragment):
    with pytest.raises(MalformedFileError) as err:
        entries.parse_knowledge(text, tmp_path / "k.md")
    assert fragment in str(err.value)


def test_iter_knowledge_reports_and_skips_malformed_and_reads_bom_crlf(ws):
    _write(ws, "knowledge/good.md", "", raw=b"\xef\xbb\xbf---\r\nkey: good\r\ntags: [a]\r\n---\r\nbody\r\n")
    _write(ws, "knowledge/bad.md", "---\nkey: [\n---\nx\n")
    problems = []
    found = list(entries.iter_knowledge(ws, problems))
    assert [e.key for e in found] == ["good"] and found[0].tags == ["a"] and found[0].body == "body"
    assert len(problems) == 1 and problems[0].startswith("bad.md:")


def test_yaml_scalar_quotes_what_yaml_would_change():
    import yaml

    for value in ["NO", "on", "0755", "1.10", "2026-03-03", "null", "a: b", "中文", "plain", "#x"]:
        assert yaml.safe_load(f"k: {entries.yaml_scalar(value)}")["k"] == value
    assert entries.yaml_scalar("plain") == "plain" and entries.yaml_scalar("NO") == '"NO"'


#: Lines a daily note is made of, the odd ones included (headings that are not, comments, fences).
_NOTE_LINES = ["# 2026-01-01", "# notes", "## [2026-01-02] topic", "## topic", "## [2026-13-40] bad date", "## ",
               "### deeper", "#### c", "##", "#", "  ## indented ##", "    ## code by indent", "##x", "#tag", "a#", "x ## y",
               "\t## tab", "##\t", "## trailing #  ", "#######", "## a\r", "\r", "  #   spaced  ", "   ##  #", "## 标题 ##",
               "<!-- id: d-1 -->", "<!-- id: x.y:z -->", "  <!--id:abc-->  ", "<!-- pinned -->", "<!-- PINNED -->",
               "x <!-- pinned -->", "<!-- id: a --> <!-- pinned -->", "<!-- other -->", "<!-- id: e -->\r", "<!--",
               "- 因：a", "- Cause: b", "* change: c", "text", ""]
_FENCES = ["```", "~~~", "```python", "   ```", "## in a fence?"]


def _random_notes(seed: int, n: int, fences: bool):
    import random

    rng = random.Random(seed)
    pool = _NOTE_LINES + (_FENCES if fences else [])
    for _ in range(n):
        text = "\n".join(rng.choice(pool) for _ in range(rng.randrange(0, 25))) + rng.choice(["", "\n"])
        if rng.random() < 0.25:
            text = "---\nformat: x\n---\n" + text
        yield text, (18 if text.startswith("---\n") else rng.randrange(0, len(text) + 1) if rng.random() < 0.1 else 0)


def test_split_without_fences_equals_the_line_by_line_split():
    """The fast split of a text without code fences (a search for the lines holding '#')
    gives the chunks of the line-by-line split, field by field."""
    for text, offset in _random_notes(1, 2000, fences=False):
        base = text[:offset].count("\n")
        assert entries._split_unfenced(text, offset, base) == entries._split_lines(text, offset, base), (text, offset)
    assert entries.split_chunks("a\n```\n## x\n```\n## y\n") == entries._split_lines("a\n```\n## x\n```\n## y\n", 0, 0)


def test_daily_marks_equal_what_parse_daily_reads():
    """The index's reader of ids, pins and dates (only lines holding '<!--') agrees with parse_daily."""
    for n, (text, offset) in enumerate(_random_notes(2, 2000, fences=True)):
        path = Path("memory/daily/2026-02-03.md" if n % 2 else "memory/daily/notes.md")
        chunks = entries.split_chunks(text, offset)
        expected = {s.span[0]: (s.id, s.pinned, s.date) for s in entries.parse_daily(text, path, chunks)}
        assert entries.daily_marks(text, path, chunks) == expected, text


@pytest.mark.parametrize("raw", [
    "a: 1", "key: NO\non: on\nmode: 0755\nv: 1.10", "created: 2026-02-30\nupdated: 2026-01-05",
    "n: !!int \"3\"", "s: !!str 3", "base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3", "- a\n- b", "just text",
    "# only a comment", "t: [a, b, {c: d}]\nu: null\nw: ~", "? [a, b]\n: c", "x: !custom 1", "a: 1\n---\nb: 2",
    "a: [1, 2", "dup: 1\ndup: 2", "when: 2026-01-01 10:00:00", "x: *nope", "k: 'quoted'\nl: \"飞书\""])
def test_one_parse_gives_both_frontmatter_readings(raw):
    """``_load_twice`` (one libyaml parse, issue 13) gives what the safe and the literal load give, errors too."""
    import yaml

    def load(loader):
        try:
            return "ok", yaml.load(raw, Loader=loader)  # noqa: S506 - safe and base loaders only
        except yaml.YAMLError as exc:
            return "error", type(exc)

    expected = (load(entries._safe_loader()), load(yaml.CBaseLoader))
    try:
        safe, literal = entries._load_twice(raw)
        got = (("ok", safe), ("ok", literal))
    except yaml.YAMLError as exc:
        got = ("error", type(exc))
    if "error" in (expected[0][0], expected[1][0]):
        assert got[0] == "error"
    else:
        assert got == expected


def _yaml_readings(raw):
    import yaml

    return (yaml.load(raw, Loader=entries._safe_loader()),  # noqa: S506 - safe and base loaders only
            yaml.load(raw, Loader=yaml.CBaseLoader))  # noqa: S506


#: Values the fast frontmatter path must read as PyYAML does, or leave to PyYAML.
_FM_VALUES = ["k1", "飞书 日报", "deploy-notes", "a.b/c", "x - y", "_x", "true", "false", "True", "yes", "No",
              "on", "OFF", "null", "Null", "~", "y", "n", "0", "7", "12345678901234567890", "0755", "1_000",
              "0x1F", "1.5", ".inf", "1e3", "2026-02-03", "2026-02-30", "0000-01-01", "2026-1-5",
              "2026-02-03 10:00:00", "2026-02-03T10:00:00Z", '"quoted: text"', '"飞书"', '"a\\tb"', '"a\\u00e9"',
              "'single'", "[]", "[a, b]", "[飞书, term2860]", "[a,b]", "[ a ]", "[1, 2026-02-03, true, null]",
              "[a, [b]]", "[a, {b: c}]", "[\"q\", r]", "{a: 1}", "a # comment", "a: b", "a:b", "&anchor v",
              "*alias", "!!str 3", "!!int \"3\"", "|", ">", "- a", "? q", "%x", "@x", "`x`", "a ", " a",
              "a  b", "<<", "=", "٣", "²x", "ＡＢ", "a\u00a0b", "a\u0085b", "a\u2028b", "x\ufeff", "#x"]


@pytest.mark.parametrize("value", _FM_VALUES)
def test_fast_frontmatter_reads_as_pyyaml_or_passes(value):
    """The fast frontmatter path (issue 13) gives PyYAML's two readings, or None (then PyYAML reads it)."""
    import yaml

    raw = f"format: cmm-knowledge\nversion: 1\nkey: {value}\nv: {value}"
    fast = entries._fast_frontmatter(raw)
    try:
        expected = _yaml_readings(raw)
    except yaml.YAMLError:
        assert fast is None
        return
    # repr: the same types too (a date is no string, True no 1)
    assert fast is None or repr(fast) == repr(expected), (raw, fast, expected)
    assert entries._load_twice(raw) == expected


def test_fast_frontmatter_reads_what_we_write():
    """Our own knowledge frontmatter takes the fast path; odd lines leave it to PyYAML."""
    raw = "format: cmm-knowledge\nversion: 1\nid: k-1\nkey: k1\ntags: [脑身, term2860]\ncreated: 2024-02-29\nupdated: 2024-02-29"
    assert entries._fast_frontmatter(raw) == _yaml_readings(raw)
    assert entries._fast_frontmatter("pinned: true\ntags: []") == ({"pinned": True, "tags": []},
                                                                    {"pinned": "true", "tags": []})
    for odd in ["a: 1\na: 2", "a: 1\n\nb: 2", "a: 1\n# c", "a: 1\n  b: 2", "on: x", "a:  b", "a:", "- a",
                "a: 1\n---\nb: 2", "a: 1\r"]:
        assert entries._fast_frontmatter(odd) is None, odd


def test_fast_frontmatter_random_lines_agree_with_pyyaml():
    """Random frontmatters built of :data:`_FM_VALUES` and list forms: fast path equal to PyYAML or None."""
    import random

    import yaml

    rng = random.Random(13)
    answered = 0
    for _ in range(3000):
        lines = []
        for _ in range(rng.randint(1, 6)):
            key = rng.choice(["key", "tags", "id", "on", "Yes", "x_1", "a", "a"])
            if rng.random() < 0.3:
                value = "[" + rng.choice([", ", ",", " , "]).join(
                    rng.choice(_FM_VALUES[:34]) for _ in range(rng.randint(0, 3))) + "]"
            else:
                value = rng.choice(_FM_VALUES)
            lines.append(f"{key}:{rng.choice([' ', ' ', ' ', '  ', ''])}{value}")
        raw = "\n".join(lines)
        fast = entries._fast_frontmatter(raw)
        if fast is None:
            continue
        answered += 1
        try:
            expected = _yaml_readings(raw)
        except yaml.YAMLError:
            raise AssertionError(f"fast path read what PyYAML refuses: {raw!r}") from None
        assert repr(fast) == repr(expected), raw  # same types too (a date is no string, True no 1)
    assert answered > 50
