"""The new-user walk-through, round 6 (notes/walkthrough-r6.md): each finding as a real run.

Every test runs the scripts on real files in a temporary workspace (and, for
the bundle's own ``config.json``, a temporary copy of the bundle) and checks
exact results. The finding's number is in each test's name.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, tree_hash

AGENTS = "# AGENTS.md\n\nBe kind.\n"


def _setup(ws: Path, run_script, *extra: str) -> None:
    """An English workspace set up by init, without hooks and plugin (init makes the default key)."""
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    result = run_script("init", "--yes", "--lang", "en", "--no-hooks", "--no-plugin", *extra)
    assert result.code == 0, result.err


def _override(ws: Path, doc: dict) -> Path:
    path = ws / "memory" / "memory-manager.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


# ---------------------------------------------------------------- finding 1

def test_item1_missing_key_file_never_downgrades_to_xor(ws, run_script, tmp_path):
    _setup(ws, run_script)
    default = tmp_path / "home" / ".config" / "complex-memory-manager" / "key"
    assert default.is_file()
    first = run_script("memory", "remember", "--skill", "demo", "--topic", "coffee", "--text", "User likes black coffee")
    assert first.code == 0 and " aes-gcm, " in first.out, first.err
    typo = default.with_name("kye")
    override = _override(ws, {"language": "en", "tiers": {"key_file": str(typo)}})
    line = (f"error: T2 key file {typo} does not exist (tiers.key_file in {override}): correct tiers.key_file, "
            f"or remove it to use the default key {default} (a key exists there)\n")
    before = tree_hash(ws)

    # a write that needs the key: refused in one line, nothing written
    write = run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "User likes green tea")
    assert (write.code, write.out, write.err) == (1, "", line)
    as_json = run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "x", "--json")
    assert as_json.code == 1 and json.loads(as_json.out)["error"] == line[len("error: "):-1]
    # readers of T2 fail closed the same way; so does init (it would have made a second key there)
    assert run_script("memory", "recall", "coffee", "--approved").err == line
    for args in (("--dry-run",), ("--yes", "--no-hooks", "--no-plugin")):
        init = run_script("init", *args)
        assert (init.code, init.err) == (1, line), args
    assert tree_hash(ws) == before and not typo.exists()

    doctor = run_script("doctor", "--no-openclaw")
    assert doctor.code == 1
    lines = doctor.out.splitlines()
    at = next(i for i, text in enumerate(lines) if text.startswith("✗ T2 key: "))
    assert lines[at] == "✗ T2 key: " + line[len("error: "):-1]
    assert lines[at + 1] == (f"    fix: edit tiers.key_file in {override} so that it names your key file "
                             "(or remove the setting to use the default key)")
    assert "xor-b64" not in doctor.out and "creates the key" not in doctor.out
    assert not typo.exists()

    # the fix the messages give: the old entry reads again and new ones are aes-gcm
    _override(ws, {"language": "en"})
    again = run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "User likes green tea")
    assert again.code == 0 and " aes-gcm, " in again.out, again.err


def test_item1_malformed_key_fix_never_suggests_xor(ws, run_script):
    _setup(ws, run_script, "--no-key")
    doctor = run_script("doctor", "--no-openclaw", env={"MEMORY_MANAGER_KEY": "c2hvcnQ="})
    assert doctor.code == 1
    lines = doctor.out.splitlines()
    at = next(i for i, text in enumerate(lines) if text.startswith("✗ T2 key: "))
    assert lines[at] == "✗ T2 key: MEMORY_MANAGER_KEY holds 5 bytes, not 32 (AES-256); nothing was written"
    assert lines[at + 1] == ("    fix: set MEMORY_MANAGER_KEY to your key (Base64 of 32 bytes, as 'crypt.py keygen' "
                             "writes), or unset it to use the key file")


def test_item1_init_dry_run_with_only_the_key_missing(ws, run_script, tmp_path):
    _setup(ws, run_script)
    key = tmp_path / "home" / ".config" / "complex-memory-manager" / "key"
    key.unlink()  # the default key (no tiers.key_file): init may make a new one there
    dry = run_script("init", "--dry-run", "--no-hooks", "--no-plugin")
    assert dry.code == 0, dry.err
    assert dry.out.splitlines()[1:] == [
        "the workspace is already set up; only the AES key is missing",
        f"would create AES key {key} (mode 0600; losing it loses T2 entries)",
        f"dry run: nothing was changed. Apply with: {sys.executable} {ROOT / 'scripts' / 'init.py'} -w {ws} --yes "
        "--no-hooks"]
    assert "nothing to do" not in dry.out and not key.exists()


# ---------------------------------------------------------------- finding 2

def _bundle_copy(tmp_path: Path, change: tuple[str, str]) -> Path:
    """A copy of the bundle (what a user installs) whose config.json has one value changed."""
    copy = tmp_path / "bundle"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("scripts", "memory_manager", "templates", "hooks", "plugin"):
        shutil.copytree(ROOT / name, copy / name, ignore=ignore)
    for name in ("config.json", "package.yaml", "requirements.txt", "requirements-report.txt", "SKILL.md"):
        shutil.copy2(ROOT / name, copy / name)
    text = (copy / "config.json").read_text(encoding="utf-8")
    assert text.count(change[0]) == 1
    (copy / "config.json").write_text(text.replace(*change), encoding="utf-8")
    return copy


def _run(bundle: Path, script: str, *args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(bundle / "scripts" / f"{script}.py"), *args], input=input,
                          capture_output=True, text=True, timeout=120)


#: Every command a user runs, with arguments that would otherwise work.
COMMANDS = [
    ("memory", "status"), ("memory", "recall", "tea"), ("memory", "write", "--topic", "x", "--change", "y"),
    ("memory", "learn", "k", "--text", "t"), ("memory", "remember", "--skill", "a", "--topic", "b", "--text", "c"),
    ("memory", "show", "k"), ("memory", "stats", "record", "--skill", "w", "--ok"),
    ("memory", "export", "--approved"), ("memory", "prune", "--dry-run"), ("cleanup", "--dry-run"),
    ("crypt", "keygen"), ("crypt", "encrypt", "--skill", "a", "--month", "2026-12"),
    ("gate", "--operation", "store", "--text", "hi"), ("privacy_audit",), ("init", "--dry-run"), ("detect",),
]


@pytest.mark.parametrize("change,message", [
    (('"top_k": 10', '"top_k": "ten"'), "'recall.top_k' must be a number, not string ('ten')"),
    (('"top_k": 10', '"top_k": 5.0'), "'recall.top_k' must be a whole number (an integer), not 5.0"),
    (('"language": "auto"', '"language": "fr"'), "'language' must be one of auto, zh, en, not 'fr'"),
])
def test_item2_bundle_config_is_validated_for_every_command(ws, run_script, tmp_path, change, message):
    _setup(ws, run_script)
    bundle = _bundle_copy(tmp_path, change)
    line = f"error: {bundle / 'config.json'}: {message}\n"
    before = tree_hash(ws)
    for command in COMMANDS:
        result = _run(bundle, *command, input="hi\n")
        assert (result.returncode, result.stdout, result.stderr) == (2, "", line), command
    as_json = _run(bundle, "memory", "status", "--json")
    assert as_json.returncode == 2 and json.loads(as_json.stdout) == {"error": line[len("error: "):-1],
                                                                      "kind": "config"}
    doctor = _run(bundle, "doctor", "--no-openclaw")
    assert doctor.returncode == 1
    lines = doctor.stdout.splitlines()
    at = lines.index(f"✗ config: {bundle / 'config.json'}: {message}")
    assert lines[at + 1] == (f"    fix: fix the value in {bundle / 'config.json'} (the shipped defaults; "
                             "a fresh copy of the bundle has them)")
    assert tree_hash(ws) == before


def test_item2_bundle_config_must_hold_every_key(ws, run_script, tmp_path):
    _setup(ws, run_script)
    bundle = _bundle_copy(tmp_path, ('    "top_k": 10,\n', ""))
    result = _run(bundle, "memory", "status")
    assert (result.returncode, result.stderr) == (2, f"error: {bundle / 'config.json'}: 'recall.top_k' is missing\n")


def test_item2_override_still_names_its_own_file(ws, run_script):
    _setup(ws, run_script)
    override = _override(ws, {"language": "en", "recall": {"top_k": "ten"}})
    result = run_script("memory", "recall", "tea")
    assert (result.code, result.err) == (2, f"error: {override}: 'recall.top_k' must be a number, not string ('ten')\n")


# ---------------------------------------------------------------- finding 3

def test_item3_xor_entries_move_to_aes_gcm(ws, run_script, tmp_path):
    _setup(ws, run_script, "--no-key")
    for topic, text in (("tea", "User likes green tea"), ("milk", "User takes oat milk")):
        made = run_script("memory", "remember", "--skill", "demo", "--topic", topic, "--text", text)
        assert made.code == 0 and " xor-b64, " in made.out and "run 'crypt.py reseal'" in made.out, made.err
    assert run_script("cleanup").code == 0  # combines both into the month file, as the walk-through saw
    t2 = ws / "memory" / "tier2-internal"
    month_file = next(t2.glob("demo_2*.md"))
    assert sorted(p.name for p in t2.iterdir()) == [month_file.name]
    command = f"{sys.executable} {ROOT / 'scripts' / 'crypt.py'} reseal -w {ws}"

    status = run_script("memory", "status")
    assert ("tiers: T1 0 statistics files (0 skills), T2 2 entries (0 encrypted, 2 obfuscated only with "
            "xor-b64), T3 0\n") in status.out
    assert (f"note: 2 T2 entries are not encrypted with a key: run `{command}` to encrypt them with aes-gcm\n"
            in status.out)
    doc = json.loads(run_script("memory", "status", "--json").out)
    assert (doc["tiers"]["t2"], doc["t2_by_scheme"]) == (2, {"aes-gcm": 0, "xor-b64": 2, "plain": 0})
    audit = run_script("privacy_audit", "--json")
    assert json.loads(audit.out)["warnings"] == [
        "xor-b64 is obfuscation, not encryption: its key is derived from the skill name and month, so anyone "
        f"with the file can read it. 2 T2 entries use it: run `{command}` to encrypt them with aes-gcm "
        "(it makes the T2 key when there is none)."]

    # without a key, encrypt --file says what to do instead of "already encrypted"
    before = tree_hash(ws)
    refused = run_script("crypt", "encrypt", "--file", str(month_file))
    assert (refused.code, refused.err) == (1, (
        f"error: {month_file}: xor-b64 is obfuscation, not encryption, and there is no T2 key to encrypt it "
        "with: run 'crypt.py reseal' (it makes the key and encrypts every such entry)\n"))
    assert tree_hash(ws) == before

    # the one command from the warning
    reseal = run_script("crypt", "reseal")
    key = tmp_path / "home" / ".config" / "complex-memory-manager" / "key"
    assert reseal.code == 0, reseal.err
    lines = reseal.out.splitlines()
    assert lines[0] == (f"created AES key {key} (mode 0600): keep a copy somewhere safe; losing it loses the T2 "
                        "entries encrypted with it")
    assert lines[1].startswith(f"resealed 2 T2 entries in 1 file(s) with aes-gcm (backup ")
    text = month_file.read_text(encoding="utf-8")
    assert text.count('"scheme": "aes-gcm"') == 2 and "xor-b64" not in text and "text_encoding" not in text
    recall = run_script("memory", "recall", "oat milk", "--approved", "--json")
    assert [h["snippet"] for h in json.loads(recall.out)["hits"]][:1] == ["User takes oat milk"]
    status = run_script("memory", "status")
    assert "T2 2 encrypted entries, T3 0\n" in status.out and "note: " not in status.out
    assert json.loads(run_script("privacy_audit", "--json").out)["warnings"] == []
    again = run_script("crypt", "reseal")
    assert (again.code, again.out) == (0, "nothing to reseal: every T2 entry is aes-gcm\n")
    same = run_script("crypt", "encrypt", "--file", str(month_file))
    assert (same.code, same.out) == (0, f"unchanged: {month_file.relative_to(ws)} is already encrypted; "
                                        "nothing to do\n")


def test_item3_encrypt_file_reseals_a_single_xor_entry(ws, run_script, t2_key):
    _setup(ws, run_script)
    made = run_script("memory", "remember", "--skill", "demo", "--topic", "tea", "--text", "User likes green tea",
                      "--scheme", "xor-b64")
    assert made.code == 0 and " xor-b64, " in made.out, made.err
    path = ws / "memory" / "tier2-internal" / "demo_tea.md"
    before = path.read_text(encoding="utf-8")
    kept = run_script("crypt", "encrypt", "--file", str(path), "--scheme", "xor-b64")
    assert (kept.code, kept.out) == (0, "unchanged: memory/tier2-internal/demo_tea.md is xor-b64 already; "
                                        "nothing to do\n")
    done = run_script("crypt", "encrypt", "--file", str(path), "--json")
    assert done.code == 0, done.err
    assert json.loads(done.out)["action"] == "resealed"
    after = path.read_text(encoding="utf-8")
    # the frontmatter lines stay, but for the scheme and the xor-b64 fields
    keep = [line for line in before.split("---\n")[1].splitlines()
            if not line.startswith(("scheme:", "text_encoding:", "key_derivation:"))]
    assert after.split("---\n")[1].splitlines() == keep + ["scheme: aes-gcm"]
    assert "> aesgcm:v2:" in after
    shown = run_script("memory", "show", "t-56000a4f67", "--approved")
    assert shown.code == 0 and "User likes green tea" in shown.out


# ---------------------------------------------------------------- finding 6

def test_item6_stats_record_ok_and_fail_together_is_a_usage_error(ws, run_script):
    _setup(ws, run_script)
    before = tree_hash(ws)
    both = run_script("memory", "stats", "record", "--skill", "weather", "--ok", "--fail")
    assert (both.code, both.out, both.err) == (2, "", "error: --ok and --fail contradict each other: give one\n")
    neither = run_script("memory", "stats", "record", "--skill", "weather", "--json")
    assert (neither.code, json.loads(neither.out)) == (2, {"error": "say how the call went: --ok or --fail",
                                                          "kind": "usage"})
    assert tree_hash(ws) == before
    fail = run_script("memory", "stats", "record", "--skill", "weather", "--fail")
    assert (fail.code, fail.out) == (0, "weather: 1 call, success rate 0.00% "
                                        "(memory/tier1-public/weather_stats.json)\n")

# ---------------------------------------------------------------- finding 13

def test_item13_init_plans_again_when_another_init_wrote_first(ws, run_script):
    from memory_manager import initialize
    from memory_manager.config import load_config
    from memory_manager.errors import DirtyFileError

    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    cfg = load_config(ws)

    def rebuild():
        return initialize.build_plan(ws, cfg, "en", hooks=False, plugin=False, key_planned=False)

    stale = rebuild()  # planned before ...
    first = run_script("init", "--yes", "--lang", "en", "--no-hooks", "--no-key")  # ... another init wrote
    assert first.code == 0, first.err
    after_first = tree_hash(ws)
    with pytest.raises(DirtyFileError) as info:
        initialize.apply_files(stale)
    assert str(info.value) == "AGENTS.md changed while init was running (another init, or an edit); run it again"
    plan, backup = initialize.apply_fresh(stale, rebuild)
    assert (plan.replanned, plan.empty, backup) == (True, True, None)
    assert tree_hash(ws) == after_first


def test_item13_two_inits_at_once_both_succeed(ws, run_script):
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    cmd = [sys.executable, str(ROOT / "scripts" / "init.py"), "--yes", "--lang", "en", "--no-hooks", "--json"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]
    assert [code for code, _, _ in results] == [0, 0], results
    docs = [json.loads(out) for _, out, _ in results]
    assert sorted(doc["applied"] for doc in docs) in ([False, True], [True, True])
    assert (ws / "AGENTS.md").read_text(encoding="utf-8").count("complex-memory-manager:begin") == 1
    key = ws.parent / "home" / ".config" / "complex-memory-manager" / "key"
    assert key.is_file() and sum(bool(doc["key"]["created"]) for doc in docs) == 1

# ---------------------------------------------------------------- finding 7

def test_item7_docs_say_what_the_gate_does_with_phones(ws, run_script, tmp_path):
    _setup(ws, run_script)
    phone = "138" + "1234" + "5678"
    held = run_script("memory", "write", "--topic", "Call mum", "--change", f"Mum's number is {phone}")
    assert held.code == 1 and "possible phone found" in held.err and phone not in held.err
    kept = run_script("memory", "write", "--topic", "Call mum", "--change", f"Mum's number is {phone}", "--approved")
    assert kept.code == 0, kept.err
    out = tmp_path / "export.json"
    assert run_script("memory", "export", "--approved", "--out", str(out)).code == 0
    assert phone in out.read_text(encoding="utf-8")  # export carries what was kept, as written
    skill = (ROOT / "SKILL.md").read_text(encoding="utf-8")
    assert "E-mail addresses, phone numbers and street addresses are held" in skill
    assert "`export` carries it" in skill
    assert "phone numbers,\n  street addresses, government IDs" not in skill  # no longer listed as refused
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "secrets and T3 items are refused always" not in readme
    assert "carried by `export`" in readme
    assert "`memory.py export --approved`\ncarries it as stored" in (ROOT / "references" / "tiers.md").read_text(
        encoding="utf-8")


# ---------------------------------------------------------------- finding 8

def test_item8_no_hooks_skips_the_plugin_too_as_documented(ws, run_script):
    (ws / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    no_hooks = run_script("init", "--dry-run", "--diff", "--lang", "en", "--no-hooks")
    no_plugin = run_script("init", "--dry-run", "--diff", "--lang", "en", "--no-plugin")
    assert no_hooks.code == no_plugin.code == 0
    assert "hooks/memory-manager-" not in no_hooks.out and ".openclaw/extensions" not in no_hooks.out
    assert "+++ b/hooks/memory-manager-bootstrap/HOOK.md" in no_plugin.out
    assert ".openclaw/extensions" not in no_plugin.out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`--no-hooks` skips this step and the next one" in readme
    assert "`--no-plugin` skips only this step" in readme


# ---------------------------------------------------------------- finding 12

def test_item12_an_empty_time_says_nothing_was_noted_then(ws, run_script):
    _setup(ws, run_script)
    now = {"MEMORY_MANAGER_NOW": "2026-12-01T10:00:00"}
    assert run_script("memory", "write", "--topic", "Tea tasting", "--change", "Tried a new oolong", env=now).code == 0
    day = run_script("memory", "recall", "what did we do yesterday", env=now)
    assert (day.code, day.out) == (0, "nothing was noted on 2026-11-30 (the time the question names)\n")
    week = run_script("memory", "recall", "what tea did we try last week", env=now)
    assert week.out.splitlines()[0] == ("note: nothing was noted between 2026-11-23 and 2026-11-29 (the time the "
                                        "question names); these entries are from other times")
    assert "Tried a new oolong" in week.out
    doc = json.loads(run_script("memory", "recall", "what did we do yesterday", "--json", env=now).out)
    assert (doc["hits"], doc["time"]) == ([], {"span": ["2026-11-30", "2026-11-30"], "entries_in_span": 0,
                                               "note": "nothing was noted on 2026-11-30"})
    today = json.loads(run_script("memory", "recall", "what did we do today", "--json", env=now).out)
    assert today["time"] == {"span": ["2026-12-01", "2026-12-01"], "entries_in_span": 1, "note": None}
    assert [h["snippet"] for h in today["hits"]] == ["- Change: Tried a new oolong"]


# ---------------------------------------------------------------- finding 15

def test_item15_refusals_name_the_option_never_the_value(ws, run_script):
    _setup(ws, run_script)
    token = "ghp_" + "a1B2" * 9
    phone = "138" + "1234" + "5678"
    before = {k: v for k, v in tree_hash(ws).items() if not k.startswith("memory/.state")}  # init's key record
    cases = [
        (("write", "--topic", "t", "--cause", "fine", "--change", f"token {token}"),
         "refuse (contains secret (certain) in --change: tier 3, never stored or shared (no flag overrides this))"),
        (("write", "--topic", "t", "--todo", f"call {phone}"),
         "request_approval (possible phone found in --todo: not stored unless the user confirms it is fine to keep; "
         "then repeat with --approved)"),
        (("learn", "k1", "--text", f"token {token}"),
         "refuse (contains secret (certain) in --text: tier 3, never stored or shared (no flag overrides this))"),
        (("remember", "--skill", "a", "--topic", "b", "--text", f"token {token}"),
         "refuse (contains secret (certain) in --text: tier 3, never stored or shared (no flag overrides this))"),
    ]
    for args, reason in cases:
        result = run_script("memory", *args)
        assert (result.code, result.err) == (1, f"error: memory gate: {reason}\n"), args
        assert token not in result.err and phone not in result.err
    # nothing stored; only the gate's audit log (hashes and decisions) records the refusals
    assert {k: v for k, v in tree_hash(ws).items() if not k.startswith("memory/.state")} == before


def test_item15_messages_that_make_sense(ws, run_script):
    _setup(ws, run_script)
    typo = run_script("memory", "--json", "wirte")  # --json before the verb is taken, the verb's typo named
    assert (typo.code, json.loads(typo.out)) == (2, {"error": "No such command 'wirte'. Did you mean 'write'?",
                                                     "kind": "usage"})
    early = run_script("memory", "--json", "stats", "record", "--skill", "weather", "--ok")
    assert early.code == 0 and json.loads(early.out)["stats"]["calls"] == 1
    bare = run_script("memory", "stats")
    assert (bare.code, bare.err) == (2, "error: memory.py stats needs a verb: pattern, record, show "
                                        "(see memory.py stats --help)\n")
    assert run_script("crypt").err == ("error: crypt.py needs a verb: decrypt, encrypt, keygen, reseal "
                                       "(see crypt.py --help)\n")
    assert run_script("memory", "remember", "--skill", "demo", "--topic", "style", "--text", "short replies").code == 0
    gone = run_script("memory", "forget", "t-" + __import__("hashlib").sha256(b"demo\nstyle").hexdigest()[:10],
                      "--approved")
    assert gone.code == 0, gone.err
    assert gone.out.startswith("forgot t2 ") and "(file removed: memory/tier2-internal/demo_style.md); " in gone.out
