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
    random 96-bit nonce per write (the size SP 800-38D recommends); the
    associated data binds the ciphertext to its skill so it cannot be moved
    to another skill's entry unnoticed. Text form:
    ``aesgcm:v1:`` + Base64(nonce || ciphertext || 16-byte tag). The key is 32
    bytes from ``MEMORY_MANAGER_KEY`` (Base64) or from the key file made by
    :func:`keygen` (mode 0600, in ``${XDG_CONFIG_HOME:-~/.config}/
    complex-memory-manager/key``, never inside the workspace). Tampering, a
    wrong key or a truncated body raise :class:`CryptoError`.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .errors import BadInputError, CryptoError, KeyUnavailableError

SCHEMES = ("xor-b64", "aes-gcm")
DERIVATIONS = ("concat", "hyphen")
TEXT_ENCODINGS = ("latin-1", "utf-8")
AES_PREFIX = "aesgcm:v1:"
ENV_KEY = "MEMORY_MANAGER_KEY"
KEY_DIRNAME = "complex-memory-manager"
KEY_FILENAME = "key"
#: 96-bit nonce: the IV length NIST SP 800-38D recommends for GCM.
NONCE_BYTES = 12
TAG_BYTES = 16


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

def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """Return ``${XDG_CONFIG_HOME:-~/.config}/complex-memory-manager`` (the key's folder)."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME") or Path.home()) / ".config")
    return Path(base).expanduser() / KEY_DIRNAME


def key_path(cfg: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> Path:
    """Return the key file path: config ``tiers.key_file`` when set, else the config dir's ``key``."""
    custom = ((cfg or {}).get("tiers") or {}).get("key_file")
    if custom:
        return Path(os.path.expanduser(custom))
    return config_dir(env) / KEY_FILENAME


def _decode_key(text: str, where: str) -> bytes:
    try:
        key = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise KeyUnavailableError(f"{where} is not Base64") from None
    if len(key) != 32:
        raise KeyUnavailableError(f"{where} must hold 32 bytes (AES-256), not {len(key)}")
    return key


def load_key(cfg: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> bytes:
    """Return the 32-byte AES key: ``MEMORY_MANAGER_KEY`` first, then the key file.

    Raises:
        KeyUnavailableError: no key configured, or the key is malformed.
    """
    env = os.environ if env is None else env
    if env.get(ENV_KEY):
        return _decode_key(env[ENV_KEY], ENV_KEY)
    path = key_path(cfg, env)
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise KeyUnavailableError(f"no AES key: set {ENV_KEY} or run 'crypt.py keygen' (key file {path})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyUnavailableError(f"key file {path} is unreadable ({exc})") from None
    return _decode_key(text, f"key file {path}")


def key_available(cfg: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> bool:
    """Return True when :func:`load_key` would succeed."""
    try:
        load_key(cfg, env)
    except KeyUnavailableError:
        return False
    return True


def keygen(cfg: Mapping[str, Any] | None = None, workspace: Path | None = None,
           env: Mapping[str, str] | None = None) -> Path:
    """Create a new random 32-byte key file (Base64), mode 0600 from its creation.

    The file is opened with ``O_CREAT|O_EXCL`` and mode 0600 before a byte is
    written (a key is never world-readable, even briefly); its folder is 0700.

    Raises:
        CryptoError: the key file exists already (replacing it would make
            every aes-gcm entry unreadable) or would lie inside ``workspace``.
    """
    path = key_path(cfg, env)
    if workspace is not None:
        from .workspace import inside

        if inside(Path(workspace), path.parent if not path.exists() else path):
            raise CryptoError(f"refusing to put the key file {path} inside the workspace")
    if path.exists():
        raise CryptoError(f"key file {path} exists already; remove it yourself if you really want a new key "
                          "(entries encrypted with it become unreadable)")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = os.urandom(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise CryptoError(f"cannot create key file {path} ({exc.strerror})") from None
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(base64.b64encode(key).decode("ascii") + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return path


def _aad(skill: str) -> bytes:
    return f"cmm-t2-v1|{skill}".encode("utf-8")


def aes_encrypt(text: str, skill: str, key: bytes) -> Sealed:
    """Encrypt ``text`` with AES-256-GCM and a fresh random 96-bit nonce."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    nonce = os.urandom(NONCE_BYTES)
    body = AESGCM(key).encrypt(nonce, text.encode("utf-8"), _aad(skill))
    return Sealed(AES_PREFIX + base64.b64encode(nonce + body).decode("ascii"), {"scheme": "aes-gcm"})


def aes_decrypt(ciphertext: str, skill: str, key: bytes) -> str:
    """Decrypt an ``aesgcm:v1:`` text.

    Raises:
        CryptoError: wrong prefix, not Base64, truncated, tampered, or wrong key.
    """
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    stripped = ciphertext.strip()
    if not stripped.startswith(AES_PREFIX):
        raise CryptoError("not an aes-gcm ciphertext (missing 'aesgcm:v1:' prefix)")
    data = _b64(stripped[len(AES_PREFIX):])
    if len(data) < NONCE_BYTES + TAG_BYTES:
        raise CryptoError("aes-gcm ciphertext is truncated")
    try:
        plain = AESGCM(key).decrypt(data[:NONCE_BYTES], data[NONCE_BYTES:], _aad(skill))
    except InvalidTag:
        raise CryptoError("aes-gcm authentication failed: wrong key, tampered or truncated ciphertext") from None
    return plain.decode("utf-8")


# ------------------------------------------------------------------ front door

def looks_encrypted(text: str) -> bool:
    """Return True for an aes-gcm text (xor-b64 output cannot be told from Base64 data)."""
    return text.strip().startswith(AES_PREFIX)


def choose_scheme(cfg: Mapping[str, Any], requested: str | None = None) -> str:
    """Resolve the scheme: ``requested`` or config ``tiers.encryption_scheme``.

    ``auto`` means aes-gcm when a key is available, xor-b64 otherwise (the
    issue's rule: T2 still gets the seed's obfuscation on a machine without
    a key, rather than plain text).
    """
    scheme = requested or (cfg.get("tiers") or {}).get("encryption_scheme", "auto")
    if scheme == "auto":
        return "aes-gcm" if key_available(cfg) else "xor-b64"
    if scheme not in SCHEMES:
        raise BadInputError(f"scheme must be one of auto, {', '.join(SCHEMES)}, not {scheme!r}")
    return scheme


def encrypt(text: str, skill: str, month: str, cfg: Mapping[str, Any], scheme: str | None = None) -> Sealed:
    """Encrypt ``text`` for ``skill``/``month`` with the chosen scheme.

    Raises:
        CryptoError: ``text`` is already an aes-gcm ciphertext (never twice).
        KeyUnavailableError: aes-gcm was asked for and no key is available.
    """
    if looks_encrypted(text):
        raise CryptoError("text is already encrypted (aes-gcm); refusing to encrypt twice")
    chosen = choose_scheme(cfg, scheme)
    if chosen == "aes-gcm":
        return aes_encrypt(text, skill, load_key(cfg))
    return xor_encrypt(text, skill, month)


def decrypt(ciphertext: str, skill: str, month: str, params: Mapping[str, Any],
            cfg: Mapping[str, Any] | None = None) -> str:
    """Decrypt with the parameters recorded in the entry (``scheme`` etc.).

    A missing ``scheme`` means a legacy seed entry (xor-b64), unless the text
    carries the aes-gcm prefix.

    Raises:
        KeyUnavailableError, CryptoError.
    """
    scheme = params.get("scheme") or ("aes-gcm" if looks_encrypted(ciphertext) else "xor-b64")
    if scheme == "aes-gcm":
        return aes_decrypt(ciphertext, skill, load_key(cfg))
    if scheme == "xor-b64":
        return xor_decrypt(ciphertext, skill, month, params.get("text_encoding"), params.get("key_derivation"))
    raise CryptoError(f"unknown scheme {scheme!r}")
