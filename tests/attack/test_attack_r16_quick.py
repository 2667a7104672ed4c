"""Attack round 16 (quick, tatk16): a fresh attacker against main at d88a907.

Each test plays one attack that got through, against the real scripts in a temporary workspace,
and asserts the promised behaviour (issue 10, references/tiers.md and formats.md). Strict xfail
until fixed; all three are fixed (1 and 3: tfix16, 2: glue16, round 12). Secret-shaped values are
built at run time.

Found (tests here):
1. An approved T2 entry stored ``--scheme xor-b64`` while a key exists carries a ``v2:t2`` mark
   (keyed with the T2 key). Cleanup run in a shell without the key (a hook, the key file moved)
   cannot verify it and quarantines the user's approved entry; after the key file is lost and
   ``init --yes`` makes a new key, the record is replaced ("a recorded key that sealed nothing
   anywhere is replaced", a33ca65) although the old key still keys the store's approval marks,
   and the next cleanup quarantines it too. Keyless (``v2:local`` mark), a cleanup run under another
   HOME / XDG_CONFIG_HOME (the Gateway as a service) makes a new hash-secret there and quarantines it. tiers.md: "An approved entry stays where it is, even
   with a finding".
2. A checksum-valid mainland resident ID glued to a Latin label (``id``, ``ID``, ``sfz``, ``idno``,
   ``idcard``, ``ID…号``) is not found, so it is stored through ``learn KEY`` / ``--text``,
   ``remember --topic`` (a T2 file name), ``write --topic`` and ``import --from-openclaw`` (a note's
   file name); the same with ``id `` (a space), ``id_``, ``身份证号码``, ``#`` or ``no.`` is refused.
   2b: an IBAN glued to ``iban`` and an OpenAI project key glued to ``openai`` likewise (GitHub,
   Slack, AWS and card numbers glued to a label are found).
3. A ``tiers.key_file`` path holding a token is echoed in full by ``remember``, ``doctor`` and
   ``crypt.py keygen``, and keygen makes a folder named with it.

Tried and held (tried / found):
(a) options: 30 doors (write --topic/--cause/--todo, learn KEY/--text/--tags, remember
    --skill/--topic/--text, stats record/pattern, event, lesson, edit, recall, show, forget, used,
    unarchive, unquarantine, import --allow, report --html, export --out, maintain --event, gate.py,
    detect --agent, crypt encrypt --skill/--topic) x 7 values (GitHub, Slack, Stripe live key, resident
    ID, Luhn card, 我的密码是…, 手机…) with and without --approved: ~300 runs / 0; glued label+value
    forms: 48 / 3 kinds (test 2).
(b) import fields: 20 export fields (daily id/date/topic/cause/other, knowledge key/tags/body/id/
    created/frontmatter/frontmatter_text/extra frontmatter key, tier1 file/skill name/pattern, tier2
    file/text frontmatter, lessons section/line) x 4 values x with/without --approved: 160 / 0;
    --from-openclaw file names: 6 / 1 (test 2).
(c) forgotten means gone: report --approved --html then forget (T2, knowledge); hand-edited lesson
    forgotten then every backup restored; quarantine -> unquarantine -> forget and quarantine ->
    forget, every backup restored; prune -> forget, prune -> unarchive -> forget, -> re-prune ->
    forget; cleanup purge with the cached report, an --html report and the recall index; a forged
    reports.json line naming a non-report file: 10 / 0.
(d) t2-key-accepted: a symlinked record (to a file, dangling), .state a symlink: 3 / 0; init with
    MEMORY_MANAGER_KEY set (no key made, nothing recorded); undo init then another key; two
    remembers with two keys at once x6, keygen vs another key's remember x6, init vs another key's
    remember x6: 20 / 0; init after the key file is lost: 1 / 1 (test 1).
(e) approved entries: cleanup without the key, after init made a new key, keyless under another
    HOME: 3 / 3 (test 1); keyless then keygen, month compaction of approved entries, reseal,
    encrypt --file, decrypt --file (aes-gcm, xor-b64): 6 / 0.
(f) concurrency: forget racing show/used/recall/cleanup/export/report at two delays: 14 / 0.
(g) symlinks: memory/.cache/report.html, memory/.quarantine, memory/.cache, .memory-backup to
    outside: 4 / 0; export --out / report --html inside the workspace: 5 / 0.
(h) config values: tiers.key_file holding a token 1 / 1 (test 3); backups.* retention at its limits:
    1 / 0 (init's backup of a user's AGENTS.md goes once past keep_last/max_age: documented, since
    the path still exists).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .trust_r4_common import NOW, PHONE, _init


def _key_file() -> Path:
    import os

    return Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager" / "key"


# ------------------------------------------------------------ 1: an approved entry's t2-keyed mark and a missing key

@pytest.mark.parametrize("shell", ["key-not-at-hand", "init-made-a-new-key", "keyless-other-home"])
def test_cleanup_keeps_an_approved_entry_whose_mark_it_cannot_check(ws, run_script, tmp_path, shell):
    _init(run_script, *(["--no-key"] if shell == "keyless-other-home" else []))
    r = run_script("memory", "remember", "--skill", "s", "--topic", "crane", "--scheme", "xor-b64", "--text",
                   f"crane contact {PHONE} tonight", "--approved", env=NOW)
    assert r.code == 0, r.err
    entry = ws / "memory/tier2-internal/s_crane.md"
    cleanup_env = dict(NOW)
    if shell == "keyless-other-home":
        # No T2 key: the mark is keyed with the local hash-secret; the Gateway runs the hooks' cleanup
        # under another HOME / XDG_CONFIG_HOME (a service account), where that secret is not.
        assert 'approval: "v2:local:' in entry.read_text(encoding="utf-8")
        other = tmp_path / "service-home"
        cleanup_env.update(HOME=str(other), XDG_CONFIG_HOME=str(other / ".config"))
    else:
        assert 'approval: "v2:t2:' in entry.read_text(encoding="utf-8")
        _key_file().rename(tmp_path / "key.away")  # a hook's shell, a sandbox, a lost key file
    if shell == "init-made-a-new-key":
        i = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=NOW)
        assert i.code == 0, i.err
    c = run_script("cleanup", env=cleanup_env)
    assert c.code == 0, c.err
    # tiers.md: "An approved entry stays where it is, even with a finding" (possible only, approved: keeps it).
    assert entry.is_file(), "the user's approved entry was moved to quarantine"
    assert not list((ws / "memory/.quarantine").glob("*.md")) if (ws / "memory/.quarantine").exists() else True


# ------------------------------------------------------------ 2: a checksum-valid resident ID glued to its Latin label

def _cn_id(body17: str) -> str:
    """A mainland resident ID number with its GB 11643 check character."""
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body17 + "10X98765432"[sum(int(a) * b for a, b in zip(body17, weights)) % 11]


CN_ID = _cn_id("3101151985" + "1023456")  # ends in a digit
CN_ID_X = _cn_id("4403041990" + "0307123")  # ends in X


@pytest.mark.parametrize("door", ["learn-key", "learn-text", "remember-topic", "write-topic", "learn-text-x",
                                  "import-openclaw-name"])
def test_a_resident_id_glued_to_its_label_is_refused_at_every_door(ws, run_script, door):
    _init(run_script)
    # The same number with a space after the label is refused as government_id (certain).
    r = run_script("memory", "learn", "k0", "--text", f"note id {CN_ID}", env=NOW)
    assert r.code != 0 and "government_id" in r.err
    if door == "learn-key":
        r = run_script("memory", "learn", f"sfz{CN_ID}", "--text", "plain", env=NOW)
    elif door == "learn-text":
        r = run_script("memory", "learn", "k1", "--text", f"my id{CN_ID}", env=NOW)
    elif door == "learn-text-x":
        r = run_script("memory", "learn", "k1", "--text", f"idcard{CN_ID_X}", env=NOW)
    elif door == "remember-topic":
        r = run_script("memory", "remember", "--skill", "s", "--topic", f"idno{CN_ID}", "--text", "x", env=NOW)
    elif door == "write-topic":
        r = run_script("memory", "write", "--topic", f"sfz{CN_ID}", "--cause", "x", env=NOW)
    else:
        (ws / "memory" / f"2026-11-27-id{CN_ID}.md").write_text("# notes\nan ordinary note\n", encoding="utf-8")
        r = run_script("memory", "import", "--from-openclaw", "--approved", env=NOW)
    # tiers.md: a checksum-valid ID is a certain T3 finding, refused whatever the flags.
    stored = [p for p in (ws / "memory").rglob("*") if not p.name.startswith("2026-11-27-id")
              and (CN_ID[:10] in p.name or (p.is_file() and CN_ID[:10].encode() in p.read_bytes()))
              or CN_ID_X[:10] in p.name or (p.is_file() and CN_ID_X[:10].encode() in p.read_bytes())]
    assert stored == [], stored


#: Certain values of published formats, each found alone or after a space, and passed when glued to a label.
OPENAI = "sk-proj-" + "Qm7Rt2Vx9Kp3Ln8Zs5Wc1Hd4Ab6Ef0Gh2Jk4Lm6" * 2 + "T3BlbkFJ" + "Qm7Rt2Vx9Kp3Ln8Zs5Wc1Hd4Ab6Ef0Gh2"
IBAN = "GB33" + "BUKB" + "20201555555555"


@pytest.mark.parametrize("glued", ["iban" + IBAN, "openai" + OPENAI, f"ID{CN_ID}号"])
def test_a_certain_value_glued_to_a_label_is_refused(ws, run_script, glued):
    _init(run_script)
    value = glued.removeprefix("iban").removeprefix("openai").removeprefix("ID").removesuffix("号")
    alone = run_script("memory", "learn", "k0", "--text", f"note {value}", env=NOW)
    assert alone.code != 0, "the value alone is a certain finding"
    r = run_script("memory", "learn", "k1", "--text", f"note {glued}", env=NOW)
    assert r.code != 0, "stored"
    assert not (ws / "memory/knowledge/k1.md").exists()


# ------------------------------------------------------------ 3: a secret in tiers.key_file's path

def test_a_key_file_path_holding_a_secret_is_never_echoed_or_created(ws, run_script, tmp_path):
    import json

    from .trust_r4_common import TOKEN

    _init(run_script, "--no-key")
    cfg = ws / "memory/memory-manager.json"
    doc = json.loads(cfg.read_text(encoding="utf-8"))
    doc.setdefault("tiers", {})["key_file"] = str(tmp_path / f"keys-{TOKEN}" / "key")
    cfg.write_text(json.dumps(doc), encoding="utf-8")
    outs = []
    r = run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "x", env=NOW)
    # A config value that names a path passes the gate as a name: bad input, exit 2 (was 1 here:
    # the key it named was missing), one line naming the file, never the value.
    assert r.code == 2 and "tiers.key_file" in r.err and len(r.err.strip().splitlines()) == 1
    assert not (ws / "memory/tier2-internal/s_a.md").exists()
    outs.append(r.out + r.err)
    d = run_script("doctor", "--no-openclaw", env=NOW)
    outs.append(d.out + d.err)
    k = run_script("crypt", "keygen", env=NOW)
    assert k.code == 2
    outs.append(k.out + k.err)
    assert [TOKEN[:8] in o for o in outs] == [False, False, False]
    assert not list(tmp_path.glob("keys-ghp*"))
