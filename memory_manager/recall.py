"""Recall: the few entries that answer a query, ranked by the seed's score.

:func:`recall` tokenises the query (:mod:`memory_manager.textproc`), refreshes
and searches the derived index (:mod:`memory_manager.index`, SQLite FTS5
BM25), adds tier-2 entries that may be reused (decrypted in memory only,
:func:`memory_manager.units.t2_entries`), scores every matching entry with
:mod:`memory_manager.scoring` and returns the top-k. Only entries sharing at
least one term with the query are returned, except that a query naming a
time (:mod:`memory_manager.querytime`) also takes that time's entries, and
answers from them when there are any; a query that is only a time lists them.
The English-Chinese glossary (:mod:`memory_manager.glossary`) adds the other
language's words as a second query. Archived entries rank below live ones.

Keyword part, "BM25 or better": an entry's raw keyword value is its own
BM25 plus ``NEIGHBOUR_SHARE`` of the larger BM25 of the entries right
before and after it in the same file, and ``SECOND_NEIGHBOUR_SHARE`` of the
larger of the two entries two places away. A note's sections share context (a
reply answers the line above it; a day's entries share a topic), so a
section whose neighbour matches the query is more likely relevant than an
isolated one with the same own score. The raw values are then divided by
the query's best one (issue 4: 1.0 for the best match). Measured on LoCoMo
(bench/README.md), this beats plain BM25 over the same units.
"""
from __future__ import annotations

import heapq
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import scoring, textproc, tree

#: Share of the best neighbouring entry's BM25 added to an entry's own (0 disables);
#: ``config.json`` ``recall.neighbour_share`` overrides it. Chosen on LoCoMo's dev split
#: (bench/README.md; 0.3 until issue 13, 0.5 with the after-conversation clock); not from a seed.
NEIGHBOUR_SHARE = 0.5
#: Share of the better of the two entries two places away (0 disables): a question and
#: its answer are often a turn apart. Chosen on LoCoMo's dev split with the after-conversation
#: clock (bench/README.md: 0.673/0.770 hit@5/10 without it, 0.714/0.802 with 0.3).
SECOND_NEIGHBOUR_SHARE = 0.3
#: Weight of the cross-language query (:mod:`memory_manager.glossary`) against the
#: query's own words. Chosen on the frozen time set A (bench/README.md).
EXPANSION_SHARE = 0.9


@dataclass
class Hit:
    """One recalled entry: where it is, what it says, and why it ranked.

    ``parts`` holds ``keyword``, ``time``, ``access``, ``tags`` (each 0..1)
    and ``total`` (= ``score``, their weighted sum: 0..1.0 with the seed's
    weights, 0..1.2 for a now/past question; an archived entry's is 1.0 lower);
    ``bm25`` is the raw keyword value before normalisation.
    """

    path: str
    heading: str
    date: str | None
    snippet: str
    score: float
    parts: dict[str, float]
    id: str
    kind: str
    bm25: float = 0.0
    ordinal: int = 0
    text: str = field(default="", repr=False)
    #: The version the hit stands for: the ``YYYY-MM-DD`` it was written (knowledge entries).
    version: str | None = None
    #: False for a superseded version (history), found only by a query about the past.
    current: bool = True
    #: True for an entry found in ``memory/archive/``.
    archived: bool = False
    #: Why time moved this hit (span, now, past, decay), for ``--json``.
    time_reason: str | None = None
    #: For a question about a time span: the day this (current) text was written when that is after
    #: the span, so the text is not what the entry said then (walk-through r4, item 6); else None.
    edited_after_span: str | None = None
    #: The time part's weight for this query (the seed's 0.2 in the plain case, issue 13).
    time_weight: float | None = None
    #: True when the query only names a time: its entries come in the order written, not by score.
    listed: bool = False

    @property
    def shown_path(self) -> str:
        """The path as printed: a finding in a file name masked as recall masks text (issue 10, round 4)."""
        from . import privacy

        return privacy.mask_name(self.path)

    def as_dict(self) -> dict[str, Any]:
        out = {"path": self.shown_path, "heading": self.heading, "date": self.date, "id": self.id,
               "kind": self.kind, "score": round(self.score, 6), "parts": self.parts,
               "bm25": round(self.bm25, 6), "snippet": self.snippet, "time_reason": self.time_reason,
               "archived": self.archived, "current": self.current,
               "time_weight": None if self.time_weight is None else round(self.time_weight, 6)}
        if self.version:
            out["version"] = self.version
        if self.edited_after_span:
            out["edited_after_span"] = self.edited_after_span
        return out


def snippet(text: str, terms: Iterable[str], chars: int) -> str:
    """Return about ``chars`` characters of ``text`` around the first query term found.

    Whitespace is collapsed. Latin terms are stems, so they are looked for at
    a word start (``run`` finds "running").
    """
    flat = re.sub(r"\s+", " ", text).strip()
    low = textproc.normalise(flat)
    if len(low) != len(flat):  # NFKC changed lengths: search the plain lower-case text
        low = flat.lower()
    best = None
    for t in terms:
        pat = re.escape(t) if not t.isascii() else r"(?<![a-z0-9])" + re.escape(t)
        m = re.search(pat, low)
        if m and (best is None or m.start() < best):
            best = m.start()
    start = 0 if best is None else max(0, best - chars // 4)
    piece = flat[start:start + chars]
    return ("…" if start > 0 else "") + piece + ("…" if start + chars < len(flat) else "")


def _t2_bm25(entries: list, terms: list[str], idx) -> dict[int, float]:
    """BM25 (FTS5's formula and constants) of in-memory T2 entries against the index's statistics."""
    from .index import BM25_B, BM25_K1

    n, avgdl, df = idx.collection_stats(terms)
    n += len(entries)
    docs = [textproc.tokens(e.heading + "\n" + e.text) for e in entries]
    for d in docs:
        for t in set(d) & set(terms):
            df[t] = df.get(t, 0) + 1
    avgdl = ((avgdl * (n - len(entries))) + sum(map(len, docs))) / max(n, 1)
    out = {}
    for i, d in enumerate(docs):
        score = 0.0
        for t in terms:
            tf = d.count(t)
            if not tf:
                continue
            idf = math.log((n - df[t] + 0.5) / (df[t] + 0.5))
            idf = idf if idf > 0 else 1e-6  # FTS5 clamps non-positive IDF the same way
            score += idf * tf * (BM25_K1 + 1) / (tf + BM25_K1 * (1 - BM25_B + BM25_B * len(d) / max(avgdl, 1e-9)))
        if score > 0:
            out[-(i + 1)] = score
    return out


def recall(ws: Path, query: str, cfg: dict[str, Any], top_k: int | None = None, track: bool = True, *,
           disabled: Iterable[str] = (), neighbour_share: float | None = None, index=None,
           approved: bool = False, t2_stats: dict[str, int] | None = None,
           malformed: list[dict[str, str]] | None = None, expansion_share: float | None = None,
           time_info: dict[str, Any] | None = None) -> list[Hit]:
    """Return the ``top_k`` entries best matching ``query``, best first.

    Args:
        ws: the workspace folder.
        query: free text, any mix of English and Chinese.
        cfg: the loaded configuration (:func:`memory_manager.config.load_config`).
        top_k: number of hits (default ``cfg["recall"]["top_k"]``, seed: 10).
        track: write the audit-log lines of T2 reuse decisions; ``False``
            leaves all state untouched. Recall never counts accesses (issue 13:
            ``memory.py used`` and ``show`` count uses, :mod:`memory_manager.access`).
        disabled: score parts to switch off (benchmark ablations).
        neighbour_share: override ``cfg["recall"]["neighbour_share"]`` (benchmarks).
        index: an open :class:`memory_manager.index.RecallIndex` to reuse
            (benchmarks); by default the workspace's index is opened and refreshed.
        approved: the user approved reusing T2 (internal) memory for this
            recall; without it T2 entries are only counted.
        t2_stats: filled with T2 counts: ``held`` (needs approval),
            ``locked`` (no key), ``refused`` (the gate said no), ``included``.
        malformed: filled with ``{"file", "error"}`` for each memory file
            that was not searched because it is malformed (bad frontmatter):
            its text is never shown as a snippet, and nothing is rewritten.
        time_info: filled with the time the query names: ``span``
            (``[first, last]`` ISO days in the user's zone, or None) and
            ``entries_in_span`` (how many entries lie in it; 0 means recall
            ranked without the span, or found nothing: the CLI says "nothing
            was noted on ..." rather than only "no matching entries").

    Returns a list of :class:`Hit`; empty when nothing matches.

    Time: the query's time words (:mod:`memory_manager.querytime`) restrict to a span,
    or ask for the current / an earlier state; see ``references/recall.md``.

    Raises:
        BadInputError: ``top_k`` is not positive.
        MalformedKeyError: ``approved`` and a key is configured but malformed.
        FileWriteError: the access sidecar could not be written (``track``).
    """
    from .errors import BadInputError

    k = cfg["recall"]["top_k"] if top_k is None else top_k
    expansion_share = EXPANSION_SHARE if expansion_share is None else expansion_share
    if k <= 0:
        raise BadInputError(f"top-k must be a positive number, not {k}")
    if approved:
        from .crypto import check_key

        check_key(cfg)  # a malformed key fails before anything is read or cached
    from . import querytime
    from .clock import now as clock_now

    now = clock_now()
    local_day = querytime.local_today(now)
    qt = querytime.parse(query, local_day)
    if time_info is not None:
        time_info.update(span=[qt.span[0].isoformat(), qt.span[1].isoformat()] if qt.span else None,
                         entries_in_span=0)
    # Time words are not keywords: "yesterday" would only find notes that say "yesterday".
    terms = textproc.query_terms(qt.rest if (qt.span or qt.mode) else query)
    if qt.time_only:
        terms = []
    if FRAME_WORDS and len(terms) > 1 and _HOW_MUCH.search(query):
        # "how much" / "how many" asks for a number (querytime.ASKS); "much" is no topic word, and it
        # matched "much better than the oak" before the note that states the price (time set N).
        terms = [t for t in terms if t not in ("much", "mani")] or terms
    if not terms and qt.span is None:
        return []
    from . import access, privacy
    from .index import open_index, open_scratch_index
    from .workspace import is_set_up

    own_index = index is None
    if own_index and not _has_memory(ws):
        return []  # nothing to search: do not create memory/.cache in a workspace without memory
    # A folder init.py never set up (MEMORY.md alone, say) is searched through
    # a scratch index: recall creates no memory/ there.
    set_up = is_set_up(ws)
    from .fsio import outside_links

    # Recording access takes the writer lock, which refuses while a folder of the
    # tree leads out of the workspace (issue 10): recall then only reads.
    track = track and set_up and not outside_links(Path(ws))
    idx = index if not own_index else open_index(ws) if set_up else open_scratch_index(ws)
    try:
        if malformed is not None:
            malformed.extend({"file": path, "error": why} for path, why in idx.malformed())
        past = qt.mode == "past"
        if terms and TYPO_MIN:
            terms = _spelled(terms, idx)
        if qt.holiday and terms and qt.span and not idx.span_rows(qt.span[0].isoformat(), qt.span[1].isoformat()):
            # A holiday's name is a topic word too ("Maisie 圣诞剧里演啥" in November): when its days hold
            # nothing, the query is ranked by its words, the name's included (time set N, issue 13).
            terms = textproc.query_terms(qt.rest + " " + qt.holiday)
        found = idx.bm25_rows(terms, history=past) if terms else []
        cand = {r[0]: r[2:] for r in found}
        bm = {r[0]: r[1] for r in found}
        if terms and expansion_share:
            from . import glossary

            # The other language's words for the query's glossary words, as a lighter second query.
            for r in idx.bm25_rows(glossary.expand(qt.rest, terms, held=idx.doc_freq), history=past):
                cand.setdefault(r[0], r[2:])
                bm[r[0]] = bm.get(r[0], 0.0) + expansion_share * r[1]
            # A question frame's words (多少钱 -> cost, price) only add to what the topic found.
            for r in idx.bm25_rows(glossary.expand(qt.rest, terms, frame=True), history=past):
                if r[0] in cand:
                    bm[r[0]] = bm.get(r[0], 0.0) + expansion_share * r[1]
        if terms and NOW_HISTORY and qt.mode == "now":
            _now_from_history(qt, terms, idx, cand, bm, expansion_share)
        span = (qt.span[0].isoformat(), qt.span[1].isoformat()) if qt.span else None
        if span:
            for r in idx.span_rows(*span):
                cand.setdefault(r[0], r[2:])
        t2 = _load_t2(ws, cfg, track, approved, t2_stats)
        t2_rows: dict[int, dict[str, Any]] = {}
        if t2 and terms:
            from .index import tag_terms as _tag_terms

            t2_bm = _t2_bm25(t2, terms, idx)
            bm.update(t2_bm)
            for i, e in enumerate(t2):
                r = -(i + 1)
                if r in t2_bm:
                    tt = json.dumps(_tag_terms(e.tags), ensure_ascii=False, allow_nan=False)
                    t2_rows[r] = {"rowid": r, "path": e.path, "ordinal": e.ordinal, "id": e.id,
                                  "heading": e.heading, "date": e.date, "kind": e.kind, "text": e.text,
                                  "archived": 0, "version": None}
                    cand[r] = (e.id, e.date, tt, 1, None, None, 0)
        if not cand:
            return []
        share = cfg["recall"].get("neighbour_share", NEIGHBOUR_SHARE) if neighbour_share is None else neighbour_share
        get = bm.get
        share2 = SECOND_NEIGHBOUR_SHARE
        raw = {r: (s + share * max(get(r - 1, 0.0), get(r + 1, 0.0))
                   + share2 * max(get(r - 2, 0.0), get(r + 2, 0.0)) if r > 0 else s) for r, s in bm.items()}

        best = max(raw.values(), default=0.0) or 1.0

        in_span: dict[int, str] = {}
        if span:
            for r, (_, day, _, _, _, dates_json, _) in cand.items():
                hit_day = scoring.day_in_span(day, dates_json, span)
                if hit_day:
                    in_span[r] = hit_day
            if time_info is not None:
                time_info["entries_in_span"] = len(in_span)
            if in_span:
                # Restrict: a query that names a time answers from that time when it has entries.
                cand = {r: c for r, c in cand.items() if r in in_span}
                if terms and not any(raw.get(r, 0.0) > 0 for r in cand):
                    overlap = _char_overlap(qt.rest, idx, cand) or _part_overlap(terms, idx, cand)
                    for r, share_of in overlap.items():
                        raw[r] = share_of * best
                elif terms and HEADING_SHARE:
                    for r, share_of in _heading_match(terms, idx, cand, raw).items():
                        raw[r] = raw.get(r, 0.0) + HEADING_SHARE * share_of * best
                    # A word no entry of that time holds may sit inside a compound ("dough" in "sourdough").
                    missing = [t for t in terms if not (idx.rows_with(t) & cand.keys())]
                    for r, share_of in _part_overlap(missing, idx, cand).items():
                        raw[r] = raw.get(r, 0.0) + share_of * len(missing) / len(terms) * best
                    best = max([best] + [raw.get(r, 0.0) for r in cand])  # keyword parts stay 0..1
        stats, unusable = access.read(ws)
        if unusable and malformed is not None:
            # Named, never waited on or fatal: the hits are ranked without access counts (fatk8).
            malformed.append({"file": tree.rel(tree.STATE, tree.ACCESS), "error": unusable.split(": ", 1)[1]})
        w = cfg["scoring"]
        off = set(disabled)
        wk = 0.0 if "keyword" in off else w["keyword_weight"]
        wt = 0.0 if "time" in off else scoring.time_weight(qt.mode, bool(in_span), cfg)
        if wt and not qt.mode and not in_span and terms:
            wt = scoring.plain_time_weight([raw.get(r, 0.0) / best for r in cand], cfg)
        wa = 0.0 if "access" in off else w["access_frequency_weight"]
        wg = 0.0 if "tags" in off else w["tag_match_weight"]
        untagged = cfg["recall"]["untagged_tag_score"]
        days = {r: scoring.age_days(c[1], local_day) for r, c in cand.items()}
        unique: set[int] = set()
        if qt.mode in ("now", "past") and not in_span:
            kw_of = _subject_keyword(qt, idx, cand, bm, expansion_share)
            days.update({r: scoring.age_days(c[1], local_day) for r, c in cand.items() if r not in days})
            versions, anchor, added, seed = _versions(qt, cand, kw_of, idx, t2_rows)
            for r, tail in added.items():  # versions that share no word with the question
                cand[r] = tail
                kw_of[r] = 0.0
                days[r] = scoring.age_days(tail[1], local_day)
            if qt.mode == "past" and SAME_DAY_SUPERSEDED:
                _same_day_superseded_older(versions, cand, days)
            records = {r for r in versions if r < 0 or (cand.get(r) or added.get(r) or (None,) * 6)[4]
                       or (cand.get(r) or added.get(r) or (None,) * 6)[5] is not None}
            time_of = scoring.version_time(days, kw_of, versions, qt.mode, qt.past, anchor, cfg,
                                           records if SAME_DAY_RECORD else frozenset())
            if versions and GROUP_LIFT:
                # The asked version answers the question the group matched: it takes the group's best
                # keyword value, so the newest (or the earlier) statement of the fact comes first.
                # (or its own match on the subject: an edit whose earlier text named it)
                # (or the group's seed's, when the seed was a restatement dropped from the versions)
                top = max([raw.get(r, 0.0) for r in versions] + [raw.get(seed, 0.0)]
                          + [kw_of.get(r, 0.0) * best for r in versions])
                for r in versions:
                    if time_of.get(r) == 1.0:
                        raw[r] = max(raw.get(r, 0.0), top)
        elif in_span:
            time_of = {r: 1.0 for r in cand}
        else:
            time_cache: dict[float | None, float] = {}
            time_of = {}
            for r, d in days.items():
                t = time_cache.get(d)
                if t is None:
                    t = time_cache[d] = scoring.time_score(d, cfg)
                time_of[r] = t
            if wt and terms:
                unique = scoring.protect_unique(time_of, cand, terms, idx, cfg)
        tag_cache: dict[str, float] = {"[]": untagged, "": untagged}

        def parts_of(r: int) -> tuple[float, float, float, float]:
            ident, _, tt_json = cand[r][:3]
            g = tag_cache.get(tt_json)
            if g is None:
                g = tag_cache[tt_json] = scoring.tag_score(json.loads(tt_json), terms, cfg)
            st = stats.get(ident)
            a = 0.0
            if isinstance(st, dict):
                a = scoring.access_score(access.decayed_count(st, now, cfg), access.days_since(st.get("last"), now), cfg)
            return raw.get(r, 0.0) / best, time_of[r], a, g

        scored = []
        for r in cand:
            kw, t, a, g = parts_of(r)
            total = wk * kw + wt * t + wa * a + wg * g
            if cand[r][6]:  # archived: below every live entry (issue 13)
                total -= 1.0
            scored.append((total, -r, r))
        if qt.time_only and in_span:
            # A listing of a time: that time's entries in the order they were written.
            order = sorted(cand, key=lambda r: (cand[r][6], cand[r][1] or "", r))
            if qt.latest_first:  # "last night", 上个月底: from the span's end, live entries before archived
                order = [r for r in reversed(order) if not cand[r][6]] + [r for r in reversed(order) if cand[r][6]]
            scored = [(-i, -r, r) for i, r in enumerate(order)]
        scored.sort(reverse=True)
        heap, seen = [], set()
        for item in scored:
            ident = cand[item[2]][0]
            if ident in seen:
                continue  # one hit per entry: its best-scoring version
            seen.add(ident)
            heap.append(item)
            if len(heap) == k:
                break
        rows = idx.entries(it[2] for it in heap if it[2] > 0)
        rows.update({it[2]: t2_rows[it[2]] for it in heap if it[2] < 0})
        snip = cfg["recall"]["snippet_chars"]
        hits = []
        for total, _, r in heap:
            row = rows[r]
            kw, t, a, g = parts_of(r)
            parts = scoring.combine(kw, t, a, g, cfg, off, time_weight=wt)
            version = in_span.get(r) if in_span.get(r) and cand[r][5] else row.get("version") or None
            if version is None and row.get("dates"):
                version = row["date"]
            # Masked first, then cut (issue 10): a secret or T3 item in a file
            # the bundle did not write (OpenClaw's own notes) is never printed
            # back. Cutting first would leave a token the snippet boundary cut
            # short, which the detector no longer recognises, in plain view.
            hit = Hit(row["path"], privacy.mask(row["heading"]), row["date"],
                      snippet(privacy.mask(row["text"]), terms, snip),
                      parts.total - (1.0 if row.get("archived") else 0.0), parts.as_dict(), row["id"], row["kind"],
                      raw.get(r, 0.0), row["ordinal"], row["text"])
            hit.version = version
            hit.current = bool(row.get("current", 1))
            hit.archived = bool(row.get("archived"))
            hit.time_weight = wt
            hit.time_reason = scoring.time_reason(qt, r in in_span, days.get(r), hit.current, r in unique)
            hit.listed = bool(qt.time_only and in_span)
            written = row.get("version") or (row.get("date") if row.get("kind") == "knowledge" else None)
            if qt.span and hit.current and written and str(written)[:10] > qt.span[1].isoformat():
                hit.edited_after_span = str(written)[:10]
            hits.append(hit)
    finally:
        if own_index:
            idx.close()
    return hits


#: For "past", a superseded version of a knowledge entry counts this share of a day older than a
#: version of the same day that superseded it (nu16 item 1: learned and edited the same day, both
#: were 0 days apart, so "before" / "originally" / 之前 got the current text). Ages are whole days
#: (scoring.age_days), so half a day orders the two without passing a version of another day.
SAME_DAY_SUPERSEDED = 0.5


def _same_day_superseded_older(versions: set[int], cand: dict[int, tuple], days: dict[int, float | None]) -> None:
    """Make each superseded version in ``versions`` older than a newer version of its entry dated the same day.

    ``cand``: rowid -> index row tail ``(id, date, tags, current, version, dates, archived)``;
    ``days``: rowid -> age in whole days, changed in place (see :data:`SAME_DAY_SUPERSEDED`).
    """
    newer: dict[str, set[float]] = {}
    for r in versions:
        if r > 0 and cand[r][3] and days.get(r) is not None:
            newer.setdefault(cand[r][0], set()).add(days[r])
    for r in versions:
        if r > 0 and not cand[r][3] and days.get(r) is not None and days[r] in newer.get(cand[r][0], ()):
            days[r] = days[r] + SAME_DAY_SUPERSEDED


#: Within a named time, the share of the best keyword value added per the share of the query's
#: terms an entry's heading (a daily note's topic) holds: the entry whose topic names the asked
#: thing is about it; the others of that time only mention it ("the physio said to run easy" in a
#: running note vs the physio visit itself). Only for queries naming a time, where the span has
#: narrowed the entries to a few. Chosen on the time sets A, B and C (bench/README.md: C
#: time_topic 0.667 -> 0.833 at 1.0, 0.750 at 0.2-0.7; A and B unchanged at every value).
HEADING_SHARE = 1.0
#: Lift the asked version's keyword part to its group's best (see :func:`recall`); False keeps the
#: version's own words (benchmark ablation).
GROUP_LIFT = True
#: Keep only the group members that share a value or name with the seed's statements (see
#: :func:`_fact_group`); False keeps every linked member (benchmark ablation).
SUPERSEDE = True
#: For "past", an entry with recorded history that matches nearly as well as the best is the
#: chain asked about (see :func:`_fact_group`); False: the whole group (benchmark ablation).
PAST_CHAIN = True
#: A Latin word of a Chinese text counts as a name (a value two versions can share) when at most this
#: many entries, or this share of all entries, hold it: "Fressnapf", not the section labels every
#: daily note carries. Ours, from the time set E.
NAME_DF = 5
NAME_SHARE = 0.05
#: Round 5 (set G; bench/README.md): two entries sharing a rare value (:func:`_rare_values`: a port,
#: a code) are linked whatever their words, and an entry that shares no word with the question joins
#: only that way; a later daily note whose values all appeared before is a restatement, not a new
#: version, and one that states no value is a mention. False switches each off (benchmark ablations).
VALUE_LINK = True
#: The group's seed is the best match that states a value (a number, a time, a code, a name; a weekday
#: when one is asked), not a mention that only names the topic (round 5: A "past" +1).
SEED_STATES = True
#: A later entry that states a change joins the versions only when it names the subject as specifically
#: as the group's seed (:func:`_names_subject`; round 6, set I). False: any such entry (ablation).
NAMES_SUBJECT = True
#: For "now", a knowledge entry written the day of the newest change is the target before a daily note
#: of that day (:data:`memory_manager.scoring.SAME_DAY_RECORD_GAP`; round 7, set K). False: ablation.
SAME_DAY_RECORD = True
#: A knowledge entry that names someone (a capitalised word in an English sentence) can seed the group
#: of a "who / which shop" question (round 7, set K: "现在我们组的 tech lead 是谁"). False: ablation.
NAME_RECORD = True
#: A knowledge entry dated after the group's seed that matches the question nearly as well as the best
#: stays a version without naming a value of the seed's or a change word: its text is the fact's latest
#: statement ("PostgreSQL 16.4 after the 14 October upgrade"; round 7, set K). False: ablation.
LATER_RECORD = True
#: A later daily note whose values all appeared in earlier versions restates the fact, and a daily
#: note that states no value is a mention (round 5: G now/past 19 -> 23 of 27, A 13 -> 16 of 20).
RESTATED = True


#: Round 9 (set M): for "now", a knowledge entry whose superseded text matches the question is a
#: candidate through its current text (:func:`_now_from_history`). False: ablation.
NOW_HISTORY = True
#: Round 9 (set M): for "now" with a kind of value asked, a daily note written after the fact's knowledge
#: entry (the best-matching one) takes part in the versions only when it states a change (until round 9
#: the change test applied only when no kind is asked). False: ablation.
NOW_CHANGE = True
#: Round 14 (set W): a knowledge entry of another key never joins a fact's group by a shared word or value.
RECORDS_APART = True
#: Round 9 (set M): for "now", of two copies of one change (:data:`COPY_DAYS`) a knowledge entry is kept
#: before a daily note, whatever their languages. False: the question's language decides (ablation).
NOW_COPY_RECORD = True


#: Drop "much" / "many" of a "how much" / "how many" question from its terms (issue 13, set N).
#: False: keep them (benchmark ablation).
FRAME_WORDS = True
_HOW_MUCH = re.compile(r"\bhow\s+(?:much|many)\b", re.I)

#: A Latin query word of at least this many letters (its stem) that no entry holds is read as the
#: word entries hold that it misspells by a letter left out or two letters swapped ("espreso" ->
#: "espresso", "croisant" -> "croissant"; :meth:`RecallIndex.near_terms`): a typo otherwise drops
#: the query's most distinctive word (time set N, issue 13: two of its plain and "now" questions
#: spell their subject wrong on purpose). Shorter words have too many neighbours ("bred": bread,
#: breed). 0 switches it off (benchmark ablation).
TYPO_MIN = 5


def _spelled(terms: list[str], idx) -> list[str]:
    """``terms`` with each Latin term of :data:`TYPO_MIN` letters or more that no entry holds replaced
    by the held term it misspells that most entries hold (:meth:`RecallIndex.near_terms`); kept as
    it is when there is none."""
    long = [t for t in terms if len(t) >= TYPO_MIN and t.isascii() and t.isalpha()]
    if not long:
        return terms
    df = idx.doc_freq(long)
    fixed = {}
    for t in long:
        if df.get(t):
            continue
        near = idx.near_terms(t)
        if near:
            fixed[t] = max(sorted(near), key=near.get)
    return list(dict.fromkeys(fixed.get(t, t) for t in terms)) if fixed else terms


def _now_from_history(qt, terms: list[str], idx, cand: dict[int, tuple], bm: dict[int, float],
                      expansion_share: float) -> None:
    """Add to ``cand`` / ``bm`` the current text of each knowledge entry whose earlier text matches a
    "now" question (in place); its BM25 becomes the better of its own and its earlier texts' best.

    An edit may rewrite a fact in the other language or in other words ("洗牙起步价 $650" edited to
    "Dental cleaning base price is now $695"): the edit chain says the current text states the same
    fact, so the question about it "now" must reach the current text even when that text shares no
    word with the question (round 9, set M: two "now" questions found nothing at all). An archived
    entry is not added (archived entries are found as before, below live ones).
    """
    from . import glossary

    rows = [(row, 1.0) for row in idx.bm25_rows(terms, history=True) if not row[5]]
    if expansion_share:
        rows += [(row, expansion_share) for row in idx.bm25_rows(glossary.expand(qt.rest, terms), history=True)
                 if not row[5]]
    old: dict[str, float] = {}
    for row, w in rows:
        old[row[2]] = max(old.get(row[2], 0.0), w * row[1])
    if not old:
        return
    for row in idx.current_rows(old):
        if row[8]:
            continue  # an archived entry is not lifted by its history
        cand.setdefault(row[0], row[2:])
        bm[row[0]] = max(bm.get(row[0], 0.0), old[row[2]])


def _subject_keyword(qt, idx, cand: dict[int, tuple], bm: dict[int, float],
                     expansion_share: float) -> dict[int, float]:
    """Keyword part (0..1) for telling the versions of the asked fact: each entry's own BM25 over
    the question's subject (:func:`memory_manager.querytime.subject`), for every version.

    Args:
        qt: the parsed now/past question; cand: candidate rowid -> index row tail, to which the
            entries the subject finds are added; bm: the question's own BM25 (T2 rows keep theirs).

    Differences from the ranking's keyword part, each a reason a version lost to a mention on the
    time set G (bench/README.md, round 5): the question's frame (是多少, 几点 -> "time", "which")
    picks nothing; the neighbour share (a reply answers the line above it) says what a note is
    near, not what it states; and for "now" a superseded version that names the subject counts for
    its entry's current text (an edit written in the other language or other words is still the
    same fact: its edit chain says so).
    """
    from . import glossary

    terms = textproc.query_terms(qt.subject) or textproc.query_terms(qt.rest)
    if not terms:
        return {r: 0.0 for r in cand}
    score: dict[int, float] = {r: s for r, s in bm.items() if r < 0}
    superseded: dict[str, float] = {}
    rows = [(r, 1.0) for r in idx.bm25_rows(terms, history=True)]
    if expansion_share:
        rows += [(r, expansion_share) for r in idx.bm25_rows(glossary.expand(qt.subject, terms), history=True)]
    for row, w in rows:
        rowid, s, ident, current = row[0], row[1] * w, row[2], row[5]
        if current or qt.mode == "past":
            score[rowid] = score.get(rowid, 0.0) + s
            cand.setdefault(rowid, row[2:])
        else:
            superseded[ident] = max(superseded.get(ident, 0.0), s)
    if superseded:
        for row in idx.current_rows(superseded):
            score[row[0]] = max(score.get(row[0], 0.0), superseded[row[2]])
            cand.setdefault(row[0], row[2:])
    top = max(score.values(), default=0.0) or 1.0
    return {r: score.get(r, 0.0) / top for r in cand}


def _heading_match(terms: list[str], idx, cand: dict[int, tuple], raw: dict[int, float]) -> dict[int, float]:
    """Share of the query's ``terms`` that each matching candidate's heading holds (0..1).

    Only candidates with a keyword value in ``raw`` count; the date a daily heading starts with
    is not part of its topic.
    """
    rows = idx.entries(r for r in cand if r > 0 and raw.get(r, 0.0) > 0)
    want = set(terms)
    out = {}
    for r, row in rows.items():
        head = set(textproc.tokens(re.sub(r"^\[[\d-]+\]\s*", "", row["heading"])))
        held = len(want & head)
        if held:
            out[r] = held / len(want)
    return out


#: Characters too common to tell one Chinese note from another (particles, pronouns, question words).
_COMMON_CHARS = frozenset("的了是在我你他她它们都有和与及也就还又要会能不没很多少什么怎么哪几吗呢吧啊个这那些一上下中")


def _part_overlap(terms: list[str], idx, cand: dict[int, tuple]) -> dict[int, float]:
    """Share of the query's Latin terms (4 letters or more) found inside a longer word of each
    candidate: "dough" in "sourdough", "book" in "notebook".

    The English counterpart of :func:`_char_overlap`: within a named time, when no entry of that
    time matches a single term, a compound word holding the asked word is the best evidence left.
    Empty when the query has no such term.
    """
    words = [t for t in terms if t.isascii() and t.isalpha() and len(t) >= 4]
    if not words:
        return {}
    rows = idx.entries(r for r in cand if r > 0)
    out = {}
    for r, row in rows.items():
        text = (row["heading"] + " " + row["text"]).lower()
        held = sum(1 for w in words if re.search(rf"[a-z]{re.escape(w)}", text)
                   or (len(w) >= 5 and re.search(rf"(?<![a-z]){re.escape(w[:-1])}(?!{re.escape(w[-1])})[a-z]", text)))
        if held:
            out[r] = held / len(words)
    return out


def _char_overlap(rest: str, idx, cand: dict[int, tuple]) -> dict[int, float]:
    """Share of the query's Chinese content characters each candidate's text holds.

    The index holds character pairs, so a one-character word (跑 "run", 修 "fix") next to
    a particle in the query (跑了) matches nothing. Within a named time, when no entry
    of that time matches a single term, this is the keyword part instead: the time has
    already narrowed the entries to a few, and a shared character is the best evidence left.
    Frame words (做了什么) and :data:`_COMMON_CHARS` do not count. Empty when the query has no
    Chinese content character.
    """
    from .querytime import FRAME_ZH

    text = rest
    for w in sorted(FRAME_ZH, key=len, reverse=True):
        if len(w) > 1:
            text = text.replace(w, " ")
    chars = {c for c in text if "\u3400" <= c <= "\u9fff" and c not in _COMMON_CHARS}
    if not chars:
        return {}
    rows = idx.entries(r for r in cand if r > 0)
    out = {}
    for r, row in rows.items():
        held = sum(1 for c in chars if c in row["heading"] or c in row["text"])
        if held:
            out[r] = held / len(chars)
    return out


#: "before the latest / most recent change", 最近一次调整之前: the change named is the newest one.
_LATEST = re.compile(r"\b(?:latest|last|most recent|recent|newest)\b|最近|最新|最后一次|上一次")


def _versions(qt, cand: dict[int, tuple], kw_of: dict[int, float], idx,
              t2_rows: dict[int, dict[str, Any]]) -> tuple[set[int], int | None, dict[int, tuple]]:
    """The versions of the fact a now/past question asks about, the anchor, and the entries added.

    Args:
        qt: the parsed query (:class:`memory_manager.querytime.QueryTime`).
        cand: candidate rowid -> index row tail (id, date, ...).
        kw_of: candidate -> keyword part (0..1).
        t2_rows: the T2 candidates' rows (their text is not in the index).

    Versions: :func:`_fact_group` (grouped by the entries' own text, values and edit history).
    The anchor, for "before <change>": among the versions after the first, the one holding most of
    the change's words that the first does not hold (the earliest of equals: the version that
    brought the change), or None. Added: the index rows of versions that were not candidates.
    """
    versions, added, seed = _fact_group(qt, cand, kw_of, idx, t2_rows)
    anchor = None
    info = {**cand, **added}
    if (qt.mode == "past" and qt.past == "previous" and qt.before_day and versions):
        # "before the vet changed it on October 21": the change is the version of that day, or the
        # first after it; the version before it is asked (round 7, set K).
        day = qt.before_day.isoformat()
        after = sorted((r for r in versions if str(info[r][1] or "")[:10] >= day),
                       key=lambda r: (info[r][1] or "", r))
        if after:
            anchor = after[0]
    elif (qt.mode == "past" and qt.past == "previous" and qt.before and len(versions) > 1
            and not _LATEST.search(qt.before)):  # "before the latest change": the newest is the anchor
        order = sorted(versions, key=lambda r: (info[r][1] or "", r))
        first = order[0]
        texts = _entry_texts(order, idx, t2_rows) if VALUE_ANCHOR else {}
        # A number of the change is that quantity: "set to 5 days" is not "every 5 minutes" (round 7).
        change_units = _units(qt.before)

        def holds(r: int, t: str, holders: set[int]) -> bool:
            if r not in holders:
                return False
            return not (VALUE_ANCHOR and t in change_units and not _same_quantity(t, qt.before, texts.get(r, "")))

        terms = list(dict.fromkeys(textproc.query_terms(qt.before)))
        held = {r: 0 for r in order[1:]}
        new_terms = []
        for t in terms:
            holders = idx.rows_with(t)
            if holds(first, t, holders):
                continue  # the first version has it too: not what the change brought
            new_terms.append(t)
            for r in held:
                held[r] += holds(r, t, holders)
        # The version holding most of the change's words; the earliest of equals brought it.
        best = max(held.values(), default=0)
        if best and len(versions) > 2:
            anchor = next(r for r in order[1:] if held[r] == best)
        values = [t for t in new_terms if any(ch.isdigit() for ch in t)]
        if VALUE_ANCHOR and values and not any(held[r] for r in held if any(
                holds(r, t, idx.rows_with(t)) for t in values)):
            # The value the change led to ("改成 9553 之前", "before it was set to -17") is in no version:
            # the note that brought it is outside the group (a daily note after the entry's last edit).
            # The earliest candidate after the first version holding it is the change; the newest version
            # before it is asked (round 7, set K).
            holders = set.intersection(*(idx.rows_with(t) for t in values)) & cand.keys()
            holders = {r for r in holders if r not in versions and cand[r][3]
                       and (cand[r][1] or "") > (info[first][1] or "")}
            stated = _entry_texts(sorted(holders), idx, t2_rows)
            # In the text's values with the change's unit, not in a heading's date ("[2026-09-17]").
            late = sorted((r for r in holders if all(
                t in {tok for v in _values(stated.get(r, "")) for tok in textproc.tokens(v)}
                and _same_quantity(t, qt.before, stated.get(r, "")) for t in values)),
                key=lambda r: (cand[r][1] or "", r))
            if late:
                anchor = late[0]
                versions = versions | {anchor}
    if (VALUE_RUN and qt.mode == "past" and qt.past == "previous" and not qt.before_day and len(versions) > 1
            and (anchor is None or not qt.before or _LATEST.search(qt.before))):
        # "What was it before": the change is where the asked value last changed, not the newest note that
        # repeats it ("周三在 Britannia 的训练" after the move to Wednesdays; round 9, set M).
        run = _value_run(qt, versions, info, idx, t2_rows)
        if run is not None:
            anchor = run
    if COPY_DAYS and qt.mode in ("now", "past") and len(versions) > 1:
        versions = _drop_copies(qt, versions, anchor, cand, added, idx, t2_rows)
    return versions, anchor, added, seed


#: Round 9 (set M): a "before" question without a change named in its words dates from the version that
#: brought the current value of the asked kind (:func:`_value_run`). False: from the newest version (ablation).
VALUE_RUN = True
#: Round 9 (set M): in a "past" chain, an entry with its own recorded history does not join through a
#: shared value (:func:`_fact_group`, step 4). False: ablation.
OWN_CHAIN = True

_ZH_CLOCK = re.compile(r"(上午|早上|中午|下午|傍晚|晚上)?\s*(\d{1,2})\s*点(半|\s*\d{1,2}\s*分)?")
_EN_CLOCK = re.compile(r"\b(\d{1,2})(?:[:：](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)|\b(\d{1,2})[:：](\d{2})\b", re.I)


def _clock_values(text: str) -> set[str]:
    """The clock times ``text`` states, each as ``H:MM`` on a 12-hour dial: ``5pm``, ``17:00``, ``下午 5 点``
    and ``5 点`` are one value (``5:00``). A 12-hour dial because a Chinese note writes "开到 5 点" without
    下午, and two versions of one schedule are not 12 hours apart."""
    out = set()
    for m in _EN_CLOCK.finditer(text):
        hour, minute = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(5))
        out.add(f"{int(hour) % 12}:{minute or '00'}")
    for m in _ZH_CLOCK.finditer(text):
        extra = m.group(3) or ""
        minute = "30" if extra == "半" else (re.sub(r"\D", "", extra).zfill(2) if extra else "00")
        out.add(f"{int(m.group(2)) % 12}:{minute}")
    return out


def _asked_values(kind: str | None, text: str, unit: set[str] | None = None) -> set[str]:
    """The values of the kind a question asks for that ``text`` states (weekdays in one form for both
    languages, clock times on a 12-hour dial, numbers written with a unit, in ``unit`` when given); an
    empty set when it states none or for kinds not told apart this way (frequency, name)."""
    low = text.lower()
    days = {_canon_weekday(d) for d in _WEEKDAY_RE.findall(low)}
    if kind == "weekday":
        return days
    if kind == "clock":
        return _clock_values(low)
    if kind == "when":
        return days | _clock_values(low)
    if kind == "number":
        # A quantity: a number written with its unit or currency ("1.25 cups", "$8,900", "7 天"), in the
        # unit asked when the question names one; a code ("v2") or a bare count is no value of it.
        units = _units(low)
        if unit:
            return {n for n, us in units.items() if us & unit}
        return set(units)
    return set()


def _value_run(qt, versions: set[int], info: dict[int, tuple], idx, t2_rows) -> int | None:
    """The version that brought the current value of the kind the question asks for, or None.

    The newest version stating a value of that kind (:func:`_asked_values`) holds the current value;
    going back in time, the versions that state none or share one of its values repeat it (a training
    note "周三在 Britannia" after the move to Wednesdays), and the earliest of them brought it: the
    change a "what was it before" question dates from. None when no kind is asked, when no version
    states a value, or when every version holds the current value (no change to date from).
    """
    kind = qt.asks
    if not kind or kind in ("frequency", "name"):
        return None
    order = sorted(versions, key=lambda r: (info[r][1] or "", r))
    texts = _entry_texts(order, idx, t2_rows)
    unit = _units("1 " + qt.unit).get("1") if qt.unit and kind == "number" else None
    asked_own = _asked_values(kind, qt.rest, unit)
    vals = {r: _asked_values(kind, texts.get(r, ""), unit) - asked_own for r in order}
    stating = [r for r in order if vals[r]]
    if not stating:
        return None
    current = vals[stating[-1]]
    brought = None
    for r in reversed(order):
        if not vals[r]:
            continue
        if vals[r] & current:
            brought = r
        else:
            return brought  # an earlier value: the run of the current one starts after it
    return None


def _entry_texts(rows_of: list[int], idx, t2_rows: dict[int, dict[str, Any]]) -> dict[int, str]:
    """Heading and text of each rowid (T2 rows from ``t2_rows``)."""
    rows = idx.entries(r for r in rows_of if r > 0)
    out = {r: t2_rows[r]["text"] for r in rows_of if r < 0 and r in t2_rows}
    # A daily heading's date ("[2026-09-17] ...") is when, not a value the entry states.
    out.update({r: re.sub(r"^\[[\d-]+\]\s*", "", row["heading"]) + "\n" + row["text"] for r, row in rows.items()})
    return out


#: Round 7 (set K): the change a past question names is matched with its unit ("set to 5 days" is not
#: "every 5 minutes"), and a value of the change that no version holds anchors on the candidate that
#: brought it ("改成 9553 之前": the daily note after the entry's last edit). False: ablation.
VALUE_ANCHOR = True



#: Two versions written at most this many days apart that share a value the first version does not
#: hold state the same change twice (a note in each language). Ours: a change is written down the day
#: it happens or the next; the choir test (tests/test_versions.py) and set G.
COPY_DAYS = 2


def _drop_copies(qt, versions: set[int], anchor: int | None, cand: dict[int, tuple], added: dict[int, tuple],
                 idx, t2_rows: dict[int, dict[str, Any]]) -> set[int]:
    """``versions`` without the second copies of the change a now/past question dates from.

    The change is ``anchor`` or, without one, the newest version. A version written within
    :data:`COPY_DAYS` of it that shares a value with it (:func:`_values`) that the first version
    does not hold states the same change: for "past" it is not the version before the change;
    for "now" the copy in the question's language is kept (the question's language only breaks the
    tie between equal versions).
    """
    from datetime import date as _date

    info = {**cand, **added}
    order = sorted(versions, key=lambda r: (info[r][1] or "", r))
    change = anchor if anchor in versions else order[-1]
    rows = idx.entries(r for r in order if r > 0)

    def text(r: int) -> str:
        return t2_rows[r]["text"] if r < 0 else (rows[r]["heading"] + "\n" + rows[r]["text"]) if r in rows else ""

    def day(r: int):
        try:
            return _date.fromisoformat(str(info[r][1] or "")[:10])
        except ValueError:
            return None

    def chinese(t: str) -> bool:
        cjk = sum(1 for c in t if "\u3400" <= c <= "\u9fff")
        return cjk * 2 > len(re.sub(r"\s", "", t)) - cjk

    vals = {r: _values(text(r)) for r in order}
    new = vals[change] - vals[order[0]]
    copies = [r for r in order if r != change and r != order[0] and day(r) and day(change)
              and abs((day(change) - day(r)).days) <= COPY_DAYS and vals[r] & new]
    if not copies:
        return versions
    if qt.mode == "past":
        return versions - {r for r in copies if day(r) <= day(change)}
    if NOW_COPY_RECORD:
        # A knowledge entry among the copies states the fact as it stands; a daily note of the next day
        # ("first run on the new Sunday schedule") tells how it changed (round 9, set M; the same-day
        # case is :data:`SAME_DAY_RECORD`).
        records = [r for r in [change, *copies] if r < 0 or info[r][4] or info[r][5] is not None]
        if records:
            keep = max(records, key=lambda r: (info[r][1] or "", r))
            return versions - ({change, *copies} - {keep})
    asked_zh = chinese(qt.rest)
    same = [r for r in [change, *copies] if chinese(text(r)) == asked_zh]
    keep = max(same, key=lambda r: (info[r][1] or "", r)) if same else change
    return versions - ({change, *copies} - {keep})


def _has_memory(ws: Path) -> bool:
    """True when the workspace has an index already or any file recall reads."""
    from .index import index_path
    from .units import scan_sources

    return (index_path(ws).exists() or tree.Tree(Path(ws)).tier2.is_dir()
            or bool(scan_sources(ws)))


def _load_t2(ws: Path, cfg: dict[str, Any], track: bool, approved: bool = False,
             stats: dict[str, int] | None = None) -> list:
    """T2 entries that may be reused now (see :func:`memory_manager.units.t2_entries`)."""
    if not tree.Tree(Path(ws)).tier2.is_dir():
        return []
    from .units import t2_entries

    return t2_entries(ws, cfg, record=track, approved=approved, stats=stats)


#: Two entries are versions of one fact when the terms they share carry at least this share of the
#: smaller one's term weight (idf-weighted overlap coefficient: Σ idf of shared terms / the smaller
#: Σ idf). A change note names what it changes, and usually the old value, a name or a code the earlier
#: version holds (6432, Fressnapf, 16:00), in any language: numbers, names and codes are the same
#: tokens in an English and a Chinese note. Chosen on the time sets E, A and C together
#: (bench/README.md; on E unrelated notes share 0.02-0.05, versions of one fact 0.11-0.35).
LINK_SHARE = 0.2
#: At most this many candidates (best keyword parts first) are compared: the versions of the asked
#: fact are among the entries that match the question; a bound keeps large workspaces fast.
GROUP_POOL = 40
#: Entries brought in by the best candidates' rarest terms ("more like this"): a version in the other
#: language may share no word with the question but the value or name it changes.
MORE_LIKE = 20
#: Terms of each of the best candidates used for "more like this", rarest first.
MORE_TERMS = 8


def _fact_group(qt, cand: dict[int, tuple], kw_of: dict[int, float], idx,
                t2_rows: dict[int, dict[str, Any]]) -> tuple[set[int], dict[int, tuple]]:
    """The versions of the fact a now/past question asks about, grouped by the entries' own text.

    Args:
        qt: the parsed query (:class:`memory_manager.querytime.QueryTime`).
        cand: candidate rowid -> index row tail (id, date, tags, current, version, dates, archived).
        kw_of: candidate -> keyword part (0..1).
        t2_rows: the T2 candidates' rows (their text is not in the index).

    Returns ``(versions, added, seed)``: the rowids of the group, the index rows of the entries it
    brought in that were not candidates (they may share no word with the question, only the fact's
    names and values; ``added`` rows have the shape of ``cand``'s values), and the group's seed
    (None when there is no group).

    1. The pool: the :data:`GROUP_POOL` best candidates and the entries that the rarest terms of
       the best three bring in (:data:`MORE_LIKE`, "more like this"). When the question asks for a
       kind of value (:data:`memory_manager.querytime.ASKS`) only entries stating one take part;
       for "now" without one, daily notes take part only when they state a change
       (``querytime.states("change")``: moved to, 改到...), knowledge entries always.
    2. The seed: the pool's best keyword match. The group: the seed's edit history, the entries
       linked to them (idf-weighted overlap at least :data:`LINK_SHARE` of the smaller entry's
       weight) with their own edit histories, and the entries matching the question nearly as well
       as the best (``scoring.VERSION_SHARE`` / ``RELEVANT_SHARE``).
    3. Superseding (:data:`SUPERSEDE`): a member other than the seed's chain stays only when it
       shares a value or a name (:func:`_values`) with a member that stays, the question's own
       words aside: a change note names what it replaces or keeps (6432 -> 6543, "from 16:00 to
       16:30", Fressnapf), a note that shares only topic words is a mention, not a version.
    No list of domain words decides: the cue words are language-level (value kinds, change verbs).
    """
    from . import querytime

    live = sorted((r for r in cand if kw_of.get(r, 0.0) > 0), key=lambda r: (-kw_of[r], -r))[:GROUP_POOL]
    if not live:
        return set(), {}, None
    past = qt.mode == "past"
    rows = idx.entries(r for r in live if r > 0)

    def text_of(r: int, row: dict | None) -> str:
        if r < 0:
            return t2_rows[r]["text"]
        from .index import _LABEL  # a daily note's line labels are its form, not values or names

        return re.sub(r"^\[[\d-]+\]\s*", "", row["heading"]) + "\n" + _LABEL.sub(r"\1", row["text"])

    texts = {r: text_of(r, rows.get(r)) for r in live if r < 0 or r in rows}
    terms = {r: set(textproc.tokens(t)) for r, t in texts.items()}
    n, _, df = idx.collection_stats(sorted(set().union(*terms.values())))
    n = max(n, 1)

    def idf(t: str) -> float:
        return math.log((n + 1) / (df.get(t, 0) + 1))

    added: dict[int, tuple] = {}
    if MORE_LIKE:
        rare: list[str] = []
        for r in live[:3]:
            rare += sorted(terms.get(r, ()), key=lambda t: (-idf(t), t))[:MORE_TERMS]
            if VALUE_LINK and r in texts:  # its values too: the same tokens in either language
                rare += [t for v in _values(texts[r]) for t in textproc.tokens(v) if any(ch.isdigit() for ch in t)]
                if GROUPED_NUMBERS:  # the index holds "2,150" as "2" and "150": look it up by its groups
                    rare += [t for g in _GROUPED_NUMBER.findall(texts[r]) for t in textproc.tokens(g) if len(t) > 2]
        found = sorted(idx.bm25_rows(list(dict.fromkeys(rare)), history=past), key=lambda row: -row[1])
        more = [row for row in found if row[0] not in cand][:MORE_LIKE]
        more_rows = idx.entries(row[0] for row in more)
        for row in more:
            if row[0] in more_rows:
                added[row[0]] = row[2:]
                texts[row[0]] = text_of(row[0], more_rows[row[0]])
                terms[row[0]] = set(textproc.tokens(texts[row[0]]))
        extra = sorted(set().union(*(terms[r] for r in added)) - set(df)) if added else []
        if extra:
            df.update(idx.collection_stats(extra)[2])
    pool = list(texts)
    info = {**cand, **added}

    def knowledge(r: int) -> bool:  # a knowledge entry (or a version of one) or a T2 entry
        return r < 0 or bool(info[r][4]) or info[r][5] is not None

    if qt.asks == "name":
        # "什么牌子", "who": an entry naming someone or something (a Latin word of a Chinese text, a
        # capitalised word inside an English sentence) that not every note holds (:func:`_pool_values`).
        named = _pool_values(qt, pool, texts, idx, n)
        pool = [r for r in pool if any(not any(ch.isdigit() for ch in v) and not _WEEKDAY_RE.fullmatch(v)
                                       for v in named[r])
                or (knowledge(r) and querytime.states("name", texts[r]))] or pool
    elif qt.asks:
        # Every kind asked ("周几、几点": a weekday and a clock time) when some entries state them all.
        kinds = qt.asks_all or [qt.asks]
        pool = ([r for r in pool if all(querytime.states(k, texts[r]) for k in kinds)]
                or [r for r in pool if querytime.states(qt.asks, texts[r])])
        unit = _units("1 " + qt.unit).get("1") if qt.unit and qt.asks == "number" else None
        if unit:
            # A number asked in a unit ("一天喂多少克"): the entries stating a number in that unit, when
            # some do (the vet's "6.2 公斤" is the cat's weight, not its food; round 6, set I).
            pool = [r for r in pool if any(unit & us for us in _units(texts[r]).values())] or pool
    if qt.mode == "now" and not qt.asks:
        # No kind of value asked: a knowledge entry states the fact (its text is its latest statement);
        # a daily note is a version when it states a change, not when it only mentions the topic.
        pool = [r for r in pool if knowledge(r) or querytime.states("change", texts[r])] or pool
    elif qt.mode == "now" and NOW_CHANGE:
        # A kind of value asked: a daily note stating one may be an earlier version, but one written after
        # the fact's knowledge text (an entry states the fact as it stands) supersedes it only when it
        # states a change: a run note's "Sunday" or a weigh-in's "13.6 kg" after the entry's last edit
        # outranked the edit (round 9, set M).
        records = [r for r in pool if knowledge(r)]
        # The fact's record: the knowledge entry matching the question best (another entry's later edit
        # says nothing about this fact).
        record = max(records, key=lambda r: (kw_of.get(r, 0.0), str(info[r][1] or ""), r)) if records else None
        recorded = str(info[record][1] or "")[:10] if record is not None else ""
        if recorded:
            pool = [r for r in pool if knowledge(r) or str(info[r][1] or "")[:10] <= recorded
                    or querytime.states("change", texts[r])] or pool
    if not pool:
        return set(), {}, None
    weight = {r: sum(idf(t) for t in terms[r]) for r in pool}
    ident = {r: info[r][0] for r in pool}
    day = {r: info[r][1] or "" for r in pool}
    vals = _pool_values(qt, pool, texts, idx, n)
    # The seed: the best match in the pool; its own versions (edit history) are the fact's explicit
    # chain. Other entries join when linked to a version of the seed's chain, not to each other: a
    # chain of links would wander from topic to topic.
    # A statement of the fact states a value (a number, a time, a weekday, a code, a name): the best
    # match that states one seeds the group, not a mention that only names the topic (round 5, set G).

    def specific(r: int) -> bool:
        # A value beyond a weekday, unless a weekday is asked: "Friday's gateway change" names a day,
        # not the port the question asks about.
        return knowledge(r) or any(not _WEEKDAY_RE.fullmatch(v) for v in vals[r]) or (
            bool(vals[r]) and qt.asks in ("weekday", "when"))

    stating = [r for r in pool if (vals[r] and specific(r))
               # A name asked ("who is the tech lead"): a knowledge entry naming someone states it, though
               # an English text's names are not values (:func:`_values`; round 7, set K).
               or (NAME_RECORD and qt.asks == "name" and knowledge(r) and querytime.states("name", texts[r]))
               ] if SEED_STATES else []
    seed = max(stating or pool, key=lambda r: (kw_of.get(r, 0.0), day[r], r))
    core = [r for r in pool if ident[r] == ident[seed]]
    rare = _rare_values(vals, idx, n) if VALUE_LINK else set()
    vtoks = {r: {t for v in vs for t in textproc.tokens(v)} for r, vs in vals.items()}
    best = set(core)
    for r in pool:
        if r in best:
            continue
        if RECORDS_APART and qt.mode == "now" and knowledge(r):
            # Another knowledge entry is another fact: its key says so. It joins only by matching the
            # question nearly as well as the best (below), never by a word or a value it shares with
            # a version ("half day SGD 1,100" of a day rate is not the room's old rent of 1,100; round
            # 14, set W).
            continue
        # An entry that names the subject joins by the words it shares with a version; one found only
        # through "more like this" (it shares no word with the question) only by a rare value.
        names = kw_of.get(r, 0.0) > 0 or not VALUE_LINK
        if any((names and sum(idf(t) for t in terms[r] & terms[c])
                >= LINK_SHARE * max(min(weight[r], weight[c]), 1e-9))
               or any(_same_quantity(t, texts[r], texts[c]) and not (OLD_VALUE_APART and qt.mode == "now"
                                                                      and _old_value(t, texts[c]))
                      for t in vtoks[r] & vtoks[c] & rare) for c in core):
            best.add(r)
    # The entries that match the question nearly as well as the best are statements of it too
    # (the rule before the grouping; kept: the question's own words are evidence as well).
    share = scoring.VERSION_SHARE if qt.asks else scoring.RELEVANT_SHARE
    best |= {r for r in pool if kw_of.get(r, 0.0) >= (
        scoring.RELEVANT_SHARE if RECORDS_APART and qt.mode == "now" and knowledge(r) and ident[r] != ident[seed]
        else share)}
    # (another knowledge entry is another fact: a value asked lowers the share for notes that restate it
    # in few words, not for a whole other record; round 14, set W: "when does my class meet now" took
    # a client's record edited later, matching "meet" only)
    # A knowledge entry's edit history is one chain: when one version belongs, all do.
    chains = {ident[r] for r in best}
    best |= {r for r in pool if ident[r] in chains}
    if SUPERSEDE:
        # A later entry supersedes the seed's statement only when it restates the fact: it names a
        # value or a name of a version (the old value it replaces, 6432 -> 6543, "from 16:00 to 16:30",
        # or what stays, Fressnapf), or it matches the question nearly as well as the best and states
        # a change ("moved to Thursdays"). A later note that shares only topic words is a mention.
        # Earlier members stay: an earlier version need not name what replaced it.
        newest = max(day[c] for c in core)
        kept = {r for r in best if day[r] <= newest}
        names = _names_subject(qt, seed, pool, terms, idf) if NAMES_SUBJECT else set(pool)
        kept |= {r for r in best if kw_of.get(r, 0.0) >= share and querytime.states("change", texts[r])
                 and r in names}
        if LATER_RECORD:
            # A knowledge entry states the fact as it stands (its text is rewritten, not appended to):
            # a later one that matches as well as the versions do is a version, change word or not.
            # It must hold half the subject's words the seed holds ("fleet", "db" of "postgres version
            # fleet db"): a family schedule that only matched "我们" is another fact.
            subj = set(textproc.query_terms(qt.subject) or textproc.query_terms(qt.rest))
            held = subj & terms.get(seed, set())
            kept |= {r for r in best if knowledge(r) and kw_of.get(r, 0.0) >= share
                     and 2 * len(held & terms.get(r, set())) >= len(held)}
        grew = True
        while grew:
            grew = False
            for r in sorted(best - kept, key=lambda r: (-kw_of.get(r, 0.0), r)):
                if r not in kept and any(_same_quantity(v, texts[r], texts[c])
                                         for c in kept for v in vals[r] & vals[c]):
                    kept |= {c for c in best if ident[c] == ident[r]}  # with its edit history
                    grew = True
        best = kept
    if RESTATED:
        # A daily note whose values all appeared in earlier versions restates the fact ("Friday
        # badminton" after the move to Fridays): the version that brought the value is the answer.
        seen: set[str] = set()
        for r in sorted(best, key=lambda r: (day[r], r)):
            if vals[r] and vals[r] <= seen and not knowledge(r):
                best.discard(r)
            seen |= vals[r]
    if RESTATED and any(vals[r] and specific(r) for r in best):
        # A daily note that states no value (a number, time, code or name; a weekday when one is
        # asked) is about the fact, not a statement of it, when other versions state one.
        best = {r for r in best if (vals[r] and specific(r)) or knowledge(r)}
    if PAST_CHAIN and qt.mode == "past":
        # An entry whose history is recorded (edits) is an explicit chain of versions: when it matches
        # the question nearly as well as the best, its versions are the ones asked about, with the
        # notes that name one of its values, not notes that only mention the topic.
        chains = {}
        for r in best:
            chains.setdefault(ident[r], set()).add(r)
        lead = [c for c in chains.values() if len(c) > 1 and max(kw_of.get(r, 0.0) for r in c) >= share]
        if lead:
            chain = max(lead, key=lambda c: (max(kw_of.get(r, 0.0) for r in c), len(c)))
            chain_vals = set().union(*(vals[r] for r in chain))
            # An entry with its own recorded history is its own fact: a value it shares with the chain
            # ("24" of "from Sat Oct 24" and of "24 小时") does not make it a version (round 9, set M).
            best = chain | {r for r in best if vals[r] & chain_vals
                            and not (OWN_CHAIN and _has_history(info[r]) and ident[r] not in {ident[c] for c in chain})}
    return best, {r: added[r] for r in best if r in added}, seed


def _has_history(row: tuple) -> bool:
    """True for an index row (the shape of ``cand``'s values) of a knowledge entry whose text changed:
    a superseded version, or a current text written on more than one day (``dates``)."""
    if row[4]:
        return True
    try:
        return len(json.loads(row[5] or "[]")) > 1
    except ValueError:
        return False


def _names_subject(qt, seed: int, pool: list[int], terms: dict[int, set[str]], idf) -> set[int]:
    """The pool entries that name what the question asks about by the word the seed names it with.

    Of the subject's terms (:func:`memory_manager.querytime.subject`, with the glossary's words in
    the other language), the rarest one the seed holds (highest ``idf``) is the name of the fact
    ("etl", 豆包, "internet"); an entry names the fact when it holds that term or the glossary's
    word for it in the other language. A later note that matches the question's other words and
    states a change ("降到 22°C" in a bread formula against the cat's food, "orders" in a pipeline
    cutover against the nightly orders ETL, "家里" in a plant note against home internet) names
    another fact, so it is no new version of this one (round 6, set I). Every entry when the seed
    holds no subject term.
    """
    from . import glossary

    subj = textproc.query_terms(qt.subject) or textproc.query_terms(qt.rest)
    subj = list(dict.fromkeys(subj + glossary.expand(qt.subject or qt.rest, subj)))
    held = [t for t in subj if t in terms.get(seed, ())]
    if not held:
        return set(pool)
    key = max(held, key=lambda t: (idf(t), t))
    same = {key, *glossary.translations(key)}
    if SAME_RUN and _CJK_PAIR.fullmatch(key):
        # Chinese is indexed as character pairs, and the rarest pair may straddle two words (筝课 of
        # 古筝课): the other pairs of the same run of the subject that the seed holds name it too
        # (古筝; round 7, set K: "换古筝老师" is the teacher change, though it never writes 古筝课).
        for run in re.findall(r"[\u3400-\u9fff]+", qt.subject or qt.rest):
            pairs = {run[i:i + 2] for i in range(len(run) - 1)}
            if key in pairs:
                same |= {t for t in pairs if t in terms.get(seed, ())}
    return {r for r in pool if terms.get(r, set()) & same}


_CJK_PAIR = re.compile(r"[\u3400-\u9fff]{2}")
#: :func:`_names_subject` takes the seed's other character pairs of the key's Chinese run (round 7).
SAME_RUN = True


def _rare_values(vals: dict[int, set[str]], idx, n: int) -> set[str]:
    """The tokens of the values (:func:`_values`) that hold a digit and that few entries hold
    (:data:`NAME_DF`, :data:`NAME_SHARE`): a port, a code, a price (9443, b2), not "10" or "2026"."""
    toks = {t for vs in vals.values() for v in vs if any(ch.isdigit() for ch in v) for t in textproc.tokens(v)}
    df = idx.collection_stats(sorted(toks))[2] if toks else {}
    limit = max(NAME_DF, NAME_SHARE * n)
    # A number of one or two digits ("15", "38") ties two entries only when no third one holds it; a
    # code ("b2") or a longer number (9443) within the names' limit.
    return {t for t in toks if any(ch.isdigit() for ch in t)
            and df.get(t, 0) <= (limit if len(t) > 2 or not t.isdigit() else 2)}


def _pool_values(qt, pool: list[int], texts: dict[int, str], idx, n: int) -> dict[int, set[str]]:
    """Each pool entry's values and names (:func:`_values`), less what the question itself names
    (the topic, not a value) and less Latin words that many entries hold (:data:`NAME_DF`)."""
    asked = set(textproc.tokens(qt.rest))
    days = {_canon_weekday(d) for d in _WEEKDAY_RE.findall(qt.rest.lower())}
    vals = {r: {v for v in _values(texts[r]) if not set(textproc.tokens(v)) <= asked and v not in days}
            for r in pool}
    names = {t for v in set().union(*vals.values()) if not any(ch.isdigit() for ch in v)
             for t in textproc.tokens(v)}
    name_df = idx.collection_stats(sorted(names))[2] if names else {}
    common = {t for t, d in name_df.items() if d > max(NAME_DF, NAME_SHARE * n)}
    return {r: {v for v in vs if not (set(textproc.tokens(v)) & common)} for r, vs in vals.items()}


#: Round 14 (set W): a number written with thousands separators is one value ("1,250" is 1250, not "1" and
#: "250": the two rents "1,250" and "1,100" shared "1", and "1,100" tied to any "x,100"). False: ablation.
GROUPED_NUMBERS = True
_GROUPED = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_GROUPED_NUMBER = re.compile(r"(?<![\d,])\d{1,3}(?:,\d{3})+(?![\d,])")
_VALUE_RE = re.compile(r"[a-z]*\d[\w.:/%-]*\w%?|[a-z]*\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
                       r"|(?:周|星期|礼拜)[一二三四五六日天]")
_WEEKDAY_RE = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:周|星期|礼拜)[一二三四五六日天]")
_LATIN_RE = re.compile(r"[a-z][a-z'-]{2,}")


#: A weekday in either language, as one value: "Monday" and 周一 state the same day (round 6, set I:
#: "on-call handoff on Monday" and a team lead's "1:1s on Mondays" shared "monday", and the question
#: named 周一, so the question's own day tied two facts together).
_WEEKDAY_CANON = {**{d: "周" + c for d, c in zip(("mon", "tues", "wednes", "thurs", "fri", "satur", "sun"),
                                                  "一二三四五六日")}, "天": "日"}


_CLOCK_AMPM = re.compile(r"(\d{1,2}):(\d{2})\s?([ap])\.?m\.?")


def _canon_clock(v: str) -> str:
    """``7:30am`` -> ``7:30``, ``3:30pm`` -> ``15:30``; any other value unchanged. A clock time is one
    value however it is written: "meets at 7:30am" restates the "7:30 集合" of a Chinese note (round 7,
    set K; with am/pm the token was another value, so the change note shared nothing with the entry)."""
    m = _CLOCK_AMPM.fullmatch(v)
    if not m:
        return v
    hour = int(m.group(1)) % 12 + (12 if m.group(3) == "p" else 0)
    return f"{hour}:{m.group(2)}"


def _canon_weekday(v: str) -> str:
    """``monday`` / ``星期一`` / ``礼拜天`` -> ``周一`` / ``周日``; any other value unchanged."""
    if not _WEEKDAY_RE.fullmatch(v):
        return v
    if v.endswith("day"):
        return _WEEKDAY_CANON[v[:-3]]
    return "周" + _WEEKDAY_CANON.get(v[-1], v[-1])


#: Units written after a number (or a currency sign before it): two texts that share a number with
#: different units state different quantities ("500 Mbps" and "500 g flour", round 6, set I).
_UNIT_RE = re.compile(r"([$€£¥])\s?(\d[\d,.]*)|(\d[\d,.]*)\s?(%|°c|°f|[a-z]{1,7}\b|千克|公斤|毫升|公里|厘米|分钟|小时"
                      r"|个月|[克斤升米天周年元块欧人次页度点])")


def _units(text: str) -> dict[str, set[str]]:
    """Each number of ``text`` -> the units written with it (``{"500": {"mbps"}}``); a number written
    without one is absent. Only measure words count: an English word after a number is a unit when
    it is short (``g``, ``mbps``, ``minutes``), so "port 6432 (transaction" holds none."""
    out: dict[str, set[str]] = {}
    for m in _UNIT_RE.finditer(text.lower()):
        num, unit = (m.group(2), m.group(1)) if m.group(1) else (m.group(3), m.group(4))
        if unit in _NOT_UNITS:
            continue
        unit = _UNIT_SAME.get(unit, unit.rstrip("s") if len(unit) > 3 else unit)
        out.setdefault(num.rstrip(".,").replace(",", ""), set()).add(unit)
    return out


#: One name per unit in both languages (克 = g), so that a Chinese and an English note of one quantity agree.
_UNIT_SAME = {"克": "g", "gram": "g", "grams": "g", "千克": "kg", "公斤": "kg", "毫升": "ml", "升": "l", "公里": "km",
              "米": "m", "厘米": "cm", "分钟": "min", "mins": "min", "minute": "min", "minutes": "min",
              "小时": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "天": "day", "days": "day", "周": "week",
              "weeks": "week", "年": "year", "years": "year", "yrs": "year", "个月": "month", "months": "month",
              "元": "yuan", "块": "yuan", "rmb": "yuan", "欧": "€", "eur": "€", "euro": "€", "euros": "€",
              "次": "times", "度": "°c", "人": "people", "页": "page", "pages": "page",
              "点": "o'clock", "am": "o'clock", "pm": "o'clock"}


#: Short words that follow numbers without being their unit ("6432 to 6543", "3 and 4").
_NOT_UNITS = frozenset("to and or at on in of the a an for from by is are was were with as per than "
                       "th st nd rd x".split())


#: Round 14 (set W): for "now", a value a version gives as the *old* one ("1,250（原来1,100）", "was 180") ties no
#: later note to the fact: "half day 1,100" of a rate card is not the room's old rent.
OLD_VALUE_APART = True
_OLD_BEFORE = re.compile(r"(?:原来|原价|原先|之前|以前|曾经|旧|(?<![a-z])(?:was|were|formerly|previously|used to be|up from|"
                         r"down from|from))[^\d\n]{0,8}$", re.IGNORECASE)


def _old_value(token: str, text: str) -> bool:
    """True when every place ``text`` writes the number ``token`` gives it as a former value: right after
    原来, 之前, was, from... ("涨到1,250（原来1,100）", "SGD 200 an hour (was 180)"). Digits only are compared
    (``1,100`` and ``1100`` are one value)."""
    digits = re.sub(r"\D", "", token)
    if not digits:
        return False
    spots = [m for m in re.finditer(r"\d[\d,.]*", text) if re.sub(r"\D", "", m.group()) == digits]
    return bool(spots) and all(_OLD_BEFORE.search(text[max(0, m.start() - 14):m.start()]) for m in spots)


def _same_quantity(value: str, a: str, b: str) -> bool:
    """False when texts ``a`` and ``b`` both write ``value`` (a number) with units and no unit is
    common to both: the same digits, different quantities. True otherwise."""
    ua, ub = _units(a).get(value), _units(b).get(value)
    return not (ua and ub and not ua & ub)


#: A day of the year is one value in both languages: "Sunday 15 November", "Nov 15", "11 月 15 日" and
#: "2026-11-15" all give ``m11d15`` (a token no entry holds, so it counts as rare): a Chinese note that
#: moves the date ("从 11 月 15 日推到 12 月 6 日") names the English entry's "15 November" (time set N).
#: The first of a month is left out: it is when changes of all kinds take effect ("from 1 October the
#: membership costs 64 €" and "from 1 October the weekly sync is on Wednesdays" are two facts; set E).
#: False: dates are only their numbers (ablation).
DATE_VALUES = True
_MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                           "nov", "dec"))}
_MONTH_RE = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE_RES = (
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RE}(?![a-z])"), lambda m: (_MONTHS[m.group(2)], m.group(1))),
    (re.compile(rf"\b{_MONTH_RE}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b"), lambda m: (_MONTHS[m.group(1)], m.group(2))),
    (re.compile(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), lambda m: (int(m.group(1)), m.group(2))),
    (re.compile(r"\b\d{4}-(\d{2})-(\d{2})\b"), lambda m: (int(m.group(1)), m.group(2))),
)


def _dates(low: str) -> set[str]:
    """The days of the year a lower-cased text names, as ``m<month>d<day>`` (see :data:`DATE_VALUES`)."""
    out = set()
    for pattern, parts in _DATE_RES:
        for m in pattern.finditer(low):
            month, day = parts(m)
            if 1 <= month <= 12 and 2 <= int(day) <= 31:
                out.add(f"m{month}d{int(day)}")
    return out


def _values(text: str) -> set[str]:
    """The values and names a text states: numbers, clock times and codes (``16:00``, ``6432``,
    ``b1-14``), weekdays (one form for both languages: ``周一``), and the Latin words of a mostly
    Chinese text (names: Fressnapf, Hort)."""
    low = text.lower()
    if GROUPED_NUMBERS:
        low = _GROUPED.sub("", low)
    out = {_canon_clock(_canon_weekday(v)) for v in _VALUE_RE.findall(low) if len(v) > 1}  # "1", "8": too common
    if DATE_VALUES:
        out.update(_dates(low))
    cjk = sum(1 for c in low if "\u3400" <= c <= "\u9fff")
    if cjk * 2 > len(low.replace(" ", "")) - cjk:
        out.update(_LATIN_RE.findall(low))
    return out
