"""Detecting secrets, personal data and sensitive topics in text.

Interface shared by the memory gate, the privacy audit and cleanup:
:func:`scan` returns a list of :class:`Finding`. Each finding has a
``category`` (see :data:`CATEGORIES`), the gate ``sensitivity`` class it maps
to (the AANA memory-gate seed's classes), and whether it belongs to T3 (never
stored, the Tiers seed's rules).

This first version carries a small rule set; the privacy issue replaces the
rules behind the same interface.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Finding:
    """One detected item.

    ``line`` is 1-based; ``start``/``end`` are character offsets within that
    line; ``excerpt`` is already redacted (never the full secret); ``rule``
    names the rule that fired.
    """

    category: str
    rule: str
    line: int
    start: int
    end: int
    excerpt: str

    @property
    def sensitivity(self) -> str:
        """The gate's sensitivity class for this finding."""
        return CATEGORIES[self.category][0]

    @property
    def tier3(self) -> bool:
        """True when the Tiers seed forbids storing this at all."""
        return CATEGORIES[self.category][1]


def redact(value: str, keep: int = 4) -> str:
    """Return ``value`` with all but its first ``keep`` characters masked."""
    if len(value) <= keep:
        return "*" * len(value)
    return value[:keep] + "*" * min(8, len(value) - keep)


_RULES: list[tuple[str, str, re.Pattern[str]]] = [
    ("secret", "private_key_block", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
    ("secret", "openai_key", re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}")),
    ("secret", "github_token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}")),
    ("secret", "aws_access_key", re.compile(r"\bAKIA[0-9A-Z]{16}\b")),
    ("secret", "password_assignment", re.compile(r"(?i)\b(?:password|passwd|pwd|密码)\s*[:=：]\s*\S{4,}")),
    ("email", "email", re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")),
    ("phone", "cn_mobile", re.compile(r"(?<!\d)1[3-9]\d{9}(?!\d)")),
    ("health", "health_en", re.compile(r"(?i)\b(?:diagnos\w*|depression|diabetes|cancer|therapy|medication)\b")),
    ("health", "health_zh", re.compile(r"(?:抑郁|糖尿病|癌症|诊断|病历|吃药)")),
]


def scan(text: str) -> list[Finding]:
    """Scan ``text`` and return findings in line order.

    Args:
        text: any text (a note, a line, a whole file).

    Returns a list of :class:`Finding`; empty when nothing was found.
    """
    findings: list[Finding] = []
    for number, line in enumerate(text.splitlines() or [text], start=1):
        for category, rule, pattern in _RULES:
            for match in pattern.finditer(line):
                findings.append(Finding(category, rule, number, match.start(), match.end(),
                                        redact(match.group(0))))
    findings.sort(key=lambda f: (f.line, f.start))
    return findings
