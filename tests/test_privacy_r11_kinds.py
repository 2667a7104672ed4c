"""Kinds the detector must hold on (privacy issue 9, round 11): variants of attack round 11's findings.

``tests/attack/test_attack_r11_quick.py`` found phone numbers after cues the rules did not know
(``reach me at``, ``ph#``, 电话 glued, ``tel+86``, ``mom_``), SSNs dotted or after ``SS#`` / ``tax id``,
recovery words numbered or one a line, health facts named by a medicine, marker or device, and tokens
wrapped over three lines, quoted, full-width, with U+200B, ``-``, ``\\`` or table bars at the break.
These are other phrasings and other values (invented here), each positive with the exact (category,
rule) it gives (the category alone where an older rule takes the value first), and benign neighbours the new rules must leave alone. Secret-shaped values are built at
run time (``tests/test_layout.py``).
"""
from __future__ import annotations

import random
import string

import pytest

from memory_manager.privacy import mask, scan


def _rand(n: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _found(text: str) -> set[tuple[str, str]]:
    return {(f.category, f.rule) for f in scan(text)}


CN_MOBILE = "159" + "8765" + "4321"
US_NUMBER = "617" + "555" + "0177"
UK_MOBILE = "7911" + "123456"
GH = "gh" + "s_" + _rand(36, 11)
GITLAB = "gl" + "pat-" + _rand(20, 12)
WORDS = ["orbit", "canyon", "velvet", "ladder", "humble", "spray", "tiger", "noble", "fossil", "wrist", "cabin",
         "amused"]

POSITIVES = {
    "whatsapp_me_on_plus44": ("whatsapp me on +44 " + UK_MOBILE, ("phone", None)),
    "ring_me_dashed": ("ring me on " + US_NUMBER[:3] + "-" + US_NUMBER[3:6] + "-" + US_NUMBER[6:],
                       ("phone", None)),
    "landlord_colon_spaced": ("landlord: " + CN_MOBILE[:3] + " " + CN_MOBILE[3:7] + " " + CN_MOBILE[7:],
                              ("phone", None)),
    "zh_contact_glued_us": ("联系方式" + US_NUMBER, ("phone", "phone_after_cue_zh")),
    "zh_wife_glued_mobile": ("老婆" + CN_MOBILE, ("phone", None)),
    "sister_underscore": ("sister_" + CN_MOBILE, ("phone", "phone_after_cue")),
    "soc_sec_spaced": ("soc sec 536 22 8741", ("government_id", "ssn_any_label")),
    "taxpayer_id_colon": ("taxpayer id: 536-22-8741", ("government_id", None)),
    "ss_no_dotted": ("ss no. 536.22.8741", ("government_id", "ssn_any_label")),
    "seed_numbered_in_rows": ("seed:\n" + "\n".join(" ".join(f"{i + 1}) {WORDS[i]}" for i in range(r, r + 4))
                                                   for r in (0, 4, 8)), ("secret", "recovery_words_listed")),
    "numbered_hash_words": (" ".join(f"#{i + 1} {w}" for i, w in enumerate(WORDS)),
                            ("secret", "recovery_words_numbered")),
    "bulleted_below_recovery_label": ("my recovery phrase\n" + "\n".join("- " + w for w in WORDS),
                                      ("secret", "recovery_words_listed")),
    "she_is_on_biktarvy": ("she's on Biktarvy now", ("health", "health_lexicon_r11_en")),
    "viral_load": ("my viral load is undetectable", ("health", "health_lexicon_r11_en")),
    "insulin_pump": ("I wear an insulin pump at night", ("health", None)),  # health_terms_en reads "insulin" first
    "zh_bupropion": ("我在吃安非他酮", ("health", "health_lexicon_r11_zh")),
    "zh_pacemaker": ("我爸装了起搏器", ("health", "health_lexicon_r11_zh")),
    "he_got_a_stent": ("he got a stent last year", ("health", "health_framed_en")),
    "started_prep": ("I started PrEP in March", ("health", "health_framed_en")),
    "wrapped_four_lines_double_quote": ("key:\n>> " + GH[:10] + "\n>> " + GH[10:20] + "\n>> " + GH[20:30] + "\n>> "
                                        + GH[30:], ("secret", "github_token")),
    "wrapped_soft_hyphen": (GH[:18] + "\u00ad\n" + GH[18:], ("secret", "github_token")),
    "wrapped_hyphen_gitlab": (GITLAB[:12] + "-\n" + GITLAB[12:], ("secret", "gitlab_token")),
}

BENIGN = [
    "meal prep on Sundays, then prep the release notes",
    "Plan B: roll back the deploy if the canary fails",
    "pacemaker manages the cluster resources on both nodes",
    "call 2024-01-05 standup notes",
    "the call stack was 1234567 frames deep",
    "1. build 2. test 3. deploy 4. verify",
    "Truvada was approved in 2012 as the first PrEP medicine",
    "鲁迅死于肺结核，这是文学史常识",
    "tax id field validation: 9 digits",
    "phone model 14 Pro, 256 GB",
    "the pump stopped after 3 retries",
    "I need to prep the demo for Friday",
]


@pytest.mark.parametrize("name", sorted(POSITIVES))
def test_variant_is_found_by_its_rule(name):
    text, (category, rule) = POSITIVES[name]
    found = _found(text)
    # None: an older rule of the category takes the value first (the new one is its fallback).
    assert (category, rule) in found if rule else category in {c for c, _r in found}, (name, found)


@pytest.mark.parametrize("line", BENIGN)
def test_benign_neighbour_has_no_finding(line):
    assert scan(line) == []


def test_mask_hides_every_piece_of_a_token_wrapped_over_quoted_lines():
    text = "- ci key:\n> " + GH[:14] + "\n> " + GH[14:28] + "\n> " + GH[28:] + "\n- done\n"
    out = mask(text)
    assert all(part not in out for part in (GH[:14], GH[14:28], GH[28:]))
    assert out.endswith("> [secret]\n- done\n"), out


def test_mask_keeps_the_table_layout_of_a_wrapped_token():
    text = "| ci key | " + GH[:20] + " |\n|  | " + GH[20:] + " |\n"
    assert mask(text) == "| ci [secret] |\n|  | [secret] |\n"
