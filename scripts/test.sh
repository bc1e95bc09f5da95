#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what the tests need (Jupyter,
# Chromium, npm packages: scripts/install-test-deps.sh), then vet and the
# tests (the race detector everywhere but plots, whose drawing is
# single-threaded and ten times slower under it).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/go/bin
bash scripts/install-test-deps.sh
go vet ./...
go test -count=1 -timeout 30m ./plots/...
go test -race -count=1 -timeout 45m $(go list ./... | grep -v /plots)
