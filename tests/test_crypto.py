import base64
import hashlib
import json
import os
import stat

import pytest

from conftest import FIXTURES
from memory_manager import crypto
from memory_manager.config import load_config
from memory_manager.errors import CryptoError, KeyUnavailableError, MalformedKeyError

# The seed's reference vectors (facts, kept as they are).
VECTORS = FIXTURES / "xor-b64-vectors.json"


def _vectors():
    if not VECTORS.exists():
        return []
    return json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"]


def seed_encrypt(text, skill, month, hyphen=False):
    """The Tiers seed's reference algorithm (rebuilt here; hyphen = its Decryption Note's key)."""
    raw = f"{skill}-{month}" if hyphen else skill + month
    key = hashlib.sha256(raw.encode()).hexdigest()[:8]
    return base64.b64encode(bytes([ord(c) ^ ord(key[i % len(key)]) for i, c in enumerate(text)])).decode()


@pytest.fixture
def cfg():
    return load_config()


@pytest.fixture
def aes_key(monkeypatch):
    key = base64.b64encode(bytes(range(32))).decode()
    monkeypatch.setenv(crypto.ENV_KEY, key)
    return key


@pytest.mark.parametrize("vector", _vectors(), ids=lambda v: f"{v['skill_name']}:{v['plaintext'][:12]}")
def test_compat_vector(vector):
    skill, month = vector["skill_name"], vector["year_month"]
    assert crypto.derive_xor_key(skill, month) == vector["key"]
    sealed = crypto.xor_encrypt(vector["plaintext"], skill, month)
    assert sealed.ciphertext == vector["ciphertext_b64"]
    assert sealed.params["text_encoding"] == "latin-1"
    assert crypto.xor_decrypt(vector["ciphertext_b64"], skill, month) == vector["plaintext"]


def test_hyphen_key_of_the_seed_note():
    assert crypto.derive_xor_key("my-skill", "2026-05", "hyphen") == "7024c970"


@pytest.mark.parametrize("text", ["User prefers concise status updates", "café au lait, daily\nline two"])
def test_legacy_entries_written_either_way_decrypt_without_hints(text):
    for hyphen in (False, True):
        ct = seed_encrypt(text, "my-skill", "2026-05", hyphen)
        assert crypto.xor_decrypt(ct, "my-skill", "2026-05") == text


@pytest.mark.parametrize("text", ["喜欢简洁的状态更新", "emoji 🎉🧠 and 中文 mixed with café", "x" * 1000 + "中"])
def test_unicode_round_trips_in_xor(text):
    sealed = crypto.xor_encrypt(text, "技能", "2026-05")
    assert sealed.params["text_encoding"] == "utf-8"
    assert crypto.xor_decrypt(sealed.ciphertext, "技能", "2026-05", "utf-8", "concat") == text
    assert crypto.decrypt(sealed.ciphertext, "技能", "2026-05", sealed.params) == text


@pytest.mark.parametrize("text", ["喜欢简洁的状态更新", "emoji 🎉🧠", "", "plain ascii"])
def test_unicode_round_trips_in_aes(aes_key, cfg, text):
    sealed = crypto.encrypt(text, "s", "2026-05", cfg, "aes-gcm", topic="t", entry_id="i")
    assert sealed.ciphertext.startswith("aesgcm:v2:")
    assert crypto.decrypt(sealed.ciphertext, "s", "2026-05", sealed.params, cfg, topic="t", entry_id="i") == text


def test_aes_uses_a_fresh_nonce_each_time(aes_key, cfg):
    a = crypto.encrypt("same", "s", "2026-05", cfg, "aes-gcm", topic="", entry_id="").ciphertext
    b = crypto.encrypt("same", "s", "2026-05", cfg, "aes-gcm", topic="", entry_id="").ciphertext
    assert a != b
    assert base64.b64decode(a[10:])[:12] != base64.b64decode(b[10:])[:12]


def _flip(ct, at):
    data = bytearray(base64.b64decode(ct[len(crypto.AES_PREFIX):]))
    data[at] ^= 1
    return crypto.AES_PREFIX + base64.b64encode(bytes(data)).decode()


def test_aes_tamper_wrong_key_truncation_and_wrong_skill(aes_key, cfg, monkeypatch):
    ct = crypto.encrypt("secret preference", "s", "2026-05", cfg, "aes-gcm", topic="", entry_id="").ciphertext
    for bad in (_flip(ct, 5), _flip(ct, 20), _flip(ct, -1)):
        with pytest.raises(CryptoError, match="authentication failed"):
            crypto.decrypt(bad, "s", "2026-05", {"scheme": "aes-gcm"}, cfg, topic="", entry_id="")
    with pytest.raises(CryptoError):
        crypto.decrypt(ct[:-8], "s", "2026-05", {"scheme": "aes-gcm"}, cfg, topic="", entry_id="")
    with pytest.raises(CryptoError, match="truncated"):
        crypto.decrypt(crypto.AES_PREFIX + base64.b64encode(b"short").decode(), "s", "2026-05", {"scheme": "aes-gcm"}, cfg, topic="", entry_id="")
    with pytest.raises(CryptoError, match="authentication failed"):
        crypto.decrypt(ct, "other-skill", "2026-05", {"scheme": "aes-gcm"}, cfg, topic="", entry_id="")
    monkeypatch.setenv(crypto.ENV_KEY, base64.b64encode(b"\x01" * 32).decode())
    with pytest.raises(CryptoError, match="wrong key"):
        crypto.decrypt(ct, "s", "2026-05", {"scheme": "aes-gcm"}, cfg, topic="", entry_id="")


def test_xor_truncated_base64_is_an_error():
    with pytest.raises(CryptoError, match="Base64"):
        crypto.xor_decrypt("CVReCFlCT18TXVY", "my-skill", "2026-05")


def test_never_encrypt_twice(aes_key, cfg):
    ct = crypto.encrypt("x", "s", "2026-05", cfg, "aes-gcm", topic="", entry_id="").ciphertext
    with pytest.raises(CryptoError, match="twice"):
        crypto.encrypt(ct, "s", "2026-05", cfg, "xor-b64")


def test_auto_scheme_follows_key_availability(cfg, monkeypatch):
    assert crypto.choose_scheme(cfg) == "xor-b64"
    with pytest.raises(KeyUnavailableError, match="keygen"):
        crypto.encrypt("x", "s", "2026-05", cfg, "aes-gcm")
    monkeypatch.setenv(crypto.ENV_KEY, base64.b64encode(os.urandom(32)).decode())
    assert crypto.choose_scheme(cfg) == "aes-gcm"
    monkeypatch.setenv(crypto.ENV_KEY, base64.b64encode(b"short").decode())
    with pytest.raises(MalformedKeyError, match="holds 5 bytes, not 32"):
        crypto.load_key(cfg)


def test_keygen_makes_a_0600_file_in_the_config_dir_and_never_overwrites(cfg, ws, tmp_path):
    path = crypto.keygen(cfg, ws)
    assert path == tmp_path / "home" / ".config" / "complex-memory-manager" / "key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert len(crypto.load_key(cfg)) == 32 and crypto.choose_scheme(cfg) == "aes-gcm"
    before = path.read_bytes()
    with pytest.raises(CryptoError, match="exists already"):
        crypto.keygen(cfg, ws)
    assert path.read_bytes() == before


def test_keygen_refuses_a_key_file_inside_the_workspace(ws):
    cfg = load_config()
    cfg["tiers"]["key_file"] = str(ws / "secret.key")
    with pytest.raises(CryptoError, match="inside the workspace"):
        crypto.keygen(cfg, ws)
    assert not (ws / "secret.key").exists()


@pytest.mark.parametrize("text", ["hello 你好", "喜欢简洁的状态更新", "emoji 🎉🧠 and café 中文"])
def test_utf8_text_without_recorded_encoding_is_read_as_utf8(text):
    """QA bug 4: ciphertext piped without its text_encoding came back as mojibake."""
    sealed = crypto.xor_encrypt(text, "weather", "2026-11")
    assert sealed.params["text_encoding"] == "utf-8"
    assert crypto.xor_decrypt(sealed.ciphertext, "weather", "2026-11") == text
    assert crypto.decrypt(sealed.ciphertext, "weather", "2026-11", {}) == text


@pytest.mark.parametrize("text", ["café au lait", "Ærøskøbing naïve façade ±5 °C"])
def test_latin1_seed_entries_without_encoding_stay_latin1(text):
    ct = seed_encrypt(text, "weather", "2026-11", False)
    assert crypto.xor_decrypt(ct, "weather", "2026-11") == text


def test_guess_encoding():
    assert crypto._guess_encoding("你好".encode("utf-8")) == "utf-8"
    assert crypto._guess_encoding("café".encode("latin-1")) == "latin-1"
    assert crypto._guess_encoding(b"plain ascii") == "latin-1"
