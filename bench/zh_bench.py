#!/usr/bin/env python3
"""Chinese / bilingual recall benchmark over the frozen set ``bench/zh_set.json``.

Each note becomes one entry of a daily note (``memory/daily/<date>.md``,
heading ``[date] heading``, the note's id as entry id) in a temporary
workspace; every query goes through :func:`memory_manager.recall.recall` with
``track=False``. Prints hit@1 and hit@3 (the expected note first / in the top
3) and every query that misses, next to the plain-BM25 baseline (``\\w+``
tokens: a Chinese run is one token) for comparison.

    python bench/zh_bench.py [--set bench/zh_set.json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from memory_manager.config import load_config  # noqa: E402
from memory_manager.recall import recall  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default=str(ROOT / "bench" / "zh_set.json"))
    args = ap.parse_args()
    data = json.loads(Path(args.set).read_text(encoding="utf-8"))
    os.environ["MEMORY_MANAGER_NOW"] = "2026-03-01"
    cfg = load_config(None)
    from locomo_bench import PlainBM25

    with tempfile.TemporaryDirectory(prefix="zh-bench-") as tmp:
        ws = Path(tmp)
        daily = ws / "memory" / "daily"
        daily.mkdir(parents=True)
        by_day: dict[str, list[str]] = {}
        for n in data["notes"]:
            by_day.setdefault(n["date"], []).append(
                f"## [{n['date']}] {n['heading']}\n<!-- id: {n['id']} -->\n{n['text']}\n")
        for day, sections in by_day.items():
            (daily / f"{day}.md").write_text(f"# {day}\n\n" + "\n".join(sections), encoding="utf-8")
        base = PlainBM25([(n["id"], n["heading"] + "\n" + n["text"]) for n in data["notes"]])
        ours = {1: 0, 3: 0}
        plain = {1: 0, 3: 0}
        misses = []
        for q in data["queries"]:
            ranked = [h.id for h in recall(ws, q["q"], cfg, top_k=3, track=False)]
            b = base.search(q["q"], 3)
            for k in (1, 3):
                ours[k] += q["expect"] in ranked[:k]
                plain[k] += q["expect"] in b[:k]
            if not ranked or ranked[0] != q["expect"]:
                misses.append((q["q"], q["expect"], ranked))
    n = len(data["queries"])
    print(f"bilingual set: {len(data['notes'])} notes, {n} queries")
    print(f"{'variant':24s} hit@1  hit@3")
    print(f"{'recall':24s} {ours[1] / n:.3f}  {ours[3] / n:.3f}")
    print(f"{'baseline: plain BM25':24s} {plain[1] / n:.3f}  {plain[3] / n:.3f}")
    for q, expect, ranked in misses:
        print(f"  not first: {q!r} expected {expect}, got {ranked}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
