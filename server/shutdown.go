package server

import (
	"encoding/json"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/script"
)

// closingEvent is what closes the run a stream was playing when the server
// shut down (events/lifecycle, "Cancelled runs"): RUN_FINISHED with the
// cancelled outcome when the run has nothing open, or RUN_ERROR when it
// cannot close in order; RUN_ERROR too when no run has begun ("a run can
// fail before it begins"). Nil when the last run already ended. sent is
// what the stream wrote so far.
func closingEvent(sent []script.Frame) []byte {
	var active *script.Frame
	open, events := 0, 0
	for _, st := range sent {
		if st.Event == nil {
			continue
		}
		events++
		switch t := st.Type; {
		case t == "RUN_STARTED":
			active, open = &st, 0
		case t == "RUN_FINISHED" || t == "RUN_ERROR":
			active, open = nil, 0
		case strings.HasSuffix(t, "_CHUNK"):
			open++ // a chunk stream may be open: it cannot be closed in order
		case strings.HasSuffix(t, "_START") || t == "STEP_STARTED" || t == "SUBAGENT_STARTED":
			open++
		case strings.HasSuffix(t, "_END") || t == "STEP_FINISHED" || t == "SUBAGENT_FINISHED" || t == "SUBAGENT_ERROR":
			open--
		}
	}
	switch {
	case events == 0:
		return []byte(`{"type":"RUN_ERROR","message":"The server shut down before the run began.","code":"SHUTDOWN"}`)
	case active == nil:
		return nil
	case open != 0:
		return []byte(`{"type":"RUN_ERROR","message":"The server shut down while the run had open messages, calls or steps.","code":"SHUTDOWN"}`)
	}
	thread, run := active.RunIDs()
	b, _ := json.Marshal(struct {
		Type     string            `json:"type"`
		ThreadID string            `json:"threadId"`
		RunID    string            `json:"runId"`
		Outcome  map[string]string `json:"outcome"`
	}{"RUN_FINISHED", thread, run, map[string]string{"type": "cancelled"}})
	return b
}
