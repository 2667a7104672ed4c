import json
import stat

import pytest

from conftest import FIXTURES, tree_hash

# The seed's reference vectors (facts, kept as they are).
VECTORS = FIXTURES / "xor-b64-vectors.json"


def test_encrypt_and_decrypt_match_the_vectors(run_script):
    for v in json.loads(VECTORS.read_text())["vectors"]:
        if not v["plaintext"]:
            # The empty vector holds for the library (tests/test_crypto.py); on the command line an
            # empty stdin is a forgotten pipe and is refused, exit 2 (nu16 item 12).
            for verb in ("encrypt", "decrypt"):
                r = run_script("crypt", verb, "--skill", v["skill_name"], "--month", v["year_month"], input="")
                assert (r.code, r.out) == (2, "") and r.err.startswith("error: stdin is empty: nothing to ")
            continue
        r = run_script("crypt", "encrypt", "--skill", v["skill_name"], "--month", v["year_month"], "--scheme", "xor-b64",
                       input=v["plaintext"])
        assert r.code == 0 and r.out == v["ciphertext_b64"] + "\n"
        r = run_script("crypt", "decrypt", "--skill", v["skill_name"], "--month", v["year_month"], "--json",
                       input=v["ciphertext_b64"])
        assert json.loads(r.out) == {"plaintext": v["plaintext"]}


def test_chinese_round_trip_both_schemes(run_script):
    text = "中文记忆 🎉 café"
    r = run_script("crypt", "encrypt", "--skill", "s", "--month", "2026-05", input=text)
    assert run_script("crypt", "decrypt", "--skill", "s", "--month", "2026-05", input=r.out).out == text + "\n"
    assert run_script("crypt", "keygen").code == 0
    r = run_script("crypt", "encrypt", "--skill", "s", "--month", "2026-05", "--json", input=text)
    doc = json.loads(r.out)
    assert doc["scheme"] == "aes-gcm"
    assert run_script("crypt", "decrypt", "--skill", "s", "--month", "2026-05", input=doc["ciphertext"]).out == text + "\n"
    tampered = doc["ciphertext"][:-6] + ("A" if doc["ciphertext"][-6] != "A" else "B") + doc["ciphertext"][-5:]
    r = run_script("crypt", "decrypt", "--skill", "s", "--month", "2026-05", input=tampered)
    assert r.code == 1 and r.err.startswith("error: aes-gcm authentication failed")
    r = run_script("crypt", "decrypt", "--skill", "s", "--month", "2026-05", input=doc["ciphertext"][:30])
    assert r.code == 1


def test_keygen_mode_and_no_overwrite(run_script, tmp_path):
    r = run_script("crypt", "keygen", "--json")
    path = tmp_path / "home/.config/complex-memory-manager/key"
    assert r.code == 0 and json.loads(r.out)["key_file"] == str(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    key = path.read_bytes()
    r = run_script("crypt", "keygen")
    assert r.code == 1 and "exists already" in r.err and path.read_bytes() == key


def test_bad_input(run_script):
    assert run_script("crypt", "encrypt", "--skill", "s", "--month", "2026-13", input="x").code == 2
    assert run_script("crypt", "encrypt", "--skill", "../s", "--month", "2026-05", input="x").code == 2
    assert run_script("crypt", "encrypt", "--skill", "s", "--month", "2026-05", "--scheme", "rot13", input="x").code == 2


def test_file_in_place_is_backed_up_and_never_encrypted_twice(ws, run_script, t2_key):
    path = ws / "memory/tier2-internal/s_notes.md"
    path.parent.mkdir(parents=True)
    original = "---\ntier: internal\nsource_skill: s\ncreated: 2026-05-02\n---\n\n偏好：清晰\n"
    path.write_text(original, encoding="utf-8")
    r = run_script("crypt", "encrypt", "--file", str(path), "--json")
    doc = json.loads(r.out)
    assert r.code == 0 and doc["action"] == "encrypted"
    copy = ws / ".memory-backup" / doc["backup"] / "files/memory/tier2-internal/s_notes.md"
    assert "偏好".encode() not in copy.read_bytes()  # the plain text never sits in a backup
    from memory_manager import backups

    assert backups.read_copy(ws, doc["backup"], "memory/tier2-internal/s_notes.md") == original.encode()
    sealed = path.read_text(encoding="utf-8")
    assert "偏好" not in sealed and "key_hint: s-2026-05" in sealed
    before = tree_hash(ws / "memory")
    r = run_script("crypt", "encrypt", "--file", str(path))
    # Never encrypted twice: a repeat finds nothing to do and says so, exit 0 (walk-through r4, item 8).
    assert r.code == 0 and "already encrypted; nothing to do" in r.out and tree_hash(ws / "memory") == before
    r = run_script("memory", "show", "memory/tier2-internal/s_notes.md", "--approved")
    assert "偏好：清晰" in r.out
    r = run_script("crypt", "decrypt", "--file", str(path))
    assert r.code == 1 and "- Decision: request_approval" not in r.out and "approval" in r.err
    assert path.read_text(encoding="utf-8") == sealed
    r = run_script("crypt", "decrypt", "--file", "memory/tier2-internal/s_notes.md", "--approved")
    assert r.code == 0 and "偏好：清晰" in path.read_text(encoding="utf-8")
    r = run_script("crypt", "encrypt", "--file", str(ws / "AGENTS.md"))
    assert r.code == 2


def test_chinese_through_stdin_xor_round_trips(run_script):
    """QA bug 4: the plain (non-JSON) ciphertext carries no text_encoding."""
    r = run_script("crypt", "encrypt", "--skill", "weather", "--month", "2026-11", "--scheme", "xor-b64",
                   input="hello 你好\n")
    assert r.code == 0, r.err
    d = run_script("crypt", "decrypt", "--skill", "weather", "--month", "2026-11", input=r.out)
    assert (d.code, d.out) == (0, "hello 你好\n")


def test_month_is_optional_for_aes_gcm_and_required_for_xor(run_script):
    """QA bug 5: the AES key does not use the month."""
    assert run_script("crypt", "keygen").code == 0
    r = run_script("crypt", "encrypt", "--skill", "weather", "--scheme", "aes-gcm", input="secret 你好")
    assert r.code == 0, r.err
    assert r.out.startswith("aesgcm:v2:")
    d = run_script("crypt", "decrypt", "--skill", "weather", input=r.out)
    assert (d.code, d.out) == (0, "secret 你好\n")
    x = run_script("crypt", "encrypt", "--skill", "weather", "--scheme", "xor-b64", input="x")
    assert x.code == 2
    assert x.err.strip() == "error: --month must be YYYY-MM (required for xor-b64: the month is part of its key)"
    x = run_script("crypt", "decrypt", "--skill", "weather", input="CVReCFlCT18TXVY=")
    assert x.code == 2
