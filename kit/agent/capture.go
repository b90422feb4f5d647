package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Capture is an SSE stream as a file holds it: what `curl -N` writes, or
// a server's golden stream. It is read as a live stream is (the same
// reader and framing checks), without the timing.
type Capture struct {
	Frames   []script.Frame  // every event and comment, in order; no delays
	Failures []rules.Failure // the stream ended inside an event, or an event is over the engine's bound
	// Unreadable is a binary frame that does not decode, at its event's
	// place; Frames end before it. It is the verdict only if the engine
	// breaks no rule before it, as an SSE event that is not JSON would be.
	Unreadable *agui.Violation
	Notes      []string // SSE fields AG-UI ignores, and such
}

// IsCapture reports whether data looks like an SSE stream rather than a
// script: its first line that is not blank is a data, event, id or retry
// field, or a comment.
func IsCapture(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	for len(data) > 0 {
		end := bytes.IndexAny(data, "\r\n")
		if end < 0 {
			end = len(data)
		}
		line := bytes.TrimSpace(data[:end])
		data = data[end:]
		if len(data) > 0 {
			data = data[1:]
		}
		if len(line) == 0 {
			continue
		}
		if line[0] == ':' {
			return true
		}
		for _, field := range []string{"data:", "event:", "id:", "retry:"} {
			if bytes.HasPrefix(line, []byte(field)) {
				return true
			}
		}
		return false
	}
	return false
}

// ReadCapture reads the events and comments of a captured stream, told
// apart by its content: SSE (data lines joined with line feeds, any line
// ending, fields AG-UI gives no meaning to noted and skipped), or AG-UI's
// binary transport (what curl -H 'Accept: application/vnd.ag-ui.event+proto'
// writes: each frame decoded to its event's JSON, WatchBinary).
func ReadCapture(data []byte) Capture {
	var c Capture
	watch := Watch
	if proto.IsBinary(data) {
		watch = WatchBinary
	}
	w := watch(bytes.NewReader(data), nil, func(f script.Frame, _ agui.Judgement) bool {
		f.Event = bytes.Clone(f.Event)
		c.Frames = append(c.Frames, f)
		return true
	})
	switch {
	case errors.Is(w.Err, io.EOF):
		if w.Cut != nil {
			c.Failures = append(c.Failures, *w.Cut)
		}
	case w.OverBound() != "":
		c.Failures = append(c.Failures, rules.Failure{Rule: agui.Limit.ID(), Text: fmt.Sprintf("%s is over the engine's %d MiB bound: the stream was not read further", w.OverBound(), agui.MaxEventBytes>>20)})
	case w.Framing != nil:
		c.Failures = append(c.Failures, *w.Framing)
	default:
		c.Failures = append(c.Failures, rules.Failure{Rule: rules.StreamBroken, Text: w.Err.Error()})
	}
	if v := w.Violation; v != nil { // a binary frame that does not decode: the stream is judged to it
		c.Frames = eventsBefore(c.Frames, v.Index)
		c.Unreadable = v
	}
	c.Notes = w.Notes
	return c
}

// eventsBefore is frames up to their nth event.
func eventsBefore(frames []script.Frame, n int) []script.Frame {
	for i, f := range frames {
		if f.Event != nil {
			if n == 0 {
				return frames[:i]
			}
			n--
		}
	}
	return frames
}
