package script

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui"
)

// A script whose requested run ends interrupted (the interrupt outcome)
// may say how the run that resumes it goes: "continuations", each a
// stream played when the resume's answers match its "when"
// (basic/patterns/interrupt-resume). The first that matches plays; a
// server picks it from the request alone (see BindInterrupt).

// Continuation is one way a script's interrupted run goes on.
type Continuation struct {
	Name   string
	When   []Match // every one must match an answer of the resume
	Frames []Frame
	Extra  map[string]json.RawMessage // its other members ("outcome", …)
	Line   int                        // where it starts in its file, from 1
}

// Match is what a resume must answer one interrupt with for a
// continuation to play.
type Match struct {
	InterruptID string          `json:"interruptId"`       // the interrupt's id as the script writes it
	Status      string          `json:"status,omitempty"`  // "resolved" or "cancelled"; "" for either
	Payload     json.RawMessage `json:"payload,omitempty"` // nil for any; else the answer's payload holds it (Contains)
}

// readContinuations reads the "continuations" member of a script object.
func readContinuations(d Doc, m Member) ([]Continuation, *Error) {
	items, err := d.Array(m.Value, m.At, "continuations")
	if err != nil {
		return nil, err
	}
	var out []Continuation
	seen := map[string]bool{}
	lines := &lineCounter{d: d} // one for all: their offsets only grow
	for i, it := range items {
		c, err := readContinuation(d, it, lines)
		if err != nil {
			err.Reason = fmt.Sprintf("continuation %d: %s", i, err.Reason)
			return nil, err
		}
		if seen[c.Name] {
			return nil, d.ErrorAt(it.At, "continuation %d: the name %q is taken by an earlier one", i, c.Name)
		}
		seen[c.Name] = true
		out = append(out, c)
	}
	return out, nil
}

// readContinuation reads one continuation: a "name", a "when" and a
// "stream"; other members are kept ("expect", "outcome", …).
func readContinuation(d Doc, it Item, lines *lineCounter) (Continuation, *Error) {
	line := lines.lineAt(it.At)
	members, err := d.Object(it.Value, it.At, "a continuation")
	if err != nil {
		return Continuation{}, err
	}
	c := Continuation{Line: line, Extra: map[string]json.RawMessage{}}
	name, when, stream := Find(members, "name"), Find(members, "when"), Find(members, "stream")
	switch {
	case name == nil:
		return Continuation{}, d.ErrorAt(it.At, "a continuation has a \"name\", a \"when\" and a \"stream\": name is missing")
	case when == nil:
		return Continuation{}, d.ErrorAt(it.At, "a continuation has a \"name\", a \"when\" and a \"stream\": when is missing")
	case stream == nil:
		return Continuation{}, d.ErrorAt(it.At, "a continuation has a \"name\", a \"when\" and a \"stream\": stream is missing")
	}
	if c.Name, err = d.Text(*name); err != nil {
		return Continuation{}, err
	}
	if strings.TrimSpace(c.Name) == "" {
		return Continuation{}, d.ErrorAt(name.At, "name must not be blank")
	}
	matches, err := d.Array(when.Value, when.At, "when")
	if err != nil {
		return Continuation{}, err
	}
	if len(matches) == 0 {
		return Continuation{}, d.ErrorAt(when.At, "%q: when must list at least one answer", c.Name)
	}
	for n, raw := range matches {
		m, err := readMatch(d, raw)
		if err != nil {
			err.Reason = fmt.Sprintf("%q: when %d: %s", c.Name, n, err.Reason)
			return Continuation{}, err
		}
		// A resume answers an interrupt once: two entries for one could
		// be met by one answer (Matches), a resume the engine refuses.
		for e, earlier := range c.When {
			if earlier.InterruptID == m.InterruptID {
				return Continuation{}, d.ErrorAt(raw.At, "%q: when %d: interrupt %q is named twice (when %d names it): a resume answers an interrupt once", c.Name, n, m.InterruptID, e)
			}
		}
		c.When = append(c.When, m)
	}
	items, err := d.Array(stream.Value, stream.At, "stream")
	if err != nil {
		return Continuation{}, err
	}
	if len(items) == 0 {
		return Continuation{}, d.ErrorAt(stream.At, "%q: the stream holds no event", c.Name)
	}
	if c.Frames, err = readFrames(d, items, lines); err != nil {
		err.Reason = fmt.Sprintf("%q: %s", c.Name, err.Reason)
		return Continuation{}, err
	}
	for _, m := range members {
		switch m.Name {
		case "name", "when", "stream":
		default:
			c.Extra[m.Name] = json.RawMessage(m.Value)
		}
	}
	return c, nil
}

// readMatch reads one item of "when": only the three members, since a
// misspelt one would match any answer.
func readMatch(d Doc, it Item) (Match, *Error) {
	members, err := d.Object(it.Value, it.At, "an answer")
	if err != nil {
		return Match{}, err
	}
	if err := d.Only(members, "an answer", "interruptId", "status", "payload"); err != nil {
		return Match{}, err
	}
	var m Match
	if id := Find(members, "interruptId"); id == nil {
		return Match{}, d.ErrorAt(it.At, "interruptId is required")
	} else if m.InterruptID, err = d.Text(*id); err != nil {
		return Match{}, err
	} else if strings.TrimSpace(m.InterruptID) == "" {
		return Match{}, d.ErrorAt(id.At, "interruptId must not be blank")
	}
	if status := Find(members, "status"); status != nil {
		if m.Status, err = d.Text(*status); err != nil {
			return Match{}, err
		}
		if m.Status != string(agui.Resolved) && m.Status != string(agui.Abandoned) {
			return Match{}, d.ErrorAt(status.At, "status must be %q or %q (or left out for either)", agui.Resolved, agui.Abandoned)
		}
	}
	if payload := Find(members, "payload"); payload != nil {
		if payload.Value.Kind() == 'n' {
			return Match{}, d.ErrorAt(payload.At, "payload must not be null: leave it out to match any")
		}
		m.Payload = Compact(json.RawMessage(payload.Value))
	}
	return m, nil
}

// Matches reports whether a resume's answers, their interrupt ids as the
// script writes them (UnbindInterrupt), are what c waits for: each of its
// matches met by an answer to that interrupt.
func (c Continuation) Matches(answers []agui.Answer) bool {
	for _, m := range c.When {
		met := false
		for _, a := range answers {
			if a.InterruptID == m.InterruptID && (m.Status == "" || string(a.Status) == m.Status) &&
				(m.Payload == nil || (a.Payload != nil && Contains(a.Payload, m.Payload))) {
				met = true
				break
			}
		}
		if !met {
			return false
		}
	}
	return true
}

// Contains reports whether a JSON value holds a pattern: an object the
// pattern's members, each holding its value in turn (other members are
// free); an array or a scalar exactly, numbers by value (1 is 1.0).
// Values that are not JSON hold nothing.
func Contains(value, pattern []byte) bool {
	v, err1 := decodeNumbers(value)
	p, err2 := decodeNumbers(pattern)
	return err1 == nil && err2 == nil && holds(v, p, true)
}

func decodeNumbers(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// holds compares v with p: objects on p's members alone when subset,
// whole otherwise (inside arrays).
func holds(v, p any, subset bool) bool {
	switch p := p.(type) {
	case map[string]any:
		o, ok := v.(map[string]any)
		if !ok || (!subset && len(o) != len(p)) {
			return false
		}
		for k, pv := range p {
			ov, ok := o[k]
			if !ok || !holds(ov, pv, subset) {
				return false
			}
		}
		return true
	case []any:
		a, ok := v.([]any)
		if !ok || len(a) != len(p) {
			return false
		}
		for i := range p {
			if !holds(a[i], p[i], false) {
				return false
			}
		}
		return true
	case json.Number:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		// Floats of a fixed precision: a rational of an exponent a request
		// chose (1e999999999) could take any memory.
		x, _, err1 := big.ParseFloat(n.String(), 10, 512, big.ToNearestEven)
		y, _, err2 := big.ParseFloat(p.String(), 10, 512, big.ToNearestEven)
		return err1 == nil && err2 == nil && x.Cmp(y) == 0
	default: // string, bool, nil
		return v == p
	}
}
