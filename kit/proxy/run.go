package proxy

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/kit/rules"
)

// Run is one run that passed the proxy, judged.
type Run struct {
	Method, Path     string // the request's; the query is never kept
	ThreadID, RunID  string // the input's; "" when it could not be read
	Status           int    // the upstream's answer; 0 when none came
	ContentType      string
	Events, Comments int
	Bytes            int64           // of the answer's body, passed to the client
	Answered         time.Duration   // from the request to the answer's headers
	LongestGap       time.Duration   // the longest time no byte came, from the headers to the end
	Took             time.Duration   // from the request to the stream's end
	Failures         []rules.Failure // empty when the run is OK
	// Cancelled says how the client cancelled the run, leaving before
	// the stream ended, as a user pressing Stop does: no rule is broken,
	// and the rest of the stream goes unjudged. "" when it did not.
	Cancelled string
	Notes     []string // warnings and the like: never a failure
	Logged    string   // the script file the run was written to; "" when none

	sent []byte // the input, for the log
}

// OK reports whether the run broke no rule.
func (r Run) OK() bool { return len(r.Failures) == 0 }

// Name is how a report calls the run: its thread and run, or its request.
func (r Run) Name() string {
	if r.ThreadID == "" && r.RunID == "" {
		return r.Method + " " + r.Path
	}
	return fmt.Sprintf("thread %s run %s", r.ThreadID, r.RunID)
}

// Lines are the run as the proxy prints it: "ok   thread t1 run r1 · 6
// events", or "FAIL thread t1 run r1: rule at event N: why" and a line per
// further failure, each with its page; with verbose, the notes too.
func (r Run) Lines(verbose bool) []string {
	var out []string
	switch {
	case r.OK() && r.Cancelled != "":
		out = append(out, fmt.Sprintf("ok   %s · %s · %s", r.Name(), r.Cancelled, r.measures()))
	case r.OK():
		out = append(out, fmt.Sprintf("ok   %s · %s", r.Name(), r.measures()))
	default:
		out = append(out, fmt.Sprintf("FAIL %s: %s", r.Name(), r.Failures[0].Line()))
		for _, f := range r.Failures[1:] {
			out = append(out, "     and "+f.Line())
		}
		if r.Cancelled != "" {
			out = append(out, "     "+r.Cancelled)
		}
		out = append(out, "     "+r.measures())
	}
	if r.Logged != "" {
		out = append(out, "     logged to "+r.Logged)
	}
	if verbose {
		for _, n := range r.Notes {
			out = append(out, "     note: "+n)
		}
	}
	return out
}

func (r Run) measures() string {
	if r.Status == 0 {
		return fmt.Sprintf("no answer · %s", round(r.Took))
	}
	s := fmt.Sprintf("%d events", r.Events)
	if r.Comments > 0 {
		s += fmt.Sprintf(" · %d comments", r.Comments)
	}
	ct := r.ContentType
	if ct == "" {
		ct = "no content type"
	}
	return fmt.Sprintf("%s · %d %s · answered in %s · longest silence %s · %s",
		s, r.Status, ct, round(r.Answered), round(r.LongestGap), round(r.Took))
}

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(100 * time.Microsecond)
}

// Summary counts the runs judged.
type Summary struct {
	Runs, Failed int
	Cancelled    int            // runs their client cancelled
	Rules        map[string]int // failures by rule
}

func (p *Proxy) count(r Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.summary.Runs++
	if !r.OK() {
		p.summary.Failed++
	}
	if r.Cancelled != "" {
		p.summary.Cancelled++
	}
	if p.summary.Rules == nil {
		p.summary.Rules = map[string]int{}
	}
	for _, f := range r.Failures {
		p.summary.Rules[f.Rule]++
	}
}

// String is the summary in one line: "3 runs: 2 ok, 1 failed (after-finish ×1)".
func (s Summary) String() string {
	noun := "runs"
	if s.Runs == 1 {
		noun = "run"
	}
	out := fmt.Sprintf("%d %s: %d ok, %d failed", s.Runs, noun, s.Runs-s.Failed, s.Failed)
	if s.Cancelled > 0 {
		out += fmt.Sprintf(", %d cancelled by the client", s.Cancelled)
	}
	if len(s.Rules) > 0 {
		var rules []string
		for _, rule := range slices.Sorted(maps.Keys(s.Rules)) {
			rules = append(rules, fmt.Sprintf("%s ×%d", rule, s.Rules[rule]))
		}
		out += " (" + strings.Join(rules, ", ") + ")"
	}
	return out
}
