"""Fake secrets and identifiers, assembled at run time.

The corpus under ``bench/privacy_corpus/`` and the tests never ship a literal
that looks like a leaked secret (ClawHub scans published files): they carry
``{NAME}`` templates, and :func:`fill` replaces each one with a freshly
generated fake of the right shape and checksum. Every value here is random
and belongs to nobody.
"""
from __future__ import annotations

import base64
import json
import random
import re
import string

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"
UPPER_DIGITS = string.ascii_uppercase + string.digits


def _pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def luhn_complete(body: str) -> str:
    """Append the Luhn check digit (ISO/IEC 7812-1 annex B; python-stdnum) to ``body``."""
    from stdnum import luhn

    return body + luhn.calc_check_digit(body)


def card(rng: random.Random, prefix: str, length: int) -> str:
    return luhn_complete(prefix + _pick(rng, string.digits, length - len(prefix) - 1))


def spaced(number: str, groups: tuple[int, ...]) -> str:
    out, pos = [], 0
    for g in groups:
        out.append(number[pos:pos + g])
        pos += g
    if pos < len(number):
        out.append(number[pos:])
    return " ".join(out)


def cn_id(rng: random.Random) -> str:
    """An 18-character resident ID with a valid birth date and check digit (GB 11643-1999)."""
    region = rng.choice(["110105", "310104", "440305", "330106", "510107"])
    year = rng.randint(1960, 2005)
    month = rng.randint(1, 12)
    day = rng.randint(1, 28)
    body = f"{region}{year:04d}{month:02d}{day:02d}{rng.randint(0, 999):03d}"
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    check = "10X98765432"[sum(int(c) * w for c, w in zip(body, weights)) % 11]
    return body + check


def _iban_check(country: str, bban: str) -> str:
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{98 - int(digits) % 97:02d}"


def iban(rng: random.Random, country: str) -> str:
    """An IBAN with valid ISO 7064 mod 97-10 check digits (ISO 13616)."""
    if country == "DE":
        bban = _pick(rng, string.digits, 18)
    elif country == "GB":
        bban = "NWBK" + _pick(rng, string.digits, 14)
    elif country == "FR":
        bank, branch, account = (_pick(rng, string.digits, n) for n in (5, 5, 11))
        key = 97 - (89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97
        bban = f"{bank}{branch}{account}{key:02d}"
    else:
        raise ValueError(country)
    return country + _iban_check(country, bban) + bban


def ssn(rng: random.Random) -> str:
    area = rng.choice([n for n in range(100, 665) if n != 666])
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def aadhaar(rng: random.Random) -> str:
    from stdnum import verhoeff

    body = str(rng.randint(2, 9)) + _pick(rng, string.digits, 10)
    number = body + verhoeff.calc_check_digit(body)
    return spaced(number, (4, 4, 4))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def jwt(rng: random.Random) -> str:
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = _b64url(json.dumps({"sub": _pick(rng, string.digits, 10), "iat": 1764400000}).encode())
    return f"{header}.{payload}.{_pick(rng, URLSAFE, 43)}"


def private_key_header(kind: str = "RSA") -> str:
    return "-----BEGIN " + kind + " PRIV" + "ATE KEY-----"


GENERATORS = {
    "OPENAI_KEY": lambda r: "sk-" + _pick(r, ALNUM, 48),
    "OPENAI_PROJ_KEY": lambda r: "sk-" + "proj-" + _pick(r, URLSAFE, 100),
    "ANTHROPIC_KEY": lambda r: "sk-" + "ant-api03-" + _pick(r, URLSAFE, 93) + "AA",
    "GITHUB_PAT": lambda r: "gh" + "p_" + _pick(r, ALNUM, 36),
    "GITHUB_FINE_PAT": lambda r: "github" + "_pat_" + _pick(r, ALNUM, 22) + "_" + _pick(r, ALNUM, 59),
    "GITLAB_PAT": lambda r: "gl" + "pat-" + _pick(r, URLSAFE, 20),
    "AWS_ACCESS_KEY": lambda r: "AK" + "IA" + _pick(r, string.ascii_uppercase + "234567", 16),
    "AWS_SECRET": lambda r: _pick(r, ALNUM + "/+", 40),
    "GOOGLE_API_KEY": lambda r: "AI" + "za" + _pick(r, URLSAFE, 35),
    "SLACK_BOT_TOKEN": lambda r: "xo" + "xb-" + _pick(r, string.digits, 11) + "-" + _pick(r, string.digits, 13) + "-" + _pick(r, ALNUM, 24),
    "SLACK_WEBHOOK": lambda r: "https://hooks.slack.com/services/T" + _pick(r, UPPER_DIGITS, 8) + "/B" + _pick(r, UPPER_DIGITS, 10) + "/" + _pick(r, ALNUM, 24),
    "STRIPE_SECRET": lambda r: "sk" + "_live_" + _pick(r, ALNUM, 24),
    "STRIPE_RESTRICTED": lambda r: "rk" + "_live_" + _pick(r, ALNUM, 24),
    "HF_TOKEN": lambda r: "h" + "f_" + _pick(r, string.ascii_letters, 34),
    "JWT": jwt,
    "PRIVATE_KEY_HEADER": lambda r: private_key_header("RSA"),
    "OPENSSH_KEY_HEADER": lambda r: private_key_header("OPENSSH"),
    "TELEGRAM_TOKEN": lambda r: _pick(r, string.digits, 10) + ":" + "AA" + _pick(r, URLSAFE, 33),
    "DISCORD_WEBHOOK": lambda r: "https://discord.com/api/webhooks/" + _pick(r, string.digits, 18) + "/" + _pick(r, URLSAFE, 68),
    "SENDGRID_KEY": lambda r: "S" + "G." + _pick(r, URLSAFE, 22) + "." + _pick(r, URLSAFE, 43),
    "NPM_TOKEN": lambda r: "np" + "m_" + _pick(r, ALNUM, 36),
    "PYPI_TOKEN": lambda r: "py" + "pi-AgEIcHlwaS5vcmc" + _pick(r, URLSAFE, 70),
    "TWILIO_KEY": lambda r: "S" + "K" + _pick(r, "0123456789abcdef", 32),
    "ALIYUN_KEY": lambda r: "LT" + "AI" + _pick(r, ALNUM, 20),
    "GROQ_KEY": lambda r: "gs" + "k_" + _pick(r, ALNUM, 52),
    "PASSWORD": lambda r: _pick(r, ALNUM, 10) + r.choice("!#%&*") + _pick(r, ALNUM, 3),
    "B64_SECRET": lambda r: _pick(r, ALNUM + "+/", 40),
    "HEX_SECRET": lambda r: _pick(r, "0123456789abcdef", 40),
    "CN_ID": cn_id,
    "SSN": ssn,
    "AADHAAR": aadhaar,
    "CARD_VISA": lambda r: card(r, "4", 16),
    "CARD_VISA_SPACED": lambda r: spaced(card(r, "4", 16), (4, 4, 4, 4)),
    "CARD_MC": lambda r: card(r, "5" + str(r.randint(1, 5)), 16),
    "CARD_MC_SPACED": lambda r: spaced(card(r, "5" + str(r.randint(1, 5)), 16), (4, 4, 4, 4)),
    "CARD_AMEX": lambda r: card(r, r.choice(["34", "37"]), 15),
    "CARD_AMEX_SPACED": lambda r: spaced(card(r, "37", 15), (4, 6, 5)),
    "CARD_UNIONPAY": lambda r: card(r, "62", 16),
    "CARD_DISCOVER": lambda r: card(r, "6011", 16),
    "CARD_JCB": lambda r: card(r, "3530", 16),
    "IBAN_DE": lambda r: iban(r, "DE"),
    "IBAN_GB_SPACED": lambda r: spaced(iban(r, "GB"), (4, 4, 4, 4, 4)),
    "IBAN_FR": lambda r: iban(r, "FR"),
    "CIPHERTEXT": lambda r: base64.b64encode(bytes(r.randrange(256) for _ in range(r.randint(48, 150)))).decode(),
    "NONCE": lambda r: base64.b64encode(bytes(r.randrange(256) for _ in range(12))).decode(),
}

_TEMPLATE = re.compile(r"\{([A-Z][A-Z0-9_]+)\}")


def fill(line: str, rng: random.Random) -> str:
    """Replace every ``{NAME}`` in ``line`` with a new fake from :data:`GENERATORS`."""
    return _TEMPLATE.sub(lambda m: GENERATORS[m.group(1)](rng) if m.group(1) in GENERATORS else m.group(0), line)


def fake(name: str, seed: int = 0) -> str:
    """Return one fake of kind ``name`` (a key of :data:`GENERATORS`)."""
    return GENERATORS[name](random.Random(seed))
