"""The 7-day cleanup: the Tiers seed's protocol plus the Optimization seed's maintenance.

Steps, in the order they run (``references/cleanup.md`` explains each):

1. **Purge or quarantine** T2 entries that hold personal data or secrets
   (the Tiers seed's step 3, made safe by issue 10; :mod:`quarantine`).
   Only an entry with a *certain* finding and no approval is purged at
   once: no backup copy, and its copies in backups, archive, index and logs
   go too (:mod:`erasure`); from its first deletion a killed run is finished by
   the next command, not rolled back (:func:`finish_purge`). An approved entry with only *possible* findings
   stays; anything else with a finding moves to ``memory/.quarantine``
   (sealed, listed by ``status``, restored by ``memory.py unquarantine``,
   purged only by ``forget --approved``). This runs *before* archiving, so
   flagged entries never reach the archive. The audit log gets a record
   without content. Entries that cannot be decrypted (aes-gcm without the
   key) are reported as unchecked.
2. **Archive** T2 entries created more than ``tiers.t2_expiry_days`` (30)
   days ago or past ``expires`` into ``memory/archive/YYYY-MM/`` (month of
   creation). A file whose entries all qualify is moved byte-identical; the
   qualifying entries of a partly-expired multi file are moved as a multi
   file of their own. T1 statistics are aggregates and stay; daily notes and
   the knowledge base are never archived by age.
3. **Merge** exact duplicates: T2 entries of one skill with the same plain
   text (whitespace normalised) keep the earliest; daily-note sections with
   the same date and topic merge into the first, keeping every distinct line
   in order; repeated lines inside a section go.
4. **Compact** T2 entries of the same ``source_skill`` and key month into
   one ``cmm-t2-multi`` file (only where there are two or more).
5. **MEMORY.md**: exact duplicate lines are reported; they are removed only
   with ``approved=True`` (the user's file: deleting needs approval).
6. **Prune** by value and capacity window (recall issue; :mod:`memory_manager.prune`);
   then **retire** T1 usage patterns not seen for ``cleanup.pattern_retention_days``
   (90) to the archive (:func:`retire_patterns`). Archived entries stay searchable
   (recall marks them), ``memory.py unarchive ID`` brings one back, and
   ``memory.py status`` previews what the window would archive before it runs.
7. **Archive retention**: archived files older than
   ``cleanup.archive_retention_days`` (90) are listed, and deleted only with
   ``purge_archive`` or ``cleanup.purge_archive: true`` in the config.
8. **Log** ``[YYYY-MM-DD] Memory cleanup: X archived, Y deleted, Z merged``
   to ``memory/.state/cleanup.log``, rebuild the indexes, and stamp the run
   in ``memory/.state/cleanup.json`` (``--if-due`` reads it).

Moving and merging are pre-approved maintenance (audit-logged). Everything
changed, except purged PII, is backed up first through :mod:`backups`, so
``init --restore`` undoes a cleanup. Symlinks are never followed out of the
workspace. The whole run holds the workspace lock.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

from .jsonio import parse as _parse_json
from .regular import read_regular, read_regular_text
from . import auditlog, backups, crypto, entries, erasure, gate, markdown, privacy, quarantine, tiers, tree
from .clock import from_timestamp, month_of, now, parse_day, today
from .errors import KeyUnavailableError, MalformedKeyError, MemoryManagerError, UnreadableFileError
from . import fsio
from .fsio import atomic_write, atomic_write_text, read_text, sha256_bytes, workspace_lock
from .gate import redacted_summary
from .workspace import inside, require_set_up
from . import jsonio

STATE_NAME = "cleanup.json"
LOG_NAME = "cleanup.log"
LEDGER_NAME = "archive-ledger.json"
STATE_FORMAT = {"format": "cmm-cleanup-state", "version": 1}
#: What makes a T2 entry purged at once (Tiers seed, cleanup step 3: "accidental
#: PII"): secrets and the T3 categories, plus what names a person (a name, a
#: handle, a home folder with a user name). A sensitive *topic* (health, ...)
#: or a clock time ("before 8am") is not PII: the gate holds those for approval
#: and the privacy audit reports them, but deleting an entry for them would
#: destroy ordinary notes.
PURGE_CATEGORIES = {c for c, (_, t3) in privacy.CATEGORIES.items() if t3} | {"name", "handle", "home_path"}


@dataclass
class Action:
    """One thing cleanup did (or, in a dry run, would do)."""

    step: str
    path: str
    detail: str
    target: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {"step": self.step, "path": self.path, "detail": self.detail}
        if self.target:
            out["target"] = self.target
        return out


@dataclass
class Report:
    """What a cleanup run found and did. Counts follow the seed's log line."""

    dry_run: bool
    due: bool = True
    ran: bool = True
    actions: list[Action] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    archived: int = 0
    deleted: int = 0
    merged: int = 0
    patterns_retired: int = 0
    quarantined: int = 0
    erased: dict[str, int] = field(default_factory=dict)
    #: Backups past the retention policy kept because they hold the only copy of a user's
    #: file (issue 10; backups.retention): {backup id: [the files, masked]}.
    kept_only_copy: dict[str, list[str]] = field(default_factory=dict)
    backup: str | None = None
    log_line: str = ""
    last_run: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"dry_run": self.dry_run, "due": self.due, "ran": self.ran, "archived": self.archived,
                "deleted": self.deleted, "merged": self.merged, "patterns_retired": self.patterns_retired,
                "quarantined": self.quarantined, "erased": self.erased, "backup": self.backup,
                "backups_kept_only_copy": self.kept_only_copy,
                "log_line": self.log_line, "last_run": self.last_run,
                "actions": [a.as_dict() for a in self.actions], "problems": self.problems}


class _Run:
    """State shared by the steps of one cleanup run."""

    def __init__(self, ws: Path, cfg: dict[str, Any], report: Report,
                 progress: Callable[[str], None] | None) -> None:
        self.ws = ws
        self.cfg = cfg
        self.report = report
        self.progress = progress or (lambda _step: None)
        self._backup: backups.Backup | None = None
        self.today = today()
        #: Each T2 entry's plain text, read once per run (None: it cannot be read): the steps
        #: after the scan ask again, and a warning said per step was said twice (r9, item 6).
        self.plain: dict[tuple[Path, int | None, str], str | None] = {}
        #: Entries the current T2 key cannot decrypt (sealed with another key, or damaged),
        #: by the same key: left exactly where they are (never merged or combined with entries
        #: under the current key), each named once as an action, and one warning for all.
        self.unreadable: dict[tuple[Path, int | None, str], tiers.T2Entry] = {}

    @property
    def dry(self) -> bool:
        return self.report.dry_run

    def rel(self, path: Path) -> str:
        return path.relative_to(self.ws).as_posix()

    def backup(self) -> backups.Backup:
        """The run's backup, opened on the first change (a no-op run makes none)."""
        if self._backup is None:
            # Maintenance moves entries (compaction, archive) or purges them: no byte of
            # the user's is lost without a copy, so a keyless install withholds the
            # copies it cannot seal and says so (backups.start).
            self._backup = backups.start(self.ws, "cleanup", allow_withheld=True)
            self.report.backup = self._backup.id
        return self._backup

    def shown(self, path: Path) -> str:
        """``path`` as an action line names it: relative to the workspace, or whole when it lies outside.

        A report written with ``--html`` elsewhere is deleted by a purge and named by its
        own path (attack round 15: the relative form raised ValueError after the purge,
        and the run ended with "unexpected ValueError" instead of its report).
        """
        for base in (self.ws, self.ws.absolute()):
            try:
                return Path(path).relative_to(base).as_posix()
            except ValueError:
                continue
        return Path(path).as_posix()

    def act(self, step: str, path: Path, detail: str, target: Path | None = None) -> None:
        # Paths as shown (issue 10, round 4): a token or number in a file name is masked
        # as recall masks text; stdout of an automatic run lands in maintain.log.
        self.report.actions.append(Action(step, privacy.mask_name(self.shown(path)), detail,
                                          privacy.mask_name(self.shown(target)) if target else None))

    def audit(self, operation: str, decision: str, text: str, findings: list[Any], entry: str | None = None) -> None:
        """Append a redacted maintenance record to the gate's audit log (``entry``: the entry's id, v3)."""
        if self.dry:
            return
        # The log is part of the change: a rolled-back (killed) cleanup takes its records back too.
        self.backup().save(auditlog.log_path(self.ws))
        record = _Maintenance(operation=operation, decision=decision,
                              categories=sorted({f.category for f in findings}),
                              summary=redacted_summary(text, findings), chars=len(text),
                              content_hash=sha256_bytes(text.encode("utf-8")))
        auditlog.append(self.ws, record, entry=entry)


@dataclass
class _Maintenance:
    """An audit-log record for maintenance (same fields as a gate Decision)."""

    operation: str
    decision: str
    categories: list[str]
    summary: str
    chars: int
    content_hash: str
    source: str = "tool_output"
    sensitivity: str = "unknown"
    approval: str = "not_needed"


# ----------------------------------------------------------------------------- state

def state_dir(ws: Path) -> Path:
    """Return ``memory/.state`` (non-derivable state: logs, stamps, ledgers)."""
    return tree.Tree(ws).state


def last_run(ws: Path) -> datetime | None:
    """Return the time of the last cleanup run, or None (never run, or an unreadable stamp)."""
    try:
        doc = jsonio.loads(read_regular_text(state_dir(ws) / STATE_NAME, "utf-8"), STATE_NAME)
        value = datetime.fromisoformat(str(doc["last_run"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def last_summary(ws: Path) -> dict[str, Any] | None:
    """Return the last run's stamp: ``last_run`` (ISO 8601) and, when recorded,
    ``archived``, ``deleted``, ``merged`` (counts) and ``log_line``; None when
    cleanup never ran here (or the stamp is unreadable)."""
    when = last_run(ws)
    if when is None:
        return None
    try:
        doc = _parse_json(read_regular_text(state_dir(ws) / STATE_NAME, "utf-8"))
    except (OSError, ValueError):
        return None
    out: dict[str, Any] = {"last_run": when.isoformat()}
    for key in ("archived", "deleted", "merged"):
        if isinstance(doc.get(key), int) and not isinstance(doc.get(key), bool):
            out[key] = doc[key]
    if isinstance(doc.get("log_line"), str):
        out["log_line"] = doc["log_line"]
    return out


def is_due(ws: Path, cfg: dict[str, Any]) -> bool:
    """True when ``cleanup.interval_days`` (7, the Tiers seed) have passed since the last run."""
    previous = last_run(ws)
    return previous is None or now() - previous >= timedelta(days=cfg["cleanup"]["interval_days"])


def _odd_state_files(ws: Path) -> list[str]:
    """Cleanup's own state files (stamp, log, ledger) that are there but are no regular file,
    each as ``memory/.state/<name>: not a regular file (a FIFO)`` (a symlink is followed)."""
    import stat

    from .regular import file_kind

    odd = []
    for name in (STATE_NAME, LOG_NAME, LEDGER_NAME):
        try:
            mode = (state_dir(ws) / name).stat().st_mode
        except FileNotFoundError:
            continue
        except OSError as exc:
            odd.append(f"{tree.rel(tree.STATE, name)}: cannot read ({exc.strerror})")
            continue
        if not stat.S_ISREG(mode):
            odd.append(f"{tree.rel(tree.STATE, name)}: not a regular file ({file_kind(mode)})")
    return odd


def _ledger(ws: Path) -> dict[str, str]:
    try:
        data = jsonio.loads(read_regular_text(state_dir(ws) / LEDGER_NAME, "utf-8"), LEDGER_NAME)
        return {str(k): str(v) for k, v in data.get("archived", {}).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def _save_ledger(run: "_Run", ledger: dict[str, str]) -> None:
    doc = {"format": "cmm-archive-ledger", "version": 1, "archived": dict(sorted(ledger.items()))}
    run.backup().save(state_dir(run.ws) / LEDGER_NAME)
    atomic_write(state_dir(run.ws) / LEDGER_NAME, (json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"))


# ----------------------------------------------------------------------------- helpers

def _norm(text: str) -> str:
    return " ".join(text.split())


def _without(t2: list[tiers.T2Entry], gone: list[tiers.T2Entry]) -> list[tiers.T2Entry]:
    """``t2`` minus the entries in ``gone`` (by identity: linear, where ``not in`` on a list is quadratic)."""
    drop = {id(e) for e in gone}
    return [e for e in t2 if id(e) not in drop]


def _free_name(folder: Path, name: str, taken: set[Path] | None = None) -> Path:
    """Return ``folder/name``, or ``stem-2.md``, ``stem-3.md``... when taken (archives never overwrite).

    ``taken``: names already promised to other moves of the same run.
    """
    candidate = folder / name
    stem, suffix = os.path.splitext(name)
    n = 2
    while candidate.exists() or candidate.is_symlink() or candidate in (taken or ()):
        candidate = folder / f"{stem}-{n}{suffix}"
        n += 1
    return candidate


def _archive_dir(run: _Run, month: str) -> Path:
    root = tree.Tree(run.ws).archive
    if root.is_symlink() and not inside(run.ws, root):
        raise MemoryManagerError(f"{tree.rel(tree.ARCHIVE)} is a symlink out of the workspace; refusing to archive")
    return root / month


def _make_dir(run: _Run, folder: Path) -> None:
    """Create ``folder`` (and parents), recording each new one so a restore removes it."""
    missing = [p for p in [folder, *folder.parents] if not p.exists() and inside(run.ws, p)]
    for path in reversed(missing):
        run.backup().save_new_dir(path)
    fsio.make_dirs(folder)


def _t2_entries(run: _Run) -> list[tiers.T2Entry]:
    """The T2 entries cleanup may touch: symlinks and malformed files are reported and left alone."""
    found = []
    links: set[Path] = set()
    folder = tree.Tree(run.ws).tier2
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.is_symlink() and not entries.stays_inside(run.ws, path):  # never listed by tiers: named here
                links.add(path)
                run.report.problems.append(f"{run.rel(path)}: symlink out of the workspace, left alone "
                                           "(cleanup never follows links)")
    for entry in tiers.iter_t2_entries(run.ws):
        rel = run.rel(entry.path)
        if entry.path.is_symlink():
            if entry.path not in links:  # a multi file yields one entry per section: report it once
                links.add(entry.path)
                run.report.problems.append(f"{rel}: symlink, left alone (cleanup never follows links)")
            continue
        if entry.error:
            run.report.problems.append(f"{rel}: {entry.error} (left unchanged)")
            continue
        if entry.created is None:
            raw = entry.meta.get("created")
            run.report.problems.append(f"{rel}: created date missing or not a date ({raw!r}); not archived by age")
        if entry.expires is None:
            raw = entry.meta.get("expires")
            run.report.problems.append(f"{rel}: expires missing or not a date ({raw!r})")
        found.append(entry)
    return found


def _entry_key(entry: tiers.T2Entry) -> tuple[Path, int | None, str]:
    return (entry.path, entry.index, entry.id)


def _plain(run: _Run, entry: tiers.T2Entry) -> str | None:
    """The entry's plain text, decrypted once per run; None without the key or when it cannot be read.

    An entry the key cannot open (a key change: sealed with the old key; or damaged) goes to
    ``run.unreadable`` (said once per entry and once in all by :func:`_say_unreadable`).
    """
    key = _entry_key(entry)
    if key in run.plain:
        return run.plain[key]
    text: str | None = None
    try:
        text = tiers.decrypt_entry(entry, run.cfg)
    except KeyUnavailableError:
        pass
    except MalformedKeyError:
        raise  # a broken key is the user's to fix, never a reason to clean up blind
    except MemoryManagerError:
        run.unreadable[key] = entry
    run.plain[key] = text
    return text


def _say_unreadable(run: _Run) -> None:
    """One action per entry the current key cannot decrypt, and one warning for them all."""
    if not run.unreadable:
        return
    for entry in run.unreadable.values():
        run.act("left as is", entry.path, f"T2 entry {entry.id} cannot be decrypted with the current T2 key: "
                                          "not checked for personal data, not merged or combined")
    files = sorted({run.rel(e.path) for e in run.unreadable.values()})
    n = len(run.unreadable)
    run.report.problems.append(
        f"{n} T2 entr{'y' if n == 1 else 'ies'} in {', '.join(files)} cannot be decrypted with the current T2 key "
        "(sealed with another key, or damaged): left as "
        f"{'it is' if n == 1 else 'they are'}; with the key that sealed "
        f"{'it' if n == 1 else 'them'} back (tiers.key_file or MEMORY_MANAGER_KEY) the next cleanup checks "
        f"{'it' if n == 1 else 'them'}")


def _rewrite_without(run: _Run, path: Path, drop: list[tiers.T2Entry], backup: bool = True) -> None:
    """Remove ``drop`` entries from ``path`` (delete the file when nothing is left)."""
    gone = {d.id for d in drop}
    remaining = [e for e in tiers.parse_t2(read_text(path).text, path) if e.id not in gone]
    if backup:
        run.backup().save(path)
    if not remaining:
        fsio.remove(path)
        return
    skill = remaining[0].skill
    month = remaining[0].month
    atomic_write(path, tiers.render_multi(skill, month, remaining).encode("utf-8"), mode=0o600)


def _remove_entries(run: _Run, dropped: list[tiers.T2Entry], backup: bool) -> None:
    by_file: dict[Path, list[tiers.T2Entry]] = {}
    for entry in dropped:
        by_file.setdefault(entry.path, []).append(entry)
    for path, drop in by_file.items():
        if not path.exists():
            continue
        if drop[0].index is None:  # a single-entry file
            if backup:
                run.backup().save(path)
            fsio.remove(path)
        else:
            _rewrite_without(run, path, drop, backup=backup)


# ----------------------------------------------------------------------------- steps

def purge_pii(run: _Run, t2: list[tiers.T2Entry]) -> list[tiers.T2Entry]:
    """Step 1: purge, quarantine or keep each T2 entry with a finding (:func:`quarantine.decide`); return the rest.

    The entry's skill and topic are scanned with its text: they are part of
    its file name and frontmatter.
    """
    purged: list[tuple[tiers.T2Entry, str]] = []
    held: list[tuple[tiers.T2Entry, str, str]] = []
    unchecked = 0
    unjudged = 0
    for entry in t2:
        text = _plain(run, entry)
        if text is None:
            unchecked += _entry_key(entry) not in run.unreadable  # those have a line of their own
            continue
        findings = [f for f in privacy.scan(text) if f.category in PURGE_CATEGORIES]
        names = [f for f in privacy.scan_name(f"{entry.skill}\n{entry.topic}") if f.category in PURGE_CATEGORIES]
        what = quarantine.decide(run.ws, entry, text, findings + names, run.cfg)
        if what == "keep" and not (findings or names):
            continue
        cats = ", ".join(sorted({f.category for f in findings + names}))
        kinds = ", ".join(sorted({quarantine.confidence(f) for f in findings + names}))
        if what == "keep":
            run.act("keep", entry.path, f"T2 entry {entry.id} holds possible {cats}: kept (approved by the user)")
        elif what == "unchecked":
            # Its approval mark was keyed with a secret not at hand (no T2 key in this shell, a
            # new key, another HOME's hash-secret): not a mark that failed, so the entry stays
            # where it is (issue 10: cleanup never moves what the user approved; round 16).
            run.act("left as is", entry.path, f"T2 entry {entry.id} holds possible {cats} and an approval mark "
                                              "that cannot be checked here (its key is not at hand): left in place")
            unjudged += 1
        elif what == "purge":
            # Its name goes with it (issue 10): the report (kept in memory/.state by the
            # hooks' upkeep) names it by a stand-in, never by its file name or id (a plain
            # hash of skill and topic).
            hidden = backups.hidden_name(entry.id)
            run.act("purge", entry.path.with_name(hidden + ".md"),
                    f"T2 entry {hidden} holds certain {cats} and no approval: deleted with every copy")
            run.audit("delete", "purge_pii", text, findings + names)
            purged.append((entry, text))
        else:
            approved = ""
            state = quarantine.approval_state(run.ws, entry, text, run.cfg)
            if state != "none":
                approved = {"valid": " (approved before the detector knew it)",
                            "unchecked": " (its approval mark cannot be checked here: its key is not at hand)"}.get(
                                state, " (its approval mark does not verify: a claim, not the user's word)")
            run.act("quarantine", entry.path, f"T2 entry {entry.id} holds {kinds} {cats}{approved}: "
                                              "quarantined (memory.py unquarantine / forget --approved)")
            run.audit("quarantine", "quarantine", text, findings + names, entry=entry.id or None)
            held.append((entry, text, f"{kinds} {cats}"))
    if unchecked:
        run.report.problems.append(f"{unchecked} T2 entr{'y' if unchecked == 1 else 'ies'} could not be checked for "
                                   "PII (no aes-gcm key)")
    if unjudged:
        run.report.problems.append(
            f"{unjudged} approved T2 entr{'y' if unjudged == 1 else 'ies'} with possible findings left in place: "
            "the approval mark cannot be checked without the secret that made it (the store's T2 key, or the "
            "hash-secret of the HOME where it was approved); run cleanup where that secret is")
    _say_unreadable(run)
    if not run.dry:
        for entry, text, reason in held:
            quarantine.add(run.ws, run.cfg, entry, text, reason, run.backup())
        _remove_entries(run, [e for e, _, _ in held], backup=True)
        if purged:
            _purge(run, purged)
    run.report.deleted += len(purged)
    run.report.quarantined += len(held)
    return _without(t2, [e for e, _ in purged] + [e for e, _, _ in held])


def _purge(run: _Run, purged: list[tuple[tiers.T2Entry, str]]) -> None:
    """Delete the purged entries with every copy, past a point of no return (fatk11).

    The purge destroys what a rollback would need (the entries keep no backup
    copy; their copies elsewhere and the keyed hashes of their audit records
    go), so a run killed in it used to be rolled back half-way: the audit log
    came back from the copy taken before the purge, with the purged entry's
    hashes and without the ``purge_pii`` record, while the entry stayed deleted.
    Now the run's journal holds a ``purge`` plan (:meth:`backups.Backup.roll_forward`)
    before the first entry goes, and :func:`finish_purge` does the rest; a run
    killed in there is finished by the next command, never rolled back. Once
    it is done, the backup's copy of the audit log is the blanked log
    (:meth:`backups.Backup.rebase`: the backup keeps no erased hash either)
    and the journal rolls back again, to the state right after the purge, for
    the steps that follow.
    """
    backup = run.backup()
    log = auditlog.log_path(run.ws)
    backup.save(log)  # saved by run.audit already; a rebase needs the entry
    # The decrypted text is a needle of the erasure: sealed in the plan with the store's key, as
    # forget's plan does (issue 10); without a key the entry was xor-b64, its text as good as plain.
    key = backups.sealing_key(run.ws)
    items = []
    for entry, text in purged:
        items.append({"ident": entry.id or "", "skill": entry.skill, "topic": entry.topic or "",
                      "file": run.rel(entry.path),
                      "needles": erasure.forward_needles([text, entry.ciphertext or ""], key),
                      "audit_hashes": auditlog.hashes_of(run.ws, [text, f"{entry.skill}\n{entry.topic}\n{text}"]),
                      "audit_refs": auditlog.refs_of(run.ws, [entry.id] if entry.id else []),
                      "drop_approvals": gate.approval_keys_of(run.ws, text)})
    plan = {"kind": "purge", "items": items, "audit_known": auditlog.at_hand(run.ws)}
    backup.roll_forward(plan)
    try:
        result = finish_purge(run.ws, plan, backup)
        # What it did stays in the journal: a kill after this point rolls back to the state
        # right after the purge, and the re-run reports the purge as its own (fault16).
        backup.resume_rollback(done={"kind": "purge", "deleted": result["deleted"], "erased": result["erased"]})
    except Exception:
        # Past the point of no return: the plan stays in the journal (closed as complete, it
        # would go), so the next command finishes the purge (as forget does, fatk10).
        backups.leave_for_rollback(run.ws, backup)
        raise
    run.report.problems.extend(result["problems"])
    for path in result["reports_deleted"]:  # a report written with --html that showed what was purged
        run.act("purge", Path(path), "report written with --html deleted (it held a purged entry)")
    run.report.erased = result["erased"]
    if result["erased"].get("report"):  # the cached HTML report may have shown what was purged
        run.act("purge", tree.Tree(run.ws).report, "cached HTML report deleted")


def _drop_entry(ws: Path, rel: str, ident: str) -> None:
    """Remove entry ``ident`` from T2 file ``rel`` (the file goes with its last entry); nothing when it is gone."""
    path = ws / rel
    if path.is_symlink() or not path.is_file() or not inside(ws, path):
        return
    found = tiers.parse_t2(read_text(path).text, path)
    if not any(e.id == ident for e in found):
        return
    remaining = [e for e in found if e.id != ident]
    if not remaining or found[0].index is None:
        fsio.remove(path)
        return
    atomic_write(path, tiers.render_multi(remaining[0].skill, remaining[0].month, remaining).encode("utf-8"),
                 mode=0o600)


def _item_paths(ws: Path, item: dict[str, Any]) -> list[str]:
    """The files of a purge plan's ``item`` whose every backup copy goes: its T2 file once it is gone
    (a file of its own: its name goes too), and the file of its own it had before compaction combined
    it into a month file (atk11)."""
    rel = str(item.get("file"))
    gone = [] if (ws / rel).exists() else [rel]
    try:
        home = tiers.t2_path(ws, str(item.get("skill")), str(item.get("topic")))
    except MemoryManagerError:
        home = None
    if home is not None and not home.exists() and home.relative_to(ws).as_posix() not in gone:
        gone.append(home.relative_to(ws).as_posix())
    return gone


def purge_erasures(ws: Path, plan: dict[str, Any]) -> list[dict[str, Any]]:
    """The backup erasure :func:`finish_purge` would do for ``plan``, one
    :func:`memory_manager.backups.erase_copies` keyword set per item (``needles``, ``paths``), for a
    check of a plan read from a journal (:func:`memory_manager.backups.recover`). Changes nothing.
    (A T2 file the purge would remove later is not among ``paths`` yet: it is never a user's file.)"""
    return [{"needles": [n for n in erasure.needles_from_plan(item.get("needles"), ws) if n],
             "paths": _item_paths(ws, item)} for item in plan.get("items") or [] if isinstance(item, dict)]


def finish_purge(ws: Path, plan: dict[str, Any], backup: backups.Backup | None = None) -> dict[str, Any]:
    """The part of cleanup's purge after its point of no return, from its journal's plan (:func:`_purge`).

    Called by the purge itself and, for a run killed in here, by the next
    command that takes the workspace lock (:func:`memory_manager.backups.recover`),
    so every step is idempotent: an entry already gone is not looked for again,
    and :func:`memory_manager.erasure.erase`, :func:`auditlog.blank_hashes` and
    :func:`gate.drop_approvals` find only what is still there.

    Args:
        ws: the workspace.
        plan: ``{"kind": "purge", "audit_known": {kid: [kfp, ...]}, "items": [{"ident", "skill",
            "topic", "file" (workspace-relative T2 file), "needles" (:func:`erasure.forward_needles`),
            "audit_hashes", "audit_refs", "drop_approvals"}, ...]}`` (checked by the backups module).
        backup: the purge's backup: its copy of the audit log becomes the blanked log
            (:meth:`backups.Backup.rebase`).

    Returns ``{"deleted": n, "erased": {counts summed over the entries}, "reports_deleted": [path, ...],
    "problems": [...]}``.
    """
    from .config import load_config, load_defaults

    ws = Path(ws)
    try:
        cfg = load_config(ws)
    except MemoryManagerError:
        cfg = load_defaults()  # only archived T2 copies are decrypted with it
    known = erasure.known_from_plan(plan.get("audit_known"))
    totals: dict[str, int] = {}
    problems: list[str] = []
    reports: list[str] = []
    items = [i for i in plan.get("items") or [] if isinstance(i, dict)]
    with workspace_lock(ws):
        for item in items:
            rel, ident = str(item.get("file")), str(item.get("ident") or "")
            _drop_entry(ws, rel, ident)
        for item in items:
            ident = str(item.get("ident") or "")
            skill, topic = str(item.get("skill")), str(item.get("topic"))
            gone = _item_paths(ws, item)
            counts = erasure.erase(ws, cfg, ident=ident or None, needles=erasure.needles_from_plan(item.get("needles"), ws),
                                   indexed=False, names=[n for n in (topic, f"{skill}_{topic}") if n], paths=gone)
            # Every audit record of the entry loses its hash, as forget's do (v3 by its keyed id,
            # older ones by the hash of its text; issue 10, atk11), and so does every record this
            # run cannot recompute (keyed with a T2 key absent here, or another one): it may be the
            # purged entry's (atk13: a keyless cleanup, run by a hook, kept the t2-keyed record).
            counts["logs"] = counts.get("logs", 0) + auditlog.blank_hashes(
                ws, list(item.get("audit_hashes") or []), list(item.get("audit_refs") or []), known)
            # The approvals of the values it held go as forget's do, with every line this run
            # cannot recompute (gate.drop_approvals; issue 10, atk13).
            dropped = gate.drop_approvals(ws, list(item.get("drop_approvals") or []), known)
            if dropped:
                counts["approvals"] = counts.get("approvals", 0) + dropped
            problems.extend(counts.pop("problems"))
            reports.extend(counts.pop("reports_deleted"))
            counts.pop("reports_changed")
            for name, value in counts.items():
                totals[name] = totals.get(name, 0) + value
        totals["reports"] = totals.get("reports", 0) + len(reports)
        if backup is not None:
            backup.rebase(auditlog.log_path(ws))
    return {"deleted": len(items), "erased": totals, "reports_deleted": reports, "problems": problems}


def expired_t2(t2: list[tiers.T2Entry], cfg: dict[str, Any], on: date) -> list[tiers.T2Entry]:
    """The entries of ``t2`` that cleanup archives on day ``on``: created more than
    ``tiers.t2_expiry_days`` days before it, or past their own ``expires`` date.

    One rule for cleanup (:func:`archive_expired`) and status's forecast of it (nu16 item 8).
    """
    limit = timedelta(days=cfg["tiers"]["t2_expiry_days"])
    return [e for e in t2 if (e.created is not None and on - e.created > limit)
            or (e.expires is not None and e.expires < on)]


def archive_expired(run: _Run, t2: list[tiers.T2Entry]) -> list[tiers.T2Entry]:
    """Step 2: move T2 entries older than the expiry or past ``expires`` to the archive."""
    expired = expired_t2(t2, run.cfg, run.today)
    if not expired:
        return t2
    by_file: dict[Path, list[tiers.T2Entry]] = {}
    for entry in expired:
        by_file.setdefault(entry.path, []).append(entry)
    per_file: dict[Path, int] = {}
    for entry in t2:
        per_file[entry.path] = per_file.get(entry.path, 0) + 1
    ledger = _ledger(run.ws)
    stamp = now().isoformat(timespec="seconds")
    whole: list[tuple[Path, Path]] = []
    partial: list[tuple[Path, Path, list[tiers.T2Entry], str]] = []
    taken: set[Path] = set()
    for path, group in sorted(by_file.items()):
        created = min((e.created for e in group if e.created), default=run.today)
        month = f"{created.year:04d}-{created.month:02d}"
        folder = _archive_dir(run, month)
        if len(group) == per_file[path]:
            target = _free_name(folder, path.name, taken)
            run.act("archive", path, f"{len(group)} T2 entr{'y' if len(group) == 1 else 'ies'} expired: moved unchanged", target)
            whole.append((path, target))
        else:
            target = _free_name(folder, tiers.multi_name(group[0].skill, group[0].month or month), taken)
            run.act("archive", path, f"{len(group)} expired entries of a multi file moved", target)
            partial.append((path, target, group, group[0].month or month))
        taken.add(target)
        run.report.archived += len(group)
    if run.dry:
        return _without(t2, expired)
    # One batch: every source and target is backed up (about one fsync per
    # file, issue 11: linear), the month folders made, then the moves; the
    # folders are fsynced once at the end.
    run.backup().save_many([p for pair in whole for p in pair] + [target for _, target, _, _ in partial])
    for folder in sorted({target.parent for _, target in whole} | {target.parent for _, target, _, _ in partial}):
        _make_dir(run, folder)
    for path, target in whole:
        fsio.move(path, target, sync=False)
        ledger[run.rel(target)] = stamp
    for folder in {p.parent for pair in whole for p in pair}:
        fsio.sync_dir(folder)
    for path, target, group, month in partial:
        atomic_write(target, tiers.render_multi(group[0].skill, month, group).encode("utf-8"), mode=0o600)
        _rewrite_without(run, path, group)
        ledger[run.rel(target)] = stamp
    _save_ledger(run, ledger)
    return _without(t2, expired)


def merge_t2_duplicates(run: _Run, t2: list[tiers.T2Entry]) -> list[tiers.T2Entry]:
    """Step 3a: T2 entries of one skill with the same plain text keep the earliest."""
    seen: dict[tuple[str, str], tiers.T2Entry] = {}
    dropped: list[tiers.T2Entry] = []
    for entry in sorted(t2, key=lambda e: (e.created or date.max, e.path.name, e.index or 0)):
        text = _plain(run, entry)
        if text is None:
            continue
        key = (entry.skill, _norm(text))
        if key in seen:
            run.act("merge", entry.path, f"T2 entry {entry.id} duplicates {seen[key].id}: removed")
            dropped.append(entry)
        else:
            seen[key] = entry
    if not run.dry:
        _remove_entries(run, dropped, backup=True)
    run.report.merged += len(dropped)
    return _without(t2, dropped)


def report_repeated_blocks(run: _Run) -> None:
    """Step 3a: name every daily note that holds the same block (a heading and its
    text, character for character) more than once.

    OpenClaw appends its own blocks (``## Flush HH:MM``, session summaries) to
    ``memory/YYYY-MM-DD*.md`` several times a day; those files are OpenClaw's,
    so they are only reported, never rewritten. In our ``memory/daily/`` notes a
    repeated section is a repeated date and topic, which step 3b merges.
    """
    for path, ours in [*((p, True) for p in entries.daily_files(run.ws)),
                       *((p, False) for p in entries.openclaw_note_files(run.ws))]:
        if path.is_symlink():
            continue
        try:
            text = read_text(path).text
        except MemoryManagerError:
            continue  # step 3b (ours) or recall (OpenClaw's) names an unreadable file
        counts: dict[str, list[int]] = {}
        merged = {s.span[0] for s in entries.parse_daily(text, path)} if ours else set()
        level_two: set[str] = set()
        for chunk in entries.split_chunks(text):
            block = "\n".join(line.rstrip() for line in text[chunk.start:chunk.end].strip("\n").split("\n"))
            if chunk.level and block.strip():
                counts.setdefault(block, []).append(chunk.line + 1)
                if chunk.start in merged:
                    level_two.add(block)
        for block, where in counts.items():
            if len(where) < 2:
                continue
            heading = block.split("\n", 1)[0]
            fate = ("merged into the first" if block in level_two else "reported only") if ours \
                else "OpenClaw's file, left unchanged"
            run.report.problems.append(f"{run.rel(path)}: block {heading!r} repeated {len(where)} times "
                                       f"(lines {', '.join(map(str, where))}; {fate})")


def merge_daily_duplicates(run: _Run) -> None:
    """Step 3b: same topic twice on one day -> one section; repeated lines in a section go."""
    lang = entries.language(run.cfg)
    for path in entries.daily_files(run.ws):
        if path.is_symlink():
            run.report.problems.append(f"{run.rel(path)}: symlink, left alone")
            continue
        try:
            original = read_text(path)
            sections = entries.parse_daily(original.text, path)
        except MemoryManagerError as exc:
            run.report.problems.append(f"{run.rel(path)}: {exc} (left unchanged)")
            continue
        text = original.text
        merged_here = 0
        groups: dict[tuple[str, str], list[entries.DailySection]] = {}
        for section in sections:
            groups.setdefault((section.date, section.topic), []).append(section)
        # Later duplicates: cut them out (bottom-up so line numbers stay valid), then merge their lines.
        pending: list[tuple[str, str, list[tuple[str, str]], list[str]]] = []
        lines = text.split("\n")
        for (day, topic), group in groups.items():
            for later in group[1:]:
                pending.append((day, topic, later.items, later.other))
        for later in sorted((s for g in groups.values() for s in g[1:]), key=lambda s: s.start, reverse=True):
            end = later.end
            while end < len(lines) and not lines[end].strip():
                end += 1
            del lines[later.start:end]
            merged_here += 1
        text = "\n".join(lines)
        for day, topic, items, other in pending:
            text, _, _ = entries.merge_daily_text(text, day, topic, items, lang, other)
        # Repeated identical lines inside one section (never inside a code block:
        # a closing fence repeats its opening one, and code repeats on purpose).
        lines = text.split("\n")
        fenced = markdown.fenced_lines(lines)
        drop: set[int] = set()
        for section in entries.parse_daily(text):
            seen: set[str] = set()
            for n in range(section.start + 1, section.end):
                key = _norm(lines[n])
                if not key or fenced[n]:
                    continue
                if key in seen:
                    drop.add(n)
                    merged_here += 1
                seen.add(key)
        text = "\n".join(line for n, line in enumerate(lines) if n not in drop)
        if text != original.text:
            run.act("merge", path, f"{merged_here} duplicate section(s) or line(s) merged")
            run.report.merged += merged_here
            if not run.dry:
                run.backup().save(path)
                atomic_write_text(path, text, original)


def compact_t2(run: _Run, t2: list[tiers.T2Entry]) -> None:
    """Step 4: one multi file per skill and key month, where there are two or more entries."""
    groups: dict[tuple[str, str], list[tiers.T2Entry]] = {}
    for entry in t2:
        if entry.plaintext or not entry.month or not entry.ciphertext:
            continue
        if _entry_key(entry) in run.unreadable:
            # Sealed with another key (a key change): never put beside entries of the current
            # key; it stays in its own file for the user to open with the key that sealed it.
            continue
        if crypto.looks_encrypted(entry.ciphertext) and _plain(run, entry) is None:
            # No key here (a keyless run, the key file moved away): nothing tells which key
            # sealed each aes-gcm entry, so none is combined, and entries of two keys never
            # end up in one month file (attack round 11). The next run with the key combines them.
            continue
        groups.setdefault((entry.skill, entry.month), []).append(entry)
    chosen: list[tiers.T2Entry] = []
    for (skill, month), group in sorted(groups.items()):
        files = {e.path for e in group}
        target = tiers.multi_path(run.ws, skill, month)
        others = files - {target}
        # Only where it combines something: two or more files, or one file
        # joining an existing multi file. A lone entry keeps its own file.
        if not others or (len(files) < 2 and not target.exists()):
            continue
        run.act("compact", target, f"{len(group)} entries of {skill} ({month}) combined from {len(files)} files")
        run.report.merged += len(others)
        chosen.extend(group)
    if chosen and not run.dry:
        tiers.compact(run.ws, chosen, run.backup())


#: The date ``memory.py lesson`` puts before a lesson (``- [YYYY-MM-DD] ``).
_LESSON_DATE = re.compile(r"^[-*] \[\d{4}-\d{2}-\d{2}\] ")


def memory_md_duplicates(run: _Run, approved: bool) -> None:
    """Step 5: report exact duplicate lines of MEMORY.md; remove them only when approved."""
    path = tree.Tree(run.ws).memory_md
    if not path.is_file():
        return
    if path.is_symlink() and not inside(run.ws, path):
        run.report.problems.append("MEMORY.md: symlink out of the workspace, left alone")
        return
    try:
        original = read_text(path)
    except MemoryManagerError as exc:
        run.report.problems.append(f"MEMORY.md: {exc}")
        return
    lines = original.text.split("\n")
    seen: set[str] = set()
    drop: list[int] = []
    for n, line in enumerate(lines):
        # A lesson line's date is when it was recorded, not what it says: the same lesson
        # recorded on two days is a duplicate too (walk-through r4, item 7).
        key = _LESSON_DATE.sub("- ", _norm(line))
        if not key or key.startswith("#") or key.startswith("<!--"):
            continue
        if key in seen:
            drop.append(n)
        seen.add(key)
    if not drop:
        return
    for n in drop:
        verb = "removed" if approved else "reported (removing it needs --approved)"
        run.act("memory-md", path, f"line {n + 1} duplicates an earlier line: {verb}")
    if approved:
        run.report.deleted += len(drop)
        # A line removed from between two blank lines takes one of them along (no doubled blank line).
        gone = set(drop)
        for n in drop:
            before_blank = n == 0 or (not lines[n - 1].strip() and n - 1 not in gone)
            if before_blank and n + 1 < len(lines) and not lines[n + 1].strip() and n + 1 not in gone:
                gone.add(n + 1)
        if not run.dry:
            run.backup().save(path.resolve() if path.is_symlink() else path)
            atomic_write_text(path.resolve(), "\n".join(l for n, l in enumerate(lines) if n not in gone), original)


def prune_step(run: _Run) -> None:
    """Step 6: the capacity window, and the value threshold when ``prune.auto_threshold`` is set.

    Why not the threshold by default: with the Optimization seed's constants an
    untagged entry that is never recalled is worth at most (1 + 0 + 0.5) / 3 = 0.5
    once it is a week old, under the 0.6 threshold, so an unattended weekly
    run would archive nearly every daily note, far past the seed's own target
    prune rate (under 20 %). ``memory.py prune`` applies both rules when asked.
    """
    if not run.cfg["prune"]["enable_auto_prune"]:
        return
    from . import prune

    result = prune.prune(run.ws, run.cfg, dry_run=run.dry, use_threshold=run.cfg["prune"]["auto_threshold"],
                         get_backup=run.backup)
    for move in result["moves"] if run.dry else result["moved"]:
        run.report.actions.append(Action("prune", move["path"], f"{move['heading']}: {move['reason']}",
                                         move["archive"]))
        run.report.archived += 1
    run.report.problems.extend(result["warnings"])


PATTERNS_FORMAT = {"format": "cmm-archived-patterns", "version": 1}


def retire_patterns(run: _Run) -> None:
    """Step 6b: T1 usage patterns not seen for ``cleanup.pattern_retention_days`` move to the archive.

    The Optimization seed's cleanup drops outdated usage patterns; we move them
    instead (nothing is deleted): each goes, with a ``retired`` date, into
    ``memory/archive/<YYYY-MM>/patterns-<stats file stem>.json``
    (``cmm-archived-patterns`` v1), and the stats file keeps the rest. Both
    files are backed up first. A pattern without ``last_seen`` (recorded
    before it was kept) is dated today, so its retention starts now rather
    than retiring every old pattern at once.
    """
    days = int(run.cfg["cleanup"]["pattern_retention_days"])
    folder = tree.Tree(run.ws).tier1
    if not folder.is_dir():
        return
    cutoff = (run.today - timedelta(days=days)).isoformat()
    for path in sorted(folder.glob("*_stats.json")):
        if path.is_symlink():
            continue
        try:
            doc = tiers.load_stats(path)
        except Exception as exc:  # MalformedFileError / UnreadableFileError: reported, never rewritten
            run.report.problems.append(f"{run.rel(path)}: {exc}")
            continue
        keep, retire, stamped = [], [], 0
        for pattern in doc["patterns_observed"]:
            seen = parse_day(pattern.get("last_seen")) if isinstance(pattern, dict) else None
            if isinstance(pattern, dict) and seen is None:
                pattern["last_seen"] = run.today.isoformat()
                stamped += 1
            if seen is not None and seen.isoformat() < cutoff:
                retire.append(dict(pattern, retired=run.today.isoformat()))
            else:
                keep.append(pattern)
        if not retire and not stamped:
            continue
        target = _archive_dir(run, month_of(run.today)) / f"patterns-{path.stem}.json"
        for pattern in retire:
            run.act("patterns", path, f"usage pattern {pattern.get('trigger')!r} not seen since "
                                      f"{pattern.get('last_seen')} (over {days} days): archived", target)
        run.report.patterns_retired += len(retire)
        if run.dry:
            continue
        doc["patterns_observed"] = keep
        run.backup().save(path)
        if retire:
            run.backup().save(target)
            old = []
            if target.is_file():
                try:
                    old = _parse_json(read_regular_text(target, "utf-8")).get("patterns", [])
                except (OSError, ValueError, AttributeError):
                    raise MemoryManagerError(f"{run.rel(target)} is not a patterns archive; not overwritten") from None
            _make_dir(run, target.parent)
            body = dict(PATTERNS_FORMAT, source=run.rel(path), patterns=old + retire)
            atomic_write(target, (json.dumps(body, ensure_ascii=False, indent=2, allow_nan=False) + "\n").encode("utf-8"))
        atomic_write(path, tiers.dump_stats(doc))


def archive_retention(run: _Run, purge: bool) -> None:
    """Step 7: list archives past the retention period; delete them only when told to."""
    root = tree.Tree(run.ws).archive
    if not root.is_dir() or (root.is_symlink() and not inside(run.ws, root)):
        return
    days = run.cfg["cleanup"]["archive_retention_days"]
    ledger = _ledger(run.ws)
    cutoff = now() - timedelta(days=days)
    old: list[Path] = []
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            run.report.problems.append(f"{run.rel(path)}: symlink in the archive, left alone")
            continue
        if not path.is_file() or path.name.startswith("."):
            continue
        stamp = ledger.get(run.rel(path))
        try:
            when = datetime.fromisoformat(stamp) if isinstance(stamp, str) and stamp else None
        except ValueError:
            when = None
        # A file's mtime can be any year (touch -d): out of range means "not known", never a crash.
        when = when or from_timestamp(path.stat().st_mtime)
        if when is None:
            run.report.problems.append(f"{run.rel(path)}: modification time out of range; not archived by age")
            continue
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        if when < cutoff:
            old.append(path)
    for path in old:
        if purge:
            run.act("purge-archive", path, f"archived more than {days} days ago: deleted (backed up)")
        else:
            run.act("retention", path, f"archived more than {days} days ago (delete with --purge-archive)")
    if purge and old:
        run.report.deleted += len(old)
        if not run.dry:
            for path in old:
                run.backup().save(path)
                fsio.remove(path)
                ledger.pop(run.rel(path), None)
            _save_ledger(run, ledger)


# ----------------------------------------------------------------------------- run

def run_cleanup(ws: Path, cfg: dict[str, Any], *, dry_run: bool = False, if_due: bool = False,
                purge_archive: bool = False, approved: bool = False,
                progress: Callable[[str], None] | None = None) -> Report:
    """Run the cleanup protocol on workspace ``ws``.

    Args:
        ws: the workspace.
        cfg: the effective configuration (``tiers``, ``cleanup``, ``prune`` sections).
        dry_run: compute and list every action; change nothing (no backup, no log).
        if_due: do nothing unless ``cleanup.interval_days`` have passed since the last run.
        purge_archive: delete archives past retention (also when the config's
            ``cleanup.purge_archive`` is true).
        approved: the user approved deleting MEMORY.md's duplicate lines.
        progress: called with each step's name as it starts (for a progress bar).

    Returns a :class:`Report`.

    Raises:
        WorkspaceError: ``ws`` is not set up (no ``memory/`` folder inside it).
        FileWriteError, BackupError: a write or backup failed (the step's
            files are unchanged; earlier steps' changes stay and are in the backup).
    """
    ws = Path(ws)
    # Checked before anything else, the workspace lock included (taking it
    # creates .memory-backup/): a folder init.py never set up is bad input,
    # and nothing may be created in it.
    require_set_up(ws)
    report = Report(dry_run=dry_run)
    odd = _odd_state_files(ws)
    if odd and not dry_run:
        # cleanup rewrites its stamp, log and ledger: a write over a FIFO or a folder someone put
        # there would replace it (or wait on it), so it refuses first, naming it (issue 11, fatk8).
        raise UnreadableFileError(f"{odd[0]}; cleanup changed nothing (move it away)")
    report.problems.extend(f"{o}; a real run refuses until it is moved away" for o in odd)
    previous = last_run(ws)
    report.last_run = previous.isoformat() if previous else None
    report.due = is_due(ws, cfg)
    if if_due and not report.due:
        report.ran = False
        return report
    # Cleanup seals (the quarantine's copy of a plain entry, its backup copies of T2 content): a
    # key this store did not accept, such as another machine's MEMORY_MANAGER_KEY, must seal
    # nothing here, or the store splits between two keys (attack round 11). Refused before any
    # change, the dry run included (it says what the real run would do).
    tiers.sealing_key(ws, cfg, "cleanup changed nothing", record=not dry_run)
    # The key record in the workspace against this machine's note of the store's key (anchor.py,
    # tatk18): the note decides how approval marks are judged; a disagreement is said once.
    noted = tiers.store_key_problem(ws)
    if noted:
        report.problems.append(noted)
    purge = purge_archive or bool(cfg["cleanup"]["purge_archive"])
    run = _Run(ws, cfg, report, progress)

    def steps() -> None:
        run.progress("scan")
        t2 = _t2_entries(run)
        run.progress("purge")
        t2 = purge_pii(run, t2)
        run.progress("archive")
        t2 = archive_expired(run, t2)
        run.progress("merge")
        t2 = merge_t2_duplicates(run, t2)
        report_repeated_blocks(run)
        merge_daily_duplicates(run)
        run.progress("compact")
        compact_t2(run, t2)
        run.progress("memory-md")
        memory_md_duplicates(run, approved)
        run.progress("prune")
        prune_step(run)
        run.progress("patterns")
        retire_patterns(run)
        run.progress("retention")
        archive_retention(run, purge)

    if dry_run:
        steps()
        # What the real run's retention removes and keeps (tatk19 8), listed, nothing removed.
        _retention(ws, cfg, report, dry_run=True)
        report.log_line = _log_line(run)
        _mask_problems(report)
        return report
    with workspace_lock(ws):
        # A purge a killed cleanup had passed the point of no return of was finished, or the rest
        # of that run rolled back, when the lock was taken (by this command or by another one
        # before it, tatk19 9): its entries count as this run's, as the killed run would have
        # said. Its backup keeps the record (backups.done_records); the stamp keeps the newest
        # one reported, so each is logged once.
        backups.finished(ws, reason="cleanup")  # the same record, as this process finished it
        reported = _done_through(ws)
        for record in backups.done_records(ws, since=reported):
            report.deleted += record["deleted"]
            for name, value in record["erased"].items():
                report.erased[name] = report.erased.get(name, 0) + value
            reported = record["id"]
        steps()
        run.progress("log")
        report.log_line = _log_line(run)
        folder = state_dir(ws)
        if run._backup is not None:
            # Something changed: the run's own records go in the backup too (the
            # ledger, log and stamp), so rolling back a killed run, or restoring
            # the backup, leaves no trace of it; so do the indexes' old bytes.
            paths = tree.Tree(ws)
            for path in (folder / LOG_NAME, folder / STATE_NAME, folder / LEDGER_NAME,
                         paths.daily_index, paths.knowledge_index):
                run.backup().save(path)
        # Retention first: it has no journal, but a killed retention converges when run
        # again, so doing it before the log line keeps a re-run from logging twice.
        _retention(ws, cfg, report)
        fsio.make_dirs(folder)
        log = folder / LOG_NAME
        previous_log = read_regular(log) if log.is_file() else b""
        line = (report.log_line + "\n").encode("utf-8")
        if not _logged_by_a_killed_run(folder, previous_log, line):
            atomic_write(log, previous_log + line, mode=0o600)
            previous_log += line
        entries.rebuild_indexes(ws, cfg, report.problems)
        # The counts are for the report's Health section (readers ignore unknown keys);
        # log_bytes is the log's length once this run's line is in (see _logged_by_a_killed_run).
        doc = dict(STATE_FORMAT, last_run=now().isoformat(timespec="seconds"), archived=report.archived,
                   deleted=report.deleted, merged=report.merged, log_line=report.log_line,
                   log_bytes=len(previous_log), **({"done_through": reported} if reported else {}))
        atomic_write(folder / STATE_NAME, (json.dumps(doc, allow_nan=False) + "\n").encode("utf-8"))
    _mask_problems(report)
    return report


def _done_through(ws: Path) -> str | None:
    """The id of the newest backup whose done record a cleanup reported (its stamp's ``done_through``),
    or None (none yet, or an unreadable stamp: every record kept is reported)."""
    try:
        doc = _parse_json(read_regular_text(state_dir(ws) / STATE_NAME, "utf-8"))
    except (OSError, ValueError):
        return None
    value = doc.get("done_through") if isinstance(doc, dict) else None
    return value if backups.valid_id(value) else None


def _retention(ws: Path, cfg: dict[str, Any], report: Report, dry_run: bool = False) -> None:
    """Apply the backup retention policy (:func:`backups.retention`), or with ``dry_run`` only work it
    out, and put it in ``report``: a ``backup-retention`` action per backup removed (or that would be),
    ``kept_only_copy`` (masked paths), and a problem per backup kept because it cannot be read."""
    retention = backups.retention(ws, cfg, dry_run=dry_run)
    for ident in retention["removed"]:
        report.actions.append(Action("backup-retention", f"{backups.BACKUP_DIRNAME}/{ident}",
                                     "past the backup retention policy: removed"))
    for ident in retention["kept_only_copy"]:
        # Said on every run that keeps them: it is why the backups stay past keep_last / max_age.
        report.kept_only_copy[ident] = [privacy.mask_name(p) for p in retention["only_copy_paths"].get(ident, [])]
    for ident in retention.get("kept_unreadable", []):
        # Says which file of the backup could not be read (a FIFO as its entries.jsonl, fatk8).
        why = retention.get("unreadable_why", {}).get(ident) or "manifest unreadable (torn or a newer format)"
        report.problems.append(f"{backups.BACKUP_DIRNAME}/{ident}: {why}; kept, it may hold the only copy "
                               "of a file")


def _logged_by_a_killed_run(folder: Path, log: bytes, line: bytes) -> bool:
    """True when the log already ends with ``line`` written by a run killed before its stamp.

    A cleanup that changes no file has no backup and so no journal: its log line
    and its stamp (``cleanup.json``) are two writes, and a kill between them used
    to make the re-run log the same line twice (issue 11, fault round 5). The stamp
    records ``log_bytes``, the log's length after its run's line; bytes past that
    length are a killed run's line, and when they are exactly ``line`` the re-run
    does not add it again. A stamp without ``log_bytes`` (written before this
    rule) counts nothing as a killed run's; no stamp counts the whole log.

    Args:
        folder: the state folder (``memory/.state``). log: the log's bytes now.
        line: this run's line with its newline.
    """
    try:
        doc = _parse_json(read_regular_text(folder / STATE_NAME, "utf-8"))
    except FileNotFoundError:
        doc = {"log_bytes": 0}
    except (OSError, ValueError):
        return False
    mark = doc.get("log_bytes") if isinstance(doc, dict) else None
    if not isinstance(mark, int) or isinstance(mark, bool) or not 0 <= mark <= len(log):
        return False
    return log[mark:] == line


def _mask_problems(report: Report) -> None:
    """Mask a finding in the file names the problems name (printed, and logged by automatic runs)."""
    report.problems[:] = [privacy.mask_name(p) for p in report.problems]


def _log_line(run: _Run) -> str:
    r = run.report
    return f"[{run.today.isoformat()}] Memory cleanup: {r.archived} archived, {r.deleted} deleted, {r.merged} merged"
