"""The one place that reads the clock.

``MEMORY_MANAGER_NOW`` (ISO 8601, e.g. ``2026-05-19T08:00:00+00:00`` or
``2026-05-19``) overrides it everywhere, for tests and reproducible runs. A
value without a zone is taken as UTC. Standard library only: the per-turn path
uses it.

Days (a note's date, "today") are the user's days: the time zone is
OpenClaw's ``agents.defaults.userTimezone`` (an IANA name; OpenClaw docs,
"Timezones"), else ``TZ``, else the system zone, the order OpenClaw itself
follows for the user's local time (:func:`user_zone`; ``status`` shows it).
A note written at 07:30 in UTC+8 is dated that day, like OpenClaw's own.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date, datetime, timezone, tzinfo

ENV_NOW = "MEMORY_MANAGER_NOW"


#: The years ``MEMORY_MANAGER_NOW`` may name. Outside them date arithmetic
#: overflows: today + a century of retention passes year 9999 (``date.max``),
#: and year 1 minus a time-zone offset falls before ``datetime.min``. Ours,
#: chosen to leave every configured day count (config.MAX_DAYS) room.
YEARS = (1900, 9000)


def _bad_now(raw: str, why: str) -> Exception:
    from .errors import BadInputError
    from .workspace import VALUE_SHOWN

    # The value is named as refused, its first characters only; a token set there is masked where the
    # message is shown, as a typed value is (workspace.echoed_values, privacy.unechoed: tatk18 3).
    return BadInputError(f"{ENV_NOW}={raw[:VALUE_SHOWN]!r} {why}")


def now() -> datetime:
    """Return the current time as an aware UTC :class:`datetime`.

    Raises :class:`memory_manager.errors.BadInputError` when ``MEMORY_MANAGER_NOW``
    is set but is not ISO 8601, or names a year outside :data:`YEARS`.
    """
    raw = os.environ.get(ENV_NOW, "").strip()
    if not raw:
        return datetime.now(timezone.utc)
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise _bad_now(raw, "is not an ISO 8601 date or time") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    if not YEARS[0] <= value.year <= YEARS[1]:
        raise _bad_now(raw, f"is outside the years {YEARS[0]}-{YEARS[1]}")
    return value.astimezone(timezone.utc)


@dataclass(frozen=True)
class Zone:
    """The user's time zone: ``tz`` (a tzinfo), its ``name`` and the ``source`` that chose it."""

    tz: tzinfo
    name: str
    source: str


def _zoneinfo(name: str) -> tzinfo | None:
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(name)
    except (ValueError, KeyError, OSError, ImportError):  # unknown or malformed name, no tz database
        return None


def _system_zone() -> Zone:
    local = datetime.now().astimezone().tzinfo or timezone.utc
    name = None
    try:  # the IANA name behind /etc/localtime, when it is a link into a zoneinfo folder
        target = os.path.realpath("/etc/localtime")
        if "zoneinfo/" in target:
            name = target.split("zoneinfo/", 1)[1]
    except OSError:
        pass
    if name and _zoneinfo(name) is not None:
        return Zone(_zoneinfo(name), name, "system zone")
    return Zone(local, str(local.tzname(datetime.now())) if hasattr(local, "tzname") else "local", "system zone")


def user_zone() -> Zone:
    """Return the user's time zone (see the module docstring for the order).

    A ``userTimezone`` or ``TZ`` that names no known zone is passed over
    (the next rule applies), never an error: dating a note must not fail.
    """
    try:
        from .workspace import read_openclaw_config

        cfg = read_openclaw_config() or {}
    except Exception:  # an unreadable OpenClaw config only means "not configured"
        cfg = {}
    agents = cfg.get("agents") if isinstance(cfg.get("agents"), dict) else {}
    defaults = agents.get("defaults") if isinstance(agents.get("defaults"), dict) else {}
    name = defaults.get("userTimezone")
    if isinstance(name, str) and name.strip() and _zoneinfo(name.strip()) is not None:
        return Zone(_zoneinfo(name.strip()), name.strip(), "OpenClaw agents.defaults.userTimezone")
    env_tz = os.environ.get("TZ", "").strip().lstrip(":")
    if env_tz and _zoneinfo(env_tz) is not None:
        return Zone(_zoneinfo(env_tz), env_tz, "TZ")
    return _system_zone()


def local_now() -> datetime:
    """Return :func:`now` in the user's time zone (:func:`user_zone`).

    Never overflows: :func:`now` keeps to :data:`YEARS`, and a conversion
    that still fails (a zone database gone strange) falls back to UTC.
    """
    return to_local(now(), user_zone().tz)


def to_local(moment: datetime, tz: tzinfo | None = None) -> datetime:
    """Return ``moment`` in ``tz`` (default: the machine's zone), or unchanged when that would overflow.

    A timestamp near ``datetime.min``/``max`` (a file's absurd mtime, an
    extreme override) cannot always be shifted by the zone offset; showing
    it in UTC beats a traceback.
    """
    try:
        return moment.astimezone(tz)
    except (OverflowError, ValueError, OSError):
        return moment


def from_timestamp(seconds: float) -> datetime | None:
    """Return an aware UTC datetime for a POSIX timestamp, or None when it is out of range.

    File mtimes come from the file system (``touch -d`` can set any year);
    the platform's conversion fails for far past or future ones.
    """
    try:
        return datetime.fromtimestamp(seconds, timezone.utc)
    except (OverflowError, ValueError, OSError):
        return None


def today() -> date:
    """Return the user's date today (their time zone; ``MEMORY_MANAGER_NOW`` overrides the clock)."""
    return local_now().date()


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
