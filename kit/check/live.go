package check

import (
	"fmt"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/agent"
)

// Live judges one run of a live agent (agent.Run): what failed at the
// transport, then the engine's verdict on the stream. Its warnings and
// what the transport noticed are notes, never failures.
func Live(name string, ex agent.Exchange) Result {
	transport := ex.Transport
	res := Result{Name: name, Transport: &transport}
	res.Failures = append(res.Failures, ex.Failures...)
	if ex.Violation != nil {
		res.Failures = append(res.Failures, *violation(ex.Violation))
	}
	if ex.Truncated != "" {
		res.Failures = append(res.Failures, rules.Failure{Rule: rules.Truncated, Text: ex.Truncated})
	}
	res.warned(ex.Warnings)
	res.Notes = append(res.Notes, ex.Notes...)
	if ex.Interrupted != nil {
		res.Interrupted = Waiting(*ex.Interrupted)
	}
	res.Errored = errored(ex.Runs)
	if s := ex.Stopped; s != nil {
		res.Stopped = fmt.Sprintf("stopped after %d events, as a user pressing Stop", s.Events)
		if len(s.Types) > 0 {
			res.Stopped += ": " + strings.Join(s.Types, ", ")
			if s.Events > len(s.Types) {
				res.Stopped += ", …"
			}
		}
	}
	res.OK = len(res.Failures) == 0
	return res
}

// warned notes the engine's warnings, and keeps them as the failures
// -strict makes them.
func (res *Result) warned(warnings []agui.Warning) {
	for _, w := range warnings {
		res.Notes = append(res.Notes, fmt.Sprintf("warning (%s): %s", w.Rule.ID(), w.Text))
		res.Warnings = append(res.Warnings, rules.Failure{Rule: w.Rule.ID(), Text: w.Text + " (a warning: -strict fails it)", Event: w.Index + 1})
	}
}

// Strict fails every result the engine warned about, by the warning's
// rule (check -strict). A result compared with its "expect" has no
// warnings of its own here: the expect says which it wants.
func Strict(results []Result) []Result {
	out := make([]Result, len(results))
	for i, r := range results {
		if len(r.Warnings) > 0 {
			r.Failures = append(append([]rules.Failure(nil), r.Failures...), r.Warnings...)
			r.OK = false
		}
		out[i] = r
	}
	return out
}

// errored says how the agent reported its last run failed, when it did:
// "the agent reported an error: RUN_ERROR \"overloaded\" (code 503)".
func errored(runs []agui.Run) string {
	if len(runs) == 0 || runs[len(runs)-1].Phase != agui.Errored {
		return ""
	}
	e := runs[len(runs)-1].Error
	s := fmt.Sprintf("the agent reported an error: RUN_ERROR %q", e.Message)
	if e.Code != "" {
		s += fmt.Sprintf(" (code %q)", e.Code)
	}
	if e.Late {
		s += ", after the run had finished"
	}
	return s
}
