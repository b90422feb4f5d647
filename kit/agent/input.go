package agent

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// DemoInput is the RunAgentInput the demo sends for a scenario, under
// fresh ids: an agent may refuse a run id it has seen.
func DemoInput(scenario string) (agui.Input, error) {
	return core.Run{ThreadID: freshID("thread"), RunID: freshID("run"), Scenario: scenario}.Input()
}

// freshID is a random id, readable in a log: "run-2xq7kd4mfa".
func freshID(kind string) string {
	return kind + "-" + strings.ToLower(rand.Text()[:10])
}

// ReadInputFile reads a RunAgentInput from a file, bounded as a script
// is (script.ReadBounded), and checks it as a client about to send it
// must. The members a run cannot go without are filled in when the file
// leaves them out: fresh threadId and runId, and no messages.
// Unrecognised members are removed, with a warning. Errors start with the
// path; a JSON error says its line.
func ReadInputFile(path string) (agui.Input, []agui.Warning, error) {
	data, err := script.ReadBounded(path, "a run input")
	if err != nil {
		return agui.Input{}, nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // as a script may start
	data, err = withRunMembers(data)
	if err != nil {
		return agui.Input{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	in, warnings, err := agui.ReadInput(data)
	if err != nil {
		return agui.Input{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	return in, warnings, nil
}

// withRunMembers adds to a JSON object, after its own members (whose order
// and spelling it keeps), the threadId, runId and messages it lacks.
func withRunMembers(data []byte) ([]byte, error) {
	body := bytes.TrimLeft(data, " \t\r\n")
	if len(body) == 0 || body[0] != '{' {
		line := 1 + bytes.Count(data[:len(data)-len(body)], []byte("\n"))
		return nil, &script.Error{Line: line, Reason: "a RunAgentInput is a JSON object"}
	}
	var members map[string]json.RawMessage
	if err := script.Decode(data, &members); err != nil {
		return nil, err
	}
	added := []byte{}
	add := func(name string, value any) {
		if _, ok := members[name]; ok {
			return
		}
		v, _ := json.Marshal(value)
		added = fmt.Appendf(added, ",%q:%s", name, v)
	}
	add("threadId", freshID("thread"))
	add("runId", freshID("run"))
	add("messages", []struct{}{})
	if len(added) == 0 {
		return data, nil
	}
	body = bytes.TrimSpace(body)
	body = body[:len(body)-1] // the closing brace
	if len(members) == 0 {
		added = added[1:] // no member before the first added one
		body = bytes.TrimRight(body, " \t\r\n")
	}
	return append(append(bytes.Clone(body), added...), '}'), nil
}
