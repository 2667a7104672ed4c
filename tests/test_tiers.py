import base64
import json
from datetime import date

import pytest

from memory_manager import backups, crypto, tiers
from memory_manager.config import load_config
from memory_manager.errors import CryptoError, KeyUnavailableError, MalformedFileError

from test_crypto import seed_encrypt


@pytest.fixture
def cfg():
    return load_config()


def _t2(ws, name, text):
    path = ws / "memory" / "tier2-internal" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


SEED_ENTRY = """---
tier: internal
source_skill: skill-a
key_hint: skill-a-2026-03
created: 2026-03-05
expires: 2026-04-04
---

## Encrypted Entry
> {ct}

## Decryption Note
Key = sha256("skill-a-2026-03")[:8], then XOR + base64 decode.
"""


@pytest.mark.parametrize("hyphen", [False, True])
def test_a_seed_entry_without_our_fields_is_read(ws, cfg, hyphen):
    text = "prefers dark mode; weekly report on Fridays"
    _t2(ws, "skill-a_preferences.md", SEED_ENTRY.format(ct=seed_encrypt(text, "skill-a", "2026-03", hyphen)))
    [entry] = tiers.iter_t2_entries(ws)
    assert (entry.skill, entry.topic, entry.month, entry.scheme) == ("skill-a", "preferences", "2026-03", "xor-b64")
    assert entry.created == date(2026, 3, 5) and entry.expires == date(2026, 4, 4)
    assert not entry.plaintext and entry.error is None
    assert tiers.decrypt_entry(entry, cfg) == text


def test_rendered_entry_round_trips_chinese_and_survives_month_rollover(ws, cfg, monkeypatch):
    created = date(2026, 1, 31)
    sealed = crypto.xor_encrypt("偏好：简洁 🎉", "skill-a", "2026-01")
    path = _t2(ws, "skill-a_prefs.md", tiers.render_t2("skill-a", "prefs", sealed, created, 30, "2026-01", "en"))
    monkeypatch.setenv("MEMORY_MANAGER_NOW", "2026-02-15")
    [entry] = tiers.iter_t2_entries(ws)
    assert entry.meta["key_hint"] == "skill-a-2026-01" and entry.expires == date(2026, 3, 2)
    assert entry.params == {"scheme": "xor-b64", "text_encoding": "utf-8", "key_derivation": "concat"}
    assert tiers.decrypt_entry(entry, cfg) == "偏好：简洁 🎉"
    assert "obfuscation, not encryption" in path.read_text(encoding="utf-8")


def test_aes_entry_needs_the_key(ws, cfg, monkeypatch):
    monkeypatch.setenv(crypto.ENV_KEY, base64.b64encode(b"k" * 32).decode())
    sealed = crypto.encrypt("私密偏好", "s", "2026-05", cfg, "aes-gcm", topic="p", entry_id=tiers.t2_id("s", "p"))
    _t2(ws, "s_p.md", tiers.render_t2("s", "p", sealed, date(2026, 5, 1), 30, "2026-05", "zh"))
    [entry] = tiers.iter_t2_entries(ws)
    assert tiers.decrypt_entry(entry, cfg) == "私密偏好"
    monkeypatch.delenv(crypto.ENV_KEY)
    with pytest.raises(KeyUnavailableError):
        tiers.decrypt_entry(entry, cfg)


def test_malformed_files_are_yielded_with_an_error(ws, cfg):
    _t2(ws, "bad_yaml.md", "---\ntier: [\n---\n> abc\n")
    _t2(ws, "bad_version.md", "---\nformat: cmm-t2\nversion: 7\n---\n> abc\n")
    found = {e.path.name: e for e in tiers.iter_t2_entries(ws)}
    assert "not valid YAML" in found["bad_yaml.md"].error
    assert "version" in found["bad_version.md"].error
    with pytest.raises(CryptoError):
        tiers.decrypt_entry(found["bad_yaml.md"], cfg)


def test_seal_plaintext_t2_encrypts_backs_up_and_keeps_user_frontmatter(ws, cfg, t2_key):
    raw = "---\ntier: internal\nsource_skill: skill-a\ncreated: 2026-03-05\nnote: NO\n---\n\nUser likes tea.\n"
    path = _t2(ws, "skill-a_drinks.md", raw)
    [entry] = tiers.iter_t2_entries(ws)
    assert entry.plaintext
    assert tiers.seal_plaintext_t2(ws, cfg) == [path]
    text = path.read_text(encoding="utf-8")
    assert "User likes tea." not in text and "note: NO" in text and "created: 2026-03-05" in text
    assert "key_hint: skill-a-2026-03" in text and "expires: 2026-04-04" in text
    [entry] = tiers.iter_t2_entries(ws)
    assert not entry.plaintext and tiers.decrypt_entry(entry, cfg) == "User likes tea."
    [backup] = backups.list_backups(ws)
    assert backup["reason"] == "seal-t2"
    copy = ws / ".memory-backup" / backup["id"] / "files/memory/tier2-internal/skill-a_drinks.md"
    assert b"User likes tea." not in copy.read_bytes()  # a T2 copy is stored encrypted
    assert backups.read_copy(ws, backup["id"], "memory/tier2-internal/skill-a_drinks.md") == raw.encode()
    assert tiers.seal_plaintext_t2(ws, cfg) == []  # never encrypt twice


def test_compact_into_a_multi_file_and_read_it_back(ws, cfg):
    for topic, text in (("prefs", "likes tea"), ("style", "短句")):
        sealed = crypto.xor_encrypt(text, "skill-a", "2026-03")
        _t2(ws, f"skill-a_{topic}.md", tiers.render_t2("skill-a", topic, sealed, date(2026, 3, 5), 30, "2026-03", "en"))
    sealed = crypto.xor_encrypt("other skill", "skill-b", "2026-03")
    _t2(ws, "skill-b_x.md", tiers.render_t2("skill-b", "x", sealed, date(2026, 3, 9), 30, "2026-03", "en"))
    backup = backups.start(ws, "cleanup", allow_withheld=True)  # as cleanup opens it: no key here
    written = tiers.compact(ws, [e for e in tiers.iter_t2_entries(ws) if e.skill == "skill-a"], backup)
    assert [p.name for p in written] == ["skill-a_2026-03.md"]
    names = sorted(p.name for p in (ws / "memory/tier2-internal").iterdir())
    assert names == ["skill-a_2026-03.md", "skill-b_x.md"]
    multi = [e for e in tiers.iter_t2_entries(ws) if e.skill == "skill-a"]
    assert [(e.topic, e.index, e.created, e.expires) for e in multi] == [
        ("prefs", 0, date(2026, 3, 5), date(2026, 4, 4)), ("style", 1, date(2026, 3, 5), date(2026, 4, 4))]
    assert [tiers.decrypt_entry(e, cfg) for e in multi] == ["likes tea", "短句"]
    assert multi[0].id == tiers.t2_id("skill-a", "prefs")
    saved = {e["path"] for e in backups.list_backups(ws)[0]["entries"]}
    assert "memory/tier2-internal/skill-a_prefs.md" in saved and "memory/tier2-internal/skill-a_2026-03.md" in saved


def test_t1_stats_keep_counts_and_read_seed_files(ws):
    path = tiers.t1_path(ws, "skill-a")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"skill_stats": {"skill-a": {"calls": 47, "success_rate": 0.96, "last_used": "2026-05-19"}},
                                "patterns_observed": []}))
    doc = tiers.load_stats(path)
    rec = tiers.record_call(doc, "skill-a", True, date(2026, 5, 20))
    assert rec == {"calls": 48, "success_rate": 0.9583, "last_used": "2026-05-20", "successes": 46}
    tiers.record_pattern(doc, "morning request", ["morning-news-daily"])
    assert list(json.loads(tiers.dump_stats(doc)))[:2] == ["format", "version"]
    assert tiers.record_pattern(doc, "morning request", ["morning-news-daily"])["count"] == 2
    path.write_text("{not json")
    with pytest.raises(MalformedFileError):
        tiers.load_stats(path)
