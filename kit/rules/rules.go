// Package rules names every rule the test kit's verdicts cite, and where
// to read about each: the engine's rules (package agui), on the AG-UI
// spec page each follows, and the kit's own, which check what must hold
// before an event can be judged (the transport, a file) or how a run
// ended, on the spec page they rest on or else in the test kit's guide.
// check, record and proxy name failures by these ids in every report:
// their lines, JSON, JUnit and SARIF.
package rules

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui"
)

// The kit's own rules.
const (
	Input         = "input"          // a RunAgentInput that cannot be sent, or judged against
	Resume        = "resume"         // a resume list that does not answer the interrupts it must
	Unreachable   = "unreachable"    // the request could not be made
	Timeout       = "timeout"        // no answer, or no end, within the timeout
	Interrupted   = "interrupted"    // the tester stopped the run (Ctrl-C, a shutdown)
	HTTPStatus    = "http-status"    // not a 2xx answer
	ContentType   = "content-type"   // not an AG-UI event stream
	SSEFraming    = "sse-framing"    // an event a client would discard: the stream ended inside it
	BinaryFraming = "binary-framing" // a binary frame a client refuses: cut short, or longer than it reads
	StreamBroken  = "stream-broken"  // the connection broke where no run was left unended
	Truncated     = "truncated"      // the stream ended with a run active, or without the requested run
	TooLong       = "too-long"       // more than a script may hold (record)
	File          = "file"           // a file that cannot be read as a stream
	Expect        = "expect"         // a file's "expect" that cannot be read; expect.outcome, expect.state… disagree with it
	Stalled       = "client-stalled"
	Unjudged      = "unjudged" // bytes passed that the proxy could not judge
)

// Where the kit's rules are explained.
const (
	transports = "https://docs.ag-ui.com/spec/1.0/basic/transports"
	httpSSE    = "https://docs.ag-ui.com/spec/1.0/basic/transports/http-sse"
	runInput   = "https://docs.ag-ui.com/spec/1.0/basic/run-input"
	// Guide is the test kit's table of the rules it names itself.
	Guide = "https://github.com/agent-analysis/agent-analysis/blob/main/docs/test-kit.md#the-rules-the-kit-names"
)

// pages are the kit's rules with a page of their own in the spec.
var pages = map[string]string{
	Input:         runInput,
	Resume:        agui.InterruptIDs.URL(),
	HTTPStatus:    httpSSE,
	ContentType:   httpSSE,
	SSEFraming:    httpSSE,
	BinaryFraming: transports,
	Truncated:     transports,
	StreamBroken:  transports,
}

// kit lists the kit's own rules, for Known.
var kit = []string{Input, Resume, Unreachable, Timeout, Interrupted, HTTPStatus, ContentType, SSEFraming, BinaryFraming,
	StreamBroken, Truncated, TooLong, File, Expect, Stalled, Unjudged}

// Page is where to read about a rule: the engine's rule's spec page, the
// spec page a rule of the kit's rests on, or else the kit guide's table;
// "" for an id no one names.
func Page(id string) string {
	if r, ok := agui.RuleByID(id); ok {
		return r.URL()
	}
	if p, ok := pages[id]; ok {
		return p
	}
	if Known(id) {
		return Guide
	}
	return ""
}

// Kit lists the kit's own rules, the engine's aside.
func Kit() []string { return append([]string(nil), kit...) }

// Known reports whether id names a rule: the engine's, the kit's, or an
// expectation (expect.outcome, expect.state, …).
func Known(id string) bool {
	if _, ok := agui.RuleByID(id); ok {
		return true
	}
	for _, k := range kit {
		if id == k {
			return true
		}
	}
	return strings.HasPrefix(id, Expect+".")
}

// Failure is one way a run, a script or a file failed: the rule it broke,
// where, and what exactly was wrong. Text never repeats the rule or the
// event: String puts them in front.
type Failure struct {
	Rule  string
	Event int    // the event it is at, from 1, as the demo's Wire list numbers them; 0 when it is no one event's
	Field string // the input's member at fault (a JSON Pointer without its slash), for input and resume; "" otherwise
	Text  string
}

// String is the failure in one line, led by its rule:
// "after-finish at event 5: STATE_DELTA after run …".
func (f Failure) String() string {
	s := f.Rule
	if f.Event > 0 {
		s += " at event " + strconv.Itoa(f.Event)
	}
	return s + ": " + f.Text
}

// Page is where to read about the failure's rule (Page).
func (f Failure) Page() string { return Page(f.Rule) }

// Line is the failure as a report line gives it: String, then the rule's
// page in brackets.
func (f Failure) Line() string {
	if p := f.Page(); p != "" {
		return f.String() + " (" + p + ")"
	}
	return f.String()
}

// MarshalJSON writes the failure for machines, its page included.
func (f Failure) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Rule  string `json:"rule"`
		Event int    `json:"event,omitempty"`
		Field string `json:"field,omitempty"`
		Text  string `json:"text"`
		Page  string `json:"page,omitempty"`
	}{f.Rule, f.Event, f.Field, f.Text, f.Page()})
}
