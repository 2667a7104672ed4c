"""Time a cleanup that archives N entries: expired T2 entries plus old daily sections.

Issue 11: "a cleanup that archives 3,000 entries (expired T2 plus old daily
sections) finishes in well under 20 s on a 2-core machine, and its CPU time
grows at most 4x from 1,000 to 3,000 entries". Before backups v2 every saved
file rewrote and fsynced the whole growing manifest (quadratic); now each
saved path appends one fsynced line (linear).

For each N, half the entries are T2 files created 60 days before "now"
(past the 30-day expiry) and half are daily-note sections, 10 per file,
beyond the prune capacity window (200, in-window sections are kept). The
workspace is built in a temporary folder with the T2 key set (so every T2
copy in the backup is encrypted, as in real use), then ``run_cleanup`` runs
in process; wall time and this process's CPU time are printed, then the
ratio of CPU times between the largest and smallest N.

    .venv/bin/python bench/cleanup_bench.py [--sizes 1000 3000] [--runs 1]
"""
from __future__ import annotations

import argparse
import base64
import os
import shutil
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory_manager import crypto, tiers  # noqa: E402
from memory_manager.cleanup import run_cleanup  # noqa: E402
from memory_manager.clock import month_of  # noqa: E402
from memory_manager.config import load_config  # noqa: E402
from memory_manager.tree import Tree  # noqa: E402

NOW = date(2026, 11, 29)


def build(ws: Path, n: int) -> None:
    """A set-up workspace holding n/2 expired T2 entries and n/2 + 200 daily sections."""
    paths = Tree(ws)
    for folder in (paths.daily, paths.knowledge, paths.tier1, paths.tier2, paths.archive):
        folder.mkdir(parents=True, exist_ok=True)
    paths.daily_index.write_text("# Daily index\n", encoding="utf-8")
    paths.knowledge_index.write_text("# Knowledge index\n", encoding="utf-8")
    cfg = load_config(ws)
    created = NOW - timedelta(days=60)
    month = month_of(created)
    for i in range(n // 2):
        sealed = crypto.encrypt(f"Observation number {i} about the reader's habits.", "bench", month, cfg, "xor-b64")
        tiers.t2_path(ws, "bench", f"topic{i:05d}").write_text(
            tiers.render_t2("bench", f"topic{i:05d}", sealed, created, 30, month, "en"), encoding="utf-8")
    sections = n - n // 2 + cfg["prune"]["window"]
    day = NOW - timedelta(days=400)
    for start in range(0, sections, 10):
        text = "".join(f"## [{day.isoformat()}] Topic {start + k}\n- 改：changed item {start + k}\n\n"
                       for k in range(min(10, sections - start)))
        (paths.daily / f"{day.isoformat()}.md").write_text(text, encoding="utf-8")
        day += timedelta(days=1)


def one(n: int) -> tuple[float, float, int]:
    base = Path(tempfile.mkdtemp(prefix="cmm-cleanup-bench-"))
    try:
        ws = base / "ws"
        ws.mkdir()
        build(ws, n)
        cfg = load_config(ws)
        wall, cpu = time.perf_counter(), time.process_time()
        report = run_cleanup(ws, cfg)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        return wall, cpu, report.archived
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 3000])
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    os.environ["MEMORY_MANAGER_NOW"] = NOW.isoformat() + "T12:00:00+00:00"
    os.environ.setdefault("MEMORY_MANAGER_KEY", base64.b64encode(bytes(range(32))).decode())
    print(f"cpus: {os.cpu_count()}")
    cpu_of = {}
    for n in args.sizes:
        best = min((one(n) for _ in range(args.runs)), key=lambda r: r[1])
        cpu_of[n] = best[1]
        print(f"entries {n:>6}: archived {best[2]:>6}  wall {best[0]:6.2f} s  cpu {best[1]:6.2f} s")
    low, high = min(args.sizes), max(args.sizes)
    if low != high:
        print(f"cpu ratio {high}/{low}: {cpu_of[high] / cpu_of[low]:.2f} (entries x{high / low:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
