#!/usr/bin/env bash
# Checks the Dockerfile's steps without a Docker engine (none runs here):
# the build stage's command on the context the .dockerignore leaves, then the
# runtime stage's RUN/COPY/USER steps in a clean Debian bookworm root made
# with debootstrap, then the image's CMD (the Notebook server) as the
# unprivileged user, and one notebook executed there with the nsysx kernel.
# Usage (as root): bash scripts/docker-check.sh [ROOTFS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-/tmp/nsysx-dockroot}
ctx=$(mktemp -d)
# the build context, as .dockerignore filters it
tar --exclude-vcs $(sed -n 's|^\([^#].*\)$|--exclude=./\1|p' .dockerignore | sed 's|/$||; s|\*\*/||') -cf - . | tar -C "$ctx" -xf -
(cd "$ctx" && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "$ctx/out/nsysx" ./cmd/nsysx)
[ -d "$root/usr" ] || debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc" 2>/dev/null || true
trap 'umount "$root/proc" 2>/dev/null || true; rm -rf "$ctx"' EXIT
run() { chroot "$root" /bin/sh -c "$1"; }
run "apt-get update -qq && apt-get install -y -qq --no-install-recommends jupyter-notebook jupyter-nbconvert python3-nbconvert python3-nbclient curl >/dev/null && rm -rf /var/lib/apt/lists/*"
cp "$ctx/out/nsysx" "$root/usr/local/bin/nsysx"
run "nsysx kernel install --sys-prefix && (id nsysx >/dev/null 2>&1 || useradd --create-home --uid 1000 --shell /bin/bash nsysx)"
mkdir -p "$root/home/nsysx/nsysx/testdata"
rm -rf "$root/home/nsysx/nsysx/notebooks" "$root/home/nsysx/nsysx/testdata/profiles" "$root/home/nsysx/nsysx/testdata/workloads"
cp -r "$ctx/notebooks" "$root/home/nsysx/nsysx/notebooks"
cp -r "$ctx/testdata/profiles" "$root/home/nsysx/nsysx/testdata/profiles"
cp -r "$ctx/testdata/workloads" "$root/home/nsysx/nsysx/testdata/workloads"
run "chown -R nsysx:nsysx /home/nsysx/nsysx"
echo "== the image's CMD, as user nsysx"
run "cd /home/nsysx/nsysx/notebooks && su nsysx -c 'jupyter notebook --ip=0.0.0.0 --port=8899 --no-browser --NotebookApp.token=check --NotebookApp.default_url=/tree/README.md >/tmp/nb.log 2>&1 &'"
for i in $(seq 1 30); do run "curl -sf 'http://127.0.0.1:8899/api/kernelspecs?token=check'" >/tmp/kspecs.json 2>/dev/null && break; sleep 1; done
grep -o '"nsysx"' /tmp/kspecs.json | head -1 || { echo "kernel nsysx not served"; cat "$root/tmp/nb.log"; exit 1; }
run "curl -sf -o /dev/null -w 'GET /tree/README.md: %{http_code}\n' 'http://127.0.0.1:8899/tree/README.md?token=check'"
pkill -f -- '--port=8899' || true  # the chroot shares our process table
echo "== a notebook executed in the image with the nsysx kernel, as user nsysx"
run "cd /home/nsysx/nsysx/notebooks && su nsysx -c 'jupyter nbconvert --to html --execute --ExecutePreprocessor.kernel_name=nsysx --output-dir /tmp/out 00_introduction.ipynb' && ls -la /tmp/out"
echo "docker-check: OK"
