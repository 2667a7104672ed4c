#!/usr/bin/env python3
"""Time to render the HTML report of a workspace of 10,000 entries.

The workspace (fixed seed) holds 8,500 daily-note sections (因/改/待, mixed
English and Chinese) over the last 365 days, 500 sections of OpenClaw's own
notes and 1,000 knowledge entries with tags, plus T1 statistics of 20 skills
and 600 usage records of 6 sessions; it is written with the package's own
renderers (``entries.render_daily_section``, ``entries.render_knowledge``).
``--days 365`` puts every entry on the page.

Reported:
- the whole command, ``python scripts/memory.py report --days 365`` as a new
  process (wall time), which includes Python's start, importing Jinja2 and
  matplotlib, gathering, masking, drawing and writing: the first run on the
  fresh workspace (no mask cache: every text is scanned), then p50 and the
  slowest of the other ``--runs`` runs (the mask cache of the run before
  holds every text, as for a user who looks at the report again);
- in-process parts of one run without the mask cache: gathering and masking (``report.collect``;
  a forked child takes chunks of the text while this process fills the
  template with stand-ins, then this process takes chunks too until none is
  left, and the chart child started before it imports matplotlib meanwhile,
  then draws while the text is masked), putting the masked text and the
  charts in the page (``report_render.Pages.render``), writing the file; CPU
  time of the process and of its children. As the command, with Python's
  garbage collector off.

    python bench/report_bench.py [--entries 10000] [--runs 5]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NOW = "2026-11-30T09:30:00+00:00"
TODAY = date(2026, 11, 30)
EN = ("deploy build server test release bug fix customer meeting report weekly database backup cache "
      "cluster node latency request budget design review schedule ticket alert monitor disk network "
      "proxy queue search index query ranking prompt agent skill workspace note summary").split()
ZH = list("部署构建服务测试发布修复客户会议报告周数据库备份缓存集群节点延迟请求预算设计评审日程工单告警监控磁盘网络队列搜索索引")


def phrase(rng: random.Random, n: int) -> str:
    if rng.random() < 0.35:
        return "".join(rng.choice(ZH) for _ in range(n * 2))
    return " ".join(rng.choice(EN) for _ in range(n))


def build(ws: Path, total: int, seed: int = 7) -> dict[str, int]:
    """Write a workspace of ``total`` entries (85 % daily, 5 % OpenClaw's, 10 % knowledge)."""
    from memory_manager import entries, hookrun, tiers, tree
    from memory_manager.context import Usage

    rng = random.Random(seed)
    paths = tree.Tree(ws)
    for folder in (paths.daily, paths.knowledge, paths.tier1, paths.tier2, paths.archive, paths.state):
        folder.mkdir(parents=True, exist_ok=True)
    paths.override.write_text('{"language": "en"}\n', encoding="utf-8")
    daily, openclaw, knowledge = int(total * 0.85), int(total * 0.05), total - int(total * 0.85) - int(total * 0.05)
    per_day: dict[date, list[str]] = {}
    for n in range(daily):
        day = TODAY - timedelta(days=n % 365)
        topic = f"{phrase(rng, 3)} {n}"
        items = [("cause", phrase(rng, 8)), ("change", phrase(rng, 10)), ("todo", phrase(rng, 6))]
        per_day.setdefault(day, []).append(entries.render_daily_section(day.isoformat(), topic, items, "en"))
    for day, sections in per_day.items():
        (paths.daily / f"{day.isoformat()}.md").write_text("\n\n".join(sections) + "\n", encoding="utf-8")
    for n in range(openclaw):
        day = TODAY - timedelta(days=(n * 7) % 365)
        with (paths.memory / f"{day.isoformat()}.md").open("a", encoding="utf-8") as handle:
            handle.write(f"\n## Flush {n % 24:02d}:{n % 60:02d}\n- {phrase(rng, 12)}\n- {phrase(rng, 9)}\n")
    for n in range(knowledge):
        key = f"k-{n:04d}-{rng.choice(EN)}"
        day = (TODAY - timedelta(days=rng.randrange(365))).isoformat()
        (paths.knowledge / f"{key}.md").write_text(
            entries.render_knowledge(key, phrase(rng, 30), [rng.choice(EN), rng.choice(EN)], day, "en"), encoding="utf-8")
    for n in range(20):
        doc = tiers.load_stats(tiers.t1_path(ws, f"skill-{n}"))
        for i in range(rng.randrange(5, 60)):
            tiers.record_call(doc, f"skill-{n}", rng.random() < 0.85, TODAY - timedelta(days=rng.randrange(30)))
        tiers.t1_path(ws, f"skill-{n}").write_bytes(tiers.dump_stats(doc))
    cfg = {"context": {"thresholds": [50, 70, 85], "compaction_reserve_tokens": 20000, "compaction_warn_tokens": 4000}}
    for n in range(600):
        session = f"agent:main:s{n % 6}"
        used = (n * 3571) % 180000
        os.environ["MEMORY_MANAGER_NOW"] = f"2026-11-{1 + n // 24:02d}T{n % 24:02d}:00:00+00:00"
        hookrun.record_usage(ws, "message:sent", Usage(agent="main", session_key=session, used=used, window=200000,
                                                       source="entry"), cfg)
    os.environ["MEMORY_MANAGER_NOW"] = NOW
    return {"daily": daily, "openclaw": openclaw, "knowledge": knowledge}


def in_process(ws: Path) -> dict[str, float]:
    """Time the parts of one report in this process (a fresh interpreter: the imports count)."""
    code = f"""
import gc, json, sys, time, resource
sys.path.insert(0, {str(ROOT)!r})
gc.disable()  # as memory.py report does
t0 = time.perf_counter()
from memory_manager.workspace import Workspace
from memory_manager import report
ws = Workspace({str(ws)!r})
from memory_manager.report_render import Pages, start_charts
t1 = time.perf_counter()
charts = start_charts()  # as memory.py report: the chart child imports matplotlib meanwhile, then draws
pages = Pages(charts)  # and this process fills the template while the masking child works
model = report.collect(ws, days=365, meanwhile=pages.meanwhile, gathered=pages.gathered)
t2 = time.perf_counter()
t3 = time.perf_counter()
page = pages.render(model)
t4 = time.perf_counter()
size = report.write_report(ws.paths.report, page)
t5 = time.perf_counter()
r = resource.getrusage(resource.RUSAGE_SELF)
c = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({{"package import": t1 - t0, "collect + mask + template (charts drawn)": t2 - t1,
                  "masked text + charts into the page": t4 - t3, "write": t5 - t4, "total": t5 - t0,
                  "cpu": r.ru_utime + r.ru_stime, "cpu_child": c.ru_utime + c.ru_stime, "bytes": size, "entries": sum(model.counts[k] for k in ("daily", "openclaw", "knowledge"))}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "MEMORY_MANAGER_NOW": NOW}, check=True)
    return json.loads(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        kinds = build(ws, args.entries)
        env = {**os.environ, "MEMORY_MANAGER_NOW": NOW, "OPENCLAW_STATE_DIR": str(Path(tmp) / "state")}
        walls, cpus = [], []
        for _ in range(args.runs):
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "memory.py"), "report", "-w", str(ws),
                                   "--days", "365", "--json"], capture_output=True, text=True, env=env)
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            # CPU of the command and its forked masker: the fair figure on a shared machine.
            cpus.append(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
            if proc.returncode != 0:
                sys.stderr.write(proc.stderr)
                return 1
        doc = json.loads(proc.stdout)
        (ws / "memory" / ".cache" / "mask-cache.json").unlink(missing_ok=True)
        parts = in_process(ws)
    shown = doc["counts"]["daily"] + doc["counts"]["openclaw"] + doc["counts"]["knowledge"]
    print(f"workspace: {kinds['daily']} daily + {kinds['openclaw']} OpenClaw + {kinds['knowledge']} knowledge "
          f"= {sum(kinds.values())} entries; on the page: {shown}; page {doc['bytes'] / 1e6:.1f} MB; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"memory.py report --days 365 (new process): first run, no mask cache {walls[0]:.2f} s; "
          f"{len(walls) - 1} more runs, mask cache warm: p50 {statistics.median(walls[1:] or walls):.2f} s, "
          f"slowest {max(walls[1:] or walls):.2f} s  (target < 3 s)")
    print(f"  CPU time of those runs (process + forked child): first {cpus[0]:.2f} s; "
          f"warm p50 {statistics.median(cpus[1:] or cpus):.2f} s")
    print("one run in process, no mask cache:")
    for key in ("package import", "collect + mask + template (charts drawn)", "masked text + charts into the page",
                "write", "total"):
        print(f"  {key:46s} {parts[key]:.3f} s")
    print(f"  {'CPU time (user + system)':46s} {parts['cpu']:.3f} s, and {parts['cpu_child']:.3f} s in the "
          "forked children (their share of the masking; the charts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
