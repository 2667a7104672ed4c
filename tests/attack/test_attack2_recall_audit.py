"""Attack 2 (issues 9/10): recall masking at the snippet cut, and the audit of file names.

Each test reproduces a leak found from the outside on 2026-11-30 (fails on main ad9c8d5).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import phrasings as P  # noqa: E402
from phrasings import GHP, SK, SK_LIVE  # noqa: E402


def _init(run_script):
    r = run_script("init", "--yes", "--no-hooks")
    assert r.code == 0, r.err


# A secret, then a query word close behind it: the snippet window starts inside the secret.
CUT_CASES = [
    ("github", f"{GHP}Zk8Wq2Xm7Lp4Rt9Vb3Nc6Yh1Jd5Fs0Ga2E01", "", f"{GHP}Zk8Wq2Xm7Lp4Rt9Vb3Nc6Yh1Jd5Fs0Ga2E01"),
    ("password", "the password is Quokka93xzTern", "x " * 7, "Quokka93xzTern"),
    ("cn_id", "身份证 " + P.CNID1, ("x " * 11)[:21], P.CNID1),
    ("aws_secret", "aws_secret_access_key = wJa1rXUtnFEMIK7MDENGbPxRfiCYz9mKeyQ2", "",
     "wJa1rXUtnFEMIK7MDENGbPxRfiCYz9mKeyQ2"),
    ("stripe", f"{SK_LIVE}51Hq8ZpL2kT9vX3mN7bR4cW6yJ1dF0sA", "", f"{SK_LIVE}51Hq8ZpL2kT9vX3mN7bR4cW6yJ1dF0sA"),
]


@pytest.mark.parametrize("name,secret,spacer,value", CUT_CASES, ids=[c[0] for c in CUT_CASES])
def test_recall_snippet_never_shows_more_than_4_chars_of_a_secret(ws, run_script, name, secret, spacer, value):
    """Recall must mask first and cut second: a window opening inside the secret shows none of it."""
    _init(run_script)
    (ws / "memory" / "2026-11-26.md").write_text(
        f"# 2026-11-26\n\n## deploy {name}\n- alpha beta {secret} {spacer} okapi\n", encoding="utf-8")
    r = run_script("memory", "recall", "okapi", "--json")
    assert r.code == 0, r.err
    hits = json.loads(r.out)["hits"]
    assert hits, "the note must still be found"
    shown = " ".join(h["snippet"] + " " + h["heading"] for h in hits)
    # any 5 consecutive characters of the value after its first 4 is a leak
    leaked = [value[i:i + 5] for i in range(4, len(value) - 4) if value[i:i + 5] in shown]
    assert not leaked, f"snippet shows part of the secret: {shown!r}"


NAME_CASES = [
    ("knowledge/glpat-Zx8Kq2Lm9Vb4Nc7Rt1Wy.md", "glpat-Zx8Kq2Lm9Vb4Nc7Rt1Wy"),
    ("knowledge/我的身份证" + P.CNID1 + ".md", P.CNID1),
    (f"tier1-public/{SK}ant-api03-Qw3rTy7uIo9pAs1dFg5hJk2lZx_stats.json", f"{SK}ant-api03-Qw3rTy7uIo9pAs1dFg5hJk2lZx"),
    (f"archive/{GHP}Zk8Wq2Xm7Lp4Rt9Vb3Nc6Yh1Jd5Fs0Ga2000/x.md", f"{GHP}Zk8Wq2Xm7Lp4Rt9Vb3Nc6Yh1Jd5Fs0Ga2000"),
]


@pytest.mark.parametrize("rel,secret", NAME_CASES, ids=["gitlab_pat", "cn_id", "anthropic", "github_folder"])
def test_audit_scans_file_and_folder_names(ws, run_script, rel, secret):
    """A secret in a file or folder name under memory/ is an audit finding (issue 10)."""
    _init(run_script)
    assert run_script("memory", "learn", "ripgrep", "--text", "use rg -uu for hidden files").code == 0
    src = (ws / "memory" / "knowledge" / "ripgrep.md").read_text(encoding="utf-8")
    target = ws / "memory" / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if rel.endswith(".json"):
        target.write_text('{"format":"cmm-t1-stats","version":1,"skill_stats":{},"patterns_observed":[]}')
    else:
        target.write_text(src, encoding="utf-8")
    r = run_script("privacy_audit", "--json")
    doc = json.loads(r.out)
    assert doc["clean"] is False and r.code != 0, f"audit passed a secret in a file name: {doc['summary']}"
    assert all("confidence" in f for f in doc["findings"])


def test_audit_report_does_not_print_a_secret_file_name_in_full(ws, run_script):
    """The audit report names the file: a secret in that name must be masked like an excerpt."""
    _init(run_script)
    secret = f"{SK}proj-FILENAMEleak9fK2mQ7vR3tY8wZ1bN4c"
    (ws / "memory" / "knowledge" / f"{secret}.md").write_text(
        f"---\nformat: cmm-knowledge\nversion: 1\nid: k-00000000aa\nkey: {secret}\ntags: [ops]\n"
        "created: 2026-11-29\nupdated: 2026-11-29\n---\n\nharmless body\n", encoding="utf-8")
    r = run_script("privacy_audit", "--json")
    doc = json.loads(r.out)
    assert doc["findings"], "the key in the frontmatter is found"
    assert secret not in r.out and secret[4:20] not in r.out, "audit output repeats the secret via the file path"
