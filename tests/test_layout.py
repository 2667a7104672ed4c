"""Project-wide rules: the package never imports the CLI libraries, every script has help and
--version, shipped files hold no secret-looking literal, SKILL.md frontmatter is what OpenClaw accepts."""
from __future__ import annotations

import ast
import re
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT

from memory_manager import __version__

PACKAGE = ROOT / "memory_manager"
SCRIPTS = sorted(p for p in (ROOT / "scripts").glob("*.py") if not p.name.startswith("_"))
CLI_LIBS = {"click", "rich"}


@pytest.mark.parametrize("module", sorted(p.name for p in PACKAGE.glob("*.py")))
def test_package_does_not_import_cli_libraries(module):
    if module == "cli.py":
        return
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            assert name.split(".")[0] not in CLI_LIBS, f"{module} imports {name}"


@pytest.mark.parametrize("script", [p.name for p in SCRIPTS])
def test_every_script_has_help_and_version(script):
    path = ROOT / "scripts" / script
    help_ = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True)
    assert help_.returncode == 0 and "--help" in help_.stdout
    version = subprocess.run([sys.executable, str(path), "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and __version__ in version.stdout


@pytest.mark.parametrize("script", [p.name for p in SCRIPTS])
def test_every_script_starts_with_the_bootstrap_lines(script):
    lines = (ROOT / "scripts" / script).read_text(encoding="utf-8").splitlines()
    body = [line for line in lines if line.strip() and not line.startswith("#")]
    # After the two lines of the early Ctrl-C handler (walk-through r4, item 16).
    assert "sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))" in "\n".join(body[:8])


def test_skill_frontmatter():
    text = (ROOT / "SKILL.md").read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    meta = yaml.safe_load(match.group(1))
    assert meta["name"] == "complex-memory-manager"
    assert "version" not in meta
    assert 0 < len(meta["description"]) < 160 and "\n" not in meta["description"]
    assert meta["metadata"]["openclaw"]["requires"]["bins"] == ["python3"]
    assert meta["metadata"]["openclaw"]["emoji"]
    for command in re.findall(r"python3 \{baseDir\}/scripts/(\w+)\.py", text):
        assert (ROOT / "scripts" / f"{command}.py").exists(), command


def test_package_yaml_is_the_version_source():
    manifest = yaml.safe_load((ROOT / "package.yaml").read_text(encoding="utf-8"))
    assert manifest["name"] == "complex-memory-manager" and manifest["version"] == __version__
    for script in manifest["scripts"].values():
        assert (ROOT / script).exists(), script
    for fmt in manifest["formats"]:
        assert fmt["id"] in (ROOT / "references" / "formats.md").read_text(encoding="utf-8")


# Shapes ClawHub-style scanners flag as leaked credentials. Shipped files must not contain
# them; tests assemble fake keys at run time instead.
SECRET_SHAPES = [
    re.compile(r"(?<![A-Za-z0-9_-])sk-(?:proj-)?[A-Za-z0-9_-]{20,}"),
    re.compile(r"gh[pousr]_[A-Za-z0-9]{36}"),
    re.compile(r"AKIA[0-9A-Z]{16}"),
    re.compile(r"xox[baprs]-[0-9A-Za-z-]{10,}"),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    re.compile(r"AIza[0-9A-Za-z_-]{35}"),
    re.compile(r"(?:sk|rk)_live_[0-9A-Za-z]{20,}"),
]


def _shipped_files():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True)
    for name in out.stdout.splitlines():
        path = ROOT / name
        if path.is_file() and path.suffix not in {".sqlite", ".png"}:
            yield path


#: Independent evaluation sets for the privacy detector: written by people who never saw the
#: rules, with literal synthetic values (a detector must be measured on what it will meet,
#: not on fakes our own generator makes). They live under bench/, which .clawhubignore keeps
#: out of the published skill.
EVALUATION_SETS = re.compile(r"^bench/privacy_corpus/(?:(?:independent|heldout)-[a-z]\.tsv|multiline-[a-z]\.json|heldout-[a-z]-multiline\.json)$")


def test_no_secret_looking_literals():
    offenders = []
    for path in _shipped_files():
        if EVALUATION_SETS.match(path.relative_to(ROOT).as_posix()):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for pattern in SECRET_SHAPES:
            if pattern.search(text):
                offenders.append(f"{path.relative_to(ROOT)}: {pattern.pattern}")
    assert offenders == []
