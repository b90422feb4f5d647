package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
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
	case "":
		return Answer{}, errors.New("approve, reject, cancel, or a JSON file of resume entries")
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

// entry is a ResumeEntry as a file or a script's "when" writes it.
type entry struct {
	InterruptID *string         `json:"interruptId"`
	Status      *string         `json:"status"`
	Payload     json.RawMessage `json:"payload"`
	Metadata    json.RawMessage `json:"metadata"`
}

// ReadAnswers reads a JSON array of ResumeEntry objects exactly: each an
// interruptId, a status ("resolved" or "cancelled"), and optionally a
// payload (any JSON value but null) and metadata (an object), nothing
// else; payloads and metadata are kept as written. The engine judges
// the list against the interrupts when it is sent.
func ReadAnswers(data []byte) ([]agui.Answer, error) {
	var raw []json.RawMessage
	if err := script.Decode(data, &raw); err != nil {
		return nil, fmt.Errorf("a resume list is a JSON array of entries: %w", err)
	}
	if raw == nil {
		return nil, errors.New("a resume list is a JSON array of entries, not null")
	}
	out := make([]agui.Answer, len(raw))
	for n, item := range raw {
		a, err := readEntry(item)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", n, err)
		}
		out[n] = a
	}
	return out, nil
}

func readEntry(item json.RawMessage) (agui.Answer, error) {
	var e entry
	dec := json.NewDecoder(bytes.NewReader(item))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return agui.Answer{}, fmt.Errorf("a resume entry is {\"interruptId\", \"status\", \"payload\", \"metadata\"}: %v", err)
	}
	switch {
	case e.InterruptID == nil:
		return agui.Answer{}, errors.New("interruptId is required")
	case e.Status == nil:
		return agui.Answer{}, errors.New("status is required")
	case *e.Status != string(agui.Resolved) && *e.Status != string(agui.Abandoned):
		return agui.Answer{}, fmt.Errorf("status is %q, not %q or %q", *e.Status, agui.Resolved, agui.Abandoned)
	case string(e.Payload) == "null":
		return agui.Answer{}, errors.New("payload must not be null: leave it out for none")
	case e.Metadata != nil && !bytes.HasPrefix(e.Metadata, []byte("{")):
		return agui.Answer{}, errors.New("metadata must be an object")
	}
	a := agui.Answer{InterruptID: *e.InterruptID, Status: agui.ResumeStatus(*e.Status)}
	if e.Payload != nil {
		a.Payload = script.Compact(e.Payload)
	}
	if e.Metadata != nil {
		a.Metadata = script.Compact(e.Metadata)
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
