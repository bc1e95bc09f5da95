#!/usr/bin/env bash
# Installs what the full test suite needs on a Debian machine (run as root):
# Jupyter's Debian packages (jupyter_client, console, nbconvert, nbclient,
# jupyter_kernel_test, the classic Notebook), Chromium for the browser check,
# and the npm packages used to open our Arrow/Parquet/Vega-Lite outputs.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v apt-get >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq python3-jupyter-kernel-test python3-jupyter-client jupyter-client jupyter-console jupyter-nbconvert jupyter-notebook \
    python3-nbconvert python3-nbclient python3-notebook chromium >/dev/null
fi
for d in tools/npm-check tools/vega-check; do
  if [ -f "$d/package.json" ]; then
    (cd "$d" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done
go mod download
