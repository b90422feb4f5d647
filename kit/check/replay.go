// Package check replays AG-UI scripts through the 1.x consumer engine and
// compares what it ends with to what the script expects: the
// conformance corpus's "expect", or, for a script that says nothing, that
// the stream is valid AG-UI. It judges live runs of an agent too
// (Live, on what package agent measured), and reports either as lines,
// JSON or JUnit XML, every failure named by its rule.
package check

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Replay is what a consumer ended with after a whole script.
type Replay struct {
	Delivered []agui.Event // every event application code received, in order
	Violation *agui.Violation
	Truncated string // why the stream is truncated, or ""
	Runs      []agui.Run
	Warnings  []agui.Warning
	State     jsonpatch.Value
	Messages  []jsonpatch.Value
	Request   jsonpatch.Value // the RunAgentInput the consumer would send; nil if it could not
	InputErr  error           // why the script's input is unusable
	// Pending is what the stream's last run left open, when it ended
	// with the interrupt outcome; nil otherwise.
	Pending *agui.Pending
}

// Accepted reports whether the consumer consumed the stream: no rule
// broken, and every run ended.
func (r Replay) Accepted() bool { return r.Violation == nil && r.Truncated == "" && r.InputErr == nil }

// Run replays a script's events through a fresh consumer.
func Run(s script.Script) Replay {
	in, requestIn, warnings, err := inputs(s)
	if err != nil {
		return Replay{Warnings: warnings, InputErr: err}
	}
	return replay(s, in, requestIn, warnings, agui.Options{Peer: s.Peer, Speak: speaks(s)})
}

// replay replays s's events through a consumer judging them against in;
// sent is the input it would send.
func replay(s script.Script, in, sent agui.Input, warnings []agui.Warning, opts agui.Options) Replay {
	r := Replay{Warnings: warnings}
	if body, ws, err := sent.RequestAs(opts.Speak, s.Peer); err == nil {
		r.Request, _ = jsonpatch.Decode(body)
		r.Warnings = append(r.Warnings, ws...)
	}
	c, err := agui.NewConsumer(in, opts)
	if err != nil {
		r.InputErr = err
		return r
	}
	for _, data := range s.Events() {
		j := c.Feed(data)
		r.Delivered = append(r.Delivered, j.Events...)
		r.Warnings = append(r.Warnings, j.Warnings...)
		if j.Violation != nil {
			r.Violation = j.Violation
			break
		}
	}
	r.Truncated = c.End()
	r.Runs = c.Runs()
	r.State = c.State().(agui.JSONState).Value()
	r.Messages = c.Messages()
	if p, ok := c.Pending(); ok {
		r.Pending = &p
	}
	return r
}

// speaks is the version the consumer speaks for a script: 1.0 for one
// written against the 1.0 spec (its "specPage" under /spec/1.0), which
// expects a 1.0 consumer's declarations and warnings; Current otherwise.
func speaks(s script.Script) agui.Version {
	var page string
	if json.Unmarshal(s.Extra["specPage"], &page) == nil && (page == "/spec/1.0" || strings.HasPrefix(page, "/spec/1.0/")) {
		return agui.V1_0
	}
	return agui.Current
}

// inputs are the run input the consumer judges the stream against, and
// the one it would send. A script's input may leave out the ids: the
// consumer then accepts any run (it did not make the request), and the
// request takes the ids of the stream's first RUN_STARTED.
func inputs(s script.Script) (judged, sent agui.Input, warnings []agui.Warning, err error) {
	given := map[string]json.RawMessage{}
	if s.Input != nil {
		if err := json.Unmarshal(s.Input, &given); err != nil {
			return judged, sent, nil, fmt.Errorf("input: %v", err)
		}
	}
	full := map[string]json.RawMessage{"messages": json.RawMessage("[]")}
	for k, v := range given {
		full[k] = v
	}
	thread, run := firstRun(s)
	for name, id := range map[string]string{"threadId": thread, "runId": run} {
		if _, ok := full[name]; !ok {
			full[name], _ = json.Marshal(id)
		}
	}
	data, _ := json.Marshal(full)
	sent, warnings, err = agui.ReadInput(data)
	if err != nil {
		return judged, sent, warnings, fmt.Errorf("input: %v", err)
	}
	judged = sent
	if _, ok := given["threadId"]; !ok {
		judged.ThreadID = ""
	}
	if _, ok := given["runId"]; !ok {
		judged.RunID = ""
	}
	return judged, sent, warnings, nil
}

// firstRun is the thread and run id of the script's first RUN_STARTED.
func firstRun(s script.Script) (thread, run string) {
	for _, data := range s.Events() {
		var ev struct{ Type, ThreadID, RunID string }
		if json.Unmarshal(data, &ev) == nil && ev.Type == "RUN_STARTED" {
			return ev.ThreadID, ev.RunID
		}
	}
	return "thread", "run"
}
