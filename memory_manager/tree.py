"""The map of the memory tree: every path under a workspace is spelled here, once.

::

    <workspace>/
      MEMORY.md | memory.md          lessons file (OpenClaw reads either spelling)
      .memory-backup/                backups (one folder per backup) and .lock
      memory/
        YYYY-MM-DD*.md               OpenClaw's own notes (read, never rewritten)
        daily/YYYY-MM-DD.md          our daily notes (Memory Master seed)
        knowledge/<key>.md           knowledge entries (Memory Master seed)
        tier1-public/<skill>_stats.json   T1 statistics (Tiers seed)
        tier2-internal/<skill>_<topic>.md and <skill>_<YYYY-MM>.md   T2 (Tiers seed)
        archive/                     what cleanup and prune moved aside
        daily-index.md, knowledge-index.md   derived indexes
        memory-manager.json          the workspace's config override
        .cache/                      derived, rebuildable (recall index, bootstrap note, report.html, mask cache)
        .state/                      not derivable (gate audit log, usage, access,
                                     OpenClaw's hook settings before install)
        .quarantine/<id>.md          T2 entries cleanup held back (encrypted; issue 10)

Every other module asks :class:`Tree` (or the constants below) for a path;
``tests/test_tree.py`` fails when a path of this tree is spelled anywhere else.
Standard library only: the per-turn path (hooks, detect) imports it.
"""
from __future__ import annotations

from pathlib import Path, PurePosixPath

#: The folder of the memory tree, at the workspace root.
MEMORY = "memory"
DAILY = "daily"
KNOWLEDGE = "knowledge"
TIER1 = "tier1-public"
TIER2 = "tier2-internal"
ARCHIVE = "archive"
#: Derived, rebuildable files (deleting the folder loses nothing).
CACHE = ".cache"
#: Files that cannot be rebuilt (audit log, usage records, access counts).
STATE = ".state"
#: T2 entries cleanup set aside instead of destroying them (issue 10): one
#: sealed file per entry, never searched by recall, restored or purged on the
#: user's word only.
QUARANTINE = ".quarantine"
#: Our private folder at the workspace root: backups and the writer lock. At the
#: root, not under memory/, so a restore can remove every folder a change created.
BACKUPS = ".memory-backup"
LOCK = ".lock"
DAILY_INDEX = "daily-index.md"
KNOWLEDGE_INDEX = "knowledge-index.md"
#: The workspace's own config override (merged over the shipped config.json).
OVERRIDE = "memory-manager.json"
RECALL_INDEX = "recall-index.sqlite"
#: The offline HTML report's default place (``memory.py report``): derived,
#: so it lives in the cache; forget and cleanup's purge delete it.
REPORT = "report.html"
#: The report's mask cache (issue 15): masked text by content digest, derived
#: and rebuildable; forget and cleanup's purge delete it with the report.
MASK_CACHE = "mask-cache.json"
ACCESS = "access.json"
#: OpenClaw's hooks.internal as it was before init first installed the hooks (hookinstall).
OPENCLAW_HOOKS_RECORD = "openclaw-hooks-before.json"
OPENCLAW_PLUGINS_RECORD = "openclaw-plugins-before.json"
#: Where init installs the OpenClaw plugin, relative to the workspace (an OpenClaw
#: plugin discovery root, docs/gateway/config-extensions.md; plugininstall).
OPENCLAW_PLUGIN_DIR = ".openclaw/extensions/complex-memory-manager"
#: OpenClaw's session summaries (``memory/summaries/``) and the Optimization
#: seed's ``library/`` pages at the workspace root: read by recall, never written.
SUMMARIES = "summaries"
LIBRARY = "library"
#: The lessons file. OpenClaw loads ``MEMORY.md`` and, when that is missing,
#: ``memory.md`` (its workspace bootstrap); we read them in the same order.
MEMORY_MD = "MEMORY.md"
MEMORY_MD_LOWER = "memory.md"
MEMORY_MD_NAMES = (MEMORY_MD, MEMORY_MD_LOWER)

#: Folders under ``memory/`` that init creates (Memory Master seed: daily,
#: knowledge; Tiers seed: tier1-public, tier2-internal; cleanup's archive).
FOLDERS = (DAILY, KNOWLEDGE, TIER1, TIER2, ARCHIVE)
#: Folders under ``memory/`` that hold no memory of their own (skipped by
#: scans and the privacy audit).
PRIVATE = (CACHE, STATE, QUARANTINE)
#: Index file of each kind, under ``memory/``.
INDEX_FILES = {DAILY: DAILY_INDEX, KNOWLEDGE: KNOWLEDGE_INDEX}
#: Kind of entry held by each folder under ``memory/``.
FOLDER_KINDS = {DAILY: "daily", KNOWLEDGE: "knowledge", TIER1: "t1", TIER2: "t2"}


def rel(*parts: str) -> str:
    """Return the workspace-relative POSIX path ``memory/<parts...>`` (for messages)."""
    return str(PurePosixPath(MEMORY, *parts))


class Tree:
    """The paths of one workspace's memory tree.

    ``root`` is the workspace folder (absolute or relative, used as given);
    every property is a :class:`pathlib.Path` under it. Nothing is created
    or checked here.
    """

    # A plain read-only class, not a dataclass: dataclasses imports inspect (and ast,
    # tokenize, dis), which the per-turn hook would pay for on every agent turn (issue 13).
    __slots__ = ("root",)

    def __init__(self, root: Path) -> None:
        object.__setattr__(self, "root", Path(root))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tree is read-only")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tree) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    def __repr__(self) -> str:
        return f"Tree(root={self.root!r})"

    @property
    def memory(self) -> Path:
        """``<ws>/memory``."""
        return self.root / MEMORY

    @property
    def daily(self) -> Path:
        """``<ws>/memory/daily``: our daily notes."""
        return self.memory / DAILY

    @property
    def knowledge(self) -> Path:
        """``<ws>/memory/knowledge``: knowledge entries."""
        return self.memory / KNOWLEDGE

    @property
    def tier1(self) -> Path:
        """``<ws>/memory/tier1-public``: T1 statistics."""
        return self.memory / TIER1

    @property
    def tier2(self) -> Path:
        """``<ws>/memory/tier2-internal``: T2 entries (encrypted bodies)."""
        return self.memory / TIER2

    @property
    def archive(self) -> Path:
        """``<ws>/memory/archive``: what cleanup and prune moved aside."""
        return self.memory / ARCHIVE

    @property
    def cache(self) -> Path:
        """``<ws>/memory/.cache``: derived files."""
        return self.memory / CACHE

    @property
    def state(self) -> Path:
        """``<ws>/memory/.state``: files that cannot be rebuilt."""
        return self.memory / STATE

    @property
    def quarantine(self) -> Path:
        """``<ws>/memory/.quarantine``: T2 entries set aside by cleanup (sealed)."""
        return self.memory / QUARANTINE

    @property
    def backups(self) -> Path:
        """``<ws>/.memory-backup``."""
        return self.root / BACKUPS

    @property
    def lock(self) -> Path:
        """``<ws>/.memory-backup/.lock``: the writer lock."""
        return self.backups / LOCK

    @property
    def daily_index(self) -> Path:
        """``<ws>/memory/daily-index.md``."""
        return self.memory / DAILY_INDEX

    @property
    def knowledge_index(self) -> Path:
        """``<ws>/memory/knowledge-index.md``."""
        return self.memory / KNOWLEDGE_INDEX

    @property
    def override(self) -> Path:
        """``<ws>/memory/memory-manager.json``: the workspace's config override."""
        return self.memory / OVERRIDE

    @property
    def recall_index(self) -> Path:
        """``<ws>/memory/.cache/recall-index.sqlite``."""
        return self.cache / RECALL_INDEX

    @property
    def report(self) -> Path:
        """``<ws>/memory/.cache/report.html``: the default HTML report."""
        return self.cache / REPORT

    @property
    def mask_cache(self) -> Path:
        """``<ws>/memory/.cache/mask-cache.json``: the report's masked text by content digest."""
        return self.cache / MASK_CACHE

    @property
    def access(self) -> Path:
        """``<ws>/memory/.state/access.json``."""
        return self.state / ACCESS

    @property
    def openclaw_hooks_record(self) -> Path:
        """``<ws>/memory/.state/openclaw-hooks-before.json``: OpenClaw's hook settings before install."""
        return self.state / OPENCLAW_HOOKS_RECORD

    @property
    def openclaw_plugins_record(self) -> Path:
        """``<ws>/memory/.state/openclaw-plugins-before.json``: OpenClaw's plugin settings before install."""
        return self.state / OPENCLAW_PLUGINS_RECORD

    @property
    def memory_md(self) -> Path:
        """``<ws>/MEMORY.md`` (the upper-case spelling; see :meth:`lessons_file`)."""
        return self.root / MEMORY_MD

    def lessons_file(self) -> Path | None:
        """Return the lessons file OpenClaw would load: ``MEMORY.md``, else ``memory.md``, else None.

        On a case-insensitive file system both names find the same file; the
        upper-case spelling is returned then.
        """
        for name in MEMORY_MD_NAMES:
            path = self.root / name
            if path.is_file():
                return path
        return None

    def index(self, kind: str) -> Path:
        """Return the index file of ``kind`` (``daily`` or ``knowledge``).

        Raises:
            KeyError: another kind.
        """
        return self.memory / INDEX_FILES[kind]

    def folder(self, name: str) -> Path:
        """Return ``<ws>/memory/<name>`` for a name in :data:`FOLDERS` or :data:`PRIVATE`.

        Raises:
            KeyError: a name that is not part of the tree.
        """
        if name not in FOLDERS and name not in PRIVATE:
            raise KeyError(name)
        return self.memory / name

    def state_file(self, name: str) -> Path:
        """Return ``<ws>/memory/.state/<name>``."""
        return self.state / name

    def cache_file(self, name: str) -> Path:
        """Return ``<ws>/memory/.cache/<name>``."""
        return self.cache / name

    def rel(self, path: Path) -> str:
        """Return ``path`` relative to the workspace, POSIX style (``path`` itself when outside)."""
        try:
            return Path(path).relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def kind_of(self, path: Path) -> str | None:
        """Return the entry kind a file's place in the tree implies, else None.

        ``memory/daily/*.md`` -> ``daily``; ``memory/knowledge/*.md`` ->
        ``knowledge``; ``memory/tier1-public/*.json`` -> ``t1``;
        ``memory/tier2-internal/*.md`` -> ``t2``; ``memory/*.md`` ->
        ``openclaw`` (OpenClaw's own notes); a lessons file -> ``memory_md``.
        """
        try:
            parts = Path(path).relative_to(self.root).parts
        except ValueError:
            return None
        if len(parts) == 1 and parts[0] in MEMORY_MD_NAMES:
            return "memory_md"
        if not parts or parts[0] != MEMORY:
            return None
        inner = parts[1:]
        if len(inner) == 1 and inner[0].endswith(".md") and inner[0] not in INDEX_FILES.values():
            return "openclaw"
        if len(inner) == 2 and inner[0] in FOLDER_KINDS:
            kind = FOLDER_KINDS[inner[0]]
            wanted = ".json" if kind == "t1" else ".md"
            return kind if inner[1].endswith(wanted) else None
        return None
