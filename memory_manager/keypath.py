"""Where the T2 key lives by default: ``${XDG_CONFIG_HOME:-~/.config}/complex-memory-manager/key``.

Kept apart from :mod:`memory_manager.crypto` (which imports the cryptography library and
dataclasses) so that the config loader, on every hook's path, can check the default key's place
without importing it (tests/test_hook.py keeps the hook's imports to the standard library).
"""
from __future__ import annotations

import os
from pathlib import Path

#: The key's folder name under the user's config folder, and the key file's name.
KEY_DIRNAME = "complex-memory-manager"
KEY_FILENAME = "key"


def config_dir(env=None) -> Path:
    """Return ``${XDG_CONFIG_HOME:-~/.config}/complex-memory-manager`` (the key's folder).

    Args:
        env: the environment to read (default ``os.environ``).
    """
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME") or Path.home()) / ".config")
    return Path(base).expanduser() / KEY_DIRNAME
