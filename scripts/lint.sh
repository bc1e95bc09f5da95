#!/usr/bin/env bash
# The static checks of the test suite (scripts/test.sh runs them first):
# in both modules (the root and beam/), go.mod and go.sum are what `go mod
# tidy` would write, `go vet ./...` and staticcheck (pinned below, installed
# into $(go env GOPATH)/bin when that version is not there yet) report
# nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/go/bin
STATICCHECK_MODULE=v0.8.2 # staticcheck 2026.2.2
sc="$(go env GOPATH)/bin/staticcheck"
if ! "$sc" -version 2>/dev/null | grep -qF "(${STATICCHECK_MODULE#v})"; then
  go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_MODULE"
fi
# both modules: nsysx (the root) and the Beam runner's (beam/go.mod)
for m in . beam; do
  if ! (cd "$m" && go mod tidy -diff); then
    echo "$m/go.mod, go.sum are not tidy: run go mod tidy in $m" >&2
    exit 1
  fi
  (cd "$m" && go vet ./... && "$sc" ./...)
done
