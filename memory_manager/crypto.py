"""Encrypting T2 (internal) memory: ``xor-b64`` (the seed's scheme) and ``aes-gcm``.

**xor-b64 is obfuscation, not encryption.** Its key is derived from the
skill name and the month only (Tiers seed: "reconstructable without storing
the key"), so anyone who can read the entry can derive the key and read it.
It keeps casual eyes and naive full-text search off T2 text; nothing more.
Use ``aes-gcm`` (a real key) for anything that must stay secret.

xor-b64 (the Tiers seed's reference algorithm)
    key = ``sha256((skill + month).encode()).hexdigest()[:8]``; each
    character's code point is XORed with the key character (cycling); the
    resulting bytes are Base64 (RFC 4648, standard alphabet). The seed's
    "Decryption Note" instead writes ``sha256("<skill>-<YYYY-MM>")``: both
    derivations are supported (:data:`DERIVATIONS`), we write ``concat`` (the
    code's, byte-identical with ``shared/compat/xor-b64-vectors.json``).

    Unicode rule (ours): the seed's code only works when every character is
    at most U+00FF (``bytes()`` takes 0..255). For such text we produce
    exactly the seed's bytes (``text_encoding: latin-1``). Text with any
    character above U+00FF is first encoded as UTF-8 and the *bytes* are
    XORed with the key's ASCII bytes (``text_encoding: utf-8``). Both are
    recorded in the entry's frontmatter. Text without ``text_encoding``
    (a legacy seed entry, or ``crypt.py encrypt`` output piped without
    ``--json``) is read as UTF-8 when the XORed bytes are valid UTF-8 holding
    at least one multi-byte sequence, else as ``latin-1``: a seed entry is
    Latin-1 text XORed character by character, so each of its bytes >= 0x80
    stands alone (``é`` is one byte ``0xE9``), and a lone byte >= 0x80 is
    never valid UTF-8 (RFC 3629: 0x80-0xBF only continue a sequence,
    0xC0-0xFF only start one followed by continuation bytes). Latin-1
    text that happens to be valid UTF-8 would need such a lead byte right
    before continuation bytes (``Ã©``), which ordinary text does not hold;
    pure ASCII reads the same either way. An entry without
    ``key_derivation`` is decrypted with both keys and the result that looks
    most like text wins (:func:`text_score`; a tie goes to ``concat``): XOR
    with the wrong 8-hex-digit key scatters letters into symbols and control
    characters.

aes-gcm
    AES-256-GCM (NIST SP 800-38D) from the ``cryptography`` library; a fresh
    random 96-bit nonce per write (the size SP 800-38D recommends). Text form:
    ``aesgcm:v2:`` + Base64(nonce || ciphertext || 16-byte tag). The
    associated data (:func:`associated_data`) binds the ciphertext to its
    skill, topic and entry id, so it cannot be moved to another skill's,
    topic's or entry's place unnoticed. ``aesgcm:v1:`` (written before
    December 2026) bound the skill only; it is still read, with its own
    associated data, and never written. The version sits in the prefix, which
    is itself covered: relabelling a v2 text as v1 changes the associated
    data and fails authentication.

    The key is 32 bytes from ``MEMORY_MANAGER_KEY`` (Base64) or from the key
    file made by :func:`keygen` (mode 0600, in ``${XDG_CONFIG_HOME:-~/.config}/
    complex-memory-manager/key``, never inside the workspace). Tampering, a
    wrong key or a truncated body raise :class:`CryptoError`.

Keys fail closed
    A key that is configured but not exactly 32 bytes of Base64 (a 16-byte
    key, text that is not Base64, a cut key file, an empty
    ``MEMORY_MANAGER_KEY``), or a ``tiers.key_file`` that names a missing
    file, raises :class:`MalformedKeyError` wherever a key
    could be used: writing (``auto`` never falls back to xor-b64 because of
    it) and every reader of T2 (:func:`check_key`). Only a machine with no key
    at all (variable unset, no ``tiers.key_file``, no key file at the default
    place) uses xor-b64 under ``auto``. A key
    file that group or others may read gives a :class:`KeyFileModeWarning`
    (a Python warning; the CLI prints it on stderr).
"""
from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .regular import read_regular
from .errors import BadInputError, CryptoError, KeyUnavailableError, MalformedKeyError

SCHEMES = ("xor-b64", "aes-gcm")
DERIVATIONS = ("concat", "hyphen")
TEXT_ENCODINGS = ("latin-1", "utf-8")
#: What we write: associated data = skill, topic and entry id.
AES_PREFIX = "aesgcm:v2:"
#: Read only: associated data = skill.
AES_PREFIX_V1 = "aesgcm:v1:"
AES_PREFIXES = (AES_PREFIX, AES_PREFIX_V1)
ENV_KEY = "MEMORY_MANAGER_KEY"
from .keypath import KEY_DIRNAME, KEY_FILENAME, config_dir  # noqa: E402,F401 (the key's place; also re-exported)
#: The most bytes a key file may hold (a key is 45): a FIFO, a device or a huge file is refused (fatk8).
KEY_FILE_LIMIT = 4096
#: 96-bit nonce: the IV length NIST SP 800-38D recommends for GCM.
NONCE_BYTES = 12
TAG_BYTES = 16
#: Permission bits that let group or others read the key file.
_SHARED_BITS = stat.S_IRWXG | stat.S_IRWXO


class KeyFileModeWarning(UserWarning):
    """The key file can be read by group or others (it should be 0600)."""


@dataclass(frozen=True)
class Sealed:
    """The result of :func:`encrypt`: ``ciphertext`` (text) plus what a reader needs.

    ``params`` are the frontmatter fields to record (``scheme``, and for
    xor-b64 ``text_encoding`` and ``key_derivation``).
    """

    ciphertext: str
    params: dict[str, str]


# --------------------------------------------------------------------- xor-b64

def derive_xor_key(skill: str, month: str, derivation: str = "concat") -> str:
    """Return the 8-hex-digit xor-b64 key for ``skill`` and ``month`` (``YYYY-MM``).

    ``concat`` hashes ``skill + month`` (the seed's code), ``hyphen`` hashes
    ``skill + "-" + month`` (the seed's Decryption Note).
    """
    if derivation not in DERIVATIONS:
        raise BadInputError(f"key derivation must be one of {', '.join(DERIVATIONS)}")
    raw = skill + month if derivation == "concat" else f"{skill}-{month}"
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:8]


def xor_encrypt(text: str, skill: str, month: str, derivation: str = "concat") -> Sealed:
    """Obfuscate ``text`` with xor-b64 (see the module docstring for the Unicode rule)."""
    key = derive_xor_key(skill, month, derivation).encode("ascii")
    if all(ord(c) <= 0xFF for c in text):
        data, encoding = text.encode("latin-1"), "latin-1"
    else:
        data, encoding = text.encode("utf-8"), "utf-8"
    out = bytes(b ^ key[i % len(key)] for i, b in enumerate(data))
    return Sealed(base64.b64encode(out).decode("ascii"),
                  {"scheme": "xor-b64", "text_encoding": encoding, "key_derivation": derivation})


def _b64(text: str) -> bytes:
    try:
        return base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise CryptoError("ciphertext is not valid Base64 (truncated or damaged)") from None


def plausible(text: str) -> bool:
    """True when ``text`` has no control characters other than tab, newline, CR."""
    return all(ch in "\t\n\r" or (ord(ch) >= 0x20 and not 0x7F <= ord(ch) < 0xA0) for ch in text)


_COMMON = set(" .,;:!?'\"-()/\n\t%+&")


def text_score(text: str) -> float:
    """How much ``text`` looks like written text (higher is more likely).

    Letters, digits, white space and common punctuation score 1; other
    letters (accents, CJK) 0.5; rarer ASCII symbols 0; control characters
    -2. Used to tell which of the two seed key derivations a legacy entry
    was written with: XOR with the wrong key scatters letters into symbols
    and control characters.
    """
    score = 0.0
    for ch in text:
        code = ord(ch)
        if code < 0x80 and (ch.isalnum() or ch in _COMMON):
            score += 1
        elif code < 0x20 or 0x7F <= code < 0xA0:
            score -= 2
        elif code >= 0x80 and ch.isalpha():
            score += 0.5
    return score


def _guess_encoding(raw: bytes) -> str:
    """``utf-8`` when ``raw`` is valid UTF-8 with a multi-byte sequence, else ``latin-1``.

    For XORed bytes whose ``text_encoding`` was not recorded; why a seed
    (Latin-1) entry never passes as UTF-8 is in the module docstring.
    """
    if any(b >= 0x80 for b in raw):  # valid UTF-8 with a byte >= 0x80 holds a multi-byte sequence
        try:
            raw.decode("utf-8")
            return "utf-8"
        except UnicodeDecodeError:
            pass
    return "latin-1"


def xor_decrypt(ciphertext: str, skill: str, month: str, text_encoding: str | None = None,
                derivation: str | None = None) -> str:
    """Read xor-b64 ``ciphertext``.

    Args:
        text_encoding: ``latin-1`` (the seed) or ``utf-8``; None (not
            recorded) guesses per :func:`_guess_encoding` (module docstring).
        derivation: ``concat``/``hyphen``; None tries both (module docstring).

    Raises:
        CryptoError: not Base64, or the bytes do not decode as ``utf-8``
            with either key.
    """
    data = _b64(ciphertext)
    if text_encoding is not None and text_encoding not in TEXT_ENCODINGS:
        raise CryptoError(f"unknown text_encoding {text_encoding!r}")
    candidates = [derivation] if derivation else list(DERIVATIONS)
    best: tuple[tuple[bool, float], str] | None = None
    for name in candidates:  # concat first: on a tie the seed code's key wins
        key = derive_xor_key(skill, month, name).encode("ascii")
        raw = bytes(b ^ key[i % len(key)] for i, b in enumerate(data))
        encoding = text_encoding or _guess_encoding(raw)
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        # Guessing, multi-byte UTF-8 wins over Latin-1: the wrong key turns UTF-8 into
        # lone high bytes (Latin-1 letters that score like CJK), almost never the reverse.
        score = (text_encoding is None and encoding == "utf-8", text_score(text))
        if best is None or score > best[0]:
            best = (score, text)
    if best is None:
        raise CryptoError("xor-b64 ciphertext does not decode with this skill and month")
    return best[1]


# --------------------------------------------------------------------- aes-gcm

def key_path(cfg: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> Path:
    """Return the key file path: config ``tiers.key_file`` when set, else the config dir's ``key``.

    Raises:
        MalformedKeyError: ``tiers.key_file`` lies inside the workspace
            (``config.load_config`` marks it; see references/tiers.md).
    """
    tiers = (cfg or {}).get("tiers") or {}
    refusal = tiers.get("_key_file_refused")
    if refusal:
        raise MalformedKeyError(refusal)
    custom = tiers.get("key_file")
    if custom:
        return Path(os.path.expanduser(custom))
    return config_dir(env) / KEY_FILENAME


def _decode_key(text: str, where: str) -> bytes:
    """Return the 32 key bytes Base64 ``text`` holds; MalformedKeyError otherwise.

    Strict Base64 (RFC 4648 alphabet and padding, surrounding white space
    ignored): a cut or retyped key must never be "fixed" into another key.
    """
    stripped = text.strip()
    if not stripped:
        raise MalformedKeyError(f"{where} is empty (expected 32 bytes of Base64, as 'crypt.py keygen' writes)")
    try:
        key = base64.b64decode(stripped, validate=True)
    except (binascii.Error, ValueError):
        raise MalformedKeyError(f"{where} is not Base64 (expected 32 bytes of Base64, as 'crypt.py keygen' "
                                "writes); nothing was written") from None
    if len(key) != 32:
        raise MalformedKeyError(f"{where} holds {len(key)} bytes, not 32 (AES-256); nothing was written")
    return key


#: cfg["tiers"] slot naming the config file that set ``tiers.key_file`` (set by
#: ``config.load_config``; never read from a file).
KEY_SOURCE = "_key_file_source"


def missing_key_file(cfg: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> str | None:
    """Return the one-line error for a configured ``tiers.key_file`` that does not exist, else None.

    Only a key file the config names explicitly counts (the default
    ``~/.config/complex-memory-manager/key`` missing means "no key yet");
    ``MEMORY_MANAGER_KEY``, when set, wins and makes the file irrelevant. The
    message names the path, the config file that set it, and the fix:
    correct the setting, or remove it to use the default key. It never
    suggests making a key there: a new key at a mistyped path would leave
    every entry written with the real key unreadable.
    """
    env = os.environ if env is None else env
    tiers = (cfg or {}).get("tiers") or {}
    if ENV_KEY in env or not tiers.get("key_file") or tiers.get("_key_file_refused"):
        return None
    path = key_path(cfg, env)
    if path.exists() or path.is_symlink():
        return None
    source = tiers.get(KEY_SOURCE) or "the config"
    default = config_dir(env) / KEY_FILENAME
    there = " (a key exists there)" if default.exists() else ""
    return (f"T2 key file {path} does not exist (tiers.key_file in {source}): correct tiers.key_file, "
            f"or remove it to use the default key {default}{there}")


def key_state(cfg: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> str:
    """Return where the key comes from: ``env``, ``file``, ``missing`` or ``none``.

    ``missing``: ``tiers.key_file`` names a file that does not exist
    (:func:`missing_key_file`); ``none``: nothing configured. Does not
    validate the key (see :func:`load_key`). ``MEMORY_MANAGER_KEY`` counts
    as configured as soon as it is set, even empty.
    """
    env = os.environ if env is None else env
    if ENV_KEY in env:
        return "env"
    path = key_path(cfg, env)
    if path.exists() or path.is_symlink():
        return "file"
    return "missing" if missing_key_file(cfg, env) else "none"


_WARNED: set[str] = set()


def _warn_mode(path: Path) -> None:
    """Warn once per process and key file when group or others may read it."""
    warn_if_shared(path, KeyFileModeWarning, "key file", "read it")


def warn_if_shared(path: Path, category: type[Warning], what: str, may: str) -> None:
    """Warn (``category``) once per process and path when group or others have any access to ``path``.

    ``what`` names the file in the message ("key file"), ``may`` what others
    may do ("read it"); the message ends with the ``chmod 600`` that fixes it.
    A file that cannot be stat'ed is left to the caller's own error.
    """
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if mode & _SHARED_BITS and str(path) not in _WARNED:
        _WARNED.add(str(path))
        warnings.warn(category(
            f"{what} {path} has mode {stat.S_IMODE(mode):04o}: group or others may {may}; "
            f"run 'chmod 600 {path}'"), stacklevel=4)


def load_key(cfg: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> bytes:
    """Return the 32-byte AES key: ``MEMORY_MANAGER_KEY`` first, then the key file.

    Warns (:class:`KeyFileModeWarning`) when the key file is readable by
    group or others.

    Raises:
        KeyUnavailableError: no key configured (variable unset, no key file
            at the default place).
        MalformedKeyError: a key is configured but is not 32 bytes of Base64,
            the key file cannot be read, or ``tiers.key_file`` names a file
            that does not exist (:func:`missing_key_file`).
    """
    env = os.environ if env is None else env
    if ENV_KEY in env:
        return _decode_key(env[ENV_KEY], ENV_KEY)
    path = key_path(cfg, env)
    try:
        text = read_regular(path, limit=KEY_FILE_LIMIT).decode("ascii")
    except FileNotFoundError:
        if path.is_symlink():
            raise MalformedKeyError(f"key file {path} is a dangling symlink") from None
        missing = missing_key_file(cfg, env)
        if missing:
            # A key file the user named on purpose and that is not there is a mistake
            # (a typo, an unmounted disk), not "no key": falling back to xor-b64 would
            # quietly weaken new entries and hide the old ones (walk-through r6, finding 1).
            raise MalformedKeyError(missing) from None
        raise KeyUnavailableError(f"no AES key: set {ENV_KEY} or run 'crypt.py keygen' (key file {path})") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc.__class__.__name__
        raise MalformedKeyError(f"key file {path} is unreadable ({reason})") from None
    key = _decode_key(text, f"key file {path}")
    _warn_mode(path)
    return key


def check_key(cfg: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> bool:
    """Fail closed on a malformed key; return True when a usable key is configured.

    Every reader of T2 calls this before decrypting anything, whatever the
    entry's scheme: a key that is set but broken is a mistake to report
    (exit 1), never a reason to quietly read less or write weaker.

    Raises:
        MalformedKeyError: a key is configured but is not 32 bytes of Base64.
    """
    try:
        load_key(cfg, env)
    except KeyUnavailableError:
        return False
    return True


#: Same contract: True with a usable key, False with none, MalformedKeyError otherwise.
key_available = check_key


def keygen(cfg: Mapping[str, Any] | None = None, workspace: Path | None = None,
           env: Mapping[str, str] | None = None, force: bool = False, record: bool = True) -> Path:
    """Create a new random 32-byte key file (Base64), mode 0600 from its creation.

    The key is written to a staging file in the key's folder (mode 0600 before a
    byte is written: a key is never world-readable, even briefly; the folder is
    0700), fsynced, and linked into place only when the name is still free.
    With a workspace (that has a memory tree), the key is first recorded as
    the store's key there (:func:`memory_manager.tiers.accept_key`; without
    ``force`` only when the store recorded no other key yet, attack round
    12; ``record=False`` leaves that to the first seal); whole or nothing (issue 11): a
    record that cannot be written leaves no key, and a key that cannot be put
    in place leaves the record as it was. Both steps hold the key folder's lock
    (:func:`memory_manager.fsio.folder_lock`; with ``force`` the workspace lock
    first), and the staging files of a keygen killed before it linked are
    removed (:func:`memory_manager.fsio.sweep_own_staging`).

    Raises:
        CryptoError: the key file exists already (replacing it would make
            every aes-gcm entry unreadable), would lie inside ``workspace``,
            would be readable by group or others despite mode 0600, or
            cannot be written (disk full, file-size limit, permissions).
        BadInputError: something other than a readable file stands at
            ``memory/.state/t2-key-accepted`` (a folder, a link).
        FileWriteError: the record cannot be written.
        KeyUnavailableError: ``workspace`` holds aes-gcm entries, so their key
            is missing, not absent (:func:`memory_manager.tiers.require_key_for_sealed`),
            or it recorded another key as its own; unless ``force``.
    """
    path = key_path(cfg, env)
    if workspace is not None:
        from .workspace import inside

        if inside(Path(workspace), path.parent if not path.exists() else path):
            raise CryptoError(f"refusing to put the key file {path} inside the workspace")
    if path.exists():
        raise CryptoError(f"key file {path} exists already; remove it yourself if you really want a new key "
                          "(entries encrypted with it become unreadable)")
    if workspace is not None and not force and env is None:
        from .tiers import require_key_for_sealed

        require_key_for_sealed(Path(workspace), dict(cfg or {}), making_key=True)
    from . import fsio
    from .errors import FileWriteError
    from .fsio import make_dirs

    make_dirs(path.parent, 0o700)  # missing parents (~/.config) 0755 at most, whatever the umask
    key = os.urandom(32)

    def private(mode: int) -> None:
        # Some file systems (vfat, some network mounts) ignore the mode asked for:
        # refuse to leave a key there that group or others can read.
        if mode & _SHARED_BITS:
            raise CryptoError(f"refusing to create key file {path}: the file system makes it readable by "
                              "group or others; set tiers.key_file to a private place")

    exists = (f"key file {path} exists already; remove it yourself if you really want a new key "
              "(entries encrypted with it become unreadable)")
    from .tree import Tree

    # record=False (crypt.py reseal): the first seal records the key (tiers.sealing_key), so a
    # reseal that fails before sealing and removes its key leaves no record either (issue 11).
    accepting = workspace is not None and (record or force) and Tree(Path(workspace)).memory.is_dir()
    # keygen writes the workspace's key record too (the new key becomes the store's key, attack
    # round 12): under its writer lock (first, as every writer does), then the key folder's own
    # lock (keygen, reseal and init make keys there).
    if accepting:
        # The backups module runs the recovery of every writer when the lock is taken (an earlier
        # keygen killed before its link is put back first; atk21 7: keygen took the lock without it).
        from . import backups  # noqa: F401
    ws_lock = fsio.workspace_lock(Path(workspace)) if accepting else contextlib.nullcontext()
    with ws_lock, fsio.folder_lock(path.parent) as since:
        # A keygen killed before it linked its key left a staging file here: ours, removed now
        # (issue 11; only the key's own staging names, only from before this lock was taken).
        fsio.sweep_own_staging(path, since)
        if path.exists() or path.is_symlink():
            raise CryptoError(exists)
        # Whole or not at all: the key is written to a staging file (mode 0600 before a byte,
        # fsynced; fatk9: a file-size limit left an empty or torn key that every later run read
        # as the key), then keygen --force records it as accepted, and only then is it linked
        # into place. A record that cannot be written leaves no new key (atk11: the key stayed,
        # unaccepted, and remember refused it while keygen --force said it existed).
        try:
            staged = fsio.stage_new(path, (base64.b64encode(key).decode("ascii") + "\n").encode("ascii"),
                                    0o600, private)
        except FileWriteError as exc:
            raise CryptoError(f"cannot create key file {exc}") from None
        undo = None
        settled = None
        if accepting:
            # The new key is the store's key from now on (with --force: on purpose over entries of a
            # missing one, which it cannot open; tiers.require_key_opens_sealed, rounds 10 and 12).
            from . import anchor
            from .tiers import ACCEPTED_NAME, accept_key, key_check
            from .tree import Tree as _Tree

            # A kill between the record and the link must not leave a store whose key exists nowhere
            # (tatk20 9): the marker outside the workspace lets the next command put the record back.
            settled = anchor.begin_keygen(Path(workspace), path.absolute(), key_check(key),
                                          _Tree(Path(workspace)).state_file(ACCEPTED_NAME))
            try:
                undo = accept_key(Path(workspace), key)
            except BaseException:
                fsio.discard_staged(staged)  # no record, no key: nothing was changed
                if settled is not None:
                    settled()
                raise
        try:
            fsio.link_new(staged, path)
        except (FileExistsError, FileWriteError) as exc:
            # The record is put back as it was (undo says so, or what it could not put back).
            said = undo() if undo is not None else "nothing was changed"
            if settled is not None:
                settled()
            why = exists if isinstance(exc, FileExistsError) else f"cannot create key file {exc}"
            raise CryptoError(f"{why}; {said}") from None
        except BaseException:
            if undo is not None:
                undo()
            if settled is not None:
                settled()
            raise
        if settled is not None:
            settled()
    return path


def discard_key(cfg: Mapping[str, Any] | None, key: bytes, env: Mapping[str, str] | None = None) -> bool:
    """Remove the key file when it still holds ``key`` (one this process just made); return True when removed.

    For a command that made the key first and then failed before anything was sealed with it
    (``crypt.py reseal``): it leaves things as they were (issue 11). A file holding anything
    else (another writer's key, an edit) is left alone.

    Raises:
        FileWriteError: the file holds ``key`` but could not be removed.
    """
    from . import fsio

    path = key_path(cfg, env)
    with fsio.folder_lock(path.parent):
        try:
            held = _decode_key(read_regular(path, limit=KEY_FILE_LIMIT).decode("ascii"), f"key file {path}")
        except (OSError, UnicodeDecodeError, MalformedKeyError):
            return False
        if held != key:
            return False
        try:
            fsio.remove(path)
        except OSError as exc:
            from .errors import FileWriteError

            raise FileWriteError(f"{path}: cannot remove the key made for this command ({exc.strerror or exc})") \
                from None
    return True


def associated_data(version: int, skill: str, topic: str = "", entry_id: str = "") -> bytes:
    """Return the AES-GCM associated data for an entry.

    v2 (written): the JSON array ``["cmm-t2", 2, skill, topic, entry_id]``
    (compact, UTF-8): JSON quoting keeps the fields apart, so no choice of
    names can make two different entries share associated data. v1 (read
    only): ``cmm-t2-v1|<skill>``.
    """
    if version == 1:
        return f"cmm-t2-v1|{skill}".encode("utf-8")
    return json.dumps(["cmm-t2", 2, skill, topic, entry_id], ensure_ascii=False,
                      separators=(",", ":"), allow_nan=False).encode("utf-8")


def aes_encrypt(text: str, skill: str, key: bytes, topic: str = "", entry_id: str = "") -> Sealed:
    """Encrypt ``text`` with AES-256-GCM (``aesgcm:v2:``) and a fresh random 96-bit nonce.

    ``skill``, ``topic`` and ``entry_id`` are bound as associated data
    (:func:`associated_data`): the text only decrypts for the same three.
    """
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    nonce = os.urandom(NONCE_BYTES)
    body = AESGCM(key).encrypt(nonce, text.encode("utf-8"), associated_data(2, skill, topic, entry_id))
    return Sealed(AES_PREFIX + base64.b64encode(nonce + body).decode("ascii"), {"scheme": "aes-gcm"})


def aes_decrypt(ciphertext: str, skill: str, key: bytes, topic: str = "", entry_id: str = "") -> str:
    """Decrypt an ``aesgcm:v2:`` text (skill, topic, id bound) or a legacy ``aesgcm:v1:`` one (skill only).

    Raises:
        CryptoError: wrong prefix, not Base64, truncated, tampered, wrong key,
            or written for another skill, topic or entry id.
    """
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    stripped = ciphertext.strip()
    if stripped.startswith(AES_PREFIX):
        version, rest = 2, stripped[len(AES_PREFIX):]
    elif stripped.startswith(AES_PREFIX_V1):
        version, rest = 1, stripped[len(AES_PREFIX_V1):]
    else:
        raise CryptoError("not an aes-gcm ciphertext (missing 'aesgcm:v2:' or 'aesgcm:v1:' prefix)")
    data = _b64(rest)
    if len(data) < NONCE_BYTES + TAG_BYTES:
        raise CryptoError("aes-gcm ciphertext is truncated")
    try:
        plain = AESGCM(key).decrypt(data[:NONCE_BYTES], data[NONCE_BYTES:],
                                    associated_data(version, skill, topic, entry_id))
    except InvalidTag:
        raise CryptoError("aes-gcm authentication failed: wrong key, tampered or truncated ciphertext, "
                          "or a text moved from another skill, topic or entry") from None
    try:
        return plain.decode("utf-8")
    except UnicodeDecodeError:
        raise CryptoError("aes-gcm plain text is not UTF-8") from None


# ------------------------------------------------------------------ front door

def looks_encrypted(text: str) -> bool:
    """Return True for an aes-gcm text, v2 or v1 (xor-b64 output cannot be told from Base64 data)."""
    return text.strip().startswith(AES_PREFIXES)


def choose_scheme(cfg: Mapping[str, Any], requested: str | None = None) -> str:
    """Resolve the scheme: ``requested`` or config ``tiers.encryption_scheme``.

    ``auto`` means aes-gcm when a key is configured, xor-b64 when none is
    (the issue's rule: T2 still gets the seed's obfuscation on a machine
    without a key, rather than plain text). A configured but malformed key
    raises instead of falling back (module docstring, "Keys fail closed").

    Raises:
        BadInputError: an unknown scheme.
        MalformedKeyError: a key is configured but malformed (any scheme:
            the user meant to use it).
    """
    scheme = requested or (cfg.get("tiers") or {}).get("encryption_scheme", "auto")
    if scheme not in SCHEMES and scheme != "auto":
        raise BadInputError(f"scheme must be one of auto, {', '.join(SCHEMES)}, not {scheme!r}")
    usable = check_key(cfg)
    if scheme == "auto":
        return "aes-gcm" if usable else "xor-b64"
    return scheme


def encrypt(text: str, skill: str, month: str, cfg: Mapping[str, Any], scheme: str | None = None, *,
            topic: str | None = None, entry_id: str | None = None) -> Sealed:
    """Encrypt ``text`` for ``skill``/``month`` with the chosen scheme.

    ``topic`` and ``entry_id`` are bound by aes-gcm (xor-b64 ignores them:
    its key is the seed's, from skill and month only). For aes-gcm they are
    required (``""`` is a value, None is not): a caller that forgot them would
    write entries its own readers (which pass the entry's topic and id) can
    never decrypt.

    Raises:
        CryptoError: ``text`` is already an aes-gcm ciphertext (never twice).
        KeyUnavailableError: aes-gcm was asked for and no key is available.
        MalformedKeyError: a key is configured but malformed.
    """
    if looks_encrypted(text):
        raise CryptoError("text is already encrypted (aes-gcm); refusing to encrypt twice")
    chosen = choose_scheme(cfg, scheme)
    if chosen == "aes-gcm":
        key = load_key(cfg)
        if topic is None or entry_id is None:
            raise TypeError("aes-gcm binds the topic and entry id: pass topic= and entry_id=")
        return aes_encrypt(text, skill, key, topic, entry_id)
    return xor_encrypt(text, skill, month)


def decrypt(ciphertext: str, skill: str, month: str, params: Mapping[str, Any],
            cfg: Mapping[str, Any] | None = None, *, topic: str | None = None,
            entry_id: str | None = None) -> str:
    """Decrypt with the parameters recorded in the entry (``scheme`` etc.).

    A missing ``scheme`` means a legacy seed entry (xor-b64), unless the text
    carries an aes-gcm prefix. The key is checked first whatever the scheme
    (:func:`check_key`). ``topic``/``entry_id`` are required for a v2 text
    (as for :func:`encrypt`).

    Raises:
        KeyUnavailableError, MalformedKeyError, CryptoError.
    """
    check_key(cfg)
    scheme = params.get("scheme") or ("aes-gcm" if looks_encrypted(ciphertext) else "xor-b64")
    if scheme == "aes-gcm":
        if (topic is None or entry_id is None) and ciphertext.strip().startswith(AES_PREFIX):
            raise TypeError("an aesgcm:v2 text binds the topic and entry id: pass topic= and entry_id=")
        return aes_decrypt(ciphertext, skill, load_key(cfg), topic or "", entry_id or "")
    if scheme == "xor-b64":
        return xor_decrypt(ciphertext, skill, month, params.get("text_encoding"), params.get("key_derivation"))
    raise CryptoError(f"unknown scheme {scheme!r}")
