"""complex-memory-manager: privacy-aware structured memory for OpenClaw agents.

The package holds every piece of domain logic. It never imports click or rich:
those belong to :mod:`memory_manager.cli`, the command-line edge.
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
