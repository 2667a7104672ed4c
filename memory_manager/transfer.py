"""Export and import of the memory store.

Export (``cmm-export`` v1) is one JSON document::

    {"format": "cmm-export", "version": 1, "exported": "<ISO time>", "tool_version": "...",
     "daily": [{"id", "date", "topic", "pinned", "cause": [..], "change": [..], "todo": [..]}],
     "knowledge": [{"id", "key", "tags", "created", "updated", "pinned", "body", "frontmatter",
                    "frontmatter_text"}],
     "tier1": [{"file": "<skill>_stats.json", "data": {...}}],
     "tier2": [{"file": "<skill>_<topic>.md", "text": "<the file as is: ciphertext>"}],
     "archive": [{"file": "<YYYY-MM>/<name>", "text": "<the archive file as is>"}],
     "lessons": [{"section": "lesson|mistake|decision", "line": "- [YYYY-MM-DD] text"}]}

Version 3 added ``archive`` (prune's archived entries and cleanup's archived
files, as they are) and ``lessons`` (the lines of MEMORY.md's three sections);
versions 1 and 2 are still read (without them).

T2 entries are exported as their files, still encrypted (an export never
holds T2 plain text). Import reads this format (version 1 or older), or,
with ``from_openclaw``, OpenClaw's own notes ``memory/YYYY-MM-DD*.md``
(session-memory hook) as daily entries (the note's lines become 改/Change
lines under a topic taken from the file-name slug or first heading).

Both need the user's approval (the gate's rule for import and export);
each imported item also passes the gate on its own content, so a secret
inside an export is refused item by item (and reported), never stored.
Likewise a daily section (or OpenClaw note) whose date is not a real
calendar date (``2026-13-45``, ``2026-02-30``) is refused on its own and
named in ``problems``; the rest of the import goes ahead.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .jsonio import parse as _parse_json
from .regular import read_regular
from . import __version__, crypto, entries, gate, privacy, tiers, tree
from .clock import now, parse_day
from .errors import BadInputError, InputTooLargeError, InvalidNameError, MalformedFileError, MemoryManagerError, \
    UnreadableFileError
from .fsio import atomic_write, read_text, read_text_capped, workspace_lock
from .names import validate_heading_topic, validate_key, validate_name, validate_topic
from .store import OPENCLAW_NOTE, LazyBackup, _gate, _knowledge_ident, _learn_locked, _tags, _write_daily_locked, \
    ensure_tree, flush_daily, rel, safe_target, section_id, section_lines

EXPORT_FORMAT = "cmm-export"
#: 2 adds ``other`` to daily items (the section's lines that are not 因/改/待
#: items: free text, fenced code), so an export/import round trip keeps them.
#: Version 1 documents are still read (no ``other``). 3 adds ``archive`` and
#: ``lessons`` (walk-through r4, item 3: an export lost both); 1 and 2 are read.
EXPORT_VERSION = 3
#: What ``import`` returns (and prints with ``--json``). Version 2 (issue 11's exit-code rule,
#: issue 10 round 6): ``imported`` became the list of items written and ``refused`` the list of
#: items not written (category, never value), the counts moved to ``counts``, ``complete`` was
#: added, and an import that did not write every item exits 1. Version 1 (unmarked) had
#: ``imported`` as the counts and exited 0 whatever it skipped.
IMPORT_RESULT_FORMAT = {"format": "cmm-import-result", "version": 2}
#: An archive file's place under ``memory/archive/``: a month folder and a file of ours.
_ARCHIVE_FILE = re.compile(r"^\d{4}-\d{2}/[^/\\]+\.(md|json)$")
#: A lesson line as ``memory.py lesson`` writes it (a bullet; the date is optional for hand-written ones).
_LESSON_LINE = re.compile(r"^[-*] \S")


def _looks_t2(text: str) -> bool:
    """True for a T2 file's text (frontmatter ``format: cmm-t2``/``cmm-t2-multi`` or the seed's ``tier: internal``)."""
    head = text[:400]
    # Quoted YAML values are the same values (tatk9: 'tier: "internal"' was gated as raw text).
    return bool(re.search(r"^format:\s*[\"']?cmm-t2", head, re.M) or re.search(r"^tier:\s*[\"']?internal", head, re.M))


def archive_files(ws: Path) -> list[Path]:
    """The files of ``memory/archive/<YYYY-MM>/`` an export carries (``.md`` and ``.json``), sorted.

    Symlinks and anything that leaves the workspace are left out.
    """
    root = entries.memory_dir(ws) / tree.ARCHIVE
    if not root.is_dir() or root.is_symlink():
        return []
    found = []
    for month in sorted(root.iterdir()):
        if not month.is_dir() or month.is_symlink():
            continue
        for path in sorted(month.iterdir()):
            rel_name = f"{month.name}/{path.name}"
            if path.is_file() and not path.is_symlink() and _ARCHIVE_FILE.match(rel_name) \
                    and entries.stays_inside(ws, path):
                found.append(path)
    return found


def lesson_lines(text: str) -> list[tuple[str, str]]:
    """``(section kind, line)`` for each bullet line under MEMORY.md's three sections, in file order.

    The sections are :data:`memory_manager.lessons.SECTIONS` (either language);
    the title, the marker, the template's introduction and the ``Kept from
    the previous MEMORY.md`` section are not lessons and are left out.
    """
    from .lessons import SECTIONS

    heads = {h: kind for kind, pair in SECTIONS.items() for h in pair}
    kind, out = None, []
    for line in text.split("\n"):
        if line.startswith("#"):
            kind = heads.get(line.rstrip())
        elif kind and _LESSON_LINE.match(line):
            out.append((kind, line.rstrip()))
    return out


def collect(ws: Path) -> tuple[dict[str, Any], list[str]]:
    """Return ``(export document, problems)``; malformed files are left out and named."""
    problems: list[str] = []
    doc: dict[str, Any] = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION,
                           "exported": now().isoformat(timespec="seconds"), "tool_version": __version__,
                           "daily": [], "knowledge": [], "tier1": [], "tier2": [], "archive": [], "lessons": []}
    for section in entries.iter_daily(ws, problems):
        item = section.as_dict()
        item.pop("path")
        doc["daily"].append(item)
    for entry in entries.iter_knowledge(ws, problems):
        item = entry.as_dict()
        for key in ("path", "error"):
            item.pop(key)
        doc["knowledge"].append(item)
    t1 = entries.memory_dir(ws) / tiers.T1_DIR
    if t1.is_dir() and entries.stays_inside(ws, t1):
        for path in sorted(p for p in t1.glob("*_stats.json") if entries.stays_inside(ws, p)):
            try:
                doc["tier1"].append({"file": path.name, "data": tiers.load_stats(path)})
            except Exception as exc:  # malformed: report and skip
                problems.append(f"{path.name}: {exc}")
    for path in tiers.t2_files(ws):
        try:
            text = read_text(path).text
            parsed = tiers.parse_t2(text, path)
        except Exception as exc:  # malformed: report and skip
            problems.append(f"{path.name}: {exc}")
            continue
        if any(e.plaintext for e in parsed):
            problems.append(f"{path.name}: plain-text T2 entry left out (seal it first: crypt.py encrypt --file)")
            continue
        doc["tier2"].append({"file": path.name, "text": text})
    archive_root = entries.memory_dir(ws) / tree.ARCHIVE
    for path in archive_files(ws):
        name = path.relative_to(archive_root).as_posix()
        try:
            text = read_text(path).text
            if _looks_t2(text) and any(e.plaintext for e in tiers.parse_t2(text, path)):
                problems.append(f"archive/{name}: plain-text T2 entry left out (seal it first: crypt.py encrypt --file)")
                continue
        except Exception as exc:  # unreadable or malformed: report and skip
            problems.append(f"archive/{name}: {exc}")
            continue
        doc["archive"].append({"file": name, "text": text})
    lessons_path = tree.Tree(Path(ws)).lessons_file()
    if lessons_path is not None:
        try:
            doc["lessons"] = [{"section": kind, "line": line} for kind, line in lesson_lines(read_text(lessons_path).text)]
        except Exception as exc:  # unreadable: report and skip
            problems.append(f"{lessons_path.name}: {exc}")
    return doc, problems


def _plain_text(doc: dict[str, Any]) -> str:
    """The plain-text part of an export (what the gate classifies; T2 stays ciphertext)."""
    parts = []
    for item in doc["daily"]:
        parts.append("\n".join([item["topic"], *item["cause"], *item["change"], *item["todo"]]))
    for item in doc["knowledge"]:
        parts.append(f"{item['key']}\n{item['body']}")
    for item in doc["tier1"]:
        parts.append(json.dumps(item["data"], ensure_ascii=False, allow_nan=False))
    for item in doc["archive"]:
        if not _looks_t2(item["text"]):  # archived T2 files stay ciphertext, as in tier2
            parts.append(item["text"])
    parts.extend(item["line"] for item in doc["lessons"])
    return "\n".join(parts)


def export_target(ws: Path, out: Path, overwrite: bool = False) -> Path:
    """Return the file ``export --out`` may write, or refuse (issue 11: never replace a user's file).

    Args:
        ws: the workspace root.
        out: the ``--out FILE`` the user named (relative to the current folder).
        overwrite: the user passed ``--overwrite``: an existing file elsewhere
            that is not an export of ours may be replaced.

    The export takes no backup of the file it writes, so, like ``report
    --html`` (:func:`memory_manager.report.target_path`), it never writes
    inside the workspace (the agent reads those files, and MEMORY.md holds the
    lessons); an existing file elsewhere is replaced only when it is an export
    of ours (a JSON document whose ``format`` is :data:`EXPORT_FORMAT`) or with
    ``overwrite``.

    Raises:
        BadInputError: ``out`` is a folder, lies inside the workspace, or
            exists and is not an export of ours (without ``overwrite``).
    """
    from .report import _under

    target = Path(out).expanduser()
    # The file name is written to disk: it passes the gate as a name (gate rule 0; atk13: a
    # token as --out's file name was written, where report --html refused the same name).
    from .names import refuse_private_path

    refuse_private_path("--out", target)
    target = target if target.is_absolute() else Path.cwd() / target
    if target.is_dir():
        raise BadInputError(f"--out {out}: is a folder; name a file")
    if _under(Path(ws), target):
        raise BadInputError(f"--out {out}: inside the workspace ({ws}); the export never writes into the "
                            "workspace (it takes no backup): name a file outside it")
    if not target.parent.is_dir():
        raise BadInputError(f"--out {out}: the folder {target.parent} does not exist; create it first or name "
                            "another file")
    if (target.exists() or target.is_symlink()) and not overwrite and not _is_export(target):
        raise BadInputError(f"--out {out}: the file exists and is not an export of ours; "
                            "name another file, or pass --overwrite to replace it")
    return target


def _is_export(path: Path) -> bool:
    """True when ``path`` is a regular file (not a link) holding a JSON ``cmm-export`` document."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        doc = _parse_json(read_regular(path))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and doc.get("format") == EXPORT_FORMAT


def export(ws: Path, cfg: dict[str, Any], *, out: Path | None = None, approved: bool = False,
           overwrite: bool = False) -> dict[str, Any]:
    """Export the memory store (needs approval; T2 stays encrypted).

    Args:
        out: file to write (atomically, mode 0600); None returns the document only.
            Checked by :func:`export_target` before anything else.
        overwrite: passed to :func:`export_target`.

    Returns ``{"document": {...}, "out": path or None, "counts": {...}, "problems": [...], "gate": {...}}``.

    Raises:
        BadInputError: ``out`` refused by :func:`export_target`.
        GateDecisionError: not approved, or the memory holds a secret / T3 item
            (run the privacy audit and remove it first).
    """
    if out is not None:
        out = export_target(ws, out, overwrite)
    doc, problems = collect(ws)
    decision = _gate(ws, "export", _plain_text(doc), source="explicit_user", sensitivity=None,
                     approved=approved, cfg=cfg, request="export memory")
    if out is not None:
        atomic_write(Path(out), (json.dumps(doc, ensure_ascii=False, indent=2, allow_nan=False) + "\n").encode("utf-8"), mode=0o600)
    counts = {k: len(doc[k]) for k in ("daily", "knowledge", "tier1", "tier2", "archive", "lessons")}
    return {"action": "export", "out": str(out) if out else None, "counts": counts, "problems": problems,
            "document": doc, "gate": decision.payload()}


def _load_export(path: Path, cfg: dict[str, Any]) -> dict[str, Any]:
    from .jsonio import loads

    # Over input.max_mb: exit 2 naming the limit, read no further (issue 11).
    # Too deep, NaN, Infinity: exit 2 naming the file.
    doc = loads(read_text_capped(path, cfg).text, str(path))
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise BadInputError(f"{path}: not a {EXPORT_FORMAT} document")
    version = doc.get("version")
    if not isinstance(version, int) or version > EXPORT_VERSION or version < 1:
        raise BadInputError(f"{path}: unsupported {EXPORT_FORMAT} version {version!r}")
    for key in ("daily", "knowledge", "tier1", "tier2", "archive", "lessons"):
        if not isinstance(doc.get(key, []), list):
            raise BadInputError(f"{path}: '{key}' must be a list")
    return doc


def _import_lessons(ws: Path, items: list[tuple[str, str]], decide: Any, backup: Any, counts: dict[str, int],
                    present: list[str], problems: list[str], done: list[dict[str, Any]] | None = None) -> None:
    """Put each imported lesson line first in its MEMORY.md section unless the file holds it already.

    Under the caller's workspace lock; ``decide`` gates each line; the file is
    saved through ``backup`` before its one atomic write. Each line written is
    appended to ``done`` as ``{"kind": "lesson", "item": "lesson <first 40 characters>"}``.
    """
    from .entries import lesson_id
    from .lessons import MARKER, insert_line

    path = tree.Tree(Path(ws)).lessons_file()
    like = read_text(path) if path is not None else None
    if like is None or MARKER not in like.text:
        problems.append(f"lessons: {len(items)} not imported: MEMORY.md is not a lessons file here (run init.py)")
        return
    text = like.text
    held = set(text.split("\n"))
    name = tree.Tree(Path(ws)).rel(path)
    for section, line in reversed(items):  # each goes first in its section: the export's order comes back
        if line in held:
            present.append(f"lesson {line}")
            continue
        # MEMORY.md is loaded into every session: read strictly, as 'lesson' reads it (tatk9).
        # The record names the line by its id and its file (as ``memory.py lesson``'s does), so
        # forget finds it after a hand edit changed the id (atk13).
        if not decide(line, f"lesson {line[:40]}", strict=True, entry=lesson_id(name, line), file=name):
            continue
        text = insert_line(text, section, line)
        held.add(line)
        counts["lessons"] += 1
        if done is not None:
            done.append({"kind": "lesson", "item": f"lesson {line[:40]}"})
    if text != like.text:
        data = like.encode(text)
        backup.opened().save_change(path, data)  # lessons inserted: no copy of MEMORY.md (backup format v4)
        atomic_write(path, data)


def _clean_topic(raw: str, fallback: str) -> str:
    text = " ".join(re.sub(r"[\x00-\x1f<>:\"|?*/\\→]+", " ", raw).replace("..", " ").split()).strip(" .-")
    while len(text.encode("utf-8")) > 100:
        text = text[:-1]
    try:
        return validate_topic(text)
    except InvalidNameError:
        return fallback


def _archive_sections(text: str) -> list[str]:
    """The daily sections of an archive file read whole, when that finds a value no line holds alone."""
    if _looks_t2(text):
        return []
    return [block for section in entries.parse_daily(text)
            for block in gate.section_block([line for _, line in section.items] + list(section.other))]


def _sections_joined(ws: Path, daily_items: list[tuple]) -> list[str]:
    """Each daily section an import writes, read whole (the lines there now, then every item's), when that
    finds a value no line holds (:func:`memory_manager.gate.section_block`): the texts whose findings
    ``--allow`` may name."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for day, topic, items, _, other, _, _ in daily_items:
        lines = grouped.setdefault((day, topic), section_lines(ws, day, topic))
        lines += [line for _, line in items] + list(other)
    return [text for lines in grouped.values() for text in gate.section_block(lines)]


#: A YAML comment: '#' at the start of a line or after white space, to the end of the line.
_COMMENT = re.compile(r"(?:^|\s)#(.*)$")


def _t2_gate_text(name: str, text: str, cfg: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """Return everything of an imported T2 file the gate must see, and its names (issue 10: side doors).

    The second item maps labels to the values that stay plain text beside
    the sealed body (file name, skill, topic, every frontmatter value, and the
    frontmatter as written: comments and any text no field holds): the
    gate's names (rule 0).

    The file name, the frontmatter as written, the body around the
    ciphertext (headings, notes: stored as written), each entry's skill and topic,
    and its *plain text*: an xor-b64 "ciphertext" is decodable by anyone and
    an aes-gcm one is decrypted with the T2 key, so a secret cannot ride in
    as ciphertext. Base64 that decodes to text is added as well (a
    "ciphertext" that is only encoded). The name must be the one the store
    gives that entry (the skill and topic are validated like the store's).

    Raises:
        BadInputError: plain text, a name that does not match, a bad skill or
            topic, or an entry that cannot be decrypted here (it could not
            be checked).
        MalformedFileError: the file cannot be parsed.
    """
    import base64
    import binascii

    from .errors import CryptoError, KeyUnavailableError
    from .names import validate_skill

    parsed = tiers.parse_t2(text, Path(name))
    if not parsed:
        raise BadInputError("no T2 entry in it")
    if any(e.plaintext for e in parsed):
        raise BadInputError("plain-text T2 entry (refused: T2 is imported encrypted only)")
    split = entries.split_frontmatter(text, name)
    parts = [name, split.raw]
    # Whatever the file holds beside its ciphertext is written as plain text too
    # (a heading, a note, a second section): the gate reads it (helper-85: a token
    # in an extra '## Notes' section rode in unchecked). Only the quote lines that
    # make up an entry's ciphertext are left out (they are read decrypted below).
    sealed = "".join(e.ciphertext for e in parsed)
    quoted = [line for line in split.body.split("\n")
              if line.startswith(">") and line[1:].strip() and line[1:].strip() in sealed]
    parts.append("\n".join(line for line in split.body.split("\n") if line not in quoted))
    # Those quote lines are on disk as written: they must not spell a value (tatk9), each line
    # as it stands (a value at a line's start) and each entry's lines joined (below).
    in_clear = privacy.ciphertext_in_clear("\n".join(line[1:] for line in quoted))
    if in_clear:
        raise BadInputError(f"its ciphertext as written reads as {', '.join(in_clear)} in clear (a ciphertext "
                            "of ours is random Base64): refused, whatever the flags")
    # The frontmatter stays plain beside the sealed body, so all of it is a name (gate rule 0),
    # not only the values YAML parses out of it: a comment (``topic: prefs  # landlord <phone>``)
    # or any other text no field holds was read as content, held, and stored on --allow (tatk9).
    # A comment is read by itself too, without its '#' (a number after '# ' reads as an issue
    # number, not a phone); a '#' inside a quoted value only adds that value's tail, a name already.
    comments = [m.group(1).strip() for line in split.raw.split("\n") for m in [_COMMENT.search(line)] if m]
    names: dict[str, str] = {"file name": name, "frontmatter as written": split.raw,
                             **({"frontmatter comments": "\n".join(comments)} if comments else {})}
    for entry in parsed:
        validate_skill(entry.skill)
        validate_topic(entry.topic)
        expected = (tiers.multi_path(Path("."), entry.skill, entry.month) if entry.index is not None
                    else tiers.t2_path(Path("."), entry.skill, entry.topic)).name
        if expected != name:
            raise BadInputError(f"file name does not match its entry (the store names it {expected})")
        in_clear = privacy.ciphertext_in_clear(entry.ciphertext)
        if in_clear:
            raise BadInputError(f"entry {entry.id}: its ciphertext as written reads as {', '.join(in_clear)} in "
                                "clear (a ciphertext of ours is random Base64): refused, whatever the flags")
        try:
            plain = tiers.decrypt_entry(entry, cfg)
        except KeyUnavailableError:
            raise BadInputError("aes-gcm entry and no T2 key here: it cannot be checked, so it is not imported") from None
        except CryptoError as exc:
            raise BadInputError(f"entry {entry.id} does not decrypt here ({exc}): it cannot be checked") from None
        if entry.scheme == "xor-b64" and not crypto.plausible(plain):
            # Anyone can decode xor-b64 (the key is the skill and month): what it decodes to is
            # what the entry says. Control characters are no text a user wrote; a "ciphertext"
            # built to spell something decodes to such noise (tatk9), so it is not an entry of ours.
            raise BadInputError(f"entry {entry.id}: decodes under the xor-b64 key of its skill and month to "
                                "control characters, not text (not an entry this store wrote): refused")
        meta = json.loads(json.dumps(entry.meta, ensure_ascii=False, default=str, allow_nan=False))
        fields = {"skill": entry.skill, "topic": entry.topic, **_field_text(meta, "frontmatter")}
        names.update({f"{label} of {entry.id}": value for label, value in fields.items()})
        parts += [*fields.values(), plain]
        raw = entry.ciphertext.rsplit(":", 1)[-1]  # aes-gcm text carries a prefix before its Base64
        try:
            decoded = base64.b64decode(raw, validate=True).decode("utf-8")
            parts.append(decoded)
        except (binascii.Error, ValueError, UnicodeDecodeError):
            pass
    return "\n".join(parts), names


def _import_knowledge_id(ws: Path, key: str, raw: str | None) -> str:
    """The id knowledge entry ``key`` will have after the import: the file's when it exists, else the raw text's."""
    path = entries.memory_dir(ws) / entries.KNOWLEDGE_DIR / f"{key}.md"
    if raw is not None and not path.exists():
        try:
            found = entries.parse_knowledge(raw, path).id
        except MemoryManagerError:
            found = None
        if found:
            return found
    return _knowledge_ident(path, key, ws)


_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BARE_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _heading_topic(raw: str) -> str:
    """A note heading as a daily-section topic ('' when it cannot be one): one line, no '→', at most 100 bytes."""
    text = " ".join(re.sub(r"[\x00-\x1f→]+", " ", raw).split())
    while len(text.encode("utf-8")) > 100:
        text = text[:-1].rstrip()
    try:
        return validate_heading_topic(text)
    except InvalidNameError:
        return ""


def _item_line(line: str) -> str:
    return re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", line).strip()


def openclaw_notes(ws: Path, problems: list[str] | None = None, cfg: dict[str, Any] | None = None
                   ) -> list[tuple[Path, str, str, list[str], list[str]]]:
    """Return OpenClaw's own notes as daily sections ``(path, date, topic, lines, blocks)`` (read only).

    One section per heading of the note (``##`` and deeper, and a ``#``
    that has lines under it): its topic is the heading, prefixed with the
    file name's slug when there is one (``2026-01-16-vendor-pitch.md``,
    ``## Decisions`` -> ``vendor pitch: Decisions``), and its lines are the
    non-empty lines under it with list markers removed. A heading is never a
    line. The lines before the first ``##`` (under the title, or with no
    heading at all) form a lead section named by the slug, else the title
    (when it is more than a bare date), else ``OpenClaw note``; a title that
    is not the topic and not a bare date is kept as its first line. Sections
    without lines are left out. (Walk-through r3, item 23; before, a note was
    one section and its headings became lines.) ``blocks`` are the note's
    runs of two or more non-empty lines (no blank line between), joined by
    line breaks, given with every section of the note: what the gate judges
    whole before the lines (a key pasted over several lines). With ``cfg``
    (``import``) each note is read only up to ``input.max_mb``.

    Raises:
        InputTooLargeError: (with ``cfg``) a note over the input limit.
    """
    root = entries.memory_dir(ws)
    out = []
    if not root.is_dir():
        return out
    # A note that is a symlink leading out of the workspace is never read (issue 10).
    for path in sorted(p for p in root.iterdir() if p.is_file() and OPENCLAW_NOTE.match(p.name)
                       and entries.stays_inside(ws, p)):
        day, slug = OPENCLAW_NOTE.match(path.name).groups()
        try:
            # import caps what it reads (input.max_mb: a note over it stops the import, exit 2);
            # recall and status read any size.
            text = (read_text(path) if cfg is None else read_text_capped(path, cfg, tree.rel(path.name))).text
        except InputTooLargeError:
            raise
        except UnreadableFileError as exc:  # binary or not UTF-8: name it, import the others
            if problems is None:
                raise
            problems.append(f"{exc} (note not imported)")
            continue
        cleaned = [re.sub(r"^\s*(?:[-*+]|\d+[.)]|#+)\s*", "", line).strip() for line in text.split("\n")]
        blocks = ["\n".join(cleaned[n] for n in block) for block in _blocks(cleaned) if len(block) > 1]
        slug_topic = _clean_topic(slug.strip("-_ ").replace("-", " "), "")
        sections: list[tuple[str, list[str]]] = []
        title = ""
        lead: list[str] = []
        current: list[str] | None = None
        for raw in text.split("\n"):
            heading = _HEADING.match(raw)
            if heading and heading.group(1) == "#" and current is None and not title and not lead:
                title = _heading_topic(heading.group(2))
                continue
            if heading:
                topic = _heading_topic(heading.group(2))
                if topic:
                    current = []
                    sections.append((f"{slug_topic}: {topic}" if slug_topic else topic, current))
                    continue
            line = _item_line(raw)
            if not line:
                continue
            target = lead if current is None else current
            if line not in target:
                target.append(line)
        lead_topic = slug_topic or (title if title and not _BARE_DATE.match(title) else "") or "OpenClaw note"
        if title and title != lead_topic and not _BARE_DATE.match(title) and lead:
            lead.insert(0, title)
        found = ([(lead_topic, lead)] if lead else []) + [(t, lines) for t, lines in sections if lines]
        if not found and title and not _BARE_DATE.match(title):
            found = [(lead_topic, [title])] if title != lead_topic else []
        for topic, lines in found:
            out.append((path, day, topic, lines, blocks))
    return out



def _check_daily_types(item: Any) -> None:
    """Refuse a daily item (of an export) whose fields have the wrong JSON type, naming the field.

    ``date`` and ``topic`` are strings, ``cause`` / ``change`` / ``todo`` / ``other``
    lists of strings (absent or null: none), ``pinned`` a boolean. Anything else was
    written as its characters or a Python repr (fatk9: ``"change": "str"`` became three
    lines s, t, r; ``[1, null]`` a line ``None``; a topic ``["x"]`` the heading ``['x']``).

    Raises:
        BadInputError: naming the field and the type found. KeyError: ``date`` or ``topic`` missing.
    """
    if not isinstance(item, dict):
        raise BadInputError(f"a daily item must be an object, not {type(item).__name__}")
    for name in ("date", "topic"):
        if not isinstance(item[name], str):
            raise BadInputError(f"'{name}' must be a string, not {_json_type(item[name])} (section not imported)")
    for name in ("cause", "change", "todo", "other"):
        value = item.get(name)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(line, str) for line in value):
            raise BadInputError(f"'{name}' must be a list of strings, not {_json_type(value)} "
                                "(section not imported)")
    if not isinstance(item.get("pinned", False), bool):
        raise BadInputError(f"'pinned' must be true or false, not {_json_type(item['pinned'])} (section not imported)")


def _check_knowledge_types(item: Any) -> None:
    """Refuse a knowledge item (of an export) whose fields have the wrong JSON type, naming the field.

    ``key`` and ``body`` are strings (``body`` is required: an item without one was
    imported as an empty entry, atk11), ``tags`` a list of strings, ``pinned`` a
    boolean, ``frontmatter_text`` a string (absent or null: none).

    Raises:
        BadInputError: naming the field and the type found. KeyError: ``key`` missing.
    """
    if not isinstance(item, dict):
        raise BadInputError(f"a knowledge item must be an object, not {_json_type(item)}")
    if not isinstance(item["key"], str):
        raise BadInputError(f"'key' must be a string, not {_json_type(item['key'])} (entry not imported)")
    if "body" not in item:
        raise BadInputError("a knowledge item needs its text in 'body' (entry not imported)")
    if not isinstance(item["body"], str):
        raise BadInputError(f"'body' must be a string, not {_json_type(item['body'])} (entry not imported)")
    tags = item.get("tags")
    if tags is not None and (not isinstance(tags, list) or not all(isinstance(t, str) for t in tags)):
        raise BadInputError(f"'tags' must be a list of strings, not {_json_type(tags)} (entry not imported)")
    if not isinstance(item.get("pinned", False), bool):
        raise BadInputError(f"'pinned' must be true or false, not {_json_type(item['pinned'])} (entry not imported)")
    fm = item.get("frontmatter_text")
    if fm is not None and not isinstance(fm, str):
        raise BadInputError(f"'frontmatter_text' must be a string, not {_json_type(fm)} (entry not imported)")


def _json_type(value: Any) -> str:
    """The JSON name of ``value``'s type, with what a list holds (``list holding null``)."""
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string", dict: "an object",
             type(None): "null"}
    if isinstance(value, list):
        inner = sorted({names.get(type(v), "a list") for v in value if not isinstance(v, str)})
        return "a list holding " + " and ".join(inner) if inner else "a list"
    return names.get(type(value), type(value).__name__)

def _field_text(value: Any, label: str = "") -> dict[str, str]:
    """Return ``{label: text}`` for every key and string/number value of a JSON value, walked.

    The gate reads each value as plain text: a JSON dump would escape the
    quotes and backslashes a rule keys on (``api_key = "..."`` became
    ``api_key = \\"...\\"`` and passed; issue 10).
    """
    out: dict[str, str] = {}
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{label}.{key}" if label else str(key)
            out[here + "(key)"] = str(key)
            out.update(_field_text(item, here))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            out.update(_field_text(item, f"{label}[{n}]"))
    elif isinstance(value, str) or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        out[label or "value"] = str(value)
    return out


def _blocks(note_lines: list[str]) -> list[list[int]]:
    """Group the indexes of an OpenClaw note's raw lines into blocks (runs of non-blank lines)."""
    blocks: list[list[int]] = [[]]
    for n, line in enumerate(note_lines):
        if line.strip():
            blocks[-1].append(n)
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def import_memory(ws: Path, cfg: dict[str, Any], *, source_file: Path | None = None, from_openclaw: bool = False,
                  approved: bool = False, allow: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """Import a ``cmm-export`` JSON file or OpenClaw's own daily notes.

    Re-importing is harmless: daily lines and knowledge paragraphs already
    present are not added again; T1/T2 files that exist are kept (and
    reported) unless identical.

    Approval is specific (issue 10): ``approved`` is the user's yes to the
    import itself, and stores what holds no finding. A possible finding or
    a sensitive topic in an item is held (the item is skipped and listed
    under ``held`` with the finding's id, category and confidence) until
    the user confirms that very finding: its id in ``allow`` (``--allow
    ID``, from :func:`memory_manager.gate.held_findings`). Certain findings
    are refused whatever is allowed, and so is any finding in a name (a
    knowledge key, a T1 or T2 file name, a T2 skill/topic/frontmatter, a
    T1 value: gate rule 0). A multi-line item (a daily line holding line
    breaks; a run of non-blank lines of an OpenClaw note) is judged as a
    block first: key material split over lines is refused as a whole, not
    stored line by line.

    An ``allow`` id must name a finding held in this very import (each id
    is bound to one value by the workspace's keyed hash): an id that names
    nothing here, or is not 12 hex digits, is refused before anything is
    written, and so is any ``allow`` when no secret outside the workspace can
    record the approval (:func:`memory_manager.keyed.require_secret`).

    Returns the import result (``cmm-import-result`` v2, ``references/formats.md``):
    ``{"format", "version", "action", "source", "complete": bool,
    "imported": [{"kind", "item", ...}], "refused": [{"item", "outcome", "categories", "reason"}],
    "counts": {...}, "already_present": [...], "skipped": [...], "held": [...], "problems": [...],
    "indexes": [...], "gate": {...}}``. ``imported`` lists each item written
    (``daily`` items add ``lines``); ``refused`` each item not written, with
    ``outcome`` ``refused`` (the gate, or a finding in a name), ``held`` (a
    possible finding awaiting ``--allow``), ``kept`` (a T1/T2/archive file
    that exists with other content) or ``invalid`` (malformed, a bad date),
    the finding categories (never a value) and the masked message.
    ``complete`` is true when nothing was refused: the CLI exits 1 otherwise
    (issue 11: exit 0 means the whole job was done). ``already_present``
    names what was there already, unchanged (``daily <date> <topic>``,
    ``knowledge <key>``, a T1/T2 path): importing the same export twice adds
    nothing the second time.

    Raises:
        BadInputError: neither or both sources, a malformed export file, or an
            ``allow`` id that is malformed or names no finding held in this import.
        ApprovalUnboundError: ``allow`` given, but no secret can record the approval.
        GateDecisionError: not approved.
    """
    if bool(source_file) == bool(from_openclaw):
        raise BadInputError("give an export FILE or --from-openclaw (one of them)")
    lang = entries.language(cfg)
    daily_items: list[tuple[str, str, list[tuple[str, str]], str, list[str], bool, list[str]]] = []
    knowledge_items: list[tuple[str, str, list[str], bool]] = []
    t1_items: list[tuple[str, dict[str, Any]]] = []
    t2_items: list[tuple[str, str, str, dict[str, str]]] = []
    raw_texts: dict[str, str] = {}
    #: (path under memory/archive/, text, gate text, gate names), and (section, line): export v3.
    archive_items: list[tuple[str, str, str, dict[str, str]]] = []
    lesson_items: list[tuple[str, str]] = []
    problems: list[str] = []
    #: where -> the note's name after the date (OpenClaw notes): it becomes the topic and the cause line.
    note_names: dict[str, str] = {}
    if from_openclaw:
        for path, day, topic, lines, blocks in openclaw_notes(ws, problems, cfg=cfg):
            if parse_day(day) is None:
                problems.append(f"{tree.rel(path.name)}: {day!r} is not a real date (note not imported)")
                continue
            cause = (f"从 OpenClaw 笔记导入：{tree.rel(path.name)}" if lang == "zh"
                     else f"Imported from OpenClaw note {tree.rel(path.name)}")
            daily_items.append((day, topic, entries.ordered_items([cause], lines, []), tree.rel(path.name), [], False,
                                blocks))
            note_names[tree.rel(path.name)] = OPENCLAW_NOTE.match(path.name).group(2)
        label = "OpenClaw notes"
    else:
        doc = _load_export(Path(source_file), cfg)
        # The file's name goes into the backup's reason (on disk): it passes the gate as a name
        # (gate rule 0; atk13), and only the name is kept there, not the folders above it.
        from .names import refuse_private_path

        refuse_private_path("import FILE", Path(source_file), existing=True)
        label = str(source_file)
        for n, item in enumerate(doc.get("daily", [])):
            try:
                _check_daily_types(item)
                day = str(item["date"])
                topic = validate_heading_topic(str(item["topic"]))
                items = entries.ordered_items(list(item.get("cause", [])), list(item.get("change", [])),
                                              list(item.get("todo", [])))
                other = [str(line) for line in item.get("other", []) or []]
                if any("\n" in line for line in other):
                    raise BadInputError("'other' lines must not hold a line break")
            except (KeyError, TypeError, InvalidNameError, BadInputError) as exc:
                problems.append(f"daily[{n}]: {exc}")
                continue
            # An impossible date (2026-13-45) would name a daily note that every date
            # reader must then skip: refuse that section (reported), import the rest.
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day) or parse_day(day) is None:
                problems.append(f"daily[{n}]: {day!r} is not a real YYYY-MM-DD date (section not imported)")
                continue
            if not items and not other:
                problems.append(f"daily[{n}]: no lines")
                continue
            # A line given with line breaks in it is one block for the gate (a pasted key).
            blocks = [str(t).strip() for key in ("cause", "change", "todo")
                      for t in item.get(key, []) if "\n" in str(t).strip()]
            daily_items.append((day, topic, items, f"daily[{n}]", other, bool(item.get("pinned", False)), blocks))
        for n, item in enumerate(doc.get("knowledge", [])):
            try:
                _check_knowledge_types(item)
                key = validate_key(str(item["key"]))
                raw_fm = item.get("frontmatter_text")
                if isinstance(raw_fm, str) and raw_fm.strip():
                    # Keep the user's own frontmatter byte for byte when the entry is new,
                    # provided it parses as a knowledge entry for this key.
                    text = entries.join_frontmatter(raw_fm, "\n" + str(item.get("body", "")).strip("\n") + "\n")
                    if entries.parse_knowledge(text, Path(f"{key}.md")).key != key:
                        raise BadInputError("frontmatter key differs from the entry key")
                    raw_texts[key] = text
                knowledge_items.append((key, str(item.get("body", "")),
                                        _tags(item.get("tags") or []), bool(item.get("pinned", False))))
            except (KeyError, TypeError, AttributeError, InvalidNameError, BadInputError, MalformedFileError) as exc:
                problems.append(f"knowledge[{n}]: {exc}")
        for n, item in enumerate(doc.get("tier1", [])):
            try:
                name = validate_name(str(item["file"]), "file")
                if not name.endswith("_stats.json") or not isinstance(item["data"], dict):
                    raise BadInputError("not a <skill>_stats.json document")
                t1_items.append((name, tiers.validate_stats(item["data"], name)))
            except (KeyError, TypeError, InvalidNameError, BadInputError) as exc:
                problems.append(f"tier1[{n}]: {exc}")
        for n, item in enumerate(doc.get("tier2", [])):
            try:
                name = validate_name(str(item["file"]), "file")
                text = str(item["text"])
                if not name.endswith(".md"):
                    raise BadInputError("not a .md file")
                t2_items.append((name, text, *_t2_gate_text(name, text, cfg)))
            except (KeyError, TypeError, InvalidNameError, BadInputError, MalformedFileError) as exc:
                problems.append(f"tier2[{n}]: {exc}")
        for n, item in enumerate(doc.get("archive", [])):
            try:
                name, text = str(item["file"]), str(item["text"])
                if not _ARCHIVE_FILE.match(name):
                    raise BadInputError(f"{name!r} is not <YYYY-MM>/<file>.md or .json")
                validate_name(name.split("/")[1], "file")
                if _looks_t2(text):  # still sealed, as in tier2: its plain text is what the gate sees
                    gate_text, names = _t2_gate_text(name.split("/")[1], text, cfg)
                else:
                    gate_text, names = text, {}
                archive_items.append((name, text, gate_text, {"file name": name, **names}))
            except (KeyError, TypeError, InvalidNameError, BadInputError, MalformedFileError) as exc:
                problems.append(f"archive[{n}]: {exc}")
        from .lessons import SECTIONS

        for n, item in enumerate(doc.get("lessons", [])):
            try:
                section, line = str(item["section"]), str(item["line"]).rstrip()
                if section not in SECTIONS:
                    raise BadInputError(f"section must be one of {', '.join(SECTIONS)}")
                if "\n" in line or not _LESSON_LINE.match(line):
                    raise BadInputError("a lesson is one bullet line ('- [YYYY-MM-DD] text')")
                lesson_items.append((section, line))
            except (KeyError, TypeError, BadInputError) as exc:
                problems.append(f"lessons[{n}]: {exc}")
    # T1 is public: its file name and every key and value in it are names
    # (gate rule 0), each read as plain text, not as JSON.
    t1_rows = [(name, payload, f"{name}\n{name.removesuffix('_stats.json')}\n" + "\n".join(_field_text(payload).values()),
                {"file name": name, "skill": name.removesuffix("_stats.json"), **_field_text(payload)})
               for name, payload in t1_items]
    # An import writes T2 entries as sealed by the export's key, and seals the backup copies of
    # what it replaces: with a key this store did not accept (another machine's, through
    # MEMORY_MANAGER_KEY, which also opened that machine's export above) it would split the
    # store, so it is refused before the gate logs anything (attack round 11; tiers.sealing_key).
    tiers.sealing_key(ws, cfg, "nothing was imported")
    allowed = {str(a).strip().lower() for a in allow if str(a).strip()}
    if allowed:
        # An approval is bound to what it approves (issue 10): each id to a value
        # held in this import, and the approval record to a secret outside the workspace.
        _check_allow(ws, cfg, allowed, [
            *(text for _, topic, items, _, other, _, blocks in daily_items
              for text in (topic, *(line for _, line in items), *other, *blocks)),
            *_sections_joined(ws, daily_items),
            *(f"{key}\n{raw_texts.get(key, '')}\n{body}\n{_tag_text(tags)}" for key, body, tags, _ in knowledge_items),
            *(row[2] for row in t1_rows), *(item[2] for item in t2_items), *(item[2] for item in archive_items),
            *(block for item in archive_items for block in _archive_sections(item[1])),
        ], strict_texts=[line for _, line in lesson_items])
    # The overall decision is about the operation (import needs approval);
    # each item's content is classified below, one by one.
    overall = gate.evaluate("import", "", source="third_party", approved=approved, cfg=cfg,
                            request=f"import {label}")
    overall.summary = (f"{len(daily_items)} daily, {len(knowledge_items)} knowledge, {len(t1_items)} T1, "
                       f"{len(t2_items)} T2, {len(archive_items)} archive, {len(lesson_items)} lesson items")
    with workspace_lock(ws):
        gate.record(ws, overall)
    gate.require(overall)
    skipped: list[str] = []
    held: list[dict[str, str]] = []
    #: Each item written, and each item not written with why (the result's ``imported`` and ``refused``).
    done: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []

    def refuse(where: str, outcome: str, categories: Any, message: str) -> None:
        """Report one item not written: ``skipped`` (its message) and ``refused`` (with its categories)."""
        skipped.append(message)
        refused.append({"item": where, "outcome": outcome, "categories": sorted(set(categories)),
                        "reason": message})
    #: What was there already, unchanged (a second import of the same export changes nothing).
    present: list[str] = []
    counts = {"daily": 0, "daily_lines": 0, "knowledge": 0, "tier1": 0, "tier2": 0, "archive": 0, "lessons": 0}

    def decide(text: str, where: str, *, tier: str | None = None, names: dict[str, str] | None = None,
               block: bool = False, strict: bool = False, entry: str | None = None,
               file: str | None = None) -> bool:
        """Gate one item; True when it may be stored. Held and refused items are reported.

        ``entry``: the id of the entry the item lands in (its audit record
        names it, so ``forget`` blanks it, :func:`memory_manager.auditlog.refs_of`);
        ``file``: the file of a lesson line (:func:`memory_manager.auditlog.file_ref`).

        The import's approval covers what holds no finding; each possible
        finding or sensitive topic must be named by the user (``allow``),
        never approved wholesale by ``--approved`` (issue 10). A ``block``
        (several lines judged together) is refused, or held when its joined
        reading finds what no single line holds (a value split over lines);
        otherwise its lines are gated one by one, so a possible finding holds
        its own line.
        """
        if block:
            # Only what the joined reading finds is the block's own: a finding that one
            # line holds by itself holds that line below. A value split over lines (a
            # phone number cut by a wrap) exists only here: --approved does not cover it
            # (tatk8: an approved import stored a number split over two lines).
            own = {h["finding"] for piece in text.split("\n") if piece.strip()
                   for h in gate.held_findings(ws, piece)}
            waiting = [h for h in gate.held_findings(ws, text) if h["finding"] not in allowed | own]
        else:
            waiting = [h for h in gate.held_findings(ws, text, strict=strict) if h["finding"] not in allowed]
        decision = gate.evaluate("import", text, source="third_party", approved=approved and not waiting, cfg=cfg,
                                 tier=tier, request=f"import {where}", names=names, strict=strict)
        gate.record(ws, decision, entry=entry, where=file)
        if decision.allowed or (block and decision.decision != "refuse" and not waiting):
            return True
        if decision.decision != "refuse" and waiting:
            held.extend(dict(h, where=where) for h in waiting)
            named = ", ".join(f"{h['confidence']} {h['category']} {h['finding']}" for h in waiting)
            refuse(where, "held", [h["category"] for h in waiting],
                   f"{where}: held ({named}): the import's approval does not cover a finding; "
                   "if the user confirms each one, repeat with --allow ID for it")
        else:
            refuse(where, "refused", decision.categories,
                   f"{where}: {decision.decision} ({'; '.join(decision.reasons)})")
        return False

    with workspace_lock(ws):
        ensure_tree(ws)
        backup = LazyBackup(ws, f"import {label if from_openclaw else Path(source_file).name}", approved)  # every existing file is saved before it changes
        notes: dict[Path, tuple[Any, str]] = {}  # each note written once, with all its sections
        for day, topic, items, where, other, pinned, blocks in daily_items:
            # Each line is gated on its own (privacy issue 9): one refused line
            # does not take the benign lines of its section with it. A block of
            # lines (a line with breaks, a run of note lines) is judged whole
            # first: key material split over lines goes as a whole.
            # The topic is a name (the daily section's heading, the index's
            # topic): any finding in it is refused, --allow or not (gate rule 0).
            # An unconfirmed finding holds the section as before; a confirmed
            # one (--allow ID) is still refused in the topic.
            ident = section_id(ws, day, topic)
            if not decide(topic, where, entry=ident):
                continue
            in_name = gate.held_findings(ws, topic)
            if in_name:
                named = ", ".join(f"{h['category']} {h['finding']}" for h in in_name)
                refuse(where, "refused", [h["category"] for h in in_name],
                       f"{where}: refuse (a finding in a name is never stored, --allow or not: {named})")
                continue
            # The note's file name read as a name (separators as spaces: a number glued
            # by "-" or "_", ``mom-13812345678``, issue 10 round 4): it is the topic's
            # first part and is quoted in the cause line, so a finding there refuses it.
            slug_found = privacy.scan_name(note_names.get(where, ""))
            if slug_found:
                cats = ", ".join(sorted({f.category for f in slug_found}))
                refuse(where, "refused", [f.category for f in slug_found],
                       f"{where}: refuse ({cats} found in the note's name: a finding in a name is never "
                       "stored, --allow or not; rename the note)")
                continue
            refused_lines: set[str] = set()
            # The section as it will be written (the lines already there, an earlier item of
            # the same section, these lines) is read together too (tatk8, tatk9): a value
            # split between lines, items or imports is one value in the note.
            joined = gate.section_block([*section_lines(ws, day, topic, notes), *(line for _, line in items), *other])
            for b, text in enumerate([*blocks, *joined]):
                if not decide(text, f"{where} block {b + 1}", block=True, entry=ident):
                    refused_lines |= {piece.strip() for piece in text.split("\n") if piece.strip()}
            kept: list[tuple[str, str]] = []
            kept_other: list[str] = []
            lines = [(kind, line) for kind, line in items] + [(None, line) for line in other]
            for n, (kind, line) in enumerate(lines):
                if line.strip() in refused_lines or not decide(line, f"{where} line {n + 1}", entry=ident):
                    continue
                if kind is None:
                    kept_other.append(line)
                else:
                    kept.append((kind, line))
            if from_openclaw and len(kept) <= 1 and not kept_other:
                continue  # only the "imported from" cause line is left
            items, other = kept, kept_other
            if not items and not other:
                continue
            _, _, added, _ = _write_daily_locked(ws, cfg, day, topic, items, other, pinned, backup, pending=notes)
            counts["daily"] += 1 if added else 0
            counts["daily_lines"] += len(added)
            if added:
                done.append({"kind": "daily", "item": f"daily {day} {topic}", "lines": len(added)})
            if not added:
                present.append(f"daily {day} {topic}")
        flush_daily(ws, notes, backup)
        for key, body, tags, pinned in knowledge_items:
            # Every field that reaches disk passes the gate: key (the file name, a
            # name: gate rule 0), frontmatter, tags and body (issue 10, side doors).
            # Tags are read together too (privacy.joined_readings): a value split over two is judged whole.
            if not decide(f"{key}\n{raw_texts.get(key, '')}\n{body}\n{_tag_text(tags)}", f"knowledge {key}",
                          names={"key": key}, entry=_import_knowledge_id(ws, key, raw_texts.get(key))):
                continue
            try:
                path = safe_target(ws, entries.memory_dir(ws) / entries.KNOWLEDGE_DIR / f"{key}.md")
                if key in raw_texts and not path.exists():
                    backup.save(path)  # a created file: a restore removes it
                    atomic_write(path, raw_texts[key].encode("utf-8"))
                    changed = True
                else:
                    _, _, changed = _learn_locked(ws, cfg, key, body, tags, pinned, backup)
            except MalformedFileError as exc:
                problems.append(f"knowledge {key}: {exc}")
                continue
            counts["knowledge"] += 1 if changed else 0
            if changed:
                done.append({"kind": "knowledge", "item": f"knowledge {key}"})
            if not changed:
                present.append(f"knowledge {key}")
        for kind, folder, rows in (("tier1", tiers.T1_DIR, t1_rows), ("tier2", tiers.T2_DIR, t2_items)):
            for name, payload, gate_text, names in rows:
                data = (json.dumps(payload, ensure_ascii=False, indent=2, allow_nan=False) + "\n") if kind == "tier1" else payload
                # The file name, every frontmatter value and (T2) the decrypted
                # text pass the gate: nothing reaches disk unclassified.
                if not decide(gate_text, name, tier="internal" if kind == "tier2" else None, names=names):
                    continue
                path = safe_target(ws, entries.memory_dir(ws) / folder / name)
                if path.exists():
                    if read_regular(path) != data.encode("utf-8"):
                        refuse(rel(ws, path), "kept", [], f"{rel(ws, path)}: exists with other content (kept)")
                    else:
                        present.append(rel(ws, path))
                    continue
                backup.save(path)  # a created file: a restore removes it
                atomic_write(path, data.encode("utf-8"), mode=0o600 if kind == "tier2" else None)
                counts[kind] += 1
                done.append({"kind": kind, "item": rel(ws, path)})
        # Archived entries come back archived, each file as it was (a file that exists is kept).
        for name, text, gate_text, names in archive_items:
            if not decide(gate_text, f"archive {name}", tier="internal" if _looks_t2(text) else None, names=names):
                continue
            # An archived daily file's sections are read line under line, as a live note's (tatk9).
            if not all(decide(block, f"archive {name} block {b + 1}", block=True)
                       for b, block in enumerate(_archive_sections(text))):
                continue
            path = safe_target(ws, entries.memory_dir(ws) / tree.ARCHIVE / name)
            if path.exists():
                if read_regular(path) != text.encode("utf-8"):
                    refuse(rel(ws, path), "kept", [], f"{rel(ws, path)}: exists with other content (kept)")
                else:
                    present.append(rel(ws, path))
                continue
            if not path.parent.is_dir():
                backup.opened().save_new_dir(path.parent)
                path.parent.mkdir(mode=0o700)
            backup.opened().save(path)
            atomic_write(path, text.encode("utf-8"), mode=0o600)
            counts["archive"] += 1
            done.append({"kind": "archive", "item": rel(ws, path)})
        if lesson_items:
            _import_lessons(ws, lesson_items, decide, backup, counts, present, problems, done)
        indexes = entries.rebuild_indexes(ws, cfg)
    # A refused name (an OpenClaw note named after a token) is never echoed whole:
    # every message that names an item masks its secrets as recall does (issue 10).
    # A problem (a malformed item, an impossible date) is an item not imported too.
    refused += [{"item": m.split(": ", 1)[0], "outcome": "invalid", "categories": [], "reason": m}
                for m in problems]
    skipped = [privacy.mask_name(m) for m in skipped]
    problems = [privacy.mask_name(m) for m in problems]
    held = [dict(h, where=privacy.mask_name(h["where"])) if "where" in h else h for h in held]
    present = [privacy.mask_name(m) for m in present]
    done = [dict(d, item=privacy.mask_name(d["item"])) for d in done]
    refused = [dict(r, item=privacy.mask_name(r["item"]), reason=privacy.mask_name(r["reason"])) for r in refused]
    return {**IMPORT_RESULT_FORMAT, "action": "import", "source": label, "complete": not refused,
            "imported": done, "refused": refused, "counts": counts, "already_present": present,
            "skipped": skipped, "held": held, "problems": problems,
            "indexes": [rel(ws, p) for p in indexes], "gate": overall.payload()}


def _tag_text(tags: list[str]) -> str:
    """A knowledge entry's tags as the gate reads them: joined, and read together
    (``privacy.joined_readings``: a value split over two tags is judged whole)."""
    return "\n".join([" ".join(tags), *privacy.joined_readings(tags)])


_FINDING_ID = re.compile(r"^[0-9a-f]{12}$")


def _check_allow(ws: Path, cfg: dict[str, Any], allowed: set[str], texts: list[str],
                 strict_texts: list[str] = ()) -> None:
    """Refuse ``--allow`` ids that cannot be bound to what they approve, before anything is written.

    Args:
        ws: the workspace root.
        cfg: its config (the T2 key file).
        allowed: the ids given (lower case).
        texts: every text the import gates item by item.
        strict_texts: those it gates strictly (lessons: loaded into every session).

    Raises:
        BadInputError: an id that is not 12 hex digits, or that names no
            finding held in ``texts`` (:func:`memory_manager.gate.held_findings`:
            a hash of one value and this workspace, keyed outside it, so an id
            from another workspace, another file or a typo approves nothing here).
        ApprovalUnboundError: no secret outside the workspace can record the
            approval (:func:`memory_manager.keyed.require_secret`, issue 10):
            the finding would be stored with no approval on record.
    """
    from . import keyed

    bad = sorted(a for a in allowed if not _FINDING_ID.match(a))
    if bad:
        raise BadInputError(f"--allow takes a finding id (12 hex digits, from the held list), not {bad[0]!r}; "
                            "nothing was imported")
    # The secret first: the ids are keyed with it (gate.finding_id), so without one no id can match.
    keyed.require_secret(ws, cfg)
    known = {h["finding"] for text in texts for h in gate.held_findings(ws, text)}
    known |= {h["finding"] for text in strict_texts for h in gate.held_findings(ws, text, strict=True)}
    unbound = sorted(allowed - known)
    if unbound:
        raise BadInputError(f"--allow {', '.join(unbound)}: no finding held in this import has that id (an id "
                            "names one value in this workspace: take it from this import's held list); "
                            "nothing was imported")
