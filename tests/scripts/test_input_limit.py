"""The input cap (``input.max_mb``, issue 11): text on stdin and the files ``import`` reads.

Over the limit: exit 2, one line naming the limit, nothing changed, and never
more than limit + 1 bytes read (a pipe that is never closed does not hold the
command). The limit is set in the workspace override in MiB; 0.001 MiB is
1,048 bytes.
"""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
LIMIT = 1048  # int(0.001 * 1024 * 1024)
ERROR = (f"more than {LIMIT:,} bytes, the input limit (input.max_mb = 0.001 in the config); "
         "nothing was changed")


@pytest.fixture
def small_limit(ws):
    (ws / "memory").mkdir()
    (ws / "memory/memory-manager.json").write_text('{"language": "en", "input": {"max_mb": 0.001}}\n')
    return ws


def _files(ws):
    return {p.relative_to(ws).as_posix(): p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("args", [
    ("learn", "deploy", "--text", "-"),
    ("remember", "--skill", "news", "--topic", "habit", "--text", "-", "--approved", "--scheme", "xor-b64"),
    ("lesson", "-", "--approved"),
    ("write", "--topic", "Docs", "--change", "-"),
    ("write", "--topic", "Docs", "--cause", "why", "--todo", "-"),
])
def test_stdin_over_the_limit_is_refused_and_changes_nothing(small_limit, run_script, args):
    ws = small_limit
    before = _files(ws)
    r = run_script("memory", *args, input="a" * (LIMIT + 1), env=ENV)
    assert (r.code, r.out, r.err) == (2, "", f"error: stdin: {ERROR}\n")
    assert _files(ws) == before


def test_stdin_at_the_limit_is_stored_whole(small_limit, run_script):
    text = "b" * LIMIT
    r = run_script("memory", "learn", "deploy", "--text", "-", input=text, env=ENV)
    assert r.code == 0, r.err
    assert text in (small_limit / "memory/knowledge/deploy.md").read_text(encoding="utf-8")
    r = run_script("memory", "write", "--topic", "Docs", "--change", "-", input="wrote the guide\n", env=ENV)
    assert r.code == 0, r.err
    assert "wrote the guide" in (small_limit / "memory/daily/2026-11-29.md").read_text(encoding="utf-8")


def test_only_one_option_reads_stdin(small_limit, run_script):
    r = run_script("memory", "write", "--topic", "Docs", "--change", "-", "--todo", "-", input="x", env=ENV)
    assert (r.code, r.err) == (2, "error: only one --cause, --change or --todo can be - (stdin is read once)\n")


def test_stdin_not_utf8_is_bad_input(small_limit, run_script):
    proc = subprocess.run([sys.executable, str(ROOT / "scripts/memory.py"), "learn", "deploy", "--text", "-"],
                          input=b"caf\xe9\n", capture_output=True, env={**os.environ, **ENV}, timeout=60)
    assert proc.returncode == 2 and proc.stderr == b"error: stdin: not UTF-8 (byte 3)\n"
    assert not (small_limit / "memory/knowledge/deploy.md").exists()


def test_reads_no_more_than_the_limit_plus_one_byte(small_limit):
    """The writer keeps the pipe open after limit + 1 bytes: a command reading to the end would wait
    for ever; one that reads limit + 1 bytes answers at once (and leaves the rest unread)."""
    proc = subprocess.Popen([sys.executable, str(ROOT / "scripts/memory.py"), "learn", "deploy", "--text", "-",
                             "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, **ENV})
    proc.stdin.write(b"c" * (LIMIT + 1))
    proc.stdin.flush()
    try:
        code = proc.wait(timeout=60)  # the pipe is still open: only a bounded read returns
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
    assert code == 2
    assert json.loads(proc.stdout.read()) == {"error": f"stdin: {ERROR}", "kind": "too_large"}
    proc.stdout.close()
    proc.stderr.close()


def test_an_import_file_over_the_limit_is_refused_unread(small_limit, run_script, tmp_path):
    export = tmp_path / "export.json"
    doc = {"format": "cmm-export", "version": 2, "exported": "2026-11-29T12:00:00+00:00", "tool_version": "0.1.0",
           "daily": [{"date": "2026-11-20", "topic": "Wiki", "cause": [], "change": ["x" * LIMIT], "todo": []}],
           "knowledge": [], "tier1": [], "tier2": []}
    export.write_text(json.dumps(doc), encoding="utf-8")
    before = _files(small_limit)
    r = run_script("memory", "import", str(export), "--approved", "--json", env=ENV)
    assert r.code == 2
    assert json.loads(r.out) == {"error": f"{export}: {ERROR}", "kind": "too_large"}
    assert _files(small_limit) == before


def test_an_openclaw_note_over_the_limit_stops_the_import(small_limit, run_script):
    ws = small_limit
    (ws / "memory/2026-11-27.md").write_text("# 2026-11-27\n\n- a short note\n", encoding="utf-8")
    (ws / "memory/2026-11-28.md").write_text("# 2026-11-28\n\n- " + "y" * LIMIT + "\n", encoding="utf-8")
    before = _files(ws)
    r = run_script("memory", "import", "--from-openclaw", "--approved", env=ENV)
    assert (r.code, r.err) == (2, f"error: memory/2026-11-28.md: {ERROR}\n")
    assert _files(ws) == before


@pytest.mark.parametrize("value, said", [
    ("0", "'input.max_mb' must be greater than 0, not 0"),
    ("-1", "'input.max_mb' must be greater than 0, not -1"),
    ("5000", "'input.max_mb' must be greater than 0 and at most 4,096, not 5000"),
    ('"32"', "'input.max_mb' must be a number, not string ('32')"),
])
def test_the_limit_is_validated_like_every_key(ws, run_script, value, said):
    (ws / "memory").mkdir()
    (ws / "memory/memory-manager.json").write_text('{"input": {"max_mb": %s}}\n' % value)
    r = run_script("memory", "learn", "deploy", "--text", "-", input="short", env=ENV)
    assert r.code == 2 and len(r.err.splitlines()) == 1 and said in r.err, r.err
    assert not (ws / "memory/knowledge").exists()
