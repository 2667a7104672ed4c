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


def month_of(day: date) -> str:
    """Return ``YYYY-MM`` for a date (the key month of the T2 schemes, the archive folder)."""
    return f"{day.year:04d}-{day.month:02d}"


def stamp() -> str:
    """Return a compact UTC timestamp ``YYYYMMDDTHHMMSSZ`` for file and folder names."""
    return now().strftime("%Y%m%dT%H%M%SZ")
