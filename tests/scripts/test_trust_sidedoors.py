"""Issue 10, side doors past the gate: every option and import field that reaches disk (names,
keys, tags, topics, frontmatter values, file names) passes the gate. Each case puts a secret
(a published token format: certain, refused always) through one door and checks that the
command fails (exit 1) and that the secret is nowhere on disk."""
from __future__ import annotations

import base64
import json
from datetime import date

import pytest

from memory_manager import crypto, tiers
from memory_manager.config import load_config

ENV = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00"}
TOKEN = "ghp_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"


def init(ws, run_script):
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", env=ENV)
    assert r.code == 0, r.err


def on_disk(ws, needle: str) -> list[str]:
    """Every file name or file under the workspace holding ``needle`` (also Base64 of it)."""
    hits = []
    b64 = base64.b64encode(needle.encode()).decode()[:24]
    for path in ws.rglob("*"):
        if needle in path.name:
            hits.append(path.name)
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if needle.encode() in data or b64.encode() in data:
                hits.append(str(path.relative_to(ws)))
    return hits


DOORS = {
    "remember --topic": ["memory", "remember", "--skill", "ops", "--topic", TOKEN, "--text", "deploy notes"],
    "remember --skill": ["memory", "remember", "--skill", TOKEN, "--topic", "notes", "--text", "deploy notes"],
    "stats pattern --skill": ["memory", "stats", "pattern", "--trigger", "morning", "--skills", "news",
                              "--skill", TOKEN],
    "stats pattern --trigger": ["memory", "stats", "pattern", "--trigger", f"token {TOKEN}", "--skills", "news"],
    "stats pattern --skills": ["memory", "stats", "pattern", "--trigger", "morning", "--skills", f"news,{TOKEN}"],
    "stats record --skill": ["memory", "stats", "record", "--skill", TOKEN, "--ok"],
    "event --skill": ["memory", "event", "skill_complete", "--skill", TOKEN, "--text", "done"],
    "learn KEY": ["memory", "learn", TOKEN, "--text", "deploy notes"],
    "learn --tags": ["memory", "learn", "deploy", "--text", "deploy notes", "--tags", f"ops,{TOKEN}"],
    "write --topic": ["memory", "write", "--topic", TOKEN, "--change", "deploy notes"],
}


@pytest.mark.parametrize("door", sorted(DOORS))
def test_every_option_that_names_a_file_passes_the_gate(ws, run_script, door):
    init(ws, run_script)
    r = run_script(*DOORS[door], "--approved", "-w", ws, env=ENV)  # approval never lets a secret through
    assert r.code == 1 and "refuse" in r.err, (door, r.out, r.err)
    assert on_disk(ws, TOKEN) == [], door
    assert TOKEN not in r.out + r.err


def export_doc(**parts):
    doc = {"format": "cmm-export", "version": 2, "daily": [], "knowledge": [], "tier1": [], "tier2": []}
    doc.update(parts)
    return doc


def t2_file(ws, skill, topic, text, scheme="xor-b64", **extra):
    cfg = load_config(ws)
    sealed = crypto.encrypt(text, skill, "2026-11", cfg, scheme)
    body = tiers.render_t2(skill, topic, sealed, date(2026, 11, 25), 30, "2026-11", "en")
    for key, value in extra.items():
        body = body.replace("format: cmm-t2\n", f"format: cmm-t2\n{key}: {value}\n")
    return body


IMPORTS = {
    "knowledge tags": lambda ws: export_doc(knowledge=[{"key": "deploy", "body": "deploy notes",
                                                         "tags": ["ops", TOKEN]}]),
    "T1 file name": lambda ws: export_doc(tier1=[{"file": f"{TOKEN}_stats.json",
                                                  "data": {"skill_stats": {}, "patterns_observed": []}}]),
    "T1 data": lambda ws: export_doc(tier1=[{"file": "news_stats.json",
                                             "data": {"skill_stats": {}, "patterns_observed": [
                                                 {"trigger": TOKEN, "skills_used": ["news"], "count": 1}]}}]),
    "T2 xor-b64 text": lambda ws: export_doc(tier2=[{"file": "ops_notes.md",
                                                      "text": t2_file(ws, "ops", "notes", f"token {TOKEN}")}]),
    "T2 topic": lambda ws: export_doc(tier2=[{"file": f"ops_{TOKEN}.md",
                                              "text": t2_file(ws, "ops", TOKEN, "deploy notes")}]),
    "T2 frontmatter value": lambda ws: export_doc(tier2=[{"file": "ops_notes.md", "text": t2_file(
        ws, "ops", "notes", "deploy notes", comment=TOKEN)}]),
    "T2 plain text": lambda ws: export_doc(tier2=[{"file": "ops_notes.md", "text": (
        "---\ntier: internal\nsource_skill: ops\n---\n" + f"token {TOKEN}\n")}]),
    "T2 base64 only": lambda ws: export_doc(tier2=[{"file": "ops_notes.md", "text": t2_file(
        ws, "ops", "notes", "x").replace(
            t2_file(ws, "ops", "notes", "x").split("> ", 1)[1].split("\n", 1)[0],
            base64.b64encode(f"token {TOKEN}".encode()).decode())}]),
    "T2 file name other than the store's": lambda ws: export_doc(tier2=[{"file": "ops_other.md",
                                                                          "text": t2_file(ws, "ops", "notes", "x")}]),
    "daily topic": lambda ws: export_doc(daily=[{"date": "2026-11-28", "topic": TOKEN, "cause": [],
                                                 "change": ["deploy notes"], "todo": []}]),
}


@pytest.mark.parametrize("kind", sorted(IMPORTS))
def test_every_import_field_passes_the_gate(ws, run_script, tmp_path, kind):
    init(ws, run_script)
    source = tmp_path / "export.json"
    source.write_text(json.dumps(IMPORTS[kind](ws)))
    r = run_script("memory", "import", source, "--approved", "--json", "-w", ws, env=ENV)
    assert r.code == 1, r.err  # nothing imported: an import that refuses an item exits 1 (result v2)
    doc = json.loads(r.out)
    assert doc["complete"] is False and doc["refused"], (kind, doc)
    assert sum(doc["counts"].values()) == 0, (kind, doc)
    assert doc["skipped"] or doc["problems"]
    assert on_disk(ws, TOKEN) == [] and on_disk(ws, "ops_other") == [], kind


def test_import_of_a_clean_t2_entry_still_works(ws, run_script, tmp_path):
    init(ws, run_script)
    source = tmp_path / "export.json"
    source.write_text(json.dumps(export_doc(tier2=[{"file": "ops_notes.md",
                                                    "text": t2_file(ws, "ops", "notes", "deploy on Fridays")}])))
    r = run_script("memory", "import", source, "--approved", "--json", "-w", ws, env=ENV)
    assert r.code == 0 and json.loads(r.out)["counts"]["tier2"] == 1, r.out


def test_privacy_audit_scans_file_names_and_frontmatter(ws, run_script):
    init(ws, run_script)
    (ws / "memory/knowledge" / f"{TOKEN}.md").write_text("---\ntags: [ops]\n---\nnothing here\n")
    (ws / "memory/knowledge/deploy.md").write_text(f"---\ntags: [ops]\nowner_token: {TOKEN}\n---\nnothing here\n")
    r = run_script("privacy_audit", "--json", "-w", ws, env=ENV)
    assert r.code == 1
    found = {(f["file"], f["line"], f["category"]) for f in json.loads(r.out)["findings"]}
    assert ("memory/knowledge/[secret].md", None, "secret") in found  # the name, masked in the report
    assert ("memory/knowledge/deploy.md", 3, "secret") in found
    assert TOKEN not in r.out
