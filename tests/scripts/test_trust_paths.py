"""Issue 10, paths that come from data: names read from files, symlinks planted in memory/, and
colliding names never make a command read or write outside the workspace or over another entry.

Attack kinds: source_skill/topic/id climbing out (3 fields), symlinked folders of the tree
(archive month, .state, .cache, .quarantine, tier2), symlinked notes read by export and
import --from-openclaw, colliding T2 names (skill/topic underscore, month-shaped topic)."""
from __future__ import annotations

import json
import shutil
from datetime import date

import pytest

from conftest import tree_hash
from memory_manager import crypto, tiers
from memory_manager.config import load_config

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}


def init(ws, run_script):
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=ENV)
    assert r.code == 0, r.err


def old_t2(ws, name, skill="news", topic="x", field=None, value=None):
    """An expired xor-b64 entry (cleanup archives it); one frontmatter field replaced when asked."""
    cfg = load_config(ws)
    sealed = crypto.encrypt("Reads tech headlines first.", skill, "2026-09", cfg, "xor-b64")
    text = tiers.render_t2(skill, topic, sealed, date(2026, 9, 3), 30, "2026-09", "en")
    if field:
        lines = [f"{field}: {value}" if line.startswith(f"{field}:") else line for line in text.split("\n")]
        text = "\n".join(lines)
    path = ws / "memory/tier2-internal" / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("field", ["source_skill", "topic", "id"])
def test_names_read_from_a_file_cannot_climb_out(ws, run_script, tmp_path, field):
    init(ws, run_script)
    path = old_t2(ws, "news_x.md", field=field, value='"../../../outside"')
    old_t2(ws, "news_y.md", topic="y")  # a second entry of the skill: compaction has something to do
    before = tree_hash(tmp_path)
    r = run_script("cleanup", "--json", "-w", ws, env=ENV)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert path.exists() and any("not a safe name" in p for p in doc["problems"])
    after = tree_hash(tmp_path)
    assert {k for k in after if not k.startswith("ws/")} == {k for k in before if not k.startswith("ws/")}


@pytest.mark.parametrize("folder", ["archive/2026-09", ".state", ".cache", ".quarantine", "tier2-internal"])
def test_a_symlinked_folder_leading_out_stops_every_writer(ws, run_script, tmp_path, folder):
    init(ws, run_script)
    outside = tmp_path / "outside"
    outside.mkdir()
    link = ws / "memory" / folder
    if link.is_dir():
        shutil.rmtree(link)  # .state holds the key record init wrote (round 11)
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside)
    if folder != "tier2-internal":
        old_t2(ws, "news_x.md")
    (ws / "memory/daily/2026-11-28.md").write_text("## [2026-11-28] news\n- 改：headlines first\n")
    for args in (["cleanup"], ["memory", "write", "--topic", "t", "--change", "x"],
                 ["memory", "learn", "k", "--text", "x"], ["memory", "recall", "headlines"]):
        r = run_script(*args, "-w", ws, env=ENV)
        # Readers too (recall would cache the index or record access there): every command
        # refuses at open while a folder of the tree leads out (tests/attack/test_attack_trust_paths.py).
        assert r.code == 2 and "leading outside the workspace" in r.err and len(r.err.strip().splitlines()) == 1, \
            (args, r.err)
    assert list(outside.iterdir()) == []


def test_symlinked_notes_are_not_read_by_export_or_import(ws, run_script, tmp_path):
    init(ws, run_script)
    secret = tmp_path / "private-notes.md"
    secret.write_text("## [2026-11-01] diary\n- 改：the neighbour's wifi name is Orion-Home\n")
    (ws / "memory/daily/2026-11-01.md").symlink_to(secret)
    (ws / "memory/2026-11-02-diary.md").symlink_to(secret)
    (ws / "memory/knowledge/diary.md").symlink_to(secret)
    out = tmp_path / "export.json"
    r = run_script("memory", "export", "--approved", "--out", out, "-w", ws, env=ENV)
    assert r.code == 0, r.err
    assert "Orion" not in out.read_text()
    r = run_script("memory", "import", "--from-openclaw", "--approved", "--json", "-w", ws, env=ENV)
    assert r.code == 0, r.err
    assert json.loads(r.out)["counts"]["daily"] == 0
    assert all("Orion" not in p.read_text() for p in (ws / "memory").rglob("*.md") if not p.is_symlink())


def test_t2_names_never_collide(ws, run_script):
    init(ws, run_script)
    made = {}
    for skill, topic, text in (("a_b", "c", "first entry"), ("a", "b_c", "second entry")):
        r = run_script("memory", "remember", "--skill", skill, "--topic", topic, "--text", text, "--json",
                       "-w", ws, env=ENV)
        assert r.code == 0, r.err
        made[text] = json.loads(r.out)
    assert made["first entry"]["path"] == "memory/tier2-internal/a%5Fb_c.md"
    assert made["second entry"]["path"] == "memory/tier2-internal/a_b_c.md"  # the v1 name, unambiguous here
    for text, doc in made.items():
        shown = run_script("memory", "show", doc["id"], "--approved", "--json", "-w", ws, env=ENV)
        assert json.loads(shown.out)["text"] == text
    assert tiers.t2_name("a", "2026-05") == "a_2026%2D05.md" != tiers.multi_name("a", "2026-05")


def test_a_v1_file_with_an_ambiguous_name_is_still_read_and_edited_in_place(ws, run_script):
    init(ws, run_script)
    cfg = load_config(ws)
    sealed = crypto.encrypt("old text", "a_b", "2026-11", cfg, "xor-b64")
    legacy = ws / "memory/tier2-internal/a_b_c.md"  # written by v1 for skill a_b, topic c
    legacy.write_text(tiers.render_t2("a_b", "c", sealed, date(2026, 11, 20), 30, "2026-11", "en"))
    ident = tiers.t2_id("a_b", "c")
    assert json.loads(run_script("memory", "show", ident, "--approved", "--json", "-w", ws, env=ENV).out)["text"] \
        == "old text"
    r = run_script("memory", "remember", "--skill", "a_b", "--topic", "c", "--text", "new text", "--approved",
                   "--json", "-w", ws, env=ENV)
    assert r.code == 0 and json.loads(r.out)["path"] == "memory/tier2-internal/a_b_c.md", r.out
    assert sorted(p.name for p in (ws / "memory/tier2-internal").iterdir()) == ["a_b_c.md"]
