#!/usr/bin/env bash
# The README's second command: installs everything the tests need (Python, npm and Debian
# packages) and runs the whole test suite. Services the tests need (Azurite, the local stand-ins
# for Bot Connector, Slack and an OpenAI-compatible model) are started and stopped by the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -d .venv ] || "$PY" -m venv .venv
. .venv/bin/activate
pip install -q --disable-pip-version-check -e '.[test]'

# Debian: Chromium renders the Teams Adaptive Card with Microsoft's own JS renderer.
if ! command -v chromium >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || echo "could not install chromium"
fi
# npm (pinned in .ci/node/package-lock.json): azurite 3.35 (the newest on Node 20),
# adaptivecards + playwright-core (card rendering), promptfoo (eval wiring).
stamp=.ci/node/node_modules/.lock-sha256
want=$(sha256sum .ci/node/package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  npm ci --prefix .ci/node --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi

ruff check .
exec python -m pytest -q -p no:cacheprovider "$@"
