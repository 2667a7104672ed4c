"""Round 3 privacy attack: every phrasing of privacy_r3_phrasings through every door.

One workspace per door (many writes each), HOME and XDG_CONFIG_HOME in a temp folder.
Private: a line counts as stored when its needle (or its NFKC / zero-width-free form) is found
in any file or file name under the door's workspace or state folder. Benign: refused when the
command exits non-zero without --approved. Prints a JSON summary to stdout, details to a file.
"""
import json, os, pathlib, sys, tempfile, concurrent.futures as cf

BASE = pathlib.Path(os.environ.get("ATTACK_BASE", "/tmp/attack-privacy"))
BASE.mkdir(parents=True, exist_ok=True)
(BASE / "home").mkdir(exist_ok=True); (BASE / "xdg").mkdir(exist_ok=True)
os.environ["HOME"] = str(BASE / "home"); os.environ["XDG_CONFIG_HOME"] = str(BASE / "xdg")
tempfile.tempdir = str(BASE)
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import harness as H  # noqa: E402
import privacy_r3_phrasings as Q  # noqa: E402

DOORS = H.TEXT_DOORS  # one workspace per door here
IMPORTS = ("import_openclaw", "import_daily", "import_daily_topic", "import_knowledge", "import_tier2")
BENIGN_DOORS = ("write_cause", "write_topic", "learn_text", "learn_tags", "remember_text", "lesson")


def hits(root, needle):
    """Files under ``root`` (workspace + state) whose name or text holds the needle."""
    out = []
    for sub in ("ws", "st"):
        out += [sub + "/" + h for h in H.hits(str(pathlib.Path(root) / sub), needle)]
    # the OpenClaw note planted as import source is the user's own file, not the tool's write
    return [h for h in out if h != "ws/memory/2026-11-28.md"]


def run_door(name, items):
    wsdir, env = H.ws()
    rcs = [H.mem(env, *DOORS[name](i, t)) for i, (_k, t, _n) in enumerate(items)]
    return name, str(pathlib.Path(wsdir).parent), [(r.returncode, r.stdout[-200:]) for r in rcs]


def run_import(kind, items):
    kind, wsdir, rcs = H.run_import(kind, items)
    return kind, str(pathlib.Path(wsdir).parent), rcs


def private():
    items = Q.PRIVATE
    with cf.ProcessPoolExecutor(2) as ex:
        jobs = [ex.submit(run_door, d, items) for d in DOORS] + [ex.submit(run_import, k, items) for k in IMPORTS]
        res = [j.result() for j in jobs]
    rows = []
    for door, root, rcs in res:
        for i, (k, t, n) in enumerate(items):
            h = hits(root, n)
            rows.append({"door": door, "kind": k, "i": i, "text": t, "stored": bool(h), "where": h[:3],
                         "rc": rcs[i][0] if len(rcs) > 1 else rcs[0][0]})
    return rows


def benign():
    items = [(k, t, t) for k, t in Q.BENIGN]
    with cf.ProcessPoolExecutor(2) as ex:
        res = [j.result() for j in [ex.submit(run_door, d, items) for d in BENIGN_DOORS]]
    rows = []
    for door, _root, rcs in res:
        for i, (k, t, _n) in enumerate(items):
            rows.append({"door": door, "kind": k, "i": i, "text": t, "refused": rcs[i][0] != 0, "rc": rcs[i][0], "msg": rcs[i][1]})
    return rows


if __name__ == "__main__":
    which = sys.argv[1]
    rows = private() if which == "private" else benign()
    (BASE / f"r3-{which}.json").write_text(json.dumps(rows, ensure_ascii=False, indent=0), encoding="utf-8")
    print(len(rows))
