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


def _openai_key() -> str:
    import random

    rng = random.Random(11)
    return "sk-" + "proj-" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                                     for _ in range(48))


def test_request_line_is_redacted_like_the_summary(ws, run_script):
    key = _openai_key()
    r = run_script("gate", "--operation", "store", "--text", "likes tea", "--request", f"save {key} now")
    assert "- Request: save [secret] now" in r.out.splitlines()
    assert key not in r.out + r.err
    r = run_script("gate", "--operation", "store", "--text", "likes tea", "--request", f"save {key}", "--json")
    assert json.loads(r.out)["user_request"] == "save [secret]"


@pytest.mark.parametrize("args, request_line", [
    (["write", "--topic", "KEY", "--change", "hi"], "- Request: write daily note '[secret]'"),
    (["stats", "record", "--skill", "john.smith@gmail.com", "--ok"], "- Request: update statistics of '[email]'"),
    (["learn", "zhang.san@gmail.com", "--text", "hi"], "- Request: learn '[email]'"),
])
def test_store_verbs_never_echo_the_refused_value_in_the_request(ws, run_script, args, request_line):
    key = _openai_key()
    args = [key if a == "KEY" else a for a in args]
    r = run_script("memory", *args, "--verbose")  # the gate block (with its Request line) comes with --verbose
    assert r.code in (1, 2), r.err
    assert request_line in r.err.splitlines()
    for secret in (key, "john.smith@gmail.com", "zhang.san@gmail.com"):
        assert secret not in r.out + r.err
    r = run_script("memory", *args, "--json")
    doc = json.loads(r.out)
    assert doc["gate"]["user_request"] == request_line.removeprefix("- Request: ")
    log = (ws / "memory/.state/gate-audit.jsonl").read_text(encoding="utf-8")
    assert key not in log and "gmail.com" not in log


def test_request_keeps_values_recognised_only_in_the_content():
    from memory_manager import gate

    d = gate.evaluate("store", "my password is Tr0ub4dor&3x", source="explicit_user", cfg={},
                      request="remember Tr0ub4dor&3x")
    assert d.request == "remember [secret]" and d.decision == "refuse"
