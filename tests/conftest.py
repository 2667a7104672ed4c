"""Shared test fixtures.

Every test runs with HOME, OPENCLAW_WORKSPACE_DIR and OPENCLAW_STATE_DIR pointing
into ``tmp_path`` (never a real home), and ``run_script`` runs a script as a
user would: a real process on real files.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
FIXTURES = Path(__file__).resolve().parent / "fixtures"

@pytest.fixture(autouse=True)
def isolated_env(tmp_path, monkeypatch):
    home = tmp_path / "home"
    state = home / ".openclaw"
    ws = tmp_path / "ws"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(state))
    monkeypatch.setenv("OPENCLAW_WORKSPACE_DIR", str(ws))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("TZ", "UTC")  # notes are dated in the user's zone: make it the same on every machine
    for var in ("OPENCLAW_PROFILE", "OPENCLAW_CONFIG_PATH", "MEMORY_MANAGER_KEY", "MEMORY_MANAGER_NOW",
                "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    # The suite's reference locale is Chinese, the seeds' language: a workspace
    # with no saved language then writes Chinese (lang.resolve, rule 4). The tests
    # of the language choice itself (test_lang.py) set their own locale.
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    yield


#: A fixed 32-byte AES key (Base64) for tests that need the T2 key.
TEST_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="


@pytest.fixture
def t2_key(monkeypatch) -> str:
    """Set MEMORY_MANAGER_KEY (the T2 key) for this test and the scripts it runs."""
    monkeypatch.setenv("MEMORY_MANAGER_KEY", TEST_KEY)
    return TEST_KEY


@pytest.fixture
def ws(tmp_path) -> Path:
    """An empty workspace folder (the one OPENCLAW_WORKSPACE_DIR points at)."""
    path = tmp_path / "ws"
    path.mkdir(exist_ok=True)
    return path


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def run_script():
    """Run ``scripts/<name>.py`` with arguments; returns a Result (code, out, err)."""

    def _run(name: str, *args: str, input: str | None = None, env: dict | None = None,
             timeout: float = 60) -> Result:
        full_env = dict(os.environ)
        if env:
            full_env.update(env)
        proc = subprocess.run([sys.executable, str(ROOT / "scripts" / f"{name}.py"), *map(str, args)],
                              input=input, capture_output=True, text=True, env=full_env, timeout=timeout)
        return Result(proc.returncode, proc.stdout, proc.stderr)

    return _run


def zone_clock(monkeypatch, offset: str, zone: str):
    """A setter for the tool's clock in one time zone: ``set_time("2026-11-02", "18:00")``.

    Sets ``MEMORY_MANAGER_NOW`` to that local day and time (``offset`` is the
    zone's UTC offset then, such as ``"+08:00"``) and ``TZ`` to ``zone`` (an IANA
    name), so notes are dated and questions resolved as a user there would.
    """
    def set_time(day: str, hhmm: str = "09:00") -> None:
        monkeypatch.setenv("MEMORY_MANAGER_NOW", f"{day}T{hhmm}:00{offset}")
        monkeypatch.setenv("TZ", zone)
    return set_time


def writable_copy(src: Path, dest: Path) -> Path:
    """A writable copy of folder ``src`` at ``dest`` (replaced if present); the original, read-only, is never touched."""
    import stat

    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest)
    for path in [dest, *dest.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)
    return dest


def tree_hash(root: Path) -> dict[str, str]:
    """Map every file under ``root`` (relative path) to its sha256; symlinks by target."""
    import hashlib

    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            out[rel] = "link:" + os.readlink(path)
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.is_dir():
            out[rel + "/"] = "dir"
    return out


# ---------------------------------------------------------------- opt-in tests

def chromium_binary() -> str | None:
    """Debian's Chromium (``CHROMIUM`` names another binary), or None when not installed."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium")


_DESELECTED_NOTES: list[str] = []


def pytest_configure(config):
    config.addinivalue_line("markers", "chromium: needs headless Chromium (Debian's chromium package); "
                                       "deselected when it is not installed")


def pytest_collection_modifyitems(config, items):
    """Deselect (never skip), with a note: tests whose files outside the repository are absent
    (``external`` marker: a real OpenClaw's files, Debian's Python, node), and the browser tests
    when Chromium is not installed."""
    keep, dropped = [], []
    have_chromium = chromium_binary() is not None
    browser = 0
    for item in items:
        marker = item.get_closest_marker("external")
        absent = [str(p) for p in (marker.args if marker else ()) if not Path(p).exists()]
        if absent:
            dropped.append(item)
            _DESELECTED_NOTES.append(f"{item.nodeid} deselected: needs {marker.kwargs.get('reason', 'files')} "
                                     f"({', '.join(absent)} absent)")
        elif not have_chromium and item.get_closest_marker("chromium"):
            dropped.append(item)
            browser += 1
        else:
            keep.append(item)
    if browser:
        _DESELECTED_NOTES.append(f"{browser} browser test(s) deselected: Chromium not found. Enable them with "
                                 "`apt-get install chromium` (Debian's package) or CHROMIUM=/path/to/chromium.")
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def pytest_terminal_summary(terminalreporter):
    for note in _DESELECTED_NOTES:
        terminalreporter.write_line("note: " + note)
