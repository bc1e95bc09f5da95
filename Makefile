# nsysx developer commands. `make test` is the test command CI runs.
GO ?= go
BENCH_FILE ?= /tmp/train50.sqlite

.PHONY: build beam test lint deps bench bench-data bench-nsys sample gallery intro notebooks

build:
	$(GO) build -o bin/nsysx ./cmd/nsysx

# The Beam runner, a module of its own (beam/go.mod): writes bin/nsysx-beam.
beam:
	cd beam && $(GO) build -o ../bin/nsysx-beam ./cmd/nsysx-beam

# The whole test suite (scripts/test.sh: installs the test tools, then the
# static checks of `make lint` and the tests under the race detector). CI
# runs the same script.
test:
	bash scripts/test.sh

# go.mod/go.sum tidy, go vet and staticcheck (pinned; scripts/lint.sh).
lint:
	bash scripts/lint.sh

# The main job: set up Jupyter, build, install the kernel, execute the
# workshop introduction to notebooks/html/ (scripts/quickstart.sh).
intro:
	bash scripts/quickstart.sh

# The classic Notebook server on the notebooks (after `make intro`), landing
# on the course's file list; as root too (scripts/notebooks.sh). More
# server options: make notebooks NOTEBOOK_ARGS='--port=9999'
notebooks:
	bash scripts/notebooks.sh $(NOTEBOOK_ARGS)

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
	NSYSX_BENCH_FILE=$(BENCH_FILE) $(GO) test -run XXX -bench . -benchtime 3x ./nsysx/ ./nsysx/internal/sqlite/
	bash scripts/bench.sh $(BENCH_FILE)

# Every stats report and analyze rule against nsys, side by side on train tiled
# 50 times, pinned to two cores and on all cores (scripts/bench-nsys.sh; its
# header lists the knobs): make bench-nsys NSYS=/path/to/nsys
bench-nsys: build
	@test -n "$(NSYS)" || (echo "usage: make bench-nsys NSYS=/path/to/nsys" >&2; exit 2)
	bash scripts/bench-nsys.sh $(NSYS) ./bin/nsysx
