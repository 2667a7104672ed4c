"""High-level store operations, one per verb of ``scripts/memory.py``.

Every operation:

- validates names first (:mod:`memory_manager.names`): bad input changes nothing;
- passes the memory gate (:mod:`memory_manager.gate`) and appends the
  decision to the audit log; a decision other than ``proceed`` raises
  :class:`GateDecisionError` carrying it, before anything is written;
- writes under :func:`~memory_manager.fsio.workspace_lock`, atomically, and
  only inside ``<workspace>/memory/`` (symlinks that lead out are refused);
- backs up a file before a destructive change (forget, replacing a T2
  entry, import over an existing file) with :mod:`memory_manager.backups`.
  Appending a new line to a daily note or knowledge entry is not
  destructive and is not backed up (a backup per auto-write would flood
  ``.memory-backup/``).

Results are JSON-ready dicts; paths in them are relative to the workspace.
"""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from .regular import read_regular
from . import auditlog, backups, crypto, entries, erasure, gate, keyed, tiers, tree
from .clock import month_of, today
from .errors import (BadInputError, KeyUnavailableError, MalformedFileError, MemoryManagerError, NotFoundError,
                     UnreadableFileError)
from .fsio import atomic_write, atomic_write_text, make_dirs, read_text, remove, workspace_lock
from .names import validate_heading_topic, validate_key, validate_skill, validate_topic
from .privacy import joined_readings, normalise
from .workspace import ensure_inside

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
OPENCLAW_NOTE = re.compile(r"^(\d{4}-\d{2}-\d{2})(.*)\.md$")


def rel(ws: Path, path: Path) -> str:
    """Return ``path`` relative to ``ws`` (POSIX form)."""
    try:
        return Path(path).relative_to(ws).as_posix()
    except ValueError:
        return Path(path).as_posix()


def safe_target(ws: Path, path: Path) -> Path:
    """Return ``path`` if it (symlinks resolved) stays inside ``<ws>/memory``.

    Raises:
        WorkspaceError: the path or a symlink on the way leads elsewhere.
    """
    ensure_inside(Path(ws), path, "memory path")
    return ensure_inside(entries.memory_dir(ws), path, "memory path")


def ensure_tree(ws: Path) -> None:
    """Create the memory folders that are missing (the contracts' tree)."""
    root = entries.memory_dir(ws)
    for sub in entries.TREE:
        folder = root / sub
        safe_target(ws, folder)
        make_dirs(folder)


def parse_day(value: str | None) -> str:
    """Return ``value`` (``YYYY-MM-DD``) or today; raise BadInputError when malformed."""
    if value is None:
        return today().isoformat()
    if not _DAY.match(value):
        raise BadInputError(f"date must be YYYY-MM-DD, not {value!r}")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise BadInputError(f"{value!r} is not a real date") from None
    return value


def _gate(ws: Path, operation: str, text: str, *, source: str, sensitivity: str | None,
          approved: bool, cfg: dict[str, Any], tier: str | None = None,
          request: str | None = None, names: dict[str, str] | None = None,
          labels: dict[str, str] | None = None, strict: bool = False,
          fields: dict[str, str] | None = None, entry: str | None = None,
          where: str | None = None) -> gate.Decision:
    """Evaluate, record and require one gate decision (under the workspace lock).

    ``entry``: the stable id of the entry the write lands in or the read
    opens; the audit record names it by a keyed reference, so ``forget``
    blanks every record of the entry whatever text each one saw (atk11).
    ``where``: the file of an entry whose id follows its text (a lesson line:
    :func:`memory_manager.auditlog.file_ref`).
    """
    decision = gate.evaluate(operation, text, source=source, sensitivity=sensitivity, approved=approved,
                             cfg=cfg, tier=tier, request=request, names=names, labels=labels, strict=strict,
                             fields=fields)
    if decision.allowed and decision.approved_findings:
        # The approval record needs a secret outside the workspace: an approval
        # that cannot be recorded is refused now, not lost later (round 5).
        keyed.require_secret(ws, cfg)
    with workspace_lock(ws):
        gate.record(ws, decision, entry=entry, where=where)
    return gate.require(decision)


# ------------------------------------------------------------------ backups

class LazyBackup:
    """One backup for a command that may change or create several files, opened at the first.

    ``save(path)`` copies an existing file (``backups.Backup.save``) before the
    caller changes it, and records a path that does not exist yet as created
    (an "absent" entry, backup format v3), so ``init --restore`` removes it
    again (issue 11: a command that only creates files is undone too). No
    backup folder is made when the command writes nothing. The caller holds
    the workspace lock, so a kill part-way is rolled back.
    README ("Backups"): every writing command backs up each file before changing it.
    """

    def __init__(self, ws: Path, reason: str, allow_withheld: bool = False) -> None:
        self.ws = Path(ws)
        self.reason = reason
        #: see :func:`memory_manager.backups.start`: True only for a change the user approved
        self.allow_withheld = allow_withheld
        self.backup: backups.Backup | None = None

    def opened(self) -> backups.Backup:
        """Return the command's backup, opening it now if needed. Raises BackupError."""
        if self.backup is None:
            self.backup = backups.start(self.ws, self.reason, allow_withheld=self.allow_withheld)
        return self.backup

    def save(self, path: Path) -> None:
        """Back ``path`` up, or record that it did not exist. Raises BackupError (nothing was changed)."""
        if self.backup is not None and self.backup.has(path):
            return
        self.opened().save(path)

    def save_change(self, path: Path, new: bytes) -> None:
        """Back ``path`` up before the caller replaces it with exactly ``new`` (bytes).

        A change that only inserts text keeps no copy (``Backup.save_change``:
        an ``insertions`` entry, backup format v4), so a keyless install can
        append to a note with a privacy finding and a 50 MB note is not
        scanned; any other change is saved as :meth:`save` does. A missing
        file is recorded as created. Raises BackupError (nothing was changed).
        """
        if not Path(path).exists() and not Path(path).is_symlink():
            self.save(path)
            return
        self.opened().save_change(path, new)


# ------------------------------------------------------------------ daily

def _check_target(path: Path) -> Path:
    """Refuse (before the gate records anything) a target that cannot be read as text.

    A binary or non-UTF-8 file in the user's memory is theirs: a write to it
    stops here with UnreadableFileError (exit 2) and leaves every byte. The
    locked step reads it again, so this only moves the refusal earlier.
    """
    if path.exists():
        read_text(path)
    return path


def _fold(name: str) -> str:
    """A file name as a case- and normalisation-insensitive file system sees it (APFS, NTFS: NFC, case folded),
    and as a reader sees it: through the detector's view (:func:`memory_manager.privacy.normalise`), so an
    invisible character (CGJ, a variation selector) or a look-alike letter (a Cyrillic ``е`` in ``dеploy``)
    does not make a second name that prints like the first (issue 10, attack round 6)."""
    return unicodedata.normalize("NFC", normalise(unicodedata.normalize("NFC", name))[0]).casefold()


def refuse_case_twin(path: Path, prefix: str | None = None) -> Path:
    """Refuse a name that differs from an existing file's name only in case, Unicode normalisation or look.

    Args:
        path: the file a command is about to create or change.
        prefix: also refuse when another file in the folder starts with a
            spelling of ``prefix`` that differs only in case (a T2 skill:
            ``Rel_`` against ``rel_crew.md`` and ``rel_2026-11.md``).

    macOS (APFS) and Windows file systems ignore case by default: ``learn Tea``
    after ``learn tea`` would open the other entry's file there, and a workspace
    with both files, synced to such a disk, loses one. The name-to-file mapping
    stays injective by refusing the second spelling (issue 10, round 4;
    ``references/formats.md``, "Names that differ only in case"). The same
    spelling again is the same entry and passes. A name that differs only in
    an invisible character or a look-alike letter (:func:`_fold`) prints like
    the other one and is refused the same way (issue 10, attack round 6).

    Raises:
        BadInputError: a case twin exists (exit 2, nothing changed).
    """
    folder = path.parent
    if not folder.is_dir():
        return path
    want = _fold(path.name)
    pre = _fold(prefix) if prefix else None
    for other in folder.iterdir():
        name = other.name
        if name == path.name:
            continue
        twin = _fold(name) == want
        if not twin and pre is not None and _fold(name).startswith(pre) and not name.startswith(prefix):
            twin = True
        if twin:
            raise BadInputError(f"{_mask(name)!r} already exists in {folder.name}/ with a name that differs only in "
                                "case or in characters that look alike: use that spelling (names that differ only "
                                "in case, invisible characters or look-alike letters are refused)")
    return path


def _write_daily_locked(ws: Path, cfg: dict[str, Any], day: str, topic: str,
                        items: list[tuple[str, str]], other: list[str] = (),
                        pinned: bool = False, backup: LazyBackup | None = None,
                        pending: dict[Path, tuple[Any, str]] | None = None
                        ) -> tuple[Path, str, list[tuple[str, str]], bool]:
    """Append/merge a section; the caller holds the lock and rebuilds indexes.

    ``other`` are lines that are not items (free text, fenced code: an import
    gives them back), added at the end of the section when not already there.
    An existing note is saved to ``backup`` (one per command) before it changes.
    ``pending``: when given (``{path: (TextFile or None, new text)}``), the note is
    not written; its new text is kept there, and read back by the next section of
    the same note, so that :func:`flush_daily` writes each note once (an import
    killed between two sections of one note left it neither old nor new: fatk6).
    """
    ensure_tree(ws)
    path = safe_target(ws, entries.memory_dir(ws) / entries.DAILY_DIR / f"{day}.md")
    if pending is not None and path in pending:
        like, old = pending[path]
    else:
        like = read_text(path) if path.exists() else None
        old = like.text if like else ""
    parsed = entries.parse_daily(old)
    existed = any(s.date == day and s.topic == topic for s in parsed)
    new_text, ident, added = entries.merge_daily_text(old, day, topic, items, entries.language(cfg),
                                                      list(other), pinned, parsed)
    if added and pending is not None:
        pending[path] = (like, new_text)
    elif added:
        flush_daily(ws, {path: (like, new_text)}, backup or LazyBackup(ws, f"write {day}"))
    return path, ident, added, existed


def section_id(ws: Path, day: str, topic: str) -> str:
    """The id of daily section ``day``/``topic``: the one in the note when it is there, else the one it will get.

    What a write's audit record names (:func:`_gate` ``entry``): a line merged
    into a section already there belongs to that section's id (an id comment
    copied along by hand may differ from :func:`entries.daily_id`).
    """
    path = entries.memory_dir(ws) / entries.DAILY_DIR / f"{day}.md"
    try:
        if path.is_file() and not path.is_symlink():
            for section in entries.parse_daily(read_text(path).text, path):
                if section.date == day and section.topic == topic and section.id:
                    return section.id
    except MemoryManagerError:
        pass
    return entries.daily_id(day, topic)


def _knowledge_ident(path: Path, key: str, ws: Path | None = None) -> str:
    """The id of knowledge entry ``key`` (its file's ``id`` when it exists and reads, else the id a new
    entry gets: :func:`new_knowledge_id` given the workspace ``ws``, :func:`entries.knowledge_id` without)."""
    try:
        if path.is_file() and not path.is_symlink():
            found = entries.read_knowledge(path)
            if found and found[0].id:
                return found[0].id
    except (MemoryManagerError, OSError):
        pass
    return new_knowledge_id(ws, key) if ws is not None else entries.knowledge_id(key)


def new_knowledge_id(ws: Path, key: str) -> str:
    """The id a new knowledge entry of ``key`` gets: :func:`entries.knowledge_id` of the key, unless an
    archived entry holds it (the key pruned, then learned again): then the key's next id no entry holds
    (``entries.knowledge_id(key, n)``, n = 2, 3, ...), so the archived entry and the new one never share
    an id, and forget or show of either never reaches the other (tatk19; references/formats.md "Ids").

    A live file renamed by hand keeps its id, and its old key learned again still takes the first id:
    that pair is refused by id (:func:`shared_id_error`, tatk18 6), each reached by its key or path.
    """
    from .unarchive import find_all_archived

    first = entries.knowledge_id(key)
    if not find_all_archived(ws, first):
        return first
    live = {e.id for e in entries.iter_knowledge(ws)}
    for n in range(2, 1000):
        ident = entries.knowledge_id(key, n)
        if ident not in live and not find_all_archived(ws, ident):
            return ident
    raise BadInputError(f"knowledge key {_mask(key)!r} has no free id left: forget its archived copies first")


def section_lines(ws: Path, day: str, topic: str, pending: dict[Path, tuple[Any, str]] | None = None) -> list[str]:
    """The lines (items, then other lines) the daily section ``day``/``topic`` holds now; [] when none.

    Args:
        ws: the workspace root; day: ``YYYY-MM-DD``; topic: the section's topic.
        pending: notes an import has merged but not written yet (:func:`_write_daily_locked`).

    Read so that lines written later under the same section are judged with
    these (:func:`memory_manager.gate.section_block`, tatk9). A note that cannot
    be read gives [] (the write that follows refuses it anyway).
    """
    path = entries.memory_dir(ws) / entries.DAILY_DIR / f"{day}.md"
    try:
        if pending is not None and path in pending:
            text = pending[path][1]
        elif path.is_file() and not path.is_symlink():
            text = read_text(path).text
        else:
            return []
    except MemoryManagerError:
        return []
    for section in entries.parse_daily(text):
        if section.date == day and section.topic == topic:
            return [line for _, line in section.items] + list(section.other)
    return []


def flush_daily(ws: Path, pending: dict[Path, tuple[Any, str]], backup: LazyBackup) -> None:
    """Write each note :func:`_write_daily_locked` kept in ``pending``, once, backed up first
    (in path order); the caller holds the lock. Raises FileWriteError or OSError as
    :func:`~memory_manager.fsio.atomic_write` does (notes written before it stay, and say so)."""
    for path in sorted(pending):
        like, new_text = pending[path]
        data = like.encode(new_text) if like is not None else new_text.encode("utf-8")
        # A new note is recorded as created; a section appended or merged into an
        # existing one keeps no copy of the note, only where the bytes went in (v4).
        backup.save_change(path, data)
        atomic_write(path, data)
    pending.clear()


def write_daily(ws: Path, cfg: dict[str, Any], *, topic: str, cause: list[str] = (), change: list[str] = (),
                todo: list[str] = (), day: str | None = None, source: str = "explicit_user",
                sensitivity: str | None = None, approved: bool = False) -> dict[str, Any]:
    """Write a daily note section (因/改/待) and update ``daily-index.md`` in one locked step.

    Args:
        topic: the section topic (validated, see :func:`validate_heading_topic`).
        cause/change/todo: lines (each may hold several lines separated by newlines).
        day: ``YYYY-MM-DD`` (default: today).

    Returns ``{"id", "path", "date", "topic", "added": n, "merged": bool, "indexes": [...], "gate": {...}}``.

    Raises:
        InvalidNameError, BadInputError, GateDecisionError, FileWriteError.
    """
    validate_heading_topic(topic)
    day = parse_day(day)
    items = entries.ordered_items(list(cause), list(change), list(todo))
    if not items:
        raise BadInputError("give at least one of --cause, --change, --todo")
    text = topic + "\n" + "\n".join(t for _, t in items)
    _check_target(safe_target(ws, entries.memory_dir(ws) / entries.DAILY_DIR / f"{day}.md"))
    with workspace_lock(ws):  # the gate's decision and the write: one locked step
        # Lines merged into a section already there are read with its lines: a value
        # split between two writes is one value in the note (tatk9).
        joined = gate.section_block([*section_lines(ws, day, topic), *(t for _, t in items)])
        if joined:
            text = topic + "\n" + joined[0]
        decision = _gate(ws, "store", text, source=source, sensitivity=sensitivity, approved=approved, cfg=cfg,
                         request=f"write daily note '{topic}'", labels={"topic": topic},
                         fields={"--topic": topic, "--cause": "\n".join(cause), "--change": "\n".join(change),
                                 "--todo": "\n".join(todo)}, entry=section_id(ws, day, topic))
        path, ident, added, existed = _write_daily_locked(ws, cfg, day, topic, items,
                                                          backup=LazyBackup(ws, f"write {day}", approved))
        changed = entries.rebuild_indexes(ws, cfg)
    return {"action": "write", "id": ident, "path": rel(ws, path), "date": day, "topic": topic,
            "added": len(added), "merged": existed,
            "indexes": [rel(ws, p) for p in changed], "gate": decision.payload()}


# -------------------------------------------------------------- knowledge

def _learn_locked(ws: Path, cfg: dict[str, Any], key: str, text: str, tags: list[str],
                  pinned: bool = False, backup: LazyBackup | None = None) -> tuple[Path, bool, bool]:
    """Create or extend a knowledge entry; return (path, created, changed). Caller holds the lock.

    An existing entry is saved to ``backup`` (one per command) before it changes.
    """
    ensure_tree(ws)
    path = safe_target(ws, entries.memory_dir(ws) / entries.KNOWLEDGE_DIR / f"{key}.md")
    day = today().isoformat()
    if not path.exists():
        (backup or LazyBackup(ws, f"learn {key}")).save(path)  # recorded as created: a restore removes it
        atomic_write_text(path, entries.render_knowledge(key, text, tags, day, entries.language(cfg), pinned,
                                                         new_knowledge_id(ws, key)))
        return path, True, True
    like = read_text(path)
    new_text = entries.update_knowledge_text(like.text, path, text, tags, day)
    if new_text is None:
        return path, False, False
    data = like.encode(new_text)
    # A paragraph appended (and tags merged) is an insertion: no copy of the entry (v4).
    (backup or LazyBackup(ws, f"learn {key}")).save_change(path, data)
    atomic_write(path, data)
    return path, False, True


def _tags(tags: list[str] | str | None) -> list[str]:
    if tags is None:
        return []
    if isinstance(tags, str):
        tags = tags.split(",")
    out = []
    for tag in tags:
        tag = tag.strip()
        if tag and tag not in out:
            if "\n" in tag or len(tag) > 64:
                raise BadInputError(f"tag {tag[:20]!r} must be one short line")
            out.append(tag)
    return out


def learn(ws: Path, cfg: dict[str, Any], *, key: str, text: str, tags: list[str] | str | None = None,
          source: str = "explicit_user", sensitivity: str | None = None, approved: bool = False,
          pinned: bool = False) -> dict[str, Any]:
    """Write knowledge entry ``memory/knowledge/<key>.md`` and sync ``knowledge-index.md``.

    An existing entry gets the new paragraph appended (when not already
    there) and new tags merged; its other frontmatter lines stay byte-identical.

    Raises:
        InvalidNameError, BadInputError, GateDecisionError, MalformedFileError
        (the existing file cannot be parsed: it is not rewritten).
    """
    validate_key(key)
    tag_list = _tags(tags)
    if not text.strip():
        raise BadInputError("--text must not be empty")
    _check_target(refuse_case_twin(safe_target(ws, entries.memory_dir(ws) / entries.KNOWLEDGE_DIR / f"{key}.md")))
    with workspace_lock(ws):  # the gate's decision and the write: one locked step
        # The key names the file: nothing private in it, whatever the flags (gate rule 0).
        # So do the tags (plain frontmatter), each alone and read together in order,
        # so a value pasted with a comma in it is judged whole (attack round 5).
        decision = _gate(ws, "store", f"{key}\n{text}\n{' '.join(tag_list)}", source=source,
                         sensitivity=sensitivity, approved=approved, cfg=cfg, request=f"learn '{key}'",
                         fields={"--text": text},
                         names={"key": key, **({"tags": "\n".join(tag_list + joined_readings(tag_list))}
                                               if tag_list else {})},
                         entry=_knowledge_ident(entries.memory_dir(ws) / entries.KNOWLEDGE_DIR / f"{key}.md", key, ws))
        path, created, changed = _learn_locked(ws, cfg, key, text, tag_list, pinned,
                                               LazyBackup(ws, f"learn {key}", approved))
        indexes = entries.rebuild_indexes(ws, cfg)
    return {"action": "learn", "id": _knowledge_ident(path, key, ws), "key": key, "path": rel(ws, path),
            "created": created, "changed": changed, "indexes": [rel(ws, p) for p in indexes],
            "gate": decision.payload()}


def edit(ws: Path, cfg: dict[str, Any], ref: str, *, text: str, approved: bool = False,
         source: str = "explicit_user", sensitivity: str | None = None) -> dict[str, Any]:
    """Replace a knowledge entry's text, keeping the old text as dated history in the entry.

    The gate treats it as an edit (approval needed in both modes, issue 13);
    the file is backed up first, then rewritten atomically under the lock:
    the body becomes ``text`` followed by the history block
    (:mod:`memory_manager.history`), and frontmatter ``updated`` becomes
    today; every other frontmatter line stays byte-identical.

    Args:
        ref: the entry's id (``k-…``), key or path.
        text: the new current text.

    Returns ``{"action": "edit", "id", "key", "path", "since", "updated", "versions", "backup", "gate"}``;
    when the entry already holds ``text``: ``{"action", "id", "key", "path", "unchanged": True,
    "backup": None}`` and nothing is written.

    Raises:
        NotFoundError, BadInputError (not a knowledge entry, empty text),
        GateDecisionError, MalformedFileError, FileWriteError.
    """
    from . import history

    if not text.strip():
        raise BadInputError("--text must not be empty")
    # An edit killed part-way is rolled back before it reads the entry (as forget and
    # init do): else the re-run finds its own new text and says there is nothing to edit.
    backups.repair(ws)
    target = resolve(ws, ref)
    if target.kind == "t2" and isinstance(target.item, tiers.T2Entry):
        # A T2 entry is edited where it lives, its history kept inside the encrypted entry.
        result = remember(ws, cfg, skill=target.item.skill, topic=target.item.topic, text=text,
                          source=source, sensitivity=sensitivity, approved=approved)
        return dict(result, action="edit")
    if target.kind != "knowledge":
        raise BadInputError(f"edit works on knowledge and T2 entries; {rel(ws, target.path)} is a {target.kind} entry")
    entry = target.item or entries.read_knowledge(target.path)[0]
    current, _ = history.split(entry.body)
    if current.strip() == text.strip():
        # A repeated edit (an agent's retry) finds nothing left to do and says so, exit 0, as a
        # repeated remember does; being no change it needs no approval (walk-through r4, item 8).
        return {"action": "edit", "id": entry.id, "key": entry.key, "path": rel(ws, target.path),
                "unchanged": True, "backup": None}
    decision = _gate(ws, "edit", f"{entry.key}\n{text}", source=source, sensitivity=sensitivity,
                     approved=approved, cfg=cfg, request=f"edit '{entry.key}'", fields={"--text": text},
                     entry=entry.id or entries.knowledge_id(entry.key or target.path.stem))
    day = today().isoformat()
    with workspace_lock(ws):
        like = read_text(target.path)
        fresh = entries.parse_knowledge(like.text, target.path)
        fm = entries.split_frontmatter(like.text, target.path.name)
        # The text being replaced has stood since the last edit (the newest version's end) or,
        # with no history, since the entry was created: ``learn`` only appends lines, so the
        # entry's ``updated`` day is when its newest line came, not when its text began
        # (walk-through r6, item 4: an original line dated from a later append).
        _, earlier = history.split(fm.body)
        since = (earlier[0].until if earlier else None) or str(
            entries.parse_day_text(fresh.created) or entries.parse_day_text(fresh.updated) or day)
        body = history.supersede(fm.body.strip("\n"), text, since, day)
        # Version 2: the body holds a history block (references/formats.md).
        fields: dict[str, Any] = {"version": entries.KNOWLEDGE_VERSION, "updated": date.fromisoformat(day)}
        if fm.has_frontmatter:
            new_text = entries.join_frontmatter(entries.set_frontmatter_fields(fm.raw, fields), "\n" + body)
        else:
            raw = "\n".join([f"format: {entries.KNOWLEDGE_FORMAT}", f"version: {entries.KNOWLEDGE_VERSION}",
                             f"id: {fresh.id}", f"key: {entries.yaml_scalar(fresh.key)}",
                             f"tags: {entries.yaml_scalar(fresh.tags)}", f"created: {since}", f"updated: {day}"])
            new_text = entries.join_frontmatter(raw, "\n" + body)
        backup = backups.start(ws, f"edit {ref}", allow_withheld=approved)
        backup.save(target.path)
        atomic_write_text(target.path, new_text, like)
        entries.rebuild_indexes(ws, cfg)
    _, versions = history.split(body)
    return {"action": "edit", "id": fresh.id, "key": fresh.key, "path": rel(ws, target.path), "since": since,
            "updated": day, "versions": len(versions) + 1, "backup": backup.id, "gate": decision.payload()}


EVENTS = ("skill_complete", "skill_error")


def record_event(ws: Path, cfg: dict[str, Any], *, event: str, skill: str, text: str,
                 source: str = "tool_output", sensitivity: str | None = None,
                 approved: bool = False) -> dict[str, Any]:
    """Record a skill event in the knowledge base (Memory Master: skill events -> knowledge).

    The entry is ``memory/knowledge/skill-<skill>.md`` (tags ``skill-event``
    and the event); each event adds a line ``- [YYYY-MM-DD] <event>: <text>``.
    """
    if event not in EVENTS:
        raise BadInputError(f"event must be one of {', '.join(EVENTS)}")
    validate_skill(skill)
    if not text.strip():
        raise BadInputError("--text must not be empty")
    line = f"- [{today().isoformat()}] {event}: {' '.join(text.split())}"
    result = learn(ws, cfg, key=validate_key(f"skill-{skill}"), text=line, tags=["skill-event", event],
                   source=source, sensitivity=sensitivity, approved=approved)
    result.update(action="event", event=event, skill=skill)
    return result


# --------------------------------------------------------------------- T1

def _stats_update(ws: Path, cfg: dict[str, Any], skill: str, text: str, apply: Any,
                  source: str, approved: bool, names: dict[str, str]) -> tuple[Path, dict[str, Any], gate.Decision]:
    # A malformed file, or a skill spelt like another but for case: refused before the gate.
    tiers.load_stats(refuse_case_twin(safe_target(ws, tiers.t1_path(ws, skill))))
    with workspace_lock(ws):  # the gate's decision and the write: one locked step
        # T1 is public: every value that names or fills the file is a name (gate rule 0).
        decision = _gate(ws, "store", text, source=source, sensitivity=None, approved=approved, cfg=cfg,
                         request=f"update statistics of '{skill}'", names=names, strict=True)
        ensure_tree(ws)
        path = safe_target(ws, tiers.t1_path(ws, skill))
        doc = tiers.load_stats(path)
        result = apply(doc)
        data = tiers.dump_stats(doc)
        if not path.exists() or read_regular(path) != data:
            # Saved (or recorded as created) first, like every other change.
            LazyBackup(ws, f"stats {skill}", approved).save(path)
            atomic_write(path, data)
    return path, result, decision


def stats_record(ws: Path, cfg: dict[str, Any], *, skill: str, ok: bool, source: str = "tool_output",
                 approved: bool = False) -> dict[str, Any]:
    """Count one call of ``skill`` (success or failure) in its T1 stats file.

    Raises:
        InvalidNameError, GateDecisionError, MalformedFileError (the file is left as it is).
    """
    validate_skill(skill)
    path, rec, decision = _stats_update(ws, cfg, skill, f"skill {skill} call",
                                        lambda doc: tiers.record_call(doc, skill, ok, today()), source, approved,
                                        {"skill": skill})
    return {"action": "stats record", "skill": skill, "path": rel(ws, path), "stats": rec,
            "gate": decision.payload()}


def stats_show(ws: Path, skill: str | None = None) -> dict[str, Any]:
    """Read the T1 statistics (``memory.py stats show``); changes nothing, passes no gate (T1 is public).

    Returns ``{"files": [{"path", "skill_stats", "patterns_observed"}], "problems": [...]}``,
    files sorted by name; a malformed file, or one that is not UTF-8 text, is named in
    ``problems`` and left out (README: read-only commands carry on past such a file).

    Raises:
        InvalidNameError: ``skill`` is not a valid skill name.
        NotFoundError: ``skill`` has no stats file.
    """
    if skill is not None:
        paths = [tiers.t1_path(ws, validate_skill(skill))]
        if not paths[0].is_file():
            raise NotFoundError(f"no T1 statistics for {skill} ({rel(ws, paths[0])})")
    else:
        folder = tree.Tree(ws).tier1
        paths = sorted(folder.glob("*_stats.json")) if folder.is_dir() else []
    files, problems = [], []
    for path in paths:
        try:
            doc = tiers.load_stats(path)
        except (MalformedFileError, UnreadableFileError, OSError, UnicodeDecodeError) as exc:
            said = str(exc)  # an UnreadableFileError names the file already
            problems.append(said if said.startswith(f"{rel(ws, path)}:") else f"{rel(ws, path)}: {said}")
            continue
        files.append({"path": rel(ws, path), "skill_stats": doc["skill_stats"],
                      "patterns_observed": doc["patterns_observed"]})
    return {"action": "stats show", "files": files, "problems": problems}


def stats_pattern(ws: Path, cfg: dict[str, Any], *, trigger: str, skills: list[str], owner: str | None = None,
                  source: str = "tool_output", approved: bool = False) -> dict[str, Any]:
    """Count one observation of ``trigger`` using ``skills``.

    Stored in ``<owner>_stats.json`` (default: the first skill's file).
    """
    skills = [validate_skill(s.strip()) for s in skills if s.strip()]
    if not skills:
        raise BadInputError("--skills needs at least one skill name")
    if not trigger.strip() or "\n" in trigger:
        raise BadInputError("--trigger must be one non-empty line")
    owner = validate_skill(owner or skills[0])
    # The owner names the file, the trigger and skills fill it: all pass the gate (issue 10).
    path, pattern, decision = _stats_update(ws, cfg, owner, f"{owner}\n{trigger}\n{' '.join(skills)}",
                                            lambda doc: tiers.record_pattern(doc, trigger, skills), source, approved,
                                            {"skill": owner, "trigger": trigger, "skills": " ".join(skills)})
    return {"action": "stats pattern", "path": rel(ws, path), "pattern": pattern, "gate": decision.payload()}


# --------------------------------------------------------------------- T2

def remember(ws: Path, cfg: dict[str, Any], *, skill: str, topic: str, text: str, scheme: str | None = None,
             source: str = "explicit_user", sensitivity: str | None = None,
             approved: bool = False) -> dict[str, Any]:
    """Write a T2 entry ``memory/tier2-internal/<skill>_<topic>.md`` (encrypted body, mode 0600).

    ``expires`` = created + ``tiers.t2_expiry_days`` (30, the Tiers seed).
    An entry with this skill and topic that exists already, in its own file
    or in a month file ``<skill>_<YYYY-MM>.md`` (cleanup's compaction), is
    edited where it lives: the gate holds the edit for approval (nothing is
    written without it; the same text again is no edit: it passes the gate as a
    store and returns ``unchanged`` with nothing written); with it, the file is backed up and that one entry
    replaced (in a month file, sealed with that file's key month, so the
    entry stays where it is). Exactly one entry carries the id afterwards.

    Raises:
        InvalidNameError, BadInputError, GateDecisionError, KeyUnavailableError;
        ApprovalUnboundError: ``approved`` but no secret outside the workspace
        can bind the approval (:func:`memory_manager.keyed.require_secret`).
    """
    validate_skill(skill)
    validate_topic(topic)
    if tiers.MONTH.match(topic):
        # Such a name is escaped (tiers.t2_name) and never meets a month file, but
        # a topic that reads like a month is still confusing: refused here.
        raise BadInputError(f"topic {topic!r} looks like a month: those names are kept for compacted T2 files")
    if not text.strip():
        raise BadInputError("--text must not be empty")
    ident = tiers.t2_id(skill, topic)
    path = safe_target(ws, tiers.t2_path(ws, skill, topic))
    # The key before the gate: a missing or malformed key must leave no trace,
    # not even a gate audit record for a write that cannot happen.
    if crypto.choose_scheme(cfg, scheme) == "aes-gcm":
        crypto.load_key(cfg)
    elif scheme in (None, "auto"):
        # 'auto' without a key means xor-b64, unless the key of existing aes-gcm entries is missing.
        tiers.require_key_for_sealed(ws, cfg)
    # A well-formed key that opens none of the aes-gcm entries here (another machine's) would
    # split the store: refused, whatever the scheme (attack round 10), before the gate logs anything.
    tiers.sealing_key(ws, cfg)

    def existing() -> tiers.T2Entry | None:
        found = [e for e in tiers.iter_t2_entries(ws) if e.id == ident and not e.error]
        # its own file first: a month file's copy is the older one (compaction moves, remember edits)
        return next((e for e in found if e.path == path), found[0] if found else None)

    _check_target(path)  # a binary or non-UTF-8 file there is refused, never replaced
    refuse_case_twin(path, prefix=tiers._enc_skill(skill) + "_")  # the skill's files (single and month)
    created = today()
    expiry = int(cfg["tiers"]["t2_expiry_days"])
    backup_id = None
    # One locked step from the gate to the write: whether this is a new entry
    # ("store") or an edit that needs approval cannot change in between.
    with workspace_lock(ws):
        old = existing()
        before = None
        if old is not None:
            try:
                before = tiers.decrypt_entry(old, cfg)
            except MemoryManagerError as exc:
                # Never replace an entry this write cannot read (attack round 10: an approved
                # entry was replaced without history under another key); refused before the
                # gate, so nothing is logged for a write that cannot happen.
                from .errors import WrongKeyError

                raise WrongKeyError(
                    f"T2 entry {ident} cannot be read with the key from {tiers.key_source(cfg)} ({exc}): it is not "
                    "replaced; put its key back (or forget it first to drop it); nothing was stored") from None
        from . import history

        # The same text again changes nothing (issue 11: a second run is a no-op): it
        # passes the gate as the store it repeats (secrets and T3 are still refused), not
        # as an edit that would send the agent to ask the user to approve nothing.
        same = before is not None and history.split(before)[0].strip() == text.strip()
        operation = "edit" if (old is not None or path.exists()) and not same else "store"
        # Skill and topic become the file name and frontmatter: they pass the gate with the text (issue 10).
        # The body is sealed; its skill and topic are not (file name, frontmatter): gate rule 0.
        gate_args = dict(source=source, sensitivity=sensitivity, approved=approved, cfg=cfg, tier="internal",
                         request=f"remember {skill}/{topic}", names={"skill": skill, "topic": topic},
                         fields={"--text": text})
        if same and old is not None and not approved:
            # The same text again stores nothing (the entry and its history stay byte for byte),
            # so there is nothing for the user to approve (README, "A second run changes
            # nothing"; walk-through r10, item 4): a finding that only asks for approval does
            # not stop the no-op. A refusal (a secret, T3) still refuses, as it would the store.
            decision = gate.evaluate(operation, f"{skill}\n{topic}\n{text}", **gate_args)
            if decision.decision in ("ask", "request_approval"):
                return {"action": "remember", "id": ident, "path": rel(ws, safe_target(ws, old.path)),
                        "scheme": old.scheme, "created": str(old.created or ""), "expires": str(old.expires or ""),
                        "replaced": False, "history": False, "unchanged": True, "backup": None,
                        "gate": None}  # no gate passed: nothing was stored (an approval is never implied)
        decision = _gate(ws, operation, f"{skill}\n{topic}\n{text}", entry=ident, **gate_args)
        if approved:
            keyed.require_secret(ws, cfg)  # the entry's approval mark needs it (cleanup keeps it by the mark)
        ensure_tree(ws)
        target = path if old is None or old.index is None else safe_target(ws, old.path)
        month = old.month if old is not None and old.index is not None and old.month else month_of(created)
        plain = text
        kept_history = False
        unchanged = False
        if old is not None:
            # The replaced text stays, dated, inside the same encrypted entry (issue 13):
            # show gives the current text only; show --history (approved) lists the rest.
            if before is not None and not same:
                since = old.created.isoformat() if isinstance(old.created, date) else str(old.created or "")[:10]
                plain = history.supersede(before, text, since or created.isoformat(), created.isoformat())
                kept_history = True
            elif before is not None:
                # The same text again: the entry (and its history) stays as it is. Re-sealing
                # it would drop the history and, with aes-gcm, change every byte (a second
                # run changes nothing, issue 11).
                unchanged = True
        sealed = tiers.seal(ws, cfg, plain, skill, month, scheme, topic=topic, entry_id=ident)
        if unchanged:
            return {"action": "remember", "id": ident, "path": rel(ws, target), "scheme": old.scheme or sealed.params["scheme"],
                    "created": str(old.created or ""), "expires": str(old.expires or ""),
                    "replaced": False, "history": False, "unchanged": True, "backup": None,
                    "gate": decision.payload()}
        replaced = target.exists()
        # A new file is recorded as created (backup format v3), so --restore removes it again.
        backup = backups.start(ws, "remember (replace)" if replaced else "remember", allow_withheld=approved)
        backup.save(target)
        backup_id = backup.id
        # The user's word is kept with the entry: cleanup never destroys it (issue 10),
        # bound to this entry and text by a keyed mark only this tool can write (round 4).
        seal = keyed.approval_mark(ws, cfg, ident, created.isoformat(), plain) if approved else None
        approval = {"approved": created.isoformat(), **({"approval": seal} if seal else {})} if approved else {}
        if target == path:
            content = tiers.render_t2(skill, topic, sealed, created, expiry, month, entries.language(cfg))
            if approved:
                content = tiers.mark_approved(content, created, seal)
        else:
            fresh = tiers.T2Entry(path=target, meta=approval, created=created,
                                  expires=created + timedelta(days=expiry),
                                  scheme=sealed.params.get("scheme"), skill=skill, topic=topic, id=ident,
                                  key_hint=f"{skill}-{month}", month=month, ciphertext=sealed.ciphertext,
                                  params=dict(sealed.params))
            siblings = tiers.parse_t2(read_text(target).text, target)
            content = tiers.render_multi(skill, month, [fresh if e.id == ident else e for e in siblings])
        atomic_write(target, content.encode("utf-8"), mode=0o600)
        path = target
    return {"action": "remember", "id": ident, "path": rel(ws, path),
            "scheme": sealed.params["scheme"], "created": created.isoformat(),
            "expires": (created + timedelta(days=int(cfg["tiers"]["t2_expiry_days"]))).isoformat(),
            "replaced": replaced, "history": kept_history,
            "backup": backup_id, "gate": decision.payload()}


def crypt_file(ws: Path, cfg: dict[str, Any], path: Path, *, decrypt: bool, scheme: str | None = None,
               approved: bool = False) -> dict[str, Any]:
    """Encrypt a plain-text T2 entry file in place, or decrypt one (``crypt.py --file``).

    Args:
        path: the file, absolute, relative to the current folder, or relative
            to the workspace (as ``memory.py`` prints paths); it must be a
            single-entry file in ``memory/tier2-internal/``.
        decrypt: decrypt (needs ``approved``: the gate holds an in-place
            decryption for the user) instead of encrypt.
        scheme: the encryption scheme (default: config ``tiers.encryption_scheme``).

    The file is backed up first and written atomically, mode 0600, under the
    workspace lock; its frontmatter lines stay as written (``scheme: none``
    is set on decryption) and the body keeps its layout: a body that starts
    right after the frontmatter still does.

    Returns ``{"file", "action": "encrypted"|"decrypted", "backup"}``, plus ``erased``
    (:func:`erasure.erase` counts) after an encryption.

    Raises:
        BadInputError: not a T2 file, a multi-entry file, or not encrypted.
        GateDecisionError: decryption without approval.
        CryptoError, KeyUnavailableError: wrong key, tampered text, no key.
    """
    target = path if Path(path).is_absolute() else (Path.cwd() / path)
    if not Path(path).is_absolute() and not target.exists() and (Path(ws) / path).exists():
        target = Path(ws) / path
    safe_target(ws, target)
    if target.parent.name != tiers.T2_DIR or not target.is_file():
        raise BadInputError(f"{path}: not a file in {tree.rel(tree.TIER2)}/")
    with workspace_lock(ws):
        tf = read_text(target)
        if decrypt:
            found = tiers.parse_t2(tf.text, target)
            if len(found) != 1 or found[0].index is not None:
                raise BadInputError(f"{path}: a multi-entry file; read it with 'memory.py show'")
            if found[0].plaintext:  # a repeated decrypt: nothing left to do (walk-through r4, item 8)
                return {"file": rel(ws, target), "action": "unchanged", "reason": "not encrypted", "backup": None}
            plain = tiers.decrypt_entry(found[0], cfg)
            decision = gate.evaluate("edit", plain, source="explicit_user", approved=approved, cfg=cfg,
                                     tier="internal", request=f"decrypt {target.name} in place")
            gate.record(ws, decision, entry=found[0].id or None)
            gate.require(decision)
            fm = entries.split_frontmatter(tf.text, target.name)
            # No blank line of our own: the body starts where the sealed body started.
            gap = "\n" if fm.body.startswith("\n") else ""
            new_text = entries.join_frontmatter(entries.set_frontmatter_fields(fm.raw, {"scheme": "none"}),
                                                gap + plain + "\n")
        else:
            tiers.sealing_key(ws, cfg)  # another machine's key would split the store (round 10)
            found = tiers.parse_t2(tf.text, target)
            plains: list[str] = []
            if found and not any(e.plaintext for e in found):
                # Sealed already. xor-b64 is obfuscation only: with a key (or --scheme aes-gcm)
                # it is sealed again with aes-gcm (walk-through r6, finding 3); else nothing to do,
                # exit 0, for a single and a month file alike (walk-through r4, item 8).
                xor = [e for e in found if e.scheme == "xor-b64"]
                chosen = crypto.choose_scheme(cfg, scheme) if xor else "aes-gcm"
                if xor and chosen != "aes-gcm" and scheme is None:
                    raise KeyUnavailableError(f"{path}: xor-b64 is obfuscation, not encryption, and there is no T2 "
                                              "key to encrypt it with: run 'crypt.py reseal' (it makes the key "
                                              "and encrypts every such entry)")
                if not xor or chosen != "aes-gcm":
                    reason = "xor-b64 already" if xor else "already encrypted"
                    return {"file": rel(ws, target), "action": "unchanged", "reason": reason, "backup": None}
                new_text, plains = tiers.reseal_text(ws, tf.text, target, cfg)
            else:
                new_text = tiers.seal_text_file(ws, tf.text, target, cfg, scheme)
        # Sealing plain T2 text protects it and keeps every byte (decodable): no approval needed
        # to withhold the copy a keyless install cannot seal; decrypting needs the user's word.
        backup = backups.start(ws, f"crypt {'decrypt' if decrypt else 'encrypt'} {target.name}",
                               allow_withheld=approved or not decrypt)
        backup.save(target)
        atomic_write_text(target, new_text, tf, mode=0o600)
        action = "decrypted" if decrypt else ("resealed" if plains else "encrypted")
        result = {"file": rel(ws, target), "action": action, "backup": backup.id}
        if not decrypt:
            # Sealed now: no plain copy may stay behind in the backups (issue 10;
            # an older version stored them in plain text). This change's own
            # copy is sealed with the T2 key (or withheld): it stays restorable.
            needles = plains or [entries.split_frontmatter(tf.text, target.name).body.strip("\n")]
            result["erased"] = erasure.erase(ws, cfg, ident=None, needles=needles, indexed=False, plain_only=True)
    return result


def reseal_all(ws: Path, cfg: dict[str, Any]) -> dict[str, Any]:
    """Encrypt every T2 entry that is not aes-gcm yet: xor-b64 entries and plain-text files.

    The migration path from xor-b64 (obfuscation) to aes-gcm once the user
    has a T2 key (walk-through r6, finding 3; ``crypt.py reseal``). Every
    file in ``memory/tier2-internal/`` is read; a file holding an xor-b64
    entry is re-sealed (:func:`tiers.reseal_text`), a plain-text one sealed
    (:func:`tiers.seal_text_file` with aes-gcm). All changed files go into one
    backup first and are written atomically (mode 0600) under the workspace
    lock; plain copies left in older backups are erased as after ``encrypt``.
    Malformed files are left alone and listed. :func:`plan_reseal` then
    :func:`apply_reseal`.

    Returns ``{"files": [relative paths], "entries": N, "skipped": [{"file", "reason"}],
    "backup": id or None, "erased": counts or None}``.

    Raises:
        KeyUnavailableError: no T2 key (nothing written); MalformedKeyError: a broken key.
        CryptoError: an xor-b64 entry that does not decode (nothing written).
    """
    with workspace_lock(ws):
        return apply_reseal(ws, cfg, plan_reseal(ws, cfg))


def plan_reseal(ws: Path, cfg: dict[str, Any]) -> dict[str, Any]:
    """The first half of :func:`reseal_all`: read and seal in memory, write nothing.

    Returns the plan :func:`apply_reseal` takes. ``crypt.py reseal`` makes a key
    first when none exists; a plan that fails wrote nothing with it, so the key
    can go again (issue 11: whole or nothing).

    Raises:
        KeyUnavailableError, MalformedKeyError, WrongKeyError, CryptoError (as :func:`reseal_all`).
    """
    crypto.load_key(cfg)  # no key, no change: fail before reading anything
    tiers.sealing_key(ws, cfg, "nothing was changed")  # another machine's key would split the store (round 10)
    with workspace_lock(ws):
        planned: list[tuple[Path, Any, str, list[str]]] = []
        skipped = []
        for path in tiers.t2_files(ws):
            try:
                tf = read_text(path)
                found = tiers.parse_t2(tf.text, path)
            except MemoryManagerError as exc:
                skipped.append({"file": rel(ws, path), "reason": str(exc)})
                continue
            if any(e.plaintext for e in found):
                plain = entries.split_frontmatter(tf.text, path.name).body.strip("\n")
                planned.append((path, tf, tiers.seal_text_file(ws, tf.text, path, cfg, "aes-gcm"), [plain]))
                continue
            new_text, plains = tiers.reseal_text(ws, tf.text, path, cfg)
            if plains:
                planned.append((path, tf, new_text, plains))
    return {"planned": planned, "skipped": skipped}


def apply_reseal(ws: Path, cfg: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
    """The second half of :func:`reseal_all`: back up, write and erase what :func:`plan_reseal` planned.

    Call it under the same workspace lock as the plan (a file changed in between would be
    overwritten). Returns and raises as :func:`reseal_all`.
    """
    planned = plan["planned"]
    with workspace_lock(ws):
        result: dict[str, Any] = {"files": [rel(ws, p) for p, *_ in planned],
                                  "entries": sum(len(x[3]) for x in planned), "skipped": plan["skipped"],
                                  "backup": None, "erased": None}
        if not planned:
            return result
        backup = backups.start(ws, "crypt reseal", allow_withheld=True)
        for path, _tf, _new, _plains in planned:
            backup.save(path)
        for path, tf, new_text, _plains in planned:
            atomic_write_text(path, new_text, tf, mode=0o600)
        result["backup"] = backup.id
        result["erased"] = erasure.erase(ws, cfg, ident=None, needles=[t for x in planned for t in x[3]],
                                         indexed=False, plain_only=True)
    return result


# ------------------------------------------------------------- references

@dataclass
class Ref:
    """What ``show``/``forget`` point at: ``kind`` in daily/knowledge/t2/t1/note, ``path``, optional item."""

    kind: str
    path: Path
    item: Any = None


def _kind_of(ws: Path, path: Path) -> str:
    kind = tree.Tree(Path(ws)).kind_of(path)
    if kind == "openclaw":
        return kind if OPENCLAW_NOTE.match(path.name) else "other"
    if kind == "t2" or (kind in ("daily", "knowledge", "t1")):
        return kind
    return "other"


def find_entry(ws: Path, ident: str) -> Ref | None:
    """Find the entry with id ``ident`` in every file recall reads (same reader, same ids).

    Returns a :class:`Ref` whose ``item`` is an :class:`entries.Entry`, or None.
    """
    from .fsio import decode_text
    from .units import scan_sources

    for relpath, kind, item in scan_sources(Path(ws)):
        try:
            text = decode_text(read_regular(Path(item.path)), relpath).text
        except (OSError, MalformedFileError, UnicodeDecodeError, ValueError):
            continue
        except Exception:  # UnreadableFileError: not UTF-8, holds no entry
            continue
        for entry in entries.parse_entries(relpath, kind, text)[0]:
            if entry.id == ident:
                return Ref(kind, Path(ws) / relpath, entry)
    return None


def resolve(ws: Path, ref: str) -> Ref:
    """Find an entry by id (any id recall returns: ``d-``, ``k-``, ``t-``, ``h-`` or
    an id comment), knowledge key, or path.

    A path may be relative to the workspace or to ``memory/``, or absolute;
    it must lie inside ``memory/``.

    Raises:
        NotFoundError, WorkspaceError.
    """
    ref = ref.strip()
    if not ref:
        raise BadInputError("give an entry id or path")
    picked = _pick_by_path(ws, ref)
    if picked is not None:
        return picked
    held = _holders(ws, ref)
    if len({os.path.normpath(h.path.absolute()) for h in held}) > 1:
        raise shared_id_error(ws, ref, [h.path for h in held])
    if held:
        return held[0]
    if re.fullmatch(r"[A-Za-z0-9_.:-]+", ref) and not ref.endswith(".md"):
        found = find_entry(ws, ref)
        if found is not None:
            return found
    root = entries.memory_dir(ws)
    candidates = [Path(ref)] if Path(ref).is_absolute() else [ws / ref, root / ref]
    if "/" not in ref and "\\" not in ref:
        candidates.append(root / entries.KNOWLEDGE_DIR / f"{ref}.md")
    for candidate in candidates:
        if candidate.is_file():
            safe_target(ws, candidate)
            norm = Path(os.path.normpath(candidate.absolute()))
            kind = _kind_of(ws, norm)
            if kind == "other":
                # An expired T2 file cleanup archived: its one entry, by path as by id.
                archived = [e for e in tiers.iter_archived_t2(ws) if Path(os.path.normpath(e.path.absolute())) == norm]
                if len(archived) == 1:
                    return Ref("t2", norm, archived[0])
                if archived:
                    raise BadInputError(f"{rel(ws, norm)} holds {len(archived)} archived T2 entries: give the id of "
                                        f"one ({', '.join(e.id for e in archived)})")
                by_path = _entry_at(ws, norm)
                if by_path is not None:
                    return by_path
            return Ref(kind, norm)
    if Path(ref).is_absolute() or ".." in Path(ref).parts:
        for candidate in candidates[:2]:
            safe_target(ws, candidate)  # raises WorkspaceError for an escape
    raise NotFoundError(f"no memory entry {_mask(ref)!r}")


def _holders(ws: Path, ref: str) -> list[Ref]:
    """Every entry that holds id ``ref``, in every place an id can live: daily notes, knowledge files,
    live, quarantined and archived T2 entries, the archive (pruned sections and knowledge files) and
    the other notes recall reads (:func:`find_entry`). [] when ``ref`` is no id any of them holds.

    The one lookup behind :func:`resolve` (and so ``forget``, ``show``, ``edit``, ``used``): an id
    is unique within a file only, so more than one file may hold it (a file copied or renamed by
    hand, an entry learned or remembered again while its old copy is archived or quarantined).
    """
    from . import quarantine
    from .unarchive import find_all_archived

    held: list[Ref] = []
    if re.fullmatch(r"d-\d{8}-[0-9a-f]{8}", ref):
        held += [Ref("daily", s.path, s) for s in entries.iter_daily(ws) if s.id == ref]
    elif re.fullmatch(r"k-[0-9a-f]{10}", ref):
        held += [Ref("knowledge", e.path, e) for e in entries.iter_knowledge(ws) if e.id == ref]
    elif re.fullmatch(r"t-[0-9a-f]{10}", ref):
        held += [Ref("t2", e.path, e) for e in tiers.iter_t2_entries(ws) if e.id == ref and not e.error]
        # A quarantined entry keeps its id (issue 10); an expired one cleanup archived is still
        # forgettable by its id (nu8).
        held += [Ref("quarantine", path, entry) for path, entry, _ in quarantine.find(ws, ref)]
        held += [Ref("t2", e.path, e) for e in tiers.iter_archived_t2(ws) if e.id == ref]
    if re.fullmatch(r"[A-Za-z0-9_.:-]+", ref) and not ref.endswith(".md") and not held:
        found = find_entry(ws, ref)  # h- ids, id comments of other notes, lessons: recall's reader
        if found is not None:
            held.append(found)
    if re.fullmatch(r"[A-Za-z0-9_.:-]+", ref):
        # An archived entry, by the id recall prints with [archived] (issue 10: what recall shows
        # can be forgotten).
        held += [Ref("archived", path, entry) for path, entry, _ in find_all_archived(ws, ref)]
    return held


def _pick_by_path(ws: Path, ref: str) -> Ref | None:
    """``<path>#<id>``: the entry ``id`` of that one file, how the user picks one of the files an id is
    held by (:func:`shared_id_error`); ids are unique within a file. None when ``ref`` is not of that form
    (or is the name of an existing file).

    Raises:
        NotFoundError: the file holds no entry with that id; WorkspaceError: a path outside ``memory/``.
    """
    where, sep, ident = ref.rpartition("#")
    if not sep or not where or not re.fullmatch(r"[A-Za-z0-9_.:-]+", ident) or (Path(ws) / ref).exists():
        return None
    root = entries.memory_dir(ws)
    candidates = [Path(where)] if Path(where).is_absolute() else [Path(ws) / where, root / where]
    for candidate in candidates:
        if not candidate.is_file():
            continue
        safe_target(ws, candidate)  # raises WorkspaceError for an escape
        norm = os.path.normpath(candidate.absolute())
        for held in _holders(ws, ident):
            if os.path.normpath(held.path.absolute()) == norm:
                return held
    if Path(where).is_absolute() or ".." in Path(where).parts:
        for candidate in candidates:
            safe_target(ws, candidate)  # raises WorkspaceError for an escape
    raise NotFoundError(f"no memory entry {_mask(ident)!r} in {_mask(where)}")


def _entry_at(ws: Path, path: Path) -> Ref | None:
    """The one entry of a quarantine file or of an archive file holding a single pruned entry, by its path:
    how the user picks one of the files an id is held by (:func:`shared_id_error`). None otherwise."""
    from . import quarantine, units

    t = tree.Tree(Path(ws))
    if path.parent == Path(os.path.normpath(t.quarantine.absolute())):
        try:
            entry, _ = quarantine.read(path)
        except MemoryManagerError:
            return None
        return Ref("quarantine", path, entry)
    try:
        path.relative_to(os.path.normpath(t.archive.absolute()))
        found = [e for e in units.parse_archive(rel(ws, path), read_text(path).text) if "archived" in e.meta]
    except (ValueError, MemoryManagerError):
        return None
    return Ref("archived", path, found[0]) if len(found) == 1 else None


def shared_id_error(ws: Path, ref: str, paths: list[Path]) -> BadInputError:
    """The refusal of an id more than one file holds (tatk18 6, tatk19): one line naming each file.

    Which of the entries the id was shown for cannot be told, so nothing acts on it (forget, show,
    edit, unquarantine, unarchive): references/formats.md "Ids". The message says how to reach one.
    """
    names = list(dict.fromkeys(rel(ws, Path(os.path.normpath(Path(p).absolute()))) for p in paths))
    shown = ", ".join(_mask(n) for n in names)
    kinds = {tree.Tree(Path(ws)).kind_of(Path(ws) / n) for n in names}
    if kinds == {"knowledge"}:
        return BadInputError(f"id {ref} is held by {len(names)} knowledge files ({shown}; one was renamed by hand): "
                             "give the key or path of the one you mean")
    return BadInputError(f"id {ref} is held by {len(names)} files ({shown}): give <path>#<id> of the one you mean "
                         f"({_mask(names[-1])}#{ref})")


def show(ws: Path, cfg: dict[str, Any], ref: str, *, approved: bool = False,
         source: str = "explicit_user", track: bool = True, history: bool = False) -> dict[str, Any]:
    """Read one entry (decrypting T2 when the key is available); a read/reuse through the gate.

    ``track`` counts the read as one use of the entry (access statistics);
    ``history`` adds ``versions`` (the superseded texts, newest first) for a
    knowledge entry. ``text`` is always the current text only.

    Raises:
        NotFoundError, GateDecisionError, KeyUnavailableError, CryptoError, MalformedFileError.
    """
    target = resolve(ws, ref)
    out: dict[str, Any] = {"kind": target.kind, "path": rel(ws, target.path)}
    tier = None
    if isinstance(target.item, entries.DailySection):
        section = target.item
        out.update(section.as_dict(), path=rel(ws, target.path))
        text = read_text(target.path).text[section.span[0]:section.span[1]].rstrip("\n")
    elif isinstance(target.item, entries.Entry) and target.kind != "knowledge":
        item = target.item
        out.update(id=item.id, heading=item.heading, date=item.date, pinned=item.pinned)
        text = read_text(target.path).text[item.span[0]:item.span[1]].rstrip("\n")
    elif target.kind == "knowledge":
        from . import history as history_mod

        entry = target.item if isinstance(target.item, entries.KnowledgeEntry) else \
            entries.read_knowledge(target.path)[0]
        out.update(entry.as_dict(), path=rel(ws, target.path))
        text, versions = history_mod.split(entry.body)
        text = text.strip("\n")
        out["body"] = text
        if history:
            out["versions"] = [{"since": entries.parse_day_text(entry.updated) or entries.parse_day_text(entry.created),
                                "until": None, "text": text}] + [v.as_dict() for v in versions]
    elif target.kind in ("t2", "quarantine"):
        tier = "internal"
        found = [target.item] if target.item else tiers.parse_t2(read_text(target.path).text, target.path)
        from . import history as history_mod

        plains, t2_versions = [], []
        for e in found:
            current, versions = history_mod.split(tiers.decrypt_entry(e, cfg))
            plains.append(current.strip("\n"))
            t2_versions.append(versions)
        if target.kind == "quarantine":
            # Shown so the user can decide, with every secret and T3 value
            # masked: the gate never lets those out, quarantined or not.
            from .privacy import mask

            plains = [mask(p) for p in plains]
            t2_versions = [[] for _ in found]
        if target.item is not None:
            out["id"] = target.item.id
        out["entries"] = [dict(e.as_dict(), text=p, path=rel(ws, e.path)) for e, p in zip(found, plains)]
        out["quarantined"] = target.kind == "quarantine"
        if history:  # the gate below holds this T2 read for approval like any other
            for item, versions in zip(out["entries"], t2_versions):
                item["versions"] = [v.as_dict() for v in versions]
        text = "\n\n".join(plains)
    else:
        text = read_text(target.path).text
    decision = _gate(ws, "reuse" if tier else "read", text, source=source, sensitivity=None, approved=approved,
                     cfg=cfg, tier=tier, request=f"show {ref}", entry=out.get("id") or None,
                     where=out["path"] if _text_id(target) else None)
    out["text"] = text
    out["gate"] = decision.payload()
    if track and out.get("id"):
        # Opening an entry is using it: the one access that counts (issue 13), not being listed by recall.
        from . import access

        try:
            access.record(ws, [out["id"]])
        except UnreadableFileError as exc:  # access.json unusable: shown all the same, the file left as it is
            out["warnings"] = [str(exc)]
    return out


def _section_now(text: str, target: Ref) -> tuple[int, int] | None:
    """The span of ``target``'s section in the file's current ``text``, or None when it is gone."""
    item = target.item
    if isinstance(item, entries.DailySection):
        found = [s.span for s in entries.parse_daily(text, target.path) if s.id == item.id]
    else:
        found = [e.span for e in entries.parse_entries(item.path, target.kind, text)[0] if e.id == item.id]
    return found[0] if found else None


def used(ws: Path, refs: list[str]) -> dict[str, Any]:
    """Count one use of each entry (``memory.py used ID...``): the agent answered with it.

    Recall no longer counts what it lists (issue 13: counting every listed hit fed on
    itself); the agent reports what it actually used, and ``show`` counts itself.

    Args:
        refs: entry ids (``d-``, ``k-``, ``t-``, or any id recall printed), keys or paths.

    Returns ``{"action": "used", "ids": [...]}``.

    Raises:
        BadInputError: no ids; NotFoundError: an id names no entry (nothing is counted);
        FileWriteError.
    """
    from . import access

    refs = [r.strip() for r in refs if r.strip()]
    if not refs:
        raise BadInputError("give at least one entry id")
    ids = []
    for ref in refs:
        ids.append(_entry_id(ws, ref))
    access.record(ws, ids)
    return {"action": "used", "ids": list(dict.fromkeys(ids))}


def _entry_id(ws: Path, ref: str) -> str:
    """The access key of ``ref``: the store's id, or an id the recall index knows (other notes)."""
    try:
        target = resolve(ws, ref)
    except NotFoundError:
        from .index import open_index

        idx = open_index(ws)
        try:
            if idx.conn.execute("SELECT 1 FROM entries WHERE id = ? LIMIT 1", (ref,)).fetchone():
                return ref
        finally:
            idx.close()
        raise
    item = target.item
    if item is not None and getattr(item, "id", None):
        return item.id
    if target.kind == "knowledge":
        return entries.read_knowledge(target.path)[0].id
    raise BadInputError(f"{_mask(ref)!r} is a file, not one entry: give the entry id recall printed")


def forget(ws: Path, cfg: dict[str, Any], ref: str, *, approved: bool = False) -> dict[str, Any]:
    """Delete one entry after approval, with every copy of it (issue 10: forgotten means gone).

    A daily id removes its section (the file goes when nothing else is
    left); a knowledge or single T2 entry removes its file; a multi-file T2
    id removes its section; a quarantined id removes its quarantine file.
    OpenClaw's own notes are never changed. Then :func:`erasure.erase`
    removes the copies in backups, archive, recall index, audit log and the
    cached report; ``erased`` in the result counts them.

    Raises:
        NotFoundError, GateDecisionError, BadInputError.
    """
    # A forget killed part-way is settled before the lookup (as init does): rolled back
    # when killed before its point of no return (the re-run finds the entry again and
    # does the job), finished when killed after it (the re-run reports that run's result).
    backups.repair(ws)
    # The backup's reason names neither the key nor the id (a plain hash of the
    # entry's name, which confirms a guess): a random stand-in (issue 10).
    label = backups.hidden_name(ref.strip())
    done = backups.finished(ws, ref=ref)
    if done is not None:
        return {**done["result"], "finished_interrupted": done["id"]}
    target = resolve(ws, ref)
    lesson = target.kind == "memory_md" and isinstance(target.item, entries.Entry) and bool(target.item.meta.get("lesson"))
    if target.kind not in ("daily", "knowledge", "t2", "t1", "quarantine", "archived") and not lesson:
        if target.kind in ("openclaw", "memory_md"):
            raise BadInputError(f"{rel(ws, target.path)} is not an entry of this store (OpenClaw's own notes are never "
                                "changed by memory.py): edit it yourself to remove this text (a lesson line of "
                                "MEMORY.md is forgotten by the id recall prints for that line)")
        raise BadInputError(f"{rel(ws, target.path)} is not an entry of this store (OpenClaw's own notes are never changed)")
    # The gate sees the content being deleted (AANA: show what is changed);
    # a delete is never refused for its content, only held for approval.
    if isinstance(target.item, entries.DailySection):
        summary = "\n".join([target.item.topic] + [t for _, t in target.item.items])
    elif isinstance(target.item, entries.Entry) and target.kind != "knowledge":
        summary = f"{target.item.heading}\n{target.item.text}"
    elif target.kind in ("t2", "quarantine"):
        summary = f"T2 entry {rel(ws, target.path)} (encrypted)"
    elif target.kind == "knowledge":
        try:
            entry = target.item if isinstance(target.item, entries.KnowledgeEntry) else \
                entries.read_knowledge(target.path)[0]
            summary = f"{entry.key}: {entry.body}"
        except MalformedFileError:  # a malformed entry can still be deleted
            summary = read_text(target.path).text
    else:
        summary = read_text(target.path).text
    needles = _forget_needles(ws, cfg, target)
    gate_texts = _gate_texts(target, summary, needles)  # read before the file goes
    origin = _forget_origin(ws, target)
    archived_origin = _archived_origin(ws, target)
    earlier, earlier_states = _earlier_names(ws, target)  # a quarantine or archive name it had (atk12)
    sources = _openclaw_sources(ws, target)
    ident = getattr(target.item, "id", None) if target.item is not None else None
    ids = [ident] if ident else []
    if not ident and target.kind == "knowledge":  # forgotten by key or path: its id goes too
        try:
            ids = [entries.read_knowledge(target.path)[0].id or entries.knowledge_id(target.path.stem)]
        except (MemoryManagerError, IndexError):
            ids = [entries.knowledge_id(target.path.stem)]
    orphans = _lesson_orphans(ws, target, ids)  # read before the line goes
    keep = _twin_hashes(ws, cfg, target, _audit_ids(target, ids))  # the records of its twins stay (tatk20 8)
    # The approval record's keys of every value in the entry (plain text only in
    # memory): removed with it at the end (issue 10).
    drop = sorted({k for n in [summary, *needles] if isinstance(n, str) for k in gate.approval_keys_of(ws, n)})
    # A T2 entry's needles include its decrypted text: sealed in the plan with the T2 key, never
    # written in plain text (issue 10), and only with this store's key (tiers.sealing_key): taken
    # before anything changes, so a key the store did not accept stops forget with nothing done.
    seal_key = backups.sealing_key(ws) if target.kind in ("t2", "quarantine") else None
    with workspace_lock(ws):  # the gate's decision and the deletion: one locked step
        decision = gate.evaluate("delete", summary, source="explicit_user", sensitivity=None, approved=approved,
                                 cfg=cfg, request=f"forget {ref}")
        if not decision.allowed:  # held for approval: logged now, nothing changes
            gate.record(ws, decision)
            gate.require(decision)
        # An allowed decision is logged at the point of no return (below), once:
        # a run killed before it is rolled back and leaves no record behind.
        # Backed up first (a crash half-way is rolled back), then every copy,
        # this backup's included, is erased: forgotten means gone (issue 10).
        backup = backups.start(ws, f"forget {label}", allow_withheld=True)  # forgetting keeps no copy anyway
        backup.save(target.path)
        try:
            # Every state of the file (and of the indexes) that held the entry, as far as the backups'
            # entries without a copy rebuild them: their hashes and ranges go with the copies (issue 11).
            hashes = _forget_hashes(ws, target, needles, _forget_names(target))
            # Its states under an earlier name another file holds now (tatk17 kind 2).
            hashes = sorted(set(hashes) | set(earlier_states))
            removed = "file"
            if target.kind == "daily" and target.item is not None:
                # Exactly the section's characters go (heading to the next section);
                # every other byte of the note stays as it was.
                like = read_text(target.path)
                span = _section_now(like.text, target)
                if span is None:
                    raise NotFoundError(f"entry {ref} changed meanwhile; nothing deleted")
                new_text = like.text[:span[0]] + like.text[span[1]:]
                if new_text.strip():
                    atomic_write_text(target.path, new_text, like)
                    removed = "section"
                else:
                    remove(target.path)
            elif lesson:
                # One lesson line of MEMORY.md (memory.py lesson wrote it): exactly that line goes,
                # every other byte of the file stays (issue 10: a lesson recall shows can be forgotten).
                like = read_text(target.path)
                span = _section_now(like.text, target)
                if span is None:
                    raise NotFoundError(f"entry {ref} changed meanwhile; nothing deleted")
                atomic_write_text(target.path, like.text[:span[0]] + like.text[span[1]:], like)
                removed = "line"
            elif target.kind == "archived":
                # Exactly the archived entry's characters go; the file goes with its last entry.
                from . import units

                like = read_text(target.path)
                start, end = target.item.span
                if like.text[start:end] != _archived_piece(ws, target):
                    raise NotFoundError(f"entry {ref} changed meanwhile; nothing deleted")
                rest = like.text[:start] + like.text[end:]
                if rest.strip() and units.parse_archive(rel(ws, target.path), rest):
                    atomic_write_text(target.path, rest.rstrip("\n") + "\n", like)
                    removed = "section"
                else:
                    remove(target.path)
            elif target.kind == "t2" and target.item is not None and target.item.index is not None:
                rest = [e for e in tiers.parse_t2(read_text(target.path).text, target.path) if e.id != target.item.id]
                if rest:
                    atomic_write(target.path, tiers.render_multi(rest[0].skill, rest[0].month, rest).encode("utf-8"),
                                 mode=0o600)
                    removed = "section"
                else:
                    remove(target.path)
            else:
                remove(target.path)
            indexes = entries.rebuild_indexes(ws, cfg)
            result = {"action": "forget", "ref": ref, "kind": target.kind, "path": rel(ws, target.path),
                      "removed": removed, "backup": backup.id, "indexes": [rel(ws, p) for p in indexes],
                      "gate": decision.payload(), "still_in": sources}
            # The point of no return: erasing the copies destroys this backup's own
            # copy, so from here a killed forget is finished by the next run, never
            # rolled back (issue 11); the journal keeps what finishing needs.
            # Its own record keeps no hash (the content it names is gone), and the records of the
            # entry's earlier decisions lose theirs at the end (tatk10: a keyed hash confirms a guess).
            _, line = auditlog.record_line(ws, decision, keep_hash=False)
            # An entry that was a whole file: every older version earlier backups keep of
            # that file goes too, not only copies holding today's text (issue 11), and
            # backups name it by a stand-in from then on (issue 10: a T2 file name holds
            # its topic, a quarantined entry's the name it had before).
            # An archive file goes whole only when it was the entry's own (a pruned knowledge file,
            # ``knowledge-<key>.md``, tatk10); a month's archive of sections keeps its other states.
            whole = [] if removed in ("section", "line") or target.kind == "daily" or \
                (target.kind == "archived" and not archived_origin) else [rel(ws, target.path)]
            whole += origin + archived_origin + earlier
            plan = {"kind": "forget", "ident": ident, "needles": erasure.forward_needles(needles, seal_key), "paths": whole,
                    "indexed": target.kind not in ("t2", "quarantine"), "audit_line": line.decode("utf-8"),
                    "approvals": [list(a) for a in decision.approved_findings], "drop_approvals": drop,
                    "names": _forget_names(target), "ids": ids, "hashes": hashes,
                    "audit_hashes": auditlog.hashes_of(ws, gate_texts),
                    "audit_refs": auditlog.refs_of(ws, _audit_ids(target, ids)),
                    "audit_keep": keep,
                    "audit_known": auditlog.at_hand(ws), "audit_orphans": orphans, "result": result}
            backup.roll_forward(plan)
        except Exception as exc:
            _forget_stopped(ws, backup, exc)
            raise
        try:
            return erasure.finish_forget(ws, plan)
        except Exception as exc:
            # Past the point of no return: the journal's plan stays (closed as complete, it would
            # go, and the copies left with it), so the next command finishes the erasure (fatk10).
            backups.leave_for_rollback(ws, backup)
            if isinstance(exc, MemoryManagerError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
                exc.args = (f"{exc.args[0]}; the entry is deleted, and the next command finishes erasing "
                            "its copies",)
            raise


def _forget_stopped(ws: Path, backup: backups.Backup, exc: Exception) -> None:
    """``forget`` failed before its point of no return (:meth:`backups.Backup.roll_forward`).

    When it had changed a file already (the entry deleted, an index not yet backed up: a
    file-size limit, a full disk), the change is left for the next command to roll back, as
    after a kill (:func:`backups.leave_for_rollback`), and the error says so: closed as
    complete, its backup kept the entry's text in plain while no later run knew the entry
    was to be erased (fatk10). The re-run of forget then finds the entry again and forgets
    it whole, its own backup's copy included. Nothing changed yet: the error stands as it is.
    """
    from .fsio import changed_so_far

    if not changed_so_far(ws):
        return
    backups.leave_for_rollback(ws, backup)
    note = ("forget stopped before it erased the entry's copies: the next command puts the entry "
            "back as it was (run forget again to forget it)")
    if isinstance(exc, MemoryManagerError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
        exc.args = (f"{exc.args[0]}; {note}",)
    elif isinstance(exc, OSError) and exc.strerror:
        exc.strerror = f"{exc.strerror}; {note}"


def _text_id(target: Ref) -> bool:
    """True for a lesson line of MEMORY.md: its id follows its wording (:func:`entries.lesson_id`)."""
    return (target.kind == "memory_md" and isinstance(target.item, entries.Entry)
            and bool(target.item.meta.get("lesson")))


def _lesson_orphans(ws: Path, target: Ref, ids: list[str]) -> dict[str, list[str]] | None:
    """For ``forget`` of a lesson: the file references of its file and the entry references of the lines it keeps.

    A hand edit gives a lesson line a new id, so the records of its earlier
    wording name an id no line has any more (atk13); ``forget`` blanks the
    records of the file that name no line still there
    (:func:`memory_manager.auditlog.blank_hashes`, ``orphans``).
    """
    if not _text_id(target):
        return None
    path = rel(ws, target.path)
    try:
        found, _ = entries.parse_entries(path, "memory_md", read_text(target.path).text)
    except MemoryManagerError:
        found = []
    live = [e.id for e in found if e.meta.get("lesson") and e.id and e.id not in ids]
    return {"files": auditlog.file_refs_of(ws, path), "live": auditlog.refs_of(ws, live)}


def _audit_ids(target: Ref, ids: list[str]) -> list[str]:
    """Every id the forgotten entry's audit records may name (v3 ``entry``, :func:`_gate`).

    Its id now, and the ids its name gives (``learn``, ``write`` and
    ``remember`` name an entry by them before it exists): a record of any
    version, merged write, archive move or month-file combine of the entry
    carries one of these, whatever text it saw (atk11).
    """
    out = list(ids)
    item = target.item
    if isinstance(item, entries.DailySection) and item.date and item.topic:
        out.append(entries.daily_id(item.date, item.topic))
    elif target.kind == "knowledge":
        out.append(entries.knowledge_id(target.path.stem))
    elif isinstance(item, tiers.T2Entry) and item.skill and item.topic:
        out.append(tiers.t2_id(item.skill, item.topic))
    elif target.kind == "archived" and item is not None:
        meta = item.meta.get("archived") if isinstance(item.meta.get("archived"), dict) else {}
        if meta.get("kind") == "knowledge":
            key = Path(str(meta.get("source") or "")).stem or target.path.stem.removeprefix("knowledge-")
            if key:
                out.append(entries.knowledge_id(key))
    return [i for i in dict.fromkeys(out) if i]


def _twins(ws: Path, target: Ref, ids: list[str]) -> list[Ref]:
    """The other entries that hold one of ``ids`` (:func:`_audit_ids`): a T2 entry remembered again
    under the id of an archived or quarantined copy (a T2 id follows its skill and topic), or that copy
    when the live one goes. (A knowledge key learned again gets a fresh id: no twin.)
    """
    here = os.path.normpath(target.path.absolute())
    out: list[Ref] = []
    for ident in ids:
        out += _holders(ws, ident)
    # An id is unique within a file: whatever holds it in the forgotten entry's file is that entry.
    seen = {here}
    twins = []
    for ref in out:
        where = os.path.normpath(ref.path.absolute())
        if where not in seen:
            seen.add(where)
            twins.append(ref)
    return twins


def _twin_hashes(ws: Path, cfg: dict[str, Any], target: Ref, ids: list[str]) -> list[str]:
    """The audit hashes of the texts of the entries that share the forgotten entry's id (:func:`_twins`).

    ``forget`` blanks every gate-audit record naming the entry's id; an id is unique within a file
    only, so a live entry holding the same id (remembered again while the old one is archived) had
    its records blanked too (tatk20 8). Their records whose hash is one of these stay
    (:func:`memory_manager.auditlog.blank_hashes`, ``keep``). A twin that cannot be read (no key for
    a T2 entry, a malformed file) gives nothing: its records go as before (less kept, never more).
    """
    texts: list[str] = []
    for twin in _twins(ws, target, ids):
        try:
            needles = _forget_needles(ws, cfg, twin)
        except (MemoryManagerError, OSError):
            continue
        texts += [t for t in _gate_texts(twin, "", needles) if t]
    return auditlog.hashes_of(ws, list(dict.fromkeys(texts))) if texts else []


def _gate_texts(target: Ref, summary: str, needles: list[Any]) -> list[str]:
    """The texts the store doors gave the gate for the forgotten entry, as far as they can be rebuilt.

    Their audit records' keyed hashes are blanked by ``forget``
    (:func:`memory_manager.auditlog.blank_hashes`): ``learn`` gives
    ``key\ntext\ntags`` (``edit``: ``key\ntext``), ``remember``
    ``skill\ntopic\ntext``, ``show`` the plain text, ``write`` the topic and
    its lines. A record of a text that differs (lines merged later, a text
    edited since) is not matched: its hash stays, keyed outside the workspace.
    """
    from . import history

    out: list[str] = [summary]
    item = target.item
    plains = [n for n in needles if isinstance(n, str)]
    if target.kind == "knowledge":
        try:
            entry = item if isinstance(item, entries.KnowledgeEntry) else entries.read_knowledge(target.path)[0]
        except (MemoryManagerError, IndexError):
            entry = None
        if entry is not None:
            key = entry.key or target.path.stem
            for body in {entry.body, entry.body.strip(), history.split(entry.body)[0].strip()}:
                # The body alone too: what gate.py saw when the agent asked it first (atk12).
                out += [f"{key}\n{body}\n{' '.join(entry.tags)}", f"{key}\n{body}\n", f"{key}\n{body}", body]
    elif target.kind in ("t2", "quarantine") and isinstance(item, tiers.T2Entry):
        for plain in plains[1:] if item.ciphertext else plains:
            for text in {plain, plain.strip(), history.split(plain)[0].strip()}:
                out += [text, f"{item.skill}\n{item.topic}\n{text}"]
    elif isinstance(item, entries.DailySection):
        out.append("\n".join([item.topic] + [t for _, t in item.items]))
        out += [t for _, t in item.items]  # each line alone (gate.py asked first, atk12)
    elif target.kind == "memory_md" and isinstance(item, entries.Entry) and item.meta.get("lesson"):
        # ``lesson`` gave the gate the line's text (whitespace collapsed), without its date.
        out.append(" ".join(re.sub(r"^[-*] \[\d{4}-\d{2}-\d{2}\] ", "", item.text.strip()).split()))
    out += plains
    return list(dict.fromkeys(out))


def _forget_hashes(ws: Path, target: Ref, needles: list[Any], names: list[str]) -> list[str]:
    """The sha256 digests of every known state of the forgotten entry's file and of the derived
    indexes that held it (:func:`backups.tainted_states`): a state of the file holding one of
    ``needles``, a state of an index naming one of ``names`` (whole word) or holding a needle."""
    wanted = [n.encode("utf-8") if isinstance(n, str) else bytes(n) for n in needles if n]
    named = [re.compile(rb"(?<![\w-])" + re.escape(n.encode("utf-8")) + rb"(?![\w-])") for n in names if n]

    def holds(data: bytes) -> bool:
        return any(n in data for n in wanted)

    def lists(data: bytes) -> bool:
        return holds(data) or any(n.search(data) for n in named)

    found: set[str] = set()
    for path, test in [(target.path, holds), *((ws / r, lists) for r in backups.DERIVED_INDEXES)]:
        if path.is_file() and not path.is_symlink():
            found.update(backups.tainted_states(ws, rel(ws, path), read_regular(path), test))
    return sorted(found)


def _forget_names(target: Ref) -> list[str]:
    """The names ``forget`` removes: knowledge key, daily or T2 topic (derived index copies naming
    one go too; backups and state files show each by a stand-in)."""
    item = target.item
    if isinstance(item, entries.DailySection):
        return [item.topic] if item.topic else []
    if target.kind == "knowledge":
        return [target.path.stem]
    if target.kind in ("t2", "quarantine") and isinstance(item, tiers.T2Entry):
        return [n for n in (item.topic, f"{item.skill}_{item.topic}") if n]
    if target.kind == "archived" and item is not None:
        # A pruned entry keeps its names in the backups of the prune and of the writes before it,
        # as a live one does: the same names go (tatk10).
        meta = item.meta.get("archived") if isinstance(item.meta.get("archived"), dict) else {}
        if meta.get("kind") == "knowledge":
            key = Path(str(meta.get("source") or "")).stem or target.path.stem.removeprefix("knowledge-")
            return [key] if key else []
        topic = re.sub(r"^\[\d{4}-\d{2}-\d{2}\]\s*", "", str(meta.get("heading") or item.heading or "")).strip()
        return [topic] if topic else []
    return []


def _archived_origin(ws: Path, target: Ref) -> list[str]:
    """The file of its own an entry had, when it lives elsewhere now and no entry lives there: every
    backup copy of it goes, and backups name it by a stand-in (tatk10: its name held the key or topic).

    A pruned knowledge entry (``knowledge/<key>.md``); a T2 entry anywhere but its own file
    ``tier2-internal/<skill>_<topic>.md``: an expired file cleanup moved to the archive, an entry
    cleanup combined into ``<skill>_<YYYY-MM>.md``, live or archived since (atk11: the combined
    entry's old file name stayed in the backups' manifests).
    """
    item = target.item
    live = ""
    if target.kind == "archived" and item is not None:
        meta = item.meta.get("archived") if isinstance(item.meta.get("archived"), dict) else {}
        if meta.get("kind") == "knowledge":
            live = str(meta.get("source") or "")
    elif target.kind == "t2" and isinstance(item, tiers.T2Entry) and item.skill and item.topic:
        try:
            home = tiers.t2_path(ws, item.skill, item.topic)
        except MemoryManagerError:  # a name from data no file of ours can have
            return []
        if os.path.abspath(target.path) == os.path.abspath(home):
            return []  # its own file: forgotten whole already
        live = rel(ws, home)
    if not live or backups._rel_problem(live) or (Path(ws) / live).exists():
        return []
    return [live]


def _earlier_names(ws: Path, target: Ref) -> tuple[list[str], list[str]]:
    """The other files the entry lived in before, as the backups' manifests name them (atk12), and its
    states under an earlier name another file holds now (tatk17 kind 2).

    A T2 entry cleanup quarantined and ``unquarantine`` put back: its quarantine file
    ``memory/.quarantine/<id>[-n].md`` (the id is derived from skill and topic, so it
    confirms a guessed topic). A knowledge entry ``prune`` archived and ``unarchive``
    put back (or archived again): ``memory/archive/<YYYY-MM>/knowledge-<key>.md``
    (its key). A knowledge entry or a T2 file of its own that the user renamed by
    hand: every name its file had in the same folder (:func:`backups.former_paths`,
    atk15). Each goes like the month-combined name of :func:`_archived_origin`:
    every backup copy, and the name replaced by a stand-in. A path that exists now is
    left alone (it is another entry's, or the entry's own file, forgotten whole already),
    but the backup entries under it that recorded this file (renamed by hand, its old name
    learned again or swapped with another file's) are found one by one: their sha256
    digests (:func:`backups.former_states`) are the second list, erased like
    :func:`_forget_hashes`' (the pre-edit text under the old name goes, the other file's
    copies stay).
    """
    from .prune import ARCHIVE_DIR

    item = target.item
    patterns = []
    if target.kind == "t2" and isinstance(item, tiers.T2Entry) and item.skill and item.topic:
        base = tree.Tree(Path(ws)).quarantine.relative_to(ws).as_posix()
        patterns.append(re.escape(f"{base}/{tiers.t2_id(item.skill, item.topic)}") + r"(?:-\d+)?\.md")
    key = ""
    if target.kind == "knowledge":
        key = target.path.stem
    elif target.kind == "archived" and item is not None:
        meta = item.meta.get("archived") if isinstance(item.meta.get("archived"), dict) else {}
        if meta.get("kind") == "knowledge":
            key = Path(str(meta.get("source") or "")).stem
    if key:
        patterns.append(re.escape(ARCHIVE_DIR.as_posix()) + r"/\d{4}-\d{2}/" + re.escape(f"knowledge-{key}.md"))
    out: list[str] = []
    held: list[str] = []
    for pattern in patterns:
        for found in backups.recorded_paths(ws, re.compile(pattern)):
            if found != rel(ws, target.path) and not backups._rel_problem(found) and not (Path(ws) / found).exists():
                out.append(found)
    whole_file = target.kind == "knowledge" or (target.kind == "t2" and isinstance(item, tiers.T2Entry)
                                                and item.index is None)
    if whole_file and target.path.is_file() and not target.path.is_symlink():
        # The names the file had before the user renamed it by hand (attack round 15: the old
        # name, holding the private words, stayed in the backups' entry lines and after.json):
        # found by the states the backups recorded for it, or by its id line in a copy.
        data = read_regular(target.path)
        ident = getattr(item, "id", None)
        marker = f"\nid: {ident}".encode("utf-8") if isinstance(ident, str) and ident else None
        folder = re.escape(rel(ws, target.path.parent))
        paths, states = backups.former_paths_and_states(ws, rel(ws, target.path), data, re.compile(folder + r"/[^/]+\.md"), marker)
        out += [p for p in paths if p not in out]
        held += states
    return out, held


#: The cause line ``import --from-openclaw`` writes into each section it copies (transfer.py).
_IMPORTED_FROM = re.compile(r"(?:Imported from OpenClaw note|从 OpenClaw 笔记导入：)\s*(" + re.escape(tree.MEMORY)
                            + r"/[^\s/]+\.md)\s*$")


def _openclaw_sources(ws: Path, target: Ref) -> list[str]:
    """The OpenClaw notes that still hold the text of a section ``import --from-openclaw`` copied.

    OpenClaw's own notes are never changed by this bundle (they are the
    Gateway's), so ``forget`` of the copy cannot remove the text there, and
    recall keeps finding it: forget names each such note so the user can edit
    it (issue 10: forget says what it could not remove). A note counts when
    it still holds one of the section's lines.
    """
    item = target.item
    if not isinstance(item, entries.DailySection):
        return []
    notes = []
    lines = [t.strip() for kind, t in item.items if not _IMPORTED_FROM.search(t.strip())]
    lines += [t.strip() for t in getattr(item, "other", []) or []]
    lines = [t for t in lines if len(t) >= 4]
    for _kind, text in item.items:
        found = _IMPORTED_FROM.search(text.strip())
        if not found or found.group(1) in notes:
            continue
        path = Path(ws) / found.group(1)
        if not path.is_file() or not entries.stays_inside(ws, path):
            continue
        try:
            body = read_text(path).text
        except MemoryManagerError:
            continue
        if any(t in body for t in lines):
            notes.append(found.group(1))
    return notes


def _forget_origin(ws: Path, target: Ref) -> list[str]:
    """For a quarantined entry that was a file of its own, the T2 file it came from (gone now):
    the cleanup backup that moved it names that file (issue 10)."""
    if target.kind != "quarantine":
        return []
    from . import quarantine

    try:
        _, meta = quarantine.read(target.path)
    except MemoryManagerError:
        return []
    origin = str(meta.get("origin") or "")
    if meta.get("origin_form") != "single" or not origin or backups._rel_problem(origin):
        return []
    if (Path(ws) / origin).exists():  # a new entry lives there now: its copies stay
        return []
    return [origin]


def _archived_piece(ws: Path, target: Ref) -> str:
    """The archived entry's characters as found by :func:`resolve` (re-read to compare)."""
    # The file resolve chose (by id, or by path when another archive file holds the same id).
    return read_text(target.path).text[target.item.span[0]:target.item.span[1]]


def _forget_needles(ws: Path, cfg: dict[str, Any], target: Ref) -> list[str]:
    """What identifies the content ``forget`` removes, for :func:`erasure.erase`.

    The section's or file's exact text; for T2 the ciphertext and, when the
    key is there, the plain text (sealed backup copies are searched decrypted).
    """
    from .errors import CryptoError, KeyUnavailableError

    item = target.item
    text = read_text(target.path).text
    if target.kind == "archived":
        from .unarchive import _strip_comment

        piece = text[item.span[0]:item.span[1]]
        # The archive's copy and the live text it was cut from (backups made before
        # the prune hold it without the archive comment).
        return [n for n in (piece.rstrip("\n"), _strip_comment(piece).rstrip("\n").strip()) if n]
    if isinstance(item, entries.DailySection):
        # The heading line too: older versions of the section (before a write merged
        # lines into it) are in earlier backups of the note (issue 11).
        section = text[item.span[0]:item.span[1]].rstrip("\n")
        return [section, section.split("\n", 1)[0] + "\n"]  # whole line: "Docs" never matches "Docs review"
    if isinstance(item, entries.Entry) and target.kind != "knowledge":
        return [text[item.span[0]:item.span[1]].rstrip("\n")]
    if target.kind in ("t2", "quarantine"):
        found = [item] if item is not None else tiers.parse_t2(text, target.path)
        out = []
        for entry in found:
            out.append(entry.ciphertext)
            try:
                out.append(tiers.decrypt_entry(entry, cfg))
            except (KeyUnavailableError, CryptoError):
                pass
        if item is None:
            out.append(text)
        return [n for n in out if n]
    return [text]


def check(ws: Path) -> list[str]:
    """Return a problem line for every malformed file in ``memory/`` (nothing is rewritten)."""
    problems: list[str] = []
    list(entries.iter_daily(ws, problems))
    list(entries.iter_knowledge(ws, problems))
    for entry in tiers.iter_t2_entries(ws):
        if entry.error:
            problems.append(f"{entry.path.name}: {entry.error}")
    folder = entries.memory_dir(ws) / tiers.T1_DIR
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            try:
                tiers.load_stats(path)
            except Exception as exc:  # MalformedFileError / UnreadableFileError: report, never raise
                problems.append(f"{path.name}: {exc}")
    return problems


def _mask(text: str) -> str:
    """Return ``text`` with its secrets masked as recall masks them (for error messages, issue 10).

    Read as a name too (``privacy.mask_name``): a number glued into a slug is masked.
    """
    from .privacy import mask_name

    return mask_name(text)
