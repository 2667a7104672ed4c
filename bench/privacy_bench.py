#!/usr/bin/env python3
"""Benchmark the privacy detector: recall, false-positive rate and speed.

    python bench/privacy_bench.py [--seed N] [--size-mb 10] [--misses] [--json]

Reads the frozen, labelled corpus in ``bench/privacy_corpus/`` (the first line
of each file is a header): ``positive.tsv`` holds ``category<TAB>line`` rows,
``benign.tsv`` one line per row. ``{NAME}`` templates are filled with fakes
generated at run time (``privacy_fakes.py``). Each line is scanned on its own.

- recall per category: share of positive lines with at least one finding of
  the labelled category;
- false-positive rate: share of benign lines with any finding (also split by
  the category that fired);
- speed: seconds (wall clock and CPU time of this process) to scan ``--size-mb`` megabytes of generated notes (benign
  and positive lines mixed, 1 in 50 positive) as one text, and as 20 KB files.

``regression.tsv`` (added after QA, not part of the frozen corpus) holds
``category<TAB>line`` rows next to Chinese text or CJK punctuation, with
``none`` for lines that must not be flagged; it is reported on its own
(regression recall and false positives) and does not change the figures above.

Targets (privacy issue): recall >= 0.98 on secrets and IDs, >= 0.95 overall;
false-positive rate <= 0.02; 10 MB in < 10 s.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from memory_manager.privacy import scan  # noqa: E402
from privacy_fakes import fill  # noqa: E402

CORPUS = HERE / "privacy_corpus"
#: Categories that count as "secrets and IDs" for the 0.98 recall target.
SECRETS_AND_IDS = ("secret", "government_id", "payment_card", "bank_account")


def load(rng: random.Random) -> tuple[list[tuple[str, str]], list[str]]:
    """Return (positive (category, line) pairs, benign lines), templates filled."""
    positives = []
    for row in (CORPUS / "positive.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        if row.strip():
            category, _, line = row.partition("\t")
            positives.append((category, fill(line, rng)))
    benign = [fill(row, rng) for row in (CORPUS / "benign.tsv").read_text(encoding="utf-8").splitlines()[1:]
              if row.strip()]
    return positives, benign


def regression(rng: random.Random) -> dict:
    """Scan ``regression.tsv``: each labelled line must give its category, each ``none`` line nothing."""
    hit = total = fp = benign = 0
    misses = []
    for row in (CORPUS / "regression.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        if not row.strip():
            continue
        category, _, line = row.partition("\t")
        line = fill(line, rng)
        found = sorted({f.category for f in scan(line)})
        if category == "none":
            benign += 1
            if found:
                fp += 1
                misses.append({"category": "none", "line": line, "found": found})
        else:
            total += 1
            if category in found:
                hit += 1
            else:
                misses.append({"category": category, "line": line, "found": found})
    return {"positive_lines": total, "hit": hit, "recall": round(hit / total, 4) if total else 1.0,
            "benign_lines": benign, "false_positives": fp, "misses": misses}


def measure(seed: int, size_mb: float) -> dict:
    rng = random.Random(seed)
    positives, benign = load(rng)
    per_cat: dict[str, list[int]] = {}
    misses = []
    for category, line in positives:
        hit = any(f.category == category for f in scan(line))
        counts = per_cat.setdefault(category, [0, 0])
        counts[0] += hit
        counts[1] += 1
        if not hit:
            misses.append({"category": category, "line": line,
                           "found": sorted({f.category for f in scan(line)})})
    fp_lines = []
    fp_by_cat: Counter[str] = Counter()
    for line in benign:
        found = scan(line)
        if found:
            fp_lines.append({"line": line, "found": sorted({f"{f.category}/{f.rule}" for f in found})})
            for cat in {f.category for f in found}:
                fp_by_cat[cat] += 1

    def ratio(cats) -> float:
        hit = sum(per_cat[c][0] for c in cats if c in per_cat)
        total = sum(per_cat[c][1] for c in cats if c in per_cat)
        return hit / total if total else 1.0

    # Speed: build ~size_mb of notes from the corpus lines (1 in 50 positive).
    target = int(size_mb * 1024 * 1024)
    pool_b = benign
    pool_p = [line for _, line in positives]
    parts, size = [], 0
    while size < target:
        line = rng.choice(pool_p) if rng.random() < 0.02 else rng.choice(pool_b)
        parts.append(line)
        size += len(line.encode("utf-8")) + 1
    text = "\n".join(parts)
    start, cpu = time.perf_counter(), time.process_time()
    found_big = len(scan(text))
    one_text, one_cpu = time.perf_counter() - start, time.process_time() - cpu
    chunks, chunk, csize = [], [], 0
    for line in parts:
        chunk.append(line)
        csize += len(line.encode("utf-8")) + 1
        if csize >= 20_000:
            chunks.append("\n".join(chunk))
            chunk, csize = [], 0
    if chunk:
        chunks.append("\n".join(chunk))
    start, cpu = time.perf_counter(), time.process_time()
    for c in chunks:
        scan(c)
    files, files_cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "seed": seed,
        "positive_lines": len(positives),
        "benign_lines": len(benign),
        "recall": {c: {"hit": h, "total": t, "recall": round(h / t, 4)} for c, (h, t) in sorted(per_cat.items())},
        "recall_secrets_and_ids": round(ratio(SECRETS_AND_IDS), 4),
        "recall_overall": round(ratio(per_cat), 4),
        "false_positive_rate": round(len(fp_lines) / len(benign), 4),
        "false_positives_by_category": dict(sorted(fp_by_cat.items())),
        "speed": {"bytes": size, "findings": found_big, "one_text_seconds": round(one_text, 3),
                  "one_text_cpu_seconds": round(one_cpu, 3), "files": len(chunks),
                  "files_seconds": round(files, 3), "files_cpu_seconds": round(files_cpu, 3)},
        "misses": misses,
        "false_positives": fp_lines,
        "regression": regression(random.Random(seed)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--size-mb", type=float, default=10.0)
    parser.add_argument("--misses", action="store_true", help="list missed positives and false positives")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.seed, args.size_mb)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(f"corpus: {result['positive_lines']} positive, {result['benign_lines']} benign lines (seed {args.seed})")
    print(f"{'category':<15} {'hit':>4} {'total':>5} {'recall':>7} {'benign FP':>9}")
    for cat, row in result["recall"].items():
        print(f"{cat:<15} {row['hit']:>4} {row['total']:>5} {row['recall']:>7.3f} "
              f"{result['false_positives_by_category'].get(cat, 0):>9}")
    print(f"recall secrets+IDs {result['recall_secrets_and_ids']:.3f} (target >= 0.98)")
    print(f"recall overall     {result['recall_overall']:.3f} (target >= 0.95)")
    print(f"false-positive rate {result['false_positive_rate']:.4f} on benign lines (target <= 0.02)")
    s = result["speed"]
    print(f"speed: {s['bytes'] / 1048576:.1f} MB as one text: {s['one_text_seconds']:.2f} s wall, "
          f"{s['one_text_cpu_seconds']:.2f} s CPU; as {s['files']} files of ~20 KB: {s['files_seconds']:.2f} s wall, "
          f"{s['files_cpu_seconds']:.2f} s CPU (target < 10 s)")
    reg = result["regression"]
    print(f"regression.tsv (added after QA): recall {reg['recall']:.3f} ({reg['hit']}/{reg['positive_lines']}), "
          f"false positives {reg['false_positives']}/{reg['benign_lines']}")
    if args.misses:
        for m in reg["misses"]:
            print("REG ", m["category"], m["found"], m["line"][:100])
        for m in result["misses"]:
            print("MISS", m["category"], m["found"], m["line"][:100])
        for fp in result["false_positives"]:
            print("FP  ", fp["found"], fp["line"][:100])
    return 0


if __name__ == "__main__":
    sys.exit(main())
