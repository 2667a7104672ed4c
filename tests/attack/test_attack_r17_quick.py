"""Attack round 17 (quick, tatk17): a fresh attacker against main at 35de40c.

Each test plays one attack that got through, against the real scripts in a temporary workspace,
and asserts the promised behaviour (references/tiers.md: a certain value is refused whatever the
flags). Secret-shaped values are built at run time. All six kinds were fixed in round 13 (fix17p:
1 and 5 in privacy.py; fix17t: 2, 3, 4, 6, with more cases in tests/attack/test_*_r17.py); the tests
below pass and stay as regressions.

Found (tests here):
1. A certain value glued to a Latin label of more than 12 letters (``residentidnumber…``,
   ``identitycardnumber…``, ``bankaccountnumber…``), to a label with a digit before it
   (``v2id…``), or followed by a glued word of more than 12 letters, is not found: stored by
   ``learn --text``. An OpenAI project key after ``openai_`` or a long label is only a possible
   finding; a Taiwan ID after ``idnumber`` / an NRIC after ``mynricnumber`` is not found.
2. backups.former_paths passes over an earlier name that exists now: a knowledge file renamed by
   hand whose old name was then learned again, or two entries whose files were swapped; forget of the
   renamed entry leaves its pre-edit text in the old name's backup copy.
3. A forged approval mark of the other kind is "unchecked", so cleanup keeps a hand-written entry the
   user never approved: ``v2:t2:<anything>`` in a store that never had a T2 key; ``v2:local:<anything>``
   in a keyed store with no local hash-secret (3b). The same forged as the store's own kind is quarantined.
4. A token cut by '/' across folders that exist passes ``export --out`` / ``report --html`` (joined
   readings are made for new folders only) and reaches reports.json; the same path to create is refused.
5. A resident ID, IBAN, SSN or NRIC inside a URL (``?idcard=…``, ``/users/…``, ``?iban=…``) is not
   found at all (a card or a token there is found).
6. detect and doctor mask a token in ``--state-dir`` / ``-w`` but print it in full (text and --json)
   when the folder comes from OPENCLAW_STATE_DIR / OPENCLAW_WORKSPACE_DIR.

Tried and held (tried / found): glued forms (h): ~70 scanner probes, 9+7 stored (tests 1, 5): Chinese,
Cyrillic, accented and full-width labels, full-width digits, value then Chinese/Latin word, camelCase,
lower-case X, emoji, dot/dash, upper-case IBAN word: held. Options (a): detect --agent/--session (3
shapes)/--state-dir (existing, missing)/-w x text/--json, --stdin sessionKey/session_key/agentId x
text/--json: 20 / 0; doctor -w x text/--json: 2 / 0; env folders: 5 / 5 (test 6). Renames (c):
renamed then renamed back with edits at both names and a hand edit, intermediate private name left in
.state/logs/index: 2 / 0; name taken again, swap: 2 / 2 (test 2). Approval (f): forged mark of the
other kind 2 / 2 (test 3); token hand-written behind an unchecked mark with the key away: 1 / 0.
Paths (b)/(g): token in symlinked folder, ``~``/relative ``--out``, cut token in new vs existing
folders: 4 / 1 (test 4); tiers.key_file with a token in an existing folder is a documented limit.
Noticed: an existing folder named ``test_a_token_cut_across_exist0`` is refused as a secret (a false
positive of the older-folder read; pytest's tmp folder for a test named with "token").
"""
from __future__ import annotations

import pytest

from .trust_r4_common import NOW, _init


def _cn_id(body17: str) -> str:
    """A mainland resident ID number with its GB 11643 check character."""
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body17 + "10X98765432"[sum(int(a) * b for a, b in zip(body17, weights)) % 11]


CN_ID = _cn_id("3101151985" + "1023456")
IBAN = "GB33" + "BUKB" + "20201555555555"
OPENAI = "sk-proj-" + "Qm7Rt2Vx9Kp3Ln8Zs5Wc1Hd4Ab6Ef0Gh2Jk4Lm6" * 2 + "T3BlbkFJ" + "Qm7Rt2Vx9Kp3Ln8Zs5Wc1Hd4Ab6Ef0Gh2"
TW_ID = "A1234" + "56789"
NRIC = "S1234" + "567D"

GLUED = {
    "residentidnumber": ("residentidnumber" + CN_ID, CN_ID),
    "identitycardnumber": ("identitycardnumber" + CN_ID, CN_ID),
    "digit-before-label": ("v2id" + CN_ID, CN_ID),
    "long-word-after": (CN_ID + "isthenumberofmine", CN_ID),
    "bankaccountnumber": ("bankaccountnumber" + IBAN, IBAN),
    "openai_": ("openai_" + OPENAI, OPENAI),
    "myopenaiapikeyis": ("myopenaiapikeyis" + OPENAI, OPENAI),
    "tw-idnumber": ("idnumber" + TW_ID, TW_ID),
    "sg-mynricnumber": ("mynricnumber" + NRIC, NRIC),
}


def _refused_where_alone_is(ws, run_script, alone_text: str, text: str) -> None:
    """``learn`` refuses ``alone_text`` (the value as the detector knows it) and ``text`` (the attack) alike."""
    _init(run_script)
    alone = run_script("memory", "learn", "k0", "--text", alone_text, env=NOW)
    assert alone.code != 0, "the value alone is a certain finding"
    r = run_script("memory", "learn", "k1", "--text", text, env=NOW)
    assert r.code != 0, "stored"
    assert not (ws / "memory/knowledge/k1.md").exists()


@pytest.mark.parametrize("case", list(GLUED))
def test_a_certain_value_glued_to_a_long_label_is_refused(ws, run_script, case):
    glued, value = GLUED[case]
    _refused_where_alone_is(ws, run_script, f"note {value}", f"note {glued}")


# ------------------------------------------------------------ 2: forget of a renamed entry whose old name is taken again

@pytest.mark.parametrize("how", ["old-name-learned-again", "two-entries-swapped"])
def test_forget_erases_the_old_name_backup_when_the_name_is_taken_again(ws, run_script, how):
    _init(run_script)
    kb = ws / "memory/knowledge"
    assert run_script("memory", "learn", "alicehiv", "--text", "zebramarker one", env=NOW).code == 0
    assert run_script("memory", "learn", "bob", "--text", "plain bob", env=NOW).code == 0
    e = run_script("memory", "edit", "alicehiv", "--text", "tigerline two", "--approved", env=NOW)
    assert e.code == 0, e.err
    # The user renames the entry's file by hand (its name held private words) ...
    if how == "old-name-learned-again":
        (kb / "alicehiv.md").rename(kb / "neutral.md")
        assert run_script("memory", "learn", "alicehiv", "--text", "other thing", env=NOW).code == 0
        target = "memory/knowledge/neutral.md"
    else:
        (kb / "alicehiv.md").rename(kb / "swap.tmp")
        (kb / "bob.md").rename(kb / "alicehiv.md")
        (kb / "swap.tmp").rename(kb / "bob.md")
        target = "memory/knowledge/bob.md"
    f = run_script("memory", "forget", target, "--approved", env=NOW)
    assert f.code == 0, f.err
    # forget: "Delete one entry (after approval) with every copy: backups, archive, index, logs".
    left = [str(p.relative_to(ws)) for p in ws.rglob("*") if p.is_file() and b"zebramarker" in p.read_bytes()]
    assert left == []


# ------------------------------------------------------------ 3: a forged v2:t2 mark in a store with no T2 key

@pytest.mark.parametrize("kind", [
    "t2",  # tfix17t: a v2:t2 mark in a store that never recorded a key is forged
    "local",  # the same forged as v2:local is quarantined (held: the control)
])
def test_a_forged_t2_mark_in_a_keyless_store_is_not_an_approval(ws, run_script, kind):
    from memory_manager import crypto

    from .trust_r4_common import PHONE

    _init(run_script, "--no-key")
    r = run_script("memory", "remember", "--skill", "s", "--topic", "crane", "--text", f"crane contact {PHONE} tonight",
                   "--approved", env=NOW)
    assert r.code == 0, r.err
    # An agent (or a copied file) writes an entry the user never approved, with a claimed mark: the store
    # never had a T2 key, so no v2:t2 mark of it can exist.
    sealed = crypto.xor_encrypt("kite contact 212-555" + "-0187 at noon", "s", "2026-11").ciphertext
    head = (ws / "memory/tier2-internal/s_crane.md").read_text(encoding="utf-8").split("## Encrypted Entry")[0]
    head = head.replace("t-6b6929f9d8", "t-aaaaaaaaaa").replace("topic: crane", "topic: kite")
    import re
    head = re.sub(r'approval: "v2:local:[0-9a-f]+"', f'approval: "v2:{kind}:' + "0" * 64 + '"', head)
    assert "t-aaaaaaaaaa" in head and f"v2:{kind}:000" in head
    (ws / "memory/tier2-internal/s_kite.md").write_text(head + f"## Encrypted Entry\n> {sealed}\n", encoding="utf-8")
    c = run_script("cleanup", env=NOW)
    assert c.code == 0, c.err
    # A mark that does not verify is a claim (issue 10 round 4): the entry goes to quarantine like any
    # unapproved entry with a finding; only a well-formed mark whose secret is not at hand is left.
    kept = [p.name for p in (ws / "memory/tier2-internal").glob("*.md") if "t-aaaaaaaaaa" in p.read_text(encoding="utf-8")]
    assert kept == []
    assert any("t-aaaaaaaaaa" in p.name for p in (ws / "memory/.quarantine").glob("*.md"))


def test_a_forged_local_mark_in_a_keyed_store_is_not_an_approval(ws, run_script):
    import re

    from memory_manager import crypto

    from .trust_r4_common import PHONE

    _init(run_script)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "crane", "--scheme", "xor-b64", "--text",
                   f"crane contact {PHONE} tonight", "--approved", env=NOW)
    assert r.code == 0, r.err
    text = (ws / "memory/tier2-internal/s_crane.md").read_text(encoding="utf-8")
    assert 'approval: "v2:t2:' in text
    head = text.split("## Encrypted Entry")[0]
    eid = re.search(r"^id: (t-[0-9a-f]+)$", head, re.M).group(1)
    head = head.replace(eid, "t-aaaaaaaaaa").replace("topic: crane", "topic: kite")
    head = re.sub(r'approval: "v2:t2:[0-9a-f]+"', 'approval: "v2:local:' + "0" * 64 + '"', head)
    sealed = crypto.xor_encrypt("kite contact 212-555" + "-0187 at noon", "s", "2026-11").ciphertext
    (ws / "memory/tier2-internal/s_kite.md").write_text(head + f"## Encrypted Entry\n> {sealed}\n", encoding="utf-8")
    c = run_script("cleanup", env=NOW)
    assert c.code == 0, c.err
    kept = [p.name for p in (ws / "memory/tier2-internal").glob("*.md") if "t-aaaaaaaaaa" in p.read_text(encoding="utf-8")]
    assert kept == [], c.out + c.err


# ------------------------------------------------------------ 4: a token cut by '/' across folders that exist

@pytest.mark.parametrize("door", ["report-html", "export-out"])
def test_a_value_cut_across_existing_folders_is_refused(ws, run_script, tmp_path, door):
    from .trust_r4_common import TOKEN

    _init(run_script)
    head, tail = TOKEN[:22], TOKEN[22:]
    new = run_script("memory", "export", "--approved", "--out", str(tmp_path / "new" / head / tail / "x.json"), env=NOW)
    assert new.code != 0 and "secret" in new.err  # the same path with folders to create: refused (tatk9)
    folder = tmp_path / "old" / head / tail
    folder.mkdir(parents=True)
    if door == "report-html":
        r = run_script("memory", "report", "--html", str(folder / "r.html"), env=NOW)
    else:
        r = run_script("memory", "export", "--approved", "--out", str(folder / "x.json"), env=NOW)
    # atk15 kind 3: an output path's existing folders pass the gate too (certain findings).
    assert r.code != 0 and tail not in r.out + r.err, r.out + r.err
    assert not list(folder.iterdir())
    rec = ws / "memory/.state/reports.json"
    assert not rec.exists() or tail not in rec.read_text(encoding="utf-8")


# ------------------------------------------------------------ 5: a certain value inside a URL

SSN = "123-45" + "-6789"
URLS = {
    "id-query": ("https://gov.example.cn/check?idcard=" + CN_ID + "&t=1", f"id {CN_ID}"),
    "sfz-query": ("https://x.example/u?sfz=" + CN_ID, f"id {CN_ID}"),
    "id-path": ("https://x.example/users/" + CN_ID, f"id {CN_ID}"),
    "id-no-scheme": ("x.example/u?id=" + CN_ID, f"id {CN_ID}"),
    "iban-query": ("https://bank.example/pay?iban=" + IBAN, IBAN),
    "ssn-query": ("https://x.example/?ssn=" + SSN, f"ssn {SSN}"),
    "nric-query": ("https://x.example/?nric=" + NRIC, f"nric {NRIC}"),
}


@pytest.mark.parametrize("case", list(URLS))
def test_a_certain_value_inside_a_url_is_refused(ws, run_script, case):
    url, alone_text = URLS[case]
    _refused_where_alone_is(ws, run_script, f"note {alone_text}", f"the link {url}")


# ------------------------------------------------------------ 6: a token in the folder an environment variable names

@pytest.mark.parametrize("mode", ["detect-state", "detect-state-json", "doctor-state-json", "doctor-workspace",
                                  "doctor-workspace-json"])
def test_a_token_in_an_env_folder_is_masked_like_the_option(ws, run_script, tmp_path, mode):
    from .trust_r4_common import TOKEN

    _init(run_script)
    folder = tmp_path / f"st-{TOKEN}"
    folder.mkdir()
    json_flag = ["--json"] if mode.endswith("json") else []
    if mode.startswith("detect"):
        opt = run_script("detect", *json_flag, "--state-dir", str(folder), env=NOW)
        r = run_script("detect", *json_flag, env={**NOW, "OPENCLAW_STATE_DIR": str(folder)})
    elif mode == "doctor-state-json":
        opt = run_script("doctor", "--no-openclaw", "--json", env={**NOW, "OPENCLAW_STATE_DIR": str(ws)})
        r = run_script("doctor", "--no-openclaw", "--json", env={**NOW, "OPENCLAW_STATE_DIR": str(folder)})
    else:
        opt = run_script("doctor", "--no-openclaw", *json_flag, "-w", str(folder), env=NOW)
        r = run_script("doctor", "--no-openclaw", *json_flag, env={**NOW, "OPENCLAW_WORKSPACE_DIR": str(folder)})
    assert TOKEN[8:] not in opt.out + opt.err  # the option's value is masked (atk15)
    assert TOKEN[8:] not in r.out + r.err
