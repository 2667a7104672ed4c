#!/usr/bin/env python3
"""Benchmark the privacy detector: recall, false-positive rate and speed.

    python bench/privacy_bench.py [--seed N] [--size-mb 10] [--misses] [--json] [--set PATH ...]

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

Independent sets (privacy issue 9): ``--set PATH`` (repeatable; default
every ``bench/privacy_corpus/independent-*.tsv``) loads a labelled set
written by someone who never saw the rules: a header line, then
``label<TAB>kind<TAB>text`` rows with literal values; ``label`` is a category
of ``privacy.CATEGORIES`` or ``none`` (benign). A positive row counts as found
when the detector reports its labelled category on the line; a benign row is a
false positive when it gets any finding, a sensitive-topic notice included.
Printed per set: recall per category and per kind, recall overall, for
secrets/IDs/cards (secret, government_id, payment_card, bank_account) and for
sensitive topics, the benign false-positive rate, and the share of findings
of each confidence.

Targets (privacy issue 9, on unseen text): recall >= 0.97 overall, >= 0.99 for
secrets, IDs and cards, >= 0.90 for sensitive topics; benign false positives
<= 0.01; 10 MB scanned in < 10 s on a 2-core machine.
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

from memory_manager.privacy import TOPIC_CATEGORIES, scan  # noqa: E402
from corpus_sets import default_sets  # noqa: E402
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


def load_set(path: Path) -> list[tuple[str, str, str]]:
    """Return the (label, kind, text) rows of an independent set (header line skipped)."""
    rows = []
    for n, row in enumerate(path.read_text(encoding="utf-8").splitlines()[1:], start=2):
        if not row.strip():
            continue
        parts = row.split("\t", 2)
        if len(parts) != 3:
            raise SystemExit(f"{path}:{n}: expected label<TAB>kind<TAB>text")
        rows.append((parts[0].strip(), parts[1].strip(), parts[2]))
    return rows


def measure_set(path: Path) -> dict:
    """Scan every row of an independent set on its own; see the module docstring for the figures."""
    rows = load_set(path)
    per_cat: dict[str, list[int]] = {}
    per_kind: dict[str, list[int]] = {}
    misses, fps = [], []
    benign = fp = 0
    confidence: Counter[str] = Counter()
    for label, kind, text in rows:
        found = scan(text)
        cats = sorted({f.category for f in found})
        confidence.update(f.confidence for f in found if hasattr(f, "confidence"))
        k = per_kind.setdefault(f"{label}/{kind}", [0, 0])
        if label == "none":
            benign += 1
            k[1] += 1
            if found:
                fp += 1
                fps.append({"kind": kind, "line": text, "found": sorted({f"{f.category}/{f.rule}" for f in found})})
            else:
                k[0] += 1
            continue
        hit = label in cats
        c = per_cat.setdefault(label, [0, 0])
        c[0] += hit
        c[1] += 1
        k[0] += hit
        k[1] += 1
        if not hit:
            misses.append({"category": label, "kind": kind, "line": text, "found": cats})

    def ratio(cats) -> float:
        hit = sum(per_cat[c][0] for c in cats if c in per_cat)
        total = sum(per_cat[c][1] for c in cats if c in per_cat)
        return round(hit / total, 4) if total else 1.0

    return {"set": str(path), "positive_lines": sum(t for _, t in per_cat.values()), "benign_lines": benign,
            "recall": {c: {"hit": h, "total": t, "recall": round(h / t, 4)} for c, (h, t) in sorted(per_cat.items())},
            "kinds": {k: {"ok": h, "total": t} for k, (h, t) in sorted(per_kind.items())},
            "recall_overall": ratio(per_cat), "recall_secrets_ids_cards": ratio(SECRETS_AND_IDS),
            "recall_topics": ratio(TOPIC_CATEGORIES), "false_positives": fp,
            "false_positive_rate": round(fp / benign, 4) if benign else 0.0,
            "confidence": dict(sorted(confidence.items())), "misses": misses, "false_positive_lines": fps}


def print_set(result: dict, show: bool) -> None:
    """Print one independent set's figures (and its misses and false positives when ``show``)."""
    print(f"\nset {result['set']}: {result['positive_lines']} positive, {result['benign_lines']} benign lines")
    print(f"{'category':<15} {'hit':>4} {'total':>5} {'recall':>7}")
    for cat, row in result["recall"].items():
        print(f"{cat:<15} {row['hit']:>4} {row['total']:>5} {row['recall']:>7.3f}")
    short = {k: r for k, r in result["kinds"].items() if r["ok"] < r["total"]}
    print(f"kinds: {len(result['kinds'])}, all rows right in {len(result['kinds']) - len(short)}; the others "
          "(label/kind: ok/total; for none rows ok = not flagged):")
    for kind, row in short.items():
        print(f"  {kind:<50} {row['ok']:>3}/{row['total']:<3}")
    print(f"recall overall            {result['recall_overall']:.3f} (target >= 0.97)")
    print(f"recall secrets/IDs/cards  {result['recall_secrets_ids_cards']:.3f} (target >= 0.99)")
    print(f"recall sensitive topics   {result['recall_topics']:.3f} (target >= 0.90)")
    print(f"benign false positives    {result['false_positive_rate']:.4f} "
          f"({result['false_positives']}/{result['benign_lines']}; target <= 0.01)")
    if result["confidence"]:
        print("findings by confidence:   " + ", ".join(f"{k} {v}" for k, v in result["confidence"].items()))
    if show:
        for m in result["misses"]:
            print("MISS", m["category"], m["kind"], m["found"], m["line"][:110])
        for m in result["false_positive_lines"]:
            print("FP  ", m["kind"], m["found"], m["line"][:110])


def detect_secrets_eval(paths: list[Path], seed: int, lines: int = 5000) -> dict:
    """Evaluate detect-secrets (Yelp) as a base for secrets, when it is installed.

    Its default plugins (keyword, entropy and the vendor detectors) run on
    each ``secret`` row of the sets (found = any secret reported on the
    line) and on each benign row (false positive = any secret reported), and
    on ``lines`` lines of the speed text to time it per line; the time is
    extrapolated to 10 MB. detect-secrets is not a dependency of the bundle:
    this only decides whether it could be one (privacy issue 9).
    """
    try:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings
    except ImportError:
        return {"installed": False}
    rows = [row for path in paths for row in load_set(path)]
    with default_settings():
        secrets = [text for label, _, text in rows if label == "secret"]
        benign = [text for label, _, text in rows if label == "none"]
        hit = sum(1 for text in secrets if any(True for _ in scan_line(text)))
        fp = sum(1 for text in benign if any(True for _ in scan_line(text)))
        rng = random.Random(seed)
        positives, plain = load(rng)
        sample = [rng.choice(plain) for _ in range(lines)]
        start = time.process_time()
        for line in sample:
            for _ in scan_line(line):
                pass
        per_line = (time.process_time() - start) / lines
    avg_bytes = sum(len(x.encode("utf-8")) + 1 for x in sample) / lines
    return {"installed": True, "secret_rows": len(secrets), "secret_recall": round(hit / len(secrets), 4)
            if secrets else 1.0, "benign_rows": len(benign),
            "benign_fp_rate": round(fp / len(benign), 4) if benign else 0.0,
            "cpu_us_per_line": round(per_line * 1e6, 1),
            "cpu_seconds_10mb": round(per_line * 10 * 1048576 / avg_bytes, 1)}


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
    parser.add_argument("--set", action="append", type=Path, default=None, metavar="PATH",
                        help="an independent label<TAB>kind<TAB>text set (repeatable; default: "
                             "bench/privacy_corpus/independent-*.tsv)")
    parser.add_argument("--set-only", action="store_true", help="only the independent set(s): no corpus, no speed")
    parser.add_argument("--detect-secrets", action="store_true",
                        help="also evaluate detect-secrets (when installed) on the sets and for speed")
    args = parser.parse_args()
    sets = args.set if args.set is not None else default_sets("independent-*.tsv")
    set_results = [measure_set(path) for path in sets]
    if args.detect_secrets:
        ds = detect_secrets_eval(sets, args.seed)
        if args.json:
            print(json.dumps({"detect_secrets": ds}, ensure_ascii=False, indent=2))
        elif not ds["installed"]:
            print("detect-secrets is not installed")
        else:
            print(f"detect-secrets (default plugins): secret recall {ds['secret_recall']:.3f} on {ds['secret_rows']} "
                  f"rows, benign FP rate {ds['benign_fp_rate']:.4f} on {ds['benign_rows']} rows, "
                  f"{ds['cpu_us_per_line']} us CPU per line = about {ds['cpu_seconds_10mb']} s CPU per 10 MB")
        return 0
    if args.set_only:
        if args.json:
            print(json.dumps({"sets": set_results}, ensure_ascii=False, indent=2))
        else:
            for r in set_results:
                print_set(r, args.misses)
        return 0
    result = measure(args.seed, args.size_mb)
    result["sets"] = set_results
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
    for r in set_results:
        print_set(r, args.misses)
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
