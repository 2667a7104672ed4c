"""Finding the OpenClaw workspace and state folder, and keeping paths inside them.

Resolution order for the workspace (the foundation issue; ``doctor`` and
``--verbose`` report which rule won):

1. ``--workspace DIR`` on the command line;
2. ``workspaceDir`` of a hook event;
3. ``OPENCLAW_WORKSPACE_DIR``;
4. OpenClaw's config file: ``agents.entries.<id>.workspace`` (also the list
   form ``agents.list[] {id, workspace}``), then ``agents.defaults.workspace``.
   The file is ``OPENCLAW_CONFIG_PATH``, else ``openclaw.json`` in the state dir;
5. ``<state dir>/workspace``.

The state dir is ``OPENCLAW_STATE_DIR``, else ``~/.openclaw-<profile>`` for
``OPENCLAW_PROFILE``, else ``~/.openclaw`` (OpenClaw 2026.9.6). We never write
there. Standard library only (json5 is tried lazily for a config file that
plain JSON cannot read), so the per-turn path can use it.
"""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
# No ``typing`` at run time on the per-turn hook path (it costs more than the rest of
# this module): annotations are strings (``from __future__ import annotations``),
# so ``Any`` is only a name for readers and type checkers.
from collections.abc import Iterator, Mapping

from .jsonio import parse as _parse_json
from . import tree
from .errors import WorkspaceError

DEFAULT_AGENT = "main"


class Resolved:
    """A resolved workspace: ``path`` (absolute) and the ``rule`` that chose it.

    A plain class (no dataclasses import on the per-turn hook path).
    """

    __slots__ = ("path", "rule")

    def __init__(self, path: Path, rule: str) -> None:
        self.path = path
        self.rule = rule

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Resolved) and (other.path, other.rule) == (self.path, self.rule)

    def __hash__(self) -> int:
        return hash((self.path, self.rule))

    def __repr__(self) -> str:
        return f"Resolved(path={self.path!r}, rule={self.rule!r})"


#: Environment variables whose value names a folder or file this bundle prints (the workspace, the
#: state folder, OpenClaw's config, the profile in ``~/.openclaw-<profile>``, the key and
#: hash-secret folder, and ``HOME`` that holds it and the state folder when the others are unset):
#: echoed like a typed option, so masked like one (tatk17 kind 6; HOME: tatk18 4, the key file's
#: path in init, doctor and ``crypt keygen``).
PATH_VARIABLES = ("OPENCLAW_WORKSPACE_DIR", "OPENCLAW_STATE_DIR", "OPENCLAW_CONFIG_PATH", "OPENCLAW_PROFILE",
                  "XDG_CONFIG_HOME", "HOME")

#: Environment variables that name no folder but whose value an error names when it refuses it: the
#: clock's override (``clock.ENV_NOW``: "MEMORY_MANAGER_NOW='...' is not an ISO 8601 date or time", shown
#: by every verb). A token set there is masked like a typed one (tatk18 3). Spelled here, not imported:
#: the per-turn path imports this module and not the clock.
VALUE_VARIABLES = ("MEMORY_MANAGER_NOW",)

#: How much of a refused :data:`VALUE_VARIABLES` value its error shows (``clock._bad_now``): the value is
#: masked as written and as shown, cut there.
VALUE_SHOWN = 60


def env_values(env: Mapping[str, str] | None = None) -> list[str]:
    """The values of :data:`PATH_VARIABLES` that are set, each as written and as printed (expanded, absolute).

    Callers that mask the values a user typed before printing (``privacy.unechoed``,
    ``detect.py``) mask these the same way: a folder named in the environment is
    echoed in the same messages as one given with ``--workspace`` or ``--state-dir``.
    Standard library only (the per-turn path).
    """
    env = os.environ if env is None else env
    out: list[str] = []
    for name in PATH_VARIABLES:
        value = env.get(name) or ""
        if not value.strip():
            continue
        out.append(value)
        try:
            out.append(os.path.abspath(os.path.expanduser(value)))
        except (OSError, ValueError):  # an unreadable current folder, a NUL byte
            pass
    return list(dict.fromkeys(out))


def echoed_values(argv: list[str]) -> list[str]:
    """The values a message may echo back: each argument, an ``--opt=value``'s value, the environment's.

    The environment's: :func:`env_values` (folders) and :data:`VALUE_VARIABLES` (as set, and cut as
    their error shows them).

    Deduplicated, in order, at least 4 characters (shorter values are never masked). The one list
    that ``privacy.unechoed``, ``detect.py`` and ``maintain.py`` scan before printing (issue 10,
    atk13; tatk17 kind 6; tatk18 3). Standard library only (the per-turn path).

    Args:
        argv: the command-line arguments, without the program name.
    """
    values: list[str] = []
    for arg in argv:
        values.append(arg)
        if arg.startswith("--") and "=" in arg:
            values.append(arg.split("=", 1)[1])
        if "#" in arg:  # <path>#<id>: an error names the path alone (tatk20 1)
            values.append(arg.rsplit("#", 1)[0])
    values += env_values()
    for name in VALUE_VARIABLES:
        raw = os.environ.get(name, "").strip()  # as the clock reads it
        values += [raw, raw[:VALUE_SHOWN]]
    return [v for v in dict.fromkeys(values) if len(v) >= 4]


def state_dir(env: Mapping[str, str] | None = None) -> Path:
    """Return OpenClaw's state folder (see the module docstring for the order)."""
    env = os.environ if env is None else env
    if env.get("OPENCLAW_STATE_DIR"):
        return Path(env["OPENCLAW_STATE_DIR"]).expanduser()
    home = Path(env.get("HOME") or Path.home())
    profile = env.get("OPENCLAW_PROFILE", "").strip()
    if profile and profile != "default":
        return home / f".openclaw-{profile}"
    return home / ".openclaw"


def config_path(env: Mapping[str, str] | None = None) -> Path:
    """Return the path of OpenClaw's config file (it may not exist)."""
    env = os.environ if env is None else env
    if env.get("OPENCLAW_CONFIG_PATH"):
        return Path(env["OPENCLAW_CONFIG_PATH"]).expanduser()
    return state_dir(env) / "openclaw.json"


def read_openclaw_config(env: Mapping[str, str] | None = None, strict: bool = False) -> dict[str, Any] | None:
    """Return OpenClaw's config as a dict, or None when absent or unreadable.

    OpenClaw writes JSON5; plain JSON is tried first (stdlib), then the json5
    library when installed. An unreadable config is not an error here unless
    ``strict`` (the language and the time zone then come from the next rule).

    Raises:
        JSONInputError: (exit 2) ``strict`` and the file exists but cannot be
            read, is neither JSON nor JSON5, or holds no object: the message
            names the file (README, exit codes: a malformed JSON file is bad
            input). Also, strict or not, a file too deep or holding NaN.
    """
    from .jsonio import JSONInputError

    path = config_path(env)

    def broken(why: str) -> None:
        if strict:
            raise JSONInputError(f"{path}: {why}; OpenClaw's config names the workspace: fix the file, or pass "
                                 "-w with your workspace")

    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        broken(f"cannot be read ({exc.__class__.__name__})")
        return None
    try:
        data = _parse_json(text)
    except json.JSONDecodeError as exc:
        try:
            import json5  # type: ignore[import-not-found]

            data = json5.loads(text)
        except Exception:  # json5 missing or the file is not JSON5 either
            broken(f"not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})")
            return None
    if not isinstance(data, dict):
        broken("holds no JSON object")
        return None
    return data


def _workspace_from_config(cfg: dict[str, Any], agent: str) -> tuple[str, str] | None:
    agents = cfg.get("agents")
    if not isinstance(agents, dict):
        return None
    entries = agents.get("entries")
    if isinstance(entries, dict):
        entry = entries.get(agent)
        if isinstance(entry, dict) and isinstance(entry.get("workspace"), str):
            return entry["workspace"], f"openclaw config agents.entries.{agent}.workspace"
    listed = agents.get("list")
    if isinstance(listed, list):
        for entry in listed:
            if isinstance(entry, dict) and entry.get("id") == agent and isinstance(entry.get("workspace"), str):
                return entry["workspace"], f"openclaw config agents.list[{agent}].workspace"
    defaults = agents.get("defaults")
    if isinstance(defaults, dict) and isinstance(defaults.get("workspace"), str):
        return defaults["workspace"], "openclaw config agents.defaults.workspace"
    return None


def resolve_workspace(cli_value: str | os.PathLike[str] | None = None,
                      event: Mapping[str, Any] | None = None,
                      env: Mapping[str, str] | None = None,
                      agent: str = DEFAULT_AGENT,
                      must_exist: bool = True) -> Resolved:
    """Decide which workspace to work on.

    Args:
        cli_value: the ``--workspace`` option, if given.
        event: a hook event (a mapping; ``workspaceDir`` at the top level or
            under ``context``).
        env: environment (defaults to ``os.environ``).
        agent: OpenClaw agent id used for the per-agent config rule.
        must_exist: when true, the chosen folder must exist and be a directory.

    Returns a :class:`Resolved` with an absolute path and the winning rule.

    Raises:
        WorkspaceError: the chosen folder is missing or not a directory.
        JSONInputError: (exit 2) rule 4 is reached and OpenClaw's config file
            exists but is malformed (:func:`read_openclaw_config`).
    """
    env = os.environ if env is None else env
    chosen: tuple[str, str] | None = None
    if cli_value:
        chosen = (os.fspath(cli_value), "--workspace")
    if chosen is None and event:
        for holder in (event, event.get("context") if isinstance(event.get("context"), Mapping) else None):
            if holder and isinstance(holder.get("workspaceDir"), str) and holder["workspaceDir"]:
                chosen = (holder["workspaceDir"], "hook event workspaceDir")
                break
    if chosen is None and env.get("OPENCLAW_WORKSPACE_DIR"):
        chosen = (env["OPENCLAW_WORKSPACE_DIR"], "OPENCLAW_WORKSPACE_DIR")
    if chosen is None:
        # Strict here: a config that cannot be read would silently send every command to
        # <state dir>/workspace instead of the workspace it names (walk-through r10, item 5).
        cfg = read_openclaw_config(env, strict=True)
        if cfg:
            chosen = _workspace_from_config(cfg, agent)
    if chosen is None:
        chosen = (str(state_dir(env) / "workspace"), "<state dir>/workspace")
    raw, rule = chosen
    home = env.get("HOME") or str(Path.home())
    if raw.startswith("~"):
        raw = home + raw[1:]
    path = normalised(Path(raw))
    if must_exist:
        if not path.exists():
            raise WorkspaceError(f"workspace {path} does not exist (chosen by {rule}){_here_hint(path, rule)}")
        if not path.is_dir():
            raise WorkspaceError(f"workspace {path} is not a directory (chosen by {rule}){_here_hint(path, rule)}")
    return Resolved(path, rule)


def normalised(path: Path) -> Path:
    """``path`` made absolute without ``..`` in it (``-w ../..`` is shown as the folder it names).

    The part up to the last ``..`` is resolved as the kernel does (a ``..`` after a
    symlink leaves its target); the rest is kept as written, links and all, so a
    workspace reached through a link keeps its name (walk-through r10, item 3).
    """
    path = Path(path).absolute()
    parts = path.parts
    if ".." not in parts:
        return path
    last = len(parts) - 1 - parts[::-1].index("..")
    try:
        head = Path(os.path.realpath(Path(*parts[:last + 1])))
    except (OSError, ValueError):
        return path
    return head.joinpath(*parts[last + 1:])


def bundle_workspace() -> Path | None:
    """The workspace this skill is installed in (``<workspace>/skills/<name>``, README), or None.

    Only when the folder above ``skills/`` is an agent workspace (:func:`_workspace_mark`).
    """
    from . import BUNDLE_ROOT  # not at module level: the per-turn hook path imports this module

    if BUNDLE_ROOT.parent.name != "skills":
        return None
    candidate = BUNDLE_ROOT.parent.parent
    return candidate if _workspace_mark(candidate) is not None else None


def _here_hint(path: Path, rule: str) -> str:
    """``; the current folder ... pass -w .`` when the command runs inside a workspace it did not choose.

    The current folder is never one of the rules (the README's order); when
    it holds ``memory/`` or an ``AGENTS.md``, the user most likely meant it
    (walk-through r4, item 17); when it lies inside a workspace
    (:func:`enclosing_workspace`), that workspace.
    """
    if rule == "--workspace":
        return ""
    try:
        here = Path.cwd()
        if here == path:
            return ""
        if not ((here / tree.MEMORY).is_dir() or (here / "AGENTS.md").is_file()):
            # A folder inside a workspace (its memory/, a skill's folder): that workspace is
            # meant, as from its top folder (walk-through r10, item 2).
            where = enclosing_workspace(here)
            if where is None or where[0] == path:
                return _bundle_hint(path)
            return f"; the current folder {here} is inside the workspace {where[0]}: pass -w {where[0]} to use it"
    except OSError:
        return _bundle_hint(path)
    return f"; the current folder {here} looks like a workspace: pass -w . to use it"


def _bundle_hint(path: Path) -> str:
    """``; this skill is installed in the workspace W: pass -w W`` (:func:`bundle_workspace`), or ""."""
    home = bundle_workspace()
    if home is None or home == path:
        return ""
    return f"; this skill is installed in the workspace {home}: pass -w {home} to use it"


def inside(root: Path, candidate: Path) -> bool:
    """Return True when ``candidate`` (symlinks resolved) lies inside ``root``.

    A symlink loop (``RuntimeError`` from ``Path.resolve`` before Python 3.13,
    ``OSError`` after) counts as outside: it leads nowhere we may write.
    """
    try:
        candidate.resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def ensure_inside(root: Path, candidate: Path, what: str = "path") -> Path:
    """Return ``candidate`` if it (symlinks resolved) stays inside ``root``.

    Raises:
        WorkspaceError: the path, or a symlink on it, leads out of ``root``.
    """
    if not inside(root, candidate):
        raise WorkspaceError(f"{what} {candidate} leads outside {root}")
    return candidate


def is_set_up(ws: Path) -> bool:
    """True when ``ws`` was set up by ``init.py``: ``ws/memory`` is a folder inside ``ws``.

    "Inside" is checked with symlinks resolved, so a ``memory`` link leading
    out of the workspace does not count. Hooks, maintenance and the commands
    that write (cleanup, prune) do nothing in a folder that is not set up: a
    hook event can name any folder (even ``/etc``), and creating
    ``memory/`` there would litter it.
    """
    mem = tree.Tree(Path(ws)).memory
    return mem.is_dir() and inside(Path(ws), mem)


def require_set_up(ws: Path) -> Path:
    """Return ``ws`` when :func:`is_set_up`, else raise.

    Raises:
        WorkspaceError: (exit 2) ``ws/memory`` is missing, not a folder, or
            leads outside ``ws``; the message names the init command.
    """
    if not is_set_up(ws):
        init = Path(__file__).resolve().parents[1] / "scripts" / "init.py"
        raise WorkspaceError(f"{ws} is not set up for memory (no {tree.MEMORY}/ folder inside it); "
                             + (nested_hint(ws) or f"set it up with: python3 {init} -w {ws}"))
    return Path(ws)


def looks_like_workspace(ws: Path) -> bool:
    """True when ``ws`` holds an agent workspace's files: AGENTS.md, MEMORY.md (or memory.md) or ``memory/``.

    OpenClaw's own workspace has them from its first run, ours after
    ``init``; an empty folder or a typo in ``-w`` has none (walk-through r3,
    item 22).
    """
    ws = Path(ws)
    names = ("AGENTS.md", *tree.MEMORY_MD_NAMES)
    return any((ws / name).is_file() for name in names) or is_set_up(ws)


def require_workspace(ws: Path) -> Path:
    """Return ``ws`` when :func:`looks_like_workspace`, else raise (the writing verbs of memory.py).

    A write into any other folder would make a whole memory tree and backup
    folder there, unnoticed (a typo in ``-w``).

    Raises:
        WorkspaceError: (exit 2) the message names init and ``-w``.
    """
    if not looks_like_workspace(ws):
        raise WorkspaceError(not_a_workspace(ws))
    return Path(ws)


def not_a_workspace(ws: Path) -> str:
    """The one line for a folder that is no workspace (:func:`looks_like_workspace` false): how to set it up.

    A folder inside a workspace (its ``memory/``, ``skills/<name>``) or inside this bundle is
    never set up itself (init refuses it: :func:`nested_reason`): the line names the workspace
    to pass instead (walk-through r10, item 2), else the init command for the folder.
    """
    hint = nested_hint(ws)
    if hint:
        return f"{ws} is not a workspace (no AGENTS.md, MEMORY.md or {tree.MEMORY}/ in it); {hint}"
    init = Path(__file__).resolve().parents[1] / "scripts" / "init.py"
    return (f"{ws} is not set up (no AGENTS.md, MEMORY.md or {tree.MEMORY}/ in it): set it up with "
            f"`python3 {init} -w {ws}`, or pass -w with your workspace")


def nested_hint(ws: Path) -> str | None:
    """``it is inside the workspace P: pass -w P`` for a folder below a workspace (or in this bundle), or None.

    The same judgement as init's (:func:`nested_reason`), worded for the other commands:
    they suggest the workspace, never an init of a folder init would refuse.
    """
    where = enclosing_workspace(ws)
    if where is not None:
        parent, mark = where
        return f"it is inside the workspace {parent} (which holds {mark}): pass -w {parent}"
    why = nested_reason(ws)
    if why is None:
        return None
    return why.split("; ", 1)[1] if "; " in why else why


def enclosing_workspace(path: Path) -> tuple[Path, str] | None:
    """The nearest folder above ``path`` that is an agent workspace, with the mark that says so, or None.

    Judged on the folders above ``path`` both as written and as resolved (see
    :func:`nested_reason`); the path itself is not looked at.
    """
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError):
        return None
    given = Path(os.path.abspath(path))
    for parent in [*given.parents, *(p for p in real.parents if p not in given.parents)]:
        mark = _workspace_mark(parent)
        if mark is not None:
            return parent, mark
    return None


#: The files OpenClaw writes next to AGENTS.md in a workspace it made (its bootstrap set,
#: docs/concepts/agent-workspace; the copies in ../shared/workspaces/ hold them). AGENTS.md alone
#: does not make a workspace: code repositories keep one for coding agents.
OPENCLAW_BOOTSTRAP = ("SOUL.md", "USER.md", "IDENTITY.md", "TOOLS.md", "HEARTBEAT.md", "BOOTSTRAP.md",
                      *tree.MEMORY_MD_NAMES)
#: What only our memory tree holds (init writes them; tests/test_tree.py's layout).
_OUR_MEMORY_MARKS = (tree.OVERRIDE, tree.DAILY_INDEX, tree.KNOWLEDGE_INDEX, tree.TIER2, tree.TIER1)


def _holds_our_memory(folder: Path) -> str | None:
    """The first mark of our memory layout ``folder`` holds (``memory-manager.json``, ...), or None."""
    for name in _OUR_MEMORY_MARKS:
        if (folder / name).exists():
            return name
    return None


def _workspace_mark(folder: Path) -> str | None:
    """Why ``folder`` is an agent workspace (``"AGENTS.md and memory/"``, ...), or None.

    A workspace is what OpenClaw makes or init sets up (README, "Install for an agent"):
    AGENTS.md with ``memory/`` or with another of OpenClaw's bootstrap files, or our
    memory layout under ``memory/``.
    """
    with contextlib.suppress(OSError):
        memory = folder / tree.MEMORY
        if memory.is_dir() and _holds_our_memory(memory):
            return f"{tree.MEMORY}/{_holds_our_memory(memory)}"
        if (folder / "AGENTS.md").is_file():
            if memory.is_dir():
                return f"AGENTS.md and {tree.MEMORY}/"
            for name in OPENCLAW_BOOTSTRAP:
                if (folder / name).is_file():
                    return f"AGENTS.md and {name}"
    return None


def nested_reason(ws: Path) -> str | None:
    """Why ``ws`` must not be set up as a workspace of its own, or None when it may be.

    init sets up a workspace's top folder. Refused (walk-through r9, item 1): a folder
    inside this skill bundle (``<workspace>/skills/complex-memory-manager/...`` or a
    checkout of it: its ``examples/`` are copied first, as dev/demo.sh does); a folder
    below a workspace (:func:`_workspace_mark` on any ancestor: its ``skills/``,
    ``memory/`` or ``hooks/``), judged by the folders above it both as written and as
    resolved (a link inside a workspace counts as inside it); and a memory tree of ours itself (a folder holding
    ``memory-manager.json``, the indexes or the tier folders, moved elsewhere).
    Allowed: a workspace's top folder, and any other folder, an empty one included
    (a fresh workspace the user names).
    """
    from . import BUNDLE_ROOT  # not at module level: the per-turn hook path imports this module

    try:
        real = Path(ws).resolve()
    except (OSError, RuntimeError):
        return None
    if real == BUNDLE_ROOT or BUNDLE_ROOT in real.parents:
        home = bundle_workspace()
        if home is not None:  # installed as the README says: that workspace is meant (r10, item 3)
            return (f"{ws} is inside the skill's own folder {BUNDLE_ROOT}; pass -w {home} (the workspace it is "
                    "installed in)")
        return (f"{ws} is inside the skill's own folder {BUNDLE_ROOT}; pass -w with your OpenClaw workspace "
                "(the folder that holds AGENTS.md)")
    # The folders above it as written too, not only above where it leads: a link inside a
    # workspace (<workspace>/skills/mine -> elsewhere) would set up a workspace that the outer
    # one shows inside itself (atk11).
    given = Path(os.path.abspath(ws))
    for parent in [*real.parents, *(p for p in given.parents if p not in real.parents)]:
        mark = _workspace_mark(parent)
        if mark is not None:
            return (f"{ws} is inside the workspace {parent} (it holds {mark}); init sets up a workspace's top "
                    f"folder: run it with -w {parent}")
    if not (real / "AGENTS.md").is_file():
        mark = _holds_our_memory(real)
        if mark is not None:
            return (f"{ws} is a {tree.MEMORY}/ folder of this skill (it holds {mark}), not a workspace; pass -w "
                    f"with the workspace that holds it")
    return None


def refuse_nested(ws: Path) -> Path:
    """Return ``ws`` when :func:`nested_reason` finds nothing, else raise.

    Raises:
        WorkspaceError: (exit 2) one line saying why and which folder to pass instead.
    """
    why = nested_reason(ws)
    if why is not None:
        raise WorkspaceError(why)
    return Path(ws)


class Workspace:
    """One opened workspace: its ``root``, effective ``config`` and tree ``paths``.

    Every command opens its workspace once (:meth:`open`) and hands this
    object down, instead of a loose ``(workspace, config)`` pair. ``rule``
    says which resolution rule chose ``root`` (shown by ``--verbose`` and
    ``doctor``). The config is loaded on first use, so that commands which
    must work with a broken config (``init --restore``, ``doctor``) can open
    the workspace first.
    """

    def __init__(self, root: str | os.PathLike[str], config: dict[str, Any] | None = None,
                 rule: str = "given") -> None:
        self.root = Path(root)
        self.rule = rule
        self._config = config
        from .fsio import confine_reads

        confine_reads(self.root)  # no file of it is read through a link leading out (issue 10)

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r}, rule={self.rule!r})"

    @property
    def config(self) -> dict[str, Any]:
        """The effective configuration (shipped defaults + the workspace override).

        Raises:
            ConfigError: the override is invalid (exit 2).
        """
        if self._config is None:
            from .config import load_config

            self._config = load_config(self.root if self.root.is_dir() else None)
        return self._config

    @property
    def paths(self) -> tree.Tree:
        """The memory tree of this workspace (:class:`memory_manager.tree.Tree`)."""
        return tree.Tree(self.root)

    @property
    def set_up(self) -> bool:
        """True when init.py set this workspace up (see :func:`is_set_up`)."""
        return is_set_up(self.root)

    def require_set_up(self) -> "Workspace":
        """Return self when set up. Raises WorkspaceError (exit 2) otherwise."""
        require_set_up(self.root)
        return self

    @contextlib.contextmanager
    def locked(self, timeout: float = 30.0) -> Iterator["Workspace"]:
        """Hold the workspace's writer lock (re-entrant in one thread) for the block.

        Raises:
            FileWriteError: the lock was not taken within ``timeout`` seconds.
        """
        from .fsio import workspace_lock

        with workspace_lock(self.root, timeout=timeout):
            yield self

    @contextlib.contextmanager
    def transaction(self, timeout: float = 30.0) -> Iterator[Any]:
        """Hold the writer lock and stage writes that land together.

        Yields a :class:`memory_manager.fsio.Transaction`; its staged writes
        are committed when the block ends normally and dropped (originals
        untouched) when it raises. Checks made inside the block (the gate,
        "did the file change meanwhile") and the write happen under one lock.

        Raises:
            FileWriteError: the lock timed out, or the commit failed (the
                files already replaced are put back).
        """
        from .fsio import Transaction, workspace_lock

        with workspace_lock(self.root, timeout=timeout):
            tx = Transaction()
            try:
                yield tx
            except BaseException:
                tx.abort()
                raise
            tx.commit()

    @classmethod
    def open(cls, cli_value: str | os.PathLike[str] | None = None, *,
             event: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None,
             must_exist: bool = True, set_up: bool = False) -> "Workspace":
        """Resolve the workspace (:func:`resolve_workspace`); its config loads on first use.

        Args:
            cli_value: the ``--workspace`` option, if given.
            event: a hook event, if any.
            env: environment (defaults to ``os.environ``).
            must_exist: the chosen folder must exist.
            set_up: the chosen folder must also be set up by init.py.

        Raises:
            WorkspaceError: missing folder, or not set up when required (exit 2).
        """
        resolved = resolve_workspace(cli_value, event=event, env=env, must_exist=must_exist)
        if set_up:
            require_set_up(resolved.path)
        return cls(resolved.path, rule=resolved.rule)
