"""complex-memory-manager: privacy-aware structured memory for OpenClaw agents.

The package holds every piece of domain logic. It never imports click or rich:
those belong to :mod:`memory_manager.cli`, the command-line edge. Who owns what:

- the tree's paths: :mod:`tree` (every ``memory/...`` path, spelled once);
  opening a workspace: :mod:`workspace` (``Workspace``: root, config, paths,
  ``transaction()``); config: :mod:`config`; the clock and time zone: :mod:`clock`;
- file formats: :mod:`entries` (daily notes, knowledge entries, OpenClaw's
  notes and the lessons file: the one reader, ids included) and :mod:`tiers`
  (T1 statistics, T2 single and month files); backups: :mod:`backups`;
  safe writes and the lock: :mod:`fsio`;
- the verbs of ``memory.py``: :mod:`store` (write, learn, remember, show,
  forget, in-place encryption), :mod:`transfer` (export, import),
  :mod:`recall` with :mod:`index`/:mod:`units`/:mod:`scoring`, :mod:`prune`;
- upkeep: :mod:`upkeep` (what the hooks start), :mod:`cleanup` (the 7-day run);
  hooks: :mod:`hookrun`, :mod:`context`; privacy: :mod:`gate`, :mod:`privacy`,
  :mod:`audit`, :mod:`crypto`; set-up: :mod:`initialize`, :mod:`doctor`.
"""
from __future__ import annotations

import re
from pathlib import Path

BUNDLE_ROOT = Path(__file__).resolve().parent.parent
SKILL_NAME = "complex-memory-manager"


def _read_version() -> str:
    """Return the bundle version from ``package.yaml`` (its single source of truth).

    Parsed with a regular expression so that the per-turn path, which imports
    the standard library only, can still report it.
    """
    try:
        text = (BUNDLE_ROOT / "package.yaml").read_text(encoding="utf-8")
    except OSError:
        return "0+unknown"
    match = re.search(r"^version:\s*['\"]?([^'\"\s#]+)", text, re.M)
    return match.group(1) if match else "0+unknown"


__version__ = _read_version()
