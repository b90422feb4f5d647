package agui

import (
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Streams in these tests are written as events, one JSON object each;
// run events name thread "t" and run "r" unless they say otherwise.
const (
	started  = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	finished = `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`
)

// replay feeds events to a consumer of a run whose request it did not
// make, and returns every step.
func replay(t testing.TB, events ...string) (*Consumer, []Judgement) {
	t.Helper()
	return replayWith(t, Input{}, Options{}, events...)
}

func replayWith(t testing.TB, in Input, opts Options, events ...string) (*Consumer, []Judgement) {
	t.Helper()
	c, err := NewConsumer(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	var steps []Judgement
	for _, e := range events {
		steps = append(steps, c.Feed([]byte(e)))
	}
	return c, steps
}

// input reads a RunAgentInput that must be valid.
func input(t testing.TB, data string) Input {
	t.Helper()
	in, _, err := ReadInput([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// rejected checks that the stream breaks rule at event index, and that
// the reason says what it must.
func rejected(t *testing.T, steps []Judgement, rule Rule, index int, says string) {
	t.Helper()
	last := steps[len(steps)-1]
	switch v := last.Violation; {
	case v == nil:
		t.Fatalf("accepted; want %s at event %d", rule, index)
	case v.Rule != rule || v.Index != index || !strings.Contains(v.Reason, says):
		t.Fatalf("rejected for %s at event %d: %s; want %s at %d, saying %q", v.Rule, v.Index, v.Reason, rule, index, says)
	}
	for _, s := range steps[:index] {
		if s.Violation != nil {
			t.Fatalf("rejected early, at event %d: %v", s.Index, s.Violation)
		}
	}
}

// accepted checks that no event broke a rule and every run ended.
func accepted(t *testing.T, c *Consumer, steps []Judgement) {
	t.Helper()
	for _, s := range steps {
		if s.Violation != nil {
			t.Fatalf("rejected at event %d: %s: %s", s.Index, s.Violation.Rule, s.Violation.Reason)
		}
	}
	if why := c.End(); why != "" {
		t.Fatalf("truncated: %s", why)
	}
}

// warned returns the warnings of all steps.
func warned(steps []Judgement) []Warning {
	var out []Warning
	for _, s := range steps {
		out = append(out, s.Warnings...)
	}
	return out
}

// delivered lists the types application code received.
func delivered(steps []Judgement) string {
	var out []string
	for _, s := range steps {
		for _, e := range s.Events {
			out = append(out, string(e.Type))
		}
	}
	return strings.Join(out, " ")
}

// messages is the conversation as compact JSON.
func messages(c *Consumer) string { return string(jsonpatch.Encode(jsonpatch.NewArray(c.Messages()))) }

// state is the JSON state as compact JSON.
func state(c *Consumer) string { return string(c.State().AppendJSON(nil)) }

func text(id, s string) []string {
	return []string{
		`{"type":"TEXT_MESSAGE_START","messageId":"` + id + `","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"` + id + `","delta":"` + s + `"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"` + id + `"}`,
	}
}

// run is a whole run around the events.
func run(events ...string) []string { return append(append([]string{started}, events...), finished) }

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
