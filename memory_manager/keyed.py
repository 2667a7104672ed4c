"""Keyed hashes nobody can check from the workspace alone (issue 10, attack round 4).

A plain or salted hash of a phone number stored in the workspace can be
confirmed by guessing: 10^7 numbers of one area code take seconds when the
salt lies beside the hash (round 3 found it in the approval record). The
hashes written here are HMAC-SHA-256 with a secret that never lies in the
workspace:

- the **T2 key** (``crypto.load_key``), through a label
  (``HMAC(key, "cmm keyed hash v2")``), when one is configured: it travels
  with the user, like the T2 entries it protects;
- else the **local secret**: 32 random bytes in
  ``${XDG_CONFIG_HOME:-~/.config}/complex-memory-manager/hash-secret``
  (file 0600, folder 0700), created on first use, next to where
  ``crypt.py keygen`` puts the key. It is never used when it resolves inside
  the workspace.

Each keyed value names the secret it used (``t2`` or ``local``), so a record
written before the user created a T2 key still verifies. Only the standard
library is imported (the hooks' per-turn path uses :func:`session_label`).
"""
from __future__ import annotations

from .regular import read_regular

import base64
import binascii
import hashlib
import hmac
import os
import re
from pathlib import Path
from typing import Any, Mapping

SECRET_NAME = "hash-secret"
#: Local secrets this process created (paths): never used to judge an approval mark written
#: before it existed (attack round 16: cleanup under another HOME made a new hash-secret, then
#: found the user's ``v2:local`` mark "not verifying" and quarantined the approved entry).
_MADE: set[str] = set()
#: The label that turns the T2 key into the HMAC key (domain separation: the
#: AES key itself is never used as an HMAC key).
T2_LABEL = b"cmm keyed hash v2"
#: Permission bits that let group or others read or write the secret file.


class HashSecretModeWarning(UserWarning):
    """The local hash-secret can be read or written by group or others (it should be 0600)."""


def _warn_mode(path: Path) -> None:
    """Warn once per process and file when group or others may read or write ``path``.

    Like the T2 key file's warning (``crypto._warn_mode``; attack round 5,
    issue 10: a 0666 secret was used silently). The secret is still used: an
    entry approved with it stays verifiable, and the user is told how to fix it.
    """
    from .crypto import warn_if_shared

    warn_if_shared(path, HashSecretModeWarning, "hash-secret", "read or change it")


def _inside(ws: Path | None, path: Path) -> bool:
    if ws is None:
        return False
    try:
        path.resolve().relative_to(Path(ws).resolve())
    except (ValueError, OSError):
        return False
    return True


def local_secret(ws: Path | None = None, create: bool = True) -> bytes | None:
    """Return the local secret (32 bytes), creating it (0600) when ``create``; None when unavailable.

    Args:
        ws: the workspace; a secret file that resolves inside it is not used.
        create: make the file when it is missing.

    Never raises: an unreadable, malformed or unwritable secret is None (the
    caller then stores less, never more).
    """
    from .crypto import config_dir
    from .errors import MemoryManagerError

    folder = config_dir()
    path = folder / SECRET_NAME
    if _inside(ws, folder):
        return None
    try:
        raw = read_regular(path)
    except FileNotFoundError:
        if not create:
            return None
        secret = os.urandom(32)
        try:
            from .fsio import create_new, folder_lock, make_dirs, sweep_own_staging, uncounted

            # Missing parents (``$XDG_CONFIG_HOME`` itself) get fsio.FOLDER_MODE at
            # most, never writable by group or others even under umask 000 (round 5).
            make_dirs(folder, 0o700)
            # Not counted as steps (fsio.uncounted): the first command on a machine makes it and the
            # same command run again does not, so its steps would shift every later step of that run.
            with uncounted(), folder_lock(folder) as since:  # the key folder's lock, as crypto.keygen takes it
                # A maker killed before it linked left a staging file: ours, removed (issue 11).
                sweep_own_staging(path, since)
                # Whole or not at all (fatk9: written in place, a file-size limit left it torn for good).
                create_new(path, base64.b64encode(secret) + b"\n", 0o600)
            _MADE.add(str(path))
        except FileExistsError:
            return local_secret(ws, create=False)  # another process made it first
        except (OSError, MemoryManagerError):
            return None
        return secret
    except OSError:
        return None
    _warn_mode(path)
    try:
        secret = base64.b64decode(raw.strip(), validate=True)
    except (binascii.Error, ValueError):
        return None
    return secret if len(secret) == 32 else None


def t2_secret(cfg: Mapping[str, Any] | None) -> bytes | None:
    """Return the HMAC key derived from the T2 key, or None when no key is configured.

    Raises:
        MalformedKeyError: a key is configured but broken (fail closed, as every T2 reader).
    """
    from .crypto import load_key
    from .errors import KeyUnavailableError

    try:
        key = load_key(cfg)
    except KeyUnavailableError:
        return None
    return hmac.new(key, T2_LABEL, hashlib.sha256).digest()


def secrets(ws: Path | None, cfg: Mapping[str, Any] | None, create: bool = True) -> list[tuple[str, bytes]]:
    """Return ``[(kid, secret)]``, the one to write with first: ``t2`` when a key is configured, then ``local``.

    ``create`` makes the local secret when it is the only one.
    """
    out: list[tuple[str, bytes]] = []
    t2 = t2_secret(cfg)
    if t2 is not None:
        out.append(("t2", t2))
    local = local_secret(ws, create=create and not out)
    if local is not None:
        out.append(("local", local))
    return out


def require_secret(ws: Path | None, cfg: Mapping[str, Any] | None) -> None:
    """Make sure an approval given now can be bound (a secret outside the workspace is at hand).

    Called before anything is written for an ``--approved`` store, remember or
    unquarantine. Creates the local secret when it is the only one (as the
    mark or record written next would). A broken T2 key falls back to the
    local secret, as the approval record does.

    Raises:
        ApprovalUnboundError: no T2 key and no usable local secret: its folder
            lies inside the workspace (the workspace holds ``$XDG_CONFIG_HOME``,
            e.g. it is the home folder) or cannot be read or written. Refused
            when given, never dropped later (issue 10, attack round 5: the
            entry was stored with a bare date and quarantined by the next cleanup).
    """
    from .crypto import config_dir
    from .errors import ApprovalUnboundError, MemoryManagerError

    try:
        if secrets(ws, cfg, create=True):
            return
    except MemoryManagerError:
        if local_secret(ws, create=True) is not None:
            return
    folder = config_dir()
    where = "lies inside the workspace" if _inside(ws, folder) else "cannot be read or written"
    raise ApprovalUnboundError(
        f"cannot bind the approval: no T2 key is configured and the hash-secret folder {folder} {where}; "
        "set XDG_CONFIG_HOME to a folder outside the workspace (or MEMORY_MANAGER_KEY), then run again; "
        "nothing was stored")


def digest(secret: bytes, *parts: str) -> str:
    """HMAC-SHA-256 (hex) of ``parts`` joined by NUL, keyed with ``secret``."""
    return hmac.new(secret, "\0".join(parts).encode("utf-8"), hashlib.sha256).hexdigest()


# ---------------------------------------------------------------- session keys

#: Segments of an OpenClaw session key that name structure, never a person
#: (``agent:<id>:<channel>:<kind>:<peer>[:thread:<id>]``, OpenClaw's session docs).
_STRUCTURE = frozenset({"agent", "main", "dm", "direct", "group", "channel", "thread", "topic", "subagent",
                        "cron", "hook", "node", "acp", "global", "unknown", "run"})
#: OpenClaw's channel ids (its channel plugins: a fixed list in its code, never typed by a user).
_CHANNELS = frozenset({"whatsapp", "telegram", "discord", "slack", "signal", "imessage", "bluebubbles",
                       "googlechat", "msteams", "matrix", "mattermost", "email", "webchat", "web", "feishu",
                       "lark", "line", "zalo", "zalouser", "irc", "sms", "voice", "nostr", "tlon", "nextcloud-talk",
                       "twitch", "wechat", "wecom", "dingtalk", "qq", "cli", "tui", "gateway"})
#: The only words a stored session label may hold as written: this code's fixed vocabulary.
_VOCABULARY = _STRUCTURE | _CHANNELS
#: After one of these comes an identifier (a peer, a group, a thread): always hashed.
_BEFORE_ID = frozenset({"dm", "direct", "group", "channel", "thread", "topic", "peer", "user"})
#: A segment already hashed (a ``cmm-context-usage`` v1 label read again): kept as it is.
_HASHED = re.compile(r"^#(?:[0-9a-f]{12})?$")
#: The ``cmm-context-usage`` record version whose ``session`` is a :func:`session_label`.
SESSION_LABEL_VERSION = 2


def session_label(key: str | None, ws: Path | None = None, secret: bytes | None | bool = False) -> str | None:
    """Return OpenClaw session ``key`` with every segment outside a fixed vocabulary replaced by a keyed hash.

    ``agent:main:whatsapp:dm:+14155550132`` becomes
    ``agent:main:whatsapp:dm:#3f9a1c7e2b4d``: only words of this code's
    fixed vocabulary stay as written (:data:`_STRUCTURE`, OpenClaw's
    structure words, and :data:`_CHANNELS`, its channel ids), and not right
    after a word that introduces an identifier (``dm:main`` hashes ``main``).
    Every other segment becomes ``#`` and 12 hex digits of the HMAC with
    the local secret (:func:`local_secret`; ``#`` alone when there is none):
    a peer (a phone number, a user id, an address), a group or thread id,
    an agent id other than ``main``, a cron job id, a subagent label, a
    per-account id. The same key gives the same label on this machine, so
    usage records still group by session.

    Sources: issue 10, attack round 4 (a DM peer's phone number reached
    memory/.state through the hooks); round 9, tatk9 (a segment of plain
    lower-case words was kept: ``cron:hiv-clinic-reminder``,
    ``subagent:alice-chen-therapy``, ``slack:alice-therapy:dm:...``; a word
    the user chose may name a person or a health fact, so none is kept).

    A label written by the round 4 rule (``cmm-context-usage`` v1: plain
    lower-case words kept) given as ``key`` gives the label the key itself
    gives now: its ``#`` segments stay, its plain words are hashed
    (the reader of v1 records, :func:`memory_manager.hookrun.read_usage`).

    ``secret``: the local secret when the caller has it already (``None``:
    there is none); by default it is loaded on the first segment that needs it.
    """
    if not key:
        return key
    out: list[str] = []
    before = ""
    for seg in key.split(":"):
        keep = (seg in _VOCABULARY and before not in _BEFORE_ID) or bool(_HASHED.match(seg))
        if keep:
            out.append(seg)
        else:
            if secret is False:
                secret = local_secret(ws)
            out.append("#" + digest(secret, "session", seg)[:12] if secret else "#")
        before = seg
    return ":".join(out)


# ---------------------------------------------------------- T2 approval marks

#: The form of a T2 entry's ``approval`` value: ``v2:<kid>:<64 hex>``.
_MARK = re.compile(r"^v2:(t2|local):([0-9a-f]{64})$")


def _mark_digest(secret: bytes, entry_id: str, day: str, plain: str) -> str:
    return digest(secret, "t2-approval", entry_id, day, hashlib.sha256(plain.encode("utf-8")).hexdigest())


def approval_mark(ws: Path | None, cfg: Mapping[str, Any] | None, entry_id: str, day: str, plain: str) -> str | None:
    """Return the ``approval`` value that binds the user's approval to one T2 entry, or None without a secret.

    Args:
        entry_id: the entry's id (``t-`` and 10 hex digits).
        day: the ``approved`` date written beside it (``YYYY-MM-DD``).
        plain: the entry's whole plain text as sealed (history included).

    ``v2:<kid>:`` and the HMAC of the id, the day and the text's SHA-256:
    only this tool, holding the secret, writes one; copied to another entry
    or left on a changed text it no longer verifies (issue 10, round 4: a
    hand-written ``approved:`` line made cleanup keep an entry nobody approved).
    """
    found = secrets(ws, cfg, create=True)
    if not found:
        return None
    kid, secret = found[0]
    if kid == "local" and ws is not None:
        _note_keyless(Path(ws))
    return f"v2:{kid}:{_mark_digest(secret, entry_id, day, plain)}"


def _note_keyless(ws: Path) -> None:
    """Note the store as keyless on this machine (:func:`memory_manager.anchor.note_keyless`) when nothing says otherwise.

    The first ``v2:local`` mark of a store with no note and no key record: from then on a
    key record planted in the workspace no longer makes a forged ``v2:t2`` mark "cannot be
    checked" (tatk18 1). A store whose record names a key (its key away: a ``v2:local``
    mark is made all the same) is not noted keyless; nor one whose record cannot be read.
    """
    from . import anchor
    from .clock import today
    from .errors import MemoryManagerError
    from .tiers import recorded_key

    try:
        if anchor.load(ws) is not None or recorded_key(ws) is not None:
            return
        anchor.note_keyless(ws, today().isoformat())
    except (anchor.UnreadableNote, MemoryManagerError):
        return


def t2_mark_keyed_with(key: bytes, entry_id: str, day: str, plain: str, mark: object) -> bool:
    """True when ``mark`` is a ``v2:t2`` approval mark of this entry, day and text keyed with T2 key ``key`` (32 bytes)."""
    m = _MARK.match(str(mark or "").strip())
    if not m or m.group(1) != "t2":
        return False
    secret = hmac.new(key, T2_LABEL, hashlib.sha256).digest()
    return hmac.compare_digest(_mark_digest(secret, entry_id, day, plain), m.group(2))


def approval_state(ws: Path | None, cfg: Mapping[str, Any] | None, entry_id: str, day: str, plain: str,
                   mark: object) -> str:
    """Judge an entry's approval ``mark``: ``valid``, ``invalid`` or ``unchecked``.

    ``valid``: an :func:`approval_mark` of this entry, day and text under a
    secret at hand. ``unchecked``: a well-formed mark whose secret is not at
    hand, so it can be neither trusted nor failed (attack round 16): a
    ``v2:t2`` mark with no T2 key in this shell, or with a key that is not the
    store's key (:func:`_store_key`: this machine's note outside the workspace,
    else ``memory/.state/t2-key-accepted``); a ``v2:local``
    mark with no hash-secret here, or one this very process created (a run
    under another ``HOME`` never judges the user's marks with a secret it just
    made). ``invalid``: anything else (no mark, a malformed one, or one that
    does not verify with the secret that keyed it: a claim, issue 10 round 4),
    and a mark *forged* as the kind whose secret is absent (tatk17 3): a
    ``v2:t2`` mark with no T2 key at hand in a store that never recorded a key
    (every door that writes one records the key first), a ``v2:local`` mark in
    a store with a recorded key when no hash-secret existed before this run.

    Raises:
        MalformedKeyError: a T2 key is configured but broken (fail closed).
    """
    m = _MARK.match(str(mark or "").strip())
    if not m:
        return "invalid"
    kid = m.group(1)
    if kid == "t2":
        secret = t2_secret(cfg)
        recorded = _store_key(ws, strict=secret is not None)
        if secret is not None and recorded is not None:
            from .crypto import load_key
            from .tiers import key_check

            if recorded != key_check(load_key(cfg)):
                secret = None  # another key than the store's: it cannot tell a mark of the store's key
        if secret is None and recorded is None:
            # No key was ever recorded here, so no v2:t2 mark of this store can exist (every door that
            # writes one records the key first, tiers.sealing_key): the mark is forged (tatk17 3).
            return "invalid"
    else:
        secret = local_secret(ws, create=False)
        if secret is not None and any(_MADE):
            from .crypto import config_dir

            if str(config_dir() / SECRET_NAME) in _MADE:
                secret = None
        if secret is None and _store_key(ws) not in (None, "?"):
            # A keyed store writes v2:t2 marks; a v2:local mark here is checkable only with a
            # hash-secret that existed before this run. With none, it is forged (tatk17 3b).
            return "invalid"
    if secret is None:
        return "unchecked"
    ok = hmac.compare_digest(_mark_digest(secret, entry_id, day, plain), m.group(2))
    return "valid" if ok else "invalid"


def _store_key(ws: Path | None, strict: bool = False) -> str | None:
    """The store's key check value (``tiers.store_key``), None for a store with no key or no workspace.

    This machine's note outside the workspace decides when it can be read (a key
    record planted or deleted in the workspace changes nothing then: tatk18 1 and 2);
    else the record does (``memory/.state/t2-key-accepted``), as before the note.
    Something unreadable at the record's place (a folder, a symlink, binary bytes) does not
    prove the store keyless: it reads as ``"?"`` (a key was recorded, which one is unknown),
    so a mark is never called forged on a record that cannot be read.

    Raises:
        UnreadableFileError: with ``strict`` (a T2 key is at hand and is checked against
            the record), no readable note and the record is not a regular ASCII file (fail closed).
    """
    if ws is None:
        return None
    from .errors import UnreadableFileError
    from .tiers import store_key

    try:
        return store_key(Path(ws))
    except UnreadableFileError:
        if strict:
            raise
        return "?"


def approval_valid(ws: Path | None, cfg: Mapping[str, Any] | None, entry_id: str, day: str, plain: str,
                   mark: object) -> bool:
    """True when ``mark`` is an :func:`approval_mark` of this entry, day and text under a secret at hand."""
    return approval_state(ws, cfg, entry_id, day, plain, mark) == "valid"
