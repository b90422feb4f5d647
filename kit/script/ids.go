package script

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// A script replays under any request's ids: the run it was made for (the
// requested run) takes the request's run id, and its thread the request's
// thread id, wherever an id of that kind sits (idpaths.go: an event's
// runId and parentRunId, RUN_STARTED's input), so that a recorded stream
// plays for any client with its links kept. Other runs keep their own ids
// (a replayed run carries its own), and so does a thread that is not the
// script's.

// idValue is where a thread or run id's JSON string sits in an event, or
// an interrupt id in a RUN_FINISHED's outcome (bound, see BindInterrupt).
type idValue struct {
	ID
	text string // its value
}

// readEvent reads an event's type, exactly as written, and where its
// thread and run ids are (none for an event that is not even JSON:
// scripts may hold anything).
func readEvent(event []byte) (kind string, ids []idValue) {
	kind = typeOf(event)
	err := EachID(event, func(id ID) {
		raised := id.Kind == InterruptKind && id.Depth > 1 && kind == "RUN_FINISHED"
		if id.Kind != ThreadKind && id.Kind != RunKind && !raised {
			return
		}
		if text, err := jsontext.AppendUnquote(nil, event[id.Start:id.End]); err == nil { // one not UTF-8 is never the request's
			ids = append(ids, idValue{id, string(text)})
		}
	})
	if err != nil {
		return kind, nil
	}
	return kind, ids
}

// TypeOf is an event's "type" as written, or "" when it has no string one.
func TypeOf(event []byte) string { return typeOf(event) }

// typeOf is an event's "type" as written, or "" when it has no string one.
func typeOf(event []byte) (kind string) {
	kind, _ = stringMember(event, "type")
	return kind
}

// stringMember is a JSON object's member of this name (exactly), when it
// is a string; ok is false when the object has no such member, or data is
// not an object.
func stringMember(data []byte, name string) (value string, ok bool) {
	dec := jsonpatch.NewReader(data)
	defer dec.Close()
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return "", false
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return value, ok
		}
		named := tok.String() == name // compared only: not allocated
		raw, err := dec.ReadValue()
		if err != nil {
			return value, ok
		}
		if named && raw.Kind() == '"' {
			text, _ := jsontext.AppendUnquote(nil, raw)
			value, ok = string(text), true
		}
	}
	return value, ok
}

// RunIDs are a RUN_STARTED's or RUN_FINISHED's threadId and runId as
// written; "" for any other frame.
func (st Frame) RunIDs() (thread, run string) {
	if st.Type != "RUN_STARTED" && st.Type != "RUN_FINISHED" {
		return "", ""
	}
	for _, id := range st.ids {
		switch {
		case id.Depth != 1:
		case id.Name == "threadId":
			thread = id.text
		case id.Name == "runId":
			run = id.text
		}
	}
	return thread, run
}

// Requested is the run the script was made for: its input's ids, or else
// the last RUN_STARTED's.
func (s Script) Requested() (thread, run string) {
	thread, hasThread := stringMember(s.Input, "threadId")
	run, hasRun := stringMember(s.Input, "runId")
	if hasThread && hasRun {
		return thread, run
	}
	thread, run = "", ""
	for _, st := range s.Frames {
		if st.Type == "RUN_STARTED" {
			thread, run = st.RunIDs()
		}
	}
	return thread, run
}

// ForRequest is the script's frames as a request of these ids receives
// them: when the script has continuations, with its interrupts bound to
// the request's thread (BindInterrupt).
func (s Script) ForRequest(threadID, runID string) []Frame {
	fromThread, fromRun := s.Requested()
	return renamed(s.Frames, fromThread, fromRun, threadID, runID, len(s.Continuations) > 0)
}

// Continue is a continuation's frames as the request that resumes the
// script's run receives them: its run (the last it starts) takes the
// request's run id, the script's thread the request's thread id.
func (s Script) Continue(c Continuation, threadID, runID string) []Frame {
	fromThread, _ := s.Requested()
	fromRun := ""
	for _, st := range c.Frames {
		if st.Type == "RUN_STARTED" {
			_, fromRun = st.RunIDs()
		}
	}
	return renamed(c.Frames, fromThread, fromRun, threadID, runID, false)
}

// renamed is frames with the ids from* replaced by the request's, and, if
// bind, the interrupts that the requested run's RUN_FINISHED raises bound
// to the request's thread.
func renamed(frames []Frame, fromThread, fromRun, threadID, runID string, bind bool) []Frame {
	out := make([]Frame, len(frames))
	for i, st := range frames {
		out[i] = st
		_, finishes := st.RunIDs()
		raises := bind && st.Type == "RUN_FINISHED" && finishes == fromRun
		var b []byte
		var ids []idValue
		at := 0
		for _, id := range st.ids {
			to := ""
			switch {
			case id.Kind == ThreadKind && id.text == fromThread:
				to = threadID
			case id.Kind == RunKind && id.text == fromRun:
				to = runID
			case id.Kind == InterruptKind && raises:
				to = BindInterrupt(id.text, threadID)
			default:
				ids = append(ids, id) // moved by what was replaced before it
				ids[len(ids)-1].Start, ids[len(ids)-1].End = id.Start+len(b)-at, id.End+len(b)-at
				continue
			}
			b = append(b, st.Event[at:id.Start]...)
			at = id.End
			id.Start = len(b)
			b, _ = jsontext.AppendQuote(b, to)
			id.End, id.text = len(b), to
			ids = append(ids, id)
		}
		if b != nil {
			out[i].Event = append(b, st.Event[at:]...)
			out[i].ids = ids
		}
	}
	return out
}
