"""The one place that reads the clock.

``MEMORY_MANAGER_NOW`` (ISO 8601, e.g. ``2026-05-19T08:00:00+00:00`` or
``2026-05-19``) overrides it everywhere, for tests and reproducible runs. A
value without a zone is taken as UTC. Standard library only: the per-turn path
uses it.
"""
from __future__ import annotations

import os
from datetime import date, datetime, timezone

ENV_NOW = "MEMORY_MANAGER_NOW"


def now() -> datetime:
    """Return the current time as an aware UTC :class:`datetime`.

    Raises :class:`memory_manager.errors.BadInputError` when ``MEMORY_MANAGER_NOW``
    is set but is not ISO 8601.
    """
    raw = os.environ.get(ENV_NOW, "").strip()
    if not raw:
        return datetime.now(timezone.utc)
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        from .errors import BadInputError

        raise BadInputError(f"{ENV_NOW}={raw!r} is not an ISO 8601 date or time") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def today() -> date:
    """Return today's date (UTC, or the ``MEMORY_MANAGER_NOW`` override)."""
    return now().date()


def parse_day(value: object) -> date | None:
    """Return the calendar date a ``YYYY-MM-DD`` value names, or None.

    ``value`` may be a :class:`date`/:class:`datetime` (returned as a date) or
    any object whose string form starts with ``YYYY-MM-DD`` (a file name, a
    heading, a frontmatter value). An impossible date such as ``2026-13-45``
    or ``2026-02-30`` gives None, never an exception: every reader treats it
    as "no date" (an imported or hand-made file must not crash status,
    recall, prune or cleanup).
    """
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if value is None:
        return None
    text = str(value).strip()
    if len(text) < 10 or not (text[:4].isdigit() and text[4] == "-" and text[5:7].isdigit()
                                 and text[7] == "-" and text[8:10].isdigit()):
        return None
    try:
        return date(int(text[:4]), int(text[5:7]), int(text[8:10]))
    except ValueError:
        return None


def month_of(day: date) -> str:
    """Return ``YYYY-MM`` for a date (the key month of the T2 schemes, the archive folder)."""
    return f"{day.year:04d}-{day.month:02d}"


def stamp() -> str:
    """Return a compact UTC timestamp ``YYYYMMDDTHHMMSSZ`` for file and folder names."""
    return now().strftime("%Y%m%dT%H%M%SZ")
