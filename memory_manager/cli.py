"""The command-line edge: the only module that imports click and rich.

It provides the options every script shares (``--workspace``, ``--json``,
``--verbose``, ``--version``), turns typed :mod:`memory_manager.errors` into
one-line messages and exit codes (0 success, 1 domain error or findings,
2 usage or bad input), and prints results: one JSON document on stdout with
``--json``, rich output otherwise, diagnostics on stderr.
"""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any, Callable

import click
from rich.console import Console

from . import __version__
from .errors import MemoryManagerError
from .workspace import Workspace

stdout = Console(soft_wrap=True, highlight=False)
stderr = Console(stderr=True, soft_wrap=True, highlight=False)


def common_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--workspace``, ``--json``, ``--verbose`` and ``--version`` to a command."""
    func = click.option("--verbose", "-v", is_flag=True, help="Say which rule chose the workspace, and more.")(func)
    func = click.option("json_", "--json", is_flag=True, help="Print exactly one JSON document on stdout.")(func)
    func = click.option("--workspace", "-w", type=click.Path(file_okay=True, dir_okay=True, path_type=Path),
                        default=None, help="Workspace folder (default: OPENCLAW_WORKSPACE_DIR, OpenClaw's config, ~/.openclaw/workspace).")(func)
    func = click.version_option(__version__, "--version", prog_name="complex-memory-manager")(func)
    return func


def emit_json(doc: Any) -> None:
    """Write one JSON document to stdout."""
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2, default=str) + "\n")


def fail(exc: MemoryManagerError, as_json: bool) -> None:
    """Report ``exc`` and exit with its code (JSON document on stdout with --json)."""
    message = str(exc) or exc.__class__.__name__
    if as_json:
        emit_json({"error": message, "kind": exc.kind})
    else:
        stderr.print(f"error: {message}", markup=False)
    sys.exit(exc.exit_code)


def handle_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn typed errors into exit codes; the wrapped command returns its exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("json_"))
        try:
            code = func(*args, **kwargs)
        except MemoryManagerError as exc:
            fail(exc, as_json)
        except OSError as exc:
            # The file system said no somewhere we did not expect (a symlink loop, a
            # vanished folder, EIO): one line and exit 1, never a traceback. Whatever
            # was being written was written atomically, so nothing is half-done.
            where = f"{exc.filename}: " if exc.filename else ""
            err = MemoryManagerError(f"{where}{exc.strerror or exc}")
            err.kind = "os_error"
            fail(err, as_json)
        except KeyboardInterrupt:
            stderr.print("interrupted")
            sys.exit(130)
        sys.exit(code or 0)

    return wrapper


def verbose_line(enabled: bool, text: str) -> None:
    """Print a diagnostic line on stderr when ``--verbose`` is set."""
    if enabled:
        stderr.print(text, markup=False)


def open_workspace(workspace: Path | None, verbose: bool = False, **how: Any) -> Workspace:
    """Open the workspace (:meth:`Workspace.open`), saying which rule won under ``--verbose``.

    ``how`` is passed on (``must_exist``, ``set_up``, ``event``).
    Raises WorkspaceError / ConfigError (exit 2).
    """
    opened = Workspace.open(workspace, **how)
    verbose_line(verbose, f"workspace: {opened.root} (chosen by {opened.rule})")
    opened.config  # noqa: B018 - load now: a bad config is reported before any work starts
    return opened


def run(command: click.Command) -> None:
    """Run a click command with usage errors mapped to exit 2 (one line on stderr)."""
    try:
        command.main(standalone_mode=False)
    except click.UsageError as exc:
        as_json = "--json" in sys.argv[1:]
        if as_json:
            emit_json({"error": exc.format_message(), "kind": "usage"})
        else:
            stderr.print(f"error: {exc.format_message()}", markup=False)
        sys.exit(2)
    except click.exceptions.Abort:
        stderr.print("aborted")
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        stderr.print(f"error: {exc.format_message()}", markup=False)
        sys.exit(exc.exit_code)
