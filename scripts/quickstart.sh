#!/usr/bin/env bash
# The main job, from a fresh clone on Debian with Go: install the Jupyter
# packages, build nsysx, install its kernel, execute the workshop's
# introduction notebook on the profile built into nsysx and write it as HTML.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/go/bin
. scripts/apt.sh
apt_install jupyter-notebook jupyter-nbconvert python3-nbconvert python3-nbclient
go build -o bin/nsysx ./cmd/nsysx
bin/nsysx kernel install --user
jupyter nbconvert --to html --execute --ExecutePreprocessor.kernel_name=nsysx --ExecutePreprocessor.timeout=300 \
  --output-dir notebooks/html notebooks/00_introduction.ipynb
out=$PWD/notebooks/html/00_introduction.html
echo
echo "The introduction, executed: $out"
echo "Open it in a browser (file://$out), or work in the notebooks yourself:"
echo "  make notebooks    # starts the Notebook server on notebooks/ (then open the URL it prints)"
