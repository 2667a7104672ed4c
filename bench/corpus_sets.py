"""The privacy corpus sets a bench reads by default: every match of a pattern but the unseen ones.

``bench/privacy_corpus/UNSEEN`` names the evaluation sets of the current round (run once at its
start and end, or held out): a default run never reads them, nor does the findings snapshot
(``privacy_equivalence.py``) record per-row findings of them, so nobody tuning sees which of their
lines are found (bench/HELDOUT.md). Naming a set with ``--set`` still reads it.
"""
from __future__ import annotations

from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "privacy_corpus"


def unseen() -> set[str]:
    """The file names listed in ``privacy_corpus/UNSEEN`` (blank lines and ``#`` comments skipped)."""
    path = CORPUS / "UNSEEN"
    if not path.is_file():
        return set()
    return {line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")}


def default_sets(pattern: str) -> list[Path]:
    """The sets of ``privacy_corpus`` matching ``pattern`` (a glob), sorted, without the unseen ones."""
    hidden = unseen()
    return [p for p in sorted(CORPUS.glob(pattern)) if p.name not in hidden]
