//go:build js

package effects

import (
	"context"
	"errors"
	"io"
	"syscall/js"
)

// yieldToPage hands the page's one thread back to its event loop for a
// turn: every goroutine runs on it, and the calling one waits here for a
// new task, a timer of 0 ms, while the page draws and answers input. A
// time.Sleep would not do: when the collector has marking to do, the Go
// scheduler spends the idle time on it and, the sleep being over by then,
// goes on in the same task. A hidden page has nothing to draw or answer,
// and its timers may fire once a second: there it does not wait. (Node
// has no document, and waits.)
func yieldToPage() {
	if doc := js.Global().Get("document"); doc.Truthy() && doc.Get("hidden").Bool() {
		return
	}
	await(js.Global().Get("Promise").New(nextTask))
}

// nextTask is a Promise executor that resolves in a new task.
var nextTask = js.FuncOf(func(_ js.Value, args []js.Value) any {
	js.Global().Call("setTimeout", args[0], 0)
	return nil
})

// post sends the request with the browser's fetch and reads the body from
// its ReadableStream. net/http would do the same through fetch, but its
// client adds about 5 MB to app.wasm (1.1 MB gzip).
func (c Client) post(ctx context.Context, payload []byte) (response, error) {
	abort := js.Global().Get("AbortController").New()
	// Cancelling before the headers arrive aborts the fetch; after, closing
	// the body does.
	stop := context.AfterFunc(ctx, func() { abort.Call("abort") })
	init := js.ValueOf(map[string]any{
		"method": "POST",
		"headers": map[string]any{
			"Content-Type": "application/json",
			"Accept":       "text/event-stream",
		},
		"body":   string(payload),
		"cache":  "no-store",
		"signal": abort.Get("signal"),
	})
	res, err := await(js.Global().Call("fetch", c.Endpoint, init))
	if err != nil {
		stop()
		return response{}, err
	}
	contentType := res.Get("headers").Call("get", "Content-Type")
	if contentType.IsNull() {
		contentType = js.ValueOf("")
	}
	return response{
		status:      res.Get("status").Int(),
		contentType: contentType.String(),
		body:        &fetchBody{body: res.Get("body"), abort: abort, stop: stop},
	}, nil
}

// fetchBody reads a fetch Response's body. Close aborts the fetch.
type fetchBody struct {
	body   js.Value // a ReadableStream, or null: a 204 or 304 has no body
	reader js.Value // its reader, made on the first Read
	abort  js.Value
	stop   func() bool
	rest   []byte // what the last chunk still holds
}

func (b *fetchBody) Read(p []byte) (int, error) {
	if b.reader.IsUndefined() {
		if b.body.IsNull() || b.body.IsUndefined() {
			return 0, io.EOF
		}
		b.reader = b.body.Call("getReader")
	}
	for len(b.rest) == 0 {
		chunk, err := await(b.reader.Call("read"))
		if err != nil {
			return 0, err
		}
		if chunk.Get("done").Bool() {
			return 0, io.EOF
		}
		value := chunk.Get("value") // a Uint8Array
		b.rest = make([]byte, value.Get("length").Int())
		js.CopyBytesToGo(b.rest, value)
	}
	n := copy(p, b.rest)
	b.rest = b.rest[n:]
	return n, nil
}

func (b *fetchBody) Close() error {
	b.stop()
	b.abort.Call("abort")
	return nil
}

// await blocks the calling goroutine until the promise settles.
func await(promise js.Value) (js.Value, error) {
	type settled struct {
		value js.Value
		err   error
	}
	done := make(chan settled, 1)
	onValue := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- settled{value: args[0]}
		return nil
	})
	onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- settled{err: errors.New(args[0].Call("toString").String())}
		return nil
	})
	defer onValue.Release()
	defer onError.Release()
	promise.Call("then", onValue, onError)
	s := <-done
	return s.value, s.err
}
