#!/usr/bin/env bash
# Set up a virtual environment, copy the sample workspace to a temporary folder,
# run init on the copy, and show what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
work="$(mktemp -d)"
cp -R examples/sample-workspace "$work/before"
cp -R examples/sample-workspace "$work/workspace"
export OPENCLAW_STATE_DIR="$work/state"   # never touch a real ~/.openclaw
.venv/bin/python scripts/init.py --workspace "$work/workspace" --yes --lang en
echo
echo "== what changed (diff -ruN before workspace, backups left out)"
(cd "$work" && diff -ruN --exclude=.memory-backup before workspace) || true
echo
echo "workspace: $work/workspace   undo: .venv/bin/python scripts/init.py -w $work/workspace --restore"
