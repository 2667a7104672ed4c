"""Checking that the runtime dependencies are importable (standard library only).

A user who got the bundle through ``clawhub install`` has only ``python3``.
Every click front end calls :func:`require` first: when something is missing
it prints the one command that installs everything and exits 2. Nothing is
installed silently; ``init --install-deps`` runs :func:`install` because the
user asked for it.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from . import BUNDLE_ROOT

#: import name -> distribution name, one per line of requirements.txt (which holds the
#: version ranges; tests/scripts/test_install_deps.py keeps the two in step).
MODULES = {
    "click": "click",
    "rich": "rich",
    "yaml": "PyYAML",
    "cryptography": "cryptography",
    "filelock": "filelock",
    "phonenumbers": "phonenumbers",
    "stdnum": "python-stdnum",
    "opencc": "opencc-python-reimplemented",
    "snowballstemmer": "snowballstemmer",
    "json5": "json5",
    "holidays": "holidays",
    "confusable_homoglyphs": "confusable-homoglyphs",
    "ahocorasick": "pyahocorasick",
}
if sys.version_info < (3, 14):  # requirements.txt: zstandard ; python_version < "3.14" (3.14 has compression.zstd)
    MODULES["zstandard"] = "zstandard"
REQUIREMENTS = BUNDLE_ROOT / "requirements.txt"
#: The optional extra of ``memory.py report`` (charts and the page template):
#: import name -> distribution name. Nothing else in the bundle needs them,
#: so :func:`require` and ``init --install-deps`` leave them out.
REPORT_MODULES = {"jinja2": "Jinja2", "matplotlib": "matplotlib"}
REPORT_REQUIREMENTS = BUNDLE_ROOT / "requirements-report.txt"


#: The virtual environment ``init --install-deps`` creates inside the skill
#: folder when the user site is refused (PEP 668 "externally-managed-environment",
#: stock Debian/Ubuntu Python). Its Python is recorded in bundle-path.json.
BUNDLE_VENV = BUNDLE_ROOT / ".venv"
#: The Debian/Ubuntu packages that give a Python venv and pip (named in the error line).
DEBIAN_HINT = "sudo apt install python3-venv python3-pip"


def venv_python(venv: Path = BUNDLE_VENV) -> Path:
    """The Python of virtual environment ``venv`` (POSIX layout, else Windows)."""
    posix = Path(venv) / "bin" / "python"
    return posix if posix.exists() or os.name != "nt" else Path(venv) / "Scripts" / "python.exe"


def in_venv() -> bool:
    """True when this interpreter runs inside a virtual environment."""
    return sys.prefix != sys.base_prefix


def user_site_refused() -> bool:
    """True when pip would refuse a ``--user`` install here (PEP 668 marker next to the stdlib)."""
    import sysconfig

    return not in_venv() and (Path(sysconfig.get_path("stdlib")) / "EXTERNALLY-MANAGED").is_file()


def install_command() -> list[str]:
    """Return the pip command that installs the bundle's requirements for this user.

    Inside a virtual environment: into it. Where the user site is refused
    (PEP 668): into the bundle's own venv (``init --install-deps`` creates it).
    Otherwise ``pip install --user``.
    """
    if in_venv():
        return [sys.executable, "-m", "pip", "install", "-r", str(REQUIREMENTS)]
    if user_site_refused():
        return [str(venv_python()), "-m", "pip", "install", "-r", str(REQUIREMENTS)]
    return [sys.executable, "-m", "pip", "install", "--user", "-r", str(REQUIREMENTS)]


class InstallPlan:
    """What ``--install-deps`` does: ``steps`` (commands, as lists) and ``venv`` (a folder or None)."""

    def __init__(self, steps: list[list[str]], venv: Path | None, note: str = "") -> None:
        self.steps, self.venv, self.note = steps, venv, note


def install_plan(requirements: Path = REQUIREMENTS, venv: Path = BUNDLE_VENV,
                 python: str = sys.executable) -> InstallPlan:
    """Decide how to install ``requirements`` (no side effect; ``--dry-run`` prints this).

    Order: a venv we run in -> pip into it; the user site allowed -> ``pip
    install --user``; refused (PEP 668) -> a venv in the skill folder. Never
    ``--break-system-packages``.
    """
    req = str(requirements)
    if in_venv():
        return InstallPlan([[python, "-m", "pip", "install", "-r", req]], None)
    if not user_site_refused():
        return InstallPlan([[python, "-m", "pip", "install", "--user", "-r", req]], None)
    vpy = str(venv_python(venv))
    steps = [] if Path(vpy).exists() else [[python, "-m", "venv", str(venv)]]
    steps.append([vpy, "-m", "pip", "install", "-r", req])
    return InstallPlan(steps, Path(venv), "this Python refuses user installs (externally-managed-environment): "
                       f"the packages go into a virtual environment in the skill folder, {venv}")


def create_venv(venv: Path, python: str = sys.executable, ensurepip: bool = True,
                run=subprocess.run) -> tuple[Path, list[str] | None]:
    """Create ``venv``; return ``(its python, pip prefix to install with)``.

    With ensurepip (the normal case) the venv has its own pip: the prefix is
    ``[venv python, -m, pip]``. Without it (Debian without python3-venv) the
    venv is made ``--without-pip`` and the system pip installs into it through
    its ``--python`` option (pip >= 22.3): ``[python, -m, pip, --python, venv python]``.

    Raises:
        MissingDependencyError: neither works; the message names the Debian packages.
    """
    from .errors import MissingDependencyError

    vpy = venv_python(venv)
    if ensurepip and not vpy.exists():
        proc = run([python, "-m", "venv", str(venv)], capture_output=True, text=True)
        if proc.returncode == 0 and _has_pip(str(vpy), run):
            return vpy, [str(vpy), "-m", "pip"]
    elif vpy.exists() and _has_pip(str(vpy), run):
        return vpy, [str(vpy), "-m", "pip"]
    if not vpy.exists():
        proc = run([python, "-m", "venv", "--without-pip", str(venv)], capture_output=True, text=True)
        if proc.returncode != 0 or not vpy.exists():
            raise MissingDependencyError(f"cannot create a virtual environment with {python}; install the "
                                         f"Debian packages first: {DEBIAN_HINT}")
    probe = run([python, "-m", "pip", "--python", str(vpy), "--version"], capture_output=True, text=True)
    if probe.returncode != 0:
        raise MissingDependencyError(f"{venv} has no pip and {python} has no pip with --python (22.3 or newer); "
                                     f"install the Debian packages first: {DEBIAN_HINT}")
    return vpy, [python, "-m", "pip", "--python", str(vpy)]


def _has_pip(python: str, run) -> bool:
    return run([python, "-m", "pip", "--version"], capture_output=True, text=True).returncode == 0


def install_deps(requirements: Path = REQUIREMENTS, venv: Path = BUNDLE_VENV, python: str = sys.executable,
                 ensurepip: bool = True, run=subprocess.run) -> Path | None:
    """Install ``requirements`` (``init --install-deps``); return the venv's Python, or None.

    Follows :func:`install_plan`; a ``--user`` install that pip refuses as
    externally managed falls back to the venv as well. pip's own output
    goes to stderr.

    Raises:
        MissingDependencyError: the venv cannot be made or pip fails.
    """
    from .errors import MissingDependencyError

    plan = install_plan(requirements, venv, python)
    if plan.venv is None:
        cmd = plan.steps[-1]
        sys.stderr.write("running: " + " ".join(cmd) + "\n")
        proc = run(cmd, capture_output=True, text=True)
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        if proc.returncode == 0:
            return None
        if "externally-managed-environment" not in proc.stdout + proc.stderr:
            raise MissingDependencyError("installing the requirements failed (see pip's output above)")
    sys.stderr.write(f"creating a virtual environment in {venv} (this Python refuses user installs)\n")
    vpy, pip = create_venv(venv, python, ensurepip, run)
    cmd = pip + ["install", "-r", str(requirements)]
    sys.stderr.write("running: " + " ".join(cmd) + "\n")
    proc = run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        raise MissingDependencyError(f"installing the requirements into {venv} failed (see pip's output above)")
    return vpy


def report_install_command() -> list[str]:
    """Return the pip command that installs the report's extra (``requirements-report.txt``)."""
    return install_command()[:-1] + [str(REPORT_REQUIREMENTS)]


def require_report() -> None:
    """Check the report's extra is importable.

    Raises:
        MissingDependencyError: (exit 1) naming the missing distributions and
            the one command that installs them.
    """
    from .errors import MissingDependencyError

    absent = [dist for mod, dist in REPORT_MODULES.items() if importlib.util.find_spec(mod) is None]
    if absent:
        raise MissingDependencyError(f"the report needs {', '.join(absent)}; install with: "
                                     + " ".join(report_install_command()))


def missing() -> list[str]:
    """Return the distribution names whose modules cannot be imported."""
    return [dist for mod, dist in MODULES.items() if importlib.util.find_spec(mod) is None]


def not_installed() -> list[str]:
    """Return the distributions pip would have to install here: module not importable, or not installed under that name.

    Stricter than :func:`missing` (used by ``--install-deps --dry-run``): a
    module of the same name from another distribution (Debian's
    ``python3-opencc`` gives ``opencc`` but is not opencc-python-reimplemented)
    does not count as installed, as pip sees it (walk-through r6, finding 9).
    """
    import importlib.metadata

    out = []
    for mod, dist in MODULES.items():
        try:
            importlib.metadata.distribution(dist)
        except importlib.metadata.PackageNotFoundError:
            out.append(dist)
            continue
        if importlib.util.find_spec(mod) is None:
            out.append(dist)
    return out


def require(allow_install: bool = False) -> None:
    """Exit 2 with the install command when a dependency is missing.

    With ``allow_install`` (``init.py`` only) and ``--install-deps`` on the
    command line, install first, because the user asked (:func:`install_deps`;
    with ``--dry-run`` only say what would run). When the packages are
    missing here but the bundle's venv exists, run the script again with
    that venv's Python (the user typed ``python3 scripts/x.py``), unless
    ``MEMORY_MANAGER_NO_VENV`` is set (it is, for that second run).
    """
    argv = sys.argv[1:]
    if allow_install and "--install-deps" in argv:
        if "--dry-run" in argv:
            if (missing() and not in_venv() and venv_python().exists()
                    and not os.environ.get("MEMORY_MANAGER_NO_VENV")):
                # The bundle's venv (an earlier --install-deps made it) is what every
                # script runs with: preview from there (walk-through r6, finding 9).
                _reexec(venv_python(), keep_install=True)
            plan = install_plan()
            absent = not_installed()
            sys.stderr.write(dry_run_text(plan, absent))
            if absent:
                # Nothing was created or installed; init's own preview needs the packages.
                sys.stderr.write("what init would change in the workspace: shown by `init.py --dry-run` once the "
                                 "packages are installed (the preview needs them); nothing created or installed\n")
                raise SystemExit(0)
        elif missing():
            from .errors import MissingDependencyError

            try:
                vpy = install_deps()
            except MissingDependencyError as exc:
                sys.stderr.write(f"error: {exc}\n")
                raise SystemExit(1) from None
            if vpy is not None:
                _reexec(vpy)
            # A --user install lands in the user site folder, which this interpreter
            # did not put on sys.path at start-up when it did not exist yet.
            import site

            user_site = site.getusersitepackages()
            if user_site not in sys.path:
                site.addsitedir(user_site)
            importlib.invalidate_caches()
    absent = missing()
    # (The venv's python is a symlink to this very interpreter: compare prefixes, not files.)
    if absent and not in_venv() and venv_python().exists() and not os.environ.get("MEMORY_MANAGER_NO_VENV"):
        _reexec(venv_python())
    if absent and ("--help" in argv or "-h" in argv):
        _help_without_packages(allow_install)
    if absent:
        cmd = " ".join(install_command())
        if user_site_refused() and not venv_python().exists():
            cmd = f"{sys.executable} {BUNDLE_ROOT / 'scripts' / 'init.py'} --install-deps --yes"
        message = f"missing Python packages: {', '.join(absent)}. Install them with: {cmd}"
        if "--json" in argv:  # the --json contract holds even here
            import json

            sys.stdout.write(json.dumps({"error": message, "kind": "missing_dependencies"}, allow_nan=False) + "\n")
        sys.stderr.write(f"error: missing Python packages: {', '.join(absent)}. Install them with:\n  {cmd}\n")
        raise SystemExit(2)


def _requirement_names(requirements: Path = REQUIREMENTS) -> list[str]:
    """The requirement lines of ``requirements`` (comments and blanks left out), as written."""
    try:
        lines = requirements.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    return [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


def dry_run_text(plan: InstallPlan, absent: list[str]) -> str:
    """What ``init --install-deps --dry-run`` prints (stderr): what, where, and the commands.

    ``absent`` are the missing distributions (:func:`missing`).
    """
    import site

    if plan.venv is not None:
        where = f"a virtual environment in the skill folder, {plan.venv} (its Python: {venv_python(plan.venv)})"
    elif in_venv():
        where = f"this virtual environment, {sys.prefix}"
    else:
        where = f"your user site folder, {site.getusersitepackages()}"
    lines = ["--install-deps --dry-run:"]
    if absent:
        lines.append(f"missing here: {', '.join(absent)}")
        lines.append(f"would install from {REQUIREMENTS}: {', '.join(_requirement_names()) or '(unreadable)'}")
    else:
        lines.append("nothing missing; pip would only check the versions")
    lines.append(f"into {where}")
    lines.append("would run:")
    lines += ["  " + " ".join(c) for c in plan.steps]
    if plan.note:
        lines.append(f"({plan.note})")
    return "\n".join(lines) + "\n"


def use_bundle_venv() -> None:
    """Run this script again with the bundle's venv Python when the packages are missing here and it has them.

    What :func:`require` does first; for ``doctor.py``, which checks the
    packages itself (walk-through r4, item 11: it reported them missing and
    offered to install them into a venv that already had them). Returns when
    there is nothing to do (packages present, already in a venv, no bundle
    venv, or ``MEMORY_MANAGER_NO_VENV`` set); otherwise never returns.
    """
    if missing() and not in_venv() and venv_python().exists() and not os.environ.get("MEMORY_MANAGER_NO_VENV"):
        _reexec(venv_python())


def help_without_packages() -> None:
    """``--help`` with the packages missing (exit 0): the script's purpose and how to install them."""
    _help_without_packages(False)


def _help_without_packages(allow_install: bool) -> None:
    """``--help`` where the packages are missing: the script's purpose and how to install them; exit 0."""
    main = sys.modules.get("__main__")
    script = Path(sys.argv[0]).name
    purpose = ((getattr(main, "__doc__", None) or "").strip().splitlines() or [script])[0]
    cmd = f"{sys.executable} {BUNDLE_ROOT / 'scripts' / 'init.py'} --install-deps --yes"
    sys.stdout.write(f"{purpose}\n\nThe full help needs the Python packages this bundle uses, missing here: "
                     f"{', '.join(missing())}.\nInstall them with:\n  {cmd}\n"
                     f"(preview that with --install-deps --dry-run), then run {script} --help again.\n")
    if allow_install:
        sys.stdout.write("\nOptions that work now: --install-deps [--dry-run] [--yes], --help.\n")
    raise SystemExit(0)


def _reexec(python: Path, keep_install: bool = False) -> None:
    """Run this script again with ``python`` (the bundle's venv), same arguments; never returns.

    ``--install-deps`` is dropped (it was done) unless ``keep_install``.
    """
    os.environ["MEMORY_MANAGER_NO_VENV"] = "1"  # once: a venv without the packages must not loop
    args = [a for a in sys.argv[1:] if keep_install or a != "--install-deps"]
    os.execv(str(python), [str(python), os.path.abspath(sys.argv[0]), *args])


def install() -> int:
    """Install the requirements (:func:`install_deps`); return 0, or 1 after an error line on stderr."""
    from .errors import MissingDependencyError

    try:
        install_deps()
    except MissingDependencyError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 1
    return 0
