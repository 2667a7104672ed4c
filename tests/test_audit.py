"""The privacy audit over a real workspace tree.

Tier 2 reading is the store's job (memory_manager.tiers: iter_t2_entries,
decrypt_entry). These tests put a stand-in with that contract into
sys.modules, so they check the audit's side of the contract whether or not
the real module is installed.
"""
from __future__ import annotations

import json
import os
import random
import sys
import types
from pathlib import Path

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import privacy_fakes as fakes  # noqa: E402

from memory_manager.audit import XOR_WARNING, AuditItem, audit_paths, audit_workspace  # noqa: E402
from memory_manager.config import load_config  # noqa: E402
from memory_manager.errors import CryptoError, KeyUnavailableError, WorkspaceError  # noqa: E402


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def cfg(ws):
    return load_config(ws)


@pytest.fixture
def no_tiers(monkeypatch):
    """Make memory_manager.tiers unimportable."""
    monkeypatch.setitem(sys.modules, "memory_manager.tiers", None)


class FakeTiers:
    """A stand-in for memory_manager.tiers: entries and their plaintexts."""

    def __init__(self, ws: Path):
        self.ws = ws
        self.entries: list[types.SimpleNamespace] = []
        self.plain: dict[str, object] = {}

    def add(self, name: str, plaintext: object, *, expires="2026-04-01", scheme="aes-gcm", error=None,
            body: str | None = None) -> Path:
        path = self.ws / "memory" / "tier2-internal" / name
        ciphertext = body if body is not None else fakes.fill("{CIPHERTEXT}", random.Random(len(name)))
        write(path, f"---\ntier: internal\nsource_skill: demo\nkey_hint: demo-2026-03\ncreated: 2026-03-01\n"
                    f"expires: {expires}\nscheme: {scheme}\n---\n\n## Encrypted Entry\n> {ciphertext}\n")
        self.entries.append(types.SimpleNamespace(path=path, meta={}, created="2026-03-01", expires=expires,
                                                  scheme=scheme, error=error))
        self.plain[str(path)] = plaintext
        return path

    def module(self) -> types.ModuleType:
        mod = types.ModuleType("memory_manager.tiers")

        def iter_t2_entries(ws):
            assert Path(ws) == self.ws
            yield from self.entries

        def decrypt_entry(entry, cfg):
            value = self.plain[str(entry.path)]
            if isinstance(value, Exception):
                raise value
            return value

        mod.iter_t2_entries = iter_t2_entries
        mod.decrypt_entry = decrypt_entry
        return mod


@pytest.fixture
def tiers(ws, monkeypatch):
    fake = FakeTiers(ws)
    monkeypatch.setitem(sys.modules, "memory_manager.tiers", fake.module())
    return fake


def items(report, which="findings"):
    return [(i.file, i.line, i.check, i.category, i.rule, i.excerpt, i.decrypted) for i in getattr(report, which)]


def test_clean_workspace_report_exact(ws, cfg, tiers):
    write(ws / "MEMORY.md", "# Lessons\n- Run the tests before committing.\n")
    write(ws / "memory" / "daily" / "2026-03-03.md", "## [2026-03-03] 发布\n- 因：旧索引慢\n- 改：换成 BM25\n")
    report = audit_workspace(ws, cfg)
    assert report.clean
    doc = report.to_json()
    assert doc == {
        "format": "privacy-audit", "version": 1, "workspace": str(ws), "scope": "workspace", "clean": True,
        "summary": {"files_scanned": 2, "findings": 0, "notices": 0, "t2_entries": 0, "t2_decrypted": 0,
                    "t2_unreadable": 0, "unread_files": 0, "approved": 0},
        "checks": [
            {"id": "names_handles", "title": "No real names, usernames or handles", "passed": True, "findings": 0, "approved": 0, "status": "ok"},
            {"id": "keys_tokens", "title": "No API keys or tokens", "passed": True, "findings": 0, "approved": 0, "status": "ok"},
            {"id": "home_paths", "title": "No paths containing personal home directories", "passed": True,
             "findings": 0, "approved": 0, "status": "ok"},
            {"id": "schedules", "title": "No fixed personal schedules", "passed": True, "findings": 0, "approved": 0, "status": "ok"},
            {"id": "location", "title": "Nothing finer than city level", "passed": True, "findings": 0, "approved": 0, "status": "ok"},
            {"id": "t2_expiry", "title": "Every Tier 2 entry has an expiry date", "passed": True, "findings": 0, "approved": 0, "status": "ok"},
            {"id": "tier3", "title": "Tier 3 data never touches memory", "passed": True, "findings": 0, "approved": 0, "status": "ok"},
        ],
        "findings": [], "notices": [], "unreadable": [], "skipped": [], "unread_files": [], "warnings": [],
    }


def test_each_checklist_item_is_reported_with_file_line_and_redacted_excerpt(ws, cfg, tiers):
    key = fakes.fake("GITHUB_PAT")
    write(ws / "MEMORY.md", "# Lessons\n- my name is John Smith\n")
    write(ws / "memory" / "daily" / "2026-03-03.md",
          f"## [2026-03-03] setup\n- 改：token {key}\n- 待：logs in /home/zhangwei/app\n"
          "- Cause: user wakes up at 6am\n- 因：住在北京市朝阳区建国路88号\n- mail j.doe@acme-corp.io\n"
          "- 因：我有抑郁症\n")
    report = audit_workspace(ws, cfg)
    assert not report.clean
    day = "memory/daily/2026-03-03.md"
    assert items(report) == [
        ("MEMORY.md", 2, "names_handles", "name", "self_name_en", "my name is Jo********", False),
        (day, 2, "keys_tokens", "secret", "github_token", "ghp_********", False),
        (day, 3, "home_paths", "home_path", "home_path_linux", "/home/zh******", False),
        (day, 4, "schedules", "schedule", "clock_time_ampm", "***", False),
        (day, 5, "location", "address", "street_address_zh", "路***", False),
        (day, 6, "tier3", "email", "email", "j.do********", False),
    ]
    assert items(report, "notices") == [(day, 7, "sensitive_topics", "health", "health_terms_zh", "抑郁", False)]
    assert key not in json.dumps(report.to_json(), ensure_ascii=False)
    failed = {row["id"] for row in report.check_results() if not row["passed"]}
    assert failed == {"names_handles", "keys_tokens", "home_paths", "schedules", "location", "tier3"}


def test_derived_state_config_and_lock_are_not_scanned(ws, cfg, tiers):
    email = "me.person@gmail.com"
    write(ws / "memory" / ".cache" / "index.md", email)
    write(ws / "memory" / ".state" / "audit.log", email)
    write(ws / "memory" / ".lock", email)
    write(ws / "memory" / "memory-manager.json", json.dumps({"language": "en"}))
    write(ws / "memory" / "archive" / "2026-01" / "old.md", f"contact {email}\n")
    report = audit_workspace(ws, load_config(ws))
    assert [(i.file, i.category) for i in report.findings] == [("memory/archive/2026-01/old.md", "email")]
    assert report.files_scanned == 1


def test_symlinks_out_of_the_workspace_are_not_followed(ws, cfg, tiers, tmp_path):
    outside = write(tmp_path / "outside" / "secret.md", "mail me.person@gmail.com\n")
    (ws / "memory" / "daily").mkdir(parents=True)
    os.symlink(outside, ws / "memory" / "daily" / "link.md")
    os.symlink(outside.parent, ws / "memory" / "knowledge")
    inside = write(ws / "memory" / "daily" / "real.md", "ok\n")
    os.symlink(inside, ws / "memory" / "daily" / "alias.md")
    report = audit_workspace(ws, cfg)
    assert report.clean
    assert report.skipped == [
        {"file": "memory/daily/link.md", "reason": "symlink leads outside the workspace"},
        {"file": "memory/knowledge", "reason": "symlinked folder not followed"},
    ]
    assert report.files_scanned == 2


def test_file_that_is_not_utf8_makes_the_audit_not_clean(ws, cfg, tiers):
    """QA bug 6: an audit that could not read a file must not say clean."""
    write(ws / "memory" / "archive" / "blob.bin", b"\xff\xfe\x00garbage")
    report = audit_workspace(ws, cfg)
    assert not report.clean and report.findings == [] and report.skipped == []
    assert report.unread_files == [{"file": "memory/archive/blob.bin", "reason":
                                    "could not be read as UTF-8 text (not UTF-8 (byte 0)): not fully checked"}]


def test_t2_entries_are_decrypted_and_checked(ws, cfg, tiers):
    tiers.add("demo_ok.md", "prefers dark mode\n")
    tiers.add("demo_pii.md", "likes tea\ncall 13800138000\n")
    tiers.add("demo_noexp.md", "nothing here\n", expires=None)
    tiers.add("demo_locked.md", KeyUnavailableError("no AES key configured (MEMORY_MANAGER_KEY)"))
    tiers.add("demo_tampered.md", CryptoError("authentication tag mismatch"))
    tiers.add("demo_bad.md", "", error="expires is not a date: 'soon'")
    report = audit_workspace(ws, cfg)
    t2 = "memory/tier2-internal/"
    assert items(report) == [
        (t2 + "demo_noexp.md", None, "t2_expiry", "t2_expiry", "t2_expires_missing", "no 'expires' date", False),
        (t2 + "demo_pii.md", 2, "tier3", "phone", "phone", "13********", True),
    ]
    assert report.unreadable == [
        {"file": t2 + "demo_bad.md", "reason": "malformed entry: expires is not a date: 'soon'"},
        {"file": t2 + "demo_locked.md", "reason": "key_unavailable: no AES key configured (MEMORY_MANAGER_KEY)"},
        {"file": t2 + "demo_tampered.md", "reason": "crypto: authentication tag mismatch"},
    ]
    assert (report.t2_entries, report.t2_decrypted) == (6, 3)
    assert report.warnings == []
    # The ciphertext bodies themselves are never findings.
    assert all(i.decrypted or i.line is None for i in report.findings)


def test_ciphertext_lines_in_t2_files_are_masked(ws, cfg, tiers):
    # A body laid out without the seed's blockquote: the bare Base64 line is
    # still treated as ciphertext because the store says the file is a T2 entry.
    import base64

    path = tiers.add("demo_raw.md", "fine\n", body="x")
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace("> x\n", base64.b64encode(bytes(range(7, 55))).decode() + "\n"), encoding="utf-8")
    assert audit_workspace(ws, cfg).clean
    # A "ciphertext" line that spells a token as written is what the file holds in clear (round 9,
    # tatk9): it is read as written, reported by category, never quoted.
    path.write_text(original.replace("> x\n", fakes.fake("GITHUB_PAT") + "\n"), encoding="utf-8")
    report = audit_workspace(ws, cfg)
    assert not report.clean
    assert [(f.rule, f.category, f.excerpt) for f in report.findings] == [("ciphertext_in_clear", "secret", "[secret]")]


def test_xor_b64_is_called_obfuscation(ws, tiers):
    tiers.add("demo_xor.md", "fine\n", scheme="xor-b64")
    report = audit_workspace(ws, load_config(ws))
    # The warning ends with the one command that fixes it (walk-through r6, finding 3).
    command = f"{sys.executable} {ROOT / 'scripts' / 'crypt.py'} reseal -w {ws}"
    assert report.warnings == [f"{XOR_WARNING} 1 T2 entry uses it: run `{command}` to encrypt it with aes-gcm "
                               "(it makes the T2 key when there is none)."]
    assert report.clean  # a warning, not a checklist failure


def test_xor_b64_in_config_is_called_obfuscation(ws, tiers):
    write(ws / "memory" / "memory-manager.json", json.dumps({"tiers": {"encryption_scheme": "xor-b64"}}))
    report = audit_workspace(ws, load_config(ws))
    assert report.warnings == [f"{XOR_WARNING} tiers.encryption_scheme is xor-b64, so new T2 entries use it: "
                               f"set it to auto (or remove it) in {ws / 'memory' / 'memory-manager.json'}."]


def test_without_the_t2_reader_the_audit_still_scans_text(ws, cfg, no_tiers):
    write(ws / "memory" / "tier2-internal" / "demo_plain.md", "---\ntier: internal\n---\ncall 13800138000\n")
    report = audit_workspace(ws, cfg)
    assert [(i.file, i.category) for i in report.findings] == [("memory/tier2-internal/demo_plain.md", "phone")]
    assert len(report.warnings) == 1 and "not decrypted" in report.warnings[0]


def test_audit_paths_checks_only_the_given_files(ws, cfg, tiers, tmp_path):
    a = write(ws / "memory" / "daily" / "2026-03-03.md", "mail me.person@gmail.com\n")
    write(ws / "memory" / "daily" / "2026-03-04.md", "mail other.person@gmail.com\n")
    pii = tiers.add("demo_pii.md", "call 13800138000\n")
    tiers.add("demo_other.md", "call 13900139000\n")
    outside = write(tmp_path / "elsewhere.md", "mail x.person@gmail.com\n")
    report = audit_paths(ws, [a, "memory/tier2-internal/demo_pii.md", "memory/gone.md", outside], cfg)
    assert report.scope == "paths"
    assert [(i.file, i.category, i.decrypted) for i in report.findings] == [
        ("memory/daily/2026-03-03.md", "email", False),
        ("memory/tier2-internal/demo_pii.md", "phone", True),
    ]
    assert report.skipped == [{"file": outside.as_posix(), "reason": "outside the workspace"}]
    assert (report.files_scanned, report.t2_entries) == (2, 1)
    assert pii.exists()


def test_audit_paths_expands_folders_and_skips_cache(ws, cfg, tiers):
    write(ws / "memory" / "knowledge" / "a.md", "/Users/marysmith/notes\n")
    write(ws / "memory" / "knowledge" / ".cache" / "b.md", "/Users/marysmith/notes\n")
    report = audit_paths(ws, [ws / "memory" / "knowledge"], cfg)
    assert [(i.file, i.check) for i in report.findings] == [("memory/knowledge/a.md", "home_paths")]


def test_audit_paths_with_nothing_to_do(ws, cfg, tiers):
    report = audit_paths(ws, [], cfg)
    assert report.clean and report.files_scanned == 0 and report.warnings == []


def test_missing_workspace_is_bad_input(tmp_path, cfg):
    with pytest.raises(WorkspaceError):
        audit_workspace(tmp_path / "nope", cfg)


def test_audit_item_shape():
    item = AuditItem("MEMORY.md", 1, "tier3", "email", "email", "a***")
    assert item.decrypted is False
