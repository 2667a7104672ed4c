#!/usr/bin/env python3
"""Push labelled lines through ``memory.py write/learn/remember`` as a user would.

    python bench/privacy_gate_bench.py [--set PATH] [--positives N] [--benign N] [--seed N] [--json]

For each sampled row of an independent set (``label<TAB>kind<TAB>text``, see
``privacy_bench.py``; default every ``bench/privacy_corpus/independent-*.tsv``)
a fresh temporary workspace is used and one store verb runs as a real
process (the verbs take turns: ``write --change``, ``learn --text``,
``remember --text``), without ``--approved``:

- a private line (any label but ``none``) counts as **refused** when the
  command exits non-zero *and* leaves no trace: no file of the workspace
  changed apart from the gate's redacted audit log (and its salt; a lock file
  and the backup folder's mode marker hold no content), and that
  log holds no token of the line that carries a digit or a symbol (the kind
  of token a secret is made of). Anything else counts as **stored**.
  Target (privacy issue 9): stored share <= 3 %.
- a benign line (``none``) counts as **stored** when the command exits 0; when
  it does not, it is tried again with ``--approved`` (what the user does after
  confirming). Target: every benign line stored, at worst after ``--approved``.

Private phrasings are sampled per label in proportion (passwords, PINs, cards,
IDs and health facts included), ``--positives`` of them (default 120) and
``--benign`` benign lines (default 60); ``--seed`` fixes the sample.
Each run costs one Python process per line (about 0.3 s).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from corpus_sets import default_sets  # noqa: E402
from privacy_bench import CORPUS, load_set  # noqa: E402

#: Files a refused operation may write: the gate's audit log (redacted) and its salt, and
#: content-free machine state (the workspace lock, the backup folder's mode marker).
GATE_STATE = {"gate-audit.jsonl", "audit-salt", ".lock", ".modes-v2"}
#: A fixed T2 key, so that ``remember`` can encrypt (32 bytes, Base64).
BENCH_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="


def snapshot(ws: Path) -> dict[str, str]:
    """SHA-256 of every file under ``ws`` (relative POSIX path -> hex)."""
    out = {}
    for path in ws.rglob("*"):
        if path.is_file():
            out[path.relative_to(ws).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def value_tokens(text: str) -> list[str]:
    """Tokens of ``text`` that hold a digit or a symbol (4+ characters): what a secret looks like."""
    return [t for t in re.split(r"[\s,，。:：;；()（）\"'“”]+", text)
            if len(t) >= 4 and re.search(r"[\d!#$%&*+/=?@^_~-]", t)]


def command(verb: str, n: int, text: str, approved: bool) -> list[str]:
    """The ``memory.py`` arguments that store ``text`` with ``verb``."""
    if verb == "write":
        args = ["write", "--topic", f"bench note {n}", "--change", text]
    elif verb == "learn":
        args = ["learn", f"bench-{n}", "--text", text]
    else:
        args = ["remember", "--skill", "bench", "--topic", f"t{n}", "--text", text]
    return args + (["--approved"] if approved else []) + ["--json"]


def run(ws: Path, args: list[str]) -> int:
    env = dict(os.environ, OPENCLAW_WORKSPACE_DIR=str(ws), OPENCLAW_STATE_DIR=str(ws.parent / "state"),
               HOME=str(ws.parent / "home"), MEMORY_MANAGER_KEY=BENCH_KEY)
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "memory.py"), *args], capture_output=True,
                          text=True, env=env, timeout=120)
    return proc.returncode


def trace(ws: Path, before: dict[str, str], text: str) -> list[str]:
    """Files changed by a refused command other than the gate state, and line tokens found in that state."""
    after = snapshot(ws)
    changed = [p for p, h in after.items() if before.get(p) != h and p.rsplit("/", 1)[-1] not in GATE_STATE]
    leaked = []
    for p in after:
        if p.rsplit("/", 1)[-1] == "gate-audit.jsonl":
            raw = (ws / p).read_text(encoding="utf-8", errors="replace")
            # The log's own timestamp is not a trace of the line ("until 2026" is not leaked by "time": "2026-...").
            raw = re.sub(r'"time": *"[^"]*"', "", raw)
            leaked += [t for t in value_tokens(text) if t in raw]
    return changed + [f"token in gate log: {t[:3]}..." for t in leaked]


def sample(rows: list[tuple[str, str, str]], positives: int, benign: int,
           rng: random.Random) -> list[tuple[str, str, str]]:
    """``positives`` private rows (in proportion per label) and ``benign`` benign rows."""
    private = [r for r in rows if r[0] != "none"]
    plain = [r for r in rows if r[0] == "none"]
    by_label: dict[str, list] = {}
    for r in private:
        by_label.setdefault(r[0], []).append(r)
    chosen = []
    for label, group in sorted(by_label.items()):
        k = max(1, round(positives * len(group) / len(private)))
        chosen += rng.sample(group, min(k, len(group)))
    return chosen + rng.sample(plain, min(benign, len(plain)))


def measure(paths: list[Path], positives: int, benign: int, seed: int) -> dict:
    rng = random.Random(seed)
    rows = [row for path in paths for row in load_set(path)]
    picked = sample(rows, positives, benign, rng)
    verbs = ("write", "learn", "remember")
    stored, refused, benign_ok, benign_after_approval, benign_refused = [], 0, 0, 0, []
    with tempfile.TemporaryDirectory(prefix="cmm-gate-bench-") as tmp:
        for n, (label, kind, text) in enumerate(picked):
            ws = Path(tmp) / f"w{n}" / "ws"
            ws.mkdir(parents=True)
            verb = verbs[n % 3]
            before = snapshot(ws)
            code = run(ws, command(verb, n, text, approved=False))
            if label != "none":
                left = trace(ws, before, text) if code != 0 else ["exit 0"]
                if code != 0 and not left:
                    refused += 1
                else:
                    stored.append({"label": label, "kind": kind, "verb": verb, "why": left[:3], "line": text})
                continue
            if code == 0:
                benign_ok += 1
            elif run(ws, command(verb, n, text, approved=True)) == 0:
                benign_after_approval += 1
            else:
                benign_refused.append({"kind": kind, "verb": verb, "line": text})
    n_private = refused + len(stored)
    n_benign = benign_ok + benign_after_approval + len(benign_refused)
    return {"sets": [str(p) for p in paths], "seed": seed, "private_lines": n_private,
            "private_refused": refused, "private_stored": len(stored),
            "stored_share": round(len(stored) / n_private, 4) if n_private else 0.0,
            "benign_lines": n_benign, "benign_stored": benign_ok,
            "benign_stored_after_approved": benign_after_approval, "benign_refused": len(benign_refused),
            "stored": stored, "benign_refused_lines": benign_refused}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", type=Path, default=None, metavar="PATH")
    parser.add_argument("--positives", type=int, default=120)
    parser.add_argument("--benign", type=int, default=60)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    paths = args.set if args.set is not None else default_sets("independent-*.tsv")
    if not paths:
        print("no independent set found (give --set PATH)", file=sys.stderr)
        return 2
    result = measure(paths, args.positives, args.benign, args.seed)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(f"sets: {', '.join(result['sets'])} (seed {result['seed']})")
    print(f"private phrasings: {result['private_lines']}, refused {result['private_refused']}, "
          f"stored {result['private_stored']}: stored share {result['stored_share']:.3f} (target <= 0.03)")
    print(f"benign lines: {result['benign_lines']}, stored {result['benign_stored']}, stored after --approved "
          f"{result['benign_stored_after_approved']}, never stored {result['benign_refused']} (target 0)")
    for row in result["stored"]:
        print("STORED ", row["label"], row["kind"], row["verb"], row["why"], row["line"][:90])
    for row in result["benign_refused_lines"]:
        print("REFUSED", row["kind"], row["verb"], row["line"][:90])
    return 0


if __name__ == "__main__":
    sys.exit(main())
