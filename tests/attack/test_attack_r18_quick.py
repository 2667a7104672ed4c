"""Attack round 18 (quick, tatk18): a fresh attacker against main at c15b2fe.

Each test plays one attack that got through, against the real scripts in a temporary workspace, and
asserts the promised behaviour (issue 10; references/tiers.md, references/gate.md). Secret-shaped values
are built at run time. Strict xfails until fixed; fixed: 1 and 2 (this machine's note of the store's key,
outside the workspace, memory_manager/anchor.py; more in test_store_anchor.py), 5 (fix18: a '_' beside an
IBAN, AWS key id or GitHub token is a separator; a JWT needs no boundary before it) and 6 (fix18: an id two
knowledge files share is refused, naming both).

Found (tests here):
1. (medium) A key record planted in ``memory/.state/t2-key-accepted`` of a keyless store (32 hex digits,
   or a folder there: "unreadable" reads as "a key was recorded") turns a forged ``v2:t2`` mark into
   "cannot be checked": cleanup leaves the never-approved entry in place. The record sits in the
   workspace, writable by the same hand that forges the entry.
2. (medium) Keyed store, key away, the record missing (deleted, or a copy of the workspace without
   ``.state``): the user's real ``v2:t2`` entry is quarantined as "a claim" (approved entries must stay
   where they are), and a forged ``v2:local`` mark is left in place as "cannot be checked".
3. (low) ``MEMORY_MANAGER_NOW`` holding a token is echoed in full by every verb's error (text and --json).
4. (low) A token in the folder ``HOME`` / ``XDG_CONFIG_HOME`` names is printed in full in the key
   file's path: init (text, --json, --dry-run), doctor (HOME), ``crypt keygen``'s error (HOME).
5. (high) A certain value followed by ``_word`` (IBAN, AWS key: not found; GitHub token: possible), a
   JWT after ``%22`` inside a URL or glued after a digit: stored in plain by learn, lesson, write, edit,
   and by ``import`` (knowledge body, tags, frontmatter, daily cause and topic, lesson line); the JWT
   forms reach the *public* T1 stats file through ``stats pattern --trigger`` (test 5d).
6. (medium) A knowledge file renamed by hand keeps its id; learning the old name again makes a second
   entry with that id; ``forget ID --approved`` deletes the new entry (never asked for) and leaves the
   renamed one's text on disk.
7. (low) A value cut at '/' with a space beside the cut (``AKIA… / …``, ``GB33… / …``, a resident ID)
   passes ``report --html`` (written there); ``export --out`` refuses it (held).
8. (low) init prints a token in the workspace folder in full (-w or OPENCLAW_WORKSPACE_DIR): the
   "init <folder>: language" line, --json "workspace", --list-backups, --restore's undo line.

Tried / found per area:
- Forged approval marks (key present / away / never recorded / record unreadable / record planted or
  lost / other HOME): 6 / 3 (tests 1, 2). Key present with a tampered record: cleanup refuses as a whole
  ("not this store's key"; folder / binary: "move it away"): held (fails closed).
- Forget after renames/swaps/re-learns (re-learn over a name, case-changing rename, rename + re-learn,
  rename twice, T2 with a second entry, archived by prune, daily section beside another, lesson, recall
  index + report + export in .cache): 10 / 1 (test 6).
- Cut paths (refuse_private_path, 8 values x 7 cuts x new/existing x folder/file): 200 probes; '/',
  three parts, grouped IBAN/card across '/': held; space/dot/dash inside one part not found (as in
  text: not counted); ' / ' cuts: 26 pass, confirmed by CLI 6 / 3 (report only, test 7).
- Env secrets (11 variables x 15 commands, text/--json) + key-folder env x 7 commands: 172 / 2 kinds
  (tests 3, 4). -w / OPENCLAW_WORKSPACE_DIR with a token x 15 commands x 3 folders: 90 / 1 kind (test 8:
  init only; cleanup/maintain/memory/crypt/doctor/privacy_audit held).
- Glued / URL / JSON / YAML values (12 values x 34 shapes in the scanner, then 50 targeted): 434 probes,
  the kinds of test 5 (splits by a space or dash inside a value, lower-case IDs: not counted); confirmed
  by CLI in learn/lesson/write/edit/remember(encrypted, held)/--tags and KEY (refused, held): 5 x 7 runs;
  import fields (knowledge body/tags/key/frontmatter, daily cause/topic, lesson, IBAN after %22): 8 / 6;
  name options (remember --topic/--skill, write --topic, stats record --skill, stats pattern
  --trigger/--skills, event --skill, --tags) x 5 glued forms: 40 / 2 (JWT in --trigger).
- Retention and plaintext copies (possible finding, address, health fact x keyed/keyless through learn,
  edit, lesson, write, prune): 6 / 0 in .memory-backup; retention's only-copy rule read, not broken.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_forged_marks_r17 import _forge, _keyed_store_forged_local_key_away, _remember
from .trust_r4_common import NOW, TOKEN, _init

SHOWN = TOKEN[8:]  # more than the first 4 characters of the value


def _kite_in_place(ws: Path) -> list[str]:
    """T2 files (outside quarantine) that still hold the forged entry ``t-aaaaaaaaaa``."""
    return [p.name for p in (ws / "memory/tier2-internal").glob("*.md") if "t-aaaaaaaaaa" in p.read_text(encoding="utf-8")]


# ------------------------------------------------------------ 1: a planted key record makes a forged v2:t2 mark "unchecked"

@pytest.mark.parametrize("record", ["planted-check", "planted-folder"])
def test_a_planted_key_record_does_not_turn_a_forged_t2_mark_into_an_approval(ws, run_script, record):
    _init(run_script, "--no-key")
    text = _remember(run_script)
    assert 'approval: "v2:local:' in text
    _forge(ws, text, "t2")
    rec = ws / "memory/.state/t2-key-accepted"
    assert not rec.exists()
    # The same hand (an agent, a copied folder) that writes the entry writes the record next to it.
    if record == "planted-check":
        rec.write_text("0" * 32 + "\n", encoding="ascii")
    else:
        rec.mkdir()
    c = run_script("cleanup", "--json", env=NOW)
    assert c.code == 0, c.err
    assert _kite_in_place(ws) == [], [a["detail"] for a in json.loads(c.out)["actions"]]


# ------------------------------------------------------------ 2: a keyed store whose key record is gone (key away)

def test_a_lost_key_record_neither_moves_the_real_entry_nor_keeps_the_forged_one(ws, run_script, tmp_path):
    _keyed_store_forged_local_key_away(ws, run_script, tmp_path)
    (ws / "memory/.state/t2-key-accepted").unlink()
    c = run_script("cleanup", "--json", env=NOW)
    assert c.code == 0, c.err
    details = [a["detail"] for a in json.loads(c.out)["actions"]]
    real = [d for d in details if "t-6b6929f9d8" in d or "crane" in d]
    # tiers.md: an approved entry stays where it is; a mark that cannot be checked is never failed.
    assert not any("quarantined" in d for d in real), real
    assert _kite_in_place(ws) == [], details


# ------------------------------------------------------------ 3: secrets in environment variables echoed

@pytest.mark.xfail(strict=True, reason="tatk18 3: MEMORY_MANAGER_NOW holding a token is echoed in full by every verb's "
                   "error line (text and --json)")
@pytest.mark.parametrize("args", [("memory", "status"), ("memory", "--json", "status"), ("cleanup", "--dry-run", "--json"),
                                  ("memory", "learn", "k", "--text", "plain")])
def test_a_token_in_memory_manager_now_is_not_echoed(ws, run_script, args):
    _init(run_script)
    r = run_script(*args, env={"MEMORY_MANAGER_NOW": TOKEN})
    assert r.code != 0
    assert "MEMORY_MANAGER_NOW" in r.out + r.err
    assert SHOWN not in r.out + r.err


def _key_home(tmp_path: Path, how: str) -> dict[str, str]:
    folder = tmp_path / f"d-{TOKEN}"
    folder.mkdir()
    if how == "HOME":
        return {"HOME": str(folder), "XDG_CONFIG_HOME": ""}
    return {"XDG_CONFIG_HOME": str(folder)}


@pytest.mark.xfail(strict=True, reason="tatk18 4: a token in the folder HOME / XDG_CONFIG_HOME names is printed in full "
                   "in the key file's path: init (text and --json), doctor (HOME), crypt keygen's error (HOME)")
@pytest.mark.parametrize("how,args", [
    ("XDG_CONFIG_HOME", ("init", "--yes", "--no-hooks", "--lang", "en")),
    ("XDG_CONFIG_HOME", ("init", "--yes", "--no-hooks", "--lang", "en", "--json")),
    ("XDG_CONFIG_HOME", ("init", "--dry-run", "--lang", "en")),
    ("HOME", ("init", "--yes", "--no-hooks", "--lang", "en")),
    ("HOME", ("doctor", "--no-openclaw")),
    ("HOME", ("doctor", "--no-openclaw", "--json")),
    ("HOME", ("crypt", "keygen")),
])
def test_a_token_in_the_key_folder_from_the_environment_is_masked(ws, run_script, tmp_path, how, args):
    env = dict(NOW, **_key_home(tmp_path, how))
    if args[0] != "init":
        assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env).code == 0
    r = run_script(*args, env=env)
    assert SHOWN not in r.out + r.err, r.out + r.err


# ------------------------------------------------------------ 5: a certain value followed by '_word', or after '%22' / a digit

def _cn(body17: str) -> str:
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body17 + "10X98765432"[sum(int(a) * b for a, b in zip(body17, weights)) % 11]


IBAN = "GB33" + "BUKB" + "20201555555555"
AWS = "AKIA" + "QX7LM2PZ8RT5VB1N"
JWT = ("eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ" + "."
       + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")

GLUED = {  # name: (text, value) -- the value alone ("note <value>") is a certain finding
    "iban-underscore-word": (f"statement {IBAN}_x", IBAN),
    "aws-underscore-word": (f"backup {AWS}_x", AWS),
    "github-underscore-word": (f"bot {TOKEN}_old", TOKEN),
    "jwt-after-%22-in-url": (f"see https://x.example/?q=%22{JWT}%22", JWT),
    "jwt-after-a-digit": (f"session token1{JWT}", JWT),
}


@pytest.mark.parametrize("case", list(GLUED))
def test_a_certain_value_glued_to_an_underscore_word_or_escape_is_refused(ws, run_script, case):
    text, value = GLUED[case]
    _init(run_script)
    alone = run_script("memory", "learn", "k0", "--text", f"note {TOKEN if case.startswith('github') else value}",
                       "--approved", env=NOW)
    assert alone.code != 0, "the value alone is a certain finding"
    r = run_script("memory", "learn", "k1", "--text", text, "--approved", env=NOW)
    assert r.code != 0 and not (ws / "memory/knowledge/k1.md").exists(), "stored"


@pytest.mark.parametrize("verb", ["lesson", "write", "edit"])
def test_a_glued_iban_is_refused_by_every_verb(ws, run_script, verb):
    _init(run_script)
    text = f"statement {IBAN}_x"
    if verb == "lesson":
        r = run_script("memory", "lesson", text, "--approved", env=NOW)
    elif verb == "write":
        r = run_script("memory", "write", "--topic", "t", "--cause", text, "--approved", env=NOW)
    else:
        assert run_script("memory", "learn", "k3", "--text", "plain", env=NOW).code == 0
        r = run_script("memory", "edit", "k3", "--text", text, "--approved", env=NOW)
    left = [str(p.relative_to(ws)) for p in ws.rglob("*") if p.is_file() and IBAN[4:].encode() in p.read_bytes()]
    assert r.code != 0 and left == [], left


# ------------------------------------------------------------ 6: forget of an id that a renamed file and a re-learned name share

def test_forget_of_a_shared_id_never_deletes_the_other_entry_and_leaves_nothing(ws, run_script):
    import re

    _init(run_script)
    kb = ws / "memory/knowledge"
    assert run_script("memory", "learn", "k1", "--text", "zebramarker one", env=NOW).code == 0
    kid = re.search(r"k-[0-9a-f]{10}", (kb / "k1.md").read_text(encoding="utf-8")).group(0)
    (kb / "k1.md").rename(kb / "k2.md")  # the user renames the file by hand
    assert run_script("memory", "learn", "k1", "--text", "fresh keepme", env=NOW).code == 0
    f = run_script("memory", "forget", kid, "--approved", env=NOW)
    # Either refused as ambiguous (nothing changed) or the entry the id was shown for is gone; never the other.
    assert (kb / "k1.md").is_file() and "keepme" in (kb / "k1.md").read_text(encoding="utf-8"), f.out + f.err
    if f.code == 0:
        left = [str(p.relative_to(ws)) for p in ws.rglob("*") if p.is_file() and b"zebramarker" in p.read_bytes()]
        assert left == []


# ------------------------------------------------------------ 7: a value cut at '/' with a space on either side

@pytest.mark.xfail(strict=True, reason="tatk18 7: a certain value cut by '/' with a space beside the cut ('AKIA… / …', "
                   "'GB33… / …', a resident ID) passes report --html (the report is written there); export --out "
                   "refuses it, and the same cut without the spaces is refused")
@pytest.mark.parametrize("value", ["aws", "iban", "cnid"])
@pytest.mark.parametrize("verb", ["report"])
def test_a_value_cut_at_a_slash_with_spaces_is_refused(ws, run_script, tmp_path, value, verb):
    v = {"aws": AWS, "iban": IBAN, "cnid": _cn("3101151985" + "1023456")}[value]
    h = len(v) // 2
    _init(run_script)
    assert run_script("memory", "learn", "k1", "--text", "plain words", env=NOW).code == 0
    plain = tmp_path / "out" / v[:h] / (v[h:] + ".x")
    ctl = run_script("memory", "export", "--out", plain, "--approved", env=NOW)
    assert ctl.code != 0 and "the path holds" in ctl.err, "the plain cut is refused (control)"
    target = tmp_path / "out" / (v[:h] + " ") / (" " + v[h:] + (".json" if verb == "export" else ".html"))
    args = ("export", "--out", target, "--approved") if verb == "export" else ("report", "--html", target)
    r = run_script("memory", *args, env=NOW)
    assert r.code != 0 and not target.exists(), r.out + r.err


# ------------------------------------------------------------ 8: init echoes a token in the workspace folder (-w or env)

@pytest.mark.xfail(strict=True, reason="tatk18 8: init prints a token in the workspace folder in full (-w or "
                   "OPENCLAW_WORKSPACE_DIR): the 'init <folder>: language' line, --json 'workspace', --list-backups, "
                   "--restore's undo line (detect/doctor/status/cleanup/maintain mask it: tatk17 6)")
@pytest.mark.parametrize("how", ["option", "env"])
@pytest.mark.parametrize("args", [("--dry-run", "--lang", "en"), ("--dry-run", "--json", "--lang", "en"), ("--list-backups",),
                                  ("--restore", "--yes")])
def test_init_never_echoes_a_token_in_the_workspace_folder(ws, run_script, tmp_path, how, args):
    folder = tmp_path / f"r-{TOKEN}"
    folder.mkdir()
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", "-w", folder, env=NOW).code == 0
    extra = ("-w", str(folder)) if how == "option" else ()
    r = run_script("init", *args, *extra, env={**NOW, "OPENCLAW_WORKSPACE_DIR": str(folder if how == "env" else ws)})
    assert r.code == 0, r.err
    assert SHOWN not in r.out + r.err, r.out + r.err


@pytest.mark.parametrize("field", ["knowledge-body", "knowledge-tags", "daily-topic", "lesson"])
def test_a_glued_iban_in_an_import_file_is_refused(ws, run_script, tmp_path, field):
    _init(run_script)
    assert run_script("memory", "learn", "kk", "--text", "plain words", "--tags", "alpha", env=NOW).code == 0
    assert run_script("memory", "write", "--topic", "tp", "--cause", "plain cause", env=NOW).code == 0
    assert run_script("memory", "lesson", "plain lesson", env=NOW).code == 0
    out = tmp_path / "e.json"
    assert run_script("memory", "export", "--out", out, "--approved", env=NOW).code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    glued = f"{IBAN}_x"
    k = data["knowledge"][0]
    if field == "knowledge-body":
        k["body"] = f"note {glued}"
    elif field == "knowledge-tags":
        k["tags"] = k["frontmatter"]["tags"] = [glued]
        k["frontmatter_text"] = k["frontmatter_text"].replace("[alpha]", f"[{glued}]")
    elif field == "daily-topic":
        data["daily"][0]["topic"] = glued
    else:
        data["lessons"][0]["line"] = f"- [2026-11-29] {glued}"
    other = tmp_path / "w2"
    other.mkdir()
    env = {**NOW, "OPENCLAW_WORKSPACE_DIR": str(other)}
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env).code == 0
    bad = tmp_path / "i.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    run_script("memory", "import", bad, "--approved", env=env)
    left = [str(p.relative_to(other)) for p in other.rglob("*") if p.is_file() and IBAN[4:].encode() in p.read_bytes()]
    assert left == []


@pytest.mark.parametrize("glue", ["t1", "%22"])
@pytest.mark.parametrize("where", ["--trigger"])  # --skills: refused (held)
def test_a_glued_jwt_never_reaches_the_public_stats(ws, run_script, glue, where):
    _init(run_script)
    args = ("--trigger", f"when {glue}{JWT}") if where == "--trigger" else ("--trigger", "when asked", "--skills", f"s,{glue}{JWT}")
    skills = ("--skills", "s") if where == "--trigger" else ()
    run_script("memory", "stats", "pattern", *skills, *args, env=NOW)
    left = [str(p.relative_to(ws)) for p in ws.rglob("*") if p.is_file() and JWT[6:40].encode() in p.read_bytes()]
    assert left == []
