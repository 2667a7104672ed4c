"""memory_manager.edits: the byte ranges of an insertion-only change (backup format v4)."""
from __future__ import annotations

import random

import pytest

from memory_manager import edits


@pytest.mark.parametrize("old, new, want", [
    (b"", b"", []),
    (b"abc", b"abc", []),
    (b"", b"new\n", [[0, 4]]),
    (b"a\nb\n", b"a\nb\nc\n", [[4, 6]]),                      # an append
    (b"a\nb\n", b"x\na\nb\n", [[0, 2]]),                      # at the start
    (b"a\nc\n", b"a\nb\nc\n", [[2, 4]]),                      # in the middle
    (b"head\nbody\ntail\n", b"head\nNEW\nbody\ntail\nEND\n", [[5, 9], [19, 23]]),   # two, by lines
    (b"one two\nmid\nthree\n", b"one 1 two\nmid\nthree 3\n", [[4, 6], [19, 21]]),  # two, inside lines
    (b"abc", b"ab", None),                                    # shorter: a deletion
    (b"a\nb\n", b"a\nX\n", None),                             # a replacement
    (b"a\nb\nc\n", b"a\nX\nc\nd\n", None),                    # a replacement and an insertion
    (b"ab\nab\n", b"aXb\nab\nY", [[1, 2], [7, 8]]),        # inside a line and at the end
])
def test_insertions(old, new, want):
    assert edits.insertions(old, new) == want
    if want is not None:
        assert edits.delete(new, want) == old
        assert edits.reinsert(old, want, edits.cut(new, want)) == new


def test_insertions_random_changes_are_exact_or_refused():
    rnd = random.Random(7)
    found = 0
    for _ in range(2000):
        old = bytes(rnd.choice(b"ab\n") for _ in range(rnd.randint(0, 30)))
        new = bytearray(old)
        for _ in range(rnd.randint(1, 3)):
            at = rnd.randint(0, len(new))
            new[at:at] = bytes(rnd.choice(b"abc\n") for _ in range(rnd.randint(1, 4)))
        ranges = edits.insertions(old, bytes(new))
        if ranges is not None:
            found += 1
            assert edits.valid(ranges, len(new)) and edits.delete(bytes(new), ranges) == old
        other = bytes(rnd.choice(b"ab\n") for _ in range(rnd.randint(0, 30)))
        ranges = edits.insertions(old, other)
        if ranges is not None:
            assert edits.delete(other, ranges) == old
    assert found == 2000  # every insertion-only change is recognised (small files: byte by byte if need be)


def test_one_insertion_in_a_large_file_and_scattered_ones_past_the_diff_limit():
    big = b"- a line of a daily note\n" * 200_000  # 5 MB
    assert edits.insertions(big, big + b"## new\n") == [[len(big), len(big) + 7]]
    assert edits.insertions(big, big[:100] + b"x" + big[100:]) == [[100, 101]]
    # Two insertions 5 MB apart: the lines between exceed DIFF_LIMIT, so no ranges (a copy is kept).
    assert edits.insertions(big, b"x\n" + big + b"y\n") is None


@pytest.mark.parametrize("ranges, size, ok", [
    ([], 0, True), ([[0, 1]], 1, True), ([[0, 1], [2, 3]], 3, True),
    ([[0, 2], [1, 3]], 3, False), ([[1, 1]], 2, False), ([[0, 4]], 3, False), ([[2, 3], [0, 1]], 3, False),
    ([[0, True]], 3, False), ([[0, 1.0]], 3, False), ("0-1", 3, False), ([[0]], 3, False),
])
def test_valid(ranges, size, ok):
    assert edits.valid(ranges, size) is ok


def test_reinsert_refuses_pieces_that_do_not_fit():
    with pytest.raises(ValueError):
        edits.reinsert(b"ab", [[1, 3]], b"x")
    with pytest.raises(ValueError):
        edits.reinsert(b"ab", [[5, 6]], b"x")


@pytest.mark.parametrize("old, new, want", [
    (b"abc", b"abc", []),
    (b"a\nb\n", b"a\nX\n", [[2, 3, 1]]),                                  # one byte replaced
    (b"updated: 28\nbody\n", b"updated: 29\nbody\n\nmore\n", [[10, 11, 1], [17, 23, 0]]),  # date + paragraph
    (b"a\nb\nc\n", b"a\nc\n", [[2, 2, 2]]),                               # a deletion is a hunk too
    (b"", b"new", [[0, 3, 0]]),
])
def test_replacements(old, new, want):
    hunks = edits.replacements(old, new)
    assert hunks == want
    assert edits.valid_hunks(hunks, len(new))
    assert edits.unsplice(new, hunks, edits.cut_old(old, new, hunks)) == old


def test_replacements_random_changes_undo_exactly():
    rnd = random.Random(5)
    for _ in range(2000):
        old = bytes(rnd.choice(b"ab\n") for _ in range(rnd.randint(0, 40)))
        new = bytes(rnd.choice(b"ab\n") for _ in range(rnd.randint(0, 40)))
        hunks = edits.replacements(old, new)
        assert hunks is not None and edits.valid_hunks(hunks, len(new))
        assert edits.unsplice(new, hunks, edits.cut_old(old, new, hunks)) == old


@pytest.mark.parametrize("hunks, size, ok", [
    ([], 0, True), ([[0, 0, 2]], 0, True), ([[0, 1, 0], [1, 2, 3]], 2, True),
    ([[0, 0, 0]], 1, False), ([[1, 0, 1]], 2, False), ([[0, 3, 1]], 2, False), ([[0, 1, -1]], 2, False),
    ([[1, 2, 1], [0, 1, 1]], 2, False), ([[0, 1]], 2, False), ([[0, 1, 1.0]], 2, False),
])
def test_valid_hunks(hunks, size, ok):
    assert edits.valid_hunks(hunks, size) is ok


def test_unsplice_refuses_pieces_that_do_not_fit():
    with pytest.raises(ValueError):
        edits.unsplice(b"ab", [[0, 1, 2]], b"x")
