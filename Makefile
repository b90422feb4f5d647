# The two commands a new machine needs: `make run` and `make test`.
GO        ?= go
ADDR      ?= :8080
CHROMIUM  ?= /usr/bin/chromium
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
PACKAGES   = $(shell $(GO) list ./... | grep -v /e2e)

.PHONY: run test wasm vet lint unit fuzz wasm-test e2e chromium axe bench bench-peer conformance interop docs-screens clean

## run: build the wasm and the server, and serve http://localhost:8080/agent-analysis
## (the binary itself, not go run, so that Ctrl-C shuts it down cleanly). The wasm's
## brotli file is written in the background, off the way to the first page: until it
## is, the server sends the wasm gzipped, and then brotli (see make wasm).
run:
	@echo "make run: building the browser client, web/app.wasm"
	@GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o web/app.wasm ./wasm
	@echo "make run: building the server and the compressor, bin/agent-analysis and bin/compress"
	@$(GO) build -o bin/agent-analysis ./server/cmd/agent-analysis
	@$(GO) build -o bin/compress ./server/cmd/compress
	@echo "make run: compressing web/app.wasm with brotli (quality $(BROTLI_QUALITY)) in the background; meanwhile the wasm goes out gzipped"
	@bin/compress -q $(BROTLI_QUALITY) web/app.wasm & compressing=$$!; \
	  ./bin/agent-analysis serve -addr $(ADDR) $(FLAGS); served=$$?; \
	  kill $$compressing 2>/dev/null; wait $$compressing 2>/dev/null; exit $$served

## test: gofmt, vet, staticcheck, unit tests natively and under wasm, a brief fuzz, browser tests
test: vet lint unit fuzz wasm-test e2e

## wasm: build the browser app into web/app.wasm and app.wasm.br, and the inspector's page into
## web/inspector.wasm and its .br (brotli, by a Go encoder, so a
## bare machine has it too; the server gzips in memory for browsers without brotli).
## Quality 11 is 12 % smaller than 9 and takes some 30 s, once per new wasm; BROTLI_QUALITY=9
## takes 2 s.
BROTLI_QUALITY ?= 11
wasm:
	@echo "make wasm: building the browser client, web/app.wasm, and the inspector's page, web/inspector.wasm"
	@GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o web/app.wasm ./wasm
	@GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o web/inspector.wasm ./wasm/inspector
	@echo "make wasm: compressing both with brotli (quality $(BROTLI_QUALITY))"
	@$(GO) run ./server/cmd/compress -q $(BROTLI_QUALITY) web/app.wasm
	@$(GO) run ./server/cmd/compress -q $(BROTLI_QUALITY) web/inspector.wasm

vet:
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt needed"; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./agui/... ./app/... ./kit/inspect/page/... ./wasm/...
	@# Everything, tests included, compiles on macOS and Windows too: go test -short works there.
	GOOS=darwin $(GO) vet ./...
	GOOS=windows $(GO) vet ./...
	@# The core stays pure: no net/http, syscall/js or go-app reaches it (the
	@# standard library's own syscall/js use under GOOS=js aside).
	@! $(GO) list -deps ./app/core | grep -E '^(net/http|syscall/js)$$|go-app'
	@! GOOS=js GOARCH=wasm $(GO) list -f '{{if not .Standard}}{{.ImportPath}}: {{join .Imports " "}}{{end}}' -deps ./app/core | grep -E 'net/http|syscall/js|go-app'
	@! GOOS=js GOARCH=wasm $(GO) list -deps ./app/core | grep -xE 'net/http'

## lint: staticcheck, pinned in go.mod as a tool, natively and for the browser build (the
## tool itself built for this machine: go tool -n names it without running it)
lint:
	$(GO) tool staticcheck ./...
	GOOS=js GOARCH=wasm "$$($(GO) tool -n staticcheck)" ./agui/... ./app/... ./kit/inspect/page/... ./wasm/...

unit:
	$(GO) test $(PACKAGES)

## fuzz: briefly, the readers of what agents and users hand the kit: the SSE and binary
## stream readers, the engine's one-pass JSON reading and split of an event into its
## members and of a list into its items, scripts, run inputs, answer files;
## CONTRIBUTING.md says how to run one longer.
## A count, not a duration: Go 1.26's fuzzer can fail a run whose -fuzztime deadline lands
## while a worker is busy (golang/go#75804, "context deadline exceeded", no input found)
FUZZTIME ?= 100000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzReader$$' -fuzztime $(FUZZTIME) ./agui/sse
	$(GO) test -run '^$$' -fuzz '^FuzzReaderInChunks$$' -fuzztime $(FUZZTIME) ./agui/sse
	$(GO) test -run '^$$' -fuzz '^FuzzReader$$' -fuzztime $(FUZZTIME) ./agui/proto
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./agui/proto
	$(GO) test -run '^$$' -fuzz '^FuzzMembers$$' -fuzztime $(FUZZTIME) ./agui/internal/jsonscan
	$(GO) test -run '^$$' -fuzz '^FuzzElements$$' -fuzztime $(FUZZTIME) ./agui/internal/jsonscan
	$(GO) test -run '^$$' -fuzz '^FuzzObject$$' -fuzztime $(FUZZTIME) ./agui/internal/jsonscan
	$(GO) test -run '^$$' -fuzz '^FuzzValid$$' -fuzztime $(FUZZTIME) ./agui/internal/jsonscan
	$(GO) test -run '^$$' -fuzz '^FuzzBuild$$' -fuzztime $(FUZZTIME) ./agui/jsonpatch
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./kit/script
	$(GO) test -run '^$$' -fuzz '^FuzzNewInput$$' -fuzztime $(FUZZTIME) ./kit/agent
	$(GO) test -run '^$$' -fuzz '^FuzzReadAnswers$$' -fuzztime $(FUZZTIME) ./kit/agent

# The pure packages also run as wasm under Node.
wasm-test:
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" ./agui/... ./app/... ./fixtures/... ./kit/script/... ./kit/inspect/page/...

## e2e: browser tests in headless Chromium (builds its own wasm and server;
## installs axe-core, pinned by e2e/axe/package-lock.json, with npm)
e2e: chromium axe
	CHROMIUM=$(CHROMIUM) $(GO) test -count=1 -timeout 10m ./e2e/...

# Debian's chromium, installed when missing and we are root.
chromium:
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	  else \
	    echo "Chromium is missing: install Debian's chromium (sudo apt-get install -y chromium) or set CHROMIUM=/path/to/chromium" >&2; exit 1; \
	  fi; }

# axe-core for the accessibility test, reinstalled when the lock file changes.
AXE = e2e/axe/node_modules/axe-core/axe.min.js
axe: $(AXE)
$(AXE): e2e/axe/package-lock.json
	cd e2e/axe && npm ci --silent --no-audit --no-fund
	@touch $@

## bench: one table of the server, client, engine, wasm size and browser figures;
## CORPUS=dir replays another corpus (the AG-UI conformance streams, say) in the engine row
BENCH = bin/bench
CORPUS ?=
bench: wasm chromium
	@mkdir -p $(BENCH)
	$(GO) test -run '^$$' -bench NormalStream -benchmem ./server/ > $(BENCH)/server.txt
	$(GO) test -run '^$$' -bench 'HeldSlowStreams|HealthzUnderStalledBodies' -benchtime 1x ./server/ >> $(BENCH)/server.txt
	$(GO) test -run '^$$' -bench 'UpdateDelta|Patch64' -benchmem ./app/core/ > $(BENCH)/app.txt
	@# Twice under Node: the first pass also warms up V8's optimising tiers; the table reads the last.
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" -run '^$$' -bench 'UpdateDelta|Patch64' -benchmem -count 2 ./app/core/ > $(BENCH)/app-wasm.txt
	AGUI_CORPUS=$(CORPUS) $(GO) test -run '^$$' -bench CorpusReplay -benchmem ./kit/check/ > $(BENCH)/check.txt
	$(GO) test -run '^$$' -bench 'Decode|ReadJSON' -benchmem ./agui/proto/ > $(BENCH)/codec.txt
	$(GO) run ./bench/proxy > $(BENCH)/proxy.txt
	cd e2e/peer && npm ci --silent --no-audit --no-fund
	BROTLI_QUALITY=$(BROTLI_QUALITY) CHROMIUM=$(CHROMIUM) $(GO) test -count=1 -run '^$$' -bench 'Browser|Rendering|PhoneStartup' -benchtime 1x -timeout 30m ./e2e/ > $(BENCH)/browser.txt || { cat $(BENCH)/browser.txt; exit 1; }
	@# The inspector's two budgets; over either, it fails make bench.
	BROTLI_QUALITY=$(BROTLI_QUALITY) CHROMIUM=$(CHROMIUM) $(GO) test -count=1 -run '^$$' -bench 'Inspector' -benchtime 1x -timeout 10m ./e2e/ > $(BENCH)/inspector.txt || { cat $(BENCH)/inspector.txt; exit 1; }
	@cat $(BENCH)/inspector.txt >> $(BENCH)/browser.txt
	@echo
	@$(GO) run ./bench/table -wasm web/app.wasm $(BENCH)/server.txt $(BENCH)/app.txt $(BENCH)/app-wasm.txt $(BENCH)/browser.txt $(BENCH)/check.txt $(BENCH)/proxy.txt $(BENCH)/codec.txt

## docs-screens: the inspector's pictures in docs/images, taken by the browser suite
docs-screens: chromium axe
	E2E_DOCS=1 CHROMIUM=$(CHROMIUM) $(GO) test -count=1 -run '^TestInspectorScreens$$' ./e2e/

## bench-peer: server CPU per stream against the Node + @ag-ui/encoder stack, side by side, and
## at Go's default collector pace against serve's own;
## then the server straight and through agent-analysis proxy (needs Node and npm; not part of make test)
bench-peer:
	$(GO) run ./bench/peer
	@echo
	$(GO) run ./bench/proxy

## conformance: every scenario and fault against the official @ag-ui/client 1.0, as a table;
## then bench/conformance/streams/ (corpus-shaped files, served with -fixtures) against each file's
## expected outcome, failing on a difference; then every script again, straight and through
## agent-analysis proxy, failing if the client sees any difference; then agui/proto against
## @ag-ui/proto and @ag-ui/encoder 1.0.0, both ways; last every script over SSE and over the
## binary transport, the client ending the same and @ag-ui/proto decoding every frame to the
## SSE stream's event (needs Node and npm; not part of make test)
conformance:
	$(GO) build -o bin/agent-analysis ./server/cmd/agent-analysis
	cd bench/conformance && npm ci --silent
	node bench/conformance/run.mjs 2>/dev/null
	node bench/conformance/corpus.mjs
	node bench/conformance/proxy.mjs
	node bench/conformance/proto.mjs
	node bench/conformance/binary.mjs

## interop: the kit against real third-party AG-UI agents (interop/agents/*, each a Node
## server with a mock model: no API key), each case's verdict against interop/cases.md;
## each agent's npm ci first, again when its lock file changes; no install scripts run
## (needs Node and npm; not part of make test)
INTEROP_AGENTS = $(patsubst %/package-lock.json,%/node_modules/.installed,$(wildcard interop/agents/*/package-lock.json))
interop: $(INTEROP_AGENTS)
	$(GO) build -o bin/agent-analysis ./server/cmd/agent-analysis
	$(GO) run ./interop/run
interop/agents/%/node_modules/.installed: interop/agents/%/package-lock.json
	cd interop/agents/$* && npm ci --silent --no-audit --no-fund --ignore-scripts
	@touch $@

clean:
	rm -f web/app.wasm web/app.wasm.br web/inspector.wasm web/inspector.wasm.br
	rm -rf e2e/artifacts bin e2e/axe/node_modules interop/agents/*/node_modules
