"""The derived recall index: SQLite FTS5 under ``memory/.cache/``.

Never the source of truth: the Markdown files are. The index is
``memory/.cache/recall-index.sqlite`` (git-ignored with the rest of
``.cache``) and holds, per source file, its ``mtime_ns``, size and SHA-256,
and per entry its metadata plus the ranking terms of
:func:`memory_manager.textproc.tokens` in an FTS5 table (``ascii`` tokenizer
over our own space-separated terms, so the index and the query always use
the same tokenisation).

Freshness (:meth:`RecallIndex.refresh`, run before every search): every
source file is ``stat``-ed; a file whose mtime and size match what was
indexed is trusted, unless it was modified within 2 s of being indexed
(the "racily clean" case git also guards against: an edit in the same clock
tick keeps the mtime), in which case it is hashed. A changed hash re-parses
the file; files gone are dropped, so renames and deletions are seen. A
missing, unreadable or corrupt index, or one written by another schema or
tokenizer version, is deleted and rebuilt from scratch.

Entry rowids are ``file_no << 20 | position``: the entries of one file are
consecutive, so recall finds an entry's neighbours without a lookup.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable

from .regular import read_regular
from . import fsio, textproc, tree, units
from .fsio import make_dirs

INDEX_RELPATH = tree.Tree(Path()).recall_index
SCHEMA_VERSION = 6  # 2: ids from entries.parse_entries; files.error names malformed files; 3: versions, dates, archived; 4: files.error names non-UTF-8 files too; 5: note labels not indexed; 6: a lessons file's template preamble is no entry (nu16 item 9)
#: A daily note's line label (``- Cause:``, ``- 改：``...): the note's form, not its content. Left
#: out of the indexed words, or "todo" would match every note with a Todo line (walk-through r4,
#: item 20). The same labels as :data:`memory_manager.entries.LABELS`.
_LABEL = re.compile(r"^(\s*[-*]\s*)(?:因|改|待|Cause|Change|Todo)\s*[:：]", re.I | re.M)
#: Bits of an entry rowid holding its position within the file.
POS_BITS = 20
#: Files modified this close (ns) to their indexing time are re-hashed.
RACY_NS = 2_000_000_000
#: FTS5's BM25 constants (fixed in SQLite's fts5_aux.c), reused for T2 entries.
BM25_K1, BM25_B = 1.2, 0.75

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT);
CREATE TABLE IF NOT EXISTS files(file_no INTEGER PRIMARY KEY, path TEXT UNIQUE, kind TEXT,
                   mtime_ns INTEGER, size INTEGER, sha TEXT, indexed_ns INTEGER, error TEXT);
CREATE TABLE IF NOT EXISTS entries(rowid INTEGER PRIMARY KEY, file_no INTEGER, path TEXT, ordinal INTEGER,
                     id TEXT, heading TEXT, date TEXT, kind TEXT, tags TEXT, tag_terms TEXT,
                     pinned INTEGER, text TEXT, span_start INTEGER, span_end INTEGER, ntok INTEGER,
                     current INTEGER DEFAULT 1, version TEXT, dates TEXT, archived INTEGER DEFAULT 0);
CREATE INDEX IF NOT EXISTS entries_date ON entries(date);
CREATE INDEX IF NOT EXISTS entries_file ON entries(file_no);
CREATE INDEX IF NOT EXISTS entries_id ON entries(id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(terms, tokenize='ascii');
CREATE VIRTUAL TABLE IF NOT EXISTS fts_vocab USING fts5vocab(fts, 'row');
"""

#: The secondary indexes of ``entries`` (name: statement), as in :data:`_SCHEMA`; a build from
#: nothing makes them after its rows are in.
_ENTRY_INDEXES = {m.group(1): m.group(0) for m in re.finditer(r"CREATE INDEX IF NOT EXISTS (\w+) ON [^;]+", _SCHEMA)}

ENTRY_COLUMNS = ("rowid", "path", "ordinal", "id", "heading", "date", "kind", "tags", "tag_terms",
                 "pinned", "text", "span_start", "span_end", "current", "version", "dates", "archived")


def index_path(ws: Path) -> Path:
    """Return ``<ws>/memory/.cache/recall-index.sqlite``."""
    return tree.Tree(Path(ws)).recall_index


def tag_terms(tags: Iterable[str]) -> list[list[str]]:
    """Return each tag's ranking terms (a tag with no terms is kept as ``[]``)."""
    return [textproc.query_terms(t) for t in tags]


def parse_source(rel: str, kind: str, data: bytes) -> tuple[str, str | None, list[tuple[tuple, str]]]:
    """Parse one source file into index rows; a pure function (it runs in worker processes too).

    Returns ``(sha256 hex, error or None, [(entry columns after file_no, FTS terms)])``.
    Superseded versions (history) follow their entry as rows with ``current`` 0:
    recall searches them only when a query asks about an earlier state.
    """
    from .errors import UnreadableFileError
    from .fsio import decode_text

    error = None
    try:
        text = decode_text(data, rel).text
        entries, error = units.parse_file(rel, kind, text)
    except UnreadableFileError as exc:
        # Not UTF-8 (binary, Latin-1): nothing to recall, but remember the file (so it is
        # not re-read) and why, so that recall and status can name it.
        entries, error = [], str(exc).removeprefix(f"{rel}: ")
    flat = []
    for e in entries:
        flat.append((e, 1, None, e.text))
        for v in e.meta.get("versions", ()):
            flat.append((e, 0, v.since, v.text))
    archived = int(kind == "archive")
    items = []
    dumps = _dumps
    terms_text = textproc.terms_text
    for e, current, version, body in flat[: (1 << POS_BITS) - 1]:
        # A label is replaced by a space, not by what stood before it (``\1``): both are
        # separators after a line break, so the terms are the same, and a plain replacement
        # skips Python's template expansion for each of 190k labels (0.3 s at 100k, issue 13).
        terms, n_terms = terms_text(e.heading + "\n" + _LABEL.sub(" ", body))
        dates = e.meta.get("dates")
        items.append(((rel, e.ordinal, e.id, e.heading, version or e.date, e.kind,
                       dumps(e.tags), dumps(tag_terms(e.tags)) if e.tags else "[]",
                       int(e.pinned), body, e.span[0], e.span[1], n_terms, current, version,
                       json.dumps(dates, allow_nan=False) if dates and current else None, archived), terms))
    return hashlib.sha256(data).hexdigest(), error, items


def _dumps(value: list) -> str:
    """``json.dumps`` of a list of strings as stored (an empty list, the usual case, without the encoder)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False) if value else "[]"


def _parse_batch(batch: list[tuple[str, str, bytes]]) -> list[tuple]:
    return [parse_source(rel, kind, data) for rel, kind, data in batch]


#: Files to parse from which a refresh uses worker processes (one per core, at most 4):
#: parsing and tokenising is pure Python, so a cold build of 100k entries is CPU-bound
#: (issue 13: < 3 s). Fewer files are parsed in the process (a worker start costs more).
PARALLEL_MIN_FILES = 400


def _parse_all(to_parse: list[tuple[str, str, int, int, bytes]]):
    """Yield :func:`parse_source` for every file, in order; in worker processes when it pays.

    A generator, so rows are stored as they come and a cold build never holds every
    parsed file at once.
    """
    jobs = [(rel, kind, data) for rel, kind, _, _, data in to_parse]
    workers = min(4, os.cpu_count() or 1)
    pool = None
    if len(jobs) >= PARALLEL_MIN_FILES and workers > 1:
        try:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
        except (OSError, ValueError, RuntimeError, ImportError):
            pool = None  # no fork here (or no processes allowed): parse in this process, same result
    if pool is None:
        for job in jobs:
            yield parse_source(*job)
        return
    size = max(1, min(64, len(jobs) // (workers * 4)))
    with pool:
        for part in pool.map(_parse_batch, [jobs[i:i + size] for i in range(0, len(jobs), size)]):
            yield from part


class RecallIndex:
    """An open index for one workspace. Use :func:`open_index`."""

    def __init__(self, ws: Path, conn: sqlite3.Connection) -> None:
        self.ws = Path(ws)
        self.conn = conn
        self._next_no = 1  # the next file_no of a build into an empty ``files`` table (refresh)

    # -- freshness -----------------------------------------------------------------
    def _scan(self) -> dict[str, tuple[str, int, int]]:
        found = {}
        for rel, kind, dirent in units.scan_sources(self.ws) + units.scan_archive(self.ws):
            try:
                st = dirent.stat()
            except OSError:
                continue
            # SQLite integers are 64-bit; a file dated past 2262 (touch -d) has a larger
            # mtime in ns. Clamped the same way every time, so freshness still compares.
            found[rel] = (kind, max(-(2**63), min(st.st_mtime_ns, 2**63 - 1)), st.st_size)
        return found

    def _diff(self, found: dict[str, tuple[str, int, int]], probe: bool = False) -> tuple[list, list, list]:
        """Return (to_parse [(rel, kind, mtime, size, data)], touch [(rel, mtime, size)], gone [file_no]).

        ``probe``: only whether anything is to do; returns at the first readable file not
        indexed yet (the caller decides again under the write lock, so a cold build does
        not read every file twice).
        """
        known = {row[1]: row for row in self.conn.execute(
            "SELECT file_no, path, kind, mtime_ns, size, sha, indexed_ns FROM files")}
        to_parse, touch = [], []
        now_ns = time.time_ns()
        for rel, (kind, mtime, size) in found.items():
            row = known.get(rel)
            if row and row[2] == kind and row[3] == mtime and row[4] == size and mtime + RACY_NS < row[6]:
                continue
            try:
                data = read_regular(self.ws / rel)
            except OSError:
                continue
            if probe and not (row and row[2] == kind):
                return [(rel, kind, mtime, size, data)], [], []
            if row and row[2] == kind and row[5] == hashlib.sha256(data).hexdigest():
                # Same content: record the new stat, or settle a racy file once the clock
                # has moved past its window (no write while it is still racy).
                if row[3] != mtime or row[4] != size or mtime + RACY_NS < now_ns:
                    touch.append((rel, mtime, size))
                continue
            to_parse.append((rel, kind, mtime, size, data))
        gone = [row[0] for rel, row in known.items() if rel not in found]
        return to_parse, touch, gone

    def refresh(self) -> dict[str, int]:
        """Bring the index in line with the files; return counts ``parsed``, ``removed``.

        Cheap when nothing changed: one ``stat`` per file and one query.
        """
        found = self._scan()
        to_parse, touch, gone = self._diff(found, probe=True)
        if not (to_parse or touch or gone):
            return {"parsed": 0, "removed": 0}
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have refreshed meanwhile: decide again under the write lock.
            to_parse, touch, gone = self._diff(self._scan())
            now_ns = time.time_ns()
            for rel, mtime, size in touch:
                conn.execute("UPDATE files SET mtime_ns=?, size=?, indexed_ns=? WHERE path=?",
                             (mtime, size, now_ns, rel))
            for file_no in gone:
                self._drop_file(file_no)
            # A build from nothing fills an empty table: its three indexes are made once at the
            # end (one sort each) instead of being kept up to date row by row (issue 13). Inside
            # the transaction: a failed build rolls the DROP back with the rest.
            bulk = len(to_parse) >= PARALLEL_MIN_FILES and conn.execute(
                "SELECT 1 FROM entries LIMIT 1").fetchone() is None
            if bulk:
                for name in _ENTRY_INDEXES:
                    conn.execute(f"DROP INDEX IF EXISTS {name}")
            pending: tuple[list, list] = ([], [])
            # Files into an empty ``files`` table (a build from nothing): no file to drop, and
            # SQLite would number them 1, 2, 3...: numbered here and inserted in batches
            # with the rows (issue 13: two statements per file).
            fresh = [] if conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is None else None
            self._next_no = 1
            for (rel, kind, mtime, size, data), parsed in zip(to_parse, _parse_all(to_parse)):
                self._index_file(rel, kind, mtime, size, data, now_ns, parsed, pending, fresh)
                if len(pending[0]) >= 4096:
                    self._flush(pending, fresh)
            self._flush(pending, fresh)
            if bulk:
                for name, sql in _ENTRY_INDEXES.items():
                    conn.execute(sql)
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        return {"parsed": len(to_parse), "removed": len(gone)}

    def _drop_file(self, file_no: int) -> None:
        lo, hi = file_no << POS_BITS, (file_no + 1) << POS_BITS
        self.conn.execute("DELETE FROM fts WHERE rowid >= ? AND rowid < ?", (lo, hi))
        self.conn.execute("DELETE FROM entries WHERE file_no=?", (file_no,))
        self.conn.execute("DELETE FROM files WHERE file_no=?", (file_no,))

    def _index_file(self, rel: str, kind: str, mtime: int, size: int, data: bytes, now_ns: int,
                    parsed: tuple | None = None, pending: tuple[list, list] | None = None,
                    fresh: list | None = None) -> None:
        """Replace ``rel``'s rows with its parsed entries (``parsed``: :func:`parse_source`'s result).

        ``pending``: ``(entry rows, FTS rows)`` lists the new rows are added to, for
        :meth:`_flush` to insert many files' rows at once (issue 13); without it they are
        inserted now. The rows of a file dropped here are never among the pending rows: a
        file is indexed once per refresh, and a new ``file_no`` is never a pending one.
        ``fresh`` (with ``pending``): the ``files`` rows not inserted yet, when the table was
        empty when the refresh began; the file gets the next number and its row is added.
        """
        sha, error, items = parsed if parsed is not None else parse_source(rel, kind, data)
        if fresh is not None:
            file_no, self._next_no = self._next_no, self._next_no + 1
            fresh.append((file_no, rel, kind, mtime, size, sha, now_ns, error))
        else:
            row = self.conn.execute("SELECT file_no FROM files WHERE path=?", (rel,)).fetchone()
            if row:
                self._drop_file(row[0])
            file_no = self.conn.execute(
                "INSERT INTO files(path, kind, mtime_ns, size, sha, indexed_ns, error) VALUES (?,?,?,?,?,?,?)",
                (rel, kind, mtime, size, sha, now_ns, error)).lastrowid
        rows, fts_rows = pending if pending is not None else ([], [])
        base = file_no << POS_BITS
        for pos, (item, terms) in enumerate(items):
            rows.append((base | pos, file_no) + item)
            fts_rows.append((base | pos, terms))
        if pending is None:
            self._flush((rows, fts_rows))

    def _flush(self, pending: tuple[list, list], fresh: list | None = None) -> None:
        """Insert ``(entry rows, FTS rows)`` gathered by :meth:`_index_file` (and ``fresh`` files rows) and empty the lists."""
        rows, fts_rows = pending
        if fresh:
            self.conn.executemany(
                "INSERT INTO files(file_no, path, kind, mtime_ns, size, sha, indexed_ns, error) VALUES (?,?,?,?,?,?,?,?)",
                fresh)
            fresh.clear()
        if rows:
            self.conn.executemany(
                "INSERT INTO entries(rowid, file_no, path, ordinal, id, heading, date, kind, tags, tag_terms,"
                " pinned, text, span_start, span_end, ntok, current, version, dates, archived)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
            self.conn.executemany("INSERT INTO fts(rowid, terms) VALUES (?, ?)", fts_rows)
        rows.clear()
        fts_rows.clear()

    # -- queries -------------------------------------------------------------------
    def malformed(self) -> list[tuple[str, str]]:
        """Return ``(path, why)`` for each indexed file the reader refused (malformed frontmatter)."""
        return list(self.conn.execute("SELECT path, error FROM files WHERE error IS NOT NULL ORDER BY path"))

    def bm25(self, terms: list[str]) -> dict[int, float]:
        """Return ``{rowid: BM25}`` (positive, larger is better) for every entry matching any term."""
        if not terms:
            return {}
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        return dict(self.conn.execute("SELECT rowid, -bm25(fts) FROM fts WHERE fts MATCH ?", (match,)))

    def bm25_rows(self, terms: list[str], history: bool = False) -> list[tuple]:
        """Like :meth:`bm25` with what scoring needs.

        Rows are ``(rowid, BM25, id, date, tag_terms JSON, current, version, dates JSON, archived)``;
        superseded versions (``current`` 0) only when ``history``.
        """
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        where = "" if history else " AND e.current = 1"
        return self.conn.execute(
            "SELECT f.rowid, -bm25(fts), e.id, e.date, e.tag_terms, e.current, e.version, e.dates, e.archived"
            " FROM fts f JOIN entries e ON e.rowid = f.rowid"
            " WHERE fts MATCH ?" + where, (match,)).fetchall()

    def current_rows(self, ids: Iterable[str]) -> list[tuple]:
        """The current rows of the entries ``ids`` (shape of :meth:`bm25_rows`, BM25 0)."""
        ids = list(dict.fromkeys(ids))
        out: list[tuple] = []
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            out += self.conn.execute(
                "SELECT rowid, 0.0, id, date, tag_terms, current, version, dates, archived FROM entries"
                f" WHERE current = 1 AND id IN ({','.join('?' * len(chunk))})", chunk).fetchall()
        return out

    def rows_with(self, term: str) -> set[int]:
        """Rowids of the entries (any version) holding ``term``."""
        return {r for (r,) in self.conn.execute("SELECT rowid FROM fts WHERE fts MATCH ?",
                                                ('"' + term.replace('"', '""') + '"',))}

    def span_rows(self, first: str, last: str) -> list[tuple]:
        """Current entries dated (or with a version dated) ``first``..``last`` (``YYYY-MM-DD``, inclusive).

        Rows have the shape of :meth:`bm25_rows` with BM25 0.
        """
        return self.conn.execute(
            "SELECT rowid, 0.0, id, date, tag_terms, current, version, dates, archived FROM entries"
            " WHERE current = 1 AND (date BETWEEN ?1 AND ?2 OR (dates IS NOT NULL AND EXISTS"
            " (SELECT 1 FROM json_each(entries.dates) WHERE value BETWEEN ?1 AND ?2)))", (first, last)).fetchall()

    def entries(self, rowids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """Return entry rows (dicts keyed by :data:`ENTRY_COLUMNS`) for ``rowids``."""
        out: dict[int, dict[str, Any]] = {}
        ids = list(rowids)
        cols = ",".join(ENTRY_COLUMNS)
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            sql = f"SELECT {cols} FROM entries WHERE rowid IN ({','.join('?' * len(chunk))})"
            for row in self.conn.execute(sql, chunk):
                out[row[0]] = dict(zip(ENTRY_COLUMNS, row))
        return out

    def score_rows(self, rowids: Iterable[int]) -> dict[int, tuple[str, str | None, str]]:
        """Return ``{rowid: (id, date, tag_terms JSON)}``: just what scoring needs."""
        out: dict[int, tuple[str, str | None, str]] = {}
        ids = list(rowids)
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            sql = f"SELECT rowid, id, date, tag_terms FROM entries WHERE rowid IN ({','.join('?' * len(chunk))})"
            for row in self.conn.execute(sql, chunk):
                out[row[0]] = row[1:]
        return out

    def all_entries(self, kinds: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Return every entry row (optionally only the given source kinds), in file order."""
        cols = ",".join(ENTRY_COLUMNS)
        sql = f"SELECT {cols} FROM entries WHERE current = 1 AND archived = 0"
        args: list[Any] = []
        if kinds is not None:
            kinds = list(kinds)
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args = kinds
        return [dict(zip(ENTRY_COLUMNS, row)) for row in self.conn.execute(sql + " ORDER BY rowid", args)]

    def collection_stats(self, terms: list[str]) -> tuple[int, float, dict[str, int]]:
        """Return ``(N entries, average terms per entry, {term: document frequency})``."""
        n, avg = self.conn.execute("SELECT count(*), coalesce(avg(ntok), 0) FROM entries").fetchone()
        return n, float(avg), self.doc_freq(terms)

    def doc_freq(self, terms: Iterable[str]) -> dict[str, int]:
        """``{term: number of entries holding it}`` (0 for a term no entry holds); unlike
        :meth:`collection_stats` it does not count the entries (a scan of the table)."""
        get = self.conn.execute
        out = {}
        for t in terms:
            row = get("SELECT doc FROM fts_vocab WHERE term=?", (t,)).fetchone()
            out[t] = row[0] if row else 0
        return out

    def near_terms(self, term: str) -> dict[str, int]:
        """Terms of the index that ``term`` misspells by one slip: a letter left out, or two letters
        next to each other swapped (letters a-z) -> their document frequency. For a query word no
        entry holds: "espreso" -> {"espresso": 3}. A replaced or an extra letter is not tried: those
        turn real words into other real words ("shirt" -> "short"). About 27 look-ups per letter."""
        letters = "abcdefghijklmnopqrstuvwxyz"
        cands = set()
        for i in range(len(term) + 1):
            head, tail = term[:i], term[i:]
            if len(tail) > 1:
                cands.add(head + tail[1] + tail[0] + tail[2:])
            for c in letters:
                cands.add(head + c + tail)
        cands.discard(term)
        return {c: n for c, n in self.doc_freq(cands).items() if n}

    def counts_by_kind(self) -> dict[str, int]:
        """Return ``{kind: number of entries}``."""
        return dict(self.conn.execute("SELECT kind, count(*) FROM entries WHERE current = 1 AND archived = 0 GROUP BY kind"))

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()
        scratch = getattr(self, "scratch_dir", None)
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


def _connect(path: Path) -> sqlite3.Connection:
    # Rollback journal (SQLite's default), not WAL: a WAL index keeps -wal/-shm files
    # whose names a rebuild could not replace safely while another process reads.
    # SQLite writes the database and its journal in place and follows hard links
    # (and, for the journal, symlinks): a name there that is not a plain file of its
    # own was planted and is removed first; the index is derived, nothing is lost
    # (issue 10: a hard-linked journal got pages of the index, the text of every
    # entry, written into a file outside the workspace).
    for suffix in ("", "-journal", "-wal", "-shm"):
        fsio.unshare(Path(str(path) + suffix))
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None)
    # The index holds the text of every entry: private, like all of memory/.cache
    # (issue 10). SQLite gives its journal file the database's mode.
    with contextlib.suppress(OSError):
        os.chmod(path, 0o600)
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def _create(path: Path) -> sqlite3.Connection:
    """Create the schema (idempotent: another process may have created it meanwhile)."""
    conn = _connect(path)
    conn.executescript(
        "BEGIN IMMEDIATE;" + _SCHEMA
        + f"INSERT OR IGNORE INTO meta VALUES ('schema', '{SCHEMA_VERSION}');"
        + f"INSERT OR IGNORE INTO meta VALUES ('tokenizer', '{textproc.TOKENIZER_VERSION}');COMMIT;")
    return conn


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(path) + suffix)


def _valid(conn: sqlite3.Connection) -> bool:
    meta = dict(conn.execute("SELECT k, v FROM meta"))
    return meta.get("schema") == str(SCHEMA_VERSION) and meta.get("tokenizer") == str(textproc.TOKENIZER_VERSION)


class _Unusable(Exception):
    """The index file is corrupt or of another version: rebuild it."""


def _try_open(ws: Path, path: Path, refresh: bool) -> RecallIndex:
    conn = None
    try:
        conn = _connect(path) if path.exists() else _create(path)
        try:
            ok = _valid(conn)
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise
            ok = False
        if not ok:
            raise _Unusable("index written by another version")
        idx = RecallIndex(ws, conn)
        if refresh:
            idx.refresh()
        return idx
    except BaseException as exc:
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        # Busy/locked are other processes at work (OperationalError): not corruption.
        # Anything else from SQLite (not a database, malformed image...) is.
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            raise _Unusable(str(exc)) from None
        raise


def open_scratch_index(ws: Path) -> RecallIndex:
    """Open an up-to-date index that writes nothing inside the workspace (for dry runs).

    The on-disk index, when there is a usable one, is copied (SQLite's backup
    API, read-only) into a temporary folder and refreshed there; otherwise one
    is built there. ``close()`` removes the folder. A dry run must leave the
    workspace tree byte-identical, derived cache included.

    Raises:
        MemoryManagerError: SQLite failed.
    """
    from .errors import MemoryManagerError

    folder = Path(tempfile.mkdtemp(prefix="cmm-scratch-index-"))
    path = folder / tree.RECALL_INDEX
    real = index_path(ws)
    try:
        if real.exists():
            try:
                src = sqlite3.connect(f"{real.absolute().as_uri()}?mode=ro", uri=True, timeout=30)
                dst = sqlite3.connect(str(path))
                try:
                    src.backup(dst)
                finally:
                    src.close()
                    dst.close()
            except sqlite3.Error:
                _remove(path)
        try:
            idx = _try_open(ws, path, refresh=True)
        except _Unusable:
            _remove(path)
            idx = _try_open(ws, path, refresh=True)
    except (sqlite3.Error, OSError, _Unusable) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise MemoryManagerError(f"scratch recall index: {exc}") from None
    idx.scratch_dir = folder
    return idx


def open_index(ws: Path, refresh: bool = True) -> RecallIndex:
    """Open the workspace's index (see :func:`_open_index`).

    When the on-disk index cannot be opened or written (disk full, a
    file-size limit, a read-only ``memory/.cache``), an index is built in
    memory for this run (:func:`_memory_index`) and a
    :class:`DerivedIndexWarning` (one line on stderr) says so.

    Raises:
        MemoryManagerError: SQLite failed (busy or locked beyond its timeout,
            or even the in-memory index failed); the message names the index file.
    """
    from .errors import FileWriteError, MemoryManagerError, WorkspaceError
    from .fsio import outside_links

    # A planted memory/.cache symlink must not make recall write the index
    # (the text of every entry) outside the workspace (issue 10).
    if tree.rel(tree.CACHE) in outside_links(Path(ws)):
        raise WorkspaceError(f"{tree.rel(tree.CACHE)} is a symlink leading outside the workspace; "
                             "refusing to write the recall index there (remove the link)")
    # SQLite follows a link: a planted index file would receive every entry's text (issue 10).
    for name in (tree.RECALL_INDEX, tree.RECALL_INDEX + "-journal", tree.RECALL_INDEX + ".lock"):
        if (tree.Tree(Path(ws)).cache / name).is_symlink():
            raise WorkspaceError(f"{tree.rel(tree.CACHE, name)} is a symlink; refusing to open the recall index "
                                 "through it (remove the link)")
    try:
        return _open_index(ws, refresh)
    except (sqlite3.Error, OSError, FileWriteError) as exc:
        # FileWriteError: a folder stands at the index or its journal (fsio.unshare never
        # removes a folder); the index is derived, so that is one more cache fault (fatk9).
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            raise MemoryManagerError(f"recall index {index_path(ws)}: {exc}") from None
        # The index is derived (developer guide): when memory/.cache cannot be written
        # (full disk, file-size limit, read-only folder) this run builds one in memory
        # from the Markdown files instead of failing (issue 11).
        try:
            idx = _memory_index(ws)
        except (sqlite3.Error, OSError, _Unusable):
            raise MemoryManagerError(f"recall index {index_path(ws)}: {exc}") from None
        import warnings

        warnings.warn(DerivedIndexWarning(
            f"recall index {tree.rel(tree.CACHE, tree.RECALL_INDEX)} cannot be written ({exc}); "
            "using an index kept in memory for this run"), stacklevel=2)
        return idx


class DerivedIndexWarning(UserWarning):
    """The on-disk recall index could not be written; an in-memory one was used."""


def _memory_index(ws: Path) -> RecallIndex:
    """Build an index in memory from the Markdown files (nothing written anywhere).

    Raises:
        sqlite3.Error: SQLite failed even in memory.
    """
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA temp_store=MEMORY")
    conn.executescript(
        "BEGIN;" + _SCHEMA
        + f"INSERT OR IGNORE INTO meta VALUES ('schema', '{SCHEMA_VERSION}');"
        + f"INSERT OR IGNORE INTO meta VALUES ('tokenizer', '{textproc.TOKENIZER_VERSION}');COMMIT;")
    idx = RecallIndex(ws, conn)
    idx.refresh()
    return idx


def _open_index(ws: Path, refresh: bool = True) -> RecallIndex:
    """Open (creating or rebuilding as needed) and refresh the workspace's index.

    A missing or corrupt file, or one of another schema or tokenizer version,
    is rebuilt from scratch (the Markdown files are the source of truth)
    while holding ``memory/.cache/recall-index.lock`` (filelock), so that
    concurrent recalls build it once and never delete each other's work.

    Raises:
        sqlite3.Error: the index cannot be used even after a rebuild, or
            SQLite stayed busy beyond its 30 s timeout.
    """
    path = index_path(ws)
    make_dirs(path.parent)
    if path.exists():
        try:
            return _try_open(ws, path, refresh)
        except _Unusable:
            pass
    from filelock import FileLock

    with FileLock(str(path) + ".lock", timeout=600, mode=0o600):  # every cache file is 0600 (issue 10)
        if path.exists():  # another process may have rebuilt it while we waited
            try:
                return _try_open(ws, path, refresh)
            except _Unusable:
                _remove(path)
        # Build beside it, then rename: readers never see a half-built index.
        tmp = path.with_name(f"{path.name}.build-{os.getpid()}")
        _remove(tmp)
        try:
            _try_open(ws, tmp, refresh=True).close()
            os.replace(tmp, path)
        except _Unusable as exc:
            raise sqlite3.DatabaseError(f"{path}: unusable after a rebuild ({exc})") from None
        finally:
            _remove(tmp)
        try:
            return _try_open(ws, path, refresh)
        except _Unusable as exc:
            raise sqlite3.DatabaseError(f"{path}: unusable after a rebuild ({exc})") from None
