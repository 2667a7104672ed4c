"""Run every phrasing through every door into its own temp workspace; report what reached disk."""
import json, os, subprocess, sys, tempfile, unicodedata, pathlib, concurrent.futures as cf
ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import phrasings as P  # noqa
PY = str(ROOT / ".venv/bin/python")


def ws():
    d = tempfile.mkdtemp(prefix="a2-")
    env = dict(os.environ, OPENCLAW_WORKSPACE_DIR=d + "/ws", OPENCLAW_STATE_DIR=d + "/st")
    os.makedirs(d + "/ws"); os.makedirs(d + "/st")
    subprocess.run([PY, str(ROOT / "scripts/init.py"), "--yes", "--no-hooks"], env=env, capture_output=True)
    return d + "/ws", env


_GROUP = None


class _R:
    def __init__(self, code, out):
        self.returncode, self.stdout, self.stderr = code, out, ""


def mem(env, *args):
    """Run memory.py in this process (same click group, same gate) to spare the start-up time."""
    global _GROUP
    if _GROUP is None:
        sys.path.insert(0, str(ROOT / "scripts")); sys.path.insert(0, str(ROOT))
        import importlib.util
        spec = importlib.util.spec_from_file_location("memory_script", ROOT / "scripts/memory.py")
        m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
        _GROUP = m.memory
    from click.testing import CliRunner
    r = CliRunner().invoke(_GROUP, list(args), env={k: env[k] for k in ("OPENCLAW_WORKSPACE_DIR", "OPENCLAW_STATE_DIR")})
    return _R(r.exit_code, (r.output or "") + (repr(r.exception) if r.exception and not isinstance(r.exception, SystemExit) else ""))


def variants(n):
    out = {n, unicodedata.normalize("NFKC", n), n.replace("\u200b", ""),
           unicodedata.normalize("NFKC", n.replace("\u200b", ""))}
    # a short hex-only variant (a PIN with its zero-width spaces removed) matches inside hashes: skip it
    return [v for v in out if v and not (v != n and len(v) <= 8 and all(c in "0123456789abcdef" for c in v))]


def hits(wsdir, needle):
    found = []
    vs = variants(needle)
    for p in pathlib.Path(wsdir).rglob("*"):
        rel = str(p.relative_to(wsdir))
        if any(v in rel for v in vs):
            found.append("NAME:" + rel)
        if p.is_file():
            try:
                t = p.read_bytes().decode("utf-8", "replace")
            except OSError:
                continue
            if any(v in t for v in vs):
                found.append(rel)
    return found


CH = {
    "write_cause": lambda i, t: ("write", "--topic", f"t{i}", "--cause", t),
    "write_change": lambda i, t: ("write", "--topic", f"t{i}", "--change", t),
    "write_topic": lambda i, t: ("write", "--topic", t, "--cause", "x"),
    "learn_text": lambda i, t: ("learn", f"k{i}", "--text", t),
    "learn_key": lambda i, t: ("learn", t, "--text", "x"),
    "learn_tags": lambda i, t: ("learn", f"k{i}", "--text", "x", "--tags", t),
    "remember_text": lambda i, t: ("remember", "--skill", "s", "--topic", f"t{i}", "--text", t),
    "remember_topic": lambda i, t: ("remember", "--skill", "s", "--topic", t, "--text", "x"),
    "remember_skill": lambda i, t: ("remember", "--skill", t, "--topic", f"t{i}", "--text", "x"),
    "stats_pattern": lambda i, t: ("stats", "pattern", "--trigger", t, "--skills", "s1"),
    "stats_record": lambda i, t: ("stats", "record", "--skill", t, "--ok"),
    "event_skill": lambda i, t: ("event", "--skill", t),
}


#: The doors that take free text, for writing many phrasings into one workspace (the round 3
#: privacy attack): CH's doors, with a name prefix of their own where two doors would otherwise
#: write the same entry, plus ``write --todo`` and ``lesson``.
TEXT_DOORS = {
    **{k: CH[k] for k in ("write_cause", "write_topic", "learn_text", "learn_key", "remember_text", "remember_topic")},
    "write_todo": lambda i, t: ("write", "--topic", f"u{i}", "--todo", t),
    "learn_tags": lambda i, t: ("learn", f"g{i}", "--text", "x", "--tags", t),
    "remember_skill": lambda i, t: ("remember", "--skill", t, "--topic", f"v{i}", "--text", "x"),
    "lesson": lambda i, t: ("lesson", t),
}


def run_channel(name, items, extra=()):
    wsdir, env = ws()
    rcs = []
    for i, (lab, t, n) in enumerate(items):
        r = mem(env, *CH[name](i, t), *extra)
        rcs.append((r.returncode, (r.stdout + r.stderr)[-300:]))
    return name + ("_appr" if extra else ""), wsdir, rcs


def run_import(kind, items):
    wsdir, env = ws()
    if kind == "import_openclaw":
        lines = ["# 2026-11-28", ""]
        for i, (lab, t, n) in enumerate(items):
            lines += [f"## note {i}", "- " + t.replace("\n", " "), ""]
        pathlib.Path(wsdir, "memory", "2026-11-28.md").write_text("\n".join(lines), encoding="utf-8")
        # also a file whose name carries nothing; content only
        r = mem(env, "import", "--from-openclaw", "--approved", "--json")
    else:
        doc = {"format": "cmm-export", "version": 2, "exported": "2026-11-30T00:00:00+00:00",
               "tool_version": "0.1.0", "daily": [], "knowledge": [], "tier1": [], "tier2": []}
        for i, (lab, t, n) in enumerate(items):
            if kind == "import_daily":
                doc["daily"].append({"id": f"d-20261129-{i:08x}", "date": "2026-11-29", "topic": f"imp {i}",
                                     "pinned": False, "cause": [t], "change": [], "todo": [], "other": []})
            elif kind == "import_daily_topic":
                doc["daily"].append({"id": f"d-20261129-{i:08x}", "date": "2026-11-29", "topic": t,
                                     "pinned": False, "cause": ["x"], "change": [], "todo": [], "other": []})
            elif kind == "import_knowledge":
                doc["knowledge"].append({"id": f"k-{i:010x}", "key": f"ik{i}", "tags": [t], "created": "2026-11-29",
                                         "updated": "2026-11-29", "pinned": False, "body": t})
            elif kind == "import_tier1":
                doc["tier1"].append({"file": f"s{i}_stats.json", "data": {"format": "cmm-t1-stats", "version": 1,
                                     "skill_stats": {f"s{i}": {"calls": 1, "successes": 1, "success_rate": 1.0, "last_used": "2026-11-29"}},
                                     "patterns_observed": [{"trigger": t, "skills_used": [f"s{i}"], "count": 1, "last_seen": "2026-11-29"}]}})
            elif kind == "import_tier2":
                doc["tier2"].append({"file": f"s_imp{i}.md", "text": "---\ntier: internal\nsource_skill: s\nkey_hint: s-2026-11\n"
                                     "created: 2026-11-29\nexpires: 2026-12-29\nformat: cmm-t2\nversion: 1\n"
                                     f"id: t-{i:010x}\ntopic: imp{i}\nscheme: plain\n---\n\n## 加密条目\n> {t}\n"})
        f = pathlib.Path(wsdir).parent / "exp.json"
        f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        r = mem(env, "import", str(f), "--approved", "--json")
    return kind, wsdir, [(r.returncode, (r.stdout + r.stderr)[-600:])]


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "private"
    items = P.PRIVATE if which == "private" else [(l, t, t) for l, t in P.BENIGN]
    jobs = []
    with cf.ProcessPoolExecutor(2) as ex:
        if which == "private":
            for ch in CH:
                jobs.append(ex.submit(run_channel, ch, items))
            for k in ("import_openclaw", "import_daily", "import_daily_topic", "import_knowledge", "import_tier1", "import_tier2"):
                jobs.append(ex.submit(run_import, k, items))
        else:
            for ch in ("write_cause", "learn_text", "remember_text", "stats_pattern"):
                jobs.append(ex.submit(run_channel, ch, items))
                jobs.append(ex.submit(run_channel, ch, items, ("--approved",)))
        res = [j.result() for j in jobs]
    out = []
    for name, wsdir, rcs in res:
        for i, (lab, t, n) in enumerate(items):
            if which == "private":
                h = hits(wsdir, n)
                out.append({"ch": name, "i": i, "label": lab, "needle": n, "hits": h, "ws": wsdir})
            else:
                rc, msg = rcs[i]
                out.append({"ch": name + ("_appr" if False else ""), "i": i, "label": lab, "rc": rc, "msg": msg, "ws": wsdir})
    json.dump({"res": out, "rcs": {r[0] + "|" + r[1]: r[2] for r in res}}, open(f"/tmp/a2-{which}.json", "w"), ensure_ascii=False, indent=0)
    print("done", len(out))
