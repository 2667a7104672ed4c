"""The structural context of a note: public material that looks random but is no secret.

A line of a note is not judged alone when the note says what it is part of
(privacy issue 9, multi-line set I: a Base64 line of a certificate, of a PGP
public key, of an ``ssh-rsa AAAA…`` key wrapped by a terminal, or of a gzip'd
log pasted into chat read as a random secret). :func:`public_spans` finds the
stretches of a text that are, by their own bytes, public or harmless:

- armoured blocks whose label says public (``-----BEGIN CERTIFICATE-----``,
  ``… PUBLIC KEY-----``, ``PGP PUBLIC KEY BLOCK``, ``PGP SIGNATURE``,
  certificate requests and CRLs; RFC 7468, RFC 4880 s.6.2), the whole block
  up to its END line, unless the body decodes like a private key (DER
  version INTEGER first, RFC 8017 A.1.2 / RFC 5208 s.5 / RFC 5915 s.3) or
  an OpenPGP secret-key packet (tag 5 or 7, RFC 4880 s.4.3);
- OpenSSH public keys (``ssh-ed25519 AAAA…``, RFC 4253 s.6.6 wire format,
  RFC 5656, the ``sk-`` FIDO types) whose Base64 body opens with the length
  and name of the key type it is labelled with, including the lines a
  terminal wrapped it over;
- a block of Base64 lines (one or more whole lines of 40+ Base64 characters,
  all but the last of one width, as an encoder or a terminal wraps them)
  whose joined bytes open with the magic number of a public format: gzip
  (RFC 1952) whose content is binary, PNG, JPEG, GIF, WebP, PDF, ZIP, bzip2,
  xz, 7z, WOFF fonts; a DER certificate or SubjectPublicKeyInfo (RFC 5280
  s.4.1: a SEQUENCE first inside the outer one); an OpenPGP public-key or
  signature packet; an SSH public-key blob;
- a Subresource-Integrity hash (``sha512-…``, W3C SRI s.3.1; npm and yarn
  lock files) wrapped over lines;
- the public members of a JSON Web Key (``"n"``, ``"e"``, ``"x"``, ``"y"``,
  ``"x5c"``) in a text that holds a ``"kty"``, wrapped or not.

A Base64 block (or a gzip'd one) that decodes to printable text is not
skipped but read decoded instead (:func:`text_blocks`): what the text says
counts, not how random its encoding looks.

Standard library only (the detector may run on the per-turn path).
"""
from __future__ import annotations

import re
from functools import lru_cache

#: Labels of armoured blocks that hold public material only (RFC 7468 s.5-s.11, RFC 4880 s.6.2).
_PUBLIC_ARMOUR = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*(?:PUBLIC KEY|CERTIFICATE|CERTIFICATE REQUEST|X509 CRL|PGP PUBLIC KEY BLOCK|"
    r"PGP SIGNATURE|SSH2 PUBLIC KEY|(?:DH|EC|DSA) PARAMETERS))-----")
#: A whole line of Base64 characters (led by the line break: ``re`` then searches for a literal, 0.06 s per 10 MB).
_B64_LINE = re.compile(r"\n[ \t]*([A-Za-z0-9+/_-]{4,}={0,2})[ \t]*(?=\r?\n|$)")
_B64_FIRST = re.compile(r"[ \t]*([A-Za-z0-9+/_-]{4,}={0,2})[ \t]*(?=\r?\n|$)")
#: The shortest line that starts a block.
_BLOCK_WIDTH = 40
_SSH_BODY = re.compile(r"AAAA[A-Za-z0-9+/]+={0,2}")
_SSH_TYPE = re.compile(r"(?:^|[^\w-])(ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp(?:256|384|521)|"
                       r"sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)$")
#: The public members of a JSON Web Key (RFC 7518 s.6.2.1, s.6.3.1: "n", "e", "x", "y"; RFC 7517 s.4.7:
#: the certificate chain): their values are public whatever their length. Private members ("d", "p",
#: "q", "dp", "dq", "qi", "k") are not listed and stay judged.
_JWK_PUBLIC = re.compile(r'"(?:n|e|x|y|x5c|x5t|x5t#S256)"[ \t]*:[ \t]*\[?[ \t]*"')
#: A JWK member's value: Base64url (Base64 in "x5c"), possibly wrapped, nothing else (tatk7).
_JWK_VALUE = re.compile(r"(?:[A-Za-z0-9+/_-]+[ \t]*\r?\n?[ \t]*)*={0,2}")


def _jwk_public(member: str, value: str) -> bool:
    """True when ``value`` is what the public JWK ``member`` holds (RFC 7518 s.6.2.1, s.6.3.1;
    RFC 7517 s.4.6-4.9): Base64url of the right size, an "x5c" certificate as DER. A token or a
    password in a "public" member is judged as any text (tatk7)."""
    if not _JWK_VALUE.fullmatch(value):
        return False
    data = _b64(re.sub(r"\s+", "", value))
    if data is None:
        return False
    name = member[1:member.index('"', 1)]
    if name == "n":
        return len(data) >= 64
    if name == "e":
        return 1 <= len(data) <= 8
    if name in ("x", "y"):
        return len(data) in (32, 48, 56, 57, 66)
    if name == "x5t":
        return len(data) == 20
    if name == "x5t#S256":
        return len(data) == 32
    return _der_public(data)  # x5c
_SRI = re.compile(r"sha(?:256|384|512)-[A-Za-z0-9+/]{20,}={0,2}")
_RUN_AT_START = re.compile(r"[ \t]*([A-Za-z0-9+/_-]+={0,2})")
_BINARY_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"%PDF", b"PK\x03\x04", b"BZh", b"\xfd7zXZ",
                 b"7z\xbc\xaf", b"wOFF", b"wOF2", b"OggS", b"fLaC", b"ID3", b"\x00\x00\x01\x00")
#: Longest decoded block examined (bytes); longer blocks are left to the line rules.
_MAX_BLOCK = 1 << 20


def _b64(data: str) -> bytes | None:
    import base64
    import binascii

    body = data.rstrip("=")
    if len(body) % 4 == 1:
        body = body[:-1]
    alt = b"-_" if ("-" in body or "_" in body) else None
    try:
        return base64.b64decode(body + "=" * (-len(body) % 4), altchars=alt, validate=True)
    except (binascii.Error, ValueError):
        return None


def _der_public(der: bytes) -> bool:
    """A DER SEQUENCE whose first element is a SEQUENCE: a certificate, a CSR, a CRL or a public key."""
    if len(der) < 4 or der[0] != 0x30:
        return False
    i = 2 + (der[1] & 0x7F if der[1] & 0x80 else 0)
    return i < len(der) and der[i] == 0x30


#: OpenPGP public-key algorithm ids (RFC 4880 s.9.1, RFC 9580 s.9.1).
_PGP_ALGOS = frozenset({1, 2, 3, 16, 17, 18, 19, 20, 22, 25, 27, 28})
_PGP_SIG_TYPES = frozenset({0x00, 0x01, 0x02, 0x10, 0x11, 0x12, 0x13, 0x18, 0x19, 0x1F, 0x20, 0x28, 0x30, 0x40, 0x50})


def _pgp_tag(data: bytes) -> int | None:
    """The tag of the OpenPGP packet ``data`` opens with, when its header and first fields are well formed.

    Checked (RFC 4880 s.4.2, s.5.2.3, s.5.5.2): the length fits the data; a
    key packet (tags 5, 6, 7, 14) has version 4-6 and a known algorithm; a
    signature (tag 2) version 4-6, a known signature type and algorithm.
    Random bytes pass this about once in a million.
    """
    if len(data) < 12 or not data[0] & 0x80:
        return None
    if data[0] & 0x40:
        tag, first = data[0] & 0x3F, data[1]
        if first < 192:
            size, i = first, 2
        elif first < 224:
            size, i = ((first - 192) << 8) + data[2] + 192, 3
        elif first == 255:
            size, i = int.from_bytes(data[2:6], "big"), 6
        else:
            return None
    else:
        tag, kind = (data[0] >> 2) & 0x0F, data[0] & 3
        if kind == 3:
            return None
        n = 1 << kind
        size, i = int.from_bytes(data[1:1 + n], "big"), 1 + n
    body = data[i:]
    if size < 6 or size > len(body) + 4:
        return None
    if tag in (5, 6, 7, 14):
        return tag if body[0] in (4, 5, 6) and body[5] in _PGP_ALGOS else None
    if tag == 2:
        return tag if body[0] in (4, 5, 6) and body[1] in _PGP_SIG_TYPES and body[2] in _PGP_ALGOS else None
    return None


def _ssh_exact(data: bytes | None, name: str) -> bool:
    """Bytes that are exactly an SSH public-key blob of type ``name``: length-prefixed fields
    (RFC 4253 s.6.6) that fill the data to its last byte, the first being the type."""
    if not data or not _ssh_blob(data, name):
        return False
    i = fields = 0
    while i < len(data):
        if i + 4 > len(data):
            return False
        n = int.from_bytes(data[i:i + 4], "big")
        i += 4 + n
        fields += 1
    return i == len(data) and fields >= 2


def _ssh_blob(data: bytes, name: str | None = None) -> bool:
    """Bytes that open as an SSH public-key blob: a uint32 length, then the key type's name."""
    if len(data) < 11 or data[:2] != b"\x00\x00":
        return False
    n = int.from_bytes(data[:4], "big")
    if not 7 <= n <= 40 or len(data) < 4 + n:
        return False
    kind = data[4:4 + n]
    if name is not None:
        return kind == name.encode()
    return kind.startswith((b"ssh-", b"ecdsa-sha2-", b"sk-"))


def classify(data: bytes) -> str:
    """What decoded block bytes are: ``public`` (a public format), ``text`` (printable UTF-8), ``gzip`` or ``unknown``."""
    if data[:2] == b"\x1f\x8b":
        return "gzip"
    if data.startswith(_BINARY_MAGIC) or (data[:4] == b"RIFF" and data[8:12] in (b"WEBP", b"WAVE", b"AVI ")):
        return "public"
    if _der_public(data) or _ssh_blob(data):
        return "public"
    if _pgp_tag(data) in (2, 6, 14):  # signature, public key, public subkey packets
        return "public"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "unknown"
    if text and sum(1 for c in text if c.isprintable() or c in "\n\r\t") >= 0.97 * len(text):
        return "text"
    return "unknown"


def _gunzip(data: bytes) -> bytes | None:
    import zlib

    try:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        return d.decompress(data, _MAX_BLOCK)
    except zlib.error:
        return None


def _b64_blocks(text: str) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """Blocks of whole Base64 lines: (start, end, [(run start, run end) per line]).

    A block starts with a line of :data:`_BLOCK_WIDTH`+ characters; the lines
    right below it of the same width go on with it, and one shorter line ends it.
    """
    blocks: list[tuple[int, int, list[tuple[int, int]]]] = []
    cur: list[tuple[int, int]] = []
    last_end = -1
    first = _B64_FIRST.match(text)
    found = ([first] if first else []) + list(_B64_LINE.finditer(text))
    for m in found:
        s, e = m.span(1)
        if cur and m.start() == last_end and (m.start() == 0 or text[m.start()] == "\n") and \
                len({b - a for a, b in cur}) == 1 and not text[cur[-1][0]:cur[-1][1]].endswith("=") \
                and e - s <= cur[-1][1] - cur[-1][0]:
            cur.append((s, e))
        else:
            if cur:
                blocks.append((cur[0][0], cur[-1][1], cur))
            cur = [(s, e)] if e - s >= _BLOCK_WIDTH else []
        last_end = m.end() + (1 if text.startswith("\r", m.end()) else 0)
    if cur:
        blocks.append((cur[0][0], cur[-1][1], cur))
    return blocks


def _join(text: str, runs: list[tuple[int, int]]) -> str:
    return "".join(text[a:b] for a, b in runs)


def _continued(text: str, end: int) -> list[tuple[int, int]]:
    """The runs of Base64 characters that go on from ``end`` (the end of a line) at the start of the next lines."""
    out: list[tuple[int, int]] = []
    while end < len(text) and text[end] in "\r\n":
        nxt = end + (2 if text.startswith("\r\n", end) else 1)
        m = _RUN_AT_START.match(text, nxt)
        if m is None or not m.group(1):
            break
        out.append(m.span(1))
        end = m.end(1)
        if end < len(text) and text[end] not in "\r\n":
            break  # the run stops inside the line: the wrapped value ends here
    return out


_ARMOUR_HEADER = re.compile(r"[A-Za-z][A-Za-z0-9-]*: ")


def _armour_spans(text: str, m: re.Match[str]) -> list[tuple[int, int]]:
    """The public spans of the armoured block that ``m`` (its BEGIN line) opens, or none.

    Public only when every line up to the nearest END line of the same label is
    a Base64 line, a blank line or (PGP, SSH2) an armour header, and the body
    decodes to the public structure its label names (DER of a certificate or a
    public key, an OpenPGP public key or signature packet, an SSH public-key
    blob). The spans are the BEGIN and END lines and the Base64 lines only:
    header lines (``Comment: …``) stay judged. A block holding anything else
    (a token line, a password) is judged line by line as any text (tatk7:
    a token inside a CERTIFICATE block was dropped with the block).
    """
    label = m.group(1)
    end = text.find("-----END " + label + "-----", m.end())
    nxt = text.find("-----BEGIN ", m.end())
    if end < 0 or (0 <= nxt < end):
        return []
    stop = end + len(label) + 14
    body_spans: list[tuple[int, int]] = []
    body: list[str] = []
    headers = "PGP" in label or "SSH2" in label
    pos = text.find("\n", m.end())
    while 0 <= pos < end:
        start = pos + 1
        line_end = text.find("\n", start)
        if line_end < 0 or line_end > end:
            line_end = end
        line = text[start:line_end].strip(" \t\r")
        if start >= end:
            break
        if not line:
            headers = False
        elif _B64_FIRST.fullmatch(line) or (line.startswith("=") and len(line) <= 6 and "PGP" in label):
            if not line.startswith("=") or len(line) > 6:
                body.append(line)
            body_spans.append((start, line_end))
            headers = False
        elif headers and _ARMOUR_HEADER.match(line):
            pass  # an armour header: judged with the rest of the text
        else:
            return []
        pos = line_end
    data = _b64("".join(body)) if body else None
    if not data:
        return []
    if "PGP" in label:
        public = _pgp_tag(data) in (2, 6, 14)
    elif "SSH2" in label:
        public = _ssh_blob(data)
    elif "PARAMETERS" in label or "RSA PUBLIC" in label:
        public = data[:1] == b"\x30"
    else:
        public = _der_public(data)
    if not public:
        return []
    return [(m.start(), m.end())] + body_spans + [(end, stop)]


def public_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` (offsets as given) holding public material only; see the module docstring.

    Args:
        text: a note or any text; its lines as they are.

    Returns sorted, possibly overlapping (start, end) character spans; empty
    when the text holds none (the common case costs three literal-led searches).
    """
    spans: list[tuple[int, int]] = []
    if "-----BEGIN " in text:
        for m in _PUBLIC_ARMOUR.finditer(text):
            spans.extend(_armour_spans(text, m))
    for m in _SSH_BODY.finditer(text):
        gap = m.start()
        while gap and text[gap - 1] in " \t":
            gap -= 1
        kind = _SSH_TYPE.search(text, max(0, gap - 40), gap) if gap < m.start() else None
        if kind is None:
            continue
        runs = [m.span()] + (_continued(text, m.end()) if m.end() < len(text) and text[m.end()] in "\r\n"
                             else [])
        # The wrapped lines count with the key only when the whole joins into one exact
        # public-key blob (tatk7: a token on the line after a key was read as its wrapping).
        while runs and not _ssh_exact(_b64(_join(text, runs)), kind.group(1)):
            runs.pop()
        if not runs:
            continue
        spans.append((kind.start(1), runs[-1][1]))
    for m in _SRI.finditer(text):
        if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_-"):
            continue
        runs = [(m.start() + m.group().index("-") + 1, m.end())]
        runs += _continued(text, m.end()) if m.end() < len(text) and text[m.end()] in "\r\n" else []
        size = {"256": 32, "384": 48, "512": 64}[m.group()[3:6]]
        # The digest's own size decides how far it goes (tatk7: the lines after a short
        # "sha512-…" were read as its wrapping): no match, no span.
        while runs and len(_b64(_join(text, runs)) or b"") != size:
            runs.pop()
        if runs:
            spans.append((m.start(), runs[-1][1]))
    if '"kty"' in text:
        for m in _JWK_PUBLIC.finditer(text):
            end = text.find('"', m.end())
            if end > 0 and end - m.end() < 4096 and _jwk_public(m.group(), text[m.end():end]):
                spans.append((m.end(), end))
    for start, end, runs, kind, _data in _classified_blocks(text):
        if kind == "public":
            spans.append((start, end))
    spans.sort()
    return spans


@lru_cache(maxsize=4)
def _classified_blocks(text: str) -> list[tuple[int, int, list[tuple[int, int]], str, bytes]]:
    out = []
    for start, end, runs in _b64_blocks(text):
        joined = _join(text, runs)
        if len(joined) > _MAX_BLOCK * 4 // 3:
            continue
        data = _b64(joined)
        if data is None or len(data) < 16:
            continue
        kind = classify(data)
        if kind == "gzip":
            inner = _gunzip(data)
            if inner is None:
                continue
            inner_kind = classify(inner)
            # A gzip of a public format is public; of anything else its readable
            # stretches are read as text (tatk7: a token behind 24 binary bytes in a
            # gzip was skipped as public).
            kind = "public" if inner_kind == "public" else "text"
            data = inner if inner_kind in ("public", "text") else \
                inner.decode("utf-8", "replace").replace("\ufffd", " ").encode("utf-8")
        out.append((start, end, runs, kind, data))
    return out


def text_blocks(text: str) -> list[tuple[int, int, str]]:
    """Base64 blocks of ``text`` that decode (through gzip, too) to printable text: (start, end, decoded text).

    The detector reads the decoded text as a view of the block (a secret in it
    counts, over the whole block's span) and does not judge the block's lines
    by their randomness.
    """
    if len(text) < 40:
        return []
    return [(start, end, data.decode("utf-8")) for start, end, _runs, kind, data in _classified_blocks(text)
            if kind == "text"]


# ---- values cut by a line break: read joined ----

#: A line that ends with a secret's label and no value: ``password:``, ``SESSION_SECRET=``,
#: ``密码：``, ``token:``, ``POSTGRES_PASSWORD: >-`` (a YAML block scalar), ``…?access_token=``.
_LABEL_END = re.compile(
    r"(?i)(?:pass(?:word|wd|phrase|code)?|pwd|token|secret|\bkey\b|_key|api[ _-]?key|credentials?|auth|"
    r"\bpin(?: code)?(?=[ \t]*(?:[:：=]|是|为)[ \t]*\r?$)|"
    r"密码|口令|密钥|秘钥|令牌|私钥|验证码|passwort|contraseña|mot de passe)"
    r"[^\n]{0,48}?(?:[:：=]|->|=>|\bis|是|为)[ \t]*(?:[|>][-+]?)?[ \t]*\r?$|"
    r"(?:^|(?<=\n))[ \t]*(?:pw|pwd|passwd|password|passphrase|密码|口令)[ \t]*\r?$")
#: A line that is one value: no space inside, not a key of its own (``name:``), not a list item or comment.
_VALUE_LINE = re.compile(r"[ \t]*([\x21-\x7e]{4,})[ \t]*\r?$")
_NOT_A_VALUE = re.compile(r"^(?:#|//|-[ \t]|-$|[-=*_]{3,}$|```)")
#: A line that is a key of its own (``name:``, ``pool_size = 26``, ``POSTGRES_USER:``) rather than a
#: value: its key is a name, as people write names (lower case, snake/kebab/dotted, UPPER_SNAKE or
#: camelCase), not a random run that holds a ``=`` (``k=nWPjTU!u7a``, ``SWv6_=wZ_pq``: passwords).
_KEY_OF_ITS_OWN = re.compile(r"[:：]$|^(?=[\w.-]{2})(?:[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*|"
                             r"_[A-Za-z0-9_]+|[a-z]+(?:[A-Z][a-z]+)+[0-9]*)[ \t]*[:：=]")
#: A line whose last whitespace-free run is a URL or an e-mail cut before its end.
_URL_TAIL = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]{1,15}://|mailto:)\S*$|[A-Za-z0-9._%+-]+@\S*$|\S+@$")
_NEXT_RUN = re.compile(r"[ \t]*(\S{3,})[ \t]*\r?")
#: The digits a line ends with (after a space, a CJK character, ``：`` or a table bar) and a line of digits only.
_DIGITS_END = re.compile(r"(?:^|(?<=[\s：:|\u3000-\u303f\u4e00-\u9fff]))(\+?\(?\d[\d \t().-]*?\d\)?-?)[ \t]*\r?$")
_DIGITS_LINE = re.compile(r"[ \t]*(\d[\d \t().-]*[\dXx])[ \t]*\r?$")


def _line_at(text: str, pos: int) -> tuple[int, int]:
    """(start, end) of the line holding ``pos``, end before its line break (and a ``\\r`` before it)."""
    s = text.rfind("\n", 0, pos) + 1
    e = text.find("\n", pos)
    e = len(text) if e < 0 else e
    return s, e - 1 if e > s and text[e - 1] == "\r" else e


def _next_line(text: str, line: tuple[int, int]) -> tuple[int, int] | None:
    k = text.find("\n", line[1])
    return None if k < 0 else _line_at(text, k + 1)


def _prev_line(text: str, line: tuple[int, int]) -> tuple[int, int] | None:
    return None if line[0] == 0 else _line_at(text, line[0] - 1)


#: Where each kind of join may start (one literal- or class-led pass over the text, so a long text
#: costs a search, not a look at every line): a separator ending a line, a URL or an address running
#: into a line break, digits on both sides of one, a table row over another.
_SEP_BREAK = re.compile(r"[:：=是为][ \t]*(?:[|>][-+]?[ \t]*)?\r?\n|"
                        # a line that is a password word alone ("pw", "密码"), the value on the next line
                        r"(?:^|(?<=\n))[ \t]*(?i:pw|pwd|passwd|password|passphrase|密码|口令)[ \t]*\r?\n")
_URL_BREAK = re.compile(r"://\S*\r?\n[ \t]*[A-Za-z0-9/?&=%._~+-]")
_AT_BREAK = re.compile(r"@\S*\r?\n[A-Za-z0-9]")
_DIGIT_BREAK = re.compile(r"\n[ \t]*\d")
_ROW_BREAK = re.compile(r"\|[ \t]*\r?\n[ \t]*\|")
#: A line that ends with a telephone label ("my phone number is", "电话：", "reach me at"), a number on the next
#: line (atk11: the number on the line below its label was read alone, as a bare digit run).
#: (found from a line that starts with a number: ``\n`` leads the search, the label is read on the line before)
_PHONE_BREAK = re.compile(r"\n[ \t]*[+(]?\d")
_PHONE_LABEL_END = re.compile(r"(?i)(?:phone|mobile|cell|\btel\b|number|whatsapp|contact|reach (?:me|her|him|us)|"
                              r"call me|text me|电话|手机|号码|联系|座机)(?:[ \t]*(?:number|no\.?|#))?"
                              r"(?:[ \t]*(?:is|are|at|on|:|：|=|是|为))?[ \t]*\r?$")
_PHONE_LINE = re.compile(r"[ \t]*(\+?\(?\d[\d \t().-]*\d)[ \t]*\r?$")
#: A run of token characters cut by a line break: 2+ at the end of a line, 16+ at the start of the next
#: (tatk9: ``ci token ghp`` then ``_k3J…`` on the next line; each half alone reads as nothing certain).
_RUN_BREAK = re.compile(r"[A-Za-z0-9_-]{2}\r?\n[A-Za-z0-9_-]{16}")
_TOKEN_RUN = re.compile(r"[A-Za-z0-9_-]+")


def _break_lines(text: str, *patterns: re.Pattern[str]) -> list[tuple[int, int]]:
    """The lines, in order, that end where one of ``patterns`` crosses a line break (and a next line follows)."""
    found = set()
    for pattern in patterns:
        for m in pattern.finditer(text):
            k = text.index("\n", m.start())
            if pattern is _DIGIT_BREAK:
                j = k - 1
                while j >= 0 and text[j] in " \t\r":
                    j -= 1
                if j < 0 or not (text[j].isdigit() or text[j] in ")-"):
                    continue
            found.add(_line_at(text, k))
    return sorted(found)


class _View:
    """A view being built: each character keeps the span of the text it stands for."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []

    def copy(self, text: str, start: int, end: int) -> None:
        self.parts.append(text[start:end])
        self.starts.extend(range(start, end))
        self.ends.extend(range(start + 1, end + 1))

    def add(self, chars: str, at: int) -> None:
        self.parts.append(chars)
        self.starts.extend([at] * len(chars))
        self.ends.extend([at] * len(chars))

    def newline(self, at: int) -> None:
        if self.parts:
            self.add("\n", at)

    def result(self) -> tuple[str, list[int], list[int]] | None:
        return ("".join(self.parts), self.starts, self.ends) if self.parts else None


def _value_chain(text: str, line: tuple[int, int] | None) -> list[tuple[int, int]]:
    """The value runs from ``line`` on: one whole-line value, then more while the last is 16+ long."""
    out: list[tuple[int, int]] = []
    while line is not None and len(out) < 6:
        s, e = line
        m = _VALUE_LINE.match(text, s, e)
        if m is None or _KEY_OF_ITS_OWN.search(m.group(1)) or _NOT_A_VALUE.match(m.group(1)):
            break
        out.append(m.span(1))
        if m.end(1) - m.start(1) < 16:
            break
        line = _next_line(text, line)
    return out


def label_joins(text: str) -> tuple[str, list[int], list[int]] | None:
    """Secrets cut from their label by a line break, and URLs or e-mail addresses wrapped, read joined.

    One view line per case (:func:`memory_manager.decoding.views` shape):

    - a line ending with a secret's label and no value (``password:``,
      ``SESSION_SECRET=``, ``密码：``, ``token: |``), then one or more lines
      that are each one value (a value of 16+ characters may go on on the
      next line): the label line, a space unless it ends with ``=``, and the
      value lines joined;
    - a line ending inside a URL or an e-mail address (its last run holds
      ``://`` or ``@``), then a line going on without a space: the run and the
      next line's first run joined.

    Returns (view, starts, ends) or None when no line qualifies. Source:
    privacy issue 9, multi-line set I (a password on the line after its
    label, ``.env`` values wrapped, a database URL cut in its password).
    """
    if "\n" not in text:
        return None
    view = _View()
    labelled = set(_break_lines(text, _SEP_BREAK))
    cut_runs = set(_break_lines(text, _RUN_BREAK))
    phone_labels = {line for line in (_line_at(text, m.start()) for m in _PHONE_BREAK.finditer(text)
                                      if m.start() and text[m.start() - 1] not in "\n0123456789")
                     if _PHONE_LABEL_END.search(text, max(line[0], line[1] - 48), line[1])}
    for s, e in sorted(labelled | cut_runs | phone_labels | set(_break_lines(text, _URL_BREAK, _AT_BREAK))):
        if s == e:
            continue
        below = _next_line(text, (s, e))
        if below is None:
            continue
        if (s, e) in phone_labels and _PHONE_LABEL_END.search(text, s, e):
            number = _PHONE_LINE.match(text, *below)
            if number is not None:
                view.newline(s)
                view.copy(text, s, e)
                view.add(" ", e)
                view.copy(text, *number.span(1))
                continue
        label = _LABEL_END.search(text, s, e) if (s, e) in labelled else None
        if label is not None:
            # One blank line between a label and its value is still its value (tatk9:
            # ``password:``, an empty line, then the password).
            value_line = below
            if value_line is not None and not text[value_line[0]:value_line[1]].strip():
                value_line = _next_line(text, value_line)
            chain = _value_chain(text, value_line) if value_line is not None else []
            if chain:
                view.newline(s)
                body_end = e
                while body_end > s and text[body_end - 1] in " \t\r|>-+":
                    if text[body_end - 1] in "|>" or (text[body_end - 1] in "-+" and text[body_end - 2:body_end - 1] == ">"):
                        body_end -= 1
                        continue
                    if text[body_end - 1] in " \t\r":
                        body_end -= 1
                        continue
                    break
                view.copy(text, s, body_end)
                if not text[s:body_end].endswith("="):
                    view.add(" ", body_end)
                for a, b in chain:
                    view.copy(text, a, b)
                continue
        if text[e - 1:e].isspace():
            continue
        if (s, e) in cut_runs:
            tail = _TOKEN_RUN.search(text, max(s, e - 200), e)
            while tail is not None and tail.end() < e:
                tail = _TOKEN_RUN.search(text, tail.end(), e)
            head = _TOKEN_RUN.match(text, below[0], below[1])
            if tail is not None and head is not None:
                view.newline(s)
                view.copy(text, tail.start(), e)
                view.copy(text, head.start(), head.end())
                continue
        run = max(text.rfind(" ", s, e), text.rfind("\t", s, e)) + 1 or s
        url = _URL_TAIL.search(text, run, e) if ("://" in text[run:e] or "@" in text[run:e]) else None
        if url is not None:
            nxt = _NEXT_RUN.fullmatch(text, below[0], below[1])
            if nxt is not None and nxt.start(1) == below[0] and not _KEY_OF_ITS_OWN.search(nxt.group(1)) \
                    and (nxt.group(1)[0].isalnum() or nxt.group(1)[0] in "/?&=%._~+-") \
                    and not nxt.group(1).startswith(("ssh-", "ecdsa-", "-----")):
                view.newline(s)
                view.copy(text, url.start(), e)
                view.copy(text, nxt.start(1), nxt.end(1))
    return view.result()


def _cells(text: str, s: int, e: int) -> list[tuple[int, int]] | None:
    """The cells of a Markdown table row (spans, stripped), or None when the line is no table row."""
    line = text[s:e].rstrip("\r")
    if not line.lstrip().startswith("|") or line.count("|") < 2:
        return None
    out, pos = [], s + line.index("|") + 1
    for part in line.strip()[1:].split("|")[:-1] if line.strip().endswith("|") else line.strip()[1:].split("|"):
        a = pos + len(part) - len(part.lstrip())
        b = pos + len(part.rstrip())
        out.append((a, max(a, b)))
        pos += len(part) + 1
    return out


def number_joins(text: str) -> tuple[str, list[int], list[int]] | None:
    """Numbers cut by a line break (a card, an ID or a phone number over two or more lines), read joined.

    Two shapes: a line ending with digits (after a space, a CJK character, ``：``)
    and the next lines made of digits only (``5269 3552 1367`` / ``5575``,
    ``card no.`` / ``6658`` / ``8202`` / …); and a Markdown table row whose
    next row holds one non-empty cell, of digits, under a cell of digits
    (a form that split the field). Each gives a view line: up to three lines of
    context before (table rules skipped) (the label), the first line, then the digits joined with a
    space and, on a second view line, without one. Returns (view, starts,
    ends) or None. The caller decides which findings count (a phone number
    needs a phone word or a country code, a card a card word: build numbers
    and counters are cut by line breaks too).
    """
    if "\n" not in text:
        return None
    view = _View()

    def context(line: tuple[int, int]) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        prev = _prev_line(text, line)
        while prev is not None and len(out) < 3:
            if prev[1] > prev[0] and not re.fullmatch(r"[ \t|:-]*", text[prev[0]:prev[1]]):
                out.append(prev)
            prev = _prev_line(text, prev)
        return out[::-1]

    def emit(line: tuple[int, int], head: tuple[int, int], tails: list[tuple[int, int]]) -> None:
        for sep in (" ", ""):
            view.newline(line[0])
            for a, b in context(line):
                view.copy(text, a, b)
                view.add(" ", b)
            view.copy(text, line[0], head[1])
            for a, b in tails:
                view.add(sep, a)
                view.copy(text, a, b)

    done = -1
    for s, e in _break_lines(text, _DIGIT_BREAK, _ROW_BREAK):
        if s <= done:
            continue
        below = _next_line(text, (s, e))
        if below is None:
            continue
        row = _cells(text, s, e)
        if row is not None:
            cells = _cells(text, *below)
            if cells is not None and len(cells) == len(row):
                filled = [k for k, (a, b) in enumerate(cells) if b > a]
                if len(filled) == 1:
                    k = filled[0]
                    up, low = row[k], cells[k]
                    if _DIGITS_LINE.fullmatch(text[up[0]:up[1]]) and _DIGITS_LINE.fullmatch(text[low[0]:low[1]]):
                        emit((s, e), up, [low])
            continue
        head = _DIGITS_END.search(text, s, e)
        if head is not None and sum(c.isdigit() for c in head.group(1)) >= 3:
            tails: list[tuple[int, int]] = []
            line: tuple[int, int] | None = below
            while line is not None and len(tails) < 5:
                m = _DIGITS_LINE.match(text, *line)
                if m is None:
                    break
                tails.append(m.span(1))
                done = line[0]
                line = _next_line(text, line)
            if tails and sum(c.isdigit() for a, b in tails for c in text[a:b]) >= 3:
                emit((s, e), head.span(1), tails)
    return view.result()
