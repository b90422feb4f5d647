package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Expect is what a script says a 1.0 consumer ends with: the corpus's
// "expect" (spec/1.0/conformance/README.md in ag-ui-protocol/ag-ui).
type Expect struct {
	Outcome            string          // "completed" (consumed) or "failed" (rejected)
	RunError           json.RawMessage // true, false, or a string the message holds
	State              json.RawMessage
	Messages           json.RawMessage
	MessageCount       *int
	EventTypes         []string
	EventTypesAbsent   []string
	EventPaths         map[string]json.RawMessage
	EventAbsentPaths   []string
	Request            json.RawMessage
	RequestAbsentPaths []string
	// SHOULD-level and wording-level: reported apart, never a failure.
	Warnings      []string
	NoWarnings    bool
	ErrorContains string
}

// readExpect reads an "expect" object exactly, as a script is read
// (script.Doc): a member unknown, named in another case, given twice or
// of the wrong type is an error, since each would assert what the file
// does not say. Errors name the member, not a line: the expect alone is
// read, so its lines are not its file's.
func readExpect(raw json.RawMessage) (Expect, error) {
	d := script.Doc(raw)
	members, err := exactly(d, raw, 0, "the expect")
	if err != nil {
		return Expect{}, err
	}
	if err := d.Only(members, "the expect", "outcome", "runError", "state", "messages", "messageCount", "eventTypes", "eventTypesAbsent",
		"eventPaths", "eventAbsentPaths", "request", "requestAbsentPaths", "warnings", "noWarnings", "errorContains"); err != nil {
		return Expect{}, errors.New(err.Reason)
	}
	var e Expect
	for _, m := range members {
		var err error
		switch m.Name {
		case "outcome":
			if e.Outcome, err = text(d, m); err == nil && e.Outcome != "completed" && e.Outcome != "failed" {
				err = fmt.Errorf(`outcome must be "completed" or "failed", not %q`, e.Outcome)
			}
		case "runError":
			if k := m.Value.Kind(); k != 't' && k != 'f' && k != '"' {
				err = errors.New("runError must be true, false or a string")
			}
			e.RunError = json.RawMessage(m.Value)
		case "state":
			e.State = json.RawMessage(m.Value)
		case "messages":
			e.Messages = json.RawMessage(m.Value)
		case "request":
			e.Request = json.RawMessage(m.Value)
		case "messageCount":
			n, perr := strconv.Atoi(string(m.Value))
			if m.Value.Kind() != '0' || perr != nil || n < 0 {
				err = fmt.Errorf("messageCount must be a whole number, not %s", m.Value)
			}
			e.MessageCount = &n
		case "eventTypes":
			e.EventTypes, err = texts(d, m)
		case "eventTypesAbsent":
			e.EventTypesAbsent, err = texts(d, m)
		case "eventAbsentPaths":
			e.EventAbsentPaths, err = texts(d, m)
		case "requestAbsentPaths":
			e.RequestAbsentPaths, err = texts(d, m)
		case "warnings":
			e.Warnings, err = texts(d, m)
		case "eventPaths":
			var paths []script.Member
			if paths, err = exactly(d, m.Value, m.At, m.Name); err == nil {
				e.EventPaths = map[string]json.RawMessage{}
				for _, p := range paths {
					e.EventPaths[p.Name] = json.RawMessage(p.Value)
				}
			}
		case "noWarnings":
			if k := m.Value.Kind(); k != 't' && k != 'f' {
				err = errors.New("noWarnings must be true or false")
			}
			e.NoWarnings = m.Value.Kind() == 't'
		case "errorContains":
			e.ErrorContains, err = text(d, m)
		}
		if err != nil {
			return Expect{}, err
		}
	}
	return e, nil
}

// exactly reads an object of the expect, each name once.
func exactly(d script.Doc, raw []byte, at int, what string) ([]script.Member, error) {
	members, err := d.Members(raw, at, what)
	if err != nil {
		return nil, errors.New(err.Reason)
	}
	seen := make(map[string]bool, len(members))
	for _, n := range members {
		if seen[n.Name] {
			return nil, fmt.Errorf("%s gives %q twice", what, n.Name)
		}
		seen[n.Name] = true
	}
	return members, nil
}

func text(d script.Doc, m script.Member) (string, error) {
	s, err := d.Text(m)
	if err != nil {
		return "", errors.New(err.Reason)
	}
	return s, nil
}

// texts reads a list of strings.
func texts(d script.Doc, m script.Member) ([]string, error) {
	items, err := d.Array(m.Value, m.At, m.Name)
	if err != nil {
		return nil, errors.New(err.Reason)
	}
	out := make([]string, len(items))
	for i, it := range items {
		var err error
		if out[i], err = text(d, script.Member{Name: fmt.Sprintf("%s %d", m.Name, i), Value: it.Value, At: it.At}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// compare lists where the replay disagrees with what is expected, each
// named by the expectation ("expect.state"), and, apart, what differs at
// the SHOULD or wording level.
func compare(r Replay, e Expect) (disagree []rules.Failure, notes []string) {
	fail := func(member, format string, args ...any) {
		disagree = append(disagree, rules.Failure{Rule: "expect." + member, Text: fmt.Sprintf(format, args...)})
	}
	if e.Outcome != "" {
		got := "completed"
		if !r.Accepted() {
			got = "failed"
		}
		if got != e.Outcome {
			fail("outcome", "outcome %s (%s), want %s", got, ending(r), e.Outcome)
		}
	}
	if e.RunError != nil {
		reported, errored := "", false // a RUN_ERROR's message may be ""
		for _, run := range r.Runs {
			if run.Error != nil {
				reported, errored = run.Error.Message, true
			}
		}
		var want any
		json.Unmarshal(e.RunError, &want)
		switch want := want.(type) {
		case bool:
			if errored != want {
				fail("runError", "runError %v, want %v", errored, want)
			}
		case string:
			if !strings.Contains(reported, want) {
				fail("runError", "runError %q, want one containing %q", reported, want)
			}
		}
	}
	if e.State != nil {
		if want := decode(e.State); !subset(r.State, want) {
			fail("state", "state %s, want %s", jsonpatch.Encode(r.State), e.State)
		}
	}
	if e.Messages != nil {
		if want := decode(e.Messages); !subset(jsonpatch.NewArray(r.Messages), want) {
			fail("messages", "messages %s, want %s", jsonpatch.Encode(jsonpatch.NewArray(r.Messages)), e.Messages)
		}
	}
	if e.MessageCount != nil && len(r.Messages) != *e.MessageCount {
		fail("messageCount", "%d messages, want %d", len(r.Messages), *e.MessageCount)
	}
	types := make([]string, len(r.Delivered))
	for i, ev := range r.Delivered {
		types[i] = string(ev.Type)
	}
	if e.EventTypes != nil && !slices.Equal(types, e.EventTypes) {
		fail("eventTypes", "events delivered %v, want %v", types, e.EventTypes)
	}
	for _, t := range e.EventTypesAbsent {
		if slices.Contains(types, t) {
			fail("eventTypesAbsent", "%s was delivered", t)
		}
	}
	for _, path := range slices.Sorted(maps.Keys(e.EventPaths)) { // a map's order would change the report run to run
		raw := e.EventPaths[path]
		got, ok := eventPath(r.Delivered, path)
		if !ok || !jsonpatch.Equal(got, decode(raw)) {
			fail("eventPaths", "event path %s is %s, want %s", path, show(got, ok), raw)
		}
	}
	for _, path := range e.EventAbsentPaths {
		if got, ok := eventPath(r.Delivered, path); ok {
			fail("eventAbsentPaths", "event path %s is %s, want it absent", path, jsonpatch.Encode(got))
		}
	}
	if e.Request != nil {
		if r.Request == nil || !subset(r.Request, decode(e.Request)) {
			fail("request", "request %s, want %s", show(r.Request, r.Request != nil), e.Request)
		}
	}
	for _, path := range e.RequestAbsentPaths {
		if got, ok := dotted(r.Request, strings.Split(path, ".")); ok {
			fail("requestAbsentPaths", "request path %s is %s, want it absent", path, jsonpatch.Encode(got))
		}
	}
	texts := make([]string, len(r.Warnings))
	for i, w := range r.Warnings {
		texts[i] = w.Text
	}
	for _, want := range e.Warnings {
		if !slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(t, want) }) {
			notes = append(notes, fmt.Sprintf("no warning mentions %q (SHOULD)", want))
		}
	}
	if e.NoWarnings && len(texts) > 0 {
		notes = append(notes, fmt.Sprintf("warned %q where no warning is expected (SHOULD)", texts))
	}
	if e.ErrorContains != "" && r.Violation != nil && !strings.Contains(r.Violation.Reason, e.ErrorContains) {
		notes = append(notes, fmt.Sprintf("rejected as %q, where the corpus words it %q (wording)", r.Violation.Reason, e.ErrorContains))
	}
	return disagree, notes
}

// ending says how a replay ended, for a message.
func ending(r Replay) string {
	if f := verdict(r); f != nil {
		return f.Text
	}
	return "every run ended"
}

// verdict is why the consumer did not accept a replay, or nil.
func verdict(r Replay) *rules.Failure {
	switch {
	case r.InputErr != nil:
		return &rules.Failure{Rule: rules.Input, Text: r.InputErr.Error()}
	case r.Violation != nil:
		return violation(r.Violation)
	case r.Truncated != "":
		return &rules.Failure{Rule: rules.Truncated, Text: r.Truncated}
	}
	return nil
}

// violation says where the stream broke the rule, its events numbered
// from 1 as the page's Wire list and the proxy number them.
func violation(v *agui.Violation) *rules.Failure {
	return &rules.Failure{Rule: v.Rule.ID(), Text: v.Reason, Event: v.Index + 1}
}

func decode(raw json.RawMessage) jsonpatch.Value {
	v, err := jsonpatch.Decode(raw)
	if err != nil {
		return err.Error()
	}
	return v
}

func show(v jsonpatch.Value, ok bool) string {
	if !ok {
		return "absent"
	}
	return string(jsonpatch.Encode(v))
}

// subset is the corpus's match: objects on the keys want names, arrays
// item by item at the same length, anything else equal.
func subset(got, want jsonpatch.Value) bool {
	switch want := want.(type) {
	case *jsonpatch.Object:
		g, ok := got.(*jsonpatch.Object)
		if !ok {
			return false
		}
		for _, name := range want.Names() {
			w, _ := want.Get(name)
			v, ok := g.Get(name)
			if !ok || !subset(v, w) {
				return false
			}
		}
		return true
	case *jsonpatch.Array:
		g, ok := got.(*jsonpatch.Array)
		if !ok || g.Len() != want.Len() {
			return false
		}
		for i := range want.Len() {
			if !subset(g.At(i), want.At(i)) {
				return false
			}
		}
		return true
	}
	return jsonpatch.Equal(got, want)
}

// eventPath reads "<index>.<dotted path>" in the delivered events.
func eventPath(delivered []agui.Event, path string) (jsonpatch.Value, bool) {
	parts := strings.Split(path, ".")
	i, err := strconv.Atoi(parts[0])
	if err != nil || i < 0 || i >= len(delivered) {
		return nil, false
	}
	v, err := jsonpatch.Decode(delivered[i].JSON)
	if err != nil {
		return nil, false
	}
	return dotted(v, parts[1:])
}

// dotted follows member names and array indices.
func dotted(v jsonpatch.Value, path []string) (jsonpatch.Value, bool) {
	for _, token := range path {
		switch node := v.(type) {
		case *jsonpatch.Object:
			next, ok := node.Get(token)
			if !ok {
				return nil, false
			}
			v = next
		case *jsonpatch.Array:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= node.Len() {
				return nil, false
			}
			v = node.At(i)
		default:
			return nil, false
		}
	}
	return v, true
}
