"""Attack round 20 (quick, tatk20): a fresh attacker against main at 80506fa.

Targets what landed in round 19 (git log 2e8032e..80506fa): this machine's note of a store's key
(anchor.py), the rollback's own backup and the emptied journal, forged forward plans, the refusal of an
id several files hold and the ``<path>#<id>`` form, and the masking of tokens in values from the
environment and in printed paths. Each test plays one attack that got through, against the real scripts
on real files in a temporary workspace, and asserts the promised behaviour. Strict xfails until fixed.

Found (tests here):
1. (medium) A token in the path of ``<path>#<id>`` (show, forget, edit, unquarantine, unarchive) is printed in
   full by the "memory path ... leads outside" refusal; the same path without ``#<id>`` is masked.
2. (low) A token in the workspace folder given with ``-w`` is printed in full in the ``workspace`` field of
   ``cleanup --json`` (and ``--dry-run``) and ``privacy_audit.py --json``; init and doctor mask it.
3. (medium) ``MEMORY_MANAGER_NOW="<date> <token>"``: the clock's error cuts the value to 60 characters before
   masking, the cut token no longer reads as one, and 30 of its 36 characters are printed (every verb).
4. (low) The next command's rollback of a killed ``learn`` leaves a knowledge file the user replaced since
   (by a folder or a symlink) as it is and says only "rolled back an interrupted learn foo": the restore's
   note naming the file and its copy is never shown; the entry is in no live file.
5. (medium) A forged ``forget`` plan beside a finished forget's backup naming live knowledge and daily files
   is finished: every backup's copy of them is erased and their backups stop being restore points.
6. (low) A token in ``HOME`` or ``OPENCLAW_STATE_DIR`` is printed in full in the hook's Gateway log line
   ("no session store for agent main in ..."); detect.py masks the same line.
7. (high) A forged ``purge`` plan beside a finished cleanup's backup naming a live, unexpired, unflagged T2
   entry deletes it; no backup holds its text (remember created the file), no restore brings it back.
8. (low) ``forget archive/<month>/s_t.md#<id>`` of an expired T2 entry whose skill and topic were remembered
   again (the same id, live) also nulls the live entry's gate-audit record (hash, entry, key).
9. (high) ``crypt.py keygen --force`` killed after it noted the new key (record, and this machine's note) but
   before it linked the key file: the store's key is one that exists nowhere; with the real key put back,
   remember and cleanup refuse it ("not this store's key") for good, and the note outside the workspace
   (which wins over the record) keeps it so.
10. (medium) ``learn foo`` (a second fact) killed after it wrote the file, then the user appends a line: the
   next command says "rolled back an interrupted learn foo", yet the file keeps the interrupted fact (its
   insertion intact) and is not named; the user was never told the fact was stored.

Tried and held (no test here): anchor: the store's key file removed and the workspace re-made at the same path
with --no-key (its v2:local mark kept), a moved workspace with the record deleted and the key away (noted
keyless, then noted keyed again by the first cleanup with the key), XDG_CONFIG_HOME relative to a workspace cwd
(refused), a token in XDG_CONFIG_HOME / HOME through init, keygen, remember, cleanup, doctor, status (masked);
``<path>#<id>``: ``../``, absolute paths, symlinked folders, .memory-backup copies, hand copies of a knowledge
file, AGENTS.md, live files given to unquarantine/unarchive, archived files to edit (refused), two quarantined
entries picked by path (right one forgotten / restored); a knowledge key learned, pruned, learned again,
pruned again and learned a third time (three ids), unarchive over a live key (refused); report --html with a
token cut at '/', ' /', '\t/ ', '//', '/./', '/../', a zero-width space or a folder between (refused);
a token in the workspace folder through 15 verbs (masked, also in the printed restore command); a kill at
each of the 19 steps of the command that rolls back a killed learn over a user's edit (the user's bytes kept
in the rollback backup, the original back).
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from .trust_r4_common import NOW, TOKEN, _init


def _learn_foo(run_script) -> str:
    _init(run_script)
    r = run_script("memory", "learn", "foo", "--text", "The build server is blue.", env=NOW)
    assert r.code == 0, r.err
    return r.out.split("[")[1].split("]")[0]


# ---- 1: a token in <path>#<id> echoed by the 'leads outside' error

@pytest.mark.parametrize("verb", ["show", "forget", "edit", "unquarantine", "unarchive"])
def test_a_token_in_a_path_hash_id_is_masked(ws, run_script, verb):
    where = "/x/{t}" if verb in ("show", "unarchive") else "../{t}"
    ident = _learn_foo(run_script)
    extra = {"edit": ["--text", "hi", "--approved"], "forget": ["--approved"],
             "unquarantine": ["--approved"]}.get(verb, [])
    plain = run_script("memory", verb, where.format(t=TOKEN), *extra, env=NOW)
    assert plain.code != 0 and TOKEN not in plain.out + plain.err  # the path alone: masked
    r = run_script("memory", verb, where.format(t=TOKEN) + "#" + ident, *extra, env=NOW)
    assert r.code != 0, r.out + r.err
    assert "leads outside" in r.err or "no memory entry" in r.err, r.err
    assert TOKEN[8:] not in r.out + r.err


# ---- 2: a token in -w echoed by cleanup --json and privacy_audit --json

@pytest.mark.parametrize("cmd", [("cleanup", "--json"), ("cleanup", "--dry-run", "--json"),
                                 ("privacy_audit", "--json")])
def test_a_token_in_the_workspace_folder_is_masked_in_json(tmp_path, run_script, cmd):
    w = tmp_path / TOKEN / "ws"
    w.mkdir(parents=True)
    assert run_script("init", "-w", w, "--yes", "--no-hooks", "--lang", "en", env=NOW).code == 0
    shown = json.loads(run_script("init", "-w", w, "--list-backups", "--json", env=NOW).out)["workspace"]
    assert TOKEN not in shown  # init masks it (tatk18 4)
    r = run_script(cmd[0], "-w", w, *cmd[1:], env=NOW)
    assert r.code == 0, r.err
    assert TOKEN[8:] not in r.out + r.err, json.loads(r.out)["workspace"]


# ---- 3: a token in MEMORY_MANAGER_NOW, cut before it is masked

@pytest.mark.parametrize("cmd", [("memory", "status"), ("cleanup", "--json"), ("privacy_audit",), ("crypt", "keygen"),
                                 ("memory", "report", "--html", "{tmp}/r.html")])
def test_a_token_after_a_date_in_memory_manager_now_is_masked(ws, run_script, tmp_path, cmd):
    _init(run_script)
    alone = run_script("memory", "status", env={"MEMORY_MANAGER_NOW": TOKEN})
    assert alone.code == 2 and "[secret]" in alone.err  # the token alone: masked (tatk18 3)
    bad = {"MEMORY_MANAGER_NOW": "2026-11-29T12:00:00+00:00 " + TOKEN}
    r = run_script(*[c.format(tmp=tmp_path) for c in cmd], env=bad)
    assert r.code == 2 and "is not an ISO 8601 date or time" in r.out + r.err, r.out + r.err
    assert TOKEN[4:20] not in r.out + r.err


# ---- 4: a rollback leaves a file replaced since, and says nothing

def _step_of(ws: Path, tmp_path: Path, run_script, label: str, *args: str) -> int:
    """The number of the first step of ``memory.py *args`` whose label starts with ``label`` (on a copy of ``ws``)."""
    probe = tmp_path / "probe"
    shutil.copytree(ws, probe)
    log = tmp_path / "steps.log"
    r = run_script("memory", *args, "-w", probe, env={**NOW, "MEMORY_MANAGER_STEP_LOG": str(log)})
    assert r.code == 0, r.err
    labels = [line.split(" ", 1)[1].replace(str(probe), str(ws)) for line in log.read_text().splitlines()]
    shutil.rmtree(probe)
    return next(n for n, lab in enumerate(labels, 1) if lab.startswith(label))


@pytest.mark.parametrize("now_there", ["folder", "symlink"])
def test_a_rollback_names_the_file_it_could_not_put_back(ws, run_script, tmp_path, now_there):
    _learn_foo(run_script)
    args = ("learn", "foo", "--text", "The build server is green now.")
    step = _step_of(ws, tmp_path, run_script, f"replace {ws / 'memory/knowledge/foo.md'}", *args) + 1
    r = run_script("memory", *args, env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(step)})
    assert r.code == -9
    foo = ws / "memory/knowledge/foo.md"
    assert "green" in foo.read_text(encoding="utf-8")
    foo.unlink()
    if now_there == "folder":
        foo.mkdir()
        (foo / "x.md").write_text("mine\n", encoding="utf-8")
    else:
        (tmp_path / "elsewhere.md").write_text("mine\n", encoding="utf-8")
        foo.symlink_to(tmp_path / "elsewhere.md")
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e", env=NOW)
    assert w.code == 0, w.err
    assert "rolled back an interrupted learn foo" in w.err, w.err
    # The blue entry is in no live file now: the warning says which file was left, as a restore's notes do.
    files = [p for p in (ws / "memory/knowledge").rglob("*.md") if p.is_file()]
    assert "blue" not in "".join(p.read_text(encoding="utf-8") for p in files)
    assert "memory/knowledge/foo.md" in w.err, w.err


# ---- 5: a forged forget plan erases the restore points of live entries

def test_a_forged_forget_plan_does_not_erase_copies_of_live_entries(ws, run_script):
    _learn_foo(run_script)
    assert run_script("memory", "learn", "foo", "--text", "The deploy key rotates monthly.", env=NOW).code == 0
    assert run_script("memory", "write", "--topic", "rel", "--cause", "release broke", "--change", "pinned deps",
                      "--todo", "ship", env=NOW).code == 0
    assert run_script("memory", "learn", "tmp", "--text", "Tag first.", env=NOW).code == 0
    assert run_script("memory", "forget", "tmp", "--approved", env=NOW).code == 0
    listed = json.loads(run_script("init", "--list-backups", "--json", env=NOW).out)["backups"]
    ident = listed[-1]["id"]
    assert listed[-1]["reason"].startswith("forget") and not list((ws / ".memory-backup").glob(".open-*"))
    day = next((ws / "memory/daily").glob("*.md")).relative_to(ws).as_posix()
    before = {p: p.read_bytes() for p in (ws / ".memory-backup").rglob("*") if p.is_file() and ident not in p.parts}
    plan = {"kind": "forget", "ident": None, "needles": ["The build server is blue.", "pinned deps"],
            "paths": ["memory/knowledge/foo.md", day], "result": {}}
    journal = ws / ".memory-backup" / f".open-{ident}"
    journal.write_text(json.dumps({"id": ident, "pid": 1, "reason": "forget", "forward": plan}), encoding="utf-8")
    journal.chmod(0o600)
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e", env=NOW)
    assert w.code == 0, w.err
    assert "blue" in (ws / "memory/knowledge/foo.md").read_text(encoding="utf-8")  # nothing of it was forgotten
    # The other backups (restore points of entries still live) are as they were.
    changed = sorted(p.relative_to(ws).as_posix() for p, data in before.items()
                     if not p.exists() or p.read_bytes() != data)
    assert changed == [], changed


# ---- 6: a token in HOME / OPENCLAW_STATE_DIR in the hook's log line

@pytest.mark.parametrize("where", ["HOME", "OPENCLAW_STATE_DIR"])
def test_a_token_in_home_is_masked_in_the_hooks_log_line(ws, run_script, tmp_path, monkeypatch, where):
    _init(run_script)
    home = tmp_path / TOKEN / "home"
    home.mkdir(parents=True)
    if where == "HOME":
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.delenv("OPENCLAW_STATE_DIR")
    else:
        monkeypatch.setenv("OPENCLAW_STATE_DIR", str(home / ".openclaw"))
    d = run_script("detect", "--workspace", ws, env=NOW)
    assert "no session store" in d.out + d.err and TOKEN not in d.out + d.err  # detect.py masks it
    event = json.dumps({"type": "agent", "action": "bootstrap", "context": {"workspaceDir": str(ws)}})
    r = run_script("hook", input=event, env=NOW)
    assert r.code == 0 and "no session store" in r.out, r.out + r.err
    assert TOKEN[8:] not in r.out + r.err, r.out


def test_a_token_in_the_events_workspace_is_masked_in_the_hooks_log_line(tmp_path, run_script):
    """A sibling of 6: the Gateway's start names the workspace the event gave ("... started (pid N) for PATH")."""
    where = tmp_path / f"ws-{TOKEN}"
    where.mkdir()
    r = run_script("init", "--yes", "--no-hooks", "--lang", "en", "-w", where, env=NOW)
    assert r.code == 0, r.err
    event = json.dumps({"type": "gateway", "action": "startup", "context": {"workspaceDir": str(where)}})
    h = run_script("hook", input=event, env=NOW)
    assert h.code == 0 and "cleanup --if-due started" in h.out, h.out + h.err
    assert TOKEN[8:] not in h.out + h.err and "for " + str(tmp_path) in h.out, h.out


# ---- 7: a forged purge plan deletes a live T2 entry

def test_a_forged_purge_plan_does_not_delete_a_live_t2_entry(ws, run_script):
    from .trust_r4_common import _plant_t2

    _init(run_script)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "keep", "--text", "the crane is red", env=NOW)
    assert r.code == 0, r.err
    _plant_t2(ws, "s", "a", "alpha fact " + TOKEN)
    c = run_script("cleanup", "--json", env=NOW)
    assert c.code == 0 and json.loads(c.out)["deleted"] == 1, c.out + c.err  # a genuine purge (the token entry)
    last = json.loads(run_script("init", "--list-backups", "--json", env=NOW).out)["backups"][-1]
    assert last["reason"].startswith("cleanup") and not list((ws / ".memory-backup").glob(".open-*"))
    live = ws / "memory/tier2-internal/s_keep.md"
    eid = next(line.split()[1] for line in live.read_text(encoding="utf-8").splitlines() if line.startswith("id:"))
    plan = {"kind": "purge", "audit_known": {}, "items": [
        {"ident": eid, "skill": "s", "topic": "keep", "file": "memory/tier2-internal/s_keep.md",
         "needles": [], "audit_hashes": [], "audit_refs": [], "drop_approvals": []}]}
    journal = ws / ".memory-backup" / f".open-{last['id']}"
    journal.write_text(json.dumps({"id": last["id"], "pid": 1, "reason": "cleanup", "forward": plan}), encoding="utf-8")
    journal.chmod(0o600)
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e", env=NOW)
    assert w.code == 0, w.err
    assert live.is_file(), w.err  # the entry the user remembered, which cleanup never purged


# ---- 8: forget of an archived T2 id by path also strips the live entry's records

def test_forget_of_an_archived_t2_by_path_keeps_the_live_entrys_records(ws, run_script):
    later = {"MEMORY_MANAGER_NOW": "2027-01-15T12:00:00+00:00"}
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "the crane is red",
                      env=NOW).code == 0
    c = run_script("cleanup", env=later)
    assert c.code == 0 and "1 archived" in c.out, c.out + c.err
    r = run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "the crane is blue", env=later)
    assert r.code == 0, r.err
    ident = r.out.split("[")[1].split("]")[0]
    archived = next((ws / "memory/archive").rglob("s_t.md"))
    assert f"id: {ident}" in archived.read_text(encoding="utf-8")  # the same id, by skill and topic
    audit = ws / "memory/.state/gate-audit.jsonl"
    live_record = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()][-1]
    assert live_record["time"].startswith("2027-01-15") and live_record["entry"], live_record
    f = run_script("memory", "forget", f"{archived.relative_to(ws).as_posix()}#{ident}", "--approved", env=later)
    assert f.code == 0, f.err
    assert not archived.exists() and (ws / "memory/tier2-internal/s_t.md").is_file()
    records = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()]
    assert live_record in records, [r for r in records if r["time"] == live_record["time"]]


def test_forget_of_the_live_t2_by_path_keeps_the_archived_entrys_records(ws, run_script):
    """A sibling of 8: the live entry forgotten by its path; the archived one (the same id) keeps its records."""
    later = {"MEMORY_MANAGER_NOW": "2027-01-15T12:00:00+00:00"}
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "the crane is red",
                      env=NOW).code == 0
    audit = ws / "memory/.state/gate-audit.jsonl"
    old_record = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()][-1]
    assert old_record["entry"] and old_record["hash"], old_record
    assert run_script("cleanup", env=later).code == 0
    r = run_script("memory", "remember", "--skill", "s", "--topic", "t", "--text", "the crane is blue", env=later)
    assert r.code == 0, r.err
    ident = r.out.split("[")[1].split("]")[0]
    live_record = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()][-1]
    f = run_script("memory", "forget", f"memory/tier2-internal/s_t.md#{ident}", "--approved", env=later)
    assert f.code == 0, f.err
    assert not (ws / "memory/tier2-internal/s_t.md").exists()
    records = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()]
    assert old_record in records  # the archived entry, still stored
    blanked = [r for r in records if r["time"] == live_record["time"] and r["operation"] == "store"]
    assert blanked and all(r["hash"] is None and r["entry"] is None for r in blanked), blanked  # the forgotten one


def test_forget_of_an_archived_knowledge_entry_keeps_the_records_of_its_key_learned_again(ws, run_script):
    """A sibling of 8 that held already (a key learned again gets a fresh id): kept as a guard."""
    later = {"MEMORY_MANAGER_NOW": "2027-10-01T10:00:00+00:00"}
    _learn_foo(run_script)
    audit = ws / "memory/.state/gate-audit.jsonl"
    old_record = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()][-1]
    assert run_script("memory", "prune", env=later).code == 0
    archived = next((ws / "memory/archive").rglob("knowledge-foo.md"))
    assert run_script("memory", "learn", "foo", "--text", "The build server is green now.", env=later).code == 0
    live_record = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()][-1]
    assert live_record["entry"] and live_record["hash"] and live_record["time"].startswith("2027-10-01")
    hits = json.loads(run_script("memory", "recall", "blue", "--json", env=later).out)
    ident = hits["hits"][0]["id"] if isinstance(hits, dict) else hits[0]["id"]
    f = run_script("memory", "forget", ident, "--approved", env=later)
    assert f.code == 0, f.err
    assert not archived.exists() and "green" in (ws / "memory/knowledge/foo.md").read_text(encoding="utf-8")
    records = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()]
    assert live_record in records
    assert old_record not in records  # the forgotten entry's own record is blanked


# ---- 9: keygen --force killed before its key file: a key nobody has

def test_keygen_killed_before_its_key_file_leaves_the_store_usable_with_its_key(ws, run_script, tmp_path):
    _init(run_script)
    assert run_script("memory", "remember", "--skill", "s", "--topic", "crane", "--text", "crane is red",
                      "--approved", env=NOW).code == 0
    key = Path(os.environ["XDG_CONFIG_HOME"]) / "complex-memory-manager" / "key"
    key.rename(tmp_path / "key.away")  # the key is away (another disk); the user makes a new one
    log = tmp_path / "steps.log"
    probe = run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_STEP_LOG": str(log)})
    assert probe.code == 0, probe.err
    labels = [line.split(" ", 1)[1] for line in log.read_text().splitlines()]
    step = labels.index(f"link {key}") + 1
    key.unlink()
    shutil.rmtree(key.parent / "stores")
    (ws / "memory/.state/t2-key-accepted").unlink()
    (tmp_path / "key.away").rename(key)  # back to the state before the probe: the store's key at hand
    assert run_script("memory", "remember", "--skill", "s", "--topic", "kite", "--text", "kite at noon",
                      env=NOW).code == 0
    key.rename(tmp_path / "key.away")
    k = run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(step)})
    assert k.code == -9 and not key.exists()
    (tmp_path / "key.away").rename(key)  # the store's real key found again
    r = run_script("memory", "remember", "--skill", "s", "--topic", "wren", "--text", "wren sings", env=NOW)
    assert r.code == 0, r.err
    c = run_script("cleanup", env=NOW)
    assert c.code == 0 and "not this store's key" not in c.out + c.err, c.out + c.err


# ---- 10: a rollback over a line the user added keeps the interrupted learn's text and says it rolled back

def test_a_rollback_over_a_users_line_takes_out_the_interrupted_text_or_says_so(ws, run_script, tmp_path):
    _learn_foo(run_script)
    args = ("learn", "foo", "--text", "NEWFACT green now.")
    step = _step_of(ws, tmp_path, run_script, f"replace {ws / 'memory/knowledge/foo.md'}", *args) + 1
    assert run_script("memory", *args, env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(step)}).code == -9
    foo = ws / "memory/knowledge/foo.md"
    with foo.open("a", encoding="utf-8") as fh:
        fh.write("- my own line\n")
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e", env=NOW)
    assert w.code == 0, w.err
    assert "rolled back an interrupted learn foo" in w.err, w.err
    text = foo.read_text(encoding="utf-8")
    assert "- my own line" in text and "blue" in text
    assert "NEWFACT" not in text or "memory/knowledge/foo.md" in w.err, (text, w.err)


@pytest.mark.parametrize("where", ["end", "middle"])
def test_a_rollback_around_a_users_line_keeps_it_and_says_what_it_did(ws, run_script, tmp_path, where):
    """A sibling of 10: the user's line at the end (the interrupted fact taken out, the line kept, both said) or
    in the middle of the interrupted learn's file (the fact cannot be told apart: the file named, left as it is)."""
    _learn_foo(run_script)
    foo = ws / "memory/knowledge/foo.md"
    before = foo.read_text(encoding="utf-8")
    args = ("learn", "foo", "--text", "NEWFACT green now.")
    step = _step_of(ws, tmp_path, run_script, f"replace {ws / 'memory/knowledge/foo.md'}", *args) + 1
    assert run_script("memory", *args, env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(step)}).code == -9
    text = foo.read_text(encoding="utf-8")
    if where == "end":
        foo.write_text(text + "- my own line\n", encoding="utf-8")
    else:
        at = text.index("NEWFACT")
        foo.write_text(text[:at] + "my own words " + text[at:], encoding="utf-8")
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e", env=NOW)
    assert w.code == 0, w.err
    after = foo.read_text(encoding="utf-8")
    assert "blue" in after and "my own" in after, after
    if where == "end":
        assert after == before + "- my own line\n", after
        assert "put back memory/knowledge/foo.md" in w.err and "added after it kept" in w.err, w.err
        assert "except" not in w.err, w.err
    else:
        assert "NEWFACT" in after, after
        assert "except memory/knowledge/foo.md (changed after the interrupted change" in w.err, w.err
        assert "left as it is, with what the change inserted" in w.err, w.err
