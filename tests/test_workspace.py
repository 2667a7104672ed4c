import json

import pytest

from memory_manager.errors import WorkspaceError
from memory_manager.workspace import ensure_inside, resolve_workspace, state_dir


def test_order_of_rules(tmp_path):
    a, b, c = (tmp_path / n for n in "abc")
    for p in (a, b, c):
        p.mkdir()
    env = {"HOME": str(tmp_path), "OPENCLAW_WORKSPACE_DIR": str(c)}
    assert resolve_workspace(a, {"workspaceDir": str(b)}, env).rule == "--workspace"
    assert resolve_workspace(None, {"workspaceDir": str(b)}, env).path == b
    assert resolve_workspace(None, {"context": {"workspaceDir": str(b)}}, env).rule == "hook event workspaceDir"
    assert resolve_workspace(None, None, env).rule == "OPENCLAW_WORKSPACE_DIR"


def test_openclaw_config_rules(tmp_path):
    state = tmp_path / ".openclaw"
    state.mkdir()
    (tmp_path / "w1").mkdir()
    (tmp_path / "w2").mkdir()
    cfg = {"agents": {"defaults": {"workspace": str(tmp_path / "w1")},
                      "entries": {"ops": {"workspace": str(tmp_path / "w2")}}}}
    (state / "openclaw.json").write_text(json.dumps(cfg))
    env = {"HOME": str(tmp_path)}
    assert resolve_workspace(env=env).path == tmp_path / "w1"
    got = resolve_workspace(env=env, agent="ops")
    assert (got.path, got.rule) == (tmp_path / "w2", "openclaw config agents.entries.ops.workspace")


def test_json5_config_and_profile(tmp_path):
    state = tmp_path / ".openclaw-work"
    state.mkdir()
    (tmp_path / "wx").mkdir()
    (state / "openclaw.json").write_text("// comment\n{agents: {defaults: {workspace: '~/wx',},},}\n")
    env = {"HOME": str(tmp_path), "OPENCLAW_PROFILE": "work"}
    assert state_dir(env) == state
    assert resolve_workspace(env=env).path == tmp_path / "wx"


def test_fallback_state_workspace(tmp_path):
    env = {"HOME": str(tmp_path), "OPENCLAW_STATE_DIR": str(tmp_path / "st")}
    got = resolve_workspace(env=env, must_exist=False)
    assert (got.path, got.rule) == (tmp_path / "st" / "workspace", "<state dir>/workspace")
    with pytest.raises(WorkspaceError, match="does not exist"):
        resolve_workspace(env=env)


def test_ensure_inside_rejects_symlink_escape(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "link").symlink_to(tmp_path)
    with pytest.raises(WorkspaceError):
        ensure_inside(root, root / "link" / "x")
    assert ensure_inside(root, root / "a" / "b") == root / "a" / "b"
