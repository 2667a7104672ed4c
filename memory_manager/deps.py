"""Checking that the runtime dependencies are importable (standard library only).

A user who got the bundle through ``clawhub install`` has only ``python3``.
Every click front end calls :func:`require` first: when something is missing
it prints the one command that installs everything and exits 2. Nothing is
installed silently; ``init --install-deps`` runs :func:`install` because the
user asked for it.
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys

from . import BUNDLE_ROOT

#: import name -> distribution name (requirements.txt holds the version ranges).
MODULES = {
    "click": "click",
    "rich": "rich",
    "yaml": "PyYAML",
    "cryptography": "cryptography",
    "filelock": "filelock",
    "phonenumbers": "phonenumbers",
    "stdnum": "python-stdnum",
    "snowballstemmer": "snowballstemmer",
}
REQUIREMENTS = BUNDLE_ROOT / "requirements.txt"
#: The optional extra of ``memory.py report`` (charts and the page template):
#: import name -> distribution name. Nothing else in the bundle needs them,
#: so :func:`require` and ``init --install-deps`` leave them out.
REPORT_MODULES = {"jinja2": "Jinja2", "matplotlib": "matplotlib"}
REPORT_REQUIREMENTS = BUNDLE_ROOT / "requirements-report.txt"


def install_command() -> list[str]:
    """Return the pip command that installs the bundle's requirements for this user."""
    cmd = [sys.executable, "-m", "pip", "install"]
    if sys.prefix == sys.base_prefix:  # not in a virtual environment
        cmd.append("--user")
    return cmd + ["-r", str(REQUIREMENTS)]


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


def require(allow_install: bool = False) -> None:
    """Exit 2 with the install command when a dependency is missing.

    With ``allow_install`` (``init.py`` only) and ``--install-deps`` on the
    command line, run the install command first, because the user asked.
    """
    if allow_install and "--install-deps" in sys.argv[1:]:
        if install() != 0:
            sys.stderr.write("error: installing the requirements failed (see pip's output above)\n")
            raise SystemExit(1)
        # A --user install lands in the user site folder, which this interpreter
        # did not put on sys.path at start-up when it did not exist yet.
        import site

        user_site = site.getusersitepackages()
        if user_site not in sys.path:
            site.addsitedir(user_site)
        importlib.invalidate_caches()
    absent = missing()
    if absent:
        cmd = " ".join(install_command())
        message = f"missing Python packages: {', '.join(absent)}. Install them with: {cmd}"
        if "--json" in sys.argv[1:]:  # the --json contract holds even here
            import json

            sys.stdout.write(json.dumps({"error": message, "kind": "missing_dependencies"}, allow_nan=False) + "\n")
        sys.stderr.write(f"error: missing Python packages: {', '.join(absent)}. Install them with:\n  {cmd}\n")
        raise SystemExit(2)


def install() -> int:
    """Run the install command (only when the user asked: ``init --install-deps``)."""
    cmd = install_command()
    sys.stderr.write("running: " + " ".join(cmd) + "\n")
    return subprocess.call(cmd)
