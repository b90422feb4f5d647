package server

import (
	"bytes"
	"fmt"

	"github.com/agent-analysis/agent-analysis/agui/proto"
)

// A stream in AG-UI's binary transport is the same script, timers and
// limits as over SSE (stream.play): each event's JSON, the bytes an SSE
// frame carries, encoded to its binary frame. Each frame is encoded once,
// with its template: one whose event holds the request's ids as a
// proto.Template the request's ids are filled into, as they are spliced
// into the SSE frame. A frame made for one request (a continuation's) is
// encoded with it. An SSE comment has no
// binary form: its delay passes, and nothing is written. A script the
// binary schema cannot carry faithfully (a value of the wrong type, a
// member the schema lacks: the faults of the fault lab) is found when
// the server starts, and is played as SSE or refused (negotiate).

// eventOf is the event's JSON inside an SSE-framed event: its text without
// "data: " and the blank line; nil for a comment.
func eventOf(sse []byte) []byte {
	if !bytes.HasPrefix(sse, []byte("data: ")) {
		return nil
	}
	return bytes.TrimSuffix(sse[len("data: "):], []byte("\n\n"))
}

// encodeBinary gives each of frames its binary frame, all or none: the
// error names the first event the binary schema cannot carry. A frame
// with holes is only tried, here with the ids given.
func encodeBinary(frames []frame, id ids) error {
	var scratch []byte
	for i := range frames {
		f := &frames[i]
		scratch = f.appendTo(scratch[:0], id)
		event := eventOf(scratch)
		if event == nil {
			continue // a comment
		}
		bin, err := proto.AppendFrame(nil, event)
		if err != nil {
			return fmt.Errorf("event %d (%s): %w", i+1, f.kind, err)
		}
		if len(f.holes) == 0 {
			f.bin = bin
		} else if id.threadText != nil && string(id.threadText) == placeholderThread {
			f.template, _ = proto.NewTemplate(event, placeholderThread, placeholderRun) // nil: encoded for each request
		}
	}
	return nil
}

// appendBinary adds a frame in the binary transport, with these ids; ok
// is false for a comment, which has none. scratch holds the SSE framing
// of a frame with holes.
func (f *frame) appendBinary(b []byte, id ids, scratch *[]byte) ([]byte, bool) {
	switch {
	case f.bin != nil:
		return append(b, f.bin...), true
	case f.template != nil:
		return f.template.Append(b, id.threadText, id.runText), true
	}
	*scratch = f.appendTo((*scratch)[:0], id)
	event := eventOf(*scratch)
	if event == nil {
		return b, false
	}
	out, err := proto.AppendFrame(b, event)
	if err != nil {
		return b, false // cannot happen: encodeBinary tried it at start (templates), or before the stream began
	}
	return out, true
}
