#!/usr/bin/env python3
"""Make docs/report.png: the report of the sample workspace, as headless Chromium draws it.

Copies examples/sample-workspace to a temporary folder, adds a month of
memory with the package's own writers (tests/reportws.py: notes, knowledge,
T1/T2, usage records, an audit and a cleanup; the clock fixed to
2026-11-30), renders ``memory.py report`` and takes a full-width screenshot
of the top of the page with Debian's ``chromium`` (``CHROMIUM`` names
another binary). Needs the report extra and Pillow (a matplotlib
dependency) to crop the picture.

    .venv/bin/python dev/report_screenshot.py [--out docs/report.png] [--height 3400] [--days 7]
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "report.png")
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--height", type=int, default=3400)
    parser.add_argument("--days", type=int, default=7, help="timeline window (a week keeps the picture short)")
    args = parser.parse_args()
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not chromium:
        sys.stderr.write("error: Chromium not found; install it with: apt-get install chromium\n")
        return 1
    import reportws

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OPENCLAW_STATE_DIR"] = str(Path(tmp) / "state")  # never a real ~/.openclaw
        os.environ["HOME"] = str(Path(tmp) / "home")
        ws = Path(tmp) / "sample-workspace"
        shutil.copytree(ROOT / "examples" / "sample-workspace", ws)
        reportws.build(ws)
        env = {**os.environ, "MEMORY_MANAGER_NOW": reportws.NOW}
        subprocess.run([sys.executable, str(ROOT / "scripts" / "memory.py"), "report", "-w", str(ws),
                        "--days", str(args.days)], check=True, env=env)
        page = ws / "memory" / ".cache" / "report.html"
        shot = Path(tmp) / "shot.png"
        cmd = [chromium, "--headless", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={tmp}/profile",
               f"--window-size={args.width},{args.height}", f"--screenshot={shot}", page.as_uri()]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.insert(1, "--no-sandbox")
        subprocess.run(cmd, check=True, capture_output=True)
        from PIL import Image

        args.out.parent.mkdir(parents=True, exist_ok=True)
        with Image.open(shot) as image:
            image.convert("P", palette=Image.Palette.ADAPTIVE, colors=128).save(args.out, optimize=True)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
