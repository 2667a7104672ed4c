"""Encoded text counts as what it decodes to (issue 10, attack round 5): privacy.scan over the
decoded views of memory_manager.decoding, one test per kind of encoding, with variants.

Secret-shaped values are built at run time (tests/test_layout.py refuses literals).
"""
from __future__ import annotations

import base64
import html
import json
import urllib.parse

import pytest

from memory_manager import decoding
from memory_manager.privacy import joined_readings, mask, scan, scan_name

#: A GitHub token shape (a certain finding) and its body, built at run time.
TOKEN = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8" + "Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
#: A North American number (a possible finding).
PHONE = "415-555" + "-0132"
#: A Chinese mobile number (a possible finding).
CN_MOBILE = "138" + "1234" + "5678"
#: A Luhn-valid test card number (Visa test range), spaced.
CARD = "4111" + " 1111" * 3


def _pct_all(s: str) -> str:
    return "".join(f"%{b:02X}" for b in s.encode("utf-8"))


def _hex_mixed(s: str) -> str:
    return "".join((f"{b:02X}" if i % 2 else f"{b:02x}") for i, b in enumerate(s.encode()))


#: name -> the token written in that encoding.
ENCODED_TOKENS = {
    "percent, one escape": TOKEN.replace("_", "%5F"),
    "percent, lower-case escape": TOKEN.replace("_", "%5f"),
    "percent, every byte": _pct_all(TOKEN),
    "json \\u escape": TOKEN.replace("_", "\\u005f"),
    "json \\u escape, upper-case": TOKEN.replace("_", "\\u005F"),
    "ecmascript \\u{} escape": TOKEN.replace("_", "\\u{5f}"),
    "python \\x escapes": "".join(f"\\x{b:02x}" for b in TOKEN.encode()),
    "html decimal entity": TOKEN.replace("_", "&#95;"),
    "html hex entity": TOKEN.replace("_", "&#x5F;"),
    "html named entity": TOKEN.replace("_", "&lowbar;"),
    "html entities, every character": "".join(f"&#{ord(c)};" for c in TOKEN),
    "quoted-printable": TOKEN.replace("_", "=5F"),
    "quoted-printable, every byte": "".join(f"={b:02X}" for b in TOKEN.encode()),
    "hex": TOKEN.encode().hex(),
    "hex, mixed case": _hex_mixed(TOKEN),
    "hex, 0x prefix": "0x" + TOKEN.encode().hex().upper(),
    "base32": base64.b32encode(TOKEN.encode()).decode(),
    "base32, lower case": base64.b32encode(TOKEN.encode()).decode().lower(),
    "base64": base64.b64encode(TOKEN.encode()).decode(),
    "base64 url-safe, no padding": base64.urlsafe_b64encode(TOKEN.encode()).decode().rstrip("="),
}


@pytest.mark.parametrize("form", sorted(ENCODED_TOKENS))
def test_an_encoded_token_is_a_certain_finding_over_its_encoded_characters(form):
    encoded = ENCODED_TOKENS[form]
    text = f"ci blob {encoded} end"
    found = scan(text)
    assert [(f.category, f.rule, f.confidence) for f in found] == [("secret", "github_token", "certain")]
    f = found[0]
    # The span is the encoded token as written, padding and 0x prefix included.
    assert (f.line, f.start, f.end) == (1, 8, 8 + len(encoded))
    assert TOKEN[4:12] not in f.excerpt and encoded[8:20] not in f.excerpt
    assert mask(text) == "ci blob [secret] end"


#: name -> the token encoded twice.
DOUBLE = {
    "percent of percent": TOKEN.replace("_", "%255F"),
    "base64 of percent": base64.b64encode(TOKEN.replace("_", "%5F").encode()).decode(),
    "html entity of percent": TOKEN.replace("_", "&#37;5F"),
    "hex of base64": base64.b64encode(TOKEN.encode()).hex(),
    "percent of json escape": TOKEN.replace("_", "%5Cu005f"),
    "base64 of hex": base64.b64encode(TOKEN.encode().hex().encode()).decode(),
}


@pytest.mark.parametrize("form", sorted(DOUBLE))
def test_a_token_encoded_twice_is_found(form):
    found = scan(f"note {DOUBLE[form]}")
    assert [(f.rule, f.confidence, f.start, f.end) for f in found] == [
        ("github_token", "certain", 5, 5 + len(DOUBLE[form]))]


def test_a_token_encoded_past_the_depth_stays_a_plain_blob():
    """decoding.DEPTH decodings are tried (8 since round 6, 3 before): one layer more is not read."""
    blob = TOKEN
    for _ in range(decoding.DEPTH + 1):
        blob = base64.b64encode(blob.encode()).decode()
    assert all(f.rule != "github_token" for f in scan(f"note {blob}"))


@pytest.mark.parametrize("text,category,confidence", [
    # percent-encoded Chinese text with the number, digits encoded too
    (urllib.parse.quote("我的手机号是" + CN_MOBILE), "phone", "possible"),
    (_pct_all("电话 " + CN_MOBILE), "phone", "possible"),
    # JSON with every non-ASCII character escaped
    (json.dumps("我的手机号是" + CN_MOBILE), "phone", "possible"),
    ("oncall pager " + PHONE.replace("-", "%2D"), "phone", "possible"),
    ("oncall pager " + base64.b64encode(PHONE.encode()).decode(), "phone", "possible"),
    ("card " + "".join(f"&#{ord(c)};" for c in CARD), "payment_card", "certain"),
    ("card " + _pct_all(CARD), "payment_card", "certain"),
])
def test_an_encoded_number_keeps_its_category_and_confidence(text, category, confidence):
    found = [(f.category, f.confidence) for f in scan(text)]
    assert (category, confidence) in found, found


@pytest.mark.parametrize("text", [
    "search https://example.org/search?q=hello%20world&lang=en%2DUS",
    "the page title is Tom &amp; Jerry &lt;3 &#169; 2026",
    json.dumps({"title": "周报", "note": "部署完成，无异常"}),
    "retries=20 and id=7c9e6679-7425-40de-944b-e07fc1f90ae7 in the config",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed it",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "request 550e8400-e29b-41d4-a716-446655440000 timed out",
    "header " + base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("="),
    "greeting " + base64.b64encode("hello world, 你好".encode()).decode(),
    "png data:image/png;base64," + base64.b64encode(bytes(range(256)) * 4).decode(),
    "path /home/runner/work/repo/repo and module memory_manager_privacy_bench",
    "colour mask=FF00FF and soft break=\nnext line",
])
def test_benign_encoded_text_has_no_finding(text):
    assert scan(text) == []


def test_text_without_an_encoded_shape_gets_no_view():
    assert list(decoding.views("plain notes: deploy on Friday, 3 retries, ports 8080-8090")) == []


def test_a_view_maps_every_character_back_to_the_text():
    text = "line one\nkey " + TOKEN.replace("_", "%5F") + " done\nline three"
    [(view, starts, ends)] = list(decoding.views(text))
    assert view == "key " + TOKEN + " done\n"
    assert len(starts) == len(ends) == len(view)
    at = view.index("_")
    assert text[starts[at]:ends[at]] == "%5F"
    assert all(text[starts[i]:ends[i]] == view[i] for i in range(len(view)) if i != at)


def test_a_finding_in_a_decoded_view_keeps_its_line():
    text = "first line\nsecond " + base64.b64encode(TOKEN.encode()).decode() + "\nthird"
    [f] = scan(text)
    assert (f.line, f.start) == (2, 7)


@pytest.mark.parametrize("name", [
    TOKEN.replace("_", "%5F"),
    "ops-" + TOKEN.encode().hex(),
    "pager-" + PHONE.replace("-", "%2D"),
    "ci_" + base64.b32encode(TOKEN.encode()).decode(),
])
def test_an_encoded_value_in_a_name_is_found(name):
    assert scan_name(name) != []


def test_joined_readings_reads_every_run_of_neighbours_in_order():
    assert joined_readings(["a", "b", "c"]) == ["ab", "a b", "abc", "a b c", "bc", "b c"]
    assert joined_readings(["only"]) == []
    many = [f"t{i}" for i in range(40)]
    readings = joined_readings(many)
    assert "".join(many) in readings and "t3t4t5" in readings
    assert "".join(many[:9]) not in readings  # runs of up to 8 in a long list


def test_a_token_split_over_tags_is_found_when_they_are_read_together():
    tags = ["deploy", TOKEN[:15], TOKEN[15:30], TOKEN[30:], "ci"]
    assert not any(f.rule == "github_token" for t in tags for f in scan_name(t))
    found = scan_name("\n".join(joined_readings(tags)))
    assert any(f.rule == "github_token" for f in found)
    number = scan_name("\n".join(joined_readings(["oncall", "415", "555", "0132"])))
    assert any(f.category == "phone" for f in number)


def test_html_unescape_agrees_with_the_view_on_named_entities():
    """The view decodes references as html.unescape does (the standard the module cites)."""
    text = "a &lt;b&gt; &amp; &#x4e2d;&#25991;"
    [(view, _, _)] = list(decoding.views(text))
    assert view == html.unescape(text)
