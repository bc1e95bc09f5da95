# nsysx developer commands. `make test` is the test command CI runs.
GO ?= go
BENCH_FILE ?= /tmp/train50.sqlite

.PHONY: build test deps bench bench-data sample gallery

build:
	$(GO) build -o bin/nsysx ./cmd/nsysx

# The whole test suite, under the race detector (plots without it: drawing is
# single-threaded and ten times slower with it). Tests that need Jupyter,
# Chromium or Node packages skip with a message unless CI is set; `make deps`
# installs them.
test:
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 30m ./plots/...
	$(GO) test -race -count=1 -timeout 45m $$($(GO) list ./... | grep -v /plots)

deps:
	bash scripts/install-test-deps.sh

gallery:
	$(GO) run ./plots/cmd/gallery

sample: build
	./bin/nsysx stats --sample

# Benchmark profile: train tiled 50 times (280 000 kernels, 2.72 M NVTX ranges).
bench-data:
	test -f $(BENCH_FILE) || (gunzip -c testdata/profiles/train.sqlite.gz > /tmp/nsysx-train.sqlite && python3 tools/nsys-tile.py /tmp/nsysx-train.sqlite $(BENCH_FILE) 50)

bench: build bench-data
	NSYSX_BENCH_FILE=$(BENCH_FILE) $(GO) test -run XXX -bench . -benchtime 3x ./nsysx/
	bash scripts/bench.sh $(BENCH_FILE)
