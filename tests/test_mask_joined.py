"""``privacy.mask`` over a finding of the joined reading (a value on a line below its label).

Found by trust10 (round 9): the finding ran from the label over the line breaks to the value,
but the mask replaced it within the label's line only, so recall and the report showed the
password itself. The mask now hides every line the finding covers and keeps the line count
(the report splits its joined texts back by line counts)."""
from __future__ import annotations

import pytest

from memory_manager import privacy

VALUE = "mango" + "2291home"


@pytest.mark.parametrize("text", [
    f"password:\n\n{VALUE}",
    f"wifi password:\n{VALUE}",
    f"password:\n\n{VALUE}\nnext line stays",
    f"家里路由器密码：\n{VALUE}",
])
def test_a_value_below_its_label_is_masked_and_the_lines_are_kept(text):
    assert any(f.tier3 for f in privacy.scan(text)), "the detector finds it (the premise)"
    masked = privacy.mask(text)
    assert VALUE not in masked
    assert "2291" not in masked
    assert masked.count("\n") == text.count("\n")
    if "next line stays" in text:
        assert masked.endswith("\nnext line stays")


def test_findings_on_one_line_are_masked_as_before():
    token = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8" + "Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
    assert privacy.mask(f"call 415-555-0132 and key {token} x") == "call [phone] and key [secret] x"
    assert privacy.mask("nothing private here\nat all") == "nothing private here\nat all"
