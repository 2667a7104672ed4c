"""Rendering the report (:class:`memory_manager.report.Model`) as one self-contained HTML file.

The page comes from the Jinja2 template ``templates/report/page.html.j2``
(autoescaped; its words from ``templates/<lang>/report.json``), the charts
from matplotlib, drawn straight to SVG (the ``svg`` backend: no display, no
pyplot) and put inline. Text in the SVG stays text (``svg.fonttype: none``),
so Chinese labels use the browser's fonts. Nothing in the page loads
anything: no script at all, styles inline, and a Content-Security-Policy of
``default-src 'none'`` that allows only inline styles, so even a link that
slipped in could not load.

Jinja2 and matplotlib are the report's optional extra
(``requirements-report.txt``), imported only here, and this module is
imported only by ``memory.py report``.
"""
from __future__ import annotations

import io
import json
import os
import re
import sys
import warnings
from datetime import datetime, timedelta
from typing import Any

from . import BUNDLE_ROOT, __version__
from .report import CHART_SESSIONS, Model

TEMPLATE_DIR = BUNDLE_ROOT / "templates" / "report"
#: The page's policy: nothing may load (``default-src 'none'``) except the
#: inline ``<style>`` and the charts' inline style attributes; no base URL
#: and no form target can be set. Delivered in a ``<meta>`` element
#: (``frame-ancestors`` cannot be, so it is left out).
CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
#: Skills drawn in the T1 chart (most calls first); the table lists all.
CHART_SKILLS = 15
#: Up to this many days the timeline chart has one bar per day; longer windows
#: are drawn as filled steps (two SVG paths instead of two per day).
BAR_DAYS = 62
#: Colours (Okabe-Ito, readable with colour blindness): ours, OpenClaw's, warnings.
BLUE, ORANGE, GREEN, RED, GREY, YELLOW = "#0072B2", "#E69F00", "#009E73", "#D55E00", "#999999", "#F0E442"
_SVG_START = re.compile(r"<svg\b")
_RC = {"svg.fonttype": "none", "text.parse_math": False, "font.size": 9,
       "font.family": ["DejaVu Sans"], "axes.spines.top": False, "axes.spines.right": False}
#: Font families with Chinese glyphs, best first (Debian's fonts-noto-cjk and
#: fonts-wqy-microhei/-zenhei; Adobe's Source Han). None is shipped: one that is
#: installed is used, else the charts' words are drawn in English.
CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei",
                "WenQuanYi Zen Hei", "Noto Sans CJK JP", "Droid Sans Fallback")
#: File names of such fonts, for one installed after matplotlib's font list was cached.
_CJK_FILE = re.compile(r"notosanscjk|notosanssc|sourcehansans|wqy|droidsansfallback", re.I)
#: matplotlib's warning when a label has a character the layout font lacks (the SVG keeps the
#: text as text, so the browser still draws it with its own fonts).
_GLYPH_WARNING = r"Glyph .* missing from font"
_FONT: list[str | None] = []


def cjk_family() -> str | None:
    """Return the name of an installed font family with Chinese glyphs, or None.

    Looks in matplotlib's font list (``font_manager.fontManager``), then among
    the system's font files (``findSystemFonts``) for one added since that list
    was cached; the answer is kept for the process.
    """
    if _FONT:
        return _FONT[0]
    from matplotlib import font_manager

    def known() -> str | None:
        names = {f.name for f in font_manager.fontManager.ttflist}
        return next((name for name in CJK_FAMILIES if name in names), None)

    found = known()
    if found is None:
        for path in sorted(font_manager.findSystemFonts()):
            if _CJK_FILE.search(path.replace("-", "").replace("_", "")):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
        found = known()
    _FONT.append(found)
    return found


def _rc() -> dict[str, Any]:
    """matplotlib settings of the charts: :data:`_RC`, with a CJK family to fall back on when one is installed."""
    family = cjk_family()
    return {**_RC, "font.family": ["DejaVu Sans", family]} if family else _RC


#: The folder, under ``memory/.cache``, where matplotlib keeps its config and font list.
MPL_FOLDER = "matplotlib"


def private_config(ws: Any) -> None:
    """Point matplotlib at a private folder of workspace ``ws`` before it is imported.

    ``ws``: a :class:`memory_manager.workspace.Workspace` (its ``root``) or a path.
    Without ``MPLCONFIGDIR`` matplotlib creates ``~/.cache/matplotlib``,
    ``~/.config/matplotlib`` and its font list with the process umask (0777 /
    0666 under umask 000: another user could plant a ``matplotlibrc`` or a
    forged font list; attack round 5, issue 10). Here it gets
    ``memory/.cache/matplotlib`` (derived and rebuildable, made 0700 by
    :func:`memory_manager.fsio.make_dirs`). A ``MPLCONFIGDIR`` the user set is
    kept; nothing is done once matplotlib is loaded. Raises nothing: a folder
    that cannot be made leaves matplotlib's own choice.

    The process umask is also made at least 077 for the rest of the command
    (the report writes only private files), so the font list matplotlib
    writes there is 0600 like every other file under ``memory/.cache``.
    """
    os.umask(os.umask(0o077) | 0o077)
    if "matplotlib" in sys.modules or os.environ.get("MPLCONFIGDIR"):
        return
    from pathlib import Path

    from . import fsio, tree
    from .errors import MemoryManagerError

    folder = tree.Tree(Path(getattr(ws, "root", ws))).cache / MPL_FOLDER
    try:
        fsio.make_dirs(folder, 0o700)
    except (OSError, MemoryManagerError):
        return
    os.environ["MPLCONFIGDIR"] = str(folder)


def preload() -> None:
    """Import Jinja2 and matplotlib's figure and SVG modules now (``report.collect``
    runs this while a second process masks text, so the import costs no time)."""
    import jinja2  # noqa: F401

    _preload_charts()


def _preload_charts() -> None:
    """Import matplotlib's figure and SVG modules: all the chart child needs (it never fills
    the template, so it does not import Jinja2: about 0.04 s of CPU, issue 15)."""
    import matplotlib.dates  # noqa: F401
    from matplotlib.backends import backend_svg  # noqa: F401
    from matplotlib import figure  # noqa: F401


def _svg(fig: Any, salt: str) -> str:
    """Return ``fig`` as an inline ``<svg>`` element (no XML prolog, no DOCTYPE, no date).

    ``salt`` keeps the ids of clip paths unique between the page's charts.
    """
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    buf = io.StringIO()
    with matplotlib.rc_context({**_rc(), "svg.hashsalt": salt}), warnings.catch_warnings():
        warnings.filterwarnings("ignore", _GLYPH_WARNING)
        FigureCanvasSVG(fig).print_svg(buf, metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    m = _SVG_START.search(text)
    return text[m.start():] if m else text


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=72, layout="constrained")


def _count(value: Any) -> int:
    """A day's entries as the timeline chart counts them: a list of entries, or their number (:func:`chart_data`)."""
    return value if isinstance(value, int) else len(value)


def _timeline_chart(days: list[dict[str, Any]], t: dict[str, str]) -> str | None:
    if not any(d["ours"] or d["openclaw"] for d in days):
        return None
    import matplotlib

    with matplotlib.rc_context(_rc()):
        fig = _figure(9, 2.1)
        ax = fig.add_subplot()
        rows = list(reversed(days))  # oldest left
        x = range(len(rows))
        ours = [_count(d["ours"]) for d in rows]
        theirs = [_count(d["openclaw"]) for d in rows]
        if len(rows) <= BAR_DAYS:
            ax.bar(x, ours, color=BLUE, label=t["ours"], width=0.8)
            ax.bar(x, theirs, bottom=ours, color=ORANGE, label=t["openclaw"], width=0.8)
        else:  # one filled step outline per series: hundreds of bars are slow to draw and too thin to see
            both = [a + b for a, b in zip(ours, theirs)]
            ax.fill_between(x, 0, ours, step="mid", color=BLUE, label=t["ours"], lw=0)
            ax.fill_between(x, ours, both, step="mid", color=ORANGE, label=t["openclaw"], lw=0)
            ax.set_ylim(bottom=0)
        step = max(1, len(rows) // 8)
        ticks = list(range(len(rows) - 1, -1, -step))[::-1]
        ax.set_xticks(ticks, [rows[i]["date"][5:] for i in ticks])
        ax.set_ylabel(t["entries"])
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False, ncols=2)
        return _svg(fig, "timeline")


def _t1_chart(skills: list[dict[str, Any]], t: dict[str, str]) -> str | None:
    shown = [s for s in skills if s["calls"]][:CHART_SKILLS]
    if not shown:
        return None
    import matplotlib

    with matplotlib.rc_context(_rc()):
        fig = _figure(9, 0.6 + 0.28 * len(shown))
        left, right = fig.subplots(1, 2, sharey=True, width_ratios=[3, 2])
        names = [str(s["skill"]) for s in shown][::-1]
        calls = [s["calls"] for s in shown][::-1]
        rates = [(s["rate"] or 0) * 100 for s in shown][::-1]
        y = range(len(shown))
        left.barh(y, calls, color=BLUE)
        left.set_yticks(list(y), names)
        left.set_xlabel(t["calls"])
        left.xaxis.get_major_locator().set_params(integer=True)  # calls are whole numbers (walk-through r4, item 21)
        colours = [GREEN if r >= 90 else YELLOW if r >= 70 else RED for r in rates]
        right.barh(y, rates, color=colours)
        right.set_xlim(0, 100)
        right.set_xlabel(t["success_rate"] + " (%)")
        for i, r in zip(y, rates):
            right.text(min(r + 2, 88), i, f"{r:.0f}%", va="center", fontsize=8)
        return _svg(fig, "t1")


def _t2_chart(rows: list[dict[str, Any]], t: dict[str, str]) -> str | None:
    if not rows:
        return None
    import matplotlib

    with matplotlib.rc_context(_rc()):
        fig = _figure(9, 1.0 + 0.28 * len(rows))
        ax = fig.add_subplot()
        y = range(len(rows))
        left = [0] * len(rows)
        for bucket, colour in (("later", GREEN), ("soon", YELLOW), ("expired", RED), ("none", GREY)):
            values = [r[bucket] for r in rows]
            ax.barh(y, values, left=left, color=colour, label=t["t2_" + bucket])
            left = [a + b for a, b in zip(left, values)]
        ax.set_yticks(list(y), [str(r["skill"]) for r in rows])
        ax.invert_yaxis()
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.set_xlabel(t["entries"])
        ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False, ncols=4, fontsize=8)
        return _svg(fig, "t2")


def _usage_chart(sessions: list[dict[str, Any]], thresholds: list[int], t: dict[str, str]) -> str | None:
    drawn = [s for s in sessions if s["points"]][:CHART_SESSIONS]
    if not drawn:
        return None
    import matplotlib
    import matplotlib.dates as mdates

    with matplotlib.rc_context(_rc()):
        fig = _figure(9, 3.2)
        ax = fig.add_subplot()
        bands = sorted(thresholds) + [100]
        shades = ["#FFF6CC", "#FFE0B3", "#FFC2B3"]
        for n, (low, high) in enumerate(zip(bands, bands[1:])):
            ax.axhspan(low, high, color=shades[min(n, len(shades) - 1)], zorder=0, lw=0)
            ax.text(1.0, low, f" {low}%", transform=ax.get_yaxis_transform(), va="bottom", ha="left", fontsize=8)
        palette = [BLUE, ORANGE, GREEN, RED, "#56B4E9", "#CC79A7", "#000000", GREY]
        limits: set[float] = set()
        for colour, s in zip(palette, drawn):
            xs = [datetime.fromisoformat(p["at"]) for p in s["points"]]
            ys = [p["percent"] for p in s["points"]]
            ax.plot(xs, ys, color=colour, marker="o", markersize=3, lw=1.5, label=str(s["label"]))
            if s["compactions"]:
                ax.plot([datetime.fromisoformat(p["at"]) for p in s["compactions"]],
                        [p["percent"] for p in s["compactions"]], ls="none", marker="X", markersize=9,
                        color=colour, markeredgecolor="black", zorder=5)
            limits.update(s["compaction_at"])
        for limit in sorted(limits)[:3]:
            ax.axhline(limit, color="black", ls=":", lw=1)
        if limits:
            ax.plot([], [], color="black", ls=":", label=t["compaction_line"])
            ax.plot([], [], ls="none", marker="X", color="white", markeredgecolor="black", label=t["compaction_point"])
        ax.set_ylim(0, 100)
        times = [datetime.fromisoformat(p["at"]) for s in drawn for p in s["points"]]
        if max(times) == min(times):  # one instant: give the date axis a range to place ticks on
            ax.set_xlim(min(times) - timedelta(hours=1), max(times) + timedelta(hours=1))
        ax.set_ylabel(t["context_used"] + " (%)")
        locator = mdates.AutoDateLocator(maxticks=8)
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
        ax.legend(loc="upper left", bbox_to_anchor=(0, -0.14), frameon=False, ncols=3, fontsize=8)
        return _svg(fig, "usage")


def _size(value: int | None) -> str:
    """``1.2 MB``-style size (decimal units); '' for None."""
    if value is None:
        return ""
    size = float(value)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{value} B"


def strings(lang: str) -> dict[str, Any]:
    """Return the page's words in ``lang`` (``templates/<lang>/report.json``).

    Raises:
        BadInputError: no such language.
    """
    from .templates import load

    return json.loads(load("report.json", lang))


def _plain(value: Any) -> Any:
    """``value`` with every masked placeholder (:class:`memory_manager.report._Masked`) as its text: plain data that pickles."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def chart_data(model: Model) -> dict[str, Any]:
    """What the four charts read of ``model``, as plain data (masked text as ``str``, a day's entries as their number)."""
    sections = model.sections
    days = [{"date": d["date"], "ours": len(d["ours"]), "openclaw": len(d["openclaw"])}
            for d in sections["timeline"]["days"]]
    return {"lang": model.lang, "thresholds": list(model.thresholds), "days": days,
            # Only what each chart draws (the same filter and cut as the chart's own).
            "t1": _plain([s for s in sections["tiers"]["t1"]["skills"] if s["calls"]][:CHART_SKILLS]),
            "t2": _plain(sections["tiers"]["t2"]["by_skill"]),
            "usage": _plain([s for s in sections["usage"]["sessions"] if s["points"]][:CHART_SESSIONS])}


def draw(data: dict[str, Any]) -> dict[str, str | None]:
    """The four charts of :func:`chart_data`'s ``data`` as inline SVG (None for a chart with nothing to draw).

    The charts' own words follow the page's language, in English when no
    installed font has Chinese glyphs (:func:`cjk_family`).
    """
    lang = data["lang"]
    w = strings("en") if lang == "zh" and cjk_family() is None else strings(lang)
    return {
        "timeline": _timeline_chart(data["days"], w),
        "t1": _t1_chart(data["t1"], w),
        "t2": _t2_chart(data["t2"], w),
        "usage": _usage_chart(data["usage"], data["thresholds"], w),
    }


def _charts_ok(value: Any) -> bool:
    return (isinstance(value, dict) and set(value) == set(CHART_NAMES)
            and all(x is None or isinstance(x, str) for x in value.values()))


def start_charts() -> Any:
    """Fork the chart child now (:func:`memory_manager.forked.start`): it imports matplotlib while
    this process gathers and masks the memory, then draws when :func:`render` sends it the data.

    Call after :func:`private_config`. Returns the :class:`memory_manager.forked.Worker`, or None
    on a machine with one core or without ``os.fork`` (the charts are then drawn in line).
    """
    if (os.cpu_count() or 1) < 2 or not hasattr(os, "fork"):
        return None
    from .forked import start

    return start(_preload_charts, draw)


def send_charts(model: Model, charts: Any) -> None:
    """Give the chart child ``charts`` (from :func:`start_charts`, or None: nothing to do) its data now.

    ``report.collect`` calls this (its ``gathered``) before the bulk of the
    text is masked: the charts read only a few masked labels (skill names,
    session labels, masked there and then), so they are drawn while the rest
    is masked instead of after it (issue 15). :func:`render` then sends nothing again.
    """
    if charts is not None:
        charts.send(chart_data(model), accept=_charts_ok)


class Pages:
    """The steps of one report's page around ``report.make`` (``memory.py report``).

    ``gathered`` (once the memory is read) gives the chart child its data;
    ``meanwhile`` (while a forked child masks the text; not when there is no
    such child) fills the template with stand-ins for the masked text
    (:meth:`memory_manager.report._Masker.drafting`);
    ``render`` (after the masking) puts the masked text and the charts in.
    Filling the template (about 0.2 s for 10,000 entries) was the last step
    after the masking, with the other core idle; now it runs beside the
    child that masks (issue 15, round 11). The page is the same as
    :func:`render` without a draft gives.

    ``charts``: the chart child (:func:`start_charts`), or None: then
    ``meanwhile`` also imports matplotlib, as :func:`preload`.
    """

    def __init__(self, charts: Any = None) -> None:
        self.charts = charts
        self.model: Model | None = None
        self.drafted: tuple[str, list[Any]] | None = None

    def gathered(self, model: Model) -> None:
        self.model = model
        send_charts(model, self.charts)

    def meanwhile(self) -> None:
        if self.charts is None:
            preload()
        # Drafting costs a little more than filling the template once (the stand-ins, then the
        # text put in): worth it only beside a child that masks, not when the masked text is all
        # in the mask cache or too short to share.
        if self.model is not None and getattr(self.model.masker, "child_masking", False):
            try:
                self.drafted = draft(self.model)
            except Exception:  # noqa: BLE001 - surfaces from render, which fills the template again
                # Raised here, it would leave the masking child unreaped; render raises the same
                # error (a language without strings, a broken template) in its place instead.
                self.drafted = None

    def render(self, model: Model) -> str:
        return render(model, self.charts, self.drafted if model is self.model else None)


def _environment(t: dict[str, Any]) -> Any:
    """The Jinja2 environment of the page: autoescaped, strict, with the page's filters."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(loader=FileSystemLoader(str(TEMPLATE_DIR)), autoescape=select_autoescape(["html", "j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["size"] = _size
    env.filters["pct"] = lambda v: "" if v is None else f"{v * 100:.1f}%"
    weekdays = t["weekdays"]
    env.filters["weekday"] = lambda n: weekdays[n]
    return env


def _fill(model: Model, t: dict[str, Any]) -> str:
    """The template filled with ``model`` (a stand-in where each chart goes, see :func:`render`)."""
    from markupsafe import Markup

    # vars(), not asdict(): the sections are plain dicts already, and a deep
    # copy of 10,000 entries costs more than drawing every chart.
    return _environment(t).get_template("page.html.j2").render(
        model=vars(model), t=t, csp=CSP, version=__version__,
        charts={k: Markup(_CHART_STANDIN.format(k)) for k in CHART_NAMES})


def draft(model: Model) -> tuple[str, list[Any]] | None:
    """The template filled before the text of ``model`` is masked: ``(page with stand-ins, their list)``
    for :func:`render`, or None when ``model`` has no masker (nothing to draft).

    Raises:
        BadInputError: the language has no strings.
    """
    masker = model.masker
    if masker is None:
        return None
    with masker.drafting() as slots:
        page = _fill(model, strings(model.lang))
    return page, slots


def render(model: Model, charts: Any = None, drafted: tuple[str, list[Any]] | None = None) -> str:
    """Return the HTML page of ``model`` (one string, self-contained).

    ``charts``: a chart child from :func:`start_charts` (given the data here unless
    :func:`send_charts` did already), or None. ``drafted``: the page :func:`draft`
    gave while the text was masked; the template is filled here without one,
    or when the draft's stand-ins do not check out (the same page either way).

    Raises:
        BadInputError: the language has no strings.
    """
    t = strings(model.lang)
    data = chart_data(model)

    # The charts (about 0.4 s for four) are drawn by a forked child while this process fills the
    # template (about 0.2 s for 10,000 entries) with a stand-in for each; the stand-ins are then
    # replaced, so the page is byte for byte the one drawn in line (issue 15: a report of 10,000
    # entries under 3 s). The child from start_charts() imported matplotlib while the memory was
    # gathered; without one, a child is forked here. A failed child costs time only: the charts
    # are drawn here then.
    waiting = None
    if charts is not None:
        charts.send(data, accept=_charts_ok)  # nothing when send_charts() gave it already
        waiting = charts.wait
    elif (os.cpu_count() or 1) >= 2 and hasattr(os, "fork"):
        from .forked import in_child

        waiting = in_child(lambda: draw(data), accept=_charts_ok)
    html = None
    if drafted is not None and model.masker is not None:
        html = model.masker.fill(*drafted)
    if html is None:
        html = _fill(model, t)
    drawn = waiting() if waiting is not None else None
    if drawn is None:
        drawn = draw(data)
    for name in CHART_NAMES:
        svg = drawn[name]
        # A stand-in cannot come from the memory's text: every text is escaped ("<" is "&lt;").
        html = html.replace(f'<div class="chart">{_CHART_STANDIN.format(name)}</div>',
                            f'<div class="chart">{svg}</div>' if svg else "", 1)
    return html


#: The page's charts, in the order of the template's sections.
CHART_NAMES = ("timeline", "t1", "t2", "usage")
#: What the template holds where a chart goes until it is drawn (:func:`render`).
_CHART_STANDIN = "<!--cmm-chart:{}-->"
