package check

import (
	"fmt"

	"github.com/agent-analysis/agent-analysis/agent"
	"github.com/agent-analysis/agent-analysis/app/protocol"
)

// Live judges one run of a live agent (agent.Run): what failed at the
// transport, then the engine's verdict on the stream. Its warnings and
// what the transport noticed are notes, never failures.
func Live(name string, ex agent.Exchange) Result {
	transport := ex.Transport
	res := Result{Name: name, Transport: &transport}
	for _, f := range ex.Failures {
		res.Failures = append(res.Failures, Failure{Rule: f.Check, Text: f.Text})
	}
	if ex.Violation != nil {
		res.Failures = append(res.Failures, *violation(ex.Violation))
	}
	if ex.Truncated != "" {
		res.Failures = append(res.Failures, Failure{Rule: Truncated, Text: "truncated: " + ex.Truncated})
	}
	res.Notes = append(warningNotes(ex.Warnings), ex.Notes...)
	if ex.Interrupted != nil {
		res.Interrupted = Waiting(*ex.Interrupted)
	}
	res.OK = len(res.Failures) == 0
	return res
}

func warningNotes(warnings []protocol.Warning) []string {
	var notes []string
	for _, w := range warnings {
		notes = append(notes, fmt.Sprintf("warning (%s): %s", w.Rule.ID, w.Text))
	}
	return notes
}
