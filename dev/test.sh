#!/usr/bin/env bash
# Set up a virtual environment with the dependencies and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
exec .venv/bin/python -m pytest -q "$@"
