#!/usr/bin/env bash
# Set up a virtual environment with the dependencies (the report's optional extra
# included, so its tests run) and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "note: the headless-browser tests of the HTML report are deselected (Chromium not found);" \
       "enable them with: apt-get install chromium   (or CHROMIUM=/path/to/chromium)" >&2
fi
exec .venv/bin/python -m pytest -q "$@"
