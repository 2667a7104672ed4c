"""``privacy.mask`` skips the sensitive-topic rules and masks exactly what a full scan masks.

:func:`memory_manager.privacy.mask` keeps only tier-3 findings; no topic
category is tier 3, and a topic finding changes no other finding (it is never
"taken" in the overlap resolution, and a decoded span is covered only by a
kept span of its own category), so :func:`memory_manager.privacy._matches`
does not run the topic rules while mask scans (issue 15, round 11: a quarter
of the report's masking time). Here every text is masked both ways, the
skip on and off (``_MASK_SKIPS_TOPICS``), and the results must be equal.

Texts: the development corpora (``bench/privacy_corpus/`` positive, benign,
regression and the independent sets A-K, templates filled with
``bench/privacy_fakes.py``, fixed seed; no held-out set is read) line by line
and joined in blocks of 25 lines (the readings across line breaks), the
multi-line set I, and generated daily notes with private and topic lines.
"""
from __future__ import annotations

import json
import random
import sys

import pytest

from conftest import ROOT
from memory_manager import privacy

sys.path.insert(0, str(ROOT / "bench"))
from privacy_fakes import fill  # noqa: E402

CORPUS = ROOT / "bench" / "privacy_corpus"
FILES = ("positive.tsv", "benign.tsv", "regression.tsv", "independent-a.tsv", "independent-c.tsv",
         "independent-e.tsv", "independent-g.tsv", "independent-i.tsv", "independent-k.tsv")


def _lines() -> list[str]:
    rng = random.Random(11)
    out = []
    for name in FILES:
        for row in (CORPUS / name).read_text(encoding="utf-8").splitlines()[1:]:
            if row.strip():
                out.append(fill(row.split("\t")[-1], rng))
    return out


def _full_mask(text: str, monkeypatch) -> str:
    with monkeypatch.context() as m:
        m.setattr(privacy, "_MASK_SKIPS_TOPICS", False)
        return privacy.mask(text)


def _differ(texts: list[str], monkeypatch) -> list[str]:
    return [t for t in texts if privacy.mask(t) != _full_mask(t, monkeypatch)]


def test_the_skip_is_on_and_no_topic_category_is_tier3():
    assert privacy._MASK_SKIPS_TOPICS
    assert not any(privacy.CATEGORIES[c][1] for c in privacy.TOPIC_CATEGORIES)
    assert privacy._topics_off == 0  # mask leaves it as it found it


def test_each_corpus_line_alone(monkeypatch):
    lines = _lines()
    # The corpora hold both kinds: topic findings and tier-3 findings (else the test proves nothing).
    found = [privacy.scan(t) for t in lines[:2000]]
    assert sum(any(f.category in privacy.TOPIC_CATEGORIES for f in fs) for fs in found) > 50
    assert sum(any(f.tier3 for f in fs) for fs in found) > 200
    assert _differ(lines, monkeypatch) == []


def test_corpus_lines_in_blocks(monkeypatch):
    lines = _lines()
    rng = random.Random(5)
    rng.shuffle(lines)
    blocks = ["\n".join(lines[n:n + 25]) for n in range(0, len(lines), 25)]
    assert _differ(blocks, monkeypatch) == []


def test_multiline_set(monkeypatch):
    rng = random.Random(3)
    texts = [fill(item["text"], rng) for item in json.loads((CORPUS / "multiline-i.json").read_text(encoding="utf-8"))]
    assert texts and _differ(texts, monkeypatch) == []


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_notes_with_topics_beside_secrets(seed, monkeypatch):
    rng = random.Random(seed)
    private = _lines()
    topics = ["diagnosed with diabetes last spring", "my lawyer says the divorce hearing is next week",
              "抑郁症复诊", "salary 85000 and my debt", "her HIV test", "the kid's school and his age 9"]
    parts = []
    for i in range(1500):
        parts.append(f"## [2026-11-{1 + i % 28:02d}] deploy note {i}")
        parts.append(f"- 因：{rng.choice(topics)} {rng.choice(private)}")
        if rng.random() < 0.3:
            parts.append(f"- 改：{rng.choice(private)} {rng.choice(topics)}")
    text = "\n".join(parts) + "\n"
    with privacy.serial_scans():
        assert privacy.mask(text) == _full_mask(text, monkeypatch)
    # Scanned in two processes (a forked child reads the second half): the child skips the topics too.
    monkeypatch.setattr(privacy, "PARALLEL_CHARS", 50_000)
    assert privacy.mask(text) == _full_mask(text, monkeypatch)
