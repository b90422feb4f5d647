package core

import "time"

// Bounds of the Wire disclosure.
const (
	MaxFrames     = 50
	maxFrameBytes = 4 << 10 // of one frame's JSON kept for people to read
)

// Frame is one event the current run received, as the Wire disclosure
// lists it: arrival order and time, type, size, and what the client did.
type Frame struct {
	Seq     int           // 1 for the run's first event
	At      time.Duration // since the run's request went out
	Type    string
	Size    int // bytes of the event's JSON
	Verdict Verdict
	JSON    string // the event as it arrived, cut at 4 KiB
}

// Verdict is what the client did with a frame.
type Verdict string

const (
	Applied     Verdict = "applied"
	Ignored     Verdict = "ignored"
	Rejected    Verdict = "rejected"
	RunFailed   Verdict = "run failed"
	AfterTheEnd Verdict = "after the end"
)

// recordFrame adds msg's event to the run's frames.
func recordFrame(m Model, msg ReceivedEvent, v Verdict) Model {
	seq := 1
	if n := len(m.Frames); n > 0 {
		seq = m.Frames[n-1].Seq + 1
	}
	text := msg.JSON
	if len(text) > maxFrameBytes {
		text = text[:maxFrameBytes]
	}
	f := Frame{Seq: seq, At: msg.At, Type: string(msg.Event.Type()), Size: len(msg.JSON), Verdict: v, JSON: string(text)}
	m.Frames = appendBounded(m.Frames, f, MaxFrames)
	return m
}
