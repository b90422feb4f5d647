package server_test

import (
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/server"
)

// discardStream is a flushing ResponseWriter that keeps nothing and
// counts its writes and flushes.
type discardStream struct {
	header          http.Header
	writes, flushes int
	bytes           int
}

func (d *discardStream) Header() http.Header { return d.header }
func (d *discardStream) WriteHeader(int)     {}
func (d *discardStream) Write(p []byte) (int, error) {
	d.writes++
	d.bytes += len(p)
	return len(p), nil
}
func (d *discardStream) Flush() { d.flushes++ }

// Deadlines are set as on a connection: without them the server would
// make an error value for each, which no real connection costs it.
func (d *discardStream) SetReadDeadline(time.Time) error  { return nil }
func (d *discardStream) SetWriteDeadline(time.Time) error { return nil }

// rewound is a request body read again from its start for each request,
// so that the loop makes nothing the server would not be given.
type rewound struct{ strings.Reader }

func (*rewound) Close() error { return nil }

// BenchmarkNormalStream plays the normal scenario with delays zeroed,
// in-process, in each encoding: one op is one whole request, decoding and
// validation included. The request is made once and its body rewound, so
// the allocations counted are the server's, as net/http would hand it the
// request. Its sub-benchmarks, in one run, put the binary transport's CPU
// and bytes beside SSE's.
func BenchmarkNormalStream(b *testing.B) {
	for _, enc := range []struct{ name, accept string }{
		{"sse", "text/event-stream"},
		{"binary", "application/vnd.ag-ui.event+proto"},
	} {
		b.Run("encoding="+enc.name, func(b *testing.B) { benchmarkStream(b, enc.accept) })
	}
}

func benchmarkStream(b *testing.B, accept string) {
	script, _ := fixtures.Lookup("normal")
	perStream := len(script.Frames)
	w, play := normalStreams(accept)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	for b.Loop() {
		play()
	}
	runtime.ReadMemStats(&after)

	n := float64(b.N * perStream)
	// Delays zeroed, the headers and every event go out in one write.
	b.ReportMetric(float64(w.bytes)/float64(b.N), "bytes/stream")
	b.ReportMetric(float64(w.writes)/float64(b.N), "writes/stream")
	b.ReportMetric(float64(w.flushes)/float64(b.N), "flushes/stream")
	b.ReportMetric(n/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/event")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/event")
}

// normalStreams is a server with delays zeroed and a request for its
// normal scenario, made once: play serves the request again, to w.
func normalStreams(accept string) (w *discardStream, play func()) {
	h := server.New(server.Config{NoDelay: true})
	body := &rewound{}
	body.Reset(runBody("thread-1", "run-1", "normal"))
	req, _ := http.NewRequest(http.MethodPost, "/api/agent-analysis", body)
	req.ContentLength = body.Size() // as a client announces it
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	w = &discardStream{header: http.Header{}}
	return w, func() {
		clear(w.header)
		body.Seek(0, io.SeekStart)
		h.ServeHTTP(w, req)
	}
}

// A normal stream allocates what its request's input needs, in either
// encoding: the engine's copy of the body and its list of members, the
// ids and the scenario's name as strings, the scenario as a JSON value,
// the ids escaped for the frames. Anything more is made for every
// request the server plays.
func TestNormalStreamAllocations(t *testing.T) {
	if underRace {
		t.Skip("the race detector drops some of what sync.Pool keeps")
	}
	for _, accept := range []string{"text/event-stream", "application/vnd.ag-ui.event+proto"} {
		w, play := normalStreams(accept)
		play()
		if w.writes != 1 || w.bytes < 800 {
			t.Fatalf("%s: %d writes, %d bytes: not a whole normal stream", accept, w.writes, w.bytes)
		}
		if n := testing.AllocsPerRun(100, play); n > 8 {
			t.Errorf("%s: %.0f allocations a stream, want at most 8", accept, n)
		}
	}
}
