package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"
)

// gate is a reverse proxy in front of the suite's server that lets each
// stream's frames through only as the test allows. The test, not the
// clock, decides which state a run is in: a key can be pressed while a run
// is connecting, or a page checked while it streams, without racing the
// server's delays.
type gate struct {
	t       testing.TB
	url     string
	streams chan *gatedStream
	closed  chan struct{} // the test is over: held streams end
}

// gatedStream is one stream request passing through the gate.
type gatedStream struct {
	allow chan int
}

// startGate serves the whole site through the gate, on a free loopback port.
func startGate(t testing.TB) *gate {
	upstream, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{t: t, streams: make(chan *gatedStream, 16), closed: make(chan struct{})}
	// Its own transport, so that its connections end with the gate and no
	// other test's cleanup touches them.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(transport.CloseIdleConnections)
	proxy := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(upstream) },
		Transport:     transport,
		FlushInterval: -1,
		ErrorLog:      log.New(testWriter{t}, "gate: ", 0),
		ModifyResponse: func(resp *http.Response) error {
			if resp.Request.URL.Path != "/api/agent-analysis" || resp.StatusCode != http.StatusOK {
				return nil
			}
			s := &gatedStream{allow: make(chan int, 64)}
			resp.Body = &gatedBody{ctx: resp.Request.Context(), closed: g.closed, body: resp.Body, frames: bufio.NewReader(resp.Body), allow: s.allow}
			g.streams <- s
			return nil
		},
	}
	server := httptest.NewServer(readBodyFirst(proxy))
	t.Cleanup(server.Close)
	// Before the server closes (cleanups run last first): a test that
	// failed while holding a stream would otherwise leave Close waiting
	// on it for ever, the page being still open.
	t.Cleanup(func() { close(g.closed) })
	g.url = server.URL
	return g
}

// readBodyFirst reads a request's body before the proxy sees it. The proxy
// flushes the stream's headers as soon as they arrive, net/http closes an
// HTTP/1 request body once its response is flushed, and the transport may
// still be making its last read of that body (to check for bytes past
// Content-Length): the read fails and takes the upstream connection, and
// the stream, with it (golang/go#40747). Request bodies here are a few
// bytes of JSON.
func readBodyFirst(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// next waits for the page's next stream.
func (g *gate) next() *gatedStream {
	g.t.Helper()
	select {
	case s := <-g.streams:
		return s
	case <-time.After(load):
		g.t.Fatal("the page opened no stream")
		return nil
	}
}

// runToSpike presses Run and lets the normal run through up to API's
// spike, then holds it: the run stays Streaming, after the spike, until
// the test lets the returned stream go.
func (p *page) runToSpike(g *gate) *gatedStream {
	p.t.Helper()
	p.click("Run")
	s := g.next()
	s.pass(3) // RUN_STARTED, the snapshot, the spike
	p.until("the spike", `document.querySelector('.accepted').textContent === 'Accepted updates: 2'`)
	return s
}

// pass lets n more frames through.
func (s *gatedStream) pass(n int) { s.allow <- n }

// passAll lets the rest of the stream through.
func (s *gatedStream) passAll() { s.allow <- 1 << 30 }

// gatedBody hands the proxy one SSE frame (up to its blank line) at a
// time, while frames are allowed.
type gatedBody struct {
	ctx     context.Context
	closed  <-chan struct{}
	body    io.Closer
	frames  *bufio.Reader
	allow   chan int
	allowed int
	pending []byte
}

func (b *gatedBody) Read(p []byte) (int, error) {
	if len(b.pending) == 0 {
		for b.allowed == 0 {
			select {
			case n := <-b.allow:
				b.allowed += n
			case <-b.ctx.Done(): // the page went away
				return 0, b.ctx.Err()
			case <-b.closed:
				return 0, errGateClosed
			}
		}
		frame, err := readFrame(b.frames)
		if len(frame) == 0 {
			return 0, err
		}
		b.allowed--
		b.pending = frame
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

func (b *gatedBody) Close() error { return b.body.Close() }

var errGateClosed = errors.New("the gate closed with the test")

// readFrame reads up to and including a frame's blank line.
func readFrame(r *bufio.Reader) ([]byte, error) {
	var frame []byte
	for {
		line, err := r.ReadBytes('\n')
		frame = append(frame, line...)
		if err != nil || bytes.Equal(line, []byte("\n")) {
			return frame, err
		}
	}
}

// testWriter sends the proxy's own log to the test's, where a failing
// test shows it next to the step that broke.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}
