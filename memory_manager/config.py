"""Loading and validating ``config.json``.

The bundle ships its defaults in ``<bundle>/config.json`` (the seed defaults:
T2 expiry 30 days from the Tiers seed, the 7-day cleanup interval, scoring
weights, time-decay constants, prune threshold 0.6, window 200 and top_k 10
from the Optimization seed, context thresholds 50/70/85 from Memory Master).
A user override, ``<workspace>/memory/memory-manager.json``, is merged on top,
key by key. Both are validated against the shape of the shipped defaults:
unknown keys are rejected naming the allowed set, booleans must be real
booleans, numbers must be numbers, and a few keys take only listed values.
Settings fail closed: a bad file is an error, never silently ignored.

Standard library only, so the per-turn path can read the hook switches.
"""
from __future__ import annotations

import json
import os
import math
from pathlib import Path
# ``Any`` is only an annotation (strings here): no ``typing`` import on the per-turn hook path.

from . import BUNDLE_ROOT, tree
from .errors import ConfigError

DEFAULTS_PATH = BUNDLE_ROOT / "config.json"
#: Where a workspace keeps its own overrides, relative to the workspace.
OVERRIDE_RELPATH = tree.Tree(Path()).override

#: Keys that take only the listed values.
CHOICES: dict[str, tuple[Any, ...]] = {
    "language": ("auto", "zh", "en"),
    "tiers.encryption_scheme": ("auto", "xor-b64", "aes-gcm"),
    "gate.mode": ("auto", "strict"),
}
#: Keys whose value may also be null.
NULLABLE = {"tiers.key_file"}

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

    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    data = loads(text, str(path), error=ConfigError)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level must be a JSON object")
    return data


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


def _check(value: Any, default: Any, key: str, source: Path) -> None:
    """Raise ConfigError when ``value`` does not have the shape of ``default``."""
    if value is None and key in NULLABLE:
        return
    if key in NULLABLE and isinstance(value, str):
        if "\0" in value or not value.strip():
            raise ConfigError(f"{source}: '{key}' must be a path (non-empty, no NUL characters)")
        return
    want, got = _type_name(default), _type_name(value)
    if want != got:
        raise ConfigError(f"{source}: '{key}' must be a {want}, not {got} ({value!r})")
    if key in RANGES:
        _check_number(value, key, source)
    if key in CHOICES and value not in CHOICES[key]:
        allowed = ", ".join(map(str, CHOICES[key]))
        raise ConfigError(f"{source}: '{key}' must be one of {allowed}, not {value!r}")
    if isinstance(default, list):
        for item in value:
            if _type_name(item) != "number" or not math.isfinite(item):
                raise ConfigError(f"{source}: '{key}' must be a list of finite numbers")


def _merge(base: dict[str, Any], override: dict[str, Any], schema: dict[str, Any],
           source: Path, prefix: str = "") -> None:
    for key, value in override.items():
        dotted = f"{prefix}{key}"
        if key not in schema:
            allowed = ", ".join(sorted(schema))
            raise ConfigError(f"{source}: unknown key '{dotted}' (allowed: {allowed})")
        default = schema[key]
        if isinstance(default, dict):
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: '{dotted}' must be an object")
            _merge(base[key], value, default, source, dotted + ".")
        else:
            _check(value, default, dotted, source)
            base[key] = value


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
    """Return the shipped defaults from ``<bundle>/config.json``.

    Raises :class:`ConfigError` when the file is missing or malformed.
    """
    return _load_json(DEFAULTS_PATH)


#: cfg["tiers"] slot holding the reason a configured key file is refused (set by
#: :func:`_place_key_file`, raised by ``crypto.key_path``); never read from a file.
KEY_REFUSAL = "_key_file_refused"


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
        return
    path = Path(os.path.expanduser(str(raw)))
    if not path.is_absolute():
        path = Path(source).resolve().parent / path
    tiers["key_file"] = str(path)
    if workspace is None:
        return
    try:
        real, root = path.resolve(), Path(workspace).resolve()
    except (OSError, RuntimeError):
        return
    if real == root or root in real.parents:
        tiers[KEY_REFUSAL] = (f"tiers.key_file points inside the workspace ({raw}); a T2 key must live outside it "
                              "(it would travel with every copy and backup); move it and set tiers.key_file")


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
    defaults = load_defaults()
    cfg = json.loads(json.dumps(defaults, allow_nan=False))  # a deep copy without importing copy (hook path)
    path = override_path
    if path is None and workspace is not None:
        candidate = Path(workspace) / OVERRIDE_RELPATH
        path = candidate if candidate.exists() else None
    source = DEFAULTS_PATH
    if path is not None:
        _merge(cfg, _load_json(path), defaults, path)
        source = path
    _validate_semantics(cfg, source)
    _place_key_file(cfg, source, workspace)
    if cfg["language"] == "auto":
        # "auto" (the shipped default): the saved workspace choice, OpenClaw's
        # language, the locale, else English (lang.resolve). Resolved here once
        # so every reader of cfg["language"] sees zh or en.
        from .lang import resolve

        cfg["language"] = resolve(ws=Path(workspace) if workspace is not None else None)[0]
    return cfg
