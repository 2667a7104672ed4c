"""Time `init` on copies of real OpenClaw workspaces.

Prints, for each workspace, the median and p95 of (a) the whole command
`python scripts/init.py --yes` as a process, (b) build_plan + apply_plan in
process, and (c) a second (no-op) run as a process.

    .venv/bin/python bench/init_bench.py [--runs 20] [WORKSPACE ...]

Default workspaces: ../shared/workspaces/* and examples/sample-workspace.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory_manager import initialize  # noqa: E402
from memory_manager.config import load_config  # noqa: E402


def copy(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest)
    for path in [dest, *dest.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return dest


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("workspaces", nargs="*", type=Path)
    args = parser.parse_args()
    shared = ROOT.parent / "shared" / "workspaces"
    sources = args.workspaces or [*sorted(shared.glob("*")), ROOT / "examples" / "sample-workspace"]
    env = dict(os.environ, PATH="/usr/bin:/bin")  # no `openclaw` on PATH: don't time its startup
    print(f"cores: {os.cpu_count()}  python: {sys.version.split()[0]}  runs: {args.runs}")
    print(f"{'workspace':28} {'process p50':>12} {'p95':>8} {'in-process p50':>15} {'no-op p50':>10}")
    for src in sources:
        proc, inproc, noop = [], [], []
        with tempfile.TemporaryDirectory() as tmp:
            for i in range(args.runs):
                ws = copy(src, Path(tmp) / f"p{i}")
                t = time.perf_counter()
                subprocess.run([sys.executable, str(ROOT / "scripts" / "init.py"), "-w", str(ws), "--yes", "--json"],
                               check=True, capture_output=True, env=env)
                proc.append(time.perf_counter() - t)
                t = time.perf_counter()
                subprocess.run([sys.executable, str(ROOT / "scripts" / "init.py"), "-w", str(ws), "--yes", "--json"],
                               check=True, capture_output=True, env=env)
                noop.append(time.perf_counter() - t)
                ws2 = copy(src, Path(tmp) / f"i{i}")
                t = time.perf_counter()
                cfg = load_config(ws2)
                plan = initialize.build_plan(ws2, cfg, cfg["language"], version=None)
                initialize.apply_plan(plan)
                inproc.append(time.perf_counter() - t)
        print(f"{src.name:28} {statistics.median(proc)*1000:10.0f}ms {pct(proc, .95)*1000:6.0f}ms "
              f"{statistics.median(inproc)*1000:13.1f}ms {statistics.median(noop)*1000:8.0f}ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
