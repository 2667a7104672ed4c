"""Kinds the detector must hold on (privacy issue 9, round 9): variants of attack round 10's findings.

``tests/attack/test_attack_trust_r10.py`` found a mobile number glued to a Latin word, a labelled SSN
or passport number in JSON quotes, brackets or after a dash, a phone number without separators after
its label, a provider token with word characters glued in front, a token wrapped over two lines that
recall's mask showed half of, health facts outside the vocabulary, and recovery words below their
label or after ``wallet:``. These are other phrasings and other values (invented here), each positive
with the exact (category, rule) it gives, and the benign neighbours each new rule must leave alone.
Values shaped like secrets are built at run time (``tests/test_layout.py``).
"""
from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from memory_manager.privacy import mask, scan


def _rand(n: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _found(text: str) -> set[tuple[str, str]]:
    return {(f.category, f.rule) for f in scan(text)}


CN_MOBILE = "159" + "8765" + "4321"
US_NUMBER = "617" + "555" + "0177"
GH = "gh" + "o_" + _rand(36, 1)
AWS = "AS" + "IA" + _rand(16, 2, string.ascii_uppercase + "234567")
GITLAB = "gl" + "pat-" + _rand(20, 3)
GOOGLE = "AI" + "za" + _rand(35, 4)
WORDS = " ".join(["orbit", "canyon", "velvet", "ladder", "humble", "spray", "tiger", "noble", "fossil", "wrist",
                  "cabin", "amused"])


# ------------------------------------------------------------ a mobile number glued to a word


@pytest.mark.parametrize("text", [f"ask dad{CN_MOBILE} first", f"grandma{CN_MOBILE}",
                                  "ｄａｄ" + "".join(chr(ord(c) + 0xFEE0) for c in CN_MOBILE) + " tonight",
                                  f"landlord{CN_MOBILE} about the lease"],
                         ids=["dad", "grandma", "fullwidth", "landlord"])
def test_a_mobile_number_glued_to_a_word_is_a_phone(text):
    assert _found(text) == {("phone", "mobile_glued_to_word")}


@pytest.mark.parametrize("text", [f"order{CN_MOBILE} shipped", f"build{CN_MOBILE} passed", f"id{CN_MOBILE}",
                                  "deadbeef" + CN_MOBILE, "abc" + CN_MOBILE + "99", f"ts{CN_MOBILE}"],
                         ids=["order", "build", "id", "hex", "longer-run", "ts"])
def test_a_counted_thing_glued_to_eleven_digits_is_no_phone(text):
    assert [f for f in scan(text) if f.category == "phone"] == []


# ------------------------------------------------------------ a phone number without separators after its label


@pytest.mark.parametrize("text", [f"my mobile is {US_NUMBER}", f"husband{US_NUMBER}", f"cell: {US_NUMBER}",
                                  f"call mom at home, tel # {US_NUMBER}"],
                         ids=["mobile-is", "glued", "cell-colon", "tel-hash"])
def test_an_unformatted_number_after_a_phone_word_is_a_phone(text):
    assert _found(text) == {("phone", "phone_after_label_unformatted")}


@pytest.mark.parametrize("text", ["call 1234567890 in the form", "text 4294967295 times",
                                  f"build number {US_NUMBER}", "phone 0123456789 is not a real one",
                                  f"call timeout {US_NUMBER} ms"],
                         ids=["made-up", "uint-max", "build", "leading-zero", "not-after-label"])
def test_ten_digits_that_are_no_phone_number_stay_unflagged(text):
    assert [f for f in scan(text) if f.rule == "phone_after_label_unformatted"] == []


# ------------------------------------------------------------ a labelled id number in quotes, brackets, after a dash


@pytest.mark.parametrize("text,rule", [
    ('{"SSN":"412680937"}', "ssn_label_wrapped"),
    ("social security number [412 68 0937]", "ssn_label_wrapped"),
    ("'ssn' => '412680937'", "ssn_label_wrapped"),
    ('{"passport_no": "G87654321"}', "id_document_label_wrapped"),
    ("护照（E87654321）", "id_document_label_wrapped"),
    ("national id - K4402981X", "id_document_label_wrapped"),
], ids=["json", "square-bracket", "php-arrow", "json-passport", "zh-bracket", "dash-national-id"])
def test_a_labelled_id_number_in_quotes_or_brackets_is_certain(text, rule):
    found = scan(text)
    assert {(f.category, f.rule) for f in found} == {("government_id", rule)}
    assert all(f.confidence == "certain" for f in found)


@pytest.mark.parametrize("text", ['{"ssn": "999887777"}', '{"ssn": "000123456"}', '{"passport": "required"}',
                                  '"passport": "valid for 6 months"', "ssn (last four only)"],
                         ids=["ssn-9xx", "ssn-000", "word", "months", "aside"])
def test_a_label_with_no_id_number_stays_unflagged(text):
    assert [f for f in scan(text) if f.category == "government_id"] == []


# ------------------------------------------------------------ a provider token with characters glued in front


@pytest.mark.parametrize("glue", ["z", "9", "__", "tok"])
@pytest.mark.parametrize("token,rule", [(GH, "github_token_glued"), (AWS, "aws_access_key_id_glued"),
                                        (GITLAB, "gitlab_token_glued"), (GOOGLE, "google_api_key_glued")],
                         ids=["github", "aws", "gitlab", "google"])
def test_a_token_with_characters_glued_in_front_is_certain(glue, token, rule):
    found = scan(f"export it as {glue}{token} please")
    if glue == "__" and rule in ("github_token_glued", "aws_access_key_id_glued"):
        rule = rule[:-len("_glued")]  # tatk18 5: '_' is a separator for a value that holds none (the plain rule reads it)
    assert [(f.category, f.rule, f.confidence) for f in found] == [("secret", rule, "certain")]


@pytest.mark.parametrize("text", ["the akiaword helper", "myghp_var = 1", "use ghp_short later",
                                  "Zm9vYmFyYmF6cXV4" + "AKIA" + "QWERTYUIOPASDFGHbaz", "CAKIA_MODULE_NAME",
                                  "xoxo-gossip-girl-season-two", "sakia" + "A" * 16])
def test_words_that_merely_hold_a_token_prefix_stay_unflagged(text):
    assert [f for f in scan(text) if f.rule.endswith("_glued")] == []


# ------------------------------------------------------------ recall's mask reads a wrapped token joined


@pytest.mark.parametrize("token", [GH, GITLAB, "xo" + "xp-" + "2345678901-" + _rand(24, 5)],
                         ids=["github", "gitlab", "slack"])
def test_mask_hides_both_halves_of_a_token_wrapped_over_two_lines(token):
    cut = len(token) // 2
    note = f"## deploy\n- ci login {token[:cut]}\n    {token[cut:]}\n- next item\n"
    masked = mask(note)
    assert token[:cut] not in masked and token[cut:] not in masked
    assert masked.splitlines()[0] == "## deploy" and masked.splitlines()[3] == "- next item"
    assert masked.count("\n") == note.count("\n")


def test_mask_leaves_two_ordinary_lines_as_they_are():
    note = "## build\n- release v2.3.1 tagged 2026-11-30\n  notes in CHANGELOG_2026.md\n"
    assert mask(note) == note


# ------------------------------------------------------------ health facts the vocabulary missed


@pytest.mark.parametrize("text", [
    "she had an abortion in may", "用户做过人流手术", "my mother is on hormone replacement therapy",
    "user tested positive for gonorrhea", "he has been cutting himself", "user overdoses when alone",
    "user froze her eggs last year", "user has an ileostomy", "用户有疝气", "用户在吃紧急避孕药",
    "我前年割腕过", "用户去年药物过量住院",
], ids=["abortion", "zh-abortion", "hrt", "sti", "self-harm", "overdose", "fertility", "stoma", "zh-hernia",
        "zh-contraception", "zh-self-harm", "zh-overdose"])
def test_a_health_fact_of_a_new_class_is_a_topic(text):
    found = [f for f in scan(text) if f.category == "health"]
    assert found and all(f.confidence == "topic" for f in found)
    assert any(f.rule.startswith("health_terms_r9") for f in found)


@pytest.mark.parametrize("text", ["the nightly job aborted after 3 retries", "商场人流量很大", "上环站见",
                                  "the stomach bug ticket is closed", "we need a plan b for the launch",
                                  "the pipeline self-heals on retry"],
                         ids=["aborted", "crowd", "district", "stomach-word", "plan-b", "self-heals"])
def test_words_near_the_new_health_classes_stay_unflagged(text):
    assert [f for f in scan(text) if f.rule.startswith("health_terms_r9")] == []


# ------------------------------------------------------------ recovery words whatever their label


@pytest.mark.parametrize("text,rule", [
    ("Seed:\n" + WORDS, "recovery_phrase_below_label"),
    ("my recovery words\n\n" + WORDS, "recovery_phrase_below_label"),
    ("wallet = " + WORDS, "recovery_phrase_any_label"),
    ("metamask phrase is " + WORDS, "recovery_phrase_any_label"),
    ("钱包：" + WORDS, "recovery_phrase_any_label"),
], ids=["next-line", "blank-line-between", "equals", "metamask", "zh-wallet"])
def test_recovery_words_after_any_wallet_label_are_certain(text, rule):
    found = scan(text)
    assert [(f.category, f.rule, f.confidence) for f in found] == [("secret", rule, "certain")]


@pytest.mark.parametrize("text", [
    "wallet: the user keeps his ledger under the desk and that was fine ok",
    "notes:\n" + WORDS,
    "seed: " + " ".join(WORDS.split()[:9]),
    "wallet: " + WORDS + " extra",
], ids=["prose", "other-label", "nine-words", "thirteen-words"])
def test_word_lists_that_are_no_recovery_phrase_stay_unflagged(text):
    assert [f for f in scan(text) if f.rule.startswith("recovery_phrase")] == []


# ------------------------------------------------------------ through the scripts

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}


def _init(run_script) -> None:
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=NOW)
    assert r.code == 0, r.err


def _files_holding(root: Path, needle: str) -> list[str]:
    """Every file under ``root`` whose path or bytes hold ``needle``."""
    return [p.relative_to(root).as_posix() for p in sorted(root.rglob("*"))
            if needle in p.relative_to(root).as_posix()
            or (p.is_file() and not p.is_symlink() and needle.encode() in p.read_bytes())]


def test_learn_refuses_a_glued_token_and_recall_never_prints_it(ws, run_script):
    _init(run_script)
    r = run_script("memory", "learn", "deploy", "--text", f"rotate 7{GITLAB} monthly", env=NOW)
    assert r.code == 1, r.out
    assert _files_holding(ws, GITLAB) == []


def test_recall_masks_a_slack_token_wrapped_in_a_note(ws, run_script):
    _init(run_script)
    token = "xo" + "xb-" + "3456789012-4567890123-" + _rand(24, 6)
    (ws / "memory/2026-11-27.md").write_text(
        f"# 2026-11-27\n\n## bots\n- zzpelican bot token {token[:18]}\n  {token[18:]}\n", encoding="utf-8")
    r = run_script("memory", "recall", "zzpelican", env=NOW)
    assert r.code == 0, r.err
    assert "zzpelican" in r.out
    assert token[:18] not in r.out and token[18:] not in r.out
