package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Answering an interrupted run (basic/patterns/interrupt-resume): the run
// that continues it is posted on the same thread, under a new run id,
// with the first run's final state and conversation and one resume entry
// per interrupt. The engine builds and checks the list
// (agui.Pending.Resume): one it refuses is never sent.

// Answer is how interrupts are answered: approve or reject every approval
// (an interrupt whose responseSchema asks one boolean), cancelling the
// rest; cancel every interrupt; or the entries of a file, as written.
type Answer struct {
	Name    string // what a report calls the resumed run: "approved", "rejected", "cancelled", or the file's base name
	how     string // "approve", "reject", "cancel", or "" for a file's entries
	entries []agui.Answer
}

// ParseAnswer reads what -answer says: approve, reject, cancel, or the
// path of a JSON file holding an array of resume entries (ReadAnswers).
func ParseAnswer(value string) (Answer, error) {
	switch value {
	case "approve":
		return Answer{Name: "approved", how: value}, nil
	case "reject":
		return Answer{Name: "rejected", how: value}, nil
	case "cancel":
		return Answer{Name: "cancelled", how: value}, nil
	}
	if _, err := os.Stat(value); errors.Is(err, fs.ErrNotExist) || value == "" {
		return Answer{}, errors.New("it is approve, reject, cancel, or a JSON file of resume entries, and no such file exists")
	}
	data, err := script.ReadBounded(value, "a resume list")
	if err != nil {
		return Answer{}, err
	}
	entries, err := ReadAnswers(data)
	if err != nil {
		return Answer{}, fmt.Errorf("%s: %w", value, err)
	}
	return Answer{Name: script.BaseName(value), entries: entries}, nil
}

// To is the resume list answering p's interrupts.
func (a Answer) To(p agui.Pending) []agui.Answer {
	if a.how == "" {
		return a.entries
	}
	out := make([]agui.Answer, len(p.Interrupts))
	for n, i := range p.Interrupts {
		out[n] = agui.Answer{InterruptID: i.ID, Status: agui.Abandoned}
		if field, ok := i.Approval(); ok && a.how != "cancel" {
			out[n] = agui.Approve(i, field, a.how == "approve")
		}
	}
	return out
}

// ReadAnswers reads a JSON array of ResumeEntry objects exactly (as
// package script reads a file): each an interruptId, a status
// ("resolved" or "cancelled"), and optionally a payload (any JSON value
// but null) and metadata (an object), nothing else; payloads and
// metadata are kept as written, and must be JSON a request can carry
// (valid UTF-8, no name twice). The engine judges the list against the
// interrupts when it is sent. Errors say their line and column.
func ReadAnswers(data []byte) ([]agui.Answer, error) {
	d := script.Doc(data)
	body := bytes.TrimPrefix(data, []byte("\ufeff"))
	items, err := d.Array(body, len(data)-len(body), "a resume list")
	if err != nil {
		return nil, err
	}
	out := make([]agui.Answer, len(items))
	for n, it := range items {
		a, err := readEntry(d, it)
		if err != nil {
			err.Reason = fmt.Sprintf("entry %d: %s", n, err.Reason)
			return nil, err
		}
		out[n] = a
	}
	return out, nil
}

func readEntry(d script.Doc, it script.Item) (agui.Answer, *script.Error) {
	members, err := d.Object(it.Value, it.At, "a resume entry")
	if err != nil {
		return agui.Answer{}, err
	}
	if err := d.Only(members, "a resume entry", "interruptId", "status", "payload", "metadata"); err != nil {
		return agui.Answer{}, err
	}
	var a agui.Answer
	id, status := script.Find(members, "interruptId"), script.Find(members, "status")
	switch {
	case id == nil:
		return agui.Answer{}, d.ErrorAt(it.At, "interruptId is required")
	case status == nil:
		return agui.Answer{}, d.ErrorAt(it.At, "status is required")
	}
	if a.InterruptID, err = d.Text(*id); err != nil {
		return agui.Answer{}, err
	}
	text, err := d.Text(*status)
	if err != nil {
		return agui.Answer{}, err
	}
	if a.Status = agui.ResumeStatus(text); a.Status != agui.Resolved && a.Status != agui.Abandoned {
		return agui.Answer{}, d.ErrorAt(status.At, "status is %q, not %q or %q", text, agui.Resolved, agui.Abandoned)
	}
	if p := script.Find(members, "payload"); p != nil {
		if p.Value.Kind() == 'n' {
			return agui.Answer{}, d.ErrorAt(p.At, "payload must not be null: leave it out for none")
		}
		if err := d.Sendable(*p); err != nil {
			return agui.Answer{}, err
		}
		a.Payload = script.Compact(json.RawMessage(p.Value))
	}
	if m := script.Find(members, "metadata"); m != nil {
		if m.Value.Kind() != '{' {
			return agui.Answer{}, d.ErrorAt(m.At, "metadata must be an object")
		}
		if err := d.Sendable(*m); err != nil {
			return agui.Answer{}, err
		}
		a.Metadata = script.Compact(json.RawMessage(m.Value))
	}
	return a, nil
}

// EntryJSON is an answer as a resume list writes it.
func EntryJSON(a agui.Answer) []byte {
	b := []byte(`{"interruptId":`)
	b = append(b, jsonpatch.Encode(a.InterruptID)...)
	b = append(append(b, `,"status":`...), jsonpatch.Encode(string(a.Status))...)
	if a.Payload != nil {
		b = append(append(b, `,"payload":`...), a.Payload...)
	}
	if a.Metadata != nil {
		b = append(append(b, `,"metadata":`...), a.Metadata...)
	}
	return append(b, '}')
}

// NextInput is the input a run continuing another starts from: sent (the
// other's RunAgentInput) with the state and conversation the other ended
// with; Pending.Resume gives it its run id and resume list.
func NextInput(sent []byte, state jsonpatch.Value, messages []jsonpatch.Value) (agui.Input, error) {
	v, err := jsonpatch.Decode(sent)
	o, isObject := v.(*jsonpatch.Object)
	if err != nil || !isObject {
		return agui.Input{}, errors.New("the input sent is not a JSON object")
	}
	if messages == nil {
		messages = []jsonpatch.Value{}
	}
	replace := map[string]jsonpatch.Value{"state": state, "messages": jsonpatch.NewArray(messages)}
	var names []string
	var values []jsonpatch.Value
	for _, name := range o.Names() {
		w, _ := o.Get(name)
		if r, ok := replace[name]; ok {
			w = r
			delete(replace, name)
		}
		names, values = append(names, name), append(values, w)
	}
	for _, name := range []string{"state", "messages"} {
		if r, ok := replace[name]; ok {
			names, values = append(names, name), append(values, r)
		}
	}
	in, _, err := agui.ReadInput(jsonpatch.Encode(jsonpatch.NewObject(names, values)))
	return in, err
}

// Resumed is the run that answered an interrupted one.
type Resumed struct {
	Answers []agui.Answer // the resume list, as built
	// Refused is why the list was not sent: a *agui.ResumeError names
	// the member at fault. Exchange is then zero.
	Refused  error
	Exchange Exchange
}

// Resume asks for the run that continues ex, which r asked for and which
// ended interrupted (ex.Interrupted), answering as a says: the same
// thread, a fresh run id, ex's final state and conversation. The list is
// checked before anything is sent; the resumed run is judged as
// continuing ex (agui.Options.Continues).
func Resume(ctx context.Context, r Request, ex Exchange, a Answer) Resumed {
	if ex.Interrupted == nil {
		return Resumed{Refused: errors.New("the run did not end interrupted: there is nothing to answer")}
	}
	p := *ex.Interrupted
	out := Resumed{Answers: a.To(p)}
	if ex.nextErr != nil {
		out.Refused = fmt.Errorf("the run's final state and messages cannot be sent: %w", ex.nextErr)
		return out
	}
	in, err := p.Resume(ex.next, freshID("run"), out.Answers, time.Now())
	if err != nil {
		out.Refused = err
		return out
	}
	r.Input, r.Continues = in, p
	out.Exchange = Run(ctx, r)
	return out
}

// AfterStop asks for the run a client starts after its user pressed Stop
// on r's run: the same input on the same thread, under a fresh run id.
// An agent that still holds the thread busy, or refuses it, fails here.
func AfterStop(ctx context.Context, r Request) Exchange {
	body, _, err := r.Input.Request("")
	if err == nil {
		var in agui.Input
		if in, err = withRunID(body, freshID("run")); err == nil {
			r.Input, r.Stop = in, nil
			return Run(ctx, r)
		}
	}
	return Exchange{Failures: []rules.Failure{{Rule: rules.Input, Text: "the run after the stop cannot be asked for: " + err.Error()}}}
}

// withRunID is the input sent as body, under another run id.
func withRunID(body []byte, runID string) (agui.Input, error) {
	o, _, ok := jsonpatch.DecodeObject(body)
	if !ok {
		return agui.Input{}, errors.New("the input sent is not a JSON object")
	}
	names, values := o.Names(), valuesOf(o)
	for i, n := range names {
		if n == "runId" {
			values[i] = runID
		}
	}
	in, _, err := agui.ReadInput(jsonpatch.Encode(jsonpatch.NewObject(names, values)))
	return in, err
}
