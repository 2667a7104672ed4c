"""Decoded views of text in the common transport encodings (issue 10, attack round 5).

A token or a number copied from a URL, a JSON string, an HTML page, a mail or
a blob arrives encoded: ``ghp%5F…``, ``ghp\\u005f…``, ``ghp&#95;…``,
``ghp=5F…``, hex, Base32 or Base64. One standard decode gives the value back,
so the detector (:func:`memory_manager.privacy.scan`) also scans the decoded
view of every line that holds such a shape, and what it finds there counts as
it would in plain text. Decoded here:

- percent-encoding (RFC 3986 s.2.1), the bytes read as UTF-8 (``%E7%94%B5``
  is 电);
- backslash escapes: ``\\uXXXX`` with surrogate pairs joined (RFC 8259 s.7,
  JSON), ``\\u{X…}`` (ECMAScript 2015), ``\\UXXXXXXXX``, ``\\xXX`` and
  octal ``\\137`` (Python and C string literals, ISO C s.6.4.4.4: one to
  three octal digits, at most ``\\377``; a run of ``\\x`` or octal bytes is
  read as UTF-8, else one character each, as a Python string literal reads
  them);
- HTML/XML character references, numeric and named (WHATWG HTML "character
  references", through :func:`html.unescape`);
- quoted-printable ``=XX`` (RFC 2045 s.6.7); ``=`` also assigns values in
  config lines (``retries=20``, ``id=7c9e…``), so a lone escape is decoded
  only when it is upper case, as RFC 2045 writes them, and gives a character
  that is not a letter or digit (``=5F`` is ``_``; ``=41`` and ``=7c`` stay),
  a run of two or more always;
- separated hex: 8 or more byte pairs with one space or colon between them
  (``67 68 70 5f …``, a hex dump; ``67:68:70:…``), the same separator all
  along (issue 10, attack round 6);
- hex, Base32 (RFC 4648 s.6) and Base64 (RFC 4648 s.4, and s.5 URL-safe)
  runs of 16 or more characters that decode to printable UTF-8 text (a git
  hash, a UUID or an ordinary identifier decodes to binary and is left alone);
- Ascii85 (Adobe's btoa form, ``<~ ~>`` optional, ``z`` for four zero bytes)
  and Base85 (RFC 1924's alphabet, as Python's ``b85encode`` and git write
  it): runs of 20 to :data:`MAX_B85` characters with no space that hold at
  least :data:`B85_PUNCT` punctuation characters and letters of both cases
  (what encoded bytes look like; a word, a path or a URL does not), decoded
  only when the result is printable UTF-8 of 6 or more characters (issue 10,
  attack round 6);
- ROT13 (the Caesar shift by 13 of ASCII letters) of a token-shaped run:
  only where the shift turns the run's start into a published token prefix
  (:data:`ROT13_PREFIXES`: ``ghp_``, ``AKIA``, ``sk-``, ``xoxb-``, …), the run
  taken with its dots so a JWT's three parts come back whole; any other run
  is left alone, so words and identifiers are never read shifted (issue 10,
  attack round 6).

Not an encoding but the same idea: a token or a number wrapped over two
lines (a line ending in the middle of a token-shaped run, the next line
going on with it), or split over two fields that are judged as lines of one
text, is read joined (:func:`wrapped`; issue 10, attack round 6).

Cheap by construction: one regular-expression pass finds the encoded shapes;
only lines holding one that decodes are copied into a view, and a view is
decoded again (double encoding: ``%255F``, Base64 of a percent-encoded token)
up to :data:`DEPTH` times (a layer that does not decode ends it, so plain
text costs one pass whatever the depth). Each character of a view keeps the span of the
original text it came from, so a finding maps back to the encoded characters.
Standard library only (the per-turn path imports the detector); ``html`` and
``base64`` are imported when a shape of theirs is first met.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

#: How many times a view is decoded again (``%255F`` needs two; Base64 of
#: Base64 … of a token one per layer). Round 6 raised it from 3 to 8 layers:
#: a view is decoded again only while something in it still decodes, and each
#: Base64 layer is a third longer than the one inside it, so 8 layers of a
#: 40-character token stay under 400 characters per line.
DEPTH = 8
#: Shortest hex/Base32/Base64 run tried: 16 characters is 8 bytes of hex,
#: 10 of Base32, 12 of Base64 (a phone number in Base64 is 16).
MIN_RUN = 16

# The pre-check, in two passes: where an escape may start (each alternative
# opens with a literal, so ``re`` searches for it: 0.02 s over 10 MB, where
# one regex with a group per kind takes 0.8 s), then each kind's run there.
_ESCAPE_START = re.compile(r"%[0-9A-Fa-f]{2}|\\[uUx0-7]|&#?[A-Za-z0-9]|=[0-9A-Fa-f]{2}")
_ESCAPE_RUN = {
    "%": ("pct", re.compile(r"(?:%[0-9A-Fa-f]{2})+")),
    "\\": ("bs", re.compile(r"(?:\\(?:u\{[0-9A-Fa-f]{1,6}\}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}"
                             r"|[0-3][0-7]{0,2}|[4-7][0-7]?))+")),
    "&": ("ent", re.compile(r"(?:&#[0-9]{1,7};?|&#[xX][0-9A-Fa-f]{1,6};?|&[A-Za-z][A-Za-z0-9]{1,31};)+")),
    "=": ("qp", re.compile(r"(?:=[0-9A-Fa-f]{2})+")),
}
# Padding only when no hex digit follows: in ``…Rt==5F…`` the escape comes after the run.
_RUNS = re.compile(r"[A-Za-z0-9+/_-]{" + str(MIN_RUN) + r",}(?:={1,6}(?![0-9A-Fa-f]))?")
_ONE_BS = re.compile(r"\\(?:u\{([0-9A-Fa-f]{1,6})\}|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|x([0-9A-Fa-f]{2})"
                     r"|([0-3][0-7]{0,2}|[4-7][0-7]?))")
#: Separated hex: one pass over the text (0.11 s per 10 MB) is the pre-check.
_SEP_HEX = re.compile(r"[0-9A-Fa-f]{2}([ :])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){6,}")
_ONE_ENT = re.compile(r"&#[0-9]{1,7};?|&#[xX][0-9A-Fa-f]{1,6};?|&[A-Za-z][A-Za-z0-9]{1,31};")
_HEX = re.compile(r"(?:0[xX])?((?:[0-9A-Fa-f]{2})+)")
_B32 = re.compile(r"[A-Z2-7]+=*|[a-z2-7]+=*")
_B64 = re.compile(r"[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+={0,2}")
#: White space a decoded text may hold; anything else must be printable.
_SPACES = str.maketrans("\t\n\r", "   ")
#: Base85/Ascii85 candidates: runs of printable ASCII with no space, 20 to
#: MAX_B85 characters (20 encode 16 bytes). Round 7 raised it from 4,096 (tatk7: a token
#: repeated inside a 5 kB Base85 run went unread): a run is checked against the alphabet
#: before decoding (the check stops at the first character outside it), so the bound only
#: caps the work on a real Base85 blob, about 1 s of CPU per MiB; a longer one is a file.
MAX_B85 = 1 << 20
_B85_RUN = re.compile(r"[!-~]{20,}")
#: Punctuation that Base85/Ascii85 output is full of and prose, paths and URLs are not
#: (one character in three of either alphabet is one of these).
_B85_PUNCT_CHARS = frozenset("!\"#$&'()*+,;<>@[\\]^`{|}~")
#: A table that deletes them: ``len(run) - len(run.translate(...))`` counts them at C speed.
_DROP_B85_PUNCT = str.maketrans("", "", "".join(sorted(_B85_PUNCT_CHARS)))
#: At least this many of them in a run before it is decoded.
B85_PUNCT = 3
#: RFC 1924's Base85 alphabet (Python's ``b85encode``, git's binary patches).
_B85_ALPHABET = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~")
#: Token prefixes a ROT13-shifted run is checked for (the published formats the
#: detector knows: GitHub, GitLab, OpenAI/Anthropic/Stripe, Slack, AWS, Google,
#: Hugging Face, npm, PyPI, Shopify, DigitalOcean, JWT).
ROT13_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-", "sk_live_", "sk_test_",
                  "rk_live_", "xoxb-", "xoxp-", "xoxa-", "xoxs-", "xapp-", "AKIA", "ASIA", "AIza", "hf_", "npm_",
                  "pypi-", "shpat_", "dop_v1_", "eyJ")
_ROT13 = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                       "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm")
#: The first characters of each prefix, shifted: the cheap test on a run.
_ROT13_STARTS = tuple(p.translate(_ROT13) for p in ROT13_PREFIXES)
_JWT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.=")

#: A decoded piece: (start, end) in the text, the decoded characters, and for
#: each of them the (start, end) of the text it came from.
Piece = tuple[int, int, str, list[tuple[int, int]]]


def _printable(s: str) -> bool:
    return s.translate(_SPACES).isprintable()


def _decoded_text(data: bytes) -> str | None:
    """``data`` as text when it is a decode worth reading: 6 bytes or more, not only white space,
    UTF-8 and printable (white space aside); else None."""
    if len(data) < 6 or not data.strip():
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if _printable(text) else None


def _bytes_to_text(chunks: list[tuple[int, int, bytes]]) -> tuple[str, list[tuple[int, int]]] | None:
    """UTF-8 text of consecutive byte chunks, each char with the span of the chunks it came from.

    ``chunks`` is (start, end, bytes) per escape; None when the bytes are not
    UTF-8 or the text is not printable.
    """
    data = b"".join(c[2] for c in chunks)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not _printable(text):
        return None
    # Byte offset -> chunk, to give each character the escapes it spans.
    owner: list[int] = []
    for i, (_s, _e, b) in enumerate(chunks):
        owner.extend([i] * len(b))
    spans, pos = [], 0
    for ch in text:
        n = len(ch.encode("utf-8"))
        first, last = chunks[owner[pos]], chunks[owner[pos + n - 1]]
        spans.append((first[0], last[1]))
        pos += n
    return text, spans


def _percent(s: str, start: int) -> tuple[str, list[tuple[int, int]]] | None:
    chunks = [(start + i, start + i + 3, bytes.fromhex(s[i + 1:i + 3])) for i in range(0, len(s), 3)]
    return _bytes_to_text(chunks)


def _quoted_printable(s: str, start: int) -> tuple[str, list[tuple[int, int]]] | None:
    out = _percent(s, start)  # the same shape with "=" for "%"
    if out is None:
        return None
    if len(s) == 3 and (out[0].isalnum() or s != s.upper()):
        # A lone ``=41`` in ``key=41`` is a value, not an escape; so is the
        # ``=7c`` of ``id=7c9e6679-…``: RFC 2045 writes escapes in upper case.
        return None
    return out


def _backslash(s: str, start: int) -> tuple[str, list[tuple[int, int]]] | None:
    """Decode a run of ``\\u``/``\\U``/``\\x`` escapes (see the module docstring)."""
    text: list[str] = []
    spans: list[tuple[int, int]] = []
    xs: list[tuple[int, int, bytes]] = []

    def flush() -> bool:
        if not xs:
            return True
        got = _bytes_to_text(xs)
        if got is None:  # not UTF-8: one character per byte, as a Python literal reads them
            got = ("".join(chr(b[2][0]) for b in xs), [(b[0], b[1]) for b in xs])
        text.append(got[0])
        spans.extend(got[1])
        xs.clear()
        return True

    high: tuple[int, int] | None = None  # a pending high surrogate: (code, start)
    for m in _ONE_BS.finditer(s):
        a, b = start + m.start(), start + m.end()
        if m.group(4) is not None:
            xs.append((a, b, bytes.fromhex(m.group(4))))
            continue
        if m.group(5) is not None:
            xs.append((a, b, bytes((int(m.group(5), 8),))))
            continue
        flush()
        code = int(m.group(1) or m.group(2) or m.group(3), 16)
        if high is not None:
            if 0xDC00 <= code <= 0xDFFF:
                text.append(chr(0x10000 + ((high[0] - 0xD800) << 10) + (code - 0xDC00)))
                spans.append((high[1], b))
                high = None
                continue
            return None  # a lone high surrogate: not text
        if 0xD800 <= code <= 0xDBFF:
            high = (code, a)
            continue
        if code > 0x10FFFF or 0xDC00 <= code <= 0xDFFF:
            return None
        text.append(chr(code))
        spans.append((a, b))
    flush()
    if high is not None:
        return None
    out = "".join(text)
    return (out, spans) if _printable(out) else None


def _entities(s: str, start: int) -> tuple[str, list[tuple[int, int]]] | None:
    import html  # 10 ms with its entity table: only where a reference is met

    text: list[str] = []
    spans: list[tuple[int, int]] = []
    for m in _ONE_ENT.finditer(s):
        got = html.unescape(m.group())
        if got == m.group():
            return None  # an unknown name (``&foo;``): not a reference
        text.append(got)
        spans.extend([(start + m.start(), start + m.end())] * len(got))
    out = "".join(text)
    return (out, spans) if _printable(out) else None


#: Runs up to this length have their decode remembered (notes repeat the same
#: hashes and ids); longer ones (a data: URI) are decoded each time, never kept.
_CACHED_RUN = 256


def _blob(run: str) -> tuple[str, str, int] | None:
    """:func:`_decode_blob`, remembered for short runs."""
    return _decode_blob_cached(run) if len(run) <= _CACHED_RUN else _decode_blob(run)


def _decode_blob(run: str) -> tuple[str, str, int] | None:
    """(kind, decoded text, characters before the encoded data) of a hex/Base32/Base64 run, or None.

    Tried in that order (hex digits are Base64 too); only a decode that gives
    printable UTF-8 of 6 or more characters counts.
    """
    import base64
    import binascii

    attempts: list[tuple[str, int, bytes]] = []
    m = _HEX.fullmatch(run)
    if m:
        attempts.append(("hex", m.start(1), bytes.fromhex(m.group(1))))
    if _B32.fullmatch(run):
        body = run.rstrip("=")
        if len(body) % 8 in (0, 2, 4, 5, 7):
            try:
                attempts.append(("base32", 0, base64.b32decode(body + "=" * (-len(body) % 8), casefold=True)))
            except (binascii.Error, ValueError):
                pass
    if _B64.fullmatch(run):
        body = run.rstrip("=")
        if len(body) % 4 != 1:
            alt = b"-_" if ("-" in body or "_" in body) else None
            try:
                attempts.append(("base64", 0, base64.b64decode(body + "=" * (-len(body) % 4), altchars=alt,
                                                              validate=True)))
            except (binascii.Error, ValueError):
                pass
    for kind, skip, data in attempts:
        text = _decoded_text(data)
        if text is not None:
            return kind, text, skip
    return None


_decode_blob_cached = lru_cache(maxsize=8192)(_decode_blob)


def _blob_piece(run: str, start: int) -> tuple[str, list[tuple[int, int]]] | None:
    got = _blob(run)
    if got is None:
        return None
    kind, text, skip = got
    # bytes -> characters of the run: hex 2 per byte, Base32 8 per 5, Base64 4 per 3
    num, den = {"hex": (2, 1), "base32": (8, 5), "base64": (4, 3)}[kind]
    base, end = start + skip, start + len(run)
    spans, pos = [], 0
    for ch in text:
        n = len(ch.encode("utf-8"))
        spans.append((base + pos * num // den, min(end, base + -(-(pos + n) * num // den))))
        pos += n
    # The first character owns a ``0x`` prefix, the last one the padding: a value
    # decoded from the whole run covers the whole run.
    spans[0] = (start, spans[0][1])
    spans[-1] = (spans[-1][0], end)
    return text, spans


def _b85_piece(run: str, start: int) -> tuple[str, list[tuple[int, int]]] | None:
    """Decode a Base85/Ascii85 candidate run (see the module docstring); None when it is not one."""
    body = run[2:-2] if run.startswith("<~") and run.endswith("~>") else run
    if not (20 <= len(body) <= MAX_B85) or len(body) - len(body.translate(_DROP_B85_PUNCT)) < B85_PUNCT \
            or body.lower() == body or body.upper() == body:
        return None
    import base64

    attempts = []
    if all(c in _B85_ALPHABET for c in body):
        attempts.append(base64.b85decode)
    if all("!" <= c <= "u" or c == "z" for c in body):
        attempts.append(base64.a85decode)
    for decode in attempts:
        try:
            data = decode(body.encode("ascii"))
        except ValueError:  # binascii.Error is a ValueError
            continue
        text = _decoded_text(data)
        if text is not None:
            # Each character stands for the whole run (5 characters per 4 bytes, not worth mapping finer).
            return text, [(start, start + len(run))] * len(text)
    return None


def _rot13_piece(text: str, start: int, end: int) -> tuple[int, int, str, list[tuple[int, int]]] | None:
    """A token-shaped run at ``text[start:end]`` read with ROT13, when that gives a known token prefix."""
    if not text.startswith(_ROT13_STARTS, start):
        return None
    # Take the dots and parts around it too: a JWT's three parts shift back together.
    while end < len(text) and text[end] in _JWT_CHARS:
        end += 1
    run = text[start:end]
    return start, end, run.translate(_ROT13), [(i, i + 1) for i in range(start, end)]


def pieces(text: str) -> list[Piece]:
    """Every encoded stretch of ``text`` that decodes, in order (see the module docstring)."""
    out: list[Piece] = []
    pos = 0
    while True:
        hint = _ESCAPE_START.search(text, pos)
        if hint is None:
            break
        kind, run_of = _ESCAPE_RUN[text[hint.start()]]
        m = run_of.match(text, hint.start())
        if m is None:
            pos = hint.start() + 1
            continue
        pos = m.end()
        s, start = m.group(), m.start()
        if kind == "pct":
            got = _percent(s, start)
        elif kind == "bs":
            got = _backslash(s, start)
        elif kind == "ent":
            got = _entities(s, start)
        else:
            got = _quoted_printable(s, start)
        if got is not None:
            out.append((start, m.end(), got[0], got[1]))
    if ":" in text or " " in text:
        for m in _SEP_HEX.finditer(text):
            start = m.start()
            if any(s < m.end() and start < e for s, e, _, _ in out):
                continue
            chunks = [(start + i, start + i + 2, bytes.fromhex(m.group()[i:i + 2]))
                      for i in range(0, len(m.group()), 3)]
            got = _bytes_to_text(chunks)
            if got is not None and len(got[0]) >= 6 and got[0].strip():
                out.append((start, m.end(), got[0], got[1]))
        out.sort(key=lambda p: p[0])
    blob = _blob
    runs = []
    for m in _RUNS.finditer(text):
        if blob(m.group()) is not None:
            runs.append((m.start(), m.end(), m.group()))
            continue
        shifted = _rot13_piece(text, m.start(), m.end())
        if shifted is not None and not any(s < shifted[1] and shifted[0] < e for s, e, _, _ in out):
            out.append(shifted)
    if len(out) > 1:
        out.sort(key=lambda p: p[0])
    if runs:
        # A run beside an escape (``\u005fk3Jd…``) is read again in the next view, once decoded.
        taken = [(s, e) for s, e, _, _ in out]
        for start, end, run in runs:
            if any(s < end and start < e for s, e in taken):
                continue
            got = _blob_piece(run, start)
            if got is not None:
                out.append((start, end, got[0], got[1]))
        out.sort(key=lambda p: p[0])
    return _with_b85(text, out)


def _with_b85(text: str, out: list[Piece]) -> list[Piece]:
    """``out`` with the Base85/Ascii85 runs of ``text`` that decode and overlap nothing in it, in order."""
    added = False
    for m in _B85_RUN.finditer(text):
        run, start = m.group(), m.start()
        if len(run) > MAX_B85 + 4 or len(run) - len(run.translate(_DROP_B85_PUNCT)) < B85_PUNCT:
            continue
        got = _b85_piece(run, start)
        if got is None or any(s < m.end() and start < e for s, e, _, _ in out):
            continue
        out.append((start, m.end(), got[0], got[1]))
        added = True
    if added:
        out.sort(key=lambda p: p[0])
    return out


def _decode_lines(text: str) -> tuple[str, list[int], list[int]] | None:
    """The lines of ``text`` that hold a decodable piece, decoded, with each character's source span.

    Returns (view, starts, ends) or None when nothing decodes: ``view[i]``
    came from ``text[starts[i]:ends[i]]``. Lines keep their line break, so
    no rule matches across two of them.
    """
    found = pieces(text)
    if not found:
        return None
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def copy(a: int, b: int) -> None:
        parts.append(text[a:b])
        starts.extend(range(a, b))
        ends.extend(range(a + 1, b + 1))

    line_end = -1  # end (exclusive) of the last line copied
    pos = 0
    for start, end, decoded, spans in found:
        if start >= line_end:  # a new line: finish the previous one, start this one
            if line_end > 0:
                copy(pos, line_end)
            line_start = text.rfind("\n", 0, start) + 1
            nl = text.find("\n", end)
            line_end = len(text) if nl < 0 else nl + 1
            pos = line_start
        copy(pos, start)
        parts.append(decoded)
        starts.extend(s for s, _ in spans)
        ends.extend(e for _, e in spans)
        pos = end
        if end > line_end:  # cannot happen (no piece holds a line break), kept safe
            line_end = end
    copy(pos, line_end)
    return "".join(parts), starts, ends


#: A line break with token-shaped characters on both sides (the text before
#: it is checked in Python: a literal-led search is the cheap pre-check).
_WRAP_AFTER = re.compile(r"\n[ \t]*([A-Za-z0-9_+/=-]{4,})")
#: A tail with no digit or ``_`` still goes on a token when it is the whole next line and this long.
_WHOLE_LINE_TAIL = 8
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=-")
#: The run before the break: at least this many characters; both runs hold a
#: digit or an underscore (a word wrapped in prose is no token).
_WRAP_BEFORE = 6
_HAS_DIGIT = re.compile(r"[0-9_]")
_KEY_FIRST = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*=")


#: Characters that show nothing (soft hyphen, zero-width space/joiners, marks, word joiner, BOM):
#: typed or pasted inside a token or at a line break, they are read as absent.
_INVISIBLE = frozenset("\u00ad\u180e\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff")
#: What may stand after a run at a line's end: white space, a table bar, a shell or Markdown
#: continuation backslash.
_WRAP_TRAIL = frozenset(" \t\r|\\\uff5c") | _INVISIBLE
#: A token character (ASCII or full-width), a character that shows nothing, the lead and the trail.
_TOK_CLASS = "A-Za-z0-9_+/=\\-\uff0b\uff0d\uff0f\uff10-\uff19\uff1d\uff21-\uff3a\uff3f\uff41-\uff5a"
_INVISIBLE_CLASS = "\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff"
#: The cheap pre-check: a line break, a lead and 4 token characters (literal-led: one pass over the
#: text); the line before is then read in Python (:func:`_run_before`).
_WRAP_AT = re.compile("\n[ \t\u3000>|\uff1e\uff5c" + _INVISIBLE_CLASS + "]*[" + _TOK_CLASS + "]{4}")
#: The longest piece read on either side of a break.
_WRAP_MAX = 256


#: A piece as the rules read it: full-width token characters as ASCII, invisible characters gone.
_FOLD_PIECE = {**{o: o - 0xFEE0 for o in range(0xFF01, 0xFF5F)}, **{ord(c): None for c in _INVISIBLE}}
#: The characters of a run: token characters, ASCII or full-width, and characters that show nothing.
_RUN_CHARS = _TOKEN_CHARS | frozenset(chr(o) for o in range(0xFF01, 0xFF5F) if chr(o - 0xFEE0) in _TOKEN_CHARS) \
    | _INVISIBLE
#: The run that starts a line and the trail after it. Its lead, what may stand before a wrapped run's next
#: piece: indentation (an ideographic space too), a quote prefix of any depth (``>``, ``> >``, full-width
#: ``＞``), a table's bars and empty cells, characters that show nothing.
_RUN_START = re.compile("[ \t\u3000>|\uff1e\uff5c" + _INVISIBLE_CLASS + "]*([" + _TOK_CLASS + _INVISIBLE_CLASS
                        + "]{1,256})[ \t\r|\\\\\uff5c" + _INVISIBLE_CLASS + "]*")


def _positions(text: str, span: tuple[int, int]) -> list[int]:
    """The offsets of ``span`` that are not invisible characters."""
    return [p for p in range(*span) if text[p] not in _INVISIBLE]


def wrapped(text: str) -> tuple[str, list[int], list[int]] | None:
    """The token-shaped runs of ``text`` that line breaks cut, read joined, as a view.

    A run of 6+ token characters (``[A-Za-z0-9_+/=-]``, full-width forms
    too) at the end of a line followed by a run of 4+ at the start of the
    next, each holding a digit or ``_`` (the second may instead be the whole
    next line, 8+ characters: ``hf_…`` / ``NnCq…``; or the first a run of 8+
    before a second that has one), is read as one run (``ghp_k3Jd…`` /
    ``…Ua7Gf``, ``415-555`` / ``-0132``). What wraps a value in notes and
    mail is read through: any number of lines (a next piece that is its
    whole line goes on to the line after), a quote prefix of any depth
    (``> ``, ``> > ``), a table's bars and empty cells, a continuation
    backslash, indentation and characters that show nothing (U+200B at the
    break); a ``-`` ending a piece is read kept and, on a second view line,
    dropped (a hyphenated wrap). Returns (view, starts, ends) as
    :func:`views` does, or None when no break qualifies. Source: issue 10,
    attack round 6 (a token wrapped over two lines, or cut between two
    fields, passed); atk11 (three lines, quoted or full-width lines, U+200B
    or ``-`` at the break, a trailing ``\\``, table rows).
    """
    if "\n" not in text:
        return None
    chains: list[list[tuple[int, int]]] = []
    chain_text = ""
    last_tail: tuple[int, int] | None = None
    n = len(text)
    for m in _WRAP_AT.finditer(text):
        k = m.start()
        before = text[k - 1] if k else ""
        if not (before in _TOKEN_CHARS or before in _WRAP_TRAIL or "\uff01" <= before <= "\uff5e"):
            last_tail = None
            continue
        e = k
        while e > 0 and text[e - 1] in _WRAP_TRAIL and k - e < 16:
            e -= 1
        i = e
        while i > 0 and text[i - 1] in _RUN_CHARS and e - i < _WRAP_MAX:
            i -= 1
        head = (i, e)
        head_s = text[head[0]:head[1]].translate(_FOLD_PIECE)
        if len(head_s) < _WRAP_BEFORE:
            last_tail = None
            continue
        after = _RUN_START.match(text, k + 1)
        if after is None:
            last_tail = None
            continue
        tail = after.span(1)
        whole = after.end() >= n or text[after.end()] == "\n"
        tail_s = text[tail[0]:tail[1]].translate(_FOLD_PIECE)
        going_on = last_tail is not None and bool(chains) and head == last_tail
        # A run that goes on is judged whole so far: a middle piece without a digit is still its run's.
        if going_on:
            head_s = chain_text
        head_digit, tail_digit = bool(_HAS_DIGIT.search(head_s)), bool(_HAS_DIGIT.search(tail_s))
        # A digit or ``_`` on both sides, or on one side with the other a long piece: the whole next line
        # of 8+ after a head that has one, a head of 8+ before a tail that has one (``glpat-ErQHQw-`` /
        # ``jya…3MoJ``). A word wrapped in prose has none.
        joins = (head_digit and (tail_digit or (whole and len(tail_s) >= _WHOLE_LINE_TAIL))) or \
            (tail_digit and len(head_s) >= _WHOLE_LINE_TAIL)
        if len(tail_s) < 4 or _KEY_FIRST.match(tail_s) or not joins:
            last_tail = None
            continue
        if going_on:
            chains[-1].append(tail)  # the last piece was its whole line: the run goes on
            chain_text += tail_s
        else:
            chains.append([head, tail])
            chain_text = head_s + tail_s
        last_tail = tail if whole else None
    if not chains:
        return None
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def emit(positions: list[int]) -> None:
        if parts:
            parts.append("\n")
            starts.append(positions[0])
            ends.append(positions[0])
        parts.append("".join(text[p] for p in positions))
        starts.extend(positions)
        ends.extend(p + 1 for p in positions)

    for spans in chains:
        pieces = [_positions(text, span) for span in spans]
        emit([p for piece in pieces for p in piece])
        cut = [i < len(pieces) - 1 and text[piece[-1]] in "-\uff0d" for i, piece in enumerate(pieces)]
        if any(cut):
            # A hyphen at the break may be the wrap's, not the value's: read it dropped too.
            emit([p for piece, drop in zip(pieces, cut) for p in (piece[:-1] if drop else piece)])
    return "".join(parts), starts, ends


def views(text: str, depth: int = DEPTH,
          too_deep: list[tuple[int, int]] | None = None) -> Iterator[tuple[str, list[int], list[int]]]:
    """Yield the decoded views of ``text``: (view, starts, ends), once per decoding depth.

    ``view[i]`` stands for ``text[starts[i]:ends[i]]`` (offsets in ``text``
    as given). Nothing is yielded when no encoded shape in ``text`` decodes
    (the common case costs one regular-expression pass).

    ``too_deep``: when given, and the view after ``depth`` layers still holds
    something that decodes, the spans of ``text`` (start, end offsets) it
    came from are appended to it: a value encoded more times than is read
    (tatk7: 9 layers of Base64 hid a token) that the caller can treat as
    unreadable rather than as clean.
    """
    current: str = text
    starts: list[int] | None = None
    ends: list[int] | None = None
    for _ in range(depth):
        got = _decode_lines(current)
        if got is None:
            return
        view, vs, ve = got
        if starts is not None and ends is not None:
            vs = [starts[i] for i in vs]
            ve = [ends[i - 1] for i in ve]
        yield view, vs, ve
        current, starts, ends = view, vs, ve
    if too_deep is not None and starts and ends:
        deeper = _decode_lines(current)
        if deeper is not None:
            _view, ds, de = deeper
            if ds and de:
                too_deep.append((starts[ds[0]], ends[de[-1] - 1]))
