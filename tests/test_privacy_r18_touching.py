"""A certain value touched by '_', a digit or a percent-escape is the same finding (tatk18 5).

An IBAN, an AWS key id and a classic GitHub token hold no ``_``: one on either side is a separator,
as a space is (``GB33…_x``, ``x_AKIA…_old``, ``old_ghp_…``). A JWT's two ``eyJ`` segments and their
dots are its guard, so it is found glued after a digit, a letter or ``%22`` in a URL (a percent-decoded
view cannot show it whole: its Base64 segments are decoded in the same layer). The check digit and the
published prefix stay the guard: a wrong MOD 97-10, letters mixed with digits before an IBAN, a word
that merely holds a prefix give nothing. Values are built at run time.
"""
from __future__ import annotations

import pytest

from memory_manager.privacy import scan

IBAN = "GB33" + "BUKB" + "20201555555555"
BAD_IBAN = "GB34" + "BUKB" + "20201555555555"
AWS = "AKIA" + "QX7LM2PZ8RT5VB1N"
GH = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
JWT = ("eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ" + "."
       + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")


def _certain(text: str) -> set[str]:
    return {f.category for f in scan(text) if f.confidence == "certain"}


@pytest.mark.parametrize("text, category", [
    (f"statement {IBAN}_x", "bank_account"),
    (f"statement {IBAN}_X1", "bank_account"),
    (f"acct_{IBAN}", "bank_account"),
    (f"q=%22{IBAN}%22", "bank_account"),
    (f"backup {AWS}_x", "secret"),
    (f"1_{AWS}_old", "secret"),
    (f"q=%22{AWS}%22", "secret"),
    (f"bot {GH}_old", "secret"),
    (f"bot {GH}_1", "secret"),
    (f"my_long_glue_{GH}", "secret"),
    (f"see https://x.example/?q=%22{JWT}%22", "secret"),
    (f"session token1{JWT}", "secret"),
    (f"session token{JWT}", "secret"),
    (f"a_{JWT}_b", "secret"),
], ids=["iban-_x", "iban-_X1", "iban-after-_", "iban-%22", "aws-_x", "aws-both-_", "aws-%22", "gh-_old", "gh-_1",
        "gh-after-long-_", "jwt-%22", "jwt-after-digit", "jwt-after-letters", "jwt-between-_"])
def test_a_certain_value_touched_by_underscore_digit_or_escape_is_found(text, category):
    assert category in _certain(text), scan(text)


@pytest.mark.parametrize("text", [
    f"statement {BAD_IBAN}_x",          # MOD 97-10 fails
    f"XJ9{IBAN}_x",                     # letters mixed with digits before: a hash or a build id
    f"build{BAD_IBAN}_x",
    f"{AWS}X_tail",                     # a longer upper-case run: not a key id
    "CAKIA_MODULE_NAME",
    "myghp_var = 1",
    "use ghp_short_later",
    "eyJhbGciOiJIUzI1NiJ9_only_one_segment",
], ids=["bad-iban", "iban-after-hash", "bad-iban-glued", "aws-longer", "aws-word", "gh-word", "gh-short",
        "jwt-one-segment"])
def test_a_neighbour_without_the_guard_gives_no_certain_finding(text):
    assert _certain(text) == set(), scan(text)
