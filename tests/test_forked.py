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


# ``forked.start``: a child that gets ready first and is given its input later (the report's chart child).

def test_a_started_child_gets_its_input_later_and_answers():
    import time

    worker = forked.start(lambda: time.sleep(0.3), lambda data: [data["n"] * 2, os.getpid()])
    worker.send({"n": 21})
    got = worker.wait()
    assert got[0] == 42 and got[1] != os.getpid()
    worker.cancel()  # after a reap: does nothing (the pid may be another process's by now)


def test_an_input_larger_than_a_pipe_while_the_child_still_prepares_does_not_block():
    import time

    worker = forked.start(lambda: time.sleep(0.5), lambda data: len(data))
    start = time.monotonic()
    worker.send("x" * 3_000_000)  # far past a pipe's 64 KiB: written by a thread, send() returns at once
    assert time.monotonic() - start < 0.4
    assert worker.wait() == 3_000_000


def test_input_is_told_by_its_length_not_by_end_of_file():
    """A child forked later holds a copy of the input pipe's write end (no end of file comes):
    the started child still reads its input whole and answers."""
    worker = forked.start(lambda: None, lambda data: data + "!")
    other = forked.in_child(lambda: __import__("time").sleep(1.0) or "late")  # holds the pipe ends for 1 s
    worker.send("ready")
    assert worker.wait() == "ready!"
    assert other() == "late"


def test_a_started_child_that_fails_gives_none_and_a_cancelled_one_is_reaped():
    def boom(_data):
        raise RuntimeError("no")
    worker = forked.start(lambda: None, boom)
    worker.send(1)
    assert worker.wait() is None
    refused = forked.start(lambda: None, lambda data: [data])
    refused.send(1, accept=lambda got: got == ["other"])
    assert refused.wait() is None
    idle = forked.start(lambda: __import__("time").sleep(30), lambda data: data)
    pid = idle._pid
    idle.cancel()  # never sent: killed and reaped, not left waiting for 30 s
    try:
        os.kill(pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive
    assert idle.wait() is None  # and waiting on it afterwards gives None at once


def test_a_failed_start_gives_none(monkeypatch):
    def no_fork():
        raise OSError("fork refused")
    monkeypatch.setattr(os, "fork", no_fork)
    assert forked.start(lambda: None, lambda data: data) is None
