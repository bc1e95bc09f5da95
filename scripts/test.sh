#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what the tests need (Jupyter,
# Chromium, npm packages: scripts/install-test-deps.sh), then the static
# checks (scripts/lint.sh: go.mod tidy, go vet, staticcheck) and the
# tests (the race detector everywhere but plots, whose drawing is
# single-threaded and ten times slower under it, and the Beam runner, whose
# concurrency is Beam's own: Prism and the SDK harness).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/go/bin
bash scripts/install-test-deps.sh
bash scripts/lint.sh
go test -count=1 -timeout 30m ./plots/...
go test -count=1 -timeout 10m ./cmd/nsysx-beam ./nsysx/recipe/beamrecipe
# a goroutine of an earlier cell running beside the next cell: yaegi's own
# state is not synchronised there, so this one runs without -race
go test -count=1 -timeout 5m -run 'TestGoroutinePanicAfterItsCell' ./kernel/gointerp
# the same for an interrupted cell abandoned beside the next one
go test -count=1 -timeout 5m -run 'TestInterruptDeadlockAbandoned' ./kernel
go test -race -count=1 -timeout 45m $(go list ./... | grep -v -e /plots -e /cmd/nsysx-beam -e /nsysx/recipe/beamrecipe)
