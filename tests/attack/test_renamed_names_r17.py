"""forget of a file renamed by hand whose old name another file holds now (tfix17t, tatk17 kind 2).

``backups.former_paths`` erases every copy of an earlier name only while that name is free. Under
a name taken again (a new entry learned there, two files swapped), the backup entries are told
apart one by one (``backups.former_states``): those that recorded the forgotten file go, the
other file's stay.
"""
from __future__ import annotations

from .trust_r4_common import NOW, _init


def _holding(ws, word: bytes, under: str = "") -> list[str]:
    root = ws / under if under else ws
    return sorted(str(p.relative_to(ws)) for p in root.rglob("*") if p.is_file() and word in p.read_bytes())


def _start(ws, run_script):
    _init(run_script)
    assert run_script("memory", "learn", "alicehiv", "--text", "zebramarker one", env=NOW).code == 0
    assert run_script("memory", "learn", "bob", "--text", "plain bob", env=NOW).code == 0
    e = run_script("memory", "edit", "alicehiv", "--text", "tigerline two", "--approved", env=NOW)
    assert e.code == 0, e.err
    return ws / "memory/knowledge"


def test_the_new_entry_under_the_old_name_keeps_its_copies(ws, run_script):
    kb = _start(ws, run_script)
    (kb / "alicehiv.md").rename(kb / "neutral.md")
    assert run_script("memory", "learn", "alicehiv", "--text", "owlfeather first", env=NOW).code == 0
    e = run_script("memory", "edit", "alicehiv", "--text", "owlfeather second", "--approved", env=NOW)
    assert e.code == 0, e.err
    before = _holding(ws, b"owlfeather first", ".memory-backup")
    assert len(before) == 1, before  # the new entry's pre-edit copy
    f = run_script("memory", "forget", "memory/knowledge/neutral.md", "--approved", env=NOW)
    assert f.code == 0, f.err
    assert _holding(ws, b"zebramarker") == [] and _holding(ws, b"tigerline") == []
    assert _holding(ws, b"owlfeather first", ".memory-backup") == before  # the other entry's copy stays
    assert (kb / "alicehiv.md").read_text(encoding="utf-8").count("owlfeather second") == 1


def test_a_swapped_file_keeps_its_copies_under_its_new_name(ws, run_script):
    kb = _start(ws, run_script)
    (kb / "alicehiv.md").rename(kb / "swap.tmp")
    (kb / "bob.md").rename(kb / "alicehiv.md")
    (kb / "swap.tmp").rename(kb / "bob.md")
    # bob's entry, now in alicehiv.md, is edited there: its copy of "plain bob" is under alicehiv.md.
    e = run_script("memory", "edit", "memory/knowledge/alicehiv.md", "--text", "plain bob again", "--approved",
                   env=NOW)
    assert e.code == 0, e.err
    kept = _holding(ws, b"plain bob\n", ".memory-backup")
    assert len(kept) == 1 and kept[0].endswith("/files/memory/knowledge/alicehiv.md"), kept
    f = run_script("memory", "forget", "memory/knowledge/bob.md", "--approved", env=NOW)
    assert f.code == 0, f.err
    assert _holding(ws, b"zebramarker") == [] and _holding(ws, b"tigerline") == []
    assert _holding(ws, b"plain bob\n", ".memory-backup") == kept
