"""A value cut by '/' across folders that exist (tfix17t, tatk17 kind 4; references/gate.md rule 0).

``names.refuse_private_path`` joins neighbouring parts across every part the user typed, existing
or new (certain findings only where a folder exists); it never judges the current folder a
relative path resolves against (the user did not type it).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory_manager.errors import BadInputError
from memory_manager.names import refuse_private_path

from .trust_r4_common import NOW, PHONE, TOKEN, _init


@pytest.mark.parametrize("cuts", [(10, 25), (22,), (4,)])
def test_a_token_cut_over_existing_folders_is_refused(tmp_path, cuts):
    pieces = [TOKEN[a:b] for a, b in zip((0, *cuts), (*cuts, None))]
    folder = tmp_path.joinpath("old", *pieces)
    folder.mkdir(parents=True)
    with pytest.raises(BadInputError) as err:
        refuse_private_path("--out", folder / "x.json")
    assert str(err.value) == ("--out: the path holds secret (a file or folder name is stored, so it must hold no "
                              "secret or personal data); name another file; nothing was written")


def test_a_token_cut_between_an_existing_folder_and_a_new_one_is_refused(tmp_path):
    (tmp_path / TOKEN[:15]).mkdir()
    with pytest.raises(BadInputError):
        refuse_private_path("--out", tmp_path / TOKEN[:15] / TOKEN[15:] / "x.json")


def test_a_relative_path_is_judged_by_what_was_typed(tmp_path, monkeypatch):
    # pytest's folder for a test named with "token" reads as "token <value>": not typed, not judged.
    here = tmp_path / "test_a_token_cut_across_exist0"
    here.mkdir()
    monkeypatch.chdir(here)
    refuse_private_path("--out", here.relative_to(here) / "x.json")
    (here / "sub").mkdir()
    refuse_private_path("--html", Path("sub/r.html"))
    # Typed in full, the same folder is read (a documented limit: a label and a value-like word).
    with pytest.raises(BadInputError):
        refuse_private_path("--out", here / "x.json")
    # What is typed is still read, joined: a token cut over typed relative folders.
    (here / TOKEN[:20] / TOKEN[20:]).mkdir(parents=True)
    with pytest.raises(BadInputError):
        refuse_private_path("--out", Path(TOKEN[:20]) / TOKEN[20:] / "x.json")


def test_ordinary_existing_folders_pass(tmp_path):
    # A phone number cut over existing folders is only a possible finding there (the user's own tree).
    a, b = PHONE.split("-", 1)
    folder = tmp_path / "projects" / "2026-12" / a / b
    folder.mkdir(parents=True)
    refuse_private_path("--out", folder / "x.json")
    refuse_private_path("--html", tmp_path / "projects" / "2026-12" / "report.html")


def test_report_html_with_a_relative_path_in_a_token_named_folder(ws, run_script, tmp_path):
    # The current folder is pytest's tmp folder (named after this test): a relative --html is written.
    from tests.conftest import ROOT

    _init(run_script)

    here = tmp_path / "token_k3Jd9Qx7Lm2Pz8Rt5Vb1Nc4Hy6Wq0"
    here.mkdir()
    assert run_script("memory", "report", "--html", here / "r.html", env=NOW).code != 0  # typed: read
    r = subprocess.run([sys.executable, str(ROOT / "scripts/memory.py"), "report", "--html", "r.html"], cwd=here,
                       capture_output=True, text=True, env={**os.environ, **NOW})
    assert r.returncode == 0, r.stderr
    assert (here / "r.html").is_file()
