"""The derived index: built, refreshed on add/edit/rename/delete, rebuilt when corrupt."""
import os
import sqlite3
from pathlib import Path

from memory_manager.index import index_path, open_index


def _write(ws: Path, rel: str, text: str) -> Path:
    path = ws / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _headings(ws: Path, term: str) -> list[str]:
    idx = open_index(ws)
    try:
        rows = idx.entries(idx.bm25([term]))
        return sorted(r["heading"] for r in rows.values())
    finally:
        idx.close()


def test_build_and_search(ws):
    _write(ws, "memory/daily/2026-03-03.md", "## [2026-03-03] 飞书\n飞书日报\n## [2026-03-03] other\nnothing\n")
    assert _headings(ws, "日报") == ["[2026-03-03] 飞书"]
    assert index_path(ws).is_file()


def test_hand_edit_is_seen_even_with_same_size_and_mtime(ws):
    path = _write(ws, "memory/daily/2026-03-03.md", "## a\nalpha\n")
    assert _headings(ws, "alpha") == ["a"]
    st = path.stat()
    path.write_text("## a\nbravo\n", encoding="utf-8")           # same size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))          # same mtime
    assert _headings(ws, "bravo") == ["a"] and _headings(ws, "alpha") == []


def test_rename_and_delete_are_seen(ws):
    path = _write(ws, "memory/daily/2026-03-03.md", "## a\nalpha\n")
    assert _headings(ws, "alpha") == ["a"]
    path.rename(ws / "memory/daily/2026-03-04.md")
    idx = open_index(ws)
    rows = list(idx.entries(idx.bm25(["alpha"])).values())
    idx.close()
    assert [r["path"] for r in rows] == ["memory/daily/2026-03-04.md"]
    (ws / "memory/daily/2026-03-04.md").unlink()
    assert _headings(ws, "alpha") == []


def test_corrupt_index_is_rebuilt(ws):
    _write(ws, "memory/daily/2026-03-03.md", "## a\nalpha\n")
    assert _headings(ws, "alpha") == ["a"]
    index_path(ws).write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(str(index_path(ws)) + suffix).unlink(missing_ok=True)
    assert _headings(ws, "alpha") == ["a"]
    sqlite3.connect(index_path(ws)).execute("SELECT count(*) FROM entries").fetchone()


def test_missing_index_is_rebuilt_and_unchanged_files_not_reparsed(ws):
    _write(ws, "memory/daily/2026-03-03.md", "## a\nalpha\n")
    idx = open_index(ws)
    idx.conn.execute("UPDATE files SET indexed_ns = indexed_ns + 10000000000")  # past the racy window
    assert idx.refresh() == {"parsed": 0, "removed": 0}
    idx.close()
    index_path(ws).unlink()
    assert _headings(ws, "alpha") == ["a"]


def test_foreign_schema_version_is_rebuilt(ws):
    _write(ws, "memory/daily/2026-03-03.md", "## a\nalpha\n")
    idx = open_index(ws)
    idx.conn.execute("UPDATE meta SET v='999' WHERE k='schema'")
    idx.close()
    assert _headings(ws, "alpha") == ["a"]


def test_concurrent_first_builds_agree(ws):
    import threading

    for n in range(30):
        _write(ws, f"memory/daily/2026-01-{n + 1:02d}.md", f"## e{n}\nalpha {n}\n")
    errors = []

    def worker():
        try:
            idx = open_index(ws)
            idx.close()
        except Exception as exc:  # pragma: no cover - the failure we test against
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(_headings(ws, "alpha")) == 30


def test_bom_crlf_and_non_utf8_files(ws):
    (ws / "memory/daily").mkdir(parents=True)
    (ws / "memory/daily/2026-01-01.md").write_bytes(b"\xef\xbb\xbf## a\r\nalpha crlf\r\n")
    (ws / "memory/daily/2026-01-02.md").write_bytes(b"## b\nalpha \xff\xfe latin-1\n")
    idx = open_index(ws)
    rows = list(idx.entries(idx.bm25(["alpha"])).values())
    idx.close()
    assert [(r["path"], r["heading"], r["text"]) for r in rows] == [("memory/daily/2026-01-01.md", "a", "alpha crlf")]


def test_parallel_parse_builds_the_same_index(ws, monkeypatch):
    """Worker processes (a cold build of many files) give exactly the rows one process gives."""
    from memory_manager import index as index_mod

    daily = ws / "memory/daily"
    daily.mkdir(parents=True)
    for n in range(30):
        (daily / f"2026-01-{n + 1:02d}.md").write_text(
            f"## [2026-01-{n + 1:02d}] Topic {n}\n- Change: deploy {n} 飞书日报 number{n}\n\n"
            f"## [2026-01-{n + 1:02d}] Other {n}\n- 改：第{n}次 backup\n", encoding="utf-8")

    def dump():
        idx = index_mod.open_index(ws)
        try:
            return (idx.conn.execute("SELECT rowid, path, ordinal, id, heading, date, text, ntok FROM entries"
                                     " ORDER BY rowid").fetchall(),
                    idx.conn.execute("SELECT rowid, terms FROM fts ORDER BY rowid").fetchall(),
                    # a build from nothing makes the indexes of entries at its end: all three are there
                    idx.conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                                     " ORDER BY name").fetchall())
        finally:
            idx.close()
            index_mod.index_path(ws).unlink()

    monkeypatch.setattr(index_mod, "PARALLEL_MIN_FILES", 10**9)
    serial = dump()
    monkeypatch.setattr(index_mod, "PARALLEL_MIN_FILES", 1)
    assert dump() == serial and len(serial[0]) == 60 and len(serial[2]) == 3


def test_a_label_replaced_by_a_space_leaves_the_same_terms():
    """The index drops note labels with a plain replacement (issue 13); the terms are those of ``\\1``."""
    import random

    from memory_manager import index as index_mod
    from memory_manager.textproc import tokens

    rng = random.Random(5)
    parts = ["- 因：", "- Cause:", "* todo ：", "  - 改:", "\n", "\n\n", " ", "\u3000", "\t", "'s", "a", "飞书",
             "\u0301", "Change", "：", "x'", "待", "-", "*"]
    for _ in range(3000):
        body = "".join(rng.choice(parts) for _ in range(rng.randint(1, 25)))
        assert (tokens("head\n" + index_mod._LABEL.sub(" ", body))
                == tokens("head\n" + index_mod._LABEL.sub(r"\1", body))), body


def test_a_build_from_nothing_numbers_files_as_sqlite_would(ws):
    """A build into an empty ``files`` table numbers the files itself and inserts them in batches
    (issue 13); the rows are those of the file-by-file path a later refresh takes (zero-entry and
    non-UTF-8 files included), and a refresh after it adds, replaces and drops files as before."""
    from memory_manager import index as index_mod

    for n in range(5):
        _write(ws, f"memory/daily/2026-01-0{n + 1}.md", f"## [2026-01-0{n + 1}] Topic {n}\n- Change: deploy {n}\n")
    _write(ws, "memory/daily/2026-01-09.md", "")
    (ws / "memory/daily/2026-01-08.md").write_bytes(b"\xff\xfe bad")

    def rows(idx):
        return (idx.conn.execute("SELECT file_no, path, kind, size, sha, error FROM files ORDER BY file_no").fetchall(),
                idx.conn.execute("SELECT rowid, file_no, path, id FROM entries ORDER BY rowid").fetchall())

    idx = open_index(ws)
    try:
        built = rows(idx)
        # the same files through the file-by-file path: a refresh that finds the table non-empty
        idx.conn.execute("DELETE FROM fts")
        idx.conn.execute("DELETE FROM entries")
        idx.conn.execute("DELETE FROM files")
        idx.conn.execute("INSERT INTO files(file_no, path) VALUES (1, 'placeholder')")
        idx.refresh()
        idx.conn.execute("DELETE FROM files WHERE path = 'placeholder'")
        by_file = rows(idx)
    finally:
        idx.close()
    assert [r[1:] for r in built[0]] == [r[1:] for r in by_file[0]]
    assert [r[0] for r in built[0]] == list(range(1, 8))  # 1, 2, 3... as SQLite numbers an empty table
    assert len(built[1]) == 5 and [r[2:] for r in built[1]] == [r[2:] for r in by_file[1]]
    assert built[0][-1][1] == "memory/daily/2026-01-09.md" and "UTF-8" in (built[0][-2][5] or "")
    # a refresh after the fresh build: edit, add, delete
    _write(ws, "memory/daily/2026-01-01.md", "## [2026-01-01] Changed\n- Change: deploy again\n")
    _write(ws, "memory/daily/2026-01-06.md", "## [2026-01-06] Added\n- Change: kafka\n")
    (ws / "memory/daily/2026-01-02.md").unlink()
    assert _headings(ws, "deploy") == ["[2026-01-01] Changed", "[2026-01-03] Topic 2", "[2026-01-04] Topic 3",
                                       "[2026-01-05] Topic 4"]
    assert _headings(ws, "kafka") == ["[2026-01-06] Added"]
    assert index_mod.PARALLEL_MIN_FILES > 7  # this build ran in one process (the worker path is tested above)
