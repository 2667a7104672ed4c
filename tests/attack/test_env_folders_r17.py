"""A token in a folder the environment names is masked like one typed as an option (tfix17t, tatk17 kind 6).

OPENCLAW_WORKSPACE_DIR, OPENCLAW_STATE_DIR (and the other path variables,
``memory_manager.workspace.PATH_VARIABLES``) are echoed by the same lines as ``-w`` / ``--state-dir``:
detect, doctor, ``--verbose``'s workspace line, the upkeep's notes (``maintain.py``).
"""
from __future__ import annotations

import json

import pytest

from .trust_r4_common import NOW, TOKEN, _init

SHOWN = TOKEN[8:]  # more than the first 4 characters of the value


def test_env_values_lists_each_path_variable_as_written_and_absolute(tmp_path, monkeypatch):
    from memory_manager.workspace import env_values

    monkeypatch.chdir(tmp_path)
    env = {"OPENCLAW_STATE_DIR": "st", "OPENCLAW_WORKSPACE_DIR": "/w", "OPENCLAW_PROFILE": " ", "HOME": "/h",
           "TZ": "/z"}
    assert env_values(env) == ["/w", "st", str(tmp_path / "st"), "/h"]  # HOME holds the key folder (tatk18 4)


def test_maintain_never_echoes_a_token_in_a_workspace_not_set_up(run_script, tmp_path):
    folder = tmp_path / f"w-{TOKEN}"
    folder.mkdir()
    r = run_script("maintain", "-w", folder, env={**NOW, "OPENCLAW_WORKSPACE_DIR": str(folder)})
    assert r.code == 0 and r.out == ""
    assert r.err.startswith("maintain: ") and r.err.endswith(" is not set up (no memory/ folder inside it; "
                                                              "run init.py); nothing done\n"), r.err
    assert SHOWN not in r.err and str(tmp_path) in r.err  # the rest of the path is still shown


@pytest.mark.parametrize("how", ["env", "option"])
def test_the_verbose_workspace_line_masks_a_token(ws, run_script, tmp_path, how):
    folder = tmp_path / f"w-{TOKEN}"
    folder.mkdir()
    _init(run_script, "-w", folder)
    args = ["-w", str(folder)] if how == "option" else []
    r = run_script("memory", "status", *args, "--verbose", "--json",
                   env={**NOW, "OPENCLAW_WORKSPACE_DIR": str(folder if how == "env" else ws)})
    assert r.code == 0, r.err
    json.loads(r.out)
    rule = "OPENCLAW_WORKSPACE_DIR" if how == "env" else "--workspace"
    [line] = [x for x in r.err.splitlines() if x.startswith("workspace: ")]
    assert line.endswith(f" (chosen by {rule})") and SHOWN not in r.out + r.err, line


def test_detect_masks_a_token_in_the_state_folder_of_the_environment_in_its_error(run_script, tmp_path):
    # The agent named is not in the state folder: exit 1, the note, summary and error name the folder.
    folder = tmp_path / f"st-{TOKEN}"
    (folder / "agents").mkdir(parents=True)
    r = run_script("detect", "--json", "--agent", "other", env={**NOW, "OPENCLAW_STATE_DIR": str(folder)})
    assert r.code == 1, r.err
    doc = json.loads(r.out)
    assert doc["error"] == f"no session store for agent other in {tmp_path}/st-[secret]"
    assert doc["notes"] == [doc["error"]] and SHOWN not in r.out + r.err


@pytest.mark.parametrize("source", ["event", "env"])
def test_the_hook_masks_a_token_in_a_workspace_not_set_up(run_script, tmp_path, source):
    folder = tmp_path / f"w-{TOKEN}"
    folder.mkdir()
    event = {"type": "command", "action": "new", "context": {"workspaceDir": str(folder)} if source == "event" else {}}
    env = {**NOW, "OPENCLAW_WORKSPACE_DIR": str(folder)} if source == "env" else NOW
    r = run_script("hook", input=json.dumps(event), env=env)
    assert (r.code, r.out) == (0, "")
    assert r.err == (f"complex-memory-manager hook: command:new: {tmp_path}/w-[secret] is not set up "
                     "(no memory/ folder inside it; run init.py); nothing done\n")
