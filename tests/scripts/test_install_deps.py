"""init --install-deps on a stock Debian Python (issue 14, item 4).

These run Debian's own ``/usr/bin/python3`` (PEP 668 externally managed, no
click) on a copy of the bundle and install from the package index pip is
configured with. Where that Python is absent they are deselected with a note
(conftest.py), not skipped.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT
from memory_manager import deps
from memory_manager.errors import MissingDependencyError

DEBIAN_PY = Path("/usr/bin/python3")
pytestmark = pytest.mark.external(Path("/usr/lib/python3/dist-packages/pip"), DEBIAN_PY,
                                  reason="Debian's /usr/bin/python3 with its pip")


def _bundle_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "skills" / "complex-memory-manager"
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "tests", "bench"))
    return dest


def _debian(args, tmp_path, **kw):
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "MEMORY_MANAGER_NO_VENV")}
    env["PATH"] = "/usr/bin:/bin"  # no openclaw, Debian's python3
    return subprocess.run([str(DEBIAN_PY), *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=900, **kw)


def test_dry_run_creates_and_installs_nothing(tmp_path, ws):
    bundle = _bundle_copy(tmp_path)
    before = sorted(p.relative_to(bundle) for p in bundle.rglob("*"))
    proc = _debian([bundle / "scripts" / "init.py", "-w", ws, "--install-deps", "--dry-run"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"  {DEBIAN_PY} -m venv {bundle / '.venv'}\n" in proc.stderr
    assert "--break-system-packages" not in proc.stderr
    assert "nothing created or installed" in proc.stderr
    assert sorted(p.relative_to(bundle) for p in bundle.rglob("*")) == before and list(ws.iterdir()) == []


def test_install_deps_makes_a_venv_in_the_skill_folder_and_records_its_python(tmp_path, ws):
    bundle = _bundle_copy(tmp_path)
    proc = _debian([bundle / "scripts" / "init.py", "-w", ws, "--install-deps", "--yes"], tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    venv_py = bundle / ".venv" / "bin" / "python"
    assert venv_py.exists()
    assert f"creating a virtual environment in {bundle / '.venv'}" in proc.stderr
    doc = json.loads((ws / "hooks" / "memory-manager-bootstrap" / "bundle-path.json").read_text())
    assert doc["python"] == str(venv_py) and doc["bundle"] == str(bundle.resolve())
    # Later runs with the plain python3 find the venv by themselves.
    status = _debian([bundle / "scripts" / "memory.py", "status", "-w", ws, "--json"], tmp_path)
    assert status.returncode == 0, status.stderr
    assert "memory_size" in json.loads(status.stdout)


def test_without_ensurepip_the_system_pip_installs_into_the_venv(tmp_path):
    venv = tmp_path / "v"
    python, pip = deps.create_venv(venv, python=str(DEBIAN_PY), ensurepip=False)
    assert pip == [str(DEBIAN_PY), "-m", "pip", "--python", str(venv / "bin" / "python")]
    assert not (venv / "bin" / "pip").exists()  # made --without-pip
    req = tmp_path / "req.txt"
    req.write_text("snowballstemmer\n")
    proc = subprocess.run(pip + ["install", "-q", "-r", str(req)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    check = subprocess.run([str(python), "-c", "import snowballstemmer"], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_no_venv_possible_fails_with_one_line_naming_the_debian_packages(tmp_path):
    with pytest.raises(MissingDependencyError) as info:
        deps.create_venv(tmp_path / "v", python="/bin/false")
    assert str(info.value) == ("cannot create a virtual environment with /bin/false; install the Debian packages "
                               "first: sudo apt install python3-venv python3-pip")
    assert "\n" not in str(info.value)


def test_dry_run_says_what_and_where(tmp_path, ws):
    """Walk-through r3, item 16: the packages, the folder they go to, the commands; nothing made."""
    bundle = _bundle_copy(tmp_path)
    proc = _debian([bundle / "scripts" / "init.py", "-w", ws, "--install-deps", "--dry-run"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == "--install-deps --dry-run:"
    assert lines[1].startswith("missing here: ") and "click" in lines[1]
    assert lines[2].startswith(f"would install from {bundle / 'requirements.txt'}: click>=")
    assert lines[3] == (f"into a virtual environment in the skill folder, {bundle / '.venv'} "
                        f"(its Python: {bundle / '.venv' / 'bin' / 'python'})")
    assert lines[4:7] == ["would run:", f"  {DEBIAN_PY} -m venv {bundle / '.venv'}",
                          f"  {bundle / '.venv' / 'bin' / 'python'} -m pip install -r {bundle / 'requirements.txt'}"]
    assert lines[-1].startswith("what init would change in the workspace: shown by `init.py --dry-run` once")
    assert not (bundle / ".venv").exists() and list(ws.iterdir()) == []


@pytest.mark.parametrize("script", ["init", "memory"])
def test_help_works_without_the_packages(tmp_path, script):
    bundle = _bundle_copy(tmp_path)
    proc = _debian([bundle / "scripts" / f"{script}.py", "--help"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"{script}.py: ")
    assert lines[2].startswith("The full help needs the Python packages this bundle uses, missing here: ")
    assert lines[4] == f"  {DEBIAN_PY} {bundle / 'scripts' / 'init.py'} --install-deps --yes"
    assert not (bundle / ".venv").exists()


def _requirement_dists() -> set[str]:
    """Distribution names in requirements.txt that apply to this Python (markers: python_version only)."""
    import sys

    names = set()
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        spec, _, marker = line.partition(";")
        if marker.strip() == 'python_version < "3.14"' and sys.version_info >= (3, 14):
            continue
        names.add(spec.split(">")[0].split("<")[0].split("=")[0].strip())
    return names


def test_modules_name_every_requirement():
    # walk-through r6, finding 9: holidays, json5, confusable-homoglyphs and zstandard were not checked
    assert set(deps.MODULES.values()) == _requirement_dists()


def test_dry_run_names_every_package_pip_would_install(tmp_path, ws):
    bundle = _bundle_copy(tmp_path)
    proc = _debian([bundle / "scripts" / "init.py", "-w", ws, "--install-deps", "--dry-run"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    have = _debian(["-c", "import importlib.metadata as m, sys\nfor d in sys.argv[1:]:\n"
                          "    try: m.distribution(d); print(d)\n    except m.PackageNotFoundError: pass",
                    *sorted(_requirement_dists())], tmp_path).stdout.split()
    line = next(text for text in proc.stderr.splitlines() if text.startswith("missing here: "))
    assert set(line[len("missing here: "):].split(", ")) == _requirement_dists() - set(have)


def test_dry_run_previews_from_the_bundle_venv(tmp_path, ws):
    import sys

    bundle = _bundle_copy(tmp_path)
    (bundle / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)  # a venv with every package
    proc = _debian([bundle / "scripts" / "init.py", "-w", ws, "--install-deps", "--dry-run"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("--install-deps --dry-run:\nnothing missing; pip would only check the versions\n"
                                  f"into this virtual environment, {bundle / '.venv'}\n")
    assert "\n  AGENTS.md " in proc.stdout and "once the packages are installed" not in proc.stderr
    assert "\ndry run: nothing was changed. " in proc.stdout
    assert list(ws.iterdir()) == []
