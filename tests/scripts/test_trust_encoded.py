"""Issue 10, attack round 5, by kind: encoded values count as what they decode to in every door,
a value split over tags is judged whole, and an approval that cannot be bound is refused when given.

Each test runs the real scripts in a temporary workspace. Secret-shaped values are built at run
time (tests/test_layout.py refuses literals).
"""
from __future__ import annotations

import base64
import json
import urllib.parse

import pytest

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
TOKEN = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8" + "Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
#: A piece of the token's body that any copy of it on disk would hold.
BODY = TOKEN[4:16]
PHONE = "415-555" + "-0132"
CN_MOBILE = "138" + "1234" + "5678"

ENCODINGS = {
    "percent": lambda s: s.replace("_", "%5F"),
    "percent twice": lambda s: s.replace("_", "%255F"),
    "json escape": lambda s: s.replace("_", "\\u005f"),
    "html entity": lambda s: s.replace("_", "&#x5f;"),
    "quoted-printable": lambda s: s.replace("_", "=5F"),
    "hex, mixed case": lambda s: "".join((f"{b:02X}" if i % 3 else f"{b:02x}") for i, b in enumerate(s.encode())),
    "base32": lambda s: base64.b32encode(s.encode()).decode(),
    "base64 of percent": lambda s: base64.b64encode(s.replace("_", "%5F").encode()).decode(),
}


def init(run_script, *extra: str) -> None:
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", *extra, env=ENV)
    assert r.code == 0, r.err


def names_holding(ws, *needles: str) -> list[str]:
    """Every path under the workspace whose name holds one of ``needles``."""
    return [p.relative_to(ws).as_posix() for p in ws.rglob("*") if any(n in p.name for n in needles)]


def files_holding(ws, *needles: str) -> list[str]:
    """Every file under the workspace whose bytes hold one of ``needles``."""
    return [p.relative_to(ws).as_posix() for p in ws.rglob("*")
            if p.is_file() and not p.is_symlink() and any(n.encode() in p.read_bytes() for n in needles)]


NAME_DOORS = {
    "learn KEY": lambda n: ("learn", n, "--text", "ci notes"),
    "remember --skill": lambda n: ("remember", "--skill", n, "--topic", "notes", "--text", "ci notes"),
    "remember --topic": lambda n: ("remember", "--skill", "ops", "--topic", n, "--text", "ci notes"),
    "stats record --skill": lambda n: ("stats", "record", "--skill", n, "--ok"),
    "stats pattern --skills": lambda n: ("stats", "pattern", "--trigger", "sync", "--skills", "a," + n),
    "event --skill": lambda n: ("event", "skill_complete", "--skill", n, "--text", "done"),
    "write --topic": lambda n: ("write", "--topic", n, "--change", "ci notes"),
    "learn --tags": lambda n: ("learn", "ci", "--text", "ci notes", "--tags", "ops," + n),
}


@pytest.mark.parametrize("door", sorted(NAME_DOORS))
def test_an_encoded_token_in_a_name_is_refused_at_every_name_door(ws, run_script, door):
    """Gate rule 0 (names are not content) holds for a token in any transport encoding: each door
    gets another encoding, glued into a slug name (``ops-<encoded>``)."""
    forms = [f for f in sorted(ENCODINGS) if "\\" not in ENCODINGS[f]("_")]  # a backslash is no file name
    form = forms[sorted(NAME_DOORS).index(door) % len(forms)]
    encoded = ENCODINGS[form](TOKEN)
    init(run_script)
    r = run_script("memory", *NAME_DOORS[door]("ops-" + encoded), "--approved", env=ENV)
    assert r.code == 1 and "refuse" in r.err, (door, form, r.out, r.err)
    assert names_holding(ws, encoded[:16], BODY) == [] and files_holding(ws, encoded[:16], BODY) == [], form
    assert encoded not in r.out + r.err


def test_a_name_refused_for_its_shape_does_not_print_the_encoded_token(ws, run_script):
    """``ghp\\u005f…`` as a key is refused for its backslash (exit 2, bad input): the message masks
    the token as recall masks a name, so the refusal does not print what the gate would refuse."""
    encoded = ENCODINGS["json escape"](TOKEN)
    init(run_script)
    for args in (("learn", encoded, "--text", "x"), ("remember", "--skill", encoded, "--topic", "t", "--text", "x")):
        r = run_script("memory", *args, env=ENV)
        assert r.code == 2 and "[secret]" in r.err, r.err
        assert BODY not in r.err and encoded[:12] not in r.err


@pytest.mark.parametrize("form", sorted(ENCODINGS))
def test_an_encoded_token_in_text_is_refused_even_with_approval(ws, run_script, form):
    """A certain finding in a decoded view is as certain as in plain text: refused whatever the flags."""
    encoded = ENCODINGS[form](TOKEN)
    init(run_script)
    codes = [run_script("memory", "learn", "ci", "--text", f"ci blob {encoded}", "--approved", env=ENV).code,
             run_script("memory", "write", "--topic", "ci", "--cause", f"blob {encoded}", "--approved", env=ENV).code,
             run_script("memory", "remember", "--skill", "ops", "--topic", "ci", "--text", f"blob {encoded}",
                        "--approved", env=ENV).code]
    assert codes == [1, 1, 1]
    assert files_holding(ws, encoded[:16], BODY) == []


def test_percent_encoded_chinese_text_with_a_phone_number_asks_for_approval(ws, run_script):
    """``我的手机号是138…`` percent-encoded (digits too) is a possible finding like its plain form:
    held without ``--approved``, stored as written with it, and then an approved notice in the audit."""
    encoded = "".join(f"%{b:02X}" for b in f"我的手机号是{CN_MOBILE}".encode())
    init(run_script)
    held = run_script("memory", "write", "--topic", "contact", "--cause", f"note {encoded}", env=ENV)
    assert held.code == 1 and "phone" in held.err and "--approved" in held.err
    assert files_holding(ws, encoded[:30]) == []
    ok = run_script("memory", "write", "--topic", "contact", "--cause", f"note {encoded}", "--approved", env=ENV)
    assert ok.code == 0, ok.err
    assert files_holding(ws, encoded) == ["memory/daily/2026-11-29.md"]
    audit = json.loads(run_script("privacy_audit", "--json", env=ENV).out)
    assert audit["findings"] == []
    assert [(n["category"], n["approved"]) for n in audit["notices"]] == [("phone", True)]


def test_a_quoted_or_url_encoded_phone_in_json_text_asks_for_approval(ws, run_script):
    """The JSON form (``\\u6211…``) and a ``tel:`` URL form of the same number ask like the plain one."""
    init(run_script)
    as_json = json.dumps(f"我的手机号是{CN_MOBILE}")
    as_url = "tel:" + urllib.parse.quote("+1 " + PHONE)
    for n, text in enumerate([as_json, as_url]):
        r = run_script("memory", "learn", f"contact{n}", "--text", f"reach {text}", env=ENV)
        assert r.code == 1 and "phone" in r.err, (text, r.err)


def test_an_encoded_token_in_an_import_files_frontmatter_and_tags_is_refused(ws, run_script, tmp_path):
    """An import's knowledge frontmatter (kept byte for byte) with a percent-encoded token, and a
    knowledge entry whose tags hold a token split in two: both refused (``--approved`` cannot
    cover a certain finding), the clean entry beside them imported."""
    init(run_script)
    doc = {"format": "cmm-export", "version": 1,
           "knowledge": [{"key": "fm", "body": "fine body",
                          "frontmatter_text": "key: fm\nsource: " + ENCODINGS["percent"](TOKEN)},
                         {"key": "tg", "body": "fine body", "tags": ["ops", TOKEN[:20], TOKEN[20:]]},
                         {"key": "ok", "body": "fine body", "tags": ["ops", "ci"]}]}
    path = tmp_path / "in.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = run_script("memory", "import", str(path), "--approved", "--json", env=ENV)
    out = json.loads(r.out)
    assert out["counts"]["knowledge"] == 1, out
    assert sorted(s.split(":")[0] for s in out["skipped"]) == ["knowledge fm", "knowledge tg"]
    assert (ws / "memory/knowledge/ok.md").is_file()
    assert not (ws / "memory/knowledge/fm.md").exists() and not (ws / "memory/knowledge/tg.md").exists()
    assert files_holding(ws, BODY, TOKEN[20:]) == []


@pytest.mark.parametrize("tags", [
    lambda: [TOKEN[:22], TOKEN[22:]],
    lambda: ["deploy", TOKEN[:10], TOKEN[10:25], TOKEN[25:], "ci"],
    lambda: ["oncall", *PHONE.split("-")],
    lambda: ["pager", ENCODINGS["percent"](TOKEN)[:14], ENCODINGS["percent"](TOKEN)[14:]],
])
def test_a_value_split_over_tags_is_refused(ws, run_script, tags):
    """Tags are names: every run of neighbouring tags is read joined (with nothing and with a space
    between), so a token or a number cut at commas is refused, with ``--approved`` too."""
    parts = tags()
    init(run_script)
    r = run_script("memory", "learn", "ci", "--text", "ci notes", "--tags", ",".join(parts), "--approved", env=ENV)
    assert r.code == 1 and "refuse" in r.err, (parts, r.err)
    assert not (ws / "memory/knowledge/ci.md").exists()


def test_ordinary_tags_side_by_side_are_stored(ws, run_script):
    """Read together, ordinary tags stay ordinary (no false finding from joining them)."""
    init(run_script)
    tags = "deploy,ci,2026-11,release-crew,hotfix,v1.4.2,backend,k8s"
    r = run_script("memory", "learn", "ci", "--text", "ci notes", "--tags", tags, env=ENV)
    assert r.code == 0, r.err
    assert (ws / "memory/knowledge/ci.md").is_file()


def test_the_privacy_audit_finds_encoded_values_in_text_names_and_split_tags(ws, run_script):
    """Files written by another tool or an older version: a Base64 token in a body, a tags list
    holding a token cut in two, and a file name holding a percent-encoded phone number."""
    init(run_script)
    knowledge = ws / "memory/knowledge"
    head = "---\nformat: cmm-knowledge\nversion: 1\nid: k-00000000a{n}\nkey: {key}\ntags: {tags}\n" \
           "created: 2026-11-29\nupdated: 2026-11-29\n---\n\n"
    (knowledge / "blob.md").write_text(head.format(n=1, key="blob", tags="[]")
                                       + "ci " + base64.b64encode(TOKEN.encode()).decode() + "\n", encoding="utf-8")
    (knowledge / "split.md").write_text(head.format(n=2, key="split", tags=f"[ops, {TOKEN[:20]}, {TOKEN[20:]}]")
                                        + "fine body\n", encoding="utf-8")
    name = "pager-" + PHONE.replace("-", "%2D")
    (knowledge / f"{name}.md").write_text(head.format(n=3, key=name, tags="[]") + "fine body\n", encoding="utf-8")
    r = run_script("privacy_audit", "--json", env=ENV)
    assert r.code == 1
    found = {(f["file"], f["line"], f["rule"]) for f in json.loads(r.out)["findings"]}
    assert ("memory/knowledge/blob.md", 11, "github_token") in found
    # The token split over two tags, read joined: as a GitHub token, or (round 8, priv8) by the rule for
    # a vendor token cut in pieces, or (round 10, pfix11: certain rules before possible ones) as a
    # GitHub token glued to the tags' separator.
    assert {("memory/knowledge/split.md", 6, rule)
            for rule in ("github_token", "split_vendor_token", "github_token_glued")} & found
    assert any(line is None and rule == "phone" for _f, line, rule in found), found
    assert BODY not in r.out and TOKEN[20:] not in r.out


def test_recall_masks_an_encoded_token(ws, run_script):
    """A daily note another tool wrote holds a percent-encoded token: recall returns the hit with
    the encoded value masked (mask first, then cut), never its body."""
    init(run_script)
    encoded = ENCODINGS["percent"](TOKEN)
    (ws / "memory/daily").mkdir(parents=True, exist_ok=True)
    (ws / "memory/daily/2026-11-28.md").write_text(
        f"# 2026-11-28\n\n## deploy\n\n- 改: zebradeploy used {encoded} for the pipeline\n", encoding="utf-8")
    r = run_script("memory", "recall", "zebradeploy", "--json", env=ENV)
    assert r.code == 0, r.err
    assert "zebradeploy" in r.out and "[secret]" in r.out
    assert BODY not in r.out and encoded[:12] not in r.out


def test_an_approval_that_cannot_be_bound_is_refused_when_given(ws, run_script, monkeypatch, tmp_path):
    """Without a T2 key and with $XDG_CONFIG_HOME inside the workspace there is no secret for the
    approval mark or record: ``remember --approved`` and ``learn --approved`` stop before writing
    anything (exit 1, one line naming the folder, ``approval_unbound`` in --json); with the folder
    outside the workspace the same commands work and cleanup keeps the entry."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(ws / ".config"))
    init(run_script, "--no-key")
    before = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*"))
    r = run_script("memory", "remember", "--skill", "ops", "--topic", "rota", "--text", f"oncall phone {PHONE}",
                   "--approved", "--json", env=ENV)
    assert r.code == 1
    doc = json.loads(r.out)
    assert doc["kind"] == "approval_unbound" and "inside the workspace" in doc["error"]
    assert "\n" not in doc["error"] and "XDG_CONFIG_HOME" in doc["error"]
    learn = run_script("memory", "learn", "pager", "--text", f"pager {PHONE}", "--approved", env=ENV)
    assert learn.code == 1 and learn.err.count("\n") == 1 and "cannot bind the approval" in learn.err
    after = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if ".state" not in p.parts)
    assert after == [p for p in before if ".state" not in p.split("/")]
    assert files_holding(ws, PHONE) == []
    # A store with nothing to approve does not need the secret.
    assert run_script("memory", "learn", "deploy", "--text", "deploy steps", env=ENV).code == 0
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "outside"))
    ok = run_script("memory", "remember", "--skill", "ops", "--topic", "rota", "--text", f"oncall phone {PHONE}",
                    "--approved", env=ENV)
    assert ok.code == 0, ok.err
    assert run_script("cleanup", "-w", ws, env=ENV).code == 0
    assert (ws / "memory/tier2-internal/ops_rota.md").is_file()
