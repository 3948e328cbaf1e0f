#!/usr/bin/env bash
# Run Azurite (Azure Table/Blob/Queue Storage emulator) on loopback for local use of the Azure
# backends, and print the connection string to put in .env. Data is kept under DIR (default
# .rulebook/azurite) so events and history survive a restart.
#   scripts/azurite.sh [DIR]        # Ctrl-C stops it
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="$repo/.ci/node/node_modules/.bin/azurite"
if [ ! -x "$bin" ]; then
  bin="$(command -v azurite || true)"
fi
if [ -z "$bin" ]; then
  echo "azurite not found: run 'bash scripts/test.sh' once (it installs Node 24 and .ci/node)" >&2
  exit 1
fi
dir="${1:-$repo/.rulebook/azurite}"
mkdir -p "$dir"
key="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
conn="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$key;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;QueueEndpoint=http://127.0.0.1:10001/devstoreaccount1;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;"
echo "RULEBOOK_TABLES_CONNECTION_STRING=\"$conn\""
echo "RULEBOOK_BLOB_CONNECTION_STRING=\"$conn\""
exec "$bin" --location "$dir" --silent --skipApiVersionCheck --disableTelemetry \
  --blobHost 127.0.0.1 --queueHost 127.0.0.1 --tableHost 127.0.0.1
