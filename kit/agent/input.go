package agent

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Inputs is what a run's RunAgentInput takes besides what the user wrote.
type Inputs struct {
	// ThreadID is the thread to run on, continuing it; "" for a fresh
	// thread, unless the input names one.
	ThreadID string
	// Scenario is forwardedProps.scenario, which this project's server
	// plays the script of; "" for none, what any other agent gets unless
	// asked.
	Scenario string
	// State is the state an input that gives none starts from; nil for
	// the empty object.
	State []byte
}

// NewInput is the RunAgentInput of a run: given, a JSON object read
// exactly (nil for none), with every member AG-UI's RunAgentInput
// requires added where it is missing, empty where nothing was given: a
// fresh threadId (or in.ThreadID) and runId, and no messages, tools,
// context, state or forwardedProps. Real agents refuse an input without
// them (a 400, a 422 "tools: Field required"). Members given keep their
// order and spelling; the added ones follow. The engine then reads it as
// a client about to send it must (agui.ReadInput): unrecognised members
// are removed, with a warning.
func NewInput(given []byte, in Inputs) (agui.Input, []agui.Warning, error) {
	var names []string
	var values []jsonpatch.Value
	if given != nil {
		var err error
		if names, values, err = readObject(given); err != nil {
			return agui.Input{}, nil, err
		}
	}
	has := func(name string) int {
		for i, n := range names {
			if n == name {
				return i
			}
		}
		return -1
	}
	for _, given := range []string{in.ThreadID, in.Scenario} {
		if !utf8.ValidString(given) {
			return agui.Input{}, nil, fmt.Errorf("%q is not valid UTF-8", given)
		}
	}
	if i := has("threadId"); i >= 0 && in.ThreadID != "" && values[i] != in.ThreadID {
		return agui.Input{}, nil, fmt.Errorf("the input's threadId is %s, and -thread %q names another", jsonpatch.Encode(values[i]), in.ThreadID)
	}
	thread := in.ThreadID
	if thread == "" {
		thread = freshID("thread")
	}
	var state jsonpatch.Value = jsonpatch.NewObject(nil, nil)
	if in.State != nil {
		var err error
		if state, err = jsonpatch.Decode(in.State); err != nil {
			return agui.Input{}, nil, fmt.Errorf("the state: %v", err)
		}
	}
	for _, m := range []struct {
		name  string
		value jsonpatch.Value
	}{
		{"threadId", thread}, {"runId", freshID("run")}, {"messages", jsonpatch.NewArray(nil)},
		{"tools", jsonpatch.NewArray(nil)}, {"context", jsonpatch.NewArray(nil)},
		{"state", state}, {"forwardedProps", jsonpatch.NewObject(nil, nil)},
	} {
		if has(m.name) < 0 {
			names, values = append(names, m.name), append(values, m.value)
		}
	}
	if in.Scenario != "" {
		i := has("forwardedProps")
		props, ok := values[i].(*jsonpatch.Object)
		if !ok {
			return agui.Input{}, nil, fmt.Errorf("the input's forwardedProps is not an object: -scenario %q cannot be added to it", in.Scenario)
		}
		if v, named := props.Get("scenario"); named && v != in.Scenario {
			return agui.Input{}, nil, fmt.Errorf("the input's forwardedProps.scenario is %s, and -scenario %q names another", jsonpatch.Encode(v), in.Scenario)
		} else if !named {
			values[i] = jsonpatch.NewObject(append(props.Names(), "scenario"), append(valuesOf(props), in.Scenario))
		}
	}
	return agui.ReadInput(jsonpatch.Encode(jsonpatch.NewObject(names, values)))
}

// readObject reads a JSON object exactly, each member's value as the
// engine holds JSON; errors say their line and column.
func readObject(data []byte) ([]string, []jsonpatch.Value, error) {
	d := script.Doc(data)
	body := bytes.TrimPrefix(data, []byte("\ufeff")) // as a script may start
	members, err := d.Object(body, len(data)-len(body), "a RunAgentInput")
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(members))
	values := make([]jsonpatch.Value, len(members))
	for i, m := range members {
		v, err := jsonpatch.Decode(m.Value)
		if err != nil {
			return nil, nil, d.ErrorAt(m.At, "%s: %v", m.Name, err)
		}
		names[i], values[i] = m.Name, v
	}
	return names, values, nil
}

func valuesOf(o *jsonpatch.Object) []jsonpatch.Value {
	out := make([]jsonpatch.Value, 0, len(o.Names()))
	for _, n := range o.Names() {
		v, _ := o.Get(n)
		out = append(out, v)
	}
	return out
}

// freshID is a random id, readable in a log: "run-2xq7kd4mfa".
func freshID(kind string) string {
	return kind + "-" + strings.ToLower(rand.Text()[:10])
}

// ReadInputFile reads a RunAgentInput from a file, bounded as a script
// is (script.ReadBounded), and completes it as NewInput does. Errors
// start with the path; a JSON error says its line and column.
func ReadInputFile(path string, in Inputs) (agui.Input, []agui.Warning, error) {
	data, err := script.ReadBounded(path, "a run input")
	if err != nil {
		return agui.Input{}, nil, err
	}
	return ReadInputData(path, data, in)
}

// ReadInputData is ReadInputFile for an input read already (from
// standard input): name says where from, in errors.
func ReadInputData(name string, data []byte, in Inputs) (agui.Input, []agui.Warning, error) {
	input, warnings, err := NewInput(data, in)
	var ie *agui.InputError
	if errors.As(err, &ie) {
		err = fmt.Errorf("the engine refuses it: %w", err)
	}
	if err != nil {
		return agui.Input{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	return input, warnings, nil
}
