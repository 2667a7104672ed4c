"""The report opened in a real browser: Debian's headless Chromium renders it without a console message.

Opt-in: these tests run only where Chromium is installed (``apt-get install
chromium``, or ``CHROMIUM=/path/to/chromium``); elsewhere conftest.py
deselects them with a note (they are never skipped). No browser is downloaded.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import reportws
from conftest import ROOT, chromium_binary

pytestmark = pytest.mark.chromium

SECTIONS = ("timeline", "knowledge", "tiers", "usage", "health")


def open_in_chromium(page: Path, tmp_path: Path) -> tuple[str, list[str]]:
    """Load ``page`` in headless Chromium; return (the DOM it built, its console messages)."""
    args = [chromium_binary(), "--headless", "--disable-gpu", "--no-first-run", "--disable-extensions",
            f"--user-data-dir={tmp_path / 'chromium-profile'}", "--enable-logging=stderr", "--log-level=0",
            "--dump-dom", page.as_uri()]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.insert(1, "--no-sandbox")  # Chromium refuses to start as root with its sandbox
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    console = [line for line in proc.stderr.splitlines() if re.search(r":CONSOLE[:(]", line)]
    return proc.stdout, console


def test_report_renders_without_console_messages(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    built = reportws.build(ws)
    env = {**os.environ, "MEMORY_MANAGER_NOW": reportws.NOW}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "memory.py"), "report", "-w", str(ws)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    dom, console = open_in_chromium(ws / "memory" / ".cache" / "report.html", tmp_path)
    assert console == []
    for section in SECTIONS:
        assert f'<section id="{section}">' in dom
    assert dom.count("<svg") == 4  # timeline, T1, T2 and usage charts, drawn inline
    assert "CI token rotation" in dom and built.daily_token not in dom


def test_the_console_check_sees_a_blocked_load(tmp_path):
    """The check above can fail: a page that tries to load an image logs a CSP violation."""
    page = tmp_path / "bad.html"
    page.write_text("<!DOCTYPE html><html><head><meta http-equiv=\"Content-Security-Policy\" "
                    "content=\"default-src 'none'\"></head><body><img src=\"https://example.org/x.png\">"
                    "</body></html>", encoding="utf-8")
    _, console = open_in_chromium(page, tmp_path)
    assert any("Content Security Policy" in line for line in console)
