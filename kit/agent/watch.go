package agent

import (
	"errors"
	"io"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/agui/sse"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Watched is what reading an SSE stream saw (Watch).
type Watched struct {
	Events, Comments int

	// The engine's verdict, when it judged: the first rule the stream
	// broke; the run active when it last judged, at the end or at the
	// break ("" if none); why the stream is truncated
	// (agui.Consumer.End); its warnings, and how many more it dropped.
	Violation *agui.Violation
	ActiveRun string
	Truncated string
	Warnings  []agui.Warning
	Dropped   int

	// Err ended the reading: io.EOF for a stream read to its end,
	// sse.ErrEventTooLarge for an event or a comment line over the
	// engine's bound (OverBound; proto.ErrEventTooLarge for a binary
	// frame's event), or the body's error.
	Err error
	// Cut is the failure of a stream that ended inside an event, which
	// the SSE standard discards: the reading ended there, and the stream did.
	Cut *rules.Failure
	// Framing is the failure of the transport's framing that ended the
	// reading before the stream did (a binary frame longer than a client
	// reads); nil when none did.
	Framing *rules.Failure
	Notes   []string // legal SSE worth knowing: fields AG-UI ignores, and such
}

// ErrHalted ends a reading its frame function halted.
var ErrHalted = errors.New("the reader halted the stream")

// FrameFunc is told of each frame a stream brings, as it is read, with
// the engine's judgement of it when it is an event and an engine judges
// (a zero Judgement otherwise), and returns whether to read on. A frame's
// Event is the reader's buffer, valid until it returns: a frame kept is
// cloned.
type FrameFunc func(script.Frame, agui.Judgement) bool

// Watch reads an SSE stream until it ends, a read fails or frame says to
// halt, as check -url and the proxy read one: consumer (nil for none)
// judges each event, frame is told of it, and the framing is watched for
// what the reader forgives. The reading goes on after a violation: the
// transport is still checked.
func Watch(body io.Reader, consumer *agui.Consumer, frame FrameFunc) Watched {
	return watchUntil(nil, body, consumer, frame)
}

// watchUntil is Watch taking no frame once done is closed, or frame has
// said to halt: one read may bring frames past either, which are not
// counted, judged nor told of.
func watchUntil(done <-chan struct{}, body io.Reader, consumer *agui.Consumer, frame FrameFunc) Watched {
	var w Watched
	halted := false
	take := func() bool {
		halted = halted || closed(done)
		return !halted
	}
	watch := &framing{comment: func(text string, line int) {
		if take() {
			w.Comments++
			halted = !frame(script.Frame{Comment: text, Line: line}, agui.Judgement{})
		}
	}}
	events := sse.NewReader(body, agui.MaxEventBytes)
	events.OnLine = func(line []byte) { watch.line(line, events.Unended()) }
	for !halted {
		data, err := events.Next()
		if err != nil {
			w.Err = err
			break
		}
		if !take() {
			break
		}
		w.Events++
		halted = !frame(script.Frame{Event: data, Line: watch.eventStart}, w.judge(consumer, data))
	}
	if halted && w.Err == nil {
		w.Err = ErrHalted
	}
	w.Cut, w.Notes = watch.cut(), watch.notes()
	w.judged(consumer)
	return w
}

// closed says whether done is closed; a nil done never is.
func closed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// judge has the engine, if any, judge an event, keeping the first rule the
// stream broke.
func (w *Watched) judge(consumer *agui.Consumer, data []byte) agui.Judgement {
	if consumer == nil {
		return agui.Judgement{}
	}
	j := consumer.Feed(data)
	if j.Violation != nil && w.Violation == nil {
		w.Violation = j.Violation
	}
	return j
}

// judged takes the engine's verdict at the stream's end, when it judged.
func (w *Watched) judged(consumer *agui.Consumer) {
	if consumer == nil {
		return
	}
	if runs := consumer.Runs(); len(runs) > 0 && runs[len(runs)-1].Phase == agui.Active {
		w.ActiveRun = runs[len(runs)-1].RunID
	}
	w.Truncated = consumer.End()
	w.Warnings, w.Dropped = consumer.Warnings()
}

// OverBound is what was over the engine's bound when that ended the
// reading, "an event" or "a comment line"; "" when nothing was.
func (w Watched) OverBound() string {
	switch {
	case errors.Is(w.Err, sse.ErrCommentTooLarge):
		return "a comment line"
	case errors.Is(w.Err, sse.ErrEventTooLarge), errors.Is(w.Err, proto.ErrEventTooLarge):
		return "an event"
	}
	return ""
}
