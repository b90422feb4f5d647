package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/agui/sse"
	"github.com/agent-analysis/agent-analysis/app/core"
)

// runBody is the body the demo client sends: the engine's request for the
// demo's input (protocolVersion 1.0, the empty services state).
func runBody(threadID, runID, scenario string) string {
	in, err := core.Run{ThreadID: threadID, RunID: runID, Scenario: scenario}.Input()
	if err != nil {
		panic(err)
	}
	body, _, err := in.Request("")
	if err != nil {
		panic(err)
	}
	return string(body)
}

func newRunRequest(ctx context.Context, url, body string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	return req
}

// describeStream reads every SSE event of r and describes each as one
// line.
func describeStream(r io.Reader) ([]string, error) {
	frames, err := readEvents(r)
	out := make([]string, len(frames))
	for i, f := range frames {
		out[i] = describe(f)
	}
	return out, err
}

// readEvents reads the data of every SSE event of r.
func readEvents(r io.Reader) ([][]byte, error) {
	reader := sse.NewReader(r, 1<<20)
	var out [][]byte
	for {
		data, err := reader.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("reading SSE: %w", err)
		}
		out = append(out, append([]byte(nil), data...))
	}
}

// judge has the AG-UI 1.0 engine judge a stream as the demo's client
// would, for the request of these ids: the first violation, the
// truncation, and the warnings.
func judge(events [][]byte, threadID, runID string) (*agui.Violation, string, []agui.Warning) {
	in, _ := core.Run{ThreadID: threadID, RunID: runID, Scenario: "normal"}.Input()
	c, _ := agui.NewConsumer(in, agui.Options{State: core.NewServices()})
	var warnings []agui.Warning
	for _, e := range events {
		s := c.Feed(e)
		warnings = append(warnings, s.Warnings...)
		if s.Violation != nil {
			return s.Violation, "", warnings
		}
	}
	return nil, c.End(), warnings
}

// streamRecorder is a ResponseWriter that the test may read while the
// handler writes; it flushes (counting flushes) but has no deadlines.
type streamRecorder struct {
	mu      sync.Mutex
	header  http.Header
	status  int
	body    bytes.Buffer
	flushes int
}

func newStreamRecorder() *streamRecorder { return &streamRecorder{header: http.Header{}} }

func (r *streamRecorder) Header() http.Header { return r.header }

func (r *streamRecorder) WriteHeader(code int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == 0 {
		r.status = code
	}
}

func (r *streamRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(p)
}

func (r *streamRecorder) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushes++
}

func (r *streamRecorder) snapshot() (status int, body string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, r.body.String()
}

var _ http.Flusher = (*streamRecorder)(nil)

// describe renders an event as one comparable line: its type, ids, the
// version a RUN_STARTED declares, the outcome a RUN_FINISHED carries, and
// for state events the services (id=latency) or the operations.
func describe(event []byte) string {
	v, err := jsonpatch.Decode(event)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	o, ok := v.(*jsonpatch.Object)
	if !ok {
		return "<not an object>"
	}
	get := func(name string) string { x, _ := o.Get(name); s, _ := x.(string); return s }
	parts := []string{get("type")}
	switch get("type") {
	case "RUN_STARTED":
		parts = append(parts, get("threadId"), get("runId"), get("protocolVersion"))
	case "RUN_FINISHED":
		parts = append(parts, get("threadId"), get("runId"))
		if outcome, ok := o.Get("outcome"); ok {
			parts = append(parts, string(jsonpatch.Encode(outcome)))
		}
	case "STATE_SNAPSHOT":
		snapshot, _ := o.Get("snapshot")
		w, err := core.DecodeWire(jsonpatch.Encode(snapshot))
		if err != nil {
			return "STATE_SNAPSHOT <" + err.Error() + ">"
		}
		for _, s := range w.All() {
			parts = append(parts, s.ID+"="+strconv.FormatFloat(s.Latency, 'g', -1, 64))
		}
	case "STATE_DELTA":
		delta, _ := o.Get("delta")
		list, ok := delta.(*jsonpatch.Array)
		if !ok {
			return "STATE_DELTA " + string(jsonpatch.Encode(delta))
		}
		for _, item := range list.Items() {
			op := item.(*jsonpatch.Object)
			name, _ := op.Get("op")
			path, _ := op.Get("path")
			parts = append(parts, fmt.Sprint(name), fmt.Sprint(path))
			if value, ok := op.Get("value"); ok {
				parts = append(parts, string(jsonpatch.Encode(value)))
			}
		}
	}
	return strings.Join(parts, " ")
}

func lines(s []string) string { return "  " + strings.Join(s, "\n  ") }

// lockedBuffer is a log destination the test reads while the server writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) snapshot() *bytes.Buffer {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.NewBuffer(bytes.Clone(l.b.Bytes()))
}
