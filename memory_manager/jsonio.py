"""Reading and writing JSON as untrusted input: depth, NaN and infinities.

Every JSON file we read may come from elsewhere (an import, a hand-edited
config, another tool's state). The standard library accepts three things
that break us later, so :func:`loads` refuses them with one line naming the
file (exit 2, :class:`JSONInputError`):

- nesting deeper than :data:`MAX_DEPTH` (the C parser would raise
  ``RecursionError`` near Python's recursion limit, and anything that walks
  the document afterwards could too);
- ``NaN``, ``Infinity`` and ``-Infinity``: not JSON (RFC 8259 section 6,
  "Numeric values that cannot be represented ... such as Infinity and NaN
  are not permitted"), though Python reads and writes them by default;
- numbers too large for a float (``1e400`` would become ``inf``).

:func:`dumps` always passes ``allow_nan=False``, so we never write what
:func:`loads` (or any other parser) would refuse.

Standard library only: the per-turn path reads JSON too.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
# ``Any`` is only an annotation (strings here): no ``typing`` import on the per-turn hook path.

from .errors import BadInputError

#: Deepest nesting accepted. Our own documents are at most 5 levels deep
#: (an export's tier1 data); 64 leaves room for any honest hand-made file.
MAX_DEPTH = 64


class JSONInputError(BadInputError, ValueError):
    """A JSON file is not valid, too deep, or holds NaN/Infinity (exit 2).

    Also a ``ValueError``, so a reader that treats a broken derived file
    (an index, a cache) as absent keeps doing so.
    """

    kind = "bad_json"


def _reject_constant(name: str) -> Any:
    raise JSONInputError(f"{name} is not a JSON number (RFC 8259)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONInputError(f"number {text[:40]} is too large")
    return value


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_INNERMOST = re.compile(r"\[[^\[\]{}]*\]|\{[^\[\]{}]*\}")


class HugeNumber:
    """A number read by :func:`loads` with ``keep_huge=True`` that no value of ours can be: an
    integer past Python's 4,300-digit conversion limit or a float past the float range.

    Kept as a marker (never a value) so that the reader can name the key that holds it
    (the config: ``'recall.top_k' is a 5,000-digit number``, fatk8) instead of the file alone.
    """

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        digits = sum(c.isdigit() for c in self.text)
        return f"a {digits:,}-digit number" if digits > 40 else f"{self.text} (past the float range)"


def _int_or_huge(text: str) -> "int | HugeNumber":
    try:
        return int(text)
    except ValueError:  # past sys.get_int_max_str_digits() (4,300 by default)
        return HugeNumber(text)


def _float_or_huge(text: str) -> "float | HugeNumber":
    value = float(text)
    return value if math.isfinite(value) else HugeNumber(text)


def depth(text: str, limit: int | None = None) -> int:
    """Return the deepest ``[``/``{`` nesting of JSON ``text`` (brackets inside strings ignored).

    Each pass of a (C-speed) regular expression replaces the innermost
    containers, so the work is one pass per level; with ``limit`` it stops
    after ``limit + 1`` levels.
    """
    rest = _STRING.sub('""', text)
    levels = 0
    while limit is None or levels <= limit:
        rest, found = _INNERMOST.subn("0", rest)
        if not found:
            break
        levels += 1
    return levels


def loads(text: str | bytes, where: str, error: type[BadInputError] = JSONInputError,
          keep_huge: bool = False) -> Any:
    """Parse JSON ``text`` read from ``where`` (a file name for messages).

    Args:
        text: the document.
        where: what to name in the message (``memory/tier1-public/x.json``).
        error: the error class to raise (a :class:`BadInputError` subclass,
            e.g. ``ConfigError``); it gets ``JSONInputError``'s messages.
        keep_huge: read a number too large for us as a :class:`HugeNumber` marker
            instead of refusing the file, so that the caller can name its key.

    Raises:
        JSONInputError (or ``error``): invalid JSON, nesting deeper than
            :data:`MAX_DEPTH`, NaN/Infinity, or a number too large for a float.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise error(f"{where}: not UTF-8 text") from None
    # Counting brackets is C-speed; the exact (string-aware) walk only runs when it could matter.
    if text.count("[") + text.count("{") > MAX_DEPTH and depth(text, MAX_DEPTH) > MAX_DEPTH:
        raise error(f"{where}: JSON nested deeper than {MAX_DEPTH} levels")
    try:
        if keep_huge:
            return json.loads(text, parse_constant=_reject_constant, parse_float=_float_or_huge,
                              parse_int=_int_or_huge)
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except JSONInputError as exc:
        raise error(f"{where}: {exc}") from None
    except RecursionError:
        raise error(f"{where}: JSON nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except ValueError as exc:  # an integer past Python's 4,300-digit limit (fatk8)
        raise error(f"{where}: not valid JSON ({str(exc)[:80]})") from None


def parse(text: str | bytes) -> Any:
    """``json.loads`` for a file or a record someone else may have written (issue 11, fatk8).

    Every bad input raises :class:`json.JSONDecodeError` (a ``ValueError``), which the
    readers of state files, journals and logs already catch: nesting deep enough to
    exhaust the parser's recursion (RecursionError), an integer past Python's
    4,300-digit limit (a bare ValueError) and bytes that are not UTF-8
    (UnicodeDecodeError) used to escape them as an "unexpected" error naming no file.
    NaN and Infinity are accepted as ``json.loads`` accepts them (the callers check values).

    Raises:
        json.JSONDecodeError: any malformed document, as above.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError("JSON nested too deeply", "", 0) from None
    except (ValueError, UnicodeDecodeError, OverflowError) as exc:
        raise json.JSONDecodeError(f"not valid JSON ({exc.__class__.__name__}: {str(exc)[:80]})", "", 0) from None


def dumps(doc: Any, **kwargs: Any) -> str:
    """``json.dumps`` with ``allow_nan=False`` (ValueError on NaN or an infinity)."""
    return json.dumps(doc, allow_nan=False, **kwargs)


def map_strings(doc: object, fn: Callable[[str], object]) -> object:
    """``doc`` (a JSON-like document: dicts, lists and tuples of strings and scalars) with ``fn``
    applied to every string value (keys unchanged; tuples come back as lists). Standard library
    only: the per-turn ``detect.py`` uses it to mask typed values in its result."""
    if isinstance(doc, str):
        return fn(doc)
    if isinstance(doc, dict):
        return {k: map_strings(v, fn) for k, v in doc.items()}
    if isinstance(doc, (list, tuple)):
        return [map_strings(v, fn) for v in doc]
    return doc
