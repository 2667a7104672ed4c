import json

import pytest

from memory_manager import auditlog


def test_proceed_prints_the_block_and_exits_0(ws, run_script):
    r = run_script("gate", "--operation", "store", "--text", "prefers dark mode", "--source", "explicit_user",
                   "--request", "remember dark mode")
    assert r.code == 0
    assert r.out.splitlines() == ["AANA memory gate:", "- Request: remember dark mode", "- Memory operation: store",
                                  "- Memory summary: prefers dark mode", "- Source: explicit_user",
                                  "- Relevance: relevant", "- Sensitivity: ordinary",
                                  "- Approval: implicit_low_risk", "- Decision: proceed"]
    assert [rec["decision"] for rec in auditlog.read(ws)] == ["proceed"]


@pytest.mark.parametrize("args,decision", [
    (["--operation", "store", "--text", "token sk-" + "E" * 40, "--approved"], "refuse"),
    (["--operation", "store", "--text", "had cancer surgery", "--sensitivity", "ordinary"], "request_approval"),
    (["--operation", "export", "--text", "notes"], "request_approval"),
    (["--operation", "store", "--text", "likes tea", "--source", "third_party"], "ask"),
    (["--operation", "store", "--text", "likes tea", "--source", "inferred", "--sensitivity", "health"], "avoid_storing"),
])
def test_holds_and_refusals_exit_1_with_the_payload(ws, run_script, args, decision):
    r = run_script("gate", *args, "--json")
    doc = json.loads(r.out)
    assert r.code == 1 and doc["recommended_action"] == decision and doc["allowed"] is False
    assert "sk-" not in r.out


def test_strict_mode_from_config(ws, run_script):
    (ws / "memory").mkdir()
    (ws / "memory/memory-manager.json").write_text('{"gate": {"mode": "strict"}}')
    r = run_script("gate", "--operation", "store", "--text", "likes tea", "--source", "explicit_user")
    assert r.code == 1 and "- Decision: request_approval" in r.out


def test_bad_operation_is_usage_error(ws, run_script):
    r = run_script("gate", "--operation", "steal", "--text", "x")
    assert r.code == 2 and r.err.startswith("error:")
