#!/usr/bin/env python3
"""LoCoMo retrieval benchmark: our recall vs a plain BM25 baseline, plus ablations.

Reads the LoCoMo dev split in place (non-commercial licence: never copied
into the repository): ``--data`` or ``LOCOMO_PATH``, default
``/work/shared/data/locomo/locomo-dev.json``.

Each conversation becomes its own workspace (in a temporary folder): one
daily note per session, ``memory/daily/<session date>.md``, one ``##`` entry
per dialog turn with its ``dia_id`` in the heading and as the entry id. Every
question of categories 1-4 is asked through :func:`memory_manager.recall.recall`
with ``track=False`` (so question order cannot change results); a hit at k
means any evidence ``dia_id`` among the top k. The baseline is Okapi BM25
(k1 1.2, b 0.75) over the same entries with plain ``\\w+`` lower-case
tokens, computed in the same run.

Clocks (``--clock``): ``after-conversation`` (the default, issue 13) puts
"now" the day after each conversation's last session, as a user asking right
after the conversation would, so time decay is live; ``today`` is the real
clock, when every LoCoMo turn (2022-2023) is past the 52-day floor and decay
is flat; ``both`` prints both tables.

``--access`` replays the questions in order with access counting on and
compares three policies: ``none`` (no counting), ``every-recall`` (the old
behaviour: every listed hit counted) and ``on-use`` (only the hit the agent
used is counted, via ``memory.py used``; simulated as the first evidence
turn found in the top 10).

    python bench/locomo_bench.py [--data PATH] [--clock after-conversation|today|both] [--access]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from collections import Counter
from datetime import date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory_manager import textproc, units  # noqa: E402
from memory_manager.config import load_config  # noqa: E402
from memory_manager.index import open_index  # noqa: E402
from memory_manager.recall import recall  # noqa: E402

DEFAULT_DATA = "/work/shared/data/locomo/locomo-dev.json"
KS = (1, 5, 10)


def session_date(raw: str) -> date:
    """'1:56 pm on 8 May, 2023' -> date(2023, 5, 8)."""
    return datetime.strptime(raw.split(" on ", 1)[1].strip(), "%d %B, %Y").date()


def build_workspace(conv: dict, ws: Path) -> date:
    """Write one conversation as daily notes; return the last session's date."""
    daily = ws / "memory" / "daily"
    daily.mkdir(parents=True)
    notes: dict[date, list[str]] = {}
    n = 1
    while f"session_{n}" in conv:
        day = session_date(conv[f"session_{n}_date_time"])
        lines = notes.setdefault(day, [f"# {day.isoformat()}", ""])
        for turn in conv[f"session_{n}"]:
            lines.append(f"## [{day.isoformat()}] {turn['dia_id']} {turn['speaker']}")
            lines.append(f"<!-- id: {turn['dia_id']} -->")
            lines.append(f"{turn['speaker']}: {turn['text']}")
            if turn.get("blip_caption"):
                lines.append(f"[shared image: {turn['blip_caption']}]")
            lines.append("")
        n += 1
    for day, lines in notes.items():
        (daily / f"{day.isoformat()}.md").write_text("\n".join(lines), encoding="utf-8")
    return max(notes)


class PlainBM25:
    """Okapi BM25 (k1 1.2, b 0.75, the FTS5 IDF) over plain lower-case word tokens."""

    def __init__(self, docs: list[tuple[str, str]]) -> None:
        self.ids = [i for i, _ in docs]
        self.toks = [Counter(textproc.plain_tokens(t)) for _, t in docs]
        self.lens = [sum(c.values()) for c in self.toks]
        self.avg = sum(self.lens) / len(self.lens)
        self.df: Counter = Counter()
        for c in self.toks:
            self.df.update(c.keys())
        self.n = len(docs)

    def search(self, query: str, k: int) -> list[str]:
        q = set(textproc.plain_tokens(query))
        scores = []
        for i, c in enumerate(self.toks):
            s = 0.0
            for t in q:
                tf = c.get(t)
                if tf:
                    idf = math.log((self.n - self.df[t] + 0.5) / (self.df[t] + 0.5))
                    idf = idf if idf > 0 else 1e-6
                    s += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * self.lens[i] / self.avg))
            if s > 0:
                scores.append((-s, i))
        scores.sort()
        return [self.ids[i] for _, i in scores[:k]]


def norm_ev(ev: str) -> str:
    return ev.strip().replace(" ", "")


def run_mode(data: list, args: argparse.Namespace, cfg: dict, variants: dict, mode: str) -> None:
    """Run every question under one clock mode and print the table."""
    os.environ.pop("MEMORY_MANAGER_NOW", None)
    hits = {name: Counter() for name in variants}
    total = 0
    with tempfile.TemporaryDirectory(prefix="locomo-") as tmp:
        for sample in data:
            ws = Path(tmp) / sample["sample_id"]
            last = build_workspace(sample["conversation"], ws)
            if mode == "after-conversation":
                os.environ["MEMORY_MANAGER_NOW"] = (last + timedelta(days=1)).isoformat()
            idx = open_index(ws)
            docs = [(e.id, e.heading + "\n" + e.text)
                    for rel, kind in units.source_files(ws)
                    for e in units.parse_text(rel, kind, (ws / rel).read_text(encoding="utf-8"))]
            base = PlainBM25(docs)
            for qa in sample["qa"]:
                if qa.get("category") not in (1, 2, 3, 4):
                    continue
                evidence = {norm_ev(e) for e in qa.get("evidence", [])}
                total += 1
                for name, opts in variants.items():
                    if opts is None:
                        ranked = base.search(qa["question"], max(KS))
                    else:
                        ranked = [h.id for h in recall(ws, qa["question"], cfg, top_k=max(KS), track=False,
                                                       index=idx, **opts)]
                    for k in KS:
                        if evidence & set(ranked[:k]):
                            hits[name][k] += 1
            idx.close()
    print(f"LoCoMo dev ({Path(args.data).name}): {len(data)} conversations, {total} questions (categories 1-4), "
          f"now={mode}")
    print(f"{'variant':40s} " + " ".join(f"hit@{k:<3d}" for k in KS))
    for name in variants:
        print(f"{name:40s} " + " ".join(f"{hits[name][k] / total:.3f} " for k in KS))


def run_access(data: list, args: argparse.Namespace, cfg: dict, mode: str) -> None:
    """Replay every question in order with access counting, under three policies; print hit@k."""
    from memory_manager import access

    policies = ("none", "every-recall", "on-use")
    hits = {p: Counter() for p in policies}
    total = 0
    with tempfile.TemporaryDirectory(prefix="locomo-access-") as tmp:
        for policy in policies:
            os.environ.pop("MEMORY_MANAGER_NOW", None)
            total = 0
            for sample in data:
                ws = Path(tmp) / policy / sample["sample_id"]
                last = build_workspace(sample["conversation"], ws)
                if mode == "after-conversation":
                    os.environ["MEMORY_MANAGER_NOW"] = (last + timedelta(days=1)).isoformat()
                idx = open_index(ws)
                for qa in sample["qa"]:
                    if qa.get("category") not in (1, 2, 3, 4):
                        continue
                    evidence = {norm_ev(e) for e in qa.get("evidence", [])}
                    total += 1
                    ranked = [h.id for h in recall(ws, qa["question"], cfg, top_k=max(KS), track=False, index=idx)]
                    for k in KS:
                        if evidence & set(ranked[:k]):
                            hits[policy][k] += 1
                    if policy == "every-recall" and ranked:
                        access.record(ws, ranked)
                    elif policy == "on-use":
                        used = [r for r in ranked if r in evidence][:1]
                        if used:
                            access.record(ws, used)
                idx.close()
    print(f"LoCoMo dev access replay: {total} questions in order, now={mode}")
    print(f"{'access policy':40s} " + " ".join(f"hit@{k:<3d}" for k in KS))
    for p in policies:
        print(f"{p:40s} " + " ".join(f"{hits[p][k] / total:.3f} " for k in KS))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("LOCOMO_PATH", DEFAULT_DATA))
    ap.add_argument("--clock", choices=("after-conversation", "today", "both"), default="after-conversation")
    ap.add_argument("--now", choices=("both", "today", "after"), default=None, help=argparse.SUPPRESS)
    ap.add_argument("--access", action="store_true", help="compare access-counting policies over a replay")
    ap.add_argument("--share", type=float, default=None, help="override the neighbour share")
    args = ap.parse_args()
    data = json.loads(Path(args.data).read_text(encoding="utf-8"))
    cfg = load_config(None)
    variants = {"recall (full score)": {}, "baseline: plain BM25": None,
                "- keyword part": {"disabled": ("keyword",)}, "- time part": {"disabled": ("time",)},
                "- access part": {"disabled": ("access",)}, "- tags part": {"disabled": ("tags",)},
                "- neighbour share": {"neighbour_share": 0.0},
                "keyword only (BM25+neighbours, ours)": {"disabled": ("time", "access", "tags")}}
    if args.share is not None:
        variants["recall (full score)"] = {"neighbour_share": args.share}
    clock = args.clock if args.now is None else {"after": "after-conversation"}.get(args.now, args.now)
    modes = ("after-conversation", "today") if clock == "both" else (clock,)
    if args.access:
        for mode in modes:
            run_access(data, args, cfg, mode)
        return 0
    for mode in modes:
        run_mode(data, args, cfg, variants, mode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
