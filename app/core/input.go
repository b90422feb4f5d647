package core

import (
	"encoding/json"

	"github.com/agent-analysis/agent-analysis/agui"
)

// Input is the AG-UI RunAgentInput of the run. A fresh run has no messages,
// tools or context, the empty services state, and the scenario in
// forwardedProps. A resumed run (run.Resume) is built from the same input
// with the thread's state and conversation, and the answers as its resume
// list, by the engine (Pending.Resume), which refuses an answer that does
// not cover every interrupt before anything is sent. The engine adds
// protocolVersion when it sends it.
func (run Run) Input() (agui.Input, error) {
	state, messages := NewWire(nil), json.RawMessage("[]")
	if r := run.Resume; r != nil {
		state = r.State
		if r.Messages != nil {
			messages = r.Messages
		}
	}
	data, err := json.Marshal(struct {
		ThreadID       string            `json:"threadId"`
		RunID          string            `json:"runId"`
		State          Wire              `json:"state"`
		Messages       json.RawMessage   `json:"messages"`
		Tools          []struct{}        `json:"tools"`
		Context        []struct{}        `json:"context"`
		ForwardedProps map[string]string `json:"forwardedProps"`
	}{run.ThreadID, run.RunID, state, messages, []struct{}{}, []struct{}{}, map[string]string{"scenario": run.Scenario}})
	if err != nil {
		return agui.Input{}, err
	}
	in, _, err := agui.ReadInput(data)
	if err != nil || run.Resume == nil {
		return in, err
	}
	return run.Resume.Pending.Resume(in, run.RunID, run.Resume.Answers, run.Resume.At)
}
