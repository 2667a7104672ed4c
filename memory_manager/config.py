"""Loading and validating ``config.json``.

The bundle ships its defaults in ``<bundle>/config.json`` (the seed defaults:
T2 expiry 30 days from the Tiers seed, the 7-day cleanup interval, scoring
weights, time-decay constants, prune threshold 0.6, window 200 and top_k 10
from the Optimization seed, context thresholds 50/70/85 from Memory Master).
A user override, ``<workspace>/memory/memory-manager.json``, is merged on top,
key by key. Both are validated against :data:`SCHEMA` (the shipped file must hold every key):
unknown keys are rejected naming the allowed set, booleans must be real
booleans, numbers must be numbers, and a few keys take only listed values.
Settings fail closed: a bad file is an error, never silently ignored.

Standard library only, so the per-turn path can read the hook switches.
"""
from __future__ import annotations

import os
import math
from pathlib import Path
# ``Any`` is only an annotation (strings here): no ``typing`` import on the per-turn hook path.

from . import BUNDLE_ROOT, tree
from .errors import ConfigError

DEFAULTS_PATH = BUNDLE_ROOT / "config.json"
#: Where a workspace keeps its own overrides, relative to the workspace.
OVERRIDE_RELPATH = tree.Tree(Path()).override

#: The shape every config file must have: each key and the JSON type of its value
#: (``number`` keys are further bounded by :data:`RANGES`, ``string`` keys by
#: :data:`CHOICES`; ``path`` is a non-empty string or null). The shipped
#: ``config.json`` is checked against it like the workspace override: it is the
#: file README sends users to for every tunable, so a value edited there must be
#: refused as clearly (walk-through r6, finding 2); it must also hold every key.
SCHEMA: dict[str, Any] = {
    "version": "number",
    "language": "string",
    "tiers": {"t2_expiry_days": "number", "encryption_scheme": "string", "key_file": "path"},
    "cleanup": {"interval_days": "number", "archive_retention_days": "number",
                "pattern_retention_days": "number", "purge_archive": "boolean"},
    "backups": {"keep_last": "number", "min_age_days": "number", "max_age_days": "number",
                "max_total_mb": "number"},
    "scoring": {"keyword_weight": "number", "time_decay_weight": "number", "access_frequency_weight": "number",
                "tag_match_weight": "number"},
    "time_decay": {"no_decay_days": "number", "decay_rate_per_day": "number", "min_score": "number"},
    "access": {"recent_days": "number", "recent_boost": "number", "log_divisor": "number"},
    "recall": {"top_k": "number", "untagged_tag_score": "number", "snippet_chars": "number",
               "neighbour_share": "number"},
    "prune": {"threshold": "number", "window": "number", "protect_recent_days": "number",
              "enable_auto_prune": "boolean", "auto_threshold": "boolean"},
    "context": {"thresholds": "list", "compaction_reserve_tokens": "number", "compaction_warn_tokens": "number"},
    "gate": {"mode": "string"},
    "input": {"max_mb": "number"},
    "hooks": {"bootstrap": "boolean", "post_response": "boolean", "session_end": "boolean",
              "gateway_startup": "boolean", "timeout_seconds": "number"},
}

#: Keys that take only the listed values.
CHOICES: dict[str, tuple[Any, ...]] = {
    "language": ("auto", "zh", "en"),
    "tiers.encryption_scheme": ("auto", "xor-b64", "aes-gcm"),
    "gate.mode": ("auto", "strict"),
}

#: Upper bound for any count of days: a century. Past it date arithmetic
#: (today + days) leaves the calendar (year 9999) and nothing useful is meant.
MAX_DAYS = 36_500

#: Every numeric key: (kind, lowest, highest, low_exclusive). ``int`` keys take
#: JSON integers only (``5.0`` is refused: a count is not a measurement);
#: ``number`` keys take any finite number. Divisors are low-exclusive (0 would
#: divide by zero); counts of days stay within :data:`MAX_DAYS`. The defaults
#: (``config.json``) come from the seeds named in the module docstring; the
#: bounds are ours, chosen so that no legal value can crash the arithmetic.
RANGES: dict[str, tuple[str, float, float, bool]] = {
    "version": ("int", 1, 1, False),
    "tiers.t2_expiry_days": ("int", 1, MAX_DAYS, False),
    "cleanup.interval_days": ("int", 0, MAX_DAYS, False),
    "cleanup.archive_retention_days": ("int", 0, MAX_DAYS, False),
    "cleanup.pattern_retention_days": ("int", 0, MAX_DAYS, False),
    "scoring.keyword_weight": ("number", 0, 1000, False),
    "scoring.time_decay_weight": ("number", 0, 1000, False),
    "scoring.access_frequency_weight": ("number", 0, 1000, False),
    "scoring.tag_match_weight": ("number", 0, 1000, False),
    "time_decay.no_decay_days": ("int", 0, MAX_DAYS, False),
    "time_decay.decay_rate_per_day": ("number", 0, 1, False),
    "time_decay.min_score": ("number", 0, 1, False),
    "access.recent_days": ("int", 0, MAX_DAYS, False),
    "access.recent_boost": ("number", 0, 1000, False),
    # the access score is ln(count + 1) / log_divisor: zero would divide by zero.
    "access.log_divisor": ("number", 0, 1e6, True),
    "recall.top_k": ("int", 1, 10_000, False),
    "recall.untagged_tag_score": ("number", 0, 1, False),
    "recall.snippet_chars": ("int", 1, 100_000, False),
    "recall.neighbour_share": ("number", 0, 1, False),
    "prune.threshold": ("number", 0, 1, False),
    "prune.window": ("int", 0, 1_000_000, False),  # 0: keep no window (everything is a candidate)
    "prune.protect_recent_days": ("int", 0, MAX_DAYS, False),
    "context.compaction_reserve_tokens": ("int", 0, 100_000_000, False),
    "context.compaction_warn_tokens": ("int", 0, 100_000_000, False),
    "hooks.timeout_seconds": ("number", 0, 3600, True),
    # Backup retention (backups.retention): whole days, 0 = no limit.
    "backups.keep_last": ("int", 1, 1_000_000, False),
    "backups.min_age_days": ("int", 0, MAX_DAYS, False),
    "backups.max_age_days": ("int", 0, MAX_DAYS, False),
    "backups.max_total_mb": ("number", 0, 100_000_000, False),
    # The most one input may hold (stdin text, an import file; fsio.input_limit), in MiB:
    # above zero (nothing could be read) and at most 4 GiB.
    "input.max_mb": ("number", 0, 4096, True),
}


def _load_json(path: Path) -> dict[str, Any]:
    from .jsonio import loads
    from .regular import read_regular

    try:
        # A FIFO or a device at the override is refused, never waited on (every
        # command and hook reads the config first; fatk8).
        text = read_regular(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    data = loads(text, str(path), error=ConfigError, keep_huge=True)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level must be a JSON object")
    _refuse_huge(data, path)
    return data


def _refuse_huge(value: Any, path: Path, key: str = "") -> None:
    """Raise ConfigError naming the key of a number too large to read (a 5,000-digit
    integer, ``1e400``): bad input naming the key, as any other bad value (issue 11, fatk8).
    The JSON reader already capped the nesting, so the walk is shallow."""
    from .jsonio import HugeNumber

    if isinstance(value, HugeNumber):
        raise ConfigError(f"{path}: '{key or '(top level)'}' is {value!r}, far past any allowed value")
    if isinstance(value, dict):
        for name, item in value.items():
            _refuse_huge(item, path, f"{key}.{name}" if key else str(name))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            _refuse_huge(item, path, f"{key}[{n}]")


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return "null"


def _num(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def _check_number(value: Any, key: str, source: Path) -> None:
    """Raise ConfigError unless ``value`` fits :data:`RANGES` for ``key``."""
    kind, low, high, low_open = RANGES[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{source}: '{key}' must be a number, not {_type_name(value)} ({value!r})")
    if kind == "int" and not isinstance(value, int):
        raise ConfigError(f"{source}: '{key}' must be a whole number (an integer), not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{source}: '{key}' must be a finite number, not {value!r}")
    too_low = value <= low if low_open else value < low
    if too_low or value > high:
        shown = value if isinstance(value, float) or abs(value) < 10**15 else f"a {len(str(abs(value)))}-digit number"
        if too_low and low_open:
            rule = f"greater than {_num(low)}"
        elif too_low:
            rule = "not be negative" if low == 0 else f"be at least {_num(low)}"
        elif low_open:
            rule = f"be greater than {_num(low)} and at most {_num(high)}"
        else:
            rule = f"be between {_num(low)} and {_num(high)}"
        if rule.startswith("greater"):
            rule = "be " + rule
        raise ConfigError(f"{source}: '{key}' must {rule}, not {shown}")


def _check(value: Any, want: str, key: str, source: Path) -> None:
    """Raise ConfigError when ``value`` is not of the :data:`SCHEMA` type ``want`` or breaks its key's rule."""
    if want == "path":
        if value is None:
            return
        if not isinstance(value, str) or "\0" in value or not value.strip():
            raise ConfigError(f"{source}: '{key}' must be a path (non-empty, no NUL characters) or null, "
                              f"not {value!r}")
        return
    got = _type_name(value)
    if want != got:
        raise ConfigError(f"{source}: '{key}' must be a {want}, not {got} ({value!r})")
    if key in RANGES:
        _check_number(value, key, source)
    if key in CHOICES and value not in CHOICES[key]:
        allowed = ", ".join(map(str, CHOICES[key]))
        raise ConfigError(f"{source}: '{key}' must be one of {allowed}, not {value!r}")
    if want == "list":
        for item in value:
            # An int is always finite; math.isfinite on a 400-digit one raises OverflowError
            # (fatk9), so only floats are asked (a list item checked like a single value).
            if _type_name(item) != "number" or (isinstance(item, float) and not math.isfinite(item)):
                raise ConfigError(f"{source}: '{key}' must be a list of finite numbers")


def _merge(base: dict[str, Any], override: dict[str, Any], schema: dict[str, Any],
           source: Path, prefix: str = "", complete: bool = False) -> None:
    """Check ``override`` against ``schema`` (:data:`SCHEMA`) and copy its values into ``base``.

    ``complete``: every key of ``schema`` must be present (the shipped
    defaults, which nothing else fills in).
    """
    for key, value in override.items():
        dotted = f"{prefix}{key}"
        if key not in schema:
            allowed = ", ".join(sorted(schema))
            raise ConfigError(f"{source}: unknown key '{dotted}' (allowed: {allowed})")
        want = schema[key]
        if isinstance(want, dict):
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: '{dotted}' must be an object")
            _merge(base.setdefault(key, {}), value, want, source, dotted + ".", complete)
        else:
            _check(value, want, dotted, source)
            base[key] = value
    if complete:
        for key in schema:
            if key not in override:
                raise ConfigError(f"{source}: '{prefix}{key}' is missing")


def _validate_semantics(cfg: dict[str, Any], source: Path) -> None:
    weights = cfg["scoring"]
    if sum(weights.values()) <= 0:
        raise ConfigError(f"{source}: scoring weights must not all be zero")
    thresholds = cfg["context"]["thresholds"]
    if len(thresholds) != 3 or sorted(thresholds) != thresholds or not all(0 < t < 100 for t in thresholds):
        raise ConfigError(f"{source}: 'context.thresholds' must be three rising percentages between 0 and 100")
    policy = cfg["backups"]
    # Retention never removes the newest backup (the one `init --restore` uses),
    # nor one younger than a day unless the user says so explicitly.
    if policy["keep_last"] < 1:
        raise ConfigError(f"{source}: 'backups.keep_last' must be at least 1")
    for name in ("min_age_days", "max_age_days"):
        if policy[name] > 36500:
            raise ConfigError(f"{source}: 'backups.{name}' must be at most 36500 days")
    if policy["max_age_days"] and policy["max_age_days"] < policy["min_age_days"]:
        raise ConfigError(f"{source}: 'backups.max_age_days' must be 0 (no limit) or at least 'backups.min_age_days'")
    if not 0 <= cfg["prune"]["threshold"] <= 1:
        raise ConfigError(f"{source}: 'prune.threshold' must be between 0 and 1")


def load_defaults() -> dict[str, Any]:
    """Return the shipped defaults from ``<bundle>/config.json``, validated.

    The file is checked against :data:`SCHEMA` like an override (types,
    :data:`RANGES`, :data:`CHOICES`, no unknown key) and must hold every key.

    Raises :class:`ConfigError` (exit 2, naming the file and the key) when the
    file is missing, malformed, or a value is wrong.
    """
    data = _load_json(DEFAULTS_PATH)
    cfg: dict[str, Any] = {}
    _merge(cfg, data, SCHEMA, DEFAULTS_PATH, complete=True)
    _validate_semantics(cfg, DEFAULTS_PATH)
    return cfg


#: cfg["tiers"] slot holding the reason a configured key file is refused (set by
#: :func:`_place_key_file`, raised by ``crypto.key_path``); never read from a file.
KEY_REFUSAL = "_key_file_refused"


#: cfg["tiers"] slot naming the file that set ``tiers.key_file`` (for messages; crypto.KEY_SOURCE).
KEY_SOURCE = "_key_file_source"


def _place_key_file(cfg: dict[str, Any], source: Path, workspace: Path | None) -> None:
    """Make ``tiers.key_file`` absolute and refuse one that lies inside the workspace.

    A relative ``key_file`` is resolved against the folder of the config file
    that set it (never the current folder: the same config must name the same
    key wherever a command runs). After resolving symlinks, a key file inside
    the workspace is refused: it would travel with every copy, backup and sync
    of the workspace (issue 10). The refusal is recorded under
    :data:`KEY_REFUSAL` so only the commands that need the key fail (exit 1,
    one line); the others keep working.
    """
    tiers = cfg.get("tiers") or {}
    raw = tiers.get("key_file")
    if not raw:
        _check_default_key(tiers, workspace)
        return
    path = Path(os.path.expanduser(str(raw)))
    if not path.is_absolute():
        path = Path(source).resolve().parent / path
    _refuse_private_key_path(path, source)
    tiers["key_file"] = str(path)
    tiers[KEY_SOURCE] = str(source)
    if workspace is None:
        return
    try:
        real, root = path.resolve(), Path(workspace).resolve()
    except (OSError, RuntimeError):
        return
    if real == root or root in real.parents:
        tiers[KEY_REFUSAL] = (f"tiers.key_file points inside the workspace ({raw}); a T2 key must live outside it "
                              "(it would travel with every copy and backup); move it and set tiers.key_file")


def _refuse_private_key_path(path: Path, source: Path) -> None:
    """Refuse a ``tiers.key_file`` whose file or folder names hold a secret or personal data.

    A config value that names a path passes the gate as a name (gate rule 0,
    :func:`memory_manager.names.refuse_private_path`, as ``--out`` and
    ``--html`` do): the path is printed by ``remember``, ``doctor`` and
    ``crypt.py keygen``, and keygen would create its folders (attack round 16:
    a token pasted into the path was echoed in full and made a folder). Read
    as ``--out``'s new parts are; a token in a folder that exists already is
    not read (known limit: the detector takes key-like folder names for secrets).
    Refused when the config is read, so every command stops before it prints
    or creates anything (exit 2, one line naming the config file and the
    categories, never the value).

    Raises:
        ConfigError: the path holds a finding.
    """
    from .privacy import joined_readings, scan_name

    # Read: the file name and every folder keygen would create (and those joined: a value cut
    # by a '/'). Folders that exist already are the user's file system, named before; unlike
    # --out (names.refuse_private_path) their certain findings are not read here: a key's own
    # folder is often named after keys, and the detector reads "..._key_file_..." as a secret.
    parts = list(path.parts)
    first_new = next((n for n in range(1, len(parts) + 1) if not Path(*parts[:n]).exists()), len(parts))
    # Only the parts keygen would create: a path that exists whole is read by its file name alone.
    new = [p for p in parts[first_new - 1:] if p not in ("/", "\\")]
    found = sorted({f.category for text in [*new, *joined_readings(new)] for f in scan_name(text)
                    if f.category != "home_path"})
    if found:
        raise ConfigError(f"{source}: tiers.key_file: the path holds {', '.join(found)} (it is printed, and "
                          "crypt.py keygen creates its folders); set another path (or remove it to use the default "
                          "key file); nothing was changed")


def _check_default_key(tiers: dict[str, Any], workspace: Path | None) -> None:
    """Refuse the default key file (``crypto.config_dir() / "key"``) when it exists inside the workspace.

    With ``HOME`` or ``XDG_CONFIG_HOME`` inside the workspace, the default key
    lies in it: it would travel with every copy, backup and sync of the
    ciphertext it protects (helper-85, round 7: used without a word). Refused
    as a configured ``tiers.key_file`` inside it is (:data:`KEY_REFUSAL`);
    ``MEMORY_MANAGER_KEY`` still wins (it is read before the file). A key
    that does not exist there is no refusal: ``crypt.py keygen`` refuses to
    create it there.
    """
    if workspace is None:
        return
    from .keypath import KEY_FILENAME, config_dir

    path = config_dir() / KEY_FILENAME
    try:
        if not (path.exists() or path.is_symlink()):
            return
        real, root = path.resolve(), Path(workspace).resolve()
    except (OSError, RuntimeError):
        return
    if real == root or root in real.parents:
        tiers[KEY_REFUSAL] = (f"the T2 key file {path} lies inside the workspace (HOME or XDG_CONFIG_HOME is in "
                              "it); a T2 key must live outside it (it would travel with every copy and backup): "
                              "move it and set tiers.key_file or XDG_CONFIG_HOME, or set MEMORY_MANAGER_KEY")


def load_config(workspace: Path | None = None, override_path: Path | None = None) -> dict[str, Any]:
    """Return the effective configuration as a nested dict.

    Args:
        workspace: the resolved workspace; its ``memory/memory-manager.json``,
            when present, is merged over the shipped defaults.
        override_path: an explicit override file instead (tests, ``doctor``).

    Raises:
        ConfigError: unknown key (the message names the allowed keys), wrong
            type, value out of range, or malformed JSON, in either file.
    """
    cfg = load_defaults()  # a fresh dict per call: the override is merged into it
    path = override_path
    if path is None and workspace is not None:
        candidate = Path(workspace) / OVERRIDE_RELPATH
        path = candidate if candidate.exists() else None
    source = key_source = DEFAULTS_PATH
    if path is not None:
        override = _load_json(path)
        _merge(cfg, override, SCHEMA, path)
        source = path
        if isinstance(override.get("tiers"), dict) and "key_file" in override["tiers"]:
            key_source = path  # a relative key_file is resolved against the file that set it
    _validate_semantics(cfg, source)
    _place_key_file(cfg, key_source, workspace)
    if cfg["language"] == "auto":
        # "auto" (the shipped default): the saved workspace choice, OpenClaw's
        # language, the locale, else English (lang.resolve). Resolved here once
        # so every reader of cfg["language"] sees zh or en.
        from .lang import resolve

        cfg["language"] = resolve(ws=Path(workspace) if workspace is not None else None)[0]
    return cfg
