package core

import (
	"time"
)

// Bounds of the arrival log (the page's disclosure labelled "Wire").
const (
	MaxArrivals     = 50
	maxArrivalBytes = 4 << 10 // of one event's JSON kept for people to read
)

// Arrival is one event the current run received, as the arrival log
// lists it: arrival order and time, type, size, what the client did with
// it, and what the engine warned about.
type Arrival struct {
	Seq      int           // 1 for the run's first event
	At       time.Duration // since the run's request went out
	Type     string        // as the event declared it
	Size     int           // bytes of the event's JSON
	Verdict  Verdict
	JSON     string   // the event as it arrived, cut at 4 KiB on a character boundary
	Warnings []string // what the engine removed or noticed
}

// Verdict is what the client did with an event.
type Verdict string

const (
	Applied     Verdict = "applied"       // it changed the state or the run
	Checked     Verdict = "checked"       // valid, and not shown: another family, a replayed run
	Dropped     Verdict = "dropped"       // unrecognised: not delivered at all
	Refused     Verdict = "refused"       // a state update the services refused: the run fails
	RunFailed   Verdict = "run failed"    // it broke a rule, or the agent reported a failure
	AfterTheEnd Verdict = "after the end" // it arrived after the run's connection closed
)

// arrive adds msg's event to the run's arrivals.
func arrive(m Model, msg Received, v Verdict) Model {
	seq := 1
	if n := len(m.Arrivals); n > 0 {
		seq = m.Arrivals[n-1].Seq + 1
	}
	text := msg.JSON
	if len(text) > maxArrivalBytes {
		text = text[:runeCut(text, maxArrivalBytes)]
	}
	a := Arrival{Seq: seq, At: msg.At, Type: string(msg.Judgement.Type), Size: len(msg.JSON), Verdict: v, JSON: string(text)}
	for _, w := range msg.Judgement.Warnings {
		a.Warnings = append(a.Warnings, Clip(w.Text))
	}
	m.Arrivals = appendBounded(m.Arrivals, a, MaxArrivals)
	return m
}
