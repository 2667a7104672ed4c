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
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterable

from . import textproc, units

INDEX_RELPATH = Path("memory") / ".cache" / "recall-index.sqlite"
SCHEMA_VERSION = 1
#: Bits of an entry rowid holding its position within the file.
POS_BITS = 20
#: Files modified this close (ns) to their indexing time are re-hashed.
RACY_NS = 2_000_000_000
#: FTS5's BM25 constants (fixed in SQLite's fts5_aux.c), reused for T2 entries.
BM25_K1, BM25_B = 1.2, 0.75

_SCHEMA = """
CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT);
CREATE TABLE files(file_no INTEGER PRIMARY KEY, path TEXT UNIQUE, kind TEXT,
                   mtime_ns INTEGER, size INTEGER, sha TEXT, indexed_ns INTEGER);
CREATE TABLE entries(rowid INTEGER PRIMARY KEY, file_no INTEGER, path TEXT, ordinal INTEGER,
                     id TEXT, heading TEXT, date TEXT, kind TEXT, tags TEXT, tag_terms TEXT,
                     pinned INTEGER, text TEXT, span_start INTEGER, span_end INTEGER, ntok INTEGER);
CREATE INDEX entries_file ON entries(file_no);
CREATE INDEX entries_id ON entries(id);
CREATE VIRTUAL TABLE fts USING fts5(terms, tokenize='ascii');
CREATE VIRTUAL TABLE fts_vocab USING fts5vocab(fts, 'row');
"""

ENTRY_COLUMNS = ("rowid", "path", "ordinal", "id", "heading", "date", "kind", "tags", "tag_terms",
                 "pinned", "text", "span_start", "span_end")


def index_path(ws: Path) -> Path:
    """Return ``<ws>/memory/.cache/recall-index.sqlite``."""
    return Path(ws) / INDEX_RELPATH


def tag_terms(tags: Iterable[str]) -> list[list[str]]:
    """Return each tag's ranking terms (a tag with no terms is kept as ``[]``)."""
    return [textproc.query_terms(t) for t in tags]


class RecallIndex:
    """An open index for one workspace. Use :func:`open_index`."""

    def __init__(self, ws: Path, conn: sqlite3.Connection) -> None:
        self.ws = Path(ws)
        self.conn = conn

    # -- freshness -----------------------------------------------------------------
    def _scan(self) -> dict[str, tuple[str, int, int]]:
        found = {}
        for rel, kind, dirent in units.scan_sources(self.ws):
            try:
                st = dirent.stat()
            except OSError:
                continue
            found[rel] = (kind, st.st_mtime_ns, st.st_size)
        return found

    def _diff(self, found: dict[str, tuple[str, int, int]]) -> tuple[list, list, list]:
        """Return (to_parse [(rel, kind, mtime, size, data)], touch [(rel, mtime, size)], gone [file_no])."""
        known = {row[1]: row for row in self.conn.execute(
            "SELECT file_no, path, kind, mtime_ns, size, sha, indexed_ns FROM files")}
        to_parse, touch = [], []
        now_ns = time.time_ns()
        for rel, (kind, mtime, size) in found.items():
            row = known.get(rel)
            if row and row[2] == kind and row[3] == mtime and row[4] == size and mtime + RACY_NS < row[6]:
                continue
            try:
                data = (self.ws / rel).read_bytes()
            except OSError:
                continue
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
        to_parse, touch, gone = self._diff(found)
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
            for rel, kind, mtime, size, data in to_parse:
                self._index_file(rel, kind, mtime, size, data, now_ns)
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

    def _index_file(self, rel: str, kind: str, mtime: int, size: int, data: bytes, now_ns: int) -> None:
        from .fsio import decode_text
        from .errors import UnreadableFileError

        row = self.conn.execute("SELECT file_no FROM files WHERE path=?", (rel,)).fetchone()
        if row:
            self._drop_file(row[0])
        try:
            text = decode_text(data, rel).text
            entries = units.parse_text(rel, kind, text)
        except UnreadableFileError:
            entries = []  # not UTF-8: nothing to recall, but remember the file so it is not re-read
        cur = self.conn.execute(
            "INSERT INTO files(path, kind, mtime_ns, size, sha, indexed_ns) VALUES (?,?,?,?,?,?)",
            (rel, kind, mtime, size, hashlib.sha256(data).hexdigest(), now_ns))
        file_no = cur.lastrowid
        rows, fts_rows = [], []
        for pos, e in enumerate(entries[: (1 << POS_BITS) - 1]):
            rowid = (file_no << POS_BITS) | pos
            terms = textproc.tokens(e.heading + "\n" + e.text)
            rows.append((rowid, file_no, rel, e.ordinal, e.id, e.heading, e.date, e.kind,
                         json.dumps(e.tags, ensure_ascii=False),
                         json.dumps(tag_terms(e.tags), ensure_ascii=False),
                         int(e.pinned), e.text, e.span[0], e.span[1], len(terms)))
            fts_rows.append((rowid, " ".join(terms)))
        self.conn.executemany(
            "INSERT INTO entries(rowid, file_no, path, ordinal, id, heading, date, kind, tags, tag_terms,"
            " pinned, text, span_start, span_end, ntok) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        self.conn.executemany("INSERT INTO fts(rowid, terms) VALUES (?, ?)", fts_rows)

    # -- queries -------------------------------------------------------------------
    def bm25(self, terms: list[str]) -> dict[int, float]:
        """Return ``{rowid: BM25}`` (positive, larger is better) for every entry matching any term."""
        if not terms:
            return {}
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        return dict(self.conn.execute("SELECT rowid, -bm25(fts) FROM fts WHERE fts MATCH ?", (match,)))

    def bm25_rows(self, terms: list[str]) -> list[tuple[int, float, str, str | None, str]]:
        """Like :meth:`bm25` with what scoring needs: ``(rowid, BM25, id, date, tag_terms JSON)``."""
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        return self.conn.execute(
            "SELECT f.rowid, -bm25(fts), e.id, e.date, e.tag_terms FROM fts f JOIN entries e ON e.rowid = f.rowid"
            " WHERE fts MATCH ?", (match,)).fetchall()

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
        sql = f"SELECT {cols} FROM entries"
        args: list[Any] = []
        if kinds is not None:
            kinds = list(kinds)
            sql += f" WHERE kind IN ({','.join('?' * len(kinds))})"
            args = kinds
        return [dict(zip(ENTRY_COLUMNS, row)) for row in self.conn.execute(sql + " ORDER BY rowid", args)]

    def collection_stats(self, terms: list[str]) -> tuple[int, float, dict[str, int]]:
        """Return ``(N entries, average terms per entry, {term: document frequency})``."""
        n, avg = self.conn.execute("SELECT count(*), coalesce(avg(ntok), 0) FROM entries").fetchone()
        df = {}
        for t in terms:
            row = self.conn.execute("SELECT doc FROM fts_vocab WHERE term=?", (t,)).fetchone()
            df[t] = row[0] if row else 0
        return n, float(avg), df

    def counts_by_kind(self) -> dict[str, int]:
        """Return ``{kind: number of entries}``."""
        return dict(self.conn.execute("SELECT kind, count(*) FROM entries GROUP BY kind"))

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def _create(path: Path) -> sqlite3.Connection:
    conn = _connect(path)
    conn.executescript("BEGIN;" + _SCHEMA + "COMMIT;")
    conn.executemany("INSERT INTO meta VALUES (?, ?)",
                     [("schema", str(SCHEMA_VERSION)), ("tokenizer", str(textproc.TOKENIZER_VERSION))])
    return conn


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(path) + suffix)


def _valid(conn: sqlite3.Connection) -> bool:
    meta = dict(conn.execute("SELECT k, v FROM meta"))
    return meta.get("schema") == str(SCHEMA_VERSION) and meta.get("tokenizer") == str(textproc.TOKENIZER_VERSION)


def open_index(ws: Path, refresh: bool = True) -> RecallIndex:
    """Open (creating or rebuilding as needed) and refresh the workspace's index.

    A corrupt file, a foreign schema or tokenizer version, or any SQLite
    error while checking or refreshing it leads to one rebuild from scratch
    (the Markdown files are the source of truth). A second failure is raised
    (``sqlite3.Error``).
    """
    path = index_path(ws)
    path.parent.mkdir(parents=True, exist_ok=True)
    for attempt in (1, 2):
        conn = None
        try:
            if path.exists():
                conn = _connect(path)
                if not _valid(conn):
                    raise sqlite3.DatabaseError("index written by another version")
            else:
                conn = _create(path)
            idx = RecallIndex(ws, conn)
            if refresh:
                idx.refresh()
            return idx
        except sqlite3.Error:
            if conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            if attempt == 2:
                raise
            _remove(path)
    raise AssertionError("unreachable")
