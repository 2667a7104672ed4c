#!/usr/bin/env python3
"""Check that a change to the privacy detector's speed changed no finding.

    python bench/privacy_equivalence.py [--check SNAPSHOT] [--write SNAPSHOT] [--root DIR] [--no-big]

Scans every committed corpus and compares the exact findings (rule,
category, line, start, end, confidence) with a snapshot written by another
version of the code (``--write`` with ``--root`` pointing at a checkout of
that version, e.g. ``git worktree add /tmp/main main``):

- each row of every ``bench/privacy_corpus/*.tsv`` alone (templates filled
  with ``privacy_fakes.fill``, fixed seed), and each file's rows joined into
  one text; each note of every ``bench/privacy_corpus/*.json`` set of
  multi-line notes alone, and all joined;
- the attack suites' phrasings (``tests/attack/phrasings.py``,
  ``tests/attack/privacy_r3_phrasings.py``), each alone and joined;
- unless ``--no-big``: the 10 MB speed text of ``privacy_bench.py`` (seed
  7), in one process (``privacy.serial_scans``) and as ``scan`` runs it
  (in two processes from 4 M characters on).

The snapshot holds rule names, categories and offsets only (per-row lists
for single rows; a SHA-256 of the list and its length for joined texts),
never a matched value, so it can be committed. Exit 0 when every finding is
the same, 1 with the differences listed otherwise.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE / "privacy_corpus" / "findings-snapshot.json"


def _texts(root: Path) -> dict[str, list[str]]:
    """Corpus name -> its texts (rows or phrasings), read from this checkout (not from ``--root``)."""
    sys.path.insert(0, str(HERE))
    from corpus_sets import default_sets
    from privacy_fakes import fill

    out: dict[str, list[str]] = {}
    for path in default_sets("*.tsv"):
        rng = random.Random(7)
        rows = [row for row in path.read_text(encoding="utf-8").splitlines()[1:] if row.strip()]
        out[path.name] = [fill(row.split("\t")[-1], rng) for row in rows]
    for path in default_sets("*.json"):
        if path.name == DEFAULT.name:
            continue
        notes = json.loads(path.read_text(encoding="utf-8"))
        out[path.name] = [note["text"] for note in notes if isinstance(note, dict) and isinstance(note.get("text"), str)]
    sys.path.insert(0, str(HERE.parent / "tests" / "attack"))
    import phrasings
    import privacy_r3_phrasings

    def strings(items) -> list[str]:
        got = []
        for item in items:
            if isinstance(item, str):
                got.append(item)
            else:
                got.extend(x for x in item if isinstance(x, str))
        return got

    out["attack/phrasings.PRIVATE"] = strings(phrasings.PRIVATE)
    out["attack/phrasings.BENIGN"] = strings(phrasings.BENIGN)
    out["attack/privacy_r3_phrasings.P"] = strings(privacy_r3_phrasings.P)
    if hasattr(privacy_r3_phrasings, "B"):
        out["attack/privacy_r3_phrasings.B"] = strings(privacy_r3_phrasings.B)
    return out


def _rows(found) -> list[list]:
    return [[f.rule, f.category, f.line, f.start, f.end, f.confidence] for f in found]


def _digest(rows: list[list]) -> dict:
    return {"n": len(rows), "sha256": hashlib.sha256(json.dumps(rows).encode()).hexdigest()}


def _speed_text() -> str:
    """The 10 MB text of ``privacy_bench.py``'s speed figure (seed 7)."""
    sys.path.insert(0, str(HERE))
    from privacy_bench import load

    rng = random.Random(7)
    positives, benign = load(rng)
    target = 10 * 1024 * 1024
    parts, size = [], 0
    pool_p = [line for _, line in positives]
    while size < target:
        line = rng.choice(pool_p) if rng.random() < 0.02 else rng.choice(benign)
        parts.append(line)
        size += len(line.encode("utf-8")) + 1
    return "\n".join(parts)


def snapshot(privacy, big: bool) -> dict:
    """Findings of ``privacy`` (the module under test) over every text."""
    out: dict = {}
    for name, texts in _texts(HERE.parent).items():
        out[name] = {"rows": [_rows(privacy.scan(t)) for t in texts],
                     "joined": _digest(_rows(privacy.scan("\n".join(texts))))}
    if big:
        text = _speed_text()
        with privacy.serial_scans():
            out["speed-10mb"] = {"serial": _digest(_rows(privacy.scan(text)))}
        out["speed-10mb"]["scan"] = _digest(_rows(privacy.scan(text)))
    return out


def compare(want: dict, got: dict) -> list[str]:
    """The differences between two snapshots, one line each."""
    diffs = []
    for name in sorted(set(want) | set(got)):
        a, b = want.get(name), got.get(name)
        if a is None or b is None:
            diffs.append(f"{name}: only in {'the snapshot' if b is None else 'this run'}")
            continue
        if "rows" in a:
            if len(a["rows"]) != len(b["rows"]):
                diffs.append(f"{name}: {len(a['rows'])} rows in the snapshot, {len(b['rows'])} now")
            for i, (x, y) in enumerate(zip(a["rows"], b["rows"])):
                if x != y:
                    diffs.append(f"{name} row {i + 2}: {x} -> {y}")
        for key in ("joined", "serial", "scan"):
            if key in a and a[key] != b.get(key):
                diffs.append(f"{name} {key}: {a[key]} -> {b.get(key)}")
    return diffs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=Path, default=None, help=f"compare with this snapshot (default {DEFAULT.name})")
    parser.add_argument("--write", type=Path, default=None, help="write the snapshot of this run here")
    parser.add_argument("--root", type=Path, default=HERE.parent,
                        help="the checkout whose memory_manager is scanned with (default: this one)")
    parser.add_argument("--no-big", action="store_true", help="skip the 10 MB speed text")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from memory_manager import privacy

    if Path(privacy.__file__).resolve().parent.parent != args.root.resolve():
        print(f"memory_manager came from {privacy.__file__}, not from {args.root}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    got = snapshot(privacy, big=not args.no_big)
    rows = sum(len(v.get("rows", ())) for v in got.values())
    print(f"{rows} texts scanned alone, {len(got)} corpora joined ({time.perf_counter() - start:.1f} s), "
          f"code from {args.root}")
    if args.write:
        args.write.write_text(json.dumps(got, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"snapshot written to {args.write}")
    if args.check or not args.write:
        path = args.check or DEFAULT
        want = json.loads(path.read_text(encoding="utf-8"))
        if args.no_big:
            want.pop("speed-10mb", None)
        diffs = compare(want, got)
        for line in diffs[:200]:
            print(line)
        findings = sum(len(r) for v in got.values() for r in v.get("rows", ()))
        print(f"{'IDENTICAL' if not diffs else f'{len(diffs)} DIFFERENCES'} to {path.name}: {findings} findings "
              "on single texts, joined digests" + ("" if args.no_big else ", 10 MB digests"))
        return 1 if diffs else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
