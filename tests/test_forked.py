"""``memory_manager.forked.in_child``: the one helper the detector and the report's masker fork through."""
from __future__ import annotations

import os

from memory_manager import forked, privacy


def test_the_child_result_comes_back():
    wait = forked.in_child(lambda: ["a", "b", os.getpid()])
    got = wait()
    assert got[:2] == ["a", "b"] and got[2] != os.getpid()


def test_a_child_that_raises_gives_none():
    def boom():
        raise RuntimeError("no")
    assert forked.in_child(boom)() is None


def test_a_result_the_check_refuses_gives_none():
    assert forked.in_child(lambda: [1, 2], lambda got: all(isinstance(x, str) for x in got))() is None
    assert forked.in_child(lambda: ["x"], lambda got: all(isinstance(x, str) for x in got))() == ["x"]


def test_a_failed_fork_gives_none(monkeypatch):
    def no_fork():
        raise OSError("fork refused")
    monkeypatch.setattr(os, "fork", no_fork)
    assert forked.in_child(lambda: ["x"])() is None


def test_a_long_scan_whose_child_fails_finds_the_same(monkeypatch):
    """scan() in two processes: when the child's half cannot come back, this process scans it."""
    lines = [f"note {i}: deploy at 10:00, call 415-555-0{i % 10}00, password: Rt$7bast{i}on" for i in range(6000)]
    text = "\n".join(lines)
    with privacy.serial_scans():
        want = privacy.scan(text)
    assert len(want) >= 6000
    monkeypatch.setattr(forked, "in_child", lambda work, accept=None: (lambda: None))
    assert privacy._scan_in_two(text) == want
