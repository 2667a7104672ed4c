"""Rendering the Markdown templates in ``<bundle>/templates/<lang>/``.

Templates use :class:`string.Template` placeholders (``$topic``, ``${date}``);
a missing placeholder value is an error, never a silent blank. ``lang`` is
``zh`` (default, as in the seeds) or ``en``.
"""
from __future__ import annotations

from string import Template

from . import BUNDLE_ROOT
from .errors import BadInputError

TEMPLATE_DIR = BUNDLE_ROOT / "templates"
LANGUAGES = ("zh", "en")


def load(name: str, lang: str = "zh") -> str:
    """Return the raw text of template ``name`` (e.g. ``"daily-entry.md"``) in ``lang``.

    Raises:
        BadInputError: unknown language or template.
    """
    if lang not in LANGUAGES:
        raise BadInputError(f"language must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    path = TEMPLATE_DIR / lang / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        raise BadInputError(f"no template {name!r} for language {lang!r}") from None


def render(name: str, lang: str = "zh", **values: object) -> str:
    """Fill template ``name`` with ``values``.

    Raises:
        BadInputError: a placeholder has no value, or the template is unknown.
    """
    try:
        return Template(load(name, lang)).substitute({k: str(v) for k, v in values.items()})
    except KeyError as exc:
        raise BadInputError(f"template {name}: no value for ${exc.args[0]}") from None
