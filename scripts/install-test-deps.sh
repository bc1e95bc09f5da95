#!/usr/bin/env bash
# Installs what the full test suite needs on a Debian machine (as root or
# through sudo; packages already there are skipped): Jupyter's Debian
# packages (jupyter_client, console, nbconvert, nbclient, jupyter_kernel_test,
# the classic Notebook), Chromium for the browser check, debootstrap for
# scripts/docker-check.sh, Node and the npm
# packages used to open our Arrow/Parquet/Vega-Lite outputs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/apt.sh
apt_install python3-jupyter-kernel-test python3-jupyter-client jupyter-client jupyter-console jupyter-nbconvert \
  jupyter-notebook python3-nbconvert python3-nbclient python3-notebook chromium debootstrap
command -v npm >/dev/null || apt_install nodejs npm
for d in tools/npm-check tools/vega-check; do
  if [ -f "$d/package.json" ]; then
    (cd "$d" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done
go mod download
(cd beam && go mod download)   # the Beam runner's module
