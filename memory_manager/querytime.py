"""What a query says about time: a date span, "now", or "before".

:func:`parse` reads a query (English, Chinese or mixed) against the clock in
the user's time zone and returns a :class:`QueryTime`:

- ``span``: the calendar days the query names, ``(first, last)`` inclusive.
  Relative days (yesterday / 昨天, the day before yesterday / 前天,
  大前天, N days ago / N天前), weekdays (last Wednesday / 上周三: that day of
  the previous Monday-Sunday week; a bare "on Wednesday" / 周三: the latest
  one up to today), weeks (last week / 上周; N weeks ago / N周前: the whole
  Monday-Sunday week holding today - 7N days; this week / 本周), weekends
  (last weekend / 上周末: Saturday and Sunday of the previous week), months
  (last month / 上个月, this month / 本月, a month name / N月), parts of a
  month (early = days 1-10, mid = 11-20, late/end = the last 7 days:
  "early October", 十月初, 月初, 月底, 上个月底), and absolute month-day
  dates ("September 14", "Oct 2", 9月17日, 10月2号), with ISO dates
  (2026-10-13) too. A month or date later than today means last year's.
  A month's first or last N days (这个月头三天, 上个月最后一天, "the last day of
  August"), its n-th or last weekend (its n-th Saturday and the Sunday after:
  "the first weekend of September", 九月的第二个周末) and its n-th week as
  days 7n-6..7n (上个月第三周, "the first week of October"; the last week is
  the last 7 days), and the same day a week or a month back ("a week ago
  today", 上周的今天, 上个月的今天; clipped to the shorter month's end).
- ``mode``: ``"now"`` when the query asks for the current state (now,
  currently, latest, still, these days / 现在, 目前, 最新, 还是, 如今),
  ``"past"`` when it asks for an earlier state (before, originally, used to /
  之前, 原来, 一开始), else None. For "past", ``past`` tells the first version
  asked for ("earliest": originally, 最早, 原价) from the one before the
  current ("previous": before, 之前), and ``before`` holds the change the
  question dates from ("before the gateway change" -> "the gateway change").
- ``asks``: the kind of value the question asks for (:data:`ASKS`: a
  weekday, a frequency, a clock time, any time, a number), or the kind a
  yes/no question names ("still on Tuesday?"); :func:`states` tells whether
  a text states one.
- ``rest``: the query with the time words taken out, so "yesterday" is not
  searched as a keyword; ``time_only``: nothing but time and question frame
  words is left ("what did I do yesterday", "昨天做了什么"), so the query
  asks for a listing of that span.

The conventions (week from Monday, early = days 1-10, end = last 7 days)
are the ones the frozen time set was written with (bench/time_set/README.md,
each question's ``note``); they are ours, not a seed's. Standard library only.
"""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

#: English and Chinese words for "the current state"; English as word stems of the plain text.
NOW_EN = ("now", "currently", "current", "latest", "still", "these days", "nowadays", "at the moment",
          "at present", "presently", "most recent", "up to date", "newest", "anymore", "any more",
          "changed to", "moved to", "switched to")
NOW_ZH = ("现在", "目前", "最新", "还是", "如今", "当前", "眼下", "现如今", "这阵子", "最近一次", "这些天", "近来",
          "现阶段",
          # "改到几点了" asks for the value a change led to, the current one (with 之前 it is past).
          "改到", "改成", "换成", "换到", "调到", "挪到")
#: ... and for "an earlier state".
PAST_EN = ("before", "originally", "original", "previously", "previous", "used to", "at first", "initially",
           "formerly", "prior to", "in the beginning", "first booked", "old value", "earlier")
PAST_ZH = ("之前", "以前", "原来", "原先", "一开始", "最初", "起初", "当初", "本来", "早先", "改之前", "最早",
           "最开始", "刚开始", "起先", "原本", "原价", "原定", "原计划")
#: The past words that ask for the first version of all, not the one right before the current:
#: "originally", 最早. The rest ("before", 之前, 以前) ask for the previous version.
#: 原来, 原先, 原本 and 本来 are "originally" (round 9): until then they asked for the previous version,
#: while every question using one in the sets C, E, G and K asks for the first version
#: ("游泳课原来是周几几点", "truck-telemetry 的 retention 原来是几天"); with two versions the two agree.
EARLIEST = frozenset(("originally", "original", "at first", "initially", "in the beginning", "first booked",
                      "一开始", "最初", "起初", "当初", "最早", "最开始", "刚开始", "起先", "原价", "原定", "原计划",
                      "原来", "原先", "原本", "本来"))

#: What kind of value a question asks for (checked in this order, both languages): a weekday,
#: a frequency, a clock time, a time of any kind (clock time, weekday or date: "when"), or a
#: number ("how much", 多少: amounts, counts, sizes). Only the language's question words: nouns
#: of a domain ("which port", "what price") were here until round 4 and changed no answer on the
#: time sets E, A and C when removed (bench/README.md).
#: In a now/past question, only entries that state such a value take part in the fact's group
#: (:func:`memory_manager.recall._fact_group`); ours, from how people ask.
ASKS = (
    ("weekday", re.compile(r"星期几|周几|礼拜几|哪几天|哪一天|哪天|which\s+(?:week)?days?\b|what\s+(?:week)?day\b"
                           r"|on\s+which\s+day")),
    ("frequency", re.compile(r"多久.{0,4}?一次|每隔多久|多长时间.{0,4}?一次|几天.{0,4}?一次|多频繁"
                             r"|how\s+often\b|how\s+frequently\b")),
    ("clock", re.compile(r"几点|what\s+time\b|which\s+time\b|how\s+early\b|how\s+late\b")),
    ("when", re.compile(r"什么时候|什么时间|何时|哪个时间|\bwhen\b")),
    ("number", re.compile(r"多少|几号|几个|几次|几天|几岁|几层|几寸|多大|多远|多长|多久|多高|多重|多快|几成"
                          r"|how\s+(?:much|many|long|far|big|old|often|fast|high)\b")),
    ("name", re.compile(r"什么牌子|哪个牌子|什么品牌|哪个品牌|哪一家|哪家|哪个公司|谁|哪位"
                        r"|\b(?:which|what)\s+(?:brand|company|shop|store|provider|vendor|carrier)\b|\bwho\b")),
)
_WEEKDAY_VALUE = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天]|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b"
                            r"|\b(?:mon|tue|wed|thu|fri|sat|sun)\b\.?(?=\s*[-–/,\d])", re.I)
_CLOCK_VALUE = re.compile(r"\b\d{1,2}[:：]\d{2}\b|\b\d{1,2}\.\d{2}\s*(?:am|pm|h|uhr)\b|\b\d{1,2}\s*(?:am|pm|h)\b|\d{1,2}\s*点"
                          r"|(?:上午|下午|晚上|早上|凌晨|中午|傍晚)\s*[零〇一二两三四五六七八九十]+\s*点|noon|midnight", re.I)
_DATE_VALUE = re.compile(r"\d{1,2}\s*月\s*\d{1,2}|\d{4}-\d{2}-\d{2}|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)"
                         r"[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)", re.I)
_FREQUENCY_VALUE = re.compile(r"每\s*(?:[一二两三四五六七八九十\d]+\s*)?(?:个)?(?:天|日|周|星期|礼拜|月|年|小时)|双周|隔周|每隔"
                              r"|\b(?:daily|weekly|monthly|biweekly|fortnightly|yearly|annually|hourly|nightly)\b"
                              r"|\bevery\b|\bonce\b|\btwice\b|\b\d+\s*(?:x|times)\b", re.I)
#: A name: a capitalised word inside an English sentence ("is Priya", "at Petbarn"), a Latin word in a
#: Chinese text (Applaws), or a quoted Chinese name (「四海转运」).
_NAME_VALUE = re.compile(r"(?<=[a-z0-9,;:)]\s)[A-Z][\w'&-]+|[\u3400-\u9fff，。：、]\s?[A-Za-z][A-Za-z'&-]+"
                         r"|「[^」]+」|《[^》]+》|“[^”]+”")
_NUMBER_VALUE = re.compile(r"\d|[零〇一二两三四五六七八九十百千万]+\s*(?:号|元|块|欧|天|个|次|小时|分钟|岁|公里|寸|层|周|毫升|克|度|倍|成)")


#: A clock time is written with a colon; "5.16" or "1.30" is a release or a price (none of the time sets
#: A-G writes a time with a dot without am/pm), so a dot time counts only with its unit (round 5).

#: Words that state a change of value ("moved to", "from now on", 改到, 换成): a daily note holding
#: one is a new version of a fact; one without only mentions the topic.
_CHANGE = re.compile(r"\b(?:moved|moves|changed|changes|switched|switch|replaced|instead|now|no longer|anymore|any more"
                     r"|new|newly|raised|lowered|increased|reduced|went up|goes up|go up|went down|goes down"
                     r"|dropped|from now on|starting|since|updated|upgraded|migrated|cancelled|canceled|stopped"
                     r"|cut (?:to|from|by)|price cut|tightened|loosened|relaxed|extended|shortened|halved|doubled"
                     r"|bumped|took over|takes over|taken over)\b"
                     r"|改|换|调整|调到|涨|降|变成|变为|搬|迁|取消|不再|停了|以后|起改|从今天起|新的|升级|现在"
                     r"|收紧|放宽|提高|延长|缩短|接手|接替"
                     # Round 9: the Chinese of "increased to" / "reduced to" ("从每天 1000 IU 加到 2000 IU", "从 1.5 杯
                     # 减到 1.25 杯"); English had increased / reduced since round 4.
                     r"|加到|减到|增加|减少|增至|减至|加量|减量", re.I)


def states(kind: str | None, text: str) -> bool:
    """True when ``text`` states a value of the ``kind`` a question asks for (:data:`ASKS`;
    None: any text)."""
    if kind is None:
        return True
    if kind == "weekday":
        return bool(_WEEKDAY_VALUE.search(text))
    if kind == "change":
        return bool(_CHANGE.search(text))
    if kind == "frequency":
        return bool(_FREQUENCY_VALUE.search(text))
    if kind == "clock":
        return bool(_CLOCK_VALUE.search(text))
    if kind == "when":
        return bool(_CLOCK_VALUE.search(text) or _WEEKDAY_VALUE.search(text) or _DATE_VALUE.search(text))
    if kind == "name":
        return bool(_NAME_VALUE.search(text))
    return bool(_NUMBER_VALUE.search(text))

_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9, "十": 10}
_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
               "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "few": 3}
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_WEEKDAYS = {d.lower(): i for i, d in enumerate(calendar.day_name)}
_WEEKDAYS.update({d.lower(): i for i, d in enumerate(calendar.day_abbr)})
_WEEKDAYS.update({"tues": 1, "wednes": 2, "thur": 3, "thurs": 3})
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 7}

_ZNUM = "[零〇一二两三四五六七八九十]+|\\d+"
_ENUM = r"\d+|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few"
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
#: Month names that are also words ("may", "march") count only next to a day or year number.
_MONTH_RE_G = _MONTH_RE
_WEEKDAY_RE = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_FULL_WEEKDAY_RE = "|".join(d.lower() for d in calendar.day_name)
_DONE_EN = re.compile(r"\b(?:did|happened|went|got|wrote|noted|was i|were we|was we)\b")

#: Question frames and filler that carry no topic: a query left with only these lists a span.
FRAME_EN = frozenset("""
what whats what's which did do does done doing i we me my our you happen happened happening note noted
notes down write wrote written record recorded log logged was were been up to get got on in at the a
an of for any anything everything things thing stuff work worked working day days there tell show list
all entries entry memory memories remind reminder activities activity have has had go went going
so far about is are be from worth remembering remember important interesting notable noteworthy else
""".split())
FRAME_ZH = ("做了什么", "干了什么", "干了些什么", "做了些什么", "做了哪些事", "做了哪些", "干了啥", "做了啥",
            "记了什么", "记了些什么", "记了啥", "记了哪些事", "记了哪些", "记录了什么", "记录了哪些",
            "发生了什么", "发生了啥", "有什么事", "都有哪些事", "哪些事", "什么事", "那天", "当天", "这天",
            "都", "我", "我们", "了", "些", "什么", "啥", "做", "干", "记", "记录", "发生", "过", "的", "呢",
            "吗", "呀", "事", "事情", "情", "在", "有", "哪些", "一下", "回顾", "总结", "列出", "都在", "忙",
            "干嘛", "那一周", "那周", "那一天", "那个月", "那段时间", "东西", "内容", "期间")


@dataclass
class QueryTime:
    """What :func:`parse` found (see the module docstring)."""

    span: tuple[date, date] | None = None
    mode: str | None = None
    rest: str = ""
    time_only: bool = False
    found: list[str] = field(default_factory=list)
    #: ``"earliest"`` (originally, 最早) or ``"previous"`` (before, 之前) when ``mode`` is "past".
    past: str | None = None
    #: What follows "before" / precedes 之前: the change the question dates from ("the gateway
    #: change", 换农场), or "" when the question names none.
    before: str = ""
    #: A "past" question's date that dates the change, not the answer ("the dose before the vet changed it
    #: on October 21"): the last day of what the date named; the span is then None (round 7, set K).
    before_day: date | None = None
    #: The kind of value asked for (:data:`ASKS`: "frequency", "weekday", "clock", "when", "number") or None.
    asks: str | None = None
    #: The query names the end of its span ("last night", 昨晚, "the end of last month", 上个月底): a
    #: listing of the span starts from its end (newest first), where the asked part lies.
    latest_first: bool = False
    #: Every kind asked, in :data:`ASKS` order ("周几、几点": weekday and clock); ``asks`` is the first.
    asks_all: list[str] = field(default_factory=list)
    #: The unit the asked number is wanted in (多少克 -> "克", "how many minutes" -> "minutes"), or "".
    unit: str = ""
    #: The words that name what is asked about: ``rest`` without the question's frame (what, 多少,
    #: 几点, 是...): the subject whose versions a now/past question compares (:func:`subject`).
    subject: str = ""
    #: The holiday name that set ``span`` (as the query wrote it: "christmas", 圣诞), or "". It is also
    #: a topic word ("圣诞剧", "Christmas pre-orders"): recall ranks by it when the span holds nothing.
    holiday: str = ""

    def reason(self) -> str | None:
        """A short explanation for ``--json`` (``None`` when the query says nothing about time)."""
        bits = []
        if self.span:
            a, b = self.span
            bits.append(f"span {a.isoformat()}" + ("" if a == b else f"..{b.isoformat()}"))
        if self.mode:
            bits.append(self.mode)
        return ", ".join(bits) if bits else None


def _num(text: str) -> int | None:
    """``3``, ``三``, ``十二``, ``两``, ``three``, ``a couple of`` -> int (None when unreadable)."""
    text = text.strip().lower()
    if text.isdigit():
        return int(text)
    if text in _EN_NUMBERS:
        return _EN_NUMBERS[text]
    if text.startswith("a ") and text[2:] in _EN_NUMBERS:
        return _EN_NUMBERS[text[2:]]
    if text and all(c in _ZH_DIGITS for c in text):
        if "十" in text:
            tens, _, ones = text.partition("十")
            return (_ZH_DIGITS.get(tens, 1) if tens else 1) * 10 + (_ZH_DIGITS.get(ones, 0) if ones else 0)
        if len(text) == 1:
            return _ZH_DIGITS[text]
    return None


def _week_of(day: date) -> tuple[date, date]:
    start = day - timedelta(days=day.weekday())
    return start, start + timedelta(days=6)


def _month_span(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _shift_month(day: date, months: int) -> tuple[int, int]:
    n = day.year * 12 + day.month - 1 + months
    return n // 12, n % 12 + 1


def _part(span: tuple[date, date], part: str | None) -> tuple[date, date]:
    """Early (days 1-10), mid (11-20) or end (last 7 days) of a month span."""
    first, last = span
    if part == "early":
        return first, first + timedelta(days=9)
    if part == "mid":
        return first + timedelta(days=10), first + timedelta(days=19)
    if part == "late":
        return last - timedelta(days=6), last
    return span


def _past_month(today: date, month: int) -> int:
    """The year of the latest ``month`` that has begun by ``today``."""
    return today.year if month <= today.month else today.year - 1


def _past_date(today: date, month: int, day: int) -> date | None:
    for year in (today.year, today.year - 1):
        try:
            d = date(year, month, day)
        except ValueError:
            return None
        if d <= today:
            return d
    return None


def _rules(today: date):
    """(pattern, handler) pairs, most specific first; a handler returns a span or None."""
    prev_week = _week_of(today - timedelta(days=7))
    this_week = _week_of(today)

    def weekday_in(week: tuple[date, date], wd: int) -> tuple[date, date]:
        if wd == 7:  # weekend
            return week[0] + timedelta(days=5), week[1]
        d = week[0] + timedelta(days=wd)
        return d, d

    def latest_weekday(wd: int) -> tuple[date, date]:
        if wd == 7:
            sat = today - timedelta(days=(today.weekday() - 5) % 7)
            return sat, sat + timedelta(days=1)
        d = today - timedelta(days=(today.weekday() - wd) % 7)
        return d, d

    def days_ago(n: int | None) -> tuple[date, date] | None:
        if n is None:
            return None
        d = today - timedelta(days=n)
        return d, d

    def weeks_ago(n: int | None) -> tuple[date, date] | None:
        return None if n is None else _week_of(today - timedelta(days=7 * n))

    def months_ago(n: int | None, part: str | None = None) -> tuple[date, date] | None:
        if n is None:
            return None
        return _part(_month_span(*_shift_month(today, -n)), part)

    def named_month(month: int, part: str | None = None) -> tuple[date, date]:
        return _part(_month_span(_past_month(today, month), month), part)

    def month_day_this(day: int | None) -> tuple[date, date] | None:
        """Day ``day`` of this month, or of last month when it is still to come."""
        if not day or day > 31:
            return None
        for year, month in (_shift_month(today, 0), _shift_month(today, -1)):
            try:
                d = date(year, month, day)
            except ValueError:
                continue
            if d <= today:
                return d, d
        return None

    def month_day(month: int | None, day: int | None) -> tuple[date, date] | None:
        if not month or not day:
            return None
        d = _past_date(today, month, day)
        return None if d is None else (d, d)

    part_en = {"early": "early", "beginning": "early", "start": "early", "mid": "mid", "middle": "mid",
               "late": "late", "end": "late"}
    part_zh = {"初": "early", "头": "early", "中": "mid", "中旬": "mid", "上旬": "early", "下旬": "late",
               "底": "late", "末": "late"}
    wd_zh = "[一二三四五六日天末]"
    zmonth = rf"(这个月|本月|上上个月|上个月|上上月|上月|(?:{_ZNUM})\s*月份?)"
    emonth = rf"(this month|last month|the month before last|{_MONTH_RE})"

    def zh_month(text: str) -> tuple[int, int] | None:
        """这个月 / 上个月 / 上上个月 / 九月 -> (year, month) of the latest such month begun by today."""
        text = re.sub(r"\s+", "", text)
        back = {"这个月": 0, "本月": 0, "上个月": 1, "上月": 1, "上上个月": 2, "上上月": 2}.get(text)
        if back is not None:
            return _shift_month(today, -back)
        n = _num(re.sub(r"月份?$", "", text))
        return (_past_month(today, n), n) if n and 1 <= n <= 12 else None

    def en_month(text: str) -> tuple[int, int] | None:
        back = {"this month": 0, "last month": 1, "the month before last": 2}.get(text)
        if back is not None:
            return _shift_month(today, -back)
        n = _MONTHS.get(text)
        return (_past_month(today, n), n) if n else None

    def first_days(ym: tuple[int, int] | None, n: int | None) -> tuple[date, date] | None:
        """The first ``n`` days of a month (头三天, "the first 3 days of")."""
        if ym is None or not n or n > 31:
            return None
        first, last = _month_span(*ym)
        return first, min(last, first + timedelta(days=n - 1))

    def last_days(ym: tuple[int, int] | None, n: int | None) -> tuple[date, date] | None:
        """The last ``n`` days of a month (最后一天, "the last day of")."""
        if ym is None or not n or n > 31:
            return None
        first, last = _month_span(*ym)
        return max(first, last - timedelta(days=n - 1)), last

    def nth_weekend(ym: tuple[int, int] | None, nth: int | None) -> tuple[date, date] | None:
        """The ``nth`` weekend of a month (-1: the last): its ``nth`` Saturday and the Sunday after."""
        if ym is None or not nth:
            return None
        first, last = _month_span(*ym)
        sats = [d for d in (first + timedelta(days=i) for i in range((last - first).days + 1)) if d.weekday() == 5]
        if nth > len(sats):
            return None
        sat = sats[nth - 1] if nth > 0 else sats[-1]
        return sat, sat + timedelta(days=1)

    def nth_week(ym: tuple[int, int] | None, nth: int | None) -> tuple[date, date] | None:
        """The ``nth`` week of a month as days 7n-6..7n (-1: the last 7 days)."""
        if ym is None or not nth:
            return None
        if nth < 0:
            return last_days(ym, 7)
        first, last = _month_span(*ym)
        start = first + timedelta(days=7 * (nth - 1))
        return None if start > last else (start, min(last, start + timedelta(days=6)))

    def same_day_months_ago(n: int | None) -> tuple[date, date] | None:
        """Today's day of the month ``n`` months back (clipped to that month's last day)."""
        if not n:
            return None
        y, m = _shift_month(today, -n)
        d = date(y, m, min(today.day, calendar.monthrange(y, m)[1]))
        return d, d

    ordinal = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
               "last": -1, "final": -1}
    zh_nth = rf"第\s*({_ZNUM})\s*个?|(最后)\s*一\s*个?|(头|首)\s*一?\s*个"
    return [
        # ---- parts of a month named by days or weekends (most specific: before the month rules)
        (rf"{zmonth}\s*(?:的)?\s*(?:头|前|最初的?|开头的?)\s*({_ZNUM})\s*天",
         lambda m: first_days(zh_month(m.group(1)), _num(m.group(2)))),
        (rf"{zmonth}\s*(?:的)?\s*(?:第一天|头一天|一号)", lambda m: first_days(zh_month(m.group(1)), 1)),
        (rf"{zmonth}\s*(?:的)?\s*(?:最后|末)\s*({_ZNUM})\s*天",
         lambda m: last_days(zh_month(m.group(1)), _num(m.group(2)))),
        (rf"{zmonth}\s*(?:的)?\s*(?:最后那天|最后那一天|最后一日)", lambda m: last_days(zh_month(m.group(1)), 1)),
        (rf"{zmonth}\s*(?:的)?\s*(?:{zh_nth})\s*周末",
         lambda m: nth_weekend(zh_month(m.group(1)), -1 if m.group(3) else 1 if m.group(4) else _num(m.group(2)))),
        (rf"{zmonth}\s*(?:的)?\s*(?:{zh_nth})?\s*(?:周|星期|礼拜)(?![一二三四五六日天末])",
         lambda m: nth_week(zh_month(m.group(1)), -1 if m.group(3) else 1 if m.group(4) else _num(m.group(2)))
         if (m.group(2) or m.group(3) or m.group(4)) else None),
        (rf"(?:({_ZNUM})\s*(?:个)?(?:周|星期|礼拜)(?:以)?前|上\s*(?:个)?(?:周|星期|礼拜))\s*(?:的)?\s*(?:今天|同一天|这一?天)",
         lambda m: days_ago(7 * (_num(m.group(1)) if m.group(1) else 1))),
        (rf"(?:({_ZNUM})\s*个月(?:以)?前|上\s*(?:个)?月)\s*(?:的)?\s*(?:今天|同一天|这一?天)",
         lambda m: same_day_months_ago(_num(m.group(1)) if m.group(1) else 1)),
        (rf"\b(?:the\s+)?first\s+({_ENUM})\s+days\s+(?:of|in)\s+{emonth}\b",
         lambda m: first_days(en_month(m.group(2)), _num(m.group(1)))),
        (rf"\b(?:the\s+)?first\s+day\s+(?:of|in)\s+{emonth}\b", lambda m: first_days(en_month(m.group(1)), 1)),
        (rf"\b(?:the\s+)?last\s+({_ENUM})\s+days\s+(?:of|in)\s+{emonth}\b",
         lambda m: last_days(en_month(m.group(2)), _num(m.group(1)))),
        (rf"\b(?:the\s+)?last\s+day\s+(?:of|in)\s+{emonth}\b", lambda m: last_days(en_month(m.group(1)), 1)),
        (rf"\b(?:the\s+)?(first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+weekend\s+(?:of|in)\s+{emonth}\b",
         lambda m: nth_weekend(en_month(m.group(2)), ordinal[m.group(1)])),
        (rf"\b(?:the\s+)?(first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+week\s+(?:of|in)\s+{emonth}\b",
         lambda m: nth_week(en_month(m.group(2)), ordinal[m.group(1)])),
        (rf"\b({_ENUM})\s+weeks?\s+ago\s+today\b|\b(?:this|the same) day last week\b",
         lambda m: days_ago(7 * (_num(m.group(1)) if m.group(1) else 1))),
        (rf"\b({_ENUM})\s+months?\s+ago\s+today\b|\b(?:this|the same) day last month\b",
         lambda m: same_day_months_ago(_num(m.group(1)) if m.group(1) else 1)),
        # ---- Chinese
        # ---- dates with a year first (both languages): the year is as written
        (r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]", lambda m: _ymd(m.group(1), m.group(2), m.group(3))),
        (r"(\d{4})\s*年\s*(\d{1,2})\s*月", lambda m: _ym(m.group(1), m.group(2))),
        (rf"\b({_MONTH_RE_G})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b",
         lambda m: _ymd(m.group(3), _MONTHS[m.group(1)], m.group(2))),
        (rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE_G}),?\s+(\d{{4}})\b",
         lambda m: _ymd(m.group(3), _MONTHS[m.group(2)], m.group(1))),
        (rf"\b({_MONTH_RE_G}),?\s+(\d{{4}})\b", lambda m: _ym(m.group(2), _MONTHS[m.group(1)])),
        (rf"大前天", lambda m: days_ago(3)),
        # The evening of a day is that day ("前天晚上", "昨天夜里"): the part of the day is not a topic.
        (rf"前天(?:晚上|夜里)?", lambda m: days_ago(2)),
        (rf"昨天(?:晚上|夜里)?|昨日|昨晚", lambda m: days_ago(1)),
        (rf"今天|今日|今早|今晚", lambda m: days_ago(0)),
        (rf"({_ZNUM})\s*天(?:以)?前", lambda m: days_ago(_num(m.group(1)))),
        (rf"(?:上上)(?:个)?(?:周|星期|礼拜)({wd_zh})",
         lambda m: weekday_in(_week_of(today - timedelta(days=14)), _ZH_WEEKDAYS[m.group(1)])),
        (rf"上(?:个)?(?:周|星期|礼拜)({wd_zh})", lambda m: weekday_in(prev_week, _ZH_WEEKDAYS[m.group(1)])),
        (rf"(?:这|本)(?:个)?(?:周|星期|礼拜)({wd_zh})", lambda m: weekday_in(this_week, _ZH_WEEKDAYS[m.group(1)])),
        (rf"({_ZNUM})\s*(?:个)?(?:周|星期|礼拜)(?:以)?前", lambda m: weeks_ago(_num(m.group(1)))),
        # A bare weekday names a day only before a verb of doing ("周三做了什么"); else it is
        # content ("每周三开会", "窗口还是周二吗").
        (rf"(?<![每上这本])(?:周|星期|礼拜)({wd_zh})(?=(?:那天|当天)?(?:都)?(?:做|干|记|发生|去|忙|写))",
         lambda m: latest_weekday(_ZH_WEEKDAYS[m.group(1)])),
        # "月初这几天" is the start of the month, not the last few days ("这几天" only qualifies it; the
        # month rules below take "这几天 / 那几天 / 那段时间" after a part of the month with it: round 7, set K).
        (r"前几天|(?<![初底末中旬])这几天|最近几天", lambda m: (today - timedelta(days=6), today - timedelta(days=1))),
        (rf"(?<![月\d零〇一二两三四五六七八九十])({_ZNUM})\s*(?:号|日)(?=那天|当天|做|干|记|发生|去|的|都)",
         lambda m: month_day_this(_num(m.group(1)))),
        (r"上上(?:个)?(?:周|星期|礼拜)", lambda m: weeks_ago(2)),
        (r"上(?:个)?(?:周|星期|礼拜)", lambda m: prev_week),
        (r"(?:这|本)(?:个)?(?:周|星期|礼拜)", lambda m: this_week),
        (r"上(?:个)?月(初|中旬|上旬|下旬|底|末|中)?(?:\s*(?:这|那)(?:几天|段时间|些天))?",
         lambda m: months_ago(1, part_zh.get(m.group(1) or ""))),
        (r"(?:这|本)(?:个)?月(?:的)?(?:月)?(初|中旬|上旬|下旬|底|末|中)?(?:\s*(?:这|那)(?:几天|段时间|些天))?",
         lambda m: months_ago(0, part_zh.get(m.group(1) or ""))),
        (rf"({_ZNUM})\s*个月(?:以)?前", lambda m: months_ago(_num(m.group(1)))),
        (rf"({_ZNUM})\s*月\s*({_ZNUM})\s*(?:日|号)",
         lambda m: month_day(_num(m.group(1)), _num(m.group(2)))),
        (rf"({_ZNUM})\s*月(?:份)?(?:的)?(初|中旬|上旬|下旬|底|末|中)(?:\s*(?:这|那)(?:几天|段时间|些天))?",
         lambda m: named_month(_num(m.group(1)), part_zh[m.group(2)]) if 1 <= (_num(m.group(1)) or 0) <= 12 else None),
        (r"月(初|中旬|上旬|下旬|底|末)(?:\s*(?:这|那)(?:几天|段时间|些天))?", lambda m: months_ago(0, part_zh[m.group(1)])),
        (rf"({_ZNUM})\s*月份?", lambda m: named_month(_num(m.group(1))) if 1 <= (_num(m.group(1)) or 0) <= 12 else None),
        # ---- English (lower-case text)
        (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: _iso_span(m)),
        # With or without "the" ("day before yesterday, anything?"); "the night before last" is its evening.
        (r"\b(?:the\s+)?day before yesterday\b|\b(?:the\s+)?night before last\b", lambda m: days_ago(2)),
        (r"\byesterday\b|\blast night\b", lambda m: days_ago(1)),
        (r"\btoday\b|\bthis morning\b|\btonight\b", lambda m: days_ago(0)),
        (rf"\b({_ENUM})\s+days?\s+ago\b", lambda m: days_ago(_num(m.group(1)))),
        (rf"\b({_ENUM})\s+weeks?\s+ago\b", lambda m: weeks_ago(_num(m.group(1)))),
        (rf"\b({_ENUM})\s+months?\s+ago\b", lambda m: months_ago(_num(m.group(1)))),
        (r"\b(?:the\s+)?week before last\b", lambda m: weeks_ago(2)),
        (r"\blast weekend\b", lambda m: weekday_in(prev_week, 7)),
        (r"\bthis weekend\b|\bover the weekend\b|\bon the weekend\b", lambda m: latest_weekday(7)),
        (rf"\blast ({_WEEKDAY_RE})(?:day)?\b", lambda m: weekday_in(prev_week, _WEEKDAYS[m.group(1)])),
        (rf"\bthis ({_WEEKDAY_RE})(?:day)?\b", lambda m: weekday_in(this_week, _WEEKDAYS[m.group(1)])),
        # "on Monday" names a day only in a question about what was done ("what did I do on
        # Monday"); "is the window on Tuesday" is content.
        (rf"\bon ({_FULL_WEEKDAY_RE})\b",
         lambda m: latest_weekday(_WEEKDAYS[m.group(1)]) if _DONE_EN.search(m.string) else None),
        (r"\b(?:the )?(?:last|past) (?:few|couple of|several) days\b",
         lambda m: (today - timedelta(days=6), today - timedelta(days=1))),
        (r"\bon the (\d{1,2})(?:st|nd|rd|th)\b", lambda m: month_day_this(int(m.group(1)))),
        (r"\blast week\b", lambda m: prev_week),
        (r"\bthis week\b|\bearlier this week\b", lambda m: this_week),
        (r"\b(early|beginning|start|mid|middle|late|end)(?:\s+of)?\s+last month\b",
         lambda m: months_ago(1, part_en[m.group(1)])),
        (r"\b(early|beginning|start|mid|middle|late|end)(?:\s+of)?\s+this month\b",
         lambda m: months_ago(0, part_en[m.group(1)])),
        (r"\b(?:the\s+)?(beginning|start|end|middle) of the month\b", lambda m: months_ago(0, part_en[m.group(1)])),
        (r"\blast month\b", lambda m: months_ago(1)),
        (r"\bthis month\b", lambda m: months_ago(0)),
        (rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b",
         lambda m: month_day(_MONTHS[m.group(1)], int(m.group(2)))),
        (rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b",
         lambda m: month_day(_MONTHS[m.group(2)], int(m.group(1)))),
        (rf"\b(early|beginning|start|mid|middle|late|end)(?:\s+of)?[\s-]+({_MONTH_RE})\b",
         lambda m: named_month(_MONTHS[m.group(2)], part_en[m.group(1)])),
        (rf"\bin ({_MONTH_RE})\b", lambda m: named_month(_MONTHS[m.group(1)])),
    ]


def _ymd(year, month, day) -> tuple[date, date] | None:
    try:
        d = date(int(year), int(month), int(day))
    except ValueError:
        return None
    return d, d


def _ym(year, month) -> tuple[date, date] | None:
    if not 1 <= int(month) <= 12:
        return None
    return _month_span(int(year), int(month))


def _iso_span(m: re.Match) -> tuple[date, date] | None:
    try:
        d = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
    return d, d


def _has(text: str, words: tuple[str, ...]) -> list[str]:
    out = []
    for w in words:
        if w.isascii():
            if re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", text):
                out.append(w)
        elif w in text:
            out.append(w)
    return out


def parse(query: str, today: date) -> QueryTime:
    """Read the time a query names, against ``today`` (a date in the user's zone).

    Args:
        query: the query text, any mix of English and Chinese.
        today: the user's local date (:func:`local_today`).

    Returns a :class:`QueryTime`; ``span`` is None when no time is named.
    Several time expressions: the first one found (most specific rule
    first) sets the span; all are removed from ``rest``.
    """
    low = query.lower()
    rest = low
    qt = QueryTime()
    # Seasonal and weekday English words that are also common nouns ("may", "march", "sun") only
    # count next to a day number or "in"/"last"; the rules above are written that way.
    from . import holiday

    if holiday.GATE.search(rest):
        # A holiday's name ("Easter Monday", 国庆节, "the Thanksgiving long weekend"): its latest days.
        # Read before the calendar words, so "感恩节长周末" is that holiday's weekend, not this one.
        from .clock import user_zone

        named = holiday.find(rest, today, user_zone().name)
        if named:
            qt.span, words = named
            qt.found.append(words)
            qt.holiday = words
            rest = rest.replace(words, " ")
    for pattern, handler in _rules(today):
        for m in list(re.finditer(pattern, rest)):
            span = handler(m)
            if span is None:
                continue
            if qt.span is None:
                qt.span = span
            qt.found.append(m.group(0))
        rest = re.sub(pattern, lambda m: " " if handler(m) is not None else m.group(0), rest)
    # Mode words are looked for after the time words are gone: "the day before yesterday"
    # and "三天以前" name a day, not an earlier state.
    now_words = _has(rest, NOW_EN) + _has(rest, NOW_ZH)
    past_words = _has(rest, PAST_EN) + _has(rest, PAST_ZH)
    # "still" / "还是" with a past word ("was it still ... before") reads as past; a plain
    # "now" word wins over a span-less past word only when no past word is present.
    if past_words:
        qt.mode = "past"
        qt.past = "earliest" if any(w in EARLIEST for w in past_words) else "previous"
        m = (re.search(r"\b(?:before|prior to)\s+(.+?)(?:[?？,，.。!！;；]|$)", rest)
             or re.search(r"([^?？,，.。!！;；]+?)(?:之前|以前)", rest))
        if m:
            qt.before = m.group(1).strip()
        if qt.span is not None and BEFORE_DATE and _dates_the_change(low, qt.found):
            # "before the vet changed it on October 21": the date is when the change happened; the
            # answer is the version before it, written earlier (round 7, set K).
            qt.before_day, qt.span = qt.span[1], None
    elif now_words:
        qt.mode = "now"
    for kind, pattern in ASKS:
        if pattern.search(rest):
            qt.asks = qt.asks or kind
            qt.asks_all.append(kind)
    unit = _ASKED_UNIT.search(rest)
    if unit:
        qt.unit = re.sub(r"^(?:多少|几|how\s+(?:many|much))\s*", "", unit.group(0))
    elif qt.asks == "number":
        # A quantity named by its noun is asked in its usual unit: "药量是多少" wants milligrams, not the
        # cat's "体重 3.85kg" of a later note (round 7, set K).
        for pattern, implied in _IMPLIED_UNIT:
            if pattern.search(rest):
                qt.unit = implied
                break
    if "when" in qt.asks_all and len(qt.asks_all) > 1:
        qt.asks_all.remove("when")  # "when ... what time": the precise kind says it
    if qt.asks == "when" and qt.asks_all:
        qt.asks = qt.asks_all[0]
    if not qt.asks:
        # A yes/no question that names a value ("still at 3:30?", "还是周二吗") asks for that kind.
        for kind in ("clock", "weekday"):
            if states(kind, rest):
                qt.asks = kind
                qt.asks_all = [kind]
                break
    for w in now_words + past_words:
        rest = re.sub(rf"(?<![a-z]){re.escape(w)}(?![a-z])" if w.isascii() else re.escape(w), " ", rest)
    qt.rest = re.sub(r"\s+", " ", rest).strip()
    # The value a change led to ("改成周三之前", "before it moved to Thursdays") is not the subject.
    new_values = []
    for pattern in (_CLOCK_VALUE, _WEEKDAY_VALUE, _DATE_VALUE):
        for m in pattern.finditer(low):
            if _CHANGED_TO.search(low[max(0, m.start() - 12):m.start()]):
                new_values.append(m.group(0).lower())
    text = qt.rest
    for v in new_values:
        text = text.replace(v, " ")
    qt.subject = subject(text)
    if qt.span is not None:
        qt.time_only = _only_frame(qt.rest)
        qt.latest_first = bool(_END_OF_SPAN.search(low))
    return qt


#: A date inside a past question's "before" clause dates the change (:attr:`QueryTime.before_day`). False:
#: the date is the span of the answer, as before round 7 (ablation).
BEFORE_DATE = True
_BEFORE_WORD = re.compile(r"\b(?:before|prior to)\b|之前|以前")


def _dates_the_change(low: str, found: list[str]) -> bool:
    """True when every time phrase of the question stands after its "before" word ("before the vet
    changed it on October 21") or before its 之前 with a change verb between ("10月21号改药之前"): the
    date is when the change happened. "What was it on October 3, before..." keeps its span."""
    m = _BEFORE_WORD.search(low)
    if not m or not found:
        return False
    spots = [low.find(f.lower()) for f in found]
    if any(p < 0 for p in spots):
        return False
    if m.group(0) in ("之前", "以前"):
        return all(p < m.start() and _CHANGED_TO_OR_VERB.search(low[p:m.start()]) for p in spots)
    # The clause must name a change ("before the vet changed it on ..."): "the week before August 3,
    # 2023" is a span (LoCoMo dev: five such questions lost their span, hit@5 0.719 -> 0.717).
    return all(p > m.end() and (_CHANGE.search(low[m.end():p]) or _SET.search(low[m.end():p])) for p in spots)


_SET = re.compile(r"\b(?:set|made|became|turned)\b")


_CHANGED_TO_OR_VERB = re.compile(r"改|换|调|变|升级|搬|移")


#: Chinese question words: how a question asks, not what about ("是多少", 哪家, 几号). Taken out of a
#: now/past question's subject, so that its character pairs (是多, 在哪, 几点 -> "time") do not pick
#: entries. Single characters only where they are particles, never inside a content word we rely on.
QUESTION_ZH = ("是多少", "多少钱", "多少", "什么样", "什么", "哪一个", "哪个", "哪家", "哪里", "哪儿", "在哪", "哪些",
               "这个", "那个", "几号", "几点", "周几", "星期几", "礼拜几", "几个", "几天", "几次", "怎么样", "怎么", "如何", "是不是",
               "是否", "是", "吗", "呢", "吧", "的", "了", "在", "用", "走", "还")
#: English question frames that are not stop words ("which day", "how often" are :data:`ASKS`).
QUESTION_EN = re.compile(r"(?<![\w-])(?:what|which|who|whom|whose|where|when|how|is|are|was|were|do|does|did|i|my|we|our"
                         r"|me|us|the|a|an|at|on|in|to|of|for|and|again|right|moment|days?|time|much|many|get|gets|got"
                         r")(?![\w-])")


#: Words naming the end of a span: the night of a day, the end of a month.
_END_OF_SPAN = re.compile(r"\blast night\b|\btonight\b|\bnight before last\b|前天晚上|前天夜里|昨晚|昨天晚上|昨天夜里|今晚|月底|月末|下旬"
                          r"|\b(?:end|late)\s+(?:of\s+)?(?:last|this|the)\s+month\b|\b(?:end|late)\s+(?:of\s+)?"
                          r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b")
_CHANGED_TO = re.compile(r"(?:改成|改到|换成|换到|调到|挪到|改为|变成|moved to|changed to|switched to|moves to|to)\s*$")


#: A number question's unit: 多少克, 几天, 几个月, "how many grams" (round 6).
_ASKED_UNIT = re.compile(r"(?:多少|几)\s*(?:个月|公斤|千克|毫升|公里|分钟|小时|[克斤升米天周年元块欧次页度个号岁层寸])"
                         r"|\bhow\s+(?:many|much)\s+(?:grams?|kilos?|kg|pounds?|lbs?|ml|litres?|liters?|km|miles?|minutes?"
                         r"|hours?|days?|weeks?|months?|years?|dollars?|euros?|times|pages?|people)\b")


#: Quantities named by a noun, and the unit a number of them is written in (:attr:`QueryTime.unit`): a dose
#: in milligrams, a weight in kilograms, a distance in kilometres. Ours, from how people write them.
_IMPLIED_UNIT = ((re.compile(r"药量|剂量|\bdos(?:e|es|age)\b"), "mg"),
                 (re.compile(r"体重|\bweigh(?:t|s)?\b"), "kg"),
                 (re.compile(r"距离|多远|\bdistance\b|\bhow\s+far\b"), "km"))


def subject(rest: str) -> str:
    """What a question is about: ``rest`` without the kinds it asks (:data:`ASKS`) and question words.

    "which port is the staging gateway on" -> "port staging gateway"; "现在周会是周几、几点开" ->
    "周会 开". The versions of a fact are the entries that name this subject (the words of a
    question's frame name nothing).
    """
    # The unit of the asked number is part of the question ("一天喂多少克", "how many grams"), not its subject.
    text = _ASKED_UNIT.sub(" ", rest)
    for _, pattern in ASKS:
        text = pattern.sub(" ", text)
    for w in sorted(QUESTION_ZH, key=len, reverse=True):
        text = text.replace(w, " ")
    text = QUESTION_EN.sub(" ", text)
    return re.sub(r"\s+", " ", re.sub(r"[?？,，。!！;；、：—–]|[.:](?!\w)", " ", text)).strip()


def _only_frame(rest: str) -> bool:
    """True when ``rest`` holds nothing but question frame words (English and Chinese)."""
    text = rest
    for w in sorted(FRAME_ZH, key=len, reverse=True):
        text = text.replace(w, " ")
    words = re.findall(r"[a-z0-9']+|[\u3400-\u9fff]", text)
    return all(w in FRAME_EN for w in words if not w.isdigit())


def local_today(now: datetime) -> date:
    """``now`` (aware) as a date in the user's time zone (:func:`memory_manager.clock.user_zone`:
    OpenClaw's ``agents.defaults.userTimezone``, then ``TZ``, then the system's)."""
    from .clock import user_zone

    return now.astimezone(user_zone().tz).date()
