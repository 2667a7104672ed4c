"""Attack round 21 (quick, atk21): a fresh attacker against main at 5543205.

Targets what landed in 5543205: the keygen --force marker beside this machine's note
(anchor.begin_keygen / unfinished_keygen / recover_keygen) and the HMAC seal on forget and purge
plans (backups.plan_seal / _seal_checks). Each test plays one attack against the real scripts on
real files in a temporary workspace and asserts the promised behaviour; strict xfails until fixed.

Found (tests here):
1. (high) No hash-secret exists until the first forget or purge: a purge plan planted beside a planted
   'cleanup' backup is judged by its fields alone and deletes a live T2 entry (tatk20 7 again).
1b. (high) Same where the command runs has no secret (another HOME / XDG_CONFIG_HOME, a service's env).
2. (high) The seal binds the backup id and the plan only: a genuine purge journal captured from a killed
   cleanup, put back after it finished and the user remembered the same skill/topic, deletes the new entry.
3. (high) The secret is the machine's and the seal names no workspace: the same journal (with a copy of
   its backup folder) planted in another workspace deletes that workspace's live entry.
4. (medium) A genuine forget killed past its point of no return, next met by a run whose config folder holds
   another secret, is refused as planted and closed: the forgotten text stays in the backups for good.
5. (medium) keygen --force killed after its link (before removing its marker), the new key then kept in
   MEMORY_MANAGER_KEY or behind a symlinked key file (load_key follows it, _holds_key does not): the next
   writer rolls back to the lost key; the real key is refused.
6. (high) A key record padded past 64 KiB (the marker's read limit) makes keygen --force write no marker;
   killed between record and link, the store's key exists nowhere (tatk20 9 again).
7. (high) keygen --force run again after a killed one does not recover first (crypt.py's lock has no
   on-acquire hook): its marker records the first one's lost key as 'before'; killed again, that is the key.
8. (medium) A replayed genuine forget journal, after the user learned the same key again, erases the
   backup entries (restore points) of the live entry.
9. (medium) A planted plan holding a lone surrogate makes plan_seal raise: every command, status included,
   stops with 'unexpected UnicodeEncodeError' naming no file.

Tried and held (tests here): forget and cleanup killed at every step past the seal (finished by the next
command); a genuine plan met by a run with no secret at all (finished); a genuine journal re-serialised
with other key order, spaces and escapes (finished); a seal copied from a genuine plan (also upper-cased)
onto a forged one (refused, no backup changed); keygen --force killed then run to its end; a workspace
deleted and made again at a killed keygen's path; keygen --force -w a folder with no memory tree killed at
each step; the next writer's rollback of a killed keygen, itself killed at each of its 5 steps. Probed without a test: memory/.state made a symlink after a killed keygen (refused before the
marker's recovery writes); commands that create a secret before recovery (remember, learn: they recover
first); NaN / 1e999 in a planted plan (rolled back).
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from .trust_r4_common import NOW, TOKEN, _init, _plant_t2

KEYDIR = "complex-memory-manager"


def _cfg() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / KEYDIR


def _backups(run_script) -> list[dict]:
    return json.loads(run_script("init", "--list-backups", "--json", env=NOW).out)["backups"]


def _write(run_script, topic: str = "t"):
    return run_script("memory", "write", "--topic", topic, "--cause", "c", "--change", "d", "--todo", "e", env=NOW)


def _step(ws: Path, run_script, tmp: Path, args: tuple[str, ...], label: str) -> int:
    """The number of the first labelled step of ``args`` whose label starts with ``label`` (a probe run on the
    same workspace and config folder, both put back afterwards: :func:`_labels`)."""
    return next(i for i, lab in enumerate(_labels(ws, run_script, tmp, args), 1) if lab.startswith(label))


def _t2_id(path: Path) -> str:
    return next(line.split()[1] for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("id:"))


def _forged_cleanup_backup(ws: Path, run_script) -> dict:
    """A backup folder planted in .memory-backup whose manifest says a cleanup made it (complete)."""
    real = _backups(run_script)[-1]
    ident = f"{real['seq'] + 1:06d}-20261129T120000Z"
    folder = ws / ".memory-backup" / ident
    shutil.copytree(ws / ".memory-backup" / real["id"], folder)
    doc = json.loads((folder / "manifest.json").read_text())
    doc.update(id=ident, seq=real["seq"] + 1, reason="cleanup")
    (folder / "manifest.json").write_text(json.dumps(doc, indent=2))
    (folder / "entries.jsonl").write_text("")
    return {"id": ident, "reason": "cleanup"}


# ---- 1: no hash-secret on this machine yet: a forged purge plan is judged by its fields alone

def test_a_forged_purge_plan_before_any_secret_exists_does_not_delete_a_live_entry(ws, run_script):
    _init(run_script)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "keep", "--text", "the crane is red", env=NOW)
    assert r.code == 0, r.err
    assert not (_cfg() / "hash-secret").exists()  # no forget or purge ever ran on this machine
    last = _forged_cleanup_backup(ws, run_script)
    live = ws / "memory/tier2-internal/s_keep.md"
    plan = {"kind": "purge", "audit_known": {}, "items": [
        {"ident": _t2_id(live), "skill": "s", "topic": "keep", "file": "memory/tier2-internal/s_keep.md",
         "needles": [], "audit_hashes": [], "audit_refs": [], "drop_approvals": []}]}
    journal = ws / ".memory-backup" / f".open-{last['id']}"
    journal.write_text(json.dumps({"id": last["id"], "pid": 1, "reason": "cleanup", "forward": plan}), encoding="utf-8")
    journal.chmod(0o600)
    w = _write(run_script)
    assert w.code == 0, w.err
    assert live.is_file(), w.err  # the entry the user remembered, which no cleanup ever purged


# ---- 2: a genuine sealed purge plan, captured from a killed cleanup, replayed after the user remembered again

def _killed_purge(ws: Path, run_script, tmp: Path) -> tuple[Path, bytes]:
    """cleanup killed past its point of no return (the sealed plan written, the T2 file not yet removed)."""
    _init(run_script)
    _plant_t2(ws, "s", "a", "alpha fact " + TOKEN)
    at = _step(ws, run_script, tmp, ("cleanup", "--json"), f"unlink {ws}/memory/tier2-internal/s_a.md")
    c = run_script("cleanup", "--json", env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(at)})
    assert c.code == -9, c.out + c.err
    journal = next((ws / ".memory-backup").glob(".open-*"))
    held = journal.read_bytes()
    assert b'"seal"' in held and b'"purge"' in held
    return journal, held


def test_a_replayed_sealed_purge_plan_does_not_delete_an_entry_remembered_since(ws, run_script, tmp_path):
    journal, held = _killed_purge(ws, run_script, tmp_path)
    w = _write(run_script)
    assert w.code == 0 and "finished an interrupted cleanup" in w.err, w.err  # the genuine plan, finished
    live = ws / "memory/tier2-internal/s_a.md"
    assert not live.exists()
    r = run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "beta fact, harmless", env=NOW)
    assert r.code == 0, r.err
    assert live.is_file()
    journal.write_bytes(held)  # the same bytes, the same backup: the seal checks
    journal.chmod(0o600)
    w = _write(run_script, "u")
    assert w.code == 0, w.err
    assert live.is_file(), w.err  # the entry remembered after the purge finished


def test_a_replayed_sealed_purge_plan_with_its_backup_reopened_is_refused(ws, run_script, tmp_path):
    """The replay above, with the backup's manifest set to ``open`` again (the workspace is the attacker's
    to write): the seal was spent when the plan was finished, in the config folder (lead's variant)."""
    journal, held = _killed_purge(ws, run_script, tmp_path)
    ident = journal.name[len(".open-"):]
    manifest = ws / ".memory-backup" / ident / "manifest.json"
    opened = manifest.read_bytes()
    w = _write(run_script)
    assert w.code == 0 and "finished an interrupted cleanup" in w.err, w.err
    live = ws / "memory/tier2-internal/s_a.md"
    r = run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "beta fact, harmless", env=NOW)
    assert r.code == 0 and live.is_file(), r.err
    manifest.write_bytes(opened)  # state "open", as it was while the killed cleanup held it
    journal.write_bytes(held)
    journal.chmod(0o600)
    w = _write(run_script, "u")
    assert w.code == 0, w.err
    assert "refused the plan" in w.err and "nothing was erased" in w.err, w.err
    assert live.is_file(), w.err


def test_a_sealed_purge_plan_from_another_workspace_is_refused(ws, run_script, tmp_path):
    journal, held = _killed_purge(ws, run_script, tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    env_b = {**NOW, "OPENCLAW_WORKSPACE_DIR": str(other)}
    assert run_script("init", "--yes", "--no-hooks", "--lang", "en", env=env_b).code == 0
    r = run_script("memory", "remember", "--skill", "s", "--topic", "a", "--text", "beta fact, harmless", env=env_b)
    assert r.code == 0, r.err
    live = other / "memory/tier2-internal/s_a.md"
    assert live.is_file()
    ident = journal.name[len(".open-"):]
    target = other / ".memory-backup" / ident
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(ws / ".memory-backup" / ident, target)
    planted = other / ".memory-backup" / journal.name
    planted.write_bytes(held)
    planted.chmod(0o600)
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e", env=env_b)
    assert w.code == 0, w.err
    assert live.is_file(), w.err


# ---- 4: a genuine forget plan met by a command run with another config folder (another HOME)

BLUE = "The build server is blue."


def _labels(ws: Path, run_script, tmp: Path, args: tuple[str, ...]) -> list[str]:
    """The labelled steps of ``args`` (a probe run on the same workspace and config folder, both put back)."""
    saved_ws, saved_cfg = tmp / "probe-ws", tmp / "probe-cfg"
    shutil.copytree(ws, saved_ws, symlinks=True)
    shutil.copytree(_cfg(), saved_cfg, symlinks=True)
    log = tmp / "probe.log"
    run_script(*args, env={**NOW, "MEMORY_MANAGER_STEP_LOG": str(log)})
    labels = [line.split(" ", 1)[1] for line in log.read_text().splitlines()]
    shutil.rmtree(ws)
    shutil.rmtree(_cfg())
    shutil.move(saved_ws, ws)
    shutil.move(saved_cfg, _cfg())
    log.unlink()
    return labels


def _two_foo(run_script) -> None:
    _init(run_script)
    assert run_script("memory", "learn", "foo", "--text", BLUE, env=NOW).code == 0
    assert run_script("memory", "learn", "foo", "--text", "The deploy key rotates monthly.", env=NOW).code == 0


def _holding(root: Path, needle: str) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and not p.is_symlink() and needle.encode() in p.read_bytes())


def _forget_killed_after_plan(ws: Path, run_script, tmp: Path) -> None:
    labels = _labels(ws, run_script, tmp, ("memory", "forget", "foo", "--approved"))
    # the journal's second write holds the sealed plan: killed at the step after it (the first erasure)
    plan_at = [i for i, lab in enumerate(labels, 1) if lab.startswith("replace") and "/.open-" in lab][1]
    f = run_script("memory", "forget", "foo", "--approved", env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(plan_at + 1)})
    assert f.code == -9, f.out + f.err
    journal = next((ws / ".memory-backup").glob(".open-*"))
    assert b'"seal"' in journal.read_bytes()
    assert _holding(ws / ".memory-backup", BLUE)  # the erasures have not run yet
    assert not (ws / "memory/knowledge/foo.md").exists()


@pytest.mark.xfail(strict=True, reason=(
    "atk21 4: a genuine forget killed past its point of no return, next met by a command whose config folder "
    "(another HOME / XDG_CONFIG_HOME) holds another hash-secret, is refused as planted and its journal closed: "
    "the forgotten text stays in every backup copy for good, even once the user is back in their own HOME"))
def test_a_genuine_forget_plan_is_not_dropped_by_a_run_with_another_secret(ws, run_script, tmp_path):
    _two_foo(run_script)
    _forget_killed_after_plan(ws, run_script, tmp_path)
    other = tmp_path / "other-config"
    (other / KEYDIR).mkdir(parents=True, mode=0o700)
    secret = other / KEYDIR / "hash-secret"
    secret.write_bytes(__import__("base64").b64encode(os.urandom(32)) + b"\n")
    secret.chmod(0o600)
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e",
                   env={**NOW, "XDG_CONFIG_HOME": str(other)})
    assert w.code == 0, w.err
    back = _write(run_script, "u")  # the user's own HOME again
    assert back.code == 0, back.err
    assert _holding(ws, BLUE) == [], (w.err, back.err)


def test_a_genuine_forget_plan_met_with_no_secret_at_all_is_finished(ws, run_script, tmp_path):
    _two_foo(run_script)
    _forget_killed_after_plan(ws, run_script, tmp_path)
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e",
                   env={**NOW, "XDG_CONFIG_HOME": str(tmp_path / "empty-config")})
    assert w.code == 0 and "finished an interrupted forget" in w.err, w.err
    assert _holding(ws, BLUE) == []


# ---- held: forget and cleanup killed at every step past the seal: the next command finishes the genuine plan

def _snapshot(ws: Path, tmp: Path) -> tuple[Path, Path]:
    a, b = tmp / "snap-ws", tmp / "snap-cfg"
    shutil.copytree(ws, a, symlinks=True)
    shutil.copytree(_cfg(), b, symlinks=True)
    return a, b


def _restore(ws: Path, snap: tuple[Path, Path]) -> None:
    shutil.rmtree(ws)
    shutil.rmtree(_cfg())
    shutil.copytree(snap[0], ws, symlinks=True)
    shutil.copytree(snap[1], _cfg(), symlinks=True)


def _kill_each_step(ws, run_script, tmp, args, check) -> list[str]:
    labels = _labels(ws, run_script, tmp, args)
    # the journal is written when the backup opens, then again with the sealed plan (roll_forward); the
    # secret's own creation is not a counted step since fsio.uncounted (round 15)
    journal = [i for i, lab in enumerate(labels, 1) if lab.startswith("replace ") and "/.open-" in lab]
    sealed = journal[1]
    snap = _snapshot(ws, tmp)
    bad = []
    # killed before the sealed plan is in the journal: rolled back, as before
    for step in range(sealed + 1, len(labels) + 1):
        _restore(ws, snap)
        k = run_script(*args, env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(step)})
        if k.code != -9:
            bad.append(f"{step}: not killed ({k.code})")
            continue
        w = _write(run_script)
        problem = check(w)
        if problem:
            bad.append(f"{step} ({labels[step - 1]}): {problem}")
    return bad


def test_forget_killed_at_each_step_past_its_seal_is_finished(ws, run_script, tmp_path):
    _two_foo(run_script)

    def check(w):
        if w.code != 0 or "refused" in w.err:
            return w.err.strip()[:200]
        left = _holding(ws, BLUE)
        return f"{BLUE!r} still in {left}" if left else None

    assert _kill_each_step(ws, run_script, tmp_path, ("memory", "forget", "foo", "--approved"), check) == []


def test_cleanup_killed_at_each_step_past_its_seal_is_finished(ws, run_script, tmp_path):
    _init(run_script)
    _plant_t2(ws, "s", "a", "alpha fact " + TOKEN)

    def check(w):
        if w.code != 0 or "refused" in w.err:
            return w.err.strip()[:200]
        return "the purged entry is still there" if (ws / "memory/tier2-internal/s_a.md").exists() else None

    assert _kill_each_step(ws, run_script, tmp_path, ("cleanup", "--json"), check) == []


# ---- 5: keygen --force killed after it linked its key file, the key then kept elsewhere

def _store_with_key(run_script) -> Path:
    _init(run_script)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "crane", "--text", "crane is red", "--approved",
                   env=NOW)
    assert r.code == 0, r.err
    return _cfg() / "key"


def _keygen_killed_after_link(run_script, tmp: Path) -> tuple[Path, bytes]:
    key = _store_with_key(run_script)
    key.rename(tmp / "key.old")  # the store's key is lost; the user makes a new one on purpose
    # killed at the marker's removal (step 9, tests/test_keygen_interrupted.py): the key file is in place
    k = run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_CRASH_AT": "9"})
    assert k.code == -9, k.out + k.err
    assert key.is_file() and list((key.parent / "stores").glob("*.keygen.json"))
    return key, key.read_bytes()


@pytest.mark.parametrize("kept", ["env", "symlink"])
def test_a_new_key_kept_elsewhere_after_a_keygen_killed_past_its_link_stays_the_stores_key(ws, run_script, tmp_path,
                                                                                        kept):
    key, held = _keygen_killed_after_link(run_script, tmp_path)
    env = dict(NOW)
    if kept == "env":
        key.unlink()
        env["MEMORY_MANAGER_KEY"] = held.decode().strip()
    else:
        vault = tmp_path / "vault"
        vault.mkdir(mode=0o700)
        (vault / "cmm.key").write_bytes(held)
        (vault / "cmm.key").chmod(0o600)
        key.unlink()
        key.symlink_to(vault / "cmm.key")
    r = run_script("memory", "remember", "--skill", "s", "--topic", "wren", "--text", "wren sings", env=env)
    assert r.code == 0, r.err
    c = run_script("cleanup", env=env)
    assert c.code == 0 and "not this store's key" not in c.out + c.err, c.out + c.err
    r = run_script("memory", "remember", "--skill", "s", "--topic", "kite", "--text", "kite at noon", env=env)
    assert r.code == 0 and "not this store's key" not in r.err, r.err


# ---- 6: a key record padded past the marker's read limit: keygen --force writes no marker

def test_a_padded_key_record_does_not_disable_the_keygen_marker(ws, run_script, tmp_path):
    key = _store_with_key(run_script)
    record = ws / "memory/.state/t2-key-accepted"
    record.write_bytes(record.read_bytes() + b"\n" * 70000)  # the same keys, one blank line after another
    assert run_script("memory", "status", env=NOW).code in (0, 1)
    key.rename(tmp_path / "key.old")
    labels = _labels(ws, run_script, tmp_path, ("crypt", "keygen", "--force"))
    link = next(i for i, lab in enumerate(labels, 1) if lab == f"link {key}")
    k = run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(link)})
    assert k.code == -9, k.out + k.err
    assert not key.exists()
    (tmp_path / "key.old").rename(key)  # the old key found again: it is still the store's key
    r = run_script("memory", "remember", "--skill", "s", "--topic", "wren", "--text", "wren sings", env=NOW)
    assert r.code == 0, r.err
    rc = run_script("memory", "recall", "crane", "--approved", env=NOW)
    assert "crane is red" in rc.out, rc.out + rc.err


# ---- held: a journal re-written with other white space and key order is finished; a copied seal is refused

def test_a_genuine_plan_rewritten_with_other_key_order_and_spaces_is_finished(ws, run_script, tmp_path):
    _two_foo(run_script)
    _forget_killed_after_plan(ws, run_script, tmp_path)
    journal = next((ws / ".memory-backup").glob(".open-*"))
    doc = json.loads(journal.read_text(encoding="utf-8"))
    plan = doc["forward"]
    doc["forward"] = dict(reversed(list(plan.items())))
    journal.write_text(json.dumps(doc, indent=7, sort_keys=True, ensure_ascii=True) + "\n\n", encoding="utf-8")
    w = _write(run_script)
    assert w.code == 0 and "finished an interrupted forget" in w.err and "refused" not in w.err, w.err
    assert _holding(ws, BLUE) == []


def test_a_seal_copied_from_a_genuine_plan_onto_a_forged_one_is_refused(ws, run_script, tmp_path):
    _two_foo(run_script)
    assert run_script("memory", "write", "--topic", "rel", "--cause", "release broke", "--change", "pinned deps",
                      "--todo", "ship", env=NOW).code == 0
    assert run_script("memory", "learn", "tmp", "--text", "Tag first.", env=NOW).code == 0
    f = run_script("memory", "forget", "tmp", "--approved", env={**NOW, "MEMORY_MANAGER_CRASH_AT": "999"})
    assert f.code == 0, f.err  # a genuine forget, finished: the machine has a secret now
    ident = _backups(run_script)[-1]["id"]
    # the seal of the genuine killed forget of another backup (captured), put on a forged plan here
    snap = _snapshot(ws, tmp_path)
    (tmp_path / "k").mkdir()
    _forget_killed_after_plan(ws, run_script, tmp_path / "k")
    stolen = json.loads(next((ws / ".memory-backup").glob(".open-*")).read_text())["seal"]
    _restore(ws, snap)
    day = next((ws / "memory/daily").glob("*.md")).relative_to(ws).as_posix()
    before = {p: p.read_bytes() for p in (ws / ".memory-backup").rglob("*") if p.is_file() and ident not in p.parts}
    for seal in (stolen, stolen.upper()):
        plan = {"kind": "forget", "ident": None, "needles": ["The deploy key rotates monthly.", "pinned deps"],
                "paths": ["memory/knowledge/foo.md", day], "result": {}}
        journal = ws / ".memory-backup" / f".open-{ident}"
        journal.write_text(json.dumps({"id": ident, "pid": 1, "reason": "forget", "forward": plan, "seal": seal}),
                           encoding="utf-8")
        journal.chmod(0o600)
        w = _write(run_script)
        # beside a closed backup the plan is not even read (a plan is finished once, for a change still
        # open): the journal goes and nothing is erased; elsewhere it is refused for its seal
        assert w.code == 0 and ("refused the plan" in w.err or not w.err), w.err
        assert not journal.exists()
    assert "rotates monthly" in (ws / "memory/knowledge/foo.md").read_text(encoding="utf-8")
    changed = sorted(p.relative_to(ws).as_posix() for p, data in before.items()
                     if not p.exists() or p.read_bytes() != data)
    assert changed == [], changed


# ---- 7: keygen --force killed, then run again (killed again, or to its end)

# (atk21 7, fixed: keygen now runs every writer's recovery when it takes the workspace lock)


@pytest.mark.parametrize("first,second", [(6, 8), (8, 7), (8, None)])
def test_keygen_force_killed_then_run_again(ws, run_script, tmp_path, first, second):
    key = _store_with_key(run_script)
    key.rename(tmp_path / "key.old")
    k = run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(first)})
    assert k.code == -9 and not key.exists()
    env = {**NOW, "MEMORY_MANAGER_CRASH_AT": str(second)} if second else NOW
    k2 = run_script("crypt", "keygen", "--force", env=env)
    assert k2.code == (-9 if second else 0), k2.out + k2.err
    if second:
        assert not key.exists()
        (tmp_path / "key.old").rename(key)  # the old key is still the store's key
    r = run_script("memory", "remember", "--skill", "s", "--topic", "wren", "--text", "wren sings", env=NOW)
    assert r.code == 0 and "not this store's key" not in r.err, r.err
    c = run_script("cleanup", env=NOW)
    assert c.code == 0 and "not this store's key" not in c.out + c.err, c.out + c.err
    assert not list((key.parent / "stores").glob("*.keygen.json"))
    rc = run_script("memory", "recall", "crane", "--approved", env=NOW)
    assert ("crane is red" in rc.out) == bool(second), rc.out + rc.err


# ---- 8: a genuine sealed forget plan replayed after the user learned the same key again

def test_a_replayed_sealed_forget_plan_keeps_the_copies_of_an_entry_learned_since(ws, run_script, tmp_path):
    _two_foo(run_script)
    _forget_killed_after_plan(ws, run_script, tmp_path)
    journal = next((ws / ".memory-backup").glob(".open-*"))
    held = journal.read_bytes()
    w = _write(run_script)
    assert w.code == 0 and "finished an interrupted forget" in w.err, w.err
    assert run_script("memory", "learn", "foo", "--text", "The canary host is green.", env=NOW).code == 0
    assert run_script("memory", "learn", "foo", "--text", "The canary runs nightly.", env=NOW).code == 0
    ident = journal.name[len(".open-"):]
    before = {p: p.read_bytes() for p in (ws / ".memory-backup").rglob("*")
              if p.is_file() and ident not in p.parts and p.name != ".lock"}
    journal.write_bytes(held)
    journal.chmod(0o600)
    w = _write(run_script, "u")
    assert w.code == 0, w.err
    assert "canary host is green" in (ws / "memory/knowledge/foo.md").read_text(encoding="utf-8")
    # the backups made since the forget (restore points of the entry learned again) are as they were
    changed = sorted(p.relative_to(ws).as_posix() for p, data in before.items()
                     if not p.exists() or p.read_bytes() != data)
    assert changed == [], (changed, w.err)


# ---- 9: a planted plan holding a lone surrogate: the seal's canonical JSON cannot be encoded

@pytest.mark.parametrize("kind", ["forget", "purge"])
def test_a_planted_plan_with_a_lone_surrogate_does_not_stop_every_command(ws, run_script, kind):
    _two_foo(run_script)
    if kind == "forget":
        assert run_script("memory", "learn", "tmp", "--text", "Tag first.", env=NOW).code == 0
        assert run_script("memory", "forget", "tmp", "--approved", env=NOW).code == 0
        ident = _backups(run_script)[-1]["id"]
        plan = '{"kind": "forget", "ident": null, "needles": ["\\ud800"], "paths": [], "result": {}}'
    else:
        _plant_t2(ws, "s", "a", "alpha fact " + TOKEN)
        assert run_script("cleanup", env=NOW).code == 0
        ident = _backups(run_script)[-1]["id"]
        plan = ('{"kind": "purge", "audit_known": {}, "items": [{"ident": "t-0", "skill": "s", "topic": "\\ud800", '
                '"file": "memory/tier2-internal/x.md", "needles": [], "audit_hashes": [], "audit_refs": [], '
                '"drop_approvals": []}]}')
    journal = ws / ".memory-backup" / f".open-{ident}"
    journal.write_text('{"id": "%s", "pid": 1, "reason": "%s", "forward": %s}' % (ident, kind, plan))
    journal.chmod(0o600)
    s = run_script("memory", "status", env=NOW)
    assert "unexpected" not in s.err, s.err
    w = _write(run_script)
    assert w.code == 0 and "unexpected" not in w.err, w.err


def test_a_forged_purge_plan_is_not_finished_by_a_run_under_another_home(ws, run_script, tmp_path):
    _two_foo(run_script)
    assert run_script("memory", "learn", "tmp", "--text", "Tag first.", env=NOW).code == 0
    assert run_script("memory", "forget", "tmp", "--approved", env=NOW).code == 0
    assert (_cfg() / "hash-secret").is_file()
    r = run_script("memory", "remember", "--skill", "s", "--topic", "keep", "--text", "the crane is red", env=NOW)
    assert r.code == 0, r.err
    last = _forged_cleanup_backup(ws, run_script)
    live = ws / "memory/tier2-internal/s_keep.md"
    plan = {"kind": "purge", "audit_known": {}, "items": [
        {"ident": _t2_id(live), "skill": "s", "topic": "keep", "file": "memory/tier2-internal/s_keep.md",
         "needles": [], "audit_hashes": [], "audit_refs": [], "drop_approvals": []}]}
    journal = ws / ".memory-backup" / f".open-{last['id']}"
    journal.write_text(json.dumps({"id": last["id"], "pid": 1, "reason": "cleanup", "forward": plan}), encoding="utf-8")
    journal.chmod(0o600)
    w = run_script("memory", "write", "--topic", "t", "--cause", "c", "--change", "d", "--todo", "e",
                   env={**NOW, "XDG_CONFIG_HOME": str(tmp_path / "service-config")})
    assert w.code == 0, w.err
    assert live.is_file(), w.err


# ---- held?: keygen --force killed, the workspace deleted and made again at the same path

def test_a_workspace_made_again_at_the_path_of_a_killed_keygen_keeps_its_new_key(ws, run_script, tmp_path):
    key = _store_with_key(run_script)
    key.rename(tmp_path / "key.old")
    k = run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_CRASH_AT": "8"})
    assert k.code == -9 and not key.exists()
    shutil.rmtree(ws)
    ws.mkdir()
    _init(run_script)  # a fresh store here, with a fresh key
    assert key.is_file()
    r = run_script("memory", "remember", "--skill", "s", "--topic", "wren", "--text", "wren sings", env=NOW)
    assert r.code == 0 and "not this store's key" not in r.err, r.err
    r = run_script("memory", "remember", "--skill", "s", "--topic", "kite", "--text", "kite at noon", env=NOW)
    assert r.code == 0 and "not this store's key" not in r.err, r.err
    c = run_script("cleanup", env=NOW)
    assert c.code == 0 and "not this store's key" not in c.out + c.err, c.out + c.err
    rc = run_script("memory", "recall", "wren", "--approved", env=NOW)
    assert "wren sings" in rc.out, rc.out + rc.err


# ---- held: keygen --force -w a folder with no memory tree, killed at each step

@pytest.mark.parametrize("step", [1, 2, 3])
def test_keygen_force_for_a_folder_without_a_memory_tree_leaves_other_stores_alone(ws, run_script, tmp_path, step):
    key = _store_with_key(run_script)
    key.rename(tmp_path / "key.old")
    bare = tmp_path / "bare"
    bare.mkdir()
    k = run_script("crypt", "keygen", "--force", "-w", str(bare), env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(step)})
    assert k.code in (-9, 0), k.out + k.err
    assert not list((key.parent / "stores").glob("*.keygen.json"))
    assert not (bare / "memory").exists()
    if key.exists():
        key.unlink()
    (tmp_path / "key.old").rename(key)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "wren", "--text", "wren sings", env=NOW)
    assert r.code == 0 and "not this store's key" not in r.err, r.err
    rc = run_script("memory", "recall", "crane", "--approved", env=NOW)
    assert "crane is red" in rc.out, rc.out + rc.err


# ---- held: the writer that puts a killed keygen's record back, itself killed at each of its steps

@pytest.mark.parametrize("step", [1, 2, 3, 4, 5])
def test_the_keygen_rollback_killed_at_each_step_is_finished_by_the_next_writer(ws, run_script, tmp_path, step):
    key = _store_with_key(run_script)
    key.rename(tmp_path / "key.old")
    assert run_script("crypt", "keygen", "--force", env={**NOW, "MEMORY_MANAGER_CRASH_AT": "8"}).code == -9
    (tmp_path / "key.old").rename(key)
    r = run_script("memory", "remember", "--skill", "s", "--topic", "wren", "--text", "wren sings",
                   env={**NOW, "MEMORY_MANAGER_CRASH_AT": str(step)})
    assert r.code == -9, r.err
    st = run_script("memory", "status", env=NOW)
    assert "not this store's key" not in st.out + st.err, st.out + st.err
    r = run_script("memory", "remember", "--skill", "s", "--topic", "kite", "--text", "kite at noon", env=NOW)
    assert r.code == 0 and "not this store's key" not in r.err, r.err
    assert not list((key.parent / "stores").glob("*.keygen.json"))
    d = run_script("doctor", "--no-openclaw", env=NOW)
    assert "does not match this machine's note" not in d.out, d.out
    rc = run_script("memory", "recall", "crane", "--approved", env=NOW)
    assert "crane is red" in rc.out, rc.out + rc.err
