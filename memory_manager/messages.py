"""The words of the command-line output in ``zh`` or ``en``: ``templates/<lang>/messages.json``.

The same mechanism as the report's words (``templates/<lang>/report.json``,
report_render.strings): one JSON object per language, keyed alike. A value is
a :meth:`str.format` pattern, or ``{"one": ..., "other": ...}`` chosen by the
``count`` given (English singular and plural; Chinese has one form, written
under ``other``). The language is the workspace's (``cfg["language"]``,
resolved by config.load: ``--lang`` at init, the saved choice, OpenClaw's
locale, the locale, else English). A key missing in ``zh`` falls back to
``en``, so a new line is never blank (walk-through r9, item 4).
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .templates import load

LANGUAGES = ("zh", "en")


@lru_cache(maxsize=None)
def _table(lang: str) -> dict[str, Any]:
    """The parsed ``messages.json`` of ``lang`` (read once per process)."""
    return json.loads(load("messages.json", lang))


def say(lang: str, key: str, count: int | None = None, **values: Any) -> str:
    """Return message ``key`` in ``lang`` (``zh``/``en``; anything else reads as ``en``), filled with ``values``.

    ``count`` picks the ``one``/``other`` form and is also available as ``{n}``.

    Raises:
        KeyError: ``key`` is in neither language (a bug; tests/scripts/test_walkthrough_r9.py checks both files hold the same keys).
    """
    lang = lang if lang in LANGUAGES else "en"
    entry = _table(lang).get(key)
    if entry is None:
        entry = _table("en")[key]
    if isinstance(entry, dict):
        entry = entry["one"] if count == 1 and "one" in entry else entry["other"]
    if count is not None:
        values.setdefault("n", count)
    return entry.format(**values)


__all__ = ["say", "LANGUAGES"]
