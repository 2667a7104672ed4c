#!/usr/bin/env python3
"""Train the sensitive-topic line scorer (memory_manager/privacy_model.py) and measure it honestly.

    python bench/train_privacy_model.py --loso [--json]     # leave-one-set-out figures, no file written
    python bench/train_privacy_model.py --write [--threshold T]   # train on every dev set, write the weights

Development only: needs scikit-learn (with numpy and scipy), kept out of requirements-dev.txt so CI
never downloads it: ``python3 -m pip install -r requirements-train.txt``. The bundle runs the model
with the standard library. The shipped file was written with ``--write --threshold 0.95``. Training data: every labelled development set of
``bench/privacy_corpus`` except the files named in ``UNSEEN`` (``corpus_sets.default_sets``):
the ``independent-*``/``heldout-*`` sets (``label<TAB>kind<TAB>text``), ``positive.tsv``,
``benign.tsv`` and ``regression.tsv`` (templates filled with ``privacy_fakes.fill``, seed 7),
and the lines of the benign notes of the multi-line sets (negatives only: a private note's label
belongs to one of its lines, not all). A line labelled with a sensitive-topic category
(``privacy.TOPIC_CATEGORIES``) is that class; every other line, benign or private of another
category, is ``none``.

Features: ``privacy_model.features`` (the function inference uses, so the hashing is the same),
as counts scaled to unit length; multinomial logistic regression; weights quantised to signed
bytes per class, exactly as written to the file, and every figure below is computed by the
package's pure-Python inference on those quantised weights.

``--loso``: for each of the ``independent-*``/``heldout-*`` sets, train on all the other data and
score the held set; per set and mean (worst too), for the rules alone (``privacy.scan``) and for
rules + model at each candidate threshold: recall overall, sensitive-topic recall, benign false
positive rate. A line counts as found by the model when the rules report no topic on it, its score
(1 - P(none)) reaches the threshold and its most likely topic is the line's label; a benign line
with any finding (the model's included) is a false positive.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from array import array
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from memory_manager import privacy_model as pm  # noqa: E402
from memory_manager.privacy import TOPIC_CATEGORIES, scan  # noqa: E402
from corpus_sets import CORPUS, default_sets  # noqa: E402
from privacy_fakes import fill  # noqa: E402

CLASSES = (pm.NONE, *sorted(TOPIC_CATEGORIES))
THRESHOLDS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99)


def folds() -> dict[str, list[tuple[str, str]]]:
    """Each independent/held-out development set: name -> (label, text) rows."""
    out = {}
    for path in default_sets("*-?.tsv"):
        if not path.name.startswith(("independent-", "heldout-")):
            continue
        rows = []
        for row in path.read_text(encoding="utf-8").splitlines()[1:]:
            parts = row.split("\t", 2)
            if row.strip() and len(parts) == 3:
                rows.append((parts[0].strip(), parts[2]))
        out[path.name] = rows
    return out


def extras() -> list[tuple[str, str]]:
    """Training rows that are never a fold: the frozen corpus, regression rows, benign note lines."""
    rng = random.Random(7)
    rows = []
    for row in (CORPUS / "positive.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        if row.strip():
            label, _, line = row.partition("\t")
            rows.append((label, fill(line, rng)))
    rows += [("none", fill(r, rng)) for r in (CORPUS / "benign.tsv").read_text(encoding="utf-8").splitlines()[1:]
             if r.strip()]
    for row in (CORPUS / "regression.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        if row.strip():
            label, _, line = row.partition("\t")
            rows.append((label, fill(line, rng)))
    for path in default_sets("*.json"):
        if path.name == "findings-snapshot.json":
            continue
        for note in json.loads(path.read_text(encoding="utf-8")):
            if isinstance(note, dict) and note.get("label") == "benign" and isinstance(note.get("text"), str):
                rows += [("none", line) for line in note["text"].splitlines() if line.strip()]
    return rows


def target(label: str) -> str:
    return label if label in TOPIC_CATEGORIES else pm.NONE


def matrix(texts: list[str], size: int):
    """Unit-length count vectors of ``texts`` (scipy CSR), the features inference computes."""
    from scipy.sparse import csr_matrix

    data, cols, ptr = [], [], [0]
    for text in texts:
        counts = Counter(pm.features(text, size))
        norm = math.sqrt(sum(c * c for c in counts.values())) or 1.0
        for i, c in counts.items():
            cols.append(i)
            data.append(c / norm)
        ptr.append(len(cols))
    return csr_matrix((data, cols, ptr), shape=(len(texts), size))


def train(rows: list[tuple[str, str]], size: int, c: float, threshold: float, note: str = "") -> pm.Model:
    """Fit on ``rows`` ((label, text)) and return the quantised model, as the file would hold it."""
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        sys.exit("error: training needs scikit-learn: python3 -m pip install -r requirements-train.txt")

    x = matrix([t for _, t in rows], size)
    y = [CLASSES.index(target(label)) for label, _ in rows]
    clf = LogisticRegression(C=c, max_iter=2000, class_weight="balanced")
    clf.fit(x, y)
    return quantise(clf.coef_, clf.intercept_, size, threshold, note)


def quantise(coef, intercept, size: int, threshold: float, note: str) -> pm.Model:
    """Signed-byte weights per class (``weight ~= byte * scale``), wrapped in a :class:`pm.Model`."""
    weights, scales = [], []
    for row in coef:
        top = float(abs(row).max()) or 1.0
        scale = top / 127.0
        weights.append(array("b", [max(-127, min(127, round(float(w) / scale))) for w in row]))
        scales.append(scale)
    return pm.Model(CLASSES, size, tuple(weights), tuple(scales), tuple(float(b) for b in intercept), threshold)


def dump(model: pm.Model, note: str) -> bytes:
    """The weights file's bytes for ``model`` (format: :mod:`memory_manager.privacy_model`)."""
    head = {"format": pm.FORMAT, "size": model.size, "classes": list(model.classes),
            "scales": list(model.scales), "bias": list(model.bias), "threshold": model.threshold, "note": note}
    return json.dumps(head, ensure_ascii=False, separators=(",", ":")).encode() + b"\n" + b"".join(w.tobytes() for w in model.weights)


def evaluate(rows: list[tuple[str, str]], rule_cats: list[set[str]], scores: list[tuple[str, float] | None],
             threshold: float | None) -> dict:
    """Recall overall, topic recall and benign FP rate of one held set (model off when threshold is None)."""
    pos = hit = topics = topic_hit = benign = fp = alone_hit = alone_fp = missed = rescued = 0
    for (label, _), cats, sc in zip(rows, rule_cats, scores):
        cats = set(cats)
        fires = threshold is not None and sc is not None and sc[1] >= threshold
        if label in TOPIC_CATEGORIES and label not in cats:
            missed += 1  # a topic line the rules miss: what the model is for
            rescued += fires and sc[0] == label
        if fires and not cats & TOPIC_CATEGORIES:
            cats.add(sc[0])
        if label == "none":
            benign += 1
            fp += bool(cats)
            alone_fp += fires
            continue
        pos += 1
        hit += label in cats
        if label in TOPIC_CATEGORIES:
            topics += 1
            topic_hit += label in cats
            alone_hit += fires and sc[0] == label
    # model_topics / model_fp: the model on its own (a line is its label when it fires with it), which
    # sets the rules were tuned on cannot show through the rules+model figures.
    return {"recall": hit / pos, "topics": topic_hit / topics, "fp": fp / benign, "fp_lines": fp, "benign": benign,
            "model_topics": alone_hit / topics, "model_fp": alone_fp / benign, "rule_missed": missed,
            "rescued": rescued}


def loso(size: int, c: float) -> dict:
    sets = folds()
    extra = extras()
    t0 = time.process_time()
    cats = {name: [{f.category for f in scan(text)} for _, text in rows] for name, rows in sets.items()}
    rule_seconds = time.process_time() - t0
    result: dict = {"size": size, "C": c, "sets": {}}
    for name, rows in sets.items():
        train_rows = extra + [r for other, rs in sets.items() if other != name for r in rs]
        model = train(train_rows, size, c, 0.5)
        scores = [pm.score(text, model) for _, text in rows]
        per = {"rules": evaluate(rows, cats[name], scores, None),
               "scores": [None if sc is None else [sc[0], round(sc[1], 4)] for sc in scores],
               "labels": [label for label, _ in rows], "rule_cats": [sorted(c) for c in cats[name]]}
        for t in THRESHOLDS:
            per[str(t)] = evaluate(rows, cats[name], scores, t)
        result["sets"][name] = per
        print(f"{name}: rules {fmt(per['rules'])} | " + " | ".join(f"{t} {fmt(per[str(t)])}" for t in (0.9, 0.95, 0.97)),
              file=sys.stderr, flush=True)
    keys = ["rules", *map(str, THRESHOLDS)]
    result["mean"] = {k: {m: sum(s[k][m] for s in result["sets"].values()) / len(sets)
                          for m in ("recall", "topics", "fp", "model_topics", "model_fp")} for k in keys}
    result["worst"] = {k: {"recall": min(s[k]["recall"] for s in result["sets"].values()),
                           "topics": min(s[k]["topics"] for s in result["sets"].values()),
                           "fp": max(s[k]["fp"] for s in result["sets"].values())} for k in keys}
    result["rule_cpu_seconds"] = round(rule_seconds, 1)
    return result


def fmt(r: dict) -> str:
    return f"R {r['recall']:.3f} T {r['topics']:.3f} FP {100 * r['fp']:.2f}%"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loso", action="store_true", help="leave-one-set-out figures")
    parser.add_argument("--write", action="store_true", help=f"train on every dev set and write {pm.MODEL_PATH}")
    parser.add_argument("--size", type=int, default=1 << 17, help="hash table size (default 2**17)")
    parser.add_argument("--c", type=float, default=4.0, help="inverse regularisation strength (default 4)")
    parser.add_argument("--threshold", type=float, default=0.9, help="topic score written into the file")
    parser.add_argument("--json", action="store_true", help="print the --loso result as JSON")
    args = parser.parse_args()
    if args.loso:
        res = loso(args.size, args.c)
        if args.json:
            print(json.dumps(res, indent=1))
        else:
            print(f"size {args.size}, C {args.c}; per set: recall, topic recall, benign FP")
            for name, per in res["sets"].items():
                print(f"{name:<22} rules {fmt(per['rules'])}   " + "   ".join(
                    f"t{t}: {fmt(per[str(t)])}" for t in THRESHOLDS[3:]))
            for k in ("mean", "worst"):
                print(f"{k:<22} rules {fmt(res[k]['rules'])}   " + "   ".join(
                    f"t{t}: {fmt(res[k][str(t)])}" for t in THRESHOLDS[3:]))
            print("mean by threshold: " + "; ".join(f"{t} {fmt(res['mean'][str(t)])}" for t in THRESHOLDS))
    if args.write:
        rows = extras() + [r for rs in folds().values() for r in rs]
        note = f"trained on {len(rows)} rows of the development sets (bench/train_privacy_model.py), C {args.c}"
        model = train(rows, args.size, args.c, args.threshold)
        path = Path(pm.MODEL_PATH)
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(dump(model, note))
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
