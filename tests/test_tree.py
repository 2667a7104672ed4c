"""The memory tree has one map (memory_manager/tree.py): its paths are spelled nowhere else,
and the map itself gives the paths formats.md documents."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import ROOT

from memory_manager import tree
from memory_manager.workspace import Workspace

SOURCES = sorted([*(ROOT / "memory_manager").glob("*.py"), *(ROOT / "scripts").glob("*.py")])

#: Names that only ever mean a place in the tree: never allowed in code outside tree.py.
TREE_ONLY = re.compile(r"(?<![\w.-])(memory/|tier1-public|tier2-internal|\.memory-backup|daily-index\.md"
                       r"|knowledge-index\.md|recall-index\.sqlite|memory-manager\.json|\.cache\b|\.state\b)")
#: Names that are also words (a kind, a step): forbidden only where a path is built from them.
PATH_PARTS = {tree.MEMORY, tree.DAILY, tree.KNOWLEDGE, tree.TIER1, tree.TIER2, tree.ARCHIVE, tree.CACHE,
              tree.STATE, tree.BACKUPS, tree.LOCK, tree.DAILY_INDEX, tree.KNOWLEDGE_INDEX, tree.OVERRIDE,
              tree.RECALL_INDEX, tree.ACCESS, tree.MEMORY_MD, tree.MEMORY_MD_LOWER}
PATH_CALLS = {"Path", "PurePath", "PurePosixPath", "join", "joinpath"}


def _docstrings(module: ast.Module) -> set[int]:
    ids = set()
    for node in ast.walk(module):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
        # attribute docstrings (a string right after an assignment) document, too
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                for before, after in zip(stmts, stmts[1:]):
                    if isinstance(before, (ast.Assign, ast.AnnAssign)) and isinstance(after, ast.Expr) \
                            and isinstance(after.value, ast.Constant):
                        ids.add(id(after.value))
    return ids


def _is_part(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in PATH_PARTS


def violations(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    module = ast.parse(source)
    skip = _docstrings(module)
    found = []
    for node in ast.walk(module):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            match = TREE_ONLY.search(node.value)
            if match:
                found.append(f"{where}: {match.group(0)!r} in a string")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and (_is_part(node.left) or _is_part(node.right)):
            found.append(f"{where}: path built with '/'")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in PATH_CALLS and any(_is_part(arg) for arg in node.args):
                found.append(f"{where}: path built with {name}()")
    return found


@pytest.mark.parametrize("source", [p.relative_to(ROOT).as_posix() for p in SOURCES
                                    if p.name != "tree.py"])
def test_tree_paths_are_spelled_only_in_the_tree_module(source):
    assert violations(ROOT / source) == []


def test_the_check_catches_each_way_of_spelling_a_path(tmp_path, monkeypatch):
    sample = ROOT / "memory_manager" / "_sample_for_tree_test.py"
    sample.write_text('from pathlib import Path\nimport os\n'
                      'a = ws / "memory" / "daily"\n'
                      'b = Path("memory")\n'
                      'c = os.path.join(root, "tier2-internal")\n'
                      'd = f"see memory/{x}"\n'
                      'e = {"daily": 1}\n'
                      'def f():\n    """Lives in memory/daily."""\n', encoding="utf-8")
    try:
        found = violations(sample)
    finally:
        sample.unlink()
    lines = sorted(int(item.split(":")[1]) for item in found)
    assert lines == [3, 3, 4, 5, 5, 6]


def test_tree_paths(tmp_path):
    paths = Workspace(tmp_path, {}).paths
    assert paths.rel(paths.daily / "2026-01-02.md") == "memory/daily/2026-01-02.md"
    assert paths.rel(paths.tier2) == "memory/tier2-internal"
    assert paths.rel(paths.tier1) == "memory/tier1-public"
    assert paths.rel(paths.lock) == ".memory-backup/.lock"
    assert paths.rel(paths.recall_index) == "memory/.cache/recall-index.sqlite"
    assert paths.rel(paths.access) == "memory/.state/access.json"
    assert paths.rel(paths.override) == "memory/memory-manager.json"
    assert paths.rel(paths.index("daily")) == "memory/daily-index.md"
    assert paths.rel(paths.index("knowledge")) == "memory/knowledge-index.md"
    assert tree.rel(tree.KNOWLEDGE_INDEX) == "memory/knowledge-index.md"


def test_kind_of(tmp_path):
    paths = tree.Tree(tmp_path)
    assert paths.kind_of(paths.daily / "2026-01-02.md") == "daily"
    assert paths.kind_of(paths.knowledge / "k.md") == "knowledge"
    assert paths.kind_of(paths.tier2 / "s_t.md") == "t2"
    assert paths.kind_of(paths.tier1 / "s_stats.json") == "t1"
    assert paths.kind_of(paths.tier1 / "s_stats.md") is None
    assert paths.kind_of(paths.memory / "2026-01-02.md") == "openclaw"
    assert paths.kind_of(paths.daily_index) is None
    assert paths.kind_of(tmp_path / "memory.md") == "memory_md"
    assert paths.kind_of(tmp_path / "AGENTS.md") is None
    assert paths.kind_of(tmp_path.parent / "x.md") is None


def test_lessons_file_prefers_upper_case_like_openclaw(tmp_path):
    paths = tree.Tree(tmp_path)
    assert paths.lessons_file() is None
    (tmp_path / "memory.md").write_text("x\n", encoding="utf-8")
    assert paths.lessons_file().name in ("memory.md", "MEMORY.md")  # case-insensitive file systems
    (tmp_path / "MEMORY.md").write_text("y\n", encoding="utf-8")
    assert paths.lessons_file().name == "MEMORY.md"


def test_workspace_transaction_commits_or_leaves_originals(tmp_path):
    ws = Workspace(tmp_path)
    target = ws.paths.memory / "a.md"
    target.parent.mkdir()
    target.write_text("old\n", encoding="utf-8")
    with ws.transaction() as tx:
        tx.stage(target, b"new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    with pytest.raises(RuntimeError):
        with ws.transaction() as tx:
            tx.stage(target, b"newer\n")
            raise RuntimeError("gate said no")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["a.md"]
    assert ws.paths.lock.exists()


@pytest.mark.parametrize("source", [p.relative_to(ROOT).as_posix() for p in SOURCES
                                    if p.name != "workspace.py"])
def test_one_way_to_open_a_workspace(source):
    """Only Workspace.open resolves a workspace (cli.open_workspace wraps it for the scripts)."""
    module = ast.parse((ROOT / source).read_text(encoding="utf-8"))
    calls = [node.lineno for node in ast.walk(module) if isinstance(node, ast.Call)
             and getattr(node.func, "id", getattr(node.func, "attr", "")) == "resolve_workspace"]
    assert calls == []


PER_TURN = """
import json, sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {scripts!r})
before = set(sys.modules)
import memory_manager.hookrun, memory_manager.clock, memory_manager.tree, memory_manager.workspace
import detect
from memory_manager.clock import today
today()
new = sorted(m.split(".")[0] for m in set(sys.modules) - before)
print(json.dumps(sorted(set(m for m in new if m not in sys.stdlib_module_names and not m.startswith("_")))))
"""


def test_the_per_turn_path_imports_the_standard_library_only():
    """Hooks and detect.py run on every agent turn: nothing but the standard library and our package."""
    import json
    import subprocess
    import sys

    code = PER_TURN.format(root=str(ROOT), scripts=str(ROOT / "scripts"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == ["detect", "memory_manager"]
