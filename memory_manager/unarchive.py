"""``memory.py unarchive ID``: bring one archived entry back into live memory.

``prune`` (and cleanup's capacity window) move daily sections to
``memory/archive/<YYYY-MM>/daily-<date>.md`` and knowledge files to
``memory/archive/<YYYY-MM>/knowledge-<key>.md``, each ending with its
``<!-- archived: {...} -->`` comment (``cmm-archive``). Recall finds them
(marked ``archived``); this puts one back where it came from:

- a daily section goes back, verbatim and without the comment, at the end of
  ``memory/daily/<date>.md`` (refused when a live section has its id);
- a knowledge file goes back to ``memory/knowledge/<key>.md`` (refused when
  that file exists: ``learn`` or ``edit`` it instead).

Both files are backed up first and written atomically under the workspace
lock; the archive file loses the entry (and is removed when nothing else is
left in it); the indexes are rebuilt. Archived T2 files are expired entries
and are never brought back.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from . import backups, entries, tree, units
from .errors import BadInputError, InvalidNameError, NotFoundError
from .fsio import atomic_write_text, read_text, remove, workspace_lock
from .names import validate_key


def find_archived(ws: Path, ident: str) -> tuple[Path, units.Entry, str]:
    """Return ``(archive file, entry, file text)`` of the archived entry ``ident``.

    Raises:
        NotFoundError: no archived entry has that id.
    """
    from .store import shared_id_error

    found = find_all_archived(ws, ident)
    if len(found) > 1:  # one id in two archive files: which one was meant cannot be told (tatk19)
        raise shared_id_error(ws, ident, [path for path, _, _ in found])
    if found:
        return found[0]
    raise NotFoundError(f"no archived entry {_mask(ident)!r} (memory.py recall shows archived hits with their ids)")


def _pick(ws: Path, ref: str) -> tuple[Path, units.Entry, str]:
    """The archived entry ``ref`` names: an id one archive file holds, or ``<path>#<id>`` (one of the
    files an id is held by, :func:`memory_manager.store.shared_id_error`).

    Raises:
        NotFoundError, BadInputError.
    """
    if "#" not in ref:
        return find_archived(ws, ref)
    from .store import resolve

    target = resolve(ws, ref)
    if target.kind != "archived":
        raise NotFoundError(f"no archived entry {_mask(ref)!r} (memory.py recall shows archived hits with their ids)")
    return target.path, target.item, read_text(target.path).text


def find_all_archived(ws: Path, ident: str) -> list[tuple[Path, units.Entry, str]]:
    """Every ``(archive file, entry, file text)`` holding archived entry ``ident`` (ids are unique within
    a file, so one per file; two when a file was copied by hand or an id was reused, tatk19)."""
    out = []
    for rel, _, _ in units.scan_archive(ws):
        path = Path(ws) / rel
        try:
            text = read_text(path).text
        except Exception:  # UnreadableFileError: not ours to judge here; skip it
            continue
        if ident not in text:
            continue
        for e in units.parse_archive(rel, text):
            if e.id == ident and "archived" in e.meta:
                out.append((path, e, text))
                break
    return out


def _strip_comment(piece: str) -> str:
    return units._ARCHIVED.sub("", piece).rstrip() + "\n"


def unarchive(ws: Path, cfg: dict[str, Any], ref: str, *, approved: bool = False) -> dict[str, Any]:
    """Move archived entry ``ref`` back to live memory (see the module docstring).

    Returns ``{"action": "unarchive", "id", "kind", "from", "to", "backup", "gate"}``.

    Raises:
        BadInputError: empty id, or the live place is taken; NotFoundError;
        GateDecisionError; FileWriteError.
    """
    from .store import _gate, rel, safe_target

    ident = ref.strip()
    if not ident:
        raise BadInputError("give the id of an archived entry")
    # An unarchive killed part-way is rolled back before the lookup (as forget and
    # init do): else the re-run finds the entry live, not archived, and stops.
    backups.repair(ws)
    path, entry, text = _pick(ws, ident)
    pick, ident = ident, entry.id
    meta = entry.meta["archived"]
    kind = meta.get("kind")
    key = None
    if kind == "knowledge":
        # The key comes from data (the archive comment, else the file name): it
        # becomes a file name again, so it is validated as ``learn`` validates it
        # and passes the gate as a name (issue 10).
        raw_key = Path(str(meta.get("source") or "")).stem or Path(path).stem.removeprefix("knowledge-")
        try:
            key = validate_key(raw_key)
        except InvalidNameError as exc:
            raise BadInputError(f"archived entry {ident} names no valid knowledge key ({exc}); left in the archive") \
                from None
    # Bringing memory back is a store: the gate sees the text again (rules may have changed).
    decision = _gate(ws, "store", entry.text if key is None else f"{key}\n{entry.text}", source="explicit_user",
                     sensitivity=None, approved=approved, cfg=cfg, request=f"unarchive {ident}",
                     names={"key": key} if key is not None else None, entry=ident)
    mem = tree.Tree(Path(ws))
    with workspace_lock(ws):
        like = read_text(path)
        if like.text != text:
            path, entry, text = _pick(ws, pick)
            like = read_text(path)
        start, end = entry.span
        if kind == "knowledge":
            target = safe_target(ws, mem.knowledge / f"{key}.md")
            if target.exists():
                raise BadInputError(f"{rel(ws, target)} exists: learn or edit it instead of unarchiving")
            restored_text = _strip_comment(text)
            # Its frontmatter must name the same key (a file whose key differs from
            # its name would be read as another entry): parsed as learn would.
            restored = entries.parse_knowledge(restored_text, target)
            if restored.key != key:
                raise BadInputError(f"archived entry {ident}: its frontmatter key {restored.key!r} is not {key!r}; "
                                    "left in the archive")
            rest = ""
        else:
            day = str(meta.get("created") or entry.date or "")
            if entries.parse_day_text(day) is None:
                raise BadInputError(f"archived entry {ident} has no date to go back to")
            target = safe_target(ws, mem.daily / f"{day[:10]}.md")
            current = read_text(target) if target.exists() else None
            if current is not None and any(s.id == ident for s in entries.parse_daily(current.text, target)):
                raise BadInputError(f"{ident} is live in {rel(ws, target)} already")
            piece = _strip_comment(text[start:end])
            base = current.text.rstrip("\n") if current else f"# {day[:10]}"
            restored_text = base + "\n\n" + piece
            rest = text[:start] + text[end:]
        backup = backups.start(ws, f"unarchive {ident}", allow_withheld=approved)
        backup.save(path)
        backup.save(target)  # a missing file is recorded too, so a restore removes it again
        atomic_write_text(target, restored_text, read_text(target) if target.exists() else None)
        if rest and units.parse_archive(rel(ws, path), rest):
            atomic_write_text(path, rest.rstrip("\n") + "\n", like)
        else:
            remove(path)
        entries.rebuild_indexes(ws, cfg)
    return {"action": "unarchive", "id": ident, "kind": kind or "daily", "from": rel(ws, path),
            "to": rel(ws, target), "backup": backup.id, "gate": decision.payload()}


def _mask(text: str) -> str:
    """Return ``text`` with its secrets masked as recall masks them (for error messages, issue 10).

    Read as a name too (``privacy.mask_name``): a number glued into a slug is masked.
    """
    from .privacy import mask_name

    return mask_name(text)
