"""Value-based pruning and the capacity window (Optimization seed), plus ``status`` metrics.

Pruning has no query, so each entry gets the *value score*
(:func:`memory_manager.scoring.value_score`: time, access and tags with the
weights rescaled to sum to 1). Two rules pick what moves to the archive, in
this order (Optimization seed, issue 4):

1. value under ``prune.threshold`` (0.6): "below threshold";
2. while more than ``prune.window`` (200) entries would remain, the lowest
   value first: "beyond capacity window".

Never moved: entries dated within ``prune.protect_recent_days`` (7) days
(too new to have been recalled: the seed's grace period) and pinned entries
(``<!-- pinned -->`` or ``pinned: true``): the user said to keep them.
Only entries of files this bundle created can move (``memory/daily/`` and
``memory/knowledge/``); OpenClaw's own notes, MEMORY.md, summaries, library
pages and T2 files are read-only here. They do not count towards the window
either: the window caps the entries this bundle manages.

Moving (never deleting): a daily-note section is cut out of its note and
appended, verbatim, to ``memory/archive/<YYYY-MM>/daily-<date>.md``; a
knowledge entry's file is copied verbatim to
``memory/archive/<YYYY-MM>/knowledge-<key>.md`` and then removed from
``memory/knowledge/``. ``YYYY-MM`` is the entry's month of creation. Each
archived entry ends with an ``<!-- archived: {...} -->`` comment (format
``cmm-archive`` v1, ``references/formats.md``) holding its metadata and why
it moved. Every changed or created file is backed up first
(:mod:`memory_manager.backups`), all writes land together
(:class:`memory_manager.fsio.Transaction`) under the workspace lock, then the
store's ``entries.rebuild_indexes`` brings ``daily-index.md`` and
``knowledge-index.md`` in line.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import entries, privacy, scoring, tree, units

ARCHIVE_FORMAT = {"format": "cmm-archive", "version": 1}
ARCHIVE_DIR = tree.Tree(Path()).archive
#: The store's generated indexes (contracts), refreshed after a prune.
INDEX_FILES = (tree.rel(tree.DAILY_INDEX), tree.rel(tree.KNOWLEDGE_INDEX))


@dataclass
class Valued:
    """An entry with its value score and parts."""

    row: dict[str, Any]
    value: float
    time: float
    access: float
    tags: float
    protected: str | None = None  # "pinned" / "recent" or None

    def as_dict(self) -> dict[str, Any]:
        r = self.row
        return {"path": r["path"], "heading": r["heading"], "id": r["id"], "date": r["date"], "kind": r["kind"],
                "value": round(self.value, 6),
                "parts": {"time": round(self.time, 6), "access": round(self.access, 6), "tags": round(self.tags, 6)},
                "protected": self.protected}


@dataclass
class Move:
    """One entry to archive: the valued entry, why, and where it goes."""

    item: Valued
    reason: str
    archive: str  # workspace-relative archive file

    def as_dict(self) -> dict[str, Any]:
        return dict(self.item.as_dict(), reason=self.reason, archive=self.archive)


@dataclass
class Plan:
    """What a prune would do: ``moves`` plus the figures ``status`` reports."""

    moves: list[Move] = field(default_factory=list)
    valued: list[Valued] = field(default_factory=list)
    total_entries: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"moves": [m.as_dict() for m in self.moves], "would_move": len(self.moves),
                "prunable_entries": len(self.valued), "total_entries": self.total_entries}


def _value_all(ws: Path, cfg: dict[str, Any], idx) -> tuple[list[Valued], list[dict[str, Any]]]:
    from . import access
    from .clock import now as clock_now

    now = clock_now()
    today = now.date()
    stats = access.load(ws)
    rows = idx.all_entries()
    valued = []
    protect_days = cfg["prune"]["protect_recent_days"]
    for row in rows:
        if row["kind"] not in units.OWN_KINDS:
            continue
        age = scoring.age_days(row["date"], today)
        st = stats.get(row["id"]) if isinstance(stats.get(row["id"]), dict) else {}
        t = scoring.time_score(age, cfg)
        a = scoring.access_score(int(st.get("count", 0)), access.days_since(st.get("last"), now), cfg)
        g = scoring.tag_score(json.loads(row["tag_terms"] or "[]"), None, cfg)
        protected = None
        if row["pinned"]:
            protected = "pinned"
        elif age is None or age <= protect_days:
            # Undated entries count as new: we cannot show they are old, so we keep them.
            protected = "recent"
        valued.append(Valued(row, scoring.value_score(t, a, g, cfg), t, a, g, protected))
    return valued, rows


def _archive_rel(ws: Path, row: dict[str, Any], today_month: str, taken: set[str]) -> str:
    """Archive file for an entry: sections of a daily note share one file per note; a
    knowledge entry keeps a file of its own (``-2``, ``-3``... when the name is taken)
    so its frontmatter stays at the top."""
    month = row["date"][:7] if row["date"] else today_month
    stem = Path(row["path"]).stem
    if row["kind"] != "knowledge":
        return (ARCHIVE_DIR / month / f"daily-{stem}.md").as_posix()
    n = 1
    while True:
        rel = (ARCHIVE_DIR / month / f"knowledge-{stem}{'' if n == 1 else f'-{n}'}.md").as_posix()
        if rel not in taken and not (ws / rel).exists():
            taken.add(rel)
            return rel
        n += 1


def plan(ws: Path, cfg: dict[str, Any], idx=None, use_threshold: bool = True) -> Plan:
    """Work out which entries a prune would move, without changing anything.

    ``use_threshold=False`` applies the capacity window only (what cleanup
    does unless ``prune.auto_threshold`` is set: see ``config.json``).

    Returns a :class:`Plan`; ``moves`` is in the order entries would move
    (threshold first, then the capacity window, each lowest value first).
    """
    from .clock import month_of, today
    from .index import open_index

    own = idx is None
    idx = open_index(ws) if own else idx
    try:
        valued, rows = _value_all(ws, cfg, idx)
        by_kind = idx.counts_by_kind()
    finally:
        if own:
            idx.close()
    threshold, window = cfg["prune"]["threshold"], cfg["prune"]["window"]
    month = month_of(today())
    order = sorted(valued, key=lambda v: (v.value, v.row["date"] or "", v.row["path"], v.row["ordinal"]))
    moves: list[Move] = []
    chosen: set[str] = set()
    taken: set[str] = set()
    for v in order:
        if use_threshold and v.protected is None and v.value < threshold:
            moves.append(Move(v, f"value {v.value:.3f} below threshold {threshold:g}", _archive_rel(ws, v.row, month, taken)))
            chosen.add(v.row["id"] + "\0" + v.row["path"])
    remaining = len(valued) - len(moves)
    for v in order:
        if remaining <= window:
            break
        key = v.row["id"] + "\0" + v.row["path"]
        if v.protected is None and key not in chosen:
            moves.append(Move(v, f"beyond capacity window {window} (value {v.value:.3f})",
                              _archive_rel(ws, v.row, month, taken)))
            chosen.add(key)
            remaining -= 1
    return Plan(moves, valued, len(rows), by_kind)


def _archive_comment(move: Move, archived_at: str) -> str:
    r = move.item.row
    meta = dict(ARCHIVE_FORMAT, id=r["id"], source=r["path"], kind=r["kind"], heading=r["heading"],
                created=r["date"], tags=json.loads(r["tags"] or "[]"), archived=archived_at,
                reason=move.reason, value=round(move.item.value, 6),
                parts={"time": round(move.item.time, 6), "access": round(move.item.access, 6),
                       "tags": round(move.item.tags, 6)})
    return "<!-- archived: " + json.dumps(meta, ensure_ascii=False, allow_nan=False).replace("--", "\\u002d\\u002d") + " -->"


_ARCHIVED = re.compile(r"^<!-- archived: (\{.*\}) -->$", re.M)


def read_archived(text: str) -> list[dict[str, Any]]:
    """Return the metadata of each entry archived in ``text`` (an archive file), in order.

    The reader of :func:`_archive_comment`'s ``cmm-archive`` v1 comment:
    one dict per ``<!-- archived: {...} -->`` line (``id``, ``source``,
    ``kind``, ``heading``, ``created``, ``archived``, ``reason``, ...).
    Lines that do not parse, or of another format or a newer version, are
    skipped.
    """
    out = []
    for m in _ARCHIVED.finditer(text):
        try:
            meta = json.loads(m.group(1))
        except ValueError:
            continue
        if isinstance(meta, dict) and meta.get("format") == ARCHIVE_FORMAT["format"] \
                and isinstance(meta.get("version"), int) and meta["version"] <= ARCHIVE_FORMAT["version"]:
            out.append(meta)
    return out


def prune(ws: Path, cfg: dict[str, Any], dry_run: bool = False, use_threshold: bool = True,
          get_backup: Callable[[], Any] | None = None) -> dict[str, Any]:
    """Archive low-value entries (see the module docstring); ``dry_run`` only reports.

    ``use_threshold=False``: capacity window only. ``get_backup``: returns the
    open :class:`~memory_manager.backups.Backup` to record changes in (cleanup
    passes its own, so one restore undoes the whole cleanup); default: a new
    backup with reason ``prune``, made only when something moves.

    Returns ``{"dry_run", "moved": [...], "would_move", "prunable_entries",
    "total_entries", "changed": [paths], "backup": id|None, "indexes": [paths],
    "warnings": [...]}``.

    Raises:
        WorkspaceError: not a dry run and ``ws`` is not set up (no ``memory/`` folder).
        BackupError: a backup could not be made (nothing changed).
        FileWriteError: writing failed (originals left as they were).
    """
    from . import backups
    from .clock import now
    from .fsio import Transaction, read_text, workspace_lock
    from .index import open_index

    ws = Path(ws)
    if dry_run:
        from .index import open_scratch_index

        idx = open_scratch_index(ws)  # a dry run writes nothing, derived cache included
        try:
            p = plan(ws, cfg, idx, use_threshold=use_threshold)
        finally:
            idx.close()
        return dict(p.as_dict(), dry_run=True, moved=[], changed=[], backup=None, indexes=[], warnings=[])
    from .workspace import require_set_up

    # A real prune writes memory/.cache, memory/archive and .memory-backup/:
    # refused (bad input) in a folder init.py never set up, before the lock.
    require_set_up(ws)
    with workspace_lock(ws):
        idx = open_index(ws)
        try:
            p = plan(ws, cfg, idx, use_threshold=use_threshold)
        finally:
            idx.close()
        result = dict(p.as_dict(), dry_run=False, moved=[], changed=[], backup=None, indexes=[], warnings=[])
        if not p.moves:
            return result
        stamp = now().isoformat(timespec="seconds")
        by_source: dict[str, list[Move]] = {}
        for m in p.moves:
            by_source.setdefault(m.item.row["path"], []).append(m)
        new_text: dict[str, str] = {}  # workspace-relative path -> new content
        like: dict[str, Any] = {}
        removals: list[str] = []
        archive_add: dict[str, list[str]] = {}
        moved: list[Move] = []
        for rel, moves in by_source.items():
            tf = read_text(ws / rel)
            kind = moves[0].item.row["kind"]
            fresh = {e.id: e for e in units.parse_text(rel, kind, tf.text)}
            cut: list[tuple[int, int]] = []
            for m in moves:
                e = fresh.get(m.item.row["id"])
                if e is None:  # edited since the index saw it: leave it for the next run
                    result["warnings"].append(f"{rel}: entry {m.item.row['id']} changed meanwhile; skipped")
                    continue
                piece = tf.text if kind == "knowledge" else tf.text[e.span[0]:e.span[1]]
                archive_add.setdefault(m.archive, []).append(
                    piece.rstrip("\n") + "\n" + _archive_comment(m, stamp) + "\n")
                cut.append(e.span)
                moved.append(m)
            if not cut:
                continue
            if kind == "knowledge":
                removals.append(rel)
            else:
                text = tf.text
                for start, end in sorted(cut, reverse=True):
                    text = text[:start] + text[end:]
                new_text[rel] = text
                like[rel] = tf
        if not moved:
            return result
        for arch, pieces in archive_add.items():
            path = ws / arch
            if path.exists():
                tf = read_text(path)
                base = tf.text if tf.text.endswith("\n") or not tf.text else tf.text + "\n"
                like[arch] = tf
            elif arch.split("/")[-1].startswith("knowledge-"):
                base = ""  # the knowledge file verbatim: its frontmatter stays first
            else:
                src = next(m.item.row["path"] for m in moved if m.archive == arch)
                base = f"# Archived from {src}\n\n"
            new_text[arch] = base + "\n".join(pieces)
        backup = get_backup() if get_backup is not None else backups.start(ws, "prune", allow_withheld=True)
        for arch in archive_add:
            missing = [f for f in (ws / arch).parents if f != ws and not f.exists() and ws in f.parents]
            for folder in reversed(missing):  # outermost first, so a restore removes them all
                backup.save_new_dir(folder)
        # The store's index files are rewritten by rebuild_indexes() below: back them up too,
        # so restoring this backup undoes the whole prune. One batch: linear in files.
        backup.save_many([ws / rel for rel in [*new_text, *removals, *INDEX_FILES]])
        tx = Transaction()
        # Destinations first: the commit renames in staging order, so a kill
        # between two renames leaves an entry in the archive and its source,
        # never in neither (issue 11: a move writes before it deletes).
        order = sorted(new_text, key=lambda rel: rel not in archive_add)
        for rel in order:
            text = new_text[rel]
            data = like[rel].encode(text) if rel in like else text.encode("utf-8")
            tx.stage(ws / rel, data)
        tx.commit()
        from .fsio import remove

        for rel in removals:
            remove(ws / rel)
        result.update(moved=[m.as_dict() for m in moved], changed=sorted(list(new_text) + removals),
                      backup=backup.id)
        result["indexes"], warn = _rebuild_indexes(ws, cfg)
        result["warnings"].extend(warn)
    return result


def _rebuild_indexes(ws: Path, cfg: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Rebuild the daily and knowledge indexes; return (changed paths, warnings)."""
    changed = entries.rebuild_indexes(ws, cfg)
    return [Path(p).relative_to(ws).as_posix() if Path(p).is_absolute() else str(p) for p in changed], []


def status(ws: Path, cfg: dict[str, Any]) -> dict[str, Any]:
    """The seed's metrics: memory size, average value, prune rate, plus entries per tier.

    - ``memory_size``: entries recall can see (all sources) and their bytes;
    - ``average_value``: mean value score of the entries pruning manages;
    - ``prune_rate``: share of those a prune would move now (seed target < 0.2);
    - ``tiers`` (the Tiers seed's definitions, as in the README): ``t1`` the
      statistics files ``memory/tier1-public/*_stats.json`` and ``t1_skills``
      the skills counted in them; ``t2`` the entries in
      ``memory/tier2-internal/`` (a multi file holds several); ``t3`` always 0
      (the Tiers seed never stores private data). Daily-note sections and
      knowledge entries are plain memory, not a tier: they are counted apart
      in ``daily`` and ``knowledge``;
    - ``t2_by_scheme``: how many T2 entries are ``aes-gcm`` (encrypted),
      ``xor-b64`` (obfuscated only) and ``plain`` (not sealed yet);
    - ``time_zone``: the zone notes are dated in, the rule that chose it
      (:func:`memory_manager.clock.user_zone`) and today's date there;
    - ``cleanup_preview``: what the next automatic cleanup's capacity window
      would archive now (``would_archive``; the threshold too only with
      ``prune.auto_threshold``), so a user sees it before it applies, plus the
      T2 entries past their expiry (``expired_t2``) that its step 2 archives;
      ``archived_entries``: entries in ``memory/archive/`` (recall still finds them);
    - ``interrupted``: changes a killed command left half-done (its journal is
      still there) and what the next command that writes will do about each
      (:func:`memory_manager.backups.pending`: roll back, finish, keep as left):
      the figures above count their files as they are now. status never
      repairs them (it only reads; issue 11);
    - ``indexes_stale``: None, or what stands at ``memory/.state/indexes-stale``
      (:func:`memory_manager.backups.stale_mark`): ``"file"`` when a failed
      command could not bring the derived indexes in line (the next command
      that writes rebuilds them), another kind when something was planted there;
    - ``problems``: memory files whose name holds an impossible date
      (``2026-13-45``: read as undated), unreadable T1/T2 files, and
      notes that are not UTF-8 text (counted nowhere, never searched).
    """
    from . import tiers
    from .clock import parse_day, today, user_zone
    from .errors import MemoryManagerError
    from .index import open_index, open_scratch_index
    from .workspace import is_set_up

    # status only reads: in a folder without memory/ it uses a scratch index
    # (a temporary folder) so that it creates no memory/.cache there.
    idx = open_index(ws) if is_set_up(ws) else open_scratch_index(ws)
    try:
        p = plan(ws, cfg, idx)
        # What the next automatic cleanup would archive: the capacity window (and the
        # threshold only with prune.auto_threshold), shown before it applies (issue 13).
        auto = plan(ws, cfg, idx, use_threshold=cfg["prune"]["auto_threshold"]) \
            if cfg["prune"]["enable_auto_prune"] else None
        # MEMORY.md holding only init's template (no lesson yet) is init's file, not memory: not
        # counted as memory size (nu16 item 9). A note left with its title line still counts.
        size = idx.conn.execute("SELECT coalesce(sum(size), 0), count(*) FROM files"
                                " WHERE kind != 'archive' AND (kind != 'memory_md' OR EXISTS (SELECT 1 FROM"
                                " entries WHERE entries.file_no = files.file_no))").fetchone()
        archived = idx.conn.execute("SELECT count(*) FROM entries WHERE archived = 1").fetchone()[0]
        unreadable = [f"{path}: {why}; not searched" for path, why in idx.malformed()]
    finally:
        idx.close()
    problems: list[str] = list(unreadable)
    from . import access

    unusable = access.read(ws)[1]
    if unusable:
        problems.append(unusable)  # values above are figured without access counts (fatk8)
    for rel, _kind in units.source_files(ws):
        day = Path(rel).name[:10]
        if units._DATE_NAME.match(Path(rel).name) and parse_day(day) is None:
            problems.append(f"{rel}: {day!r} is not a real date (treated as undated)")
    t1_dir = tree.Tree(Path(ws)).tier1
    t1_files = sorted(t1_dir.glob("*_stats.json")) if t1_dir.is_dir() else []
    skills: set[str] = set()
    for path in t1_files:
        try:
            skills.update(tiers.load_stats(path)["skill_stats"])
        except (MemoryManagerError, OSError) as exc:
            shown, said = tree.rel(tree.TIER1, path.name), str(exc)
            problems.append(said if said.startswith(shown) else f"{shown}: {said}")
    t2 = 0
    # xor-b64 is obfuscation, not encryption: counted apart so that status never
    # calls it encrypted (walk-through r6, finding 3).
    by_scheme = {"aes-gcm": 0, "xor-b64": 0, "plain": 0}
    readable_t2 = []
    for item in tiers.iter_t2_entries(Path(ws)):
        if item.error:
            shown = tree.rel(tree.TIER2, Path(item.path).name)  # an UnreadableFileError names the file already
            problems.append(item.error if item.error.startswith(f"{shown}:") else f"{shown}: {item.error}")
        else:
            t2 += 1
            readable_t2.append(item)
            by_scheme["plain" if item.plaintext else item.scheme if item.scheme in by_scheme else "aes-gcm"] += 1
    n = len(p.valued)
    zone = user_zone()
    from .cleanup import expired_t2

    # The next cleanup archives expired T2 entries too (its step 2), whether or not it prunes:
    # the forecast counts them as `cleanup --dry-run` does (nu16 item 8).
    expired = expired_t2(readable_t2, cfg, today())
    from . import backups

    try:
        pending = backups.pending(Path(ws))
    except (OSError, MemoryManagerError) as exc:
        pending = []
        problems.append(f"interrupted changes could not be checked ({exc})")
    return {
        "interrupted": pending,
        "indexes_stale": backups.stale_mark(Path(ws)),
        "time_zone": {"name": zone.name, "source": zone.source, "today": today().isoformat()},
        "memory_size": {"entries": p.total_entries, "files": size[1], "bytes": size[0]},
        "prunable_entries": n,
        "average_value": round(sum(v.value for v in p.valued) / n, 6) if n else None,
        "prune_rate": round(len(p.moves) / n, 6) if n else 0.0,
        "would_move": len(p.moves),
        "window": cfg["prune"]["window"], "threshold": cfg["prune"]["threshold"],
        "cleanup_preview": {"enabled": auto is not None,
                            "would_archive": (len(auto.moves) if auto else 0) + len(expired),
                            "expired_t2": len(expired),
                            "window": cfg["prune"]["window"],
                            "threshold_applied": bool(auto) and cfg["prune"]["auto_threshold"]},
        "archived_entries": archived,
        "entries_by_kind": p.by_kind,
        "tiers": {"t1": len(t1_files), "t1_skills": len(skills), "t2": t2, "t3": 0,
                  "daily": p.by_kind.get("daily", 0), "knowledge": p.by_kind.get("knowledge", 0)},
        "t2_by_scheme": by_scheme,
        "quarantine": _quarantine_rows(ws),
        # File names are shown with a finding masked, as recall masks text (issue 10, round 4).
        "problems": sorted(privacy.mask_name(m) for m in problems),
    }


def _quarantine_rows(ws: Path) -> list[dict[str, Any]]:
    """The T2 entries cleanup quarantined (issue 10), as :func:`memory_manager.quarantine.listing` gives them."""
    from . import quarantine

    return quarantine.listing(Path(ws))
