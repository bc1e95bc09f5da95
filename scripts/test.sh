#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what the tests need (Jupyter,
# Chromium, npm packages: scripts/install-test-deps.sh), then the static
# checks (scripts/lint.sh: go.mod tidy, go vet, staticcheck) and the
# tests (the race detector everywhere but plots, whose drawing is
# single-threaded and ten times slower under it, and the Beam runner's
# module beam/, whose concurrency is Beam's own: Prism and the SDK
# harness), then the Dockerfile's check (scripts/docker-check.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/go/bin
bash scripts/install-test-deps.sh
bash scripts/lint.sh
go test -count=1 -timeout 30m ./plots/...
(cd beam && go test -count=1 -timeout 10m ./...)   # the Beam runner's own module (beam/go.mod)
# a goroutine of an earlier cell running beside the next cell: yaegi's own
# state is not synchronised there, so this one runs without -race
go test -count=1 -timeout 5m -run 'TestGoroutinePanicAfterItsCell' ./kernel/gointerp
# the same for an interrupted cell abandoned beside the next one
go test -count=1 -timeout 5m -run 'TestInterruptDeadlockAbandoned' ./kernel
go test -race -count=1 -timeout 45m $(go list ./... | grep -v -e /plots)
# the Dockerfile's steps, without a Docker engine (needs root and debootstrap)
if [ "$(id -u)" = 0 ] && command -v debootstrap >/dev/null; then
  bash scripts/docker-check.sh
elif [ -n "${CI:-}" ]; then
  echo "scripts/docker-check.sh needs root and debootstrap (scripts/install-test-deps.sh installs it)" >&2
  exit 1
else
  echo "scripts/docker-check.sh not run: it needs root and debootstrap" >&2
fi
