"""Validating skill names, topics and keys that become file names.

A skill name, a T2 topic and a knowledge key end up in a path under
``memory/`` (``tier2-internal/<skill>_<topic>.md``, ``knowledge/<key>.md``).
Whatever the caller passes, the result must be one plain file-name component
that works on Linux, macOS and Windows, so nothing is ever written outside
``memory/``. The rules (POSIX and the Windows naming conventions,
"Naming Files, Paths, and Namespaces" in the Win32 docs):

- not empty, no leading or trailing white space;
- no path separator (``/`` or ``\\``), no ``..``, not starting with ``.``
  (hidden files, ``.`` and ``..``);
- not starting with ``-``: such a file name (``-x.md``) reads as an option
  to every shell tool (``rm``, ``grep``, ``git``), POSIX Utility Syntax
  Guidelines 3-5;
- no control character (Unicode category Cc/Cf, which includes NUL and
  newlines that would break a Markdown heading or an index line);
- none of the characters Windows forbids in names: ``< > : " | ? *``;
- not a Windows reserved device name (``CON``, ``PRN``, ``AUX``, ``NUL``,
  ``COM1``-``COM9``, ``LPT1``-``LPT9``, with or without an extension, any case);
- no trailing dot (Windows strips it);
- at most :data:`MAX_NAME_BYTES` bytes of UTF-8, so ``<skill>_<topic>.md``
  stays under the 255-byte limit of common file systems.

Daily-note topics do not become file names, but they become a Markdown
heading and an index line (``- topic → daily/...``); they get the same rules
except that ``/``-free is still required (an index line is parsed on ``→``).
Standard library only.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from .errors import InvalidNameError

#: 100 bytes each keeps ``<skill>_<topic>.md`` (2 x 100 + 4) below 255 bytes.
MAX_NAME_BYTES = 100
_FORBIDDEN = set('<>:"|?*/\\')
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$", re.I)


def _shown(value: str) -> str:
    """``value`` quoted for an error message, its secrets and T3 values masked as recall masks a name.

    A name refused for its shape may still hold a token (``ghp\\u005f…`` is
    refused for its backslash): the message must not print it (issue 10).
    """
    from .privacy import mask_name

    return repr(mask_name(value))


def validate_name(value: object, what: str = "name", max_bytes: int = MAX_NAME_BYTES) -> str:
    """Return ``value`` when it is safe as one file-name component.

    Args:
        value: the candidate (must be a ``str``).
        what: how the value is called in the error message (``"skill"``).
        max_bytes: the UTF-8 length limit (bytes).

    Raises:
        InvalidNameError: the value breaks one of the rules in the module
            docstring; the message says which.
    """
    if not isinstance(value, str):
        raise InvalidNameError(f"{what} must be text, not {type(value).__name__}")
    if not value:
        raise InvalidNameError(f"{what} must not be empty")
    if value != value.strip():
        raise InvalidNameError(f"{what} {_shown(value)} must not start or end with white space")
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            raise InvalidNameError(f"{what} {_shown(value)} contains a control character (U+{ord(ch):04X})")
        if ch in _FORBIDDEN:
            raise InvalidNameError(f"{what} {_shown(value)} must not contain {ch!r} (path separator or reserved character)")
    if ".." in value:
        raise InvalidNameError(f"{what} {_shown(value)} must not contain '..'")
    if value.startswith("."):
        raise InvalidNameError(f"{what} {_shown(value)} must not start with '.'")
    if value.startswith("-"):
        raise InvalidNameError(f"{what} {_shown(value)} must not start with '-' (it would look like an option)")
    if value.endswith("."):
        raise InvalidNameError(f"{what} {_shown(value)} must not end with '.'")
    if _RESERVED.match(value):
        raise InvalidNameError(f"{what} {_shown(value)} is a reserved device name on Windows")
    size = len(value.encode("utf-8"))
    if size > max_bytes:
        raise InvalidNameError(f"{what} is too long ({size} bytes of UTF-8; at most {max_bytes})")
    return value


def validate_skill(value: object) -> str:
    """Validate a skill name (see :func:`validate_name`)."""
    return validate_name(value, "skill name")


def validate_topic(value: object) -> str:
    """Validate a topic (daily note heading or T2 topic; see :func:`validate_name`).

    A topic also must not contain ``→``: the daily index splits its lines there.
    """
    name = validate_name(value, "topic")
    if "→" in name:
        raise InvalidNameError(f"topic {_shown(name)} must not contain '→' (the daily index separator)")
    return name


def validate_heading_topic(value: object) -> str:
    """Validate the topic of a daily-note section: it is only a heading, never a file name.

    So ``/``, ``:`` or ``?`` are fine ("CI/CD 迁移"); still refused: empty or
    padded text, control characters (a newline would start a new line of
    Markdown), ``→`` (the daily index separator) and more than
    :data:`MAX_NAME_BYTES` bytes.

    Raises:
        InvalidNameError: as above; the message says which rule.
    """
    if not isinstance(value, str):
        raise InvalidNameError(f"topic must be text, not {type(value).__name__}")
    if not value or value != value.strip():
        raise InvalidNameError(f"topic {_shown(value)} must not be empty or start or end with white space")
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            raise InvalidNameError(f"topic {_shown(value)} contains a control character (U+{ord(ch):04X})")
    if "→" in value:
        raise InvalidNameError(f"topic {_shown(value)} must not contain '→' (the daily index separator)")
    size = len(value.encode("utf-8"))
    if size > MAX_NAME_BYTES:
        raise InvalidNameError(f"topic is too long ({size} bytes of UTF-8; at most {MAX_NAME_BYTES})")
    return value


def validate_key(value: object) -> str:
    """Validate a knowledge key (``memory/knowledge/<key>.md``; see :func:`validate_name`)."""
    return validate_name(value, "key")


#: Rules that read a value by a cue word before random-looking text: in folders joined with
#: nothing between them, the cue and the value are made by the glue (tfix17t).
_GLUE_PRONE = frozenset({"keyword_entropy", "keyword_entropy_zh", "secret_assignment", "keyed_phrase", "ak_sk_bare",
                         "bare_random_line", "otp_seed_grouped", "short_key_name", "keyed_uuid"})


def _trimmed(parts: list[str]) -> list[str]:
    """A path's parts without the spaces at their edges, to be read joined (``"AKIA… "``, ``" …"``)."""
    return [p.strip() for p in parts]


def refuse_private_path(option: str, target: Path, *, existing: bool = False) -> None:
    """Refuse a file path given to ``option`` whose file or folder names hold a secret or personal data.

    Gate rule 0 (references/gate.md): a name that reaches disk is read as a
    name. An output file (``report --html``, ``export --out``) becomes a file
    name on disk and a line of a record; an input file's name (``import FILE``)
    is written into the backup's reason. Each part is read as a name
    (:func:`memory_manager.privacy.scan_name`), and neighbouring parts joined
    too (:func:`memory_manager.privacy.joined_readings`; tatk9: a number cut by
    a '/'): the file name, each folder the command creates, and the last folder
    that exists already. Folders that exist already are the user's file
    system, named before (a test folder named after its test read as a
    handle); a home folder (``/home/<user>``) is not a finding here. tatk8
    found a token as ``--html``'s file name, atk13 the same in ``export --out``.
    The older folders of an output path are read too, for certain findings
    only (a token, a password phrase: atk15 put a token in an existing
    folder's name, and the whole path reached ``reports.json``), each alone
    and neighbours joined across every part typed (tatk17: a token cut by
    '/' across existing folders), each part joined without the spaces at its
    edges (tatk18: a value cut at ' / '). Only what the user typed is read: of a
    relative path, not the current folder it resolves against.

    Args:
        option: the option as the user typed it (``--out``), for the message.
        target: the path (absolute or relative to the current folder).
        existing: the file exists (an input, of which only the file name is
            kept on disk): only its file name is read.

    Raises:
        BadInputError: naming the category, never the value; nothing is written.
    """
    from .errors import BadInputError
    from .privacy import joined_readings, scan_name

    # Absolute first: a relative name's first part is the file itself, which the cut below
    # (made for the root "/") passed over unread (atk15: ``export --out x-<phone>.json``).
    typed = Path(target)
    parts = list(typed.absolute().parts)
    # The parts the user typed: all of an absolute path; of a relative one, its own parts, not
    # the current folder it is resolved against (tfix17t: a folder the user did not name here,
    # such as pytest's ``test_a_token_cut_across_exist0``, read as a secret and refused the path).
    start = 1 if typed.is_absolute() else max(1, len(parts) - len(typed.parts))
    if existing:
        first_new = len(parts)
    else:
        first_new = next((n for n in range(1, len(parts) + 1) if not Path(*parts[:n]).exists()), len(parts))
    cut = max(start, first_new - 1)
    older = [p for p in parts[start:cut] if p not in ("/", "\\")]
    parts = [p for p in parts[cut:] if p not in ("/", "\\")]
    # Joined, each part is read without the spaces at its edges: a value cut at ' / ' ("AKIA… / …")
    # is the same value as one cut at '/' (tatk18 7: report --html wrote it, and export --out into a
    # folder that exists already).
    found = {f.category for text in [*parts, *joined_readings(_trimmed(parts))] for f in scan_name(text)
             if f.category != "home_path"}
    if not existing:
        # The folders that exist already reach disk too: report --html records the whole path in
        # memory/.state/reports.json, and both commands print it (attack round 15: a token pasted
        # as the name of an existing folder). Only a certain finding refuses there: a folder named
        # before is the user's file system, and a name, handle or number in it is most often the
        # user's own (a test folder named after its test); a token or a password is never chance.
        # Each folder alone, and neighbours joined across every typed part, existing or new
        # (tatk17 kind 4: a token cut by '/' across folders that exist passed); never the parts
        # the user did not type (the current folder of a relative path).
        found |= {f.category for text in older for f in scan_name(text)
                  if f.category != "home_path" and f.confidence == "certain"}
        # Joined, a tree's folders glue into cue words and random-looking runs ("root"+"pytest"
        # holds "otp", and the rest reads as an OTP seed): there only findings that do not rest on
        # a cue word before a random value count (a token of a published format, a card number).
        found |= {f.category for text in joined_readings(_trimmed([*older, *parts])) for f in scan_name(text)
                  if f.category != "home_path" and f.confidence == "certain"
                  and getattr(f, "rule", "") not in _GLUE_PRONE}
    found = sorted(found)
    if found:
        raise BadInputError(f"{option}: the path holds {', '.join(found)} (a file or folder name is stored, so it "
                            "must hold no secret or personal data); name another file; nothing was written")
