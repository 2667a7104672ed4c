"""Literal gates derived from a regular expression: text that must occur in every match.

Speed only, for :mod:`memory_manager.privacy`: a rule whose every match holds
one of a few literal strings need not run over a line that holds none of them.
:func:`required_literals` reads the pattern's parse tree (Python's own
``re._parser``, the tree ``re.compile`` builds from) and returns such a set,
or None when it cannot prove one. The proof is conservative: a literal is
taken only from characters the match itself consumes (never from a
look-ahead or look-behind), and under IGNORECASE only from characters whose
every case-insensitive equivalent lower-cases, one character for one, to the
same character (not ``i``, ``s`` or letters outside ASCII: ``(?i)s`` also
matches the long s, which ``str.lower`` leaves as it is). The same idea as
the "required trigrams" of Russ Cox, "Regular Expression Matching with a
Trigram Index" (2012), with whole literals instead of trigrams.

Standard library only.
"""
from __future__ import annotations

import re
from itertools import product
from typing import Any

try:  # Python 3.11+
    from re import _constants as _c, _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

#: At most this many alternative strings in one exact run (a run of
#: ``(?:a|b)(?:c|d)`` multiplies its alternatives).
MAX_ALTERNATIVES = 16
#: Literals longer than this are cut (the gate needs a substring, not the whole).
MAX_LITERAL = 24


def _case_safe(ch: str) -> bool:
    """True when every character ``(?i)ch`` matches lower-cases (``str.lower``, one for one) to ``ch.lower()``.

    ASCII digits and punctuation have no case; ASCII letters other than
    ``i`` and ``s`` have only their other case (``k`` also matches the Kelvin
    sign, whose lower case is ``k``); ``i`` also matches the dotless i and the
    dotted capital I, ``s`` the long s (Python's ``re._casefix``). CJK
    ideographs have no case. Everything else is refused.
    """
    if ch.isascii():
        return ch.lower() not in "is"
    return "\u4e00" <= ch <= "\u9fff"


#: Character categories (``\s``, ``\D``, ``\W`` and their Unicode forms) that hold the newline.
_NEWLINE_CATEGORIES = frozenset({_c.CATEGORY_SPACE, _c.CATEGORY_NOT_DIGIT, _c.CATEGORY_NOT_WORD, _c.CATEGORY_LINEBREAK,
                                 _c.CATEGORY_UNI_SPACE, _c.CATEGORY_UNI_NOT_DIGIT, _c.CATEGORY_UNI_NOT_WORD,
                                 _c.CATEGORY_UNI_LINEBREAK})


class _Result:
    """What a sub-pattern tells: ``exact`` (every string it can match, when few) and ``need``
    (literal sets one of which every match holds), as the best set found so far."""

    __slots__ = ("exact", "need")

    def __init__(self, exact: set[str] | None, need: set[str] | None) -> None:
        self.exact = exact
        self.need = need


def _score(literals: set[str] | None) -> tuple[int, int, int]:
    """Higher is a better gate: the shortest literal's length first, then fewer literals, then
    more literals holding a character outside ASCII (rarer in mixed text than two ASCII letters:
    ``阴性`` gates ``(?i:rh) ?阴性`` better than ``rh``, which is on most English lines)."""
    if not literals or any(not w for w in literals):
        return (-1, 0, 0)
    return (min(len(w) for w in literals), -len(literals), sum(1 for w in literals if not w.isascii()))


def _best(*sets: set[str] | None) -> set[str] | None:
    best: set[str] | None = None
    for s in sets:
        if s and all(s) and _score(s) > _score(best):
            best = s
    return best


class _Walker:
    def __init__(self, lower_text: bool) -> None:
        #: the pattern runs over the text as given (map literals to the lower-cased text the gate reads)
        self.lower_text = lower_text
        self.newline = False  # the pattern can match a line break somewhere (then no gate)
        self.end_anchor = False  # ``$`` / ``\Z`` without MULTILINE (then no gate)

    def char(self, code: int, icase: bool) -> str | None:
        ch = chr(code)
        if icase:
            return ch.lower() if _case_safe(ch) else None
        low = ch.lower()
        if self.lower_text:
            # The gate reads privacy._lowered(text): a character whose lower case is
            # not one character is kept as it is there.
            return low if len(low) == 1 else ch
        return ch

    def charset(self, items: list[tuple[Any, Any]], icase: bool) -> set[str] | None:
        """The characters of a class, when it is a short list of literals; notes a class that can match a newline."""
        out: set[str] = set()
        negate = False
        exact = True
        holds_newline = False  # the class as written, before a ``^``
        for op, av in items:
            if op is _c.NEGATE:
                negate = True
            elif op is _c.LITERAL and av == 10:
                holds_newline = True
                exact = False  # never a gate literal
            elif op is _c.LITERAL:
                ch = self.char(av, icase)
                if ch is None:
                    exact = False
                else:
                    out.add(ch)
            elif op is _c.RANGE:
                if av[0] <= 10 <= av[1]:
                    holds_newline = True
                exact = False
            elif op is _c.CATEGORY:
                if av in _NEWLINE_CATEGORIES:
                    holds_newline = True
                exact = False
            else:
                holds_newline = True  # unknown: assume the worst
                exact = False
        if holds_newline != negate:
            self.newline = True
        if negate or not exact or not out or len(out) > 4:
            return None
        return out

    def seq(self, items: Any, icase: bool) -> _Result:
        run: set[str] | None = {""}
        needs: list[set[str] | None] = []
        exact_all: set[str] | None = {""}
        for op, av in items:
            r = self.node(op, av, icase)
            needs.append(r.need)
            if r.exact is not None and run is not None:
                joined = {a + b for a, b in product(run, r.exact)}
                if len(joined) <= MAX_ALTERNATIVES:
                    run = {w[:MAX_LITERAL] if len(w) > MAX_LITERAL else w for w in joined}
                    if exact_all is not None:
                        whole = {a + b for a, b in product(exact_all, r.exact)}
                        exact_all = whole if len(whole) <= MAX_ALTERNATIVES and all(len(w) <= MAX_LITERAL for w in whole) \
                            else None
                    continue
            # The run ends here: what it held is one candidate gate.
            needs.append(run if run and all(run) else None)
            exact_all = None
            run = set(r.exact) if r.exact is not None and len(r.exact) <= MAX_ALTERNATIVES else {""}
        needs.append(run if run and all(run) else None)
        return _Result(exact_all, _best(*needs))

    def node(self, op: Any, av: Any, icase: bool) -> _Result:
        if op is _c.LITERAL:
            if av == 10:
                self.newline = True
                return _Result(None, None)
            ch = self.char(av, icase)
            return _Result({ch} if ch is not None else None, None)
        if op is _c.NOT_LITERAL:
            if av != 10:
                self.newline = True
            return _Result(None, None)
        if op is _c.IN:
            chars = self.charset(av, icase)
            return _Result(chars, None)
        if op is _c.ANY:
            return _Result(None, None)  # '.' without DOTALL (checked by the caller)
        if op is _c.SUBPATTERN:
            group, add, remove, sub = av
            inner = (icase or bool(add & re.IGNORECASE)) and not (remove & re.IGNORECASE)
            if add & re.DOTALL:
                self.newline = True
            r = self.seq(sub, inner)
            return _Result(r.exact, _best(r.need, r.exact))
        if op is _c.BRANCH:
            results = [self.seq(branch, icase) for branch in av[1]]
            exact: set[str] | None = set()
            for r in results:
                if r.exact is None or exact is None:
                    exact = None
                else:
                    exact |= r.exact
            if exact is not None and len(exact) > MAX_ALTERNATIVES:
                exact = None
            need: set[str] | None = set()
            for r in results:
                one = _best(r.need, r.exact)
                if one is None or need is None:
                    need = None
                else:
                    need |= one
            return _Result(exact, need if need else None)
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = av
            r = self.seq(sub, icase)
            if low == 0:
                return _Result(None, None)
            if low == high == 1:
                return r
            return _Result(None, _best(r.need, r.exact))
        if op is getattr(_c, "ATOMIC_GROUP", None):
            r = self.seq(av, icase)
            return _Result(r.exact, _best(r.need, r.exact))
        if op in (_c.ASSERT, _c.ASSERT_NOT):
            _direction, sub = av
            self.seq(sub, icase)  # only to note a newline inside
            return _Result({""}, None)  # zero width: consumes nothing
        if op is _c.AT:
            if av in (_c.AT_END, _c.AT_END_STRING):
                self.end_anchor = True
            return _Result({""}, None)
        if op is _c.GROUPREF_EXISTS:
            self.newline = True  # not worth the trouble: no gate
            return _Result(None, None)
        if op is _c.CATEGORY:
            if av in _NEWLINE_CATEGORIES:
                self.newline = True
            return _Result(None, None)
        # GROUPREF and anything unknown: consumes something we cannot name.
        return _Result(None, None)


def required_literals(pattern: re.Pattern[str], *, lower_text: bool) -> tuple[str, ...] | None:
    """Literals one of which occurs in every match of ``pattern``, or None when none can be proved.

    Args:
        pattern: a compiled ``str`` pattern.
        lower_text: True when the pattern runs over the text as given and the
            gate looks for the literals in its lower-cased form
            (``privacy._lowered``: same offsets); False when the pattern
            itself runs over that lower-cased form.

    Also None when a match could hold a line break (a class such as ``\\s``
    or ``[^x]``, ``.`` under DOTALL, a literal newline, even inside a
    look-around) or the pattern has ``$``/``\\Z`` outside MULTILINE: such a
    pattern finds something else when run line by line than over the whole
    text, so it must not be gated by lines. Sorted, duplicates removed.
    """
    flags = pattern.flags
    if flags & re.DOTALL:
        return None
    tree = _p.parse(pattern.pattern, flags)
    walker = _Walker(lower_text)
    result = walker.seq(list(tree), bool(flags & re.IGNORECASE))
    if walker.newline or (walker.end_anchor and not flags & re.MULTILINE):
        return None
    best = _best(result.need, result.exact)
    if best is None:
        return None
    return tuple(sorted(best))
