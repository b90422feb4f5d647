package proxy

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
)

// The proxy's own rules, besides the engine's (agui.Rule.ID) and the
// transport checks check -url makes (package agent: http-status,
// content-type, sse-framing, unreachable, stream-broken, interrupted).
const (
	InputRule     = "input"          // the client's RunAgentInput is not a 1.0 one (agui.ReadInput)
	ResumeRule    = "resume"         // its resume list does not answer the thread's open interrupts (agui.Pending.Check)
	Truncated     = "truncated"      // the stream ended with a run active, or without the requested run
	ClientGone    = "client-gone"    // the client left before the stream ended
	ClientStalled = "client-stalled" // the client read nothing for the write timeout
	Unjudged      = "unjudged"       // the proxy could not judge the stream: the bytes passed regardless
)

// The spec pages of the proxy's rules that have one.
var (
	pageRunInput   = "https://docs.ag-ui.com/spec/1.0/basic/run-input"
	pageInterrupts = agui.InterruptIDs.URL()
	pageTransports = "https://docs.ag-ui.com/spec/1.0/basic/transports"
)

// Run is one run that passed the proxy, judged.
type Run struct {
	Method, Path     string // the request's; the query is never kept
	ThreadID, RunID  string // the input's; "" when it could not be read
	Status           int    // the upstream's answer; 0 when none came
	ContentType      string
	Events, Comments int
	Bytes            int64         // of the answer's body, passed to the client
	Answered         time.Duration // from the request to the answer's headers
	LongestGap       time.Duration // the longest time no byte came, from the headers to the end
	Took             time.Duration // from the request to the stream's end
	Failures         []Failure     // empty when the run is OK
	Notes            []string      // warnings and the like: never a failure
	Logged           string        // the script file the run was written to; "" when none

	sent []byte // the input, for the log
}

// Failure is one way a run failed.
type Failure struct {
	Rule  string // an engine rule id, a transport check (package agent) or the proxy's own
	Event int    // the event it happened at, from 1 as the page's Wire list numbers them; 0 when none
	Field string // the input's member at fault (a JSON Pointer without its slash), for input and resume
	Text  string
	Page  string // the spec page of the rule, when it has one
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

// String is the failure in one line: "after-finish at event 5: …".
func (f Failure) String() string {
	s := f.Rule
	if f.Event > 0 {
		s += fmt.Sprintf(" at event %d", f.Event)
	}
	return s + ": " + f.Text
}

// Lines are the run as the proxy prints it: "ok   thread t1 run r1 · 6
// events", or "FAIL thread t1 run r1: rule at event N: why" and a line per
// further failure, each with its page; with verbose, the notes too.
func (r Run) Lines(verbose bool) []string {
	var out []string
	if r.OK() {
		out = append(out, fmt.Sprintf("ok   %s · %s", r.Name(), r.measures()))
	} else {
		out = append(out, fmt.Sprintf("FAIL %s: %s%s", r.Name(), r.Failures[0], page(r.Failures[0])))
		for _, f := range r.Failures[1:] {
			out = append(out, fmt.Sprintf("     and %s%s", f, page(f)))
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

func page(f Failure) string {
	if f.Page == "" {
		return ""
	}
	return " (" + f.Page + ")"
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
	Rules        map[string]int // failures by rule
}

func (p *Proxy) count(r Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.summary.Runs++
	if !r.OK() {
		p.summary.Failed++
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
	if len(s.Rules) > 0 {
		var rules []string
		for _, rule := range slices.Sorted(maps.Keys(s.Rules)) {
			rules = append(rules, fmt.Sprintf("%s ×%d", rule, s.Rules[rule]))
		}
		out += " (" + strings.Join(rules, ", ") + ")"
	}
	return out
}
