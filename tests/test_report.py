"""memory.py report: one private, offline HTML page of the memory (issue 15).

The workspace (tests/reportws.py) has notes on 30 days, OpenClaw's own notes,
knowledge, lessons, T1/T2 entries, usage records, an audit and a cleanup. The
page is rendered by the real script and read back with the standard
library's HTML parser.
"""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import signal
import stat
from datetime import date, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest

import reportws
from conftest import ROOT, tree_hash

NOW = reportws.NOW
ENV = {"MEMORY_MANAGER_NOW": NOW}
#: Elements that load something by themselves; none may be in the page.
LOADING_TAGS = {"script", "link", "img", "iframe", "frame", "object", "embed", "audio", "video", "source",
                "track", "image", "feimage", "picture", "base", "form"}
URL_ATTRS = {"src", "href", "xlink:href", "srcset", "poster", "data", "action", "formaction", "background",
             "ping", "manifest", "cite", "longdesc", "lowsrc", "dynsrc"}


class Page(HTMLParser):
    """Every element with its attributes, the text of <style> elements and the page's text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.styles: list[str] = []
        self.text: list[str] = []
        self._in_style = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, {k: (v or "") for k, v in attrs}))
        self._in_style = tag == "style"

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, {k: (v or "") for k, v in attrs}))

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False

    def handle_data(self, data):
        (self.styles if self._in_style else self.text).append(data)

    @property
    def all_text(self) -> str:
        return "".join(self.text)


def external_loads(text: str) -> list[str]:
    """Everything in ``text`` (an HTML page) that would load something from outside the page."""
    page = Page(text)
    found = []
    css = list(page.styles)
    for tag, attrs in page.elements:
        if tag in LOADING_TAGS:
            found.append(f"<{tag}>")
        if tag == "meta" and attrs.get("http-equiv", "").lower() == "refresh":
            found.append("<meta refresh>")
        for name, value in attrs.items():
            if name in URL_ATTRS and value and not value.startswith("#"):
                found.append(f"<{tag} {name}={value!r}>")
            if name == "style" or "url(" in value:
                css.append(value)
    for block in css:
        for m in re.finditer(r"url\(\s*['\"]?([^)'\"]*)", block, re.I):
            if not m.group(1).startswith("#"):  # url(#id): a gradient or clip path in this page
                found.append(f"url({m.group(1)})")
        if re.search(r"@import|@font-face|image-set\(", block, re.I):
            found.append("CSS at-rule that loads")
    return found


def csp_of(text: str) -> dict[str, list[str]]:
    page = Page(text)
    policies = [a["content"] for t, a in page.elements
                if t == "meta" and a.get("http-equiv", "").lower() == "content-security-policy"]
    assert len(policies) == 1
    out = {}
    for part in policies[0].split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The workspace, built once (with HOME and the state folder inside the test's tmp folder)."""
    base = tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(base / "home"))
        mp.setenv("XDG_CONFIG_HOME", str(base / "home" / ".config"))
        mp.setenv("OPENCLAW_STATE_DIR", str(base / "home" / ".openclaw"))
        for var in ("MEMORY_MANAGER_KEY", "OPENCLAW_WORKSPACE_DIR", "OPENCLAW_CONFIG_PATH"):
            mp.delenv(var, raising=False)
        (base / "home").mkdir()
        ws = base / "ws"
        ws.mkdir()
        info = reportws.build(ws)
    return info


@pytest.fixture
def copy(built, tmp_path):
    """A private copy of the built workspace (for tests that change it)."""
    dest = tmp_path / "copy"
    shutil.copytree(built.ws, dest, symlinks=True)
    return dest


@pytest.fixture(scope="module")
def page(built):
    """The default report of the built workspace: (result of the script, the page's text, its path)."""
    import subprocess
    import sys

    env = {**os.environ, **ENV, "HOME": str(built.ws.parent / "home"),
           "OPENCLAW_STATE_DIR": str(built.ws.parent / "home" / ".openclaw")}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "memory.py"), "report", "-w", str(built.ws),
                           "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    path = Path(doc["path"])
    return doc, path.read_text(encoding="utf-8"), path


def test_default_place_mode_and_counts(built, page):
    doc, _, path = page
    assert path == built.ws / "memory" / ".cache" / "report.html"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert doc["days"] == 30 and doc["approved"] is False and doc["bytes"] == path.stat().st_size
    assert doc["counts"] == {"days": 30, "daily": len(built.topics), "openclaw": 3, "knowledge": 3,
                             "t1_skills": 4, "t2": 3, "t2_shown": 0, "usage_records": 17, "sessions": 2}


def test_nothing_loads_from_outside_the_file(page):
    _, text, _ = page
    assert external_loads(text) == []
    assert "<svg" in text  # the charts are inline


def test_the_check_finds_each_kind_of_external_load():
    """The check above can fail: each way a page can load something is caught."""
    samples = ['<script src="https://cdn.example/x.js"></script>', '<script>1</script>',
               '<link rel="stylesheet" href="https://x/y.css">', '<img src="data:image/png;base64,AAAA">',
               '<iframe src="https://x"></iframe>', '<style>body{background:url(https://x/a.png)}</style>',
               '<p style="background-image: url(\'x.png\')">a</p>', '<style>@import "https://x/y.css";</style>',
               '<svg><image href="https://x/y.png"/></svg>', '<a href="https://tracker.example/">x</a>',
               '<svg><use xlink:href="https://x/sprite.svg#a"/></svg>']
    for sample in samples:
        assert external_loads(f"<html><body>{sample}</body></html>"), sample
    assert external_loads('<svg><g clip-path="url(#p1)"><use xlink:href="#m1"/><a href="#x">x</a></g></svg>') == []


def test_content_security_policy_allows_only_inline_styles(page):
    _, text, _ = page
    policy = csp_of(text)
    assert policy["default-src"] == ["'none'"]
    assert policy.get("style-src") == ["'unsafe-inline'"]
    assert "script-src" not in policy  # falls back to 'none'
    allowed = [v for k, vs in policy.items() for v in vs if k not in ("default-src", "style-src")]
    assert set(allowed) <= {"'none'"}
    assert text.index("Content-Security-Policy") < text.index("<style>")


def test_every_entry_topic_in_the_window_is_shown_and_older_ones_are_not(built, page):
    _, text, _ = page
    shown = Page(text).all_text
    for topic, _ in built.topics:
        assert topic in shown, topic
    for topic in built.old_topics:  # 60 days old, archived: outside the window
        assert topic not in shown
    for heading in built.openclaw_headings:
        assert heading in shown
    # one row per day with notes, newest first; each topic's lines fold open on click
    days = re.findall(r'<div class="date">(\d{4}-\d{2}-\d{2})', text)
    assert days == [(reportws.TODAY - timedelta(days=n)).isoformat() for n in range(30)]
    assert text.count('<details class="ours" data-id=') == len(built.topics)
    assert "changed the schedule and checked the logs" in shown and "改成了定时任务" in shown


def test_tokens_in_a_daily_note_and_in_openclaws_note_are_masked(built, page):
    _, text, _ = page
    for token in (built.daily_token, built.openclaw_token):
        assert token not in text
        assert token[-10:] not in text
    shown = Page(text).all_text
    assert "CI token rotation" in shown and "[secret]" in shown
    assert re.search(r"Tried the API with key \[secret\]", shown)


def test_no_t2_plaintext_without_approval(built, page):
    _, text, _ = page
    for plain in built.t2_texts:
        for word in plain.split(", "):
            assert word not in text, word
    shown = Page(text).all_text
    assert "memory.py report --approved --html FILE" in shown
    # counts by skill and expiry are shown: notes has 2 (one expires within 7 days), feishu-bot 1
    rows = re.findall(r"<tr><td>([\w-]+)</td><td class=\"num\">(\d+)</td><td class=\"num\">(\d+)</td>"
                      r"<td class=\"num\">(\d+)</td><td class=\"num\">(\d+)</td><td class=\"num\">(\d+)</td></tr>", text)
    assert ("feishu-bot", "1", "1", "0", "0", "0") in rows and ("notes", "2", "1", "1", "0", "0") in rows


def test_knowledge_tiers_usage_and_health_sections(built, page):
    _, text, _ = page
    shown = Page(text).all_text
    for key in built.knowledge_keys:
        assert key in shown
    assert re.search(r"deploy-rules.*?<td class=\"num\">3 ", text, re.S)  # recalled three times
    assert "Check the calendar before planning a release." in shown  # a lesson in MEMORY.md
    for skill in built.skills:
        assert skill in shown
    assert "95.2%" in shown and "morning briefing" in shown
    assert "3 daily sections archived" in re.sub(r"<[^>]+>", " ", text).replace("  ", " ") or \
        re.search(r"<b>3</b>daily sections archived", text)
    for session in built.sessions:
        assert session in shown
    assert re.search(r"agent:main:main</td><td class=\"num\">11</td><td class=\"num\">52%</td>"
                     r"<td class=\"num\">88%</td><td class=\"num\">1</td>", text)
    assert "not clean" in shown and "never run" not in shown
    assert re.search(r"<td>store</td>(<td class=\"num\">\d+</td>)+", text)  # gate decisions counted


def test_health_says_never_run_when_nothing_was_recorded(ws, run_script):
    (ws / "memory").mkdir()
    (ws / "memory" / "memory-manager.json").write_text('{"language": "en"}\n', encoding="utf-8")
    result = run_script("memory", "report", "-w", ws, env=ENV)
    assert result.code == 0, result.err
    text = (ws / "memory" / ".cache" / "report.html").read_text(encoding="utf-8")
    shown = Page(text).all_text
    assert shown.count("never run") == 3  # audit, cleanup, gate
    assert "No knowledge entries yet." in shown and "no notes (30 days)" in shown


def test_approved_writes_t2_text_only_to_the_named_file_outside_memory(copy, tmp_path, run_script, built):
    (copy / "memory" / ".cache" / "report.html").unlink(missing_ok=True)
    before = tree_hash(copy / "memory" / "tier2-internal")
    out = tmp_path / "private" / "report.html"
    result = run_script("memory", "report", "-w", copy, "--approved", "--html", out, "--json", env=ENV)
    assert result.code == 0, result.err
    text = out.read_text(encoding="utf-8")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    for plain in built.t2_texts:
        assert html.escape(plain) in text
    assert json.loads(result.out)["counts"]["t2_shown"] == 3
    assert not (copy / "memory" / ".cache" / "report.html").exists()
    assert tree_hash(copy / "memory" / "tier2-internal") == before
    assert external_loads(text) == []


@pytest.mark.parametrize("args", [["--approved"], ["--approved", "--html", "memory/x.html"],
                                  ["--approved", "--html", "memory/.cache/r.html"]])
def test_approved_refuses_the_cache_and_anything_in_memory(copy, run_script, args):
    args = [str(copy / a) if a.startswith("memory/") else a for a in args]
    before = tree_hash(copy)
    result = run_script("memory", "report", "-w", copy, *args, env=ENV)
    assert result.code == 2
    assert result.err.startswith("error: --approved puts T2 content in the page")
    assert tree_hash(copy) == before


def test_days_narrows_the_timeline(copy, run_script, built):
    result = run_script("memory", "report", "-w", copy, "--days", "3", "--json", env=ENV)
    assert result.code == 0, result.err
    text = Path(json.loads(result.out)["path"]).read_text(encoding="utf-8")
    text = text[text.index('<section id="timeline">'):text.index('<section id="knowledge">')]
    shown = Page(text).all_text
    since = (reportws.TODAY - timedelta(days=2)).isoformat()
    recent = {t for t, d in built.topics if d >= since}
    older = {t for t, d in built.topics if d < since} - recent
    assert recent and older and all(t in shown for t in recent)
    assert not any(t in shown for t in older)
    assert text.count('<details class="ours" data-id=') == len([t for t, d in built.topics if d >= since])
    assert run_script("memory", "report", "-w", copy, "--days", "0", env=ENV).code == 2


def test_page_follows_the_configured_language(copy, run_script):
    (copy / "memory" / "memory-manager.json").write_text('{"language": "zh"}\n', encoding="utf-8")
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    text = (copy / "memory" / ".cache" / "report.html").read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in text
    shown = Page(text).all_text
    for word in ("记忆报告", "时间线", "知识库", "上下文用量", "健康状况"):
        assert word in shown
    assert '<span class="label cause">因</span>' in text and "Timeline" not in shown


def test_forget_deletes_the_cached_report(copy, run_script):
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    cached = copy / "memory" / ".cache" / "report.html"
    assert cached.exists()
    from memory_manager.entries import knowledge_id

    result = run_script("memory", "forget", knowledge_id("report-format"), "--approved", "-w", copy, "--json",
                        env=ENV)
    assert result.code == 0, result.err
    assert json.loads(result.out)["report_deleted"] is True
    assert not cached.exists()


def test_cleanup_purge_deletes_the_cached_report(copy, run_script, monkeypatch):
    from memory_manager import crypto, tiers
    from memory_manager.config import load_config

    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    cached = copy / "memory" / ".cache" / "report.html"
    cfg = load_config(copy)
    monkeypatch.setenv("MEMORY_MANAGER_NOW", NOW)
    token = "ghp_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"  # certain: purged (a possible finding is quarantined)
    sealed = crypto.encrypt(f"Deploy with {token}", "crm", "2026-11", cfg, "xor-b64")
    tiers.t2_path(copy, "crm", "contact").write_text(
        tiers.render_t2("crm", "contact", sealed, date(2026, 11, 28), 30, "2026-11", "en"), encoding="utf-8")
    result = run_script("cleanup", "-w", copy, "--json", env=ENV)
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert doc["deleted"] == 1 and not cached.exists()
    assert {"step": "purge", "path": "memory/.cache/report.html", "detail": "cached HTML report deleted"} \
        in doc["actions"]


def test_forget_deletes_an_unchanged_html_report_outside_and_names_a_changed_one(copy, tmp_path, run_script):
    """Round 6 (issue 10): a report written with --html outside the workspace kept the text of an
    entry forgotten later. Each --html report is recorded (path, SHA-256) in memory/.state; forget
    deletes the one still as written that holds the entry, leaves the one the user changed since
    (byte for byte) and names it in a warning, and keeps a report that does not hold the entry."""
    from memory_manager.entries import knowledge_id

    kept, changed, other = tmp_path / "out" / "kept.html", tmp_path / "out" / "changed.html", tmp_path / "other.html"
    for target in (kept, changed):
        assert run_script("memory", "report", "-w", copy, "--html", target, env=ENV).code == 0
    record = copy / "memory" / ".state" / "reports.json"
    doc = json.loads(record.read_text(encoding="utf-8"))
    assert doc["format"] == "cmm-report-record" and doc["version"] == 2
    assert [r["path"] for r in doc["reports"]] == [str(kept), str(changed)]
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    assert "Weekly reports go out on Friday afternoon." in kept.read_text(encoding="utf-8")
    with open(changed, "a", encoding="utf-8") as fh:
        fh.write("<!-- my own notes -->\n")
    edited = changed.read_bytes()
    other.write_text("Weekly reports go out on Friday afternoon.\n", encoding="utf-8")  # not a report: never touched
    result = run_script("memory", "forget", knowledge_id("report-format"), "--approved", "-w", copy, "--json",
                        env=ENV)
    assert result.code == 0, result.err
    erased = json.loads(result.out)["erased"]
    assert erased["reports_deleted"] == [str(kept)] and erased["reports_changed"] == [str(changed)]
    assert not kept.exists() and changed.read_bytes() == edited
    assert other.read_text(encoding="utf-8") == "Weekly reports go out on Friday afternoon.\n"
    assert f"warning: {changed}: a report written with --html and changed since" in result.err
    assert [r["path"] for r in json.loads(record.read_text(encoding="utf-8"))["reports"]] == [str(changed)]
    # A report that does not hold the next forgotten entry stays, and so does its record.
    assert run_script("memory", "report", "-w", copy, "--html", kept, env=ENV).code == 0
    first = kept.read_bytes()
    plain = run_script("memory", "learn", "zzz-later", "--text", "a note written after the report", "-w", copy,
                       env=ENV)
    assert plain.code == 0, plain.err
    again = run_script("memory", "forget", "zzz-later", "--approved", "-w", copy, "--json", env=ENV)
    assert again.code == 0, again.err
    assert json.loads(again.out)["erased"]["reports_deleted"] == [] and kept.read_bytes() == first


def test_forget_of_a_t2_entry_deletes_the_approved_html_report_that_showed_it(copy, tmp_path, run_script,
                                                                              monkeypatch):
    """A report written with --approved --html shows T2 text (decrypted into the page the user
    named): forgetting one of those entries deletes that page. A cleanup purge (an entry with a
    certain finding, which no report shows) leaves a report that does not hold it, and its record."""
    from memory_manager import crypto, tiers
    from memory_manager.config import load_config

    out = tmp_path / "private" / "report.html"
    assert run_script("memory", "report", "-w", copy, "--approved", "--html", out, env=ENV).code == 0
    assert "prefers green tea after lunch, PLAINTEXT-TEA-7" in out.read_text(encoding="utf-8")
    ident = next(e.id for e in tiers.iter_t2_entries(copy) if (e.skill, e.topic) == ("notes", "prefs"))
    result = run_script("memory", "forget", ident, "--approved", "-w", copy, "--json", env=ENV)
    assert result.code == 0, result.err
    assert json.loads(result.out)["erased"]["reports_deleted"] == [str(out)] and not out.exists()
    assert json.loads((copy / "memory/.state/reports.json").read_text(encoding="utf-8"))["reports"] == []

    assert run_script("memory", "report", "-w", copy, "--html", out, env=ENV).code == 0
    page = out.read_bytes()
    cfg = load_config(copy)
    monkeypatch.setenv("MEMORY_MANAGER_NOW", NOW)
    token = "ghp_" + "k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0Es3Ua7Gf"
    sealed = crypto.encrypt(f"Deploy with {token}", "crm", "2026-11", cfg, "xor-b64")
    tiers.t2_path(copy, "crm", "contact").write_text(
        tiers.render_t2("crm", "contact", sealed, date(2026, 11, 28), 30, "2026-11", "en"), encoding="utf-8")
    cleaned = run_script("cleanup", "-w", copy, "--json", env=ENV)
    assert cleaned.code == 0, cleaned.err
    doc = json.loads(cleaned.out)
    assert doc["deleted"] == 1 and doc["erased"]["reports"] == 0 and out.read_bytes() == page
    assert [r["path"] for r in json.loads((copy / "memory/.state/reports.json").read_text(encoding="utf-8"))
            ["reports"]] == [str(out)]


def test_bad_html_target_is_a_usage_error(copy, run_script):
    result = run_script("memory", "report", "-w", copy, "--html", copy, env=ENV)
    assert result.code == 2 and "is a directory" in result.err


def test_not_set_up_folder_is_refused_and_left_alone(ws, run_script):
    (ws / "notes.md").write_text("x\n", encoding="utf-8")
    result = run_script("memory", "report", "-w", ws, env=ENV)
    assert result.code == 2 and "not set up" in result.err
    assert sorted(p.name for p in ws.iterdir()) == ["notes.md"]


def _hide_extra(tmp_path: Path) -> dict[str, str]:
    """An environment in which Jinja2 and matplotlib cannot be imported (as if not installed)."""
    site = tmp_path / "hide"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import sys\nsys.modules['jinja2'] = None\n"
                                           "sys.modules['matplotlib'] = None\n", encoding="utf-8")
    return {**ENV, "PYTHONPATH": str(site)}


def test_without_the_extra_report_exits_1_with_the_install_command(copy, tmp_path, run_script):
    env = _hide_extra(tmp_path)
    (copy / "memory" / ".cache" / "report.html").unlink(missing_ok=True)
    result = run_script("memory", "report", "-w", copy, env=env)
    assert result.code == 1
    line = result.err.strip()
    assert line.startswith("error: the report needs Jinja2, matplotlib; install with: ")
    assert line.endswith("-r " + str(ROOT / "requirements-report.txt"))
    assert not (copy / "memory" / ".cache" / "report.html").exists()
    result = run_script("memory", "report", "-w", copy, "--json", env=env)
    assert result.code == 1 and json.loads(result.out)["kind"] == "missing_dependencies"


def test_the_rest_of_the_bundle_does_not_need_the_extra(copy, tmp_path, run_script):
    env = _hide_extra(tmp_path)
    assert run_script("memory", "status", "-w", copy, env=env).code == 0
    assert run_script("memory", "recall", "deploy", "-w", copy, "--no-track", env=env).code == 0
    assert run_script("doctor", "--help", env=env).code == 0
    from memory_manager import deps

    assert "Jinja2" not in deps.MODULES.values() and "matplotlib" not in deps.MODULES.values()
    assert "report" not in (ROOT / "requirements.txt").read_text(encoding="utf-8").lower()


@pytest.mark.parametrize("parallel", [False, True])
def test_masking_in_one_pass_equals_masking_each_text(monkeypatch, parallel):
    """The report masks all its texts joined (and, when large, half in a forked child):
    the result must be exactly recall's mask of each text on its own."""
    from memory_manager import privacy, report

    monkeypatch.setattr(report, "PARALLEL_CHARS", 0 if parallel else 10**12)
    key = reportws.fakes.fake("OPENAI_KEY", seed=31)
    texts = ["Deploy pipeline", f"set the key {key} today", "line one\nline two with 13800138000 in it", "",
             "飞书机器人", "ghp token: " + reportws.fakes.fake("GITHUB_PAT", seed=32) + "\nnext line", "Deploy pipeline"]
    m = report._Masker()
    slots = [m.add(t) for t in texts]
    m.run(meanwhile=lambda: None)
    assert [str(s) for s in slots] == [privacy.mask(t) for t in texts]
    assert key not in str(slots[1]) and "[secret]" in str(slots[1])
    assert slots[0] is slots[-1]  # a repeated text is masked once
    assert html.escape(str(slots[2])) == slots[2].__html__()


def test_masking_survives_a_child_that_took_chunks_and_failed(monkeypatch):
    """Issue 15, round 10: the two processes take chunks of the texts from a pipe (work stealing).
    A child that took chunks and then failed leaves them to this process: the mask is the same."""
    from memory_manager import forked, privacy, report

    monkeypatch.setattr(report, "PARALLEL_CHARS", 0)

    def takes_every_chunk_then_fails(work, accept=None):
        work()  # what a child does: it takes chunks from the pipe (here all of them) ...
        return lambda: None  # ... and its answer never comes

    monkeypatch.setattr(forked, "in_child", takes_every_chunk_then_fails)
    texts = [f"line {n} with 13800138000 in it" if n % 7 == 0 else f"plain text {n}" for n in range(300)]
    m = report._Masker()
    slots = [m.add(t) for t in texts]
    m.run()
    assert [str(s) for s in slots] == [privacy.mask(t) for t in texts]
    assert "13800138000" not in str(slots[0])
    chunks = report._chunks(texts, report.CHUNKS)
    assert chunks[0][0] == 0 and chunks[-1][1] == len(texts) and len(chunks) <= report.CHUNKS
    assert all(a[1] == b[0] for a, b in zip(chunks, chunks[1:]))


def test_joined_parts_are_masked_together_and_read_before_the_run():
    """A daily section's topic and items are masked as one text (add_joined): a card number cut
    over two items is masked in both; a part read before the run (the charts' labels) is
    masked then, with the same result."""
    from memory_manager import privacy, report

    parts = ["Card trouble", "my card number is 4111 1111 1111", "1111", "call the bank\nat noon"]
    m = report._Masker()
    early = m.add("Deploy pipeline")
    slots = m.add_joined(parts)
    twin = m.add_joined(["Card trouble\nmy card number is 4111 1111 1111", "1111\ncall the bank", "at noon"])
    assert str(early) == privacy.mask("Deploy pipeline")  # before the run
    m.run()
    whole = privacy.mask("\n".join(parts)).split("\n")
    assert [str(s) for s in slots] == [whole[0], whole[1], whole[2], "\n".join(whole[3:])]
    assert "4111" not in str(slots[1]) and "[payment_card]" in str(slots[2])
    assert [str(s) for s in twin] == ["\n".join(whole[:2]), "\n".join(whole[2:4]), whole[4]]
    assert slots[3].__html__() == html.escape(str(slots[3]))
    assert str(early) == privacy.mask("Deploy pipeline")


def test_a_card_number_cut_over_two_items_of_a_daily_section_is_masked_in_the_page(copy, run_script):
    """Round 10: each item of a daily section was masked by itself, so a number cut over two
    items showed its first part; the section is now masked as its lines read together."""
    from memory_manager.entries import render_daily_section

    day = reportws.TODAY.isoformat()
    note = copy / "memory" / "daily" / f"{day}.md"
    section = render_daily_section(day, "Card trouble", [("cause", "my card number is 4111 1111 1111"),
                                                         ("change", "1111")], "en")
    with note.open("a", encoding="utf-8") as handle:
        handle.write("\n" + section + "\n")
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    text = (copy / "memory" / ".cache" / "report.html").read_text(encoding="utf-8")
    assert "Card trouble" in text
    assert "4111 1111 1111" not in text
    assert text.count("[payment_card]") >= 2


def _leaves(items, flags):
    """``(op, argument, flags)`` of every single-character node and AT code of a parsed
    regular expression (lookarounds included), with the flags in force there."""
    import re._constants as c

    for op, av in items:
        if op in (c.LITERAL, c.NOT_LITERAL, c.ANY, c.IN, c.AT):
            yield op, av, flags
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            yield from _leaves(av[2], flags)
        elif op is c.SUBPATTERN:  # (group, flags added, flags removed, body): "(?s:...)"
            yield from _leaves(av[3], (flags | av[1]) & ~av[2])
        elif op is c.BRANCH:
            for branch in av[1]:
                yield from _leaves(branch, flags)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            yield from _leaves(av[1], flags)
        elif op is c.ATOMIC_GROUP:
            yield from _leaves(av, flags)
        elif op is c.GROUPREF_EXISTS:
            yield from _leaves(av[1], flags)
            if av[2] is not None:
                yield from _leaves(av[2], flags)
        else:
            assert op in (c.GROUPREF, c.GROUPREF_IGNORE), f"node {op} not looked at"


def line_bound(pattern: re.Pattern) -> list:
    """The nodes of ``pattern`` that accept a line break or anchor at the start or end of the whole text."""
    import re._compiler
    import re._constants as c
    import re._parser

    parsed = re._parser.parse(pattern.pattern, pattern.flags)
    bad = []
    for op, av, flags in _leaves(parsed.data, parsed.state.flags):
        if op is c.AT:
            if av in (c.AT_BEGINNING_STRING, c.AT_END_STRING) or (
                    not flags & re.M and av in (c.AT_BEGINNING, c.AT_END)):
                bad.append((op, av))
        elif re._compiler.compile(re._parser.SubPattern(parsed.state, [(op, av)]), flags).fullmatch("\n"):
            bad.append((op, av))
    return bad


def test_the_line_break_check_itself():
    for pattern in (r"a[^x]b", r"a\sb", r"^foo", r"\Afoo", r"foo\Z", r"a(?s:.)b", r"(?s)a.b", r"[^\S]", "a\nb",
                    r"(?m:^foo)$"):
        assert line_bound(re.compile(pattern)), pattern
    for pattern in (r"(?m)^foo$", r"a.b", r"a[^\n]b", r"[ \t]+\S", r"(?<![A-Za-z])x(?!\d)", r"(?m:^f)(?m:o$)"):
        assert not line_bound(re.compile(pattern)), pattern


def test_no_rule_of_the_detector_can_match_a_line_break():
    """What the report's mask of joined texts rests on (report._Masker): no pattern of the
    detector holds a character, class or wildcard that accepts a line break, and none is
    anchored at the start or end of the whole text, so a text's matches end at its own lines."""
    from memory_manager import privacy

    patterns = [(rule.name, rule.pattern) for rule in privacy.RULES_LIST] + [("topic keywords", privacy._TOPIC_EN_PATTERN)]
    assert len(patterns) > 150
    assert [(name, line_bound(pattern)) for name, pattern in patterns if line_bound(pattern)] == []


def test_masking_texts_joined_equals_each_text_alone_beside_any_neighbour():
    """The separator of the joined mask keeps every check from reading the next text: each
    private line of the frozen corpora between neighbours made of the checks' context words
    (account and platform words, docs words, a PEM header, a placeholder) is masked exactly as
    recall masks it alone. With the old separator (64 spaces) a PEM header before a text
    starting with a placeholder was left unmasked; a separator shorter than the checks' 40
    characters of look-back turns phone numbers into bank accounts."""
    from test_privacy_scan_speedups import _lines

    from memory_manager import privacy, report

    cues = ("开户行 开户银行 户名 账号 账户 收款账户 account acct routing sort code iban 订单 单号 工单 QQ 微信 UID "
            "example sample test docs readme e.g. such as public 公钥 pubkey ----- key ssh host id no order invoice "
            "ticket mr. dr. 读 上 念 tel phone mobile 手机 电话 端口 port password 密码 my wife 家 住 地址 测试")
    neighbours = [cues, cues[::-1], "账号", "开户行", "example", "public -----", "tel", "mr.", "订单号", "123456",
                  "-----BEGIN RSA " + "PRIVATE KEY-----", "<your key here>"]  # built here: no key-shaped literal ships
    texts = []
    for i, line in enumerate(_lines()):
        texts += [neighbours[i % len(neighbours)], line, neighbours[(i * 7 + 3) % len(neighbours)]]
    alone = {text: privacy.mask(text) for text in set(texts)}
    assert sum(alone[t] != t for t in texts) > 500  # the corpora's private lines are masked
    joined = report._mask_joined(texts, report._Masker.SEP)
    assert [i for i, (text, got) in enumerate(zip(texts, joined)) if got != alone[text]] == []


def test_open_hands_the_file_to_the_browser(copy, tmp_path, run_script):
    """--open starts the user's browser (Python's webbrowser, which honours $BROWSER) on the file."""
    import sys

    seen = tmp_path / "opened.txt"
    opener = tmp_path / "browser.py"
    opener.write_text(f"import sys\nopen({str(seen)!r}, 'w').write(sys.argv[1])\n", encoding="utf-8")
    result = run_script("memory", "report", "-w", copy, "--open",
                        env={**ENV, "BROWSER": f"{sys.executable} {opener} %s"})
    assert result.code == 0, result.err
    assert seen.read_text(encoding="utf-8") == (copy / "memory" / ".cache" / "report.html").resolve().as_uri()


def test_markup_in_the_data_stays_text_in_the_page_and_the_charts(copy, run_script, monkeypatch):
    """A session key, topic or skill that looks like HTML is shown as text, never loaded."""
    from memory_manager import hookrun
    from memory_manager.config import load_config
    from memory_manager.context import Usage

    hostile = '<img src="https://evil.example/x.png"><script>alert(1)</script>'
    monkeypatch.setenv("MEMORY_MANAGER_NOW", NOW)
    hookrun.record_usage(copy, "message:sent", Usage(agent="main", session_key=hostile, used=5000, window=20000,
                                                     source="entry"), load_config(copy))
    note = copy / "memory" / "daily" / "2026-11-30.md"
    note.write_text(note.read_text(encoding="utf-8") + f"\n## [2026-11-30] {hostile}\n- Change: x\n", encoding="utf-8")
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    text = (copy / "memory" / ".cache" / "report.html").read_text(encoding="utf-8")
    assert external_loads(text) == []
    assert "evil.example" in text and hostile not in text
    assert html.escape(hostile) in text  # the table and the timeline, escaped
    # A session key is stored as a keyed label since issue 10 round 4 (its identifiers hashed), so
    # the usage chart's legend shows that label, never the markup.
    label = hookrun.read_usage(copy)[-1]["session"]
    assert "<" not in label and label.startswith("#")
    assert html.escape(label, quote=False) in text.split('<section id="usage">')[1].split("</svg>")[0]


def test_an_existing_file_that_is_not_a_report_is_kept_unless_overwrite(copy, tmp_path, run_script):
    """The report never replaces a file it did not write: exit 2, the file unchanged; a previous
    report (its generator <meta>) is replaced, and --overwrite replaces any file outside the workspace."""
    mine = tmp_path / "notes.html"
    mine.write_text("<p>my own page</p>\n", encoding="utf-8")
    result = run_script("memory", "report", "-w", copy, "--html", mine, env=ENV)
    assert result.code == 2
    assert result.err.startswith(f"error: --html {mine}: the file exists and is not a report of ours")
    assert mine.read_text(encoding="utf-8") == "<p>my own page</p>\n"
    assert run_script("memory", "report", "-w", copy, "--html", mine, "--overwrite", env=ENV).code == 0
    assert '<meta name="generator" content="complex-memory-manager report ' in mine.read_text(encoding="utf-8")
    mine.write_text(mine.read_text(encoding="utf-8") + "<!-- older -->", encoding="utf-8")
    assert run_script("memory", "report", "-w", copy, "--html", mine, env=ENV).code == 0  # ours: replaced
    assert "<!-- older -->" not in mine.read_text(encoding="utf-8")


@pytest.mark.parametrize("target", ["AGENTS.md", "notes.html", "memory/daily/new.html"])
def test_nothing_inside_the_workspace_outside_the_cache_even_with_overwrite(copy, run_script, target):
    before = tree_hash(copy)
    result = run_script("memory", "report", "-w", copy, "--html", copy / target, "--overwrite", env=ENV)
    assert result.code == 2
    assert "inside the workspace" in result.err
    assert tree_hash(copy) == before


def test_approved_refuses_any_file_inside_the_workspace(copy, run_script):
    before = tree_hash(copy)
    result = run_script("memory", "report", "-w", copy, "--approved", "--html", copy / "page.html", env=ENV)
    assert result.code == 2
    assert result.err.startswith("error: --approved puts T2 content in the page: --html must be outside the workspace")
    assert tree_hash(copy) == before


def test_without_a_cjk_font_the_zh_charts_use_english_words(copy, tmp_path):
    """No installed font with Chinese glyphs (simulated): the charts' words are English, no glyph warning."""
    import subprocess
    import sys

    (copy / "memory" / "memory-manager.json").write_text('{"language": "zh"}\n', encoding="utf-8")
    code = ("import runpy, sys; from memory_manager import report_render as r; r._FONT[:] = [None]; "
            f"sys.argv = ['memory.py', 'report', '-w', {str(copy)!r}]; "
            f"runpy.run_path({str(ROOT / 'scripts' / 'memory.py')!r}, run_name='__main__')")
    env = {**os.environ, **ENV, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "scripts")])}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "missing from font" not in proc.stderr
    text = (copy / "memory" / ".cache" / "report.html").read_text(encoding="utf-8")
    svgs = "".join(re.findall(r"<svg\b.*?</svg>", text, re.S))
    assert '<html lang="zh-CN">' in text and svgs
    assert ">entries<" in svgs and "条目" not in svgs


def _cache_doc(ws: Path) -> dict:
    return json.loads((ws / "memory" / ".cache" / "mask-cache.json").read_text(encoding="utf-8"))


def test_mask_cache_gives_the_same_page_holds_only_masked_text_and_no_t2(copy, run_script, built, tmp_path):
    """A second report reads masked text from memory/.cache/mask-cache.json: same page, byte for byte."""
    from memory_manager import report

    cache = copy / "memory" / ".cache" / "mask-cache.json"
    page = copy / "memory" / ".cache" / "report.html"
    cache.unlink(missing_ok=True)
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    first = page.read_bytes()
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    doc = _cache_doc(copy)
    assert doc["format"] == "cmm-mask-cache" and doc["version"] == 1
    assert doc["detector"] == report.detector_fingerprint()
    raw = cache.read_text(encoding="utf-8")
    for token in (built.daily_token, built.openclaw_token):
        assert token and token not in raw  # the planted tokens only in masked form
    masked = [v for v in doc["texts"].values() if v is not None]
    assert any("[secret]" in v for v in masked)
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    assert page.read_bytes() == first
    # With --approved the T2 plaintext reaches the named page, never the cache.
    out = tmp_path / "private" / "report.html"
    assert run_script("memory", "report", "-w", copy, "--approved", "--html", out, env=ENV).code == 0
    raw = cache.read_text(encoding="utf-8")
    for plain in built.t2_texts:
        assert plain in out.read_text(encoding="utf-8") and plain not in raw
        assert report.MaskCache.digest(plain) not in _cache_doc(copy)["texts"]


def test_mask_cache_is_used_only_when_written_by_the_same_detector(copy, run_script, built):
    """A cached entry is shown as cached (the proof that it is used); another detector's cache is ignored."""
    from memory_manager import report

    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    doc = _cache_doc(copy)
    # A knowledge key is masked (and cached) by itself; a daily topic is masked with its
    # section's items since round 10, as one text.
    key = report.MaskCache.digest(built.knowledge_keys[0])
    assert key in doc["texts"] and doc["texts"][key] is None  # nothing to mask in it
    cache = copy / "memory" / ".cache" / "mask-cache.json"
    page = copy / "memory" / ".cache" / "report.html"
    doc["texts"][key] = "CACHED-FORM"
    cache.write_text(json.dumps(doc), encoding="utf-8")
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    assert "CACHED-FORM" in page.read_text(encoding="utf-8")
    doc["detector"] = "0" * 64  # written by another version of the rules
    cache.write_text(json.dumps(doc), encoding="utf-8")
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    assert "CACHED-FORM" not in page.read_text(encoding="utf-8")
    assert _cache_doc(copy)["detector"] == report.detector_fingerprint()
    assert _cache_doc(copy)["texts"][key] is None
    cache.write_text("{not json", encoding="utf-8")  # damaged: rebuilt, the report still works
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    assert _cache_doc(copy)["texts"][key] is None


def test_forget_deletes_the_mask_cache(copy, run_script):
    assert run_script("memory", "report", "-w", copy, env=ENV).code == 0
    cache = copy / "memory" / ".cache" / "mask-cache.json"
    assert cache.exists()
    from memory_manager.entries import knowledge_id

    assert run_script("memory", "forget", knowledge_id("report-format"), "--approved", "-w", copy, env=ENV).code == 0
    assert not cache.exists()


def test_forget_deletes_an_html_report_that_shows_only_the_start_of_a_long_entry(copy, tmp_path, run_script):
    """tatk7 (round 6): the page cuts a long knowledge body at 2,000 characters, so a one-line entry
    longer than that was not found in the page by its line, and its report outlived forget. The page
    carries each entry's id (data-id), and a long line is also looked for by its first 64 characters."""
    line = "Runbook: " + " ".join(f"step{i:03d}" for i in range(400))
    assert len(line) > 3000
    made = run_script("memory", "learn", "long-runbook", "--text", line, "-w", copy, "--json", env=ENV)
    assert made.code == 0, made.err
    ident = json.loads(made.out)["id"]
    by_id, by_start = tmp_path / "by-id.html", tmp_path / "by-start.html"
    assert run_script("memory", "report", "-w", copy, "--html", by_id, env=ENV).code == 0
    page = by_id.read_text(encoding="utf-8")
    assert f'data-id="{ident}"' in page and line[:1990] in page and line not in page
    # The same page without the id attributes (as an older version wrote it): found by the line's start.
    stripped = re.sub(r' data-id="[^"]*"', "", page)
    assert run_script("memory", "report", "-w", copy, "--html", by_start, env=ENV).code == 0
    by_start.write_text(stripped, encoding="utf-8")
    record = copy / "memory/.state/reports.json"
    doc = json.loads(record.read_text(encoding="utf-8"))
    from memory_manager.fsio import sha256_bytes

    doc["reports"] = [dict(r, sha256=sha256_bytes(stripped.encode("utf-8"))) if r["path"] == str(by_start) else r
                      for r in doc["reports"]]
    record.write_text(json.dumps(doc), encoding="utf-8")
    result = run_script("memory", "forget", ident, "--approved", "-w", copy, "--json", env=ENV)
    assert result.code == 0, result.err
    assert sorted(json.loads(result.out)["erased"]["reports_deleted"]) == sorted([str(by_id), str(by_start)])
    assert not by_id.exists() and not by_start.exists()


def test_report_record_drops_gone_reports_and_refuses_past_its_bound(copy, tmp_path, run_script, monkeypatch):
    """tatk7 (round 6): only the 200 newest reports were recorded, and the 201st pushed the first out
    unsaid; round 7 raised the bound to 1,000 and named the report pushed out, which forget still
    could not delete. Round 9: records of reports that are gone are dropped first; a report that
    still exists is never dropped, and past the bound a new report is refused before it is written."""
    from memory_manager import report
    from memory_manager.errors import FileWriteError

    first, second, third = (tmp_path / f"r{i}.html" for i in (1, 2, 3))
    for target in (first, second):
        assert run_script("memory", "report", "-w", copy, "--html", target, env=ENV).code == 0
    second.unlink()
    monkeypatch.setattr(report, "RECORD_LIMIT", 2)
    data = first.read_bytes()
    assert report.record_written(copy, third, data) == []  # the gone one went first
    assert [r["path"] for r in report.written_reports(copy)] == [str(first), str(third)]
    third.write_bytes(data)
    fourth = tmp_path / "r4.html"
    with pytest.raises(FileWriteError, match="2 reports written with --html still exist"):
        report.record_written(copy, fourth, data)
    assert [r["path"] for r in report.written_reports(copy)] == [str(first), str(third)]
    # Writing over a recorded report replaces its record: there is room for that.
    assert report.record_written(copy, third, data) == []
    assert [r["path"] for r in report.written_reports(copy)] == [str(first), str(third)]


def test_a_report_past_the_record_bound_is_not_written(copy, tmp_path, run_script):
    """Variant through the script: with RECORD_LIMIT (here 1, via a record of one live report) the
    next --html report exits 1, says why, and writes no page (forget could not find it)."""
    from memory_manager import report

    first = tmp_path / "a.html"
    assert run_script("memory", "report", "-w", copy, "--html", first, env=ENV).code == 0
    record = copy / "memory/.state/reports.json"
    doc = json.loads(record.read_text(encoding="utf-8"))
    # RECORD_LIMIT live reports: the first, recorded RECORD_LIMIT times under other names that exist.
    doc["reports"] = [dict(doc["reports"][0], path=str(tmp_path / f"live-{n}.html")) for n in range(report.RECORD_LIMIT)]
    for r in doc["reports"]:
        Path(r["path"]).write_bytes(first.read_bytes())
    record.write_text(json.dumps(doc), encoding="utf-8")
    target = tmp_path / "b.html"
    r = run_script("memory", "report", "-w", copy, "--html", target, env=ENV)
    assert r.code == 1, r.out
    assert f"{report.RECORD_LIMIT} reports written with --html still exist" in r.err and "nothing was written" in r.err
    assert not target.exists()
    # A report over one already recorded has room: it replaces its record.
    assert run_script("memory", "report", "-w", copy, "--html", tmp_path / "live-0.html", env=ENV).code == 0


def test_charts_drawn_by_a_child_give_the_same_page_as_charts_drawn_in_line(copy, monkeypatch):
    """Issue 15 (round 7): a forked child draws the charts while the template is filled with a
    stand-in for each. The page is byte for byte the one drawn in line, and a child that fails
    (no fork, killed) costs time only: the charts are drawn in the process then."""
    from memory_manager import forked, report, report_render
    from memory_manager.workspace import Workspace

    monkeypatch.setenv("MEMORY_MANAGER_NOW", NOW)
    model = report.collect(Workspace(copy), days=30)
    with_child = report_render.render(model)
    monkeypatch.setattr(forked, "in_child", lambda *_a, **_k: (lambda: None))
    in_line = report_render.render(model)
    assert with_child == in_line
    assert "cmm-chart" not in in_line
    assert in_line.count('<div class="chart"><svg') >= 3  # timeline, T1 and usage charts of the sample

    # Round 9: the chart child started before the memory is gathered (it imports matplotlib meanwhile)
    # gives the same page; one that dies before it answers costs time only.
    started = report_render.start_charts()
    assert started is not None
    assert report_render.render(model, started) == in_line
    dead = report_render.start_charts()
    os.kill(dead._pid, signal.SIGKILL)
    assert report_render.render(model, dead) == in_line
    dead.cancel()


def test_a_page_drafted_while_the_text_is_masked_is_the_page_filled_after(built, copy, monkeypatch):
    """Issue 15 (round 11): the template is filled while a child masks the text, with a stand-in
    for each masked text (``_Masker.drafting``), which the masked, escaped text replaces afterwards.
    The page is byte for byte the one filled after the masking; a draft whose stand-ins do not
    check out (a NUL character in some other value of the page, one out of order) is filled
    again, never trusted."""
    from memory_manager import report, report_render
    from memory_manager.workspace import Workspace

    monkeypatch.setenv("MEMORY_MANAGER_NOW", NOW)
    monkeypatch.setattr(report, "PARALLEL_CHARS", 0)  # a masking child, as for a large workspace
    pages = report_render.Pages(None)
    model = report.collect(Workspace(copy), days=30, meanwhile=pages.meanwhile, gathered=pages.gathered)
    assert pages.drafted is not None and "\x00" in pages.drafted[0]
    filled = model.masker.fill(*pages.drafted)
    assert filled is not None and "\x00" not in filled
    page = pages.render(model)
    assert page == report_render.render(model)
    assert built.daily_token not in page and "[secret]" in page
    # Without a masking child (little text, or all of it in the mask cache) nothing is drafted.
    monkeypatch.setattr(report, "PARALLEL_CHARS", 10**12)
    alone = report_render.Pages(None)
    again = report.collect(Workspace(copy), days=30, meanwhile=alone.meanwhile, gathered=alone.gathered)
    assert alone.drafted is None and alone.render(again) == page
    # A stand-in out of order is refused.
    text, slots = pages.drafted
    assert model.masker.fill(text.replace("\x000\x00", "\x001\x00", 1), slots) is None
    # A NUL in a value that is not masked text (here the workspace's name) breaks the count: filled again.
    model.workspace = "ws\x00name"
    drafted = report_render.draft(model)
    assert model.masker.fill(*drafted) is None
    assert report_render.render(model, drafted=drafted) == report_render.render(model)
