//go:build js

package effects_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"syscall/js"
	"testing"
)

// serve installs a fetch that answers from h and returns a URL for it.
// Under Node there is no network for Go to listen on, so this fake stands
// in for the server while the stream's fetch code runs for real: a
// ReadableStream body fed as the handler flushes, 7 bytes a chunk (for
// the first 3.5 KiB of each write) to split frames and characters, and an AbortSignal that ends the handler's
// request context as a disconnect would.
func serve(t *testing.T, h http.Handler) string {
	global := js.Global()
	previous := global.Get("fetch")
	fetch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		url, init := args[0].String(), args[1]
		var executor js.Func
		executor = js.FuncOf(func(_ js.Value, p []js.Value) any {
			executor.Release()
			go respond(h, url, init, p[0])
			return nil
		})
		return global.Get("Promise").New(executor)
	})
	global.Set("fetch", fetch)
	t.Cleanup(func() {
		global.Set("fetch", previous)
		fetch.Release()
	})
	return "http://fake.test"
}

// respond runs the handler for one fetch call and resolves it.
func respond(h http.Handler, url string, init, resolve js.Value) {
	ctx, disconnect := context.WithCancel(context.Background())
	defer disconnect()
	req, _ := http.NewRequestWithContext(ctx, init.Get("method").String(), url, strings.NewReader(init.Get("body").String()))
	headers := init.Get("headers")
	keys := js.Global().Get("Object").Call("keys", headers)
	for i := range keys.Length() {
		k := keys.Index(i).String()
		req.Header.Set(k, headers.Get(k).String())
	}

	w := &fetchWriter{header: http.Header{}, resolve: resolve}
	var start, onAbort js.Func
	start = js.FuncOf(func(_ js.Value, a []js.Value) any {
		w.controller = a[0]
		return nil
	})
	defer start.Release()
	w.stream = js.Global().Get("ReadableStream").New(map[string]any{"start": start})
	onAbort = js.FuncOf(func(js.Value, []js.Value) any {
		disconnect()
		w.end(js.Global().Get("DOMException").New("The operation was aborted.", "AbortError"))
		return nil
	})
	signal := init.Get("signal")
	signal.Call("addEventListener", "abort", onAbort)
	defer func() {
		signal.Call("removeEventListener", "abort", onAbort)
		onAbort.Release()
	}()

	h.ServeHTTP(w, req)
	w.end(js.Null())
}

// fetchWriter is the ResponseWriter behind the fake fetch: the first write
// resolves the fetch with the headers, later writes reach the body.
type fetchWriter struct {
	mu         sync.Mutex
	header     http.Header
	resolve    js.Value
	stream     js.Value
	controller js.Value
	resolved   bool
	ended      bool
}

func (w *fetchWriter) Header() http.Header { return w.header }

func (w *fetchWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.start(code)
}

// start resolves the fetch once; the caller holds mu.
func (w *fetchWriter) start(code int) {
	if w.resolved {
		return
	}
	w.resolved = true
	headers := map[string]any{}
	for k := range w.header {
		headers[k] = w.header.Get(k)
	}
	body := w.stream
	if code == http.StatusNoContent || code == http.StatusNotModified {
		body = js.Null() // as a browser gives it: such a Response has no body at all
	}
	w.resolve.Invoke(js.Global().Get("Response").New(body, map[string]any{"status": code, "headers": headers}))
}

func (w *fetchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.start(http.StatusOK)
	if w.ended {
		return 0, context.Canceled
	}
	written := len(p)
	for i := 0; len(p) > 0; i++ {
		n := min(7, len(p))
		if i >= 512 {
			n = min(32<<10, len(p)) // a megabyte 7 bytes at a time takes minutes under Node
		}
		chunk := js.Global().Get("Uint8Array").New(n)
		js.CopyBytesToJS(chunk, p[:n])
		w.controller.Call("enqueue", chunk)
		p = p[n:]
	}
	return written, nil
}

func (w *fetchWriter) Flush() {}

// end closes the body, or errors it when the fetch was aborted.
func (w *fetchWriter) end(abortErr js.Value) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.start(http.StatusOK)
	if w.ended {
		return
	}
	w.ended = true
	if abortErr.IsNull() {
		w.controller.Call("close")
	} else {
		w.controller.Call("error", abortErr)
	}
}
