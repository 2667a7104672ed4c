"""Fault round 16 (fault16): an ``init`` that applies its plan records the key file it finds unrecorded.

fatk11 (finding 1): init killed after its key file was in place and before the key was recorded
left the key unrecorded; the re-run made no key and recorded none, and another
``MEMORY_MANAGER_KEY`` then took the store. Now init records the key file when the store records no
key, nothing here is sealed, and ``MEMORY_MANAGER_KEY`` is unset or the same key
(``tiers.unrecorded_key_file``). The variants: the same key in the environment, another key in the
environment (it wins over the file, as for an uninterrupted init in that shell: nothing is
recorded, the first key that seals is the store's), and a key file made by ``crypt.py keygen``
before the workspace was set up.
"""
from __future__ import annotations

import base64
from pathlib import Path

from tests.faults.harness import run_forked
from tests.faults.test_fault_r15_quick import K2, NOW, _key_file, _steps

ARGS = ["--yes", "--no-hooks", "--lang", "en"]
REMEMBER = ["remember", "--skill", "s", "--topic", "a", "--text", "alpha fact one"]


def _killed_after_the_key(tmp_path: Path) -> tuple[Path, dict]:
    """A workspace whose init was killed right after its key file was linked into place."""
    env = dict(NOW, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / "MEMORY.md").write_text("Prefers tea.\n", encoding="utf-8")
    labels = _steps("init", ARGS, ref, dict(env, XDG_CONFIG_HOME=str(tmp_path / "cfg-ref")), tmp_path / "steps.log")
    step = next(n for n, label in enumerate(labels, 1) if label.startswith("link ") and label.endswith("/key")) + 1
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text("Prefers tea.\n", encoding="utf-8")
    assert run_forked("init", [*ARGS, "-w", str(ws)], dict(env, MEMORY_MANAGER_CRASH_AT=str(step))) == -9
    assert _key_file(tmp_path).is_file() and not (ws / "memory/.state/t2-key-accepted").exists()
    return ws, env


def _file_key(tmp_path: Path) -> str:
    return _key_file(tmp_path).read_text(encoding="ascii").strip()


def test_the_rerun_with_the_same_key_in_the_environment_records_it(tmp_path):
    from memory_manager import tiers

    ws, env = _killed_after_the_key(tmp_path)
    key = _file_key(tmp_path)
    assert run_forked("init", [*ARGS, "-w", str(ws)], dict(env, MEMORY_MANAGER_KEY=key)) == 0
    assert tiers.recorded_key(ws) == tiers.key_check(base64.b64decode(key))
    assert run_forked("memory", [*REMEMBER, "-w", str(ws)], dict(env, MEMORY_MANAGER_KEY=K2)) == 1


def test_the_rerun_with_another_key_in_the_environment_records_neither(tmp_path):
    from memory_manager import tiers

    ws, env = _killed_after_the_key(tmp_path)
    assert run_forked("init", [*ARGS, "-w", str(ws)], dict(env, MEMORY_MANAGER_KEY=K2)) == 0
    # As an uninterrupted init in that shell: no key made, none recorded; the key that seals first is the store's.
    assert tiers.recorded_key(ws) is None
    assert run_forked("memory", [*REMEMBER, "-w", str(ws)], dict(env, MEMORY_MANAGER_KEY=K2)) == 0
    assert tiers.recorded_key(ws) == tiers.key_check(base64.b64decode(K2))


def test_init_records_a_key_file_keygen_made_before_the_workspace_was_set_up(tmp_path):
    from memory_manager import tiers

    env = dict(NOW, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    ws = tmp_path / "ws"
    ws.mkdir()
    assert run_forked("crypt", ["keygen", "-w", str(ws)], env) == 0
    assert not (ws / "memory").exists()  # no memory tree: keygen had nowhere to record the key
    assert run_forked("init", [*ARGS, "-w", str(ws)], env) == 0
    assert tiers.recorded_key(ws) == tiers.key_check(base64.b64decode(_file_key(tmp_path)))
    assert run_forked("memory", [*REMEMBER, "-w", str(ws)], dict(env, MEMORY_MANAGER_KEY=K2)) == 1
