package check

import (
	"github.com/agent-analysis/agent-analysis/kit/sarif"
)

// SARIF is every failure of the results as a SARIF result (check
// -sarif): its rule, the rule's spec page when it is an engine rule, the
// script's file (and the line its event starts on) or the live URL, and
// the event. A continuation's failure names the file, not a line: its
// events are counted in the continuation.
func SARIF(results []Result, lines func(path string, event int) int) []sarif.Result {
	var out []sarif.Result
	for _, r := range results {
		for _, f := range r.Failures {
			s := sarif.Result{RuleID: f.Rule, HelpURI: f.Page(), Message: r.Name + ": " + f.Text, Event: f.Event}
			switch {
			case r.Transport != nil:
				s.URI = r.Transport.URL
			case r.Path != "":
				s.URI = sarif.FileURI(r.Path)
			}
			if r.Path != "" && f.Event > 0 && lines != nil && r.Continues == "" { // a continuation's events are not the file's stream
				s.Line = lines(r.Path, f.Event)
			}
			out = append(out, s)
		}
	}
	return out
}
