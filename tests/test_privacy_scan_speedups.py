"""The detector's speed-only machinery changes no finding.

:func:`memory_manager.privacy._matches` skips work: rules with ``needs`` /
``needs_re`` run only on stretches holding their key words, digit-led rules
only inside runs of digits, word-led rules only where a word with one of
their first letters starts. Each skip must be invisible: here the same
texts are scanned with a reference ``_matches`` that skips nothing (every
rule over the whole text, every word-led rule at every word start) and the
findings must be equal, field by field.

Texts: the frozen corpora in ``bench/privacy_corpus/`` (templates filled
with ``bench/privacy_fakes.py``, fixed seed), each line alone and all of
them joined into one long text (so that stretches of 32 KB are cut and
skipped), and generated notes of the report benchmark's kind with private
lines mixed in. The held-out set B is not read (it is the lead's).
"""
from __future__ import annotations

import random
import sys

import pytest

from conftest import ROOT
from memory_manager import privacy

sys.path.insert(0, str(ROOT / "bench"))
from privacy_fakes import fill  # noqa: E402

CORPUS = ROOT / "bench" / "privacy_corpus"
FILES = ("positive.tsv", "benign.tsv", "regression.tsv", "independent-a.tsv")


def _reference_matches(text, low):
    """``privacy._matches`` as it was before the lazy key-word search (main at 967ac46), verbatim.

    The reference for the scanning machinery's later speed changes: they must
    yield the same findings. (A reference that skips nothing at all differs
    already: a word-led keyword whose first letters hold a character class,
    such as "U14", is never tried; see bench/README.md, privacy speed.)
    """
    regions = privacy._numeric_regions(text)
    chunks = privacy._chunks(text)
    for rule in privacy.RULES_LIST:
        if rule.name in privacy._TOPIC_EN_NAMES or rule.triggers:
            continue
        if rule.numeric:
            for rs, re_ in regions:
                for m in rule.pattern.finditer(text, rs, re_):
                    yield rule, m
            continue
        subject = low if rule.lower else text
        if not (rule.needs or rule.needs_re):
            for m in rule.pattern.finditer(subject):
                yield rule, m
            continue
        for a, b in chunks:
            if any(low.find(word, a, b) >= 0 for word in rule.needs) or (
                    rule.needs_re is not None and rule.needs_re.search(low, a, b)):
                for m in rule.pattern.finditer(subject, a, b):
                    yield rule, m
    # Trying the keyword alternation at every character costs more than
    # all other rules together; trying it only where a word starts with one
    # of the keywords' first three letters is 5x cheaper and finds the same.
    match_at = privacy._TOPIC_EN_PATTERN.match
    by_trigger = privacy._TRIGGERED
    for token in privacy._TOKEN.finditer(low):
        head = token.group()[:3]
        if head in privacy._TOPIC_EN_TRIGGERS:
            m = match_at(low, token.start())
            if m is not None:
                yield privacy._TOPIC_EN[int(m.lastgroup[1:])], privacy._Sub(m, m.lastgroup)  # type: ignore[index]
        rules = by_trigger.get(head)
        if rules:
            pos = token.start()
            for rule in rules:
                m = rule.pattern.match(low, pos)
                if m is not None:
                    yield rule, m


def _lines() -> list[str]:
    rng = random.Random(7)
    out = []
    for name in FILES:
        rows = (CORPUS / name).read_text(encoding="utf-8").splitlines()[1:]
        for row in rows:
            if row.strip():
                out.append(fill(row.split("\t")[-1], rng))
    return out


def _notes(rng: random.Random, private: list[str], n: int) -> str:
    """Daily-note-like text (English and Chinese words) with a private line now and then."""
    en = ("deploy build server test release bug fix customer meeting report weekly database backup cache my kids "
          "home every tuesday at 7pm wife alone gym order ticket port card account password key token").split()
    zh = list("部署构建服务测试发布修复客户会议报告周数据库备份缓存我孩子在家每周三晚上点老婆一个人")
    parts = []
    for i in range(n):
        parts.append(f"## [2026-11-{1 + i % 28:02d}] {' '.join(rng.choice(en) for _ in range(3))} {i}")
        for label in ("因", "改", "待"):
            if rng.random() < 0.3:
                words = "".join(rng.choice(zh) for _ in range(rng.randrange(4, 20)))
            else:
                words = " ".join(rng.choice(en) for _ in range(rng.randrange(3, 14)))
            parts.append(f"- {label}：{words}")
        if rng.random() < 0.15:
            parts.append(f"- {rng.choice(private)}")
    return "\n".join(parts) + "\n"


def _same(text: str, monkeypatch) -> None:
    fast = privacy.scan(text)
    with monkeypatch.context() as m:
        m.setattr(privacy, "_matches", _reference_matches)
        slow = privacy.scan(text)
    assert fast == slow


def test_each_corpus_line_alone(monkeypatch):
    lines = _lines()
    assert len(lines) > 1500
    for line in lines:
        _same(line, monkeypatch)


def test_corpora_as_one_long_text(monkeypatch):
    text = "\n".join(_lines() * 3)
    assert len(text) > 3 * privacy._CHUNK
    _same(text, monkeypatch)


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_notes(seed, monkeypatch):
    rng = random.Random(seed)
    text = _notes(rng, _lines(), 2500)
    assert len(text) > 3 * privacy._CHUNK
    found = privacy.scan(text)
    assert found  # the private lines are there to be found
    _same(text, monkeypatch)


#: The four letter-led ID rules as they were written before their leading
#: ``(?<![A-Za-z0-9])`` became ``not_after=_ALNUM`` (round 5, speed).
_LOOKBEHIND_FORMS = {
    # round 15: NRIC and Taiwan ID letters in either case (a lower-case one counts after an ID key word)
    "sg_nric": r"(?<![A-Za-z0-9])[STFGMstfgm]\d{7}[A-Za-z](?![A-Za-z0-9])",
    "tw_national_id": r"(?<![A-Za-z0-9])[A-Za-z][1289]\d{8}(?![A-Za-z0-9])",
    "hk_id": r"(?<![A-Za-z0-9])[A-Z]{1,2}\d{6}[ \t]?\(?[0-9A]\)?(?![A-Za-z0-9])",
    "uk_nino": r"(?<![A-Za-z0-9])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z][ \t]?\d{2}[ \t]?\d{2}[ \t]?\d{2}[ \t]?"
               r"[A-D](?![A-Za-z0-9])",
}


def _id_like(rng: random.Random) -> str:
    """A string dense in the shapes of the four ID rules: letters and digits glued, spaced, bracketed."""
    pieces = []
    for _ in range(rng.randrange(3, 12)):
        kind = rng.randrange(5)
        if kind == 0:
            pieces.append("".join(rng.choice("STFGMABCXYZ") for _ in range(rng.randrange(1, 4))))
        elif kind == 1:
            pieces.append("".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 10))))
        elif kind == 2:
            pieces.append(rng.choice([" ", "\t", "(", ")", "-", "", "", "a", "9"]))
        elif kind == 3:
            pieces.append(rng.choice("ABCD"))
        else:
            pieces.append(" ".join("".join(rng.choice("0123456789") for _ in range(2)) for _ in range(3)))
    return "".join(pieces)


def test_the_id_rules_not_after_finds_what_their_look_behind_found():
    """``not_after`` plus a pattern without the look-behind yields exactly the look-behind's matches."""
    import re

    rng = random.Random(11)
    texts = _lines() + [_id_like(rng) for _ in range(20000)]
    rules = {rule.name: rule for rule in privacy.RULES_LIST}
    for name, form in _LOOKBEHIND_FORMS.items():
        rule = rules[name]
        assert rule.not_after == privacy._ALNUM and not rule.pattern.pattern.startswith("(?<")
        old = re.compile(form)
        for text in texts:
            want = [m.span() for m in old.finditer(text)]
            got = [m.span() for m in rule.pattern.finditer(text)
                   if not (m.start() and text[m.start() - 1] in rule.not_after)]
            assert got == want, (name, text)


def _serial_scan(text: str):
    with privacy.serial_scans():
        return privacy.scan(text)


@pytest.mark.parametrize("seed", [3, 4])
def test_a_long_text_scanned_in_two_processes_gives_the_serial_findings(seed, monkeypatch):
    """Past PARALLEL_CHARS, scan() forks: same findings, same line numbers and offsets, as one process."""
    rng = random.Random(seed)
    text = _notes(rng, _lines(), 1500)
    # Private lines right at every possible cut: the whole text is many cuts' worth of small texts.
    monkeypatch.setattr(privacy, "PARALLEL_CHARS", 1000)
    monkeypatch.setattr(privacy, "_PARALLEL_OVERLAP", 64)
    want = _serial_scan(text)
    assert len(want) > 50
    calls = []
    real = privacy._scan_in_two
    monkeypatch.setattr(privacy, "_scan_in_two", lambda t: calls.append(len(t)) or real(t))
    assert privacy.scan(text) == want
    assert calls == [len(text)]
    # Cut after every one of 40 lines spread over the text (each cut's halves scanned apart).
    lines = text.split("\n")
    for i in range(1, len(lines), max(1, len(lines) // 40)):
        piece = "\n".join(lines[max(0, i - 30):i + 30])
        if len(piece) >= 1000:
            assert privacy.scan(piece) == _serial_scan(piece), i


def test_serial_scans_nests_and_a_failed_child_leaves_the_work_to_the_parent(monkeypatch):
    text = _notes(random.Random(5), _lines(), 400)
    monkeypatch.setattr(privacy, "PARALLEL_CHARS", 1000)
    want = _serial_scan(text)
    with privacy.serial_scans():
        with privacy.serial_scans():
            assert privacy._serial_depth == 2
        assert privacy._serial_depth == 1
    assert privacy._serial_depth == 0
    import pickle

    monkeypatch.setattr(pickle, "loads", lambda data: "not findings")
    assert privacy.scan(text) == want  # the child's answer is refused: its half is scanned here


def test_notes_with_characters_outside_the_bmp(monkeypatch):
    """The literal index reads offsets right after emoji (four-byte code points) too."""
    rng = random.Random(12)
    text = _notes(rng, _lines(), 1500)
    text = "\n".join(("\U0001f4a1 " * rng.randrange(0, 3)) + line for line in text.split("\n"))
    assert len(text) > 3 * privacy._CHUNK
    _same(text, monkeypatch)
