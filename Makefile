# Two commands set everything up on a fresh machine with Go installed:
#   make up    - build and serve the sandbox on http://127.0.0.1:8080
#   make test  - vet and run every test with the race detector
GO      ?= go
ADDR    ?= 127.0.0.1:8080
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
# The systems the sandbox is built for (make cross, make dist).
TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
DIST    ?= dist

FUZZTIME ?= 4s
# Fuzz targets run briefly by `make test` (package:target); crashers they
# find are saved under testdata/fuzz and then run as regression tests.
FUZZ := \
	./sandbox/core/api:FuzzDecodeJSON \
	./sandbox/core/api:FuzzQuery \
	./sandbox/core/api:FuzzCheckQuery \
	./sandbox/core/api:FuzzEdges \
	./sandbox/shop/orders:FuzzEncode \
	./sandbox/app/seed:FuzzFixtureFiles \
	./sandbox/shop/webhooks:FuzzVerify \
	./sandbox/app/scenario:FuzzParse \
	./cmd/benchmark:FuzzReadResponse

.PHONY: up test fuzz build install lint cross dist schemas bench clean

up:
	$(GO) run -ldflags "$(LDFLAGS)" ./cmd/sandbox up --headless --addr $(ADDR)

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...
	$(MAKE) --no-print-directory fuzz

# Go 1.26's fuzz coordinator can fail a target with a bare "context deadline
# exceeded" at the -fuzztime boundary on a loaded machine (golang/go#75804,
# fixed in Go 1.27): no input failed and nothing is written to testdata/fuzz.
# Such a run is repeated once; any other failure, or a second one, fails.
fuzz:
	@for t in $(FUZZ); do pkg=$${t%%:*}; name=$${t##*:}; \
	  for try in 1 2; do \
	    echo "fuzz $$name ($$pkg, $(FUZZTIME))"; \
	    out=$$($(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg 2>&1); rc=$$?; echo "$$out"; \
	    [ $$rc -eq 0 ] && break; \
	    if [ $$try -eq 1 ] && echo "$$out" | grep -q 'context deadline exceeded' && \
	       ! echo "$$out" | grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:'; then \
	      echo "fuzz $$name: deadline race of the Go fuzz coordinator (golang/go#75804), no failing input; running it again"; continue; fi; \
	    exit 1; done; done

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/sandbox ./cmd/sandbox

# Install the sandbox command into $(go env GOBIN), else $(go env GOPATH)/bin,
# with its version stamped (sandbox version, the HAR creator, /_sandbox/).
install:
	$(GO) install -ldflags "$(LDFLAGS)" ./cmd/sandbox

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# go build for every system in TARGETS, and go vet once per operating
# system of them, so none stops building unnoticed (the tests themselves run
# on Linux only). The code's build constraints name operating systems only
# (unix, linux, windows), never an architecture, so a vet per architecture
# checked the same files again: it was most of CI's time on a fresh clone.
# One build cache serves them all, and make dist after it.
VET_OS := $(sort $(foreach t,$(TARGETS),$(firstword $(subst /, ,$(t)))))
cross:
	@set -e; for t in $(TARGETS); do echo "go build for $$t"; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/...; done
	@set -e; for os in $(VET_OS); do echo "go vet for $$os/amd64"; \
	  GOOS=$$os GOARCH=amd64 $(GO) vet ./...; done

# Release archives in $(DIST)/: sandbox_$(VERSION)_<os>_<arch>.tar.gz (.zip
# for Windows) per target, the version stamped, and SHA256SUMS
# (cmd/dist: nothing but Go needed).
dist:
	$(GO) run ./cmd/dist -version $(VERSION) -out $(DIST) $(TARGETS)

# Regenerate schemas/ from the reference (needs ../shared/reference/api.json).
schemas:
	$(GO) run ./cmd/schemagen -reference ../shared/reference/api.json -out schemas

# Go micro-benchmarks, then the end-to-end table (cmd/benchmark): the
# built-in scenarios through sandbox test one at a time and at the default
# --parallel (target: at most a quarter of the time), start-up, the read
# comparison (the product GET and the order list of 100 against bare
# net/http sending the same bytes, with the benchmark's own generator and
# with wrk -t2 -c8 for WRKTIME after a 1 s warm-up, when wrk is installed;
# `go run ./cmd/benchmark -sandbox bin/sandbox -reads-only` runs it alone),
# reads and writes at 1/8/64 connections against a bare net/http baseline,
# webhook latency, deep paging and RSS on a generated 100,000-product and
# 100,000-order set (2.5 GB of JSON in a temp folder: generating it takes
# under a minute, the sandbox on it peaks near 5 GiB; LARGE_N=25000 for a
# shorter run). The micro-benchmarks include BenchmarkGenerate25k, the
# generation of 25,000 products and orders. Everything runs on 127.0.0.1
# and stops by itself.
BENCHTIME ?= 2s
WRKTIME   ?= 5s
LARGE_N   ?= 100000
bench:
	$(GO) test -run '^$$' -bench . -benchtime 1s -benchmem ./...
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/sandbox ./cmd/sandbox
	$(GO) run ./cmd/benchmark -sandbox bin/sandbox -duration $(BENCHTIME) -wrk-duration $(WRKTIME) -large-n $(LARGE_N)

clean:
	rm -rf bin $(DIST)
