#!/usr/bin/env bash
# Installs everything the tests need (Python packages, npm packages, Debian packages) and runs the
# whole test suite. Services the tests need (Azurite, the local stand-ins) are started and stopped
# by the tests themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -d .venv ] || "$PY" -m venv .venv
. .venv/bin/activate
pip install -q --disable-pip-version-check -e '.[test]'
ruff check .
exec python -m pytest -q -p no:cacheprovider "$@"
