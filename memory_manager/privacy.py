"""Detecting secrets, personal data and sensitive topics in text.

Interface shared by the memory gate, the privacy audit and cleanup:
:func:`scan` returns a list of :class:`Finding`. Each finding has a
``category`` (see :data:`CATEGORIES`), the gate ``sensitivity`` class it maps
to (the AANA memory-gate seed's classes), and whether it belongs to T3 (never
stored, the Tiers seed's rules).

All rules live in one table, :data:`RULES`; each names its source (a
provider's documentation, a standard, or a seed). Rules are regular
expressions plus checksums and validity checks: Luhn (ISO/IEC 7812-1),
ISO 7064 MOD 11-2 with a real birth date (GB 11643-1999, through
``stdnum.cn.ric``), IBAN MOD 97-10 (ISO 13616, ``stdnum.iban``), Verhoeff
(Aadhaar, ``stdnum.in_.aadhaar``), and the ``phonenumbers`` metadata for
telephone numbers. No model is downloaded.

Precision matters as much as recall, so these are deliberately *not*
findings: git hashes, UUIDs, ISO dates and timestamps, ports, IP addresses,
version numbers, order numbers, placeholders (``sk-xxxx``, ``<your key>``,
``${TOKEN}``, ``********``), service accounts in paths (``/home/runner``),
and the store's own ciphertext: Base64 in a ``> `` blockquote under an
"Encrypted"/"加密" heading, or the value of a ``ciphertext:``/``nonce:`` field.

Encoded text (percent, ``\\u``/``\\x`` escapes, HTML entities,
quoted-printable, hex/Base32/Base64 runs) is scanned decoded too, by
:mod:`memory_manager.decoding`: see :func:`scan`.

Speed: every rule runs once over the whole text (not per line) and offsets are
mapped back to lines, so 10 MB of notes scan in a few seconds (see
``bench/privacy_bench.py``). ``phonenumbers`` and ``stdnum`` are imported only
when a candidate needs checking, so importing this module costs the standard
library only (the per-turn path may import it).
"""
from __future__ import annotations

import bisect
import hashlib
import importlib
import contextvars
import math
import os
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Callable, Iterable, Iterator

from .clock import today
from . import privacy_lexicon as _lex
from .decoding import views, wrapped
from .structure import label_joins, number_joins, public_spans, text_blocks

#: Rules whose match across a line break (:func:`memory_manager.decoding.wrapped`)
#: is not counted: they judge randomness only, not a shape.
_NOT_ACROSS_LINES = frozenset({"bare_random_line"})

#: category -> (sensitivity class, is T3: never stored)
CATEGORIES: dict[str, tuple[str, bool]] = {
    "secret": ("credential", True),
    "government_id": ("private", True),
    "payment_card": ("financial", True),
    "bank_account": ("financial", True),
    "email": ("private", True),
    "phone": ("private", True),
    "address": ("private", True),
    "home_path": ("personal", False),
    "schedule": ("personal", False),
    "name": ("personal", False),
    "handle": ("personal", False),
    "health": ("health", False),
    "legal": ("legal", False),
    "financial": ("financial", False),
    "biometric": ("protected", False),
    "minor": ("protected", False),
    "protected": ("protected", False),
}

#: Categories that are sensitive *topics* (the AANA gate holds them for
#: approval) rather than identifying data; their excerpt is the keyword itself.
TOPIC_CATEGORIES = frozenset({"health", "legal", "financial", "biometric", "minor", "protected"})

#: How sure a finding is (privacy issue 9, "Confidence on every finding"):
#: ``certain`` - checksum-valid IDs and cards, published token formats, a
#: value after an explicit password/PIN/key word, key material: refused always;
#: ``possible`` - heuristic names, addresses, schedules, handles, e-mail
#: addresses, phone numbers valid under their plan: refused unless the user
#: approves (``--approved``); ``topic`` - a sensitive topic about a person:
#: held for approval by the gate, a notice (not a failure) in the audit.
CERTAIN, POSSIBLE, TOPIC = "certain", "possible", "topic"
CONFIDENCES = (CERTAIN, POSSIBLE, TOPIC)
_CERTAIN_CATEGORIES = frozenset({"secret", "government_id", "payment_card", "bank_account"})


def default_confidence(category: str) -> str:
    """The confidence of a rule of ``category`` that does not set its own (see :data:`CONFIDENCES`)."""
    if category in TOPIC_CATEGORIES:
        return TOPIC
    return CERTAIN if category in _CERTAIN_CATEGORIES else POSSIBLE


@dataclass(frozen=True)
class Finding:
    """One detected item.

    ``line`` is 1-based; ``start``/``end`` are character offsets within that
    line of the text as given (not of its normalised view); ``excerpt`` is
    already redacted (never the full secret); ``rule`` names the rule that
    fired (a key of :data:`RULES`); ``confidence`` is one of
    :data:`CONFIDENCES`.
    """

    category: str
    rule: str
    line: int
    start: int
    end: int
    excerpt: str
    confidence: str = POSSIBLE

    @property
    def sensitivity(self) -> str:
        """The gate's sensitivity class for this finding."""
        return CATEGORIES[self.category][0]

    @property
    def tier3(self) -> bool:
        """True when the Tiers seed forbids storing this at all."""
        return CATEGORIES[self.category][1]


def redact(value: str, keep: int = 4) -> str:
    """Return ``value`` with all but its first ``keep`` characters masked.

    At most a quarter of ``value`` is ever kept (so a short value is never
    readable) and at most 8 mask characters are written (the mask does not
    reveal the length of a long secret).
    """
    keep = min(keep, len(value) // 4)
    return value[:keep] + "*" * max(1, min(8, len(value) - keep))


# --------------------------------------------------------------------------
# Checks used by the rules (each returns True when the candidate is real).
# --------------------------------------------------------------------------

_PLACEHOLDER_WORDS = re.compile(
    r"(?i)x{4,}|\*{3,}|\.{3}|[<>{}]|^\$[a-z_(]|\$\{|\$\(|%[A-Z_]+%|your|example|placeholder|redacted|dummy|"
    r"sample|changeme|_here|todo|fixme|replace|insert|"
    # the same in Chinese docs: 留空 (leave blank), 待填/自行填写 (fill in yourself), 你的, 示例, 某某 (so-and-so)
    r"留空|为空|空着|不填|待填|填写|自行|你的|示例|^略|某某")
_PLACEHOLDER_VALUES = {"password", "passwd", "pass", "secret", "token", "none", "null", "empty", "string",
                       "value", "true", "false", "undefined", "required", "optional", "hidden", "masked"}


#: A shell expansion with a default value (POSIX ``${NAME:-word}`` / ``${NAME-word}``).
_SHELL_DEFAULT = re.compile(r"\$\{[A-Za-z_]\w*:?-([^{}$]+)\}$")


def is_placeholder(value: str) -> bool:
    """True for values that stand in for a secret: ``sk-xxxx``, ``<your key>``, ``${TOKEN}``, ``****``."""
    v = value.strip("'\"` ")
    default = _SHELL_DEFAULT.match(v)
    if default:
        return is_placeholder(default.group(1))  # ${DB_PASS:-s3cret}: the default is a value
    return (not v or v.lower() in _PLACEHOLDER_VALUES or bool(_PLACEHOLDER_WORDS.search(v))
            or len(set(v.lower()) - set("-_")) <= 1 and len(v) < 12)


def entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    if not value:
        return 0.0
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


_UUID = re.compile(r"(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def looks_random(value: str) -> bool:
    """True when ``value`` looks like generated key material rather than a word or identifier.

    At least 16 characters (shorter values are not worth a finding: a
    128-bit key in hex is 32, in Base64 22), at least two of
    lower/upper/digit, not a UUID (a request id, not a credential), and
    Shannon entropy >= 3.0 bits per character: English identifiers like
    ``prod-db-credentials`` stay below it, 20 random Base64 or hex
    characters sit near 4 (threshold from detect-secrets' defaults, which
    use 3.0 for hex and 4.5 for Base64 over longer strings).
    """
    v = value.strip("'\"`")
    if len(v) < 16 or _UUID.match(v) or is_placeholder(v):
        return False
    classes = sum(bool(re.search(p, v)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
    return classes >= 2 and entropy(v) >= 3.0


def _not_placeholder(value: str, _m: re.Match[str], _text: str) -> bool:
    return not is_placeholder(value)


def _openai_ok(value: str, m: re.Match[str], text: str) -> bool:
    body = value.split("-", 1)[1] if "-" in value else value
    # "sk-learn-style-words" is prose, not a key: real keys mix cases/digits.
    return not is_placeholder(body) and not re.fullmatch(r"[a-z-]+", body)


def _random_ok(value: str, _m: re.Match[str], _text: str) -> bool:
    return looks_random(value)


#: Passwords everyone knows from the published most-common lists (NordPass, SplashData, the RockYou
#: leak): after a password word they are the user's password, however plain (nu8: "pw: letmein").
_COMMON_PASSWORDS = frozenset(
    "letmein qwerty qwertyuiop iloveyou monkey dragon football baseball sunshine princess trustno1 superman "
    "starwars whatever freedom passw0rd p@ssw0rd abc123 1qaz2wsx qazwsx asdfgh zxcvbnm woaini iloveu "
    "password1 admin123 welcome1 qwerty123 aa123456 a123456 abc123456".split())
#: A lucky digit repeated (888888, 66666666): the commonest PINs and Wi-Fi passwords in China,
#: not a placeholder when a password word names it (nu8: "wifi 密码 88888888" was stored).
_REPEATED_DIGIT = re.compile(r"([1-9])\1{5,15}")


def _plain_password(v: str) -> bool:
    """A value that is a password although it looks plain: a common password, or one digit repeated."""
    return v.lower() in _COMMON_PASSWORDS or bool(_REPEATED_DIGIT.fullmatch(v))


def _pair_password(v: str) -> bool:
    """The second half of 'user / password': letters and digits with a symbol or a capital, not a path or URL."""
    if "/" in v or "://" in v or v.startswith(("<", "{", "$", "%")) or is_placeholder(v):
        return False
    return (bool(re.search(r"[A-Za-z]", v)) and bool(re.search(r"\d", v))
            and bool(re.search(r"[^A-Za-z0-9]|[A-Z]", v))) or _plain_password(v)


#: Words in a password's place that are code or a flag, not a value (round 11, kind "a code expression
#: after password =", set N: ``password = await prompt(...)``, MySQL's "(using password: YES)").
_CODE_VALUE_WORDS = frozenset("yes no true false none null nil undefined required optional await yield new "
                              "function lambda".split())


def _code_value(value: str, m: re.Match[str], text: str) -> bool:
    """The value after ``password =``/``:`` is a flag word or starts an expression (``await f(``, ``new X(``)."""
    v = _secret_value(value).lower()
    if v in ("await", "yield", "new", "function", "lambda"):
        return bool(re.match(r"[ \t]*[A-Za-z_$][\w.$]*[ \t]*[(<]", text[m.end():m.end() + 80])) or \
            text[m.end():m.end() + 1] in ("", "\n")
    return v in _CODE_VALUE_WORDS


def _password_ok(value: str, m: re.Match[str], text: str) -> bool:
    v = value.strip("'\"`")
    if _plain_password(v):
        return True
    if _code_value(value, m, text):
        return False
    # "PWD=/home/x" is the working directory, not a password; a short number
    # is a length or a count ("pwd: 12"); a 6+ digit PIN is a password.
    if v.startswith(("/", "~", ".", "\\")) or (v.isdigit() and len(v) < 6) or _SECRET_REFERENCE.match(v) \
            or _ENV_REFERENCE.match(v):
        return False
    return len(v) >= 4 and not is_placeholder(v) and not _default_credential(v, m, text)


def _default_credential(v: str, m: re.Match[str], text: str) -> bool:
    """A container image's documented default: the password is the service's own name, a word of its
    key (``POSTGRES_PASSWORD=postgres``, ``RABBITMQ_DEFAULT_PASS: guest``), or the user's name in a
    URL (``postgres://test:test@…``). Such a value unlocks nothing that is anyone's."""
    low = v.lower()
    if not re.fullmatch(r"[a-z]+", low):
        return False
    key = text[max(0, m.start() - 40):m.start(1) if m.lastindex else m.start()].lower()
    words = set(re.findall(r"[a-z]+", key.split("\n")[-1]))
    if low in words:
        return True
    user = re.search(r"://([^\s:/@]+):$", text[max(0, m.start(1) - 80):m.start(1)]) if m.lastindex else None
    return user is not None and user.group(1).lower() == low


def _cn_ric_ok(value: str, _m: re.Match[str], _text: str) -> bool:
    """GB 11643-1999: ISO 7064 MOD 11-2 check character and a real, past birth date."""
    try:
        from stdnum.cn import ric
    except ImportError:  # pragma: no cover - python-stdnum is a declared dependency
        ric = None
    number = value.upper()
    if ric is not None:
        if ric.calc_check_digit(number) != number[17]:  # stdnum wants all 18 characters
            return False
        try:
            born = ric.get_birth_date(number)
        except Exception:
            return False
    else:  # pragma: no cover
        weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
        if "10X98765432"[sum(int(c) * w for c, w in zip(number, weights)) % 11] != number[17]:
            return False
        try:
            born = date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
        except ValueError:
            return False
    return date(1900, 1, 1) <= born <= today()  # clock.today honours MEMORY_MANAGER_NOW


def luhn_valid(digits: str) -> bool:
    """Luhn mod 10 check (ISO/IEC 7812-1 annex B), from python-stdnum."""
    from stdnum import luhn

    return luhn.is_valid(digits)


#: Issuer identification number ranges and lengths of the card brands
#: (ISO/IEC 7812-1 IIN registry as published by the networks: Visa, Mastercard
#: incl. the 2-series, American Express, Discover/Diners, JCB, UnionPay, Mir,
#: Maestro). (low prefix, high prefix, allowed lengths).
CARD_IIN: list[tuple[int, int, tuple[int, ...]]] = [
    (4, 4, (13, 16, 19)),                      # Visa
    (51, 55, (16,)), (2221, 2720, (16,)),      # Mastercard
    (34, 34, (15,)), (37, 37, (15,)),          # American Express
    (6011, 6011, (16, 17, 18, 19)), (644, 649, (16, 17, 18, 19)), (65, 65, (16, 17, 18, 19)),  # Discover
    (300, 305, (14, 16, 17, 18, 19)), (36, 36, (14, 16, 17, 18, 19)), (38, 39, (16, 17, 18, 19)),  # Diners
    (3528, 3589, (16, 17, 18, 19)),            # JCB
    (62, 62, (16, 17, 18, 19)), (81, 81, (16, 17, 18, 19)),  # UnionPay
    (2200, 2204, (16, 17, 18, 19)),            # Mir
    (5018, 5018, (12, 13, 14, 15, 16, 17, 18, 19)), (5020, 5020, (12, 13, 14, 15, 16, 17, 18, 19)),
    (5038, 5038, (12, 13, 14, 15, 16, 17, 18, 19)), (6304, 6304, (12, 13, 14, 15, 16, 17, 18, 19)),
    (6759, 6759, (12, 13, 14, 15, 16, 17, 18, 19)), (6761, 6763, (12, 13, 14, 15, 16, 17, 18, 19)),  # Maestro
]


def card_issuer_ok(digits: str) -> bool:
    """True when ``digits`` starts with a real issuer prefix and has that brand's length."""
    for low, high, lengths in CARD_IIN:
        width = len(str(low))
        if len(digits) in lengths and low <= int(digits[:width]) <= high:
            return True
    return False


#: Words before a digit run that make it an order, ticket or reference number.
#: Whole words only (issue 9: the "no" inside "notes" switched a rule off).
_ORDER_CONTEXT = re.compile(r"(?i)(?:(?<![a-z])(?:order|invoice|ticket|tracking|ref|no\.?)(?![a-z])|#|订单|单号|编号|流水|工单)"
                            r"[^\n]{0,6}$")
#: Numbers reserved for fiction and documentation: NANP 555-0100..0199 (ATIS
#: INC guideline), Ofcom's drama ranges (07700 900xxx, 020 7946 0xxx, ...).
_FICTIONAL_PHONE = re.compile(r"5550[1]\d\d$|^(?:44)?0?7700900\d{3}$|^(?:44)?0?207946[0]\d{3}$|^(?:44)?0?1134960\d{3}$")
_DOC_CONTEXT = re.compile(r"(?i)example|sample|test|docs?\b|readme|reserved|fiction|placeholder|e\.g\.|such as|like|"
                          r"field|format|tutorial|fake|demo|mock|screenshot|drama|ofcom|film|movie|tv\b|"
                          r"示例|保留|测试|文档|样例|例如|比如|格式|字段|演示|影视|号段|教程|截图|假的")
_DOC_SPEC = re.compile(r"(?i)\bspec\b|specification|parser|validator|规范|标准文档")


def _made_up_digits(digits: str) -> bool:
    """True for a digit string a person types when making a number up: a run of five or more
    consecutive digits up or down (``12345``, ``98765``), six of one digit, or seven zeros in a row
    (Stripe's ``4000 0000 0000 0002``, the ECBS sample IBAN ``GB82 WEST 1234 5698 7654 32``,
    ``123-456-7890``). Issued numbers come from registers and rarely hold such runs; the
    check is used only on a line that says it is about docs or tests (:func:`_documentation_number`)."""
    if re.search(r"(\d)\1{5}|0{7}", digits):
        return True
    up = down = 1
    for a, b in zip(digits, digits[1:]):
        up = up + 1 if int(b) == (int(a) + 1) % 10 else 1
        down = down + 1 if int(b) == (int(a) - 1) % 10 else 1
        if up >= 5 or down >= 5:
            return True
    return False


def _documentation_number(digits: str, line: str) -> bool:
    """A made-up number (:func:`_made_up_digits`) on a line about docs, tests, samples or specs."""
    return _made_up_digits(digits) and bool(_DOC_CONTEXT.search(line) or _DOC_SPEC.search(line))


#: Chinese numbers every developer uses as a placeholder (China Mobile's demo number and its twin).
_PLACEHOLDER_PHONES = frozenset({"13800138000", "13900139000", "8613800138000"})
_RANGE_CONTEXT = re.compile(r"(?i)ports?\b|端口|range|段|nodeport|放行|firewall|防火墙|udp|tcp")


def _card_ok(value: str, m: re.Match[str], text: str) -> bool:
    digits = re.sub(r"\D", "", value)
    if not (13 <= len(digits) <= 19 and card_issuer_ok(digits) and luhn_valid(digits)):
        return False
    # Order and tracking numbers are long digit runs too; one written as such
    # is not a card (about 1 in 10 random numbers passes Luhn).
    before = text[max(0, m.start() - 16):m.start()]
    return not (value.isdigit() and _ORDER_CONTEXT.search(before))


def _imei_ok(value: str) -> bool:
    """An IMEI: 15 digits whose last is the Luhn check digit (stdnum.imei), not one digit repeated."""
    digits = re.sub(r"\D", "", value)
    return len(set(digits)) > 2 and luhn_valid(digits)


def _device_owner(m: re.Match[str], text: str) -> bool:
    """A device identifier tied to a person on its line (my, 我, 她, 老公的): a test unit, a company's
    device or a docs example is nobody's."""
    line = _line_around(text, m.start(), m.end())
    if _TEST_WORDS.search(line) or _SPECIMEN_LINE.search(line) or re.search(r"(?i)company|公司|device farm", line):
        return False
    return bool(_SELF.search(line) or _OWNER.search(line) or _GENERAL_ANCHOR.search(line))


def _regrouped_card_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Digits in groups of 3-6 that make a Luhn-valid card of a real issuer range, with a card word on the line."""
    digits = re.sub(r"\D", "", value)
    if not (13 <= len(digits) <= 19 and card_issuer_ok(digits) and luhn_valid(digits)):
        return False
    line = _line_around(text, m.start(), m.end())
    return bool(_CARD_CUE.search(line) or re.search(r"(?i)\bcards?\b|卡", line)) and _card_any_ok(value, m, text)


def _iban_ok(value: str, m: re.Match[str], text: str) -> bool:
    from stdnum import iban

    if _documentation_number(re.sub(r"\D", "", value[4:]), _prose(_doc_scope(text, m.start(), m.end()))):
        return False  # the spec's sample IBAN in a line about the spec or tests
    if iban.is_valid(value):
        return True
    groups = value.split()
    if len(groups) > 3 and re.fullmatch(r"[A-Z]{3,4}", groups[-1]) and iban.is_valid(" ".join(groups[:-1])):
        return True  # a BIC or a bank's code written after the grouped IBAN ("... 4671 BIC COBA...")
    value = " ".join(groups[:-1]) if len(groups) > 3 and groups[-1].isalpha() else value
    # ISO 13616's own checks (MOD 97-10, the country's length and format) with the word IBAN before it:
    # the national check digits stdnum also verifies are the bank's own matter (round 9, set M).
    before = text[max(0, m.start() - 12):m.start()].lower()
    return "iban" in before and iban.is_valid(value, check_country=False)


def _aadhaar_ok(value: str, _m: re.Match[str], _text: str) -> bool:
    from stdnum.in_ import aadhaar

    return aadhaar.is_valid(value)


def _digits_ok(low: int, high: int) -> Callable[[str, re.Match[str], str], bool]:
    def check(value: str, _m: re.Match[str], _text: str) -> bool:
        return low <= len(re.sub(r"\D", "", value)) <= high

    return check


#: Domains reserved for documentation and tests (RFC 2606, RFC 6761): an
#: address there is a placeholder, not a person.
_RESERVED_DOMAIN = re.compile(r"(?i)(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost|local|"
                              # names for private networks, never delegated (ICANN 2024 .internal; RFC 8375
                              # home.arpa; .lan, .corp, .intranet, .localdomain by usage): a host, no mailbox
                              r"internal|intranet|lan|corp|localdomain|home\.arpa)$")
_NON_PERSON_LOCAL = {"git", "hg", "noreply", "no-reply", "donotreply", "do-not-reply", "mailer-daemon", "postmaster",
                     # role mailboxes (RFC 2142 "Mailbox names for common services, roles and functions", and the
                     # desks companies answer from): a team reads them, not one person (issue 9, set K)
                     "support", "service", "services", "help", "helpdesk", "info", "contact", "sales", "billing",
                     "security", "abuse", "admin", "webmaster", "hostmaster", "dev", "devs", "team", "hello",
                     "feedback", "press", "media", "marketing", "jobs", "careers", "hr", "legal", "privacy",
                     "office", "enquiries", "inquiries", "newsletter", "notifications", "notification", "alerts",
                     "kefu", "customerservice", "cs", "ops", "it", "noc", "soc", "accounts", "payments", "orders",
                     "partners", "developers", "announce", "users", "list"}
#: Domains that issue machine identities, not mailboxes of people: Google Cloud service accounts
#: (``*.iam.gserviceaccount.com``, ``*.developer.gserviceaccount.com``), GitHub/GitLab commit
#: addresses (``users.noreply.github.com``, ``noreply.gitlab.com``), AWS SES bounce domains.
_MACHINE_DOMAIN = re.compile(r"(?i)(?:^|\.)(?:gserviceaccount\.com|noreply\.github\.com|noreply\.gitlab\.com|"
                             r"users\.noreply\.[a-z.]+|amazonses\.com|bounces?\.[a-z0-9.-]+)$")
#: Local parts of bots and service mailboxes ("release-bot@", "dependabot[bot]@", "svc-backup@").
_MACHINE_LOCAL = re.compile(r"(?i)(?:^|[-_.+])(?:bot|robot|daemon|runner|deployer|automation|svc|no-?reply)(?:$|[-_.+\d])|"
                            r"bot$|\[bot\]")


_FILE_TLDS = {"png", "jpg", "jpeg", "webp", "gif", "svg", "bmp", "ico", "avif", "heic", "css", "scss", "json",
              "yaml", "yml", "lock", "tsx", "jsx", "vue", "service", "socket", "timer", "target", "mount", "path",
              "slice", "scope", "swap", "device", "automount"}


#: Local parts that stand for anyone in a format or a template (round 13, kind "an address shown as a
#: format", set O: "user@domain.tld 只是格式示例", "name@company.com 占位符").
_GENERIC_LOCAL = frozenset("user username name someone somebody yourname your.name firstname lastname first.last "
                           "firstname.lastname first_last john.doe jane.doe email mail me foo bar abc xxx "
                           "employee staff account login".split())
#: Domains that stand for any company ("company.com", "domain.com", "yourcompany.cn"); ".tld" is none.
_GENERIC_DOMAIN = re.compile(r"(?i)^(?:domain|company|yourcompany|yourdomain|mycompany|companyname|host|"
                             r"server|corp|org|school|university)\.(?:com|org|net|cn|tld)$")
#: Words that say a line shows a format or a placeholder.
_FORMAT_CUE = re.compile(r"(?i)示例|占位|格式|样例|例如|比如|模板|举例|规则|\bformat\b|placeholder|\be\.g\.|"
                         r"\bsuch as\b|\blike\b|\bpattern\b|\btemplate\b|convention")


def _email_ok(value: str, m: re.Match[str], text: str) -> bool:
    local, _, domain = value.rpartition("@")
    if _RESERVED_DOMAIN.search(domain) or local.lower() in _NON_PERSON_LOCAL:
        return False
    if re.match(r"(?i)(?:lists?|groups|googlegroups)\.", domain) or domain.lower().startswith("googlegroups."):
        return False  # a mailing list's address (dev@lists.apache.org) reaches everyone subscribed
    if _MACHINE_DOMAIN.search(domain) or _MACHINE_LOCAL.search(local):
        return False  # a service account or a bot, not a person
    # Retina assets (banner@3x.png), systemd instances (getty@tty1.service)
    # and placeholders (you@yourdomain.com) are not addresses (issue 9).
    labels = domain.lower().split(".")
    if re.fullmatch(r"\d+(?:\.\d+)?x", labels[0]) or labels[-1] in _FILE_TLDS or is_placeholder(value):
        return False
    if labels[-1] == "tld" or (local.lower() in _GENERIC_LOCAL and (
            _GENERIC_DOMAIN.match(domain) or _FORMAT_CUE.search(_line_around(text, m.start(), m.end())))):
        return False  # a format shown, not an address: user@domain.tld, name@company.com 占位符 (round 13)
    # "git@github.com:owner/repo.git" is an SSH remote, not an address.
    return not text.startswith(":", m.end())


_DATE_SHAPE = re.compile(r"^\d{4}[-./]\d{1,2}[-./]\d{1,2}(?:\D|$)|^\d{1,2}[-./]\d{1,2}[-./]\d{4}$")
_IPV4 = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")
_CN_MOBILE = re.compile(r"^1[3-9]\d{9}$")
#: Regions tried, in order, for numbers written without a country code: the
#: bundle's users write Chinese, US and UK numbers (the seed's zh/en audience).
PHONE_REGIONS = ("CN", "US", "GB")
_NEAR_REGION = re.compile(r"(?i)\bhk\b|hong kong|香港|\bsg\b|singapore|新加坡|taiwan|台湾|臺灣|"
                          # Taiwanese cities (the text is read folded to simplified script: 臺北 -> 台北)
                          r"台北|新北|高雄|台中|台南|桃园|新竹|"
                          r"呢個|搵|佢|嘅|咗|唔|冇|\+65|\+852")
#: Words that say a number is a telephone number (for 8-digit local numbers of Hong Kong and Singapore).
_PHONE_CUE = re.compile(r"(?i)\btel\b|phone|mobile|\bcell\b|whatsapp|signal|\bcall\b|手机|电话|電話|手機|致电|打给|联系")


#: A unit right after a digit run: it counts something.
_UNIT_AFTER = re.compile(r"(?i)[ \t]*\)?[ \t]*(?:bytes?|[kmgt]i?b\b|ms\b|ns\b|µs|us\b|seconds?|secs?\b|rows?\b|records?\b|"
                         r"items?\b|requests?\b|tokens?\b|字节|毫秒|秒|条|行|次)")


def _phone_ok(value: str, m: re.Match[str], text: str) -> bool:
    digits = re.sub(r"\D", "", value)
    # E.164 allows at most 15 digits; fewer than 7 is an extension or a count.
    if not 7 <= len(digits) <= 15:
        return False
    if _DATE_SHAPE.match(value) or _IPV4.match(value):
        return False
    before = text[max(0, m.start() - 16):m.start()]
    if _ORDER_CONTEXT.search(before):
        return False
    if _UNIT_AFTER.match(text, m.end()):
        return False  # a quantity ("2147483648 bytes", "1718150400 秒"), not a number to call
    line = _line_around(text, m.start(), m.end())
    scope = _doc_scope(text, m.start(), m.end())
    if (digits in _PLACEHOLDER_PHONES or _FICTIONAL_PHONE.search(digits)) and _DOC_CONTEXT.search(scope):
        return False  # a documentation number in a line (or under a heading) that says so
    if _documentation_number(digits, scope):
        return False  # 123-456-7890 in a line about a form validator's tests
    if _number_list(value):
        return False
    if len(re.findall(r"\d+", value)) >= 6 and all(len(g) <= 2 for g in re.findall(r"\d+", value)):
        return False  # six or more numbers of one or two digits (a lottery draw, scores): no plan writes a phone so (round 13)
    if re.fullmatch(r"\d{4,5}-\d{4,5}", value.strip()) and _RANGE_CONTEXT.search(line):
        return False  # a port range (20000-20099), not a number
    international = value.startswith(("+", "00"))
    separated = bool(re.search(r"[ \t().-]", value.strip()))
    local8 = len(digits) == 8 and bool(_NEAR_REGION.search(line) or _PHONE_CUE.search(line))
    # A Taiwan mobile (09xx-xxx-xxx, NCC numbering plan) with a phone word by it.
    tw_mobile = bool(re.fullmatch(r"09\d{8}", digits)) and bool(_PHONE_CUE.search(line) or _NEAR_REGION.search(line))
    # A Taiwan landline as written there, "(02) 2973-3494" (NCC plan: area code 0X, 7-8 digits), with a phone word
    # (家裡電話 reads 家里电话 once folded); invalid as a Chinese number (022 + 7 digits), so tried as Taiwan's.
    tw_mobile = tw_mobile or bool(re.fullmatch(r"\(0\d{1,2}\)[ \t]?\d{3,4}-\d{4}", value.strip())
                                  and _PHONE_CUE.search(line))
    if not international and not separated:
        # A bare digit run is an id, a count or a timestamp unless it has the
        # exact shape of a Chinese mobile number (11 digits, 13x-19x; MIIT plan)
        # or is 8 digits with a Hong Kong/Singapore place or a phone word by it.
        if not (_CN_MOBILE.match(digits) or local8 or tw_mobile):
            return False
    if "." in value and not re.fullmatch(r"\(?\d{3}\)?\.\d{3}\.\d{4}", value):
        return False  # dotted groups are versions, IPs or decimals; US 415.555.0199 is the exception
    if (not international and _CN_MOBILE.match(digits) and re.fullmatch(r"\d+(?:[ \t]+\d+)+", value.strip())
            and [len(g) for g in value.split()] not in ([3, 4, 4], [3, 8], [1, 3, 3, 4])
            and not _PHONE_CUE.search(line)):
        # Round 13, kind "a row of numbers in a table or a benchmark" (own phrasings: "138 001 3800" as three
        # columns): eleven digits in space-separated groups that MIIT's mobile numbers are not written in
        # (they are grouped 3-4-4) and no phone word by them are columns of figures, not a mobile number.
        return False
    try:
        import phonenumbers
    except ImportError:  # pragma: no cover - declared dependency
        return bool(_CN_MOBILE.match(digits)) or international
    regions: Iterable[str | None] = (None,) if international else PHONE_REGIONS
    if not international and (_NEAR_REGION.search(line) or local8 or tw_mobile):
        # 8-digit local numbers of Hong Kong and Singapore only with the place named.
        regions = tuple(PHONE_REGIONS) + ("HK", "SG", "TW")
    if _NANP_WRITTEN.match(value.strip()):
        regions = ("US",)  # 1-888-467-2211 is grouped as the NANP writes it, not a Chinese 188 mobile
    service = False
    for region in regions:
        if region == "GB" and not international and not digits.startswith("0"):
            # Round 13, kind "figures read as a British number" (own phrasings: "138 001 3800" in a
            # benchmark row): Ofcom's national format always starts with the trunk prefix 0; without it
            # or +44 nobody writes a UK number, though the metadata parses one.
            continue
        raw = "+" + value[2:] if value.startswith("00") else value
        try:
            number = phonenumbers.parse(raw, region)
        except phonenumbers.NumberParseException:
            continue
        # With an explicit country code a number of a possible length is
        # enough: reserved ranges (Ofcom's 07700 900xxx) and newly opened
        # ones are missing from the validity metadata but still phones.
        if phonenumbers.is_valid_number(number):
            # A toll-free, shared-cost (China's 400), premium or universal access number is a
            # business's hotline (肯德基宅急送 400-820-8820, a vendor's 1-800 line), nobody's own;
            # another region may still read it as a person's (090 is a UK premium prefix, a JP mobile one).
            if phonenumbers.number_type(number) not in _SERVICE_NUMBER_TYPES:
                return True
            service = True
            continue
        if international and number.country_code != 1 and phonenumbers.is_possible_number(number):
            return True
    # A service number in every plan tried, yet the line calls it someone's mobile: a plan not tried
    # (Japan's 090 mobiles read as UK premium numbers).
    return service and bool(_MOBILE_CUE.search(line))


#: A number grouped as the North American plan writes it with its trunk 1: 1-800-555-0100, 1 (415) 555 0100.
_NANP_WRITTEN = re.compile(r"1[-. ]\(?\d{3}\)?[-. ]\d{3}[-. ]\d{4}$")
#: Words that say a number is a person's own mobile, which no service number is.
_MOBILE_CUE = re.compile(r"(?i)\bmobile\b|\bcell\b|whatsapp|手机|手機|携帯")


#: phonenumbers.PhoneNumberType values of numbers that belong to a service, not a person: TOLL_FREE (3),
#: PREMIUM_RATE (4), SHARED_COST (5), UAN (9), VOICEMAIL (10); ITU-T E.164 and national plans (MIIT's
#: 400/800, the NANP's 8XX, Ofcom's 080/084/087/09).
_SERVICE_NUMBER_TYPES = frozenset({3, 4, 5, 9, 10})


def _number_list(value: str) -> bool:
    """Five or more numbers separated by spaces or commas whose values never fall
    (``1 1 2 3 5 8 13 21``): a sequence in a text, not a telephone number written in groups."""
    groups = re.split(r"[ \t,]+", value.strip())
    if len(groups) < 5 or not all(g.isdigit() for g in groups):
        return False
    values = [int(g) for g in groups]
    return all(a <= b for a, b in zip(values, values[1:])) and len({len(g) for g in groups}) > 1


_SERVICE_USERS = {"user", "username", "users", "you", "your", "yourname", "your-name", "me", "name", "example",
                  "runner", "ubuntu", "ec2-user", "vagrant", "node", "app", "git", "www-data", "jenkins",
                  "circleci", "docker", "travis", "build", "builder", "ci", "admin", "root", "shared", "public",
                  "vscode", "codespace", "codespaces", "gitpod", "coder", "devcontainer", "postgres", "mysql",
                  "default", "default user", "all users", "guest", "nobody", "linuxbrew",
                  # round 13 (kind "a container image's default user", set H: /home/jovyan/work): Jupyter
                  # Docker Stacks (jovyan), distroless (nonroot), rocker (rstudio), common Dockerfiles (appuser)
                  "jovyan", "nonroot", "appuser", "rstudio", "app-user", "dev", "developer"}


#: A service account's name by its shape: a daemon or CI agent suffix (gitlab-runner, buildkite-agent,
#: deploy-bot, backup_svc, www-data).
_SERVICE_USER_SHAPE = re.compile(r"(?i)[-_](?:runner|agent|bot|svc|service|daemon|deploy|ci|data|worker)$|^(?:svc|ci|sa)[-_]")


def _home_ok(value: str, _m: re.Match[str], _text: str) -> bool:
    return value.lower() not in _SERVICE_USERS and not is_placeholder(value) and not _SERVICE_USER_SHAPE.search(value)


def _windows_home_ok(value: str, m: re.Match[str], text: str) -> bool:
    # The match starts at the colon of "C:"; a drive letter must come first.
    s = m.start()
    return s >= 1 and text[s - 1] in _LETTERS and (s < 2 or text[s - 2] not in _WORDCH) and _home_ok(value, m, text)


def _time24_ok(value: str, m: re.Match[str], text: str) -> bool:
    # "2026-03-01 14:05" is a timestamp, not a routine.
    before = text[max(0, m.start() - 12):m.start()]
    if re.search(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}[ T]$|\d[ T]$|[+-]$", before):
        return False
    # A message's stamp at the start of a chat or log line ("[10:03] 李娜: 我看下", "10:03 <bob> restarted"):
    # when it was said, not a routine (round 13, kind "a chat transcript", own phrasings).
    line_start = text.rfind("\n", 0, m.start()) + 1
    return not (re.fullmatch(r"[ \t]*[\[(<]?", text[line_start:m.start()])
                and re.match(r"(?::[0-5]\d)?[\])>]?[ \t]*(?:<[^>\n]{1,30}>|[^\s:：]{1,30}[:：])", text[m.end():m.end() + 40]))


_DECORATORS = {"property", "dataclass", "staticmethod", "classmethod", "abstractmethod", "override", "overload",
               "pytest", "app", "router", "here", "channel", "everyone", "all", "param", "return", "returns",
               "throws", "throw", "see", "since", "deprecated", "author", "version", "link", "type", "types",
               "todo", "import", "media", "keyframes", "font-face", "latest", "next", "beta", "canary",
               "mention", "override", "test", "component", "autowired", "bean", "inject", "input", "output",
               "click", "functools", "cached_property", "wraps", "contextmanager", "lru_cache"}


def _handle_ok(value: str, m: re.Match[str], text: str) -> bool:
    name = value.rstrip(".-")
    if name.lower() in _DECORATORS or name.split(".")[0].lower() in _DECORATORS:
        return False
    after = text[m.end():m.end() + 1]
    if after in ("/", "(") or "." in name and not name.endswith("."):
        return False  # npm scopes (@types/node), decorators (@app.route, @fixture(...))
    line_start = text.rfind("\n", 0, m.start()) + 1
    line_end = text.find("\n", m.end())
    rest = text[m.end():len(text) if line_end < 0 else line_end]
    if not text[line_start:m.start()].strip() and not rest.strip():
        # "@word" alone on a line is a decorator or an annotation in a code block.
        return False
    return True


def _name_en_ok(value: str, m: re.Match[str], text: str) -> bool:
    # The rule runs on lower-cased text; a name is written Capitalised.
    words = re.findall(r"[A-Za-z]+", value)
    kept = []
    for w in words:
        if not (w[0].isupper() and w[1:].islower()):
            break
        kept.append(w)
    return bool(kept) and _name_ok(" ".join(kept), m, text)


_NAME_STOP = re.compile(r"^(?:了|过|车|我|你|他|她|它|什么|外卖|一下|醒|起来)")


def _name_ok(value: str, _m: re.Match[str], _text: str) -> bool:
    if _NAME_STOP.match(value):
        return False
    return value.split()[0].lower() not in {"back", "later", "now", "tomorrow", "maybe", "anytime", "whenever", "if"}


_FINGERPRINT_TECH = re.compile(r"(?i)(?:key|ssh|host|sha-?\d*|md5|gpg|pgp|cert\w*|tls|ssl|browser|device|ja[34]s?|tcp|"
                               r"http|canvas|audio|os|client|jarm|密钥|公钥|私钥|主机|证书|浏览器|设备)[ \t]*$")


def _biometric_ok(value: str, m: re.Match[str], text: str) -> bool:
    if value.lower().startswith("fingerprint") or value == "指纹":
        before = text[max(0, m.start() - 12):m.start()]
        after = text[m.end():m.end() + 24]  # "fingerprint of the server's host key" (round 13)
        return not (_FINGERPRINT_TECH.search(before) or before.endswith("-")
                    or re.match(r"(?i)[ \t:=]*(?:sha|md5)", after)
                    or re.match(r"(?i)s?[ \t]+of[ \t]+(?:the[ \t]+)?(?:bot|traffic|client|request|tls|server|device|"
                                r"browser|file|key|host)", after)
                    or _KEY_LISTING.search(_lines_above(text, m.start(), 3)))
    return True


#: Key material or its tools on a line (a public key, ``ssh-keygen -lf``, a ``SHA256:`` digest): a
#: "fingerprint" near it is the key's (round 9, multi-line set M: "fingerprint 和 GitLab 上显示的一致"
#: under an ``ssh-keygen`` listing).
_KEY_LISTING = re.compile(r"(?i)\bsha256:|\bmd5:|ssh-keygen|\bssh-(?:rsa|ed25519|dss)\b|ecdsa-sha2|\bgpg\b|"
                          r"BEGIN (?:PUBLIC KEY|CERTIFICATE)|known_hosts|authorized_keys|\.pub\b|公钥|主机密钥")


def _lines_above(text: str, start: int, n: int) -> str:
    """The line holding ``start`` and up to ``n`` lines above it."""
    a = text.rfind("\n", 0, start)
    for _ in range(n):
        if a <= 0:
            break
        a = text.rfind("\n", 0, a)
    b = text.find("\n", start)
    return text[a + 1:len(text) if b < 0 else b]



# ---- checks added for issue 9 (unseen phrasing) ----

#: Words that follow a password key word in prose but are not a password.
_NOT_A_PASSWORD = re.compile(
    r"(?i)^(?:sha-?\d+|md5|bcrypt|argon2\w*|pbkdf2\w*|scrypt|hash\w*|salt\w*|policy|reset|manager|field|"
    r"strength|length|rules?|expir\w*|rotation|login|auth\w*|flow|form|prompt|dialog|input|box|"
    r"\d{1,3}|\d+(?:\+|位|个|次|字符|chars?|characters?|digits?|days?|天|个月|月|min|mins|minutes?|hours?|h|d)|"
    r"[a-z]+\(\)|https?://\S*|--?[a-z][\w-]*)$")


def _secret_value(value: str) -> str:
    """``value`` without surrounding quotes and trailing sentence punctuation."""
    # "留空，复制成 .env 再填": a value ends where a sentence mark is followed by Chinese prose.
    value = re.split(r"[,;，。；、](?=[\u4e00-\u9fff])", value, maxsplit=1)[0]
    return value.strip("'\"`“”‘’").rstrip(".,;:!?)）。，；").strip("'\"`“”‘’")


def _user_pass_ok(value: str, m: re.Match[str], text: str) -> bool:
    """'user / password' after a login word, unless the "user" is a label (IBAN: FR76...)."""
    label = re.search(r"(?i)(?:iban|swift|bic|id|uid|no|tel|phone|email|mail|url|host|ip)" + _ + r"*[:/]" + _ + r"*\S*$",
                      text[m.start():m.start(1)])
    if re.fullmatch(r"[\w.-]+(?:/[\w.-]+)+/?", _secret_value(value)):
        return False  # a path ("home is /home/app"), not user/password
    return label is None and _pw_value_ok(value, m, text)


def _pw_value_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A password written after its key word: not a placeholder, not a word of prose.

    A value counts when it holds a digit or a symbol, or mixes cases
    ("blue-otter-17", "Rt$7bastion", "K7!vn2q"); a lower-case word ("reset",
    "incorrect") is prose, and a unit or hash name ("12 位", "SHA-256") is
    a rule about passwords, not one.
    """
    v = _secret_value(value)
    if _plain_password(v):
        return True
    if len(v) < 4 or is_placeholder(v) or _NOT_A_PASSWORD.match(v) or _doc_value(v, m, text):
        return False
    if re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z]+)*", v) and re.match(r"[ \t]+-{1,2}[A-Za-z]", text[m.end():m.end() + 4]):
        return False  # a command and its flags ("加密码保护：ssh-keygen -p -f …"), a how-to, round 12
    if v.startswith(("/", "~", "./", "\\", "<", "{")) or re.match(r"\$[A-Za-z_{(]|\$$", v) or re.fullmatch(r"%\w+%", v):
        return False  # a path or a variable ($DB_PASS, ${X}, $(cmd)); "$#h3ZY7Isg@qO" is a value
    if _SECRET_REFERENCE.match(v) or _ENV_REFERENCE.match(v) or re.fullmatch(r"[a-z]+(?:[_.][a-z]+)+|[a-z0-9_-]+(?:/[a-z0-9_#.-]+){2,}", v):
        return False  # a pointer into a secret manager, a field name or a path, not the password itself
    if _SELF_DESCRIBING.search(v) and _TEST_WORDS.search(_line_around(text, m.start(), m.end())):
        return False  # "test-password-123" in a line about tests: a fixture, not someone's password
    return bool(re.search(r"[0-9]", v) and re.search(r"[A-Za-z]", v)) or bool(re.search(r"[^A-Za-z0-9]", v)) \
        or (v.isdigit() and len(v) >= 6) or (bool(re.search(r"[a-z]", v)) and bool(re.search(r"[A-Z]", v[1:])))


#: Values that point to where a secret is kept rather than being it (Vault, 1Password, AWS
#: Secrets Manager and SSM, SOPS, environment and file references).
_SECRET_REFERENCE = re.compile(r"(?i)(?:vault|op|ssm|arn|awssm|sops|env|file|keyring|secretsmanager|gcpsm|azkv):|"
                               r"!vault\b|!secret\b|!env\b|!ENC\b")  # YAML tags of Ansible Vault, Home Assistant, SOPS
#: A value that says what it is ("test-password-123", "dummy_secret") ...
_SELF_DESCRIBING = re.compile(r"(?i)pass(?:word)?|secret|test|dummy|fake|mock|sample|example|demo")
#: ... in a line about tests or docs.
_TEST_WORDS = re.compile(r"(?i)unit tests?|\btests?\b|fixture|\bmock|\bfake|in-memory|example|sample|demo|docs?\b|"
                         r"测试|单测|示例|样例|文档")


def _password_classes(v: str) -> int:
    """How many of lower case, upper case, digit and symbol (other than - _ . /) ``v`` mixes."""
    return (bool(re.search(r"[a-z]", v)) + bool(re.search(r"[A-Z]", v)) + bool(re.search(r"\d", v))
            + bool(re.search(r"[^A-Za-z0-9_./\-]", v)))


def _pw_bare_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A value right after a password word with no "is"/":" between.

    After a full key word (password, passphrase) :func:`_pw_value_ok`
    decides; after a weak one (pass, pw, pwd, psw, mima: "pass the tests",
    "pwd output") the value must mix three of lower, upper, digit and symbol
    ("pass Lx4-pQ9-mm", "pw oly!BBBw*VJ2"), as generated or chosen
    passwords do and identifiers (``utf-8``, ``base64-encoded``) do not.
    """
    word = re.match(r"[a-z-]+", text[m.start():m.start(1)].lower())
    if word and word.group() in _WEAK_PASSWORD_WORDS:
        return _password_classes(_secret_value(value)) >= 3 and _pw_value_ok(value, m, text)
    return _pw_value_ok(value, m, text)


def _pw_bare_strong_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A value without a key word right before it: three character classes (:func:`_password_classes`)."""
    return _password_classes(_secret_value(value)) >= 3 and _pw_value_ok(value, m, text)


#: Between a value and "password": a remark about passwords in general ("Password123 is the most common
#: password", "是最常见的弱密码"), not what one is (round 13).
_PASSWORD_REMARK = re.compile(r"(?i)most common|commonest|weak|worst|bad|example|sample|default|top \d|popular|"
                              r"常见|弱|默认|示例|最差|最烂|被破解")


def _pw_value_first_ok(value: str, m: re.Match[str], text: str) -> bool:
    """:func:`_pw_bare_strong_ok`, and no remark about passwords in general after the value.

    Where the words after the value say whose or which password it is ("is the new vault master
    password", "<- that is the new router password", "是我的…密码"), that is as explicit as "password
    is X": :func:`_pw_value_ok` decides, as after a key word (round 15, sets R and Y: two-class values
    such as ``lotus72!`` and ``MyAnxcqPBQG`` were passed by the three-class rule)."""
    if _PASSWORD_REMARK.search(text, m.end(1), m.end()):
        return False
    if _DEFINITE_PASSWORD.search(text, m.end(1), m.end()):
        after = len(text) - len(text[m.end():].lstrip(" \t"))
        # "X is the password manager we use": the key word starts another noun
        return not _COMPOUND_AFTER_KEY.match(text, after) and _pw_value_ok(value, m, text)
    return _pw_bare_strong_ok(value, m, text)


#: Between a value and its key word: which or whose password it is (:func:`_pw_value_first_ok`).
_DEFINITE_PASSWORD = re.compile(r"(?i)(?:\b(?:is|was|that's|that is|it's|it is)\s+(?:the|my|our|his|her|their)\s+"
                                r"(?:new|current|actual|real|updated|latest)?)|这个是|这是|就是|是我的|是新的|是现在的")


def _quoted_pass_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A quoted passphrase: several words (diceware style) or a password-like value, not a placeholder."""
    v = value.strip()
    return not is_placeholder(v) and not _NOT_A_PASSWORD.match(v) and (len(v.split()) >= 3 or _pw_value_ok(v, m, text))


def _sudo_ok(value: str, m: re.Match[str], text: str) -> bool:
    return _cli_value_ok(m.group(1) or m.group(2) or "", m, text)


def _typed_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A value typed after a client's password prompt: the line names the prompt (psql -W, mysql -p,
    密码, password) and the value mixes three character classes."""
    line = _line_around(text, m.start(), m.end())
    return bool(re.search(r"(?i)(?:^|\s)-[Wp](?:\s|$)|password|passwd|密码|口令", line)) and _pw_bare_strong_ok(value, m, text)


def _pin_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A PIN or passcode after its key word: 4-12 digits (also in Chinese numerals, or a 2-2-2 lock
    combination), or a password-like value."""
    v = _secret_value(value)
    if re.fullmatch(r"\d{1,3}\.\d{3,8}", v) and re.match(r"[ \t]*[,，/][ \t]*-?\d{1,3}\.\d", text[m.end():m.end() + 12]):
        return False  # "GPS pin is 22.5431, 113.9502": a map pin's coordinates, not a PIN
    if re.fullmatch(r"[零〇一二三四五六七八九]{4,12}", v) or re.fullmatch(r"\d{2}-\d{2}-\d{2}", v):
        return True
    return (v.isdigit() and 4 <= len(v) <= 12 and not re.fullmatch(r"(\d)\1+", v) and
            not re.match(r"[ \t]*(?:位|digits?|-digit|个数字)", text[m.end():m.end() + 8])) \
        or _pw_value_ok(value, m, text)


def _pw_zh_ok(value: str, m: re.Match[str], text: str) -> bool:
    """After a Chinese password word: a PIN or password (:func:`_pin_ok`), or a device verification
    code of 6-16 capital letters (EZVIZ/Hikvision cameras print one under the device: ``SQMJKO``)."""
    return bool(re.fullmatch(r"[A-Z]{6,16}", _secret_value(value))) or _pin_ok(value, m, text)


def _slash_pass_ok(value: str, m: re.Match[str], text: str) -> bool:
    """``user/password`` without a login word: an account name right before the slash (after a
    space, a colon or Chinese text, not a path or a URL), and a value that mixes three character
    classes (lower, upper, digit and a symbol a password generator uses: ``root/3&@1kqm2D^hCM``) and no
    dot, unlike a path piece (``icons/close@2x.png``, ``actions/checkout@v4``, ``org/repo#123``)."""
    user = re.search(r"(?:^|(?<=[\s:：,，(（\u4e00-\u9fff]))([a-z_][a-z0-9_.-]{1,31})$",
                     text[max(0, m.start() - 34):m.start()])
    v = _secret_value(value)
    return (user is not None and not re.search(r"[/?=.]", value) and not re.fullmatch(r"[A-Za-z][\w-]*@[vV]?\d[\w.]*", v)
            and bool(re.search(r"[!@$%^&*]", v)) and _password_classes(v) == 4 and _pw_value_ok(v, m, text))


def _der_head(value: str) -> tuple[bytes, int] | None:
    """The first DER bytes of a Base64 value and the offset of its outer SEQUENCE's first element."""
    import base64
    import binascii

    head = value[:32]
    try:
        der = base64.b64decode(head[: len(head) // 4 * 4])
    except (binascii.Error, ValueError):
        return None
    if len(der) < 8 or der[0] != 0x30:
        return None
    return der, 2 + (der[1] & 0x7F if der[1] & 0x80 else 0)  # skip the SEQUENCE's length octets


def _der_not_public_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Base64 after a key word, unless its DER opens like a public key or a certificate (a SEQUENCE
    inside the outer one: SubjectPublicKeyInfo, RFC 5280 s.4.1)."""
    head = _der_head(value)
    return head is None or head[0][head[1]:head[1] + 1] != b"\x30"


def _der_private_key_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Base64 whose DER opens like a private key, whatever words surround it: a SEQUENCE whose first
    element is a version INTEGER 0 or 1 followed by an INTEGER (PKCS#1 RSAPrivateKey, RFC 8017
    A.1.2; DSA), a SEQUENCE (PKCS#8 PrivateKeyInfo, RFC 5208 s.5) or an OCTET STRING (SEC1
    ECPrivateKey, RFC 5915 s.3). Public keys and certificates open with a SEQUENCE instead."""
    head = _der_head(value)
    if head is None:
        return False
    der, i = head
    return der[i:i + 3] in (b"\x02\x01\x00", b"\x02\x01\x01") and i + 3 < len(der) and der[i + 3] in (0x02, 0x30, 0x04)


#: Metavariables of option help (click, argparse, Go's flag package, man pages): the value's type, not a value.
_METAVARS = frozenset("TEXT STRING STR PASSWORD PASS PASSWD PWD PASSPHRASE VALUE SECRET TOKEN KEY CREDENTIAL "
                      "CREDENTIALS ARG ARGS FILE PATH INTEGER INT NAME USER AUTH".split())


def _cli_value_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A password given to a command-line option: not a variable, a prompt flag or a placeholder."""
    v = _secret_value(value)
    if v in _METAVARS:
        return False  # a usage line's metavariable ("--password TEXT" in click's help, "--pass PASS")
    return len(v) >= 3 and not is_placeholder(v) and not v.startswith(("$", "-", "<", "%", "{")) \
        and v.lower() not in {"stdin", "prompt", "ask"} and not _doc_value(v, m, text)


def _mysql_p_ok(value: str, m: re.Match[str], text: str) -> bool:
    """mysql -p<password>: attached, the value may itself start with one '-' (``-p-d9D!6``)."""
    v = value[1:] if value.startswith("-") else value
    return _cli_value_ok(v, m, text)


#: A key meant to be public: a publishable or site key (Stripe docs "API keys": publishable keys
#: "can be publicly accessible"; Google reCAPTCHA "site key ... used in the HTML"), named just before
#: its key word, or a Stripe publishable key by its prefix.
_PUBLIC_KEY_WORD = re.compile(r"(?i)(?:publishable|site|public|pub|browser|client[ _-]?side)[ _-]?$")


def _public_key_value(value: str, m: re.Match[str], text: str) -> bool:
    """True for a publishable/site key (see :data:`_PUBLIC_KEY_WORD`)."""
    return value.startswith(("pk_live_", "pk_test_")) or bool(
        _PUBLIC_KEY_WORD.search(text[max(0, m.start() - 14):m.start()]))


def _keyed_random_ok(value: str, m: re.Match[str], text: str) -> bool:
    """High-entropy value after a key word (:func:`looks_random`), not a public key nor an object path."""
    v = _secret_value(value)
    if re.search(r"(?i)public|公钥|pubkey|-----$", text[max(0, m.start() - 14):m.start() + 12]) or \
            _public_key_value(v, m, text):
        return False
    if _doc_value(v, m, text) or re.search(r"\{\{|\$\{", text[max(0, m.start(1) - 4):m.start(1)]):
        return False  # a docs example (693axxx6-...) or a template expression ({{ .Values.token }})
    if re.search(r"(?i)(?:sha\d*|md5)[:=]$", text[max(0, m.start(1) - 7):m.start(1)]) or \
            re.search(r"(?i)fingerprint|指纹", text[m.start():m.start(1)]) or \
            (re.fullmatch(r"[0-9a-fA-F]{8,64}", v) and re.search(r"(?i)\b(?:id|ids|hash|commit|digest|checksum|sha\w*)\b",
                                                               text[m.start():m.start(1)])):
        return False  # a host key's fingerprint (SHA256:...), public by design
    if "/" in v and re.search(r"\.[a-z]{2,4}$", v):
        return False  # an object key or a file path ("uploads/2024/06/7f3a9c.jpg")
    if re.match(r"(?:~|\.{1,2})?/|[A-Za-z]:\\", v) and re.fullmatch(r"[~./]*(?:[\w.-]+/)+[\w.-]+|[A-Za-z]:\\\S+", v):
        return False  # a key *file* (``~/.ssh/id_ed25519``, ``/etc/ssl/private/tls.key``), round 12
    if re.fullmatch(r"[.]?(?:[a-z]{2,}|\d{1,4})(?:[-_.](?:[a-z]{2,}|\d{1,4}))+", v, re.I):
        return False  # a readable slug ("weather-skill-2026-05"), not key material
    if re.fullmatch(r"(?:[A-Z][a-z]{2,}){2,}", v):
        return False  # a setting's name in CamelCase words (key="PasswordMinLength"), not key material
    return looks_random(v)


#: Words before "key" that make a UUID a database or request key, not a credential.
_DATA_KEY = re.compile(r"(?i)(?:primary|foreign|partition|sort|idempotency|cache|object|row|unique|composite|dedup\w*|"
                       r"request|trace|correlation|message|event|record|entity|index|hash|map|lookup|s3|redis|kv|"
                       r"join|shard|routing|license|licence|registry|product|activation)[ _-]?key")


def _keyed_uuid_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A UUID after an API key word, not a database/request key ("primary key", "monkey")."""
    if m.group().startswith("key") and m.start() and text[m.start() - 1].isalpha():
        return False
    return not _DATA_KEY.search(text[max(0, m.start() - 16):m.start() + 12])


def _bare_random_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Mixes upper, lower and digits with high entropy; not hex (hashes), a path, a URL piece or a version,
    nor the rest of a URL the line before cut (``…?fbclid=IwAR…`` / ``5xX7-cP…``: the URL's rules read it joined)."""
    v = value.rstrip("=")
    start = text.rfind("\n", 0, m.start(1))
    if start > 0 and not text[start - 1:start].isspace():
        last = text[text.rfind("\n", 0, start) + 1:start].rsplit(None, 1)
        if last and ("://" in last[-1] or "?" in last[-1]):
            return False
    if "-----BEGIN " in text and _in_public_armour(text, m.start(1)):
        return False
    if "=" in v or re.search(r"(?i)[0-9a-f]{8}-[0-9a-f]{4}-", v):
        return False  # key=value (its own rules judge it) or a request id around a UUID
    if "/" in v.strip("/") and re.search(r"[a-z]{3,}/[a-z]{3,}", v):
        return False
    return _password_classes(v) >= 3 and looks_random(v) and entropy(v) >= 4.0


_PUBLIC_LABEL = re.compile(r"-----BEGIN ((?:[A-Z0-9]+ )*(?:PUBLIC KEY|CERTIFICATE|CERTIFICATE REQUEST|"
                           r"PGP PUBLIC KEY BLOCK|PGP SIGNATURE|SSH2 PUBLIC KEY))-----")


def _in_public_armour(text: str, pos: int) -> bool:
    """``pos`` lies between the BEGIN and END lines of one armoured block whose label says public
    (``PGP PUBLIC KEY BLOCK``, ``CERTIFICATE``), with no other armour line between (round 11, multi-line set
    N: a pasted release-signing key whose Base64 a generic random-line rule read as a secret). Only the
    generic random-line reading is silenced: a vendor token in the block is still found."""
    b = text.rfind("-----BEGIN ", 0, pos)
    if b < 0:
        return False
    head = _PUBLIC_LABEL.match(text, b)
    if head is None or "-----" in text[head.end():pos]:
        return False
    end = text.find("-----END " + head.group(1) + "-----", pos)
    return end >= 0 and "-----" not in text[pos:end]


def _pem_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A PEM private-key header with key material after it, not a docs template."""
    after = text[m.end():m.end() + 120].lstrip()
    if not after and re.search(r"(?i)header|marker|footer|first line|starts? with|begins? with|looks? like|format|"
                               r"\bis\b|开头|第一行|头部|格式|标记|长这样", text[:m.start()].rsplit("\n", 1)[-1]):
        return False  # "the PEM header for PKCS#8 is <the BEGIN line>": the marker named in prose, no body after it
    if re.match(r"[a-z]+[ \t]+[a-z]+|[\u4e00-\u9fff]", after):
        return False  # the header named in a sentence ("starts with -----BEGIN ... and ends with"), no body
    return not (after.startswith(("<", "{", "[", "...", "…", "$")) or _PLACEHOLDER_WORDS.match(after)
                or re.match(r"(?i)-----END", after))


def _ssn_ok(value: str, m: re.Match[str], text: str) -> bool:
    """An SSN the SSA could have issued (area not 000, 666 or 9xx; group not 00; serial not 0000)."""
    d = re.sub(r"\D", "", value)
    return not (d[:3] in ("000", "666") or d[0] == "9" or d[3:5] == "00" or d[5:] == "0000")


def _bitlocker_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Each of the 8 blocks of a BitLocker recovery password is a multiple of 11 below 720896 (11 * 2**16)."""
    blocks = [int(b) for b in value.split("-")]
    return all(b % 11 == 0 and b < 720896 for b in blocks) and len(set(blocks)) > 2


def _mnemonic_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A BIP-39 length (12, 15, 18, 21 or 24 words), not a placeholder list ("word1 word2 ...").

    Words may repeat (BIP-39 draws each word independently: a 12-word phrase repeats one with odds of about
    3 %, and a writer's phrase of set S repeated three); one word said over and over is a placeholder, so at
    least two thirds of the words differ (round 14, set S extra-seed-phrase)."""
    words = value.split()
    return len(words) in (12, 15, 18, 21, 24) and 3 * len(set(words)) >= 2 * len(words) and not is_placeholder(value)


_MBI_LETTER = "AC-HJKMNP-RT-Y"  # CMS: no S, L, O, I, B, Z


def _uk_licence_ok(value: str, m: re.Match[str], text: str) -> bool:
    """DVLA driving licence number: surname padded with 9s, birth month (+50 for women) and day valid."""
    head = value[:5]
    if re.search(r"9[A-Z]", head) or head.startswith("9"):
        return False
    month, day = int(value[6:8]), int(value[8:10])
    return (1 <= month <= 12 or 51 <= month <= 62) and 1 <= day <= 31


def _nric_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Singapore NRIC/FIN check letter (ICA scheme: weights 2,7,6,5,4,3,2; +4 for T/G, +3 for M)."""
    v = value.upper()
    total = sum(int(c) * w for c, w in zip(v[1:8], (2, 7, 6, 5, 4, 3, 2)))
    total += {"T": 4, "G": 4, "M": 3}.get(v[0], 0)
    table = {"S": "JZIHGFEDCBA", "T": "JZIHGFEDCBA", "F": "XWUTRQPNMLK", "G": "XWUTRQPNMLK",
             "M": "KLJNPQRTUWX"}[v[0]]
    if v[0] == "M":
        return table[10 - total % 11] == v[8]
    return table[total % 11] == v[8]


_TW_LETTERS = "ABCDEFGHJKLMNPQRSTUVXYWZIO"  # A=10 ... O=35 (Ministry of the Interior ordering)


def _tw_id_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Taiwan national ID check digit (letter as two digits, weights 1,9,8,...,1; sum mod 10 = 0)."""
    v = value.upper()
    code = _TW_LETTERS.index(v[0]) + 10
    digits = [code // 10, code % 10] + [int(c) for c in v[1:]]
    weights = (1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1)
    return sum(d * w for d, w in zip(digits, weights)) % 10 == 0


#: Key words of an identity number, just before it: what makes a lower-case ``g9095547r`` one (round 15).
_ID_CUE_BEFORE = re.compile(r"(?i)(?:nric|\bfin\b|\bic\b|\bid\b|hkid|identity|身份证|身分證|身份證|身分证|证件|證件|"
                            r"居民|ic no|i/c)[^\n]{0,12}$")


def _cased_id(check: Callable[[str, re.Match[str], str], bool]) -> Callable[[str, re.Match[str], str], bool]:
    """``check``, and a value holding a lower-case letter counts only after an ID key word (:data:`_ID_CUE_BEFORE`):
    "nric: g9095547r", "身分證 b241936005" (round 15, set Y); a lower-case run elsewhere is an identifier's piece."""
    def cased(value: str, m: re.Match[str], text: str) -> bool:
        if value != value.upper() and not _ID_CUE_BEFORE.search(text, max(0, m.start() - 24), m.start()):
            return False
        return check(value, m, text)

    return cased


def _hkid_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Hong Kong identity card check digit (weights 9..2 over the letters and digits, mod 11; A = 10)."""
    v = re.sub(r"[()\s]", "", value.upper())
    letters, digits, check = v[:-7], v[-7:-1], v[-1]
    vals = ([36] if len(letters) == 1 else []) + [ord(c) - 55 for c in letters] + [int(c) for c in digits]
    total = sum(x * w for x, w in zip(vals, range(9, 1, -1)))
    expected = (11 - total % 11) % 11
    return check == ("A" if expected == 10 else str(expected))


def _nino_ok(value: str, m: re.Match[str], text: str) -> bool:
    """UK National Insurance number prefix rules (HMRC NIM39110): no D/F/I/Q/U/V, no O second, no BG/GB/NK/KN/TN/NT/ZZ."""
    v = re.sub(r"\s", "", value.upper())
    return (v[0] not in "DFIQUV" and v[1] not in "DFIQUVO" and v[:2] not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})




def _line_around(text: str, start: int, end: int) -> str:
    """The whole line of ``text`` that holds ``start``..``end``."""
    a = text.rfind("\n", 0, start) + 1
    b = text.find("\n", end)
    return text[a:len(text) if b < 0 else b]


#: How many lines above a value :func:`_doc_scope` looks for the line that introduces it.
_INTRO_LINES = 6


def _doc_scope(text: str, start: int, end: int) -> str:
    """The line holding ``start``..``end`` plus the line that introduces its paragraph: the nearest line
    above (at most :data:`_INTRO_LINES`, no blank line between) that ends in a colon.

    What a list of values *is* is said once, above it ("Test cards from the sandbox docs:", "Stripe
    文档里的示例 key（公开的）："); a value on the lines below inherits it (round 9, multi-line set M)."""
    line = _line_around(text, start, end)
    a = text.rfind("\n", 0, start)
    for _ in range(_INTRO_LINES):
        if a <= 0:
            break
        b = text.rfind("\n", 0, a)
        above = text[b + 1:a].strip()
        if not above:
            break
        if above.endswith((":", "：")):
            return above + "\n" + line
        a = b
    return line


#: The host of a URL (``https://gov.example.cn``, ``ftp://user@host:21``) or a bare host name before its
#: path, query or fragment (``x.example/u?id=…``, ``bank.example#iban=…``).
_URL_HOST = re.compile(r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://[^/?#\s]*|"
                       r"(?<![\w.@-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9](?=[/?#])")


def _prose(scope: str) -> str:
    """``scope`` with the host names of its URLs blanked (same length): what the line's words say.

    A host is a name, not a word about the value on its line: ``x.example`` or ``docs.bank.com`` holding a
    resident ID in its query (``?idcard=…``), path or fragment says nothing of the ID, while the same word
    in prose ("example ID: …") does (tatk17 5: every ID kind in a URL on an RFC 2606 host was read as a
    docs specimen and not found). The URL's path and query words are kept (``/docs/testing``)."""
    if "." not in scope:
        return scope
    return _URL_HOST.sub(lambda m: " " * len(m.group()), scope)


#: Words that say a clock time or a weekday belongs to a system, a team or a
#: job rather than to a person (cron lines, backups, releases, meetings).
_SYSTEM_TIME = re.compile(
    r"(?i)cron|utc|gmt|\bcet\b|\bpst\b|\best\b|\bedt\b|asia/|europe/|america/|backup|备份|rotat|deploy|release|"
    r"\bbuild|\bjob|batch|\betl\b|\bci\b|nightly|sprint|stand-?up|站会|会议|meeting|review|freeze|冻结|灰度|发布|"
    r"上线|maintenance|维护|window|服务台|值班表|日报|周报|报表|自动|群里|server|服务器|集群|告警|report|\bsync|"
    r"timer|systemd|pipeline|automation|home assistant|homekit|\blights?\b|thermostat|自动化|灯|恒温|"
    r"脚本|任务|(?<![晨夜慢长])跑(?!步)|重启|restart|workflow|webhook|\bsla\b|on-?call|oncall|轮换|窗口|"
    r"office hours|工作时间|营业|开放时间|opening hours|kick(?:s)? off|run(?:s)? at|"
    # a place's hours ("the gym opens at 6am", "office closes at 6pm"): when it opens, not when someone is there
    r"\bopens?(?: at| from| until)\b|\bcloses?(?: at| from)\b|\bis (?:open|closed) (?:on|from|until)\b|点开门|点关门|"
    r"开门时间|关门时间|闭馆|"
    # an institution's published hours (a clinic, a counter, visiting hours): when it serves, not where someone is
    r"门诊时间|就诊时间|挂号时间|探视时间|办公时间|服务时间|受理时间|接待时间|business hours|visiting hours|"
    r"clinic hours|service hours|"
    # an institution as the subject ("the clinic restocks ... every Friday"): its routine, nobody's whereabouts
    r"^(?:the |a |this )?(?:pharmac(?:y|ies)|clinics?|hospitals?|stores?|shops?|supermarkets?|schools?|"
    r"librar(?:y|ies)|labs?)\b(?![ \t]+(?:owners?|managers?|keepers?|assistants?|staff|clerks?|workers?|nurses?|"
    r"doctors?|teachers?|director|head|employees?)\b)|"
    r"scheduled|\btz\b|timezone|时区|crontab|\d \* \*|周会|例会|组会|开会|评审|复盘|培训|团建|开发|版本|"
    r"两班倒|三班倒|四班三倒|倒班制|班次|排班表|shift rota")
#: Words that tie a time or an absence to a person's life (issue 9: "her
#: kids are alone at home every Tuesday evening").
_PERSONAL_TIME = re.compile(
    r"(?i)\b(?:i|i'm|i'll|me|my|we|we're|our|he|she|(?-i:[Hh]is|[Hh]er|[Hh]im)|they|their|kids?|wife|husband|mom|mum|dad|"
    r"mother|father|son|daughter|family|user|alone|home|house|apartment|flat|wakes?|sleeps?|gym|jog\w*|"
    r"picks? up|drops? off|school|nanny|babysitter|away|boss|neighbou?rs?|roommates?|landlord|landlady|colleagues?|"
    r"grandma|grandpa|grandmother|grandfather|girlfriend|boyfriend|partner)\b|"
    r"我|他|她|家里|家人|回家|出门|在家|孩子|老婆|老公|妈|爸|女儿|儿子|闺女|没人|跑步|接送|接孩子|夜班|保姆|"
    r"老板|领导|上司|经理|同事|邻居|室友|房东|男朋友|女朋友|对象|不在公司|不在家|不在办公室|晨跑|夜跑|"
    r"医院|复查|复诊|看病|就诊|\bhospital|\bclinic|"
    r"遛狗|健身|起床|睡觉|上班|下班|从家|离家|到家|出发|通勤|\bcommute|老人|老太太|老爷子|岳母|婆婆|公公|岳父|出差|熬夜|加班|还在工作|闹钟|\balarm\b|外婆|外公|爷爷|奶奶|姥姥|姥爷|一个人|独自|leaves the house|gets home")


#: A heading that makes the times below a group's programme (an outing, an agenda, a class timetable),
#: round 13, kind "a group itinerary" (multi-line set O: 团建行程, "Team offsite itinerary").
_GROUP_PROGRAMME = re.compile(r"(?i)团建|部门|全员|全体|集合|议程|日程表|课程表|课表|行程安排|活动安排|旅行团|"
                              r"\b(?:team|company|department|class|group|school|conference|event)\b[^\n]{0,20}"
                              r"\b(?:trip|offsite|off-site|outing|itinerary|agenda|programme|program|schedule|timetable)\b|"
                              r"\b(?:offsite|off-site|agenda|timetable)\b")


_WE = re.compile(r"(?i)\b(?:we|we're|we'll|our|us)\b|我们|咱们")


def _personal_time_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A clock time or weekly routine that belongs to a person, not to a system or a team.

    A line that names nobody (:data:`_HEADING_ANCHOR`) under a heading of a system's, a team's or a group's
    programme (:data:`_SYSTEM_TIME`, :data:`_GROUP_PROGRAMME`) or in a note that says it is about nobody
    belongs to that programme (round 13, multi-line set O: "团建行程 / Day1 08:00 出发")."""
    line = _line_around(text, m.start(), m.end())
    if not _PERSONAL_TIME.search(line) or _SYSTEM_TIME.search(line):
        return False
    if "\n" not in text:
        return True
    if _HEADING_ANCHOR.search(_WE.sub(" ", line)):
        return True  # someone on the line; "we" under a group's heading is the group
    above = _block_above(text, m.start())
    return not (_SYSTEM_TIME.search(above) or _GROUP_PROGRAMME.search(above) or _nobody_note(text, m.start()))


def _time24_personal_ok(value: str, m: re.Match[str], text: str) -> bool:
    return _time24_ok(value, m, text) and _personal_time_ok(value, m, text)


#: Technical senses of sensitive-topic words: a data set, a model, a schema
#: field, software, a metaphor (issue 9: "we diagnosed a deadlock", the
#: Bluetooth profile of a blood-pressure meter, a form field named 婚姻状况).
_TECH_SENSE = re.compile(
    r"(?i)dataset|data set|数据集|\bmodel|模型|\bsdk\b|\bapi\b|column|\bfield|schema|字段|表单|\bform\b|页面|"
    r"公式|reminder|refactor|pipeline|\bcerts?\b|\bhsm\b|熔断|实例|license|报表|计算器|toy|sklearn|"
    r"kaggle|\bauc\b|classifier|分类|deadlock|scheduler|bluetooth|\bble\b|gatt|profile|protocol|prompt|dialog|"
    r"权限|水印|\bpdf\b|compliance|合规|checklist|gdpr|hipaa|个人信息保护法|条款|\benum\b|枚举|"
    r"下拉|placeholder|mock|fixture|unit test|单测|\bpr\b|commit(?!tee)|tech(?:nical)? debt|key custody|major surgery|"
    r"pregnant pause|canary|rollout|feature|(?<![肝肾肺心脑性])功能|需求文档|process|进程|\bpods?\b|kubectl|orphan|\bbands?\b|"
    r"\bpolicy|政策|制度|体系|statistics|统计|系统|接口|模板|模式|登录|节点|兼容|降级|超时|文档|压测|wiki|android|"
    r"\bios\b|改版|页面|上线|\bsystem|\bservice|服务|算法|识别率|准确率|\bsdk|组件|控件|插件|渲染|dashboard|"
    r"(?:device|gpu|graphics|usb|printer|kernel|jdbc|odbc|database|nvidia|network|wi-?fi|audio|display|camera|"
    r"motor|led) drivers?|drivers? (?:update|version|install\w*|bug|crash\w*)|驱动|arm64|x86|阈值|prototype|原型|看板|仪表盘|swiftui|kotlin|\breact\b|golang|\bapi\b|repos?\b|repositor(?:y|ies)|仓库|代码|"
    r"codebase|\bmodule|模块|依赖|\bissues?\b|玩笑|开玩笑|joking|kidding|比喻|board game|game night|monopoly|"
    r"simulation|\bnpc|桌游|游戏|蓝牙|menu|菜单|字体|\bfont|输入法|in the dna of|slide|\bdemo\b|\bapp\b|"
    r"transistor|datasheet|mosfet|\bbjt\b|\bjunction|stepper motor|电路|晶体管|芯片|"
    r"新闻|报道|海报|画展|公告|通知|招生简章|headline|\bnews\b|poster|"
    r"的英文|英文是|英语|翻译|怎么说|\bin english\b|\btranslat\w*|\bmeans\b|词典|dictionary|"
    # retries and budgets ("the job went bankrupt on retries"), reference data of genomics, figures about
    # many people (a salary survey's median), a holiday calendar, platform authenticators, device firmware
    r"\bretr(?:y|ies)\b|backoff|\bquota|reference (?:genome|sequence)|参考(?:基因组|序列)|\bhg(?:19|38)\b|"
    r"\bgrch3[78]\b|公开数据|public (?:data|dataset)|\bfasta\b|中位数|平均(?:值|数|薪资|工资)|\bmedian\b|"
    r"percentile|分位数|薪资报告|行业报告|salary survey|industry report|节假日|public holidays?|"
    r"放假安排|webauthn|authenticators?|passkeys?|\bfido2?\b|firmware|固件|simulator|模拟器|eval board|评估板|"
    r"\bstm32|单片机|\bsim\b|game economy|circuit breakers?|cascading|state machine|不可用|回退|fallback|"
    r"技术债|"
    # round 14 (sets S and T): population genomics and papers (a SNP in a public panel, a GWAS title), a
    # web crawler of a court's site
    r"1000 genomes|\bgnomad\b|\bdbsnp\b|common snp|genome-wide association|\bgwas\b|nature genetics|"
    r"\bet al\b|爬虫|\bcrawler\b|\bscraper\b|"
    # round 14 (set S, "ICU 库升级到 72.1"): a library upgraded to a version is software, not a ward
    r"升级到[ \t]*v?\d+\.\d|\bupgrad\w* to v?\d+\.\d|\blibicu|\bicu4[cj]\b|(?<![a-z])icu[ \t]*库|"
    # round 6 (set I): a leak diagnosed in a system, a pool gone "bankrupt", code tables and drug dictionaries
    # (ICD codes, 字典表), a job ad's salary range, SVG's stroke attribute
    r"连接池|线程|connection pool|thread pool|\bthreads?\b|内存|memory leak|数据库|泄漏|排查|lookup table|code table|\bicd-?(?:9|10|11)?\b|snomed|loinc|"
    r"字典表|字典|码表|编码表|招聘|\bjd\b|job (?:post(?:ing)?|ad|description|opening)|"
    r"薪资范围|salary range|stroke(?:-width|-linecap|-linejoin|=|:)|\bsvg\b|"
    # round 8 (set K): experiments on a product ("the A/B test for the checkout page"), a research topic's key words
    r"\ba/b[ -]?tests?\b|\bab tests?\b|split tests?|a/b ?测试|ab ?测试|ab ?实验|课题|关键词|论文|\bthesis\b|research topic|"
    # round 13 (kind "a device protocol's notes", multi-line set O: "Service: Blood Pressure 0x1810"): an
    # assigned number in hex (Bluetooth SIG Assigned Numbers, USB class codes) names a profile, not a reading
    r"\b0x[0-9a-f]{4}\b|\bspec\b|\buuid\b|"
    # round 13 (set O false positives, as kinds): a product's copy ("Face ID 的提示文案"), a purchase of a
    # system ("虹膜识别门禁的采购方案"), a file format ("基因组数据格式 FASTQ"), an angle ("depression angle")
    r"文案|提示语|弹窗|按钮|\btoast\b|\btooltip\b|\bbutton\b|\bonboarding\b|\bi18n\b|本地化|"
    r"采购|招标|选型|\bprocurement\b|\brfp\b|数据格式|file formats?|\bangle\b|倾角|俯角")
#: A code identifier on the line (``NSFaceIDUsageDescription``, ``Info.plist``, ``face_match.py``):
#: a sensitive word next to one names a feature of software, not a person's fact.
_CODE_TOKEN = re.compile(r"(?<![\w.])(?=[A-Za-z]*[a-z][A-Za-z]*[A-Z][A-Za-z]*[A-Z])(?=(?:[a-z]*[A-Z]){3})[A-Za-z]{12,}"
                         r"(?![\w])|\b[\w-]+\.(?:plist|json|ya?ml|xml|py|js|ts|kt|swift|java|go|rs|toml|gradle|proto)\b")
#: Words that tie a line to a person ("my", "她", "老婆"): a sensitive word on such a
#: line is about that person even when a system is named too ("录进门禁系统").
_OWNER = re.compile(r"(?i)\b(?:my|her|his|our|their) (?:wife|husband|partner|son|daughter|kids?|child|mom|mum|dad|"
                    r"mother|father|sister|brother|family|grandma|grandpa|parents)\b|老婆|老公|妈妈|我妈|我爸|爸妈|儿子|"
                    r"女儿|闺女|孩子(?!节点|们)|家人|爷爷|奶奶|外婆|外公|员工|我的(?:指纹|人脸|脸|声纹|虹膜|基因|病|体检|诊断|药)|"
                    r"本人|[他她]的|给[他她]|[他她]是|"
                    r"\bmy (?:own )?(?:fingerprints?|face|dna|voice|iris|gait|retina|palm|diagnosis|medication|therapist|doctor)\b|"
                    # the user's own body ("my left eye is legally blind ... enlarge the font"): a fact about them
                    r"\bmy (?:left |right )?(?:eyes?|ears?|heart|liver|kidneys?|lungs?|knees?|hips?|back|spine|skin|"
                    r"blood|body|brain|teeth|stomach)\b|我的(?:眼睛|耳朵|心脏|肝|肾|肺|腰|膝盖|身体|牙)")


#: A child's life on the line (school, grade, a parent): makes "Noah is 14" an age, not a count.
_CHILD_LIFE = re.compile(r"(?i)\b(?:school|grade|class|goes to|walks|kids?|child|son|daughter|his|her|he|she|"
                         r"birthday|years old|mum|mom|dad|parents?|teacher|homework|"
                         # round 13 (kind "a young child's age with an early-childhood fact", set O: "Lily is 4
                         # and still wets the bed"): milestones, care and play of small children
                         r"wets? the bed|bed-?wetting|potty|diapers?|nappy|naps?|toys?|daycare|nursery|"
                         r"kindergarten|pre-?k|preschool|babysitter|nanny|pa?ediatrician|playdate|tantrums?|"
                         r"teeth|teething|crawl\w*|bedtime|cartoons|camp|daddy|mommy|mummy)\b")


#: Words by which a line speaks of the user (first person, "the user"): in :func:`scan_strict`
#: a sensitive-topic word on such a line counts even beside a technical word.
_SELF = re.compile(r"(?i)\b(?:my|mine|me|i|i'm|i've|i'd|myself|user's|the user|users')(?![a-z])|我|本人|用户的")
#: Set by :func:`scan_strict` only: sensitive-topic words on a line about the user count
#: whatever else is on it.
_STRICT_TOPICS: contextvars.ContextVar[bool] = contextvars.ContextVar("cmm_strict_topics", default=False)
#: Set by :func:`scan_name` only: ``"slug"`` for a name of ASCII letters, digits and ``-_.+`` (a
#: key, skill, tag, file name): no sentence around it gives a topic word a technical sense, so none
#: excuses it (tatk9: ``hiv-clinic-reminder`` passed as a key, T2 topic, skill and tag); ``"text"``
#: for a name written as words (a daily topic, "糖尿病预测模型 AUC 0.91"): technical senses apply,
#: but a name about the user counts as :func:`scan_strict` counts it ("my HIV diagnosis reminder").
_NAME_TOPICS: contextvars.ContextVar[str] = contextvars.ContextVar("cmm_name_topics", default="")
_SLUG_NAME = re.compile(r"[A-Za-z0-9_.+-]+")


#: After a topic word: a quoted key's end (``"income": 0``) or an SQL column type (``salary NUMERIC``).
_SCHEMA_KEY = re.compile(r"[\"'`][ \t]*:|(?=[ \t]+[A-Z])")
_SQL_TYPE = re.compile(r"[ \t]+(?:TEXT|VARCHAR|CHAR|NCHAR|NVARCHAR|INT|INTEGER|BIGINT|SMALLINT|NUMERIC|DECIMAL|BOOL|BOOLEAN|"
                       r"DATE|DATETIME|TIMESTAMP|TIMESTAMPTZ|FLOAT|DOUBLE|REAL|SERIAL|JSONB?|UUID|BLOB|MONEY)\b")


def _table_cell(text: str, start: int, end: int) -> bool:
    """``start``..``end`` is the whole text of a cell of a Markdown table row (``| 月份 | 收入 |``)."""
    a = text.rfind("\n", 0, start) + 1
    b = text.find("\n", end)
    line = text[a:len(text) if b < 0 else b].strip()
    if not (line.startswith("|") and line.endswith("|")):
        return False
    left = text[a:start].rstrip(" \t")
    right = text[end:len(text) if b < 0 else b].lstrip(" \t")
    return left.endswith("|") and right.startswith("|")


def _topic_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A sensitive-topic keyword in a personal sense: no technical sense on its line, or a person named on it.

    A keyword glued to "_" is part of an identifier (``salary_band``, ``is_pregnant``): a schema, not a fact."""
    if text[m.start() - 1:m.start()] == "_" or text[m.end():m.end() + 1] == "_":
        return False
    if _SCHEMA_KEY.match(text, m.end()) and (text[m.start() - 1:m.start()] in ('"', "'", "`")
                                             or _SQL_TYPE.match(text, m.end())):
        return False  # a key or a column ("diagnosis": "string", "salary NUMERIC"): a schema (round 13)
    if _table_cell(text, m.start(), m.end()):
        return False  # a whole cell of a table row ("| 月份 | 收入 |"): a column's heading (round 13)
    line = _line_around(text, m.start(), m.end())
    if _STRICT_TOPICS.get() and _SELF.search(line):
        return True  # scan_strict: public or always-loaded text about the user, whatever else the line says
    name = _NAME_TOPICS.get()
    if name == "slug" or (name and _SELF.search(line)):
        return True  # scan_name: no technical sense excuses a topic word in a slug, nor in a name about the user
    if _SELF_IS.search(text, max(0, m.start() - 12), m.start()):
        return True  # "我是党员", "I'm bipolar", "I have HPV": the user says it of themselves
    return not (_TECH_SENSE.search(line) or _CODE_TOKEN.search(line)) or bool(_OWNER.search(line))


#: The user saying a sensitive word of themselves, right before it ("我是", "我得了", "I'm a", "I have").
_SELF_IS = re.compile(r"(?i)(?:我是|我有|我得了|我患有|我被|我也是|(?<![a-z])(?:i'?m|i am|i have|i've got|i was) (?:an? )?)$")


_BIOMETRIC_RECORD = re.compile(r"(?i)[ \t]*(?:模板|数据|信息|特征|记录|样本|图像|templates?|data|records?|samples?|"
                               r"images?|scans?|enrol\w*|录入)")


def _drug_stem_ok(value: str, m: re.Match[str], text: str) -> bool:
    """The stem ends a word of at least three more letters (warfarin, amlodipine), in a personal sense."""
    head = text[max(0, m.start() - 3):m.start()]
    return len(head) == 3 and head.isalpha() and head.isascii() and _topic_ok(value, m, text)


def _dose_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A unit right after a number ("5mg", "50 μg"), in a personal sense."""
    return _topic_ok(value, m, text)


def _school_grade_ok(value: str, m: re.Match[str], text: str) -> bool:
    """初二/高一 as a school year: after 读/上/念/升, or before 学生/班/下学期 (not 高一点, 初一 of a month)."""
    return (text[m.start() - 1:m.start()] in ("读", "上", "念", "升") and m.start() > 0) or bool(
        re.match(r"(?:学生|班|党|下学期|上学期|那年|的时候)", text[m.end():m.end() + 3]))


def _biometric_topic_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A biometric word in a personal sense; a biometric *record* (虹膜模板, iris data) kept by a
    system is the sensitive case itself, so the system's words do not make it technical."""
    if not _biometric_ok(value, m, text):
        return False
    return bool(_BIOMETRIC_RECORD.match(text, m.end())) or _topic_ok(value, m, text)


#: Documented test card numbers (Stripe, Braintree, Adyen test-card pages):
#: in a line about testing they are placeholders, not someone's card.
_TEST_PANS = frozenset({"4242424242424242", "4111111111111111", "5555555555554444", "4000056655665556",
                        "378282246310005", "371449635398431", "6011111111111117", "3056930009020004",
                        "4012888888881881", "5105105105105100", "2223003122003222", "6200000000000005",
                        "4000000000000002", "4000000000009995", "4000000000000069", "4000000000000127",
                        "4000000000000119", "4000002500003155", "4000002760003184", "4000000000003220",
                        "5200828282828210", "6011000990139424", "3566002020360505", "36227206271667"})
_TEST_CONTEXT = re.compile(r"(?i)test|sandbox|example|demo|docs?\b|测试|示例|沙箱|文档")


def _card_any_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Luhn-valid card of a real issuer range and length, whatever words surround it (issue 9)."""
    digits = re.sub(r"\D", "", value)
    if not (13 <= len(digits) <= 19 and card_issuer_ok(digits) and luhn_valid(digits)):
        return False
    line = _doc_scope(text, m.start(), m.end())
    if not (digits in _TEST_PANS or _made_up_digits(digits)):
        return True
    # a fixture file's heading above the block ("# tests/fixtures/users.yaml (fake data for tests)"), round 11
    return not (_TEST_CONTEXT.search(line) or _FIXTURE_HEAD.search(_block_above(text, m.start())))


#: A heading that says the block below is test data (a fixture file's path or comment).
_FIXTURE_HEAD = re.compile(r"(?i)fixtures?\b|\bfake (?:data|users|customers|cards)\b|\btest ?data\b|\bseed data\b|"
                           r"测试数据|假数据")


def _block_above(text: str, start: int, n: int = 8) -> str:
    """The lines above ``start`` in its paragraph (at most ``n``, none past a blank line), not its own line."""
    a = text.rfind("\n", 0, start)
    out: list[str] = []
    for _ in range(n):
        if a <= 0:
            break
        b = text.rfind("\n", 0, a)
        above = text[b + 1:a]
        if not above.strip():
            break
        out.append(above)
        a = b
    return "\n".join(out)


def _cn_ric_spaced_ok(value: str, m: re.Match[str], text: str) -> bool:
    return _cn_ric_ok(re.sub(r"[ \t-]", "", value), m, text)


_BANK_CUE = re.compile(r"(?i)开户行|开户银行|收款账户|对公账户|户名|银行账|打到|转到|汇到|\bacct\b|\baccount\b|"
                       r"routing|\baba\b|sort code|direct deposit|wire to|账号|账户")


def _bank_digits_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A 8-25 digit run on a line that names a bank account (开户行, routing, sort code, account)."""
    before = text[max(0, m.start() - 40):m.start()]
    if re.search(r"(?i)QQ|微信|小红书|抖音|B站|快手|微博|知乎|UID|订单|单号|工单", text[max(0, m.start() - 12):m.start()]):
        return False  # a platform account or an order number, not a bank account
    line = _line_around(text, m.start(), m.end())
    if _doc_value(value, m, text):
        return False  # 123456789012, the AWS docs' account id
    return bool(_BANK_CUE.search(before) or re.search(r"开户行|开户银行|户名", line))


#: Words that make a card number the account money goes to (a debit card used as a bank
#: account, as Chinese payees give it) ...
_ACCOUNT_CUE = re.compile(r"(?i)开户|户名|账户|账号|帐号|支行|分行|收款|代扣|代发|打到|转到|汇到|"
                          r"银行账|bank account|\bbranch\b|"
                          r"account (?:no|number)|\bacct\b|routing|sort code|\biban\b")
#: ... unless the line says it is a card one pays with.
_CARD_CUE = re.compile(r"(?i)信用卡|credit card|\bvisa\b|mastercard|\bamex\b|cvv|cvc|有效期|expir|\bexp\b|"
                       r"ending in|尾号|刷|checkout|信用额度|swipe|tap to pay|卡号|借记卡|储蓄卡|银行卡|debit card|card number|\bref|"
                       r"这张卡|那张卡|\bthis card\b|\bthat card\b")


def _bank_card_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A card-valid number (:func:`_card_any_ok`) on a line that names it as an account to pay into."""
    line = _line_around(text, m.start(), m.end())
    return bool(_ACCOUNT_CUE.search(line)) and not _CARD_CUE.search(line) and _card_any_ok(value, m, text)


_MAIL_HOSTS = re.compile(r"gmail|googlemail|outlook|hotmail|yahoo|qq|163|126|icloud|proton\w*|foxmail|sina|sohu|"
                         r"aliyun|live|msn|yandex|gmx|mail|me|yeah|139")


def _email_obfuscated_ok(value: str, m: re.Match[str], text: str) -> bool:
    """An address spelt out: with bracketed [at]/(at) or %40 any host; with a plain " at " only a
    mail provider's host and a local part that is not a plain word ("meet at noon dot")."""
    if is_placeholder(value) or re.search(r"example|your|domain|test", value):
        return False
    local, host = m.group(1), m.group(2)
    if re.search(r"\[at\]|\(at\)|\{at\}|<at>|%40|＠", value):
        return not _RESERVED_DOMAIN.search(host)
    if re.search(r"[ \t]dot[ \t]", local):  # "bob dot smith at host dot com": spelt out on purpose
        return not _RESERVED_DOMAIN.search(host) and host not in ("example", "domain", "host")
    if not _MAIL_HOSTS.fullmatch(host):
        return False
    # A plain-word local part at a mail provider counts when the line asks to be written to there
    # ("email me at ewhitcombe at gmail dot com"); "meet at noon" has no such cue.
    return bool(re.search(r"[\d._]", local)) or bool(
        re.search(r"(?i)e-?mail|mail me|write to|reach me|contact me|邮箱|邮件|郵箱|郵件", text[max(0, m.start() - 30):m.start()])
        or _AT_HINT.search(_line_around(text, m.start(), m.end())))


#: A line that tells the reader to put the "@" back: "(at换成@)", "replace at with @", "at = @".
_AT_HINT = re.compile(r"(?i)(?<![A-Za-z])at(?![A-Za-z])[^\n@]{0,8}(?:换成|改成|替换|变成|=|→|->|means|is)[^\n]{0,3}@|"
                      r"replace[ \t]+(?:the[ \t]+)?[\"'“‘]?at[\"'”’]?[ \t]+with[ \t]+[\"'“‘]?@")


#: Words of a workplace, a campus or a lab: a building number there is not where someone lives.
_WORKPLACE = re.compile(r"公司|工位|教室|机房|会议室|实验室|办公|测试|环境|机柜|培训|门诊|诊室|园区|厂区|车间|仓库|"
                        r"食堂|考场|展厅|\d+ ?层(?!\d)|UPS|ups|服务器|检修|配电|弱电|机架|交换机|监控室|网络|设备间")
_RESIDENCE = re.compile(r"家|住|小区|公寓|宿舍|花园|苑|收货|快递|寄到|送到|地址|房东|租")


def _building_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A building/unit/room number of a home: not a workplace's (7 号楼 12 层, 2 号楼 301 教室)
    unless the line also says someone lives or receives parcels there."""
    if re.match(r"[ \t]*(?:测试|test)", text[m.end():m.end() + 6]):
        return False
    line = _line_around(text, m.start(), m.end())
    return not _WORKPLACE.search(line) or bool(_RESIDENCE.search(line))


_PROFILE_OWNER = re.compile(r"(?i)主页|个人页|profile|\b(?:his|her|my|their)\b|他的|她的|我的|账号|account|user|"
                            r"自己的号|我的号|我号|小号|大号|\bmine\b|\bme\b")
#: GitHub paths that are pages of the site, not users.
_GITHUB_PAGES = frozenset({"orgs", "features", "settings", "marketplace", "sponsors", "topics", "explore", "about",
                           "pricing", "enterprise", "login", "join", "new", "notifications", "apps", "collections"})


def _profile_owner_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A GitHub profile URL (no repository after it) on a line that makes it a person's; not on a
    subdomain (``api.github.com/user`` is the API's endpoint, ``gist.github.com/…`` a gist)."""
    if text[max(0, m.start() - 1):m.start()] == ".":
        return False
    return value.lower() not in _GITHUB_PAGES and not is_placeholder(value) and bool(
        _PROFILE_OWNER.search(_line_around(text, m.start(), m.end())))


#: A reference to a value defined elsewhere in infrastructure code, not a value: Terraform/OpenTofu
#: (``var.db_user``, ``local.admin``, ``data.vault_secret.x.value``, ``module.db.password``,
#: ``each.value``; HashiCorp configuration language, "References to Named Values"). Round 13, kind "a
#: Terraform block with its credentials from variables" (multi-line set O).
_IAC_REFERENCE = re.compile(r"^(?:var|local|data|module|each|self|count)\.[A-Za-z_][\w.\[\]\"-]*$")
#: The role shape of a database or service account (``order_rw``, ``billing_ro``, ``etl_reader``,
#: ``app_user``, ``svc-report``): PostgreSQL and MySQL role-naming conventions, not a person.
_ROLE_USER_SHAPE = re.compile(r"(?i)[-_](?:ro|rw|r|w|readonly|read|readwrite|reader|writer|write|admin|app|user|"
                              r"svc|service|etl|report(?:ing|er)?|sync|backup|monitor(?:ing)?|migrat\w*|owner)$|"
                              r"^(?:app|svc|db|etl|sys|srv)[-_]")
#: A line above a ``username:`` key that makes the block a service's configuration (a data source, a
#: database, a cache, a broker, a Terraform resource), round 13 kind "config blocks" (multi-line set O:
#: Spring ``datasource:``, Terraform ``aws_db_instance``).
_SERVICE_BLOCK = re.compile(r"(?i)datasource|database|\bdb\b|\bdb_|postgres|mysql|mariadb|jdbc|redis|mongo|"
                            r"rabbitmq|amqp|kafka|adapter:|resource[ \t]+\"|module[ \t]+\"|^\[[\w.-]+\][ \t]*$|"
                            r"\bsmtp\b|\bldap\b|\bftp\b|registry|数据库|数据源")


def _config_service_user(value: str, m: re.Match[str], text: str) -> bool:
    """A bare ``username``/``user name`` key that starts its line (a config key, not a sentence) whose
    value is a reference (:data:`_IAC_REFERENCE`), has a role's shape (:data:`_ROLE_USER_SHAPE`), or sits
    in a block that configures a service (:data:`_SERVICE_BLOCK` on the lines above): the account of a
    program, not a person's handle."""
    if not m.group().lower().startswith(("username", "user name")):
        return False
    head = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
    if head.strip(" \t-\"'") != "" and not re.fullmatch(r"[ \t]*[\w.-]*[_.-]", head):
        return False  # "my GitHub username is ..." or prose before the key: not a config line
    if _IAC_REFERENCE.match(value) or _ROLE_USER_SHAPE.search(value) or _SERVICE_USER_SHAPE.search(value):
        return True
    return bool(_SERVICE_BLOCK.search(_block_above(text, m.start())))


def _wa_number_ok(value: str, m: re.Match[str], text: str) -> bool:
    """The digits of a click-to-chat link are a valid number under its country code (``phonenumbers``)."""
    try:
        import phonenumbers
        return phonenumbers.is_valid_number(phonenumbers.parse("+" + value, None))
    except Exception:  # noqa: BLE001 - an unparsable number is no finding
        return False


def _account_handle_ok(value: str, m: re.Match[str], text: str) -> bool:
    """An account name after its platform or user-name word: not a placeholder, and after a bare
    ``username:`` not a service account's name (``app``, ``default``, ``postgres``: :data:`_SERVICE_USERS`;
    a config key's reference, role-shaped name or a service block's account: :func:`_config_service_user`)."""
    if not _not_placeholder(value, m, text) or _TEST_ACCOUNT.fullmatch(value):
        return False
    if m.group().lower().startswith(("username", "user name")) and value.lower() in _SERVICE_USERS:
        return False
    return not _config_service_user(value, m, text)


#: A test environment's account ("test01", "demo_2", "qa-user"): round 13, kind "a test account in a
#: staging note" (own phrasings: 测试账号 用户名：test01).
_TEST_ACCOUNT = re.compile(r"(?i)(?:test|tester|demo|qa|staging|sandbox|uat)[-_]?(?:user|account|acct)?[-_]?\d{0,4}")


def _handle_value_ok(value: str, m: re.Match[str], text: str) -> bool:
    """An account name after a platform word: not a placeholder, not a plain lower-case word
    (unless an explicit "微信号是"/"ID:" introduces it: WeChat ids are 6-20 characters from a letter)."""
    v = value.strip("@")
    if is_placeholder(v) or v.lower() in _DECORATORS or _TEST_ACCOUNT.fullmatch(v):
        return False
    if re.search(r"(?:号|ID|id)" + _ + r"*(?:是|为|[:：])" + _ + r"*@?$", text[m.start():m.start(1)]) \
            and re.fullmatch(r"[a-z][a-z0-9_-]{5,19}", v):
        return True
    return bool(re.search(r"[\d_.-]", v)) or bool(re.search(r"[A-Z]", v[1:]))


_AT_PLATFORM = re.compile(r"(?i)电报|联系人|slack|github|gitlab|linkedin|reddit|youtube|twitch|discord|wechat|微信|\bqq\b|飞书|钉钉|企业微信|twitter|推特|\bx\.com|\bx\b|instagram|\binsta\b|\bins\b|\big\b|telegram|\btg\b|tiktok|抖音|"
                          r"小红书|微博|weibo|mastodon|threads|bluesky|bilibili|b站|知乎|快手|follow|关注|私信|dm\b|"
                          r"handle|账号|账户")


#: Words that say an account is an organisation's public one: official, support, status, news.
_OFFICIAL_ACCOUNT = re.compile(r"(?i)官方|官博|官微|小助手|客服|公告|故障通知|\bofficial\b|\bsupport\b|\bstatus\b|"
                               r"\b(?:for|get) (?:\w+ )?(?:updates|news|announcements|release notes|outage)\b|"
                               r"获取(?:最新)?(?:消息|资讯|动态|通知)")
#: ... unless the line says the account is the user's or someone's they know.
_OWN_ACCOUNT = re.compile(r"(?i)\b(?:my|me|mine|her|his|our)\b|我|[他她]的|加[我他她]")


#: Accounts of apps and bots (GitHub marks them "[bot]"; Dependabot, Renovate and CI services by name).
_BOT_ACCOUNT = re.compile(r"(?i)(?:^|[-_])bot$|^(?:dependabot|renovate|github-actions|codecov|netlify|vercel|"
                          r"sonarcloud|mergify|coderabbitai|copilot|allcontributors|stale|greenkeeper|snyk-bot)\b")


def _at_handle_ok(value: str, m: re.Match[str], text: str) -> bool:
    """An @handle with a platform word on its line (a team mention such as @release-crew is not a person).

    With the platform named, a dotted handle (Instagram's @nadia.bakes.sf) is a handle, not a decorator."""
    line = _line_around(text, m.start(), m.end())
    if not _AT_PLATFORM.search(line):
        return False
    if text.startswith("[bot]", m.end()) or _BOT_ACCOUNT.search(value):
        return False  # an app's account (@github-actions[bot], @dependabot), round 13 (set O)
    if _OFFICIAL_ACCOUNT.search(line) and not _OWN_ACCOUNT.search(line):
        return False  # an organisation's public account ("抖音官方账号 @…", "follow @NASA for updates"), round 12
    if _handle_ok(value, m, text):
        return True
    name = value.rstrip(".-")
    return ("." in name and text[m.end():m.end() + 1] not in ("/", "(")
            and name.split(".")[0].lower() not in _DECORATORS and not text[m.start(1):m.start(1) + 1].isupper())


#: Common Chinese surnames (the 100 most frequent single-character ones, Ministry of Public Security
#: 2020 household register statistics, plus compound surnames).
_CN_SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁"
                "任卢姚沈钟姜崔谭陆范汪廖石金韦贾夏付方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺毛郝顾龚邵万覃武钱"
                "戴严莫孔向常汤康易乔赖文施洪辛柯庄樊葛")
_CN_COMPOUND = "欧阳|司马|慕容|上官|诸葛|东方|皇甫|令狐|公孙|尉迟|长孙|宇文|夏侯|端木|独孤|司徒|南宫|西门"
_CN_NAME = r"(?:" + _CN_COMPOUND + r"|[" + _CN_SURNAMES + r"])[\u4e00-\u9fff]{1,2}"
_NAME_TAIL = set("说的在是要下负让和跟也都就把被给从去来会说想叫很已还才又与及等这那们")


#: What may follow a full name in a clause: punctuation, a space, the end, or a word a person does.
_AFTER_NAME = re.compile(r"[ \t,，。.、;；:：!！?？)）]|$|把|说|在|跟|是|让|给|也|都|已|负责|发|和|今天|明天|昨天|刚")


def _role_name_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A Chinese full name after a role word, ending where a clause goes on (:data:`_AFTER_NAME`).

    Three characters after the bare role; two as well when the role says the person is *called* so
    ("新来的护士叫李涛": 叫 names, round 14, set T person-name)."""
    called = m.group()[:m.start(1) - m.start()].rstrip(" \t").endswith("叫")
    return (len(value) == 3 or (called and len(value) == 2)) and value[-1] not in "地得的了着过们" \
        and bool(_AFTER_NAME.match(text, m.end(1))) and _name_ok(value, m, text) and not _CN_NOT_NAMES.match(value)


def _cn_name_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A Chinese full name after a relation cue (surname + 1-2 characters, not a common word)."""
    v = value
    while len(v) > 2 and v[-1] in _NAME_TAIL:
        v = v[:-1]
    return len(v) >= 2 and v[-1] not in _NAME_TAIL and _name_ok(v, m, text)


_NAME_STOPWORDS = {"The", "This", "That", "Team", "Project", "Service", "Server", "Street", "Road", "Monday", "Friday",
                   "Tuesday", "Wednesday", "Thursday", "Saturday", "Sunday", "January", "February", "March", "April",
                   "June", "July", "August", "September", "October", "November", "December", "Yes", "No", "None",
                   "Unknown", "Required", "Optional", "Pending", "Same", "See", "Please", "TBD",
                   "Encrypt", "Google", "Microsoft", "Apple", "Amazon", "Cloud", "Studio", "Visual", "Office", "New",
                   "North", "South", "East", "West", "Not", "Just", "Going", "Still", "Also", "Here", "There", "Back"}


#: Words that start with a common surname character but are not names (高级经理, 任课老师, ...).
_CN_NOT_NAMES = re.compile(r"^(?:高级|高中|任课|代课|周末|方便|白天|金牌|常驻|向导|文科|史地|钱包|江湖|石油|万能|"
                           r"于是|许多|黄金|程序|关于|何时|林业|安全|康复|乔迁|夏令|秦汉|孔子|范本|毛笔|邵阳|"
                           r"时间|全职|专职|兼职|实习|主治|主管|值班|带队|客座|特聘|资深|年轻|新来)")
#: One Hanyu Pinyin syllable (initial + final), for checking a romanised given name.
_PINYIN_SYLLABLE = (r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?(?:iang|iong|uang|ueng|ang|eng|ing|ong|ian|iao|uai|uan|"
                    r"ai|ei|ao|ou|an|en|in|un|ia|ie|iu|ua|uo|ue|ui|er|a|e|i|o|u|v)")
_PINYIN_NAME = re.compile(r"(?:" + _PINYIN_SYLLABLE + r"){1,3}")



def _cn_titled_name_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Three characters (surname + two) right before the title, not a job word such as 高级/任课."""
    name = text[max(0, m.start() - 3):m.start()]
    return (len(name) == 3 and bool(re.fullmatch(_CN_NAME, name)) and not _CN_NOT_NAMES.match(name)
            and _cn_name_ok(name, m, text))


def _pinyin_given_ok(value: str, m: re.Match[str], text: str) -> bool:
    """The part after the capitalised surname is Hanyu Pinyin (Yuxuan, Xiao-Ming), not an English word."""
    given = value.split()[-1].lower().replace("-", "")
    return bool(_PINYIN_NAME.fullmatch(given))


def _en_full_name_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Two or three Capitalised words (the value comes from the original text, not the lower-cased view);
    one is enough after an honorific (Mr., Dr., ...), as in "my landlord Mr. Hargreaves"."""
    words = _latin_name_words(value)  # Unicode capitals and accents: Tomás, Östberg, Smith-Jones
    if any(w in _NAME_STOPWORDS for w in words):
        return False
    honorific = re.search(r"(?i)\b(?:mr|mrs|ms|miss|dr|prof)\.?[ \t]+$", text[max(0, m.start(1) - 6):m.start(1)])
    return len(words) >= 2 or (len(words) == 1 and honorific is not None)


#: Nouns that are named but are not people: "a project named Silver Lantern", "a repo called Blue
#: Heron", "the dog is named Captain Biscuit". Read as the word right before named/called (after
#: is/was/also/actually...).
_NAMED_THING = re.compile(
    r"(?i)(?:project|repo|repository|service|app|product|company|startup|team|workspace|channel|server|file|folder|"
    r"branch|bucket|cluster|model|bot|ship|boat|game|song|album|book|novel|film|movie|show|series|podcast|feature|"
    r"function|class|variable|database|table|dataset|module|package|library|plugin|tool|script|job|pipeline|band|"
    r"shop|store|restaurant|cafe|café|bar|hotel|street|road|town|city|village|river|lake|mountain|planet|star|"
    r"dog|cat|horse|pet|puppy|kitten|parrot|fish|character|hero|villain|brand|campaign|event|conference|release|"
    r"sprint|milestone|initiative|program|programme|course|room|building|wifi|network|ssid|printer|device|robot|"
    r"codename|code name|it|this|that|thing|one)$")
#: Given-name parts that are titles or kin terms: 王师傅, 李老师 and 张总 are forms of address.
_CN_TITLE_GIVEN = re.compile(r"^.(?:师傅|老师|医生|总|哥|姐|叔|姨|阿姨|先生|女士|经理|主任|同学|大爷|大妈|奶奶|爷爷|工|律|警官|院长|校长|老板|太|家)")


#: A line about fiction (a series, a game, a novel): "Mr. Robot season 2", "the boss is called Lord
#: Vexxar" name characters, not people.
_FICTION_CONTEXT = re.compile(r"(?i)\b(?:season|episode|series|movie|film|show|novel|book|comic|manga|anime|"
                              r"character|villain|game|boss fight|raid|dungeon|npc|enrage|quest|level \d)\b|"
                              r"\b(?:Lord|King|Queen|Sir|Lady|Captain|Emperor|Darth|Count|Baron)\b")


def _latin_name_words(value: str) -> list[str]:
    """The leading Capitalised words of ``value`` (Unicode letters: María, José, O'Brien, Smith-Jones)."""
    words = []
    for w in re.split(r"[ \t]+", value.strip()):
        core = w.strip("\"'“”,.;:")
        if not core or not (core[0].isupper() and core[0].isalpha()) or not re.fullmatch(
                r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*", core) or core[1:] and core[1:].isupper():
            break
        words.append(core)
    return words


#: Before "named/called X": words that make X a person's name (a person noun, a pronoun, a relation).
_PERSON_BEFORE = re.compile(
    r"(?i)\b(?:he|she|they|him|her|his|their|who|whose|i|i'm|me|my|our|your|someone|somebody|anyone|person|people|"
    r"guy|man|men|woman|women|lady|girl|boy|kid|child|baby|son|daughter|wife|husband|partner|friend|colleague|"
    r"co-?worker|boss|manager|neighbou?r|roommate|flatmate|landlord|landlady|tenant|client|customer|doctor|dentist|"
    r"nurse|teacher|tutor|coach|lawyer|attorney|agent|contractor|plumber|electrician|nanny|babysitter|cousin|uncle|"
    r"aunt|nephew|niece|brother|sister|sibling|mom|mum|dad|mother|father|parent|grand\w+|girlfriend|boyfriend|"
    r"fianc[eé]e?|hire|intern|mentor|student|classmate|recruiter|candidate|engineer|developer|designer|lead|ceo|"
    r"cto|founder|guest|patient|driver|courier|officer|detective|therapist|counsel+or|caregiver|carer|helper|"
    r"cleaner|maid|vet|pastor|priest|rabbi|imam|stranger|visitor|contact|rep|representative|supervisor|"
    r"assistant|secretary|adviser|advisor|accountant|broker|realtor|owner|buyer|seller|seller|member|mate|dude|"
    r"chap|fellow|lad|gal|bloke|name)\b|同事|朋友|客户|老师|医生")


def _cue_name_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A name after a name cue ("legal name on file is X", "client name: X", "is actually named X",
    "legal name 是 林嘉欣"): a Chinese full name, or Capitalised words (two after named/called, where
    the thing named must not be a project, a pet or a place: :data:`_NAMED_THING`)."""
    if re.match(_CN_NAME, value):
        return _cn_given_ok(value, m, text)
    words = [w for w in _latin_name_words(value) if w not in _NAME_STOPWORDS]
    cue = text[m.start():m.start(m.lastindex or 0)].lower()
    if re.search(r"(?:named|called)\W*$", cue):
        before = re.sub(r"(?:\s+(?:is|was|are|were|also|actually|really|now|just|officially))+\s*$", "",
                        text[max(0, m.start() - 40):m.start()].rstrip(" \t'\"’"))
        last = re.search(r"([A-Za-z][\w-]*)\W*$", before)
        if last and _NAMED_THING.match(last.group(1)):
            return False
        if not _PERSON_BEFORE.search(text, text.rfind("\n", 0, m.start()) + 1, m.start()):
            return False  # "this release train is called Copper Otter": only people get a person's name
        return len(words) >= 2 and not _FICTION_CONTEXT.search(_line_around(text, m.start(), m.end()))
    return len(words) >= 1 and len(_latin_name_words(value)) == len(words) and _name_ok(" ".join(words), m, text)


def _cn_given_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A Chinese full name that is not a form of address (王师傅, 李老师, 张总: :data:`_CN_TITLE_GIVEN`)
    nor a word that starts with a surname character (:data:`_CN_NOT_NAMES`)."""
    name = re.match(_CN_NAME, value).group()  # type: ignore[union-attr]
    return not _CN_TITLE_GIVEN.match(name) and not _CN_NOT_NAMES.match(name) and _cn_name_ok(name, m, text)


def _person_suffix_name_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A Chinese full name after a person noun (签收人, 买家, 受试者, 车间主任, 领队): three characters
    (surname and two) after 是/：/】 or nothing, two only after 叫/名叫/：."""
    if not _cn_given_ok(value, m, text):
        return False
    joiner = text[m.start():m.start(1)]
    name = re.match(_CN_NAME, value).group()  # type: ignore[union-attr]
    two = len(name) == 2 and not re.match(r"(?:欧阳|司马|慕容|上官|诸葛|东方|皇甫|令狐|公孙|尉迟|长孙|宇文|夏侯|端木|独孤|司徒|南宫|西门)", name)
    if two:
        return bool(re.search(r"叫|名叫|[:：]", joiner))
    if re.fullmatch(r".[ \t]+", joiner) and _FORM_PERSON.search(text, max(0, m.start() - 6), m.start(1)):
        return True  # a form's field and its value side by side: "乘机人 邓佳怡", "持卡人 王建国"
    return bool(re.search(r"叫|是|为|[:：】\]」』]", joiner))


#: The person fields of Chinese forms (tickets, bookings, deliveries, insurance, hospital): a full name
#: follows them after a space as often as after a colon.
_FORM_PERSON = re.compile(r"(?:乘机人|乘车人|乘客|旅客|入住人|住客|收件人|收货人|寄件人|持卡人|患者|病人|申请人|投保人|"
                          r"被保险人|受益人|联系人|签收人|经办人|担保人|报名人|预约人|就诊人)[ \t]*$")


#: Words that tie a one-syllable romanised name to a person ("Zhou Ming asked", "Li Na's").
_PERSON_CUE_EN = re.compile(r"(?i)\b(?:asked|said|says|told|tells|wrote|emailed|called|texted|replied|signed|"
                            r"he|she|his|her|him|tenant|landlord|colleague|client|customer|manager|boss|friend|"
                            r"neighbou?r|mr|mrs|ms|dr)\b|'s\b|’s\b")


def _pinyin_full_name_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Surname + given name romanised in Hanyu Pinyin, each Capitalised ("Zhou Ming", "Guo Xinyi"):
    a given name of two syllables is a name; one syllable needs a person cue on the line."""
    given = value.split()[-1].lower().replace("-", "")
    if not _PINYIN_NAME.fullmatch(given) or value.split()[-1] in _NAME_STOPWORDS:
        return False
    two = re.fullmatch(r"(?:" + _PINYIN_SYLLABLE + r"){2,3}", given) is not None
    return two or bool(_PERSON_CUE_EN.search(_line_around(text, m.start(), m.end())))


# --------------------------------------------------------------------------
# The rule table.
# --------------------------------------------------------------------------

def _bearer_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A bearer token after the word "Bearer": letters and digits mixed, not a placeholder or a word chain."""
    v = value.strip(".-_")
    return (len(v) >= 20 and not is_placeholder(v) and bool(re.search(r"\d", v)) and bool(re.search(r"[A-Za-z]", v))
            and not re.search(r"(?i)your|token_?here|example|xxxx|<|\.\.\.", v) and entropy(v) >= 3.5)


#: A word glued in front of a digit run that makes it an identifier of an order, a ticket or a
#: record rather than a card (``ORDER4921...``, ``id4921...``, ``订单号4921...``).
_GLUED_ID = re.compile(r"(?i)(?:order|ord|ticket|tkt|invoice|inv|id|no|sn|po|txn|trade|订单号?|单号|工单|编号|流水号?)$")


def _csv_column_not_card(text: str, start: int, line: str) -> bool:
    """True when the CSV row holding ``start`` sits under a header line (as many commas, no digit-only
    field) whose field for that column names something other than a card ("bytes", "offset")."""
    line_start = text.rfind("\n", 0, start) + 1
    column = text.count(",", line_start, start)
    commas = line.count(",")
    pos = line_start - 1
    for _ in range(60):
        if pos <= 0:
            return False
        prev_start = text.rfind("\n", 0, pos) + 1
        prev = text[prev_start:pos].rstrip("\r")
        if prev.count(",") != commas:
            return False
        fields = prev.split(",")
        if not any(f.strip().isdigit() for f in fields):
            name = fields[column].strip().lower()
            return bool(name) and not re.search(r"card|pan\b|cc_?n|卡", name)
        pos = prev_start - 1
    return False


def _card_glued_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A card-valid number not glued to an order, ticket or id word (:func:`_card_any_ok`), nor a bare
    field of a CSV row of numbers with no card word on it (offsets, byte counts: 1 in 10 passes Luhn)."""
    head = text[max(0, m.start() - 8):m.start()]
    if value.isdigit() and text[m.start() - 1:m.start()] == "," and text[m.end():m.end() + 1] in (",", "", "\n", "\r"):
        line = _line_around(text, m.start(), m.end())
        if not _CARD_CUE.search(line) and (sum(f.strip().isdigit() for f in line.split(",")) >= 4
                                           or _csv_column_not_card(text, m.start(), line)):
            return False  # a row of counters (offsets, bytes); a payment export row has names and dates
    return not _GLUED_ID.search(head) and _card_any_ok(value, m, text)


#: Words that say a digit run is where money is paid back or out (a card or account to refund to).
_PAYOUT_CARD = re.compile(r"(?i)(?:退款|退回|退到|打款|回款|报销|打钱)[^\n]{0,6}(?:这张|卡)|(?:这张|卡)[^\n]{0,6}(?:退款|退回|打款|报销)|"
                          r"refund(?:ed)? (?:it )?(?:to|into|on) (?:this|my|her|his|the) card")


def _payout_digits_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A 16-20 digit Luhn-valid run of a card issuer's prefix on a line that pays money back onto it."""
    d = re.sub(r"\D", "", value)
    if not (16 <= len(d) <= 20 and luhn_valid(d) and card_issuer_ok(d[:16])):
        return False
    if _GLUED_ID.search(text[max(0, m.start() - 8):m.start()]):
        return False
    return bool(_PAYOUT_CARD.search(_line_around(text, m.start(), m.end())))


_EU_HOME_CUE = re.compile(r"(?i)\b(?:my|his|her|our|their|live[sd]?|living|home|place|address|adresse|indirizzo|"
                          r"direcci[oó]n|anschrift|flat|apartment|apt|send|ship|deliver\w*|meet|stay\w*|moved)\b|"
                          r"住|家|地址|寄|送到|快递")


#: An event's or a business's venue on the line (and no one's home): a public place's address.
_VENUE = re.compile(r"(?i)\b(?:conference|venue|meetup|summit|expo|convention|keynote|hackathon|workshop|"
                    r"headquarters|hq|campus|store|shop|restaurant|museum|stadium|arena|theat(?:er|re)|library|"
                    r"embassy|consulate|city hall|town hall|cathedral|airport|railway station|visitor centre|"
                    r"(?:[A-Z][a-z]+ )?(?:center|centre|hall|pavilion))\b|会场|展会|大会|峰会|会议中心|展馆|门店|总部")


#: A public institution or landmark named on the line (round 12, kind "a public place's address", set N:
#: 故宫博物院地址：…景山前街4号): its address is published, nobody's home.
_PUBLIC_PLACE_ZH = re.compile(r"博物院|博物馆|图书馆|美术馆|科技馆|纪念馆|展览馆|体育场|体育馆|公园|大学|学院|医院|"
                              r"机场|航站楼|火车站|高铁站|客运站|地铁站|政府|大使馆|领事馆|市民中心|会展中心|剧院|大剧院|"
                              r"音乐厅|动物园|植物园|景区|寺|教堂|故宫|天安门|营业厅|办事处|"
                              r"税务局|派出所|出入境|车管所|政务服务中心|服务大厅")
#: Words that make an address on such a line someone's: living, sending, a person.
_ZH_HOME_CUE = re.compile(r"(?i)我|咱|[他她]|(?<![国专大作商厂店酒农])家|住|寄|送到|快递|收件|收货|租|搬|\b(?:my|her|his|our|home|live[sd]?)\b")


def _street_zh_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A Chinese road and door number, unless the line puts a public place there and no one's home."""
    line = _line_around(text, m.start(), m.end())
    if re.search(r"\d[ \t]*(?:室|座|单元|层|楼|房|栋|幢)|(?i:\b(?:ship|deliver\w*|send)\b)|房子|钥匙", line):
        return True  # a room, a unit or a delivery: a place someone lives or works in
    return not (_PUBLIC_PLACE_ZH.search(line) and not _ZH_HOME_CUE.search(line))


#: Things that have names too, right before 名字叫/名字是 (round 13, kind "the name of a thing").
_NAMED_THING_ZH = re.compile(r"(?i)(?:bot|机器人|助手|助理|项目|服务|猫|狗|猫咪|狗狗|宠物|鹦鹉|仓鼠|兔子|服务器|主机|集群|"
                             r"wi-?fi|网络|群|频道|公众号|app|应用|产品|代号|模型|agent|插件|游戏|角色|车|船|店|乐队|"
                             r"队伍|战队|分支|仓库|数据库)(?:的)?[ \t]*$")


def _self_name_zh_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A name after a self-name cue; after 原名/本名 (a pen or stage name's origin, round 12) only with a
    person the user knows on the line (我, 她, 同事 ...)."""
    if not _name_ok(value, m, text):
        return False
    if re.match(r"(?:名字叫|名字是)", text[m.start():m.start() + 3]) and _NAMED_THING_ZH.search(
            text, max(0, m.start() - 12), m.start()):
        return False  # the name of a bot, a pet, a project or a server (round 13, set O: 我们的 bot 名字叫 Jarvis)
    if not re.match(r"(?:原名|本名)", text[m.start():m.start() + 2]):
        return True
    return bool(_HEADING_ANCHOR.search(_line_around(text, m.start(), m.end())))


def _street_en_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A US-style street address, unless the line puts an event or a business there and no one's home."""
    line = _line_around(text, m.start(), m.end())
    return not (_VENUE.search(line) and not _EU_HOME_CUE.search(line))


def _eu_street_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A European street address: a postcode and town follow, or the line makes it someone's place."""
    return bool(m.group("pc") or m.group("pc2")) or bool(_EU_HOME_CUE.search(_line_around(text, m.start(), m.end())))


def _email_spelled_zh_ok(value: str, m: re.Match[str], text: str) -> bool:
    """An address spelt with 艾特/at and 点/dot: not a placeholder or a reserved domain."""
    return not is_placeholder(value) and not re.search(r"example|your|domain|test", value)


# --------------------------------------------------------------------------
# Round 5 (issue 9): kinds found on development set G and on last round's held-out F.
# --------------------------------------------------------------------------

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _base58check(value: str) -> bytes | None:
    """The payload of a Base58Check string (Bitcoin wiki 'Base58Check encoding'), or None when its checksum fails."""
    n = 0
    for c in value:
        i = _B58.find(c)
        if i < 0:
            return None
        n = n * 58 + i
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(value) - len(value.lstrip("1"))) + raw
    if len(raw) < 5:
        return None
    body, check = raw[:-4], raw[-4:]
    return body if hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] == check else None


def _wif_ok(value: str, _m: re.Match[str], _text: str) -> bool:
    """A Bitcoin private key in Wallet Import Format: Base58Check, version byte 0x80 (0xef on testnet), 32 key
    bytes (+ 0x01 when compressed). Bitcoin wiki 'Wallet import format'."""
    body = _base58check(value)
    return body is not None and body[0] in (0x80, 0xEF) and len(body) in (33, 34)


#: Words that say a value is documentation, not a live value: a docs example, a placeholder, a fixture.
_DOC_LINE = re.compile(r"(?i)\bexamples?\b|\bsample (?:config|code|values?|keys?|tokens?|data|file)|from the docs|\bthe docs\b|docs? placeholder|placeholder|"
                       r"\bdummy\b|\bfixture|\bfictional\b|\bfiction\b|示例|样例|文档里|文档中|照这个格式|占位")
#: Values that are visibly made up: runs of x, masks, "my"+noun (myuser, mypassword), counting digits.
_MADE_UP_VALUE = re.compile(r"(?i)x{3,}|\*{2,}|#{3,}|^my(?:user|username|password|pass|secret|token|key|login|name)$|"
                            r"^(?:user|username|password|secret|token)\d?$|0123456789|123456789|987654321|(\d)\1{5,}")


def _doc_value(value: str, m: re.Match[str], text: str) -> bool:
    """True when ``value`` is a documentation stand-in: visibly made up, or weak on a line that says it is an
    example (:data:`_DOC_LINE`)."""
    if _MADE_UP_VALUE.search(value):
        return True
    return bool(_DOC_LINE.search(_line_around(text, m.start(), m.end()))) and (
        _MADE_UP_VALUE.search(value) is not None or is_placeholder(value))


#: Environment and secret-store references: the line names where a password lives, not the password.
_ENV_REFERENCE = re.compile(r"(?i)^(?:os\.environ|os\.getenv|getenv|process\.env|env\[|env\.|\$env:|system\.getenv|"
                            r"environment\.getenvironmentvariable|config\[|settings\.|secrets\.|vault\.|\(leave|\(empty|\()")


def _browser_export_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A browser password export row (url,username,password; Chrome/Firefox/Bitwarden CSV): the last field has
    the shape of a password (two classes of characters) and is not a placeholder."""
    return _password_classes(value) >= 2 and not is_placeholder(value) and not _doc_value(value, m, text)


def _base32_seed_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A TOTP seed (RFC 4648 Base32, 16-64 characters once spaces are gone; RFC 6238) that is not a word run."""
    v = value.replace(" ", "")
    return 16 <= len(v) <= 64 and bool(re.search(r"[2-7]", v)) and len(set(v)) >= 8 and not is_placeholder(v)


def _answer_ok(value: str, m: re.Match[str], text: str) -> bool:
    return not is_placeholder(value) and not _DOC_LINE.search(_line_around(text, m.start(), m.end()))


def _keyword_entropy_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A high-entropy value (:func:`looks_random`, or 16+ letters of a generated mail-client code) near a key
    word, not a public key, path, slug or documentation stand-in."""
    if _doc_value(value, m, text):
        return False
    return _keyed_random_ok(value, m, text)


_SPOKEN_EN = {"zero": "0", "oh": "0", "o": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
              "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_SPOKEN_ZH = dict(zip("零〇洞幺一壹二两贰三叁四肆五伍六陆七柒八捌九玖", "000112223344556677889 9".replace(" ", "")))


def _spoken_digits(value: str) -> str:
    words = re.findall(r"[a-z]+|[\u4e00-\u9fff]", value.lower())
    return "".join(_SPOKEN_EN.get(w) or _SPOKEN_ZH.get(w, "") for w in words)


def _spoken_phone_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A phone number spelled in words ("five one zero, two eight four ...", "幺八八 六七七三"): 7-15 digits once
    read, a Chinese mobile (MIIT plan) or a phone word on the line (:data:`_PHONE_CUE`)."""
    digits = _spoken_digits(value)
    if not 7 <= len(digits) <= 15:
        return False
    return bool(_CN_MOBILE.match(digits)) or bool(_PHONE_CUE.search(_line_around(text, m.start(), m.end())))


def _stdnum_ok(module: str) -> Callable[[str, re.Match[str], str], bool]:
    """A check through python-stdnum's ``module`` (``is_valid``); not a masked or counting number."""
    def check(value: str, m: re.Match[str], text: str) -> bool:
        if _doc_value(value, m, text):
            return False
        try:
            mod = importlib.import_module("stdnum." + module)
        except ImportError:  # pragma: no cover - declared dependency
            return True
        return bool(mod.is_valid(value))
    return check


def _itin_ok(value: str, m: re.Match[str], text: str) -> bool:
    """IRS ITIN: 9XX-XX-XXXX, group 50-65, 70-88, 90-92 or 94-99 (IRS Publication 1915)."""
    g = int(value[4:6])
    return (50 <= g <= 65 or 70 <= g <= 88 or 90 <= g <= 92 or 94 <= g <= 99) and not _doc_value(value, m, text)


def _keyed_id_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A document number after its document's name: 6-20 digits, not masked, not a date or a counting run."""
    digits = re.sub(r"\D", "", value)
    if text[m.end(1):m.end(1) + 1] in ("*", "＊", "x", "X", "•"):
        return False  # masked (110105********123X): what a redacted report shows, not the number
    if 13 <= len(digits) <= 19 and luhn_valid(digits) and card_issuer_ok(digits):
        return False  # a card number: the card rules judge it
    return 6 <= len(digits) <= 20 and not _doc_value(value, m, text) and not _DATE_SHAPE.match(value)


_GROUPED_ACCOUNT_CUE = re.compile(r"(?i)(?:a/c|acct|account|savings|current|checking|帐号|帳號|账号|账户|帳戶|收款|汇款|"
                                  r"匯款|转账|轉帳|户口|戶口|卡号|卡號)[^\d\n]{0,24}$")


def _grouped_account_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A bank account in hyphen groups (HSBC HK 3-6-3, DBS 3-6-1, Taiwan 3-2-6-1): 9-16 digits after an account
    word (:data:`_GROUPED_ACCOUNT_CUE`), not made up."""
    digits = re.sub(r"\D", "", value)
    return 9 <= len(digits) <= 16 and bool(_GROUPED_ACCOUNT_CUE.search(text, max(0, m.start() - 40), m.start())) \
        and not _doc_value(value, m, text)


_PLATFORM_NUMBER_CUE = re.compile(
    r"(?i)(?:支付宝|(?<![a-z])alipay|(?<![a-z])douyin|抖音|快手|(?<![a-z])kuaishou|微博|(?<![a-z])weibo|小红书|"
    r"(?<![a-z])xiaohongshu|(?<![a-z])bilibili|b站|(?<![a-z])line|(?<![a-z])whatsapp)[^\n\d]{0,16}?"
    r"(?:账号|帐号|账户|account|id|号)[ \t:：是为is]*$")


_PLATFORM_WORDS = ("支付宝", "alipay", "douyin", "抖音", "快手", "kuaishou", "微博", "weibo", "小红书", "xiaohongshu",
                   "bilibili", "b站", "line", "whatsapp")


def _platform_number_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A number right after a platform's name and an account word (支付宝账号是 ..., Douyin account is ...)."""
    before = text[max(0, m.start() - 40):m.start()].lower()
    if not any(word in before for word in _PLATFORM_WORDS):
        return False
    return bool(_PLATFORM_NUMBER_CUE.search(before))


#: A public place named beside coordinates: where a landmark, a park or a race mark is, not where someone
#: lives (round 14, sets S and T landmark coordinates: "Eiffel Tower is at 48.8584° N, 2.2945° E", "深圳湾公园坐标").
_LANDMARK = re.compile(r"(?i)\b(?:park|tower|museum|palace|temple|cathedral|church|mosque|bridge|airport|stadium|"
                       r"summit|peak|mount|mountain|lake|beach|buoy|race chart|chart|lighthouse|landmark|monument|"
                       r"national park|castle|harbou?r|pier|trailhead|waterfall|volcano|island|opera house|forecourt|"
                       r"plaza|gardens|zoo|campus|university|cemetery|memorial|observatory|aquarium)s?\b|公园|故宫|"
                       r"博物馆|寺|[铁电]塔|桥|机场|体育场|景区|景点|山顶|灯塔|海滩|广场|地标|纪念碑|古镇|长城|天安门|外滩|"
                       r"[西东南北]湖|湖畔|植物园|动物园|大学|校区|陵|故居|遗址")
_CITY_CENTRE = re.compile(r"(?i)default|widget|fallback|centre|center|city|downtown|square|广场|市中心|默认|地图中心|"
                          r"bounding|zoom|tile|viewport|geofence demo")


_AWAY_BEFORE = re.compile(r"(?i)(?:i'll|i will|we'll|we will|i'm|we're|i am|we are|i'?ll be|we'?ll be)[ \t]+(?:be[ \t]+)?"
                          r"(?:in|at|away in|away|visiting|off to|travel+ing to)[ \t]+[a-z]+(?:[ \t]+[a-z]+)?[ \t]+$")


def _travel_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Travel dates of a person (I'll / we'll be in X from D to D), not a system's window."""
    return bool(_AWAY_BEFORE.search(text, max(0, m.start() - 50), m.start())) and _schedule_person_ok(value, m, text)


def _schedule_person_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A recurring visit of a person with access to a home, or an absence: not a system's schedule."""
    return not _SYSTEM_TIME.search(_line_around(text, m.start(), m.end()))



# --------------------------------------------------------------------------
# Round 8 (issue 9): checks of the kinds found missing on set K.
# --------------------------------------------------------------------------

#: ISO 3779 / 49 CFR 565.15 transliteration of VIN characters (I, O, Q are never used) and the
#: position weights of the check digit (position 9: sum mod 11, 10 written X).
_VIN_VALUES = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9))),
               **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9, **dict(zip("STUVWXYZ", range(2, 10)))}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
#: Words that say a 17-character code is a vehicle's (China's GB 16735 calls it 车辆识别代号, 车架号 in speech).
_VIN_CUE = re.compile(r"(?i)\bvin\b|chassis|vehicle identification|车架号|车辆识别|识别代号|車架號|车架")
#: A VIN shown as a format or a decoder's test value, not a car's.
_VIN_DOC = re.compile(r"(?i)sample|example|e\.g\.|\bformat|unit tests?|\btests?\b|decoder|示例|样例|例如|格式|测试|解码")


def vin_check_ok(vin: str) -> bool:
    """True when the ninth character of a 17-character VIN is its ISO 3779 check digit."""
    vin = vin.upper()
    if len(vin) != 17 or any(c not in _VIN_VALUES for c in vin):
        return False
    s = sum(_VIN_VALUES[c] * w for c, w in zip(vin, _VIN_WEIGHTS)) % 11
    return vin[8] == ("X" if s == 10 else str(s))


def _vin_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A VIN: letters and digits mixed, and either its check digit holds or a VIN word is on the line
    (Chinese VINs need not carry the North American check digit)."""
    if not (re.search(r"\d", value) and re.search(r"[A-Z]", value)) or _doc_value(value, m, text):
        return False
    if _VIN_DOC.search(_line_around(text, m.start(), m.end())):
        return False
    return vin_check_ok(value) or bool(_VIN_CUE.search(_line_around(text, m.start(), m.end())))


#: Words that tie a plate to a person's car; a plate format explained ("京A 开头", "格式") is not one.
_PLATE_CUE = re.compile(r"(?i)车牌|牌照|号牌|车号|我的车|我车|他的车|她的车|我家车|开的车|停在|挪车|\bplates?\b|"
                        r"\bmy car\b|\bher car\b|\bhis car\b|\bour car\b|\breg(?:istration)?\b|\bparked\b")
_PLATE_DOC = re.compile(r"(?i)格式|开头|示例|例如|比如|规则|编码|号段|\bformat\b|\bprefix\b|such as|\be\.g\.|\bexample")


def _plate_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A Chinese or UK number plate on a line that says it is someone's car, not a format explained."""
    line = _line_around(text, m.start(), m.end())
    return len(re.findall(r"\d", value)) >= 2 and bool(_PLATE_CUE.search(line)) and not _PLATE_DOC.search(line) \
        and not _doc_value(value, m, text)


def _digit_by_digit_card_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A card number read one digit at a time ("4 9 4 6 ..."): Luhn-valid, of a real issuer range."""
    return _card_any_ok(re.sub(r"\D", "", value), m, text)


#: Vendor rules whose tokens users split with spaces "so the scanner misses it".
_SPLIT_TOKEN_RULES = {"gh": "github_token", "github_pat_": "github_fine_grained_pat", "glpat-": "gitlab_token",
                      "hf_": "huggingface_token", "npm_": "npm_token", "sk-": "openai_key", "xox": "slack_token"}


def _split_token_ok(value: str, m: re.Match[str], text: str) -> bool:
    """The pieces joined give a token of the vendor's published format, and a random one."""
    pieces = value.split()
    head = "gh" if value.startswith("gh") and not value.startswith("github_pat_") else \
        next((p for p in _SPLIT_TOKEN_RULES if value.startswith(p)), "")
    rule = RULES.get(_SPLIT_TOKEN_RULES.get(head, ""))
    if rule is None:
        return False
    # The pieces may be followed by ordinary words: the longest run of pieces that joins into a token counts.
    for k in range(len(pieces), 1, -1):
        joined = "".join(pieces[:k])
        if rule.pattern.fullmatch(joined):
            body = re.split(r"[_-]", joined, maxsplit=1)[-1]
            return looks_random(body) and not is_placeholder(joined)
    return False


def _email_password_ok(value: str, m: re.Match[str], text: str) -> bool:
    """``address : password`` (the combo-list form): a value with a letter and a digit or symbol,
    not a path, a port, a date or another address; not an address at a reserved domain."""
    if not re.search(r"[A-Za-z0-9._%+-]$", text[max(0, m.start() - 1):m.start()]):
        return False  # speed: the pattern starts at "@"; a local part must come before it
    v = _secret_value(value)
    domain = m.group("domain")
    if _RESERVED_DOMAIN.search(domain) or "/" in v or "@" in v or v.endswith(":"):
        return False
    if not (re.search(r"[A-Za-z]", v) and re.search(r"\d", v)):
        return False  # "thanks!", "2024-01-01": a password pasted this way mixes letters and digits
    if _password_classes(v) < 2 or _DATE_SHAPE.match(v):
        return False
    return _pw_value_ok(value, m, text)


#: Chinese sign-offs and their English counterparts that a name follows on the same line.
_SIGNOFF_SINGLE_STOP = {"All", "Everyone", "Everybody", "Team", "Guys", "Folks", "Again", "So", "Much", "Man", "Mate",
                        "Buddy", "Dude", "Bro", "Sir", "Madam", "Boss", "Both", "Anyway", "Though", "Bye", "Later",
                        "Soon", "Now", "Then", "Mom", "Mum", "Dad"}


def _signoff_name_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A name signing a message: two or three Capitalised words, or one when the sign-off is the whole line.

    The sign-off opens its line (after a quote mark) or follows a sentence's end; the pattern starts at the
    word (speed), so that is read here."""
    head = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
    if head.strip(" \t>") and not re.search(r"[.!?][ \t]+$", head):
        return False
    if _en_full_name_ok(value, m, text):
        return True
    words = _latin_name_words(value)
    if len(words) != 1 or words[0] in _SIGNOFF_SINGLE_STOP or words[0] in _NAME_STOPWORDS:
        return False
    line = _line_around(text, m.start(), m.end())
    return bool(re.fullmatch(r"[ \t>]*\S[^\n]{0,20}?" + re.escape(words[0]) + r"[ \t.!]*", line))


#: A guest's stay: words that make "room 507" a hotel room a person sleeps in, not a meeting room.
_GUEST_CUE = re.compile(r"(?i)\b(?:i'm|i am|we're|we are|she's|he's|she is|he is|they're|staying|stay|checked in|"
                        r"my room|our room|her room|his room)\b")
_HOTEL_WORD = re.compile(r"(?i)hotel|\binn\b|motel|hostel|marriott|hilton|ibis|hyatt|sheraton|holiday inn|novotel|"
                         r"premier inn|travelodge|westin|airbnb|resort|\btonight\b|this week|until|\bnights?\b")
_ROOM_NOT_HOTEL = re.compile(r"(?i)meeting|conference|class|lecture|seminar|exam|server|lab\b|office|ward|"
                             r"court|escape room|chat ?room|zoom|teams|slack")


def _guest_room_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A room number with a guest and a hotel (or a night) on the line, not a meeting or server room."""
    line = _line_around(text, m.start(), m.end())
    return bool(_GUEST_CUE.search(line) and _HOTEL_WORD.search(line)) and not _ROOM_NOT_HOTEL.search(line)


def _hotel_chain_room_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A room number right after a hotel's name: not a year, a count, a price or a workplace."""
    if re.fullmatch(r"(?:19|20)\d\d", value) or re.match(r"[ \t]*(?:年|元|块|万|家|间|个|人|%|米|公里|km)",
                                                         text[m.end():m.end() + 4]):
        return False
    return not _WORKPLACE.search(_line_around(text, m.start(), m.end()))


def nhs_number_ok(digits: str) -> bool:
    """NHS Digital 'NHS number' check digit: weights 10..2 over nine digits, 11 - sum mod 11 (11 -> 0, 10 invalid)."""
    if not re.fullmatch(r"\d{10}", digits) or len(set(digits)) == 1:
        return False
    check = 11 - sum(int(d) * w for d, w in zip(digits, range(10, 1, -1))) % 11
    return check != 10 and (0 if check == 11 else check) == int(digits[9])


def _medical_record_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A medical record number after its name; after "NHS" only a number whose check digit holds."""
    digits = re.sub(r"\D", "", value)
    if re.match(r"(?i)nhs", m.group()):
        return nhs_number_ok(digits)
    return 6 <= len(digits) <= 14 and not _doc_value(value, m, text) and not _DATE_SHAPE.match(value)


#: One-time codes are benign once used or as a template (sets A-J label "验证码 482913，5 分钟内有效" and "your
#: verification code is 730215" benign). Two kinds are live secrets (set K): a code someone is asked to hand
#: over ("can u type it in", "发我") - how accounts are taken over - and a code that authorises a payment or
#: a transfer (a bank's 转账 code).
_OTP_HANDOVER = re.compile(r"(?i)type it in|read (?:it|me)|send (?:it|me)|tell me|give me|forward (?:it|me)|paste it|"
                           r"text me|what(?:'s| is) the code|发我|发给我|告诉我|念给我|报给我|给我说|转发给我|截图给我|"
                           # asked to be used on the user's behalf: log in, pick up, collect for me
                           r"\bfor me\b|log (?:me|in for me)|帮我[^\n，。,]{0,4}(?:登|拿|取|领|收|签)|替我|代我")
_OTP_PAYMENT = re.compile(r"(?i)转账|汇款|付款|支付|消费|提现|transfer|payment|wire|withdraw")
#: Codes that authenticate nobody: an error's, a place's, a discount's, a parcel's.
_OTP_NOT_AUTH = re.compile(r"(?i)(?:error|status|exit|zip|postal|post|area|promo|discount|coupon|voucher|tracking|"
                           r"country|product|sku|reference|ref|return|http|response|colou?r|source|qr|bar|gift|"
                           r"referral|invite|invitation|dial|sort|swift|branch|course|class|room)[ \t_-]*code")
_OTP_SPENT = re.compile(r"(?i)expired|expires|already used|used\b|invalid|template|sandbox|fixed code|\$\{|过期|已用|用过|"
                        r"用掉|已使用|模板|有效期|失效|测试|限流|频率")


def _live_otp_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A one-time code that is still a secret: asked to be handed over, or authorising a payment; not a used
    or expired one, a template or a rule about codes."""
    line = _line_around(text, m.start(), m.end())
    if _OTP_SPENT.search(line) or _OTP_NOT_AUTH.search(text, max(0, m.start() - 24), m.start() + 5) \
            or re.search(r"(?i)\berror|\bfail|错误|失败|状态码", line) or _doc_value(value, m, text):
        return False
    return bool(_OTP_HANDOVER.search(line) or _OTP_PAYMENT.search(line))


def _dash_signature_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A full name after a dash closing a message. The view reads "—" as "-", so a dash at the start of a line
    could be a Markdown bullet ("- Release Notes"): there the line before must be prose (not empty, not a
    bullet or a heading) and the line after not a bullet."""
    if not _en_full_name_ok(value, m, text):
        return False
    # speed: the pattern starts at the dash; what is before it on the line is judged here
    head = text[text.rfind("\n", 0, m.start()) + 1:m.start()].rstrip("-")
    if head.strip():
        return bool(re.search(r"[.!?。！？][ \t]*$", head))  # after a sentence's end ("see you then. - Li Wei")
    a = text.rfind("\n", 0, m.start())
    if a <= 0:
        return False
    before = text[text.rfind("\n", 0, a) + 1:a].strip()
    b = text.find("\n", m.end())
    after = "" if b < 0 else text[b + 1:text.find("\n", b + 1) if text.find("\n", b + 1) >= 0 else len(text)].strip()
    return bool(before) and not re.match(r"[-*+#>|]|\d+[.)]", before) and not re.match(r"[-*+]|\d+[.)]", after)


def _game_id_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A game account after its game or platform word: digits (a UID), or a name holding a digit or ``_``."""
    v = value.strip("@")
    if is_placeholder(v) or _doc_value(v, m, text):
        return False
    return bool(re.fullmatch(r"\d{6,12}", v)) or (bool(re.search(r"[\d_]", v)) and not v.isdigit())


@dataclass(frozen=True)
class Rule:
    """One detection rule.

    ``group`` is the regex group holding the sensitive value (0 = whole
    match): that part is redacted in the excerpt and passed to ``check``.
    ``keep`` shows the value as is (topic keywords, key-block headers).
    """

    name: str
    category: str
    pattern: re.Pattern[str]
    source: str
    group: int = 0
    check: Callable[[str, re.Match[str], str], bool] | None = None
    keep: bool = False
    #: run the pattern over the lower-cased text (much faster than re.I);
    #: offsets are the same, and values are always taken from the original.
    lower: bool = False
    #: the match must not start right after one of these characters (a
    #: leading look-behind would stop ``re`` from scanning for the pattern's
    #: first literal, which makes a rule 3-10 times slower).
    not_after: str = ""
    #: the match must not be glued to ASCII letters on either side.
    word: bool = False
    #: digit-led rule: run only inside runs of 7+ digits and separators
    #: (found once per scan), not over the whole text.
    numeric: bool = False
    #: one of :data:`CONFIDENCES`; empty = :func:`default_confidence` of the category.
    confidence: str = ""
    #: speed only: the rule can only match in a stretch of text whose lower-cased
    #: form holds one of these literals (or where ``needs_re`` finds something);
    #: stretches without them are skipped (see :func:`_matches`).
    needs: tuple[str, ...] = ()
    needs_re: re.Pattern[str] | None = None
    #: speed only, for a ``lower`` rule that starts with a word: the first three
    #: letters (or the whole word, when shorter) of every word it can start with;
    #: the rule is then tried only where such a word starts (see :func:`_matches`).
    triggers: frozenset[str] = frozenset()

    @property
    def sure(self) -> str:
        """The rule's confidence (its own, or its category's default)."""
        return self.confidence or default_confidence(self.category)


#: Every possible start (up to three characters) of a token that begins with a digit.
_DIGIT_HEADS = frozenset(a + b + c for a in "0123456789" for b in ("",) + tuple("0123456789abcdefghijklmnopqrstuvwxyz")
                         for c in (("",) + tuple("0123456789abcdefghijklmnopqrstuvwxyz") if b else ("",)))
_ = r"[ \t]"  # horizontal white space: no rule matches across a line break
_CJK = r"[\u4e00-\u9fff]"


def _r(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: ASCII letters and digits: ``not_after=_ALNUM`` stands for a leading
#: ``(?<![A-Za-z0-9])``. It gives the same matches only where no match could
#: start inside a rejected one (a letter-led ID whose inside is digits), and
#: lets ``re`` skip to the pattern's first character class (about 6x faster
#: for the four letter-led ID rules; ``tests/test_privacy_scan_speedups.py``).
_ALNUM = _LETTERS + "0123456789"
#: End of a token: no ASCII letter, digit or underscore follows. Not ``\b``:
#: Python's Unicode regexes count CJK characters as word characters, so
#: ``\b`` never falls between "zhangsan@163.com" and a following "的", nor
#: between "邮箱" and the address (QA finding: e-mails and phone numbers next
#: to Chinese text went undetected). Every boundary in the rule table is
#: ASCII for that reason; leading ``\b`` become ``not_after`` checks below.
_END = r"(?![A-Za-z0-9_])"
_WORDCH = _LETTERS + "0123456789_"
#: End of a value whose alphabet has no ``_`` (an IBAN, an AWS key id, a classic GitHub token): a ``_``
#: after it is a separator like a space (``GB33…_x``, ``AKIA…_old``: tatk18 5); a letter or digit still
#: makes the run longer than the value, so it is not read there (the glued rules read letters).
_END_NO_UNDERSCORE = r"(?![A-Za-z0-9])"


def _topic(name: str, category: str, en: str, zh: str, source: str,
           check: Callable[[str, re.Match[str], str], bool] | None = None) -> list[Rule]:
    """Two keyword rules for one topic: English (lower-cased, whole words) and Chinese (no word boundaries)."""
    check = check or _topic_ok
    # "(?![a-z])" after the alternation: a word that another one starts ("roma" in "romani") is tried
    # whole before the next, so the longer word is found (round 13, kind "my husband is Romani", set O)
    return [Rule(name + "_en", category, re.compile("(?:" + en + ")(?![a-z])"), source, check=check, keep=True,
                 lower=True, word=True),
            Rule(name + "_zh", category, re.compile(zh), source, check=check, keep=True)]


#: Key words that introduce a password, lower-cased: the usual spellings, the typos and
#: chat short forms users type (pasword, psw, pw, mima = 密码 in pinyin) and the same word
#: in languages users paste from. "pass", "pw", "pwd", "psw" and "mima" are *weak*: a bare
#: value after them (no "is"/":") must look like a password (:func:`_pw_bare_ok`).
_PASSWORD_WORDS = (r"password's|password’s|passcode's|password|passwd|passwort|pasword|passwrd|paswd|passphrase|passcode|pass code|wi-?fi key|"
                   r"wi-?fi pass(?:word)?|app password|app-specific password|pswd|psw|pwd|pw|pass|mima|"
                   r"mot de passe|contraseña|senha")
_PASSWORD_TRIGGERS = frozenset("pas wi wif app psw pwd pw mim mot con sen".split())
_WEAK_PASSWORD_WORDS = frozenset({"pass", "pw", "pwd", "psw", "pswd", "mima"})
#: Key words of a numeric secret: PINs, passcodes, door/lock codes and combinations.
_PIN_WORDS = (r"pin|pin code|pin number|puk|puk code|passcode|unlock code|atm pin|combination|"
              r"(?:keypad|door|gate|alarm|garage|safe|disarm|lock|access|entry|building|lockbox|bike lock|padlock) "
              r"(?:code|combination|combo)")
_PIN_TRIGGERS = frozenset("pin puk pas unl atm com key doo gat ala gar saf dis loc acc ent bui bik pad".split())
#: Chinese verbs that set a value ("设成了", "改为", "填的是"): a connector like "is".
_ZH_SET = r"(?:已?(?:改成|改为|设为|设成|设置成|设置为|换成|更新为|重置为|变成|填成|写成|输成)了?|设的是|用的是|填的是|写的是)"
#: What joins a key word to its value in prose: "is", ":", "=", an arrow, 是/为, a Chinese "set to".
_CONNECTOR = (r"(?P<conn>" + _ + r"(?:is|was|is now|are|set to|changed to|reads)|:|=|->|→|=>|" + _ZH_SET + r"|是|为)")
#: First words of a gap that make "password X" another noun ("password manager is 1Password", "the password
#: policy we use is NIST-800"): a free gap holding one of them is not followed by a password.
_COMPOUND_AFTER_KEY = re.compile(
    r"(?i)(?:manager|policy|policies|reset|field|hash\w*|length|rules?|requirements?|strength|expir\w*|"
    r"rotation|vault|store|storage|app|tool|prompt|dialog|form|hint|format|complexity|history|change|file|"
    r"generator|entropy|algorithm|scheme|column|variable|env|setting|option|flag)\b|管理器|策略|规则|长度|字段|格式")


def _keyword_rules(stem: str, words: str, triggers: frozenset[str], *, value: str, bare_value: str,
                   check: Callable[[str, re.Match[str], str], bool],
                   bare_check: Callable[[str, re.Match[str], str], bool], bare_not_after: str,
                   source: str, free_gap: bool) -> list[Rule]:
    """The two word-led rules of one family of key words (issue 9 asked for one builder, not two copies).

    ``<stem>_phrase``: a key word, optionally a gap, a :data:`_CONNECTOR`
    and ``value`` ("the password for the NAS is blue-otter-17", "door code
    at the cabin is 8870", "pwd -> x"). The gap is "for/of/to/on/at/in X";
    with ``free_gap`` it may also be a few other words before a *word*
    connector ("the unseal passphrase we picked for the old cluster is X",
    "passphrase 我设成了 X"), judged by :func:`_phrase_gap_ok`.
    ``<stem>_bare``: the key word, white space, then ``bare_value``
    ("passphrase Rt$7bastion", "PIN 7302"). Both run on the lower-cased
    text, only where a word starting with one of ``triggers`` starts.
    """
    gap = (r"(?:" + _ + r"+(?P<gap>(?:for|of|to|on|at|in)" + _ + r"+[^\n:=]{1,40}?" +
           (r"|[^\n:=]{1,48}?" if free_gap else "") + r"))?")

    def phrase_ok(value: str, m: re.Match[str], text: str) -> bool:
        return _phrase_gap_ok(m, free_gap) and check(value, m, text)

    phrase = _r(r"(?P<key>" + words + r")" + gap + _ + r"*" + _CONNECTOR + _ + r"*" + value)
    return [
        Rule(stem + "_phrase", "secret", phrase, source, group=phrase.groups, check=phrase_ok, lower=True,
             not_after=_LETTERS, triggers=triggers),  # the value is the last group
        Rule(stem + "_bare", "secret", _r(r"(?:" + words + r")" + _ + r"+" + bare_value),
             source, group=1, check=bare_check, lower=True, not_after=bare_not_after, triggers=triggers),
    ]


def _phrase_gap_ok(m: re.Match[str], free_gap: bool) -> bool:
    """The words between a key word and its connector: none, "for/of/to/on/at/in X", or (``free_gap``)
    up to six words before a word connector (is/was/设成...), after a full key word (not pass/pw),
    the first of them not making "password X" another noun (:data:`_COMPOUND_AFTER_KEY`)."""
    gap = m.group("gap")
    if not gap or re.match(r"(?:for|of|to|on|at|in)[ \t]", gap):
        return True
    if not free_gap or m.group("key") in _WEAK_PASSWORD_WORDS or m.group("conn") in (":", "=", "->", "→", "=>"):
        return False
    words = gap.split()
    return len(words) <= 6 and not _COMPOUND_AFTER_KEY.match(words[0])


#: After a document's name: up to 16 non-digits, then the number (digits, spaces, dots, hyphens; letters at its ends).
_ID_VALUE = r"[^\n\d]{0,16}?([a-z]{0,5}\d(?:[\d.\-/]|[ \t](?=\d)){4,22}[a-z]?)(?![\da-z])"
#: After a key word: up to 48 characters of the same line, a separator, then a token of 16+ key characters.
_KEYWORD_VALUE = r"[^\n]{0,48}?[ \t:：=,，(（\"'`]([A-Za-z0-9+/_\-.~]{16,}={0,2})(?![A-Za-z0-9+/_\-.~])"


RULES_LIST: list[Rule] = [
    # ---- secrets: provider tokens (most specific first) ----
    Rule("private_key_block", "secret", _r(r"-----BEGIN[ A-Z0-9]{0,30} PRIVATE KEY(?: BLOCK)?-----"),
         "RFC 7468 s.10-11 (PKCS#8 / PEM), OpenSSH PROTOCOL.key, RFC 4880 s.6.2 (PGP armor); a template with "
         "'<your key here>' between the markers is not key material", keep=True, check=_pem_ok),
    Rule("anthropic_key", "secret", _r(r"\bsk-ant-(?:api|admin|oat|ort)\d{2}-[A-Za-z0-9_-]{20,}"),
         "Anthropic API docs: key prefix sk-ant-api03-", check=_not_placeholder),
    Rule("openai_key", "secret", _r(r"sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}"),
         "OpenAI API docs: secret keys sk-, sk-proj-, sk-svcacct- (also DeepSeek, Moonshot sk- keys)",
         check=_openai_ok, not_after=_WORDCH + "-"),
    # The body is letters and digits only: a '_' on either side is a separator, as a space is (``ghp_…_old``,
    # ``old_ghp_…``, tatk18 5).
    Rule("github_token", "secret", _r(r"gh[pousr]_[A-Za-z0-9]{36,255}" + _END_NO_UNDERSCORE),
         "GitHub docs 'About authentication to GitHub': token prefixes ghp_/gho_/ghu_/ghs_/ghr_",
         check=_not_placeholder, not_after=_ALNUM),
    Rule("github_fine_grained_pat", "secret", _r(r"\bgithub_pat_[A-Za-z0-9_]{40,255}"),
         "GitHub docs: fine-grained personal access tokens github_pat_"),
    Rule("gitlab_token", "secret",
         _r(r"\bgl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_-]{20,}"),
         "GitLab docs 'Token overview': token prefixes glpat-, gldt-, glrt-, ...", check=_not_placeholder),
    # Upper-case letters and digits only: '_' on either side is a separator (``AKIA…_old``, tatk18 5).
    Rule("aws_access_key_id", "secret", _r(r"[AS][KSBC][IC]A[A-Z0-9]{16}" + _END_NO_UNDERSCORE),
         "AWS IAM User Guide 'Unique identifiers': AKIA (long-term) / ASIA (temporary) access key ids",
         check=_not_placeholder, not_after=_ALNUM),
    Rule("google_api_key", "secret", _r(r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
         "Google Cloud docs 'Manage API keys' (AIza prefix, 39 characters; also Gemini keys)"),
    Rule("google_oauth_token", "secret", _r(r"\bya29\.[0-9A-Za-z_-]{20,}"),
         "Google Identity docs: OAuth 2.0 access tokens (ya29.)"),
    Rule("google_oauth_client_secret", "secret", _r(r"\bGOCSPX-[A-Za-z0-9_-]{20,}"),
         "Google Identity docs: OAuth client secrets (GOCSPX-)"),
    Rule("slack_token", "secret", _r(r"\bxox[abposre]-(?:\d+-)*[A-Za-z0-9-]{10,}"),
         "Slack API docs 'Token types': xoxb-, xoxp-, xoxa-, xoxe-", check=_not_placeholder),
    Rule("slack_webhook", "secret", _r(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}"),
         "Slack API docs 'Incoming webhooks'"),
    Rule("discord_webhook", "secret",
         _r(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{17,20}/[A-Za-z0-9_-]{40,}"),
         "Discord developer docs 'Webhook resource'"),
    Rule("discord_bot_token", "secret", _r(r"\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}" + _END),
         "Discord developer docs 'Authentication' (bot token: base64 id . timestamp . hmac)"),
    Rule("telegram_bot_token", "secret", _r(r"\d{8,10}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])"),
         "Telegram Bot API 'Authorizing your bot' (<bot id>:<35 characters>)", not_after=_WORDCH + ":"),
    Rule("stripe_key", "secret", _r(r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"),
         "Stripe docs 'API keys' (sk_live_, rk_live_)", check=_not_placeholder),
    Rule("stripe_webhook_secret", "secret", _r(r"\bwhsec_[A-Za-z0-9]{24,}"),
         "Stripe docs 'Check the webhook signatures' (whsec_)", check=_not_placeholder),
    Rule("huggingface_token", "secret", _r(r"\bhf_[A-Za-z0-9]{30,}" + _END),
         "Hugging Face docs 'User access tokens' (hf_)", check=_not_placeholder),
    Rule("sendgrid_key", "secret", _r(r"\bSG\.[A-Za-z0-9_-]{10,32}\.[A-Za-z0-9_-]{20,64}" + _END),
         "Twilio SendGrid docs 'API keys' (SG.<id>.<secret>)"),
    Rule("npm_token", "secret", _r(r"\bnpm_[A-Za-z0-9]{36}" + _END), "npm docs 'About access tokens' (npm_)"),
    Rule("pypi_token", "secret", _r(r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
         "PyPI help 'API tokens' (macaroon prefix pypi-AgEIcHlwaS5vcmc)"),
    Rule("twilio_api_key", "secret", _r(r"\bSK[0-9a-fA-F]{32}" + _END), "Twilio docs 'API keys' (SK + 32 hex)"),
    Rule("alibaba_access_key", "secret", _r(r"\bLTAI[A-Za-z0-9]{12,30}" + _END),
         "Alibaba Cloud RAM docs: AccessKey IDs begin with LTAI"),
    Rule("groq_key", "secret", _r(r"\bgsk_[A-Za-z0-9]{48,}" + _END), "Groq docs 'API keys' (gsk_)"),
    Rule("xai_key", "secret", _r(r"\bxai-[A-Za-z0-9]{70,}" + _END), "xAI docs 'API keys' (xai-)"),
    Rule("replicate_token", "secret", _r(r"\br8_[A-Za-z0-9]{37}" + _END), "Replicate docs 'API tokens' (r8_)"),
    Rule("perplexity_key", "secret", _r(r"\bpplx-[A-Za-z0-9]{48}" + _END), "Perplexity docs 'API keys' (pplx-)"),
    Rule("nvidia_key", "secret", _r(r"\bnvapi-[A-Za-z0-9_-]{60,}"), "NVIDIA NIM docs 'API keys' (nvapi-)"),
    Rule("shopify_token", "secret", _r(r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}" + _END), "Shopify docs 'Access tokens' (shpat_)"),
    Rule("digitalocean_token", "secret", _r(r"\bdop_v1_[a-f0-9]{64}" + _END), "DigitalOcean docs 'Personal access tokens' (dop_v1_)"),
    Rule("square_token", "secret", _r(r"\b(?:sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{22,}|EAAA[A-Za-z0-9_-]{56,})"),
         "Square docs 'Access tokens' (sq0atp-, sq0csp-, EAAA production tokens)", needs=("sq0", "eaaa")),
    Rule("braintree_token", "secret",
         _r(r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}"),
         "Braintree docs 'Access tokens' (access_token$production$<merchant>$<hex>)"),
    Rule("vault_token", "secret", _r(r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}"),
         "HashiCorp Vault docs 'Tokens' (hvs., hvb., hvr. prefixes since 1.10)"),
    Rule("age_secret_key", "secret", _r(r"AGE-SECRET-KEY-1[0-9A-Z]{58}"), "age-encryption.org v1 spec (Bech32 secret key)"),
    Rule("postman_key", "secret", _r(r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}"), "Postman docs 'API keys' (PMAK-)"),
    Rule("linear_key", "secret", _r(r"\blin_(?:api|oauth)_[A-Za-z0-9]{32,}"), "Linear docs 'API' (lin_api_)"),
    Rule("docker_pat", "secret", _r(r"\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}"), "Docker docs 'Access tokens' (dckr_pat_)"),
    Rule("tencent_secret_id", "secret", _r(r"\bAKID[A-Za-z0-9]{13,40}" + _END),
         "Tencent Cloud CAM docs: SecretId begins with AKID (a body of x's is the docs' placeholder, set H)",
         check=_not_placeholder),
    Rule("volcengine_access_key", "secret", _r(r"\bAKLT[A-Za-z0-9_-]{20,}"),
         "Volcano Engine IAM docs: AccessKey IDs begin with AKLT"),
    Rule("baidu_qianfan_key", "secret", _r(r"bce-v3/ALTAK-[A-Za-z0-9]{10,}/[A-Za-z0-9]{20,}"),
         "Baidu AI Cloud Qianfan docs 'API Key' (bce-v3/ALTAK-...)"),
    Rule("zhipu_key", "secret", _r(r"\b[0-9a-f]{32}\.[A-Za-z0-9]{16}" + _END),
         "Zhipu AI open platform docs: API key = <id 32 hex>.<secret 16>"),
    Rule("feishu_webhook", "secret",
         _r(r"https://open\.(?:feishu\.cn|larksuite\.com|larkoffice\.com)/open-apis/bot/v2/hook/[A-Za-z0-9-]{20,}"),
         "Feishu/Lark open platform docs 'Custom bot' webhook URL", check=_not_placeholder),
    Rule("wecom_webhook", "secret", _r(r"https://qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=[A-Za-z0-9-]{20,}"),
         "WeCom developer docs 'Group robot' webhook URL", check=_not_placeholder),
    Rule("dingtalk_webhook", "secret",
         _r(r"https://oapi\.dingtalk\.com/robot/send\?access_token=[A-Za-z0-9]{20,}"),
         "DingTalk open platform docs 'Custom robot' webhook URL", check=_not_placeholder),
    Rule("dingtalk_sign_secret", "secret", _r(r"\bSEC[a-f0-9]{64}" + _END),
         "DingTalk docs 'Custom robot security settings' (signing secret SEC + 64 hex)"),
    Rule("azure_storage_key", "secret", _r(r"AccountKey=([A-Za-z0-9+/]{86}==)"),
         "Azure Storage docs 'Configure a connection string'", group=1),
    # ---- checksum-valid identifiers: before the password heuristics, so that "work pass: F4116321Q"
    # (a Singapore FIN after the pass word) is reported as the ID it is, not as a password ----
    Rule("cn_resident_id", "government_id",
         _r(r"(?<![0-9A-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[0-9Xx]"
            r"(?![0-9A-Za-z])"),
         "GB 11643-1999 citizen identification number (check digit ISO 7064 MOD 11-2, birth date); stdnum.cn.ric",
         check=_cn_ric_ok, numeric=True),
    Rule("cn_resident_id_spaced", "government_id",
         _r(r"(?<![0-9A-Za-z])[1-9]\d{5}[ \t-](?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[ \t-]\d{3}[0-9Xx]"
            r"(?![0-9A-Za-z])"),
         "GB 11643-1999 citizen identification number written in groups (6-8-4)", check=_cn_ric_spaced_ok,
         numeric=True),
    Rule("sg_nric", "government_id", _r(r"(?i:[STFGM])\d{7}(?i:[A-Z])(?![A-Za-z0-9])"),
         "Singapore ICA NRIC/FIN (check letter: weights 2,7,6,5,4,3,2); typed in lower case, after its key word",
         check=_cased_id(_nric_ok), not_after=_ALNUM),
    Rule("tw_national_id", "government_id", _r(r"(?i:[A-Z])[1289]\d{8}(?![A-Za-z0-9])"),
         "Taiwan Ministry of the Interior national ID / ARC number (check digit mod 10); typed in lower case, "
         "after its key word", check=_cased_id(_tw_id_ok), not_after=_ALNUM),
    Rule("hk_id", "government_id", _r(r"[A-Z]{1,2}\d{6}" + _ + r"?\(?[0-9A]\)?(?![A-Za-z0-9])"),
         "Hong Kong Immigration Department HKID (check digit mod 11)", check=_hkid_ok, not_after=_ALNUM),
    Rule("uk_nino", "government_id",
         _r(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]" + _ + r"?\d{2}" + _ + r"?\d{2}" + _ + r"?\d{2}" + _
            + r"?[A-D](?![A-Za-z0-9])"),
         "HMRC National Insurance Manual NIM39110 (prefix rules, suffix A-D)", check=_nino_ok, not_after=_ALNUM),
    # ---- secrets: key words and command lines ----
    # No boundary before: the two 'eyJ' segments and their dots are the guard, so a JWT glued after a
    # digit, a letter or a percent-escape (``token1eyJ…``, ``?q=%22eyJ…``) is the same token (tatk18 5; a
    # percent-decoded view cannot show it whole: its Base64 segments are decoded in the same layer).
    Rule("jwt", "secret", _r(r"eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}"),
         "RFC 7519 (JWS compact form; a JSON header always encodes to 'eyJ')"),
    Rule("authorization_header", "secret",
         _r(r"authorization[\"']?" + _ + r"*[:=]" + _ + r"*[\"']?(?:bearer|basic|token)"
            + _ + r"+([a-z0-9._~+/=-]{16,})"),
         "RFC 6750 s.2.1 (Bearer), RFC 7617 (Basic)", group=1, check=_not_placeholder, lower=True),
    Rule("bearer_token", "secret",
         _r(r"(?:Bearer|bearer|BEARER)" + _ + r"+([A-Za-z0-9._~+/=-]{20,})"),
         "RFC 6750 s.2.1 (Bearer credentials, b64token syntax): a token after the scheme word, JWT or opaque",
         group=1, check=_bearer_ok, lower=False, needs=("bearer",), not_after=_WORDCH),
    Rule("cli_secret_process_subst", "secret",
         _r(r"(?:--?[a-z0-9-]*(?:pass|secret|token|cred|auth|key)[a-z0-9-]*|sshpass[^\n|;&]*?" + _ + r"-f)(?:=|" + _
            + r"+)<\(" + _ + r"*(?:echo|printf|cat" + _ + r"+<<<)(?:" + _ + r"+-[a-z]+)*" + _
            + r"+([\"']?[^\s\"')]{3,}[\"']?)"),
         "bash process substitution <(echo VALUE) fed to a password-file option (rsync --password-file, "
         "sshpass -f, mysql --defaults-extra-file): the value is on the command line all the same",
         group=1, check=_cli_value_ok, lower=True, needs=("<(",)),
    Rule("password_piped_to_stdin", "secret",
         _r(r"(?:echo|printf)(?:" + _ + r"+-[a-z]+)*" + _ + r"+([\"']?[^\s\"'|;&]{3,}[\"']?)" + _
            + r"*\|[^\n]{0,120}?(?:--password-stdin|(?<![a-z])sudo" + _ + r"+(?:-[a-z]*" + _ + r"+)*?-s(?![a-z])|"
            r"chpasswd|passwd" + _ + r"+--stdin)"),
         "Docker CLI reference 'docker login --password-stdin', sudo(8) -S, passwd --stdin, chpasswd(8): a literal "
         "echoed into a command that reads a password from stdin (round 13, set O pw-cli-docker)",
         group=1, check=_cli_value_ok, lower=True, needs=("--password-stdin", "sudo", "chpasswd", "--stdin")),
    Rule("url_credentials", "secret",
         _r(r"\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@?#]{0,64}:([^\s@/]{3,128})@(?=[A-Za-z0-9\[])"),
         "RFC 3986 s.3.2.1 (user:password in the userinfo, deprecated)", group=1, check=_password_ok, needs=("://",)),
    Rule("password_assignment", "secret",
         _r(r"(?:password|passwd|passphrase|pwd|pass_word|_auth|rediscli_auth)[\"']?" + _
            + r"*[:=]" + _ + r"*([\"']?[^\s\"',;]{4,}[\"']?)"),
         "Tiers seed T3 rule 'Passwords -> secret manager'; key names as in CWE-798 examples",
         group=1, check=_password_ok, lower=True),
    Rule("login_pair", "secret",
         _r(r"(?:登录|登陆|login|log in|sign in|账号|帐号|帳號|用户名|username)[^\n/]{0,12}?(?<![\w@.-])"
            r"[\w.@+-]{2,40}" + _ + r"*/" + _ + r"*([!-~]{6,64})(?![!-~])"),
         "a user name and its password as 'user / password' after a log-in word (nu8: '登录用 admin / "
         "P@ssw0rd2024' was stored)", group=1, check=lambda v, m, t: _pair_password(v), lower=True,
         needs=("登录", "登陆", "login", "log in", "sign in", "账号", "帐号", "帳號", "用户名", "username")),
    Rule("pass_assignment", "secret",
         _r(r"(?:pass|pw)[\"']?" + _ + r"*[:=]" + _ + r"*([\"']?[^\s\"',;/]{4,}[\"']?)"),
         "Tiers seed T3 rule 'Passwords'; 'user: x / pass: y' shorthand", group=1, check=_pw_value_ok,
         lower=True, not_after=_LETTERS,
         triggers=frozenset("pas pw".split())),
    *_keyword_rules(
        "password", _PASSWORD_WORDS, _PASSWORD_TRIGGERS, value=r"(\S{4,64})", bare_value=r"([!-~]{4,64})(?![!-~])",
        check=_pw_value_ok, bare_check=_pw_bare_ok, bare_not_after=_LETTERS + "-_=\"'", free_gap=True,
        source="Tiers seed T3 rule 'Passwords -> secret manager': an explicit 'password [for X] is Y', or the key "
               "word, a space and a password-like value (typos and chat short forms: pasword, psw, pw, mima)"),
    *_keyword_rules(
        "pin", _PIN_WORDS, _PIN_TRIGGERS, value=r"(\S{4,64})", bare_value=r"(\d{4,12}#?|\d{2}-\d{2,4}-\d{2})(?![\w@/.:-])",
        check=_pin_ok, bare_check=_pin_ok, bare_not_after=_LETTERS, free_gap=False,
        source="Tiers seed T3 rule 'Passwords': a PIN, passcode, door or lock combination after its key word"),
    Rule("password_phrase_zh", "secret",
         _r(r"(?:密码|密碼|口令|暗码|授权码|专用密码|pin" + _ + r"*(?:码|碼)|puk" + _ + r"*(?:码|碼)|PIN" + _ + r"*(?:码|碼)|"
            r"PUK" + _ + r"*(?:码|碼)|PIN|开锁码|门禁码|开门码|安全码|パスワード|비밀번호)[」』\"”'’\]】]?(?:[（(][^）)\n]{0,16}[）)])?"
            r"(?:[^\n，。,;；!?！？]{0,8}?(?:" + _ZH_SET + r"|是|为|為|"
            r"\bis\b|\bwas\b|:|=|->|→|=>|＝)|" + _ + r"*)" + _ + r"*[:=]?" + _
            + r"*[\"'“‘`「『]?([!-~]{4,64}|[零〇一二三四五六七八九]{4,12})"),
         "Tiers seed T3 rule (zh): '密码 -> 密钥管理器'; value after the key word (or its bracketed label), a few "
         "words, and 是/改成/填成/:", group=1, check=_pw_zh_ok),
    Rule("password_later_in_clause_zh", "secret",
         _r(r"(?:密码|密碼|口令)[^\n。；;!?！？]{0,20}?(?:现在是|现在|改成了?|改为|换成了?|重置成|重置为|设成了?|设为|是)"
            r"[^\n\x21-\x7e。，,；;]{0,6}?[ \t:：]*[\"'“‘`「『]?([!-~]{6,40})"),
         "Tiers seed T3 rule (zh): '密码 -> 密钥管理器'; the value a clause or a few words after the key word ('邮箱密码"
         "忘了又重置了，现在是 X', '密码是大写的 X'; round 14, sets S pw-zh and T password-natural): a value that "
         "mixes letters and digits and reads as a password (:func:`_pw_value_ok`), not a version", group=1,
         check=lambda v, m, t: bool(re.search(r"[A-Za-z]", v) and re.search(r"\d", v))
         and not re.fullmatch(r"[vV]?\d+(?:\.\d+)+\w*", _secret_value(v)) and _pw_value_ok(v, m, t)
         and not is_placeholder(v),
         needs=("密码", "密碼", "口令")),
    Rule("password_value_first", "secret",
         _r(r"(?m)^[ \t>*-]*[`'\"“‘「『]?([!-~]{6,64}?)[`'\"”’」』]?" + _ + r"*(?:←|<-|<=|=|is|was|will be|是|就是|这个是|这是)"
            + _ + r"*(?:the|my|our|a|这个|新的|现在的|我的)?[^\n.。,，]{0,24}?(?:password|passwd|passphrase|passcode|pw|"
            r"unlock code|door code|gate code|keypad code|alarm code|pin|密码|口令)(?![a-z])"),
         "Tiers seed T3 rule 'Passwords': the value first, then what it is ('X <- 这个是新的 wifi 密码', "
         "'`X` is the new admin password for grafana'; round 13, own phrasings of set O's pw-en-value-first: "
         "'X is the unlock code for the garage keypad', '「X」是我 Steam 的密码', 'X 是公司 VPN 的口令')",
         group=1, check=_pw_value_first_ok,
         needs=("←", "<-", "<=", "` is", "' is", "\" is", " is the ", " is my ", " is our ", "这个是", "这是", "就是",
                "是新的", "的密码", "的口令", "是我", "是公司", "是家里")),
    Rule("password_quoted", "secret",
         _r(r"(?:passphrase|password|pass phrase)(?:" + _ + r"+(?:for|of|to|on)" + _ + r"+[^\n:=]{1,40}?)?"
            + _ + r"*(?::|=|is)" + _ + r"*[\"'‘“「]([^\"'’”」\n]{8,64}?)[\"'’”」]"),
         "Tiers seed T3 rule 'Passwords': a quoted passphrase of several words after its key word", group=1,
         check=_quoted_pass_ok, lower=True, not_after=_LETTERS, triggers=frozenset({"pas"})),
    Rule("password_quoted_zh", "secret",
         _r(r"(?:密码|口令)[^\n:=是]{0,12}?" + _ + r"*(?::|=|是)" + _ + r"*[\"'‘“「]([^\"'’”」\n]{8,64}?)[\"'’”」]"),
         "Tiers seed T3 rule (zh): a quoted passphrase after 密码/口令", group=1, check=_quoted_pass_ok),
    Rule("auth_code_zh", "secret",
         _r(r"(?:授权码|客户端授权码|专用密码|独立密码|app password|app-specific password|application password|"
            r"应用密码|应用专用密码)[^\n:=：]{0,24}?[:=是为]?" + _ + r"*([A-Za-z0-9]{12,32}|[a-z]{4}(?:" + _
            + r"[a-z]{4}){3})(?![A-Za-z0-9])"),
         "QQ/163 Mail help (SMTP 授权码, 16 letters) and Google Account help 'App passwords' (4 groups of 4): "
         "a password for a mail client", group=1, check=_not_placeholder, lower=True,
         needs=("授权码", "专用密码", "独立密码", "app password", "app-specific", "application password", "应用密码")),
    Rule("recovery_codes", "secret",
         _r(r"(?:recovery|backup|2fa|two-factor|scratch|rescue|恢复|备用|救援)" + _ + r"*(?:codes?|码)[^\n:]{0,40}?:"
            + _ + r"*([0-9a-z]{4,10}(?:-[0-9a-z]{4,10})?(?:[ \t,]+[0-9a-z]{4,10}(?:-[0-9a-z]{4,10})?)*)"),
         "GitHub/Google docs '2FA recovery codes' (one-time passwords for an account)", group=1,
         check=lambda v, m, t: bool(re.search(r"\d", v)) and not is_placeholder(v), lower=True,
         needs=("recovery code", "backup code", "2fa code", "two-factor code", "scratch code", "rescue code",
                "恢复码", "备用码", "救援码")),
    Rule("wifi_key", "secret",
         _r(r"(?:wi-?fi|wlan|ssid|wpa2?|热点|无线)[^\n]{0,40}?(?:key|psk|密钥)" + _ + r"*(?:is|:|=|是)?" + _
            + r"*(\S{8,63})"),
         "IEEE 802.11i WPA2-PSK passphrase (8-63 characters) after a Wi-Fi word and 'key'", group=1,
         check=_pw_value_ok, lower=True, needs=("wifi", "wi-fi", "wlan", "ssid", "wpa", "热点", "无线")),
    Rule("wpa_passphrase_cli", "secret",
         _r(r"wpa_passphrase" + _ + r"+(?:\"[^\"\n]+\"|\S+)" + _ + r"+([\"']?[^\s\"']{8,63}[\"']?)"),
         "wpa_passphrase(8): wpa_passphrase <ssid> <passphrase>", group=1, check=_cli_value_ok, needs=("wpa_pass",)),
    Rule("cli_net_user", "secret",
         _r(r"net" + _ + r"+user" + _ + r"+(?:\"[^\"\n]+\"|\S+)" + _ + r"+([^\s/*]{4,})"),
         "Microsoft 'net user' docs: net user <name> <password>", group=1, check=_pw_value_ok, lower=True,
         needs=("net user",)),
    Rule("cli_mqtt_P", "secret",
         _r(r"(?:mosquitto_pub|mosquitto_sub|mosquitto_rr|mqttx?|mqtt-cli)\b[^\n|;&]*?" + _ + r"(?:-P|--pw|--password)"
            + _ + r"+([\"']?[^\s\"'-][^\s\"']{2,}[\"']?)"),
         "mosquitto_pub(1): -P <password>", group=1, check=_cli_value_ok, needs=("mosquitto", "mqtt")),
    Rule("sudo_stdin", "secret",
         _r(r"(?:echo|printf)" + _ + r"+(?:-[ne]+" + _ + r"+)?([\"']?(?!\$)[^\s\"'|]{4,}[\"']?)" + _
            + r"*\|[^\n]*(?:sudo" + _ + r"+-S|passwd" + _ + r"+--stdin|chpasswd|-S" + _ + r"|--stdin)|"
            r"sudo" + _ + r"+-S[^\n]*?<<<" + _ + r"*([\"']?[^\s\"']{4,}[\"']?)"),
         "sudo(8) -S reads the password from standard input (echo ... | sudo -S, here-strings)",
         check=_sudo_ok, needs=("sudo -s", "--stdin", "chpasswd")),
    Rule("sql_identified_by", "secret",
         _r(r"(?:identified" + _ + r"+(?:with" + _ + r"+\w+" + _ + r"+)?by|with" + _ + r"+password|encrypted" + _ + r"+password)"
            + _ + r"*'([^'\n]{4,})'"),
         "MySQL CREATE/ALTER USER ... IDENTIFIED BY, PostgreSQL CREATE ROLE ... WITH PASSWORD", group=1,
         check=_cli_value_ok, lower=True, needs=("identified", "with password", "encrypted password")),
    Rule("authorization_quoted", "secret",
         _r(r"authorization[\"']?" + _ + r"+[\"']?(?:bearer|basic|token)" + _ + r"+([a-z0-9._~+/=-]{16,})"),
         "RFC 7617 Basic / RFC 6750 Bearer credentials in a proxy or client config line (nginx "
         "proxy_set_header Authorization \"Basic ...\")", group=1, check=_not_placeholder, lower=True,
         needs=("authorization",)),
    Rule("secrets_file_line", "secret",
         _r(r"(?:\.secrets|secrets file|rsyncd\.secrets|chpasswd|\.htpasswd|credentials file|凭据文件)[^\n]{0,30}?"
            r"(?<![\w/.-])[a-z_][a-z0-9_.-]{1,31}:([^\s:]{4,64})"),
         "rsyncd.conf(5) 'secrets file' (user:password lines), chpasswd(8) input", group=1, check=_pw_value_ok,
         lower=True, needs=("secret", "chpasswd", "htpasswd", "credentials", "凭据")),
    Rule("password_typed_after_prompt", "secret",
         _r(r"(?:然后输入?|再输入?|输入|输|then type|then enter)" + _ + r"*([!-~]{6,64})"),
         "a password typed at a client's prompt (psql -W, mysql -p), written down in the note", group=1,
         check=_typed_ok, needs=("输", "then type", "then enter")),
    Rule("plaintext_value", "secret",
         _r(r"(?:明文|in plain ?text|plaintext|cleartext|in clear)(?:" + _ + r"*(?:是|为|写着|写成|写的是|写|就是|is|:|=))?" + _
            + r"*[`'\"]?([!-~]{6,64})"),
         "Tiers seed T3 rule 'Passwords': a value said to be stored in plain text", group=1,
         check=_pw_bare_strong_ok, lower=True, needs=("明文", "plain text", "plaintext", "cleartext", "in clear")),
    Rule("labelled_user_slash_pass", "secret",
         _r(r"[:：]" + _ + r"*[A-Za-z0-9._@-]{2,32}" + _ + r"+/" + _ + r"+([!-~]{6,64})(?![!-~])"),
         "Tiers seed T3 rule 'Passwords': 'service: user / password' (the value mixes three character classes)",
         group=1, check=_pw_bare_strong_ok, needs=(" / ",)),
    Rule("netrc_password", "secret",
         _r(r"login" + _ + r"+\S+" + _ + r"+password" + _ + r"+(\S{3,})"),
         "GNU inetutils .netrc format (machine / login / password tokens)", group=1,
         check=lambda v, m, t: _cli_value_ok(v, m, t) and not _NOT_A_PASSWORD.match(_secret_value(v)),
         not_after=_WORDCH),
    Rule("cli_password_option", "secret",
         _r(r"--(?:password|passwd|pass|auth|requirepass|masterauth|db-password|admin-password)(?:=|" + _
            + r"+)([\"']?[^\s\"']{3,}[\"']?)"),
         "mysql/mongosh/redis-cli/docker/skopeo manuals: password given on the command line", group=1,
         check=_cli_value_ok, lower=False),
    Rule("cli_mysql_p", "secret",
         _r(r"(?:mysql|mysqldump|mysqladmin|mariadb|mysqlsh|mysqlimport)\b[^\n|;&]*?" + _
            + r"-p([\"']?(?:-(?!-))?[!#-&(-+.-~][^\s\"']{2,}[\"']?)"),
         "MySQL manual 'Command options for connecting': -p<password> (attached; a separate word is the database)",
         group=1, check=_mysql_p_ok),
    Rule("cli_p_separate", "secret",
         _r(r"(?:(?:sshpass|docker login|podman login|nerdctl login|helm registry login|buildah login|"
            r"skopeo login|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b[^\n|;&]*?" + _ + r"-[pa]|"
            r"(?:redis-cli|keydb-cli)\b[^\n|;&]*?" + _ + r"-a)" + _ + r"*([\"']?[^\s\"'-][^\s\"']{2,}[\"']?)"),
         "sshpass(1), docker login, mongosh manuals: -p/-a <password>; redis-cli(1): -a <password> (its -p is "
         "the port)", group=1, check=_cli_value_ok, needs=("sshpass", "login", "mongo", "redis-cli", "keydb-cli")),
    Rule("cli_user_colon_pass", "secret",
         _r(r"(?:curl|wget|http|httpie|git)\b[^\n|;&]*?" + _ + r"(?:-u|--user)" + _
            + r"*[\"']?[^\s:\"']+:([^\s\"']{3,})"),
         "curl(1) -u user:password", group=1, check=_cli_value_ok),
    Rule("here_string_password", "secret",
         _r(r"(?:--password-stdin|login|" + _ + r"-[pPSW]|passwd)(?:" + _ + r"[^\n]*?)?<<<" + _
            + r"*([\"']?[^\s\"']{4,}[\"']?)"),
         "bash here-string feeding a password to --password-stdin, a -p/-P/-S prompt (mysql -p <<< 'x'), passwd",
         group=1, check=_cli_value_ok, needs=("<<<",)),
    Rule("cli_keystore_pass", "secret",
         _r(r"-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass|passin|passout|passphrase)"
            r"(?:" + _ + r"+|=|:)(?:pass:)?([\"']?[^\s\"'-][^\s\"']{2,}[\"']?)"),
         "keytool and jarsigner docs (-storepass, -keypass), openssl(1) pass phrase arguments (-passin pass:X)",
         group=1, check=_cli_value_ok, needs=("pass",)),
    Rule("cli_user_then_password", "secret",
         _r(r"(?:rabbitmqctl(?:\.bat)?" + _ + r"+(?:add_user|change_password|authenticate_user)|mosquitto_passwd"
            + _ + r"+-b" + _ + r"+\S+)" + _ + r"+[\"']?[^\s\"']+[\"']?" + _ + r"+([\"']?[^\s\"'-][^\s\"']{2,}[\"']?)"),
         "rabbitmqctl(8) add_user/change_password <user> <password>; mosquitto_passwd -b <file> <user> <password>",
         group=1, check=_cli_value_ok, needs=("rabbitmqctl", "mosquitto_passwd")),
    Rule("echo_password_stdin", "secret",
         _r(r"echo" + _ + r"+(?:-n" + _ + r"+)?([\"']?[^\s\"'|$]{4,}[\"']?)" + _
            + r"*\|[^\n]*--password-stdin"),
         "docker login docs: a password piped to --password-stdin", group=1, check=_cli_value_ok),
    Rule("server_password_directive", "secret",
         _r(r"(?:requirepass|masterauth|masterpassword|auth_pass|rootpw|bindpw|password_file_contents)" + _
            + r"*(?:(?:" + _ZH_SET + r"|是|为|is|=|:)" + _ + r"*)?([\"']?[!-~]{4,}[\"']?)"),
         "redis.conf requirepass/masterauth, slapd rootpw, keepalived auth_pass", group=1, check=_pw_value_ok,
         not_after=_WORDCH),
    Rule("mnemonic_phrase", "secret",
         _r(r"(?:seed phrase|seed words|mnemonic(?: phrase| words)?|recovery phrase|wallet seed|助记词|种子短语|"
            r"恢复短语|恢复词|备份词|(?:recovery|backup|secret|wallet) words|(?:12|24)[ \t-]words?|"
            r"(?:ledger|trezor|metamask|wallet|钱包)[ \t]*(?:backup|备份))(?:[^\n]{0,8}?(?:[:：是=]|->|→)" + _
            + r"*|" + _ + r"+)((?:[a-z]{3,8}" + _ + r"+){11,23}[a-z]{3,8})"
            r"(?![a-z])"),
         "BIP-39 mnemonic (12, 15, 18, 21 or 24 words) after its key word (seed phrase, recovery words, a "
         "hardware wallet's backup, 助记词)", group=1, lower=True,
         check=_mnemonic_ok,
         # speed: its derived literals would hold "backup" and "备份" (on every line about backups)
         needs=("seed phrase", "seed words", "mnemonic", "recovery phrase", "wallet seed", "助记词", "种子短语",
                "恢复短语", "恢复词", "备份词", "recovery words", "backup words", "secret words", "wallet words",
                "12 word", "24 word", "12-word", "24-word", "12\tword", "24\tword", "ledger", "trezor", "metamask",
                "wallet", "钱包")),
    Rule("pkcs8_blob", "secret",
         _r(r"(?:private[ _-]?key|privkey|私钥|密钥|key)[^\n]{0,24}?(M[IC][A-Za-z0-9+/]{36,}={0,2})"),
         "RFC 5208 PKCS#8 PrivateKeyInfo, DER as Base64 (starts 'MII'/'MC4') after a key word", group=1,
         check=_der_not_public_ok),
    Rule("der_private_key", "secret", _r(r"M[IHC][A-Za-z0-9+/]{38,}={0,2}(?![A-Za-z0-9+/=])"),
         "RFC 8017 A.1.2, RFC 5208 s.5, RFC 5915 s.3: Base64 DER of a private key by its structure (a "
         "version INTEGER first), with or without a key word", check=_der_private_key_ok,
         not_after=_LETTERS + "0123456789+/"),
    Rule("password_changed_to", "secret",
         _r(r"(?:chang\w*|set|reset|updat\w*|switch\w*|rotat\w*)" + _ + r"+[^\n]{0,30}?"
            r"(?:password|passcode|passphrase|pin|pwd)" + _ + r"+to" + _ + r"+[\"'`]?(\S{4,64})"),
         "Tiers seed T3 rule 'Passwords': 'changed my iCloud password to X'", group=1, check=_pin_ok, lower=True,
         not_after=_LETTERS, triggers=frozenset("cha set res upd swi rot".split())),
    Rule("user_slash_password", "secret", _r(r"/([!-\-0-9:;<>@-~]{8,64})(?![!-~])"),  # no / . = ? in the value
         "Tiers seed T3 rule 'Passwords': 'root/3&@1kqm2D^hCM' (user/password with no login word)", group=1,
         check=_slash_pass_ok),
    Rule("putty_key", "secret", _r(r"(?:PuTTY-User-Key-File-\d|Private-Lines|Private-MAC):" + _ + r"*\S+"),
         "PuTTY manual appendix C (PPK file format)", keep=True),
    Rule("openssh_key_body", "secret", _r(r"b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/=]{10,}"),
         "OpenSSH PROTOCOL.key: Base64 of 'openssh-key-v1'"),
    Rule("secret_assignment", "secret",
         _r(r"(?:secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|signing[_-]?key|"
            r"credential|app[_-]?key|appkey|secret[_-]?key|secretkey|client[_-]?secret|密钥|秘钥|令牌|口令|私钥|"
            r"sessionid|cookie|key)[\w.-]{0,20}(?:[\"']?" + _ + r"*(?:[:=]|" + _ + r"is|是|为|" + _ + r")|[\]】])" + _
            + r"*[\"']?(?:base64:)?([a-z0-9+/=_\-.~]{16,})"),
         "high-entropy value under a secret-looking key word, any language (detect-secrets KeywordDetector + "
         "entropy idea)", group=1, check=_keyed_random_ok, lower=True),
    Rule("keyed_phrase", "secret",
         _r(r"(?:token|secret|api key|api token|access key|app key|key|密钥|秘钥|令牌)(?:" + _ + r"+(?:for|of|to|on)"
            + _ + r"+[^\n:=]{1,40}?)?(?:" + _ + r"+(?:is|was|is now)|" + _ + r"*(?:=|:|->|→))" + _
            + r"*[\"'`]?([A-Za-z0-9+/=_\-.~]{16,})"),
         "a high-entropy value after 'the token/key/secret [for X] is' (detect-secrets KeywordDetector idea)",
         group=1, check=_keyed_random_ok, lower=True, not_after=_LETTERS),
    Rule("keyed_uuid", "secret",
         _r(r"(?:api[_-]?key|apikey|secret|token|密钥|秘钥|ark|volc\w*|火山\w*|方舟|key)[^\n:=]{0,30}?[\"']?" + _
            + r"*(?:[:=]|是|为|" + _ + r")" + _ + r"*[\"']?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"),
         "Volcano Engine Ark, Pinecone, Heroku docs (API keys are UUIDs): a UUID after an API key word", group=1,
         lower=True, needs=("-",), check=_keyed_uuid_ok),
    Rule("short_key_name", "secret",
         _r(r"(?:ak|sk|app[ _-]?secret|appsecret|app[ _-]?key|appkey|secret[ _-]?key|secretkey|access[ _-]?secret)" + _
            + r"*(?:[:=]|是|为|is)" + _ + r"*[\"'`]?([A-Za-z0-9+/=_\-]{16,})"),
         "Baidu Maps 'ak', Qiniu/Tencent/Volcano 'AK/SK' pairs, WeChat/Feishu AppSecret: a high-entropy value "
         "after the short key name", group=1, check=_keyed_random_ok, lower=True, not_after=_LETTERS + "_-",
         triggers=frozenset("ak sk app sec acc".split())),
    Rule("nino_with_cue", "government_id",
         _r(r"(?:ni|national insurance|nino)(?:" + _ + r"+(?:number|no\.?|#))?" + _ + r"*(?:is|:)?" + _
            + r"*([a-z]{2}" + _ + r"?\d{2}" + _ + r"?\d{2}" + _ + r"?\d{2}" + _ + r"?[a-d])(?![a-z0-9])"),
         "HMRC NIM39110: a number of the NINO shape after its name is one, even with a prefix HMRC does "
         "not issue", group=1, lower=True, not_after=_LETTERS, triggers=frozenset({"ni", "nat", "nin"})),
    Rule("cli_smb_user_pass", "secret",
         _r(r"(?:smbclient|rpcclient|smbmap|crackmapexec|mount\.cifs|mount -t cifs)\b[^\n|;&]*?(?:-U|user=)" + _
            + r"*[\"']?[^\s%\"']+%([^\s\"']{3,})"),
         "smbclient(1) -U user%password", group=1, check=_cli_value_ok, needs=("smb", "rpcclient", "crackmapexec", "cifs")),
    Rule("cli_w_P", "secret",
         _r(r"(?:ldapsearch|ldapmodify|ldapadd|ldapdelete|ldappasswd|ldapwhoami|sqlcmd|bcp|osql|isql)\b[^\n|;&]*?"
            + _ + r"-[wP]" + _ + r"*([\"']?[^\s\"'-][^\s\"']{2,}[\"']?)"),
         "OpenLDAP ldapsearch(1) -w, Microsoft sqlcmd -P: password on the command line", group=1,
         check=_cli_value_ok, needs=("ldap", "sqlcmd", "bcp", "osql", "isql")),
    Rule("cli_net_use", "secret", _r(r"net" + _ + r"+use\b[^\n]*?\\\\\S+" + _ + r"+([^\s/]{4,})" + _ + r"+/user:"),
         "Microsoft 'net use' docs: net use <drive> \\\\server\\share <password> /user:<name>", group=1,
         check=_cli_value_ok, lower=True),
    Rule("cli_htpasswd", "secret",
         _r(r"htpasswd" + _ + r"+-[a-zA-Z]*b[a-zA-Z]*(?:" + _ + r"+-[a-zA-Z]+)*" + _ + r"+\S+" + _ + r"+\S+" + _
            + r"+(\S{4,})"),
         "Apache htpasswd -b (password on the command line)", group=1, check=_cli_value_ok),
    Rule("powershell_securestring", "secret",
         _r(r"ConvertTo-SecureString" + _ + r"+(?:-String" + _ + r"+)?[\"']([^\"'\n]{4,})[\"']"),
         "PowerShell docs ConvertTo-SecureString -AsPlainText", group=1, check=_cli_value_ok, lower=False),
    Rule("redis_auth", "secret", _r(r"\bAUTH" + _ + r"+(?:[a-z0-9_-]+" + _ + r"+)?([!-~]{6,})"),
         "Redis AUTH [username] password command", group=1, check=_pw_value_ok),
    Rule("pgpass_line", "secret",
         _r(r"[A-Za-z0-9.*_-]+:(?:\d{2,5}|\*):[A-Za-z0-9_*-]+:[A-Za-z0-9_*-]+:([^\s:]{4,})"),
         "PostgreSQL docs 'The password file' (hostname:port:database:username:password)", group=1,
         check=_pw_value_ok, needs_re=re.compile(r":(?:\d{2,5}|\*):")),
    Rule("user_slash_pass", "secret",
         _r(r"(?:login|creds?|credentials|account|账号|账户|帐号|用户名|用户)[^\n]{0,40}?[ :：]" + _
            + r"*[A-Za-z0-9._@-]{2,32}" + _ + r"*(?:/|:)" + _ + r"*([!-~]{6,64})"),
         "Tiers seed T3 rule 'Passwords': 'user / password' or 'user:password' after a login word", group=1,
         check=_user_pass_ok),
    Rule("quoted_secret_assignment", "secret",
         _r(r"(?:secret|token|api[_-]?key|apikey|private[_-]?key|signing[_-]?key|secret[_-]?key|sessionid|"
            r"session[_-]?id|session[_-]?token|cookie)[\w.-]{0,20}[\"']?" + _ + r"*[:=]" + _
            + r"*[\"']([^\"'\s]{16,})[\"']"),
         "a quoted high-entropy value under a secret key word (Django SECRET_KEY, session cookies)", group=1,
         check=_keyed_random_ok, lower=True),
    Rule("session_cookie", "secret",
         _r(r"(?:sessionid|session_id|sessid|phpsessid|jsessionid|connect\.sid|_session|\.roblosecurity|sessdata|"
            r"bili_jct|li_at|sp_dc|z_c0|music_u|sapisid|__secure-[13]psid\w*|auth_token|laravel_session|"
            r"wordpress_logged_in_\w*)=([A-Za-z0-9%._|:-]{16,})"),
         "RFC 6265 session cookies (a session id is a bearer credential), by the names services give them "
         "(Roblox .ROBLOSECURITY, Bilibili SESSDATA, LinkedIn li_at, Spotify sp_dc, Zhihu z_c0, Google __Secure-*PSID)", group=1, check=_keyed_random_ok, lower=True),
    Rule("url_token_param", "secret",
         _r(r"[?&](?:access_token|token|api_key|apikey|key|secret|sign|signature|sig|auth)=([A-Za-z0-9_\-.%]{16,})"),
         "RFC 6750 s.2.3 (access token in a URI query); webhook keys", group=1, check=_keyed_random_ok),
    Rule("bare_random_line", "secret",
         # The labels are looked behind for (the finding is the value alone, as the approval
         # book records it), each after a one-character check that fails at most positions
         # (":" or ": " before it): the same matches at half the cost of trying all six at every
         # position (issue 15, round 9).
         _r(r"(?m)(?:^[ \t]*|(?<=:)(?<=^- [因改待]:)|(?<=: )(?:(?<=^- Cause: )|(?<=^- Change: )|(?<=^- Todo: )))"
            r"([A-Za-z0-9_+/=.-]{24,200})[ \t]*\r?$"),
         "detect-secrets' high-entropy string idea: a line that is one generated-looking token (upper, lower and "
         "digits mixed) is probably a secret cut off its key word; possible, not certain. A daily note's item "
         "label before it ('- Change: ', '- 改：', read NFKC-normalised) is still a bare line (tatk9: an "
         "approved value stored so was never masked again)", group=1,
         check=_bare_random_ok, confidence=POSSIBLE),
    # ---- identifiers ----
    Rule("ssn_with_cue", "government_id",
         _r(r"(?:ssn|social security(?: number| no\.?| #)?)(?:" + _ + r"*\([^()\n\d]{1,24}\))?" + _
            + r"*(?:is|:|#|是|=|：)?" + _ + r"*(\d{3}[ -]?\d{2}[ -]?\d{4})(?!\d)"),
         "US Social Security Administration number after its name (an aside such as '(no dashes)' between); "
         "area 000, 666 and 900-999, group 00 and serial 0000 never issued", group=1, lower=True,
         not_after=_LETTERS, check=_ssn_ok),
    # ---- round 6 (issue 9): kinds found missing on set I ----
    Rule("bitlocker_recovery_key", "secret", _r(r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])"),
         "Microsoft BitLocker recovery password: 48 digits in 8 blocks of 6, each a multiple of 11 below 720896",
         check=_bitlocker_ok, numeric=True),
    Rule("medicare_mbi", "government_id",
         _r(r"(?<![A-Za-z0-9])[1-9][" + _MBI_LETTER + r"][" + _MBI_LETTER + r"0-9]\d-?[" + _MBI_LETTER + r"]["
            + _MBI_LETTER + r"0-9]\d-?[" + _MBI_LETTER + r"]{2}\d{2}(?![A-Za-z0-9])"),
         "CMS Medicare Beneficiary Identifier format (11 characters, positions fixed, no S L O I B Z), on a line "
         "that names Medicare", needs=("medicare", "mbi", "beneficiary")),
    Rule("uk_driving_licence", "government_id",
         _r(r"(?<![A-Za-z0-9])[A-Z9]{5}\d[0156]\d[0-3]\d\d[A-Z9]{2}\d[A-Z]{2}(?:[ \t]?\d{2})?(?![A-Za-z0-9])"),
         "DVLA driving licence number (surname, birth date with month + 50 for women, initials, check letters), "
         "on a line that names a licence", check=_uk_licence_ok, needs=("licence", "license", "dvla", "driving",
                                                                          "驾照", "驾驶证")),
    Rule("brokerage_account", "bank_account",
         _r(r"(?:brokerage|investment|trading|custody|roth ira|ira|401\(?k\)?|isa|sipp|证券|股票|基金|资金)"
            + _ + r"*(?:account|acct|账户|账号|帐户)(?:" + _ + r"*(?:no\.?|number|#|号码?))?[^\n\da-z]{0,6}"
            r"([a-z]{0,2}\d{2,4}-?\d{4,10})(?![\da-z])"),
         "Tiers seed T3 rule 'Financial account numbers': a brokerage or retirement account number after its "
         "name (Fidelity Z12-345678, 证券账户)", group=1, lower=True, not_after=_LETTERS,
         check=lambda v, m, t: len(re.sub(r"\D", "", v)) >= 6 and not _doc_value(v, m, t),
         needs=("account", "acct", "账户", "账号", "帐户")),
    Rule("credential_pair", "secret",
         _r(r"(?:账号|帐号|用户名|user(?:name)?|login)" + _ + r"*(?:和|与|及|/|、|and|&)?" + _
            + r"*(?:密码|口令|password|passwd|pass)[^\n]{0,6}?(?:分别|respectively)?" + _ + r"*(?:是|为|[:：=]|are|is)"
            + _ + r"*\S+?" + _ + r"*(?:和|与|/|、|,|，|and|&)" + _ + r"*([!-~]{4,64})(?![!-~])"),
         "Tiers seed T3 rule 'Passwords': a user name and its password given together ('账号密码分别是 X 和 Y', "
         "'user and password are X and Y')", group=1, check=_pw_value_ok, lower=True,
         needs=("密码", "口令", "password", "passwd", "pass")),
    Rule("attribute_pair_secret", "secret",
         _r(r"(?:name|key)=[\"'][\w.:-]*(?:password|passwd|pwd|secret|token|apikey|api_key|api-key|credential)"
            r"[\w.:-]*[\"'][^>\n]*?value=[\"']([^\"'\n]{4,128})[\"']"),
         "Spring/Java properties as XML, .NET appSettings (<add key=\"…Password\" value=\"…\"/>), Ant/Maven "
         "<property name=\"password\" value=\"…\"/>: a secret given as a name/value attribute pair",
         group=1, check=_pw_value_ok, lower=True, needs=("value=",)),
    Rule("access_code_phrase", "secret",
         _r(r"(?:lockbox|lock box|key ?safe|key box|padlock|combination lock|gate|door|garage|alarm|safe|locker|"
            r"门禁|密码锁|钥匙盒|保险箱|保险柜|车库|大门|门锁)[^\n]{0,40}?(?:opens? with|unlocks? with|code(?: is)?|"
            r"combo(?: is)?|combination(?: is)?|密码是|密码为|密码)" + _ + r"*[:：]?" + _ + r"*(\d{4,8})(?![\d:.])"),
         "Tiers seed T3 rule 'Passwords': the code that opens a lockbox, a gate, a door or a safe ('opens with "
         "7319'); a value shaped like a year is a code only right after 'code', 'combo' or '密码' ('has code 1961', "
         "set S pin)", group=1, lower=True,
         check=lambda v, m, t: not re.fullmatch(r"(?:19|20)\d\d", v)
         or bool(re.search(r"(?:code|combo|combination|密码)(?: is)?[ \t:：]*$", t[max(0, m.start(1) - 16):m.start(1)].lower())),
         needs=("lockbox", "lock box", "keysafe", "key safe", "key box", "padlock", "combination", "gate", "door",
                "garage", "alarm", "safe", "locker", "门禁", "密码锁", "钥匙盒", "保险箱", "保险柜", "车库", "大门",
                "门锁")),
    Rule("name_with_birth_en", "name",
         _r(r"(?<![A-Za-zÀ-ÖØ-öø-ÿ])([A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?: [A-Z]\.)? [A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+)?)(?:,|" + _ + r"\()" + _
            + r"*(?:born(?: on| in)?|b\.|dob:?|d\.o\.b\.?:?|date of birth:?)" + _ + r"*(?:\d|[A-Z][a-z]{2,8} \d)"),
         "Tiers seed checklist: 'no real names' (a full name given with its birth date, as on a form; Latin-1 "
         "letters count: 'Aisling Sørensen, born 28/1/1989', round 14, set T)", group=1,
         check=lambda v, m, t: not any(w in _NAME_STOPWORDS for w in v.replace("-", " ").split()),
         needs=("born", "b.", "dob", "d.o.b", "date of birth")),
    Rule("name_with_birth_zh", "name",
         _r(r"(?<![\u4e00-\u9fff])(" + _CN_NAME + r")" + _ + r"*(?:的)?" + _ + r"*(?:出生日期|出生年月日?|生日|出生于|生于)"
            + _ + r"*(?:是|为)?" + _ + r"*[:：]?" + _ + r"*(?:\d{4}[-/.年]|\d{1,2}月)"),
         "Tiers seed checklist (zh): '没有真实姓名' (a full name given with its birth date, as on a form: "
         "'某某 出生日期 1970-09-15', round 14, set T)", group=1, check=_cn_name_ok,
         needs=("出生", "生日", "生于")),
    Rule("hotel_room", "address",
         _r(r"(?:staying at|stay at|checked in(?:to| at)?|check-in at|booked (?:a room )?at|入住|住在|下榻)[^\n]{0,60}?"
            r"(?:room|rm\.?|房间号?|房号)" + _ + r"*(?:no\.?|number|#|号)?" + _ + r"*[:：]?" + _ + r"*(\d{2,5})(?![\d:])"),
         "Tiers seed 'Home/work addresses': where a person sleeps tonight (a hotel and its room number)", group=1,
         lower=True, needs=("room", "rm", "房间", "房号")),
    # ---- round 8 (issue 9): kinds found missing on set K ----
    Rule("email_password_pair", "secret",
         _r(r"@(?P<domain>[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24})"
            r"(?:[ \t]*[:|][ \t]*|[ \t]+[:|/][ \t]+)([!-~]{6,64})(?![!-~])(?=[ \t]*(?:$|[,;，；(（]))", re.M),
         "combo-list form 'address:password' (how leaked credentials are pasted; Have I Been Pwned 'combo "
         "lists'): a password-like value right after an e-mail address", group=2, check=_email_password_ok,
         needs=("@",)),
    Rule("split_vendor_token", "secret",
         _r(r"(?:gh[pousr]_|github_pat_|glpat-|hf_|npm_|sk-proj-|xox[bp]-)[A-Za-z0-9_-]{4,}(?:[ \t][A-Za-z0-9_-]{2,}){1,12}"),
         "a published token format (GitHub, GitLab, Hugging Face, npm, OpenAI, Slack prefixes) split by spaces "
         "'so the scanner misses it': the pieces joined match the vendor's rule", check=_split_token_ok,
         not_after=_WORDCH, needs=("gho_", "ghp_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "hf_", "npm_",
                                   "sk-proj-", "xoxb-", "xoxp-")),
    Rule("card_digit_by_digit", "payment_card", _r(r"(?<![\d-])\d(?:[ \t]\d){12,18}(?![ \t]?\d)"),
         "ISO/IEC 7812-1 (Luhn, issuer ranges): a card number read out one digit at a time", numeric=True,
         check=_digit_by_digit_card_ok),
    Rule("cn_licence_plate", "government_id",
         _r(r"[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-HJ-NP-Z][·•・.\- \t]?"
            r"[A-HJ-NP-Z0-9]{5,6}(?![A-Za-z0-9])"),
         "GA 36-2018 motor vehicle number plates (province, issuing office letter, 5 characters, 6 for new "
         "energy vehicles; no I or O), on a line that says it is someone's car", check=_plate_ok,
         confidence=POSSIBLE,
         needs=("车", "牌", "plate", "car", "reg", "停", "parked")),
    Rule("uk_number_plate", "government_id",
         _r(r"(?<![A-Za-z0-9])[A-HJ-PR-Y][A-HJ-PR-Y](?:0[1-9]|[1-7]\d)[ \t]?[A-HJ-PR-Z]{3}(?![A-Za-z0-9])"),
         "DVLA INF104 current number plate format (2 letters, age identifier, 3 letters), on a line that says "
         "it is someone's car", check=_plate_ok, confidence=POSSIBLE,
         needs=("plate", "reg ", "reg:", "reg.", "registration", "my car", "her car", "his car", "our car", "parked",
                "车")),
    Rule("vin", "government_id", _r(r"(?<![A-Za-z0-9])[A-HJ-NPR-Z0-9]{17}(?![A-Za-z0-9])"),
         "ISO 3779 vehicle identification number (17 characters, no I O Q; check digit in position 9 per "
         "49 CFR 565.15, or a VIN word on the line: GB 16735 车辆识别代号), on a line about a vehicle", check=_vin_ok,
         confidence=POSSIBLE,
         needs=("vin", "chassis", "vehicle", "my car", "our car", "the car", "car's", "truck", "车")),
    Rule("guest_room_en", "address",
         _r(r"(?:room|rm\.?)[ \t]*(?:no\.?|number|#)?[ \t]*(\d{2,5})(?![\d:])"),
         "Tiers seed 'Home/work addresses': where a person sleeps tonight (a hotel room with a guest on the line)",
         group=1, lower=True, not_after=_LETTERS, check=_guest_room_ok, needs=("room", "rm")),
    Rule("hotel_chain_room_zh", "address",
         _r(r"(?:如家|汉庭|全季|7天|七天|锦江之星|亚朵|维也纳|格林豪泰|速8|桔子|希尔顿|万豪|喜来登|洲际|智选假日|假日酒店|"
            r"酒店|宾馆|旅馆|民宿|招待所)[^\n\d，。,]{0,10}?(\d{3,5})(?![\d:.]|[ \t-]?\d)"),
         "Tiers seed checklist 'nothing finer than city' (zh): a room number right after the hotel's name "
         "('在如家3102')", group=1, check=_hotel_chain_room_ok),
    Rule("game_account_id", "handle",
         _r(r"(?:genshin|honkai|star rail|wuthering waves|valorant|riot|league|lol|fortnite|roblox|minecraft|"
            r"apex|pubg|psn|playstation|xbox|gamertag|battletag|battle\.net|steam|epic|nintendo|switch|"
            r"ubisoft|hoyoverse|mihoyo)[^\n]{0,12}?(?<![a-z])(?:uid|id|ign|gamertag|tag|username|user name|account|name)"
            r"[ \t]*(?:is|[:：=#])?[ \t]*@?([a-z0-9][a-z0-9_.#-]{2,30})(?![a-z0-9_])"),
         "Tiers seed checklist: 'no usernames or handles' (a game account: HoYoverse UIDs, PSN online IDs, Xbox "
         "gamertags after the game's or platform's name)", group=1, lower=True, not_after=_LETTERS,
         check=_game_id_ok,
         needs=("genshin", "honkai", "star rail", "wuthering", "valorant", "riot", "league", "lol", "fortnite",
                "roblox", "minecraft", "apex", "pubg", "psn", "playstation", "xbox", "gamertag", "battletag",
                "battle.net", "steam", "epic", "nintendo", "switch", "ubisoft", "hoyoverse", "mihoyo")),
    Rule("game_account_id_zh", "handle",
         _r(r"(?:原神|崩坏|星穹铁道|鸣潮|王者荣耀|王者|和平精英|英雄联盟|lol|LOL|永劫无间|蛋仔|我的世界|游戏|steam|Steam|"
            r"PSN|psn|Xbox|xbox|switch|Switch)[^\n]{0,8}?(?:UID|uid|ID|id|账号|帐号|昵称|角色名|游戏名)[ \t]*(?:是|为|[:：=])?"
            r"[ \t]*@?([A-Za-z0-9\u4e00-\u9fff][A-Za-z0-9\u4e00-\u9fff_.#-]{1,30})(?![A-Za-z0-9_])"),
         "Tiers seed checklist (zh): '没有用户名或 handle' (a game account after the game's name: 原神 UID, "
         "王者荣耀 游戏ID; a Chinese nickname with a digit counts as well: 孤狼683)", group=1, check=_game_id_ok,
         needs=("原神", "崩坏", "星穹铁道", "鸣潮", "王者", "和平精英", "英雄联盟", "lol", "永劫无间", "蛋仔", "我的世界",
                "游戏", "steam", "psn", "xbox", "switch")),
    Rule("signoff_name_en", "name",
         _r(r"(?:thanks|thank you|many thanks|thx|cheers|best|best regards|kind regards|"
            r"warm regards|regards|sincerely|yours sincerely|yours truly|yours|love|all the best|talk soon)"
            r"[ \t]*[,!.—–-]+[ \t]*([a-z]+(?:[ \t][a-z'-]+){0,2})(?=[ \t]*(?:$|[|,(（/.!]))", re.M),
         "Tiers seed checklist: 'no real names' (the name that signs a message: 'Thanks, Priya', 'Best regards, "
         "Connor Haddad | Buyer')", group=1, check=_signoff_name_ok, lower=True,
         needs=("thank", "thx", "cheers", "best", "regards", "sincerely", "yours", "love", "talk soon")),
    Rule("dash_signature_en", "name",
         _r(r"-{1,2}[ \t]*([A-Z][a-z]+(?:[ \t][A-Z][a-z'-]+){1,2})[ \t]*(?:[（(][^）)\n]{0,20}[）)])?[ \t]*$", re.M),
         "Tiers seed checklist: 'no real names' (a dash and a full name closing a message: '— Li Wei')", group=1,
         check=_dash_signature_ok, needs=("-",)),
    Rule("signature_name_zh_r8", "name",
         _r(r"(?:此致|敬礼|祝好|谢谢|多谢|顺祝商祺|祝商祺|顺颂商祺|顺颂时祺|此复|落款|署名)[^\n]{0,12}?(?:——|—|--|-|：|:|，|,)"
            + _ + r"*(" + _CN_NAME + r")(?=[（(]|[ \t]*$)", re.M),
         "Tiers seed checklist (zh): '没有真实姓名' (a name signing a letter, before its department in brackets "
         "or at the end of the line)", group=1, check=_name_ok,
         needs=("此致", "敬礼", "祝好", "谢谢", "多谢", "商祺", "时祺", "此复", "落款", "署名")),
    Rule("tw_bank_account", "bank_account",
         _r(r"(?:邮局|汇款|转帐|转账|存簿|bank code|branch code)[^\d\n]{0,12}?(?:[（(]?\d{3}[）)]?[^\d\n]{0,12}?)?"
            r"(\d{10,16})(?![\d-])"),
         "Taiwan bank and Chunghwa Post accounts (a 3-digit bank code, then 10-16 digits; 郵局 14 digits; the view is "
         "folded to simplified script, 郵局帳號 reads 邮局帐号): an "
         "account to pay into", group=1, lower=True, check=_digits_ok(10, 16)),
    Rule("medical_record_number", "health",
         _r(r"(?i)(?:nhs|medical record|patient|hospital|mrn|病历|病案|住院|门诊|就诊卡|医保卡)(?:" + _
            + r"*(?:number|no\.?|num|#|id|号码?|卡号))" + _ + r"*(?:is|是|为)?" + _ + r"*[:：#=]?" + _
            + r"*([a-z]{0,3}\d(?:[\d \t-]{4,16}\d))(?![\da-z])"),
         "NHS Digital 'NHS number' (10 digits, mod 11 check digit), hospital medical record numbers (MRN, "
         "病历号, 住院号): a health record of a person (run as given, not lower-cased: a lower-cased rule of a "
         "topic category joins the English keyword pass, which a Chinese cue never reaches)", group=1,
         not_after=_LETTERS,
         check=_medical_record_ok,
         needs=("nhs", "medical record", "patient", "hospital", "mrn", "病历", "病案", "住院", "门诊",
                "就诊卡", "医保卡")),
    Rule("immigration_visa_en", "legal",
         _r(r"(?i)(?:i'm|i am|he's|he is|she's|she is|we're|we are|they're|they are|wife is|husband is)"
            r"[ \t]+(?:still[ \t]+)?on[ \t]+(?:an?[ \t]+|my[ \t]+|his[ \t]+|her[ \t]+|a[ \t]+)?"
            r"(?:h-?1b|h-?4|f-?1|j-?1|l-?1|o-?1|e-?2|(?:stem[ \t]+)?opt|work visa|student visa|spouse visa|"
            r"dependant visa|tier[ \t]?2|skilled worker visa|graduate visa|working holiday visa)(?![a-z0-9])"),
         "AANA memory-gate seed: legal/immigration status (the visa a person's stay depends on)", keep=True,
         not_after=_LETTERS,
         needs=("h-1b", "h1b", "h-4", "h4", "f-1", "f1", "j-1", "j1", "l-1", "l1", "o-1", "o1", "e-2", "e2", "opt",
                "visa", "tier")),
    Rule("immigration_visa_zh", "legal",
         _r(r"(?:我|他|她|老公|老婆)[^\n，。]{0,4}?(?:持|拿着?|用的是|办的是|是)[^\n，。]{0,2}?"
            r"(?:H-?1B|h-?1b|F-?1|f-?1|OPT|opt|工签|学签|陪读签证?|绿卡排期|难民身份|黑户)"),
         "AANA memory-gate seed (zh): legal/immigration status (他持 H1B, 我拿的是工签)", keep=True,
         needs=("h1b", "h-1b", "f1", "f-1", "opt", "工签", "学签", "陪读", "绿卡排期", "难民身份", "黑户")),
    Rule("alone_weekdays_en", "schedule",
         _r(r"(?:alone|by myself|on my own|home alone|nobody(?:'s)? home|no one(?:'s)? home|away|travels?|"
            r"out of town)[^\n.]{0,40}?(?<![a-z])(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\.?[ \t]*"
            r"(?:-|–|to|through|thru|till|until)[ \t]*(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?(?![a-z])"),
         "Tiers seed checklist: when a person is alone or away on fixed weekdays ('alone with the kids Tue-Fri')",
         lower=True, not_after=_LETTERS, check=_schedule_person_ok,
         needs=("alone", "by myself", "on my own", "home", "away", "travel", "out of town")),
    Rule("alone_weekdays_zh", "schedule",
         _r(r"(?:一个人|独自|自己带|出差|不在家|没人|不回家)[^\n。]{0,20}?(?:周|星期|礼拜)[一二三四五六日天](?:到|至|-|~|—)"
            r"(?:周|星期|礼拜)?[一二三四五六日天]|(?:周|星期|礼拜)[一二三四五六日天](?:到|至|-|~|—)(?:周|星期|礼拜)?"
            r"[一二三四五六日天][^\n。]{0,20}?(?:一个人|独自|自己带|出差|不在家|没人|不回家)"),
         "Tiers seed checklist (zh): when a person is alone or away on fixed weekdays (周二到周五我一个人带孩子)",
         check=_schedule_person_ok, needs=("一个人", "独自", "自己带", "出差", "不在家", "没人", "不回家")),
    Rule("home_empty_period_zh", "schedule",
         _r(r"(?:每年|每逢|春节|过年|国庆|五一|暑假|寒假|假期|[0-9一二三四五六七八九十]+月)[^\n。]{0,24}?"
            r"(?:房子空着|家里空着|家里没人|家里没有人|空着没人|家就空了|屋里没人)"),
         "Tiers seed checklist (zh): when a home is empty, by season or month (每年春节回老家，房子空着)",
         check=_schedule_person_ok, needs=("房子空着", "家里空着", "家里没人", "家里没有人", "空着没人", "家就空了", "屋里没人")),
    Rule("live_one_time_code", "secret",
         _r(r"(?:verification code|security code|login code|sign-in code|one-time code|otp|2fa code|code|"
            r"pickup code|pick-up code|locker code|parcel code|"
            r"验证码|校验码|动态码|短信码|安全码|取件码|取货码|提货码|取餐码)(?:" + _ + r"*(?:is|was|:|：|=|是|为))?" + _
            + r"*(\d{4,8})(?![\d])"),
         "NIST SP 800-63B s.5.1.3 (an out-of-band code authenticates its holder until it is used): a code asked "
         "to be handed over, or one that authorises a payment or transfer", group=1, lower=True,
         not_after=_LETTERS, check=_live_otp_ok,
         needs=("code", "otp", "验证码", "校验码", "动态码", "短信码", "安全码", "取件码", "取货码", "提货码", "取餐码")),
    Rule("seed_phrase_zh_words", "secret",
         _r(r"(?:助记词|助記詞|种子短语|恢复短语|恢复词|备份词|seed phrase|recovery phrase|mnemonic)[^\n]{0,8}?[:：是]?"
            r"[ \t]*((?:[\u4e00-\u9fff][ \t、,，]+){11,23}[\u4e00-\u9fff])(?![\u4e00-\u9fff])"),
         "BIP-39 Chinese word lists (12-24 single characters) after 助记词", group=1, lower=True,
         check=lambda v, m, t: _mnemonic_ok(re.sub(r"[、,，]", " ", v), m, t),
         needs=("助记词", "助記詞", "种子短语", "恢复短语", "恢复词", "备份词", "seed phrase", "recovery phrase", "mnemonic")),
    # ---- round 5 (issue 9): secrets, IDs, accounts and phones found missing on sets G and F ----
    Rule("telegram_bot_url", "secret", _r(r"api\.telegram\.org/(?:file/)?bot(\d{6,12}:[A-Za-z0-9_-]{30,})"),
         "Telegram Bot API 'Making requests' (https://api.telegram.org/bot<token>/METHOD)", group=1,
         lower=True, needs=("telegram.org/",), check=_not_placeholder),
    Rule("notion_token", "secret", _r(r"(?:ntn_[A-Za-z0-9]{40,50}|secret_[A-Za-z0-9]{43})" + _END),
         "Notion API docs 'Authorization' (internal integration tokens ntn_..., formerly secret_ + 43)",
         not_after=_WORDCH, needs=("ntn_", "secret_"), check=lambda v, m, t: looks_random(v.split("_", 1)[1])),
    Rule("bitcoin_wif", "secret", _r(r"[5KLc9][1-9A-HJ-NP-Za-km-z]{50,51}" + _END),
         "Bitcoin wiki 'Wallet import format' (Base58Check, version 0x80): a private key whatever words surround "
         "it, checksum-valid", not_after=_ALNUM, check=_wif_ok),
    Rule("browser_password_export", "secret",
         _r(r"^[\"']?(?:https?|android)://[^\s,\"']+[\"']?,[\"']?[^\s,\"']{1,64}[\"']?,[\"']?([^\s,\"']{6,64})[\"']?"
            r"(?:,[^\n]*)?$", re.M),
         "Chrome / Firefox / Bitwarden password export CSV (url,username,password): a row of it is a password",
         group=1, check=_browser_export_ok),
    Rule("wifi_qr_password", "secret", _r(r"wifi:[^\n]*?p:((?:[^;\\\n]|\\.){4,63});"),
         "ZXing 'Barcode contents' WIFI: URI (S: SSID, T: type, P: password)", group=1, lower=True,
         needs=("wifi:",), check=_not_placeholder),
    Rule("lftp_user_pass", "secret", _r(r"(?:lftp|ncftp\w*|curlftpfs)\b[^\n]*?[ \t]-u[ \t]+[^\s,:]+[,:]([^\s,@]{4,})"),
         "lftp manual (-u user,password), curl manual (-u user:password): a password on the command line",
         group=1, lower=True, triggers=frozenset("lft ncf cur".split()), check=_cli_value_ok),
    Rule("cli_net_use_after_user", "secret",
         _r(r"net" + _ + r"+use\b[^\n]*?/user:\S+" + _ + r"+([^\s/]{4,})"),
         "Microsoft 'net use' docs: net use <drive> \\\\server\\share /user:<name> <password>", group=1,
         lower=True, triggers=frozenset("net".split()), check=lambda v, m, t: v != "*" and _cli_value_ok(v, m, t)),
    Rule("security_answer", "secret",
         _r(r"(?:security questions?|secret questions?|challenge questions?|memorable (?:word|answer)|密保|安全问题|"
            r"安全提示问题|找回问题|security answers?|secret answers?|安全答案|密保答案)[^\n]{0,60}?(?:答案|answers?|=|[:：]|->|→)[ \t]*[「“\"']?([^\s「」“”\"'，,；;。]{2,40})"),
         "NIST SP 800-63B s.5.1.1.2 (knowledge-based answers are secrets used to recover an account)",
         group=1, lower=True, needs=("security question", "secret question", "challenge question", "memorable",
                                     "security answer", "secret answer", "安全答案",
                                     "密保", "安全问题", "安全提示问题", "找回问题"), check=_answer_ok),
    Rule("totp_seed", "secret",
         _r(r"(?:totp|otp|2fa|mfa|authenticator|google auth\w*|验证器|两步验证|二次验证|动态口令|种子|seed|otpauth)"
            r"[^\n]{0,40}?[ \t:：=]([A-Z2-7]{4}(?:[ ]?[A-Z2-7]{4}){3,15})(?![A-Za-z0-9])"),
         "RFC 6238 (TOTP) / RFC 4648 Base32: an authenticator's shared seed after its word", group=1,
         needs=("otp", "2fa", "mfa", "authenticator", "google auth", "验证", "口令", "种子", "seed"),
         check=_base32_seed_ok),
    Rule("recovery_codes_bare", "secret",
         _r(r"(?:recovery|backup|2fa|two-factor|scratch|rescue|恢复|备用|救援|备份)" + _
            + r"*(?:verification )?(?:codes?|验证码|码)[ \t:：]*"
            r"((?:\d{4} \d{4}|\d{6,10}-\d{6,10}|(?=[a-z]{0,4}\d)[0-9a-z]{4,5}-?[0-9a-z]{3,5}|\d{6,10})(?:[ \t,，、]+"
            r"(?:\d{4} \d{4}|\d{6,10}-\d{6,10}|(?=[a-z]{0,4}\d)[0-9a-z]{4,5}-?[0-9a-z]{3,5}|\d{6,10})){1,15})"
            r"(?![0-9a-z])"),
         "GitHub/Google/Aliyun docs '2FA recovery codes': two or more one-time codes after their word", group=1,
         lower=True, needs=("recovery code", "backup code", "2fa code", "two-factor code", "scratch code",
                            "rescue code", "backup verification code", "恢复码", "备用码", "救援码", "备用验证码",
                            "恢复验证码", "备份码", "备份验证码"),
         check=lambda v, m, t: len(re.findall(r"\d", v)) >= 6 and not _doc_value(v, m, t)),
    Rule("keyword_entropy", "secret",
         _r(r"(?<![a-z])(?:(?:api[_-]?)?key|secret|token|seed|passphrase|credential|clé|cle|schlüssel|clave|chave|"
            r"chiave)(?![a-z])" + _KEYWORD_VALUE),
         "detect-secrets KeywordDetector + high-entropy idea, in any language: a random-looking value after a key "
         "word within the line (tomorrow's vendor format; a French 'clé API', a German 'Schlüssel')", group=1,
         lower=True, check=_keyword_entropy_ok,
         triggers=frozenset("key api sec tok see pas cre cl sch cla cha chi".split())),
    Rule("keyword_entropy_zh", "secret",
         _r(r"(?:密钥|秘钥|令牌|口令|私钥|授权码|种子|助记词|ключ)" + _KEYWORD_VALUE),
         "the same in Chinese (and Russian): a random-looking value after 密钥/秘钥/令牌/口令/私钥/授权码 within "
         "the line", group=1, lower=True, check=_keyword_entropy_ok),
    Rule("ak_sk_bare", "secret", _r(r"(?<![a-z])(?:ak|sk|access key|secret key)[ \t]+([A-Za-z0-9_\-]{20,})(?![A-Za-z0-9_\-])"),
         "Qiniu / Tencent / Volcano docs (AccessKey/SecretKey pairs written 'AK xxx SK yyy'): a random value "
         "right after the short key name", group=1, lower=True, check=_keyword_entropy_ok,
         triggers=frozenset("ak sk acc sec".split())),
    Rule("mail_auth_code", "secret",
         _r(r"(?:smtp|imap|pop3?|mail)[_-]?(?:pass(?:word)?|pwd|auth(?:code)?)[\"']?" + _ + r"*[:=]" + _
            + r"*[\"']?([a-z]{16})(?![a-z0-9])"),
         "QQ/163 Mail help: the SMTP/IMAP 授权码 is 16 lower-case letters (a password for a mail client)",
         group=1, lower=True, triggers=frozenset("smt ima pop mai".split()),
         check=lambda v, m, t: entropy(v) >= 3.0 and len(set(v)) >= 9 and not is_placeholder(v) and not _doc_value(v, m, t)),
    Rule("us_itin", "government_id", _r(r"(?<![\d-])9\d{2}-\d{2}-\d{4}(?![\d-])"),
         "IRS Publication 1915: ITIN 9XX-XX-XXXX with group 50-65, 70-88, 90-92, 94-99", numeric=True,
         check=_itin_ok),
    Rule("keyed_national_id", "government_id",
         _r(r"(?:sin|social insurance number|pan(?: card| no\.?| number)|cpf|cnpj|rrn|resident registration number|"
            r"my number card|steuer-?id|steuer-?identifikationsnummer|itin|nif|nie|dni|bsn|pesel|personnummer)"
            r"(?![a-z])" + _ID_VALUE),
         "National numbering rules (CRA SIN, Receita CPF, Korean RRN, German IdNr, Indian PAN, Spanish NIF/NIE/DNI, "
         "Dutch BSN, Polish PESEL, Swedish personnummer): a document number after its name", group=1, lower=True,
         check=_keyed_id_ok, not_after=_LETTERS,
         triggers=frozenset("sin soc pan cpf cnp rrn res my ste iti nif nie dni bsn pes per".split())),
    Rule("keyed_national_id_zh", "government_id",
         _r(r"(?:个人番号|マイナンバー|档案编号|台胞证|回乡证|通行证|港澳居民|居留证|工作签证|身份证号?|社保号|医保号|公积金账号|"
            r"税号|纳税人识别号|驾驶证号|证件号码?|社保卡号|医保卡号|就诊卡号|军官证号?|士兵证号?|警官证号?|居住证号?)" + _ID_VALUE),
         "Japanese My Number (个人番号), CN driving-licence file numbers (档案编号), Taiwan Compatriot and Home "
         "Return Permits, residence permits, tax numbers: a document number after its name", group=1, lower=True,
         check=_keyed_id_ok),
    Rule("india_pan", "government_id", _r(r"[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]" + _END),
         "Indian Income Tax PAN (AAAPA9999A; 4th letter the holder type); stdnum.in_.pan", not_after=_ALNUM,
         needs=("pan",), check=_stdnum_ok("in_.pan")),
    Rule("brazil_cpf", "government_id", _r(r"(?<![\d.-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d-])"),
         "Receita Federal CPF (two mod-11 check digits); stdnum.br.cpf", numeric=True, check=_stdnum_ok("br.cpf")),
    Rule("korea_rrn", "government_id", _r(r"(?<![\d-])\d{6}-[1-8]\d{6}(?![\d-])"),
         "Korean resident registration number (YYMMDD-SXXXXXX, check digit); stdnum.kr.rrn", numeric=True,
         check=_stdnum_ok("kr.rrn")),
    Rule("grouped_bank_account", "bank_account", _r(r"(?<![\d-])\d{3}-\d{2,6}-\d{1,6}(?:-\d{1,3})?(?![\d-])"),
         "HSBC HK (3-6-3), DBS/POSB SG (3-6-1), Taiwan bank (3-2-6-1) account numbers in hyphen groups after an "
         "account word", numeric=True, check=_grouped_account_ok),
    Rule("branch_card_account", "bank_account",
         _r(r"(?:开户行|開戶行|开户银行|支行|分行)[^\n]{0,40}?(?:卡号|卡號|账号|帐号|账户)" + _ + r"*[:：]?" + _
            + r"*(\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}(?:[ -]?\d{1,3})?)(?![\d-])"),
         "Tiers seed T3 rule 'Financial account numbers': a debit card number given with its bank branch is the "
         "account to pay into", group=1),
    Rule("payment_app_account", "bank_account",
         _r(r"(?:支付宝|alipay|微信支付|财付通|wechat pay)" + _ + r"*(?:收款|收钱|payee|receiving)" + _ + r"*(?:账户|账号|帐号|帳號|account)"
            r"[^\n\d@]{0,6}?(1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?!\d)|[a-z0-9._%+-]{1,64}@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})"),
         "kind seen in sets N and O (支付宝收款账户 + a mobile number or an e-mail address): the log-in of a "
         "payment account that money is sent to, an account number as the payee gives it (before the platform "
         "handle rule, which reads the same digits as a handle)", group=1,
         check=_not_placeholder, lower=True, needs=("支付宝", "alipay", "微信支付", "财付通", "wechat pay")),
    Rule("whatsapp_link_number", "phone",
         _r(r"(?:wa\.me/|api\.whatsapp\.com/send/?\?phone=)\+?(\d{8,15})(?!\d)"),
         "WhatsApp Help Center 'How to use click to chat' (wa.me/<full number in international format>): the "
         "number in the link is a telephone number (kind seen in set O: https://wa.me/85253997651)", group=1,
         check=_wa_number_ok, needs=("wa.me/", "api.whatsapp.com")),
    Rule("household_register_number", "government_id",
         _r(r"户号" + _ + r"*[:：是为]?" + _ + r"*(\d{9,12})(?!\d)"),
         "公安部《常住人口登记表》/居民户口簿 户号 (kind seen in sets J and O: 户口本户号 310115027391)", group=1,
         needs=("户号",)),
    Rule("platform_numeric_account", "handle", _r(r"(?<![\d+])\+?\d[\d -]{4,14}\d(?!\d)"),
         "Tiers seed checklist: 'no usernames or handles' (a numeric account on a named platform: Alipay logs in "
         "by phone number)", numeric=True, check=_platform_number_ok),
    Rule("line_id", "handle",
         _r(r"(?:line|kakao(?:talk)?|signal|viber|skype)" + _ + r"*(?:id|帐号|账号|帳號)" + _ + r"*[:：=是]?" + _
            + r"*@?([a-z0-9][a-z0-9_.-]{3,30})"),
         "Tiers seed checklist: 'no usernames or handles' (LINE / KakaoTalk / Skype ids)", group=1, lower=True,
         not_after=_LETTERS, triggers=frozenset("lin kak sig vib sky".split()), check=_handle_value_ok),
    Rule("spoken_phone_en", "phone",
         _r(r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)(?:[ \t,.-]+(?:zero|oh|one|two|three|four|five|"
            r"six|seven|eight|nine)){6,14}"),
         "ITU-T E.164 length (7-15 digits): a phone number spelled in English words next to a phone word",
         lower=True, not_after=_LETTERS, check=_spoken_phone_ok,
         needs=("phone", "cell", "call", "number", "mobile")),
    Rule("spoken_phone_zh", "phone",
         _r(r"[零〇洞幺一壹二两贰三叁四肆五伍六陆七柒八捌九玖](?:[ \t,，-]?[零〇洞幺一壹二两贰三叁四肆五伍六陆七柒八捌九玖]){6,14}"),
         "MIIT numbering plan: a mobile number read out in Chinese digits (幺 for 1, 两 for 2, 洞 for 0)",
         check=_spoken_phone_ok, needs=("幺", "电话", "手机", "号码", "联系")),
    Rule("git_config_name", "name",
         _r(r"user\.name[ \t=]+[\"']?([A-Z][a-z]+(?:[ \t][A-Z][a-z'-]+){1,2})[\"']?"),
         "Tiers seed checklist: 'no real names' (git config user.name holds the committer's name)", group=1,
         needs=("user.name",), check=_en_full_name_ok),
    Rule("name_label_en", "name",
         _r(r"(?:^|[;|,] ?)(?:[Nn]ame|NAME|[Ff]ull [Nn]ame|[Nn]om|[Nn]ombre|姓名)[ \t]*[:：][ \t]*([A-Z][a-z]+(?:[ \t][A-Z][a-z'-]+){1,3})(?![A-Za-z])",
            re.M),
         "Tiers seed checklist: 'no real names' (a form's Name: field with a full name)", group=1,
         needs=("name", "nom", "姓名"), check=_en_full_name_ok),
    Rule("signature_name_zh", "name",
         _r(r"(?:落款|此致|敬礼|署名|签名)[^\n]{0,12}?(?:——|—|--|-|：|:|(?<=敬礼)(?=[ \t]))" + _ + r"*(" + _CN_NAME
            + r")(?=[ \t/,，。|]|$)", re.M),
         "Tiers seed checklist (zh): '没有真实姓名' (the signature of a letter or mail)", group=1, check=_name_ok),
    Rule("pinyin_name_cue", "name",
         _r(r"(?:拼音名|拼音|护照名|英文名|passport name)[^\n]{0,6}?([A-Z]{2,8}" + _ + r"+[A-Z]{2,12}(?:" + _
            + r"+[A-Z]{2,8})?)(?![A-Za-z])"),
         "ICAO Doc 9303 / MPS passport romanisation: a name in capital pinyin after its cue", group=1,
         needs=("拼音", "护照名", "英文名", "passport name")),
    Rule("what3words", "address", _r(r"///([a-z]{2,20}\.[a-z]{2,20}\.[a-z]{2,20})(?![a-z.])"),
         "what3words addresses (///word.word.word name a 3 m square)", group=1, needs=("///",),
         check=lambda v, m, t: not _DOC_LINE.search(_line_around(t, m.start(), m.end()))),
    Rule("plus_code", "address", _r(r"[23456789CFGHJMPQRVWX]{4,8}\+[23456789CFGHJMPQRVWX]{2,3}(?![A-Za-z0-9])"),
         "Open Location Code (Plus Codes) specification: a 14 m square", not_after=_ALNUM, needs=("+",),
         check=lambda v, m, t: bool(re.search(r"(?i)plus ?code|家|住|home|house|address|地址|定位|快递|门口",
                                               _line_around(t, m.start(), m.end())))),
    Rule("hotel_room_zh", "address",
         _r(r"(?:住在|入住|房间|酒店|宾馆|民宿)[^\n]{0,20}?(\d{3,5})" + _ + r"*(?:房|号房|房间|室)"),
         "Tiers seed checklist 'nothing finer than city' (zh): the hotel room a person stays in", group=1,
         check=lambda v, m, t: not _WORKPLACE.search(_line_around(t, m.start(), m.end()))),
    Rule("sg_unit_address", "address",
         _r(r"#\d{2,3}-\d{2,4}[^\n]{0,30}?singapore[ \t]+\d{6}|\d{1,4}[ \t]+(?:jalan|lorong|jln|lor)[ \t]+[a-z]+"),
         "Singapore addresses (SingPost: #floor-unit, 6-digit postcode; Malay street words)", lower=True,
         needs=("singapore", "jalan", "lorong", "jln")),
    Rule("visiting_schedule_zh", "schedule",
         _r(r"(?:阿姨|保姆|保洁|钟点工|家政|护工|司机|小时工)[^\n]{0,6}?每(?:周|星期|礼拜|天)[^\n]{0,30}?(?:来|上门|过来|到家)"),
         "Tiers seed checklist (zh): a person's fixed schedule (who comes into the home and when)",
         needs=("每",), check=_schedule_person_ok),
    Rule("absence_zh_r5", "schedule",
         _r(r"(?:家里|家中|屋里)[^\n，。]{0,6}没人|只有我一个人|就我一个人住|一个人住|(?:每个?月|每周|每星期)[^\n，。]{0,12}(?:回老家|带[^\n，。]{0,4}现金|去银行[^\n]{0,20}现金)"),
         "Tiers seed checklist (zh): when a home is empty or a person carries cash on a fixed day",
         needs=("没人", "一个人", "回老家", "现金")),
    Rule("absence_en_r5", "schedule",
         _r(r"(?:nobody|no one|no-one)(?:'s| is| will be)?[ \t]+(?:at|in)[ \t]+(?:the|my|our)[ \t]+(?:flat|house|"
            r"apartment|place|home)"),
         "Tiers seed checklist: when a home is empty", lower=True, not_after=_LETTERS,
         triggers=frozenset("nob no".split()), check=_schedule_person_ok),
    Rule("travel_dates_en", "schedule",
         _r(r"from[ \t]+(?:the[ \t]+)?\d{1,2}(?:st|nd|rd|th)?[ \t]+(?:to|until|till|-)[ \t]+(?:the[ \t]+)?\d{1,2}(?!\d)"),
         "Tiers seed checklist: the dates a person is away from home ('I'll be in Lisbon from 3 to 17 March')",
         lower=True, not_after=_LETTERS, check=_travel_ok),
    Rule("imei", "government_id",
         _r(r"(?:imei|meid|串号)(?:" + _ + r"*(?:no\.?|number|号码|号|码))?" + _ + r"*(?:is|是|为|:|：|=)?" + _
            + r"*(\d{15}|\d{2}[ -]\d{6}[ -]\d{6}[ -]\d)(?![\d-])"),
         "3GPP TS 23.003 s.6.2 (IMEI: 14 digits and a Luhn check digit; stdnum.imei): a handset's lifelong "
         "identifier after its name", group=1, lower=True, needs=("imei", "meid", "串号"),
         check=lambda v, m, t: _imei_ok(v) and _device_owner(m, t)),
    Rule("uk_sort_code_account", "bank_account",
         _r(r"(?:sort" + _ + r"*code|sort|s/c)" + _ + r"*(?:is|:|=)?" + _ + r"*\d{2}[- ]?\d{2}[- ]?\d{2}[^\n\d]{0,24}?"
            r"(?:acc(?:ount)?|a/c|acct)\.?" + _ + r"*(?:no\.?|number|num|#)?" + _ + r"*(?:is|:|=)?" + _
            + r"*(\d{8})(?!\d)"),
         "UK Payments (Pay.UK) sort code (6 digits) and 8-digit account number: together they are the account",
         group=1, lower=True, needs=("sort", "s/c"), check=_not_placeholder),
    # An IBAN holds no '_': one on either side is a separator (``GB33…_x``, ``x_GB33…``, tatk18 5).
    Rule("iban", "bank_account",
         _r(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?" + _END_NO_UNDERSCORE),
         "ISO 13616 IBAN (MOD 97-10 check digits, country length); stdnum.iban", check=_iban_ok,
         not_after=_ALNUM),
    Rule("bank_card_account", "bank_account",
         _r(r"(?<![\d-])(?:\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}(?:[ -]?\d{1,3})?)(?![\d-])"),
         "Tiers seed T3 rule 'Financial account numbers': a Chinese debit card number given as the account to pay "
         "into (开户行, 户名, 账户, branch); Luhn-valid, of a real issuer range", check=_bank_card_ok, numeric=True),
    Rule("payment_card", "payment_card",
         _r(r"(?<![\d-])(?:\d{4}([ /.-])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?|\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{1,7}|"
            r"\d{4}([ /-])\d{6}\2\d{4,5}|\d{13,19})(?![\d-])"),
         "ISO/IEC 7812-1 (Luhn check, issuer identification number ranges and lengths); a checksum-valid card "
         "is a card whatever words surround it (issue 9), documented test numbers in a test context excepted",
         check=_card_glued_ok,
         numeric=True),
    Rule("payment_card_regrouped", "payment_card",
         _r(r"(?<![\d-])\d{3,6}(?:[ \t]\d{3,6}){2,5}(?![\d-])"),
         "ISO/IEC 7812-1 (Luhn, issuer ranges and lengths): a card number grouped otherwise than as printed "
         "(37279 09608 98902) with a card word on its line", check=_regrouped_card_ok, numeric=True),
    Rule("us_ssn", "government_id",
         _r(r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])"),
         "US Social Security Administration: area 000, 666, 900-999 never assigned", numeric=True),
    Rule("aadhaar", "government_id", _r(r"(?<!\d)(?<!\d )[2-9]\d{3} \d{4} \d{4}(?! ?\d)"),
         "UIDAI Aadhaar (12 digits, Verhoeff check); stdnum.in_.aadhaar", check=_aadhaar_ok, numeric=True),
    Rule("id_document_number", "government_id",
         _r(r"(?:passport|护照|驾驶证|驾照|driver'?s licen[cs]e|social security|national id|身份证|"
            r"residence permit|居住证|港澳通行证|台胞证|军官证|社保卡?)(?:" + _ + r"*(?:no\.?|number|num|#|号码|号))?"
            + _ + r"*(?:is|是|为|填|写|填的是|写的是)?" + _ + r"*[:：#=]?" + _ + r"*([a-z]{0,2}\d[a-z0-9-]{5,19})" + _END),
         "ICAO Doc 9303 (passport numbers), MPS rules (CN passport E/G + 8 digits): a document number after its name",
         group=1, check=_keyed_id_ok, lower=True),
    Rule("id_document_number_r8", "government_id",
         _r(r"(?:driver'?s?[ \t]+licen[cs]e|driving[ \t]+licen[cs]e|dl|green[ \t]+card|permanent resident card|brp|"
            r"biometric residence permit|uscis|alien registration|a-number|绿卡|居留卡|永居证|永久居留证|駕照)"
            r"(?:" + _ + r"*(?:no\.?|number|num|#|号码|号))?" + _ + r"*(?:is|是|为)?" + _ + r"*[:：#=]?" + _
            + r"*([a-z]{0,3}\d[a-z0-9-]{5,19})" + _END),
         "USCIS Form I-551 (green card: 3 letters + 10 digits), Home Office BRP (2-3 letters + 6-7 digits), US "
         "and Canadian driving licences: a document number after its name", group=1, lower=True,
         not_after=_LETTERS, check=_keyed_id_ok,
         needs=("driver", "driving", "dl", "green card", "permanent resident", "brp", "residence permit", "uscis",
                "alien registration", "a-number", "绿卡", "居留卡", "永居", "駕照")),
    Rule("bank_account_number", "bank_account",
         _r(r"(?:bank account|account (?:no\.?|number|#)|acct\.?" + _ + r"*(?:no\.?|#)|银行账[号户]|银行卡号?|"
            r"账号|收款账户|对公账户|账户号码?|routing number|"
            # round 13 (kind seen in sets O and H: 农行账户 8220 9016 1033 6551 498): a bank's short name, then 账户
            r"(?:农行|工行|建行|中行|交行|招行|邮储|浦发|兴业|民生|光大|中信|平安|银行|储蓄|工资)(?:卡)?账户)"
            r"[^\d\n]{0,12}(\d[\d -]{6,30}\d)"),
         "Tiers seed T3 rule 'Financial account numbers'", group=1, check=_digits_ok(8, 24), lower=True),
    Rule("payout_card_digits", "payment_card", _r(r"(?<![\d.-])\d{16,20}(?![\d.-])"),
         "ISO/IEC 7812-1 Luhn check and issuer prefix: a card number given to be paid back onto (退款用这张, "
         "refund to this card), read whatever its length", check=_payout_digits_ok, numeric=True),
    Rule("bank_digits", "bank_account", _r(r"(?<![\d.-])\d{8,25}(?![\d.-])"),
         "Tiers seed T3 rule 'Financial account numbers': a digit run next to 开户行, routing, sort code, account",
         check=_bank_digits_ok, numeric=True),
    # ---- contact data ----
    Rule("email", "email",
         _r(r"(?<![A-Za-z0-9_.+%-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
            r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}" + _END),
         "RFC 5322 addr-spec (common subset), RFC 5321 length limits; RFC 2606 reserved domains excluded",
         check=_email_ok, needs=("@",)),
    Rule("phone", "phone",
         _r(r"(?<![A-Za-z0-9_+./=#-])(?<!\d:)(?:\+|00)?\(?\d[\d \t().-]{5,20}\d(?![A-Za-z0-9_:/-]|-\d|\.[A-Za-z0-9])"),
         "ITU-T E.164 / libphonenumber metadata (phonenumbers.is_valid_number); MIIT numbering plan for CN mobiles",
         check=_phone_ok, numeric=True),
    Rule("phone_kv", "phone",
         _r(r"(?:phone|mobile|tel|msisdn|to|cell)(?:_?(?:no|num|number))?=\+?(\d{11,15})(?!\d)"),
         "ITU-T E.164 in a key=value log field (to=, phone=); MIIT numbering plan for CN mobiles", group=1,
         check=lambda v, m, t: (bool(_CN_MOBILE.match(v)) or (v.startswith("86") and len(v) == 13
                                                                 and bool(_CN_MOBILE.match(v[2:])))
                                or (v.startswith("1") and len(v) == 11) or (v.startswith("44") and len(v) in (12, 13))),
         lower=True, not_after=_LETTERS + "_", triggers=frozenset("pho mob tel msi to cel".split())),
    Rule("email_obfuscated", "email",
         _r(r"(?<![a-z0-9._%+-])([a-z0-9][a-z0-9._%+-]{1,63}(?:" + _ + r"+dot" + _ + r"+[a-z0-9][a-z0-9_%+-]{0,63}){0,3})"
            + _ + r"*(?:\[at\]|\(at\)|\{at\}|<at>|%40|＠|"
            + _ + r"at" + _ + r"(?=" + _ + r"*(?:" + _MAIL_HOSTS.pattern + r")(?![a-z0-9-])|" + _
            + r"*[a-z0-9][a-z0-9-]{1,62}" + _ + r"+dot" + _ + r"))" + _
            + r"*([a-z0-9][a-z0-9-]{1,62})(?:" + _ + r"*(?:\[dot\]|\(dot\)|\{dot\}|"
            + _ + r"dot" + _ + r"|\.)" + _ + r"*[a-z]{2,10}){1,3}(?![a-z0-9])"),
         "RFC 5322 addr-spec written to dodge scrapers ('name [at] host [dot] com', 'name at gmail dot com', "
         "%40): an address all the same", check=_email_obfuscated_ok, lower=True,
         needs=("[at]", "(at)", "{at}", "<at>", "%40", "＠", " dot ", "at gmail", "at outlook", "at hotmail", "at yahoo",
                "at qq", "at 163", "at 126", "at icloud", "at proton", "at foxmail")),
    Rule("email_spelled_zh", "email",
         _r(r"(?<![a-z0-9._-])([a-z0-9][a-z0-9._-]{1,63}(?:" + _ + r"*(?:点|dot)" + _ + r"*[a-z0-9][a-z0-9_-]{0,63}){0,3})"
            + _ + r"*(?:艾特|圈a|at)" + _ + r"*[a-z0-9][a-z0-9-]{1,62}(?:" + _ + r"*(?:点|dot|\.)" + _
            + r"*[a-z0-9-]{1,20}){0,2}" + _ + r"*(?:点|dot|\.)" + _ + r"*(?:com|cn|net|org|edu|io|me|co|uk|jp|de|fr|hk|tw)"
            r"(?![a-z0-9])"),
         "RFC 5322 addr-spec spelt out in Chinese (艾特 = @, 点 = .), a habit for dodging scrapers", group=0,
         check=_email_spelled_zh_ok, lower=True,
         needs=("艾特", "圈a", "点com", "点 com", "点cn", "点 cn", "点net", "点 net", "点org", "点 org")),
    # ---- location ----
    Rule("street_address_eu", "address",
         _r(r"(?<![\w.])\d{1,4}(?:bis|ter|[a-z])?,?" + _ + r"+(?:Rue|Avenue|Av\.|Boulevard|Bd|Quai|Impasse|Allée|Chemin|Place|"
            r"Via|Viale|Piazza|Piazzale|Corso|Vicolo|Calle|Avenida|Plaza|Paseo|Carrer|Rua|Travessa|Largo|Straße|Strasse)"
            + _ + r"+(?:(?:de|des|du|la|le|les|del|della|delle|dei|di|da|do|dos|das|l'|d')" + _ + r"*){0,2}"
            r"[A-ZÀ-Ý][\w'-]+(?:" + _ + r"+[A-ZÀ-Ý][\w'-]+){0,2}(?P<pc>,?" + _ + r"*(?:[A-Z]-)?\d{4,5}" + _
            + r"+[A-ZÀ-Ý][\w-]+)?|"
            r"(?<![\w.])(?:Via|Viale|Piazza|Corso|Calle|Avenida|Plaza|Paseo|Carrer|Rua|Rue)" + _
            + r"+(?:(?:de|del|della|di|da|do|des|du|la)" + _ + r"+){0,2}[A-ZÀ-Ý][\w'-]+(?:" + _ + r"+[A-ZÀ-Ý][\w'-]+){0,2},?"
            + _ + r"+\d{1,4}[a-z]?(?P<pc2>,?" + _ + r"*(?:[A-Z]-)?\d{4,5}" + _ + r"+[A-ZÀ-Ý][\w-]+)"),
         "La Poste, Poste Italiane, Correos, CTT, Deutsche Post addressing (number + street word + name, "
         "postcode + town; or street + number + postcode + town)", check=_eu_street_ok,
         needs=("rue ", "avenue ", "av. ", "boulevard ", "bd ", "quai ", "impasse ", "allée ", "chemin ", "place ",
                "via ", "viale ", "piazza", "corso ", "vicolo ", "calle ", "avenida ", "plaza ", "paseo ", "carrer ",
                "rua ", "travessa ", "largo ", "straße ", "strasse ")),
    Rule("street_address_en", "address",
         _r(r"\b\d{1,5}[A-Z]?,?" + _ + r"+(?:(?:[A-Z][a-z]+|[NSEW]\.?|\d{1,3}(?:st|nd|rd|th))" + _
            + r"+){1,3}(?:Street|St\.?|Avenue|Ave\.?|Road|Rd\.?|"
            r"Boulevard|Blvd\.?|Lane|Ln\.?|Drive|Dr\.?|Court|Ct\.?|Way|Place|Pl\.?|Terrace|Parkway|Pkwy|Square|"
            r"Crescent|Close|Highway|Hwy)" + _END),
         "USPS Publication 28 street suffixes; Tiers seed 'Home/work addresses' and checklist 'nothing finer than city'",
         check=_street_en_ok),
    Rule("po_box", "address", _r(r"p\.?" + _ + r"?o\.?" + _ + r"?box" + _ + r"+\d+"),
         "USPS Publication 28 (PO Box)", lower=True, not_after=_WORDCH),
    Rule("apartment_unit", "address", _r(r"(?:apt|apartment|suite|flat)\.?" + _ + r"*#?\d+[a-z]?" + _END),
         "USPS Publication 28 secondary unit designators", lower=True, not_after=_LETTERS,
         triggers=frozenset("apt apa sui fla".split())),
    Rule("street_address_zh", "address",
         _r(r"(?:路|街|大道|大街|巷|弄|胡同|里|道)(?:[东西南北中][段路]?|[一二三四五六七八九十]段)?" + _ + r"*\d{1,5}"
            + _ + r"*(?:号|號)(?![楼樓])"),
         "GB/T 23705-2009 address structure (road + door number); a public place's published address excepted",
         check=_street_zh_ok),
    Rule("building_unit_zh", "address",
         _r(r"\d{1,5}" + _ + r"*(?:号楼|栋|幢|单元|室)(?:" + _ + r"*\d{1,5}" + _ + r"*(?:单元|室|号|房)?){0,2}"),
         "GB/T 23705-2009 address structure (building, unit, room)",
         check=_building_ok, needs=("号楼", "栋", "幢", "单元", "室"),
         lower=True, triggers=_DIGIT_HEADS),
    Rule("floor_room_zh", "address",
         _r(r"[樓楼层層]" + _ + r"*[A-Z0-9]{1,4}" + _ + r"*[室座](?![内外])"),
         "Hongkong Post / GB/T 23705-2009 address structure (floor, flat or room: 15 樓 C 室)",
         check=lambda v, m, t: bool(re.search(r"\d[ \t]*$", t[max(0, m.start() - 4):m.start()]))
         and _building_ok(v, m, t), needs=("室", "座")),
    Rule("jp_address", "address",
         _r(r"[区市町村][^\n]{0,12}?\d{1,4}(?:丁目|-)\d{1,4}(?:番地?|-)\d{1,4}"),
         "Japan Post address structure (prefecture, ward or city, chome-ban-go)", needs=("区", "市", "町", "村"),
         check=lambda v, m, t: bool(re.search(r"[都道府県][^\n]{0,12}$", t[max(0, m.start() - 13):m.start()]))),
    Rule("residence_zh", "address",
         _r(r"(?:住在|住址|家住|家在|地址[:：]|收货地址)[^\n，。,]{0,20}?" + _CJK + r"{1,10}(?:小区|花园|公寓|新村|家园|社区)"),
         "Tiers seed 'Home/work addresses': a named residential compound"),
    Rule("gps_coordinates", "address",
         _r(r"(?P<hemi>(?<![\d.])\d{1,2}(?:\.\d{3,8}°?|°" + _ + r"?\d{1,2}['′]" + _ + r"?(?:\d{1,2}(?:\.\d+)?[\"″])?)"
            + _ + r"*[ns]" + _ + r"*[,，/]?" + _ + r"*\d{1,3}(?:\.\d{3,8}°?|°" + _ + r"?\d{1,2}['′]" + _
            + r"?(?:\d{1,2}(?:\.\d+)?[\"″])?)" + _ + r"*[ew](?![a-z]))|"
            r"(?<![\d.])-?\d{1,2}\.\d{4,8}" + _ + r"*[,，/]" + _ + r"*-?\d{1,3}\.\d{4,8}(?![\d.])|"
            r"lat(?:itude)?" + _ + r"*[:=]?" + _ + r"*-?\d{1,2}\.\d{3,8}[ \t,;]*(?:lon|lng|long(?:itude)?)" + _
            + r"*[:=]?" + _ + r"*-?\d{1,3}\.\d{3,8}"),
         "Tiers seed checklist 'nothing finer than city': GPS coordinates (WGS 84 decimal degrees) of a place; "
         "with hemisphere letters (ISO 6709: 47.61524 N, 122.33671 W; 47°36'N 122°19'W) whatever words surround "
         "them, plain decimal pairs with a location word on the line",
         check=lambda v, m, t: (m.group("hemi") is not None or bool(re.search(
             r"(?i)gps|坐标|定位|位置|lat|location|coordinates|home|house|家|住|\bmaps?\b|\bflat\b|apartment|"
             r"\b(?:my|our) place\b", _line_around(t, m.start(), m.end()))))
         and not ((_CITY_CENTRE.search(_line_around(t, m.start(), m.end()))
                   or _LANDMARK.search(_line_around(t, m.start(), m.end())))
                  and not re.search(r"(?i)\b(?:my|our|his|her|home|live|flat|apartment)\b|(?<!opera )\bhouse\b|家|住",
                                    _line_around(t, m.start(), m.end()))),
         triggers=_DIGIT_HEADS | {"lat"}),
    Rule("postcode_ca_uk", "address",
         _r(r"(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)" + _ + r"+([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]" + _
            + r"?\d[ABCEGHJ-NPRSTV-Z]\d)(?![A-Za-z0-9])"),
         "Canada Post addressing guidelines: province code and postal code (A1A 1A1, no D F I O Q U)", group=1,
         not_after=_LETTERS),
    Rule("village_address_zh", "address",
         _r(r"(?:村|组|镇|乡|屯|庄|队)" + _ + r"*[0-9一二三四五六七八九十]{1,3}" + _ + r"*(?:组|号|队)|"
            + _CJK + r"{2,6}省" + _CJK + r"{2,6}市" + _CJK + r"{2,8}(?:区|县)"),
         "GB/T 23705-2009 address structure (village group and number; province-city-district chain; "
         "某某省某某市 is a made-up one)", check=_not_placeholder, needs=("村", "组", "镇", "乡", "屯", "庄", "队", "省")),
    Rule("hk_flat_address", "address",
         _r(r"(?:Flat|Room|Unit|Rm)\.?" + _ + r"+[A-Z0-9]{1,4}," + _ + r"*\d{1,3}/F"),
         "Hongkong Post addressing guide (Flat, floor /F, block)", needs=("/f",)),
    Rule("street_address_de", "address",
         _r(r"[A-Z][a-zäöüß]+(?:straße|strasse|str\.|allee|weg|platz|gasse|ring|damm|ufer)" + _ + r"+\d{1,4}[a-z]?"
            + _END),
         "Deutsche Post addressing (street + house number)", needs=("straße", "strasse", "str.", "allee", "weg ", "platz", "gasse", "ring ", "damm", "ufer")),
    # ---- local identity ----
    Rule("home_path_linux", "home_path", _r(r"/home/([A-Za-z0-9._-]{1,32})(?![A-Za-z0-9._-])"),
         "Filesystem Hierarchy Standard 3.0 s.3.8 (/home/<user>); privacy checklist 'no personal home paths'",
         group=1, check=_home_ok, not_after=_WORDCH + "~$%.-"),
    Rule("onedrive_personal_site", "home_path",
         _r(r"-my\.sharepoint\.com/personal/([a-z0-9][a-z0-9_.-]{1,80})"),
         "Microsoft 365 OneDrive for Business: a person's site is <tenant>-my.sharepoint.com/personal/"
         "<user>_<domain> (the user's home folder in the cloud)", group=1, lower=True,
         needs=("sharepoint.com/personal/",)),
    Rule("android_user_storage", "home_path",
         _r(r"/(?:storage/emulated|sdcard|data/media)/\d{0,3}/?(?:DCIM|Pictures|Download|Documents|Movies|Music|"
            r"Recordings|WhatsApp|Tencent|Android/media)[^\s]*"),
         "Android storage (/storage/emulated/<user id>/: the device user's own files) with the line saying whose "
         "they are (我, my, 儿子...)", check=lambda v, m, t: bool(_SELF.search(_line_around(t, m.start(), m.end()))
                                                              or _OWNER.search(_line_around(t, m.start(), m.end()))),
         needs=("/storage/emulated", "/sdcard", "/data/media")),
    Rule("home_path_macos", "home_path", _r(r"/Users/([^/\s<>:\"'`]{1,64})"),
         "Apple File System Programming Guide (/Users/<user>)", group=1, check=_home_ok, not_after=_WORDCH + ".-"),
    Rule("home_path_windows", "home_path",
         _r(r":[\\/]{1,2}(?:users|documents and settings|用户)[\\/]{1,2}((?:[^\\/\s<>:\"|?*%]{1,32} ){1,3}"
            r"[^\\/\s<>:\"|?*%]{1,32}(?=[\\/])|[^\\/\s<>:\"|?*%]{1,64})"),
         "Microsoft docs 'User profile folder' (C:\\Users\\<user>, shown as 用户 by a Chinese Explorer; a name with "
         "spaces is one finding when a separator follows it)", group=1, check=_windows_home_ok, lower=True),
    Rule("home_path_wsl_mnt", "home_path", _r(r"/mnt/[a-z]/Users/([^/\s<>:\"'`]{1,64})"),
         "Microsoft WSL docs 'Working across file systems' (/mnt/c/Users/<user>)", group=1, check=_home_ok,
         lower=False),
    Rule("home_path_wsl_unc", "home_path",
         _r(r"\\\\wsl(?:\$|\.localhost)\\[^\\\s]{1,40}\\home\\([^\\\s<>:\"|?*]{1,32})"),
         "Microsoft WSL docs (\\\\wsl$\\<distro>\\home\\<user>)", group=1, check=_home_ok),
    Rule("home_path_tilde", "home_path", _r(r"~([a-z][a-z0-9._-]{1,31})/"),
         "POSIX tilde expansion (~user/ is that user's home directory)", group=1, check=_home_ok,
         not_after=_WORDCH + "~/.-", needs=("~",)),
    # ---- routine ----
    Rule("clock_time_ampm", "schedule",
         _r(r"(?:1[0-2]|0?[1-9])(?::[0-5]\d)?" + _ + r"?(?:a\.m\.|p\.m\.|am|pm|o'?clock)(?![a-z])"),
         "Tiers seed checklist: 'no fixed personal schedules (use relative: early morning, not 6am)'; a "
         "person's routine, not a system's (issue 9)",
         lower=True, not_after=_LETTERS + "0123456789_:.", check=_personal_time_ok, needs_re=_PERSONAL_TIME,
         triggers=_DIGIT_HEADS),
    Rule("clock_time_24h", "schedule", _r(r"(?:[01]?\d|2[0-3]):[0-5]\d(?![A-Za-z0-9_:.])"),
         "Tiers seed checklist: fixed schedules; ISO 8601 timestamps excluded; a person's routine only",
         check=_time24_personal_ok, not_after=_WORDCH + ":.-/+", needs_re=_PERSONAL_TIME,
         triggers=_DIGIT_HEADS),
    Rule("clock_time_zh", "schedule",
         _r(r"(?:早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间|凌晨|半夜|每天|每晚|每早|每周[一二三四五六日天]?)"
            r"[^\n，。,；;]{0,6}?[0-9一二三四五六七八九十两]{1,3}" + _ + r"*(?:点|點|时)(?:半|一刻|[0-9一二三四五六七八九十]{1,3}分?)?"),
         "Tiers seed checklist (zh): '没有固定个人作息'", check=_personal_time_ok, needs_re=_PERSONAL_TIME),
    Rule("weekly_routine_en", "schedule",
         _r(r"every" + _ + r"+(?:other" + _ + r"+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|"
            r"weekend|morning|evening|night)s?(?:" + _ + r"+(?:morning|evening|night|afternoon))?|"
            r"(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)" + _ + r"+(?:and" + _ + r"+\w+" + _
            + r"+)?(?:morning|evening|night|afternoon)s?"),
         "Tiers seed checklist: a person's fixed weekly routine", lower=True, not_after=_LETTERS,
         check=_personal_time_ok, needs=("every", "days "),
         triggers=frozenset("eve mon tue wed thu fri sat sun".split())),
    Rule("weekly_routine_zh", "schedule",
         _r(r"每(?:周|星期|礼拜)[一二三四五六日天、和及至到]{1,8}(?:的)?(?:早上|上午|中午|下午|傍晚|晚上|夜里|凌晨)?"),
         "Tiers seed checklist (zh): '没有固定个人作息'", check=_personal_time_ok, needs=("每",)),
    Rule("weekday_range_zh", "schedule",
         _r(r"(?:周|星期|礼拜)[一二三四五六日天](?:到|至|-|~|—|[、和及与]?(?=周|星期|礼拜))(?:周|星期|礼拜)?[一二三四五六日天](?:的)?"
            r"(?:早上|上午|中午|下午|傍晚|晚上|夜里|凌晨|白天)?"),
         "Tiers seed checklist (zh): '没有固定个人作息' (a person's weekday range or list: 周二到周四, 周二周四)",
         check=_personal_time_ok,
         needs=("周", "星期", "礼拜")),
    Rule("absence_en", "schedule",
         _r(r"(?:alone at home|home alone|away from home|(?:house|apartment|flat|place) (?:is|will be) empty|"
            r"nobody(?:'s| is)? (?:at )?home|no one(?:'s| is)? (?:at )?home|is empty while|we're away|we are away|"
            r"i'm away|i am away|out of town from|(?:house|apartment|flat|home|place)[^\n.]{0,40}? is empty|"
            r"alone (?:from|until|till|on weekdays|on weekends|every|all day|in the (?:evenings?|mornings?|afternoons?)))"),
         "Tiers seed checklist: when a home is empty or a person alone (a fixed schedule an intruder could use)",
         lower=True, not_after=_LETTERS, needs=("home", "away", "empty", "town", "alone"),
         triggers=frozenset("alo hom awa hou apa fla pla nob no we i out".split())),
    Rule("absence_zh", "schedule",
         _r(r"家里没人|家里空着|房子没人住|没人在家|家里就我|家里只有|就我和孩子在家|就我一个人在家|独自在家|一个人在家|"
            r"家中无人|全家(?:都)?(?:回|去|出)|家里就剩|家里只剩|只有[^\n，。,]{1,6}在家|就剩[^\n，。,]{1,4}在家|"
            r"就我和孩子|就我一个人|每个?周末[^\n，。]{0,6}(?:都|就)?(?:回|去|出)"),
         "Tiers seed checklist (zh): 家中无人的时段"),
    # ---- names and handles ----
    Rule("self_name_en", "name",
         _r(r"(?:my name is|my name's|i am called|i'm called|call me|"
            r"(?:his|her|the user's|user's|(?:my|his|her|our|their|the) [\w-]+'s) name(?: is|'s)|"
            r"(?:full|real|legal|birth|maiden) name(?:" + _ + r"+(?:on|in|for) (?:the|my|his|her|our) [\w-]+)?(?: is|:)|"
            r"name (?:on|in) (?:the|my|his|her|our|their) (?:lease|contract|deed|booking|reservation|ticket|card|"
            r"passport|policy|account|licen[cs]e|certificate|invoice|mortgage|will)(?: is|:)|"
            r"name behind the account is)" + _
            + r"+(?:(?:mr|mrs|ms|miss|dr|prof)\.?" + _ + r"+)?([a-z]+(?:" + _ + r"+[a-z]+){0,2})"),
         "Tiers seed checklist: 'no real names'", group=1, check=_name_en_ok, not_after=_LETTERS, lower=True, needs=("name", "call"),
         triggers=frozenset("my i cal his her the use ful rea leg bir nam mai our the".split())),
    Rule("relation_name_en", "name",
         _r(r"(?:landlord|landlady|neighbou?r|colleague|co-?worker|boss|manager|wife|husband|girlfriend|"
            r"boyfriend|partner|roommate|flatmate|tenant|client contact|client|customer|babysitter|nanny|tutor|"
            r"doctor|therapist|lawyer|accountant|mother|father|mom|mum|dad|sister|brother|cousin|aunt|uncle|"
            r"intern|contact person|signatory|emergency contact|next of kin|guarantor|beneficiary|teacher|coach|"
            r"ex-?wife|ex-?husband|ex-?boyfriend|ex-?girlfriend|stepmother|stepfather|signed by|co-signed by|"
            r"witnessed by|i'm|i am|ex|fianc[ée]e?|co-?founder|buyer|seller|business partner|godmother|godfather|"
            r"grandson|granddaughter|niece|nephew|ex-?fianc[ée]e?|(?:mother|father|son|daughter|brother|sister)-in-law|"
            # round 14 (set T person-name, set S name-cue): a person's role at school, at a clinic or on a
            # document ("student X asked", "translator of record: X", "patient in bed 12 is X")
            r"(?:translator|interpreter|student|pupil|patient|applicant|candidate|caller)"
            r"(?: of record| in (?:bed|room) \d{1,4})?)"
            r"(?:'s name is|,|:| is| named| called|" + _ + r"*=|" + _ + r"*->|" + _ + r"*→)?" + _
            + r"+(?:(?:mr|mrs|ms|miss|dr|prof)\.?" + _ + r"+)?([^\W\d_]+(?:[ -][^\W\d_]+){0,2})"),
         "Tiers seed checklist: 'no real names' (a full name after a relation word; the check wants capitals "
         "in the original text)", group=1, check=_en_full_name_ok, not_after=_LETTERS, lower=True, needs=("landlord", "landlady", "neighb", "colleague", "worker", "boss", "manager", "wife", "husband", "friend", "partner", "mate", "tenant", "client", "customer", "sitter", "nanny", "tutor", "doctor", "therapist", "lawyer", "accountant", "mother", "father", "mom", "mum", "dad", "sister", "brother", "cousin", "aunt", "uncle", "intern", "contact", "signatory", "translator", "interpreter", "student", "pupil", "patient", "applicant",
                "candidate", "caller"),
         triggers=frozenset("lan nei col co cow bos man wif hus gir boy par roo fla ten cli cus bab nan tut doc the law acc mot fat mom mum dad sis bro cou aun unc int con sig eme nex gua ben tea coa ex ste wit i "
                            "fia buy sel bus god gra nie nep son dau tra stu pup pat app can cal".split())),
    Rule("relation_name_zh", "name",
         _r(r"(?:同事|房东(?:老太太|阿姨|大爷)?|老婆|老公|妻子|丈夫|爱人|客户|室友|邻居|领导|老板|上司|经理|男朋友|女朋友|"
            r"对象|实习生|对接人|签字人|联系人|负责人|孩子他爸|孩子他妈|孩子爸爸?|孩子妈妈?|娃他爸|娃他妈|我妈妈?|我爸爸?|妈妈|爸爸|外婆|奶奶|爷爷|姥姥|外公|舅舅|阿姨|叔叔|"
            r"岳母|岳父|婆婆|公公|丈母娘|老丈人|嫂子|弟媳|姐夫|妹夫|女婿|儿媳|"
            r"表哥|表姐|表弟|表妹|堂哥|堂姐|同学|朋友|医生|律师|保姆|班主任|老师|家教|教练|导师|辅导员|前男友|前女友|"
            r"前夫|前妻|前任|房客|租客|收件人|寄件人|收货人|紧急联系人|担保人|受益人|manager|colleague)" + _
            + r"*(?:的)?(?:全名|名字|姓名|英文名)?(?:叫|是|为|写|填)?" + _ + r"*[:：]?" + _ + r"*[“\"「『]?(" + _CN_NAME + r")"),
         "Tiers seed checklist (zh): '没有真实姓名' (surname + given name after a relation word)", group=1,
         check=_cn_name_ok),
    Rule("role_name_zh", "name",
         _r(r"(?:会计|出纳|财务|人事|前台|秘书|助理|主管|组长|总监|店长|司机|护士|护工|病人|患者|学生|队友|搭档|"
            r"保安|快递员|对接的|带我的|负责的)" + _ + r"*(?:是|叫)?" + _ + r"*(" + _CN_NAME + r")"),
         "Tiers seed checklist (zh): '没有真实姓名' (a full name after a person's role at work, at a clinic or at "
         "school: 会计某某把报表发我了, 3床病人某某); three characters and a clause boundary after them, since a "
         "role is a weaker cue than a relation (财务马上就打款, 主管高度评价)", group=1, check=_role_name_ok,
         needs=("会计", "出纳", "财务", "人事", "前台", "秘书", "助理", "主管", "组长", "总监", "店长", "司机", "护士",
                "护工", "病人", "患者", "学生", "队友", "搭档", "保安", "快递员", "对接的", "带我的", "负责的")),
    Rule("relation_name_en_zh", "name",
         _r(r"(?:contact person|contact|emergency contact|landlord|landlady|tutor|teacher|colleague|client|"
            r"customer|boss|manager|doctor|lawyer|nanny|guarantor|next of kin|beneficiary|signed by|witness|"
            r"(?:mother|father|sister|brother|son|daughter)-in-law|wife|husband|mom|mum|dad|mother|father|aunt|uncle|"
            r"cousin|neighbou?r|roommate|flatmate|girlfriend|boyfriend|partner|friend|passenger|traveller|traveler|"
            r"patient|tenant|caregiver)(?:'s name is|,|:| is| named| called)?" + _ + r"*("
            + _CN_NAME + r")"),
         "Tiers seed checklist: 'no real names' (a Chinese full name after an English relation word)", group=1,
         check=_cn_name_ok, lower=True, not_after=_LETTERS,
         triggers=frozenset("con eme lan tut tea col cli cus bos man doc law nan gua nex ben sig wit mot fat sis bro "
                            "son dau wif hus mom mum dad aun unc cou nei roo fla gir boy par fri pas tra pat ten car"
                            .split())),
    Rule("name_title_zh", "name",
         _r(r"(?:老师|医生|大夫|律师|教授|女士|先生|阿姨|师傅|护士|主任)"),
         "Tiers seed checklist (zh): '没有真实姓名' (a full name, surname and two characters, right before a "
         "title; the finding covers the title, the check reads the name before it)",
         check=_cn_titled_name_ok, needs=("老师", "医生", "大夫", "律师", "教授", "女士", "先生", "阿姨", "师傅",
                                                 "护士", "主任")),
    Rule("latin_name_zh_verb", "name",
         _r(r"[跟和给找让]" + _ + r"*([A-Z][a-z]+" + _ + r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?)" + _
            + r"*(?:说|讲|聊|确认|问|打个?招呼|发|回复|沟通|对一下|一下|签|review)"),
         "Tiers seed checklist (zh): '没有真实姓名' (a Latin-script full name a Chinese sentence talks to)",
         group=1, check=_en_full_name_ok),
    Rule("latin_name_zh_cue", "name",
         _r(r"(?:问一下|问问|告诉|通知|提醒|联系|抄送|转告|催一下|麻烦)" + _ + r"*([A-Z][a-z]+" + _
            + r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?![A-Za-z])"),
         "Tiers seed checklist (zh): '没有真实姓名' (a Latin-script full name after a verb addressed to a person)",
         group=1, check=_en_full_name_ok),
    Rule("pinyin_passport_name", "name",
         _r(r"((?:ZHANG|WANG|LI|LIU|CHEN|YANG|HUANG|ZHAO|WU|ZHOU|XU|SUN|ZHU|HU|GUO|LIN|GAO|LUO|"
            r"ZHENG|LIANG|XIE|SONG|TANG|HAN|FENG|DENG|CAO|PENG|ZENG|XIAO|TIAN|DONG|PAN|YUAN|CAI|JIANG|DU|CHENG|"
            r"WEI|SU|DING|REN|SHEN|YAO|ZHONG|CUI|TAN|FAN|JIN|QIAN|DAI|QIN|HOU|XIONG|MENG|BAI|DUAN|LEI|LONG|SHI|"
            r"TAO|HAO|GU|GONG|SHAO|WAN|KONG|XIANG|CHANG|TANG|KANG|QIAO|LAI|YAN|XUE|YIN|OUYANG)" + _
            + r"+[A-Z][a-z]{1,12}(?:-[A-Za-z][a-z]{1,6})?)(?![A-Za-z])"),
         "ICAO Doc 9303 / MPS passport romanisation: SURNAME in capitals, then the given name in Hanyu Pinyin",
         group=1, check=_pinyin_given_ok, not_after=_LETTERS),
    Rule("relation_name_zh_en", "name",
         _r(r"(?:同事|房东|老婆|老公|客户|室友|邻居|领导|老板|对接人|联系人|负责人|实习生|同学|朋友)" + _
            + r"*(?:叫|是)?" + _ + r"*([A-Z][a-z]+(?:" + _ + r"[A-Z][a-z]+){1,2})"),
         "Tiers seed checklist (zh): '没有真实姓名' (a Latin-script full name after a relation word)", group=1,
         check=_en_full_name_ok),
    Rule("self_name_zh", "name",
         _r(r"(?:我叫|我名叫|我的名字(?:是|叫)|本人姓名|姓名" + _ + r"*[:：]|名字叫|名字是|全名(?:是|叫)?[:：]?|"
            r"真名(?:是|叫)|(?:真实)?姓名(?:是|叫|为)|本名(?:是|叫)?|原名(?:是|叫)?)" + _ + r"*(" + _CJK
            + r"{2,4}|[A-Z][a-z]+)"),
         "Tiers seed checklist (zh): '没有真实姓名'; 原名/本名 of a public figure ('鲁迅原名周树人') is a biography "
         "fact unless the line ties it to the user or someone they know", group=1, check=_self_name_zh_ok),
    Rule("name_after_cue_en", "name",
         _r(r"(?:(?:full|real|legal|birth|maiden|first|last|given|client|customer|contact|patient|tenant|buyer|"
            r"seller|account holder|cardholder|card holder|guest|passenger|student|employee)[ _]?name"
            r"(?:" + _ + r"+(?:on|in|for|of)" + _ + r"+[^\n:=]{1,30}?)?(?:" + _ + r"+is|" + _ + r"*[:=]|" + _
            + r"*(?:是|叫|为))|named|called)" + _ + r"*[\"'“]?([^\W\d_][^\W\d_'’-]*(?:" + _
            + r"[^\W\d_][^\W\d_'’-]*){0,2}|" + _CN_NAME + r")"),
         "Tiers seed checklist: 'no real names' (a name after a name cue: 'legal name on file is', 'client "
         "name:', 'is actually named', 'legal name 是')", group=1, check=_cue_name_ok, lower=True,
         not_after=_LETTERS, triggers=frozenset("ful rea leg bir mai fir las giv cli cus con pat ten buy sel acc car "
                                               "gue pas stu emp nam cal".split())),
    Rule("honorific_name_en", "name",
         _r(r"(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof)\.?" + _ + r"+([A-Z][a-z]+(?:[ \t-][A-Z][a-z]+)?)"),
         "Tiers seed checklist: 'no real names' (an honorific before a Capitalised surname: 'Mr. Tobias Wexler')",
         group=1, check=lambda v, m, t: _name_ok(v, m, t) and not set(v.split()) & _NAME_STOPWORDS
         and not _FICTION_CONTEXT.search(_line_around(t, m.start(), m.end())),
         not_after=_LETTERS, needs=("mr", "mrs", "ms", "mx", "miss", "dr", "prof")),
    Rule("pinyin_full_name", "name",
         _r(r"(?:Zhang|Wang|Li|Liu|Chen|Yang|Huang|Zhao|Wu|Zhou|Xu|Sun|Zhu|Hu|Guo|Lin|Gao|Luo|Zheng|Liang|Xie|Song|"
            r"Tang|Han|Feng|Deng|Cao|Peng|Zeng|Xiao|Tian|Dong|Pan|Yuan|Cai|Jiang|Du|Cheng|Wei|Su|Ding|Ren|Shen|Yao|"
            r"Zhong|Cui|Tan|Fan|Jin|Qian|Dai|Qin|Hou|Xiong|Meng|Bai|Duan|Lei|Long|Shi|Tao|Hao|Gu|Gong|Shao|Wan|Kong|"
            r"Xiang|Chang|Kang|Qiao|Lai|Yan|Xue|Yin|Ouyang)" + _ + r"+[A-Z][a-z]{1,12}(?![A-Za-z])"),
         "MPS / ISO 7098 romanisation: a common Chinese surname and a Hanyu Pinyin given name, both Capitalised "
         "('Zhou Ming', 'Guo Xinyi')", check=_pinyin_full_name_ok, not_after=_LETTERS),
    Rule("person_noun_name_zh", "name",
         _r(r"(?:人|家|者|员|长|任|队|师|友|东|客|伴|总|监|导|生)(?:的)?(?:全名|名字|姓名|真名|真实姓名)?[】\]」』]?" + _
            + r"*(?:叫|名叫|是|为|[:：])?" + _ + r"*(" + _CN_NAME + r")"),
         "Tiers seed checklist (zh): '没有真实姓名' (a full name after a person noun: 签收人：, 买家是, 领队叫, "
         "车间主任是, 【联系人】)", group=1, check=_person_suffix_name_ok),
    Rule("name_called_zh", "name", _r(r"(?:叫|名叫|叫做)" + _ + r"*(" + _CN_NAME + r")"),
         "Tiers seed checklist (zh): '没有真实姓名' (a three-character full name after 叫: 'co-founder 叫 彭宇航')",
         group=1, check=lambda v, m, t: len(re.match(_CN_NAME, v).group()) >= 3 and _cn_given_ok(v, m, t)),
    Rule("at_handle", "handle",
         _r(r"@([A-Za-z][A-Za-z0-9_.-]{1,29}|" + _CJK + r"[\u4e00-\u9fff\w]{1,14})"),
         "Tiers seed checklist: 'no usernames or handles' (with a platform word on the line: a team mention "
         "is not a person)", group=1, check=_at_handle_ok, not_after=_WORDCH + "@.+/-])"),
    Rule("account_handle", "handle",
         _r(r"(?:username|user name|login name|screen name|wechat(?: id)?|twitter|github|gitlab|telegram|weibo|"
            r"discord|instagram|qq|douyin|tiktok|xiaohongshu|rednote|bilibili|kuaishou|zhihu|threads|mastodon|reddit)"
            r"(?:" + _ + r"+(?:user(?:" + _ + r"?name)?|handle|account|id|name|acct))?(?:" + _ + r"+(?:of|for)" + _
            + r"+[^\n:=]{1,30}?)?(?:" + _ + r"*(?:is |[:：=])|"
            + _ + r"+(?=[a-z0-9_.-]*\d))" + _ + r"*@?([a-z][a-z0-9_.-]{2,30})"),
         "Tiers seed checklist: 'no usernames or handles'", group=1, check=_account_handle_ok, lower=True,
         not_after=_LETTERS,
         triggers=frozenset("use log scr wec twi git tel wei dis ins qq dou tik xia red bil kua zhi thr mas".split())),
    Rule("platform_account_zh", "handle",
         _r(r"(?:QQ|qq|微信|vx|VX|抖音|小红书|ins|Instagram|IG|GitHub|Github|github|B站|b站|bilibili|推特|Twitter|微博|"
            r"支付宝|Telegram|TG|知乎|快手|领英|LinkedIn)" + _ + r"*(?:UP主|主播|博主)?" + _ + r"*(?:号码|号|账号|账户名|账户|帐号|用户名|ID|id|UID|uid)"
            + _ + r"*(?:是|为|[:：])?" + _ + r"*@?([A-Za-z0-9_][A-Za-z0-9_.-]{3,38})"),
         "Tiers seed checklist (zh): '没有用户名或 handle' (an account after a platform word)", group=1,
         check=_handle_value_ok),
    Rule("qq_number", "handle",
         _r(r"(?:QQ|qq|扣扣|B站|小红书|抖音)(?:号码?|" + _ + r"+(?:number|no\.?|id|ID|UID|uid|#))?" + _
            + r"*(?:是|为|is|[:：=#])?" + _ + r"*([1-9]\d{4,11})(?!\d)"),
         "Tencent QQ numbers (5-12 digits) after the platform word", group=1, not_after=_LETTERS),
    Rule("game_friend_code", "handle",
         _r(r"(?:steam|xbox|psn|playstation|nintendo|switch|epic games|epic|battle\.?net|ubisoft|origin|ea app)"
            r"[^\n]{0,12}?(?:friend code|friend id|好友码|好友代码|好友 id|account id|user id|id|uid)" + _
            + r"*(?:is|是|为|[:：=#])?" + _ + r"*(sw-\d{4}-\d{4}-\d{4}|\d{6,17}|\d{4}-\d{4}-\d{4})(?![\d-])"),
         "Valve, Microsoft, Sony, Nintendo docs (friend codes, account ids): a game platform account after "
         "its word", group=1, lower=True, not_after=_LETTERS,
         triggers=frozenset("ste xbo psn pla nin swi epi bat ubi ori ea".split())),
    Rule("reddit_user", "handle", _r(r"(?<![\w/])u/([A-Za-z0-9_-]{3,24})(?![\w/-])"),
         "Reddit user names (u/name; 3-20 characters today, older accounts longer)", group=1, check=_not_placeholder, needs=("u/",)),
    Rule("platform_number_en", "handle",
         _r(r"(?:xiaohongshu|rednote|red|douyin|bilibili|kuaishou|weibo|wechat)(?:" + _
            + r"+(?:number|no\.?|id|uid|#))" + _ + r"*(?:is|[:=#])?" + _ + r"*([1-9]\d{4,11})(?!\d)"),
         "Tiers seed checklist: 'no usernames or handles' (a numeric account id after a Chinese platform's name)",
         group=1, lower=True, not_after=_LETTERS, triggers=frozenset("xia red dou bil kua wei wec".split())),
    Rule("account_handle_zh", "handle",
         _r(r"(?:用户名|昵称|微信号|微信|威信|薇信|(?:vx|VX|wx|WX|QQ)(?![A-Za-z])号?|v信|抖音号?|小红书号?)" + _ + r"*(?:" + _ZH_SET
            + r"|是|为|[:：])?" + _
            + r"*@?([A-Za-z][A-Za-z0-9_.-]{2,30})"),
         "Tiers seed checklist (zh): '没有用户名或 handle'", group=1, check=_handle_value_ok,
         not_after=_WORDCH + "+/"),  # "QQ" inside Base64 ("...MQswCQYDVQQGEwJJ...") is not the platform
    Rule("wechat_internal_id", "handle", _r(r"wxid_[a-z0-9]{8,20}" + _END),
         "WeChat's internal account id (wxid_ + 8-20 lower-case letters and digits)", not_after=_WORDCH,
         needs=("wxid_",)),
    Rule("discord_tag", "handle",
         _r(r"discord[^\n]{0,20}?([a-z0-9_.]{2,32}#\d{4})(?!\d)"),
         "Discord legacy user tags (name#1234)", group=1, lower=True, needs=("discord",)),
    Rule("posts_as_handle", "handle",
         _r(r"on" + _ + r"+(?:douyin|tiktok|instagram|twitter|weibo|bilibili|youtube|twitch|reddit|github|"
            r"xiaohongshu|kuaishou)" + _ + r"+(?:as|under)" + _ + r"+@?([a-z0-9_][a-z0-9_.-]{3,30})"),
         "Tiers seed checklist: 'no usernames or handles' ('posts on Douyin as X')", group=1,
         check=_handle_value_ok, lower=True, not_after=_LETTERS, triggers=frozenset({"on"})),
    Rule("posts_as_handle_zh", "handle",
         _r(r"(?:小红书|抖音|微博|b站|B站|快手|知乎|视频号)上?" + _ + r"*(?:叫|名叫|账号是?|的号是?)" + _
            + r"*@?([A-Za-z0-9_][A-Za-z0-9_.-]{3,30})"),
         "Tiers seed checklist (zh): '没有用户名或 handle' ('她在小红书上叫 X')", group=1, check=_handle_value_ok),
    Rule("search_my_account_zh", "handle", _r(r"(?:搜我的号|搜我|我的号)" + _ + r"*([A-Za-z0-9_][A-Za-z0-9_.-]{3,38})"),
         "Tiers seed checklist (zh): '没有用户名或 handle'", group=1, check=_handle_value_ok),
    Rule("profile_url", "handle",
         _r(r"(?:linkedin\.com/in|instagram\.com|x\.com|twitter\.com|weibo\.com/u|space\.bilibili\.com|"
            r"xiaohongshu\.com/user/profile|douyin\.com/user|reddit\.com/u(?:ser)?|twitch\.tv|"
            r"steamcommunity\.com/(?:id|profiles)|(?:youtube|tiktok|medium)\.com/@?|threads\.net/@?|"
            r"gitee\.com|zhihu\.com/people)/([A-Za-z0-9_.-]{3,60})"),
         "Tiers seed checklist: 'no usernames or handles' (a personal profile URL)", group=1, lower=True,
         check=_not_placeholder, needs=(".com/", "twitch.tv/", "threads.net/")),
    Rule("github_profile_url", "handle",
         _r(r"(?:github\.com|gitlab\.com|gitee\.com|codeberg\.org|bitbucket\.org)/"
            r"([A-Za-z0-9](?:[A-Za-z0-9_.-]{0,37}[A-Za-z0-9])?)(?![\w/.-])"),
         "GitHub user names (1-39 letters, digits, hyphens; GitLab, Gitee, Codeberg and Bitbucket allow '_' and "
         "'.' too): a profile URL with no repository after it, on a line that says it is someone's (主页, "
         "profile, his/her/my, 我的号)", group=1, lower=True, check=_profile_owner_ok,
         needs=("github.com/", "gitlab.com/", "gitee.com/", "codeberg.org/", "bitbucket.org/")),
    # ---- sensitive topics (AANA memory-gate seed: approval before storing) ----
    *_topic("health_terms", "health",
            r"diagnosed with|(?:was|is|been|got|were|am|are) diagnosed|diagnosis of|depression|depressed|"
            r"hospital for (?:a |my |the )?(?:follow-up|check-?up|treatment|scan)|"
            r"antidepressants?|anxiety disorder|anxiety|panic attacks?|bipolar|"
            r"schizophreni[a-z]*|ptsd|adhd|ocd|autism|autistic|diabetes|diabetic|cancer|tumou?rs?|chemo(?:therapy)?|hiv|"
            r"hepatitis|medications?|prescriptions?|prescribed|surgery|therapist|therapy|psychiatrists?|mental health|"
            r"mental illness|allerg(?:y|ic|ies)|asthma|hypertension|blood pressure|pregnan(?:t|cy)|miscarriage|"
            r"diseases?|illness|hospitali[sz]ed|medical records?|insulin|seizures?|epilepsy|migraines?|rehab|"
            r"addiction|eating disorder|dementia|alzheimer'?s|multiple sclerosis|parkinson'?s|stroke|"
            r"heart attack|disabilit(?:y|ies)|wheelchair|hearing aids?|deaf|blind|crutches|"
            r"(?:kidney|liver|heart|lung|bone marrow|organ) transplant|transplant (?:patient|surgery|list)|"
            r"tacrolimus|immunosuppress\w*|hpv|chlamydia|gonorrh?oea|syphilis|genital warts|post-?op|"
            r"early-stage alzheimer's|fatty liver|liver function|kidney function|"
            r"ivf|infertility|metformin|sertraline|zoloft|prozac|lexapro|xanax|adderall|ritalin|lithium|statins?|"
            r"insomnia|sleeping pills|on medication|sick leave|physical therapy|physiotherapy|dialysis|"
            r"std|sti|herpes|overdose|suicid\w*|self-harm|hard of hearing|hearing loss|cochlear implants?|"
            r"visually impaired|low vision|amputee|prosthe(?:sis|tic)|sign language user|nodules?|biopsy|biopsies|"
            r"cysts?|polyps?|thyroid|hypothyroid\w*|hyperthyroid\w*|anorexi\w*|bulimi\w*|arthritis|lupus|"
            r"crohn'?s|colitis|ibs|chronic (?:pain|fatigue|illness)|blood type|hiv-positive|on dialysis|"
            r"blood tests?|blood work|bloodwork|lab results|hba1c|a1c|ldl|cholesterol|"
            r"relapse[ds]?|sober|sobriety|in recovery|rehab stint|methadone|suboxone|buprenorphine|naltrexone|"
            r"detox|opioid (?:use disorder|addiction|dependence)|alcoholics anonymous|narcotics anonymous|"
            r"aa meetings?|na meetings?|12-step program|substance (?:abuse|use disorder)|"
            r"recovering alcoholic|alcoholic|alcoholism|alcohol (?:use disorder|dependence|addiction)|drinking problem|"
            r"hysterectomy|mastectomy|lumpectomy|appendectomy|vasectomy|tonsillectomy|cholecystectomy|colectomy|"
            r"c-section|caesarean|cesarean|(?:knee|hip) replacement|had (?:an? )?operation|"
            r"warfarin|levothyroxine|zolpidem|fluoxetine|escitalopram|citalopram|amlodipine|lisinopril|losartan|"
            r"metoprolol|atorvastatin|rosuvastatin|simvastatin|omeprazole|gabapentin|prednisone|methotrexate|"
            r"lamotrigine|quetiapine|aripiprazole|bupropion|venlafaxine|duloxetine|clonazepam|lorazepam|diazepam|"
            r"alprazolam|semaglutide|ozempic|wegovy|eliquis|apixaban|plavix|clopidogrel|tamoxifen|"
            r"(?:[1-9]\d{0,3}) ?(?:mg|mcg)(?: (?:daily|a day|twice|once|every|at night|per day|tablets?|pills?))?",
            r"医院复查|(?:去|到)医院(?:做|打|拿|看)?(?:检查|看病|输液|拿药|产检|打针)|"
            r"抑郁|焦虑|双相|精神分裂|惊恐发作|惊恐障碍|恐慌症|躁郁|躁狂|创伤后应激|自闭症|多动症|糖尿病|癌|肿瘤|化疗|艾滋|确诊|诊断为|诊断出|病历|吃药|服药|药物|"
            r"试管|取卵|胚胎|心律不[齐整]|处方|手术|心理医生|心理咨询|精神科|高血压|哮喘|怀孕|流产|住院|病情|体检报告|失眠|慢性病|"
            r"残疾|残障|轮椅|听力|视力障碍|癫痫|心脏病|中风|脑梗|乙肝|甲亢|痛风|透析|肾病|抗抑郁|二甲双胍|他汀|"
            r"佐匹克隆|安眠药|舍曲林|氟西汀|胰岛素|降压药|试管婴儿|不孕|病假|康复|复诊|ICU|重症|抑郁症|强迫症|"
            r"阿尔茨海默|帕金森|自杀|自残|心脏|支架|搭桥|心梗|孕[0-9一二三四五六七八九十]+周|产检|坐月子|"
            r"验血|血检|化验单|化验结果|糖化血红蛋白|血脂|胆固醇|血压(?!计)|血糖(?!仪)|血型|(?i:rh) ?阴性|[ABO]{1,2} ?型血|熊猫血|结节|穿刺|活检|病理|囊肿|息肉|甲减|甲亢|进食障碍|厌食|暴食|听障|视障|聋|"
            r"美沙酮|丁丙诺啡|纳曲酮|戒毒|戒酒|戒断|成瘾|药瘾|酒瘾|毒瘾|"
            r"移植|他克莫司|环孢素|免疫抑制|HPV|人乳头瘤|尖锐湿疣|衣原体|淋病|疱疹|脂肪肝|肝功能|肾功能|术后|"
            r"老年痴呆|失智|失明|失聪|"
            r"盲人|助听器|人工耳蜗|截肢|假肢|唐氏|脑瘫|残疾证|乳腺|前列腺|宫颈|妇科|性病|梅毒|骨折|过敏(?!原)|"
            r"地平(?!线)|沙坦|普利(?!司|策|茅)|洛尔|他汀|西林(?!县)|霉素|替尼|单抗|双胍|唑仑|西泮|曲林|西汀|帕明|优甲乐|"
            r"[吃服加][一两半\d]{1,2}(?:片|粒)",  # one class, not three branches: gated by 片/粒, not 服 (服务)
            "AANA memory-gate seed: health (sensitivity class 'health'); disability is a health fact here"),
    *_topic("legal_terms", "legal",
            r"divorc(?:e|ed|ing)|lawsuits?|sued|suing|attorneys?|lawyers?|custody|arrested|under arrest|arrest warrant|"
            r"criminal record|undocumented|illegal immigrant|no papers|served time|fraud charges?|sex offender|"
            r"expunged|mugshot|"
            r"convicted|conviction|probation|parole|indicted|indictment|subpoena|litigation|"
            r"court (?:case|date|hearing|order)|in court|restraining order|felony|misdemeanou?r|deport(?:ed|ation)|"
            r"dui|dwi|(?:went to|sent to|in|out of|from) jail|jailed|prison|police record|charged with|pleaded guilty|on bail|"
            r"under investigation|visa overstay|overstayed|"
            # round 14 (sets S and T, immigration status): a refused or revoked visa or permit, an immigration
            # case before a court or tribunal
            r"(?:visa|h-?1b|h-?4|f-?1|j-?1|l-?1|o-?1|green card|work permit|residence permit|asylum claim|"
            r"asylum application|visa application)(?: (?:was|got|has been|had been|is|being))? (?:denied|refused|"
            r"rejected|revoked|cancell?ed)|immigration (?:tribunal|court|hearing|judge|lawyer|attorney|case|detention)|"
            r"(?:visa|asylum|deportation|removal) hearing|"
            # round 13 (kind "a named person under investigation", set O): an investigation or a
            # white-collar offence of someone
            r"(?:is|was|being|been|got|are|were) investigated|investigated (?:by|for)|under (?:federal|criminal|an) "
            r"investigation|insider trading|embezzl\w*|money laundering|tax evasion|wire fraud|securities fraud|visa (?:expired|has expired|ran out|lapsed|was revoked)|"
            r""
            r"(?:(?:pending|facing|faces|faced|dropped|new) )?(?:criminal|felony|assault|theft|fraud|drug|dui|harassment|"
            r"stalking|weapons?|murder|manslaughter|robbery|burglary|shoplifting|possession|trespassing|vandalism|"
            r"domestic violence) charges?|pressed charges|press charges|arraign\w*|plea deal|awaiting trial|"
            r"stand(?:s|ing)? trial|on trial for|(?:bail|sentencing|custody|arraignment|parole|preliminary) hearing",
            r"离婚|官司|起诉|被告|原告|律师|诉讼|判决|判刑|开庭|法院|被捕|拘留|犯罪记录|刑事|缓刑|假释|仲裁|传票|坐牢|服刑|"
            r"肇事逃逸|签证过期|拒签|签证被拒|被遣返|遣返|驱逐出境|移民监狱|失信被执行人|被执行人|前科|盗窃|酒驾|醉驾|取保候审|立案|被抓|派出所|劳动仲裁|黑户|逾期居留|被判|判了|刑拘|"
            r"被指控|受审|候审|庭审|公诉|批捕|提起公诉|拘役|涉嫌|案底|把[^\n，。]{0,6}告了|告上法庭|告到法院|被[^\n，。]{0,6}告了|"
            r"要告(?:我|他|她|你)|进去过|坐过牢|蹲过|诈骗|行贿|受贿|贪污|吸毒|戒毒|看守所|监狱|职务侵占|非法居留|"
            r"纪委|监委|留置|双规|带走调查|经侦|内幕交易|洗钱|逃税|非法集资|被调查|接受调查|立案审查|扣了 ?\d+ ?分|驾照被?扣|吊销驾照|驾照被吊销|记了 ?\d+ ?分",
            "AANA memory-gate seed: legal (sensitivity class 'legal')"),
    *_topic("financial_terms", "financial",
            r"salary|salaries|income|paycheck|net worth|debts?|(?:student|personal|car|home|payday|bank|a|my|his|her)"
            r" loans?|mortgage|credit score|credit report|bankrupt(?:cy)?|tax returns?|bank balance|overdraft|"
            r"savings account|401\(k\)|pension|owes?|owed|in debt|behind on (?:rent|payments)|defaulted|"
            # round 14 (set T financial): UK insolvency arrangements, fees or dues fallen behind
            r"iva (?:approved|agreed|was approved)|individual voluntary arrangement|debt relief order|"
            r"debt management plan|county court judg(?:e)?ment|ccj|behind on (?:his|her|my|their|our)? ?[a-z]+ "
            r"(?:fees|dues|payments|rent|bills)|"
            r"collections agency|debt collectors?|foreclosure|evicted|eviction|maxed out|garnish\w*|"
            r"pay cut|laid off|can'?t afford|broke until|living paycheck|behind on (?:the )?(?:mortgage|rent|bills)|"
            r"earns? \$?\d|makes? \$?\d+k|(?:gambling|credit card) debt|unpaid taxes|"
            r"cut (?:my|his|her|our|their) (?:pay|salary|wages|hours)|pay (?:was|got) cut|savings (?:are|were|of)|"
            r"life savings|total savings|repossess\w*|fico(?: score)?|credit (?:score|rating) (?:is|of|dropped|fell|went)|"
            r"base (?:salary |pay )?(?:of )?\$?\d+k|sign-on (?:bonus )?\$?\d|signing bonus|rsu grant|"
            r"agi (?:was|is|of) \$?\d|adjusted gross income|1040 (?:we|i|they) filed|1040 (?:form|return)|"
            r"(?:disability|unemployment|housing|child|welfare) benefits?|universal credit|food stamps|"
            r"snap benefits|on benefits|on welfare|(?:an|my|his|her|their|our) inheritance|inheritance (?:from|money|tax)|"
            r"inherited (?:money|property|a house|the house|[$£€\d])|(?:his|her|my|their) will\b|"
            r"gambl(?:ing|ed) (?:away|losses|debts?)|lost \$?[\d,.]+k? gambling|arrears|back rent|"
            # round 13 (kinds of set O: "filed Chapter 7 last year", "a gambling problem", support payments)
            r"(?:filed|filing|files|file) (?:for )?chapter (?:7|11|13)|chapter (?:7|13) (?:bankruptcy|filing|discharge|"
            r"case|trustee)|gambling (?:problem|addiction|habit)|problem gambl\w*|compulsive gambl\w*|"
            r"lost (?:his|her|their|my|our) (?:savings|life savings|house|home)|child support|alimony|spousal support",
            r"工资|薪水|薪资|月薪|年薪|收入|存款|负债|欠款|欠了|欠银行|欠债|贷款|房贷|车贷|网贷|信用分|征信|破产|理财|炒股|"
            r"税单|个税|年终奖|债务|逾期|催收|亏了|亏损|赔了|借钱|还不上|套现|被裁|降薪|年包|月入|税前|税后|到手|挣了|赚了|"
            r"卡债|保单|重疾险|寿险|私活|没交税|漏税|偷税|没钱|拖欠|拖了[一两三四五六\d]+个月|月光|欠着|外债|花呗|借呗|白条|借条|欠条|"
            r"借了[^\n，。]{0,4}[万千块元]|一直没还|还没还|不还钱|公积金|社保基数|缴存基数|个人所得税|退税|补税|"
            r"低保|救济金|失业金|失业救济|补助金|遗嘱|遗产|赌博|赌输|赌债|失信|抚养费|赡养费|欠[^\n，。]{0,2}(?:水电|物业|房租|租金)费?|"
            r"扣押金|押金[^\n，。]{0,4}(?:扣|不退)|"
            # round 14 (set T financial: "我们家房子被银行拍卖了"): a home sold by the bank or the court, payments stopped
            r"被[^\n，。]{0,4}拍卖|法拍|断供|房子被收",
            "AANA memory-gate seed: financial (sensitivity class 'financial')"),
    *_topic("biometric_terms", "biometric",
            r"face ?id|facial recognition|face scan|iris scan|retina(?:l)? scan|voice ?prints?|"
            r"dna (?:test|sample|results?|data|paternity|profile)|genetic (?:test|data|results?)|biometric (?:data|scan|template|records?)|"
            r"biometrics of|fingerprints?|23andme|ancestrydna|brca[12]?|paternity test|face (?:geometry|embedding|"
            r"template|print)|faceprint|palm ?print|gait|palm[- ]?vein|(?:whole[- ])?genome|genomic|genotyp\w*|exome|"
            r"apoe|mthfr|snps?|haplogroup|ancestry (?:dna|test|results?)|iris (?:template|data|code|image)s?|"
            r"(?:palm|hand|vein|retina|iris|face|finger) ?(?:scans?|geometry|recognition|patterns?)|amazon one|"
            r"voice (?:clone|cloning|samples?|model of me)|clone (?:my|his|her|their) voice|(?:my|his|her) own voice",
            r"指纹|人脸识别|面部识别|刷脸|虹膜|声纹|基因检测|掌纹|生物识别信息|亲子鉴定|人脸照片|人脸数据|人脸信息|特征值|"
            r"特征向量|步态|基因|DNA(?:检测|样本|鉴定|报告|数据)|静脉识别|掌静脉|祖源|单倍群|全基因组",
            "AANA memory-gate seed: biometric", check=_biometric_topic_ok),
    *_topic("minor_terms", "minor",
            r"(?:my|our|his|her|their|the user's) (?:sons?|daughters?|kids?|child|children|baby|toddler|teen(?:ager)?s?"
            r"|boy|girl|twins|niece|nephew)|kids'|(?:1[0-7]|[1-9])[- ]years?[- ]old|kindergarten|preschool|"
            r"elementary school|elementary|primary school|middle school|daycare|nursery|underage|minors|"
            r"(?:[1-9]|1[0-2])(?:st|nd|rd|th) grade|year [1-9] at|u1[0-8]|aged? (?:1[0-7]|[1-9])|(?:1[0-7]|[1-9]) ?(?:yo|y/o)|"
            r"summer camp|yearbook|iep|school photo|preteen|teenager|stepson|stepdaughter|foster child|"
            r"grade (?:[1-9]|1[0-2])(?![\d.])|report cards?|junior high|middle school|"
            r"kids? pick-?ups?|school pick-?ups?|school run|pick(?:ing)? up (?:the|my|our) kids?|"
            # round 13 (kind "children by their age", own phrasings): "the twins are 6", "my boys are 9 and 11"
            r"(?:the|my|our|his|her|their) (?:twins|kids|boys|girls|children|triplets) (?:are|turn|turned) "
            r"(?:1[0-7]|[1-9])(?![\d.:%])",
            r"儿子|女儿|孩子|小孩|宝宝|未成年|幼儿园|小学|初中生|中学生|高中生|侄子|侄女|外甥女?|闺女|"
            r"[一二三四五六]年级|学而思|托班|中学",
            "AANA memory-gate seed: child/minor"),
    Rule("drug_stem", "health",
         _r(r"(?:pril|sartan|olol|statin|azepam|azolam|oxetine|tinib|formin|farin|dipine|prazole|cycline|cillin|mycin|"
            r"triptan|gliptin|semide|thyroxine|pidem|dronate|lukast|setron|mab)(?![a-z])"),
         "WHO INN stems (International Nonproprietary Names, 'The use of stems in the selection of INN'): a "
         "medicine by its stem, about a person", keep=True, lower=True, check=_drug_stem_ok,
         needs=("pril", "sartan", "olol", "statin", "azepam", "azolam", "oxetine", "tinib", "formin", "farin",
                "dipine", "prazole", "cycline", "cillin", "mycin", "triptan", "gliptin", "semide", "thyroxine",
                "pidem", "dronate", "lukast", "setron", "mab")),
    Rule("dose", "health",
         _r(r"\d" + _ + r"?(?:mg|mcg|µg|μg|毫克|微克)(?![A-Za-z])"),
         "a medicine dose (milligrams, micrograms) about a person: a health fact", keep=True, check=_dose_ok,
         needs=("mg", "mcg", "µg", "μg", "毫克", "微克")),
    Rule("school_grade_zh", "minor", _r(r"(?:初|高)[一二三]"),
         "AANA memory-gate seed: child/minor (a school year: 读初二, 高一学生; not 高一点, 正月初一)", keep=True,
         check=_school_grade_ok, needs=("初", "高")),
    Rule("minor_age_zh", "minor", _r(r"(?:1[0-7]|[1-9]|十[一二三四五六七]?|[一二三四五六七八九])" + _ + r"*岁(?!以下|以上|以内|及以下|及以上|之前|前的|起)"),
         "AANA memory-gate seed: child/minor (an age under 18)", keep=True, not_after="0123456789一二三四五六七八九十", needs=("岁",)),
    Rule("immigration_status", "protected",
         _r(r"(?i)(?<![a-z])(?:undocumented|immigration status|visa status|no papers|asylum seeker)(?![a-z])"),
         "AANA memory-gate seed: protected class (immigration status; also a legal matter, so the legal keyword "
         "list reports it too: one word, two topics)", keep=True, check=_topic_ok,
         needs=("undocumented", "immigration status", "visa status", "no papers", "asylum seeker")),
    Rule("crypto_holdings", "financial",
         _r(r"(?i)(?<![a-z])(?:hold|holds|own|owns|have|has|bought|sold|got|stacked)[ \t]+(?:about |around |over |nearly |"
            r"roughly )?\d+(?:\.\d+)?[ \t]?(?:btc|eth|bitcoin|ether|sol|xmr)(?![a-z])"),
         "AANA memory-gate seed: financial (a person's crypto holdings)", keep=True, check=_topic_ok,
         needs=("btc", "eth", "bitcoin", "ether", "sol", "xmr")),
    Rule("politics_supporter", "protected",
         _r(r"(?i)(?<![a-z])(?:(?:trump|biden|obama|harris|clinton|sanders|farage|modi|bolsonaro|le pen|putin|erdogan|"
            r"milei|meloni|orban)[ \t]+(?:supporters?|voters?|fans?|loyalists?|backers?|donors?)|maga)(?![a-z])"),
         "AANA memory-gate seed: protected class (political views: a politician's supporter)", keep=True,
         check=_topic_ok, needs=("supporter", "voter", "fan", "loyalist", "backer", "donor", "maga")),
    Rule("caste_terms", "protected",
         _r(r"(?i)(?<![a-z])(?:dalits?|brahmins?|caste|kshatriyas?|vaishyas?|shudras?|untouchables?|scheduled caste)"
            r"(?![a-z])"),
         "AANA memory-gate seed: protected class (caste)", keep=True, check=_topic_ok,
         needs=("dalit", "brahmin", "caste", "kshatriya", "vaishya", "shudra", "untouchable")),
    Rule("union_membership", "protected",
         _r(r"(?i)(?<![a-z])(?:(?:joined|member of|card-carrying member of)[ \t]+(?:the|a|our)[ \t]+(?:[a-z'-]+[ \t]+){0,3}"
            r"union|union (?:card|dues|membership))(?![a-z])"),
         "AANA memory-gate seed: protected class (trade-union membership, GDPR Art. 9)", keep=True,
         check=_topic_ok, needs=("union",)),
    Rule("immigration_overstay", "legal",
         _r(r"(?i)(?<![a-z])(?:expired visa|out of status|overstayed (?:his|her|their|my) visa)(?![a-z])"),
         "AANA memory-gate seed: legal (an immigration status problem)", keep=True, check=_topic_ok,
         needs=("expired visa", "out of status", "overstayed")),
    Rule("minor_age_is_en", "minor",
         _r(r"[A-Z][a-z]+" + _ + r"+(?:is|turns|turned|just turned)" + _ + r"+(?:1[0-7]|[1-9])(?![\d.:%,]\d)(?=[ \t,.;]|(?m:$))"),
         "AANA memory-gate seed: child/minor (a named person's age under 18: 'Noah is 14, goes to ...')", keep=True,
         check=lambda v, m, t: v.split()[0] not in _NAME_STOPWORDS and bool(_CHILD_LIFE.search(_line_around(t, m.start(), m.end()))),
         needs_re=re.compile(r" (?:is|turns|turned) (?:1[0-7]|[1-9])\b")),
    Rule("minor_age_en", "minor",
         _r(r"(?:[A-Z][a-z]+,?" + _ + r"+\((?:1[0-7]|[1-9])\)|[A-Z][a-z]+," + _ + r"+(?:1[0-7]|[1-9]),|\((?:[1-9])\)"
            + _ + r"+(?:is|are|starts?))"),
         "AANA memory-gate seed: child/minor (a name with an age under 18)", keep=True, needs_re=re.compile(r"\((?:1[0-7]|[1-9])\)|, (?:1[0-7]|[1-9]),")),
    # round 13 (kind "a person's body measurements", set O biometric-height-weight: "我身高 158 体重 79 公斤"):
    # height, weight, BMI or body fat with a figure, in a personal sense (GDPR Art. 4(14) physical
    # characteristics; the set labels them biometric)
    *_topic("body_measure", "biometric",
            r"(?:my|his|her|their) (?:height|weight|bmi|body fat|waist)\b[^\n\d]{0,12}\d|"
            r"\bi (?:weigh|am) \d{2,3}(?:\.\d)? ?(?:kg|kilos?|lbs?|pounds|cm|stone)|"
            r"(?:weighs?|weighed) \d{2,3}(?:\.\d)? ?(?:kg|kilos?|lbs?|pounds|stone)|"
            r"(?:height|weight|bmi)(?: is| of|:)? ?\d{2,3}(?:\.\d)? ?(?:cm|kg|lbs?)?[ ,;/]+(?:and )?"
            r"(?:height|weight|bmi)\b",
            r"身高[ \t]*[:：是为有]?[ \t]*[12]?\d{2}(?:\.\d)?|体重[ \t]*[:：是为有]?[ \t]*\d{2,3}(?:\.\d)?|"
            r"(?i:bmi)[ \t]*[:：是为]?[ \t]*\d{2}(?:\.\d)?|体脂率?[ \t]*[:：是为]?[ \t]*\d{1,2}",
            "kind seen in set O (biometric-height-weight); GDPR Art. 4(14) physical characteristics"),
    # round 13 (kind "a person's blood group", set N blood-type-genetic: "我是Rh阴性血（熊猫血）"): a
    # genetic trait as well as a health fact; the health list reports it too
    # (a Rule of its own, not a lower-cased topic list: the health list's "blood type" at the same place
    # would hide it in the joined topic pattern)
    Rule("blood_group", "biometric",
         _r(r"(?i)(?<![a-z])(?:blood (?:type|group)|rh-?negative|rh-?positive)(?![a-z])|血型|熊猫血|(?i:rh)[ \t]*阴性|"
            r"(?<![A-Za-z])[ABO]{1,2}[ \t]*型血"),
         "kind seen in set N (blood-type-genetic: 我是Rh阴性血); GDPR Art. 4(13) genetic data", keep=True,
         check=_topic_ok, needs=("blood", "rh", "血型", "熊猫血", "阴性", "型血")),
    *_topic("protected_terms", "protected",
            r"muslim|christian|jewish|buddhist|hindu|sikh|atheist|catholic|religious beliefs?|(?:my|his|her) religion|"
            r"gay|lesbian|bisexual|transgender|queer|lgbtq?\+?|sexual orientation|ethnicity|ethnic minority|"
            r"political (?:views|affiliation)|party member|republican|democrat|labou?r voter|tory|"
            r"communist party|union organi[sz]er|union member|ramadan|kosher|halal|hijab|baptized|"
            r"came out|coming out|roma|romani|refugee|asylum|jehovah'?s witness|mormon|lds church|quaker|evangelical|"
            r"orthodox jew|protestant|baptist|methodist|scientolog\w*|wiccan?|pagan|"
            r"vot(?:e|es|ed|ing) (?:for )?(?:the )?(?:green|labou?r|conservative|tory|republican|democrat|libertarian|lib dem|"
            r"reform|snp|cdu|afd|spd|leave|remain|trump|biden|tories)s?|canvass\w* for|political (?:party|leanings?|opinions?)|activist|"
            r"(?:green|labou?r|conservative|tory|reform(?: uk)?|liberal|lib dem|democratic|republican|communist|socialist|"
            r"libertarian|ukip|snp|plaid|cdu|afd|spd|kmt|dpp) (?:party|voter|supporter|member|candidate|campaign)|"
            r"donated to (?:his|her|their|the) campaign|campaign donor|"
            r"jain|jainism|zoroastrian|baha'?i|shinto|taoist|rastafarian|druze|sunni|shia|shiite|ahmadi|coptic|"
            r"transitioning|(?:uses|use|using|prefers|goes by) (?:she/her|he/him|they/them|ze/zir|xe/xem)|"
            r"non-?binary|genderqueer|gender identity|deadnam\w*|her wife|his husband|same-sex (?:partner|marriage|couple)|"
            r"union drive|unioni[sz](?:e|ed|ing|ation)|trade union|labou?r union|union rep|union steward|"
            r"joined the union|"
            r"uyghur|uighur|tibetan|kurdish|hmong|yazidi|rohingya|maori|aboriginal|first nations|native american|"
            r"latino|latina|hispanic|african american|biracial|mixed race",
            r"宗教信仰|基督徒|基督教|穆斯林|伊斯兰|佛教|天主教|犹太|无神论|同性恋|双性恋|跨性别|性取向|少数民族|"
            r"党员|政治面貌|政治倾向|民主党派|民盟|九三学社|反对派|信佛|信教|受洗|开斋节|斋月|礼拜|出柜|喜欢男生|喜欢女生|"
            r"维吾尔族|藏族|回族|蒙古族|壮族|彝族|苗族|满族|朝鲜族|哈萨克族|土家族|侗族|瑶族|白族|傣族|黎族|畲族|"
            r"工会|上访|法轮|耶和华见证人|摩门|道教|佛教徒|清真|念经|教会|皈依|受戒|政治立场|政治观点|反政府|某党|"
            r"聊政治|党派|入党|投票给|支持[^\n，。]{0,4}党|她(?:的)?(?:女朋友|女友|老婆|妻子|太太)|他(?:的)?(?:男朋友|男友|老公|丈夫)|"
            r"拉拉|男同|女同|同志酒吧|共和党|民主党|国民党|民进党|深绿|深蓝|泛绿|泛蓝|一贯道|种姓|婆罗门|达利特|政治献金",
            "AANA memory-gate seed: protected class"),
]

# --------------------------------------------------------------------------
# Round 9 (issue 9), tatk10: kinds the round-10 attacker found missing
# (tests/attack/test_attack_trust_r10.py; variants in tests/test_privacy_r9_tatk10.py).
# Kept apart from the table above so that other round-9 work merges cleanly.
# --------------------------------------------------------------------------

#: Letter runs that name a counted thing, not a person: ``order13812345678`` is an order number.
_R9_GLUED_NOT_PHONE = re.compile(r"(?i)^(?:order|ord|ticket|tkt|invoice|inv|id|uid|no|sn|po|txn|trade|ts|build|"
                                 r"job|run|ref|seq|serial|batch|req|trace|msg|tx|block|ver|v|rev|pr|issue|commit)$")
#: The Latin word right before a digit run (1-16 letters, a word start before them).
_R9_WORD_BEFORE = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]{1,16}\Z")
#: Words that say the number after them (glued, or after is/:) is someone's telephone number.
_R9_PHONE_LABEL = (r"phone|mobile|cell|cellphone|tel|telephone|whatsapp|call|wife|husband|mom|mum|"
                   r"mother|dad|father|sister|brother|son|daughter|partner|girlfriend|boyfriend|grandma|grandpa|"
                   r"aunt|uncle|nanny|landlord|doctor")


def _r9_glued_mobile_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A Chinese mobile number (MIIT plan: 11 digits, 13x-19x, valid in the ``phonenumbers`` metadata)
    glued after a Latin word that is not a counted thing's name (order, id, build, ...); a run of hex
    letters glued to it is part of a hash, not a word."""
    glued = _R9_WORD_BEFORE.search(text, max(0, m.start() - 17), m.start())
    if glued is None:
        return False  # not glued to a word: the phone rule judges it
    word = glued.group(0)
    if _R9_GLUED_NOT_PHONE.match(word) or (re.fullmatch(r"[a-fA-F]+", word) and len(word) + len(value) >= 16):
        return False
    if value in _PLACEHOLDER_PHONES or _UNIT_AFTER.match(text, m.end()):
        return False
    return _r9_valid_phone(value, ("CN",))


def _r9_valid_phone(digits: str, regions: tuple[str, ...]) -> bool:
    try:
        import phonenumbers
    except ImportError:  # pragma: no cover - declared dependency
        return bool(_CN_MOBILE.match(digits))
    for region in regions:
        try:
            number = phonenumbers.parse(digits, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return True
    return False


def _r9_labelled_phone_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A telephone number written without separators right after a telephone or family word: valid
    under the US, UK or Chinese plan (``phonenumbers``); a fictional or placeholder number only outside
    a line that says it is documentation."""
    digits = re.sub(r"\D", "", value)
    line = _line_around(text, m.start(), m.end())
    if (digits in _PLACEHOLDER_PHONES or _FICTIONAL_PHONE.search(digits)) and _DOC_CONTEXT.search(line):
        return False
    if _documentation_number(digits, line) or _UNIT_AFTER.match(text, m.end()):
        return False
    if _made_up_digits(digits):
        return False  # 1234567890: a form's example, not a number
    if value.startswith("+"):
        return _r9_valid_phone(value, ("US",))
    # By its shape, one plan each: 10 digits are a NANP number (the UK plan reads almost any 10 digits as
    # a geographic number without its 0), 11 a CN mobile, a NANP number with its 1, or a UK number with its 0.
    if len(digits) == 10:
        return digits[0] not in "01" and _r9_valid_phone(digits, ("US",))
    if _CN_MOBILE.match(digits):
        return _r9_valid_phone(digits, ("CN",))
    return _r9_valid_phone(digits, ("US",) if digits[0] == "1" else ("GB",))


#: A label's value wrapped as JSON, a bracket or a dash writes it: ``"ssn": "…"``, ``ssn (…)``, ``ssn - …``.
_R9_ID_WRAP = r"[\"'`]?" + _ + r"*(?:[:：=\-–—]|=>|->)?" + _ + r"*[\[(\"'`]?" + _ + r"*"
#: The labels of a provider token rule whose full shape is still read with word characters glued in front.
_R9_GLUED_TOKEN_RULES = ("github_token", "github_fine_grained_pat", "gitlab_token", "slack_token",
                         "google_api_key", "anthropic_key", "google_oauth_client_secret")
#: Literal starts of those shapes (lower-cased): a stretch without one is not searched.
_R9_GLUED_TOKEN_NEEDS = {"github_token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), "github_fine_grained_pat": ("github_pat_",),
                         "gitlab_token": ("glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "gloas-", "glsoat-", "glft-", "glimt-",
                                          "glagent-"), "slack_token": ("xox",), "google_api_key": ("aiza",),
                         "anthropic_key": ("sk-ant-",), "google_oauth_client_secret": ("gocspx-",)}
#: Common English function words: none is a BIP-39 word, so a run holding one is prose, not a phrase.
_R9_NOT_BIP39 = frozenset("the and for with this that from have are was were they them your his her she him its "
                          "our but not has had will would should could been into when what then than which".split())
#: A label of a wallet's recovery words: seed phrase, wallet words, "seed", "wallet", 助记词.
_R9_SEED_LABEL = (r"(?:(?:my|the|our)[ \t]+)?(?:(?:wallet|seed|recovery|backup|mnemonic|secret|metamask|ledger|"
                  r"trezor|phantom|exodus)(?:[ \t]+(?:seed|phrase|words?|key|backup))*|助记词|助記詞|种子短语|恢复短语|钱包)")
_R9_SEED_LINE_ABOVE = re.compile(r"(?i)" + _R9_SEED_LABEL + r"(?:[^\n]{0,8}?(?:[:：=]|->|→|[ \t](?:is|are)|是|为))?"
                                 r"[ \t]*\r?$")


def _r9_phrase_ok(value: str, m: re.Match[str], text: str) -> bool:
    """:func:`_mnemonic_ok` and no common function word (none of them is in the BIP-39 English list)."""
    words = value.lower().split()
    return _mnemonic_ok(value.lower(), m, text) and not any(w in _R9_NOT_BIP39 for w in words)


def _r9_phrase_below_label_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A line of recovery words (:func:`_r9_phrase_ok`) whose line above (one blank line allowed)
    ends with a wallet or seed label (``seed phrase:``, ``wallet words``, ``助记词：``)."""
    if not _r9_phrase_ok(value, m, text):
        return False
    start = text.rfind("\n", 0, m.start())
    for _tries in range(2):
        if start <= 0:
            return False
        above_start = text.rfind("\n", 0, start) + 1
        above = text[above_start:start].rstrip("\r")
        if above.strip():
            return bool(_R9_SEED_LINE_ABOVE.search(above))
        start = above_start - 1
    return False


def _r9_glued_token_rules() -> list[Rule]:
    """The provider token rules again, for a token with 1-8 word characters glued in front (``xghp_…``,
    ``1AKIA…``, ``_xoxb-…``): the provider's full published shape must follow the glue, so a word that
    merely holds ``ghp`` or ``akia`` is not a token."""
    by_name = {rule.name: rule for rule in RULES_LIST}
    glue = r"(?<![A-Za-z0-9_])[A-Za-z0-9_]{1,8}("
    out = []
    for name in _R9_GLUED_TOKEN_RULES:
        rule = by_name[name]
        src = rule.pattern.pattern
        src = src[2:] if src.startswith(r"\b") else src
        out.append(Rule(name + "_glued", "secret", _r(glue + src + ")", rule.pattern.flags),
                        rule.source + "; the same shape with word characters glued in front (tatk10)", group=1,
                        check=rule.check, needs=_R9_GLUED_TOKEN_NEEDS[name]))
    out.append(Rule("aws_access_key_id_glued", "secret",
                    _r(glue + r"A[KS]IA[A-Z0-9]{16})" + _END_NO_UNDERSCORE),
                    "AWS IAM User Guide 'Unique identifiers': AKIA/ASIA access key ids, with word characters glued "
                    "in front (tatk10)", group=1, check=_not_placeholder, needs=("akia", "asia")))
    return out


#: Lengths of the hex digests (MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512): a token of one of them
#: made of hex digits only is a hash, whatever digit run it holds.
_HASH_LENGTHS = frozenset({32, 40, 56, 64, 96, 128})
#: The start of an English word ending in -sk (task, risk, disk, desk, ask, mask, kiosk, ...): glued to
#: ``sk-proj-…`` it is a word of a slug, not a label.
_SK_WORD_HEAD = re.compile(r"(?i)(?<![A-Za-z])[A-Za-z]*(?:ta|ri|di|de|a|ma|fla|kio|du|hu|tu|whi|bri|fri|mu|ba|ca|ru|"
                           r"t|asteri|obeli|basili|dama)$")
#: The parts of a Latin label glued before a letter-led ID (Singapore NRIC/FIN, Taiwan ID, HKID, UK NINO):
#: an owner word, qualifiers (the document's country or kind), the ID word, a number word, "is"; written
#: as one run, in any case, with ``_`` between parts or not (``idA…``, ``idnumberA…``, ``mynricnumberS…``,
#: ``residentidnumber…``, ``mynationalinsurancenumberAB…``). The label is the whole run of letters before
#: the value: a word that merely ends like one (``paid``, ``music``, ``android``) is not (tatk16 2, tatk17 1).
_ID_OWNER = r"(?:my|your|his|her|our|their|the)"
_ID_QUALIFIER = (r"(?:resident|residence|national|personal|citizen|identity|identification|registration|insurance|"
                 r"social|taiwan|tw|hongkong|hk|singapore|sg|uk|foreign)")
_ID_CORE = r"(?:id|ic|nric|fin|hkid|hkic|twid|arc|nino|ni)"
_ID_NUMBER = r"(?:no|nr|num|number|card|cardno|cardnum|cardnumber)"
_ID_WORD_GLUED = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:" + _ID_OWNER + r"_?)?(?:(?:" + _ID_QUALIFIER + r"_?)*" + _ID_CORE + r"(?:_?"
    + _ID_NUMBER + r")?|(?:" + _ID_QUALIFIER + r"_?)+(?:card(?:_?" + _ID_NUMBER + r")?|" + _ID_NUMBER
    + r"))(?:_?is)?_?$")
#: How far before a letter-led ID its glued label is looked for (the longest label above fits).
_ID_WORD_REACH = 48
#: A label glued to a value after digits (``v2id310115…``): only an ID or account word there makes the run a
#: label; other letters after digits are a hash, Base64 or a build id (``v2r…``, ``b7c9x…``, tatk16 2). No
#: hex digest can end in one of these words (each holds a letter past ``f``).
_MIXED_LABEL = re.compile(r"(?i)(?:id|ic|sfz|iban|acct|account)(?:_?(?:no|nr|num|number|card))?_?$")
#: How far before ``sk-`` the start of an English word ending in -sk is looked for (:data:`_SK_WORD_HEAD`).
_SK_HEAD_REACH = 12
_LABEL_CHARS = frozenset(_LETTERS + "_")


def _glue_run(text: str, i: int, step: int) -> int:
    """Number of label characters (ASCII letters and ``_``) from ``text[i]`` walking by ``step``
    (-1: leftwards from ``i``, +1: rightwards)."""
    n = 0
    while 0 <= i < len(text) and text[i] in _LABEL_CHARS:
        n += 1
        i += step
    return n


def _glued_label_ok(start: int, end: int, text: str, *, after: bool) -> bool:
    """Whether ``text[start:end]`` is glued to a Latin label: ASCII letters (and ``_``) before it (or,
    when ``after``, after it), of any length, that start at a word's edge, and the whole token is not a
    hex digest. Letters after digits before the value are a hash, a Base64 blob or a build id, not a
    label (tatk16 2), unless they end in an ID or account word (:data:`_MIXED_LABEL`: ``v2id…``); letters
    then digits after it, the same. The value's own check (checksum, published prefix) is what makes it
    certain, so the label's length is no guard: ``residentidnumber…``, ``…isthenumberofmine`` (tatk17 1)."""
    before = _glue_run(text, start - 1, -1)
    behind = _glue_run(text, end, 1) if after else 0
    if not (before or behind):
        return False
    lo, hi = start - before, end + behind
    if lo > 0 and text[lo - 1] in _ALNUM and not (before and _MIXED_LABEL.search(text, lo, start)):
        return False
    if hi < len(text) and text[hi] in _ALNUM:
        return False
    token = text[lo:hi]
    return not (len(token) in _HASH_LENGTHS and all(c in "0123456789abcdefABCDEF" for c in token))


def _glued_certain_rules() -> list[Rule]:
    """Certain values (a checksum or a published prefix makes them certain) read again where a Latin
    label is glued to them with no separator: ``sfz310115…``, ``idno…``, ``ID…号``, ``ibanGB33…``,
    ``openaisk-proj-…`` (tatk16 2). Each rule here fires only where its plain rule cannot (a letter
    glued on a side), and its plain rule's own check still decides; :func:`_glued_label_ok` keeps
    letters mixed with digits (hashes, Base64, build ids) from counting as a label; the label's length
    is not limited (tatk17 1: ``residentidnumber…``, ``myopenaiapikeyis…``). Cards (Luhn) and
    provider tokens are read glued by their own rules (``payment_card``, :func:`_r9_glued_token_rules`)."""
    by_name = {rule.name: rule for rule in RULES_LIST}

    def glued(name: str, *, after: bool) -> Callable[[str, re.Match[str], str], bool]:
        plain = by_name[name].check or _not_placeholder

        def check(value: str, m: re.Match[str], text: str) -> bool:
            return _glued_label_ok(m.start(), m.end(), text, after=after) and plain(value, m, text)
        return check

    return [
        Rule("cn_resident_id_glued", "government_id",
             _r(r"(?<![0-9])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[0-9Xx](?![0-9])"),
             by_name["cn_resident_id"].source + "; with a Latin label glued before or after it (tatk16)",
             check=glued("cn_resident_id", after=True), numeric=True),
        # the same written in groups (6-8-4, by spaces or dashes): sfz310115 19851023 4560 (tatk17 1)
        Rule("cn_resident_id_spaced_glued", "government_id",
             _r(r"(?<![0-9])[1-9]\d{5}[ \t-](?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[ \t-]\d{3}[0-9Xx]"
                r"(?![0-9])"),
             by_name["cn_resident_id_spaced"].source + "; with a Latin label glued before or after it (tatk17)",
             check=glued("cn_resident_id_spaced", after=True), numeric=True),
        # Upper case only: a lower-case word may follow; an upper-case one would be read as the BBAN.
        Rule("iban_glued", "bank_account",
             _r(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![A-Z0-9])"),
             by_name["iban"].source + "; with a Latin label glued before it or a lower-case word after it (tatk16)",
             check=glued("iban", after=True), not_after="0123456789"),
        # Only the long published shapes (a real sk-proj- key is about 160 characters), and not after the
        # start of an English word ending in -sk (risk-proj-…, task-admin-…): see _SK_WORD_HEAD.
        Rule("openai_key_glued", "secret",
             _r(r"sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20,})"),
             by_name["openai_key"].source + "; sk-proj-, sk-svcacct-, sk-admin- or the T3BlbkFJ mark with a "
             "Latin label glued before it (tatk16)", needs=("sk-",),
             check=lambda v, m, t: not _SK_WORD_HEAD.search(t, max(0, m.start() - _SK_HEAD_REACH), m.start())
             and glued("openai_key", after=False)(v, m, t)),
        # Letter-led IDs with one check character (1 in 10 or 11 random strings pass), and the UK NINO (prefix
        # and suffix rules only): glued only to an ID label (_ID_WORD_GLUED), which may be long (tatk17 1).
        *(Rule(name + "_glued", "government_id", _r(by_name[name].pattern.pattern),
               by_name[name].source + "; with an ID label glued before it (nricS…, idnumberA…, mynricnumberS…), "
               "tatk16, tatk17",
               check=lambda v, m, t, name=name: bool(_ID_WORD_GLUED.search(t, max(0, m.start() - _ID_WORD_REACH),
                                                                           m.start()))
               and glued(name, after=False)(v, m, t), not_after="0123456789")
          for name in ("sg_nric", "tw_national_id", "hk_id", "uk_nino")),
    ]


RULES_LIST += [
    # ---- round 9, tatk10 (issue 9): a value glued to a word, wrapped in quotes or brackets, below its label ----
    # digit-led (run only inside digit runs, see Rule.numeric); the word before is read by the check
    Rule("mobile_glued_to_word", "phone", _r(r"1[3-9]\d{9}(?![A-Za-z0-9])"),
         "MIIT numbering plan for CN mobiles (phonenumbers metadata): a mobile number glued to a Latin word "
         "(mom13812345678, phone13812345678; full-width forms read NFKC-folded), tatk10",
         check=_r9_glued_mobile_ok, numeric=True),
    Rule("phone_after_label_unformatted", "phone",
         _r(r"(?:" + _R9_PHONE_LABEL + r")(?:[ \t]+(?:number|no\.?|#))?(?:" + _ + r"*(?:is|:|：|=|#|-)?"
            + _ + r"*)(\+?1?\d{10})(?!\d)"),
         "ITU-T E.164 / libphonenumber metadata (US, UK, CN plans): a telephone number without separators "
         "right after a telephone or family word ('my phone is 4155550132', 'wife4155550132'), tatk10",
         group=1, check=_r9_labelled_phone_ok, lower=True, not_after=_LETTERS, needs_re=re.compile(r"\d{10}")),
    Rule("ssn_label_wrapped", "government_id",
         _r(r"(?<![a-z])(?:ssn|social[ _]security(?:[ _](?:number|no\.?|#))?)" + _R9_ID_WRAP
            + r"(\d{3}[ -]?\d{2}[ -]?\d{4})(?![\d-])"),
         "US Social Security Administration number after its label written as a JSON field, in brackets or "
         "after a dash ({\"ssn\": \"...\"}, ssn (...), ssn - ...); area 000, 666, 9xx never issued, tatk10",
         group=1, check=_ssn_ok, lower=True, needs=("ssn", "social")),
    Rule("id_document_label_wrapped", "government_id",
         _r(r"(?<![a-z])(?:passport|national[ _]id|id[ _]card|driver'?s?[ _]licen[cs]e|护照|身份证)"
            r"(?:[ _](?:no\.?|number|num|#))?" + _R9_ID_WRAP + r"([a-z]{0,2}\d[a-z0-9-]{5,19})" + _END),
         "ICAO Doc 9303 (passport numbers), MPS rules (CN passport E/G + 8 digits): a document number after "
         "its label written as a JSON field, in brackets or after a dash, tatk10", group=1,
         check=_keyed_id_ok, lower=True, needs=("passport", "national", "id", "driver", "护照", "身份证")),
    Rule("recovery_phrase_any_label", "secret",
         _r(r"(?<![a-z])" + _R9_SEED_LABEL + r"(?:[^\n]{0,8}?(?:[:：=]|->|→|[ \t](?:is|are)|是|为))" + _
            + r"*((?:[a-z]{3,8}" + _ + r"+){11,23}[a-z]{3,8})(?![a-z])"),
         "BIP-39 mnemonic (12, 15, 18, 21 or 24 words) after any wallet or seed label with a connector "
         "('wallet: ...', 'seed: ...', 'my wallet words are ...'), tatk10", group=1, lower=True,
         check=_r9_phrase_ok, needs=("wallet", "seed", "recovery", "backup", "mnemonic", "secret", "metamask",
                                     "ledger", "trezor", "phantom", "exodus", "助记词", "助記詞", "种子短语",
                                     "恢复短语", "钱包")),
    Rule("recovery_phrase_below_label", "secret",
         _r(r"(?m)^[ \t]*((?:[a-z]{3,8}" + _ + r"+){11,23}[a-z]{3,8})" + _ + r"*\r?$"),
         "BIP-39 mnemonic (12-24 words) alone on the line below its label ('seed phrase:' then the words), "
         "tatk10", group=1, lower=True, check=_r9_phrase_below_label_ok,
         # the label is on the line above: a stretch-wide gate, not a same-line literal (``needs``)
         needs_re=re.compile(r"wallet|seed|recovery|backup|mnemonic|secret|metamask|ledger|trezor|phantom|exodus|"
                             r"助记词|助記詞|种子短语|恢复短语|钱包")),
    *_r9_glued_token_rules(),
    *_glued_certain_rules(),
    # (the health vocabulary of round 9 is inserted before health_terms below)
]

#: Health vocabulary by class, both languages, about a person as the health_terms rules above (tatk10):
#: reproductive health, sexually transmitted infections, self-harm, a substance overdose, fertility,
#: surgery and stomas. Ambiguous forms are left out: "aborted" (a job), 人流 alone (a crowd: 人流量),
#: 上环 (a district of Hong Kong), "plan b", "pacemaker" (a cluster manager), "sterile".
_R9_HEALTH_TOPICS = _topic("health_terms_r9", "health",
            r"abortions?|termination of (?:a |the |her |my )?pregnancy|ectopic pregnancy|morning-after pill|"
            r"emergency contraception|birth control|contraceptives?|iud|hrt|hormone replacement(?: therapy)?|"
            r"hormone therapy|menopaus\w*|perimenopaus\w*|endometriosis|pcos|polycystic ovar\w*|"
            r"erectile dysfunction|pap smear|"
            r"chlamydia|gonorrh?o?ea|syphilis|hpv|genital (?:warts|herpes)|trichomoniasis|stds|stis|"
            r"sexually transmitted(?: infections?| diseases?)?|"
            r"self[- ]harm(?:s|ed|ing)?|self[- ]injur(?:y|ies|ing|ed)|"
            r"cut(?:s|ting)? (?:myself|himself|herself|themselves)|"
            r"overdos(?:ed|es|ing)|"
            r"infertile|fertility (?:treatments?|clinic|issues?|problems?|specialist)|egg freezing|"
            r"froze (?:my|her) eggs|(?:low )?sperm count|sperm donor|iui|"
            r"colostomy|ileostomy|urostomy|ostomy|stoma|(?:kidney|liver|heart|lung|organ|bone marrow|cornea) "
            r"transplant|gastric (?:bypass|band|sleeve)|bypass surgery|open-heart surgery|spinal fusion|amputat\w*|"
            r"hernia",
            r"堕胎|打胎|做了?人流|人流手术|人工流产|药流|引产|宫外孕|避孕药|紧急避孕|激素替代|更年期|子宫内膜异位|多囊卵巢|"
            r"阳痿|勃起功能障碍|"
            r"衣原体|淋病|尖锐湿疣|生殖器疱疹|性传播|"
            r"自伤|割腕|轻生|伤害自己|"
            r"服药过量|药物过量|吃药过量|过量服药|"
            r"不育|冻卵|精子活力|"
            r"造口|造瘘|人工肛门|器官移植|肾移植|肝移植|骨髓移植|疝气",
            "AANA memory-gate seed: health (sensitivity class 'health'): reproductive health, STIs, self-harm, "
            "overdose, fertility, surgery and stomas (tatk10)")
# Before health_terms: the English keywords are tried as one alternation, first rule first, so its
# "overdose" and "self-harm" would take "overdosed" and "self-harms" and lose them to the word check.
_R9_AT = next(i for i, rule in enumerate(RULES_LIST) if rule.name == "health_terms_en")
RULES_LIST[_R9_AT:_R9_AT] = _R9_HEALTH_TOPICS


# --------------------------------------------------------------------------
# Round 11 (issue 9), atk11: rules by kind for the variants the round-11 attacker
# found (tests/attack/test_attack_r11_quick.py): a telephone number after any of
# its cues, an SSN after any of its labels, recovery words as a list, health facts
# named by a medicine, a marker or a device. Word lists: memory_manager.privacy_lexicon.
# --------------------------------------------------------------------------

def _r11_alternation(words: Iterable[str]) -> str:
    """One regex alternation of ``words`` (each a regex), longest first (``re`` takes the first that fits)."""
    return "|".join(sorted(set(words), key=len, reverse=True))


def _r11_literal(words: Iterable[str]) -> str:
    """One regex alternation of literal ``words``, longest first."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


#: Between the cue and the number: spaces, ``_``, connectors ("at", "is", ":", "#", 是), or nothing.
_R11_PHONE_GAP = (r"(?:[ \t_]*(?:(?<![a-z])(?:" + _r11_literal(w for w in _lex.PHONE_CONNECTORS if w[0].isalpha())
                  + r")(?![a-z])|" + _r11_literal(w for w in _lex.PHONE_CONNECTORS if not w[0].isalpha())
                  + r")){0,3}[ \t_]*")
#: A telephone number as people write it: a country code or not, groups split by a space, ``-``, ``.``
#: or brackets.
_R11_PHONE_NUMBER = r"((?:\+|00)?\(?\d(?:[ \t.\-()]{0,2}\d){6,16})(?![\d])"
#: The plans tried for a number written without its country code, by its shape.
_R11_SEQUENCES = "0123456789012345678909876543210987654321"


#: "号码" after the name of a document or a thing that is numbered (发票号码, 合同号码, 证书号码, 订单号码, 快递单号码,
#: 车牌号码, 工号): round 13, kind "a document's number after 号码" (sets B, D, H: 发票代码 … 发票号码 28371654).
_DOCUMENT_NUMBER_CUE = re.compile(r"(?:发票|合同|证书|订单|运单|快递单?|单据|票据|车牌|房间|批次|序列|型号|版本|工单|案件|"
                                  r"报告|编号|账单|保单|凭证|流水|门牌|航班|车次|座位|会员卡?|卡券|兑换)[ \t]*号码")


def _r11_cued_phone_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A number after a telephone cue (``privacy_lexicon.PHONE_CUES_EN``/``_ZH``) that is a person's number under its plan
    (``phonenumbers``: valid, not a toll-free, premium or shared-cost service line); a fictional or
    placeholder number on a line that says it is documentation is not (:func:`_documentation_number`)."""
    digits = re.sub(r"\D", "", value)
    if not 7 <= len(digits) <= 15 or digits in _R11_SEQUENCES or len(set(digits)) == 1:
        return False
    if _DATE_SHAPE.match(value.strip()) or _IPV4.match(value.strip()) or _UNIT_AFTER.match(text, m.end()):
        return False
    if "." in value and not re.fullmatch(r"\(?\d{3}\)?\.\d{3}\.\d{4}", value.strip()):
        return False  # dotted groups are versions and decimals; the US 415.555.0199 is the exception
    line = _line_around(text, m.start(), m.end())
    if (digits in _PLACEHOLDER_PHONES or _FICTIONAL_PHONE.search(digits)) and _DOC_CONTEXT.search(line):
        return False
    if _documentation_number(digits, line):
        return False
    if _DOCUMENT_NUMBER_CUE.search(text, max(0, m.start() - 8), m.start(1)):
        return False  # 发票号码 28371654: the number of a document, not a telephone's (round 13)
    try:
        import phonenumbers
    except ImportError:  # pragma: no cover - declared dependency
        return bool(_CN_MOBILE.match(digits))
    raw = value.strip()
    raw = "+" + raw[2:] if raw.startswith("00") else raw
    regions: tuple[str | None, ...] = (None,) if raw.startswith("+") else PHONE_REGIONS + ("HK", "SG", "TW")
    if _NANP_WRITTEN.match(raw):
        regions = ("US",)  # 1-888-467-2211 is grouped as the NANP writes it, not a Chinese 188 mobile
    if raw.startswith("+") and not re.match(r"\+\d", raw):
        return False
    for region in regions:
        try:
            number = phonenumbers.parse(raw, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number) and phonenumbers.number_type(number) not in _SERVICE_NUMBER_TYPES:
            return True
    return False


#: Labels of a US Social Security number: the number's names and short forms, and the tax
#: identifier it serves as for a person (IRS: a TIN is an SSN, an ITIN or an EIN).
_R11_SSN_LABEL = (r"ssn|ss ?#|ss ?no\.?|ss ?num(?:ber)?|soc\.? ?sec\.?(?: ?(?:no\.?|#|num(?:ber)?))?|"
                  r"social(?: ?security)?(?: ?(?:no\.?|#|num(?:ber)?))?|"
                  r"tax ?(?:payer )?id(?:entification)?(?: ?(?:no\.?|#|num(?:ber)?))?|taxpayer id\w*|tin|itin")


#: A BIP-39 phrase is 12, 15, 18, 21 or 24 words.
_R11_PHRASE_LENGTHS = frozenset({12, 15, 18, 21, 24})
#: A numbered word (``1. ribbon``, ``2) anchor``, ``#3 grape``, ``4: velvet``) anywhere in a text.
_R11_NUMBERED_WORD = re.compile(r"#?(\d{1,2})[.):]?[ \t]+([A-Za-z]{3,8})(?![\w])|#?(\d{1,2})[.):]([A-Za-z]{3,8})(?![\w])")
#: A line that is one word (a bullet or a number before it allowed).
_R11_WORD_LINE = re.compile(r"(?m)^[ \t]*(?:(?:\d{1,2}[.):]?|[-*•+])[ \t]+)?([A-Za-z]{3,8})[ \t]*\r?$")
#: Twelve or more such lines in a row (one regex pass finds them; most texts have none).
_R11_WORD_RUN = re.compile(r"(?m)^(?:[ \t]*(?:(?:\d{1,2}[.):]?|[-*•+])[ \t]+)?[A-Za-z]{3,8}[ \t]*\r?(?:\n|\Z)){12,}")
#: Items 1 and 2 of a numbered word list side by side: where the numbered reading starts.
_R11_FIRST_ITEMS = re.compile(r"#?1[.):]?[ \t]*[A-Za-z]{3,8}[ \t\r\n,;|]+#?2[.):]?[ \t]*[A-Za-z]{3,8}(?![\w])")
#: A word of a wallet or seed label: the one-word-a-line reading runs only on a text that holds one.
_R11_SEED_WORD = re.compile(r"(?i)wallet|seed|recovery|backup|mnemonic|secret|metamask|ledger|trezor|phantom|exodus|"
                            r"助记词|助記詞|种子短语|恢复短语|钱包")
_R11_BETWEEN_ITEMS = re.compile(r"[ \t\r\n,;|]*")
RECOVERY_WORD_LIST = Rule(
    "recovery_words_listed", "secret", re.compile(r"(?!)"),
    "BIP-39 mnemonic (12, 15, 18, 21 or 24 words) written as a list: numbered 1 to n on one line or "
    "over several, or one word a line below a wallet or seed label (atk11)")
RECOVERY_WORD_LIST_UNLABELLED = replace(RECOVERY_WORD_LIST, name="recovery_words_numbered", confidence=POSSIBLE,
                                        source="BIP-39 mnemonic length (12-24 words) numbered 1 to n with no "
                                               "label: possibly a recovery phrase (atk11)")


def _r11_words_ok(words: list[str]) -> bool:
    """:func:`_r9_phrase_ok` for a list of words: a BIP-39 length, distinct, no function word."""
    value = " ".join(w.lower() for w in words)
    return len(words) in _R11_PHRASE_LENGTHS and not any(w in _R9_NOT_BIP39 for w in value.split()) \
        and _mnemonic_ok(value, None, value)  # type: ignore[arg-type]


def _r11_labelled_above(text: str, start: int) -> bool:
    """The line above ``start``'s line (one blank line allowed), or the text before ``start`` on its
    line, names a wallet or seed (:data:`_R9_SEED_LINE_ABOVE`)."""
    a = text.rfind("\n", 0, start) + 1
    if re.search(r"(?i)" + _R9_SEED_LABEL, text[a:start]):
        return True
    pos = a - 1
    for _tries in range(2):
        if pos <= 0:
            return False
        above_start = text.rfind("\n", 0, pos) + 1
        above = text[above_start:pos].rstrip("\r")
        if above.strip():
            return bool(_R9_SEED_LINE_ABOVE.search(above.lower()))
        pos = above_start - 1
    return False


def _word_list_spans(text: str) -> list[_Span]:
    """Recovery words written as a list (:data:`RECOVERY_WORD_LIST`): numbered 1..n with only white
    space, commas or table bars between the items (on one line or many), or lines of one word each
    under a wallet or seed label. A list with a label is certain; a numbered one without is possible."""
    out: list[_Span] = []
    seq: list[tuple[int, int, str]] = []  # (start, end, word)

    def close() -> None:
        if len(seq) >= 12:
            for n in sorted(_R11_PHRASE_LENGTHS, reverse=True):
                if len(seq) >= n and _r11_words_ok([w for _s, _e, w in seq[:n]]):
                    rule = RECOVERY_WORD_LIST if _r11_labelled_above(text, seq[0][0]) else RECOVERY_WORD_LIST_UNLABELLED
                    out.append((seq[0][0], seq[n - 1][1], rule, seq[0][0], seq[n - 1][1]))
                    break
        seq.clear()

    # From each place where items 1 and 2 stand side by side, item after item while the numbers go on.
    for first in _R11_FIRST_ITEMS.finditer(text):
        if first.start() and (text[first.start() - 1].isalnum() or text[first.start() - 1] in "_.#"):
            continue
        pos = first.start()
        while True:
            m = _R11_NUMBERED_WORD.match(text, pos)
            if m is None or int(m.group(1) or m.group(3)) != len(seq) + 1:
                break
            seq.append((m.start(), m.end(), m.group(2) or m.group(4)))
            gap = _R11_BETWEEN_ITEMS.match(text, m.end())
            pos = gap.end() if gap else m.end()
        close()
    if "\n" not in text or not _R11_SEED_WORD.search(text):
        return out
    # One word a line (no numbers needed) under a label.
    for run_m in _R11_WORD_RUN.finditer(text):
        run = [(w.start(1), w.end(1), w.group(1)) for w in _R11_WORD_LINE.finditer(text, run_m.start(), run_m.end())]
        if _r11_labelled_above(text, run[0][0]):
            for k in sorted(_R11_PHRASE_LENGTHS, reverse=True):
                if len(run) >= k and _r11_words_ok([w for _s, _e, w in run[:k]]):
                    out.append((run[0][0], run[k - 1][1], RECOVERY_WORD_LIST, run[0][0], run[k - 1][1]))
                    break
    return out


#: Someone on the line: a pronoun, a relative, a colleague. A medicine or a marker named on a line about
#: nobody is history or reference ("鲁迅死于肺结核", "Truvada's patent expired").
_R11_SOMEONE = re.compile(r"(?i)(?<![a-z'])(?:i|i'm|im|i've|i'd|my|me|mine|we|we're|our|us|you|you're|your|he|she|"
                          r"he's|she's|they|they're|his|her|him|their|them|wife|husband|partner|mom|mum|dad|son|"
                          r"daughter|kid|kids|sister|brother|friend|colleague|coworker|boss|patient)(?![a-z])|"
                          r"我|你|您|他|她|咱|家人|老婆|老公|妈|爸|儿子|女儿|孩子|朋友|同事|领导|室友|患者")


def _r11_personal_ok(value: str, m: re.Match[str], text: str) -> bool:
    """:func:`_topic_ok`, and someone (:data:`_R11_SOMEONE`) on the line: the lexicon names things that
    are also written of in general, so it counts only about a person."""
    return bool(_R11_SOMEONE.search(_line_around(text, m.start(), m.end()))) and _topic_ok(value, m, text)


_R11_HEALTH_TOPICS = _topic(
    "health_lexicon_r11", "health",
    _r11_alternation((*_lex.HEALTH_MEDICINES_EN, *_lex.HEALTH_MARKERS_EN, *_lex.HEALTH_CONDITIONS_EN,
                      *_lex.HEALTH_DEVICES_EN)),
    _r11_alternation(_lex.HEALTH_TERMS_ZH),
    "WHO Model List of Essential Medicines, US/CN most-prescribed medicines, routine lab panels, implanted "
    "devices (memory_manager.privacy_lexicon): a health fact named by a medicine, a marker or a device, about "
    "a person (atk11)", check=_r11_personal_ok)

RULES_LIST += [
    # Word-led in English (tried only where a cue's first letters start a word), literal-led in Chinese.
    Rule("phone_after_cue", "phone",
         _r(r"(?:" + _r11_literal(_lex.PHONE_CUES_EN) + r")" + _R11_PHONE_GAP + _R11_PHONE_NUMBER),
         "ITU-T E.164 / libphonenumber metadata (US, UK, CN, HK, SG, TW plans; service lines excluded): a "
         "telephone number after any of its cues, glued or not ('reach me at', 'text me on', 'ph#', "
         "'tel+86', 'mom_'; memory_manager.privacy_lexicon), atk11",
         group=1, check=_r11_cued_phone_ok, lower=True, not_after=_LETTERS,
         triggers=frozenset(w[:3] for w in _lex.PHONE_CUES_EN)),
    Rule("phone_after_cue_zh", "phone",
         _r(r"(?:" + _r11_literal(_lex.PHONE_CUES_ZH) + r")" + _R11_PHONE_GAP + _R11_PHONE_NUMBER),
         "ITU-T E.164 / libphonenumber metadata: a telephone number after a Chinese cue, glued or not (电话, "
         "联系方式, 老婆; memory_manager.privacy_lexicon), atk11",
         group=1, check=_r11_cued_phone_ok, lower=True, needs=tuple(_lex.PHONE_CUES_ZH)),
    Rule("ssn_any_label", "government_id",
         _r(r"(?:" + _R11_SSN_LABEL + r")" + _R9_ID_WRAP
            + r"(?:(?:is|was|=|#|:|是|为)" + _ + r"*)?(\d{3}([ .-]?)\d{2}\2\d{4})(?![\d.-])"),
         "US Social Security Administration number after any of its labels (SSN, SS#, soc sec, social, tax "
         "id, TIN) with its groups split by a space, '-' or '.', or not at all; area 000, 666, 9xx never "
         "issued, atk11", group=1, check=_ssn_ok, lower=True, not_after=_LETTERS,
         triggers=frozenset({"ssn", "ss", "soc", "tax", "tin", "iti"})),
    Rule("health_framed_en", "health",
         _r(_lex.HEALTH_FRAMED_EN + r"(" + _r11_alternation(_lex.HEALTH_AMBIGUOUS_EN) + r")(?![a-z])"),
         "AANA memory-gate seed: health, a medicine or device word with another common sense (PrEP, Plan B, "
         "a pacemaker, 'the pill') in a frame that says a person takes, is on or has it (atk11)",
         group=1, keep=True, lower=True, not_after=_LETTERS, check=_topic_ok,
         needs=("prep", "plan b", "pacemaker", "pill", "patch", "stent", "inhaler", "insulin", "arv", "meds", "a1c",
                "cd4", "thinner", "blocker", "ssri", "snri", "benzo", "stimulant", "antipsychotic", "stabili",
                "steroid", "hrt", "dialysis", "chemo")),
]

# --------------------------------------------------------------------------
# Round 12 (issue 9): secret kinds written from a description of each kind (bench/HELDOUT.md round 10:
# Chinese passwords typed with IME homophones or next to emoji, OTP seeds in groups, values first, DSNs
# and credentials in config lines). Phrasings in tests/test_privacy_r12_kinds.py.
# --------------------------------------------------------------------------

#: What a Chinese IME or fast typing makes of 密码 (homophones 蜜/秘/米/觅/迷, 码 as 马/玛/吗, 密碼 kept).
_R12_PW_ZH = ("蜜码", "秘码", "米码", "觅码", "迷码", "密马", "密玛", "密吗", "密嘛", "蜜碼", "秘碼", "mi码", "密🐴", "密🐎")
#: An administrator account name that, before "/ value", makes the pair a log-in (router, NAS, database).
_R12_ADMIN_USER = r"(?:admin|administrator|root|ubnt|pi|sa|postgres|guest|operator|ops|superuser|超级管理员|管理员)"
#: Words that tie a one-time-password seed to its use (two-step verification, an authenticator app).
_R12_OTP_CUE = (r"(?:两步验证|两步驗證|二步验证|双重验证|双因素|二次验证|动态口令|身份验证器|验证器|谷歌验证|"
                r"2fa|two[- ]factor|two[- ]step|mfa|totp|otp|authenticator|authy|setup key|secret key|seed|种子|密钥|秘钥)")


def _r12_otp_seed_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Base32 (RFC 4648 s.6) of 16-64 characters once the group separators go, with a digit 2-7 in it
    and not all one letter: the shared secret an authenticator app is set up with (RFC 6238)."""
    v = re.sub(r"[ \t-]", "", value).upper()
    return 16 <= len(v) <= 64 and bool(re.search(r"[2-7]", v)) and len(set(v)) >= 8 and not is_placeholder(v)


def _r12_lock_code_ok(value: str, m: re.Match[str], text: str) -> bool:
    """4-12 digits after a lock word, not a year, a price, a count or a model ("2024 年", "999 元", "3 次")."""
    if re.match(r"[ \t]*(?:年|元|块|次|个|位|款|型|mm|cm|kg|%)", text[m.end():m.end() + 4]):
        return False
    return not re.fullmatch(r"(\d)\1+", value)


def _r12_url_token_ok(value: str, m: re.Match[str], text: str) -> bool:
    """The whole userinfo of a URL is a generated token (Sentry DSN key, a git remote's PAT): 32+ hex, or
    random-looking (:func:`looks_random`); not a placeholder."""
    return not is_placeholder(value) and (bool(re.fullmatch(r"[0-9a-f]{32,64}", value)) or looks_random(value))


def _r12_admin_pair_ok(value: str, m: re.Match[str], text: str) -> bool:
    """'admin / value': a password-like value (:func:`_pair_password`), the slash set off by spaces or a
    device or log-in word on the line (router, NAS, 后台, ssh), not a path."""
    if not _pair_password(_secret_value(value)):
        return False
    return bool(re.search(r"[ \t]/|/[ \t]", text[m.start():m.start(1)])) or bool(re.search(
        r"(?i)后台|路由|光猫|管理|面板|摄像头|登录|登陆|router|\bnas\b|console|panel|\bssh\b|camera|login|db|数据库",
        _line_around(text, m.start(), m.end())))


def _r12_uscc_ok(value: str, m: re.Match[str], text: str) -> bool:
    """GB 32100-2015 unified social credit code with a valid check character (``stdnum.cn.uscc``) whose
    second character is 2: an individual business (个体工商户), registered to a person."""
    try:
        from stdnum.cn import uscc
    except ImportError:  # pragma: no cover - python-stdnum is a declared dependency
        return False
    return value[1] == "2" and uscc.is_valid(value)


def _r12_my_number_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Japan's Individual Number (マイナンバー): 12 digits with its check digit (``stdnum.jp.in_``)."""
    try:
        from stdnum.jp import in_
    except ImportError:  # pragma: no cover
        return False
    return in_.is_valid(re.sub(r"[ \t-]", "", value))


#: People named by their relation to the user or their role in the user's life (not a job title alone).
_R12_RELATION_EN = (r"(?:neighbou?rs?|tenants?|landlord|landlady|roommates?|flatmates?|housemates?|babysitter|nanny|"
                    r"tutor|co-?workers?|colleagues?|boss|manager|cousin|aunt|uncle|niece|nephew|boyfriend|"
                    r"girlfriend|fianc[ée]e?|husband|wife|partner|in-laws?|mother-in-law|father-in-law|contractor|"
                    r"plumber|electrician|dentist|therapist|lawyer|accountant|teacher|coach|mentor|new hire|intern|"
                    r"friend|buddy|classmate|student|patient|client|caregiver|carer|sponsor|guarantor|driver|cleaner)")


def _r12_name_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Two or three Capitalised words (:func:`_en_full_name_ok`), not after a thing's noun ("project: ...")."""
    before = text[max(0, m.start(1) - 24):m.start(1)]
    if re.search(r"(?:项目|产品|服务|应用|仓库|公司|团队|模型|代号|游戏|歌|书|电影|剧|店|猫|狗|宠物|分支|频道|群|"
                 r"网络|系统|工具|插件|版本|活动|乐队|品牌|机器人)[^\n，。,]{0,6}$", before.rstrip(" \t:：-–—叫是做名字英文")):
        return False  # a thing named in Chinese ("这个项目叫 Silver Lantern")
    return _en_full_name_ok(value, m, text) and not _NAMED_THING.search(before.rstrip(" \t:：-–—叫是"))


#: Config keys that hold a password or a shared secret, lower-cased (XML elements, JSON/YAML keys, Java
#: keystore properties, Wi-Fi supplicant files).
_R12_CFG_KEY = (r"(?:[a-z0-9_.:-]*?(?:password|passwd|passphrase|pwd)|(?:[a-z0-9_.:-]*[_.:-])?(?:pass|psk|secret|"
                r"appsecret|authcode|smtppass))")


def _r12_config_value_ok(value: str, m: re.Match[str], text: str) -> bool:
    """A value under a password key in a config file: the syntax says what it is, so a lower-case value
    counts too (a mail service's 16-letter authorisation code); not a placeholder, a reference (``${X}``,
    ``%(x)s``, ``{{ x }}``), a default credential or a flag word."""
    v = _secret_value(value)
    if len(v) < 4 or is_placeholder(v) or _code_value(value, m, text) or _default_credential(v, m, text):
        return False
    if re.search(r"\$\{|\$\(|%\(|\{\{|^\$[A-Za-z_]|^%[A-Za-z_]+%$|^<.*>$", v) or _SECRET_REFERENCE.match(v) \
            or _ENV_REFERENCE.match(v) or _doc_value(v, m, text):
        return False
    if v.lower() in ("foobared", "changeit", "changeme"):
        return False  # Redis's documented example, the JDK trust store's public default, a stand-in
    if re.fullmatch(r"[a-z]{4,7}", v) and not _plain_password(v):
        return False  # a short word ("none", "empty", "secret"): more likely a stand-in than a value
    return True


def _r12_docker_auth_ok(value: str, m: re.Match[str], text: str) -> bool:
    """Docker's config.json ``auth``: Base64 of "user:password" (Docker CLI docs, credential store)."""
    import base64
    import binascii
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    user, _sep, pw = raw.partition(":")
    return bool(_sep) and bool(user) and len(pw) >= 4 and raw.isprintable()


_R12_PW_DIRECT = _r(r"(?P<key>" + _PASSWORD_WORDS + r")" + _ + r"*" + _CONNECTOR + _ + r"*(\S{4,64})")

#: A person on the line: a pronoun, a relative (:data:`_HEADING_ANCHOR`), a possessive name ("Jen's") or a
#: full name at its start ("Emily Hartwell makes ...").
_R12_SOMEONE = re.compile(r"(?-i:[A-Z][a-z]+)'s\b|^(?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:makes|earns|owes|pays|gets|has)\b")


def _r12_money_fact_ok(value: str, m: re.Match[str], text: str) -> bool:
    """An amount of a person's income, debt or support payments: someone on the line (:data:`_HEADING_ANCHOR`,
    :data:`_R12_SOMEONE`), and :func:`_topic_ok` (no technical sense)."""
    line = _line_around(text, m.start(), m.end())
    return bool(_HEADING_ANCHOR.search(line) or _R12_SOMEONE.search(line)) and _topic_ok(value, m, text)


_R12_AMOUNT_EN = r"(?:[$£€¥][ \t]?\d[\d,.]*(?:[ \t]?[km]\b)?|\d[\d,.]*[ \t]?(?:k|m|usd|gbp|eur|rmb|dollars|pounds)\b|\d{1,3}(?:,\d{3})+)"
_R12_AMOUNT_ZH = r"\d+(?:\.\d+)?[ \t]*(?:万|千|w|k|m|元|块)"

_R12_RULES = [
    Rule("handle_value_first_zh", "handle",
         _r(r"(?<![\d])(\d{5,11})" + _ + r"*(?:是|就是|=)" + _ + r"*我(?:的)?(?:小号|大号|常用的|备用的)?" + _
            + r"*(?:QQ|qq|微信号?|vx|VX|抖音号?|快手号?)"),
         "Tiers seed checklist: 'no usernames or handles': a QQ or platform number first, then 是我(小号)QQ",
         group=1, needs=("是我", "就是我", "=我")),
    Rule("name_value_first_zh", "name",
         _r(r"(" + _CN_NAME + r")" + _ + r"*(?:是|就是)我(?:的)?(?:表姐|表哥|表妹|表弟|堂姐|堂哥|堂妹|堂弟|"
            r"姐姐|哥哥|妹妹|弟弟|老婆|老公|女朋友|男朋友|前妻|前夫|室友|邻居|房东|同事|同学|领导|老板|舅舅|姑姑|阿姨|"
            r"叔叔|婶婶|嫂子|姐夫|妹夫|岳母|婆婆|干妈|师傅|导师|闺蜜|发小)"),
         "Tiers seed checklist (zh): '没有真实姓名': a full name first, then 是我 and the relation ('程璐 是我表姐')",
         group=1, check=lambda v, m, t: (m.start(1) == 0 or t[m.start(1) - 1] in " \t\r\n，。,、；;：:")
         and _name_ok(v, m, t) and not _CN_NOT_NAMES.match(v), needs=("是我",)),
    Rule("money_fact_en", "financial",
         _r(r"(?i)(?<![a-z])(?:makes|earns|earning|salary|base pay|base|take-?home|total comp|comp|bonus|child support|alimony|"
            r"spousal support|owes?|owed|in debt|debt|paycheck|net pay|gross pay)(?![a-z])[^\n]{0,24}?" + _R12_AMOUNT_EN
            + r"|" + _R12_AMOUNT_EN + r"[^\n]{0,24}?(?:child support|alimony|spousal support|take-?home|in debt|"
            r"base(?! ?64)|salary|after tax)"),
         "AANA memory-gate seed: financial (a person's income, debt or support payments as an amount: 'Jen's "
         "take-home is about 4,100 a month', 'I pay $2,300/month child support')", keep=True,
         check=_r12_money_fact_ok, needs=("makes", "earn", "salary", "base", "take-home", "take home", "comp ",
                                         "bonus", "child support", "spousal support", "alimony", "owe", "debt", "paycheck", "net pay",
                                         "gross pay", "after tax")),
    Rule("money_fact_zh", "financial",
         _r(r"(?:工资|月薪|年薪|薪水|税后|税前|到手|收入|年终奖|(?i:total comp|package|base)|欠(?!费|款单)|负债|"
            r"赡养费|抚养费|生活费|彩礼)[^\n]{0,12}?" + _R12_AMOUNT_ZH),
         "AANA memory-gate seed: financial, in Chinese (工资, 到手, 欠, 抚养费 and an amount, about a person)",
         keep=True, check=_r12_money_fact_ok,
         needs=("工资", "月薪", "年薪", "薪水", "税后", "税前", "到手", "收入", "年终奖", "total comp", "package",
                "base", "欠", "负债", "赡养费", "抚养费", "生活费", "彩礼")),
    Rule("protected_terms_r12_en", "protected",
         _r(r"(?i)(?<![a-z])(?:hindus|sikhs|muslims|christians|catholics|jews|buddhists|mormons|atheists|agnostics?|catholicism|"
            r"islam|judaism|hinduism|buddhism|christianity|sikhism|mormonism|devout|converted to (?:islam|"
            r"catholicism|christianity|judaism|buddhism|hinduism|orthodoxy)|i'?m trans|trans (?:woman|man|person|kid))"
            r"(?![a-z])"),
         "AANA memory-gate seed: protected class (religion by its believers or its name, conversion, gender "
         "identity), round 12", keep=True, check=_topic_ok,
         needs=("hindus", "sikhs", "muslims", "christian", "catholic", "jews", "judaism", "buddhis", "mormon", "atheists",
                "agnostic", "islam", "hinduism", "sikhism", "devout", "converted to", "i'm trans", "im trans",
                "trans woman", "trans man", "trans person", "trans kid")),
    Rule("protected_terms_r12_zh", "protected",
         _r(r"台独|港独|藏独|疆独|法轮功|民运人士|异见人士|基督徒|天主教徒|佛教徒|信教|受洗|皈依|改信|混血|少数民族|"
            r"维吾尔族|藏族|彝族|壮族|苗族|变性|跨性别"),
         "AANA memory-gate seed: protected class in Chinese (believers, conversion, mixed ancestry, ethnic groups, "
         "separatist or dissident politics, gender identity), round 12", keep=True, check=_topic_ok,
         needs=("台独", "港独", "藏独", "疆独", "法轮功", "民运人士", "异见人士", "基督徒", "天主教徒", "佛教徒", "信教",
                "受洗", "皈依", "改信", "混血", "少数民族", "维吾尔族", "藏族", "彝族", "壮族", "苗族", "变性", "跨性别")),
    Rule("mixed_ancestry_en", "protected",
         _r(r"(?i:half)[ -]([A-Z][a-z]+),?[ \t]+(?i:half)[ -][A-Z][a-z]+"),
         "AANA memory-gate seed: protected class (ethnicity: 'half Korean, half Nigerian')", keep=True,
         check=lambda v, m, t: v.lower() not in ("time", "price", "day", "off", "full", "empty", "asleep", "awake")
         and _topic_ok(v, m, t), needs=("half",)),
    Rule("home_empty", "schedule",
         _r(r"(?:house|home|flat|apartment|place)(?: will be| is)? (?:empty|unattended)|nobody(?:'s| is)? (?:at )?home|"
            r"no one(?:'s| is)? (?:at )?home|(?:i'?m|she'?s|he'?s|they'?re|kids are|is|are) (?:home )?alone (?:at home|"
            r"with the (?:baby|kids?))|(?:spare )?key(?:s)? (?:is |are )?(?:under|in|behind) the (?:door)?(?:mat|"
            r"flowerpot|plant pot|pot|mailbox|rock|gnome|doormat)"),
         "Tiers seed checklist: a person's whereabouts (a home left empty, someone alone at home, where the key "
         "is hidden): what a burglar needs", lower=True, not_after=_LETTERS,
         needs=("empty", "unattended", "nobody", "no one", "alone", "doormat", "the mat", "flowerpot", "plant pot",
                "mailbox", "rock", "gnome")),
    Rule("home_empty_zh", "schedule",
         _r(r"家里没人|家里就[^\n，。]{0,4}一个人|(?:自己|一个人|独自)在家|钥匙(?:放|藏)?在[^\n，。]{0,4}(?:门口|地垫|脚垫|花盆|"
            r"信箱|电表箱|消防栓|门框)"),
         "Tiers seed checklist (zh): 行踪 (a home left empty, someone alone at home, where the key is hidden)",
         needs=("家里没人", "一个人", "在家", "钥匙")),
    Rule("password_phrase_direct", "secret", _R12_PW_DIRECT,
         "Tiers seed T3 rule 'Passwords': 'password is X' read with no gap first (password_phrase's gap, tried "
         "first, runs to a later colon: 'password is X (network: Y)' gave Y, round 12)",
         group=_R12_PW_DIRECT.groups, check=_pw_value_ok, lower=True, not_after=_LETTERS, triggers=_PASSWORD_TRIGGERS),
    Rule("config_password_xml", "secret",
         _r(r"<" + _R12_CFG_KEY + r">[ \t]*([^<\n]{4,128}?)[ \t]*</"),
         "CWE-260 / CWE-798: a password in an XML config element (Maven settings.xml <password>, "
         "<connection-password>)", group=1, check=_r12_config_value_ok, lower=True, needs=("</",)),
    Rule("config_password_xml_property", "secret",
         _r(r"name=[\"'][^\"'\n]*(?:password|passwd|secret)[\"'](?:[ \t]+value=[\"']|[^>\n]*>[ \t]*)"
            r"([^\"'<\n]{4,128}?)(?:[\"']|[ \t]*</)"),
         "CWE-260: a password as the value of a named XML property (Hibernate, Spring, Tomcat: <property "
         "name=\"...password\">X</property>, value=\"X\")", group=1, check=_r12_config_value_ok, lower=True,
         needs=("name=",)),
    Rule("config_password_json", "secret",
         _r(r"[\"']" + _R12_CFG_KEY + r"[\"'][ \t]*:[ \t]*[\"']([^\"'\n]{4,128})[\"']"),
         "CWE-260: a password under a quoted key in JSON or YAML (\"pass\": \"...\", 'smtp_pass': '...')",
         group=1, check=_r12_config_value_ok, lower=True, needs=("pass", "pwd", "psk", "secret", "auth")),
    Rule("config_psk", "secret",
         _r(r"(?<![a-z_])(?:psk|wpa_passphrase|requirepass|masterauth)[ \t]*[= \t][ \t]*[\"']?([!-~]{8,63})(?![!-~])"),
         "wpa_supplicant.conf psk= / hostapd wpa_passphrase= (IEEE 802.11i pre-shared key, 8-63 characters); "
         "Redis requirepass / masterauth", group=1, check=_r12_config_value_ok, lower=True,
         needs=("psk", "wpa_passphrase", "requirepass", "masterauth")),
    Rule("keystore_password", "secret",
         _r(r"(?:store|key|keystore|truststore|signing|storepass|keypass)_?(?:password|pass)?(?<=ss|rd)[ \t]*[:= \t]"
            r"[ \t]*[\"']?([!-~]{4,64}?)[\"']?(?![!-~])"),
         "Android Gradle signingConfigs / keytool -storepass -keypass / Java keystore properties: the keystore "
         "and key passwords", group=1, check=_r12_config_value_ok, lower=True,
         needs=("storepass", "keypass", "keystorepass", "truststorepass", "signingpass", "store_pass", "key_pass",
                "storepassword", "keypassword")),
    Rule("docker_config_auth", "secret",
         _r(r"[\"']auth[\"'][ \t]*:[ \t]*[\"']([A-Za-z0-9+/]{12,}={0,2})[\"']"),
         "Docker CLI config.json 'auths' entries: Base64 of user:password", group=1, check=_r12_docker_auth_ok,
         needs=("\"auth\"", "'auth'")),
    Rule("logged_in_as_with", "secret",
         _r(r"(?:logged|log|signed|sign|ssh'?e?d)[ \t]*(?:in|into|on)[^\n]{0,40}?[ \t]as[ \t]+[\w.@+-]{2,40}[ \t]+"
            r"(?:with|using|pw|password|pass)[ \t]+[\"'`]?([!-~]{6,64}?)[\"'`]?(?![!-~])"),
         "Tiers seed T3 rule 'Passwords': the password a person logged in with, after the account ('logged into "
         "the VPN as zl4521 with X')", group=1, check=_pw_value_ok, lower=True, not_after=_LETTERS,
         triggers=frozenset({"log", "sig", "ssh"})),
    Rule("relation_colon_name_en", "name",
         _r(r"(?:my |our |the |new )?" + _R12_RELATION_EN + r"(?:[ \t]+[^\n:：]{1,32}?)?[ \t]*[:：–—-][ \t]*"
            r"([A-Z][a-z]+(?:[ \t][A-Z][a-z'-]+){1,2})(?![A-Za-z])"),
         "Tiers seed checklist: 'no real names': a full name after the person's relation or role and a colon "
         "or dash ('neighbor across the hall: Lucas Moreau', 'tenant in unit 3 - Ethan Caldwell')",
         group=1, check=_r12_name_ok, not_after=_LETTERS,
         needs=("neighbo", "tenant", "landl", "roomm", "flatm", "housem", "babysit", "nanny", "tutor", "worker",
                "colleag", "boss", "manager", "cousin", "aunt", "uncle", "niece", "nephew", "boyfriend", "girlfriend",
                "fianc", "husband", "wife", "partner", "in-law", "contractor", "plumber", "electrician", "dentist",
                "therapist", "lawyer", "accountant", "teacher", "coach", "mentor", "new hire", "intern", "friend",
                "buddy", "classmate", "student", "patient", "client", "caregiver", "carer", "sponsor", "guarantor",
                "driver", "cleaner")),
    Rule("called_en_name_zh", "name",
         _r(r"(?:叫|名叫|叫做|名字是|英文名是|英文名叫)[ \t]*([A-Z][a-z]+(?:[ \t][A-Z][a-z'-]+){1,2})(?![A-Za-z])"),
         "Tiers seed checklist (zh): '没有真实姓名': a Latin-script full name after 叫 ('new hire 叫 Ravi Menon')",
         group=1, check=_r12_name_ok, needs=("叫", "名字是", "英文名")),
    Rule("cn_uscc_individual", "government_id",
         _r(r"(?:信用代码|社会信用|营业执照|执照号|个体|税号|纳税人识别号|uscc|credit code|business licen[cs]e|"
            r"sole proprietor)[^\n]{0,24}?(?<![0-9a-z])(92\d{6}[0-9a-hj-npqrtuwxy]{10})(?![0-9a-z])"),
         "GB 32100-2015 unified social credit code (check character, stdnum.cn.uscc) of an individual business "
         "(second character 2, 个体工商户): the owner's own registration, after its name",
         group=1, lower=True, check=lambda v, m, t: _r12_uscc_ok(v.upper(), m, t),
         needs=("信用代码", "社会信用", "营业执照", "执照号", "个体", "税号", "纳税人识别号", "uscc", "credit code",
                "business licen", "sole proprietor")),
    Rule("jp_my_number", "government_id",
         _r(r"(?:my ?number|マイナンバー|個人番号|个人编号|individual number)[^\n\d]{0,24}?(?<!\d)(\d{4}[ -]?\d{4}[ -]?\d{4})"
            r"(?![\d-])"),
         "Japan Individual Number (マイナンバー, Act on the Use of Numbers, check digit; stdnum.jp.in_) after its name",
         group=1, lower=True, check=_r12_my_number_ok,
         needs=("my number", "mynumber", "マイナンバー", "個人番号", "个人编号", "individual number")),
    Rule("password_typo_zh", "secret",
         _r(r"(?:" + "|".join(_R12_PW_ZH) + r")(?:[^\n，。,;；!?！？]{0,8}?(?:" + _ZH_SET + r"|是|为|:|=|->|→)|" + _
            + r"*)" + _ + r"*[\"'“‘`]?([!-~]{4,64})"),
         "Tiers seed T3 rule (zh): '密码 -> 密钥管理器', 密码 as a Chinese IME types it by sound (蜜码, 秘码, 密马): "
         "the value after it", group=1, check=_pin_ok, lower=True, needs=tuple(w.lower() for w in _R12_PW_ZH)),
    Rule("password_typo_en", "secret",
         _r(r"(?:passwrod|passowrd|paswrd|pssword|paasword|passsword|passwrd|pasword|passwort|passwod|passord)"
            r"(?:" + _ + r"+(?:for|of|to|on|at)" + _ + r"+[^\n:=]{1,40}?)?" + _ + r"*(?:is|:|=|->)" + _
            + r"*[\"'`]?([!-~]{4,64})"),
         "Tiers seed T3 rule 'Passwords', the key word as typed in a hurry (passwrod, passowrd, pssword)",
         group=1, check=_pw_value_ok, lower=True, not_after=_LETTERS,
         triggers=frozenset({"pas", "pss", "paa"})),
    Rule("password_used_to_log_in", "secret",
         _r(r"(?:用|拿|输入|输|密码是)" + _ + r"*[\"'“‘`]?([!-~]{6,64}?)[\"'”’`]?" + _
            + r"*(?:登录|登陆|登入|解锁|连上|连接|进入)"),
         "Tiers seed T3 rule 'Passwords', the value first: the string a person logs in or unlocks with ('明天用 "
         "X 登录一下 OA')", group=1, check=_pw_bare_strong_ok, needs=("登录", "登陆", "登入", "解锁", "连上", "连接", "进入")),
    Rule("password_used_to_log_in_en", "secret",
         _r(r"(?:log ?in|sign ?in|logon|unlock(?: it)?|connect)" + _ + r"+(?:with|using)" + _
            + r"+[\"'`]?([!-~]{6,64}?)[\"'`]?(?![!-~])"),
         "Tiers seed T3 rule 'Passwords', the value first in English: 'log in with X', 'unlock it using X'",
         group=1, check=_pw_bare_strong_ok, lower=True, not_after=_LETTERS,
         triggers=frozenset({"log", "sig", "unl", "con"})),
    Rule("password_value_then_pass", "secret",
         _r(r"(?m)^[ \t>*-]*[`'\"“‘]?([!-~]{6,64}?)[`'\"”’]?" + _ + r"*(?:←|<-|<=|=>|->)" + _
            + r"*[^\n]{0,40}?(?<![a-z])(?:pass|passcode|wi-?fi key|code)(?![a-z])"),
         "Tiers seed T3 rule 'Passwords': the value first, an arrow, then 'pass' ('happy!459 <- the new wifi pass')",
         group=1, check=_pw_bare_strong_ok, lower=True, needs=("←", "<-", "<=", "=>", "->")),
    Rule("password_key_emoji", "secret",
         _r(r"(?:🔑|🔐|🗝)\ufe0f?" + _ + r"*(?:[^\n:=]{0,16}?[:=]" + _ + r"*)?[\"'`]?([!-~]{4,64})"),
         "Tiers seed T3 rule 'Passwords': a key emoji (🔑 🔐 🗝) as the password's label ('🔑 wifi：qwer1537#')",
         group=1, check=_pw_value_ok, needs=("🔑", "🔐", "🗝")),
    Rule("lock_code_zh", "secret",
         _r(r"(?:密码锁|门锁|智能锁|指纹锁|电子锁|保险柜|保险箱|挂锁|密码箱|行李箱锁|车锁|门禁)[^\n\d]{0,8}?"
            r"(?<!\d)(\d{4,12})(?!\d)[#*]?"),
         "Tiers seed T3 rule 'PINs': the digits of a combination or smart lock after its name ('大门密码锁 60593080#')",
         group=1, check=_r12_lock_code_ok,
         needs=("密码锁", "门锁", "智能锁", "指纹锁", "电子锁", "保险柜", "保险箱", "挂锁", "密码箱", "行李箱锁", "车锁", "门禁")),
    Rule("otp_seed_grouped", "secret",
         _r(_R12_OTP_CUE + r"[^\n]{0,40}?(?<![a-z0-9])((?:[a-z2-7]{4}[ \t-]){3,15}[a-z2-7]{2,8}|[a-z2-7]{16,64})"
            r"(?![a-z0-9])"),
         "RFC 6238 (TOTP) / RFC 4648 s.6 (Base32): an authenticator's setup key, as apps show it in groups of four "
         "('MPKR LNSO VX6H ONR4'), after a two-step-verification word", group=1, check=_r12_otp_seed_ok,
         lower=True, needs=("两步", "二步", "双重", "双因素", "二次验证", "动态口令", "验证器", "谷歌验证", "2fa",
                            "two", "mfa", "totp", "otp", "authenticator", "authy", "setup key", "secret key",
                            "seed", "种子", "密钥", "秘钥")),
    Rule("url_token_userinfo", "secret",
         _r(r"\b[a-z][a-z0-9+.-]{1,20}://([A-Za-z0-9_\-]{20,128})@(?=[A-Za-z0-9\[])"),
         "RFC 3986 s.3.2.1: a URL whose whole userinfo is a token (a Sentry DSN's key, "
         "https://<PAT>@github.com/...): the token is the credential", group=1, check=_r12_url_token_ok,
         needs=("://",)),
    Rule("admin_pair", "secret",
         _r(r"(?<![\w./-])" + _R12_ADMIN_USER + _ + r"*/" + _ + r"*([!-~]{6,64})(?![!-~])"),
         "a default administrator account and its password written 'admin / value' (routers, NAS, databases), "
         "with no log-in word before it", group=1, check=_r12_admin_pair_ok, lower=True,
         needs=("admin", "root", "ubnt", "pi", "sa", "postgres", "guest", "operator", "ops", "superuser", "管理员")),
]
# The URL-token rule goes before the e-mail rule (the first rule in table order takes a span): the
# token's "@host" reads as an e-mail address otherwise.
_R12_AT = next(i for i, rule in enumerate(RULES_LIST) if rule.name == "url_credentials")
RULES_LIST[_R12_AT + 1:_R12_AT + 1] = [rule for rule in _R12_RULES if rule.name == "url_token_userinfo"]
# Check-digit identifiers after their own name go first: "credit code: <USCC>" is the code, not a secret.
_R12_FIRST = ("cn_uscc_individual", "jp_my_number")
RULES_LIST[0:0] = [rule for rule in _R12_RULES if rule.name in _R12_FIRST]
RULES_LIST += [rule for rule in _R12_RULES if rule.name != "url_token_userinfo" and rule.name not in _R12_FIRST]

# After the seed's health words, not before: the English topic keywords are tried as one
# alternation where the first rule in table order wins a position, so a lexicon match whose
# someone-check fails ("HIV positive" with no person word) took the place of health_terms_en's.
_R11_AT = next(i for i, rule in enumerate(RULES_LIST) if rule.name == "health_terms_en")
RULES_LIST[_R11_AT + 1:_R11_AT + 1] = _R11_HEALTH_TOPICS


def _without_leading_boundary(rule: Rule) -> Rule:
    # A leading \b stops ``re`` from scanning for the literal that follows
    # (100x slower on 'AIza...'); check the character before in Python instead.
    src = rule.pattern.pattern
    if src.startswith(r"\b") and not src.startswith(r"\b("):
        return replace(rule, pattern=re.compile(src[2:], rule.pattern.flags), not_after=rule.not_after + _WORDCH)
    return rule


RULES_LIST = [_without_leading_boundary(rule) for rule in RULES_LIST]

#: name -> Rule (the one rule table; every rule names its source).
def _not_documentation(rule: Rule) -> Rule:
    """``rule`` with its check extended: a possible address, name or handle on a line that says it is a docs
    example, a test fixture or fiction (:data:`_DOC_LINE`) is not a person's (issue 9: "test fixture
    address: 221B Baker Street" was refused)."""
    inner = rule.check

    def check(value: str, m: re.Match[str], text: str) -> bool:
        if inner is not None and not inner(value, m, text):
            return False
        return not _DOC_LINE.search(_line_around(text, m.start(), m.end()))
    return replace(rule, check=check)


RULES_LIST = [_not_documentation(rule) if rule.category in ("address", "name", "handle") else rule
              for rule in RULES_LIST]

#: A line that speaks of a topic in general, not of someone: a question about how things are ("how does
#: Chapter 7 differ", 什么是焦虑症), what is usual or common ("lawyers usually", 医生一般建议, "is standard
#: practice", "the WHO estimates"), teaching and explaining ("lesson plan", "for a biology class", 科普,
#: 讲给孩子听), a survey, and made-up people (a hypothetical, a novel's character, a murder-mystery role,
#: 假设一个人, 剧本杀角色). Round 9, set M: 12 of 25 benign false positives were of this kind.
_GENERAL_SENSE = re.compile(
    r"(?i)\b(?:usually|typically|generally|in general|commonly|is common|are common|common (?:in|among|for)|"
    r"standard practice|best practice|on average|estimates?|worldwide|nationwide|most people|many people|"
    r"how (?:does|do|is|are|can|should)|what (?:is|are|does)|why (?:do|does|is|are)|explain\w*|differ\w*|"
    r"lesson plans?|for (?:a|the|my) \w*[ -]?class|curriculum|textbook|syllabus|quiz|trivia|"
    r"hypothetical\w*|suppose|imagine|fictional|a novel|novel's|character|role-?play|screenplay|plot|"
    # a notice to whoever it concerns ("anyone with allergies", 有过敏史的同事请先咨询医生)
    r"anyone with|those with|people with|employees with|staff with|students with|if you have)\b|"
    r"有[^，。,.\n]{1,10}的(?:同事|同学|员工|人员|家长|乘客|顾客|旅客|用户|朋友们|人)|"
    # an institution as the subject: what a pharmacy, a hospital or a school does is no one's private fact
    r"^(?:the |a |this )?(?:pharmac(?:y|ies)|hospitals?|clinics?|stores?|supermarkets?|schools?|labs?)\b"
    r"(?![ \t]+(?:owners?|managers?|keepers?|assistants?|staff|clerks?|workers?|nurses?|doctors?|teachers?|"
    r"director|head|employees?)\b)|"
    r"^(?:药店|药房|医院|诊所|学校|超市)|"
    r"一般|通常|普遍|常见|科普|什么是|是什么|怎么算|怎么讲|如何|为什么|多久|讲给|教案|课件|备课|调研|问卷|"
    r"假设|假如|虚构|小说|角色|剧本|人设|编剧|设定|"
    # round 11 (kind: a reference fact about a topic, set N): a guideline or a recommendation to everyone,
    # a rate among a population, a legal standard or a threshold, a comparison or a choice between
    # options, where a public register is looked up, how a disease does or does not spread, a metric
    r"\b(?:guidelines?|guidance|prevalence|incidence|rates|rate (?:in|among|of)|statistics|versus|"
    r"spreads? (?:through|by|via)|transmitted (?:through|by|via)|recommended (?:daily|dose|intake|for)|"
    r"defined as|definition of|thresholds?|criteria|(?:is|are) (?:not )?(?:covered|protected|guaranteed) by)\b|"
    r"(?<![a-z])vs\.?(?![a-z])|"
    r"指南|通用建议|建议(?:不超过|每|使用|控制|成人|儿童|摄入)|摄入量|患病率|发病率|死亡率|治愈率|误识率|"
    r"拒识率|识别率|占比|约为|百万分之|千分之|的标准|标准是|标准为|门槛|起征点|税率|怎么选|哪个好|的区别|"
    r"可以(?:在|通过)[^\n]{0,24}查|不会(?:通过|传染)|传播途径|传染途径|宪法|法律(?:规定|保障)|公民|"
    r"关键指标|入学年龄|适龄|读书笔记|"
    # round 13, kinds of general text naming nobody (own phrasings from set O's false positives and P's
    # figures): a law or a regulation ("未成年人保护法第 23 条", "the statute"), how to look something up
    # ("征信报告怎么查"), a figure about a population ("student debt in the US totals ...", "distribution",
    # "rose 20%"), what holds in most places ("a DUI is a misdemeanor in most states"), a court case by its
    # citation ("Oracle v. Google"), a public service ("free testing at public clinics"), a crowd or a class
    # of people ("商场里有很多小孩", "the flow for minors"), a policy's parameters ("公积金基数每年调整")
    r"保护法|[\u4e00-\u9fff]{1,8}法第|条例|实施细则|\b(?:laws?|statutes?|regulations?|acts? of \d{4})\b|"
    r"怎么查|怎么办理|怎么申请|在哪(?:里|儿)?查|如何查|\bhow to\b|"
    r"\bdistribution\b|\btotals?\b|\btrillion\b|\bbillion\b|\bper capita\b|人均|全国|我国|"
    r"\b(?:rose|fell|grew|dropped|increased|decreased|jumped) (?:by )?\d+(?:\.\d+)?%|同比|环比|"
    r"\bin (?:most|many|some|all) (?:states|countries|jurisdictions|cases)\b|"
    r"\bis an? (?:misdemeanou?r|felony|crime|civil matter|criminal offen[cs]e)\b|"
    r"(?-i:\b[A-Z][\w&.]+ v\.? [A-Z]\w+)|"
    r"\bfree (?:testing|screening|tests?|vaccin\w*)\b|免费(?:检测|筛查|接种|体检)|\bpublic (?:clinics?|hospitals?|health)\b|"
    r"未成年人(?:模式|保护|防沉迷|不得|禁止)|"
    r"基数|缴存比例|缴费比例|每年[^\n]{0,6}调整|"
    # ... a share of a population ("affects 1 in 3 adults"), a scale's range, a reference chart, a public
    # record, a question about a class of patients ("糖尿病人能吃水果吗")
    r"\b(?:1|one) in \d+\b|\baffects? (?:about |around |over |nearly )?(?:\d|one|many|millions|most)|"
    r"\branges? (?:from|between)\b|取值范围|范围是|\bcharts?\b|\bcompatibility\b|对照表|"
    r"\bpublic records?\b|\bis public\b|\bdockets?\b|公开信息|"
    r"[病症]人(?:能|可以|不能|应该|要|适合)|[病症]患者(?:能|可以|不能|应该|适合)")
#: What makes such a line about someone after all: the user or a third person by a pronoun, a relative or
#: someone known by role ("my", "I", "她", 老公, "Dad", 房东), or a person by name at its start ("Megan is ...").
_GENERAL_ANCHOR = re.compile(
    r"(?i)(?-i:\bus\b)|\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|our|he|she|him|his|her|hers|they're|their|"
    r"dad|mom|mum|wife|husband|son|daughter|grandma|grandpa|brother|sister|uncle|aunt|cousin|boss|"
    r"boyfriend|girlfriend|partner|roommate|neighbou?r|colleague|coworker|friend|landlord|client|patient)\b|"
    r"我(?!国|司|院|校|市|省|区)|咱|[他她]|老公|老婆|爸|妈|儿子|女儿|闺女|岳母|婆婆|公公|爷爷|奶奶|外婆|外公|姥姥|姥爷|哥|姐|弟|妹|"
    r"男朋友|女朋友|对象|室友|房东|邻居|朋友|客户|病人|患者(?!控制|应|要|需|们|每|一般|通常|群体|人数|比例|的?(?:饮食|用药|护理|康复|日常|自我管理)|指南|须知|手册)|"
    r"[小老阿][" + _CN_SURNAMES + r"](?![学年人家板师])|"
    r"^(?-i:[A-Z][a-z]+) (?:is|has|had|was|takes|took|gets|got|from|and|said|says)\b|"
    # a single name before a habit ("Megan usually skips ..."), not a plural or a crowd ("Lawyers usually")
    r"^(?!(?-i:People|Children|Most|Many|Some|Everyone|Everybody|Nobody|Adults|Women|Men|Teens|Kids|Parents|"
    r"Patients|Doctors|Nurses|Lawyers|Students|Employees|Users)\b)(?-i:[A-Z][a-z]+)(?<!ers)(?<!ists)(?<!ians)"
    r"(?<!ors)(?<!ents)(?<!ants)(?<!ies) (?:usually|often|always|never|typically|generally|still|also|"
    r"sometimes|regularly)\b|"
    r"^(?-i:[A-Z][a-z]+ [A-Z][a-z]+ [a-z])")


#: A heading that says the note below is knowledge, not about someone (科普笔记, 读书笔记, "cheat sheet").
_GENERAL_HEADING = re.compile(r"(?i)科普|读书笔记|学习笔记|课堂笔记|知识点|百科|\bcheat ?sheet\b|\bfaq\b|"
                              r"\b(?:reading|lecture|study|course) notes\b|\bglossary\b|\bwiki\b|"
                              # round 13, kind "course notes" (multi-line set O: 营养学课程笔记（第 4 讲）): a
                              # course, a lecture or a chapter by its number, a syllabus's "101"
                              r"(?:课程|课|讲座|讲义|教材|培训|复习|考试|考研|法考)[^\n]{0,3}(?:笔记|要点|提纲|重点)|"
                              r"第[ \t]*[\d一二三四五六七八九十]{1,3}[ \t]*[讲课章节]|"
                              # ("Chapter 7" alone is a bankruptcy, "week 3" of chemo a person's: with a notes word)
                              r"\b(?:lecture|lesson|module|unit|week|class|course)[ \t]*\d{1,3}\b[^\n]{0,16}"
                              r"\b(?:notes|slides|summary|recap|basics|outline|handout)\b|"
                              r"\b(?:notes|slides|handout)\b[^\n]{0,16}\b(?:lecture|lesson|module|unit|class)[ \t]*\d|"
                              r"\b\d{3}\b[^\n]{0,12}\bnotes\b|\b(?:revision|exam|class) notes\b|"
                              # round 13, own phrasings of benign notes: a policy or a handbook (请假制度, "Leave
                              # policy"), an article's excerpt (育儿文章摘抄), a list of books or films (观影清单,
                              # "Book club picks"), release notes
                              r"制度|政策|规定|须知|守则|员工手册|指引|\bpolicy\b|\bpolicies\b|\bhandbook\b|"
                              r"文章|摘抄|摘录|转载|\barticles?\b|\bexcerpts?\b|观影|书单|片单|影单|书评|影评|"
                              r"\breading list\b|\bbook club\b|\bwatchlist\b|\bplaylist\b|release notes|changelog|"
                              r"更新日志|版本说明|发版说明")
#: A note that says of itself that it is about nobody ("不是任何人的诊断", "不含个人信息", "not anyone's
#: diagnosis", "no personal data"): round 13, kind "a disclaimer in a benign note" (multi-line set O).
_NOBODY_NOTE = re.compile(r"(?i)不是任何人的|与任何人无关|不涉及(?:任何)?个人|不含(?:任何)?个人信息|不存任何人|"
                          r"不针对任何人|非个人(?:信息|数据)|\bnot (?:about )?any(?:one|body)'?s?\b|"
                          r"\bno (?:personal|real)[ -](?:data|information|info|people|person|patients?)\b|"
                          r"\bnot (?:a |any )?(?:real|specific) (?:person|patient|people)\b")


_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-")


def _in_blob(text: str, start: int, end: int) -> bool:
    """``start``..``end`` lies inside a run of 32+ Base64 characters with digits in it (no space)."""
    a, b = start, end
    while a > 0 and text[a - 1] in _B64_CHARS and start - a < 200:
        a -= 1
    while b < len(text) and text[b] in _B64_CHARS and b - end < 200:
        b += 1
    return b - a >= 32 and any(c.isdigit() for c in text[a:b])


#: Under such a heading, what ties a line to someone: a pronoun, a relative, a role or a name after a title.
_HEADING_ANCHOR = re.compile(
    r"(?i)\b(?:i|i'm|i've|me|my|mine|we|our|he|she|him|his|her|they're|their|dad|mom|mum|wife|husband|son|"
    r"daughter|grandma|grandpa|brother|sister|uncle|aunt|boss|friend|colleague|neighbou?r|mr|mrs|ms|dr)\b|"
    r"我|咱|[他她]|老公|老婆|爸|妈|儿子|女儿|爷爷|奶奶|外婆|外公|哥|姐|弟|妹|朋友|同事|邻居|房东|客户")


def _general_sense(line: str) -> bool:
    """True when ``line`` speaks of a sensitive topic in general (:data:`_GENERAL_SENSE`) and names nobody
    (:data:`_GENERAL_ANCHOR`)."""
    return bool(_GENERAL_SENSE.search(line)) and not _GENERAL_ANCHOR.search(line)


def _not_general(rule: Rule) -> Rule:
    """``rule`` (a sensitive-topic rule) with its check extended: a topic word on a line that speaks in
    general and names nobody (:func:`_general_sense`) is knowledge, not a fact about a person. A slug
    name (:func:`scan_name`) is never excused."""
    inner = rule.check

    def check(value: str, m: re.Match[str], text: str) -> bool:
        if inner is not None and not inner(value, m, text):
            return False
        if _NAME_TOPICS.get() == "slug":
            return True
        if _in_blob(text, m.start(), m.end()):
            return False  # letters inside a Base64 run ("…Gch+d3b/MmBU6NTz…"), not a word
        if re.match(r"::|\.[a-z_]|\(\)", text[m.end():m.end() + 2]) or text[max(0, m.start() - 2):m.start()] == "::":
            return False  # a path in code (``std::env``, ``aids.load()``, ``Foo::HIV``): an identifier, no fact
        # The topic word itself is no anchor ("Depression is common" does not name a person "Depression").
        a = text.rfind("\n", 0, m.start()) + 1
        line_as_is = line = _line_around(text, m.start(), m.end())
        line = line[:m.start() - a] + " " * (m.end() - m.start()) + line[m.end() - a:]
        # general words are read on the line as it is (the topic word may be part of them: "糖尿病人能..."),
        # anchors with the topic word blanked
        if (_GENERAL_SENSE.search(line_as_is) or _CROWD.search(line_as_is)) and not _GENERAL_ANCHOR.search(line):
            return False
        if rule.category == "protected" and re.match(r"(?i)-(?:friendly|owned|run|led)\b", text[m.end():m.end() + 9]):
            return False  # a business's attribute ("muslim-friendly restaurants"), round 13
        if rule.category in ("legal", "financial") and _ORG_STATE.search(value) and _org_subject(line):
            return False  # a company's bankruptcy or lawsuit, round 13 ("他们公司去年破产了")
        if rule.category == "protected" and _PROPER_NAME_AFTER.match(text, m.end()) and value[:1].isupper():
            return False  # a word of a proper name ("Christian Bale", "Gay-Lussac's law"), round 13
        # a note headed as knowledge (科普笔记：高血压, "reading notes") holds facts about a topic on its
        # lines, unless a line names someone (round 11, multi-line set N)
        if _HEADING_ANCHOR.search(line):
            return True
        return not (_GENERAL_HEADING.search(line) or _GENERAL_HEADING.search(_block_above(text, m.start()))
                    or _nobody_note(text, m.start()))
    return replace(rule, check=check)


#: Topic words that state an organisation's condition as well as a person's (bankruptcy, a lawsuit, an
#: investigation): with an organisation as the subject they are no one's private fact.
_ORG_STATE = re.compile(r"(?i)破产|重整|清算|倒闭|起诉|诉讼|官司|立案|涉嫌|被调查|bankrupt\w*|chapter|sued|su(?:e|ing)\b|"
                        r"lawsuits?|litigation|investigat\w*|insolven\w*|liquidat\w*|restructur\w*")
#: An organisation named on the line (公司, 供应商, "the company", "Acme Inc"), round 13.
_ORG_WORD = re.compile(r"(?i)公司|企业|集团|银行|平台|工厂|厂家|供应商|商家|品牌|门店|"
                       r"\b(?:company|companies|corp\w*|inc|ltd|llc|gmbh|startup|vendor|supplier|firm|bank|retailer|"
                       r"chain|airline|brand|manufacturer)\b")
#: "Their company", "我们公司": the person words there only say whose employer it is.
_ORG_OWNER = re.compile(r"(?i)(?:他们|我们|你们|她们|咱们|他|她|我)(?:的)?(?=公司|单位|厂|企业|集团|银行)|"
                        r"\b(?:our|their|your|my|his|her)(?= (?:company|employer|firm|startup|vendor|supplier|bank)\b)")


def _org_subject(line: str) -> bool:
    """``line`` names an organisation as the subject and, once "their company"-style owners are dropped,
    no person: not an organisation that acts on someone or is the other party ("被公司起诉", "sued by the
    bank", "和前公司打官司", "a lawsuit against my old employer": the person is the one it happens to), and no
    colleague, client or Chinese full name before it."""
    org = _ORG_WORD.search(line)
    if org is None or _GENERAL_ANCHOR.search(_ORG_OWNER.sub(" ", line)):
        return False
    before = line[:org.start()]
    if re.search(r"(?i)(?:被|和|与|跟|同|对)[^\n，。,]{0,4}$|"
                 r"\b(?:by|with|against|versus|vs\.?) [^\n,.;]{0,24}$|"
                 r"同事|客户|员工|朋友|"
                 r"\b(?:colleague|client|coworker|friend|employee)\b", before):
        return False
    return not re.search(_CN_NAME + r"(?=被|在|因|的)", before)


#: A crowd or a class of people, read on the line with its topic word (round 13, own phrasings: "商场里有很多
#: 小孩", "the age verification flow for minors", "most kids"): many people, no one of them.
_CROWD = re.compile(r"(?i)(?:很多|许多|不少|好多|一群|一些|大量|所有)的?(?:小孩|孩子|儿童|学生|未成年人|病人|患者|老人)|"
                    r"\b(?:lots of|many|a lot of|a bunch of|most|some|all|other) (?:kids|children|teens|minors|"
                    r"patients|students)\b|\bfor minors\b|\bminors (?:under|must|cannot|can't|are not|need)\b")
#: After a capitalised topic word, the next word of a proper name ("Christian Bale", "Gay-Lussac").
_PROPER_NAME_AFTER = re.compile(r"(?:-| )(?-i:[A-Z][a-z]+)(?!(?-i:[A-Z]))")


#: The farthest, in lines, that a rule's check reads around its match (:func:`_paragraph_around`,
#: :func:`_block_above`); :func:`_scan_in_two` overlaps its parts by that many lines more.
_CONTEXT_LINES = 12


def _paragraph_around(text: str, start: int, n: int = _CONTEXT_LINES) -> str:
    """The paragraph that holds ``start``: up to ``n`` lines above and below it, none past a blank line."""
    below: list[str] = []
    b = text.find("\n", start)
    for _ in range(n):
        if b < 0:
            break
        c = text.find("\n", b + 1)
        line = text[b + 1:len(text) if c < 0 else c]
        if not line.strip():
            break
        below.append(line)
        b = c
    return _block_above(text, start, n) + "\n" + _line_around(text, start, start) + "\n" + "\n".join(below)


def _nobody_note(text: str, start: int) -> bool:
    """The paragraph around ``start`` says it is about nobody (:data:`_NOBODY_NOTE`); cheap when the
    text holds no such words."""
    return "\n" in text and bool(_NOBODY_NOTE.search(_paragraph_around(text, start)))


RULES_LIST = [_not_general(rule) if rule.category in TOPIC_CATEGORIES else rule for rule in RULES_LIST]

#: Specimen numbers printed in standards and vendors' docs (digits and letters only, upper case): the
#: German and British IBAN examples of ISO 13616 / the ECBS and SWIFT registry, GB 11643-1999's sample
#: ID, the SSA's retired Woolworth and advertisement SSNs, HMRC's QQ123456C, Taiwan's A123456789.
_SPECIMENS = frozenset({"DE89370400440532013000", "GB82WEST12345698765432", "GB29NWBK60161331926819",
                        "FR1420041010050500013M02606", "NL91ABNA0417164300", "11010519491231002X",
                        "078051120", "219099999", "QQ123456C", "A123456789"})
#: A line that says its number is a sample, a placeholder or a standard's example.
_SPECIMEN_LINE = re.compile(r"(?i)example|sample|specimen|placeholder|dummy|hint|docs?\b|documentation|spec\b|"
                            r"standard|test data|fixture|unit tests?|\bfake\b|validat\w*|\binvalid\b|\brejects?\b|"
                            r"示例|样例|样本|例子|举例|占位|国标|标准|规范|单测|测试用|文档|校验|无效")


def _not_specimen(rule: Rule) -> Rule:
    """``rule`` with its check extended: a made-up number (:func:`_made_up_digits`: 1234567, seven zeros) or a
    published specimen (:data:`_SPECIMENS`) on a line that calls it a sample is documentation, not
    someone's ID or account (issue 9, set I: the IBAN example every payment doc uses, GB 11643's sample ID,
    a signup form's placeholder NRIC)."""
    inner = rule.check

    def check(value: str, m: re.Match[str], text: str) -> bool:
        if inner is not None and not inner(value, m, text):
            return False
        compact = re.sub(r"[^0-9A-Za-z]", "", value).upper()
        if compact in _SPECIMENS or _made_up_digits(re.sub(r"\D", "", value)):
            # the line's words, not its URLs' host names (tatk17 5: ``https://x.example/?ssn=…``)
            return not _SPECIMEN_LINE.search(_prose(_doc_scope(text, m.start(), m.end())))
        return True
    return replace(rule, check=check)


RULES_LIST = [_not_specimen(rule) if rule.category in ("government_id", "bank_account") else rule
              for rule in RULES_LIST]


#: A value that is an expression which computes or fetches the secret, not the secret: a call
#: (``getpass.getpass("Password: ")``, ``vault.read(...)``), ConfigParser interpolation
#: (``%(DB_PASSWORD)s``), a type in a signature (``new_password: str)``), a template or shell reference
#: (``{{ .Values.pw }}``, ``$(cat pw.txt)``), or a fill-in word in any spelling (``CHANGE_ME``, ``replace-me``).
_EXPRESSION_VALUE = re.compile(
    r"(?i)^[A-Za-z_][\w.]*\((?:[A-Za-z0-9_\"')\[{*$])|%\(\w+\)[sdr]|^(?:str|string|bytes|int|secretstr|optional\[str\]|str \| none)[),\]]*$|"
    r"^\{\{|^\$\(|^<%|change[_-]?me|replace[_-]?me|set[_-]?me|fill[_-]?me|^tbd$|^todo\b|"
    # round 13 (kind "credentials from variables in a Terraform block", multi-line set O): a reference
    # to a named value (``var.db_password``, ``data.vault_secret.x.value``), HCL "References to Named Values"
    r"^(?:var|local|data|module|each)\.[A-Za-z_][\w.\[\]\"-]*$")
#: A key word inside a shell expansion whose ``:?``/``?`` part is the message printed when the variable is
#: unset (``${PG_PASSWORD:?set in .env}``), not a value.
_UNSET_MESSAGE = re.compile(r"\$\{[A-Za-z_]\w*:?$")


def _not_expression(rule: Rule) -> Rule:
    """``rule`` (a secret rule with a value group) with its check extended: an expression, a type or a
    fill-in word (:data:`_EXPRESSION_VALUE`) and a shell expansion's unset message are not secrets
    (round 9, set M: ``passwd = getpass.getpass(...)``, ``password = %(DB_PASSWORD)s``, compose files)."""
    inner = rule.check

    def check(value: str, m: re.Match[str], text: str) -> bool:
        if inner is not None and not inner(value, m, text):
            return False
        v = value.strip("'\"` ")
        if _EXPRESSION_VALUE.search(v):
            return False
        if re.fullmatch(r"[A-Za-z_][\w.]*\(", v) and re.match(r"[A-Za-z0-9_\"')\[{*$]", text[m.end(rule.group):]):
            return False  # a call whose arguments the value's pattern stopped at: getpass.getpass("Password: ")
        if v.startswith("?"):
            line_start = text.rfind("\n", 0, m.start()) + 1
            key_end = m.start(rule.group) if rule.group else m.start()
            head = text[line_start:key_end]
            if _UNSET_MESSAGE.search(head):
                return False
        return True
    return replace(rule, check=check)


RULES_LIST = [_not_expression(rule) if rule.category == "secret" and rule.group else rule for rule in RULES_LIST]

#: Credentials printed in vendors' documentation for everyone to copy (parts of them, as they are
#: pasted cut): jwt.io's sample token (sub 1234567890, name John Doe), Stripe's docs test keys, AWS's
#: EXAMPLE keys. They unlock nothing of anyone's (the AWS one is split so that no file holds a key's shape).
_PUBLISHED_SPECIMENS = ("eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9l", "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
                        "pk_test_TYooMQauvdEDq54NiTphI7jx", "AKIA" + "IOSFODNN7EXAMPLE", "EXAMPLEKEY")
#: A line (or the line introducing its paragraph, :func:`_doc_scope`) that says its value comes from
#: documentation: "from Microsoft docs", "example token", "文档里的示例", "公开的".
_DOC_SOURCE = re.compile(r"(?i)\bfrom (?:the )?(?:[\w.-]+ ){0,2}(?:docs?|documentation|website|wiki\w*)\b|"
                         r"\b(?:docs?|documentation)(?: page)?'s example|\bin the docs\b|"
                         r"\b(?:example|sample|specimen|published|public|demo) (?:tokens?|keys?|secrets?|jwts?)\b|"
                         r"jwt\.io|文档里|文档中|文档的|官方示例|示例(?:key|token|密钥|令牌)|公开的")
#: Secret rules that judge a value by its randomness after a key word (no published format): a key word
#: on a line that says the value is the docs' makes it documentation.
_HEURISTIC_SECRET_RULES = frozenset({"keyword_entropy", "keyword_entropy_zh", "secret_assignment", "keyed_phrase",
                                     "ak_sk_bare", "bare_random_line"})


def _published_across_lines(text: str, span: "_Span") -> bool:
    """A secret read across a line break (a joined reading, whose view lacks the lines around it) that is
    a published specimen (:data:`_PUBLISHED_SPECIMENS`) under a line or heading about docs, samples or
    tests in ``text`` itself: what :func:`_not_published` says of it on one line."""
    _s, _e, rule, vs, ve = span
    if rule.category != "secret" or "\n" not in text[vs:ve]:
        return False
    value = re.sub(r"\s+", "", text[vs:ve])
    if not any(x in value for x in _PUBLISHED_SPECIMENS):
        return False
    scope = _doc_scope(text, vs, vs)
    return bool(_DOC_SOURCE.search(scope) or _TEST_WORDS.search(scope) or _DOC_LINE.search(scope))


def _not_published(rule: Rule) -> Rule:
    """``rule`` (a secret rule) with its check extended: a credential vendors print in their docs
    (:data:`_PUBLISHED_SPECIMENS`) in a line or paragraph about docs, samples or tests, and a random
    value after a key word (:data:`_HEURISTIC_SECRET_RULES`) that the line says comes from the docs
    (:data:`_DOC_SOURCE`), are documentation (round 9, set M: jwt.io's token, Microsoft's KMS client
    keys, Stripe's docs key)."""
    inner = rule.check
    heuristic = rule.name in _HEURISTIC_SECRET_RULES

    def check(value: str, m: re.Match[str], text: str) -> bool:
        if inner is not None and not inner(value, m, text):
            return False
        if heuristic or any(x in value for x in _PUBLISHED_SPECIMENS):
            scope = _doc_scope(text, m.start(), m.end())
            if _DOC_SOURCE.search(scope):
                return False
            if not heuristic and (_TEST_WORDS.search(scope) or _DOC_LINE.search(scope)):
                return False
        return True
    return replace(rule, check=check)


RULES_LIST = [_not_published(rule) if rule.category == "secret" else rule for rule in RULES_LIST]


RULES: dict[str, Rule] = {rule.name: rule for rule in RULES_LIST}

_PRIORITY = {rule.name: i for i, rule in enumerate(RULES_LIST)}
# A secret read by a possible rule (randomness alone, a heuristic) ranks after every certain secret rule:
# a certain reading of the same characters wins (atk11: ``x`` + a GitHub token, glued, read as a
# random-looking line alone, lost the token). Other categories keep the table's order.
_LAST_CERTAIN_SECRET = max(i for i, rule in enumerate(RULES_LIST) if rule.category == "secret" and rule.sure == CERTAIN)
_PRIORITY.update({rule.name: _LAST_CERTAIN_SECRET + 1 + i for i, rule in enumerate(RULES_LIST)
                  if rule.category == "secret" and rule.sure != CERTAIN and i < _LAST_CERTAIN_SECRET})

# The store's own ciphertext (see the module docstring).
_HEADING = re.compile(r"(?m)^#{1,6}[ \t]+(.*)$")
_ENCRYPTED_HEADING = re.compile(r"(?i)encrypt|cipher|加密|密文")
_QUOTED_B64 = re.compile(r"(?m)^>[ \t]?[A-Za-z0-9+/=_-]{16,}[ \t]*\r?$")
_CIPHER_FIELD = re.compile(r"(?:ciphertext|nonce)[\"']?[ \t]*[:=][ \t]*[\"']?([A-Za-z0-9+/=_-]{8,})")
_LINE_BREAK = re.compile(r"\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _ciphertext_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans no rule reads: the store's ciphertext, and public material or Base64 blocks of text
    (:func:`memory_manager.structure.public_spans`; a text block is read decoded by :func:`_scan_serial`)."""
    spans = [m.span(1) for m in _CIPHER_FIELD.finditer(low)]
    spans.extend(public_spans(text))
    if "\n" in text:
        spans.extend((s, e) for s, e, _ in text_blocks(text))
    quoted = list(_QUOTED_B64.finditer(text))
    if quoted:
        headings = [(m.start(), bool(_ENCRYPTED_HEADING.search(m.group(1)))) for m in _HEADING.finditer(text)]
        starts = [h[0] for h in headings]
        for m in quoted:
            i = bisect.bisect_right(starts, m.start()) - 1
            if i >= 0 and headings[i][1]:
                spans.append(m.span())
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):  # disjoint, for _overlaps
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


def _overlaps(spans: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    i = bisect.bisect_right(starts, start) - 1
    for j in (i, i + 1):
        if 0 <= j < len(spans) and spans[j][0] < end and start < spans[j][1]:
            return True
    return False


_NUMBER_RUN = re.compile(r"\d[\d \t().+/-]{5,}\d")


def _numeric_regions(text: str) -> list[tuple[int, int]]:
    """Spans around every run of 7+ digits and separators (with 2 characters before, 1 after)."""
    regions: list[tuple[int, int]] = []
    n = len(text)
    for m in _NUMBER_RUN.finditer(text):
        s, e = max(0, m.start() - 2), min(n, m.end() + 1)
        if regions and s <= regions[-1][1]:
            regions[-1] = (regions[-1][0], e)
        else:
            regions.append((s, e))
    return regions


def _lowered(text: str) -> str:
    """``text`` lower-cased with every offset kept (a few characters grow under str.lower)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


#: English topic keyword rules run as one combined pattern (one pass over
#: the text instead of six); the named group says which rule matched.
_TOPIC_EN = [rule for rule in RULES_LIST if rule.category in TOPIC_CATEGORIES and rule.lower]
_TOPIC_EN_NAMES = frozenset(rule.name for rule in _TOPIC_EN)
_TOPIC_EN_PATTERN = re.compile("|".join(f"(?P<t{i}>{rule.pattern.pattern})" for i, rule in enumerate(_TOPIC_EN)))


_TOKEN = re.compile(r"[a-z0-9]+")
#: First three characters (or the whole word when shorter) of every word an
#: English topic keyword can start with; tests check each keyword is covered.
_TOPIC_EN_TRIGGERS = frozenset("""
dia dep ant anx pan bip sch pts adh aut can tum che hiv med pre sur the psy men all ast hyp blo mis dis ill hos
ins sei epi mig reh add eat dem alz div law sue sui att cus arr cri con pro par ind sub lit cou in res fel imm
sal inc pay net deb stu per car hom ban a my his her mor cre tax ove sav 401 pen fac iri ret voi dna gen bio fin
our kid kin ele mid und min mus chr jew bud hin sik ath cat rel gay les bis tra que lgb sex eth whe pol
""".split()) | frozenset(str(i) for i in range(1, 18)) | frozenset(
    # digit-led keywords ("7th grade", "9yo"): the first three characters of their tokens
    (str(i) + suffix)[:3] for i in range(1, 18) for suffix in ("st", "nd", "rd", "th", "yo"))


def _alternatives(pattern: str) -> list[str]:
    """The top-level ``|`` alternatives of a regex source."""
    out, depth, current, i = [], 0, "", 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            current += pattern[i:i + 2]
            i += 2
            continue
        depth += (ch == "(") - (ch == ")")
        if ch == "|" and depth == 0:
            out.append(current)
            current = ""
        else:
            current += ch
        i += 1
    return out + [current]


def _first_words(alternative: str) -> list[str]:
    """The possible first words of a keyword alternative (a leading group expanded, nested groups too:
    ``(?:green|reform(?: uk)?|socialist) party`` starts with green, reform or socialist)."""
    if alternative.startswith("(?:"):
        depth = 0
        for i, ch in enumerate(alternative):
            if ch == "\\":
                continue
            depth += (ch == "(") - (ch == ")")
            if depth == 0:
                inner, rest = alternative[3:i], alternative[i + 1:]
                if rest[:1] in ("?", "*"):
                    return [w for a in _alternatives(inner) for w in _first_words(a)] + _first_words(rest[1:])
                return [w for a in _alternatives(inner) for w in _first_words(a + rest)]
    return [re.sub(r"[^a-z0-9].*", "", alternative)]


# Every keyword's first three letters, derived from the patterns themselves
# so that a keyword added to a list can never be skipped by the trigger test.
_TOPIC_EN_TRIGGERS = _TOPIC_EN_TRIGGERS | frozenset(
    w[:3] for rule in _TOPIC_EN for alt in _alternatives(rule.pattern.pattern) for w in _first_words(alt) if w)


#: Size of the stretches a text is cut into (at line breaks) so that a rule
#: whose key words are absent from a stretch is not run over it.
_CHUNK = 32_768


def _chunks(text: str) -> list[tuple[int, int]]:
    """``text`` cut at line breaks into stretches of about :data:`_CHUNK` characters (offsets)."""
    out, start, n = [], 0, len(text)
    while start < n:
        end = text.find("\n", min(n, start + _CHUNK))
        end = n if end < 0 else end + 1
        out.append((start, end))
        start = end
    return out


def _lines_with(low: str, words: tuple[str, ...], cache: dict[str, list[tuple[int, int]]]
                ) -> list[tuple[int, int]]:
    """The lines of ``low`` that hold any of ``words``, as sorted, merged ``(start, end)`` offsets.

    ``end`` is just past the line's break (or the end of the text), so a
    pattern run with ``finditer(text, start, end)`` sees what it would see in
    the whole text: look-behinds read the text before ``start`` and a
    look-ahead at the line's end reads the break. The lines of each word are
    found once per scan (``cache``), with :meth:`str.find`.
    """
    spans: list[tuple[int, int]] = []
    for word in words:
        found = cache.get(word)
        if found is None:
            found = []
            i = low.find(word)
            while i >= 0:
                start = low.rfind("\n", 0, i) + 1
                end = low.find("\n", i + len(word))
                end = len(low) if end < 0 else end + 1
                found.append((start, end))
                i = low.find(word, end)
            cache[word] = found
        spans.extend(found)
    if len(words) > 1:
        spans.sort()
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        if merged and a < merged[-1][1]:
            if b > merged[-1][1]:
                merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged


#: A derived gate (:func:`_derived_gates`) is used only when each of its literals is
#: this long (ASCII) or holds a character outside ASCII: a gate on "on" or "."
#: holds nearly every line and costs more than it saves. Two ASCII characters
#: do when one of them is not among the most frequent letters of English
#: (``gh``, ``qq``, ``ig``; not ``on``, ``st``, ``mi``).
_GATE_MIN_ASCII = 3
_FREQUENT_LETTERS = frozenset("etaoinsrhldcum")


def _selective(word: str) -> bool:
    """True when ``word`` is rare enough to gate a rule on (see :data:`_GATE_MIN_ASCII`).

    A single ASCII punctuation mark counts (``:`` for a bot token, ``.`` for
    a JWT-like key): where it is on most lines the rule runs over the whole
    text anyway (:data:`_GATE_MAX_SHARE`).
    """
    if len(word) >= _GATE_MIN_ASCII or not word.isascii():
        return True
    if len(word) == 1:
        return not word.isalnum() and not word.isspace() and word.isprintable()
    return not set(word) <= _FREQUENT_LETTERS


#: Stretches of gated lines closer than this many characters are run as one
#: stretch (a derived gate's pattern cannot match a line break, so any cut
#: at a line break finds the same matches; fewer calls into ``re``).
_GATE_JOIN = 2048
#: A derived gate whose lines cover more than this share of the text is not
#: worth it: the rule runs over the whole text, as without a gate.
_GATE_MAX_SHARE = 0.5

#: The same for a word-led rule, whose gated lines are read word by word (the
#: words of the other lines are read anyway, for the other rules).
_TOKEN_GATE_MAX_SHARE = 0.1
#: Texts shorter than this (characters) are read without the automaton and the
#: derived gates (their fixed cost is more than a pass of every rule over a short text).
_GATE_MIN_TEXT = 2048

_DERIVED: dict[str, tuple[str, ...]] | None = None


def _derived_gates() -> dict[str, tuple[str, ...]]:
    """Rule name -> literals one of which every match of that rule holds, for the rules without ``needs``
    and the word-led rules (:attr:`Rule.triggers`).

    Read from each pattern's parse tree by
    :func:`memory_manager.prefilter.required_literals` (only patterns that
    cannot match a line break, so running them line by line finds what one
    run over the whole text finds), kept when selective enough
    (:data:`_GATE_MIN_ASCII`). Speed only: ``tests/test_privacy_scan_speedups.py``
    checks that the findings are those of the rules run over the whole text.
    Built on the first long scan (about 60 ms of CPU), not on import.
    """
    global _DERIVED
    if _DERIVED is None:
        from .prefilter import required_literals

        out: dict[str, tuple[str, ...]] = {}
        for rule in RULES_LIST:
            if rule.name in _TOPIC_EN_NAMES or rule.numeric or (rule.needs and not rule.needs_re and not rule.triggers):
                continue
            words = required_literals(rule.pattern, lower_text=not rule.lower)
            if words and all(_selective(w) for w in words):
                out[rule.name] = words
        _DERIVED = out
    return _DERIVED


_AUTOMATON: Any = None


def _automaton() -> Any:
    """One Aho-Corasick automaton (``pyahocorasick``) over every gate literal (``needs`` and derived), or False.

    False when the package is missing or reads offsets differently from
    Python's ``str`` (checked on a probe with a character outside the BMP):
    :class:`_LiteralIndex` then finds each literal with :meth:`str.find`.
    """
    global _AUTOMATON
    if _AUTOMATON is None:
        try:
            import ahocorasick
        except ImportError:  # pragma: no cover - declared dependency
            _AUTOMATON = False
            return _AUTOMATON
        words = {w for rule in RULES_LIST for w in rule.needs} | {w for ws in _derived_gates().values() for w in ws}
        auto = ahocorasick.Automaton()
        for w in words:
            auto.add_word(w, w)
        auto.make_automaton()
        probe = "\U0001f600\u4e2d" + "x" * 3 + sorted(words)[0]
        found = [end - len(w) + 1 for end, w in auto.iter(probe) if w == sorted(words)[0]]
        _AUTOMATON = auto if found == [probe.find(sorted(words)[0])] else False
    return _AUTOMATON


def prepare() -> None:
    """Build now what the first long scan would build (the derived gates and the automaton, about 60 ms).

    For a caller about to fork workers that scan (:func:`_scan_in_two`, the
    report's masker): they inherit the tables instead of each building them.
    """
    _derived_gates()
    _automaton()


class _LiteralIndex:
    """Where the gate literals occur in one lower-cased text: one pass for all of them.

    With the automaton (:func:`_automaton`) every occurrence of every literal
    is found in one pass over the text (about 0.02 s per MB, where a
    :meth:`str.find` pass per literal cost about 1 ms per MB each, for some
    400 literals); without it, each literal's lines are found with
    :meth:`str.find` when first asked for, as before.
    """

    def __init__(self, low: str, one_pass: bool = True) -> None:
        self.low = low
        self.at: dict[str, list[int]] | None = None
        self._lines: dict[str, list[tuple[int, int]]] = {}
        auto = _automaton() if one_pass else False
        if auto:
            at: dict[str, list[int]] = {}
            for end, word in auto.iter(low):
                got = at.get(word)
                if got is None:
                    at[word] = [end - len(word) + 1]
                else:
                    got.append(end - len(word) + 1)
            self.at = at

    def lines(self, words: tuple[str, ...]) -> list[tuple[int, int]]:
        """The lines holding any of ``words``: as :func:`_lines_with` (sorted ``(start, end)``, end past the break)."""
        if self.at is None:
            return _lines_with(self.low, words, self._lines)
        low, n = self.low, len(self.low)
        starts: list[int] = []
        for w in words:
            starts.extend(self.at.get(w, ()))
        if len(words) > 1:
            starts.sort()
        out: list[tuple[int, int]] = []
        end = -1
        for i in starts:
            if i < end:
                continue
            start = low.rfind("\n", 0, i) + 1
            end = low.find("\n", i)
            end = n if end < 0 else end + 1
            out.append((start, end))
        return out

    def within(self, words: tuple[str, ...], a: int, b: int) -> bool:
        """True when one of ``words`` occurs whole inside ``low[a:b]``."""
        if self.at is None:
            return any(self.low.find(word, a, b) >= 0 for word in words)
        for w in words:
            got = self.at.get(w)
            if got:
                i = bisect.bisect_left(got, a)
                if i < len(got) and got[i] + len(w) <= b:
                    return True
        return False


def _joined(spans: list[tuple[int, int]], n: int) -> list[tuple[int, int]] | None:
    """``spans`` (sorted lines) with near neighbours joined (:data:`_GATE_JOIN`); None when they cover most of ``n``."""
    out: list[tuple[int, int]] = []
    covered = 0
    for a, b in spans:
        if out and a - out[-1][1] < _GATE_JOIN:
            covered += b - out[-1][1]
            out[-1] = (out[-1][0], b)
        else:
            covered += b - a
            out.append((a, b))
    return None if covered > n * _GATE_MAX_SHARE else out


def _matches(text: str, low: str) -> Iterator[tuple[Rule, re.Match[str]]]:
    """Yield (rule, match) for every rule, in table order (the topic keywords last).

    No rule matches across a line break, so running a rule over each stretch
    of :func:`_chunks` (``finditer`` with ``pos``/``endpos``: offsets stay
    those of the whole text, and look-behinds still see the text before)
    finds the same matches as one run over the text, while a rule with
    ``needs`` skips the stretches that cannot hold a match. A rule without
    ``needs`` whose pattern names literals one of which every match holds
    (:func:`_derived_gates`) runs only over the lines holding one. Every
    literal is found in one pass (:class:`_LiteralIndex`).
    """
    regions = _numeric_regions(text)
    chunks = _chunks(text)
    seen: dict[tuple[int, int], bool] = {}
    # For mask (:data:`_topics_off`): the sensitive-topic rules are not run; no other rule's
    # matches depend on them (each rule runs by itself; ``seen`` only caches a key-word search).
    no_topics = _topics_off > 0
    # On a short text (a note, a line) a pass per rule is cheap and the gates'
    # own work is not: it is read as before, without the automaton or derived gates.
    long_text = len(low) >= _GATE_MIN_TEXT
    literals = _LiteralIndex(low, one_pass=long_text)
    derived = _derived_gates() if long_text else {}
    for rule in RULES_LIST:
        if rule.name in _TOPIC_EN_NAMES or rule.triggers or (no_topics and rule.category in TOPIC_CATEGORIES):
            continue
        if rule.numeric:
            for rs, re_ in regions:
                for m in rule.pattern.finditer(text, rs, re_):
                    yield rule, m
            continue
        subject = low if rule.lower else text
        if not (rule.needs or rule.needs_re):
            words = derived.get(rule.name)
            spans = _joined(literals.lines(words), len(low)) if words else None
            if spans is None:
                for m in rule.pattern.finditer(subject):
                    yield rule, m
            else:
                for a, b in spans:
                    for m in rule.pattern.finditer(subject, a, b):
                        yield rule, m
            continue
        if rule.needs_re is None:
            # Only the lines that hold one of the literals (every match holds one).
            for a, b in literals.lines(rule.needs):
                for m in rule.pattern.finditer(subject, a, b):
                    yield rule, m
            continue
        words = derived.get(rule.name)
        for a, b in chunks:
            if not literals.within(rule.needs, a, b):
                # A key-word pattern can cost more than the rule (``_PERSONAL_TIME``
                # over 4 MB: about a second), so it is searched only where the
                # rule itself matches, once per stretch for all rules sharing it;
                # and the rule only where one of its derived literals is.
                if words is not None and not literals.within(words, a, b):
                    continue
                if rule.pattern.search(subject, a, b) is None:
                    continue
                key = (id(rule.needs_re), a)
                found = seen.get(key)
                if found is None:
                    found = seen[key] = rule.needs_re.search(low, a, b) is not None
                if not found:
                    continue
            for m in rule.pattern.finditer(subject, a, b):
                yield rule, m

    # A word-led rule with a derived gate is tried only at the words of the
    # lines holding one of its literals (the same words, tried the same way).
    gated: set[str] = set()
    for rule in _TRIGGERED_RULES if derived else ():
        words = derived.get(rule.name)
        if not words or (no_topics and rule.category in TOPIC_CATEGORIES):
            continue
        spans = literals.lines(words)
        if sum(b - a for a, b in spans) > len(low) * _TOKEN_GATE_MAX_SHARE:
            continue
        gated.add(rule.name)
        heads = rule.triggers
        for a, b in spans:
            for token in _TOKEN.finditer(low, a, b):
                if token.group()[:3] in heads:
                    m = rule.pattern.match(low, token.start())
                    if m is not None:
                        yield rule, m
    # Trying the keyword alternation at every character costs more than
    # all other rules together; trying it only where a word starts with one
    # of the keywords' first three letters is 5x cheaper and finds the same.
    match_at = _TOPIC_EN_PATTERN.match
    by_trigger = _TRIGGERED_NO_TOPICS if no_topics else _TRIGGERED
    topic_heads = frozenset() if no_topics else _TOPIC_EN_TRIGGERS
    for token in _TOKEN.finditer(low):
        head = token.group()[:3]
        if head in topic_heads:
            m = match_at(low, token.start())
            if m is not None:
                yield _TOPIC_EN[int(m.lastgroup[1:])], _Sub(m, m.lastgroup)  # type: ignore[index]
        rules = by_trigger.get(head)
        if rules:
            pos = token.start()
            for rule in rules:
                if gated and rule.name in gated:
                    continue  # read above, over its lines
                m = rule.pattern.match(low, pos)
                if m is not None:
                    yield rule, m


#: first three letters of a word -> the word-led rules to try there (:attr:`Rule.triggers`).
_TRIGGERED: dict[str, list[Rule]] = {}
for _rule in RULES_LIST:
    for _head in _rule.triggers:
        _TRIGGERED.setdefault(_head, []).append(_rule)
_TRIGGERED_RULES = [rule for rule in RULES_LIST if rule.triggers]
#: The same without the sensitive-topic rules (read by :func:`mask`, which has no use for them).
_TRIGGERED_NO_TOPICS = {head: kept for head, rules in _TRIGGERED.items()
                        if (kept := [rule for rule in rules if rule.category not in TOPIC_CATEGORIES])}


class _Sub:
    """A view of one named group of a combined match, shaped like a rule's own match (group 0 only)."""

    __slots__ = ("_m", "_g", "re")

    def __init__(self, m: re.Match[str], group: str | None) -> None:
        self._m, self._g, self.re = m, group, m.re

    def span(self, g: int = 0) -> tuple[int, int]:
        return self._m.span(self._g)

    def start(self, g: int = 0) -> int:
        return self._m.start(self._g)

    def end(self, g: int = 0) -> int:
        return self._m.end(self._g)

    def group(self, g: int = 0) -> str:
        return self._m.group(self._g)


#: Characters removed from the scanned view: every Unicode
#: Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1):
#: soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul and
#: Mongolian fillers and selectors, zero-width space/joiners, LRM/RLM, bidi
#: embeddings, overrides and isolates, word joiner and invisible operators,
#: variation selectors, BOM, tag characters. A user can type or paste any of
#: them inside a number or token without it showing (privacy issue 9; issue
#: 10, attack round 6: CGJ, VS16 and a tag character inside a token).
_IGNORABLE_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
                     (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
                     (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
                     (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
                     (0xE0000, 0xE0FFF))


def _is_ignorable(c: str) -> bool:
    o = ord(c)
    return any(lo <= o <= hi for lo, hi in _IGNORABLE_RANGES)


#: Typographic dashes and minus signs read as ``-`` (hyphen, non-breaking
#: hyphen, figure dash, en/em dash, horizontal bar, minus sign, small and
#: full-width hyphen-minus): a number copied from a word processor or a web
#: page has them between its groups (issue 10, attack round 6).
#: Typographic apostrophes (right and left single quotation marks, the modifier letter apostrophe) read as
#: ``'``: "Alzheimer’s", "Jehovah’s Witness", "nurses’ union" as typed by phones and word processors.
_APOSTROPHES = frozenset("\u2019\u2018\u02bc")
_DASHES = dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d", "-")
#: Characters that may change under NFKC or are invisible: anything outside
#: ASCII and the CJK Unified Ideographs block (both NFKC-stable).
_MAYBE_ODD = re.compile(r"[^\x00-\x7f\u4e00-\u9fff]")
_NFKC_CACHE: dict[str, str] = {}
#: Per character left as it is by :func:`_fold`: 1 a combining mark (Mn),
#: 2 a look-alike letter (:func:`_look_alikes`), 0 neither.
_KIND: dict[str, int] = {}
#: A word for the look-alike check: letters, digits, underscore, and the
#: marks and invisible characters that may sit inside one.
_WORD_CHARS = re.compile(r"[\w\u0300-\u036f\u034f\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f\U000e0000-\U000e007f]+")
_ASCII_WORD = re.compile(r"[A-Za-z0-9_]")
#: Scripts whose letters are read as their Latin look-alike in a mixed word.
_LOOK_ALIKE_SCRIPTS = ("CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "LATIN")
_LOOK_ALIKES: dict[str, str] | None = None


def _look_alikes() -> dict[str, str]:
    """The table {non-ASCII letter: the ASCII letter or digit it looks like}, built once.

    Source: Unicode's confusables data (UTS #39, confusables.txt) as shipped
    by the ``confusable_homoglyphs`` package; only letters of the scripts in
    :data:`_LOOK_ALIKE_SCRIPTS` whose prototype is one ASCII letter or digit.
    A small letter without an ASCII prototype takes its capital's, lowered
    (Cyrillic ``\u043a`` -> ``K`` -> ``k``). Where the prototype is lower case
    for an upper-case letter (confusables reads ``I`` as ``l``), the letter's
    own lower case decides (Cyrillic
    ``\u0406`` -> ``\u0456`` -> ``i`` -> ``I``), so ``H\u0406V`` reads ``HIV``.
    """
    global _LOOK_ALIKES
    if _LOOK_ALIKES is not None:
        return _LOOK_ALIKES
    from confusable_homoglyphs.confusables import confusables_data

    def target(c: str) -> str | None:
        for item in confusables_data.get(c, ()):
            t = item.get("c", "")
            if len(t) == 1 and t.isascii() and t.isalnum():
                return t
        return None

    table: dict[str, str] = {}
    for c in confusables_data:
        if len(c) != 1 or c.isascii() or not c.isalpha():
            continue
        if unicodedata.name(c, "").split(" ")[0] not in _LOOK_ALIKE_SCRIPTS:
            continue
        t = target(c)
        if t is None and c.islower() and len(c.upper()) == 1:
            # confusables reads Cyrillic ka as the Latin kra; its capital is K.
            upper = target(c.upper())
            t = upper.lower() if upper and upper.isalpha() else None
        if t is None:
            continue
        if c.isupper() and t.islower():
            lower = target(c.lower()) if len(c.lower()) == 1 else None
            t = lower.upper() if lower and lower.isalpha() else t.upper()
        table[c] = t
    _LOOK_ALIKES = table
    return table


def _mixed_word_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each word of ``text`` that mixes ASCII letters, digits or ``_`` with look-alike letters.

    UTS #39 mixed-script detection restricted to what an attacker writes: a
    Latin token or name with a Cyrillic or Greek letter in it. A word of
    Russian or Greek prose has no ASCII in it and is left as it is.
    """
    table = _look_alikes()
    out = []
    for m in _WORD_CHARS.finditer(text):
        w = m.group()
        if w.isascii() or not _ASCII_WORD.search(w):
            continue
        if any(c in table for c in w):
            out.append(m.span())
    return out


def _fold(c: str) -> str:
    """The view of one character on its own (see :func:`normalise`)."""
    new = _NFKC_CACHE.get(c)
    if new is None:
        if _is_ignorable(c):
            new = ""
        elif c in _DASHES:
            new = "-"
        elif c in _APOSTROPHES:
            new = "'"
        else:
            new = unicodedata.normalize("NFKC", c)
            if "\n" in new or "\r" in new:
                new = c
            new = "".join(_DASHES.get(x, x) for x in new)
        _NFKC_CACHE[c] = new
    return new


def normalise(text: str) -> tuple[str, list[int] | None]:
    """Return (the view of ``text`` that rules run on, offset map or None).

    The view is ``text`` under Unicode NFKC, applied per character (full-width
    digits and letters typed with a Chinese IME become ASCII, the ideographic
    space a space), with every Default_Ignorable_Code_Point removed
    (:data:`_IGNORABLE_RANGES`: zero-width characters, CGJ, variation
    selectors, bidi controls, tag characters), so ``１５８\u200b1234`` reads as
    ``1581234`` (privacy issue 9). Further (issue 10, attack round 6):

    - a combining mark (category Mn) right after an ASCII letter or digit
      (or after another such mark) is removed, so ``ghp_k\u0301…`` reads as
      the token;
    - typographic dashes and the minus sign read as ``-`` (:data:`_DASHES`);
    - in a word that mixes ASCII letters, digits or ``_`` with Cyrillic,
      Greek or other look-alike letters (UTS #39 mixed script), each
      look-alike reads as the Latin letter it looks like
      (:func:`_look_alikes`); Russian or Greek prose is not rewritten.

    The map gives, for each index of the view (plus one past the end), the
    index of the original character it came from; None when the view equals
    ``text``. Line breaks are kept, so a view line is the same line of
    ``text``.
    """
    if text.isascii():
        return text, None
    pieces: list[str] = []
    mapping: list[int] = []
    last = 0
    changed = False
    mixed: list[tuple[int, int]] | None = None
    mixed_at = 0
    glue = -2  # index after which a combining mark is dropped
    for m in _MAYBE_ODD.finditer(text):
        c = m.group()
        i = m.start()
        new = _fold(c)
        if new == c:
            kind = _KIND.get(c)
            if kind is None:
                kind = _KIND[c] = (1 if unicodedata.category(c) == "Mn" else
                                   2 if c in _look_alikes() else 0)
            if not kind:
                continue
            if kind == 1:
                if i and (glue == i - 1 or (text[i - 1].isascii() and text[i - 1].isalnum())):
                    new = ""
                    glue = i
            else:
                if mixed is None:
                    mixed = _mixed_word_spans(text)
                if mixed_at >= len(mixed):
                    continue
                while mixed_at < len(mixed) and mixed[mixed_at][1] <= i:
                    mixed_at += 1
                if mixed_at < len(mixed) and mixed[mixed_at][0] <= i:
                    new = _look_alikes().get(c, c)
            if new == c:
                continue
        elif new == "":
            if glue == i - 1 or (i and text[i - 1].isascii() and text[i - 1].isalnum()):
                glue = i
        changed = True
        pieces.append(text[last:i])
        mapping.extend(range(last, i))
        pieces.append(new)
        mapping.extend([i] * len(new))
        last = i + 1
    if not changed:
        return text, None
    pieces.append(text[last:])
    mapping.extend(range(last, len(text) + 1))
    return "".join(pieces), mapping


#: Digits written as words, as a voice note or a careful user types them (issue 9, obfuscation by
#: typing; round 15: "ATM pin is four seven two nine", "银行卡密码 幺三五七九零", "social is five three
#: six, two two, eight one four seven"). English words apart (spaces, commas, hyphens between them);
#: Chinese numerals side by side (幺 is the "one" read out in phone numbers, 〇 and 零 zero).
_DIGIT_WORDS_EN = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                   "seven": "7", "eight": "8", "nine": "9"}
_DIGIT_CHARS_ZH = {"零": "0", "〇": "0", "一": "1", "幺": "1", "二": "2", "两": "2", "三": "3", "四": "4",
                   "五": "5", "六": "6", "七": "7", "八": "8", "九": "9"}
_EN_DIGIT_WORD = r"(?:zero|one|two|three|four|five|six|seven|eight|nine)"
#: Four digit words or more: fewer are ordinary prose ("one or two", "三四个").
_SPELLED_RUN = re.compile(r"(?i)(?<![a-z])" + _EN_DIGIT_WORD + r"(?:[ \t,\-]{1,3}" + _EN_DIGIT_WORD + r"){3,}(?![a-z])"
                          r"|[零〇一幺二两三四五六七八九]{4,}"
                          # single digits spaced out ("1 3 8 6 0 0 2 3 5 7 8"): seven or more
                          r"|(?<![\d.,:/-])\d(?: \d){6,}(?![\d.,:/-])")


def spelled_digits(text: str) -> tuple[str, list[int], list[int]] | None:
    """The view of ``text`` with digits written as words or spaced out read as digits, or None.

    Each run of four or more English digit words ("four seven two nine"; spaces,
    commas or hyphens between them), four or more Chinese numerals side by side
    (幺三五七九零) or seven or more single digits spaced out becomes the digits it
    spells (``4729``), so the number rules (PINs, passwords after their key word,
    phones, ID and account numbers) read it (issue 9, "obfuscation by typing").

    Returns:
        ``(view, starts, ends)`` as :func:`memory_manager.decoding.views` gives them
        (``view[i]`` stands for ``text[starts[i]:ends[i]]``), or None when ``text``
        holds no such run (the common case: one regular-expression pass).
    """
    runs = list(_SPELLED_RUN.finditer(text))
    if not runs:
        return None
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    last = 0
    for m in runs:
        pieces.append(text[last:m.start()])
        starts.extend(range(last, m.start()))
        ends.extend(range(last + 1, m.start() + 1))
        for w in re.finditer(r"(?i)[a-z]+|\d|[零〇一幺二两三四五六七八九]", m.group()):
            word = w.group()
            digit = word if word.isdigit() else _DIGIT_WORDS_EN.get(word.lower()) or _DIGIT_CHARS_ZH.get(word, "")
            pieces.append(digit)
            starts.extend([m.start() + w.start()] * len(digit))
            ends.extend([m.start() + w.end()] * len(digit))
        last = m.end()
    pieces.append(text[last:])
    starts.extend(range(last, len(text)))
    ends.extend(range(last + 1, len(text) + 1))
    return "".join(pieces), starts, ends


def _load_t2s() -> tuple[dict[int, str], re.Pattern[str] | None]:
    """Traditional -> Simplified Chinese, one character for one (OpenCC's TSCharacters table, from the
    ``opencc-python-reimplemented`` package; its first reading of each character). One for one keeps every
    offset, so the Chinese rules, written in Simplified characters, read 高血壓/步態辨識/帳號 as they read
    高血压/步态识别/账号 (issue 9, round 5: Taiwan and Hong Kong phrasings were missed). Empty without the
    package: the rules then see the text as it is."""
    try:
        import opencc  # noqa: F401  (the data file ships next to the module)
    except ImportError:  # pragma: no cover - declared dependency
        return {}, None
    path = os.path.join(os.path.dirname(opencc.__file__), "dictionary", "TSCharacters.txt")
    table: dict[int, str] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for row in handle:
                parts = row.rstrip("\n").split("\t")
                if len(parts) < 2 or len(parts[0]) != 1:
                    continue
                simple = parts[1].split(" ")[0]
                if len(simple) == 1 and simple != parts[0] and ord(simple) < 0x10000 and ord(parts[0]) < 0x10000:
                    table[ord(parts[0])] = simple
    except OSError:  # pragma: no cover - a broken install
        return {}, None
    if not table:
        return {}, None
    return table, re.compile("[" + "".join(sorted(chr(c) for c in table)) + "]")


_T2S, _TRADITIONAL = _load_t2s()


def fold_traditional(text: str) -> str:
    """``text`` with Traditional Chinese characters replaced by their Simplified form, same length (see
    :func:`_load_t2s`); ASCII text and text without Traditional characters are returned as they are."""
    if _TRADITIONAL is None or text.isascii() or _TRADITIONAL.search(text) is None:
        return text
    return text.translate(_T2S)


#: Characters of text from which :func:`scan` shares the work with a forked
#: child on a machine with two or more cores (below it the fork and the
#: transfer cost more than they save; 4 M characters is about 4 s of CPU).
PARALLEL_CHARS = 4_000_000
#: Characters each half reads past the cut (to whole lines), so that every
#: check that reads around a match sees what it sees in the whole text.
_PARALLEL_OVERLAP = 4096
#: > 0 while :func:`serial_scans` is active: no scan forks (the caller runs
#: its own processes, e.g. the report's masker).
_serial_depth = 0
#: > 0 while :func:`mask` scans: :func:`_matches` skips the sensitive-topic rules
#: (:data:`TOPIC_CATEGORIES`), whose findings mask never uses (see :func:`mask`).
_topics_off = 0
#: Whether mask may skip them: only while no topic category is tier 3 (checked here, not assumed).
_MASK_SKIPS_TOPICS = not any(CATEGORIES[c][1] for c in TOPIC_CATEGORIES)


class serial_scans:
    """Context manager: no :func:`scan` inside it forks a child (nesting allowed)."""

    def __enter__(self) -> "serial_scans":
        global _serial_depth
        _serial_depth += 1
        return self

    def __exit__(self, *exc: object) -> None:
        global _serial_depth
        _serial_depth -= 1


def _line_of(text: str, offset: int) -> int:
    """The 0-based index of the line holding ``offset`` (lines as :data:`_LINE_BREAK` splits them)."""
    return sum(1 for _ in _LINE_BREAK.finditer(text, 0, offset))


def _scan_in_two(text: str) -> list[Finding] | None:
    """:func:`scan` of a long ``text`` by this process and a forked child, or None when it cannot be cut.

    The text is cut at the line break nearest its middle. This process scans
    from the start to :data:`_PARALLEL_OVERLAP` characters past the cut and
    keeps the findings of the lines before it; the child scans from the same
    distance before the cut to the end and keeps the lines from it on. No
    finding spans a line break, so each finding is kept exactly once, with
    the line number and offsets it has in the whole text
    (``tests/test_privacy_scan_speedups.py`` compares both ways). The child
    is run by :func:`memory_manager.forked.in_child` (findings cross the
    pipe pickled); if it fails in any way its half is scanned here.
    """
    from .forked import in_child

    cut = text.find("\n", len(text) // 2)
    if cut < 0 or cut + 1 >= len(text):
        return None
    cut += 1  # the first line of the second half starts here
    a_end = text.find("\n", cut + _PARALLEL_OVERLAP)
    a_end = len(text) if a_end < 0 else a_end + 1
    b_start = text.rfind("\n", 0, max(0, cut - _PARALLEL_OVERLAP)) + 1
    # Some checks read the lines around a finding (a heading above, a paragraph's disclaimer: at most
    # _CONTEXT_LINES lines, see _paragraph_around): both parts reach that many more lines past the overlap.
    for _ in range(_CONTEXT_LINES + 1):
        if a_end < len(text):
            nxt = text.find("\n", a_end)
            a_end = len(text) if nxt < 0 else nxt + 1
        if b_start > 0:
            b_start = text.rfind("\n", 0, b_start - 1) + 1
    first_b = _line_of(text, b_start)  # lines of the whole text before the child's part
    cut_line = _line_of(text, cut)

    def second_half() -> list[Finding]:
        return [replace(f, line=f.line + first_b) for f in _scan_serial(text[b_start:])
                if f.line - 1 + first_b >= cut_line]

    prepare()  # built once here, inherited by the child
    theirs = in_child(second_half, lambda got: isinstance(got, list) and all(isinstance(f, Finding) for f in got))
    mine = [f for f in _scan_serial(text[:a_end]) if f.line - 1 < cut_line]
    got = theirs()
    return mine + (got if got is not None else second_half())


#: A value still encoded after :data:`memory_manager.decoding.DEPTH` decoding layers (tatk7, issue
#: 10 round 6: nine layers of Base64 hid a token). What it holds is unknown, so it is a possible
#: secret: stored only when the user approves, never taken for clean text. Matches nothing itself.
TOO_DEEP = Rule("encoded-too-deep", "secret", re.compile(r"(?!)"),
                "issue 10: text encoded more times than the detector decodes is not read as clean",
                confidence="possible")


def scan(text: str) -> list[Finding]:
    """Scan ``text`` and return findings in line order.

    From :data:`PARALLEL_CHARS` characters on, on a machine with two or more
    cores where ``os.fork`` exists (and outside :class:`serial_scans`), a
    forked child scans the second half (:func:`_scan_in_two`): the same
    findings in about half the time.

    Args:
        text: any text (a note, a line, a whole file). Lines are split as
            :meth:`str.splitlines` does; no finding spans a line break.

    Returns a list of :class:`Finding` sorted by (line, start); empty when
    nothing was found. Where rules overlap, the first rule in :data:`RULES`
    wins (a card number is not also reported as a phone number), except that
    sensitive-topic keywords are always reported.

    Encoded text counts as what it decodes to (issue 10, attack round 5):
    the lines holding a percent-, backslash-, HTML-entity- or
    quoted-printable-encoded stretch, or a hex/Base32/Base64 run that decodes
    to printable text, are scanned again decoded
    (:func:`memory_manager.decoding.views`, double encodings included), and a
    finding there keeps its rule's confidence (a GitHub token in Base64 is
    as certain as in plain text). Its offsets cover the encoded characters it
    came from. A token-shaped run cut by a line break is read joined too
    (:func:`memory_manager.decoding.wrapped`, issue 10 round 6); a finding
    there counts only when its value crosses the break, and then spans both
    lines (its ``end`` is past the first line's end).
    """
    if not text:
        return []
    if len(text) >= PARALLEL_CHARS and not _serial_depth and (os.cpu_count() or 1) >= 2 and hasattr(os, "fork"):
        found = _scan_in_two(text)
        if found is not None:
            return found
    return _scan_serial(text)


def _scan_serial(text: str) -> list[Finding]:
    """:func:`scan` in this process alone."""
    if not text:
        return []
    chosen = _spans(text)
    too_deep: list[tuple[int, int]] = []
    for view, starts, ends in views(text, too_deep=too_deep):
        chosen = _merge_decoded(chosen, [(starts[s], ends[e - 1], rule, starts[vs], ends[ve - 1])
                                         for s, e, rule, vs, ve in _spans(view) if e > s and ve > vs])
    for start, end in too_deep:
        # Still decoding after every layer read: unread, so never taken as clean (a possible
        # finding: the user may approve it). The line's own findings keep their place.
        chosen = _merge_decoded(chosen, [(start, end, TOO_DEEP, start, end)])
    blocks = text_blocks(text) if "\n" in text else []
    if blocks:
        # A Base64 block of text (gzip'd or not) counts as what it says (memory_manager.structure).
        parts, starts, ends = [], [], []
        for s, e, decoded in blocks:
            if parts:
                parts.append("\n")
                starts.append(s)
                ends.append(s)
            parts.append(decoded)
            starts.extend([s] * len(decoded))
            ends.extend([e] * len(decoded))
        view = "".join(parts)
        chosen = _merge_decoded(chosen, [(starts[s], ends[e - 1], rule, starts[vs], ends[ve - 1])
                                         for s, e, rule, vs, ve in _spans(view) if e > s and ve > vs])
    spelled = spelled_digits(text)
    if spelled is not None:
        # Digits written as words or spaced out, read as digits: only a finding whose value holds
        # such a run counts (the rest of the line was read above).
        view, starts, ends = spelled
        runs = [m.span() for m in _SPELLED_RUN.finditer(text)]
        chosen = _merge_decoded(chosen, [(starts[s], ends[e - 1], rule, starts[vs], ends[ve - 1])
                                         for s, e, rule, vs, ve in _spans(view) if e > s and ve > vs
                                         and any(a < ends[ve - 1] and starts[vs] < b for a, b in runs)])
    joined = wrapped(text)
    if joined is not None:
        # A run cut by a line break, read joined (decoding.wrapped): only what the
        # join makes counts, a value across the break; randomness alone is no
        # evidence there (two random-looking halves always make a random run).
        view, starts, ends = joined
        chosen = _merge_decoded(chosen, [(starts[s], ends[e - 1], rule, starts[vs], ends[ve - 1])
                                         for s, e, rule, vs, ve in _spans(view)
                                         if e > s and ve > vs and rule.name not in _NOT_ACROSS_LINES
                                         and "\n" in text[starts[vs]:ends[ve - 1]]
                                         and _joined_number_ok(rule, view, s, e, vs, ve, typed=True)])
    if "\n" in text:
        chosen = _merge_decoded(chosen, _joined_spans(text))
    chosen = _merge_decoded(chosen, _word_list_spans(text))
    if not chosen:
        return []
    if "\n" in text:
        chosen = [span for span in chosen if not _published_across_lines(text, span)]
    if not chosen:
        return []
    line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
    findings = []
    for start, end, rule, vs, ve in chosen:
        index = bisect.bisect_right(line_starts, start) - 1
        base = line_starts[index]
        value = text[vs:ve]
        shown = value if rule.keep else redact(value)
        excerpt = text[start:vs] + shown + text[ve:end]
        if len(excerpt) > 80:
            excerpt = excerpt[:77] + "..."
        findings.append(Finding(rule.category, rule.name, index + 1, start - base, end - base, excerpt, rule.sure))
        other = _UNIONPAY_BOTH.get(rule.category)
        if other and _unionpay_account(value) and _debit_line(text, start, end):
            findings.append(Finding(other, _UNIONPAY_BOTH_RULE[other], index + 1, start - base, end - base, excerpt,
                                    rule.sure))
    findings.sort(key=lambda f: (f.line, f.start, f.rule))
    return findings


#: A UnionPay debit card number (62, 16-19 digits, Luhn-valid) on a line that names a bank or a
#: transfer (:func:`_debit_line`) is both a card and the bank account it draws on: in China the card
#: number is what a transfer is sent to (工资卡, 银行卡号, 转到我农行卡). Found as one, it is reported
#: as the other too (round 15: writers label the same line either way).
_UNIONPAY_BOTH = {"payment_card": "bank_account", "bank_account": "payment_card"}
_UNIONPAY_BOTH_RULE = {"bank_account": "unionpay_debit_account", "payment_card": "unionpay_debit_card"}


#: A bank, a transfer or a debit card named on the line, and no credit card (信用卡 is a card, not an account).
_DEBIT_CUE = re.compile(r"(?i)银行|[农建工中招交邮]行|邮储|储蓄|借记|工资卡|公积金|开户|存折|转账|转到|打到|汇款|收款|"
                        r"转[^\n]{0,4}(?:租|钱|款)|\bbank\b|\baccount\b|\bdebit\b")
_CREDIT_CUE = re.compile(r"(?i)信用卡|贷记卡|\bcredit\b")


def _debit_line(text: str, start: int, end: int) -> bool:
    """True when the line around ``text[start:end]`` names a bank or a transfer and no credit card (:data:`_DEBIT_CUE`)."""
    line = _line_around(text, start, end)
    return bool(_DEBIT_CUE.search(line)) and not _CREDIT_CUE.search(line)


def _unionpay_account(value: str) -> bool:
    """True for a UnionPay debit number: 62 then 14-17 more digits (separators allowed), Luhn-valid."""
    digits = re.sub(r"\D", "", unicodedata.normalize("NFKC", value))
    return 16 <= len(digits) <= 19 and digits.startswith("62") and luhn_valid(digits)


#: What a number read joined over a line break (:func:`memory_manager.structure.number_joins`) needs
#: around it to count, per category: build numbers, counters and timestamps are cut by line breaks too.
_JOINED_NUMBER_CUE = {
    "phone": re.compile(r"(?i)\btel\b|phone|mobile|\bcell\b|whatsapp|signal|\bcalls?\b|contact|number|landlord|"
                        r"手机|电话|電話|手機|致电|打给|联系|号码|房东|微信同号|"
                        # a family or household word glued or next to it (atk11: ``mom138123`` / ``45678``)
                        r"(?<![a-z])(?:wife|husband|partner|mom|mum|mother|dad|father|sister|brother|son|daughter|"
                        r"girlfriend|boyfriend|grandma|grandpa|aunt|uncle|nanny|babysitter|doctor)(?![a-z])|"
                        r"老婆|老公|妈妈|我妈|爸爸|我爸|姐姐|妹妹|哥哥|弟弟|儿子|女儿|保姆"),
    "payment_card": re.compile(r"(?i)card|visa|master|amex|unionpay|discover|\bjcb\b|卡"),
    "government_id": re.compile(r"(?i)身份证|證件|证件|\bid\b|identity|passport|护照|nric|\bssn\b|national|居民"),
    "bank_account": re.compile(r"(?i)iban|account|bank|账户|账号|帐号|開戶|开户|银行|銀行"),
}


def _joined_spans(text: str) -> list[_Span]:
    """Findings of the readings across line breaks (:mod:`memory_manager.structure`): a secret on the
    line after its label, a URL or an e-mail address wrapped, a number cut over lines.

    A finding counts when its match crosses a line break (what one line shows is read there
    already) and is not a randomness-only rule; a joined number counts as a phone, card, ID or
    account only with a word of its kind on its lines or the two before (:data:`_JOINED_NUMBER_CUE`),
    or, for a phone, an international prefix.
    """
    out: list[_Span] = []
    got = label_joins(text)
    if got is not None:
        view, starts, ends = got
        out.extend((starts[s], ends[e - 1], rule, starts[vs], ends[ve - 1]) for s, e, rule, vs, ve in _spans(view)
                   if e > s and ve > vs and rule.name not in _NOT_ACROSS_LINES
                   and rule.category not in TOPIC_CATEGORIES and "\n" in text[starts[s]:ends[e - 1]]
                   and _joined_number_ok(rule, view, s, e, vs, ve))
    got = number_joins(text)
    if got is not None:
        view, starts, ends = got
        for s, e, rule, vs, ve in _spans(view):
            if not (e > s and ve > vs) or "\n" not in text[starts[vs]:ends[ve - 1]]:
                continue
            if rule.category in _JOINED_NUMBER_CUE and _joined_number_ok(rule, view, s, e, vs, ve):
                out.append((starts[s], ends[e - 1], rule, starts[vs], ends[ve - 1]))
    return out


#: Words of the numbers a system counts (a build, a job, an order, a timestamp): beside them a phone
#: number read joined needs a telephone word proper, not just "number" or 号码.
_COUNTED_NUMBER = re.compile(r"(?i)build|version|release|\bjob|\brun\b|order|ticket|commit|pipeline|\btag\b|"
                             r"sprint|issue|counter|cycles|instructions|bytes|offset|timestamp|epoch|serial|"
                             r"构建|版本|流水号|订单|工单|批次|任务|镜像|时间戳|序列号")


def _joined_number_ok(rule: Rule, view: str, s: int, e: int, vs: int, ve: int, typed: bool = False) -> bool:
    """A number read across a line break counts with a word of its kind on its view line (see :func:`_joined_spans`);
    ``typed``: the view holds the characters as typed (the run join), so a number whose groups are
    separated as a phone number is written (``415-555`` / ``-0132``) counts without a word."""
    cue = _JOINED_NUMBER_CUE.get(rule.category)
    if cue is None:
        return True
    if typed and re.search(r"\d[-().]\d|\d-$|^[+(]", view[vs:ve].strip()):
        return True
    line = _line_around(view, s, e)
    if rule.category == "phone":
        if view[vs:ve].lstrip().startswith(("+", "00")) or _PHONE_CUE.search(line):
            return True
        return bool(cue.search(line)) and not _COUNTED_NUMBER.search(line)
    return bool(cue.search(line))


#: How sure each confidence is (higher is surer): a decoded or name reading
#: adds nothing where one of the same category at least as sure is kept.
CONFIDENCE_RANK = {TOPIC: 0, POSSIBLE: 1, CERTAIN: 2}
_Span = tuple[int, int, Rule, int, int]


def _merge_decoded(chosen: list[_Span], decoded: list[_Span]) -> list[_Span]:
    """``chosen`` plus each span of ``decoded`` not covered by a kept one of its category as sure or surer."""
    out = list(chosen)
    for span in decoded:
        _s, _e, rule, vs, ve = span
        if any(k[2].category == rule.category and k[3] < ve and vs < k[4]
               and CONFIDENCE_RANK[k[2].sure] >= CONFIDENCE_RANK[rule.sure] for k in out):
            continue
        out.append(span)
    return out


def _spans(text: str) -> list[_Span]:
    """The rules' matches in ``text`` as (start, end, rule, value start, value end), offsets of ``text``.

    Overlaps resolved as :func:`scan` says; ``text`` is read through its
    normalised view (:func:`normalise`) and offsets mapped back.
    """
    original = text
    text, mapping = normalise(original)
    text = fold_traditional(text)  # one character for one: offsets and the map stay valid
    low = _lowered(text)
    skip = _ciphertext_spans(text, low)
    skip_starts = [s for s, _ in skip]
    candidates: list[tuple[int, int, int, Rule, int, int]] = []
    for rule, m in _matches(text, low):
        g = rule.group
        vs, ve = m.span(g)
        if vs < 0 or vs == ve:
            continue
        start, end = m.span()
        if rule.not_after and start and text[start - 1] in rule.not_after:
            continue
        if rule.word and ((start and text[start - 1] in _LETTERS) or (end < len(text) and text[end] in _LETTERS)):
            continue
        if _LINE_BREAK.search(text, start, end):
            continue
        value = text[vs:ve]
        if skip and _overlaps(skip, skip_starts, vs, ve):
            continue
        if rule.check is not None and not rule.check(value, m, text):
            continue
        candidates.append((_PRIORITY[rule.name], m.start(), m.end(), rule, vs, ve))
    if not candidates:
        return []
    candidates.sort(key=lambda c: (c[0], c[1]))
    taken: list[tuple[int, int]] = []
    taken_starts: list[int] = []
    chosen = []
    for prio, start, end, rule, vs, ve in candidates:
        if rule.category not in TOPIC_CATEGORIES:
            if _overlaps(taken, taken_starts, vs, ve):
                continue
            i = bisect.bisect_left(taken_starts, vs)
            taken.insert(i, (vs, ve))
            taken_starts.insert(i, vs)
        chosen.append((start, end, rule, vs, ve))
    if mapping is not None:
        # Back to the text as given: a span of the view covers the original
        # characters from its first one's source to its last one's.
        def back(s: int, e: int) -> tuple[int, int]:
            return mapping[s], (mapping[e - 1] + 1 if e > s else mapping[s])

        chosen = [(*back(s, e), rule, *back(vs, ve)) for s, e, rule, vs, ve in chosen]
    return chosen


def mask(text: str) -> str:
    """Return ``text`` with every secret and T3 finding replaced by ``[category]``.

    For showing stored text back (recall snippets and headings): a secret or a
    phone number that reached a file the bundle did not write, such as
    OpenClaw's own daily notes, is never printed in full. Personal details and
    sensitive topics are left as they are: they are the user's own notes.
    """
    # The sensitive-topic rules are not run here (a quarter of the mask's time over a report's
    # text, issue 15 round 11): mask keeps only tier-3 findings, no topic category is tier 3
    # (_MASK_SKIPS_TOPICS), and a topic finding changes no other finding: it takes no part in
    # the overlap resolution of _spans (it is never "taken"), and _merge_decoded lets a kept
    # span cover only spans of its own category. So the tier-3 findings, and the mask, are
    # those of a full scan (tests/test_privacy_mask_topics.py compares both on the corpora).
    global _topics_off
    if _MASK_SKIPS_TOPICS:
        _topics_off += 1
    try:
        findings = [f for f in scan(text) if f.tier3]
        if not findings:
            return text
        return _masked(text, findings)
    finally:
        if _MASK_SKIPS_TOPICS:
            _topics_off -= 1


def _masked(text: str, findings: list[Finding]) -> str:
    """:func:`mask`'s replacement of ``findings`` (tier 3, non-empty) in ``text``."""
    # Offsets in the whole text (a finding read across a line break ends on a later line), widened by
    # the joined reading of a token a line break cuts (decoding.wrapped): scan keeps the first line's
    # finding there and drops the joined one it overlaps, so a mask of the finding alone would print the
    # token's second half (tatk10: a token wrapped over two lines of an OpenClaw note).
    line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
    ranges = [[line_starts[f.line - 1] + f.start, line_starts[f.line - 1] + f.end, f.category] for f in findings]
    for a, b, category in _wrapped_tier3_spans(text):
        for r in ranges:
            if r[0] < b and a < r[1]:
                r[0], r[1] = min(r[0], a), max(r[1], b)
                break
        else:
            ranges.append([a, b, category])
    ranges.sort(key=lambda r: (r[0], -r[1]))
    merged: list[list[Any]] = []
    for r in ranges:
        if merged and r[0] < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], r[1])
        else:
            merged.append(list(r))
    out = text
    for a, b, category in reversed(merged):
        out = out[:a] + _mask_segment(text[a:b], category) + out[b:]
    return out


def _wrapped_tier3_spans(text: str) -> list[tuple[int, int, str]]:
    """The T3 values :func:`scan` reads joined over a line break (:func:`memory_manager.decoding.wrapped`),
    as (start, end, category) offsets of ``text``: the same filter as scan's joined reading."""
    joined = wrapped(text) if "\n" in text else None
    if joined is None:
        return []
    view, starts, ends = joined
    return [(starts[vs], ends[ve - 1], rule.category) for s, e, rule, vs, ve in _spans(view)
            if e > s and ve > vs and CATEGORIES[rule.category][1] and rule.name not in _NOT_ACROSS_LINES
            and "\n" in text[starts[vs]:ends[ve - 1]] and _joined_number_ok(rule, view, s, e, vs, ve, typed=True)]


def _mask_segment(segment: str, category: str) -> str:
    """``segment`` masked as ``[category]``, its line breaks and the indentation after them kept (a value
    over two lines masks on both, the note's layout unchanged)."""
    parts = re.split("(" + _LINE_BREAK.pattern + ")", segment)
    out = []
    for i, part in enumerate(parts):
        if i % 2 or not part.strip():
            out.append(part)
        else:
            # A wrapped value's quote prefix, table bars and trailing backslash are the note's layout, kept.
            lead = part[:len(part) - len(part.lstrip(_WRAP_LAYOUT_LEAD))] if i else ""
            trail = part[len(part.rstrip(_WRAP_LAYOUT_TRAIL)):] if i < len(parts) - 1 else ""
            out.append(lead + f"[{category}]" + trail)
    return "".join(out)


#: Layout around the pieces of a wrapped value (:func:`memory_manager.decoding.wrapped`) that a mask keeps.
_WRAP_LAYOUT_LEAD = " \t\u3000>|\uff1e\uff5c"
_WRAP_LAYOUT_TRAIL = " \t|\\\uff5c"


# --------------------------------------------------------------------------
# Names and public text (issue 10, attack round 4): entry points over scan().
# --------------------------------------------------------------------------

#: The separators slug-style names use between words (``ssn-078-05-1120``,
#: ``mom_13812345678``): the rules expect a value to start after a space or
#: at the start, so a number glued to a word by one of these is invisible to them.
NAME_SEPARATORS = "-_"
#: At most this many one-separator readings of one line; names and paths hold a handful.
_MAX_NAME_VARIANTS = 24


def _name_variants(line: str) -> list[str]:
    """The readings of one name line that may show what the line as written hides.

    - each separator right after a letter, alone, read as a space: a word
      glued to a value (``ssn-078-05-1120``, ``mom_13812345678``,
      ``ops_ghp_...``), the value's own separators kept;
    - every ``_`` read as a space (``call_415_555_0132``): prose never writes
      a number's own separator as ``_``, while ``-`` joins ranges and dates
      (``20000-20099``), which stay as written.

    Every reading has the length of ``line`` (one character for one), so a
    finding's offsets in a reading are offsets in ``line``.
    """
    out: list[str] = []
    glued = [i for i, c in enumerate(line) if c in NAME_SEPARATORS and i and line[i - 1].isalpha()]
    for i in glued[:_MAX_NAME_VARIANTS]:
        out.append(line[:i] + " " + line[i + 1:])
    if "_" in line:
        out.append(line.replace("_", " "))
    return out


def scan_name(value: str) -> list[Finding]:
    """Scan a value that is or becomes a name (a file name, key, skill, topic, tag, path).

    Args:
        value: the name as written (one or more lines).

    Returns the findings of :func:`scan` over ``value`` as written and over
    its readings with separators ``-``/``_`` read as spaces
    (:func:`_name_variants`), so ``ssn-078-05-1120``, ``mom_13812345678`` and
    ``call_+14155550132`` are found as ``ssn 078-05-1120`` etc. would be.
    Offsets (``line``, ``start``, ``end``) are those of ``value``; a finding
    overlapping one already kept of the same category is dropped, unless it
    is surer (it then replaces the kept one). Sorted by
    (line, start). A sensitive-topic word counts whatever stands beside it in
    a slug (``hiv-clinic-reminder``), and in a name about the user (``my HIV
    diagnosis reminder``): tatk9 (:data:`_NAME_TOPICS`). Source: issue 10, attack
    round 4 (numbers glued into slug names passed every name door).
    """
    if not value:
        return []
    token = _NAME_TOPICS.set("slug" if _SLUG_NAME.fullmatch(value.strip()) else "text")
    try:
        return _scan_name(value)
    finally:
        _NAME_TOPICS.reset(token)


def _scan_name(value: str) -> list[Finding]:
    found = scan(value)
    # Lines as scan counts them (every Unicode line break, not only "\n"): a U+2028 or a \v in a
    # name numbered its findings past the lines split here (atk11: an unexpected IndexError).
    lines = _LINE_BREAK.split(value)
    readings: list[str] = []
    owner: list[int] = []
    for number, line in enumerate(lines, 1):
        for variant in _name_variants(line):
            readings.append(variant)
            owner.append(number)
    if readings:
        # One scan of all readings (one per line): much cheaper than a scan each.
        for f in scan("\n".join(readings)):
            moved = replace(f, line=owner[f.line - 1])
            over = [k for k in found if k.category == moved.category and k.line == moved.line
                    and k.start < moved.end and moved.start < k.end]
            if any(CONFIDENCE_RANK[k.confidence] >= CONFIDENCE_RANK[moved.confidence] for k in over):
                continue
            # A surer reading wins: ``ops-<Base32>`` is a random-looking run as written
            # (possible) and a GitHub token once the separator is read as a space (certain).
            found = [k for k in found if k not in over]
            found.append(moved)
    found.sort(key=lambda f: (f.line, f.start, f.rule))
    return found


#: A list of up to this many values is read in every run of neighbours; a longer
#: one in runs of up to :data:`_JOINED_SPAN` values and as a whole.
_JOINED_ALL = 16
_JOINED_SPAN = 8


def joined_readings(parts: Iterable[str]) -> list[str]:
    """The values of a list (tags) read together: each run of 2+ neighbours, joined with nothing and with a space.

    Args:
        parts: the values in the order they are written (``--tags a,b,c``).

    A token or a number pasted with a comma in it becomes two tags written
    side by side (``tags: [ghp_k3Jd…, …Gf]``); judged one at a time neither
    part is anything. Read joined, in order, ``ghp_k3Jd…Gf`` and
    ``415 555 0132`` are what they were. Every run of neighbours is read, not
    only the whole list, so a value is seen between other tags too; a list of
    more than :data:`_JOINED_ALL` values is read in runs of up to
    :data:`_JOINED_SPAN` and as a whole (the readings stay a few kilobytes).
    Source: issue 10, attack round 5 (a token split over two tags passed).
    Returns one string per reading, none for fewer than two values.
    """
    values = [p for p in parts if p]
    n = len(values)
    span = n if n <= _JOINED_ALL else _JOINED_SPAN
    out: list[str] = []
    for i in range(n):
        for j in range(i + 2, min(n, i + span) + 1):
            out.extend(("".join(values[i:j]), " ".join(values[i:j])))
    if span < n:
        out.extend(("".join(values), " ".join(values)))
    return out


def unechoed(message: str, argv: list[str] | None = None) -> str:
    """Return ``message`` with every command-line value that holds a secret or T3 finding masked.

    Error messages name the value they refuse (click's own "Invalid value for
    '--lang': '...'", "No such option", a domain error's ``not 'VALUE'``); a
    secret pasted into an option must never be echoed back (issue 10; atk13:
    ``write --date`` and click's choice and range errors printed a token in
    full). Each argument (and the value of an ``--opt=value`` argument) that
    :func:`memory_manager.privacy.mask` changes is replaced wherever the
    message holds it, as written or as Python's ``repr`` shows it, by its
    masked form (``[secret]``, as recall shows it). Only arguments, and the
    values the environment sets that messages name (the folders, ``HOME``,
    ``MEMORY_MANAGER_NOW``: :func:`memory_manager.workspace.echoed_values`),
    are scanned, so an ordinary message is never changed.

    Args:
        message: the one-line message about to be shown.
        argv: the arguments (default: ``sys.argv[1:]``).
    """
    import sys

    from .workspace import echoed_values

    # A folder named in the environment (OPENCLAW_WORKSPACE_DIR, OPENCLAW_STATE_DIR, HOME, ...) or a
    # refused MEMORY_MANAGER_NOW is echoed in the same messages as a value given as an option:
    # masked the same way (tatk17 kind 6; tatk18 3 and 4).
    values = echoed_values(sys.argv[1:] if argv is None else argv)
    if not values:
        return message
    # Longest first: a value inside a longer one (``--date=VALUE`` and ``VALUE``) is masked whole.
    for value in sorted(values, key=len, reverse=True):
        forms = [f for f in dict.fromkeys([value, repr(value)[1:-1]]) if f in message]
        if not forms:
            continue
        masked = _mask_arg(value)
        if masked == value and any(len(v) > len(value) and v.startswith(value)
                                   and not _mask_arg(v).startswith(value) for v in values):
            # the first characters of a longer value whose finding starts inside them (the clock shows the
            # first 60 of MEMORY_MANAGER_NOW): the cut no longer reads as a token, so it is masked whole
            # (tatk20 3). A value that ends before the finding starts (the folder of ``<folder>/ws-<token>``)
            # is shown as it is.
            masked = "[secret]"
        if masked == value:
            continue
        for form in forms:
            message = message.replace(form, masked)
    return message


def _mask_arg(value: str) -> str:
    """One command-line value masked as text (:func:`mask`), else as a name, part by part for a path.

    As a path, only the last part and the parts that do not exist yet are read
    as names (as :func:`memory_manager.names.refuse_private_path` reads them):
    folders that exist already are the user's file system, named before (a
    test folder named after its test would read as a finding).
    """
    masked = mask(value)
    if masked != value:
        return masked
    parts = re.split(r"([/\\=])", value)  # a path's parts (and an --opt=value's), separators kept
    last = max((n for n, p in enumerate(parts) if p and p not in ("/", "\\", "=")), default=-1)
    out = []
    for n, part in enumerate(parts):
        if part and part not in ("/", "\\", "=") and (n == last or not os.path.lexists("".join(parts[:n + 1]))):
            part = mask_name(part)
        out.append(part)
    return "".join(out)


def mask_name(value: str) -> str:
    """Return ``value`` (a path or a name) with every secret and T3 finding of :func:`scan_name` as ``[category]``.

    What recall does to text (:func:`mask`), for a path or file name shown
    back: overlapping findings are masked as one span.
    """
    findings = [f for f in scan_name(value) if f.tier3]
    if not findings:
        return value
    parts = re.split("(" + _LINE_BREAK.pattern + ")", value)  # lines as scan counts them, breaks kept
    lines, breaks = parts[0::2], parts[1::2]
    by_line: dict[int, list[tuple[int, int, str]]] = {}
    for f in findings:
        by_line.setdefault(f.line, []).append((f.start, f.end, f.category))
    for number, spans in by_line.items():
        spans.sort()
        merged: list[list[Any]] = []
        for start, end, cat in spans:
            if merged and start < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end, cat])
        line = lines[number - 1]
        for start, end, cat in reversed(merged):
            line = line[:start] + f"[{cat}]" + line[end:]
        lines[number - 1] = line
    return "".join(line + (breaks[i] if i < len(breaks) else "") for i, line in enumerate(lines))


def scan_strict(text: str, *, name: bool = False) -> list[Finding]:
    """Scan text that is public or loaded into every session (T1 values, MEMORY.md lessons).

    Args:
        text: the text.
        name: read it as a name too (:func:`scan_name`).

    As :func:`scan`, but on a line that speaks of the user (``my``, ``I``,
    ``user's``, ``我``: :data:`_SELF`) a sensitive-topic word counts whatever
    else is on it: the technical senses that excuse one in notes
    ("reminder", "means", "model") do not apply to a fact about the user
    where the text is shown to everyone or to every session ("user's insulin
    dose reminder" as a T1 trigger, "my HIV diagnosis means ..." as a
    lesson). Lines about systems ("the bipolar transistor datasheet") are
    judged as :func:`scan` judges them. Source: issue 10, attack round 4.
    """
    token = _STRICT_TOPICS.set(True)
    try:
        return scan_name(text) if name else scan(text)
    finally:
        _STRICT_TOPICS.reset(token)


# ------------------------------------------------------------ a T2 ciphertext as written

#: Rules that fire on random Base64, so on real ciphertexts: a short key word glued to what
#: follows (``PIN`` + any 4 printable characters, ``dl`` + a run with a digit, ``wpa`` + a run).
#: Measured (round 9) on 30,000 ciphertexts (xor-b64 and aes-gcm of sample texts, random
#: Base64, 16-600 bytes): the first two fired (about 1 in 900 aes-gcm texts), no other certain
#: rule did; a longer run over random Base64 found ``wifi_key`` too. With these left out and a
#: finding counted only when set off (below), 30,000 more (10,000 each of xor-b64, aes-gcm and
#: random Base64) gave no refusal (tests/attack/test_trust_r9_variants.py keeps 600 of them).
_RANDOM_BASE64_RULES = frozenset({"password_phrase_zh", "id_document_number_r8", "wifi_key"})
#: A run this long of digits is card- or account-shaped (cards 13-19 digits); random Base64
#: holds one with odds of (10/64)**13, about 3e-11 per character (the longest run in the
#: 30,000 ciphertexts above was 8).
_DIGIT_RUN = re.compile(r"\d{13,}")
#: What sets a value off in Base64 text: a line's start or a character that is no letter or digit.
_SET_OFF = re.compile(r"[^A-Za-z0-9]")


def ciphertext_in_clear(cipher: str) -> list[str]:
    """The categories a T2 ciphertext *as written* reads as in clear; [] for a real ciphertext.

    The quote lines that hold a ciphertext are what the file holds on disk; a
    ciphertext of ours is random Base64 (or ``aesgcm:`` and Base64) and spells
    nothing. A "ciphertext" crafted to spell a secret (an AWS key id, a card
    number: all Base64 characters) decodes to noise, which the gate passes,
    while the file holds the value in clear (tatk9; the import refuses such
    a file, the privacy audit reports it). Read here: each line and
    the lines joined, with the detector, and a run of 13 or more digits
    (``card or account number``, checksum or not: a real ciphertext holds one
    with odds of about 3e-11 a character). A detector finding counts when it
    is certain, set off from the Base64 before it (at a line's start or after
    ``+``, ``/``, ``=``: a value glued to the random letters before it is part
    of that run, the way the detector's own rules read words), and not of a
    rule that fires on random Base64 (:data:`_RANDOM_BASE64_RULES`).
    """
    lines = [line.strip() for line in cipher.split("\n") if line.strip()]
    texts = [*lines, "".join(lines)] if len(lines) > 1 else lines
    found = {f.category for text in texts for f in scan(text)
             if f.confidence == CERTAIN and f.rule not in _RANDOM_BASE64_RULES
             and (f.start == 0 or _SET_OFF.match(text, f.start - 1))}
    if any(_DIGIT_RUN.search(text) for text in texts):
        found.add("card or account number")
    return sorted(found)
