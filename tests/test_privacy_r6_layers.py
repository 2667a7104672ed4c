"""Round 6 layers of the detector's decoding pass (issue 10): ROT13 of a token, Base85 and
Ascii85, and Base64 nested more than three times (memory_manager/decoding.py). In process on
privacy.scan, then through the real scripts on real files (learn refuses, the audit finds).

Secret-shaped values are built at run time (tests/test_layout.py refuses literals).
"""
from __future__ import annotations

import base64
import codecs
import json

import pytest

from memory_manager import decoding
from memory_manager.privacy import scan

TOKEN = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8" + "Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
AWS_ID = "AKIA" + "IOSFODNN7EXAMPLQ"
PHONE = "415-555" + "-0132"
ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}


def _b64_layers(text: str, n: int) -> str:
    data = text.encode()
    for _ in range(n):
        data = base64.b64encode(data)
    return data.decode()


FORMS = {
    "rot13": lambda v: codecs.encode(v, "rot13"),
    "base85": lambda v: base64.b85encode(v.encode()).decode(),
    "ascii85": lambda v: base64.a85encode(v.encode()).decode(),
    "ascii85 adobe": lambda v: base64.a85encode(v.encode(), adobe=True).decode(),
    **{f"base64 x{n}": (lambda v, n=n: _b64_layers(v, n)) for n in (4, 5, 6, 8)},
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_token_in_a_round6_layer_is_a_certain_finding_over_its_encoded_characters(form):
    encoded = FORMS[form](TOKEN)
    found = scan(f"ci blob {encoded} end")
    assert [(f.rule, f.confidence, f.start, f.end) for f in found] == [
        ("github_token", "certain", 8, 8 + len(encoded))]


@pytest.mark.parametrize("form", ["rot13", "base85", "ascii85"])
def test_an_aws_key_id_in_a_round6_layer_is_found(form):
    assert [f.rule for f in scan(f"aws {FORMS[form](AWS_ID)} ok") if f.category == "secret"] != []


def test_a_rot13_jwt_comes_back_whole():
    part = lambda d: base64.urlsafe_b64encode(json.dumps(d).encode()).decode().rstrip("=")  # noqa: E731
    jwt = part({"alg": "HS256", "typ": "JWT"}) + "." + part({"sub": "u-1042", "name": "ops"}) + "." + "Sf" * 20
    assert [f.category for f in scan(f"auth {jwt}")] == ["secret"]
    assert [f.category for f in scan(f"auth {codecs.encode(jwt, 'rot13')}")] == ["secret"]


def test_a_phone_number_in_base85_keeps_its_category():
    assert [(f.category, f.confidence) for f in scan("pager " + base64.b85encode(f"call {PHONE}".encode()).decode())] \
        == [("phone", "possible")]


@pytest.mark.parametrize("text", [
    # ROT13 is read only where it gives a token prefix: words and identifiers stay as they are.
    "the tuc module and fx-rotation config are plain words",
    "module tuc_renderer_v2_builder_service and sk-like names",
    codecs.encode("plain deployment notes for the 2026 release train", "rot13"),
    # Runs that look like Base85/Ascii85 but are code, paths, URLs or decode to nothing printable.
    "@dataclass(frozen=True) class Settings(BaseModel): retries: int = 3",
    r"path C:\Users\Public\Documents\Reports\2026\summary.xlsx",
    'integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"',
    "url https://example.org/a/b?c=d&e=f#section-2(1)[3]{x}",
    "git binary patch " + base64.b85encode(bytes(range(200))).decode(),
    "blob " + base64.a85encode(bytes(range(40, 240))).decode(),
    # A benign value in Base85, and Base64 nested five times: decoded, nothing found.
    "note " + base64.b85encode(b"release notes for version 2.4, nothing private").decode(),
    "note " + _b64_layers("release notes for version 2.4", 5),
])
def test_benign_text_gets_no_finding_from_the_new_layers(text):
    assert scan(text) == []


def test_the_new_layers_are_bounded_and_what_lies_past_the_bound_is_never_clean():
    """Depth: DEPTH layers are read (8); past them, text that still decodes is a possible secret
    (``encoded-too-deep``: stored only on approval), never clean (tatk7, round 6: 9 layers hid a
    token). Size: a Base85 run is decoded up to MAX_B85 (1 MiB; it was 4,096 characters)."""
    assert decoding.DEPTH == 8
    assert [f.rule for f in scan("x " + _b64_layers(TOKEN, decoding.DEPTH))] == ["github_token"]
    for extra in (1, 2, 4):
        found = scan("x " + _b64_layers(TOKEN, decoding.DEPTH + extra))
        assert [(f.rule, f.category, f.confidence) for f in found] == [("encoded-too-deep", "secret", "possible")]
    # Harmless text nested as deep is held the same way: what it says is not read.
    assert [f.rule for f in scan("x " + _b64_layers("release notes for version 2.4", 9))] == ["encoded-too-deep"]
    long = base64.b85encode(((TOKEN + " ") * 120).encode()).decode()
    assert 4096 < len(long) < decoding.MAX_B85
    assert "github_token" in {f.rule for f in scan("x " + long)}


def _init(run_script) -> None:
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=ENV)
    assert r.code == 0, r.err


@pytest.mark.parametrize("form", ["rot13", "base85", "ascii85", "base64 x4"])
def test_learn_refuses_a_token_in_a_round6_layer_and_the_audit_finds_one_in_a_note(ws, run_script, form):
    _init(run_script)
    encoded = FORMS[form](TOKEN)
    r = run_script("memory", "learn", "ci", "--text", f"ci blob {encoded} end", env=ENV)
    assert r.code == 1 and "secret" in r.err
    assert not (ws / "memory/knowledge/ci.md").exists()
    (ws / "memory/daily").mkdir(parents=True, exist_ok=True)
    (ws / "memory/daily/2026-11-28.md").write_text(
        f"# 2026-11-28\n\n## ci\n\n- Change: ci blob {encoded} end\n", encoding="utf-8")
    audit = run_script("privacy_audit", "--json", env=ENV)
    assert audit.code == 1, audit.err
    found = [(f["file"], f["line"], f["rule"]) for f in json.loads(audit.out)["findings"]]
    assert found == [("memory/daily/2026-11-28.md", 5, "github_token")]


def test_learn_holds_a_value_nested_past_the_bound_until_the_user_approves(ws, run_script):
    """Round 7: nine layers of Base64 were stored as clean text (tatk7). Now the gate asks first."""
    _init(run_script)
    deep = _b64_layers(TOKEN, decoding.DEPTH + 1)
    r = run_script("memory", "learn", "blob", "--text", f"blob {deep}", env=ENV)
    assert r.code == 1
    assert "possible secret found in --text" in r.err
    assert not (ws / "memory/knowledge/blob.md").exists()
    r = run_script("memory", "learn", "blob", "--text", f"blob {deep}", "--approved", env=ENV)
    assert r.code == 0, r.err
    assert deep in (ws / "memory/knowledge/blob.md").read_text(encoding="utf-8")
