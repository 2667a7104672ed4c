"""The gate's audit log: ``memory/.state/gate-audit.jsonl`` (format ``cmm-gate-audit`` v3, reads v2 and v1).

One JSON object per line, appended under the workspace lock. A line never
holds content (issue 10): its ``summary`` is only the content's length and
the detected categories (``<42 chars withheld: name>``), next to the
operation, decision and a keyed hash.

v2 (``"v": 2``, attack round 10): the hash is HMAC-SHA-256 of the content's
SHA-256 with a secret that never lies in the workspace
(:mod:`memory_manager.keyed`: derived from the T2 key when one is
configured, else the local hash-secret), named by ``kid`` (``t2`` or
``local``). Two records of the same content under the same secret share a
hash, yet a guess (10,000 phone numbers of one exchange) cannot be checked
with the workspace alone, nor the plain text of a sealed T2 entry without
its key. Only a decision that let its content through (``proceed``) keeps
a hash: a refused one (certain findings: T3, never stored) and one held for
the user's word (``ask``, ``request_approval``, ``narrow``,
``avoid_storing``: nothing stored unless a later, approved call stores it,
with a record of its own) keep none (``"hash": null``), only operation,
categories, decision and length (atk11: the config folder's hash-secret
confirmed a guess at a declined value). Nothing of such content is stored
to be linked to, so nothing that a guess could confirm is kept. Neither does a delete record
(``forget``, cleanup's purge: the content is gone), and ``forget`` blanks the hashes of the records that concerned the
forgotten entry (:func:`blank_hashes`). Without any secret (no key and the
hash-secret folder unusable) the hash is null too: less is kept, never more.

v3 (``"v": 3``, attack round 11): a record that keeps a hash also names
the entry it concerns, by a keyed reference (``entry``: HMAC of the entry's
stable id under the same secret as the hash, :func:`entry_ref`). ``forget``
blanks every record of the entry by that reference (:func:`blank_hashes`),
whatever text each decision saw: every version of an edited entry, every
write merged into a daily section, an entry pruned to the archive or
combined into a month file since (atk11: recomputing hashes of the text the
entry holds at the end missed all of those). v2 lines (no ``entry``) are
still read (``"entry": None``) and matched by the hashes of the entry's
current texts (:func:`hashes_of`), as before.

Attack round 12: ``forget`` matches v3 records by hash as well (``gate.py``'s
record names no entry; a lesson record names its line by its ``h-`` id), and
a v3 record carries ``kfp`` (:func:`key_fingerprint`), naming which secret of
its ``kid`` keyed it: a record ``forget`` cannot recompute (its secret not at
hand, :func:`at_hand`) is blanked whatever entry it concerns.

Attack round 13: a lesson record also names its file (``file``,
:func:`file_ref`): a lesson's id follows its wording, and ``forget`` of a
lesson blanks the records of that file whose line is gone (``orphans``);
cleanup's purge blanks the records it cannot recompute, as ``forget`` does.

v1 lines (no ``v``) keyed the hash with ``memory/.state/audit-salt``, which
lies beside the log, so a guess could be confirmed from the workspace
(tatk10). They are still read (:func:`read` marks them ``"v": 1``), and
``forget`` blanks their hashes too; the salt is no longer made for the log.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

from .regular import read_regular
from . import tree
from .errors import FileWriteError
from .clock import now
from .fsio import make_dirs, open_append
from . import jsonio

LOG_NAME = "gate-audit.jsonl"
SALT_NAME = "audit-salt"
FORMAT = {"format": "cmm-gate-audit", "version": 3}
#: The label of the audit hash (domain separation from the other keyed hashes).
HASH_LABEL = "gate-audit"
#: The label of a record's entry reference (v3, :func:`entry_ref`).
ENTRY_LABEL = "gate-audit-entry"
#: The label of a record's key fingerprint (``kfp``, :func:`key_fingerprint`).
KFP_LABEL = "gate-audit-kid"
#: The label of a record's file reference (``file``, :func:`file_ref`).
FILE_LABEL = "gate-audit-file"
#: Gate decisions that let nothing through (``gate.DECISIONS`` but ``proceed``): their records keep no hash.
NOT_LET_THROUGH = frozenset({"ask", "request_approval", "narrow", "avoid_storing", "refuse"})


def log_path(ws: Path) -> Path:
    """Return ``memory/.state/gate-audit.jsonl``."""
    return tree.Tree(ws).state_file(LOG_NAME)


#: Bytes in the salt (:func:`_salt`); a file of any other size is torn, never used to key a new hash.
SALT_BYTES = 32


def _salt(ws: Path, create: bool = False) -> bytes | None:
    """The v1 audit salt (``memory/.state/audit-salt``, :data:`SALT_BYTES` random bytes); None when there is none.

    Nothing makes it any more: an import's finding ids were its last use
    (atk11: a copy of the workspace confirmed a held value from its printed id;
    they are keyed outside the workspace now, :func:`memory_manager.gate.finding_id`).
    v1 audit lines and v1 approval-record keys are checked with it when it
    exists (as it is, torn or not: it only recognises what an older version
    keyed with it).

    With ``create``, it is made whole or not at all (fatk9: written in place, a
    file-size limit left it empty or torn, and every later run keyed with that):
    a temporary file, mode 0600, fsynced, linked into place; a salt of the wrong
    size is replaced by a new one.

    Raises:
        FileWriteError: naming the salt file: it could not be written (``create`` only).
    """
    from . import fsio

    path = tree.Tree(ws).state_file(SALT_NAME)
    for _attempt in range(3):
        try:
            salt: bytes | None = read_regular(path)
        except FileNotFoundError:
            salt = None
        except OSError:
            return None
        if not create or (salt is not None and len(salt) == SALT_BYTES):
            return salt
        make_dirs(path.parent)
        if salt is not None:  # torn: set aside, then made again (never keys a new id)
            fsio.remove(path, missing_ok=True)
        salt = os.urandom(SALT_BYTES)
        try:
            fsio.create_new(path, salt, 0o600)
        except FileExistsError:  # another writer made it first: read theirs
            continue
        return salt
    raise FileWriteError(f"{path}: the gate log's salt is not {SALT_BYTES} bytes and could not be made again")


def content_hash(ws: Path, text_sha256: str, create: bool = True) -> str:
    """Return the v1 keyed hash (audit salt) of content whose SHA-256 is ``text_sha256``.

    Used to recognise v1 lines and v1 approval keys (``create=False``:
    ``""`` when the workspace has no salt, nothing v1 can match then); the
    package never makes the salt any more, tests do to play an older version.
    """
    salt = _salt(ws, create=create)
    if salt is None:
        return ""
    return hmac.new(salt, text_sha256.encode("ascii"), hashlib.sha256).hexdigest()[:32]


def _secrets(ws: Path, create: bool) -> list[tuple[str, bytes]]:
    """The secrets outside the workspace (:mod:`memory_manager.keyed`), the one to write with first."""
    from .gate import _approval_secrets

    return _approval_secrets(ws, create=create)


def _v2_hash(secret: bytes, text_sha256: str) -> str:
    from . import keyed

    return keyed.digest(secret, HASH_LABEL, text_sha256)[:32]


def entry_ref(secret: bytes, entry_id: str) -> str:
    """The v3 reference of entry ``entry_id`` (``k-…``, ``d-…``, ``t-…``): 32 hex digits of a keyed HMAC.

    Keyed like the hash (a secret outside the workspace): an id is derived
    from the entry's key or topic, so a plain id would confirm a guessed name.
    """
    from . import keyed

    return keyed.digest(secret, ENTRY_LABEL, entry_id)[:32]


def file_ref(secret: bytes, rel: str) -> str:
    """The v3 reference of the file an entry whose id follows its text lies in (``file``): 32 hex digits.

    A lesson line's id (``h-…``, :func:`memory_manager.entries.lesson_id`) is a
    hash of its wording, so a lesson edited by hand gets a new id and the
    records of its first wording name an id no line has any more (atk13).
    Such a record also names its file; ``forget`` of a lesson blanks every
    record of that file whose entry is no longer there (:func:`blank_hashes`,
    ``orphans``). Keyed like the entry reference.
    """
    from . import keyed

    return keyed.digest(secret, FILE_LABEL, rel)[:32]


def file_refs_of(ws: Path, rel: str) -> list[str]:
    """Every :func:`file_ref` of workspace-relative ``rel`` a record may carry: one per secret at hand."""
    return list(dict.fromkeys(file_ref(secret, rel) for _kid, secret in _secrets(ws, create=False)))


def key_fingerprint(secret: bytes) -> str:
    """The fingerprint of the secret a record is keyed with (``kfp``): 16 hex digits of a keyed HMAC.

    Names which secret of a ``kid`` keyed the record (atk12: two T2 keys, the key file's and
    a ``MEMORY_MANAGER_KEY``, both have kid ``t2``), so ``forget`` can tell a record it can
    recompute from one it cannot; it says nothing of any content.
    """
    from . import keyed

    return keyed.digest(secret, KFP_LABEL)[:16]


def at_hand(ws: Path) -> dict[str, list[str]]:
    """The secrets this run can recompute records with: ``{kid: [fingerprint, ...]}``.

    ``salt`` (v1) is at hand when the workspace holds the audit salt. What
    ``forget`` hands to :func:`blank_hashes` (``known``).
    """
    out: dict[str, list[str]] = {}
    for kid, secret in _secrets(ws, create=False):
        out.setdefault(kid, []).append(key_fingerprint(secret))
    if _salt(ws) is not None:
        out["salt"] = [""]
    return out


def refs_of(ws: Path, ids: list[str]) -> list[str]:
    """Every v3 entry reference a record of one of ``ids`` may carry: one per secret at hand.

    What ``forget`` hands to :func:`blank_hashes` (``refs``).
    """
    out: list[str] = []
    for _kid, secret in _secrets(ws, create=False):
        for ident in ids:
            ref = entry_ref(secret, ident) if ident else ""
            if ref and ref not in out:
                out.append(ref)
    return out


def hashes_of(ws: Path, texts: list[str]) -> list[str]:
    """Every hash a record of one of ``texts`` may carry: v2 under each secret at hand, and v1.

    What ``forget`` hands to :func:`blank_hashes` (the texts are the forms
    the store doors passed to the gate for the entry).
    """
    secrets = _secrets(ws, create=False)
    out: list[str] = []
    for text in texts:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        for h in [_v2_hash(secret, digest) for _kid, secret in secrets] + [content_hash(ws, digest, create=False)]:
            if h and h not in out:
                out.append(h)
    return out


def append(ws: Path, decision: Any, entry: str | None = None, where: str | None = None) -> dict[str, Any]:
    """Append one record for a :class:`memory_manager.gate.Decision`; return it.

    Uses ``O_APPEND`` with one ``write`` per line, so concurrent appenders
    never interleave within a line (POSIX appends of one write are atomic for
    regular files on local file systems); callers also hold the lock.
    """
    record, line = record_line(ws, decision, entry=entry, where=where)
    append_line(ws, line)
    return record


def record_line(ws: Path, decision: Any, keep_hash: bool = True,
                entry: str | None = None, where: str | None = None) -> tuple[dict[str, Any], bytes]:
    """The record :func:`append` would write for ``decision``, and its line (UTF-8, newline-terminated).

    For a command that writes the record at its commit point (``forget``: the
    line is kept in its journal, so a run finished by the next one logs it
    exactly once, see :func:`append_line`). ``keep_hash=False`` writes no hash
    (``forget``'s own record: the content it names is gone).

    ``entry``: the stable id of the entry the decision concerns (the one the
    write lands in, or the one read); kept only as a keyed reference
    (:func:`entry_ref`, same secret as the hash) and only beside a hash: a
    record that keeps no hash names no entry either.

    ``where``: the workspace-relative file of an entry whose id follows its
    text (a lesson line); kept as a keyed reference (``file``, :func:`file_ref`)
    beside the entry reference, so the record is found after a hand edit
    changed the id (atk13). Records of other entries carry no ``file``.
    """
    # The log keeps hashes, categories and decisions, never content (issue 10):
    # not even ordinary words, which a later ``forget`` could not take back.
    summary = f"<{decision.chars} chars" + (f" withheld: {', '.join(decision.categories)}>"
                                            if decision.categories else ">")
    kid, digest, ref, kfp, fref = None, None, None, None, None
    # Only content the gate let through keeps a hash. A refused decision keeps none (tatk10):
    # T3 content is never stored, so there is nothing to link it to, and a hash of it could
    # only serve to confirm a guess. Nor does a value the gate held for the user's word (ask,
    # request_approval, narrow, avoid_storing): nothing was stored, and the hash-secret in the
    # config folder confirmed a guess at a number the user never approved (atk11); an approved
    # retry is a new record with its own hash. Nor does a delete (forget, cleanup's purge): the
    # content it names is gone or about to go.
    if keep_hash and decision.decision not in NOT_LET_THROUGH and decision.operation != "delete":
        secrets = _secrets(ws, create=True)
        if secrets:  # the secret outside the workspace; none at all: no hash (less kept, never more)
            kid, secret = secrets[0]
            digest = _v2_hash(secret, decision.content_hash)
            ref = entry_ref(secret, entry) if entry else None
            kfp = key_fingerprint(secret)
            fref = file_ref(secret, where) if (where and ref) else None
    record = {"v": 3, "time": now().isoformat(timespec="seconds"), "operation": decision.operation,
              "source": decision.source, "sensitivity": decision.sensitivity,
              "approval": decision.approval, "decision": decision.decision,
              "categories": decision.categories, "summary": summary,
              "chars": decision.chars, "kid": kid, "kfp": kfp, "hash": digest, "entry": ref}
    if fref:
        record["file"] = fref
    return record, (json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def append_line(ws: Path, line: bytes, once: bool = False) -> bool:
    """Append one record line (from :func:`record_line`); True when written.

    ``once``: do nothing when the log already holds this exact line (a run
    that finishes an interrupted one must not log its decision twice).

    Raises:
        FileWriteError: the line could not be written whole (a full disk, a
            file-size limit); the log is cut back to its size before, so it
            never keeps a torn line.
    """
    path = log_path(ws)
    make_dirs(path.parent)
    if once:
        try:
            if line.rstrip(b"\n") in read_regular(path).split(b"\n"):
                return False
        except FileNotFoundError:
            pass
    fd = open_append(path)  # never through a symlink or hard link (issue 10)
    try:
        before = os.fstat(fd).st_size
        try:
            written = os.write(fd, line)
            if written != len(line):  # a file-size limit or a full disk cut it short
                raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))
        except OSError as exc:
            # A torn line would stay in the log for good: cut the file back to where it was
            # (the caller holds the workspace lock, so no other appender wrote meanwhile), and
            # say which file refused (fatk6/atk8: an import under `ulimit -f 1` said only "File
            # too large").
            with contextlib.suppress(OSError):
                os.ftruncate(fd, before)
            raise FileWriteError(f"cannot record the gate's decision in {tree.rel(tree.STATE, LOG_NAME)} "
                                 f"({exc.strerror or exc}); nothing was changed") from None
    finally:
        os.close(fd)
    return True


def read(ws: Path, problems: list[str] | None = None) -> list[dict[str, Any]]:
    """Return every record (unparsable lines are skipped), each with its format version ``v``.

    v1 records (no ``v``, hash keyed with the audit salt) come back with
    ``"v": 1`` and ``"kid": "salt"``; v1 and v2 records get ``"entry": None``
    (they name no entry); their other fields are as in v3.

    The log is untrusted input like any file we read: a line that is not UTF-8 is
    skipped, never fatal (fatk8: a binary log stopped the report with an unexpected
    UnicodeDecodeError), and ``problems``, when given, gets one line naming the file
    for those lines or for a log that cannot be read at all (a FIFO, a folder).
    """
    out: list[dict[str, Any]] = []
    shown = tree.rel(tree.STATE, LOG_NAME)
    try:
        raw = read_regular(log_path(ws))
    except FileNotFoundError:
        return out
    except OSError as exc:
        if problems is not None:
            problems.append(f"{shown}: cannot read ({exc.strerror}); the gate's decisions are not counted")
        return out
    binary = 0
    for chunk in raw.splitlines():
        try:
            line = chunk.decode("utf-8")
        except UnicodeDecodeError:
            binary += 1
            continue
        try:
            record = jsonio.loads(line, "gate audit log")
        except ValueError:
            continue
        if isinstance(record, dict) and "v" not in record:
            record = {"v": 1, **record, "kid": "salt" if record.get("hash") else None}
        if isinstance(record, dict):
            record.setdefault("entry", None)
        out.append(record)
    if binary and problems is not None:
        problems.append(f"{shown}: {binary} line{'s' if binary != 1 else ''} not UTF-8 text; skipped")
    return out


def _unknown(record: dict[str, Any], known: dict[str, list[str]]) -> bool:
    """True when ``record`` keeps a hash or reference keyed with a secret not in ``known``."""
    if not (record.get("hash") or record.get("entry")):
        return False
    kid = record.get("kid") if "v" in record else "salt"
    if not isinstance(kid, str) or kid not in known:
        return True  # its secret is not at hand (a T2 key absent from this shell): never recomputable here
    kfp = record.get("kfp")
    return bool(kfp) and kfp not in known[kid]  # keyed with another secret of that kid (another T2 key)


def blank_hashes(ws: Path, hashes: list[str] | set[str], refs: list[str] | set[str] = (),
                 known: dict[str, list[str]] | None = None,
                 orphans: tuple[list[str] | set[str], list[str] | set[str]] | None = None,
                 keep: list[str] | set[str] = ()) -> int:
    """Blank the records of a forgotten entry; return how many changed.

    A record (v1, v2 or v3) whose ``hash`` is in ``hashes``, or (v3) whose
    ``entry`` is in ``refs``, gets ``hash``, ``kid`` and ``entry`` set to
    null. ``forget`` calls it with :func:`refs_of` the entry's ids and
    :func:`hashes_of` its texts (for v1/v2 lines, which name no entry)
    (issue 10: no keyed hash of forgotten content stays, even one that needs
    a secret outside the workspace). The log is rewritten atomically (0600),
    other lines byte for byte; callers hold the workspace lock. Idempotent.

    ``known`` (:func:`at_hand`, ``forget``): a record whose secret is not among
    these (its ``kid`` has no secret at hand, or its ``kfp`` names another
    secret of that kid) is blanked too, whatever entry it concerns: it cannot
    be recomputed here, so it might be the forgotten entry's (atk12: forget
    run without the T2 key, or under the key file while the records were keyed
    with ``MEMORY_MANAGER_KEY``). Conservative: such records of other entries
    lose their hash as well (less kept, never more). A record with no ``kfp``
    (written before it existed) under a kid at hand is matched as before.

    ``orphans`` (``forget`` of a lesson): ``(file_refs, live_refs)``; a record
    whose ``file`` is in ``file_refs`` and whose ``entry`` is not in
    ``live_refs`` (the refs of the lines the file still holds) is blanked too:
    it names a wording of a lesson that no line has any more, an earlier
    wording of the forgotten lesson edited by hand, or a line removed by hand
    (atk13). A record with a ``file`` is blanked with its ``file``.

    ``keep`` (``forget`` of one of the entries an id is held by): the hashes of
    the texts of the *other* entries holding that id (:func:`hashes_of`); a
    record found by ``hashes`` or ``refs`` whose ``hash`` is one of them is
    another entry's, still stored, and stays (tatk20 8: ``forget
    archive/<month>/s_t.md#<id>`` blanked the record of the live ``s_t.md``
    remembered again under the same id). Records found by ``known`` or
    ``orphans`` are blanked whatever ``keep`` says (their entry cannot be told).
    """
    from .fsio import atomic_write

    wanted = set(hashes)
    named = set(refs)
    kept = set(keep)
    path = log_path(ws)
    files, live = (set(orphans[0]), set(orphans[1])) if orphans else (set(), set())
    if not (wanted or named or known is not None or files) or not path.is_file() or path.is_symlink():
        return 0
    lines = read_regular(path).split(b"\n")
    changed = 0
    for n, line in enumerate(lines):
        try:
            record = jsonio.loads(line.decode("utf-8"), "gate audit log")
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(record, dict) and ((((record.get("hash") and record.get("hash") in wanted)
                                           or (record.get("entry") and record.get("entry") in named))
                                          and not (record.get("hash") and record.get("hash") in kept))
                                         or (known is not None and _unknown(record, known))
                                         or (record.get("file") in files and record.get("entry") not in live)):
            record["hash"] = None
            if "kid" in record:
                record["kid"] = None
            if "entry" in record:
                record["entry"] = None
            if "kfp" in record:
                record["kfp"] = None
            if "file" in record:
                record["file"] = None
            lines[n] = json.dumps(record, ensure_ascii=False, allow_nan=False).encode("utf-8")
            changed += 1
    if changed:
        atomic_write(path, b"\n".join(lines), mode=0o600)
    return changed
