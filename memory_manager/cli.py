"""The command-line edge: the only module that imports click and rich.

It provides the options every script shares (``--workspace``, ``--json``,
``--verbose``, ``--version``), turns typed :mod:`memory_manager.errors` into
one-line messages and exit codes (0 success, 1 domain error or findings,
2 usage or bad input), and prints results: one JSON document on stdout with
``--json``, rich output otherwise, diagnostics on stderr.

The top-level guard (:func:`run` and :func:`handle_errors`) is the error
contract of every script: whatever goes wrong, the user gets one line on
stderr (or one ``{"error", "kind"}`` JSON document under ``--json``) and an
exit code, never a traceback. An error nobody expected (a bug) exits 1 with
kind ``internal``; ``--debug`` (or ``MEMORY_MANAGER_DEBUG=1``) prints the
traceback too. JSON is written with ``allow_nan=False``: ``NaN`` is not JSON
(RFC 8259 section 6), so a non-finite number is an error, not a broken
document. Python warnings (a key file others can read) print as
``warning: ...`` lines on stderr.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import time
import traceback
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator

import click
from rich.console import Console

from . import __version__, interrupts
from .errors import MemoryManagerError
from .workspace import Workspace

stdout = Console(soft_wrap=True, highlight=False)
stderr = Console(stderr=True, soft_wrap=True, highlight=False)

#: Set by ``--debug`` (stripped from argv by :func:`run`) or ``MEMORY_MANAGER_DEBUG=1``.
DEBUG = os.environ.get("MEMORY_MANAGER_DEBUG", "") not in ("", "0")
#: Whether the running command was given ``--json`` (set by :func:`run` and :func:`handle_errors`).
_AS_JSON = False


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:  # noqa: ANN001
    stderr.print(f"warning: {message}", markup=False)


def common_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--workspace``, ``--json``, ``--verbose`` and ``--version`` to a command."""
    func = click.option("--debug", is_flag=True, expose_value=False, is_eager=True, callback=_set_debug,
                        help="On an unexpected error, print the traceback too.")(func)
    func = click.option("--verbose", "-v", is_flag=True, help="Say which rule chose the workspace, and more.")(func)
    func = click.option("json_", "--json", is_flag=True, help="Print exactly one JSON document on stdout.")(func)
    func = click.option("--workspace", "-w", type=click.Path(file_okay=True, dir_okay=True, path_type=Path),
                        default=None, help="Workspace folder (default: OPENCLAW_WORKSPACE_DIR, OpenClaw's config, ~/.openclaw/workspace).")(func)
    func = click.version_option(__version__, "--version", prog_name="complex-memory-manager")(func)
    return func


def group_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``-w/--workspace`` and ``--json`` on a command group, before its verb (``memory.py -w DIR status``).

    The group callback passes them on with :func:`pass_to_verbs`; a ``-w`` after the verb
    wins. ``--json`` before the verb used to answer "No such option" (walk-through r6,
    finding 15), and so did ``crypt.py -w DIR reseal`` (walk-through r10, item 8).
    """
    func = click.option("json_", "--json", is_flag=True,
                        help="JSON output for the verb that follows (as --json after it).")(func)
    func = click.option("--workspace", "-w", type=click.Path(file_okay=True, dir_okay=True, path_type=Path),
                        default=None, help="Workspace folder for the verb that follows (-w DIR VERB); a -w after "
                                           "the verb wins.")(func)
    return func


def pass_to_verbs(ctx: click.Context, workspace: Path | None, json_: bool) -> None:
    """Give every verb of ``ctx``'s group the group's ``-w`` and ``--json`` as defaults (see :func:`group_options`)."""
    values = {**({"workspace": workspace} if workspace is not None else {}), **({"json_": True} if json_ else {})}
    if values:
        ctx.default_map = _defaults(ctx.command, values)


def _defaults(group: click.Command, values: dict[str, Any]) -> dict[str, Any]:
    """A click default_map giving every verb (and sub-verb) ``values`` (param name -> value) it takes."""
    out: dict[str, Any] = {}
    for name, command in getattr(group, "commands", {}).items():
        if isinstance(command, click.Group):
            out[name] = _defaults(command, values)
        else:
            taken = {param.name for param in command.params}
            mine = {key: value for key, value in values.items() if key in taken}
            if mine:
                out[name] = mine
    return out


def _set_debug(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    global DEBUG
    if value:
        DEBUG = True


def emit_json(doc: Any) -> None:
    """Write one JSON document to stdout (``allow_nan=False``: NaN is not JSON).

    Raises:
        ValueError: ``doc`` holds NaN or an infinity (nothing is written).
    """
    text = json.dumps(doc, ensure_ascii=False, indent=2, default=str, allow_nan=False)
    sys.stdout.write(text + "\n")
    interrupts.exiting()  # the one document is out: a Ctrl-C now must not add a second


def _one_line(text: str) -> str:
    return " ".join(text.split()) or "error"


def unechoed(message: str) -> str:
    """``message`` with every command-line value holding a secret masked (:func:`memory_manager.privacy.unechoed`)."""
    from .privacy import unechoed as _unechoed

    return _unechoed(message, sys.argv[1:])


def rerun_note(ws: Any) -> str:
    """What to add after a printed command that names the workspace ``ws``: "" unless ``ws`` is masked.

    A command with the folder masked would fail as copied (the folder does not exist): the user is
    told to run it with the same workspace setting as this run instead (tatk18 8).
    """
    if unechoed(str(ws)) == str(ws):
        return ""
    return " (the workspace folder is masked here: run it with the same -w / OPENCLAW_WORKSPACE_DIR as this run)"


def unechoed_doc(doc: Any) -> Any:
    """``doc`` (a result document: dicts, lists, strings) with :func:`unechoed` applied to every string.

    For a command whose result names an option's value (``doctor``'s
    workspace check names the ``--workspace`` folder, found or not): a token
    pasted as a path is masked there as in errors (issue 10, attack round 15).
    """
    from .jsonio import map_strings

    return map_strings(doc, unechoed)


def fail(exc: MemoryManagerError, as_json: bool) -> None:
    """Report ``exc`` and exit with its code (JSON document on stdout with --json)."""
    message = unechoed(_one_line(str(exc) or exc.__class__.__name__))
    if as_json:
        emit_json({"error": message, "kind": exc.kind})
    else:
        stderr.print(f"error: {message}", markup=False)
    sys.exit(exc.exit_code)


def _os_error(exc: OSError) -> MemoryManagerError:
    """A file-system refusal as a domain error (exit 1): full disk, file-size limit, EIO."""
    where = f"{exc.filename}: " if exc.filename else ""
    err = MemoryManagerError(f"{where}{exc.strerror or exc}")
    err.kind = "os_error"
    return err


def unexpected(exc: BaseException, as_json: bool) -> None:
    """Report an error nobody planned for (a bug): one line, exit 1; traceback with --debug."""
    if DEBUG:
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    if isinstance(exc, RecursionError):
        message = "input nested too deeply to process"
    else:
        message = f"unexpected {exc.__class__.__name__}: {exc}" if str(exc) else f"unexpected {exc.__class__.__name__}"
    hint = "" if DEBUG else " (run with --debug for the traceback)"
    err = MemoryManagerError(_one_line(message) + hint)
    err.kind = "internal"
    fail(err, as_json)


def _exit_for(exc: BaseException, as_json: bool) -> None:
    """Exit for an error that reached a command's edge: the one mapping both guards use.

    A typed error exits with its own code; an ``OSError`` (a full disk, a
    file-size limit, a symlink loop, EIO: whatever was being written was written
    atomically) exits 1 in one line; Ctrl-C exits 130; anything else is a bug,
    reported by :func:`unexpected` (exit 1, never a traceback).
    """
    if not isinstance(exc, KeyboardInterrupt):
        interrupts.exiting()  # the error is being reported: a Ctrl-C now must not cut it short
    if isinstance(exc, BrokenPipeError):
        # The reader went away (`init.py --dry-run | head`): nothing to say to it and no error
        # to report; stdout goes to /dev/null so the exit's flush cannot complain (Python's
        # signal docs, "Note on SIGPIPE"). Exit 1: the output was cut short.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
    if isinstance(exc, MemoryManagerError):
        fail(exc, as_json)
    elif isinstance(exc, OSError):
        fail(_os_error(exc), as_json)
    elif isinstance(exc, KeyboardInterrupt):
        # Raised only while this process has written nothing (memory_manager.interrupts defers it otherwise).
        message = interrupts.MESSAGE if interrupts.nothing_changed() else \
            "interrupted: files were changed before it (see the lines above)"
        if as_json:
            emit_json({"error": message, "kind": "interrupted"})
        else:
            stderr.print(message, markup=False)
        interrupts.exiting()
        sys.exit(interrupts.EXIT_CODE)
    else:
        unexpected(exc, as_json)


def _warn_withheld() -> None:
    """Say aloud each file this command changed without a backup copy (a keyless install, issue 10).

    On stderr, so ``--json`` still prints one document; the backup's manifest
    records the same (``stored: "withheld"``).
    """
    backups = sys.modules.get("memory_manager.backups")  # only a command that backed something up loaded it
    for rel in dict.fromkeys(getattr(backups, "WITHHELD", ()) or ()):
        stderr.print(f"warning: no backup copy of {rel}: there is no T2 key to seal it, so this change cannot "
                     "be undone (crypt.py keygen creates the key)", markup=False, soft_wrap=True)


def handle_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn typed errors into exit codes; the wrapped command returns its exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        global _AS_JSON
        as_json = bool(kwargs.get("json_"))
        _AS_JSON = _AS_JSON or as_json
        try:
            code = func(*args, **kwargs)
        except (click.ClickException, click.exceptions.Abort, click.exceptions.Exit):
            raise  # run() maps these
        except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - the guard: never a traceback
            _exit_for(exc, as_json)
        _warn_withheld()
        interrupts.exiting()
        sys.exit(code or 0)

    return wrapper


@contextlib.contextmanager
def step(text: str, console: Console | None = None) -> Iterator[None]:
    """Show one step of a longer job as it happens: a spinner on a terminal, a line otherwise.

    On a terminal a rich spinner runs while the step does; elsewhere (a log,
    a pipe) ``text …`` is printed when it starts. Either way ``✓ text (N.N s)``
    follows when it ends, or ``✗ text`` when it raised.
    """
    console = console or stdout
    started = time.monotonic()
    try:
        if console.is_terminal:
            with console.status(text):
                yield
        else:
            console.print(f"{text} …", markup=False)
            yield
    except BaseException:
        console.print(f"✗ {text}", markup=False)
        raise
    console.print(f"✓ {text} ({time.monotonic() - started:.1f} s)", markup=False)


def print_rows(title: str, columns: list[str], rows: list[tuple[str, ...]], whole: tuple[int, ...] = (0,),
               console: Console | None = None) -> None:
    """Print ``rows`` as a table that never cuts an id or a path (walk-through r3, item 7).

    The columns numbered in ``whole`` (ids, paths) are never wrapped nor cut;
    the others fold at word boundaries. When the console is too narrow to
    give the ``whole`` columns their full width plus room for the rest, each
    row is printed as one plain line (``a  b  c``) instead.
    """
    from rich.table import Table

    console = console or stdout
    widths = {i: max([len(columns[i])] + [len(r[i]) for r in rows]) for i in whole}
    room = sum(widths.values()) + 3 * len(columns) + 12 * (len(columns) - len(whole)) + 1
    if room > console.width:
        console.print(title, markup=False)
        for row in rows:
            console.print("  ".join(cell for cell in row if cell), markup=False)
        return
    table = Table(title=title)
    for i, column in enumerate(columns):
        if i in whole:
            table.add_column(column, no_wrap=True, min_width=widths[i])
        else:
            table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console.print(table)


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``"1 file"`` / ``"2 files"``: a count with its noun in the right number (``plural`` default: + ``s``)."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def verbose_line(enabled: bool, text: str) -> None:
    """Print a diagnostic line on stderr when ``--verbose`` is set.

    The line names the workspace (``workspace: PATH (chosen by RULE)``): a secret in a typed
    ``--workspace`` or in the folder an environment variable names is masked (:func:`unechoed`;
    tatk17 kind 6).
    """
    if enabled:
        stderr.print(unechoed(text), markup=False)


def open_workspace(workspace: Path | None, verbose: bool = False, **how: Any) -> Workspace:
    """Open the workspace (:meth:`Workspace.open`), saying which rule won under ``--verbose``.

    ``how`` is passed on (``must_exist``, ``set_up``, ``event``).
    Raises WorkspaceError / ConfigError / BadInputError (``MEMORY_MANAGER_NOW``), exit 2.
    """
    from .fsio import refuse_outside_links

    opened = Workspace.open(workspace, **how)
    verbose_line(verbose, f"workspace: {opened.root} (chosen by {opened.rule})")
    # A folder of our tree (memory/, .cache, .state, .quarantine, archive and its
    # months, .memory-backup) planted as a symlink out of the workspace: every
    # command refuses before it reads, caches or writes anything (issue 10),
    # not only the ones that take the writer lock.
    if opened.root.is_dir():
        refuse_outside_links(opened.root)
    opened.config  # noqa: B018 - load now: a bad config is reported before any work starts
    from .clock import now

    now()  # and a bad MEMORY_MANAGER_NOW (exit 2), before anything is read, cached or written
    return opened


def _strip_debug(argv: list[str]) -> list[str]:
    """Remove ``--debug`` (before a ``--``) from ``argv`` and switch DEBUG on when present."""
    global DEBUG
    out: list[str] = []
    for n, arg in enumerate(argv):
        if arg == "--":
            return out + argv[n:]
        if arg == "--debug":
            DEBUG = True
            continue
        out.append(arg)
    return out


def run(command: click.Command) -> None:
    """Run a click command behind the top-level guard (module docstring).

    Usage errors exit 2 (one line on stderr, or a JSON document under
    ``--json``); typed errors exit with their code; anything else exits 1
    with one line (:func:`unexpected`).
    """
    global _AS_JSON
    warnings.showwarning = _show_warning
    args = _strip_debug(sys.argv[1:])
    _AS_JSON = "--json" in args
    try:
        interrupts.running()  # from here a Ctrl-C is reported by this guard (memory_manager.interrupts)
        command.main(args=args, standalone_mode=False)
        interrupts.exiting()  # done and reported: a Ctrl-C while Python shuts down changes nothing
    except click.UsageError as exc:
        interrupts.exiting()
        as_json = _AS_JSON
        message = exc.format_message()
        group = getattr(exc.ctx, "command", None)
        if isinstance(exc, getattr(click.exceptions, "NoArgsIsHelpError", ())) and isinstance(group, click.Group):
            # A group without its verb ("memory.py stats"): one line naming the verbs, not
            # the whole help text behind "error:" (walk-through r6, finding 15).
            path = exc.ctx.command_path
            message = f"{path} needs a verb: {', '.join(sorted(group.commands))} (see {path} --help)"
        message = unechoed(message)
        if as_json:
            emit_json({"error": message, "kind": "usage"})
        else:
            stderr.print(f"error: {message}", markup=False)
        sys.exit(2)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # click's own turn of a Ctrl-C into Abort
            _exit_for(exc.__cause__, _AS_JSON)
        interrupts.exiting()
        stderr.print("aborted")
        sys.exit(1)
    except click.exceptions.Exit as exc:
        interrupts.exiting()
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        interrupts.exiting()
        message = unechoed(exc.format_message())
        if _AS_JSON:
            emit_json({"error": _one_line(message), "kind": "usage"})
        else:
            stderr.print(f"error: {message}", markup=False)
        sys.exit(exc.exit_code)
    except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - outside a handle_errors command
        _exit_for(exc, _AS_JSON)
