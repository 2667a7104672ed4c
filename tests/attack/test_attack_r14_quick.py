"""Attack round 14 (quick, atk14): a fresh attacker against main at 84fc98e.

Each test plays one attack that still gets through, against the real scripts in a temporary
workspace, asserts the promised behaviour (issue 10: secrets never echoed past their first 4
characters, as ``memory.py``'s "not found" errors and recall already do). Fixed in round 11 by
``context.shown_id`` (each session-key segment that is not an ordinary name shows 4 characters).
Secret-shaped values are built at run time.

Found (tests here): ``detect.py --session KEY`` that names no session prints the whole key in
its error (human and ``--json``): a GitHub token or a phone number (OpenClaw session keys carry
the peer's number) shown in full; ``detect.py --agent ID`` prints an agent id holding a secret in
full, in its "not an OpenClaw agent id" error (full-width token, Chinese password phrasing) and in
its summary; the ``agent:bootstrap`` hook writes the same summary, agent id included, as a line
for the Gateway log (on disk, outside the workspace).

Tried and held (tried/broke):
(a) secrets through options: 32 doors (write --topic/--cause/--change/--todo; learn KEY/--text/
--tags; remember --skill/--topic/--text; stats record --skill; stats pattern --trigger/--skills/
--skill; event --skill/--text; lesson; edit REF/--text; show/forget/unarchive/unquarantine/used
REF; recall QUERY; import --allow; gate.py --text/--request; maintain.py --event; crypt.py
encrypt stdin; detect.py --agent/--session) x 6 values (GitHub token, the same full-width, with
zero-width spaces, two Chinese password phrasings 我的密码是/数据库口令, an AWS key id) x with and
without --approved = 384 runs: nothing reached the workspace, the state dir or ~/.config in any
form (NFKC, zero-width stripped, \\u escapes); output leaked past 4 characters only through
detect.py (24 runs, tests here). Hook events (agent:end, message:sent, agent:bootstrap,
command:new) with the 6 values in sessionKey/agentId/model/provider/content/sessionId: 24 runs,
nothing on disk in the workspace; the bootstrap log line echoed the agent id (5 of 6, test here).
(e) two keys: MEMORY_MANAGER_KEY beside the key file through import (of an export), edit of an
approved entry, crypt.py encrypt --file, init --restore, forget, import --from-openclaw, lesson
and write with approved findings, init --yes again, cleanup (quarantine), maintain.py: 11 doors,
all refused or nothing sealed with the other key (every sealed item still opens with the key
file, t2-key-accepted unchanged).
(f) show/--json show/show --approved/--history, recall and --json recall of hand-edited knowledge
entries holding the 6 values; report --html; privacy_audit; export --approved: 54 checks, all
masked or refused.
(d) umask 000: init, remember, learn --approved, export --out, report --html, write, cleanup,
privacy_audit, doctor: no file writable by others, .state/.cache/.memory-backup/key 0600/0700,
export and report pages 0600 (tier2-internal 0755 as documented).
(b) residue: an approved knowledge entry holding a phone number, edited (history), recalled,
shown, reported, cleaned, audited, then forgotten, and a daily note forgotten: the whole workspace
and home searched for the text, the number (with and without dashes), the key, the topic, the
k- id and SHA-256/SHA-1/MD5 of 5 forms: 2 forgets, nothing left.
(c) links: .memory-backup, memory/.state, memory/knowledge, memory/.quarantine and
memory/tier2-internal as symlinks to an outside folder through learn, edit, remember, recall,
stats record, report, cleanup, privacy_audit and write: 45 runs, all refused (exit 2), nothing
written outside.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .trust_r4_common import NOW, PHONE, TOKEN, _init

ROOT = Path(__file__).resolve().parents[2]


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in text)


def _shows_more_than_4(output: str, value: str) -> bool:
    """True when any 5 characters of ``value`` after its first one appear in ``output``."""
    return any(value[i:i + 5] in output for i in range(1, len(value) - 4))


#: A Chinese password phrasing (a certain finding), built at run time.
ZH_PASSWORD = "我的密码是 " + "Qz7!mK4" + "#vR9pW"


# ------------------------------------------------------------ detect.py echoes the session key

@pytest.mark.parametrize("value", ["token", "phone"])
@pytest.mark.parametrize("json_out", [False, True])
def test_detect_no_session_error_masks_a_secret_in_the_key(ws, run_script, value, json_out):
    _init(run_script)
    secret = TOKEN if value == "token" else "+1" + PHONE.replace("-", "")
    key = f"agent:main:whatsapp:dm:{secret}" if value == "phone" else f"agent:main:{secret}"
    r = run_script("detect", *(["--json"] if json_out else []), "--session", key, env=NOW)
    assert r.code == 1, r.err  # the named session does not exist
    if json_out:
        json.loads(r.out)  # one JSON document
    # Issue 10 / gate.md: a secret is never shown past its first 4 characters (memory.py's
    # "not found" errors mask the argument they name).
    assert not _shows_more_than_4(r.out + r.err, secret), r.out + r.err


# ------------------------------------------------------------ detect.py and the bootstrap hook echo the agent id

@pytest.mark.parametrize("value", ["token", "fullwidth-token", "zh-password"])
def test_detect_agent_option_never_echoes_a_secret(ws, run_script, value):
    _init(run_script)
    secret = {"token": TOKEN, "fullwidth-token": _fullwidth(TOKEN), "zh-password": ZH_PASSWORD}[value]
    r = run_script("detect", "--agent", secret, env=NOW)
    core = {"token": TOKEN, "fullwidth-token": _fullwidth(TOKEN), "zh-password": "Qz7!mK4" + "#vR9pW"}[value]
    assert not _shows_more_than_4(r.out + r.err, core), r.out + r.err


def test_bootstrap_hook_log_line_masks_a_secret_agent_id(ws, run_script):
    _init(run_script)
    event = {"type": "agent", "action": "bootstrap", "sessionKey": f"agent:{TOKEN}:main",
             "context": {"workspaceDir": str(ws), "agentId": TOKEN, "sessionId": "s1", "bootstrapFiles": []}}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts/hook.py")], input=json.dumps(event), text=True,
                          capture_output=True, env={**os.environ, **NOW}, timeout=60)
    assert proc.returncode == 0  # hooks fail open
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) <= 1
    log = json.loads(lines[0])["log"] if lines else []
    # The log lines go to the Gateway log: a value that reaches disk passes the gate (issue 10).
    assert not any(_shows_more_than_4(line, TOKEN) for line in log), log
    assert not _shows_more_than_4(proc.stderr, TOKEN)
