"""The offline HTML report: what a workspace's memory holds, gathered for one page (issue 15).

:func:`collect` reads the memory through the package's own readers and
returns a :class:`Model` (plain data, no HTML); :mod:`memory_manager.report_render`
turns it into one self-contained HTML file (Jinja2 page, matplotlib charts as
inline SVG); :func:`write_report` writes that file (mode 0600). Nothing here
imports the report's optional extra, so ``forget`` and cleanup can call
:func:`drop_cached` without it.

What each section reads (each through its module's reader, never a parser of ours):

- **Timeline**: ``entries.iter_daily`` (our 因/改/待 sections) and OpenClaw's
  own ``memory/YYYY-MM-DD*.md`` notes (``units.scan_sources`` + ``entries.parse_entries``),
  the last ``days`` days, one row per day.
- **Knowledge**: ``entries.iter_knowledge`` with the access counts of
  ``access.load``; the lessons file's sections (``entries.parse_entries``).
- **Tiers**: T1 statistics (``tiers.load_stats``); T2 entries counted by
  skill and expiry (``tiers.iter_t2_entries``: metadata only, nothing is
  decrypted) and, with ``approved``, their text (``units.t2_entries``:
  decrypted in memory, through the memory gate as a reuse, like recall);
  archived entries (``prune.read_archived``, ``tiers.parse_t2``) and the
  quarantine when the tree has one.
- **Context usage**: ``hookrun.read_usage`` (the hooks' usage records).
- **Health**: the last privacy audit (``audit.read_last``), the last
  cleanup (``cleanup.last_summary``), the gate's decisions by kind
  (``auditlog.read``: counts only), the sizes of the recall index and of
  the backups. The report runs none of these: what was never recorded
  shows as "never run".

Privacy: every piece of entry text (topics, lines, headings, bodies, tags,
skill names, session keys, audit excerpts) goes through
:func:`memory_manager.privacy.mask`, the mask recall applies to its
snippets. T2 text appears only with ``approved``, and then only in the file
the user named outside ``memory/`` (:func:`write_report` refuses anything else).
"""
from __future__ import annotations

import json
import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterable

from .jsonio import parse as _parse_json
from .regular import read_regular, read_regular_text
from . import tree
from .errors import BadInputError, FileWriteError, MemoryManagerError

#: Longest knowledge body shown (characters); the page is for looking, and
#: the file is the place to read a long entry in full.
BODY_CHARS = 2000
#: Sessions drawn in the usage chart (the most recently active first); the
#: table lists every session.
CHART_SESSIONS = 8
#: Findings of the last audit listed in the Health section (all are counted).
AUDIT_ROWS = 50
#: Days of T2 life left that count as "expires soon" (a week: one cleanup interval).
SOON_DAYS = 7


def _mask_joined(texts: list[str], sep: str) -> list[str]:
    """Mask ``texts`` in one :func:`~memory_manager.privacy.mask` call (see :class:`_Masker`)."""
    from .privacy import mask

    if not texts:
        return []
    lines = mask(("\n" + sep + "\n").join(texts)).split("\n")
    out: list[str] = []
    at = 0
    for text in texts:
        n = text.count("\n") + 1
        out.append("\n".join(lines[at:at + n]))
        at += n
        if at < len(lines):
            if lines[at] != sep:
                return [mask(t) for t in texts]
            at += 1
    if at != len(lines):
        return [mask(t) for t in texts]
    return out


class _Masker:
    """Collects every text to show, then masks them all at once.

    :func:`memory_manager.privacy.mask` scans a text once whatever its size,
    so masking 10,000 short texts one by one costs several times more than
    masking them joined. They are joined with a separator line (:attr:`SEP`)
    between them and split back by line counts. No rule's pattern can match a
    line break (``tests/test_report.py`` checks every pattern), so what one
    text shows the detector of its neighbour is only what its checks read
    around a match: at most 40 characters before it and 12 after, except the
    PEM header check, which skips any white space after the header. The
    separator gives each side exactly what it sees at the end of a text
    alone (white space, then nothing to read), so one text cannot change
    what is found in the next: 12 spaces, a ``|`` (which stops that skip and
    is no placeholder), 39 spaces. Before, it was 64 spaces (65 % of the
    characters scanned for a report of 10,000 entries, and the PEM check
    read through it into the next text).
    Should the mask ever change the number of lines, each text is masked on
    its own instead: the result is the same mask, only slower. A text that
    repeats (a tag, a label) is masked once.

    With a ``cache`` (:class:`MaskCache`), texts masked by an earlier report
    with the same detector are not scanned again; texts added with
    ``cache=False`` (T2 content) are neither looked up nor stored.

    Past :data:`PARALLEL_CHARS` characters, on a machine with two or more
    cores where ``os.fork`` exists, this process and a forked child share
    the masking (the mask is pure CPU in Python's regular expressions, which
    hold the GIL, so threads would not help): the texts are cut into
    :data:`CHUNKS` runs and each process takes the next run until none is
    left, so neither waits for the other at the end whatever else shares
    the cores; if the child fails for any reason, the runs it took are
    masked here.
    """

    SEP = " " * 12 + "|" + " " * 39

    def __init__(self, cache: "MaskCache | None" = None) -> None:
        self.texts: list[str] = []
        self.masked: list[str] = []
        self.cache = cache
        self._seen: dict[str, _Masked] = {}
        self._private: set[int] = set()
        self._escaped: list[str] | None = None
        #: Texts queued by :meth:`add_joined`: (index, line counts of the parts) -> the parts.
        self._groups: dict[tuple[int, tuple[int, ...]], list[str]] = {}
        self._split: dict[tuple[int, tuple[int, ...]], list[str]] = {}
        self._split_html: dict[tuple[int, tuple[int, ...]], list[str]] = {}
        self._early: dict[int, str] = {}  # texts read before the run (:meth:`now`), masked
        #: True while ``meanwhile`` runs beside a forked child that masks (:meth:`run`): work done
        #: then costs no time (the page's template is drafted only then, ``report_render.Pages``).
        self.child_masking = False
        #: While a page is drafted (:meth:`drafting`): the (index, part) of each stand-in given out, in order.
        self._draft: list[tuple[int, tuple[tuple[int, ...], int] | None]] | None = None

    def escaped(self) -> list[str]:
        """The masked texts HTML-escaped (``html.escape``, quotes included), in the order added.

        Escaped all at once, joined by line breaks (which escaping leaves as
        they are) and split back by line counts: one call instead of one per
        text, which was a fifth of filling the page's template (issue 15).
        """
        if self._escaped is None or len(self._escaped) != len(self.masked):
            import html

            lines = html.escape("\n".join(self.masked), quote=True).split("\n")
            out: list[str] = []
            at = 0
            for text in self.masked:
                n = text.count("\n") + 1
                out.append("\n".join(lines[at:at + n]))
                at += n
            self._escaped = out
        return self._escaped

    def drafting(self) -> "_Drafting":
        """A context in which each placeholder's ``__html__`` gives a stand-in instead of its text.

        For filling the page's template while the text is still being masked
        (issue 15: the template cost about 0.2 s after the masking; now it
        runs beside the child that masks). Each ``__html__`` call gives
        ``"\\x00N\\x00"``, N counting from 0 in the order of the calls;
        :meth:`fill` puts the masked, escaped texts in their place once
        :meth:`run` is done. The context's value is the list of what each
        stand-in stands for, which :meth:`fill` needs.
        """
        return _Drafting(self)

    def fill(self, page: str, slots: list[tuple[int, tuple[tuple[int, ...], int] | None]]) -> str | None:
        """``page`` (drafted in :meth:`drafting`, whose list is ``slots``) with each stand-in replaced by
        the masked, HTML-escaped text it stands for: what ``__html__`` gives after :meth:`run`.

        None when the page's stand-ins are not exactly those given out, each
        once and in order (a NUL character in some other value of the page,
        a value drafted twice or not at all): the caller then fills the
        template again after the run, the page is the same and only slower.
        Whatever the page holds, only masked text is put in it.
        """
        pieces = page.split("\x00")
        if len(pieces) != 2 * len(slots) + 1 or pieces[1::2] != list(map(str, range(len(slots)))):
            return None
        escaped = self.escaped()
        part = self.part
        at = 1
        for index, which in slots:
            pieces[at] = escaped[index] if which is None else part(index, which, escaped=True)
            at += 2
        return "".join(pieces)

    def add(self, text: Any, cache: bool = True) -> "_Masked":
        """Queue ``text`` (None reads as ""); return its placeholder (:class:`_Masked`).

        ``cache=False``: the text (T2 content) must not reach the mask cache.
        """
        text = "" if text is None else str(text)
        slot = self._seen.get(text)
        if slot is None:
            slot = self._seen[text] = _Masked(self, len(self.texts))
            self.texts.append(text)
        if not cache:
            self._private.add(slot._index)
        return slot

    def add_joined(self, parts: Iterable[Any], cache: bool = True) -> "list[_Masked]":
        """Queue ``parts`` as one text (joined by line breaks); return a placeholder for each part.

        The parts are masked together, as the lines of one entry (a daily
        section's topic, its 因/改/待 items and other lines): a value cut over
        two of them (a card number half in one item, half in the next; a
        password on the line below its label) is masked as the detector
        masks it in the file, where one part alone would show its half
        (issue 15: daily items were masked one at a time). Each placeholder
        reads its own lines of the masked whole; should the mask ever change
        the number of lines, each part is masked on its own instead.
        """
        texts = ["" if t is None else str(t) for t in parts]
        whole = self.add("\n".join(texts), cache)
        counts = tuple(t.count("\n") + 1 for t in texts)
        # By text and line counts: the same joined text may come from other parts ("a\nb" or "a", "b").
        self._groups[(whole._index, counts)] = texts
        return [_Masked(self, whole._index, (counts, n)) for n in range(len(texts))]

    def part(self, index: int, part: tuple[tuple[int, ...], int], escaped: bool = False) -> str:
        """One part of the joined text ``index`` (:meth:`add_joined`), masked (and HTML-escaped with ``escaped``).

        ``part``: the line counts of the parts and the number of the one wanted.
        """
        counts, n = part
        split = self._split_html if escaped else self._split
        got = split.get((index, counts))
        if got is None:
            texts = self._groups[(index, counts)]
            whole = self.escaped()[index] if escaped else self.now(index)
            lines = whole.split("\n")
            if len(lines) == sum(counts):
                got, at = [], 0
                for c in counts:
                    got.append("\n".join(lines[at:at + c]))
                    at += c
            else:  # the mask changed the number of lines: each part masked alone
                from .privacy import mask

                got = [mask(t) for t in texts]
                if escaped:
                    import html

                    got = [html.escape(t, quote=True) for t in got]
            split[(index, counts)] = got
        return got[n]

    def run(self, meanwhile: Callable[[], None] | None = None) -> list[str]:
        """Mask every queued text (filling :attr:`masked`); return them in the order added.

        ``meanwhile`` (optional) is run by this process while a child masks;
        it then takes what chunks are left (work stealing: see the class).
        """
        self._split.clear()
        self._split_html.clear()
        cache = self.cache
        known: dict[int, str] = dict(self._early)  # read before the run (:meth:`now`): masked already
        self._early = {}
        if cache is None and not known:
            self.masked = self._mask(self.texts, meanwhile)
            return self.masked
        todo: list[int] = []
        keys = [None if cache is None or i in self._private else cache.digest(text)
                for i, text in enumerate(self.texts)]
        for i, text in enumerate(self.texts):
            hit = known.get(i)
            if hit is None and keys[i] is not None:
                hit = cache.get(keys[i], text)
            if hit is None:
                todo.append(i)
            else:
                known[i] = hit
        done = self._mask([self.texts[i] for i in todo], meanwhile)
        for i, masked in zip(todo, done):
            known[i] = masked
        self.masked = [known[i] for i in range(len(self.texts))]
        if cache is not None:
            cache.keep((key, text, masked) for key, text, masked in zip(keys, self.texts, self.masked)
                       if key is not None)
        return self.masked

    def now(self, index: int) -> str:
        """Text ``index`` masked, before :meth:`run` too: then it is masked now, by itself (the same
        mask: see the class), and :meth:`run` does not mask it again.

        For the few texts the charts draw (skill names, session labels), so the chart child can be
        given its data before the bulk of the text is masked (issue 15).
        """
        if self.masked:
            return self.masked[index]
        got = self._early.get(index)
        if got is None:
            text = self.texts[index]
            key = None if self.cache is None or index in self._private else self.cache.digest(text)
            got = None if key is None else self.cache.get(key, text)
            if got is None:
                from .privacy import mask

                got = mask(text)
            self._early[index] = got
        return got

    def _mask(self, texts: list[str], meanwhile: Callable[[], None] | None) -> list[str]:
        # The detector compiles its 190 patterns on import: done here, before the fork,
        # the child inherits them instead of compiling them again on the critical path.
        from . import privacy
        from .forked import in_child

        if sum(map(len, texts)) < PARALLEL_CHARS or (os.cpu_count() or 1) < 2 or not hasattr(os, "fork"):
            if meanwhile is not None:
                meanwhile()
            return _mask_joined(texts, self.SEP)
        privacy.prepare()  # the detector's lazily built tables: once, inherited by the child
        chunks = _chunks(texts, CHUNKS)
        # Work stealing: the chunks' numbers wait in a pipe, and this process and a forked child
        # each take the next one until none is left (a read of one byte from a pipe is atomic).
        # A fixed split left one of them idle at the end: this process may run ``meanwhile``
        # first, and the chart child shares the cores while it draws (issue 15). Any chunk
        # the child took but did not send back (it failed) is masked here afterwards.
        try:
            queue, ends = os.pipe()
        except OSError:
            if meanwhile is not None:
                meanwhile()
            return _mask_joined(texts, self.SEP)
        try:
            os.write(ends, bytes(range(len(chunks))))  # at most 255 bytes: fits the pipe, never blocks
        finally:
            os.close(ends)

        def take() -> dict[int, list[str]]:
            done: dict[int, list[str]] = {}
            while True:
                got = os.read(queue, 1)
                if not got:
                    return done
                first, last = chunks[got[0]]
                done[got[0]] = _mask_joined(texts[first:last], self.SEP)

        try:
            with privacy.serial_scans():  # two processes already: neither forks again
                theirs = in_child(take, lambda got: isinstance(got, dict) and all(
                    isinstance(k, int) and 0 <= k < len(chunks) and isinstance(v, list)
                    and len(v) == chunks[k][1] - chunks[k][0] and all(isinstance(t, str) for t in v)
                    for k, v in got.items()))
                if meanwhile is not None:
                    self.child_masking = True
                    try:
                        meanwhile()
                    finally:
                        self.child_masking = False
                done = take()
                done.update(theirs() or {})
                out: list[str] = []
                for n, (first, last) in enumerate(chunks):
                    out.extend(done[n] if n in done else _mask_joined(texts[first:last], self.SEP))
        finally:
            os.close(queue)
        return out


def _chunks(texts: list[str], count: int) -> list[tuple[int, int]]:
    """Cut ``texts`` into at most ``count`` runs of about equal characters: ``[(first, end), ...]`` indices."""
    total = sum(map(len, texts)) + len(texts)
    size = max(1, -(-total // max(1, count)))
    out: list[tuple[int, int]] = []
    first = chars = 0
    for n, text in enumerate(texts):
        chars += len(text) + 1
        if chars >= size:
            out.append((first, n + 1))
            first, chars = n + 1, 0
    if first < len(texts):
        out.append((first, len(texts)))
    return out


class MaskCache:
    """Masked text of earlier reports by content digest: ``memory/.cache/mask-cache.json``.

    Masking is most of a report's time (about 4 MB of text for 10,000
    entries), and most entries do not change between two reports. The file
    (format ``cmm-mask-cache`` version 1, ``references/formats.md``) maps the
    BLAKE2b digest (16 bytes, hex) of a text to its masked form, or to
    ``null`` when the mask left it as it was: it holds only masked text,
    never a finding's value, and never T2 text. It is derived and rebuildable
    like everything in ``memory/.cache`` (mode 0600), and is used only when
    it was written by the same detector (:func:`detector_fingerprint`); any
    change to the detector's rules starts it afresh. Each report rewrites it
    with exactly the texts it showed, so the text of an edited or deleted
    entry does not linger; ``forget`` and cleanup's purge delete it
    (:func:`drop_cached`). Reading or writing it never fails a report.
    """

    FORMAT = "cmm-mask-cache"
    VERSION = 1

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.fingerprint = detector_fingerprint() if path is not None else None
        self._old: dict[str, str | None] = {}
        self._new: dict[str, str | None] = {}
        if path is not None and self.fingerprint is not None:
            self._old = self._load(path, self.fingerprint)

    @staticmethod
    def digest(text: str) -> str:
        import hashlib

        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()

    @classmethod
    def _load(cls, path: Path, fingerprint: str) -> dict[str, str | None]:
        import json

        try:
            if path.is_symlink() or not path.is_file():
                return {}
            doc = _parse_json(read_regular_text(path, "utf-8"))
        except (OSError, ValueError, RecursionError):
            return {}  # unreadable or damaged: derived data, start afresh
        if not isinstance(doc, dict) or doc.get("format") != cls.FORMAT or doc.get("version") != cls.VERSION \
                or doc.get("detector") != fingerprint or not isinstance(doc.get("texts"), dict):
            return {}
        texts = doc["texts"]
        if not all(isinstance(v, str) or v is None for v in texts.values()):
            return {}
        return texts

    def get(self, key: str, text: str) -> str | None:
        """The cached masked form of ``text`` (whose :meth:`digest` is ``key``), or None when not cached."""
        if key not in self._old:
            return None
        masked = self._old[key]
        return text if masked is None else masked

    def keep(self, items: Iterable[tuple[str, str, str]]) -> None:
        """Remember ``(digest, text, masked)`` items: the next :meth:`save` writes exactly these."""
        for key, text, masked in items:
            self._new[key] = None if masked == text else masked

    def save(self) -> bool:
        """Write the cache when it changed; True when written. Never raises."""
        import json

        from .errors import MemoryManagerError
        from .fsio import atomic_write, make_dirs

        if self.path is None or self.fingerprint is None or self._new == self._old:
            return False
        doc = {"format": self.FORMAT, "version": self.VERSION, "detector": self.fingerprint, "texts": self._new}
        try:
            make_dirs(self.path.parent)
            atomic_write(self.path, json.dumps(doc, ensure_ascii=False, allow_nan=False).encode("utf-8"), mode=0o600)
        except (OSError, MemoryManagerError, ValueError):
            return False  # a cache: the report itself is what matters
        return True


def detector_fingerprint() -> str | None:
    """SHA-256 (hex) of the privacy detector's source, Python's version and the Unicode data version.

    The mask depends on the rule table and the scanning code
    (``memory_manager/privacy.py``, and ``memory_manager/decoding.py`` for
    the decoded views it scans too), on Python's ``re`` engine and on the
    Unicode tables NFKC uses: a change to any of them gives another
    fingerprint, and the mask cache is not used. None when a source
    cannot be read (no cache then).
    """
    import hashlib
    import sys
    import unicodedata

    # The sources are read where the package's modules are, without importing the detector:
    # when every text is in the cache, the report never compiles its rules (issue 15).
    h = hashlib.sha256()
    # Every module whose text changes a finding: the rules, their word lists, the decoded and joined views.
    for name in ("privacy.py", "privacy_lexicon.py", "decoding.py", "structure.py"):
        try:
            h.update(read_regular(Path(__file__).with_name(name)))
        except (OSError, TypeError):
            return None
    h.update(f"\0{sys.version}\0{unicodedata.unidata_version}".encode())
    return h.hexdigest()


def _mask_cache(root: Path) -> "MaskCache":
    """The workspace's mask cache, or an unused one when ``memory/.cache`` leads outside the workspace."""
    from .fsio import outside_links

    # A planted memory/.cache symlink must not make the report write entry
    # text outside the workspace (issue 10), as for the recall index.
    if tree.rel(tree.CACHE) in outside_links(root):
        return MaskCache(None)
    return MaskCache(tree.Tree(root).mask_cache)


#: Characters of text to mask above which a second process helps (below it
#: the fork costs more than it saves; ~200 kB is about 0.2 s of masking).
PARALLEL_CHARS = 200_000
#: Chunks the text to mask is cut into for the two processes to take from (:meth:`_Masker._mask`):
#: about 30 ms of masking each for 10,000 entries, so neither waits long for the other at the
#: end, and a few hundred texts per :func:`memory_manager.privacy.mask` call. At most 255 (one byte each).
CHUNKS = 48


class _Masked:
    """One text given to :class:`_Masker`: its masked form once the masker has run.

    ``str()`` gives the masked text; ``__html__`` gives it HTML-escaped, which
    is what Jinja2's autoescaping uses. Holding the masker, not a copy, lets
    :func:`collect` mask 10,000 texts without rebuilding the model around them.
    """

    __slots__ = ("_masker", "_index", "_part")

    def __init__(self, masker: "_Masker", index: int, part: tuple[tuple[int, ...], int] | None = None) -> None:
        self._masker = masker
        self._index = index
        self._part = part  # (line counts, number) of a part of a joined text (_Masker.add_joined); None: the whole

    def __str__(self) -> str:
        if self._part is not None:
            return self._masker.part(self._index, self._part)
        return self._masker.now(self._index)

    def __html__(self) -> str:
        draft = self._masker._draft
        if draft is not None:  # a page drafted before the text is masked (_Masker.drafting): a stand-in
            draft.append((self._index, self._part))
            return f"\x00{len(draft) - 1}\x00"
        if self._part is not None:
            return self._masker.part(self._index, self._part, escaped=True)
        return self._masker.escaped()[self._index]

    def __repr__(self) -> str:
        return f"_Masked({str(self)!r})" if self._masker.masked else f"_Masked(#{self._index})"


class _Drafting:
    """The context of :meth:`_Masker.drafting`: stand-ins on, their list as its value; off on leaving."""

    def __init__(self, masker: _Masker) -> None:
        self.masker = masker

    def __enter__(self) -> list[tuple[int, tuple[tuple[int, ...], int] | None]]:
        self.masker._draft = []
        return self.masker._draft

    def __exit__(self, *exc: object) -> None:
        self.masker._draft = None


@dataclass
class Model:
    """Everything the page shows, as plain data (see :func:`collect`).

    ``sections`` maps a section name (``timeline``, ``knowledge``, ``tiers``,
    ``usage``, ``health``) to its data; ``counts`` holds the totals that
    ``--json`` prints; ``problems`` names files that could not be read.
    """

    lang: str
    generated: str
    workspace: str
    days: int
    start: str
    end: str
    approved: bool
    thresholds: list[int]
    sections: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    #: Ids of the T2 entries the page counts but does not show (no ``data-id`` on the page):
    #: recorded with a report written elsewhere, so forgetting one deletes that report too.
    hidden_ids: list[str] = field(default_factory=list)
    #: The masker whose placeholders the sections hold (:func:`collect`): the page can be drafted
    #: while it masks (:meth:`_Masker.drafting`). Not data of the page.
    masker: Any = field(default=None, repr=False, compare=False)


def _day(value: Any) -> date | None:
    from .clock import parse_day

    return parse_day(value)


def _timeline(ws: Path, start: date, end: date, m: _Masker, problems: list[str]) -> dict[str, Any]:
    from . import entries, units
    from .fsio import read_text

    rows: dict[date, dict[str, list]] = {}

    def row(day: date) -> dict[str, list]:
        return rows.setdefault(day, {"ours": [], "openclaw": []})

    labels = entries.LABELS
    total_ours = 0
    for section in entries.iter_daily(ws, problems):
        day = _day(section.date)
        if day is None or not start <= day <= end:
            continue
        total_ours += 1
        # One text per section, masked as its lines read together (a value cut over two items is
        # masked, as in the file), which is also a third of the texts to mask (issue 15).
        topic, *parts = m.add_joined([section.topic, *(text for _, text in section.items), *section.other])
        items = parts[:len(section.items)]
        row(day)["ours"].append({
            "id": section.id, "topic": topic, "pinned": section.pinned,
            "items": [{"kind": kind, "zh": labels[kind][0], "en": labels[kind][1], "text": text}
                      for (kind, _), text in zip(section.items, items)],
            "other": parts[len(section.items):]})
    total_openclaw = 0
    for rel, kind, _ in units.scan_sources(ws):
        if kind != "openclaw":
            continue
        name_day = _day(Path(rel).name[:10])
        if name_day is None or not start <= name_day <= end:
            continue
        try:
            text = read_text(Path(ws) / rel, rel).text
        except Exception as exc:  # UnreadableFileError: name it, carry on
            problems.append(str(exc))
            continue
        found, error = entries.parse_entries(rel, "openclaw", text)
        if error:
            problems.append(f"{rel}: {error}")
        for entry in found:
            day = _day(entry.date) or name_day
            if not start <= day <= end:
                continue
            total_openclaw += 1
            row(day)["openclaw"].append({"file": rel, "heading": m.add(entry.heading), "text": m.add(entry.text)})
    days = []
    span = (end - start).days
    for n in range(span + 1):  # newest first, every day of the window
        day = end - timedelta(days=n)
        got = rows.get(day, {"ours": [], "openclaw": []})
        days.append({"date": day.isoformat(), "weekday": day.weekday(), **got})
    # Display rows: one per day with notes; a run of days without any is one
    # short row (a month of "no notes" lines would bury the days that matter).
    shown: list[dict[str, Any]] = []
    for d in days:
        if d["ours"] or d["openclaw"]:
            shown.append({**d, "gap": False})
        elif shown and shown[-1].get("gap"):
            shown[-1].update({"first": d["date"], "count": shown[-1]["count"] + 1})
        else:
            shown.append({"gap": True, "first": d["date"], "last": d["date"], "count": 1})
    return {"days": days, "rows": shown, "ours": total_ours, "openclaw": total_openclaw}


def _knowledge(ws: Path, m: _Masker, problems: list[str]) -> dict[str, Any]:
    from . import access, entries, history
    from .fsio import read_text
    from .lessons import MARKER

    stats = access.load(ws)
    items = []
    for entry in entries.iter_knowledge(ws, problems):
        seen = stats.get(entry.id) if isinstance(stats.get(entry.id), dict) else {}
        count = seen.get("count", 0)
        # The current text only: the history block (its marker comment and dated version
        # headings) is the file's bookkeeping, counted instead (walk-through r4, item 5).
        current, versions = history.split(entry.body)
        body = current if len(current) <= BODY_CHARS else current[:BODY_CHARS] + "…"
        items.append({"id": entry.id, "key": m.add(entry.key), "tags": [m.add(t) for t in entry.tags],
                      "created": entry.created, "updated": entry.updated or entry.created,
                      "access": count if isinstance(count, int) and not isinstance(count, bool) else 0,
                      "last_access": str(seen.get("last") or "")[:10], "pinned": entry.pinned,
                      "body": m.add(body), "earlier_versions": len(versions)})
    items.sort(key=lambda k: (k["updated"], k["id"]), reverse=True)
    lessons: dict[str, Any] | None = None
    path = tree.Tree(Path(ws)).lessons_file()
    if path is not None:
        rel = tree.Tree(Path(ws)).rel(path)
        try:
            text = read_text(path, rel).text
        except Exception as exc:  # UnreadableFileError
            problems.append(str(exc))
        else:
            found, error = entries.parse_entries(rel, "memory_md", text)
            if error:
                problems.append(f"{rel}: {error}")
            # The title's section (the marker and the template's introduction) holds no lesson.
            lessons = {"file": rel, "sections": [
                {"id": e.id, "heading": m.add(e.heading), "lines": [m.add(line) for line in _lesson_lines(e.text)]}
                for e in found if MARKER not in e.text]}
    return {"entries": items, "lessons": lessons}


def _lesson_lines(text: str) -> list[str]:
    """The lines of a lessons section as shown: blank lines and HTML comments
    (the lessons-format marker) left out, list markers dropped."""
    out = []
    for line in text.split("\n"):
        bare = line.strip()
        if not bare or (bare.startswith("<!--") and bare.endswith("-->")):
            continue
        out.append(bare[2:] if bare[:2] in ("- ", "* ", "+ ") else bare)
    return out


def _inside(ws: Path, path: Path) -> bool:
    from .workspace import inside

    return inside(Path(ws), path)


def _t1(ws: Path, m: _Masker, problems: list[str]) -> dict[str, Any]:
    from . import tiers

    folder = tree.Tree(Path(ws)).tier1
    skills, patterns = [], []
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    for path in files:
        if not path.is_file() or not _inside(ws, path):
            continue
        try:
            doc = tiers.load_stats(path)
        except Exception as exc:  # MalformedFileError / UnreadableFileError
            problems.append(str(exc))
            continue
        for skill, rec in doc["skill_stats"].items():
            if not isinstance(rec, dict):
                continue
            calls = rec.get("calls") if isinstance(rec.get("calls"), int) else 0
            rate = rec.get("success_rate")
            rate = float(rate) if isinstance(rate, (int, float)) and not isinstance(rate, bool) else None
            skills.append({"skill": m.add(skill), "calls": calls, "rate": rate,
                           "last_used": str(rec.get("last_used") or "")})
        for pattern in doc["patterns_observed"]:
            if isinstance(pattern, dict):
                used = pattern.get("skills_used") if isinstance(pattern.get("skills_used"), list) else []
                count = pattern.get("count") if isinstance(pattern.get("count"), int) else 0
                patterns.append({"trigger": m.add(pattern.get("trigger", "")),
                                 "skills": [m.add(s) for s in used], "count": count})
    skills.sort(key=lambda s: -s["calls"])
    patterns.sort(key=lambda p: -p["count"])
    return {"skills": skills, "patterns": patterns}


def _expiry_bucket(expires: date | None, today: date) -> str:
    if expires is None:
        return "none"
    if expires < today:
        return "expired"
    if (expires - today).days <= SOON_DAYS:
        return "soon"
    return "later"


def _t2(ws: Path, cfg: dict[str, Any], approved: bool, today: date, m: _Masker,
        problems: list[str]) -> dict[str, Any]:
    from . import tiers

    by_skill: dict[str, Counter] = defaultdict(Counter)
    meta: dict[str, Any] = {}
    total = errors = 0
    for item in tiers.iter_t2_entries(Path(ws)):
        if item.error:
            errors += 1
            shown = tree.Tree(Path(ws)).rel(item.path)  # an UnreadableFileError names the file already
            problems.append(item.error if item.error.startswith(f"{shown}:") else f"{shown}: {item.error}")
            continue
        total += 1
        by_skill[item.skill][_expiry_bucket(item.expires, today)] += 1
        meta[item.id] = item
    rows = [{"skill": m.add(skill, cache=False), "total": sum(c.values()), **{b: c[b] for b in ("expired", "soon", "later", "none")}}
            for skill, c in sorted(by_skill.items())]
    shown: list[dict[str, Any]] = []
    stats: dict[str, int] = {}
    if approved and total:
        from .units import t2_entries

        # Decrypted in memory only, through the gate as a reuse (secrets and
        # T3 stay refused; the decision is logged), exactly as recall does.
        for entry in t2_entries(Path(ws), cfg, record=True, approved=True, stats=stats):
            item = meta.get(entry.id)
            # T2 text is never written anywhere but the page the user named:
            # not to the mask cache either.
            shown.append({"id": entry.id, "skill": m.add(item.skill if item else "", cache=False),
                          "topic": m.add(item.topic if item else entry.heading, cache=False),
                          "created": item.created.isoformat() if item and item.created else "",
                          "expires": item.expires.isoformat() if item and item.expires else "",
                          "text": m.add(entry.text, cache=False)})
    shown_ids = {e["id"] for e in shown}
    return {"total": total, "errors": errors, "by_skill": rows, "entries": shown,
            "locked": stats.get("locked", 0), "refused": stats.get("refused", 0),
            "hidden_ids": sorted(i for i in meta if i not in shown_ids)}


def _archive(ws: Path, problems: list[str]) -> dict[str, int]:
    from . import prune, tiers
    from .fsio import read_text

    counts: Counter = Counter({"daily": 0, "knowledge": 0, "t2": 0, "files": 0, "other": 0})
    folder = tree.Tree(Path(ws)).archive
    if not folder.is_dir():
        return dict(counts)
    for path in sorted(folder.rglob("*.md")):
        if not path.is_file() or not _inside(ws, path):
            continue
        counts["files"] += 1
        try:
            text = read_text(path).text
        except Exception as exc:  # UnreadableFileError
            problems.append(str(exc))
            continue
        archived = prune.read_archived(text)
        if archived:
            counts.update(str(a.get("kind") or "other") for a in archived)
            continue
        try:
            counts["t2"] += len(tiers.parse_t2(text, path))
        except Exception:  # neither a prune archive nor a T2 file: counted as a file only
            counts["other"] += 1
    return dict(counts)


def _quarantine(ws: Path) -> int | None:
    """Entries in the T2 quarantine, or None when this version of the tree has none."""
    folder = getattr(tree.Tree(Path(ws)), "quarantine", None)
    if folder is None:
        return None
    if not folder.is_dir():
        return 0
    from . import tiers
    from .fsio import read_text

    count = 0
    for path in sorted(folder.glob("*.md")):
        try:
            count += len(tiers.parse_t2(read_text(path).text, path))
        except Exception:
            count += 1  # unreadable, but it is in quarantine all the same
    return count


def _usage(ws: Path, cfg: dict[str, Any], m: _Masker) -> dict[str, Any]:
    from .context import compaction_point
    from .hookrun import read_usage

    sessions: dict[str, dict[str, Any]] = {}
    for rec in read_usage(Path(ws)):
        try:
            at = datetime.fromisoformat(rec["at"])
        except ValueError:
            continue
        at = at if at.tzinfo else at.replace(tzinfo=timezone.utc)
        used, window, pct = rec.get("used"), rec.get("window"), rec.get("percent")
        if not isinstance(pct, (int, float)) or isinstance(pct, bool):
            if isinstance(used, int) and isinstance(window, int) and window > 0:
                pct = used * 100 // window
            else:
                continue  # unknown usage: nothing to draw
        key = str(rec.get("session") or "?")
        s = sessions.setdefault(key, {"key": key, "points": [], "compactions": [], "windows": set()})
        point = {"at": at.isoformat(timespec="seconds"), "percent": float(pct),
                 "used": used if isinstance(used, int) else None, "event": str(rec.get("event") or "")}
        s["points"].append(point)
        if point["event"] == "session:compact:before":
            s["compactions"].append(point)
        if isinstance(window, int) and window > 0:
            s["windows"].add(window)
    rows = []
    for s in sessions.values():
        s["points"].sort(key=lambda p: p["at"])
        windows = sorted(s.pop("windows"))
        points = s["points"]
        # Where OpenClaw compacts, as a share of the window (context.compaction_point).
        limits = sorted({round(compaction_point(w, cfg.get("context")) * 100 / w, 1) for w in windows})
        rows.append({"key": s["key"], "label": m.add(s["key"]), "points": points, "compactions": s["compactions"],
                     "first": points[0]["at"], "last": points[-1]["at"], "records": len(points),
                     "latest": points[-1]["percent"], "peak": max(p["percent"] for p in points),
                     "windows": windows, "compaction_at": limits})
    rows.sort(key=lambda r: r["last"], reverse=True)
    return {"sessions": rows, "records": sum(r["records"] for r in rows)}


def _dir_size(folder: Path) -> tuple[int, int]:
    """Total bytes and number of files under ``folder`` (symlinks not followed)."""
    size = files = 0
    for root, dirs, names in os.walk(folder, followlinks=False):
        for name in names:
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            size += st.st_size
            files += 1
    return size, files


class _EntryAt:
    """The ids of the entries that hold line ``line`` (1-based) of workspace file ``rel``.

    An audit finding shown in the Health section quotes an excerpt of an
    entry's line (80 characters around the match, cut): a forget of that
    entry finds no line of it in the page, and the page may show nothing else
    of it (a daily section older than the timeline). Each finding's row
    carries the ids of the entries it quotes (``data-id``), as every entry's
    row does, so :func:`erase_written` deletes the page by id whatever the cut
    (tatk7). Daily notes and archived daily files give the section holding
    the line; a knowledge file its entry; a T2 file every entry in it. Files
    that cannot be read give none (the page then holds no id for that row).
    """

    def __init__(self, ws: Path) -> None:
        self.ws = ws
        self.cache: dict[str, list[tuple[int, int, str]]] = {}

    def __call__(self, rel: Any, line: Any) -> list[str]:
        if not isinstance(rel, str) or not rel:
            return []
        if rel not in self.cache:
            self.cache[rel] = self._read(rel)
        at = line - 1 if isinstance(line, int) and not isinstance(line, bool) else None
        return sorted({ident for start, end, ident in self.cache[rel] if at is None or start <= at < end})

    def _read(self, rel: str) -> list[tuple[int, int, str]]:
        from . import entries, prune, tiers
        from .workspace import inside

        path = self.ws / rel
        try:
            if not inside(self.ws, path) or path.is_symlink() or not path.is_file():
                return []
            text = read_regular_text(path, "utf-8")
        except (OSError, UnicodeDecodeError, ValueError, MemoryManagerError):
            return []
        whole = 10 ** 9
        try:
            if tiers.T2_DIR in Path(rel).parts or re.search(r"^(?:format:\s*[\"']?cmm-t2|tier:\s*[\"']?internal)",
                                                          text[:400], re.M):
                return [(0, whole, e.id) for e in tiers.parse_t2(text, path) if e.id]
            if Path(rel).parent.name == entries.KNOWLEDGE_DIR:
                return [(0, whole, entries.parse_knowledge(text, path).id)]
            sections = [(s.start, s.end, s.id) for s in entries.parse_daily(text, path) if s.id]
            archived = [(0, whole, str(a["id"])) for a in prune.read_archived(text)
                        if isinstance(a.get("id"), str) and not any(i == a["id"] for _, _, i in sections)]
            return sections + archived
        except Exception:  # noqa: BLE001 - a file that does not parse gives no id; the row is still shown
            return []


def _health(ws: Path, m: _Masker, problems: list[str]) -> dict[str, Any]:
    from . import audit, auditlog, backups, cleanup

    paths = tree.Tree(Path(ws))
    last = audit.read_last(Path(ws))
    audit_doc = None
    ids_at = _EntryAt(Path(ws))
    if last is not None:
        rep = last["report"]
        findings = [f for f in rep.get("findings", []) if isinstance(f, dict)]
        audit_doc = {"at": str(last.get("at", "")), "clean": bool(rep.get("clean")),
                     "summary": rep.get("summary") if isinstance(rep.get("summary"), dict) else {},
                     "checks": [c for c in rep.get("checks", []) if isinstance(c, dict)],
                     "findings": [{"file": m.add(f.get("file", "")), "line": f.get("line"),
                                   "category": str(f.get("category", "")), "rule": str(f.get("rule", "")),
                                   "excerpt": m.add(f.get("excerpt")) if f.get("excerpt") else None,
                                   "ids": ids_at(f.get("file"), f.get("line"))}
                                  for f in findings[:AUDIT_ROWS]],
                     "more": max(0, len(findings) - AUDIT_ROWS)}
    decisions: Counter = Counter()
    operations: Counter = Counter()
    first = last_at = None
    for rec in auditlog.read(Path(ws), problems):
        if not isinstance(rec, dict):
            continue
        op, decision = str(rec.get("operation", "?")), str(rec.get("decision", "?"))
        decisions[(op, decision)] += 1
        operations[op] += 1
        when = str(rec.get("time", ""))
        first = when if first is None or when < first else first
        last_at = when if last_at is None or when > last_at else last_at
    kinds = sorted({d for _, d in decisions})
    gate = {"decisions": kinds, "first": first, "last": last_at, "total": sum(decisions.values()),
            "rows": [{"operation": op, "total": operations[op], "counts": [decisions[(op, d)] for d in kinds]}
                     for op in sorted(operations)]}
    index = paths.recall_index
    index_bytes = index.stat().st_size if index.is_file() else None
    listed = backups.list_backups(Path(ws))
    backup_bytes, backup_files = _dir_size(paths.backups) if paths.backups.is_dir() else (0, 0)
    return {"audit": audit_doc, "cleanup": cleanup.last_summary(Path(ws)), "gate": gate,
            "index_bytes": index_bytes,
            "backups": {"count": len(listed), "bytes": backup_bytes, "files": backup_files,
                        "newest": str(listed[-1].get("id", "")) if listed else None}}


def collect(ws: Any, days: int = 30, approved: bool = False, meanwhile: Callable[[], None] | None = None,
            gathered: Callable[[Model], None] | None = None) -> Model:
    """Gather the report of workspace ``ws`` (a :class:`memory_manager.workspace.Workspace`).

    Args:
        ws: the opened workspace (its ``root`` and ``config`` are used).
        days: length of the timeline window in days, ending today in the
            user's time zone (``clock.local_now``, which honours
            ``MEMORY_MANAGER_NOW``); 1..3650.
        approved: the user approved showing T2 content: entries that may be
            reused are decrypted in memory (through the gate, logged) and
            their masked text included.
        meanwhile: work to do while the text is being masked (the command
            fills the page's template there, with a stand-in for each masked
            text: ``report_render.Pages``), see :class:`_Masker`.
        gathered: called with the model once everything is read, before the
            bulk of the text is masked; a placeholder read there is masked
            at once, by itself (:meth:`_Masker.now`). The command gives the
            chart child its data there (``report_render.send_charts``: a few
            labels), so the charts are drawn while the text is masked.

    Returns a :class:`Model`; every text from the memory in it is a masked
    placeholder (``str()`` gives the masked text, Jinja2 escapes it). Reads only, except
    the gate's audit log with ``approved``.

    Raises:
        BadInputError: ``days`` out of range.
        ConfigError: the workspace config is invalid.
    """
    from .clock import local_now, user_zone
    from .entries import language

    if not 1 <= int(days) <= 3650:
        raise BadInputError(f"--days must be between 1 and 3650, not {days}")
    root, cfg = Path(ws.root), ws.config
    moment = local_now()  # the user's day, as their notes are dated
    end = moment.date()
    start = end - timedelta(days=int(days) - 1)
    cache = _mask_cache(root)
    m = _Masker(cache)
    problems: list[str] = []
    timeline = _timeline(root, start, end, m, problems)
    knowledge = _knowledge(root, m, problems)
    tiers = {"t1": _t1(root, m, problems), "t2": _t2(root, cfg, approved, end, m, problems),
             "archive": _archive(root, problems), "quarantine": _quarantine(root)}
    usage = _usage(root, cfg, m)
    health = _health(root, m, problems)
    sections = {"timeline": timeline, "knowledge": knowledge, "tiers": tiers, "usage": usage, "health": health}
    counts = {"days": int(days), "daily": timeline["ours"], "openclaw": timeline["openclaw"],
              "knowledge": len(knowledge["entries"]), "t1_skills": len(tiers["t1"]["skills"]),
              "t2": tiers["t2"]["total"], "t2_shown": len(tiers["t2"]["entries"]),
              "usage_records": usage["records"], "sessions": len(usage["sessions"])}
    model = Model(lang=language(cfg), generated=f"{moment:%Y-%m-%d %H:%M} {user_zone().name}", workspace=root.name,
                  days=int(days), start=start.isoformat(), end=end.isoformat(), approved=approved,
                  thresholds=[int(t) for t in cfg["context"]["thresholds"]],
                  sections=sections, counts=counts, hidden_ids=list(tiers["t2"]["hidden_ids"]), masker=m)
    if gathered is not None:
        gathered(model)
    m.run(meanwhile)  # every placeholder in the sections now reads as its masked text
    cache.save()
    model.problems = _mask_list(problems)
    return model


def make(ws: Any, target: Path, render: Callable[[Model], str], days: int = 30, approved: bool = False,
         meanwhile: Callable[[], None] | None = None,
         gathered: Callable[[Model], None] | None = None) -> tuple[Model, int, list[str]]:
    """Gather, render, write and record one report, holding the workspace lock throughout.

    Args:
        ws: the opened workspace (``.root``, ``.config``).
        target: where the page goes (:func:`target_path`).
        render: turns the :class:`Model` into the page's HTML (``report_render.render``).
        days, approved, meanwhile, gathered: as :func:`collect`.

    The lock keeps a ``forget`` or a purge from finishing between the moment
    an entry is read and the moment the page is recorded (tatk8: a report
    built while ``forget`` ran wrote the forgotten entry's text and recorded
    it after ``forget`` had looked for reports). A writer waits for the report
    (a few seconds) as it waits for any other writer.

    Returns ``(model, bytes written, untracked)``: ``untracked`` as
    :func:`record_written` returns it.

    Raises:
        FileWriteError: the lock could not be taken, the record holds
            :data:`RECORD_LIMIT` reports that still exist (nothing is written:
            :func:`check_room`), the write failed, or the page was written but
            could not be recorded (the message names it).
        BadInputError, ConfigError: as :func:`collect`.
    """
    from .fsio import workspace_lock

    root = Path(ws.root)
    with workspace_lock(root):
        check_room(root, target)  # a page the record cannot hold is not written (tatk7)
        model = collect(ws, days=days, approved=approved, meanwhile=meanwhile, gathered=gathered)
        page = render(model)
        size = write_report(target, page)
        # Recorded (path, SHA-256, the ids it counts without showing) so forget and
        # cleanup's purge can find this copy later.
        try:
            untracked = record_written(root, target, page.encode("utf-8"), hidden=model.hidden_ids)
        except (OSError, MemoryManagerError) as exc:
            # The page is there but unknown to forget and purge: say so, never only "replace failed" (fatk8).
            raise FileWriteError(f"the report was written to {target}, but it could not be recorded in "
                                 f"{tree.rel(tree.STATE, RECORD_NAME)} ({exc}): a later forget will not delete it; "
                                 "delete it yourself when it is no longer needed, or run report again") from None
    return model, size, untracked


def _mask_list(texts: Iterable[str]) -> list[str]:
    from .privacy import mask

    return [mask(t) for t in texts]


#: The page's ``<meta name="generator">`` content (``templates/report/page.html.j2``): an
#: existing file is replaced only when its head carries it (a report of ours), or with ``overwrite``.
MARKER = "complex-memory-manager report"
#: Bytes read from the head of an existing file to look for :data:`MARKER`.
MARKER_BYTES = 4096


def target_path(ws: Any, html: Path | None, approved: bool, overwrite: bool = False) -> Path:
    """Return where the report goes: ``html``, else ``memory/.cache/report.html``.

    Args:
        ws: the opened workspace (``.root``).
        html: the ``--html FILE`` the user named (relative to the current folder), or None.
        approved: T2 content goes in the page.
        overwrite: the user passed ``--overwrite``: an existing file that is not
            a report of ours may be replaced (never inside the workspace).

    The report never replaces a user's file (no backup is taken of it): a
    named file inside the workspace is refused unless it lies in
    ``memory/.cache`` (derived files; the agent loads the workspace's other
    files, AGENTS.md and MEMORY.md among them, on every turn); an existing
    file elsewhere is replaced only when it is a previous report (its head
    carries :data:`MARKER`) or with ``overwrite``. With ``approved`` (T2
    content in the page) the user must name the file and it must lie outside
    the workspace: a T2 plaintext copy must be where the user chose to put
    it, never in a file the agent reads.

    Raises:
        BadInputError: ``approved`` without ``html``, or ``html`` inside the
            workspace; ``html`` inside the workspace outside ``memory/.cache``;
            ``html`` an existing file (or link) that is not a report of ours;
            ``html`` is a folder; a part of ``html`` holds a privacy finding
            (:func:`_refuse_private_name`).
    """
    paths = tree.Tree(Path(ws.root))
    if html is None:
        if approved:
            raise BadInputError("--approved puts T2 content in the page: name the file with --html FILE "
                                "(outside the workspace)")
        return paths.report
    target = Path(html).expanduser()
    target = target if target.is_absolute() else Path.cwd() / target
    # First: the messages below echo the path (a secret in it is never echoed back, atk13).
    _refuse_private_name(html, target)
    if target.is_dir():
        raise BadInputError(f"--html {html}: is a folder; name a file")
    if approved and _under(paths.root, target):
        raise BadInputError(f"--approved puts T2 content in the page: --html must be outside the workspace "
                            f"({paths.root}), where the agent reads no file")
    if _under(paths.root, target) and not _under(paths.cache, target):
        raise BadInputError(f"--html {html}: inside the workspace; the report may write there only in "
                            f"{tree.MEMORY}/{tree.CACHE}/ (or name a file outside the workspace)")
    if (target.exists() or target.is_symlink()) and not overwrite and not _is_report(target):
        raise BadInputError(f"--html {html}: the file exists and is not a report of ours; "
                            "name another file, or pass --overwrite to replace it")
    return target


def _refuse_private_name(given: Path, target: Path) -> None:
    """Refuse an ``--html`` path whose file or folder names hold a secret or personal data.

    The path becomes a file name on disk and a line of ``memory/.state/reports.json``
    (tatk8): :func:`memory_manager.names.refuse_private_path`, as every path option
    that reaches disk.

    Raises:
        BadInputError: naming the category, never the value; nothing is written.
    """
    from .names import refuse_private_path

    # The path as typed (``~`` expanded): a relative one's current folder was not typed, and
    # is not judged (tfix17t).
    refuse_private_path("--html", Path(given).expanduser())


def _is_report(path: Path) -> bool:
    """True when ``path`` is a regular file (not a link) whose head carries :data:`MARKER`."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        with open(path, "rb") as fh:
            head = fh.read(MARKER_BYTES)
    except OSError:
        return False
    return f'<meta name="generator" content="{MARKER}'.encode() in head


def _under(folder: Path, path: Path) -> bool:
    """True when ``path`` (its folder's symlinks resolved) is ``folder`` or lies under it."""
    try:
        real = path.parent.resolve() / path.name
        real.relative_to(folder.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def write_report(path: Path, html: str) -> int:
    """Write ``html`` to ``path`` atomically with mode 0600; return the bytes written.

    Missing folders are created (``memory/.cache`` with mode 0700, as every
    private folder: :func:`memory_manager.fsio.make_dirs`).

    Raises:
        FileWriteError: the write failed (the previous file, if any, is unchanged).
    """
    from .fsio import atomic_write, make_dirs

    data = html.encode("utf-8")
    make_dirs(path.parent)
    atomic_write(path, data, mode=0o600)
    return len(data)


def drop_cached(ws: Path) -> bool:
    """Delete the cached report (``memory/.cache/report.html``) and the mask cache; True when there was a report.

    Called by ``forget`` and by cleanup's purge: the report and the mask
    cache (:class:`MaskCache`) may hold the forgotten or purged entry's
    words, and forgotten means gone everywhere the bundle put it. A report
    the user wrote elsewhere (``--html``) is theirs and is not touched.
    """
    from .fsio import remove

    paths = tree.Tree(Path(ws))
    cache = paths.mask_cache
    if cache.exists() or cache.is_symlink():
        remove(cache, missing_ok=True)
    path = paths.report
    if not path.exists() and not path.is_symlink():
        return False
    remove(path, missing_ok=True)
    return True


# ------------------------------------------------------------ reports written elsewhere

#: ``memory/.state/reports.json``: each report written to a file the user named
#: (``--html``), with the SHA-256 of what was written (``cmm-report-record`` v1,
#: ``references/formats.md``), so ``forget`` and cleanup's purge can find the
#: copies of a forgotten entry outside the workspace (issue 10, round 6).
RECORD_NAME = "reports.json"
RECORD_FORMAT = {"format": "cmm-report-record", "version": 2}
#: Characters of a forgotten entry's long line looked for by themselves (:func:`_fragments`).
PREFIX_CHARS = 64
#: Reports that still exist the record holds at most (about 150 bytes each): a bound on its
#: size. Records of reports that are gone are dropped; a report that exists is never dropped
#: from the record (forget could not find it any more, tatk7), so past the bound a new report
#: is refused before it is written (:func:`check_room`).
RECORD_LIMIT = 1000


def _record_path(ws: Path) -> Path:
    return tree.Tree(Path(ws)).state_file(RECORD_NAME)


def written_reports(ws: Path) -> list[dict[str, Any]]:
    """The reports recorded by :func:`record_written`: ``[{"path", "sha256", "written", "hidden"}]``.

    Reads version 2 and version 1 (round 6; no ``hidden`` list: read as empty).
    A missing, unreadable or malformed record reads as empty (it is derived
    bookkeeping: losing it loses only the clean-up of old reports).
    """
    from .errors import MemoryManagerError
    from .fsio import leads_outside
    from .jsonio import loads

    path = _record_path(ws)
    try:
        if path.is_symlink() or leads_outside(path) or not path.is_file():
            return []
        doc = loads(read_regular(path), tree.rel(tree.STATE, RECORD_NAME))
    except (OSError, UnicodeDecodeError, MemoryManagerError):
        return []
    if not isinstance(doc, dict) or doc.get("format") != RECORD_FORMAT["format"] or doc.get("version") not in (1, 2):
        return []
    out = []
    for r in doc.get("reports") or []:
        if isinstance(r, dict) and isinstance(r.get("path"), str) and isinstance(r.get("sha256"), str):
            hidden = r.get("hidden") if isinstance(r.get("hidden"), list) else []
            out.append({**r, "hidden": [str(i) for i in hidden if isinstance(i, str)]})
    return out


def _save_record(ws: Path, reports: list[dict[str, str]]) -> None:
    from .fsio import atomic_write, make_dirs

    path = _record_path(ws)
    make_dirs(path.parent)
    doc = {**RECORD_FORMAT, "reports": reports}
    atomic_write(path, (json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode("utf-8"),
                 mode=0o600)


def _live_records(ws: Path, path: Path) -> list[dict[str, Any]]:
    """The recorded reports that still exist as reports of ours, but the one at ``path``."""
    return [r for r in written_reports(ws) if r["path"] != str(path) and _is_report(Path(r["path"]))]


def check_room(ws: Path, path: Path) -> None:
    """Refuse a report at ``path`` when the record could not hold it (call before writing it).

    The record keeps every report that still exists (:func:`record_written`);
    with :data:`RECORD_LIMIT` of them recorded, a new one could not be, and a
    page forget cannot find is a copy it cannot delete (tatk7: the 201st report
    pushed the first out of the record). The cached report
    (``memory/.cache/report.html``) is never recorded and never refused here.

    Raises:
        FileWriteError: the record is full (the message says how to make room); nothing is written.
    """
    path = Path(path).absolute()
    if path == tree.Tree(Path(ws)).report:
        return
    live = _live_records(ws, path)
    if len(live) >= RECORD_LIMIT:
        raise FileWriteError(f"{len(live)} reports written with --html still exist and are recorded in "
                             f"{tree.rel(tree.STATE, RECORD_NAME)}, the most it keeps (so that forget can delete "
                             "each copy of what it forgets); delete reports you no longer need, or write over one "
                             "of them, then run report again; nothing was written")


def record_written(ws: Path, path: Path, data: bytes, hidden: Iterable[str] = ()) -> list[str]:
    """Remember that a report was written to ``path`` (a file the user named) with bytes ``data``.

    Args:
        ws: the workspace root.
        path: the ``--html`` file (absolute); the cached report
            (``memory/.cache/report.html``) is not recorded: forget and purge
            delete it anyway (:func:`drop_cached`).
        data: the bytes written (their SHA-256 is kept, never the text).
        hidden: ids of entries the page counts without showing them (T2
            entries without ``--approved``): a forget of one deletes the report.

    Takes the workspace lock; a later write to the same path replaces its record.
    Records of reports that are gone, or are no longer a report of ours (a
    link, another file), are dropped; a report that still exists is never
    dropped (round 9, tatk7: past a bound of 200, then 1,000, the oldest were,
    and forget could no longer delete them).

    Returns the paths of reports that still exist but are no longer recorded:
    always ``[]`` since round 9 (kept for the callers and the ``untracked``
    field of ``report --json``).

    Raises:
        FileWriteError: :data:`RECORD_LIMIT` reports are recorded and still
            exist (:func:`check_room`, which :func:`make` calls before writing).
    """
    from .fsio import sha256_bytes, workspace_lock
    from .clock import now

    path = Path(path).absolute()
    if path == tree.Tree(Path(ws)).report:
        return []
    with workspace_lock(ws):
        check_room(ws, path)
        reports = _live_records(ws, path)
        reports.append({"path": str(path), "sha256": sha256_bytes(data),
                        "written": now().isoformat(timespec="seconds"), "hidden": sorted(set(hidden))})
        _save_record(ws, reports)
    return []


def _fragments(texts: Iterable[str]) -> set[str]:
    """The lines of a forgotten entry's text worth looking for in a page (flattened, markers off).

    The page shows each text it holds masked (:class:`_Masker`: every text
    masked as if alone, whatever the texts beside it), and its unit is the
    one the page shows: a knowledge body or a T2 text whole, a daily
    section's topic and items read together (round 10; before, each alone),
    a lesson line alone. A line of a body read whole can be masked
    differently than the same line read alone (a password one line below its
    label, a number split over two lines: tatk7, the report read texts joined
    while forget read each line alone). So each text is read both ways, the
    page's ways: masked whole (:func:`memory_manager.privacy.mask`) and split
    into lines, and each line (its item marker off) masked alone; every form
    is looked for, and the text as written too. Lines shorter than
    :data:`memory_manager.erasure.MIN_NEEDLE` are not looked for. A line longer
    than :data:`PREFIX_CHARS` is also looked for by its start alone: the page
    cuts a long body at :data:`BODY_CHARS`, so a line running past the cut
    shows only its start (tatk7: a one-line entry of 2,000+ characters
    escaped; pages since round 7 carry each entry's id as well, :func:`erase_written`).
    """
    from .erasure import MIN_NEEDLE, _MARKER
    from .privacy import mask

    def flat(line: str) -> str:
        return " ".join(_MARKER.sub("", line).split())

    out = set()
    for text in texts:
        lines = [flat(line) for line in text.split("\n")]
        forms = [*lines, *(flat(line) for line in mask(text).split("\n")),
                 *(" ".join(mask(line).split()) for line in lines if len(line) >= MIN_NEEDLE)]
        for form in forms:
            if len(form) >= MIN_NEEDLE:
                out.add(form)
            if len(form) > PREFIX_CHARS:
                out.add(form[:PREFIX_CHARS])
    return out


def erase_written(ws: Path, texts: list[str], ident: str | None = None) -> dict[str, list[str]]:
    """Delete the recorded reports outside the cache that hold a forgotten entry; return what happened.

    Args:
        ws: the workspace root (the caller holds its lock: ``forget``, cleanup's purge).
        texts: the forgotten entry's text (:func:`memory_manager.erasure.erase`'s needles, as text).
        ident: its id, looked for too.

    Each recorded report (:func:`written_reports`) is looked at: one whose
    bytes still have the recorded SHA-256 and whose text (HTML entities
    decoded) holds a line of the entry (:func:`_fragments`) or its id (every
    entry's row carries ``data-id``; a T2 entry counted but not shown is in
    the record's ``hidden`` list) is deleted; one that changed
    since it was written (the user edited or replaced it) is never touched,
    and is named under ``changed`` when it holds the text (the caller warns
    with its path). A report that is gone, or is no longer a file of ours
    (a link, another file), leaves the record. Nothing else is touched.

    Returns ``{"deleted": [path, ...], "changed": [path, ...]}``.
    """
    import html as html_mod

    from .fsio import remove, sha256_bytes

    reports = written_reports(ws)
    if not reports:
        return {"deleted": [], "changed": []}
    frags = _fragments(texts)
    keep: list[dict[str, str]] = []
    deleted: list[str] = []
    changed: list[str] = []
    for record in reports:
        path = Path(record["path"])
        try:
            if path.is_symlink() or not path.is_file():
                continue  # gone, or a link now: not ours to read or delete
            data = read_regular(path)
        except OSError:
            continue
        page = " ".join(html_mod.unescape(data.decode("utf-8", "replace")).split())
        holds = bool(ident and (ident in page or ident in record["hidden"])) or any(f in page for f in frags)
        ours = _is_report(path)
        if ours and sha256_bytes(data) == record["sha256"]:
            if holds:
                remove(path, missing_ok=True)
                deleted.append(str(path))
            else:
                keep.append(record)
            continue
        if holds:
            changed.append(str(path))
        if ours:
            keep.append(record)  # edited, still a report: a later forget looks again
    if keep != reports:
        _save_record(ws, keep)
    return {"deleted": deleted, "changed": changed}
