"""scripts/init.py on real workspaces (copies of ../shared/workspaces) and on fixtures of our own."""
from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, SHARED, tree_hash

# Our own workspaces with the structure of OpenClaw's (tests/fixtures/make_workspaces.py).
WS_OLD = FIXTURES / "workspaces" / "openclaw-2026.1.29"
WS_NEW = FIXTURES / "workspaces" / "openclaw-2026.9.6"
WS_OLD_BOM_CRLF = FIXTURES / "workspaces" / "openclaw-2026.1.29-bom-crlf"
# The workspaces a real OpenClaw wrote, when a local copy sits beside the repository.
REAL_OLD = SHARED / "workspaces" / "openclaw-2026.1.29"
REAL_NEW = SHARED / "workspaces" / "openclaw-2026.9.6"


def user_tree(ws: Path) -> dict[str, str]:
    """The workspace tree without our private backup folder."""
    return {k: v for k, v in tree_hash(ws).items() if not k.startswith(".memory-backup")}


def copy_ws(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, dirs_exist_ok=True)
    for path in [dest, *dest.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return dest


def headings(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith("#") and not line.startswith("#!")]


def test_old_workspace_moves_heartbeat_with_subsections(ws, run_script):
    copy_ws(WS_OLD, ws)
    original = (ws / "AGENTS.md").read_text()
    heartbeat_before = (ws / "HEARTBEAT.md").read_text()
    # An old layout (HEARTBEAT.md "leave this file empty") moves only when asked (walk-through r3, item 5).
    result = run_script("init", "--yes", "--json", "--heartbeat-move")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert doc["applied"] is True and doc["plan"]["moved_sections"] == ["Heartbeats - Check In Often!"]
    agents = (ws / "AGENTS.md").read_text()
    heartbeat = (ws / "HEARTBEAT.md").read_text()
    moved = ["## 💓 Heartbeats - Check In Often!", "### Heartbeat or Cron: Choosing One",
             "### 🔄 Memory Upkeep (During Heartbeats)"]
    for heading in moved:
        assert heading in heartbeat and heading not in agents
    # Existing HEARTBEAT.md content kept, in front.
    assert heartbeat.startswith(heartbeat_before.rstrip("\n"))
    # Every other heading of AGENTS.md is still there, in order.
    kept = [h for h in headings(original) if h not in moved and h not in ("#### ",)]
    remaining = [h for h in headings(agents) if "complex-memory-manager" not in h and "记忆系统" not in h]
    assert remaining == kept
    assert "<!-- complex-memory-manager:begin v1 -->" in agents
    for rel in ("memory/daily", "memory/knowledge", "memory/tier1-public", "memory/tier2-internal", "memory/archive"):
        assert (ws / rel).is_dir()
    assert (ws / "memory/daily-index.md").read_text() == "# 记忆索引\n"
    assert (ws / "memory/knowledge-index.md").read_text() == "# 知识库索引\n"
    # init --yes made the AES key, so T2 is encrypted for real and may be committed
    assert "memory/tier2-internal/" not in (ws / ".gitignore").read_text()
    # The moved text is byte-for-byte what AGENTS.md had.
    start = original.index("## 💓 Heartbeats")
    end = original.index("## Make It Your Own")
    assert original[start:end].rstrip("\n") in heartbeat


def test_second_run_is_a_noop_without_backup(ws, run_script):
    copy_ws(WS_OLD, ws)
    assert run_script("init", "--yes").code == 0
    before = tree_hash(ws)
    backups_before = sorted(p.name for p in (ws / ".memory-backup").iterdir() if p.is_dir())
    result = run_script("init", "--yes", "--json")
    assert result.code == 0
    assert json.loads(result.out)["applied"] is False
    assert tree_hash(ws) == before
    assert sorted(p.name for p in (ws / ".memory-backup").iterdir() if p.is_dir()) == backups_before


def test_restore_gives_back_original_bytes(ws, run_script, t2_key):
    copy_ws(WS_OLD, ws)
    original = user_tree(ws)
    assert run_script("init", "--yes").code == 0
    assert user_tree(ws) != original
    result = run_script("init", "--restore", "--json")
    assert result.code == 0, result.err
    assert user_tree(ws) == original
    listed = json.loads(run_script("init", "--list-backups", "--json").out)["backups"]
    assert [b["reason"] for b in listed] == ["init", f"restore {listed[0]['id']}"]


@pytest.mark.parametrize("src", [
    WS_OLD, WS_NEW, WS_OLD_BOM_CRLF,
    pytest.param(REAL_OLD, marks=pytest.mark.external(REAL_OLD, reason="a workspace OpenClaw 2026.1.29 wrote")),
    pytest.param(REAL_NEW, marks=pytest.mark.external(REAL_NEW, reason="a workspace OpenClaw 2026.9.6 wrote"))],
    ids=["2026.1.29", "2026.9.6", "2026.1.29-bom-crlf", "real-2026.1.29", "real-2026.9.6"])
def test_dry_run_leaves_tree_unchanged(ws, run_script, src):
    copy_ws(src, ws)
    before = tree_hash(ws)
    result = run_script("init", "--dry-run", "--diff")
    assert result.code == 0, result.err
    assert "+++ b/AGENTS.md" in result.out and "mkdir memory/daily/" in result.out
    assert tree_hash(ws) == before


def test_new_workspace_moves_nothing_and_keeps_automations(ws, run_script):
    copy_ws(WS_NEW, ws)
    original = (ws / "AGENTS.md").read_text()
    result = run_script("init", "--yes", "--json")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert doc["plan"]["moved_sections"] == []
    assert not (ws / "HEARTBEAT.md").exists()
    agents = (ws / "AGENTS.md").read_text()
    assert "## Automations - Run Things Yourself" in agents
    remaining = [h for h in headings(agents) if "记忆系统" not in h]
    assert remaining == headings(original)
    # The block sits right after OpenClaw's own Memory section, before the next one.
    assert agents.index("### Memory Upkeep") < agents.index("complex-memory-manager:begin") < agents.index("## Hard Limits")
    # Only the block was added: removing it gives the original back.
    start = agents.index("<!-- complex-memory-manager:begin")
    end = agents.index("<!-- complex-memory-manager:end -->") + len("<!-- complex-memory-manager:end -->\n\n")
    assert agents[:start] + agents[end:] == original
    assert run_script("init", "--yes", "--json").code == 0
    assert json.loads(run_script("init", "--yes", "--json").out)["applied"] is False


def test_bom_crlf_workspace_keeps_its_style_and_moves_the_heartbeat(ws, run_script):
    copy_ws(WS_OLD_BOM_CRLF, ws)
    assert run_script("init", "--yes", "--lang", "en", "--heartbeat-move").code == 0
    agents = (ws / "AGENTS.md").read_bytes()
    assert agents.startswith(b"\xef\xbb\xbf# AGENTS.md - Your Workspace\r\n")
    assert b"\n" not in agents.replace(b"\r\n", b"") and "💓".encode() not in agents
    heartbeat = (ws / "HEARTBEAT.md").read_bytes()
    assert heartbeat.startswith(b"\xef\xbb\xbf# HEARTBEAT.md\r\n") and "## 💓 Heartbeats".encode() in heartbeat
    assert b"\n" not in heartbeat.replace(b"\r\n", b"")


def test_crlf_and_bom_are_kept(ws, run_script):
    text = "# AGENTS\r\n\r\n## Memory\r\n\r\n- Keep notes.\r\n\r\n## Heartbeat\r\n\r\n- Check mail.\r\n\r\n## Tools\r\n\r\n- Use trash.\r\n"
    (ws / "AGENTS.md").write_bytes(b"\xef\xbb\xbf" + text.encode())
    (ws / "MEMORY.md").write_bytes("# Memory\r\n\r\n- 我喜欢简洁的回答\r\n".encode())
    assert run_script("init", "--yes", "--lang", "en").code == 0
    agents = (ws / "AGENTS.md").read_bytes()
    assert agents.startswith(b"\xef\xbb\xbf")
    assert b"\n" not in agents.replace(b"\r\n", b"")
    assert b"## Heartbeat" not in agents and b"## Tools\r\n\r\n- Use trash.\r\n" in agents
    heartbeat = (ws / "HEARTBEAT.md").read_bytes()
    assert heartbeat.endswith(b"## Heartbeat\n\n- Check mail.\n")
    memory = (ws / "MEMORY.md").read_bytes()
    assert b"\n" not in memory.replace(b"\r\n", b"")
    assert "## Kept from the previous MEMORY.md\r\n\r\n# Memory\r\n\r\n- 我喜欢简洁的回答\r\n".encode() in memory
    assert run_script("init", "--yes", "--lang", "en", "--json").out.count('"applied": false') == 1


def test_duplicate_rules_removed_without_rewording(ws, run_script):
    text = ("# AGENTS\n\n## Safety\n\n- Don't run destructive commands without asking.\n- When in doubt, ask.\n\n"
            "## Extra\n\n-   Don't run destructive commands   without asking.\n- A different rule.\n\n"
            "```\n- When in doubt, ask.\n```\n")
    (ws / "AGENTS.md").write_text(text)
    result = run_script("init", "--yes", "--json", "--lang", "en")
    assert json.loads(result.out)["plan"]["removed_duplicates"] == ["-   Don't run destructive commands   without asking."]
    agents = (ws / "AGENTS.md").read_text()
    assert agents.startswith("# AGENTS\n\n## Safety\n\n- Don't run destructive commands without asking.\n"
                             "- When in doubt, ask.\n\n## Extra\n\n- A different rule.\n\n```\n- When in doubt, ask.\n```\n")


def test_chinese_heartbeat_heading(ws, run_script):
    (ws / "AGENTS.md").write_text("# 工作区\n\n## 记忆\n\n- 每天记笔记。\n\n## 心跳检查\n\n- 检查邮件。\n\n### 心跳频率\n\n- 每30分钟。\n\n## 安全\n\n- 不泄露隐私。\n")
    assert run_script("init", "--yes").code == 0
    agents = (ws / "AGENTS.md").read_text()
    heartbeat = (ws / "HEARTBEAT.md").read_text()
    assert "## 心跳检查" not in agents and "### 心跳频率" not in agents and "## 安全" in agents
    assert heartbeat.startswith("# HEARTBEAT.md\n")
    assert heartbeat.endswith("## 心跳检查\n\n- 检查邮件。\n\n### 心跳频率\n\n- 每30分钟。\n")
    assert agents.index("## 记忆") < agents.index("complex-memory-manager:begin") < agents.index("## 安全")


def test_no_heartbeat_move_keeps_section(ws, run_script):
    (ws / "AGENTS.md").write_text("# A\n\n## Heartbeat\n\n- ping\n")
    assert run_script("init", "--yes", "--no-heartbeat-move").code == 0
    assert "## Heartbeat\n\n- ping\n" in (ws / "AGENTS.md").read_text()
    assert not (ws / "HEARTBEAT.md").exists()


def test_old_openclaw_version_warns_about_heartbeat_turns(ws, run_script, tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "openclaw"
    fake.write_text("#!/bin/sh\necho 2026.5.2\n")
    fake.chmod(0o755)
    (ws / "AGENTS.md").write_text("# A\n\n## Heartbeat\n\n- ping\n")
    result = run_script("init", "--dry-run", "--json", "--heartbeat-move",
                        env={"PATH": f"{bindir}:{os.environ['PATH']}"})
    notes = json.loads(result.out)["plan"]["notes"]
    assert len(notes) == 1 and "before 2026.8" in notes[0] and "--no-heartbeat-move" in notes[0]
    fake.write_text("#!/bin/sh\necho 'OpenClaw 2026.9.6'\n")
    result = run_script("init", "--dry-run", "--json", env={"PATH": f"{bindir}:{os.environ['PATH']}"})
    assert "openclaw doctor --fix" in json.loads(result.out)["plan"]["notes"][0]


def _limited(limit: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def _sizes_of_a_good_run(tmp_path, files: dict[str, str], args: list[str]) -> tuple[int, int]:
    """(largest backup file written, largest new workspace file) for a successful init on a copy."""
    probe = tmp_path / "probe"
    probe.mkdir()
    for name, text in files.items():
        (probe / name).write_text(text)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "init.py"), "-w", str(probe), "--yes", *args],
                   check=True, capture_output=True)
    backup_sizes = [p.stat().st_size for p in (probe / ".memory-backup").rglob("*") if p.is_file()]
    new_sizes = [p.stat().st_size for p in probe.rglob("*")
                 if p.is_file() and ".memory-backup" not in p.parts and p.name not in files]
    changed = [(probe / n).stat().st_size for n in files]
    return max(backup_sizes), max(new_sizes + changed)


@pytest.mark.parametrize("args", [[], ["--no-hooks"]], ids=["with-hooks", "no-hooks"])
@pytest.mark.parametrize("where", ["backup", "staging"])
def test_failing_write_leaves_originals_identical(ws, tmp_path, args, where):
    # The long rule keeps the new AGENTS.md bigger than the backup's manifest.
    files = {"AGENTS.md": "# A\n\n## Heartbeat\n\n- ping\n\n## Rules\n\n- Be kind" + ", and patient" * 30 + ".\n",
             "MEMORY.md": "- keep me\n"}
    for name, text in files.items():
        (ws / name).write_text(text)
    biggest_backup, biggest_new = _sizes_of_a_good_run(tmp_path, files, args)
    assert biggest_new > biggest_backup  # so a limit between the two fails while staging
    # RLIMIT_FSIZE makes any write past the limit fail with EFBIG (tests run as root,
    # so permissions cannot provoke a failing write).
    limit = 200 if where == "backup" else biggest_backup + 1
    before = user_tree(ws)
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "init.py"), "--yes", *args], capture_output=True,
                          text=True, preexec_fn=_limited(limit))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("error: ")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert ("backup" in proc.stderr and "nothing was changed" in proc.stderr) == (where == "backup")
    assert user_tree(ws) == before
    assert not [p for p in (ws / ".memory-backup").iterdir() if p.is_dir()]


def test_symlinked_agents_out_of_workspace_refused(ws, run_script, tmp_path):
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# not yours\n")
    (ws / "AGENTS.md").symlink_to(outside)
    before = user_tree(ws)
    result = run_script("init", "--yes")
    assert result.code == 2
    assert result.err.startswith("error: AGENTS.md is a symlink") and "Traceback" not in result.err
    assert outside.read_text() == "# not yours\n" and user_tree(ws) == before


def test_symlink_inside_workspace_edits_target(ws, run_script):
    (ws / "rules").mkdir()
    (ws / "rules" / "agents.md").write_text("# A\n")
    (ws / "AGENTS.md").symlink_to("rules/agents.md")
    assert run_script("init", "--yes").code == 0
    assert (ws / "AGENTS.md").is_symlink()
    assert "complex-memory-manager:begin" in (ws / "rules" / "agents.md").read_text()


@pytest.mark.parametrize("case", ["missing", "file", "latin1", "badconfig"])
def test_bad_input_exit_2_nothing_changed(ws, run_script, tmp_path, case):
    args = ["--yes"]
    if case == "missing":
        args += ["--workspace", str(tmp_path / "nope")]
    elif case == "file":
        (tmp_path / "afile").write_text("x")
        args += ["--workspace", str(tmp_path / "afile")]
    elif case == "latin1":
        (ws / "AGENTS.md").write_bytes("# Caf\xe9\n".encode("latin-1"))
    else:
        (ws / "memory").mkdir()
        (ws / "memory" / "memory-manager.json").write_text('{"gate": {"mode": "loose"}}')
    before = tree_hash(tmp_path)
    result = run_script("init", *args)
    assert result.code == 2, result.err
    assert result.err.startswith("error: ") and len(result.err.strip().splitlines()) == 1
    assert tree_hash(tmp_path) == before


def test_non_interactive_without_yes_refuses(ws, run_script):
    (ws / "AGENTS.md").write_text("# A\n")
    result = run_script("init", input="")
    assert result.code == 2 and "--yes" in result.err
    assert (ws / "AGENTS.md").read_text() == "# A\n"


def test_empty_workspace_gets_everything(ws, run_script):
    result = run_script("init", "--yes", "--lang", "en", "--json")
    assert result.code == 0, result.err
    assert (ws / "AGENTS.md").read_text().startswith("# AGENTS.md - Your Workspace\n\n<!-- complex-memory-manager:begin v1 -->\n## Memory System")
    assert (ws / "memory/daily-index.md").read_text() == "# Memory Index\n"
    assert (ws / "MEMORY.md").read_text().startswith("# MEMORY.md - Lessons and Experience\n")


def test_existing_memory_md_lines_all_kept(ws, run_script):
    original = "# My memory\n\n- Project X uses Postgres 16\n- 喜欢早上的简报\n\nSome paragraph.\n"
    (ws / "MEMORY.md").write_text(original)
    assert run_script("init", "--yes").code == 0
    text = (ws / "MEMORY.md").read_text()
    assert text.endswith("## 原 MEMORY.md 内容（init 前保留）\n\n" + original)
    for line in original.splitlines():
        assert line in text.splitlines()


def test_version_flag(run_script):
    result = run_script("init", "--version")
    assert result.code == 0 and "complex-memory-manager, version 0.1.0" in result.out


def test_bootstrap_limit_warning(ws, run_script):
    (ws / "AGENTS.md").write_text("# A\n\n" + "".join(f"- rule number {n} is here\n" for n in range(1000)))
    result = run_script("init", "--yes", "--json")
    size = len((ws / "AGENTS.md").read_text())
    assert size > 20_000
    assert json.loads(result.out)["plan"]["warnings"] == [
        f"AGENTS.md has {size:,} characters: OpenClaw 2026.9.6 loads only the first 20,000 of each "
        "bootstrap file; shorten it."]


def test_agents_md_that_is_a_folder_is_bad_input(ws, run_script):
    (ws / "AGENTS.md").mkdir()
    result = run_script("init", "--yes")
    assert result.code == 2 and result.err == "error: AGENTS.md is a folder, expected a file\n"


def test_missing_dependencies_print_the_install_command(ws):
    # -S: no site-packages, so none of the requirements can be imported.
    # MEMORY_MANAGER_NO_VENV: do not switch to the bundle's own .venv (which has them).
    proc = subprocess.run([sys.executable, "-S", str(ROOT / "scripts" / "init.py"), "--yes"],
                          capture_output=True, text=True, env=dict(os.environ, MEMORY_MANAGER_NO_VENV="1"))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: missing Python packages: click, rich, PyYAML")
    assert proc.stderr.rstrip().endswith(f"-m pip install -r {ROOT / 'requirements.txt'}") or \
        proc.stderr.rstrip().endswith(f"-m pip install --user -r {ROOT / 'requirements.txt'}")
    assert not (ws / "AGENTS.md").exists()


def test_gitignore_follows_the_scheme(ws, run_script):
    assert run_script("init", "--yes", "--no-key").code == 0
    assert "memory/tier2-internal/" in (ws / ".gitignore").read_text()
    key = __import__("base64").b64encode(bytes(range(32))).decode()
    result = run_script("init", "--yes", "--json", env={"MEMORY_MANAGER_KEY": key})
    assert json.loads(result.out)["plan"]["changes"] == [{"path": ".gitignore", "action": "update", "reason": "ignore rules"}]
    assert "memory/tier2-internal/" not in (ws / ".gitignore").read_text()


HOOKS = ["memory-manager-bootstrap", "memory-manager-gateway-startup", "memory-manager-post-response",
         "memory-manager-session-end"]


def _fake_openclaw(tmp_path) -> dict:
    """An `openclaw` on PATH that logs its arguments and lists no hooks."""
    bindir = tmp_path / "fakebin"
    bindir.mkdir()
    log = tmp_path / "openclaw.log"
    fake = bindir / "openclaw"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {log}\n'
                    'if [ "$1 $2" = "hooks list" ]; then echo \'{"hooks": []}\'; fi\n'
                    'if [ "$1" = "--version" ]; then echo 2026.9.6; fi\nexit 0\n')
    fake.chmod(0o755)
    return {"PATH": f"{bindir}:{os.environ['PATH']}", "log": log}


def test_init_installs_and_enables_hooks(ws, run_script, tmp_path):
    fake = _fake_openclaw(tmp_path)
    result = run_script("init", "--yes", "--json", env={"PATH": fake["PATH"]})
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    installed = sorted(p.relative_to(ws).as_posix() for p in (ws / "hooks").rglob("*") if p.is_file())
    assert installed == sorted(f"hooks/{h}/{f}" for h in HOOKS for f in ("HOOK.md", "bundle-path.json", "handler.js"))
    assert (ws / "hooks" / HOOKS[0] / "handler.js").read_bytes() == (ROOT / "hooks" / HOOKS[0] / "handler.js").read_bytes()
    assert json.loads((ws / "hooks" / HOOKS[0] / "bundle-path.json").read_text())["bundle"] == str(ROOT)
    assert doc["plan"]["hooks"]["ran"] is True
    calls = fake["log"].read_text().splitlines()
    # One listing and one config write (issue 14: not one ~10 s `hooks enable` per hook),
    # then one patch that enables the plugin (its file is gone once the call returns).
    assert calls[:2] == ["hooks list --json", "config set hooks.internal " + json.dumps(
        {"enabled": True, "entries": {h: {"enabled": True} for h in HOOKS}}) + " --strict-json"]
    assert len(calls) == 3 and calls[2].startswith("config patch --file ")
    assert not os.path.exists(calls[2].split()[-1])
    assert doc["plan"]["plugin"]["commands"] == ["openclaw config patch '" + json.dumps({"plugins": {"entries": {
        "complex-memory-manager": {"enabled": True, "hooks": {"allowConversationAccess": True}}}}}) + "'"]
    plugin = ws / ".openclaw" / "extensions" / "complex-memory-manager"
    assert sorted(p.name for p in plugin.iterdir()) == ["bundle-path.json", "index.js", "openclaw.plugin.json",
                                                         "package.json"]
    assert (plugin / "index.js").read_bytes() == (ROOT / "plugin" / "index.js").read_bytes()
    # Nothing left to do: a second run neither writes nor calls openclaw again.
    fake["log"].unlink()
    assert json.loads(run_script("init", "--yes", "--json", env={"PATH": fake["PATH"]}).out)["applied"] is False
    assert not fake["log"].exists()


def test_init_yes_prints_the_plan_then_each_step(ws, run_script, tmp_path):
    fake = _fake_openclaw(tmp_path)
    result = run_script("init", "--yes", env={"PATH": fake["PATH"], "LANG": "en_US.UTF-8"})
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == f"init {ws}: language en (locale (LANG); change it with --lang zh|en)"
    assert lines[1] == "planning …" and lines[2].startswith("✓ planning (")
    order = [next(i for i, line in enumerate(lines) if line.startswith(prefix)) for prefix in (
        "init plan for", "backing up and writing 22 files, 14 folders …", "✓ backing up and writing",
        "enabling the hooks and the plugin in OpenClaw (2 config calls; about 30 s) …",
        "✓ enabling the hooks and the plugin in OpenClaw",
        "note: Restart the OpenClaw Gateway", "done. Backup ")]
    assert order == sorted(order)


def test_first_line_on_a_terminal_comes_at_once(ws, tmp_path):
    """On a pseudo-terminal the first line arrives while openclaw (slow: 3 s a call here) still runs."""
    import pty
    import time

    bindir = tmp_path / "slowbin"
    bindir.mkdir()
    (bindir / "openclaw").write_text('#!/bin/sh\nsleep 3\n[ "$1" = "--version" ] && echo 2026.9.6\n'
                                     '[ "$1 $2" = "hooks list" ] && echo \'{"hooks": []}\'\nexit 0\n')
    (bindir / "openclaw").chmod(0o755)
    (ws / "AGENTS.md").write_text("# A\n\n## Heartbeat\n\n- ping\n")  # a move: planning asks the version
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}", COLUMNS="200")
    pid, fd = pty.fork()
    if pid == 0:  # the child: init on the terminal
        os.execve(sys.executable, [sys.executable, str(ROOT / "scripts" / "init.py"), "--yes"], env)
    started, out, first_at = time.monotonic(), b"", None
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
        if first_at is None and b"\n" in out:
            first_at = time.monotonic() - started
    _, status = os.waitpid(pid, 0)
    total = time.monotonic() - started
    assert os.waitstatus_to_exitcode(status) == 0, out.decode(errors="replace")[-2000:]
    assert out.decode().startswith(f"init {ws}: language zh")
    assert total > 9 and first_at < total - 8  # three slow openclaw calls came after the first line
    assert "✓ enabling the hooks and the plugin in OpenClaw" in out.decode()


def test_without_openclaw_the_commands_are_printed(ws, run_script):
    result = run_script("init", "--yes", env={"PATH": "/usr/bin:/bin"})
    assert result.code == 0, result.err
    assert "note: openclaw is not on PATH; run these commands yourself:" in result.out
    for hook in HOOKS:
        assert f"  openclaw hooks enable {hook}" in result.out
    assert "  openclaw plugins enable complex-memory-manager" in result.out


def test_uninstall_hooks_and_no_hooks(ws, run_script):
    assert run_script("init", "--yes", "--no-hooks").code == 0
    assert not (ws / "hooks").exists()
    assert run_script("init", "--yes").code == 0
    assert (ws / "hooks").is_dir()
    (ws / "hooks" / HOOKS[0] / "my-notes.txt").write_text("mine")
    result = run_script("init", "--uninstall-hooks", "--json", env={"PATH": "/usr/bin:/bin"})
    doc = json.loads(result.out)
    assert result.code == 0 and len(doc["hooks"]["changed"]) == 12 and doc["backup"]
    assert len(doc["plugin"]["changed"]) == 4 and not (ws / ".openclaw").exists()
    assert [p.relative_to(ws).as_posix() for p in (ws / "hooks").rglob("*")] == [
        f"hooks/{HOOKS[0]}", f"hooks/{HOOKS[0]}/my-notes.txt"]
    again = json.loads(run_script("init", "--uninstall-hooks", "--json").out)
    assert again["backup"] is None and again["hooks"]["changed"] == [] and again["plugin"]["changed"] == []
    assert run_script("init", "--yes", "--no-plugin").code == 0
    assert (ws / "hooks" / HOOKS[1]).is_dir() and not (ws / ".openclaw").exists()


def test_missing_dependencies_json(ws):
    proc = subprocess.run([sys.executable, "-S", str(ROOT / "scripts" / "memory.py"), "status", "--json"],
                          capture_output=True, text=True, env=dict(os.environ, MEMORY_MANAGER_NO_VENV="1"))
    doc = json.loads(proc.stdout)
    assert proc.returncode == 2 and doc["kind"] == "missing_dependencies"
    assert doc["error"].startswith("missing Python packages: click, rich, PyYAML")


def test_symlink_loop_is_a_one_line_error(ws, run_script):
    (ws / "memory").symlink_to("memory")
    result = run_script("init", "--yes")
    assert result.code in (1, 2) and "Traceback" not in result.err
    assert result.err.startswith("error: ") and len(result.err.strip().splitlines()) == 1
    assert sorted(p.name for p in ws.iterdir()) == ["memory"]


def test_restore_dry_run_changes_nothing(ws, run_script):
    (ws / "AGENTS.md").write_text("# A\n\n## Heartbeat\n\n- ping\n")
    assert run_script("init", "--yes", "--no-hooks").code == 0
    before = tree_hash(ws)
    result = run_script("init", "--restore", "--dry-run", "--json")
    assert result.code == 0 and tree_hash(ws) == before
    doc = json.loads(result.out)
    assert doc["dry_run"] is True
    assert "restore AGENTS.md" in doc["paths"] and "remove HEARTBEAT.md" in doc["paths"]
    assert "remove if empty memory/daily/" in doc["paths"]


def test_undo_hint_works_when_copied(ws, run_script):
    (ws / "AGENTS.md").write_text("# A\n")
    out = run_script("init", "--yes", "--no-hooks").out
    hint = out[out.index("undo with `") + len("undo with `"):].split("`")[0]
    assert hint.startswith(f"{sys.executable} {ROOT / 'scripts' / 'init.py'} -w {ws} --restore ")


def test_explicit_language_is_remembered(ws, run_script):
    assert run_script("init", "--yes", "--lang", "en", "--no-hooks").code == 0
    assert json.loads((ws / "memory" / "memory-manager.json").read_text()) == {"language": "en"}
    assert json.loads(run_script("init", "--yes", "--json", "--no-hooks").out)["applied"] is False
    assert "## Memory System (complex-memory-manager)" in (ws / "AGENTS.md").read_text()
    result = run_script("memory", "write", "--topic", "Deploys", "--change", "moved to Fridays")
    assert result.code == 0, result.err
    assert "- Change: moved to Fridays" in (ws / "memory" / "daily").joinpath(
        next(p.name for p in (ws / "memory" / "daily").iterdir())).read_text()


def test_t2_stays_ignored_while_xor_entries_remain(ws, run_script, tmp_path):
    assert run_script("init", "--yes", "--no-hooks", "--no-key").code == 0
    assert run_script("memory", "remember", "--skill", "news", "--topic", "layout",
                      "--text", "Prefers short summaries.").code == 0
    key = __import__("base64").b64encode(bytes(range(32))).decode()
    result = run_script("init", "--yes", "--json", "--no-hooks", env={"MEMORY_MANAGER_KEY": key})
    assert json.loads(result.out)["applied"] is False
    assert "memory/tier2-internal/" in (ws / ".gitignore").read_text()


def test_unknown_openclaw_version_names_both_consequences(ws, run_script):
    (ws / "AGENTS.md").write_text("# A\n\n## Heartbeat\n\n- ping\n")
    notes = json.loads(run_script("init", "--dry-run", "--json", env={"PATH": "/usr/bin:/bin"}).out)["plan"]["notes"]
    assert notes[0].startswith("OpenClaw cannot be asked for its version. HEARTBEAT.md now has real content")
    assert "--no-heartbeat-move" in notes[0] and "openclaw doctor --fix" in notes[1]
