"""The one backup mechanism for every change to a file this bundle did not create.

A backup is ``<workspace>/.memory-backup/<id>/`` holding ``manifest.json`` and
``files/<relative path>``. The manifest (format ``memory-backup`` version 1,
see ``references/formats.md``) lists, for each path, whether it existed, and
if so its sha256, size and mode. It is written, fsynced, before the first byte
of any user file changes; a failed backup raises :class:`BackupError` and the
caller changes nothing.

A path that did not exist before is recorded with ``existed: false`` so that a
restore removes it again; folders created by the change are recorded likewise
and removed on restore when empty. ``restore`` first backs up the current
state (so a restore can itself be undone), then puts every recorded file back
byte for byte.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__, tree
from .clock import now, stamp
from .errors import BackupError, FileWriteError, NotFoundError, WorkspaceError
from .fsio import atomic_write, sha256_bytes, sha256_file

BACKUP_DIRNAME = tree.BACKUPS
MANIFEST = "manifest.json"
FORMAT = {"format": "memory-backup", "version": 1}


def backup_root(workspace: Path) -> Path:
    """Return ``<workspace>/.memory-backup``."""
    return tree.Tree(Path(workspace)).backups


@dataclass
class Backup:
    """An open backup: call :meth:`save` on every path before changing it."""

    workspace: Path
    id: str
    reason: str
    entries: list[dict[str, Any]] = field(default_factory=list)

    @property
    def folder(self) -> Path:
        return backup_root(self.workspace) / self.id

    def _rel(self, path: Path) -> str:
        try:
            return Path(path).absolute().relative_to(self.workspace.absolute()).as_posix()
        except ValueError:
            raise WorkspaceError(f"{path} is outside the workspace {self.workspace}") from None

    def _write_manifest(self) -> None:
        doc = dict(FORMAT, id=self.id, created=now().isoformat(timespec="seconds"),
                   reason=self.reason, tool_version=__version__, entries=self.entries)
        atomic_write(self.folder / MANIFEST,
                     (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8"), mode=0o600)

    def has(self, path: Path) -> bool:
        """Return True when ``path`` is already recorded in this backup."""
        rel = self._rel(path)
        return any(e["path"] == rel for e in self.entries)

    def save(self, path: Path) -> None:
        """Record ``path`` (file, missing file, or folder about to be created).

        Copies a file's bytes into the backup and rewrites the manifest before
        returning. Saving the same path twice keeps the first copy.

        Raises:
            BackupError: the copy or the manifest could not be written.
        """
        path = Path(path)
        rel = self._rel(path)
        if self.has(path):
            return
        try:
            if path.is_symlink() or not path.exists():
                entry: dict[str, Any] = {"path": rel, "existed": False, "kind": "file"}
                if path.is_symlink():
                    entry = {"path": rel, "existed": True, "kind": "symlink", "target": os.readlink(path)}
            elif path.is_dir():
                entry = {"path": rel, "existed": True, "kind": "dir",
                         "mode": stat.S_IMODE(path.stat().st_mode)}
            else:
                data = path.read_bytes()
                dest = self.folder / "files" / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                atomic_write(dest, data, mode=0o600)
                entry = {"path": rel, "existed": True, "kind": "file", "sha256": sha256_bytes(data),
                         "size": len(data), "mode": stat.S_IMODE(path.stat().st_mode)}
            self.entries.append(entry)
            self._write_manifest()
        except BackupError:
            raise
        except OSError as exc:
            raise BackupError(f"backup of {rel} failed ({exc.strerror or exc}); nothing was changed") from None
        except Exception as exc:  # FileWriteError from atomic_write
            raise BackupError(f"backup of {rel} failed ({exc}); nothing was changed") from None

    def save_new_dir(self, path: Path) -> None:
        """Record a folder that the change is about to create (removed on restore if empty)."""
        rel = self._rel(path)
        if not self.has(path):
            self.entries.append({"path": rel, "existed": False, "kind": "dir"})
            try:
                self._write_manifest()
            except FileWriteError as exc:
                raise BackupError(f"backup of {rel}/ failed ({exc}); nothing was changed") from None


def start(workspace: Path, reason: str) -> Backup:
    """Open a new backup folder for ``reason`` (e.g. ``"init"``, ``"cleanup"``).

    The id is a UTC timestamp (``YYYYMMDDTHHMMSSZ``), suffixed ``-2``, ``-3``...
    when taken. Raises :class:`BackupError` when the folder cannot be made.
    """
    root = backup_root(workspace)
    base = stamp()
    try:
        root.mkdir(parents=True, exist_ok=True)
        os.chmod(root, 0o700)
        for n in range(1, 1000):
            ident = base if n == 1 else f"{base}-{n}"
            try:
                (root / ident).mkdir()
            except FileExistsError:
                continue
            backup = Backup(Path(workspace), ident, reason)
            try:
                backup._write_manifest()
            except FileWriteError as exc:
                shutil.rmtree(root / ident, ignore_errors=True)
                raise BackupError(f"cannot create a backup in {root} ({exc}); nothing was changed") from None
            return backup
    except OSError as exc:
        raise BackupError(f"cannot create a backup in {root} ({exc.strerror}); nothing was changed") from None
    raise BackupError(f"cannot find a free backup id under {root}")


def list_backups(workspace: Path) -> list[dict[str, Any]]:
    """Return every backup's manifest (oldest first), each with ``files`` counted.

    Folders without a readable manifest are listed with ``"error"`` set.
    """
    root = backup_root(workspace)
    result = []
    if not root.is_dir():
        return result
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        try:
            doc = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            doc["files"] = len(doc.get("entries", []))
        except (OSError, ValueError):
            doc = {"id": folder.name, "error": "missing or unreadable manifest", "files": 0}
        result.append(doc)
    return result


def _load(workspace: Path, ident: str | None) -> dict[str, Any]:
    usable = [b for b in list_backups(workspace) if "error" not in b and b.get("entries")]
    if not usable:
        raise NotFoundError(f"no backups in {backup_root(workspace)}")
    if ident is None:
        return usable[-1]
    for doc in usable:
        if doc["id"] == ident:
            return doc
    raise NotFoundError(f"no backup with id {ident!r} (see --list-backups)")


def restore_plan(workspace: Path, ident: str | None = None) -> dict[str, Any]:
    """Say what :func:`restore` would do, changing nothing (``init --restore --dry-run``).

    Returns ``{"restored": id, "dry_run": True, "paths": [...]}`` where each
    path is marked ``restore``, ``remove``, ``chmod`` or ``remove if empty``.

    Raises:
        NotFoundError: no such backup.
    """
    workspace = Path(workspace)
    doc = _load(workspace, ident)
    actions = []
    for entry in doc["entries"]:
        target = workspace / entry["path"]
        kind, existed = entry.get("kind"), entry.get("existed")
        if kind == "file" and existed:
            if not target.exists() or target.is_symlink() or sha256_file(target) != entry["sha256"]:
                actions.append(f"restore {entry['path']}")
            elif stat.S_IMODE(target.stat().st_mode) != entry.get("mode"):
                actions.append(f"chmod {entry['path']}")
        elif kind == "file" and (target.exists() or target.is_symlink()):
            actions.append(f"remove {entry['path']}")
        elif kind == "dir" and not existed and target.is_dir():
            actions.append(f"remove if empty {entry['path']}/")
    return {"restored": doc["id"], "dry_run": True, "paths": actions}


def restore(workspace: Path, ident: str | None = None) -> dict[str, Any]:
    """Put the files of backup ``ident`` (default: the newest) back byte for byte.

    The current state of every path involved is backed up first (reason
    ``restore <id>``). Files that did not exist at backup time are removed;
    folders created by the change are removed when empty.

    Returns ``{"restored": id, "safety_backup": id, "paths": [...]}``.

    Raises:
        NotFoundError: no such backup.
        BackupError: a saved copy is missing or does not match its checksum
            (nothing is changed in that case).
    """
    workspace = Path(workspace)
    doc = _load(workspace, ident)
    folder = backup_root(workspace) / doc["id"]
    files: dict[str, bytes] = {}
    for entry in doc["entries"]:
        if entry.get("kind") == "file" and entry.get("existed"):
            try:
                data = (folder / "files" / entry["path"]).read_bytes()
            except OSError:
                raise BackupError(f"backup {doc['id']}: copy of {entry['path']} is missing") from None
            if sha256_bytes(data) != entry["sha256"]:
                raise BackupError(f"backup {doc['id']}: copy of {entry['path']} fails its sha256 check")
            files[entry["path"]] = data
    safety = start(workspace, f"restore {doc['id']}")
    for entry in doc["entries"]:
        target = workspace / entry["path"]
        if entry.get("kind") == "dir" and not entry.get("existed"):
            continue
        safety.save(target)
    changed = []
    for entry in doc["entries"]:
        target = workspace / entry["path"]
        kind = entry.get("kind")
        if kind == "file" and entry.get("existed"):
            if not target.exists() or target.is_symlink() or sha256_file(target) != entry["sha256"]:
                if target.is_symlink():
                    target.unlink()
                atomic_write(target, files[entry["path"]], mode=entry.get("mode"))
                changed.append(entry["path"])
            elif stat.S_IMODE(target.stat().st_mode) != entry.get("mode"):
                os.chmod(target, entry["mode"])
        elif kind == "file" and not entry.get("existed"):
            if target.is_symlink() or target.is_file():
                target.unlink()
                changed.append(entry["path"])
            elif target.is_dir():
                shutil.rmtree(target)
                changed.append(entry["path"])
    # Created folders: deepest first, only when empty (never lose a byte).
    for entry in sorted((e for e in doc["entries"] if e.get("kind") == "dir" and not e.get("existed")),
                        key=lambda e: e["path"].count("/"), reverse=True):
        target = workspace / entry["path"]
        try:
            target.rmdir()
            changed.append(entry["path"] + "/")
        except OSError:
            pass
    return {"restored": doc["id"], "safety_backup": safety.id, "paths": changed}
