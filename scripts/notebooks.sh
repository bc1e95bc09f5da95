#!/usr/bin/env bash
# The classic Notebook server on notebooks/ (`make notebooks`, and the
# Docker image's `scripts/notebooks.sh --ip=0.0.0.0`), landing on the file
# list of the course (/tree: 00_introduction.ipynb ... in course order).
# Not /tree/README.md: the server redirects a Markdown file to /files/,
# which answers "403: Forbidden" (blocking request from unknown origin).
# As root (containers, CI) it passes --allow-root, without which the
# server refuses to start. Extra arguments go to `jupyter notebook`.
set -euo pipefail
cd "$(dirname "$0")/../notebooks"
args=(--no-browser --NotebookApp.default_url=/tree)
if [ "$(id -u)" = 0 ]; then
  args+=(--allow-root)
fi
exec jupyter notebook "${args[@]}" "$@"
