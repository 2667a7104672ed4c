#!/usr/bin/env python3
"""crypt.py: encrypt or decrypt T2 text (stdin or a T2 file in place), reseal xor-b64 entries, make an AES key."""
# First of all (the builtin _signal: the signal module imports enum, tens of ms): a Ctrl-C while
# starting up changes nothing and says so; memory_manager.interrupts takes over below.
import _signal, os, sys  # noqa: E401
_signal.signal(_signal.SIGINT, lambda *_: (os.write(*((1, b'{"error": "interrupted: nothing was changed", "kind": "interrupted"}\n') if "--json" in sys.argv else (2, b"interrupted: nothing was changed\n"))), os._exit(130))) \
    if __name__ == "__main__" else None  # a test harness importing the script keeps its own handler
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # noqa: E401,E702
from memory_manager.interrupts import install; install() if __name__ == "__main__" else None  # noqa: E702
from memory_manager.deps import require; require()  # noqa: E702

# xor-b64 is obfuscation, not encryption: anyone can derive its key from the
# skill name and month. Use aes-gcm (``crypt.py keygen`` once) for secrecy.
# Exit codes: 0 done, 1 crypto/domain error (wrong key, tampered, no key,
# gate), 2 bad input.

import re  # noqa: E402
from pathlib import Path  # noqa: E402

import click  # noqa: E402

from memory_manager import __version__  # noqa: E402
from memory_manager.cli import common_options, emit_json, group_options, handle_errors, open_workspace, pass_to_verbs, \
    run, stdout  # noqa: E402
from memory_manager.errors import BadInputError  # noqa: E402

MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


def _context(workspace, must_exist=True):
    opened = open_workspace(workspace, must_exist=must_exist)
    return opened.root, opened.config


def _check_month(month, scheme):
    """The xor-b64 key month; aes-gcm needs none (its key does not use the month).

    Kept required for xor-b64 rather than defaulting to the current month:
    the month is part of that key, so text encrypted in one month and read
    with another's default would fail (or look like garbage) without a hint.
    """
    if scheme == "aes-gcm" and month is None:
        return ""
    if not month or not MONTH.match(month):
        raise BadInputError("--month must be YYYY-MM (required for xor-b64: the month is part of its key)")
    return month


@click.group(help="Encrypt/decrypt T2 memory text and create the AES key file.")
@click.version_option(__version__, "--version", prog_name="complex-memory-manager")
@group_options
@click.pass_context
def crypt(ctx: click.Context, workspace, json_) -> None:
    pass_to_verbs(ctx, workspace, json_)  # crypt.py -w DIR reseal, as memory.py takes it


def _file_op(path: Path, workspace, decrypt: bool, scheme, approved: bool, json_: bool) -> int:
    from memory_manager.store import crypt_file

    ws, cfg = _context(workspace)
    result = crypt_file(ws, cfg, path, decrypt=decrypt, scheme=scheme, approved=approved)
    if json_:
        emit_json(result)
    else:
        from memory_manager.erasure import summary

        if result["action"] == "unchanged":
            stdout.print(f"unchanged: {result['file']} is {result['reason']}; nothing to do", markup=False)
            return 0
        extra = f"; {summary(result['erased'])}" if "erased" in result else ""
        stdout.print(f"{result['action']} {result['file']} in place (backup {result['backup']}){extra}", markup=False)
    return 0


def _binding(skill, topic, entry_id):
    """The aes-gcm associated data fields: topic and entry id (default: the T2 id of skill/topic)."""
    from memory_manager.names import validate_topic
    from memory_manager.tiers import t2_id

    if topic is None:
        return "", entry_id or ""
    validate_topic(topic)
    return topic, entry_id or t2_id(skill, topic)


_TOPIC_HELP = "T2 topic the text belongs to (aes-gcm binds skill, topic and entry id; give the same to decrypt)."
_ID_HELP = "Entry id bound by aes-gcm (default: the id memory.py gives SKILL/TOPIC)."


@crypt.command("encrypt")
@click.option("--skill", default=None, help="Skill name (part of the key / associated data).")
@click.option("--topic", default=None, help=_TOPIC_HELP)
@click.option("--id", "entry_id", default=None, help=_ID_HELP)
@click.option("--month", default=None,
              help="Key month YYYY-MM: required for xor-b64 (part of its key); not used by aes-gcm.")
@click.option("--scheme", type=click.Choice(["auto", "xor-b64", "aes-gcm"]), default=None,
              help="Default: config tiers.encryption_scheme (auto: aes-gcm when a key exists).")
@click.option("--file", "file_", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Encrypt a plain-text T2 entry file in place (backed up first).")
@common_options
@handle_errors
def encrypt_cmd(skill, topic, entry_id, month, scheme, file_, workspace, json_, verbose):
    """Encrypt stdin and print the ciphertext (or seal a T2 file in place)."""
    from memory_manager import crypto, tiers
    from memory_manager.names import validate_skill

    if file_ is not None:
        return _file_op(file_, workspace, False, scheme, False, json_)
    if skill is None:  # part of the key (xor-b64) or the associated data (aes-gcm)
        raise click.UsageError("encrypting stdin needs --skill NAME (part of the key and the associated data)")
    validate_skill(skill)
    topic, entry_id = _binding(skill, topic, entry_id)
    ws, cfg = _context(workspace, must_exist=False)
    month = _check_month(month, crypto.choose_scheme(cfg, scheme))
    # Through the store's one sealing door: text sealed with a key the workspace did not accept
    # would be pasted beside entries it cannot open (attack round 11).
    text = sys.stdin.read()
    if not text.strip():
        # An empty stdin is a forgotten pipe, not a text to keep: refused like `learn --text -` (nu16 item 12).
        raise BadInputError("stdin is empty: nothing to encrypt (pipe the text in)")
    sealed = tiers.seal(ws, cfg, text, skill, month, scheme, topic=topic, entry_id=entry_id)
    if json_:
        emit_json({"ciphertext": sealed.ciphertext, **sealed.params})
    else:
        sys.stdout.write(sealed.ciphertext + "\n")
    return 0


@crypt.command("decrypt")
@click.option("--skill", default=None, help="Skill name.")
@click.option("--topic", default=None, help=_TOPIC_HELP)
@click.option("--id", "entry_id", default=None, help=_ID_HELP)
@click.option("--month", default=None,
              help="Key month YYYY-MM: required for xor-b64 (part of its key); not used by aes-gcm.")
@click.option("--scheme", type=click.Choice(["xor-b64", "aes-gcm"]), default=None,
              help="Default: aes-gcm for 'aesgcm:v2:' or 'aesgcm:v1:' text, else xor-b64.")
@click.option("--text-encoding", type=click.Choice(["latin-1", "utf-8"]), default=None,
              help="xor-b64 only: how the text was encoded (default: utf-8 when the bytes are valid "
                   "multi-byte UTF-8, else the seed's latin-1).")
@click.option("--file", "file_", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Decrypt a T2 entry file in place (backed up first; needs --approved).")
@click.option("--approved", is_flag=True, help="The user approved decrypting the file in place.")
@common_options
@handle_errors
def decrypt_cmd(skill, topic, entry_id, month, scheme, text_encoding, file_, approved, workspace, json_, verbose):
    """Decrypt stdin and print the plain text (or a T2 file in place)."""
    from memory_manager import crypto
    from memory_manager.names import validate_skill

    if file_ is not None:
        return _file_op(file_, workspace, True, None, approved, json_)
    if skill is None:
        raise click.UsageError("decrypting stdin needs --skill NAME (part of the key and the associated data)")
    validate_skill(skill)
    topic, entry_id = _binding(skill, topic, entry_id)
    _, cfg = _context(workspace, must_exist=False)
    data = sys.stdin.read().strip()
    if not data:
        raise BadInputError("stdin is empty: nothing to decrypt (pipe the ciphertext in)")
    month = _check_month(month, "aes-gcm" if scheme == "aes-gcm" or crypto.looks_encrypted(data) else "xor-b64")
    params = {"scheme": scheme} if scheme else {}
    if text_encoding:
        params["text_encoding"] = text_encoding
    # Without --text-encoding the library picks utf-8 or latin-1 from the bytes (crypto module docstring).
    text = crypto.decrypt(data, skill, month, params, cfg, topic=topic, entry_id=entry_id)
    if json_:
        emit_json({"plaintext": text})
    else:
        sys.stdout.write(text + ("" if text.endswith("\n") else "\n"))
    return 0


@crypt.command("reseal")
@common_options
@handle_errors
def reseal_cmd(workspace, json_, verbose):
    """Encrypt every xor-b64 (or plain-text) T2 entry with aes-gcm, in place, backed up first.

    Makes the AES key at the default place first when none is configured (as
    init --yes does); a configured key that is broken or missing stops it.
    """
    from memory_manager import crypto
    from memory_manager.store import apply_reseal, plan_reseal

    from memory_manager.errors import MemoryManagerError
    from memory_manager.fsio import workspace_lock

    ws, cfg = _context(workspace)
    made = None
    # The lock first (fatk9): a reseal that cannot take it leaves no new key behind. Whole or
    # nothing where it can be (issue 11): a reseal that fails before writing anything with the key
    # it made (an entry that does not decode, the new key refused) removes that key again; one that
    # fails after it started writing keeps it (its backup and files may be sealed with it) and says so.
    with workspace_lock(ws):
        if crypto.key_state(cfg) == "none":
            made = str(crypto.keygen(cfg, ws, record=False))
        try:
            plan = plan_reseal(ws, cfg)
        except MemoryManagerError as exc:
            if made:
                exc.args = (f"{exc} ({_unmake(cfg, made)})",)
            raise
        try:
            result = apply_reseal(ws, cfg, plan)
        except MemoryManagerError as exc:
            if made:
                exc.args = (f"{exc} (the AES key {made} was created first and is kept, mode 0600)",)
            raise
        if made:
            # Every command that makes a key records it (attack round 13): with nothing to reseal,
            # no seal recorded it, and another key in MEMORY_MANAGER_KEY could take the store.
            from memory_manager.tiers import record_made_key

            record_made_key(ws, cfg)
    if json_:
        emit_json({**result, "key_created": made})
        return 0
    if made:
        stdout.print(f"created AES key {made} (mode 0600): keep a copy somewhere safe; losing it loses the T2 "
                     "entries encrypted with it", markup=False)
    for row in result["skipped"]:
        stdout.print(f"skipped {row['file']}: {row['reason']}", markup=False)
    if not result["files"]:
        stdout.print("nothing to reseal: every T2 entry is aes-gcm", markup=False)
        return 0
    from memory_manager.erasure import summary

    stdout.print(f"resealed {result['entries']} T2 entr{'y' if result['entries'] == 1 else 'ies'} in "
                 f"{len(result['files'])} file(s) with aes-gcm (backup {result['backup']}); "
                 f"{summary(result['erased'])}", markup=False)
    return 0


def _unmake(cfg, made: str) -> str:
    """Remove the key this reseal made before anything was sealed with it; say what became of it."""
    from memory_manager import crypto

    from memory_manager.errors import MemoryManagerError

    try:
        key = crypto.load_key(cfg)
        if crypto.discard_key(cfg, key):
            return f"the AES key {made} made for it was removed again; nothing was changed"
    except MemoryManagerError:
        pass
    return f"the AES key {made} was created first and is kept, mode 0600; nothing else was changed"


@crypt.command("keygen")
@click.option("--force", is_flag=True,
              help="Make a new key even though aes-gcm entries of a missing key exist (they stay unreadable "
                   "until the old key is back).")
@common_options
@handle_errors
def keygen_cmd(force, workspace, json_, verbose):
    """Create the AES-256 key file (mode 0600, in the user's config folder, never in the workspace)."""
    from memory_manager import crypto

    ws, cfg = _context(workspace, must_exist=False)
    path = crypto.keygen(cfg, ws, force=force)
    if json_:
        emit_json({"key_file": str(path), "mode": "0600"})
    else:
        stdout.print(f"created key file {path} (mode 0600); keep a safe copy: without it aes-gcm entries "
                     "cannot be read", markup=False)
    return 0


if __name__ == "__main__":
    run(crypt)
