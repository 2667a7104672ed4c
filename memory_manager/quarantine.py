"""Quarantine: T2 entries cleanup holds back instead of destroying (issue 10, "Data loss").

Cleanup's rule for a T2 entry in which the privacy detector finds personal
data or a secret (:func:`decide`):

- no finding: nothing happens;
- a *certain* finding and no approval: purged at once (the only deletion
  without the user's word; the copies go too, :mod:`memory_manager.erasure`);
- approved by the user and only *possible* findings: the entry stays where
  it is (the user said it is fine: "release codename: Silver Lantern");
- anything else (a possible finding without approval, or an approved entry
  that now has a certain finding because the detector learnt the format
  after the approval): **quarantined**.

A quarantined entry is one file ``memory/.quarantine/<id>.md`` (folder 0700,
file 0600) in the ``cmm-t2-multi`` layout holding that one entry, plus
``quarantined``, ``quarantine_reason``, ``origin`` and ``origin_form`` in its
frontmatter. Its ciphertext is AES-256-GCM: an aes-gcm entry keeps its
ciphertext unchanged; an xor-b64 or plain-text one is sealed with the T2 key
when there is one (without a key it stays xor-b64, and :func:`listing` says
``sealed: false``). It keeps its id: ``memory.py show ID --approved`` reads
it, ``memory.py unquarantine ID --approved`` puts it back (marked approved),
``memory.py forget ID --approved`` purges it. Recall never searches it and
the recall index never holds its text (hidden folders are not sources).

"Approved" (:func:`is_approved`): the entry carries ``approved: <date>`` and an
``approval`` mark that verifies (written by ``remember --approved`` and by
:func:`restore`; :func:`memory_manager.keyed.approval_mark`). The value-wide
approval record (``gate.approval_book``) never keeps an entry: approval is
specific to the entry approved (issue 10, round 4). A bare ``approved`` date
is a claim: it keeps an entry from being purged, not from being quarantined.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

from . import backups, crypto, tiers, tree
from .clock import today
from .entries import join_frontmatter, set_frontmatter_fields, split_frontmatter
from .errors import BadInputError, KeyUnavailableError, NotFoundError, WorkspaceError
from .fsio import atomic_write, read_text
from .workspace import inside

CERTAIN, POSSIBLE, TOPIC = "certain", "possible", "topic"
#: Categories whose findings are certain when the detector does not say
#: (checksum-valid numbers, published token formats, key material; the
#: privacy issue's list). Everything else identifying is only *possible*.
CERTAIN_CATEGORIES = frozenset({"secret", "government_id", "payment_card", "bank_account"})
_ID = re.compile(r"^t-[0-9a-f]{10}$")


def confidence(finding: Any) -> str:
    """Return ``certain``, ``possible`` or ``topic`` for a privacy finding.

    Uses the finding's own ``confidence`` when the detector sets one, else
    :data:`CERTAIN_CATEGORIES` (sensitive topics are ``topic``).
    """
    own = getattr(finding, "confidence", None)
    if own in (CERTAIN, POSSIBLE, TOPIC):
        return own
    from .privacy import TOPIC_CATEGORIES

    if finding.category in TOPIC_CATEGORIES:
        return TOPIC
    return CERTAIN if finding.category in CERTAIN_CATEGORIES else POSSIBLE


def approved_flag(entry: tiers.T2Entry) -> bool:
    """True when the entry records the user's approval (``approved: <date>`` or ``true``)."""
    value = str((entry.meta or {}).get("approved", "") or "").strip().lower()
    return value not in ("", "false", "no", "none", "null", "0")


def approval_state(ws: Path, entry: tiers.T2Entry, text: str, cfg: dict[str, Any] | None = None) -> str:
    """Return ``none`` (no ``approved:``), or the state of the entry's own mark: ``valid``, ``invalid``, ``unchecked``.

    :func:`memory_manager.keyed.approval_state` judges the ``approval`` mark:
    ``unchecked`` when the secret that keyed it is not at hand (no T2 key in
    this shell, another key than the store's, no hash-secret under this
    ``HOME``; attack round 16), which is not a mark that failed.
    """
    if not approved_flag(entry):
        return "none"
    from . import keyed

    if cfg is None:
        from .config import load_config

        cfg = load_config(ws)
    day = str((entry.meta or {}).get("approved") or "").strip()
    return keyed.approval_state(ws, cfg, entry.id, day, text, (entry.meta or {}).get("approval"))


def is_approved(ws: Path, entry: tiers.T2Entry, text: str, findings: list[Any] | None = None,
                cfg: dict[str, Any] | None = None) -> bool:
    """True when the user approved keeping *this* ``entry`` (whose plain text is ``text``).

    Only the entry's own mark counts: ``approved: <date>`` with an
    ``approval`` that verifies (:func:`memory_manager.keyed.approval_valid`:
    an HMAC of the id, date and text with a secret outside the workspace,
    written by ``remember --approved`` and ``unquarantine``). The value-wide
    approval record does not (approving a number in one entry approves no
    other entry holding it), nor does a hand-written ``approved:`` line
    (issue 10, round 4). ``findings`` is unused (kept for callers).
    """
    return approval_state(ws, entry, text, cfg) == "valid"


def decide(ws: Path, entry: tiers.T2Entry, text: str, findings: list[Any], cfg: dict[str, Any] | None = None) -> str:
    """Return what cleanup does with an entry: ``keep``, ``unchecked``, ``purge`` or ``quarantine`` (module docstring).

    An approval that does not verify (a bare ``approved:`` date: an older
    version's mark, or one anybody could write) is a *claim*: it never keeps
    an entry with a finding, and it never lets one be destroyed either
    (quarantine, where the user decides). ``unchecked``: only possible
    findings and a mark whose secret is not at hand (attack round 16): the
    entry stays where it is, as an approved one does, and cleanup says its
    mark could not be checked (cleanup never moves what the user may have
    approved on a mark it cannot judge). With a certain finding the mark's
    state does not matter: approved or claimed, such an entry is quarantined.
    """
    if not findings:
        return "keep"
    certain = any(confidence(f) == CERTAIN for f in findings)
    state = approval_state(ws, entry, text, cfg)
    if certain and state == "none":
        return "purge"
    if certain:
        return "quarantine"
    if state == "valid":
        return "keep"
    return "unchecked" if state == "unchecked" else "quarantine"


def folder(ws: Path) -> Path:
    """Return ``memory/.quarantine`` after checking it does not lead out of the workspace.

    Raises:
        WorkspaceError: the folder (or ``memory``) is a symlink leading outside.
    """
    path = tree.Tree(Path(ws)).quarantine
    if (path.exists() or path.is_symlink()) and not inside(Path(ws), path):
        raise WorkspaceError(f"{tree.rel(tree.QUARANTINE)} leads outside the workspace; refusing to use it")
    return path


def _seal(ws: Path, entry: tiers.T2Entry, plain: str, cfg: dict[str, Any]) -> tuple[str, dict[str, str], bool]:
    """Return ``(ciphertext, params, sealed)`` for the quarantine copy of ``entry``.

    aes-gcm entries keep their ciphertext (same skill, topic and id, so the
    associated data still matches). Others are sealed with the key when one
    is configured, through :func:`memory_manager.tiers.seal`: only with the
    key this store accepts (attack round 11: cleanup under another machine's
    key sealed a quarantined entry with it, and the store's own key could not
    give it back). With no key they keep (or get) xor-b64, only obfuscation.

    Raises:
        WrongKeyError: a key is configured that this store did not accept.
    """
    if entry.scheme == "aes-gcm" and not entry.plaintext:
        return entry.ciphertext, dict(entry.params), True
    try:
        sealed = _encrypt(ws, plain, entry, cfg, "aes-gcm")
        return sealed.ciphertext, dict(sealed.params), True
    except KeyUnavailableError:
        pass
    if not entry.plaintext:
        return entry.ciphertext, dict(entry.params), False
    sealed = _encrypt(ws, plain, entry, cfg, "xor-b64")
    return sealed.ciphertext, dict(sealed.params), False


def _encrypt(ws: Path, plain: str, entry: tiers.T2Entry, cfg: dict[str, Any], scheme: str) -> crypto.Sealed:
    """:func:`memory_manager.tiers.seal` for ``entry`` (its skill, topic and id bound, as its reader passes them)."""
    return tiers.seal(ws, cfg, plain, entry.skill, entry.month or _month(entry), scheme,
                      topic=entry.topic, entry_id=entry.id)


def _month(entry: tiers.T2Entry) -> str:
    day = entry.created or today()
    return f"{day.year:04d}-{day.month:02d}"


def _free(base: Path, ident: str) -> Path:
    path = base / f"{ident}.md"
    n = 2
    while path.exists() or path.is_symlink():
        path = base / f"{ident}-{n}.md"
        n += 1
    return path


def add(ws: Path, cfg: dict[str, Any], entry: tiers.T2Entry, plain: str, reason: str,
        backup: backups.Backup) -> dict[str, Any]:
    """Write ``entry`` (plain text ``plain``) to the quarantine; return its listing row.

    The caller removes the entry from its file afterwards and holds the
    workspace lock; the new file is recorded in ``backup`` (a restore of
    the cleanup removes it again and puts the entry back).

    Raises:
        WorkspaceError: the quarantine folder leads outside the workspace.
        FileWriteError, BackupError.
    """
    from . import fsio

    base = folder(ws)
    ciphertext, params, sealed = _seal(ws, entry, plain, cfg)
    month = entry.month or _month(entry)
    copy = tiers.T2Entry(path=entry.path, meta=dict(entry.meta), created=entry.created, expires=entry.expires,
                         scheme=params.get("scheme"), skill=entry.skill, topic=entry.topic, id=entry.id,
                         key_hint=entry.key_hint or f"{entry.skill}-{month}", month=month,
                         ciphertext=ciphertext, params=params)
    text = tiers.render_multi(entry.skill, month, [copy])
    fm = split_frontmatter(text, "quarantine")
    fields = {"quarantined": today().isoformat(), "quarantine_reason": reason,
              "origin": tree.Tree(Path(ws)).rel(entry.path),
              "origin_form": "single" if entry.index is None else "multi", "sealed": sealed}
    text = join_frontmatter(set_frontmatter_fields(fm.raw, fields), fm.body)
    if not base.is_dir():
        backup.save_new_dir(base)
        fsio.make_dirs(base)
    target = _free(base, entry.id)
    backup.save(target)
    atomic_write(target, text.encode("utf-8"), mode=0o600)
    return {"id": entry.id, "file": tree.Tree(Path(ws)).rel(target), "reason": reason, "sealed": sealed}


def files(ws: Path) -> list[Path]:
    """Return the quarantine files (sorted), never following a symlink out of the workspace."""
    try:
        base = folder(ws)
    except WorkspaceError:
        return []
    if not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if p.suffix == ".md" and p.is_file() and not p.is_symlink())


def read(path: Path) -> tuple[tiers.T2Entry, dict[str, Any]]:
    """Return ``(entry, frontmatter)`` of one quarantine file.

    Raises:
        MalformedFileError: the file cannot be parsed or holds no entry.
    """
    from .errors import MalformedFileError

    text = read_text(path).text
    found = tiers.parse_t2(text, path)
    if len(found) != 1:
        raise MalformedFileError(f"{path.name}: a quarantine file holds exactly one entry")
    return found[0], split_frontmatter(text, path.name).meta


def listing(ws: Path) -> list[dict[str, Any]]:
    """One row per quarantined entry: ``id``, ``file``, ``skill``, ``topic``, ``quarantined``, ``reason``, ``sealed``.

    Shown without asking (``memory.py status``): a finding in the skill, topic,
    origin path or reason is masked as recall masks text (``privacy.mask_name``;
    an entry is often quarantined *because* its name holds an address).
    """
    from .privacy import mask_name

    rows = []
    for path in files(ws):
        try:
            entry, meta = read(path)
        except Exception as exc:  # MalformedFileError / UnreadableFileError: list it, never raise
            rows.append({"id": None, "file": mask_name(tree.Tree(Path(ws)).rel(path)), "error": mask_name(str(exc))})
            continue
        rows.append({"id": entry.id, "file": mask_name(tree.Tree(Path(ws)).rel(path)), "skill": mask_name(entry.skill),
                     "topic": mask_name(entry.topic), "quarantined": str(meta.get("quarantined") or ""),
                     "reason": mask_name(str(meta.get("quarantine_reason") or "")),
                     "sealed": bool(meta.get("sealed")), "origin": mask_name(str(meta.get("origin") or ""))})
    return rows


def find(ws: Path, ident: str) -> list[tuple[Path, tiers.T2Entry, dict[str, Any]]]:
    """Return the quarantine files holding entry ``ident`` (usually one)."""
    out = []
    if not _ID.match(ident or ""):
        return out
    for path in files(ws):
        try:
            entry, meta = read(path)
        except Exception:  # malformed: not this entry
            continue
        if entry.id == ident:
            out.append((path, entry, meta))
    return out


def _find_one(ws: Path, ref: str) -> list[tuple[Path, tiers.T2Entry, dict[str, Any]]]:
    """The one quarantine file ``ref`` names: by id, or by its path when several files hold the id.

    An id two quarantine files hold (the same entry remembered and quarantined again) is refused,
    naming both, by the rule every lookup of an id follows (:func:`memory_manager.store.shared_id_error`).

    Raises:
        NotFoundError, BadInputError.
    """
    from .store import resolve, shared_id_error

    ref = (ref or "").strip()
    found = find(ws, ref)
    if len(found) > 1:
        raise shared_id_error(ws, ref, [path for path, _, _ in found])
    if not found and ref and not _ID.match(ref):
        try:
            target = resolve(ws, ref)
        except NotFoundError:
            target = None
        if target is not None and target.kind == "quarantine":
            entry, meta = read(target.path)
            found = [(target.path, entry, meta)]
    if not found:
        raise NotFoundError(f"no quarantined entry {_mask(ref)!r} (see memory.py status)")
    return found


def restore(ws: Path, cfg: dict[str, Any], ident: str, *, approved: bool = False) -> dict[str, Any]:
    """Put quarantined entry ``ident`` back among the T2 entries, marked approved.

    A single-entry origin goes back to its own file when that name is free,
    else (and for a multi-file origin) into the skill's month file. Needs
    ``approved`` (the user's word): it brings back content the detector
    flagged. Backed up first; the gate decision is logged without content.

    Returns ``{"action": "unquarantine", "id", "path", "backup", "gate"}``.

    Raises:
        NotFoundError: no quarantined entry ``ident``.
        GateDecisionError: not approved.
        ApprovalUnboundError: no secret outside the workspace can bind the
            approval mark (:func:`memory_manager.keyed.require_secret`).
        BadInputError: the entry's id is in use in the T2 folder already.
        WrongKeyError, KeyUnavailableError: no approval mark that verifies under
            this store's key could be written (:func:`_require_mark`); nothing changed.
    """
    from . import fsio, gate, keyed
    from .entries import language
    from .store import safe_target

    # A run killed after it removed the quarantined copy is rolled back first: looking
    # before that would find nothing and send the user away (issue 11, fault suite).
    backups.repair(ws)
    found = _find_one(ws, ident)
    ident = found[-1][1].id
    held = found[-1][1]
    # Gate rule 0: the skill and topic become a file name and frontmatter again;
    # the user's approval of the content cannot reach a name (issue 10, round 4).
    decision = gate.evaluate("edit", f"quarantined T2 entry {ident}", source="explicit_user", approved=approved,
                             cfg=cfg, tier="internal", request=f"unquarantine {ident}",
                             names={"skill": held.skill, "topic": held.topic})
    if decision.allowed:
        # The restored entry is kept by its approval mark: refuse one we cannot make, before
        # anything is written (the gate's record included).
        keyed.require_secret(ws, cfg)
        _require_mark(ws, cfg, held, ident)
    with fsio.workspace_lock(ws):
        gate.record(ws, decision, entry=ident)
    gate.require(decision)
    with fsio.workspace_lock(ws):
        if any(e.id == ident for e in tiers.iter_t2_entries(ws) if not e.error):
            raise BadInputError(f"entry {ident} exists in {tree.rel(tree.TIER2)} already; "
                                "forget one of them first")
        path, entry, meta = found[-1]
        stamp = today().isoformat()
        entry.meta = dict(entry.meta, approved=stamp)
        entry.meta.pop("approval", None)
        seal = _approval_seal(ws, cfg, entry, stamp)
        if not seal:  # checked above; the key went away meanwhile: still no entry without its mark
            _require_mark(ws, cfg, entry, ident)
            raise KeyUnavailableError(f"cannot write the approval mark of {ident}: its text does not open here; "
                                      "nothing was changed")
        entry.meta["approval"] = seal
        backup = backups.start(ws, f"unquarantine {ident}", allow_withheld=True)  # approved: unquarantine needs it
        single = tiers.t2_path(ws, entry.skill, entry.topic)
        if meta.get("origin_form") == "single" and not single.exists() and not single.is_symlink():
            target = safe_target(ws, single)
            created = entry.created or today()
            days = (entry.expires - created).days if entry.expires else int(cfg["tiers"]["t2_expiry_days"])
            text = tiers.render_t2(entry.skill, entry.topic, crypto.Sealed(entry.ciphertext, dict(entry.params)),
                                   created, days, entry.month, language(cfg))
            fm = split_frontmatter(text, single.name)
            text = tiers.mark_approved(text, date.fromisoformat(stamp), seal)
        else:
            target = safe_target(ws, tiers.multi_path(ws, entry.skill, entry.month))
            merged = tiers.parse_t2(read_text(target).text, target) if target.exists() else []
            merged = [e for e in merged if e.id != entry.id] + [entry]
            text = tiers.render_multi(entry.skill, entry.month, merged)
        backup.save(target)
        backup.save(path)
        atomic_write(target, text.encode("utf-8"), mode=0o600)
        fsio.remove(path)
    return {"action": "unquarantine", "id": ident, "path": tree.Tree(Path(ws)).rel(target),
            "backup": backup.id, "gate": decision.payload()}


def _mask(text: str) -> str:
    """Return ``text`` with its secrets masked as recall masks them (for error messages, issue 10)."""
    from .privacy import mask

    return mask(text)


def _require_mark(ws: Path, cfg: dict[str, Any], entry: tiers.T2Entry, ident: str) -> None:
    """Refuse ``unquarantine --approved`` when the restored entry could not carry a mark that verifies.

    The entry goes back approved, and cleanup keeps an approved entry only by its
    approval mark (:func:`memory_manager.keyed.approval_mark`, bound to its text):
    atk13 found ``unquarantine`` under another key (``MEMORY_MANAGER_KEY``) or
    with no key putting it back with a bare ``approved:`` date, so the next
    cleanup (with the store's key) quarantined the user's approved entry again.
    The key in use must be this store's (:func:`memory_manager.tiers.require_key_opens_sealed`),
    and the entry's text must open with it.

    Raises:
        WrongKeyError: the key in use is not this store's.
        KeyUnavailableError: the entry's text does not open here (no key, or a
            key that is not the one it was sealed with).
    """
    from .errors import MemoryManagerError

    tiers.require_key_opens_sealed(ws, cfg, "nothing was changed")
    try:
        tiers.decrypt_entry(entry, cfg)
    except MemoryManagerError:
        where = (f"{tiers.key_source(cfg)} does not open it" if crypto.check_key(cfg)
                 else f"no T2 key is found (the key file {crypto.key_path(cfg)} or {crypto.ENV_KEY})")
        raise KeyUnavailableError(
            f"cannot restore {ident} approved: {where}, so no approval mark can be written and the next cleanup "
            "would quarantine it again; put this store's key back and run unquarantine again; nothing was "
            "changed") from None


def _approval_seal(ws: Path, cfg: dict[str, Any], entry: tiers.T2Entry, day: str) -> str | None:
    """The entry's approval mark (:func:`memory_manager.keyed.approval_mark`), or None when it cannot be read here.

    The mark binds the approval to the entry's text: it is decrypted in memory
    (no key for an aes-gcm entry: no mark, the entry keeps a bare date, which
    cleanup can neither check nor use to keep it).
    """
    from . import keyed
    from .errors import MemoryManagerError

    try:
        plain = tiers.decrypt_entry(entry, cfg)
    except MemoryManagerError:
        return None
    return keyed.approval_mark(ws, cfg, entry.id, day, plain)
