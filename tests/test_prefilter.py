"""Literal gates read from regular expressions (``memory_manager.prefilter``) and their use by the detector.

A gate is sound when every match of the pattern holds one of its literals at
the same offsets of the lower-cased text the gate reads. Checked here on small
patterns with known answers, then on every rule of the detector over the
committed corpora and over generated text dense in the characters that
IGNORECASE and lower-casing treat unevenly.
"""
from __future__ import annotations

import random
import re
import sys

import pytest

from conftest import ROOT
from memory_manager import prefilter, privacy

sys.path.insert(0, str(ROOT / "bench"))
from privacy_fakes import fill  # noqa: E402


def lits(pattern: str, flags: int = 0, lower_text: bool = True):
    return prefilter.required_literals(re.compile(pattern, flags), lower_text=lower_text)


def test_a_literal_run_and_alternatives():
    assert lits(r"ghp_[A-Za-z0-9]{36}") == ("ghp_",)
    assert lits(r"(?:sk|rk)_live_\d+") == ("rk_live_", "sk_live_")
    assert lits(r"\d+ (?:apples|pears)") == (" apples", " pears")


def test_the_longest_literal_of_a_sequence_is_chosen():
    assert lits(r"ab\d+wxyz") == ("wxyz",)


def test_an_optional_part_gives_no_literal():
    assert lits(r"(?:token)?\d{6}") is None
    assert lits(r"x(?:abc|)y") == ("xabcy", "xy")


def test_case_of_the_text_is_folded_for_a_case_sensitive_pattern():
    assert lits(r"AKIA[0-9A-Z]{16}") == ("akia",)
    assert lits(r"AKIA[0-9A-Z]{16}", lower_text=False) == ("AKIA",)


def test_ignorecase_never_uses_i_or_s():
    # (?i)s matches the long s and (?i)i the dotless i, which str.lower leaves as they are.
    assert lits(r"(?i)password") == ("word",)
    assert lits(r"(?i)status") == ("tatu",)
    assert lits(r"(?i)bearer token") == ("bearer token",)
    assert lits(r"(?i)KEY: (?:abc|def)") == ("key: abc", "key: def")


def test_patterns_that_can_match_a_line_break_get_no_gate():
    assert lits(r"password\s+\S+") is None
    assert lits(r"password[^x]+") is None
    assert lits(r"password.+", re.DOTALL) is None
    assert lits(r"password(?=\n)") is None
    assert lits(r"password[ \t]+[^\n]+") == ("password",)
    assert lits(r"password\W") is None and lits(r"password[^\d]") is None and lits(r"password[^\S]") is None
    # a negated class that leaves out every white space cannot match a newline
    assert lits(r"password=[^\s\"']+") == ("password=",)


def test_an_end_anchor_without_multiline_gets_no_gate():
    assert lits(r"password$") is None
    assert lits(r"password\Z") is None
    assert lits(r"password$", re.MULTILINE) == ("password",)


def _views(texts):
    for text in texts:
        view = privacy.fold_traditional(privacy.normalise(text)[0])
        yield view, privacy._lowered(view)


def _corpus_texts() -> list[str]:
    rng = random.Random(5)
    out = []
    for path in sorted((ROOT / "bench" / "privacy_corpus").glob("*.tsv")):
        for row in path.read_text(encoding="utf-8").splitlines()[1:]:
            if row.strip():
                out.append(fill(row.split("\t")[-1], rng))
    return out


def _tricky(rng: random.Random, n: int) -> list[str]:
    """Lines dense in characters that case-fold unevenly (dotless i, long s, Kelvin, dotted I, final sigma)."""
    odd = ["\u0131", "\u017f", "\u212a", "\u0130", "\u03c2", "\u00df", "\u1e9e", "I", "S", "K", "\U0001f600"]
    words = ["password", "PASSWORD", "Passphrase", "token", "secret", "AKIA", "ghp_", "sk-", "key", "api",
             "wifi", "PIN", "mima", "密码", "口令", "is", ":", "=", " "]
    out = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randrange(3, 12)):
            w = rng.choice(words)
            if rng.random() < 0.4:
                i = rng.randrange(len(w) + 1)
                w = w[:i] + rng.choice(odd) + w[i:]
            parts.append(w)
            parts.append("".join(rng.choice("abcdefXYZ0123456789_-") for _ in range(rng.randrange(0, 24))))
        out.append(" ".join(parts))
    return out


def test_every_rule_gate_holds_on_every_match():
    """Each match of each rule with a gate (selective or not) holds one of its literals."""
    texts = _corpus_texts() + _tricky(random.Random(3), 3000)
    gates = {}
    for rule in privacy.RULES_LIST:
        words = prefilter.required_literals(rule.pattern, lower_text=not rule.lower)
        if words:
            gates[rule.name] = (rule, words)
    assert len(gates) > 100
    checked = 0
    for view, low in _views(texts):
        for rule, words in gates.values():
            subject = low if rule.lower else view
            for m in rule.pattern.finditer(subject):
                if m.end() == m.start():
                    continue
                checked += 1
                assert any(w in low[m.start():m.end()] for w in words), (rule.name, words, m.group())
    assert checked > 1000


def test_the_derived_gates_cover_most_rules_without_key_words():
    derived = privacy._derived_gates()
    ungated = [r for r in privacy.RULES_LIST if not (r.needs or r.needs_re or r.triggers or r.numeric
                                                      or r.name in privacy._TOPIC_EN_NAMES)]
    assert sum(1 for r in ungated if r.name in derived) >= 80


@pytest.mark.parametrize("automaton", [True, False])
def test_scan_finds_the_same_with_and_without_the_automaton(automaton, monkeypatch):
    """The literal index with pyahocorasick and with str.find (its fallback) gives the same findings,
    offsets right after characters outside the BMP included."""
    rng = random.Random(9)
    lines = _corpus_texts()
    text = "\n".join(("\U0001f600 " if rng.random() < 0.3 else "") + line for line in lines)
    want = privacy.scan(text)
    if not automaton:
        monkeypatch.setattr(privacy, "_AUTOMATON", False)
    else:
        assert privacy._automaton(), "pyahocorasick is a declared dependency"
    with privacy.serial_scans():
        assert privacy.scan(text) == want
