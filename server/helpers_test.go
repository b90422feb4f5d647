package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/sse"
)

// runBody is the body the demo client sends, with the official client's
// protocolVersion.
func runBody(threadID, runID, scenario string) string {
	b, _ := json.Marshal(map[string]any{
		"threadId": threadID, "runId": runID, "protocolVersion": "1.0",
		"state": map[string]any{}, "messages": []any{}, "tools": []any{}, "context": []any{},
		"forwardedProps": map[string]any{"scenario": scenario},
	})
	return string(b)
}

func newRunRequest(ctx context.Context, url, body string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	return req
}

// describeStream decodes every SSE event of r with the AG-UI SDK and
// describes each as one line.
func describeStream(r io.Reader) ([]string, error) {
	sse := sse.NewReader(r, 1<<20)
	var out []string
	for {
		data, err := sse.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("reading SSE: %w", err)
		}
		ev, err := events.EventFromJSON(data)
		if err != nil {
			return out, fmt.Errorf("decoding %s: %w", data, err)
		}
		if err := ev.Validate(); err != nil {
			return out, fmt.Errorf("invalid event %s: %w", data, err)
		}
		out = append(out, describe(ev))
	}
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

// describe renders an event as one comparable line: its type, ids, and for
// state events the services (id=latency) or the operations.
func describe(ev events.Event) string {
	switch ev := ev.(type) {
	case *events.RunStartedEvent:
		return "RUN_STARTED " + ev.ThreadID() + " " + ev.RunID()
	case *events.RunFinishedEvent:
		return "RUN_FINISHED " + ev.ThreadID() + " " + ev.RunID()
	case *events.StateSnapshotEvent:
		b, _ := json.Marshal(map[string]any{"snapshot": ev.Snapshot})
		w, err := core.DecodeSnapshot(b)
		if err != nil {
			return "STATE_SNAPSHOT <" + err.Error() + ">"
		}
		parts := []string{"STATE_SNAPSHOT"}
		for _, s := range w.All() {
			parts = append(parts, s.ID+"="+strconv.FormatFloat(s.Latency, 'g', -1, 64))
		}
		return strings.Join(parts, " ")
	case *events.StateDeltaEvent:
		parts := []string{"STATE_DELTA"}
		for _, op := range ev.Delta {
			v, _ := json.Marshal(op.Value)
			parts = append(parts, op.Op+" "+op.Path+" "+string(v))
		}
		return strings.Join(parts, " ")
	default:
		return string(ev.Type())
	}
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
