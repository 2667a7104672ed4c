"""Attack: paths that come from data (issue 10, "Paths that come from data").

Rule: every path built from data is resolved and must stay inside the workspace;
a symlink planted in memory/ (an archive month folder, .state, .cache, a note) or in
.memory-backup must not make a command read or write outside.
"""
from __future__ import annotations

import hashlib
import json
import os

import pytest

NOW = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
SECRET = "OUTSIDE-SECRET-TEXT"


@pytest.fixture
def setup(ws, tmp_path, run_script):
    (ws / "AGENTS.md").write_text("# Rules\n", encoding="utf-8")
    assert run_script("init", "--yes", env=NOW).code == 0
    out = tmp_path / "outside"
    out.mkdir()
    (out / "secret.md").write_text(f"## [2026-11-29] Outside\n- 改：{SECRET}\n", encoding="utf-8")
    return ws, out


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _holds_secret(ws):
    return sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*")
                  if p.is_file() and not p.is_symlink() and SECRET.encode() in p.read_bytes())


def _link_dir(ws, rel, out):
    import shutil
    path = ws / rel
    if path.is_dir():
        shutil.rmtree(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(out, target_is_directory=True)


@pytest.mark.parametrize("args", [["memory", "write", "--topic", "T", "--change", "c"], ["cleanup"],
                                  ["privacy_audit"]])
def test_a_symlinked_state_folder_gets_no_writes_outside(setup, run_script, args):
    ws, out = setup
    _link_dir(ws, "memory/.state", out)
    before = _files(out)
    run_script(args[0], *args[1:], env=NOW)
    assert _files(out) == before


@pytest.mark.parametrize("args", [["memory", "recall", "release"], ["memory", "report"]])
def test_a_symlinked_cache_folder_gets_no_writes_outside(setup, run_script, args):
    ws, out = setup
    _link_dir(ws, "memory/.cache", out)
    before = _files(out)
    run_script(args[0], *args[1:], env=NOW)
    assert _files(out) == before


def test_cleanup_archives_nothing_into_a_symlinked_month_folder(setup, run_script):
    """cleanup warns 'symlink in the archive, left alone' and then moves expired T2 entries into it."""
    ws, out = setup
    t2 = ws / "memory/tier2-internal"
    for n in range(2):
        assert run_script("memory", "remember", "--skill", "news", "--topic", f"old{n}", "--text", f"habit {n}",
                          "--approved", env={"MEMORY_MANAGER_NOW": f"2026-09-0{3 + n}T12:00:00+00:00"}).code == 0
    assert len(list(t2.glob("news_old*.md"))) == 2
    _link_dir(ws, "memory/archive/2026-09", out)
    before = _files(out)
    run_script("cleanup", env=NOW)
    assert _files(out) == before


@pytest.mark.parametrize("rel", ["memory/daily/2026-11-29.md", "memory/knowledge/x.md"])
@pytest.mark.parametrize("args", [["memory", "export", "--approved"], ["memory", "report"]])
def test_a_symlinked_note_is_not_read_from_outside(setup, run_script, rel, args):
    ws, out = setup
    (ws / rel).symlink_to(out / "secret.md")
    r = run_script(args[0], *args[1:], env=NOW)
    assert SECRET not in r.out
    assert _holds_secret(ws) == []


def test_import_from_openclaw_reads_no_symlinked_note(setup, run_script):
    ws, out = setup
    (ws / "memory/2026-11-27.md").symlink_to(out / "secret.md")
    run_script("memory", "import", "--from-openclaw", "--approved", env=NOW)
    assert _holds_secret(ws) == []


def test_a_symlinked_backup_folder_gets_no_forgotten_text(setup, run_script):
    """.memory-backup planted as a symlink: forget writes the copy of the forgotten entry outside."""
    import shutil
    ws, out = setup
    assert run_script("memory", "learn", "deploy", "--text", "Never deploy on Fridays.", env=NOW).code == 0
    shutil.move(str(ws / ".memory-backup"), str(out / "mb"))
    (ws / ".memory-backup").symlink_to(out / "mb", target_is_directory=True)
    before = _files(out)
    run_script("memory", "forget", "deploy", "--approved", env=NOW)
    assert _files(out) == before


def test_restore_follows_no_symlink_inside_a_backup(setup, run_script):
    """A copy under .memory-backup/<id>/files/ that is a symlink: restore reads the target outside."""
    ws, out = setup
    backup = sorted(p for p in (ws / ".memory-backup").iterdir() if not p.name.startswith("."))[-1]
    data = (out / "secret.md").read_bytes()
    lines = [json.loads(line) for line in (backup / "entries.jsonl").read_text().splitlines()]
    for entry in lines:
        if entry["path"] == "AGENTS.md":
            entry.update(sha256=hashlib.sha256(data).hexdigest(), size=len(data))
    (backup / "entries.jsonl").write_text("".join(json.dumps(e) + "\n" for e in lines))
    (backup / "files/AGENTS.md").unlink()
    (backup / "files/AGENTS.md").symlink_to(out / "secret.md")
    run_script("init", "--restore", env=NOW)
    assert SECRET not in (ws / "AGENTS.md").read_text(encoding="utf-8")
