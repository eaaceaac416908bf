# mcpcli — the README's two commands are `make demo` and `make test`.
GO        ?= go
BIN       := bin/mcpcli
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)

.PHONY: build test demo lint bench conformance clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/mcpcli

# Every test: unit, loop, CLI (testscript), TUI in tmux, URL mode in Chromium.
test: lint
	$(GO) test -count=1 ./...

# The tour: the demo server as a child over stdio, every kind of elicitation.
demo: build
	./$(BIN) demo

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
