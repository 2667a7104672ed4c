"""Values the environment sets are masked where a message echoes them (echo18: tatk18 findings 3, 4, 7, 8).

3. ``MEMORY_MANAGER_NOW`` refused by the clock: every verb's error names the variable, the value masked
   (``memory_manager.workspace.VALUE_VARIABLES``), as a typed value is.
4. A token in ``XDG_CONFIG_HOME`` or ``HOME`` (``workspace.PATH_VARIABLES``): masked in the key file's path by
   init, doctor and ``crypt keygen``.
7. A value cut at ' / ' (spaces beside the '/'): ``report --html`` and ``export --out`` refuse it as they refuse
   the cut at '/' (``names.refuse_private_path`` reads the parts joined without their edge spaces).
8. A token in the workspace folder (``-w`` or ``OPENCLAW_WORKSPACE_DIR``): init masks it in every line and JSON
   field; a command it prints that names the folder says to run it with the same workspace setting.
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
@pytest.mark.parametrize("value,shown", [(TOKEN, "[secret]"),
                                         (TOKEN + "-" + "a" * 30, "[secret]-" + "a" * (59 - len(TOKEN)))])
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


# ------------------------------------------------------------ 4: a token in the key folder (XDG_CONFIG_HOME, HOME)

KEY_LINE = ("created AES key {} (mode 0600): new T2 entries are encrypted with it. Keep a copy somewhere safe: "
            "losing it loses the T2 entries.")


def test_init_masks_a_token_in_xdg_config_home_in_the_key_lines(ws, run_script, tmp_path):
    folder = tmp_path / f"d-{TOKEN}"
    folder.mkdir()
    env = {**NOW, "XDG_CONFIG_HOME": str(folder)}
    shown = f"{tmp_path}/d-[secret]/complex-memory-manager/key"
    r = run_script("init", "--dry-run", "--lang", "en", env=env)
    assert r.code == 0 and f"would create AES key {shown} (mode 0600; losing it loses T2 entries)\n" in r.out
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", "--json", env=env)
    assert r.code == 0 and json.loads(r.out)["key"] == {"created": True, "path": shown, "mode": "0600"}
    assert (folder / "complex-memory-manager/key").is_file() and SHOWN not in r.out + r.err


def test_a_token_in_home_is_masked_by_init_doctor_and_keygen(ws, run_script, tmp_path):
    home = tmp_path / f"d-{TOKEN}"
    home.mkdir()
    env = {**NOW, "HOME": str(home), "XDG_CONFIG_HOME": ""}
    shown = f"{tmp_path}/d-[secret]/.config/complex-memory-manager/key"
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env)
    assert r.code == 0 and KEY_LINE.format(shown) + "\n" in r.out
    r = run_script("doctor", "--no-openclaw", env=env)
    assert f"✓ T2 key: aes-gcm with the key from {shown}\n" in r.out
    r = run_script("doctor", "--no-openclaw", "--json", env=env)
    [check] = [c for c in json.loads(r.out)["checks"] if c["detail"].startswith("aes-gcm")]
    assert check["detail"] == f"aes-gcm with the key from {shown}"
    r = run_script("crypt", "keygen", env=env)
    assert (r.code, r.out) == (1, "")
    assert r.err == (f"error: key file {shown} exists already; remove it yourself if you really want a new key "
                     "(entries encrypted with it become unreadable)\n")


# ------------------------------------------------------------ 7: a value cut at ' / '

AWS = "AKIA" + "QX7LM2PZ8RT5VB1N"
REFUSED = ("error: {}: the path holds secret (a file or folder name is stored, so it must hold no secret or personal "
           "data); name another file; nothing was written\n")


@pytest.mark.parametrize("verb", ["report", "export"])
def test_a_token_cut_at_a_slash_with_spaces_is_refused_in_a_folder_that_exists(ws, run_script, tmp_path, verb):
    _init(run_script)
    (tmp_path / "out" / (AWS[:10] + " ")).mkdir(parents=True)
    target = tmp_path / "out" / (AWS[:10] + " ") / (" " + AWS[10:] + ".x")
    option = "--html" if verb == "report" else "--out"
    r = run_script("memory", verb, option, target, *(["--approved"] if verb == "export" else []), env=NOW)
    assert (r.code, r.out, r.err) == (2, "", REFUSED.format(option))
    assert not target.exists()


def test_words_cut_at_a_slash_with_spaces_are_still_a_path(ws, run_script, tmp_path):
    _init(run_script)
    target = tmp_path / "out" / "notes " / " week 1.html"
    r = run_script("memory", "report", "--html", target, env=NOW)
    assert r.code == 0 and target.is_file(), r.err


# ------------------------------------------------------------ 8: a token in the workspace folder (init)

RERUN = " (the workspace folder is masked here: run it with the same -w / OPENCLAW_WORKSPACE_DIR as this run)"


def _init_py() -> str:
    import sys

    from conftest import ROOT

    return f"{sys.executable} {ROOT / 'scripts' / 'init.py'}"


@pytest.fixture
def secret_ws(tmp_path):
    folder = tmp_path / f"r-{TOKEN}"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("how", ["option", "env"])
def test_init_masks_a_token_in_the_workspace_folder_and_says_how_to_run_its_commands(run_script, tmp_path, secret_ws,
                                                                                      how):
    shown = f"{tmp_path}/r-[secret]"
    extra = ["-w", str(secret_ws)] if how == "option" else []
    env = {**NOW, "OPENCLAW_WORKSPACE_DIR": str(secret_ws)}
    r = run_script("init", "--dry-run", "--no-hooks", "--lang", "en", *extra, env=env)
    lines = r.out.splitlines()
    assert lines[0] == f"init {shown}: language en (--lang; change it with --lang zh|en)"
    assert lines[-1] == ("dry run: nothing was changed. Every line: the same command with --diff. Apply with: "
                         f"{_init_py()} -w {shown} --yes --lang en --no-hooks{RERUN}")
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", *extra, env=env)
    [backup] = [p.name for p in (secret_ws / ".memory-backup").iterdir() if p.is_dir()]
    assert r.out.splitlines()[-1] == (f"done. Backup {backup}: undo with `{_init_py()} -w {shown} --restore {backup} "
                                      f"--yes`{RERUN}")
    r = run_script("init", "--list-backups", *extra, env=env)
    assert r.out.splitlines()[0] == f"backups in {shown}/.memory-backup (oldest first)"
    r = run_script("init", "--list-backups", "--json", *extra, env=env)
    assert json.loads(r.out)["workspace"] == shown
    r = run_script("init", "--restore", "--yes", *extra, env=env)
    [safety] = [p.name for p in (secret_ws / ".memory-backup").iterdir() if p.is_dir() and p.name != backup]
    assert (f"the state before the restore is backup {safety}: undo with `{_init_py()} -w {shown} --restore {safety} "
            f"--yes`{RERUN}") in r.out
    assert SHOWN not in r.out + r.err


def test_the_command_init_prints_runs_as_told(run_script, tmp_path, secret_ws):
    """The masked command, run with the same workspace setting (the folder as this run named it), undoes."""
    env = {**NOW, "OPENCLAW_WORKSPACE_DIR": str(secret_ws)}
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env)
    command = r.out.splitlines()[-1].split("`")[1]
    args = command.split(" -w ", 1)[1].split()[1:]  # what follows the masked folder
    assert args[0] == "--restore"
    r = run_script("init", "-w", secret_ws, *args, env=env)
    assert r.code == 0 and not (secret_ws / "AGENTS.md").exists(), r.out + r.err


def test_init_adds_no_note_when_the_workspace_holds_no_finding(ws, run_script):
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=NOW)
    assert r.out.splitlines()[-1].endswith(" --yes`") and "masked" not in r.out


# ------------------------------------------------------------ 8 (more): cleanup's and status's printed commands

def test_cleanup_masks_a_token_in_the_workspace_folder_of_its_restore_command(ws, run_script, tmp_path):
    folder = tmp_path / f"c-{TOKEN}"
    folder.mkdir()
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", "-w", folder, env=NOW).code == 0
    r = run_script("memory", "remember", "--skill", "s", "--topic", "plain", "--text", "a plain internal note",
                   "-w", folder, env=NOW)
    assert r.code == 0, r.err
    # past the T2 entry's expiry (30 days): cleanup removes it, with a backup
    c = run_script("cleanup", "-w", folder, env={"MEMORY_MANAGER_NOW": "2027-01-05T12:00:00+00:00"})
    assert c.code == 0, c.err
    assert SHOWN not in c.out + c.err
    line = next(x for x in c.out.splitlines() if "--restore" in x)
    assert line.endswith("(the workspace folder is masked here: run it with the same -w / "
                         "OPENCLAW_WORKSPACE_DIR as this run)"), line
