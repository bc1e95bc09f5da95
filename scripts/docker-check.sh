#!/usr/bin/env bash
# Checks the Dockerfile's steps without a Docker engine (none runs here):
# the build stage's command on the context the .dockerignore leaves, then the
# runtime stage's RUN/COPY/USER steps in a clean Debian bookworm root made
# with debootstrap, then the image's CMD (`nsysx stats --sample`: the
# sample's reports) and the Notebook server (`scripts/notebooks.sh`, landing
# on the course's file list) as the unprivileged user, and one notebook
# executed there with the nsysx kernel. The build stage's module downloads
# are those of `go build ./cmd/nsysx` alone: it checks that no Beam module
# is among them.
# Usage (as root): bash scripts/docker-check.sh [ROOTFS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-/tmp/nsysx-dockroot}
ctx=$(mktemp -d)
# the build context, as .dockerignore filters it
tar --exclude-vcs $(sed -n 's|^\([^#].*\)$|--exclude=./\1|p' .dockerignore | sed 's|/$||; s|\*\*/||') -cf - . | tar -C "$ctx" -xf -
(cd "$ctx" && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "$ctx/out/nsysx" ./cmd/nsysx)
if (cd "$ctx" && go list -deps -f '{{with .Module}}{{.Path}}{{end}}' ./cmd/nsysx | grep -q apache/beam); then
  echo "the nsysx binary's build needs Beam modules" >&2
  exit 1
fi
[ -d "$root/usr" ] || debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc" 2>/dev/null || true
trap 'umount "$root/proc" 2>/dev/null || true; rm -rf "$ctx"' EXIT
run() { chroot "$root" /bin/sh -c "$1"; }
run "apt-get update -qq && apt-get install -y -qq --no-install-recommends jupyter-notebook jupyter-nbconvert python3-nbconvert python3-nbclient curl >/dev/null && rm -rf /var/lib/apt/lists/*"
cp "$ctx/out/nsysx" "$root/usr/local/bin/nsysx"
run "nsysx kernel install --sys-prefix && (id nsysx >/dev/null 2>&1 || useradd --create-home --uid 1000 --shell /bin/bash nsysx)"
mkdir -p "$root/home/nsysx/nsysx/testdata"
rm -rf "$root/home/nsysx/nsysx/notebooks" "$root/home/nsysx/nsysx/testdata/profiles" "$root/home/nsysx/nsysx/testdata/workloads" "$root/home/nsysx/nsysx/scripts"
cp -r "$ctx/notebooks" "$root/home/nsysx/nsysx/notebooks"
cp -r "$ctx/testdata/profiles" "$root/home/nsysx/nsysx/testdata/profiles"
cp -r "$ctx/testdata/workloads" "$root/home/nsysx/nsysx/testdata/workloads"
mkdir -p "$root/home/nsysx/nsysx/scripts" && cp "$ctx/scripts/notebooks.sh" "$root/home/nsysx/nsysx/scripts/notebooks.sh"
run "chown -R nsysx:nsysx /home/nsysx/nsysx"
echo "== the image's CMD (docker run --rm nsysx), as user nsysx"
run "cd /home/nsysx/nsysx && su nsysx -c 'nsysx stats --sample'" >/tmp/sample.txt
grep -q 'CUDA GPU Kernel Summary (cuda_gpu_kern_sum)' /tmp/sample.txt || { echo "the CMD did not print the sample's reports"; cat /tmp/sample.txt; exit 1; }
echo "== the Notebook server (scripts/notebooks.sh --ip=0.0.0.0), as user nsysx"
run "cd /home/nsysx/nsysx && su nsysx -c 'scripts/notebooks.sh --ip=0.0.0.0 --port=8899 --NotebookApp.token=check >/tmp/nb.log 2>&1 &'"
for i in $(seq 1 30); do run "curl -sf 'http://127.0.0.1:8899/api/kernelspecs?token=check'" >/tmp/kspecs.json 2>/dev/null && break; sleep 1; done
grep -o '"nsysx"' /tmp/kspecs.json | head -1 || { echo "kernel nsysx not served"; cat "$root/tmp/nb.log"; exit 1; }
code=$(run "curl -s -L -o /tmp/landing.html -w '%{http_code} %{url_effective}' 'http://127.0.0.1:8899/?token=check'")
echo "GET / (the landing page): $code"
case "$code" in 200\ */tree*) ;; *) echo "the landing page does not open"; exit 1 ;; esac
pkill -f -- '--port=8899' || true  # the chroot shares our process table
echo "== a notebook executed in the image with the nsysx kernel, as user nsysx"
run "cd /home/nsysx/nsysx/notebooks && su nsysx -c 'jupyter nbconvert --to html --execute --ExecutePreprocessor.kernel_name=nsysx --output-dir /tmp/out 00_introduction.ipynb' && ls -la /tmp/out"
echo "docker-check: OK"
