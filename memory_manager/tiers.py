"""The Tiers seed's T1 (public statistics) and T2 (internal, encrypted) memory.

T1: ``memory/tier1-public/<skill>_stats.json`` in the seed's shape (led by
``"format": "cmm-t1-stats", "version": 1``)::

    {"skill_stats": {"<skill>": {"calls": 47, "successes": 45, "success_rate": 0.9574,
                                 "last_used": "2026-05-19"}},
     "patterns_observed": [{"trigger": "morning request", "skills_used": ["a"], "count": 30}]}

``successes`` is ours: the rate is recomputed from two counts on every call,
so it never drifts by rounding (a seed file without it is read with
``successes = round(success_rate * calls)``).

T2 single entry (``cmm-t2`` v1): ``memory/tier2-internal/<skill>_<topic>.md``
with the seed's frontmatter (``tier``, ``source_skill``, ``key_hint``,
``created``, ``expires``) plus ``format``, ``version``, ``id``, ``topic`` and
what decryption needs (``scheme``; for xor-b64 ``text_encoding`` and
``key_derivation``, see :mod:`memory_manager.crypto`); the body holds the
ciphertext as a ``>`` quote under ``## Encrypted Entry`` (``## 加密条目``).
A seed entry (no ``format``/``scheme``) is read as xor-b64, latin-1.

T2 multi entry (``cmm-t2-multi`` v1): ``memory/tier2-internal/<skill>_<YYYY-MM>.md``,
one file per skill and key month, written by :func:`compact` (the seed's
cleanup step 5, "combine entries from same source_skill"). Each entry is a
``## Entry <id>`` section with a ``<!-- cmm-t2-entry: {json} -->`` line
holding its own ``id``, ``topic``, ``created``, ``expires``, ``key_hint``,
``scheme`` (+ xor-b64 fields) and then its ``>`` ciphertext. File names are
injective (:func:`t2_name`): a topic shaped like a month, or a skill with
``_``, gets an escaped name and never meets a month file.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import unquote

from . import anchor, crypto, tree
from .clock import month_of, today
from .entries import (join_frontmatter, language, memory_dir, set_frontmatter_fields, split_frontmatter,
                      stays_inside, yaml_scalar)
from .errors import CryptoError, MalformedFileError, MemoryManagerError
from .fsio import atomic_write, atomic_write_text, read_text, remove

T1_DIR = tree.TIER1
T2_DIR = tree.TIER2
T1_FORMAT = "cmm-t1-stats"
T1_VERSION = 1
T2_FORMAT = "cmm-t2"
T2_MULTI_FORMAT = "cmm-t2-multi"
T2_VERSION = 1
MONTH = re.compile(r"^\d{4}-\d{2}$")
_QUOTE_HEADINGS = ("## Encrypted Entry", "## 加密条目")
_ENTRY_META = re.compile(r"^<!--\s*cmm-t2-entry:\s*(\{.*\})\s*-->\s*$")
PARAM_KEYS = ("scheme", "text_encoding", "key_derivation")


# ------------------------------------------------------------------------- T1

def t1_path(ws: Path, skill: str) -> Path:
    """Return ``memory/tier1-public/<skill>_stats.json`` (``skill`` already validated)."""
    return memory_dir(ws) / T1_DIR / f"{skill}_stats.json"


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**15


def validate_stats(doc: Any, where: str) -> dict[str, Any]:
    """Check a T1 document's shape and every value's type; return it (defaults filled in).

    The rules (ours, so that no hand-edited or imported file can crash a
    count): ``calls``, ``successes`` and a pattern's ``count`` are whole
    numbers from 0 to 10^15, and ``successes`` is at most ``calls`` (issue 11:
    a count no run could have written is refused, not turned into a rate
    above 100%); ``success_rate`` a number from 0 to 1;
    ``last_used`` and ``trigger`` strings; ``skills_used`` a list of strings.
    Each field is optional (the seed's files lack ``successes``).

    Raises:
        MalformedFileError: the first value that breaks a rule, named as
            ``<where>: skill_stats.<skill>.calls must be ...``.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("skill_stats", {}), dict) \
            or not isinstance(doc.get("patterns_observed", []), list):
        raise MalformedFileError(f"{where}: expected skill_stats (object) and patterns_observed (list)")
    version = doc.get("version", T1_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version > T1_VERSION:
        raise MalformedFileError(f"{where}: unsupported {T1_FORMAT} version {version!r}")
    for skill, rec in doc.get("skill_stats", {}).items():
        at = f"{where}: skill_stats.{skill}"
        if not isinstance(rec, dict):
            raise MalformedFileError(f"{at} must be an object, not {rec!r:.40}")
        for key in ("calls", "successes"):
            if key in rec and not _count(rec[key]):
                raise MalformedFileError(f"{at}.{key} must be a whole number from 0, not {rec[key]!r:.40}")
        if "successes" in rec and rec["successes"] > rec.get("calls", 0):
            raise MalformedFileError(f"{at}.successes ({rec['successes']}) is more than calls "
                                     f"({rec.get('calls', 0)}): no run could have counted that")
        rate = rec.get("success_rate", 0)
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
            raise MalformedFileError(f"{at}.success_rate must be a number from 0 to 1, not {rate!r:.40}")
        if "last_used" in rec and not isinstance(rec["last_used"], (str, type(None))):
            raise MalformedFileError(f"{at}.last_used must be a date string, not {rec['last_used']!r:.40}")
    for n, pattern in enumerate(doc.get("patterns_observed", [])):
        at = f"{where}: patterns_observed[{n}]"
        if not isinstance(pattern, dict):
            raise MalformedFileError(f"{at} must be an object")
        if "count" in pattern and not _count(pattern["count"]):
            raise MalformedFileError(f"{at}.count must be a whole number from 0, not {pattern['count']!r:.40}")
        if not isinstance(pattern.get("trigger", ""), str):
            raise MalformedFileError(f"{at}.trigger must be a string")
        skills = pattern.get("skills_used", [])
        if not isinstance(skills, list) or not all(isinstance(x, str) for x in skills):
            raise MalformedFileError(f"{at}.skills_used must be a list of strings")
    doc.setdefault("skill_stats", {})
    doc.setdefault("patterns_observed", [])
    return doc


def load_stats(path: Path) -> dict[str, Any]:
    """Read and check a T1 stats file (an empty document when missing).

    Raises:
        MalformedFileError: not JSON (or too deep, NaN/Infinity), or a value
            breaks :func:`validate_stats` (the message names file and key).
        UnreadableFileError: not UTF-8.
    """
    from .jsonio import loads

    if not path.exists():
        return {"skill_stats": {}, "patterns_observed": []}
    return validate_stats(loads(read_text(path).text, path.name, error=MalformedFileError), path.name)


def record_call(doc: dict[str, Any], skill: str, ok: bool, day: date) -> dict[str, Any]:
    """Count one call of ``skill`` in ``doc`` (in place); return the skill's record."""
    rec = doc["skill_stats"].get(skill)
    if not isinstance(rec, dict):
        rec = {}
    calls = int(rec.get("calls", 0) or 0)
    successes = rec.get("successes")
    if not isinstance(successes, int) or isinstance(successes, bool):
        # A seed file has only the rounded rate: recover the count once.
        successes = round(float(rec.get("success_rate", 0) or 0) * calls)
    calls += 1
    successes += 1 if ok else 0
    rec.update({"calls": calls, "successes": successes,
                # 4 decimals: finer than the seed's two, and recomputed from counts each time.
                "success_rate": round(successes / calls, 4), "last_used": day.isoformat()})
    doc["skill_stats"][skill] = rec
    return rec


def record_pattern(doc: dict[str, Any], trigger: str, skills: list[str], day: date | None = None) -> dict[str, Any]:
    """Count one observation of ``trigger`` -> ``skills`` in ``doc``; return the pattern.

    ``day`` (default: today) is kept as the pattern's ``last_seen``
    (``YYYY-MM-DD``): cleanup retires patterns not seen for
    ``cleanup.pattern_retention_days``.
    """
    seen = (day or today()).isoformat()
    for pattern in doc["patterns_observed"]:
        if isinstance(pattern, dict) and pattern.get("trigger") == trigger and pattern.get("skills_used") == skills:
            pattern["count"] = int(pattern.get("count", 0) or 0) + 1
            pattern["last_seen"] = seen
            return pattern
    pattern = {"trigger": trigger, "skills_used": skills, "count": 1, "last_seen": seen}
    doc["patterns_observed"].append(pattern)
    return pattern


def dump_stats(doc: dict[str, Any]) -> bytes:
    """Serialise a T1 document (UTF-8 JSON, 2-space indent, keys in insertion order).

    ``format``/``version`` lead the document (seed readers ignore extra keys);
    a seed file without them gains them on its first update.
    """
    out = {"format": T1_FORMAT, "version": T1_VERSION}
    out.update((k, v) for k, v in doc.items() if k not in out)
    return (json.dumps(out, ensure_ascii=False, indent=2, allow_nan=False) + "\n").encode("utf-8")


# ------------------------------------------------------------------------- T2

@dataclass
class T2Entry:
    """One T2 entry (from a single-entry file or one section of a multi file).

    ``meta`` is the entry's metadata as written (strings); ``params`` are the
    decryption fields; ``index`` is the position in a multi file (None for a
    single file); ``plaintext`` is True for a file an agent wrote without
    encrypting (``seal_plaintext_t2`` fixes those); ``error`` is set for a
    malformed file (then the other fields may be empty).
    """

    path: Path
    meta: dict[str, Any] = field(default_factory=dict)
    created: date | None = None
    expires: date | None = None
    scheme: str | None = None
    skill: str = ""
    topic: str = ""
    id: str = ""
    key_hint: str = ""
    month: str = ""
    ciphertext: str = ""
    params: dict[str, str] = field(default_factory=dict)
    index: int | None = None
    plaintext: bool = False
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (ciphertext included, never plain text)."""
        return {"id": self.id, "path": self.path.as_posix(), "skill": self.skill, "topic": self.topic,
                "created": self.created.isoformat() if self.created else None,
                "expires": self.expires.isoformat() if self.expires else None,
                "scheme": self.scheme, "key_hint": self.key_hint, "index": self.index,
                "plaintext": self.plaintext, "error": self.error}


def t2_id(skill: str, topic: str, created: str = "") -> str:
    """Return the stable id of a T2 entry (``t-`` + 10 hex of sha256(skill, topic))."""
    return "t-" + hashlib.sha256(f"{skill}\n{topic}".encode("utf-8")).hexdigest()[:10]


def _enc_skill(skill: str) -> str:
    # No "_" left in the skill part: the first "_" of a name always ends the skill.
    return skill.replace("%", "%25").replace("_", "%5F")


def t2_name(skill: str, topic: str) -> str:
    """Return the file name of a single T2 entry: ``<skill>_<topic>.md`` wherever that is unambiguous.

    The mapping is injective (issue 10; ``references/formats.md``, "T2 file
    names"): a ``%`` becomes ``%25`` in both parts, a ``_`` in the *skill*
    becomes ``%5F`` (so skill ``a_b`` + topic ``c`` -> ``a%5Fb_c.md`` never
    meets skill ``a`` + topic ``b_c`` -> ``a_b_c.md``), and a topic shaped
    like a month has its ``-`` written ``%2D`` (``a_2026%2D05.md``), so it
    never meets the month file ``a_2026-05.md`` (:func:`multi_name`). A
    skill without ``_``/``%`` and a topic without ``%`` that is not a month
    keep the v1 name.
    """
    enc_topic = topic.replace("%", "%25")
    if MONTH.match(topic):
        enc_topic = enc_topic.replace("-", "%2D")
    return f"{_enc_skill(skill)}_{enc_topic}.md"


def multi_name(skill: str, month: str) -> str:
    """Return the file name of a skill's month file: ``<skill>_<YYYY-MM>.md`` (skill encoded as in :func:`t2_name`)."""
    return f"{_enc_skill(skill)}_{month}.md"


def t2_path(ws: Path, skill: str, topic: str) -> Path:
    """Return the single-entry file of ``skill``/``topic`` in ``memory/tier2-internal/`` (:func:`t2_name`).

    A file written before the injective names (``a_b_c.md`` for skill
    ``a_b``) is still found: when the v1 name differs, exists and holds this
    very skill and topic, it is returned, so an edit replaces it in place.
    """
    folder = memory_dir(ws) / T2_DIR
    path = folder / t2_name(skill, topic)
    legacy = folder / f"{skill}_{topic}.md"
    if legacy != path and legacy.is_file() and not path.exists():
        try:
            found = parse_t2(read_text(legacy).text, legacy)
        except Exception:  # malformed or unreadable: not this entry's file
            return path
        if len(found) == 1 and found[0].index is None and (found[0].skill, found[0].topic) == (skill, topic):
            return legacy
    return path


def _as_date(value: Any) -> date | None:
    if isinstance(value, datetime):  # YAML reads "2026-09-01 10:00" as a datetime: keep its date
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def _month(key_hint: str, skill: str, created: date | None) -> str:
    """The key month: from ``key_hint`` (``<skill>-YYYY-MM``), else the created month.

    The key month is fixed when the entry is written, so a month rollover
    never changes the key an entry needs.
    """
    tail = key_hint[-7:] if key_hint else ""
    if MONTH.match(tail):
        return tail
    return month_of(created) if created else ""


def _quote(lines: list[str], start: int = 0) -> str:
    """Return the joined ``>`` quote lines starting at or after ``start``."""
    out: list[str] = []
    for line in lines[start:]:
        if line.startswith(">"):
            out.append(line[1:].strip())
        elif out:
            break
    return "".join(out)


def _ciphertext_of(body: str) -> str:
    lines = body.split("\n")
    for n, line in enumerate(lines):
        if line.strip() in _QUOTE_HEADINGS:
            return _quote(lines, n + 1)
    return _quote(lines)


def _is_cipher(text: str) -> bool:
    if crypto.looks_encrypted(text):
        return True
    return bool(text) and re.fullmatch(r"[A-Za-z0-9+/]+={0,2}", text) is not None and len(text) % 4 == 0


def _entry_from_meta(path: Path, meta: dict[str, Any], literal: dict[str, Any], cipher: str,
                     skill_default: str, index: int | None) -> T2Entry:
    skill = str(meta.get("source_skill") or skill_default)
    created = _as_date(meta.get("created"))
    key_hint = str(literal.get("key_hint") or meta.get("key_hint") or "")
    params = {k: str(meta[k]) for k in PARAM_KEYS if meta.get(k) not in (None, "")}
    topic = str(meta.get("topic") or "")
    _check_names(path, skill, topic, str(meta.get("id") or ""))
    return T2Entry(path=path, meta=literal, created=created, expires=_as_date(meta.get("expires")),
                   scheme=params.get("scheme") or ("aes-gcm" if crypto.looks_encrypted(cipher) else "xor-b64"),
                   skill=skill, topic=topic, id=str(meta.get("id") or t2_id(skill, topic)),
                   key_hint=key_hint, month=_month(key_hint, skill, created), ciphertext=cipher,
                   params=params, index=index)


def _check_names(path: Path, skill: str, topic: str, ident: str) -> None:
    """Refuse names from a file that would build a path elsewhere (issue 10: paths from data).

    ``source_skill: ../../..`` would make cleanup archive or compact outside
    the workspace: skill, topic and id must each be one plain file-name
    component (:mod:`memory_manager.names`).

    Raises:
        MalformedFileError: naming the field.
    """
    from .errors import InvalidNameError
    from .names import validate_name, validate_skill

    for value, what, check in ((skill, "source_skill", validate_skill), (topic, "topic", validate_name),
                               (ident, "id", validate_name)):
        if not value and what != "source_skill":
            continue
        try:
            check(value)
        except InvalidNameError as exc:
            raise MalformedFileError(f"{path.name}: {what} is not a safe name ({exc})") from None


def parse_t2(text: str, path: Path) -> list[T2Entry]:
    """Parse a T2 file (single or multi) into entries.

    Raises:
        MalformedFileError: bad frontmatter, unknown format version, or a
            multi-file entry line that is not JSON.
    """
    fm = split_frontmatter(text, path.name)
    meta = fm.meta
    default_skill = unquote(path.stem.split("_", 1)[0])
    fmt = meta.get("format", T2_FORMAT)
    version = meta.get("version", T2_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version > T2_VERSION:
        raise MalformedFileError(f"{path.name}: unsupported T2 version {version!r}")
    if fmt == T2_MULTI_FORMAT:
        entries: list[T2Entry] = []
        lines = fm.body.split("\n")
        for n, line in enumerate(lines):
            m = _ENTRY_META.match(line)
            if not m:
                continue
            from .jsonio import JSONInputError, loads

            try:
                item = loads(m.group(1), path.name)
            except JSONInputError as exc:
                raise MalformedFileError(f"{path.name}: entry metadata on body line {n + 1}: {exc}") from None
            if not isinstance(item, dict):
                raise MalformedFileError(f"{path.name}: entry metadata on body line {n + 1} is not an object")
            merged = {"source_skill": meta.get("source_skill"), **item}
            entries.append(_entry_from_meta(path, merged, {**{k: str(v) for k, v in item.items()}},
                                            _quote(lines, n + 1), default_skill, len(entries)))
        return entries
    if fmt != T2_FORMAT:
        raise MalformedFileError(f"{path.name}: unknown T2 format {fmt!r}")
    cipher = _ciphertext_of(fm.body)
    entry = _entry_from_meta(path, meta, fm.literal, cipher, default_skill, None)
    if not entry.topic:
        entry.topic = unquote(path.stem.split("_", 1)[1] if "_" in path.stem else path.stem)
        entry.id = str(meta.get("id") or t2_id(entry.skill, entry.topic))
    scheme_field = str(meta.get("scheme") or "")
    if scheme_field in ("none", "plain") or (not scheme_field and not _is_cipher(cipher)):
        entry.plaintext = True
        entry.scheme = None
    return [entry]


def t2_files(ws: Path) -> list[Path]:
    """Return the ``*.md`` files in ``memory/tier2-internal/`` sorted by name."""
    folder = memory_dir(ws) / T2_DIR
    if not folder.is_dir() or not stays_inside(ws, folder):
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix == ".md" and not p.name.startswith(".")
                  and stays_inside(ws, p))


def iter_t2_entries(ws: Path) -> Iterator[T2Entry]:
    """Yield every T2 entry in the workspace (single files and multi files).

    A malformed or unreadable file is yielded once with ``error`` set; this
    function never raises for file content.
    """
    for path in t2_files(ws):
        try:
            entries = parse_t2(read_text(path).text, path)
        except Exception as exc:  # MalformedFileError / UnreadableFileError: yield, never raise
            yield T2Entry(path=path, error=str(exc))
            continue
        yield from entries


def iter_archived_t2(ws: Path) -> Iterator[T2Entry]:
    """Yield every T2 entry of the T2 files cleanup moved to ``memory/archive/<YYYY-MM>/`` (expired).

    Recall never searches them (an expired entry never comes back through
    recall, issue 13); ``forget`` and ``show`` find them by id, so what was
    stored can still be forgotten (nu8, round 8: an archived expired entry
    could be reached by nothing). Files that are not T2 (archived daily and
    knowledge entries) and files that cannot be read or parsed are skipped.
    """
    from .units import scan_archive

    for rel_path, _, _ in scan_archive(Path(ws)):
        path = Path(ws) / rel_path
        try:
            text = read_text(path).text
            if not re.search(r"^format:\s*[\"']?cmm-t2", text[:400], re.M):
                continue
            found = parse_t2(text, path)
        except Exception:  # MalformedFileError / UnreadableFileError: not an entry to find
            continue
        yield from (e for e in found if not e.error)


def require_key_for_sealed(ws: Path, cfg: dict[str, Any], *, making_key: bool = False) -> None:
    """Refuse to go on without a key when aes-gcm entries exist in the workspace.

    Args:
        ws: the workspace root.
        cfg: its config (the key's place).
        making_key: the caller is about to make a new key (``keygen``, ``init``,
            ``crypt.py reseal``): the message says a new key cannot open them.

    With no key configured, ``auto`` means xor-b64 and ``init`` would make a
    new key; either hides the fact that the key of the existing aes-gcm
    entries is missing (nu8, round 8: a moved key file made ``remember`` write
    xor-b64 without a word, and ``reseal`` a second key that split the store).
    Counts the aes-gcm entries in ``memory/tier2-internal/``, the archive
    and the quarantine. Nothing happens when a usable key is configured (a
    malformed one raises, as every reader does) or no aes-gcm entry exists.

    With ``making_key``, a store that recorded a key as its own
    (:func:`recorded_key`) is refused too: the new key would not be it.

    Raises:
        KeyUnavailableError: naming how many entries, where the key should be,
            and ``crypt.py keygen --force`` for a new key on purpose; or
            (``making_key``) the store recorded another key.
        UnreadableFileError: (``making_key``) the record is not a regular ASCII file.
        MalformedKeyError: a key is configured but malformed.
    """
    from .errors import KeyRecordedError, KeyUnavailableError, MalformedKeyError

    try:
        if crypto.check_key(cfg):
            return
    except MalformedKeyError:
        if not making_key:
            raise
        # A configured key file that does not exist yet is where the new key goes.
    from . import quarantine

    found = [*iter_t2_entries(ws), *iter_archived_t2(ws)]
    for path in quarantine.files(ws):
        try:
            found.append(quarantine.read(path)[0])
        except Exception:  # malformed: not counted
            continue
    sealed = sum(1 for e in found if not e.error and crypto.looks_encrypted(e.ciphertext or ""))
    if not sealed:
        if making_key and recorded_key(ws) is not None and next(_sealed_things(ws), None) is None:
            marks = sum(1 for _ in _marked_things(ws))
            if marks:
                # A recorded key that keyed approval marks secured something (attack round 16: init
                # replaced it after its file was lost, and the next cleanup, with the new key, found
                # the user's approved entries' marks "not verifying" and quarantined them).
                raise KeyRecordedError(
                    f"this store recorded another key as its own ({tree.rel(tree.STATE, ACCEPTED_NAME)}), which "
                    f"keys the approval marks of {marks} T2 entr{'y' if marks == 1 else 'ies'}: put that key back "
                    f"(the key file {crypto.key_path(cfg)} or {crypto.ENV_KEY}), or start a new key on purpose with "
                    "crypt.py keygen --force (those marks cannot be checked until it is back; cleanup leaves "
                    "their entries in place); nothing was changed")
        if making_key and recorded_key(ws) is not None and next(_sealed_things(ws), None) is not None:
            # One store, one key (attack round 12): a store that recorded its key takes a new one
            # only on purpose (--force), even when no aes-gcm entry is live (its archive, quarantine
            # or backups may be sealed with the recorded key). A recorded key that secured nothing
            # anywhere (no sealed item, no approval mark: init records the key it makes, round 11)
            # splits nothing: a lost key file is simply made again.
            raise KeyUnavailableError(
                f"this store recorded another key as its own ({tree.rel(tree.STATE, ACCEPTED_NAME)}): put that key "
                f"back (the key file {crypto.key_path(cfg)} or {crypto.ENV_KEY}), or start a new key on purpose with "
                "crypt.py keygen --force (what the old key sealed stays unreadable until it is back); nothing was "
                "changed")
        return
    n = f"{sealed} T2 entr{'y is' if sealed == 1 else 'ies are'}"
    where = f"the key file {crypto.key_path(cfg)} or {crypto.ENV_KEY}"
    if making_key:
        raise KeyUnavailableError(
            f"{n} sealed with aes-gcm by a key that is not here ({where}): a new key cannot open them; put the "
            "old key back. To start a new key anyway (they stay unreadable until the old key is back): "
            "crypt.py keygen --force; nothing was changed")
    raise KeyUnavailableError(
        f"{n} sealed with aes-gcm, but no key is found ({where}): put the key back (xor-b64 would not protect "
        "new entries, and a new key cannot open the old ones); nothing was stored")


def key_source(cfg: dict[str, Any]) -> str:
    """Where the active T2 key comes from, for a message: ``MEMORY_MANAGER_KEY`` or ``the key file PATH``."""
    return crypto.ENV_KEY if crypto.key_state(cfg) == "env" else f"the key file {crypto.key_path(cfg)}"


#: ``memory/.state/t2-key-accepted``: the store's key as a recorded fact (attack round 12): key
#: check values, one a line, oldest first; the last line is the one key that seals here. Written
#: the first time a key seals anything (:func:`sealing_key`), by ``keygen`` and ``init``'s key
#: creation, and changed only by ``crypt.py keygen --force`` (:func:`accept_key`).
ACCEPTED_NAME = "t2-key-accepted"


def key_check(key: bytes) -> str:
    """A key check value: 32 hex digits of HMAC-SHA-256(key, label); tells keys apart, reveals nothing of one."""
    return anchor.check_value(key)


def accept_key(ws: Path, key: bytes) -> Callable[[], str] | None:
    """Record ``key`` as this store's key: its check value becomes the record's last line.

    :func:`sealing_key` calls it the first time a key seals anything here;
    ``crypt.py keygen`` and ``init`` when they make a key; ``crypt.py keygen
    --force`` before it puts the new key in place: the new key then writes
    and the old one no longer does (the user was told the old entries stay
    unreadable until their key is back). The file (0600) holds only key
    check values (:func:`key_check`), one a line, oldest first; only the
    last one is accepted (:func:`recorded_key`).

    Returns:
        None when nothing was written (no memory tree here, or the key is recorded
        already), else a function that puts the record back as it was (removes it
        when this call made it) and returns what is left, for the caller's message:
        ``"nothing was changed"``, or a line naming the record when it could not be
        put back (keygen undoes the record when the key cannot be put in place:
        issue 11, whole or nothing).

    Raises:
        UnreadableFileError: something other than a regular file stands at the
            record's place (a folder, a symlink, a FIFO), or it cannot be read as
            text: bad input, exit 2; nothing was written (a record read as empty
            and rewritten would drop the keys accepted earlier).
        FileWriteError: the record could not be written (full disk, file-size
            limit, permissions); it is unchanged.
    """
    import os
    import stat

    from . import fsio
    from .errors import UnreadableFileError
    from .regular import file_kind, read_regular

    path = tree.Tree(ws).state_file(ACCEPTED_NAME)
    if not path.parent.parent.is_dir():  # no memory tree here: no entries either
        return None
    rel = tree.rel(tree.STATE, ACCEPTED_NAME)
    fsio.make_dirs(path.parent)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise UnreadableFileError(f"{rel}: cannot be read ({exc.strerror or exc}); nothing was changed") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a symlink" if stat.S_ISLNK(st.st_mode) else file_kind(st.st_mode)
        raise UnreadableFileError(f"{rel} is {kind}, not the key record this bundle writes: move it away and "
                                  "run keygen --force again; nothing was changed")
    old = None
    if st is not None:
        try:
            old = read_regular(path, limit=1 << 20)
            known = old.decode("ascii").split()
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not ASCII text"
            raise UnreadableFileError(f"{rel}: cannot be read ({why}): move it away and run keygen --force "
                                      "again; nothing was changed") from None
    else:
        known = []
    value = key_check(key)
    # Oldest first, the accepted key last: a key check value already in the history moves to the end.
    values = [*(k for k in known if k != value), value]
    written = not (known and known[-1] == value)
    if written:
        fsio.atomic_write(path, ("\n".join(values) + "\n").encode("ascii"), mode=0o600)
    # This machine's note outside the workspace follows the record (tatk18: the record alone can be
    # planted or deleted by whoever writes the workspace; anchor.py). Best effort: no note, the
    # record decides as before.
    unnote = anchor.note_keys(ws, values)
    if not written and unnote is None:
        return None

    def undo() -> str:
        if unnote is not None:
            unnote()
        if not written:
            return "nothing was changed"
        try:
            if old is None:
                fsio.remove(path, missing_ok=True)
            else:
                fsio.atomic_write(path, old, mode=0o600)
        except (OSError, MemoryManagerError):
            return (f"{rel} keeps the check value of the key that was not made (harmless: no key matches it; "
                    "nothing else was changed)")
        fsio.unrecord(path)  # put back byte for byte: not a change to report
        return "nothing was changed"

    return undo


def record_made_key(ws: Path, cfg: dict[str, Any]) -> bool:
    """Record the key file a command just made as the store's key, when the store records none yet.

    For a command that makes the key before the memory tree exists (``init``
    on a new workspace: the key comes first so a key that cannot be made leaves
    the workspace untouched) or that may seal nothing with it (``crypt.py
    reseal`` with nothing to reseal). Attack round 13: such a key was never
    recorded, so another key in ``MEMORY_MANAGER_KEY`` that sealed first took
    the store and the key file the command printed was refused from then on.
    Every command that creates a key records it (references/tiers.md). A store
    that records a key already keeps it when anything here is sealed (the command
    that made the key checked it first: :func:`require_key_for_sealed` with
    ``making_key``); a recorded key that secured nothing (no sealed item and no
    ``v2:t2`` approval mark, :func:`_secured_things`: its file lost before any T2
    entry) is replaced. Takes the workspace's writer lock.

    Args:
        ws: the workspace root (nothing is written without a memory tree).
        cfg: its config (the key file's place); the key file is read, not
            ``MEMORY_MANAGER_KEY`` (the command made the file).

    Returns:
        True when the record was written.

    Raises:
        MalformedKeyError: the key file no longer reads as a key.
        UnreadableFileError: the record is not a regular ASCII file.
        FileWriteError: the record could not be written.
    """
    import os

    from . import fsio

    key = crypto.load_key(cfg, {k: v for k, v in os.environ.items() if k != crypto.ENV_KEY})
    with fsio.workspace_lock(ws):
        recorded = recorded_key(ws)
        if recorded == key_check(key):
            adopt_record(ws, key)  # trust on first use: the key file is the recorded key (anchor.py)
            return False
        if recorded is not None and next(_secured_things(ws), None) is not None:
            return False
        return accept_key(ws, key) is not None


def unrecorded_key_file(ws: Path, cfg: dict[str, Any]) -> bool:
    """True when ``init`` should record the key file as the store's key although it made no key now.

    ``init`` makes its key before the workspace changes and records it once the
    memory tree exists, inside its backup (:func:`record_made_key`). Killed in
    between (fatk11: 45 of its 49 steps), it left the key file and, once its change
    was rolled back, no record; the re-run found the key, made none, recorded none,
    and another ``MEMORY_MANAGER_KEY`` that sealed first took the store: the key
    file init had made was refused from then on. So an ``init`` that applies its
    plan records the key file when all of these hold:

    - the key file (:func:`crypto.key_path`, where init makes its key) exists and
      reads as a key;
    - ``MEMORY_MANAGER_KEY`` is unset or holds that same key: the key file is the
      key this store would seal with. Another key in the environment wins over the
      file (:func:`crypto.load_key`) and an uninterrupted init in that shell would
      have made and recorded none: init records neither, and the first key that
      seals becomes the store's (:func:`sealing_key`), as without the key file;
    - the store records no key yet (a recorded key changes only with
      ``crypt.py keygen --force``);
    - nothing here is sealed with aes-gcm (live, archived, quarantined entries,
      sealed backup copies) or carries a ``v2:t2`` approval mark (round 16): a store with sealed items and no record (written before
      round 12) accepts only a key that opens them all (:func:`require_key_opens_sealed`).

    False when any of these cannot be read (a malformed key, a record that is not
    a regular file): the commands that seal report those.
    """
    import os

    from .errors import MemoryManagerError

    without_env = {k: v for k, v in os.environ.items() if k != crypto.ENV_KEY}
    try:
        if crypto.key_state(cfg, without_env) != "file":
            return False
        key = crypto.load_key(cfg, without_env)
        if crypto.ENV_KEY in os.environ and crypto.load_key(cfg) != key:
            return False
        if recorded_key(ws) is not None:
            return False
    except MemoryManagerError:
        return False
    return next(_secured_things(ws), None) is None


def recorded_key(ws: Path) -> str | None:
    """The key check value the record names (its last line), or None with no record.

    The record is a cache of this machine's note when one exists (:func:`store_key`
    decides which key is the store's); this reads the record alone.

    Raises:
        UnreadableFileError: as :func:`recorded_keys`.
    """
    values = recorded_keys(ws)
    return values[-1] if values else None


def recorded_keys(ws: Path) -> list[str]:
    """The record's key check values (``memory/.state/t2-key-accepted``), oldest first; empty with no record.

    Raises:
        UnreadableFileError: something other than a regular ASCII file stands at
            ``memory/.state/t2-key-accepted`` (a folder, a symlink, binary bytes):
            which key is the store's cannot be told, so nothing seals (fail closed).
    """
    import os
    import stat

    from .errors import UnreadableFileError
    from .regular import file_kind, read_regular

    path = tree.Tree(ws).state_file(ACCEPTED_NAME)
    rel = tree.rel(tree.STATE, ACCEPTED_NAME)
    before = anchor.unfinished_keygen(ws)
    if before is not None:
        # A keygen --force that never put its key in place (killed, or not there yet): the record
        # it wrote names a key that exists nowhere; read what it held before (tatk20 9).
        return [] if before[0] is None else before[0].decode("ascii", "replace").split()
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise UnreadableFileError(f"{rel}: cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a symlink" if stat.S_ISLNK(st.st_mode) else file_kind(st.st_mode)
        raise UnreadableFileError(f"{rel} is {kind}, not the key record this bundle writes: move it away")
    try:
        values = read_regular(path, limit=1 << 20).decode("ascii").split()
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not ASCII text"
        raise UnreadableFileError(f"{rel}: cannot be read ({why}): move it away") from None
    return values


def store_key(ws: Path) -> str | None:
    """The store's key check value, None for a store with no key: this machine's note when it can be read, else the record.

    The note (:mod:`memory_manager.anchor`, outside the workspace) decides when it can
    be read, and the record (:func:`recorded_key`) is then only a cache: the record
    lies in the workspace, where the hand that forges an entry can plant or delete it
    (tatk18, findings 1 and 2). With no note (a moved workspace, another ``HOME``, a
    store from before the note) or one that cannot be read, the record decides, as
    before; its disagreement with a readable note is reported (:func:`store_key_problem`).

    Raises:
        UnreadableFileError: (no readable note) the record is not a regular ASCII file.
    """
    note, _why = anchor.read(ws)
    if note is not None:
        return note.key
    return recorded_key(ws)


def store_key_problem(ws: Path) -> str | None:
    """One line for cleanup's and doctor's problems when the note and the record disagree, or the note cannot be read.

    None when they agree, when there is no note, or no record and no note.
    """
    from .errors import UnreadableFileError

    rel = tree.rel(tree.STATE, ACCEPTED_NAME)
    note, why = anchor.read(ws)
    # Worded so that privacy.mask_name (cleanup masks its problems) leaves the line whole.
    if why is not None:
        return (f"this machine's note of this store ({anchor.FOLDER}/{anchor.name(ws)} in the config folder) {why}, "
                f"so it is not used and {rel}, the store's key record, decides; remove the note and it is written "
                "again (trust on first use)")
    if note is None:
        return None
    try:
        recorded = recorded_key(ws)
    except UnreadableFileError:
        recorded = "?"
    if recorded == note.key:
        return None
    return f"{rel}, the store's key record, does not match this machine's note; trusting the note"


def adopt_record(ws: Path, key: bytes) -> bool:
    """Trust on first use: write this machine's note from the record when there is none and ``key`` is the recorded one.

    For a store from before the note, a moved workspace or another ``HOME``: the first
    run with the key at hand that finds it matches the record writes the note
    (:func:`sealing_key`, :func:`record_made_key`). Never raises; True when written.
    """
    from .errors import UnreadableFileError

    try:
        values = recorded_keys(ws)
    except UnreadableFileError:
        return False
    if not values or values[-1] != key_check(key):
        return False
    return anchor.note_keys(ws, values, only_new=True) is not None


def _every_t2_entry(ws: Path) -> Iterator[T2Entry]:
    """Every T2 entry of the workspace: live, archived and quarantined (a malformed quarantine file is skipped)."""
    from . import quarantine

    yield from iter_t2_entries(ws)
    yield from iter_archived_t2(ws)
    for path in quarantine.files(ws):
        try:
            yield quarantine.read(path)[0]
        except Exception:  # malformed: not counted
            continue


def _sealed_things(ws: Path) -> Iterator[Callable[[bytes], bool]]:
    """One test per aes-gcm item of the workspace: live, archived and quarantined entries, sealed backup copies.

    Each yielded function tells whether a key opens that item (AES-GCM
    authenticates, so a wrong key never opens one by chance).
    """
    from . import backups
    from .errors import CryptoError, KeyUnavailableError

    for entry in _every_t2_entry(ws):
        if entry.error or not crypto.looks_encrypted(entry.ciphertext or ""):
            continue

        def opens(key: bytes, entry: T2Entry = entry) -> bool:
            try:
                crypto.aes_decrypt(entry.ciphertext or "", entry.skill, key, entry.topic or "", entry.id or "")
            except (CryptoError, KeyUnavailableError, TypeError, ValueError):
                return False
            return True

        yield opens
    for ident, rel, blob in backups.sealed_copies(ws):
        yield lambda key, ident=ident, rel=rel, blob=blob: backups.opens_copy(key, ident, rel, blob)


def _marked_things(ws: Path) -> Iterator[Callable[[bytes], bool]]:
    """One test per ``v2:t2`` approval mark on a T2 entry not sealed with aes-gcm (live, archived, quarantined).

    Each yielded function tells whether a key keyed that mark
    (:func:`memory_manager.keyed.t2_mark_keyed_with`). A key that keyed approval
    marks secured something here as much as one that sealed an entry: replaced by
    a new key, the marks could no longer be checked (attack round 16). Entries
    sealed with aes-gcm are counted by :func:`_sealed_things` already.
    """
    from . import keyed

    for entry in _every_t2_entry(ws):
        mark = str((entry.meta or {}).get("approval") or "")
        if entry.error or not mark.startswith("v2:t2:") or crypto.looks_encrypted(entry.ciphertext or ""):
            continue
        try:
            plain = decrypt_entry(entry, {})  # xor-b64 or plain text: no key needed
        except Exception:  # unreadable: no mark to check
            continue
        day = str((entry.meta or {}).get("approved") or "").strip()
        yield lambda key, entry=entry, plain=plain, day=day, mark=mark: keyed.t2_mark_keyed_with(
            key, entry.id or "", day, plain, mark)


def _secured_things(ws: Path) -> Iterator[Callable[[bytes], bool]]:
    """:func:`_sealed_things`, then :func:`_marked_things`: everything a key secured here."""
    yield from _sealed_things(ws)
    yield from _marked_things(ws)


def require_key_opens_sealed(ws: Path, cfg: dict[str, Any], changed: str = "nothing was stored") -> None:
    """Refuse to seal with a key that is not this store's key.

    One store, one key (attack rounds 10-12): the key is a recorded fact,
    the last key check value in ``memory/.state/t2-key-accepted``
    (:func:`recorded_key`), and only that key seals. Round 12 showed that
    "a key that opens some aes-gcm entry here, or any key while there is
    none" splits the store: a key opening only an archived entry copied in
    sealed beside the live entries, and after ``crypt.py decrypt --file``
    (no aes-gcm entry live) any key sealed while the backups needed the
    first one. A workspace with no record yet (written before round 12, or
    no key has sealed anything) accepts a key only when it opens *every*
    aes-gcm item found (live, archived, quarantined entries and sealed
    backup copies; none at all counts); :func:`sealing_key` then records it.
    Nothing happens with no key configured (the callers' own checks handle that).

    ``changed`` ends the message (what the refused command left as it was).
    Sealing code calls :func:`sealing_key` (or :func:`seal`), which calls this.

    Raises:
        WrongKeyError: the key is not the recorded one, or (no record) some
            aes-gcm item here does not open with it; the message names the
            key's source.
        UnreadableFileError: the record is not a regular ASCII file (fail closed).
        MalformedKeyError: the key is configured but malformed.
    """
    from .errors import WrongKeyError

    if not crypto.check_key(cfg):
        return
    key = crypto.load_key(cfg)
    recorded = recorded_key(ws)
    if recorded is not None:
        if recorded == key_check(key):
            return
        raise WrongKeyError(
            f"the T2 key from {key_source(cfg)} is not this store's key (recorded in "
            f"{tree.rel(tree.STATE, ACCEPTED_NAME)}): put this store's key there or unset it, or start a new key "
            f"on purpose with crypt.py keygen --force; writing with it would split the store; {changed}")
    total = shut = 0
    for opens in _sealed_things(ws):
        total += 1
        if not opens(key):
            shut += 1
    if shut:
        raise WrongKeyError(
            f"the T2 key from {key_source(cfg)} does not open {shut} of the {total} items sealed with aes-gcm here "
            f"(entries and backup copies; another key sealed them): put this store's key there or unset it; "
            f"writing with it would split the store; {changed}")


def sealing_key(ws: Path, cfg: dict[str, Any], changed: str = "nothing was stored", *,
                record: bool = True) -> bytes | None:
    """The one check before anything is sealed with the T2 key: return the key, None when none is configured.

    Every door that seals with the T2 key (``remember``, cleanup's
    quarantine, ``import`` of aes-gcm entries, ``crypt.py encrypt`` and
    ``reseal``, the upkeep's sealing of plain T2 files, the sealed copies in
    ``.memory-backup/`` and ``forget``'s journal) takes its key here, so a key
    this store did not accept never seals anything in it: attack round 11
    found cleanup's quarantine and ``import`` sealing with another machine's
    key (``MEMORY_MANAGER_KEY``) after round 10 had closed ``remember``.
    The accepted key is the recorded one (:func:`require_key_opens_sealed`);
    with no record yet, the key that passes is recorded here (the first key
    to seal anything becomes the store's key, attack round 12), unless
    ``record`` is False (a dry run, which changes nothing).
    ``tests/test_layout.py`` checks that no other module calls the crypto
    module's sealing functions. ``changed`` ends the refusal.

    Raises:
        WrongKeyError: the key is not this store's (:func:`require_key_opens_sealed`).
        UnreadableFileError: the record is not a regular ASCII file.
        FileWriteError: the record could not be written.
        MalformedKeyError: a key is configured but malformed (fail closed).
    """
    if not crypto.check_key(cfg):
        return None
    require_key_opens_sealed(ws, cfg, changed)
    key = crypto.load_key(cfg)
    if record and recorded_key(ws) is None and accept_key(ws, key) is not None:
        # Bookkeeping, not a change of the user's memories: a command refused after this point
        # still says "nothing was changed" (the same key would be recorded on its next run).
        from . import fsio

        fsio.unrecord(tree.Tree(ws).state_file(ACCEPTED_NAME))
    elif record:
        adopt_record(ws, key)  # trust on first use: the key at hand is the recorded one (anchor.py)
    return key


def seal(ws: Path, cfg: dict[str, Any], text: str, skill: str, month: str, scheme: str | None = None, *,
         topic: str, entry_id: str) -> crypto.Sealed:
    """Seal one T2 text for ``skill``/``topic``/``entry_id`` in workspace ``ws``: :func:`crypto.encrypt` behind :func:`sealing_key`.

    The scheme is ``scheme`` or the config's (:func:`crypto.choose_scheme`);
    a key that is configured is checked whatever the scheme (a second key is
    a mistake to report, not a reason to write xor-b64 instead).

    Raises:
        WrongKeyError: the key in use is not this store's (:func:`sealing_key`).
        KeyUnavailableError: aes-gcm asked for and no key; MalformedKeyError: a broken key.
        CryptoError: ``text`` is already an aes-gcm ciphertext.
    """
    sealing_key(ws, cfg)
    return crypto.encrypt(text, skill, month, cfg, scheme, topic=topic, entry_id=entry_id)


def decrypt_entry(entry: T2Entry, cfg: dict[str, Any]) -> str:
    """Return the plain text of a T2 entry.

    A plaintext entry (an agent wrote it unencrypted) returns its body.

    Raises:
        KeyUnavailableError: an aes-gcm entry and no key.
        MalformedKeyError: a key is configured but malformed (whatever the
            entry's scheme: a reader fails closed, crypto module docstring).
        CryptoError: wrong key, tampered or truncated ciphertext, a text
            moved from another skill, topic or entry, or the entry is
            malformed (``entry.error``).
    """
    crypto.check_key(cfg)
    if entry.error:
        raise CryptoError(f"{entry.path.name}: {entry.error}")
    if entry.plaintext:
        fm = split_frontmatter(read_text(entry.path).text, entry.path.name)
        return fm.body.strip("\n")
    if not entry.ciphertext:
        raise CryptoError(f"{entry.path.name}: no ciphertext found")
    if not entry.month:
        raise CryptoError(f"{entry.path.name}: no key month (key_hint or created) recorded")
    return crypto.decrypt(entry.ciphertext, entry.skill, entry.month, entry.params, cfg,
                          topic=entry.topic, entry_id=entry.id)


def _note(params: dict[str, str], skill: str, month: str, lang: str) -> str:
    if params["scheme"] == "aes-gcm":
        if lang == "zh":
            return "AES-256-GCM（随机 96 位 nonce）；密钥来自 MEMORY_MANAGER_KEY 或密钥文件，不在工作区内。"
        return "AES-256-GCM (random 96-bit nonce); key from MEMORY_MANAGER_KEY or the key file, never in the workspace."
    enc = params.get("text_encoding", "latin-1")
    if lang == "zh":
        return (f'密钥 = sha256("{skill}{month}")[:8]（种子代码的写法，无连字符），文本编码 {enc}，然后 XOR + base64 解码。'
                "注意：这只是混淆，不是加密，任何人都能推导出密钥。")
    return (f'Key = sha256("{skill}{month}")[:8] (the seed code\'s form, no hyphen), text encoding {enc}, '
            "then XOR + base64 decode. This is obfuscation, not encryption: anyone can derive the key.")


def _params_lines(params: dict[str, str]) -> str:
    return "".join(f"{k}: {yaml_scalar(params[k])}\n" for k in PARAM_KEYS if k in params)


def render_t2(skill: str, topic: str, sealed: crypto.Sealed, created: date, expiry_days: int,
              month: str, lang: str) -> str:
    """Render a single-entry T2 file (``cmm-t2`` v1) with ``internal-entry.md``."""
    from .templates import render

    return render("internal-entry.md", lang, skill=yaml_scalar(skill), topic=yaml_scalar(topic),
                  key_hint=yaml_scalar(f"{skill}-{month}"), created=created.isoformat(),
                  expires=(created + timedelta(days=expiry_days)).isoformat(), id=t2_id(skill, topic),
                  params=_params_lines(sealed.params), ciphertext=sealed.ciphertext,
                  note=_note(sealed.params, skill, month, lang))


def mark_approved(text: str, day: date, seal: str | None = None) -> str:
    """Return a single-entry T2 file's ``text`` with ``approved: <day>`` (and ``approval: <seal>``) in its frontmatter.

    The user approved storing this entry: cleanup keeps it even when the
    detector flags a possible name or handle (issue 10, ``quarantine``).
    ``seal`` is :func:`memory_manager.keyed.approval_mark` for this entry:
    without it (or with one that does not verify) the date is only a claim,
    which keeps cleanup from destroying the entry but not from quarantining it.
    """
    fm = split_frontmatter(text, "entry")
    fields = {"approved": day.isoformat(), **({"approval": seal} if seal else {})}
    return join_frontmatter(set_frontmatter_fields(fm.raw, fields), fm.body)


def seal_text_file(ws: Path, text: str, path: Path, cfg: dict[str, Any], scheme: str | None = None) -> str:
    """Return the sealed form of a plain-text T2 file's ``text`` (frontmatter kept line by line).

    Sealed through :func:`seal` (the key must be this store's, ``ws``).

    Raises:
        WrongKeyError: the key in use is not this store's.
        CryptoError: the file is already encrypted (never twice).
        MalformedFileError: the frontmatter cannot be read.
    """
    entries = parse_t2(text, path)
    if len(entries) != 1 or not entries[0].plaintext:
        raise CryptoError(f"{path.name}: already encrypted; refusing to encrypt twice")
    entry = entries[0]
    fm = split_frontmatter(text, path.name)
    created = entry.created or today()
    month = entry.month or month_of(created)
    plain = fm.body.strip("\n")
    sealed = seal(ws, cfg, plain, entry.skill, month, scheme, topic=entry.topic, entry_id=entry.id)
    expiry = int(cfg.get("tiers", {}).get("t2_expiry_days", 30))
    fields: dict[str, Any] = {}
    for key, value in (("tier", "internal"), ("source_skill", entry.skill),
                       ("key_hint", f"{entry.skill}-{month}"), ("created", created),
                       ("expires", created + timedelta(days=expiry))):
        if key not in fm.meta:
            fields[key] = value
    fields.update({"format": T2_FORMAT, "version": T2_VERSION, "id": entry.id, "topic": entry.topic})
    fields.update({k: sealed.params.get(k) for k in PARAM_KEYS if k in sealed.params})
    lang = language(cfg)
    heads = ("## 加密条目", "## 解密说明") if lang == "zh" else ("## Encrypted Entry", "## Decryption Note")
    # The sealed body starts as the plain one did (right after the frontmatter,
    # or after a blank line), so that decrypting in place gives that layout back.
    gap = "\n" if fm.body.startswith("\n") else ""
    body = f"{gap}{heads[0]}\n> {sealed.ciphertext}\n\n{heads[1]}\n{_note(sealed.params, entry.skill, month, lang)}\n"
    return join_frontmatter(set_frontmatter_fields(fm.raw, fields), body)


def _drop_fields(raw: str, keys: tuple[str, ...]) -> str:
    """Return frontmatter text ``raw`` without the top-level lines of ``keys`` (other lines byte for byte)."""
    pattern = re.compile(rf"^(?:{'|'.join(map(re.escape, keys))})\s*:")
    return "\n".join(line for line in raw.split("\n") if not pattern.match(line))


def reseal_text(ws: Path, text: str, path: Path, cfg: dict[str, Any]) -> tuple[str, list[str]]:
    """Return a T2 file's ``text`` with every xor-b64 entry sealed with aes-gcm, and their plain texts.

    xor-b64 is obfuscation (its key comes from the skill and month, crypto
    module docstring): once the user has a T2 key, its entries should be
    encrypted for real (walk-through r6, finding 3). Each xor-b64 entry is
    decoded and sealed with aes-gcm, bound to its skill, topic and id; its
    plain text, id, topic, dates and approval stay as they were (an approval
    mark binds the plain text, not the ciphertext). aes-gcm entries are
    copied unchanged. A single-entry file keeps its frontmatter lines except
    the xor-b64 fields (``text_encoding``, ``key_derivation``); a month file
    is written again as ``cmm-t2-multi`` v1. Returns ``(text, [])`` when
    there is nothing to reseal (plain-text files are :func:`seal_text_file`'s).

    Raises:
        KeyUnavailableError: no T2 key; MalformedKeyError: a broken one.
        WrongKeyError: the key in use is not this store's (``ws``, :func:`seal`).
        CryptoError: an xor-b64 entry that does not decode.
        MalformedFileError: the file cannot be parsed.
    """
    found = parse_t2(text, path)
    targets = [e for e in found if not e.plaintext and e.scheme == "xor-b64"]
    if not targets:
        return text, []
    plains = []
    for entry in targets:
        plain = decrypt_entry(entry, cfg)
        sealed = seal(ws, cfg, plain, entry.skill, entry.month, "aes-gcm", topic=entry.topic, entry_id=entry.id)
        entry.ciphertext, entry.params, entry.scheme = sealed.ciphertext, dict(sealed.params), "aes-gcm"
        plains.append(plain)
    if found[0].index is not None:
        return render_multi(found[0].skill, found[0].month, found), plains
    entry = found[0]
    fm = split_frontmatter(text, path.name)
    raw = set_frontmatter_fields(_drop_fields(fm.raw, ("text_encoding", "key_derivation")), {"scheme": "aes-gcm"})
    lang = "zh" if _QUOTE_HEADINGS[1] in fm.body else "en"  # the file's own language
    heads = ("## 加密条目", "## 解密说明") if lang == "zh" else ("## Encrypted Entry", "## Decryption Note")
    gap = "\n" if fm.body.startswith("\n") else ""
    body = (f"{gap}{heads[0]}\n> {entry.ciphertext}\n\n{heads[1]}\n"
            f"{_note(entry.params, entry.skill, entry.month, lang)}\n")
    return join_frontmatter(raw, body), plains


def seal_plaintext_t2(ws: Path, cfg: dict[str, Any]) -> list[Path]:
    """Encrypt every T2 file an agent wrote in plain text; return the files changed.

    Each file is backed up first (one backup, reason ``seal-t2``) and
    rewritten atomically; its frontmatter lines are kept and the fields a
    reader needs are added. The caller holds the workspace lock. Malformed
    files are left alone.
    """
    from . import backups

    targets = [e for e in iter_t2_entries(ws) if e.plaintext and not e.error]
    if not targets:
        return []
    # Before the backup opens: a key this store did not accept seals nothing (attack round 11).
    sealing_key(ws, cfg, "nothing was sealed")
    backup = backups.start(ws, "seal-t2", allow_withheld=True)
    changed = []
    for entry in targets:
        tf = read_text(entry.path)
        new_text = seal_text_file(ws, tf.text, entry.path, cfg)
        backup.save(entry.path)
        atomic_write_text(entry.path, new_text, tf, mode=0o600)
        changed.append(entry.path)
    return changed


def multi_path(ws: Path, skill: str, month: str) -> Path:
    """Return ``memory/tier2-internal/<skill>_<YYYY-MM>.md`` (a ``cmm-t2-multi`` file; :func:`multi_name`)."""
    return memory_dir(ws) / T2_DIR / multi_name(skill, month)


def render_multi(skill: str, month: str, entries: list[T2Entry]) -> str:
    """Render a ``cmm-t2-multi`` v1 file holding ``entries`` (all of ``skill``)."""
    created = min((e.created for e in entries if e.created), default=None)
    expires = max((e.expires for e in entries if e.expires), default=None)
    head = ["format: " + T2_MULTI_FORMAT, f"version: {T2_VERSION}", "tier: internal",
            f"source_skill: {yaml_scalar(skill)}", f"key_hint: {yaml_scalar(f'{skill}-{month}')}"]
    if created:
        head.append(f"created: {created.isoformat()}")
    if expires:
        head.append(f"expires: {expires.isoformat()}")
    blocks = []
    for entry in entries:
        item = {"id": entry.id, "topic": entry.topic,
                "created": entry.created.isoformat() if entry.created else None,
                "expires": entry.expires.isoformat() if entry.expires else None,
                "key_hint": entry.key_hint or f"{skill}-{month}", **entry.params}
        if "scheme" not in item:
            item["scheme"] = entry.scheme
        if (entry.meta or {}).get("approved"):
            # The user's approval travels with the entry (issue 10: cleanup never destroys it).
            item["approved"] = str(entry.meta["approved"])
            if (entry.meta or {}).get("approval"):
                item["approval"] = str(entry.meta["approval"])  # the mark binding it to this entry
        blocks.append(f"## Entry {entry.id}\n<!-- cmm-t2-entry: {json.dumps(item, ensure_ascii=False, allow_nan=False)} -->\n"
                      f"> {entry.ciphertext}\n")
    return join_frontmatter("\n".join(head), "\n" + "\n".join(blocks))


def compact(ws: Path, entries: list[T2Entry], backup: Any) -> list[Path]:
    """Combine T2 entries into one ``cmm-t2-multi`` file per skill and key month.

    Args:
        ws: the workspace.
        entries: entries from :func:`iter_t2_entries`; malformed and
            plaintext ones are skipped (seal them first).
        backup: an open :class:`memory_manager.backups.Backup`; every file
            written or removed is saved in it first.

    Existing multi files are merged: an id is kept once, the newer copy
    winning (later ``created``; on a tie, the copy outside the month file,
    which is the one ``remember`` wrote last). A source file is removed
    once all its entries are written elsewhere; a multi file that keeps
    other entries is rewritten with those alone. The ciphertexts are copied
    unchanged (no decryption needed). The caller holds the workspace lock.

    Returns the multi files written.
    """
    groups: dict[tuple[str, str], list[T2Entry]] = {}
    for entry in entries:
        if entry.error or entry.plaintext or not entry.month or not entry.ciphertext:
            continue
        groups.setdefault((entry.skill, entry.month), []).append(entry)
    written: list[Path] = []
    sources: set[Path] = set()
    moved: dict[str, T2Entry] = {}
    for (skill, month), group in groups.items():
        target = multi_path(ws, skill, month)
        merged: dict[str, T2Entry] = {}
        if target.exists():
            for old in parse_t2(read_text(target).text, target):
                merged[old.id] = old
        for entry in group:
            old = merged.get(entry.id)
            if old is None or _newer(entry, old, target):
                merged[entry.id] = entry
            if entry.path != target:
                sources.add(entry.path)
        backup.save(target)
        atomic_write(target, render_multi(skill, month, list(merged.values())).encode("utf-8"), mode=0o600)
        written.append(target)
        moved.update(merged)
    for path in sorted(sources - set(written)):
        if not path.exists():
            continue
        backup.save(path)
        rest = [e for e in parse_t2(read_text(path).text, path) if e.id not in moved]
        if rest and rest[0].index is not None:  # a multi file with entries of another month: keep those
            atomic_write(path, render_multi(rest[0].skill, rest[0].month, rest).encode("utf-8"), mode=0o600)
        elif not rest:
            remove(path)
    return written


def _newer(entry: T2Entry, old: T2Entry, target: Path) -> bool:
    """True when ``entry`` should replace ``old`` (same id) in a compaction into ``target``."""
    a, b = entry.created or date.min, old.created or date.min
    if a != b:
        return a > b
    return entry.path != target and old.path == target
