"""Attack round 3 on the privacy detector (issue 9), by an outside attacker.

Each private kind of tests/attack/privacy_r3_phrasings.py is written through every door that
takes text (write cause/todo/topic, learn text/key/tags, remember text/topic/skill, lesson,
import of an export file and --from-openclaw) into one workspace; no needle may reach any file
or file name. Each benign kind is written without --approved through the text doors and must
exit 0. The kinds listed here are the ones measured to leak or to be refused on 2026-11-30.
"""
import json
import os
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import harness as H  # noqa: E402
import privacy_r3_phrasings as Q  # noqa: E402

CLI_DOORS = H.TEXT_DOORS


@pytest.fixture
def attack_ws(tmp_path, monkeypatch):
    """A fresh workspace and state folder, HOME and XDG_CONFIG_HOME inside tmp_path."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (tmp_path / "home").mkdir(exist_ok=True); (tmp_path / "xdg").mkdir(exist_ok=True)
    monkeypatch.setattr(H.tempfile, "tempdir", str(tmp_path))
    wsdir, env = H.ws()
    return pathlib.Path(wsdir), env


def _import_all(wsdir, env, items):
    """Import every line as a daily cause, a daily topic, a knowledge body and tag, a T2 text,
    and as an OpenClaw daily note; returns nothing (what counts is what lands on disk)."""
    doc = {"format": "cmm-export", "version": 2, "exported": "2026-11-30T00:00:00+00:00",
           "tool_version": "0.1.0", "daily": [], "knowledge": [], "tier1": [], "tier2": []}
    for i, (_k, t, _n) in enumerate(items):
        doc["daily"].append({"id": f"d-20261129-{i:08x}", "date": "2026-11-29", "topic": f"imp {i}",
                             "pinned": False, "cause": [t], "change": [], "todo": [], "other": []})
        doc["daily"].append({"id": f"d-20261128-{i:08x}", "date": "2026-11-28", "topic": t,
                             "pinned": False, "cause": ["x"], "change": [], "todo": [], "other": []})
        doc["knowledge"].append({"id": f"k-{i:010x}", "key": f"ik{i}", "tags": [t], "created": "2026-11-29",
                                 "updated": "2026-11-29", "pinned": False, "body": t})
        doc["tier2"].append({"file": f"s_imp{i}.md", "text": "---\ntier: internal\nsource_skill: s\n"
                             "key_hint: s-2026-11\ncreated: 2026-11-29\nexpires: 2026-12-29\nformat: cmm-t2\n"
                             f"version: 1\nid: t-{i:010x}\ntopic: imp{i}\nscheme: plain\n---\n\n## 加密条目\n> {t}\n"})
    f = wsdir.parent / "exp.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    H.mem(env, "import", str(f), "--approved", "--json")
    f.unlink()
    lines = ["# 2026-11-27", ""]
    for i, (_k, t, _n) in enumerate(items):
        lines += [f"## note {i}", "- " + t.replace("\n", " "), ""]
    note = wsdir / "memory" / "2026-11-27.md"
    note.write_text("\n".join(lines), encoding="utf-8")
    H.mem(env, "import", "--from-openclaw", "--approved", "--json")
    note.unlink()  # the planted source note is ours; what remains was written by the tool


def _stored(wsdir, items):
    root = wsdir.parent
    out = []
    for k, t, n in items:
        h = H.hits(str(root / "ws"), n) + H.hits(str(root / "st"), n)
        if h:
            out.append((t, h[:2]))
    return out


def _check_private(attack_ws, kind):
    wsdir, env = attack_ws
    items = [p for p in Q.PRIVATE if p[0] == kind]
    assert items
    for name, door in CLI_DOORS.items():
        for i, (_k, t, _n) in enumerate(items):
            H.mem(env, *door(i, t))
    _import_all(wsdir, env, items)
    assert _stored(wsdir, items) == []


def _check_benign(attack_ws, kind):
    wsdir, env = attack_ws
    items = [b for b in Q.BENIGN if b[0] == kind]
    assert items
    refused = []
    for name in ("write_cause", "write_topic", "learn_text", "remember_text", "lesson"):
        for i, (_k, t) in enumerate(items):
            r = H.mem(env, *CLI_DOORS[name](i, t))
            if r.returncode != 0:
                refused.append((name, t, r.returncode))
    assert refused == []


# Private kinds with at least one line stored through every text door on 2026-11-30 (the line in
# the comment); each test writes the whole kind through every door.

def test_r3_credential_on_command_line_is_not_stored(attack_ws):
    # rsync --password-file=<(echo VALUE) rsync://backup@nas/home
    _check_private(attack_ws, "credential_cmd")


def test_r3_bearer_token_with_dots_is_not_stored(attack_ws):
    # Bearer <60 chars of [A-Za-z0-9-_.]>  (keyword_entropy kind)
    _check_private(attack_ws, "keyword_entropy")


def test_r3_card_glued_to_ref_or_slash_grouped_is_not_stored(attack_ws):
    # ref<19-digit UnionPay> 退款用这张 ; amex 3782/822463/10005
    _check_private(attack_ws, "card")


def test_r3_spelled_out_email_is_not_stored(attack_ws):
    # His address is bob dot smith at protonmail dot com
    _check_private(attack_ws, "email")


def test_r3_street_address_in_french_form_is_not_stored(attack_ws):
    # meet at my place, 18 Rue des Martyrs, 75009 Paris
    _check_private(attack_ws, "address")


def test_r3_person_weekly_whereabouts_is_not_stored(attack_ws):
    # 老板每周五下午去打高尔夫，不在公司 ; 妈妈每周三早上7点在小区门口晨跑
    _check_private(attack_ws, "schedule")


def test_r3_addiction_treatment_is_not_stored(attack_ws):
    # Tom is on methadone treatment since March
    _check_private(attack_ws, "health")


def test_r3_pending_criminal_charge_is_not_stored(attack_ws):
    # my brother has a pending assault charge, hearing on the 14th
    _check_private(attack_ws, "legal")


# Benign kinds with a line refused without --approved on 2026-11-30.

def test_r3_street_named_school_news_is_not_refused(attack_ws):
    # 人民路小学的新闻 -> "protected content needs explicit approval"
    _check_benign(attack_ws, "names_places")


def test_r3_technical_or_translation_lines_with_topic_words_are_not_refused(attack_ws):
    # the bipolar transistor datasheet (health) ; 破产 的英文是 bankruptcy (financial) ;
    # 孩子们的画展海报 (protected)
    _check_benign(attack_ws, "topics")
