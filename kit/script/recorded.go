package script

import (
	"slices"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui"
)

// A recording's times are the agent's: an interrupt's expiresAt is a
// moment shortly after the recording was made. Replayed later as it
// stands, every such interrupt would have expired before it was raised,
// and its recorded resume would be refused. So a recording says when it
// was made (RecordedAt), and a replay keeps its times where they stood:
// a resume is judged at the moment the recorded stream ended (ResumeClock),
// and a server playing it moves every expiresAt on by the time since
// (ServedAt), so that a client has as long to answer as the recording's
// had. A script without RecordedAt means its times as written.

// ResumeClock is the moment a resume of s's interrupted run is judged at:
// for a recording, the moment its stream ended, when it was answered;
// for any other script, now.
func (s Script) ResumeClock(now time.Time) time.Time {
	if s.RecordedAt.IsZero() {
		return now
	}
	at := s.RecordedAt
	for _, f := range s.Frames {
		at = at.Add(f.After)
	}
	return at
}

// ServedAt is frames of s (ForRequest's, or Continue's) as they are
// played at now: for a recording, each RFC 3339 expiresAt of its runs'
// interrupts moved on by the whole seconds since RecordedAt; for any
// other script, as they are.
func (s Script) ServedAt(frames []Frame, now time.Time) []Frame {
	if s.RecordedAt.IsZero() {
		return frames
	}
	return shiftExpiries(frames, now.Sub(s.RecordedAt).Truncate(time.Second))
}

// Expires reports whether s is a recording with an interrupt that
// expires: one ServedAt changes.
func (s Script) Expires() bool {
	expiring := func(frames []Frame) bool {
		return slices.ContainsFunc(frames, func(f Frame) bool { _, found := shifted(f, 0); return found })
	}
	return !s.RecordedAt.IsZero() && (expiring(s.Frames) ||
		slices.ContainsFunc(s.Continuations, func(c Continuation) bool { return expiring(c.Frames) }))
}

// shiftExpiries is frames with their expiresAt moved on by by.
func shiftExpiries(frames []Frame, by time.Duration) []Frame {
	var out []Frame // a copy, once one changes
	for i, f := range frames {
		event, found := shifted(f, by)
		if !found {
			continue
		}
		if out == nil {
			out = slices.Clone(frames)
		}
		f.Event = event
		f.Type, f.ids = readEvent(event)
		out[i] = f
	}
	if out == nil {
		return frames
	}
	return out
}

// shifted is a RUN_FINISHED's event with each of its outcome's
// interrupts' expiresAt that reads as a date-time (agui.Interrupt.Expiry)
// moved on by by; found is false when it has none.
func shifted(f Frame, by time.Duration) (event []byte, found bool) {
	if f.Type != "RUN_FINISHED" {
		return f.Event, false
	}
	var out []byte
	at := 0
	_ = eachString(f.Event, expiryAt, func(v ID) {
		text, err := jsontext.AppendUnquote(nil, f.Event[v.Start:v.End])
		if err != nil {
			return
		}
		t, ok := agui.Interrupt{ExpiresAt: string(text)}.Expiry()
		if !ok {
			return
		}
		out = append(out, f.Event[at:v.Start]...)
		out, _ = jsontext.AppendQuote(out, t.Add(by).Format(time.RFC3339Nano))
		at = v.End
	})
	if out == nil {
		return f.Event, false
	}
	return append(out, f.Event[at:]...), true
}

// expiryAt is where an interrupt's expiresAt sits in a RUN_FINISHED.
func expiryAt(path []step) string {
	if matches(path, []string{"outcome", "interrupts", "*", "expiresAt"}) {
		return "expiresAt"
	}
	return ""
}
