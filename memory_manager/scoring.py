"""The Optimization seed's relevance score, and the value score used by pruning.

    score = w_kw·keyword + w_time·time + w_acc·access + w_tag·tags

with the weights from ``config.json`` ``scoring`` (seed: 0.4/0.2/0.2/0.2) and
every other constant from the ``time_decay``, ``access`` and ``recall``
sections. Each part lies in 0..1; the score is their weighted sum, so its range
is the sum of the weights in use: 0..1.0 with the seed's weights, 0..1.2 for a
now/past question (time weight :data:`ASKED_TIME_WEIGHT`, 0.4). It is not
normalised: dividing by the weights' sum would change no ranking within a query
(references/recall.md). The parts:

- **keyword**: the entry's BM25 (plus a small share of its neighbours', see
  :mod:`memory_manager.recall`) divided by the best such value for the same
  query, so the best match scores 1.0 and an entry without a matching term
  0 (and is not returned at all).
- **time**: 1.0 up to ``no_decay_days`` (7) days old, then falling by
  ``decay_rate_per_day`` (0.02) per day *beyond* day 7, floored at
  ``min_score`` (0.1). The seed's code computes ``1 - days·0.02`` once past
  day 7, which jumps from 1.0 at day 7 to 0.84 at day 8; we subtract only
  the days past the grace period, so the curve is continuous (0.98 at day 8,
  floor reached at day 52).
- **access**: ``ln(count + 1) / log_divisor`` (10), ×``recent_boost`` (1.5)
  when last recalled within ``recent_days`` (7), capped at 1.
- **tags**: the share of the entry's tags matched by the query's words (a tag
  matches when every one of its terms is among the query's terms, after the
  same stemming/segmentation as the text); ``untagged_tag_score`` (0.5) for
  an untagged entry, the seed's neutral choice.

Why time decay cannot bury an old but relevant answer: time decay is one
part of four and only ever moves a score by ``w_time·(1 - min_score)``
(0.2·0.9 = 0.18); its floor keeps every old entry at 0.1, never 0; keyword is
normalised so the best match of a query always brings the full ``w_kw`` (0.4);
and only entries that match the query are candidates at all, so a recent
but unrelated note never outranks a relevant one. A brand-new entry needs a
keyword part within 0.45 of the old best match (0.18/0.4) to overtake it.

Pruning has no query, so the **value score** drops the keyword part and
rescales the remaining weights to sum to 1 (issue 4). Its tag part has no
query to match: tagged entries count as fully matched (1.0, someone curated
them) and untagged ones keep the neutral 0.5.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import date
from typing import Any, Iterable

from .clock import parse_day

DAY_SECONDS = 86400.0


@dataclass(frozen=True)
class Parts:
    """The four parts of a score (each 0..1) and the weighted total."""

    keyword: float
    time: float
    access: float
    tags: float
    total: float

    def as_dict(self) -> dict[str, float]:
        return {"keyword": round(self.keyword, 6), "time": round(self.time, 6),
                "access": round(self.access, 6), "tags": round(self.tags, 6), "total": round(self.total, 6)}


def age_days(entry_date: date | str | None, today: date) -> float | None:
    """Return whole days between ``entry_date`` and ``today`` (0 for future dates), or None.

    None when ``entry_date`` is missing or not a real calendar date
    (``2026-13-45``): such an entry is undated, never an error.
    """
    d = parse_day(entry_date)
    if d is None:
        return None
    return float(max(0, (today - d).days))


def time_score(days: float | None, cfg: dict[str, Any]) -> float:
    """Time decay for an entry ``days`` old (None: undated -> treated as new, 1.0).

    Constants: ``cfg["time_decay"]`` ``no_decay_days``, ``decay_rate_per_day``,
    ``min_score`` (Optimization seed: 7, 0.02, 0.1). Continuous at the end of
    the grace period, unlike the seed's code (see the module docstring).
    """
    td = cfg["time_decay"]
    if days is None or days <= td["no_decay_days"]:
        return 1.0
    # Only the days past the grace period count (the seed's 1 - days*rate jumps at day 8).
    return max(td["min_score"], 1.0 - td["decay_rate_per_day"] * (days - td["no_decay_days"]))


def access_score(count: int, days_since_last: float | None, cfg: dict[str, Any]) -> float:
    """Access frequency part: ``min(1, ln(count+1)/log_divisor × boost)``.

    ``boost`` is ``cfg["access"]["recent_boost"]`` (1.5) when the entry was
    recalled within ``recent_days`` (7) days, else 1 (Optimization seed).
    ``days_since_last`` is None when never recalled.
    """
    ac = cfg["access"]
    if count <= 0:
        return 0.0
    score = math.log(count + 1) / ac["log_divisor"]
    if days_since_last is not None and days_since_last <= ac["recent_days"]:
        score *= ac["recent_boost"]
    return min(score, 1.0)


def tag_score(tag_terms: list[list[str]], query_terms: Iterable[str] | None, cfg: dict[str, Any]) -> float:
    """Share of the entry's tags matched by the query.

    Args:
        tag_terms: each tag's ranking terms (:func:`memory_manager.index.tag_terms`).
        query_terms: the query's terms; None means "no query" (value score):
            every tag counts as matched.
    A tag matches when all its terms are among the query's terms. Untagged:
    ``cfg["recall"]["untagged_tag_score"]`` (0.5, the seed's choice).
    """
    if not tag_terms:
        return cfg["recall"]["untagged_tag_score"]
    if query_terms is None:
        return 1.0
    q = set(query_terms)
    matched = sum(1 for terms in tag_terms if terms and all(t in q for t in terms))
    return matched / len(tag_terms)


def combine(keyword: float, time: float, access: float, tags: float, cfg: dict[str, Any],
            disabled: Iterable[str] = (), time_weight: float | None = None) -> Parts:
    """Weighted sum with the ``cfg["scoring"]`` weights.

    ``disabled`` names parts whose weight is set to 0 (benchmark ablations);
    ``time_weight`` replaces the time weight (a query that asks about time,
    :func:`time_weight`).
    """
    w = cfg["scoring"]
    off = set(disabled)
    wt = w["time_decay_weight"] if time_weight is None else time_weight
    total = ((0 if "keyword" in off else w["keyword_weight"]) * keyword
             + (0 if "time" in off else wt) * time
             + (0 if "access" in off else w["access_frequency_weight"]) * access
             + (0 if "tags" in off else w["tag_match_weight"]) * tags)
    return Parts(keyword, time, access, tags, total)


def value_score(time: float, access: float, tags: float, cfg: dict[str, Any]) -> float:
    """Pruning's value: the score without keyword, weights rescaled to sum to 1 (issue 4).

    With the seed's weights that is ``(time + access + tags) / 3``.
    """
    w = cfg["scoring"]
    rest = w["time_decay_weight"] + w["access_frequency_weight"] + w["tag_match_weight"]
    if rest <= 0:
        return 0.0
    return (w["time_decay_weight"] * time + w["access_frequency_weight"] * access
            + w["tag_match_weight"] * tags) / rest


# ------------------------------------------------------------ time in the query (issue 13)

#: Time weight when the query asks for the current state ("now", "latest", 现在) or an
#: earlier one ("before", 之前): time then decides between versions of one fact, so it
#: weighs as much as keywords, and the score's range is 0..1.2. Chosen on the frozen time set A,
#: checked on E, A and C in round 4 (bench/README.md: 0.2 and 0.3 lose now/past questions, 0.6
#: gains nothing).
ASKED_TIME_WEIGHT = 0.4
#: Days over which "newer" (or, for the past, "older") counts half: the recency part of a
#: now/past query is 1 / (1 + gap / HALF_GAP_DAYS), the gap measured from the newest (oldest)
#: relevant candidate, not from today: the latest statement is current however old it is.
HALF_GAP_DAYS = 3.0
#: A candidate is relevant for the newest/oldest reference when its keyword part is at
#: least this share of the best (a passing mention must not set the reference date).
RELEVANT_SHARE = 0.7
#: A query word is distinctive when at most this many entries hold it (or 0.2 % of the
#: entries when that is more): the words that single out one memory.
DISTINCT_DF = 3
DISTINCT_SHARE = 0.002
#: At most this many entries may hold all the query's distinctive words for them to be
#: "the only match" that decay must not bury (the top 3 of issue 13).
UNIQUE_MAX = 3


def day_in_span(day: str | None, dates_json: str | None, span: tuple[str, str]) -> str | None:
    """The latest of an entry's dates within ``span`` (``YYYY-MM-DD`` pair, inclusive), or None.

    ``day`` is the entry's date (when it last changed); ``dates_json`` the JSON
    list of every version's date (knowledge entries), or None.
    """
    first, last = span
    found = [d for d in ([day] + (json.loads(dates_json) if dates_json else [])) if d and first <= d[:10] <= last]
    return max(found)[:10] if found else None


def time_weight(mode: str | None, spanned: bool, cfg: dict[str, Any]) -> float:
    """The time part's weight for a query: the seed's ``time_decay_weight`` (0.2) unless
    the query asks for the current or an earlier state (:data:`ASKED_TIME_WEIGHT`)."""
    if mode in ("now", "past") and not spanned:
        return max(cfg["scoring"]["time_decay_weight"], ASKED_TIME_WEIGHT)
    return cfg["scoring"]["time_decay_weight"]


#: Plain queries: a candidate is "near the best" when its keyword part is at least this.
NEAR_BEST = 0.8
#: ... and the configured time weight applies in full from this many near-best candidates.
NEAR_FULL = 20


def plain_time_weight(keyword: list[float], cfg: dict[str, Any]) -> float:
    """Time weight for a query that names no time: ``time_decay_weight × min(1, n / NEAR_FULL)``.

    ``n`` is the number of candidates whose keyword part is at least
    :data:`NEAR_BEST`. When many memories match about equally (the plain case),
    the seed's weight (0.2) applies and the recent ones win, the seed's reason
    for decay; when the words single out a few, their age should not decide
    which of them is right, so the weight shrinks in proportion (issue 13).
    Curve and constants chosen on LoCoMo dev with the after-conversation clock
    and the time set A (references/recall.md).
    """
    n = sum(1 for k in keyword if k >= NEAR_BEST)
    return cfg["scoring"]["time_decay_weight"] * min(1.0, n / NEAR_FULL)


#: In a now/past question that asks for a kind of value (:data:`memory_manager.querytime.ASKS`),
#: a candidate is a version of the fact when it states such a value and its keyword part is at
#: least this share of the best: the value does the sorting, so fewer shared words suffice (a
#: later note that says "rent went up to 6,100" shares only "rent" with "what is the rent now").
#: Chosen on the time sets A, B and C together (bench/README.md).
VERSION_SHARE = 0.5
#: A past question whose versions are a single entry (the one stating the change, which repeats
#: the question's words) also takes the candidates down to this share that state the asked kind
#: of value: the earlier version was written before the change and shares fewer words. Chosen
#: on the time sets A, B and C together (bench/README.md: A past 0.857 -> 1.000, B and C equal).
PAST_FLOOR = 0.2


#: For "now", the days a daily note counts as older than a knowledge entry written the same day as the
#: newest change (round 7, set K): the note tells how the fact changed ("moved the handover, updated
#: the on-call note"), the entry states it as it stands. Two days: a gap of 1 / (1 + 2/3) = 0.6 of the
#: time part (0.16 of the score at the now weight 0.4), more than an untagged note's 0.1 tag lead.
SAME_DAY_RECORD_GAP = 2.0


def version_time(days: dict[int, float | None], keyword: dict[int, float], versions: set[int], mode: str,
                 past: str | None, anchor: int | None, cfg: dict[str, Any],
                 records: set[int] | frozenset = frozenset()) -> dict[int, float]:
    """Time part for a now/past question, given the versions of the asked fact.

    Args:
        days: candidate -> age in days of the version it stands for (None: undated).
        keyword: candidate -> keyword part (0..1).
        versions: the candidates that are versions of the fact (newer statements supersede
            older ones); empty: the candidates at :data:`RELEVANT_SHARE` of the best.
        mode: ``"now"`` (the newest version is the target) or ``"past"``.
        past: ``"earliest"`` (the oldest version is the target) or ``"previous"`` (the version
            right before ``anchor``, by default the newest: "before the latest change").
        anchor: the version the question dates its "before" from (the one that introduced the
            change it names), or None.
        records: the versions that are knowledge entries (an entry's text, current or earlier):
            for "now", a daily note of the newest version's day counts :data:`SAME_DAY_RECORD_GAP`
            days older when a record was written that day.

    A version's time part is ``1 / (1 + gap / HALF_GAP_DAYS)``, the gap in days from the
    target version; every other candidate gets ``time_decay.min_score``: it is not a
    statement of the fact, so it has no say in which version is current.
    """
    floor = cfg["time_decay"]["min_score"]
    group = {r for r in versions if days.get(r) is not None}
    if not group:
        group = {r for r, d in days.items() if d is not None and keyword.get(r, 0.0) >= RELEVANT_SHARE}
    if not group:
        return {r: 1.0 for r in days}
    ages = sorted({days[r] for r in group})  # newest first (smallest age)
    if mode == "now":
        target = ages[0]
    elif past == "earliest":
        target = ages[-1]
    else:
        after = days[anchor] if anchor in group else ages[0]
        older = [a for a in ages if a > after]
        target = older[0] if older else ages[-1]
    recorded = mode == "now" and any(r in records and days[r] == target for r in group)
    out = {}
    for r, d in days.items():
        if r not in group:
            out[r] = floor
            continue
        gap = abs(d - target)
        if recorded and d == target and r not in records:
            gap = SAME_DAY_RECORD_GAP
        out[r] = max(floor, 1.0 / (1.0 + gap / HALF_GAP_DAYS))
    return out


def protect_unique(time_of: dict[int, float], cand: dict[int, tuple], terms: list[str], idx,
                   cfg: dict[str, Any]) -> set[int]:
    """Lift the decay of entries that alone hold the query's distinctive words; return them.

    A query word is distinctive when few entries hold it (:data:`DISTINCT_DF`,
    :data:`DISTINCT_SHARE`). When at most :data:`UNIQUE_MAX` candidates hold
    every distinctive word of the query, their time part becomes 1.0: decay is
    there to prefer the recent one of comparable memories, and these have none
    (issue 13: an old entry that alone matches stays in the top 3). Changes
    ``time_of`` in place.
    """
    n, _, df = idx.collection_stats(terms)
    limit = max(DISTINCT_DF, int(n * DISTINCT_SHARE))
    distinct = [t for t in terms if 0 < df.get(t, 0) <= limit]
    if not distinct:
        return set()
    holders = None
    for t in distinct:
        rows = idx.rows_with(t) & set(cand)
        holders = rows if holders is None else holders & rows
        if not holders:
            return set()
    if len(holders) > UNIQUE_MAX or len(holders) == len(cand):
        return set()  # many holders: decay may choose; no other candidate: nothing to bury it
    for r in holders:
        time_of[r] = 1.0
    return holders


def time_reason(qt, spanned: bool, age: float | None, current: bool, unique: bool) -> str | None:
    """One line saying how time ranked a hit (``--json`` ``time_reason``)."""
    if spanned and qt.span:
        return f"in the asked time ({qt.reason()})" + (
            "; listed from its end" if getattr(qt, "latest_first", False) and getattr(qt, "time_only", False) else "")
    if qt.span:
        return f"nothing from the asked time ({qt.reason()}); ranked without it"
    if qt.mode == "now":
        return "asks for the current state: newest version first"
    if qt.mode == "past":
        return "asks for an earlier state: older versions first" + ("" if current else " (superseded version)")
    if unique:
        return "only entry holding the query's distinctive words: no decay"
    if age is None:
        return "undated: no decay"
    return f"decay by age ({int(age)} days)"
