#!/usr/bin/env python3
"""Speed and scale: synthetic workspaces of 1k, 10k and 100k entries.

Each workspace spreads its entries over three years of daily notes
(``memory/daily/YYYY-MM-DD.md``, several ``##`` entries a day) plus 5 %
knowledge entries with tags, in mixed English and Chinese drawn from a
Zipf-distributed vocabulary (fixed seed, so runs are comparable).

Reported per size:
- index build: the first ``python scripts/memory.py recall`` on the fresh
  workspace (wall time and peak RSS of that process);
- in-process recall p50/p95 (``recall(..., track=False)``, index open and
  refreshed on every call, exactly as the command does);
- whole command p50/p95: ``python scripts/memory.py recall QUERY --json``
  as a new process (default tracking on), after the first build;
- peak RSS of the whole command (max over the timed runs).

    python bench/scale_bench.py [--sizes 1000,10000,100000] [--queries 40] [--runs 20]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EN = ("deploy build server test release bug fix customer meeting report weekly database backup cache "
      "cluster node memory latency request token budget design review schedule travel train hotel "
      "invoice contract legal privacy password laptop keyboard coffee lunch team sprint ticket alert "
      "monitor disk network proxy queue kafka redis python docker kubernetes vite webpack search index "
      "query ranking model prompt agent skill workspace note summary decision todo cause change").split()
ZH_CHARS = ("飞书日报高铁上海北京会议客户数据库备份部署服务器测试发布缺陷修复报告周报缓存集群节点内存延迟请求"
            "预算设计评审计划出差酒店发票合同法务隐私密码电脑键盘咖啡午饭团队迭代工单告警监控磁盘网络代理队列"
            "搜索索引排序模型提示代理技能工作区笔记总结决定待办原因改动学习家庭孩子学校健身旅行医生牙齿植物")


def vocab(rng: random.Random) -> list[str]:
    words = list(EN)
    words += ["".join(rng.sample(ZH_CHARS, 2)) for _ in range(1500)]
    words += [f"term{n}" for n in range(3000)]
    rng.shuffle(words)
    return words


def sentence(rng: random.Random, words: list[str], weights: list[float], n: int) -> str:
    picked = rng.choices(words, weights=weights, k=n)
    out, prev_zh = [], False
    for w in picked:
        zh = not w.isascii()
        out.append(w if (zh and prev_zh) else (" " + w if out else w))
        prev_zh = zh
    return "".join(out)


def build(ws: Path, size: int, seed: int = 7, frequent: bool = False) -> list[str]:
    """Write a synthetic workspace of ``size`` entries; return sample queries."""
    rng = random.Random(seed)
    words = vocab(rng)
    weights = [1.0 / (i + 1) ** 0.9 for i in range(len(words))]
    daily = ws / "memory" / "daily"
    know = ws / "memory" / "knowledge"
    daily.mkdir(parents=True)
    know.mkdir(parents=True)
    n_know = size // 20
    n_daily = size - n_know
    start = date(2023, 6, 1)
    days = 3 * 365
    per_day: dict[int, list[str]] = {}
    for i in range(n_daily):
        d = i * days // n_daily
        day = (start + timedelta(days=d)).isoformat()
        per_day.setdefault(d, []).append(
            f"## [{day}] {sentence(rng, words, weights, 3)}\n<!-- id: d-{i} -->\n"
            f"- 因：{sentence(rng, words, weights, rng.randint(6, 14))}\n"
            f"- 改：{sentence(rng, words, weights, rng.randint(6, 14))}\n")
    for d, sections in per_day.items():
        day = (start + timedelta(days=d)).isoformat()
        (daily / f"{day}.md").write_text(f"# {day}\n\n" + "\n".join(sections), encoding="utf-8")
    for i in range(n_know):
        day = (start + timedelta(days=rng.randrange(days))).isoformat()
        tags = rng.sample(words[:300], 2)
        (know / f"k{i}.md").write_text(
            f"---\nformat: cmm-knowledge\nversion: 1\nid: k-{i}\nkey: k{i}\ntags: [{', '.join(tags)}]\n"
            f"created: {day}\nupdated: {day}\n---\n{sentence(rng, words, weights, rng.randint(15, 40))}\n",
            encoding="utf-8")
    # Queries: 2-4 content words drawn uniformly from frequency ranks 30-1500. The 30 most
    # frequent synthetic words stand in for stop words (each is in 5-30 % of entries), which
    # real queries lose to the stop list; real content words are mid-frequency.
    qrng = random.Random(seed + 1)
    if frequent:  # stress mix: Zipf-weighted over the 800 most frequent words
        return [sentence(qrng, words[:800], weights[:800], qrng.randint(2, 4)) for _ in range(200)]
    pool = words[30:1500]
    return [" ".join(qrng.sample(pool, qrng.randint(2, 4))) for _ in range(200)]


def run_cmd(args: list[str], env: dict[str, str]) -> tuple[float, int, float]:
    """Run a command; return (wall seconds, peak RSS in MB, CPU seconds).

    CPU is user + system time of the process and the children it waited for
    (the index build's worker processes), the fair figure on a shared machine.
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"command failed: {args}: {proc.stderr.read().decode()}")
    return wall, usage.ru_maxrss // 1024, usage.ru_utime + usage.ru_stime


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--queries", type=int, default=40, help="in-process queries per size")
    ap.add_argument("--runs", type=int, default=20, help="whole-command runs per size")
    ap.add_argument("--builds", type=int, default=1,
                    help="cold index builds per size (the index file is deleted before each)")
    ap.add_argument("--frequent-queries", action="store_true",
                    help="stress mix: queries made of the most frequent words")
    args = ap.parse_args()
    from memory_manager.config import load_config
    from memory_manager.recall import recall

    cfg = load_config(None)
    print(f"cores: {os.cpu_count()}  python: {sys.version.split()[0]}")
    print(f"{'entries':>8} {'files':>6} {'build s':>8} {'build MB':>8} {'in-proc p50 ms':>14} {'p95 ms':>7} "
          f"{'cmd p50 s':>9} {'cmd p95 s':>9} {'cmd MB':>7}")
    for size in map(int, args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix=f"scale-{size}-") as tmp:
            ws = Path(tmp)
            queries = build(ws, size, frequent=args.frequent_queries)
            env = dict(os.environ, OPENCLAW_WORKSPACE_DIR=str(ws), MEMORY_MANAGER_NOW="2026-06-01")
            os.environ["MEMORY_MANAGER_NOW"] = "2026-06-01"
            cmd = [sys.executable, str(ROOT / "scripts" / "memory.py"), "recall"]
            builds = []
            for _ in range(max(1, args.builds)):
                for old in (ws / "memory" / ".cache").glob("recall-index.sqlite*"):
                    old.unlink()
                builds.append(run_cmd(cmd + [queries[0], "--json"], env))
            build_s, build_mb, build_cpu = builds[0]
            # Files written less than 2 s before indexing are re-hashed on each refresh (the
            # "racily clean" guard of memory_manager.index); measure the steady state after it.
            time.sleep(2.1)
            run_cmd(cmd + [queries[0], "--json", "--no-track"], env)
            inproc = []
            for q in queries[1:1 + args.queries]:
                t0 = time.perf_counter()
                recall(ws, q, cfg, track=False)
                inproc.append((time.perf_counter() - t0) * 1000)
            walls, mbs = [], []
            for q in queries[100:100 + args.runs]:
                wall, mb, _ = run_cmd(cmd + [q, "--json"], env)
                walls.append(wall)
                mbs.append(mb)
            files = sum(1 for _ in (ws / "memory").rglob("*.md"))
            print(f"{size:>8} {files:>6} {build_s:>8.2f} {build_mb:>8} {statistics.median(inproc):>14.1f} "
                  f"{pct(inproc, 95):>7.1f} {statistics.median(walls):>9.3f} {pct(walls, 95):>9.3f} {max(mbs):>7}")
            print(f"{'':>8} cold build(s), wall / CPU (process + workers), s: "
                  + ", ".join(f"{w:.2f} / {c:.2f}" for w, _, c in builds)
                  + f"  (load average {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
