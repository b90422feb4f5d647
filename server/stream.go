package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server/library"
)

// appendFrame adds one of a script's frames in the AG-UI SSE framing: an
// event as one data line, a comment as one ":" line; LF only, and a blank
// line after.
func appendFrame(buf []byte, f script.Frame) []byte {
	if f.Event == nil {
		buf = append(buf, ": "...)
		buf = append(buf, f.Comment...)
	} else {
		buf = append(buf, "data: "...)
		buf = append(buf, f.Event...)
	}
	return append(buf, '\n', '\n')
}

// End says why a stream stopped.
type End string

const (
	EndCompleted   End = "completed"
	EndClientGone  End = "client-gone"
	EndShutdown    End = "shutdown"
	EndWriteFailed End = "write-failed"
)

// Disposal reports one stream's release of its resources.
type Disposal struct {
	Scenario string
	Sent     int // frames (events and comments) written, the closing event included
	End      End
	Closing  string // the type of the event that closed the run at shutdown, if one was written
}

// stream is one request's playback: it owns the cursor and the timer.
// It holds its ResponseController by value: a pointer held here would
// put the controller on the heap for each request.
type stream struct {
	w            io.Writer
	rc           http.ResponseController
	frames       []frame // the script, framed
	ids          ids     // what goes in the frames' holes
	wire         wire    // how the frames go out: SSE or binary
	scripts      *library.Library
	req          runInput
	noDelay      bool
	writeTimeout time.Duration
	onDispose    func(Disposal)
	log          *slog.Logger // each event at debug level
}

// play writes the frames, waiting each one's delay, until it ends, the
// request's context ends or a write fails. Events due at the same moment
// go out in one write, flushed before the next wait, so each event reaches
// the client when it is due; the last ones are flushed by net/http as the
// handler returns, in the same write as the end of the chunked body. Its deferred release is
// the single place the timer stops, so disposal happens exactly once and
// nothing is written after it.
func (s *stream) play(ctx context.Context) (d Disposal) {
	d.Scenario = s.req.Scenario
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
		if s.onDispose != nil {
			s.onDispose(d)
		}
	}()

	buf := buffers.get()
	due := slices.Grow(*buf, s.burst()) // frames due now, not yet written
	defer func() { buffers.put(buf, due) }()
	// pending counts the frames in due; the script's frames up to the
	// last one in due are upTo, and up to the last one written passed:
	// the binary transport writes no comments, so d.Sent alone does not
	// say where in the script a cut stream stopped.
	pending, upTo, passed := 0, 0, 0
	debug := s.log.Enabled(ctx, slog.LevelDebug) // then each event is logged
	var scratch []byte                           // a binary frame's SSE framing, with its ids
	flush := func(last bool) bool {
		if pending == 0 {
			return true
		}
		if err := s.write(due, !last); err != nil {
			d.End = EndWriteFailed
			return false
		}
		d.Sent += pending
		due, pending, passed = due[:0], 0, upTo
		return true
	}
	for i := range s.frames {
		f := &s.frames[i]
		if f.after > 0 && !s.noDelay {
			if !flush(false) {
				return d
			}
			if timer == nil {
				timer = time.NewTimer(f.after)
			} else {
				timer.Reset(f.after)
			}
			select {
			case <-ctx.Done():
				return s.stop(ctx, d, passed)
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			return s.stop(ctx, d, passed)
		}
		var wrote bool
		if due, wrote = s.appendFrame(due, f, &scratch); !wrote {
			continue // an SSE comment, which the binary transport has no form for
		}
		pending, upTo = pending+1, i+1
		if debug {
			s.log.LogAttrs(ctx, slog.LevelDebug, "event", slog.String("runId", s.req.RunID),
				slog.Int("seq", d.Sent+pending), slog.String("type", f.kind))
		}
	}
	if flush(true) {
		d.End = EndCompleted
	}
	return d
}

// appendFrame adds a frame as the stream's encoding writes it; ok is false
// when there is nothing to write.
func (s *stream) appendFrame(b []byte, f *frame, scratch *[]byte) ([]byte, bool) {
	if s.wire == binary {
		return f.appendBinary(b, s.ids, scratch)
	}
	return f.appendTo(b, s.ids), true
}

// stop ends a stream before its script did, passed of the script's frames
// written or skipped. At shutdown the run it was playing is closed
// (closingEvent), if the connection still takes a write within a second;
// a client that went away gets nothing more.
func (s *stream) stop(ctx context.Context, d Disposal, passed int) Disposal {
	d.End = ended(ctx)
	if d.End != EndShutdown {
		return d
	}
	event := closingEvent(s.scriptFrames()[:passed])
	if event == nil {
		return d
	}
	frame := appendFrame(nil, script.Frame{Event: event})
	if s.wire == binary {
		var err error
		if frame, err = proto.AppendFrame(nil, event); err != nil {
			return d
		}
	}
	if err := s.rc.SetWriteDeadline(time.Now().Add(time.Second)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return d
	}
	if _, err := s.w.Write(frame); err == nil && s.rc.Flush() == nil {
		d.Sent, d.Closing = d.Sent+1, "RUN_FINISHED"
		if bytes.HasPrefix(event, []byte(`{"type":"RUN_ERROR"`)) {
			d.Closing = "RUN_ERROR"
		}
	}
	return d
}

// scriptFrames are the script's frames as this run sends them: made
// again, from the script, only for closingEvent.
func (s *stream) scriptFrames() []script.Frame {
	sc, _ := s.scripts.Lookup(s.req.Scenario)
	if c := s.req.Continuation; c != nil {
		return sc.Continue(*c, s.req.ThreadID, s.req.RunID)
	}
	return sc.ForRequest(s.req.ThreadID, s.req.RunID)
}

// buffers keep the frames due between streams, up to 64 KiB each: every
// stream needs one (a normal stream's is 1 KB), and net/http copies what
// is written.
var buffers = bufferPool{most: 64 << 10}

// burst is the most bytes of frames due at one moment (with delays
// zeroed, the whole stream's): what the stream's buffer must hold. A
// stream waiting before a large event does not hold its room meanwhile.
func (s *stream) burst() int {
	most, n := 0, 0
	for _, f := range s.frames {
		if f.after > 0 && !s.noDelay {
			n = 0
		}
		n += len(f.text)
		for _, h := range f.holes {
			if h.run {
				n += len(s.ids.run)
			} else {
				n += len(s.ids.thread)
			}
		}
		most = max(most, n)
	}
	return most
}

// write sends frames in one write, flushed if asked. Streams have no
// server-wide WriteTimeout; each write gets its own deadline.
func (s *stream) write(frames []byte, flush bool) error {
	if err := s.rc.SetWriteDeadline(time.Now().Add(s.writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if _, err := s.w.Write(frames); err != nil || !flush {
		return err
	}
	return s.rc.Flush()
}

func ended(ctx context.Context) End {
	if errors.Is(context.Cause(ctx), ErrShutdown) {
		return EndShutdown
	}
	return EndClientGone
}
