"""Where recall finds its entries: the memory files it reads, and T2 entries decrypted in memory.

The files are read by :func:`memory_manager.entries.parse_entries` (the one
reader of the Markdown formats; its :class:`~memory_manager.entries.Entry`
is the unit of recall, show, forget and pruning); this module only lists
them (:func:`source_files`) and adds T2 entries at query time.

Sources: ``memory/daily/``, ``memory/knowledge/``, OpenClaw's
``memory/YYYY-MM-DD*.md``, the lessons file (``MEMORY.md`` and ``memory.md``,
both when they are two files), ``memory/summaries/``,
``memory/tier1-public/`` and ``library/`` when they exist (the Optimization
seed's L0-L3 layers). T2 entries are never read from disk into the index;
:func:`t2_entries` decrypts them in memory at query time (see there).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from .jsonio import parse as _parse_json
from . import tree
from .clock import parse_day
from .entries import Entry, parse_entries, stable_id  # noqa: F401 - Entry and stable_id are part of this API

#: source kinds that this bundle created (pruning may rewrite only these).
OWN_KINDS = ("daily", "knowledge")

_DATE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})")
_OPENCLAW_NOTE = re.compile(r"^\d{4}-\d{2}-\d{2}.*\.md$")


def _inside(path: str, root_real: str) -> bool:
    """True when ``path`` (symlinks resolved) lies inside ``root_real`` (already resolved)."""
    real = os.path.realpath(path)
    return real == root_real or real.startswith(root_real + os.sep)


def _walk_md(folder: str, prefix: str, recursive: bool, out: list, kind: str,
             name_ok=None, root_real: str = "") -> None:
    """Append ``(relative path, kind, DirEntry)`` for each ``*.md`` under ``folder``.

    Plain strings and ``os.scandir`` (no ``pathlib``): this runs on every recall,
    over every memory file, so it must stay cheap. A folder or file that is a
    symlink leading out of the workspace (``root_real``) is skipped: recall
    never reads outside the workspace, like every other command.
    """
    if root_real and not _inside(folder, root_real):
        return
    try:
        with os.scandir(folder) as it:
            items = sorted(it, key=lambda d: d.name)
    except OSError:
        return
    for item in items:
        name = item.name
        if name.startswith("."):
            continue
        if item.is_symlink() and root_real and not _inside(item.path, root_real):
            continue
        if name.endswith(".md") and item.is_file():
            if name_ok is None or name_ok(name):
                out.append((prefix + name, kind, item))
        elif recursive and item.is_dir(follow_symlinks=False):
            _walk_md(item.path, prefix + name + "/", True, out, kind, name_ok, root_real)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def scan_sources(ws: Path) -> list[tuple[str, str, os.DirEntry]]:
    """Like :func:`source_files`, with each file's ``os.DirEntry`` (for a cheap ``stat``)."""
    root = os.fspath(ws)
    real = os.path.realpath(root)
    mem = os.path.join(root, tree.MEMORY)
    found: list[tuple[str, str, os.DirEntry]] = []

    def under(name: str, kind: str, recursive: bool = False, name_ok=None) -> None:
        _walk_md(os.path.join(mem, name), tree.rel(name) + "/", recursive, found, kind, name_ok, root_real=real)

    under(tree.DAILY, "daily")
    under(tree.KNOWLEDGE, "knowledge")
    _walk_md(mem, tree.MEMORY + "/", False, found, "openclaw", _OPENCLAW_NOTE.match, root_real=real)
    top: list = []
    _walk_md(root, "", False, top, "memory_md", lambda n: n in tree.MEMORY_MD_NAMES, root_real=real)
    top.sort(key=lambda t: t[0] != tree.MEMORY_MD)  # MEMORY.md first: OpenClaw loads it over memory.md
    if len(top) == 2 and _same_file(top[0][2].path, top[1][2].path):
        top = top[:1]  # one file under two spellings (a case-insensitive file system)
    found.extend(top)  # two different files: both hold the user's memory, both are searched
    under(tree.SUMMARIES, "summary", recursive=True)
    under(tree.TIER1, "t1")
    _walk_md(os.path.join(root, tree.LIBRARY), tree.LIBRARY + "/", True, found, "library", root_real=real)
    return found


def source_files(ws: Path) -> list[tuple[str, str]]:
    """List the Markdown files recall reads, as ``(relative path, kind)``.

    Kinds: ``daily``, ``knowledge``, ``openclaw``, ``memory_md``, ``summary``,
    ``t1``, ``library``. Hidden files and folders are skipped; the archive,
    T2 folder and the generated indexes are not sources.
    """
    return [(rel, kind) for rel, kind, _ in scan_sources(ws)]


def parse_file(rel: str, kind: str, text: str) -> tuple[list[Entry], str | None]:
    """Split one file into entries with the format reader (:func:`memory_manager.entries.parse_entries`).

    Returns ``(entries, error)``; ``error`` names a malformed file (no entries then).
    Archive files (kind ``archive``) go through :func:`parse_archive`.
    """
    if kind == "archive":
        return parse_archive(rel, text), None
    return parse_entries(rel, kind, text)


def scan_archive(ws: Path) -> list[tuple[str, str, os.DirEntry]]:
    """``(relative path, "archive", DirEntry)`` for each ``memory/archive/**/*.md`` (recall searches them)."""
    root = os.fspath(ws)
    found: list[tuple[str, str, os.DirEntry]] = []
    _walk_md(os.path.join(root, tree.MEMORY, tree.ARCHIVE), tree.rel(tree.ARCHIVE) + "/", True, found, "archive",
             root_real=os.path.realpath(root))
    return found


_ARCHIVED = re.compile(r"<!--\s*archived:\s*(\{.*?\})\s*-->", re.S)


def parse_archive(rel: str, text: str) -> list[Entry]:
    """Entries of an archive file, each with the id, date and heading it had when live.

    Archived sections and knowledge files end with ``<!-- archived: {...} -->``
    (``cmm-archive``, written by prune); its ``id``/``created``/``heading``
    are used and the comment is not part of the text. Archived T2 files
    (``cmm-t2``: expired entries, moved by cleanup) give no entries: an
    expired T2 entry never comes back through recall.
    """
    import json

    head = text[:400]
    if re.search(r"^format:\s*[\"']?cmm-t2", head, re.M):
        return []
    out = []
    for e in parse_entries(rel, "archive", text)[0]:
        m = _ARCHIVED.search(e.text)
        if m:
            try:
                meta = _parse_json(m.group(1))
            except ValueError:
                meta = {}
            if isinstance(meta, dict):
                e.id = str(meta.get("id") or e.id)
                e.date = _iso(meta.get("created")) or e.date
                e.heading = str(meta.get("heading") or e.heading)
                e.meta["archived"] = meta
            e.text = _ARCHIVED.sub("", e.text).strip()
        out.append(e)
    return out


def parse_text(rel: str, kind: str, text: str) -> list[Entry]:
    """Like :func:`parse_file`, entries only (a malformed file has none)."""
    return parse_entries(rel, kind, text)[0]


def _iso(value: Any) -> str | None:
    """``YYYY-MM-DD`` of a real calendar date at the start of ``value``, else None."""
    day = parse_day(value)
    return day.isoformat() if day else None


def t2_entries(ws: Path, cfg: dict[str, Any], record: bool = True, approved: bool = False,
               stats: dict[str, int] | None = None) -> list[Entry]:
    """Return decrypted T2 entries that may be reused, or ``[]``.

    The hook point for tier 2 (Tiers seed). Reusing T2 memory needs the
    user's approval in both gate modes (references/gate.md), so without
    ``approved`` nothing is decrypted: the entries that could have been used
    are only counted (``stats["held"]``) so the caller can ask. With it, an
    entry is included when (1) it has not expired, (2) its key is available
    and it decrypts (``tiers.decrypt_entry``; entries without their key are
    counted in ``stats["locked"]``, undecryptable ones skipped), and (3) the
    memory gate allows the reuse (``gate.evaluate("reuse", plaintext,
    approved=True)``: secrets and T3 stay refused). Plaintext lives only in
    memory: it is never written to the index. ``record`` appends each gate
    decision to the audit log; recall passes ``track`` so ``--no-track``
    writes nothing.
    """
    # Imported here, not at the top: recall reaches T2 only when asked, and the
    # gate's detectors (phone numbers, ids) are costly to load on every recall.
    from . import gate, tiers
    from .clock import today
    from .errors import CryptoError, KeyUnavailableError, MalformedKeyError

    counts = stats if stats is not None else {}
    for name in ("held", "locked", "refused", "included"):
        counts.setdefault(name, 0)
    out: list[Entry] = []
    ws = Path(ws)
    for item in tiers.iter_t2_entries(ws):
        if getattr(item, "error", None) or Path(item.path).is_symlink():
            continue
        expires = _iso(getattr(item, "expires", None))
        if expires and expires < today().isoformat():
            continue
        if not approved:
            counts["held"] += 1
            continue
        try:
            plain = tiers.decrypt_entry(item, cfg)
        except KeyUnavailableError:
            counts["locked"] += 1
            continue
        except MalformedKeyError:
            raise  # fail closed: a broken key is an error, not a locked entry
        except CryptoError:
            continue
        # Stored T2 entries went through the gate when written: a stored preference.
        decision = gate.evaluate("reuse", plain, source="approved_preference", approved=True, cfg=cfg,
                                 tier="internal", request="recall")
        if record:
            gate.record(ws, decision, entry=getattr(item, "id", None) or None)
        if not decision.allowed:
            counts["refused"] += 1
            continue
        counts["included"] += 1
        rel = Path(item.path).relative_to(ws).as_posix() if Path(item.path).is_absolute() else str(item.path)
        created = _iso(getattr(item, "created", None))
        from . import history

        plain = history.split(plain)[0]  # recall scores the current text, never the kept history
        for entry in parse_text(rel, "t2", plain):
            entry.date = entry.date or created
            entry.span = (0, 0)
            entry.id = getattr(item, "id", "") or entry.id  # the store's t-… id: `memory.py show` takes it
            out.append(entry)
    return out
