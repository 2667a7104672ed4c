"""Values the environment sets are masked where a message echoes them (echo18: tatk18 findings 3, 4, 7, 8).

3. ``MEMORY_MANAGER_NOW`` refused by the clock: every verb's error names the variable, the value masked
   (``memory_manager.workspace.VALUE_VARIABLES``), as a typed value is.
The strict-xfail attacks these answer are in ``test_attack_r18_quick.py``; the tests here pin the
messages exactly.
"""
from __future__ import annotations

import json

import pytest

from .trust_r4_common import NOW, TOKEN, _init

SHOWN = TOKEN[8:]  # more than the first 4 characters of the value
NOT_ISO = "is not an ISO 8601 date or time"


# ------------------------------------------------------------ 3: MEMORY_MANAGER_NOW

def test_echoed_values_lists_the_clock_override_as_set_and_as_its_error_cuts_it(monkeypatch):
    from memory_manager.clock import ENV_NOW
    from memory_manager.workspace import VALUE_VARIABLES, echoed_values

    assert ENV_NOW in VALUE_VARIABLES
    long = TOKEN + "-" + "a" * 30
    monkeypatch.setenv(ENV_NOW, f" {long} ")
    values = echoed_values(["status"])
    assert long in values and long[:60] in values and values[0] == "status"


# A value longer than 60 characters is shown cut there (the token masked, the rest as text is masked).
@pytest.mark.parametrize("value,shown", [(TOKEN, "[secret]"), (TOKEN + "-" + "a" * 30, "[secret]-" + "a" * (59 - len(TOKEN)))])
def test_a_token_in_memory_manager_now_is_masked_in_the_error(ws, run_script, value, shown):
    _init(run_script)
    r = run_script("memory", "status", env={"MEMORY_MANAGER_NOW": value})
    assert (r.code, r.out) == (2, "")
    assert r.err == f"error: MEMORY_MANAGER_NOW='{shown}' {NOT_ISO}\n"
    r = run_script("memory", "--json", "status", env={"MEMORY_MANAGER_NOW": value})
    assert r.code == 2 and json.loads(r.out) == {"error": f"MEMORY_MANAGER_NOW='{shown}' {NOT_ISO}",
                                                 "kind": "bad_input"}


def test_a_plain_bad_memory_manager_now_is_still_named_in_full(ws, run_script):
    r = run_script("memory", "status", env={"MEMORY_MANAGER_NOW": "next tuesday"})
    assert (r.code, r.err) == (2, f"error: MEMORY_MANAGER_NOW='next tuesday' {NOT_ISO}\n")


def test_the_hook_masks_a_token_in_memory_manager_now(ws, run_script):
    _init(run_script)
    event = {"type": "command", "action": "new", "context": {"workspaceDir": str(ws)}}
    r = run_script("hook", input=json.dumps(event), env={"MEMORY_MANAGER_NOW": TOKEN})
    assert (r.code, r.out) == (0, "")
    assert r.err == f"complex-memory-manager hook: BadInputError: MEMORY_MANAGER_NOW='[secret]' {NOT_ISO}\n"
