"""The fault-injection harness (issue 11): kill a writing command at every file-system step.

The write layer (:mod:`memory_manager.fsio`) counts every step that changes the
file system and, with ``MEMORY_MANAGER_CRASH_AT=N``, SIGKILLs its own process
right before step N. This harness runs a script's click command in a forked
child (the package is imported once, so a run costs milliseconds, not a Python
start-up), with the crash point set; then checks what the kill left and what
the next run repairs:

- after the kill, every file outside ``.memory-backup/`` and the derived
  ``memory/.cache/`` holds either its bytes before the command or its bytes
  after an uninterrupted run (or is absent where one of them is);
- after the re-run, the tree equals the uninterrupted run's, no staging file
  is left anywhere, no journal is left, and the lock is free.

``kill_points(total)`` samples the steps for CI; ``MEMORY_MANAGER_FAULTS=full``
tries every one.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from conftest import ROOT

FULL_ENV = "MEMORY_MANAGER_FAULTS"
#: Kill points per command in the sampled (CI) run; first and last step always included.
SAMPLE = 12

_modules: dict[str, object] = {}


def _command(script: str):
    """Import ``scripts/<script>.py`` once and return its click command."""
    if script not in _modules:
        scripts = str(ROOT / "scripts")
        if scripts not in sys.path:  # memory.py imports its verbs (_store_cmds, ...) from its folder
            sys.path.insert(0, scripts)
        spec = importlib.util.spec_from_file_location(f"_cmm_fault_{script}", ROOT / "scripts" / f"{script}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[script] = module
    module = _modules[script]
    return getattr(module, script)


def run_forked(script: str, args: list[str], env: dict[str, str]) -> int:
    """Run ``scripts/<script>.py args`` in a forked child; return its exit code, or -signal."""
    from memory_manager.cli import run

    command = _command(script)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 99
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            os.environ.update(env)
            sys.argv = [f"{script}.py", *args]
            try:
                run(command)
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def snapshot(ws: Path) -> dict[str, bytes]:
    """Every file of the workspace except backups and the derived cache, with its bytes."""
    out = {}
    for path in sorted(ws.rglob("*")):
        rel = path.relative_to(ws).as_posix()
        if rel.startswith(".memory-backup") or rel.startswith("memory/.cache"):
            continue
        if path.is_symlink():
            out[rel] = b"link:" + os.readlink(path).encode()
        elif path.is_file():
            out[rel] = path.read_bytes()
    return out


def staging_left(ws: Path) -> list[str]:
    """Staging files of ours anywhere in the workspace (backups included)."""
    from memory_manager.fsio import STAGING_NAME

    return sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if STAGING_NAME.match(p.name))


def holding(ws: Path, needle: bytes) -> list[str]:
    """Every file under ``ws`` (backups, cache, state and staging files included) whose bytes hold ``needle``."""
    return sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*")
                  if p.is_file() and not p.is_symlink() and needle in p.read_bytes())


def lock_free(ws: Path) -> bool:
    from filelock import FileLock, Timeout

    lock = ws / ".memory-backup" / ".lock"
    if not lock.exists():
        return True
    try:
        with FileLock(str(lock), timeout=0):
            return True
    except Timeout:
        return False


def kill_points(total: int) -> list[int]:
    """Steps 1..total: all of them with ``MEMORY_MANAGER_FAULTS=full``, else an even sample."""
    if os.environ.get(FULL_ENV) == "full" or total <= SAMPLE:
        return list(range(1, total + 1))
    picks = {1, total}
    for i in range(SAMPLE - 2):
        picks.add(1 + round((i + 1) * (total - 1) / (SAMPLE - 1)))
    return sorted(picks)


def diff(a: dict[str, bytes], b: dict[str, bytes]) -> list[str]:
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


@dataclass
class Scenario:
    """One command under test.

    ``prepare(ws)``: build the workspace the command starts from.
    ``command``: (script, args) of the run that gets killed.
    ``rerun``: the runs that must repair it, each (script, args, snapshot expected
    after it: "after" = the uninterrupted run's tree, "before" = the starting tree).
    """

    name: str
    prepare: Callable[[Path], None]
    command: tuple[str, list[str]]
    rerun: list[tuple[str, list[str], str]]
    env: dict[str, str] = field(default_factory=dict)
    #: Text that must never be left on disk in plain (issue 10): after the kill it may sit only
    #: at the paths in ``plain_at`` (where the starting tree has it); after the re-run nowhere,
    #: backups, staging files and the cache included.
    plaintext: bytes | None = None
    plain_at: tuple[str, ...] = ()


@dataclass
class Outcome:
    name: str
    steps: int
    tried: int = 0
    failures: list[str] = field(default_factory=list)


def exercise(scenario: Scenario, base: Path) -> Outcome:
    """Run ``scenario`` uninterrupted once, then killed at each chosen step; return the outcome."""
    template = base / "template"
    template.mkdir()
    scenario.prepare(template)
    before = snapshot(template)
    if scenario.plaintext is not None:  # the check can fail: the starting tree holds the text where it says
        assert holding(template, scenario.plaintext) == sorted(scenario.plain_at), holding(template, scenario.plaintext)
    ws_env = dict(scenario.env, OPENCLAW_WORKSPACE_DIR="")  # the workspace is passed with -w

    def fresh(name: str) -> Path:
        target = base / name
        shutil.copytree(template, target, symlinks=True)
        return target

    script, args = scenario.command
    reference = fresh("reference")
    log = base / "steps.log"
    code = run_forked(script, [*args, "-w", str(reference)], dict(ws_env, MEMORY_MANAGER_STEP_LOG=str(log)))
    assert code == 0, f"{scenario.name}: the uninterrupted run exited {code}"
    after = snapshot(reference)
    assert after != before, f"{scenario.name}: the scenario changes nothing"
    total = len(log.read_text().splitlines())
    outcome = Outcome(scenario.name, total)
    expected_after = {"after": after, "before": before}
    for n in kill_points(total):
        ws = fresh(f"kill-{n}")
        outcome.tried += 1
        code = run_forked(script, [*args, "-w", str(ws)], dict(ws_env, MEMORY_MANAGER_CRASH_AT=str(n)))
        if code != -9:
            outcome.failures.append(f"step {n}: not killed (exit {code})")
            continue
        now = snapshot(ws)
        for rel in sorted(set(now) | set(before) | set(after)):
            if STAGING(rel):
                continue
            if now.get(rel) not in (before.get(rel), after.get(rel)):
                outcome.failures.append(f"step {n}: {rel} is neither old nor new after the kill")
        if scenario.plaintext is not None:
            held = [r for r in holding(ws, scenario.plaintext) if r not in scenario.plain_at]
            if held:
                outcome.failures.append(f"step {n}: plain text left after the kill in {held}")
        for rscript, rargs, want in scenario.rerun:
            code = run_forked(rscript, [*rargs, "-w", str(ws)], ws_env)
            if code != 0:
                outcome.failures.append(f"step {n}: re-run {rscript} {' '.join(rargs)} exited {code}")
                break
            changed = diff(snapshot(ws), expected_after[want])
            if changed:
                outcome.failures.append(f"step {n}: after re-run {rscript} {' '.join(rargs)}, differs: {changed}")
                break
        if scenario.plaintext is not None and holding(ws, scenario.plaintext):
            outcome.failures.append(f"step {n}: plain text left after the re-run in {holding(ws, scenario.plaintext)}")
        left = staging_left(ws)
        if left:
            outcome.failures.append(f"step {n}: staging files left: {left}")
        journals = [p.name for p in (ws / ".memory-backup").glob(".open-*")]
        if journals:
            outcome.failures.append(f"step {n}: journals left: {journals}")
        if not lock_free(ws):
            outcome.failures.append(f"step {n}: the lock is held")
        shutil.rmtree(ws)
    return outcome


def STAGING(rel: str) -> bool:  # noqa: N802 - reads as a predicate name
    from memory_manager.fsio import STAGING_NAME

    return bool(STAGING_NAME.match(rel.rsplit("/", 1)[-1]))
