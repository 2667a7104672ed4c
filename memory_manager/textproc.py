"""Tokenisation for ranking (recall's keyword part), English and Chinese.

One function, :func:`tokens`, turns text into the terms the index stores and
queries use, so both sides always agree:

- The text is NFKC-normalised (full-width letters and digits become ASCII,
  so ``Ｐｙｔｈｏｎ`` == ``python``) and lower-cased.
- Latin-script words: possessive ``'s`` dropped, English stop words removed
  (the Snowball project's English list, trimmed of words that carry meaning
  in notes such as "not"), then Snowball-stemmed (``snowballstemmer``,
  the Porter2 algorithm), so ``running``/``runs`` meet ``run``.
- CJK runs (Han, kana, Hangul): overlapping character bigrams, as Lucene's
  ``CJKBigramFilter`` does (``飞书日报`` -> ``飞书 书日 日报``), so a
  two-character word matches inside a longer run without a dictionary or a
  model download. A run of one character is kept as a unigram unless it is a
  common function character (的 了 是 ...), and bigrams made only of
  function characters, or that are question words (什么, 怎么, 如何), are
  dropped: they appear everywhere and only add noise.
- Mixed text works because each script run is handled on its own:
  ``用Python写飞书bot`` -> ``用 python 写飞 飞书 bot``.

jieba was considered and not used: its dictionary takes about a second to
load, which alone would break the whole-command target (0.3 s at 10k
entries), and bigrams already meet the Chinese benchmark (bench/README.md).

Standard library plus ``snowballstemmer`` (imported lazily, on first use).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Version of the tokenizer; stored in the index so a change forces a rebuild.
TOKENIZER_VERSION = 3

# Han (CJK unified + extension A + compatibility), kana, Hangul syllables.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_RUN = re.compile(rf"([{_CJK}]+)|([^\W_{_CJK}]+(?:'[^\W_{_CJK}]+)*)")
#: The same runs without groups, so ``findall`` returns them as strings (tokenising in C).
_RUNS = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+(?:'[^\W_{_CJK}]+)*")
_CJK_RUN = re.compile(rf"[{_CJK}]")

#: English stop words: the Snowball English list, minus negations and a few
#: words that change a note's meaning ("not", "no", "against").
STOP_WORDS = frozenset("""
a about above after again all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had
has have having he her here hers herself him himself his how i if in into is it its itself
just me more most my myself of off on once only or other ought our ours ourselves out over
own same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what when where which while
who whom why will with would you your yours yourself yourselves s t d ll m re ve
""".split())

#: Chinese function characters: alone they carry no topic.
CJK_STOP_CHARS = frozenset("的了是在和与或也都就把被让给对着过吗呢吧啊么个这那我你他她它们有要会")
#: Question words and frames that every Chinese question contains.
CJK_STOP_BIGRAMS = frozenset(
    "什么 怎么 如何 哪些 哪个 哪里 为什 是什 么时 多少 是否 有没 没有 一个 这个 那个 我们 你们 他们 可以".split())


@lru_cache(maxsize=1)
def _stemmer():
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return _stemmer().stemWord(word)


def normalise(text: str) -> str:
    """NFKC-normalise and lower-case ``text`` (the form snippets are matched in)."""
    if text.isascii():  # NFKC leaves ASCII as it is (a C-speed check; most notes are ASCII)
        return text.lower()
    return unicodedata.normalize("NFKC", text).lower()


#: Chinese weekday names in one form: 礼拜六 / 星期六 -> 周六, 礼拜天 / 星期天 / 星期日 -> 周日,
#: 礼拜几 -> 周几. The spellings are the same word, and bigrams of one never meet another's
#: ("现在礼拜六谁来店里" against a note "周六改由 Jess 来帮忙"; time set N, issue 13). 周天 stays
#: as written: it is also the 周 + 天 of "这周天气".
_CJK_WEEKDAY = re.compile(r"(?:礼拜|星期)([一二三四五六日天几])")


def _weekday_form(m: re.Match) -> str:
    day = m.group(1)
    return "周日" if day in "日天" else "周" + day


def _cjk_terms(run: str) -> list[str]:
    if "礼拜" in run or "星期" in run:
        run = _CJK_WEEKDAY.sub(_weekday_form, run)
    if len(run) == 1:
        return [] if run in CJK_STOP_CHARS else [run]
    out = []
    for i in range(len(run) - 1):
        pair = run[i:i + 2]
        if pair in CJK_STOP_BIGRAMS or (pair[0] in CJK_STOP_CHARS and pair[1] in CJK_STOP_CHARS):
            continue
        out.append(pair)
    return out


#: Terms of each run (a CJK run or a word) seen so far: the same words recur across a
#: memory, so a cold index build tokenises each distinct run once (issue 13: the
#: tokenizer was 40 % of a build). Cleared when it grows past :data:`_RUN_CACHE_MAX`.
_RUN_CACHE: dict[str, tuple[str, ...]] = {}
_RUN_CACHE_MAX = 200_000


def _run_terms(run: str) -> tuple[str, ...]:
    """Terms of one run of :data:`_RUNS` (a CJK run or a word), cached in :data:`_RUN_CACHE`."""
    if _CJK_RUN.match(run):
        terms = tuple(_cjk_terms(run))
    else:
        word = run[:-2] if run.endswith("'s") else run
        out = []
        for part in word.split("'"):
            if not part or part in STOP_WORDS:
                continue
            out.append(_stem(part) if part.isascii() and part.isalpha() else part)
        terms = tuple(out)
    if len(_RUN_CACHE) >= _RUN_CACHE_MAX:
        _RUN_CACHE.clear()
    _RUN_CACHE[run] = terms
    return terms


def _piece_terms(piece: str) -> tuple[tuple[str, ...], str, int]:
    """Terms of one white-space-free piece of text, the same joined by spaces, and their number; cached.

    A piece's runs are those :data:`_RUNS` finds in it alone: no run holds white space and
    ``_RUNS`` has no look-behind, so a text's runs are its pieces' runs in order.
    """
    get = _RUN_CACHE.get
    out: list[str] = []
    for run in _RUNS.findall(piece):
        terms = get(run)
        out.extend(_run_terms(run) if terms is None else terms)
    if len(_PIECE_CACHE) >= _RUN_CACHE_MAX:
        _PIECE_CACHE.clear()
    found = _PIECE_CACHE[piece] = (tuple(out), " ".join(out), len(out))
    return found


#: ``(terms, terms joined by spaces, number of terms)`` of each piece of text between white space
#: seen so far (bounded like :data:`_RUN_CACHE`). Splitting at white space (``str.split``) is
#: cheaper than any regular-expression search, and the pieces (words with their punctuation)
#: repeat as the words do: a cold build of 100k entries tokenises in about two thirds of the
#: time of ``_RUNS.findall`` with a cache per run (issue 13).
_PIECE_CACHE: dict[str, tuple[tuple[str, ...], str, int]] = {}


def tokens(text: str) -> list[str]:
    """Return the ranking terms of ``text`` in order (duplicates kept).

    Args:
        text: any Unicode text (Markdown is fine: punctuation is ignored).

    Returns a list of strings made only of letters, digits and CJK
    characters (safe to join with spaces for SQLite FTS5's ``unicode61``).
    """
    get = _PIECE_CACHE.get
    out: list[str] = []
    extend = out.extend
    for piece in normalise(text).split():
        extend((get(piece) or _piece_terms(piece))[0])
    return out


def terms_text(text: str) -> tuple[str, int]:
    """Return ``(" ".join(tokens(text)), len(tokens(text)))``, built without the list.

    What the index stores for an entry (its FTS5 document and term count); a
    cold build calls it for every entry (issue 13).
    """
    get = _PIECE_CACHE.get
    parts: list[str] = []
    append = parts.append
    n = 0
    for piece in normalise(text).split():
        found = get(piece) or _piece_terms(piece)
        if found[2]:
            append(found[1])
            n += found[2]
    return " ".join(parts), n


def query_terms(text: str) -> list[str]:
    """Return the distinct terms of a query, first occurrence order."""
    return list(dict.fromkeys(tokens(text)))


def plain_tokens(text: str) -> list[str]:
    """Baseline tokenisation: lower-cased ``\\w+`` runs, no stemming, no stop words.

    Used only by the benchmarks' plain-BM25 baseline.
    """
    return re.findall(r"\w+", text.lower())
