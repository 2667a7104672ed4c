"""The privacy audit: the Tiers seed's checklist over the memory tree.

Checklist (Tiers seed, "Privacy Audit Checklist"), one check id each:

- ``names_handles``: no real names, usernames or handles;
- ``keys_tokens``: no API keys or tokens in any visible file;
- ``home_paths``: no filesystem paths containing personal home directories;
- ``schedules``: no fixed personal schedules ("early morning", not "6am");
- ``location``: no geographic detail finer than a city;
- ``t2_expiry``: every Tier 2 entry has an expiry date;
- ``tier3``: Tier 3 data (e-mail, phone, government IDs, card and bank
  numbers) never touches memory.

Sensitive topics (health, legal, financial, ...) are not on the checklist:
the memory gate asks for approval before they are stored, so on disk they
are reported as *notices*, which do not fail the audit.

What is scanned: the name (workspace-relative path) and the whole text,
frontmatter included, of ``MEMORY.md`` and every file under ``memory/`` except the
derived and machine-state folders (``memory/.cache``, ``memory/.state``) and
the lock; the archive included. Symlinks that lead out of the workspace are
never followed (listed as skipped). Tier 2 entries are read through
:mod:`memory_manager.tiers` (imported lazily: ``iter_t2_entries``,
``decrypt_entry``); each one is decrypted when the key is available and its
plaintext scanned, and the entries it cannot read are listed. The report
never holds a secret in full: excerpts come redacted from
:func:`memory_manager.privacy.scan`.

Report format: ``privacy-audit`` version 1 (``references/formats.md``).
"""
from __future__ import annotations

import importlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from .jsonio import parse as _parse_json
from .regular import read_regular, read_regular_text
from . import tree
from .errors import MalformedKeyError, MemoryManagerError, UnreadableFileError, WorkspaceError
from .fsio import read_text
from .privacy import CONFIDENCE_RANK, POSSIBLE, TOPIC_CATEGORIES, joined_readings, mask_name, scan, scan_name

REPORT_FORMAT = "privacy-audit"
REPORT_VERSION = 1

#: check id -> title (Tiers seed privacy audit checklist, in its order).
CHECKS: dict[str, str] = {
    "names_handles": "No real names, usernames or handles",
    "keys_tokens": "No API keys or tokens",
    "home_paths": "No paths containing personal home directories",
    "schedules": "No fixed personal schedules",
    "location": "Nothing finer than city level",
    "t2_expiry": "Every Tier 2 entry has an expiry date",
    "tier3": "Tier 3 data never touches memory",
}
#: detector category -> checklist item it breaks.
CATEGORY_CHECK: dict[str, str] = {
    "name": "names_handles",
    "handle": "names_handles",
    "secret": "keys_tokens",
    "home_path": "home_paths",
    "schedule": "schedules",
    "address": "location",
    "email": "tier3",
    "phone": "tier3",
    "government_id": "tier3",
    "payment_card": "tier3",
    "bank_account": "tier3",
}
#: Check id of the (non-failing) sensitive-topic notices.
TOPIC_CHECK = "sensitive_topics"

#: Folders under memory/ that are not memory content: derived caches
#: (rebuildable copies of the notes, which would only repeat findings) and
#: machine state (access counts, the redacted audit log).
SKIPPED_DIRS = set(tree.PRIVATE)
SKIPPED_FILES = {tree.LOCK, tree.OVERRIDE}  # the lock; the workspace config override
ROOT_FILES = tree.MEMORY_MD_NAMES

XOR_WARNING = ("xor-b64 is obfuscation, not encryption: its key is derived from the skill name and "
               "month, so anyone with the file can read it.")


def reseal_command(ws: Path) -> str:
    """The command line that moves every xor-b64 T2 entry of ``ws`` to aes-gcm (``crypt.py reseal``).

    This Python and the bundle's script by absolute path, the workspace with
    ``-w``: it works when pasted (as ``doctor.init_fix``).
    """
    import shlex
    import sys

    from . import BUNDLE_ROOT

    return shlex.join([sys.executable, str(BUNDLE_ROOT / "scripts" / "crypt.py"), "reseal", "-w", str(ws)])


def xor_entries_warning(ws: Path, count: int) -> str:
    """The audit's warning for ``count`` xor-b64 T2 entries, ending with the one command that fixes it."""
    what = "1 T2 entry uses it" if count == 1 else f"{count} T2 entries use it"
    return (f"{XOR_WARNING} {what}: run `{reseal_command(ws)}` to encrypt "
            f"{'it' if count == 1 else 'them'} with aes-gcm (it makes the T2 key when there is none).")


def xor_config_warning(ws: Path) -> str:
    """The audit's warning for ``tiers.encryption_scheme: xor-b64`` in the config."""
    return (f"{XOR_WARNING} tiers.encryption_scheme is xor-b64, so new T2 entries use it: set it to auto "
            f"(or remove it) in {tree.Tree(Path(ws)).override}.")

# A line that is nothing but Base64 (24+ characters) inside a T2 entry file
# is the entry's ciphertext, whatever layout the writer chose.
_B64_LINE = re.compile(r"^[ \t>]*[A-Za-z0-9+/=_-]{24,}[ \t]*$")


@dataclass(frozen=True)
class AuditItem:
    """One finding or notice: where it is, what it breaks, a redacted excerpt.

    ``file`` is relative to the workspace (POSIX separators); ``line`` is
    1-based (in the decrypted plaintext when ``decrypted`` is true), or None
    for entry-level findings such as a missing expiry date.
    """

    file: str
    line: int | None
    check: str
    category: str
    rule: str
    excerpt: str
    decrypted: bool = False
    #: the detector's confidence (``certain``, ``possible``, ``topic``; privacy issue 9);
    #: ``certain`` for entry-level findings such as a missing expiry date.
    confidence: str = "certain"
    #: True for a possible finding the user approved when it was stored (the
    #: gate's approval record, :func:`memory_manager.gate.approval_book`):
    #: reported as a notice, not a failure.
    approved: bool = False


@dataclass
class AuditReport:
    """The result of an audit (see :func:`audit_workspace`)."""

    workspace: Path
    scope: str
    files_scanned: int = 0
    findings: list[AuditItem] = field(default_factory=list)
    notices: list[AuditItem] = field(default_factory=list)
    t2_entries: int = 0
    t2_decrypted: int = 0
    unreadable: list[dict[str, str]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Files in scope that could not be read as UTF-8 text (``{"file", "reason"}``).
    unread_files: list[dict[str, str]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        """True when no checklist item failed and every file in scope was read.

        A file that could not be read (not UTF-8, permission denied) was not
        fully checked, so an audit with one never says clean. Sensitive-topic
        notices and T2 entries without their key do not count (the latter
        are ciphertext on disk).
        """
        return not self.findings and not self.unread_files

    def check_results(self) -> list[dict[str, Any]]:
        """One row per checklist item: id, title, passed, number of findings, number approved.

        ``approved`` counts the possible findings of that item the user
        approved when they were stored (``--approved``): they do not fail the
        item, but it is not "ok" either while they are there (walk-through r4,
        item 4); ``status`` says which: ``fail``, ``approved`` or ``ok``.
        """
        counts: dict[str, int] = {}
        for item in self.findings:
            counts[item.check] = counts.get(item.check, 0) + 1
        kept: dict[str, int] = {}
        for item in self.approved_items:
            kept[item.check] = kept.get(item.check, 0) + 1
        return [{"id": cid, "title": title, "passed": not counts.get(cid), "findings": counts.get(cid, 0),
                 "approved": kept.get(cid, 0),
                 "status": "fail" if counts.get(cid) else ("approved" if kept.get(cid) else "ok")}
                for cid, title in CHECKS.items()]

    @property
    def approved_items(self) -> list[AuditItem]:
        """The notices that are checklist findings the user approved (not sensitive topics)."""
        return [item for item in self.notices if item.approved and item.check in CHECKS]

    @property
    def topic_notices(self) -> list[AuditItem]:
        """The sensitive-topic notices (not on the checklist)."""
        return [item for item in self.notices if not (item.approved and item.check in CHECKS)]

    def to_json(self) -> dict[str, Any]:
        """The ``privacy-audit`` v1 document (``references/formats.md``)."""
        return {
            "format": REPORT_FORMAT,
            "version": REPORT_VERSION,
            "workspace": str(self.workspace),
            "scope": self.scope,
            "clean": self.clean,
            "summary": {
                "files_scanned": self.files_scanned,
                "findings": len(self.findings),
                "notices": len(self.notices),
                "approved": len(self.approved_items),
                "t2_entries": self.t2_entries,
                "t2_decrypted": self.t2_decrypted,
                "t2_unreadable": len(self.unreadable),
                "unread_files": len(self.unread_files),
            },
            "checks": self.check_results(),
            "findings": [asdict(item) for item in self.findings],
            "notices": [asdict(item) for item in self.notices],
            "unreadable": list(self.unreadable),
            "skipped": list(self.skipped),
            "unread_files": list(self.unread_files),
            "warnings": list(self.warnings),
        }


def _rel(ws: Path, path: Path) -> str:
    try:
        return path.relative_to(ws).as_posix()
    except ValueError:
        return path.as_posix()


def _shown(ws: Path, path: Path) -> str:
    """``path`` relative to ``ws`` as the report shows it: a finding in the name masked (``privacy.mask_name``)."""
    return mask_name(_rel(ws, path))


def _inside(ws_resolved: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(ws_resolved)
    except (ValueError, OSError):
        return False
    return True


def memory_files(ws: Path) -> tuple[list[Path], list[dict[str, str]]]:
    """List the files the full audit reads, and the ones it skips (with reasons).

    Args:
        ws: the workspace folder (absolute).

    Returns (files sorted by path, skipped ``{"file", "reason"}`` rows).
    Symlinked folders are never entered; symlinked files are read only when
    they resolve inside the workspace.
    """
    ws_resolved = ws.resolve()
    files: list[Path] = []
    skipped: list[dict[str, str]] = []
    for name in ROOT_FILES:
        candidate = ws / name
        if candidate.is_file() and all(candidate.resolve() != f.resolve() for f in files):
            files.append(candidate)
    root = tree.Tree(ws).memory
    if root.is_symlink() and not _inside(ws_resolved, root):
        skipped.append({"file": tree.MEMORY, "reason": "symlink leads outside the workspace"})
        return files, skipped
    if not root.is_dir():
        return files, skipped
    for folder, dirs, names in os.walk(root, followlinks=False):
        here = Path(folder)
        keep = []
        for d in sorted(dirs):
            if here == root and d in SKIPPED_DIRS:
                continue
            if (here / d).is_symlink():
                skipped.append({"file": _shown(ws, here / d), "reason": "symlinked folder not followed"})
                continue
            keep.append(d)
        dirs[:] = keep
        for name in sorted(names):
            path = here / name
            if here == root and name in SKIPPED_FILES:
                continue
            if path.is_symlink() and not _inside(ws_resolved, path):
                skipped.append({"file": _shown(ws, path), "reason": "symlink leads outside the workspace"})
                continue
            if path.is_file():
                files.append(path)
    return sorted(files, key=lambda p: _rel(ws, p)), skipped


def _mask_ciphertext(text: str) -> str:
    """Blank the pure-Base64 lines of a T2 entry file (its ciphertext), keeping line numbers."""
    return "\n".join("" if _B64_LINE.match(line) else line for line in text.split("\n"))


def _ciphertext_in_clear(ws: Path, path: Path, text: str) -> Iterator[AuditItem]:
    """Findings for the ciphertext lines of a T2 file that spell a value as written.

    The ciphertext lines are blanked before the file is scanned (they are
    random Base64, read decrypted instead); one crafted to spell a key id or a
    card number decodes to noise, while the file holds the value in clear
    (tatk9): :func:`memory_manager.privacy.ciphertext_in_clear` reads each
    such line as written. The excerpt is the category, never the value.
    """
    from .privacy import ciphertext_in_clear

    rel = mask_name(_rel(ws, path))
    for n, line in enumerate(text.split("\n"), 1):
        if _B64_LINE.match(line):
            for category in ciphertext_in_clear(line.strip().lstrip(">").strip()):
                yield AuditItem(rel, n, CATEGORY_CHECK.get(category, "tier3"), category, "ciphertext_in_clear",
                                f"[{category}]", False, "certain")


def _items(ws: Path, path: Path, text: str, decrypted: bool = False, book: Any = None) -> Iterator[AuditItem]:
    rel = mask_name(_rel(ws, path))  # a secret in a file name is not repeated in the report
    findings = scan(text)
    lines = text.split("\n") if findings else []
    for f in findings:
        check = TOPIC_CHECK if f.category in TOPIC_CATEGORIES else CATEGORY_CHECK.get(f.category, "tier3")
        approved = bool(book is not None and f.confidence == POSSIBLE and f.line <= len(lines)
                        and book.covers(f, lines[f.line - 1]))
        yield AuditItem(rel, f.line, check, f.category, f.rule, f.excerpt, decrypted, f.confidence, approved)


_BOOKS: dict[str, Any] = {}


def _book(ws: Path) -> Any:
    """The workspace's approval record (:func:`memory_manager.gate.approval_book`), loaded once per audit."""
    key = str(ws)
    if key not in _BOOKS:
        from .gate import approval_book

        _BOOKS[key] = approval_book(ws)
    return _BOOKS[key]


def _is_notice(item: AuditItem) -> bool:
    """Sensitive topics and approved possible findings are notices: they do not fail the audit."""
    return item.check == TOPIC_CHECK or item.approved


def _t2_reader() -> tuple[Any, Any] | None:
    """Return (iter_t2_entries, decrypt_entry) from the store, or None when it is not installed."""
    # Imported lazily: the store writes this module, and the audit must still
    # run (scanning T2 files as text) where it is missing.
    try:
        tiers = importlib.import_module("memory_manager.tiers")
    except ImportError:
        return None
    iter_entries = getattr(tiers, "iter_t2_entries", None)
    decrypt = getattr(tiers, "decrypt_entry", None)
    if iter_entries is None or decrypt is None:
        return None
    return iter_entries, decrypt


def _entry_path(ws: Path, entry: Any) -> Path:
    path = Path(getattr(entry, "path"))
    return path if path.is_absolute() else ws / path


def _audit_t2(ws: Path, cfg: dict[str, Any], report: AuditReport, only: set[Path] | None) -> set[Path]:
    """Check every T2 entry (or those in ``only``); return the paths of the entries seen."""
    reader = _t2_reader()
    if reader is None:
        t2_dir = tree.Tree(ws).tier2.resolve()
        relevant = (any(t2_dir in p.parents for p in only) if only is not None
                    else t2_dir.is_dir() and any(t2_dir.iterdir()))
        if relevant:
            report.warnings.append("memory_manager.tiers is not available: Tier 2 entries were scanned as "
                                   "text only, not decrypted, and their expiry dates were not checked.")
        return set()
    iter_entries, decrypt = reader
    seen: set[Path] = set()
    xor_in_use = 0  # how many xor-b64 entries
    for entry in iter_entries(ws):
        path = _entry_path(ws, entry)
        if only is not None and path.resolve() not in only:
            continue
        seen.add(path.resolve())
        report.t2_entries += 1
        rel = _shown(ws, path)
        error = getattr(entry, "error", None)
        if error:
            report.unreadable.append({"file": rel, "reason": f"malformed entry: {error}"})
            continue
        meta = getattr(entry, "meta", None) or {}
        scheme = getattr(entry, "scheme", None) or meta.get("scheme")
        if str(scheme or "") == "xor-b64":
            xor_in_use += 1
        expires = getattr(entry, "expires", None) or meta.get("expires")
        if expires in (None, ""):
            report.findings.append(AuditItem(rel, None, "t2_expiry", "t2_expiry", "t2_expires_missing",
                                             "no 'expires' date"))
        try:
            plaintext = decrypt(entry, cfg)
        except MalformedKeyError:
            raise  # fail closed: the audit must not report "clean" on a broken key
        except MemoryManagerError as exc:
            report.unreadable.append({"file": rel, "reason": f"{exc.kind}: {exc}" if str(exc) else exc.kind})
            continue
        except (ValueError, UnicodeDecodeError) as exc:
            report.unreadable.append({"file": rel, "reason": f"cannot decrypt: {exc.__class__.__name__}"})
            continue
        report.t2_decrypted += 1
        for item in _items(ws, path, plaintext, decrypted=True, book=_book(ws)):
            (report.notices if _is_notice(item) else report.findings).append(item)
    if xor_in_use:
        report.warnings.append(xor_entries_warning(ws, xor_in_use))
    return seen


def _note_malformed(ws: Path, path: Path, text: str, report: AuditReport) -> None:
    """Name a memory file whose frontmatter the entry reader refuses (issue 12).

    The file is still scanned in full (its raw text is what a leak would be
    in); it is named among the warnings and never rewritten.
    """
    from .entries import parse_entries

    _, error = parse_entries(_rel(ws, path), tree.Tree(ws).kind_of(path) or "note", text)
    if error:
        report.warnings.append(f"{_shown(ws, path)}: malformed ({error}); scanned as plain text, not rewritten")


def _joined_list_items(ws: Path, path: Path, text: str, found: list[AuditItem]) -> Iterator[AuditItem]:
    """Findings in the frontmatter lists of ``text`` read with their values joined (tags split from one value).

    ``tags: [ghp_k3Jd…, …Gf]`` holds a token neither half of which is one:
    each list of two or more values is read as :func:`memory_manager.privacy.joined_readings`
    does (issue 10, attack round 5). A finding is reported on the list's line
    unless one of its category at least as sure is already there.
    """
    from .entries import split_frontmatter
    from .errors import MalformedFileError

    end = text.find("\n---", 3) if text.startswith("---") else -1
    if end < 0 or ("[" not in text[:end] and "- " not in text[:end]):
        return  # no frontmatter, or no list in it: nothing to parse
    try:
        fm = split_frontmatter(text)
    except MalformedFileError:
        return
    raw_lines = fm.raw.split("\n")
    rel = mask_name(_rel(ws, path))
    for key, value in fm.literal.items():
        if not isinstance(value, list) or len(value) < 2:
            continue
        readings = joined_readings(str(v) for v in value if isinstance(v, str))
        if not readings:
            continue
        # the line of the key (frontmatter line n is line n + 1 of the file: the opening ---)
        line = next((n + 2 for n, raw in enumerate(raw_lines) if raw.split(":", 1)[0].strip() == str(key)), 1)
        surest: dict[str, int] = {}
        for i in found:
            if i.line == line:
                surest[i.category] = max(surest.get(i.category, -1), CONFIDENCE_RANK[i.confidence])
        for f in scan_name("\n".join(readings)):
            if surest.get(f.category, -1) >= CONFIDENCE_RANK[f.confidence]:
                continue
            surest[f.category] = CONFIDENCE_RANK[f.confidence]
            check = TOPIC_CHECK if f.category in TOPIC_CATEGORIES else CATEGORY_CHECK.get(f.category, "tier3")
            yield AuditItem(rel, line, check, f.category, f.rule, f.excerpt, False, f.confidence)


def _audit_files(ws: Path, files: Iterable[Path], t2_paths: set[Path], report: AuditReport) -> None:
    for path in files:
        try:
            text = read_text(path).text
        except (UnreadableFileError, OSError) as exc:
            # Not clean (see AuditReport.clean). A file that is not UTF-8 is still
            # scanned as Latin-1 (every byte maps to a character), so an ASCII key
            # in it is reported with its line; the file stays listed as unread.
            reason = str(exc).split(": ", 1)[-1] if isinstance(exc, UnreadableFileError) else str(exc)
            report.unread_files.append({"file": _shown(ws, path),
                                        "reason": f"could not be read as UTF-8 text ({reason}): not fully checked"})
            try:
                text = read_regular(path).decode("latin-1").replace("\r\n", "\n")
            except OSError:
                continue
        report.files_scanned += 1
        # The file's name is memory too (a topic, key or skill became it):
        # scanned like its content, reported without a line (issue 10).
        rel = _rel(ws, path)
        for f in scan_name(rel):  # separators read as spaces too: ssn-078-05-1120.md
            check = TOPIC_CHECK if f.category in TOPIC_CATEGORIES else CATEGORY_CHECK.get(f.category, "tier3")
            item = AuditItem(mask_name(rel), None, check, f.category, f.rule, f.excerpt, False, f.confidence)
            (report.notices if _is_notice(item) else report.findings).append(item)
        if path.resolve() in t2_paths:
            report.findings += list(_ciphertext_in_clear(ws, path, text))
            text = _mask_ciphertext(text)
        elif path.suffix == ".md":
            _note_malformed(ws, path, text, report)
        items = list(_items(ws, path, text, book=_book(ws)))
        if path.suffix == ".md":
            items += list(_joined_list_items(ws, path, text, items))
        for item in items:
            (report.notices if _is_notice(item) else report.findings).append(item)


def _start(ws: Path, cfg: dict[str, Any], scope: str) -> AuditReport:
    ws = Path(ws).absolute()
    if not ws.is_dir():
        raise WorkspaceError(f"workspace {ws} is not a directory")
    report = AuditReport(workspace=ws, scope=scope)
    _BOOKS.clear()  # the approval record may have grown since the last audit in this process
    scheme = (cfg.get("tiers") or {}).get("encryption_scheme")
    if scheme == "xor-b64":
        report.warnings.append(xor_config_warning(ws))
    return report


def _finish(report: AuditReport) -> AuditReport:
    key = lambda item: (item.file, item.line or 0, item.check, item.rule)  # noqa: E731
    report.findings.sort(key=key)
    report.notices.sort(key=key)
    report.unreadable.sort(key=lambda row: row["file"])
    report.skipped.sort(key=lambda row: row["file"])
    report.unread_files.sort(key=lambda row: row["file"])
    return report


def audit_workspace(ws: Path, cfg: dict[str, Any]) -> AuditReport:
    """Run the privacy checklist over ``MEMORY.md`` and the whole ``memory/`` tree.

    Args:
        ws: the workspace folder.
        cfg: the loaded configuration (``config.load_config``); ``tiers``
            settings decide the key used for T2 entries and whether
            ``xor-b64`` is in use.

    Returns an :class:`AuditReport`; ``report.clean`` is False when any
    checklist item failed. Reads only; changes nothing.

    Raises:
        WorkspaceError: ``ws`` is not a directory.
    """
    report = _start(ws, cfg, "workspace")
    ws = report.workspace
    files, skipped = memory_files(ws)
    report.skipped.extend(skipped)
    t2_paths = _audit_t2(ws, cfg, report, None)
    _audit_files(ws, files, t2_paths, report)
    return _finish(report)


def audit_paths(ws: Path, paths: Iterable[Path | str], cfg: dict[str, Any]) -> AuditReport:
    """Run the same checks over a list of changed files only (what the hooks call).

    Args:
        ws: the workspace folder.
        paths: files or folders, absolute or relative to ``ws``. Missing
            paths are ignored (a change may be a deletion); paths outside
            the workspace are listed as skipped, never read.
        cfg: the loaded configuration.

    Returns an :class:`AuditReport` with ``scope`` "paths". T2 entries among
    the paths are decrypted and checked as in :func:`audit_workspace`.

    Raises:
        WorkspaceError: ``ws`` is not a directory.
    """
    report = _start(ws, cfg, "paths")
    ws = report.workspace
    ws_resolved = ws.resolve()
    wanted: list[Path] = []
    for raw in paths:
        path = Path(raw)
        path = path if path.is_absolute() else ws / path
        if not path.exists() and not path.is_symlink():
            continue
        if not _inside(ws_resolved, path):
            report.skipped.append({"file": _shown(ws, path), "reason": "outside the workspace"})
            continue
        if path.is_dir():
            for folder, dirs, names in os.walk(path, followlinks=False):
                dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not (Path(folder) / d).is_symlink())
                for name in sorted(names):
                    child = Path(folder) / name
                    if child.is_file() and _inside(ws_resolved, child) and name not in SKIPPED_FILES:
                        wanted.append(child)
        elif path.is_file():
            wanted.append(path)
    unique: dict[Path, Path] = {}
    for path in wanted:
        unique.setdefault(path.resolve(), path)
    t2_paths = _audit_t2(ws, cfg, report, set(unique)) if unique else set()
    _audit_files(ws, sorted(unique.values(), key=lambda p: _rel(ws, p)), t2_paths, report)
    return _finish(report)


# ---------------------------------------------------------------- the last run

#: ``memory/.state/<LAST_NAME>``: the summary of the last whole-workspace audit
#: (format ``cmm-audit-last`` v1, references/formats.md), read by the report.
LAST_NAME = "privacy-audit.json"
LAST_FORMAT = {"format": "cmm-audit-last", "version": 1}


def record_last(ws: Path, report: AuditReport) -> Path | None:
    """Keep the summary of ``report`` as the workspace's last audit; return its path.

    Only a whole-workspace audit of a set-up workspace is kept (a folder
    init.py never set up gets no ``memory/``). The document is the
    ``privacy-audit`` report with the time (``at``) and without the
    workspace path; a finding in decrypted T2 text keeps no excerpt (its
    surroundings are T2 plaintext). Written atomically, mode 0600.

    Raises:
        FileWriteError: the file could not be written.
    """
    from .clock import now
    from .fsio import atomic_write
    from .workspace import is_set_up

    if report.scope != "workspace" or not is_set_up(ws):
        return None
    doc = report.to_json()
    doc.pop("workspace", None)
    for key in ("findings", "notices"):
        for item in doc[key]:
            if item.get("decrypted"):
                item["excerpt"] = None
    doc = {**LAST_FORMAT, "at": now().isoformat(timespec="seconds"), "report": doc}
    path = tree.Tree(Path(ws)).state_file(LAST_NAME)
    atomic_write(path, (json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode("utf-8"), mode=0o600)
    return path


def read_last(ws: Path) -> dict[str, Any] | None:
    """Return the last audit kept by :func:`record_last` (``{"at", "report"}``), or None.

    None when the audit never ran here, or the file is unreadable or of
    another format or a newer version (readers ignore unknown keys).
    """
    try:
        doc = _parse_json(read_regular_text(tree.Tree(Path(ws)).state_file(LAST_NAME), "utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("format") != LAST_FORMAT["format"] \
            or not isinstance(doc.get("version"), int) or doc["version"] > LAST_FORMAT["version"] \
            or not isinstance(doc.get("report"), dict):
        return None
    return doc
