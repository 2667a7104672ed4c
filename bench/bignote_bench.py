#!/usr/bin/env python3
"""A 50 MB daily note: how long status, recall and write take, and that write keeps every byte.

Builds a workspace (``init --yes --no-key``) whose one daily note holds
about 50 MB of sections (mixed English and Chinese, fixed seed), then runs
each command as a user would (a new process) and prints wall time and peak
RSS:

- ``memory.py status`` twice (the first builds the recall index, the second
  finds it fresh);
- ``memory.py recall QUERY --no-track``;
- ``memory.py write`` into the same note (an append), then checks that the
  note still starts with every byte it had and only grew.

Issue 11's target: each finishes within a minute on a 2-core machine. The
figures are printed, not asserted (speed belongs in bench/, not in tests).

    python bench/bignote_bench.py [--mb 50] [--lines 20]

``--lines 1`` builds the other form: one line per section, about 590,000 tiny sections in 50 MB.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("alpha beta gamma delta release build deploy tea coffee meeting notes vendor pitch schedule "
         "周报 会议 发布 测试 部署 客户").split()


def _make_note(path: Path, megabytes: int, lines_per_section: int = 20) -> int:
    """Write the note: sections of ``lines_per_section`` lines of 12 words each; return their count."""
    rnd = random.Random(11)
    target = megabytes * 1024 * 1024
    size, n = 0, 0
    with path.open("w", encoding="utf-8") as out:
        out.write(f"# {path.stem}\n\n")
        while size < target:
            n += 1
            lines = "\n".join(f"- 改：{' '.join(rnd.choice(WORDS) for _ in range(12))}"
                              for _ in range(lines_per_section))
            block = f"## [{path.stem}] topic {n}\n\n{lines}\n\n"
            out.write(block)
            size += len(block.encode("utf-8"))
    return n


def _run(env: dict[str, str], *args: str) -> tuple[float, int, int, str]:
    """Return (seconds, peak RSS of the child in MB, exit code, last stdout line)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / args[0]), *args[1:]], env=env,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) // 1024
    last = (proc.stdout.strip().splitlines() or [proc.stderr.strip()])[-1][:90]
    return seconds, peak, proc.returncode, last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=50, help="size of the note in MB (default 50)")
    parser.add_argument("--lines", type=int, default=20,
                        help="lines per section (default 20: ~29,000 sections in 50 MB; 1 gives ~590,000 "
                             "tiny sections, the form fault round 5 timed)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home, ws = Path(tmp) / "home", Path(tmp) / "ws"
        home.mkdir()
        ws.mkdir()
        env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
               "OPENCLAW_WORKSPACE_DIR": str(ws), "OPENCLAW_STATE_DIR": str(home / ".openclaw"),
               "MEMORY_MANAGER_NOW": "2026-11-24T09:00:00+00:00"}
        env.pop("MEMORY_MANAGER_KEY", None)
        assert _run(env, "init.py", "--yes", "--no-hooks", "--no-key")[2] == 0
        note = ws / "memory" / "daily" / "2026-11-24.md"
        sections = _make_note(note, args.mb, args.lines)
        original = note.read_bytes()
        print(f"note: {len(original) / 1e6:.1f} MB, {sections} sections; {os.cpu_count()} cores")
        print(f"{'command':38} {'seconds':>8} {'peak MB':>8} {'exit':>5}  last line")
        for label, cmd in (("status (builds the index)", ("memory.py", "status")),
                           ("status (index fresh)", ("memory.py", "status")),
                           ("recall vendor", ("memory.py", "recall", "vendor 会议", "--no-track")),
                           ("write (append to the 50 MB note)", ("memory.py", "write", "--topic", "bench",
                                                                  "--change", "appended"))):
            seconds, peak, code, last = _run(env, *cmd)
            print(f"{label:38} {seconds:8.2f} {peak:8d} {code:5d}  {last}")
        after = note.read_bytes()
        kept = after[:len(original)] == original
        print(f"write kept every original byte: {kept}; grew by {len(after) - len(original)} bytes "
              f"(sha256 of the original prefix {hashlib.sha256(after[:len(original)]).hexdigest()[:12]})")
        return 0 if kept else 1


if __name__ == "__main__":
    raise SystemExit(main())
