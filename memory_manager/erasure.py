"""Forgotten means gone (issue 10): remove every copy of a forgotten or purged entry.

A purge by cleanup, ``memory.py forget ID --approved`` and ``crypt.py encrypt
--file`` call :func:`erase` with what identifies the entry (its id, its plain
text, its ciphertext). It removes, and counts:

- ``backups``: every stored copy in ``.memory-backup/`` that holds one of
  the needles (:func:`memory_manager.backups.erase_copies`; sealed copies
  are decrypted in memory to be searched);
- ``archive``: the entry's copies in ``memory/archive/`` (a T2 entry with
  the same id and text or ciphertext; a pruned section whose
  ``<!-- archived: -->`` record has the id, or whose text holds a needle);
- ``index``: the recall index (``memory/.cache/recall-index.sqlite``),
  deleted whole because SQLite keeps deleted rows in free pages; it is
  derived and rebuilt by the next recall. T2 text is never indexed, so a
  T2 purge leaves it alone;
- ``logs``: audit-log records written by older versions whose summary
  quotes the text (the log keeps no content any more,
  :mod:`memory_manager.auditlog`);
- ``report``: the cached HTML report ``memory/.cache/report.html``.

Symlinks are never followed: a folder or file of the archive that leads out
of the workspace is left alone and named in ``problems``.
"""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path, PurePosixPath
from typing import Any, Iterable

from .jsonio import parse as _parse_json
from .regular import read_regular
from . import auditlog, backups, fsio, tiers, tree
from .entries import split_frontmatter
from .fsio import atomic_write, atomic_write_text, read_text
from .workspace import inside

_ARCHIVED = re.compile(r"<!-- archived: (\{.*?\}) -->")
_MARKER = re.compile(r"^\s*(?:[-*+]\s*)?(?:(?:[因改待]|cause|change|todo)\s*[：:]\s*)?", re.I)
#: Needles shorter than this are not searched for in other files' text: a
#: few characters ("ok") would match unrelated notes.
MIN_NEEDLE = 12


def _texts(needles: Iterable[str | bytes]) -> list[str]:
    out = []
    for n in needles:
        text = n.decode("utf-8", "replace") if isinstance(n, bytes) else str(n)
        text = text.strip()
        if len(text) >= MIN_NEEDLE and text not in out:
            out.append(text)
    return out


def _t2_file(text: str) -> bool:
    try:
        meta = split_frontmatter(text, "archive").meta
    except Exception:  # MalformedFileError: not a T2 file we can read
        return False
    return meta.get("format") in (tiers.T2_FORMAT, tiers.T2_MULTI_FORMAT) or meta.get("tier") == "internal"


def _erase_archive(ws: Path, cfg: dict[str, Any], ident: str | None, texts: list[str],
                   problems: list[str]) -> int:
    root = tree.Tree(ws).archive
    if not root.is_dir():
        return 0
    if not inside(ws, root):
        problems.append(f"{tree.rel(tree.ARCHIVE)}: leads outside the workspace, left alone")
        return 0
    erased = 0
    for folder, dirs, names in os.walk(root, followlinks=False):
        here = Path(folder)
        for d in list(dirs):
            if (here / d).is_symlink():
                dirs.remove(d)
                problems.append(f"{tree.Tree(ws).rel(here / d)}: symlink in the archive, left alone")
        for name in sorted(names):
            path = here / name
            if path.is_symlink() or not name.endswith(".md"):
                continue
            try:
                text = read_text(path).text
            except Exception:  # unreadable: nothing we can match in it
                continue
            if _t2_file(text):
                erased += _erase_t2_copy(path, text, cfg, ident, texts)
            else:
                erased += _erase_sections(path, text, ident, texts)
    return erased


def _erase_t2_copy(path: Path, text: str, cfg: dict[str, Any], ident: str | None, texts: list[str]) -> int:
    try:
        found = tiers.parse_t2(text, path)
    except Exception:  # malformed T2 file: search it as text
        return _erase_sections(path, text, ident, texts)
    drop = []
    for entry in found:
        if entry.ciphertext and entry.ciphertext in texts:
            drop.append(entry)
            continue
        if ident is not None and entry.id == ident:
            try:
                plain = tiers.decrypt_entry(entry, cfg)
            except Exception:  # no key / wrong key: the same id alone is not proof of the same text
                continue
            if plain.strip() in texts:
                drop.append(entry)
    if not drop:
        return 0
    rest = [e for e in found if all(e is not d for d in drop)]
    if not rest:
        fsio.remove(path)
    else:
        atomic_write(path, tiers.render_multi(rest[0].skill, rest[0].month, rest).encode("utf-8"), mode=0o600)
    return len(drop)


def _erase_sections(path: Path, text: str, ident: str | None, texts: list[str]) -> int:
    """Cut each archived chunk (text up to its ``<!-- archived: -->`` record) that is the entry's."""
    chunks: list[tuple[int, int, bool]] = []
    start = 0
    for m in _ARCHIVED.finditer(text):
        try:
            meta = _parse_json(m.group(1))
        except ValueError:
            meta = {}
        piece = text[start:m.end()]
        hit = (ident is not None and meta.get("id") == ident) or any(t in piece for t in texts)
        chunks.append((start, m.end(), hit))
        start = m.end()
    tail_hit = any(t in text[start:] for t in texts)
    if not any(hit for *_, hit in chunks) and not tail_hit:
        return 0
    kept = [text[a:b] for a, b, hit in chunks if not hit]
    if not tail_hit:
        kept.append(text[start:])
    new = "".join(kept)
    count = sum(1 for *_, hit in chunks if hit) + (1 if tail_hit else 0)
    if not new.strip():
        fsio.remove(path)
    else:
        atomic_write_text(path, new.lstrip("\n"), read_text(path))
    return count


def _drop_index(ws: Path) -> int:
    path = tree.Tree(ws).recall_index
    removed = 0
    for candidate in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"),
                      path.with_name(path.name + "-journal")):
        if candidate.is_file() and not candidate.is_symlink():
            fsio.remove(candidate)
            removed += 1 if candidate == path else 0
    return removed


def _flat(text: str) -> str:
    return " ".join(text.split())


def _scrub_log(ws: Path, texts: list[str]) -> int:
    """Withhold the summary of audit records (older versions) that quote one of ``texts``."""
    path = auditlog.log_path(ws)
    if not path.is_file() or path.is_symlink() or not texts:
        return 0
    flats = [_flat(t) for t in texts]
    # The old summaries flattened the gate's text (topic and items, no list
    # markers), cut at 80 characters: match on each line's words as well.
    frags = {_flat(_MARKER.sub("", line)) for t in texts for line in t.split("\n")}
    frags = {f[:40] for f in frags if len(f) >= MIN_NEEDLE}
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    changed = 0
    for n, line in enumerate(lines):
        try:
            record = _parse_json(line)
        except ValueError:
            continue
        summary = str(record.get("summary") or "") if isinstance(record, dict) else ""
        core = summary.rstrip("…").strip()
        if not core or core.startswith("<"):
            continue
        if any((len(core) >= MIN_NEEDLE and core in f) or f in core for f in flats) \
                or any(f in core for f in frags):
            record["summary"] = f"<{record.get('chars', len(core))} chars withheld: forgotten>"
            lines[n] = json.dumps(record, ensure_ascii=False, allow_nan=False)
            changed += 1
    if changed:
        atomic_write(path, "\n".join(lines).encode("utf-8"), mode=0o600)
    return changed


def _replace_names(value: Any, patterns: list[tuple[re.Pattern[str], str]]) -> Any:
    """``value`` (parsed JSON) with every forgotten name in its strings and keys replaced."""
    if isinstance(value, str):
        for pattern, hidden in patterns:
            value = pattern.sub(hidden, value)
        return value
    if isinstance(value, list):
        return [_replace_names(v, patterns) for v in value]
    if isinstance(value, dict):
        return {_replace_names(k, patterns): _replace_names(v, patterns) for k, v in value.items()}
    return value


def _scrub_state(ws: Path, names: list[str], secret: bytes) -> int:
    """Replace forgotten names in the files of ``memory/.state`` and ``memory/.cache``; return how many changed.

    Machine state and caches quote file names and ids: the last maintenance
    stamp (``maintain-last.json`` lists the files it wrote), the last privacy
    audit (``privacy-audit.json``), the pending bootstrap note, the
    maintenance log. A forgotten name (key, topic, file name, id) must be in
    none of them (issue 10), so each occurrence, as a whole word, becomes
    :func:`memory_manager.backups.hidden_name`. JSON files are rewritten
    value by value (never a broken document), JSON Lines line by line, other
    text as text; SQLite files (the recall index) that hold a name are
    removed (derived, rebuilt by the next recall). Files that are links or
    not UTF-8 are left alone. Access counts of a forgotten id are removed
    by :func:`memory_manager.access.drop` before this runs.
    """
    names = sorted({n for n in names if n}, key=len, reverse=True)
    if not names:
        return 0
    patterns = [(re.compile(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])"), backups.hidden_name(n, secret))
                for n in names]
    raw_names = [n.encode("utf-8") for n in names]
    paths = tree.Tree(ws)
    changed = 0
    for folder in (paths.state, paths.cache):
        if folder.is_symlink() or not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            try:
                st = path.lstat()
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
                continue
            try:
                raw = read_regular(path)
            except OSError:
                continue
            if not any(n in raw for n in raw_names):
                continue
            if raw.startswith(b"SQLite format 3"):
                fsio.remove(path)
                changed += 1
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                continue
            new = _scrub_text(text, patterns)
            if new != text:
                atomic_write(path, new.encode("utf-8"), mode=0o600)
                changed += 1
    return changed


def _read_or_none(path: Path) -> bytes | None:
    try:
        return read_regular(path)
    except OSError:
        return None


def _drop_audit_items(ws: Path, paths: list[str], texts: list[str]) -> int:
    """Drop the forgotten entry's findings and notices from the last privacy audit; return how many went.

    ``memory/.state/privacy-audit.json`` (:func:`memory_manager.audit.record_last`)
    lists each finding with its file and a redacted excerpt of its line; after
    a forget it still showed the entry's category, line and the first digits
    of a number (attack round 5, issue 10). An item goes when its file is one
    of ``paths`` (workspace-relative files the forget removed whole, as the
    audit shows them) or when scanning ``texts`` (the entry's plain text)
    gives a finding with the same category, rule and excerpt. The summary and
    checklist counts are recomputed; the document stays valid JSON of the
    same format (written atomically, mode 0600). A missing or unreadable
    audit is left alone.
    """
    from .audit import CHECKS, LAST_NAME, read_last
    from .privacy import mask_name, scan

    doc = read_last(ws)
    report = doc.get("report") if doc else None
    if not isinstance(report, dict):
        return 0
    lists = {key: report.get(key) for key in ("findings", "notices")}
    if not any(isinstance(v, list) and v for v in lists.values()):
        return 0
    files = set(paths) | {mask_name(p) for p in paths}
    seen = {(f.category, f.rule, f.excerpt) for text in texts if text for f in scan(text)}

    def gone(item: Any) -> bool:
        return isinstance(item, dict) and (item.get("file") in files
                                           or (item.get("category"), item.get("rule"), item.get("excerpt")) in seen)

    dropped = 0
    for key, items in lists.items():
        if isinstance(items, list):
            kept = [item for item in items if not gone(item)]
            dropped += len(items) - len(kept)
            report[key] = kept
    if not dropped:
        return 0
    findings = [i for i in report.get("findings") or [] if isinstance(i, dict)]
    approved = [i for i in report.get("notices") or [] if isinstance(i, dict) and i.get("approved")
                and i.get("check") in CHECKS]
    summary = report.get("summary")
    if isinstance(summary, dict):
        summary.update(findings=len(findings), notices=len(report.get("notices") or []), approved=len(approved))
    for row in report.get("checks") or []:
        if isinstance(row, dict) and "id" in row:
            failed = sum(1 for i in findings if i.get("check") == row["id"])
            kept = sum(1 for i in approved if i.get("check") == row["id"])
            row.update(passed=not failed, findings=failed, approved=kept,
                       status="fail" if failed else ("approved" if kept else "ok"))
    if "clean" in report:
        report["clean"] = not findings and not report.get("unread_files")
    atomic_write(tree.Tree(ws).state_file(LAST_NAME),
                 (json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode("utf-8"), mode=0o600)
    return dropped


def _scrub_text(text: str, patterns: list[tuple[re.Pattern[str], str]]) -> str:
    """``text`` (a JSON document, JSON Lines or plain text) with the names replaced (see :func:`_scrub_state`)."""
    def as_json(chunk: str) -> str | None:
        try:
            doc = _parse_json(chunk)
        except (ValueError, RecursionError):
            return None
        return json.dumps(_replace_names(doc, patterns), ensure_ascii=False, allow_nan=False)

    whole = as_json(text)
    if whole is not None:
        return whole + "\n"
    lines = text.split("\n")
    out = []
    for line in lines:
        done = as_json(line) if line.strip() else None
        if done is None:
            done = line
            for pattern, hidden in patterns:
                done = pattern.sub(hidden, done)
        out.append(done)
    return "\n".join(out)


def erase(ws: Path, cfg: dict[str, Any], *, ident: str | None, needles: Iterable[str | bytes],
          indexed: bool = True, plain_only: bool = False, names: Iterable[str] = (),
          paths: Iterable[str] = (), ids: Iterable[str] = (), hashes: Iterable[str] = ()) -> dict[str, Any]:
    """Remove every copy of a forgotten entry; return the counts (see the module docstring).

    Args:
        ws: the workspace.
        cfg: the configuration (T2 decryption of archived copies).
        ident: the entry's id (``d-``, ``k-``, ``t-``...), or None.
        needles: what identifies its content: plain text, ciphertext.
        indexed: the entry's text may be in the recall index (False for T2).
        plain_only: only backup copies stored in plain text go (sealed ones
            stay restorable: ``crypt.py encrypt --file``).
        paths: workspace-relative files every backup copy of which goes
            (:func:`memory_manager.backups.erase_copies`): the older versions
            of an entry that was a whole file.
        names: the entry's names: knowledge key, daily or T2 topic, file
            name. Backup copies of the derived indexes that list one go too
            (they are rebuilt on restore); backup reasons and the files of
            ``memory/.state`` and ``memory/.cache`` show each (and ``ident``,
            and each of ``paths``) as an unconfirmable stand-in
            (:func:`memory_manager.backups.hidden_name`), and the access count
            of ``ident`` goes (issue 10: no name and no plain hash of one stays).
        ids: more ids of the entry, hidden and dropped like ``ident`` (a
            knowledge entry forgotten by its key).
        hashes: sha256 digests of file states that held the entry
            (:func:`memory_manager.backups.tainted_states`): backup entries
            recording one are erased, hashes and ranges included.

    Returns ``{"backups": n, "archive": n, "index": n, "logs": n, "report": n,
    "reports_deleted": [path, ...], "reports_changed": [path, ...], "state": n, "unchecked": n,
    "problems": [...]}``: ``reports_deleted`` are the reports written with
    ``--html`` that held the entry, unchanged since (:func:`memory_manager.report.erase_written`);
    ``reports_changed`` those the user changed since, left as they are (each
    also a line in ``problems``). Runs under the workspace lock.
    """
    ws = Path(ws)
    needles = list(needles)
    texts = _texts(needles)
    problems: list[str] = []
    paths = [p for p in paths if p]
    # The id is a plain hash of the entry's name: it is hidden like a name.
    ids = list(dict.fromkeys(i for i in [ident, *ids] if isinstance(i, str) and i))
    names = list(dict.fromkeys([*(n for n in names if n), *ids,
                                *paths, *(PurePosixPath(p).name for p in paths), *(PurePosixPath(p).stem for p in paths)]))
    secret = backups.new_secret()
    with fsio.workspace_lock(ws):
        copies = backups.erase_copies(ws, [n for n in needles if n], cfg,
                                      stored=("plain",) if plain_only else ("plain", "aes-gcm"), names=names,
                                      paths=paths, secret=secret, hashes=hashes)
        archived = _erase_archive(ws, cfg, ident, texts, problems)
        index = _drop_index(ws) if indexed else 0
        logs = _scrub_log(ws, texts)
        from .report import drop_cached, erase_written

        cached = 1 if drop_cached(ws) else 0
        # Reports the user wrote elsewhere (--html) that still hold the entry, as written: deleted;
        # one the user changed since is theirs: left, and named (issue 10, round 6).
        written = erase_written(ws, texts, ident)
        problems += [f"{path}: a report written with --html and changed since it was written still holds the "
                     "forgotten text; it was left as it is: delete or edit it yourself" for path in written["changed"]]
        from .access import drop as drop_access

        drop_access(ws, ids)
        last_audit = tree.Tree(ws).state_file("privacy-audit.json")
        dropped = _drop_audit_items(ws, paths, texts)
        after_drop = _read_or_none(last_audit) if dropped else None
        state = _scrub_state(ws, names, secret)
        if dropped and _read_or_none(last_audit) == after_drop:
            state += 1  # changed by the drop only (the scrub counted it otherwise)
    return {"backups": copies["erased"], "archive": archived, "index": index, "logs": logs, "report": cached,
            "reports_deleted": written["deleted"], "reports_changed": written["changed"],
            "state": state, "unchecked": copies["unchecked"], "problems": problems}


def summary(counts: dict[str, Any]) -> str:
    """One line for people: ``erased 2 backup copies, 1 archived copy, the recall index``."""
    parts = [f"{counts['backups']} backup cop{'y' if counts['backups'] == 1 else 'ies'}",
             f"{counts['archive']} archived cop{'y' if counts['archive'] == 1 else 'ies'}",
             f"{counts['logs']} log record(s)"]
    if counts.get("index"):
        parts.append("the recall index (rebuilt on the next recall)")
    if counts.get("report"):
        parts.append("the cached report")
    if counts.get("reports_deleted"):
        parts.append(f"{len(counts['reports_deleted'])} report(s) written with --html "
                     f"({', '.join(counts['reports_deleted'])})")
    line = "erased " + ", ".join(parts)
    if counts.get("unchecked"):
        line += f"; {counts['unchecked']} sealed backup copies could not be checked (no T2 key)"
    return line


#: Associated data of a needle sealed in a roll-forward plan (see :func:`forward_needles`).
_PLAN_AAD = ("forget-plan", "needle")


def forward_needles(needles: Iterable[str | bytes], key: bytes | None = None) -> list[Any]:
    """``needles`` as JSON for a roll-forward plan: text as is, bytes as ``{"b64": ...}``.

    With ``key`` (the 32-byte T2 key; ``forget`` of a T2 or quarantined
    entry), every needle is sealed instead, ``{"sealed": base64}`` (AES-GCM,
    as backup copies are sealed): the journal on disk never holds decrypted
    T2 text, even when the run is killed before it closes (issue 10).
    """
    import base64

    if key is not None:
        from .backups import _seal

        return [{"sealed": base64.b64encode(_seal(key, *_PLAN_AAD, n if isinstance(n, bytes) else
                                                  n.encode("utf-8"))).decode("ascii"),
                 "text": isinstance(n, str)} for n in needles]
    return [n if isinstance(n, str) else {"b64": base64.b64encode(bytes(n)).decode("ascii")} for n in needles]


def _from_plan(items: Any, ws: Path | None = None) -> list[str | bytes]:
    import base64
    import binascii

    out: list[str | bytes] = []
    key = None
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("sealed"), str) and ws is not None:
            from .backups import _load_key, _open_sealed

            try:
                key = key or _load_key(ws)
                if key is None:
                    continue
                data = _open_sealed(key, *_PLAN_AAD, base64.b64decode(item["sealed"], validate=True))
            except Exception:  # a wrong key or a damaged plan: that needle cannot be searched for
                continue
            out.append(data.decode("utf-8", "replace") if item.get("text") else data)
        elif isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict) and isinstance(item.get("b64"), str):
            try:
                out.append(base64.b64decode(item["b64"], validate=True))
            except (binascii.Error, ValueError):
                continue
    return out


def needles_from_plan(items: Any, ws: Path) -> list[str | bytes]:
    """The needles a roll-forward plan holds (:func:`forward_needles`), sealed ones opened with the T2 key
    (one that does not open is left out: it cannot be searched for)."""
    return _from_plan(items, ws)


def known_from_plan(raw: Any) -> dict[str, list[str]] | None:
    """A plan's ``audit_known`` (:func:`memory_manager.auditlog.at_hand`), or None (no such rule)."""
    return _known(raw)


def _known(raw: Any) -> dict[str, list[str]] | None:
    """The plan's ``audit_known`` (:func:`memory_manager.auditlog.at_hand`), or None (an older plan: no such rule)."""
    if not isinstance(raw, dict):
        return None
    return {k: [f for f in v if isinstance(f, str)] for k, v in raw.items()
            if isinstance(k, str) and isinstance(v, list)}


def _orphans(raw: Any) -> tuple[list[str], list[str]] | None:
    """The plan's ``audit_orphans`` (forget of a lesson, :func:`memory_manager.auditlog.blank_hashes`), or None."""
    if not isinstance(raw, dict):
        return None
    files, live = raw.get("files"), raw.get("live")
    if not isinstance(files, list) or not isinstance(live, list):
        return None
    return [f for f in files if isinstance(f, str)], [r for r in live if isinstance(r, str)]


def forget_erasures(ws: Path, plan: dict[str, Any]) -> list[dict[str, Any]]:
    """The backup erasure :func:`finish_forget` would do for ``plan``, as keyword arguments of
    :func:`memory_manager.backups.erase_copies` (``needles``, ``paths``, ``hashes``; one call), for a
    check of a plan read from a journal (:func:`memory_manager.backups.recover`). Changes nothing."""
    return [{"needles": [n for n in _from_plan(plan.get("needles"), ws) if n],
             "paths": [p for p in plan.get("paths") or [] if isinstance(p, str) and p],
             "hashes": [h for h in plan.get("hashes") or [] if isinstance(h, str)]}]


def finish_forget(ws: Path, plan: dict[str, Any]) -> dict[str, Any]:
    """The part of ``forget`` after its point of no return, from its journal's plan; return its result.

    ``forget`` records the plan (:meth:`memory_manager.backups.Backup.roll_forward`)
    once the entry is deleted and the indexes rebuilt, then calls this; a run
    killed in here is finished by the next command that takes the workspace
    lock (:func:`memory_manager.backups.recover`), which calls this again. So
    every step is idempotent: the gate's audit line is appended only when the
    log does not hold it yet (one record per forget, however often it is
    finished), and :func:`erase` finds only what is still there.

    Args:
        ws: the workspace.
        plan: ``{"kind": "forget", "ident": id or None, "needles": [...]
            (:func:`forward_needles`), "indexed": bool, "paths": [rel, ...]
            (optional: files whose every backup copy goes), "audit_line": str,
            "approvals": [[category, rule, confidence, digest], ...], "audit_keep": [hash, ...]
            (optional: the records of other entries holding the same id, kept),
            "result": forget's result without ``erased``}``.

    Returns the result with ``erased`` (:func:`erase`'s counts) and ``report_deleted``.
    """
    from .auditlog import append_line
    from .config import load_config, load_defaults
    from .errors import MemoryManagerError

    ws = Path(ws)
    try:
        cfg = load_config(ws)
    except MemoryManagerError:
        cfg = load_defaults()  # only archived T2 copies are decrypted with it (the key comes from the environment)
    line = plan.get("audit_line")
    if isinstance(line, str) and line:
        if append_line(ws, line.encode("utf-8"), once=True):
            approvals = [tuple(a) for a in plan.get("approvals") or [] if isinstance(a, list) and len(a) == 4]
            if approvals:
                from .gate import record_approvals

                record_approvals(ws, approvals)
    # The forgotten values' approvals go too (after this forget's own are recorded):
    # their keyed hashes sit beside the salt that confirms a guess (issue 10).
    drop = [k for k in plan.get("drop_approvals") or [] if isinstance(k, str)]
    known = _known(plan.get("audit_known"))
    dropped = 0
    if drop or known is not None:
        from .gate import drop_approvals

        # And every line this run cannot recompute (keyed with a secret not at hand, atk13).
        dropped = drop_approvals(ws, drop, known)
    erased = erase(ws, cfg, ident=plan.get("ident") if isinstance(plan.get("ident"), str) else None,
                   needles=_from_plan(plan.get("needles"), ws), indexed=bool(plan.get("indexed", True)),
                   names=[n for n in plan.get("names") or [] if isinstance(n, str)],
                   paths=[p for p in plan.get("paths") or [] if isinstance(p, str)],
                   ids=[i for i in plan.get("ids") or [] if isinstance(i, str)],
                   hashes=[h for h in plan.get("hashes") or [] if isinstance(h, str)])
    erased["approvals"] = erased.get("approvals", 0) + dropped
    # The keyed hashes of the entry's earlier gate decisions go too (tatk10): every record
    # naming the entry (v3, whatever text it saw, atk11), and v1/v2 records by their hash.
    erased["logs"] = erased.get("logs", 0) + auditlog.blank_hashes(
        ws, [h for h in plan.get("audit_hashes") or [] if isinstance(h, str)],
        [r for r in plan.get("audit_refs") or [] if isinstance(r, str)], known, _orphans(plan.get("audit_orphans")),
        [h for h in plan.get("audit_keep") or [] if isinstance(h, str)])
    result = dict(plan.get("result") or {})
    result.update(erased=erased, report_deleted=bool(erased["report"]))
    return result
