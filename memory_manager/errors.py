"""Typed errors raised by the domain modules.

Only :mod:`memory_manager.cli` turns them into messages and exit codes. The
contract (``../STYLE.md``): exit 1 for a domain error or findings, exit 2 for
usage errors and bad input. Each class carries its ``exit_code`` and a short
machine-readable ``kind`` used in ``--json`` error documents.
"""
from __future__ import annotations


class MemoryManagerError(Exception):
    """Base class: a domain error (exit code 1)."""

    exit_code = 1
    kind = "error"


class BadInputError(MemoryManagerError):
    """The caller gave input we cannot work with (exit code 2)."""

    exit_code = 2
    kind = "bad_input"


class ConfigError(BadInputError):
    """``config.json`` or the workspace override is malformed or has unknown keys."""

    kind = "config"


class WorkspaceError(BadInputError):
    """The workspace is missing, not a directory, or a path escapes it."""

    kind = "workspace"


class UnreadableFileError(BadInputError):
    """A file cannot be read or is not valid UTF-8."""

    kind = "unreadable"


class InputTooLargeError(BadInputError):
    """Text on stdin or an import file is larger than ``input.max_mb`` (config.json)."""

    kind = "too_large"


class InvalidNameError(BadInputError):
    """A skill name, topic or key cannot be used as a file name."""

    kind = "invalid_name"


class FileWriteError(MemoryManagerError):
    """Writing a file failed; the original (if any) is unchanged."""

    kind = "write_failed"


class DirtyFileError(MemoryManagerError):
    """A file changed on disk between reading and writing it (someone edited it)."""

    kind = "dirty_file"


class BackupError(MemoryManagerError):
    """A backup could not be made or restored; nothing was changed."""

    kind = "backup"


class MalformedBackupError(BackupError, BadInputError):
    """A backup's manifest holds an entry we refuse (exit 2, bad input; nothing was changed).

    A path that leaves the workspace or points into the backups, an entry that is not an
    object or has fields of the wrong type: the manifest is data anyone who can write the
    workspace can forge (issue 10), and every file we read is untrusted input (issue 11:
    validated bad input exits 2 with one line naming the file). Still a :class:`BackupError`,
    so code that passes over an unusable backup passes over this one too. A copy that is
    missing or fails its checksum is damage, not a forged field: plain :class:`BackupError`.
    """

    kind = "malformed_backup"


class NotFoundError(MemoryManagerError):
    """An entry, backup or session that was asked for does not exist."""

    kind = "not_found"


class UnknownBackupIdError(NotFoundError):
    """A backup id (or prefix) given to ``--restore`` names no backup: bad input, exit 2.

    Like an ambiguous prefix (:class:`BadInputError`), a mistyped id is the caller's input
    (walk-through r10, item 7); ``kind`` stays ``not_found``.
    """

    exit_code = 2


class GateDecisionError(MemoryManagerError):
    """The memory gate refused the operation or holds it for approval.

    ``decision`` is the gate's decision object (see :mod:`memory_manager.gate`).
    """

    kind = "gate"

    def __init__(self, message: str, decision: object | None = None) -> None:
        super().__init__(message)
        self.decision = decision


class ApprovalUnboundError(MemoryManagerError):
    """The user's approval cannot be bound to what it approves (exit 1, nothing written).

    Approval marks and the approval record are HMACs with a secret outside the
    workspace (:mod:`memory_manager.keyed`); with no T2 key and the local
    secret's folder inside the workspace (or unwritable) there is none, and an
    approval stored unbound would be dropped by the next cleanup.
    """

    kind = "approval_unbound"


class CryptoError(MemoryManagerError):
    """Decryption failed: wrong key, tampered or truncated ciphertext."""

    kind = "crypto"


class KeyUnavailableError(CryptoError):
    """No AES key is configured (``MEMORY_MANAGER_KEY`` or a key file)."""

    kind = "key_unavailable"


class KeyRecordedError(KeyUnavailableError):
    """No key is here, and the store recorded a key that keyed only approval marks (exit 1; attack round 16).

    A new key must not replace it (the marks could no longer be checked); ``init``
    says so and goes on without making a key, ``crypt.py keygen`` refuses (``--force``
    starts a new key on purpose).
    """


class WrongKeyError(CryptoError):
    """A well-formed T2 key opens none of the workspace's aes-gcm entries (exit 1).

    Another machine's key, or one pasted by mistake: writing with it would
    split the store (attack round 10), so writes that seal are refused.
    """

    kind = "wrong_key"


class MalformedKeyError(CryptoError):
    """A key is configured but is not exactly 32 bytes of Base64 (exit 1).

    Deliberately not a :class:`KeyUnavailableError`: code that carries on
    without a key (xor-b64 under ``auto``, "locked" entries in recall) must
    never treat a broken key as an absent one.
    """

    kind = "malformed_key"


class MalformedFileError(BadInputError):
    """A memory file cannot be parsed (bad frontmatter, wrong types): bad input, exit 2.

    Every file we read is untrusted input (a hand edit, an import, another
    tool), so a malformed one is reported like any other bad input.
    """

    kind = "malformed"


class MissingDependencyError(MemoryManagerError):
    """An optional extra this command needs is not installed (exit 1); the
    message names the one command that installs it."""

    kind = "missing_dependencies"
