"""Issue 10, encryption: keys fail closed, aes-gcm binds skill/topic/id, init makes the key.

Every test runs the real scripts on a real workspace and checks that a bad
key writes nothing (the whole tree byte-identical) and reads nothing.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from conftest import ROOT, tree_hash
from memory_manager import crypto, tiers
from memory_manager.config import load_config
from memory_manager.errors import CryptoError, MalformedKeyError

FIXTURES = ROOT / "tests" / "fixtures"
GOOD = base64.b64encode(bytes(range(32))).decode()
NOW = {"MEMORY_MANAGER_NOW": "2026-11-25T09:00:00+00:00"}

#: name -> (MEMORY_MANAGER_KEY value or None, key file text or None, words the error holds)
BAD_KEYS = {
    "16-byte env key": (base64.b64encode(b"k" * 16).decode(), None, "MEMORY_MANAGER_KEY holds 16 bytes, not 32"),
    "non-Base64 env key": ("correct horse battery staple!", None, "MEMORY_MANAGER_KEY is not Base64"),
    "empty env key": ("", None, "MEMORY_MANAGER_KEY is empty"),
    "cut key file": (None, GOOD[:30] + "\n", "is not Base64"),
    "cut key file on a 4-char boundary": (None, GOOD[:32] + "\n", "holds 24 bytes, not 32"),
    "16-byte key file": (None, base64.b64encode(b"q" * 16).decode() + "\n", "holds 16 bytes, not 32"),
    "binary key file": (None, None, "unreadable"),
}


def _key_file() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager" / "key"


def _install_bad_key(name: str) -> dict:
    env_value, file_text, _ = BAD_KEYS[name]
    if env_value is not None:
        return {**NOW, "MEMORY_MANAGER_KEY": env_value}
    path = _key_file()
    path.parent.mkdir(parents=True, mode=0o700, exist_ok=True)
    if file_text is None:
        path.write_bytes(b"\xff\xfe\x00key")
    else:
        path.write_text(file_text, encoding="ascii")
    path.chmod(0o600)
    return dict(NOW)


@pytest.fixture
def mem(ws, run_script):
    r = run_script("init", "--yes", "--no-hooks", "--no-key")
    assert r.code == 0, r.err
    return ws


@pytest.mark.parametrize("name", sorted(BAD_KEYS))
@pytest.mark.parametrize("scheme", [None, "xor-b64", "aes-gcm"])
def test_remember_refuses_a_malformed_key_and_writes_nothing(mem, run_script, name, scheme):
    env = _install_bad_key(name)
    before = tree_hash(mem)
    args = ["memory", "remember", "--skill", "news", "--topic", "layout", "--text", "short items", "--approved"]
    if scheme:
        args += ["--scheme", scheme]
    r = run_script(*args, env=env)
    assert r.code == 1, (r.out, r.err)
    assert r.err.count("\n") == 1 and r.err.startswith("error: ") and BAD_KEYS[name][2] in r.err
    assert "Traceback" not in r.err
    assert tree_hash(mem) == before
    j = run_script(*args, "--json", env=env)
    assert j.code == 1 and json.loads(j.out)["kind"] == "malformed_key"


@pytest.mark.parametrize("name", sorted(BAD_KEYS))
def test_crypt_encrypt_refuses_a_malformed_key(run_script, name):
    env = _install_bad_key(name)
    for scheme in ([], ["--scheme", "auto"], ["--scheme", "xor-b64"]):
        r = run_script("crypt", "encrypt", "--skill", "news", "--month", "2026-11", *scheme, input="x", env=env)
        assert r.code == 1, (scheme, r.out, r.err)
        assert r.out == "" and BAD_KEYS[name][2] in r.err


@pytest.mark.parametrize("name", sorted(BAD_KEYS))
def test_every_reader_refuses_a_malformed_key(mem, run_script, name):
    """A T2 entry written with no key (xor-b64) must not be read once a broken key is configured:
    show, recall, the privacy audit and crypt decrypt all exit 1 and change nothing."""
    r = run_script("memory", "remember", "--skill", "news", "--topic", "layout", "--text", "short items",
                   "--approved", env=NOW)
    assert r.code == 0, r.err
    xor = json.loads(run_script("memory", "remember", "--skill", "news", "--topic", "tone", "--text", "dry",
                                "--approved", "--json", env=NOW).out)
    assert xor["scheme"] == "xor-b64"
    env = _install_bad_key(name)
    before = tree_hash(mem)
    for args in (["memory", "show", "memory/tier2-internal/news_layout.md", "--approved"],
                 ["memory", "recall", "items", "--approved", "--no-track"],
                 ["privacy_audit"]):
        r = run_script(*args, env=env)
        assert r.code == 1, (args, r.out, r.err)
        assert BAD_KEYS[name][2] in r.err and "Traceback" not in r.err
    # Any non-empty input: the key is refused before the text is read (an empty stdin is refused
    # first, exit 2, since nu16 item 12; encrypt under a malformed key file gives nothing to pipe).
    r = run_script("crypt", "decrypt", "--skill", "news", "--month", "2026-11", input="QUJD\n", env=env)
    assert r.code == 1 and BAD_KEYS[name][2] in r.err
    assert tree_hash(mem) == before


def test_no_key_at_all_still_means_xor_b64(mem, run_script):
    doc = json.loads(run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "x", "--approved",
                                "--json", env=NOW).out)
    assert doc["scheme"] == "xor-b64"


def test_a_key_file_others_can_read_gives_a_warning(mem, run_script):
    assert run_script("crypt", "keygen").code == 0
    _key_file().chmod(0o644)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "x", "--approved", "--json",
                   env=NOW)
    assert r.code == 0 and json.loads(r.out)["scheme"] == "aes-gcm"
    path = _key_file()
    assert r.err == (f"warning: key file {path} has mode 0644: group or others may read it; "
                     f"run 'chmod 600 {path}'\n")
    _key_file().chmod(0o600)
    r = run_script("memory", "show", "memory/tier2-internal/s_t.md", "--approved", env=NOW)
    assert r.code == 0 and r.err == ""


def test_keygen_refuses_a_file_system_that_ignores_the_mode(monkeypatch):
    """vfat and some network mounts report 0644 whatever mode was asked for: no key is left there."""
    real_fstat = os.fstat

    def loose(fd):
        st = real_fstat(fd)
        return os.stat_result((st.st_mode | 0o044,) + tuple(st)[1:])

    monkeypatch.setattr(os, "fstat", loose)
    with pytest.raises(CryptoError, match="readable by group or others"):
        crypto.keygen(load_config())
    assert not _key_file().exists()


# ------------------------------------------------------------------ associated data

def _aes_env():
    return {**NOW, "MEMORY_MANAGER_KEY": GOOD}


def test_swapping_ciphertexts_between_topics_is_detected(mem, run_script):
    env = _aes_env()
    for topic, text in (("layout", "short items"), ("tone", "dry humour")):
        r = run_script("memory", "remember", "--skill", "news", "--topic", topic, "--text", text, "--approved",
                       env=env)
        assert r.code == 0, r.err
    folder = mem / "memory" / "tier2-internal"
    a, b = (folder / "news_layout.md"), (folder / "news_tone.md")
    cipher_a = tiers.parse_t2(a.read_text(), a)[0].ciphertext
    cipher_b = tiers.parse_t2(b.read_text(), b)[0].ciphertext
    assert cipher_a.startswith("aesgcm:v2:")
    a.write_text(a.read_text().replace(cipher_a, cipher_b))
    r = run_script("memory", "show", "memory/tier2-internal/news_layout.md", "--approved", env=env)
    assert r.code == 1
    assert "moved from another skill, topic or entry" in r.err
    b_text = run_script("memory", "show", "memory/tier2-internal/news_tone.md", "--approved", env=env)
    assert b_text.code == 0 and "dry humour" in b_text.out


def test_the_same_text_does_not_decrypt_under_another_id(monkeypatch):
    monkeypatch.setenv(crypto.ENV_KEY, GOOD)
    cfg = load_config()
    sealed = crypto.encrypt("x", "s", "2026-11", cfg, "aes-gcm", topic="t", entry_id="t-1")
    assert crypto.decrypt(sealed.ciphertext, "s", "", sealed.params, cfg, topic="t", entry_id="t-1") == "x"
    for skill, topic, entry_id in (("s2", "t", "t-1"), ("s", "t2", "t-1"), ("s", "t", "t-2"), ("s", "", "")):
        with pytest.raises(CryptoError, match="authentication failed"):
            crypto.decrypt(sealed.ciphertext, skill, "", sealed.params, cfg, topic=topic, entry_id=entry_id)
    relabelled = sealed.ciphertext.replace("aesgcm:v2:", "aesgcm:v1:")
    with pytest.raises(CryptoError, match="authentication failed"):
        crypto.decrypt(relabelled, "s", "", sealed.params, cfg, topic="t", entry_id="t-1")


def test_associated_data_cannot_be_shared_by_two_entries():
    assert crypto.associated_data(2, "a_b", "c", "x") != crypto.associated_data(2, "a", "b_c", "x")
    assert crypto.associated_data(2, 'a","b', "c", "") != crypto.associated_data(2, "a", 'b","c', "")


def test_a_v1_entry_written_before_the_binding_still_reads(mem, run_script):
    """Golden fixture: an aesgcm:v1 entry (skill-only associated data) made with a fixed key and nonce."""
    target = mem / "memory" / "tier2-internal" / "weather_drinks.md"
    shutil.copyfile(FIXTURES / "t2-aesgcm-v1.md", target)
    target.chmod(0o600)
    r = run_script("memory", "show", "memory/tier2-internal/weather_drinks.md", "--approved", "--json",
                   env=_aes_env())
    assert r.code == 0, r.err
    assert "prefers tea over coffee 喜欢喝茶" in r.out
    wrong = {**NOW, "MEMORY_MANAGER_KEY": base64.b64encode(bytes(32)).decode()}
    r = run_script("memory", "show", "memory/tier2-internal/weather_drinks.md", "--approved", env=wrong)
    assert r.code == 1 and "authentication failed" in r.err


def test_crypt_binds_topic_on_stdin(run_script):
    env = _aes_env()
    enc = run_script("crypt", "encrypt", "--skill", "news", "--topic", "layout", input="hello", env=env)
    assert enc.code == 0 and enc.out.startswith("aesgcm:v2:")
    ok = run_script("crypt", "decrypt", "--skill", "news", "--topic", "layout", input=enc.out, env=env)
    assert (ok.code, ok.out) == (0, "hello\n")
    bad = run_script("crypt", "decrypt", "--skill", "news", "--topic", "tone", input=enc.out, env=env)
    assert bad.code == 1 and "moved from another skill, topic or entry" in bad.err


# ------------------------------------------------------------------ init makes the key

def test_init_yes_creates_the_key_and_t2_is_encrypted_for_real(ws, run_script):
    r = run_script("init", "--yes", "--no-hooks")
    assert r.code == 0, r.err
    path = _key_file()
    assert (f"created AES key {path} (mode 0600): new T2 entries are encrypted with it. Keep a copy somewhere "
            "safe: losing it loses the T2 entries.") in r.out
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(base64.b64decode(path.read_text().strip(), validate=True)) == 32
    doc = json.loads(run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "x", "--approved",
                                "--json", env=NOW).out)
    assert doc["scheme"] == "aes-gcm"
    again = json.loads(run_script("init", "--yes", "--no-hooks", "--json").out)
    assert again["applied"] is False and again["key"] == {"created": False, "path": None}
    assert path.read_text().strip() and stat.S_IMODE(path.stat().st_mode) == 0o600


def test_init_json_names_the_key_and_dry_run_creates_nothing(ws, run_script):
    dry = json.loads(run_script("init", "--dry-run", "--json", "--no-hooks").out)
    assert dry["key"] == {"would_create": str(_key_file())}
    assert not _key_file().exists()
    doc = json.loads(run_script("init", "--yes", "--json", "--no-hooks").out)
    assert doc["key"] == {"created": True, "path": str(_key_file()), "mode": "0600"}


def test_init_no_key_stays_on_xor_b64(ws, run_script):
    doc = json.loads(run_script("init", "--yes", "--json", "--no-hooks", "--no-key").out)
    assert doc["key"] == {"created": False, "path": None}
    assert not _key_file().exists()
    assert "memory/tier2-internal/" in (ws / ".gitignore").read_text()


def test_init_refuses_a_malformed_key_before_writing(ws, run_script):
    before = tree_hash(ws)
    r = run_script("init", "--yes", "--no-hooks", env={"MEMORY_MANAGER_KEY": "short"})
    assert r.code == 1 and "MEMORY_MANAGER_KEY" in r.err
    assert tree_hash(ws) == before


def test_malformed_key_is_not_an_absent_key():
    assert not issubclass(MalformedKeyError, crypto.KeyUnavailableError)
    with pytest.raises(MalformedKeyError):
        crypto.check_key({}, {"MEMORY_MANAGER_KEY": "abc", "HOME": "/nonexistent"})
    assert crypto.check_key({}, {"HOME": "/nonexistent"}) is False


@pytest.mark.parametrize("setup,status,words", [
    ("none", "warn", "no AES key: T2 entries use xor-b64"),
    ("good", "ok", "aes-gcm with the key from"),
    ("loose", "warn", "group or others may read it"),
    ("16-byte env key", "fail", "MEMORY_MANAGER_KEY holds 16 bytes, not 32"),
    ("cut key file", "fail", "is not Base64"),
])
def test_doctor_reports_the_key(ws, run_script, setup, status, words):
    env = dict(NOW)
    if setup in BAD_KEYS:
        env = _install_bad_key(setup)
    elif setup in ("good", "loose"):
        assert run_script("crypt", "keygen").code == 0
        if setup == "loose":
            _key_file().chmod(0o640)
    r = run_script("doctor", "--no-openclaw", "--json", env=env)
    [check] = [c for c in json.loads(r.out)["checks"] if c["name"] == "T2 key"]
    assert check["status"] == status and words in check["detail"]


def test_aes_gcm_callers_must_name_topic_and_id(monkeypatch):
    """A caller that forgets the binding fails loudly instead of writing entries nobody can read."""
    monkeypatch.setenv(crypto.ENV_KEY, GOOD)
    cfg = load_config()
    with pytest.raises(TypeError, match="topic= and entry_id="):
        crypto.encrypt("x", "s", "2026-11", cfg, "aes-gcm")
    sealed = crypto.encrypt("x", "s", "2026-11", cfg, "aes-gcm", topic="", entry_id="")
    with pytest.raises(TypeError, match="topic= and entry_id="):
        crypto.decrypt(sealed.ciphertext, "s", "", sealed.params, cfg)
    assert crypto.encrypt("x", "s", "2026-11", cfg, "xor-b64").params["scheme"] == "xor-b64"
