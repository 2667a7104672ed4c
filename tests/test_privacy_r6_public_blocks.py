"""Public material in a note hides nothing else (tatk7, the trust attack on round 6's structure reading).

The detector skips certificates, public keys, SSH public keys, SRI digests, public JWK members
and Base64 of public formats (``memory_manager.structure.public_spans``). Each test plants a
secret inside or right after such material and checks it is still found, and that the genuine
public material alone still gives no finding. Values are built at run time (tests/test_layout.py).
"""
from __future__ import annotations

import base64
import gzip
import random
import string
import textwrap

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, rsa

from memory_manager.privacy import scan


def _token(prefix: str = "gh" + "p_", n: int = 36, seed: int = 1) -> str:
    rng = random.Random(seed)
    return prefix + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


def _rules(text: str) -> set[str]:
    return {f.rule for f in scan(text)}


def _wrap(data: bytes) -> str:
    return "\n".join(textwrap.wrap(base64.b64encode(data).decode(), 64))


@pytest.fixture(scope="module")
def pem_public() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo).decode()


@pytest.fixture(scope="module")
def ssh_public() -> str:
    key = ed25519.Ed25519PrivateKey.generate()
    return key.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()


def test_public_blocks_alone_are_not_flagged(pem_public, ssh_public):
    assert scan(pem_public) == []
    assert scan(f"deploy key:\n{ssh_public}\n") == []


@pytest.mark.parametrize("label", ["CERTIFICATE", "PUBLIC KEY", "PGP PUBLIC KEY BLOCK"])
def test_a_token_line_inside_an_armoured_public_block_is_found(pem_public, label):
    token = _token()
    lines = pem_public.strip().split("\n")
    body = lines[1:-1]
    text = "\n".join([f"-----BEGIN {label}-----", *body[:2], f"github token: {token}", *body[2:],
                      f"-----END {label}-----"])
    assert "github_token" in _rules(text)
    # an empty block, and a block whose END line is far below, hide nothing either
    assert "github_token" in _rules(f"-----BEGIN {label}-----\ngithub token: {token}\n-----END {label}-----")
    assert "github_token" in _rules(f"-----BEGIN {label}-----\n{token}\n" + "notes\n" * 30 + f"-----END {label}-----")


def test_a_token_on_the_line_after_an_ssh_public_key_is_found(ssh_public):
    token = _token()
    assert "github_token" in _rules(f"{ssh_public}\n{token}")
    assert "github_token" in _rules(f"{ssh_public}\n{token} is the deploy token")


def test_lines_after_a_short_sri_digest_are_not_its_wrapping():
    key_id = "AKIA" + _token("", 16, 3).upper()
    text = "integrity sha512-" + "A" * 20 + "\n" + key_id + "\n" + _token("", 40, 5) + "\n"
    assert "aws_access_key_id" in _rules(text)
    digest = base64.b64encode(bytes(range(64))).decode()
    assert scan(f"integrity sha512-{digest[:60]}\n{digest[60:]}\n") == []


def test_public_jwk_members_hold_only_their_public_values():
    token = _token()
    assert "github_token" in _rules('{"kty":"RSA","n":"' + token + '","e":"AQAB"}')
    text = '{"kty":"OKP","x": "\npassword: Tr0ub4dor&3xyz!\nmy github token ' + token + '\n"}'
    assert {"github_token", "password_assignment"} <= _rules(text)
    modulus = base64.urlsafe_b64encode(random.Random(2).randbytes(256)).decode().rstrip("=")
    assert scan('{"kty":"RSA","use":"sig","n":"' + modulus + '","e":"AQAB"}') == []


def test_a_gzip_of_binary_bytes_then_a_token_is_read():
    token = _token()
    payload = ("github token: " + token + "\n").encode()
    assert "github_token" in _rules(_wrap(gzip.compress(bytes(range(8)) * 3 + payload)))
    assert "github_token" in _rules(_wrap(gzip.compress(payload)))


def test_a_note_with_a_token_in_a_certificate_block_is_not_stored(ws, run_script, pem_public):
    # Through the real verb: the gate refuses the note and nothing reaches disk.
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en")
    assert r.code == 0, r.err
    token = _token(seed=7)
    lines = pem_public.strip().split("\n")
    block = "\n".join([lines[0], lines[1], f"github token: {token}", *lines[2:]])
    r = run_script("memory", "write", "--topic", "deploy", "--change", block)
    assert r.code == 1, r.out + r.err
    assert not any(token in p.read_text(encoding="utf-8", errors="replace")
                   for p in (ws / "memory").rglob("*") if p.is_file())


@pytest.mark.xfail(strict=True, reason="atk8: a run glued to an SRI-looking prefix is not decoded "
                                       "(the run starts at 'sha384-', so its Base64 never lines up)")
def test_a_token_in_base64_behind_a_wrong_size_sri_prefix_is_found():
    token = _token()
    assert "github_token" in _rules(f'integrity="sha384-{base64.b64encode(token.encode()).decode()}"')


@pytest.mark.xfail(strict=True, reason="atk8: Base64 of gzip on one line (not a block of whole lines) "
                                       "is not decompressed by the decoding pass")
def test_a_password_in_one_line_base64_of_gzip_is_found():
    token = _token()
    blob = base64.b64encode(gzip.compress(f"password=Hunter2Secret!x9 token {token}".encode())).decode()
    assert "github_token" in _rules(f"blob {blob}")
