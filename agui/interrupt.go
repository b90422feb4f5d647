package agui

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Interrupts and resume (basic/patterns/interrupt-resume): a run that
// needs outside input ends with the interrupt outcome; the run that
// continues it carries one resume entry per interrupt. The consumer holds
// the interrupts and assembles the list, so the coverage rule is its to
// enforce, before anything is sent (Pending.Check, Pending.Resume); a
// server can run the same check on an input it receives.

// Interrupt is one thing an interrupted run waits for.
type Interrupt struct {
	ID             string
	Reason         string // an open string: "confirmation", "approval", …
	Message        string // a prompt for whoever answers; "" when none
	ToolCallID     string // the tool call an approval concerns; "" when none
	SubagentRunID  string // the subagent that raised it; "" for the agent
	ResponseSchema []byte // the answer's expected shape, a JSON object; nil when none
	ExpiresAt      string // as sent: the spec leaves its format open; "" when none
	Metadata       []byte // a JSON object; nil when none
}

// Expired is this consumer's reading of expiresAt (the spec leaves it to
// the consumer): an RFC 3339 date-time at or before now. An interrupt
// without one, or with one that is not such a date, never expires.
func (i Interrupt) Expired(now time.Time) bool {
	at, ok := i.Expiry()
	return ok && !now.Before(at)
}

// Expiry is expiresAt read as an RFC 3339 date-time; ok is false when
// there is none or it is not one.
func (i Interrupt) Expiry() (time.Time, bool) {
	at, err := time.Parse(time.RFC3339Nano, strings.ToUpper(i.ExpiresAt)) // RFC 3339 allows "t" and "z"; Go reads only "T" and "Z"
	return at, err == nil
}

// Approval is the name of the one boolean its responseSchema asks for
// ({"type":"object","properties":{"approved":{"type":"boolean"}}}), when
// that is all it asks: an answer a yes/no pair of buttons can give.
func (i Interrupt) Approval() (string, bool) {
	v, err := jsonpatch.Decode(i.ResponseSchema)
	schema, isObject := v.(*jsonpatch.Object)
	if err != nil || !isObject {
		return "", false
	}
	if t, _ := schema.Get("type"); t != "object" {
		return "", false
	}
	props, _ := schema.Get("properties")
	p, ok := props.(*jsonpatch.Object)
	if !ok || len(p.Names()) != 1 {
		return "", false
	}
	name := p.Names()[0]
	field, _ := p.Get(name)
	f, ok := field.(*jsonpatch.Object)
	if !ok {
		return "", false
	}
	if t, _ := f.Get("type"); t != "boolean" {
		return "", false
	}
	return name, true
}

// readInterrupt reads an Interrupt the schema already checked.
func readInterrupt(o *jsonpatch.Object) Interrupt {
	text := func(name string) string { v, _ := o.Get(name); s, _ := v.(string); return s }
	raw := func(name string) []byte {
		if v, ok := o.Get(name); ok {
			return jsonpatch.Encode(v)
		}
		return nil
	}
	return Interrupt{
		ID: text("id"), Reason: text("reason"), Message: text("message"), ToolCallID: text("toolCallId"),
		SubagentRunID: text("subagentRunId"), ResponseSchema: raw("responseSchema"), ExpiresAt: text("expiresAt"),
		Metadata: raw("metadata"),
	}
}

// duplicateInterrupt is the first id two interrupts share, or "".
func duplicateInterrupt(list []Interrupt) string {
	seen := make(map[string]bool, len(list))
	for _, i := range list {
		if seen[i.ID] {
			return i.ID
		}
		seen[i.ID] = true
	}
	return ""
}

// Pending is what an interrupted run left open on its thread: the
// interrupts the run that continues it must answer, every one.
type Pending struct {
	ThreadID   string
	RunID      string // the interrupted run; "" when not known (a server that kept nothing)
	Interrupts []Interrupt
}

// Pending is what the stream's last run left open, when it ended with
// the interrupt outcome (and no late RUN_ERROR); ok is false otherwise.
func (c *Consumer) Pending() (Pending, bool) {
	if c.rejected != nil || len(c.runs) == 0 {
		return Pending{}, false
	}
	last := c.runs[len(c.runs)-1]
	if last.Phase != Finished || last.Outcome.Kind != OutcomeInterrupt {
		return Pending{}, false
	}
	return Pending{ThreadID: last.ThreadID, RunID: last.RunID, Interrupts: last.Outcome.Interrupts}, true
}

// ResumeStatus says whether a resume entry answers its interrupt or
// abandons it.
type ResumeStatus string

const (
	Resolved  ResumeStatus = "resolved"  // the payload answers the interrupt
	Abandoned ResumeStatus = "cancelled" // the wire's word: the interrupt is given up, not answered
)

// Answer is one resume entry (the schema's ResumeEntry): the interrupt it
// answers, how, and the answer itself.
type Answer struct {
	InterruptID string
	Status      ResumeStatus
	Payload     []byte // any JSON value but null; nil for none
	Metadata    []byte // a JSON object about the answer, not part of it; nil for none
}

// ResumeError is a resume list the coverage rules refuse: the member at
// fault (a JSON Pointer without its leading slash: "resume/0/status",
// "resume" for the list, "threadId") and why.
type ResumeError struct {
	Field  string
	Reason string
}

// Error is the member at fault and why.
func (e *ResumeError) Error() string { return e.Field + ": " + e.Reason }

// Check judges an input that continues p's run, as a consumer must before
// sending it and a server may on receiving it: the same thread; every
// entry naming one of p's interrupts, once; no expired interrupt resolved
// (it can only be abandoned); and every interrupt covered — omission is
// not abandonment. The first fault found is returned, as a *ResumeError.
func (p Pending) Check(in Input, now time.Time) error {
	if in.ThreadID != p.ThreadID {
		return &ResumeError{"threadId", fmt.Sprintf("the interrupts are open on thread %q, not %q: a resume keeps its thread", bound(p.ThreadID), bound(in.ThreadID))}
	}
	answers := in.Answers()
	open := make(map[string]Interrupt, len(p.Interrupts))
	for _, i := range p.Interrupts {
		open[i.ID] = i
	}
	answered := make(map[string]bool, len(answers))
	for n, a := range answers {
		at := fmt.Sprintf("resume/%d", n)
		i, known := open[a.InterruptID]
		switch {
		case !known:
			return &ResumeError{at + "/interruptId", fmt.Sprintf("%s raised no interrupt %q", p.run(), bound(a.InterruptID))}
		case answered[a.InterruptID]:
			return &ResumeError{at + "/interruptId", fmt.Sprintf("interrupt %q is answered twice", bound(a.InterruptID))}
		case a.Status == Resolved && i.Expired(now):
			return &ResumeError{at + "/status", fmt.Sprintf("interrupt %q expired at %s: it can only be cancelled", bound(a.InterruptID), bound(i.ExpiresAt))}
		}
		answered[a.InterruptID] = true
	}
	var missing []string
	left := 0
	for _, i := range p.Interrupts {
		if answered[i.ID] {
			continue
		}
		if left++; len(missing) < 5 { // a reason stays short, however many are left out
			missing = append(missing, fmt.Sprintf("%q", bound(i.ID)))
		}
	}
	if left > len(missing) {
		missing = append(missing, fmt.Sprintf("and %d more", left-len(missing)))
	}
	if len(missing) > 0 {
		return &ResumeError{"resume", fmt.Sprintf("interrupt %s of %s has no entry: every interrupt must be answered or cancelled", strings.Join(missing, ", "), p.run())}
	}
	return nil
}

// run names the interrupted run in a reason.
func (p Pending) run() string {
	if p.RunID == "" {
		return "the interrupted run"
	}
	return fmt.Sprintf("run %q", bound(p.RunID))
}

// Resume is the input of the run that continues p's: base (its thread,
// messages, state, tools, …) with runID as its run id and answers as its
// resume list, checked (Check) before anything is sent.
func (p Pending) Resume(base Input, runID string, answers []Answer, now time.Time) (Input, error) {
	if base.members == nil {
		return Input{}, fmt.Errorf("no run input to resume from")
	}
	entries := make([]jsonpatch.Value, len(answers))
	for n, a := range answers {
		names, values := []string{"interruptId", "status"}, []jsonpatch.Value{a.InterruptID, string(a.Status)}
		for _, extra := range []struct {
			name string
			raw  []byte
		}{{"payload", a.Payload}, {"metadata", a.Metadata}} {
			if extra.raw == nil {
				continue
			}
			v, err := jsonpatch.Decode(extra.raw)
			if err != nil {
				return Input{}, &ResumeError{fmt.Sprintf("resume/%d/%s", n, extra.name), err.Error()}
			}
			names, values = append(names, extra.name), append(values, v)
		}
		entries[n] = jsonpatch.NewObject(names, values)
	}
	v := set(set(base.object(), "runId", runID), "resume", jsonpatch.NewArray(entries))
	in, _, err := ReadInput(jsonpatch.Encode(v))
	if err != nil {
		return Input{}, err
	}
	return in, p.Check(in, now)
}

// Answers are the input's resume list; nil when it has none. Its
// entries are shared with the input: change a copy.
func (in Input) Answers() []Answer { return in.answers }

// readAnswers reads the resume list of an input the schema has checked.
func (in Input) readAnswers() []Answer {
	list, ok := in.get("resume").(*jsonpatch.Array)
	if !ok {
		return nil
	}
	out := make([]Answer, 0, list.Len())
	for _, item := range list.Items() {
		o := item.(*jsonpatch.Object)
		id, _ := o.Get("interruptId")
		status, _ := o.Get("status")
		a := Answer{InterruptID: id.(string), Status: ResumeStatus(status.(string))}
		if v, ok := o.Get("payload"); ok {
			a.Payload = jsonpatch.Encode(v)
		}
		if v, ok := o.Get("metadata"); ok {
			a.Metadata = jsonpatch.Encode(v)
		}
		out = append(out, a)
	}
	return out
}

// Declines reports whether the answer lets the tool call an interrupt
// concerns go unexecuted, so that no result for it is owed: the interrupt
// cancelled ("the user abandoned without providing meaningful input"), or
// resolved with a denial, which the interrupts page puts "inside the
// payload (for example, { approved: false })", not in the status
// (docs.ag-ui.com/concepts/interrupts, "Resuming a run";
// basic/patterns/interrupt-resume). A denial is the approval field
// (Interrupt.Approval), or else "approved", set to false.
func (a Answer) Declines(i Interrupt) bool {
	if a.Status == Abandoned {
		return true
	}
	v, err := jsonpatch.Decode(a.Payload)
	payload, isObject := v.(*jsonpatch.Object)
	if err != nil || !isObject {
		return false
	}
	field, ok := i.Approval()
	if !ok {
		field = "approved"
	}
	yes, _ := payload.Get(field)
	return yes == false
}

// Approve is the resolved answer to an approval (Interrupt.Approval):
// {field: yes} as its payload.
func Approve(i Interrupt, field string, yes bool) Answer {
	var b bytes.Buffer
	b.WriteByte('{')
	b.Write(jsonpatch.Encode(field))
	fmt.Fprintf(&b, ":%t}", yes)
	return Answer{InterruptID: i.ID, Status: Resolved, Payload: b.Bytes()}
}
