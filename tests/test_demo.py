"""dev/demo.sh shows the loop and cleans up after itself (issue 14, item 6)."""
from __future__ import annotations

import os
import re
import subprocess

from conftest import ROOT


def test_demo_shows_the_loop(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    home = tmp_path / "realhome"  # stands for the user's real home: the demo must not write there
    home.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    proc = subprocess.run(["bash", str(ROOT / "dev" / "demo.sh")], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert re.search(r"^note d-\d{8}-[0-9a-f]{8} in memory/daily/\d{4}-\d{2}-\d{2}\.md$", out, re.M)
    assert re.search(r"^lesson in MEMORY.md \(lesson\): - \[\d{4}-\d{2}-\d{2}\] Run the full test suite before every "
                     r"deploy; roll back to the last release tag when a check fails\.$", out, re.M)
    zh, en = out.split("== 4. recall in Chinese")[1].split("recall in English")
    assert re.search(r"score \d\.\d\d  d-\d{8}-[0-9a-f]{8}  \[\d{4}-\d{2}-\d{2}\] 记忆系统升级", zh)
    assert re.search(r"score \d\.\d\d  h-[0-9a-f]{12}  经验", en)  # the lesson's MEMORY.md section
    assert re.search(r"exit 1, 1 finding\(s\): memory/daily/\S+\.md:\d+ secret \(openai_key\), shown as sk-p\*+", out)
    assert "agent:main:main: 85% (28,000 / 32,768 tokens, from event)" in out
    assert "🚨 上下文已用 85%（28,000/32,768 tokens）" in out
    assert list(tmp.iterdir()) == []  # its folder is gone
    assert list(home.iterdir()) == []  # no key (nor anything else) under the real home (walk-through r3, item 6)
