"""Choosing the language of the templates, notes and status lines (``zh`` or ``en``).

Order (issue 14; the first that gives an answer wins):

1. ``--lang`` on the command line;
2. the choice saved in this workspace: ``language`` in
   ``memory/memory-manager.json`` (``init`` writes it), else the language of
   a lessons file an earlier ``init`` wrote (``MEMORY.md`` with our marker):
   a workspace set up in Chinese stays Chinese. It is never a per-user
   setting: two workspaces of one user may differ;
3. OpenClaw's configured language, ``ui.prefs.locale`` in ``openclaw.json``
   (OpenClaw 2026.9.6 docs, "UI": the Control UI's locale), when set;
4. the locale: ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG`` (POSIX
   precedence; ``C``/``POSIX`` say nothing and are passed over);
5. English.

Any locale whose language part is ``zh`` (``zh_CN.UTF-8``, ``zh-Hant``)
means Chinese; any other language means English, the only other one we ship.
Standard library only: the per-turn path resolves ``language: "auto"``.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from collections.abc import Mapping
# ``Any`` is only an annotation (strings here): no ``typing`` import on the per-turn hook path.

from .jsonio import parse as _parse_json
from .tree import Tree

LANGUAGES = ("zh", "en")
AUTO = "auto"
_LESSONS_MARKER = "<!-- complex-memory-manager: lessons v"
#: First line of the lessons template in each language (templates/*/memory-lessons.md).
_LESSONS_TITLES = {"zh": "# MEMORY.md - 经验教训", "en": "# MEMORY.md - Lessons and Experience"}


def from_locale_name(value: str | None) -> str | None:
    """Map a locale or language tag (``zh_CN.UTF-8``, ``en-US``, ``zh``) to ``zh``/``en``.

    Returns None for an empty value and for ``C``/``POSIX`` (no preference).
    """
    if not value:
        return None
    head = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if not head or head in ("c", "posix"):
        return None
    return "zh" if head == "zh" else "en"


def saved(ws: Path | None) -> str | None:
    """The language saved in workspace ``ws`` (see the module docstring, rule 2), or None.

    A malformed settings file is passed over here (config.load_config reports it).
    """
    if ws is None:
        return None
    try:
        doc = _parse_json(Tree(Path(ws)).override.read_text(encoding="utf-8-sig"))
        if isinstance(doc, dict) and doc.get("language") in LANGUAGES:
            return doc["language"]
    except (OSError, ValueError):
        pass
    return lessons_language(ws)


def lessons_language(ws: Path) -> str | None:
    """The language of the lessons file ``init`` wrote in ``ws/MEMORY.md`` (its first line), or None."""
    path = Tree(Path(ws)).lessons_file()
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8-sig") as handle:
            head = handle.read(4096)
    except (OSError, UnicodeDecodeError):
        return None
    if _LESSONS_MARKER not in head:
        return None
    first = head.splitlines()[0].strip() if head.strip() else ""
    for lang, title in _LESSONS_TITLES.items():
        if first == title:
            return lang
    return None


def openclaw_language(oc_config: Mapping[str, Any] | None) -> str | None:
    """``ui.prefs.locale`` of OpenClaw's config mapped to ``zh``/``en``, or None when unset."""
    ui = (oc_config or {}).get("ui")
    prefs = ui.get("prefs") if isinstance(ui, Mapping) else None
    locale = prefs.get("locale") if isinstance(prefs, Mapping) else None
    return from_locale_name(locale) if isinstance(locale, str) else None


def locale_language(env: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """``(language, variable)`` from ``LC_ALL``/``LC_MESSAGES``/``LANG``, or None."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        lang = from_locale_name(env.get(var))
        if lang:
            return lang, var
    return None


def resolve(explicit: str | None = None, ws: Path | None = None, env: Mapping[str, str] | None = None,
            oc_config: Mapping[str, Any] | None | str = "read") -> tuple[str, str]:
    """Choose the language; return ``(lang, source)`` where ``source`` names the rule that won.

    Args:
        explicit: ``--lang`` (``zh``/``en``) or None.
        ws: the workspace (for the saved choice), or None.
        env: environment for the locale (default ``os.environ``).
        oc_config: OpenClaw's config mapping, None for none, or ``"read"`` to
            read it (workspace.read_openclaw_config).
    """
    if explicit in LANGUAGES:
        return explicit, "--lang"
    found = saved(ws)
    if found:
        return found, "saved in this workspace"
    if oc_config == "read":
        from .workspace import read_openclaw_config

        oc_config = read_openclaw_config(env)
    found = openclaw_language(oc_config if isinstance(oc_config, Mapping) else None)
    if found:
        return found, "OpenClaw's ui.prefs.locale"
    by_locale = locale_language(env)
    if by_locale:
        return by_locale[0], f"locale ({by_locale[1]})"
    return "en", "default"
