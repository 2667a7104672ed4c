#!/usr/bin/env python3
"""Measure the privacy detector on multi-line notes: what reading joined lines costs and finds.

    python bench/privacy_notes_bench.py [--set PATH ...] [--misses] [--json]

A set is a JSON list of ``{"id", "label": "benign" | "private", "kind", "lang", "text"}``
objects, each ``text`` a note of several lines (``bench/privacy_corpus/multiline-*.json``,
written by someone who had not read the rules). The detector reads every line and also
adjacent lines joined (a token or a number cut by a line break); this bench scans each note
as one text (``privacy.scan``, as ``memory.py write`` does) and, to see the joined reading's
share, each line on its own.

Printed per set:
- private notes with any finding (recall), and how many of them only the joined reading finds;
- benign notes with any finding (false positives), and how many of those come only from the
  joined reading (its cost);
- with ``--misses``, the missed private notes and the flagged benign notes with the rules that fired.

Target (privacy issue 9): benign false positives <= 1 % of notes, as for single lines.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from corpus_sets import default_sets  # noqa: E402
from memory_manager.privacy import scan  # noqa: E402

CORPUS = HERE / "privacy_corpus"


def _rules(text: str) -> list[str]:
    return sorted({f"{f.category}/{f.rule}" for f in scan(text)})


def _line_by_line(text: str) -> list[str]:
    rules: set[str] = set()
    for line in text.split("\n"):
        if line.strip():
            rules.update(_rules(line))
    return sorted(rules)


def measure(path: Path) -> dict:
    """Scan every note of a multi-line set; return counts and the notes that went wrong.

    Raises OSError or ValueError when the file cannot be read or is not such a list.
    """
    notes = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(notes, list):
        raise ValueError(f"{path}: not a JSON list of notes")
    out = {"set": path.name, "private": 0, "found": 0, "found_joined_only": 0,
           "benign": 0, "flagged": 0, "flagged_joined_only": 0, "misses": [], "false_positives": []}
    for note in notes:
        whole = _rules(note["text"])
        lines = _line_by_line(note["text"]) if whole else []
        if note["label"] == "private":
            out["private"] += 1
            if whole:
                out["found"] += 1
                out["found_joined_only"] += not lines
            else:
                out["misses"].append({"id": note["id"], "kind": note["kind"]})
        else:
            out["benign"] += 1
            if whole:
                out["flagged"] += 1
                out["flagged_joined_only"] += not lines
                out["false_positives"].append({"id": note["id"], "kind": note["kind"], "rules": whole,
                                               "joined_only": not lines})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", type=Path, default=None, metavar="PATH",
                        help="a multi-line set (repeatable; default: bench/privacy_corpus/multiline-*.json)")
    parser.add_argument("--misses", action="store_true", help="list missed private notes and flagged benign notes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sets = args.set if args.set is not None else default_sets("multiline-*.json")
    results = [measure(path) for path in sets]
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
        return 0
    for r in results:
        p, b = max(r["private"], 1), max(r["benign"], 1)
        print(f"set {r['set']}: {r['private']} private, {r['benign']} benign notes")
        print(f"private notes found      {r['found'] / p:.3f} ({r['found']}/{r['private']}; "
              f"{r['found_joined_only']} only by the joined reading)")
        print(f"benign notes flagged     {r['flagged'] / b:.4f} ({r['flagged']}/{r['benign']}; "
              f"{r['flagged_joined_only']} only by the joined reading; target <= 0.01)")
        if args.misses:
            for m in r["misses"]:
                print(f"  MISS {m['id']} {m['kind']}")
            for fp in r["false_positives"]:
                print(f"  FP   {fp['id']} {fp['kind']} {fp['rules']}{' (joined only)' if fp['joined_only'] else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
