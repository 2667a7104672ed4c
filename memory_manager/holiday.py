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
                  r"|veterans|columbus|presidents|martin luther king|mlk|waitangi|melbourne cup|holiday"
                  r"|family day|civic holiday|remembrance|islander day|heritage day)"
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
        out += _regional(country, years, {name for name, _ in out})
    try:
        cn = holidays.country_holidays("CN", years=years, language="zh_CN")
        out += [(_clean(n), d) for d, names in cn.items() for n in str(names).split("; ")]
    except (NotImplementedError, KeyError, ValueError):
        pass
    return tuple(out)


def _regional(country: str, years: list[int], national: set[str]) -> list[tuple[str, date]]:
    """The holidays a country's provinces or states keep that the country as a whole does not
    (Canada's Thanksgiving is kept by most provinces, not nationally): ``(name, day)``, each name
    on the day most of the regions keeping it keep it that year (Ontario and Quebec agree on
    Thanksgiving; Australia's states differ on the King's Birthday: most keep it in June).
    The zone does not say the province, so a holiday any region keeps is named (round 6, set I)."""
    import holidays

    cls = holidays.country_holidays(country).__class__
    votes: dict[tuple[str, int], dict[date, int]] = {}
    for sub in getattr(cls, "subdivisions", ()) or ():
        try:
            cal = holidays.country_holidays(country, subdiv=sub, years=years, language="en_US")
        except (NotImplementedError, KeyError, ValueError):
            try:
                cal = holidays.country_holidays(country, subdiv=sub, years=years)
            except (NotImplementedError, KeyError, ValueError):
                continue
        for d, names in cal.items():
            for n in str(names).split("; "):
                name = _clean(n)
                if name not in national:
                    per = votes.setdefault((name, d.year), {})
                    per[d] = per.get(d, 0) + 1
    return [(name, max(per, key=lambda d: (per[d], d))) for (name, _), per in votes.items()]


#: Chinese names of holidays that China's calendar does not keep, as the English name the country's
#: calendar uses: a Chinese question about a Canadian Thanksgiving names it 感恩节 (round 6, set I).
ZH_NAMES = {"感恩节": "thanksgiving", "圣诞节": "christmas", "圣诞": "christmas", "复活节": "easter",
            "耶稣受难日": "good friday", "节礼日": "boxing day", "阵亡将士纪念日": "memorial day",
            "独立日": "independence day", "退伍军人节": "veterans day", "加拿大日": "canada day",
            "澳大利亚日": "australia day", "澳新军团日": "anzac day"}
#: What may follow a holiday's name and still name its days: its weekday ("Thanksgiving Monday"),
#: or its (long) weekend, which is the holiday with the weekend next to it (:func:`_with_weekend`).
_AFTER = re.compile(r"\s*(?:(?P<weekend>(?:long\s+)?weekend|长周末|小长假|假期|周末)"
                    r"|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|(?:当天|那天))")


def _with_weekend(first: date, last: date) -> tuple[date, date]:
    """A holiday with the weekend next to it: a Friday or Thursday one runs to the Sunday after, a
    Monday or Tuesday one starts on the Saturday before, a weekend one is its Saturday and Sunday;
    a Wednesday one has no weekend next to it."""
    from datetime import timedelta

    if first.weekday() in (0, 1):
        first -= timedelta(days=first.weekday() + 2)
    elif first.weekday() == 6:
        first -= timedelta(days=1)
    if last.weekday() in (3, 4, 5):
        last += timedelta(days=6 - last.weekday())
    return first, last


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
    alias = {}  # English name -> the Chinese words of the query that named it
    for zh, en in sorted(ZH_NAMES.items(), key=lambda kv: -len(kv[0])):
        if zh in query and en not in alias:
            alias[en] = zh
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
            hit = next((alias[f] for f in sorted(forms, key=len, reverse=True) if f in alias), None)
        if not hit:
            continue
        latest = max(days[name])
        run = sorted(d for d in days[name] if 0 <= (latest - d).days <= 10)
        span = (run[0], run[-1])
        after = _AFTER.match(query, query.find(hit) + len(hit))
        if after:  # "Thanksgiving Monday", "the Thanksgiving long weekend", 感恩节长周末
            hit = query[query.find(hit):after.end()]
            if after.group("weekend"):
                span = _with_weekend(*span)
        best = (span, hit)
        break
    return best
