package script

import (
	"bytes"
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"
)

// A script replays under any request's ids: the run it was made for (the
// requested run) takes the request's run id, and its thread the request's
// thread id, so that a recorded stream plays for any client. Other runs
// keep their own ids (a replayed run carries its own), and so does a
// thread that is not the script's.

// idValue is where an id's JSON string sits in a run event.
type idValue struct {
	name       string // threadId or runId
	start, end int    // its quoted value, within the event
	text       string // its value
}

// readEvent reads an event's type, exactly as written, and where a
// RUN_STARTED's or RUN_FINISHED's ids are (none for any other event, or
// one that is not even JSON: scripts may hold anything).
func readEvent(event []byte) (kind string, ids []idValue) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(event))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return "", nil
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return kind, nil
		}
		name := tok.String()
		start := int(dec.InputOffset())
		value, err := dec.ReadValue()
		if err != nil {
			return kind, nil
		}
		start += bytes.Index(event[start:], value)
		if value.Kind() != '"' {
			continue
		}
		text, _ := jsontext.AppendUnquote(nil, value)
		switch name {
		case "type":
			kind = string(text)
		case "threadId", "runId":
			ids = append(ids, idValue{name, start, start + len(value), string(text)})
		}
	}
	if kind != "RUN_STARTED" && kind != "RUN_FINISHED" {
		return kind, nil
	}
	return kind, ids
}

// RunIDs are a RUN_STARTED's or RUN_FINISHED's threadId and runId as
// written; "" for any other step.
func (st Step) RunIDs() (thread, run string) {
	for _, id := range st.ids {
		if id.name == "threadId" {
			thread = id.text
		} else {
			run = id.text
		}
	}
	return thread, run
}

// Requested is the run the script was made for: its input's ids, or else
// the last RUN_STARTED's.
func (s Script) Requested() (thread, run string) {
	var in struct{ ThreadID, RunID *string }
	if s.Input != nil && json.Unmarshal(s.Input, &in) == nil && in.ThreadID != nil && in.RunID != nil {
		return *in.ThreadID, *in.RunID
	}
	for _, st := range s.Steps {
		if st.Type == "RUN_STARTED" {
			thread, run = st.RunIDs()
		}
	}
	return thread, run
}

// ForRequest is the script's steps as a request of these ids receives
// them.
func (s Script) ForRequest(threadID, runID string) []Step {
	fromThread, fromRun := s.Requested()
	out := make([]Step, len(s.Steps))
	for i, st := range s.Steps {
		out[i] = st
		if len(st.ids) == 0 {
			continue
		}
		var b []byte
		at := 0
		for _, id := range st.ids {
			to := ""
			switch {
			case id.name == "threadId" && id.text == fromThread:
				to = threadID
			case id.name == "runId" && id.text == fromRun:
				to = runID
			default:
				continue
			}
			b = append(b, st.Event[at:id.start]...)
			b, _ = jsontext.AppendQuote(b, to)
			at = id.end
		}
		if b != nil {
			out[i].Event = append(b, st.Event[at:]...)
			out[i].Type, out[i].ids = readEvent(out[i].Event)
		}
	}
	return out
}
