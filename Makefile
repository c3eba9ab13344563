# Two commands set everything up on a fresh machine with Go installed:
#   make up    - build and serve the sandbox on http://127.0.0.1:8080
#   make test  - vet and run every test with the race detector
GO      ?= go
ADDR    ?= 127.0.0.1:8080
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

FUZZTIME ?= 4s
# Fuzz targets run briefly by `make test` (package:target); crashers they
# find are saved under testdata/fuzz and then run as regression tests.
FUZZ := \
	./sandbox/api:FuzzDecodeJSON \
	./sandbox/api:FuzzQuery \
	./sandbox/seed:FuzzFixtureFiles

.PHONY: up test fuzz build lint schemas bench clean

up:
	$(GO) run -ldflags "$(LDFLAGS)" ./cmd/sandbox up --headless --addr $(ADDR)

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...
	$(MAKE) --no-print-directory fuzz

fuzz:
	@for t in $(FUZZ); do pkg=$${t%%:*}; name=$${t##*:}; \
	  echo "fuzz $$name ($$pkg, $(FUZZTIME))"; \
	  $(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; done

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/sandbox ./cmd/sandbox

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# Regenerate schemas/ from the reference (needs ../shared/reference/api.json).
schemas:
	$(GO) run ./cmd/schemagen -reference ../shared/reference/api.json -out schemas

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
