package proxy

import (
	"bytes"
	"fmt"

	"github.com/agent-analysis/agent-analysis/kit/agent"
)

// framing watches a stream's SSE lines (sse.Reader.OnLine) for what the
// reader forgives: comments, which it counts, and an event the stream's
// end cut short, which every client discards. Package agent watches the
// same for check -url, and more (fields AG-UI ignores), unexported: were
// it exported, the proxy would use it.
type framing struct {
	comment      func(text string)
	pending      int // data lines of the event being read
	pendingBytes int
}

func (f *framing) line(line []byte) {
	switch {
	case len(line) == 0:
		f.pending, f.pendingBytes = 0, 0
	case line[0] == ':':
		f.comment(string(bytes.TrimPrefix(line[1:], []byte(" "))))
	case bytes.HasPrefix(line, []byte("data")) && (len(line) == 4 || line[4] == ':'):
		f.pending++
		f.pendingBytes += len(bytes.TrimPrefix(line[min(len(line), 5):], []byte(" ")))
	}
}

// cut is the failure of a stream that ended inside an event.
func (f *framing) cut() *Failure {
	if f.pending == 0 {
		return nil
	}
	return &Failure{Rule: agent.SSEFraming, Text: fmt.Sprintf(
		"the stream ended inside an event: %d data line(s), %d bytes, with no blank line after them, which a client discards", f.pending, f.pendingBytes)}
}
