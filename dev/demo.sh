#!/usr/bin/env bash
# The memory loop in under a minute, on a copy of examples/sample-workspace in a temporary
# folder: init, a 因/改/待 note, a lesson, a Chinese and an English recall, the privacy audit
# catching a planted secret, and the status line at a given context usage.
# The folder is removed at the end; DEMO_KEEP=1 keeps it (its path is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! .venv/bin/python -c "import click, rich, yaml, cryptography, filelock" 2>/dev/null; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
fi
py=.venv/bin/python
work="$(mktemp -d)"
if [ "${DEMO_KEEP:-0}" = 1 ]; then
  trap 'echo; echo "demo folder kept: $work"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
cp -R examples/sample-workspace "$work/workspace"
# Never a real ~/.openclaw, and never a real ~/.config: the demo's AES key goes to its own HOME
# and XDG_CONFIG_HOME inside the temporary folder (a later real init must not find a demo key).
# No OpenClaw needed (hooks are left out: see README "End to end").
mkdir -p "$work/home/.config"
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
export OPENCLAW_STATE_DIR="$work/state" OPENCLAW_WORKSPACE_DIR="$work/workspace"
field() { "$py" -c 'import json, sys; d = json.load(sys.stdin); print(eval(sys.argv[1], {}, {"d": d}))' "$1"; }
say() { printf '\n== %s\n' "$*"; }

say "1. init (Chinese templates; backup first)"
"$py" scripts/init.py --yes --no-hooks --lang zh | grep -v '[│┃┏┗┡└]'

say "2. a daily note in the 因/改/待 form"
"$py" scripts/memory.py write --topic "记忆系统升级" --cause "旧索引太慢，找不到上周的决定" \
  --change "改用分层存储和每日索引" --todo "下周复查召回效果" --json | field '"note " + d["id"] + " in " + d["path"]'

say "3. a lesson (one line in MEMORY.md)"
"$py" scripts/memory.py lesson --json \
  "Run the full test suite before every deploy; roll back to the last release tag when a check fails." |
  field '"lesson in " + d["path"] + " (" + d["section"] + "): " + d["line"]'

show_hits='"\n".join("  score {score:.2f}  {id}  {heading}".format(**h) for h in d["hits"]) or "  (no hits)"'
say "4. recall in Chinese: 记忆系统 索引"
"$py" scripts/memory.py recall "记忆系统 索引" --no-track --json | field "$show_hits"
say "   recall in English: deploy rollback"
"$py" scripts/memory.py recall "deploy rollback" --no-track --json | field "$show_hits"

say "5. privacy audit with a planted secret"
# A made-up OpenAI-style key, generated now (no secret-looking literal in the repository).
secret="sk-proj-$("$py" -c 'import secrets; print(secrets.token_hex(24))')"
printf '\n- 改：临时密钥 %s 先放这里\n' "$secret" >> "$work/workspace/memory/daily/$(ls "$work/workspace/memory/daily" | head -1)"
set +e
"$py" scripts/privacy_audit.py --json > "$work/audit.json"
code=$?
set -e
field '"exit '"$code"', " + str(d["summary"]["findings"]) + " finding(s): " + ", ".join("{file}:{line} {category} ({rule}), shown as {excerpt}".format(**f) for f in d["findings"])' < "$work/audit.json"

say "6. the status line at 28,000 of 32,768 tokens"
echo '{"type": "command", "action": "new", "sessionKey": "agent:main:main",
       "context": {"previousSessionEntry": {"totalTokens": 28000, "totalTokensFresh": true,
                                            "totalTokensVersion": 1, "contextTokens": 32768}}}' |
  "$py" scripts/detect.py --stdin
