"""A note's structure decides what a random-looking line is (privacy issue 9, multi-line set I).

Public material is random by design and is no secret: the Base64 body of a certificate or of a
PGP public key, an ``ssh-ed25519 AAAA…`` key a terminal wrapped, a Subresource-Integrity hash in
a lock file, a gzip'd log or an image pasted as Base64. The same shapes holding a private key,
or Base64 whose decoded text holds a secret, are still found. Every value here is built at run
time with other bytes than the development set's (``tests/test_layout.py`` refuses
secret-looking literals).
"""
from __future__ import annotations

import base64
import gzip
import json
import random
import string

import pytest

from memory_manager.privacy import scan
from memory_manager.structure import classify, public_spans, text_blocks


def _bytes(n: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(n)


def _wrap(b64: str, width: int) -> str:
    return "\n".join(b64[i:i + width] for i in range(0, len(b64), width))


def _der(inner_first: bytes, n: int = 300, seed: int = 1) -> bytes:
    """A DER SEQUENCE (long form length) whose first element is ``inner_first`` + random bytes."""
    body = inner_first + _bytes(n, seed)
    return b"\x30\x82" + len(body).to_bytes(2, "big") + body


def _cert_der(seed: int = 1) -> bytes:
    tbs = b"\x30\x82\x01\x00\xa0\x03\x02\x01\x02" + _bytes(250, seed)
    return _der(tbs, 10, seed)


def _pkcs8_der(seed: int = 2) -> bytes:
    return _der(b"\x02\x01\x00\x30\x0d\x06\x09", 400, seed)


def _armour(label: str, der: bytes, width: int = 64) -> str:
    return f"-----BEGIN {label}-----\n{_wrap(base64.b64encode(der).decode(), width)}\n-----END {label}-----"


def _ssh_blob(kind: str, seed: int) -> bytes:
    name = kind.encode()
    key = _bytes(32 if "ed25519" in kind else 270, seed)
    return len(name).to_bytes(4, "big") + name + len(key).to_bytes(4, "big") + key


def _pgp_packet(tag: int, seed: int) -> bytes:
    body = bytes([4]) + (1733011200).to_bytes(4, "big") + bytes([22]) + _bytes(120, seed)
    return bytes([0xC0 | tag, len(body)]) + body


def _token(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


def _gh_token(seed: int) -> str:
    return "ghp" + "_" + _token(36, seed)


def _secrets(text: str) -> list[str]:
    return [f"{f.category}/{f.rule}" for f in scan(text) if f.category == "secret"]


# ---- public material: nothing found ----

def _benign_notes() -> list[tuple[str, str]]:
    cert = _armour("CERTIFICATE", _cert_der(seed=31))
    spki = _armour("PUBLIC KEY", _der(b"\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01", 260, 32))
    pgp = ("-----BEGIN PGP PUBLIC KEY BLOCK-----\nComment: signing key of the build farm\n\n"
           + _wrap(base64.b64encode(_pgp_packet(6, 33) + _pgp_packet(2, 34)).decode(), 64)
           + "\n=Qx7w\n-----END PGP PUBLIC KEY BLOCK-----")
    ed = "ssh-ed25519 " + base64.b64encode(_ssh_blob("ssh-ed25519", 35)).decode() + " deploy@build-07"
    rsa_body = base64.b64encode(_ssh_blob("ssh-rsa", 36)).decode()
    rsa_wrapped = _wrap("ssh-rsa " + rsa_body + " ops@bastion", 72)
    ecdsa = ("bastion.corp,10.1.2.3 ecdsa-sha2-nistp256 "
             + base64.b64encode(_ssh_blob("ecdsa-sha2-nistp256", 37)).decode())
    sri = "sha384-" + base64.b64encode(_bytes(48, 38)).decode()
    png = b"\x89PNG\r\n\x1a\n" + _bytes(300, 39)
    webp = b"RIFF" + (400).to_bytes(4, "little") + b"WEBPVP8 " + _bytes(300, 40)
    tar_gz = gzip.compress(_bytes(600, 41) + b"\x00" * 200)
    log_gz = gzip.compress("\n".join(f"2025-03-0{i % 9 + 1} 04:1{i % 10}:00 job {i} ok, 0 retries"
                                     for i in range(40)).encode())
    csv_b64 = base64.b64encode("\n".join(f"day,{i},{i * 37 % 101}" for i in range(30)).encode()).decode()
    return [
        ("a certificate", "TLS cert of the staging gateway (public):\n" + cert),
        ("a public key", "verify webhooks with this key:\n" + spki),
        ("a PGP public key", "导入发布签名公钥：\n" + pgp),
        ("an ssh-ed25519 key", "authorized_keys on the runner:\n" + ed),
        ("a wrapped ssh-rsa key", "the laptop's public key, wrapped by the terminal:\n" + rsa_wrapped),
        ("a known_hosts line", "known_hosts:\n" + ecdsa),
        ("a wrapped SRI hash", "yarn.lock integrity for left-pad:\n  integrity " + sri[:50] + "\n" + sri[50:]),
        ("a PNG", "图标（PNG，base64）：\n" + _wrap(base64.b64encode(png).decode(), 76)),
        ("a WebP", "inline thumbnail:\n" + _wrap(base64.b64encode(webp).decode(), 60)),
        ("a gzip'd tarball", "fixture archive, base64:\n" + _wrap(base64.b64encode(tar_gz).decode(), 76)),
        ("a gzip'd log", "压测日志 gzip+base64：\n" + _wrap(base64.b64encode(log_gz).decode(), 64)),
        ("Base64 of a CSV", "metrics export:\n    " + "\n    ".join(_wrap(csv_b64, 64).split("\n"))),
    ]


@pytest.mark.parametrize("label,note", _benign_notes(), ids=[k for k, _ in _benign_notes()])
def test_public_material_is_not_a_secret(label, note):
    assert scan(note) == [], label


def test_a_single_line_ssh_key_is_public_whatever_its_base64_spells():
    body = base64.b64encode(_ssh_blob("ssh-rsa", 36)).decode()
    body = body[:80] + "PINab12Cd" + body[89:]  # a key word inside the Base64 changes nothing
    assert scan("ssh-rsa " + body + " me@laptop") == []


# ---- the same shapes holding a secret: still found ----

def test_a_private_key_under_a_public_label_is_still_found():
    note = "key for the VPN:\n" + _armour("PUBLIC KEY", _pkcs8_der(seed=51))
    assert public_spans(note) == []
    assert _secrets(note)


def test_a_pgp_secret_key_packet_under_a_public_label_is_not_public():
    armour = ("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
              + _wrap(base64.b64encode(_pgp_packet(5, 52)).decode(), 64) + "\n-----END PGP PUBLIC KEY BLOCK-----")
    assert public_spans("exported:\n" + armour) == []


def test_an_ssh_label_before_random_base64_is_not_a_key():
    fake = "AAAA" + _token(60, 53)
    assert public_spans("ssh-ed25519 " + fake + " x@y") == []


def test_base64_of_text_with_a_secret_is_read_decoded():
    token = _gh_token(54)
    config = json.dumps({"retries": 3, "ci": {"github_token": token, "region": "ap-east-1"}}, indent=2)
    note = "the ConfigMap's data, base64:\n" + _wrap(base64.b64encode(config.encode()).decode(), 64)
    assert text_blocks(note)
    found = [f for f in scan(note) if f.category == "secret"]
    assert found and token not in " ".join(f.excerpt for f in found)


def test_gzip_of_text_with_a_secret_is_read_decoded():
    token = _gh_token(55)
    env = f"NODE_ENV=production\nGH_TOKEN={token}\nPORT=8080\n"
    note = "备份的 .env（gzip 后 base64）：\n" + _wrap(base64.b64encode(gzip.compress(env.encode())).decode(), 76)
    assert _secrets(note)


def test_a_random_key_alone_on_a_line_after_its_key_word_is_still_found():
    secret = _token(30, 56) + "/" + _token(9, 57)
    note = f"backup job env:\nBUCKET=nightly-dumps\nMINIO_SECRET_KEY=\n{secret}\nREGION=cn-north-1"
    assert public_spans(note) == []
    assert _secrets(note)


def test_random_bytes_seldom_pass_for_a_public_format():
    rng = random.Random(58)
    hits = sum(classify(rng.randbytes(30)) == "public" for _ in range(20000))
    assert hits <= 2


def test_a_wrapped_certificate_is_stored_by_memory_py(ws, run_script):
    note = "内部 CA 根证书（公开的）：\n" + _armour("CERTIFICATE", _cert_der(seed=59))
    r = run_script("memory", "learn", "ca-root", "--text", note, "--json")
    assert r.code == 0, r.err
    assert "BEGIN CERTIFICATE" in (ws / "memory" / "knowledge" / "ca-root.md").read_text(encoding="utf-8")
