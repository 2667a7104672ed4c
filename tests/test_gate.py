import json

import pytest

from memory_manager import auditlog, gate
from memory_manager.config import load_config
from memory_manager.errors import BadInputError

SECRET = "token sk-" + "A" * 40
HEALTH = "user was diagnosed with diabetes"


def cfg_mode(mode):
    cfg = load_config()
    cfg["gate"]["mode"] = mode
    return cfg


ORDINARY_STORE = {
    # (mode, source): decision for ordinary content that is not approved
    ("auto", "explicit_user"): "proceed",
    ("auto", "approved_preference"): "proceed",
    ("auto", "tool_output"): "proceed",
    ("auto", "inferred"): "request_approval",
    ("auto", "third_party"): "ask",
    ("auto", "unknown"): "ask",
    ("strict", "explicit_user"): "request_approval",
    ("strict", "approved_preference"): "request_approval",
    ("strict", "tool_output"): "request_approval",
    ("strict", "inferred"): "request_approval",
    ("strict", "third_party"): "request_approval",
    ("strict", "unknown"): "request_approval",
}


@pytest.mark.parametrize("mode,source", sorted(ORDINARY_STORE))
def test_ordinary_store_for_each_source_and_mode(mode, source):
    d = gate.evaluate("store", "prefers concise status updates", source=source, cfg=cfg_mode(mode))
    assert d.decision == ORDINARY_STORE[(mode, source)]
    assert d.allowed == (d.decision == "proceed")
    approved = gate.evaluate("store", "prefers concise status updates", source=source, approved=True, cfg=cfg_mode(mode))
    assert approved.decision == "proceed"


SENSITIVE_STORE = {
    # declared class -> decision when stored unapproved by the user (both modes), and from an inferred source
    "personal": ("narrow", "avoid_storing"),
    "private": ("request_approval", "avoid_storing"),
    "financial": ("request_approval", "avoid_storing"),
    "health": ("request_approval", "avoid_storing"),
    "legal": ("request_approval", "avoid_storing"),
    "protected": ("request_approval", "avoid_storing"),
    "unknown": ("ask", "ask"),
}


@pytest.mark.parametrize("mode", ["auto", "strict"])
@pytest.mark.parametrize("level", sorted(SENSITIVE_STORE))
def test_sensitive_store_for_each_class(mode, level):
    cfg = cfg_mode(mode)
    user = gate.evaluate("store", "a plain sentence", source="explicit_user", sensitivity=level, cfg=cfg)
    inferred = gate.evaluate("store", "a plain sentence", source="inferred", sensitivity=level, cfg=cfg)
    assert (user.decision, inferred.decision) == SENSITIVE_STORE[level]
    assert user.sensitivity == level and not user.allowed
    assert gate.evaluate("store", "a plain sentence", source="explicit_user", sensitivity=level,
                         approved=True, cfg=cfg).decision == "proceed"


@pytest.mark.parametrize("mode", ["auto", "strict"])
@pytest.mark.parametrize("source", gate.SOURCES)
def test_secrets_and_credentials_are_refused_always(mode, source):
    for kwargs in ({"text": SECRET}, {"text": "fine", "sensitivity": "credential"}):
        text = kwargs.pop("text")
        d = gate.evaluate("store", text, source=source, approved=True, cfg=cfg_mode(mode), **kwargs)
        assert d.decision == "refuse" and d.approval == "denied" and not d.allowed
        assert gate.evaluate("export", text, approved=True, cfg=cfg_mode(mode), **kwargs).decision == "refuse"


@pytest.mark.parametrize("source", ["explicit_user", "third_party", "tool_output"])
def test_a_possible_finding_is_refused_unless_approved_and_names_category_and_flag(source):
    text = "mail me at li.wei" + "@" + "mailbox-hq.net"
    d = gate.evaluate("store", text, source=source, cfg=cfg_mode("auto"))
    assert d.decision == "request_approval" and not d.allowed and d.approved_findings == []
    assert d.reasons == ["possible email found: not stored unless the user confirms it is fine to keep; "
                         "then repeat with --approved"]
    ok = gate.evaluate("store", text, source=source, approved=True, cfg=cfg_mode("auto"))
    assert ok.decision == "proceed" and ok.approval == "explicit"
    assert [(c, r, conf) for c, r, conf, _ in ok.approved_findings] == [("email", "email", "possible")]
    inferred = gate.evaluate("store", text, source="inferred", cfg=cfg_mode("auto"))
    assert inferred.decision == "avoid_storing"


def test_approved_possible_findings_are_recorded_by_value_not_by_content(ws):
    from memory_manager.privacy import scan

    text = "call Li on +44 20 7946 0321 after lunch"
    gate.record(ws, gate.evaluate("store", text, source="explicit_user", cfg=cfg_mode("auto")))
    assert not gate.approvals_path(ws).exists()  # refused: nothing approved
    gate.record(ws, gate.evaluate("store", text, source="explicit_user", approved=True, cfg=cfg_mode("auto")))
    raw = gate.approvals_path(ws).read_text(encoding="utf-8")
    assert "7946" not in raw and json.loads(raw)["category"] == "phone"
    assert json.loads(raw)["confidence"] == "possible" and len(json.loads(raw)["key"]) == 32
    book = gate.approval_book(ws)
    moved = "- 改: +44 20 7946 0321 (Li)"
    other = "- 改: +44 20 7946 0999 (Li)"
    assert [book.covers(f, moved) for f in scan(moved)] == [True]
    assert [book.covers(f, other) for f in scan(other)] == [False]
    assert gate.finding_approved(ws, scan(moved)[0], moved)


def test_a_health_fact_labelled_ordinary_is_held():
    d = gate.evaluate("store", HEALTH, source="explicit_user", sensitivity="ordinary", cfg=cfg_mode("auto"))
    assert d.sensitivity == "health" and d.decision == "request_approval"
    assert "diabetes" not in d.summary and "[health]" in d.summary


@pytest.mark.parametrize("mode", ["auto", "strict"])
@pytest.mark.parametrize("operation", ["edit", "delete", "import", "export"])
def test_edits_deletes_imports_exports_need_approval(mode, operation):
    d = gate.evaluate(operation, "ordinary note", source="explicit_user", cfg=cfg_mode(mode))
    assert d.decision == "request_approval" and d.approval == "required"
    assert gate.evaluate(operation, "ordinary note", approved=True, cfg=cfg_mode(mode)).decision == "proceed"


def test_deleting_a_secret_is_allowed_with_approval():
    assert gate.evaluate("delete", SECRET, approved=True, cfg=cfg_mode("auto")).decision == "proceed"


@pytest.mark.parametrize("mode,tier,text,expected", [
    ("auto", None, "ordinary", "proceed"),
    ("auto", "internal", "ordinary", "request_approval"),
    ("auto", "internal", HEALTH, "request_approval"),
    ("strict", None, "ordinary", "request_approval"),
    ("strict", "internal", "ordinary", "request_approval"),
])
def test_reuse(mode, tier, text, expected):
    assert gate.evaluate("reuse", text, source="explicit_user", tier=tier, cfg=cfg_mode(mode)).decision == expected


def test_unknown_operation_asks_and_bad_values_are_bad_input():
    assert gate.evaluate("unknown", "x", cfg=cfg_mode("auto")).decision == "ask"
    assert gate.evaluate("none", "x", cfg=cfg_mode("strict")).decision == "proceed"
    for kwargs in ({"operation": "steal"}, {"operation": "store", "source": "me"},
                   {"operation": "store", "sensitivity": "meh"}):
        op = kwargs.pop("operation")
        with pytest.raises(BadInputError):
            gate.evaluate(op, "x", cfg=cfg_mode("auto"), **kwargs)


def test_block_and_payload_use_the_seed_field_names():
    d = gate.evaluate("store", "prefers dark mode", source="explicit_user", cfg=cfg_mode("auto"), request="remember dark mode")
    assert d.block().split("\n") == [
        "AANA memory gate:", "- Request: remember dark mode", "- Memory operation: store",
        "- Memory summary: prefers dark mode", "- Source: explicit_user", "- Relevance: relevant",
        "- Sensitivity: ordinary", "- Approval: implicit_low_risk", "- Decision: proceed"]
    assert list(d.payload())[:9] == ["user_request", "memory_operation", "memory_summary", "source_status",
                                     "relevance_status", "sensitivity_status", "approval_status",
                                     "lifecycle_status", "recommended_action"]


def test_audit_log_never_holds_raw_content(ws):
    for text in (SECRET, HEALTH, "ordinary preference"):
        gate.record(ws, gate.evaluate("store", text, source="explicit_user", cfg=cfg_mode("auto")))
    raw = auditlog.log_path(ws).read_text(encoding="utf-8")
    assert "A" * 20 not in raw and "sk-" not in raw and "diabetes" not in raw
    records = [json.loads(line) for line in raw.splitlines()]
    assert [r["decision"] for r in records] == ["refuse", "request_approval", "proceed"]
    assert records[0]["summary"].startswith("<") and records[0]["categories"] == ["secret"]
    # v2 (tatk10): a refused (T3) item keeps no hash; the others a hash keyed with a secret
    # outside the workspace (here the local hash-secret: no T2 key), and no salt beside the log.
    assert records[0]["hash"] is None and records[0]["kid"] is None
    assert all(len(r["hash"]) == 32 and r["kid"] == "local" and r["v"] == 3 for r in records[1:])
    again = auditlog.append(ws, gate.evaluate("store", HEALTH, cfg=cfg_mode("auto")))
    assert again["hash"] == records[1]["hash"]  # same content, same keyed hash
    assert not (auditlog.log_path(ws).parent / "audit-salt").exists()


def test_t2_content_is_never_echoed(ws):
    d = gate.evaluate("store", "prefers green tea at night", source="explicit_user", tier="internal",
                      cfg=cfg_mode("auto"))
    assert d.summary == "<26 chars of T2 (internal) memory>" and "tea" not in d.block()
    gate.record(ws, d)
    assert "tea" not in auditlog.log_path(ws).read_text(encoding="utf-8")
