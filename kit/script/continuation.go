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
func readContinuations(raw json.RawMessage, data []byte) ([]Continuation, error) {
	at := lineOf(data, `"continuations"`)
	if string(raw) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, &Error{Line: at, Reason: "continuations must be a list of objects"}
	}
	offset := bytes.Index(data, raw)
	if offset < 0 {
		offset = 0
	}
	var out []Continuation
	seen := map[string]bool{}
	for i, item := range items {
		line := at
		from := offset
		if j := bytes.Index(data[offset:], item); j >= 0 {
			from = offset + j
			line = lineAt(data, from)
			offset = from + len(item)
		}
		c, err := readContinuation(item, data, from)
		if err != nil {
			if err.Line == 0 {
				err.Line = line
			}
			err.Reason = fmt.Sprintf("continuation %d: %s", i, err.Reason)
			return nil, err
		}
		if seen[c.Name] {
			return nil, &Error{Line: line, Reason: fmt.Sprintf("continuation %d: the name %q is taken by an earlier one", i, c.Name)}
		}
		seen[c.Name] = true
		c.Line = line
		out = append(out, c)
	}
	return out, nil
}

// readContinuation reads one continuation, found at from in data.
// Its error's line is 0 unless a frame says where.
func readContinuation(item json.RawMessage, data []byte, from int) (Continuation, *Error) {
	fail := func(format string, args ...any) (Continuation, *Error) {
		return Continuation{}, &Error{Reason: fmt.Sprintf(format, args...)}
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(item, &members); err != nil {
		return fail("a continuation is an object with a \"name\", \"when\" and \"stream\"")
	}
	var head struct {
		Name   *string           `json:"name"`
		When   []json.RawMessage `json:"when"`
		Stream []json.RawMessage `json:"stream"`
	}
	if err := json.Unmarshal(item, &head); err != nil {
		return fail("%v", err)
	}
	if head.Name == nil || strings.TrimSpace(*head.Name) == "" {
		return fail("name must not be blank")
	}
	c := Continuation{Name: *head.Name, Extra: map[string]json.RawMessage{}}
	if len(head.When) == 0 {
		return fail("%q: when must list at least one answer", c.Name)
	}
	for n, raw := range head.When {
		m, err := readMatch(raw)
		if err != nil {
			return fail("%q: when %d: %v", c.Name, n, err)
		}
		c.When = append(c.When, m)
	}
	if len(head.Stream) == 0 {
		return fail("%q: the stream holds no event", c.Name)
	}
	frames, err := readFrames(head.Stream, data, from)
	if err != nil {
		err.Reason = fmt.Sprintf("%q: %s", c.Name, err.Reason)
		return Continuation{}, err
	}
	c.Frames = frames
	for k, v := range members {
		switch k {
		case "name", "when", "stream":
		default:
			c.Extra[k] = v
		}
	}
	return c, nil
}

// readMatch reads one item of "when": only the three members, since a
// misspelt one would match any answer.
func readMatch(raw json.RawMessage) (Match, error) {
	var m Match
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Match{}, fmt.Errorf("an answer is {\"interruptId\", \"status\", \"payload\"}: %v", err)
	}
	switch {
	case strings.TrimSpace(m.InterruptID) == "":
		return Match{}, fmt.Errorf("interruptId must not be blank")
	case m.Status != "" && m.Status != string(agui.Resolved) && m.Status != string(agui.Abandoned):
		return Match{}, fmt.Errorf("status must be %q or %q (or left out for either)", agui.Resolved, agui.Abandoned)
	case m.Payload != nil && string(m.Payload) == "null":
		return Match{}, fmt.Errorf("payload must not be null: leave it out to match any")
	}
	if m.Payload != nil {
		m.Payload = Compact(m.Payload)
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
