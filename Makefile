# The two commands a new machine needs: `make run` and `make test`.
GO        ?= go
ADDR      ?= :8080
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec

.PHONY: run test wasm vet unit wasm-test e2e bench clean

## run: build the wasm and serve http://localhost:8080/agent-analysis
run: wasm
	$(GO) run ./server/cmd/agent-analysis -addr $(ADDR)

## test: vet, unit tests natively and under wasm, browser tests
test: vet unit wasm-test

## wasm: build the browser app into web/app.wasm
wasm:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o web/app.wasm ./wasm

vet:
	test -z "$$(gofmt -l .)" || (gofmt -l . && false)
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./app/... ./wasm/...

unit:
	$(GO) test ./...

# Pure packages also run as wasm under Node, as they do in the browser.
wasm-test:
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" ./app/... ./fixtures/...

clean:
	rm -f web/app.wasm web/app.wasm.gz web/app.wasm.br
