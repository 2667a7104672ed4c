"""Fault attack fatk11 (round 15) on main 5b59b65: this round's writing paths killed, starved and raced.

Each finding is a test that runs the real scripts (forked, as tests/faults/harness.py does)
on a temporary workspace and asserts what the README and STYLE.md promise: a killed command loses no
byte and the next command recovers. Both were strict xfails; fault16 fixed them and removed the marks
(finding 1: ``tiers.unrecorded_key_file``, variants in test_fault16_key.py; finding 2: cleanup's
``purge`` forward plan, variants in test_fault16_purge.py).

What held (kill points tried / broke, each kill followed by the same command run again and the tree
compared byte for byte with an uninterrupted run; audit log parsed; staging files, journals, lock):

- ``memory.py forget`` of a lesson (keyed ``file`` records): 32 / 0 (every step).
- ``memory.py forget`` of a knowledge entry with approval lines (``kfp``): 44 / 0 (every step).
- ``memory.py unquarantine --approved``: 20 / 0 (the killed run's gate record stays in the
  append-only audit log beside the re-run's; nothing else differs).
- ``crypt.py reseal`` with nothing to reseal (makes and records the key): 7 / 0 (every step).
- ``cleanup`` purging a T2 entry that holds a token: 37 / 26 -- see finding 2 (steps 13-37).
- ``init --yes`` on a new workspace (makes the key, then records it): 49 / 45 -- see finding 1
  (steps 5-49: every step after the key file is in place).
- ``memory.py report --html`` killed by SIGKILL at 15 random times while its child masks: no
  page left half written, no stray file, workspace unchanged, the next report exits 0 (the masking
  child outlives its killed parent by about 0.4 s, then exits).
- recall over an index whose meta says tokenizer 2 (the previous version): rebuilt once, the
  same hits as a fresh index, not rebuilt again by the next recall.
- RLIMIT_FSIZE (0 B to 256 KiB, 12 limits each) during forget, cleanup's purge, unquarantine and
  init --yes: no traceback, no "nothing was changed" over a changed tree, the next run recovers,
  the key record matches the key file.
- Racing writers, 12 rounds each: cleanup + forget, init --yes + remember (new workspace),
  report --html + forget: both exit 0, the lesson is gone, audit log parses, the key record
  matches the key file and the store still seals.
"""
from __future__ import annotations

import base64
import json
import os
from datetime import date
from pathlib import Path

from tests.faults.harness import run_forked

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00", "OPENCLAW_WORKSPACE_DIR": ""}
#: A key that is not the key file's (another MEMORY_MANAGER_KEY in the user's shell).
K2 = base64.b64encode(bytes(range(100, 132))).decode()
TOKEN = "ghp" + "_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
PHONE = "415-555" + "-0132"


def _steps(script: str, args: list[str], ws: Path, env: dict, log: Path) -> list[str]:
    """Run uninterrupted with the step log; return its labels."""
    assert run_forked(script, [*args, "-w", str(ws)], dict(env, MEMORY_MANAGER_STEP_LOG=str(log))) == 0
    return [line.split(" ", 1)[1] for line in log.read_text().splitlines()]


def _key_file(tmp_path: Path) -> Path:
    return tmp_path / "cfg" / "complex-memory-manager" / "key"


def _audit(ws: Path) -> list[dict]:
    path = ws / "memory/.state/gate-audit.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# --------------------------------------------------------------------------- 1. init's key record

def test_init_killed_after_making_the_key_records_it_on_the_rerun(tmp_path):
    from memory_manager import tiers

    env = dict(NOW, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / "MEMORY.md").write_text("Prefers tea.\n", encoding="utf-8")
    labels = _steps("init", ["--yes", "--no-hooks", "--lang", "en"], ref,
                    dict(env, XDG_CONFIG_HOME=str(tmp_path / "cfg-ref")), tmp_path / "steps.log")
    # The first step after the key file is linked into place (45 of the 49 steps break the same way).
    step = next(n for n, label in enumerate(labels, 1) if label.startswith("link ") and label.endswith("/key")) + 1
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text("Prefers tea.\n", encoding="utf-8")
    args = ["--yes", "--no-hooks", "--lang", "en", "-w", str(ws)]
    assert run_forked("init", args, dict(env, MEMORY_MANAGER_CRASH_AT=str(step))) == -9
    assert _key_file(tmp_path).is_file()
    assert run_forked("init", args, env) == 0
    made = tiers.key_check(base64.b64decode(_key_file(tmp_path).read_text(encoding="ascii").strip()))
    assert tiers.recorded_key(ws) == made  # today: None
    # A shell's other key must then be refused, as after an uninterrupted init (test_trust_r13_kinds);
    # today it seals first and takes the store, and the key file init printed is refused from then on.
    code = run_forked("memory", ["remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one",
                                 "-w", str(ws)], dict(env, MEMORY_MANAGER_KEY=K2))
    assert code == 1 and tiers.recorded_key(ws) == made


# --------------------------------------------------------------------------- 2. a purge's audit blanking

def _purge_workspace(ws: Path, env: dict) -> None:
    """A keyed store with a T2 entry that holds a token (cleanup purges it) and another keyed record."""
    from memory_manager import crypto, tiers
    from memory_manager.config import load_config

    ws.mkdir()
    (ws / "MEMORY.md").write_text("Prefers tea.\n", encoding="utf-8")
    w = ["-w", str(ws)]
    assert run_forked("init", ["--yes", "--no-hooks", "--lang", "en", *w], env) == 0
    assert run_forked("memory", ["remember", "--skill", "s", "--topic", "a", "--scheme", "xor-b64", "--text",
                                 "alpha fact one", *w], env) == 0
    assert run_forked("memory", ["learn", "zeb", "--text", f"zebra vendor line {PHONE}", "--approved", *w],
                      env) == 0
    sealed = crypto.encrypt("alpha fact one " + TOKEN, "s", "2026-11", load_config(ws), "xor-b64", topic="a",
                            entry_id=tiers.t2_id("s", "a"))
    tiers.t2_path(ws, "s", "a").write_text(
        tiers.render_t2("s", "a", sealed, date(2026, 11, 25), 30, "2026-11", "en"), encoding="utf-8")
    # The purge's plan is sealed with this machine's local secret (backups.plan_seal): made here, as a
    # store in use has it, so that a probe run and a killed run take the same steps.
    from memory_manager import keyed

    saved = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = env["XDG_CONFIG_HOME"]
    try:
        assert keyed.local_secret(ws) is not None
    finally:
        if saved is None:
            os.environ.pop("XDG_CONFIG_HOME", None)
        else:
            os.environ["XDG_CONFIG_HOME"] = saved


def test_cleanup_killed_after_a_purge_keeps_the_audit_log_blanked(tmp_path):
    import shutil

    env = dict(NOW, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    template = tmp_path / "template"
    _purge_workspace(template, env)
    reference = tmp_path / "reference"
    shutil.copytree(template, reference, symlinks=True)
    labels = _steps("cleanup", [], reference, env, tmp_path / "steps.log")
    # Killed right before cleanup.log is replaced: the T2 file is unlinked and the log already blanked.
    step = next(n for n, label in enumerate(labels, 1)
                if label.startswith("replace ") and label.endswith("memory/.state/cleanup.log"))
    ws = tmp_path / "ws"
    shutil.copytree(template, ws, symlinks=True)
    assert run_forked("cleanup", ["-w", str(ws)], dict(env, MEMORY_MANAGER_CRASH_AT=str(step))) == -9
    assert not (ws / "memory/tier2-internal/s_a.md").exists()  # the purge happened and is not undone
    assert run_forked("cleanup", ["-w", str(ws)], env) == 0
    assert not (ws / "memory/tier2-internal/s_a.md").exists()
    want = _audit(reference)
    assert [r["decision"] for r in want] == ["proceed", "proceed", "purge_pii"] and want[0]["hash"] is None
    # Today the log is the one from before the purge: the purged entry's record keeps hash, entry and
    # kfp, and the purge_pii record is gone.
    assert _audit(ws) == want
