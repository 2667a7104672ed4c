"""Public holidays named in a query ("what happened on Easter Monday", "国庆节做了什么").

The dates come from the ``holidays`` library (PyPI, the country calendars it maintains, movable
feasts and the Chinese lunar calendar included); this module only finds a holiday's name in a
query and turns it into a span of days. The country is the one of the user's time zone (the
zone.tab of the time zone database: ``Australia/Melbourne`` -> AU); Chinese holiday names
(春节, 国庆节, 中秋节...) are read from China's calendar whatever the zone, as a Chinese question
names them. Nothing here runs unless the query holds a word that can start a holiday's name
(:data:`GATE`): the library is imported only then (about 0.4 s the first time).

Without the library (an install without it), no holiday is recognised: recall ranks by the words.
"""
from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

#: Words a holiday's name holds, in English and Chinese: a cheap test before the library is loaded.
GATE = re.compile(r"\b(?:easter|christmas|xmas|thanksgiving|new year|boxing|anzac|labou?r day|memorial"
                  r"|independence|good friday|holy saturday|whit|pentecost|ascension|halloween|valentine"
                  r"|canada day|australia day|king's birthday|queen's birthday|victoria day|juneteenth"
                  r"|veterans|columbus|presidents|martin luther king|mlk|waitangi|melbourne cup|holiday)"
                  r"|元旦|除夕|春节|清明|劳动节|五一|端午|中秋|国庆|重阳|元宵|七夕|圣诞|复活节|感恩节|假期", re.I)


def _zone_tabs() -> list:
    from pathlib import Path  # not on the per-turn hook's path: only when a query names a holiday

    out = []
    try:
        import tzdata  # the zone database from PyPI, when Python's zoneinfo uses it

        out.append(Path(tzdata.__file__).parent / "zoneinfo" / "zone.tab")
    except ImportError:
        pass
    out.append(Path("/usr/share/zoneinfo/zone.tab"))
    return out


@lru_cache(maxsize=8)
def country_of(zone: str) -> str | None:
    """ISO 3166 code of the country of an IANA ``zone`` ("Europe/Berlin" -> "DE"), or None."""
    for tab in _zone_tabs():
        try:
            lines = tab.read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        for line in lines:
            parts = line.split("\t")
            if len(parts) >= 3 and not line.startswith("#") and parts[2] == zone:
                return parts[0]
    return None


def _clean(name: str) -> str:
    name = re.sub(r"\s*[(（][^)）]*[)）]", "", name).strip().lower()
    return name.replace("’", "'")


@lru_cache(maxsize=8)
def _calendar(country: str | None, year: int) -> tuple[tuple[str, date], ...]:
    """(lower-case name, day) of the holidays of ``year`` and the year before: the country's in
    English and China's in Chinese. Empty without the library."""
    try:
        import holidays
    except ImportError:
        return ()
    out: list[tuple[str, date]] = []
    years = [year - 1, year]
    if country:
        try:
            cal = holidays.country_holidays(country, years=years, language="en_US")
        except (NotImplementedError, KeyError, ValueError):
            try:
                cal = holidays.country_holidays(country, years=years)
            except (NotImplementedError, KeyError, ValueError):
                cal = {}
        out += [(_clean(n), d) for d, names in cal.items() for n in str(names).split("; ")]
    try:
        cn = holidays.country_holidays("CN", years=years, language="zh_CN")
        out += [(_clean(n), d) for d, names in cn.items() for n in str(names).split("; ")]
    except (NotImplementedError, KeyError, ValueError):
        pass
    return tuple(out)


def find(query: str, today: date, zone: str | None) -> tuple[tuple[date, date], str] | None:
    """The latest holiday named in ``query`` that is not after ``today``: ``((first, last), words)``.

    Args:
        query: the query, lower-cased.
        today: the user's local date.
        zone: the user's IANA zone name (for the country), or None.

    A holiday of several days (春节) is the run of its days; "the holiday" of a name the country
    does not keep is not recognised. ``words`` is the name as the query wrote it (to take out of
    the keywords). Returns None when the query names none.
    """
    if not GATE.search(query):
        return None
    days: dict[str, list[date]] = {}
    for name, day in _calendar(country_of(zone) if zone else None, today.year):
        if day <= today:
            days.setdefault(name, []).append(day)
    best = None
    for name in sorted(days, key=len, reverse=True):
        forms = {name, name.replace("'s", "s"), name.replace("'s", "")}
        if name.endswith("节"):
            forms.add(name[:-1])  # 国庆 for 国庆节
        if name.endswith(" day") and GATE.search(name[:-4]):
            forms.add(name[:-4])  # "christmas" for Christmas Day
        hit = next((f for f in sorted(forms, key=len, reverse=True)
                    if len(f) >= 2 and (re.search(rf"(?<![a-z]){re.escape(f)}(?![a-z])(?!\s*eve\b)", query) if f.isascii()
                                        else f in query)), None)
        if not hit:
            continue
        latest = max(days[name])
        run = sorted(d for d in days[name] if 0 <= (latest - d).days <= 10)
        best = ((run[0], run[-1]), hit)
        break
    return best
