"""crypt.py keygen --force killed at every step: the store ends with a key that exists (tatk20 9).

keygen --force records the new key (the store's key record in the workspace and this machine's
note in the config folder) before it links the key file. Killed in between, the store named a key
that existed nowhere and refused its real key for good. Now a marker beside the note
(``stores/<name>.keygen.json``) lets readers and the next writer put the record and the note back
unless the key file holds the new key. Each case kills keygen at one step, then checks with the
key the store should have: the old one when the new one never reached its file, else the new one.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.attack.trust_r4_common import NOW, _init

KEYDIR = "complex-memory-manager"


def _steps(run_script, tmp_path: Path) -> list[str]:
    """The labelled steps of one keygen --force (a probe run, undone afterwards)."""
    key = Path(os.environ["XDG_CONFIG_HOME"]) / KEYDIR / "key"
    key.rename(tmp_path / "key.probe")
    log = tmp_path / "steps.log"
    assert run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_STEP_LOG": str(log)}).code == 0
    labels = [line.split(" ", 1)[1] for line in log.read_text().splitlines()]
    log.unlink()
    return labels


def _store(run_script, tmp_path: Path) -> Path:
    _init(run_script)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "crane", "--text", "crane is red",
                   "--approved", env=NOW)
    assert r.code == 0, r.err
    return Path(os.environ["XDG_CONFIG_HOME"]) / KEYDIR / "key"


def test_keygen_force_has_the_steps_this_file_kills(ws, run_script, tmp_path):
    key = _store(run_script, tmp_path)
    labels = _steps(run_script, tmp_path)
    kinds = [label.split(" ", 1)[0] for label in labels]
    # the key staged, the marker, the record, the note, the link, the marker removed
    assert kinds == ["stage", "stage", "replace", "stage", "replace", "stage", "replace", "link", "unlink"], labels
    assert labels[7] == f"link {key}"
    assert labels[1].endswith(".keygen.json") and labels[8] == "unlink " + labels[1].split(" ", 1)[1]
    assert not list((key.parent / "stores").glob("*.keygen.json"))


@pytest.mark.parametrize("step", range(1, 10))
def test_keygen_force_killed_at_each_step_leaves_a_store_with_a_key_that_exists(ws, run_script, tmp_path, step):
    key = _store(run_script, tmp_path)
    key.rename(tmp_path / "key.old")  # the store's key is away; the user makes a new one on purpose
    k = run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(step)})
    assert k.code == -9, (k.out, k.err)
    linked = key.exists()
    assert linked == (step > 8), step  # killed at the link step (8) or before: no new key file
    if not linked:
        (tmp_path / "key.old").rename(key)  # the old key found again: it is still the store's key
    r = run_script("memory", "remember", "--skill", "s", "--topic", "wren", "--text", "wren sings", env=NOW)
    assert r.code == 0, r.err
    said = "rolled back an interrupted crypt.py keygen --force"
    assert (said in r.err) == (not linked and step >= 6), r.err  # the record was written (step 5 renames it)
    assert not list((key.parent / "stores").glob("*.keygen.json"))
    c = run_script("cleanup", env=NOW)
    assert c.code == 0 and "not this store's key" not in c.out + c.err, c.out + c.err
    d = run_script("doctor", "--no-openclaw", env=NOW)
    assert "does not match this machine's note" not in d.out, d.out
    # the entry made before keygen opens with the old key only, as promised: with the new key, it is
    # unreadable (the user was told); with the old key back, it reads
    rc = run_script("memory", "recall", "crane", "--approved", env=NOW)
    assert ("crane is red" in rc.out) == (not linked), rc.out + rc.err


def test_a_marker_is_read_before_the_lock_is_taken(ws, run_script, tmp_path):
    """A reader that checks the key before it takes the lock (remember does) already sees the old record."""
    key = _store(run_script, tmp_path)
    held = key.read_bytes()
    key.rename(tmp_path / "key.old")
    # killed at the link step (8, test_keygen_force_has_the_steps_this_file_kills)
    assert run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_CRASH_AT": "8"}).code == -9
    (tmp_path / "key.old").rename(key)
    assert key.read_bytes() == held
    st = run_script("memory", "status", env=NOW)
    assert st.code in (0, 1), st.err
    assert "not this store's key" not in st.out + st.err
    markers = list((key.parent / "stores").glob("*.keygen.json"))
    assert len(markers) == 1  # status only reads: the marker stays for the next writer
    assert run_script("memory", "remember", "--skill", "s", "--topic", "kite", "--text", "kite at noon",
                      env=NOW).code == 0
    assert not markers[0].exists()


def test_a_planted_marker_in_another_format_changes_nothing(ws, run_script, tmp_path):
    key = _store(run_script, tmp_path)
    note = next((key.parent / "stores").glob("*.json"))
    marker = note.with_name(note.name[:-len(".json")] + ".keygen.json")
    marker.write_text('{"format": "something-else", "version": 1}\n')
    r = run_script("memory", "remember", "--skill", "s", "--topic", "kite", "--text", "kite at noon", env=NOW)
    assert r.code == 0 and "keygen" not in r.err, r.err
    assert marker.read_text() == '{"format": "something-else", "version": 1}\n'
