"""``init``: set up a workspace for complex-memory-manager without losing a byte.

What it does follows the Memory Master seed's init (backup, heartbeat
migration, AGENTS.md clean-up, MEMORY.md as a lessons file, the memory tree),
made safe as the foundation issue asks:

1. Nothing is written until the whole change is planned. :func:`build_plan`
   reads every file, computes every new content, and returns a :class:`Plan`
   (dry-run prints it as unified diffs). An empty plan means a second run is a
   no-op and makes no backup.
2. :func:`apply_plan` takes the workspace lock, checks that no planned file
   changed since it was read, backs up every path it will touch (backups.py,
   manifest first), stages every new content to a temporary file (where a
   full disk or file-size limit fails) and only then renames them into place.
   A failure leaves every original byte-identical.
3. Each file keeps its BOM and line endings; nothing outside the workspace is
   touched (a symlinked AGENTS.md pointing out of it is refused).
"""
from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .jsonio import parse as _parse_json
from .regular import read_regular
from . import backups, crypto, entries, fsio, markdown, templates, tiers, tree
from .clock import today
from .config import OVERRIDE_RELPATH
from .errors import BackupError, DirtyFileError, FileWriteError, UnreadableFileError, WorkspaceError
from .fsio import TextFile, Transaction, decode_text, workspace_lock
from .workspace import inside

#: OpenClaw 2026.9.6 truncates each bootstrap file at this many characters
#: (agents.defaults.bootstrapMaxChars); past it the agent no longer sees the end.
BOOTSTRAP_MAX_CHARS = 20_000

#: The first release whose Gateway no longer reads HEARTBEAT.md (verified facts
#: in the foundation issue: 2026.8 moved heartbeats into the heartbeat monitor).
HEARTBEAT_RETIRED = (2026, 8)

BLOCK_BEGIN = re.compile(r"^<!-- complex-memory-manager:begin v\d+ -->\s*$")
BLOCK_END = re.compile(r"^<!-- complex-memory-manager:end -->\s*$")
LESSONS_MARKER = "<!-- complex-memory-manager: lessons v"

#: Folders init creates: ``memory/`` and the store's tree (entries.TREE).
MEMORY_DIRS = (tree.MEMORY, *(tree.rel(sub) for sub in tree.FOLDERS))
LANGUAGE_NAMES = {"zh": "Chinese", "en": "English"}
KEPT_HEADING = {"zh": "## 原 MEMORY.md 内容（init 前保留）", "en": "## Kept from the previous MEMORY.md"}

GITIGNORE_BEGIN = "# >>> complex-memory-manager >>>"
GITIGNORE_END = "# <<< complex-memory-manager <<<"

# A heading is a heartbeat section when its title, without leading emoji and
# punctuation, starts with one of these words: the OpenClaw templates of
# 2026.1-2026.7 use "💓 Heartbeats - Be Proactive!", users write plain
# "Heartbeat" or Chinese "心跳". "Automations" (which replaced heartbeats in
# 2026.8) never matches, and a heading that only mentions heartbeats later
# ("Memory Maintenance (During Heartbeats)") is not one either.
_HEARTBEAT_TITLE = re.compile(r"^(?:heartbeats?\b|心跳)", re.I)
_MEMORY_TITLE = re.compile(r"^(?:memory|记忆)\s*$", re.I)
# Rules that dedupe may remove: list items and plain paragraph lines with at
# least one letter. Headings, tables, HTML comments, code and lone punctuation
# are never touched.
_BULLET = re.compile(r"^[-*+]\s+")
_RULE_LINE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S|^\s*[^\s#|<>`~\-=*+]")


@dataclass
class FileChange:
    """One planned write: ``path`` (absolute), ``old`` bytes (None: new file), ``new`` bytes.

    ``mode``: permission bits for a new file (default: the existing file's, or 0600).
    """

    path: Path
    rel: str
    old: bytes | None
    new: bytes
    reason: str
    mode: int | None = None

    def diff(self) -> str:
        """Return a unified diff of the change (text)."""
        before = decode_text(self.old).text.splitlines(keepends=True) if self.old is not None else []
        after = decode_text(self.new).text.splitlines(keepends=True)
        return "".join(difflib.unified_diff(before, after,
                                            fromfile="/dev/null" if self.old is None else f"a/{self.rel}",
                                            tofile=f"b/{self.rel}"))

    def line_counts(self) -> tuple[int, int]:
        """Return ``(added, removed)``: the lines the change adds and removes (from :meth:`diff`)."""
        added = removed = 0
        for line in self.diff().splitlines():
            if line.startswith("+") and not line.startswith("+++"):
                added += 1
            elif line.startswith("-") and not line.startswith("---"):
                removed += 1
        return added, removed


@dataclass
class Plan:
    """Everything ``init`` would do to a workspace."""

    workspace: Path
    changes: list[FileChange] = field(default_factory=list)
    new_dirs: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    moved_sections: list[str] = field(default_factory=list)
    removed_duplicates: list[str] = field(default_factory=list)
    #: Enable the OpenClaw hooks after the files are written (their files are in ``changes``).
    enable_hooks: bool = False
    #: The hooks report after :func:`apply_plan` (hookinstall.HookReport), or None.
    hook_report: Any = None
    #: Enable the OpenClaw plugin after the files are written (plugininstall; its files are in ``changes``).
    enable_plugin: bool = False
    #: The plugin report after :func:`apply_plan` (a hookinstall.HookReport), or None.
    plugin_report: Any = None
    #: The language of the templates (``zh``/``en``) and the rule that chose it (lang.resolve).
    language: str = ""
    language_source: str = ""
    #: True when :func:`apply_fresh` had to plan again (another writer changed a file first).
    replanned: bool = False

    @property
    def empty(self) -> bool:
        return not self.changes and not self.new_dirs

    def summary(self) -> dict[str, Any]:
        """Return a JSON-ready description of the plan."""
        return {
            "workspace": str(self.workspace),
            "changes": [{"path": c.rel, "action": "create" if c.old is None else "update", "reason": c.reason}
                        for c in self.changes],
            "new_dirs": [d.relative_to(self.workspace).as_posix() for d in self.new_dirs],
            "moved_sections": self.moved_sections,
            "removed_duplicates": self.removed_duplicates,
            "notes": self.notes,
            "warnings": self.warnings,
            "hooks": self.hook_report.to_dict() if self.hook_report is not None else None,
            "plugin": self.plugin_report.to_dict() if self.plugin_report is not None else None,
            "language": {"lang": self.language, "source": self.language_source},
        }


# --------------------------------------------------------------------------- reading

def _lessons_name(ws: Path, plan: "Plan") -> str:
    """The lessons file to edit, spelled as OpenClaw finds it, with a note on what that means.

    OpenClaw loads ``MEMORY.md`` and, when there is none, ``memory.md``
    (:data:`memory_manager.tree.MEMORY_MD_NAMES`). A workspace with only the
    lower-case file keeps it: creating ``MEMORY.md`` beside it would make
    OpenClaw load the new, empty file instead. When both exist and differ,
    ``MEMORY.md`` is the one OpenClaw loads; ``memory.md`` is named so the
    user can merge it (init changes neither name).
    """
    upper, lower = ws / tree.MEMORY_MD, ws / tree.MEMORY_MD_LOWER
    try:
        same = upper.exists() and lower.exists() and os.path.samefile(upper, lower)
    except OSError:
        same = False
    if same or not (lower.is_file() or lower.is_symlink()):
        return tree.MEMORY_MD  # no lower-case file, or a case-insensitive file system (one file)
    if not (upper.exists() or upper.is_symlink()):
        plan.notes.append(f"{tree.MEMORY_MD_LOWER} is this workspace's lessons file and keeps its name "
                          f"(OpenClaw loads it when there is no {tree.MEMORY_MD}); no {tree.MEMORY_MD} created.")
        return tree.MEMORY_MD_LOWER
    try:
        differ = read_regular(upper) != read_regular(lower)
    except OSError:
        differ = True
    if differ:
        plan.warnings.append(f"{tree.MEMORY_MD_LOWER} differs from {tree.MEMORY_MD}: OpenClaw loads only "
                             f"{tree.MEMORY_MD}, so the agent does not see what is in {tree.MEMORY_MD_LOWER} "
                             f"(recall still searches it). Merge it into {tree.MEMORY_MD} by hand.")
    return tree.MEMORY_MD


def _target(ws: Path, name: str) -> Path:
    """Return the path to edit for workspace file ``name``, following an in-workspace symlink.

    Raises:
        WorkspaceError: the file is a symlink that leads out of the workspace.
    """
    path = ws / name
    if path.is_symlink():
        if not inside(ws, path):
            raise WorkspaceError(f"{name} is a symlink to {os.readlink(path)}, outside the workspace; refusing to edit it")
        return path.resolve()
    return path


def _read(path: Path, rel: str) -> TextFile | None:
    if not path.exists():
        return None
    if path.is_dir():
        raise UnreadableFileError(f"{rel} is a folder, expected a file")
    try:
        raw = read_regular(path)
    except OSError as exc:
        raise UnreadableFileError(f"{rel}: cannot read ({exc.strerror})") from None
    return decode_text(raw, rel)


def _join(lines: list[str], trailing_newline: bool) -> str:
    text = "\n".join(lines)
    return text + "\n" if trailing_newline and lines else text


# --------------------------------------------------------------------------- transforms

def split_heartbeat(text: str) -> tuple[str, list[str]]:
    """Cut heartbeat sections (with their subsections) out of an AGENTS.md text.

    Returns ``(remaining_text, moved_sections)``; each moved section is its
    exact lines joined with ``\\n``. Text outside those sections is unchanged.
    """
    lines = text.split("\n")
    heads = markdown.headings(lines)
    cut: list[tuple[int, int]] = []
    for head in heads:
        if head.level < 2 or any(start <= head.index < end for start, end in cut):
            continue
        if _HEARTBEAT_TITLE.match(markdown.plain_title(head.title)):
            cut.append((head.index, markdown.section_end(lines, head, heads)))
    if not cut:
        return text, []
    moved = []
    keep: list[str] = []
    position = 0
    for start, end in cut:
        keep.extend(lines[position:start])
        section = lines[start:end]
        while section and not section[-1].strip():
            section.pop()
        moved.append("\n".join(section))
        position = end
    keep.extend(lines[position:])
    return "\n".join(keep), moved


def remove_duplicate_rules(text: str) -> tuple[str, list[str]]:
    """Remove later exact duplicates of a rule line (same text up to whitespace
    and the bullet mark: ``- x``, ``* x`` and ``+ x`` are one rule, as CommonMark
    renders them alike).

    Only single-line list items and paragraph lines outside code fences and
    outside this bundle's managed block count as rules; nothing is reworded
    or reordered. Returns ``(new_text, removed_lines)``.
    """
    lines = text.split("\n")
    fenced = markdown.fenced_lines(lines)
    seen: set[str] = set()
    drop: set[int] = set()
    in_block = False
    for index, line in enumerate(lines):
        if BLOCK_BEGIN.match(line):
            in_block = True
        if in_block:
            if BLOCK_END.match(line):
                in_block = False
            continue
        if fenced[index] or not _RULE_LINE.match(line) or not re.search(r"\w", line):
            continue
        if markdown.is_heading(line) or line.lstrip().startswith("|"):
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        indent = len(line) - len(line.lstrip())
        continued = following.strip() and (len(following) - len(following.lstrip())) > indent \
            and not _RULE_LINE.match(following.lstrip())
        key = re.sub(r"\s+", " ", _BULLET.sub("- ", line.strip(), count=1))
        if key in seen and not continued:
            drop.add(index)
        else:
            seen.add(key)
    removed = [lines[i].strip() for i in sorted(drop)]
    return "\n".join(line for i, line in enumerate(lines) if i not in drop), removed


def setup_gaps(ws: Path) -> list[str]:
    """What of init's own changes ``ws`` lacks now, in words (``"AGENTS.md has no memory rules block"``, ...).

    init adds the memory rules block to AGENTS.md (what makes the agent use the
    memory), its block to ``.gitignore`` (backups and keys kept out of git) and
    ``memory/memory-manager.json`` (the workspace's language). A restore of init's
    own backup takes them away again while notes written since keep ``memory/``
    (walk-through r10, item 1): doctor and the restore say the workspace is not set
    up any more. Reads only; a file that cannot be read counts as lacking its part.
    Returns ``[]`` when every part is there.
    """
    ws = Path(ws)
    gaps = []

    def text_of(name: str) -> str | None:
        path = ws / name
        try:
            return decode_text(read_regular(path)).text if path.is_file() else None
        except (OSError, ValueError, UnreadableFileError):
            return ""

    agents = text_of("AGENTS.md")
    if agents is None:
        gaps.append("no AGENTS.md")
    elif not any(BLOCK_BEGIN.match(line) for line in agents.splitlines()):
        gaps.append("AGENTS.md has no memory rules block")
    gitignore = text_of(".gitignore")
    if gitignore is None or GITIGNORE_BEGIN not in gitignore.splitlines():
        gaps.append(".gitignore has no rules of this skill" if gitignore is not None else "no .gitignore")
    if not (ws / OVERRIDE_RELPATH).is_file():
        gaps.append(f"no {OVERRIDE_RELPATH.as_posix()}")
    return gaps


def setup_lost(gaps: list[str]) -> bool:
    """True when :func:`setup_gaps` says the workspace is not set up any more (doctor fails it).

    AGENTS.md without the memory rules block, or AGENTS.md gone while another of init's
    marks is there. A folder with none of the marks and no AGENTS.md was never set up by
    init (a memory tree made by hand); one with only ``.gitignore``'s block or the
    override missing was set up by an older version.
    """
    if not gaps:
        return False
    if gaps[0] == "no AGENTS.md":
        return len(gaps) < 3
    return gaps[0].startswith("AGENTS.md")


def upsert_block(text: str, block: str) -> str:
    """Put the managed memory-rules block into an AGENTS.md text.

    An existing block (between the begin/end markers) is replaced in place.
    Otherwise the block goes right after OpenClaw's own ``## Memory`` section
    (so the rules sit beside the ones they extend), or at the end.
    """
    lines = text.split("\n")
    block_lines = block.rstrip("\n").split("\n")
    begin = next((i for i, line in enumerate(lines) if BLOCK_BEGIN.match(line)), None)
    if begin is not None:
        end = next((i for i in range(begin, len(lines)) if BLOCK_END.match(lines[i])), None)
        if end is not None:
            return "\n".join(lines[:begin] + block_lines + lines[end + 1:])
    heads = markdown.headings(lines)
    memory = next((h for h in heads if h.level == 2 and _MEMORY_TITLE.match(markdown.plain_title(h.title))), None)
    if memory is not None:
        at = markdown.section_end(lines, memory, heads)
        while at > memory.index + 1 and not lines[at - 1].strip():
            at -= 1
        after = [""] if at < len(lines) and lines[at].strip() else []
        return "\n".join(lines[:at] + [""] + block_lines + after + lines[at:])
    body = text.rstrip("\n")
    return (body + "\n\n" if body else "") + "\n".join(block_lines) + "\n"


def lessons_text(existing: str | None, lang: str) -> str | None:
    """Return MEMORY.md as a lessons file, keeping every line the user had.

    Returns None when the file already is one (it carries the lessons marker).
    The user's lines go, unchanged and in order, under a clearly named
    section after the template.
    """
    if existing is not None and LESSONS_MARKER in existing:
        return None
    text = templates.render("memory-lessons.md", lang).rstrip("\n") + "\n"
    if existing is not None and existing.strip():
        text += "\n" + KEPT_HEADING[lang] + "\n\n" + existing.strip("\n") + "\n"
    return text


def switch_lessons_language(text: str, lang: str) -> str | None:
    """Return a lessons file's template lines switched to ``lang``, or None when nothing changes.

    Only lines that are exactly a line of the other language's lessons
    template (title, intro, the three section headings) or the kept-lines
    heading are replaced, pairwise: everything the user wrote stays as it is.
    """
    other = "en" if lang == "zh" else "zh"
    src = [line for line in templates.load("memory-lessons.md", other).split("\n") if line.strip()]
    dst = [line for line in templates.load("memory-lessons.md", lang).split("\n") if line.strip()]
    pairs = dict(zip(src, dst)) if len(src) == len(dst) else {}
    pairs[KEPT_HEADING[other]] = KEPT_HEADING[lang]
    lines = text.split("\n")
    out = []
    for line in lines:
        bare = line.rstrip("\r")
        out.append(pairs[bare] + line[len(bare):] if bare in pairs else line)  # keep a CR ending
    return "\n".join(out) if out != lines else None


def switch_index_title(text: str, kind: str, lang: str) -> str | None:
    """Return an index text whose first line is the other language's title switched to ``lang``, or None."""
    first, sep, rest = text.partition("\n")
    titles = entries.INDEX_TITLES[kind]
    if first.rstrip("\r") in titles.values() and first.rstrip("\r") != titles[lang]:
        return titles[lang] + ("\r" if first.endswith("\r") else "") + sep + rest
    return None


def gitignore_block(xor_t2: bool, plain_t2: bool = False) -> list[str]:
    """Return the ignore rules this bundle needs (derived data, backups, keys, quarantine, T2 readable without a key).

    The quarantine (``memory/.quarantine``: entries cleanup held back for a
    finding) is private like the state folder and always ignored. With
    ``xor_t2`` (T2 entries are, or will be, xor-b64: text anyone can decode)
    or ``plain_t2`` (some T2 entry is plain text) the T2 files are ignored,
    and so is where cleanup moves them (issue 10, round 4): the archive's
    month folders hold expired T2 files next to prune's ``daily-<date>.md``
    and ``knowledge-<key>.md``, so every ``.md`` there is ignored except
    those two shapes (formats.md, "Archived entries"; T2 file names hold a
    ``_`` after the skill, see "T2 file names"). The comment names the
    reason that holds (walk-through r4, item 18: never "xor-b64" for a
    workspace that has none).
    """
    rules = [GITIGNORE_BEGIN,
             "# backups of files complex-memory-manager changed, derived indexes and caches",
             f"{tree.BACKUPS}/", f"{tree.rel(tree.CACHE)}/", f"{tree.rel(tree.STATE)}/", "*.key",
             "# entries cleanup quarantined for a finding: private",
             f"{tree.rel(tree.QUARANTINE)}/"]
    if xor_t2 and plain_t2:
        why = "# some T2 entries are plain text and some use xor-b64, which anyone can decode: keep them out of git"
    elif plain_t2:
        why = "# some T2 entries are plain text (not encrypted): keep them out of git"
    else:
        why = "# T2 entries use xor-b64, which anyone can decode: keep them out of git"
    if xor_t2 or plain_t2:
        archive = tree.rel(tree.ARCHIVE)
        rules += [why, f"{tree.rel(tree.TIER2)}/",
                  "# ... and where cleanup moves them: the archive (its daily and knowledge files stay)",
                  f"{archive}/*/*.md", f"!{archive}/*/daily-*.md", f"!{archive}/*/knowledge-*.md"]
    return rules + [GITIGNORE_END]


def upsert_gitignore(text: str, rules: list[str]) -> str:
    """Replace (or append) this bundle's block in a .gitignore text."""
    lines = text.split("\n") if text else []
    if GITIGNORE_BEGIN in lines and GITIGNORE_END in lines[lines.index(GITIGNORE_BEGIN):]:
        start = lines.index(GITIGNORE_BEGIN)
        end = lines.index(GITIGNORE_END, start)
        return "\n".join(lines[:start] + rules + lines[end + 1:])
    body = text.rstrip("\n")
    return (body + "\n\n" if body else "") + "\n".join(rules) + "\n"


# --------------------------------------------------------------------------- OpenClaw

def openclaw_version(timeout: float = 15.0) -> tuple[int, ...] | None:
    """Return OpenClaw's version as a tuple (e.g. ``(2026, 9, 6)``), or None when it cannot be asked."""
    exe = shutil.which("openclaw")
    if not exe:
        return None
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=timeout).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d{4})\.(\d{1,2})\.(\d{1,3})", out)
    return tuple(int(part) for part in match.groups()) if match else None


# --------------------------------------------------------------------------- plan

def _change(plan: Plan, path: Path, rel: str, original: TextFile | None, new_text: str, reason: str) -> None:
    new = original.encode(new_text) if original is not None else new_text.encode("utf-8")
    old = original.raw if original is not None else None
    if new != old:
        plan.changes.append(FileChange(path, rel, old, new, reason))


def _plan_hooks(plan: Plan, ws: Path) -> None:
    """Add the OpenClaw hook files (hookinstall) to the plan; enable them after the commit.

    OpenClaw 2026.9.6 does not discover hooks inside a skill folder, so init
    copies them to ``<workspace>/hooks/<name>/`` (issue 6). They go through
    the same transaction as every other write.
    """
    from . import BUNDLE_ROOT, hookinstall

    if _plan_shipped_files(plan, ws, hookinstall.desired_files(ws, BUNDLE_ROOT), depth=2, label="OpenClaw hook"):
        plan.enable_hooks = True


def _plan_shipped_files(plan: Plan, ws: Path, files: dict[str, bytes], *, depth: int, label: str) -> bool:
    """Add files the bundle ships into the workspace (hook or plugin files) to the plan.

    ``files`` maps a workspace-relative path to its bytes; the ``depth``
    folders above each file (nearest last) are created when missing and must
    not be symlinks leading out of the workspace. Returns True when any file
    changes. Raises WorkspaceError for a symlinked file or folder.
    """
    changed = False
    for rel, data in files.items():
        path = ws / rel
        for folder in reversed(path.parents[:depth]):
            if folder.is_symlink() and not inside(ws, folder):
                raise WorkspaceError(f"{folder.relative_to(ws)} is a symlink out of the workspace; refusing to use it")
            if not folder.exists() and folder not in plan.new_dirs:
                plan.new_dirs.append(folder)
        if path.is_symlink():
            raise WorkspaceError(f"{rel} is a symlink; refusing to replace it")
        old = read_regular(path) if path.is_file() else None
        if old != data:
            plan.changes.append(FileChange(path, rel, old, data, label, mode=0o644))
            changed = True
    return changed


def _plan_plugin(plan: Plan, ws: Path) -> None:
    """Add the OpenClaw plugin files (plugininstall) to the plan; enable it after the commit.

    The plugin runs the upkeep after every turn (``agent_end``), which the
    internal ``message:sent`` hook does only for channel deliveries (issue 14).
    Its folder is ``<ws>/.openclaw/extensions/complex-memory-manager/``, an
    OpenClaw plugin discovery root; the files go through the same transaction
    as every other write.
    """
    from . import BUNDLE_ROOT, plugininstall

    if _plan_shipped_files(plan, ws, plugininstall.desired_files(ws, BUNDLE_ROOT), depth=3, label="OpenClaw plugin"):
        plan.enable_plugin = True


def _plan_language(plan: Plan, ws: Path, lang: str) -> None:
    """Save the language in the workspace override (``language``), so the store and later runs use it.

    This is the "choice saved in this workspace" of lang.resolve: written
    whenever it differs from what the file says (or the file has none).
    """
    import json

    path = ws / OVERRIDE_RELPATH
    existing = _read(path, OVERRIDE_RELPATH.as_posix())
    try:
        doc = _parse_json(existing.text) if existing is not None and existing.text.strip() else {}
    except ValueError:
        raise WorkspaceError(f"{OVERRIDE_RELPATH.as_posix()} is not valid JSON; fix it before running init") from None
    if not isinstance(doc, dict):
        raise WorkspaceError(f"{OVERRIDE_RELPATH.as_posix()} must hold a JSON object")
    if doc.get("language") == lang:
        return
    doc["language"] = lang
    _change(plan, path, OVERRIDE_RELPATH.as_posix(), existing,
            json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n", f"language {lang}")


#: A HEARTBEAT.md that says to keep it empty to skip heartbeat turns is the
#: pre-2026.8 layout (OpenClaw's older template starts so): moving rules into
#: it would switch heartbeat API calls on (walk-through r3, item 5).
_KEEP_EMPTY = re.compile(r"(?:keep|leave) (?:this file )?empty|skip(?:s)? heartbeat|no heartbeat turn|保持为空|留空",
                         re.I)


def heartbeat_file_looks_old(text: str | None) -> bool:
    """True when ``text`` (HEARTBEAT.md) is the older layout: among its first lines, "keep it empty to skip heartbeats"."""
    if not text:
        return False
    head = [line for line in text.lstrip("\ufeff").splitlines() if line.strip()][:4]
    return any(_KEEP_EMPTY.search(line) for line in head)


def build_plan(ws: Path, cfg: dict[str, Any], lang: str, heartbeat_move: bool | None = True,
               version: tuple[int, ...] | None | str = "ask", hooks: bool = True,
               lang_explicit: bool = False, key_planned: bool = False, plugin: bool = True) -> Plan:
    """Plan ``init`` for workspace ``ws`` without writing anything.

    Args:
        ws: the workspace (an existing folder).
        cfg: the effective configuration (config.load_config).
        lang: ``zh`` or ``en`` for the templates.
        heartbeat_move: move heartbeat sections out of AGENTS.md (True),
            never (False), or decide (None, ``init``'s default): not on
            OpenClaw before 2026.8, nor when the version cannot be told and
            HEARTBEAT.md says to keep it empty (:func:`heartbeat_file_looks_old`),
            since real content there makes older OpenClaw run heartbeat
            turns; the plan's notes say why.
        version: OpenClaw's version tuple, None when unknown, or ``"ask"`` to
            run ``openclaw --version`` (only done when something would move).
        hooks: install the bundle's OpenClaw hooks into ``<ws>/hooks/`` (and the plugin, see ``plugin``).
        plugin: with ``hooks``, also install the OpenClaw plugin into
            ``<ws>/.openclaw/extensions/complex-memory-manager/`` (plugininstall).
        lang_explicit: kept for callers of the old signature; the language
            is always saved in ``memory/memory-manager.json`` now (issue 14).
        key_planned: the caller creates the AES key before applying
            (``crypto.keygen``), so ``auto`` will mean aes-gcm.

    Raises:
        WorkspaceError: a file to edit is a symlink out of the workspace.
        UnreadableFileError: a file to edit is unreadable or not UTF-8.
    """
    ws = Path(ws)
    plan = Plan(ws, language=lang)
    agents_path = _target(ws, "AGENTS.md")
    heartbeat_path = _target(ws, "HEARTBEAT.md")
    lessons_name = _lessons_name(ws, plan)
    memory_path = _target(ws, lessons_name)
    gitignore_path = _target(ws, ".gitignore")
    agents = _read(agents_path, "AGENTS.md")
    heartbeat = _read(heartbeat_path, "HEARTBEAT.md")
    memory_md = _read(memory_path, lessons_name)
    gitignore = _read(gitignore_path, ".gitignore")

    # AGENTS.md: heartbeat out, duplicates out, memory block in.
    text = agents.text if agents is not None else "# AGENTS.md - Your Workspace\n"
    moved: list[str] = []
    if heartbeat_move or heartbeat_move is None:
        text_moved, moved = split_heartbeat(text)
        if moved and heartbeat_move is None:
            if version == "ask":
                version = openclaw_version()
            titles = ", ".join(markdown.plain_title(m.split("\n", 1)[0].lstrip("#").strip()) for m in moved)
            why = None
            if version is not None and tuple(version)[:2] < HEARTBEAT_RETIRED:
                why = f"OpenClaw {'.'.join(map(str, version))} is older than 2026.8"
            elif version is None and heartbeat_file_looks_old(heartbeat.text if heartbeat is not None else None):
                why = ("OpenClaw cannot be asked for its version and HEARTBEAT.md says to keep it empty "
                       "(the layout before 2026.8)")
            if why:
                # Real content in HEARTBEAT.md makes OpenClaw before 2026.8 run heartbeat turns (API calls).
                plan.notes.append(f"heartbeat sections left in AGENTS.md ({titles}): {why}, and moving them into "
                                  "HEARTBEAT.md would switch heartbeat turns on. Pass --heartbeat-move to move "
                                  "them anyway.")
                moved = []
        if moved:
            text = text_moved
    text, plan.removed_duplicates = remove_duplicate_rules(text)
    text = upsert_block(text, templates.load("agents-block.md", lang))
    if agents is not None and agents.text.endswith("\n") and not text.endswith("\n"):
        text += "\n"
    _change(plan, agents_path, "AGENTS.md", agents, text, "memory rules block"
            + (", heartbeat sections moved out" if moved else "")
            + (", duplicate rules removed" if plan.removed_duplicates else ""))
    if len(text) > BOOTSTRAP_MAX_CHARS:
        plan.warnings.append(f"AGENTS.md has {len(text):,} characters: OpenClaw 2026.9.6 loads only the first "
                             f"{BOOTSTRAP_MAX_CHARS:,} of each bootstrap file; shorten it.")

    if moved:
        plan.moved_sections = [markdown.plain_title(s.split("\n", 1)[0].lstrip("#").strip()) for s in moved]
        base = heartbeat.text.rstrip("\n") if heartbeat is not None else \
            templates.render("heartbeat.md", lang, date=today().isoformat()).rstrip("\n")
        new_heartbeat = base + "\n\n" + "\n\n".join(moved) + "\n"
        _change(plan, heartbeat_path, "HEARTBEAT.md", heartbeat, new_heartbeat, "heartbeat sections from AGENTS.md")
        if version == "ask":
            version = openclaw_version()
        old_note = ("HEARTBEAT.md now has real content: OpenClaw before 2026.8 then runs heartbeat turns "
                    "(an empty or comments-only file skips them). Run init with --no-heartbeat-move "
                    "to keep the heartbeat rules in AGENTS.md instead.")
        new_note = ("From 2026.8 OpenClaw no longer reads HEARTBEAT.md: run `openclaw doctor --fix` to import it "
                    "into the heartbeat monitor.")
        if version is None:
            # Unknown version: both consequences may apply, so say both.
            plan.notes.append("OpenClaw cannot be asked for its version. " + old_note)
            plan.notes.append(new_note)
        elif tuple(version)[:2] < HEARTBEAT_RETIRED:
            plan.notes.append(old_note)
        else:
            plan.notes.append(f"OpenClaw {'.'.join(map(str, version))}: " + new_note)

    new_memory = lessons_text(memory_md.text if memory_md is not None else None, lang)
    if new_memory is not None:
        _change(plan, memory_path, lessons_name, memory_md, new_memory,
                "lessons file" + (" (previous lines kept)" if memory_md is not None and memory_md.text.strip() else ""))
    elif memory_md is not None:
        switched = switch_lessons_language(memory_md.text, lang)
        if switched is not None:
            _change(plan, memory_path, "MEMORY.md", memory_md, switched, f"headings in {LANGUAGE_NAMES[lang]}")

    for rel in MEMORY_DIRS:
        folder = ws / rel
        if folder.is_symlink() and not inside(ws, folder):
            raise WorkspaceError(f"{rel} is a symlink out of the workspace; refusing to use it")
        if not folder.exists():
            plan.new_dirs.append(folder)
        elif not folder.is_dir():
            raise WorkspaceError(f"{rel} exists and is not a folder")
    for kind, name in entries.INDEX_FILES.items():
        rel = tree.rel(name)
        path = ws / rel
        if not path.exists() and not path.is_symlink():
            # Notes already there (kept by a restore of init's own backup, or written before
            # init) are indexed at once: an index naming none of them would be stale from its
            # first byte (walk-through r10, item 1; doctor compares the two).
            title = entries.INDEX_TITLES[kind][lang] + "\n"
            builder = entries.daily_index_text if kind == "daily" else entries.knowledge_index_text
            built = builder(ws, cfg, title, [])
            has_entries = any(line.startswith("- ") for line in built.splitlines())
            _change(plan, path, rel, None, built if has_entries else title, "index")
        elif path.is_file() and not path.is_symlink():
            index = _read(path, rel)
            switched = switch_index_title(index.text, kind, lang) if index is not None else None
            if switched is not None:
                _change(plan, path, rel, index, switched, f"title in {LANGUAGE_NAMES[lang]}")

    # Keep the T2 folder out of git while anything in it can be read without a key:
    # the scheme in force is xor-b64, or an existing entry is xor-b64 or plain text
    # (switching to aes-gcm does not re-encrypt what is already there).
    found = [e for e in tiers.iter_t2_entries(ws) if not e.error]
    xor = (crypto.choose_scheme(cfg) == "xor-b64" and not key_planned) or any(
        not e.plaintext and e.scheme == "xor-b64" for e in found)
    rules = gitignore_block(xor, any(e.plaintext for e in found))
    _change(plan, gitignore_path, ".gitignore", gitignore,
            upsert_gitignore(gitignore.text if gitignore is not None else "", rules), "ignore rules")
    _plan_language(plan, ws, lang)
    if hooks:
        _plan_hooks(plan, ws)
        if plugin:
            _plan_plugin(plan, ws)
    return plan


# --------------------------------------------------------------------------- apply

def apply_plan(plan: Plan) -> str | None:
    """Carry out ``plan``: :func:`apply_files`, then :func:`enable_hooks`; return the backup id.

    Returns None when there was nothing to do. Raises what :func:`apply_files` raises.
    """
    backup_id = apply_files(plan)
    enable_hooks(plan)
    return backup_id


def enable_hooks(plan: Plan) -> None:
    """Enable the hooks and the plugin whose files :func:`apply_files` wrote.

    Sets ``plan.hook_report`` and ``plan.plugin_report``. Runs ``openclaw``
    (about 15 s a call), so ``init`` shows it as a step of its own. A failure
    there is reported in the report, never raised.
    """
    from . import BUNDLE_ROOT, hookinstall, plugininstall

    if plan.enable_hooks and plan.hook_report is None:
        with workspace_lock(plan.workspace):
            plan.hook_report = hookinstall.enable(plan.workspace, BUNDLE_ROOT)
    if plan.enable_plugin and plan.plugin_report is None:
        with workspace_lock(plan.workspace):
            plan.plugin_report = plugininstall.enable(plan.workspace)


def changed_since_planned(plan: Plan) -> list[str]:
    """The workspace-relative paths ``plan`` changes whose bytes are no longer those it was planned from.

    Checked under the writer lock right before writing (:func:`apply_files`), and
    by ``init --yes`` after it waited for the lock (another init may have written).
    """
    changed = []
    for change in plan.changes:
        current = read_regular(change.path) if change.path.exists() else None
        if current != change.old:
            changed.append(change.rel)
    return changed


def apply_files(plan: Plan, key_cfg: dict[str, Any] | None = None) -> str | None:
    """Write ``plan``'s files (backup first, all or nothing); return the backup id.

    Returns None when there was nothing to do. OpenClaw's config is not
    touched here (:func:`enable_hooks`). ``key_cfg`` (the config, given when
    init made a key) records that key as the store's own
    (:func:`tiers.record_made_key`) once the memory tree exists, inside the
    same backup, so that undoing init removes the record with the tree.

    Raises:
        DirtyFileError: a planned file changed on disk since it was read.
        BackupError: the backup could not be made (nothing changed).
        FileWriteError: a write failed (every original left byte-identical).
    """
    if plan.empty:
        return None
    ws = plan.workspace
    with workspace_lock(ws):
        for rel in changed_since_planned(plan)[:1]:
            raise DirtyFileError(f"{rel} changed while init was running (another init, or an edit); run it again")
        backup = backups.start(ws, "init", allow_withheld=True)  # init changes only its own section
        created: list[Path] = []
        try:
            for folder in plan.new_dirs:
                backup.save_new_dir(folder)
            for change in plan.changes:
                backup.save(change.path)
            for folder in plan.new_dirs:
                folder.mkdir(mode=fsio.FOLDER_MODE, exist_ok=True)
                created.append(folder)
            transaction = Transaction()
            for change in plan.changes:
                transaction.stage(change.path, change.new, change.mode)
            transaction.commit()
        except BaseException:
            for folder in reversed(created):
                try:
                    folder.rmdir()
                except OSError:
                    pass
            shutil.rmtree(backup.folder, ignore_errors=True)
            raise
        if key_cfg is not None:
            _record_key_in(backup, ws, key_cfg)
        return backup.id


def _record_key_in(backup: backups.Backup, ws: Path, cfg: dict[str, Any]) -> None:
    """Record the key init made (:func:`tiers.record_made_key`), its record and folder saved in ``backup`` first.

    After the files are written, outside their all-or-nothing part: a record
    that cannot be written fails init as it did before, with the files in place
    and their backup kept.
    """
    state = tree.Tree(ws).state
    if not state.exists():
        backup.save_new_dir(state)
    backup.save(tree.Tree(ws).state_file(tiers.ACCEPTED_NAME))
    tiers.record_made_key(ws, cfg)


def apply_fresh(plan: Plan, rebuild: Callable[[], Plan],
                key_cfg: dict[str, Any] | None = None) -> tuple[Plan, str | None]:
    """:func:`apply_files`, planning again under the lock when a planned file changed meanwhile.

    Two inits started together (walk-through r6, finding 13): the second one
    planned before the first one wrote. Rather than fail, it waits for the
    writer lock like every other writer and plans again from the files as
    they are then (``rebuild``, most often: nothing left to do); the plan and
    the write happen under one hold of the lock, so they cannot disagree.
    Only for a run the user did not confirm diff by diff (``--yes``,
    ``--json``): an interactive run keeps the plan it showed, or fails.

    Returns ``(the plan applied, backup id or None)``; the plan carries
    ``replanned = True`` when it is a new one.
    """
    try:
        return plan, apply_files(plan, key_cfg)
    except DirtyFileError:
        with workspace_lock(plan.workspace):
            fresh = rebuild()
            fresh.language_source = plan.language_source
            fresh.replanned = True
            return fresh, apply_files(fresh, key_cfg)


def hooks_installed(ws: Path) -> bool:
    """True when any of the bundle's hook folders is in ``<ws>/hooks/``, or its plugin is installed."""
    from . import BUNDLE_ROOT, hookinstall, plugininstall

    return any((Path(ws) / "hooks" / name).exists() for name in hookinstall.bundle_hooks(BUNDLE_ROOT)) \
        or bool(hookinstall.installed_hooks(ws)) or plugininstall.installed(ws)


def uninstall_plan(ws: Path) -> list[str]:
    """The files ``init --uninstall-hooks`` would remove (``--dry-run``), workspace-relative, sorted.

    The same choice as :func:`hookinstall.uninstall` and :func:`plugininstall.uninstall`
    make (the bundle's hook files in each of its hook folders present, the
    plugin's files), read only: nothing is written, no ``openclaw`` runs.
    """
    from . import BUNDLE_ROOT, hookinstall, plugininstall

    ws = Path(ws)
    found: list[str] = []
    names = sorted(set(hookinstall.bundle_hooks(BUNDLE_ROOT)) | set(hookinstall.installed_hooks(ws)))
    for name in names:
        folder = ws / "hooks" / name
        if folder.exists():
            found += [f"hooks/{name}/{f}" for f in (*hookinstall.HOOK_FILES, hookinstall.BUNDLE_PATH_FILE)
                      if (folder / f).is_file() or (folder / f).is_symlink()]
    folder = plugininstall.install_dir(ws)
    found += [f"{plugininstall.INSTALL_REL}/{f}" for f in (*plugininstall.PLUGIN_FILES, hookinstall.BUNDLE_PATH_FILE)
              if (folder / f).is_file() or (folder / f).is_symlink()]
    return sorted(found)


def uninstall_hooks(ws: Path) -> tuple[Any, Any, str | None]:
    """Disable and remove the bundle's hooks and its plugin (``init --uninstall-hooks``).

    Returns ``(hooks HookReport, plugin HookReport, backup id or None when
    nothing was installed)``. Every removed file is backed up first;
    OpenClaw's hook and plugin settings go back to what they were before the
    first install.

    All or nothing as far as the backup goes: every file :func:`uninstall_plan`
    names is backed up before the first is removed, so a full disk or a
    file-size limit stops it with nothing removed. Should a later step still
    fail, the error names every file already removed (issue 11, fault round 5).

    Raises:
        BackupError, FileWriteError: saying "nothing was changed" only when no
            file was removed, else naming the removed files.
    """
    from . import hookinstall, plugininstall

    ws = Path(ws)
    with workspace_lock(ws):
        backup = backups.start(ws, "uninstall-hooks", allow_withheld=True)
        planned = uninstall_plan(ws)
        backup.save_many([ws / rel for rel in planned])
        try:
            report = hookinstall.uninstall(ws, backup)
            plugin_report = plugininstall.uninstall(ws, backup)
        except (BackupError, FileWriteError, OSError) as exc:
            gone = [rel for rel in planned if not os.path.lexists(ws / rel)]
            if not gone:
                raise
            text = str(exc).replace("; nothing was changed", "")
            raise type(exc)(f"{text}; removed before it failed: {', '.join(gone)} "
                            f"(backed up in {backup.id}; init --restore {backup.id} puts them back)") from None
        if not backup.entries:
            shutil.rmtree(backup.folder, ignore_errors=True)
            return report, plugin_report, None
        return report, plugin_report, backup.id


__all__ = ["Plan", "FileChange", "build_plan", "apply_plan", "apply_files", "enable_hooks", "split_heartbeat", "remove_duplicate_rules",
           "upsert_block", "lessons_text", "uninstall_hooks", "uninstall_plan"]
