"""The memory gate (the AANA memory-gate seed), in front of every store path.

:func:`evaluate` classifies an operation and decides one of ``proceed``,
``ask``, ``request_approval``, ``narrow``, ``avoid_storing``, ``refuse``;
only ``proceed`` is ``allowed``. :func:`record` appends the decision to the
redacted audit log (:mod:`memory_manager.auditlog`).

Rules, in order (each with its reason):

0. **Names are not content** (issue 10, side doors): a finding of any
   confidence in a value that names a file, fills the frontmatter of a
   sealed T2 entry or a T1 (public) file (``names=``) is refused whatever
   the flags; such values stay plain text beside the sealed or public data
   and are copied into listings, indexes and backup manifests, so the user's
   approval of the content cannot cover them.
1. **Certain findings are refused, always** (Tiers seed: T3 "not stored by
   this skill"; AANA: "refuse that part" when it would expose secrets):
   checksum-valid IDs and cards, published token formats, a value after an
   explicit password/PIN/key word, key material (``confidence == "certain"``
   in :mod:`memory_manager.privacy`), or a caller's ``credential`` class. No
   flag changes this. A *delete* is the exception: removing a secret is
   what the user should do, so it only needs approval.
1b. **Possible findings** (heuristic names, addresses, schedules, handles,
   e-mail addresses, phone numbers; privacy issue 9) are refused unless the
   user confirms: the reason names the category and the flag, ``--approved``,
   that stores it anyway. An approved possible finding (and an approved
   sensitive topic) is written to the approval record,
   ``memory/.state/privacy-approvals.jsonl`` (:func:`record_approvals`, keyed
   with a secret outside the workspace), so the audit can tell later that the
   user allowed it (:func:`approval_book`, :meth:`ApprovalBook.covers`).
   Cleanup keeps a T2 entry only on that entry's own approval mark
   (``quarantine.is_approved``): approval is specific to the entry.
2. **Sensitivity comes from the content** (:func:`memory_manager.privacy.scan`);
   the caller's ``sensitivity`` can only raise it (:data:`RANK`).
3. **Edits, deletes, imports and exports need explicit approval** in every
   mode (AANA "Approval Rules"; silence is not approval).
4. **Sensitive content** (anything above ``ordinary``) needs approval to be
   stored or reused. Stored from an *inferred* source it is
   ``avoid_storing`` (AANA: no speculative inferences about the user);
   ``personal`` details get ``narrow`` (generalise them first, the Tiers
   seed's privacy checklist: "early morning" not "6am").
5. **Ordinary content**: in ``auto`` mode (Memory Master's auto-write) a
   store from the user (``explicit_user``, ``approved_preference``) or a
   skill's own event (``tool_output``) proceeds; ``inferred`` needs approval;
   ``third_party``/``unknown`` sources are ``ask``. In ``strict`` mode (the
   AANA seed) every store needs approval.
6. **Reuse**: ordinary memory is reused freely in ``auto`` mode ("implicit
   low-risk reuse"); T2 or sensitive memory (both modes), or any reuse in
   ``strict`` mode, needs approval (AANA: ask before reuse when the memory
   is sensitive; the Tiers seed keeps T2 "agent-visible only").

``approved=True`` turns ``ask``, ``request_approval``, ``narrow`` and
``avoid_storing`` into ``proceed``; never ``refuse``. It approves the content
the user was shown; an import's approval does not cover findings the user
has not seen: :func:`held_findings` names each one, and the import stores it
only when the user allows that id (issue 10).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from .jsonio import parse as _parse_json
from .regular import read_regular_text
from .errors import BadInputError

OPERATIONS = ("none", "read", "reuse", "store", "edit", "delete", "export", "import", "unknown")
SOURCES = ("explicit_user", "approved_preference", "inferred", "third_party", "tool_output", "unknown")
SENSITIVITIES = ("ordinary", "personal", "private", "financial", "health", "legal", "credential",
                 "protected", "unknown")
DECISIONS = ("proceed", "ask", "request_approval", "narrow", "avoid_storing", "refuse")
#: How strongly a class restricts memory; ties keep the computed class.
#: ``unknown`` ranks above ordinary: unclassified content is not assumed harmless.
RANK = {"ordinary": 0, "unknown": 1, "personal": 2, "private": 3, "financial": 4, "health": 4,
        "legal": 4, "protected": 5, "credential": 6}
_APPROVAL_OPS = {"edit", "delete", "import", "export"}
_TRUSTED_STORE_SOURCES = {"explicit_user", "approved_preference", "tool_output"}


@dataclass
class Decision:
    """The gate's verdict; field names follow the seed's gate block."""

    request: str
    operation: str
    summary: str
    source: str
    relevance: str
    sensitivity: str
    approval: str
    lifecycle: str
    decision: str
    reasons: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    content_hash: str = ""
    chars: int = 0
    #: (category, rule, confidence, SHA-256 of the normalised value) of every
    #: possible finding and sensitive topic the user approved with this
    #: decision; written by :func:`record` to the approval record.
    approved_findings: list[tuple[str, str, str, str]] = field(default_factory=list)

    @property
    def allowed(self) -> bool:
        """True only for ``proceed``."""
        return self.decision == "proceed"

    def block(self) -> str:
        """Return the seed's text gate block."""
        return "\n".join([
            "AANA memory gate:",
            f"- Request: {self.request}",
            f"- Memory operation: {self.operation}",
            f"- Memory summary: {self.summary}",
            f"- Source: {self.source}",
            f"- Relevance: {self.relevance}",
            f"- Sensitivity: {self.sensitivity}",
            f"- Approval: {self.approval}",
            f"- Decision: {self.decision}",
        ] + [f"- Why: {r}" for r in self.reasons])

    def payload(self) -> dict[str, Any]:
        """Return the seed's review payload (its field names) plus ``allowed`` and ``reasons``."""
        return {"user_request": self.request, "memory_operation": self.operation,
                "memory_summary": self.summary, "source_status": self.source,
                "relevance_status": self.relevance, "sensitivity_status": self.sensitivity,
                "approval_status": self.approval, "lifecycle_status": self.lifecycle,
                "recommended_action": self.decision, "allowed": self.allowed,
                "reasons": self.reasons, "categories": self.categories}


def redacted_summary(text: str, findings: list[Any], limit: int = 80) -> str:
    """Return a short summary of ``text`` with every finding replaced by ``[category]``.

    Content with a T3 finding is summarised by its categories and length only.
    """
    if any(f.tier3 for f in findings):
        cats = sorted({f.category for f in findings})
        return f"<{len(text)} chars withheld: {', '.join(cats)}>"
    lines = text.split("\n")
    for f in sorted(findings, key=lambda f: (f.line, f.start), reverse=True):
        if 1 <= f.line <= len(lines):
            line = lines[f.line - 1]
            lines[f.line - 1] = line[:f.start] + f"[{f.category}]" + line[f.end:]
    flat = " ".join(" ".join(lines).split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


def _summary(text: str, findings: list[Any], tier: str | None) -> str:
    """The decision's summary; T2 content is never summarised.

    T2 text is stored encrypted, so echoing it in the gate block or the
    (plain-text) audit log would undo that: only its length and the
    detected categories are given.
    """
    if tier == "internal":
        cats = sorted({f.category for f in findings})
        return f"<{len(text)} chars of T2 (internal) memory" + (f": {', '.join(cats)}>" if cats else ">")
    return redacted_summary(text, findings)


def redacted_request(request: str, text: str, findings: list[Any]) -> str:
    """Return ``request`` safe to print and log, as :func:`redacted_summary` does for the content.

    The request line is built from the user's own words (a topic, a key, a
    skill name), so it can hold the very secret the gate refuses. Two passes:
    every finding of the detector in ``request`` itself becomes ``[category]``
    (whatever its tier: the line is a label, so its shape is kept), then any
    exact value found in ``text`` (``findings``, e.g. a password that is
    only recognised by its context there) that also appears in the request
    is replaced by ``[category]``.
    """
    from .privacy import scan

    own = scan(request)
    lines = request.split("\n")
    for f in sorted(own, key=lambda f: (f.line, f.start), reverse=True):
        if 1 <= f.line <= len(lines):
            line = lines[f.line - 1]
            lines[f.line - 1] = line[:f.start] + f"[{f.category}]" + line[f.end:]
    out = " ".join(lines)
    text_lines = text.split("\n")
    values = []
    for f in findings:
        if 1 <= f.line <= len(text_lines):
            value = text_lines[f.line - 1][f.start:f.end]
            # A finding may span its key word too ("password is X"): X alone is
            # what a request would repeat, so the last token is tried as well.
            last = re.split(r"[\s:=：]+", value.strip())[-1]
            for candidate in {value.strip(), last}:
                if len(candidate) >= 6:  # shorter values would blank out ordinary words
                    values.append((candidate, f.category))
    for value, category in sorted(values, key=lambda v: -len(v[0])):
        out = out.replace(value, f"[{category}]")
    return out


def _check_choice(value: str, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise BadInputError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def name_findings(names: dict[str, str] | None, strict: bool = False) -> list[tuple[str, Any]]:
    """Return ``(label, finding)`` for every detector finding in the values of ``names``.

    Args:
        names: label -> value of every field that becomes a file name, a
            frontmatter value of an encrypted (T2) entry, or a T1 (public)
            value: e.g. ``{"skill": ..., "topic": ...}``. Each value is
            scanned on its own, as plain text (never JSON-escaped), and as a
            name: with its separators ``-``/``_`` read as spaces too
            (:func:`memory_manager.privacy.scan_name`: ``mom_13812345678``).
        strict: public values (T1): a sensitive-topic word counts whatever
            surrounds it (:func:`memory_manager.privacy.scan_strict`).
    """
    from .privacy import scan_name, scan_strict

    def one(value: str) -> list[Any]:
        return scan_strict(value, name=True) if strict else scan_name(value)

    return [(label, f) for label, value in (names or {}).items() for f in one(str(value))]


def _found_in(found: list[Any], fields: dict[str, str] | None, strict: bool) -> str:
    """`` in --change`` (the options whose own text holds a category of ``found``), or "".

    Each option's text is scanned alone (as text and as a name); a finding
    that only appears across two options names none. Never the value.
    """
    from .privacy import scan, scan_name, scan_strict

    if not fields or not found:
        return ""
    cats = {f.category for f in found}
    where = [label for label, value in fields.items() if value and cats & {
        g.category for g in [*(scan_strict(value) if strict else scan(value)), *scan_name(value)]}]
    return f" in {', '.join(where)}" if where else ""


def evaluate(operation: str, text: str, *, source: str = "unknown", sensitivity: str | None = None,
             approved: bool = False, cfg: dict[str, Any], tier: str | None = None,
             request: str | None = None, names: dict[str, str] | None = None,
             labels: dict[str, str] | None = None, strict: bool = False,
             fields: dict[str, str] | None = None) -> Decision:
    """Decide whether a memory operation may go ahead (see the module docstring).

    Args:
        operation: one of :data:`OPERATIONS`.
        text: the memory content concerned (plain text; for a T2 reuse, the
            decrypted text).
        source: one of :data:`SOURCES` (where the content came from).
        sensitivity: the caller's class (:data:`SENSITIVITIES`), or None;
            it can only raise the class computed from ``text``.
        approved: the user explicitly approved this exact operation.
        cfg: the configuration (``gate.mode``: ``auto`` or ``strict``).
        tier: ``"internal"`` for T2 memory (its reuse always needs approval).
        request: a short description of the user's request (for the block).
        names: label -> value of the fields that name a file or stay plain
            beside sealed or public data (a skill, topic, key, T1 trigger;
            see :func:`name_findings`). Rule 0: a finding of *any*
            confidence there is refused whatever the flags, for every
            operation but ``delete``. Callers still put these values in
            ``text`` too, so the summary and categories cover them.
        labels: label -> value of fields that head content but name no file
            (a daily note's topic): read as names (separators as spaces,
            :func:`memory_manager.privacy.scan_name`) and judged like the
            text (a possible finding asks for approval, a certain one is
            refused).
        strict: the text is public or loaded into every session (T1 values,
            MEMORY.md lessons): a sensitive-topic word counts whatever
            surrounds it (:func:`memory_manager.privacy.scan_strict`), in the
            text and in ``names``.
        fields: option -> the part of ``text`` the user gave in it
            (``{"--change": ...}``): a refusal or hold names the options its
            findings were in ("in --change"), never the value, so the user
            knows which one to fix (walk-through r6, finding 15). Only read
            when there is a finding.

    Returns a :class:`Decision`.

    Raises:
        BadInputError: unknown operation, source or sensitivity.
    """
    from .privacy import CERTAIN, POSSIBLE, TOPIC, scan, scan_name, scan_strict

    _check_choice(operation, OPERATIONS, "operation")
    _check_choice(source, SOURCES, "source")
    if sensitivity is not None:
        _check_choice(sensitivity, SENSITIVITIES, "sensitivity")
    mode = (cfg.get("gate") or {}).get("mode", "auto")
    findings = scan_strict(text or "") if strict else scan(text or "")
    # Each finding with the text its offsets index (the approval record hashes its value).
    sourced = [(f, text or "") for f in findings]
    for value in (labels or {}).values():
        extra = scan_strict(str(value), name=True) if strict else scan_name(str(value))
        findings = findings + extra
        sourced += [(f, str(value)) for f in extra]
    computed = "ordinary"
    for f in findings:
        if RANK[f.sensitivity] > RANK[computed]:
            computed = f.sensitivity
    level = computed
    if sensitivity is not None and RANK[sensitivity] > RANK[computed]:
        level = sensitivity  # a caller may raise the class, never lower it
    named = name_findings(names, strict)
    for _label, f in named:
        if RANK[f.sensitivity] > RANK[level]:
            level = f.sensitivity
    certain = [f for f in findings if f.confidence == CERTAIN]
    possible = [f for f in findings if f.confidence == POSSIBLE]
    reasons: list[str] = []
    approval = "not_needed"
    lifecycle = {"store": "store", "edit": "update", "delete": "delete", "import": "store",
                 "export": "share outside", "reuse": "temporary use", "read": "temporary use"}.get(operation, "none")
    if tier == "internal" and operation in ("store", "edit", "import"):
        lifecycle = "store (expires)"
    # Possible findings hold a store/edit/import for the user's word; the
    # reason names each category and the flag (privacy issue 9).
    hold = ""
    if possible and operation in ("store", "edit", "import"):
        cats = sorted({f.category for f in possible})
        hold = (f"possible {', '.join(cats)} found{_found_in(possible, fields, strict)}: not stored unless the "
                "user confirms it is fine to keep; then repeat with --approved")

    if operation == "none":
        decision = "proceed"
    elif (certain or sensitivity == "credential") and operation != "delete":
        decision, approval, lifecycle = "refuse", "denied", "never store"
        cats = sorted({f.category for f in certain}) or ["credential"]
        reasons.append(f"contains {', '.join(cats)} (certain){_found_in(certain, fields, strict)}: tier 3, "
                       "never stored or shared (no flag overrides this)")
    elif named and operation != "delete":
        # Rule 0 (issue 10, side doors): a name is not content. File names, the
        # frontmatter of a sealed T2 entry and T1's public values stay plain text
        # and are copied into listings, indexes, backup manifests and error
        # messages; the user's approval of the *content* cannot reach them (a T2
        # body is encrypted, its name is not). So even a possible finding or a
        # sensitive topic there is refused: name the entry without it.
        decision, approval, lifecycle = "refuse", "denied", "never store"
        where = sorted({label for label, _ in named})
        cats = sorted({f.category for _, f in named})
        reasons.append(f"{', '.join(cats)} found in the {', '.join(where)}: names and public values are stored "
                       "as plain text, so nothing private may be in them (no flag overrides this; choose another name)")
    elif operation == "unknown":
        decision, approval = "ask", "unclear"
        reasons.append("the memory operation is unclear")
    elif operation in _APPROVAL_OPS:
        decision, approval = "request_approval", "required"
        reasons.append(f"{operation} always needs the user's explicit approval")
        if hold:
            reasons.append(hold)
    elif operation in ("store",):
        if hold:
            approval = "required"
            decision = "avoid_storing" if source == "inferred" else "request_approval"
            reasons.append(hold)
        elif level != "ordinary":
            approval = "required"
            if level == "unknown":
                decision = "ask"
                reasons.append("sensitivity is unknown")
            elif source == "inferred":
                decision = "avoid_storing"
                reasons.append(f"{level} content inferred, not stated: keep it temporary")
            elif level == "personal":
                decision = "narrow"
                reasons.append("personal detail: generalise it (no names, paths, exact times) or approve it")
            else:
                decision = "request_approval"
                reasons.append(f"{level} content needs explicit approval")
        elif mode == "strict":
            decision, approval = "request_approval", "required"
            reasons.append("strict gate mode: every store needs approval")
        elif source in _TRUSTED_STORE_SOURCES:
            decision, approval = "proceed", "implicit_low_risk"
        elif source == "inferred":
            decision, approval = "request_approval", "required"
            reasons.append("inferred preferences need the user's confirmation")
        else:
            decision, approval = "ask", "unclear"
            reasons.append(f"source is {source}: ask the user whether to keep it")
    else:  # read / reuse
        if level != "ordinary":
            decision, approval = "request_approval", "required"
            reasons.append(f"{level} memory: reuse needs approval")
        elif tier == "internal":
            decision, approval = "request_approval", "required"
            reasons.append("T2 (internal) memory: reuse needs approval")
        elif mode == "strict" and operation == "reuse":
            decision, approval = "request_approval", "required"
            reasons.append("strict gate mode: reuse needs approval")
        else:
            decision, approval = "proceed", "implicit_low_risk"

    if approved and decision in ("ask", "request_approval", "narrow", "avoid_storing"):
        decision, approval = "proceed", "explicit"
        # The reasons now say why approval was needed and that it was given, never to ask for
        # it again (walk-through r4, item 15: "proceed" beside "repeat with --approved").
        cats = ", ".join(sorted({f.category for f in possible}))
        reasons = [f"possible {cats} found: stored because the user confirmed it is fine to keep (--approved)"
                   if r == hold else f"{r}: approved (--approved)" for r in reasons]
    elif approved and decision == "proceed" and approval == "not_needed":
        approval = "explicit"
    approved_findings = []
    if decision == "proceed" and approval == "explicit" and operation in ("store", "edit", "import"):
        approved_findings = [(f.category, f.rule, f.confidence, _value_digest(f.category, _span(src, f)))
                             for f, src in sourced if f.confidence in (POSSIBLE, TOPIC)]
    return Decision(request=redacted_request(request or f"{operation} memory", text or "", findings),
                    operation=operation,
                    summary=_summary(text or "", findings, tier), source=source,
                    relevance="relevant" if operation != "unknown" else "unknown",
                    sensitivity=level, approval=approval, lifecycle=lifecycle, decision=decision,
                    reasons=reasons, categories=sorted({f.category for f in findings} | {f.category for _, f in named}),
                    content_hash=hashlib.sha256((text or "").encode("utf-8")).hexdigest(),
                    chars=len(text or ""), approved_findings=approved_findings)


def section_block(lines: list[str]) -> list[str]:
    """The lines of one daily section read together, when that finds what no line holds alone.

    Args:
        lines: the section's lines in the order they are written (one under the other).

    Returns ``[text]`` (the lines joined with line breaks) when the joined
    reading (:func:`memory_manager.privacy.scan`) has a finding that no line
    has by itself (same line, category and characters): a value split over
    two lines (tatk8, round 7: a phone number cut between a cause and a change
    line passed ``import --approved``); else ``[]``, so a finding one line holds
    still refuses or holds that line alone. Used by ``write`` (with the lines
    the section holds already: tatk9, a number split between two writes) and
    ``import`` (each section as it will be written). Source: issue 10, side doors.
    """
    from .privacy import scan

    if len(lines) < 2:
        return []
    text = "\n".join(str(line) for line in lines)
    parts = text.split("\n")

    def spans(found, offset, source):
        return {(f.line + offset, f.category, source[f.line - 1][f.start:f.end]) for f in found}

    alone: set[tuple[int, str, str]] = set()
    for n, part in enumerate(parts):
        alone |= spans(scan(part), n, [part])
    joined = spans(scan(text), 0, parts)
    return [text] if joined - alone else []


def held_findings(ws: Any, text: str, strict: bool = False) -> list[dict[str, str]]:
    """Return what an approval of ``text`` must name: each possible finding and sensitive topic.

    Each item is ``{"finding": id, "category", "confidence"}``. The id is
    :func:`finding_id`: a keyed hash of the finding's category and
    normalised value with a secret outside the workspace. It is stable for
    the same value on the same machine, names the finding exactly, and a
    copy of the workspace cannot confirm a guess at the value from it (atk11:
    keyed with ``memory/.state/audit-salt``, beside the log, 10,000 guesses
    confirmed a held phone number from its printed id). Certain findings are
    not listed: no approval covers them (rule 1).

    Used by ``import`` (issue 10): approving an import approves the
    operation, not every finding in a file the user has not read; each
    finding the user confirms is named by its id (``--allow ID``).
    """
    from .privacy import POSSIBLE, TOPIC, scan, scan_strict

    out: list[dict[str, str]] = []
    # ``strict``: text loaded into every session (lessons): read as ``lesson`` reads it (tatk9).
    for f in (scan_strict(text or "") if strict else scan(text or "")):
        if f.confidence in (POSSIBLE, TOPIC):
            ident = finding_id(ws, _value_digest(f.category, _span(text, f)))
            item = {"finding": ident, "category": f.category, "confidence": f.confidence}
            if item not in out:
                out.append(item)
    return out


#: The label of an import's finding id (domain separation from the audit hash and approval keys).
FINDING_LABEL = "import-finding"


def finding_id(ws: Any, value_digest: str) -> str:
    """The id an import prints for a held finding: 12 hex digits, keyed outside the workspace.

    Args:
        ws: the workspace (its config names the T2 key file).
        value_digest: :func:`_value_digest` of the finding's category and value.

    HMAC-SHA-256 of ``value_digest`` under the first secret of
    :func:`memory_manager.keyed.secrets` (from the T2 key when one is
    configured, else the local hash-secret, created when missing), label
    :data:`FINDING_LABEL`: the same value gets the same id on the next run,
    so ``--allow ID`` names it; the workspace alone confirms no guess. With
    no secret at all the id is random: it names nothing later, and
    ``--allow`` is refused anyway (an approval could not be recorded,
    :func:`memory_manager.keyed.require_secret`).
    """
    import os
    from pathlib import Path

    from . import keyed

    secrets = _approval_secrets(ws, create=True)
    if not secrets:
        return os.urandom(6).hex()
    # The workspace is part of the message: an id names one value in this workspace only.
    return keyed.digest(secrets[0][1], FINDING_LABEL, str(Path(ws).resolve()), value_digest)[:12]


def record(ws: Any, decision: Decision, entry: str | None = None, where: str | None = None) -> None:
    """Append ``decision`` to the workspace's audit log (see :mod:`memory_manager.auditlog`).

    ``entry``: the stable id of the entry the decision concerns (written as a
    keyed reference, so ``forget`` finds every record of the entry, v3).
    ``where``: the file of an entry whose id follows its text (a lesson line,
    :func:`memory_manager.auditlog.file_ref`).

    When the user approved possible findings or sensitive topics with it,
    they are added to the approval record too (:func:`record_approvals`).
    """
    from .auditlog import append

    append(ws, decision, entry=entry, where=where)
    if decision.approved_findings:
        record_approvals(ws, decision.approved_findings)


# --------------------------------------------------------------------------
# The approval record: which possible findings the user allowed to be stored.
# --------------------------------------------------------------------------

APPROVALS_NAME = "privacy-approvals.jsonl"
#: v2 lines (``"v": 2``) key on an HMAC with a secret outside the workspace
#: (:mod:`memory_manager.keyed`); v1 lines (no ``v``: the audit salt's HMAC)
#: are still read and dropped by ``forget``, never written.
APPROVALS_FORMAT = {"format": "cmm-privacy-approvals", "version": 2}


def _approval_secrets(ws: Any, create: bool = False) -> list[tuple[str, bytes]]:
    """The secrets approval keys are made with (:func:`memory_manager.keyed.secrets`); the first writes.

    The config is read from ``ws`` (its ``tiers.key_file``); a broken config or
    key gives the local secret alone (reading an approval never fails a command).
    """
    from . import keyed
    from .config import load_config
    from .errors import MemoryManagerError

    try:
        cfg = load_config(ws)
    except MemoryManagerError:
        cfg = None
    try:
        return keyed.secrets(ws, cfg, create=create)
    except MemoryManagerError:
        local = keyed.local_secret(ws, create=create)
        return [("local", local)] if local else []


def _keys_for(ws: Any, digest: str, secrets: list[tuple[str, bytes]]) -> list[str]:
    """Every approval-record key a value digest may have been written under (v2 per secret, then v1)."""
    from . import keyed
    from .auditlog import content_hash

    # v1 only where the workspace has an audit salt: checking an approval never makes one.
    v1 = content_hash(ws, digest, create=False)
    return [_v2_key(secret, digest) for _kid, secret in secrets] + ([v1] if v1 else [])


def _v2_key(secret: bytes, digest: str) -> str:
    """A v2 approval key: 32 hex digits (128 bits, as v1's) of the HMAC of a value digest."""
    from . import keyed

    return keyed.digest(secret, "approval", digest)[:32]


def approvals_path(ws: Any) -> Any:
    """Return ``memory/.state/privacy-approvals.jsonl`` (format ``cmm-privacy-approvals`` v2, reads v1)."""
    from . import tree

    return tree.Tree(ws).state_file(APPROVALS_NAME)


def _span(text: str, finding: Any) -> str:
    """The characters of ``text`` that ``finding`` covers (its line, start and end)."""
    lines = text.split("\n")
    if not 1 <= finding.line <= len(lines):
        return ""
    return lines[finding.line - 1][finding.start:finding.end]


def _value_digest(category: str, value: str) -> str:
    """SHA-256 (hex) of ``category`` and ``value`` in the detector's normalised view, spaces collapsed."""
    from .privacy import normalise

    view = " ".join(normalise(value)[0].split())
    return hashlib.sha256(f"{category}\0{view}".encode("utf-8")).hexdigest()


def record_approvals(ws: Any, items: list[tuple[str, str, str, str]]) -> None:
    """Append approved findings to the approval record, one JSON line each.

    Args:
        ws: the workspace root (Path).
        items: ``(category, rule, confidence, value sha256)`` tuples, as in
            :attr:`Decision.approved_findings`.

    A line (v2) holds ``v``, ``time``, ``category``, ``rule``,
    ``confidence``, ``kid``, ``kfp`` and ``key``: the HMAC of the value digest with
    a secret that is not in the workspace (``kid`` ``t2``: derived from the
    T2 key; ``local``: the local secret, :mod:`memory_manager.keyed`),
    never the value itself; ``kfp`` names which secret of that kid keyed it
    (:func:`memory_manager.auditlog.key_fingerprint`, as the audit log's v3
    records do), so ``forget`` run without that secret drops the line it
    cannot recompute (:func:`drop_approvals`, atk13). With the workspace alone a guessed value
    cannot be confirmed against it (issue 10, round 4: the audit salt that
    keyed v1 lines lies beside them). When no secret can be had, nothing is
    recorded (the audit then reports the finding, it does not hide it).
    Appends are single ``write`` calls with ``O_APPEND``, as for the gate's
    audit log; callers hold the workspace lock.
    """
    import json
    import os

    from .auditlog import key_fingerprint
    from .clock import now

    from .fsio import make_dirs, open_append

    secrets = _approval_secrets(ws, create=True)
    if not secrets or not items:
        return
    kid, secret = secrets[0]
    path = approvals_path(ws)
    make_dirs(path.parent)  # private (0700), and never through a symlink out of the workspace
    stamp = now().isoformat(timespec="seconds")
    kfp = key_fingerprint(secret)
    data = "".join(json.dumps({"v": 2, "time": stamp, "category": c, "rule": r, "confidence": conf, "kid": kid,
                               "kfp": kfp, "key": _v2_key(secret, digest)},
                              ensure_ascii=False, allow_nan=False) + "\n"
                   for c, r, conf, digest in items).encode("utf-8")
    fd = open_append(path)  # never through a symlink or hard link (issue 10)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def approval_keys_of(ws: Any, text: str) -> list[str]:
    """Return the approval-record keys of every finding in ``text`` (what ``forget`` drops).

    Each is a keyed hash :func:`record_approvals` writes (or an older
    version wrote: v1) for a finding's category and value, under every
    secret at hand. Finding every one (any confidence) is deliberate: an
    approval of a value that is forgotten must go with it (issue 10).
    """
    from .privacy import scan

    secrets = _approval_secrets(ws)
    out: list[str] = []
    for f in scan(text or ""):
        for key in _keys_for(ws, _value_digest(f.category, _span(text, f)), secrets):
            if key not in out:
                out.append(key)
    return out


def drop_approvals(ws: Any, keys: list[str] | set[str], known: dict[str, list[str]] | None = None) -> int:
    """Remove the approval-record lines whose ``key`` is in ``keys``; return how many went.

    ``known`` (:func:`memory_manager.auditlog.at_hand`: ``forget``, cleanup's
    purge): a line keyed with a secret not among these (its ``kid`` has no
    secret at hand, or its ``kfp`` names another secret of that kid) goes too,
    whatever value it approved: it cannot be recomputed here, so it may be
    the forgotten value's (atk13: forget run without the T2 key, or under the
    key file while the line was keyed with ``MEMORY_MANAGER_KEY``, kept an
    HMAC of a forgotten phone number). Conservative: such approvals of other
    values go as well (the audit then reports those findings again; cleanup
    never relied on them). A v1 line (no ``v``) counts as kid ``salt``.

    A v1 line keys on a hash keyed with the workspace's audit salt, which
    lies beside it: anyone holding the workspace could confirm a guessed
    value against it; a v2 line's key needs a secret outside the workspace.
    Either way a forgotten value's approvals are removed, not kept (issue 10). The file is rewritten atomically (0600); callers hold the
    workspace lock. Idempotent. A line that is not JSON is kept as it is.
    """
    import json

    from .fsio import atomic_write

    wanted = set(keys)
    path = approvals_path(ws)
    if not (wanted or known is not None) or not path.is_file():
        return 0
    kept: list[str] = []
    dropped = 0
    for line in path.read_text(encoding="utf-8", errors="surrogateescape").splitlines(keepends=True):
        try:
            rec = _parse_json(line) if line.strip() else None
            key = rec.get("key") if rec is not None else None
        except (ValueError, AttributeError):
            rec, key = None, None
        if key in wanted or (key and known is not None and _unknown_secret(rec, known)):
            dropped += 1
        else:
            kept.append(line)
    if dropped:
        atomic_write(path, "".join(kept).encode("utf-8", "surrogateescape"), mode=0o600)
    return dropped


def _unknown_secret(rec: dict[str, Any], known: dict[str, list[str]]) -> bool:
    """True when approval line ``rec`` is keyed with a secret not in ``known`` (kid -> fingerprints)."""
    kid = rec.get("kid") if "v" in rec else "salt"
    if not isinstance(kid, str) or kid not in known:
        return True
    kfp = rec.get("kfp")
    return bool(kfp) and kfp not in known[kid]


@dataclass
class ApprovalBook:
    """The approval record of one workspace, loaded once (see :func:`approval_book`)."""

    ws: Any
    keys: set[str] = field(default_factory=set)
    #: ``(kid, secret)`` pairs v2 keys are checked with (:mod:`memory_manager.keyed`).
    secrets: list[tuple[str, bytes]] = field(default_factory=list)

    def covers(self, finding: Any, line: str) -> bool:
        """True when the user approved storing ``finding``.

        Args:
            finding: a :class:`memory_manager.privacy.Finding` of a stored file.
            line: the text of the finding's line (``finding.start``/``end``
                index into it).

        An approval covers the same value of the same category wherever it
        is stored (an entry moves from the daily notes to the archive, a
        knowledge entry is rewritten): the record keys on the value, not on a
        file. The privacy audit uses it to report such a finding as a notice;
        cleanup does not: keeping a T2 entry needs that entry's own approval
        mark (``quarantine.is_approved``, issue 10 round 4). Certain findings
        are never covered: the gate refuses them whatever the flags, so one on
        disk was never approved.
        """
        from .privacy import CERTAIN

        if not self.keys or finding.confidence == CERTAIN:
            return False
        value = line[finding.start:finding.end]
        return any(k in self.keys for k in _keys_for(self.ws, _value_digest(finding.category, value), self.secrets))


def approval_book(ws: Any) -> ApprovalBook:
    """Load the approval record of ``ws`` (missing or unreadable lines: nothing approved)."""
    import json

    keys: set[str] = set()
    try:
        lines = read_regular_text(approvals_path(ws), "utf-8").splitlines()
    except OSError:
        lines = []
    for raw in lines:
        try:
            key = _parse_json(raw).get("key")
        except (ValueError, AttributeError):
            continue
        if isinstance(key, str):
            keys.add(key)
    return ApprovalBook(ws, keys, _approval_secrets(ws) if keys else [])


def finding_approved(ws: Any, finding: Any, line: str) -> bool:
    """True when the user approved storing ``finding`` (whose line text is ``line``) in ``ws``.

    A convenience over :func:`approval_book` for one finding; load the book
    once when checking many.
    """
    return approval_book(ws).covers(finding, line)


def require(decision: Decision) -> Decision:
    """Return ``decision`` when allowed, else raise :class:`GateDecisionError` carrying it."""
    from .errors import GateDecisionError

    if not decision.allowed:
        why = "; ".join(decision.reasons) or decision.decision
        # The advice once: a reason that already says how to approve needs no second hint.
        hint = "" if decision.decision == "refuse" or "--approved" in why \
            else " (re-run with --approved once the user agrees)"
        raise GateDecisionError(f"memory gate: {decision.decision} ({why}){hint}", decision)
    return decision
