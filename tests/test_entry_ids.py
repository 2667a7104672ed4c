"""One reader, one set of ids: every id recall returns opens with show, and forget removes
exactly that entry's characters (or, for OpenClaw's own files, nothing at all).

The workspaces are generated from a seed (hand-written daily notes in the seed's form, English
labels, ``* `` bullets, ``# date`` titles, fenced ``#`` lines, ``<!-- PINNED -->``, knowledge
files with a ``# title`` or a frontmatter without id, OpenClaw's notes, MEMORY.md).
"""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from memory_manager import entries, store
from memory_manager.config import load_config
from memory_manager.errors import BadInputError
from memory_manager.recall import recall

WORD = "zebra"


def _daily_section(rng: random.Random, day: str, n: int, dated_heading: bool) -> str:
    bullet = rng.choice(["- ", "* "])
    labels = rng.choice([("因：", "改：", "待："), ("Cause: ", "Change: ", "Todo: "), ("cause:", "CHANGE:", "todo：")])
    head = f"## [{day}] topic {n}" if dated_heading else f"## topic {n}"
    lines = [head]
    if rng.random() < 0.3:
        lines.append("<!-- PINNED -->")
    lines += [f"{bullet}{labels[0]}{WORD} reason {n}", f"{bullet}{labels[1]}did {n}"]
    if rng.random() < 0.5:
        lines += ["```sh", "# a shell comment, not a heading", f"echo {n}", "```"]
    if rng.random() < 0.5:
        lines.append(f"{bullet}{labels[2]}next {n}")
    return "\n".join(lines)


def build(ws: Path, seed: int) -> None:
    rng = random.Random(seed)
    daily = ws / "memory" / "daily"
    knowledge = ws / "memory" / "knowledge"
    for folder in (daily, knowledge, ws / "memory" / "tier2-internal"):
        folder.mkdir(parents=True, exist_ok=True)
    for d in range(rng.randint(1, 3)):
        day = f"2026-03-0{d + 1}"
        parts = [f"# {day}"] if rng.random() < 0.6 else []
        dated = rng.random() < 0.5
        parts += [_daily_section(rng, day, n, dated or not parts) for n in range(rng.randint(1, 4))]
        if rng.random() < 0.3:  # the same topic twice, as hand-written notes sometimes have it
            parts.append(_daily_section(rng, day, 0, True))
        (daily / f"{day}.md").write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    (knowledge / "titled.md").write_text(f"# Deploy steps\n\nUse rsync for {WORD} builds.\n", encoding="utf-8")
    (knowledge / "no-id.md").write_text(f"---\nkey: no-id\ntags: [ops]\n---\n{WORD} servers restart at night.\n",
                                        encoding="utf-8")
    (knowledge / "broken.md").write_text(f"---\nkey: [unclosed\n---\n{WORD} secret-ish raw\n", encoding="utf-8")
    flush = f"## Flush 10:00\n- {WORD} checked the queue\n"
    (ws / "memory" / "2026-03-05.md").write_text("# 2026-03-05\n\n" + flush + "\n" + flush * rng.randint(0, 1),
                                                   encoding="utf-8")
    (ws / "MEMORY.md").write_text(f"# Lessons\n\n## Tools\n- {WORD} prefers short answers\n", encoding="utf-8")


def _span_of(ws: Path, hit) -> tuple[int, int]:
    kind = hit.kind
    text = (ws / hit.path).read_text(encoding="utf-8")
    (entry,) = [e for e in entries.parse_entries(hit.path, kind, text)[0] if e.id == hit.id][:1]
    return entry.span


@pytest.mark.parametrize("seed", range(8))
def test_every_recalled_id_opens_with_show_and_forget_removes_exactly_it(tmp_path, seed, monkeypatch):
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-03-06T09:00:00+00:00")
    cfg = load_config()
    ws = tmp_path / f"ws{seed}"
    build(ws, seed)
    malformed: list[dict[str, str]] = []
    hits = recall(ws, WORD, cfg, top_k=1000, track=False, malformed=malformed)
    assert malformed == [{"file": "memory/knowledge/broken.md", "error": "frontmatter is not valid YAML (line 2)"}]
    assert all("secret-ish" not in h.snippet for h in hits)
    kinds = {h.kind for h in hits}
    assert {"daily", "knowledge", "openclaw", "memory_md"} <= kinds
    assert len({h.id for h in hits}) == len(hits)  # ids are unique
    for hit in hits:
        shown = store.show(ws, cfg, hit.id, approved=True)
        assert shown["path"] == hit.path
        assert WORD in shown["text"]
    for hit in hits:
        copy = tmp_path / f"copy{seed}"
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(ws, copy)
        path = copy / hit.path
        before = path.read_text(encoding="utf-8")
        if hit.kind in ("openclaw", "memory_md"):
            with pytest.raises(BadInputError):
                store.forget(copy, cfg, hit.id, approved=True)
            assert path.read_text(encoding="utf-8") == before
            continue
        start, end = _span_of(copy, hit)
        store.forget(copy, cfg, hit.id, approved=True)
        if hit.kind == "knowledge":
            assert not path.exists()
            continue
        rest = before[:start] + before[end:]
        assert (path.read_text(encoding="utf-8") if path.exists() else "") == (rest if rest.strip() else "")


def test_hand_written_section_round_trips_through_the_scripts(ws, run_script):
    daily = ws / "memory" / "daily"
    daily.mkdir(parents=True)
    (ws / "memory" / "knowledge").mkdir()
    note = ("# 2026-03-03\n\n## [2026-03-03] 发布流程\n- 因：zebra 部署总出错\n- 改：写了脚本\n"
            "```sh\n# 清理缓存\nrm -rf build\n```\n- 待：加测试\n\n## Other\n* Cause: kept\n")
    (daily / "2026-03-03.md").write_text(note, encoding="utf-8")
    found = run_script("memory", "recall", "zebra", "--json", "--no-track")
    (hit,) = json.loads(found.out)["hits"]
    assert hit["id"] == entries.daily_id("2026-03-03", "发布流程")
    shown = run_script("memory", "show", hit["id"], "--json")
    assert shown.code == 0, shown.err
    assert json.loads(shown.out)["text"].endswith("# 清理缓存\nrm -rf build\n```\n- 待：加测试")
    gone = run_script("memory", "forget", hit["id"], "--approved", "--json")
    assert gone.code == 0, gone.err
    assert (daily / "2026-03-03.md").read_text(encoding="utf-8") == "# 2026-03-03\n\n## Other\n* Cause: kept\n"


def test_pinned_in_capitals_counts_for_show_and_export(ws, run_script):
    daily = ws / "memory" / "daily"
    daily.mkdir(parents=True)
    (daily / "2026-03-03.md").write_text("## [2026-03-03] keep\n<!-- PINNED -->\n- 因：x\n", encoding="utf-8")
    ident = entries.daily_id("2026-03-03", "keep")
    assert json.loads(run_script("memory", "show", ident, "--json").out)["pinned"] is True
    # outside the workspace: export --out refuses a file inside it (issue 11)
    out = run_script("memory", "export", "--approved", "--out", str(ws.parent / "e.json"), "--json")
    assert out.code == 0, out.err
    assert json.loads((ws.parent / "e.json").read_text(encoding="utf-8"))["daily"][0]["pinned"] is True


def test_export_then_import_keeps_fenced_lines_and_free_text(ws, run_script, tmp_path):
    daily = ws / "memory" / "daily"
    daily.mkdir(parents=True)
    note = ("## [2026-03-03] build\n- 因：slow\n```sh\n# not a heading\nmake -j4\n```\nfree text line\n"
            "- 待：cache\n")
    (daily / "2026-03-03.md").write_text(note, encoding="utf-8")
    out = tmp_path / "export.json"
    assert run_script("memory", "export", "--approved", "--out", str(out)).code == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["version"] == 3
    assert doc["daily"][0]["other"] == ["```sh", "# not a heading", "make -j4", "```", "free text line"]
    (daily / "2026-03-03.md").unlink()
    back = run_script("memory", "import", str(out), "--approved", "--json")
    assert back.code == 0, back.err
    text = (daily / "2026-03-03.md").read_text(encoding="utf-8")
    assert text.endswith("- 因：slow\n- 待：cache\n```sh\n# not a heading\nmake -j4\n```\nfree text line\n")
    assert run_script("memory", "import", str(out), "--approved").code == 0  # a second import repeats nothing
    assert (daily / "2026-03-03.md").read_text(encoding="utf-8") == text
